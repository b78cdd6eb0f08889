"""The ``heuristic`` bot for Hell (an Oh Hell variant): bid what the hand is worth, then make it
exactly. It sees only ``view(seat)`` and the legal action strings.

Card knowledge (shared with the Nap bot)
----------------------------------------
:class:`Seen` rebuilds, from the view alone, what the seat knows: its hand, the cards already
played, the cards still unseen (not in the hand, not played, not the upcard), each seat's hand
size and the suits each seat has shown void in (it did not follow a led suit). From that,
:meth:`Seen.p_beats` gives the chance that a given opponent *can* beat a given card on a given
lead: it holds a higher card of the led suit, or (void in the led suit) a trump, resp. a higher
trump — exact hypergeometric odds for a hand of its size drawn from the unseen cards it may hold
(suits it is void in excluded). The chance that a card *wins* is the product, over the players
still to play in the trick, of ``1 - w × p_beats``, where ``w`` is how keen that player is to
take the trick.

Bidding
-------
For every card of the hand, the chance that it takes a trick: the chance that nobody beats it
when it is led (trump suit: higher trumps out; a side suit: higher cards of the suit, and
opponents void in it who can ruff — more players and more cards dealt mean more voids and more
trumps around), times the chance that a side card gets played in a trick of its own suit or
led by this seat (:func:`access`: with one card and another seat leading, a side ace rarely
wins), with a ruffing bonus for spare trumps when the hand is void or short in a side suit.
Players who have already bid zero are taken to duck, those who bid more to fight, and a player
with a single card plays it whatever it wants. The number of tricks is modelled as a sum of
independent Bernoulli trials with those chances (a Poisson-binomial distribution), and the bot
picks the *legal* bid with the best expected score (``exact_base + exact_per_trick × bid`` when
exact, ``miss_per_trick`` per trick off), so the dealer's forbidden bid is avoided by taking the
next best number.

Play: make the bid exactly
--------------------------
Each legal card is scored by the expected deal score if it is played now: the chance it wins
this trick (0 when it cannot beat the card on top; otherwise, nobody still to play beats it,
opponents who still need tricks being keen to, those who have made their bid reluctant), plus
the chances of the cards kept in hand (each as if led later against the opponents still holding
cards), again summed as a Poisson-binomial and scored against the bid. Consequences:

* under the bid, it wins tricks cheaply with the lowest card that holds and keeps its sure
  winners for later, and it ducks with cards that have no future while its winners suffice;
* once the bid is reached (or passed), it tries to lose every remaining trick: it ducks under the
  card on top with its *highest* losing card, throws its dangerous high cards (high side cards,
  then trumps) when it cannot follow, avoids trumping, and leads low cards in suits where others
  hold higher ones;
* breaking the others: every opponent's keenness follows its own need (total of bids over the
  cards: tricks are fought for; under: others duck, and the bot knows its cards win more easily,
  so at its bid it sheds its high cards early), and a small bonus (``BREAK_WEIGHT`` points a
  trick, which only decides near-ties of its own expected score) makes it take a trick from an
  opponent who needs it and leave one on an opponent who has already made its bid.

The bot keeps no memory between calls (everything is rebuilt from the view, in well under a
millisecond), so it works unchanged across deals and matches. It is deterministic; the seed is
kept for the interface.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from torampu.bots.base import View
from torampu.cards import card_str

# ------------------------------------------------------------------------------------ cards
CARD: Final = {card_str(c): c for c in range(52)}
"""Card string -> card int (``suit * 13 + rank``, rank 0 = 2 … 12 = A)."""
SUIT_MASK: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
HIGHER: Final = tuple(SUIT_MASK[c // 13] & ~((1 << (c + 1)) - 1) for c in range(52))
"""The cards of the same suit ranked above each card."""
LOWER: Final = tuple(SUIT_MASK[c // 13] & ((1 << c) - 1) for c in range(52))
"""The cards of the same suit ranked below each card."""
ALL_CARDS: Final = (1 << 52) - 1


def cards_of(mask: int) -> list[int]:
    """The cards of a bit set, lowest index first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def beats(c: int, best: int, led: int, trump: int) -> bool:
    """Whether ``c`` beats ``best`` (the card on top of a trick whose led suit is ``led``)."""
    cs, bs = c // 13, best // 13
    if cs == bs:
        return c > best
    return cs == trump  # a trump over a non-trump; anything else off-suit never wins


_NONE_CACHE: dict[tuple[int, int, int], float] = {}


def p_none(pool: int, m: int, h: int) -> float:
    """The chance that ``h`` cards drawn from ``pool`` cards miss ``m`` given ones."""
    if m <= 0 or h <= 0:
        return 1.0
    if pool - m < h:
        return 0.0
    key = (pool, m, h)
    p = _NONE_CACHE.get(key)
    if p is None:
        p = 1.0
        for i in range(h):
            p *= (pool - m - i) / (pool - i)
        _NONE_CACHE[key] = p
    return p


def poisson_binomial(ps: Sequence[float]) -> list[float]:
    """The distribution of the number of successes of independent trials with chances ``ps``."""
    dist = [1.0]
    for p in ps:
        q = 1.0 - p
        nxt = [0.0] * (len(dist) + 1)
        for k, d in enumerate(dist):
            nxt[k] += d * q
            nxt[k + 1] += d * p
        dist = nxt
    return dist


class Seen:
    """What one seat knows about the cards, rebuilt from its view.

    ``deck`` is the set of cards in play and ``known`` cards that are visible but in no hand (the
    Hell upcard). Voids come from the tricks: a seat that did not follow the led suit has none.
    """

    __slots__ = (
        "best",
        "best_seat",
        "hand",
        "hand_mask",
        "led",
        "me",
        "n",
        "sizes",
        "trick",
        "trump",
        "unseen",
        "voids",
    )

    def __init__(self, view: View, deck: int, trump: int, known: int = 0) -> None:
        self.n = n = int(view["players"])
        self.me = int(view["seat"])
        self.trump = trump
        self.hand = [CARD[s] for s in view["hand"]]
        hand_mask = 0
        for c in self.hand:
            hand_mask |= 1 << c
        self.hand_mask = hand_mask
        self.sizes: list[int] = list(view["hand_sizes"])
        voids = [0] * n
        gone = hand_mask | known
        for t in view["tricks"]:
            gone |= _scan(t["cards"], voids)
        cur = view.get("trick") or []
        gone |= _scan(cur, voids)
        self.voids = voids
        self.unseen = deck & ~gone
        self.trick: list[tuple[int, int]] = [(int(e["seat"]), CARD[e["card"]]) for e in cur]
        self.led = -1
        self.best = -1
        self.best_seat = -1
        if self.trick:
            self.led = self.trick[0][1] // 13
            best_seat, best = self.trick[0]
            for seat, c in self.trick[1:]:
                if beats(c, best, self.led, trump):
                    best_seat, best = seat, c
            self.best, self.best_seat = best, best_seat

    # ------------------------------------------------------------------ who plays
    def later(self) -> list[int]:
        """The seats still to play in the current trick after this one."""
        k = len(self.trick)
        return [(self.me + i) % self.n for i in range(1, self.n - k)]

    def opponents(self) -> list[int]:
        """Every other seat that still holds cards."""
        return [s for s in range(self.n) if s != self.me and self.sizes[s] > 0]

    # ------------------------------------------------------------------ odds
    def p_beats(self, j: int, b: int, led: int) -> float:
        """The chance that seat ``j`` (not yet played) holds a card beating ``b`` on a ``led``
        lead: a higher card of the led suit, or, void in it, a (higher) trump."""
        h = self.sizes[j]
        if h <= 0:
            return 0.0
        vo = self.voids[j]
        unseen = self.unseen
        trump = self.trump
        pool_mask = unseen
        for s in range(4):
            if vo >> s & 1:
                pool_mask &= ~SUIT_MASK[s]
        pool = max(pool_mask.bit_count(), h)
        led_void = bool(vo >> led & 1)
        led_cards = 0 if led_void else (unseen & SUIT_MASK[led]).bit_count()
        bs = b // 13
        if bs == led:
            hi = 0 if led_void else (unseen & HIGHER[b]).bit_count()
            p_hi = 1.0 - p_none(pool, hi, h)
            if led == trump or trump < 0:
                return p_hi
            p_void = p_none(pool, led_cards, h)
            trumps = 0 if vo >> trump & 1 else (unseen & SUIT_MASK[trump]).bit_count()
            return p_hi + p_void * (1.0 - p_none(max(pool - led_cards, h), trumps, h))
        # b is a trump on a side-suit lead: an over-ruff needs a void and a higher trump
        p_void = p_none(pool, led_cards, h)
        hi = 0 if vo >> trump & 1 else (unseen & HIGHER[b]).bit_count()
        return p_void * (1.0 - p_none(max(pool - led_cards, h), hi, h))

    def p_holds(self, c: int, led: int, seats: Sequence[int], keen: Sequence[float]) -> float:
        """The chance that ``c``, on top of the trick, is beaten by none of ``seats``."""
        p = 1.0
        for j in seats:
            k = keen[j]
            if k > 0.0:
                p *= 1.0 - k * self.p_beats(j, c, led)
        return p


def _scan(cards: Sequence[Mapping[str, Any]], voids: list[int]) -> int:
    """The cards of a (partial) trick as a bit set; marks the seats that showed a void."""
    mask = 0
    led = -1
    for e in cards:
        c = CARD[e["card"]]
        mask |= 1 << c
        if led < 0:
            led = c // 13
        elif c // 13 != led:
            voids[e["seat"]] |= 1 << led
    return mask


def access(seen: Seen, c: int, tricks: int, first: float) -> float:
    """The chance that side card ``c`` gets played in a trick led in its own suit or led by this
    seat, within ``tricks`` tricks (``first``: that chance for the first of them, or -1 for the
    usual per-trick chance). A trump can always be played to win (void in the led suit, or on
    the last trick) so its chance is 1; a side card loses when another suit is led and it is
    the card left to play."""
    s = c // 13
    if s == seen.trump or tricks <= 0:
        return 1.0 if tricks > 0 or s == seen.trump else 0.0
    unseen = seen.unseen
    total = unseen.bit_count()
    sigma = (unseen & SUIT_MASK[s]).bit_count() / total if total else 0.25
    pi = 1.0 / seen.n + (1.0 - 1.0 / seen.n) * sigma
    miss = (1.0 - (pi if first < 0 else first)) * (1.0 - pi) ** (tricks - 1)
    return 1.0 - miss


# ------------------------------------------------------------------------------------ Hell
KEEN_NEED: Final = 0.9
"""How keen an opponent who still needs tricks is to beat a card."""
KEEN_MADE: Final = 0.2
"""... and one who has made (or passed) its bid: it beats a card only when it cannot duck."""
KEEN_UNKNOWN: Final = 0.7
"""... an opponent whose bid is not known yet (bidding)."""
RUFF_BONUS: Final = 0.45
"""Bidding: the chance that a spare trump wins a trick by ruffing a side suit the hand lacks."""
BREAK_WEIGHT: Final = 1.0
"""Points per trick taken from (or left to) an opponent for whom that trick is bad."""


class BidPlayBot:
    """The shape of a bot for a game of bids then tricks: ``choose`` sends the ``bid`` and
    ``play`` phases to :meth:`_bid` and :meth:`_play`, and falls back to the first legal action
    on a view it cannot read (never an illegal move)."""

    name = "heuristic"

    def choose(self, view: View, legal: Sequence[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        try:
            if view["phase"] == "bid":
                return self._bid(view, legal)
            if view["phase"] == "play":
                return self._play(view, legal)
        except (KeyError, TypeError, ValueError):  # an unexpected view: never an illegal move
            pass
        return legal[0]

    def _bid(self, view: View, legal: Sequence[str]) -> str:
        raise NotImplementedError

    def _play(self, view: View, legal: Sequence[str]) -> str:
        raise NotImplementedError


class HellHeuristic(BidPlayBot):
    """Bids its expected tricks, then plays to make the bid exactly (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int = 0, break_weight: float = BREAK_WEIGHT) -> None:
        self.seed = seed
        self.break_weight = break_weight

    # ------------------------------------------------------------------ scoring
    @staticmethod
    def _scorer(view: View) -> tuple[int, int, int]:
        r = view["rules"]
        return int(r["exact_base"]), int(r["exact_per_trick"]), int(r["miss_per_trick"])

    @staticmethod
    def _expected(
        dist: Sequence[float], bid: int, won: int, scoring: tuple[int, int, int]
    ) -> float:
        base, per, miss = scoring
        total = 0.0
        for t, p in enumerate(dist):
            got = won + t
            total += p * (base + per * bid if got == bid else miss * abs(bid - got))
        return total

    # ------------------------------------------------------------------ bidding
    def hand_chances(self, view: View) -> list[float]:
        """Bidding: each card's chance of taking a trick (see the module docstring)."""
        trump = CARD[view["upcard"]] // 13
        seen = Seen(view, ALL_CARDS, trump, known=1 << CARD[view["upcard"]])
        n = seen.n
        bids = view["bids"]
        keen = [
            KEEN_UNKNOWN if bids[s] is None else (KEEN_MADE if bids[s] == 0 else KEEN_NEED)
            for s in range(n)
        ]
        for s in range(n):
            if seen.sizes[s] == 1:
                keen[s] = 1.0  # a single card is played, whatever its owner wants
        opps = seen.opponents()
        cards = len(seen.hand)
        first = 1.0 if view["dealer"] == seen.me else -1.0
        ps = [
            seen.p_holds(c, c // 13, opps, keen) * access(seen, c, cards, first) for c in seen.hand
        ]
        # spare trumps ruff the side suits the hand lacks (or is short in, with many cards)
        if cards >= 2:
            spare = sorted(
                (i for i, c in enumerate(seen.hand) if c // 13 == trump and ps[i] < 0.5),
                key=lambda i: ps[i],
            )
            short = 0
            for s in range(4):
                if s == trump:
                    continue
                k = (seen.hand_mask & SUIT_MASK[s]).bit_count()
                if k == 0:
                    short += 2 if cards >= 5 else 1
                elif k == 1 and cards >= 6:
                    short += 1
            bonus = RUFF_BONUS * min(1.0, (n - 1) / 4 + 0.25)
            for i in reversed(spare):
                if short <= 0:
                    break
                ps[i] = max(ps[i], bonus)
                short -= 1
        return ps

    def _bid(self, view: View, legal: Sequence[str]) -> str:
        dist = poisson_binomial(self.hand_chances(view))
        scoring = self._scorer(view)
        best = legal[0]
        best_v = float("-inf")
        for a in legal:
            k = int(a.split()[1])
            v = self._expected(dist, k, 0, scoring)
            if v > best_v + 1e-9:
                best, best_v = a, v
        return best

    # ------------------------------------------------------------------ play
    def _play(self, view: View, legal: Sequence[str]) -> str:
        trump = CARD[view["upcard"]] // 13
        seen = Seen(view, ALL_CARDS, trump, known=1 << CARD[view["upcard"]])
        me, n = seen.me, seen.n
        bids: list[int] = [int(b) for b in view["bids"]]
        won: list[int] = list(view["tricks_won"])
        need = [bids[s] - won[s] for s in range(n)]
        keen = [
            1.0 if seen.sizes[s] == 1 else KEEN_NEED if need[s] > 0 else KEEN_MADE for s in range(n)
        ]
        keen[me] = 0.0
        scoring = self._scorer(view)
        later = seen.later()
        opps = seen.opponents()
        # the chance that each card in hand wins a later trick, led against everyone left
        left = len(seen.hand) - 1
        future = {
            c: seen.p_holds(c, c // 13, opps, keen) * access(seen, c, left, -1.0) for c in seen.hand
        }
        best_card, best_seat, led = seen.best, seen.best_seat, seen.led
        best_a = legal[0]
        best_v = float("-inf")
        for a in legal:
            c = CARD[a[5:]]
            if led < 0:
                pw = seen.p_holds(c, c // 13, later, keen)
            elif beats(c, best_card, led, trump):
                pw = seen.p_holds(c, led, later, keen)
            else:
                pw = 0.0
            rest = [future[x] for x in seen.hand if x != c]
            dist = poisson_binomial([pw, *rest])
            v = self._expected(dist, bids[me], won[me], scoring)
            if pw > 0.0 and best_seat >= 0:
                # break the others: take a trick its current winner needs, not one it dreads
                v += self.break_weight * pw * (1.0 if need[best_seat] > 0 else -1.0)
            # tie-break: keep the stronger cards (a small preference for playing low)
            v -= 1e-6 * (c % 13 + (13 if c // 13 == trump else 0))
            if v > best_v:
                best_a, best_v = a, v
        return best_a


def make_hell_bot(seed: int) -> HellHeuristic:
    """The ``heuristic`` bot for Hell (used by the ``heuristic`` factory)."""
    return HellHeuristic(seed)
