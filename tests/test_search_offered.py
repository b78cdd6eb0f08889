"""The search bot answers among the moves it is offered, even where the game allows more.

The UECda client offers only the plays its server accepts too (tndhms refuses a few that
torampu allows); the tree searches the game's own moves. Twice in matches against Blauweregen the
search chose a pair the client had not offered, and the client fell back to its weakest play."""

from __future__ import annotations

import random

import torampu
from torampu.bots import make_bot
from torampu.daifugo import Daifugo


def _mid_game(seed: int) -> Daifugo:
    g = torampu.new_game("daifugo", "uecda", seed=seed)
    rng = random.Random(seed)
    while True:
        moves = g.legal_moves()
        g.apply(moves[int(rng.random() * len(moves))])
        assert isinstance(g, Daifugo) and not g.is_over
        if len(g.legal_actions()) >= 4 and len(g.view(None)["log"]) > 10:
            return g


def test_the_tree_answers_among_the_offered_moves() -> None:
    for seed in range(6):
        g = _mid_game(seed)
        view, legal = g.view(g.to_play), g.legal_actions()
        for guard in (False, 1.0):
            spec = {"iterations": 150, "guard": guard, "endgame": False}
            free = make_bot("ismcts", 3, "daifugo", **spec).choose(view, legal)
            offered = [a for a in legal if a != free]
            chosen = make_bot("ismcts", 3, "daifugo", **spec).choose(view, offered)
            assert chosen in offered, (seed, guard, free, chosen)


def test_the_solvers_win_not_offered_leaves_the_choice_to_the_tree() -> None:
    g = torampu.new_game(
        "daifugo",
        rules="standard",
        players=2,
        seed=0,
        deal={"hands": [["KS", "AS"], ["8S", "4S", "4H"]]},
    )
    view, legal = g.view(1), g.legal_actions()
    bot = make_bot("ismcts", 1, "daifugo", iterations=20, guard=False, root_mate=False)
    won = bot.choose(view, legal)
    assert bot.last_endgame is not None and bot.last_endgame.move is not None  # type: ignore[attr-defined]
    offered = [a for a in legal if a != won]
    assert len(offered) >= 2
    bot = make_bot("ismcts", 1, "daifugo", iterations=20, guard=False, root_mate=False)
    assert bot.choose(view, offered) in offered
