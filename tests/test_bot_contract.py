"""The bot contract, for every game and every registered bot kind that plays it.

A bot is given ``view(seat)`` and the legal action strings and must (1) answer one of them, in
every phase (bidding, adjutant, exchange, 7渡し, 10捨て, play …), (2) answer the same for the
same seed, and (3) depend on nothing but that data: it answers the same to a copy of the view
that went through JSON (so no object identity, no hidden attribute, no reference to the game
can matter), the view holds no game or match object, and no bot keeps a reference to the real
game after answering. Positions come from random play with fixed seeds. Kinds are found with
``bot_kinds()``; a kind that does not play a game (``make_bot`` raises :class:`BotError`) is
skipped for it, so a bot kind or search sampler added later is tested without editing this file.
"""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from types import FunctionType, ModuleType
from typing import Any

import pytest

import torampu
from torampu.bots import Bot, BotError, bot_kinds, make_bot
from torampu.game import Game
from torampu.match import Match

# (game, rules preset, as a match?) — presets chosen so every phase of each game occurs
CASES = [
    ("napoleon", "classic", False),
    ("napoleon", "house-001", False),
    ("nap", "standard", False),
    ("hell", "standard", True),
    ("daifugo", "standard", True),
    ("daifugo", "yaita", True),
]
PHASES = {
    "napoleon": {"bid", "adjutant", "exchange", "play"},
    "nap": {"bid", "play"},
    "hell": {"bid", "play"},
    "daifugo": {"exchange", "give", "discard", "play"},
}
SEARCH_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "ismcts": [
        {"iterations": 12, "samples": 2},  # auto: PIMC or the tree, as the game measured best
        {"iterations": 12, "algorithm": "tree"},
        {"samples": 2, "algorithm": "pimc"},
    ]
}
"""Tiny budgets for search bots, in each of their ways to decide: the contract, not the
strength, is under test."""
PLAY_EVERY = 12
"""Every 12th play decision of a game is kept as a position (every decision of a rarer phase is)."""


@dataclass
class Position:
    game_name: str
    phase: str
    seat: int
    view: dict[str, Any]
    legal: list[str]
    real: Game | Match


def positions(game: str, preset: str, as_match: bool, seeds: range) -> list[Position]:
    """Positions reached by random play: every non-play decision, a share of the play ones."""
    out: list[Position] = []
    for seed in seeds:
        g: Game | Match = (
            torampu.new_match(game, preset, games=2, seed=seed)
            if as_match
            else torampu.new_game(game, preset, seed=seed)
        )
        rng = random.Random(seed)
        plays = 0
        while not g.is_over:
            seat = g.to_play
            assert seat is not None
            legal = g.legal_actions()
            if g.phase == "play":
                plays += 1
            if g.phase != "play" or plays % PLAY_EVERY == 1:
                out.append(Position(game, g.phase, seat, g.view(seat), legal, g))
            g.play(rng.choice(legal))
    return out


def _label(options: dict[str, Any]) -> str:
    return "-" + str(options.get("algorithm", "auto")) if options else ""


def kinds_for(game: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for kind in bot_kinds():
        for options in SEARCH_OPTIONS.get(kind, [{}]):
            try:
                make_bot(kind, 0, game, **options)
            except BotError:
                continue  # this kind does not play this game (yet)
            yield kind, options


PARAMS = [
    pytest.param(
        game, preset, as_match, kind, options, id=f"{game}-{preset}-{kind}{_label(options)}"
    )
    for game, preset, as_match in CASES
    for kind, options in kinds_for(game)
]


@pytest.fixture(scope="module")
def position_sets() -> dict[tuple[str, str], list[Position]]:
    return {
        (game, preset): positions(game, preset, as_match, range(3))
        for game, preset, as_match in CASES
    }


def test_every_game_has_a_bot_and_positions_cover_every_phase(
    position_sets: dict[tuple[str, str], list[Position]],
) -> None:
    for game, phases in PHASES.items():
        seen = {p.phase for (g, _), ps in position_sets.items() if g == game for p in ps}
        assert phases <= seen, (game, seen)
        assert {"random", "heuristic"} <= {k for k, _ in kinds_for(game)}


def reachable(root: object, limit: int = 1_000_000) -> list[object]:
    """Every object reachable from ``root`` by references (``gc.get_referents``), except
    through modules and functions' globals (shared code, not data a bot holds; a function's
    closure cells and defaults are followed)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, ModuleType):
            continue
        seen[id(obj)] = obj
        assert len(seen) < limit, "the walk is too large to be complete"
        if isinstance(obj, FunctionType):
            stack.extend(obj.__closure__ or ())
            stack.extend(obj.__defaults__ or ())
            stack.extend((obj.__kwdefaults__ or {}).values())
            continue
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def json_copy(view: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(view))
    return copied


@pytest.mark.parametrize(("game", "preset", "as_match", "kind", "options"), PARAMS)
def test_bot_contract(
    position_sets: dict[tuple[str, str], list[Position]],
    game: str,
    preset: str,
    as_match: bool,
    kind: str,
    options: dict[str, Any],
) -> None:
    ps = position_sets[game, preset]
    assert ps
    # one bot answers the real views, its twin (same seed) JSON copies of them, in the same order
    bot: Bot = make_bot(kind, 11, game, **options)
    twin: Bot = make_bot(kind, 11, game, **options)
    for p in ps:
        view_before = json.dumps(p.view, sort_keys=True)
        answer = bot.choose(p.view, list(p.legal))
        assert answer in p.legal, (kind, game, p.phase, answer)
        assert json.dumps(p.view, sort_keys=True) == view_before, "the bot changed its view"
        copy = json_copy(p.view)
        assert copy == p.view  # the view is plain JSON data
        assert twin.choose(copy, list(p.legal)) == answer, (kind, game, p.phase)
    # and the bot keeps no reference to any real game it was shown a view of
    games = {id(p.real) for p in ps}
    assert not any(id(obj) in games for obj in reachable(bot))


@pytest.mark.parametrize(("game", "preset", "as_match", "kind", "options"), PARAMS)
def test_bot_is_deterministic_per_seed(
    position_sets: dict[tuple[str, str], list[Position]],
    game: str,
    preset: str,
    as_match: bool,
    kind: str,
    options: dict[str, Any],
) -> None:
    ps = position_sets[game, preset][::3]
    answers = []
    for _ in range(2):
        bot = make_bot(kind, 5, game, **options)
        answers.append([bot.choose(json_copy(p.view), list(p.legal)) for p in ps])
    assert answers[0] == answers[1]


@pytest.mark.parametrize(("game", "preset", "as_match"), CASES)
def test_views_hold_no_game_object(
    position_sets: dict[tuple[str, str], list[Position]], game: str, preset: str, as_match: bool
) -> None:
    for p in position_sets[game, preset][::4]:
        for obj in reachable(p.view):
            assert not isinstance(obj, Game | Match), (game, p.phase, type(obj))
            assert obj is not p.real


def test_a_bot_that_peeks_is_caught() -> None:
    """The walk finds a reference to the game when a bot does keep one (the test is not empty)."""
    g = torampu.new_game("nap", seed=1)

    class Peeker:
        name = "peeker"

        def __init__(self) -> None:
            self.memory: list[object] = []

        def choose(self, view: Any, legal: Any) -> str:
            self.memory.append({"game": g})
            return str(legal[0])

    bot = Peeker()
    bot.choose(g.view(g.to_play), g.legal_actions())
    assert any(obj is g for obj in reachable(bot))
