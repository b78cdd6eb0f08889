"""Daifugo plays: their integer encoding, canonical strings, shape and enumeration.

Daifugo ranks run 3 4 5 … K A 2 (``drank`` 0..12), then the joker (13). A *play* is a single, a
group (2+ cards standing for one rank) or a run (3+ consecutive ranks of one suit); jokers may
stand in for any card of a group or a run. Jokers are interchangeable, so a hand holds its real
cards as a card set and its jokers as a count.

A move is an ``int`` (see :mod:`torampu.game`):

* bits 0..51: the real cards played (or given, discarded, returned);
* bits 52..53: how many jokers;
* bits 54..57: for a run, its lowest rank (the cells its jokers stand for are the rest of the
  run: :func:`run_cells`);
* bit 61: the play is a run; bits 58..60: the kind of action (play, pass, give, discard,
  exchange).

Every move is below 2**62, so the compiled engine keeps it as a machine word, never as a
Python long.

The canonical string of a play lists its cards ascending (groups by suit ♣ ♦ ♥ ♠, jokers last;
runs by rank, each joker in the place it stands for). A run with one real card is written with
its jokers' places, ``JK=6H``, so that it differs from a group (``5H JK JK`` is three 5s).

>>> m = parse_play("5H JK 7H")
>>> play_str(m), info(m).kind == RUN, info(m).high == drank_of(parse_card("7H"))
('5H JK 7H', True, True)
>>> play_str(parse_play("JK 3H 3D"))
'3D 3H JK'
>>> [play_str(p) for p in all_plays(parse_cards("3D 3H 4H 5H"), 0, True, True)]
['3D', '3H', '4H', '5H', '3D 3H', '3H 4H 5H']
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any, Final, final

from torampu.cards import CardSet, card_str, cards_of, parse_card, parse_cards  # noqa: F401
from torampu.errors import CardError, IllegalAction

REAL: Final = (1 << 52) - 1
JSHIFT: Final = 52
LSHIFT: Final = 54
KSHIFT: Final = 58
RUN_FLAG: Final = 1 << 61

K_PLAY: Final = 0
K_PASS: Final = 1
K_GIVE: Final = 2
K_DISCARD: Final = 3
K_EXCHANGE: Final = 4

PASS: Final = K_PASS << KSHIFT
GIVE: Final = K_GIVE << KSHIFT
DISCARD: Final = K_DISCARD << KSHIFT
EXCHANGE: Final = K_EXCHANGE << KSHIFT

SINGLE: Final = 1
GROUP: Final = 2
RUN: Final = 3
SHAPES: Final = {SINGLE: "single", GROUP: "group", RUN: "run"}

JOKER_RANK: Final = 13
"""The daifugo rank of a joker alone, or of a group of jokers only: above the 2."""

DRANK_NAMES: Final = "3456789TJQKA2"
D3, D4, D5, D7, D8, D9, D10, DJ, DQ, DK, DA, D2 = 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12


def drank_of(card: int) -> int:
    """The daifugo rank of a card: 3 is 0 … A is 11, 2 is 12."""
    return (card % 13 + 12) % 13


def card_at(drank: int, suit: int) -> int:
    """The card of daifugo rank ``drank`` in ``suit`` (0 S, 1 H, 2 D, 3 C)."""
    return suit * 13 + (drank + 1) % 13


DRANK: Final = tuple(drank_of(c) for c in range(52))
RANK_SET: Final = tuple(sum(1 << card_at(d, s) for s in range(4)) for d in range(13))
"""The four cards of each daifugo rank, as card sets."""
TWOS: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""The four 2s (card 0 of each suit): rank ``d``'s cards are ``TWOS << (d + 1) % 13``, which the
hot loops compute rather than read from :data:`RANK_SET` (a tuple's item is an object to unbox).

>>> all(TWOS << (d + 1) % 13 == RANK_SET[d] for d in range(13))
True
"""
SUIT_SET: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
THREE_SPADES: Final = card_at(D3, 0)
KING_HEARTS: Final = card_at(DK, 1)

_GROUP_SUIT_ORDER: Final = (3, 2, 1, 0)  # ascending strength for display: C D H S


@final
class Info:
    """The shape of a play, as the rules need it (a plain class, not a tuple: the compiled
    engine reads its fields as native integers; read-only by convention, one per move)."""

    kind: int
    """SINGLE, GROUP or RUN."""
    size: int
    rank: int
    """Single/group: the rank it stands for (JOKER_RANK for jokers only); run: its lowest rank."""
    high: int
    """Run: its highest rank; otherwise = rank."""
    suits: int
    """Suits of the real cards (bit s for suit s); a run's one suit."""
    jokers: int
    effect: int
    """The rank whose card effects apply (a run: its highest card); -1 for jokers alone."""
    n_effect: int
    """How many cards of ``effect`` (a run: 1)."""
    real: CardSet

    __slots__ = ("effect", "high", "jokers", "kind", "n_effect", "rank", "real", "size", "suits")

    def __init__(
        self,
        kind: int,
        size: int,
        rank: int,
        high: int,
        suits: int,
        jokers: int,
        effect: int,
        n_effect: int,
        real: CardSet,
    ) -> None:
        self.kind = kind
        self.size = size
        self.rank = rank
        self.high = high
        self.suits = suits
        self.jokers = jokers
        self.effect = effect
        self.n_effect = n_effect
        self.real = real

    def _fields(self) -> tuple[int, ...]:
        return (
            self.kind,
            self.size,
            self.rank,
            self.high,
            self.suits,
            self.jokers,
            self.effect,
            self.n_effect,
            self.real,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Info) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        names = ("kind", "size", "rank", "high", "suits", "jokers", "effect", "n_effect", "real")
        args = ", ".join(f"{k}={v}" for k, v in zip(names, self._fields(), strict=True))
        return f"Info({args})"


_INFO: Final[dict[int, Info]] = {}


def info(move: int) -> Info:
    """The shape of a play move (memoized)."""
    got = _INFO.get(move)
    if got is not None:
        return got
    real = move & REAL
    j = move >> JSHIFT & 3
    size = real.bit_count() + j
    suits = 0
    r = real
    while r:
        low = r & -r
        suits |= 1 << ((low.bit_length() - 1) // 13)
        r ^= low
    if move & RUN_FLAG:
        lo = move >> LSHIFT & 15
        hi = lo + size - 1
        got = Info(RUN, size, lo, hi, suits, j, hi, 1, real)
    elif size == 1:
        if j:
            got = Info(SINGLE, 1, JOKER_RANK, JOKER_RANK, 0, 1, -1, 1, 0)
        else:
            d = DRANK[real.bit_length() - 1]
            got = Info(SINGLE, 1, d, d, suits, 0, d, 1, real)
    else:
        d = DRANK[real.bit_length() - 1] if real else JOKER_RANK
        got = Info(GROUP, size, d, d, suits, j, d if real else -1, size, real)
    _INFO[move] = got
    return got


def run_move(real: CardSet, jokers: int, cells: CardSet) -> int:
    """The move of a run: its real cards, its jokers and the cells they stand for (cards of the
    run's suit; together with ``real``, consecutive ranks).

    >>> play_str(run_move(parse_cards("5H 7H"), 1, parse_cards("6H")))
    '5H JK 7H'
    """
    low = min(DRANK[c] for c in cards_of(real | cells))
    return real | jokers << JSHIFT | low << LSHIFT | RUN_FLAG


def run_cells(move: int) -> CardSet:
    """The cells a run's jokers stand for, as cards of its suit: the run's ranks (from its
    lowest, as many as it has cards) not held by its real cards.

    >>> [card_str(c) for c in cards_of(run_cells(parse_play("5H JK 7H JK")))]
    ['6H', '8H']
    """
    real = move & REAL
    suit = ((real & -real).bit_length() - 1) // 13
    low = move >> LSHIFT & 15
    span = 0
    for d in range(low, low + real.bit_count() + (move >> JSHIFT & 3)):
        span |= 1 << card_at(d, suit)
    return span & ~real


# ------------------------------------------------------------------------------------- strings
def _group_key(c: int) -> tuple[int, int]:
    return (DRANK[c], _GROUP_SUIT_ORDER[c // 13])


def cards_words(real: CardSet, jokers: int) -> list[str]:
    """Card strings of a set of real cards and jokers: ascending rank, suits ♣ ♦ ♥ ♠, jokers last.

    >>> cards_words(parse_cards("2S 3H 3C"), 1)
    ['3C', '3H', '2S', 'JK']
    """
    return [card_str(c) for c in sorted(cards_of(real), key=_group_key)] + ["JK"] * jokers


def play_words(move: int) -> list[str]:
    """The cards of a play in canonical order (jokers of a run in their place)."""
    real = move & REAL
    j = move >> JSHIFT & 3
    if not move & RUN_FLAG:
        return cards_words(real, j)
    cells = run_cells(move)
    explicit = real.bit_count() == 1
    out = []
    for c in sorted(cards_of(real | cells), key=lambda c: DRANK[c]):
        if real >> c & 1:
            out.append(card_str(c))
        else:
            out.append(f"JK={card_str(c)}" if explicit else "JK")
    return out


def stands_for(move: int) -> list[str]:
    """What each card of a play stands for (a group's jokers: its rank, as ``5*``)."""
    real = move & REAL
    j = move >> JSHIFT & 3
    if move & RUN_FLAG:
        cells = real | run_cells(move)
        return [card_str(c) for c in sorted(cards_of(cells), key=lambda c: DRANK[c])]
    inf = info(move)
    rank = "JK" if inf.rank == JOKER_RANK else DRANK_NAMES[inf.rank] + "*"
    return cards_words(real, 0) + [rank] * j


RETIRED_MAX: Final = 8
"""At most this many batches of emptied memos wait for :func:`release_memos`; past it the oldest
is freed at once."""
_RETIRED: Final[list[list[dict[Any, Any]]]] = []


def retire(*memos: dict[Any, Any]) -> None:
    """Empty full memos now, but free their entries later (:func:`release_memos`): freeing tens
    of thousands of entries takes up to some 17 ms, which in the middle of a timed search could
    overrun its deadline, while copying them aside and emptying the memos takes about a
    millisecond. At most :data:`RETIRED_MAX` batches wait, so a process that never searches
    does not keep them.

    >>> memo = {1: (1,), 2: (2,)}
    >>> retire(memo)
    >>> memo, retired_entries() >= 2
    ({}, True)
    >>> release_memos(); retired_entries()
    0
    """
    if len(_RETIRED) >= RETIRED_MAX:
        del _RETIRED[0]
    _RETIRED.append([m.copy() for m in memos])
    for m in memos:
        m.clear()


def release_memos() -> None:
    """Free the entries of the memos :func:`retire` emptied: a search calls it at its start,
    inside its time budget, where the cost only shortens the search."""
    _RETIRED.clear()


def retired_entries() -> int:
    """How many retired memo entries wait to be freed."""
    return sum(len(m) for batch in _RETIRED for m in batch)


_STR: Final[dict[int, str]] = {}


def play_str(move: int) -> str:
    """The canonical text of a play's cards: ``3D 3H``, ``5H 6H JK``, ``JK`` (memoized)."""
    got = _STR.get(move)
    if got is None:
        if len(_STR) > 50_000:
            _STR.clear()
        got = _STR[move] = " ".join(play_words(move))
    return got


def parse_play(text: str) -> int:
    """Parse the cards of a play (``5H 6H JK``, ``3D 3H``, ``5H JK=6H JK=7H``) into a move.

    Raises :class:`IllegalAction` naming the problem when the cards make no play.

    >>> play_str(parse_play("5h jk jk"))
    '5H JK JK'
    >>> parse_play("5H 7D")
    Traceback (most recent call last):
    ...
    torampu.errors.IllegalAction: '5H 7D' is not a play: cards of different ranks must be a run \
of one suit
    """
    words = text.replace(",", " ").split()
    if not words:
        raise IllegalAction("a play needs at least one card")
    if len(words) > 16:
        raise IllegalAction(f"{text!r} is not a play: too many cards")
    real = 0
    jokers = 0
    cells = 0
    explicit = False
    slots: list[tuple[int, bool]] = []  # (card, is_joker) in the order given
    for w in words:
        up = w.upper()
        try:
            if up.startswith("JK="):
                c = parse_card(up[3:])
                explicit = True
                jokers += 1
                cells |= 1 << c
                slots.append((c, True))
                continue
            c = parse_card(w)
        except CardError as e:
            raise IllegalAction(f"{text!r} is not a play: {e}") from None
        if c == 52:
            jokers += 1
            slots.append((-1, True))
            continue
        if real >> c & 1:
            raise IllegalAction(f"{text!r} is not a play: {card_str(c)} twice")
        real |= 1 << c
        slots.append((c, False))
    if jokers > 3:
        raise IllegalAction(f"{text!r} is not a play: at most 3 jokers")
    jbits = jokers << JSHIFT
    if explicit or not (_same_rank(real) or len(words) == 1):
        return _parse_run(text, slots, real, jbits, explicit, cells)
    return real | jbits


def _same_rank(real: CardSet) -> bool:
    ranks = {DRANK[c] for c in cards_of(real)}
    return len(ranks) <= 1


def _parse_run(
    text: str, slots: list[tuple[int, bool]], real: CardSet, jbits: int, explicit: bool, cells: int
) -> int:
    suits = {c // 13 for c, joker in slots if not joker or explicit}
    if len(suits) != 1 or not real:
        raise IllegalAction(
            f"{text!r} is not a play: cards of different ranks must be a run of one suit"
        )
    if len(slots) < 3:
        raise IllegalAction(f"{text!r} is not a play: a run needs 3 or more cards")
    suit = suits.pop()
    first_real = next(i for i, (_, joker) in enumerate(slots) if not joker)
    base = DRANK[slots[first_real][0]] - first_real
    if base < 0 or base + len(slots) > 13:
        raise IllegalAction(f"{text!r} is not a run: it runs past the 3 or the 2")
    want_cells = 0
    for i, (c, joker) in enumerate(slots):
        want = card_at(base + i, suit)
        if joker:
            if explicit and c != want:
                raise IllegalAction(
                    f"{text!r} is not a run: a joker cannot stand for {card_str(c)}"
                )
            want_cells |= 1 << want
        elif c != want:
            raise IllegalAction(
                f"{text!r} is not a run: write its cards ascending, jokers in their places"
            )
    if explicit and cells != want_cells:
        raise IllegalAction(f"{text!r} is not a run")
    if explicit and real.bit_count() != 1:
        raise IllegalAction(f"{text!r}: write JK=… only in a run with one real card")
    if not explicit and real.bit_count() == 1:
        raise IllegalAction(f"{text!r}: a run with one real card names its jokers' places (JK=6H)")
    return run_move(real, jbits >> JSHIFT, want_cells)


def parse_cards_jokers(words: list[str]) -> tuple[CardSet, int]:
    """Real cards and a joker count from card words (give, discard, exchange)."""
    real = 0
    jokers = 0
    for w in words:
        try:
            c = parse_card(w)
        except CardError as e:
            raise IllegalAction(str(e)) from None
        if c == 52:
            jokers += 1
        elif real >> c & 1:
            raise IllegalAction(f"card {card_str(c)} given twice")
        else:
            real |= 1 << c
    if jokers > 3:
        raise IllegalAction("at most 3 jokers")
    return real, jokers


# --------------------------------------------------------------------------------- enumeration
_PLAYS: Final[dict[int, tuple[int, ...]]] = {}


def all_plays(hand: CardSet, jokers: int, wild: bool, stairs: bool) -> tuple[int, ...]:
    """Every play a hand can make on an empty table, in canonical order (memoized).

    Order: singles, then groups, then runs; each by size, then rank, then cards: the parts of
    :func:`plays_by_shape` one after the other.
    """
    key = _hand_key(hand, jokers, wild, stairs)
    got = _PLAYS.get(key)
    if got is not None:
        return got
    if len(_PLAYS) > 50_000:
        retire(_PLAYS)
    out: list[int] = []
    for part in plays_by_shape(hand, jokers, wild, stairs).values():
        out.extend(part)
    got = tuple(out)
    _PLAYS[key] = got
    return got


_DISPLAY_ORDER: Final = tuple(sorted(range(52), key=_group_key))
"""The 52 cards in canonical order: ascending rank, suits ♣ ♦ ♥ ♠."""
_RANK_GROUPS: Final[dict[int, dict[int, tuple[int, ...]]]] = {}
"""Per rank's cards, wild jokers and rank (``held | wj << 52 | d << 54``): its groups by size."""
_SUIT_RUNS: Final[dict[int, tuple[tuple[int, int, str, int], ...]]] = {}
"""Per suit's cards, wild jokers and suit (``held | wj << 52 | suit << 54``): its runs."""
_SINGLES: Final[dict[int, tuple[int, ...]]] = {}


def _singles(held: CardSet) -> tuple[int, ...]:
    """The single plays of the cards ``held`` of one rank, in canonical order (memoized)."""
    got = _SINGLES.get(held)
    if got is None:
        got = _SINGLES[held] = tuple(1 << c for c in _DISPLAY_ORDER if held >> c & 1)
    return got


_BY_RANK: Final[dict[CardSet, tuple[tuple[int, CardSet], ...]]] = {}


def by_rank(hand: CardSet) -> tuple[tuple[int, CardSet], ...]:
    """``(d, cards of rank d)`` for each daifugo rank ``d`` the hand holds, ascending
    (memoized: a hand meets many tables)."""
    got = _BY_RANK.get(hand)
    if got is None:
        if len(_BY_RANK) > 20_000:
            retire(_BY_RANK)
        got = _BY_RANK[hand] = tuple(
            (d, hand & RANK_SET[d]) for d in range(13) if hand & RANK_SET[d]
        )
    return got


def rank_part(d: int, held: CardSet, wj: int, kind: int, size: int) -> tuple[int, ...]:
    """The singles (``kind`` SINGLE) or the groups of ``size`` (GROUP) of daifugo rank ``d``
    from its cards ``held`` (not empty) and up to ``wj`` wild jokers, in canonical order: the
    plays of that shape of a hand are these parts by rank, then :func:`jokers_part`."""
    if kind == SINGLE:
        return _singles(held) if size == 1 else ()
    return _rank_groups(d, held, wj).get(size, ())


def jokers_part(jokers: int, wj: int, kind: int, size: int) -> int:
    """The play of jokers alone of that shape (a lone joker; ``size`` wild jokers), else 0."""
    if kind == SINGLE:
        return 1 << JSHIFT if size == 1 and jokers else 0
    return size << JSHIFT if 2 <= size <= wj else 0


def _rank_groups(d: int, held: CardSet, wj: int) -> dict[int, tuple[int, ...]]:
    """The groups (2+ cards) of daifugo rank ``d`` from the cards ``held`` of that rank and up
    to ``wj`` jokers, by size, each size in canonical text order (memoized)."""
    key = held | wj << JSHIFT | d << 54
    got = _RANK_GROUPS.get(key)
    if got is not None:
        return got
    have = cards_of(held)
    by_size: dict[int, list[int]] = {}
    for k in range(1, len(have) + 1):
        for combo in combinations(have, k):
            bits = sum(1 << c for c in combo)
            for j in range(0, wj + 1):
                if k + j >= 2:
                    by_size.setdefault(k + j, []).append(bits | j << JSHIFT)
    got = {size: tuple(sorted(ms, key=play_str)) for size, ms in by_size.items()}
    _RANK_GROUPS[key] = got
    return got


def _suit_runs(suit: int, held: CardSet, wj: int) -> tuple[tuple[int, int, str, int], ...]:
    """(size, low rank, text, move) of every run in ``suit`` from its cards ``held`` and up to
    ``wj`` jokers (memoized; cleared past 50,000 entries)."""
    key = held | wj << JSHIFT | suit << 54
    got = _SUIT_RUNS.get(key)
    if got is None:
        if len(_SUIT_RUNS) > 50_000:
            retire(_SUIT_RUNS)
        got = _SUIT_RUNS[key] = tuple(
            (size, lo, play_str(m), m) for size, lo, m in _runs(held, wj, (suit,))
        )
    return got


Shape = tuple[int, int]
"""A play's (kind, size): only a play of the table's shape can follow it (bar a sandstorm)."""
_BY_SHAPE: Final[dict[int, dict[Shape, tuple[int, ...]]]] = {}
"""Per hand (:func:`_hand_key`): its plays by shape."""


def _hand_key(hand: CardSet, jokers: int, wild: bool, stairs: bool) -> int:
    """A hand and the options its plays depend on, as one number (a memo key)."""
    return hand | jokers << JSHIFT | wild << 54 | stairs << 55


def plays_by_shape(
    hand: CardSet, jokers: int, wild: bool, stairs: bool
) -> dict[Shape, tuple[int, ...]]:
    """Every play a hand can make, split by (kind, size) — singles, groups by size, runs by
    size —, each part in canonical order (memoized). Built from the plays of each rank
    (:func:`_singles`, :func:`_rank_groups`) and of each suit (:func:`_suit_runs`), which
    recur across hands far more often than whole hands do.

    >>> parts = plays_by_shape(parse_cards("3D 3H 4H 5H"), 0, True, True)
    >>> {shape: [play_str(p) for p in ps] for shape, ps in parts.items()}
    {(1, 1): ['3D', '3H', '4H', '5H'], (2, 2): ['3D 3H'], (3, 3): ['3H 4H 5H']}
    """
    key = _hand_key(hand, jokers, wild, stairs)
    got = _BY_SHAPE.get(key)
    if got is not None:
        return got
    if len(_BY_SHAPE) > 50_000:
        retire(_BY_SHAPE)
    parts: dict[Shape, tuple[int, ...]] = {}
    singles: list[int] = []
    ranks = [(d, h) for d in range(13) if (h := hand & TWOS << (d + 1) % 13)]
    for _, h in ranks:
        singles.extend(_singles(h))
    if jokers:
        singles.append(1 << JSHIFT)
    if singles:
        parts[SINGLE, 1] = tuple(singles)
    wj = jokers if wild else 0
    per_rank = [_rank_groups(d, h, wj) for d, h in ranks]
    for size in range(2, 5 + wj):
        groups: list[int] = []
        for by_size in per_rank:
            groups.extend(by_size.get(size, ()))
        if size <= wj:  # jokers alone stand for the rank above the 2
            groups.append(size << JSHIFT)
        if groups:
            parts[GROUP, size] = tuple(groups)
    if stairs:
        runs: list[tuple[int, int, str, int]] = []
        for suit in range(4):
            runs.extend(_suit_runs(suit, hand & SUIT_SET[suit], wj))
        runs.sort()
        for r in runs:
            parts.setdefault((RUN, r[0]), ())
        by_run: dict[int, list[int]] = {}
        for r in runs:
            by_run.setdefault(r[0], []).append(r[3])
        for size, ms in by_run.items():
            parts[RUN, size] = tuple(ms)
    _BY_SHAPE[key] = parts
    return parts


_OF_SHAPE: Final[dict[int, tuple[int, ...]]] = {}
"""Per hand (:func:`_hand_key`), kind (``<< 56``) and size (``<< 58``; at most 13): its plays of
that shape."""


def plays_of_shape(
    hand: CardSet, jokers: int, wild: bool, stairs: bool, kind: int, size: int
) -> tuple[int, ...]:
    """``plays_by_shape(hand, jokers, wild, stairs).get((kind, size), ())``, built alone
    (memoized): what a play facing the table needs, cheaper than every shape of a new hand.

    >>> [play_str(p) for p in plays_of_shape(parse_cards("3D 3H 4H 5H"), 1, True, True, 2, 2)]
    ['3D 3H', '3D JK', '3H JK', '4H JK', '5H JK']
    """
    hand_key = _hand_key(hand, jokers, wild, stairs)
    key = hand_key | kind << 56 | size << 58
    got = _OF_SHAPE.get(key)
    if got is not None:
        return got
    if len(_OF_SHAPE) > 50_000:
        retire(_OF_SHAPE)
    whole = _BY_SHAPE.get(hand_key)
    if whole is not None:
        got = whole.get((kind, size), ())
    else:
        out: list[int] = []
        wj = jokers if wild else 0
        if kind != RUN:
            for d, h in by_rank(hand):
                out.extend(rank_part(d, h, wj, kind, size))
            tail = jokers_part(jokers, wj, kind, size)
            if tail:
                out.append(tail)
        elif stairs:
            runs = [
                r
                for suit in range(4)
                for r in _suit_runs(suit, hand & SUIT_SET[suit], wj)
                if r[0] == size
            ]
            runs.sort()
            out = [r[3] for r in runs]
        got = tuple(out)
    _OF_SHAPE[key] = got
    return got


def _runs(
    hand: CardSet, jokers: int, suits: tuple[int, ...] = (0, 1, 2, 3)
) -> Iterator[tuple[int, int, int]]:
    """(size, low rank, move) of every run of 3+ in one suit, jokers filling any cells."""
    for suit in suits:
        cards = [card_at(d, suit) for d in range(13)]
        held = [hand >> c & 1 == 1 for c in cards]
        if sum(held) == 0:
            continue
        for lo in range(11):
            # partial runs from lo: (real bits, jokers used); the jokers fill the other cells
            partial: list[tuple[int, int]] = [(0, 0)]
            for d in range(lo, 13):
                c = cards[d]
                nxt: list[tuple[int, int]] = []
                for real, used in partial:
                    if held[d]:
                        nxt.append((real | 1 << c, used))
                    if used < jokers:
                        nxt.append((real, used + 1))
                partial = nxt
                if not partial:
                    break
                length = d - lo + 1
                if length >= 3:
                    for real, used in partial:
                        if real:
                            yield (length, lo, real | used << JSHIFT | lo << LSHIFT | RUN_FLAG)


def subsets(hand: CardSet, jokers: int, low: int, high: int) -> list[int]:
    """Every choice of ``low``..``high`` cards from a hand (jokers interchangeable), as card bits
    plus joker count, ordered by size then canonical text."""
    cards = sorted(cards_of(hand), key=_group_key)
    keys = [_group_key(c) for c in cards]
    out: list[tuple[int, list[tuple[int, int]], int]] = []
    for k in range(low, high + 1):
        for j in range(0, min(jokers, k) + 1):
            # a combination keeps the cards' order, which is their canonical (display) order
            for combo in combinations(range(len(cards)), k - j):
                bits = sum(1 << cards[x] for x in combo)
                out.append((k, [keys[x] for x in combo] + [_JOKER_KEY] * j, bits | j << JSHIFT))
    out.sort(key=lambda t: (t[0], t[1]))
    return [m for _, _, m in out]


_JOKER_KEY: Final = (14, 0)
"""A joker's place in the canonical order of cards: after every real card."""


def strongest(hand: CardSet, jokers: int, k: int) -> tuple[CardSet, int]:
    """The ``k`` strongest cards of a hand in the normal order: jokers, then 2 A K … 3; among
    equal ranks ♠ ♥ ♦ ♣ (the ruling for which suit the poor give)."""
    j = min(jokers, k)
    left = k - j
    chosen = 0
    for d in range(12, -1, -1):
        for s in range(4):
            if left == 0:
                return chosen, j
            c = card_at(d, s)
            if hand >> c & 1:
                chosen |= 1 << c
                left -= 1
    return chosen, j
