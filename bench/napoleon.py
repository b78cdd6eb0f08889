"""Napoleon speed: whole random games per second from a fixed seed, on one core.

For each preset (``classic``, ``house-001``; 5 players) it measures, best of 3 after a warm-up:

* games/s through the public API (``legal_actions()`` + ``play(str)``),
* games/s through the fast path (``legal_moves()`` + ``apply(int)``),
* games/s through ``playout(rng)``,
* µs per step of both loops (game creation excluded), steps per game, µs per ``new_game``,
* memory of a mid-game state and of its clone (tracemalloc), and µs per ``clone()``.

Run: .venv/bin/python bench/napoleon.py [--games N] [--json FILE]
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import sys
import time
import tracemalloc
from functools import partial
from typing import Any

import torampu
from _common import best_of, run_fast, run_new, run_playout, run_public

PRESETS = ("classic", "house-001")
PLAYERS = 5
SEED = 20240601
REPEATS = 3
TARGETS = {"public": 5_000.0, "fast": 10_000.0}
REFERENCE = (
    "reference points: tight pure-Python playout ≈ 20,000 games/s; "
    "OpenSpiel C++ oh_hell from Python ≈ 5,000 games/s"
)


def new(preset: str, i: int) -> Any:
    return torampu.new_game("napoleon", preset, players=PLAYERS, seed=SEED + i)


def mid_game(preset: str) -> Any:
    """A state half-way through the tricks of a fixed random game."""
    rng = random.Random(SEED)
    g = new(preset, 0)
    while g.phase != "play" or len(g.view(None)["tricks"]) < 5:  # 10 tricks in all
        moves = g.legal_moves()
        g.apply(moves[int(rng.random() * len(moves))])
    return g


def memory(preset: str) -> dict[str, float]:
    """tracemalloc bytes held by a mid-game state and by its clone; µs per clone()."""
    mid_game(preset).clone()  # warm-up: the memo tables the same path fills
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    g = mid_game(preset)
    gc.collect()
    state = tracemalloc.get_traced_memory()[0] - base
    base = tracemalloc.get_traced_memory()[0]
    c = g.clone()
    gc.collect()
    clone = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del c
    reps = 20_000
    best = float("inf")
    for _ in range(REPEATS):
        t = time.perf_counter()
        for _ in range(reps):
            g.clone()
        best = min(best, time.perf_counter() - t)
    return {"state_bytes": state, "clone_bytes": clone, "clone_us": best / reps * 1e6}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=3000, help="games per timed run (default 3000)")
    ap.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    args = ap.parse_args()
    games = args.games
    out: dict[str, Any] = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "players": PLAYERS,
        "games": games,
        "repeats": REPEATS,
        "seed": SEED,
        "targets_games_per_s": TARGETS,
        "presets": {},
    }
    print(
        f"Napoleon, {PLAYERS} players, {games} random games per run, best of {REPEATS}, "
        f"one core, Python {out['python']}"
    )
    print(
        f"targets: public API >= {TARGETS['public']:,.0f} games/s; "
        f"fast path >= {TARGETS['fast']:,.0f} games/s"
    )
    print(REFERENCE)
    for preset in PRESETS:
        res: dict[str, Any] = {}
        for key, fn in (
            ("public", run_public),
            ("fast", run_fast),
            ("playout", run_playout),
            ("new_game", run_new),
        ):
            res[key] = best_of(fn, partial(new, preset), games, SEED, warm_up=50)
        res["memory"] = memory(preset)
        out["presets"][preset] = res
        print(f"\n{preset}")
        labels = {
            "public": "public  legal_actions()+play(str)",
            "fast": "fast    legal_moves()+apply(int)",
            "playout": "fast    playout(rng)",
        }
        for key, label in labels.items():
            r = res[key]
            target = TARGETS.get(key)
            vs = ""
            if target:
                vs = (
                    f"  target {target:>6,.0f}: {'met' if r['games_per_s'] >= target else 'MISSED'}"
                )
            print(
                f"  {label:34s} {r['games_per_s']:9,.0f} games/s  {r['us_per_step']:6.2f} µs/step"
                f"  {r['steps_per_game']:5.1f} steps/game{vs}"
            )
        mem = res["memory"]
        print(f"  new_game()                         {res['new_game']['us_per_step']:9.1f} µs")
        print(
            f"  mid-game state {mem['state_bytes'] / 1024:7.1f} KiB, its clone "
            f"{mem['clone_bytes'] / 1024:6.1f} KiB, clone() {mem['clone_us']:5.2f} µs"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
