"""Every rule option has a short English label and every choice or set value an English text (the
lobby in English shows no internal ids such as ``removed_cards`` or ``dealer_left``):
``torampu.rules`` gives ``label`` and ``values_en`` from :mod:`torampu.options_en`."""

from __future__ import annotations

import re

import pytest

import torampu
from torampu.options_en import (
    DESCRIPTIONS_EN,
    MEMBERS_EN,
    OPTIONS_EN,
    PRESET_NOTES_EN,
    VALUES_EN,
    option_en,
)

MAX_LABEL = 40


def _short_text(text: object, raw: str) -> bool:
    return (
        isinstance(text, str)
        and 0 < len(text) <= MAX_LABEL
        and text == text.strip()
        and "_" not in text  # an internal id, not words
        and not text[0].islower()  # sentence case
        and (text != raw or not raw.isalpha())  # a word code needs words; "2" may stay "2"
    )


@pytest.mark.parametrize("game", torampu.games())
def test_every_option_has_a_short_english_label(game: str) -> None:
    for o in torampu.rules(game):
        label = o.get("label")
        assert _short_text(label, o["name"]), f"{game}.{o['name']} label: {label!r}"
        assert label != o["name"], (game, o["name"])
        assert o["label_ja"] and o["description"], "the other texts stay"


@pytest.mark.parametrize("game", torampu.games())
def test_every_choice_and_set_value_has_an_english_text(game: str) -> None:
    for o in torampu.rules(game):
        if o["type"] not in ("choice", "set"):
            assert "values_en" not in o
            continue
        table = VALUES_EN if o["type"] == "choice" else MEMBERS_EN
        own = table.get(game, {}).get(o["name"], {})
        values = {str(v) for v in o["values"]}
        # written out here, not the fallback to the raw value
        assert set(own) == values, (game, o["name"], values - set(own))
        assert o["values_en"] == own, (game, o["name"])
        for value, text in own.items():
            assert _short_text(text, value), f"{game}.{o['name']}={value}: {text!r}"


def test_no_english_text_for_an_option_that_does_not_exist() -> None:
    """A renamed or removed option leaves no stale label behind."""
    for game in torampu.games():
        names = {o["name"]: o for o in torampu.rules(game)}
        assert set(OPTIONS_EN[game]) == set(names), game
        for table, kind in ((VALUES_EN, "choice"), (MEMBERS_EN, "set")):
            for option, texts in table.get(game, {}).items():
                assert option in names and names[option]["type"] == kind, (game, option)
                assert set(texts) <= {str(v) for v in names[option]["values"]}, (game, option)


def test_labels_of_one_game_are_distinct() -> None:
    for game, labels in OPTIONS_EN.items():
        assert len(set(labels.values())) == len(labels), game


def test_a_missing_label_is_named() -> None:
    with pytest.raises(KeyError, match="'no_such' of napoleon"):
        option_en("napoleon", "no_such")


# what a player must not meet in an explanation: an option's code name, a boolean's literal, a
# rule source's number or another program's name (the developers' ``description`` has them)
DEVELOPERS = re.compile(r"\b[a-z]+_[a-z_]+\b|\b00[0-4]\b|napoleon-web|\b(?:true|false)\s*:|:\s*$")


@pytest.mark.parametrize("game", torampu.games())
def test_every_option_and_preset_is_explained_for_players(game: str) -> None:
    """The Rules dialog read "false: soft pass, a passed player may bid again later" and "(000:
    4 players remove low cards…)" (a usability review): every option now has a player's
    explanation, ``description_en``, and every preset a ``note_en``, in sentences, without the
    developers' words; the developers' ``description`` and ``note`` stay as they were."""
    assert set(DESCRIPTIONS_EN[game]) == {o["name"] for o in torampu.rules(game)}
    assert set(PRESET_NOTES_EN[game]) == set(torampu.presets(game))
    texts = [(o["name"], o["description_en"]) for o in torampu.rules(game)]
    texts += [(f"preset {n}", p["note_en"]) for n, p in torampu.presets(game).items()]
    for name, text in texts:
        assert text == text.strip() and not text[0].islower() and text.endswith("."), (name, text)
        assert 20 <= len(text) <= 300, (name, len(text))
        assert not DEVELOPERS.search(text), (game, name, text)
    for o in torampu.rules(game):
        assert o["description_en"] != o["description"], (game, o["name"])
