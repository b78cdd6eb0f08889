"""How a match's games' seeds follow from its seed (:data:`torampu.match.SEEDINGS`).

A ``"stream"`` match (the default, and every record made before ``seeding`` existed) draws them
from a Mersenne Twister: enough published game seeds (some 312 records) tell the next games'
deals. A ``"keyed"`` match hashes the match's seed with the game's number: what a web table
uses, as it publishes each game's record, seed and all, when the game ends."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torampu
from torampu.errors import RecordError
from torampu.match import Match, keyed_seed

KINDS: list[tuple[str, dict[str, Any], int, int]] = [
    ("napoleon", {}, 5, 1),
    ("nap", {}, 4, 1),
    ("hell", {}, 4, 1),
    ("daifugo", {}, 4, 1),
    ("daifugo", {"preset": "uecda", "rank_reset": 1, "seat_change": 0}, 5, 5),
]


def _finish_game(m: Match, rng: random.Random) -> None:
    played = m.games_played
    while m.games_played == played and not m.is_over:
        m.play(rng.choice(m.legal_actions()))


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(KINDS), st.integers(-(2**63), 2**63 - 1), st.integers(0, 2**32))
def test_a_keyed_match_s_games_are_seeded_by_their_number_and_replay(
    kind: tuple[str, dict[str, Any], int, int], seed: int, policy: int
) -> None:
    game, rules, players, duplicate = kind
    extra = {"duplicate": duplicate} if duplicate > 1 else {}
    m = torampu.new_match(
        game, rules, players=players, games=duplicate * 2, seed=seed, seeding="keyed", **extra
    )
    rng = random.Random(policy)
    seeds = [m.game.seed]
    while not m.is_over:
        _finish_game(m, rng)
        if not m.is_over:
            seeds.append(m.game.seed)
    # each fresh deal's seed is the hash of the match's seed and its number; a duplicate deal
    # repeats the one before it
    fresh = [keyed_seed(seed, k // duplicate) for k in range(len(seeds))]
    assert seeds == fresh
    assert [r["seed"] for r in m.records] == seeds
    rec = json.loads(json.dumps(m.to_record()))
    assert rec["seeding"] == "keyed"
    assert torampu.replay_match(rec).to_record() == rec
    # a record that says nothing of its seeding is a stream match's: this one's games do not
    # follow from its seed that way
    with pytest.raises(RecordError, match="does not follow from the match seed"):
        torampu.replay_match({k: v for k, v in rec.items() if k != "seeding"})


@pytest.mark.parametrize("game", ["napoleon", "nap", "hell", "daifugo"])
def test_a_stream_match_is_as_it_always_was(game: str) -> None:
    """Records made before ``seeding`` existed replay as they did: a match's games' seeds are
    its generator's draws, and its record has no ``seeding``."""
    m = torampu.new_match(game, players=4 if game != "napoleon" else 5, games=2, seed=11)
    assert m.game.seed == random.Random(11).getrandbits(63)
    _finish_game(m, random.Random(3))
    rec = m.to_record()
    assert "seeding" not in rec
    assert torampu.replay_match(json.loads(json.dumps(rec))).to_record() == rec


@pytest.mark.parametrize("game", ["napoleon", "nap", "hell", "daifugo"])
@pytest.mark.parametrize("bad", ["hashed", None, 5, ["keyed"]])
def test_an_unknown_seeding_is_refused_by_name(game: str, bad: object) -> None:
    """(The compiled Daifugo match took a str parameter: anything else a TypeError past
    replay_match's RecordError — a code review.)"""
    with pytest.raises(ValueError, match=re.escape(f"one of stream, keyed, not {bad!r}")):
        torampu.new_match(game, seed=1, seeding=bad)  # type: ignore[arg-type]
    rec = torampu.new_match(game, seed=1).to_record()
    with pytest.raises(RecordError, match="seeding must be one of"):
        torampu.replay_match({**rec, "seeding": bad})
