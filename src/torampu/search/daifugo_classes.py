"""What a finishing place is worth in a Daifugo match, the games it seeds included.

In a match with the card exchange, a game's place is the next game's title: the 大富豪 takes the
大貧民's best cards and starts the next game far ahead, the 大貧民 starts it far behind. So over a
match a place is worth its points *plus* what the title it gives is worth in the games after
it. The search maximizes that value (the ``ismcts`` option ``reward=class``) instead of the one
game's points.

The value comes from a *transition table*: how often a player who starts a game with each title
finishes it in each place, counted on matches our own bots play
(:func:`torampu.learn.daifugo_classes.count_transitions`;
``torampu train daifugo-classes`` writes it, and the package ships one, :func:`shipped_table`).
:func:`class_values` then sums, over the games that follow, the points each place leads to, as
a Markov chain of titles (value iteration), each place's value taken relative to the last
place's. With the table of five heuristic bots under ``uecda`` the five places are worth about
8.0, 6.0, 3.1, 1.3 and 0 points over the match: finishing second is worth nearly three times
finishing third, where the one game's points (4, 3, 2, 1, 0 above the last) say 1.5 times.

>>> table = [[0.6, 0.3, 0.1], [0.3, 0.4, 0.3], [0.1, 0.3, 0.6]]
>>> [round(v, 3) for v in class_values(table, [3, 2, 1], games=1)]
[2.0, 1.0, 0.0]
>>> [round(v, 3) for v in class_values(table, [3, 2, 1])]
[4.0, 2.0, 0.0]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from torampu.daifugo import Daifugo, points_for
from torampu.game import Game

DEFAULT_GAMES = 64
"""The games after this one that :func:`class_values` counts (the values have long converged)."""

Reward = Callable[[Game], list[float]]


def class_values(
    transition: Sequence[Sequence[float]], points: Sequence[float], games: int = DEFAULT_GAMES
) -> list[float]:
    """Each finishing place's value over this game and ``games - 1`` more: its points plus the
    expected value of the places the title it gives leads to, relative to the last place's.

    ``transition[t][p]``: how often (counts or shares) a player starting with title ``t``
    (0: 大富豪) finishes in place ``p`` (0: first); ``points[p]``: a place's points.
    """
    n = len(points)
    if len(transition) != n or any(len(row) != n for row in transition):
        raise ValueError(f"the transition table must be {n}×{n}")
    shares = []
    for row in transition:
        total = float(sum(row))
        if total <= 0 or any(x < 0 for x in row):
            raise ValueError("each title's row needs a positive count and none below 0")
        shares.append([x / total for x in row])
    after = [0.0] * n  # the value of starting the next game with each title
    value = [0.0] * n
    for _ in range(games):
        value = [points[p] + after[p] for p in range(n)]
        last = value[-1]
        value = [v - last for v in value]
        after = [sum(shares[t][p] * value[p] for p in range(n)) for t in range(n)]
    return value


@cache
def shipped_table() -> dict[str, Any]:
    """The package's transition table (``torampu/learn/data/daifugo_classes.json``): its
    ``players``, ``rules``, ``counts`` and the ``command`` that wrote it."""
    text = resources.files("torampu.learn").joinpath("data/daifugo_classes.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def class_reward(view: Mapping[str, Any], table: Mapping[str, Any] | None = None) -> Reward | None:
    """A search's reward at the end of a game (see :func:`~torampu.search.ismcts.ismcts`) for a
    search from ``view``: each seat's place valued by :func:`class_values` over the match,
    scaled to [0, 1]; ``table`` defaults to :func:`shipped_table`. ``None`` where the table does
    not fit the view's game (another number of players, or no card exchange, so a title changes
    nothing): there the game's own points are the reward. (The view decides, not the
    determinizations: they start after the exchange, with it switched off.)"""
    data = shipped_table() if table is None else table
    rules = view["rules"]
    n = len(view["hand_sizes"])
    if n != int(data["players"]) or not rules.get("exchange"):
        return None
    worth = _scaled(
        tuple(tuple(row) for row in data["counts"]),
        tuple(points_for(rules, n)),
    )

    def reward(g: Game) -> list[float]:
        assert isinstance(g, Daifugo)
        out = [0.0] * len(worth)
        for place, seat in enumerate(g.ranking):
            out[seat] = worth[place]
        return out

    return reward


@cache
def _scaled(counts: tuple[tuple[int, ...], ...], points: tuple[int, ...]) -> list[float]:
    values = class_values(counts, points)
    top = values[0] or 1.0
    return [v / top for v in values]
