"""Property tests of Daifugo (hypothesis): whole random games and matches under random rules.

Every example draws rules (a preset, ``standard`` or ``yaita``, plus overrides drawn per option
from ``torampu.rules("daifugo")``; combinations that raise ``RulesError`` are skipped after
checking that they are the documented ones), a player count 2–8 and seeds, then plays random legal
actions through the public API. Checked at every step or at the end:

* random legal play ends within a bound;
* cards are conserved: ``cards_accounted()`` is the whole deck (52 cards and the jokers) at every
  step, hand sizes add up, and the hands each seat sees are disjoint;
* the legal actions are distinct, deterministic, and the fast path names the same moves; with
  a table, they are exactly the plays of the hand that may follow it, in the order of all plays;
* the result's ranking and titles are a permutation of the seats / of the titles for n players,
  fouls rank last and the scores follow ``points``;
* records replay to the same record (after a JSON round trip; matches with ``replay_match``);
* illegal actions raise ``IllegalAction`` and change neither the record nor any view;
* no view leaks a card hidden from its seat (``torampu.testing.check_no_leak``);
* ``clone()`` is independent of its original, both ways.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import strategies as st

import torampu
from torampu import IllegalAction, RulesError
from torampu.daifugo_plays import PASS, all_plays
from torampu.game import CHOICES_LISTED
from torampu.testing import check_no_leak

OPTIONS = {o["name"]: o for o in torampu.rules("daifugo")}
RULE_NAMES = [name for name in OPTIONS if name != "players"]
PRESETS = ["standard", "yaita"]
PRESET_OPTIONS = {name: p["options"] for name, p in torampu.presets("daifugo").items()}
DEFAULTS = {name: o["default"] for name, o in OPTIONS.items()}
FULL_DECK = (1 << 52) - 1
CARDS = [r + s for s in "SHDC" for r in "A23456789TJQK"]
MAX_STEPS = 4_000
POINTS = {"daifugo": 2, "fugo": 1, "heimin": 0, "hinmin": -1, "daihinmin": -2}

_PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink)
GAMES = settings(
    max_examples=100,
    deadline=None,
    phases=_PHASES,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
MATCHES = settings(GAMES, max_examples=25)


def title_names(n: int) -> list[str]:
    """rules.md §4: 5 players one 平民, 4 none, 3: 大富豪, 平民, 大貧民 (2: 大富豪, 大貧民)."""
    if n == 2:
        return ["daifugo", "daihinmin"]
    if n == 3:
        return ["daifugo", "heimin", "daihinmin"]
    return ["daifugo", "fugo"] + ["heimin"] * (n - 4) + ["hinmin", "daihinmin"]


@st.composite
def rule_choices(draw: st.DrawFn) -> dict[str, Any]:
    """``{"preset": p, **overrides}``: each option overridden or not, its value drawn from its
    documented values."""
    out: dict[str, Any] = {"preset": draw(st.sampled_from(PRESETS))}
    for name in RULE_NAMES:
        if draw(st.booleans()):
            o = OPTIONS[name]
            if o["type"] == "set":
                out[name] = draw(st.lists(st.sampled_from(o["values"]), unique=True))
            else:
                out[name] = draw(st.sampled_from(o["values"]))
    return out


def expected_rules(rules: dict[str, Any], players: int) -> dict[str, Any]:
    given_ = dict(rules)
    out = dict(DEFAULTS)
    out.update(PRESET_OPTIONS[given_.pop("preset")])
    out.update(given_)
    out["players"] = players
    return out


def contradictions(r: dict[str, Any]) -> set[str]:
    """rules.md/engine: stair revolutions need runs; 防衛 changes the exchange."""
    faults = set()
    if r["stair_revolution"] and not r["stairs"]:
        faults.add("stair_revolution")
    if r["defense"] and not r["exchange"]:
        faults.add("defense")
    return faults


def make(rules: dict[str, Any], players: int, seed: int, match_games: int = 0) -> Any:
    """A game (or match), or reject the example after checking the RulesError is documented."""
    expected = expected_rules(rules, players)
    faults = contradictions(expected)
    try:
        if match_games:
            obj: Any = torampu.new_match(
                "daifugo", rules=rules, players=players, games=match_games, seed=seed
            )
        else:
            obj = torampu.new_game("daifugo", rules=rules, players=players, seed=seed)
    except RulesError as e:
        assert faults, f"RulesError for a combination with no documented contradiction: {e}"
        assert any(f"'{f}'" in str(e) for f in faults), e
        reject()
    assert not faults, f"no RulesError although {faults} contradict"
    resolved = obj.to_record()["rules"]
    assert {k: sorted(v) if isinstance(v, list) else v for k, v in resolved.items()} == {
        k: sorted(v) if isinstance(v, list) else v for k, v in expected.items()
    }
    return obj


# ------------------------------------------------------------------------------------ checks
def snapshot(g: Any) -> str:
    return json.dumps([g.to_record(), [g.view(s) for s in [None, *range(g.players)]]])


def check_cards(g: Any) -> None:
    """The whole deck is somewhere, every hand is disjoint, the sizes add up."""
    jokers = g.rules["jokers"]
    real, jk = g.cards_accounted()
    assert real == FULL_DECK and jk == jokers, "a card was lost or created"
    hands = [g.view(s)["hand"] for s in range(g.players)]
    held = Counter(c for h in hands for c in h)
    assert all(k == 1 for c, k in held.items() if c != "JK"), "a card is in two hands"
    assert held["JK"] <= jokers
    assert g.view(None)["hand_sizes"] == [len(h) for h in hands]


def check_legal(g: Any) -> list[str]:
    legal: list[str] = g.legal_actions()
    assert legal, "no legal action in a game that is not over"
    assert len(set(legal)) == len(legal), "a legal action is listed twice"
    assert legal == g.legal_actions()
    assert [g.action_str(m) for m in g.legal_moves()] == legal
    if g.phase == "play" and g.table_info is not None:  # the by-shape shortcut is exact
        s = g.to_play
        every = all_plays(g.hands[s], g.jok[s], g.wild, g.rules["stairs"])
        assert g.legal_moves() == [PASS, *(m for m in every if g._beats(m) is not None)]
    for a in legal:  # cards ascending: each action is its own canonical form
        if a.startswith("play "):
            assert g.action_str(g.parse_action(a)) == a
    # a choice of cards is described (its verb, bounds and number of ways) and checked without
    # the list; a view lists it only up to CHOICES_LISTED ways
    ch = g.choose()
    if g.phase == "play":
        assert ch is None
    else:
        assert ch is not None and ch["ways"] == len(legal), (ch, len(legal))
        sizes = [len(a.split()) - 1 for a in legal]
        assert {a.split()[0] for a in legal} == {ch["verb"]}
        assert (min(sizes), max(sizes)) == (
            ch["min"],
            min(ch["max"], len(g.view(g.to_play)["hand"])),
        )
        # a bot's part of a choice of many ways: the smallest choices, every one legal
        part = g.legal_actions_up_to(40)
        if ch["ways"] <= 40:
            assert part == legal
        else:
            sizes_in = {len(a.split()) - 1 for a in part}
            assert set(part) <= set(legal) and min(sizes_in) == ch["min"], (ch, part[:5])
            assert len(part) <= 40 or sizes_in == {ch["min"]}, (ch, len(part))
        # and whether it is a part, told without the list
        assert g.offers_in_part(40) is (len(part) < len(legal)), (ch, len(part), len(legal))
    assert g.offers_in_part(40) is False or ch is not None
    view = g.view(g.to_play)
    assert view["choose"] == ch
    assert view["legal_actions"] == (legal if ch is None or ch["ways"] <= CHOICES_LISTED else [])
    assert all(g.is_legal(a) for a in legal[:200])
    return legal


def bad_actions(g: Any, legal: list[str], rng: random.Random) -> list[str]:
    cands = ["", "xyz", "play", "play ZZ", "pass pass", "play 9S 9S", "give", "discard"]
    cands += ["exchange 3C", "play JK JK JK JK", "pass"]
    cands += [f"play {c}" for c in rng.sample(CARDS, 6)]
    cands += [f"give {c}" for c in rng.sample(CARDS, 2)]
    hand = g.view(g.to_play)["hand"]
    if len(hand) >= 2:
        cands.append("play " + " ".join(rng.sample(hand, 2)))
    ch = g.choose()
    if ch is not None:  # one card too many, and one not held
        if len(hand) > ch["max"]:
            cands.append(" ".join([ch["verb"], *rng.sample(hand, ch["max"] + 1)]))
        away = [c for c in CARDS if c not in hand]
        if away and 0 < ch["max"] <= len(hand) + 1:
            cands.append(" ".join([ch["verb"], *rng.sample(hand, ch["max"] - 1), away[0]]))
    out = []
    for a in cands:
        try:
            canonical = g.action_str(g.parse_action(a))
        except IllegalAction:
            canonical = None
        if a not in legal and canonical not in legal:  # "play 4S 4D" is "play 4D 4S"
            out.append(a)
    return out


def check_illegal(g: Any, legal: list[str], rng: random.Random) -> None:
    before = snapshot(g)
    for bad in bad_actions(g, legal, rng):
        assert not g.is_legal(bad), bad
        try:
            g.play(bad)
        except IllegalAction as e:
            assert str(e), "an IllegalAction without a reason"
        else:
            raise AssertionError(f"illegal action {bad!r} was accepted")
    assert snapshot(g) == before, "an illegal action changed the game"


def check_clone(g: Any, legal: list[str], rng: random.Random) -> tuple[Any, str]:
    """Playing on a clone leaves the original alone; returns a fresh clone and its record, for
    the caller to check after playing on the original."""
    before = json.dumps(g.to_record())
    c = g.clone()
    c.play(rng.choice(legal))
    assert json.dumps(g.to_record()) == before, "playing on a clone changed the original"
    fresh = g.clone()
    return fresh, json.dumps([fresh.to_record(), [fresh.view(s) for s in range(g.players)]])


def check_result(g: Any) -> None:
    n = g.players
    res = g.result()
    assert sorted(res["ranking"]) == list(range(n)), "the ranking is not a permutation"
    assert Counter(t for t in res["titles"]) == Counter(title_names(n))
    names = title_names(n)
    for pos, s in enumerate(res["ranking"]):
        assert res["titles"][s] == names[pos]
    fouls = res["fouls"]
    if fouls and not res["great_revolution"]:
        assert res["ranking"][n - len(fouls) :] == fouls, "fouls do not rank last, in order"
    if res["fallen"] is not None and not res["great_revolution"]:
        assert res["ranking"].index(res["fallen"]) == n - len(fouls) - 1
    if g.rules["points"] == "rank":
        assert [res["scores"][s] for s in res["ranking"]] == list(range(n, 0, -1))
    else:
        assert [res["scores"][s] for s in res["ranking"]] == [POINTS[t] for t in names]
    assert res["winners"] == [res["ranking"][0]]
    json.dumps(res)


def step(g: Any, rng: random.Random, deep: float) -> None:
    """One random legal action, with the per-step checks (some only with probability ``deep``)."""
    legal = check_legal(g)
    check_cards(g)
    if rng.random() < deep:
        check_no_leak(g)
        check_illegal(g, legal, rng)
        clone, clone_before = check_clone(g, legal, rng)
        g.play(rng.choice(legal))
        after = json.dumps([clone.to_record(), [clone.view(s) for s in range(g.players)]])
        assert after == clone_before, "playing on the original changed a clone"
        return
    g.play(rng.choice(legal))


# ------------------------------------------------------------------------------------ games
RANDOM_GAME = given(
    rule_choices(),
    st.integers(2, 8),
    st.integers(0, 2**63 - 1),
    st.integers(0, 2**32 - 1),
)
"""The arguments of a random game: rules, players, the deal's seed and the moves' seed."""


@GAMES
@RANDOM_GAME
def test_random_games(rules: dict[str, Any], players: int, seed: int, policy: int) -> None:
    g = make(rules, players, seed)
    rng = random.Random(policy)
    steps = 0
    while not g.is_over:
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
        step(g, rng, deep=0.05)
    check_cards(g)
    check_no_leak(g)
    check_result(g)
    assert g.legal_actions() == [] and g.to_play is None
    rec = json.loads(json.dumps(g.to_record()))
    again = torampu.replay(rec)
    assert again.to_record() == rec
    assert again.view(None) == g.view(None)
    # the fast path plays to the end too, and its record replays
    fast = torampu.new_game("daifugo", rules=rules, players=players, seed=seed)
    fast.playout(random.Random(policy))  # type: ignore[attr-defined]
    assert fast.is_over
    frec = fast.to_record()
    assert torampu.replay(json.loads(json.dumps(frec))).to_record() == frec


@GAMES
@given(
    rule_choices(),
    st.integers(3, 8),
    st.integers(0, 2**63 - 1),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2),  # 防衛 count: the 大富豪 returns 2-4 cards (a 5-card return lists ~15k)
)
def test_random_later_games(
    rules: dict[str, Any], players: int, seed: int, policy: int, defended: int
) -> None:
    """Later games of a match (titles given): exchange, 天変地異, 都落ち, 大革命, at random."""
    expected = expected_rules(rules, players)
    if contradictions(expected):
        reject()
    rng = random.Random(policy)
    titles = list(range(players))
    rng.shuffle(titles)
    g = torampu.new_game(
        "daifugo", rules=rules, players=players, seed=seed, titles=titles, defense=defended
    )
    steps = 0
    while not g.is_over:
        steps += 1
        assert steps < MAX_STEPS
        step(g, rng, deep=0.05)
    check_cards(g)
    check_no_leak(g)
    check_result(g)
    res = g.result()
    if res["great_revolution"]:
        assert res["ranking"] == sorted(range(players), key=lambda s: -titles[s])
    rec = json.loads(json.dumps(g.to_record()))
    assert torampu.replay(rec).to_record() == rec


# ---------------------------------------------------------------------------------- matches
@MATCHES
@given(
    rule_choices(),
    st.integers(2, 8),
    st.integers(2, 3),
    st.integers(0, 2**63 - 1),
    st.integers(0, 2**32 - 1),
)
def test_random_matches(
    rules: dict[str, Any], players: int, games: int, seed: int, policy: int
) -> None:
    m = make(rules, players, seed, match_games=games)
    rng = random.Random(policy)
    steps = 0
    while not m.is_over:
        steps += 1
        assert steps < MAX_STEPS * games
        g = m.game
        legal = check_legal(g)
        assert m.legal_actions() == legal and m.to_play == g.to_play
        check_cards(g)
        if rng.random() < 0.03:
            check_no_leak(g)
            check_illegal(g, legal, rng)
        m.play(rng.choice(legal))
    st_ = m.standings()
    recs = m.to_record()["records"]
    assert len(recs) == games == st_["games_played"]
    assert st_["totals"] == [sum(r["result"]["scores"][s] for r in recs) for s in range(players)]
    prev = None
    reset = m.rules["rank_reset"]  # titles forgotten before games reset+1, 2·reset+1, …
    for k, rec in enumerate(recs):
        g = torampu.replay(rec)
        assert g.to_record() == rec
        check_result(g)
        if prev is None or (reset and k % reset == 0):
            assert rec.get("titles") is None
        else:
            assert rec["titles"] == [prev["result"]["ranking"].index(s) for s in range(players)]
        prev = rec
    assert st_["titles"] == recs[-1]["result"]["titles"]
    mrec = json.loads(json.dumps(m.to_record()))
    assert torampu.replay_match(mrec).to_record() == mrec


@GAMES
@RANDOM_GAME
def test_quiet_games_play_the_same(
    rules: dict[str, Any], players: int, seed: int, policy: int
) -> None:
    """A game playing ``quiet`` (a search's playout) offers the same moves and ends the same,
    its log unwritten from then on; so does a clone of it."""
    g = make(rules, players, seed)
    rng = random.Random(policy)
    q = g.clone()
    q.quiet = True
    logged = len(q.log)
    steps = 0
    while not g.is_over:
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
        moves = g.legal_moves()
        assert q.legal_moves() == moves
        m = moves[int(rng.random() * len(moves))]
        g.apply(m)
        q.apply(m)
        if rng.random() < 0.05:
            q = q.clone()
            assert q.quiet
    assert q.is_over and q.history == g.history and q.result() == g.result()
    assert len(q.log) == logged < len(g.log)
    plain, quiet = g.view(None), q.view(None)
    assert {k: v for k, v in quiet.items() if k != "log"} == {
        k: v for k, v in plain.items() if k != "log"
    }
