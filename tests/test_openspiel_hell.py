"""Cross-check of torampu's Hell against OpenSpiel's ``oh_hell`` (open-spiel 2.0.2, test-only).

Hundreds of random deals (3..7 players, every card count from 1 to ``51 // players``) are played
in both engines from the same deal, with the same bids and the same random plays. At every play
we assert that the same physical player is to move and that the SET of legal cards is identical;
after every trick, that the same player won it; at the end, the tricks taken and the scores per
seat. Half the deals come from torampu's seeded shuffle (OpenSpiel's chance nodes are driven card
by card to deal the same hands and upcard), half from OpenSpiel's own chance sampling (torampu is
given them as a fixed ``deal``).

OpenSpiel's ``oh_hell`` conventions (read from open_spiel/games/oh_hell/oh_hell.{h,cc} and
checked here by experiment):

* chance nodes, in this order: the number of tricks (action ``k``, 1..``(52 - 1) // players``
  unless ``num_tricks_fixed``), the dealer (action = player 0..n-1), then ``n * k`` dealt cards,
  the i-th going to player ``i % n`` whoever the dealer is (player 0 always gets the first card),
  then one more card: the upcard, whose suit is trump. ``apply_action`` does not check legality,
  so every action below is checked against ``chance_outcomes()`` / ``legal_actions()`` first;
* cards: action ``rank * 4 + suit`` with suits ``C D S H`` (0..3) and ranks ``2..A`` (0..12);
  ``action_to_string`` is suit then rank (``"SA"``, ``"HT"``), ours is rank then suit (``"AS"``);
  the table between them is built from ``action_to_string`` and checked to be a bijection;
* bids: action ``52 + bid``, bids 0..k; the player after the dealer bids first, the dealer last;
  the last bidder may not make the bids add up to ``k`` (the same "hook" as ours);
* play: the player after the dealer (the first bidder) leads the first trick; must follow;
  highest trump, else highest of the led suit; the winner leads the next trick; players are
  numbered in the direction of play, as our seats are;
* scoring with ``off_bid_penalty=True, points_per_trick=3``: exact bid ``3 × tricks + 10``,
  else ``-3 × |bid - tricks|`` — the same as our defaults (10 + 3 × bid, −3 per trick off).

Differences, and what is therefore compared:

* who leads: ours, the dealer leads the first trick and bids last; OpenSpiel, the player after the
  dealer leads and the dealer bids last. So one physical seat cannot both bid last and lead in
  both engines. The play cross-check maps seats so that the SAME PHYSICAL PLAYER LEADS (our
  seat ``s`` is OpenSpiel player ``(s + offset) % n`` for a random offset, and OpenSpiel's dealer
  is the player before our dealer); then the bidding orders differ (OpenSpiel's last bidder, on
  whom its hook falls, is the player before our dealer). The bids are therefore drawn per seat
  with a total different from ``k``, which is legal in both engines whatever the order. The hook
  itself is cross-checked separately with the mapping that makes the dealers the same physical
  player (same bidding order), comparing the legal bids at every step; there the first leaders
  differ, as asserted, and the deal is not played on;
* who deals: OpenSpiel deals round-robin from player 0 and ignores the dealer; ours deals from a
  seeded shuffle. Neither matters here: the deal is forced to be the same;
* OpenSpiel's ``oh_hell`` has only 3..7 players (ours 2..7), no options for the hook or for the
  leader, and its default scoring (``off_bid_penalty=False``: tricks + 10 if exact) is not ours;
  the scores are compared with the parameters that make it ours.

The last tests show the comparison is not vacuous: plays with a choice, forced follows, discards,
tricks won by a non-leader and by a trump were all seen many times, and deliberately wrong
set-ups (the wrong leader, ranks in reverse, another trump suit, must-follow ignored, no hook) are
caught.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import torampu

pyspiel = pytest.importorskip("pyspiel")

PLAYERS = (3, 4, 5, 6, 7)
DEALS_PER_COUNT = 200
"""Play cross-check deals per player count (every card count 1..max is among them)."""
BID_DEALS_PER_COUNT = 60
NUM_CARDS = 52
OS_PARAMS = {"off_bid_penalty": True, "points_per_trick": 3}
"""OpenSpiel parameters that make ``oh_hell``'s scoring ours (10 + 3 × bid, −3 per trick off)."""


class Mismatch(AssertionError):
    """The two engines disagree."""


@dataclass
class Stats:
    """What the cross-check saw (to show it is not vacuous)."""

    deals: int = 0
    plays: int = 0
    choices: int = 0
    """Plays with more than one legal card."""
    follows: int = 0
    """Follower plays where must-follow left fewer cards than the hand held."""
    discards: int = 0
    """Follower plays off the led suit (void in it)."""
    tricks: int = 0
    non_leader_wins: int = 0
    ruffs: int = 0
    """Tricks won by a trump when another suit was led."""
    exact: int = 0
    """Seats that made their bid exactly."""
    hooks: int = 0
    """Last bids where the hook forbade a bid."""


# ------------------------------------------------------------------------------------ tables
_GAMES: dict[int, Any] = {}


def os_game(n: int) -> Any:
    """OpenSpiel's ``oh_hell`` for ``n`` players, the number of tricks left to a chance node."""
    if n not in _GAMES:
        _GAMES[n] = pyspiel.load_game("oh_hell", {"players": n, **OS_PARAMS})
    return _GAMES[n]


def card_table() -> dict[str, int]:
    """Our card string -> OpenSpiel's card action, from ``action_to_string`` in a deal node."""
    s = os_game(3).new_initial_state()
    s.apply_action(1)  # one trick
    s.apply_action(0)  # dealer 0; now the deal
    out = {}
    for a in range(NUM_CARDS):
        name = s.action_to_string(a)  # suit then rank, "SA"
        out[name[1] + name[0]] = a
    assert len(out) == NUM_CARDS and sorted(out.values()) == list(range(NUM_CARDS))
    deck = {r + u for r in "23456789TJQKA" for u in "SHDC"}
    assert set(out) == deck
    return out


CARD_TO_OS = card_table()


def reversed_ranks(table: dict[str, int]) -> dict[str, int]:
    """Sabotage: a table that maps the 2 to OpenSpiel's ace, the 3 to its king, …"""
    ranks = "23456789TJQKA"
    return {ranks[12 - ranks.index(c[0])] + c[1]: a for c, a in table.items()}


def os_tricks_won(state: Any) -> list[int]:
    """Tricks won per OpenSpiel player, read from ``str(state)`` (no other accessor exists)."""
    m = re.search(r"Tricks Won:\s*([-\d ]+)", str(state))
    assert m, str(state)
    return [int(x) for x in m.group(1).split()]


def os_bids(state: Any) -> list[int]:
    m = re.search(r"Bids:\s*([-\d ]+)", str(state))
    assert m, str(state)
    return [int(x) for x in m.group(1).split()]


def apply_chance(state: Any, action: int) -> None:
    """Apply a chance outcome after checking that OpenSpiel offers it."""
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    if action not in outcomes:
        raise Mismatch(f"chance action {action} not among {sorted(outcomes)}")
    state.apply_action(action)


def apply_checked(state: Any, action: int) -> None:
    if action not in state.legal_actions():
        raise Mismatch(f"OpenSpiel: {action} not legal for {state.current_player()}")
    state.apply_action(action)


def os_hand(state: Any, player: int, n: int) -> tuple[set[int], int, int]:
    """(initial hand, trump card, dealer) of an OpenSpiel player from its information state
    tensor: [tricks one-hot (max)] [dealer one-hot (n)] [trump card (52)] [initial hand (52)]…"""
    top = (NUM_CARDS - 1) // n
    v = state.information_state_tensor(player)
    dealer = [i for i in range(n) if v[top + i]]
    base = top + n
    trump = [c for c in range(NUM_CARDS) if v[base + c]]
    base += NUM_CARDS
    hand = {c for c in range(NUM_CARDS) if v[base + c]}
    assert len(dealer) == 1 and len(trump) == 1
    return hand, trump[0], dealer[0]


def our_legal_cards(g: torampu.Game) -> list[str]:
    return [a.split()[1] for a in g.legal_actions()]


def whole_hand(g: torampu.Game) -> list[str]:
    """Sabotage: must-follow ignored."""
    hand: list[str] = g.view(g.to_play)["hand"]
    return hand


# ------------------------------------------------------------------------------------ one deal
@dataclass
class Setup:
    n: int
    k: int
    game: torampu.Game
    state: Any
    offset: int
    """Our seat ``s`` is OpenSpiel player ``(s + offset) % n``."""
    table: dict[str, int]
    """Our card string -> OpenSpiel's card action."""


def set_up(
    n: int,
    k: int,
    rng: random.Random,
    *,
    from_openspiel: bool,
    dealer_shift: int = -1,
    table: dict[str, int] = CARD_TO_OS,
    os_upcard: Callable[[dict[str, Any]], str] | None = None,
    rules: dict[str, Any] | None = None,
) -> Setup:
    """The same deal in both engines, our seat ``s`` being OpenSpiel's player
    ``phi(s) = (s + offset) % n`` (random offset). OpenSpiel's dealer is
    ``phi(our dealer) + dealer_shift``: -1 makes the same physical player lead the first trick,
    0 makes the dealers, hence the bidding orders, the same."""
    offset = rng.randrange(n)
    seed = rng.randrange(1 << 32)
    state = os_game(n).new_initial_state()
    apply_chance(state, k)
    if from_openspiel:
        os_dealer = rng.randrange(n)
        apply_chance(state, os_dealer)
        while state.is_chance_node():
            apply_chance(state, rng.choice(state.chance_outcomes())[0])
        to_ours = {a: c for c, a in table.items()}
        dealt = [to_ours[a] for a in state.history()[2:]]
        hands: list[list[str]] = [[] for _ in range(n)]
        for i, c in enumerate(dealt[: n * k]):
            hands[(i % n - offset) % n].append(c)
        dealer = (os_dealer - dealer_shift - offset) % n
        deal = {"hands": hands, "upcard": dealt[n * k]}
        game = torampu.new_game(
            "hell", rules, players=n, cards=k, seed=seed, deal=deal, dealer=dealer
        )
    else:
        dealer = rng.randrange(n)
        game = torampu.new_game("hell", rules, players=n, cards=k, seed=seed, dealer=dealer)
        deal = game.to_record()["deal"]
        os_dealer = (dealer + offset + dealer_shift) % n
        apply_chance(state, os_dealer)
        hands = [rng.sample(h, k) for h in deal["hands"]]  # any order within a hand
        for i in range(n * k):
            apply_chance(state, table[hands[(i % n - offset) % n][i // n]])
        up = deal["upcard"] if os_upcard is None else os_upcard(deal)
        apply_chance(state, table[up])
    # OpenSpiel now holds exactly our hands, upcard and (mapped) dealer.
    assert not state.is_chance_node()
    for p in range(n):
        hand, trump, d = os_hand(state, p, n)
        assert hand == {table[c] for c in game.view((p - offset) % n)["hand"]}
        assert d == os_dealer
        if os_upcard is None:
            assert trump == table[game.view(None)["upcard"]]
    return Setup(n, k, game, state, offset, table)


def random_bids(n: int, k: int, rng: random.Random) -> list[int]:
    """Bids per seat whose total is not ``k``: legal in both engines whoever bids last."""
    while True:
        bids = [rng.randint(0, k) for _ in range(n)]
        if sum(bids) != k:
            return bids


def play_deal(
    su: Setup,
    rng: random.Random,
    stats: Stats,
    legal: Callable[[torampu.Game], list[str]] = our_legal_cards,
) -> None:
    """Bid and play the deal in both engines, comparing as the module docstring says."""
    n, k, g, state, off = su.n, su.k, su.game, su.state, su.offset
    to_ours = {a: c for c, a in su.table.items()}
    bids = random_bids(n, k, rng)
    while g.phase == "bid":
        s = g.to_play
        assert s is not None
        g.play(f"bid {bids[s]}")  # raises IllegalAction if ours refused it
    for _ in range(n):
        p = state.current_player()
        apply_checked(state, NUM_CARDS + bids[(p - off) % n])
    assert os_bids(state) == [bids[(p - off) % n] for p in range(n)]
    won_before = [0] * n
    played = 0
    led = ""
    while not g.is_over:
        seat = g.to_play
        assert seat is not None
        if state.is_terminal() or state.current_player() != (seat + off) % n:
            raise Mismatch(f"to move: ours seat {seat}, OpenSpiel player {state.current_player()}")
        ours = set(legal(g))
        theirs = {to_ours[a] for a in state.legal_actions()}
        if ours != theirs:
            raise Mismatch(f"seat {seat}: legal cards ours {sorted(ours)}, OpenSpiel {theirs}")
        card = rng.choice(sorted(ours))
        stats.plays += 1
        stats.choices += len(ours) > 1
        if played % n == 0:
            led = card[1]
        else:
            stats.follows += len(ours) < k - played // n
            stats.discards += card[1] != led
        g.play(f"play {card}")
        apply_checked(state, su.table[card])
        played += 1
        if played % n:
            continue
        trick = g.view(None)["tricks"][-1]
        winner = trick["winner"]
        won = os_tricks_won(state)
        gained = [p for p in range(n) if won[p] != won_before[p]]
        if gained != [(winner + off) % n]:
            raise Mismatch(f"trick {played // n}: ours seat {winner} won, OpenSpiel {gained}")
        won_before = won
        stats.tricks += 1
        stats.non_leader_wins += winner != trick["leader"]
        first = trick["cards"][0]["card"]
        win_card = next(x["card"] for x in trick["cards"] if x["seat"] == winner)
        stats.ruffs += trick["reason"] == "trump" and first[1] != win_card[1]
    if not state.is_terminal():
        raise Mismatch("ours is over, OpenSpiel is not")
    res = g.result()
    won = os_tricks_won(state)
    returns = state.returns()
    for s in range(n):
        if res["tricks"][s] != won[(s + off) % n]:
            raise Mismatch(f"tricks per seat: ours {res['tricks']}, OpenSpiel {won}")
        if res["scores"][s] != returns[(s + off) % n]:
            raise Mismatch(f"scores per seat: ours {res['scores']}, OpenSpiel {returns}")
    assert sum(res["tricks"]) == k
    stats.exact += len(res["winners"])
    stats.deals += 1


def bid_deal(su: Setup, rng: random.Random, stats: Stats) -> None:
    """Bid in both engines with the dealers mapped to the same physical player (the same bidding
    order): the legal bids must be identical at every step, the hook included."""
    n, k, g, state, off = su.n, su.k, su.game, su.state, su.offset
    dealer = g.view(None)["dealer"]
    for i in range(n):
        seat = g.to_play
        assert seat is not None and g.phase == "bid"
        if state.current_player() != (seat + off) % n:
            raise Mismatch(f"bidder: ours seat {seat}, OpenSpiel {state.current_player()}")
        ours = {int(a.split()[1]) for a in g.legal_actions()}
        theirs = {a - NUM_CARDS for a in state.legal_actions()}
        if ours != theirs:
            raise Mismatch(f"bid {i} by seat {seat}: ours {sorted(ours)}, OpenSpiel {theirs}")
        if i == n - 1:
            assert seat == dealer
            stats.hooks += len(ours) == k
        # bids near k / n (as players bid), so the totals come near k and the hook bites
        near = [b for b in sorted(ours) if b <= 2 * k // n + 1]
        bid = rng.choice(near or sorted(ours))
        g.play(f"bid {bid}")
        apply_checked(state, NUM_CARDS + bid)
    assert g.phase == "play"
    assert os_bids(state) == [g.view(None)["bids"][(p - off) % n] for p in range(n)]
    # The known difference: ours, the dealer leads; OpenSpiel, the player after the dealer.
    assert g.to_play == dealer
    assert state.current_player() == (dealer + 1 + off) % n
    stats.deals += 1


def card_counts(n: int, deals: int) -> list[int]:
    """Every card count 1..max in turn (so 1 and the maximum are always there)."""
    top = (NUM_CARDS - 1) // n
    return [1 + i % top for i in range(deals)]


# ------------------------------------------------------------------------------------ tests
def test_conventions() -> None:
    """The OpenSpiel facts the module docstring relies on."""
    assert CARD_TO_OS["2C"] == 0 and CARD_TO_OS["2D"] == 1 and CARD_TO_OS["2S"] == 2
    assert CARD_TO_OS["2H"] == 3 and CARD_TO_OS["AH"] == 51
    for n in PLAYERS:
        game = os_game(n)
        top = (NUM_CARDS - 1) // n
        assert top == 51 // n  # the same maximum as ours
        s = game.new_initial_state()
        assert [a for a, _ in s.chance_outcomes()] == list(range(1, top + 1))
        s.apply_action(top)
        assert [a for a, _ in s.chance_outcomes()] == list(range(n))
        s.apply_action(n - 1)  # dealer n-1: player 0 bids first and leads
        for a in range(n * top + 1):
            s.apply_action(a)  # player i % n gets card i; the last is the upcard
        assert os_hand(s, 1, n)[0] == set(range(1, n * top, n))
        assert os_hand(s, 0, n)[1] == n * top
        assert s.current_player() == 0
        assert s.legal_actions() == [NUM_CARDS + b for b in range(top + 1)]
        for _ in range(n):
            s.apply_action(NUM_CARDS)  # everyone bids 0 (the dealer may: the total is not top)
        assert s.current_player() == 0  # the player after the dealer leads
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("oh_hell", {"players": 2})  # ours plays Hell with 2 players too


@pytest.mark.parametrize("n", PLAYERS)
def test_play_matches_openspiel(n: int) -> None:
    """Same deal, bids and plays: identical legal cards at every step, trick winners, tricks and
    scores per seat. Half the deals are ours (OpenSpiel driven), half OpenSpiel's (ours fixed)."""
    rng = random.Random(7000 + n)
    stats = Stats()
    for i, k in enumerate(card_counts(n, DEALS_PER_COUNT)):
        su = set_up(n, k, rng, from_openspiel=i % 2 == 1)
        play_deal(su, rng, stats)
    assert stats.deals == DEALS_PER_COUNT
    # not vacuous: every rule was exercised many times
    assert stats.plays >= DEALS_PER_COUNT * n
    assert stats.choices > stats.plays // 3
    assert stats.follows > 500 and stats.discards > 300
    assert stats.non_leader_wins > stats.tricks // 4
    assert stats.ruffs > 100 and stats.exact > 20


@pytest.mark.parametrize("n", PLAYERS)
def test_bidding_matches_openspiel(n: int) -> None:
    """Dealers mapped to the same player: identical legal bids at every step, hook included."""
    rng = random.Random(9000 + n)
    stats = Stats()
    for i, k in enumerate(card_counts(n, BID_DEALS_PER_COUNT)):
        su = set_up(n, k, rng, from_openspiel=i % 2 == 1, dealer_shift=0)
        bid_deal(su, rng, stats)
    assert stats.deals == BID_DEALS_PER_COUNT
    assert stats.hooks > BID_DEALS_PER_COUNT // 4


def other_suit_upcard(deal: dict[str, Any]) -> str:
    """Sabotage: OpenSpiel turns up an undealt card of another suit than ours."""
    dealt = {c for h in deal["hands"] for c in h} | {deal["upcard"]}
    return next(c for c in CARD_TO_OS if c not in dealt and c[1] != deal["upcard"][1])


SABOTAGES = ("leader", "ranks", "trump", "follow", "hook")


def sabotaged(sabotage: str, deals: int, rng: random.Random) -> int:
    """How many of ``deals`` random deals under ``sabotage`` the comparison catches."""
    caught = 0
    for i in range(deals):
        n = rng.choice(PLAYERS)
        k = rng.randint(2, (NUM_CARDS - 1) // n - 1)  # leaves undealt cards for "trump"
        mine = i % 2 == 1
        stats = Stats()
        try:
            if sabotage == "hook":  # ours without the hook, OpenSpiel with it
                su = set_up(n, k, rng, from_openspiel=mine, dealer_shift=0, rules={"hook": False})
                bid_deal(su, rng, stats)
                continue
            if sabotage == "leader":  # OpenSpiel's dealer = ours: its first leader is not ours
                su = set_up(n, k, rng, from_openspiel=mine, dealer_shift=0)
            elif sabotage == "ranks":  # 2 <-> A, 3 <-> K, … (suits kept: legal sets agree)
                su = set_up(n, k, rng, from_openspiel=mine, table=reversed_ranks(CARD_TO_OS))
            elif sabotage == "trump":  # OpenSpiel turns up a card of another suit
                su = set_up(n, k, rng, from_openspiel=False, os_upcard=other_suit_upcard)
            else:
                su = set_up(n, k, rng, from_openspiel=mine)
            play_deal(su, rng, stats, whole_hand if sabotage == "follow" else our_legal_cards)
        except Mismatch:
            caught += 1
    return caught


SABOTAGE_DEALS = 40
CAUGHT_AT_LEAST = {"leader": 40, "ranks": 36, "trump": 34, "follow": 34, "hook": 12}


@pytest.mark.parametrize("sabotage", SABOTAGES)
def test_sabotage_is_caught(sabotage: str) -> None:
    """The comparison is not vacuous: each deliberately wrong set-up is caught in most deals."""
    rng = random.Random(500 + SABOTAGES.index(sabotage))
    caught = sabotaged(sabotage, SABOTAGE_DEALS, rng)
    assert caught >= CAUGHT_AT_LEAST[sabotage], f"{sabotage}: caught {caught}/{SABOTAGE_DEALS}"
