"""Training the Daifugo policy: records by self-play of a teacher, then a linear softmax fit.

:func:`generate_records` plays ``games`` matches of Daifugo with the teacher bot (any bot spec:
``heuristic``, ``ismcts:iterations=100``, …) at every seat and records each decision with more
than one legal move: the features of every legal move (:func:`~torampu.learn.daifugo_features.
move_features`, from the mover's side), with ``table`` their binary keys too
(:func:`~torampu.learn.daifugo_features.move_keys`), and the move the teacher chose — or, with
``soft``, where the teacher searched, the share of the search's root visits each move had (the
search's targets: more than its one pick tells; where the guard or the solver overruled the tree,
or nothing was searched, the chosen move). :func:`fit` fits the policy's weights (and with
``table`` a weight per key) to those targets by full-batch Adam on the mean cross-entropy of the
softmax plus ``l2`` times the squared weights; it holds out the last ``holdout`` share of the
matches and reports how often the policy's best move is the teacher's there. With ``oracle`` a
search teacher searches the true deal (:func:`see_all`), every hand known, where it would draw
deals from its view; the policy still reads only the mover's side. Everything is
drawn from ``seed`` (the deals, the teacher's seeds; each match from its own) and the fit has no
randomness, so the same command gives the same weights, however many ``workers`` play the
matches.

numpy is needed here (``pip install torampu[rl]``, or the dev set-up), not to play.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import torampu
from torampu.bots.base import make_bot, parse_bot_spec
from torampu.daifugo import Daifugo
from torampu.learn.daifugo_features import N_FEATURES, N_KEYS, move_features, move_keys
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
    keys: list[list[int]] = field(default_factory=list)
    """With ``table``: each move's binary keys (one list per row)."""
    targets: list[list[float]] = field(default_factory=list)
    """With ``soft``: per decision, each move's target probability (else none: the chosen)."""

    def __len__(self) -> int:
        return len(self.sizes)

    def extend(self, other: Records) -> None:
        """Append ``other``'s decisions (a later part of the same records)."""
        self.rows.extend(other.rows)
        self.sizes.extend(other.sizes)
        self.chosen.extend(other.chosen)
        self.match_of.extend(other.match_of)
        self.keys.extend(other.keys)
        self.targets.extend(other.targets)


def generate_records(
    games: int,
    teacher: str = "heuristic",
    rules: str = "standard",
    seed: int = 0,
    match_games: int = 5,
    progress: Callable[[int], None] | None = None,
    table: bool = False,
    soft: bool = False,
    workers: int = 1,
    oracle: bool = False,
) -> Records:
    """Play ``games`` matches of ``match_games`` games under ``rules`` with ``teacher`` at every
    seat and record its decisions (see the module docstring). ``workers`` processes share the
    matches; the records are the same for any number."""
    parse_bot_spec(teacher)  # a bad spec fails here, before any process starts
    jobs = [(k, teacher, rules, seed, match_games, table, soft, oracle) for k in range(games)]
    if workers <= 1 or games <= 1:
        return _collect(map(_match_job, jobs), progress)
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(min(workers, games)) as pool:
        return _collect(pool.imap(_match_job, jobs), progress)  # imap keeps the match order


def _collect(parts: Iterable[Records], progress: Callable[[int], None] | None) -> Records:
    """The matches' records, in order, as one (``progress`` told after each)."""
    rec = Records()
    for done, part in enumerate(parts, 1):
        rec.extend(part)
        if progress is not None:
            progress(done)
    return rec


def _match_job(job: tuple[int, str, str, int, int, bool, bool, bool]) -> Records:
    return _match_records(*job)


def _match_records(
    k: int,
    teacher: str,
    rules: str,
    seed: int,
    match_games: int,
    table: bool,
    soft: bool,
    oracle: bool = False,
) -> Records:
    """The records of match ``k`` (its deals and bots drawn from ``seed`` and ``k``)."""
    kind, options = parse_bot_spec(teacher)
    rec = Records()
    match = torampu.new_match(
        "daifugo", rules, games=match_games, seed=derive_seed(seed, "deal", k)
    )
    bots = [
        make_bot(kind, derive_seed(seed, "bot", k, s), "daifugo", **options) for s in range(match.n)
    ]
    while not match.is_over:
        g = match.game
        assert isinstance(g, Daifugo)
        seat = match.to_play
        assert seat is not None
        legal = match.legal_actions()
        bot = bots[seat]
        if oracle:
            see_all(bot, g)
        action = bot.choose(match.view(seat), legal)
        moves = g.legal_moves()
        if len(moves) > 1:
            m = g.parse_action(action)
            if table:
                feats, keys = move_keys(g, moves)
                rec.keys.extend(keys)
            else:
                feats = move_features(g, moves)
            rec.rows.extend(feats)
            rec.sizes.append(len(moves))
            rec.chosen.append(moves.index(m))
            rec.match_of.append(k)
            if soft:
                rec.targets.append(_visit_targets(bot, g, moves, moves.index(m), action))
        match.play(action)
    return rec


def see_all(bot: object, game: Daifugo) -> None:
    """Make a search ``bot`` search ``game`` itself, every hand known: each determinization
    it draws is a copy of the true game (the ``oracle`` teacher). A bot without a sampler is
    left as it is.

    >>> from torampu.bots.base import make_bot
    >>> g = torampu.new_game("daifugo", "uecda", seed=3)
    >>> bot = make_bot("ismcts", 0, "daifugo", iterations=10)
    >>> see_all(bot, g)
    >>> import random
    >>> drawn = bot.sampler(g.view(g.to_play), random.Random(0))
    >>> [drawn.view(s)["hand"] == g.view(s)["hand"] for s in range(g.n)]
    [True, True, True, True, True]
    """
    if hasattr(bot, "sampler"):
        bot.sampler = lambda _view, _rng: game.clone()


def _visit_targets(
    bot: object, g: Daifugo, moves: list[int], chosen: int, action: str
) -> list[float]:
    """Each move's share of the teacher's root visits, where its search chose ``action``
    (else all on the chosen move)."""
    res = getattr(bot, "last_result", None)
    visits = getattr(res, "visits", None)
    counts = [0.0] * len(moves)
    if isinstance(visits, dict) and getattr(res, "action", None) == action:
        counts = [float(visits.get(g.action_str(m), 0)) for m in moves]
    total = sum(counts)
    if total <= 0:
        return [1.0 if i == chosen else 0.0 for i in range(len(moves))]
    return [c / total for c in counts]


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


@dataclass
class _Batch:
    """Decisions as arrays: feature rows, group starts, each row's target probability, and
    (with keys) each key's row and index."""

    x: Any
    starts: Any
    y: Any
    chosen: Any
    key_rows: Any
    key_ids: Any


def _arrays(rec: Records, keep: list[int], table: bool) -> _Batch:
    """The decisions ``keep`` of ``rec`` as a :class:`_Batch`."""
    np = _numpy()
    starts_all = np.zeros(len(rec.sizes) + 1, dtype=np.int64)
    np.cumsum(np.asarray(rec.sizes, dtype=np.int64), out=starts_all[1:])
    x_all = np.asarray(rec.rows, dtype=np.float64)
    idx = []
    starts = []
    chosen = []
    y: list[float] = []
    key_rows: list[int] = []
    key_ids: list[int] = []
    pos = 0
    for d in keep:
        a, b = int(starts_all[d]), int(starts_all[d + 1])
        idx.append(np.arange(a, b))
        starts.append(pos)
        chosen.append(pos + rec.chosen[d])
        if rec.targets:
            y.extend(rec.targets[d])
        else:
            y.extend(1.0 if i == rec.chosen[d] else 0.0 for i in range(b - a))
        if table:
            for i in range(a, b):
                ks = rec.keys[i]
                key_rows.extend([pos + i - a] * len(ks))
                key_ids.extend(ks)
        pos += b - a
    rows = np.concatenate(idx) if idx else np.zeros(0, dtype=np.int64)
    return _Batch(
        x_all[rows] if len(rows) else np.zeros((0, N_FEATURES)),
        np.asarray(starts, dtype=np.int64),
        np.asarray(y, dtype=np.float64),
        np.asarray(chosen, dtype=np.int64),
        np.asarray(key_rows, dtype=np.int64),
        np.asarray(key_ids, dtype=np.int64),
    )


def _nll_grad(
    w: npt.NDArray[np.float64], t: npt.NDArray[np.float64] | None, b: _Batch
) -> tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64] | None, npt.NDArray[np.float64]]:
    """Mean cross-entropy of the targets, its gradients (weights, table) and each row's logit."""
    np = _numpy()
    z = b.x @ w
    if t is not None:
        z = z + np.bincount(b.key_rows, weights=t[b.key_ids], minlength=len(z))
    starts = b.starts
    n = len(starts)
    top = np.maximum.reduceat(z, starts)
    sizes = np.diff(np.append(starts, len(z)))
    zs = z - np.repeat(top, sizes)
    e = np.exp(zs)
    tot = np.add.reduceat(e, starts)
    p = e / np.repeat(tot, sizes)
    logp = zs - np.repeat(np.log(tot), sizes)
    nll = float(-np.sum(b.y * logp) / n)
    d = (p - b.y) / n
    grad = b.x.T @ d
    tgrad = None
    if t is not None:
        tgrad = np.bincount(b.key_ids, weights=d[b.key_rows], minlength=len(t))
    return nll, grad, tgrad, z


def fit(
    rec: Records,
    steps: int = 400,
    lr: float = 0.05,
    l2: float = 1e-4,
    holdout: float = 0.1,
    table: bool = False,
) -> tuple[Policy, FitReport]:
    """Fit the policy to ``rec`` (see the module docstring); with ``table``, a weight per key
    too (the records must hold the keys)."""
    np = _numpy()
    if not len(rec):
        raise ValueError("no decisions to learn from: play more games")
    if table and len(rec.keys) != len(rec.rows):
        raise ValueError("a table needs the moves' keys in the records (generate with table)")
    matches = sorted(set(rec.match_of))
    cut = len(matches)
    if len(matches) > 1 and holdout > 0:
        cut -= max(1, int(len(matches) * holdout))
    held_matches = set(matches[cut:])
    train = [d for d in range(len(rec)) if rec.match_of[d] not in held_matches]
    held = [d for d in range(len(rec)) if rec.match_of[d] in held_matches]
    batch = _arrays(rec, train, table)
    n_w = N_FEATURES + (N_KEYS if table else 0)
    theta = np.zeros(n_w)
    m1 = np.zeros(n_w)
    m2 = np.zeros(n_w)
    b1, b2, eps = 0.9, 0.999, 1e-8

    def split(v: Any) -> tuple[Any, Any]:
        return v[:N_FEATURES], (v[N_FEATURES:] if table else None)

    def grad_of(v: Any) -> Any:
        """The gradient of the penalised loss at ``v`` (weights, then the table)."""
        w, t = split(v)
        _, g, tg, _ = _nll_grad(w, t, batch)
        return (g if tg is None else np.concatenate([g, tg])) + 2 * l2 * v

    for step in range(1, steps + 1):
        g = grad_of(theta)
        m1 = b1 * m1 + (1 - b1) * g
        m2 = b2 * m2 + (1 - b2) * g * g
        theta = theta - lr * (m1 / (1 - b1**step)) / (np.sqrt(m2 / (1 - b2**step)) + eps)
    w, t = split(theta)
    train_nll = _nll_grad(w, t, batch)[0]
    held_nll = float("nan")
    agree = float("nan")
    if held:
        hb = _arrays(rec, held, table)
        held_nll, _, _, z = _nll_grad(w, t, hb)
        hits = 0
        bounds = [*hb.starts.tolist(), len(z)]
        for k in range(len(hb.starts)):
            a, b = bounds[k], bounds[k + 1]
            hits += int(a + int(np.argmax(z[a:b])) == hb.chosen[k])
        agree = hits / len(hb.starts)
    report = FitReport(len(rec), len(held), float(train_nll), float(held_nll), agree, steps)
    return Policy([float(v) for v in w], table=None if t is None else [float(v) for v in t]), report


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
    table: bool = False,
    soft: bool = False,
    workers: int = 1,
    oracle: bool = False,
) -> tuple[Policy, FitReport]:
    """Records then fit; the policy's ``meta`` says how it was made (and ``command`` if given)."""
    t0 = time.perf_counter()
    rec = generate_records(
        games,
        teacher,
        rules,
        seed,
        match_games,
        progress,
        table=table,
        soft=soft,
        workers=workers,
        oracle=oracle,
    )
    t1 = time.perf_counter()
    policy, report = fit(rec, steps=steps, lr=lr, l2=l2, table=table)
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
            "table": table,
            "soft": soft,
            "oracle": oracle,
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
