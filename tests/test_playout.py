"""``playout(rng)`` is a faster way to make exactly the draws of the fast path.

Every game's rollout must equal drawing ``legal_moves()[int(rng.random() * len(moves))]`` at each
step with the same generator: search relies on it, and so does the benchmark's comparison.
(Napoleon draws its discards as a random subset without listing them — the same distribution,
not the same draw — so its comparison starts at the tricks.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import torampu

CASES: list[tuple[str, Any, int, dict[str, Any]]] = [
    ("hell", None, 5, {"cards": 10}),
    ("hell", None, 3, {"cards": 17}),
    ("hell", {"hook": False}, 7, {"cards": 1}),
    ("nap", None, 4, {}),
    ("nap", {"wellington_leads_lowest": True, "blucher": True}, 5, {}),
    ("napoleon", "classic", 5, {}),
    ("napoleon", "house-001", 4, {}),
    ("daifugo", "standard", 5, {}),
    ("daifugo", "yaita", 4, {}),
]


@pytest.mark.parametrize(("game", "rules", "players", "extra"), CASES)
def test_playout_equals_fast_path_draws(
    game: str, rules: Any, players: int, extra: dict[str, Any]
) -> None:
    for seed in range(25):
        a = torampu.new_game(game, rules=rules, players=players, seed=seed, **extra)
        b = torampu.new_game(game, rules=rules, players=players, seed=seed, **extra)
        steps = random.Random(seed).randrange(0, 12)  # start some rollouts mid-game
        pre = random.Random(-seed)
        for i in range(10_000):
            if a.is_over or (i >= steps and (game != "napoleon" or a.phase == "play")):
                break
            moves = a.legal_moves()
            m = moves[int(pre.random() * len(moves))]
            a.apply(m)
            b.apply(m)
        a.playout(random.Random(seed))  # type: ignore[attr-defined]
        rng = random.Random(seed)
        while not b.is_over:
            moves = b.legal_moves()
            b.apply(moves[int(rng.random() * len(moves))])
        assert a.to_record() == b.to_record()
        assert a.view(0) == b.view(0)
