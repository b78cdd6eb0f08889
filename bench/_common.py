"""What the benchmarks share: the timed loops of random play, best-of-N timing, timed bots and
confidence intervals. Each ``bench/*.py`` script imports it (they run with ``bench/`` first on
``sys.path``, as ``python bench/<name>.py`` does)."""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from torampu.bots import Bot
from torampu.bots.base import View

Run = tuple[float, int]
"""(seconds spent inside the step loops, steps taken)."""

NewGame = Callable[[int], Any]
"""``new(i)``: the i-th game of a run (a fixed seed per ``i``)."""


def run_public(new: NewGame, games: int, seed: int) -> Run:
    """Random games through the public API: ``legal_actions()`` + ``play(str)``."""
    rand = random.Random(seed).random
    clock = time.perf_counter
    steps = 0
    inside = 0.0
    for i in range(games):
        g = new(i)
        t = clock()
        while not g.is_over:
            legal = g.legal_actions()
            g.play(legal[int(rand() * len(legal))])
            steps += 1
        inside += clock() - t
    return inside, steps


def run_fast(new: NewGame, games: int, seed: int) -> Run:
    """Random games through the fast path: ``legal_moves()`` + ``apply(int)``."""
    rand = random.Random(seed).random
    clock = time.perf_counter
    steps = 0
    inside = 0.0
    for i in range(games):
        g = new(i)
        t = clock()
        while not g.is_over:
            moves = g.legal_moves()
            g.apply(moves[int(rand() * len(moves))])
            steps += 1
        inside += clock() - t
    return inside, steps


def run_playout(new: NewGame, games: int, seed: int) -> Run:
    """Random games by the engine's own ``playout(rng)``."""
    rng = random.Random(seed)
    clock = time.perf_counter
    steps = 0
    inside = 0.0
    for i in range(games):
        g = new(i)
        t = clock()
        g.playout(rng)
        inside += clock() - t
        steps += len(g.history)
    return inside, steps


def run_new(new: NewGame, games: int, seed: int) -> Run:
    """Game creation alone."""
    clock = time.perf_counter
    t = clock()
    for i in range(games):
        new(i)
    return clock() - t, games


def best_of(
    run: Callable[[NewGame, int, int], Run],
    new: NewGame,
    games: int,
    seed: int,
    repeats: int = 3,
    warm_up: int = 20,
) -> dict[str, float]:
    """A warm-up (fills the engine's memo tables), then the best of ``repeats`` timed runs:
    seconds, games/s, steps per game and µs per step (game creation excluded)."""
    run(new, max(warm_up, games // 10), seed)
    best: dict[str, float] = {}
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        inside, steps = run(new, games, seed)
        wall = time.perf_counter() - t0
        if not best or wall < best["seconds"]:
            best = {
                "seconds": wall,
                "games_per_s": games / wall,
                "steps_per_game": steps / games,
                "us_per_step": inside / steps * 1e6,
            }
    return best


class Timed:
    """Wraps a bot and times its decisions."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = 0
        self.seconds = 0.0

    def choose(self, view: View, legal: Sequence[str]) -> str:
        t = time.perf_counter()
        action = self.inner.choose(view, legal)
        self.seconds += time.perf_counter() - t
        self.calls += 1
        return action


def ci95(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.mean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
    return mean, half
