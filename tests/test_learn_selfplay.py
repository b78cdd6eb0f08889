"""Self-play policy gradient for the Daifugo policy (torampu.learn.selfplay) and its command."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import torampu
from torampu.cli import app
from torampu.daifugo import Daifugo
from torampu.learn.daifugo_features import CARDS_FEATURES, N_FEATURES, N_KEYS, move_features
from torampu.learn.daifugo_policy import Policy, default_policy
from torampu.learn.selfplay import _play, duel, reinforce

np = pytest.importorskip("numpy")


def test_the_score_function_is_the_gradient_of_the_chosen_moves_log_probability() -> None:
    """What a game adds to a seat's gradient is d/dw of the log-probability of the moves the
    seat drew: checked against finite differences of the policy's own probabilities."""
    g = torampu.new_game("daifugo", "uecda", seed=4)
    assert isinstance(g, Daifugo)
    w = np.asarray(default_policy().weights)
    draws = random.Random(1)
    seq: list[float] = [draws.random() for _ in range(400)]
    it = iter(seq)
    grads = [np.zeros(N_FEATURES) for _ in range(g.n)]
    start = g.clone()
    _play(g, [w] * g.n, lambda: next(it), grads)

    def logp(weights: np.ndarray, seat: int) -> float:
        """The log-probability of seat's moves in the game just played, under ``weights``."""
        replay = start.clone()
        total = 0.0
        for s, m in g.history:
            moves = replay.legal_moves()
            if len(moves) > 1 and s == seat:
                z = np.asarray(move_features(replay, moves)) @ weights
                z = z - z.max()
                total += float(z[moves.index(m)] - math.log(np.exp(z).sum()))
            replay.apply(m)
        return total

    seat = 2
    for k in (0, 9, 24):
        e = np.zeros(N_FEATURES)
        e[k] = 1e-5
        numeric = (logp(w + e, seat) - logp(w - e, seat)) / 2e-5
        assert math.isclose(grads[seat][k], numeric, rel_tol=1e-4, abs_tol=1e-6), k


def test_self_play_learns_to_beat_random_play() -> None:
    """From all-zero weights (every legal move alike) a few thousand games of self-play make a
    policy that takes clearly more than its share of places against the uniform player."""
    zero = Policy([0.0] * N_FEATURES, {"training": {"rules": "uecda"}})
    new, report = reinforce(
        zero, games=1200, rules="uecda", seed=5, lr=0.05, batch=40, eval_games=0
    )
    assert report.updates == 30
    assert duel(new, zero, 400, "uecda", seed=9) > 0.56


def test_the_same_seed_gives_the_same_weights_and_the_cards_block_stays() -> None:
    start = default_policy()
    a, ra = reinforce(start, games=60, seed=3, batch=20, eval_games=10)
    b, _ = reinforce(start, games=60, seed=3, batch=20, eval_games=10)
    c, _ = reinforce(start, games=60, seed=4, batch=20, eval_games=10)
    assert a.weights == b.weights != c.weights
    cards = len(CARDS_FEATURES)
    assert a.weights[-cards:] == start.weights[-cards:]  # single games: no exchange
    assert a.meta["training"] == start.meta["training"]  # the imitation it started from
    assert a.meta["selfplay"]["games"] == 60 and a.meta["selfplay"]["updates"] == 3
    assert 0.0 <= ra.against_start <= 1.0
    with pytest.raises(ValueError, match="trained under 'uecda'"):
        reinforce(start, games=10, rules="standard")


def test_the_command(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    runner = CliRunner()
    args = ["train", "daifugo-selfplay", "--games", "40", "--batch", "20", "--eval-games", "10"]
    r = runner.invoke(app, [*args, "--seed", "2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["selfplay"]["command"].startswith("torampu train daifugo-selfplay")
    assert Policy.load(out).trained_under == "uecda"
    bad = runner.invoke(app, [*args, "--start", str(tmp_path / "none"), "--out", str(out)])
    assert bad.exit_code == 2 and "--start" in bad.output
    bad = runner.invoke(app, [*args, "--rules", "standard", "--out", str(out)])
    assert bad.exit_code == 2 and "trained under 'uecda'" in bad.output


# ------------------------------------------------------------------------ the table of keys
def test_the_keys_gradient_is_the_gradient_of_the_chosen_moves_log_probability() -> None:
    """With a table, what a game adds to a seat's key gradients is d/dt of the log-probability
    of its moves under the table: checked against finite differences for keys it met."""
    g = torampu.new_game("daifugo", "uecda", seed=6)
    assert isinstance(g, Daifugo)
    w = np.asarray(default_policy().weights)
    table = [((k * 37) % 11 - 5) / 10 for k in range(N_KEYS)]
    draws = random.Random(2)
    it = iter([draws.random() for _ in range(400)])
    grads = [np.zeros(N_FEATURES) for _ in range(g.n)]
    key_grads: list[dict[int, float]] = [{} for _ in range(g.n)]
    start = g.clone()
    _play(g, [w] * g.n, lambda: next(it), grads, [table] * g.n, key_grads)

    def logp(tab: list[float], seat: int) -> float:
        replay = start.clone()
        total = 0.0
        for s, m in g.history:
            moves = replay.legal_moves()
            if len(moves) > 1 and s == seat:
                scores = Policy(list(w), table=tab).scores(replay, moves)
                top = max(scores)
                z = sum(math.exp(x - top) for x in scores)
                total += scores[moves.index(m)] - top - math.log(z)
            replay.apply(m)
        return total

    seat = 1
    met = sorted(key_grads[seat], key=lambda k: -abs(key_grads[seat][k]))[:3]
    assert met
    for k in met:
        up, down = list(table), list(table)
        up[k] += 1e-5
        down[k] -= 1e-5
        numeric = (logp(up, seat) - logp(down, seat)) / 2e-5
        assert math.isclose(key_grads[seat][k], numeric, rel_tol=1e-4, abs_tol=1e-6), k


def test_self_play_with_a_table_learns_it_and_keeps_it() -> None:
    start = default_policy()
    assert start.table is None
    a, _ = reinforce(start, games=60, seed=3, batch=20, eval_games=0, table=True)
    b, _ = reinforce(start, games=60, seed=3, batch=20, eval_games=0, table=True)
    assert a.table is not None and a.table == b.table
    assert sum(1 for x in a.table if x != 0.0) > 100
    assert a.meta["selfplay"]["table"] is True
    # a policy that has a table keeps learning it without being asked
    c, _ = reinforce(a, games=20, seed=4, batch=20, eval_games=0)
    assert c.table is not None and c.table != a.table
    assert c.meta["selfplay_before"] == [a.meta["selfplay"]]  # every round is named
    assert c.meta["selfplay"]["seed"] == 4 and "selfplay_before" not in a.meta
    # a zero table is the same policy as none
    g = torampu.new_game("daifugo", "uecda", seed=2)
    assert isinstance(g, Daifugo)
    while g.phase != "play":
        g.apply(g.legal_moves()[0])
    moves = g.legal_moves()
    zero = Policy(start.weights, table=[0.0] * N_KEYS)
    assert zero.scores(g, moves) == start.scores(g, moves)
    assert a.scores(g, moves) != Policy(a.weights).scores(g, moves)


def test_the_command_with_a_table(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    runner = CliRunner()
    args = ["train", "daifugo-selfplay", "--games", "20", "--batch", "10", "--eval-games", "5"]
    r = runner.invoke(app, [*args, "--table", "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["format"] == "torampu-daifugo-policy-2" and data["keys"] == N_KEYS
    p = Policy.load(out)
    assert p.table is not None and len(p.table) == N_KEYS
