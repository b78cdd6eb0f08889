"""Napoleon speed: whole random 5-player games per second from a fixed seed, on one core.

Run: .venv/bin/python bench/napoleon.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import torampu

TARGETS = "targets: public API >= 5,000 games/s; fast path >= 10,000 games/s"
PEERS = (
    "peers on this machine (from the issue): tight pure-Python playout ~20,000 games/s; "
    "OpenSpiel C++ oh_hell driven from Python ~5,000 games/s"
)


def public(preset: str, games: int) -> tuple[int, int]:
    rng = random.Random(1)
    steps = 0
    for i in range(games):
        g = torampu.new_game("napoleon", preset, seed=i)
        while not g.is_over:
            legal = g.legal_actions()
            g.play(legal[int(rng.random() * len(legal))])
            steps += 1
    return games, steps


def fast(preset: str, games: int) -> tuple[int, int]:
    rng = random.Random(1)
    steps = 0
    for i in range(games):
        g = torampu.new_game("napoleon", preset, seed=i)
        while not g.is_over:
            moves = g.legal_moves()
            g.apply(moves[int(rng.random() * len(moves))])
            steps += 1
    return games, steps


def playout(preset: str, games: int) -> tuple[int, int]:
    rng = random.Random(1)
    steps = 0
    for i in range(games):
        g = torampu.new_game("napoleon", preset, seed=i)
        g.playout(rng)  # type: ignore[attr-defined]
        steps += len(g.history)
    return games, steps


def best_of(
    fn: Callable[[str, int], tuple[int, int]], preset: str, games: int
) -> tuple[float, float]:
    fn(preset, max(50, games // 10))  # warm-up (fills the memo tables)
    best = float("inf")
    steps = 0
    for _ in range(3):
        t = time.perf_counter()
        _, steps = fn(preset, games)
        best = min(best, time.perf_counter() - t)
    return games / best, best / steps * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=3000)
    args = ap.parse_args()
    print(TARGETS)
    print(PEERS)
    for preset in ("classic", "house-001"):
        for label, fn in (
            ("public legal_actions()+play(str)", public),
            ("fast legal_moves()+apply(int)", fast),
            ("fast playout(rng)", playout),
        ):
            rate, per_step = best_of(fn, preset, args.games)
            print(f"{preset:10s} {label:34s} {rate:9,.0f} games/s  {per_step:6.2f} µs/step")


if __name__ == "__main__":
    main()
