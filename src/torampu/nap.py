"""Nap (ナップ, European Napoleon), on the shared trick-taking core.

The rules (source 003; digest in ``spec/rules.md`` §2)
-----------------------------------------------------
2–8 players (4–5 best), 52 cards (``deck: short`` uses fewer), 5 cards each. From the dealer's
left, once round, each player bids or passes; a bid must beat the last one. Bids, lowest first,
with what the declarer is paid by each other player on success / pays each player on failure:
Two 2/−2, Three 3/−3, Misère 3/−3, Four 4/−4, Nap 10/−6, Wellington 20/−12 (only once someone has
bid Nap), Blücher (option ``blucher``, only over Wellington). If all pass, the deal passes to the
left and the cards are dealt again. The declarer leads; the suit of that first card is trump for
the hand (Misère: no trump, and the declarer must lose every trick). Must follow; the highest
trump, else the highest card of the led suit, wins; the winner leads. Two, Three and Four need at
least that many tricks; Nap, Wellington and Blücher all five.

Local rules: ``deck: short`` (3 players A–9, 4 players A–8, 5 players A–7), ``light_shuffle``
(between deals the cards are gathered and cut once, not shuffled, and dealt 3 then 2; a full
shuffle only at the start and after a successful Nap or higher), ``wellington_leads_lowest``
(the Wellington declarer must always play their lowest allowed card), ``blucher`` with its
points, ``wellington_points``, ``early_end`` (stop when the contract is decided).

Rulings beyond ``rules.md``
---------------------------
* The auction stops early once nobody can bid higher (after Wellington without Blücher, or after
  Blücher): the remaining players could only pass.
* Light shuffling gathers the last deal's cards trick by trick in the order played, then any
  cards left in hands (seat by seat), then the undealt stock; cuts them at a point drawn from the
  seed; and deals 3 each, then 2 each, from the dealer's left.
* "Lowest" for ``wellington_leads_lowest`` is by rank (2 lowest, ace highest); any allowed card of
  that rank may be played.

>>> import torampu
>>> g = torampu.new_game("nap", seed=1)
>>> g.phase, g.to_play, g.legal_actions()
('bid', 1, ['pass', 'bid two', 'bid three', 'bid misere', 'bid four', 'bid nap'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from torampu.cards import JOKER, CardSet, card_list, card_str, parse_card, shuffled
from torampu.errors import CardError, DealError, IllegalAction, RulesError
from torampu.explain import Reason
from torampu.game import Game, Move, Seat
from torampu.match import Match
from torampu.options import Option, Rules, RuleSpec
from torampu.trick import (
    _BIT,
    _LED_REASONS,
    _MOVES_OF,
    _STRS_OF,
    _TRUMP_REASONS,
    TrickGame,
    _moves_of,
    lead_suit_plain,
    parse_hands,
    plain_winner,
    suit_masks_plain,
)

OPTIONS: Final = [
    Option("players", "int", (4, 2, 3, 5, 6, 7, 8), "number of players", source="003"),
    Option(
        "deck",
        "choice",
        ("full", "short"),
        "short: 3 players A-9 (24 cards), 4 players A-8 (28), 5 players A-7 (32)",
        source="003",
    ),
    Option("blucher", "bool", (False, True), "allow Blücher, a bid above Wellington", source="003"),
    Option(
        "blucher_points",
        "pair",
        ([40, -40],),
        "Blücher [win, loss] per player",
        source="003",
    ),
    Option(
        "wellington_points",
        "pair",
        ([20, -12], [20, -20], [10, -20]),
        "Wellington [win, loss] per player",
        source="003",
    ),
    Option(
        "wellington_leads_lowest",
        "bool",
        (False, True),
        "the Wellington declarer must always play the lowest card allowed",
        source="003",
    ),
    Option(
        "light_shuffle",
        "bool",
        (False, True),
        "cut only and deal 3+2; shuffle only at the start and after a successful Nap or higher",
        source="003",
    ),
    Option("early_end", "bool", (True, False), "stop when the contract is decided", source="003"),
]

SHORT_DECK_LOW: Final = {3: 7, 4: 6, 5: 5}
"""Lowest rank index kept by ``deck: short`` (rank 0 = 2): 3p from 9, 4p from 8, 5p from 7."""


def _check(r: Rules) -> None:
    if r["deck"] == "short" and r["players"] not in SHORT_DECK_LOW:
        raise RulesError(
            f"option 'deck' short is defined for 3, 4 and 5 players, not {r['players']}"
        )


SPEC: Final = RuleSpec(
    "nap",
    OPTIONS,
    {"standard": {}},
    "standard",
    _check,
    {"standard": "003's rules: 52 cards, bids Two..Wellington, early end"},
)

PHASE_BID: Final = 0
PHASE_PLAY: Final = 1
PHASE_OVER: Final = 2
PHASE_NAMES: Final = ("bid", "play", "over")
PASS: Final = 99
BID_BASE: Final = 100
BIDS: Final = ("two", "three", "misere", "four", "nap", "wellington", "blucher")
TWO, THREE, MISERE, FOUR, NAP, WELLINGTON, BLUCHER = range(7)
BID_TRICKS: Final = (2, 3, 0, 4, 5, 5, 5)
BID_NAMES_JA: Final = (
    "ツー",
    "スリー",
    "ミゼール",
    "フォー",
    "ナップ",
    "ウェリントン",
    "ブリュッヒャー",
)

_ACTION_STRS: Final = (
    {c: "play " + card_str(c) for c in range(52)}
    | {PASS: "pass"}
    | {BID_BASE + i: "bid " + b for i, b in enumerate(BIDS)}
)
_ACTION_MOVES: Final = {s: m for m, s in _ACTION_STRS.items()}


def nap_deck(r: Rules) -> list[int]:
    """The cards in play, in index order."""
    low = SHORT_DECK_LOW[r["players"]] if r["deck"] == "short" else 0
    return [c for c in range(52) if c % 13 >= low]


class Nap(TrickGame):
    """One deal of Nap (with redeals while everyone passes)."""

    name = "nap"
    spec = SPEC
    phase_names = PHASE_NAMES
    play_phase = PHASE_PLAY
    over_phase = PHASE_OVER
    extra_args = ("deck_order",)

    def __init__(
        self,
        rules: Rules,
        seed: int,
        deal: Mapping[str, Any] | None = None,
        dealer: Seat = 0,
        deck_order: list[str] | None = None,
    ) -> None:
        self.rules = rules
        self.n = n = rules["players"]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
        self.seed = seed
        self.dealer = dealer
        self.rng = random.Random(seed)
        self.history = []
        self.redeals = 0
        self.deck_cards = nap_deck(rules)
        self.deck_set = sum(_BIT[c] for c in self.deck_cards)
        self.deck_order_in = deck_order
        if deck_order is not None:
            try:
                order = [parse_card(c) for c in deck_order]
            except CardError as e:
                raise DealError(f"bad card in deck_order: {e}") from None
            if sorted(order) != self.deck_cards:
                raise DealError("deck_order must hold every card of the deck once")
            self.order: list[int] | None = order
        else:
            self.order = None
        self.suit_masks = suit_masks_plain()
        self.lead_suit = lead_suit_plain()
        self.free = 0
        self.forced = 0
        self._deal(dealer, deal)
        self.initial = (tuple(self.hands), list(self.stock_order))

    # ---------------------------------------------------------------- dealing
    def _deal(self, dealer: Seat, deal: Mapping[str, Any] | None) -> None:
        n = self.n
        self.deal_dealer = dealer
        if self.rules["light_shuffle"] and self.order is not None:
            cards = self._cut(self.order)
            hands = [0] * n
            pos = 0
            for size in (3, 2):
                for i in range(n):
                    seat = (dealer + 1 + i) % n
                    for c in cards[pos : pos + size]:
                        hands[seat] |= _BIT[c]
                    pos += size
            stock_cards = cards[pos:]
        else:
            cards = shuffled(self.rng, self.deck_cards)
            hands = [sum(_BIT[c] for c in cards[i * 5 : (i + 1) * 5]) for i in range(n)]
            stock_cards = cards[n * 5 :]
        self.stock_order = stock_cards
        if deal is not None:
            hands, self.stock_order = self._check_deal(deal)
        self.hands = hands
        self.stock = sum(_BIT[c] for c in self.stock_order)
        self.dealt = list(hands)
        self.phase_id = PHASE_BID
        self.turn = (dealer + 1) % n
        self.high = -1
        self.high_seat = -1
        self.bids_made = 0
        self.auction: list[tuple[Seat, Move]] = []
        self.declarer = -1
        self.contract = -1
        self.trump = -1
        self.tricks_won = [0] * n
        self.early = False
        self.restricts = False
        self._start_tricks(self.turn)

    def _cut(self, order: list[int]) -> list[int]:
        k = int(self.rng.random() * (len(order) - 1)) + 1
        return order[k:] + order[:k]

    def _check_deal(self, deal: Mapping[str, Any]) -> tuple[list[CardSet], list[int]]:
        """Hands and the undealt stock (in the deal's order, else in index order)."""
        hands = parse_hands(
            deal, self.n, 5, self.deck_set, '{"hands": [[5 cards] per seat], "stock": [...]}'
        )
        rest = self.deck_set & ~sum(hands)
        if "stock" not in deal:
            return hands, [c for c in self.deck_cards if rest >> c & 1]
        try:
            stock = [parse_card(str(c)) for c in deal["stock"]]
        except CardError as e:
            raise DealError(f"bad card in the stock: {e}") from None
        if sum(_BIT[c] for c in stock) != rest or len(stock) != rest.bit_count():
            raise DealError("the stock must hold exactly the cards not dealt")
        return hands, stock

    def gathered(self) -> list[int]:
        """This deal's cards gathered for a light shuffle (see the module docstring)."""
        out = [c for t in self.tricks for c in t.cards] + list(self.trick)
        for h in self.hands:
            out.extend(c for c in self.deck_cards if h >> c & 1)
        out.extend(self.stock_order)
        return out

    # ---------------------------------------------------------------- contract
    def _top_bid(self) -> int:
        return BLUCHER if self.rules["blucher"] else WELLINGTON

    def _legal_bids(self) -> list[int]:
        out = []
        for b in range(self._top_bid() + 1):
            if b <= self.high:
                continue
            if b == WELLINGTON and self.high != NAP:
                continue
            if b == BLUCHER and self.high != WELLINGTON:
                continue
            out.append(b)
        return out

    def _lowest_only(self) -> bool:
        return self.restricts and self.turn == self.declarer

    def _restrict(self, seat: Seat, mask: CardSet) -> CardSet:
        """``wellington_leads_lowest``: the Wellington declarer plays their lowest allowed card."""
        if seat != self.declarer:
            return mask
        cards = _MOVES_OF.get(mask) or _moves_of(mask)
        low = min(c % 13 for c in cards)
        return sum(_BIT[c] for c in cards if c % 13 == low)

    def _play_mask(self) -> CardSet:
        return self._legal_mask(self.turn)

    def legal_moves(self) -> list[Move]:
        if self.phase_id == PHASE_PLAY:
            mask = self._play_mask()
            return list(_MOVES_OF.get(mask) or _moves_of(mask))
        if self.phase_id == PHASE_BID:
            return [PASS] + [BID_BASE + b for b in self._legal_bids()]
        return []

    def legal_actions(self) -> list[str]:
        if self.phase_id == PHASE_PLAY:
            mask = self._play_mask()
            strs = _STRS_OF.get(mask)
            if strs is None:
                strs = _STRS_OF[mask] = tuple("play " + card_str(c) for c in _moves_of(mask))
            return list(strs)
        return super().legal_actions()

    def action_str(self, move: Move) -> str:
        s = _ACTION_STRS.get(move)
        if s is None:
            raise IllegalAction(f"not a Nap move: {move!r}")
        return s

    def parse_action(self, action: str) -> Move:
        m = _ACTION_MOVES.get(action)
        if m is not None:
            return m
        words = action.lower().replace("è", "e").replace("ü", "u").split()
        try:
            if len(words) == 2 and words[0] == "play":
                card = parse_card(words[1])
                if card == JOKER:
                    raise IllegalAction("Nap is played without a joker")
                return card
            if len(words) == 2 and words[0] == "bid" and words[1] in BIDS:
                return BID_BASE + BIDS.index(words[1])
            if words == ["pass"]:
                return PASS
        except CardError as e:
            raise IllegalAction(f"{action!r}: {e}") from None
        raise IllegalAction(
            f"not a Nap action: {action!r} (actions: 'pass', "
            + ", ".join(f"'bid {b}'" for b in BIDS)
            + ", 'play 7H')"
        )

    def _illegal_reason(self, move: Move) -> str | None:
        if self.phase_id == PHASE_BID:
            if move == PASS:
                return None
            if move < BID_BASE:
                return "it is the auction: bid or pass"
            b = move - BID_BASE
            if b == BLUCHER and not self.rules["blucher"]:
                return "Blücher is off (option blucher)"
            if b <= self.high:
                return f"a bid must beat {BIDS[self.high]}"
            if b == WELLINGTON and self.high != NAP:
                return "Wellington may only be bid over Nap"
            if b == BLUCHER and self.high != WELLINGTON:
                return "Blücher may only be bid over Wellington"
            return None
        if self.phase_id == PHASE_PLAY:
            seat = self.turn
            if move >= 52:
                return "it is the play: play a card, e.g. 'play 7H'"
            if not self.hands[seat] >> move & 1:
                return f"{card_str(move)} is not in your hand"
            if self._play_mask() >> move & 1:
                return None
            if self._lowest_only() and self._follow_mask(seat) >> move & 1:
                return "the Wellington declarer must play the lowest card allowed"
            must = " ".join(card_list(self.hands[seat] & self.suit_masks[self.led]))
            return f"must follow suit {'SHDC'[self.led]}: play one of {must}"
        return "the game is over"

    def apply(self, move: Move) -> None:
        seat = self.turn
        self.history.append((seat, move))
        if self.phase_id == PHASE_PLAY:
            self._play_card(seat, move)
            return
        self._bid(seat, move)

    _apply = apply

    def _bid(self, seat: Seat, move: Move) -> None:
        self.auction.append((seat, move))
        self.bids_made += 1
        if move != PASS:
            self.high = move - BID_BASE
            self.high_seat = seat
        if self.bids_made < self.n and self.high < self._top_bid():
            self.turn = (seat + 1) % self.n
            return
        if self.high_seat < 0:  # all passed: the deal passes to the left
            self.redeals += 1
            gathered = self.gathered()
            if self.order is not None or self.rules["light_shuffle"]:
                self.order = gathered
            self._deal((self.deal_dealer + 1) % self.n, None)
            return
        self.declarer = self.high_seat
        self.contract = self.high
        self.restricts = self.rules["wellington_leads_lowest"] and self.contract == WELLINGTON
        self.phase_id = PHASE_PLAY
        self.leader = self.turn = self.declarer

    def _random_move(self, rand: Any) -> Move:
        moves = self.legal_moves()
        return moves[int(rand() * len(moves))]

    # ---------------------------------------------------------------- tricks
    has_lead_hook = True

    def _on_lead(self, card: int) -> None:
        if not self.tricks and self.contract != MISERE:
            self.trump = card // 13  # the declarer's first lead sets trump

    def _judge(self) -> tuple[int, Reason]:
        cards = self.trick
        i = plain_winner(cards, self.led, self.trump)
        c = cards[i]
        if c // 13 == self.trump:
            return i, _TRUMP_REASONS[c]
        return i, _LED_REASONS[c]

    def _won(self, winner: Seat, cards: CardSet) -> None:
        self.tricks_won[winner] += 1

    def _tricks_done(self) -> bool:
        if not self.hands[self.turn]:
            return True
        if self.rules["early_end"] and self._decided():
            self.early = True
            return True
        return False

    def _decided(self) -> bool:
        won = self.tricks_won[self.declarer]
        lost = len(self.tricks) - won
        if self.contract == MISERE:
            return won > 0
        need = BID_TRICKS[self.contract]
        return won >= need or lost > 5 - need

    def _finish(self) -> None:
        self.phase_id = PHASE_OVER

    def made(self) -> bool:
        """Whether the declarer made the contract (once the game is over)."""
        won = self.tricks_won[self.declarer]
        if self.contract == MISERE:
            return won == 0
        return won >= BID_TRICKS[self.contract]

    def stakes(self) -> tuple[int, int]:
        """[win, loss] per player of the contract."""
        return self.stake_of(self.contract)

    def stake_of(self, bid: int) -> tuple[int, int]:
        """[win, loss] per other player of the contract ``bid`` (an index of :data:`BIDS`)
        under these rules.

        >>> import torampu
        >>> torampu.new_game("nap", seed=1).stake_of(NAP)
        (10, -6)
        """
        r = self.rules
        if bid == WELLINGTON:
            w, lo = r["wellington_points"]
            return int(w), int(lo)
        if bid == BLUCHER:
            w, lo = r["blucher_points"]
            return int(w), int(lo)
        return ((2, -2), (3, -3), (3, -3), (4, -4), (10, -6))[bid]

    def result(self) -> dict[str, Any]:
        n = self.n
        if self.phase_id != PHASE_OVER:
            return {"scores": [0] * n, "winners": [], "over": False}
        d = self.declarer
        win, loss = self.stakes()
        made = self.made()
        per = win if made else loss  # what each other player pays the declarer (negative: gets)
        scores = [-per] * n
        scores[d] = per * (n - 1)
        return {
            "scores": scores,
            "winners": [d] if made else [s for s in range(n) if s != d],
            "declarer": d,
            "contract": BIDS[self.contract],
            "trump": None if self.trump < 0 else "SHDC"[self.trump],
            "declarer_tricks": self.tricks_won[d],
            "made": made,
            "early_end": self.early,
            "redeals": self.redeals,
            "dealer": self.deal_dealer,
        }

    def view(self, seat: Seat | None) -> dict[str, Any]:
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < self.n):
            raise ValueError(f"seat must be 0..{self.n - 1} or None, not {seat!r}")
        v: dict[str, Any] = {
            "game": self.name,
            "rules": dict(self.rules),
            "players": self.n,
            "seat": seat,
            "dealer": self.deal_dealer,
            "phase": self.phase,
            "to_play": self.to_play,
            "hand": card_list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "redeals": self.redeals,
            "auction": [{"seat": s, "action": self.action_str(m)} for s, m in self.auction],
            "high_bid": None if self.high < 0 else BIDS[self.high],
            "declarer": None if self.declarer < 0 else self.declarer,
            "contract": None if self.contract < 0 else BIDS[self.contract],
            "trump": None if self.trump < 0 else "SHDC"[self.trump],
            "tricks_won": list(self.tricks_won),
            "trick": self.current_trick_json() if self.phase_id == PHASE_PLAY else [],
            "tricks": [t.as_json(self.n) for t in self.tricks],
            # what each contract is worth, per other player: [won, lost]
            "stakes": {
                BIDS[b]: list(self.stake_of(b))
                for b in range(len(BIDS))
                if b != BLUCHER or self.rules["blucher"]
            },
            "legal_actions": (
                self.legal_actions() if seat is not None and seat == self.to_play else []
            ),
        }
        if self.phase_id == PHASE_OVER:
            v["result"] = self.result()
        return v

    def hidden_from(self, seat: Seat | None) -> CardSet:
        return super().hidden_from(seat) | self.stock

    def _deal_record(self) -> dict[str, Any]:
        hands, stock = self.initial
        return {"hands": [card_list(h) for h in hands], "stock": [card_str(c) for c in stock]}

    def _record_extra(self) -> dict[str, Any]:
        if self.deck_order_in is None:
            return {}
        return {"deck_order": list(self.deck_order_in)}

    _copied = ("hands", "trick", "tricks", "history", "auction", "tricks_won")


class NapMatch(Match):
    """Nap deals in a row: the deal passes left; payments accumulate; light shuffling."""

    def _next_kwargs(self, finished: Game) -> dict[str, Any]:
        assert isinstance(finished, Nap)
        if not self.rules["light_shuffle"]:
            return {}
        if finished.made() and finished.contract >= NAP:
            return {}  # a successful Nap or higher: shuffle properly
        return {"deck_order": [card_str(c) for c in finished.gathered()]}

    def records_after_match(self) -> bool:
        """With ``light_shuffle`` the next deal is this game's cards gathered and cut once: a
        finished game's record (its stock's order, the hands left at an early end) gives every
        hand of the next deal to whoever tries the cuts that deal them their own hand."""
        return bool(self.rules["light_shuffle"])

    def _next_dealer(self, finished: Game) -> Seat:
        assert isinstance(finished, Nap)
        return (finished.deal_dealer + 1) % self.n
