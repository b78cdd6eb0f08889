"""The ``ismcts`` option ``opponents=greedy``: Daifugo's other players modelled by the rollout's
greedy policy instead of searched by the tree."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import torampu
import torampu.learn
from torampu.bots import BotError, make_bot, parse_bot_spec
from torampu.daifugo import PH_PLAY, Daifugo
from torampu.daifugo_plays import PASS
from torampu.learn.daifugo_policy import (
    DEFAULT_PATH,
    Policy,
    default_policy,
    policy_rollout,
    split_policy_rollout,
)
from torampu.search import ismcts, rollout_for, sampler_for
from torampu.search.daifugo_sampler import HOLD_JOKER, greedy_play, greedy_rollout, mate_play
from torampu.search.rollouts import daifugo_greedy_opponents, daifugo_policy_opponents


def _mid_game(seed: int) -> Daifugo:
    g = torampu.new_game("daifugo", "uecda", seed=seed)
    rng = random.Random(seed)
    for _ in range(12):
        moves = g.legal_moves()
        g.apply(moves[int(rng.random() * len(moves))])
    assert isinstance(g, Daifugo) and not g.is_over
    return g


def test_the_searcher_is_left_to_the_tree_and_the_others_play_the_greedy_move() -> None:
    root = _mid_game(3)
    g = root.clone()
    assert daifugo_greedy_opponents(g, root, random.Random(0).random) is None
    g.apply(g.legal_moves()[0])
    assert g.turn != root.turn
    step = daifugo_greedy_opponents(g, root, random.Random(5).random)
    assert step is not None
    move, seen = step
    assert seen  # the searcher sees another player's play: its later decisions depend on it
    assert move == greedy_play(g, random.Random(5).random)
    assert move in g.legal_moves()


def test_greedy_play_is_the_rollouts_move() -> None:
    """:func:`greedy_rollout` plays :func:`greedy_play` at each play-phase step (same draws)."""
    g = _mid_game(8)
    a, b = g.clone(), g.clone()
    greedy_rollout(a, random.Random(2))
    rng = random.Random(2)
    while not b.is_over:
        if b.phase == "play":
            b.apply(greedy_play(b, rng.random))
        else:
            moves = b.legal_moves()
            b.apply(moves[0] if len(moves) == 1 else moves[int(rng.random() * len(moves))])
    assert a.history == b.history


def test_the_tree_branches_on_the_searchers_moves_only() -> None:
    g = _mid_game(11)
    seat = g.turn
    res = ismcts(
        g.view(seat),
        sampler_for("daifugo"),
        random.Random(1),
        iterations=200,
        rollout=rollout_for("daifugo"),
        scripted=daifugo_greedy_opponents,
    )
    assert res.iterations == 200
    assert res.action in g.legal_actions()


def test_the_bot_option() -> None:
    g = _mid_game(4)
    bot = make_bot("ismcts", seed=1, game="daifugo", iterations=100, opponents="greedy")
    assert bot.choose(g.view(g.to_play), g.legal_actions()) in g.legal_actions()
    with pytest.raises(BotError, match="opponents must be tree, greedy or policy, not 'smart'"):
        make_bot("ismcts", seed=1, game="daifugo", opponents="smart")
    with pytest.raises(BotError, match="opponents=greedy is Daifugo's only"):
        make_bot("ismcts", seed=1, game="hell", opponents="greedy")


def test_the_others_play_the_policys_draw_on_their_own_hands() -> None:
    """``opponents=policy``: another seat's move in the tree is the learned policy's draw for
    that seat's hand in the determinization (the same draw as the policy's own ``sample``)."""
    pol = default_policy()
    scripted = daifugo_policy_opponents(lambda g, legal, rand: pol.sample(g, legal, rand, 1.0))
    root = _mid_game(3)
    assert scripted(root.clone(), root, random.Random(0).random) is None  # the tree's own
    varied = 0
    for seed in range(3, 13):
        root = _mid_game(seed)
        seen_moves = set()
        g = root.clone()
        g.apply(g.legal_moves()[0])
        while not g.is_over and g.turn != root.turn and len(g.legal_moves()) == 1:
            g.apply(g.legal_moves()[0])  # on to another seat with a choice
        if g.is_over or g.phase_id != PH_PLAY or g.turn == root.turn:
            continue
        for k in range(20):
            step = scripted(g, root, random.Random(k).random)
            assert step is not None
            move, seen = step
            assert seen and move in g.legal_moves()
            legal = g.legal_moves()
            expect = legal[0] if len(legal) == 1 else pol.sample(g, legal, random.Random(k).random)
            assert move == expect
            seen_moves.add(move)
        varied += len(seen_moves) > 1
    assert varied >= 2  # drawn, not always the one best move


def test_the_policy_opponents_option() -> None:
    g = _mid_game(4)
    view, legal = g.view(g.to_play), g.legal_actions()
    bot = make_bot("ismcts", seed=1, game="daifugo", iterations=150, opponents="policy")
    assert bot.choose(view, legal) in legal
    tree = make_bot("ismcts", seed=1, game="daifugo", iterations=150)
    tree.choose(view, legal)
    a, b = bot.last_result, tree.last_result  # type: ignore[attr-defined]
    assert a is not None and b is not None
    assert (a.visits, a.values) != (b.visits, b.values)  # the others are modelled, not searched
    # the policy's file may be given for it alone (with the greedy rollout)
    path = str(torampu.__path__[0]) + "/learn/data/daifugo_policy.json"
    make_bot("ismcts", seed=1, game="daifugo", rollout="greedy", opponents="policy", params=path)
    with pytest.raises(BotError, match="opponents=policy is Daifugo's only"):
        make_bot("ismcts", seed=1, game="hell", opponents="policy")
    with pytest.raises(BotError, match="params: "):
        make_bot("ismcts", seed=1, game="daifugo", opponents="policy", params="/nonexistent")


def _three(hands: list[list[str]]) -> Daifugo:
    g = torampu.new_game("daifugo", "standard", players=3, seed=0, deal={"hands": hands})
    assert isinstance(g, Daifugo) and g.to_play == 1  # no 3D dealt: the dealer's left leads
    return g


def test_mate_play_leads_the_card_nobody_can_answer_then_goes_out() -> None:
    g = _three([["4C", "9D"], ["2S", "5H", "5D"], ["KS", "6C"]])
    moves = g._plays_now(1)
    assert g.action_str(mate_play(g, moves)) == "play 2S"  # then the pair of 5s ends it
    assert g.action_str(greedy_play(g, random.Random(0).random)) == "play 5D 5H"  # greedy: 5s
    # the joker answers the 2, but nobody can answer the pair: then the 2 ends it
    g = _three([["4C", "9D"], ["2S", "5H", "5D"], ["JK"]])
    assert g.action_str(mate_play(g, g._plays_now(1))) == "play 5D 5H"
    # a joker and a king make a pair that beats the 5s, and the joker beats the 2: no mate
    g = _three([["4C", "9D"], ["2S", "5H", "5D"], ["KS", "JK"]])
    assert mate_play(g, g._plays_now(1)) == -1
    # the whole hand in one play
    g = _three([["4C", "9D"], ["5H", "5D"], ["KS", "JK"]])
    assert g.action_str(mate_play(g, g._plays_now(1))) == "play 5D 5H"


def test_the_mate_rollout_option() -> None:
    g = _mid_game(6)
    bot = make_bot("ismcts", seed=1, game="daifugo", iterations=100, rollout="mate")
    assert bot.choose(g.view(g.to_play), g.legal_actions()) in g.legal_actions()
    with pytest.raises(BotError, match="rollout must be auto, greedy, mate, policy or random"):
        make_bot("ismcts", seed=1, game="daifugo", rollout="smart")
    a, b = g.clone(), g.clone()
    greedy_rollout(a, random.Random(3), mate=True)
    greedy_rollout(b, random.Random(3))
    assert a.is_over and b.is_over


def _following_an_ace(mine: list[str]) -> Daifugo:
    """Seat 1 has led the ace of spades; seat 0, holding ``mine``, follows."""
    g = torampu.new_game(
        "daifugo",
        "standard",
        players=2,
        seed=0,
        deal={"hands": [mine, ["AS", "9D", "8S", "3C", "4D"]]},
    )
    assert isinstance(g, Daifugo) and g.to_play == 1  # no 3D dealt: the dealer's left leads
    g.play("play AS")
    assert g.to_play == 0 and g.table_info is not None
    return g


def test_the_greedy_rollout_can_hold_its_high_cards_back() -> None:
    pass_ = PASS
    g = _following_an_ace(["2H", "4C", "5C", "6C", "7C"])
    two = g.parse_action("play 2H")
    low, high = (lambda: 0.0), (lambda: 0.99)
    assert greedy_play(g, low, explore=0.0) == two  # hold 0: always the weakest play
    assert greedy_play(g, low, explore=0.0, hold=1.0) == pass_
    assert greedy_play(g, high, explore=0.0, hold=0.9) == two
    # a 2 is held back with probability hold; a lone joker with HOLD_JOKER
    assert greedy_play(g, lambda: 0.45, explore=0.0, hold=0.5) == pass_
    assert greedy_play(g, lambda: 0.55, explore=0.0, hold=0.5) == two
    j = _following_an_ace(["JK", "4C", "5C", "6C", "7C"])
    joker = j.parse_action("play JK")
    assert greedy_play(j, lambda: HOLD_JOKER - 0.01, explore=0.0, hold=0.1) == pass_
    assert greedy_play(j, lambda: HOLD_JOKER + 0.01, explore=0.0, hold=0.1) == joker
    # a player with few cards left plays on
    few = _following_an_ace(["2H", "4C", "5C"])
    assert greedy_play(few, low, explore=0.0, hold=1.0) == few.parse_action("play 2H")


def test_the_rollout_hold_option() -> None:
    g = _mid_game(4)
    bot = make_bot("ismcts", seed=1, game="daifugo", iterations=60, rollout_hold=0.5)
    assert bot.choose(g.view(g.to_play), g.legal_actions()) in g.legal_actions()
    with pytest.raises(BotError, match="rollout_hold must be a number >= 0"):
        make_bot("ismcts", seed=1, game="daifugo", rollout_hold=-0.5)
    with pytest.raises(BotError, match="rollout_hold is for Daifugo's greedy and mate rollouts"):
        make_bot("ismcts", seed=1, game="daifugo", rollout="random", rollout_hold=0.5)


def test_the_rollout_explore_option() -> None:
    """``rollout_explore`` sets how often the greedy rollout makes any legal move: at 0 the
    rollout is the greedy policy alone, the same game whatever the random draws."""
    g = _mid_game(4)
    ends = {}
    for explore in (None, 0.0):
        opts = {} if explore is None else {"rollout_explore": explore}
        bot = make_bot("ismcts", seed=1, game="daifugo", iterations=60, **opts)
        assert bot.choose(g.view(g.to_play), g.legal_actions()) in g.legal_actions()
        outcomes = set()
        for k in range(20):
            c = g.clone()
            bot.rollout(c, random.Random(k))  # type: ignore[attr-defined]
            outcomes.add(tuple(c.scores()))
        ends[explore] = outcomes
    assert len(ends[0.0]) == 1 and len(ends[None]) > 1
    for bad in (-0.1, 1.5):
        with pytest.raises(BotError, match="rollout_explore must be in"):
            make_bot("ismcts", seed=1, game="daifugo", rollout_explore=bad)
    with pytest.raises(BotError, match="rollout_explore is for Daifugo's greedy and mate"):
        make_bot("ismcts", seed=1, game="daifugo", rollout="policy", rollout_explore=0.1)
    with pytest.raises(BotError, match="rollout_explore is for Daifugo's greedy and mate"):
        make_bot("ismcts", seed=1, game="hell", rollout_explore=0.1)


def test_the_rollout_gives_and_discards_its_weakest_cards() -> None:
    """7渡し and 10捨て in the greedy rollout: as many of the hand's weakest cards (in the order
    of the moment) as it may, jokers last (:func:`shed_cards`); always a legal move."""
    from torampu.daifugo import PH_DISCARD, PH_GIVE
    from torampu.daifugo_plays import DISCARD, DRANK, GIVE, JSHIFT, REAL
    from torampu.search.daifugo_sampler import shed_cards

    seen = {PH_GIVE: 0, PH_DISCARD: 0}
    for seed in range(40):
        g = torampu.new_game("daifugo", "yaita", seed=seed)
        assert isinstance(g, Daifugo)
        rng = random.Random(seed)
        while not g.is_over:
            ph = g.phase_id
            if ph in seen:
                s = g.turn
                verb = GIVE if ph == PH_GIVE else DISCARD
                rev = g.revolution != g.eleven
                m = verb | shed_cards(g.hands[s], g.jok[s], g.pending, rev)
                assert m in g.legal_moves()
                size = (m & REAL).bit_count() + (m >> JSHIFT & 3)
                assert size == min(g.pending, g.hands[s].bit_count() + g.jok[s])
                kept = [DRANK[c] for c in range(52) if (g.hands[s] & ~m) >> c & 1]
                given = [DRANK[c] for c in range(52) if m >> c & 1]
                if kept and given:  # nothing kept is weaker than what went
                    if rev:
                        assert min(given) >= max(kept)
                    else:
                        assert max(given) <= min(kept)
                seen[ph] += 1
            if g.phase_id == PH_PLAY:
                g.apply(greedy_play(g, rng.random))
            else:
                moves = g.legal_moves()
                g.apply(moves[int(rng.random() * len(moves))])
    assert seen[PH_GIVE] >= 10 and seen[PH_DISCARD] >= 10, seen
    # in the rollout itself (no exploring): the gives and discards of the record are the same
    for seed in range(10):
        g = torampu.new_game("daifugo", "yaita", seed=seed)
        a = g.clone()
        greedy_rollout(a, random.Random(seed), explore=0.0)
        assert torampu.replay(a.to_record()).result() == a.result()


def test_the_policy_rollout_takes_a_mate_with_rollout_mate() -> None:
    """Holding 2S and 5H on the lead, with 6C one card away from going out next: leading the 5
    lets 6C out first; the 2 (nobody answers it), then the 5, goes out first. The policy's
    rollout leads the 5 now and then; with ``mate`` it never does."""
    hands = [["4C", "9D"], ["2S", "5H"], ["6C"]]
    firsts = {False: set(), True: set()}
    for mate in (False, True):
        for k in range(40):
            g = _three([list(h) for h in hands])
            policy_rollout(g, random.Random(k), mate=mate)
            firsts[mate].add(g.result()["ranking"][0])
    assert firsts[True] == {1}
    assert firsts[False] == {1, 2}
    # as a search option: the policy's rollouts only, and not with adapt's
    g = _mid_game(6)
    bot = make_bot("ismcts", seed=1, game="daifugo", iterations=60, rollout_mate=True)
    assert bot.choose(g.view(g.to_play), g.legal_actions()) in g.legal_actions()
    kind, opts = parse_bot_spec("ismcts:rollout=policy:rollout_mate=on:iterations=60")
    assert make_bot(kind, 1, "daifugo", **opts).choose(g.view(g.to_play), g.legal_actions())
    with pytest.raises(BotError, match="rollout_mate is for Daifugo's policy rollouts"):
        make_bot("ismcts", seed=1, game="daifugo", rollout="greedy", rollout_mate=True)
    with pytest.raises(BotError, match="rollout_mate is for Daifugo's policy rollouts"):
        make_bot("ismcts", seed=1, game="hell", rollout_mate=True)
    with pytest.raises(BotError, match="rollout_mate is not for adapt's rollouts"):
        make_bot("ismcts", seed=1, game="daifugo", rollout_mate=True, adapt=True)
    with pytest.raises(BotError, match="rollout_mate must be on or off"):
        make_bot("ismcts", seed=1, game="daifugo", rollout_mate="maybe")


def test_the_others_draw_at_their_own_temperature_with_others_temperature() -> None:
    """At ``others_temperature`` 0 every other seat of a policy rollout plays the policy's best
    move, while the searcher's own moves are still drawn at its temperature."""
    pol = default_policy()
    g = _mid_game(4)
    seat = g.turn
    own_not_best = 0
    for k in range(12):
        a = g.clone()
        split_policy_rollout(a, random.Random(k), pol, pol, seat, 1.0, others_temperature=0.0)
        assert a.is_over
        b = g.clone()
        others = 0
        for _, m in a.history[len(g.history) :]:
            moves = b.legal_moves()
            if len(moves) > 1 and b.phase_id == PH_PLAY:
                if b.turn != seat:
                    assert m == pol.best(b, moves)
                    others += 1
                elif m != pol.best(b, moves):
                    own_not_best += 1
            b.apply(m)
        assert others > 0
    assert own_not_best > 0  # the searcher's own moves are still drawn
    # the same draws as a rollout at one temperature when both are equal
    a, c = g.clone(), g.clone()
    split_policy_rollout(a, random.Random(3), pol, pol, seat, 1.0, others_temperature=1.0)
    policy_rollout(c, random.Random(3), pol, 1.0)
    assert a.history == c.history
    # as a search option: under the policy's own rules the search's rollout is the split one
    bot = make_bot("ismcts", seed=1, game="daifugo", iterations=60, others_temperature=0.5)
    view = g.view(seat)
    ro = bot._rollout(view)  # type: ignore[attr-defined]
    assert ro.func is split_policy_rollout and ro.keywords["others_temperature"] == 0.5
    assert ro.keywords["seat"] == seat and ro.keywords["temperature"] == 1.0
    assert bot.choose(view, g.legal_actions()) in g.legal_actions()
    std = torampu.new_game("daifugo", "standard", seed=2)  # rules the policy was not trained on
    assert bot._rollout(std.view(std.to_play)) is greedy_rollout  # type: ignore[attr-defined]
    kind, opts = parse_bot_spec("ismcts:rollout=policy:others_temperature=0:iterations=60")
    every = make_bot(kind, 1, "daifugo", **opts)
    assert every._rollout(std.view(std.to_play)).keywords["others_temperature"] == 0.0  # type: ignore[attr-defined]
    with pytest.raises(BotError, match="others_temperature must be a number >= 0"):
        make_bot("ismcts", seed=1, game="daifugo", others_temperature=-1)
    with pytest.raises(BotError, match="others_temperature is for Daifugo's policy rollouts"):
        make_bot("ismcts", seed=1, game="daifugo", rollout="greedy", others_temperature=0.5)
    with pytest.raises(BotError, match="others_temperature is for Daifugo's policy rollouts"):
        make_bot("ismcts", seed=1, game="hell", others_temperature=0.5)
    with pytest.raises(BotError, match="not for rollout_mate's or adapt's rollouts"):
        make_bot("ismcts", seed=1, game="daifugo", others_temperature=0.5, rollout_mate=True)
    with pytest.raises(BotError, match="not for rollout_mate's or adapt's rollouts"):
        make_bot("ismcts", seed=1, game="daifugo", others_temperature=0.5, adapt=True)


def test_the_others_draw_from_their_own_policy_with_others_params(tmp_path: Path) -> None:
    """``others_params``: the other seats of a policy rollout play another policy's moves (here
    one that always passes when it may), the searcher's own still the shipped policy's."""
    pol = default_policy()
    shipped = Path(torampu.learn.__file__).parent / DEFAULT_PATH
    data = json.loads(shipped.read_text(encoding="utf-8"))
    data["weights"] = [0.0] * len(data["weights"])
    data["weights"][data["features"].index("pass")] = 50.0  # a pass whenever one is legal
    passer_file = tmp_path / "passer.json"
    passer_file.write_text(json.dumps(data), encoding="utf-8")
    passer = Policy.load(passer_file)
    g = _mid_game(4)
    seat = g.turn
    a = g.clone()
    split_policy_rollout(a, random.Random(5), pol, passer, seat, 1.0)
    b = g.clone()
    others = own = 0
    for _, m in a.history[len(g.history) :]:
        moves = b.legal_moves()
        if len(moves) > 1 and b.phase_id == PH_PLAY and b.turn != seat:
            if any(b.action_str(x) == "pass" for x in moves):
                assert b.action_str(m) == "pass"
                others += 1
        elif len(moves) > 1 and b.turn == seat:
            own += 1
        b.apply(m)
    assert others > 0 and own > 0
    # as a search option: the split rollout with the file's policy for the others
    bot = make_bot("ismcts", seed=1, game="daifugo", iterations=60, others_params=str(passer_file))
    view = g.view(seat)
    ro = bot._rollout(view)  # type: ignore[attr-defined]
    assert ro.func is split_policy_rollout
    assert ro.keywords["own"] is default_policy() and ro.keywords["others"] is not pol
    assert ro.keywords["others"].best(g, g.legal_moves()) == passer.best(g, g.legal_moves())
    assert ro.keywords["others_temperature"] == 1.0 == ro.keywords["temperature"]
    assert bot.choose(view, g.legal_actions()) in g.legal_actions()
    both = make_bot(
        "ismcts",
        seed=1,
        game="daifugo",
        others_params=str(passer_file),
        others_temperature=0.5,
        temperature=0.8,
    )
    kw = both._rollout(view).keywords  # type: ignore[attr-defined]
    assert (kw["temperature"], kw["others_temperature"]) == (0.8, 0.5)
    with pytest.raises(BotError, match="ismcts option others_params: "):
        make_bot("ismcts", seed=1, game="daifugo", others_params=str(tmp_path / "none.json"))
    with pytest.raises(BotError, match="others_params is for Daifugo's policy rollouts"):
        make_bot("ismcts", seed=1, game="daifugo", rollout="greedy", others_params=str(passer_file))
    with pytest.raises(BotError, match="others_params is not for rollout_mate's or adapt's"):
        make_bot("ismcts", seed=1, game="daifugo", adapt=True, others_params=str(passer_file))
