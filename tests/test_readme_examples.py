"""The README's Python examples run as written and end: its five-line game once always played
the first legal action, a pass, and under Napoleon's ``all_pass: redeal`` it dealt again for ever
(a stray copy of it grew to 16.8 GB)."""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

from torampu.game import Game

README = Path(__file__).resolve().parent.parent / "README.md"
MOST_MOVES = 20_000
"""Far past any game's length (random play: 70 actions in Napoleon, 210 in 8-player Daifugo):
an example still playing then does not end."""


def _block(heading: str) -> str:
    """The first Python block of the README's section ``heading``."""
    text = README.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found, heading
    return found.group(1)


def test_the_api_in_five_lines_plays_a_game_to_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    moves = 0
    play = Game.play

    def counted(self: Game, action: Any) -> Any:
        nonlocal moves
        moves += 1
        assert moves <= MOST_MOVES, "the README's game does not end"
        return play(self, action)

    monkeypatch.setattr(Game, "play", counted)
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        exec(_block("The API in five lines"), {"__name__": "readme"})
    assert 0 < moves < MOST_MOVES
    scores, why = said.getvalue().rsplit("]", 1)
    assert len(ast.literal_eval(scores + "]")) == 5, said.getvalue()  # (five players' scores)
    assert why.strip(), said.getvalue()  # (the last trick's ruling, in Japanese)
