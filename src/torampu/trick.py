"""The trick-taking core shared by Napoleon, Nap and Hell.

One implementation of: dealing hands as card sets, must-follow, turn order in the direction of
play, closing a trick, the winner leading the next one, and the trick history with its
explanation. A game plugs in what its rules say through three hooks:

* :attr:`TrickGame.suit_masks` / :attr:`TrickGame.eff_suit` — which cards count as which suit for
  following (Napoleon's 裏J and joker move between suits; Hell's never do);
* :meth:`TrickGame._follow_mask` — the cards a seat may play (extended by Napoleon's joker rules);
* :meth:`TrickGame._judge` — who wins the closed trick, and why (:class:`Reason`).

>>> from torampu.cards import parse_card as p
>>> plain_winner([p("9H"), p("AH"), p("2S"), p("KH")], led=1, trump=0)
2
>>> plain_winner([p("9H"), p("AH"), p("2C"), p("KH")], led=1, trump=0)
1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, Final

from torampu.cards import (
    JOKER,
    SUIT_LETTERS,
    SUIT_MASKS,
    Card,
    CardSet,
    card_list,
    card_str,
    parse_cards,
)
from torampu.errors import CardError, DealError
from torampu.explain import Reason, explain
from torampu.game import Game, Seat

NO_SUIT = -1
"""The effective suit of a card that belongs to no suit (a joker in most rules)."""

_BIT: Final = [1 << c for c in range(53)]
_CHUNKS: Final = [
    [tuple(s * 13 + r for r in range(13) if m >> r & 1) for m in range(1 << 13)] for s in range(4)
]
_MOVES_OF: dict[CardSet, tuple[int, ...]] = {}
"""Memo: a card set -> its cards as a tuple (the play moves of a legal mask)."""
_SHIFTED_CHUNKS: Final = tuple((13 * s, _CHUNKS[s]) for s in range(4))
_STRS_OF: dict[CardSet, tuple[str, ...]] = {}
"""Memo: a card set -> its ``play`` action strings."""
_CACHE_LIMIT: Final = 1 << 16

_PLAIN_KEYS: Final = tuple(
    tuple(
        tuple(
            100 + c % 13 if c // 13 == trump else (c % 13 if c // 13 == led else -1)
            for c in range(53)
        )
        for led in range(4)
    )
    for trump in (0, 1, 2, 3, -1)
)
"""``_PLAIN_KEYS[trump][led][card]``: the card's strength in a plain trick (trump -1: none)."""
_TRUMP_REASONS: Final = tuple(Reason("trump", c, suit=c // 13) for c in range(52))
_LED_REASONS: Final = tuple(Reason("led", c, suit=c // 13) for c in range(52))
"""The two reasons of a plain trick, per winning card (a card's suit is the trump or the led suit
it won as): shared immutable values, built once."""
_SEATS_AFTER: Final = tuple(
    tuple(tuple((leader + k) % n for k in range(1, n)) for leader in range(n)) for n in range(9)
)
"""``_SEATS_AFTER[n][leader]``: the seats that follow the leader, in order."""


def _moves_of(mask: CardSet) -> tuple[int, ...]:
    """The cards of a set as a tuple, in index order, memoized (the hot path of every playout)."""
    t = (
        _CHUNKS[0][mask & 8191]
        + _CHUNKS[1][mask >> 13 & 8191]
        + _CHUNKS[2][mask >> 26 & 8191]
        + _CHUNKS[3][mask >> 39 & 8191]
    )
    if mask >> JOKER & 1:
        t += (JOKER,)
    if len(_MOVES_OF) > _CACHE_LIMIT:
        _MOVES_OF.clear()
        _STRS_OF.clear()
    _MOVES_OF[mask] = t
    return t


def plain_winner(cards: Sequence[Card], led: int, trump: int) -> int:
    """Index of the winning card by plain rules: highest trump, else highest of the led suit.

    ``trump`` may be -1 (no trump). Cards are ``suit * 13 + rank``; the joker never wins here.
    """
    best = 0
    best_key = -1
    for i, c in enumerate(cards):
        if c == JOKER:
            continue
        s = c // 13
        key = 100 + c % 13 if s == trump else (c % 13 if s == led else -1)
        if key > best_key:
            best, best_key = i, key
    return best


@dataclass(slots=True)
class Trick:
    """A closed trick: who led, the cards in play order, who won and why."""

    leader: Seat
    cards: list[Card]
    winner: Seat
    reason: Reason
    points: CardSet = 0
    note: dict[str, Any] | None = None

    def seat_of(self, i: int, n: int) -> Seat:
        return (self.leader + i) % n

    def as_json(self, n: int) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [
                {"seat": (self.leader + i) % n, "card": card_str(c)}
                for i, c in enumerate(self.cards)
            ],
            "winner": self.winner,
            "reason": self.reason.code,
            "why": {"en": explain(self.reason, "en"), "ja": explain(self.reason, "ja")},
            **(self.note or {}),
        }


class TrickGame(Game):
    """A game whose play phase is tricks: must follow, highest wins, winner leads.

    Following is data, not code, so every trick game shares one fast loop. A subclass sets:

    * ``suit_masks`` — per effective suit (index 0..3, 4 = a joker's own suit), the cards that
      follow as that suit; index -1 (``NO_SUIT``, nothing to follow) must be every card;
    * ``lead_suit`` — per card, the suit the others must follow when it is led;
    * ``free`` — cards that may always be played when following (a request-mode joker);
    * ``forced`` — cards that must be played when held (a called joker), usually 0;

    and implements :meth:`_judge` (and :meth:`_won`, :meth:`_tricks_done`, :meth:`_finish`).
    The rule is then: a leader plays anything; a follower holding a ``forced`` card plays it;
    otherwise one holding a card of the led suit plays one of those (or a ``free`` card);
    otherwise anything.
    """

    hands: list[CardSet]
    suit_masks: list[CardSet]
    lead_suit: list[int]
    free: CardSet
    forced: CardSet
    trick: list[Card]
    leader: Seat
    turn: Seat
    led: int
    tricks: list[Trick]
    played: CardSet

    def _start_tricks(self, leader: Seat) -> None:
        self.trick = []
        self.leader = self.turn = leader
        self.led = NO_SUIT
        self.tricks = []
        self.played = 0

    # ------------------------------------------------------------------ hooks
    def _judge(self) -> tuple[int, Reason]:
        """Index (in play order) of the card that wins the full trick, and why."""
        raise NotImplementedError

    def _won(self, winner: Seat, cards: CardSet) -> None:
        """Credit a closed trick to its winner (honors, trick counts)."""

    def _tricks_done(self) -> bool:
        """Whether play stops after the trick just closed (default: hands are empty)."""
        return not self.hands[self.turn]

    def _finish(self) -> None:
        """End the game: score it."""
        raise NotImplementedError

    point_cards: CardSet = 0
    """The scoring cards (Napoleon: the honors); a trick records which of them it held."""

    def _lead_extras(self, seat: Seat) -> tuple[int, ...]:
        """Moves besides the cards themselves open to a leader (Napoleon's joker call)."""
        return ()

    has_lead_extras = False
    """Whether :meth:`_lead_extras` can return anything (saves a call per trick when not)."""

    restricts = False
    """Whether :meth:`_restrict` narrows the cards further (Nap's Wellington plays lowest)."""

    def _restrict(self, seat: Seat, mask: CardSet) -> CardSet:
        """Narrow the cards ``seat`` may play beyond must-follow (if ``restricts``)."""
        return mask

    has_lead_hook = False
    """Whether :meth:`_on_lead` must be called when a trick is led (Nap's trump)."""

    def _on_lead(self, card: Card) -> None:
        """Called when ``card`` leads a trick, before it is played (if ``has_lead_hook``)."""

    def _card_of_move(self, move: int) -> Card:
        """The card a play move above ``JOKER`` plays (and its side effect, e.g. a call)."""
        return move

    phase_names: ClassVar[tuple[str, ...]]
    """The game's phases in ``phase_id`` order, e.g. ``("bid", "play", "over")``."""
    play_phase: ClassVar[int]
    """The ``phase_id`` of the tricks."""
    over_phase: ClassVar[int]
    """The ``phase_id`` of a finished game."""
    phase_id: int

    @property
    def to_play(self) -> Seat | None:
        return None if self.phase_id == self.over_phase else self.turn

    @property
    def phase(self) -> str:
        return self.phase_names[self.phase_id]

    @property
    def is_over(self) -> bool:
        return self.phase_id == self.over_phase

    def _in_tricks(self) -> bool:
        """Whether the game is in its play phase (tricks under way)."""
        return self.phase_id == self.play_phase

    def _random_move(self, rand: Callable[[], float]) -> int:
        """A uniformly random legal move outside the play phase (override to avoid lists)."""
        moves = self.legal_moves()
        return moves[int(rand() * len(moves))]

    # ------------------------------------------------------------------ mechanism
    @property
    def trick_no(self) -> int:
        """0-based number of the trick in progress."""
        return len(self.tricks)

    def _follow_mask(self, seat: Seat) -> CardSet:
        """The cards ``seat`` may play now (see the class docstring for the rule)."""
        hand = self.hands[seat]
        if not self.trick:
            return hand
        f = hand & self.forced
        if f:
            return f
        m = hand & self.suit_masks[self.led]
        return m | (hand & self.free) if m else hand

    def _legal_mask(self, seat: Seat) -> CardSet:
        """The cards ``seat`` may play: must-follow, then any further restriction."""
        mask = self._follow_mask(seat)
        return self._restrict(seat, mask) if self.restricts else mask

    def _play_card(self, seat: Seat, card: Card) -> None:
        b = _BIT[card]
        self.hands[seat] ^= b
        self.played |= b
        trick = self.trick
        if not trick:
            if self.has_lead_hook:
                self._on_lead(card)
            self.led = self.lead_suit[card]
        trick.append(card)
        if len(trick) < self.n:
            seat += 1
            self.turn = seat if seat < self.n else 0
        else:
            self._close_trick()

    def _close_trick(self, cards: CardSet = -1) -> bool:
        """Judge and credit the full trick; the winner leads. True when the game ended.

        ``cards`` is the trick's card set when the caller has it at hand.
        """
        trick = self.trick
        idx, reason = self._judge()
        winner = (self.leader + idx) % self.n
        if cards < 0:
            cards = sum(map(_BIT.__getitem__, trick))
        self.tricks.append(Trick(self.leader, trick, winner, reason, cards & self.point_cards))
        self._won(winner, cards)
        self.trick = []
        self.leader = self.turn = winner
        self.led = NO_SUIT
        if self._tricks_done():
            self._finish()
            return True
        return False

    plain_rules: ClassVar[bool] = False
    """Whether play is plain: printed suits, no forced/free/restricted cards, no lead extras or
    hook, and :func:`plain_winner` judges every trick with reason ``trump`` or ``led``. Such games
    (Hell) roll out through :meth:`_plain_playout`, which judges each trick as it is played."""

    trump: int

    def playout(self, rng: Random) -> None:
        """Finish the game with uniformly random legal moves: the rollout of search bots.

        Moves are drawn exactly as from :meth:`legal_moves` (uniform over the legal ones) and
        recorded in the history; the trick loop applies the class docstring's rule inline.
        """
        rand = rng.random
        while not self.is_over and not self._in_tricks():
            self.apply(self._random_move(rand))
        if self.is_over:
            return
        if self.plain_rules:
            self._plain_playout(rand)
            return
        hands = self.hands
        history = self.history
        memo = _MOVES_OF
        masks = self.suit_masks
        free = self.free
        lead_suit = self.lead_suit
        extras = self._lead_extras if self.has_lead_extras else None
        restrict = self._restrict if self.restricts else None
        n = self.n
        joker = JOKER
        bits = _BIT
        while True:
            trick = self.trick
            seat = self.turn
            led = self.led
            played = sum(map(bits.__getitem__, trick)) if trick else 0
            while True:
                hand = hands[seat]
                if trick:
                    f = hand & self.forced
                    if f:
                        mask = f
                    else:
                        m = hand & masks[led]
                        mask = m | (hand & free) if m else hand
                    if restrict is not None:
                        mask = restrict(seat, mask)
                    moves = memo.get(mask) or _moves_of(mask)
                else:
                    mask = hand if restrict is None else restrict(seat, hand)
                    moves = memo.get(mask) or _moves_of(mask)
                    if extras is not None:
                        moves = moves + extras(seat)
                mv = moves[int(rand() * len(moves))]
                history.append((seat, mv))
                card = mv if mv <= joker else self._card_of_move(mv)
                b = bits[card]
                hands[seat] = hand ^ b
                played |= b
                if not trick:
                    if self.has_lead_hook:
                        self._on_lead(card)
                    led = self.led = lead_suit[card]
                trick.append(card)
                if len(trick) == n:
                    break
                seat = seat + 1 if seat + 1 < n else 0
            self.played |= played
            self.turn = seat
            if self._close_trick(played):
                return

    def _plain_playout(self, rand: Callable[[], float]) -> None:
        """The rollout of a plain game: the same draws as :meth:`playout`, each trick judged as
        its cards fall (a card's key under the trump and the led suit: :data:`_PLAIN_KEYS`)."""
        if self.trick:  # finish a trick in progress the general way
            self._finish_trick_randomly(rand)
            if self.is_over:
                return
        hands = self.hands
        history = self.history
        append = history.append
        tricks = self.tricks
        n = self.n
        bits = _BIT
        trump = self.trump
        keys_of = _PLAIN_KEYS[trump]
        points = self.point_cards
        won = self._won
        after = _SEATS_AFTER[n]
        chunk_tables = _CHUNKS
        shifted_chunks = _SHIFTED_CHUNKS
        trump_reasons = _TRUMP_REASONS
        led_reasons = _LED_REASONS
        card = 0
        seat = self.turn
        all_played = self.played
        while True:
            leader = seat
            hand = hands[seat]
            # the lead: the k-th card of the hand in index order, found suit by suit (a whole
            # hand is rarely seen twice, so it is not worth a memo entry)
            k = int(rand() * hand.bit_count())
            for sh, chunks in shifted_chunks:
                chunk = hand >> sh & 8191
                c = chunk.bit_count()
                if k < c:
                    card = chunks[chunk][k]
                    break
                k -= c
            append((seat, card))
            hands[seat] = hand ^ bits[card]
            played = bits[card]
            led = card // 13
            led_shift = 13 * led
            led_chunks = chunk_tables[led]
            keys = keys_of[led]
            trick = [card]
            best = 0
            best_key = keys[card]
            for i, seat in enumerate(after[leader], 1):
                hand = hands[seat]
                chunk = hand >> led_shift & 8191
                if chunk:  # follow suit: the suit's cards in index order
                    moves = led_chunks[chunk]
                    card = moves[int(rand() * len(moves))]
                else:  # void: any card, the k-th of the hand
                    k = int(rand() * hand.bit_count())
                    for sh, chunks in shifted_chunks:
                        chunk = hand >> sh & 8191
                        c = chunk.bit_count()
                        if k < c:
                            card = chunks[chunk][k]
                            break
                        k -= c
                append((seat, card))
                b = bits[card]
                hands[seat] = hand ^ b
                played |= b
                trick.append(card)
                key = keys[card]
                if key > best_key:
                    best, best_key = i, key
            win_card = trick[best]
            winner = (leader + best) % n
            reason = (trump_reasons if win_card // 13 == trump else led_reasons)[win_card]
            tricks.append(Trick(leader, trick, winner, reason, played & points))
            all_played |= played
            won(winner, played)
            seat = winner
            if not hands[winner]:
                self.played = all_played
                self.trick = []
                self.leader = self.turn = winner
                self.led = NO_SUIT
                self._finish()
                return

    def _finish_trick_randomly(self, rand: Callable[[], float]) -> None:
        """Play the trick in progress to its end with random legal cards, then close it."""
        hands = self.hands
        trick = self.trick
        seat = self.turn
        n = self.n
        played = sum(map(_BIT.__getitem__, trick))
        led_mask = SUIT_MASKS[self.led]
        while len(trick) < n:
            hand = hands[seat]
            mask = hand & led_mask or hand
            moves = _MOVES_OF.get(mask) or _moves_of(mask)
            card = moves[int(rand() * len(moves))]
            self.history.append((seat, card))
            hands[seat] = hand ^ _BIT[card]
            played |= _BIT[card]
            trick.append(card)
            seat = seat + 1 if seat + 1 < n else 0
        self.played |= played
        self.turn = seat
        self._close_trick(played)

    def led_suit_name(self) -> str:
        return SUIT_LETTERS[self.led] if 0 <= self.led < 4 else "-"

    def current_trick_json(self) -> list[dict[str, Any]]:
        n = self.n
        return [
            {"seat": (self.leader + i) % n, "card": card_str(c)} for i, c in enumerate(self.trick)
        ]


def parse_hands(
    deal: Mapping[str, Any], n: int, size: int, deck: CardSet, shape: str
) -> list[CardSet]:
    """The hands of a fixed deal, checked: ``n`` hands of ``size`` cards each, no card twice,
    every card in ``deck``. Raises :class:`DealError` naming the problem (``shape`` describes
    the game's deal format for the message)."""
    if not isinstance(deal, Mapping) or "hands" not in deal:
        raise DealError(f"a deal is {shape}")
    hands_in = deal["hands"]
    if not isinstance(hands_in, list | tuple) or len(hands_in) != n:
        raise DealError(f"the deal must have {n} hands")
    seen = 0
    hands = []
    for i, hand in enumerate(hands_in):
        try:
            s = parse_cards(hand)
        except CardError as e:
            raise DealError(f"bad card in hand {i}: {e}") from None
        if s.bit_count() != size:
            raise DealError(f"hand {i} has {s.bit_count()} cards, the rules deal {size}")
        if s & seen:
            raise DealError(f"hand {i} repeats {card_list(s & seen)}")
        if s & ~deck:
            raise DealError(f"hand {i} holds {card_list(s & ~deck)}, not in this game's deck")
        seen |= s
        hands.append(s)
    return hands


_SUIT_MASKS_PLAIN: Final = [*SUIT_MASKS, 0, (1 << 53) - 1]
_LEAD_SUIT_PLAIN: Final = [c // 13 for c in range(52)] + [NO_SUIT]


def suit_masks_plain() -> list[CardSet]:
    """The four printed suits, an empty joker suit, and (index -1) every card (one shared list:
    do not mutate it)."""
    return _SUIT_MASKS_PLAIN


def lead_suit_plain() -> list[int]:
    """Every card leads its printed suit; a led joker asks for nothing (shared: do not mutate)."""
    return _LEAD_SUIT_PLAIN
