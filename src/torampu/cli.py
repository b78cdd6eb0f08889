"""The terminal front end: ``torampu play``, ``torampu replay``, ``torampu rules``.

Built on the public contract only: the human sees ``view(seat)`` of their own seat, each bot its
own view, and the story of a replay is told from the record by replaying it step by step.

Display logic lives in small functions that return Rich markup (strings) or tables; the words of
the interface, in English and Japanese, are in :data:`TEXT`.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import torampu
from torampu.bots import Bot, BotError, bot_kinds, make_bot
from torampu.cards import HONORS, SUIT_LETTERS, SUIT_SYMBOLS, card_str, parse_card, sort_key
from torampu.errors import CardError, IllegalAction, RecordError, TorampuError
from torampu.game import check_record_header

app = typer.Typer(
    help="torampu: Japanese house-rule card games (Napoleon, …) in the terminal.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console(highlight=False)

MENU_MAX = 60
"""Numbered menus are shown (and numbers accepted) only up to this many legal actions.

Bids (41-56 entries) and the adjutant card (52-54) fit; the exchange (66 to thousands of
combinations) never does: there the player types the cards to put back.
"""


class Lang(StrEnum):
    en = "en"
    ja = "ja"


# --------------------------------------------------------------------------------------- words
TEXT: dict[str, dict[str, str]] = {
    "en": {
        "sep": ", ",
        "seat_name": "seat {seat}",
        "you": "you",
        "game_header": "Game {no} of {total} — {game}, {players} players, dealer {dealer}",
        "seed": "match seed {seed} (replay this match with --seed {seed})",
        "watching": "Watching {n} bots ({kind}).",
        "playing": "You are seat {seat}; the other seats are {kind} bots.",
        "phase_bid": "auction",
        "phase_adjutant": "adjutant card",
        "phase_exchange": "exchange",
        "phase_play": "play",
        "phase_over": "over",
        "your_turn": "Your turn — {phase}",
        "hand": "Hand",
        "hand_widow": "Hand (with the widow)",
        "widow": "Widow",
        "auction": "Auction",
        "no_bids": "no bids yet",
        "high_bid": "highest bid {bid} by {who}",
        "napoleon": "Napoleon",
        "adjutant": "adjutant",
        "ally": "ally",
        "declarer": "declarer",
        "contract_line": "Napoleon: {who} — {bid}, {trump}",
        "adjutant_card_line": "adjutant card {card}",
        "adjutant_is": "adjutant: {who}",
        "adjutant_unknown": "adjutant: secret",
        "secret": " (secret)",
        "adjutant_alone": "no adjutant: the Napoleon plays alone",
        "declared_alone": "declared alone",
        "honors_line": "Honors taken",
        "table_now": "On the table",
        "you_lead": "You lead.",
        "discards_you": "Your discards",
        "discards_shown": "Discards shown",
        "prompt": "your choice> ",
        "illegal": "Not accepted: {why}",
        "help": (
            "Type a menu number, or the action itself: 'bid 13S' (or just 13S), 'pass', "
            "'adjutant AS', 'alone', 'discard 2C 3D' (or just the cards), 'play AS' (or just AS, "
            "♠A, 10h), 'play 3S call'. 'quit' leaves (the record is saved)."
        ),
        "help_exchange": "Type the {n} cards to put back, e.g. {example} (no menu: too many ways).",
        "help_adjutant": "Type the adjutant card, e.g. AS{alone}.",
        "help_long": "{n} choices: type the action (see ? for help).",
        "no_menu": "there is no numbered menu here: type the cards or the action",
        "no_entry": "no menu entry {k}: choose 1-{n}",
        "empty": "type an action, a card or a menu number (? for help)",
        "unreadable": "cannot read {text!r} (? for help)",
        "bid_hint": "in the auction type a bid such as 13S, 'pass', or a menu number",
        "only_choice": "(only choice)",
        "bye_eof": "Input closed: leaving the match.",
        "bye_quit": "Leaving the match.",
        "bye_interrupt": "Interrupted: leaving the match.",
        "saved": "Match record saved to {file}.",
        "save_failed": "Could not save the record to {file}: {why}",
        # events
        "ev_bid": "bid {bid}",
        "ev_pass": "passed",
        "ev_adjutant": "named the adjutant card {card}",
        "ev_alone": "declared alone: no adjutant",
        "ev_discard_all": "took the widow {widow} and put back {cards}",
        "ev_discard_you": "put back {cards}",
        "ev_discard_n": "took the widow and put back {n} cards",
        "ev_discard_shown": " (shown: {cards})",
        "call": "+ joker call",
        "menu_pass": "pass",
        "menu_alone": "alone",
        "trump_is": "trump {suit}",
        "no_trump": "no trump",
        "ev_call": "led {card} and called for the joker",
        "ev_redeal": "Everyone passed: the cards are dealt again (redeal {n}).",
        "ev_napoleon": "Napoleon: {who}, with {bid} ({trump}).",
        "ev_play_starts": "The play begins. First lead: {who}.",
        "ev_you_adjutant": "You hold the adjutant card {card}: you are the adjutant (secret).",
        "ev_own_card": "The adjutant card {card} is yours: you play alone.",
        "ev_secret_holder": "(secret: {who} holds the adjutant card {card})",
        "ev_card_nowhere": "(nobody holds the adjutant card {card}: the Napoleon is alone)",
        "ev_revealed": "{card} is out: {who} is the adjutant.",
        "ev_revealed_alone": "{card} is out: the Napoleon is alone.",
        "trick_line": "Trick {no}: {cards} → {who} ({honors})",
        "trick_line_plain": "Trick {no}: {cards} → {who}",
        "honors_1": "1 honor",
        "honors_n": "{n} honors",
        # results
        "result_title": "Game {no} of {total}: result",
        "result_army": ("Army of {nap}{adj}: {army} honors for a contract of {bid} — {outcome}."),
        "result_with": " and {who}",
        "army_wins": "the Napoleon's army wins",
        "allies_win": "the allies win",
        "res_alone": "The Napoleon had no adjutant ({why}).",
        "why_declared": "declared alone",
        "why_card": "the adjutant card {card} was in no other hand",
        "res_discarded": "{n} discarded honors counted for {side}.",
        "side_allies": "the allies",
        "side_nobody": "nobody",
        "res_early": "The game stopped early: the outcome was certain.",
        "res_all20": "All twenty honors taken: scores doubled.",
        "res_redeals": "Redeals before the auction was won: {n}.",
        "res_generic": "Winners: {who}.",
        "res_nobody": "nobody",
        "res_declarer": "{who} declared {contract} ({trump}): {made}.",
        "res_made": "made",
        "res_failed": "failed",
        "col_seat": "seat",
        "col_role": "role",
        "col_honors": "honors",
        "col_tricks": "tricks",
        "col_bid": "bid",
        "col_game": "game",
        "col_total": "total",
        "standings": "Match standings after {n} of {total} games",
        "leaders": "Leading: {who}",
        "match_over": "The match is over.",
        # replay
        "story_match": "Match record: {played} of {total} games — {game}, {players} players",
        "story_rules": "Rules: {rules}",
        "story_deal": "The deal",
        "story_auction": "The auction",
        "story_unfinished": "The record stops here: the game was not finished.",
        "story_verified": "Record checked: every action is legal and the results agree.",
        "replay_failed": "cannot replay {file}: {why}",
        "rules_defaults": "defaults",
    },
    "ja": {
        "sep": "、",
        "seat_name": "席{seat}",
        "you": "あなた",
        "game_header": "第{no}ゲーム / 全{total}ゲーム — {game}、{players}人、親は{dealer}",
        "seed": "マッチのシード {seed} (--seed {seed} で同じマッチを再現できます)",
        "watching": "{n}体のボット ({kind}) の対戦を観戦します。",
        "playing": "あなたは席{seat}です。他の席は {kind} ボットです。",
        "phase_bid": "競り",
        "phase_adjutant": "副官指定",
        "phase_exchange": "場札の交換",
        "phase_play": "プレイ",
        "phase_over": "終了",
        "your_turn": "あなたの番です — {phase}",
        "hand": "手札",
        "hand_widow": "手札 (場札を含む)",
        "widow": "場札",
        "auction": "競り",
        "no_bids": "まだ宣言なし",
        "high_bid": "最高の宣言は{who}の {bid}",
        "napoleon": "ナポレオン",
        "adjutant": "副官",
        "ally": "連合軍",
        "declarer": "宣言者",
        "contract_line": "ナポレオン {who}: {bid}、{trump}",
        "adjutant_card_line": "副官指定カード {card}",
        "adjutant_is": "副官: {who}",
        "adjutant_unknown": "副官: 不明",
        "secret": " (まだ秘密)",
        "adjutant_alone": "副官なし: ナポレオンの単独",
        "declared_alone": "単独宣言",
        "honors_line": "取った絵札",
        "table_now": "場",
        "you_lead": "あなたがリードします。",
        "discards_you": "あなたが捨てた札",
        "discards_shown": "公開された捨て札",
        "prompt": "選択> ",
        "illegal": "受け付けられません: {why}",
        "help": (
            "メニューの番号、またはアクションを入力: 'bid 13S' (13S だけでも可)、'pass'、"
            "'adjutant AS'、'alone'、'discard 2C 3D' (カードだけでも可)、'play AS' (AS、♠A、"
            "10h だけでも可)、'play 3S call'。'quit' で終了 (記録は保存されます)。"
        ),
        "help_exchange": "戻す{n}枚のカードを入力してください (例: {example})。",
        "help_adjutant": "副官指定カードを入力してください (例: AS){alone}。",
        "help_long": "選択肢が{n}個あります: アクションを入力してください (? でヘルプ)。",
        "no_menu": "ここには番号付きメニューがありません: カードかアクションを入力してください",
        "no_entry": "メニューに {k} 番はありません: 1-{n} から選んでください",
        "empty": "アクション、カード、またはメニュー番号を入力してください (? でヘルプ)",
        "unreadable": "{text!r} を読み取れません (? でヘルプ)",
        "bid_hint": "競りでは 13S のような宣言、'pass'、またはメニュー番号を入力してください",
        "only_choice": "(選択肢は一つだけ)",
        "bye_eof": "入力が終わりました: マッチを終了します。",
        "bye_quit": "マッチを終了します。",
        "bye_interrupt": "中断しました: マッチを終了します。",
        "saved": "マッチの記録を {file} に保存しました。",
        "save_failed": "記録を {file} に保存できません: {why}",
        "ev_bid": "{bid} を宣言",
        "ev_pass": "パス",
        "ev_adjutant": "副官指定カードは {card}",
        "ev_alone": "単独で戦うと宣言 (副官なし)",
        "ev_discard_all": "場札 {widow} を取り、{cards} を捨てた",
        "ev_discard_you": "{cards} を捨てた",
        "ev_discard_n": "場札を取り、{n}枚捨てた",
        "ev_discard_shown": " (公開: {cards})",
        "call": "+ ジョーカー請求",
        "menu_pass": "パス",
        "menu_alone": "単独",
        "trump_is": "切り札 {suit}",
        "no_trump": "切り札なし",
        "ev_call": "{card} をリードしてジョーカー請求",
        "ev_redeal": "全員パス: 配り直します (配り直し{n}回目)。",
        "ev_napoleon": "{who} がナポレオン: {bid}、{trump}。",
        "ev_play_starts": "プレイ開始。最初のリード: {who}。",
        "ev_you_adjutant": "副官指定カード {card} はあなたの手札: あなたが副官です (まだ秘密)。",
        "ev_own_card": "副官指定カード {card} は自分の手札: 単独で戦います。",
        "ev_secret_holder": "(秘密: 副官指定カード {card} は {who} の手札)",
        "ev_card_nowhere": "(副官指定カード {card} は誰の手札にもない: ナポレオンの単独)",
        "ev_revealed": "{card} が出た: 副官は {who}。",
        "ev_revealed_alone": "{card} が出た: ナポレオンの単独。",
        "trick_line": "第{no}トリック: {cards} → {who} (絵札{honors})",
        "trick_line_plain": "第{no}トリック: {cards} → {who}",
        "honors_1": "1枚",
        "honors_n": "{n}枚",
        "result_title": "第{no}ゲーム / 全{total}ゲーム: 結果",
        "result_army": ("ナポレオン {nap}{adj} の軍は絵札 {army} 枚 (宣言 {bid}): {outcome}。"),
        "result_with": "・副官 {who}",
        "army_wins": "ナポレオン軍の勝ち",
        "allies_win": "連合軍の勝ち",
        "res_alone": "ナポレオンに副官はいませんでした ({why})。",
        "why_declared": "単独宣言",
        "why_card": "副官指定カード {card} は他の誰の手札にもなかった",
        "res_discarded": "捨て札の絵札 {n} 枚は{side}。",
        "side_allies": "連合軍のもの",
        "side_nobody": "誰のものでもない",
        "res_early": "勝敗が確定したので途中で終了しました。",
        "res_all20": "絵札20枚すべて: 得点は2倍。",
        "res_redeals": "競りが成立するまでの配り直し: {n}回。",
        "res_generic": "勝者: {who}。",
        "res_nobody": "なし",
        "res_declarer": "{who} の宣言 {contract} ({trump}): {made}。",
        "res_made": "成功",
        "res_failed": "失敗",
        "col_seat": "席",
        "col_role": "役",
        "col_honors": "絵札",
        "col_tricks": "トリック",
        "col_bid": "宣言",
        "col_game": "得点",
        "col_total": "累計",
        "standings": "通算成績 ({n} / {total} ゲーム終了)",
        "leaders": "首位: {who}",
        "match_over": "マッチ終了。",
        "story_match": "マッチの記録: {played} / {total} ゲーム — {game}、{players}人",
        "story_rules": "ルール: {rules}",
        "story_deal": "配札",
        "story_auction": "競り",
        "story_unfinished": "記録はここまで: ゲームは終わっていません。",
        "story_verified": "記録を検証しました: すべてのアクションが合法で、結果も一致します。",
        "replay_failed": "{file} を再生できません: {why}",
        "rules_defaults": "既定値",
    },
}


def error(markup: str) -> None:
    """An error message, in red, not wrapped (paths and actions stay whole for copying)."""
    console.print(f"[red]{markup}[/]", soft_wrap=True)


# --------------------------------------------------------------------------------------- cards
_RED_SUITS = {"H", "D"}
_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|JK)(?![A-Za-z0-9])")
_BID = re.compile(r"^(\d{1,2})\s*(NT|[SHDCN♠♥♦♣♤♡♢♧])$", re.IGNORECASE)
_SYMBOL_LETTER = dict(zip(SUIT_SYMBOLS, SUIT_LETTERS, strict=True)) | {
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}


def show_card(card: str) -> str:
    """A card as Rich markup with its suit symbol: ``♠A`` bold, ``♥10`` red, ``JK`` magenta."""
    if card == "JK":
        return "[bold magenta]JK[/]"
    if len(card) != 2 or card[1] not in SUIT_LETTERS:
        return escape(card)
    rank, suit = card[0], card[1]
    text = SUIT_SYMBOLS[SUIT_LETTERS.index(suit)] + ("10" if rank == "T" else rank)
    return f"[bold red]{text}[/]" if suit in _RED_SUITS else f"[bold]{text}[/]"


def show_cards(cards: Iterable[str]) -> str:
    """Cards in display order (♠ ♥ ♦ ♣, high first), separated by spaces; a dash for none."""
    out = " ".join(show_card(c) for c in sorted(cards, key=_display_key))
    return out or "-"


def _display_key(card: str) -> tuple[int, int]:
    try:
        return sort_key(parse_card(card))
    except CardError:
        return (9, 0)


def show_hand(cards: Sequence[str]) -> str:
    """A hand grouped by suit (as the engine sorts it), suits separated by wider gaps."""
    groups: list[list[str]] = []
    last = ""
    for c in cards:
        suit = "J" if c == "JK" else c[1]
        if suit != last:
            groups.append([])
            last = suit
        groups[-1].append(show_card(c))
    return "   ".join(" ".join(g) for g in groups) or "-"


def show_suit(suit: str | None) -> str:
    """A trump suit letter as its symbol (``N`` is no trump)."""
    if suit is None:
        return "-"
    if suit in ("N", "NT"):
        return "NT"
    if suit in SUIT_LETTERS:
        sym = SUIT_SYMBOLS[SUIT_LETTERS.index(suit)]
        return f"[bold red]{sym}[/]" if suit in _RED_SUITS else f"[bold]{sym}[/]"
    return escape(suit)


def show_bid(bid: str | None) -> str:
    """A Napoleon bid ``13S`` as ``13♠`` (``12N`` as ``12NT``); other games' bids unchanged."""
    if bid is None:
        return "-"
    if len(bid) >= 2 and bid[:-1].isdigit() and bid[-1] in "SHDCN":
        return bid[:-1] + show_suit(bid[-1])
    return escape(bid)


def prettify(text: str) -> str:
    """Free text (an explanation) with every card token shown with its suit symbol."""
    out: list[str] = []
    pos = 0
    for m in _CARD_TOKEN.finditer(text):
        out.append(escape(text[pos : m.start()]))
        out.append(show_card(m.group(0)))
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def show_action(action: str, lang: str = "en") -> str:
    """A legal action as a short menu entry: ``13♠``, ``pass``, ``♠A``, ``♠3 call``."""
    words = action.split()
    if not words:
        return ""
    verb, rest = words[0], words[1:]
    if verb == "bid" and len(rest) == 1:
        return show_bid(rest[0])
    if verb in ("pass", "alone") and not rest:
        return TEXT[lang][f"menu_{verb}"]
    if verb in ("play", "adjutant", "discard"):
        call = TEXT[lang]["call"]
        return " ".join(show_card(w) if w != "call" else call for w in rest)
    return prettify(action)


def _honors_in(cards: Iterable[str]) -> int:
    n = 0
    for c in cards:
        if _CARD_TOKEN.fullmatch(c):
            n += HONORS >> parse_card(c) & 1
    return n


# --------------------------------------------------------------------------------------- input
def _norm_bid(word: str) -> str | None:
    """``13s``, ``13♠``, ``12nt`` -> ``13S`` / ``12N``; None when it is not a bid."""
    m = _BID.match(word.strip())
    if not m:
        return None
    suit = m.group(2).upper()
    suit = _SYMBOL_LETTER.get(suit, suit)
    return m.group(1) + ("N" if suit == "NT" else suit)


def _norm_card(word: str) -> str:
    try:
        return card_str(parse_card(word))
    except CardError:
        return word


def _phase_of(legal: Sequence[str]) -> str:
    """The kind of decision, read off the legal actions (bid, adjutant, discard, play, …)."""
    verbs = {a.split()[0] for a in legal if a}
    for v in ("discard", "adjutant", "play", "bid"):
        if v in verbs:
            return v
    return "pass" if "pass" in verbs else ""


def interpret(text: str, legal: Sequence[str], numbered: bool = True, lang: str = "en") -> str:
    """What a person typed as a canonical(-looking) action string, not yet checked for legality.

    Accepts a menu number (1-based, only when ``numbered``), the action itself in any case and
    card spelling, a bare card (play, or the adjutant card), bare cards (the exchange), a bid
    shorthand (``13S``, ``13♠``). Raises :class:`IllegalAction` for what it cannot read.
    """
    tx = TEXT[lang]
    t = text.strip()
    if not t:
        raise IllegalAction(tx["empty"])
    if t.isdigit():
        if not numbered:
            raise IllegalAction(tx["no_menu"])
        k = int(t)
        if not 1 <= k <= len(legal):
            raise IllegalAction(tx["no_entry"].format(k=k, n=len(legal)))
        return legal[k - 1]
    if t in legal:
        return t
    words = t.split()
    verb = words[0].lower()
    rest = words[1:]
    phase = _phase_of(legal)
    if verb == "bid":
        norm = [_norm_bid(w) or w for w in rest]
        return " ".join(["bid", *norm])
    if verb in ("play", "adjutant", "discard"):
        return " ".join(
            [verb, *(w.lower() if w.lower() == "call" else _norm_card(w) for w in rest)]
        )
    if verb in ("pass", "alone") and not rest:
        return verb
    if len(words) == 1 and f"bid {t.lower()}" in legal:  # other games' bids: 'nap', 'misere'
        return f"bid {t.lower()}"
    if phase in ("bid", "pass"):
        bid = _norm_bid(t)
        if bid is not None:
            return f"bid {bid}"
        if t.lower() in ("p", "パス"):
            return "pass"
        raise IllegalAction(tx["bid_hint"])
    call = len(words) == 2 and words[1].lower() == "call"
    cards_in = words[:1] if call else words
    try:
        cards = [card_str(parse_card(w)) for w in cards_in]
    except CardError:
        raise IllegalAction(tx["unreadable"].format(text=t)) from None
    if phase == "discard":
        return "discard " + " ".join(cards)
    if phase == "adjutant" and len(cards) == 1:
        return f"adjutant {cards[0]}"
    if len(cards) == 1:
        return f"play {cards[0]} call" if call else f"play {cards[0]}"
    raise IllegalAction(tx["unreadable"].format(text=t))


def _action_key(action: str) -> tuple[str, frozenset[str]]:
    words = action.split()
    return (
        (words[0].lower(), frozenset(_norm_card(w) for w in words[1:]))
        if words
        else ("", frozenset())
    )


def match_legal(candidate: str, legal: Sequence[str]) -> str | None:
    """The legal action ``candidate`` means (same words; the exchange's cards in any order)."""
    if candidate in legal:
        return candidate
    if candidate.startswith("discard "):
        key = _action_key(candidate)
        for a in legal:
            if _action_key(a) == key:
                return a
    return None


def resolve_input(text: str, legal: Sequence[str], numbered: bool = True, lang: str = "en") -> str:
    """What a person typed as one of ``legal``, or :class:`IllegalAction`.

    >>> resolve_input("♠a", ["play AS", "play TH"])
    'play AS'
    >>> resolve_input("2", ["pass", "bid 13S"]), resolve_input("13♠", ["pass", "bid 13S"])
    ('bid 13S', 'bid 13S')
    """
    candidate = interpret(text, legal, numbered, lang)
    found = match_legal(candidate, legal)
    if found is None:
        raise IllegalAction(f"{candidate!r} is not legal now")
    return found


# --------------------------------------------------------------------------------------- context
@dataclass
class Ctx:
    """Who is looking, in which language: names seats and picks words."""

    lang: str
    n: int
    human: int | None = None

    def tx(self, key: str, **kw: Any) -> str:
        text = TEXT[self.lang][key]
        return text.format(**kw) if kw else text

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "-"
        if seat == self.human:
            return self.tx("you")
        return self.tx("seat_name", seat=seat)

    def short(self, seat: int) -> str:
        """A seat in a compact list: its number, or 'you'."""
        return self.tx("you") if seat == self.human else str(seat)

    def trump(self, suit: str | None) -> str:
        """``trump ♠``, or ``no trump`` for an NT contract."""
        if suit in ("N", "NT"):
            return self.tx("no_trump")
        return self.tx("trump_is", suit=show_suit(suit))

    def phase(self, phase: str) -> str:
        key = f"phase_{phase}"
        return self.tx(key) if key in TEXT[self.lang] else phase


# --------------------------------------------------------------------------------------- status
def status_lines(view: Mapping[str, Any], ctx: Ctx, secret: bool = False) -> list[str]:
    """What the human needs to decide: contract, auction, table, honors and hand.

    ``secret``: the adjutant is known to this seat but not yet to the table.
    """
    lines: list[str] = []
    phase = view.get("phase", "")
    if view.get("contract") and view.get("napoleon") is not None:
        parts = [
            ctx.tx(
                "contract_line",
                who=ctx.name(view["napoleon"]),
                bid=show_bid(view["contract"]),
                trump=ctx.trump(view.get("trump")),
            )
        ]
        if view.get("adjutant_card"):
            parts.append(ctx.tx("adjutant_card_line", card=show_card(view["adjutant_card"])))
        if view.get("alone_declared"):
            parts.append(ctx.tx("declared_alone"))
        elif phase == "play":
            parts.append(_adjutant_status(view, ctx) + (ctx.tx("secret") if secret else ""))
        lines.append(" · ".join(parts))
    elif view.get("contract") and view.get("declarer") is not None:  # Nap
        lines.append(f"{ctx.tx('declarer')}: {ctx.name(view['declarer'])} {view['contract']}")
    if view.get("trump") and view.get("contract") is None and view.get("upcard"):  # Hell
        lines.append(f"{ctx.trump(view['trump'])} ({show_card(view['upcard'])})")
    if phase == "bid" and "auction" in view:
        lines.append(f"{ctx.tx('auction')}: {auction_line(view['auction'], ctx)}")
        if view.get("high_bid") and view.get("high_bidder") is not None:
            lines.append(
                ctx.tx(
                    "high_bid", bid=show_bid(view["high_bid"]), who=ctx.name(view["high_bidder"])
                )
            )
    if phase == "bid" and "bids" in view:  # Hell: bids so far
        bids = [f"{ctx.name(s)} {b}" for s, b in enumerate(view["bids"]) if b is not None]
        lines.append(f"{ctx.tx('auction')}: {', '.join(bids) or ctx.tx('no_bids')}")
    if view.get("discards") and ctx.human is not None and view.get("napoleon") == ctx.human:
        lines.append(f"{ctx.tx('discards_you')}: {show_cards(view['discards'])}")
    elif view.get("discards"):
        lines.append(f"{ctx.tx('discards_shown')}: {show_cards(view['discards'])}")
    if phase == "play":
        if "honor_counts" in view:
            counts = " · ".join(f"{ctx.name(s)} {c}" for s, c in enumerate(view["honor_counts"]))
            lines.append(f"{ctx.tx('honors_line')}: {counts}")
        elif "tricks_won" in view:
            counts = " · ".join(f"{ctx.name(s)} {c}" for s, c in enumerate(view["tricks_won"]))
            lines.append(f"{ctx.tx('col_tricks')}: {counts}")
        trick = view.get("trick") or []
        if trick:
            cards = " · ".join(f"{ctx.name(c['seat'])} {show_card(c['card'])}" for c in trick)
            lines.append(f"{ctx.tx('table_now')}: {cards}")
        else:
            lines.append(ctx.tx("you_lead"))
    if phase == "exchange" and view.get("widow"):
        lines.append(f"{ctx.tx('widow')}: {show_cards(view['widow'])}")
        lines.append(f"{ctx.tx('hand_widow')}: {show_hand(view.get('hand') or [])}")
    else:
        lines.append(f"{ctx.tx('hand')}: {show_hand(view.get('hand') or [])}")
    return lines


def _adjutant_status(view: Mapping[str, Any], ctx: Ctx) -> str:
    if not view.get("adjutant_known"):
        return ctx.tx("adjutant_unknown")
    if view.get("alone"):
        return ctx.tx("adjutant_alone")
    return ctx.tx("adjutant_is", who=ctx.name(view.get("adjutant")))


def auction_line(auction: Sequence[Mapping[str, Any]], ctx: Ctx) -> str:
    """The last round of the auction: ``… seat 1 11♦, seat 2 pass, …``."""
    if not auction:
        return ctx.tx("no_bids")
    recent = auction[-ctx.n :] if ctx.n else auction
    entries = [f"{ctx.name(a['seat'])} {show_action(a['action'], ctx.lang)}" for a in recent]
    return ("… " if len(recent) < len(auction) else "") + ctx.tx("sep").join(entries)


def menu_order(legal: Sequence[str]) -> list[str]:
    """The legal actions in menu order: cards as a hand is sorted (♠A first), others first."""

    def key(action: str) -> tuple[int, tuple[int, int], int]:
        words = action.split()
        if words[0] in ("play", "adjutant") and len(words) > 1 and _CARD_TOKEN.fullmatch(words[1]):
            return (1, sort_key(parse_card(words[1])), len(words))
        return (0, (0, 0), 0)

    if _phase_of(legal) not in ("play", "adjutant"):
        return list(legal)
    return sorted(legal, key=key)


def menu(legal: Sequence[str], lang: str) -> Columns:
    """The numbered menu of legal actions, in columns."""
    return Columns(
        [f"[cyan]{i:>2}[/] {show_action(a, lang)}" for i, a in enumerate(legal, 1)],
        padding=(0, 2),
    )


def input_hint(view: Mapping[str, Any], legal: Sequence[str], ctx: Ctx) -> str:
    """What to type when there is no menu."""
    phase = _phase_of(legal)
    if phase == "discard":
        n = len(legal[0].split()) - 1
        hand = list(view.get("hand") or [])
        example = " ".join(hand[-n:]) if len(hand) >= n else "2C 3D"
        return ctx.tx("help_exchange", n=n, example=example)
    if phase == "adjutant":
        alone = ""
        if "alone" in legal:
            alone = " or 'alone'" if ctx.lang == "en" else "、または 'alone'"
        return ctx.tx("help_adjutant", alone=alone)
    return ctx.tx("help_long", n=len(legal))


# --------------------------------------------------------------------------------------- events
def describe(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    seat: int,
    action: str,
    ctx: Ctx,
    widow: Sequence[str] | None = None,
    omniscient: bool = False,
) -> list[str]:
    """The lines that tell what ``action`` by ``seat`` did, from two views around it.

    ``before``/``after`` are the viewer's views (the human's, or the spectator's); ``omniscient``
    (a replay) also shows the widow (``widow``) and every discard.
    """
    lines: list[str] = []
    who = ctx.name(seat)
    what = _action_words(before, after, seat, action, ctx, widow, omniscient)
    if what:
        lines.append(f"[dim]{who}:[/] {what}")
    if after.get("redeals", 0) > before.get("redeals", 0):
        lines.append(f"[yellow]{ctx.tx('ev_redeal', n=after['redeals'])}[/]")
    if after.get("napoleon") is not None and before.get("napoleon") is None:
        lines.append(
            "[bold]"
            + ctx.tx(
                "ev_napoleon",
                who=ctx.name(after["napoleon"]),
                bid=show_bid(after.get("contract")),
                trump=ctx.trump(after.get("trump")),
            )
            + "[/]"
        )
    if after.get("phase") == "play" and before.get("phase") != "play":
        lines.append(f"[bold]{ctx.tx('ev_play_starts', who=ctx.name(after.get('to_play')))}[/]")
        news = _own_adjutant_news(after, ctx)
        if not news and after.get("adjutant_known") and after.get("adjutant_card"):
            card = show_card(after["adjutant_card"])  # e.g. shown among the discards
            if after.get("alone"):
                news = [f"[bold]{ctx.tx('ev_revealed_alone', card=card)}[/]"]
            else:
                who = ctx.name(after.get("adjutant"))
                news = [f"[bold]{ctx.tx('ev_revealed', card=card, who=who)}[/]"]
        lines.extend(news)
    before_tricks = before.get("tricks") or []
    after_tricks = after.get("tricks") or []
    reveal = _reveal_line(before, after, ctx)
    for i in range(len(before_tricks), len(after_tricks)):
        lines.extend(trick_lines(i + 1, after_tricks[i], ctx, after.get("game") == "napoleon"))
    if reveal:
        lines.append(f"[bold]{reveal}[/]")
    return lines


def _reveal_line(before: Mapping[str, Any], after: Mapping[str, Any], ctx: Ctx) -> str | None:
    """'♠A is out: seat 4 is the adjutant', when the viewer learns it by this action's card."""
    card = after.get("adjutant_card")
    if not card or before.get("phase") != "play" or before.get("adjutant_known"):
        return None
    if after.get("phase") == "play":
        if not after.get("adjutant_known"):
            return None
        alone, adj = bool(after.get("alone")), after.get("adjutant")
    else:  # the game ended with this card: was the adjutant card in the last trick?
        tricks = after.get("tricks") or []
        if not tricks or "adjutant_revealed" not in tricks[-1]:
            return None
        adj = tricks[-1]["adjutant_revealed"]
        alone = adj == after.get("napoleon")
    if alone:
        return ctx.tx("ev_revealed_alone", card=show_card(card))
    return ctx.tx("ev_revealed", card=show_card(card), who=ctx.name(adj))


def _action_words(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    seat: int,
    action: str,
    ctx: Ctx,
    widow: Sequence[str] | None,
    omniscient: bool,
) -> str:
    words = action.split()
    verb, rest = words[0], words[1:]
    if verb == "bid" and len(rest) == 1:
        return ctx.tx("ev_bid", bid=show_bid(rest[0]))
    if verb == "pass":
        return ctx.tx("ev_pass")
    if verb == "adjutant" and rest:
        return ctx.tx("ev_adjutant", card=show_card(rest[0]))
    if verb == "alone":
        return ctx.tx("ev_alone")
    if verb == "discard":
        if omniscient:
            return ctx.tx("ev_discard_all", widow=show_cards(widow or []), cards=show_cards(rest))
        if seat == ctx.human:
            return ctx.tx("ev_discard_you", cards=show_cards(rest))
        text = ctx.tx("ev_discard_n", n=len(rest))
        shown = after.get("discards") or []
        if shown:
            text += ctx.tx("ev_discard_shown", cards=show_cards(shown))
        return text
    if verb == "play" and len(rest) == 2 and rest[1] == "call":
        return ctx.tx("ev_call", card=show_card(rest[0]))
    if verb == "play":
        return ""  # the trick line tells it
    return prettify(action)


def _own_adjutant_news(view: Mapping[str, Any], ctx: Ctx) -> list[str]:
    """At the start of play: what the human alone knows about the adjutant card."""
    card = view.get("adjutant_card")
    if ctx.human is None or not card or not view.get("adjutant_known"):
        return []
    if view.get("adjutant") == ctx.human:
        return [f"[bold]{ctx.tx('ev_you_adjutant', card=show_card(card))}[/]"]
    if view.get("napoleon") == ctx.human and view.get("alone"):
        return [f"[bold]{ctx.tx('ev_own_card', card=show_card(card))}[/]"]
    return []


def trick_lines(
    no: int, trick: Mapping[str, Any], ctx: Ctx, count_honors: bool = True
) -> list[str]:
    """A finished trick: its cards, who took it (with how many honors), and why (in ctx.lang)."""
    cards = " ".join(f"{ctx.short(c['seat'])}:{show_card(c['card'])}" for c in trick["cards"])
    who = ctx.name(trick["winner"])
    if count_honors:
        honors = _honors_in(c["card"] for c in trick["cards"])
        n_honors = ctx.tx("honors_n" if honors != 1 else "honors_1", n=honors)
        head = ctx.tx("trick_line", no=no, cards=cards, who=who, honors=n_honors)
    else:
        head = ctx.tx("trick_line_plain", no=no, cards=cards, who=who)
    why = trick.get("why", {}).get(ctx.lang, "")
    return [head, f"    [italic cyan]{prettify(why)}[/]"] if why else [head]


# --------------------------------------------------------------------------------------- results
def _score(v: int) -> str:
    if v > 0:
        return f"[green]+{v}[/]"
    if v < 0:
        return f"[red]{v}[/]"
    return "0"


def result_lines(view: Mapping[str, Any], ctx: Ctx) -> list[str]:
    """The outcome of a finished game in words."""
    res = view.get("result") or {}
    if view.get("game") != "napoleon" or "napoleon" not in res:
        winners = ", ".join(ctx.name(s) for s in res.get("winners", [])) or ctx.tx("res_nobody")
        lines = []
        if res.get("declarer") is not None and "made" in res:  # Nap
            made = ctx.tx("res_made" if res["made"] else "res_failed")
            lines.append(
                ctx.tx(
                    "res_declarer",
                    who=ctx.name(res["declarer"]),
                    contract=escape(str(res.get("contract"))),
                    trump=ctx.trump(res.get("trump")),
                    made=made,
                )
            )
        return [*lines, ctx.tx("res_generic", who=winners)]
    adj = res.get("adjutant")
    outcome = ctx.tx("army_wins") if res.get("army_won") else ctx.tx("allies_win")
    lines = [
        "[bold]"
        + ctx.tx(
            "result_army",
            nap=ctx.name(res["napoleon"]),
            adj=ctx.tx("result_with", who=ctx.name(adj)) if adj is not None else "",
            army=res.get("army_honors"),
            bid=show_bid(res.get("contract")),
            outcome=outcome,
        )
        + "[/]"
    ]
    if res.get("alone"):
        why = (
            ctx.tx("why_declared")
            if res.get("alone_declared")
            else ctx.tx("why_card", card=show_card(res.get("adjutant_card") or "-"))
        )
        lines.append(ctx.tx("res_alone", why=why))
    if res.get("discarded_honors"):
        side = view.get("rules", {}).get("discarded_honors", "allies")
        lines.append(
            ctx.tx(
                "res_discarded",
                n=res["discarded_honors"],
                side=ctx.tx("side_allies" if side == "allies" else "side_nobody"),
            )
        )
    if res.get("early_end"):
        lines.append(ctx.tx("res_early"))
    if res.get("doubled"):
        lines.append(ctx.tx("res_all20"))
    if res.get("redeals"):
        lines.append(ctx.tx("res_redeals", n=res["redeals"]))
    return lines


def score_table(view: Mapping[str, Any], totals: Sequence[int] | None, ctx: Ctx) -> Table:
    """Per seat: role, honors (or tricks and bids), this game's score and the running total."""
    res = view.get("result") or {}
    n = len(res.get("scores", []))
    table = Table()
    table.add_column(ctx.tx("col_seat"))
    napoleon = "napoleon" in res
    if napoleon or "declarer" in res:
        table.add_column(ctx.tx("col_role"))
    if napoleon:
        table.add_column(ctx.tx("col_honors"), justify="right")
    if "bids" in res:
        table.add_column(ctx.tx("col_bid"), justify="right")
    if "tricks" in res or "tricks_won" in view:
        table.add_column(ctx.tx("col_tricks"), justify="right")
    table.add_column(ctx.tx("col_game"), justify="right")
    if totals is not None:
        table.add_column(ctx.tx("col_total"), justify="right")
    for s in range(n):
        row = [ctx.name(s) if s == ctx.human else str(s)]
        if napoleon:
            row.append(_role(res, s, ctx))
            row.append(str((view.get("honor_counts") or [0] * n)[s]))
        elif "declarer" in res:
            row.append(ctx.tx("declarer") if s == res["declarer"] else "")
        if "bids" in res:
            row.append(str(res["bids"][s]))
        if "tricks" in res:
            row.append(str(res["tricks"][s]))
        elif "tricks_won" in view:
            row.append(str(view["tricks_won"][s]))
        row.append(_score(res["scores"][s]))
        if totals is not None:
            row.append(_score(totals[s]))
        table.add_row(*row)
    return table


def _role(res: Mapping[str, Any], seat: int, ctx: Ctx) -> str:
    if seat == res.get("napoleon"):
        return f"[bold]{ctx.tx('napoleon')}[/]"
    if seat == res.get("adjutant"):
        return ctx.tx("adjutant")
    return ctx.tx("ally")


def print_standings(st: Mapping[str, Any], ctx: Ctx) -> None:
    """The heading and the table of the match standings."""
    console.print(f"[bold]{ctx.tx('standings', n=st['games_played'], total=st['games'])}[/]")
    console.print(standings_table(st, ctx))


def standings_table(st: Mapping[str, Any], ctx: Ctx) -> Table:
    """Match standings: every game's score per seat and the totals, leaders starred."""
    per_game: list[list[int]] = st["per_game"]
    table = Table()
    table.add_column(ctx.tx("col_seat"))
    for i in range(len(per_game)):
        table.add_column(str(i + 1), justify="right")
    table.add_column(ctx.tx("col_total"), justify="right")
    leaders = set(st.get("leaders", []))
    for s, total in enumerate(st["totals"]):
        name = ctx.name(s) if s == ctx.human else str(s)
        star = " ★" if s in leaders and st["games_played"] else ""
        table.add_row(name + star, *[_score(g[s]) for g in per_game], f"[bold]{_score(total)}[/]")
    return table


# --------------------------------------------------------------------------------------- play
class _Leave(Exception):
    """The human left (EOF, 'quit' or Ctrl-C); ``key`` names the goodbye message."""

    def __init__(self, key: str, code: int = 0) -> None:
        super().__init__(key)
        self.key = key
        self.code = code


def _parse_rules(rules: str | None) -> str | dict[str, Any] | None:
    """``--rules``: a preset name, or a JSON object (``{"preset": "classic", "killers": true}``)."""
    if rules is None or not rules.strip().startswith("{"):
        return rules
    try:
        value = json.loads(rules)
    except json.JSONDecodeError as e:
        raise torampu.RulesError(f"--rules is not valid JSON: {e}") from None
    if not isinstance(value, dict):
        raise torampu.RulesError("--rules must be a preset name or a JSON object")
    return value


def _bot_seed(seed: int, seat: int) -> int:
    return seed * 100 + seat


def save_record(m: torampu.Match, path: Path | None, ctx: Ctx, quiet: bool = False) -> bool:
    """Write the match record (finished games and the game in progress) to ``path``.

    The file is replaced in one step, so an interruption never leaves half a record.
    """
    if path is None:
        return True
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(
            json.dumps(m.to_record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        os.replace(tmp, path)
    except OSError as e:
        error(ctx.tx("save_failed", file=escape(str(path)), why=escape(e.strerror or str(e))))
        return False
    if not quiet:
        console.print(f"[dim]{ctx.tx('saved', file=escape(str(path)))}[/]")
    return True


def ask_human(g: torampu.Game, m: torampu.Match, ctx: Ctx) -> str:
    """Show the human's situation, read until a legal action, play it; return the action."""
    seat = ctx.human
    assert seat is not None
    view = g.view(seat)
    legal = menu_order(g.legal_actions())
    console.print()
    console.rule(f"[bold]{ctx.tx('your_turn', phase=ctx.phase(view['phase']))}[/]", align="left")
    secret = bool(view.get("adjutant_known")) and not g.view(None).get("adjutant_known")
    for line in status_lines(view, ctx, secret):
        console.print(line)
    if len(legal) == 1:
        console.print(f"[dim]{ctx.tx('only_choice')}[/] {show_action(legal[0], ctx.lang)}")
        m.play(legal[0])
        return legal[0]
    numbered = len(legal) <= MENU_MAX
    if numbered:
        console.print(menu(legal, ctx.lang))
    if not numbered or _phase_of(legal) == "adjutant":
        console.print(f"[dim]{input_hint(view, legal, ctx)}[/]")
    while True:
        try:
            line = console.input(f"[bold]{ctx.tx('prompt')}[/]")
        except EOFError:
            raise _Leave("bye_eof") from None
        word = line.strip().lower()
        if word in ("?", "help", "h"):
            console.print(ctx.tx("help"))
            continue
        if word in ("quit", "exit", "q"):
            raise _Leave("bye_quit")
        try:
            candidate = interpret(line, legal, numbered, ctx.lang)
            action = match_legal(candidate, legal) or candidate
            m.play(action)  # an illegal action raises and leaves the match unchanged
        except (IllegalAction, CardError) as e:
            error(ctx.tx("illegal", why=escape(str(e))))
            continue
        return action


def bot_turn(g: torampu.Game, m: torampu.Match, seat: int, bot: Bot) -> str:
    """Let ``bot`` decide for ``seat`` from its own view, and play its action."""
    legal = g.legal_actions()
    action = bot.choose(g.view(seat), legal)
    if action not in legal:
        raise BotError(f"bot {bot.name!r} at seat {seat} chose {action!r}, which is not legal")
    m.play(action)
    return action


def announce_game(m: torampu.Match, g: torampu.Game, ctx: Ctx) -> None:
    """The header of a new game; a spectator also sees every hand (bots have no secrets)."""
    console.print()
    console.rule(
        "[bold]"
        + ctx.tx(
            "game_header",
            no=m.games_played + 1,
            total=m.games_total,
            game=g.name,
            players=g.n,
            dealer=ctx.name(g.dealer),
        )
        + "[/]"
    )
    if ctx.human is None:
        for s in range(g.n):
            console.print(f"  {ctx.name(s)}: {show_hand(g.view(s).get('hand') or [])}")


def run_match(m: torampu.Match, bots: Mapping[int, Bot], ctx: Ctx, record: Path | None) -> None:
    """Play the match to its end: the human at ``ctx.human`` (if any), bots elsewhere."""
    current: torampu.Game | None = None
    while not m.is_over:
        g = m.game
        if g is not current:
            current = g
            announce_game(m, g, ctx)
        seat = g.to_play
        assert seat is not None
        before = g.view(ctx.human)
        human_turn = seat == ctx.human
        action = ask_human(g, m, ctx) if human_turn else bot_turn(g, m, seat, bots[seat])
        after = g.view(ctx.human)
        for line in describe(before, after, seat, action, ctx):
            console.print(line)
        if g.is_over:
            show_game_over(g, m.games_played, m.games_total, list(m.totals), ctx)
            save_record(m, record, ctx)
    console.print()
    print_standings(m.standings(), ctx)
    leaders = ", ".join(ctx.name(s) for s in m.standings()["leaders"])
    console.print(f"[bold]{ctx.tx('match_over')} {ctx.tx('leaders', who=leaders)}[/]")


def show_game_over(
    g: torampu.Game, no: int, total: int, totals: Sequence[int] | None, ctx: Ctx
) -> None:
    """The result of a finished game: in words, then the score table."""
    view = g.view(None)
    console.print()
    for line in result_lines(view, ctx):
        console.print(line)
    console.print(f"[bold]{ctx.tx('result_title', no=no, total=total)}[/]")
    console.print(score_table(view, totals, ctx))


@app.command()
def play(
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="napoleon (nap and hell: basic support)")
    ],
    rules: Annotated[
        str | None,
        typer.Option(help="a preset (see `torampu rules GAME`) or JSON: '{\"preset\": …, …}'"),
    ] = None,
    seat: Annotated[str, typer.Option(help="your seat 0..n-1, or 'none' to watch bots")] = "0",
    watch: Annotated[bool, typer.Option("--watch", help="watch bots only (= --seat none)")] = False,
    lang: Annotated[Lang, typer.Option(help="language of the table")] = Lang.en,
    games: Annotated[
        int | None, typer.Option(help="games in the match (Napoleon: 5)", min=1)
    ] = None,
    bots: Annotated[str, typer.Option(help="bot kind for the other seats")] = "heuristic",
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seed: Annotated[int | None, typer.Option(help="seed of a reproducible match")] = None,
    record: Annotated[
        Path | None, typer.Option(help="save the match record (JSON) here after every game")
    ] = None,
) -> None:
    """Play a match in the terminal against bots (or watch bots play)."""
    ctx = Ctx(lang=lang.value, n=0)
    try:
        if seed is None:
            seed = secrets.randbelow(10**9)  # short enough to type back with --seed
        m = torampu.new_match(
            game, rules=_parse_rules(rules), players=players, games=games, seed=seed
        )
        ctx.n = m.n
        if watch or seat.strip().lower() in ("none", "watch", "-"):
            human: int | None = None
        else:
            try:
                human = int(seat)
            except ValueError:
                raise torampu.RulesError(
                    f"--seat must be 0..{m.n - 1} or none, not {seat!r}"
                ) from None
            if not 0 <= human < m.n:
                raise torampu.RulesError(f"--seat must be 0..{m.n - 1} or none, not {human}")
        ctx.human = human
        bot_of = {
            s: make_bot(bots, seed=_bot_seed(seed, s), game=game) for s in range(m.n) if s != human
        }
    except BotError as e:
        kinds = ", ".join(bot_kinds())
        error(f"{escape(str(e))} (--bots: {kinds})")
        raise typer.Exit(1) from None
    except (TorampuError, ValueError) as e:
        error(escape(str(e)))
        raise typer.Exit(1) from None
    console.print(f"[dim]{ctx.tx('seed', seed=seed)}[/]")
    if human is None:
        console.print(ctx.tx("watching", n=m.n, kind=bots))
    else:
        console.print(ctx.tx("playing", seat=human, kind=bots))
    if not save_record(m, record, ctx, quiet=True):
        raise typer.Exit(1)
    try:
        run_match(m, bot_of, ctx, record)
    except _Leave as leave:
        console.print(f"\n{ctx.tx(leave.key)}")
        save_record(m, record, ctx)
        raise typer.Exit(leave.code) from None
    except KeyboardInterrupt:
        console.print(f"\n{ctx.tx('bye_interrupt')}")
        save_record(m, record, ctx)
        raise typer.Exit(130) from None
    except BotError as e:
        error(escape(str(e)))
        save_record(m, record, ctx)
        raise typer.Exit(1) from None


# --------------------------------------------------------------------------------------- replay
def load_record(file: Path) -> dict[str, Any]:
    """Read a record file; :class:`RecordError` if it is not a JSON object."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise RecordError(f"cannot read it: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    return data


def verify(data: Mapping[str, Any]) -> tuple[list[dict[str, Any]], torampu.Match | None]:
    """Replay a game or match record; return its game records (checked) and the match.

    Raises a :class:`TorampuError` (or ``KeyError``/``TypeError`` for a mangled record) at the
    first problem: a bad header, an illegal step, or a stored result that the replay contradicts.
    """
    check_record_header(data)
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"record seed must be an int, not {seed!r}")
    if data.get("match"):
        stored = data.get("records") or []
        if not isinstance(stored, list):
            raise RecordError("match 'records' must be a list")
        for i, game in enumerate(stored):
            if not isinstance(game, Mapping):
                raise RecordError(f"game {i} of the match is not a JSON object")
        m = torampu.replay_match(data)
        games = [*m.records]
        if not m.is_over and len(stored) > len(m.records):
            games.append(m.game.to_record())
        for i, (mine, theirs) in enumerate(zip(games, stored, strict=False)):
            for key in ("deal", "actions", "result"):
                if key in theirs and theirs[key] != mine.get(key):
                    raise RecordError(f"game {i}: its {key!r} differs from the match's replay")
        if "standings" in data and data["standings"] != m.standings():
            raise RecordError("the stored standings differ from the replay")
        return games, m
    g = torampu.replay(data)
    if "result" in data and data["result"] != g.result():
        raise RecordError("the stored result differs from the replay")
    return [g.to_record()], None


def _rules_summary(rec: Mapping[str, Any], ctx: Ctx) -> str:
    """The rules of a record: the preset they equal, or the options that differ from defaults."""
    rules: dict[str, Any] = dict(rec.get("rules", {}))
    game = rec.get("game", "")
    for name in torampu.presets(game):
        try:
            same = torampu.new_game(game, rules=name, players=rules.get("players"), seed=0).rules
        except TorampuError:
            continue
        if dict(same) == rules:
            return name
    defaults = {o["name"]: o["default"] for o in torampu.rules(game)}
    diff = [f"{k}={json.dumps(v)}" for k, v in rules.items() if defaults.get(k) != v]
    return ", ".join(diff) or ctx.tx("rules_defaults")


def tell_story(
    rec: Mapping[str, Any], no: int, total: int, totals: Sequence[int] | None, ctx: Ctx
) -> None:
    """The story of one game record: deal, auction, contract, exchange, every trick, result."""
    g = torampu.replay({**rec, "actions": []})
    ctx.n = g.n
    console.print()
    console.rule(
        "[bold]"
        + ctx.tx(
            "game_header", no=no, total=total, game=g.name, players=g.n, dealer=ctx.name(g.dealer)
        )
        + "[/]"
    )
    console.print(ctx.tx("story_rules", rules=escape(_rules_summary(rec, ctx))))
    _print_deal(g, ctx, rec.get("deal", {}).get("widow"))
    console.print(f"[bold]{ctx.tx('story_auction')}[/]")
    for step in rec.get("actions", []):
        seat, action = step["seat"], step["action"]
        before = g.view(None)
        widow = g.view(seat).get("widow") if before.get("phase") == "exchange" else None
        redeals = before.get("redeals", 0)
        g.play(action)
        after = g.view(None)
        for line in describe(before, after, seat, action, ctx, widow=widow, omniscient=True):
            console.print(line)
        if after.get("redeals", 0) > redeals:
            _print_deal(g, ctx, None)
        if after.get("phase") == "play" and before.get("phase") != "play":
            _print_adjutant_secret(g, after, ctx)
    if g.is_over:
        show_game_over(g, no, total, totals, ctx)
    else:
        console.print(f"[yellow]{ctx.tx('story_unfinished')}[/]")


def _print_deal(g: torampu.Game, ctx: Ctx, widow: Sequence[str] | None) -> None:
    console.print(f"[bold]{ctx.tx('story_deal')}[/]")
    for s in range(g.n):
        console.print(f"  {ctx.name(s)}: {show_hand(g.view(s).get('hand') or [])}")
    if widow:
        console.print(f"  {ctx.tx('widow')}: {show_cards(widow)}")


def _print_adjutant_secret(g: torampu.Game, view: Mapping[str, Any], ctx: Ctx) -> None:
    card = view.get("adjutant_card")
    if not card or view.get("alone_declared"):
        return
    holder = next((s for s in range(g.n) if card in (g.view(s).get("hand") or [])), None)
    if holder is None:
        console.print(f"[dim]{ctx.tx('ev_card_nowhere', card=show_card(card))}[/]")
    else:
        console.print(
            f"[dim]{ctx.tx('ev_secret_holder', card=show_card(card), who=ctx.name(holder))}[/]"
        )


@app.command()
def replay(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="a record written by torampu (a game or a match)")
    ],
    lang: Annotated[Lang, typer.Option(help="language of the story")] = Lang.en,
) -> None:
    """Check a record and tell the game's story (exit code 1 if the record is bad)."""
    ctx = Ctx(lang=lang.value, n=0)
    try:
        data = load_record(file)
        games, m = verify(data)
    except (TorampuError, KeyError, TypeError, AttributeError) as e:
        why = str(e) if not isinstance(e, KeyError) else f"missing {e}"
        error(ctx.tx("replay_failed", file=escape(str(file)), why=escape(why)))
        raise typer.Exit(1) from None
    if m is not None:
        console.print(
            ctx.tx(
                "story_match",
                total=m.games_total,
                played=len(games),
                game=m.name,
                players=m.n,
            )
        )
    running = [0] * (m.n if m is not None else 0)
    for i, rec in enumerate(games):
        totals: list[int] | None = None
        if m is not None and "result" in rec:
            running = [a + b for a, b in zip(running, rec["result"]["scores"], strict=True)]
            totals = running
        tell_story(rec, i + 1, m.games_total if m is not None else 1, totals, ctx)
    if m is not None and m.games_played:
        console.print()
        print_standings(m.standings(), ctx)
    console.print(f"[green]{ctx.tx('story_verified')}[/]")


# --------------------------------------------------------------------------------------- rules
def _fmt(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, list):
        return json.dumps(value) if value else "[]"
    return str(value)


def _fmt_values(option: Mapping[str, Any]) -> str:
    """The allowed values of an option; a long run of whole numbers as a range (``-100…100``)."""
    values = list(option.get("values") or [])
    if not values:
        return "list of cards" if option.get("type") == "cards" else "-"
    ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if len(values) > 6 and len(ints) == len(values) and max(ints) - min(ints) == len(ints) - 1:
        return f"{min(ints)}…{max(ints)}"
    return ", ".join(_fmt(v) for v in values)


def options_table(game: str, options: Sequence[Mapping[str, Any]], width: int) -> Table:
    """Every option: name, type, allowed values, default, description, source.

    From 120 columns on, one column each; narrower, two columns: the name with its type and
    source, then the values, the default and the description one under the other.
    """
    wide = width >= 120
    table = Table(
        title=f"{game}: options", title_justify="left", title_style="bold", show_lines=not wide
    )
    name_width = max((len(o["name"]) for o in options), default=8)
    if wide:
        table.add_column("option", no_wrap=True, min_width=name_width)
        table.add_column("type", no_wrap=True)
        table.add_column("values", max_width=24)
        table.add_column("default", max_width=16)
        table.add_column("description", ratio=1)
        table.add_column("source", no_wrap=True)
    else:
        table.add_column("option · type · source", no_wrap=True, min_width=name_width)
        table.add_column("values · default · description", ratio=1)
    for o in options:
        name = f"[bold]{escape(o['name'])}[/]"
        kind = escape(str(o["type"]))
        desc = escape(str(o.get("description", "")))
        source = escape(str(o.get("source", "")))
        values = escape(_fmt_values(o))
        default = escape(_fmt(o["default"]))
        if wide:
            table.add_row(name, kind, values, default, desc, source)
        else:
            table.add_row(
                f"{name}\n[dim]{kind} · {source}[/]",
                f"{values}\n[dim]default[/] [bold]{default}[/]\n[italic]{desc}[/]",
            )
    return table


def presets_table(game: str, presets: Mapping[str, Mapping[str, Any]]) -> Table:
    """Every preset with the options it changes from the defaults."""
    table = Table(title=f"{game}: presets", title_justify="left", title_style="bold")
    width = max((len(p) for p in presets), default=8)
    table.add_column("preset", no_wrap=True, min_width=width, style="bold")
    table.add_column("overrides", overflow="fold")
    table.add_column("note", overflow="fold")
    for name, p in presets.items():
        overrides = ", ".join(f"{k}={_fmt(v)}" for k, v in p["options"].items()) or "-"
        table.add_row(name, escape(overrides), escape(str(p.get("note", ""))))
    return table


@app.command()
def rules(
    game: Annotated[str, typer.Argument(metavar="GAME", help="napoleon, nap or hell")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of tables")] = False,
) -> None:
    """Print every option of GAME (type, values, default, description, source) and its presets."""
    try:
        opts = torampu.rules(game)
        presets = torampu.presets(game)
    except TorampuError as e:
        error(escape(str(e)))
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(
            json.dumps(
                {"game": game, "options": opts, "presets": presets}, ensure_ascii=False, indent=1
            )
        )
        return
    console.print(options_table(game, opts, console.width))
    console.print(presets_table(game, presets))
    example = next(iter(presets), "")
    console.print(
        f"[dim]torampu play {escape(game)} --rules {escape(example)}   or   "
        f'--rules \'{{"preset": "{escape(example)}", "players": 4}}\'[/]'
    )


def main() -> None:
    """Entry point of the ``torampu`` command."""
    app(prog_name="torampu")


if __name__ == "__main__":
    main()
