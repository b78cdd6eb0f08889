"""Belief-weighted Daifugo determinizations (torampu.search.daifugo_belief)."""

from __future__ import annotations

import random

import pytest

import torampu
from torampu.bots import BotError, make_bot
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


def _first_position(game: Game) -> Daifugo:
    """``game`` at its first position: its deal, dealer, titles and seating, no move yet."""
    assert isinstance(game, Daifugo)
    hands, jok = game.initial
    return Daifugo(
        game.rules,
        0,
        {"hands": [cards_words(h, j) for h, j in zip(hands, jok, strict=True)]},
        game.dealer,
        titles=game.titles,
        seating=list(game.seating),
    )


def _held_in(game: Game, me: int) -> int:
    """The others' passes while holding a play in ``game``'s own history (replayed from its
    first position, which the sampler built on the sampled deal)."""
    start = _first_position(game)
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


def test_shed_weighs_a_play_by_the_weaker_plays_left_aside() -> None:
    import math

    g = torampu.new_game(
        "daifugo", "standard", players=2, seed=0, deal={"hands": [["KS", "AS"], ["4S", "7H", "KD"]]}
    )
    assert isinstance(g, Daifugo) and g.to_play == 1
    z = 1 + math.exp(-1) + math.exp(-2)
    for action, weaker in (("play 4S", 0), ("play 7H", 1), ("play KD", 2)):
        c = _PassCounter(0, shed=1.0)
        c(g, {"seat": 1, "action": action})
        assert math.isclose(c.logp, -weaker - math.log(z)), action
        plain = _PassCounter(0)  # shed 0: every play alike
        plain(g, {"seat": 1, "action": action})
        assert plain.logp == 0.0
    mine = _PassCounter(1, shed=1.0)  # the searcher's own plays are known, not weighed
    mine(g, {"seat": 1, "action": "play KD"})
    assert mine.logp == 0.0


def test_shed_places_more_of_the_others_cards_right() -> None:
    """On heuristic games (whose players shed their weak cards first) the shed-weighted pool puts
    more of the others' cards in the hands that really hold them than uniform deals do."""

    def right(sample: Game, truth: Daifugo, me: int) -> tuple[int, int]:
        assert isinstance(sample, Daifugo)
        others = [s for s in range(truth.n) if s != me]
        hit = sum((sample.hands[s] & truth.hands[s]).bit_count() for s in others)
        return hit, sum(truth.hands[s].bit_count() for s in others)

    tally = {"uniform": [0, 0], "shed": [0, 0]}
    for seed in range(8):
        g = midgame(seed, rules="uecda", plays=45)
        me = g.to_play
        assert me is not None
        view = g.view(me)
        samplers = {
            "uniform": pooled(sample_daifugo, 32),
            "shed": belief_sampler(size=32, shed=2.0),
        }
        for name, sampler in samplers.items():
            rng = random.Random(seed)
            for _ in range(32):
                hit, total = right(sampler(view, rng), g, me)
                tally[name][0] += hit
                tally[name][1] += total
    share = {name: hit / total for name, (hit, total) in tally.items()}
    assert share["shed"] > share["uniform"] + 0.01, share


def test_the_shed_option() -> None:

    g = midgame(3, rules="uecda", plays=20)
    bot = make_bot("ismcts", 1, "daifugo", iterations=40, belief=True, shed=2, worlds=8)
    assert bot.choose(g.view(g.to_play), g.legal_actions()) in g.legal_actions()
    with pytest.raises(BotError, match="give it with belief=on"):
        make_bot("ismcts", 1, "daifugo", shed=2)
    with pytest.raises(BotError, match="shed must be a number >= 0, not -1"):
        make_bot("ismcts", 1, "daifugo", belief=True, shed=-1)


def test_the_policy_counter_sums_the_others_moves_log_probabilities() -> None:
    """Replayed through a game's own history, :class:`_PolicyCounter` adds ``log P(move)`` of
    the policy for every play-phase decision with a choice by another seat, and nothing for
    the searcher's own or a forced one."""
    import math

    from torampu.learn.daifugo_policy import default_policy
    from torampu.search.daifugo_belief import FLOOR, _PolicyCounter

    prior = default_policy().prior
    g = midgame(5, rules="uecda", plays=40)
    me = 2
    start = _first_position(g)
    counter = _PolicyCounter(me, prior)
    expect = 0.0
    counted = 0
    for s, m in g.history:
        counter(start, {"seat": s, "action": start.action_str(m)})
        moves = start.legal_moves()
        if s != me and len(moves) > 1:
            expect += math.log(max(prior(start, moves)[moves.index(m)], FLOOR))
            counted += 1
        start.apply(m)
    assert counted > 10
    assert math.isclose(counter.logp, expect)


def test_the_policy_likelihood_places_more_of_the_others_cards_right() -> None:
    """On games of the search bot (whose moves the shipped policy was trained on) the deals
    weighted by the others' moves' likelihood under the policy (``likelihood``) put more of the
    others' cards in the hands that really hold them than uniform deals do."""
    from torampu.learn.daifugo_policy import default_policy

    prior = default_policy().prior
    tally = {"uniform": [0, 0], "policy": [0, 0]}
    for seed in range(6):
        g = torampu.new_game("daifugo", rules="uecda", seed=seed)
        assert isinstance(g, Daifugo)
        bots = [make_bot("policy", seed + s, "daifugo") for s in range(g.n)]
        while not g.is_over and len(g.log) < 40:
            s = g.to_play
            assert s is not None
            g.play(bots[s].choose(g.view(s), g.legal_actions()))
        if g.is_over:
            continue
        me = g.to_play
        assert me is not None
        view = g.view(me)
        samplers = {
            "uniform": pooled(sample_daifugo, 24),
            "policy": belief_sampler(size=24, policy=prior, power=1.0),
        }
        others = [s for s in range(g.n) if s != me]
        for name, sampler in samplers.items():
            rng = random.Random(seed)
            for _ in range(24):
                d = sampler(view, rng)
                assert isinstance(d, Daifugo)
                tally[name][0] += sum((d.hands[s] & g.hands[s]).bit_count() for s in others)
                tally[name][1] += sum(g.hands[s].bit_count() for s in others)
    share = {name: hit / total for name, (hit, total) in tally.items()}
    assert share["policy"] > share["uniform"] + 0.02, share


def test_the_likelihood_option() -> None:
    g = midgame(3, rules="uecda", plays=30)
    view, legal = g.view(g.to_play), g.legal_actions()
    bot = make_bot("ismcts", 1, "daifugo", iterations=80, likelihood=1.0, worlds=8)
    plain = make_bot("ismcts", 1, "daifugo", iterations=80, worlds=8)
    assert bot.choose(view, legal) in legal
    plain.choose(view, legal)
    a, b = bot.last_result, plain.last_result  # type: ignore[attr-defined]
    assert a is not None and b is not None and (a.visits, a.values) != (b.visits, b.values)
    with pytest.raises(BotError, match="likelihood must be a number >= 0"):
        make_bot("ismcts", 1, "daifugo", likelihood=-1)
    with pytest.raises(BotError, match="likelihood is Daifugo's only"):
        make_bot("ismcts", 1, "hell", likelihood=1)
    with pytest.raises(BotError, match="give one"):
        make_bot("ismcts", 1, "daifugo", likelihood=1, belief=True)
