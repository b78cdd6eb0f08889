"""A model of the other players, learned during a match from their revealed games.

Daifugo shows every card a player plays, and a player who goes out has played its whole hand:
once a game ends with one player left, every hand it was played with is known (the last
player's is the rest of the pack). A UECda client rebuilds such a game
(:meth:`torampu.uecda.client.GameTracker.revealed`) and gives its record to the bot
(``bot.learn(record)``); so a bot can see, after each game, what the others chose with what
hands, and fit a model of them — as a human player learns the table's habits.

:class:`OpponentModel` keeps the others' play-phase decisions of the match so far (the
:mod:`~torampu.learn.daifugo_features` of every legal move, and the move chosen; the most recent
``window`` of them) and fits a linear softmax of those features (a
:class:`~torampu.learn.daifugo_policy.Policy`) to them: the mean negative log-likelihood of
their choices plus ``pull`` times the squared distance from the *base* policy (the shipped one),
a few full-batch Adam steps after each game, starting from the last fit. With no game seen the
model is the base policy. The ``ismcts`` option ``adapt`` uses it for the others' moves in the
search's rollouts (its own moves stay the base policy's).

Each game it observes is first scored by the fit from before it (:attr:`OpponentModel.foresight`):
the negative log-likelihood of the others' moves under the model and under the base, on moves
neither was fitted to. :meth:`OpponentModel.gain` is the difference over recent games — how
much watching the table has taught the model — and a model with a ``gate`` is
:attr:`OpponentModel.active` only while that gain reaches it (``ismcts:adapt=auto``).

Everything is plain Python (compiled with the features by mypyc), no numpy: a feature vector is
kept as its non-zero entries, a couple of dozen, so a step over 4,000 decisions takes a few
milliseconds compiled.

>>> import torampu
>>> from torampu.bots import make_bot
>>> from torampu.learn.daifugo_policy import default_policy
>>> g = torampu.new_game("daifugo", "uecda", seed=4)
>>> bots = [make_bot("heuristic", s, "daifugo") for s in range(g.n)]
>>> while not g.is_over:
...     g.play(bots[g.to_play].choose(g.view(g.to_play), g.legal_actions()))
>>> model = OpponentModel(default_policy())
>>> model.observe(g.to_record(), skip=(0,)) > 0
True
>>> before = model.nll()
>>> model.fit()
>>> model.nll() < before
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, Final

import torampu
from torampu.daifugo import PH_PLAY, Daifugo
from torampu.learn.daifugo_features import N_FEATURES, move_keys
from torampu.learn.daifugo_policy import Policy

PULL: Final = 0.003
"""The default weight of the squared distance from the base policy (measured; see the
``ismcts`` option ``adapt``)."""
WINDOW: Final = 4000
"""The most recent decisions kept."""
STEPS: Final = 10
"""Adam steps after each game (warm-started: on 46 of Blauweregen's games, 10 a game predicted
the next game as well as 30, in a third of the time)."""
RATE: Final = 0.05
GAIN_GAMES: Final = 10
"""The recent games :meth:`OpponentModel.gain` averages over."""
FORESIGHT_KEPT: Final = 100
"""Games whose foresight (:attr:`OpponentModel.foresight`) is kept."""

Sparse = tuple[tuple[int, ...], tuple[float, ...]]
"""A feature vector's non-zero entries: (indices, values)."""


def _sparse(f: list[float]) -> Sparse:
    idx: list[int] = []
    val: list[float] = []
    for k in range(len(f)):
        v = f[k]
        if v != 0.0:
            idx.append(k)
            val.append(v)
    return tuple(idx), tuple(val)


Decision = tuple[list[Sparse], list[float], int]
"""One kept decision: (the moves' features, their scores by the base's table, the chosen)."""


def _scores(rows: list[Sparse], offsets: list[float], w: list[float]) -> list[float]:
    """Each move's score (logit) under weights ``w``: its offset plus its features' products."""
    scores: list[float] = []
    for r in range(len(rows)):
        idx, val = rows[r]
        s = offsets[r]
        for j in range(len(idx)):
            s += w[idx[j]] * val[j]
        scores.append(s)
    return scores


def _nll_sum(decisions: list[Decision], w: list[float]) -> float:
    """The summed negative log-likelihood of ``decisions``' choices under weights ``w``."""
    total = 0.0
    for rows, offsets, chosen in decisions:
        scores = _scores(rows, offsets, w)
        top = max(scores)
        total += math.log(sum([math.exp(s - top) for s in scores])) + top - scores[chosen]
    return total


class OpponentModel:
    """The others' moves as a :class:`Policy` fitted to their revealed decisions (see the
    module docstring)."""

    def __init__(
        self,
        base: Policy,
        pull: float = PULL,
        window: int = WINDOW,
        steps: int = STEPS,
        gate: float | None = None,
    ) -> None:
        if not (pull >= 0 and math.isfinite(pull)) or window < 1 or steps < 0:
            raise ValueError("pull must be a number >= 0, window >= 1 and steps >= 0")
        if gate is not None and not math.isfinite(gate):
            raise ValueError(f"gate must be a number, not {gate!r}")
        self.gate = gate
        """With a gate the model is :attr:`active` only while it foresees the others' moves
        better than its base by at least this many nats a move (:meth:`gain`); ``None``: as
        soon as it has observed a game."""
        self.base = base
        self.pull = pull
        self.window = window
        self.steps = steps
        self.weights: list[float] = list(base.weights)
        self.decisions: list[Decision] = []
        """(the moves' features, their scores by the base's table of key weights, the index of
        the one chosen), oldest first. The fit moves the weights only; a table stays the
        base's."""
        self.games = 0
        """Games observed."""
        self.foresight: list[tuple[int, float, float]] = []
        """Per observed game with decisions, oldest first: (its decisions, the sum of their
        negative log-likelihoods under the model as it stood before that game, the same under
        the base) — how well the model foresaw moves it had not been fitted to."""
        self._m1 = [0.0] * N_FEATURES
        self._m2 = [0.0] * N_FEATURES
        self._t = 0
        self._policy: Policy | None = None

    @property
    def policy(self) -> Policy:
        """The fitted policy (the base one until a game is observed and fitted)."""
        if self._policy is None:
            self._policy = Policy(self.weights, {"adapted_from": self.games}, self.base.table)
        return self._policy

    def observe(self, record: Mapping[str, Any], skip: Iterable[int] = ()) -> int:
        """Add the play-phase decisions with a choice of every seat but ``skip`` in the record
        of a finished Daifugo game whose hands are all known; the number added."""
        actions = record.get("actions", [])
        start = {k: v for k, v in record.items() if k != "actions"}
        start["actions"] = []
        g = torampu.replay(start)
        if not isinstance(g, Daifugo):
            raise ValueError("not a Daifugo record")
        skipped = set(skip)
        added = 0
        for step in actions:
            action = step["action"]
            if g.phase_id == PH_PLAY and g.turn not in skipped:
                moves = g.legal_moves()
                if len(moves) > 1:
                    names = [g.action_str(m) for m in moves]
                    if action in names:
                        feats, keys = move_keys(g, moves)
                        rows = [_sparse(f) for f in feats]
                        table = self.base.table
                        offsets = [
                            0.0 if table is None else sum([table[k] for k in ks]) for ks in keys
                        ]
                        self.decisions.append((rows, offsets, names.index(action)))
                        added += 1
            g.play(action)
        if added:
            fresh = self.decisions[len(self.decisions) - added :]
            self.foresight.append(
                (added, _nll_sum(fresh, self.weights), _nll_sum(fresh, self.base.weights))
            )
            if len(self.foresight) > FORESIGHT_KEPT:
                del self.foresight[0]
        if len(self.decisions) > self.window:
            del self.decisions[: len(self.decisions) - self.window]
        self.games += 1
        return added

    def gain(self, games: int = GAIN_GAMES) -> float | None:
        """How much better than its base the model foresaw the moves of the last ``games``
        observed games, each scored by the fit from before it: the base's mean negative
        log-likelihood a move minus the model's (nats; > 0: better). ``None`` before any."""
        n = 0
        diff = 0.0
        for k, model_nll, base_nll in self.foresight[-games:] if games > 0 else []:
            n += k
            diff += base_nll - model_nll
        return diff / n if n else None

    @property
    def active(self) -> bool:
        """Whether the search should draw the others' moves from the model: once a game is
        observed, and with a :attr:`gate` only while :meth:`gain` reaches it."""
        if not self.games:
            return False
        if self.gate is None:
            return True
        g = self.gain()
        return g is not None and g >= self.gate

    def _gradient(self, w: list[float]) -> tuple[float, list[float]]:
        """The mean negative log-likelihood of the decisions under ``w`` and its gradient."""
        grad = [0.0] * N_FEATURES
        total = 0.0
        for rows, offsets, chosen in self.decisions:
            scores = _scores(rows, offsets, w)
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            z = sum(exps)
            total += math.log(z) + top - scores[chosen]
            for r in range(len(rows)):
                p = exps[r] / z
                idx, val = rows[r]
                for j in range(len(idx)):
                    grad[idx[j]] += p * val[j]
            idx, val = rows[chosen]
            for j in range(len(idx)):
                grad[idx[j]] -= val[j]
        n = max(len(self.decisions), 1)
        return total / n, [x / n for x in grad]

    def nll(self) -> float:
        """The mean negative log-likelihood of the kept decisions under the current fit."""
        return _nll_sum(self.decisions, self.weights) / max(len(self.decisions), 1)

    def fit(self, steps: int | None = None) -> None:
        """``steps`` (default :attr:`steps`) Adam steps on the decisions kept, from the last fit."""
        if not self.decisions:
            return
        w = self.weights
        w0 = self.base.weights
        m1, m2 = self._m1, self._m2
        pull2 = 2.0 * self.pull
        for _ in range(self.steps if steps is None else steps):
            _, g = self._gradient(w)
            self._t += 1
            c1 = 1.0 - 0.9**self._t
            c2 = 1.0 - 0.999**self._t
            for k in range(N_FEATURES):
                gk = g[k] + pull2 * (w[k] - w0[k])
                m1[k] = 0.9 * m1[k] + 0.1 * gk
                m2[k] = 0.999 * m2[k] + 0.001 * gk * gk
                w[k] -= RATE * (m1[k] / c1) / (math.sqrt(m2[k] / c2) + 1e-8)
        self._policy = None


__all__ = ["GAIN_GAMES", "PULL", "STEPS", "WINDOW", "OpponentModel"]
