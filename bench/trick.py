"""Trick-game speed next to OpenSpiel: whole random games per second, creation included, one core.

Two rows, each torampu next to OpenSpiel's C++ ``oh_hell`` driven step by step from Python:

* ``hell``: one Hell deal, 5 players, 10 cards each, from the deal (the 5 bids included), next to
  ``oh_hell`` with 5 players and 10 tricks (``num_tricks_fixed=10``);
* ``nap``: Nap, 4 players, full deck, from the deal (the auction included, and a redeal when all
  pass), next to its peer ``oh_hell`` with 4 players and 5 tricks.

Per row, games/s (best of 3 runs, interleaved) of:

* torampu's public API: ``new_game(seed)``, then ``legal_actions()`` + ``play(str)``;
* torampu's integer fast path: ``new_game(seed)``, then ``legal_moves()`` + ``apply(int)``;
* torampu's tight rollout: ``new_game(seed)``, then ``playout(rng)``;
* OpenSpiel: ``new_initial_state()``, then per step ``legal_actions()`` + ``apply_action()``, chance
  nodes sampled from ``chance_outcomes()`` (the number of tricks, the dealer, every card dealt,
  the upcard);
* OpenSpiel "lean": the same, chance nodes drawn from ``legal_actions()`` instead (exact for
  ``oh_hell``, whose chance outcomes are all uniform; a faster reference, not the peer);

every choice uniformly random (one ``random.Random`` per run), and torampu's games/s divided by
OpenSpiel's. Target (the issue): torampu >= 2x OpenSpiel on the Hell deal.

Run: .venv/bin/python bench/trick.py [--seconds S | --games N] [--json FILE]
     .venv/bin/python bench/trick.py --profile fast [--rows hell]   (cProfile of one loop)
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.metadata
import json
import platform
import pstats
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import torampu

try:
    import pyspiel
except ImportError:  # pragma: no cover - the peer is a dev dependency
    pyspiel = None

SEED = 20240601
REPEATS = 3
TARGET = 2.0
"""torampu / OpenSpiel on the Hell deal (the issue's target)."""
REFERENCE = "reference point (the issue): a tight pure-Python playout reaches about 4x OpenSpiel"

ROWS: dict[str, dict[str, Any]] = {
    "hell": {
        "label": "Hell, 5 players, one deal of 10 cards (bids included)",
        "game": "hell",
        "players": 5,
        "extra": {"cards": 10},
        "peer": {"players": 5, "num_tricks_fixed": 10},
    },
    "nap": {
        "label": "Nap, 4 players, full deck (auction included)",
        "game": "nap",
        "players": 4,
        "extra": {},
        "peer": {"players": 4, "num_tricks_fixed": 5},
    },
}

Runner = Callable[[int, int, random.Random], int]
"""(first game index, games, rng) -> steps taken; plays ``games`` whole games."""


def torampu_runners(row: dict[str, Any]) -> dict[str, Runner]:
    name, players, extra = row["game"], row["players"], row["extra"]
    new_game = torampu.new_game

    def public(first: int, games: int, rng: random.Random) -> int:
        rand = rng.random
        steps = 0
        for i in range(first, first + games):
            g = new_game(name, players=players, seed=SEED + i, **extra)
            while not g.is_over:
                legal = g.legal_actions()
                g.play(legal[int(rand() * len(legal))])
                steps += 1
        return steps

    def fast(first: int, games: int, rng: random.Random) -> int:
        rand = rng.random
        steps = 0
        for i in range(first, first + games):
            g = new_game(name, players=players, seed=SEED + i, **extra)
            while not g.is_over:
                moves = g.legal_moves()
                g.apply(moves[int(rand() * len(moves))])
                steps += 1
        return steps

    def playout(first: int, games: int, rng: random.Random) -> int:
        steps = 0
        for i in range(first, first + games):
            g = new_game(name, players=players, seed=SEED + i, **extra)
            g.playout(rng)  # type: ignore[attr-defined]
            steps += len(g.history)
        return steps

    return {"public": public, "fast": fast, "playout": playout}


def openspiel_runners(row: dict[str, Any]) -> dict[str, Runner]:
    game = pyspiel.load_game("oh_hell", row["peer"])

    def peer(first: int, games: int, rng: random.Random) -> int:
        rand = rng.random
        new_state = game.new_initial_state
        steps = 0
        for _ in range(games):
            s = new_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    outcomes = s.chance_outcomes()  # uniform in oh_hell
                    s.apply_action(outcomes[int(rand() * len(outcomes))][0])
                else:
                    legal = s.legal_actions()
                    s.apply_action(legal[int(rand() * len(legal))])
                steps += 1
        return steps

    def lean(first: int, games: int, rng: random.Random) -> int:
        rand = rng.random
        new_state = game.new_initial_state
        steps = 0
        for _ in range(games):
            s = new_state()
            while not s.is_terminal():
                legal = s.legal_actions()  # at a chance node: the outcomes, all equally likely
                s.apply_action(legal[int(rand() * len(legal))])
                steps += 1
        return steps

    return {"openspiel": peer, "openspiel_lean": lean}


def timed(fn: Runner, first: int, seconds: float, games: int | None) -> tuple[float, int, int]:
    """(wall seconds, games, steps): ``games`` games, or batches until ``seconds`` are up."""
    rng = random.Random(SEED)
    clock = time.perf_counter
    gc.collect()
    t0 = clock()
    if games is not None:
        steps = fn(first, games, rng)
        return clock() - t0, games, steps
    done = steps = 0
    batch = 20
    while True:
        steps += fn(first + done, batch, rng)
        done += batch
        wall = clock() - t0
        if wall >= seconds:
            return wall, done, steps
        batch = min(batch * 2, 1000)


def measure(
    runners: dict[str, Runner], seconds: float, games: int | None
) -> dict[str, dict[str, float]]:
    """Warm up every runner (fills the engine's memo tables), then ``REPEATS`` rounds in turn
    (so a busy moment hurts every runner alike); the best games/s of each."""
    for fn in runners.values():
        timed(fn, 0, 0.05, None if games is None else max(10, games // 10))
    best: dict[str, dict[str, float]] = {}
    for r in range(REPEATS):
        for key, fn in runners.items():
            wall, n, steps = timed(fn, (r + 1) * 1_000_000, seconds, games)
            rate = n / wall
            if key not in best or rate > best[key]["games_per_s"]:
                best[key] = {
                    "games_per_s": rate,
                    "us_per_game": wall / n * 1e6,
                    "steps_per_game": steps / n,
                    "games": n,
                }
    return best


def profile(key: str, loop: str, games: int) -> None:
    """cProfile of one torampu loop on one row: where the time goes, by own time."""
    fn = torampu_runners(ROWS[key])[loop]
    fn(0, max(50, games // 10), random.Random(SEED))  # warm the memo tables
    prof = cProfile.Profile()
    prof.runcall(fn, 0, games, random.Random(SEED))
    print(f"\n{key}, {loop}: cProfile of {games} games, by own time")
    pstats.Stats(prof).sort_stats("tottime").print_stats(15)  # full paths: two trick.py


LABELS = {
    "public": "torampu  legal_actions()+play(str)",
    "fast": "torampu  legal_moves()+apply(int)",
    "playout": "torampu  playout(rng)",
    "openspiel": "OpenSpiel legal_actions()+apply_action()",
    "openspiel_lean": "  (lean: chance from legal_actions())",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--seconds",
        type=float,
        default=0.15,
        help="seconds per timed run (default 0.15: 3 runs x 5 loops, ≈ 3 s per row)",
    )
    ap.add_argument("--games", type=int, help="a fixed number of games per timed run instead")
    ap.add_argument("--rows", nargs="+", choices=list(ROWS), default=list(ROWS))
    ap.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    ap.add_argument(
        "--profile",
        choices=["public", "fast", "playout"],
        help="instead: cProfile that torampu loop on the rows (--games, default 3000)",
    )
    args = ap.parse_args()
    if args.profile:
        for key in args.rows:
            profile(key, args.profile, args.games or 3000)
        return
    try:
        peer_version = importlib.metadata.version("open-spiel")
    except importlib.metadata.PackageNotFoundError:
        peer_version = None
    out: dict[str, Any] = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "open_spiel": peer_version,
        "seconds_per_run": None if args.games else args.seconds,
        "games_per_run": args.games,
        "repeats": REPEATS,
        "seed": SEED,
        "target_ratio_hell": TARGET,
        "rows": {},
    }
    per_run = f"{args.games} games" if args.games else f"{args.seconds:g} s"
    print(
        f"Random whole games/s, game creation included, best of {REPEATS} runs of {per_run}, "
        f"one core, Python {out['python']}"
    )
    if pyspiel is None:
        print("OpenSpiel (pyspiel) is not installed: torampu figures only")
    else:
        print(f"peer: OpenSpiel {peer_version} oh_hell (C++), driven step by step from Python")
    print(f"target: torampu >= {TARGET:g}x OpenSpiel on the Hell deal; {REFERENCE}")
    for key in args.rows:
        row = ROWS[key]
        runners = torampu_runners(row)
        if pyspiel is not None:
            runners |= openspiel_runners(row)
        res = measure(runners, args.seconds, args.games)
        peer = res.get("openspiel")
        lean = res.get("openspiel_lean")
        ratios: dict[str, dict[str, float]] = {}
        peer_args = ", ".join(f"{k}={v}" for k, v in row["peer"].items())
        print(f"\n{key}: {row['label']}  |  peer: oh_hell({peer_args})")
        for name, r in res.items():
            line = (
                f"  {LABELS[name]:41s} {r['games_per_s']:8,.0f} games/s {r['us_per_game']:7.1f} "
                f"µs/game {r['steps_per_game']:5.1f} steps"
            )
            if peer and lean and not name.startswith("openspiel"):
                vs = r["games_per_s"] / peer["games_per_s"]
                vs_lean = r["games_per_s"] / lean["games_per_s"]
                ratios[name] = {"openspiel": vs, "openspiel_lean": vs_lean}
                line += f"  {vs:4.2f}x OpenSpiel ({vs_lean:4.2f}x lean)"
                if key == "hell":
                    line += f"  target {TARGET:g}x: {'met' if vs >= TARGET else 'MISSED'}"
            print(line)
        out["rows"][key] = {"label": row["label"], "peer": row["peer"], **res, "ratios": ratios}
    print("\n(steps: torampu counts decisions; OpenSpiel counts chance nodes too — the deal)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
