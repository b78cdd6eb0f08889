"""A place's worth over a Daifugo match (:mod:`torampu.search.daifugo_classes`), the table behind
it (``torampu train daifugo-classes``) and the ``ismcts`` option ``reward=class``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import torampu
import torampu.bots.search as search_bot
from torampu.bots import BotError, make_bot
from torampu.cli import app
from torampu.daifugo import Daifugo
from torampu.learn.daifugo_classes import count_transitions
from torampu.search import sampler_for
from torampu.search.daifugo_classes import class_reward, class_values, shipped_table


def test_a_title_that_changes_nothing_leaves_the_points() -> None:
    same = [[1, 2, 3, 4]] * 4  # every title finishes alike
    assert class_values(same, [4, 3, 2, 1]) == pytest.approx([3, 2, 1, 0])


def test_a_title_that_sticks_multiplies_the_gaps() -> None:
    stuck = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]  # each player keeps its place for ever
    assert class_values(stuck, [2, 1, 0], games=10) == pytest.approx([20, 10, 0])
    # a lasting advantage of the top title is worth more to the top places
    table = [[6, 3, 1], [3, 4, 3], [1, 3, 6]]
    v = class_values(table, [3, 2, 1])
    assert v[0] - v[1] > 1 and v[1] - v[2] > 1 and v[2] == 0


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="3×3"):
        class_values([[1, 2], [3, 4]], [3, 2, 1])
    with pytest.raises(ValueError, match="positive count"):
        class_values([[0, 0, 0], [1, 1, 1], [1, 1, 1]], [3, 2, 1])


def _finished(rules: str, players: int, seed: int) -> Daifugo:
    g = torampu.new_game("daifugo", rules, players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        moves = g.legal_moves()
        g.apply(moves[int(rng.random() * len(moves))])
    assert isinstance(g, Daifugo)
    return g


def test_the_reward_values_each_place_over_the_match() -> None:
    table = shipped_table()
    assert str(table["command"]).startswith("torampu train daifugo-classes")
    assert table["players"] == 5 and sum(map(sum, table["counts"])) > 10_000
    g = _finished("uecda", 5, 1)
    reward = class_reward(g.view(0))
    assert reward is not None
    by_place = [reward(g)[s] for s in g.ranking]
    assert by_place[0] == 1.0 and by_place[-1] == 0.0
    assert by_place == sorted(by_place, reverse=True)
    # the 平民 (third) is worth well under the half the one game's points give it
    assert by_place[2] < 0.45
    # the determinizations start after the exchange, with it off: the view decides
    mid = torampu.new_game("daifugo", "uecda", seed=1)
    for _ in range(5):
        mid.play(mid.legal_actions()[-1])
    view = mid.view(mid.to_play)
    sample = sampler_for("daifugo")(view, random.Random(0))
    assert view["rules"]["exchange"] and not sample.rules["exchange"]  # type: ignore[attr-defined]
    assert class_reward(view) is not None
    # another number of players, or no exchange: the game's own points
    assert class_reward(_finished("uecda", 4, 2).view(0)) is None
    plain = torampu.new_game("daifugo", {"preset": "uecda", "exchange": False}, seed=3)
    assert class_reward(plain.view(0)) is None


def test_counting_transitions_counts_every_titled_game() -> None:
    counts = count_transitions("random", "uecda", matches=2, games=4, seed=1)
    assert len(counts) == 5
    assert sum(map(sum, counts)) == 2 * 3 * 5  # games 2..4 of each match, five players each
    for t in range(5):  # each title is held once a game, and each place is reached once
        assert sum(counts[t]) == 6 and sum(row[t] for row in counts) == 6


def test_the_train_command(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    args = ["train", "daifugo-classes", "--bot", "random", "--matches", "1"]
    res = CliRunner().invoke(app, [*args, "--match-games", "6", "--seed", "2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "each place's value over the match" in res.output
    data = json.loads(out.read_text())
    assert data["players"] == 5 and sum(map(sum, data["counts"])) == 25
    assert data["values"][-1] == 0 and len(data["values"]) == 5
    assert data["command"].startswith("torampu train daifugo-classes")
    for bad in (["--matches", "0"], ["--bot", "nosuchbot"], ["--rules", "nosuchrules"]):
        res = CliRunner().invoke(app, ["train", "daifugo-classes", *bad, "--out", str(out)])
        assert res.exit_code == 2, (bad, res.output)


def test_the_bot_option(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    real = search_bot.ismcts

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("reward"))
        return real(*args, **kwargs)

    monkeypatch.setattr(search_bot, "ismcts", spy)
    g = torampu.new_game("daifugo", "uecda", seed=4)
    while len(g.legal_actions()) < 3:
        g.play(g.legal_actions()[-1])
    view, legal = g.view(g.to_play), g.legal_actions()
    make_bot("ismcts", 1, "daifugo", iterations=30, reward="class").choose(view, legal)
    make_bot("ismcts", 1, "daifugo", iterations=30).choose(view, legal)
    assert seen[0] is not None and seen[1] is None
    done = _finished("uecda", 5, 5)
    reward = class_reward(view)
    assert reward is not None and seen[0](done) == reward(done)
    with pytest.raises(BotError, match="reward must be points or class, not 'money'"):
        make_bot("ismcts", 1, "daifugo", reward="money")
    with pytest.raises(BotError, match="reward=class is Daifugo's only"):
        make_bot("ismcts", 1, "hell", reward="class")
