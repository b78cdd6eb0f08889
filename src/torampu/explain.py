"""Rulings explained: a short phrase that names the rule, in English and Japanese.

Engines record *why* something happened as a :class:`Reason` (a code and the cards involved);
this module turns it into words. Disputes at a real table are about exactly these phrases.

>>> from torampu.cards import parse_card as p
>>> explain(Reason("ura_j", p("JD"), suit=1), "en")
'JD wins: left bower (裏J; trump H)'
>>> explain(Reason("yoromeki", p("QH"), p("AS")), "ja")
'QHがASに勝つ: よろめき'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Literal

from torampu.cards import SUIT_LETTERS, card_str

Lang = Literal["en", "ja"]
LANGS: tuple[Lang, ...] = ("en", "ja")


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a trick (or a ruling) went the way it did.

    ``card`` is the card that won, ``other`` the card it beat or stole from (or -1), ``suit`` a
    suit index (trump or led suit, or -1), and ``extra`` a further card (a killer whose kill was
    stolen). ``note`` names a rule that took a special card of the trick its power (a joker
    played to a led suit, a same-two on the first trick: :data:`NOTES`), said after the win.
    """

    code: str
    card: int = -1
    other: int = -1
    suit: int = -1
    extra: int = -1
    note: str = ""


_SUIT_JA = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# code -> (english, japanese); {c} card, {o} other card, {s} suit letter, {x} extra card
MESSAGES: dict[str, tuple[str, str]] = {
    "mighty": ("{c} wins: Mighty", "{c}の勝ち: オールマイティ"),
    "sei_j": ("{c} wins: right bower (正J; trump {s})", "{c}の勝ち: 正J (切り札{sj})"),
    "ura_j": ("{c} wins: left bower (裏J; trump {s})", "{c}の勝ち: 裏J (切り札{sj})"),
    "joker_top": ("{c} wins: the joker is the strongest card", "{c}の勝ち: ジョーカーは最強"),
    "joker_led": (
        "{c} wins: led joker (trump request), beaten only by Mighty, 正J and 裏J",
        "{c}の勝ち: リードのジョーカー (切り札請求)",
    ),
    "joker_led_strong": (
        "{c} wins: a led joker wins unconditionally",
        "{c}の勝ち: リードのジョーカーは無条件で勝ち",
    ),
    "joker_led_low": (
        "{c} wins: a led joker is the lowest trump, and no trump was played",
        "{c}の勝ち: リードのジョーカーは最弱の切り札で、切り札が出なかった",
    ),
    "same_two": ("{c} wins: same-two", "{c}の勝ち: セイムツー"),
    "yoromeki": ("{c} beats {o}: ♥Q over Mighty (よろめき)", "{c}が{o}に勝つ: よろめき"),
    "killer": ("{c} beats {o}: killer", "{c}が{o}に勝つ: キラー"),
    "steal": (
        "{c} wins: steal (横取り) of {x}'s kill of {o}",
        "{c}の勝ち: 横取り ({x}による{o}のキラーを横取り)",
    ),
    "trump": ("{c} wins: highest trump ({s})", "{c}の勝ち: 最も強い切り札 ({sj})"),
    "led": ("{c} wins: highest of the led suit ({s})", "{c}の勝ち: 台札のスートで最強 ({sj})"),
    "led_first_trick": (
        "{c} wins: highest of the led suit ({s}); trumps have no power on the first trick",
        "{c}の勝ち: 台札のスートで最強 ({sj}); 1巡目は切り札の効力なし",
    ),
    "lead_only": (
        "{c} wins: nobody could follow the led card",
        "{c}の勝ち: 台札に続けるカードなし",
    ),
}


# note -> (english, japanese): why a card a player expects to win did not ("♦K wins" over a
# joker and ♦2 read as a mistake: a twenty-third review)
NOTES: dict[str, tuple[str, str]] = {
    "joker_not_led": (
        "the joker has power only when it is led",
        "ジョーカーは台札のときだけ強い",
    ),
    "joker_called": (
        "the joker was called out, and has no power",
        "ジョーカーは請求されて出たので効力なし",
    ),
    "same_two_first_trick": (
        "no same-two on the first trick",
        "1巡目はセイムツーなし",
    ),
}


@lru_cache(maxsize=1 << 14)
def explain(reason: Reason, lang: Lang = "en") -> str:
    """The phrase for a reason, in ``lang`` (``"en"`` or ``"ja"``).

    Memoized: a closed trick is explained again in every later view (reasons are frozen).
    """
    en, ja = MESSAGES.get(reason.code, (reason.code, reason.code))
    s = SUIT_LETTERS[reason.suit] if 0 <= reason.suit < 4 else ("NT" if reason.suit == 4 else "-")
    params = {
        "c": card_str(reason.card) if reason.card >= 0 else "",
        "o": card_str(reason.other) if reason.other >= 0 else "",
        "x": card_str(reason.extra) if reason.extra >= 0 else "",
        "s": s,
        "sj": _SUIT_JA.get(s, "なし" if s == "NT" else s),
    }
    text = (ja if lang == "ja" else en).format(**params)
    if reason.note in NOTES:
        note_en, note_ja = NOTES[reason.note]
        # (ja: a sentence of its own — two brackets in a row, "(♠) (ジョーカーは…)", read badly,
        # a twenty-fourth review)
        text += f"。{note_ja}" if lang == "ja" else f" ({note_en})"
    return text


_PLURAL: Final = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")


def fill(template: str, **params: Any) -> str:
    """``template`` formatted with ``params``, where ``{k|one|many}`` is ``one`` if ``k`` is 1
    and ``many`` otherwise (the notation of the web page's texts).

    >>> fill("give up to {k} {k|card|cards}", k=1)
    'give up to 1 card'
    >>> fill("{k} {k|player|players} skipped", k=2)
    '2 players skipped'
    """
    if "|" in template:
        template = _PLURAL.sub(lambda m: m[2] if params.get(m[1]) == 1 else m[3], template)
    return template.format(**params)
