"""The ``heuristic`` bot for Napoleon: hand-strength bidding, strongest missing adjutant card,
sensible discards, and trick play that takes honor-rich tricks, feeds a known partner and keeps
Mighty for tricks worth it. It reads only ``view(seat)`` and the legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from torampu.bots.base import Bot, BotError, View, register
from torampu.cards import HONORS, card_str, parse_card

SUITS = "SHDC"
_OTHER_JACK = {"S": "C", "C": "S", "H": "D", "D": "H"}
_RANKS = "23456789TJQKA"


def _rank(card: str) -> int:
    return 13 if card == "JK" else _RANKS.index(card[0])


def _is_honor(card: str) -> bool:
    return card != "JK" and bool(HONORS >> parse_card(card) & 1)


def specials(trump: str | None) -> list[str]:
    """Mighty, 正J, 裏J of a contract, strongest first."""
    if trump is None or trump == "N":
        return ["AS"]
    return ["AS", "J" + trump, "J" + _OTHER_JACK[trump]]


def strength(card: str, trump: str | None, led: str | None, view: View, led_card: str) -> int:
    """A simplified strength of ``card`` in a trick (Mighty > 正J > 裏J > trumps > led suit)."""
    rules = view["rules"]
    sp = specials(trump)
    if card == "JK":
        mode = rules["joker_mode"]
        if mode == "trump_top":
            return 1000 if not view.get("call") else 0
        if led_card == "JK" and card == led_card:
            return 950 if mode == "request_strong" else 500
        return 0
    if card in sp:
        return 900 - 100 * sp.index(card)
    first = not view["tricks"]
    if card[1] == trump and (rules["first_trick_trumps"] or not first or led == trump):
        return 200 + _rank(card)
    if card[1] == led:
        return 100 + _rank(card)
    return 0


class NapoleonHeuristic:
    """A rule-of-thumb Napoleon player (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------ decisions
    def choose(self, view: View, legal: Sequence[str]) -> str:
        phase = view["phase"]
        if phase == "bid":
            return self._bid(view, legal)
        if phase == "adjutant":
            return self._adjutant(view, legal)
        if phase == "exchange":
            return self._discard(view, legal)
        return self._play(view, legal)

    # ------------------------------------------------------------------ bidding
    def estimate(self, hand: Sequence[str], trump: str, rules: View) -> float:
        """Honors the army may take with ``trump``: specials, trump length, high cards."""
        score = 0.0
        sp = specials(trump)
        for i, c in enumerate(sp):
            if c in hand:
                score += (3.0, 2.5, 2.0)[i]
        if "JK" in hand:
            score += 2.5
        if trump != "N":
            trumps = [c for c in hand if c != "JK" and c[1] == trump and c not in sp]
            score += 0.9 * len(trumps) + sum(0.6 for c in trumps if c[0] in "AKQ")
        else:
            score += sum(1.2 for c in hand if c[0] == "A" and c != "AS")
        score += sum(0.8 for c in hand if c[0] == "A" and c[1] != trump and c != "AS")
        return 7.0 + score

    def _bid(self, view: View, legal: Sequence[str]) -> str:
        hand = view["hand"]
        suits = list(SUITS) + (["N"] if view["rules"]["no_trump"] else [])
        best = max(suits, key=lambda s: (self.estimate(hand, s, view["rules"]), -suits.index(s)))
        est = int(self.estimate(hand, best, view["rules"]))
        for a in legal:
            if a.startswith("bid ") and a[4:-1].isdigit():
                count, suit = int(a[4:-1]), a[-1]
                if suit == best and count <= min(est, 20):
                    return a
        return "pass"

    # ------------------------------------------------------------------ adjutant and exchange
    def _adjutant(self, view: View, legal: Sequence[str]) -> str:
        hand = set(view["hand"])
        trump = view["trump"]
        order = []
        if view["rules"]["jokers"] and view["rules"]["joker_mode"] != "request_weak":
            order.append("JK")
        order += specials(trump)
        if trump and trump != "N":
            order += [r + trump for r in "AKQT98765432"]
        order += ["A" + s for s in SUITS]
        for c in order:
            if c not in hand and f"adjutant {c}" in legal:
                return f"adjutant {c}"
        return next(a for a in legal if a.startswith("adjutant"))

    def keep_value(self, card: str, trump: str | None, counts: dict[str, int]) -> float:
        if card == "JK" or card in specials(trump):
            return 1000
        if card[1] == trump:
            return 300 + _rank(card)
        v = float(_rank(card))
        if card[0] == "A":
            v += 100
        if _is_honor(card):
            v += 40  # discarded honors are shown and count for the allies
        return v - 3 * counts.get(card[1], 0) + 20 * (counts.get(card[1], 0) > 3)

    def _discard(self, view: View, legal: Sequence[str]) -> str:
        hand: list[str] = list(view["hand"])
        trump = view["trump"]
        k = len(legal[0].split()) - 1
        counts = {s: sum(1 for c in hand if c != "JK" and c[1] == s) for s in SUITS}
        ranked = sorted(hand, key=lambda c: self.keep_value(c, trump, counts))
        want = frozenset(card_str(parse_card(c)) for c in ranked[:k])
        for a in legal:
            if frozenset(a.split()[1:]) == want:
                return a
        return legal[0]

    # ------------------------------------------------------------------ play
    def _partners(self, view: View) -> set[int]:
        me, nap, adj = view["seat"], view["napoleon"], view["adjutant"]
        n = view["players"]
        army = {nap} | ({adj} if adj is not None else set())
        holds_adj = view["adjutant_card"] in view["hand"] or adj == me
        if me == nap or holds_adj:
            return army - {me}
        allies = set(range(n)) - {nap} - ({adj} if adj is not None else set())
        return allies - {me}

    def _play(self, view: View, legal: Sequence[str]) -> str:
        cards = [a.split()[1] for a in legal]
        calls = [a for a in legal if a.endswith(" call")]
        trick = view["trick"]
        trump = view["trump"]
        if not trick:
            return self._lead(view, legal, cards, calls)
        led_card = trick[0]["card"]
        led = (
            trump
            if led_card == "JK" and trump != "N"
            else (led_card[1] if led_card != "JK" else None)
        )
        if led_card in specials(trump)[1:] and view["rules"]["ura_jack_suit"] == "trump":
            led = trump
        st = [strength(c["card"], trump, led, view, led_card) for c in trick]
        best_i = max(range(len(trick)), key=st.__getitem__)
        best_seat, best_st = trick[best_i]["seat"], st[best_i]
        honors = sum(1 for c in trick if _is_honor(c["card"]))
        last = len(trick) == view["players"] - 1
        partners = self._partners(view)
        mine = [(strength(c, trump, led, view, led_card), c) for c in cards]
        winners = sorted((s, c) for s, c in mine if s > best_st)
        if best_seat in partners and (best_st >= 600 or last or best_st >= 212):
            # the partner holds the trick: feed it an honor if we can, else play low
            feed = [c for s, c in mine if _is_honor(c) and s < 600 and c != "JK"]
            if feed:
                return self._act(legal, max(feed, key=_rank))
            return self._act(legal, self._lowest(mine))
        if winners:
            s, c = winners[0]
            if s < 800 or honors >= 2 or (honors >= 1 and last):
                return self._act(legal, c)
        return self._act(legal, self._lowest(mine))

    def _lowest(self, mine: list[tuple[int, str]]) -> str:
        plain = [c for s, c in mine if not _is_honor(c) and c != "JK"] or [c for _, c in mine]
        return min(plain, key=lambda c: (_rank(c), c))

    def _lead(self, view: View, legal: Sequence[str], cards: list[str], calls: list[str]) -> str:
        trump = view["trump"]
        sp = specials(trump)
        me, nap = view["seat"], view["napoleon"]
        if calls and self.rng.random() < 0.5:
            return calls[0]
        if me == nap:
            for c in sp:
                if c in cards:
                    return self._act(legal, c)
            tr = [c for c in cards if c != "JK" and c[1] == trump]
            if len(tr) >= 2:
                return self._act(legal, max(tr, key=_rank))
        aces = [c for c in cards if c[0] == "A" and c != "AS" and c[1] != trump]
        if aces:
            return self._act(legal, aces[0])
        plain = [c for c in cards if not _is_honor(c) and c != "JK" and c[1] != trump]
        if plain:
            return self._act(legal, min(plain, key=_rank))
        return self._act(legal, min(cards, key=lambda c: (_rank(c), c)))

    @staticmethod
    def _act(legal: Sequence[str], card: str) -> str:
        action = f"play {card}"
        return action if action in legal else legal[0]


@register("heuristic")
def _heuristic(seed: int, game: str) -> Bot:
    if game != "napoleon":
        raise BotError(f"the heuristic bot plays napoleon, not {game!r} (yet)")
    return NapoleonHeuristic(seed)
