"""Self-play policy gradient for the Daifugo policy (``torampu train daifugo-selfplay``).

The policy learned from the search (:mod:`torampu.learn.train`) imitates its teacher, so it
cannot play better than the search it copies. Here it plays against itself instead and moves
towards what wins: REINFORCE (Williams 1992) on the linear softmax. Every seat of a game plays
the current policy at temperature 1 (the rollout's policy); at the end each seat's reward is
its place's share, ``(n - 1 - place) / (n - 1)``, whose mean over the seats is exactly 1/2, so
``reward - 1/2`` is an unbiased advantage without a learned baseline. A seat's gradient is the
sum over its decisions with a choice of ``f(chosen) - E_p[f]`` (the score function of a linear
softmax); ``batch`` games make one Adam step. Only the *play* block of the features moves:
single games start without an exchange, so the *cards* block keeps the starting weights.

With ``table=True`` (``--table``) the policy also has, or gains (at zero, so the same policy),
a table of weights for the binary keys of
:func:`~torampu.learn.daifugo_features.move_keys`; a key's gradient is ``[chosen move has it] -
P(a move with it)``, and the table takes its own Adam steps beside the weights.

Everything is drawn from ``seed`` (the deals and the draws), so the same command gives the
same weights. :func:`duel` measures a policy against another: the share of places it earns
sitting at one seat of four copies of the other, every seat in turn on the same deals.

numpy is needed here, not to play.

>>> from torampu.learn.daifugo_policy import default_policy
>>> start = default_policy()
>>> new, report = reinforce(start, games=4, rules="uecda", seed=1, batch=2, eval_games=5)
>>> report.games, report.updates, new.weights != start.weights
(4, 2, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torampu
from torampu.daifugo import PH_OVER, Daifugo
from torampu.learn.daifugo_features import N_FEATURES, N_KEYS, move_features, move_keys
from torampu.learn.daifugo_policy import Policy
from torampu.learn.train import _numpy, derive_seed


@dataclass
class SelfplayReport:
    games: int
    updates: int
    change: float
    """The Euclidean distance the weights moved."""
    against_start: float
    """The new policy's mean place share against four copies of the start (1/2: even)."""
    eval_games: int


def _game(rules: str, seed: int) -> Daifugo:
    g = torampu.new_game("daifugo", rules, seed=seed)
    if not isinstance(g, Daifugo):  # pragma: no cover (new_game("daifugo") is a Daifugo)
        raise TypeError("not a Daifugo game")
    return g


Table = list[float] | None
"""A policy's key weights as a plain list (indexed per key), or None: no table."""


def _play(
    g: Daifugo,
    weights: list[Any],
    rand: Callable[[], float],
    grads: list[Any] | None,
    tables: list[Table] | None = None,
    key_grads: list[dict[int, float]] | None = None,
) -> list[float]:
    """Play ``g`` to its end, each seat drawing from the softmax of its ``weights`` (numpy
    vectors) and ``tables`` (its key weights, or None); add each seat's score function to
    ``grads`` and its keys' to ``key_grads`` (when given). Returns each seat's place share."""
    np = _numpy()
    n = g.n
    while g.phase_id != PH_OVER:
        moves = g.legal_moves()
        if len(moves) == 1:
            g._apply(moves[0])
            continue
        s = g.turn
        tab = tables[s] if tables is not None else None
        keys: list[list[int]] = []
        if tab is None and key_grads is None:
            rows = move_features(g, moves)
        else:
            rows, keys = move_keys(g, moves)
        f = np.asarray(rows)
        z = f @ weights[s]
        if tab is not None:
            z = z + np.asarray([sum([tab[k] for k in ks]) for ks in keys])
        p = np.exp(z - z.max())
        p /= p.sum()
        x = rand()
        k = 0
        last = len(moves) - 1
        while k < last:
            x -= p[k]
            if x < 0:
                break
            k += 1
        if grads is not None:
            grads[s] += f[k] - p @ f
        if key_grads is not None:
            kg = key_grads[s]
            for j in range(len(moves)):
                pj = float(p[j])
                for key in keys[j]:
                    kg[key] = kg.get(key, 0.0) - pj
            for key in keys[k]:
                kg[key] = kg.get(key, 0.0) + 1.0
        g._apply(moves[k])
    share = [0.0] * n
    for place, seat in enumerate(g.ranking):
        share[seat] = (n - 1 - place) / (n - 1)
    return share


def duel(a: Policy, b: Policy, games: int, rules: str = "uecda", seed: int = 0) -> float:
    """``a``'s mean place share with ``b`` at every other seat (1/2: even): each deal is played
    once with ``a`` at each seat in turn (``games`` games in all), both at temperature 1."""
    np = _numpy()
    wa, wb = np.asarray(a.weights), np.asarray(b.weights)
    ta, tb = a.table, b.table
    rng = random.Random(derive_seed(seed, "duel"))
    total = 0.0
    n = 0
    played = 0
    deal = 0
    while played < games:
        g = _game(rules, derive_seed(seed, "duel-deal", deal))
        n = g.n
        for seat in range(n):
            if played >= games:
                break
            weights = [wb] * n
            weights[seat] = wa
            tables = [tb] * n
            tables[seat] = ta
            game = g.clone() if seat < n - 1 else g
            total += _play(game, weights, rng.random, None, tables)[seat]
            played += 1
        deal += 1
    return total / max(played, 1)


def reinforce(
    start: Policy,
    games: int,
    rules: str = "uecda",
    seed: int = 0,
    lr: float = 0.01,
    batch: int = 64,
    eval_games: int = 1000,
    command: str | None = None,
    progress: Callable[[int], None] | None = None,
    table: bool = False,
) -> tuple[Policy, SelfplayReport]:
    """Improve ``start`` by ``games`` games of self-play (see the module docstring); the new
    policy's ``meta`` keeps the start's and adds ``selfplay`` (how it was made and
    :func:`duel` against the start over ``eval_games``); a start that was itself made by
    self-play moves its ``selfplay`` to the end of the list ``selfplay_before``, so a file
    names every round that made it."""
    np = _numpy()
    if games < 1 or batch < 1:
        raise ValueError("games and batch must be at least 1")
    if not lr > 0 or not math.isfinite(lr):
        raise ValueError(f"lr must be a number > 0, not {lr!r}")
    if start.trained_under not in (None, rules):  # rollout=auto reads the file's preset
        raise ValueError(
            f"the starting policy was trained under {start.trained_under!r}: "
            f"play its self-play under the same rules, not {rules!r}"
        )
    w = np.asarray(start.weights, dtype=np.float64)
    m1 = np.zeros(N_FEATURES)
    m2 = np.zeros(N_FEATURES)
    learn_table = table or start.table is not None
    t = np.asarray(start.table if start.table is not None else [0.0] * N_KEYS, dtype=np.float64)
    t1 = np.zeros(N_KEYS)
    t2 = np.zeros(N_KEYS)
    rng = random.Random(derive_seed(seed, "selfplay"))
    played = 0
    step = 0
    while played < games:
        size = min(batch, games - played)
        total = np.zeros(N_FEATURES)
        key_total = np.zeros(N_KEYS)
        tab: Table = t.tolist() if learn_table else None
        for _ in range(size):
            g = _game(rules, derive_seed(seed, "selfplay-deal", played))
            grads = [np.zeros(N_FEATURES) for _ in range(g.n)]
            key_grads: list[dict[int, float]] | None = (
                [{} for _ in range(g.n)] if learn_table else None
            )
            share = _play(g, [w] * g.n, rng.random, grads, [tab] * g.n, key_grads)
            for s in range(g.n):
                total += (share[s] - 0.5) * grads[s]
                if key_grads is not None:
                    adv = share[s] - 0.5
                    for key, v in key_grads[s].items():
                        key_total[key] += adv * v
            played += 1
        grad = -total / size  # ascent on the expected share: Adam minimizes
        step += 1
        c1 = 1 - 0.9**step
        c2 = 1 - 0.999**step
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w = w - lr * (m1 / c1) / (np.sqrt(m2 / c2) + 1e-8)
        if learn_table:
            kgrad = -key_total / size
            t1 = 0.9 * t1 + 0.1 * kgrad
            t2 = 0.999 * t2 + 0.001 * kgrad * kgrad
            t = t - lr * (t1 / c1) / (np.sqrt(t2 / c2) + 1e-8)
        if progress is not None:
            progress(played)
    new_table = [float(v) for v in t] if learn_table else None
    new = Policy([float(v) for v in w], start.meta, new_table)  # (a copy of the start's meta)
    against = duel(new, start, eval_games, rules, seed) if eval_games > 0 else float("nan")
    change = float(np.linalg.norm(w - np.asarray(start.weights)))
    report = SelfplayReport(played, step, change, against, eval_games)
    new.meta["selfplay"] = {
        "command": command,
        "rules": rules,
        "games": played,
        "seed": seed,
        "lr": lr,
        "batch": batch,
        "table": learn_table,
        "updates": step,
        "change": round(change, 4),
        "against_start": None if math.isnan(against) else round(against, 4),
        "eval_games": eval_games,
    }
    if "selfplay" in start.meta:  # the rounds before this one, oldest first
        new.meta["selfplay_before"] = [
            *start.meta.get("selfplay_before", []),
            start.meta["selfplay"],
        ]
    return new, report


__all__ = ["SelfplayReport", "duel", "reinforce"]
