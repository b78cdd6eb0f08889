"""Shared pieces of the Daifugo tests: a game on a fixed deal."""

from __future__ import annotations

from typing import Any

import torampu
from torampu.daifugo import Daifugo


def fixed(hands: list[str], rules: str | dict[str, Any] = "standard") -> Daifugo:
    """A game on a fixed deal (each hand a space-separated string of cards), seat 0 to lead."""
    g = torampu.new_game(
        "daifugo",
        rules=rules,
        players=len(hands),
        seed=0,
        dealer=len(hands) - 1,
        deal={"hands": [h.split() for h in hands]},
    )
    assert isinstance(g, Daifugo) and g.to_play == 0
    return g
