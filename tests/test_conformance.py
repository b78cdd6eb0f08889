"""Every game passes the reusable contract test (torampu.testing.api_test)."""

from __future__ import annotations

import pytest

import torampu
from torampu.testing import api_test


@pytest.mark.parametrize("preset", list(torampu.presets("napoleon")))
@pytest.mark.parametrize("players", [4, 5, 6])
def test_napoleon_presets(preset: str, players: int) -> None:
    assert api_test("napoleon", preset, players, games=4, seed=players) == 4


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"blucher": True, "wellington_leads_lowest": True},
        {"light_shuffle": True},
        {"early_end": False},
    ],
)
def test_nap(players: int, rules: dict[str, object]) -> None:
    assert api_test("nap", rules, players, games=6, seed=players) == 6


@pytest.mark.parametrize("players", [3, 4, 5])
def test_nap_short_deck(players: int) -> None:
    assert api_test("nap", {"deck": "short"}, players, games=6, seed=players) == 6


@pytest.mark.parametrize("players", range(2, 8))
def test_hell(players: int) -> None:
    for cards in (1, 51 // players):
        assert api_test("hell", players=players, games=3, seed=players, cards=cards) == 3


def test_hell_bids_are_scored_per_seat() -> None:
    # seats bid in order 1, 2, 0 (left of dealer 0); seat 0 bids 1 and must be scored on 1
    g = torampu.new_game("hell", players=3, seed=1, cards=2)
    g.play("bid 2")
    g.play("bid 0")
    assert g.view(0)["bids"] == [None, 2, 0]
    assert g.legal_actions() == ["bid 1", "bid 2"]  # hook: 0 would make the total 2
    g.play("bid 1")
    while not g.is_over:
        g.play(g.legal_actions()[0])
    res = g.result()
    assert res["bids"] == [1, 2, 0]
    for s in range(3):
        bid, won = res["bids"][s], res["tricks"][s]
        assert res["scores"][s] == (10 + 3 * bid if bid == won else -3 * abs(bid - won))


@pytest.mark.parametrize("preset", ["standard", "yaita"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 8])
def test_daifugo(preset: str, players: int) -> None:
    assert api_test("daifugo", preset, players, games=3, seed=players) == 3


@pytest.mark.parametrize("preset", ["standard", "yaita"])
def test_daifugo_later_games(preset: str) -> None:
    """A later game of a match: titles from the last game, so the exchange (or 天変地異) runs."""
    titles = [4, 3, 2, 1, 0]
    assert api_test("daifugo", preset, 5, games=4, seed=11, titles=titles, defense=1) == 4
