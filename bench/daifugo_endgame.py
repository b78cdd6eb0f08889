"""Two-player Daifugo endgames: how often the search's tree (no solver) and the heuristic throw
away a won endgame, and what the exact solver (``torampu.search.daifugo_endgame``) costs.

Positions: games played by the heuristic bots until two players are left; every decision of
either of them from there on (with more than one legal move) is a position, judged from the
seat's view. For each the solver lists every winning move on the real game (where the view
tells every card's place, the sample the bot solves is the real game; the test suite checks
that); then, in the same run, the ``ismcts`` bot without the solver (``endgame=off``,
``--iterations`` per decision) as it plays by default (its move guarded by the heuristic's,
``guard``) and unguarded (``guard=off``: the tree alone), and the heuristic choose, and a choice
outside the winning moves in a won position is a *blunder*. Printed: positions, won positions,
blunders of each, and the time per decision of the solver and of the tree.

Run: .venv/bin/python bench/daifugo_endgame.py [--rules uecda] [--games 40] [--iterations 200]
"""

from __future__ import annotations

import argparse
import time

import torampu
from torampu.bots import make_bot
from torampu.daifugo import Daifugo
from torampu.search.daifugo_endgame import winning_moves

SEED = 2126


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--nodes", type=int, default=200_000, help="solver budget per position")
    a = ap.parse_args()
    positions = won = unknown = tree_bad = heur_bad = guard_bad = 0
    t_solve = t_tree = 0.0
    for i in range(a.games):
        g = torampu.new_game("daifugo", rules=a.rules, seed=SEED + i)
        assert isinstance(g, Daifugo)
        heur = [make_bot("heuristic", SEED + i * 10 + s, "daifugo") for s in range(g.n)]
        tree = make_bot(
            "ismcts", SEED + i, "daifugo", iterations=a.iterations, endgame=False, guard=False
        )
        guarded = make_bot("ismcts", SEED + i, "daifugo", iterations=a.iterations, endgame=False)
        while not g.is_over:
            s = g.to_play
            assert s is not None
            view, legal = g.view(s), g.legal_actions()
            pick = heur[s].choose(view, legal)
            if g.phase == "play" and g.active.bit_count() == 2 and len(legal) > 1:
                positions += 1
                t = time.perf_counter()
                wins, _, complete = winning_moves(g, s, a.nodes, first=False)
                t_solve += time.perf_counter() - t
                unknown += not complete
                t = time.perf_counter()
                mine = tree.choose(view, legal)
                t_tree += time.perf_counter() - t
                default = guarded.choose(view, legal)
                if wins:
                    won += 1
                    names = {g.action_str(m) for m in wins}
                    tree_bad += mine not in names
                    heur_bad += pick not in names
                    guard_bad += default not in names
            g.play(pick)
    print(
        f"{a.rules}: {a.games} games, {positions} two-player positions, {won} won"
        f" ({unknown} beyond the budget of {a.nodes} nodes)"
    )
    print(
        f"  tree alone ({a.iterations} iterations, guard=off, endgame=off) blunders:"
        f" {tree_bad} of {won}"
    )
    print(f"  default bot ({a.iterations} iterations, guarded, endgame=off): {guard_bad} of {won}")
    print(f"  heuristic blunders: {heur_bad} of {won}")
    if positions:
        print(
            f"  time per position: solver (all winning moves) {1000 * t_solve / positions:.1f} ms,"
            f" tree {1000 * t_tree / positions:.1f} ms"
        )


if __name__ == "__main__":
    main()
