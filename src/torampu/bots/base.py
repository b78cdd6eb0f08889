"""The bot interface, the registry of bot kinds, and a driver that plays a game with bots.

A bot kind may take options (the ``ismcts`` bot: ``think``, ``iterations``): keyword arguments of
its factory, passed on by ``make_bot(kind, seed, game, **options)``. A *bot spec* names a kind
and its options in one string, ``kind:key=value:key=value`` (``ismcts:think=0.5``,
``ismcts:iterations=2000``), read by :func:`parse_bot_spec`.

>>> parse_bot_spec("ismcts:iterations=200:think=0.5")
('ismcts', {'iterations': 200, 'think': 0.5})
>>> make_bot("random", seed=1, game="nap", colour="blue")
Traceback (most recent call last):
...
torampu.bots.base.BotError: the random bot takes no option 'colour' (options: none)
"""

from __future__ import annotations

import inspect
import math
import random
import re
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
    """A player: picks one of ``legal`` given ``view`` (and nothing else).

    A bot may also learn from the games of a match: a front end that knows a finished game's
    every hand from what the table showed (a UECda client: :meth:`torampu.uecda.client.
    GameTracker.revealed`) calls its ``learn(record) -> bool`` method, if it has one, with that
    game's record; it returns whether it learned (``ismcts:adapt=on`` does, in Daifugo)."""

    name: str

    def choose(self, view: View, legal: Sequence[str]) -> str:
        """One of ``legal``."""
        ...


BotFactory = Callable[..., Bot]
"""``factory(seed, game_name, **options)`` -> a bot for that game.

The options a kind accepts are its factory's keyword parameters after ``seed`` and ``game``; a
factory of ``(seed, game)`` alone takes none. A factory checks its options' values and raises
:class:`BotError` naming a bad one."""

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


def _factory(kind: str) -> BotFactory:
    _load_builtin()
    if kind not in _REGISTRY:
        raise BotError(f"unknown bot kind {kind!r} (kinds: {', '.join(sorted(_REGISTRY))})")
    return _REGISTRY[kind]


def bot_options(kind: str) -> list[str]:
    """The options ``make_bot(kind, …)`` accepts (``[]`` if none); :class:`BotError` for an
    unknown kind.

    >>> bot_options("ismcts")  # doctest: +NORMALIZE_WHITESPACE
    ['adapt', 'algorithm', 'belief', 'bid_z', 'correct', 'endgame', 'endgame_nodes',
     'exploration', 'guard', 'guard_by', 'infer_adjutant', 'infer_bids', 'infer_exchange',
     'iterations', 'likelihood', 'opponents', 'others_params', 'others_temperature', 'params',
     'prior',
     'prior_weight', 'reward',
     'rollout', 'rollout_explore', 'rollout_hold', 'rollout_mate', 'root_mate', 'samples',
     'shed', 'temperature', 'think', 'unseen_exchange', 'worlds', 'z']
    """
    params = list(inspect.signature(_factory(kind)).parameters.values())[2:]
    return sorted(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


def make_bot(kind: str, seed: int = 0, game: str = "napoleon", **options: Any) -> Bot:
    """A new bot of ``kind`` (``random``, ``heuristic``, ``ismcts``, …) for ``game``, seeded.

    ``options`` go to the kind's factory (``make_bot("ismcts", 1, "hell", iterations=200)``); an
    unknown kind, an option the kind does not take or a bad value raise :class:`BotError`.
    """
    factory = _factory(kind)
    if options:
        accepted = bot_options(kind)
        for key in options:
            if key not in accepted:
                known = ", ".join(accepted) or "none"
                raise BotError(f"the {kind} bot takes no option {key!r} (options: {known})")
    return factory(seed, game, **options)


_SPEC_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def check_nonnegative(kind: str, name: str, value: object) -> None:
    """Refuse the option ``name`` of the bot ``kind`` unless ``value`` is a finite number
    ``>= 0`` (a bool is not a number here).

    >>> check_nonnegative("ismcts", "z", 1.5)
    >>> check_nonnegative("policy", "temperature", -1)
    Traceback (most recent call last):
    ...
    torampu.bots.base.BotError: policy option temperature must be a number >= 0, not -1
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
        raise BotError(f"{kind} option {name} must be a number >= 0, not {value!r}")


def _spec_value(text: str) -> bool | int | float | str:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"kind"`` or ``"kind:key=value:key=value"`` -> ``(kind, options)``.

    Values become ints, floats or booleans (``true``/``false``) where they read as one, else
    stay strings. Whether the kind exists and takes those options is :func:`make_bot`'s check; a
    malformed spec (no kind, an option without ``=``, an empty or repeated key) raises
    :class:`BotError` naming it.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise BotError(
            f"empty bot spec {spec!r}: give a kind, e.g. 'heuristic' or 'ismcts:think=0.5'"
        )
    kind, *parts = (p.strip() for p in spec.strip().split(":"))
    if not kind or "=" in kind:
        raise BotError(
            f"bot spec {spec!r} does not start with a bot kind "
            "(write kind:key=value, e.g. 'ismcts:iterations=2000')"
        )
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, value = (x.strip() for x in part.partition("="))
        if not eq or not _SPEC_KEY.match(key) or not value:
            raise BotError(
                f"bot spec {spec!r}: option {part!r} is not key=value "
                "(e.g. 'ismcts:think=0.5:iterations=2000')"
            )
        if key in options:
            raise BotError(f"bot spec {spec!r} gives option {key!r} twice")
        options[key] = _spec_value(value)
    return kind, options


def _load_builtin() -> None:
    # importing the modules registers their bots
    from torampu.bots import heuristic, onnx_napoleon, policy, search  # noqa: F401


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
