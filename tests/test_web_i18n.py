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
