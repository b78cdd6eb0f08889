"""The exact two-player Daifugo endgame solver (torampu.search.daifugo_endgame) and its hook in
the ismcts bot."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torampu
from torampu.bots import make_bot
from torampu.daifugo import Daifugo
from torampu.game import Game, Move
from torampu.search.daifugo_endgame import (
    LOSS,
    UNKNOWN,
    WIN,
    EndgameResult,
    solve,
    solve_view,
    two_left,
    winning_moves,
)
from torampu.search.daifugo_sampler import sample_daifugo


def endgame(mine: str, theirs: str, rules: str | dict[str, Any] = "standard") -> Daifugo:
    """A two-player game on a fixed deal, seat 0 (``mine``) to lead."""
    g = torampu.new_game(
        "daifugo",
        rules=rules,
        players=2,
        seed=0,
        deal={"hands": [mine.split(), theirs.split()]},
        dealer=1,
    )
    assert isinstance(g, Daifugo) and g.to_play == 0
    return g


def status_and_action(g: Daifugo, me: int = 0) -> tuple[str, str | None]:
    r = solve(g, me)
    return r.status, None if r.move is None else g.action_str(r.move)


def test_the_pair_before_the_single() -> None:
    # singles lose to K and A; the unanswerable pair keeps the lead for the last single
    g = endgame("4S 4H 5S", "KS AS")
    assert status_and_action(g) == (WIN, "play 4H 4S")
    moves, _, complete = winning_moves(g, 0, first=False)
    assert complete and [g.action_str(m) for m in moves] == ["play 4H 4S"]


def test_an_eight_cut_regains_the_lead() -> None:
    g = endgame("8S 4S", "KS AS")
    assert status_and_action(g) == (WIN, "play 8S")
    off = endgame("8S 4S", "KS AS", {"preset": "standard", "eight_cut": False})
    assert status_and_action(off) == (LOSS, None)


def test_a_revolution_turns_the_opponents_cards_into_the_weakest() -> None:
    mine, theirs = "4S 4H 4D 4C 5H 6S", "KS AS 2S"
    assert status_and_action(endgame(mine, theirs)) == (WIN, "play 4C 4D 4H 4S")
    no_rev = endgame(mine, theirs, {"preset": "standard", "revolution": False})
    assert status_and_action(no_rev) == (LOSS, None)


def test_the_opponent_to_play_is_not_solved_for_me() -> None:
    g = endgame("8S 4S", "KS AS")
    assert solve(g, 1).status == UNKNOWN  # not seat 1's turn
    assert status_and_action(g, 0)[0] == WIN


def test_a_lost_position_and_an_exhausted_budget() -> None:
    g = endgame("3S 5H 7D", "2S 2H")
    assert solve(g, 0).status == LOSS
    big = endgame("3S 4S 5H 6D 7C 9S TH JD", "3H 4H 5D 6C 7S 9H TD JC")
    r = solve(big, 0, max_nodes=3)
    assert r.status == UNKNOWN and r.move is None and r.nodes > 3


def own_moves(g: Daifugo, moves: list[Move]) -> list[Move]:
    """The bot's policy: no pass as the leader while it can play (``lead_pass``)."""
    if g.view(g.to_play)["table"] is None and len(moves) > 1:
        return [m for m in moves if g.action_str(m) != "pass"]
    return moves


def brute_wins(g: Game, me: int, other: int) -> bool:
    """Plain minimax through the public contract (no table, no ordering, no budget)."""
    if g.is_over:
        rank = g.result()["ranking"]
        return bool(rank.index(me) < rank.index(other))
    mine = g.to_play == me
    moves = g.legal_moves()
    if mine and isinstance(g, Daifugo):
        moves = own_moves(g, moves)
    for m in moves:
        c = g.clone()
        c.apply(m)
        if brute_wins(c, me, other) == mine:
            return mine
    return not mine


RANKS = "3456789TJQKA2"
CARDS = [r + s for r in RANKS for s in "SHDC"] + ["JK"]
RULES = [
    "standard",
    "yaita",
    {"preset": "uecda", "players": 2},
    {"preset": "uecda", "lead_pass": False, "flush_when": "one_left", "players": 2},
    {"preset": "standard", "lock": True, "eleven_back": True, "ten_discard": True},
]


@settings(max_examples=60, deadline=None)
@given(
    cards=st.lists(st.sampled_from(CARDS), min_size=2, max_size=7, unique=True),
    cut=st.integers(1, 6),
    rules=st.sampled_from(RULES),
)
def test_solver_claims_hold_against_every_reply(
    cards: list[str], cut: int, rules: str | dict[str, Any]
) -> None:
    cut = min(cut, len(cards) - 1)
    mine, theirs = cards[:cut], cards[cut:]
    g = torampu.new_game(
        "daifugo",
        rules=rules,
        players=2,
        seed=0,
        deal={"hands": [mine, theirs]},
        dealer=1,
    )
    assert isinstance(g, Daifugo)
    if g.is_over or g.phase != "play":
        return
    me = g.to_play
    assert me is not None
    moves, _, complete = winning_moves(g, me, first=False)
    assert complete  # tiny positions fit the default budget
    truth: list[Move] = []
    for m in own_moves(g, g.legal_moves()):
        c = g.clone()
        c.apply(m)
        if brute_wins(c, me, 1 - me):
            truth.append(m)
    assert sorted(moves) == sorted(truth)
    r = solve(g, me)
    assert (r.status == WIN) == bool(truth)
    assert r.move is None or r.move in truth


def play_until_two_left(seed: int, rules: str) -> Daifugo:
    g = torampu.new_game("daifugo", rules=rules, players=4, seed=seed)
    rng = random.Random(seed)
    assert isinstance(g, Daifugo)
    while not g.is_over and not (g.phase == "play" and g.active.bit_count() == 2):
        moves = g.legal_moves()
        g.apply(moves[int(rng.random() * len(moves))])
    return g


def test_from_the_view_a_sample_is_the_real_endgame() -> None:
    seen = 0
    for seed in range(8):
        g = play_until_two_left(seed, "standard")
        if g.is_over:
            continue
        me = g.to_play
        assert me is not None
        view = g.view(me)
        assert two_left(view)
        res, sample = solve_view(view, sample_daifugo, random.Random(seed))
        assert isinstance(sample, Daifugo)
        assert sample.hands == g.hands and sample.jok == g.jok  # nothing was hidden
        assert res.status == solve(g, me).status
        seen += 1
    assert seen >= 4


def test_the_bot_plays_the_forced_win_and_endgame_off_leaves_it_to_the_tree() -> None:
    # seat 1 leads (dealer 0: the sampler rebuilds a view without a dealer as dealer 0)
    g = torampu.new_game(
        "daifugo", rules="standard", players=2, seed=0, deal={"hands": [["KS", "AS"], ["8S", "4S"]]}
    )
    assert g.to_play == 1
    view, legal = g.view(1), g.legal_actions()
    # (root_mate would answer first here: the 8 flushes, then the 4 goes out whatever happens)
    bot = make_bot("ismcts", 1, "daifugo", iterations=1, guard=False, root_mate=False)
    assert bot.choose(view, legal) == "play 8S"
    assert bot.last_endgame is not None and bot.last_endgame.status == WIN  # type: ignore[attr-defined]
    off = make_bot(
        "ismcts", 1, "daifugo", iterations=1, guard=False, endgame=False, root_mate=False
    )
    off.choose(view, legal)
    assert off.last_endgame is None  # type: ignore[attr-defined]
    assert off.last_result is not None  # type: ignore[attr-defined]


def test_think_bounds_the_whole_decision_solver_included(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time the solver spends without finding a win comes out of the tree's ``think`` budget
    (the clock is simulated: the solver "takes" 0.4 s of a 0.5 s budget)."""
    import torampu.bots.search as search_bot

    now = [100.0]
    monkeypatch.setattr(search_bot, "_clock", lambda: now[0])

    def slow_unknown(*args: object, **kwargs: object) -> tuple[EndgameResult, None]:
        now[0] += 0.4
        return EndgameResult(UNKNOWN, None, 20_000), None

    given: list[float | None] = []
    from torampu.search import ismcts as real

    def spy(*args: Any, **kwargs: Any) -> Any:
        given.append(kwargs["seconds"])
        return real(*args, **{**kwargs, "seconds": None, "iterations": 5})

    monkeypatch.setattr(search_bot, "solve_view", slow_unknown)
    monkeypatch.setattr(search_bot, "ismcts", spy)
    g = torampu.new_game(
        "daifugo", rules="standard", players=2, seed=0, deal={"hands": [["KS", "AS"], ["8S", "4S"]]}
    )
    bot = make_bot("ismcts", 1, "daifugo", think=0.5, guard=False, root_mate=False)
    assert bot.choose(g.view(1), g.legal_actions()) in g.legal_actions()
    assert given == [pytest.approx(0.1 - search_bot.DECISION_RESERVE)]
    assert bot.last_endgame is not None and bot.last_endgame.status == UNKNOWN  # type: ignore[attr-defined]

    def overrun(*args: object, **kwargs: object) -> tuple[EndgameResult, None]:
        now[0] += 1.0
        return EndgameResult(UNKNOWN, None, 20_000), None

    monkeypatch.setattr(search_bot, "solve_view", overrun)  # the tree gets nothing left
    bot.choose(g.view(1), g.legal_actions())
    assert given[-1] == 0.0


def test_bad_endgame_options_are_refused() -> None:
    import pytest

    from torampu.bots.base import BotError

    with pytest.raises(BotError, match="endgame_nodes"):
        make_bot("ismcts", 1, "daifugo", endgame_nodes=0)
    with pytest.raises(BotError, match="endgame"):
        make_bot("ismcts", 1, "daifugo", endgame="maybe")


def test_never_a_leaders_pass_under_lead_pass() -> None:
    g = endgame("8S 4S", "KS AS", {"preset": "uecda", "players": 2})
    assert "pass" in g.legal_actions()
    moves, _, complete = winning_moves(g, 0, first=False)
    assert complete and moves and all(g.action_str(m) != "pass" for m in moves)
    assert status_and_action(g) == (WIN, "play 8S")


def test_with_cards_set_aside_a_win_must_hold_on_every_sample() -> None:
    """シケ: the other hand is not known, so a win is claimed only when the move won on every
    sample drawn; on these deals each claimed win also wins the real game, and no loss is
    claimed (one sample's loss is not the real game's)."""
    checked = seen = 0
    for seed in range(20):
        g = torampu.new_game(
            "daifugo", rules={"preset": "standard", "shike": True}, players=3, seed=seed
        )
        assert isinstance(g, Daifugo)
        bots = [make_bot("heuristic", seed + s, "daifugo") for s in range(3)]
        while not g.is_over and not (g.phase == "play" and g.active.bit_count() == 2):
            s = g.to_play
            assert s is not None
            g.play(bots[s].choose(g.view(s), g.legal_actions()))
        if g.is_over or len(g.legal_moves()) < 2:
            continue
        seen += 1
        me = g.to_play
        assert me is not None and g.set_aside
        res, sample = solve_view(g.view(me), sample_daifugo, random.Random(seed), samples=8)
        assert isinstance(sample, Daifugo) and sample.set_aside
        if res.status == WIN:
            assert res.move is not None
            real, _, _ = winning_moves(g, me, first=False)
            assert sample.action_str(res.move) in {g.action_str(m) for m in real}
            checked += 1
        else:
            assert res.status == UNKNOWN and res.move is None
    assert seen >= 6 and checked >= 1, (seen, checked)


def test_a_ten_discard_decision_is_solved_too() -> None:
    # 10捨て: the T lets seat 0 throw one card; keeping the 2 wins (it answers the A)...
    g = endgame("TS 3S 9H 2S", "KS AS", {"preset": "standard", "ten_discard": True})
    g.play("play TS")
    assert g.phase == "discard" and g.to_play == 0
    assert two_left(g.view(0))
    moves, _, complete = winning_moves(g, 0, first=False)
    assert complete and moves
    # ...throwing it loses to K and A (and keeping every card is no better)
    assert {g.action_str(m) for m in moves} == {"discard 3S", "discard 9H"}
