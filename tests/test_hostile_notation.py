"""Hostile text where the engine reads notation or rules: every refusal is the engine's own
error (:class:`torampu.TorampuError`, naming the problem), never Python's words — a fourth
audit found ``int()``'s "Exceeds the limit (4300 digits) for integer string conversion … use
sys.set_int_max_str_digits()" reaching a player as the reason a bid was refused, other
scripts' digits taken as a bid, and "unhashable type: 'list'" for a preset given as a list."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torampu
from torampu import IllegalAction, RulesError, TorampuError

GAMES = ("napoleon", "nap", "hell", "daifugo")

HOSTILE = [
    "bid " + "9" * 5000,
    "bid " + "9" * 5000 + "S",
    "bid " + "1" * 4400 + "N",
    "bid \u0661\u0663S",  # Arabic-Indic 13
    "bid \u0663",  # Arabic-Indic 3
    "bid \uff13",  # fullwidth 3
    "bid 1\u00b2",  # a superscript digit
    "play " + "A" * 10_000,
    "",
    " ",
    "bid",
    "\x00",
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:16]))
def test_hostile_notation_is_refused_in_the_engines_words(game: str, text: str) -> None:
    g = torampu.new_game(game, seed=1)
    with pytest.raises(IllegalAction) as e:
        g.parse_action(text)
    assert "sys.set_int_max_str_digits" not in str(e.value)
    assert "digits) for integer" not in str(e.value)


@pytest.mark.parametrize("game", ("napoleon", "hell"))
def test_bids_are_ascii_digits_and_still_read_as_before(game: str) -> None:
    g = torampu.new_game(game, seed=1)
    bid = "bid 13S" if game == "napoleon" else "bid 3"
    assert g.action_str(g.parse_action(bid)) == bid
    assert g.action_str(g.parse_action(bid.replace("bid ", "BID 0"))) == bid


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(GAMES), st.text(max_size=30), st.sampled_from(["", "bid ", "play "]))
def test_any_text_parses_or_is_refused_by_the_engine(game: str, text: str, verb: str) -> None:
    g = torampu.new_game(game, seed=1)
    try:
        move = g.parse_action(verb + text)
    except TorampuError:
        return
    assert g.parse_action(g.action_str(move)) == move


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("preset", [[], {"a": 1}, 5, None, ("standard",)], ids=repr)
def test_a_preset_that_is_not_a_name_is_an_unknown_preset(game: str, preset: Any) -> None:
    with pytest.raises(RulesError, match="unknown preset"):
        torampu.new_match(game, {"preset": preset})


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("games", ["3", 2.5, 0, True])
def test_a_match_length_that_is_not_a_count_is_named_for_every_game(game: str, games: Any) -> None:
    """(The compiled Daifugo match said "int or None object expected; got str".)"""
    with pytest.raises(ValueError, match="games must be a whole number"):
        torampu.new_match(game, games=games)
    with pytest.raises(RulesError, match="seed must be an int"):
        torampu.new_match(game, seed="7")  # type: ignore[arg-type]
