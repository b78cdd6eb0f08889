"""The public game contract, shared by every game.

A :class:`Game` is one deal from shuffle to score. It has two faces:

* the **public contract** of ``spec/api.md``: actions are canonical strings
  (:meth:`Game.legal_actions`, :meth:`Game.play`), views are JSON-safe dicts filtered per seat
  (:meth:`Game.view`), and :meth:`Game.to_record` writes a record that :func:`replay` reads back;
* a **fast path** for bots and search: actions are ``int`` moves (:meth:`Game.legal_moves`,
  :meth:`Game.apply`, which trusts its caller) and :meth:`Game.clone` copies a state cheaply.

Every action string maps to exactly one move and back (:meth:`Game.action_str`,
:meth:`Game.parse_action`). A subclass implements the game through a handful of hooks; the
validation that keeps an illegal action from changing anything lives here, once.
"""

from __future__ import annotations

import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from torampu.errors import IllegalAction, RecordError, TorampuError
from torampu.options import Rules, RuleSpec

Move = int
"""An action on the fast path: a small ``int`` whose meaning each game defines."""
Seat = int
"""A seat, numbered 0..n-1 in the direction of play."""

RECORD_FORMAT = "torampu/1"


def new_seed() -> int:
    """A fresh seed for a game whose caller gave none (it is written into the record)."""
    return secrets.randbits(63)


CHOICES_LISTED: Final = 1000
"""The most ways of a choice of cards (:meth:`Game.choose`) a view lists one by one in its
``legal_actions``; past it the list is empty and ``choose`` says what may be chosen (seven cards
of 21 are 200,000 actions, a megabyte of view and a second to make)."""


def listed(choose: Mapping[str, Any] | None) -> bool:
    """Whether a decision (:meth:`Game.choose`'s description, or ``None``) is listed one
    action by one in a view and a snapshot, rather than described: at most
    :data:`CHOICES_LISTED` ways.

    >>> listed(None), listed({"ways": 1000}), listed({"ways": 1001})
    (True, True, False)
    """
    return choose is None or int(choose["ways"]) <= CHOICES_LISTED


class Game(ABC):
    """One game (deal) of some card game, behind the public contract."""

    name: ClassVar[str]
    """The game's public name: ``"napoleon"``, ``"nap"``, ``"hell"``, ``"daifugo"``."""
    spec: ClassVar[RuleSpec]
    """Its options and presets."""
    extra_args: ClassVar[tuple[str, ...]] = ()
    """Game-specific keyword arguments of :func:`torampu.new_game` (Napoleon: first_bidder)."""

    rules: Rules
    n: int
    seed: int
    dealer: Seat
    rng: random.Random
    history: list[tuple[Seat, Move]]

    # ------------------------------------------------------------------ hooks for subclasses
    @property
    @abstractmethod
    def to_play(self) -> Seat | None:
        """The seat whose decision it is, or ``None`` when the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """A short phase name: ``"bid"``, ``"play"``, ``"over"``, …"""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move now, in the canonical order of :meth:`legal_actions`."""

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Apply a move known to be legal (no validation)."""

    @abstractmethod
    def action_str(self, move: Move) -> str:
        """The canonical action string of a move."""

    @abstractmethod
    def parse_action(self, action: str) -> Move:
        """The move an action string names, or :class:`IllegalAction` if it is malformed.

        A well-formed action need not be legal now; :meth:`play` checks that.
        """

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """JSON-safe result: at least ``scores`` (per seat) and ``winners`` (seats)."""

    def scores(self) -> list[int]:
        """``result()["scores"]``; a game may compute them alone, faster (search calls it at
        the end of every rollout)."""
        scores: list[int] = self.result()["scores"]
        return scores

    @abstractmethod
    def view(self, seat: Seat | None) -> dict[str, Any]:
        """Everything ``seat`` may know now, and nothing more (``None``: a spectator)."""

    @abstractmethod
    def _deal_record(self) -> dict[str, Any]:
        """The initial deal as JSON (as accepted by the ``deal`` argument)."""

    _copied: ClassVar[tuple[str, ...]] = ("history",)
    """The mutable list attributes that :meth:`clone` copies (everything else is immutable)."""

    def clone(self) -> Game:
        """An independent copy of this state (for search): the lists in ``_copied`` and the
        random generator are copied, the rest (ints, tuples, shared tables) is shared."""
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        for name in self._copied:
            setattr(g, name, list(getattr(self, name)))
        rng = self.__dict__.get("rng")
        if rng is not None:  # a game that draws nothing after its deal keeps no generator
            g.rng = random.Random()
            g.rng.setstate(rng.getstate())
        return g

    def hidden_from(self, seat: Seat | None) -> int:
        """The cards (a card set) that ``seat`` may not know the place of now.

        Every other hand, and the undealt or discarded cards the rules keep face down. Used by
        :func:`torampu.testing.api_test` to check that no view leaks them.
        """
        hands: list[int] = getattr(self, "hands", [])
        out = 0
        for s, h in enumerate(hands):
            if s != seat:
                out |= h
        return out

    def _illegal_reason(self, move: Move) -> str | None:
        """Why ``move`` is not legal now, or ``None`` when it is. Subclasses make it precise."""
        if move in self.legal_moves():
            return None
        return "it is not among the legal actions"

    def _record_extra(self) -> dict[str, Any]:
        """Game-specific fields a record needs to be replayed (e.g. Napoleon's first bidder)."""
        return {}

    # ------------------------------------------------------------------ public contract
    @property
    def is_over(self) -> bool:
        return self.to_play is None

    @property
    def players(self) -> int:
        return self.n

    def legal_actions(self) -> list[str]:
        """Every legal action as a canonical string, in a deterministic order."""
        s = self.action_str
        return [s(m) for m in self.legal_moves()]

    def choose(self) -> dict[str, Any] | None:
        """Where the seat to play chooses a set of its cards (a Daifugo exchange, 7渡し,
        10捨て, a Napoleon's discard): ``{"verb", "min", "max", "ways"}``, for a front end to
        read instead of the list of every choice (a view lists it in ``legal_actions`` only up
        to :data:`CHOICES_LISTED` ways); ``None`` for any other decision (the default)."""
        return None

    def legal_actions_up_to(self, most: int) -> list[str]:
        """Legal actions for a bot to choose from: :meth:`legal_actions`, or where a choice of
        cards has more than ``most`` ways, a part of them a game picks (every one legal)."""
        return self.legal_actions()

    def offers_in_part(self, most: int) -> bool:
        """Whether :meth:`legal_actions_up_to` ``(most)`` is only a part of the legal actions
        — told without listing either (a Daifugo 7渡し of 200,000 ways; a Napoleon's discard,
        6,188 at most, is offered whole)."""
        return False

    def is_legal(self, action: str) -> bool:
        """Whether ``action`` (any spelling :meth:`play` reads) is legal now — decided without
        listing every legal action where a game can (a Daifugo choice of cards).

        >>> import torampu
        >>> g = torampu.new_game("hell", seed=1)
        >>> g.is_legal(g.legal_actions()[0]), g.is_legal("bid 99"), g.is_legal("nonsense")
        (True, False, False)
        """
        if not isinstance(action, str) or self.to_play is None:
            return False
        try:
            move = self.parse_action(action)
        except TorampuError:
            return False
        return self._illegal_reason(move) is None

    def play(self, action: str) -> None:
        """Apply an action string; raise :class:`IllegalAction` (state unchanged) if not legal."""
        if not isinstance(action, str):
            raise IllegalAction(f"an action is a string, not {type(action).__name__}")
        seat = self.to_play
        if seat is None:
            raise IllegalAction(f"{action!r}: the game is over")
        move = self.parse_action(action)
        why = self._illegal_reason(move)
        if why is not None:
            raise IllegalAction(f"{action!r} is not legal for seat {seat} now: {why}")
        self._apply(move)

    def apply(self, move: Move) -> None:
        """Fast path: apply a move from :meth:`legal_moves` without checking it."""
        self._apply(move)

    def to_record(self) -> dict[str, Any]:
        """The record: rules, seats, seed, deal and actions (and the result once over)."""
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.name,
            "rules": dict(self.rules),
            "players": self.n,
            "seed": self.seed,
            "dealer": self.dealer,
        }
        rec.update(self._record_extra())
        rec["deal"] = self._deal_record()
        s = self.action_str
        rec["actions"] = [{"seat": seat, "action": s(m)} for seat, m in self.history]
        if self.is_over:
            rec["result"] = self.result()
        return rec

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.phase} to_play={self.to_play}>"


def check_record_header(record: Mapping[str, Any]) -> None:
    """Raise :class:`RecordError` unless ``record`` looks like a torampu record."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    fmt = record.get("format")
    if fmt != RECORD_FORMAT:
        raise RecordError(f"record format is {fmt!r}, expected {RECORD_FORMAT!r}")
    for key in ("game", "rules", "seed"):
        if key not in record:
            raise RecordError(f"record has no {key!r}")
