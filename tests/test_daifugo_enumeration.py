"""``all_plays`` (assembled from per-rank groups and per-suit runs) against a plain reference:
the enumeration of every hand's plays, written out the slow way, in the same canonical order."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from torampu.cards import cards_of, parse_cards
from torampu.daifugo_plays import (
    JOKER_RANK,
    JSHIFT,
    RANK_SET,
    _group_key,
    _runs,
    all_plays,
    play_str,
)


def reference_all_plays(hand: int, jokers: int, wild: bool, stairs: bool) -> tuple[int, ...]:
    """Every play on an empty table: singles, groups, runs; each by size, rank, then text."""
    singles = sorted(cards_of(hand), key=_group_key)
    out: list[int] = [1 << c for c in singles]
    if jokers:
        out.append(1 << JSHIFT)
    groups: list[tuple[int, int, int]] = []
    wj = jokers if wild else 0
    for d in range(13):
        have = cards_of(hand & RANK_SET[d])
        for k in range(1, len(have) + 1):
            for combo in combinations(have, k):
                bits = sum(1 << c for c in combo)
                for j in range(0, wj + 1):
                    if k + j >= 2:
                        groups.append((k + j, d, bits | j << JSHIFT))
    for j in range(2, wj + 1):
        groups.append((j, JOKER_RANK, j << JSHIFT))
    groups.sort(key=lambda t: (t[0], t[1], play_str(t[2])))
    out.extend(g for _, _, g in groups)
    if stairs:
        runs = list(_runs(hand, wj))
        runs.sort(key=lambda t: (t[0], t[1], play_str(t[2])))
        out.extend(r for _, _, r in runs)
    return tuple(out)


@settings(max_examples=300, deadline=None)
@given(
    cards=st.sets(st.integers(0, 51), max_size=20),
    jokers=st.integers(0, 3),
    wild=st.booleans(),
    stairs=st.booleans(),
)
def test_all_plays_is_the_reference_enumeration(
    cards: set[int], jokers: int, wild: bool, stairs: bool
) -> None:
    hand = sum(1 << c for c in cards)
    assert all_plays(hand, jokers, wild, stairs) == reference_all_plays(hand, jokers, wild, stairs)


def test_all_plays_of_a_whole_suit_and_a_full_rank_with_jokers() -> None:
    for text in ("3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S", "7S 7H 7D 7C 8S 8H 9S", ""):
        hand = parse_cards(text) if text else 0
        for jokers in range(3):
            want = reference_all_plays(hand, jokers, True, True)
            assert all_plays(hand, jokers, True, True) == want
            assert len(set(want)) == len(want)
