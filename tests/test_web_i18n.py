"""The page's two languages (static/i18n.js), read as text: each says every phrase once.

A phrase written twice in one language is a bug no browser reports — the later silently wins
(a twenty-fifth review's "tap again" under the key of "Tap it again to confirm:" turned the
confirm line of every two-tap button into two words) — and a phrase one language lacks is
shown in the other."""

from __future__ import annotations

import re
from pathlib import Path

I18N = Path(__file__).resolve().parent.parent / "src" / "torampu" / "web" / "static" / "i18n.js"


def _blocks() -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in I18N.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^  (en|ja): \{", line):
            current = keys.setdefault(m.group(1), [])
        elif current is not None and re.match(r"^  \},?", line):
            current = None
        elif current is not None and (k := re.match(r"^    ([A-Za-z_0-9]+):", line)):
            current.append(k.group(1))
    return keys


def test_each_language_says_each_phrase_once_and_both_say_the_same_phrases() -> None:
    blocks = _blocks()
    assert set(blocks) == {"en", "ja"}
    assert len(blocks["en"]) > 400, len(blocks["en"])  # (the file read as it is written)
    for lang, keys in blocks.items():
        twice = sorted({k for k in keys if keys.count(k) > 1})
        assert not twice, (lang, twice)
    assert set(blocks["en"]) == set(blocks["ja"]), set(blocks["en"]) ^ set(blocks["ja"])


def test_a_phrase_hell_words_its_own_way_is_asked_for_with_the_game() -> None:
    """Hell's match is a series of deals: a phrase with a ``_hell`` form is picked by
    ``t(key, {game})``. Asked for without the game, Hell's page said "このゲームを一手ずつ振り
    返る" under "第1ディール終了", and listed "第1ディール" under "終わったゲーム" (a
    twenty-fifth review). Every call of such a phrase in the page's scripts passes the game."""
    hell = {k.removesuffix("_hell") for k in _blocks()["en"] if k.endswith("_hell")}
    hell.discard("game")  # (game_hell is the game's name, of the game_<name> names)
    static = I18N.parent
    calls = []
    for js in sorted(static.glob("*.js")):
        text = js.read_text(encoding="utf-8")
        # t("key" …) or t('key' …), its arguments to the bracket that closes the call (over
        # lines, brackets within counted)
        for m in re.finditer(r"\bt\(([\"'])(\w+)\1", text):
            if m.group(2) not in hell:
                continue
            depth, at = 1, m.end()
            while depth and at < len(text):
                depth += {"(": 1, ")": -1}.get(text[at], 0)
                at += 1
            calls.append((js.name, m.group(2), text[m.end() : at - 1]))
    assert len(calls) > 10, calls  # (the calls found as they are written)
    without = [(f, k) for f, k, args in calls if not re.search(r"\bgame\b", args)]
    assert not without, without
