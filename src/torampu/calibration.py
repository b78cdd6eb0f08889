"""How well a search foresaw its own games: the value it gave each move it chose, beside the
place it got.

A search's root values (:attr:`~torampu.search.ismcts.SearchResult.values`: the searcher's mean
reward under each move, 1 for the first place and 0 for the last, as
:func:`~torampu.search.ismcts.scores_to_rewards` maps a game's points) are its forecast of the
game under its model of the hidden cards and of everyone's later play. A UECda client writes them
with each decision (``torampu uecda client --records FILE``) and the place of each game to its
report (``--report FILE``). :func:`calibration_rows` sets each searched decision's forecast for
the move it sent beside the reward the game gave — ``(players - 1 - place) / (players - 1)``,
the same scale — and :func:`summary` groups them by the hand's top cards at the game's first
decision (aces, twos and jokers, :func:`~torampu.duplicate_hands.top_cards`) and by how many
cards were left: a model that is right has a difference near 0 in every group. A forecast
above the result says the game went worse than the search expected — the other players (or
the seat's own later moves) are stronger in play than in its rollouts.

On 400 games of the default search against four Blauweregen on duplicate deals (the README),
the moves it chose were valued 0.544 on average and achieved 0.417: −0.128 [−0.149, −0.106],
half a point a game too hopeful, with every kind of hand (the most, −0.17, with two top cards).

>>> decisions = [
...     {"game": 1, "phase": "play", "action": "play 3C", "view": {"players": 5,
...      "hand": ["3C", "2S", "JK"]}, "search": {"values": {"play 3C": 0.75, "pass": 0.5}}},
...     {"game": 1, "phase": "play", "action": "pass", "view": {"players": 5,
...      "hand": ["2S", "JK"]}, "search": {"values": {"play 2S": 0.7, "pass": 0.65}}},
...     {"game": 2, "phase": "play", "action": "play 4D", "view": {"players": 5,
...      "hand": ["4D"]}},  # one legal move: no search, no forecast
... ]
>>> rows = calibration_rows(decisions, {1: 1, 2: 4})  # game 1: second place; game 2: last
>>> [(r.game, r.top_cards, r.cards, r.expected, r.achieved) for r in rows]
[(1, 2, 3, 0.75, 0.75), (1, 2, 2, 0.65, 0.75)]
>>> g = summary(rows)[-1]
>>> g.label, g.decisions, g.games, round(g.expected, 3), g.achieved
('all', 2, 1, 0.7, 0.75)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from torampu.duplicate_hands import mean_interval, top_cards

PHASES: tuple[tuple[str, int, int], ...] = (("early", 8, 99), ("middle", 5, 7), ("late", 0, 4))
"""The phases of :func:`summary`: (name, fewest, most cards in the hand at the decision)."""


@dataclass(frozen=True)
class CalibrationRow:
    """One searched decision: the value the search gave the move sent, and the game's result."""

    game: int
    """The game's number in the match."""
    top_cards: int
    """The hand's aces, twos and jokers at the game's first decision of the play."""
    cards: int
    """Cards in the hand at this decision."""
    expected: float
    """The search's mean reward under the move sent (1 first, 0 last)."""
    achieved: float
    """The reward the game gave: ``(players - 1 - place) / (players - 1)``."""


def calibration_rows(
    decisions: Iterable[Mapping[str, Any]], places: Mapping[int, int]
) -> list[CalibrationRow]:
    """The play decisions of ``decisions`` (a UECda client's ``--records`` lines) whose search
    valued the move sent, each beside its game's reward; ``places`` maps a game's number to the
    player's place in it (0 the first; a report's ``per_game`` ``place``). Decisions of games
    without a place (unfinished), without a search (one legal move, a fallback, a certain mate
    or the endgame solver's win) or whose move the search did not value are left out. A
    ``ValueError`` names a line without a game number or a view."""
    out: list[CalibrationRow] = []
    first_tops: dict[int, int] = {}
    for i, d in enumerate(decisions, 1):
        game, view = d.get("game"), d.get("view")
        if not isinstance(game, int) or not isinstance(view, Mapping):
            raise ValueError(f"decision {i}: no game number or view: not a client's record line")
        if d.get("phase") != "play":
            continue
        hand = [str(c) for c in view.get("hand") or []]
        tops = first_tops.setdefault(game, top_cards(hand))
        search = d.get("search")
        if game not in places or not isinstance(search, Mapping):
            continue
        value = (search.get("values") or {}).get(d.get("action"))
        if value is None:
            continue
        players = int(view["players"])
        achieved = (players - 1 - places[game]) / (players - 1)
        out.append(CalibrationRow(game, tops, len(hand), float(value), achieved))
    return out


@dataclass(frozen=True)
class CalibrationGroup:
    """:func:`summary`'s line for a group of decisions."""

    label: str
    decisions: int
    games: int
    expected: float
    """The mean value the search gave the moves it sent."""
    achieved: float
    """The mean reward those decisions' games gave."""
    difference: tuple[float, float, float]
    """Achieved minus expected: the mean over the games, with a 95% interval (Student's t over
    the games, each game's decisions averaged first: they share its result); ``nan`` bounds
    with fewer than two games."""


def _group(label: str, rows: Sequence[CalibrationRow]) -> CalibrationGroup:
    by_game: dict[int, list[CalibrationRow]] = {}
    for r in rows:
        by_game.setdefault(r.game, []).append(r)
    diffs = [sum(r.achieved - r.expected for r in g) / len(g) for g in by_game.values()]
    return CalibrationGroup(
        label,
        len(rows),
        len(by_game),
        sum(r.expected for r in rows) / len(rows),
        sum(r.achieved for r in rows) / len(rows),
        mean_interval(diffs),
    )


def summary(rows: Sequence[CalibrationRow], split: int = 3) -> list[CalibrationGroup]:
    """Groups of ``rows``: by top cards (0, 1, …, ``split`` or more) and phase (:data:`PHASES`),
    then by top cards alone, then all; empty groups are left out."""
    groups: list[CalibrationGroup] = []
    tops = [(f"{t} top cards" if t < split else f"{split}+ top cards", t) for t in range(split + 1)]

    def band(r: CalibrationRow) -> int:
        return min(r.top_cards, split)

    for name, t in tops:
        for phase, lo, hi in PHASES:
            sel = [r for r in rows if band(r) == t and lo <= r.cards <= hi]
            if sel:
                groups.append(_group(f"{name}, {phase}", sel))
    for name, t in tops:
        sel = [r for r in rows if band(r) == t]
        if sel:
            groups.append(_group(name, sel))
    if rows:
        groups.append(_group("all", rows))
    return groups


__all__ = ["PHASES", "CalibrationGroup", "CalibrationRow", "calibration_rows", "summary"]
