"""Training the Daifugo policy: records by self-play of a teacher, then a linear softmax fit.

:func:`generate_records` plays ``games`` matches of Daifugo with the teacher bot (any bot spec:
``heuristic``, ``ismcts:iterations=100``, …) at every seat and records each decision with more
than one legal move: the features of every legal move (:func:`~torampu.learn.daifugo_features.
move_features`, from the mover's side) and the move the teacher chose. :func:`fit` fits the
policy's weights to those choices by full-batch Adam on the mean negative log-likelihood of the
softmax plus ``l2`` times the squared weights; it holds out the last ``holdout`` share of the
matches and reports how often the policy's best move is the teacher's there. Everything is
drawn from ``seed`` (the deals, the teacher's seeds) and the fit has no randomness, so the same
command gives the same weights.

numpy is needed here (``pip install torampu[rl]``, or the dev set-up), not to play.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import torampu
from torampu.bots.base import make_bot, parse_bot_spec
from torampu.daifugo import Daifugo
from torampu.learn.daifugo_features import N_FEATURES, move_features
from torampu.learn.daifugo_policy import Policy

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from ``seed`` and ``parts`` (stable across runs and machines)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@dataclass
class Records:
    """Decisions of the teacher: per decision its moves' features and the chosen index."""

    rows: list[list[float]] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    match_of: list[int] = field(default_factory=list)
    """Which match each decision came from (for the held-out split)."""

    def __len__(self) -> int:
        return len(self.sizes)


def generate_records(
    games: int,
    teacher: str = "heuristic",
    rules: str = "standard",
    seed: int = 0,
    match_games: int = 5,
    progress: Callable[[int], None] | None = None,
) -> Records:
    """Play ``games`` matches of ``match_games`` games under ``rules`` with ``teacher`` at every
    seat and record its decisions (see the module docstring)."""
    kind, options = parse_bot_spec(teacher)
    rec = Records()
    for k in range(games):
        match = torampu.new_match(
            "daifugo", rules, games=match_games, seed=derive_seed(seed, "deal", k)
        )
        bots = [
            make_bot(kind, derive_seed(seed, "bot", k, s), "daifugo", **options)
            for s in range(match.n)
        ]
        while not match.is_over:
            g = match.game
            assert isinstance(g, Daifugo)
            seat = match.to_play
            assert seat is not None
            legal = match.legal_actions()
            action = bots[seat].choose(match.view(seat), legal)
            moves = g.legal_moves()
            if len(moves) > 1:
                m = g.parse_action(action)
                rec.rows.extend(move_features(g, moves))
                rec.sizes.append(len(moves))
                rec.chosen.append(moves.index(m))
                rec.match_of.append(k)
            match.play(action)
        if progress is not None:
            progress(k + 1)
    return rec


@dataclass
class FitReport:
    decisions: int
    held_out: int
    train_nll: float
    held_nll: float
    held_agreement: float
    """Share of the held-out decisions where the policy's best move is the teacher's."""
    steps: int


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover (the dev set-up has numpy)
        raise SystemExit(
            "training needs numpy: pip install 'torampu[rl]' (or the dev set-up)"
        ) from None
    return numpy


def _arrays(rec: Records, keep: list[int]) -> tuple[Any, Any, Any]:
    """(X rows, group starts, chosen row index) of the decisions ``keep``."""
    np = _numpy()
    starts_all = np.zeros(len(rec.sizes) + 1, dtype=np.int64)
    np.cumsum(np.asarray(rec.sizes, dtype=np.int64), out=starts_all[1:])
    x_all = np.asarray(rec.rows, dtype=np.float64)
    idx = []
    starts = []
    chosen = []
    pos = 0
    for d in keep:
        a, b = int(starts_all[d]), int(starts_all[d + 1])
        idx.append(np.arange(a, b))
        starts.append(pos)
        chosen.append(pos + rec.chosen[d])
        pos += b - a
    rows = np.concatenate(idx) if idx else np.zeros(0, dtype=np.int64)
    return x_all[rows], np.asarray(starts, dtype=np.int64), np.asarray(chosen, dtype=np.int64)


def _nll_grad(
    w: npt.NDArray[np.float64],
    x: npt.NDArray[np.float64],
    starts: npt.NDArray[np.int64],
    chosen: npt.NDArray[np.int64],
) -> tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Mean negative log-likelihood of the chosen moves, its gradient, and each row's logit."""
    np = _numpy()
    z = x @ w
    n = len(starts)
    top = np.maximum.reduceat(z, starts)
    sizes = np.diff(np.append(starts, len(z)))
    zs = z - np.repeat(top, sizes)
    e = np.exp(zs)
    tot = np.add.reduceat(e, starts)
    p = e / np.repeat(tot, sizes)
    nll = float(np.mean(np.log(tot) - zs[chosen]))
    grad = (x.T @ p - x[chosen].sum(axis=0)) / n
    return nll, grad, z


def fit(
    rec: Records,
    steps: int = 400,
    lr: float = 0.05,
    l2: float = 1e-4,
    holdout: float = 0.1,
) -> tuple[Policy, FitReport]:
    """Fit the policy to ``rec`` (see the module docstring)."""
    np = _numpy()
    if not len(rec):
        raise ValueError("no decisions to learn from: play more games")
    matches = sorted(set(rec.match_of))
    cut = len(matches)
    if len(matches) > 1 and holdout > 0:
        cut -= max(1, int(len(matches) * holdout))
    held_matches = set(matches[cut:])
    train = [d for d in range(len(rec)) if rec.match_of[d] not in held_matches]
    held = [d for d in range(len(rec)) if rec.match_of[d] in held_matches]
    x, starts, chosen = _arrays(rec, train)
    w = np.zeros(N_FEATURES)
    m1 = np.zeros(N_FEATURES)
    m2 = np.zeros(N_FEATURES)
    b1, b2, eps = 0.9, 0.999, 1e-8

    for t in range(1, steps + 1):
        _, g, _ = _nll_grad(w, x, starts, chosen)
        g = g + 2 * l2 * w
        m1 = b1 * m1 + (1 - b1) * g
        m2 = b2 * m2 + (1 - b2) * g * g
        w = w - lr * (m1 / (1 - b1**t)) / (np.sqrt(m2 / (1 - b2**t)) + eps)
    train_nll = _nll_grad(w, x, starts, chosen)[0]
    held_nll = float("nan")
    agree = float("nan")
    if held:
        hx, hs, hc = _arrays(rec, held)
        held_nll, _, z = _nll_grad(w, hx, hs, hc)
        hits = 0
        bounds = [*hs.tolist(), len(z)]
        for k in range(len(hs)):
            a, b = bounds[k], bounds[k + 1]
            hits += int(a + int(np.argmax(z[a:b])) == hc[k])
        agree = hits / len(hs)
    report = FitReport(len(rec), len(held), float(train_nll), float(held_nll), agree, steps)
    return Policy([float(v) for v in w]), report


def train_daifugo(
    games: int,
    teacher: str = "heuristic",
    rules: str = "standard",
    seed: int = 0,
    match_games: int = 5,
    steps: int = 400,
    lr: float = 0.05,
    l2: float = 1e-4,
    command: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Policy, FitReport]:
    """Records then fit; the policy's ``meta`` says how it was made (and ``command`` if given)."""
    t0 = time.perf_counter()
    rec = generate_records(games, teacher, rules, seed, match_games, progress)
    t1 = time.perf_counter()
    policy, report = fit(rec, steps=steps, lr=lr, l2=l2)
    t2 = time.perf_counter()
    policy.meta = {
        "command": command,
        "training": {
            "games": games,
            "match_games": match_games,
            "teacher": teacher,
            "rules": rules,
            "seed": seed,
            "steps": steps,
            "lr": lr,
            "l2": l2,
            "decisions": report.decisions,
            "held_out": report.held_out,
            "train_nll": round(report.train_nll, 4),
            "held_nll": _finite(report.held_nll),
            "held_agreement": _finite(report.held_agreement),
            "seconds_records": round(t1 - t0, 1),
            "seconds_fit": round(t2 - t1, 1),
        },
    }
    return policy, report


def _finite(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


__all__ = ["FitReport", "Records", "derive_seed", "fit", "generate_records", "train_daifugo"]
