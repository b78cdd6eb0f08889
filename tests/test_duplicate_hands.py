"""Hand by hand on duplicate deals (torampu.duplicate_hands)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import torampu
from torampu.bots import make_bot
from torampu.duplicate_hands import deal_points, hand_results, paired, summary, top_cards

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


def test_two_runs_on_the_same_deals_are_compared_deal_by_deal() -> None:
    strong = _match(["heuristic", "random", "random", "random", "random"], 15, seed=6)
    weak = _match(["random"] * 5, 15, seed=6)
    mine = deal_points(strong, 0)
    assert len(mine) == 3
    for seed, (hands, points) in mine.items():
        games = [r for r in strong if r["seed"] == seed]
        assert points == sum(r["result"]["scores"][0] for r in games) / 5
        assert hands == tuple(sorted(tuple(sorted(h)) for h in games[0]["deal"]["hands"]))
    p = paired([strong], [weak], 0)
    diffs = [mine[s][1] - deal_points(weak, 0)[s][1] for s in mine]
    assert (p.deals, p.skipped) == (3, 0)
    assert p.a == sum(x for _, x in mine.values()) / 3
    assert p.a - p.b == pytest.approx(p.difference[0])
    assert p.difference[0] == pytest.approx(sum(diffs) / 3)
    assert p.difference[1] < p.difference[0] < p.difference[2]
    assert p.difference[0] > 0.5  # the heuristic in the seat beats a random player there
    # the same run against itself: level, exactly
    same = paired([strong, weak], [strong, weak], 0)
    assert same.deals == 6 and same.difference == (0.0, 0.0, 0.0)
    # a run stopped part-way: its last deal is left out, and counted as such
    part = paired([strong[:12]], [weak], 0)
    assert (part.deals, part.skipped) == (2, 1)


def test_runs_that_cannot_be_compared_are_refused() -> None:
    a = _match(["heuristic"] + ["random"] * 4, 5, seed=6)
    b = _match(["random"] * 5, 5, seed=6)
    with pytest.raises(ValueError, match="1 runs against 2: give them in pairs"):
        paired([a], [b, b], 0)
    other = _match(["random"] * 5, 5, seed=7)  # other deals: nothing in common
    with pytest.raises(ValueError, match="no deal is whole in both runs"):
        paired([a], [other], 0)
    changed = copy.deepcopy(b)
    x, y = changed[0]["deal"]["hands"][0][0], changed[0]["deal"]["hands"][1][0]
    swap = {x: y, y: x}
    for r in changed:  # the same seed, two cards in other hands: not the same deal
        r["deal"]["hands"] = [[swap.get(c, c) for c in h] for h in r["deal"]["hands"]]
    with pytest.raises(ValueError, match="deals different hands in the two runs"):
        paired([a], [changed], 0)
    hell = copy.deepcopy(b)
    hell[0]["game"] = "hell"
    with pytest.raises(ValueError, match="duplicate deals are Daifugo's"):
        paired([a], [hell], 0)
