"""Storage of the web tables: SQLAlchemy models, Alembic migrations, and the one write path.

A table is stored as what it was created with (game, resolved rules, players, match length,
seed), its seats, and the list of actions applied to it; the match itself is never stored, it is
rebuilt by replaying the actions (the engine is pure and seeded, so the rebuild is exact).

Every action goes through :meth:`Store.append_action`, one transaction that moves the table's
``version`` from *v* to *v + 1* only if it is still *v* and inserts the action under that
version (the primary key ``(table_id, version)`` refuses a second one): two writers can never
both apply a move to the same version. The loser gets :class:`StaleVersion`.

>>> s = Store("sqlite://")
>>> s.create_table("t1", "hell", {"players": 3}, 3, 1, 7, "h", ["open"] * 3).version
0
>>> s.append_action("t1", 0, 0, "bid 1", "human")
1
>>> s.append_action("t1", 0, 1, "bid 0", "human")
Traceback (most recent call last):
...
torampu.web.store.StaleVersion: table t1 is at version 1, not 0
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import secrets
import threading
import unicodedata
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    Select,
    String,
    Text,
    and_,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from torampu.errors import TorampuError
from torampu.web import clock

WAL_KEEP_BYTES = 64 * 1024 * 1024
"""Bytes of SQLite's WAL file kept on disk after a checkpoint (``journal_size_limit``)."""
STATEMENT_TIMEOUT = 30.0
"""Seconds a PostgreSQL statement (or a wait for a lock) may take before it fails: a store
error, ``storage_unavailable`` to the client, never a request held without end."""
BACK_GRACE = timedelta(seconds=5)
"""How long a returning player's mark refuses stand-ins' moves (:meth:`Store.seat_back`):
longer than a presence takes to reach Redis and a stand-in's move to be stored after it checked."""
CONNECT_TIMEOUT = 5
"""Seconds to connect to PostgreSQL before giving up."""
DB_CONNECTIONS = 15
"""PostgreSQL connections one process may hold at once by default (``--db-connections``; five
kept open, the others opened when needed): every process's count together must stay under the
server's ``max_connections`` (docs/deploy.md)."""
MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x7470_6D75  # "tpmu": the advisory lock held while the schema is migrated
SEAT_LOCKS = 0x7473_6561  # "tsea": advisory locks, one an address, held while it takes a seat
CREATE_LOCK = 0x7463_7265  # "tcre": the advisory lock held while a table is counted and made
INVITE_LOCK = 0x7469_6E76  # "tinv": held while an invite is replaced or copied to a rematch


class StoreError(TorampuError):
    """A storage problem (no such table, a conflicting write)."""


class StaleVersion(StoreError):
    """Another writer applied an action first: the table's version moved on."""


class PlayerBack(StaleVersion):
    """A stand-in's move refused: the seat's person came back (:meth:`Store.seat_back`); no
    stand-in's move at that version before ``until``."""

    def __init__(self, message: str, until: datetime) -> None:
        super().__init__(message)
        self.until = until


class SeatNotHeld(StaleVersion):
    """A person's move refused: the token it came by no longer holds the seat in the database
    (the seat was left to the bot, or taken back by another device, in another process that
    this one had not heard from yet)."""


class TableGone(StaleVersion):
    """The table was deleted (its host closed it, in another process) while an action to it
    was on its way: refused as a move that came too late, not a storage failure (it was logged
    as an error with its traceback: a thirty-third audit)."""


class Refused(StoreError):
    """A change the table's stored state does not allow (it has started, a seat is open);
    ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        """The HTTP status it calls for, when not the usual 409 or 403."""


def _closed() -> Refused:
    """The refusal of a change to a table that is not there (its host closed it meanwhile)."""
    return Refused("not_found", "no such table (it was closed)", 404)


@dataclass(frozen=True)
class OpenCaps:
    """The bounds on open tables (waiting or in play, changed after ``since``): ``max_tables``
    in all, ``per_owner`` made by one address (``--max-tables``, ``--tables-per-address``);
    ``hours``: how long a table untouched stays open, for the refusal's words; ``per_day``:
    tables one address may make in a day, finished or not, those closed (deleted) aside
    (``--tables-per-day``; 0: no bound)."""

    since: datetime
    max_tables: int
    per_owner: int
    hours: float
    per_day: int = 0

    def refusal(self, total: int, mine: int | None, today: int | None = None) -> Refused | None:
        """What a new table is refused with when ``total`` tables are open, ``mine`` of them
        made by its maker (None: a maker not counted), who made ``today`` tables in the last
        day; None if it may be made."""
        if total >= self.max_tables:
            return Refused(
                "too_many_tables",
                f"this server holds its most open tables ({self.max_tables}); try again later",
                503,
            )
        if mine is not None and mine >= self.per_owner:
            return Refused(
                "too_many_tables",
                f"at most {self.per_owner} open tables from one address (waiting or in play, "
                f"changed in the last {self.hours:g} h): finish one, or join a table",
                429,
            )
        # (finished tables held no place: one address kept twenty tables of bots playing
        # themselves, each stored for --keep-finished — some 14,000 tables a day within
        # --create-rate, a fifty-second audit)
        if today is not None and self.per_day and today >= self.per_day:
            return Refused(
                "too_many_tables",
                f"at most {self.per_day} tables a day from one address: try again tomorrow, "
                "or join a table",
                429,
            )
        return None


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(Text)  # JSON: the resolved options
    players: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    host_token: Mapped[str] = mapped_column(String(64))  # SHA-256 hex of the host token
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    version: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    preset: Mapped[str | None] = mapped_column(String(32), nullable=True)  # as created
    updated: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    games_played: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    features: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON: host's choices
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next table
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """A hash of the address that made the table (``web.addresses.owner_hash``)."""
    invite: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """A private table's invite secret, its SHA-256 hex (null: a public table)."""
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    """JSON: how the match ended (``web.workers.outcome``), written with its last action."""
    dealer: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The seat that deals the first game (a rematch: the seat after its table's)."""
    quiet: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Since when nobody has been connected to the table in play, as its driver last wrote
    (null: someone was; migration 0012)."""

    __table_args__ = (
        Index("ix_tables_status_updated", "status", "updated"),  # (migration 0003)
        Index("ix_tables_status_created", "status", "created"),  # (0011: the lobby's pages)
    )


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # open | human | bot
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)  # SHA-256 hex
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    back: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The table's version when this seat's person last said hello again, away before, at the
    table in play (:meth:`Store.seat_back`): a stand-in's move at that version is refused for
    :data:`BACK_GRACE` after ``back_at``."""
    back_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    holder: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """A hash of the address that took the seat (``web.addresses.owner_hash``), for the cap on
    seats one address holds at waiting tables; null for a bot, an open seat, or a seat taken
    before it was kept. Never published: a seat's public ``holder`` is another thing, a hash of
    its token's hash (``web.rooms.holder_id``)."""


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    by: Mapped[str] = mapped_column(String(8))  # human | bot | away | timeout
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


CHAT_KEEP = 500
"""Chat messages a table keeps (the page shows the newest 50): older ones are deleted."""
CHAT_PRUNE_EVERY = 32
"""Chat rows a table may hold past :data:`CHAT_KEEP` before the oldest go (a delete every so
many messages, not one at each)."""


class ChatRow(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    reaction: Mapped[str | None] = mapped_column(String(32), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    event: Mapped[str | None] = mapped_column(Text, nullable=True)
    """JSON: a change of the seats, said in the chat (:attr:`Chat.event`); no text then."""


REMATCH_WISH = -1
"""The ``game`` of a ready mark that asks for the match's rematch (:class:`ReadyRow`; a game's
own marks count from 0)."""

REMATCH_HOST = -2
"""The ``game`` of a ready mark beside a seat's :data:`REMATCH_WISH`: the wish came with the
table's host token too — the host plays in that seat and asked, so the rematch keeps the host
(:meth:`Store.create_rematch`)."""

LEFT_BEFORE = -3
"""The ``game`` of a mark on a rematch's seat whose person left a match of its chain in play
(:meth:`Store.hand_seat_to_bot`): a bot plays it there, nameless, yet closing counts it as a
person's (:attr:`Table.left_before`) — a host who left the game in play made the rematch (or
the other player asked for it) and closed the other player's match in play (a fifty-third
audit)."""


class ReadyRow(Base):
    """A seat that said ready after game ``game`` (0-based), or asked for the rematch
    (:data:`REMATCH_WISH`)."""

    __tablename__ = "ready"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)


class BarredRow(Base):
    """An address the host put out of a seat at this table before its start (a hash, as
    ``SeatRow.holder``): it takes no seat there again."""

    __tablename__ = "barred"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    holder: Mapped[str] = mapped_column(String(32), primary_key=True)


PURGE_ROWS = 20_000
"""Actions and chat lines one transaction of :meth:`Store.purge` deletes at most (besides a
single table holding more: it goes whole)."""

MAX_BARRED = 100
"""The most addresses one table bars (a host reopening seats again and again adds no more)."""


Holdings = tuple[tuple[int, str | None], ...]
"""A table's seats held by a person, as who holds them: each such seat and its token hash, in
seat order. (Only a person's seat is bound to sockets; a bot's or an open seat is not listed:
a seat that changes hands from or to a person changes the list all the same, and the poll
reads some five times fewer rows where most seats are bots — a code review.)"""


@dataclass(frozen=True)
class Seat:
    seat: int
    kind: str  # open | human | bot
    name: str | None = None
    token: str | None = None  # SHA-256 of the seat token
    bot: str | None = None

    @property
    def left_in_play(self) -> bool:
        """A seat its person left in play (:meth:`Store.hand_seat_to_bot`): the bot plays it
        to the match's end under their name (a bot's seat has none otherwise)."""
        return self.kind == "bot" and bool(self.name)


@dataclass(frozen=True)
class Action:
    version: int
    seat: int
    action: str
    by: str
    at: datetime | None = None
    """When it was stored (UTC)."""


@dataclass(frozen=True)
class Chat:
    """One chat message: ``text`` or a ``reaction`` id, by ``seat`` (``None``: a spectator)."""

    id: int
    seat: int | None
    name: str | None
    text: str | None
    reaction: str | None
    at: datetime
    event: dict[str, Any] | None = None
    """A change of the seats the table's chat says (someone took, left or moved seats, changed
    their name): ``{"kind", "seat", "who", …}`` (``docs/web.md``), stored so that a later
    arrival and a reloaded page read it too; ``text`` and ``reaction`` are ``None`` then."""


@dataclass(frozen=True)
class Table:
    id: str
    game: str
    rules: dict[str, Any]
    players: int
    games: int
    seed: int
    host_token: str
    status: str
    version: int
    created: datetime
    seats: tuple[Seat, ...]
    preset: str | None = None
    updated: datetime | None = None
    games_played: int = 0
    features: dict[str, Any] = field(default_factory=dict)
    """What the host allowed at creation: ``spectator_chat``, ``hints`` (booleans)."""
    rematch: str | None = None
    """The table that continues this one after a rematch."""
    owner: str | None = None
    """A hash of the address that made the table (a rematch keeps its table's)."""
    invite: str | None = None
    """A private table's invite secret, its SHA-256 hex (``None``: public; a rematch keeps
    its table's)."""
    result: dict[str, Any] | None = None
    """How the match ended: ``{"scores", "winners", "side"}`` (``None`` until it is over, and
    for a table finished before revision 0008 kept it)."""
    dealer: int = 0
    """The seat that deals the first game: 0, and in a rematch the seat after its table's (the
    same player dealt the first game of every rematch: a seventeenth review)."""
    quiet: datetime | None = None
    """Since when nobody has been connected to the table in play, as the process driving it
    last wrote (``None``: someone was, or it was never written)."""
    left_before: frozenset[int] = frozenset()
    """Seats of a rematch whose person left a match of its chain in play (:data:`LEFT_BEFORE`;
    read by :meth:`Store.delete_table` only)."""

    @property
    def private(self) -> bool:
        """Left out of the lobby's list; only an invite or a token of the table opens it."""
        return self.invite is not None


def utc(at: datetime) -> datetime:
    """``at`` as an aware UTC time (SQLite hands back naive times, which are UTC here)."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at


def _event(stored: str | None) -> dict[str, Any] | None:
    """A chat row's stored seat event (:attr:`Chat.event`), ``None`` for a message."""
    if stored is None:
        return None
    try:
        event = json.loads(stored)
    except ValueError:  # (a damaged row: said as nothing, not a table that fails to load)
        return None
    return event if isinstance(event, dict) else None


def _more_features(stored: str | None, more: Mapping[str, Any] | None) -> str | None:
    """A table's stored features (JSON) with ``more`` of them set."""
    if not more:
        return stored
    return json.dumps({**(json.loads(stored) if stored else {}), **more}, sort_keys=True)


def _now() -> datetime:
    """A stored time: the deployment's shared clock (:mod:`torampu.web.clock`)."""
    return clock.now()


def normalize_url(url: str) -> str:
    """The SQLAlchemy URL of a ``--database`` value: ``postgresql://`` uses psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            # processes started together on a fresh database migrate one after the other
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Store:
    """The database of the web tables (SQLite or PostgreSQL, by URL)."""

    def __init__(
        self,
        url: str,
        statement_timeout: float = STATEMENT_TIMEOUT,
        connections: int = DB_CONNECTIONS,
    ) -> None:
        url = normalize_url(url)
        self.url = url
        self.dialect = url.split(":", 1)[0].split("+", 1)[0]
        kwargs: dict[str, Any] = {}
        if self.dialect == "sqlite":
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        else:
            kwargs["pool_pre_ping"] = True
            kwargs["pool_timeout"] = 10  # a request waits at most this for a free connection
            # at most ``connections`` at once, five of them kept (a sixteenth scale audit: the
            # library's 5 + 10, fixed, and no way to size a deployment's processes by it)
            kwargs["pool_size"] = min(5, connections)
            kwargs["max_overflow"] = connections - kwargs["pool_size"]
            if self.dialect == "postgresql":
                # every wait on the database is bounded: a connection that cannot be made, a
                # statement or lock that takes too long, a network that stops answering (TCP
                # keepalives, and unacknowledged data given up after the same time) — else a
                # hung database held a database thread, and the room's lock, without end
                ms = max(1, int(statement_timeout * 1000))
                kwargs["connect_args"] = {
                    "connect_timeout": CONNECT_TIMEOUT,
                    "options": f"-c statement_timeout={ms} -c lock_timeout={ms}",
                    "keepalives": 1,
                    "keepalives_idle": 10,
                    "keepalives_interval": 5,
                    "keepalives_count": 3,
                    "tcp_user_timeout": ms,
                }
        self.engine = create_engine(url, **kwargs)
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self._holders = threading.Lock()  # SQLite (one process): one capped seat-taking at once
        self._creates = threading.Lock()  # and one counted table made at once
        self._invites = threading.Lock()  # and one invite replaced or copied at once

    def close(self) -> None:
        self.engine.dispose()

    # ---------------------------------------------------------------- reads
    def table(self, table_id: str) -> Table | None:
        """The table (``None``: there is none) — after the same two queries either way, so
        that how long it takes does not tell whether it is there."""
        with self._session() as s:
            row = s.get(TableRow, table_id)
            seats = self._seats(s, table_id)
            return None if row is None else self._table(s, row, seats)

    def tables(self, limit: int = 50, offset: int = 0, status: str | None = None) -> list[Table]:
        """A page of the public tables, newest first (``status``: only those; ``"open"``:
        waiting or in play); private tables are never listed."""
        with self._session() as s:
            q = select(TableRow).where(TableRow.invite.is_(None))
            if status == "open":  # (a list, not "!= over": the index reads those few alone)
                q = q.where(TableRow.status.in_(("waiting", "playing")))
            elif status is not None:
                q = q.where(TableRow.status == status)
            q = q.order_by(TableRow.created.desc(), TableRow.id).limit(limit).offset(offset)
            rows = list(s.scalars(q))
            seats: dict[str, list[Seat]] = {r.id: [] for r in rows}
            if rows:
                q2 = select(SeatRow).where(SeatRow.table_id.in_(list(seats)))
                for x in s.scalars(q2.order_by(SeatRow.table_id, SeatRow.seat)):
                    seats[x.table_id].append(Seat(x.seat, x.kind, x.name, x.token, x.bot))
            return [self._table(s, r, seats[r.id]) for r in rows]

    def caps_refusal(self, caps: OpenCaps, owner: str | None) -> Refused | None:
        """What a new table by ``owner`` would be refused with under ``caps`` now (None: it may
        be made) — an early look; the table's insert counts again (:meth:`_check_open`)."""
        with self._session() as s:
            return _caps_refusal(s, caps, owner)

    def count_seats(self, since: datetime, holder: str) -> int:
        """The seats that the address whose hash is ``holder`` holds at tables waiting to start
        that changed after ``since``."""
        with self._session() as s:
            return _count_seats(s, since, holder)

    def active_since(self, status: str, since: datetime, limit: int) -> list[tuple[str, datetime]]:
        """Up to ``limit`` tables of ``status`` that changed after ``since``, latest first, with
        when each last changed."""
        with self._session() as s:
            q = select(TableRow.id, TableRow.updated).where(
                TableRow.status == status, TableRow.updated >= since
            )
            rows = s.execute(q.order_by(TableRow.updated.desc()).limit(limit))
            return [(r[0], utc(r[1] or since)) for r in rows]

    def versions(self, table_ids: list[str]) -> dict[str, tuple[str, int, Holdings]]:
        """The stored status, version and seat holdings (:data:`Holdings`) of each of
        ``table_ids`` still there (read in batches of 500). The holdings too: a seat changes
        hands (a leave in play, a reopen, a join) without a new version, and one stored by a
        process cut off from Redis was never heard of by the others (a sixty-ninth audit)."""
        out: dict[str, tuple[str, int, Holdings]] = {}
        with self._session() as s:
            for i in range(0, len(table_ids), 500):
                batch = table_ids[i : i + 500]
                q = select(TableRow.id, TableRow.status, TableRow.version).where(
                    TableRow.id.in_(batch)
                )
                rows = list(s.execute(q))
                held: dict[str, list[tuple[int, str | None]]] = {r[0]: [] for r in rows}
                seats = (
                    select(SeatRow.table_id, SeatRow.seat, SeatRow.token)
                    .where(SeatRow.table_id.in_(batch), SeatRow.kind == "human")
                    .order_by(SeatRow.table_id, SeatRow.seat)
                )
                for t, seat, token in s.execute(seats):
                    if t in held:
                        held[t].append((seat, token))
                out.update((r[0], (r[1], r[2], tuple(held[r[0]]))) for r in rows)
        return out

    def table_ids(self, status: str | None = None) -> list[str]:
        with self._session() as s:
            q = select(TableRow.id)
            if status is not None:
                q = q.where(TableRow.status == status)
            return list(s.scalars(q))

    def count_tables(self) -> int:
        """The public tables (a private one is counted nowhere a stranger can read)."""
        with self._session() as s:
            q = select(func.count()).select_from(TableRow).where(TableRow.invite.is_(None))
            return int(s.scalar(q) or 0)

    def actions(self, table_id: str, after: int = 0) -> list[Action]:
        """The table's actions after version ``after``, in order."""
        with self._session() as s:
            q = select(ActionRow).where(ActionRow.table_id == table_id, ActionRow.version > after)
            rows = s.scalars(q.order_by(ActionRow.version))
            return [Action(r.version, r.seat, r.action, r.by, utc(r.at)) for r in rows]

    def recent_chat(self, table_id: str, limit: int) -> list[Chat]:
        """The table's ``limit`` newest chat messages and ``limit`` newest lines of seat
        changes (:attr:`Chat.event`), oldest first: the lines never push the messages out."""
        with self._session() as s:
            rows = []
            for lines in (ChatRow.event.is_(None), ChatRow.event.is_not(None)):
                q = select(ChatRow).where(ChatRow.table_id == table_id, lines)
                rows += list(s.scalars(q.order_by(ChatRow.id.desc()).limit(limit)))
            rows.sort(key=lambda r: r.id)
            return [
                Chat(r.id, r.seat, r.name, r.text, r.reaction, utc(r.at), _event(r.event))
                for r in rows
            ]

    def ready_seats(self, table_id: str, game: int) -> set[int]:
        """The seats that said ready after game ``game`` (0-based) finished."""
        with self._session() as s:
            return self._ready(s, table_id, game)

    @staticmethod
    def _ready(s: Session, table_id: str, game: int) -> set[int]:
        q = select(ReadyRow.seat).where(ReadyRow.table_id == table_id, ReadyRow.game == game)
        return set(s.scalars(q))

    @staticmethod
    def _seats(s: Session, table_id: str) -> list[Seat]:
        q = select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        return [Seat(x.seat, x.kind, x.name, x.token, x.bot) for x in s.scalars(q)]

    def _table(self, s: Session, row: TableRow, seats: list[Seat] | None = None) -> Table:
        if seats is None:
            seats = self._seats(s, row.id)
        return Table(
            row.id,
            row.game,
            json.loads(row.rules),
            row.players,
            row.games,
            row.seed,
            row.host_token,
            row.status,
            row.version,
            row.created,
            tuple(seats),
            row.preset,
            row.updated,
            row.games_played or 0,
            json.loads(row.features) if row.features else {},
            row.rematch,
            row.owner,
            row.invite,
            json.loads(row.result) if row.result else None,
            row.dealer or 0,
            utc(row.quiet) if row.quiet is not None else None,
        )

    # ---------------------------------------------------------------- writes
    def create_table(
        self,
        table_id: str,
        game: str,
        rules: dict[str, Any],
        players: int,
        games: int,
        seed: int,
        host_token: str,
        seats: list[str],
        preset: str | None = None,
        features: dict[str, Any] | None = None,
        owner: str | None = None,
        invite: str | None = None,
        caps: OpenCaps | None = None,
    ) -> Table:
        """Store a new table; ``seats`` holds ``"open"`` or a bot spec per seat, ``preset`` the
        preset its rules were made from (shown in the lobby), ``features`` what the host
        allowed, ``owner`` a hash of the address that made it, ``invite`` the hash of a
        private table's invite secret; ``caps``: :class:`Refused` ``too_many_tables`` (nothing
        stored) if they are reached, counted in the same step as the insert, in every process."""
        with self._serial(self._creates if caps else None), self._session.begin() as s:
            self._check_open(s, caps, owner)
            row = TableRow(
                id=table_id,
                game=game,
                rules=json.dumps(rules, sort_keys=True),
                players=players,
                games=games,
                seed=seed,
                host_token=host_token,
                status="waiting",
                version=0,
                created=_now(),
                preset=preset,
                updated=_now(),
                games_played=0,
                features=json.dumps(features, sort_keys=True) if features else None,
                owner=owner,
                invite=invite,
            )
            s.add(row)
            s.flush()
            for i, spec in enumerate(seats):
                bot = None if spec == "open" else spec
                s.add(SeatRow(table_id=table_id, seat=i, kind="bot" if bot else "open", bot=bot))
        table = self.table(table_id)
        assert table is not None
        return table

    def set_seat(
        self,
        table_id: str,
        seat: int,
        kind: str,
        name: str | None = None,
        token: str | None = None,
        bot: str | None = None,
        only_if_open: bool = False,
        holder: str | None = None,
        cap: tuple[datetime, int] | None = None,
    ) -> bool:
        """Change a seat; with ``only_if_open`` only an open seat (``False`` if it was taken);
        a person's seat :class:`Refused` ``name_taken`` if another person at the table goes by
        ``name`` (:func:`same_name`);
        ``holder``: the hash of the address that takes it (:class:`Refused` ``barred`` if the
        host put that address out of a seat of this table); ``cap``: ``(since, most)``, and
        :class:`Refused` ``too_many_seats`` (nothing changed) if the seat would make that
        address hold more than ``most`` seats at waiting tables changed after ``since``. The
        count and the change are one step for each address, in every process: a burst of joins
        at once passed a count made before them (30 at once took 13 seats where 3 were allowed).
        """
        capped = cap is not None and holder is not None
        with self._serial(self._holders if capped else None), self._session.begin() as s:
            if capped and self.dialect == "postgresql":
                key = {"ns": SEAT_LOCKS, "holder": holder}
                s.execute(text("SELECT pg_advisory_xact_lock(:ns, hashtext(:holder))"), key)
            # the table's row first, locked to the commit (PostgreSQL), as every other change
            # of its seats takes it: two joins at once go one at a time, and a join beside the
            # host's seat change, start or close no longer deadlocks with it — the seat's row
            # was locked first here, the table's first there (a twenty-second audit: 1 in 6
            # such races answered "storage unavailable" on two processes)
            if s.get(TableRow, table_id, with_for_update=True) is None:
                raise _closed()
            if holder is not None and s.get(BarredRow, (table_id, holder)) is not None:
                raise Refused("barred", "the host removed you from this table: sit elsewhere", 403)
            q = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            if only_if_open:
                q = q.where(SeatRow.kind == "open")
            done = s.execute(q.values(kind=kind, name=name, token=token, bot=bot, holder=holder))
            if done.rowcount:  # type: ignore[attr-defined]
                s.execute(update(TableRow).where(TableRow.id == table_id).values(updated=_now()))
                if kind == "human" and name is not None:
                    _check_name_free(s, table_id, seat, name)
                if cap is not None and holder is not None:
                    since, most = cap
                    if _count_seats(s, since, holder) > most:  # (this seat counted)
                        raise seats_refusal(most)  # rolled back: the seat stays open
            return bool(done.rowcount)  # type: ignore[attr-defined]

    @contextlib.contextmanager
    def _serial(self, lock: threading.Lock | None) -> Iterator[None]:
        """On SQLite, ``lock`` held (its one process: one at a time), as an advisory lock in the
        transaction does it on PostgreSQL across processes; nothing with None."""
        if lock is None or self.dialect == "postgresql":
            yield
            return
        with lock:
            yield

    def _lock_invites(self, s: Session) -> None:
        """In a transaction that replaces a private table's invite or copies it to a rematch,
        first of all: one such transaction at a time, across processes (on SQLite the caller
        holds ``_invites``). A rematch made as the host replaced the invite kept the old one
        (a ninth audit: the replacement read its chain before the rematch's row was
        committed), and the old link opened it and the rest of its chain."""
        if self.dialect == "postgresql":
            s.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": INVITE_LOCK})

    def _check_open(self, s: Session, caps: OpenCaps | None, owner: str | None) -> None:
        """In a transaction that makes a table: :class:`Refused` (``too_many_tables``) if
        ``caps`` are reached, counted after every other process's table made before (the
        advisory lock, held to the commit, makes count and insert one step; on SQLite the
        caller holds ``_creates``)."""
        if caps is None:
            return
        if self.dialect == "postgresql":
            s.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": CREATE_LOCK})
        refused = _caps_refusal(s, caps, owner)
        if refused is not None:
            raise refused

    def set_waiting_seat(
        self,
        table_id: str,
        seat: int,
        kind: str,
        bot: str | None = None,
        held_by: Callable[[str | None], bool] | None = None,
    ) -> tuple[str, str | None]:
        """Before the start only: seat a bot or open ``seat`` (:class:`Refused` ``started``
        once the table has started, whichever process started it). ``held_by``: whether the
        seat's stored token hash is the one the host saw there (:class:`Refused`
        ``holder_changed`` if not: the person moved or left meanwhile); opening an open seat is
        refused ``seat_open`` (the host was told "done" and nothing was: a twenty-second
        audit). What the seat held as stored: its kind and name (a process's own copy may be
        behind another process's change)."""
        with self._session.begin() as s:
            moved = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == "waiting")
                .values(updated=_now())
            )  # also locks the row until the commit (PostgreSQL): one seat change at a time
            if not moved.rowcount:  # type: ignore[attr-defined]
                raise Refused("started", "seats change only before the start")
            # a person the host puts out is barred from the table's seats (by address: with a
            # fresh token they would take the seat back at once — a fourth audit), unless they
            # share the host's address (a household: the host moving friends about)
            was = s.get(SeatRow, (table_id, seat))
            if was is not None and held_by is not None and not held_by(was.token):
                raise Refused("holder_changed", f"seat {seat} changed hands meanwhile: look again")
            if was is not None and was.kind == "open" and kind == "open":
                raise Refused("seat_open", f"seat {seat} is open already")
            owner = s.scalar(select(TableRow.owner).where(TableRow.id == table_id))
            if was is not None and was.kind == "human" and was.holder not in (None, owner):
                q_n = select(func.count()).select_from(BarredRow)
                barred = int(s.scalar(q_n.where(BarredRow.table_id == table_id)) or 0)
                if barred < MAX_BARRED and s.get(BarredRow, (table_id, was.holder)) is None:
                    s.add(BarredRow(table_id=table_id, holder=was.holder))
            q = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            held = ("open", None) if was is None else (was.kind, was.name)
            s.execute(q.values(kind=kind, name=None, token=None, bot=bot, holder=None))
            return held

    def leave_waiting_seat(self, table_id: str, seat: int, token: str) -> str | None:
        """Before the start only: the person holding ``seat`` by the token whose hash is
        ``token`` gets up, and the seat is open (:class:`Refused` ``started`` once the table
        has started, ``seat_revoked`` if that token no longer holds the seat). The name they
        sat under."""
        values = {"kind": "open", "name": None, "token": None, "bot": None, "holder": None}
        return self._change_own_waiting_seat(
            table_id, seat, token, values, "a seat is left only before the start"
        )

    def hand_seat_to_bot(self, table_id: str, seat: int, token: str, bot: str) -> str | None:
        """While the match is playing, the person holding ``seat`` by the token whose hash is
        ``token`` leaves the game for good: the bot ``bot`` plays the seat to the match's end,
        and the token holds nothing (:class:`Refused` ``not_playing`` before the start or once
        the match is over, ``seat_revoked`` if that token no longer holds the seat). One step
        with the table's row locked, as a move's storing takes it. The name they sat under."""
        with self._session.begin() as s:
            moved = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == "playing")
                .values(updated=_now())
            )  # (locks the row to the commit: a move stored before or after, never across)
            if not moved.rowcount:  # type: ignore[attr-defined]
                raise Refused("not_playing", "a game is left only while the match is playing")
            was = s.get(SeatRow, (table_id, seat))
            name = None if was is None else was.name
            q = update(SeatRow).where(
                SeatRow.table_id == table_id,
                SeatRow.seat == seat,
                SeatRow.kind == "human",
                SeatRow.token == token,
            )
            # (the name stays: the seat was a person's, and one who left must not close the
            # others' match — Lobby.close_table; the standings keep the name they know)
            values = {"kind": "bot", "token": None, "bot": bot, "holder": None}
            if not s.execute(q.values(**values)).rowcount:  # type: ignore[attr-defined]
                raise Refused("seat_revoked", f"seat {seat} is no longer yours", 403)
            return name

    def rename_waiting_seat(self, table_id: str, seat: int, token: str, name: str) -> str | None:
        """Before the start only: the person holding ``seat`` by the token whose hash is
        ``token`` is called ``name`` (:class:`Refused` as :meth:`leave_waiting_seat`, or
        ``name_taken`` as :meth:`set_seat`). The name they sat under before."""
        return self._change_own_waiting_seat(
            table_id, seat, token, {"name": name}, "a name is changed only before the start"
        )

    def _change_own_waiting_seat(
        self, table_id: str, seat: int, token: str, values: dict[str, Any], started: str
    ) -> str | None:
        """Set ``values`` on ``seat`` if the token whose hash is ``token`` holds it and the
        table has not started (:class:`Refused` ``started`` with ``started``, or
        ``seat_revoked``; ``name_taken`` for a ``name`` another person there goes by), in one
        transaction. The seat's name before, as stored."""
        with self._session.begin() as s:
            moved = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == "waiting")
                .values(updated=_now())
            )  # locks the row until the commit, as for the host's seat changes
            if not moved.rowcount:  # type: ignore[attr-defined]
                raise Refused("started", started)
            if values.get("name") is not None:  # (a seat left: ``None``)
                _check_name_free(s, table_id, seat, values["name"])
            was = s.get(SeatRow, (table_id, seat))  # (the table's row locked: as it stays)
            name = None if was is None else was.name  # (before the update writes over it)
            q = update(SeatRow).where(
                SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.token == token
            )
            done = s.execute(q.values(**values))
            if not done.rowcount:  # type: ignore[attr-defined]  # (403: a token holding no seat)
                raise Refused("seat_revoked", f"seat {seat} is no longer yours", 403)
            return name

    def swap_waiting_seats(self, table_id: str, a: int, b: int, token: str | None = None) -> None:
        """Before the start only: seats ``a`` and ``b`` trade what they hold — a person (their
        name, seat token and address go with them), a bot, or nothing. With ``token`` (a seat
        token's hash) it is that person's own move: they hold ``a`` and ``b`` must be open.
        :class:`Refused` ``started`` once the table has started, ``seat_revoked`` if ``token``
        no longer holds ``a``, ``seat_taken`` if ``b`` is not open for such a move or either
        seat changed meanwhile (nothing changes then), in one transaction."""
        with self._session.begin() as s:
            moved = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == "waiting")
                .values(updated=_now())
            )  # locks the row until the commit, as for the host's seat changes
            if not moved.rowcount:  # type: ignore[attr-defined]
                raise Refused("started", "seats change only before the start")
            rows = [s.get(SeatRow, (table_id, x)) for x in (a, b)]
            if rows[0] is None or rows[1] is None:
                raise Refused("not_found", f"no seat {a} or {b} at this table", 404)
            if token is not None and rows[0].token != token:
                raise Refused("seat_revoked", f"seat {a} is no longer yours", 403)
            if token is not None and rows[1].kind != "open":
                raise Refused("seat_taken", f"seat {b} is taken")
            keys = ("kind", "name", "token", "bot", "holder")
            was = [{k: getattr(r, k) for k in keys} for r in rows]
            for x, old, new in ((a, was[0], was[1]), (b, was[1], was[0])):
                # each seat only as it was read: a join that took an open seat on another
                # process meanwhile is not overwritten (on PostgreSQL the row is read again)
                q = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == x)
                q = q.where(SeatRow.kind == old["kind"])
                for k in ("token", "bot"):
                    col = getattr(SeatRow, k)
                    q = q.where(col.is_(None) if old[k] is None else col == old[k])
                done = s.execute(q.values(**new))
                if not done.rowcount:  # type: ignore[attr-defined]
                    raise Refused("seat_taken", "the seats changed meanwhile: try again")

    def start_table(self, table_id: str, fill: str | None) -> Table:
        """Start a waiting table in one transaction: its open seats get the ``fill`` bot
        (:class:`Refused` ``seat_open`` if there is none), its status becomes ``playing``
        (:class:`Refused` ``started`` if another request started it first)."""
        with self._session.begin() as s:
            moved = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == "waiting")
                .values(status="playing", updated=_now())
            )
            if not moved.rowcount:  # type: ignore[attr-defined]
                raise Refused("started", "the table has already started")
            q = select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.kind == "open")
            open_seats = list(s.scalars(q.order_by(SeatRow.seat)))
            if open_seats and fill is None:
                raise Refused("seat_open", f"seat {open_seats[0]} is open: seat someone or a bot")
            if open_seats:
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.kind == "open")
                    .values(kind="bot", bot=fill, name=None, token=None)
                )
        table = self.table(table_id)
        assert table is not None
        return table

    def purge(
        self,
        finished_before: datetime | None,
        abandoned_before: datetime | None,
        spare: Collection[str] = (),
        limit: int = 200,
        rows: int = PURGE_ROWS,
    ) -> list[str]:
        """Delete up to ``limit`` tables, with their seats, actions, chat and ready marks:
        finished ones last changed before ``finished_before``, and waiting or playing ones
        nobody touched since ``abandoned_before`` (``None``: keep those for ever), except the
        ids in ``spare`` — the oldest first, and no more of them than hold ``rows`` actions and
        chat lines together (always one). The deleted ids: none once there are none to go."""
        old = []
        for statuses, before in (
            (["over"], finished_before),
            (["waiting", "playing"], abandoned_before),
        ):
            if before is not None:
                # (the status-and-updated index serves this; rows older than ``updated`` have
                # only ``created``)
                stale = or_(
                    TableRow.updated < before,
                    and_(TableRow.updated.is_(None), TableRow.created < before),
                )
                old.append(and_(TableRow.status.in_(statuses), stale))
        if not old or limit < 1:
            return []
        with self._session.begin() as s:
            q = select(TableRow.id, TableRow.version).where(or_(*old))
            if spare:
                q = q.where(TableRow.id.not_in(list(spare)))
            found = list(s.execute(q.order_by(TableRow.created).limit(limit)))
            # one transaction holds SQLite's one write lock, and writes all it deletes to the
            # WAL: 200 tables of 20,000 actions each (a table may hold --max-games times
            # --max-game-actions) held every other table's move 3.6 s and left a 325 MB WAL
            # behind (a sixty-third audit); so a batch is bounded by the rows it deletes
            chats: dict[str, int] = {}
            if found:
                lines = select(ChatRow.table_id, func.count()).group_by(ChatRow.table_id)
                lines = lines.where(ChatRow.table_id.in_([tid for tid, _ in found]))
                chats = {tid: n for tid, n in s.execute(lines)}
            ids: list[str] = []
            held = 0
            for tid, version in found:
                held += (version or 0) + chats.get(tid, 0) + 1
                if ids and held > rows:
                    break
                ids.append(tid)
            if ids:
                for child in (ReadyRow, ChatRow, ActionRow, SeatRow, BarredRow):
                    s.execute(delete(child).where(child.table_id.in_(ids)))
                s.execute(delete(TableRow).where(TableRow.id.in_(ids)))
            return ids

    def delete_table(self, table_id: str, only_if: Callable[[Table], str | None]) -> list[str]:
        """Delete a table with its seats, actions, chat and ready marks, in one transaction
        with its row locked, if ``only_if(table)`` — the table as stored — says nothing against
        it (else :class:`Refused` with what it said; ``not_found`` for no table). A table it was
        the rematch of has none again (its link led to "no table", and no other rematch could
        be made: a twentieth audit): their ids."""
        with self._session.begin() as s:
            row = s.get(TableRow, table_id, with_for_update=True)
            if row is None:
                raise Refused("not_found", f"no table {table_id!r}", 404)
            table = self._table(s, row, self._seats(s, table_id))
            left = frozenset(self._ready(s, table_id, LEFT_BEFORE))
            why = only_if(dataclasses.replace(table, left_before=left))
            if why is not None:
                raise Refused("not_closable", why)
            for child in (ReadyRow, ChatRow, ActionRow, SeatRow, BarredRow):
                s.execute(delete(child).where(child.table_id == table_id))
            s.execute(delete(TableRow).where(TableRow.id == table_id))
            before = list(s.scalars(select(TableRow.id).where(TableRow.rematch == table_id)))
            if before:
                q = update(TableRow).where(TableRow.id.in_(before), TableRow.rematch == table_id)
                s.execute(q.values(rematch=None, updated=_now()))
                # (and the wishes it was made on: not a rematch made again when one leaves)
                wishes = ReadyRow.game.in_((REMATCH_WISH, REMATCH_HOST))
                s.execute(delete(ReadyRow).where(ReadyRow.table_id.in_(before), wishes))
            return before

    def set_invite(self, table_id: str, invite: str) -> list[str]:
        """Give a private table a new invite (its hash), and with it every table that shares
        its old one and its host (its rematch chain, as far as the host's token reaches): the
        old one opens nothing any more there. The ids.

        A rematch made without its host (a seat gone to a bot: a fresh host token nobody holds)
        keeps its invite: the host who left replaced the invite of the players' rematch through
        the old table, sent away whoever they had invited and watched by a link of their own
        (a fourteenth audit)."""
        with self._serial(self._invites), self._session.begin() as s:
            self._lock_invites(s)  # (before any row's lock: a rematch takes them in this order)
            row = s.get(TableRow, table_id, with_for_update=True)
            if row is None or row.invite is None:
                raise Refused("not_private", "only a private table has an invite")
            q = select(TableRow.id).where(
                TableRow.invite == row.invite, TableRow.host_token == row.host_token
            )
            ids = list(s.scalars(q))
            s.execute(
                update(TableRow).where(TableRow.id.in_(ids)).values(invite=invite, updated=_now())
            )
            return ids

    def set_quiet(self, table_id: str, since: datetime | None) -> None:
        """Write since when nobody has been at ``table_id`` (``None``: someone is); the row's
        ``updated`` stays: nothing happened at the table."""
        with self._session.begin() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(quiet=since))

    def set_status(self, table_id: str, status: str) -> None:
        with self._session.begin() as s:
            q = update(TableRow).where(TableRow.id == table_id)
            s.execute(q.values(status=status, updated=_now()))

    def append_action(
        self,
        table_id: str,
        version: int,
        seat: int,
        action: str,
        by: str,
        status: str = "",
        games_played: int | None = None,
        at: datetime | None = None,
        result: dict[str, Any] | None = None,
        holder: str | None = None,
    ) -> int:
        """Store the action that moves ``table_id`` from ``version`` to ``version + 1`` (and
        its new ``status`` and ``games_played`` if given, and the match's ``result`` if it ends
        it) at time ``at`` (default now); :class:`StaleVersion` if the table is no longer
        there — or a bot's move (``by`` ``bot``) for a seat whose player took it back
        (:meth:`reclaim_seat`); :class:`SeatNotHeld` if a person's move came by a token (its
        hash ``holder``) that no longer holds the seat."""
        at = at or _now()
        values: dict[str, Any] = {"version": version + 1, "updated": at}
        if status:
            values["status"] = status
        if games_played is not None:
            values["games_played"] = games_played
        if result is not None:
            values["result"] = json.dumps(result, sort_keys=True)
        try:
            with self._session.begin() as s:
                moved = s.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.version == version)
                    .values(**values)
                )
                if not moved.rowcount:  # type: ignore[attr-defined]
                    now = s.scalar(select(TableRow.version).where(TableRow.id == table_id))
                    if now is None:
                        raise TableGone(f"no table {table_id} (closed meanwhile)")
                    raise StaleVersion(f"table {table_id} is at version {now}, not {version}")
                # the seat's holding as it is, read under the row's lock: a bot's move for a
                # seat its person took back (reclaim_seat), a stand-in's for one its person
                # left to the bot (hand_seat_to_bot), is refused
                needs = {"bot": "bot", "away": "human", "timeout": "human"}.get(by)
                if needs is not None:
                    kind = select(SeatRow.kind).where(SeatRow.table_id == table_id)
                    if s.scalar(kind.where(SeatRow.seat == seat)) != needs:
                        who = "a bot" if needs == "bot" else "a person"
                        raise StaleVersion(f"table {table_id}: seat {seat} is not {who}'s now")
                if holder is not None:  # (a person's: each process checks its own copy of the
                    # seats first, which may not have heard yet that another process handed
                    # the seat on — a fifty-first audit's defence in depth)
                    held = select(SeatRow.kind, SeatRow.token).where(SeatRow.table_id == table_id)
                    row = s.execute(held.where(SeatRow.seat == seat)).one_or_none()
                    if row is None or row.kind != "human" or row.token != holder:
                        raise SeatNotHeld(f"table {table_id}: seat {seat} is no longer theirs")
                if by == "away":  # (read under the row's lock: see seat_back)
                    back = select(SeatRow.back, SeatRow.back_at).where(SeatRow.table_id == table_id)
                    came = s.execute(back.where(SeatRow.seat == seat)).one_or_none()
                    if came is not None and came.back is not None and came.back_at is not None:
                        until = utc(came.back_at) + BACK_GRACE
                        if came.back >= version and at < until:
                            raise PlayerBack(
                                f"table {table_id}: seat {seat}'s player is back", until
                            )
                s.execute(  # Core, not the ORM's unit of work: this is the hot path
                    insert(ActionRow).values(
                        table_id=table_id,
                        version=version + 1,
                        seat=seat,
                        action=action,
                        by=by,
                        at=at,
                    )
                )
        except IntegrityError:
            raise StaleVersion(f"table {table_id}: version {version + 1} was written") from None
        return version + 1

    def seat_back(self, table_id: str, seat: int) -> int | None:
        """``seat``'s person, away, said hello again at a table in play: the table's version now
        (``None``: no table), their seat marked with it under the table row's lock — a
        stand-in's move for it is refused from here (:meth:`append_action`), and one stored
        before is in the version read; for :data:`BACK_GRACE` only, by when a stand-in has seen
        the player's presence (a player who came back and left again at once held the table at
        that version for good). (A worker's stand-in checked the presence on Redis,
        then stored its move: the player who came back in between was shown their turn and saw
        the bot play it, a forty-fifth audit.)"""
        with self._session.begin() as s:
            # (the row taken first, by a write that changes nothing: PostgreSQL waits here for
            # a stand-in's write under way and reads its version; SQLite has one writer)
            now = s.scalar(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(version=TableRow.version)
                .returning(TableRow.version)
            )
            if now is None:
                return None
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(back=now, back_at=_now())
            )
            return int(now)

    def add_chat(
        self,
        table_id: str,
        seat: int | None,
        name: str | None,
        text: str | None,
        reaction: str | None,
        event: dict[str, Any] | None = None,
        holder: str | None = None,
    ) -> Chat:
        """Store one chat message (text or a reaction id, checked by the caller; or the
        ``event`` of a change of the seats, :attr:`Chat.event`); :class:`Refused`
        ``not_found`` if the table is gone (its host closed it meanwhile: the row's foreign key
        failed, and the log said the storage was unavailable — a ninth scale audit).
        ``holder``: the hash of the speaker's seat token — the line is under the name the seat
        has as stored (a name changed on another process a moment ago: the line went under the
        old one, a tenth scale audit), and ``Refused("seat_revoked")`` if the token no longer
        holds the seat."""
        at = _now()
        stored = json.dumps(event, ensure_ascii=False) if event is not None else None
        try:
            with self._session.begin() as s:
                if s.scalar(self._there(table_id)) is None:
                    raise _closed()
                if holder is not None and seat is not None:
                    held = s.get(SeatRow, (table_id, seat))
                    if held is None or held.token != holder:
                        raise Refused("seat_revoked", f"seat {seat} is no longer yours", 403)
                    name = held.name
                row = ChatRow(
                    table_id=table_id,
                    seat=seat,
                    name=name,
                    text=text,
                    reaction=reaction,
                    at=at,
                    event=stored,
                )
                s.add(row)
                s.flush()
                # past CHAT_KEEP + CHAT_PRUNE_EVERY rows, keep the newest CHAT_KEEP (a look down
                # the table's index at each message: the look came when the row's id, counted over
                # every table, was a multiple of 32 — an audit's player who sent each such message
                # to a second table of theirs kept 1,500 rows at the first, and could keep any
                # number; a seventeenth audit)
                # (messages and the lines of seat changes each keep CHAT_KEEP of their own: a
                # stranger's churn of seats deleted the table's messages — a code review)
                kind = ChatRow.event.is_(None) if event is None else ChatRow.event.is_not(None)
                newest = select(ChatRow.id).where(ChatRow.table_id == table_id, kind)
                newest = newest.order_by(ChatRow.id.desc())
                if s.scalar(newest.offset(CHAT_KEEP + CHAT_PRUNE_EVERY - 1).limit(1)) is not None:
                    cut = s.scalar(newest.offset(CHAT_KEEP).limit(1))
                    old = (ChatRow.table_id == table_id, ChatRow.id <= cut, kind)
                    s.execute(delete(ChatRow).where(*old))
                return Chat(row.id, seat, name, text, reaction, at, event)
        except IntegrityError:  # (SQLite locks nothing for the look above: the row's key)
            raise _closed() from None

    def mark_ready(self, table_id: str, game: int, seat: int) -> bool:
        """``seat`` is ready for the game after game ``game`` (a second mark changes nothing);
        whether the mark is new. ``Refused("not_found")`` for a table not there (deleted on
        another process: a wish on it was taken, and answered, as asked)."""
        try:
            with self._session.begin() as s:
                if s.scalar(self._there(table_id)) is None:
                    raise _closed()
                s.execute(insert(ReadyRow).values(table_id=table_id, game=game, seat=seat))
        except IntegrityError:  # marked before, or (SQLite: the look locks nothing) gone
            with self._session.begin() as s:
                if s.scalar(self._there(table_id)) is None:
                    raise _closed() from None
            return False
        return True

    @staticmethod
    def _there(table_id: str) -> Select[str]:
        """The table's id if its row is there, held against a delete until the commit (not
        against its other changes)."""
        there = select(TableRow.id).where(TableRow.id == table_id)
        return there.with_for_update(key_share=True)

    def withdraw_wish(self, table_id: str, seat: int) -> None:
        """``seat`` takes back its wish for the rematch (:data:`REMATCH_WISH`), unless the
        rematch is made (``Refused("rematch_made")``, the wish kept). The mark goes first and
        the row is read under its lock after: a rematch being made meanwhile (holding the
        lock, see :meth:`create_rematch`) either is made first — the withdrawal is refused — or
        finds the mark gone and is not made."""
        with self._session.begin() as s:
            s.execute(
                delete(ReadyRow).where(
                    ReadyRow.table_id == table_id,
                    ReadyRow.game.in_((REMATCH_WISH, REMATCH_HOST)),
                    ReadyRow.seat == seat,
                )
            )
            q = select(TableRow.id, TableRow.rematch).where(TableRow.id == table_id)
            row = s.execute(q.with_for_update()).first()
            if row is None:
                raise _closed()
            if row.rematch is not None:
                raise Refused("rematch_made", "the rematch is made already: leave it if you wish")

    def create_rematch(
        self,
        table_id: str,
        new_id: str,
        seed: int,
        caps: OpenCaps | None = None,
        bots: Mapping[int, str] | None = None,
        host_token: str | None = None,
        wishes: frozenset[int] | None = None,
        more: Mapping[str, Any] | None = None,
        maker: str | None = None,
    ) -> tuple[str, bool]:
        """The table that continues ``table_id`` (over) with the same game, rules, seats (the
        same names, seat-token hashes and bots), length, features (and ``more`` of them, in
        place of the old table's of those names) and host token: made now
        under ``new_id`` and ``seed`` and already playing, or the one made before (one
        transaction: two requests, on any processes, give one table). ``(id, made now)``.
        ``caps`` as for :meth:`create_table` (its maker's address: the old table's, but made on
        ``wishes`` see :func:`_wishers_owner`); ``bots``:
        seats a bot of the spec given takes instead (people who did not ask for it and left);
        ``host_token``: the new table's (a hash), instead of the old one's — unless it is made
        on ``wishes`` and a seat among them asked with the host token (:data:`REMATCH_HOST`:
        the host stayed and asked, and keeps the table's invite and its closing; a fresh token
        nobody held left nobody able to replace the invite, the fourteenth audit's note).
        ``wishes``: the
        seats whose wishes (:data:`REMATCH_WISH` marks) it is made on — read again under the
        old row's lock, it is refused (``Refused("wishes_changed")``, nothing made) if one of
        them was taken back meanwhile, and a seat that asked meanwhile keeps its place (a
        thirteenth audit: a wish taken back on one process while another made the rematch was
        told 202, its player seated)."""
        with (
            self._serial(self._creates if caps else None),
            self._serial(self._invites),
            self._session.begin() as s,
        ):
            self._lock_invites(s)  # the invite it copies is not being replaced meanwhile
            moved = s.execute(
                update(TableRow)
                .where(
                    TableRow.id == table_id,
                    TableRow.status == "over",
                    TableRow.rematch.is_(None),
                )
                .values(rematch=new_id, updated=_now())
            )  # takes the row's lock first: a concurrent request waits, then finds it set
            if not moved.rowcount:  # type: ignore[attr-defined]
                old = s.get(TableRow, table_id)
                if old is None:
                    raise _closed()
                if old.rematch is None:
                    raise Refused("not_over", "a rematch is there once the match is over")
                return old.rematch, False
            old = s.get(TableRow, table_id)
            assert old is not None
            stayed = False  # (the host asked beside their seat: a person's at the rematch)
            if wishes is not None:  # (read under the row's lock: see withdraw_wish)
                marks = self._ready(s, table_id, REMATCH_WISH)
                if not wishes <= marks:
                    raise Refused("wishes_changed", "a wish was taken back: not made")
                bots = {seat: b for seat, b in (bots or {}).items() if seat not in marks}
                if self._ready(s, table_id, REMATCH_HOST) & marks:
                    host_token = None
                    stayed = True
            owner = old.owner if maker is None else maker  # (the host's: who asked)
            if wishes is not None and not stayed:
                owner = _wishers_owner(s, table_id, old.owner, marks)
            self._check_open(s, caps, owner)  # (a refusal undoes the mark above too)
            s.add(
                TableRow(
                    id=new_id,
                    game=old.game,
                    rules=old.rules,
                    players=old.players,
                    games=old.games,
                    seed=seed,
                    host_token=old.host_token if host_token is None else host_token,
                    status="playing",
                    version=0,
                    created=_now(),
                    preset=old.preset,
                    updated=_now(),
                    games_played=0,
                    features=_more_features(old.features, more),
                    owner=owner,
                    invite=old.invite,
                    dealer=((old.dealer or 0) + 1) % old.players,
                )
            )
            s.flush()
            q = select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            left_before = self._ready(s, table_id, LEFT_BEFORE)
            for x in list(s.scalars(q)):
                # (a seat its person left in play, here or at a table before: still theirs to
                # count when the host would close the rematch in play — unless the host stayed
                # and plays it: then the one who left plays no match there the host could
                # close, and the host alone with bots ends their game as any)
                if x.kind == "bot" and (x.name or x.seat in left_before) and not stayed:
                    s.add(ReadyRow(table_id=new_id, game=LEFT_BEFORE, seat=x.seat))
                bot = (bots or {}).get(x.seat, x.bot if x.kind == "bot" else None)
                kept = dict(kind=x.kind, name=x.name, token=x.token, bot=x.bot, holder=x.holder)
                # the seat as a bot's (see set_waiting_seat) — a bot's seat too: one a person
                # left in play keeps their name there (hand_seat_to_bot), not at the rematch
                if bot is not None:
                    kept = dict(kind="bot", name=None, token=None, bot=bot, holder=None)
                s.add(SeatRow(table_id=new_id, seat=x.seat, **kept))
            return new_id, True

    def reclaim_seat(self, table_id: str, seat: int, token: str) -> Seat | None:
        """The person who held ``seat`` of ``table_id`` (over) by the token whose hash is
        ``token`` takes their place at its rematch back from the bot that took it there (they
        had not asked and were gone when it was made: a friend away a few seconds could only
        watch the rest of the evening, an eleventh review): the seat is theirs again — their
        name, token and address — while the rematch is playing. The seat as it is now at the
        rematch, or ``None`` where nothing is taken back (no rematch, not playing, not this
        token's seat, a seat nobody took from them). One step with the rematch's row locked,
        as a move's storing takes it: a bot's move is stored before, or refused after
        (:meth:`append_action`)."""
        with self._session.begin() as s:
            new_id = s.scalar(select(TableRow.rematch).where(TableRow.id == table_id))
            if new_id is None:
                return None
            moved = s.execute(
                update(TableRow)
                .where(TableRow.id == new_id, TableRow.status == "playing")
                .values(updated=_now())
            )  # (locks the rematch's row to the commit)
            if not moved.rowcount:  # type: ignore[attr-defined]
                return None
            was = s.get(SeatRow, (table_id, seat))
            now = s.get(SeatRow, (new_id, seat))
            if was is None or now is None or was.kind != "human" or was.token is None:
                return None
            if not secrets.compare_digest(was.token, token) or now.kind != "bot":
                return None
            if now.name is not None:  # (its person left it in play, for good: it keeps the name)
                return None
            if was.name is not None:
                _check_name_free(s, new_id, seat, was.name)
            now.kind, now.name, now.token, now.bot = "human", was.name, was.token, None
            now.holder = was.holder
            return Seat(seat, now.kind, now.name, now.token, now.bot)


def seats_refusal(most: int) -> Refused:
    """What a seat is refused with when its address holds ``most`` seats at waiting tables
    (``--seats-per-address``)."""
    return Refused(
        "too_many_seats",
        f"at most {most} seats from one address at tables waiting to start: leave one, or wait "
        "for a table to start",
        429,
    )


def _count_open(s: Session, since: datetime, owner: str | None = None) -> int:
    q = select(func.count()).select_from(TableRow)
    q = q.where(TableRow.status != "over", TableRow.updated >= since)
    if owner is not None:
        q = q.where(TableRow.owner == owner)
    return int(s.scalar(q) or 0)


def _caps_refusal(s: Session, caps: OpenCaps, owner: str | None) -> Refused | None:
    """``caps``'s refusal of a new table by ``owner`` (None: a maker not counted), counted in
    ``s``."""
    total = _count_open(s, caps.since)
    mine = None if owner is None else _count_open(s, caps.since, owner)
    today = None if owner is None or not caps.per_day else _count_made(s, owner)
    return caps.refusal(total, mine, today)


def _wishers_owner(s: Session, table_id: str, owner: str | None, asked: set[int]) -> str | None:
    """Whose table a rematch made on the players' wishes is, for the caps on the tables one
    address makes (and the turns its bots take): its maker's where a seat its address took
    asked for it, else the address that took the first seat that asked. A stranger who sat at
    a public table and asked for its rematches, alone with bots, made a chain of tables that
    counted against the maker's ``--tables-per-day`` and ``--tables-per-address`` and none of
    their own: the maker could make no table for a day (a fifty-seventh audit)."""
    q = select(SeatRow.seat, SeatRow.holder).where(SeatRow.table_id == table_id)
    holders = {seat: holder for seat, holder in s.execute(q)}
    theirs = [holders.get(seat) for seat in sorted(asked)]
    if owner is not None and owner in theirs:
        return owner
    return next((h for h in theirs if h is not None), owner)


def _count_made(s: Session, owner: str) -> int:
    q = select(func.count()).select_from(TableRow)
    q = q.where(TableRow.owner == owner, TableRow.created >= _now() - timedelta(days=1))
    return int(s.scalar(q) or 0)


LOOKALIKES = str.maketrans(
    # Cyrillic letters drawn as Latin ones (case folded: "В" is "в", read "b")
    "\u0430\u0432\u0435\u043a\u043c\u043d\u043e\u0440\u0441\u0442\u0443\u0445\u0455\u0456"
    "\u0458\u04bb\u0501\u051b\u051d"
    # Greek letters drawn as Latin ones (their capitals: "Μ" is "μ", read "m")
    "\u03b1\u03b2\u03b5\u03b6\u03b7\u03b9\u03ba\u03bc\u03bd\u03bf\u03c1\u03c4\u03c5\u03c7"
    "\u03f3"
    # the dotless i, and the zero drawn as an O
    "\u01310",
    "abekmhopctyxsijhdqwabezhikmvoptyxjio",
)
"""Letters of other scripts that a reader cannot tell from a Latin letter, in either case:
"Akі" with a Cyrillic і read as "Aki" (a sixty-sixth audit: a second player sat as "Akі" beside
"Aki", the seats and chat alike showed two of one name)."""

STROKES = str.maketrans(
    # what a sans-serif face draws as one upright stroke: I, l, 1, |, the Cyrillic palochka
    # and І, the Greek Ι
    "Il1|\u01c0\u04c0\u04cf\u0406\u0399"
    # and letters that look like a Latin one in one case only (the Greek Ν is an N, its ν a v;
    # η an n, its Η an H; μ and υ a u, their Μ and Υ an M and a Y)
    "\u039d\u03b7\u03bc\u03c5",
    "lllllllllNnuu",
)
"""Letters read as they look in their own case (:func:`same_name`): "AkI" and "Akl" look
alike, "Aki" and "Akl" do not, nor "Mei" and "Mel", nor "ALI" and "ALL"."""

CASED_LOOKALIKES = {
    **{
        ord(chr(k).upper()): ord(chr(v).upper())
        for k, v in LOOKALIKES.items()
        if len(chr(k).upper()) == 1
    },
    **LOOKALIKES,
    **STROKES,
}
""":data:`LOOKALIKES` in both cases ("В" read "B", "в" read "b"), and :data:`STROKES`."""


def same_name(a: str, b: str) -> bool:
    """Whether two display names read as one at a table: the same after compatibility
    normalization and case folding (``Aki``, ``aki`` and the full-width ``ＡＫＩ``), with
    letters of other scripts that look like Latin ones taken as those (:data:`LOOKALIKES`:
    ``Akі`` with a Cyrillic і); or the same as they look, case and all
    (:data:`CASED_LOOKALIKES`: ``AkI``, ``Akl`` and ``Ak1``). Not one key: a capital I is an
    i to the first and an l to the second, and one key made every i an l ("Mei" and "Mel",
    "Kai" and "Kal" one name: a review).

    >>> same_name("Aki", "ＡＫＩ"), same_name("Aki", "Akira")
    (True, False)
    >>> same_name("Aki", "Ak\u0456"), same_name("AkI", "Akl"), same_name("Bob", "B0b")
    (True, True, True)
    >>> same_name("Mei", "Mel"), same_name("Aki", "Akl"), same_name("ALI", "ALL")
    (False, False, False)
    >>> same_name("\u30a2\u30ad", "\u30a2\u30ad\u30e9"), same_name("Ken", "Kim")
    (False, False)
    """
    return _looks(a) == _looks(b) or _looks(a, cased=True) == _looks(b, cased=True)


def _looks(name: str, cased: bool = False) -> str:
    """What a name looks like, for :func:`same_name`: case folded, or ``cased`` as it is."""
    name = unicodedata.normalize("NFKC", name)
    table = CASED_LOOKALIKES if cased else LOOKALIKES
    # (a letter with a mark, "é", as its letter and mark: a Cyrillic "і" with one looks like "í")
    decomposed = unicodedata.normalize("NFD", name if cased else name.casefold())
    return unicodedata.normalize("NFC", decomposed.translate(table))


def _check_name_free(s: Session, table_id: str, seat: int, name: str) -> None:
    """:class:`Refused` ``name_taken`` if a person in another seat of the table goes by
    ``name`` (two players of one name could not tell whose turn, card or chat line was whose:
    a fourth review). Called with the table's row locked, so two at once see each other."""
    others = s.scalars(
        select(SeatRow.name).where(
            SeatRow.table_id == table_id, SeatRow.seat != seat, SeatRow.kind == "human"
        )
    )
    for other in others:
        if other is not None and same_name(other, name):
            like = "" if other == name else f", which {name} looks like"
            raise Refused(
                "name_taken",
                f"someone at this table is already called {other}{like}: choose another name",
                409,
            )


def _count_seats(s: Session, since: datetime, holder: str) -> int:
    q = select(func.count()).select_from(SeatRow).join(TableRow)
    q = q.where(SeatRow.holder == holder, SeatRow.kind == "human")
    q = q.where(TableRow.status == "waiting", TableRow.updated >= since)
    return int(s.scalar(q) or 0)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    # the WAL file keeps the size of its largest transaction unless told (a purge's 325 MB
    # stayed on disk beside the database: a sixty-third audit); past a checkpoint it is cut
    # back to this
    cur.execute(f"PRAGMA journal_size_limit={WAL_KEEP_BYTES}")
    cur.close()
