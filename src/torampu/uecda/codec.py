"""The UECda protocol (computer Daihinmin tournament, protocol version 20070): tables, cards,
plays, handshake and answers, as pure functions.

Everything here is read off the UECda devkit (``server/src`` = tndhms 0.29: ``daihu.c``,
``external.c``, ``tn_protocol.c``; ``client``: ``connection.c``, ``client.c``,
``daihinmin.c``). Both our client (:mod:`torampu.uecda.client`) and our server
(:mod:`torampu.uecda.server`) are built on it; :mod:`torampu.uecda.tndhms` ports the server's
referee.

The wire
--------
Every message is either a *table* or one *int*, both big-endian 32-bit (``htonl``):

* a table is 8 rows × 15 columns, row-major: 480 bytes (tndhms sends a negative cell as 0);
* an int is 4 bytes.

A session (player numbers are 0..4, in the order the clients connected)::

    client -> server   profile table: [0][0] = 20070, [1][0..14] = the name's bytes (tndhms
                       keeps 9); a client that sends nothing within 2.5 s is taken for 2006a
    server -> client   int: the player number
    per game:
      server -> all    the deal table: the hand, [5][0] = 1, [5][1] = cards to return
                       (大富豪 2, 富豪 1; else 0); the poor see their hand from before they gave
      大富豪 -> server  a table of the 2 cards returned (then 富豪: 1 card); an invalid choice
                       makes tndhms return the rich player's strongest cards instead
      per turn:
        server -> all    the hand table (row 5/6 below; [5][2] = 1 for the player to act)
        player -> server a table of the cards played (all zero: pass)
        server -> player int 9 (accepted) or 8 (refused; tndhms also answers 8 to a pass while
                         cards are on the table). A refused play counts as a pass.
        server -> all    the table of cards on the table (the last accepted play, as its player
                         laid it out; after a flush, zero) with row 5/6
        server -> all    int 0 (the game goes on), 1 (the game is over), 2 (all games are over)

The cells
---------
Rows 0..3 are the suits ♠ ♥ ♦ ♣ (torampu's suit order), columns 1..13 the ranks 3 4 … K A 2:
``table[suit][drank + 1]``. A cell is 1 for a card, 2 for a joker standing in that place.

* In a hand the joker is ``[4][1] = 2``.
* In a play a joker stands where it is put: in a run at its cell of the run's row (tndhms also
  accepts a joker in column 0, below the 3, or 14, above the 2: see
  :class:`UnrepresentablePlay`); in a group in a row of the group's column that no card uses,
  or row 4 when the group has all four suits (five of a kind); alone anywhere in rows 0..3
  (the default client uses ``[0][14]`` or ``[0][0]``). A play has at most one joker.

Row 5 (game state) and row 6 (players), as tndhms fills them (:class:`Status`):

====== ============================================================================
[5][0] 1 in the deal table of a game (the "exchange" table), else 0
[5][1] the deal table: how many cards this player returns (大富豪 2, 富豪 1), else 0
[5][2] 1 in the hand table of the player to act, else 0
[5][3] hand tables: the player to act; table-of-cards: the player who just acted;
       the deal table: 6
[5][4] 1 when the table is empty (a new round: a lead)
[5][5] 11-back in force (always 0 under UECda's rules)
[5][6] revolution in force
[5][7] lock (縛り) in force
[6][0..4]   each player's number of cards (the deal table: before the exchange)
[6][5..9]   each player's title from the previous game, 0 = 大富豪 … 4 = 大貧民 (0 for all in
            the first game after a rank reset); tndhms overwrites the entries of the players
            who go out during a game as it goes (see :func:`torampu.uecda.server.ranks_row`)
[6][10..14] the seats: ``[6][10 + k]`` is the player in seat k; play goes seat 0, 1, 2, …
====== ============================================================================

>>> t = hand_table(parse_cards("3D 2S"), 1)
>>> t[2][1], t[0][13], t[4][1]
(1, 1, 2)
>>> play_text(table_play(play_table(parse_play("5H JK 7H"))))
'play 5H JK 7H'
>>> decode_table(encode_table(t)) == t
True
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Final

from torampu.cards import CardSet, card_str, cards_of, parse_cards  # noqa: F401
from torampu.daifugo_plays import (
    DRANK,
    JSHIFT,
    K_PASS,
    KSHIFT,
    PASS,
    REAL,
    RUN_FLAG,
    card_at,
    parse_play,  # noqa: F401  (doctest)
    play_str,
    run_cells,
    run_move,
)
from torampu.errors import TorampuError

PROTOCOL_VERSION: Final = 20070
DEFAULT_PORT: Final = 42485
ROWS: Final = 8
COLS: Final = 15
TABLE_BYTES: Final = ROWS * COLS * 4
INT_BYTES: Final = 4

ACCEPTED: Final = 9
"""The answer to a submission that was taken (a play, or a pass on an empty table)."""
REFUSED: Final = 8
"""The answer to a submission that was refused (it counts as a pass)."""
GAME_GOES_ON: Final = 0
GAME_OVER: Final = 1
ALL_GAMES_OVER: Final = 2
GAME_CODES: Final = {
    GAME_GOES_ON: "the game goes on",
    GAME_OVER: "the game is over",
    ALL_GAMES_OVER: "all games are over",
}
"""What the server sends after every turn (the default client reads any other value as 2)."""

DEAL_TURN_MARK: Final = 6
"""tndhms writes 6 into ``[5][3]`` of the deal table."""
NAME_CHARS: Final = 15
"""The profile table carries 15 name bytes; tndhms keeps the first 9."""
SERVER_NAME_CHARS: Final = 9

Table = list[list[int]]
"""8 rows × 15 columns of ints."""


class UecdaProtocolError(TorampuError):
    """A table, an int or a play that breaks the UECda protocol; the message names the cell or
    the value at fault."""


class UecdaConnectionError(UecdaProtocolError):
    """The peer closed the connection, or sent nothing in time."""


class UnrepresentablePlay(UecdaProtocolError):
    """A play tndhms accepts but torampu's play encoding cannot name: a run whose joker stands
    below the 3 (column 0) or above the 2 (column 14). ``cards`` are its real cards and
    jokers, ``low`` its lowest column, ``size`` its length, ``suit`` its row."""

    def __init__(self, message: str, real: CardSet, jokers: int, low: int, size: int, suit: int):
        super().__init__(message)
        self.real = real
        self.jokers = jokers
        self.low = low
        self.size = size
        self.suit = suit


# ------------------------------------------------------------------------------- the wire
def empty_table() -> Table:
    """A table of zeros."""
    return [[0] * COLS for _ in range(ROWS)]


def copy_table(t: Table) -> Table:
    return [list(row) for row in t]


def check_shape(t: Sequence[Sequence[int]]) -> None:
    """Raise :class:`UecdaProtocolError` unless ``t`` is 8 rows of 15 ints."""
    if (
        len(t) == ROWS
        and all(len(row) == COLS for row in t)
        and set(map(type, chain.from_iterable(t))) == {int}
    ):
        return  # the common case, checked in C; the loops below name the fault
    if len(t) != ROWS or any(len(row) != COLS for row in t):
        raise UecdaProtocolError(f"a table is {ROWS} rows of {COLS} ints")
    for i, row in enumerate(t):
        for j, v in enumerate(row):
            if isinstance(v, bool) or not isinstance(v, int):
                raise UecdaProtocolError(f"cell [{i}][{j}] is {v!r}, not an int")


def encode_table(t: Sequence[Sequence[int]]) -> bytes:
    """480 bytes, big-endian int32, row-major. A negative cell is sent as 0 (as tndhms does).

    >>> len(encode_table(empty_table()))
    480
    """
    flat = [v for row in t for v in row]
    if len(t) != ROWS or len(flat) != ROWS * COLS or set(map(type, flat)) != {int}:
        check_shape(t)  # raises: the shape or a cell that is not an int (a bool is not)
    return _pack(_TABLE, flat)


_TABLE = struct.Struct(f">{ROWS * COLS}i")


def _pack(packer: struct.Struct, flat: list[int]) -> bytes:
    """``flat`` (ints) as big-endian int32s: a negative cell is sent as 0 (as tndhms does);
    one that does not fit is refused."""
    if min(flat) < 0:
        flat = [max(0, v) for v in flat]
    if max(flat) > 0x7FFFFFFF:
        raise UecdaProtocolError("a cell does not fit in a signed 32-bit int")
    return packer.pack(*flat)


def decode_table(data: bytes) -> Table:
    """A table from 480 bytes (big-endian int32, row-major)."""
    if len(data) != TABLE_BYTES:
        raise UecdaProtocolError(f"a table is {TABLE_BYTES} bytes, not {len(data)}")
    flat = struct.unpack(f">{ROWS * COLS}i", data)
    return [list(flat[i * COLS : (i + 1) * COLS]) for i in range(ROWS)]


def encode_int(v: int) -> bytes:
    """4 bytes, big-endian; a negative value is sent as 0 (as tndhms does).

    >>> encode_int(9).hex()
    '00000009'
    """
    if isinstance(v, bool) or not isinstance(v, int) or v > 0x7FFFFFFF:
        raise UecdaProtocolError(f"not a protocol int: {v!r}")
    return struct.pack(">i", max(0, v))


def decode_int(data: bytes) -> int:
    if len(data) != INT_BYTES:
        raise UecdaProtocolError(f"an int is {INT_BYTES} bytes, not {len(data)}")
    v: int = struct.unpack(">i", data)[0]
    return v


# ------------------------------------------------------------------------------- handshake
def profile_table(name: str, version: int = PROTOCOL_VERSION) -> Table:
    """The client's first table: the protocol version and its name (ASCII, up to 14 bytes)."""
    raw = name.encode("ascii", errors="strict") if name.isascii() else None
    if raw is None or not raw or len(raw) >= NAME_CHARS or b"\0" in raw:
        raise UecdaProtocolError(
            f"a client name is 1..{NAME_CHARS - 1} ASCII characters, not {name!r}"
        )
    t = empty_table()
    t[0][0] = version
    for k, b in enumerate(raw):
        t[1][k] = b
    return t


def read_profile(t: Table) -> tuple[int, str]:
    """(protocol version, name) from a profile table; the name is cut at the first 0 or at 9
    bytes (tndhms keeps 9). Raises :class:`UecdaProtocolError` for another version."""
    check_shape(t)
    version = t[0][0]
    if version != PROTOCOL_VERSION:
        raise UecdaProtocolError(
            f"the client speaks protocol {version}; this server speaks {PROTOCOL_VERSION}"
        )
    chars = []
    for v in t[1][:SERVER_NAME_CHARS]:
        if v == 0:
            break
        if not 32 <= v < 127:
            raise UecdaProtocolError(f"the client's name has byte {v} (printable ASCII only)")
        chars.append(chr(v))
    return version, "".join(chars)


def check_answer(v: int) -> int:
    """An answer to a submission: :data:`ACCEPTED` or :data:`REFUSED`."""
    if v not in (ACCEPTED, REFUSED):
        raise UecdaProtocolError(f"the server answered {v}; expected 9 (accepted) or 8 (refused)")
    return v


def check_game_code(v: int) -> int:
    """The after-turn code: 0, 1 or 2."""
    if v not in (GAME_GOES_ON, GAME_OVER, ALL_GAMES_OVER):
        raise UecdaProtocolError(f"the server sent {v} after a turn; expected 0, 1 or 2")
    return v


# ------------------------------------------------------------------------------- cards
def card_cell(card: int) -> tuple[int, int]:
    """The (row, column) of a real card: its suit row, column = daifugo rank + 1.

    >>> card_cell(parse_cards("3D").bit_length() - 1), card_cell(parse_cards("2S").bit_length() - 1)
    ((2, 1), (0, 13))
    """
    if not 0 <= card < 52:
        raise UecdaProtocolError(f"not a real card: {card!r}")
    return card // 13, DRANK[card] + 1


def cell_card(row: int, col: int) -> int:
    """The real card at a cell of rows 0..3, columns 1..13."""
    if not (0 <= row < 4 and 1 <= col <= 13):
        raise UecdaProtocolError(f"cell [{row}][{col}] holds no card (rows 0..3, columns 1..13)")
    return card_at(col - 1, row)


def hand_table(real: CardSet, jokers: int) -> Table:
    """A hand as a table: 1 at each card's cell, 2 at ``[4][1]`` for the joker."""
    if not 0 <= jokers <= 1:
        raise UecdaProtocolError(f"a UECda hand holds 0 or 1 joker, not {jokers}")
    t = empty_table()
    for c in cards_of(real & REAL):
        i, j = card_cell(c)
        t[i][j] = 1
    if jokers:
        t[4][1] = 2
    return t


HAND_BYTES: Final = 5 * COLS * 4
"""Rows 0..4 of an encoded table: the cards (a hand, or the table of cards)."""
STATUS_BYTES: Final = TABLE_BYTES - HAND_BYTES
"""Rows 5..7 of an encoded table: the status (row 7 is zero)."""
_CARD_BYTE = tuple((card_cell(c)[0] * COLS + card_cell(c)[1]) * 4 + 3 for c in range(52))
"""The byte of ``encode_table`` that holds a real card's cell (the last of its big-endian int)."""
_JOKER_BYTE: Final = (4 * COLS + 1) * 4 + 3
_STATUS = struct.Struct(f">{3 * COLS}i")
_HAND_ROWS = struct.Struct(f">{5 * COLS}i")
_ZERO_ROW = [0] * COLS


def encode_hand_rows(real: CardSet, jokers: int) -> bytes:
    """Rows 0..4 of ``encode_table(hand_table(real, jokers))`` (:data:`HAND_BYTES` bytes)
    without building the table: ``encode_hand_rows(h, j) + encode_status(s)`` is
    ``encode_table(write_status(hand_table(h, j), s))``.

    >>> h = parse_cards("3D 2S")
    >>> encode_hand_rows(h, 1) == encode_table(hand_table(h, 1))[:HAND_BYTES]
    True
    """
    if not 0 <= jokers <= 1:
        raise UecdaProtocolError(f"a UECda hand holds 0 or 1 joker, not {jokers}")
    buf = bytearray(HAND_BYTES)
    for c in cards_of(real & REAL):
        buf[_CARD_BYTE[c]] = 1
    if jokers:
        buf[_JOKER_BYTE] = 2
    return bytes(buf)


def encode_cell_rows(t: Sequence[Sequence[int]]) -> bytes:
    """Rows 0..4 of ``encode_table(t)`` (:data:`HAND_BYTES` bytes): the cards of a table."""
    flat = [v for row in t[:5] for v in row]
    if len(flat) != 5 * COLS or set(map(type, flat)) != {int}:
        return encode_table(t)[:HAND_BYTES]  # raises, naming the fault
    return _pack(_HAND_ROWS, flat)


def encode_status(s: Status, my_turn: bool | None = None) -> bytes:
    """Rows 5..7 of ``encode_table(write_status(t, s))`` (:data:`STATUS_BYTES` bytes), with
    ``[5][2]`` from ``my_turn`` if given (one :class:`Status` for the five hand tables of a
    turn).

    >>> s = Status(turn=2, hand_sizes=(3, 4, 5, 6, 7))
    >>> t = empty_table()
    >>> encode_status(s) == encode_table(write_status(t, s))[HAND_BYTES:]
    True
    """
    flat = [
        int(s.deal),
        s.exchange,
        int(s.my_turn if my_turn is None else my_turn),
        s.turn,
        int(s.new_round),
        int(s.eleven_back),
        int(s.revolution),
        int(s.lock),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        *s.hand_sizes,
        *s.ranks,
        *s.seating,
    ]
    flat += _ZERO_ROW  # row 7
    if len(flat) != 3 * COLS or set(map(type, flat)) != {int}:
        return encode_table(write_status(empty_table(), s))[HAND_BYTES:]  # raises
    return _pack(_STATUS, flat)


def table_hand(t: Table) -> tuple[CardSet, int]:
    """(real cards, jokers) of a hand table (rows 0..4; rows 5..7 are ignored)."""
    check_shape(t)
    real = 0
    jokers = 0
    for i in range(5):
        for j in range(COLS):
            v = t[i][j]
            if v == 0:
                continue
            if i == 4 and j == 1 and v == 2:
                jokers += 1
            elif i < 4 and 1 <= j <= 13 and v == 1:
                real |= 1 << cell_card(i, j)
            else:
                raise UecdaProtocolError(f"a hand table has {v} at [{i}][{j}]")
    return real, jokers


# ------------------------------------------------------------------------------- plays
def play_table(move: int, lock_suits: int = 0, joker_rows: Sequence[int] | None = None) -> Table:
    """The table that submits a torampu play (a move of :mod:`torampu.daifugo_plays`; ``PASS``
    is the empty table).

    A group's joker goes into ``joker_rows`` if given (a row of the group's column that no card
    of it uses), else where torampu's ``joker_suit: lowest`` says it stands: the lowest missing
    suit of ``lock_suits`` (bit s for suit row s) when the table is locked, else the lowest
    free row ♠ ♥ ♦ ♣, or row 4 when all four suits are real cards (five of a kind). A run's
    joker goes into its cell, a lone joker to ``[0][14]``.
    """
    t = empty_table()
    if move >> KSHIFT & 7 == K_PASS or move == PASS:
        return t
    if move >> KSHIFT & 7:
        raise UecdaProtocolError("only plays and passes are submitted during a game")
    real = move & REAL
    j = move >> JSHIFT & 3
    if j > 1:
        raise UecdaProtocolError(f"a UECda play has at most one joker, not {j}")
    for c in cards_of(real):
        r, col = card_cell(c)
        t[r][col] = 1
    if not j:
        if not real:
            raise UecdaProtocolError("a play needs cards")
        return t
    if move & RUN_FLAG:
        for c in cards_of(run_cells(move)):
            r, col = card_cell(c)
            t[r][col] = 2
        return t
    if not real:
        t[0][14] = 2
        return t
    col = DRANK[real.bit_length() - 1] + 1
    free = [r for r in range(4) if t[r][col] == 0]
    if joker_rows is None:
        locked = [r for r in free if lock_suits >> r & 1]
        rows = locked[:1] or free[:1] or [4]
    else:
        rows = list(joker_rows)
        if len(rows) != 1 or not (rows[0] in free or (rows[0] == 4 and not free)):
            raise UecdaProtocolError(
                f"the group's joker goes in a free row of column {col} ({free or [4]}), not {rows}"
            )
    t[rows[0]][col] = 2
    return t


def table_play(t: Table) -> int:
    """The torampu play a submitted (or table-of-cards) table names: ``PASS`` for no cards.

    Accepts what tndhms's ``analyze_card`` accepts (one joker at most; a single, a group of one
    column, a run of 3+ consecutive cells of one row) and raises :class:`UecdaProtocolError`
    naming the fault otherwise; :class:`UnrepresentablePlay` for a run with its joker in
    column 0 or 14. Rows 5..7 are ignored.
    """
    check_shape(t)
    cells: list[tuple[int, int, int]] = []
    for i in range(5):
        for j in range(COLS):
            v = t[i][j]
            if v == 0:
                continue
            if v not in (1, 2):
                raise UecdaProtocolError(f"cell [{i}][{j}] is {v}: a played cell is 1 or 2")
            if v == 1 and (i == 4 or j in (0, 14)):
                raise UecdaProtocolError(f"cell [{i}][{j}] holds no card (1 there)")
            cells.append((i, j, v))
    if not cells:
        return PASS
    jokers = sum(1 for _, _, v in cells if v == 2)
    if jokers > 1:
        raise UecdaProtocolError(f"a play has at most one joker (2), not {jokers}")
    real = 0
    for i, j, v in cells:
        if v == 1:
            real |= 1 << cell_card(i, j)
    if len(cells) == 1:
        i, j, v = cells[0]
        if v == 2:
            if i == 4:
                raise UecdaProtocolError("a lone joker goes in rows 0..3, not row 4")
            return 1 << JSHIFT
        return real
    rows = {i for i, _, _ in cells}
    cols = {j for _, j, _ in cells}
    if len(cols) == 1:  # a group
        col = cols.pop()
        if 4 in rows and len(rows) != 5:
            raise UecdaProtocolError(
                "a joker goes in row 4 only with all four suits (five of a kind)"
            )
        if not 1 <= col <= 13:
            raise UecdaProtocolError(f"a group in column {col} (columns 1..13 hold cards)")
        return real | jokers << JSHIFT
    if len(rows) != 1:
        raise UecdaProtocolError(
            "the cards make no play: a group is one column, a run one row of adjacent cells"
        )
    row = rows.pop()
    if row == 4:
        raise UecdaProtocolError("a run in row 4 (rows 0..3 are the suits)")
    span = sorted(cols)
    if span != list(range(span[0], span[0] + len(span))):
        raise UecdaProtocolError(f"a run's cells must be adjacent, not columns {span}")
    if len(span) < 3:
        raise UecdaProtocolError("a run has 3 or more cards")
    jcells = [j for _, j, v in cells if v == 2]
    if jcells and jcells[0] in (0, 14):
        where = "below the 3 (column 0)" if jcells[0] == 0 else "above the 2 (column 14)"
        raise UnrepresentablePlay(
            f"a run with its joker {where}: tndhms takes it, torampu cannot name it",
            real,
            jokers,
            span[0],
            len(span),
            row,
        )
    cells_bits = 0
    for j in jcells:
        cells_bits |= 1 << cell_card(row, j)
    return run_move(real, jokers, cells_bits)


def play_text(move: int) -> str:
    """``pass`` or ``play …``: the torampu action of a play move."""
    return "pass" if move == PASS else "play " + play_str(move)


def table_cards(t: Table) -> list[str]:
    """The cards in rows 0..4 of a table as card strings (jokers as ``JK``), for messages."""
    out = []
    for i in range(5):
        for j in range(COLS):
            v = t[i][j]
            if v == 1 and i < 4 and 1 <= j <= 13:
                out.append(card_str(cell_card(i, j)))
            elif v == 2:
                out.append("JK")
    return out


# ------------------------------------------------------------------------------- rows 5 and 6
@dataclass(frozen=True)
class Status:
    """Rows 5 and 6 of a table (see the module docstring)."""

    deal: bool = False
    """[5][0]: this is the deal table of a game."""
    exchange: int = 0
    """[5][1]: cards this player returns now (大富豪 2, 富豪 1)."""
    my_turn: bool = False
    """[5][2]."""
    turn: int = 0
    """[5][3]: the player to act (hand tables) or who acted (table-of-cards); 6 when dealing."""
    new_round: bool = False
    """[5][4]: the table is empty."""
    eleven_back: bool = False
    """[5][5]."""
    revolution: bool = False
    """[5][6]."""
    lock: bool = False
    """[5][7]."""
    hand_sizes: tuple[int, ...] = (0, 0, 0, 0, 0)
    """[6][0..4], per player."""
    ranks: tuple[int, ...] = (0, 0, 0, 0, 0)
    """[6][5..9], per player: 0 = 大富豪 … 4 = 大貧民 (all 0 without titles)."""
    seating: tuple[int, ...] = (0, 1, 2, 3, 4)
    """[6][10..14]: the player in each seat, in the order of play."""


def read_status(t: Table) -> Status:
    """Rows 5 and 6 of a table, checked: player numbers 0..4, flags 0/1."""
    check_shape(t)
    r5, r6 = t[5], t[6]
    for k in (0, 2, 4, 5, 6, 7):
        if r5[k] not in (0, 1):
            raise UecdaProtocolError(f"flag [5][{k}] is {r5[k]}, not 0 or 1")
    if not (0 <= r5[3] <= 4 or (r5[3] == DEAL_TURN_MARK and r5[0] == 1)):
        raise UecdaProtocolError(f"[5][3] is {r5[3]}: not a player")
    seating = tuple(r6[10:15])
    if sorted(seating) != [0, 1, 2, 3, 4]:
        raise UecdaProtocolError(f"[6][10..14] is {list(seating)}: not the five players' seats")
    sizes = tuple(r6[0:5])
    if any(not 0 <= s <= 53 for s in sizes):
        raise UecdaProtocolError(f"[6][0..4] is {list(sizes)}: not hand sizes")
    ranks = tuple(r6[5:10])
    if any(not 0 <= x <= 4 for x in ranks):
        raise UecdaProtocolError(f"[6][5..9] is {list(ranks)}: not titles 0..4")
    return Status(
        deal=r5[0] == 1,
        exchange=r5[1],
        my_turn=r5[2] == 1,
        turn=r5[3],
        new_round=r5[4] == 1,
        eleven_back=r5[5] == 1,
        revolution=r5[6] == 1,
        lock=r5[7] == 1,
        hand_sizes=sizes,
        ranks=ranks,
        seating=seating,
    )


def write_status(t: Table, s: Status) -> Table:
    """A copy of ``t`` with rows 5 and 6 (row 7 zero) from ``s``."""
    out = copy_table(t)
    out[5] = [
        int(s.deal),
        s.exchange,
        int(s.my_turn),
        s.turn,
        int(s.new_round),
        int(s.eleven_back),
        int(s.revolution),
        int(s.lock),
    ] + [0] * (COLS - 8)
    out[6] = [*s.hand_sizes, *s.ranks, *s.seating]
    out[7] = [0] * COLS
    return out
