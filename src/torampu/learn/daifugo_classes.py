"""Counting how Daifugo titles lead to places, on matches the project's bots play: the table
behind the search's ``reward=class`` (:mod:`torampu.search.daifugo_classes`)."""

from __future__ import annotations

import random
from collections.abc import Callable

import torampu
from torampu.bots.base import make_bot, parse_bot_spec
from torampu.daifugo import Daifugo


def count_transitions(
    bot: str = "heuristic",
    rules: str = "uecda",
    players: int | None = None,
    matches: int = 40,
    games: int = 100,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> list[list[int]]:
    """``table[t][p]``: in ``matches`` matches of ``games`` games with ``bot`` at every seat,
    how many times a player who started a game with title ``t`` finished it in place ``p``
    (games without titles, the first of a match or after a reset, are not counted)."""
    kind, options = parse_bot_spec(bot)
    rng = random.Random(seed)
    table: list[list[int]] | None = None
    for k in range(matches):
        match = torampu.new_match(
            "daifugo", rules, players=players, games=games, seed=rng.getrandbits(63)
        )
        n = match.n
        if table is None:
            table = [[0] * n for _ in range(n)]
        bots = [make_bot(kind, rng.getrandbits(63), "daifugo", **options) for _ in range(n)]
        while not match.is_over:
            g = match.game
            s = match.to_play
            assert s is not None
            match.play(bots[s].choose(match.view(s), match.legal_actions()))
            if g.is_over:
                assert isinstance(g, Daifugo)
                if g.titles is not None:
                    for place, seat in enumerate(g.ranking):
                        table[g.titles[seat]][place] += 1
        if progress is not None:
            progress(k + 1)
    assert table is not None
    return table
