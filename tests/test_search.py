"""Search: samplers rebuild a game the seat cannot tell from the real one; ISMCTS plays legally."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import torampu
from torampu.search import ismcts, rollout_for, sampler_for
from torampu.search.samplers import deal_hidden


def _random_state(players: int, cards: int, seed: int, steps: int) -> torampu.Game:
    g = torampu.new_game("hell", players=players, cards=cards, seed=seed, dealer=seed % players)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        legal = g.legal_moves()
        g.apply(legal[int(rng.random() * len(legal))])
    return g


@pytest.mark.parametrize("seed", range(40))
def test_hell_sample_is_indistinguishable(seed: int) -> None:
    """The sampled game shows the seat exactly its real view, while other hands differ."""
    players = 3 + seed % 5
    g = _random_state(players, 51 // players, seed, steps=seed * 2 % 40)
    if g.is_over:
        return
    seat = g.to_play
    assert seat is not None
    view = g.view(seat)
    rng = random.Random(seed)
    differs = False
    for _ in range(5):
        s = sampler_for("hell")(view, rng)
        assert s.view(seat) == view
        assert s.hands[seat] == g.hands[seat]  # type: ignore[attr-defined]
        differs |= s.hands != g.hands  # type: ignore[attr-defined]
        # nobody holds a card of a suit they have shown void in
        for t in s.tricks:  # type: ignore[attr-defined]
            led = t.cards[0] // 13
            for i, c in enumerate(t.cards[1:], 1):
                if c // 13 != led:
                    holder = (t.leader + i) % players
                    assert not s.hands[holder] & (((1 << 13) - 1) << (13 * led))  # type: ignore[attr-defined]
    hidden_cards = sum(g.view(seat)["hand_sizes"]) - len(view["hand"])
    if hidden_cards > 2:
        assert differs, "five samples all dealt the real hands"


def test_deal_hidden_respects_voids_and_counts() -> None:
    rng = random.Random(3)
    unknown = (1 << 52) - 1
    voids = [0b0001, 0, 0b0110, 0]
    for _ in range(50):
        out = deal_hidden(unknown, [13, 13, 13, 13], voids, rng)
        assert [h.bit_count() for h in out] == [13, 13, 13, 13]
        assert sum(out) == unknown
        assert not out[0] & ((1 << 13) - 1)  # void in spades
        assert not out[2] & (((1 << 26) - 1) << 13)  # void in hearts and diamonds


def test_ismcts_answers_legally_and_beats_random_in_hell() -> None:
    rng = random.Random(1)
    totals = [0.0, 0.0]
    for gi in range(12):
        g = torampu.new_game("hell", cards=5, seed=gi, dealer=gi % 5)
        brng = random.Random(gi)
        while not g.is_over:
            s = g.to_play
            legal = g.legal_actions()
            if s == 0:
                a = ismcts(g.view(0), sampler_for("hell"), rng, iterations=200).action
                assert a in legal
            else:
                a = legal[int(brng.random() * len(legal))]
            g.play(a)
        sc = g.result()["scores"]
        totals[0] += sc[0]
        totals[1] += sum(sc[1:]) / 4
    assert totals[0] > totals[1] + 12 * 4, totals


def test_no_sampler_is_a_clear_error() -> None:
    with pytest.raises(torampu.TorampuError, match="no search sampler"):
        sampler_for("no-such-game")


@pytest.mark.parametrize("seed", range(30))
def test_nap_sample_is_indistinguishable(seed: int) -> None:
    """Apart from the count of redeals (the sample starts at the current deal), the sampled Nap
    game shows the seat exactly its real view."""
    players = 2 + seed % 7
    rules = {"deck": "short"} if players in (3, 4, 5) and seed % 2 else {}
    g = torampu.new_game("nap", rules=rules, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(seed % 25):
        if g.is_over:
            break
        legal = g.legal_moves()
        g.apply(legal[int(rng.random() * len(legal))])
    if g.is_over:
        return
    seat = g.to_play
    assert seat is not None
    view = g.view(seat)
    for _ in range(3):
        s = sampler_for("nap")(view, rng)
        got = s.view(seat)
        got["redeals"] = view["redeals"]
        assert got == view


def test_search_is_reproducible_from_the_seed() -> None:
    """With an iteration budget, the same view and seed give the same search (each sampler is
    fresh: ``sampler_for`` returns a new one per call)."""
    for game, rules in (("napoleon", "classic"), ("daifugo", "yaita"), ("hell", None)):
        g = torampu.new_game(game, rules=rules, seed=4)
        s = g.to_play
        assert s is not None
        runs = [
            ismcts(g.view(s), sampler_for(game), random.Random(9), iterations=60) for _ in range(2)
        ]
        assert runs[0].action == runs[1].action
        assert runs[0].visits == runs[1].visits


def test_napoleon_auction_search_branches_on_the_searchers_bids_only() -> None:
    """Other seats' contract moves follow the policy (scripted), the searcher's own later
    decisions (call, discards) are left to their own search."""
    from torampu.search.rollouts import napoleon_scripted

    g = torampu.new_game("napoleon", rules="classic", seed=2)
    s = g.to_play
    assert s is not None
    root = g.clone()
    assert napoleon_scripted(g, root, random.Random(0).random) is None  # the searcher bids
    g.play("bid 12S")
    step = napoleon_scripted(g, root, random.Random(0).random)
    assert step is not None and step[1]  # another seat's bid: scripted, and seen
    assert g.action_str(step[0]) in g.legal_actions()
    res = ismcts(g.view(g.to_play), sampler_for("napoleon"), random.Random(0), iterations=300)
    assert res.action in g.legal_actions()
    assert set(res.visits) <= set(g.legal_actions())
    assert len(res.visits) <= 16  # a pass and the three cheapest bids of each suit
    while g.phase == "bid":
        g.play("pass")
    assert g.phase == "adjutant"
    sample = sampler_for("napoleon")(g.view(g.to_play), random.Random(1))
    sample.play(sample.legal_actions()[1])
    step = napoleon_scripted(sample, g, random.Random(0).random)
    assert step is not None and step[1]  # the Napoleon's discard, in a later phase: scripted


def test_rollouts_by_game() -> None:
    from torampu.search import rollout_for
    from torampu.search.daifugo_sampler import greedy_rollout
    from torampu.search.ismcts import random_rollout
    from torampu.search.rollouts import napoleon_rollout

    assert rollout_for("napoleon") is napoleon_rollout
    assert rollout_for("daifugo") is greedy_rollout
    assert rollout_for("hell") is random_rollout
    for game in ("napoleon", "nap", "hell", "daifugo"):
        g = torampu.new_game(game, seed=3)
        rollout_for(game)(g, random.Random(0))
        assert g.is_over


def _daifugo_positions(n: int) -> list[torampu.Game]:
    from torampu.bots import make_bot

    out = []
    for seed in range(n):
        g = torampu.new_game("daifugo", rules="yaita", seed=seed)
        heur = make_bot("heuristic", 0, "daifugo")
        steps = 0
        while g.phase != "play" or len(g.legal_actions()) < 3 or steps < 6 + seed:
            s = g.to_play
            assert s is not None
            g.play(heur.choose(g.view(s), g.legal_actions()))
            steps += 1
        out.append(g)
    return out


def test_root_spreads_are_the_reward_deviation_below_each_move() -> None:
    g = _daifugo_positions(1)[0]
    s = g.to_play
    assert s is not None
    res = ismcts(g.view(s), sampler_for("daifugo"), random.Random(3), iterations=120)
    assert res.spreads.keys() == res.values.keys()
    # rewards are in [0, 1], so a deviation is at most 1/2, and some move's rewards vary
    assert all(0.0 <= d <= 0.5 for d in res.spreads.values())
    assert any(d > 0.05 for d in res.spreads.values())


def test_guard_keeps_the_heuristics_move_unless_the_tree_proves_better() -> None:
    """``guard``: an impossible bar is exactly the heuristic's move; no guard is exactly the
    tree's; a usual bar is always one of the two, and the tree's only where the root's figures
    clear the bar."""
    from torampu.bots import make_bot
    from torampu.search.ismcts import guarded

    switched = kept = 0
    for g in _daifugo_positions(8):
        s = g.to_play
        assert s is not None
        view, legal = g.view(s), g.legal_actions()
        own = make_bot("heuristic", 4, "daifugo").choose(view, legal)
        tree = make_bot("ismcts", 4, "daifugo", iterations=150, guard=False)
        bar = make_bot("ismcts", 4, "daifugo", iterations=150, guard=1.0)
        default = make_bot("ismcts", 4, "daifugo", iterations=150)
        wall = make_bot("ismcts", 4, "daifugo", iterations=150, guard=1e9)
        free = tree.choose(view, legal)
        assert wall.choose(view, legal) == own
        # same seed, same search: the guarded bot's answer is the bar applied to that search
        res = ismcts(view, sampler_for("daifugo"), random.Random(0), iterations=150)
        assert guarded(res, own, 1.0) in (res.action, own)
        got = bar.choose(view, legal)
        assert got in (free, own)
        assert default.choose(view, legal) == got  # Daifugo is guarded at 1 by default
        if free != own:
            switched += got == free
            kept += got == own
    assert kept >= 1  # the tree disagreed somewhere without proving it


def test_guard_by_policy_keeps_the_learned_policys_move(tmp_path: Path) -> None:
    """``guard_by=policy``: the move the tree must beat is the learned policy's (``params``'
    file, or the shipped one), not the heuristic's; an impossible bar is exactly that move."""
    from torampu.bots import make_bot
    from torampu.bots.base import BotError
    from torampu.learn.daifugo_policy import Policy, default_policy

    flipped = tmp_path / "flipped.json"
    pol = default_policy()
    Policy([-w for w in pol.weights], dict(pol.meta)).save(flipped)
    differs = 0
    for g in _daifugo_positions(8):
        s = g.to_play
        assert s is not None
        view, legal = g.view(s), g.legal_actions()
        mine = make_bot("policy", 4, "daifugo").choose(view, legal)
        other = make_bot("policy", 4, "daifugo", params=str(flipped)).choose(view, legal)
        wall = make_bot("ismcts", 4, "daifugo", iterations=20, guard=1e9, guard_by="policy")
        assert wall.choose(view, legal) == mine
        by_file = make_bot(
            "ismcts", 4, "daifugo", iterations=20, guard=1e9, guard_by="policy", params=str(flipped)
        )
        assert by_file.choose(view, legal) == other
        differs += mine != make_bot("heuristic", 4, "daifugo").choose(view, legal)
    assert differs >= 1  # the policy's move is not the heuristic's everywhere
    for bad, why in (
        ({"guard_by": "random"}, "guard_by must be heuristic or policy, not 'random'"),
        ({"guard_by": "policy", "game": "hell"}, "guard_by=policy is Daifugo's only"),
    ):
        game = str(bad.pop("game", "daifugo"))
        with pytest.raises(BotError, match=why):
            make_bot("ismcts", 1, game, **bad)


def test_guard_defaults_by_game_and_turns_off() -> None:
    from torampu.bots import make_bot
    from torampu.bots.search import IsmctsBot

    def guard_of(game: str, **kw: object) -> float | None:
        bot = make_bot("ismcts", 1, game, **kw)
        assert isinstance(bot, IsmctsBot)
        return bot.guard

    assert guard_of("daifugo") == 1.0
    assert guard_of("daifugo", guard=2) == 2.0
    assert guard_of("daifugo", guard=False) is None
    assert guard_of("hell") is None and guard_of("nap") is None
    assert guard_of("hell", guard=0.5) == 0.5


@pytest.mark.parametrize(
    ("name", "extra"),
    [("napoleon", {}), ("nap", {}), ("hell", {"cards": 5}), ("daifugo", {})],
)
def test_search_spares_the_collector_and_leaves_no_cycles(name: str, extra: dict[str, int]) -> None:
    """The cyclic collector is off during a search and on again after, with nothing left for
    it to scan at once: what was alive before is frozen at the start, and everything goes to
    its oldest generation at the end. A caller's own frozen objects are left alone. That is
    safe only because a search leaves no reference cycles: none is found after one with the
    collector off."""
    import gc

    g = torampu.new_game(name, seed=3, **extra)
    seen: list[tuple[bool, int]] = []

    def rollout(game: torampu.Game, rng: random.Random) -> None:
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        rollout_for(name)(game, rng)

    view = g.view(g.to_play)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    ismcts(view, sampler_for(name), random.Random(0), iterations=200, rollout=rollout)
    assert seen and all(not on and frozen > 0 for on, frozen in seen)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    young, middle, _ = gc.get_count()
    assert young < 100 and middle == 0  # nothing from the search left young to scan
    gc.freeze()  # a caller's frozen objects stay frozen
    try:
        held = gc.get_freeze_count()
        ismcts(view, sampler_for(name), random.Random(0), iterations=50, rollout=rollout_for(name))
        assert 0 < gc.get_freeze_count() <= held  # not unfrozen (some may have been freed)
    finally:
        gc.unfreeze()
    gc.collect()
    gc.disable()
    try:
        ismcts(view, sampler_for(name), random.Random(1), iterations=300, rollout=rollout_for(name))
        assert not gc.isenabled()  # left off: it was off before
        assert gc.collect() == 0  # no unreachable cycles behind the search
    finally:
        gc.enable()


def test_full_memos_are_freed_at_the_next_search() -> None:
    """A memo that fills up during a search is emptied at once but freed later, at the start of
    the next search (inside its budget), and at most RETIRED_MAX batches ever wait."""
    from torampu.daifugo_plays import RETIRED_MAX, release_memos, retire, retired_entries

    release_memos()
    memos = [{k: (k,) for k in range(100)} for _ in range(RETIRED_MAX + 3)]
    for m in memos:
        retire(m)
        assert not m
    assert retired_entries() == 100 * RETIRED_MAX  # the oldest batches were freed at once
    g = torampu.new_game("daifugo", "uecda", seed=2)
    ismcts(g.view(g.to_play), sampler_for("daifugo"), random.Random(0), iterations=20)
    assert retired_entries() == 0
