"""The Daifugo sampler: determinizations rebuilt from one seat's view.

A sample must be a game the seat cannot tell from the real one: from the seat's own view, every
public fact and its own hand are the same (everything but the exchange's bookkeeping, which the
sample starts after); the hidden cards vary from sample to sample; and the sample is a function
of the view alone.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import torampu
from torampu.bots import make_bot
from torampu.search import sampler_for
from torampu.search.daifugo_sampler import STARTS_AFTER, SamplerError, pooled, sample_daifugo

MATCHES: dict[int, Any] = {}


def m_view(g: Any, seat: int) -> Any:
    """The view a match gives (with its ``match`` block) of its current game ``g``."""
    return {**MATCHES[id(g)].view(seat)}


def positions(preset: str, seeds: range, every: float = 0.2) -> Iterator[tuple[Any, int]]:
    """Decision points of random 3-game matches (play, 7渡し and 10捨て; titles from game 2)."""
    for seed in seeds:
        m = torampu.new_match("daifugo", rules=preset, games=3, seed=seed)
        bots = [make_bot("random", seed=seed * 10 + s, game="daifugo") for s in range(m.n)]
        pick = random.Random(seed)
        while not m.is_over:
            g = m.game
            s = g.to_play
            assert s is not None
            if g.phase != "exchange" and pick.random() < every:
                MATCHES[id(g)] = m
                yield g, s
            m.play(bots[s].choose(g.view(s), g.legal_actions()))


@pytest.mark.parametrize("preset", ["standard", "yaita", "uecda"])
def test_samples_look_the_same_from_the_seat(preset: str) -> None:
    built = failed = 0
    for g, s in positions(preset, range(6)):
        view = g.view(s)
        if built % 2:  # what a bot in a match is given: the match's view of the game
            view = m_view(g, s)
        try:
            sample = sample_daifugo(view, random.Random(built))
        except SamplerError:
            failed += 1
            continue
        built += 1
        mine = sample.view(s)
        for key, value in view.items():
            if key not in STARTS_AFTER:
                assert mine[key] == value, key
        assert sample.legal_actions() == g.legal_actions()
    assert built > 100
    assert failed <= built * 0.02, (failed, built)  # the bot falls back to its heuristic


def test_hidden_cards_vary_and_depend_on_the_view_alone() -> None:
    g = torampu.new_game("daifugo", rules="yaita", seed=8)
    bots = [make_bot("random", seed=s, game="daifugo") for s in range(5)]
    while len(g.view(None)["log"]) < 20:
        s = g.to_play
        assert s is not None
        g.play(bots[s].choose(g.view(s), g.legal_actions()))
    s = g.to_play
    assert s is not None
    view = g.view(s)
    others = [o for o in range(5) if o != s]
    hands = set()
    for k in range(20):
        sample = sample_daifugo(view, random.Random(k))
        hands.add(tuple(tuple(sample.view(o)["hand"]) for o in others))
        # the same view, rebuilt from JSON, with the same generator: the same sample
        again = sample_daifugo(json.loads(json.dumps(view)), random.Random(k))
        assert [again.view(o)["hand"] for o in range(5)] == [
            sample.view(o)["hand"] for o in range(5)
        ]
    assert len(hands) == 20


def test_the_exchange_is_searched_too() -> None:
    m = torampu.new_match("daifugo", rules="standard", games=2, seed=3)
    bots = [make_bot("heuristic", seed=s, game="daifugo") for s in range(5)]
    while m.games_played < 1:
        s = m.game.to_play
        assert s is not None
        m.play(bots[s].choose(m.game.view(s), m.game.legal_actions()))
    g = m.game
    assert g.phase == "exchange"
    s = g.to_play
    assert s is not None
    assert sample_daifugo(g.view(s), random.Random(0)).view(s) == g.view(s)
    bot = make_bot("ismcts", seed=1, game="daifugo", iterations=20)
    assert bot.choose(g.view(s), g.legal_actions()) in g.legal_actions()
    assert bot.last_iterations == 20  # type: ignore[attr-defined]


def test_pooled_samples_are_clones_of_a_few() -> None:
    g = torampu.new_game("daifugo", rules="standard", seed=2)
    g.play(g.legal_actions()[0])
    s = g.to_play
    assert s is not None
    view = g.view(s)
    sample = pooled(sample_daifugo, size=3)
    rng = random.Random(0)
    games = [sample(view, rng) for _ in range(7)]
    deals = [tuple(tuple(x.view(o)["hand"]) for o in range(5)) for x in games]
    assert deals[3] == deals[0] and deals[4] == deals[1] and deals[6] == deals[0]
    games[0].play(games[0].legal_actions()[-1])  # a clone: the pool is not changed
    assert sample(view, rng).view(None)["log"] == view["log"]
    assert sampler_for("daifugo")(view, rng).to_play == s


@pytest.mark.parametrize("preset", ["standard", "yaita"])
def test_ismcts_plays_legal_moves_at_every_kind_of_decision(preset: str) -> None:
    m = torampu.new_match("daifugo", rules=preset, games=2, seed=5)
    bot = make_bot("ismcts", seed=2, game="daifugo", iterations=8)
    rand = make_bot("random", seed=2, game="daifugo")
    phases = set()
    while not m.is_over:
        g = m.game
        s = g.to_play
        assert s is not None
        legal = g.legal_actions()
        who = bot if s in (0, 1) else rand
        action = who.choose(g.view(s), legal)
        assert action in legal
        if who is bot:
            phases.add(g.phase)
        m.play(action)
    assert "play" in phases


@pytest.mark.parametrize("preset", ["standard", "yaita", "uecda"])
def test_greedy_rollout_finishes_games_by_the_rules(preset: str) -> None:
    from torampu.search.daifugo_sampler import greedy_rollout

    for seed in range(10):
        g = torampu.new_game("daifugo", rules=preset, seed=seed)
        a, b = g.clone(), g.clone()
        greedy_rollout(a, random.Random(seed))
        greedy_rollout(b, random.Random(seed))
        assert a.is_over and a.result() == b.result()
        assert sorted(a.result()["scores"]) == [1, 2, 3, 4, 5]
        # every move it made is legal: its record replays
        assert torampu.replay(a.to_record()).result() == a.result()


def _after_exchange(seed: int, plays: int) -> Any:
    """A ``uecda`` match in game 2's play phase (after its exchange), ``plays`` moves in."""
    m = torampu.new_match("daifugo", "uecda", games=3, seed=seed)
    rng = random.Random(seed)
    while m.games_played < 1 or m.phase != "play":
        a = m.legal_actions()
        m.play(a[int(rng.random() * len(a))])
    for _ in range(plays):
        a = m.legal_actions()
        m.play(a[int(rng.random() * len(a))])
    assert m.games_played == 1 and m.phase == "play"
    return m


@pytest.mark.parametrize("seed", range(4))
def test_the_cards_a_seat_handed_over_are_dealt_to_its_partner(seed: int) -> None:
    """The poor seat knows the rich one holds its best cards (less what came back), the rich
    seat that the poor one holds what it returned: every sample deals them there (unless they
    were played since), which a deal blind to the exchange seldom does."""
    m = _after_exchange(seed, plays=6)
    g = m.game
    for e in g.exchanges:
        for me, partner, sent in (
            (e["poor"], e["rich"], [c for c in e["given"] if c not in e["returned"]]),
            (e["rich"], e["poor"], [c for c in e["returned"] if c not in e["given"]]),
        ):
            view = m.view(me)
            held = set(g.view(partner)["hand"])
            still = [c for c in sent if c in held]  # not played since
            assert any(r.get("given") for r in view["exchange"])
            informed = blind = 0
            for k in range(30):
                s = sample_daifugo(view, random.Random(k))
                informed += all(c in s.view(partner)["hand"] for c in still)
                b = sample_daifugo(view, random.Random(k), exchange=False)
                blind += all(c in b.view(partner)["hand"] for c in still)
            assert informed == 30
            if still:
                assert blind < 30


def test_the_rich_seat_bounds_the_poor_ones_other_cards() -> None:
    """The poor gave every joker and then its best real cards: in the rich seat's samples the
    poor one holds no joker and nothing of a higher rank than the weakest real card it gave
    (the cards the rich returned aside)."""
    from torampu.daifugo_plays import DRANK, parse_play

    bound_bites = 0
    for seed in range(40):
        m = _after_exchange(seed, plays=0)
        g = m.game
        e = next(x for x in g.exchanges if x["count"] == 2)
        real = [parse_play(c) for c in e["given"] if not c.startswith("JK")]
        if not real:
            continue
        top = min(DRANK[(p & -p).bit_length() - 1] for p in real)
        if top == 12:  # the poor gave 2s: nothing to bound
            continue
        bound_bites += 1
        view = m.view(e["rich"])
        for k in range(10):
            s = sample_daifugo(view, random.Random(k))
            kept = [c for c in s.view(e["poor"])["hand"] if c not in e["returned"]]
            assert not any(c.startswith("JK") for c in kept)
            ranks = [DRANK[(p & -p).bit_length() - 1] for p in map(parse_play, kept)]
            assert max(ranks) <= top, (e, kept)
        if bound_bites >= 3:
            break
    assert bound_bites >= 3


def test_the_exchanges_a_seat_did_not_see_are_played_on_its_deals() -> None:
    """``unseen``: for an exchange the seat took no part in, the poor one gave its best cards.
    At the start of play the 大貧民 (when not the searching seat) never holds the joker in
    such a sample, and the rich seats hold more high cards than in a deal blind to it; the
    samples still look the same from the seat."""
    from torampu.daifugo_plays import DRANK, parse_play

    def high(hand: list[str]) -> int:  # jokers, 2s and aces
        return sum(c.startswith("JK") or DRANK[parse_play(c).bit_length() - 1] >= 11 for c in hand)

    rich_high = {True: 0, False: 0}
    poor_jokers = {True: 0, False: 0}
    checked = 0
    for seed in range(12):
        m = _after_exchange(seed, plays=0)
        g = m.game
        rows = {e["count"]: e for e in g.exchanges}
        if 2 not in rows:
            continue
        daifugo, daihinmin = rows[2]["rich"], rows[2]["poor"]
        pairs = [(e["rich"], e["poor"]) for e in g.exchanges]
        me = next(s for s in range(g.n) if all(s not in p for p in pairs))
        view = m.view(me)
        assert all("given" not in r for r in view["exchange"])
        checked += 1
        for unseen in (True, False):
            for k in range(20):
                s = sample_daifugo(view, random.Random(k), unseen=unseen)
                mine = s.view(me)
                assert mine["hand"] == view["hand"] and mine["log"] == view["log"]
                poor_jokers[unseen] += any(c.startswith("JK") for c in s.view(daihinmin)["hand"])
                rich_high[unseen] += high(s.view(daifugo)["hand"])
    assert checked >= 5
    assert poor_jokers[True] == 0 and poor_jokers[False] > 0
    assert rich_high[True] > rich_high[False] * 1.2, rich_high


def _deal_and_play(hands: list[list[str]], rules: dict[str, Any], moves: list[str]) -> torampu.Game:
    """A Daifugo game of ``hands`` (each filled up with cards nobody plays, to 14/13/13/13)
    after ``moves`` (a move written in any order of its cards; "give?" gives one card not
    named, unseen by the others)."""
    names = [r + s for r in "23456789TJQKA" for s in "SHDC"] + ["JK"]
    used = {c for h in hands for c in h}
    rest = [c for c in names if c not in used]
    random.Random(1).shuffle(rest)
    full = [list(h) for h in hands]
    for s, size in enumerate((14, 13, 13, 13)):
        while len(full[s]) < size:
            full[s].append(rest.pop())
    g = torampu.new_game("daifugo", rules=rules, players=4, deal={"hands": full})
    for a in moves:
        legal = g.legal_actions_up_to(5000)
        if a == "give?":
            a = next(x for x in legal if x != "give" and x.split()[1][0] not in "34567")
        else:
            a = next(x for x in legal if sorted(x.split()) == sorted(a.split()))
        g.play(a)
    return g


def test_a_card_given_before_the_hands_went_round_is_not_taken_back_by_a_later_give() -> None:
    """A code review: seat 0 gives ♠4 to seat 1 (7渡し, seen); a big seven sends seat 1's hand
    on to seat 2; seat 1 gives seat 2 a card unseen; seat 2 plays ♠4. Undoing the unseen give,
    the sampler took ♠4 first as the card given — but it reached seat 2 with the hand, and
    every try put it in two hands (no sample). The hands' going round ends what a give may be
    taken to hold."""
    rules = {"preset": "standard", "seven_pass": True, "big_seven": True}
    hands = [["3D", "7D", "4S", "7C", "3S"], ["4C", "9C"], ["5C", "TC", "5D"]]
    hands.append(["6C", "JC", "7H", "7S", "JK"])
    moves = ["play 3D", "play 4C", "play 5C", "play 6C", "play 7D", "give 4S", "play 9C"]
    moves += ["play TC", "play JC", "pass", "pass", "pass", "play 7H 7S JK", "pass", "pass"]
    moves += ["pass", "play 5D", "pass", "play 7C", "give?", "pass", "pass", "pass", "play 3S"]
    moves += ["play 4S", "pass"]
    g = _deal_and_play(hands, rules, moves)
    view = g.view(0)
    assert any(e.get("cards") == ["4S"] for e in view["log"])  # (seen by seat 0, its giver)
    for k in range(10):
        sample_daifugo(view, random.Random(k), tries=30)  # (SamplerError before)
