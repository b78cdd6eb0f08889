"""Belief-weighted Daifugo determinizations: hidden hands weighted by how likely the other
players' past plays were.

:func:`~torampu.search.daifugo_sampler.sample_daifugo` deals the unseen cards uniformly: a
player who passed is as likely to hold a 2 as one who played. This sampler draws ``k``
candidate deals and keeps one with probability proportional to its *likelihood* under a simple
model of play (sampling-importance-resampling): each pass by another player who then held a
legal play costs a factor ``hold`` (< 1); a pass with nothing playable costs nothing, and so do
plays (every play is taken as equally likely). So a deal in which the passers held little
that could follow is preferred, and more so the more such passes it explains.

The likelihood is read during the sample's own replay (the ``observe`` hook), for the price of
the legal-move check at each of the others' passes. :func:`belief_sample` draws ``k``
candidates (``k`` replays) and resamples one; :func:`belief_sampler`, which the ``ismcts`` bot
uses (``belief``), weights the search's pool of determinizations instead and draws from it in
proportion to the weights (importance resampling at no extra replay).

>>> import random, torampu
>>> g = torampu.new_game("daifugo", rules="standard", seed=3)
>>> while len(g.view(None)["log"]) < 15:
...     g.play(g.legal_actions()[-1])
>>> s = belief_sampler()(g.view(g.to_play), random.Random(0))
>>> s.view(g.to_play)["hand"] == g.view(g.to_play)["hand"]
True
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Mapping
from itertools import accumulate
from typing import Any

from torampu.daifugo import PH_PLAY, Daifugo
from torampu.daifugo_plays import PASS
from torampu.game import Game, Move
from torampu.search.daifugo_sampler import Sampler, SamplerError, play_strength, sample_daifugo

View = Mapping[str, Any]

DEFAULT_K = 4
"""Candidate deals per sample."""
DEFAULT_HOLD = 0.1
"""The model's probability factor for a pass by a player who held a legal play. On heuristic
games (12 of ``standard``, 12 of ``uecda``; 48 draws from a pool of 24 at every sixth
decision), the share of the others' cards a draw puts in the right hand went from 0.396
(uniform) to 0.404 / 0.409 / 0.413 with 0.5 / 0.25 / 0.1 under ``standard`` and from 0.396 to
0.403 / 0.409 / 0.416 under ``uecda``, for some 15% more time building the pool."""


class _Observer:
    """What both counters share: an ``observe`` hook of
    :func:`~torampu.search.daifugo_sampler.sample_daifugo` that starts again on each new attempt
    of the sampler (a new game) and reads only the other players' moves of the play phase
    (:meth:`_other`, with the game just before the move)."""

    __slots__ = ("game", "me")

    def __init__(self, me: int) -> None:
        self.me = me
        self.game: Game | None = None

    def __call__(self, g: Game, entry: Mapping[str, Any]) -> None:
        if g is not self.game:  # a new attempt of the sampler: start again
            self.game = g
            self._reset()
        if entry["seat"] == self.me:
            return
        assert isinstance(g, Daifugo)
        if g.phase_id == PH_PLAY:
            self._other(g, str(entry["action"]))

    def _reset(self) -> None:
        raise NotImplementedError

    def _other(self, g: Daifugo, action: str) -> None:
        raise NotImplementedError


class _PassCounter(_Observer):
    """Reads, in one replay, how likely the other players' moves were under the model: a pass
    by a player who held a legal play costs ``log(hold)``; with ``shed`` > 0 a play costs the
    log-probability of choosing it when plays are drawn in proportion to
    ``exp(-shed * k)``, ``k`` counting the legal plays weaker than it in the order of the moment
    (a player sheds its weakest cards first; ``shed`` 0: every play equally likely)."""

    __slots__ = ("held", "logp", "shed")

    def __init__(self, me: int, shed: float = 0.0) -> None:
        super().__init__(me)
        self.held = 0  # passes made while holding a play
        self.logp = 0.0  # the plays' log-probability (with ``shed``)
        self.shed = shed

    def _reset(self) -> None:
        self.held = 0
        self.logp = 0.0

    def _other(self, g: Daifugo, action: str) -> None:
        if action == "pass":
            if len(g._plays_now(g.turn)) > 1:  # more than the pass itself
                self.held += 1
            return
        if self.shed <= 0 or not action.startswith("play"):
            return
        moves = g._plays_now(g.turn)
        if len(moves) <= 2:
            return
        rev = g.revolution != g.eleven
        chosen = play_strength(g.parse_action(action), rev)
        keys = sorted(play_strength(m, rev) for m in moves if m != PASS)
        weaker = bisect.bisect_left(keys, chosen)
        # the tied plays share a place: k for each is the number strictly weaker
        z = 0.0
        for k in (bisect.bisect_left(keys, key) for key in keys):
            z += math.exp(-self.shed * k)
        self.logp += -self.shed * weaker - math.log(z)


class _PolicyCounter(_Observer):
    """Reads, in one replay, the log-likelihood of the other players' moves under a move
    policy: at each of their play-phase decisions with a choice, ``log P(move)`` of
    ``policy(game, legal)`` (a probability per legal move, as
    :meth:`~torampu.learn.daifugo_policy.Policy.prior` gives) for the hand that player holds
    in this deal."""

    __slots__ = ("logp", "policy")

    def __init__(self, me: int, policy: Callable[[Game, list[Move]], list[float]]) -> None:
        super().__init__(me)
        self.policy = policy
        self.logp = 0.0

    def _reset(self) -> None:
        self.logp = 0.0

    def _other(self, g: Daifugo, action: str) -> None:
        moves = g.legal_moves()
        if len(moves) <= 1:
            return
        m = g.parse_action(action)
        if m not in moves:  # (cannot happen in a replay that passed the engine's checks)
            return
        p = self.policy(g, moves)[moves.index(m)]
        self.logp += math.log(max(p, FLOOR))


FLOOR = 1e-4
"""The least probability :class:`_PolicyCounter` gives a move (a policy is never that sure)."""


def _weighted_deals(
    view: View,
    rng: random.Random,
    n: int,
    hold: float,
    shed: float = 0.0,
    unseen: bool = False,
    policy: Callable[[Game, list[Move]], list[float]] | None = None,
    power: float = 1.0,
) -> tuple[list[Game], list[float]]:
    """Up to ``n`` uniform determinizations of ``view`` with their weights
    ``hold ** passes-while-holding-a-play`` times, with ``shed``, the plays' probability
    (read during each one's replay; see :class:`_PassCounter`), or with ``policy``, the others'
    moves' likelihood under it to the power ``power`` (:class:`_PolicyCounter`; ``hold`` and
    ``shed`` unused); raises the last :class:`SamplerError` when none could be built."""
    me = view.get("seat")
    seat = int(me) if isinstance(me, int) else -1
    games: list[Game] = []
    weights: list[float] = []
    logs: list[float] = []
    last: SamplerError | None = None
    for _ in range(n):
        count: _PassCounter | _PolicyCounter = (
            _PassCounter(seat, shed) if policy is None else _PolicyCounter(seat, policy)
        )
        try:
            g = sample_daifugo(view, rng, observe=count, unseen=unseen)
        except SamplerError as e:
            last = e
            continue
        games.append(g)
        if isinstance(count, _PassCounter):
            weights.append(hold**count.held)
            logs.append(count.logp)
        else:
            weights.append(1.0)
            logs.append(power * count.logp)
    if not games:
        assert last is not None
        raise last
    if shed > 0 or policy is not None:
        top = max(logs)
        weights = [w * math.exp(x - top) for w, x in zip(weights, logs, strict=True)]
    return games, weights


def belief_sample(
    view: View,
    rng: random.Random,
    k: int = DEFAULT_K,
    hold: float = DEFAULT_HOLD,
    shed: float = 0.0,
) -> Game:
    """One determinization of ``view``: the best explained of ``k`` candidates, drawn in
    proportion to ``hold ** passes-while-holding-a-play`` (see the module docstring)."""
    if k <= 1 or view.get("phase") != "play":
        return sample_daifugo(view, rng)
    games, weights = _weighted_deals(view, rng, k, hold, shed)
    x = rng.random() * sum(weights)
    for g, w in zip(games, weights, strict=True):
        x -= w
        if x < 0:
            return g
    return games[-1]


def belief_sampler(
    hold: float = DEFAULT_HOLD,
    size: int = 24,
    shed: float = 0.0,
    unseen: bool = False,
    policy: Callable[[Game, list[Move]], list[float]] | None = None,
    power: float = 1.0,
) -> Sampler:
    """A pool of ``size`` determinizations per view with importance weights: on the first call
    for a view the pool is built (uniform deals, as
    :func:`~torampu.search.daifugo_sampler.pooled` builds them, each weighted by
    ``hold ** passes-while-holding-a-play``, read during its own replay), and every call returns
    a clone of a pool entry drawn in proportion to its weight. So the weighting costs no extra
    replay, only the legal-move checks at the others' passes. ``unseen``: the deals play the
    exchanges the seat did not see (see
    :func:`~torampu.search.daifugo_sampler.sample_daifugo`). ``policy``: the deals are weighted
    by the likelihood of the others' moves under that move policy instead, to the power
    ``power`` (see :class:`_PolicyCounter`)."""
    state: dict[str, Any] = {"view": None, "games": [], "cum": []}

    def sample(view: View, rng: random.Random) -> Game:
        if state["view"] is not view:
            games, weights = _weighted_deals(view, rng, size, hold, shed, unseen, policy, power)
            cum = list(accumulate(weights))
            state.update(view=view, games=games, cum=cum)
        cum = state["cum"]
        pool: list[Game] = state["games"]
        k = bisect.bisect_right(cum, rng.random() * cum[-1])
        return pool[min(k, len(cum) - 1)].clone()

    return sample
