"""The learned Daifugo policy (issue 21 part 2): features, training, the ``policy`` bot, and the
``ismcts`` bot's ``rollout`` / ``prior`` options."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import torampu
from daifugo_helpers import fixed
from torampu.bots import BotError, make_bot, parse_bot_spec
from torampu.bots.policy import PolicyBot
from torampu.bots.search import IsmctsBot
from torampu.cli import app
from torampu.daifugo import Daifugo
from torampu.daifugo_plays import PASS, RANK_SET
from torampu.learn.daifugo_features import (
    FEATURES,
    K_HAND,
    K_LEAD,
    K_TABLE,
    M_PASS,
    N_FEATURES,
    N_KEYS,
    move_features,
    move_keys,
)
from torampu.learn.daifugo_policy import (
    Policy,
    PolicyError,
    default_policy,
    policy_rollout,
    softmax,
)
from torampu.learn.train import fit, generate_records
from torampu.search import ismcts
from torampu.search.daifugo_sampler import greedy_rollout, sample_daifugo
from torampu.search.ismcts import random_rollout
from torampu.search.rollouts import daifugo_candidates


def _positions(rules: str = "standard", seed: int = 3, count: int = 60) -> list[Daifugo]:
    """Decisions with more than one legal move, from random play of a two-game match."""
    rng = random.Random(seed)
    out: list[Daifugo] = []
    m = torampu.new_match("daifugo", rules, games=2, seed=seed)
    while not m.is_over and len(out) < count:
        g = m.game
        assert isinstance(g, Daifugo)
        if len(g.legal_moves()) > 1:
            out.append(g.clone())  # type: ignore[arg-type]
        legal = m.legal_actions()
        m.play(legal[int(rng.random() * len(legal))])
    return out


# ---------------------------------------------------------------------------------- features
@pytest.mark.parametrize("rules", ["standard", "uecda", "yaita"])
def test_features_shape_and_determinism(rules: str) -> None:
    positions = _positions(rules)
    assert positions
    phases = set()
    for g in positions:
        moves = g.legal_moves()
        f = move_features(g, moves)
        assert len(f) == len(moves)
        assert all(len(row) == N_FEATURES == len(FEATURES) for row in f)
        assert all(isinstance(x, float) for row in f for x in row)
        assert f == move_features(g, moves)  # no hidden state, no randomness
        phases.add(g.phase)
        if PASS in moves:
            assert f[moves.index(PASS)][FEATURES.index("pass")] == 1.0
    assert "play" in phases


def test_features_read_only_what_the_seat_knows() -> None:
    """A determinization of the mover's view gives the real game's features: the policy may run
    on sampled games (the ``policy`` bot, the tree's prior)."""
    rng = random.Random(1)
    checked = 0
    for g in _positions("standard", seed=8, count=30):
        if g.phase != "play":
            continue
        s = g.to_play
        d = sample_daifugo(g.view(s), rng)
        assert isinstance(d, Daifugo)
        moves = g.legal_moves()
        assert d.legal_moves() == moves
        assert move_features(d, moves) == move_features(g, moves)
        checked += 1
    assert checked >= 10


def test_keys_read_only_what_the_seat_knows_and_name_the_play() -> None:
    """The binary keys (a policy's table) come with the same features, read only the mover's
    knowledge, and name a play's class (kind, size, rank in the order), its context and the
    cards it takes from each rank."""
    rng = random.Random(2)
    checked = 0
    for g in _positions("uecda", seed=5, count=40):
        moves = g.legal_moves()
        feats, keys = move_keys(g, moves)
        assert feats == move_features(g, moves) and len(keys) == len(moves)
        if g.phase != "play":
            assert keys == [[] for _ in moves]
            continue
        d = sample_daifugo(g.view(g.to_play), rng)
        assert isinstance(d, Daifugo)
        assert move_keys(d, moves)[1] == keys
        lead = g.table_info is None
        for m, ks in zip(moves, keys, strict=True):
            assert len(ks) == len(set(ks)) and all(0 <= k < N_KEYS for k in ks)
            cls = (ks[0] - K_LEAD) // 2
            assert (ks[0] - K_LEAD) % 2 == (1 if lead else 0)
            assert (cls == M_PASS) == (m == PASS)
            assert any(K_TABLE <= k < K_HAND for k in ks) != lead
            takes = [k for k in ks if k >= K_HAND]
            assert bool(takes) == (m != PASS)
        checked += 1
    assert checked >= 10
    # a known play: at the start of a uecda game, the leader's single of its lowest rank
    g = torampu.new_game("daifugo", "uecda", seed=1)
    assert isinstance(g, Daifugo)
    while g.phase != "play":
        g.play(g.legal_actions()[0])
    s = g.turn
    low = min(d for d in range(13) if g.hands[s] & RANK_SET[d])
    held = (g.hands[s] & RANK_SET[low]).bit_count()
    moves = g.legal_moves()
    single = next(m for m in moves if (m & ((1 << 52) - 1)).bit_count() == 1 and m & RANK_SET[low])
    ks = move_keys(g, moves)[1][moves.index(single)]
    assert ks[0] == K_LEAD + low * 2 + 1  # class: a single of rank `low`; a lead
    assert K_HAND + low * 25 + held * 5 + held - 1 in ks  # held → held - 1 of that rank


def test_feature_values_on_a_known_hand() -> None:
    g = torampu.new_game("daifugo", rules="standard", seed=11)
    assert isinstance(g, Daifugo)
    moves = g.legal_moves()
    f = {
        m: dict(zip(FEATURES, row, strict=True))
        for m, row in zip(moves, move_features(g, moves), strict=True)
    }
    hand = g.hands[g.turn].bit_count() + g.jok[g.turn]
    for m, row in f.items():
        size = (m & ((1 << 52) - 1)).bit_count() + (m >> 52 & 3)
        assert row["left"] == pytest.approx((hand - size) / 13)
        assert row["lead"] == 1.0
        assert row["single"] + row["group"] + row["run"] == 1.0


def _lone(g: Daifugo) -> dict[str, tuple[float, ...]]:
    """Each legal play's six lone-card features (any play, then leads)."""
    names: tuple[str, ...] = ("lone_low", "lone_second", "lone_high")
    names += tuple("lead_" + n for n in names)
    moves = g.legal_moves()
    return {
        g.action_str(m): tuple(row[FEATURES.index(n)] for n in names)
        for m, row in zip(moves, move_features(g, moves), strict=True)
    }


def test_lone_card_features_name_the_weakest_and_second_weakest_lone_card() -> None:
    """A single of a rank held once is the weakest, the second-weakest or a stronger lone card
    in the order of the moment; a card from a pair is none of them (the champion leads its
    second-weakest lone card far more often than our policy did: see the README)."""
    g = fixed(["3S 5H 5D 7C 9D KS", "4C 4D", "6C 6D"])
    f = _lone(g)
    assert f["play 3S"] == (1, 0, 0, 1, 0, 0)
    assert f["play 7C"] == (0, 1, 0, 0, 1, 0)
    assert f["play 9D"] == f["play KS"] == (0, 0, 1, 0, 0, 1)
    assert f["play 5H"] == f["play 5D"] == f["play 5D 5H"] == (0,) * 6
    # following, without the lead's copy; with the 3 gone, the 7 is the weakest lone card
    for action in ("play 3S", "play 4C", "pass"):
        g.play(action)
    f = _lone(g)
    assert f["play 7C"] == (1, 0, 0, 0, 0, 0) and f["play 9D"] == (0, 1, 0, 0, 0, 0)
    assert f["play KS"] == (0, 0, 1, 0, 0, 0)
    assert "play 3S" not in f and f["pass"] == (0,) * 6
    # after a revolution the order turns over: the king is the weakest lone card, the 9 next
    r = fixed(["3S 7C 9D KS 6H 6D 6C 6S", "4C 4D", "8C 8D"])
    r.play("play 6C 6D 6H 6S")
    r.play("pass")
    r.play("pass")
    f = _lone(r)
    assert f["play KS"][:3] == (1, 0, 0) and f["play 9D"][:3] == (0, 1, 0)
    assert f["play 3S"][:3] == (0, 0, 1)


# ---------------------------------------------------------------------------------- training
def test_training_is_reproducible_from_the_seed() -> None:
    a = fit(generate_records(2, "heuristic", "standard", seed=5, match_games=1), steps=40)[0]
    b = fit(generate_records(2, "heuristic", "standard", seed=5, match_games=1), steps=40)[0]
    c = fit(generate_records(2, "heuristic", "standard", seed=6, match_games=1), steps=40)[0]
    assert a.weights == b.weights
    assert a.weights != c.weights
    assert any(w != 0 for w in a.weights)


def test_training_learns_the_teacher() -> None:
    """Fitted to the heuristic's choices, the policy picks the heuristic's move more often than
    an untrained (all-zero, first-move) policy does, on the training decisions."""
    rec = generate_records(3, "heuristic", "standard", seed=2, match_games=1)
    pol, report = fit(rec, steps=150, holdout=0.0)
    assert report.decisions == len(rec) > 50
    hits = base = 0
    pos = 0
    for size, chosen in zip(rec.sizes, rec.chosen, strict=True):
        rows = rec.rows[pos : pos + size]
        pos += size
        sc = [sum(w * x for w, x in zip(pol.weights, r, strict=True)) for r in rows]
        hits += sc.index(max(sc)) == chosen
        base += chosen == 0
    assert hits > base
    assert hits / len(rec) > 0.6


def test_soft_targets_are_the_searchs_visit_shares() -> None:
    """With ``soft``, a searched decision's targets are its root visits' shares (they sum to 1
    and peak on the move the tree chose); a decision the tree did not make is the pick."""
    rec = generate_records(
        1, "ismcts:iterations=60", "uecda", seed=3, match_games=1, table=True, soft=True
    )
    assert len(rec.targets) == len(rec) > 10
    assert len(rec.keys) == len(rec.rows)
    spread = 0
    for target, size, chosen in zip(rec.targets, rec.sizes, rec.chosen, strict=True):
        assert len(target) == size
        assert sum(target) == pytest.approx(1.0)
        assert target[chosen] == max(target)
        spread += sum(1 for t in target if 0 < t < 1) > 1
    assert spread > len(rec) // 2  # most decisions teach more than one move


def test_an_oracle_teacher_is_reproducible_and_not_the_sampling_one() -> None:
    """``oracle`` records come from the search given the true deal (see_all's doctest): the
    same seed gives the same records, and its picks are not those of the same search drawing
    deals from its view."""
    args = (2, "ismcts:iterations=40", "uecda")
    a = generate_records(*args, seed=3, match_games=1, oracle=True)
    b = generate_records(*args, seed=3, match_games=1, oracle=True)
    c = generate_records(*args, seed=3, match_games=1)
    assert len(a) > 10
    assert (a.rows, a.chosen) == (b.rows, b.chosen)
    assert (a.rows, a.chosen) != (c.rows, c.chosen)


def test_a_table_policy_learns_from_keys_alone() -> None:
    """A table fitted to the heuristic's choices has non-zero key weights and agrees with the
    teacher on its training decisions at least as often as the 48 weights alone; records without
    keys refuse a table."""
    rec = generate_records(3, "heuristic", "uecda", seed=2, match_games=1, table=True)
    plain, _ = fit(rec, steps=150, holdout=0.0)
    tab, report = fit(rec, steps=150, holdout=0.0, table=True)
    assert tab.table is not None and len(tab.table) == N_KEYS
    assert sum(1 for w in tab.table if w != 0) > 100

    def hits(pol: Policy) -> int:
        n = pos = 0
        for size, chosen in zip(rec.sizes, rec.chosen, strict=True):
            sc = []
            for i in range(pos, pos + size):
                t = sum(w * x for w, x in zip(pol.weights, rec.rows[i], strict=True))
                t += sum(pol.table[k] for k in rec.keys[i]) if pol.table is not None else 0.0
                sc.append(t)
            pos += size
            n += sc.index(max(sc)) == chosen
        return n

    assert hits(tab) >= hits(plain)
    assert report.train_nll < fit(rec, steps=150, holdout=0.0)[1].train_nll
    with pytest.raises(ValueError, match="keys"):
        fit(generate_records(1, "heuristic", "uecda", seed=2, match_games=1), table=True)


def test_records_do_not_depend_on_the_number_of_workers() -> None:
    one = generate_records(2, "heuristic", "uecda", seed=8, match_games=1, table=True)
    two = generate_records(2, "heuristic", "uecda", seed=8, match_games=1, table=True, workers=2)
    assert one == two and len(one) > 0


def test_train_command_smoke(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    args = ["train", "daifugo", "--games", "2", "--match-games", "1", "--steps", "20"]
    res = CliRunner().invoke(app, [*args, "--seed", "4", "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "decisions" in res.output
    data = json.loads(out.read_text())
    pol = Policy.from_json(data)
    assert len(pol.weights) == N_FEATURES
    assert data["training"]["seed"] == 4 and data["training"]["games"] == 2
    bad = CliRunner().invoke(app, [*args, "--teacher", "nosuchbot", "--out", str(out)])
    assert bad.exit_code == 2
    none = CliRunner().invoke(app, [*args, "--workers", "0", "--out", str(out)])
    assert none.exit_code == 2 and "workers" in none.output
    tab = tmp_path / "t.json"
    res = CliRunner().invoke(app, [*args, "--table", "--seed", "4", "--out", str(tab), "--quiet"])
    assert res.exit_code == 0, res.output
    data = json.loads(tab.read_text())
    assert data["training"]["table"] is True and len(Policy.from_json(data).table or []) == N_KEYS


# ---------------------------------------------------------------------------------- the policy
def test_shipped_policy_loads_with_its_command() -> None:
    pol = default_policy()
    assert len(pol.weights) == N_FEATURES
    assert str(pol.meta["command"]).startswith("torampu train daifugo")
    assert pol.meta["training"]["decisions"] > 1000
    with pytest.raises(PolicyError):
        Policy.from_json({"format": "x"})
    with pytest.raises(PolicyError):
        Policy([1.0])


def test_a_policy_file_from_before_a_feature_gives_it_no_weight() -> None:
    """Features are added, never renamed: a file that lacks the newer ones (the lone-card
    features came after the shipped file) loads with weight 0 on them, so it scores every
    move as it did; a file naming a feature this version lacks, or one twice, is refused."""
    good = default_policy().to_json()
    old_names = [f for f in FEATURES if "lone_" not in f]
    by_name = dict(zip(FEATURES, good["weights"], strict=True))
    old = {**good, "features": old_names, "weights": [by_name[f] for f in old_names]}
    pol = Policy.from_json(old)
    assert [pol.weights[FEATURES.index(f)] for f in FEATURES if "lone_" in f] == [0.0] * 6
    assert [pol.weights[FEATURES.index(f)] for f in old_names] == old["weights"]
    with pytest.raises(PolicyError, match="not this version's: \\['nonsense'\\]"):
        Policy.from_json({**old, "features": ["nonsense", *old_names[1:]]})
    with pytest.raises(PolicyError, match="names a feature twice"):
        Policy.from_json({**old, "features": [old_names[1], *old_names[1:]]})
    with pytest.raises(PolicyError, match="features but"):
        Policy.from_json({**old, "weights": old["weights"][:-1]})


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("weights", "junk", "weights is not a list"),
        ("weights", [0.0] * (N_FEATURES - 1) + ["x"], "holds 'x'"),
        ("weights", [0.0] * (N_FEATURES - 1) + [True], "holds True"),
        ("table", [0.0] * (N_KEYS - 1) + [None], "holds None"),
        ("table", [0.0] * 10, f"needs {N_KEYS} weights, not 10"),
        ("table", None, "needs its table"),
        ("keys", 7, "has 7 keys"),
    ],
)
def test_a_malformed_policy_file_is_refused_by_name(
    tmp_path: Path, field: str, value: object, message: str
) -> None:
    """A hand-edited or truncated file gives a PolicyError naming what is wrong (the bot options
    and the training commands report it), never a TypeError from deep inside."""
    good = Policy(default_policy().weights, table=[0.0] * N_KEYS).to_json()
    assert Policy.from_json(good).table == [0.0] * N_KEYS
    with pytest.raises(PolicyError, match=message):
        Policy.from_json({**good, field: value})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**good, field: value}), encoding="utf-8")
    with pytest.raises(BotError, match=message):
        make_bot("ismcts", 1, "daifugo", iterations=5, params=str(path))


def test_softmax_and_sampling() -> None:
    p = softmax([1.0, 2.0, 3.0])
    assert sum(p) == pytest.approx(1.0) and p[2] > p[1] > p[0]
    g = _positions(count=1)[0]
    moves = g.legal_moves()
    pol = default_policy()
    best = pol.best(g, moves)
    assert pol.sample(g, moves, random.Random(0).random, temperature=0) == best
    sc = pol.scores(g, moves)
    assert sc[moves.index(best)] == max(sc)


def test_policy_rollout_finishes_reproducibly() -> None:
    for g in _positions(count=8)[::2]:
        a, b = g.clone(), g.clone()
        policy_rollout(a, random.Random(3))
        policy_rollout(b, random.Random(3))
        assert a.is_over and b.is_over
        assert a.history == b.history  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    rules=st.sampled_from(["standard", "uecda", "yaita"]),
    temperature=st.sampled_from([0.0, 1.0]),
)
def test_policy_bot_always_legal(seed: int, steps: int, rules: str, temperature: float) -> None:
    m = torampu.new_match("daifugo", rules, games=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.is_over:
            return
        legal = m.legal_actions()
        m.play(legal[int(rng.random() * len(legal))])
    if m.is_over:
        return
    bot = make_bot("policy", seed, "daifugo", temperature=temperature)
    seat = m.to_play
    assert seat is not None
    legal = m.legal_actions()
    assert bot.choose(m.view(seat), legal) in legal


def test_policy_bot_plays_a_match_mostly_by_itself() -> None:
    m = torampu.new_match("daifugo", "standard", games=2, seed=9)
    bots = [make_bot("policy", s, "daifugo") for s in range(m.n)]
    torampu.bots.play_game(m, bots)
    assert m.is_over
    assert all(isinstance(b, PolicyBot) for b in bots)
    assert sum(b.fallbacks for b in bots) == 0  # type: ignore[attr-defined]


def test_policy_bot_options() -> None:
    with pytest.raises(BotError):
        make_bot("policy", 0, "napoleon")
    with pytest.raises(BotError):
        make_bot("policy", 0, "daifugo", temperature=-1)
    with pytest.raises(BotError):
        make_bot("policy", 0, "daifugo", params="/nonexistent/policy.json")


# ---------------------------------------------------------------------------------- the search
def test_ismcts_learned_options_parse() -> None:
    kind, opts = parse_bot_spec("ismcts:rollout=policy:prior=on:prior_weight=2:temperature=0.5")
    bot = make_bot(kind, 1, "daifugo", **opts)
    assert isinstance(bot, IsmctsBot)
    assert bot.prior is not None and bot.prior_weight == 2.0
    assert bot.rollout not in (greedy_rollout, random_rollout)
    plain = make_bot("ismcts", 1, "daifugo")
    assert isinstance(plain, IsmctsBot)
    assert plain.prior is None and plain.rollout is greedy_rollout
    kind, opts = parse_bot_spec("ismcts:prior=off:rollout=random")
    off = make_bot(kind, 1, "daifugo", **opts)
    assert isinstance(off, IsmctsBot)
    assert off.prior is None and off.rollout is random_rollout
    for bad in (
        {"rollout": "clever"},
        {"prior": "maybe"},
        {"prior_weight": -1},
        {"temperature": "hot"},
    ):
        with pytest.raises(BotError):
            make_bot("ismcts", 1, "daifugo", **bad)
    with pytest.raises(BotError):
        make_bot("ismcts", 1, "napoleon", prior=True)
    with pytest.raises(BotError):
        make_bot("ismcts", 1, "hell", rollout="policy")


def test_prior_orders_the_expansion() -> None:
    """With a prior the root's first expanded move is the prior's favourite (without one it is
    drawn at random)."""
    g = next(p for p in _positions(count=60) if p.phase == "play" and len(p.legal_moves()) > 3)
    view = g.view(g.to_play)
    pol = default_policy()
    legal = daifugo_candidates(g, g.legal_moves())
    res = ismcts(
        view,
        sample_daifugo,
        random.Random(0),
        iterations=1,
        rollout=greedy_rollout,
        prior=pol.prior,
    )
    favourite = g.action_str(legal[max(range(len(legal)), key=pol.prior(g, legal).__getitem__)])
    assert list(res.visits) == [favourite]


def test_ismcts_with_policy_rollout_and_prior_returns_a_legal_move() -> None:
    g = _positions(count=20)[-1]
    seat = g.to_play
    bot = make_bot("ismcts", 2, "daifugo", iterations=30, rollout="policy", prior=True)
    legal = g.legal_actions()
    assert bot.choose(g.view(seat), legal) in legal


def test_ismcts_params_names_the_policy_the_search_uses(tmp_path: Path) -> None:
    """``params=FILE`` puts that policy in the search's rollouts and prior: the shipped file
    gives the shipped policy's search, a different policy a different search; a file that is
    not a policy, or ``params`` with a rollout that uses no policy and no prior, is refused."""
    g = next(p for p in _positions(count=60) if p.phase == "play" and len(p.legal_moves()) > 3)
    view, legal = g.view(g.to_play), g.legal_actions()
    shipped = tmp_path / "shipped.json"
    default_policy().save(shipped)
    flipped = tmp_path / "flipped.json"
    Policy([-w for w in default_policy().weights]).save(flipped)

    def search(**opts: object) -> dict[str, int]:
        bot = make_bot("ismcts", 3, "daifugo", iterations=200, rollout="policy", **opts)
        assert isinstance(bot, IsmctsBot)
        bot.choose(view, legal)
        assert bot.last_result is not None
        return bot.last_result.visits

    assert search(params=str(shipped)) == search()
    assert search(params=str(flipped)) != search()
    # a table of key weights (file format 2) is part of the policy the search plays
    tabled = tmp_path / "tabled.json"
    table = [5.0 if k % 7 == 0 else 0.0 for k in range(N_KEYS)]
    Policy(default_policy().weights, table=table).save(tabled)
    assert search(params=str(tabled)) != search()
    bot = make_bot("ismcts", 1, "daifugo", prior=True, params=str(flipped))
    assert isinstance(bot, IsmctsBot) and bot.prior is not None
    assert bot.prior(g, g.legal_moves()) != default_policy().prior(g, g.legal_moves())
    (tmp_path / "junk.json").write_text('{"format": "something else"}', encoding="utf-8")
    for bad, why in (
        ({"rollout": "policy", "params": str(tmp_path / "junk.json")}, "not a torampu"),
        ({"rollout": "policy", "params": str(tmp_path / "absent.json")}, "params"),
        ({"rollout": "greedy", "params": str(shipped)}, "with rollout=policy, rollout=auto"),
    ):
        with pytest.raises(BotError, match=why):
            make_bot("ismcts", 1, "daifugo", **bad)


def _first_play_view(
    rules: str | dict[str, object], seed: int
) -> tuple[dict[str, object], list[str]]:
    m = torampu.new_match("daifugo", rules, games=1, seed=seed)
    while m.game.phase != "play" or len(m.legal_actions()) < 3:  # type: ignore[attr-defined]
        m.play(m.legal_actions()[0])
    seat = m.to_play
    assert seat is not None
    return dict(m.view(seat)), m.legal_actions()


def test_rollout_auto_uses_the_policy_under_the_rules_it_was_trained_under(
    tmp_path: Path,
) -> None:
    """The default rollout in Daifugo is ``auto``: the learned policy's rollout where the
    view's rules are those of the preset its file names (the shipped one: ``uecda``), the greedy
    rollout elsewhere — the same searches as ``rollout=policy`` and ``rollout=greedy``."""
    assert default_policy().meta["training"]["rules"] == "uecda"

    def visits(view: dict[str, object], legal: list[str], **opts: object) -> dict[str, int]:
        bot = make_bot("ismcts", 5, "daifugo", iterations=150, **opts)
        assert isinstance(bot, IsmctsBot)
        bot.choose(view, legal)
        assert bot.last_result is not None
        return bot.last_result.visits

    uecda = _first_play_view("uecda", 3)
    assert visits(*uecda) == visits(*uecda, rollout="policy")
    assert visits(*uecda) != visits(*uecda, rollout="greedy")
    # options that act only between games (seats, titles forgotten) leave the rules the same:
    # our own UECda server with --rank-reset 1 --seat-change 0 used to get the greedy rollout
    between = _first_play_view({"preset": "uecda", "rank_reset": 1, "seat_change": 0}, 3)
    assert between[0]["rules"] != uecda[0]["rules"]
    assert visits(*between) == visits(*between, rollout="policy")
    assert visits(*between) != visits(*between, rollout="greedy")
    # a rule of play that differs (tndhms's changed flush) gets the greedy rollout
    flush = _first_play_view({"preset": "uecda", "flush_when": "one_left"}, 3)
    assert visits(*flush) == visits(*flush, rollout="greedy")
    standard = _first_play_view("standard", 3)
    assert visits(*standard) == visits(*standard, rollout="greedy")
    assert visits(*standard) != visits(*standard, rollout="policy")
    # a policy trained under standard is used under standard
    pol = default_policy()
    mine = tmp_path / "standard.json"
    Policy(pol.weights, {"training": {"rules": "standard"}}).save(mine)
    assert visits(*standard, rollout="auto", params=str(mine)) == visits(
        *standard, rollout="policy", params=str(mine)
    )
    # the greedy rollout's own options ask for it; with rollout=auto they are refused
    assert visits(*uecda, rollout_explore=0.15) == visits(*uecda, rollout="greedy")
    nameless = tmp_path / "nameless.json"
    Policy(pol.weights).save(nameless)
    garbled = tmp_path / "garbled.json"
    Policy(pol.weights, {"training": 5}).save(garbled)
    unknown = tmp_path / "unknown.json"
    Policy(pol.weights, {"training": {"rules": "no-such-preset"}}).save(unknown)
    for bad, why in (
        ({"rollout": "auto", "rollout_hold": 0.5}, "rollout_hold is for"),
        ({"rollout": "auto", "params": str(nameless)}, "names the preset it was trained under"),
        ({"rollout": "auto", "params": str(garbled)}, "names the preset it was trained under"),
        ({"rollout": "auto", "params": str(unknown)}, "not 'no-such-preset'"),
    ):
        with pytest.raises(BotError, match=why):
            make_bot("ismcts", 1, "daifugo", **bad)
    with pytest.raises(BotError, match="Daifugo's only"):
        make_bot("ismcts", 1, "napoleon", rollout="auto")
