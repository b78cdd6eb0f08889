"""The bot interface, the registry of bot kinds, and a driver that plays a game with bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from torampu.errors import TorampuError
from torampu.game import Game
from torampu.match import Match

View = Mapping[str, Any]
"""What a bot sees: ``view(seat)`` of the game (JSON-safe)."""


class BotError(TorampuError):
    """An unknown bot kind, or a bot that returned an action that is not legal."""


class Bot(Protocol):
    """A player: picks one of ``legal`` given ``view`` (and nothing else)."""

    name: str

    def choose(self, view: View, legal: Sequence[str]) -> str:
        """One of ``legal``."""
        ...


BotFactory = Callable[[int, str], Bot]
"""``factory(seed, game_name)`` -> a bot for that game."""

_REGISTRY: dict[str, BotFactory] = {}


def register(kind: str) -> Callable[[BotFactory], BotFactory]:
    """Decorator: make a bot factory available as ``make_bot(kind, …)``."""

    def deco(factory: BotFactory) -> BotFactory:
        _REGISTRY[kind] = factory
        return factory

    return deco


def bot_kinds() -> list[str]:
    """The registered bot kinds."""
    _load_builtin()
    return sorted(_REGISTRY)


def make_bot(kind: str, seed: int = 0, game: str = "napoleon") -> Bot:
    """A new bot of ``kind`` (``random``, ``heuristic``, …) for ``game``, seeded."""
    _load_builtin()
    if kind not in _REGISTRY:
        raise BotError(f"unknown bot kind {kind!r} (kinds: {', '.join(sorted(_REGISTRY))})")
    return _REGISTRY[kind](seed, game)


def _load_builtin() -> None:
    # importing the modules registers their bots
    from torampu.bots import heuristic, search  # noqa: F401


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[str]) -> str:
        return legal[int(self.rng.random() * len(legal))]


@register("random")
def _random(seed: int, game: str) -> Bot:
    return RandomBot(seed)


G = TypeVar("G", Game, Match)


def play_game(game: G, bots: Sequence[Bot], until_over: bool = True) -> G:
    """Let ``bots[seat]`` play every decision until the game (or match) is over.

    Each bot sees only ``game.view(seat)`` and the legal actions; an illegal answer raises
    :class:`BotError` and changes nothing.
    """
    while not game.is_over:
        seat = game.to_play
        assert seat is not None
        legal = game.legal_actions()
        action = bots[seat].choose(game.view(seat), legal)
        if action not in legal:
            raise BotError(f"bot {bots[seat].name!r} at seat {seat} chose {action!r}, not legal")
        game.play(action)
        if not until_over:
            break
    return game
