"""Every option value of rules.md §2 (Nap, source 003) on fixed deals, through the public API.

Each test fails if its rule breaks; the docstring quotes the line of 003 it checks. Deals are
built by :func:`fill` (the cards a test cares about are placed, the rest filled in low cards
first, keeping chosen suits out of chosen seats) or by :func:`k_trick_deal`, a deal on which the
declarer takes exactly ``k`` tricks however the cards are played: the declarer holds ``k`` top
spades and ``5 - k`` bottom spades, a rival holds five middle spades and everybody else is void
in spades, so each trick holds one declarer spade and one rival spade and nothing else can win.

Rulings followed (rules.md §2 and the ``nap`` module docstring):

* ``deck: short`` — 003 lists 4 players both with 28 and with 32 cards; rules.md rules 28 for
  4 players and 32 for 5 (other player counts: ``RulesError`` naming ``deck``);
* Two / Three / Four need *at least* that many tricks (003 says only "ビッド通り"); the nap module
  rules so, as in standard Nap;
* the auction stops as soon as nobody can bid higher (after Wellington without Blücher, or after
  Blücher) — the nap module's ruling; it goes once round otherwise;
* ``light_shuffle`` gathers the cards trick by trick in the order played, then the cards left in
  hands seat by seat (in card order), then the undealt stock; cuts once; deals 3 then 2 from the
  dealer's left (the nap module's ruling on 003's "カードを集めてカット");
* ``wellington_leads_lowest``: "lowest" is by rank, 2 lowest (the nap module's ruling).
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
"""In card-index order: 2S..AS, 2H..AH, 2D..AD, 2C..AC."""
BIDS = ["two", "three", "misere", "four", "nap", "wellington", "blucher"]
STAKES = {"two": (2, -2), "three": (3, -3), "misere": (3, -3), "four": (4, -4), "nap": (10, -6)}
NEED = {"two": 2, "three": 3, "misere": 0, "four": 4, "nap": 5, "wellington": 5, "blucher": 5}
SHORT = {3: "9", 4: "8", 5: "7"}
"""``deck: short``: the lowest rank kept per player count (003's local rule 1, rules.md ruling)."""


# ------------------------------------------------------------------------------------ helpers
def _fill_key(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


def fill(
    placed: Mapping[int, str],
    players: int = 4,
    *,
    void: Mapping[int, str] | None = None,
    deck: Sequence[str] = DECK52,
) -> dict[str, Any]:
    """A fixed deal of 5 cards each: ``placed[seat]`` (space-separated cards), the rest of each
    hand filled with the lowest free cards (rank first) whose suit is not in ``void[seat]``."""
    void = void or {}
    hands = {s: placed.get(s, "").split() for s in range(players)}
    used = [c for h in hands.values() for c in h]
    assert len(set(used)) == len(used), f"a card is placed twice: {used}"
    assert set(used) <= set(deck)
    rest = sorted((c for c in deck if c not in used), key=_fill_key)
    for seat in sorted(range(players), key=lambda s: -len(void.get(s, ""))):
        for c in list(rest):
            if len(hands[seat]) == 5:
                break
            if c[1] not in void.get(seat, ""):
                hands[seat].append(c)
                rest.remove(c)
        assert len(hands[seat]) == 5, f"seat {seat}: cannot fill 5 cards"
    return {"hands": [hands[s] for s in range(players)]}


def k_trick_deal(players: int, declarer: int, k: int) -> dict[str, Any]:
    """A deal on which ``declarer`` takes exactly ``k`` tricks whatever is played (module doc).

    The rival is the next seat; the three spades left over stay in the stock."""
    top = ["AS", "KS", "QS", "JS", "TS"][:k]
    low = ["2S", "3S", "4S", "5S", "6S"][: 5 - k]
    middle = [r + "S" for r in RANKS if r + "S" not in top + low][:5]
    rival = (declarer + 1) % players
    void = {s: "S" for s in range(players) if s not in (declarer, rival)}
    return fill({declarer: " ".join(top + low), rival: " ".join(middle)}, players, void=void)


def new(
    deal: Mapping[str, Any],
    *,
    rules: Mapping[str, Any] | None = None,
    players: int | None = None,
    dealer: int = 0,
    seed: int = 0,
) -> torampu.Game:
    n = players if players is not None else len(deal["hands"])
    return torampu.new_game(
        "nap", rules=dict(rules or {}), players=n, deal=deal, seed=seed, dealer=dealer
    )


def bidding_order(dealer: int, n: int) -> list[int]:
    return [(dealer + 1 + i) % n for i in range(n)]


def auction(g: torampu.Game, bids: Mapping[int, str]) -> None:
    """Once round: each seat bids ``bids[seat]`` or passes (``bids`` must hold one bid)."""
    assert bids
    while g.phase == "bid":
        s = g.to_play
        assert s is not None
        g.play(f"bid {bids[s]}" if s in bids else "pass")


def contract_bids(contract: str, declarer: int, n: int) -> dict[int, str]:
    """Bids that make ``declarer`` (also the dealer, so bidding last) the declarer of
    ``contract``: Wellington over a Nap, Blücher over a Nap and a Wellington."""
    before = {"wellington": ["nap"], "blucher": ["nap", "wellington"]}.get(contract, [])
    bids = dict(zip(bidding_order(declarer, n), before, strict=False))
    bids[declarer] = contract
    return bids


def start_contract(
    contract: str,
    k: int,
    *,
    players: int = 4,
    declarer: int = 2,
    rules: Mapping[str, Any] | None = None,
) -> torampu.Game:
    """``declarer`` (who also deals) holds a contract on the k-trick deal; play about to start."""
    r = {"early_end": False, **(rules or {})}
    g = new(k_trick_deal(players, declarer, k), rules=r, dealer=declarer)
    auction(g, contract_bids(contract, declarer, players))
    assert g.phase == "play" and g.to_play == declarer
    assert g.view(None)["contract"] == contract
    return g


def finish(g: torampu.Game) -> dict[str, Any]:
    """Play the first legal action until the game is over; its result."""
    while not g.is_over:
        g.play(g.legal_actions()[0])
    res: dict[str, Any] = g.result()
    return res


def paid(n: int, declarer: int, per: int) -> list[int]:
    """003's payments: each other player pays the declarer ``per`` (negative: is paid)."""
    return [per * (n - 1) if s == declarer else -per for s in range(n)]


def snapshot(g: torampu.Game) -> str:
    return json.dumps([g.to_record(), [g.view(s) for s in [None, *range(g.players)]]])


def roundtrip(g: torampu.Game) -> None:
    """The record survives JSON and replays to the same record and views."""
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
    """Play one card per seat in turn; the closed trick as the spectator sees it."""
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


def in_index_order(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=DECK52.index)


def deal_3_2(cards: Sequence[str], dealer: int, n: int) -> tuple[list[set[str]], list[str]]:
    """003's light deal: 3 cards each from the dealer's left, then 2 each; the rest is stock."""
    hands: list[set[str]] = [set() for _ in range(n)]
    pos = 0
    for size in (3, 2):
        for seat in bidding_order(dealer, n):
            hands[seat] |= set(cards[pos : pos + size])
            pos += size
    return hands, list(cards[pos:])


def matching_cuts(order: Sequence[str], record: Mapping[str, Any]) -> list[int]:
    """The cut points k (1..len-1) at which ``order`` cut once and dealt 3+2 from the record's
    dealer gives the record's hands and stock."""
    n = record["players"]
    hands = [set(h) for h in record["deal"]["hands"]]
    stock = record["deal"]["stock"]
    out = []
    for k in range(1, len(order)):
        cut = [*order[k:], *order[:k]]
        if deal_3_2(cut, record["dealer"], n) == (hands, stock):
            out.append(k)
    return out


def gathered(record: Mapping[str, Any], game: torampu.Game) -> list[str]:
    """The cards of a finished single-deal game in light-shuffle order (module doc ruling)."""
    tricks = [e["card"] for t in game.view(None)["tricks"] for e in t["cards"]]
    left = [c for s in range(game.players) for c in in_index_order(hand(game, s))]
    return [*tricks, *left, *record["deal"]["stock"]]


# ------------------------------------------------------------------------------------ options
def test_option_table_defaults() -> None:
    """rules.md §2's table: names, defaults and the listed values."""
    table = {o["name"]: o for o in torampu.rules("nap")}
    assert {k: o["default"] for k, o in table.items()} == {
        "players": 4,
        "deck": "full",
        "blucher": False,
        "blucher_points": [40, -40],
        "wellington_points": [20, -12],
        "wellington_leads_lowest": False,
        "light_shuffle": False,
        "early_end": True,
    }
    assert sorted(table["players"]["values"]) == list(range(2, 9))
    assert table["wellington_points"]["values"] == [[20, -12], [20, -20], [10, -20]]
    assert table["deck"]["values"] == ["full", "short"]


# ------------------------------------------------------------------------------------ deal
@pytest.mark.parametrize("players", range(2, 9))
def test_players_two_to_eight_deal_five_each(players: int) -> None:
    """003: "2~8人", "ジョーカー以外の52枚", "各プレイヤーに カードを5枚配ります。" """
    g = torampu.new_game("nap", players=players, seed=players)
    assert g.view(None)["hand_sizes"] == [5] * players
    deal = g.to_record()["deal"]
    dealt = [c for h in deal["hands"] for c in h]
    assert all(len(h) == 5 for h in deal["hands"])
    assert sorted(dealt + deal["stock"]) == sorted(DECK52)
    assert len(deal["stock"]) == 52 - 5 * players
    # played out on a fixed deal: five tricks, every seat pays or is paid
    g = start_contract("two", 3, players=players, declarer=players - 1)
    res = finish(g)
    assert len(g.view(None)["tricks"]) == 5
    assert res["declarer_tricks"] == 3 and res["made"]
    assert res["scores"] == paid(players, players - 1, 2)
    assert sum(res["scores"]) == 0


@pytest.mark.parametrize("players", [1, 9, 0])
def test_player_counts_outside_two_to_eight_refused(players: int) -> None:
    with pytest.raises(torampu.RulesError, match="players"):
        torampu.new_game("nap", players=players, seed=0)


@pytest.mark.parametrize(("players", "cards"), [(3, 24), (4, 28), (5, 32)])
def test_short_deck(players: int, cards: int) -> None:
    """003 local rule 1: "3人で遊ぶ場合、各スートのA、K、Q、J、10、9の24枚だけで遊ぶ" /
    "4人だと、…8の28枚で。(5人で遊ぶ場合も)" / "5人だと、…7の32枚。"
    Ruling (rules.md): 4 players 28 cards, 5 players 32."""
    low = SHORT[players]
    short = [c for c in DECK52 if RANKS.index(c[0]) >= RANKS.index(low)]
    assert len(short) == cards
    g = torampu.new_game("nap", rules={"deck": "short"}, players=players, seed=7)
    deal = g.to_record()["deal"]
    assert sorted([c for h in deal["hands"] for c in h] + deal["stock"]) == sorted(short)
    assert len(deal["stock"]) == cards - 5 * players
    # the full deck with the same players still uses 52 cards
    full = torampu.new_game("nap", players=players, seed=7).to_record()["deal"]
    assert len([c for h in full["hands"] for c in h] + full["stock"]) == 52
    # a fixed deal holding a card below the short deck is refused
    bad = fill({0: f"2S {low}S"}, players)
    with pytest.raises(torampu.DealError, match="not in this game's deck"):
        new(bad, rules={"deck": "short"})
    # a fixed short deal plays out with short-deck cards only
    ok = fill({1: "AS KS QS JS TS"}, players, deck=short)
    g = new(ok, rules={"deck": "short", "early_end": False})
    auction(g, {1: "nap"})
    res = finish(g)
    assert res["made"] and res["scores"] == paid(players, 1, 10)
    played = {e["card"] for t in g.view(None)["tricks"] for e in t["cards"]}
    assert played <= set(short) and len(played) == 5 * players


@pytest.mark.parametrize("players", [2, 6, 7, 8])
def test_short_deck_refused_for_other_player_counts(players: int) -> None:
    """rules.md: ``short`` is defined for 3, 4 and 5 players only."""
    with pytest.raises(torampu.RulesError, match="deck"):
        torampu.new_game("nap", rules={"deck": "short"}, players=players, seed=0)


def test_bad_fixed_deals_refused() -> None:
    deal = fill({}, 4)
    for bad in (
        {"hands": deal["hands"][:3]},
        {"hands": [deal["hands"][0][:4], *deal["hands"][1:]]},
        {"hands": [deal["hands"][1], *deal["hands"][1:]]},
        {"hands": [["ZZ", *deal["hands"][0][1:]], *deal["hands"][1:]]},
        {"hands": [["JK", *deal["hands"][0][1:]], *deal["hands"][1:]]},
    ):
        with pytest.raises(torampu.DealError):
            new(bad, players=4)


# ------------------------------------------------------------------------------------ bidding
@pytest.mark.parametrize("dealer", range(4))
def test_bids_start_left_of_dealer_and_go_once_round(dealer: int) -> None:
    """003: "ディーラーの 左隣のプレイヤーから 時計回りに 何勝するかを宣言します。
    (これをビッドと言います) パスしてもOK。" """
    g = new(fill({}, 4), dealer=dealer)
    seen = []
    first = True
    while g.phase == "bid":
        s = g.to_play
        assert s is not None
        seen.append(s)
        g.play("bid two" if first else "pass")
        first = False
    assert seen == bidding_order(dealer, 4)
    v = g.view(None)
    assert v["declarer"] == (dealer + 1) % 4 and v["contract"] == "two"
    assert [a["seat"] for a in v["auction"]] == seen


def test_bid_ladder_and_each_bid_beats_the_last() -> None:
    """003: "次の人が宣言する際は 今宣言されているものより 高い得点でなければ いけません。"
    Order Two < Three < Misère < Four < Nap < Wellington < Blücher (rules.md §2)."""
    g = new(fill({}, 8), rules={"blucher": True}, players=8)
    assert g.legal_actions() == ["pass"] + [f"bid {b}" for b in BIDS[:5]]
    for i, b in enumerate(BIDS):
        g.play(f"bid {b}")
        if g.phase != "bid":
            assert b == "blucher"  # nobody can bid higher: the auction is over
            break
        higher = [f"bid {x}" for x in BIDS[i + 1 :]]
        if b != "nap":
            higher = [a for a in higher if a != "bid wellington"]
        if b != "wellington":
            higher = [a for a in higher if a != "bid blucher"]
        assert g.legal_actions() == ["pass", *higher], f"after {b}"
        for low in BIDS[: i + 1]:
            before = snapshot(g)
            with pytest.raises(torampu.IllegalAction, match="beat"):
                g.play(f"bid {low}")
            assert snapshot(g) == before
    assert g.phase == "play" and g.view(None)["contract"] == "blucher"


def test_misere_ranks_between_three_and_four() -> None:
    """003: "ミゼールは スリーより上の扱いなので 3.5ぐらいのイメージで・・・ 例えばAさんが
    スリーを宣言したら 次のBさんは ミゼール以上の宣言のみ 可能になります。" """
    g = new(fill({}, 4))
    g.play("bid three")
    assert g.legal_actions() == ["pass", "bid misere", "bid four", "bid nap"]
    g.play("bid misere")
    with pytest.raises(torampu.IllegalAction, match="beat misere"):
        g.play("bid three")
    g.play("bid four")
    assert g.view(None)["high_bid"] == "four"


def test_wellington_only_after_someone_bid_nap() -> None:
    """003: "ウェリントンは ナップ! って言った人が いた場合にのみ 宣言可能です。" """
    g = new(fill({}, 4))
    assert "bid wellington" not in g.legal_actions()
    before = snapshot(g)
    with pytest.raises(torampu.IllegalAction, match="Wellington may only be bid over Nap"):
        g.play("bid wellington")
    assert snapshot(g) == before
    g.play("bid four")
    with pytest.raises(torampu.IllegalAction, match="over Nap"):
        g.play("bid wellington")
    g.play("bid nap")
    assert g.legal_actions() == ["pass", "bid wellington"]
    g.play("bid wellington")
    # without Blücher nobody can bid higher: the auction ends at once (module ruling)
    assert g.phase == "play" and g.to_play == 3
    assert g.view(None)["declarer"] == 3 and g.view(None)["contract"] == "wellington"


def test_blucher_off_refused_even_over_wellington() -> None:
    """rules.md: Blücher is an option (``blucher: false`` by default)."""
    g = new(fill({}, 4), dealer=3)
    g.play("bid nap")
    before = snapshot(g)
    with pytest.raises(torampu.IllegalAction, match="option blucher"):
        g.play("bid blucher")
    assert snapshot(g) == before
    g.play("bid wellington")
    assert g.phase == "play"


def test_blucher_on_only_over_wellington() -> None:
    """003 local rule 4: "ウェリントンの宣言時に 別のプレイヤーが ブリュッヒャーを
    宣言するような流れですね。" """
    g = new(fill({}, 5), rules={"blucher": True}, players=5)
    g.play("bid nap")
    assert "bid blucher" not in g.legal_actions()
    with pytest.raises(torampu.IllegalAction, match="Blücher may only be bid over Wellington"):
        g.play("bid blucher")
    g.play("bid wellington")
    assert g.phase == "bid" and g.legal_actions() == ["pass", "bid blucher"]
    g.play("pass")
    g.play("bid blucher")
    assert g.phase == "play" and g.to_play == 4
    assert g.view(None)["contract"] == "blucher" and g.view(None)["declarer"] == 4


def test_the_view_says_what_each_contract_is_worth() -> None:
    """003's table of points, per other player (made / failed), in every seat's view — the
    table's bid buttons show it (a twenty-third review: "ツー (2)… ミゼール" and nothing of
    the stakes) — Blücher only where it may be bid, with the rules' own points."""
    g = torampu.new_game("nap", players=4, seed=1)
    assert g.view(None)["stakes"] == {
        "two": [2, -2],
        "three": [3, -3],
        "misere": [3, -3],
        "four": [4, -4],
        "nap": [10, -6],
        "wellington": [20, -12],
    }
    rules = {"blucher": True, "blucher_points": [50, -30], "wellington_points": [25, -15]}
    stakes = torampu.new_game("nap", players=5, rules=rules, seed=1).view(2)["stakes"]
    assert stakes["blucher"] == [50, -30] and stakes["wellington"] == [25, -15]


def test_highest_bid_wins_after_later_passes() -> None:
    g = new(fill({}, 5), players=5, dealer=2)
    for a in ["pass", "bid three", "pass", "bid misere", "pass"]:
        g.play(a)
    v = g.view(None)
    assert g.phase == "play" and v["declarer"] == 1 and v["contract"] == "misere"
    assert g.to_play == 1


def test_all_pass_redeals_with_the_deal_moving_left() -> None:
    """003: "全員が ビッドしなければ ディーラーを 左隣の人に交代して STEP2から やり直しです。" """
    deal = fill({1: "AS KS QS JS TS"}, 4)
    g = new(deal, dealer=2, seed=11)
    for _ in range(4):
        g.play("pass")
    v = g.view(None)
    assert v["redeals"] == 1 and v["dealer"] == 3 and v["phase"] == "bid"
    assert g.to_play == 0  # the new dealer's left opens
    assert v["auction"] == []
    new_hands = [set(hand(g, s)) for s in range(4)]
    assert new_hands != [set(h) for h in deal["hands"]], "the cards were not dealt again"
    assert all(len(h) == 5 for h in new_hands)
    roundtrip(g)
    for _ in range(4):
        g.play("pass")
    assert g.view(None)["redeals"] == 2 and g.view(None)["dealer"] == 0 and g.to_play == 1
    g.play("bid two")
    for _ in range(3):
        g.play("pass")
    res = finish(g)
    assert res["dealer"] == 0 and res["redeals"] == 2 and res["declarer"] == 1
    roundtrip(g)


def test_all_pass_full_shuffle_without_light_shuffle() -> None:
    """rules.md: without ``light_shuffle`` a redeal is a new shuffle, not a cut of the cards."""
    g = new(fill({}, 4), seed=5)
    rec = g.to_record()
    for _ in range(4):
        g.play("pass")
    order = [*[c for h in rec["deal"]["hands"] for c in in_index_order(h)], *rec["deal"]["stock"]]
    hands = [set(hand(g, s)) for s in range(4)]
    assert not any(deal_3_2([*order[k:], *order[:k]], 1, 4)[0] == hands for k in range(1, 52)), (
        "the redeal is a cut of the gathered cards, not a shuffle"
    )


# ------------------------------------------------------------------------------------ play
# dealer 0, seat 2 declares; seat 3 is void in hearts, seat 2 in clubs and spades
TRUMP_DEAL = {
    "hands": [
        ["9H", "AC", "3S", "4S", "5S"],
        ["3H", "KC", "6S", "7S", "8S"],
        ["5H", "2H", "4D", "5D", "6D"],
        ["2D", "3D", "7D", "8D", "9D"],
    ]
}


def test_declarer_leads_and_the_first_card_sets_trump() -> None:
    """003: "まず最初にデクリアラーが カードを1枚、場に出します。" / "この出されたカードのスートが
    … 以後、「切り札」と 呼ばれるもの" / "なので切り札の2は 他のKよりも 強くなるわけです。" """
    g = new(TRUMP_DEAL)
    auction(g, {2: "two"})
    assert g.to_play == 2, "the declarer leads, not the dealer's left"
    assert g.view(None)["trump"] is None
    assert sorted(plays(g)) == sorted(hand(g, 2)), "the leader may play any card"
    g.play("play 5H")
    assert g.view(None)["trump"] == "H"
    assert sorted(plays(g)) == sorted(hand(g, 3)), "void in hearts: anything goes"
    t = play_trick(g, "2D", "9H", "3H")
    assert won(t) == ("9H", "trump") and t["winner"] == 0
    assert g.to_play == 0, "the winner leads the next trick"
    # the trump two beats the led suit's king (and ace)
    t = play_trick(g, "AC", "KC", "2H", "7D")
    assert won(t) == ("2H", "trump") and t["winner"] == 2
    assert g.view(None)["trump"] == "H", "trump stays the first lead's suit"
    res = finish(g)
    assert res["trump"] == "H"


def test_following_suit() -> None:
    """003 ルール1: "リードされたカードと 同じスートのカードを 出さなければいけない。 ただし
    複数持っている場合は どれを出しても良い。" ルール2: "同じスートのカードが 無い場合は
    何を出しても良い。" """
    g = new(TRUMP_DEAL)
    auction(g, {2: "two"})
    g.play("play 5H")
    g.play("play 2D")
    assert plays(g) == ["9H"]
    before = snapshot(g)
    with pytest.raises(torampu.IllegalAction, match="must follow suit H: play one of 9H"):
        g.play("play AC")
    assert snapshot(g) == before
    g.play("play 9H")
    g.play("play 3H")
    g.play("play 5S")  # seat 0 leads spades: seat 1 holds three, any of them
    assert sorted(plays(g)) == ["6S", "7S", "8S"]
    g.play("play 8S")
    assert sorted(plays(g), key=_fill_key) == ["2H", "4D", "5D", "6D"]  # void: anything


def test_misere_has_no_trump_and_the_declarer_must_lose_every_trick() -> None:
    """003: "ただし ミゼール(全敗)を 宣言していた場合は 切り札不在のまま 素の数字だけの
    試合になります。" """
    g = new(TRUMP_DEAL, rules={"early_end": False})
    auction(g, {2: "misere"})
    g.play("play 5H")
    assert g.view(None)["trump"] is None
    t = play_trick(g, "2D", "9H", "3H")
    assert won(t) == ("9H", "led")
    # "素の数字だけ": a higher card of another suit does not win
    t = play_trick(g, "3S", "6S", "6D", "9D")
    assert won(t) == ("6S", "led") and t["winner"] == 1
    # the hearts that would be trumps in any other contract do not win off-suit
    t = play_trick(g, "7S", "2H", "3D", "4S")
    assert won(t) == ("7S", "led") and t["winner"] == 1
    res = finish(g)
    assert res["trump"] is None and res["contract"] == "misere"
    assert res["declarer_tricks"] == 0 and res["made"]
    assert res["scores"] == paid(4, 2, 3)


@pytest.mark.parametrize("early_end", [True, False])
def test_misere_lost_on_the_first_trick_taken(early_end: bool) -> None:
    """003: "ミゼール(全敗)" — one trick taken and the Misère fails (with ``early_end`` at once)."""
    g = start_contract("misere", 2, rules={"early_end": early_end})
    played = 0
    while not g.is_over:
        g.play(g.legal_actions()[-1])  # the declarer leads its top spade: wins at once
        played += 1
    res = g.result()
    assert not res["made"] and res["scores"] == paid(4, 2, -3)
    tricks = g.view(None)["tricks"]
    if early_end:
        assert res["early_end"] and len(tricks) == 1 and tricks[0]["winner"] == 2
    else:
        assert len(tricks) == 5 and res["declarer_tricks"] == 2


# ------------------------------------------------------------------------------------ payments
CASES = [
    ("two", 2, True),
    ("two", 5, True),
    ("two", 1, False),
    ("three", 3, True),
    ("three", 2, False),
    ("misere", 0, True),
    ("misere", 1, False),
    ("four", 4, True),
    ("four", 3, False),
    ("nap", 5, True),
    ("nap", 4, False),
]


@pytest.mark.parametrize(("contract", "k", "made"), CASES)
def test_payments_per_contract(contract: str, k: int, made: bool) -> None:
    """003: "ツー(2勝):成功は2点、失敗は-2点" … "ナップ(全勝):成功は10点、失敗は-6点";
    "勝った場合は 他のプレイヤーから 成功分の得点を 負けた場合は 全プレイヤーに
    失敗分の得点を支払います。" Ruling: Two/Three/Four need at least that many tricks."""
    g = start_contract(contract, k)
    res = finish(g)
    win, loss = STAKES[contract]
    assert res["declarer_tricks"] == k
    assert res["made"] is made
    assert res["scores"] == paid(4, 2, win if made else loss)
    assert sum(res["scores"]) == 0
    assert res["winners"] == ([2] if made else [0, 1, 3])
    roundtrip(g)


@pytest.mark.parametrize("made", [True, False])
def test_three_for_four_players_is_nine(made: bool) -> None:
    """003: "4人で遊んでいた場合、 スリーが成功すると 3人に3点もらって9点 失敗だと
    3人に3点支払ってー9点 になりますね。" """
    res = finish(start_contract("three", 3 if made else 2, declarer=1))
    assert res["scores"] == ([-3, 9, -3, -3] if made else [3, -9, 3, 3])
    assert res["scores"][1] == (9 if made else -9)
    assert all(res["scores"][s] == (-3 if made else 3) for s in (0, 2, 3))


@pytest.mark.parametrize("points", [[20, -12], [20, -20], [10, -20], [15, -7]])
@pytest.mark.parametrize("made", [True, False])
def test_wellington_points(points: list[int], made: bool) -> None:
    """003: "ウェリントン(全勝):成功は20点、失敗は-12点"; local rule 4: "ウェリントン:20(-20)" /
    "ウェリントン:10(-20)"."""
    g = start_contract("wellington", 5 if made else 4, rules={"wellington_points": points})
    res = finish(g)
    assert res["contract"] == "wellington" and res["made"] is made
    assert res["scores"] == paid(4, 2, points[0] if made else points[1])
    assert sum(res["scores"]) == 0


@pytest.mark.parametrize("points", [None, [10, -20], [40, -40], [25, -30]])
@pytest.mark.parametrize("made", [True, False])
def test_blucher_points(points: list[int] | None, made: bool) -> None:
    """003 local rule 4: "ブリュッヒャー:40(-40)" (default) / "ブリュッヒャー:10(-20)"."""
    rules: dict[str, Any] = {"blucher": True}
    if points is not None:
        rules["blucher_points"] = points
    g = start_contract("blucher", 5 if made else 4, rules=rules)
    res = finish(g)
    win, loss = points or [40, -40]
    assert res["contract"] == "blucher" and res["made"] is made
    assert res["scores"] == paid(4, 2, win if made else loss)


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("made", [True, False])
def test_payments_scale_with_players(players: int, made: bool) -> None:
    """003: the declarer is paid by (or pays) every other player: ``(n - 1)`` times the stake."""
    declarer = players - 1
    g = start_contract("nap", 5 if made else 3, players=players, declarer=declarer)
    res = finish(g)
    per = 10 if made else -6
    assert res["scores"][declarer] == per * (players - 1)
    assert all(res["scores"][s] == -per for s in range(players) if s != declarer)
    assert sum(res["scores"]) == 0


# ------------------------------------------------------------------------------------ early end
def decided(contract: str, won_: int, lost: int) -> bool:
    if contract == "misere":
        return won_ > 0 or won_ + lost == 5
    need = NEED[contract]
    return won_ >= need or lost > 5 - need or won_ + lost == 5


@pytest.mark.parametrize(
    ("contract", "k"),
    [("two", 5), ("two", 0), ("three", 3), ("four", 1), ("nap", 4), ("misere", 3), ("misere", 0)],
)
@pytest.mark.parametrize("early_end", [True, False])
@pytest.mark.parametrize("low_first", [True, False])
def test_early_end(contract: str, k: int, early_end: bool, low_first: bool) -> None:
    """rules.md: ``early_end`` stops play when the contract is decided; off, all five tricks
    are played (003 STEP6: "カードが無くなった時点で終了。"). Scores are the same either way."""
    g = start_contract(contract, k, rules={"early_end": early_end})
    while not g.is_over:
        g.play(g.legal_actions()[0 if low_first else -1])
        tricks = g.view(None)["tricks"]
        if g.view(None)["trick"] or not tricks:
            continue
        w = sum(t["winner"] == 2 for t in tricks)
        is_decided = decided(contract, w, len(tricks) - w)
        assert g.is_over == (is_decided if early_end else len(tricks) == 5)
    res = g.result()
    tricks = g.view(None)["tricks"]
    assert res["early_end"] is (early_end and len(tricks) < 5)
    if not early_end:
        assert len(tricks) == 5 and res["declarer_tricks"] == k
    else:
        assert g.view(None)["hand_sizes"] == [5 - len(tricks)] * 4
    made = k == 0 if contract == "misere" else k >= NEED[contract]
    win, loss = STAKES[contract]
    assert res["made"] is made and res["scores"] == paid(4, 2, win if made else loss)


# ------------------------------------------------------------------------------------ options
@pytest.mark.parametrize("on", [True, False])
def test_wellington_leads_lowest(on: bool) -> None:
    """003 local rule 3: "ウェリントンのとき デクリアラーは 最も弱い手札から 出さないとダメ!"
    Ruling (nap module): lowest by rank; a tie of ranks leaves the choice."""
    deal = {
        "hands": [
            ["3H", "4H", "3C", "4C", "5C"],
            ["9H", "TH", "6C", "7C", "8C"],
            ["AS", "KS", "QS", "2D", "2H"],  # the declarer (and dealer)
            ["AD", "KD", "QD", "JD", "TD"],
        ]
    }
    g = new(deal, rules={"wellington_leads_lowest": on, "early_end": False}, dealer=2)
    auction(g, {3: "nap", 2: "wellington"})
    assert g.to_play == 2
    if on:
        assert sorted(plays(g)) == ["2D", "2H"]
        before = snapshot(g)
        with pytest.raises(torampu.IllegalAction, match="lowest card allowed"):
            g.play("play AS")
        assert snapshot(g) == before
    else:
        assert sorted(plays(g)) == sorted(deal["hands"][2])
    g.play("play 2H")  # trump: hearts
    assert sorted(plays(g)) == sorted(deal["hands"][3]), "only the declarer is restricted"
    g.play("play TD")
    g.play("play 3H")
    g.play("play TH")
    assert g.to_play == 1
    g.play("play 9H")  # seat 1 leads hearts; the declarer is now void in hearts
    assert g.to_play == 2
    if on:
        assert plays(g) == ["2D"]
    else:
        assert sorted(plays(g)) == ["2D", "AS", "KS", "QS"]
    # the restriction is the Wellington declarer's only: not under a Nap
    g = new(deal, rules={"wellington_leads_lowest": on, "early_end": False}, dealer=2)
    auction(g, {2: "nap"})
    assert sorted(plays(g)) == sorted(deal["hands"][2])


def test_wellington_leads_lowest_when_following() -> None:
    """003 local rule 3 while following suit: the lowest card of the led suit."""
    deal = {
        "hands": [
            ["9D", "3H", "3C", "4C", "5C"],
            ["9H", "TH", "6C", "7C", "8C"],
            ["AS", "KS", "2S", "3D", "KD"],  # the declarer (and dealer)
            ["AD", "QD", "JD", "TD", "4D"],
        ]
    }
    g = new(deal, rules={"wellington_leads_lowest": True, "early_end": False}, dealer=2)
    auction(g, {3: "nap", 2: "wellington"})
    assert plays(g) == ["2S"]
    t = play_trick(g, "2S", "4D", "9D", "9H")  # trump spades, 2S wins: nobody else has one
    assert won(t) == ("2S", "trump")
    assert plays(g) == ["3D"]
    play_trick(g, "3D", "AD", "3H", "TH")
    assert g.to_play == 3
    g.play("play QD")
    g.play("play 3C")
    g.play("play 6C")
    assert plays(g) == ["KD"], "following: the only diamond"


def test_light_shuffle_deals_three_then_two_from_a_cut() -> None:
    """003 local rule 2: "それ以外は、カードを集めてカット (1回だけ2つの山にして入れ替える)
    するだけ。 カードの配り方は まず3枚ずつ配って次に2枚ずつ。" """
    order = list(reversed(DECK52))
    cuts = set()
    for seed in range(6):
        for dealer in (0, 2):
            g = torampu.new_game(
                "nap",
                rules={"light_shuffle": True},
                players=4,
                seed=seed,
                dealer=dealer,
                deck_order=order,
            )
            rec = g.to_record()
            ks = matching_cuts(order, rec)
            assert len(ks) == 1, f"seed {seed}: the hands are not a cut of the order dealt 3+2"
            cuts.add(ks[0])
            assert rec["deck_order"] == order
            roundtrip(g)
    assert len(cuts) > 1, "the cut point does not depend on the seed"


def test_light_shuffle_all_pass_gathers_and_cuts() -> None:
    """003 local rule 2: only a cut between deals (here: after everybody passed).
    Ruling (nap module): hands gathered seat by seat, then the stock."""
    deal = fill({}, 4)
    for seed in (1, 2, 3):
        g = new(deal, rules={"light_shuffle": True}, seed=seed, dealer=1)
        rec = g.to_record()
        order = [
            *[c for h in rec["deal"]["hands"] for c in in_index_order(h)],
            *rec["deal"]["stock"],
        ]
        for _ in range(4):
            g.play("pass")
        n = 4
        hands = [set(hand(g, s)) for s in range(n)]
        ks = [k for k in range(1, 52) if deal_3_2([*order[k:], *order[:k]], 2, n)[0] == hands]
        assert len(ks) == 1, f"seed {seed}: the redeal is not a cut of the gathered cards"
        roundtrip(g)


# ---- light shuffle across the deals of a match
def _beats(card: str, best: str, led: str, trump: str | None) -> bool:
    if card[1] == best[1]:
        return RANKS.index(card[0]) > RANKS.index(best[0])
    return card[1] == trump


def _trick_winner(cards: Sequence[str], trump: str | None) -> int:
    best = 0
    for i, c in enumerate(cards):
        if _beats(c, cards[best], cards[0][1], trump):
            best = i
    return best


def nap_line(g: torampu.Game) -> list[str] | None:
    """Actions from the auction on by which some seat bids Nap and takes all five tricks, the
    others playing along (never beating the declarer when they can help it), or None."""

    def play(c: torampu.Game, declarer: int, line: list[str]) -> list[str] | None:
        if c.is_over:
            return line if c.result()["made"] else None
        for lead in plays(c):
            d = c.clone()
            steps = [f"play {lead}"]
            d.play(steps[0])
            trump = d.view(None)["trump"]
            trick = [lead]
            while d.view(None)["trick"]:
                options = plays(d)
                good = [x for x in options if _trick_winner([*trick, x], trump) == 0]
                pick = (good or options)[0]
                trick.append(pick)
                steps.append(f"play {pick}")
                d.play(steps[-1])
            if d.is_over or d.to_play == declarer:
                out = play(d, declarer, line + steps)
                if out is not None:
                    return out
        return None

    n = g.players
    for declarer in bidding_order(g.view(None)["dealer"], n):
        c = g.clone()
        line = []
        while c.phase == "bid":
            a = "bid nap" if c.to_play == declarer else "pass"
            line.append(a)
            c.play(a)
        out = play(c, declarer, line)
        if out is not None:
            return out
    return None


def test_light_shuffle_across_a_match() -> None:
    """003 local rule 2: "ゲームの最初か、ビッドのナップ (5勝する上がり手ですね) 以上のビッドが
    成功したときのみシャッフルします。 それ以外は、カードを集めてカット … するだけ。"
    Game 1 (shuffled at the start) ends in a made Nap: game 2 is shuffled again; game 2 ends in
    a failed Nap and game 3 in a Two: games 3 and 4 are the cards gathered, cut and dealt 3+2."""
    for seed in range(200):
        m = torampu.new_match(
            "nap", rules={"light_shuffle": True}, players=4, games=4, seed=seed, dealer=1
        )
        line = nap_line(m.game)
        if line is not None:
            break
    else:
        pytest.fail("no seed with a makeable Nap")
    first = m.game
    assert "deck_order" not in first.to_record(), "the first deal is shuffled"
    for a in line:
        m.play(a)
    assert m.games_played == 1
    r0 = m.to_record()["records"][0]
    assert r0["result"]["made"] and r0["result"]["contract"] == "nap"
    g1 = m.game
    rec1 = g1.to_record()
    assert rec1["dealer"] == 2
    assert "deck_order" not in rec1, "after a made Nap the cards are shuffled"
    assert not matching_cuts(gathered(r0, first), rec1), "a cut, not a shuffle, after a Nap"
    # game 2: a Nap that fails
    c = played_out(g1, "nap", made=False)
    for a in c.to_record()["actions"]:
        m.play(a["action"])
    r1 = m.to_record()["records"][1]
    assert r1["result"]["contract"] == "nap" and not r1["result"]["made"]
    g2 = m.game
    rec2 = g2.to_record()
    order = gathered(r1, c)
    assert rec2["deck_order"] == order, "the failed Nap's cards gathered in play order"
    assert len(matching_cuts(order, rec2)) == 1, "not the gathered cards cut and dealt 3+2"
    # game 3: a Two that is made (below Nap: the cards are only cut)
    g2c = played_out(g2, "two", made=True)
    for a in g2c.to_record()["actions"]:
        m.play(a["action"])
    r2 = m.to_record()["records"][2]
    assert r2["result"]["contract"] == "two" and r2["result"]["made"]
    rec3 = m.game.to_record()
    assert rec3["deck_order"] == gathered(r2, g2c)
    assert len(matching_cuts(rec3["deck_order"], rec3)) == 1
    finish_match(m)
    back = json.loads(json.dumps(m.to_record()))
    assert torampu.replay_match(back).to_record() == back


def played_out(g: torampu.Game, contract: str, *, made: bool) -> torampu.Game:
    """A clone of ``g`` (in the auction) played out: some seat holds ``contract`` and makes it
    (or not), everybody playing their first or their last legal card."""
    for declarer in bidding_order(g.view(None)["dealer"], g.players):
        for pick in (0, -1):
            c = g.clone()
            auction(c, {declarer: contract})
            while not c.is_over:
                c.play(c.legal_actions()[pick])
            if c.result()["made"] is made:
                return c
    pytest.fail(f"no way to play {contract} with made={made}")


def finish_match(m: torampu.Match) -> None:
    while not m.is_over:
        legal = m.legal_actions()
        m.play(legal[0] if m.phase == "play" else legal[1])  # bid phase: the lowest bid


# ------------------------------------------------------------------------------------ matches
def test_match_payments_accumulate_and_the_deal_moves_left() -> None:
    """003: "以後繰り返しになるので" — deals in a row; the deal passes to the left, also when
    everybody passed (the redealt deal's dealer is the one counted)."""
    m = torampu.new_match("nap", players=4, games=4, seed=3, dealer=1)
    expected_dealer = 1
    step = 0
    while not m.is_over:
        g = m.game
        assert g.to_record()["dealer"] == expected_dealer
        if step == 1:  # one all-pass round in the second game
            for _ in range(4):
                m.play("pass")
            assert m.game is g and g.view(None)["dealer"] == (expected_dealer + 1) % 4
        m.play("bid two")  # the first bidder; the others pass
        while g.phase == "bid":
            m.play("pass")
        while not g.is_over:
            m.play(m.legal_actions()[0])
        expected_dealer = (g.result()["dealer"] + 1) % 4
        step += 1
    st = m.standings()
    per_game = [r["result"]["scores"] for r in m.to_record()["records"]]
    assert st["per_game"] == per_game
    assert st["totals"] == [sum(col) for col in zip(*per_game, strict=True)]
    assert sum(st["totals"]) == 0
    assert m.to_record()["records"][1]["result"]["redeals"] == 1
    back = json.loads(json.dumps(m.to_record()))
    assert torampu.replay_match(back).to_record() == back


# ------------------------------------------------------------------------------------ views
def test_views_show_only_what_a_seat_may_know() -> None:
    """api.md: view(seat) is everything that seat may know now, and nothing more."""
    deal = fill({2: "AS KS QS JS TS"}, 5)
    g = new(deal, players=5)
    rec = g.to_record()
    stock = set(rec["deal"]["stock"])
    assert len(stock) == 27
    auction(g, {2: "nap"})
    g.play("play AS")
    g.play(f"play {plays(g)[0]}")
    while not g.is_over:
        for seat in [None, *range(5)]:
            v = g.view(seat)
            text = json.dumps({k: x for k, x in v.items() if k != "rules"})
            words = set(text.replace('"', " ").replace(",", " ").replace("]", " ").split())
            others = {c for s in range(5) if s != seat for c in hand(g, s)}
            assert not words & others, f"view({seat}) shows another hand"
            assert not words & stock, f"view({seat}) shows the undealt cards"
            assert v["hand_sizes"] == [len(hand(g, s)) for s in range(5)]
            if seat is None:
                assert v["hand"] is None and v["legal_actions"] == []
            else:
                assert v["hand"] == hand(g, seat)
                assert v["legal_actions"] == (g.legal_actions() if seat == g.to_play else [])
        g.play(g.legal_actions()[0])
    v = g.view(None)
    assert v["result"] == g.result() and v["phase"] == "over" and v["to_play"] is None
    assert v["declarer"] == 2 and v["contract"] == "nap" and v["trump"] == "S"
    with pytest.raises(ValueError):
        g.view(5)


# ------------------------------------------------------------------------------------ illegal
def test_illegal_actions_have_clear_messages_and_change_nothing() -> None:
    g = new(TRUMP_DEAL)
    cases_bid = [
        ("play 5H", "it is the auction"),
        ("bid five", "not a Nap action"),
        ("bid", "not a Nap action"),
        ("", "not a Nap action"),
        ("play JK", "without a joker"),
        ("bid wellington", "over Nap"),
        ("bid blucher", "option blucher"),
    ]
    for action, why in cases_bid:
        before = snapshot(g)
        with pytest.raises(torampu.IllegalAction, match=why):
            g.play(action)
        assert snapshot(g) == before, action
    with pytest.raises(torampu.IllegalAction, match="string"):
        g.play(3)  # type: ignore[arg-type]
    auction(g, {2: "two"})
    g.play("play 5H")
    cases_play = [
        ("bid nap", "it is the play"),
        ("pass", "it is the play"),
        ("play AC", "not in your hand"),
        ("play ZZ", "ZZ"),
        ("play 5H", "not in your hand"),
    ]
    for action, why in cases_play:
        before = snapshot(g)
        with pytest.raises(torampu.IllegalAction, match=why):
            g.play(action)
        assert snapshot(g) == before, action
    finish(g)
    before = snapshot(g)
    with pytest.raises(torampu.IllegalAction, match="over"):
        g.play("pass")
    assert snapshot(g) == before and g.legal_actions() == []


# ------------------------------------------------------------------------------------ records
def test_records_replay_mid_game_and_after() -> None:
    """api.md: any record the program writes, replay reads back to the same state."""
    g = new(TRUMP_DEAL, rules={"early_end": False}, dealer=3)
    for _ in range(4):
        g.play("pass")  # a redeal from the seed
    assert g.to_play == 1  # the deal moved to seat 0
    auction(g, {1: "three"})
    g.play(g.legal_actions()[0])
    roundtrip(g)
    finish(g)
    roundtrip(g)
    rec = g.to_record()
    assert rec["format"] == "torampu/1" and rec["game"] == "nap"
    assert [set(h) for h in rec["deal"]["hands"]] == [set(h) for h in TRUMP_DEAL["hands"]]
    assert rec["result"] == g.result()
    assert rec["rules"] == {o["name"]: o["default"] for o in torampu.rules("nap")} | {
        "early_end": False
    }
    bad = json.loads(json.dumps(rec))
    bad["actions"][5]["action"] = "bid blucher"
    with pytest.raises(torampu.IllegalAction, match="step 5"):
        torampu.replay(bad)
