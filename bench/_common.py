"""What the benchmarks share: the timed loops of random play, best-of-N timing, timed bots and
confidence intervals. Each ``bench/*.py`` script imports it (they run with ``bench/`` first on
``sys.path``, as ``python bench/<name>.py`` does)."""

from __future__ import annotations

import atexit
import gc
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
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


# ------------------------------------------------------------------------------ baselines
BASELINE = "5313adf,pure"
"""What the speed figures are compared with by default: revision 5313adf (main before issue
21's speed work) and ``pure``, this tree's own source on its pure-Python build
(``TORAMPU_PURE=1``) beside the compiled one it measures (``--baseline REV[,REV…]``;
``--baseline none`` measures this tree only)."""

PURE = "pure"
"""The baseline name of this tree's pure-Python build."""


def engine_mode() -> str:
    """Which build of the engine this process runs: ``compiled`` or ``pure`` (a revision
    before the compiled build has only the pure one)."""
    try:
        from torampu import _engine
    except ImportError:
        return PURE
    return str(_engine.MODE)


def baselines(arg: str) -> list[str]:
    """The revisions named by ``--baseline`` (``none``: none; ``pure`` only when this process
    runs the compiled build, since otherwise it would time the same build twice)."""
    revs = [r for r in arg.split(",") if r and r != "none"]
    return [r for r in revs if r != PURE or engine_mode() != PURE]


ROOT = Path(__file__).resolve().parent.parent
_CHECKOUTS: dict[str, Path] = {}


def baseline_src(rev: str) -> Path:
    """The ``src`` directory of revision ``rev`` of this repository, extracted by
    ``git archive`` into a temporary directory (removed at exit; one per revision)."""
    if rev == PURE:
        return ROOT / "src"
    got = _CHECKOUTS.get(rev)
    if got is None:
        tar = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True
        ).stdout
        tmp = Path(tempfile.mkdtemp(prefix=f"torampu-bench-{rev}-"))
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            t.extractall(tmp, filter="data")
        atexit.register(shutil.rmtree, tmp, True)
        got = _CHECKOUTS[rev] = tmp / "src"
    return got


def run_on(src: Path, script: str, args: Sequence[str], pure: bool = False) -> dict[str, Any]:
    """Run ``bench/<script>`` (this tree's measuring code) with ``args`` on the engine in
    ``src`` (first on ``PYTHONPATH``) in a subprocess, and return the figures it writes with
    ``--json``. Checks that the subprocess imported ``torampu`` from ``src``, and with
    ``pure`` that it ran the pure-Python build (``TORAMPU_PURE=1``)."""
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        env = {**os.environ, "PYTHONPATH": str(src), "TORAMPU_PURE": "1" if pure else ""}
        subprocess.run(
            [sys.executable, str(ROOT / "bench" / script), *args, "--json", out],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        with open(out, encoding="utf-8") as f:
            got: dict[str, Any] = json.load(f)
    finally:
        os.unlink(out)
    where = Path(got.get("torampu", "")).resolve()
    if src.resolve() not in where.parents:
        raise RuntimeError(f"the baseline run imported torampu from {where}, not from {src}")
    if pure and got.get("engine") != PURE:
        raise RuntimeError(f"the pure baseline ran the {got.get('engine')} engine")
    return got


def ratio(new: float, old: float) -> str:
    """``new / old`` as ``×1.23`` (``–`` without a baseline figure)."""
    return f"×{new / old:.2f}" if old else "–"
