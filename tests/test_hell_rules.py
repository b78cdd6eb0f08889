"""Every option value of rules.md §3 (Hell, source 002's second half) on fixed deals.

One deal is ``torampu.new_game("hell", cards=N, deal={"hands": [...], "upcard": "7H"})``; the
full series is ``torampu.new_match("hell")``. Each test fails if its rule breaks; the docstring
quotes the line of 002 it checks.

Rulings followed:

* rules.md §3: 002 moves the dealer to the right and bids counter-clockwise; the engine numbers
  seats in the direction of play, so the next dealer is the next seat and the bids start at the
  seat after the dealer and end with the dealer;
* the hook: the dealer may not bid ``cards - (the others' bids)``. When the others already bid
  more than the cards dealt that number is negative and nothing is forbidden; it is never more
  than the cards. When it is 0 the dealer must bid at least 1; when it is ``cards`` (everybody
  else bid 0) the dealer may not bid them all.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import torampu

RANKS = "23456789TJQKA"
SUITS = "SHDC"
DECK52 = [r + s for s in SUITS for r in RANKS]
MAX_CARDS = {2: 25, 3: 17, 4: 12, 5: 10, 6: 8, 7: 7}
"""rules.md: ``max_cards = 51 // players`` (a card must be left to turn up)."""


# ------------------------------------------------------------------------------------ helpers
def new(
    hands: Sequence[str],
    upcard: str,
    *,
    dealer: int = 0,
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> torampu.Game:
    """One deal on fixed hands (space-separated cards per seat)."""
    split = [h.split() for h in hands]
    return torampu.new_game(
        "hell",
        rules=dict(rules or {}),
        players=len(split),
        cards=len(split[0]),
        deal={"hands": split, "upcard": upcard},
        dealer=dealer,
        seed=seed,
    )


def bidding_order(dealer: int, n: int) -> list[int]:
    return [(dealer + 1 + i) % n for i in range(n)]


def bid_all(g: torampu.Game, bids: Mapping[int, int]) -> None:
    """Every seat bids ``bids[seat]`` in turn."""
    while g.phase == "bid":
        s = g.to_play
        assert s is not None
        g.play(f"bid {bids[s]}")


def finish(g: torampu.Game) -> dict[str, Any]:
    while not g.is_over:
        g.play(g.legal_actions()[0])
    res: dict[str, Any] = g.result()
    return res


def score(bid: int, won: int, base: int = 10, per: int = 3, miss: int = -3) -> int:
    """002: "予想が当たった場合の得点= 10 + ( 予想した勝利回数 x 3 )", "予想がはずれた場合の得点=
    -3 x ( 予想した勝利回数と実際に勝利した回数の差 )" (options: base, per, miss)."""
    return base + per * bid if bid == won else miss * abs(bid - won)


def snapshot(g: torampu.Game) -> str:
    return json.dumps([g.to_record(), [g.view(s) for s in [None, *range(g.players)]]])


def roundtrip(g: torampu.Game) -> None:
    rec = json.loads(json.dumps(g.to_record()))
    again = torampu.replay(rec)
    assert again.to_record() == rec
    for s in [None, *range(g.players)]:
        assert again.view(s) == g.view(s)


def hand(g: torampu.Game, seat: int) -> list[str]:
    h: list[str] = g.view(seat)["hand"]
    return h


def plays(g: torampu.Game) -> list[str]:
    return [a.split()[1] for a in g.legal_actions()]


def play_trick(g: torampu.Game, *cards: str) -> dict[str, Any]:
    before = len(g.view(None)["tricks"])
    for c in cards:
        g.play(f"play {c}")
    tricks = g.view(None)["tricks"]
    assert len(tricks) == before + 1, "the trick did not close"
    t: dict[str, Any] = tricks[-1]
    return t


def won(trick: Mapping[str, Any]) -> tuple[str, str]:
    card = next(x["card"] for x in trick["cards"] if x["seat"] == trick["winner"])
    return card, trick["reason"]


# dealer 1; the upcard 7H makes hearts trumps. Seat 2 is void in spades, seat 3 in clubs.
TRICK_HANDS = ["AS 2C 3D", "KS QS 4D", "2H AC 5D", "3S JS AD"]


# ------------------------------------------------------------------------------------ options
def test_option_table_defaults() -> None:
    """rules.md §3's table (002: "プレイ人数は2人〜7人くらいまで。")."""
    table = {o["name"]: o for o in torampu.rules("hell")}
    assert {k: o["default"] for k, o in table.items()} == {
        "players": 5,
        "hook": True,
        "exact_base": 10,
        "exact_per_trick": 3,
        "miss_per_trick": -3,
    }
    assert sorted(table["players"]["values"]) == list(range(2, 8))
    with pytest.raises(torampu.RulesError, match="max_cards"):
        torampu.new_game("hell", rules={"max_cards": 5}, seed=0)


@pytest.mark.parametrize("players", [1, 8])
def test_player_counts_outside_two_to_seven_refused(players: int) -> None:
    with pytest.raises(torampu.RulesError, match="players"):
        torampu.new_game("hell", players=players, seed=0)


@pytest.mark.parametrize("players", range(2, 8))
def test_max_cards_is_51_over_players(players: int) -> None:
    """002: "配るカードがなくなるところ(5人プレイなら各10枚を配るのが最高)までいったら";
    rules.md: ``max_cards = 51 // players`` — a card must be left to turn up."""
    top = MAX_CARDS[players]
    assert top == 51 // players
    g = torampu.new_game("hell", players=players, cards=top, seed=players)
    assert g.view(None)["hand_sizes"] == [top] * players
    deal = g.to_record()["deal"]
    dealt = [c for h in deal["hands"] for c in h]
    assert len(set(dealt)) == len(dealt) == players * top
    assert deal["upcard"] not in dealt and deal["upcard"] in DECK52
    assert g.legal_actions() == [f"bid {k}" for k in range(top + 1)]
    for bad in (0, top + 1):
        with pytest.raises(torampu.RulesError, match="cards"):
            torampu.new_game("hell", players=players, cards=bad, seed=0)
    # the longest deal played to the end: every card once, ``top`` tricks
    res = finish(g)
    tricks = g.view(None)["tricks"]
    assert len(tricks) == top and sum(res["tricks"]) == top
    played = [e["card"] for t in tricks for e in t["cards"]]
    assert sorted(played) == sorted(dealt)


@pytest.mark.parametrize("players", range(2, 8))
def test_the_series_goes_up_to_max_and_back_down(players: int) -> None:
    """002: "各1枚ずつ配る。次のゲームでは親は右隣の人に移動し、各2枚ずつ配る。" …
    "配る枚数を1枚ずつ減らしていき、最終ゲームは各1枚ずつ配り". The peak once; the dealer moves
    to the next seat each deal (rules.md ruling)."""
    top = MAX_CARDS[players]
    series = [*range(1, top + 1), *range(top - 1, 0, -1)]
    dealer = players - 1
    m = torampu.new_match("hell", players=players, seed=players, dealer=dealer)
    assert m.games_total == len(series) == 2 * top - 1
    assert m.standings()["series"] == series
    while not m.is_over:
        m.play(m.legal_actions()[-1])
    recs = m.to_record()["records"]
    assert [r["cards"] for r in recs] == series
    assert series.count(top) == 1
    assert [r["dealer"] for r in recs] == [(dealer + i) % players for i in range(len(series))]
    sheet = m.standings()["sheet"]
    assert [row["cards"] for row in sheet] == series
    assert [row["dealer"] for row in sheet] == [r["dealer"] for r in recs]


def test_match_length() -> None:
    m = torampu.new_match("hell", players=5, seed=0, games=3)
    assert m.games_total == 3 and m.standings()["series"] == [1, 2, 3]
    for bad in (0, 20):
        with pytest.raises(ValueError):
            torampu.new_match("hell", players=5, seed=0, games=bad)


# ------------------------------------------------------------------------------------ deal
def test_the_upcard_sets_trump() -> None:
    """002: "余った札は伏せて場に山札として置き、一番上のカードだけ表向きにする。このカードの
    スートが切り札となる(ナポレオンとは異なり切り札のスートは神様が決める)。" """
    g = new(TRICK_HANDS, "7H", dealer=1)
    v = g.view(None)
    assert v["upcard"] == "7H" and v["trump"] == "H"
    bid_all(g, {2: 1, 3: 0, 0: 0, 1: 0})
    assert g.to_play == 1
    g.play("play KS")  # the lead does not change trump
    assert g.view(None)["trump"] == "H"
    t = play_trick(g, "2H", "3S", "AS")
    assert won(t) == ("2H", "trump") and t["winner"] == 2
    # the same deal with a club upcard: hearts are plain and the ace of the led suit wins
    g = new(TRICK_HANDS, "7C", dealer=1)
    assert g.view(None)["trump"] == "C"
    bid_all(g, {2: 1, 3: 0, 0: 0, 1: 0})
    t = play_trick(g, "KS", "2H", "3S", "AS")
    assert won(t) == ("AS", "led") and t["winner"] == 0
    assert g.result()["upcard"] == "7C"


def test_seeded_deals_turn_up_a_card_not_dealt() -> None:
    for seed in range(20):
        g = torampu.new_game("hell", players=4, cards=5, seed=seed)
        deal = g.to_record()["deal"]
        assert deal["upcard"] not in {c for h in deal["hands"] for c in h}
        assert g.view(2)["trump"] == deal["upcard"][1] and g.view(2)["upcard"] == deal["upcard"]


def test_bad_fixed_deals_refused() -> None:
    hands = [h.split() for h in TRICK_HANDS]
    for deal in (
        {"hands": hands, "upcard": "AS"},  # the upcard is in a hand
        {"hands": hands},  # no upcard
        {"hands": hands, "upcard": "JK"},
        {"hands": hands[:3], "upcard": "7H"},
        {"hands": [hands[0][:2], *hands[1:]], "upcard": "7H"},
        {"hands": [hands[1], *hands[1:]], "upcard": "7H"},
    ):
        with pytest.raises(torampu.DealError):
            torampu.new_game("hell", players=4, cards=3, deal=deal, seed=0)


# ------------------------------------------------------------------------------------ bidding
@pytest.mark.parametrize("dealer", range(4))
def test_bids_start_after_the_dealer_and_end_with_the_dealer(dealer: int) -> None:
    """002: "宣言の順番は親の右隣の人から反時計回りに行い、親が最後に宣言する。"
    (rules.md ruling: the seat after the dealer in the direction of play.)"""
    g = torampu.new_game("hell", players=4, cards=3, seed=dealer, dealer=dealer)
    order: list[int] = []
    while g.phase == "bid":
        s = g.to_play
        assert s is not None
        v = g.view(None)
        assert [t for t, b in enumerate(v["bids"]) if b is not None] == sorted(order)
        order.append(s)
        g.play("bid 3")  # the others' total is over the cards: the dealer is free
    assert order == bidding_order(dealer, 4)
    assert g.view(None)["bids"] == [3, 3, 3, 3]
    assert g.phase == "play"


@pytest.mark.parametrize(
    ("cards", "others", "forbidden"),
    [
        (3, [1, 0, 1], 1),
        (3, [1, 1, 1], 0),  # the forbidden number is 0: the dealer must bid at least 1
        (3, [0, 0, 0], 3),  # everybody else bid 0: the dealer may not bid all the cards
        (3, [2, 2, 0], None),  # the others already bid more than the cards: nothing forbidden
        (3, [3, 0, 0], 0),
        (1, [0, 0, 0], 1),
        (1, [1, 0, 0], 0),
        (1, [1, 1, 0], None),
    ],
)
@pytest.mark.parametrize("hook", [True, False])
def test_hook_forbids_the_dealer_the_bid_that_adds_up(
    cards: int, others: list[int], forbidden: int | None, hook: bool
) -> None:
    """002: "但し親は、全員が宣言したとおりに勝利する可能性のある数は宣言できない。つまり5枚ずつ
    カードが配られている場合は…親以外のプレイヤーが宣言した数の合計が3なら、親は2と宣言
    することができないことになる。" Option ``hook: false`` lifts it."""
    dealer = 2
    g = torampu.new_game("hell", rules={"hook": hook}, players=4, cards=cards, seed=1, dealer=2)
    for k in others:
        # the others are never restricted
        assert g.legal_actions() == [f"bid {b}" for b in range(cards + 1)]
        assert g.view(None)["forbidden_bid"] is None
        g.play(f"bid {k}")
    assert g.to_play == dealer
    expected_forbidden = forbidden if hook else None
    assert g.view(dealer)["forbidden_bid"] == expected_forbidden
    assert g.view(None)["forbidden_bid"] == expected_forbidden
    allowed = [b for b in range(cards + 1) if b != expected_forbidden]
    assert g.legal_actions() == [f"bid {b}" for b in allowed]
    if expected_forbidden is not None:
        before = snapshot(g)
        with pytest.raises(torampu.IllegalAction, match="hook"):
            g.play(f"bid {expected_forbidden}")
        assert snapshot(g) == before
    g.play(f"bid {allowed[-1]}")
    bids = g.view(None)["bids"]
    assert bids[dealer] == allowed[-1]
    if hook:
        assert sum(bids) != cards, "with the hook the bids never add up to the cards"


def test_without_hook_the_bids_may_add_up() -> None:
    g = torampu.new_game("hell", rules={"hook": False}, players=3, cards=2, seed=4, dealer=0)
    g.play("bid 1")
    g.play("bid 0")
    g.play("bid 1")
    assert sum(g.view(None)["bids"]) == 2 and g.phase == "play"


def test_bids_above_the_cards_refused() -> None:
    g = torampu.new_game("hell", players=4, cards=3, seed=0)
    before = snapshot(g)
    with pytest.raises(torampu.IllegalAction, match="only 3 tricks"):
        g.play("bid 4")
    for junk in ("bid -1", "bid x", "bid", "bid 1 2", "bid 99"):
        with pytest.raises(torampu.IllegalAction):
            g.play(junk)
    assert snapshot(g) == before


# ------------------------------------------------------------------------------------ play
def test_dealer_leads_following_and_the_winner_leads() -> None:
    """002: "まず、親が手札から場に1枚出す。…他のプレイヤーは、台札と同じスートのカードがある
    場合は必ずそのカードを出さなければいけない。台札と同じスートのカードがない場合は何を出しても
    良い。" / "勝者には次の台札を出す権利が与えられる。" / "強い順に、切り札のA、切り札のK・・・、
    切り札の2、台札のA、台札のK・・・、台札の2" """
    g = new(TRICK_HANDS, "7H", dealer=1)
    bid_all(g, {2: 2, 3: 0, 0: 0, 1: 0})
    assert g.phase == "play" and g.to_play == 1, "the dealer leads the first trick"
    assert sorted(plays(g)) == sorted(hand(g, 1)), "the leader may play any card"
    g.play("play KS")
    assert sorted(plays(g)) == sorted(hand(g, 2)), "void: anything goes"
    g.play("play 2H")
    assert sorted(plays(g)) == ["3S", "JS"], "any card of the led suit"
    g.play("play 3S")
    assert plays(g) == ["AS"]
    before = snapshot(g)
    with pytest.raises(torampu.IllegalAction, match="must follow suit S: play one of AS"):
        g.play("play 2C")
    assert snapshot(g) == before
    g.play("play AS")
    t = g.view(None)["tricks"][0]
    assert won(t) == ("2H", "trump"), "the trump two beats the led ace"
    assert g.to_play == 2, "the winner leads"
    t = play_trick(g, "AC", "AD", "2C", "QS")
    assert won(t) == ("AC", "led") and t["winner"] == 2, "off-suit aces do not win"
    t = play_trick(g, "5D", "JS", "3D", "4D")
    assert won(t) == ("5D", "led"), (
        "the highest of the led suit; a higher plain card off-suit loses"
    )
    res = g.result()
    assert res["tricks"] == [0, 0, 3, 0]
    assert res["bids"] == [0, 0, 2, 0]
    assert res["scores"] == [10, 10, -3, 10]
    assert res["winners"] == [0, 1, 3]
    roundtrip(g)


# ------------------------------------------------------------------------------------ scoring
# dealer 0 leads: seat 0 holds the top trumps and takes every trick whatever is played
SWEEP = ["AS KS QS JS TS", "2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D"]


@pytest.mark.parametrize(
    ("bids", "scores"),
    [
        ({1: 0, 2: 0, 0: 5}, [25, 10, 10]),
        ({1: 0, 2: 1, 0: 5}, [25, 10, -3]),
        ({1: 2, 2: 0, 0: 0}, [-15, -6, 10]),  # under by five
        ({1: 3, 2: 0, 0: 4}, [-3, -9, 10]),
    ],
)
def test_default_scoring(bids: dict[int, int], scores: list[int]) -> None:
    """002: "予想が当たった場合の得点= 10 + ( 予想した勝利回数 x 3 )" /
    "予想がはずれた場合の得点= -3 x ( 予想した勝利回数と実際に勝利した回数の差 )" /
    "「予想がはずれた」とは、予想した回数勝利できなかった時だけでなく、予想した回数を超えて
    勝利してしまった時も含まれる。" """
    g = new(SWEEP, "7S", rules={"hook": False})
    bid_all(g, bids)
    res = finish(g)
    assert res["tricks"] == [5, 0, 0]
    assert res["scores"] == scores
    assert res["scores"] == [score(bids[s], res["tricks"][s]) for s in range(3)]
    assert res["winners"] == [s for s in range(3) if bids[s] == res["tricks"][s]]


@pytest.mark.parametrize(
    ("base", "per", "miss"),
    [(10, 3, -3), (5, 2, -4), (0, 1, -1), (20, 0, -10), (-5, 5, 2), (100, -100, -100)],
)
def test_scoring_options(base: int, per: int, miss: int) -> None:
    """rules.md: ``exact_base``, ``exact_per_trick``, ``miss_per_trick`` (002's 10, 3, -3)."""
    rules = {"exact_base": base, "exact_per_trick": per, "miss_per_trick": miss}
    g = new(SWEEP, "7S", rules=rules)
    bid_all(g, {1: 1, 2: 0, 0: 5})  # seat 1 one over, seat 2 exact at 0, the dealer exact at 5
    res = finish(g)
    assert res["scores"] == [base + per * 5, miss * 1, base]
    g = new(SWEEP, "7S", rules=rules)
    bid_all(g, {1: 0, 2: 3, 0: 3})  # the dealer two under, seat 2 three over
    res = finish(g)
    assert res["scores"] == [miss * 2, base, miss * 3]
    assert g.to_record()["rules"] == {"players": 3, "hook": True, **rules}


def test_scoring_option_values_checked() -> None:
    for bad in ({"exact_base": 101}, {"miss_per_trick": "x"}, {"hook": 1}):
        with pytest.raises(torampu.RulesError, match=next(iter(bad))):
            torampu.new_game("hell", rules=bad, seed=0)


# ------------------------------------------------------------------------------------ sheet
@pytest.mark.parametrize(
    "rules", [{}, {"exact_base": 7, "exact_per_trick": 2, "miss_per_trick": -5, "hook": False}]
)
def test_score_sheet(rules: dict[str, Any]) -> None:
    """002: "各プレイヤーの欄には、左列に予想した勝利回数、斜線左側にそのゲームでの得点、
    斜線右側に累計得点を記入する" — per deal: cards, dealer, upcard/trump, bids, tricks, scores,
    running totals."""
    r = {"exact_base": 10, "exact_per_trick": 3, "miss_per_trick": -3, **rules}
    m = torampu.new_match("hell", rules=rules, players=4, seed=9, dealer=2)
    step = 0
    while not m.is_over:
        legal = m.legal_actions()
        m.play(legal[step % len(legal)])
        step += 1
    st = m.standings()
    sheet = st["sheet"]
    recs = m.to_record()["records"]
    assert len(sheet) == len(recs) == 23
    totals = [0] * 4
    for i, (row, rec) in enumerate(zip(sheet, recs, strict=True)):
        res = rec["result"]
        assert row["cards"] == rec["cards"] == min(i + 1, 23 - i)
        assert row["dealer"] == rec["dealer"] == (2 + i) % 4
        assert row["upcard"] == rec["deal"]["upcard"] and row["trump"] == row["upcard"][1]
        assert row["bids"] == res["bids"]
        bids = [0] * 4
        for a in rec["actions"]:
            if a["action"].startswith("bid"):
                bids[a["seat"]] = int(a["action"].split()[1])
        assert row["bids"] == bids
        tricks = [0] * 4
        g = torampu.replay(rec)
        for t in g.view(None)["tricks"]:
            tricks[t["winner"]] += 1
        assert row["tricks"] == tricks and sum(tricks) == row["cards"]
        expect = [
            score(b, w, r["exact_base"], r["exact_per_trick"], r["miss_per_trick"])
            for b, w in zip(bids, tricks, strict=True)
        ]
        assert row["scores"] == expect
        totals = [a + b for a, b in zip(totals, expect, strict=True)]
        assert row["totals"] == totals
    assert st["totals"] == totals == [sum(col) for col in zip(*st["per_game"], strict=True)]
    assert st["leaders"] == [s for s in range(4) if totals[s] == max(totals)]
    assert m.result()["winners"] == st["leaders"]
    json.dumps(st)
    back = json.loads(json.dumps(m.to_record()))
    assert torampu.replay_match(back).to_record() == back


def test_sheet_mid_series() -> None:
    m = torampu.new_match("hell", players=3, seed=2)
    assert m.standings()["sheet"] == []
    for _ in range(3):
        g = m.game
        while not g.is_over:
            m.play(m.legal_actions()[0])
    sheet = m.standings()["sheet"]
    assert [row["cards"] for row in sheet] == [1, 2, 3]
    assert sheet[-1]["totals"] == [sum(row["scores"][s] for row in sheet) for s in range(3)]
    assert m.game.view(None)["cards"] == 4 and m.game.view(None)["dealer"] == 0
    rec = json.loads(json.dumps(m.to_record()))
    assert torampu.replay_match(rec).standings() == m.standings()


# ------------------------------------------------------------------------------------ views
def test_views_hide_other_hands_and_the_stock() -> None:
    """api.md: a view holds what that seat may know: its hand, the upcard, the bids made and the
    cards played; never another hand nor the stock under the upcard."""
    g = torampu.new_game("hell", players=4, cards=6, seed=12, dealer=3)
    deal = g.to_record()["deal"]
    dealt = {c for h in deal["hands"] for c in h}
    stock = set(DECK52) - dealt - {deal["upcard"]}
    assert len(stock) == 52 - 24 - 1
    while True:
        for seat in [None, *range(4)]:
            v = g.view(seat)
            words = set(json.dumps(v).replace('"', " ").replace(",", " ").split())
            others = {c for s in range(4) if s != seat for c in hand(g, s)}
            assert not words & others, f"view({seat}) shows another hand"
            assert not words & stock, f"view({seat}) shows the stock"
            assert v["upcard"] == deal["upcard"]
            if seat is None:
                assert v["hand"] is None and v["legal_actions"] == []
            else:
                assert v["hand"] == hand(g, seat)
                assert v["legal_actions"] == (g.legal_actions() if seat == g.to_play else [])
        if g.is_over:
            break
        g.play(g.legal_actions()[0])
    assert g.view(None)["result"] == g.result()
    with pytest.raises(ValueError):
        g.view(4)


# ------------------------------------------------------------------------------------ illegal
def test_illegal_actions_have_clear_messages_and_change_nothing() -> None:
    g = new(TRICK_HANDS, "7H", dealer=1)
    for action, why in [
        ("play KS", "it is the bidding"),
        ("bid 4", "only 3 tricks"),
        ("pass", "not a Hell action"),
        ("", "not a Hell action"),
        ("play JK", "without a joker"),
    ]:
        before = snapshot(g)
        with pytest.raises(torampu.IllegalAction, match=why):
            g.play(action)
        assert snapshot(g) == before, action
    with pytest.raises(torampu.IllegalAction, match="string"):
        g.play(None)  # type: ignore[arg-type]
    bid_all(g, {2: 1, 3: 1, 0: 0, 1: 0})
    for action, why in [
        ("bid 1", "it is the play"),
        ("play AS", "not in your hand"),
        ("play ZZ", "ZZ"),
    ]:
        before = snapshot(g)
        with pytest.raises(torampu.IllegalAction, match=why):
            g.play(action)
        assert snapshot(g) == before, action
    finish(g)
    before = snapshot(g)
    with pytest.raises(torampu.IllegalAction, match="over"):
        g.play("bid 0")
    assert snapshot(g) == before and g.legal_actions() == [] and g.to_play is None


# ------------------------------------------------------------------------------------ records
def test_records_replay() -> None:
    g = new(TRICK_HANDS, "7H", dealer=1)
    bid_all(g, {2: 1, 3: 1, 0: 0, 1: 0})
    g.play("play KS")
    roundtrip(g)
    finish(g)
    roundtrip(g)
    rec = g.to_record()
    assert rec["cards"] == 3 and rec["dealer"] == 1 and rec["deal"]["upcard"] == "7H"
    assert rec["result"] == g.result()
    bad = json.loads(json.dumps(rec))
    bad["actions"][3]["action"] = "bid 1"  # the dealer's forbidden bid
    with pytest.raises(torampu.IllegalAction, match="step 3"):
        torampu.replay(bad)
