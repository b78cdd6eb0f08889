"""Daifugo speed and bot strength, on one core, from fixed seeds.

(a) Random playouts, 5 players, presets ``standard`` and ``yaita``: whole games per second through
    the fast path (``legal_moves()`` + ``apply(int)``) and the string API (``legal_actions()`` +
    ``play(str)``), best of 3 runs after a warm-up; µs per step and steps per game.
(b) ``legal_actions()``: mean µs per call for random 14-card hands holding 0, 1, 2 or 3 jokers
    (rules: the preset with 3 jokers in the deck), on an empty table and facing a single (9S), a
    pair (6S 6H) and a run (4C 5C 6C). *cold* is the first call on a new position (the engine
    memoizes a hand's plays), *warm* a repeated call; ``n`` is the mean number of legal actions.
(c) ``heuristic`` against ``random``: one heuristic seat (rotating) and 4 random seats, 5 players;
    mean points per game (5 = 大富豪 … 1 = 大貧民) of each with a 95% confidence interval, the
    difference per game (heuristic minus the random seats' mean) with its 95% CI, and the
    heuristic's ms per decision.

With ``--baseline REV[,REV…]`` (default: ``5313adf,pure``) section (a) is also measured on
each revision's engine (``git archive`` into a temporary directory, this script's own measuring
code run there in a subprocess) — 5313adf is main before issue 21's speed work, ``pure`` this
tree's own source on its pure-Python build (``TORAMPU_PURE=1``) beside the mypyc-compiled one
— alternating with this tree's run ``--rounds`` times (best of each), and printed under it with
the ratio; ``--baseline none`` skips them. ``--sections a`` runs only the playouts.

Run: .venv/bin/python bench/daifugo.py [--games N] [--hands N] [--vs-games N] [--json FILE]
     [--baseline REV,…|none] [--rounds N] [--sections a,b,c] [--presets standard,yaita]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from functools import partial
from typing import Any

import torampu
from _common import (
    BASELINE,
    PURE,
    Timed,
    baseline_src,
    baselines,
    best_of,
    ci95,
    engine_mode,
    ratio,
    run_fast,
    run_on,
    run_playout,
    run_public,
)
from torampu.bots import Bot, make_bot, play_game
from torampu.bots.daifugo import make_daifugo_bot
from torampu.cards import card_str

PRESETS = ("standard", "yaita")
PLAYERS = 5
SEED = 20240601
REPEATS = 3
TABLES: dict[str, list[str]] = {"empty": [], "single": ["9S"], "pair": ["6S", "6H"]}
TABLES["run"] = ["4C", "5C", "6C"]
FILLER = "KS"
"""The card the player who leads the table keeps (so that it does not go out)."""


# ------------------------------------------------------------------------------ (a) playouts
def new(preset: str, i: int) -> Any:
    return torampu.new_game("daifugo", preset, players=PLAYERS, seed=SEED + i)


# ------------------------------------------------------------------------------ (b) legal_actions
def position(preset: str, hand: list[str], table: list[str]) -> Any:
    """Seat 0 holds ``hand`` and is to play; seat 1 has just led ``table`` (if any).

    Nobody holds 3D (the ``first_lead`` card), so the seat after the dealer leads freely."""
    rules = {"preset": preset, "jokers": 3, "first_lead": "3D"}
    hands = [hand, [*table, FILLER]]
    g = torampu.new_game(
        "daifugo", rules, 2, deal={"hands": hands}, seed=1, dealer=0 if table else 1
    )
    if table:
        g.play("play " + " ".join(table))
    assert g.to_play == 0
    return g


def legal_timing(preset: str, hands: int, warm_reps: int = 5) -> dict[str, dict[str, float]]:
    rng = random.Random(f"{SEED}-{preset}")  # other hands per preset: the first call is cold
    clock = time.perf_counter
    out: dict[str, dict[str, float]] = {}
    for jokers in range(4):
        for name, table in TABLES.items():
            excluded = {"3D", FILLER, *table}
            pool = [card_str(c) for c in range(52) if card_str(c) not in excluded]
            cold = warm = 0.0
            count = 0
            for _ in range(hands):
                hand = rng.sample(pool, 14) + ["JK"] * jokers
                g = position(preset, hand, table)
                t = clock()
                legal = g.legal_actions()
                cold += clock() - t
                t = clock()
                for _ in range(warm_reps):
                    g.legal_actions()
                warm += clock() - t
                count += len(legal)
            out[f"{jokers}/{name}"] = {
                "cold_us": cold / hands * 1e6,
                "warm_us": warm / (hands * warm_reps) * 1e6,
                "actions": count / hands,
            }
    return out


# ------------------------------------------------------------------------------ (c) strength
def vs_random(preset: str, games: int) -> dict[str, Any]:
    heur: list[float] = []
    rand: list[float] = []
    diff: list[float] = []
    calls = 0
    seconds = 0.0
    for i in range(games):
        me = i % PLAYERS
        g = new(preset, 10_000 + i)
        hb = Timed(make_daifugo_bot(SEED + i))
        bots: list[Bot] = [
            hb if s == me else make_bot("random", seed=SEED + i * 7 + s) for s in range(PLAYERS)
        ]
        scores = play_game(g, bots).result()["scores"]
        others = [v for s, v in enumerate(scores) if s != me]
        heur.append(scores[me])
        rand += others
        diff.append(scores[me] - statistics.mean(others))
        calls += hb.calls
        seconds += hb.seconds
    h, hw = ci95(heur)
    r, rw = ci95(rand)
    d, dw = ci95(diff)
    return {
        "heuristic": [h, hw],
        "random": [r, rw],
        "difference": [d, dw],
        "ms_per_decision": 1000 * seconds / calls,
    }


# ------------------------------------------------------------------------------ main
LOOPS = (
    ("fast", "legal_moves()+apply(int)", run_fast),
    ("playout", "playout(rng)", run_playout),
    ("public", "legal_actions()+play(str)", run_public),
)


def playouts(preset: str, games: int) -> dict[str, dict[str, float]]:
    return {key: best_of(run, partial(new, preset), games, SEED) for key, _, run in LOOPS}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="playout games per run (default 300)")
    ap.add_argument("--hands", type=int, default=100, help="random hands per cell (default 100)")
    ap.add_argument("--vs-games", type=int, default=300, help="games per preset (default 300)")
    ap.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    ap.add_argument("--sections", default="a,b,c", help="which sections to run (default a,b,c)")
    ap.add_argument(
        "--baseline",
        default=BASELINE,
        metavar="REV",
        help=f"also time (a) on this revision, or none (default {BASELINE})",
    )
    ap.add_argument(
        "--rounds", type=int, default=2, help="(a) alternations of this tree and the baseline"
    )
    ap.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    args = ap.parse_args(argv)
    presets = args.presets.split(",")
    sections = set(args.sections.split(","))
    revs = baselines(args.baseline)
    out: dict[str, Any] = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "torampu": torampu.__file__,
        "engine": engine_mode(),
        "players": PLAYERS,
        "seed": SEED,
        "playouts": {},
        "legal_actions": {},
        "vs_random": {},
    }
    t_all = time.perf_counter()
    print(f"Daifugo, one core, Python {out['python']}, seed {SEED}, {out['engine']} engine")

    if "a" in sections:
        print(
            f"\n(a) random playouts, {PLAYERS} players, {args.games} games/run, best of "
            f"{REPEATS}" + (f" in each of {args.rounds} rounds" if revs else "")
        )
        bases: dict[str, dict[str, Any]] = {rev: {} for rev in revs}
        for rev in revs:
            what = (
                "this source's pure-Python build (TORAMPU_PURE=1)"
                if rev == PURE
                else "its engine from git archive"
            )
            print(f"    beside {rev} ({what}, this script's loops)")
        if revs:
            out["baselines"] = {rev: {"playouts": bases[rev]} for rev in revs}
        child = ["--sections", "a", "--baseline", "none", "--games", str(args.games)]
        child += ["--presets", args.presets]
        for _ in range(args.rounds if revs else 1):
            for preset in presets:
                got = playouts(preset, args.games)
                res = out["playouts"].setdefault(preset, got)
                for key, r in got.items():
                    if r["seconds"] < res[key]["seconds"]:
                        res[key] = r
            for rev in revs:
                other = run_on(baseline_src(rev), "daifugo.py", child, pure=rev == PURE)
                for preset, got in other["playouts"].items():
                    res = bases[rev].setdefault(preset, got)
                    for key, r in got.items():
                        if r["seconds"] < res[key]["seconds"]:
                            res[key] = r
        for preset in presets:
            for key, label, _ in LOOPS:
                r = out["playouts"][preset][key]
                print(
                    f"  {preset:9s} {label:26s} {r['games_per_s']:8,.0f} games/s  "
                    f"{r['us_per_step']:6.2f} µs/step  {r['steps_per_game']:5.1f} steps/game"
                )
                for rev in revs:
                    b = bases[rev].get(preset, {}).get(key)
                    if b is not None:
                        print(
                            f"  {'':9s} {'  ' + rev:26s} {b['games_per_s']:8,.0f} games/s  "
                            f"{b['us_per_step']:6.2f} µs/step  "
                            f"{ratio(r['games_per_s'], b['games_per_s'])}"
                        )

    if "b" in sections:
        print(
            f"\n(b) legal_actions() on random 14-card hands, {args.hands} hands per cell: "
            "µs per call cold / warm (mean legal actions)"
        )
        head = "".join(f"{name:>24s}" for name in TABLES)
        for preset in presets:
            res_l = legal_timing(preset, args.hands)
            out["legal_actions"][preset] = res_l
            print(f"  {preset:9s}{head}")
            for jokers in range(4):
                cells = []
                for name in TABLES:
                    c = res_l[f"{jokers}/{name}"]
                    cells.append(f"{c['cold_us']:7.0f} /{c['warm_us']:6.0f} ({c['actions']:5.1f})")
                print(f"  {jokers} joker{'s' if jokers != 1 else ' '} " + "".join(cells))

    if "c" in sections:
        print(
            f"\n(c) heuristic (1 seat, rotating) vs random (4 seats), {args.vs_games} games per "
            "preset: points per game (5 = 大富豪 … 1), 95% CI"
        )
        for preset in presets:
            v = vs_random(preset, args.vs_games)
            out["vs_random"][preset] = v
            (h, hw), (r, rw), (d, dw) = v["heuristic"], v["random"], v["difference"]
            print(
                f"  {preset:9s} heuristic {h:.3f} ± {hw:.3f}   random {r:.3f} ± {rw:.3f}   "
                f"difference {d:+.3f} ± {dw:.3f}   {v['ms_per_decision']:.3f} ms/decision"
            )
    print(f"\ntotal {time.perf_counter() - t_all:.1f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
