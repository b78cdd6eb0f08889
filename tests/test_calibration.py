"""A search's forecasts beside its results (torampu.calibration)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from torampu.calibration import calibration_rows, summary


def _line(game: int, hand: list[str], action: str, values: dict[str, float] | None) -> Any:
    line: dict[str, Any] = {
        "game": game,
        "phase": "play",
        "action": action,
        "view": {"players": 5, "hand": hand},
    }
    if values is not None:
        line["search"] = {"values": values}
    return line


HAND9 = ["3C", "4D", "5H", "6S", "7C", "8D", "9H", "TS", "JC"]


def test_rows_pair_each_searched_move_with_its_games_result() -> None:
    lines = [
        # game 1 starts with A, 2, JK (3 top cards) in an unsearched decision: still counted
        {"game": 1, "phase": "exchange", "action": "exchange 3C", "view": {"players": 5}},
        _line(1, ["AS", "2D", "JK", *HAND9[:6]], "play 3C", None),
        _line(1, ["AS", "2D", "JK", *HAND9[1:6]], "play 4D", {"play 4D": 0.8, "pass": 0.4}),
        _line(1, ["AS", "2D", "JK"], "play JK", {"play JK": 0.9}),
        _line(1, ["AS", "2D"], "pass", {"play 2D": 0.6}),  # the move sent was not valued
        _line(2, HAND9, "play 9H", {"play 9H": 0.2}),
        _line(3, HAND9, "play 3C", {"play 3C": 0.5}),  # no place: unfinished
    ]
    rows = calibration_rows(lines, {1: 0, 2: 3})
    assert [(r.game, r.top_cards, r.cards, r.expected, r.achieved) for r in rows] == [
        (1, 3, 8, 0.8, 1.0),
        (1, 3, 3, 0.9, 1.0),
        (2, 0, 9, 0.2, 0.25),
    ]


def test_summary_groups_by_top_cards_and_phase_with_an_interval_over_games() -> None:
    lines = [
        _line(1, HAND9, "play 3C", {"play 3C": 0.5}),  # achieved 0: -0.5
        _line(1, HAND9[:4], "play 3C", {"play 3C": 0.3}),  # late: -0.3
        _line(2, HAND9, "play 3C", {"play 3C": 0.5}),  # achieved 0.5: 0.0
        _line(3, HAND9, "play 3C", {"play 3C": 0.25}),  # achieved 1: +0.75
    ]
    groups = {g.label: g for g in summary(calibration_rows(lines, {1: 4, 2: 2, 3: 0}))}
    assert list(groups) == ["0 top cards, early", "0 top cards, late", "0 top cards", "all"]
    early = groups["0 top cards, early"]
    assert (early.decisions, early.games) == (3, 3)
    assert early.expected == pytest.approx(1.25 / 3) and early.achieved == pytest.approx(0.5)
    late = groups["0 top cards, late"]
    assert (late.decisions, late.games, late.difference[0]) == (1, 1, pytest.approx(-0.3))
    assert math.isnan(late.difference[1]) and math.isnan(late.difference[2])
    # all: game 1's two decisions averaged first (-0.4), then games 2 (0.0) and 3 (+0.75)
    every = groups["all"]
    diffs = [-0.4, 0.0, 0.75]
    mean = sum(diffs) / 3
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 2)
    half = 4.303 * sd / math.sqrt(3)  # Student's t, 2 degrees of freedom
    assert every.difference[0] == pytest.approx(mean)
    assert every.difference[1] == pytest.approx(mean - half, abs=1e-3)
    assert every.difference[2] == pytest.approx(mean + half, abs=1e-3)
    assert summary([]) == []


def test_a_line_that_is_not_a_clients_record_is_refused() -> None:
    with pytest.raises(ValueError, match="decision 2: no game number or view"):
        calibration_rows([_line(1, HAND9, "pass", None), {"game": 1, "phase": "play"}], {1: 0})
