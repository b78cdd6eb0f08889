"""Search speed: ISMCTS iterations per second, beside random playouts per second, on one core;
and for the games the bot searches by PIMC, its deals and heuristic playouts per second.

For each game it times ``torampu.search.ismcts`` (one searching seat, ``--iterations`` per
decision, the rollout the ``ismcts`` bot uses: ``rollout_for(game)``; best of 3 positions) from
the first trick or the first play, and from the bidding where a game has bids; beside it, whole
random games per second through ``random_rollout`` (the game's ``playout``; for Napoleon the
search's faster equivalent, the same draws) from the same kind of position. In the same run,
OpenSpiel's ISMCTS on ``oh_hell`` (5 players, 10 tricks) from the first trick: its Python
``ISMCTSBot`` and its C++ ``pyspiel.ISMCTSBot``, both with a random-rollout evaluator (one
rollout per iteration).

Reference points on this machine (from the issue): OpenSpiel's Python ISMCTS ≈ 1,500
iterations/s, its C++ ISMCTS ≈ 37,000/s, a tight pure-Python prototype ≈ 15,000/s from the first
trick; the target for 5-player Napoleon from the first trick is ≥ 10,000/s. Each position is a
new search: a sampler builds its first determinization by replaying the game, then re-deals
the hidden cards for every iteration.

With ``--baseline REV[,REV…]`` (default: ``5313adf,pure``) the rows named by
``--baseline-rows`` (default: the Daifugo rows) are also timed on each revision's engine
(``git archive`` into a temporary directory, this script's code run there in a subprocess) —
5313adf is main before issue 21's speed work, ``pure`` this tree's own source on its
pure-Python build (``TORAMPU_PURE=1``) beside the mypyc-compiled one — alternating with this
tree's run ``--rounds`` times (best of each), and printed under them with the ratio;
``--baseline none`` skips them. ``--rows WORD`` keeps the rows whose name
contains WORD (and skips OpenSpiel).

Run: .venv/bin/python bench/search.py [--iterations N] [--json FILE] [--rows WORD]
     [--baseline REV,…|none] [--baseline-rows WORD] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import torampu
from _common import BASELINE, PURE, baseline_src, baselines, engine_mode, ratio, run_on
from torampu.search import ismcts, random_rollout, rollout_for, sampler_for
from torampu.search.pimc import PolicyRollout, pimc
from torampu.search.rollouts import pimc_candidates

SEED = 20241122


def to_first_play(game: str, rules: Any, seed: int, extra: dict[str, Any]) -> Any:
    """A game at its first trick (first play), reached by random bids/choices."""
    g = torampu.new_game(game, rules, seed=seed, **extra)
    rng = random.Random(seed)
    while g.phase != "play":
        legal = g.legal_actions()
        g.play(legal[int(rng.random() * len(legal))])
    return g


def ours(make: Callable[[int], Any], iterations: int) -> dict[str, float]:
    """ISMCTS iterations/s (best of 3 positions) and random playouts/s from the same position."""
    best = 0.0
    for k in range(3):
        g = make(k)
        seat = g.to_play
        view = g.view(seat)
        sampler = sampler_for(g.name)
        rng = random.Random(k)
        t = time.perf_counter()
        res = ismcts(view, sampler, rng, iterations=iterations, rollout=rollout_for(g.name))
        best = max(best, res.iterations / (time.perf_counter() - t))
    g = make(0)
    rng = random.Random(1)
    games = 0
    t = time.perf_counter()
    while time.perf_counter() - t < 1.0:
        c = g.clone()
        random_rollout(c, rng)
        games += 1
    return {"iterations_per_s": best, "playouts_per_s": games / (time.perf_counter() - t)}


def ours_pimc(make: Callable[[int], Any], game: str) -> dict[str, float]:
    """PIMC (the ``ismcts`` bot's default in Napoleon, Nap and Hell): deals searched per second
    (every candidate move played out by the heuristic bots on each) and heuristic playouts per
    second, over 1 s from the first of the positions."""
    g = make(0)
    seat = g.to_play
    view = g.view(seat)
    policy = PolicyRollout(game)
    res = pimc(
        view, sampler_for(game), random.Random(1), policy, seconds=1.0, prune=pimc_candidates
    )
    playouts = sum(res.visits.values()) or res.iterations  # racing drops some candidates
    return {
        "pimc_samples_per_s": res.iterations / res.seconds,
        "pimc_candidates": float(len(res.visits)),
        "heuristic_playouts_per_s": playouts / res.seconds,
    }


def openspiel(iterations: int) -> dict[str, float]:
    """OpenSpiel ISMCTS (Python and C++) on oh_hell, 5 players, 10 tricks, from the first trick."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts as py_ismcts
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("oh_hell", {"players": 5, "num_tricks_fixed": 10})
    out: dict[str, float] = {}
    rng = np.random.RandomState(SEED)

    def first_trick(k: int) -> Any:
        s = game.new_initial_state()
        r = random.Random(k)
        bids = 0
        while bids < 5:
            if s.is_chance_node():
                outcomes = [a for a, _ in s.chance_outcomes()]
                s.apply_action(outcomes[int(r.random() * len(outcomes))])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(r.random() * len(legal))])
                bids += 1
        return s

    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    best = 0.0
    for k in range(3):
        bot = py_ismcts.ISMCTSBot(game, evaluator, 1.4, iterations, random_state=rng)
        s = first_trick(k)
        t = time.perf_counter()
        bot.run_search(s)
        best = max(best, iterations / (time.perf_counter() - t))
    out["python_iterations_per_s"] = best
    cpp_iters = iterations * 10
    best = 0.0
    for k in range(3):
        cpp_eval = pyspiel.RandomRolloutEvaluator(1, SEED + k)
        bot = pyspiel.ISMCTSBot(
            SEED + k,
            cpp_eval,
            1.4,
            cpp_iters,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
        )
        s = first_trick(k)
        t = time.perf_counter()
        bot.step(s)
        best = max(best, cpp_iters / (time.perf_counter() - t))
    out["cpp_iterations_per_s"] = best
    s = first_trick(0)
    games = 0
    r = random.Random(3)
    t = time.perf_counter()
    while time.perf_counter() - t < 1.0:
        c = s.clone()
        while not c.is_terminal():
            legal = c.legal_actions()
            c.apply_action(legal[int(r.random() * len(legal))])
        games += 1
    out["playouts_per_s"] = games / (time.perf_counter() - t)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--rows", metavar="WORD", help="only the rows whose name contains WORD")
    ap.add_argument(
        "--baseline",
        default=BASELINE,
        metavar="REV",
        help=f"also time the --baseline-rows on this revision, or none (default {BASELINE})",
    )
    ap.add_argument("--baseline-rows", default="daifugo", metavar="WORD")
    ap.add_argument("--rounds", type=int, default=2, help="alternations with the baseline")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    n = args.iterations
    rows: dict[str, Callable[[int], Any]] = {
        "napoleon classic 5p, first trick": lambda k: to_first_play(
            "napoleon", "classic", SEED + k, {}
        ),
        "napoleon classic 5p, bidding": lambda k: torampu.new_game(
            "napoleon", "classic", seed=SEED + k
        ),
        "hell 5p 10 cards, first trick": lambda k: to_first_play(
            "hell", None, SEED + k, {"cards": 10, "players": 5}
        ),
        "hell 5p 10 cards, bidding": lambda k: torampu.new_game(
            "hell", None, players=5, seed=SEED + k, cards=10
        ),
        "nap 4p, first trick": lambda k: to_first_play("nap", None, SEED + k, {}),
        "daifugo standard 5p, first play": lambda k: torampu.new_game(
            "daifugo", "standard", players=5, seed=SEED + k
        ),
        "daifugo yaita 5p, first play": lambda k: torampu.new_game(
            "daifugo", "yaita", players=5, seed=SEED + k
        ),
    }
    if args.rows:
        rows = {name: make for name, make in rows.items() if args.rows in name}
    revs = baselines(args.baseline)
    compared = [name for name in rows if revs and args.baseline_rows in name]
    results: dict[str, Any] = {
        "iterations": n,
        "python": sys.version.split()[0],
        "torampu": torampu.__file__,
        "engine": engine_mode(),
    }
    print(
        f"ISMCTS, {n} iterations per search, best of 3 positions; one core ({platform.machine()});"
        f" {results['engine']} engine"
    )
    print("(PIMC: deals/s, each playing out every candidate move with the heuristic bots)")
    if compared:
        print(
            f"(rows with {', '.join(revs)}: also timed on that engine (pure: this source's "
            f"pure-Python build; a revision: from git archive); best of {args.rounds} "
            "alternating rounds each)"
        )
    print(
        f"{'position':36} {'iterations/s':>13} {'playouts/s':>12}"
        f" {'PIMC deals/s':>13} {'moves':>6} {'heur. playouts/s':>17}"
    )
    bases: dict[str, dict[str, Any]] = {rev: {} for rev in revs}
    child = ["--iterations", str(n), "--rows", args.baseline_rows, "--baseline", "none"]
    if compared:
        results["baselines"] = {rev: {"rows": bases[rev]} for rev in revs}
    for name, make in rows.items():
        r = ours(make, n)
        game = name.split()[0]
        if game != "daifugo":
            r.update(ours_pimc(make, game))
        results[name] = r
    for rnd in range(args.rounds if compared else 0):  # baselines, this tree, baselines, …
        if rnd:
            for name in compared:
                again = ours(rows[name], n)
                for key, v in again.items():
                    results[name][key] = max(results[name][key], v)
        for rev in revs:
            other = run_on(baseline_src(rev), "search.py", child, pure=rev == PURE)
            for name in compared:
                got = other[name]
                old = bases[rev].setdefault(name, got)
                for key, v in got.items():
                    old[key] = max(old[key], v)
    for name in rows:
        r = results[name]
        extra = (
            f" {r['pimc_samples_per_s']:13,.1f} {r['pimc_candidates']:6.0f}"
            f" {r['heuristic_playouts_per_s']:17,.0f}"
            if "pimc_samples_per_s" in r
            else ""
        )
        print(f"{name:36} {r['iterations_per_s']:13,.0f} {r['playouts_per_s']:12,.0f}{extra}")
        for rev in revs:
            b = bases[rev].get(name)
            if b is not None:
                print(
                    f"{'  ' + rev + ' (baseline)':36} {b['iterations_per_s']:13,.0f} "
                    f"{b['playouts_per_s']:12,.0f}   ratio "
                    f"{ratio(r['iterations_per_s'], b['iterations_per_s'])} iterations/s, "
                    f"{ratio(r['playouts_per_s'], b['playouts_per_s'])} playouts/s"
                )
    if args.rows:
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=2)
        return
    try:
        peer = openspiel(max(100, n // 5))
    except ImportError as e:  # open-spiel is a test-only dependency
        print(f"OpenSpiel not installed: {e}")
    else:
        results["openspiel oh_hell 5p 10 tricks"] = peer
        print(
            f"{'OpenSpiel oh_hell 5p 10, first trick':36} "
            f"Python ISMCTS {peer['python_iterations_per_s']:,.0f}/s, "
            f"C++ ISMCTS {peer['cpp_iterations_per_s']:,.0f}/s, "
            f"playouts {peer['playouts_per_s']:,.0f}/s"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
