"""Scenario tests on fixed deals: the sources' worked examples, each failing if its rule breaks."""

from __future__ import annotations

from typing import Any

import pytest

import torampu
from torampu.cards import card_str

ALL = [card_str(c) for c in range(52)]


def setup(
    rules: dict[str, Any],
    hands: dict[int, list[str]],
    bid: str = "13S",
    void: dict[int, str] | None = None,
) -> torampu.Game:
    """5 players, dealer 0: seat 1 bids ``bid`` and the others pass; seat 1 names a card it
    holds (plays alone) and discards the widow back; returns the game at the first lead.
    Hands are filled up with spare cards, avoiding the suits ``void[seat]``."""
    rest = [c for c in ALL if all(c not in h for h in hands.values())]
    void = void or {}
    full = {}
    for s in range(5):
        h = list(hands.get(s, []))
        spare = [c for c in rest if c[1] not in void.get(s, "")]
        while len(h) < 10:
            c = spare.pop()
            rest.remove(c)
            h.append(c)
        full[s] = h
    deal = {"hands": [full[s] for s in range(5)], "widow": rest}
    g = torampu.new_game("napoleon", {"preset": "classic", **rules}, seed=0, deal=deal)
    g.play(f"bid {bid}")
    for _ in range(4):
        g.play("pass")
    g.play(f"adjutant {full[1][0]}")
    g.play("discard " + " ".join(rest))
    assert g.phase == "play" and g.to_play == 1
    return g


def last_trick(g: torampu.Game) -> dict[str, Any]:
    trick: dict[str, Any] = g.view(None)["tricks"][-1]
    return trick


@pytest.mark.parametrize("ura", ["own", "trump"])
def test_ura_jack_following_002_example_hearts(ura: str) -> None:
    # 002: trump H, diamonds led, the only diamond in hand is JD (裏J)
    g = setup(
        {"ura_jack_suit": ura},
        {1: ["5D", "AH", "KH", "QH", "2H"], 2: ["JD", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]},
        bid="13H",
        void={2: "D"},
    )
    g.play("play 5D")
    legal = g.legal_actions()
    if ura == "own":
        assert legal == ["play JD"]  # JD is a diamond: must follow with it
    else:
        assert "play JD" not in legal or len(legal) > 1  # JD counts as a heart: any card
        assert "play 2S" in legal


@pytest.mark.parametrize("ura", ["own", "trump"])
def test_ura_jack_following_002_example_spades(ura: str) -> None:
    # 002: trump S, spades led, no spades in hand but JC (裏J): with `trump` it must be played
    g = setup(
        {"ura_jack_suit": ura},
        {1: ["5S", "AH", "KH"], 2: ["JC", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "2D"]},
    )
    g.play("play 5S")
    legal = g.legal_actions()
    if ura == "trump":
        assert legal == ["play JC"]
    else:
        assert len(legal) == 10  # no spade: anything goes


def _same_two_deal() -> dict[int, list[str]]:
    return {
        1: ["3C", "4D", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"],
        2: ["2C", "5D", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"],
        3: ["KC", "2D", "TH", "JH", "QH", "KH", "AH", "TS", "QS", "KS"],
        4: ["5C", "6D"],
        0: ["6C", "3D"],
    }


@pytest.mark.parametrize("first", [False, True])
def test_same_two_not_on_the_first_trick(first: bool) -> None:
    g = setup({"same_two": True, "same_two_first_trick": first}, _same_two_deal())
    for card in ("3C", "2C", "KC", "5C", "6C"):
        g.play(f"play {card}")
    t = last_trick(g)
    if first:
        assert (t["winner"], t["reason"]) == (2, "same_two")
        assert t["why"]["en"] == "2C wins: same-two"
        return
    assert (t["winner"], t["reason"]) == (3, "led")  # 001/002: not on the first trick
    for card in ("2D", "6D", "3D", "4D", "5D"):  # seat 3 leads the second trick
        g.play(f"play {card}")
    t = last_trick(g)
    assert (t["winner"], t["reason"]) == (3, "same_two")
    assert t["why"]["ja"] == "2Dの勝ち: セイムツー"


def test_same_two_off_is_plain() -> None:
    g = setup({}, _same_two_deal())
    for card in ("3C", "2C", "KC", "5C", "6C"):
        g.play(f"play {card}")
    for card in ("2D", "6D", "3D", "4D", "5D"):
        g.play(f"play {card}")
    assert (last_trick(g)["winner"], last_trick(g)["reason"]) == (4, "led")


@pytest.mark.parametrize("yoromeki", [False, True])
def test_yoromeki_qh_beats_mighty_only_with_it(yoromeki: bool) -> None:
    g = setup(
        {"yoromeki": yoromeki},
        {1: ["3H", "9C"], 2: ["AS", "2C"], 3: ["QH", "3C"], 4: ["4H", "4C"], 0: ["5H", "5C"]},
        void={2: "H"},
    )
    for card in ("3H", "AS", "QH", "4H", "5H"):
        g.play(f"play {card}")
    t = last_trick(g)
    if yoromeki:
        assert (t["winner"], t["reason"]) == (3, "yoromeki")
        assert t["why"]["en"] == "QH beats AS: ♥Q over Mighty (よろめき)"
    else:
        assert (t["winner"], t["reason"]) == (2, "mighty")


def test_illegal_follow_changes_nothing() -> None:
    g = setup({}, {1: ["5D"], 2: ["6D", "2S"]})
    g.play("play 5D")
    before = (g.to_record(), [g.view(s) for s in range(5)])
    with pytest.raises(torampu.IllegalAction, match="must follow suit D"):
        g.play("play 2S")
    assert (g.to_record(), [g.view(s) for s in range(5)]) == before


# ------------------------------------------------------------ 000: 4 players discard face up
def _four_player_game(rules: dict[str, Any], preset: str = "classic") -> torampu.Game:
    """4 players, 12 cards each and the rest (4 cards, 5 with a joker) as the widow; seat 1 bids
    13S, names AS, and discards an honor from the widow and low hearts from its hand."""
    hands = [ALL[i * 12 : (i + 1) * 12] for i in range(4)]
    widow = ALL[48:] + (["JK"] if preset == "classic-joker" else [])
    deal = {"hands": hands, "widow": widow}
    g = torampu.new_game("napoleon", {"preset": preset, **rules}, players=4, seed=0, deal=deal)
    g.play("bid 13S")
    for _ in range(3):
        g.play("pass")
    g.play("adjutant AS")
    g.play(f"discard {widow[0]} " + " ".join(hands[1][1 : len(widow)]))
    assert g.phase == "play"
    return g


@pytest.mark.parametrize("preset", ["classic", "classic-joker", "killers"])
def test_four_player_classic_discards_are_face_up(preset: str) -> None:
    # 000: 「ナポレオンは場の4枚を取り、不必要な4枚を表向きに捨てる」
    g = _four_player_game({}, preset)
    assert g.rules["reveal_discards"] == "all"
    nap_discards = sorted(g.view(1)["discards"])
    assert len(nap_discards) == g.view(None)["widow_size"]
    for seat in (0, 2, 3, None):
        assert sorted(g.view(seat)["discards"]) == nap_discards


@pytest.mark.parametrize("mode", ["honors", "none"])
def test_four_player_classic_keeps_an_explicit_reveal_discards(mode: str) -> None:
    g = _four_player_game({"reveal_discards": mode})
    assert g.rules["reveal_discards"] == mode
    shown = g.view(2)["discards"]
    nap = g.view(1)["discards"]
    honors = [c for c in nap if c[0] in "AKQJT"]
    assert len(nap) == 4 and len(honors) == 1
    assert sorted(shown) == (sorted(honors) if mode == "honors" else [])


def test_five_player_classic_still_shows_only_discarded_honors() -> None:
    assert torampu.new_game("napoleon", "classic", seed=0).rules["reveal_discards"] == "honors"
    # house-002 is 002's rules, not 000's: its 4-player game keeps 002's default
    g = torampu.new_game("napoleon", "house-002", players=4, seed=0)
    assert g.rules["reveal_discards"] == "honors"
