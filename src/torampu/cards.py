"""Cards, suits and card sets.

A card is an ``int``: ``suit * 13 + rank`` where rank 0 is the 2 and rank 12 the ace, suits in the
order ``S H D C``; the joker is 52. A set of cards is an ``int`` bit set (bit ``c`` set when card
``c`` is in it), so hands, tricks and masks are cheap to copy, intersect and count.

The canonical string of a card is rank then suit, ``AS KH TD 2C``; jokers are ``JK``. Parsing also
accepts suit symbols in either order (``♠A``, ``A♠``), ``10`` for ``T`` and lower case.

>>> parse_card("AS"), card_str(0 * 13 + 12)
(12, 'AS')
>>> parse_card("♥10") == parse_card("TH")
True
>>> cards_str(parse_cards("2C AS JK"))
'AS 2C JK'
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator
from functools import lru_cache
from random import Random
from typing import Final

from torampu.errors import CardError

Card = int
"""A card: ``suit * 13 + rank`` (rank 0 = 2 … 12 = A), or :data:`JOKER`."""
CardSet = int
"""A set of cards as a bit set: bit ``c`` is set when card ``c`` is in the set."""
Suit = int
"""A suit: 0 = ♠ S, 1 = ♥ H, 2 = ♦ D, 3 = ♣ C."""

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
SUITS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
RANK_LETTERS: Final = "23456789TJQKA"

JOKER: Final = 52
JOKER_BIT: Final = 1 << JOKER

TWO: Final = 0
TEN: Final = 8
JACK: Final = 9
QUEEN: Final = 10
KING: Final = 11
ACE: Final = 12


def make_card(rank: int, suit: Suit) -> Card:
    """The card of ``rank`` (0 = 2 … 12 = A) in ``suit``.

    >>> card_str(make_card(ACE, SPADES))
    'AS'
    """
    return suit * 13 + rank


def suit_of(card: Card) -> Suit:
    """The printed suit of a card (the joker has none: -1)."""
    return -1 if card == JOKER else card // 13


def rank_of(card: Card) -> int:
    """The rank of a card, 0 = 2 … 12 = A (the joker: 13)."""
    return 13 if card == JOKER else card % 13


SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in SUITS)
"""The 13 cards of each suit, as card sets."""
FULL_DECK: Final = (1 << 52) - 1
HONORS: Final = sum(1 << make_card(r, s) for s in SUITS for r in (TEN, JACK, QUEEN, KING, ACE))
"""The 20 honors (絵札): A K Q J T of every suit."""

_CARD_STRS: Final = [RANK_LETTERS[c % 13] + SUIT_LETTERS[c // 13] for c in range(52)] + ["JK"]


def card_str(card: Card) -> str:
    """The canonical string of a card: ``AS``, ``TD``, ``JK``."""
    return _CARD_STRS[card]


_SYMBOL_TO_LETTER = dict(zip(SUIT_SYMBOLS, SUIT_LETTERS, strict=True)) | {
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}
_PARSE: Final[dict[str, Card]] = {s: c for c, s in enumerate(_CARD_STRS)}


def parse_card(text: str) -> Card:
    """Parse one card, canonical or with suit symbols, ``10`` for ``T``, any case.

    >>> parse_card("jk") == JOKER
    True
    >>> parse_card("XX")
    Traceback (most recent call last):
    ...
    torampu.errors.CardError: not a card: 'XX' (write rank then suit, e.g. AS, TD, 2C, JK)
    """
    card = _PARSE.get(text)
    if card is not None:
        return card
    t = text.strip().upper()
    for sym, letter in _SYMBOL_TO_LETTER.items():
        t = t.replace(sym, letter)
    t = t.replace("10", "T").replace("JOKER", "JK")
    if t in _PARSE:
        return _PARSE[t]
    if len(t) == 2 and t[0] in SUIT_LETTERS and t[1] in RANK_LETTERS + "K":
        swapped = t[1] + t[0]
        if swapped in _PARSE:
            return _PARSE[swapped]
    raise CardError(f"not a card: {text!r} (write rank then suit, e.g. AS, TD, 2C, JK)")


def bit(card: Card) -> CardSet:
    """The set holding only ``card``."""
    return 1 << card


def cards_of(cards: CardSet) -> list[Card]:
    """The cards of a set, ascending by index (suit S H D C, then rank 2..A, joker last)."""
    out: list[Card] = []
    while cards:
        low = cards & -cards
        out.append(low.bit_length() - 1)
        cards ^= low
    return out


def iter_cards(cards: CardSet) -> Iterator[Card]:
    """Iterate the cards of a set in index order."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


def to_set(cards: Iterable[Card]) -> CardSet:
    """A card set from cards."""
    s = 0
    for c in cards:
        s |= 1 << c
    return s


def count(cards: CardSet) -> int:
    """How many cards a set holds."""
    return cards.bit_count()


def sort_key(card: Card) -> tuple[int, int]:
    """Display order: suits S H D C, high ranks first, the joker last."""
    return (4, 0) if card == JOKER else (card // 13, -(card % 13))


def sorted_cards(cards: CardSet | Iterable[Card]) -> list[Card]:
    """Cards in display order (suits S H D C, high to low, joker last)."""
    lst = cards_of(cards) if isinstance(cards, int) else list(cards)
    return sorted(lst, key=sort_key)


def cards_str(cards: CardSet | Iterable[Card]) -> str:
    """Canonical strings of cards in display order, space separated."""
    return " ".join(_CARD_STRS[c] for c in sorted_cards(cards))


def card_list(cards: CardSet | Iterable[Card]) -> list[str]:
    """Canonical strings of cards in display order, as a JSON-safe list (a new list each call).

    >>> card_list(parse_cards("2S AS JK"))
    ['AS', '2S', 'JK']
    """
    if isinstance(cards, int):
        return list(_set_strs(cards))
    return [_CARD_STRS[c] for c in sorted_cards(cards)]


@lru_cache(maxsize=1 << 15)
def _set_strs(cards: CardSet) -> tuple[str, ...]:
    """``card_list`` of a set, memoized: views list the same hands and piles over and over."""
    return tuple(_CARD_STRS[c] for c in sorted_cards(cards))


def parse_cards(text: str | Iterable[str]) -> CardSet:
    """Parse cards separated by spaces or commas (or a list of card strings) into a set.

    Raises :class:`CardError` on an unknown or repeated card.
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    s = 0
    for p in parts:
        c = parse_card(p)
        if s >> c & 1:
            raise CardError(f"card {card_str(c)} given twice")
        s |= 1 << c
    return s


def pretty(card: Card) -> str:
    """A card with its suit symbol, for people: ``♠A``, ``♥10``, ``JK``."""
    if card == JOKER:
        return "JK"
    rank = RANK_LETTERS[card % 13]
    return SUIT_SYMBOLS[card // 13] + ("10" if rank == "T" else rank)


def shuffled(rng: Random, cards: list[Card]) -> list[Card]:
    """A shuffled copy of ``cards``, drawing all its randomness from ``rng`` in one call.

    Fisher–Yates driven by one big random integer (64 bits more than ``log2(n!)``, so the bias is
    below 2**-64): far cheaper than ``Random.shuffle`` and just as reproducible from a seed.
    """
    out = list(cards)
    n = len(out)
    x = rng.getrandbits(_PERM_BITS[n] if n < len(_PERM_BITS) else _perm_bits(n))
    for i in range(n - 1, 0, -1):
        x, j = divmod(x, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def seeded_shuffle(seed: int, cards: list[Card]) -> list[Card]:
    """A shuffled copy of ``cards`` determined by ``seed`` alone, without a ``Random`` object.

    The same Fisher–Yates as :func:`shuffled`, driven by SHAKE-256 of the seed: a deal that needs
    no other randomness (Hell) is made in a third of the time.

    >>> seeded_shuffle(7, list(range(5))) == seeded_shuffle(7, list(range(5)))
    True
    >>> sorted(seeded_shuffle(7, list(range(52)))) == list(range(52))
    True
    """
    out = list(cards)
    n = len(out)
    nbits = _PERM_BITS[n] if n < len(_PERM_BITS) else _perm_bits(n)
    raw = hashlib.shake_256(seed.to_bytes(16, "little", signed=True)).digest((nbits + 7) // 8)
    x = int.from_bytes(raw, "little")
    for i in range(n - 1, 0, -1):
        x, j = divmod(x, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _perm_bits(n: int) -> int:
    return math.factorial(n).bit_length() + 64


_PERM_BITS: Final = [_perm_bits(n) for n in range(60)]


def deck(jokers: int = 0, removed: CardSet = 0) -> list[Card]:
    """A fresh deck in index order: 52 cards (less ``removed``) and ``jokers`` jokers (0 or 1)."""
    cards = [c for c in range(52) if not removed >> c & 1]
    cards.extend([JOKER] * jokers)
    return cards
