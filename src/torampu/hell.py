"""Hell (ヘル), an Oh Hell variant, on the shared trick-taking core.

The rules (source 002, second half; digest in ``spec/rules.md`` §3)
------------------------------------------------------------------
2–7 players, 52 cards, no joker. One game (deal) gives every player ``cards`` cards; the top card
of the stock is turned up and its suit is trump. Each player bids how many tricks they will take
(``bid 2``), starting with the player after the dealer and ending with the dealer; with ``hook``
the dealer may not bid the number that makes the bids add up to ``cards``. The dealer leads the
first trick; must follow; the highest trump, else the highest card of the led suit, wins; the
winner leads the next. Score: an exact bid scores ``exact_base + exact_per_trick × bid``
(10 + 3 × bid), a miss ``miss_per_trick × |bid − tricks|`` (−3 per trick off).

A full game of Hell is a match (:class:`HellMatch`): deals of 1, 2, … ``max_cards`` cards and back
down to 1 (the peak once), the dealer moving to the next seat each deal, with a score sheet.

**Ruling** (rules.md): the source moves the dealer right and bids counter-clockwise; seats are
numbered in the direction of play, so "next" means the same everywhere.

>>> import torampu
>>> g = torampu.new_game("hell", cards=3, seed=2)
>>> g.phase, g.to_play, g.legal_actions()
('bid', 1, ['bid 0', 'bid 1', 'bid 2', 'bid 3'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from torampu.cards import JOKER, CardSet, card_list, card_str, parse_card, seeded_shuffle
from torampu.errors import CardError, DealError, IllegalAction, RulesError
from torampu.explain import Reason
from torampu.game import Game, Move, Seat, new_seed
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

_POINTS: Final = tuple(range(-100, 101))

OPTIONS: Final = [
    Option("players", "int", (5, 2, 3, 4, 6, 7), "number of players", source="002"),
    Option(
        "hook",
        "bool",
        (True, False),
        "the dealer may not bid the number that makes the bids add up to the cards dealt",
        source="002",
    ),
    Option("exact_base", "int", _POINTS, "score for an exact bid", default=10, source="002"),
    Option(
        "exact_per_trick",
        "int",
        _POINTS,
        "plus this per trick bid, when exact",
        default=3,
        source="002",
    ),
    Option(
        "miss_per_trick",
        "int",
        _POINTS,
        "score per trick off the bid, when missed",
        default=-3,
        source="002",
    ),
]

SPEC: Final = RuleSpec(
    "hell",
    OPTIONS,
    {"standard": {}},
    "standard",
    preset_notes={"standard": "002's rules: hook on, 10 + 3 × bid, −3 per trick off"},
    derived={"max_cards": "51 // players: a card must be left to turn up"},
)

PHASE_BID: Final = 0
PHASE_PLAY: Final = 1
PHASE_OVER: Final = 2
PHASE_NAMES: Final = ("bid", "play", "over")
BID_BASE: Final = 100
"""``bid k`` is the move ``BID_BASE + k``; cards are moves 0..51."""

_ACTION_STRS: Final = {c: "play " + card_str(c) for c in range(52)} | {
    BID_BASE + k: f"bid {k}" for k in range(52)
}
_ACTION_MOVES: Final = {s: m for m, s in _ACTION_STRS.items()}


_DECK: Final = list(range(52))


def max_cards(players: int) -> int:
    """The peak of the series: a card must be left to turn up (5 players: 10)."""
    return 51 // players


class Hell(TrickGame):
    """One deal of Hell. Create it with ``torampu.new_game("hell", cards=N, …)``."""

    name = "hell"
    spec = SPEC
    phase_names = PHASE_NAMES
    play_phase = PHASE_PLAY
    over_phase = PHASE_OVER
    extra_args = ("cards",)
    plain_rules = True

    def __init__(
        self,
        rules: Rules,
        seed: int,
        deal: Mapping[str, Any] | None = None,
        dealer: Seat = 0,
        cards: int = 1,
    ) -> None:
        self.rules = rules
        self.n = n = rules["players"]
        top = max_cards(n)
        if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= top:
            raise RulesError(f"cards must be 1..{top} for {n} players, not {cards!r}")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
        self.seed = seed
        self.dealer = dealer
        self.cards = cards
        self.history = []
        deck = seeded_shuffle(seed, _DECK)  # the deal is all Hell draws: no generator kept
        if deal is None:
            bits = [_BIT[c] for c in deck]
            self.hands = [sum(bits[i * cards : (i + 1) * cards]) for i in range(n)]
            self.upcard = deck[n * cards]
        else:
            self.hands, self.upcard = self._check_deal(deal)
        self.initial = (tuple(self.hands), self.upcard)
        self.trump = self.upcard // 13
        self.suit_masks = suit_masks_plain()
        self.lead_suit = lead_suit_plain()
        self.free = 0
        self.forced = 0
        self.bids: list[int] = [0] * n  # per seat
        self.bids_made = 0
        self.tricks_won = [0] * n
        self.phase_id = PHASE_BID
        self.turn = (dealer + 1) % n
        self._start_tricks(dealer)
        self.turn = (dealer + 1) % n

    def _check_deal(self, deal: Mapping[str, Any]) -> tuple[list[CardSet], int]:
        shape = '{"hands": [[card, …] per seat], "upcard": "7H"}'
        hands = parse_hands(deal, self.n, self.cards, (1 << 52) - 1, shape)
        seen = sum(hands)
        if "upcard" not in deal:
            raise DealError(f"a deal is {shape}")
        try:
            up = parse_card(str(deal["upcard"]))
        except CardError as e:
            raise DealError(f"bad upcard: {e}") from None
        if up == JOKER or seen >> up & 1:
            raise DealError("the upcard must be a card not in any hand")
        return hands, up

    # ---------------------------------------------------------------- contract
    def _forbidden_bid(self) -> int:
        """The bid the hook forbids the dealer now (-1: none)."""
        if not self.rules["hook"] or self.bids_made != self.n - 1:
            return -1
        k = self.cards - sum(self.bids)
        return k if k >= 0 else -1

    def legal_moves(self) -> list[Move]:
        if self.phase_id == PHASE_PLAY:
            mask = self._follow_mask(self.turn)
            return list(_MOVES_OF.get(mask) or _moves_of(mask))
        if self.phase_id == PHASE_BID:
            no = self._forbidden_bid()
            return [BID_BASE + k for k in range(self.cards + 1) if k != no]
        return []

    def legal_actions(self) -> list[str]:
        if self.phase_id == PHASE_PLAY:
            mask = self._follow_mask(self.turn)
            strs = _STRS_OF.get(mask)
            if strs is None:
                strs = _STRS_OF[mask] = tuple("play " + card_str(c) for c in _moves_of(mask))
            return list(strs)
        return super().legal_actions()

    def action_str(self, move: Move) -> str:
        s = _ACTION_STRS.get(move)
        if s is None:
            raise IllegalAction(f"not a Hell move: {move!r}")
        return s

    def parse_action(self, action: str) -> Move:
        m = _ACTION_MOVES.get(action)
        if m is not None:
            return m
        words = action.split()
        try:
            if len(words) == 2 and words[0].lower() == "play":
                card = parse_card(words[1])
                if card == JOKER:
                    raise IllegalAction("Hell is played without a joker")
                return card
            # (ASCII digits, a few: int() would take other scripts' digits, and refuse 4,300
            # digits with a message about Python)
            w = words[1] if len(words) == 2 and words[0].lower() == "bid" else ""
            if w.isascii() and w.isdigit() and len(w) <= 3:
                k = int(w)
                if k <= 51:
                    return BID_BASE + k
        except CardError as e:
            raise IllegalAction(f"{action!r}: {e}") from None
        raise IllegalAction(f"not a Hell action: {action!r} (actions: 'bid 2', 'play AS')")

    def _random_move(self, rand: Any) -> Move:
        """A uniformly random bid without building the list: the same draw as from
        :meth:`legal_moves` (skipping the forbidden bid)."""
        if self.phase_id != PHASE_BID:
            moves = self.legal_moves()
            return moves[int(rand() * len(moves))]
        no = self._forbidden_bid()
        k = int(rand() * (self.cards + (1 if no < 0 else 0)))
        if 0 <= no <= k:
            k += 1
        return BID_BASE + k

    def _illegal_reason(self, move: Move) -> str | None:
        seat = self.turn
        if self.phase_id == PHASE_BID:
            if move < BID_BASE:
                return "it is the bidding: bid a number of tricks, e.g. 'bid 1'"
            k = move - BID_BASE
            if k > self.cards:
                return f"only {self.cards} tricks are played this deal"
            if k == self._forbidden_bid():
                return (
                    f"the dealer may not bid {k}: the bids would add up to {self.cards} "
                    "(option hook)"
                )
            return None
        if self.phase_id == PHASE_PLAY:
            if move >= BID_BASE:
                return "it is the play: play a card, e.g. 'play AS'"
            if not self.hands[seat] >> move & 1:
                return f"{card_str(move)} is not in your hand"
            if self._follow_mask(seat) >> move & 1:
                return None
            led = "SHDC"[self.led]
            must = " ".join(card_list(self.hands[seat] & self.suit_masks[self.led]))
            return f"must follow suit {led}: play one of {must}"
        return "the game is over"

    def apply(self, move: Move) -> None:
        seat = self.turn
        self.history.append((seat, move))
        if self.phase_id == PHASE_PLAY:
            self._play_card(seat, move)
            return
        self.bids[seat] = move - BID_BASE
        self.bids_made += 1
        if self.bids_made == self.n:
            self.phase_id = PHASE_PLAY
            self.turn = self.leader = self.dealer
        else:
            self.turn = (seat + 1) % self.n

    _apply = apply

    # ---------------------------------------------------------------- tricks
    def _judge(self) -> tuple[int, Reason]:
        cards = self.trick
        i = plain_winner(cards, self.led, self.trump)
        c = cards[i]
        if c // 13 == self.trump:
            return i, _TRUMP_REASONS[c]
        return i, _LED_REASONS[c]

    def _won(self, winner: Seat, cards: CardSet) -> None:
        self.tricks_won[winner] += 1

    def _finish(self) -> None:
        self.phase_id = PHASE_OVER

    # ---------------------------------------------------------------- results and views
    def deal_scores(self) -> list[int]:
        """Each seat's score for this deal (0 until it is over)."""
        if self.phase_id != PHASE_OVER:
            return [0] * self.n
        r = self.rules
        out = []
        for bid, won in zip(self.bids, self.tricks_won, strict=True):
            if bid == won:
                out.append(r["exact_base"] + r["exact_per_trick"] * bid)
            else:
                out.append(r["miss_per_trick"] * abs(bid - won))
        return out

    def result(self) -> dict[str, Any]:
        scores = self.deal_scores()
        over = self.phase_id == PHASE_OVER
        return {
            "scores": scores,
            "winners": [s for s in range(self.n) if over and self.bids[s] == self.tricks_won[s]],
            "bids": list(self.bids),
            "tricks": list(self.tricks_won),
            "cards": self.cards,
            "trump": "SHDC"[self.trump],
            "upcard": card_str(self.upcard),
        }

    def view(self, seat: Seat | None) -> dict[str, Any]:
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < self.n):
            raise ValueError(f"seat must be 0..{self.n - 1} or None, not {seat!r}")
        v: dict[str, Any] = {
            "game": self.name,
            "rules": dict(self.rules),
            "players": self.n,
            "seat": seat,
            "dealer": self.dealer,
            "cards": self.cards,
            "phase": self.phase,
            "to_play": self.to_play,
            "hand": card_list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "upcard": card_str(self.upcard),
            "trump": "SHDC"[self.trump],
            "bids": [
                b if (s - self.dealer - 1) % self.n < self.bids_made else None
                for s, b in enumerate(self.bids)
            ],
            "forbidden_bid": None if self._forbidden_bid() < 0 else self._forbidden_bid(),
            "tricks_won": list(self.tricks_won),
            "trick": self.current_trick_json() if self.phase_id == PHASE_PLAY else [],
            "tricks": [t.as_json(self.n) for t in self.tricks],
            "legal_actions": self.legal_actions()
            if seat is not None and seat == self.to_play
            else [],
        }
        if self.phase_id == PHASE_OVER:
            v["result"] = self.result()
        return v

    def hidden_from(self, seat: Seat | None) -> CardSet:
        dealt: CardSet = 0
        for h in self.initial[0]:
            dealt |= h
        stock = ((1 << 52) - 1) & ~dealt & ~_BIT[self.upcard]
        return int(super().hidden_from(seat) | stock)

    def _deal_record(self) -> dict[str, Any]:
        hands, up = self.initial
        return {"hands": [card_list(h) for h in hands], "upcard": card_str(up)}

    def _record_extra(self) -> dict[str, Any]:
        return {"cards": self.cards}

    _copied = ("hands", "trick", "tricks", "history", "bids", "tricks_won")


def series(players: int) -> list[int]:
    """Cards dealt in each deal of a full game: 1, 2, … max, … 2, 1.

    >>> series(5)
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    """
    top = max_cards(players)
    return list(range(1, top + 1)) + list(range(top - 1, 0, -1))


class HellMatch(Match):
    """A full game of Hell: the series of deals, dealer moving on, with a score sheet."""

    def __init__(
        self,
        name: str,
        factory: Any,
        rules: Rules,
        games: int | None,
        seed: int,
        dealer: Seat = 0,
        seeding: object = "stream",
    ) -> None:
        self.series = series(rules["players"])
        if games is None:
            games = len(self.series)
        if not isinstance(games, int) or not 1 <= games <= len(self.series):
            raise ValueError(f"a Hell series has 1..{len(self.series)} deals, not {games!r}")
        super().__init__(name, factory, rules, games, seed, dealer, seeding)

    def _first_kwargs(self) -> dict[str, Any]:
        return {"cards": self.series[0]}

    def _next_kwargs(self, finished: Game) -> dict[str, Any]:
        return {"cards": self.series[len(self.records)]}

    def standings(self) -> dict[str, Any]:
        st = super().standings()
        sheet = []
        totals = [0] * self.n
        for rec in self.records:
            res = rec["result"]
            totals = [t + s for t, s in zip(totals, res["scores"], strict=True)]
            sheet.append(
                {
                    "cards": res["cards"],
                    "dealer": rec["dealer"],
                    "upcard": res["upcard"],
                    "trump": res["trump"],
                    "bids": res["bids"],
                    "tricks": res["tricks"],
                    "scores": res["scores"],
                    "totals": totals,
                }
            )
        st["sheet"] = sheet
        st["series"] = self.series[: self.games_total]
        return st


def new_hell(
    rules: str | Mapping[str, Any] | None = None,
    players: int | None = None,
    seed: int | None = None,
    cards: int = 1,
) -> Hell:
    """One Hell deal (see :func:`torampu.new_game`)."""
    return Hell(
        SPEC.resolve(rules, players=players), new_seed() if seed is None else seed, cards=cards
    )
