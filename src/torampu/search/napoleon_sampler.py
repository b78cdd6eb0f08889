"""The Napoleon sampler: determinizations rebuilt from one seat's view, in every phase.

What the seat cannot see is dealt at random into *slots*: the other seats' hands (as many cards
as each holds now), the widow until the Napoleon takes it, and the Napoleon's discards that the
rules did not show (``reveal_discards``: a hidden discard is never a card the rules would have
shown). Everything the seat has seen stays where it is: its hand, the cards played, the shown
discards, the widow when the seat is the Napoleon taking it. Play restricts the slots:

* a seat that did not follow the led suit (by the contract's effective suits: 裏J as a trump
  under ``ura_jack_suit: trump``, a led joker requesting trumps, the joker following as a trump
  in ``trump_top``) holds none of it — unless it played a card free to play anyway (a request
  joker);
* after a joker call (``play 3S call``, public) every seat that did not answer with the joker
  does not hold it, nor does the caller.

The adjutant is never assumed: while its card is unseen it lands wherever the deal puts it — in
a hand (that seat is the adjutant), the Napoleon's own hand or among the hidden discards (the
Napoleon is alone) — and the sample's adjutant follows the card. Bids and passes are public and
replayed as they are; they do not shape the deal here (:class:`NapoleonSampler` can make deals
fit the bids and the signs of a secret adjutant: ``infer_bids``, ``infer_adjutant``).

A sample is built once per view (the deal as it was, found by replaying the auction, the call,
the discards and the tricks on a fixed ``deal=``), checked against the view — from the seat,
the sample must look exactly like the real game, every key of ``view(seat)`` — and then every
further sample for that view is a clone of it with the hidden cards dealt again into the slots.
That is a few microseconds instead of a replay; the state is consistent because nothing public
depends on where the hidden cards are now (the tricks fix the played cards, the adjutant is
recomputed from its card).

>>> import random, torampu
>>> g = torampu.new_game("napoleon", rules="classic", seed=5)
>>> s = sample_napoleon(g.view(g.to_play), random.Random(1))
>>> s.view(g.to_play) == g.view(g.to_play), s.hands == g.hands
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from torampu.cards import HONORS, JOKER, JOKER_BIT, card_list, card_str, parse_card, parse_cards
from torampu.errors import TorampuError
from torampu.game import Game, Move
from torampu.napoleon import (
    CALL,
    PHASE_EXCHANGE,
    PHASE_PLAY,
    SPEC,
    Napoleon,
)
from torampu.search.daifugo_sampler import SamplerError
from torampu.trick import NO_SUIT

View = Mapping[str, Any]

_IGNORED = frozenset({"match"})
"""View keys a sample does not reproduce: a match's standings (a sample is one game)."""


def _bits(cards: int) -> list[int]:
    out = []
    while cards:
        low = cards & -cards
        out.append(low.bit_length() - 1)
        cards ^= low
    return out


class _Slot:
    """A place hidden cards go: a seat's hand (``seat`` ≥ 0), the widow (-1), the discards (-2)."""

    __slots__ = ("forbid", "seat", "size")

    def __init__(self, seat: int, size: int, forbid: int) -> None:
        self.seat = seat
        self.size = size
        self.forbid = forbid


WIDOW = -1
DISCARDS = -2


class NapoleonBase:
    """One view's consistent game and the slots its hidden cards may be dealt into."""

    def __init__(self, view: View, rng: random.Random, tries: int = 20) -> None:
        self.view = view
        self.seat: int = int(view["seat"])
        self._read(view)
        last: Exception | None = None
        for _ in range(tries):
            try:
                self.game, self.hidden = self._build(rng)
                return
            except (TorampuError, ValueError) as e:
                last = e
        raise SamplerError(f"no consistent Napoleon sample in {tries} tries: {last}")

    # ------------------------------------------------------------------ reading the view
    def _read(self, view: View) -> None:
        if view.get("game") != "napoleon":
            raise SamplerError("not a Napoleon view")
        rules = SPEC.resolve(dict(view["rules"]))
        self.rules = rules
        n = self.n = int(view["players"])
        seat = self.seat
        ph = self.phase = str(view["phase"])
        if ph == "over":
            raise SamplerError("the game is over")
        probe = Napoleon(rules, 0, None, int(view["dealer"]), view.get("first_bidder"))
        self.deck = probe.deck_set
        self.widow_size = probe.widow_size
        self.hand = parse_cards(view["hand"])
        self.nap = -1 if view.get("napoleon") is None else int(view["napoleon"])
        self.exchanged = "discards_count" in view
        shown = parse_cards(view.get("discards") or [])
        self.shown_discards = shown
        # the contract's following rules, for reading voids from the tricks
        for step in view["auction"]:
            probe.apply(probe.parse_action(step["action"]))
        played = [0] * n
        forbid = [0] * n
        moves: list[Move] = []
        tricks = [(t["cards"], bool(t.get("called"))) for t in view["tricks"]]
        if view.get("trick"):
            tricks.append((view["trick"], bool(view.get("call"))))
        if tricks and probe.phase_id < PHASE_EXCHANGE and probe.napoleon < 0:
            raise SamplerError("tricks before a contract")
        masks = getattr(probe, "suit_masks", None)
        lead_suit = getattr(probe, "lead_suit", None)
        free = getattr(probe, "free", 0)
        for cards, called in tricks:
            led = NO_SUIT
            for i, e in enumerate(cards):
                c = parse_card(e["card"])
                s = int(e["seat"])
                played[s] |= 1 << c
                if i == 0:
                    assert lead_suit is not None
                    led = lead_suit[c]
                    moves.append(CALL if called else c)
                    if called:
                        forbid[s] |= JOKER_BIT
                    continue
                moves.append(c)
                if called:
                    if c == JOKER:
                        continue
                    forbid[s] |= JOKER_BIT
                assert masks is not None
                if not (masks[led] >> c & 1 or free >> c & 1):
                    forbid[s] |= masks[led]  # did not follow: void in the led suit
        self.played = played
        self.moves = moves
        self.forbid = forbid
        known = self.hand | shown
        for p in played:
            known |= p
        if ph == "exchange" and seat == self.nap:
            known |= parse_cards(view.get("widow") or [])
        self.pool = self.deck & ~known
        slots: list[_Slot] = []
        sizes = view["hand_sizes"]
        for s in range(n):
            if s != seat:
                slots.append(_Slot(s, int(sizes[s]), forbid[s]))
        if ph in ("bid", "adjutant") and not self.exchanged:
            slots.append(_Slot(WIDOW, self.widow_size, 0))
        if self.exchanged and seat != self.nap:
            reveal = str(rules["reveal_discards"])
            hide = {"all": self.deck, "honors": HONORS}.get(reveal, 0)
            k = int(view["discards_count"]) - shown.bit_count()
            slots.append(_Slot(DISCARDS, k, hide))
        slots.sort(key=lambda sl: -sl.forbid.bit_count())  # the most constrained first
        self.slots = slots
        if sum(sl.size for sl in slots) != self.pool.bit_count():
            raise SamplerError("the view's hand sizes do not add up to the unseen cards")
        self.pool_bits = [1 << c for c in _bits(self.pool)]
        adj = view.get("adjutant_card")
        self.adj_card = -1 if adj is None else parse_card(adj)
        self.all_played = 0
        for p in played:
            self.all_played |= p

    # ------------------------------------------------------------------ dealing the hidden cards
    def deal(self, rng: random.Random, tries: int = 8) -> dict[int, int] | None:
        """The hidden cards dealt into the slots at random (slot -> card set), or ``None`` when
        ``tries`` random deals all ran into a restriction."""
        bits = list(self.pool_bits)
        rand = rng.random
        slots = self.slots
        for _ in range(tries):
            for i in range(len(bits) - 1, 0, -1):  # Fisher–Yates
                j = int(rand() * (i + 1))
                bits[i], bits[j] = bits[j], bits[i]
            out: dict[int, int] = {}
            rest = bits
            at = 0
            for sl in slots:
                k = sl.size
                bad = sl.forbid
                if not bad:
                    out[sl.seat] = sum(rest[at : at + k])
                    at += k
                    continue
                got = 0
                left = rest[:at]
                taken = 0
                for b in rest[at:]:
                    if taken < k and not b & bad:
                        got |= b
                        taken += 1
                    else:
                        left.append(b)
                if taken < k:
                    break
                out[sl.seat] = got
                rest = left
            else:
                return out
        return None

    # ------------------------------------------------------------------ the first sample
    def _build(self, rng: random.Random) -> tuple[Napoleon, dict[int, int]]:
        view = self.view
        n, seat, nap = self.n, self.seat, self.nap
        adj = view.get("adjutant_card")
        call = "alone" if view.get("alone_declared") else f"adjutant {adj}"
        hidden = self.deal(rng, tries=50)
        if hidden is None:
            raise SamplerError("the restrictions of play leave no deal")
        now = [hidden.get(s, 0) for s in range(n)]
        now[seat] = self.hand
        start = [now[s] | self.played[s] for s in range(n)]
        if self.exchanged:
            discards = self.shown_discards | hidden.get(DISCARDS, 0)
            full = _bits(start[nap] | discards)
            rng.shuffle(full)
            widow = sum(1 << c for c in full[: self.widow_size])
            start[nap] = (start[nap] | discards) & ~widow
        elif self.phase == "exchange":
            if seat == nap:
                widow = parse_cards(view.get("widow") or [])
            else:
                cards = _bits(start[nap])
                rng.shuffle(cards)
                widow = sum(1 << c for c in cards[: self.widow_size])
            start[nap] &= ~widow
            discards = 0
        else:
            widow = hidden.get(WIDOW, 0)
            discards = 0
        g = Napoleon(
            self.rules,
            rng.getrandbits(63),
            {"hands": [card_list(h) for h in start], "widow": card_list(widow)},
            int(view["dealer"]),
            first_bidder=view.get("first_bidder"),
        )
        for step in view["auction"]:
            g.apply(g.parse_action(step["action"]))
        g.redeals = int(view.get("redeals") or 0)
        while g.phase_id < PHASE_PLAY:
            if g.phase == "adjutant" and (adj or view.get("alone_declared")):
                g.apply(g.parse_action(call))
            elif g.phase == "exchange" and self.exchanged:
                g.apply(g.parse_action("discard " + " ".join(card_list(discards))))
            else:
                break
        for m in self.moves:
            g.apply(m)
        self.check(g)
        return g, hidden

    def check(self, g: Game) -> None:
        """:class:`SamplerError` unless ``g`` looks to the seat exactly like the view."""
        mine = g.view(self.seat)
        for key, value in self.view.items():
            if key not in _IGNORED and mine.get(key) != value:
                raise SamplerError(f"the replay does not reach the view: its {key} differs")
        if set(mine) - set(self.view) - _IGNORED:
            raise SamplerError("the replay's view has keys the real one lacks")

    # ------------------------------------------------------------------ further samples
    def sample(self, rng: random.Random) -> Napoleon:
        """A clone of the first sample with the hidden cards dealt again."""
        base = self.game
        g = base.clone()
        assert isinstance(g, Napoleon)
        hidden = self.deal(rng)
        if hidden is None:
            return g  # the first sample is always consistent
        hands = g.hands
        for s, cards in hidden.items():
            if s >= 0:
                hands[s] = cards
        ph = g.phase_id
        if WIDOW in hidden:
            g.widow = hidden[WIDOW]
        elif ph == PHASE_EXCHANGE and self.seat != self.nap:
            held = _bits(hands[self.nap])
            w = 0
            for _ in range(self.widow_size):
                w |= 1 << held.pop(int(rng.random() * len(held)))
            g.widow = w
        if DISCARDS in hidden:
            g.discards = self.shown_discards | hidden[DISCARDS]
        adj = self.adj_card
        unseen = adj >= 0 and not self.all_played >> adj & 1
        if ph == PHASE_PLAY and unseen and not g.alone_declared:
            holder = self.nap
            for s in range(self.n):
                if hands[s] >> adj & 1:
                    holder = s
                    break
            g.adj_seat = holder
        return g


class NapoleonSampler:
    """``sampler(view, rng)``: a determinization of ``view``; the first call for a view builds
    and checks it (:class:`NapoleonBase`), later calls for the same view object re-deal it.

    With ``infer_bids``, a deal is also made to fit the bids (:class:`BidEvidence`): of up to
    ``tries`` re-deals, the first in which every other seat's hand supports its highest bid
    (or else the one that comes closest) is returned. A uniform deal gives the Napoleon of a
    13-honor spade contract two or three spades; its allies, searching on such deals, would
    play against a Napoleon that does not exist. With ``infer_adjutant``, a deal must also pass
    :class:`AdjutantEvidence` (a secret adjutant sits where the play points).
    """

    def __init__(
        self, infer_bids: bool = False, tries: int = 16, infer_adjutant: bool = False
    ) -> None:
        self._base: NapoleonBase | None = None
        self._evidence: BidEvidence | None = None
        self._adjutant: AdjutantEvidence | None = None
        self.infer_bids = infer_bids
        self.infer_adjutant = infer_adjutant
        self.tries = tries

    def __call__(self, view: View, rng: random.Random) -> Game:
        base = self._base
        if base is None or base.view is not view:
            base = self._base = NapoleonBase(view, rng)
            evidence = BidEvidence(view, base.played) if self.infer_bids else None
            self._evidence = evidence if evidence is not None and evidence.bids else None
            adjutant = AdjutantEvidence(view, base) if self.infer_adjutant else None
            self._adjutant = adjutant if adjutant is not None and adjutant.informative else None
            if self._evidence is None and self._adjutant is None:
                return base.game.clone()
        evidence, adjutant = self._evidence, self._adjutant
        if evidence is None and adjutant is None:
            return base.sample(rng)
        best: Napoleon | None = None
        best_gap = 0.0
        for _ in range(self.tries):
            g = base.sample(rng)
            gap = 0.0 if evidence is None else evidence.gap(g)
            if adjutant is not None and not adjutant.accept(g, rng):
                gap += _REJECTED
            if gap <= 0.0:
                return g
            if best is None or gap < best_gap:
                best, best_gap = g, gap
        assert best is not None
        return best


_REJECTED = 1000.0
"""The gap of a deal whose adjutant was rejected: more than any bid's shortfall, so that when
every try falls short the fallback is a deal whose adjutant was accepted, if there was one."""


class AdjutantEvidence:
    """Who the secret adjutant is likely to be, from how each seat treated the Napoleon's
    tricks: the heuristic bot's reading (:meth:`Contract.trick_evidence
    <torampu.bots.heuristic.Contract.trick_evidence>`: an honor put on a trick the Napoleon is
    winning multiplies a seat's odds by 1.5, or 3 when it was a discard; taking a trick off the
    Napoleon halves them; an honor discarded onto another seat's trick, 0.6).

    A deal that puts the adjutant card in seat ``s`` is kept with probability
    ``weight[s] / max(weight)`` — rejection sampling with those odds as likelihoods. The card in
    the Napoleon's hand or the hidden discards (a Napoleon alone) has weight 1. It says nothing
    once the card is seen, outside play, or to a seat that holds the card.
    """

    def __init__(self, view: View, base: NapoleonBase) -> None:
        from torampu.bots.heuristic import adjutant_odds, contract_for, view_tricks

        self.weight: list[float] = [1.0] * base.n
        self.informative = False
        adj = base.adj_card
        if (
            base.phase != "play"
            or adj < 0
            or base.all_played >> adj & 1
            or base.hand >> adj & 1
            or view.get("alone_declared")
            or view.get("adjutant_known")
        ):
            return
        ct = contract_for(view["rules"], str(view["trump"]))
        # the Napoleon's own weight stays 1: the card in its hand or discards (alone)
        self.weight = adjutant_odds(ct, view_tricks(view), base.nap, base.n)
        top = max(self.weight)
        self.accept_p = [w / top for w in self.weight]
        self.informative = min(self.accept_p) < 1.0

    def accept(self, g: Napoleon, rng: random.Random) -> bool:
        """Keep the deal ``g`` (whose adjutant is ``g.adj_seat``)?"""
        p = self.accept_p[g.adj_seat]
        return p >= 1.0 or rng.random() < p


class BidEvidence:
    """What the auction says about the other seats' hands: each seat that bid holds (with what
    it has played since, ``played[seat]``) a hand the heuristic bidder's estimate
    (:func:`~torampu.bots.heuristic.hand_estimate`) puts within ``slack`` honors of its
    highest bid."""

    def __init__(self, view: View, played: list[int], slack: float = 1.0) -> None:
        from torampu.bots.heuristic import hand_estimate

        self.estimate = hand_estimate
        self.rules = dict(view["rules"])
        self.players = int(view["players"])
        seat = int(view["seat"])
        highest: dict[int, tuple[int, str]] = {}
        for step in view["auction"]:
            a = str(step["action"])
            s = int(step["seat"])
            if s != seat and a.startswith("bid "):
                count, suit = int(a[4:-1]), a[-1]
                if s not in highest or count >= highest[s][0]:
                    highest[s] = (count, suit)
        self.bids = [(s, count - slack, suit) for s, (count, suit) in highest.items()]
        self.played = played

    def gap(self, g: Napoleon) -> float:
        """Honors by which the deal's hands fall short of their bids (0: all supported)."""
        total = 0.0
        for s, need, suit in self.bids:
            held = _bits(g.hands[s] | self.played[s])
            short = need - self.estimate(held, suit, self.rules, self.players)
            if short > 0:
                total += short
        return total


def sample_napoleon(view: View, rng: random.Random) -> Napoleon:
    """One Napoleon determinization of ``view`` (built and checked from scratch)."""
    base = NapoleonBase(view, rng)
    return base.sample(rng)


def hidden_summary(g: Napoleon, seat: int) -> tuple[Any, ...]:
    """What a sample put where the seat cannot see (for tests: samples should differ)."""
    return (
        tuple(card_str(c) for s in range(g.n) if s != seat for c in _bits(g.hands[s])),
        g.widow,
        g.discards,
        g.adj_seat,
    )
