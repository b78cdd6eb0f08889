"""Every rule option, choice value and preset has a Japanese text (the lobby in Japanese shows
no English): ``torampu.rules`` gives ``label_ja`` / ``description_ja`` (and ``values_ja`` for
choice and set options), ``torampu.presets`` gives ``name_ja`` / ``note_ja``."""

from __future__ import annotations

import re

import pytest

import torampu
from torampu.options_ja import MEMBERS_JA, OPTIONS_JA, PRESETS_JA, VALUES_JA

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# a run of Latin letters: a word of English or a value code ("dealer_left"); proper names stay as
# written: "UECda" (the computer Daihinmin contest) and "napoleon-web" (the program whose rules a
# preset follows)
ENGLISH = re.compile(r"(?<![A-Za-z-])(?!UECda(?![A-Za-z])|napoleon-web)[A-Za-z]{2,}")


@pytest.mark.parametrize("game", torampu.games())
def test_every_option_has_a_japanese_label_and_description(game: str) -> None:
    for o in torampu.rules(game):
        for key in ("label_ja", "description_ja"):
            text = o.get(key)
            assert isinstance(text, str) and JAPANESE.search(text), (game, o["name"], key)
            assert not ENGLISH.search(text), f"{game}.{o['name']} {key} has English: {text!r}"
        assert o["description"], "the English description stays"


@pytest.mark.parametrize("game", torampu.games())
def test_every_choice_and_set_value_has_a_japanese_label(game: str) -> None:
    for o in torampu.rules(game):
        if o["type"] not in ("choice", "set"):
            assert "values_ja" not in o
            continue
        labels = o["values_ja"]
        assert set(labels) == {str(v) for v in o["values"]}, (game, o["name"])
        for value, label in labels.items():
            assert label and not ENGLISH.search(label), f"{game}.{o['name']}={value}: {label!r}"


@pytest.mark.parametrize("game", torampu.games())
def test_every_preset_has_a_japanese_name_and_note(game: str) -> None:
    for name, p in torampu.presets(game).items():
        assert p["name_ja"] and p["note_ja"], (game, name)
        assert JAPANESE.search(p["note_ja"]) and not ENGLISH.search(p["note_ja"]), p["note_ja"]
        assert p["note"], "the English note stays"
        # for players: no name of a rule text in shared/sources ("001のルール", "004の基本ルール:")
        for text in (p["name_ja"], p["note_ja"], p["name_en"], p["note_en"]):
            assert not re.search(r"(?<![\dA-Za-z])00[0-4](?!\d)", text), (game, name, text)
        assert p["name_en"] != name, (game, name)


def test_no_japanese_text_for_an_option_that_does_not_exist() -> None:
    """A renamed or removed option leaves no stale translation behind."""
    for game in torampu.games():
        names = {o["name"]: o for o in torampu.rules(game)}
        assert set(OPTIONS_JA[game]) == set(names), game
        for table in (VALUES_JA, MEMBERS_JA):
            for option, labels in table.get(game, {}).items():
                assert option in names, (game, option)
                assert set(labels) <= {str(v) for v in names[option]["values"]}, (game, option)
        assert set(PRESETS_JA[game]) == set(torampu.presets(game)), game


def test_a_missing_translation_is_named() -> None:
    from torampu.options_ja import option_ja

    with pytest.raises(KeyError, match="'no_such' of napoleon"):
        option_ja("napoleon", "no_such")


PLAYER_TEXTS = ("label", "description_en", "label_ja", "description_ja", "values_en", "values_ja")
# a rule text's id or a clause of it, as the developers cite them: "(004)", "★17の読み", "★18の例"
SOURCE_ID = re.compile(r"\(004\)|★1\d|\b004\b|\bs1300097\b|\(UECda(?:: \d+)?\)")


@pytest.mark.parametrize("game", torampu.games())
def test_what_players_read_names_no_rule_text(game: str) -> None:
    """A player's review: the rules dialog read 「★18の例」, 「★17の読み」, 「(004)」 and "(UECda)"
    after sentence upon sentence. The players' texts (ja and en) say it plainly; "UECda" stays
    only as the name of a choice (a preset, a value's label), never as a citation in a
    description. The developers' ``description`` keeps its sources."""
    for o in torampu.rules(game):
        for key in PLAYER_TEXTS:
            value = o.get(key)
            texts = value.values() if isinstance(value, dict) else [value]
            for text in texts:
                if text is None:
                    continue
                assert "(004)" not in text and "★1" not in text, (game, o["name"], key, text)
                if key.startswith("description"):
                    assert not SOURCE_ID.search(text), (game, o["name"], key, text)
                else:
                    assert not re.search(r"\(004\)|★|\b004\b", text), (game, o["name"], key, text)
    for name, p in torampu.presets(game).items():
        for key in ("name_ja", "note_ja", "name_en", "note_en"):
            assert not re.search(r"\(004\)|★1|s1300097", p[key]), (game, name, key, p[key])
