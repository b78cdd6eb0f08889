"""The ``heuristic`` bot for Napoleon: a rule-of-thumb player that sees only ``view(seat)``.

* **Bidding**: for every trump suit (and no trump, when allowed) it estimates how many honors its
  army will take from its own hand (Mighty, 正J, 裏J, the joker, trump length and high trumps, side
  aces and kings, short suits to ruff, plus the widow and the adjutant), and bids the cheapest
  legal bid of its best suit that its estimate covers; otherwise it passes.
* **Adjutant**: names the strongest card it lacks (a strong joker, Mighty, 正J, 裏J, then the high
  trumps and the side aces); declares ``alone`` only with an overwhelming hand.
* **Exchange**: keeps trumps and specials, voids short side suits, and avoids discarding honors
  (they are shown and usually count for the allies). The choice is built directly.
* **Play**: every card is scored by what it wins now against what it is worth later. The bot
  tracks the cards still unseen and the suits each seat has shown void in, estimates who is on
  its side (the adjutant is a secret until its card appears), judges a trick exactly as the
  engine does (:class:`Contract` mirrors the strength rules: Mighty, the jacks, trumps, the led
  suit, joker modes and calls, killers, よろめき, same-two, no trumps on the first trick), and
  from that the chance that a card holds the trick. It takes honor-rich tricks, feeds honors to
  a partner whose card holds, ducks cheaply, keeps Mighty and the joker for tricks worth them,
  and as the Napoleon draws trumps.

The bot never touches a game object: only the JSON-safe view and the legal action strings. It is
deterministic (no randomness is used; the seed is kept for the interface).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Final

from torampu.bots.base import Bot, BotError, View, register
from torampu.cards import HONORS, JOKER, card_str
from torampu.napoleon import (  # the engine's strength scale and tables (pure helpers)
    LED_JOKER,
    MIGHTY,
    S_JOKER_TOP,
    S_SAME2,
    S_SAME2_TOP,
    S_YOROMEKI,
    strength_tables,
)
from torampu.trick import _MOVES_OF, _moves_of

# ------------------------------------------------------------------------------------ cards
JK: Final = JOKER
QH: Final = 1 * 13 + 10
QD: Final = 2 * 13 + 10
QC: Final = 3 * 13 + 10
QS: Final = 0 * 13 + 10
NT: Final = 4
"""The trump 'suit' of a no-trump contract (and, in ``trump_top``, the joker's own suit)."""
NO_SUIT: Final = -1
SUIT_LETTERS: Final = "SHDC"
_OTHER_JACK_SUIT: Final = (3, 2, 1, 0)  # S<->C, H<->D

_STR: Final = [card_str(c) for c in range(53)]
_IDX: Final = {s: i for i, s in enumerate(_STR)}
_CANON_KEY: Final = [(c % 13) * 4 + c // 13 for c in range(52)] + [99]
"""The engine's order of cards in a ``discard`` action: rank 2..A, then suit S H D C, joker last."""


_HONOR: Final = [c != JK and bool(HONORS >> c & 1) for c in range(53)]


def is_honor(c: int) -> bool:
    """A K Q J T (the joker is no honor)."""
    return _HONOR[c]


def to_cards(strs: Sequence[str]) -> list[int]:
    return [_IDX[s] for s in strs]


def to_set(cards: Sequence[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def cards_in(s: int) -> list[int]:
    """The cards of set ``s`` in index order (memoized through the engine's table)."""
    if s >> 53 == 0:
        return list(_MOVES_OF.get(s) or _moves_of(s))
    out: list[int] = []
    while s:
        low = s & -s
        out.append(low.bit_length() - 1)
        s ^= low
    return out


# ------------------------------------------------------------------------------------ contract
class Contract:
    """How cards follow and win under one contract and rule set (mirrors the engine's judge)."""

    def __init__(self, rules: Mapping[str, Any], trump: str) -> None:
        t = NT if trump == "N" else SUIT_LETTERS.index(trump)
        self.trump = t
        self.sei = t * 13 + 9 if t < 4 else -1
        self.ura = _OTHER_JACK_SUIT[t] * 13 + 9 if t < 4 else -1
        self.specials = [MIGHTY] + ([self.sei, self.ura] if t < 4 else [])
        mode = rules["joker_mode"]
        self.jokers = bool(rules["jokers"])
        self.request = mode != "trump_top"
        self.strong = mode == "request_strong"
        self.low = mode == "request_lowest"
        self.led_joker = LED_JOKER.get(mode, S_JOKER_TOP)
        eff = [c // 13 for c in range(52)] + [NO_SUIT]
        if t < 4 and rules["ura_jack_suit"] == "trump":
            eff[self.ura] = t
        if not self.request:
            eff[JK] = t if t < 4 else NT
        self.eff = eff
        """The suit a card follows as (0..3, 4: the trump_top joker under no trump, -1: none)."""
        lead = list(eff)
        if self.request:
            lead[JK] = t if t < 4 else NO_SUIT
        self.lead = lead
        """The suit the others must follow when a card is led."""
        self.tab = strength_tables(t, self.sei, self.ura, True, self.request)
        self.tab_first = (
            self.tab
            if rules["first_trick_trumps"]
            else strength_tables(t, self.sei, self.ura, False, self.request)
        )
        self.killers = bool(rules["killers"])
        self.yoromeki = bool(rules["yoromeki"]) and not self.killers
        self.same_two = bool(rules["same_two"])
        self.same_two_first = bool(rules["same_two_first_trick"])
        self.same_two_top = bool(rules["same_two_beats_specials"])
        self.same_two_joker = rules["same_two_joker"] == "matches"
        self.modifiers = bool(rules["killers"] or rules["yoromeki"] or rules["same_two"])
        call = rules["joker_call"]
        self.call_card = -1 if call == "none" else _IDX[call]
        mask = [0, 0, 0, 0, 0]
        for c in range(52):
            if eff[c] >= 0:
                mask[eff[c]] |= 1 << c
        if eff[JK] >= 0:
            mask[eff[JK]] |= 1 << JK
        self.suit_mask = mask
        """Per suit (0..4), the cards that follow as that suit."""
        self._above: dict[tuple[bool, int, int], int] = {}
        self._evidence: dict[tuple[tuple[int, ...], tuple[int, ...], bool, int], list[float]] = {}

    def above(self, first: bool, led: int, top: int) -> int:
        """The set of cards whose plain strength (``tab``) under ``led`` exceeds ``top``."""
        key = (first, led, top)
        m = self._above.get(key)
        if m is None:
            tab = (self.tab_first if first else self.tab)[led]
            m = 0
            for x, v in enumerate(tab):
                if v > top:
                    m |= 1 << x
            self._above[key] = m
        return m

    def trick_evidence(
        self, cards: Sequence[int], seats: Sequence[int], first: bool, nap: int
    ) -> list[float]:
        """Per seat, the odds factor that it is the adjutant from one trick with the Napoleon
        (see :func:`adjutant_odds`); memoized, since every later decision reads the trick again."""
        key = (tuple(cards), tuple(seats), first, nap)
        ev = self._evidence.get(key)
        if ev is not None:
            return ev
        ev = [1.0] * (max(seats) + 1)
        for i in range(1, len(cards)):
            s = seats[i]
            if s == nap:
                continue
            before = self.winner(cards[:i], first, False)
            nap_winning = seats[before] == nap
            after = self.winner(cards[: i + 1], first, False)
            c = cards[i]
            off_suit = c != JK and self.eff[c] != self.lead[cards[0]]
            if nap_winning and after == i and seats.index(nap) < i:
                ev[s] *= 0.5  # took it off the Napoleon
            elif nap_winning and is_honor(c):
                ev[s] *= 3.0 if off_suit else 1.5
            elif not nap_winning and is_honor(c) and off_suit:
                ev[s] *= 0.6
        if len(self._evidence) >= _MEMO_LIMIT:
            self._evidence.clear()
        self._evidence[key] = ev
        return ev

    def strengths(self, cards: Sequence[int], first: bool, call: bool) -> list[int]:
        """The strength of every card of a (possibly partial) trick; the first maximum wins."""
        led = self.lead[cards[0]]
        tab = (self.tab_first if first else self.tab)[led]
        st = [tab[c] for c in cards]
        if JK in cards:
            ji = cards.index(JK)
            if ji == 0 and self.request:
                st[0] = self.led_joker
            elif ji > 0 and call:
                st[ji] = 0
        if self.modifiers:
            self._modify(cards, st, led, first)
        return st

    def winner(self, cards: Sequence[int], first: bool, call: bool) -> int:
        """Index (in play order) of the card that wins (or is winning) the trick."""
        st = self.strengths(cards, first, call)
        return st.index(max(st))

    def _modify(self, cards: Sequence[int], st: list[int], led: int, first: bool) -> None:
        if self.killers:
            kills: list[tuple[int, int, int]] = []
            for killer, victim in ((QH, MIGHTY), (QD, self.sei), (QC, self.ura)):
                if victim >= 0 and killer in cards and victim in cards:
                    ki, vi = cards.index(killer), cards.index(victim)
                    kills.append((st[vi], ki, victim))
                    st[ki] = st[vi]
                    st[vi] = 0
            if kills and QS in cards:
                best = max(kills)
                qi = cards.index(QS)
                st[qi] = best[0]
                st[best[1]] = 0
        elif self.yoromeki and QH in cards and MIGHTY in cards:
            st[cards.index(QH)] = S_YOROMEKI
        if self.same_two and 0 <= led < 4 and (self.same_two_first or not first):
            two = led * 13
            if two in cards:
                eff = self.eff
                jk_ok = self.same_two_joker and (self.request or eff[JK] == led)
                if all(eff[c] == led if c != JK else jk_ok for c in cards):
                    st[cards.index(two)] = S_SAME2_TOP if self.same_two_top else S_SAME2


_CONTRACTS: dict[tuple[Any, ...], Contract] = {}
_MEMO_LIMIT: Final = 1 << 16
"""Entries a contract's trick memo holds before it starts again (memory stays bounded)."""
_RULE_KEYS: Final = (
    "jokers",
    "joker_mode",
    "ura_jack_suit",
    "first_trick_trumps",
    "killers",
    "yoromeki",
    "same_two",
    "same_two_first_trick",
    "same_two_beats_specials",
    "same_two_joker",
    "joker_call",
)


def contract_for(rules: Mapping[str, Any], trump: str) -> Contract:
    """The (memoized) :class:`Contract` of ``trump`` under ``rules``."""
    key = (trump, *(rules[k] for k in _RULE_KEYS))
    c = _CONTRACTS.get(key)
    if c is None:
        c = _CONTRACTS[key] = Contract(rules, trump)
    return c


def view_tricks(view: View) -> list[tuple[list[int], list[int]]]:
    """The view's tricks, closed ones and then the current one if begun, as (cards, seats)."""
    out = [
        ([_IDX[x["card"]] for x in t["cards"]], [x["seat"] for x in t["cards"]])
        for t in view["tricks"]
    ]
    if view.get("trick"):
        out.append(([_IDX[x["card"]] for x in view["trick"]], [x["seat"] for x in view["trick"]]))
    return out


def adjutant_odds(
    ct: Contract, tricks: Sequence[tuple[Sequence[int], Sequence[int]]], nap: int, n: int
) -> list[float]:
    """Odds factors that each seat is the adjutant, from how it treated the Napoleon's tricks
    (``tricks`` in play order, the first trick first; see :meth:`Contract.trick_evidence`).

    Putting an honor on a trick the Napoleon is winning smells of the adjutant; taking a trick
    off the Napoleon, or giving honors to another seat's trick, of an ally. The Napoleon's own
    factor stays 1.
    """
    ev = [1.0] * n
    for k, (cards, seats) in enumerate(tricks):
        if nap not in seats:
            continue
        for s, f in enumerate(ct.trick_evidence(cards, seats, k == 0, nap)):
            if f != 1.0:
                ev[s] *= f
    return ev


def deck_set(rules: Mapping[str, Any]) -> int:
    out = (1 << 52) - 1
    for s in rules["removed_cards"]:
        out &= ~(1 << _IDX[s])
    if rules["jokers"]:
        out |= 1 << JK
    return out


# ------------------------------------------------------------------------------------ bidding
_BID_BASE: Final = {4: 9.1, 5: 7.1, 6: 6.9}
_BID_SCALE: Final = {4: 0.8, 5: 1.0, 6: 1.15}


def hand_estimate(hand: Sequence[int], trump: str, rules: Mapping[str, Any], players: int) -> float:
    """Honors the army may expect to take if this hand is the Napoleon's with ``trump``.

    A linear fit to the honors this bot's armies took in forced contracts (thousands of deals
    per player count and joker mode); the residual spread is about 3.3 honors.
    """
    ct = contract_for(rules, trump)
    t = ct.trump
    hs = to_set(hand)
    score = 0.0
    if hs >> MIGHTY & 1:
        score += 1.5
    if t < 4:
        score += 1.65 * (hs >> ct.sei & 1) + 1.3 * (hs >> ct.ura & 1)
    if hs >> JK & 1:
        score += 0.7 if not ct.request else (0.8 if ct.strong else 0.3 if ct.low else 0.7)
        if not ct.request:
            score += 0.8
    n_tr = 0
    if t < 4:
        trumps = [c for c in hand if c != JK and ct.eff[c] == t and c not in ct.specials]
        ranks = {c % 13 for c in trumps}
        score += 0.45 * len(trumps)
        score += 0.85 * (12 in ranks) + 0.65 * (11 in ranks) + 0.6 * (10 in ranks)
        score += 0.5 * (8 in ranks)
        n_tr = len(trumps) + (hs >> ct.sei & 1) + (hs >> ct.ura & 1)
        n_tr += hs >> MIGHTY & 1 and t == 0
        score += 0.1 * max(0, n_tr - 3) ** 1.5
    for s in range(4):
        if s == t:
            continue
        suit = [c % 13 for c in hand if c != JK and ct.eff[c] == s and c != MIGHTY]
        if 12 in suit:
            score += 0.75 + 0.25 * (11 in suit)
        elif 11 in suit and len(suit) >= 2:
            score += 0.2
        if t < 4 and n_tr >= 3:
            score += 0.3 if not suit else (0.2 if len(suit) == 1 else 0.0)
        if t == NT:
            score += 0.15 * max(0, len(suit) - 4)
    base = _BID_BASE.get(players, 7.1) + (1.25 if t == NT else 0.0)
    if ct.jokers:
        base += -0.5 if not ct.request else (0.4 if ct.strong else 0.0)
    return base + _BID_SCALE.get(players, 1.0) * score


# ------------------------------------------------------------------------------------ the bot
class NapoleonHeuristic:
    """A rule-of-thumb Napoleon player (see the module docstring)."""

    name = "heuristic"

    margin = 0.0
    """Honors kept in hand as a safety margin when bidding."""
    play_class: type[_Play]
    """The play-phase scorer (a subclass may tune its weights)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: View, legal: Sequence[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase == "bid":
            choice = self._bid(view, legal)
        elif phase == "adjutant":
            choice = self._adjutant(view, legal)
        elif phase == "exchange":
            choice = self._discard(view, legal)
        else:
            choice = self.play_class(view).choose(legal)
        return choice if choice in legal else legal[0]

    # ------------------------------------------------------------------ bidding
    def bid_limits(self, view: View) -> dict[str, int]:
        """The highest count this hand would bid in every suit."""
        rules = view["rules"]
        hand = to_cards(view["hand"])
        suits = "CDHS" + ("N" if rules["no_trump"] else "")
        return {s: int(hand_estimate(hand, s, rules, view["players"]) - self.margin) for s in suits}

    def _bid(self, view: View, legal: Sequence[str]) -> str:
        if view.get("high_bidder") == view["seat"]:
            return "pass"  # never outbid ourselves
        limits = self.bid_limits(view)
        best: tuple[int, int, str] | None = None
        for a in legal:
            if not a.startswith("bid "):
                continue
            count, suit = int(a[4:-1]), a[-1]
            room = limits.get(suit, -1) - count
            if room < 0:
                continue
            key = (room, -count, a)
            # the cheapest bid of the suit with the most room
            if best is None or key > best:
                best = key
        return "pass" if best is None else best[2]

    # ------------------------------------------------------------------ adjutant
    def adjutant_order(self, view: View) -> list[int]:
        """Cards to name as adjutant, the strongest first."""
        rules = view["rules"]
        ct = contract_for(rules, view["trump"])
        t = ct.trump
        order: list[int] = []
        if ct.jokers and not ct.request:
            order.append(JK)
        order += ct.specials
        if ct.jokers and ct.strong:
            order.append(JK)
        hand = set(to_cards(view["hand"]))
        if t < 4:
            order += [t * 13 + r for r in (12, 11, 10)]
        # side aces: of the longest side suits first (they help most where we are long)
        sides = [s for s in range(4) if s != t]
        sides.sort(key=lambda s: -sum(1 for c in hand if c != JK and c // 13 == s))
        order += [s * 13 + 12 for s in sides if s * 13 + 12 != MIGHTY]
        if t < 4:
            order += [t * 13 + r for r in (8, 7, 6, 5, 4, 3, 2, 1, 0)]
        order += [s * 13 + 11 for s in sides]
        if ct.jokers and ct.request and not ct.strong:
            order.append(JK)
        return order

    def _adjutant(self, view: View, legal: Sequence[str]) -> str:
        rules = view["rules"]
        hand = set(to_cards(view["hand"]))
        if "alone" in legal:
            ct = contract_for(rules, view["trump"])
            top = list(ct.specials)
            if ct.jokers and (not ct.request or ct.strong):
                top.append(JK)
            count = int(view["contract"][:-1])
            est = hand_estimate(sorted(hand), view["trump"], rules, view["players"])
            if all(c in hand for c in top) and est - 2.5 >= count:
                return "alone"
        for c in self.adjutant_order(view):
            a = "adjutant " + _STR[c]
            if c not in hand and a in legal:
                return a
        return next(a for a in legal if a.startswith("adjutant "))

    # ------------------------------------------------------------------ exchange
    def _discard(self, view: View, legal: Sequence[str]) -> str:
        rules = view["rules"]
        ct = contract_for(rules, view["trump"])
        t = ct.trump
        hand = to_cards(view["hand"])
        k = len(legal[0].split()) - 1
        # a discarded honor goes to the allies, to nobody, or is banked for the army
        honors_cost = {"allies": 1.0, "nobody": 0.5, "napoleon": -0.2}[rules["discarded_honors"]]
        adj = view.get("adjutant_card")
        by_suit: dict[int, list[int]] = {s: [] for s in range(4)}
        keep_always: list[int] = []
        for c in hand:
            s = ct.eff[c]
            # keep the named card too: discarding it (if shown) would tell that we are alone
            if c == JK or c in ct.specials or s == t or (adj is not None and _STR[c] == adj):
                keep_always.append(c)
            else:
                by_suit[s].append(c)
        n_trumps = len(keep_always)

        def cost(c: int) -> float:
            r = c % 13
            suit = by_suit[ct.eff[c]]
            v = 0.02 * r
            if is_honor(c):
                v += honors_cost
                if r == 12:
                    v += 1.5
                elif r == 11 and any(x % 13 == 12 for x in suit):
                    v += 0.8
                elif r == 11 and len(suit) >= 3:
                    v += 0.3
            return v

        void_bonus = 0.9 if t < 4 and n_trumps >= 3 else 0.0
        side = [s for s in range(4) if by_suit[s]]
        best: tuple[float, list[int]] | None = None
        for m in range(len(side) + 1):
            for voided in combinations(side, m):
                out = [c for s in voided for c in by_suit[s]]
                if len(out) > k:
                    continue
                rest = sorted(
                    (c for s in side if s not in voided for c in by_suit[s]),
                    key=lambda c: (cost(c), len(by_suit[ct.eff[c]]), c),
                )
                need = k - len(out)
                if need > len(rest):
                    # not enough side cards: add the weakest trumps
                    extra = sorted(keep_always, key=lambda c: self._keep_rank(ct, c))
                    out = out + rest + extra[: need - len(rest)]
                    total = 100.0 + sum(cost(c) for c in rest)
                else:
                    out = out + rest[:need]
                    total = sum(cost(c) for c in out)
                    # a suit emptied by the fill counts as voided too
                    emptied = sum(
                        1 for s in side if s not in voided and all(c in out for c in by_suit[s])
                    )
                    total -= void_bonus * (len(voided) + emptied)
                if best is None or total < best[0] - 1e-9:
                    best = (total, out)
        assert best is not None
        chosen = sorted(best[1], key=_CANON_KEY.__getitem__)
        action = "discard " + " ".join(_STR[c] for c in chosen)
        return action

    @staticmethod
    def _keep_rank(ct: Contract, c: int) -> int:
        if c == JK:
            return 100
        if c in ct.specials:
            return 90 - ct.specials.index(c)
        return c % 13


# ------------------------------------------------------------------------------------ play
class _Play:
    """One play decision: what the seat knows, and the scoring of its legal cards."""

    extra = 0.25
    """Honors each later player is expected to add to a trick."""
    later_side = 0.45
    """The chance that an honor kept in hand ends up with our side when it cannot win itself."""
    feed = 0.35
    """Honors a partner is expected to feed to a trick we lead and hold."""
    forced = 0.3
    """Share of the led suit's unseen honors expected to fall on a lead."""
    draw = 0.15
    """The Napoleon's bonus per opposing trump (up to 4) for leading a holding trump."""
    part_trust = 1.0
    """How far to count on a later partner to beat the card winning a trick (it may not)."""

    def __init__(self, view: View) -> None:
        rules = view["rules"]
        self.view = view
        self.rules = rules
        ct = self.ct = contract_for(rules, view["trump"])
        self.n = n = view["players"]
        self.me = me = view["seat"]
        self.nap = nap = view["napoleon"]
        self.hand = to_cards(view["hand"])
        self.hand_set = to_set(self.hand)
        trick = view["trick"]
        self.trick = [_IDX[x["card"]] for x in trick]
        self.trick_seats = [x["seat"] for x in trick]
        self.first = not view["tricks"]
        self.call = bool(view.get("call"))
        played = to_set(self.trick)
        voids = [0] * n
        eff, lead = ct.eff, ct.lead
        led_count = [0] * 5
        all_tricks = view_tricks(view)
        for cards, seats in all_tricks:
            played |= to_set(cards)
            led = lead[cards[0]]
            if not 0 <= led < 4:
                continue
            led_count[led] += 1
            for c, s in zip(cards[1:], seats[1:], strict=False):
                if c != JK and eff[c] != led:
                    voids[s] |= 1 << led
        self.led_count = led_count
        self.evidence = self._evidence(all_tricks, nap)
        self.voids = voids
        self.played = played
        known_disc = to_set(to_cards(view.get("discards", [])))
        self.unknown = deck_set(rules) & ~self.hand_set & ~played & ~known_disc
        self.hidden = 0 if me == nap else view.get("discards_count", 0) - len(view["discards"])
        self.sizes = list(view["hand_sizes"])
        honors_out = (HONORS & ~played & ~known_disc).bit_count()
        if me != nap and rules["reveal_discards"] == "none":
            honors_out = (HONORS & ~played).bit_count()
        self.tricks_left = max(1, len(self.hand))
        self.per_trick = max(0.5, min(2.5, honors_out / self.tricks_left))
        self._team()
        self._holding_probs()

    # ------------------------------------------------------------------ who is who
    def _team(self) -> None:
        """``p[s]``: the chance that seat ``s`` is on this seat's side."""
        v = self.view
        n, me, nap = self.n, self.me, self.nap
        p = [0.0] * n
        p[me] = 1.0
        adj_str = v.get("adjutant_card")
        adj_card = _IDX[adj_str] if adj_str else -1
        adj = v.get("adjutant")
        alone = v.get("alone")
        self.army = me == nap or adj == me or (adj_card >= 0 and self.hand_set >> adj_card & 1)
        if me == nap:
            if alone:
                pass
            elif adj is not None:
                p[adj] = 1.0
            else:
                cands = self._adj_candidates(adj_card, exclude={me})
                weights = {s: self.sizes[s] * self.evidence[s] for s in cands}
                total = sum(weights.values())
                for s, w in weights.items():
                    p[s] = w / total
        elif self.army:
            p[nap] = 1.0
        else:
            for s in range(n):
                if s not in (me, nap):
                    p[s] = 1.0
            if alone or (adj is None and adj_card < 0):
                pass
            elif adj is not None:
                p[adj] = 0.0
            else:
                cands = self._adj_candidates(adj_card, exclude={me, nap})
                weights = {s: self.sizes[s] * self.evidence[s] for s in cands}
                # or in the hidden discards (a Napoleon rarely puts it back), or its own
                nobody = 0.3 * self.hidden + 0.2
                total = sum(weights.values()) + nobody
                for s, w in weights.items():
                    p[s] = 1.0 - w / total
        self.p = p

    def _evidence(self, all_tricks: list[tuple[list[int], list[int]]], nap: int) -> list[float]:
        """Odds factors that a seat is the adjutant (:func:`adjutant_odds`)."""
        return adjutant_odds(self.ct, all_tricks, nap, self.n)

    def _adj_candidates(self, card: int, exclude: set[int]) -> list[int]:
        out = []
        s_eff = self.ct.eff[card] if card >= 0 else NO_SUIT
        for s in range(self.n):
            if s in exclude:
                continue
            if 0 <= s_eff < 5 and self.voids[s] >> s_eff & 1:
                continue
            if self.sizes[s] == 0:
                continue
            out.append(s)
        return out or [s for s in range(self.n) if s not in exclude]

    # ------------------------------------------------------------------ where the cards are
    def _holding_probs(self) -> None:
        """``hold[s][suit]``: the chance that seat ``s`` holds a given unseen card of ``suit``."""
        n, me = self.n, self.me
        hold: list[list[float]] = [[0.0] * 6 for _ in range(n)]
        trump = self.ct.trump
        for suit in (0, 1, 2, 3, 4, NO_SUIT):
            bit = 1 << suit if suit >= 0 else 0
            weights = [0.0] * n
            for s in range(n):
                if s != me and not self.voids[s] & bit:
                    # the Napoleon chose the trumps: it holds more than its share
                    weights[s] = self.sizes[s] * (2.0 if s == self.nap and suit == trump else 1.0)
            total = sum(weights) + self.hidden
            if total <= 0:
                continue
            for s in range(n):
                hold[s][suit] = weights[s] / total
        self.hold = hold
        unknown_by_suit = [0] * 6
        for x in cards_in(self.unknown):
            unknown_by_suit[self.ct.eff[x]] += 1
        self.unknown_by_suit = unknown_by_suit

    def p_void(self, s: int, suit: int) -> float:
        """The chance that seat ``s`` holds no card of ``suit``."""
        if suit < 0 or suit == NT:
            return 1.0
        if self.voids[s] >> suit & 1:
            return 1.0
        return (1.0 - self.hold[s][suit]) ** self.unknown_by_suit[suit]

    # ------------------------------------------------------------------ trick judgement
    def beaters(self, cards: list[int], idx: int) -> list[int]:
        """Unseen cards that, played next, would beat the card at ``idx`` of ``cards``."""
        ct = self.ct
        first, call = self.first, self.call
        st = ct.strengths(cards, first, call)
        top = st[idx]
        led = ct.lead[cards[0]]
        if not ct.modifiers:
            # plain strengths: the unseen cards stronger than ``top`` (a called joker has none)
            stronger = self.unknown & ct.above(first, led, top)
            if call:
                stronger &= ~(1 << JK)
            return cards_in(stronger)
        out = []
        for x in cards_in(self.unknown):
            # x wins, or undoes our hold another way (e.g. breaks a same-two)
            if ct.winner([*cards, x], first, call) != idx:
                out.append(x)
        return out

    def hold_chances(self, cards: list[int], idx: int, later: list[int]) -> tuple[float, float]:
        """For the card at ``idx``: the chances that a later opponent / partner beats it."""
        if not later:
            return 0.0, 0.0
        bs = self.beaters(cards, idx)
        if not bs:
            return 0.0, 0.0
        ct = self.ct
        led = ct.lead[cards[0]]
        keep_opp = 1.0
        keep_part = 1.0
        eff = ct.eff
        by_suit: dict[int, int] = {}
        for x in bs:
            sx = eff[x]
            by_suit[sx] = by_suit.get(sx, 0) + 1
        any_suit = led in (NO_SUIT, NT)
        for s in later:
            pv = self.p_void(s, led)
            hold = self.hold[s]
            miss = 1.0
            for sx, k in by_suit.items():
                ph = hold[sx]
                if ph <= 0:
                    continue
                can = 1.0 if sx == led or any_suit else pv
                miss *= (1.0 - ph * can) ** k
            beat = 1.0 - miss
            keep_opp *= 1.0 - (1.0 - self.p[s]) * beat
            keep_part *= 1.0 - self.p[s] * beat * self.part_trust
        return 1.0 - keep_opp, 1.0 - keep_part

    # ------------------------------------------------------------------ what a card is worth later
    def future(self, c: int) -> float:
        """What holding ``c`` is worth in later tricks, in honors."""
        ct = self.ct
        t = ct.trump
        if len(self.hand) <= 1:
            return 0.0
        call_risk = (
            ct.call_card >= 0
            and not self.played >> JK & 1
            and bool(self.unknown >> ct.call_card & 1)
        )
        if c == JK:
            if not ct.request:
                p = 0.65 if call_risk else 0.95
            elif ct.strong:
                p = 0.5 if call_risk else 0.8
            else:
                live = [x for x in ct.specials if self.unknown >> x & 1]
                p = 0.5 if not live else 0.3
                if ct.low:  # the lowest trump: it wins only when nobody else has a trump
                    p *= 0.5
            return p * (self.per_trick + 0.5)
        if c == MIGHTY:
            danger = (ct.killers or ct.yoromeki) and bool(self.unknown >> QH & 1)
            p = 0.7 if danger else 0.97
        else:
            s = ct.eff[c]
            trumpish = s == t or c in ct.specials
            led = t if trumpish else s
            tab = ct.tab[led]
            mine = tab[c]
            higher = 0
            for x in cards_in(self.unknown):
                if tab[x] > mine:
                    higher += 1
            if trumpish:
                p = 0.92 * 0.5**higher
                if t < 4:
                    p = max(p, 0.3)
            else:
                ruff = 1.0
                if t < 4 and self.unknown_by_suit[t] + (1 if self.unknown >> JK & 1 else 0) > 0:
                    ruff = 0.8 ** (1 + self.led_count[s])
                p = 0.75 * 0.4**higher * ruff
        value = p * self.per_trick
        if is_honor(c):
            side = p + (1.0 - p) * self.later_side
            value += 2.0 * side - 1.0
        return value

    # ------------------------------------------------------------------ choosing
    def choose(self, legal: Sequence[str]) -> str:
        options: list[tuple[float, float, str]] = []
        if not self.trick:
            for a in legal:
                parts = a.split()
                c = _IDX[parts[1]]
                call = len(parts) == 3
                options.append((self.lead_value(c, call), -self._tiebreak(c), a))
        else:
            later = self._later()
            for a in legal:
                c = _IDX[a.split()[1]]
                options.append((self.follow_value(c, later), -self._tiebreak(c), a))
        return max(options)[2]

    def _tiebreak(self, c: int) -> float:
        """Among equals: the lower card, from the shorter side suit (towards a void)."""
        if c == JK:
            return 20.0
        s = self.ct.eff[c]
        length = sum(1 for x in self.hand if x != JK and self.ct.eff[x] == s)
        trump = 10.0 if s == self.ct.trump else 0.0
        return trump + c % 13 + 0.1 * length

    def _later(self) -> list[int]:
        k = len(self.trick)
        return [(self.me + i) % self.n for i in range(1, self.n - k)]

    def follow_value(self, c: int, later: list[int]) -> float:
        ct = self.ct
        cards = [*self.trick, c]
        idx = len(self.trick)
        w = ct.winner(cards, self.first, self.call)
        honors = sum(1 for x in cards if _HONOR[x])
        extra = self.extra * len(later)
        if w == idx:
            r_opp, _ = self.hold_chances(cards, idx, later)
            side = 1.0 - r_opp
        else:
            ws = self.trick_seats[w] if w < idx else self.me
            r_opp, r_part = self.hold_chances(cards, w, later)
            pw = self.p[ws]
            side = pw * (1.0 - r_opp) + (1.0 - pw) * r_part
        now = (2.0 * side - 1.0) * (honors + extra)
        return now - self.future(c)

    def lead_value(self, c: int, call: bool) -> float:
        ct = self.ct
        later = self._later()
        if call:
            saved = self.call
            self.call = True
            r_opp, _ = self.hold_chances([c], 0, later)
            self.call = saved
        else:
            r_opp, _ = self.hold_chances([c], 0, later)
        side = 1.0 - r_opp
        led = ct.lead[c]
        exp = 1.0 if is_honor(c) else 0.0
        # honors the others may have to put in
        if 0 <= led < 4:
            for x in cards_in(self.unknown & ct.suit_mask[led]):
                if is_honor(x) and x != c:
                    exp += self.forced * (1.0 - self.hidden / max(1, self.unknown.bit_count()))
        for s in later:
            exp += self.feed * self.p[s] * side  # partners feed a trick we hold
        value = (2.0 * side - 1.0) * exp - self.future(c)
        t = ct.trump
        if t < 4 and led == t and self.me == self.nap:
            # the Napoleon draws the opponents' trumps while it holds the top ones
            opp_trumps = self.unknown_by_suit[t]
            if opp_trumps and side > 0.6:
                value += self.draw * min(opp_trumps, 4)
        if call:
            # the called joker is spent for nothing: good when it is the other side's
            owner_side = 0.0
            total = 0.0
            for s in range(self.n):
                if s != self.me:
                    w = float(self.sizes[s])
                    owner_side += w * self.p[s]
                    total += w
            total += self.hidden
            p_part = owner_side / total if total else 0.0
            p_opp = 1.0 - p_part - (self.hidden / total if total else 0.0)
            jv = 1.5 if not ct.request else (1.1 if ct.strong else 0.5)
            value += (p_opp - p_part) * jv
        return value


NapoleonHeuristic.play_class = _Play


@register("heuristic")
def _heuristic(seed: int, game: str) -> Bot:
    if game == "nap":
        from torampu.bots.nap import make_nap_bot  # imported lazily: no import cycles

        return make_nap_bot(seed)
    if game == "hell":
        from torampu.bots.hell import make_hell_bot

        return make_hell_bot(seed)
    if game == "daifugo":
        from torampu.bots.daifugo import make_daifugo_bot

        return make_daifugo_bot(seed)
    if game != "napoleon":
        raise BotError(
            f"the heuristic bot plays napoleon, nap, hell and daifugo, not {game!r} (yet)"
        )
    return NapoleonHeuristic(seed)
