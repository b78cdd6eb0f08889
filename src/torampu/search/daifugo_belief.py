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
the legal-move check at each of the others' passes; ``k`` candidates cost ``k`` replays. With
:func:`~torampu.search.daifugo_sampler.pooled` around it, a search pays that only for its pool.

>>> import random, torampu
>>> g = torampu.new_game("daifugo", rules="standard", seed=3)
>>> while len(g.view(None)["log"]) < 15:
...     g.play(g.legal_actions()[-1])
>>> s = belief_sampler(k=3)(g.view(g.to_play), random.Random(0))
>>> s.view(g.to_play)["hand"] == g.view(g.to_play)["hand"]
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from torampu.daifugo import PH_PLAY, Daifugo
from torampu.game import Game
from torampu.search.daifugo_sampler import Sampler, SamplerError, pooled, sample_daifugo

View = Mapping[str, Any]

DEFAULT_K = 4
"""Candidate deals per sample."""
DEFAULT_HOLD = 0.5
"""The model's probability factor for a pass by a player who held a legal play."""


class _PassCounter:
    """Counts, in one replay, the other players' passes made while holding a legal play."""

    __slots__ = ("game", "held", "me")

    def __init__(self, me: int) -> None:
        self.me = me
        self.game: Game | None = None
        self.held = 0

    def __call__(self, g: Game, entry: Mapping[str, Any]) -> None:
        if g is not self.game:  # a new attempt of the sampler: start again
            self.game = g
            self.held = 0
        if entry["action"] != "pass" or entry["seat"] == self.me:
            return
        assert isinstance(g, Daifugo)
        if g.phase_id == PH_PLAY and len(g.legal_moves()) > 1:  # more than the pass itself
            self.held += 1


def belief_sample(
    view: View, rng: random.Random, k: int = DEFAULT_K, hold: float = DEFAULT_HOLD
) -> Game:
    """One determinization of ``view``: the best explained of ``k`` candidates, drawn in
    proportion to ``hold ** passes-while-holding-a-play`` (see the module docstring)."""
    if k <= 1 or view.get("phase") != "play":
        return sample_daifugo(view, rng)
    me = int(view["seat"])
    games: list[Game] = []
    weights: list[float] = []
    last: SamplerError | None = None
    for _ in range(k):
        count = _PassCounter(me)
        try:
            g = sample_daifugo(view, rng, observe=count)
        except SamplerError as e:
            last = e
            continue
        games.append(g)
        weights.append(hold**count.held)
    if not games:
        assert last is not None
        raise last
    x = rng.random() * sum(weights)
    for g, w in zip(games, weights, strict=True):
        x -= w
        if x < 0:
            return g
    return games[-1]


def belief_sampler(k: int = DEFAULT_K, hold: float = DEFAULT_HOLD, pool: int = 24) -> Sampler:
    """A pooled sampler (see :func:`~torampu.search.daifugo_sampler.pooled`) of
    :func:`belief_sample` determinizations."""

    def sample(view: View, rng: random.Random) -> Game:
        return belief_sample(view, rng, k, hold)

    return pooled(sample, pool)
