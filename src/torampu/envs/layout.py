"""Observation vectors: a fixed layout of named blocks, and encoders for the parts of a view.

An observation is a flat ``float32`` vector with every entry in ``[0, 1]``. A :class:`Layout`
names its blocks (``hand``, ``trick``, ``bids``, …) so that the environments can document
themselves (:meth:`Layout.table`) and a policy can slice what it wants (``obs[layout["hand"]]``).

Cards are numbered the same way in every game: suit ``S H D C`` (0..3) times 13 plus rank
``2 3 4 5 6 7 8 9 T J Q K A`` (0..12), and the joker ``JK`` is 52 (:data:`CARD_NAMES`).
Seats are *relative*: block entry ``k`` of a per-seat block describes the seat ``k`` places after
the observer in the direction of play (entry 0 is the observer itself), so that one policy can
play every seat.

>>> lay = Layout()
>>> lay.add("hand", 53, "own hand")
slice(0, 53, None)
>>> lay.add("phase", 4, "phase one-hot")
slice(53, 57, None)
>>> lay.size, lay["phase"]
(57, slice(53, 57, None))
>>> card_index("TS"), card_index("AC"), card_index("JK")
(8, 51, 52)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

SUITS: Final = "SHDC"
RANKS: Final = "23456789TJQKA"
JOKER: Final = 52
CARD_NAMES: Final[tuple[str, ...]] = (
    *(r + s for s in SUITS for r in RANKS),
    "JK",
)
"""The card of each index 0..52: ``2S 3S … AS 2H … AC JK``."""
_INDEX: Final = {name: i for i, name in enumerate(CARD_NAMES)}

Obs = NDArray[np.float32]


def card_index(card: str) -> int:
    """The index of a card string (``AS`` → 12, ``JK`` → 52)."""
    try:
        return _INDEX[card]
    except KeyError:
        raise ValueError(f"not a card: {card!r}") from None


class Layout:
    """A fixed-length vector made of named blocks, in the order they were added."""

    def __init__(self) -> None:
        self.blocks: list[tuple[str, slice, str]] = []
        self._by_name: dict[str, slice] = {}
        self.size = 0

    def add(self, name: str, width: int, doc: str) -> slice:
        """Append a block of ``width`` entries; returns its slice."""
        if name in self._by_name:
            raise ValueError(f"block {name!r} twice in the layout")
        if width <= 0:
            raise ValueError(f"block {name!r} must have a positive width, not {width}")
        sl = slice(self.size, self.size + width)
        self.blocks.append((name, sl, doc))
        self._by_name[name] = sl
        self.size += width
        return sl

    def __getitem__(self, name: str) -> slice:
        return self._by_name[name]

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def zeros(self) -> Obs:
        """A fresh all-zero observation vector."""
        return np.zeros(self.size, dtype=np.float32)

    def table(self) -> str:
        """The layout as a Markdown table: block, offset, width, meaning."""
        rows = ["| block | offset | width | meaning |", "| --- | --- | --- | --- |"]
        for name, sl, doc in self.blocks:
            rows.append(f"| `{name}` | {sl.start} | {sl.stop - sl.start} | {doc} |")
        return "\n".join(rows)


# ------------------------------------------------------------------------------------ encoders
def set_cards(out: Obs, sl: slice, cards: Iterable[str]) -> None:
    """Mark cards (strings) in a card block of ``out``; a joker marks index 52 (blocks of 53)."""
    base = sl.start
    for c in cards:
        out[base + card_index(c)] = 1.0


def set_cards_jokers(out: Obs, cards_sl: slice, jokers_sl: slice, cards: Iterable[str]) -> None:
    """Real cards in a 52-wide block and the number of jokers as a thermometer in another
    (``JK JK`` → ``1 1 0``), for games with several interchangeable jokers."""
    jokers = 0
    for c in cards:
        i = card_index(c)
        if i == JOKER:
            jokers += 1
        else:
            out[cards_sl.start + i] = 1.0
    width = jokers_sl.stop - jokers_sl.start
    out[jokers_sl.start : jokers_sl.start + min(jokers, width)] = 1.0


def one_hot(out: Obs, sl: slice, i: int | None) -> None:
    """Set entry ``i`` of a block (nothing for ``None``)."""
    if i is not None:
        if not 0 <= i < sl.stop - sl.start:
            raise ValueError(f"index {i} out of a block of {sl.stop - sl.start}")
        out[sl.start + i] = 1.0


def scalar(out: Obs, sl: slice, value: float, scale: float) -> None:
    """A number divided by ``scale``, clipped to ``[0, 1]``, in a block of width 1."""
    out[sl.start] = min(1.0, max(0.0, value / scale)) if scale else 0.0


def rel(seat: int | None, me: int, n: int) -> int | None:
    """The relative position of ``seat`` as seen from ``me`` (0 = me), or ``None``."""
    return None if seat is None else (seat - me) % n


def per_seat(sl: slice, n: int) -> list[slice]:
    """Split a block into ``n`` equal per-(relative-)seat slices."""
    width = (sl.stop - sl.start) // n
    return [slice(sl.start + k * width, sl.start + (k + 1) * width) for k in range(n)]


def trick_cards(view: Mapping[str, Any]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(cards of finished tricks, cards of the current trick) as ``(seat, card)`` pairs, from the
    ``tricks`` and ``trick`` entries of a trick-taking game's view."""
    done = [(p["seat"], p["card"]) for t in view.get("tricks", []) for p in t["cards"]]
    now = [(p["seat"], p["card"]) for p in view.get("trick", [])]
    return done, now


def encode_tricks(
    out: Obs,
    view: Mapping[str, Any],
    me: int,
    n: int,
    *,
    played: slice,
    trick: slice,
    leader: slice,
) -> None:
    """The card play of a trick-taking game: every card each seat has played (``played``: n card
    blocks), the current trick by seat (``trick``: n card blocks) and its leader (one-hot n)."""
    done, now = trick_cards(view)
    played_blocks = per_seat(played, n)
    trick_blocks = per_seat(trick, n)
    for seat, card in done + now:
        out[played_blocks[(seat - me) % n].start + card_index(card)] = 1.0
    for seat, card in now:
        out[trick_blocks[(seat - me) % n].start + card_index(card)] = 1.0
    if now:
        one_hot(out, leader, rel(now[0][0], me, n))


def seat_fractions(out: Obs, sl: slice, values: Sequence[float], me: int, scale: float) -> None:
    """A per-seat number (tricks won, hand size, …) divided by ``scale``, by relative seat."""
    n = len(values)
    for s, v in enumerate(values):
        scalar(out, slice(sl.start + (s - me) % n, sl.start + (s - me) % n + 1), v, scale)
