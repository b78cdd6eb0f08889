"""Hand by hand on duplicate deals (torampu.duplicate_hands)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import torampu
from torampu.bots import make_bot
from torampu.duplicate_hands import hand_results, summary, top_cards

DUP = {"preset": "uecda", "rank_reset": 1, "seat_change": 0}


def _match(kinds: list[str], games: int, seed: int, duplicate: int = 5) -> list[dict[str, Any]]:
    rules = DUP if duplicate > 1 else "uecda"
    m = torampu.new_match("daifugo", rules=rules, games=games, seed=seed, duplicate=duplicate)
    bots = [make_bot(k, 11 + i, "daifugo") for i, k in enumerate(kinds)]
    while not m.is_over:
        s = m.to_play
        assert s is not None
        m.play(bots[s].choose(m.view(s), m.legal_actions()))
    records: list[dict[str, Any]] = m.to_record()["records"]
    return records


def test_equal_players_are_level_with_every_hand() -> None:
    recs = _match(["heuristic"] * 5, 10, seed=8)
    for seat in range(5):
        found = hand_results(recs, seat)
        assert len(found) == 10  # two deals, five hands each
        assert {h.points - h.others for h in found} == {0.0}
        assert all(len(h.others_places) == 4 and h.place in h.others_places for h in found)
    groups = summary(hand_results(recs, 0))
    assert groups[-1].label == "all" and groups[-1].hands == 10
    assert groups[-1].difference == (0.0, 0.0, 0.0)
    assert sum(g.hands for g in groups if "top card" in g.label) == 10


def test_each_hand_is_paired_with_the_others_games_with_it() -> None:
    recs = _match(["heuristic", "random", "random", "random", "random"], 10, seed=5)
    found = hand_results(recs, 0)
    # the player's points are its games' points, hand by hand
    assert sorted(h.points for h in found) == sorted(float(r["result"]["scores"][0]) for r in recs)
    for h in found:
        with_hand = [
            (s, r)
            for r in recs
            for s, hand in enumerate(r["deal"]["hands"])
            if tuple(sorted(hand)) == h.hand and s != 0
        ]
        assert len(with_hand) == 4
        assert h.others == sum(r["result"]["scores"][s] for s, r in with_hand) / 4
    # the heuristic beats four random players with the same cards
    assert summary(found)[-1].difference[0] > 0.5
    # by name, as in UECda records
    named = copy.deepcopy(recs)
    for r in named:
        r["uecda"] = {"names": ["ours", "b", "c", "d", "e"]}
    assert hand_results(named, "ours") == found


def test_what_is_not_a_duplicate_deal_is_refused() -> None:
    recs = _match(["random"] * 5, 5, seed=2)
    with pytest.raises(ValueError, match="seat 5 is not one of the game's 5 seats"):
        hand_results(recs, 5)
    with pytest.raises(ValueError, match="without player names"):
        hand_results(recs, "ours")
    named = copy.deepcopy(recs)
    for r in named:
        r["uecda"] = {"names": ["a", "b", "c", "d", "e"]}
    with pytest.raises(ValueError, match="'ours' is not named once"):
        hand_results(named, "ours")
    # a plain match: a new deck each game, never the same hand twice
    plain = _match(["random"] * 5, 2, seed=2, duplicate=1)
    with pytest.raises(ValueError, match="not a whole duplicate deal"):
        hand_results(plain, 0)
    # one game of the deal dealt other hands
    bad = copy.deepcopy(recs)
    cards = bad[1]["deal"]["hands"]
    cards[0][0], cards[1][0] = cards[1][0], cards[0][0]
    with pytest.raises(ValueError, match="deal different hands"):
        hand_results(bad, 0)
    unfinished = copy.deepcopy(recs)
    del unfinished[0]["result"]
    with pytest.raises(ValueError, match="unfinished"):
        hand_results(unfinished, 0)
    other = copy.deepcopy(recs)
    other[0]["game"] = "hell"
    with pytest.raises(ValueError, match="duplicate deals are Daifugo's"):
        hand_results(other, 0)


def test_top_cards_count_aces_twos_and_jokers() -> None:
    rng = random.Random(3)
    deck = [r + s for r in "3456789TJQKA2" for s in "SHDC"] + ["JK"]
    for _ in range(50):
        hand = rng.sample(deck, 11)
        assert top_cards(hand) == sum(c[0] in "A2" for c in hand if c != "JK") + hand.count("JK")
