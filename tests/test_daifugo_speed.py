"""The Daifugo engine's memos and fast rollout change no move (issue 21 part 3).

The engine memoizes the legal plays on everything they depend on, whether a play may follow a
table state, the plays of each part of a hand and its sandstorms; :func:`all_plays` is built
from the plays by shape. These tests check, with hypothesis, that:

* :func:`all_plays`, :func:`plays_by_shape` and :func:`plays_of_shape` give exactly the plays of
  the straightforward enumeration (the one of 5313adf, kept here as the reference) in its order;
* at every step of random games under random rules, the legal moves with warm memos (filled by
  earlier games under other rules) are those computed with every memo emptied, and both are the
  plays of the hand that may follow the table (``_beats``), in the order of all plays;
* :func:`greedy_rollout` plays the same moves and draws as its plain form (5313adf's);
* seeded random games replay exactly as under 5313adf (digests of their move lists).
"""

from __future__ import annotations

import hashlib
import random
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import torampu
import torampu.daifugo as engine
import torampu.daifugo_plays as plays_mod
from test_daifugo_properties import GAMES, make, rule_choices
from torampu.daifugo import PH_DISCARD, PH_GIVE, PH_OVER, PH_PLAY, Daifugo
from torampu.daifugo_plays import (
    DISCARD,
    DRANK,
    GIVE,
    GROUP,
    JOKER_RANK,
    JSHIFT,
    PASS,
    RANK_SET,
    RUN,
    SINGLE,
    SUIT_SET,
    all_plays,
    info,
    play_str,
    plays_by_shape,
    plays_of_shape,
)
from torampu.search.daifugo_sampler import greedy_rollout


# --------------------------------------------------------------------- reference enumeration
def reference_all_plays(hand: int, jokers: int, wild: bool, stairs: bool) -> list[int]:
    """5313adf's enumeration, without memos: singles, groups by size then rank, runs by
    (size, low rank, text)."""
    order = plays_mod._DISPLAY_ORDER
    out = [1 << c for c in order if hand >> c & 1]
    if jokers:
        out.append(1 << JSHIFT)
    wj = jokers if wild else 0
    per_rank = []
    for d in range(13):
        have = [c for c in order if (hand & RANK_SET[d]) >> c & 1]
        by_size: dict[int, list[int]] = {}
        for k in range(1, len(have) + 1):
            for combo in combinations(have, k):
                bits = sum(1 << c for c in combo)
                for j in range(wj + 1):
                    if k + j >= 2:
                        by_size.setdefault(k + j, []).append(bits | j << JSHIFT)
        per_rank.append({n: sorted(ms, key=play_str) for n, ms in by_size.items()})
    for size in range(2, 5 + wj):
        for by_size in per_rank:
            out.extend(by_size.get(size, ()))
        if size <= wj:
            out.append(size << JSHIFT)
    if stairs:
        runs = [
            (size, lo, play_str(m), m)
            for suit in range(4)
            for size, lo, m in plays_mod._runs(hand & SUIT_SET[suit], wj, (suit,))
        ]
        runs.sort()
        out.extend(r[3] for r in runs)
    return out


hands = st.tuples(
    st.sets(st.integers(0, 51), max_size=18).map(lambda cs: sum(1 << c for c in cs)),
    st.integers(0, 3),
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_enumeration_matches_the_reference(h: tuple[int, int, bool, bool]) -> None:
    hand, jokers, wild, stairs = h
    want = reference_all_plays(hand, jokers, wild, stairs)
    # cold (every memo emptied) and warm (the same call again)
    for memo in (plays_mod._PLAYS, plays_mod._BY_SHAPE, plays_mod._OF_SHAPE, plays_mod._BY_RANK):
        memo.clear()
    shapes = {(SINGLE, 1), *((GROUP, n) for n in range(2, 8)), *((RUN, n) for n in range(3, 14))}
    cold = {shape: plays_of_shape(hand, jokers, wild, stairs, *shape) for shape in shapes}
    for _ in range(2):
        assert list(all_plays(hand, jokers, wild, stairs)) == want
        parts = plays_by_shape(hand, jokers, wild, stairs)
        assert [m for part in parts.values() for m in part] == want
        for shape in shapes:
            expect = [m for m in want if (info(m).kind, info(m).size) == shape]
            assert list(parts.get(shape, ())) == expect
            assert list(cold[shape]) == expect
            assert list(plays_of_shape(hand, jokers, wild, stairs, *shape)) == expect


# --------------------------------------------------------------------- legal moves, memoized
MEMOS: tuple[dict[Any, Any], ...] = (
    engine._FOLLOWS,
    engine._STORMS,
    engine._CHOICES,
    plays_mod._PLAYS,
    plays_mod._BY_SHAPE,
    plays_mod._OF_SHAPE,
    plays_mod._BY_RANK,
)


def cold_moves(g: Daifugo) -> list[int]:
    """The legal moves with every memo of the engine emptied first (a clone of the game that
    has forgotten its table state's memos, which a game keeps between steps)."""
    saved = [dict(m) for m in MEMOS]
    for m in MEMOS:
        m.clear()
    try:
        c = g.clone()
        c._memos_table = -1
        return c.legal_moves()
    finally:
        for m, old in zip(MEMOS, saved, strict=True):
            m.clear()
            m.update(old)


@settings(GAMES, max_examples=40)
@given(rule_choices(), st.integers(2, 8), st.integers(0, 2**32), st.integers(0, 2**32))
def test_memoized_legal_moves_are_the_cold_ones(
    rules: dict[str, Any], players: int, seed: int, play_seed: int
) -> None:
    g = make(rules, players, seed)
    rng = random.Random(play_seed)
    steps = 0
    while not g.is_over and steps < 600:
        warm = g.legal_moves()
        if steps % 3 == 0 or (g.table_info is not None and rng.random() < 0.3):
            assert warm == cold_moves(g)
        if g.phase_id == PH_PLAY and g.table_info is not None:
            s = g.turn
            every = reference_all_plays(g.hands[s], g.jok[s], g.wild, g.rules["stairs"])
            assert warm == [PASS, *(m for m in every if g._beats(m) is not None)]
        warm.append(-1)  # the caller's list is its own: the memo is not touched
        assert -1 not in g.legal_moves()
        g.apply(warm[int(rng.random() * (len(warm) - 1))])
        steps += 1


# --------------------------------------------------------------------- the greedy rollout
def reference_greedy(g: Daifugo, rng: random.Random, explore: float = 0.15) -> None:
    """5313adf's greedy_rollout, but for 7渡し and 10捨て, which since then give and discard as
    many of the hand's weakest cards as they may (jokers last), unless ``explore`` fires."""
    rand = rng.random
    while g.phase_id != PH_OVER:
        if g.phase_id in (PH_GIVE, PH_DISCARD) and rand() >= explore:
            s = g.turn
            rev = g.revolution != g.eleven
            cards = sorted(
                (c for c in range(52) if g.hands[s] >> c & 1),
                key=lambda c: (-DRANK[c] if rev else DRANK[c], c),
            )[: g.pending]
            jokers = min(g.pending - len(cards), g.jok[s])
            verb = GIVE if g.phase_id == PH_GIVE else DISCARD
            g._apply(verb | sum(1 << c for c in cards) | jokers << JSHIFT)
            continue
        moves = g.legal_moves()
        pick = moves[0]
        if len(moves) > 1:
            if g.phase_id != PH_PLAY or rand() < explore:
                pick = moves[int(rand() * len(moves))]
            else:
                rev = g.reversed
                best: tuple[int, int] | None = None
                for m in moves:
                    if m == PASS:
                        continue
                    i = info(m)
                    key = (i.rank if i.rank == JOKER_RANK or not rev else -i.rank, -i.size)
                    if best is None or key < best:
                        best, pick = key, m
        g._apply(pick)


@settings(GAMES, max_examples=40)
@given(rule_choices(), st.integers(2, 8), st.integers(0, 2**32), st.integers(0, 2**32))
def test_greedy_rollout_plays_as_before(
    rules: dict[str, Any], players: int, seed: int, roll_seed: int
) -> None:
    g = make(rules, players, seed)
    a, b = g.clone(), g.clone()
    ra, rb = random.Random(roll_seed), random.Random(roll_seed)
    greedy_rollout(a, ra)
    reference_greedy(b, rb)
    assert a.history == b.history
    assert ra.random() == rb.random()
    assert a.result() == b.result()


# --------------------------------------------------------------------- replay as 5313adf
DIGESTS = {  # sha256 of the (seat, action) lists of 40 seeded random games, 5 players, 5313adf
    "standard": "71ce796befa067678ecc9269f6b325160d7efeeb3ec32faa851a85308ec769ec",
    "yaita": "6681199464c4050668fd04754fccf86def316a07a68b822392a9ab8dcd5a1088",
}
"""Computed on 5313adf's source (``git archive``, ``TORAMPU_PURE=1``) with :func:`digest`: the
actions as text, since the moves' integer encoding has changed since (a run's jokers are now
named by the run's lowest rank, so every move fits a machine word)."""


def digest(preset: str) -> str:
    h = hashlib.sha256()
    rng = random.Random(7)
    for i in range(40):
        g = torampu.new_game("daifugo", preset, players=5, seed=i)
        while not g.is_over:
            moves = g.legal_moves()
            g.apply(moves[int(rng.random() * len(moves))])
        h.update(repr([(s, g.action_str(m)) for s, m in g.history]).encode())
    return h.hexdigest()


def test_seeded_games_replay_as_before() -> None:
    assert {p: digest(p) for p in DIGESTS} == DIGESTS


@settings(GAMES, max_examples=15)
@given(st.sampled_from(["standard", "yaita", "uecda"]), st.integers(0, 2**32))
def test_memoized_moves_in_matches_are_the_cold_ones(preset: str, seed: int) -> None:
    """Matches reach the exchange (and 天変地異, 都落ち …): every step's moves, warm and cold."""
    m = torampu.new_match("daifugo", rules=preset, players=5, games=3, seed=seed)
    rng = random.Random(seed)
    exchanges = 0
    while not m.is_over:
        g = m.game
        warm = g.legal_moves()
        assert warm == cold_moves(g)
        exchanges += g.phase == "exchange"
        m.apply(warm[int(rng.random() * len(warm))])
    if preset != "uecda":  # uecda's first games have no titles to exchange
        assert exchanges
