"""Shared pieces of the terminal front end: cards on screen, reading what a person types, seats
and words (:class:`Ctx`), menus, trick lines and score tables.

Every function here is game-agnostic; what differs between Napoleon, Nap and Hell lives in the
renderers of :mod:`torampu.cli.games`. Display functions return Rich markup (strings) or tables.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from torampu.cards import HONORS, SUIT_LETTERS, SUIT_SYMBOLS, card_str, parse_card, sort_key
from torampu.cli.text import TEXT
from torampu.errors import CardError, IllegalAction
from torampu.explain import fill

console = Console(highlight=False)

MENU_MAX = 60
"""Numbered menus are shown (and numbers accepted) only up to this many legal actions.

Bids (41-56 entries) and the adjutant card (52-54) fit; the exchange (66 to thousands of
combinations) never does: there the player types the cards to put back.
"""


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


_SUIT_IN_PARENS = re.compile(r"\(([SHDC])\)")


def prettify(text: str) -> str:
    """Free text (an explanation) with every card token shown with its suit symbol, and a suit
    named by its letter in parentheses by its symbol ("highest trump (H)" read as a letter).

    >>> prettify("9D wins: highest trump (D)")
    '[bold red]♦9[/] wins: highest trump (♦)'
    """
    text = _SUIT_IN_PARENS.sub(lambda m: f"({SUIT_SYMBOLS[SUIT_LETTERS.index(m[1])]})", text)
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


def is_card(word: str) -> bool:
    """Whether ``word`` is a canonical card string (``AS``, ``TD``, ``JK``)."""
    return _CARD_TOKEN.fullmatch(word) is not None


def honors_in(cards: Iterable[str]) -> int:
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


def action_phase(legal: Sequence[str]) -> str:
    """The kind of decision, read off the legal actions (bid, adjutant, discard, play, …)."""
    verbs = {a.split()[0] for a in legal if a}
    for v in ("discard", "adjutant", "play", "bid"):
        if v in verbs:
            return v
    return "pass" if "pass" in verbs else ""


FULL_WIDTH = {0xFF01 + i: 0x21 + i for i in range(0x5E)} | {0x3000: 0x20}
"""Full-width ASCII forms (and the ideographic space) to ASCII."""


def interpret(text: str, legal: Sequence[str], numbered: bool = True, lang: str = "en") -> str:
    """What a person typed as a canonical(-looking) action string, not yet checked for legality.

    Accepts a menu number (1-based, only when ``numbered``), the action itself in any case and
    card spelling, a bare card (play, or the adjutant card), bare cards (the exchange), a bid
    shorthand (``13S``, ``13♠``). Raises :class:`IllegalAction` for what it cannot read.
    """
    tx = TEXT[lang]
    # full-width letters and digits as typed with a Japanese input method ("１３ｓ") are the
    # ASCII ones: the engine reads ASCII digits only (a superscript "²" stays unreadable)
    t = text.translate(FULL_WIDTH).strip()
    if not t:
        raise IllegalAction(tx["empty"])
    if t.isdecimal():
        if not numbered:
            raise IllegalAction(tx["no_menu"])
        if len(t) > 6:  # (int() would refuse 4,300 digits in Python's words)
            raise IllegalAction(tx["no_entry"].format(k=t[:6] + "…", n=len(legal)))
        k = int(t)
        if not 1 <= k <= len(legal):
            raise IllegalAction(tx["no_entry"].format(k=k, n=len(legal)))
        return legal[k - 1]
    if t in legal:
        return t
    words = t.split()
    verb = words[0].lower()
    rest = words[1:]
    phase = action_phase(legal)
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
    """Who is looking, in which language, at which game: names seats and picks words.

    :meth:`tx` prefers a game's own phrase: with ``game="hell"``, ``tx("help")`` is the phrase
    ``hell_help`` when there is one, else the common ``help``.
    """

    lang: str
    n: int
    human: int | None = None
    game: str = ""

    def has(self, key: str) -> bool:
        words = TEXT[self.lang]
        return key in words or f"{self.game}_{key}" in words

    def tx(self, key: str, **kw: Any) -> str:
        words = TEXT[self.lang]
        text = words.get(f"{self.game}_{key}") if self.game else None
        if text is None:
            text = words[key]
        return fill(text, **kw) if kw else text

    def game_name(self, game: str) -> str:
        """A game's name for the reader ("napoleon" read as an identifier in the headers)."""
        return TEXT[self.lang].get(f"title_{game}", game)

    def bot_kind(self, spec: str) -> str:
        """A bot spec for the reader: its kind in the reader's words, its options as given."""
        kind, _, options = spec.partition(":")
        shown = TEXT[self.lang].get(f"kind_{kind}", kind)
        return f"{shown}: {options}" if options else shown

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
        return self.tx(key) if self.has(key) else phase

    def seats(self, seats: Iterable[int]) -> str:
        """Seat names joined (``seat 1, seat 3``), or 'nobody'."""
        return self.tx("sep").join(self.name(s) for s in seats) or self.tx("res_nobody")


# --------------------------------------------------------------------------------------- menus
def menu_order(legal: Sequence[str]) -> list[str]:
    """The legal actions in menu order: cards as a hand is sorted (♠A first), others first."""

    def key(action: str) -> tuple[int, tuple[int, int], int]:
        words = action.split()
        if words[0] in ("play", "adjutant") and len(words) > 1 and _CARD_TOKEN.fullmatch(words[1]):
            return (1, sort_key(parse_card(words[1])), len(words))
        return (0, (0, 0), 0)

    if action_phase(legal) not in ("play", "adjutant"):
        return list(legal)
    return sorted(legal, key=key)


def menu(entries: Sequence[tuple[str, str]]) -> Columns:
    """A menu in columns: each entry is (what to type, what it does); an empty label shows the
    key alone (Hell's bids: the number to type is the bid)."""
    return Columns(
        [f"[cyan]{key:>2}[/] {label}" if label else f"[cyan]{key:>2}[/]" for key, label in entries],
        padding=(0, 2),
    )


# --------------------------------------------------------------------------------------- tricks
def trick_lines(
    no: int, trick: Mapping[str, Any], ctx: Ctx, count_honors: bool = True
) -> list[str]:
    """A finished trick: its cards, who took it (with how many honors), and why (in ctx.lang)."""
    cards = " ".join(f"{ctx.short(c['seat'])}:{show_card(c['card'])}" for c in trick["cards"])
    who = ctx.name(trick["winner"])
    if count_honors:
        honors = honors_in(c["card"] for c in trick["cards"])
        n_honors = ctx.tx("honors_n" if honors != 1 else "honors_1", n=honors)
        head = ctx.tx("trick_line", no=no, cards=cards, who=who, honors=n_honors)
    else:
        head = ctx.tx("trick_line_plain", no=no, cards=cards, who=who)
    why = trick.get("why", {}).get(ctx.lang, "")
    return [head, f"    [italic cyan]{prettify(why)}[/]"] if why else [head]


# --------------------------------------------------------------------------------------- scores
def score(v: int) -> str:
    if v > 0:
        return f"[green]+{v}[/]"
    if v < 0:
        return f"[red]{v}[/]"
    return "0"


def padded_score(v: int, width: int) -> str:
    """:func:`score` right-aligned in ``width`` characters (markup does not count)."""
    text = f"+{v}" if v > 0 else str(v)
    return " " * max(0, width - len(text)) + score(v)


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
        table.add_row(name + star, *[score(g[s]) for g in per_game], f"[bold]{score(total)}[/]")
    return table


def print_standings(st: Mapping[str, Any], ctx: Ctx) -> None:
    """The heading and the table of the match standings."""
    console.print(f"[bold]{ctx.tx('standings', n=st['games_played'], total=st['games'])}[/]")
    console.print(standings_table(st, ctx))
