"""Bots: players that see only what a seat may see.

A bot is given ``view(seat)`` (a JSON-safe dict) and the legal action strings, and returns one of
them. It never receives the game object, so it cannot peek at hidden cards. Bots are
deterministic for a given seed.

>>> import torampu
>>> from torampu.bots import make_bot, play_game
>>> g = torampu.new_game("napoleon", rules="classic", seed=3)
>>> bots = [make_bot("random", seed=s) for s in range(5)]
>>> play_game(g, bots).is_over
True
"""

from __future__ import annotations

from torampu.bots.base import (
    Bot,
    BotError,
    bot_kinds,
    bot_options,
    make_bot,
    parse_bot_spec,
    play_game,
    register,
)

__all__ = [
    "Bot",
    "BotError",
    "bot_kinds",
    "bot_options",
    "make_bot",
    "parse_bot_spec",
    "play_game",
    "register",
]
