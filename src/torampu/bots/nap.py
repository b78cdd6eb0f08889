"""The ``heuristic`` bot for Nap (European Napoleon): it sees only ``view(seat)`` and the legal
action strings.

The card knowledge (hand, cards played, cards unseen, hand sizes, shown voids, the odds that a
seat can beat a card) is the Hell bot's :class:`~torampu.bots.hell.Seen`, on the Nap deck (the
``short`` deck when that option is on). Nap's defenders all want the declarer beaten, so every
opponent of the declarer beats a card whenever it can.

Bidding
-------
For every suit as trump, each card's chance of taking a trick when led: a trump is beaten only
by a higher trump out, a side card by a higher card of its suit or a ruff (opponents void in the
suit holding trumps); the more players and the shorter the deck, the more cards are out and the
lower the chances. A trump's chance rises with the trump length (the declarer leads trumps: once
the top trumps have drawn the opponents', the small ones win), a side card's rises when the
declarer holds the top trumps to draw the opponents' before cashing it. The tricks are summed as
independent trials (a Poisson-binomial distribution), which gives for each contract the chance of
making it; Misère's chance is the product, over the cards, of the chance that each is safe (an
opponent is forced to play over it — defenders play under it whenever they can — or it can be
thrown away on a void; a low card is safe, a high singleton is not). These chances are
calibrated against deals played out by the bot itself (the constants below): for 2 to 8
players and both decks, a contract estimated at ``p`` is made about ``p ± 0.15`` of the time.
The bot bids the legal contract with the best expected payment (``P × win + (1 − P) × loss``)
if that is positive, so Nap and Wellington (whose payments are lopsided) come only with
near-certain hands, and Misère only with all-low hands. With ``wellington_leads_lowest`` the
Wellington chance is taken with the suit of the lowest card as trump, and discounted.

Play
----
* **Declarer**: leads the highest card of its best suit (which makes it trump), then leads the
  card most likely to hold (top trumps first while the defenders may hold trumps, then side
  winners); with no likely winner it leads its lowest side card and keeps its trumps to ruff.
  Following, it wins with the card most likely to hold, the cheapest among equals, and plays
  its lowest card when it cannot expect to hold the trick.
* **Defenders** (a team): when the declarer has played and a defender's card is on top, they
  play low and never overtake; when the declarer's card is on top, they beat it with their
  cheapest card that does; when the declarer is still to play, they play the card that leaves
  the declarer the least chance to take the trick (the lowest among equals) — leading, that is
  a side ace or king the declarer cannot beat, else a card a defender after the declarer can
  cover.
* **Misère declarer**: plays to lose every trick: it leads the card least likely to win (low
  cards in suits where the defenders are likely to be forced over it), follows with its highest
  card that still loses, and discards its most dangerous card (the one most likely to win a
  trick later: high cards without low ones in their suit) when void.
* **Misère defenders**: force the declarer to win one: they lead low in suits the declarer still
  holds, play under the declarer's card (keeping their low cards for later), never cover a card
  the declarer must still beat, and throw high cards when the trick is already lost for that.

The bot keeps no memory between calls: everything is rebuilt from the view, so it works unchanged
across deals and matches. It is deterministic; the seed is kept for the interface.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from torampu.bots.base import View
from torampu.bots.hell import (
    CARD,
    HIGHER,
    LOWER,
    SUIT_MASK,
    BidPlayBot,
    Seen,
    beats,
    p_none,
    poisson_binomial,
)
from torampu.nap import BID_TRICKS, BIDS, MISERE, NAP, SHORT_DECK_LOW, WELLINGTON

TRUMP_FLOOR: Final = (0.0, 0.0, 0.65, 0.85, 0.9, 0.95)
TRUMP_FLOOR_EXP: Final = (0.0, 0.0, 0.5, 0.3, 0.2, 0.1)
"""Bidding: the least chance of a trump winning, by the number of trumps held ``t`` and of
opponents ``m``: ``TRUMP_FLOOR[t] × m ** -TRUMP_FLOOR_EXP[t]`` (measured: small trumps win by
ruffing, and once the top trumps have drawn the defenders')."""
SIDE_FLOOR: Final = 0.25
"""Bidding: a side card also wins ``SIDE_FLOOR × m ** -1.3`` of the time it otherwise would not
(the opponents run out of its suit and of trumps; measured)."""
MISERE_POWER: Final = 0.7
"""Bidding: the product of the cards' safety chances, raised to this power, is the Misère chance
(the product ignores that the declarer picks when to play each card; measured)."""
DRAW_BONUS: Final = 0.5
"""Bidding: share of the ruffing risk of side cards removed when the hand holds the top trump."""
LOWEST_WELLINGTON: Final = 0.6
"""Bidding: the discount of the Wellington chance when the declarer must play lowest cards."""
HOLD_MIN: Final = 0.3
"""Declarer: below this chance of holding the trick, play a low card rather than a winner."""
COVER_AFTER: Final = 0.6
"""Defender: the declarer's chance is scaled by this when a defender plays after it."""
BASE_STAKES: Final = ((2, -2), (3, -3), (3, -3), (4, -4), (10, -6))


def deck_mask(rules: Mapping[str, Any]) -> int:
    """The cards in play: the full deck, or the ``short`` deck for the player count."""
    low = SHORT_DECK_LOW[rules["players"]] if rules.get("deck") == "short" else 0
    mask = 0
    for c in range(52):
        if c % 13 >= low:
            mask |= 1 << c
    return mask


def stakes(rules: Mapping[str, Any], bid: int) -> tuple[int, int]:
    """A contract's [win, loss] per player."""
    if bid == WELLINGTON:
        w, lo = rules["wellington_points"]
        return int(w), int(lo)
    if bid > WELLINGTON:
        w, lo = rules["blucher_points"]
        return int(w), int(lo)
    return BASE_STAKES[bid]


def cost(c: int, trump: int) -> int:
    """How much a card is worth keeping: trumps above side cards, then by rank."""
    return c % 13 + (13 if c // 13 == trump else 0)


class NapHeuristic(BidPlayBot):
    """Bids from the hand's trick chances and plays declarer, defender and Misère by rules of
    thumb (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    # ------------------------------------------------------------------ hand evaluation
    @staticmethod
    def seen(view: View, trump: int) -> Seen:
        return Seen(view, deck_mask(view["rules"]), trump)

    @staticmethod
    def trick_chances(seen: Seen) -> list[float]:
        """Each card's chance of taking a trick with ``seen.trump`` as trump, before play."""
        trump = seen.trump
        opps = seen.opponents()
        keen = [1.0] * seen.n
        hand = seen.hand
        trumps = [c for c in hand if c // 13 == trump]
        top = bool(trumps) and not seen.unseen & HIGHER[max(trumps)]
        m = max(1, len(opps))
        t = min(len(trumps), 5)
        floor = TRUMP_FLOOR[t] * m ** -TRUMP_FLOOR_EXP[t]
        side = SIDE_FLOOR * m**-1.3
        out = []
        for c in hand:
            p = seen.p_holds(c, c // 13, opps, keen)
            if c // 13 == trump:
                p = max(p, floor)
            elif top:
                # the declarer draws trumps first: only a higher card of the suit is a danger
                p += DRAW_BONUS * max(0.0, _p_no_higher(seen, c, opps) - p)
            if c // 13 != trump:
                p += side * (1.0 - p)
            out.append(p)
        return out

    def contract_chances(self, view: View, trump: int) -> list[float]:
        """The chance of taking at least k tricks, k = 0..5, with ``trump`` as trump."""
        dist = poisson_binomial(self.trick_chances(self.seen(view, trump)))
        out = []
        acc = 0.0
        for k in range(len(dist) - 1, -1, -1):
            acc += dist[k]
            out.append(acc)
        out.reverse()
        while len(out) < 6:
            out.append(0.0)
        return out

    @staticmethod
    def misere_chance(seen: Seen) -> float:
        """The chance of losing every trick with no trumps: each card must be safe."""
        p = 1.0
        voids = sum(1 for s in range(4) if not seen.hand_mask & SUIT_MASK[s])
        dangers = sorted(1.0 - _p_safe(seen, c) for c in seen.hand)
        # a void lets the declarer throw its most dangerous cards on the defenders' leads
        for d in dangers[: len(dangers) - voids] if voids else dangers:
            p *= 1.0 - d
        for d in dangers[len(dangers) - voids :] if voids else []:
            p *= 1.0 - 0.55 * d
        return float(p**MISERE_POWER)

    def bid_chances(self, view: View) -> dict[int, float]:
        """The chance of making each contract (its best trump suit for each)."""
        rules = view["rules"]
        per_suit = [self.contract_chances(view, s) for s in range(4)]
        out = {
            b: max(ch[BID_TRICKS[b]] for ch in per_suit) for b in range(len(BIDS)) if b != MISERE
        }
        out[MISERE] = self.misere_chance(self.seen(view, -1))
        if rules.get("wellington_leads_lowest"):
            hand = [CARD[s] for s in view["hand"]]
            low = min(c % 13 for c in hand)
            suits = {c // 13 for c in hand if c % 13 == low}
            out[WELLINGTON] = max(per_suit[s][5] for s in suits) * LOWEST_WELLINGTON
        return out

    # ------------------------------------------------------------------ bidding
    def _bid(self, view: View, legal: Sequence[str]) -> str:
        chances = self.bid_chances(view)
        rules = view["rules"]
        best = "pass"
        best_v = 0.0
        for a in legal:
            if a == "pass":
                continue
            b = BIDS.index(a.split()[1])
            p = chances.get(b, chances[NAP] if b > NAP else 0.0)
            win, loss = stakes(rules, b)
            v = p * win + (1.0 - p) * loss
            if v > best_v + 1e-9:
                best, best_v = a, v
        return best if best in legal else legal[0]

    # ------------------------------------------------------------------ play
    def _play(self, view: View, legal: Sequence[str]) -> str:
        cards = [CARD[a[5:]] for a in legal]
        decl = int(view["declarer"])
        me = int(view["seat"])
        misere = BIDS.index(view["contract"]) == MISERE
        if misere:
            seen = self.seen(view, -1)
            c = (
                self._misere_declarer(seen, cards)
                if me == decl
                else self._misere_defender(seen, cards, decl)
            )
        elif view["trump"] is None:  # the declarer's first lead chooses trump
            need = BID_TRICKS[BIDS.index(view["contract"])]
            suit = max(range(4), key=lambda s: (self.contract_chances(view, s)[need], -s))
            seen = self.seen(view, suit)
            mine = [c for c in cards if c // 13 == suit]
            c = max(mine) if mine else max(cards, key=lambda x: x % 13)
        else:
            seen = self.seen(view, "SHDC".index(view["trump"]))
            c = self._declarer(seen, cards) if me == decl else self._defender(seen, cards, decl)
        return "play " + _STR[c]

    @staticmethod
    def _declarer(seen: Seen, cards: list[int]) -> int:
        trump = seen.trump
        keen = [1.0] * seen.n
        later = seen.later()
        lowest = min(cards, key=lambda x: cost(x, trump))
        if seen.led < 0:
            scored = [(seen.p_holds(c, c // 13, later, keen), c) for c in cards]
            p, c = max(scored, key=lambda t: (round(t[0], 3), t[1] // 13 == trump, t[1] % 13))
            if p >= HOLD_MIN:
                return c
            side = [x for x in cards if x // 13 != trump]
            return min(side or cards, key=lambda x: cost(x, trump))
        winners = [c for c in cards if beats(c, seen.best, seen.led, trump)]
        if not winners:
            return lowest
        scored = [(seen.p_holds(c, seen.led, later, keen), c) for c in winners]
        p, c = max(scored, key=lambda t: (round(t[0], 3), -cost(t[1], trump)))
        return c if p >= HOLD_MIN else lowest

    @staticmethod
    def _defender(seen: Seen, cards: list[int], decl: int) -> int:
        trump = seen.trump
        played = {s for s, _ in seen.trick}
        lowest = min(cards, key=lambda x: cost(x, trump))
        if decl in played:
            if seen.best_seat != decl:
                return lowest  # a partner holds the trick: never overtake
            winners = [c for c in cards if beats(c, seen.best, seen.led, trump)]
            return min(winners, key=lambda x: cost(x, trump)) if winners else lowest
        later = seen.later()
        after = later.index(decl) < len(later) - 1  # a defender still plays after the declarer

        def risk(c: int) -> float:
            if seen.led < 0:
                top, led = c, c // 13
            elif beats(c, seen.best, seen.led, trump):
                top, led = c, seen.led
            else:
                top, led = seen.best, seen.led
            p = seen.p_beats(decl, top, led)
            return p * COVER_AFTER if after else p

        return min(cards, key=lambda c: (round(risk(c), 2), cost(c, trump)))

    @staticmethod
    def _misere_declarer(seen: Seen, cards: list[int]) -> int:
        if seen.led < 0:
            return min(cards, key=lambda c: (round(1.0 - _p_safe_lead(seen, c), 2), -(c % 13)))
        led, best = seen.led, seen.best
        if all(c // 13 != led for c in cards):  # void: throw the most dangerous card
            return min(cards, key=lambda c: (_p_safe(seen, c), -(c % 13)))
        under = [c for c in cards if c < best]
        if under:
            return max(under)  # the highest card that still loses
        if seen.later():
            return min(cards)  # someone after may be forced over it
        return max(cards)  # the trick is lost anyway: shed the highest

    @staticmethod
    def _misere_defender(seen: Seen, cards: list[int], decl: int) -> int:
        played = {s for s, _ in seen.trick}
        if seen.led < 0:
            return max(cards, key=lambda c: (round(_p_forced(seen, decl, c), 2), -(c % 13)))
        led, best = seen.led, seen.best
        follow = [c for c in cards if c // 13 == led]
        if not follow:
            return max(cards, key=lambda c: c % 13)  # keep the low cards to duck later
        under = [c for c in follow if c < best]
        if decl in played and seen.best_seat != decl:
            return max(follow)  # the declarer is safe this trick: shed a high card
        if under:
            return max(under)  # stay under the card on top (the declarer's, or one it must beat)
        return max(follow) if decl in played else min(follow)


_STR: Final = {c: s for s, c in CARD.items()}


def _p_no_higher(seen: Seen, c: int, opps: Sequence[int]) -> float:
    """The chance that no opponent holds a higher card of ``c``'s suit (ruffs ignored)."""
    hi = (seen.unseen & HIGHER[c]).bit_count()
    if not hi:
        return 1.0
    pool = seen.unseen.bit_count()
    held = sum(seen.sizes[j] for j in opps)
    return p_none(pool, hi, min(held, pool))


def _p_forced(seen: Seen, j: int, c: int) -> float:
    """Misère: the chance that seat ``j`` holds cards of ``c``'s suit, all higher than ``c``."""
    h = seen.sizes[j]
    if h <= 0 or seen.voids[j] >> (c // 13) & 1:
        return 0.0
    pool = seen.unseen.bit_count()
    lo = (seen.unseen & LOWER[c]).bit_count()
    hi = (seen.unseen & HIGHER[c]).bit_count()
    return max(0.0, p_none(pool, lo, h) - p_none(pool, lo + hi, h))


def _p_safe_lead(seen: Seen, c: int) -> float:
    """Misère: the chance that a led ``c`` loses (some defender is forced over it)."""
    p = 1.0
    for j in seen.opponents():
        p *= 1.0 - _p_forced(seen, j, c)
    return 1.0 - p


def _p_safe(seen: Seen, c: int) -> float:
    """Misère: the chance that ``c`` never wins a trick: it loses when led, or the declarer
    holds a lower card of its suit to play first, the lowest card being safe on others' leads."""
    below = (seen.hand_mask & LOWER[c]).bit_count()
    p = _p_safe_lead(seen, c)
    return min(1.0, p + 0.15 * below * (1.0 - p))


def make_nap_bot(seed: int) -> NapHeuristic:
    """The ``heuristic`` bot for Nap (used by the ``heuristic`` factory)."""
    return NapHeuristic(seed)
