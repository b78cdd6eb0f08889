"""The model of the other players learned from a match's revealed games (``ismcts:adapt=on``)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import torampu
from torampu.bots import make_bot
from torampu.bots.base import BotError, parse_bot_spec
from torampu.bots.search import ADAPT_GATE
from torampu.daifugo import PH_PLAY, Daifugo
from torampu.daifugo_plays import PASS
from torampu.learn.daifugo_adapt import OpponentModel
from torampu.learn.daifugo_features import FEATURES, N_KEYS
from torampu.learn.daifugo_policy import Policy, default_policy


def heuristic_game(seed: int, rules: str = "uecda") -> dict[str, Any]:
    g = torampu.new_game("daifugo", rules, seed=seed)
    bots = [make_bot("heuristic", s, "daifugo") for s in range(g.n)]
    while not g.is_over:
        g.play(bots[g.to_play].choose(g.view(g.to_play), g.legal_actions()))
    return g.to_record()


def test_observe_keeps_the_decisions_with_a_choice_of_the_other_seats() -> None:
    rec = heuristic_game(1)
    every = OpponentModel(default_policy())
    total = every.observe(rec)
    others = OpponentModel(default_policy())
    added = others.observe(rec, skip=(2,))
    g = torampu.replay({**rec, "actions": []})
    assert isinstance(g, Daifugo)
    own = 0
    for step in rec["actions"]:
        if g.phase_id == PH_PLAY and g.turn == 2 and len(g.legal_moves()) > 1:
            own += 1
        g.play(step["action"])
    assert own > 0 and added == total - own == len(others.decisions)
    assert others.games == 1 and others.policy.weights == default_policy().weights


def held_out_nll(weights: list[float], records: list[dict[str, Any]]) -> float:
    m = OpponentModel(Policy(weights))
    for rec in records:
        m.observe(rec)
    return m.nll()


def test_the_fit_predicts_new_games_of_the_same_players_better_than_its_base() -> None:
    """Fitted to eight games of heuristic players, the model gives four other games of theirs
    a clearly higher likelihood than the shipped policy it started from."""
    model = OpponentModel(default_policy())
    for seed in range(8):
        model.observe(heuristic_game(seed))
    model.fit(steps=120)
    test = [heuristic_game(100 + k) for k in range(4)]
    base = held_out_nll(default_policy().weights, test)
    fitted = held_out_nll(model.weights, test)
    assert fitted < base - 0.1, (fitted, base)


def test_a_base_with_a_table_keeps_it_and_the_fit_reads_it() -> None:
    """A base policy with a table of key weights: the model's policy keeps that table, and its
    likelihood is the tabled policy's own (the table is a fixed part of each move's score)."""
    table = [((k * 13) % 7 - 3) / 4 for k in range(N_KEYS)]
    base = Policy(default_policy().weights, table=table)
    rec = heuristic_game(3)
    tabled, plain = OpponentModel(base), OpponentModel(default_policy())
    tabled.observe(rec)
    plain.observe(rec)
    assert tabled.policy.table == table and plain.policy.table is None
    assert tabled.nll() != pytest.approx(plain.nll())
    # the model's NLL is the mean -log P(chosen) under the tabled policy itself
    g = torampu.replay({**rec, "actions": []})
    assert isinstance(g, Daifugo)
    total, n = 0.0, 0
    for step in rec["actions"]:
        if g.phase_id == PH_PLAY and len(g.legal_moves()) > 1:
            moves = g.legal_moves()
            p = base.probs(g, moves)
            total -= math.log(p[[g.action_str(m) for m in moves].index(step["action"])])
            n += 1
        g.play(step["action"])
    assert tabled.nll() == pytest.approx(total / n)
    before = tabled.nll()
    tabled.fit(steps=30)
    assert tabled.nll() < before and tabled.policy.table == table


def moved(model: OpponentModel) -> float:
    return max(abs(a - b) for a, b in zip(model.weights, model.base.weights, strict=True))


def test_pull_holds_the_fit_to_its_base_and_window_bounds_the_memory() -> None:
    held = OpponentModel(default_policy(), pull=1e6, window=50)
    free = OpponentModel(default_policy(), pull=0.0, window=50)
    for seed in range(3):
        for m in (held, free):
            m.observe(heuristic_game(seed))
            m.fit(steps=30)
    assert len(held.decisions) == 50 and held.games == 3
    # Adam's steps are about RATE (0.05) whatever the gradient: held within one, free far off
    assert moved(held) <= 0.06 and moved(free) > 0.5, (moved(held), moved(free))


@pytest.mark.parametrize(
    ("pull", "window", "steps"), [(-1.0, 10, 1), (float("nan"), 10, 1), (0.1, 0, 1), (0.1, 5, -1)]
)
def test_bad_settings_are_refused(pull: float, window: int, steps: int) -> None:
    with pytest.raises(ValueError, match="pull must be"):
        OpponentModel(default_policy(), pull=pull, window=window, steps=steps)


def test_a_record_of_another_game_is_refused() -> None:
    g = torampu.new_game("hell", cards=3, seed=2)
    with pytest.raises(ValueError, match="not a Daifugo record"):
        OpponentModel(default_policy()).observe(g.to_record())


def passing_policy() -> Policy:
    w = [0.0] * len(FEATURES)
    w[FEATURES.index("pass")] = 50.0  # passes whenever it may
    return Policy(w)


@pytest.mark.parametrize("adapt", [True, "all"])
def test_once_it_has_learned_the_rollouts_draw_the_others_moves_from_the_model(
    adapt: bool | str,
) -> None:
    bot: Any = make_bot("ismcts", 3, "daifugo", adapt=adapt, iterations=20)
    g = torampu.new_game("daifugo", "uecda", seed=5)
    seat = g.to_play
    assert seat is not None
    view = g.view(seat)
    assert bot._rollout(view) is bot.ruled_rollout[1]  # no game learned: the shipped rollout
    bot.choose(view, g.legal_actions())  # the bot learns which seat it is
    bot.learn(heuristic_game(9))
    assert bot.model.games == 1 and bot.model.weights != default_policy().weights
    bot.model.weights = passing_policy().weights  # an extreme model, to see where it is used
    bot.model._policy = None
    rollout = bot._rollout(view)
    sim = g.clone()
    rollout(sim, random.Random(1))
    assert sim.is_over
    passes = {True: 0, False: 0}
    choices = {True: 0, False: 0}
    replay = torampu.replay({**sim.to_record(), "actions": []})
    assert isinstance(replay, Daifugo)
    for step in sim.to_record()["actions"]:
        if replay.phase_id == PH_PLAY and len(replay.legal_moves()) > 1:
            other = replay.turn != seat
            choices[other] += 1
            passes[other] += step["action"] == "pass"
        replay.play(step["action"])
    assert choices[True] > 0 and passes[True] == choices[True]  # the others: the model's passes
    assert choices[False] > 0
    if adapt == "all":  # the seat's own moves: the model's too
        assert passes[False] == choices[False]
    else:  # the seat's own policy
        assert passes[False] < choices[False]


def test_without_adapt_learning_changes_nothing() -> None:
    bot: Any = make_bot("ismcts", 3, "daifugo", iterations=20)
    assert bot.learn(heuristic_game(9)) is False
    assert bot.model is None


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        ("hell", {"adapt": True}, "adapt is Daifugo's only"),
        ("daifugo", {"adapt": True, "rollout": "greedy"}, "give it with rollout=auto"),
        ("daifugo", {"adapt": "maybe"}, "adapt must be on, off, auto or all"),
        ("daifugo", {"adapt": 1}, "adapt must be on, off, auto or all"),
    ],
)
def test_adapt_option_errors(game: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_bot("ismcts", 1, game, **options)


def test_adapt_with_opponents_policy_draws_the_tree_s_other_players_from_the_model() -> None:
    bot: Any = make_bot("ismcts", 3, "daifugo", adapt=True, opponents="policy", iterations=20)
    g = torampu.new_game("daifugo", "uecda", seed=5)
    seat = g.to_play
    assert seat is not None
    bot.choose(g.view(seat), g.legal_actions())
    bot.learn(heuristic_game(9))
    bot.model.weights = passing_policy().weights
    bot.model._policy = None
    sim = g.clone()
    assert isinstance(sim, Daifugo)
    sim.play(g.legal_actions()[1])  # the seat plays; the next seat may follow or pass
    while sim.turn == seat or len(sim.legal_moves()) < 2:
        sim.play(sim.legal_actions()[-1])
    move, seen = bot.scripted(sim, g, random.Random(2).random)
    assert move == PASS and seen  # the model passes


def test_likelihood_with_adapt_weighs_the_deals_by_the_model_once_it_has_learned() -> None:
    from torampu.bots.search import _likelihood_policy

    model = OpponentModel(default_policy())
    prior = _likelihood_policy(None, model)
    g = torampu.new_game("daifugo", "uecda", seed=5)
    assert isinstance(g, Daifugo)
    moves = g.legal_moves()
    assert prior(g, moves) == default_policy().prior(g, moves)  # nothing learned yet
    model.observe(heuristic_game(9))
    model.weights = passing_policy().weights
    model._policy = None
    assert prior(g, moves) == passing_policy().prior(g, moves)
    make_bot("ismcts", 1, "daifugo", adapt=True, likelihood=0.5, rollout="greedy")  # accepted


def test_foresight_scores_each_game_by_the_fit_from_before_it() -> None:
    """Each observed game's decisions are scored by the model as it stood before that game
    (and by the base): the first game, seen by an unfitted model, scores the same under both;
    after fitting on heuristic games the model foresees new heuristic games better than its
    base, and :meth:`gain` says by how much."""
    model = OpponentModel(default_policy())
    first = model.observe(heuristic_game(0))
    assert model.gain() == pytest.approx(0.0)  # nothing fitted yet: the model is the base
    n, m_nll, b_nll = model.foresight[0]
    assert n == first and m_nll == pytest.approx(b_nll) and m_nll > 0
    assert held_out_nll(default_policy().weights, [heuristic_game(0)]) == pytest.approx(b_nll / n)
    model.fit(steps=60)
    for seed in range(1, 8):
        model.observe(heuristic_game(seed))
        model.fit(steps=60)
    assert len(model.foresight) == 8
    late = model.foresight[-1]
    assert late[1] < late[2]  # foreseen better than by the base
    gain = model.gain(games=3)
    assert gain is not None and gain > 0.05, gain
    recent = model.foresight[-3:]
    n3 = sum(f[0] for f in recent)
    assert gain == pytest.approx((sum(f[2] for f in recent) - sum(f[1] for f in recent)) / n3)
    assert OpponentModel(default_policy()).gain() is None


def test_a_gate_keeps_the_model_out_of_use_until_it_foresees_clearly_better() -> None:
    low = OpponentModel(default_policy(), gate=-1.0)
    high = OpponentModel(default_policy(), gate=5.0)
    free = OpponentModel(default_policy())
    assert not (low.active or high.active or free.active)  # nothing observed
    for m in (low, high, free):
        m.observe(heuristic_game(2))
        m.fit(steps=30)
    assert low.active and free.active and not high.active
    with pytest.raises(ValueError, match="gate must be a number"):
        OpponentModel(default_policy(), gate=float("nan"))


def test_adapt_auto_draws_from_the_model_only_past_the_gate() -> None:
    kind, options = parse_bot_spec("ismcts:adapt=auto:iterations=20")
    bot: Any = make_bot(kind, 3, "daifugo", **options)
    g = torampu.new_game("daifugo", "uecda", seed=5)
    seat = g.to_play
    assert seat is not None
    view = g.view(seat)
    bot.choose(view, g.legal_actions())
    assert bot.learn(heuristic_game(9)) and bot.model.games == 1
    assert bot.last_foresight == bot.model.foresight[-1]
    assert bot.model.gate == ADAPT_GATE
    assert not bot.model.active  # the first game was foreseen by the base itself: no gain
    assert bot._rollout(view) is bot.ruled_rollout[1]
    bot.model.gate = -1.0  # a table the model foresees well enough
    assert bot.model.active and bot._rollout(view) is not bot.ruled_rollout[1]
