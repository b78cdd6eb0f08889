"""Rollout policies and candidate moves: the game knowledge a search uses, one small function
per game, so that the search itself stays generic.

* :func:`napoleon_playout` — Napoleon to its end with uniformly random legal moves: the same
  draws as the engine's ``playout`` (so the same scores from the same generator), several times
  cheaper, because each trick is judged from the engine's strength tables as its cards fall and
  no trick records or history are kept. The game is left *over* with its honors taken and its
  scores right, but without the rolled-out tricks in its records: a rollout's game is thrown
  away.
* :func:`napoleon_rollout` — the same fast tricks, but the auction, the call and the discards
  by :func:`napoleon_contract_move`, the heuristic bot's rules on the determinized hands: a
  random auction, where almost every bid is outbid by a random higher one, tells a search
  nothing about its own bid.
* :func:`napoleon_scripted` — in the contract phases the tree branches only on the searcher's
  own decisions of the phase searched; the other seats follow :func:`napoleon_contract_move`
  (their bids and calls still shape the tree, their hidden discards do not). Left to the tree,
  the other seats' bids drown a search: every one of them is tried, most are wild overbids
  that fail, and every bid of the searcher's looks like a sure win.
* :func:`candidate_moves` — the moves a search tree considers where a decision has many:
  Napoleon's auction (a pass and the three cheapest bids of each suit), the adjutant call (the
  strongest cards the Napoleon lacks, and ``alone``), the discards (every choice among the
  cheapest few cards outside the trumps and the specials, see :func:`discard_candidates`), and
  Daifugo's exchange, 7渡し and 10捨て (the weakest cards), and no leader pass while a play is
  legal. Elsewhere every legal move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from torampu.cards import HONORS, JOKER, JOKER_BIT
from torampu.daifugo import PH_DISCARD, PH_EXCHANGE, PH_GIVE, PH_PLAY, Daifugo
from torampu.daifugo_plays import DRANK, JSHIFT, REAL
from torampu.daifugo_plays import PASS as DAIFUGO_PASS
from torampu.game import Game, Move
from torampu.napoleon import (
    ADJ_BASE,
    ALONE,
    BID_BASE,
    DISCARD,
    MIGHTY,
    NO_TRUMP,
    PASS,
    PHASE_ADJUTANT,
    PHASE_BID,
    PHASE_EXCHANGE,
    PHASE_OVER,
    PHASE_PLAY,
    Napoleon,
)
from torampu.search.daifugo_sampler import greedy_play
from torampu.trick import _MOVES_OF, _SHIFTED_CHUNKS, _moves_of

Rand = Callable[[], float]


# ---------------------------------------------------------------------------------- Napoleon
def napoleon_playout(game: Game, rng: random.Random) -> None:
    """Finish a Napoleon game with uniformly random legal moves (see the module docstring)."""
    assert isinstance(game, Napoleon)
    rand = rng.random
    while game.phase_id < PHASE_PLAY:
        game.apply(game._random_move(rand))
    if game.phase_id == PHASE_PLAY:
        _random_tricks(game, rand)


def napoleon_rollout(game: Game, rng: random.Random) -> None:
    """Finish a Napoleon game: the contract phases by :func:`napoleon_contract_move`, the
    tricks with random legal cards (as :func:`napoleon_playout`)."""
    assert isinstance(game, Napoleon)
    rand = rng.random
    while game.phase_id < PHASE_PLAY:
        game.apply(napoleon_contract_move(game, rand))
    if game.phase_id == PHASE_PLAY:
        _random_tricks(game, rand)


def _random_tricks(g: Napoleon, rand: Rand) -> None:
    """Play the tricks out with random legal cards: the engine's draws, judged in place."""
    n = g.n
    hands = g.hands
    taken = g.taken
    masks = g.suit_masks
    lead_suit = g.lead_suit
    free = g.free
    memo = _MOVES_OF
    shifted = _SHIFTED_CHUNKS
    tab = g.str_tab
    tab_first = g.str_tab_first
    call_card = g.call_card
    request = g.joker_request
    led_joker = g.led_joker
    modify = g._modify if g.modifiers else None
    early = bool(g.rules["early_end"])
    public = early and g.rules["early_end_judged"] == "public"
    voids = g._public_voids() if public else []  # what the tricks show, for the public judge
    jokers = bool(g.deck_set & JOKER_BIT)
    ntricks = len(g.tricks)
    played_all = g.played
    seat = g.turn
    trick = list(g.trick)  # a trick in progress is finished first
    leader = g.leader
    led = g.led
    forced = g.forced
    cards = 0
    for c in trick:
        cards |= 1 << c
    while True:
        if not trick:
            # the lead: the k-th card of the hand in index order (the engine's move list), found
            # suit by suit — a whole hand is rarely seen twice, so it is not worth a memo entry
            leader = seat
            hand = hands[seat]
            size = hand.bit_count()
            call = (
                call_card >= 0
                and hand >> call_card & 1
                and not (played_all | hand) & JOKER_BIT  # the joker is out or the caller's
            )
            k = int(rand() * (size + 1 if call else size))
            forced = 0
            card = JOKER
            if k == size:
                card = call_card
                forced = JOKER_BIT
                if public:
                    voids[seat] |= JOKER_BIT  # a caller holds no joker
            else:
                for sh, chunks in shifted:
                    chunk = hand >> sh & 8191
                    c = chunk.bit_count()
                    if k < c:
                        card = chunks[chunk][k]
                        break
                    k -= c
            hands[seat] = hand ^ (1 << card)
            led = lead_suit[card]
            trick = [card]
            cards = 1 << card
            seat = seat + 1 if seat + 1 < n else 0
        for _ in range(len(trick), n):
            hand = hands[seat]
            m = hand & masks[led]
            if hand & forced:
                rand()  # the engine draws from its one-move list too
                card = JOKER
            elif m:
                mask = m | (hand & free)
                moves = memo.get(mask) or _moves_of(mask)
                card = moves[int(rand() * len(moves))]
            else:  # void: any card, the k-th of the hand
                k = int(rand() * hand.bit_count())
                card = JOKER
                for sh, chunks in shifted:
                    chunk = hand >> sh & 8191
                    c = chunk.bit_count()
                    if k < c:
                        card = chunks[chunk][k]
                        break
                    k -= c
            hands[seat] = hand ^ (1 << card)
            if public and not (forced and card == JOKER):
                if forced:
                    voids[seat] |= JOKER_BIT
                if not (masks[led] | free) >> card & 1:
                    voids[seat] |= masks[led]
            trick.append(card)
            cards |= 1 << card
            seat = seat + 1 if seat + 1 < n else 0
        st = (tab_first if ntricks == 0 else tab)[led]
        strength = [st[c] for c in trick]
        if jokers and cards & JOKER_BIT:
            ji = trick.index(JOKER)
            if ji == 0 and request:
                strength[0] = led_joker
            elif ji > 0 and forced:
                strength[ji] = 0
        if modify is not None:
            g.led = led
            modify(trick, strength, {}, ntricks == 0)
        best = strength.index(max(strength))
        winner = leader + best
        if winner >= n:
            winner -= n
        taken[winner] |= cards & HONORS
        played_all |= cards
        ntricks += 1
        seat = winner
        trick = []
        if not hands[winner]:
            break
        if early and g._outcome_certain():
            if not public:
                break
            g.played = played_all
            if g._settled_in_public(voids):
                break
    g.played = played_all
    g.trick = []
    g.led = -1
    g.forced = 0
    g.call_active = False
    g.leader = seat
    g.early = early and bool(hands[seat])
    g.phase_id = PHASE_OVER
    g.turn = -1


# ------------------------------------------------------------------- Napoleon's contract phases
def napoleon_contract_move(g: Napoleon, rand: Rand) -> Move:
    """A sensible move in the auction, the call or the exchange (for rollouts and scripts).

    * **Auction**: the heuristic bot's rule (:mod:`torampu.bots.heuristic`): the cheapest legal
      bid of the suit whose estimated honors (:func:`~torampu.bots.heuristic.hand_estimate`,
      from the seat's hand in this determinization) leave the most room, or a pass.
    * **Adjutant**: the strongest card the Napoleon lacks (:func:`adjutant_order`).
    * **Exchange**: the first of :func:`discard_candidates`.
    """
    ph = g.phase_id
    seat = g.turn
    hand = g.hands[seat]
    if ph == PHASE_BID:
        if g.high_seat == seat:
            return PASS
        limits = _bid_limits(g, hand)
        best: tuple[int, int] | None = None
        move = PASS
        for b, limit in enumerate(limits):
            count = g.min_bid
            if g.high:
                hc, hb = divmod(g.high - BID_BASE, 5)
                count = hc if b > hb else hc + 1
            room = limit - count
            if room < 0 or count > g.max_bid:
                continue
            key = (room, -count)
            if best is None or key > best:
                best, move = key, BID_BASE + count * 5 + b
        return move
    if ph == PHASE_ADJUTANT:
        for c in adjutant_order(g):
            if not hand >> c & 1:
                return ADJ_BASE + c
        return g.table.adjutant_moves[0]
    if ph == PHASE_EXCHANGE:
        return discard_candidates(g, 1)[0]
    raise ValueError(f"not a contract phase: {g.phase}")


_LIMITS: dict[tuple[int, int], list[int]] = {}
_RULES_IDS: dict[tuple[object, ...], int] = {}
_RULES_SEEN: dict[int, tuple[object, int]] = {}


def _bid_limits(g: Napoleon, hand: int) -> list[int]:
    """The highest count ``hand`` would bid in each bid suit (C D H S, and N when allowed)."""
    from torampu.bots.heuristic import hand_estimate  # (the bots import the search)

    r = g.rules
    known = _RULES_SEEN.get(id(r))
    if known is None or known[0] is not r:  # (clones share their rules dict)
        text = tuple(sorted((k, str(v)) for k, v in r.items()))
        rid = _RULES_IDS.setdefault(text, len(_RULES_IDS))
        if len(_RULES_SEEN) > 1000:
            _RULES_SEEN.clear()
        known = _RULES_SEEN[id(r)] = (r, rid)
    key = (hand, known[1])
    limits = _LIMITS.get(key)
    if limits is None:
        cards = list(_MOVES_OF.get(hand) or _moves_of(hand))
        suits = "CDHSN" if r["no_trump"] else "CDHS"
        limits = [int(hand_estimate(cards, t, r, g.n)) for t in suits]
        if len(_LIMITS) > 50_000:
            _LIMITS.clear()
        _LIMITS[key] = limits
    return limits


def adjutant_order(g: Napoleon) -> list[int]:
    """Cards of the deck to name as adjutant, the strongest first: a top joker, Mighty, 正J, 裏J,
    the high trumps, a strong joker, the side aces, the side kings."""
    trump = g.trump
    order: list[int] = []
    if g.deck_set & JOKER_BIT and not g.joker_request:
        order.append(JOKER)
    order.append(MIGHTY)
    if trump != NO_TRUMP:
        order += [g.sei_j, g.ura_j, trump * 13 + 12, trump * 13 + 11, trump * 13 + 10]
    if g.deck_set & JOKER_BIT and g.joker_request:
        order.append(JOKER)
    order += [s * 13 + 12 for s in range(4) if s != trump]
    order += [s * 13 + 11 for s in range(4) if s != trump]
    return [c for c in order if g.deck_set >> c & 1 and c != -1]


def discard_candidates(g: Napoleon, limit: int = 24) -> list[Move]:
    """Discards worth searching, the likeliest first: every choice of the widow's size among
    the few cheapest cards outside the trumps, the specials, the joker and the named card.

    A card's cost is its rank, more for an honor (it may count for the allies) and less in a
    short suit (discarding it voids the suit, to ruff later). The first candidate discards the
    cheapest cards.
    """
    k = g.widow_size
    hand = g.hands[g.napoleon]
    trump = g.trump
    keep = 1 << MIGHTY | JOKER_BIT
    if trump != NO_TRUMP:
        keep |= ((1 << 13) - 1) << (13 * trump) | 1 << g.sei_j | 1 << g.ura_j
    if g.adj_card >= 0:
        keep |= 1 << g.adj_card
    cards = list(_MOVES_OF.get(hand) or _moves_of(hand))
    lengths = [(hand >> (13 * s) & 8191).bit_count() for s in range(4)]

    def cost(c: int) -> tuple[float, int]:
        if keep >> c & 1:
            return (100.0 + _keep_rank(g, c), c)
        r = c % 13
        v = float(r) + (12.0 if HONORS >> c & 1 else 0.0)
        if lengths[c // 13] <= k:
            v -= 4.0
        return (v, c)

    cards.sort(key=cost)
    pool = cards[: min(len(cards), k + 3)]
    out: list[Move] = []
    for combo in combinations(pool, k):
        m = 0
        for c in combo:
            m |= 1 << c
        out.append(DISCARD | m)
        if len(out) >= limit:
            break
    return out


def _keep_rank(g: Napoleon, c: int) -> int:
    if c in (JOKER, MIGHTY, g.sei_j, g.ura_j):
        return 50
    return c % 13


def napoleon_candidates(g: Napoleon, legal: list[Move]) -> list[Move]:
    """The moves a search tree considers in Napoleon (see the module docstring)."""
    ph = g.phase_id
    if ph == PHASE_PLAY or len(legal) <= 12:
        return legal
    if ph == PHASE_BID:
        out = [PASS] if PASS in legal else []
        per_suit = [0] * 5
        for m in legal:
            if m >= BID_BASE:
                b = (m - BID_BASE) % 5
                if per_suit[b] < 3:
                    per_suit[b] += 1
                    out.append(m)
        return out
    if ph == PHASE_ADJUTANT:
        hand = g.hands[g.napoleon]
        out = [ADJ_BASE + c for c in adjutant_order(g) if not hand >> c & 1][:5]
        if ALONE in legal:
            out.append(ALONE)
        return [m for m in out if m in legal] or legal
    if ph == PHASE_EXCHANGE:
        return discard_candidates(g)
    return legal


def napoleon_pimc_candidates(g: Napoleon, legal: list[Move]) -> list[Move]:
    """The moves PIMC scores in Napoleon, where every candidate costs a whole playout per
    sample: in the auction a pass and the *cheapest* legal bid of each suit (a higher count
    of the same suit pays the same and is harder to make), the adjutant call as
    :func:`napoleon_candidates`, the six likeliest discards; every card in the tricks."""
    ph = g.phase_id
    if ph == PHASE_BID:
        out = [PASS] if PASS in legal else []
        seen = 0
        for m in sorted(legal):
            if m >= BID_BASE:
                b = (m - BID_BASE) % 5
                if not seen >> b & 1:
                    seen |= 1 << b
                    out.append(m)
        return out or legal
    if ph == PHASE_EXCHANGE:
        return discard_candidates(g, limit=6)
    return napoleon_candidates(g, legal)


# ---------------------------------------------------------------------------------- Daifugo
def daifugo_candidates(g: Daifugo, legal: list[Move]) -> list[Move]:
    """Daifugo's exchange, 7渡し and 10捨て: only choices among the weakest cards of the hand
    (two more than the most that may go), no joker. In play, no pass by the leader of a round
    (legal under ``lead_pass``) when a play is legal: such passes only lead towards the
    ``stalemate_passes`` end, whose places are drawn at random (issue 21: the search bot passed
    as the leader in two-player endgames, once into the stalemate)."""
    ph = g.phase_id
    if ph == PH_PLAY:
        if g.table_info is None and len(legal) > 1 and DAIFUGO_PASS in legal:
            return [m for m in legal if m != DAIFUGO_PASS]
        return legal
    if ph not in (PH_EXCHANGE, PH_GIVE, PH_DISCARD) or len(legal) <= 12:
        return legal
    hand = g.hands[g.turn]
    most = max((m & REAL).bit_count() + (m >> JSHIFT & 3) for m in legal)
    rev = g.reversed and ph != PH_EXCHANGE
    cards = sorted(
        _MOVES_OF.get(hand) or _moves_of(hand), key=lambda c: -DRANK[c] if rev else DRANK[c]
    )
    weak = 0
    for c in cards[: most + 2]:
        weak |= 1 << c
    out = [m for m in legal if not (m & REAL & ~weak) and not m >> JSHIFT & 3]
    return out or legal


def napoleon_scripted(g: Napoleon, root: Game, rand: Rand) -> tuple[Move, bool] | None:
    """In the contract phases, the moves a search does not branch on: the other seats' (the
    searcher models them by :func:`napoleon_contract_move`) and the searcher's own in a later
    phase than the one searched (searched when they come). A discard by another seat is not
    seen by the searcher."""
    ph = g.phase_id
    if ph >= PHASE_PLAY:
        return None
    assert isinstance(root, Napoleon)
    mine = g.turn == root.turn
    if mine and ph == root.phase_id:
        return None
    return napoleon_contract_move(g, rand), mine or ph != PHASE_EXCHANGE


def daifugo_greedy_opponents(game: Game, root: Game, rand: Rand) -> tuple[Move, bool] | None:
    """Daifugo's other players modelled instead of searched (the ``ismcts`` option
    ``opponents=greedy``): in the play phase every seat but the searcher's plays
    :func:`~torampu.search.daifugo_sampler.greedy_play`, the rollout's policy, and the searcher
    sees the move; the tree branches on the searcher's own decisions only."""
    if not isinstance(game, Daifugo) or game.phase_id != PH_PLAY:
        return None
    assert isinstance(root, Daifugo)
    if game.turn == root.turn:
        return None
    return greedy_play(game, rand), True


def daifugo_policy_opponents(
    sample: Callable[[Daifugo, list[Move], Rand], Move],
) -> Callable[[Game, Game, Rand], tuple[Move, bool] | None]:
    """Daifugo's other players modelled by a move policy instead of searched (the ``ismcts``
    option ``opponents=policy``): in the play phase every seat but the searcher's plays
    ``sample(game, legal, rand)`` (the learned policy's draw, on that seat's determinized hand),
    and the searcher sees the move; the tree branches on the searcher's own decisions only.

    >>> import random, torampu
    >>> g = torampu.new_game("daifugo", rules="standard", seed=3)
    >>> first = lambda game, legal, rand: legal[0]
    >>> daifugo_policy_opponents(first)(g, g, random.random) is None  # the searcher's own turn
    True
    """

    def scripted(game: Game, root: Game, rand: Rand) -> tuple[Move, bool] | None:
        if not isinstance(game, Daifugo) or game.phase_id != PH_PLAY:
            return None
        assert isinstance(root, Daifugo)
        if game.turn == root.turn:
            return None
        legal = game.legal_moves()
        return (legal[0] if len(legal) == 1 else sample(game, legal, rand)), True

    return scripted


def scripted_moves(game: Game, root: Game, rand: Rand) -> tuple[Move, bool] | None:
    """The moves a search does not branch on (Napoleon: :func:`napoleon_scripted`)."""
    if isinstance(game, Napoleon):
        return napoleon_scripted(game, root, rand)
    return None


def candidate_moves(game: Game, legal: list[Move]) -> list[Move]:
    """The moves a search tree considers at ``game``'s decision (see the module docstring)."""
    if isinstance(game, Napoleon):
        return napoleon_candidates(game, legal)
    if isinstance(game, Daifugo):
        return daifugo_candidates(game, legal)
    return legal


def for_game(
    game: Game,
    scripted: Callable[[Game, Game, Rand], tuple[Move, bool] | None] | None,
    prune: Callable[[Game, list[Move]], list[Move]] | None,
) -> tuple[
    Callable[[Game, Game, Rand], tuple[Move, bool] | None] | None,
    Callable[[Game, list[Move]], list[Move]] | None,
]:
    """``(scripted, prune)`` for a search of ``game``'s kind: :func:`scripted_moves` and
    :func:`candidate_moves` replaced by what they do for that kind (no scripted moves outside
    Napoleon; Daifugo's :func:`daifugo_candidates`), so the tree's loop makes no type test per
    step. Any other function is kept as given.

    >>> import torampu
    >>> for_game(torampu.new_game("daifugo", seed=1), scripted_moves, candidate_moves)[0] is None
    True
    """
    if scripted is scripted_moves and not isinstance(game, Napoleon):
        scripted = None
    if prune is candidate_moves and isinstance(game, Daifugo):
        prune = daifugo_candidates  # type: ignore[assignment]  # called with Daifugo games only
    return scripted, prune


def pimc_candidates(game: Game, legal: list[Move]) -> list[Move]:
    """The moves PIMC scores at ``game``'s decision (Napoleon:
    :func:`napoleon_pimc_candidates`; Daifugo: :func:`daifugo_candidates`; elsewhere every
    legal move)."""
    if isinstance(game, Napoleon):
        return napoleon_pimc_candidates(game, legal)
    if isinstance(game, Daifugo):
        return daifugo_candidates(game, legal)
    return legal


__all__ = [
    "adjutant_order",
    "candidate_moves",
    "daifugo_candidates",
    "daifugo_greedy_opponents",
    "daifugo_policy_opponents",
    "discard_candidates",
    "for_game",
    "napoleon_candidates",
    "napoleon_contract_move",
    "napoleon_pimc_candidates",
    "napoleon_playout",
    "napoleon_rollout",
    "napoleon_scripted",
    "pimc_candidates",
    "scripted_moves",
]
