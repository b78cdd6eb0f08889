"""The PettingZoo environments (``torampu.envs``): API conformance, masks, rewards, observations.

* PettingZoo's own ``api_test`` and ``seed_test`` pass for every game, with default rules and with
  rule presets that exercise the card choices (Napoleon's 4-player 5-card widow, Daifugo's
  ``yaita`` with 3 jokers, 7渡し, 10捨て and the exchange), Nap with Blücher, Hell of 3 players.
* Random masked policies play whole games: every agent's cumulative reward equals its seat's
  score in ``game.result()`` (or that divided by ``reward_scale``, within [-1, 1]), the game's
  record replays to the same result, and ``reset(seed=s)`` plays ``new_game(…, seed=s)``.
* At every decision: the masked-in direct actions are exactly the engine's legal actions, every
  masked-in index advances to a legal action or to a partial card choice that can still be
  completed, and every legal action string is reached by its ``indices_for`` steps.
* Observations come from ``view(seat)`` only: two games dealt with the same hand for a seat but
  different hidden cards give that seat identical observations as long as its views agree.
"""

from __future__ import annotations

import random
import re
import warnings
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

import torampu
from torampu.daifugo_plays import parse_play, play_str
from torampu.envs import ENVS, Catalogue, CatalogueError, TorampuEnv
from torampu.envs.daifugo_v0 import all_plays
from torampu.envs.layout import CARD_NAMES, card_index
from torampu.errors import IllegalAction

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("napoleon", {}),
    ("napoleon", {"rules": "house-002", "players": 4}),
    ("napoleon", {"rules": "house-001"}),
    ("nap", {}),
    ("nap", {"rules": {"preset": "standard", "blucher": True}, "players": 6}),
    ("hell", {"cards": 5}),
    ("hell", {"players": 3, "cards": 17}),
    ("daifugo", {}),
    ("daifugo", {"rules": "yaita", "titles": [0, 1, 2, 3, 4]}),
    ("daifugo", {"rules": "uecda", "players": 4}),
    ("daifugo", {"rules": {"preset": "standard", "jokers": 0}, "players": 3}),
    ("napoleon", {"rules": "classic-joker", "players": 6}),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(CONFIGS)]


def make_raw(name: str, **kw: Any) -> TorampuEnv:
    env = ENVS[name].raw_env(**kw)
    assert isinstance(env, TorampuEnv)
    return env


def play_random(
    env: TorampuEnv, seed: int, check: Callable[[TorampuEnv], None] | None = None
) -> dict[str, float]:
    """One game with a random masked policy; returns each agent's rewards summed from last()."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(100_000):
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if check is not None:
            check(env)
        env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == [] and env.game.is_over
    return total


# ------------------------------------------------------------------------------ PettingZoo tests
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("name", "kw"), CONFIGS, ids=IDS)
def test_pettingzoo_api_test(name: str, kw: dict[str, Any]) -> None:
    api_test(ENVS[name].env(**kw), num_cycles=1000)
    api_test(ENVS[name].raw_env(**kw), num_cycles=1000)


@pytest.mark.parametrize(("name", "kw"), CONFIGS, ids=IDS)
def test_pettingzoo_seed_test(name: str, kw: dict[str, Any]) -> None:
    seed_test(lambda: ENVS[name].env(**kw), num_cycles=1000)


@pytest.mark.parametrize("name", list(ENVS))
def test_classic_conventions(name: str) -> None:
    env = ENVS[name].env()
    env.reset(seed=3)
    raw = env.unwrapped
    assert isinstance(raw, TorampuEnv)
    assert raw.metadata["name"] == f"{name}_v0"
    assert env.possible_agents == [f"player_{s}" for s in range(raw.n)]
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        assert space is env.observation_space(agent)
        obs = env.observe(agent)
        assert obs is not None and space.contains(obs)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].shape == (int(env.action_space(agent).n),)
        # only the agent to act has a non-zero mask
        assert obs["action_mask"].any() == (agent == env.agent_selection)
    assert env.agent_selection == f"player_{raw.game.to_play}"


# ------------------------------------------------------------------------ whole games, rewards
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), which=st.sampled_from(range(len(CONFIGS))))
def test_random_games_reward_equals_engine_score(seed: int, which: int) -> None:
    name, kw = CONFIGS[which]
    env = make_raw(name, **kw)
    total = play_random(env, seed)
    result = env.game.result()
    assert [total[a] for a in env.possible_agents] == [float(s) for s in result["scores"]]
    # the episode is the engine's game with that seed: its record replays to the same result
    record = env.game.to_record()
    assert record["seed"] == seed
    assert torampu.replay(record).result() == result
    fresh = torampu.new_game(name, rules=env.rules, seed=seed, **env.game_args)
    assert fresh.to_record()["deal"] == record["deal"]


@pytest.mark.parametrize(("name", "kw"), CONFIGS, ids=IDS)
def test_normalized_rewards(name: str, kw: dict[str, Any]) -> None:
    plain = make_raw(name, **kw)
    norm = make_raw(name, normalize_rewards=True, **kw)
    assert plain.reward_scale == norm.reward_scale > 0
    for seed in range(3):
        a = play_random(plain, seed)
        b = play_random(norm, seed)
        for agent in plain.possible_agents:
            assert b[agent] == pytest.approx(a[agent] / norm.reward_scale)
            assert -1.0 <= b[agent] <= 1.0


def test_reward_scales() -> None:
    assert make_raw("napoleon").reward_scale == 4
    win_loss = {"preset": "classic", "scoring": "win_loss"}
    assert make_raw("napoleon", rules=win_loss).reward_scale == 1
    assert make_raw("napoleon", rules={"preset": "classic", "all_twenty": "lose"}).reward_scale == 8
    assert make_raw("nap").reward_scale == 3 * 20  # Wellington won, from 3 players
    assert make_raw("hell", cards=5).reward_scale == 25  # 10 + 3 * 5
    assert make_raw("daifugo", players=4).reward_scale == 4
    assert make_raw("daifugo", rules={"preset": "standard", "points": "zero_sum"}).reward_scale == 2


def test_seeding_is_deterministic() -> None:
    a, b = make_raw("hell", cards=4), make_raw("hell", cards=4)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.game.to_record() == b.game.to_record()
    a.reset()
    b.reset()
    assert a.game.seed == b.game.seed != 11
    assert a.game.to_record()["deal"] == b.game.to_record()["deal"]


def test_reset_options_deal_and_dealer() -> None:
    deal = torampu.new_game("hell", cards=2, seed=5).to_record()["deal"]
    env = make_raw("hell", cards=2)
    env.reset(seed=99, options={"deal": deal, "dealer": 2})
    assert env.game.to_record()["deal"] == deal
    assert env.game.view(None)["dealer"] == 2
    assert env.agent_selection == "player_3"  # the seat after the dealer bids first


# ------------------------------------------------------------------------ masks and catalogues
def check_mask(env: TorampuEnv, sample: int = 60) -> None:
    """The mask of the agent to act against the engine's legal actions (see module docstring)."""
    cat = env.catalogue
    legal_strings = env.legal_action_strings()
    legal = cat.legal(legal_strings)
    partial = env.partial_choice
    mask = env.observe(env.agent_selection)["action_mask"]
    assert np.array_equal(mask, cat.mask(legal, partial))
    on = set(np.flatnonzero(mask).tolist())
    assert on, "an agent to act always has a legal index"
    direct = {a for a in legal_strings if a.split()[0] not in cat.select_verbs}
    if not partial:
        assert {cat.names[i] for i in on if i < cat.n_direct} == direct
    else:
        assert all(i >= cat.n_direct for i in on)
    for i in on:
        got = cat.advance(legal, partial, i)
        if isinstance(got, str):
            assert got in legal_strings
        else:
            assert cat.mask(legal, got).any(), f"{got} cannot be completed"
    rng = random.Random(len(legal_strings))
    off = sorted(set(range(len(cat))) - on)
    for i in rng.sample(off, min(len(off), 40)) + off[-3:]:
        with pytest.raises(IllegalAction):
            cat.advance(legal, partial, i)
    if partial:
        return
    chosen = legal_strings if len(legal_strings) <= sample else rng.sample(legal_strings, sample)
    for action in chosen:
        steps = env.indices_for(action)
        state: tuple[str, ...] | str = ()
        for step in steps:
            assert isinstance(state, tuple)
            assert cat.mask(legal, state)[step] == 1
            state = cat.advance(legal, state, step)
        assert state == action


@pytest.mark.parametrize(("name", "kw"), CONFIGS, ids=IDS)
def test_masks_match_legal_actions(name: str, kw: dict[str, Any]) -> None:
    env = make_raw(name, **kw)
    for seed in range(2):
        play_random(env, seed, check=check_mask)


def test_every_card_choice_kind_is_exercised() -> None:
    """The sub-step choices are really used: Napoleon's discard; Daifugo's give, discard,
    exchange (with ``done`` taken on a choice that could grow) — the game reaches the engine."""
    seen: Counter[str] = Counter()

    def note(env: TorampuEnv) -> None:
        verbs = {a.split()[0] for a in env.legal_action_strings()}
        seen.update(verbs & env.catalogue.select_verbs)
        mask = env.observe(env.agent_selection)["action_mask"]
        if env.catalogue.done_index is not None and mask[env.catalogue.done_index]:
            seen["done"] += 1

    napoleon = make_raw("napoleon", rules="house-002", players=4)
    play_random(napoleon, 1, check=note)
    daifugo = make_raw("daifugo", rules="yaita", titles=[4, 3, 2, 1, 0])
    for seed in range(6):
        play_random(daifugo, seed, check=note)
    assert {"discard", "give", "exchange", "done"} <= set(seen), seen
    verbs = [e["action"].split()[0] for e in daifugo.game.view(0)["log"] if e["action"] != "pass"]
    assert "play" in verbs


def test_daifugo_plays_are_canonical_engine_strings() -> None:
    plays = all_plays(3, True, True)
    assert len(plays) == len(set(plays)) == 20_099
    for p in plays:
        assert play_str(parse_play(p)) == p
    assert len(all_plays(2, True, True)) == 7_935
    assert len(all_plays(1, True, True)) == 2_327
    assert len(all_plays(3, False, True)) == 52 + 1 + 143 + 264  # jokers only alone


def test_catalogue_sizes_documented() -> None:
    assert len(make_raw("napoleon").catalogue) == 218
    assert len(make_raw("nap").catalogue) == 60
    assert len(make_raw("hell", players=5).catalogue) == 10 + 1 + 52
    assert len(make_raw("daifugo", rules="standard").catalogue) == 2_327 + 1 + 53 + 1
    assert len(make_raw("daifugo", rules="yaita").catalogue) == 20_099 + 1 + 53 + 1


choices_strategy = st.lists(
    st.lists(st.sampled_from(["AS", "KH", "2C", "JK"]), min_size=0, max_size=4),
    min_size=1,
    max_size=8,
)


@settings(max_examples=200, deadline=None)
@given(choices=choices_strategy, done=st.booleans())
def test_catalogue_card_choices_property(choices: list[list[str]], done: bool) -> None:
    """Any set of legal multisets of cards: each is reached by its indices, and every masked
    index leads to a legal action or a completable partial choice."""
    cards = ["AS", "KH", "2C", "JK"]
    cat = Catalogue(["pass"], select_verbs=["give"], pick_cards=cards, done=done)
    actions = sorted({" ".join(["give", *sorted(c)]) for c in choices})
    legal = cat.legal(actions)
    for action in actions:
        state: tuple[str, ...] | str = ()
        steps = cat.indices_for(action, legal)
        if not done and (steps == [] or cat.extensions(legal, tuple(action.split()[1:]))[0]):
            continue  # without `done`, a choice that another extends is not reachable
        for step in steps:
            assert isinstance(state, tuple) and cat.mask(legal, state)[step] == 1
            state = cat.advance(legal, state, step)
        assert isinstance(state, str) and Counter(state.split()) == Counter(action.split())
    frontier: list[tuple[str, ...]] = [()]
    while frontier:
        partial = frontier.pop()
        for i in np.flatnonzero(cat.mask(legal, partial)).tolist():
            got = cat.advance(legal, partial, i)
            if isinstance(got, str):
                assert got in actions
            else:
                assert len(got) == len(partial) + 1
                frontier.append(got)


def test_catalogue_errors() -> None:
    cat = Catalogue(["pass", "play AS"])
    with pytest.raises(CatalogueError, match="no index"):
        cat.legal(["play KS"])
    with pytest.raises(CatalogueError, match="twice"):
        Catalogue(["pass", "pass"])
    with pytest.raises(CatalogueError, match="not in the action catalogue"):
        cat.index("bid 7")
    legal = cat.legal(["pass"])
    with pytest.raises(IllegalAction, match="not legal now"):
        cat.advance(legal, (), 1)
    with pytest.raises(IllegalAction, match="outside"):
        cat.advance(legal, (), 2)


# ------------------------------------------------------------------------ illegal indices
def test_illegal_index_raises_and_changes_nothing() -> None:
    env = make_raw("napoleon")
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[-1])
    before = env.game.to_record()
    with pytest.raises(IllegalAction):
        env.step(bad)
    with pytest.raises(IllegalAction):
        env.step(None)
    assert env.game.to_record() == before and env.agent_selection == agent


def test_wrapped_env_ends_the_game_on_an_illegal_index() -> None:
    env = ENVS["hell"].env(cards=3)
    env.reset(seed=4)
    agent = env.agent_selection
    obs, *_ = env.last()
    assert obs is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[-1]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1
    assert all(r == 0 for a, r in env.rewards.items() if a != agent)
    for other in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated and reward == (-1 if other == agent else 0)
        env.step(None)
    assert env.agents == []


def test_render_ansi() -> None:
    env = make_raw("daifugo", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and text.startswith("daifugo  phase: play  to play: player_")
    assert "hand of player_" in text
    play_random(env, 1)
    end = env.render()
    assert end is not None and "scores:" in end
    with pytest.warns(UserWarning, match="render_mode"):
        assert make_raw("hell").render() is None
    with pytest.raises(torampu.RulesError, match="render_mode"):
        make_raw("hell", render_mode="human")


# ------------------------------------------------------------------------ observations
def test_observation_is_the_encoded_view() -> None:
    for name, kw in CONFIGS[::2]:
        env = make_raw(name, **kw)

        def same(env: TorampuEnv) -> None:
            for agent in env.possible_agents:
                seat = int(agent.split("_")[1])
                partial = env.partial_choice if agent == env.agent_selection else ()
                want = env.encode_view(env.game.view(seat), seat, partial)
                got = env.observe(agent)["observation"]
                assert np.array_equal(got, want)
                assert env.observation_space(agent)["observation"].contains(got)

        play_random(env, 7, check=same)


def _swap_hidden(name: str, deal: Mapping[str, Any], observer: int, n: int) -> dict[str, Any]:
    """A deal with the observer's hand unchanged and one card swapped between two other hands
    (never the first lead of Daifugo nor a joker)."""
    keep = {"3D", "4D", "JK"}
    hands = [list(h) for h in deal["hands"]]
    a, b = (observer + 1) % n, (observer + 2) % n
    i = next(k for k, c in enumerate(hands[a]) if c not in keep)
    j = next(k for k, c in enumerate(hands[b]) if c not in keep)
    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    out = {**deal, "hands": hands}
    if name == "napoleon":  # and one card between a hand and the widow
        widow = list(deal["widow"])
        k = (observer + 3) % n
        hands[k][0], widow[0] = widow[0], hands[k][0]
        out["widow"] = widow
    return out


@pytest.mark.parametrize(
    ("name", "kw"),
    [
        ("napoleon", {"rules": "house-001"}),
        ("nap", {}),
        ("hell", {"cards": 6}),
        ("daifugo", {"rules": "yaita"}),
    ],
)
def test_observations_depend_only_on_the_view(name: str, kw: dict[str, Any]) -> None:
    compared = 0
    for seed in range(6):
        one, two = make_raw(name, **kw), make_raw(name, **kw)
        one.reset(seed=seed)
        observer = seed % one.n
        deal = one.game.to_record()["deal"]
        other = _swap_hidden(name, deal, observer, one.n)
        one.reset(seed=seed, options={"deal": deal})
        two.reset(seed=seed, options={"deal": other})
        assert one.game.to_record()["deal"] != two.game.to_record()["deal"]
        me = f"player_{observer}"
        # the seats that hold the swapped cards see the difference at once
        assert not np.array_equal(
            one.observe(f"player_{(observer + 1) % one.n}")["observation"],
            two.observe(f"player_{(observer + 1) % one.n}")["observation"],
        )
        rng = random.Random(seed)
        while not one.game.is_over and one.agent_selection == two.agent_selection:
            if one.game.view(observer) != two.game.view(observer):
                break
            assert np.array_equal(one.observe(me)["observation"], two.observe(me)["observation"])
            assert np.array_equal(one.observe(me)["action_mask"], two.observe(me)["action_mask"])
            compared += 1
            agent = one.agent_selection
            m1 = one.observe(agent)["action_mask"]
            m2 = two.observe(agent)["action_mask"]
            both = np.flatnonzero(m1 & m2)
            if len(both) == 0:
                break
            action = int(rng.choice(list(both)))
            one.step(action)
            two.step(action)
    assert compared >= 20


@pytest.mark.parametrize(("name", "kw"), CONFIGS, ids=IDS)
def test_observation_blocks_hold_what_the_view_says(name: str, kw: dict[str, Any]) -> None:
    phases: set[str] = set()

    def check(env: TorampuEnv) -> None:
        lay, seat = env.layout, env.game.to_play
        assert seat is not None
        view = env.game.view(seat)
        obs = env.observe(env.agent_selection)["observation"]
        hand = [card_index(c) for c in view["hand"] if c != "JK"]
        jokers = view["hand"].count("JK")
        got = np.flatnonzero(obs[lay["hand"]]).tolist()
        if "hand_jokers" in lay:  # Daifugo: jokers counted apart
            assert got == sorted(hand)
            assert obs[lay["hand_jokers"]].sum() == min(jokers, 3)
        else:
            assert got == sorted(hand + [52] * jokers)
        assert obs[lay["to_play"]][0] == 1 and obs[lay["to_play"]].sum() == 1
        assert obs[lay["phase"]].sum() == 1
        phases.add(view["phase"])
        partial = env.partial_choice
        if "picked_jokers" in lay:
            assert obs[lay["picked"]].sum() == len([c for c in partial if c != "JK"])
            assert obs[lay["picked_jokers"]].sum() == partial.count("JK")
        elif "picked" in lay:
            assert obs[lay["picked"]].sum() == len(partial)
        if "played" in lay and name != "daifugo":
            done = sum(len(t["cards"]) for t in view["tricks"]) + len(view["trick"])
            assert obs[lay["played"]].sum() == done
            assert obs[lay["trick"]].sum() == len(view["trick"])
        if name == "daifugo" and view["table"] is not None:
            real = [c for c in view["table"]["cards"] if not c.startswith("JK")]
            assert obs[lay["table"]].sum() == len(real)
            assert obs[lay["table_by"]].sum() == 1

    env = make_raw(name, **kw)
    for seed in range(2):
        play_random(env, seed, check=check)
    assert "play" in phases


@pytest.mark.parametrize("name", list(ENVS))
def test_layout_table_in_docstring(name: str) -> None:
    """The module docstring's observation table lists the layout's blocks, in order."""
    module = ENVS[name]
    env = make_raw(name)
    documented = re.findall(r"^\| `(\w+)` \|", module.__doc__ or "", flags=re.M)
    blocks = [b for b, _, _ in env.layout.blocks]
    # Daifugo documents a card block and its jokers in one row ("52 + 3")
    assert documented == [b for b in blocks if not b.endswith("_jokers")]
    assert env.layout.table().count("\n") == len(blocks) + 1
    assert env.layout.size == env.observation_space("player_0")["observation"].shape[0]


def test_card_names() -> None:
    assert len(CARD_NAMES) == 53 and CARD_NAMES[12] == "AS" and CARD_NAMES[-1] == "JK"
    assert len(set(CARD_NAMES)) == 53
