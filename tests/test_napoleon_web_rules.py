"""The ``napoleon-web`` preset and its options, one fixed deal per rule.

Each expectation is what eletim/napoleon-web's ``packages/game-core`` does with the same cards
(``bidding.ts``, ``game.ts``, ``trick.ts``, ``scoring.ts``), read from their code.
"""

from __future__ import annotations

from typing import Any

import pytest

import torampu
from torampu.cards import card_str

DECK = [card_str(c) for c in range(52)] + ["JK"]


def web_game(
    hands: dict[int, list[str]],
    widow: list[str],
    rules: dict[str, Any] | None = None,
    void: dict[int, str] | None = None,
) -> torampu.Game:
    """napoleon-web rules, 5 players, dealer 0 (seat 1 bids first). ``hands`` are filled up to
    10 cards with spare cards avoiding the suits ``void[seat]``; the widow is given."""
    rest = [c for c in DECK if c not in widow and all(c not in h for h in hands.values())]
    void = void or {}
    full: dict[int, list[str]] = {}
    for s in sorted(range(5), key=lambda s: s not in void):  # seats with voids fill first
        h = list(hands.get(s, []))
        spare = [c for c in rest if c != "JK" and c[1] not in void.get(s, "")]
        while len(h) < 10:
            c = spare.pop()
            rest.remove(c)
            h.append(c)
        full[s] = h
    assert not rest, rest
    rules = {"preset": "napoleon-web", **(rules or {})}
    deal = {"hands": [full[s] for s in range(5)], "widow": widow}
    return torampu.new_game("napoleon", rules, seed=0, deal=deal)


def contract(g: torampu.Game, bid: str, adjutant: str, discard: list[str]) -> None:
    """Seat 1 bids, the others pass, seat 1 names ``adjutant`` and discards."""
    g.play(f"bid {bid}")
    for _ in range(4):
        g.play("pass")
    g.play(f"adjutant {adjutant}")
    g.play("discard " + " ".join(discard))
    assert g.phase == "play" and g.to_play == 1


def play(g: torampu.Game, *cards: str) -> dict[str, Any]:
    for c in cards:
        g.play(f"play {c}")
    trick: dict[str, Any] = g.view(None)["tricks"][-1]
    return trick


def test_preset_resolves_to_their_rules() -> None:
    r = torampu.new_game("napoleon", "napoleon-web", seed=0).rules
    assert (r["players"], r["jokers"], r["min_bid"], r["max_bid"]) == (5, 1, 13, 19)
    assert r["adjutant_timing"] == "before_exchange" and not r["pass_is_final"]
    assert r["same_two"] and not r["same_two_first_trick"] and r["yoromeki"]
    assert r["reveal_discards"] == "honors" and r["scoring"] == "win_loss"
    presets = torampu.presets("napoleon")
    assert "napoleon-web" in presets and "napoleon-web" in presets["napoleon-web"]["note"]
    names = {o["name"] for o in torampu.rules("napoleon")}
    assert {"max_bid", "all_pass", "same_two_joker"} <= names


# ----------------------------------------------------------------------------- max_bid
def test_max_bid_19_is_the_highest_bid() -> None:
    # bidding.ts: maxBidTargetPointCards = 19, bids 13..19 in the order C D H S
    g = torampu.new_game("napoleon", "napoleon-web", seed=3)
    legal = g.legal_actions()
    assert legal[1] == "bid 13C" and legal[-1] == "bid 19S"
    assert len(legal) == 1 + 7 * 4
    with pytest.raises(torampu.IllegalAction, match="max_bid"):
        g.play("bid 20S")
    g.play("bid 19S")
    assert g.legal_actions() == ["pass"]  # nothing beats 19S
    classic = torampu.new_game("napoleon", {"preset": "napoleon-web", "max_bid": 20}, seed=3)
    assert classic.legal_actions()[-1] == "bid 20S"


def test_max_bid_below_min_bid_is_refused() -> None:
    with pytest.raises(torampu.RulesError, match="max_bid"):
        torampu.new_game("napoleon", {"preset": "napoleon-web", "max_bid": 12}, seed=0)


# ----------------------------------------------------------------------------- all_pass
@pytest.mark.parametrize("mode", ["first_bidder_12S", "redeal"])
def test_all_pass(mode: str) -> None:
    # game.ts pass(): five passes with no bid make the starter the Napoleon, spades, 12
    g = torampu.new_game("napoleon", {"preset": "napoleon-web", "all_pass": mode}, seed=4)
    hand_before = g.view(1)["hand"]
    for _ in range(5):
        g.play("pass")
    v = g.view(1)
    if mode == "first_bidder_12S":
        assert (g.phase, v["napoleon"], v["contract"], v["trump"]) == ("adjutant", 1, "12S", "S")
        assert g.to_play == 1 and v["hand"] == hand_before and v["redeals"] == 0
    else:
        assert g.phase == "bid" and v["redeals"] == 1 and v["napoleon"] is None


def test_all_pass_contract_is_played_and_scored_at_12() -> None:
    g = torampu.new_game("napoleon", "napoleon-web", seed=4)
    for _ in range(5):
        g.play("pass")
    while g.phase != "over":
        g.play(g.legal_actions()[0])
    res = g.result()
    assert res["contract"] == "12S"
    assert res["army_won"] == (res["army_honors"] >= 12)


# ----------------------------------------------------------------------------- discarded_honors
@pytest.mark.parametrize("side", ["napoleon", "allies"])
def test_discarded_honors_count_for_the_army(side: str) -> None:
    # game.ts discardCards(): discarded point cards are awardedPointCards of the Napoleon, and
    # scoring.ts adds them to the Napoleon's team
    hands = {1: ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "JC", "JK"]}
    widow = ["AH", "KD", "QC"]
    g = web_game(hands, widow, {"discarded_honors": side})
    contract(g, "13S", "AH", widow)  # AH is in the widow: alone
    assert set(g.view(3)["discards"]) == set(widow)  # discarded honors are shown
    while g.phase != "over":
        g.play(g.legal_actions()[0])
    res = g.result()
    in_tricks = len(g.view(None)["honors_taken"][1])
    if side == "napoleon":
        assert res["army_honors"] == in_tricks + 3
        assert res["army_honors"] + res["allied_honors"] == 20
    else:
        assert res["army_honors"] == in_tricks
        assert res["allied_honors"] == 20 - in_tricks
    assert res["army_won"] == (res["army_honors"] >= 13)


# ----------------------------------------------------------------------------- joker_mode
@pytest.mark.parametrize("mode", ["request_lowest", "request_weak"])
def test_led_joker_is_the_lowest_trump(mode: str) -> None:
    # trick.ts: a led joker makes the trump suit the led suit and is category trump, rank 1;
    # the 2 of trumps (rank 2) beats it
    nap = ["JK", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"]
    g = web_game(
        {1: nap, 2: ["2D"], 3: ["AS"]},
        ["QD", "KD", "AD"],
        {"joker_mode": mode},
        void={2: "D", 3: "D", 4: "D", 0: "D"},
    )
    contract(g, "13D", "AD", ["QD", "KD", "AD"])
    g.play("play JK")
    assert g.legal_actions() == ["play 2D"]  # the led joker requests trumps
    g.play("play 2D")
    for _ in range(3):  # the others have no trump: Mighty and the jacks stay in hand
        g.play(next(a for a in g.legal_actions() if a not in ("play AS", "play JH")))
    trick = g.view(None)["tricks"][-1]
    assert trick["winner"] == (2 if mode == "request_lowest" else 1)


def test_led_lowest_joker_wins_when_no_trump_is_played() -> None:
    nap = ["JK", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"]
    g = web_game(
        {1: nap, 2: ["2D", "AH"], 3: ["AS"]},
        ["QD", "KD", "AD"],
        void={2: "D", 3: "D", 4: "D", 0: "D"},
    )
    contract(g, "13D", "AD", ["3D", "4D", "5D"])
    others = ("play AS", "play JH")
    g.play("play AD")  # draws seat 2's only trump
    g.play("play 2D")
    for _ in range(3):
        g.play(next(a for a in g.legal_actions() if a not in others))
    assert g.view(None)["tricks"][-1]["winner"] == 1
    g.play("play JK")  # nobody has a trump left
    g.play("play AH")  # an ace of another suit does not beat the led joker
    for _ in range(3):
        g.play(next(a for a in g.legal_actions() if a not in others))
    assert g.view(None)["tricks"][-1]["winner"] == 1
    assert "lowest trump" in g.explain_trick(1)


def test_followed_lowest_joker_may_be_played_anytime_and_never_wins() -> None:
    # getPlayableCards: the joker is always playable; followed it is rank 1 of the led suit
    g = web_game(
        {1: ["3H", "AC"], 2: ["JK", "2H"]},
        ["2S", "3S", "4S"],
        void={3: "H", 4: "H", 0: "H"},
    )
    contract(g, "13S", "AC", ["2S", "3S", "4S"])
    g.play("play 3H")
    assert "play JK" in g.legal_actions() and "play 2H" in g.legal_actions()
    g.play("play JK")
    for _ in range(3):
        g.play(next(a for a in g.legal_actions() if a[-1] not in "S" and a != "play JC"))
    assert g.view(None)["tricks"][-1]["winner"] == 1  # 3H beats the joker


# ----------------------------------------------------------------------------- same_two_joker
@pytest.mark.parametrize("mode", ["blocks", "matches"])
def test_same_two_blocked_by_a_joker(mode: str) -> None:
    # trick.ts findSameTwoWinner: a joker in the trick means no same-two
    g = web_game(
        {
            1: ["AC", "5H"],
            2: ["2C", "JK", "6H"],
            3: ["3C", "2H"],
            4: ["4C", "KH"],
            0: ["5C", "3H"],
        },
        ["2S", "3S", "4S"],
        {"same_two_joker": mode},
    )
    contract(g, "13S", "AC", ["2S", "3S", "4S"])  # trump S; everyone follows clubs, hearts
    assert play(g, "AC", "2C", "3C", "4C", "5C")["winner"] == 1
    trick = play(g, "5H", "JK", "2H", "KH", "3H")
    assert trick["winner"] == (4 if mode == "blocks" else 3)


def test_same_two_without_a_joker_still_applies() -> None:
    g = web_game(
        {1: ["AC", "5H"], 2: ["2C", "6H"], 3: ["3C", "2H"], 4: ["4C", "KH", "JK"], 0: ["5C", "3H"]},
        ["2S", "3S", "4S"],
    )
    contract(g, "13S", "AC", ["2S", "3S", "4S"])
    play(g, "AC", "2C", "3C", "4C", "5C")
    assert play(g, "5H", "6H", "2H", "KH", "3H")["winner"] == 3


def test_same_two_joker_needs_same_two() -> None:
    with pytest.raises(torampu.RulesError, match="same_two_joker"):
        torampu.new_game("napoleon", {"preset": "classic", "same_two_joker": "blocks"}, seed=0)
