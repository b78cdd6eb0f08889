"""Every option value of rules.md §4 (Daifugo) on small fixed deals, through the public API only.

The authority is source 004 (``spec/sources/004_…``: the common rules ①, then ヤイタ式 ★1–★24);
each test that checks a sourced rule quotes it in its docstring. Where the source is silent or
ambiguous the engine's module docstring gives a ruling; those tests say "Ruling:" and name it.

Deals are tiny and may leave cards out (シケ). :func:`new` starts a game on ``PLAIN`` rules (the
``standard`` preset with every effect off) plus the options a test turns on, and makes ``leader``
lead: when nobody holds the ``first_lead`` card the seat after the dealer leads freely.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import pytest

import torampu
from torampu import IllegalAction, RulesError
from torampu.cards import card_str, cards_of
from torampu.testing import check_no_leak

PLAIN: dict[str, Any] = {
    "preset": "standard",
    "revolution": False,
    "eight_cut": False,
    "stairs": False,
    "spade3_return": False,
    "exchange": False,
}
"""The standard preset with every card effect off: tests turn on what they check."""

OPTION_TABLE: dict[str, tuple[Any, list[Any]]] = {
    "players": (5, [5, 2, 3, 4, 6, 7, 8]),
    "jokers": (1, [1, 0, 2, 3]),
    "joker_wild": (True, [True, False]),
    "spade3_return": (True, [True, False]),
    "first_lead": ("3D", ["3D", "4D", "3C", "3H", "3S"]),
    "later_lead": ("daihinmin", ["daihinmin", "first_lead"]),
    "exchange": (True, [True, False]),
    "pass_rejoin": (True, [True, False]),
    "revolution": (True, [True, False]),
    "eight_cut": (True, [True, False]),
    "eleven_back": (False, [False, True]),
    "five_skip": (False, [False, True]),
    "seven_pass": (False, [False, True]),
    "ten_discard": (False, [False, True]),
    "queen_reverse": (False, [False, True]),
    "sandstorm": (False, [False, True]),
    "big_seven": (False, [False, True]),
    "coup": (False, [False, True]),
    "stairs": (True, [True, False]),
    "stair_revolution": (False, [False, True]),
    "stair_overlap": (False, [False, True]),
    "shike": (False, [False, True]),
    "lock": (False, [False, True]),
    "strict_lock": (False, [False, True]),
    "reverse_lock": (False, [False, True]),
    "miyako_ochi": (False, [False, True]),
    "defense": (False, [False, True]),
    "tenpen": (False, [False, True]),
    "great_revolution": (False, [False, True]),
    "forbidden_finish": ([], ["2", "JK", "KH", "8JK"]),
    "finish_stays": (True, [True, False]),
    "points": ("rank", ["rank", "zero_sum"]),
}
"""rules.md §4's table: option -> (default, values); ``points`` is the engine's scoring choice."""


# ------------------------------------------------------------------------------------ helpers
def new(
    hands: list[str],
    leader: int = 0,
    *,
    titles: list[int] | None = None,
    defended: int | None = None,
    **rules: Any,
) -> torampu.Game:
    """A game on a fixed deal (``hands[s]`` is seat s's cards, space-separated) under ``PLAIN``
    plus ``rules``; the dealer sits before ``leader``, who leads unless the rules say otherwise.
    ``titles``/``defended`` make it a later game of a match (the game's ``titles``/``defense``)."""
    n = len(hands)
    extra: dict[str, Any] = {}
    if titles is not None:
        extra["titles"] = titles
    if defended is not None:
        extra["defense"] = defended
    g = torampu.new_game(
        "daifugo",
        rules={**PLAIN, **rules},
        players=n,
        deal={"hands": [h.split() for h in hands]},
        seed=0,
        dealer=(leader - 1) % n,
        **extra,
    )
    if titles is None and "first_lead" not in rules and "exchange" not in rules:
        assert "3D" not in " ".join(hands), "3D is dealt: its holder leads (first_lead)"
        assert g.to_play == leader
    return g


def run(g: torampu.Game, *actions: str) -> torampu.Game:
    """Play ``actions`` in turn; a bare card list means ``play …``."""
    for a in actions:
        verb = a.split()[0] if a else ""
        g.play(a if verb in ("pass", "give", "discard", "exchange", "play") else "play " + a)
    return g


def snap(g: torampu.Game) -> str:
    return json.dumps([g.to_record(), [g.view(s) for s in [None, *range(g.players)]]])


def illegal(g: torampu.Game, action: str, *fragments: str) -> str:
    """``action`` raises IllegalAction whose message has every fragment; nothing changes."""
    before = snap(g)
    with pytest.raises(IllegalAction) as e:
        g.play(action)
    msg = str(e.value)
    for f in fragments:
        assert f in msg, f"{f!r} not in {msg!r}"
    assert snap(g) == before
    return msg


def last(g: torampu.Game, back: int = 1) -> dict[str, Any]:
    """A log entry of the spectator's view (the last one by default)."""
    e: dict[str, Any] = g.view(None)["log"][-back]
    return e


def codes(g: torampu.Game, back: int = 1) -> list[str]:
    """The ruling codes of a log entry."""
    return [w["code"] for w in last(g, back)["why"]]


def hand(g: torampu.Game, seat: int) -> list[str]:
    h: list[str] = g.view(seat)["hand"]
    return h


def table(g: torampu.Game) -> list[str] | None:
    t = g.view(None)["table"]
    return None if t is None else list(t["cards"])


def plays(g: torampu.Game) -> list[str]:
    """The seat to play's legal plays, as card strings (``pass`` left out)."""
    return [a[5:] for a in g.legal_actions() if a.startswith("play ")]


def finish(g: torampu.Game) -> dict[str, Any]:
    """Play the first legal action until the game is over; its result."""
    while not g.is_over:
        g.play(g.legal_actions()[0])
    res: dict[str, Any] = g.result()
    return res


def roundtrip(g: torampu.Game) -> None:
    """The record (fixed deal, titles, defense included) survives JSON and replays to the same
    record and views."""
    rec = json.loads(json.dumps(g.to_record()))
    again = torampu.replay(rec)
    assert again.to_record() == rec
    for seat in [None, *range(g.players)]:
        assert again.view(seat) == g.view(seat)


def resolved(rules: str | dict[str, Any], players: int | None = None) -> dict[str, Any]:
    r: dict[str, Any] = torampu.new_game(
        "daifugo", rules=rules, players=players, seed=0
    ).to_record()["rules"]
    return r


# ------------------------------------------------------------------------- the option table
def test_option_table_is_rules_md_section_4() -> None:
    """Every option of rules.md §4 with its values, the first value the default."""
    table_ = {  # the UECda options (source "UECda") are checked in test_daifugo_uecda.py
        o["name"]: (o["default"], o["values"])
        for o in torampu.rules("daifugo")
        if o["source"] != "UECda"
    }
    assert table_ == OPTION_TABLE


def test_presets_standard_and_yaita() -> None:
    """rules.md §4: ``standard`` = 004's basic rules; ``yaita`` = the house rules, every option
    on, 3 jokers, 4D, forbidden finishes 2 JK KH 8JK."""
    std = resolved("standard")
    assert std["jokers"] == 1 and std["first_lead"] == "3D"
    for on in ("revolution", "exchange", "stairs", "eight_cut", "spade3_return"):
        assert std[on] is True
    for off in ("eleven_back", "five_skip", "lock", "sandstorm", "coup", "tenpen"):
        assert std[off] is False
    assert std["forbidden_finish"] == []
    ya = resolved("yaita")
    assert ya["jokers"] == 3 and ya["first_lead"] == "4D"
    assert sorted(ya["forbidden_finish"]) == sorted(["2", "JK", "KH", "8JK"])
    # every house rule on, except シケ (004: only "when few play") and stair_overlap (★18's
    # reading of ★17, which yaita keeps as ★17 says)
    for name, (_, values) in OPTION_TABLE.items():
        if values == [False, True]:
            assert ya[name] is (name not in ("shike", "stair_overlap")), name
    # 004 ★24: 一度パスをしても次に自分の番に回ってきたときに出すことができます /
    # あがった時に出されたカードは流しません
    assert ya["pass_rejoin"] is True and ya["finish_stays"] is True


@pytest.mark.parametrize(
    ("rules", "name"),
    [
        ({"stairs": False, "stair_revolution": True}, "stair_revolution"),
        ({"exchange": False, "defense": True}, "defense"),
        ({"jokers": 4}, "jokers"),
        ({"first_lead": "5D"}, "first_lead"),
        ({"forbidden_finish": ["9"]}, "forbidden_finish"),
        ({"players": 9}, "players"),
        ({"nonsense": True}, "nonsense"),
    ],
)
def test_bad_rules_raise_rules_error_naming_the_option(rules: dict[str, Any], name: str) -> None:
    with pytest.raises(RulesError, match=name):
        torampu.new_game("daifugo", rules={"preset": "standard", **rules}, seed=0)


# --------------------------------------------------------------------------- players, deal
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("jokers", [0, 1, 2, 3])
def test_players_and_jokers_deal_every_card(players: int, jokers: int) -> None:
    """004 ①1: 全員に均等にカードを配る。端数が出た場合は…1枚ずつ渡す. Every card is dealt;
    hands differ by at most one; ``jokers`` jokers are in the deck."""
    g = torampu.new_game(
        "daifugo", rules={"preset": "standard", "jokers": jokers}, players=players, seed=3
    )
    sizes = g.view(None)["hand_sizes"]
    assert sum(sizes) == 52 + jokers
    assert max(sizes) - min(sizes) <= 1
    assert sum(hand(g, s).count("JK") for s in range(players)) == jokers
    real, jk = g.cards_accounted()  # type: ignore[attr-defined]
    assert real == (1 << 52) - 1 and jk == jokers


def test_extra_cards_go_from_the_dealers_left_then_from_the_daifugo() -> None:
    """004 ①1: 端数が出た場合は…階級の上の人から1枚ずつ渡す場合がある. Ruling (Dealing): game 1
    deals from the dealer's left, later games from the 大富豪 down."""
    g = torampu.new_game("daifugo", rules="standard", players=5, seed=1, dealer=0)
    assert g.view(None)["hand_sizes"] == [10, 11, 11, 11, 10]  # 53 cards from seat 1
    titles = [4, 3, 0, 2, 1]  # seat 2 大富豪, seat 4 富豪, seat 3 平民
    g = torampu.new_game(
        "daifugo",
        rules={"preset": "standard", "exchange": False},
        players=5,
        seed=1,
        titles=titles,
    )
    assert g.view(None)["hand_sizes"] == [10, 10, 11, 11, 11]


@pytest.mark.parametrize(
    ("players", "names"),
    [
        (2, ["daifugo", "daihinmin"]),
        (3, ["daifugo", "heimin", "daihinmin"]),
        (4, ["daifugo", "fugo", "hinmin", "daihinmin"]),
        (5, ["daifugo", "fugo", "heimin", "hinmin", "daihinmin"]),
        (6, ["daifugo", "fugo", "heimin", "heimin", "hinmin", "daihinmin"]),
    ],
)
def test_titles_by_finishing_order(players: int, names: list[str]) -> None:
    """004 ①7: あがった順番に大富豪、富豪、…貧民となる。最後に残った人が大貧民となる. rules.md:
    5 players one 平民, 4 none, 3: 大富豪, 平民, 大貧民."""
    # seat s holds s+1 cards; everyone passes on a table, so each leads out in turn
    pool = [r + u for u in "SHC" for r in "3456789TJQKA2"]
    hands = [" ".join(pool[s * (s + 1) // 2 : (s + 1) * (s + 2) // 2]) for s in range(players)]
    g = new(hands)
    res = finish(g)
    assert res["ranking"] == list(range(players))
    assert [res["titles"][s] for s in res["ranking"]] == names
    ja = {
        "daifugo": "大富豪",
        "fugo": "富豪",
        "heimin": "平民",
        "hinmin": "貧民",
        "daihinmin": "大貧民",
    }
    assert res["titles_ja"] == [ja[t] for t in res["titles"]]


# ------------------------------------------------------------------- jokers and canonical plays
def test_jokers_a_deal_may_not_hold_more_than_the_rules() -> None:
    """``jokers`` is the number in the deck: a fixed deal with more is refused."""
    with pytest.raises(torampu.DealError, match="jokers"):
        new(["JK JK 5S", "6S"], jokers=1)
    with pytest.raises(torampu.DealError, match="jokers"):
        new(["JK 5S", "6S"], jokers=0)
    assert hand(new(["JK JK JK 5S", "6S"], jokers=3), 0) == ["5S", "JK", "JK", "JK"]


def test_canonical_plays_with_three_jokers_exact_list() -> None:
    """rules.md: ``play 5H 6H JK`` (run, joker standing in its place, cards ascending). Every
    legal play exactly once: singles, groups, runs; each by size, then rank, then text; a run
    with one real card names its jokers' places (``JK=4D``)."""
    g = new(["3D 4D 5D JK JK JK", "9S"], jokers=3, stairs=True, first_lead="3D")
    assert g.legal_actions() == [
        "play 3D",
        "play 3D JK",
        "play 3D JK JK",
        "play 3D JK JK JK",
        "play 3D 4D 5D",
        "play 3D 4D JK",
        "play 3D JK 5D",
        "play 3D JK=4D JK=5D",
        "play 3D 4D 5D JK",
        "play 3D 4D JK JK",
        "play 3D JK 5D JK",
        "play 3D JK=4D JK=5D JK=6D",
        "play 3D 4D 5D JK JK",
        "play 3D 4D JK JK JK",
        "play 3D JK 5D JK JK",
        "play 3D 4D 5D JK JK JK",
    ]  # the first lead must include 3D (first_lead: 3D)


def test_canonical_plays_free_lead_with_jokers() -> None:
    """Every legal play exactly once on a free lead: the joker alone, groups of jokers only
    (Ruling: the strongest group of their size), jokers below a real card in a run."""
    g = new(["5H JK JK", "9S"], jokers=2, stairs=True)
    acts = g.legal_actions()
    assert acts == [
        "play 5H",
        "play JK",
        "play 5H JK",
        "play JK JK",
        "play 5H JK JK",
        "play JK=3H JK=4H 5H",
        "play JK=4H 5H JK=6H",
        "play 5H JK=6H JK=7H",
    ]
    assert len(set(acts)) == len(acts)
    g.play("play JK=3H JK=4H 5H")
    assert table(g) == ["JK=3H", "JK=4H", "5H"]
    assert g.view(None)["table"]["stands_for"] == ["3H", "4H", "5H"]


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [("JK 5H", "5H JK"), ("jk 5h jk", "5H JK JK"), ("7H JK 5H", None), ("5H 6H JK", "5H 6H JK")],
)
def test_plays_are_written_ascending_jokers_in_place(typed: str, canonical: str | None) -> None:
    """Groups may be typed in any order (jokers go last); a run must be written ascending with
    each joker in the place it stands for."""
    g = new(["5H 6H JK JK", "9S"], jokers=2, stairs=True)
    if canonical is None:
        illegal(g, "play " + typed, "ascending")
    else:
        g.play("play " + typed)
        assert last(g)["action"] == "play " + canonical


def test_joker_wild_on_a_joker_stands_in_a_group() -> None:
    """004 ★13: ジョーカーは…ワイルドカード(ほかのカードと組み合わせて使うことにより、任意の
    カードの代理として使うことができるカード)として使用できます."""
    g = new(["5H JK 9S", "6S 6H 7D"], joker_wild=True)
    assert "play 5H JK" in g.legal_actions()
    g.play("play 5H JK")
    assert g.view(None)["table"]["stands_for"] == ["5H", "5*"]
    assert last(g)["stands_for"] == ["5H", "5*"]
    assert plays(g) == ["6H 6S"]  # groups: suits ♣ ♦ ♥ ♠


def test_joker_wild_off_a_joker_only_alone() -> None:
    """``joker_wild: false``: a joker is only the strongest single."""
    g = new(["5H JK 9S", "6S 6H 7D"], joker_wild=False)
    assert g.legal_actions() == ["play 5H", "play 9S", "play JK"]
    illegal(g, "play 5H JK", "joker_wild")


def test_lone_joker_is_the_strongest_single() -> None:
    """004 ①5: ジョーカーを入れる場合、ジョーカーは最も強いカードとされる."""
    g = new(["2S 9S", "JK 7D"])
    run(g, "2S")
    assert plays(g) == ["JK"]
    run(g, "JK")
    assert plays(g) == []  # nothing beats it, not even a 2 (spade3_return off)
    illegal(g, "play 9S", "nothing beats the joker")


@pytest.mark.parametrize("on", [True, False])
def test_spade3_return_beats_a_lone_joker_and_flushes(on: bool) -> None:
    """004 ★13: ジョーカーは2より強いカード…として使用できます。前者はさらにスペードの3を出して
    流すことができます."""
    g = new(["JK 9S", "3S 6H 7D"], spade3_return=on)
    run(g, "JK")
    if not on:
        assert g.legal_actions() == ["pass"]
        illegal(g, "play 3S", "nothing beats the joker")
        return
    assert g.legal_actions() == ["pass", "play 3S"]
    run(g, "3S")
    assert codes(g) == ["spade3"]
    assert "スペ3返し" in last(g)["why"][0]["ja"]
    assert table(g) is None and g.to_play == 1  # flushed; the ♠3 player leads


def test_spade3_return_only_the_three_of_spades() -> None:
    """Only ♠3: another 3 or a 2 does not answer the joker."""
    g = new(["JK 9S", "3H 2S 3S 7D"], spade3_return=True)
    run(g, "JK")
    assert g.legal_actions() == ["pass", "play 3S"]
    illegal(g, "play 3H", "only ♠3 beats a lone joker")


def test_spade3_does_not_answer_a_joker_used_as_a_wild_card() -> None:
    """004 ★13: 後者はスペードの3と複合して出すことはできません。例:「4」2枚とジョーカー1枚が
    出されたときに「6」2枚とスペードの3の組み合わせで出すことはできません."""
    g = new(["4C 4D JK 9S", "6C 6D 3S 7D"], spade3_return=True, jokers=1)
    run(g, "4C 4D JK")
    assert g.legal_actions() == ["pass"]
    illegal(g, "play 6C 6D 3S", "not a play")
    illegal(g, "play 3S", "group of 3")


def test_spade3_on_a_joker_that_beat_a_single() -> None:
    """♠3 answers a lone joker wherever it comes in the round (here over a 2)."""
    g = new(["2H 9S", "JK 8D", "3S 7D"], spade3_return=True)
    run(g, "2H", "JK")
    assert g.to_play == 2 and "play 3S" in g.legal_actions()
    run(g, "3S")
    assert table(g) is None and g.to_play == 2


@pytest.mark.parametrize(("suit", "answers"), [("S", True), ("H", False)])
def test_spade3_return_obeys_a_lock(suit: str, answers: bool) -> None:
    """Ruling (lone joker): a lone joker ignores locks; ♠3 obeys a lock like any card."""
    g = new([f"4{suit} 9C", f"6{suit} 8C", "JK 3S 5D"], lock=True, spade3_return=True, leader=0)
    run(g, f"4{suit}", f"6{suit}")
    assert g.view(None)["lock"]["suits"] == [suit]
    run(g, "JK", "pass", "pass")  # the joker goes over the lock; seat 2 played it
    assert table(g) is None and g.to_play == 2
    g = new([f"4{suit} 9C", f"6{suit} 8C", "JK 5D", "3S 7D"], lock=True, spade3_return=True)
    run(g, f"4{suit}", f"6{suit}", "JK")
    assert (g.legal_actions() == ["pass", "play 3S"]) is answers
    if not answers:
        illegal(g, "play 3S", "Lock (縛り): ♥ only")


def test_spade3_return_not_under_a_strict_lock() -> None:
    """Ruling (lone joker): ♠3 obeys a lock; under 激縛 it never answers the joker."""
    g = new(["4S 9C", "5S 8C", "JK 5D", "3S 7D"], strict_lock=True, spade3_return=True)
    run(g, "4S", "5S", "JK")
    assert g.view(None)["lock"] == {"suits": ["S"], "strict": True}
    assert g.legal_actions() == ["pass"]
    illegal(g, "play 3S", "激縛")


# ------------------------------------------------------------------------- who leads game 1
@pytest.mark.parametrize("card", ["3D", "4D", "3C", "3H", "3S"])
def test_first_lead_holder_leads_and_must_include_it(card: str) -> None:
    """004 ①3: ダイヤの3(クラブ又はハート、スペードの3という異説あり)を持った人から…(ダイヤの3を
    必ず出さなければならないルール); ②: 1回目のみダイヤの4を所持している人が、それを含む
    カードの組み合わせを出して開始."""
    others = [c for c in ("3D", "4D", "3C", "3H", "3S") if c != card]
    hands = [" ".join(others[:2]) + " 9S", f"{card} 8C 8H", " ".join(others[2:]) + " 9H"]
    g = new(hands, leader=0, first_lead=card)
    assert g.to_play == 1
    assert all(card in a for a in g.legal_actions())
    illegal(g, "play 8C 8H", f"must include {card}")
    run(g, card)
    assert g.to_play == 2  # after it, play goes round as usual


def test_first_lead_nobody_holds_it_the_seat_after_the_dealer_leads_freely() -> None:
    """Ruling (Dealing): if nobody holds the first_lead card (シケ), the player after the dealer
    leads game 1 freely."""
    g = torampu.new_game(
        "daifugo",
        rules={**PLAIN, "first_lead": "4D"},
        players=3,
        deal={"hands": [["5S"], ["6S", "7S"], ["8S"]]},
        seed=0,
        dealer=1,
    )
    assert g.to_play == 2 and g.legal_actions() == ["play 8S"]


@pytest.mark.parametrize("later", ["daihinmin", "first_lead"])
def test_later_lead(later: str) -> None:
    """004 ①3: 第2ゲーム以降の1周目は、その時点の大貧民から場にカードを出してゆく; ②: 2回目以降は
    大貧民が任意のカードを出すことができます. ``first_lead``: the holder of the card leads
    again (and must include it, as in game 1)."""
    # seat 2 is 大貧民; seat 0 holds 3D
    g = new(["3D 9S", "5H 6H", "7C 8C"], titles=[0, 1, 2], later_lead=later)
    if later == "daihinmin":
        assert g.to_play == 2
        assert g.legal_actions() == ["play 7C", "play 8C"]
    else:
        assert g.to_play == 0
        assert g.legal_actions() == ["play 3D"]
        illegal(g, "play 9S", "must include 3D")


# ----------------------------------------------------------------------------- the exchange
def test_exchange_four_players_poor_give_best_rich_return_any() -> None:
    """004 ①2: 大貧民から大富豪へ2枚、貧民から富豪へ1枚、最も強いカードを差し出す。大富豪・富豪は、
    同じ枚数の任意のカードを大貧民・貧民へ返す; ★2: 大富豪、富豪はほしいカードを指定することは
    できません. Ruling: the best cards by rank, jokers first; between equal ranks ♠ ♥ ♦ ♣."""
    g = new(
        ["9S 9H 3C", "TS TH", "AH AS 4C", "JK 2S 2H 5C 4D"],
        titles=[0, 1, 2, 3],  # seat 0 大富豪, 1 富豪, 2 貧民, 3 大貧民
        exchange=True,
    )
    assert g.phase == "exchange" and g.to_play == 0
    assert hand(g, 0) == ["3C", "9H", "9S", "2S", "JK"]  # got JK and 2S (not 2H)
    assert hand(g, 1) == ["TH", "TS", "AS"]  # got AS (not AH)
    assert hand(g, 3) == ["4D", "5C", "2H"]
    acts = g.legal_actions()
    assert all(a.startswith("exchange ") and len(a.split()) == 3 for a in acts)
    assert len(acts) == 10  # any 2 of 5 cards
    assert "exchange 2S JK" in acts  # the received cards may go back
    illegal(g, "exchange 3C", "return exactly 2 cards")
    illegal(g, "play 3C", "exchange")
    illegal(g, "exchange 3C 4C", "do not hold 4C")
    run(g, "exchange 3C 9H")
    assert g.phase == "exchange" and g.to_play == 1
    assert g.legal_actions() == ["exchange TH", "exchange TS", "exchange AS"]
    run(g, "exchange TS")
    assert g.phase == "play" and g.to_play == 3  # the 大貧民 leads (later_lead)
    assert hand(g, 3) == ["3C", "4D", "5C", "9H", "2H"]
    assert hand(g, 2) == ["4C", "TS", "AH"]
    roundtrip(g)


def test_exchange_is_private_to_each_pair() -> None:
    """The cards given and returned show only to the two seats of each exchange."""
    g = new(["9S 9H 3C", "TS TH", "AH AS 4C", "JK 2S 2H 5C 4D"], titles=[0, 1, 2, 3], exchange=True)
    run(g, "exchange 3C 9H", "exchange TS")
    for seat in (None, 0, 1, 2, 3):
        rows = g.view(seat)["exchange"]
        assert [(r["rich"], r["poor"], r["count"]) for r in rows] == [(0, 3, 2), (1, 2, 1)]
        for r in rows:
            assert ("given" in r) == (seat in (r["rich"], r["poor"]))
    assert g.view(3)["exchange"][0]["given"] == ["2S", "JK"]
    assert g.view(3)["exchange"][0]["returned"] == ["3C", "9H"]
    check_no_leak(g)


@pytest.mark.parametrize(
    ("players", "titles", "pairs"),
    [
        (2, [1, 0], [(1, 0, 2)]),
        (3, [2, 0, 1], [(1, 0, 2)]),
        (4, [3, 2, 1, 0], [(3, 0, 2), (2, 1, 1)]),
        (5, [4, 0, 2, 1, 3], [(1, 0, 2), (3, 4, 1)]),  # seat 2 (平民) takes no part
    ],
)
def test_exchange_pairs_by_player_count(
    players: int, titles: list[int], pairs: list[tuple[int, int, int]]
) -> None:
    """004 ①2/★2: 大貧民は大富豪に2枚、貧民は富豪に1枚 (3 players: no 富豪/貧民; 5: the 平民
    keeps out)."""
    hands = [f"{r}S {r}H {r}D" for r in "3456789"[:players]]
    g = new(hands, titles=titles, exchange=True)
    rows = g.view(None)["exchange"]
    assert [(r["rich"], r["poor"], r["count"]) for r in rows] == pairs
    for i, (rich, poor, k) in enumerate(pairs):
        r = hands[poor][0]
        assert g.view(rich)["exchange"][i]["given"] == [f"{r}H", f"{r}S"][2 - k :]  # ♠ first
        assert g.to_play == rich
        run(g, g.legal_actions()[0])
    assert g.phase == "play"
    sizes = g.view(None)["hand_sizes"]
    assert sizes == [3] * players  # each exchange is as many cards back as were given


def test_exchange_off_or_in_game_one_no_exchange() -> None:
    """004 ①2: このカード交換は、第1ゲームでは行わない; ``exchange: false`` never exchanges."""
    g = new(["9S 3C", "TS", "AH", "JK 2S"], titles=[0, 1, 2, 3], exchange=False)
    assert g.phase == "play" and g.to_play == 3 and hand(g, 3) == ["2S", "JK"]
    g = new(["9S 3C", "TS", "AH", "JK 2S"], exchange=True)  # no titles: game 1
    assert g.phase == "play" and g.view(None)["exchange"] == []


# ------------------------------------------------------------------------------ pass_rejoin
@pytest.mark.parametrize("rejoin", [True, False])
def test_pass_rejoin(rejoin: bool) -> None:
    """004 ★24: 一度パスをしても次に自分の番に回ってきたときに出すことができます. false: a player
    who passed is out until the flush."""
    g = new(["5S 3C", "9H 4C", "6S 4D", "7D 4H"], pass_rejoin=rejoin)
    run(g, "5S", "pass", "6S", "pass", "pass")
    if rejoin:
        assert g.to_play == 1 and "play 9H" in g.legal_actions()
        run(g, "9H")
        assert table(g) == ["9H"]
    else:
        # seat 1 passed: the round comes back to seat 2, who played last: flushed
        assert g.to_play == 2 and table(g) is None
        assert codes(g) == ["flush"]
        assert g.view(None)["passed"] == []


def test_everyone_passes_flushes_and_the_last_player_leads() -> None:
    """004 ①6: 誰もカードを出せない状態(パス)が続いて、現在場にあるカードを出した人まで手順が
    一周すると、その人は場におかれたカードを流して新たに好きなカードを出すことができる."""
    g = new(["5S 3C", "4H 4C", "4D 3H"])
    run(g, "5S", "pass")
    assert g.view(None)["passed"] == [1]
    run(g, "pass")
    assert table(g) is None and g.to_play == 0
    assert codes(g) == ["flush"]
    assert last(g)["why"][0]["ja"].startswith("全員パス")
    illegal(g, "pass", "cannot pass")


# ------------------------------------------------------------------------------- revolution
@pytest.mark.parametrize("on", [True, False])
def test_revolution_four_of_a_rank_reverses_the_order(on: bool) -> None:
    """004 ★1: 同じ数字のカードを4枚以上揃えて出すと発動します。すべてのカードの強弱が逆に
    なります。3.4…K.A.2 の強さの順が 2.A…5.4.3 となります."""
    g = new(["5S 5H 5D 5C 9S", "2S 3S 8H", "KD 4C"], revolution=on)
    run(g, "5C 5D 5H 5S")
    assert g.view(None)["revolution"] is on
    assert ("revolution" in codes(g)) is on
    run(g, "pass", "pass")  # flushed: seat 0 leads
    run(g, "9S")
    if on:
        assert plays(g) == ["3S", "8H"]  # lower wins; 2 is weakest
        illegal(g, "play 2S", "革命")
    else:
        assert plays(g) == ["2S"]


def test_revolution_counter_revolution_and_jokers_stay_strongest() -> None:
    """004 ★1: さらに出されたカードの枚数分カードを出したとき、これを「革命返し」と呼び、革命の
    効果をなくすことができます。なお、革命返しは強いカード(革命前の弱いカードの組)でのみ出す
    ことができ、ジョーカーの強さに変化はありません。またジョーカーを含む4枚以上の組でも問題は
    ありません."""
    g = new(["5S 5H 5D 5C 9S 7C", "4S 4H 4D JK 3S", "6S 6H 6D 6C 2D TC"], revolution=True)
    run(g, "5C 5D 5H 5S")
    assert g.view(None)["revolution"] is True
    assert plays(g) == ["4D 4H 4S JK"]  # 6666 is weaker now; 444+JK is a group of four 4s
    run(g, "4D 4H 4S JK")
    assert g.view(None)["revolution"] is False
    assert "counter_revolution" in codes(g)
    assert "革命返し" in last(g)["why"][-1]["ja"]
    assert plays(g) == ["6C 6D 6H 6S"]
    run(g, "6C 6D 6H 6S")
    assert g.view(None)["revolution"] is True and codes(g) == ["revolution"]
    run(g, "pass", "pass")
    run(g, "2D")  # seat 2 leads its 2: the weakest single now
    assert plays(g) == ["7C", "9S"]
    run(g, "9S", "3S")
    assert g.view(None)["revolution"] is True


def test_revolution_lone_joker_still_beats_a_three() -> None:
    """004 ★1: ジョーカーの強さに変化はありません."""
    g = new(["5S 5H 5D 5C 3H 7S", "JK 8D"], revolution=True)
    run(g, "5C 5D 5H 5S", "pass", "3H")
    assert plays(g) == ["JK"]


# -------------------------------------------------------------------------------- 8-cut
@pytest.mark.parametrize("on", [True, False])
def test_eight_cut(on: bool) -> None:
    """004 ★7: 「8」のカードが場に出たとき、場にあるカードをすべて流します。そして「8」を出した人が
    任意のカードを出します."""
    g = new(["8S 3C 4D", "9H 5C", "TC 6C"], eight_cut=on)
    run(g, "8S")
    if on:
        assert table(g) is None and g.to_play == 0
        assert codes(g) == ["eight_cut"]
        assert last(g)["why"][0]["ja"].startswith("8切り")
        assert "8切り" in last(g)["why"][0]["en"]
    else:
        assert table(g) == ["8S"] and g.to_play == 1 and codes(g) == []


def test_eight_cut_with_a_pair_and_a_joker_group() -> None:
    """Effects of single cards apply to groups (rules.md); Ruling: a joker stands for the
    group's rank (8 JK is two 8s)."""
    g = new(["8S 8H 3C", "9H 9C 5C"], eight_cut=True)
    run(g, "8H 8S")
    assert table(g) is None and g.to_play == 0
    g = new(["8S JK 3C", "9H 9C 5C"], eight_cut=True)
    run(g, "8S JK")
    assert table(g) is None and g.to_play == 0


@pytest.mark.parametrize(("run_", "cuts"), [("6S 7S 8S", True), ("7S 8S 9S", False)])
def test_eight_cut_in_a_run_only_the_top_card(run_: str, cuts: bool) -> None:
    """004 ★17: この時、単独のカードに含まれる効果(★(7)~(12))は先頭のカードのみとなります."""
    g = new([run_ + " 3C", "TH JH QH 5C"], eight_cut=True, stairs=True)
    run(g, run_)
    assert (table(g) is None) is cuts
    assert g.to_play == (0 if cuts else 1)


# ----------------------------------------------------------------------------- 11-back
@pytest.mark.parametrize("on", [True, False])
def test_eleven_back_reverses_until_the_flush(on: bool) -> None:
    """004 ★8: 「J」のカードが場に出たとき、弱いカードを出していきます。この効果は「J」を出した
    カードが流れるまで続きます."""
    g = new(["JS 4D 9D", "KH 5H 6H"], eleven_back=on)
    run(g, "JS")
    assert g.view(None)["eleven_back"] is on and g.view(None)["reversed"] is on
    if on:
        assert codes(g) == ["eleven_back"]
        assert plays(g) == ["5H", "6H"]
        illegal(g, "play KH", "11バック")
        run(g, "5H", "4D", "pass")  # flushed: normal again
        assert g.view(None)["eleven_back"] is False
        run(g, "9D")
        assert plays(g) == []  # 6H is below 9D again
    else:
        assert plays(g) == ["KH"]


def test_eleven_back_twice_restores_the_order() -> None:
    """Ruling: 11バック toggles: a second J play while it is in force restores the order until
    the flush. (Reached here through a クーデター, which reverses the order under the J.)"""
    g = new(["JS JH JD 3C", "9S 9H 9D 4C", "JC JK JK 5C"], eleven_back=True, coup=True, jokers=2)
    run(g, "JD JH JS")
    assert g.view(None)["eleven_back"] is True and g.view(None)["reversed"] is True
    run(g, "9D 9H 9S")  # lower wins: the 9s are played, the coup reverses again
    v = g.view(None)
    assert v["revolution"] is True and v["reversed"] is False
    assert plays(g) == ["JC JK JK"]
    run(g, "JC JK JK")
    assert codes(g) == ["eleven_back_off"]
    v = g.view(None)
    assert v["eleven_back"] is False and v["revolution"] is True and v["reversed"] is True


# ------------------------------------------------------------------------------- 5-skip
def test_five_skip_one_five_skips_one_player() -> None:
    """004 ★9: 「5」のカードが場に出たとき、出した人から1枚につき1人、カードを出す順番を飛ばします。
    例:A,B,C,Dの4人がこの順でカードを出していく場合、Aが5を1枚出したらBさんはカードを出すこと
    ができません。ほかの人が出せずに、飛ばされた人がカードを出すことができたとしても、この時は
    出せません."""
    g = new(["5S 3C", "6S 4C", "6H 4D", "6D 4H"], five_skip=True)
    run(g, "5S")
    assert g.to_play == 2
    assert codes(g) == ["five_skip"]
    assert last(g)["why"][0]["ja"] == "5とび: 1人とばし"
    run(g, "pass", "pass")  # C and D cannot (will not) play: B still may not
    assert table(g) is None and g.to_play == 0
    assert all(e["seat"] != 1 for e in g.view(None)["log"])


def test_five_skip_off_no_skip() -> None:
    g = new(["5S 3C", "6S 4C", "6H 4D", "6D 4H"], five_skip=False)
    run(g, "5S")
    assert g.to_play == 1 and codes(g) == []


@pytest.mark.parametrize(
    ("players", "fives", "next_seat"),
    [
        (4, 2, None),  # 004: 上の例で、Aさんが5を2枚出したらカードを流します
        (5, 2, 4),  # 2枚なら3人: B C D skipped, E plays
        (8, 3, 6),  # 3枚なら5人: seats 1-5 skipped
        (8, 4, None),  # 4枚なら7人: everyone else, back to A: flushed
        (4, 3, None),  # 5 > 3 others: back to A
        (2, 1, None),  # 1 skip, 1 other: back to A
    ],
)
def test_five_skip_counts_and_coming_back_flushes(
    players: int, fives: int, next_seat: int | None
) -> None:
    """004 ★9: 2枚なら3人、3枚なら5人、4枚なら7人分飛ばします。そして自分に帰ってきた場合は場の
    カードを流すことができます。例:上の例で、Aさんが5を2枚出したらカードを流します."""
    five = " ".join(["5S", "5H", "5D", "5C"][:fives])
    others = [f"{r}S {r}H {r}D {r}C" for r in "6789TJQ"]
    g = new([five + " 3C", *others[: players - 1]], five_skip=True)
    run(g, five)
    if next_seat is None:
        assert table(g) is None and g.to_play == 0
        assert codes(g) == ["five_skip_back"]
        assert "流れる" in last(g)["why"][0]["ja"]
    else:
        assert g.to_play == next_seat and table(g) is not None
        assert last(g)["why"][0] == {
            "code": "five_skip",
            "en": f"5-skip (5とび): {2 * fives - 1} player{'s' * (fives > 1)} skipped",
            "ja": f"5とび: {2 * fives - 1}人とばし",
        }


def test_five_skip_a_joker_counts_as_a_five() -> None:
    """Ruling: jokers stand for the rank of their group for 5とび (5 JK skips 3)."""
    g = new(["5S JK 3C", "6S 6H", "7S 7H", "8S 8H", "9S 9H"], five_skip=True)
    run(g, "5S JK")
    assert g.to_play == 4


def test_five_skip_passed_players_are_not_counted_without_rejoin() -> None:
    """Ruling: 5とび skips players who could play now (active, and not out of the round under
    ``pass_rejoin: false``)."""
    hands = ["4S 4H 3C", "KH KS 3H", "5S 5H 9C", "6S 4C", "7S 4D"]
    g = new(hands, five_skip=True, pass_rejoin=False)
    run(g, "4H 4S", "pass", "5H 5S")  # seat 1 passed: D, E, A are the 3 skipped, back to C
    assert table(g) is None and g.to_play == 2 and codes(g) == ["five_skip_back"]
    g = new(hands, five_skip=True, pass_rejoin=True)
    run(g, "4H 4S", "pass", "5H 5S")  # seat 1 may play again: D, E, A skipped, B plays
    assert g.to_play == 1 and table(g) == ["5H", "5S"]


def test_five_skip_in_a_run_only_at_the_top() -> None:
    """004 ★17: 例:スペードの5.6.7と出したときは、★(9)5とびの効果はありませんが★(10)7渡しの
    効果はあります (and 3-4-5, 5 on top, skips)."""
    rules = {"five_skip": True, "seven_pass": True, "stairs": True}
    g = new(["5S 6S 7S 3C", "8H 9H TH", "8D 9D TD", "8C 9C TC"], **rules)
    run(g, "5S 6S 7S")
    assert codes(g) == ["seven_pass"] and g.phase == "give" and g.to_play == 0
    assert g.legal_actions() == ["give", "give 3C"]
    run(g, "give 3C")
    assert g.to_play == 1 and hand(g, 1) == ["3C", "8H", "9H", "TH"]  # no skip
    g = new(["3S 4S 5S 9C", "8H 9H TH", "8D 9D TD", "8C JC TC"], **rules)
    run(g, "3S 4S 5S")
    assert codes(g) == ["five_skip"] and g.to_play == 2


# ---------------------------------------------------------------------------- 7-pass
def test_seven_pass_give_up_to_k_cards_to_the_next_player() -> None:
    """004 ★10: 「7」のカードが場に出たとき、出した人は出した枚数分だけ次にカードを出す人へ
    不要なカードを渡すことができます。無理して枚数分だけ渡す必要はありません、渡さなくても結構
    です."""
    g = new(["7S 7H 3C 4C 9D", "8S 8H", "KS KH"], seven_pass=True)
    run(g, "7H 7S")
    assert g.phase == "give" and g.to_play == 0
    assert codes(g) == ["seven_pass"]
    assert "7渡し" in last(g)["why"][0]["ja"] and "2枚まで" in last(g)["why"][0]["ja"]
    acts = g.legal_actions()
    assert acts[0] == "give" and "give 3C 4C" in acts and "give 9D" in acts
    assert len(acts) == 1 + 3 + 3  # nothing, one of three, two of three
    illegal(g, "give 3C 4C 9D", "at most 2 cards")
    illegal(g, "play 9D", "7渡し")
    illegal(g, "give 5C", "do not hold 5C")
    run(g, "give 3C 9D")
    assert hand(g, 0) == ["4C"] and hand(g, 1) == ["3C", "8H", "8S", "9D"]
    assert g.phase == "play" and g.to_play == 1
    entry = last(g)
    assert entry["action"] == "give" and entry["count"] == 2 and "cards" not in entry
    assert g.view(1)["log"][-1]["cards"] == ["3C", "9D"]
    assert g.view(0)["log"][-1]["cards"] == ["3C", "9D"]
    assert "cards" not in g.view(2)["log"][-1]
    check_no_leak(g)
    roundtrip(g)


def test_seven_pass_giving_nothing() -> None:
    """004 ★10: 渡さなくても結構です (``give`` alone)."""
    g = new(["7S 3C", "8S 4C", "9S 4D"], seven_pass=True)
    run(g, "7S", "give")
    assert hand(g, 0) == ["3C"] and hand(g, 1) == ["4C", "8S"] and g.to_play == 1


def test_seven_pass_off_a_seven_is_plain() -> None:
    g = new(["7S 3C", "8S 4C", "9S 4D"], seven_pass=False)
    run(g, "7S")
    assert g.phase == "play" and g.to_play == 1
    illegal(g, "give", "it is time to play cards or pass")


def test_seven_pass_going_out_by_giving_is_not_a_foul() -> None:
    """004 ★23: ◎反則の対象とならないもの: ★(10)7渡しでカードを渡してあがる…反則とはなりません
    (even giving away a 2)."""
    forbidden = ["2", "JK", "KH", "8JK"]
    g = new(["7S 2C", "8S 4C", "9S 4D"], seven_pass=True, forbidden_finish=forbidden)
    run(g, "7S", "give 2C")
    assert g.view(None)["finished"] == [0] and g.view(None)["fouls"] == []
    assert "out" in codes(g)


def test_seven_pass_with_a_joker_then_giving_out_is_a_foul_under_8jk() -> None:
    """004 ★23: ジョーカーを含む7、10などの組み合わせで渡す、もしくは捨ててあがった時 (``8JK``)."""
    for forbidden, foul in ((["8JK"], True), (["2", "JK", "KH"], False)):
        g = new(["7S JK 2C", "8S 8H 4C", "9S 9H 4D"], seven_pass=True, forbidden_finish=forbidden)
        run(g, "7S JK", "give 2C")
        assert (g.view(None)["fouls"] == [0]) is foul
        assert ("foul" in codes(g)) is foul


def test_the_view_names_the_plays_that_would_go_out_on_a_forbidden_finish() -> None:
    """A twenty-eighth review: a player went out on ♦2 under forbidden finishes and was ranked
    last with no warning before. The view of the seat to play names each play that would empty
    its hand on a forbidden card (``foul_finishes``), for a front end to warn of; nobody else's
    view, and no play that leaves cards, is named."""
    forbidden = ["2", "JK", "KH", "8JK"]
    g = new(["2D", "8S 4C", "9S 4D"], forbidden_finish=forbidden)
    assert g.view(0)["foul_finishes"] == {"play 2D": "2"}
    assert g.view(1)["foul_finishes"] == {} and g.view(None)["foul_finishes"] == {}
    g = new(["2D 2C", "8S 4C", "9S 4D"], forbidden_finish=forbidden)
    assert g.view(0)["foul_finishes"] == {"play 2C 2D": "2"}  # (a lone 2 leaves one)
    g = new(["KH", "8S 4C", "9S 4D"], forbidden_finish=["2"])
    assert g.view(0)["foul_finishes"] == {}  # (KH is not forbidden under these rules)
    g = new(["2D", "8S 4C", "9S 4D"], forbidden_finish=[])
    assert g.view(0)["foul_finishes"] == {}
    g = new(["2D", "8S 4C", "9S 4D"], forbidden_finish=forbidden)
    run(g, "2D")
    assert g.view(None)["fouls"] == [0]  # (what the warning said would happen)


def test_seven_pass_to_the_next_player_in_the_direction_of_play() -> None:
    """Ruling: 7渡し gives to the next player still in the game in the direction of play."""
    g = new(["QS QH QD 7S 3C 4C", "5C", "6C", "8C"], seven_pass=True, queen_reverse=True)
    run(g, "QD QH QS", "pass", "pass", "pass")  # reversed; flushed back to seat 0
    run(g, "7S")
    assert "seat 3" in last(g)["why"][0]["en"]
    run(g, "give 3C")
    assert hand(g, 3) == ["3C", "8C"] and g.to_play == 3


# ---------------------------------------------------------------------------- 10-discard
@pytest.mark.parametrize("on", [True, False])
def test_ten_discard(on: bool) -> None:
    """004 ★11: 「10」のカードが場に出たとき、出した人は出した枚数分だけカードを捨てる…ことが
    できます…捨てる際には見えるように捨ててください。無理して枚数分だけ捨てる必要はありません."""
    g = new(["TS 3C 4C", "JS 5C", "QS 6C"], ten_discard=on)
    run(g, "TS")
    if not on:
        assert g.phase == "play" and g.to_play == 1
        illegal(g, "discard 3C", "it is time to play cards or pass")
        return
    assert g.phase == "discard" and g.to_play == 0 and codes(g) == ["ten_discard"]
    assert g.legal_actions() == ["discard", "discard 3C", "discard 4C"]
    illegal(g, "discard 3C 4C", "at most 1 card")
    run(g, "discard 4C")
    assert hand(g, 0) == ["3C"] and g.to_play == 1
    for seat in (None, 0, 1, 2):
        assert g.view(seat)["discarded"] == ["4C"]  # face up
    assert last(g)["action"] == "discard 4C"
    real, jk = g.cards_accounted()  # type: ignore[attr-defined]
    assert real == (1 << 52) - 1 and jk == 1  # the discard is still part of the deck (and
    # the joker this fixed deal left out is set aside)


def test_ten_discard_going_out_by_discarding_is_not_a_foul() -> None:
    """004 ★23: ★(11)10捨てでカードを捨ててあがるのも反則とはなりません."""
    g = new(["TS TH KH 2S", "JS 5C", "QS 6C"], ten_discard=True, forbidden_finish=["2", "KH"])
    run(g, "TH TS", "discard KH 2S")
    assert g.view(None)["finished"] == [0] and g.view(None)["fouls"] == []


# ---------------------------------------------------------------------------- Q-reverse
@pytest.mark.parametrize(
    ("queens", "next_seat"), [("QS", 3), ("QH QS", 1), ("QD QH QS", 3), ("QC QD QH QS", 1)]
)
def test_queen_reverse_odd_reverses_even_cancels(queens: str, next_seat: int) -> None:
    """004 ★12: 「Q」のカードが場に出たとき、カードを出していく順番が逆になります…出した枚数が
    偶数の場合、効果は打ち消されます."""
    g = new([queens + " 3C", "4C 5C", "4D 5D", "4H 5H"], queen_reverse=True)
    run(g, queens)
    assert g.to_play == next_seat
    assert g.view(None)["direction"] == (-1 if next_seat == 3 else 1)
    assert ("queen_reverse" in codes(g)) is (next_seat == 3)


def test_queen_reverse_off() -> None:
    g = new(["QS 3C", "4C 5C", "4D 5D", "4H 5H"], queen_reverse=False)
    run(g, "QS")
    assert g.to_play == 1 and g.view(None)["direction"] == 1


# ------------------------------------------------------------------------------- sandstorm
@pytest.mark.parametrize("over", ["2S", "JK", "JK JK"])
def test_sandstorm_three_threes_over_anything(over: str) -> None:
    """004 ★14: 「3」のカード3枚…は、場に出ているカードに関係なく自分の番が回ればいつでも出す
    ことができ、そしてそれを出した人が任意のカードを出します."""
    g = new([over + " 9C", "3S 3H 3C 4D"], sandstorm=True, jokers=2)
    run(g, over)
    assert "play 3C 3H 3S" in g.legal_actions()
    run(g, "3C 3H 3S")
    assert codes(g) == ["sandstorm"] and "砂嵐" in last(g)["why"][0]["ja"]
    assert table(g) is None and g.to_play == 1


def test_sandstorm_four_fours_no_revolution() -> None:
    """004 ★14: 「4」のカード4枚…「4」4枚(「A」4枚)に限り★(1)の革命が適用されません."""
    g = new(["AS 9C", "4S 4H 4D 4C 5D"], sandstorm=True, revolution=True)
    run(g, "AS", "4C 4D 4H 4S")
    assert table(g) is None and g.to_play == 1
    assert g.view(None)["revolution"] is False and codes(g) == ["sandstorm"]


def test_sandstorm_in_a_revolution_three_twos_four_aces() -> None:
    """004 ★14: 「3」のカード3枚(革命時は「2」のカード3枚)と「4」のカード4枚(革命時は「A」の
    カード4枚)."""
    hands = ["6S 6H 6D 6C 3S 9C", "2S 2H 2C 3H", "AS AH AD AC 3C"]
    g = new(hands, sandstorm=True, revolution=True)
    run(g, "6C 6D 6H 6S")
    assert g.view(None)["revolution"] is True
    run(g, "pass", "pass", "3S")  # seat 0 leads ♠3: the strongest single now
    assert "play 2C 2H 2S" in g.legal_actions()
    run(g, "2C 2H 2S")
    assert codes(g) == ["sandstorm"] and g.to_play == 1
    run(g, "3H")
    assert "play AC AD AH AS" in g.legal_actions()
    run(g, "AC AD AH AS")
    assert codes(g) == ["sandstorm"] and g.view(None)["revolution"] is True


def test_sandstorm_three_threes_in_a_revolution_are_a_plain_group() -> None:
    g = new(["6S 6H 6D 6C 7S 7H 9C", "3S 3H 3C 4D"], sandstorm=True, revolution=True)
    run(g, "6C 6D 6H 6S", "pass", "7H 7S")
    assert "play 3H 3S" in g.legal_actions()  # a pair of 3s beats 7s in a revolution
    illegal(g, "play 3C 3H 3S", "group of 2")  # three 3s are no sandstorm in a revolution


def test_sandstorm_off() -> None:
    g = new(["2S 9C", "3S 3H 3C 4D"], sandstorm=False)
    run(g, "2S")
    assert g.legal_actions() == ["pass"]
    illegal(g, "play 3C 3H 3S", "single of 1")


def test_sandstorm_with_a_joker() -> None:
    """Ruling: a joker stands for the rank of its group for 砂嵐 (3 3 JK is three 3s)."""
    g = new(["2S 9C", "3S 3H JK 4D"], sandstorm=True)
    run(g, "2S", "3H 3S JK")
    assert codes(g) == ["sandstorm"] and table(g) is None


def test_sandstorm_with_a_joker_is_a_foul_only_as_a_finish() -> None:
    """004 ★23 lists "ジョーカーを含むカードの組み合わせで★(14)砂嵐を行ったり" among the fouls.
    Ruling (7渡し/10捨て bullet): read as a way of going out (the ``JK`` foul), not a foul when
    played earlier."""
    forbidden = ["2", "JK", "KH", "8JK"]
    g = new(["2S 9C", "3S 3H JK 4D"], sandstorm=True, forbidden_finish=forbidden)
    run(g, "2S", "3H 3S JK")
    assert g.view(None)["fouls"] == [] and g.to_play == 1
    g = new(["2S 9C", "3S 3H JK"], sandstorm=True, forbidden_finish=forbidden)
    run(g, "2S", "3H 3S JK")
    assert g.view(None)["fouls"] == [1]


# ------------------------------------------------------------------------------- big seven
@pytest.mark.parametrize("on", [True, False])
def test_big_seven_every_hand_passes_to_the_next_player(on: bool) -> None:
    """004 ★15: 「7」のカードを3枚出したとき、全員が手札の全部を自分の次に出す人へ渡します;
    ★10: 3枚出しは★(15)ビッグセブンとなります (no 7渡し)."""
    g = new(["7S 7H 7D 4C", "9S 9H", "KD"], big_seven=on, seven_pass=True)
    run(g, "7D 7H 7S")
    if on:
        assert codes(g) == ["big_seven"] and g.phase == "play"
        assert [hand(g, s) for s in range(3)] == [["KD"], ["4C"], ["9H", "9S"]]
        assert g.to_play == 1
        check_no_leak(g)
        roundtrip(g)
    else:
        assert g.phase == "give" and hand(g, 1) == ["9H", "9S"]


def test_big_seven_follows_the_direction_of_play() -> None:
    """``次に出す人``: after a Q reverse the hands go the other way."""
    g = new(
        ["QS 7S 7H 7D 4C", "9S 9H 2S", "KD KC 2H", "5S 5H 5D"], big_seven=True, queen_reverse=True
    )
    run(g, "QS")  # reversed: 0 -> 3 -> 2 -> 1
    run(g, "pass", "pass", "pass")
    run(g, "7D 7H 7S")
    assert [hand(g, s) for s in range(4)] == [
        ["9H", "9S", "2S"],
        ["KC", "KD", "2H"],
        ["5D", "5H", "5S"],
        ["4C"],
    ]


# ------------------------------------------------------------------------------------ coup
@pytest.mark.parametrize("on", [True, False])
def test_coup_three_nines_revolution_that_cannot_be_reversed(on: bool) -> None:
    """004 ★16: 「9」のカードを3枚出したとき、革命が起こります…この時、革命返しはできません."""
    g = new(["9S 9H 9D 4C", "3S 3H 3C 5C 5D 5H 5S 2D"], coup=on, revolution=True)
    run(g, "9D 9H 9S")
    assert g.view(None)["revolution"] is on and g.view(None)["coup"] is on
    if not on:
        assert g.legal_actions() == ["pass"]
        return
    assert codes(g) == ["coup"]
    assert "クーデター" in last(g)["why"][0]["ja"]
    assert "play 3C 3H 3S" in g.legal_actions()  # 3s are strongest now
    run(g, "3C 3H 3S", "pass")
    run(g, "5C 5D 5H 5S")  # four 5s: no counter-revolution after a coup
    assert g.view(None)["revolution"] is True and codes(g) == ["coup_fixed"]


def test_coup_during_a_revolution_restores_and_fixes_the_order() -> None:
    """Ruling: クーデター toggles the order like a revolution and then fixes it for the rest of
    the game."""
    g = new(["4S 4H 4D 4C 9S 9H 9D 3C 6C", "5S 5H 5D 5C KD"], coup=True, revolution=True)
    run(g, "4C 4D 4H 4S", "pass", "9D 9H 9S")
    assert g.view(None)["revolution"] is False and g.view(None)["coup"] is True
    run(g, "pass", "6C")
    assert plays(g) == ["KD"]  # the normal order: the 5s are below the 6
    run(g, "KD", "pass", "5C 5D 5H 5S")
    assert g.view(None)["revolution"] is False


# ---------------------------------------------------------------------------------- stairs
def test_stairs_source_example_what_may_follow_hearts_3_4_5() -> None:
    """004 ★17: 数字を重複させて出すことはできません。例:ハートの3.4.5が出ているときにスペードの
    5.6.7は出せませんが、ダイヤの6.7.8は出すことができます."""
    g = new(["3H 4H 5H 9C", "5S 6S 7S 6D 7D 8D"], stairs=True)
    run(g, "3H 4H 5H")
    assert g.legal_actions() == ["pass", "play 6D 7D 8D"]
    illegal(g, "play 5S 6S 7S", "it must beat 3H 4H 5H")
    run(g, "6D 7D 8D")
    assert g.view(None)["table"]["shape"] == "run"


def test_stairs_runs_of_three_or_more_in_one_suit() -> None:
    """004 ★17: 同じスートで3つ以上連続した数は一度に出すことができます。例:ハートの3.4.5、
    スペードの7.8.9.10.Jなど."""
    g = new(["7S 8S 9S TS JS 4H 5H 6D", "3C"], stairs=True)
    acts = g.legal_actions()
    for r in ("7S 8S 9S", "8S 9S TS", "7S 8S 9S TS", "7S 8S 9S TS JS"):
        assert "play " + r in acts
    assert not any(a in acts for a in ("play 4H 5H", "play 4H 5H 6D"))
    illegal(g, "play 4H 5H", "3 or more")
    illegal(g, "play 4H 5H 6D", "one suit")
    illegal(g, "play 7S 7S 8S", "twice")
    illegal(g, "play 7S 9S TS", "ascending")
    illegal(g, "play 9S 8S 7S", "ascending")


def test_stairs_a_run_follows_only_a_run_of_the_same_length() -> None:
    """004 ①5: 同じ枚数・形(たとえば…階段なら階段)の、より強いカードしか出すことができない."""
    g = new(["3H 4H 5H 9C", "6S 7S 8S 9S 6D 6C JD"], stairs=True)
    run(g, "3H 4H 5H")
    assert g.legal_actions() == ["pass", "play 6S 7S 8S", "play 7S 8S 9S"]
    illegal(g, "play 6S 7S 8S 9S", "run of 3")
    illegal(g, "play 6C 6D 6S", "run of 3")


@pytest.mark.parametrize("run_", ["5H JK 7H", "5H 6H JK", "JK 6H 7H", "JK=4H 5H JK=6H"])
def test_stairs_jokers_fill_gaps_and_ends(run_: str) -> None:
    """004 ★13: ワイルドカード…任意のカードの代理; rules.md: jokers may fill gaps when
    ``joker_wild``."""
    cards = " ".join(w for w in run_.split() if not w.startswith("JK"))
    g = new([cards + " JK JK 3C", "9S"], stairs=True, jokers=2)
    assert "play " + run_ in g.legal_actions()
    run(g, run_)
    assert g.view(None)["table"]["shape"] == "run"
    stands = g.view(None)["table"]["stands_for"]
    assert all(s[1] == "H" for s in stands) and len(stands) == 3


def test_stairs_jokers_not_wild_no_jokers_in_runs() -> None:
    g = new(["5H 7H JK 3C", "9S"], stairs=True, joker_wild=False)
    assert not any("5H JK 7H" in a for a in g.legal_actions())
    illegal(g, "play 5H JK 7H", "joker_wild")


def test_stairs_off_no_runs() -> None:
    """``stairs: false``: runs are not plays."""
    g = new(["3H 4H 5H 9C", "6D"], stairs=False)
    assert all(len(a.split()) == 2 for a in g.legal_actions())
    illegal(g, "play 3H 4H 5H", "runs (stairs) are not played")


def test_stairs_under_eleven_back_lower_runs() -> None:
    """004 ★17: 連番でイレブンバックの効果があるときは、10より弱いカードの連番を出すことが
    できます (a run topped by a J reverses the order: the next run lies below)."""
    g = new(["9H TH JH 3C", "QS KS AS 5D 6D 7D"], stairs=True, eleven_back=True)
    run(g, "9H TH JH")
    assert codes(g) == ["eleven_back"]
    assert g.legal_actions() == ["pass", "play 5D 6D 7D"]


# ------------------------------------------------------------------------- stair revolution
@pytest.mark.parametrize("on", [True, False])
def test_stair_revolution_a_run_of_five(on: bool) -> None:
    """004 ★18: 5枚以上の★(17)連番で★(1)の効果があります."""
    g = new(["6S 7S 8S 9S TS 4C 9C", "2H 3H"], stairs=True, stair_revolution=on)
    run(g, "6S 7S 8S 9S TS")
    assert g.view(None)["revolution"] is on
    assert ("stair_revolution" in codes(g)) is on
    if on:
        assert "階段革命" in last(g)["why"][0]["ja"]
    run(g, "pass", "4C")
    assert plays(g) == (["3H"] if on else ["2H"])


@pytest.mark.parametrize("on", [False, True])
def test_stair_overlap_the_source_example_of_a_stair_counter_revolution(on: bool) -> None:
    """004 ★18: 例:スペードの6.7.8.9.10で連番革命を起こしたら、ダイヤの9.8.7.6.5で革命返しを
    起こすことができます — which overlaps the ranks as ★17 forbids (数字を重複させて出すことは
    できません). ``stair_overlap`` off (★17): refused, so a ♠6-T revolution has no answer from
    ♦5-9; on (★18): legal, and it is the 革命返し."""
    g = new(
        ["6S 7S 8S 9S TS 4H", "5D 6D 7D 8D 9D 3C"],
        stairs=True,
        stair_revolution=True,
        stair_overlap=on,
    )
    run(g, "6S 7S 8S 9S TS")
    assert g.view(None)["revolution"] is True
    if not on:
        assert g.legal_actions() == ["pass"]
        illegal(g, "play 5D 6D 7D 8D 9D", "it must beat 6S 7S 8S 9S TS")
        return
    assert g.legal_actions() == ["pass", "play 5D 6D 7D 8D 9D"]
    run(g, "5D 6D 7D 8D 9D")
    assert g.view(None)["revolution"] is False and "stair_revolution" in codes(g)


@pytest.mark.parametrize("on", [False, True])
def test_stair_overlap_compares_where_runs_start(on: bool) -> None:
    """With ``stair_overlap`` a run beats one of its length that starts higher (★17's own
    example, ♠5-7 on ♥3-5, becomes legal); one that starts lower or at the same rank never."""
    g = new(["3H 4H 5H 9C", "5S 6S 7S 6D 7D 8D 3C 4C 5C"], stairs=True, stair_overlap=on)
    run(g, "3H 4H 5H")
    expect = ["pass", "play 5S 6S 7S", "play 6D 7D 8D"] if on else ["pass", "play 6D 7D 8D"]
    assert g.legal_actions() == expect
    illegal(g, "play 3C 4C 5C", "it must beat 3H 4H 5H")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_shike_deals_one_hand_more_and_sets_it_aside_unseen(players: int) -> None:
    """004 ②: 参加人数が少ない場合は1人分多く配って、余った山は流しておきます。この山を
    「シケ」といいます. With ``shike`` the deck goes round players + 1 hands; the last is set
    aside: in nobody's hand, shown to nobody, still part of the deck."""
    total = 53
    for seed in range(4):
        g = torampu.new_game(
            "daifugo", rules={"preset": "standard", "shike": True}, players=players, seed=seed
        )
        sizes = g.view(None)["hand_sizes"]
        k = players + 1
        shike = total // k  # the set-aside hand is dealt last: never one of the longer ones
        assert sum(sizes) == total - shike
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= shike
        real, jk = g.cards_accounted()  # type: ignore[attr-defined]
        assert real == (1 << 52) - 1 and jk == 1
        aside = g.set_aside  # type: ignore[attr-defined]
        assert aside.bit_count() + g.set_aside_jokers == shike  # type: ignore[attr-defined]
        views = [g.view(s) for s in [None, *range(players)]]
        shown = json.dumps([{k: v for k, v in w.items() if k != "rules"} for w in views])

        assert not any(f'"{card_str(c)}"' in shown for c in cards_of(aside))
        check_no_leak(g)
        off = torampu.new_game("daifugo", rules="standard", players=players, seed=seed)
        assert sum(off.view(None)["hand_sizes"]) == total


def test_stair_revolution_four_cards_no_revolution() -> None:
    g = new(["6S 7S 8S 9S 4C", "2H 3H"], stairs=True, stair_revolution=True)
    run(g, "6S 7S 8S 9S")
    assert g.view(None)["revolution"] is False


def test_stair_revolution_counter_revolution() -> None:
    """004 ★18: 革命返しも有効です (a 5-run below the table's run restores the order)."""
    g = new(["8S 9S TS JS QS 4H", "3C 4C 5C 6C 7C 9D"], stairs=True, stair_revolution=True)
    run(g, "8S 9S TS JS QS")
    assert g.view(None)["revolution"] is True
    assert g.legal_actions() == ["pass", "play 3C 4C 5C 6C 7C"]
    run(g, "3C 4C 5C 6C 7C")
    assert g.view(None)["revolution"] is False and "stair_revolution" in codes(g)


def test_stair_revolution_source_example_overlapping_run_is_refused() -> None:
    """Ruling (runs never overlap, in a revolution too): 004 ★18's example "スペードの
    6.7.8.9.10で連番革命を起こしたら、ダイヤの9.8.7.6.5で革命返し" contradicts ★17's
    "数字を重複させて出すことはできません" (♥3-4-5 → ♠5-6-7 refused); the engine keeps ★17: in a
    revolution a run must lie wholly below the table's run."""
    g = new(["6S 7S 8S 9S TS 4C", "5D 6D 7D 8D 9D 3C"], stairs=True, stair_revolution=True)
    run(g, "6S 7S 8S 9S TS")
    assert g.view(None)["revolution"] is True
    assert g.legal_actions() == ["pass"]
    illegal(g, "play 5D 6D 7D 8D 9D", "革命")


def test_stair_revolution_with_a_group_revolution() -> None:
    """A stair revolution and a group revolution toggle the same order."""
    rules = {"stairs": True, "stair_revolution": True, "revolution": True}
    g = new(["6S 7S 8S 9S TS 4D 2C", "5C 5D 5H 5S 3C 9H"], **rules)
    run(g, "6S 7S 8S 9S TS", "pass", "4D")
    assert g.view(None)["revolution"] is True
    run(g, "3C", "pass", "5C 5D 5H 5S")
    assert g.view(None)["revolution"] is False and "counter_revolution" in codes(g)


# ------------------------------------------------------------------------------------ locks
@pytest.mark.parametrize("on", [True, False])
def test_lock_right_after_a_flush_two_plays_of_one_suit(on: bool) -> None:
    """004 ★19: カードがなにも出ていないときから2連続で同じスートを出すと縛りが発動します;
    ★20: 次からはそのスートのカードしか出せません。場が流れたらこの効果はなくなります."""
    g = new(["4H 9S 3S", "6H 7S KH", "5C 8H TS"], lock=on)
    run(g, "4H", "6H")
    if not on:
        assert g.view(None)["lock"] is None and plays(g) == ["8H", "TS"]
        return
    assert g.view(None)["lock"] == {"suits": ["H"], "strict": False}
    assert last(g)["why"][0] == {
        "code": "lock",
        "en": "Lock (縛り): ♥ only until the flush",
        "ja": "縛り: ♥のみ",
    }
    assert g.legal_actions() == ["pass", "play 8H"]
    illegal(g, "play TS", "Lock (縛り): ♥ only")
    run(g, "8H")
    assert plays(g) == []  # 9S is not a heart
    illegal(g, "play 9S", "縛り")
    run(g, "pass", "pass")  # flushed: the lock is gone
    assert g.view(None)["lock"] is None
    run(g, "TS")
    assert plays(g) == []


def test_lock_later_in_the_round_needs_three_plays() -> None:
    """004 ★19: 最初以外は3連続で同じスートを出すと縛りが発動します."""
    g = new(["3S 7H JH 4C", "5H 8H KH", "6C 9H TS QH"], lock=True)
    run(g, "3S", "5H", "6C", "7H", "8H")
    assert g.view(None)["lock"] is None  # ♥5 ♣6 ♥7 ♥8: only two in a row after the first play
    run(g, "9H")
    assert g.view(None)["lock"] == {"suits": ["H"], "strict": False}
    assert g.legal_actions() == ["pass", "play JH"]


def test_lock_with_pairs_locks_the_suit_set() -> None:
    """rules.md: two consecutive plays of the same suit(s) lock the table to that suit set."""
    g = new(["5S 5H 9S 9D 4C", "6S 6H 7S 7D 3C"], lock=True)
    run(g, "5H 5S", "6H 6S")
    assert g.view(None)["lock"]["suits"] == ["S", "H"]
    assert g.legal_actions() == ["pass"]  # 9S 9D: ♦ is not locked
    illegal(g, "play 9D 9S", "Lock (縛り): ♠♥ only")


def test_lock_lone_joker_ignores_it_and_jokers_take_the_missing_suit() -> None:
    """Ruling (lone joker; Locks): a lone joker ignores locks; under a lock a play's real cards
    must be of the locked suits, a joker takes the missing suit."""
    g = new(["4H 9H 9S", "6H JK", "5C 8S JK"], lock=True, jokers=2)
    run(g, "4H", "6H")
    assert g.legal_actions() == ["pass", "play JK"]
    g = new(["5S 5H 9S JK 4C", "6S 6H 7S 7D 3C"], lock=True)
    run(g, "5H 5S", "6H 6S", "9S JK")
    assert g.view(None)["table"]["stands_for"] == ["9S", "9*"]


def test_lock_a_group_of_jokers_only_may_follow() -> None:
    """Ruling (Locks): under a lock a play's real cards must all be of the locked suits: a
    group of jokers only has none, and is the strongest group of its size."""
    g = new(["5S 5H 9S 4C", "6S 6H 7S 3C", "JK JK 2D 2C"], lock=True, jokers=2)
    run(g, "5H 5S", "6H 6S")
    assert g.view(None)["lock"]["suits"] == ["S", "H"]
    assert g.legal_actions() == ["pass", "play JK JK"]  # 2C 2D: ♣♦ are not locked
    run(g, "JK JK")
    assert g.view(None)["table"]["stands_for"] == ["JK", "JK"]


def test_lock_a_group_with_a_joker_does_not_form_a_lock() -> None:
    """Ruling (Locks): two plays have the same suits when the first has no joker and the
    second's real suits are the same set."""
    g = new(["5S JK 9S 9H 4C", "6S 6H 7S 7D 3C"], lock=True)
    run(g, "5S JK", "6H 6S")
    assert g.view(None)["lock"] is None
    g = new(["5S 5H 9S 9D 4C", "6S JK 7S 7D 3C"], lock=True)
    run(g, "5H 5S", "6S JK")
    assert g.view(None)["lock"] is None


def test_lock_runs_of_one_suit() -> None:
    g = new(["3H 4H 5H 9C", "6H 7H 8H TC", "9D TD JD QH KH AH"], lock=True, stairs=True)
    run(g, "3H 4H 5H", "6H 7H 8H")
    assert g.view(None)["lock"]["suits"] == ["H"]
    assert g.legal_actions() == ["pass", "play QH KH AH"]


# ------------------------------------------------------------------------------ strict lock
def test_strict_lock_source_example() -> None:
    """004 ★21: 同じスートでなおかつ前に出たカードの次に強いカードが場に出た場合、次から場に出て
    いるカードと同じスートでなおかつ次に強いカードしか出せません。例:スペードの3→スペードの4と
    出されたとき、次からはスペードの5、スペードの6…としか出せなくなります."""
    g = new(["3S 5S 9C", "4S 6S 7S 5H", "8S 6H"], strict_lock=True)
    run(g, "3S", "4S")
    assert g.view(None)["lock"] == {"suits": ["S"], "strict": True}
    assert last(g)["why"][0]["ja"] == "激縛: ♠の次の数字のみ"
    assert g.legal_actions() == ["pass"]  # seat 2: 8S skips ranks, 6H is not a spade
    illegal(g, "play 8S", "激縛")
    run(g, "pass", "5S")
    assert g.legal_actions() == ["pass", "play 6S"]
    illegal(g, "play 7S", "激縛: only the next rank")
    illegal(g, "play 5H", "Strict lock (激縛): ♠ at the next rank only")


def test_strict_lock_alone_only_the_consecutive_form_locks() -> None:
    """Ruling (激縛): with ``strict_lock`` but not ``lock`` only the consecutive form locks."""
    g = new(["3S 9C", "5S 4C", "7S 9H"], strict_lock=True, lock=False)
    run(g, "3S", "5S")
    assert g.view(None)["lock"] is None and plays(g) == ["7S", "9H"]


def test_strict_lock_off_consecutive_suits_lock_plainly() -> None:
    g = new(["3S 9C", "4S 4C", "6S 9H"], strict_lock=False, lock=True)
    run(g, "3S", "4S")
    assert g.view(None)["lock"] == {"suits": ["S"], "strict": False}
    assert plays(g) == ["6S"]


def test_strict_lock_in_a_revolution_goes_down() -> None:
    """激縛 follows the current order: in a revolution "next stronger" is one rank lower."""
    g = new(["5C 5D 5H 5S 9S 3C", "8S 7S 4C", "6S JC"], strict_lock=True, revolution=True)
    run(g, "5C 5D 5H 5S", "pass", "pass", "9S", "8S")
    assert g.view(None)["lock"]["strict"] is True
    assert g.legal_actions() == ["pass"]  # seat 2: 6S is two below
    run(g, "pass", "pass")  # seat 0 passes, seat 1 (who played 8S last) leads again
    assert g.to_play == 1


# ----------------------------------------------------------------------------- reverse lock
@pytest.mark.parametrize("on", [True, False])
def test_reverse_lock_source_example(on: bool) -> None:
    """004 ★22: 場に出ているカードと同じスートで1つ下のカードを出して★(20)縛りにすることが
    できます…逆縛は一発で縛りとなります。例:スペードの10が出ているときにスペードの9を出して
    逆縛にすることができます."""
    g = new(["TS 3C", "9S JH 4C", "8S JS JD 4D"], reverse_lock=on)
    run(g, "TS")
    if not on:
        assert plays(g) == ["JH"]
        illegal(g, "play 9S", "it must beat TS")
        return
    assert plays(g) == ["9S", "JH"]
    run(g, "9S")
    assert g.view(None)["lock"] == {"suits": ["S"], "strict": False}
    assert codes(g) == ["reverse_lock"]
    assert "逆縛" in last(g)["why"][0]["ja"]
    # この後の出し方は普段と変わりません。続けて逆縛にすることもできますし、同じスートで
    # さらに強いカードを出すこともできます
    assert g.legal_actions() == ["pass", "play 8S", "play JS"]
    illegal(g, "play JD", "縛り")
    run(g, "8S")  # 逆縛 again, into the lock it made: still told why it may follow
    assert codes(g) == ["reverse_lock_locked"]
    assert "1つ下" in last(g)["why"][0]["ja"]


def test_reverse_lock_pairs_but_not_with_jokers() -> None:
    """Ruling (逆縛): applies to singles and groups without jokers."""
    g = new(["TS TH 3C", "9S 9H 9D JK 4C"], reverse_lock=True)
    run(g, "TH TS")
    assert g.legal_actions() == ["pass", "play 9H 9S"]
    run(g, "9H 9S")
    assert g.view(None)["lock"]["suits"] == ["S", "H"]


def test_reverse_lock_in_a_revolution_one_rank_higher() -> None:
    """Ruling (逆縛): "one rank weaker" in the current order: in a revolution the rank above."""
    g = new(["5C 5D 5H 5S TS 3C", "JS 9S 4C"], reverse_lock=True, revolution=True)
    run(g, "5C 5D 5H 5S", "pass", "TS")
    assert plays(g) == ["4C", "9S", "JS"]  # lower wins; JS by 逆縛
    run(g, "JS")
    assert codes(g) == ["reverse_lock"]


# --------------------------------------------------------------------------------- 都落ち
FIVE_TITLES = [0, 1, 2, 3, 4]  # seat s had position s: seat 0 大富豪 … seat 4 大貧民


@pytest.mark.parametrize("on", [True, False])
def test_miyako_ochi_the_old_daifugo_drops_out(on: bool) -> None:
    """004 ★3: 大富豪が、次の試合で大富豪になれないと確定した場合(大富豪以外の地位にいる人が
    大富豪になった場合)、その瞬間、旧大富豪は手札をすべて流し、次の試合で大貧民となります."""
    hands = ["KS 5D 6D", "AS", "7H 8H", "9C 9H", "4C 3C"]
    g = new(hands, titles=FIVE_TITLES, miyako_ochi=on, finish_stays=False)
    assert g.to_play == 4  # the 大貧民 leads
    run(g, "3C", "5D", "AS")  # seat 1 goes out first
    v = g.view(None)
    if not on:
        assert v["fallen"] is None and "miyako_ochi" not in codes(g)
        assert v["hand_sizes"][0] == 2
        return
    assert v["fallen"] == 0 and v["hand_sizes"][0] == 0
    assert codes(g) == ["out", "miyako_ochi", "finish_flush"]
    assert "都落ち" in last(g)["why"][1]["ja"]
    assert v["discarded"] == ["6D", "KS"]  # Ruling: the hand goes face up on the discard pile
    assert 0 not in [e["seat"] for e in g.view(None)["log"][-1:]]
    res = finish(g)
    assert res["ranking"][-1] == 0 and res["titles"][0] == "daihinmin" and res["fallen"] == 0
    roundtrip(g)


def test_miyako_ochi_not_when_the_daifugo_goes_out_first() -> None:
    hands = ["KS", "AS 4D", "7H 8H", "9C 9H", "4C 3C"]
    g = new(hands, titles=FIVE_TITLES, miyako_ochi=True, finish_stays=False)
    run(g, "3C", "KS")
    assert g.view(None)["fallen"] is None and g.view(None)["finished"] == [0]


def test_fouls_rank_below_miyako_ochi_the_later_foul_lowest() -> None:
    """004 ★23: 反則をした場合、対象者は大貧民となります。順番は以下のとおりです。
    最後まで手札が残る<都落ち<反則(<2回目の反則)。反則が複数あった場合は後に反則をした者が
    大貧民です."""
    hands = ["KS 5D 6D", "AS", "2D", "9C 9H", "2C"]
    g = new(hands, titles=FIVE_TITLES, miyako_ochi=True, forbidden_finish=["2"], finish_stays=False)
    run(g, "2C")  # seat 4 fouls first
    assert codes(g)[0] == "foul" and g.view(None)["fouls"] == [4]
    run(g, "5D", "AS")  # seat 1 goes out first (the foul does not count): seat 0 falls
    assert g.view(None)["fallen"] == 0
    run(g, "2D")  # seat 2 fouls second: only seat 3 is left
    res = g.result()
    assert g.is_over
    assert res["ranking"] == [1, 3, 0, 4, 2]  # still in < 都落ち < 1st foul < 2nd foul
    assert res["titles"] == ["heimin", "daifugo", "daihinmin", "fugo", "hinmin"]
    assert res["fouls"] == [4, 2] and res["fallen"] == 0
    roundtrip(g)


# ---------------------------------------------------------------------------------- defense
@pytest.mark.parametrize(
    ("defense_on", "defended", "count"), [(True, 0, 2), (True, 1, 3), (True, 2, 4), (False, 2, 2)]
)
def test_defense_exchanges_one_more_card_per_defended_title(
    defense_on: bool, defended: int, count: int
) -> None:
    """004 ★4: 大富豪が、次の試合も大富豪になった場合、★(2)カード交換の枚数を前の試合より1枚
    増やすことができます. Ruling: without asking."""
    hands = ["3C", "4C", "5C", "6C", "JK 2S 2H AS AH KS"]
    g = new(hands, titles=FIVE_TITLES, defended=defended, exchange=True, defense=defense_on)
    rows = g.view(None)["exchange"]
    assert rows[0]["rich"] == 0 and rows[0]["count"] == count
    assert len(g.view(0)["exchange"][0]["given"]) == count
    assert g.legal_actions()[0].count(" ") == count


def test_defense_in_a_match_grows_while_defended_and_resets_on_a_change() -> None:
    """004 ★4: ほかの大富豪にかわった場合、この効果は持続せず規定値(2枚交換)に戻します."""
    m = torampu.new_match(
        "daifugo", rules={"preset": "standard", "defense": True}, players=3, games=8, seed=0
    )
    while not m.is_over:
        m.play(m.legal_actions()[-1])  # the last legal play: a fixed policy
    recs = m.to_record()["records"]
    seen = set()
    for prev, cur in pairwise(recs):
        kept = (
            prev["titles"] is not None and prev["titles"].index(0) == prev["result"]["ranking"][0]
        )
        want = prev["defense"] + 1 if kept else 0
        assert cur["defense"] == want
        seen.add(want)
        g = torampu.replay(cur)
        if g.view(None)["tenpen"] is None:
            assert g.view(None)["exchange"][0]["count"] == 2 + want
    assert seen == {0, 1, 2}  # defended twice in a row, and changed


# ---------------------------------------------------------------------------------- 天変地異
@pytest.mark.parametrize(
    ("poor", "swap"), [("3C 5D 7H TS", True), ("3C 5D 7H JS", False), ("3C 5D JK", False)]
)
def test_tenpen_daihinmin_with_only_3_to_10_swaps_hands(poor: str, swap: bool) -> None:
    """004 ★5: 大貧民のみ、★(2)カード交換する前の手札が10より弱いカード、つまり手札が
    3.4.5.6.7.8.9.10で構成されていた場合、大貧民は手札を公開、その後に大富豪の手札と全部交換
    します。この時、★(2)カード交換はしません. Ruling: no joker either."""
    rich = "2S 2H AS KD"
    hands = [rich, "QC QD", "9C 9D", "8C 8D", poor]
    g = new(hands, titles=FIVE_TITLES, tenpen=True, exchange=True)
    v = g.view(None)
    if swap:
        assert v["tenpen"] == {"poor": 4, "rich": 0, "hand": poor.split()}
        assert hand(g, 4) == ["KD", "AS", "2H", "2S"] and hand(g, 0) == poor.split()
        assert v["exchange"] == [] and g.phase == "play" and g.to_play == 4
        assert "天変地異" in last(g)["why"][0]["ja"]
        check_no_leak(g)
        roundtrip(g)
    else:
        assert v["tenpen"] is None and g.phase == "exchange"
        assert [r["count"] for r in v["exchange"]] == [2, 1]


def test_tenpen_off_exchanges_as_usual() -> None:
    hands = ["2S 2H AS KD", "QC QD", "9C 9D", "8C 8D", "3C 5D 7H TS"]
    g = new(hands, titles=FIVE_TITLES, tenpen=False, exchange=True)
    assert g.view(None)["tenpen"] is None and g.phase == "exchange"


# ---------------------------------------------------------------------------------- 大革命
@pytest.mark.parametrize("on", [True, False])
def test_great_revolution_daihinmin_first_out_ends_and_flips(on: bool) -> None:
    """004 ★6: 大貧民がその試合で大富豪になった瞬間、試合終了となります。そしてすべての地位を
    逆転(大富豪→大貧民、富豪→貧民、平民→変化なし)します."""
    hands = ["KS 5D", "AS 6D", "7H 8H", "9C 9H", "2C"]
    g = new(hands, titles=FIVE_TITLES, great_revolution=on)
    run(g, "2C")
    if on:
        assert g.is_over
        res = g.result()
        assert res["great_revolution"] is True
        assert res["ranking"] == [4, 3, 2, 1, 0]
        assert res["titles"] == ["daihinmin", "hinmin", "heimin", "fugo", "daifugo"]
        assert "great_revolution" in codes(g) and "大革命" in last(g)["why"][-1]["ja"]
        roundtrip(g)
    else:
        assert not g.is_over and g.result()["great_revolution"] is False


def test_great_revolution_only_when_first_out() -> None:
    hands = ["KS", "AS 6D", "7H 8H", "9C 9H", "4C 2C"]
    g = new(hands, titles=FIVE_TITLES, great_revolution=True, finish_stays=False)
    run(g, "4C", "KS")  # seat 0 out first
    run(g, "6D", "7H", "9C", "2C")  # seat 4 out second: no 大革命
    assert not g.is_over and g.result()["great_revolution"] is False


# -------------------------------------------------------------------------- forbidden finish
@pytest.mark.parametrize(
    ("forbidden", "last_play", "foul"),
    [
        ([], "2S", False),
        (["2"], "2S", True),
        (["2"], "2C 2S", True),
        (["JK"], "2S", False),
        (["JK"], "JK", True),
        (["JK"], "9S JK", True),
        (["KH"], "KH", True),
        (["KH"], "KS", False),
        (["KH"], "QH KH AH", True),
        (["2", "JK", "KH"], "AS", False),
        (["8JK"], "8S JK", True),
        (["8JK"], "8C 8S", False),
        (["JK"], "8C 8S", False),
    ],
)
def test_forbidden_finish(forbidden: list[str], last_play: str, foul: bool) -> None:
    """004 ★23: いかなる場合でも、最後に2、ジョーカー、ハートのKを含むカードであがった時…
    ジョーカーを含むカードの組み合わせの★(7)8切りあがりも対象です."""
    cards = last_play.split()
    jokers = cards.count("JK")
    g = new(
        [last_play, "3C 4C", "3H 4H"],
        forbidden_finish=forbidden,
        stairs=True,
        eight_cut=True,
        jokers=max(1, jokers),
    )
    run(g, last_play)
    v = g.view(None)
    assert (v["fouls"] == [0]) is foul
    assert (v["finished"] == [0]) is not foul
    if foul:
        assert codes(g)[0] == "foul"
        why = last(g)["why"][0]
        assert why["en"].startswith("Forbidden finish (反則上がり)") and "反則上がり" in why["ja"]
        assert finish(g)["ranking"][-1] == 0
    else:
        assert finish(g)["ranking"][0] == 0


def test_forbidden_finish_eight_cut_is_not_a_foul_and_helps_the_next_player() -> None:
    """004 ★23: ★(7)8切りであがっても反則ではありませんよ; ★24: この時に★(7)8切りであがった場合、
    隣の人を助けることができます."""
    g = new(["8S", "3C 4C", "3H 4H"], eight_cut=True, forbidden_finish=["2", "JK", "KH", "8JK"])
    run(g, "8S")
    assert g.view(None)["finished"] == [0] and g.view(None)["fouls"] == []
    assert table(g) is None and g.to_play == 1  # flushed: the next player leads freely


def test_forbidden_finish_in_a_revolution_a_3_is_fine_a_2_is_a_foul() -> None:
    """004 ★23: 革命が起こっている最中に3であがるのは大丈夫ですが、2であがるのは反則の対象です."""
    hands = ["5C 5D 5H 5S 3S", "6C 6D 6H 6S 2S 9H", "KD QD"]
    g = new(hands, revolution=True, forbidden_finish=["2"])
    run(g, "5C 5D 5H 5S", "pass", "pass", "3S")
    assert g.view(None)["finished"] == [0]
    run(g, "pass", "pass")  # flushed, seat 1 leads
    g2 = new(
        ["5C 5D 5H 5S 2S", "6C 6D 6H 6S 3S 9H", "KD QD"], revolution=True, forbidden_finish=["2"]
    )
    run(g2, "5C 5D 5H 5S", "pass", "pass", "2S")  # the weakest card now, still a foul
    assert g2.view(None)["fouls"] == [0] and g2.view(None)["finished"] == []


# ---------------------------------------------------------------------------- finish_stays
@pytest.mark.parametrize("stays", [True, False])
def test_finish_stays(stays: bool) -> None:
    """004 ★24: あがった時に出されたカードは流しません. false: the table is flushed and the
    next player leads."""
    g = new(["TS", "9H JH", "3C 4C"], finish_stays=stays)
    run(g, "TS")
    assert g.view(None)["finished"] == [0] and g.to_play == 1
    if stays:
        assert table(g) == ["TS"] and plays(g) == ["JH"]
        assert "finish_stays" in codes(g)
        run(g, "pass", "pass")  # everyone passes: the next player after the finisher leads
        assert table(g) is None and g.to_play == 1
    else:
        assert table(g) is None and codes(g)[-1] == "finish_flush"
        assert plays(g) == ["9H", "JH"]


# ---------------------------------------------------------------------------------- points
@pytest.mark.parametrize(
    ("points", "players", "scores"),
    [
        ("rank", 5, [5, 4, 3, 2, 1]),
        ("zero_sum", 5, [2, 1, 0, -1, -2]),
        ("rank", 3, [3, 2, 1]),
        ("zero_sum", 3, [2, 0, -2]),
        ("zero_sum", 4, [2, 1, -1, -2]),
        ("zero_sum", 6, [2, 1, 0, 0, -1, -2]),
    ],
)
def test_points(points: str, players: int, scores: list[int]) -> None:
    """Points per game: ``rank`` n … 1; ``zero_sum`` +2 大富豪, +1 富豪, 0 平民, −1, −2."""
    pool = [r + u for u in "SHC" for r in "3456789TJQKA2"]
    hands = [" ".join(pool[s * (s + 1) // 2 : (s + 1) * (s + 2) // 2]) for s in range(players)]
    res = finish(new(hands, points=points))
    assert res["ranking"] == list(range(players))
    assert res["scores"] == scores and res["winners"] == [0]


def test_match_standings_sum_the_points_and_carry_titles() -> None:
    m = torampu.new_match(
        "daifugo", rules={"preset": "standard", "points": "zero_sum"}, players=4, games=3, seed=2
    )
    while not m.is_over:
        m.play(m.legal_actions()[0])
    st = m.standings()
    assert st["games_played"] == 3 and sum(st["totals"]) == 0
    assert st["totals"] == [sum(g[s] for g in st["per_game"]) for s in range(4)]
    recs = m.to_record()["records"]
    for prev, cur in pairwise(recs):
        pos = [prev["result"]["ranking"].index(s) for s in range(4)]
        assert cur["titles"] == pos
    assert st["titles"] == recs[-1]["result"]["titles"]
    again = torampu.replay_match(json.loads(json.dumps(m.to_record())))
    assert again.to_record() == m.to_record()


def test_forbidden_finish_8jk_seven_or_ten_played_out_directly_is_not_8jk() -> None:
    """Ruling (7渡し/10捨て): ``8JK`` covers an 8-cut finish with a joker and going out by
    giving/discarding after a 7/10 play with a joker (004 ★23: ジョーカーを含む7、10などの組み合わせ
    で渡す、もしくは捨ててあがった時); going out with the 7/10 play itself is a joker finish,
    a foul only under ``JK``."""
    for forbidden, foul in ((["8JK"], False), (["JK"], True)):
        g = new(["7S JK", "8S 8H 4C", "9S 9H 4D"], seven_pass=True, forbidden_finish=forbidden)
        run(g, "7S JK")
        assert (g.view(None)["fouls"] == [0]) is foul


def test_forbidden_finish_8jk_needs_the_eight_cut() -> None:
    """``8JK`` is an 8-cut with a joker: without ``eight_cut`` an 8 with a joker is a plain
    finish."""
    g = new(["8S JK", "3C 4C", "3H 4H"], eight_cut=False, forbidden_finish=["8JK"])
    run(g, "8S JK")
    assert g.view(None)["finished"] == [0]


def test_forbidden_finish_ten_discard_with_a_joker_then_out_is_a_foul_under_8jk() -> None:
    """004 ★23: ジョーカーを含む7、10などの組み合わせで…捨ててあがった時."""
    g = new(["TS JK 4C", "JS JH 5C", "QS QH 6C"], ten_discard=True, forbidden_finish=["8JK"])
    run(g, "TS JK", "discard 4C")
    assert g.view(None)["fouls"] == [0] and "T + JK" in last(g)["why"][0]["en"]


# ------------------------------------------------------------------ illegal actions, messages
@pytest.mark.parametrize(
    ("action", "fragment"),
    [
        ("", "empty action"),
        ("xyz", "not a Daifugo action"),
        ("play", "needs cards"),
        ("play ZZ", "not a play"),
        ("play 9S 9S", "twice"),
        ("play 4C", "do not hold 4C"),
        ("play JK JK", "joker"),
        ("give 9S", "it is time to play cards or pass"),
        ("discard 9S", "it is time to play cards or pass"),
        ("exchange 9S", "it is time to play cards or pass"),
        ("play 3C", "it must beat 7H"),
        ("play 9S TS", "3 or more"),
        ("play 8C 8H", "single of 1"),
    ],
)
def test_illegal_actions_say_why_and_change_nothing(action: str, fragment: str) -> None:
    g = new(["7H 4D", "9S TS 3C 8C 8H JK"])
    run(g, "7H")
    illegal(g, action, fragment)


def test_illegal_messages_name_the_rule_in_force() -> None:
    """The reason names the rule: 縛り, 激縛, 革命, 11バック, must include, the joker."""
    g = new(["4D 5D", "9S"], first_lead="4D", leader=1)
    assert g.to_play == 0
    illegal(g, "play 5D", "the first play must include 4D")
    g = new(["5C 5D 5H 5S 9C 3H", "KD 4C"], revolution=True)
    run(g, "5C 5D 5H 5S", "pass", "9C")
    illegal(g, "play KD", "it must beat 9C (革命: lower wins)")
    g = new(["JC 9C 3H", "KD 4C"], eleven_back=True)
    run(g, "JC")
    illegal(g, "play KD", "11バック: lower wins")


def test_explanations_in_en_and_ja_in_every_view() -> None:
    """Each ruling in the log has a code and its text in English and Japanese, the same for
    every seat."""
    g = new(["4H 8H 9S", "6H 7S KH", "5C 9H TS"], lock=True, eight_cut=True)
    run(g, "4H", "6H", "9H", "pass", "pass")
    texts = [w for e in g.view(None)["log"] for w in e["why"]]
    assert {
        "code": "lock",
        "en": "Lock (縛り): ♥ only until the flush",
        "ja": "縛り: ♥のみ",
    } in texts
    for seat in range(3):
        assert g.view(seat)["log"] == g.view(None)["log"]
    g = new(["8S 3C", "9H 4C"], eight_cut=True)
    run(g, "8S")
    w = last(g)["why"][0]
    assert w["en"] == "8-cut (8切り): the table is flushed, seat 0 leads"
    assert w["ja"] == "8切り: 場が流れ、0番席から"  # "0番" alone would read as a finishing place
    assert w["seats"] == {"p": 0}, "the seats named, for a screen to put names in their place"


# --------------------------------------------------------------------------------- presets
def test_yaita_game_one_starts_with_4d_and_three_jokers() -> None:
    """004 ②: ジョーカーはあるだけいれてしまいましょう。3枚がベストです…1回目のみダイヤの4を
    所持している人が、それを含むカードの組み合わせを出して開始してください."""
    g = torampu.new_game("daifugo", rules="yaita", players=5, seed=4)
    assert sum(hand(g, s).count("JK") for s in range(5)) == 3
    holder = next(s for s in range(5) if "4D" in hand(g, s))
    assert g.to_play == holder
    assert all("4D" in a.split() for a in g.legal_actions())


def test_standard_game_one_starts_with_3d() -> None:
    """004 ①3: ダイヤの3…を持った人から場にカードを出してゆく."""
    g = torampu.new_game("daifugo", rules="standard", players=4, seed=1)
    holder = next(s for s in range(4) if "3D" in hand(g, s))
    assert g.to_play == holder and g.legal_actions()[0] == "play 3D"
