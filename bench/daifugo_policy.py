"""The learned Daifugo policy's cost: features and scoring per decision, pure Python beside
numpy, and whole rollouts by the policy beside the greedy rollout (one run, one core).

Positions are taken from heuristic self-play under ``--rules`` (every decision with more than
one legal move). For each it times :func:`~torampu.learn.daifugo_features.move_features` alone,
the pure-Python scores (:meth:`~torampu.learn.daifugo_policy.Policy.scores`, what the package
uses) and the same scores through numpy (an array of the feature rows times the weights), in
alternation over the same positions, best of ``--repeat`` passes. Then it finishes the same
positions with :func:`~torampu.search.daifugo_sampler.greedy_rollout` (the search's default)
and with :func:`~torampu.learn.daifugo_policy.policy_rollout` (temperature 1), alternately, and
prints rollouts per second. A policy with a table of key weights
(:func:`~torampu.learn.daifugo_features.move_keys`) is timed beside the plain one, in both.

Run: .venv/bin/python bench/daifugo_policy.py [--positions N] [--rules standard]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import torampu
from torampu.bots import make_bot
from torampu.daifugo import Daifugo
from torampu.learn.daifugo_features import N_KEYS, move_features, move_keys
from torampu.learn.daifugo_policy import Policy, default_policy, policy_rollout
from torampu.search.daifugo_sampler import greedy_rollout


def positions(rules: str, count: int, seed: int) -> list[Daifugo]:
    out: list[Daifugo] = []
    k = 0
    while len(out) < count:
        m = torampu.new_match("daifugo", rules, games=2, seed=seed + k)
        bots = [make_bot("heuristic", seed + k + s, "daifugo") for s in range(m.n)]
        while not m.is_over and len(out) < count:
            g = m.game
            assert isinstance(g, Daifugo)
            if len(g.legal_moves()) > 1:
                out.append(g.clone())  # type: ignore[arg-type]
            seat = m.to_play
            assert seat is not None
            m.play(bots[seat].choose(m.view(seat), m.legal_actions()))
        k += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    pol = default_policy()
    w_np = np.asarray(pol.weights)
    tabled = Policy(pol.weights, table=[(k % 13 - 6) / 10 for k in range(N_KEYS)])
    pos = positions(a.rules, a.positions, a.seed)
    moves = [g.legal_moves() for g in pos]
    nmoves = sum(len(m) for m in moves)
    clock = time.perf_counter
    best = {"features": 1e9, "keys": 1e9, "python": 1e9, "table": 1e9, "numpy": 1e9}
    for _ in range(a.repeat):
        t = clock()
        for g, ms in zip(pos, moves, strict=True):
            move_features(g, ms)
        best["features"] = min(best["features"], clock() - t)
        t = clock()
        for g, ms in zip(pos, moves, strict=True):
            move_keys(g, ms)
        best["keys"] = min(best["keys"], clock() - t)
        t = clock()
        for g, ms in zip(pos, moves, strict=True):
            tabled.scores(g, ms)
        best["table"] = min(best["table"], clock() - t)
        t = clock()
        for g, ms in zip(pos, moves, strict=True):
            pol.scores(g, ms)
        best["python"] = min(best["python"], clock() - t)
        t = clock()
        for g, ms in zip(pos, moves, strict=True):
            (np.asarray(move_features(g, ms)) @ w_np).tolist()
        best["numpy"] = min(best["numpy"], clock() - t)
    print(f"{len(pos)} positions ({a.rules}), {nmoves / len(pos):.1f} legal moves on average")
    for k, v in best.items():
        what = {
            "features": "features only",
            "keys": "features + keys",
            "table": "features + keys + scores (python)",
        }.get(k, f"features + scores ({k})")
        print(f"  {what:32s} {1e6 * v / len(pos):8.1f} µs/decision")
    # rollouts from the same positions, alternating
    sub = pos[: max(1, len(pos) // 10)]
    times = {"greedy": 0.0, "policy": 0.0, "policy+table": 0.0}
    rng = random.Random(a.seed)
    for g in sub:
        for name in times:
            c = g.clone()
            t = clock()
            if name == "greedy":
                greedy_rollout(c, rng)
            else:
                policy_rollout(c, rng, tabled if name == "policy+table" else pol)
            times[name] += clock() - t
    for name, v in times.items():
        print(f"  {name + ' rollout':32s} {len(sub) / v:8.0f} rollouts/s ({len(sub)} positions)")


if __name__ == "__main__":
    main()
