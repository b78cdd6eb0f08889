"""Samplers for search: Napoleon and Daifugo determinizations from every decision point.

A determinization must be a game the seat cannot tell from the real one — its own view of the
sample is the real view, key by key (its hand, the cards played, every hand size, the auction,
the exchange, the legal actions) —, must respect what play has shown (a seat that did not follow
holds none of the led suit; after a joker call whoever did not answer holds no joker; the poor
of an exchange held nothing stronger than what it gave), and must vary where the seat cannot
see. ISMCTS then answers legally from every kind of decision of the four games.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import torampu
from torampu.bots import make_bot
from torampu.cards import JOKER, JOKER_BIT, parse_card
from torampu.daifugo_plays import card_at
from torampu.napoleon import MIGHTY, Napoleon
from torampu.search import ismcts, rollout_for, sampler_for
from torampu.search.daifugo_sampler import STARTS_AFTER, sample_daifugo
from torampu.search.napoleon_sampler import NapoleonBase, hidden_summary
from torampu.search.rollouts import (
    candidate_moves,
    discard_candidates,
    napoleon_contract_move,
    napoleon_playout,
)

NAPOLEON_PRESETS = sorted(torampu.presets("napoleon"))
PHASES = ("bid", "adjutant", "exchange", "play")


# ------------------------------------------------------------------------------- Napoleon
def napoleon_position(
    preset: str | dict[str, Any], seed: int, target: str, depth: int
) -> Napoleon | None:
    """A game stopped in ``target`` after ``depth`` moves in it (or at its last decision there),
    played by heuristic bots with some random moves; ``None`` if it never reached ``target``
    (a Napoleon who calls after the exchange has no adjutant phase before it)."""
    g = torampu.new_game("napoleon", rules=preset, seed=seed)
    assert isinstance(g, Napoleon)
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seed=s, game="napoleon") for s in range(g.n)]
    steps = 0
    last: Napoleon | None = None
    while not g.is_over:
        if g.phase == target:
            if steps >= depth:
                return g
            steps += 1
            last = g.clone()  # type: ignore[assignment]
        elif last is not None:
            return last
        s = g.to_play
        assert s is not None
        legal = g.legal_actions()
        if rng.random() < 0.3:
            g.play(legal[int(rng.random() * len(legal))])
        else:
            g.play(bots[s].choose(g.view(s), legal))
    return last


def shown_restrictions(g: Napoleon) -> list[int]:
    """Per seat, the cards play has shown it cannot hold now (read from the real game)."""
    forbid = [0] * g.n
    tricks = [(t.cards, t.leader, bool((t.note or {}).get("called"))) for t in g.tricks]
    if g.trick:
        tricks.append((g.trick, g.leader, g.call_active))
    for cards, leader, called in tricks:
        led = g.lead_suit[cards[0]]
        if called:
            forbid[leader] |= JOKER_BIT
        for i, c in enumerate(cards[1:], 1):
            s = (leader + i) % g.n
            if called and c == JOKER:
                continue
            if called:
                forbid[s] |= JOKER_BIT
            if not (g.suit_masks[led] >> c & 1 or g.free >> c & 1):
                forbid[s] |= g.suit_masks[led]
    return forbid


def check_napoleon_samples(g: Napoleon, seat: int, count: int = 50) -> None:
    view = json.loads(json.dumps(g.view(seat)))  # the sampler gets the view alone
    sampler = sampler_for("napoleon")
    rng = random.Random(seat)
    forbid = shown_restrictions(g) if g.phase == "play" else [0] * g.n
    summaries = set()
    adjutants = set()
    for _ in range(count):
        sample = sampler(view, rng)
        assert isinstance(sample, Napoleon)
        assert sample.view(seat) == view  # the strongest check: nothing tells them apart
        assert sample.hands[seat] == g.hands[seat]
        assert [t.cards for t in sample.tricks] == [t.cards for t in g.tricks]
        assert sample.trick == g.trick
        assert [h.bit_count() for h in sample.hands] == [h.bit_count() for h in g.hands]
        for s in range(g.n):
            assert not sample.hands[s] & forbid[s], f"seat {s} holds a card play ruled out"
        summaries.add(hidden_summary(sample, seat))
        adjutants.add(sample.adj_seat)
    hidden = g.hidden_from(seat) & ~g.hands[seat]
    owners = sum(1 for s in range(g.n) if s != seat and g.hands[s])
    if hidden.bit_count() >= 10 and owners >= 2:  # (fewer may be pinned down by voids)
        # (a quarter: voids can pin most of them down — napoleon-web, seed 1024, 24 plays in:
        # 20 hidden cards, 24 different deals of 50 — while a sampler that returned one deal
        # again and again would give a handful)
        assert len(summaries) >= count // 4, "the hidden cards hardly vary"
    adj = g.adj_card
    if g.phase == "play" and not view["adjutant_known"] and adj >= 0:
        may_hold = [s for s in range(g.n) if s != seat and g.hands[s] and not forbid[s] >> adj & 1]
        # a seat that no void rules out may still be unable to hold the card: when another
        # seat's voids leave it the adjutant's card alone, the deal is forced
        base = NapoleonBase(view, random.Random(0))
        may_hold = [s for s in may_hold if can_hold(base, s, adj)]
        if len(may_hold) >= 2:
            assert len(adjutants) >= 2, "a secret adjutant was assumed"


def can_hold(base: NapoleonBase, seat: int, card: int) -> bool:
    """Whether some deal of the unseen cards into the sampler's slots (their sizes and the
    cards each may not hold) puts ``card`` in ``seat``'s hand: a bipartite matching of the
    slots' places to the cards, with that one fixed."""
    places = [sl for sl in base.slots for _ in range(sl.size)]
    cards = [c for c in range(64) if base.pool >> c & 1]
    fixed = next(i for i, sl in enumerate(places) if sl.seat == seat)
    if places[fixed].forbid >> card & 1:
        return False
    rest = [sl for i, sl in enumerate(places) if i != fixed]
    left = [c for c in cards if c != card]
    owner: dict[int, int] = {}  # card -> place

    def place(i: int, seen: set[int]) -> bool:
        for c in left:
            if rest[i].forbid >> c & 1 or c in seen:
                continue
            seen.add(c)
            if c not in owner or place(owner[c], seen):
                owner[c] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(rest)))


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    preset=st.sampled_from(NAPOLEON_PRESETS),
    seed=st.integers(0, 10**6),
    target=st.sampled_from(PHASES),
    depth=st.integers(0, 45),
    other=st.booleans(),
)
def test_napoleon_samples_are_consistent_and_vary(
    preset: str, seed: int, target: str, depth: int, other: bool
) -> None:
    g = napoleon_position(preset, seed, target, depth)
    if g is None:
        return
    s = g.to_play
    assert s is not None
    check_napoleon_samples(g, s if not other else (s + 1 + seed % (g.n - 1)) % g.n)


@pytest.mark.parametrize("preset", NAPOLEON_PRESETS)
@pytest.mark.parametrize("target", PHASES)
def test_napoleon_every_phase_and_preset(preset: str, target: str) -> None:
    g = napoleon_position(preset, 7, target, {"bid": 2, "play": 4}.get(target, 0))
    assert g is not None
    s = g.to_play
    assert s is not None
    check_napoleon_samples(g, s, count=20)


def test_napoleon_secret_adjutant_lands_anywhere_even_among_hidden_discards() -> None:
    """With discards hidden, the called card may be in any other hand or discarded (alone)."""
    for seed in range(200):
        rules = {"preset": "classic", "reveal_discards": "none"}
        g = napoleon_position(rules, seed, "play", 0)
        if g is None:
            continue
        s = (g.napoleon + 1) % g.n
        if g.adj_card < 0 or g.adj_seat == s or g.view(s)["adjutant_known"]:
            continue
        base = NapoleonBase(g.view(s), random.Random(seed))
        rng = random.Random(1)
        places = set()
        for _ in range(400):
            sample = base.sample(rng)
            holder = next((o for o in range(g.n) if sample.hands[o] >> g.adj_card & 1), None)
            places.add("discards" if sample.discards >> g.adj_card & 1 else holder)
            assert sample.alone == (holder in (None, g.napoleon))
        assert s not in places
        assert "discards" in places and len(places) >= 4, places
        return
    pytest.fail("no position with a secret adjutant")


def test_napoleon_joker_call_is_public() -> None:
    """After a call the joker did not answer (it was discarded), no sample puts it in a hand."""
    for seed in range(400):
        g = torampu.new_game("napoleon", rules="house-002", seed=seed)
        rng = random.Random(seed)
        found = False
        while not g.is_over and not found:
            legal = g.legal_actions()
            called = [a for a in legal if a.endswith(" call")]
            discard_joker = [a for a in legal if a.startswith("discard") and "JK" in a]
            choice = (called or discard_joker or [legal[int(rng.random() * len(legal))]])[0]
            tricks = len(g.tricks)
            g.play(choice)
            if len(g.tricks) > tricks and not g.is_over:
                last = g.tricks[-1]
                found = bool((last.note or {}).get("called")) and JOKER not in last.cards
        if not found:
            continue
        assert g.view(0)["tricks"][-1]["called"] is True
        for seat in range(g.n):
            view = g.view(seat)
            sampler = sampler_for("napoleon")
            for k in range(30):
                sample = sampler(view, random.Random(k))
                assert sample.view(seat) == view
                assert not any(h & JOKER_BIT for h in sample.hands)
        return
    pytest.fail("no call that the joker did not answer")


def test_napoleon_after_a_redeal() -> None:
    g = torampu.new_game("napoleon", rules="classic", seed=1)
    for _ in range(g.n):
        g.play("pass")
    assert g.redeals == 1
    g.play("bid 11S")
    s = g.to_play
    assert s is not None
    check_napoleon_samples(g, s, count=10)


def test_fast_playout_draws_and_scores_as_the_engine() -> None:
    """``napoleon_playout`` is the engine's ``playout`` (the same draws, the same scores)."""
    for preset in NAPOLEON_PRESETS:
        for seed in range(40):
            g = napoleon_position(preset, seed, PHASES[seed % 4], seed % 30)
            if g is None:
                continue
            a, b = g.clone(), g.clone()
            a.playout(random.Random(seed))  # type: ignore[attr-defined]
            napoleon_playout(b, random.Random(seed))
            assert b.is_over
            assert (a.scores(), a.taken, a.hands) == (b.scores(), b.taken, b.hands)  # type: ignore[attr-defined]


def test_contract_policy_and_candidates_are_legal() -> None:
    for preset in NAPOLEON_PRESETS:
        for seed in range(8):
            for target in ("bid", "adjutant", "exchange"):
                g = napoleon_position(preset, seed, target, seed % 3)
                if g is None or g.phase != target:
                    continue
                legal = g.legal_moves()
                cands = candidate_moves(g, legal)
                assert cands and set(cands) <= set(legal)
                assert len(cands) <= 24
                assert napoleon_contract_move(g, random.Random(seed).random) in legal
                if target == "exchange":
                    first = discard_candidates(g)[0]
                    keep = 1 << MIGHTY | JOKER_BIT  # Mighty and the joker stay
                    assert not first & keep


# ------------------------------------------------------------------------------- Daifugo
def daifugo_positions(preset: str, seed: int, every: float) -> Iterator[tuple[Any, Any, int]]:
    """(match, game, seat to play) at decisions of a 3-game match: some plays, and every
    exchange, 7渡し and 10捨て."""
    m = torampu.new_match("daifugo", rules=preset, games=3, seed=seed)
    bots = [make_bot("heuristic", seed=seed * 10 + s, game="daifugo") for s in range(m.n)]
    pick = random.Random(seed)
    while not m.is_over:
        g = m.game
        s = g.to_play
        assert s is not None
        legal = g.legal_actions()
        if g.phase != "play" or (len(legal) > 1 and pick.random() < every):
            yield m, g, s
        if pick.random() < 0.3:
            m.play(legal[int(pick.random() * len(legal))])
        else:
            m.play(bots[s].choose(g.view(s), legal))


def check_daifugo_samples(m: Any, g: Any, seat: int, count: int) -> None:
    view = json.loads(json.dumps(m.view(seat)))
    ignore = {"match"} if g.phase == "exchange" else set(STARTS_AFTER)
    deals = set()
    sizes = [g.hands[s].bit_count() + g.jok[s] for s in range(g.n)]
    for k in range(count):
        sample = sample_daifugo(view, random.Random(k))
        mine = sample.view(seat)
        for key, value in view.items():
            if key not in ignore:
                assert mine[key] == value, key
        assert (sample.hands[seat], sample.jok[seat]) == (g.hands[seat], g.jok[seat])
        assert [sample.hands[s].bit_count() + sample.jok[s] for s in range(g.n)] == sizes
        if seat == g.to_play:
            assert sample.legal_actions() == g.legal_actions()
        assert mine["log"] == view["log"]  # every play, give and discard as the seat saw it
        deals.add(tuple(sample.hands) + tuple(sample.jok))
        if g.phase == "exchange":  # the poor kept nothing stronger than what they gave
            for row in view["exchange"]:
                if "given" in row and row["rich"] == seat:
                    real = [parse_card(c) for c in row["given"] if c != "JK"]
                    if real:
                        weakest = min(real, key=_strength)
                        poor = sample.hands[row["poor"]]
                        stronger = [c for c in range(52) if _strength(c) > _strength(weakest)]
                        assert not any(poor >> c & 1 for c in stronger), row
    hidden = sum(sizes) - sizes[seat]
    if hidden >= 4 and sum(1 for s in range(g.n) if s != seat and sizes[s]) >= 2:
        assert len(deals) >= count // 2


_ORDER = [card_at(d, s) for d in range(13) for s in (3, 2, 1, 0)]


def _strength(c: int) -> int:
    """A real card's place in the order the poor give them (higher: given first)."""
    return _ORDER.index(c)


@pytest.mark.parametrize("preset", ["standard", "yaita"])
def test_daifugo_samples_are_consistent_and_vary(preset: str) -> None:
    phases: set[str] = set()
    for seed in range(2):
        for m, g, s in daifugo_positions(preset, seed, every=0.08):
            phases.add(g.phase)
            check_daifugo_samples(m, g, s, count=8 if g.phase == "play" else 12)
    assert "exchange" in phases and "play" in phases
    if preset == "yaita":
        assert {"give", "discard"} <= phases


def test_daifugo_exchange_from_every_seat() -> None:
    """Any seat's view in the exchange is rebuilt, the poor's and the idle ones' too."""
    for m, g, _ in daifugo_positions("standard", 4, every=0.0):
        for seat in range(g.n):
            check_daifugo_samples(m, g, seat, count=6)
        return


# ------------------------------------------------------------------------------- ISMCTS
def _search(g: Any, seat: int, iterations: int = 30) -> str:
    res = ismcts(
        g.view(seat),
        sampler_for(g.name),
        random.Random(seat),
        iterations=iterations,
        rollout=rollout_for(g.name),
    )
    assert res.iterations == iterations
    assert sum(res.visits.values()) == iterations
    return res.action


@pytest.mark.parametrize(
    ("game", "rules"),
    [("napoleon", p) for p in NAPOLEON_PRESETS]
    + [("nap", None), ("hell", None), ("daifugo", "standard"), ("daifugo", "yaita")],
)
def test_ismcts_answers_legally_from_every_kind_of_decision(game: str, rules: str | None) -> None:
    games = {"daifugo": 2, "hell": 3}.get(game, 1)  # Hell's series opens with 1-card deals
    m = torampu.new_match(game, rules=rules, games=games, seed=5)
    heur = [make_bot("heuristic", seed=s, game=game) for s in range(m.n)]
    searched: dict[str, int] = {}
    while not m.is_over:
        g = m.game
        s = g.to_play
        assert s is not None
        legal = g.legal_actions()
        if len(legal) > 1 and searched.get(g.phase, 0) < 2:
            searched[g.phase] = searched.get(g.phase, 0) + 1
            assert _search(g, s, 20 if game == "daifugo" else 40) in legal
        m.play(heur[s].choose(g.view(s), legal))
    want = {
        "napoleon": {"bid", "adjutant", "exchange", "play"},
        "nap": {"bid", "play"},
        "hell": {"bid", "play"},
        "daifugo": {"exchange", "play"} | ({"give", "discard"} if rules == "yaita" else set()),
    }[game]
    assert want <= set(searched), searched


def test_ismcts_full_width_without_pruning() -> None:
    g = napoleon_position("classic", 3, "exchange", 0)
    assert g is not None
    s = g.to_play
    assert s is not None
    res = ismcts(g.view(s), sampler_for("napoleon"), random.Random(0), iterations=200, prune=None)
    assert res.action in g.legal_actions()
    assert len(res.visits) > 24  # every discard was tried, not only the candidates
    pruned = ismcts(g.view(s), sampler_for("napoleon"), random.Random(0), iterations=200)
    assert set(pruned.visits) <= {g.action_str(m) for m in discard_candidates(g)}
