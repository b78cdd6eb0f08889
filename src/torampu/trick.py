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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from torampu.cards import JOKER, SUIT_LETTERS, SUIT_MASKS, Card, CardSet, card_str
from torampu.explain import Reason, explain
from torampu.game import Game, Seat

NO_SUIT = -1
"""The effective suit of a card that belongs to no suit (a joker in most rules)."""


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
    note: dict[str, Any] = field(default_factory=dict)

    def seat_of(self, i: int, n: int) -> Seat:
        return (self.leader + i) % n

    def as_json(self, n: int) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [{"seat": (self.leader + i) % n, "card": card_str(c)} for i, c in enumerate(self.cards)],
            "winner": self.winner,
            "reason": self.reason.code,
            "why": {"en": explain(self.reason, "en"), "ja": explain(self.reason, "ja")},
            **self.note,
        }


class TrickGame(Game):
    """A game whose play phase is tricks: must follow, highest wins, winner leads.

    Subclasses set ``hands``, ``suit_masks`` (one card set per effective suit), ``eff_suit`` (the
    effective suit of every card index) and call :meth:`_start_tricks`; then :meth:`_play_card`
    runs the tricks and calls :meth:`_judge`, :meth:`_won` and :meth:`_tricks_done`.
    """

    hands: list[CardSet]
    suit_masks: list[CardSet]
    eff_suit: list[int]
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
    def _lead_suit(self, card: Card) -> int:
        """The suit that others must follow when ``card`` is led."""
        return self.eff_suit[card]

    def _follow_mask(self, seat: Seat) -> CardSet:
        """The cards ``seat`` may play now: must follow the led suit if able."""
        hand = self.hands[seat]
        if not self.trick or self.led < 0:
            return hand
        return hand & self.suit_masks[self.led] or hand

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

    # ------------------------------------------------------------------ mechanism
    @property
    def trick_no(self) -> int:
        """0-based number of the trick in progress."""
        return len(self.tricks)

    def _play_card(self, seat: Seat, card: Card) -> None:
        self.hands[seat] ^= 1 << card
        self.played |= 1 << card
        trick = self.trick
        if not trick:
            self.led = self._lead_suit(card)
        trick.append(card)
        if len(trick) < self.n:
            self.turn = (seat + 1) % self.n
            return
        idx, reason = self._judge()
        winner = (self.leader + idx) % self.n
        cards = 0
        for c in trick:
            cards |= 1 << c
        self.tricks.append(Trick(self.leader, trick, winner, reason, self._points(cards)))
        self._won(winner, cards)
        self.trick = []
        self.leader = self.turn = winner
        self.led = NO_SUIT
        if self._tricks_done():
            self._finish()

    def _points(self, cards: CardSet) -> CardSet:
        """The scoring cards among a trick's cards (Napoleon: honors)."""
        return 0

    def led_suit_name(self) -> str:
        return SUIT_LETTERS[self.led] if 0 <= self.led < 4 else "-"

    def current_trick_json(self) -> list[dict[str, Any]]:
        n = self.n
        return [
            {"seat": (self.leader + i) % n, "card": card_str(c)} for i, c in enumerate(self.trick)
        ]


def suit_masks_plain() -> list[CardSet]:
    """The four printed suits, plus an empty fifth slot for 'no suit'."""
    return [*SUIT_MASKS, 0]


def eff_suit_plain() -> list[int]:
    """Every card's printed suit; the joker has none."""
    return [c // 13 for c in range(52)] + [NO_SUIT]
