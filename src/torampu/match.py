"""Matches: several games with scores carried over and the deal moving on.

A :class:`Match` delegates the contract (``to_play``, ``legal_actions``, ``play``) to the game in
progress and deals the next game when one ends. Each game's seed follows from the match's seed,
so a match replays exactly from its record, by one of two rules (:data:`SEEDINGS`):

- ``"stream"`` (the default, and every record without a ``seeding``): drawn one after another
  from a Mersenne Twister seeded with the match's seed. Its draws can be told from enough earlier
  ones: about 312 games' seeds, published as their records are, tell every later game's deal.
- ``"keyed"``: game ``k``'s seed is a hash of the match's seed and ``k`` (:func:`keyed_seed`).
  The seeds of games played tell nothing of the next ones' while the match's seed stays secret
  — what a table that publishes each game's record as it ends needs.

>>> import torampu
>>> m = torampu.new_match("hell", players=4, seed=5, seeding="keyed")
>>> m.game.seed == keyed_seed(5, 0), m.to_record()["seeding"]
(True, 'keyed')
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from torampu.errors import IllegalAction
from torampu.game import RECORD_FORMAT, Game, Seat
from torampu.options import Rules

GameFactory = Callable[..., Game]

SEEDINGS = ("stream", "keyed")
"""How a match's games' seeds follow from its seed (the module's docstring)."""


def keyed_seed(seed: int, k: int) -> int:
    """The seed of a ``"keyed"`` match's ``k``-th fresh deal (0-based): 63 bits of SHA-256 of
    the match's seed and ``k``.

    >>> keyed_seed(5, 0) != keyed_seed(5, 1), 0 <= keyed_seed(-5, 3) < 2**63
    (True, True)
    """
    digest = hashlib.sha256(f"torampu/game-seed/{seed}/{k}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def leaders(totals: Sequence[float]) -> list[Seat]:
    """The seats of the best total (several on a tie).

    >>> leaders([3, 7, 7])
    [1, 2]
    """
    best = max(totals)
    return [s for s, v in enumerate(totals) if v == best]


class Match:
    """A match of ``games`` games of one kind, with cumulative scores."""

    default_games = 5

    def __init__(
        self,
        name: str,
        factory: GameFactory,
        rules: Rules,
        games: int | None,
        seed: int,
        dealer: Seat = 0,
        seeding: object = "stream",
    ) -> None:
        if not isinstance(seeding, str) or seeding not in SEEDINGS:
            raise ValueError(f"seeding must be one of {', '.join(SEEDINGS)}, not {seeding!r}")
        if games is None:
            games = self.default_games
        if not isinstance(games, int) or isinstance(games, bool) or games < 1:
            raise ValueError(f"games must be a whole number ≥ 1, not {games!r}")
        self.name = name
        self.factory = factory
        self.rules = rules
        self.n: int = rules["players"]
        self.games_total = games
        self.seed = seed
        self.first_dealer = dealer
        self.seeding = seeding
        self.rng = random.Random(seed)
        """The match's generator: each game's seed (``"stream"``) and the draws a game's
        rules make between games (a Daifugo seating)."""
        self.deals = 0
        """Fresh seeds drawn so far (:meth:`_next_seed`)."""
        self.records: list[dict[str, Any]] = []
        self.finished: Game | None = None
        """The game that ended last (its final state: what a table shows of it between games)."""
        self.totals = [0] * self.n
        self.game = self._make_game(dealer, self._first_kwargs())

    # -------------------------------------------------------------- hooks
    def _first_kwargs(self) -> dict[str, Any]:
        return {}

    def _next_kwargs(self, finished: Game) -> dict[str, Any]:
        """Game-specific arguments of the next game, given the one that just ended."""
        return {}

    def _next_dealer(self, finished: Game) -> Seat:
        """The next game's dealer: the next seat."""
        return (finished.dealer + 1) % self.n

    def _next_seed(self) -> int:
        """The next game's seed, fresh by the match's ``seeding`` (``self.game``, when there
        is one, is the game that just ended)."""
        k = self.deals
        self.deals += 1
        if self.seeding == "keyed":
            return keyed_seed(self.seed, k)
        return self.rng.getrandbits(63)

    def records_after_match(self) -> bool:
        """Whether a finished game's full record must wait for the match's end: true where a
        later deal is made from an earlier game's cards, so that the earlier game's hidden
        cards (an undealt stock's order, say) tell the later game's hands. Base: false."""
        return False

    # -------------------------------------------------------------- mechanism
    def _make_game(self, dealer: Seat, kwargs: Mapping[str, Any]) -> Game:
        return self.factory(self.rules, self._next_seed(), None, dealer, **kwargs)

    @property
    def to_play(self) -> Seat | None:
        return None if self.is_over else self.game.to_play

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self.game.phase

    @property
    def is_over(self) -> bool:
        return len(self.records) >= self.games_total

    @property
    def games_played(self) -> int:
        return len(self.records)

    def legal_actions(self) -> list[str]:
        return [] if self.is_over else self.game.legal_actions()

    def is_legal(self, action: str) -> bool:
        """Whether ``action`` is legal now in the current game (:meth:`Game.is_legal`)."""
        return not self.is_over and self.game.is_legal(action)

    def play(self, action: str) -> None:
        """Play in the current game; when it ends, score it and deal the next one."""
        if self.is_over:
            raise IllegalAction(f"{action!r}: the match is over")
        self.game.play(action)
        if self.game.is_over:
            self._game_over()

    def apply(self, move: int) -> None:
        """Fast path, as :meth:`Game.apply`."""
        self.game.apply(move)
        if self.game.is_over:
            self._game_over()

    def _game_over(self) -> None:
        g = self.game
        for s, v in enumerate(g.result()["scores"]):
            self.totals[s] += v
        self.records.append(g.to_record())
        self.finished = g
        if not self.is_over:
            self.game = self._make_game(self._next_dealer(g), self._next_kwargs(g))

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """The current game's view for ``seat``, with the match standings."""
        v = self.game.view(seat)
        v["match"] = self.standings()
        return v

    def standings(self) -> dict[str, Any]:
        """Cumulative scores so far, JSON-safe."""
        per_game = [r["result"]["scores"] for r in self.records]
        return {
            "games": self.games_total,
            "games_played": len(self.records),
            "totals": list(self.totals),
            "per_game": per_game,
            "leaders": leaders(self.totals),
        }

    def result(self) -> dict[str, Any]:
        st = self.standings()
        return {"scores": st["totals"], "winners": st["leaders"] if self.is_over else []}

    def to_record(self) -> dict[str, Any]:
        games = list(self.records)
        if not self.is_over:
            games.append(self.game.to_record())
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "match": True,
            "game": self.name,
            "rules": dict(self.rules),
            "players": self.n,
            "seed": self.seed,
            "dealer": self.first_dealer,
            "games": self.games_total,
            "records": games,
        }
        if self.seeding != "stream":  # (a stream match's record is as it always was)
            rec["seeding"] = self.seeding
        if self.is_over:
            rec["standings"] = self.standings()
        return rec


class NapoleonMatch(Match):
    """Napoleon: the deal passes left; the next auction opens per ``first_bidder``."""

    def _next_kwargs(self, finished: Game) -> dict[str, Any]:
        if self.rules["first_bidder"] == "last_napoleon":
            return {"first_bidder": finished.result()["napoleon"]}
        return {}
