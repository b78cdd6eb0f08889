"""Determinized search with a policy's playouts (PIMC rollouts): improve a policy by sampling.

For the decision in ``view``, each *sample* is one determinization (a whole game consistent
with the view, from the game's sampler); in it, **every** candidate move is tried and the game
finished by a *policy* (by default the heuristic bot of every seat, each reading only its own
``view``), and the searching seat's score is noted. All candidates are scored on the same
samples, so their differences are *paired*: the luck of a sample cancels between them, which
is what lets a few dozen samples tell two moves apart.

The search starts from the policy's own choice (the *base* move) and plays another candidate
only if its mean score over the samples beats the base move's by more than ``z`` standard
errors of the paired differences: a policy is never made worse by noise. This is Bertsekas's
*rollout algorithm* (one step of policy improvement) on determinizations, with the paired test
as the guard; with a deterministic policy and exact samples it can only gain.

The reward is the seat's score itself, the quantity a tournament ranks (not a normalized rank):
in Napoleon, a made contract of 16 is worth more than one of 13.

>>> import random, torampu
>>> from torampu.search import sampler_for
>>> g = torampu.new_game("nap", seed=3)
>>> g.play("bid two")  # the first bidder takes a contract; the others pass
>>> while g.phase != "play":
...     g.play("pass")
>>> view = g.view(g.to_play)
>>> res = pimc(view, sampler_for("nap"), random.Random(1), PolicyRollout("nap"), iterations=8)
>>> res.action in g.legal_actions(), res.iterations
(True, 8)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from statistics import NormalDist
from typing import Any

from torampu.game import Game, Move
from torampu.search.ismcts import Prune, Sampler, SearchResult

View = Mapping[str, Any]
_NORMAL = NormalDist()


class PolicyRollout:
    """A policy made of one bot per seat (``make_bot(kind, seed, game)``), each choosing from
    that seat's ``view`` of the determinized game: ``move(g)`` is the move at ``g``, ``finish(g)``
    plays ``g`` to its end. Forced moves (one legal move) are played without asking."""

    def __init__(self, game: str, kind: str = "heuristic", seed: int = 0) -> None:
        from torampu.bots.base import Bot, make_bot

        self.game = game
        self.kind = kind
        self.seed = seed
        self._bots: dict[int, Bot] = {}
        self._make: Callable[[int], Bot] = lambda s: make_bot(kind, seed + s, game)

    def move(self, g: Game) -> Move:
        seat = g.to_play
        assert seat is not None
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = self._make(seat)
        return g.parse_action(bot.choose(g.view(seat), g.legal_actions()))

    def finish(self, g: Game) -> None:
        while not g.is_over:
            legal = g.legal_moves()
            g.apply(legal[0] if len(legal) == 1 else self.move(g))


def corrected_z(z: float, k: int) -> float:
    """The bar for the best of ``k`` alternatives with the false-switch rate of one at ``z``
    (Šidák: each alternative passes by noise with probability ``1 - (1 - p)^(1/k)``).

    >>> round(corrected_z(1.0, 1), 3), round(corrected_z(1.0, 5), 2), round(corrected_z(1.0, 10), 2)
    (1.0, 1.83, 2.12)
    """
    if k <= 1:
        return z
    p = 1.0 - _NORMAL.cdf(z)
    q = (1.0 - p) ** (1.0 / k)
    return _NORMAL.inv_cdf(q) if 0.0 < q < 1.0 else z


class _Paired:
    """Running paired differences of one candidate's scores against the base move's, on the
    samples both were played out on: their count, sum and sum of squares."""

    __slots__ = ("n", "squares", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, d: float) -> None:
        self.n += 1
        self.total += d
        self.squares += d * d

    def mean_se(self) -> tuple[float, float]:
        """Mean and standard error of the differences (``inf`` with fewer than two)."""
        n = self.n
        mean = self.total / n
        if n < 2:
            return mean, math.inf
        var = max(0.0, (self.squares - self.total * mean) / (n - 1))
        return mean, math.sqrt(var / n)


def pimc(
    view: View,
    sampler: Sampler,
    rng: random.Random,
    policy: PolicyRollout,
    iterations: int | None = None,
    seconds: float | None = None,
    prune: Prune | None = None,
    z: float = 1.0,
    min_samples: int = 4,
    drop_z: float | None = 2.0,
    drop_after: int = 8,
    correct: bool = False,
) -> SearchResult:
    """Sample determinizations of ``view`` until ``iterations`` samples or ``seconds`` (at least
    one sample), score every candidate move in each by ``policy``'s playout, and return the
    policy's own move unless another beats it by more than ``z`` paired standard errors (after
    at least ``min_samples`` samples). ``prune(game, legal)`` narrows the candidates (default:
    every legal move). ``SearchResult.values`` are mean scores, ``visits`` sample counts.

    *Racing*: from ``drop_after`` samples on, a candidate worse than the policy's move by more
    than ``drop_z`` paired standard errors, or no different from it on any sample so far, is
    no longer played out, so the samples go to the moves still in contention (``drop_z=None``:
    every candidate on every sample).

    With ``correct`` the bar ``z`` is for one alternative and is raised for
    ``k`` (:func:`corrected_z`): the best of many noisy alternatives looks better than it is,
    and a Napoleon auction's six candidates would otherwise turn passes into losing bids."""
    seat = view["seat"]
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    limit = iterations if iterations is not None else (1 << 62 if seconds is not None else 100)
    first: Game | None = None
    active: list[Move] = []
    base: Move = 0
    scores: dict[Move, list[float]] = {}
    paired: dict[Move, _Paired] = {}
    done = 0
    while done < limit:
        if done and deadline is not None and time.perf_counter() > deadline:
            break
        g = sampler(view, rng)
        if first is None:
            first = g
            legal = g.legal_moves()
            active = prune(g, legal) if prune is not None else list(legal)
            base = policy.move(g.clone())
            if base not in active:
                active = [base, *active]
            scores = {m: [] for m in active}
            paired = {m: _Paired() for m in active if m != base}
            if len(active) == 1:
                done = 1
                break
        for m in active:
            h = g.clone()
            h.apply(m)
            policy.finish(h)
            scores[m].append(float(h.scores()[seat]))
        mine = scores[base][-1]
        for m in active:
            if m != base:
                paired[m].add(scores[m][-1] - mine)
        done += 1
        if drop_z is not None and done >= drop_after and len(active) > 1:
            keep = [base]
            for m in active:
                if m == base:
                    continue
                mean, se = paired[m].mean_se()
                same = paired[m].squares == 0.0  # never different from the base move
                if not same and mean + drop_z * se >= 0.0:
                    keep.append(m)
            active = keep
            if len(active) == 1:
                break
    elapsed = time.perf_counter() - start
    assert first is not None
    choice = base
    if len(scores[base]) >= min_samples:
        bar = corrected_z(z, len(scores) - 1) if correct else z
        best_gain = 0.0
        for m in active:
            if m == base:
                continue
            mean, se = paired[m].mean_se()
            if mean > best_gain and mean > bar * se:
                best_gain, choice = mean, m
    name = first.action_str
    return SearchResult(
        move=choice,
        action=name(choice),
        iterations=done,
        seconds=elapsed,
        visits={name(m): len(v) for m, v in scores.items()},
        values={name(m): sum(v) / len(v) for m, v in scores.items() if v},
    )
