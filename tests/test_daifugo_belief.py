"""Belief-weighted Daifugo determinizations (torampu.search.daifugo_belief)."""

from __future__ import annotations

import random

import torampu
from torampu.bots import make_bot
from torampu.daifugo import Daifugo
from torampu.daifugo_plays import cards_words
from torampu.game import Game
from torampu.search.daifugo_belief import _PassCounter, belief_sample, belief_sampler
from torampu.search.daifugo_sampler import pooled, sample_daifugo


def midgame(seed: int, rules: str = "standard", plays: int = 30) -> Daifugo:
    """A game after ``plays`` log entries of heuristic play (many passes among them)."""
    g = torampu.new_game("daifugo", rules=rules, seed=seed)
    assert isinstance(g, Daifugo)
    bots = [make_bot("heuristic", seed + s, "daifugo") for s in range(g.n)]
    while not g.is_over and len(g.log) < plays:
        s = g.to_play
        assert s is not None
        g.play(bots[s].choose(g.view(s), g.legal_actions()))
    assert not g.is_over
    return g


def test_belief_samples_reach_the_view() -> None:
    for seed in range(3):
        g = midgame(seed)
        me = g.to_play
        assert me is not None
        view = g.view(me)
        s = belief_sample(view, random.Random(seed), k=3)
        got = s.view(me)
        for key in ("hand", "hand_sizes", "table", "passed", "to_play"):
            assert got[key] == view[key]
        sampler = belief_sampler(size=3)
        for _ in range(5):  # built, then cloned from the pool
            assert sampler(view, random.Random(1)).view(me)["hand"] == view["hand"]


def test_weighting_prefers_deals_that_explain_the_passes() -> None:
    """Over many samples, the deals the belief sampler keeps make the others pass while holding
    a play less often than uniform deals do (the quantity it weighs)."""
    uniform = weighted = 0
    for seed in range(4):
        g = midgame(seed, plays=40)
        me = g.to_play
        assert me is not None
        view = g.view(me)
        rng_u, rng_w = random.Random(seed), random.Random(seed)
        for _ in range(25):
            c = _PassCounter(me)
            u = sample_daifugo(view, rng_u, observe=c)
            assert c.held == _held_in(u, me)  # the observer counts what a replay shows
            uniform += c.held
            weighted += _held_in(belief_sample(view, rng_w, k=6, hold=0.1), me)
    assert weighted < uniform * 0.9, (weighted, uniform)


def _held_in(game: Game, me: int) -> int:
    """The others' passes while holding a play in ``game``'s own history (replayed from its
    first position, which the sampler built on the sampled deal)."""
    assert isinstance(game, Daifugo)
    hands, jok = game.initial
    start = Daifugo(
        game.rules,
        0,
        {"hands": [cards_words(h, j) for h, j in zip(hands, jok, strict=True)]},
        game.dealer,
        titles=game.titles,
        seating=list(game.seating),
    )
    held = 0
    for s, m in game.history:
        if s != me and start.action_str(m) == "pass" and len(start.legal_moves()) > 1:
            held += 1
        start.apply(m)
    return held


def test_the_weighted_pool_draws_the_better_explained_deals_more_often() -> None:
    uniform = weighted = 0
    for seed in range(4):
        g = midgame(seed, plays=40)
        me = g.to_play
        assert me is not None
        view = g.view(me)
        plain = pooled(sample_daifugo, 16)
        belief = belief_sampler(hold=0.1, size=16)
        rng_u, rng_w = random.Random(seed), random.Random(seed)
        for _ in range(60):
            uniform += _held_in(plain(view, rng_u), me)
            weighted += _held_in(belief(view, rng_w), me)
    assert weighted < uniform * 0.9, (weighted, uniform)
