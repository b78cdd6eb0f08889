"""Tables in play: the server-authoritative side of the web table, independent of HTTP.

A :class:`Room` holds one table's match (rebuilt from the stored actions), its seats, its
connected clients and a lock: the one writer of that table. :class:`Lobby` owns the rooms and the
:class:`~torampu.web.store.Store`; every change goes through it:

* :meth:`Lobby.act` validates an action with the engine (an illegal one raises
  :class:`ActError` and leaves the match as it was), stores it with the version check, and only
  then tells the clients;
* each client's snapshot is built from ``view(seat)`` of the seat it *currently* holds
  (``view(None)`` for a spectator) and the public table; the ``last`` action is shown whole only
  when it names no card hidden from the client (another seat's discard shows as ``discard``);
* a seat has one holder: a client is bound to the seat token it said ``hello`` with, and when
  the seat changes hands (reopened, given to a bot, taken by someone else) every client bound to
  the old holding is demoted to a spectator at once (an ``error`` ``seat_revoked``) — it never
  sees the new holder's hand nor acts for them;
* clients are told through their :class:`~torampu.web.outbox.Outbox`: a table never waits for
  a slow reader;
* a driver task per room plays the bots' turns after a short delay (the move itself is computed
  by the :class:`~torampu.web.bots.BotPool`, in worker processes), stands in for a human who has
  been away past ``away_timeout`` (until they are back), makes the move of a human whose turn
  ran past ``turn_timeout``, and stops — the table waits — once nobody has been connected for
  ``abandon_after``;
* rooms nobody uses leave memory after ``room_idle`` seconds and are loaded again on demand.

Nothing here touches the engine's internals: only ``torampu.new_match``, ``play``, ``view``,
``legal_actions``, records, and the bots' ``choose(view, legal)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import random
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, TypeVar

from sqlalchemy.exc import SQLAlchemyError

import torampu
from torampu.errors import TorampuError
from torampu.game import listed
from torampu.match import Match
from torampu.testing import cards_mentioned
from torampu.web import clock as shared
from torampu.web.addresses import owner_hash
from torampu.web.bots import GRACE, BotJob, BotPool, BotRefused, PoolBusy, RateGate, check_spec
from torampu.web.bus import Bus, BusError, LocalBus
from torampu.web.outbox import Outbox, PerKey, TokenBucket
from torampu.web.stopping import stop_tasks
from torampu.web.store import (
    LEFT_BEFORE,
    REMATCH_HOST,
    REMATCH_WISH,
    Action,
    Chat,
    Holdings,
    OpenCaps,
    Refused,
    Seat,
    SeatNotHeld,
    StaleVersion,
    Store,
    StoreError,
    Table,
    seats_refusal,
    utc,
)
from torampu.web.validate import Invalid, ReservedName, chat_text, display_name, seated_name
from torampu.web.workers import (
    SEEDING,
    LocalWorkers,
    MoveJob,
    Workers,
    in_part,
    match_outcome,
    status_after,
    table_match,
)

log = logging.getLogger("torampu.web")

BOT_SPECS = ("heuristic", "random", "ismcts:think=0.3", "ismcts:think=1")
"""The bots the page offers (named strengths); any spec :func:`~torampu.web.bots.check_spec`
allows is accepted through the API."""

REACTIONS = ("hello", "nice", "thanks", "dontmind", "gg", "wow", "sorry", "oops")
"""The quick reactions a chat may carry (the page shows each in the reader's language:
hello 「よろしく」, nice 「ナイス！」, thanks 「ありがとう」, dontmind 「ドンマイ」, gg
「おつかれさま」, wow 「すごい！」, sorry 「ごめん」, oops 「しまった」)."""

TABLE_CHAT_SPEAKERS = 4
"""A table's chat takes this many speakers' allowance (``--chat-rate``, ``--chat-burst``) at
most from its players, however many sockets and seats speak, and as much again from its
spectators, however many addresses."""
ADDRESS_MESSAGES = 4
"""One address's sockets together send at most this many sockets' worth of messages."""
REFUSALS_TOLD_RATE = 1.0
"""Refused websockets per second from one address opened to be told why (at once:
:data:`REFUSALS_TOLD_BURST`); the others are refused before their handshake."""
REFUSALS_TOLD_BURST = 5
TOKEN_REREAD = 0.25
"""Seconds between two reads of a table's row for tokens it does not know (hellos with a token
issued by another process, or a stranger's): hellos arriving meanwhile share the next read."""
BACK_MARK_WAIT = 2.0
"""Seconds a returning player's hello waits for the mark of their seat (:meth:`Lobby.coming_back`)
before it goes on without it."""
DB_SLOW = 1.0
"""Seconds a database call may take before its thread stops counting against ``db_threads``
(its place goes to the next call, up to ``db_slow_threads`` such calls at once)."""
MAX_CHAT_SPEAKERS = 256
"""Speakers' allowances a table keeps before it forgets those that are whole again."""

T = TypeVar("T")


@dataclass
class Settings:
    """How a server runs (the ``torampu serve`` options), with its limits."""

    data_dir: Path = Path("torampu-data")
    database: str | None = None
    """A SQLAlchemy URL; ``None``: SQLite in ``data_dir/torampu.db``."""
    bot_delay: float = 0.8
    """Seconds a bot waits before it moves, so that people can follow."""
    away_timeout: float = 60.0
    """Seconds without a connection after which a bot plays for an absent human."""
    turn_timeout: float = 0.0
    """Seconds a human may take for one move before a bot makes it (0: no limit)."""
    standin: str = "heuristic"
    """The bot that plays for an absent human."""
    max_message: int = 16384
    """The largest websocket message a client may send, in bytes."""
    # ---- bots
    max_bot_think: float = 1.0
    """The largest ``think`` (seconds per move) a table's search bot may have."""
    bot_workers: int = 1
    """Worker processes for the search bots (plus one for the quick bots); 0: one thread in
    this process instead (tests, embedding)."""
    bot_queue_wait: float = 2.0
    """Seconds a search-bot move waits for a free worker before the heuristic makes it (a
    backlog of other tables' searches never delays a move longer)."""
    bot_rate_all: float = 100.0
    """Bot moves (stand-ins' too) this process's tables make per second in all, whatever the
    addresses; past it a table's bot waits its turn, the turns shared fairly among the addresses
    that made the tables (:class:`~torampu.web.bots.RateGate`); a table where a person holding
    a seat is connected does not wait while at most a burst is owed, its moves counted. A move
    is a millisecond or three of the event loop: without it tables of bots alone, a few hundred
    made by a few dozen addresses each within ``tables_per_address``, take every core there
    is. 0: no bound."""
    db_threads: int = 4
    """Threads that talk to the database (bots never run there)."""
    db_slow_threads: int = 4
    """Threads beyond ``db_threads`` for calls on the database longer than ``DB_SLOW`` (a
    table's row held locked): such a call gives its place to the next, up to this many at
    once, and other tables go on."""
    # ---- limits
    max_tables: int = 2000
    """Open tables (waiting or playing, changed within ``table_expiry``) per server."""
    table_expiry: float = 86400.0
    """Seconds after its last change that an unfinished table stops counting as open."""
    keep_finished: float = 90.0
    """Days a finished table (its records, replays and chat) is kept after its last change;
    0: for ever. Older ones are deleted from the database."""
    keep_abandoned: float = 30.0
    """Days an unfinished table nobody touched is kept; 0: for ever."""
    purge_every: float = 3600.0
    """Seconds between two looks for tables past ``keep_finished`` / ``keep_abandoned``."""
    create_rate: int = 10
    """Tables one address may create per minute."""
    tables_per_address: int = 20
    """Open tables (as ``max_tables`` counts them) that one address may have made: without it
    one address, creating within ``create_rate``, fills the server's ``max_tables`` in hours and
    nobody else can make a table."""
    tables_per_day: int = 200
    """Tables one address may make in a day, finished or not (0: no bound): a finished table
    holds no place among the open ones, and is kept ``keep_finished`` days. (Not those their
    host closed: deleted, they hold no storage.)"""
    seats_per_address: int = 24
    """Seats that one address may hold at tables waiting to start (changed within
    ``table_expiry``): without it one address took every open seat of every public table, and
    took back at once any seat a host opened again (a fourth audit). A started table's seats
    count no more; people behind one address (a school, a carrier's NAT) may need more."""
    ipv6_prefix: int = 64
    """Leading bits of an IPv6 address that name one client for every per-address limit
    (:func:`~torampu.web.addresses.address_key`; 128: each address on its own)."""
    max_games: int = 50
    """The longest match (games) a table may have."""
    max_game_actions: int = 2000
    """Actions one game may have: a Napoleon or Nap auction that everyone passes deals again
    without end, so players passing on purpose could grow one table (and what reading it back
    costs) without bound. Past it the table stops: no one acts, no bot moves. The longest
    honest games are far shorter (random play: 210 actions in 8-player Daifugo, 70 in
    Napoleon)."""
    max_name: int = 40
    """The longest display name, in characters."""
    sockets_per_table: int = 64
    sockets_per_address: int = 32
    max_sockets: int = 5000
    """Spectators' websockets per table, websockets per client address, and in all (a table's
    players and host have their own places besides the spectators')."""
    max_spectators: int | None = None
    """Spectators' websockets in all (``None``: four fifths of ``max_sockets``): the rest of
    ``max_sockets`` stays for the sockets of players and hosts, so that watchers from many
    addresses, each within its own bounds, cannot fill the server and lock every player out
    of their own table (a seventh audit: 157 addresses held all 5,000)."""
    max_pending_sockets: int | None = None
    """Websockets not yet past their hello, in all (``None``: a tenth of ``max_sockets``):
    past it the one that has waited longest is closed to let a new one in (refusing the new
    one would let a few addresses' silent sockets shut everyone out); ``max_sockets`` bounds
    the sockets past their hello, a player's, a host's or a spectator's. Counted among
    ``max_sockets`` from their accept, sockets a stranger opened and never greeted on kept
    players out of their own tables (a twenty-sixth audit: six addresses holding 20 each)."""
    watchers_per_address: int = 4
    """Spectators' websockets one client address may hold at one table."""
    sockets_per_seat: int = 4
    """Websockets one seat's holder, and the host, may have at a table on their token (a phone
    and a laptop, a reload while the old socket closes), apart from its spectators' and each
    other's."""
    origins: tuple[str, ...] = ()
    """Origins (``https://host[:port]``) besides the server's own whose pages may act on it:
    every request that changes something and every websocket from another page's origin is
    refused (:class:`~torampu.web.app.SameOrigin`)."""
    allowed_hosts: tuple[str, ...] | None = None
    """Names besides addresses and ``localhost`` by which requests may reach the server (its
    ``Host``; ``*.example.org``, ``*`` for any): the defence against DNS rebinding
    (:class:`~torampu.web.app.KnownHost`). None: no check (an app built in a test, whose client
    calls it ``testserver``); ``torampu serve`` always gives it."""
    send_timeout: float = 10.0
    """Seconds one send to a client may take before the client counts as behind (closed)."""
    outbox_max: int = 32
    """Messages (besides the newest snapshot) that may wait for one client."""
    hello_timeout: float = 10.0
    """Seconds a new websocket has to say ``hello``."""
    hello_rate: float = 0.5
    hello_burst: int = 5
    """``hello`` messages per second per socket, and how many at once."""
    connect_rate: float = 2.0
    """New websockets per second from one address (at once: ``sockets_per_address``)."""
    message_rate: float = 20.0
    message_burst: int = 60
    """Messages per second per socket, and how many at once."""
    load_rate: float = 0.5
    load_burst: int = 5
    """Tables not in memory that one address may have loaded per second, and how many at once
    (:meth:`Lobby.room`)."""
    max_rooms: int = 4000
    """Tables held in memory at most (idle ones leave first; past it ``503 busy``)."""
    replay_rate: float = 0.5
    replay_burst: int = 10
    """Replays and match records made (not yet kept) per second from one address, and how many
    at once: :func:`~torampu.web.app.create_app`'s ``built``."""
    replay_rate_all: float = 3.0
    """Replays and match records made per second by the whole process (four times
    ``replay_burst`` at once): their thread shares the interpreter with the event loop, and
    ten addresses each within ``replay_rate`` kept it busy (a thirty-sixth audit)."""
    replays_kept: int = 32
    """Replays (a finished game seen from one seat) and match records a process keeps made, the
    newest (served at once to anyone who asks again)."""
    replays_queued: int = 4
    """Replays and records being made or waiting for the one thread that makes them, at most
    (past it ``503 busy``)."""
    seat_change_rate: float = 4.0
    seat_change_burst: int = 30
    """Seat changes per second from one address, at every table of this server and through
    every process (a bucket on Redis too), and how many at once: taking, leaving, moving and
    renaming a seat, and a host's seating. Each one is read again by every process holding the
    table and each of its watchers is sent a snapshot: one address renaming at 43 a second
    through one process kept another one's core 30 % busy (a forty-first audit)."""
    list_rate: float = 2.0
    list_burst: int = 20
    """Pages of the table list made (not served again from the last second's) per second from
    one address, and how many at once: the lobby's own asking is served again."""
    list_rate_all: float = 10.0
    """Pages of the table list made per second by the whole process, whatever the addresses
    (four times ``list_burst`` at once; past it ``503 busy``, which costs the asking address
    none of its own ``list_rate``): a page of 100 tables is some 25 ms of the event loop, and twenty
    addresses each within ``list_rate`` held it at 85 % (a fifty-fourth audit)."""
    replay_mb_rate: float = 2.0
    """Megabytes of replays and records (made or kept) one address is sent per second, as many
    as twice ``max_replay_mb`` at once; past it ``429``. Each is kept and sent gzipped to a
    client that takes gzip (a browser: a 50-game Daifugo's 1.3 MB replay is 19 KB), whole to
    one that does not: a sixty-first audit's one address, asking a kept replay again within
    ``request_rate``, was sent 64 MB a second for 3 % of a core."""
    max_replay_mb: float = 8.0
    """A game's replay (one seat's view after every move) is at most this many megabytes of
    JSON (past it ``413 too_large``: the game's record holds the same moves); the replays and
    records a process keeps made take at most four times as much."""
    request_rate: float = 50.0
    request_burst: int = 300
    """HTTP requests (pages, static files, the API) per second from one address, and how many
    at once (a page's first load takes about 30): :class:`~torampu.web.app.RequestLimit`."""
    requests_at_once: int = 8
    """HTTP requests from one address that run at once; the others it sent wait their turn in
    its queue (:class:`~torampu.web.app.RequestLimit`)."""
    request_rate_all: float = 200.0
    request_burst_all: int = 600
    """HTTP requests per second this process takes in all, whatever the addresses, and how many
    at once; past it ``503 busy`` (:class:`~torampu.web.app.RequestLimit`). 0: no bound."""
    body_timeout: float = 10.0
    """Seconds a request's body may take to arrive once its head has (``--header-timeout``):
    past it ``408 too_slow`` and the connection closes."""
    room_idle: float = 300.0
    """Seconds a room nobody uses stays in memory."""
    abandon_after: float = 600.0
    """Seconds with nobody connected after which a table's bots stop and it waits."""
    resume_limit: int = 1000
    """At start, at most this many recently active tables resume their bots (and with
    ``--redis``, the most tables in play a process looks through for one nobody drives)."""
    # ---- between games, chat, hints
    next_game_delay: float = 20.0
    """Seconds between the games of a match: the next game waits until every connected player
    has said ``ready`` or this long after the last game's final action (0: no pause)."""
    table_move_rate: float = 4.0
    table_move_burst: int = 12
    """The people's moves one table takes per second, and how many at once (a person's turn
    comes once a round: a table of people makes one or two a second; the stand-ins' and bots'
    moves are the server's own). Each move makes and sends every seat's snapshot: one address
    holding all eight seats of a Daifugo table where the leader may pass, passing 19 times a
    second, made every other table's moves 15–20 times slower as the game's log grew (a
    fifteenth audit)."""
    chat_rate: float = 0.5
    chat_burst: int = 5
    """Chat messages (texts and reactions) per second per speaker (a seat's holder, a
    spectator's address), and how many at once (:meth:`Lobby._chat_allowed`)."""
    max_chat: int = 200
    """The longest chat text, in characters."""
    chat_history: int = 50
    """Chat messages a client gets on ``hello``."""
    hint_think: float = 0.5
    """Seconds the search bot thinks for a learner's hint (at most ``max_bot_think``)."""
    hint_rate: float = 1.0
    hint_burst: int = 3
    """Hint requests per second per socket, and how many at once (one hint per turn anyway,
    and one at a time per address: this only stops a flood of refused asks). At 0.2 a second a
    player who asked at each turn of a quick table of bots was told "Too fast" (a seventh
    review)."""
    # ---- scale-out
    redis: str | None = None
    """A Redis URL: events, presence and driver leases on Redis, bots in ``torampu worker``
    processes (``None``: one process, bots in this process's pool)."""
    lease_ttl: float = 5.0
    """Seconds a table's driver lease lasts unless renewed (another process takes over after)."""
    job_timeout: float = 30.0
    """Seconds the driver waits for a worker to make a bot move before it asks again."""
    redis_connections: int = 64
    """Redis connections this process may have open (its commands wait for a free one, at
    most 5 s)."""
    presence_ttl: float = 30.0
    """Seconds a process's word on who is connected through it lasts without its heartbeat
    (every third of this): a killed process's players count as gone after at most this and a
    heartbeat of another process."""
    version_poll: float = 2.0
    """With ``redis``, seconds between this process's reads of the stored versions of the
    tables it holds (one query for them all), the bus healthy: a move another process stored
    while it alone had lost Redis reaches this one's players and driver within it (its event
    never came: the table stood for the whole outage, a fourteenth scale audit). 0: never."""

    def database_url(self) -> str:
        if self.database:
            return self.database
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / 'torampu.db').resolve()}"


TIMING = "timing"
"""The key of a table's stored features holding its clocks (:data:`TIMED`)."""
TIMED = ("next_game_delay", "turn_timeout", "away_timeout")
"""The settings a table keeps from the process that made it: the pause between games, a turn's
time and a seat's time away before a stand-in. Read from each process's own flags, two
processes with different ones disagreed — a spectator on one counted 5 s where the player had
20 on the other, and whichever process took the player's move ended the pause (a fourteenth
scale audit)."""

STAGES = {"waiting": 0, "playing": 1, "over": 2}
"""A table's statuses in the order they come (the version poll compares stages, then
versions)."""
UNANNOUNCED_AFTER = 1.0
"""Seconds a table held here must stay behind a version stored elsewhere before the version
poll takes that move for one whose event was lost (an event comes in milliseconds: taken at
once, moves on their way were warned of as a partition, a code review and a fifteenth scale
audit)."""
QUIET_AFTER = 5.0
"""Seconds of nobody at a table before its driver writes so (at most half ``abandon_after``):
a watcher coming and going 25 times a second cost two writes each (a thirty-eighth audit)."""
QUIET_SLACK = 2.0
"""Seconds by which the quiet's start this process reckons may differ from the one stored (its
clocks' drift, a row's time rounded) before it is written again."""

ADOPT_BATCH = 100
"""Tables nobody drives that a process takes over in one turn of :meth:`Lobby._adopt` (a
process that held a thousand went: its tables come in batches, not all in one go)."""

ADOPT_AT_ONCE = 8
"""Tables :meth:`Lobby._adopt` loads at once (each its own lease first)."""


def records_wait(m: Match | None) -> bool:
    """Whether the records and replays of ``m``'s finished games wait for its end now (a later
    deal is made from their cards: :meth:`~torampu.match.Match.records_after_match`)."""
    return m is not None and not m.is_over and m.records_after_match()


@functools.lru_cache(maxsize=256)
def _after_match(game: str, rules: str) -> bool:
    """:meth:`~torampu.match.Match.records_after_match` of a match of ``game`` under ``rules``
    (JSON), which the rules alone decide."""
    try:
        return torampu.new_match(game, json.loads(rules), seed=0).records_after_match()
    except (TorampuError, ValueError, TypeError):
        return False


def row_records_wait(table: Table) -> bool:
    """:func:`records_wait` for a table known only by its stored row (not loaded here)."""
    return table.status == "playing" and _after_match(
        table.game, json.dumps(table.rules, sort_keys=True)
    )


HINT_CLAIM_TTL: Final = 3600.0
"""Seconds a turn's hint stays claimed across processes (a turn rarely lasts longer)."""


MAX_MESSAGE = 400
"""The longest error message a client is sent: what it sent is quoted in it at most in part."""


class ActError(TorampuError):
    """A refused request; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        if len(message) > MAX_MESSAGE:  # (an unknown preset's 60 KB name came back whole)
            message = message[: MAX_MESSAGE - 1] + "…"
        super().__init__(message)
        self.code = code
        self.status = status

    @classmethod
    def refused(cls, e: Refused) -> ActError:
        """The store's refusal ``e`` as the protocol's: its code, message and status (409 unless
        it names another — a move refused with no status was 409 where the docs said 403)."""
        return cls(e.code, str(e), e.status or 409)


SNAPSHOT_LOG = 100
"""The newest entries of a view's ``log`` (Daifugo's plays and passes) a snapshot carries."""


def newest_log(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with at most the newest :data:`SNAPSHOT_LOG` entries of its ``log`` and, when
    older ones are left out, ``log_from``: the index of the first entry kept (the game's record
    and replay have them all). A snapshot carried the whole game's log: one address passing on
    the lead of eight seats made each move's snapshots 130 KB a seat to encode and compress,
    and every other table waited (a fifteenth audit).

    >>> v = newest_log({"game": "daifugo", "log": list(range(250))})
    >>> v["log_from"], len(v["log"]), v["log"][0]
    (150, 100, 150)
    >>> newest_log({"game": "daifugo", "log": [1, 2]})
    {'game': 'daifugo', 'log': [1, 2]}
    """
    log = view.get("log")
    if not isinstance(log, list) or len(log) <= SNAPSHOT_LOG:
        return view
    return {**view, "log": log[-SNAPSHOT_LOG:], "log_from": len(log) - SNAPSHOT_LOG}


BETWEEN_LOG = 14
"""The finished game's last entries of its ``log`` (Daifugo's plays) the pause between games
carries — as many as the page's play log shows."""

MAX_ACTION = 200
"""The longest action text a client may send (the longest real one, a Daifugo play of eight
cards with the verb, is under 40; the database keeps 200)."""


def error_id() -> str:
    """A short id that ties a logged internal error to what the client was told."""
    return secrets.token_hex(4)


def _retryable(e: BaseException) -> bool:
    """Whether PostgreSQL rolled the transaction back for a deadlock (40P01) or a failed
    serialization (40001): the same transaction, run again, may well pass."""
    return getattr(getattr(e, "orig", None), "sqlstate", None) in ("40P01", "40001")


async def _shielded(call: asyncio.Future[T]) -> T:
    """``call``'s end, awaited; its caller cancelled, a database failure of the call (not a
    refusal: :class:`StaleVersion`, :class:`Refused`) is still logged."""
    try:
        return await asyncio.shield(call)
    except asyncio.CancelledError:
        call.add_done_callback(_failed_unwaited)
        raise


def _failed_unwaited(done: asyncio.Future[Any]) -> None:
    e = None if done.cancelled() else done.exception()
    if e is not None and not isinstance(e, StaleVersion | Refused):
        storage_unavailable(e)


TRACE_EVERY = 60.0
"""Seconds within which a database failure of a kind already logged with its traceback is
logged in one line (its id, kind and first line): an outage of 12 s wrote some 80 tracebacks
of 25 lines each per process, one per refused request (a thirty-third scale audit)."""
_traced: dict[str, float] = {}


def storage_unavailable(e: BaseException, now: float | None = None) -> ActError:
    """Log a database failure with an id; the client gets only the code and that id. The
    first of its kind each :data:`TRACE_EVERY` seconds is logged with its traceback, the rest
    in a line.

    >>> _traced.clear()
    >>> [storage_unavailable(OSError("down"), now=t).code for t in (0.0, 1.0)]
    ['storage_unavailable', 'storage_unavailable']
    """
    eid = error_id()
    now = time.monotonic() if now is None else now
    kind = type(e).__name__
    if now - _traced.get(kind, -TRACE_EVERY) >= TRACE_EVERY:
        _traced[kind] = now
        while len(_traced) > 100:
            del _traced[next(iter(_traced))]
        log.error("storage error %s: %s", eid, e, exc_info=e)
    else:
        first = (str(e).splitlines() or [""])[0][:300]
        log.error(
            "storage error %s: %s: %s (traced within %g s before)", eid, kind, first, TRACE_EVERY
        )
    return ActError(
        "storage_unavailable", f"the table's storage is unavailable; try again (error {eid})", 503
    )


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _person_at(table_id: str, person: str) -> str:
    """A person at one table (a speaker's token; whoever changes seats, by their address's hash
    or "host") as a shared bucket's key on Redis names them: hashed with the table's id, so
    that no token or address hash is written there, nor one name that other tables share."""
    return hashlib.sha256(f"{table_id} {person}".encode()).hexdigest()[:24]


def holder_id(stored: str | None) -> str | None:
    """A seat's holder, publicly: 8 hex digits of a hash of the seat token's stored hash — the
    same while one person holds the seat (a rename keeps it), another for the next person, and
    nothing of the token (a page told a rename from one leaving and another sitting down by the
    names alone, and said "Takeshi is now Mia" after missing the snapshots between: a
    fourteenth review's check).

    >>> holder_id(token_hash("a")) == holder_id(token_hash("a")) != holder_id(token_hash("b"))
    True
    >>> holder_id(None) is None
    True
    """
    if stored is None:
        return None
    return hashlib.sha256(f"holder:{stored}".encode()).hexdigest()[:8]


def _matches(secret: Any, hashes: list[str]) -> bool:
    """Whether ``secret`` (anything a client sent) hashes to one of ``hashes``."""
    if not isinstance(secret, str) or not 0 < len(secret) <= 128:
        return False
    h = token_hash(secret)
    return any(secrets.compare_digest(h, x) for x in hashes)


def access(table: Table, seats: Sequence[Seat], invite: Any, token: Any) -> str | None:
    """How a request with ``invite`` and ``token`` may see ``table``: ``"seat"`` (``token``
    holds one of ``seats``), ``"host"`` (the host token), ``"invite"`` (a private table's
    invite), ``"public"`` (a public table, to anyone); ``None``: not at all (a private table,
    and neither)."""
    if _matches(token, [st.token for st in seats if st.token]):
        return "seat"
    if _matches(token, [table.host_token]):
        return "host"
    if table.invite is None:
        return "public"
    return "invite" if _matches(invite, [table.invite]) else None


def invite_matches(room: Room, invite: Any) -> bool:
    """Whether ``invite`` is ``room``'s private table's invite."""
    return room.table.invite is not None and _matches(invite, [room.table.invite])


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


@dataclass(eq=False)
class Client:
    """One websocket connection: the seat it holds (``None``: a spectator), the seat token's
    hash it holds it by, its address and its outbox."""

    seat: int | None
    holder: str | None = None
    addr: str = ""
    outbox: Outbox | None = None
    invite: str | None = None
    """The invite hash a spectator of a private table came in by (it must stay the table's)."""
    host: bool = False
    """Came in by the host token (a host without a seat watches their own table)."""
    demoted: Callable[[], None] | None = None
    """Called when the client loses its seat and watches on (its socket counts it again, as a
    spectator)."""

    def tell(self, message: dict[str, Any]) -> None:
        if self.outbox is not None:
            self.outbox.push(message)

    def tell_chat(self, message: dict[str, Any]) -> None:
        """A chat message: under a flood the oldest unsent give way (the client stays)."""
        if self.outbox is not None:
            self.outbox.push_chat(message)

    def refresh(self) -> None:
        if self.outbox is not None:
            self.outbox.want_snapshot()

    def dismiss(self, code: str, message: str, close: int) -> None:
        """Send this client away: one ``error`` (``code``, ``message``), then the socket
        closes with ``close``."""
        if self.outbox is not None:
            self.outbox.dismiss({"type": "error", "code": code, "message": message}, close, code)


@dataclass
class Between:
    """The pause after game ``game`` (0-based) of a match: the next game starts once every
    connected human seat is in ``ready`` or at ``deadline`` (seconds since the epoch: the time
    the game's last action was stored plus ``next_game_delay``, the same in every process)."""

    game: int
    deadline: float
    ready: set[int] = field(default_factory=set)
    shown: dict[str, Any] | None = None
    """What the pause shows of the finished game (its last trick and trump), worked out once:
    every snapshot of the pause carries it."""


REMATCH_BOT = "heuristic"
"""The bot that takes, in a rematch, the seat of a person who did not ask for it."""

REMATCH_GRACE = 3.0
"""Seconds a person who had not asked for the rematch stays gone before it is made without
them (a reconnection within them holds it up again)."""

REMATCH_RETRY = 30.0
"""Seconds before a rematch refused (the cap on open tables) is tried again on its own."""

STOOD_IN_SHOWN = 8
"""The stand-in's last moves a player who comes back is shown (besides how many there were)."""

StoodIn = dict[int, tuple[int, tuple[tuple[int, str], ...]]]
""":attr:`Room.stood_in`: per seat, how many moves a stand-in made and the last of them, each
with the game (from 0) it was made in."""


@dataclass(eq=False)
class Room:
    """A table being played: its stored row (what it was created with), its seats and version,
    and the live state that is never stored (the match, rebuilt from the actions; clients,
    timers)."""

    table: Table
    seats: list[Seat]
    version: int
    match: Match | None = None
    last: dict[str, Any] | None = None
    clients: set[Client] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    presence_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while this process writes its presence at the table to the bus: one write at a time,
    each of the state at its own moment (:meth:`Lobby._write_presence`)."""
    presence_dirty: bool = False
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    away_since: dict[int, float] = field(default_factory=dict)
    turn_started: float = 0.0
    empty_since: float = 0.0
    touched: float = 0.0
    driver: asyncio.Task[None] | None = None
    revision: int = 0
    """Moves on with every change a client can see (snapshots are cached per revision)."""
    cache: dict[int | None, tuple[tuple[int, int, int], str]] = field(default_factory=dict)
    remote_seats: set[int] = field(default_factory=set)
    remote_clients: int = 0
    """Seats connected, and clients, in other processes (from the bus)."""
    driving: bool = False
    """This process holds the table's driver lease."""
    standby: bool = False
    """The bus said, at this driver's last asking, that another process holds the lease (not
    set before the first answer, nor by a bus that failed to answer): a copy that may leave
    memory (:meth:`Lobby._in_use`)."""
    granted: int = -1
    """The version whose bot move had its grant of the bot gate (``Lobby.bot_moves``): a move
    asked again (a worker's job still queued) takes no second one."""
    quiet: float | None = None
    """Since when (wall time) the store says nobody has been at the table (``None``: someone
    was); :meth:`Lobby._note_quiet` writes it when this process drives the table."""
    quiet_writing: bool = False
    """A write of :attr:`quiet` is under way (:meth:`Lobby._write_quiet`)."""
    quiet_known: bool = False
    """Whether :attr:`quiet` is what the store holds (false until read or written, and after a
    write that failed)."""
    between: Between | None = None
    """The pause between two games, while it lasts."""
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=50))
    """The newest chat messages (as sent)."""
    seat_chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=50))
    """The newest chat lines of seat changes (as sent), kept apart from the messages: a
    stranger sitting down and getting up again and again pushed every message out of the
    history a new page reads (a code review)."""
    owner: str = ""
    """A hash of the address that made the table (stored with it; a rematch keeps it; empty
    for tables made before it was stored): its bots' searches wait their turn with the other
    tables of that address (the table's id otherwise)."""
    chat_speakers: PerKey | None = None
    """Chat allowance per speaker here (a seat token's hash, or a spectator's address): a
    speaker's new sockets share its allowance (made at the first chat)."""
    chat_table: TokenBucket | None = None
    """The table's chat allowance for its players (made at the first chat)."""
    chat_watchers: TokenBucket | None = None
    """The table's chat allowance for its spectators, apart from its players' (made at the
    first chat)."""
    seat_lines: TokenBucket | None = None
    """The chat lines of seat changes this table may still store (:meth:`Lobby._seat_lines`),
    made at the first."""
    seat_speakers: PerKey | None = None
    """The same per person who changes seats (an address's hash, or the host), made at the
    first: one stranger's churn cannot spend the table's whole allowance."""
    human_moves: TokenBucket | None = None
    """The people's moves at this table (``table_move_rate``), made when first needed."""
    hinted: dict[int, int] = field(default_factory=dict)
    """The version at which each seat last got a hint (one per turn)."""
    token_read: asyncio.Task[None] | None = None
    """The next read of the row for unknown tokens, while it has not started."""
    token_read_at: float = -1e9
    """When the last such read started (:func:`Lobby.clock`)."""
    rematch_waiting: bool = False
    """A rematch agreed by those still there is being made once the grace has passed."""
    rematch_refused_at: float = -1e9
    """When making the rematch asked for was last refused (:meth:`Lobby._rematch_if_agreed`)."""
    wishes: set[int] = field(default_factory=set)
    """Once the match is over, the seats that asked for a rematch (stored as ready marks of
    :data:`~torampu.web.store.REMATCH_WISH`; read again from the database before it is
    decided)."""
    stood_in: StoodIn = field(default_factory=dict)
    """For each human seat, the moves the server made for it while its player was away
    (``by = "away"``) since that player's own last move — how many, and the last
    :data:`STOOD_IN_SHOWN` of them: derived from the stored actions, so every process agrees
    (:func:`_stood_in`)."""

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def status(self) -> str:
        """``waiting`` before the start, then ``playing`` until the match is ``over``."""
        if self.match is None:
            return "waiting"
        return "over" if self.match.is_over else "playing"

    def connected(self, seat: int) -> bool:
        """Whether someone holding ``seat`` is connected, to this process or another."""
        return seat in self.remote_seats or self.held_here(seat)

    def held_here(self, seat: int) -> bool:
        """Whether a socket of this process holds ``seat``."""
        return any(c.seat == seat for c in self.clients)

    @property
    def attended(self) -> bool:
        """Whether anyone at all (player or spectator, any process) is connected."""
        return bool(self.clients) or self.remote_clients > 0

    def local_presence(self) -> tuple[list[int], int]:
        return sorted({c.seat for c in self.clients if c.seat is not None}), len(self.clients)


def _to_adopt(
    rows: list[tuple[str, datetime]],
    held: Mapping[str, Room],
    seen: Mapping[str, datetime],
    now: datetime,
    lease_ttl: float,
) -> list[str]:
    """Of the tables in play ``rows`` (id, last change), those :meth:`Lobby._adopt` looks at
    for a driver: not held here, changed since it last looked, and not changed within a lease
    time — a table another process has just started takes its lease a moment after the start
    is stored, and was taken over in between: loaded cold here, its bots in this process's
    turns (a thirty-first scale audit). A table whose driver died is a lease time old by the
    time its lease runs out.

    >>> from datetime import timezone
    >>> now = datetime(2026, 12, 7, 12, 0, 0, tzinfo=timezone.utc)
    >>> rows = [("old", now - timedelta(seconds=9)), ("new", now - timedelta(seconds=1))]
    >>> _to_adopt(rows, {}, {}, now, 5.0)
    ['old']
    """
    young = now - timedelta(seconds=lease_ttl)
    return [t for t, at in rows if t not in held and seen.get(t) != at and at <= young]


def _age(table: Table, wall: float) -> float:
    """Seconds since the table's stored row last changed (0 for a clock behind it)."""
    at = utc(table.updated or table.created)
    return max(0.0, wall - at.timestamp())


def _quiet_for(table: Table, wall: float) -> float:
    """Seconds nobody has been at the table as far as its row tells: since its stored
    :attr:`~Table.quiet`, else since its last change (0 for a clock behind it)."""
    if table.quiet is not None:
        return max(0.0, wall - table.quiet.timestamp())
    return _age(table, wall)


def _preset_name(rules: Any) -> str | None:
    """The preset a table's ``rules`` argument names (``"classic"``, or ``{"preset": …}``)."""
    if isinstance(rules, str):
        return rules
    if isinstance(rules, Mapping) and isinstance(rules.get("preset"), str):
        return str(rules["preset"])
    return None


def _replayed(table_id: str, m: Match, actions: list[Any]) -> tuple[Match, list[int]]:
    """``m`` with the stored ``actions`` played (each the next version, by the seat to play;
    else :class:`StoreError`), and how many games were finished before each of them: the game
    each was made in (:func:`_stood_ins`), and, for the last, whether it began a pause between
    games."""
    games: list[int] = []
    for version, a in enumerate(actions, start=1):
        if a.version != version or m.to_play != a.seat:
            raise StoreError(f"table {table_id}: stored action {a.version} out of turn")
        games.append(m.games_played)
        m.play(a.action)
    return m, games


def _holdings(seats: Sequence[Seat]) -> Holdings:
    """``seats`` as who holds them (:data:`~torampu.web.store.Holdings`): those of people."""
    return tuple((st.seat, st.token) for st in seats if st.kind == "human")


def _holds(game: Any, seat: int | None, cards: int) -> bool:
    """Whether ``seat`` holds every one of ``cards`` (a card set, not empty) now: the one a
    private move gave them to (a Daifugo card returned or passed on) reads it — "Sora — return
    (a card hidden from you)" was said of the card that had just come to this hand (a ninth
    review)."""
    hands = getattr(game, "hands", None)
    if seat is None or not cards or not isinstance(hands, list) or not 0 <= seat < len(hands):
        return False
    held = hands[seat]
    return isinstance(held, int) and cards & ~held == 0


def _stood_in(stood: StoodIn, seat: int, by: str, action: str, game: int) -> None:
    """Count in ``stood`` an ``action`` of ``seat`` made ``by`` in ``game`` (see
    :attr:`Room.stood_in`): a move of the player's own clears the seat's count, a stand-in's
    (or a bot's: its player may take the seat back, see ``Lobby._reclaim``) adds one, others
    leave it.

    >>> stood: StoodIn = {}
    >>> for by, action, game in (("away", "pass", 0), ("away", "bid 12H", 0),
    ...                          ("timeout", "play 3C", 0), ("human", "play 4C", 0),
    ...                          ("away", "play 5C", 0), ("away", "play 6C", 1)):
    ...     _stood_in(stood, 1, by, action, game)
    >>> stood
    {1: (2, ((0, 'play 5C'), (1, 'play 6C')))}
    """
    if by == "human":
        stood.pop(seat, None)
    elif by in ("away", "bot"):  # (a bot's, for a player who takes its seat back)
        n, last = stood.get(seat, (0, ()))
        stood[seat] = (n + 1, (*last, (game, action))[-STOOD_IN_SHOWN:])


def _swapped_meanwhile(room: Room, code: str, token: str) -> bool:
    """Whether a refusal ``code`` of a seat token's own change (a move, leave or rename) means
    the host swapped its seat elsewhere, on another process, meanwhile: ``seat_revoked`` while
    the token (its hash) still holds a seat of ``room`` as read again — the change is tried once
    more from there ("seat 0 is no longer yours" to a person in seat 1: a twenty-third audit)."""
    return code == "seat_revoked" and any(
        st.token is not None and secrets.compare_digest(st.token, token) for st in room.seats
    )


def _stood_ins(actions: list[Any], games: list[int]) -> StoodIn:
    """:attr:`Room.stood_in` after the stored ``actions``, from the first (``games``: the game
    each was made in, as :func:`_replayed` says)."""
    stood: StoodIn = {}
    for a, game in zip(actions, games, strict=False):
        _stood_in(stood, a.seat, a.by, a.action, game)
    return stood


def _bus_chat(
    msg: Any, players: int, max_length: int, max_name: int = 200
) -> dict[str, Any] | None:
    """A chat message another process published, rebuilt from its known fields after the same
    checks a client's message passes (None if it fails one): what Redis carries is not passed
    on as it came (a third audit).

    >>> _bus_chat({"type": "chat", "id": 3, "seat": 0, "name": "Aki", "text": "hi",
    ...            "reaction": None, "at": 1, "html": "<b>"}, 3, 200)["text"]
    'hi'
    >>> _bus_chat({"type": "chat", "id": 3, "seat": 9, "text": "hi", "at": 1}, 3, 200) is None
    True
    """
    if not isinstance(msg, dict) or msg.get("type") != "chat":
        return None
    seat, text, reaction = msg.get("seat"), msg.get("text"), msg.get("reaction")
    name, ident, at = msg.get("name"), msg.get("id"), msg.get("at")
    try:
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            return None
        if type(ident) is not int or type(at) is not int:
            return None
        if "event" in msg:
            event = _bus_seat_event(msg["event"], players, max_name)
            if event is None or seat != event["seat"] or (text, reaction, name) != (None,) * 3:
                return None
            return {
                "type": "chat",
                "id": ident,
                "seat": seat,
                "name": None,
                "text": None,
                "reaction": None,
                "at": at,
                "event": event,
            }
        if reaction is not None:
            if reaction not in REACTIONS or text is not None:
                return None
        elif chat_text(text, max_length) != text:
            return None
        if name is not None and display_name(name, max(max_name, 200)) != name:
            return None
    except Invalid:
        return None
    keys = ("id", "seat", "name", "text", "reaction", "at")
    return {"type": "chat", **{k: msg.get(k) for k in keys}}


SEAT_EVENTS = frozenset({"joined", "left", "put_out", "moved", "renamed", "reclaimed"})
"""The kinds of seat change the chat says (:meth:`Lobby._seat_lines`)."""


def _bus_seat_event(event: Any, players: int, max_name: int = 200) -> dict[str, Any] | None:
    """A seat change's chat line as another process published it, rebuilt from its known
    fields after their checks (None if one fails).

    >>> _bus_seat_event({"kind": "moved", "seat": 3, "who": "Ben", "from": 1, "x": 1}, 4)
    {'kind': 'moved', 'seat': 3, 'who': 'Ben', 'from': 1}
    >>> _bus_seat_event({"kind": "moved", "seat": 3, "who": "Ben", "from": 7}, 4) is None
    True
    """
    if not isinstance(event, dict) or event.get("kind") not in SEAT_EVENTS:
        return None
    out: dict[str, Any] = {"kind": event["kind"]}
    # (each kind's own fields, required: "moved from seat NaN" otherwise)
    needs = {"moved": "from", "renamed": "was", "put_out": "bot"}.get(event["kind"])
    for key, kind in (("seat", int), ("who", str), ("was", str), ("from", int), ("bot", bool)):
        if key not in event:
            if key in ("seat", "who") or key == needs:
                return None
            continue
        value = event[key]
        if type(value) is not kind:
            return None
        if isinstance(value, int) and kind is int and not 0 <= value < players:
            return None
        if isinstance(value, str) and value:
            try:
                if display_name(value, max(max_name, 200)) != value:
                    return None
            except Invalid:
                return None
        out[key] = value
    return out


class Lobby:
    """Every table of one server, over one store."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], float] = time.monotonic,
        pool: BotPool | None = None,
        bus: Bus | None = None,
        workers: Workers | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.wall: Callable[[], float] = shared.wall
        """Seconds since the epoch: the between-games deadline is derived from stored times."""
        self.rooms: dict[str, Room] = {}
        # with workers elsewhere (--redis) this pool computes only the learners' hints: one
        # search process (and the quick one), not a thread — a hint's search in a thread held
        # the event loop's GIL (another socket's round trip: p99 2 ms -> 126 ms under six
        # tables' hints, a third audit) and could not be stopped at its deadline
        self.pool = pool or BotPool(
            settings.bot_workers if workers is None else 1, settings.bot_queue_wait
        )
        self.bus: Bus = bus if bus is not None else LocalBus()
        self.workers: Workers = workers if workers is not None else LocalWorkers(self.pool)
        self._heartbeat: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._db_threads()
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._load_pool = ThreadPoolExecutor(2, thread_name_prefix="torampu-load")
        """Where a table's match is played again when it is loaded (off the event loop)."""
        self.loads = PerKey(settings.load_rate, settings.load_burst)
        """Tables loaded per client address (``load_rate``, ``load_burst``)."""
        self.rows_changed = 0
        """Counts the changes to tables' rows (made, seats, status, closed) this process made
        or heard of: a page of the table list made before the last one is made again."""
        self._unpublished: set[str] = set()
        self._settling_until = 0.0
        """Until when a seat missing from the presence on the bus is not taken as gone (see
        :meth:`_reload_all`)."""
        """Tables whose last event the bus did not take: announced again once it answers."""
        self._closing = False
        self._resumer: asyncio.Task[None] | None = None
        self._adopter: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._purger: asyncio.Task[None] | None = None
        self._jitter = random.Random()  # only the bots' pauses: no game randomness here
        self.bot_moves = RateGate(settings.bot_rate_all) if settings.bot_rate_all > 0 else None
        """The whole process's bot moves a second (``bot_rate_all``), shared by address."""
        self.connects = PerKey(settings.connect_rate, settings.sockets_per_address)
        """New websockets per address (a socket closed and opened again is a new one)."""
        self.told_refused = PerKey(REFUSALS_TOLD_RATE, REFUSALS_TOLD_BURST)
        """Sockets opened to be told why they are refused, per address; past it a socket is
        refused before its handshake."""
        self.address_messages = PerKey(
            settings.message_rate * ADDRESS_MESSAGES, settings.message_burst * ADDRESS_MESSAGES
        )
        """Messages per address, over all its sockets (``message_rate`` is per socket)."""
        self.sockets: Counter[str] = Counter()
        """Open websockets per client address."""
        self.table_sockets: Counter[str] = Counter()
        """Open websockets per table: its spectators'."""
        self.player_sockets: Counter[str] = Counter()
        """Open websockets per table and seat token (``"<table> <token hash>"``) or host
        (``"<table> host"``)."""
        self.watchers: Counter[str] = Counter()
        """Open spectators' websockets per table and client address (``"<table> <address>"``)."""
        self.spectators: Counter[str] = Counter()
        """Open spectators' websockets in all (the key ``""``; ``max_spectators``)."""
        self.waiting: dict[int, tuple[float, Callable[[], None]]] = {}
        """Open websockets that have not said hello yet, oldest first: since when (monotonic)
        and what closes each (``max_pending_sockets``)."""
        self.waited_out = 0
        """Websockets closed to let a newer one in (``max_pending_sockets``)."""
        self.greeted: Counter[str] = Counter()
        """Open websockets past their hello, in all (the key ``""``; ``max_sockets``)."""
        self._hinting: Counter[str] = Counter()
        """Hints being computed per client address: one at a time each (a second is refused
        ``hint_busy``). Hints wait for a search worker in turns by the table's maker, as bot
        moves do, at most ``bot_queue_wait``; before, one semaphore of ``bot_workers`` hints
        for the whole server let one address's hint tables refuse everyone else's hints."""
        self._creating = asyncio.Lock()
        """Held from the count of open tables to the new one's row, so that tables made at
        once each see the others (with several processes: one more per process at most)."""

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Resume the bots and timers of the tables in play that were active lately (the rest
        load when someone opens them); start the sweeper that lets idle rooms go."""
        await self.bus.start(self._on_event)
        if hasattr(self.bus, "on_reconnect"):
            self.bus.on_reconnect = self._reload_all
        self._heartbeat = asyncio.get_running_loop().create_task(self._beat())
        # the tables in play are read back after the server has begun to serve: reading back a
        # long match takes a while, and before, a restart answered nobody until every active
        # table was read back (a security review's long table: 22 s)
        self._resumer = asyncio.get_running_loop().create_task(self._resume())
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self._purger = asyncio.get_running_loop().create_task(self._purge_now_and_then())
        if not isinstance(self.bus, LocalBus):
            self._adopter = asyncio.get_running_loop().create_task(self._adopt())
            self._watcher = asyncio.get_running_loop().create_task(self._watch_versions())

    async def _resume(self) -> None:
        """Read back the tables in play that were active lately and start their drivers."""
        since = shared.now() - timedelta(seconds=self.settings.abandon_after)
        try:
            rows = await self.db(
                self.store.active_since, "playing", since, self.settings.resume_limit
            )
        except ActError:
            return  # logged; the tables load when someone opens them
        ids = [t for t, _changed in rows]
        if ids and not isinstance(self.bus, LocalBus):
            # (not those another process drives, nor those one let go on purpose, nobody at
            # them: a restart took the parked and their bots played on for nobody — a
            # thirteenth scale audit; _adopt takes the ones whose driver died)
            try:
                held = await self.bus.leased(ids)
            except BusError:
                held = set()  # (logged where it failed: read back, as with one process)
            ids = [t for t in ids if t not in held]
        for table_id in ids:
            if self._closing:
                return
            try:
                room = await self.room(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
                continue
            self._ensure_driver(room)

    async def _adopt(self) -> None:
        """Drive the tables in play that no process drives: every ``lease_ttl`` (at least 2 s),
        those active within ``abandon_after`` whose driver lease nobody holds are loaded here
        (up to :data:`ADOPT_BATCH` a turn), and their drivers take the lease. A process that
        died took the drivers of the tables only it had loaded with it: a table nobody had
        opened elsewhere — bots, or stand-ins for players away — stood until someone opened it
        (a twelfth audit: 28–30 s for a restart, for good if the process never came back).
        A table a process let go on purpose (:meth:`_unload`: parked) is left, and one loaded
        here and found with nothing to drive is not loaded again until it changes."""
        every = max(2.0, self.settings.lease_ttl)
        seen: dict[str, datetime] = {}
        while not self._closing:
            await asyncio.sleep(every)
            if not self.bus.healthy:
                continue
            now = shared.now()
            since = now - timedelta(seconds=self.settings.abandon_after)
            try:
                rows = await self.db(
                    self.store.active_since, "playing", since, self.settings.resume_limit
                )
                ids = _to_adopt(rows, self.rooms, seen, now, self.settings.lease_ttl)
                held = await self.bus.leased(ids) if ids else set()
                free = [t for t in ids if t not in held]
            except (ActError, BusError):
                continue  # (logged where it failed; tried again at the next turn)
            changed = dict(rows)
            seen = {t: at for t, at in seen.items() if t in changed}  # (bounded by the query)
            # several loads at once: one after another, a process taking over a stopped one's
            # tables it had not loaded yet (a restart's, or a deploy sending one table's
            # clients to one process) moved the last of 27 only after 18.8 s, the loads queued
            # behind each other where --lease-ttl promised some 10 s (a thirty-fifth scale
            # audit); the database's threads bound them anyway
            batch, places = free[:ADOPT_BATCH], asyncio.Semaphore(ADOPT_AT_ONCE)
            done = await asyncio.gather(
                *(self._take_over(t, changed[t], seen, places) for t in batch)
            )
            if self._closing:
                return
            taken = [t for t, ok in zip(batch, done, strict=True) if ok]
            if taken:
                log.warning(
                    "%d table(s) in play that no process drove: driven here (%s%s)",
                    len(taken),
                    ", ".join(taken[:5]),
                    ", …" if len(taken) > 5 else "",
                )

    async def _take_over(
        self,
        table_id: str,
        changed: datetime,
        seen: dict[str, datetime],
        places: asyncio.Semaphore,
    ) -> bool:
        """One table of :meth:`_adopt`'s turn: its lease, then the table loaded and its driver
        started (True), within ``places`` (the loads at once); ``seen`` notes it at
        ``changed``, the stored time of its last change."""
        async with places:
            if self._closing:
                return False
            # the lease first, then the table: every process looking at once found the same
            # tables free, loaded them all and said each "driven here", one of them then
            # driving and the rest holding copies (a thirty-third scale audit). The driver's
            # first look renews the lease taken here
            try:
                if not await self.bus.lease(table_id, self.settings.lease_ttl):
                    return False  # (another process took it first: not seen, looked at again)
            except BusError:
                return False
            except asyncio.CancelledError:
                # (the process stopping as it asked: taken or not, unknown — released if ours;
                # eight asked at once where one did)
                await self.bus.release(table_id)
                raise
            seen[table_id] = changed
            # (renewed while it loads: the loads at once share the replay threads and the
            # database's, and a lease taken as its load began outlasted by the loads beside it
            # ran out before the driver's first look — a review of the loads at once)
            keep = asyncio.get_running_loop().create_task(self._keep_lease(table_id))
            try:
                try:
                    room = await self.room(table_id)
                finally:
                    keep.cancel()
            except ActError:
                seen.pop(table_id, None)  # (busy, the database away: tried again)
                await self.bus.release(table_id)
                return False
            except Exception:
                log.exception("table %s could not be taken over", table_id)
                await self.bus.release(table_id)
                return False
            except asyncio.CancelledError:
                # (the process stopping in the load: no driver here will release the lease
                # taken above, and every other process left the table for a --lease-ttl more,
                # nobody driving it — a code review)
                await self.bus.release(table_id)
                raise
            self._ensure_driver(room)
            return True

    async def _keep_lease(self, table_id: str) -> None:
        """Renew the lease :meth:`_take_over` took of ``table_id`` (only while it is this
        process's) every third of ``lease_ttl``, until cancelled as the load ends."""
        ttl = self.settings.lease_ttl
        while True:
            await asyncio.sleep(ttl / 3)
            with contextlib.suppress(BusError):
                if not await self.bus.lease(table_id, ttl, held=True):
                    return

    async def stop(self) -> None:
        self._closing = True
        tasks = [r.driver for r in self.rooms.values() if r.driver is not None]
        others = (
            self._resumer,
            self._sweeper,
            self._heartbeat,
            self._purger,
            self._adopter,
            self._watcher,
        )
        tasks += [t for t in others if t is not None]
        await stop_tasks(tasks, "table drivers and loops")
        # (each driver released its lease as it stopped — but one whose release took over the
        # 2 s was cut off by the second cancel: its lease runs out by --lease-ttl instead)
        for room in self.rooms.values():
            if room.clients:
                with contextlib.suppress(Exception):
                    await self.bus.set_presence(room.id, [], 0)
        await self.workers.close()
        await self.bus.stop()
        self.pool.close()
        self._db_pool.shutdown(wait=True)
        self._load_pool.shutdown(wait=False, cancel_futures=True)

    def _db_threads(self) -> None:
        """The database threads (see :meth:`db`), by ``settings``."""
        self._db_pool = ThreadPoolExecutor(
            self.settings.db_threads + self.settings.db_slow_threads,
            thread_name_prefix="torampu-db",
        )
        self._db_places = asyncio.Semaphore(self.settings.db_threads)
        """Calls on the database threads that still count (see :meth:`_run`)."""
        self._db_slow = 0
        """Calls that gave their places up, being slow (at most ``db_slow_threads``)."""
        self._db_gates: dict[str, asyncio.Lock] = {}
        self._db_waiting: Counter[str] = Counter()

    async def db(self, fn: Callable[..., T], *args: Any, table: str | None = None) -> T:
        """Run a store call on the database threads; a database failure becomes a logged
        ``storage_unavailable`` error (a refused write — :class:`StaleVersion`,
        :class:`Refused` — passes).

        ``table``: the table the call is about. One table's calls take one database thread at
        a time, the rest waiting here: an eighteenth scale audit held one table's row locked
        (an operator's ``SELECT … FOR UPDATE``), and three chat lines and a move there, each
        waiting out the lock timeout on a thread of the four, held every other table's moves on
        the process for 30 s."""
        loop = asyncio.get_running_loop()
        for again in (True, False):
            try:
                return await self._on_thread(loop, fn, args, table)
            except (StaleVersion, Refused):
                raise
            except (SQLAlchemyError, StoreError, OSError) as e:
                # a deadlock or a serialization failure rolled the transaction back whole
                # (every store call is one): once more, a moment later, before it is an error
                if again and _retryable(e):
                    log.info("database: %s; once more", type(getattr(e, "orig", e)).__name__)
                    await asyncio.sleep(0.02 + random.random() * 0.08)
                    continue
                raise storage_unavailable(e) from None
        raise AssertionError("unreachable")

    async def _on_thread(
        self, loop: asyncio.AbstractEventLoop, fn: Callable[..., T], args: Any, table: str | None
    ) -> T:
        """``fn(*args)`` on a database thread; with ``table``, once the table's call before it
        has left its thread. The table's turn ends when the call leaves the thread, not when
        its caller stops waiting: a caller cancelled (a socket dismissed, a room let go) left
        its call on the thread for the lock timeout, and the table's next call took another
        (a code review)."""
        if table is None:
            return await _shielded(await self._run(loop, fn, args))
        lock = self._db_gates.get(table)
        if lock is None:
            lock = self._db_gates[table] = asyncio.Lock()
        self._db_waiting[table] += 1
        turn = False
        try:
            await lock.acquire()
            turn = True
            call = await self._run(loop, fn, args)
        except BaseException:
            if turn:
                lock.release()
            self._db_left(table)
            raise

        def done(_: object) -> None:
            lock.release()
            self._db_left(table)

        call.add_done_callback(done)
        return await _shielded(call)

    async def _run(
        self, loop: asyncio.AbstractEventLoop, fn: Callable[..., T], args: Any
    ) -> asyncio.Future[T]:
        """``fn(*args)`` started on a database thread once one of the ``db_threads`` places is
        free; the call, which holds its place until it leaves the thread — or, on the thread
        longer than ``DB_SLOW``, gives it to the next call while fewer than ``db_slow_threads``
        have (left by the eighteenth scale audit: four tables' rows held locked took the four
        threads for the lock timeout, and every other table on the process waited)."""
        await self._db_places.acquire()
        slow = False
        timer: asyncio.TimerHandle

        def give_up_place() -> None:
            nonlocal slow, timer
            if call.done():
                return
            if self._db_slow < self.settings.db_slow_threads:
                slow = True
                self._db_slow += 1
                self._db_places.release()
            else:  # (every slow thread taken: asked again, a slow call may have left)
                timer = loop.call_later(DB_SLOW / 4, give_up_place)

        def left(done: asyncio.Future[T]) -> None:
            timer.cancel()
            if slow:
                self._db_slow -= 1
            else:
                self._db_places.release()
            # (its error read: a caller cancelled meanwhile — a socket closed as its move was
            # stored — left a refused write in the log as asyncio's ERROR "Future exception
            # was never retrieved", a twenty-sixth scale audit; a caller still there gets it)
            if not done.cancelled():
                done.exception()

        try:
            call = loop.run_in_executor(self._db_pool, lambda: fn(*args))
        except BaseException:
            self._db_places.release()
            raise
        timer = loop.call_later(DB_SLOW, give_up_place)
        call.add_done_callback(left)
        return call

    def _db_left(self, table: str) -> None:
        """One of ``table``'s calls is done with its gate (see :meth:`_on_thread`)."""
        self._db_waiting[table] -= 1
        if not self._db_waiting[table]:
            del self._db_waiting[table]
            del self._db_gates[table]

    async def room(self, table_id: str, addr: str | None = None) -> Room:
        """The room of a table, loaded from the store if needed (:class:`ActError` 404).

        ``addr``: the client address a request to load it comes from. Loading a table plays its
        whole match again (a finished 50-game Daifugo match: some 9,000 actions, 0.3–0.7 s of
        CPU, 6 MB held for ``room_idle``), so a client may have ``load_rate`` tables loaded a
        second (``load_burst`` at once; past it 429), the replay runs on a thread of its own,
        and at most ``max_rooms`` rooms are held: past it the least lately used idle rooms
        leave memory, or if every room is in use the load is refused 503 ``busy``. (A security
        review kept loading long finished tables at 20 a second: every other table's
        websocket slowed from 1 to 60 ms and the process grew by 5.7 MB a table.)"""
        room = self.rooms.get(table_id)
        if room is not None:
            room.touched = self.clock()
            return room
        loading = self._loading.get(table_id)
        if loading is not None:
            try:
                return await asyncio.shield(loading)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if loading.cancelled() or not loading.done() or (task and task.cancelling()):
                    raise
                # (the caller that began the load was cancelled — a socket's reader as its
                # writer ended — not this one: its CancelledError, taken here for this task's,
                # ended the adopter's loop for good — a code review. Loaded again, here)
                return await self.room(table_id, addr)
        if addr is not None and not self.loads.take(addr, self.clock()):
            raise ActError(
                "rate_limited",
                f"at most {self.settings.load_rate:g} tables a second opened from one address "
                "(a table not opened lately is read back into memory): wait a little",
                429,
            )
        self._make_room_for_one()
        fut: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            table = await self.db(self.store.table, table_id, table=table_id)
            if table is None:
                raise ActError("not_found", f"no table {table_id!r}", 404)
            actions = (
                await self.db(self.store.actions, table_id, table=table_id) if table.version else []
            )
            # (as far as the row read: a move another process stored between the two reads
            # failed the load — "47 of 46 actions stored", a thirteenth audit — and comes to
            # the room as any later move does)
            actions = [a for a in actions if a.version <= table.version]
            room = await self._load(table, actions)
            chat = await self.db(
                self.store.recent_chat, table_id, self.settings.chat_history, table=table_id
            )
            for c in chat:
                (room.chat if c.event is None else room.seat_chat).append(self._chat_message(c))
            await self._read_ready(room)
            with contextlib.suppress(BusError):
                room.remote_seats, room.remote_clients = await self.bus.presence(table_id)
            # a seat whose player is connected elsewhere is not away (counted from the load, it
            # was after --away-timeout: shown away, and a stand-in asked for a player there, the
            # turn's timeout never made — a tenth scale audit)
            for seat in room.remote_seats:
                room.away_since.pop(seat, None)
            self.rooms[table_id] = room
            if room.status == "playing" and not self._closing:
                self._ensure_driver(room)
            fut.set_result(room)
            return room
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        finally:
            del self._loading[table_id]

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on its own, kept in ``_tasks`` until it ends (a task nobody holds may
        be collected before it is done)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _in_use(self, room: Room) -> bool:
        """Whether ``room`` must stay in memory: someone is connected, it is being changed, or
        this process drives its bots — holds the table's lease: a copy whose driver waits for
        another process's lease (a look at the table, an adopter that raced the driver after a
        Redis stall) may go, or every process kept every such table for its whole match, each
        holding one of ``max_rooms`` (a thirty-second scale audit). With a single process (no
        Redis) its driver always leads."""
        # (kept until the bus *says* the lease is another's: not before the driver's first
        # answer, nor while the bus cannot answer — a Redis outage made every table this
        # process drove a copy to let go, its driver cancelled, nobody driving it until its
        # lease ran out and another look adopted it, a review)
        driving = self._driving(room) and not room.standby
        return bool(room.clients or room.lock.locked() or driving)

    def _make_room_for_one(self) -> None:
        """Hold at most ``max_rooms`` rooms: before one more is loaded, the least lately used
        rooms nobody uses leave memory (the store keeps them) until there is room, then the
        finished ones only spectators watch; ``503 busy`` if every room is in use."""
        most = self.settings.max_rooms

        def full() -> bool:
            return len(self.rooms) + len(self._loading) >= most

        # (then finished tables only spectators watch, their watchers sent away — busy: to
        # come back in a moment; sockets of watchers, one a finished table, held every room,
        # and no player could load their own table or make one: a fifty-ninth audit, some
        # 125 addresses at the defaults)
        for may_go in (lambda r: not self._in_use(r), self._watched_only):
            if not full():
                return
            order = sorted((r.touched, t) for t, r in self.rooms.items() if may_go(r))
            for _touched, table_id in order:
                if not full():
                    break
                gone = self.rooms.pop(table_id, None)
                if gone is not None:
                    for c in list(gone.clients):
                        c.dismiss(
                            "busy",
                            "the server holds as many tables as it may: watch again in a moment",
                            1013,
                        )
                    # its driver stops and its lease goes, as when the sweeper lets it go (the
                    # driver went on, holding the lease of a table no longer here)
                    self._spawn(self._unload(gone))
        if full():
            raise ActError("busy", "the server holds as many tables as it may: try again", 503)

    def _watched_only(self, room: Room) -> bool:
        """Whether ``room`` is a finished table only spectators watch (nothing else keeps it:
        :meth:`_make_room_for_one` may let it go, its watchers sent away)."""
        return (
            room.status == "over"
            and bool(room.clients)
            and all(c.seat is None and not c.host for c in room.clients)
            and not room.lock.locked()
            and not self._driving(room)
        )

    async def _load(self, table: Table, actions: list[Any]) -> Room:
        """A room for ``table``, its match rebuilt by playing its stored ``actions`` on a
        thread (:func:`_replayed`), off the event loop."""
        now = self.clock()
        room = Room(table, list(table.seats), 0)
        room.chat = deque(maxlen=max(1, self.settings.chat_history))
        room.seat_chat = deque(maxlen=max(1, self.settings.chat_history))
        room.away_since = {s: now for s in range(table.players)}
        room.turn_started = room.empty_since = room.touched = now
        room.quiet = table.quiet.timestamp() if table.quiet is not None else None
        room.quiet_known = True
        if table.status == "playing":
            # nobody has been connected since its driver wrote so, or else since the table's
            # last change (a connection would have loaded it sooner): opening its page or
            # reading it does not wake its bots — nor does a restart (the last change is its
            # bots' last move: they played on for nobody, a thirteenth scale audit)
            room.empty_since = now - _quiet_for(table, self.wall())
        room.owner = table.owner or ""
        if table.status != "waiting":
            loop = asyncio.get_running_loop()
            new = self._new_match
            m, games = await loop.run_in_executor(
                self._load_pool, lambda: _replayed(table.id, new(room), actions)
            )
            room.match = m
            room.stood_in = _stood_ins(actions[:-1], games)  # (the last is counted as it is taken)
            if actions:
                self._took(room, actions[-1], games[-1])
                room.revision += 1
                room.turn_started = self._clock_at(actions[-1].at)
        if room.version != table.version:
            raise StoreError(f"table {table.id}: {room.version} of {table.version} actions stored")
        return room

    def _new_match(self, room: Room) -> Match:
        return table_match(room.table)

    async def _sweep(self) -> None:
        """Let rooms nobody uses leave memory (the store keeps them; :meth:`purge`: how long)."""
        every = max(1.0, min(30.0, self.settings.room_idle / 4))
        while not self._closing:
            await asyncio.sleep(every)
            now = self.clock()
            for room in list(self.rooms.values()):
                if not self._in_use(room) and now - room.touched >= self.settings.room_idle:
                    await self._unload(room)

    async def _unload(self, room: Room) -> None:
        """The room leaves memory: its driver stops and its lease goes (the store keeps it).
        A table in play this process drove is parked as it goes: let go on purpose (nobody
        used it, nothing to drive), the others leave it until someone opens it
        (:meth:`_adopt` would drive it again, its bots playing on for nobody)."""
        if self.rooms.get(room.id) is room:
            # (out first: a client arriving while the lease goes gets a room loaded anew, not
            # this one, its driver stopped — a thirteenth audit's reading)
            del self.rooms[room.id]
        if room.driver is not None:
            room.driver.cancel()
        if room.driving:
            room.driving = False
            park = self.settings.abandon_after + self.settings.room_idle
            # (the bus's own failures are its to swallow)
            await self.bus.release(room.id, park if room.status == "playing" else 0.0)

    async def purge(self) -> int:
        """Delete the tables past their keeping (``keep_finished`` days after a finished
        table's last change, ``keep_abandoned`` days for an unfinished one nobody touched),
        in batches, sparing the tables loaded here; how many went. Every process may do it at
        once: each batch is one transaction, and a table deleted twice is deleted once."""
        st = self.settings
        now = shared.now()
        finished = now - timedelta(days=st.keep_finished) if st.keep_finished > 0 else None
        abandoned = now - timedelta(days=st.keep_abandoned) if st.keep_abandoned > 0 else None
        total = 0
        while not self._closing:
            gone = await self.db(self.store.purge, finished, abandoned, set(self.rooms))
            total += len(gone)
            if not gone:  # (a batch is bounded by its rows too: fewer is not the last)
                break
            await asyncio.sleep(0.1)  # the database serves the tables in play between batches
        if total:
            log.info("deleted %d tables past their keeping", total)
        return total

    async def _purge_now_and_then(self) -> None:
        # the first look a little after the start, then every purge_every, spread over the
        # processes of a deployment
        await asyncio.sleep(min(60.0, self.settings.purge_every) * random.uniform(0.5, 1.0))
        while not self._closing:
            try:
                await self.purge()
            except Exception:
                log.exception("deleting old tables failed (tried again later)")
            await asyncio.sleep(self.settings.purge_every * random.uniform(0.9, 1.1))

    def _driving(self, room: Room) -> bool:
        """Whether the room's driver still has moves to make now (not waiting for a person)."""
        if room.driver is None or room.driver.done() or room.match is None:
            return False
        return self._who_moves(room)[0] is not None

    # ------------------------------------------------------------------ tables
    async def create(
        self,
        game: str,
        rules: Any,
        players: int | None,
        games: int | None,
        seats: list[str] | None,
        features: dict[str, bool] | None = None,
        owner: str = "",
        invite: str | None = None,
        turn_timeout: float | None = None,
        charge: Callable[[], Awaitable[None]] | None = None,
    ) -> tuple[Room, str]:
        """A new table (:class:`ActError` 400 for a bad game, option, seat or bot; 503 when the
        server holds its most open tables); ``features``: what the host allows
        (``spectator_chat``, ``hints``); ``invite``: a private table's invite secret (only its
        hash is kept; see :meth:`open_table`); ``turn_timeout``: the table's own time for a
        turn (``None``: the server's ``turn_timeout``), stored with its clocks. ``charge()``
        is awaited once the request is checked, before anything is made (one refused 400 is
        not charged)."""
        if games is not None and not 1 <= games <= self.settings.max_games:
            raise ActError(
                "bad_request", f"games must be 1 to {self.settings.max_games} on this server", 400
            )
        try:
            probe = torampu.new_match(game, rules, players=players, games=games, seed=0)
        except (TorampuError, ValueError) as e:  # what the engine says of bad rules
            # (anything else is an internal error, logged with an id: Python's own words,
            # "unhashable type: 'list'", are not an answer — a fourth audit)
            raise ActError("bad_request", str(e), 400) from None
        if probe.games_total > self.settings.max_games:
            raise ActError(
                "bad_request",
                f"a match is at most {self.settings.max_games} games on this server "
                f"(this one is {probe.games_total})",
                400,
            )
        n = probe.n
        specs = list(seats) if seats is not None else ["open"] * n
        if len(specs) != n:
            raise ActError("bad_request", f"seats lists {len(specs)} seats for {n} players", 400)
        specs = [s if s == "open" else self.check_bot(s) for s in specs]
        if charge is not None:
            await charge()
        made_by = owner_hash(owner) if owner else None
        async with self._creating:
            caps = await self._check_capacity(made_by)
            self._make_room_for_one()
            token = new_token()
            table_id = new_table_id()
            seed = random.SystemRandom().getrandbits(63)
            try:
                table = await self.db(
                    self.store.create_table,
                    table_id,
                    game,
                    dict(probe.rules),
                    n,
                    probe.games_total,
                    seed,
                    token_hash(token),
                    specs,
                    _preset_name(rules),
                    {
                        **{k: v for k, v in (features or {}).items() if v},
                        TIMING: self._timings(turn_timeout),
                        SEEDING: "keyed",
                    },
                    made_by,
                    None if invite is None else token_hash(invite),
                    caps,
                    table=table_id,
                )
            except Refused as e:
                raise ActError.refused(e) from None
        room = await self._load(table, [])
        self.rooms[table_id] = room
        self.rows_changed += 1
        return room, token

    async def _check_capacity(self, owner: str | None = None) -> OpenCaps:
        """:class:`ActError` if the server holds ``max_tables`` open tables (503), or the
        address whose hash is ``owner`` made ``tables_per_address`` of them (429): refused early.
        The bounds, which the table's insert counts again in the same step (other processes
        make tables meanwhile: a burst over two processes made one table too many)."""
        st = self.settings
        since = shared.now() - timedelta(seconds=st.table_expiry)
        caps = OpenCaps(
            since, st.max_tables, st.tables_per_address, st.table_expiry / 3600, st.tables_per_day
        )
        refused = await self.db(self.store.caps_refusal, caps, owner)
        if refused is not None:
            raise ActError.refused(refused)
        return caps

    async def rematch(
        self,
        room: Room,
        token: str | None,
        withdraw: bool = False,
        host: Any = None,
        charge: Callable[[], Awaitable[None]] | None = None,
        address: str | None = None,
    ) -> Room | None:
        """The table that continues ``room`` once its match is over: the same game, rules,
        length, seats (held by the same seat tokens) and host token, already playing.

        A seat token asks for it: it is made once every person connected at the table has
        asked (a player alone with bots, at once); until then ``None``, and the others see who
        asked (``rematch_wanted``). The host token makes it at once (the host runs the table,
        as they start it). Asking again, after it is made, gives the same table — and seats
        there again a player whose seat went to a bot (:meth:`_reclaim`). (A rematch
        moved everyone at the first request, without asking them or saying who had asked: a
        fifth review.) ``withdraw``: a seat takes its wish back (``None``; 409 ``rematch_made``
        once it is made). ``host``: the host token beside a seat token — the host plays in
        that seat; made on wishes with a bot in a seat, the rematch keeps the host only if the
        host asked so (:data:`~torampu.web.store.REMATCH_HOST`)."""
        if not token or not isinstance(token, str) or len(token) > 128:
            raise ActError("unauthorized", "a rematch needs a seat token or the host token", 401)
        held = ((s, st.token) for s, st in enumerate(room.seats) if st.token)
        seat = next((s for s, h in held if _matches(token, [h])), None)
        if seat is None and not _matches(token, [room.table.host_token]):
            raise ActError("unauthorized", "this token holds no seat at this table", 403)
        try:
            return await self._rematch(room, seat, withdraw, host, charge, address)
        except (ActError, Refused) as e:
            error = ActError.refused(e) if isinstance(e, Refused) else e
        if error.code == "not_found":  # (deleted on another process: its clients sent away)
            async with room.lock:
                await self._refresh_row(room)
        raise error

    async def _rematch(
        self,
        room: Room,
        seat: int | None,
        withdraw: bool,
        host: Any,
        charge: Callable[[], Awaitable[None]] | None = None,
        address: str | None = None,
    ) -> Room | None:
        """:meth:`rematch` for ``seat`` (``None``: the host token), the token checked;
        ``charge()`` is awaited before a request that may make the table (a wish or the host's,
        the match over and no rematch made yet): a new table of its address's, it may refuse."""
        await self._over_as_stored(room)
        if withdraw:
            await self._withdraw_rematch(room, seat)
            return None
        new_id = room.table.rematch
        if new_id is None:
            if room.match is None or not room.match.is_over:
                raise ActError("not_over", "a rematch is there once the match is over")
            # (before the wish: one refused is not stored, to be made later without a charge
            # when the wishes agree; a wish asked again is charged once — each repeat charged
            # a table, and a player who clicked on locked their address out: a 34th audit)
            if charge is not None and (seat is None or seat not in room.wishes):
                await charge()
            as_host = seat is not None and _matches(host, [room.table.host_token])
            if seat is not None and not await self._wish_rematch(room, seat, as_host):
                # (made once the ones gone who did not ask have been gone the grace)
                self._rematch_if_agreed(room)
                return None
            # (the host's: counted as the tables of the address that asks — the table's
            # stored owner may be a stranger's, whose seat asked for the rematch before)
            maker = owner_hash(address) if address and seat is None else None
            new_id = await self._make_rematch(room, by_wish=seat is not None, maker=maker)
            if new_id is None:
                return None
        elif seat is not None:
            await self._reclaim(room, seat, new_id)
        return await self.room(new_id)

    async def _reclaim(self, old: Room, seat: int, new_id: str) -> None:
        """The player of ``seat`` at ``old``, asking for its rematch once it is made, takes back
        the seat a :data:`REMATCH_BOT` took there (they had not asked and were gone: a friend
        away a few seconds as the host asked could only watch, an eleventh review) while it
        is playing; the bot's moves so far are told them as a stand-in's. Nothing where their
        seat is theirs or the match is over."""
        room = await self.room(new_id)
        h = old.seats[seat].token
        if room is None or h is None or room.status != "playing" or room.seats[seat].kind != "bot":
            return
        async with room.lock:
            try:
                st = await self.db(self.store.reclaim_seat, old.id, seat, h, table=old.id)
            except Refused as e:
                raise ActError.refused(e) from None
            if st is None:  # (another process's change, read now)
                await self._refresh_row(room)
                return
            self._seat_changed(room, seat, st)
            room.changed.set()  # the driver looks again: a person's seat now
        self.broadcast(room)
        await self._publish(room, {"kind": "table"})
        back = {"kind": "reclaimed", "seat": seat, "who": st.name or ""}
        await self._seat_lines(room, [back], h)

    async def _wish_rematch(self, room: Room, seat: int, as_host: bool = False) -> bool:
        """``seat`` asks for the rematch (``as_host``: with the host token too); whether
        everyone connected has asked now. The marks are read back from the database, the one
        truth: of two players asking at once on two processes, the later read sees both
        marks."""
        before = set(room.wishes)
        if as_host:  # (first: once the wish is marked, the rematch may be made)
            await self.db(self.store.mark_ready, room.id, REMATCH_HOST, seat, table=room.id)
        # marked whatever this process thinks: its copy may still hold a wish taken back on
        # another process (an eighteenth audit: asked here, taken back there, asked here again
        # — answered 202, and nothing stored); a repeated ask marks nothing new and says nothing
        if await self.db(self.store.mark_ready, room.id, REMATCH_WISH, seat, table=room.id):
            await self._publish(room, {"kind": "rematch_wish", "seat": seat})
        room.wishes = await self.db(self.store.ready_seats, room.id, REMATCH_WISH, table=room.id)
        if room.wishes != before:
            # (only then: a request repeated sent every socket at the table a snapshot, 28,309
            # to 60 spectators in 8 s from one player, a tenth audit)
            self.broadcast(room)
        return self._all_wish(room)

    async def _behind(self, room: Room, e: Refused) -> ActError:
        """The store's refusal ``e`` of a change to ``room``, as the protocol's, once the
        table's row is read again: the refusal says this process's copy is behind another
        process's change (the table deleted, a seat changed hands, the rematch made), and its
        clients follow what is stored."""
        async with room.lock:
            await self._refresh_row(room)
        return ActError.refused(e)

    async def _over_as_stored(self, room: Room) -> None:
        """Read the table's row again where this process's copy has its match still in play:
        another process may have stored its last move (and made its rematch) a moment ago —
        a rematch asked there was refused ``not_over`` while the database said over, the wish
        lost and the rematch never made (a ninth scale audit: 1 round in 5 of three players
        asking on three processes as the last move was stored)."""
        if room.table.rematch is None and (room.match is None or not room.match.is_over):
            async with room.lock:
                await self._refresh_row(room)
            if self.rooms.get(room.id) is not room:  # (its row gone: dropped)
                raise ActError("not_found", f"no table {room.id!r} (it was closed)", 404)

    async def _withdraw_rematch(self, room: Room, seat: int | None) -> None:
        """``seat`` takes back its wish for the rematch (a wish could not be taken back: one
        who asked and then thought better of it was seated at the rematch the others made)."""
        if seat is None:
            raise ActError("bad_request", "a wish is taken back with the seat's token", 400)
        if room.table.rematch is not None:
            raise ActError("rematch_made", "the rematch is made already: leave it if you wish", 409)
        if room.match is None or not room.match.is_over:
            raise ActError("not_over", "a rematch is there once the match is over")
        before = set(room.wishes)
        try:  # (refused there too if another process made it meanwhile: a thirteenth audit)
            await self.db(self.store.withdraw_wish, room.id, seat, table=room.id)
        except Refused as e:
            raise await self._behind(room, e) from None
        room.wishes = await self.db(self.store.ready_seats, room.id, REMATCH_WISH, table=room.id)
        if room.wishes != before:  # (a repeated request: no news for anyone)
            await self._publish(room, {"kind": "rematch_wish", "seat": seat, "withdrawn": True})
            self.broadcast(room)

    def _all_wish(self, room: Room) -> bool:
        """Every person connected at the table asked for the rematch (someone did), and each
        one who did not has been gone :data:`REMATCH_GRACE` seconds without a break (a
        blip, or two, is not a no: an eleventh audit dropped a player after two blips of
        half a second, and a request of the other's landing in one blip skipped the grace)."""
        return bool(room.wishes) and self._grace_left(room) == 0.0 and self._all_there_asked(room)

    @staticmethod
    def _all_there_asked(room: Room) -> bool:
        """Every person connected at the table asked for the rematch (those gone may not yet
        have been gone the grace)."""
        return all(
            s in room.wishes
            for s, st in enumerate(room.seats)
            if st.kind == "human" and room.connected(s)
        )

    def _grace_left(self, room: Room) -> float:
        """Seconds until every person gone who did not ask has been gone the grace."""
        now = self.clock()
        left = 0.0
        for s, st in enumerate(room.seats):
            if st.kind == "human" and s not in room.wishes and not room.connected(s):
                since = room.away_since.get(s, now)
                left = max(left, REMATCH_GRACE - (now - since))
        return left

    async def _make_rematch(
        self, room: Room, by_wish: bool = True, maker: str | None = None
    ) -> str | None:
        """Make the rematch of ``room`` (over), or find the one made before: its id. Made on
        the players' wishes, the seat of a person who did not ask (they left: everyone there
        asked) goes to a :data:`REMATCH_BOT` — they said no by leaving; seated, they came back
        to nothing that said so, and the others waited at each of their turns (a sixth review).
        Then the host token does not go along either: a host gone without asking could close
        the others' rematch, a game against bots for them (an eleventh audit). ``None``: not
        now — who asked and who is there, read again from the database and the bus, say the
        wishes are not agreed. Made by the host, everyone keeps their seat."""
        seed = random.SystemRandom().getrandbits(63)
        if by_wish and room.table.rematch is None:
            # the database says who asked (an event of another process's may be late) and the
            # bus who is there (a seat held on another process read as gone: an eleventh
            # audit)
            room.wishes = await self.db(
                self.store.ready_seats, room.id, REMATCH_WISH, table=room.id
            )
            with contextlib.suppress(BusError):
                room.remote_seats, room.remote_clients = await self.bus.presence(room.id)
            if not self._all_wish(room):
                return None
        bots = {
            s: REMATCH_BOT
            for s, st in enumerate(room.seats)
            if by_wish and st.kind == "human" and s not in room.wishes
        }
        # (a host token nobody holds) — and so where a person left the game in play: the host
        # who left, their seat the stand-in's, went along with the rematch the other player
        # asked for, replaced its invite and sent away the friend they had invited (a
        # fifty-third audit; the fourteenth's, by another road). The host who stayed and asked
        # beside their seat keeps it (REMATCH_HOST)
        # (left in play here, or at a table before it in the chain: the seat of a host who
        # left, made the rematch with their token and is gone again is a nameless bot's here)
        gone = by_wish and (
            any(st.left_in_play for st in room.seats)
            or bool(await self.db(self.store.ready_seats, room.id, LEFT_BEFORE, table=room.id))
        )
        host = token_hash(new_token()) if bots or gone else None
        async with self._creating:  # counted with its maker's tables, as a new table is
            # (made on wishes, it may be the tables of the address of a seat that asked: the
            # store counts them as it decides — here the server's bound alone, early)
            caps = await self._check_capacity(None if by_wish else maker or room.table.owner)
            wishes = frozenset(room.wishes) if by_wish else None
            try:
                new_id, made = await self.db(
                    self.store.create_rematch,
                    room.id,
                    new_table_id(),
                    seed,
                    caps,
                    bots,
                    host,
                    wishes,
                    # (a new match: keyed, whatever its table was made with — the rematches of
                    # a table made before keys were kept went on drawing a stream's seeds, a
                    # code review)
                    {SEEDING: "keyed"},
                    maker,
                    table=room.id,
                )
            except Refused as e:
                if e.code != "wishes_changed":
                    raise ActError.refused(e) from None
                # a wish it counted on was taken back (on another process) meanwhile: not now
                room.wishes = await self.db(
                    self.store.ready_seats, room.id, REMATCH_WISH, table=room.id
                )
                self.broadcast(room)
                return None
        async with room.lock:
            await self._refresh_row(room)
        if made:
            self.broadcast(room)
            await self._publish(room, {"kind": "table"})
        return new_id

    @staticmethod
    def _rematch_pending(room: Room) -> bool:
        """Someone asked for the rematch of ``room`` (over), and it is not made yet."""
        return bool(room.wishes) and room.table.rematch is None and room.status == "over"

    def _rematch_agreed(self, room: Room, graced: bool = True) -> bool:
        """Everyone still connected asked for the rematch, one who asked among them, and (if
        ``graced``) each one gone who did not ask has been gone the grace."""
        if not self._rematch_pending(room) or self._closing:
            return False
        if not any(room.connected(s) for s in room.wishes):
            return False
        return self._all_wish(room) if graced else self._all_there_asked(room)

    def _rematch_if_agreed(self, room: Room) -> None:
        """After someone left: if everyone still connected has asked for the rematch, make it
        (the one who had not asked had held it up; their seat goes to a bot) — once they have
        stayed away :data:`REMATCH_GRACE` seconds (a connection's blip is not a no). Only
        while one who asked is still there: a wish is not kept for later (a tenth audit: a
        wish refused at the cap on open tables, stored, made the rematch hours later when
        another player, who had never asked, came to read the results and left). A refusal
        (the cap) is tried again after :data:`REMATCH_RETRY` seconds at the soonest, and said
        once in the log."""
        if room.rematch_waiting or not self._rematch_agreed(room, graced=False):
            return
        if self.clock() - room.rematch_refused_at < REMATCH_RETRY:
            return
        room.rematch_waiting = True

        async def make() -> None:
            try:
                while True:  # (until the last one gone has been gone the grace)
                    await asyncio.sleep(max(0.05, self._grace_left(room)))
                    if self._grace_left(room) <= 0 or not self._rematch_pending(room):
                        break
                if not self._rematch_agreed(room):
                    return
                await self._make_rematch(room)
            except ActError as e:
                if room.rematch_refused_at < 0:
                    log.warning("table %s: rematch not made (%s)", room.id, e)
                room.rematch_refused_at = self.clock()
            finally:
                room.rematch_waiting = False

        self._spawn(make())

    def check_bot(self, spec: Any) -> str:
        """The canonical spec of a bot this server seats (:class:`ActError` 400 otherwise)."""
        try:
            return check_spec(spec, self.settings.max_bot_think)
        except BotRefused as e:
            raise ActError("bad_bot", str(e), 400) from None

    async def open_table(
        self, table_id: str, invite: Any, token: Any, addr: str | None = None
    ) -> tuple[Room, str]:
        """The room of ``table_id`` if a request with ``invite`` and ``token`` may see it, and
        how it may (:func:`access`: ``"public"``, ``"seat"``, ``"host"`` or ``"invite"``).
        Otherwise the same 404 as a table that does not exist, after the same work — one read
        of the table's row — and before the table is loaded or marked as used: a stranger
        learns nothing of a private table, not even that it is there, and wakes nothing."""
        room = self.rooms.get(table_id)
        how = None if room is None else access(room.table, room.seats, invite, token)
        # what a table that does not exist costs too: one read of its row; and an invite is
        # the stored one (replaced on another process a moment ago, the old one still opened
        # the table here until the bus told: 7 times in 10, a tenth scale audit)
        fresh = None
        if how is None or how == "invite":
            fresh = await self.db(self.store.table, table_id, table=table_id)
            how = None if fresh is None else access(fresh, fresh.seats, invite, token)
            if how is None:
                raise ActError("not_found", f"no table {table_id!r}", 404)
        # a table's own people (a seat's token, the host's) load a table not over without the
        # address's --load-rate: after a process's restart every person there came back through
        # another at once, and past five from one address (an office's) each waited ten
        # seconds, the table stood and their chat lines were lost (a nineteenth scale audit).
        # Not a finished one: a host's tokens of long finished matches, made at --create-rate
        # and kept, would load them at the request rate (a code review); what is not over is
        # bounded by --tables-per-address
        own = how in ("seat", "host") and fresh is not None and fresh.status != "over"
        # and a table waiting to start loads without it for anyone: it has no match to play
        # again, and its people come to join it — one made a moment ago on another process,
        # joined through this one behind a load balancer, was refused past five tables from one
        # address (a school's) and its start then failed (a thirtieth scale audit)
        waiting = fresh is not None and fresh.status == "waiting"
        return await self.room(table_id, None if own or waiting else addr), how

    async def new_invite(self, room: Room, token: str | None) -> str:
        """A new invite for a private table (the host's; 409 ``not_private`` for a public
        one). The old invite opens nothing any more, and the table's spectators — every one of
        them came in by the invite — are sent away (an ``error`` ``invite_revoked``, then the
        socket closes), here and, through the table's event, in every other process. Seated
        players keep their seats: their tokens open the table. The tables of its rematch
        chain that share its invite and its host share the new one: the old link opens none of
        them (a rematch made without the host keeps its own: :meth:`Store.set_invite`)."""
        self.check_host(room, token)
        if not room.table.private:
            raise ActError("not_private", "only a private table has an invite")
        invite = new_token()
        async with room.lock:
            try:
                ids = await self.db(
                    self.store.set_invite, room.id, token_hash(invite), table=room.id
                )
            except Refused as e:
                raise ActError.refused(e) from None
            await self._refresh_row(room)
        for other in ids:
            loaded = self.rooms.get(other)
            if other != room.id and loaded is not None:
                async with loaded.lock:
                    await self._refresh_row(loaded)
        for other in ids:
            await self._publish_id(other, {"kind": "table"})
        return invite

    async def close_table(self, room: Room, token: str | None) -> None:
        """The host closes the table: it is deleted (seats, moves, chat), and every client at
        it, here and in every other process, is sent away (``table_closed``). A table waiting
        to start, or one in play where at most one seat is a person's (a game against bots); not
        one where others play, nor a finished one (its records and replays stay). A browser that
        left its quick games for bots unfinished could make no new table for a day
        (``--tables-per-address``), with no way to end one (a third review)."""
        self.check_host(room, token)

        def closable(table: Table) -> str | None:
            if table.status == "over":
                return "a finished table stays, with its records and replays"
            # (a seat its person left in play counts as theirs: one who left must not close
            # the match of the one still playing)
            # (and one left in play at a table before it in the rematch chain: a host who
            # left made the rematch, or the other player asked for it, and closed it in play)
            people = sum(
                1
                for s in table.seats
                if s.kind == "human" or s.left_in_play or s.seat in table.left_before
            )
            if table.status == "playing" and people > 1:
                return "others play at this table: it is not closed in the middle of their match"
            return None

        async with room.lock:
            try:
                before = await self.db(self.store.delete_table, room.id, closable, table=room.id)
            except Refused as e:
                raise ActError.refused(e) from None
        await self._drop_closed(room)
        await self._publish_id(room.id, {"kind": "closed"})
        for old_id in before:  # (it was their rematch: they have none now)
            old = self.rooms.get(old_id)
            if old is not None:
                async with old.lock:
                    await self._refresh_row(old)
                    old.wishes = await self.db(
                        self.store.ready_seats, old_id, REMATCH_WISH, table=old_id
                    )
                self.broadcast(old)
            await self._publish_id(old_id, {"kind": "table"})

    async def _drop_closed(self, room: Room) -> None:
        """A table deleted by its host: its clients are sent away and it leaves memory."""
        for c in list(room.clients):
            c.dismiss("table_closed", "the host closed this table", 4404)
        await self._unload(room)

    def _check_watchers(self, room: Room) -> None:
        """After the table's row changed: a spectator of a private table stays only while
        what let it in still does — the host token, or the invite it came by (not one the host
        replaced, nor a seat token that holds nothing any more)."""
        table = room.table
        if table.invite is None:
            return
        for c in list(room.clients):
            if c.seat is not None or c.host or c.invite == table.invite:
                continue
            if c.invite is not None:
                c.dismiss(
                    "invite_revoked",
                    "the host replaced this private table's invite link: ask them for the new one",
                    4403,
                )
            else:  # came in by a seat it no longer holds
                c.dismiss("not_found", f"no table {table.id!r}", 4404)

    def check_host(self, room: Room, token: str | None) -> None:
        if not token:
            raise ActError("unauthorized", "this needs the table's host token", 401)
        if not _matches(token, [room.table.host_token]):
            raise ActError("unauthorized", "wrong host token", 403)

    async def seat_of(self, room: Room, token: Any) -> tuple[int | None, str | None]:
        """The seat a seat token holds and the token's hash (``(None, None)`` for no token);
        :class:`ActError` if the token holds no seat here. A token this process does not know
        is looked up in the database (another process may have issued it)."""
        if token is None:
            return None, None
        if not isinstance(token, str) or len(token) > 128:
            raise ActError("unauthorized", "a token is a string from this server", 401)
        h = token_hash(token)
        for attempt in range(2):
            for s, st in enumerate(room.seats):
                if st.token is not None and secrets.compare_digest(st.token, h):
                    return s, h
            if attempt == 0:
                await self._read_for_tokens(room)
        raise ActError("unauthorized", "this token holds no seat at this table", 403)

    async def coming_back(self, room: Room, seat: int) -> bool:
        """A hello with ``seat``'s token: if its person was away at a table in play (a stand-in
        may be playing for them), the seat is marked back in the database at the version stored
        now, and a stand-in's move stored before is read first — so that the turn the hello
        shows is theirs to play (a forty-fifth audit: a worker's stand-in, its check of the
        presence on Redis passed, stored its move 2 ms after the returning player was shown
        their turn). Whether it waited for that (the caller then reads the seat again: the
        seats may have changed meanwhile). Not in one process, whose stand-ins move under the
        room's lock (:meth:`act` refuses them once the player is connected)."""
        # (whatever this room says of the turn: a room an event behind the database did not
        # mark, and the player was shown the turn the event brought — a code review)
        if (
            isinstance(self.workers, LocalWorkers)
            or room.match is None
            or room.status != "playing"
            or room.seats[seat].kind != "human"
            or room.connected(seat)
        ):
            return False
        # (not marked — the database away, the row held locked — the hello goes on as before
        # the mark was made: it failed with the database, or waited the lock's 30 s, and the
        # player met an error, a code review; the wait bounds the lock and the mark, not the
        # reading after it, which a cancellation would leave half done, a second review)
        deadline = asyncio.get_running_loop().time() + BACK_MARK_WAIT
        try:
            async with asyncio.timeout_at(deadline):
                await room.lock.acquire()
        except TimeoutError:
            log.warning("table %s: seat %d back, not marked (the room is busy)", room.id, seat)
            return True
        try:
            try:
                async with asyncio.timeout_at(deadline):
                    stored = await self.db(self.store.seat_back, room.id, seat, table=room.id)
            except (ActError, TimeoutError) as e:
                why = str(e) or type(e).__name__  # (a timeout says nothing of itself)
                log.warning("table %s: seat %d back, not marked (%s)", room.id, seat, why)
                return True
            if stored is not None and stored != room.version:
                await self._refresh_row(room)
        finally:
            room.lock.release()
        return True

    async def _read_for_tokens(self, room: Room) -> None:
        """Read the row again for a token this room does not know. Hellos that arrive together
        share one read, which starts after they arrived (so a token stored before its hello is
        always seen), and a room reads at most once every :data:`TOKEN_REREAD` seconds (a flood
        of strangers' hellos costs the database little)."""
        task = room.token_read
        if task is None:
            task = asyncio.get_running_loop().create_task(self._token_read(room))
            room.token_read = task
        await asyncio.shield(task)

    async def _token_read(self, room: Room) -> None:
        wait = room.token_read_at + TOKEN_REREAD - self.clock()
        if wait > 0:
            await asyncio.sleep(wait)
        room.token_read = None  # hellos from now on wait for the next read
        room.token_read_at = self.clock()
        async with room.lock:  # never beside an act between its write and its play
            await self._refresh_row(room)

    async def join(
        self, room: Room, name: Any, seat: Any, address: str | None = None
    ) -> tuple[int, str]:
        """Take an open seat (the first one if ``seat`` is ``None``) for a client at
        ``address`` (429 ``too_many_seats`` once it holds ``seats_per_address`` seats at
        waiting tables)."""
        try:
            name = seated_name(name, self.settings.max_name)
        except ReservedName as e:
            raise ActError("name_reserved", str(e), 400) from None
        except Invalid as e:
            raise ActError("bad_request", str(e), 400) from None
        holder = owner_hash(address) if address else None
        cap = None
        if holder is not None:
            st_ = self.settings
            since = shared.now() - timedelta(seconds=st_.table_expiry)
            cap = (since, st_.seats_per_address)
            # refused early without the room's lock; the seat's write counts again, as one step
            if await self.db(self.store.count_seats, since, holder) >= st_.seats_per_address:
                raise ActError.refused(seats_refusal(st_.seats_per_address))
        async with room.lock:
            # any seat: the first open one, and if another process took it meanwhile the next
            # (two friends opening the link at once on two processes: one was told "seat 1 is
            # taken", a seat they never chose, with seats still open: a seventh scale audit)
            anywhere = seat is None
            if not anywhere:
                seat = self._seat_number(room, seat)
            token = new_token()
            for _ in range(room.table.players):
                if anywhere:
                    free = [s for s, st in enumerate(room.seats) if st.kind == "open"]
                    if not free:
                        raise ActError("seat_taken", "no open seat at this table")
                    seat = free[0]
                st = Seat(seat, "human", name, token_hash(token))
                try:
                    taken = await self.db(
                        self.store.set_seat,
                        room.id,
                        seat,
                        st.kind,
                        st.name,
                        st.token,
                        None,
                        True,
                        holder,
                        cap,
                        table=room.id,
                    )
                except Refused as e:
                    raise ActError.refused(e) from None
                if taken:
                    break
                await self._refresh_row(room)
                if not anywhere:
                    raise ActError("seat_taken", f"seat {seat} is taken")
            else:
                raise ActError("seat_taken", "no open seat at this table")
            await self._read_back(room, seat, st)
        self.broadcast(room)
        await self._publish(room, {"kind": "table"})
        await self._seat_lines(room, [{"kind": "joined", "seat": seat, "who": name}], holder)
        return seat, token

    async def set_seat(self, room: Room, seat: int, bot: str | None, holder: Any = ...) -> None:
        """Before the start: seat a bot (``bot``), or open the seat (``None``). ``holder``, if
        given: the seat's public holder (``holder`` of the TABLE's seat, ``None`` for a bot's or
        an open seat) as the host saw it — 409 ``holder_changed`` if the seat changed hands since
        (a host putting out a player who moved meanwhile was told "done" and put out nobody,
        or the next person: a twenty-second audit)."""
        if (
            holder is not ...
            and holder is not None
            and not (isinstance(holder, str) and len(holder) <= 16)
        ):
            raise ActError("bad_request", "holder must be a seat's holder id (8 hex digits)", 400)
        async with room.lock:
            if room.status != "waiting":
                raise ActError("started", "seats change only before the start")
            self._seat_number(room, seat)
            if bot is not None:
                bot = self.check_bot(bot)
            st = Seat(seat, "bot", bot=bot) if bot is not None else Seat(seat, "open")
            held_by = None if holder is ... else (lambda stored: holder_id(stored) == holder)
            try:
                kind, name = await self.db(
                    self.store.set_waiting_seat,
                    room.id,
                    seat,
                    st.kind,
                    st.bot,
                    held_by,
                    table=room.id,
                )
            except Refused as e:
                await self._refresh_row(room)
                raise ActError.refused(e) from None
            await self._read_back(room, seat, st)
        self.broadcast(room)
        await self._publish(room, {"kind": "table"})
        if kind == "human":  # (the host put them out: who was there as stored)
            out = {"kind": "put_out", "seat": seat, "who": name or "", "bot": bot is not None}
            await self._seat_lines(room, [out], "host")

    async def leave(self, room: Room, token: str | None, address: str | None = None) -> int:
        """Before the start, the holder of a seat token gets up: the seat is open again and the
        token holds nothing (its sockets watch on). Not a removal: nobody is barred. The seat
        left."""
        if not token:
            raise ActError("unauthorized", "leaving a seat needs its seat token", 401)
        return await self._change_own_seat(
            room,
            token,
            "a seat is left only before the start",
            lambda seat, h: self.store.leave_waiting_seat(room.id, seat, h),
            lambda old: Seat(old.seat, "open"),
            lambda old, new: {"kind": "left", "seat": old.seat, "who": old.name or ""},
            address,
        )

    async def leave_game(self, room: Room, token: str | None, address: str | None = None) -> int:
        """While the match is playing, the holder of a seat token leaves the game for good: the
        stand-in bot (``Settings.standin``) plays the seat to the match's end, at once — the others
        waited ``--away-timeout`` for a player who had closed the page meaning to go, with no
        way to say so (a forty-first review) — and the token holds nothing (its sockets are
        told ``seat_revoked`` and watch on). The seat left."""
        if not token:
            raise ActError("unauthorized", "leaving a game needs its seat token", 401)
        seat, h = await self.seat_of(room, token)  # (seats do not change hands in play)
        assert seat is not None and h is not None
        async with room.lock:
            if room.status != "playing":
                raise ActError(
                    "not_playing" if room.status == "over" else "not_started",
                    "a game is left only while the match is playing",
                )
            bot = self.settings.standin
            try:
                name = await self.db(
                    self.store.hand_seat_to_bot, room.id, seat, h, bot, table=room.id
                )
            except Refused as e:
                await self._refresh_row(room)
                raise ActError.refused(e) from None
            await self._read_back(room, seat, Seat(seat, "bot", bot=bot))
            room.away_since.pop(seat, None)
            room.changed.set()  # the driver looks again: a bot's seat now
        self.broadcast(room)
        await self._publish(room, {"kind": "table"})
        said = {"kind": "left", "seat": seat, "who": name or "", "bot": True}
        await self._seat_lines(room, [said], owner_hash(address) if address else h)
        return seat

    async def rename(
        self, room: Room, token: str | None, name: Any, address: str | None = None
    ) -> int:
        """Before the start, the holder of a seat token changes the name it sits under (a blank
        name became "Player N" for good: a second review). The seat."""
        if not token:
            raise ActError("unauthorized", "changing a name needs the seat's token", 401)
        try:
            name = seated_name(name, self.settings.max_name)
        except ReservedName as e:
            raise ActError("name_reserved", str(e), 400) from None
        except Invalid as e:
            raise ActError("bad_request", str(e), 400) from None
        return await self._change_own_seat(
            room,
            token,
            "a name is changed only before the start",
            lambda seat, h: self.store.rename_waiting_seat(room.id, seat, h, name),
            lambda old: Seat(old.seat, old.kind, name, old.token, old.bot),
            lambda old, new: (
                {
                    "kind": "renamed",
                    "seat": old.seat,
                    "who": new.name or "",
                    "was": old.name or "",
                }
                if old.name != new.name
                else None
            ),
            address,
        )

    async def move_seat(
        self, room: Room, token: str | None, to: Any, address: str | None = None
    ) -> int:
        """Before the start, the holder of a seat token moves to the open seat ``to``: their
        name and token go with them, and their sockets follow. The seat they sit in now."""
        if not token:
            raise ActError("unauthorized", "moving to another seat needs your seat token", 401)
        for again in (False, True):
            # (the token first, then the seat: a stranger learns nothing)
            seat, h = await self.seat_of(room, token)
            assert seat is not None and h is not None
            target = self._seat_number(room, to)
            if seat == target:  # (the seat one holds: nothing to do, but not after the start)
                if room.status != "waiting":
                    raise ActError("started", "seats change only before the start")
                return target
            try:
                await self._swap(room, seat, target, h, owner_hash(address) if address else h)
                return target
            except ActError as e:
                if again or not _swapped_meanwhile(room, e.code, h):  # (from there, once)
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def swap_seats(self, room: Room, a: Any, b: Any) -> None:
        """Before the start, the host has seats ``a`` and ``b`` trade places: the people
        (their tokens with them), bots or open places in them."""
        a, b = self._seat_number(room, a), self._seat_number(room, b)
        if a == b:
            raise ActError("bad_request", "a swap takes two different seats", 400)
        await self._swap(room, a, b, None, "host")

    def _seat_number(self, room: Room, seat: Any) -> int:
        """``seat`` if it is one of the table's seats (:class:`ActError` 400 for anything but a
        whole number, 404 for a number past the table)."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ActError("bad_request", f"seat must be a number, not {repr(seat)[:40]}", 400)
        if not 0 <= seat < room.table.players:
            raise ActError("not_found", f"no seat {seat} (seats 0..{room.table.players - 1})", 404)
        return seat

    async def _swap(self, room: Room, a: int, b: int, token: str | None, by: str) -> None:
        """Seats ``a`` and ``b`` trade places in the store (``token``: the hash of the seat
        token whose holder moves from ``a`` to the open ``b``), then here as stored."""
        async with room.lock:
            if room.status != "waiting":
                raise ActError("started", "seats change only before the start")
            before = list(room.seats)
            try:
                await self.db(self.store.swap_waiting_seats, room.id, a, b, token, table=room.id)
            except Refused as e:
                await self._refresh_row(room)
                raise ActError.refused(e) from None
            # here as stored (another process may have seated someone), told to every client
            await self._refresh_row(room)
            after = list(room.seats)
        await self._publish(room, {"kind": "table"})
        # each person the swap moved (by their token's hash: their name goes with them)
        moved = [
            {"kind": "moved", "seat": y, "who": after[y].name or "", "from": x}
            for x, y in ((a, b), (b, a))
            if before[x].kind == "human" and before[x].token and after[y].token == before[x].token
        ]
        await self._seat_lines(room, moved, by)

    async def _change_own_seat(
        self,
        room: Room,
        token: str,
        started: str,
        write: Callable[[int, str], str | None],
        holding: Callable[[Seat], Seat],
        line: Callable[[Seat, Seat], dict[str, Any] | None],
        address: str | None = None,
    ) -> int:
        """Before the start, the seat ``token`` holds changes as its holder asks: ``write(seat,
        token's hash)`` stores it (on a database thread) and returns the name the seat had,
        ``holding(old)`` is the seat after; the others are told, and ``line(old, new)`` is what
        the chat says of it (nothing if ``None``). The seat."""
        for again in (False, True):
            # (a token another process issued is looked up in the database, as for a hello)
            seat, h = await self.seat_of(room, token)
            assert seat is not None and h is not None
            async with room.lock:
                if room.status != "waiting":
                    raise ActError("started", started)
                try:
                    name = await self.db(write, seat, h, table=room.id)
                except Refused as e:
                    await self._refresh_row(room)
                    if not again and _swapped_meanwhile(room, e.code, h):  # (from there, once)
                        continue
                    raise ActError.refused(e) from None
                old = Seat(seat, "human", name, h)
                new = holding(old)
                await self._read_back(room, seat, new)
            break
        self.broadcast(room)
        await self._publish(room, {"kind": "table"})
        said = line(old, new)
        if said is not None:
            await self._seat_lines(room, [said], owner_hash(address) if address else h)
        return old.seat

    async def _read_back(self, room: Room, seat: int, st: Seat) -> None:
        """The table's seats as stored, after this process wrote ``st`` into ``seat``: its copy
        may be behind another process's change (a person moved to another seat there), and
        changed only where it was written here it took the seat from the person it still had
        there — their socket told seat_revoked, and the page forgetting a token that held a
        seat (an eighth scale audit). If the read fails (the write is stored: the request must
        not fail now, a joiner left without the token of a seat taken), the one seat as
        written; the bus's event or the next read brings the rest."""
        try:
            await self._refresh_row(room)
        except (ActError, StoreError) as e:
            log.warning("table %s: seats not read back after a change (%s)", room.id, e)
            self._seat_changed(room, seat, st)
            self._check_watchers(room)

    def _seat_changed(self, room: Room, seat: int, st: Seat) -> None:
        """``seat`` now has the holding ``st`` (see :meth:`_seats_changed`)."""
        self._seats_changed(room, {seat: st})  # (one seat: no client can follow it elsewhere)

    def _seats_changed(self, room: Room, changes: Mapping[int, Seat]) -> bool:
        """The seats ``changes`` names now have its holdings, all at once. A client bound to
        one of them follows its seat token where the change took it (a seat move or swap
        before the start); every other client bound to another holding is demoted to a
        spectator at once, and told why. Whether any client followed its seat."""
        for seat, st in changes.items():
            room.seats[seat] = st
        room.revision += 1
        followed = False
        for c in list(room.clients):
            if c.seat is None or c.seat not in changes or c.holder == room.seats[c.seat].token:
                continue
            follows = [x for x in changes if c.holder and room.seats[x].token == c.holder]
            if follows:
                c.seat, followed = follows[0], True
                continue
            told = c.seat
            c.seat, c.holder = None, None
            c.tell(
                {
                    "type": "error",
                    "code": "seat_revoked",
                    "message": f"seat {told} changed hands: you are watching now",
                }
            )
            if c.demoted is not None:
                c.demoted()
        for seat in changes:
            if not room.connected(seat):
                room.away_since.setdefault(seat, self.clock())
            else:
                room.away_since.pop(seat, None)
        return followed

    async def start_table(self, room: Room, fill: str | None) -> None:
        async with room.lock:
            if room.status != "waiting":
                raise ActError("started", "the table has already started")
            if fill is not None:
                fill = self.check_bot(fill)
            try:  # one transaction: two starts (on two processes) give one result
                table = await self.db(self.store.start_table, room.id, fill, table=room.id)
            except Refused as e:
                await self._refresh_row(room)
                raise ActError.refused(e) from None
            room.table = table
            changes = {s: st for s, st in enumerate(table.seats) if st != room.seats[s]}
            if changes:
                self._seats_changed(room, changes)
            self._check_watchers(room)
            room.match = self._new_match(room)
            now = self.clock()
            room.turn_started = now
            room.away_since = {s: now for s in range(room.table.players) if not room.connected(s)}
        self._ensure_driver(room)
        self.broadcast(room)
        await self._publish(room, {"kind": "table"})

    # ------------------------------------------------------------------ actions
    async def act(
        self,
        room: Room,
        seat: int | None,
        action: Any,
        version: Any,
        by: str = "human",
        holder: str | None = None,
    ) -> None:
        """Apply ``action`` for ``seat`` if it is legal now, store it, then tell the clients.
        A human's ``holder`` (the hash of the seat token the client holds the seat by) must
        still hold the seat."""
        async with room.lock:
            m = room.match
            if seat is None:
                raise ActError("unauthorized", "a spectator cannot act", 403)
            if by == "human" and (holder is None or room.seats[seat].token != holder):
                raise ActError("seat_revoked", f"seat {seat} is no longer yours")
            if m is None:
                raise ActError("not_started", "the table has not started")
            if m.is_over:
                raise ActError("over", "the match is over")
            if version is None:
                raise ActError("bad_message", "act needs the version it acts on", 400)
            if not isinstance(version, int) or isinstance(version, bool):
                # 1.0 == 1 passed, then went out as version 2.0 in the event to the other
                # processes, which drop a version that is no whole number: they never played the
                # move (a fifth audit: the other side's players froze a turn behind)
                raise ActError(
                    "bad_message", f"version is a whole number, not {type(version).__name__}", 400
                )
            if version != room.version:
                raise ActError(
                    "stale_version",
                    f"the table is at version {room.version}, not {version}: "
                    "look at the new state first",
                )
            if m.to_play != seat:
                raise ActError("not_your_turn", f"it is seat {m.to_play}'s turn, not {seat}'s")
            if by == "human":
                st, now = self.settings, self.clock()
                if room.human_moves is None:
                    room.human_moves = TokenBucket(st.table_move_rate, st.table_move_burst, now)
                # this process's bucket, then one across every process (on Redis): a table's
                # people on two processes made twice the moves (a sixteenth audit)
                key, rate, burst = f"moves:{room.id}", st.table_move_rate, st.table_move_burst
                if (
                    not room.human_moves.take(now)
                    or await self.bus.spend(key, rate, burst) is False
                ):
                    raise ActError(
                        "rate_limited",
                        f"at most {rate:g} moves a second at one table: wait a little",
                    )
            if self._too_long(room):
                raise ActError(
                    "game_too_long",
                    f"this game has had {self.settings.max_game_actions} actions, the most this "
                    "server allows for one game: the table stops here",
                )
            if self._between_open(room):
                raise ActError(
                    "between_games",
                    "the next game starts once every player is ready or the countdown ends",
                )
            if by in ("away", "timeout") and self._who_moves(room)[0] != by:
                # the player came back (or moved) while the stand-in thought: the move is
                # theirs again (a returning player watched a bot play the turn they were shown)
                raise ActError("player_back", f"seat {seat}'s player is back: theirs to play")
            if by == "bot" and room.seats[seat].kind != "bot":  # (taken back: see _reclaim)
                raise ActError("player_back", f"seat {seat}'s player is back: theirs to play")
            if not isinstance(action, str) or not action.strip():
                raise ActError("bad_message", "an action is a non-empty string", 400)
            if len(action) > MAX_ACTION:  # (the engine's refusal would quote it all back)
                raise ActError("bad_message", f"an action is at most {MAX_ACTION} characters", 400)
            g = m.game
            try:
                canon = g.action_str(g.parse_action(action))
                # (checked as such: looked up in every legal action, a Daifugo choice of seven
                # cards of 21 cost a second of the loop at each refused act, a 29th audit)
                if not m.is_legal(canon):
                    m.play(canon)  # raises IllegalAction saying why; the match is unchanged
                    raise ActError("illegal", f"{canon!r} is not legal now")  # pragma: no cover
            except TorampuError as e:  # IllegalAction among them: the engine's own words
                raise ActError("illegal", str(e)) from None
            # stored first, on the database threads (the other tables go on while this write
            # commits); the match and every snapshot move on only once it is stored
            status, played, result = status_after(m, canon)
            at = shared.now()
            try:
                await self.db(
                    self.store.append_action,
                    room.id,
                    room.version,
                    seat,
                    canon,
                    by,
                    status,
                    played,
                    at,
                    result,
                    holder if by == "human" else None,
                    table=room.id,
                )
            except (StaleVersion, ActError) as e:
                log.warning("table %s: write refused (%s); reloading", room.id, e)
                with contextlib.suppress(Exception):
                    await self._refresh_row(room)
                self.broadcast(room)
                if isinstance(e, SeatNotHeld):
                    raise ActError("seat_revoked", f"seat {seat} is no longer yours") from None
                if isinstance(e, StaleVersion):
                    raise ActError("stale_version", "another move was stored first") from None
                raise
            if room.version != version:  # pragma: no cover - every reader takes the lock
                # the row was read again while the write committed, this action with it
                log.error("table %s: the row was read during a write; not played twice", room.id)
            else:
                before = m.games_played
                m.play(canon)
                room.version += 1
                room.revision += 1
                room.last = {"seat": seat, "action": canon, "by": by}
                _stood_in(room.stood_in, seat, by, canon, before)
                self._moved(room, before, at.timestamp())
                room.turn_started = self.clock()
                room.touched = room.turn_started
                room.changed.set()
        self.broadcast(room)
        step = {"seat": seat, "action": canon, "by": by, "at": at.isoformat()}
        await self._publish(room, {"kind": "action", "version": version + 1, "action": step})

    async def _publish(self, room: Room, event: dict[str, Any]) -> None:
        """Tell the other processes (a failure only delays them: they read the database again
        when the bus is back, and poll it meanwhile)."""
        await self._publish_id(room.id, event)

    async def _publish_id(self, table_id: str, event: dict[str, Any]) -> None:
        if event.get("kind") in ("table", "closed"):
            self.rows_changed += 1
        if not self.bus.healthy:
            # known down: do not wait out another command's timeout (5 s) in a request; the
            # table is announced once the bus answers, and the others poll the database now
            self._unpublished.add(table_id)
            return
        try:
            await self.bus.publish(table_id, event)
        except BusError as e:
            log.warning("table %s: event not published (%s)", table_id, e)
            self._unpublished.add(table_id)

    # ------------------------------------------------------------------ other processes
    async def _on_event(self, table_id: str, event: dict[str, Any]) -> None:
        """Another process changed a table this process has loaded: read what changed from the
        database (the event only says that something did) and tell the clients here."""
        kind = event.get("kind")
        if kind in ("table", "closed"):
            self.rows_changed += 1
        room = self.rooms.get(table_id)
        if room is None:
            return
        if kind == "presence":
            await self._refresh_presence(room)
            return
        if kind == "closed":
            # (the database says so, not the event: a forged one closes nothing)
            if await self.db(self.store.table, table_id, table=table_id) is None:
                await self._drop_closed(room)
            return
        if kind == "chat":
            s = self.settings
            msg = _bus_chat(event.get("message"), room.table.players, s.max_chat, s.max_name)
            if msg is not None:
                self._tell_chat(room, msg)
            return
        if kind == "rematch_wish":
            seat = event.get("seat")
            # (the database says so, not the event: a forged one asks for nobody, and reads
            # the database only where it would change something)
            news = seat in room.wishes if event.get("withdrawn") else seat not in room.wishes
            if isinstance(seat, int) and room.status == "over" and news:
                before = room.wishes
                room.wishes = await self.db(
                    self.store.ready_seats, room.id, REMATCH_WISH, table=room.id
                )
                if room.wishes != before:
                    self.broadcast(room)
            return
        if kind == "ready":
            b, seat = room.between, event.get("seat")
            if b is not None and event.get("game") == b.game and isinstance(seat, int):
                b.ready.add(seat)
                self._between_open(room)
                self.broadcast(room)
            return
        async with room.lock:
            if kind == "action":
                version = event.get("version")
                if not isinstance(version, int) or version <= room.version:
                    return
                step = event.get("action")
                if version == room.version + 1 and isinstance(step, dict) and room.match:
                    # the event carries what was stored: the next action, played as is (the
                    # engine checks it); anything else is read from the database
                    try:
                        at = step.get("at")
                        action = Action(
                            version,
                            int(step["seat"]),
                            str(step["action"]),
                            str(step["by"]),
                            datetime.fromisoformat(at) if isinstance(at, str) else None,
                        )
                        if room.match.to_play == action.seat:
                            self._apply_actions(room, [action])
                            self.broadcast(room)
                            return
                    except (KeyError, TypeError, ValueError, TorampuError):
                        pass
                await self._catch_up(room)
            elif kind == "table":
                await self._refresh_told(room)

    async def read_again(self, room: Room) -> None:
        """Read the table's row and the actions this room has not seen from the database
        (an event about them may have been lost); a failed read changes nothing."""
        async with room.lock:
            with contextlib.suppress(ActError):
                await self._refresh_row(room)

    async def _refresh_told(self, room: Room) -> None:
        """:meth:`_refresh_row`, and what another process tells by an event alone — the ready
        marks of the pause or the rematch's wishes, and chat lines — read from the database
        too: their events are lost while the bus is down, and the table is announced again
        (a ``table`` event) or polled for its row alone (a tenth scale audit: a line said,
        a Ready or a rematch asked during a Redis outage never reached the others)."""
        await self._refresh_row(room)
        if self.rooms.get(room.id) is not room:  # (its row gone: dropped)
            return
        b = room.between
        before = (set(b.ready) if b is not None else None, set(room.wishes))
        await self._read_ready(room)
        if (set(b.ready) if b is not None else None, set(room.wishes)) != before:
            self._between_open(room)
            self.broadcast(room)
        held = {m.get("id") for m in (*room.chat, *room.seat_chat)}
        oldest = min((i for i in held if isinstance(i, int)), default=0)
        for c in await self.db(
            self.store.recent_chat, room.id, self.settings.chat_history, table=room.id
        ):
            if c.id not in held and c.id > oldest:  # (older ones: let go, not lost)
                self._tell_chat(room, self._chat_message(c))

    async def _catch_up(self, room: Room) -> None:
        """Play the actions stored after this room's version (by another process)."""
        actions = await self.db(self.store.actions, room.id, room.version, table=room.id)
        if actions and room.match is None:
            await self._refresh_row(room)
            return
        if self._apply_actions(room, actions):
            await self._read_ready(room)
            self.broadcast(room)

    def _apply_actions(self, room: Room, actions: list[Any]) -> bool:
        m = room.match
        moved = False
        at: datetime | None = None
        for a in actions:
            if m is None or a.version != room.version + 1:
                continue
            if m.to_play != a.seat:
                raise StoreError(f"table {room.id}: stored action {a.version} out of turn")
            played = m.games_played
            m.play(a.action)
            self._took(room, a, played)
            moved, at = True, a.at
        if moved:
            room.revision += 1
            room.touched = self.clock()
            room.turn_started = self._clock_at(at)
            room.changed.set()
        return moved

    def _clock_at(self, at: datetime | None) -> float:
        """This process's clock at the moment ``at`` (a stored action's time): a turn starts
        when its move before was stored, wherever that was, not when this process heard of it
        (a spectator on another process read 30 s where the player had 18, and a table driven
        from another process after a failover gave the turn its whole time again: a tenth
        scale audit). Now, for a time unknown or still to come."""
        if at is None:
            return self.clock()
        return self.clock() - max(0.0, self.wall() - at.timestamp())

    def _took(self, room: Room, a: Any, played: int) -> None:
        """The stored action ``a`` is the room's newest (its match has played it, with
        ``played`` games finished before it): its version, its last move, its pause."""
        room.version = a.version
        room.last = {"seat": a.seat, "action": a.action, "by": a.by}
        _stood_in(room.stood_in, a.seat, a.by, a.action, played)
        self._moved(room, played, a.at.timestamp() if a.at is not None else self.wall())

    def _moved(self, room: Room, played: int, at: float) -> None:
        """An action stored at ``at`` (epoch seconds) was played, with ``played`` games finished
        before it: the pause between games ends with the next game's first action, and starts
        when an action finishes a game that is not the match's last."""
        m = room.match
        assert m is not None
        room.between = None
        room.hinted.clear()
        if m.games_played > played:
            # a game (or the match) is over: the table lists made before say otherwise (a
            # finished table was served as in play for a second after its last move)
            self.rows_changed += 1
        delay = self._timing(room, "next_game_delay")
        if m.games_played > played and not m.is_over and delay > 0:
            room.between = Between(played, at + delay)

    async def _read_ready(self, room: Room) -> None:
        """The ready marks of the pause (if any), or once the match is over the rematch's
        wishes, from the database."""
        b = room.between
        if b is not None:
            b.ready |= await self.db(self.store.ready_seats, room.id, b.game, table=room.id)
        elif room.status == "over" and room.table.rematch is None:
            room.wishes = await self.db(
                self.store.ready_seats, room.id, REMATCH_WISH, table=room.id
            )

    def _all_ready(self, room: Room) -> bool:
        """Every connected human seat said ready (bots always are; with nobody connected,
        nobody can say it: the countdown runs out)."""
        b = room.between
        assert b is not None
        present = [s for s, st in enumerate(room.seats) if st.kind == "human" and room.connected(s)]
        return bool(present) and all(s in b.ready for s in present)

    def _between_open(self, room: Room) -> bool:
        """Whether the next game must still wait; a pause that has run out (its deadline, or
        everyone ready) ends here, and the first turn of the next game starts now."""
        b = room.between
        if b is None:
            return False
        if self.wall() < b.deadline and not self._all_ready(room):
            return True
        # (the first turn starts at the deadline, on every process, however late this one
        # looks: not when it happens to notice — but not before a turn already started later:
        # a player back at a table nobody was at, its pause long over, had their first turn
        # timed from the old deadline and a stand-in moved at once, a code review)
        late = max(0.0, self.wall() - b.deadline)  # (0 where everyone was ready sooner)
        room.between = None
        room.turn_started = max(room.turn_started, self.clock() - late)
        room.revision += 1
        room.changed.set()
        return False

    @staticmethod
    def _held_seat(room: Room, client: Client, spectator: str) -> int:
        """The seat ``client`` still holds. A spectator is refused (``spectator`` says why), and
        so is a socket whose seat changed hands since its hello."""
        seat = client.seat
        if seat is None:
            raise ActError("unauthorized", spectator, 403)
        if room.seats[seat].token != client.holder:
            raise ActError("seat_revoked", f"seat {seat} is no longer yours")
        return seat

    async def ready(self, room: Room, client: Client) -> None:
        """A seated player is ready for the next game."""
        seat = self._held_seat(room, client, "a spectator has no seat to make ready")
        b = room.between
        if b is None or not self._between_open(room):
            raise ActError("not_between", "no game is waiting to start")
        if seat in b.ready:
            # nothing changes: no snapshot for anyone (a fourth audit: each repeated "ready"
            # pushed the whole table's view to every client of it, 146 to each of 24
            # spectators where pings gave 3)
            return
        try:
            await self.db(self.store.mark_ready, room.id, b.game, seat, table=room.id)
        except Refused as e:  # (deleted on another process: its clients sent away)
            raise await self._behind(room, e) from None
        b.ready.add(seat)
        await self._publish(room, {"kind": "ready", "game": b.game, "seat": seat})
        self._between_open(room)
        self.broadcast(room)

    # ------------------------------------------------------------------ chat and hints
    @staticmethod
    def may_chat(room: Room, client: Client) -> bool:
        """Whether ``client`` reads and writes the table's chat: a seated player, or a
        spectator where the host allowed it."""
        return client.seat is not None or bool(room.table.features.get("spectator_chat"))

    @staticmethod
    def _chat_message(c: Chat) -> dict[str, Any]:
        msg = {
            "type": "chat",
            "id": c.id,
            "seat": c.seat,
            "name": c.name,
            "text": c.text,
            "reaction": c.reaction,
            "at": int(c.at.timestamp() * 1000),
        }
        if c.event is not None:
            msg["event"] = c.event
        return msg

    async def _seat_lines(self, room: Room, events: list[dict[str, Any]], by: str | None) -> None:
        """Say the seat changes ``events`` in the table's chat ("Aki took seat 3",
        :attr:`Chat.event`): stored with its messages, so a later arrival or a reloaded page reads
        them, then told as a message is. Each is a dict of ``kind`` (``joined``, ``left``,
        ``put_out``, ``moved``, ``renamed``, ``reclaimed``), ``seat`` and ``who`` (the name), with
        ``was`` (the name before a rename), ``from`` (a move's first seat) or ``bot`` (a seat the
        host gave a bot). Bounded per table as its players' chat is (``--chat-rate`` × 4, a burst of
        ``--chat-burst`` × 4, on the bus too with several processes) and per person ``by`` (an
        address's hash, or "host") at twice a speaker's chat, on the bus too: past it the seats
        still change, unsaid. The host's lines are bounded as one person's only: two strangers'
        churn spent the table's allowance, and the host putting one of them out went unsaid (a
        twenty-third audit). The lines are kept apart from the messages (:attr:`Room.seat_chat`, and
        in the store), so that a stranger sitting down and getting up again and again never pushes a
        message out of the history. Never fails the change it says."""
        s = self.settings
        now = self.clock()
        n = TABLE_CHAT_SPEAKERS
        if room.seat_lines is None or room.seat_speakers is None:
            room.seat_lines = TokenBucket(s.chat_rate * n, s.chat_burst * n, now)
            # (twice a speaker's chat: friends at one address sit down, move and rename)
            room.seat_speakers = PerKey(s.chat_rate * 2, s.chat_burst * 2, MAX_CHAT_SPEAKERS)
        mine = room.seat_speakers.bucket(by or "?", now)
        shared = by != "host"
        for event in events:
            if (shared and not room.seat_lines.available(now)) or not mine.available(now):
                log.info(
                    "table %s: seat change not said in the chat (too many): %s",
                    room.id,
                    event["kind"],
                )
                continue
            if shared:
                room.seat_lines.take(now)
            mine.take(now)
            try:
                # the person's bound on the bus too, as a speaker's chat is: kept per process
                # alone, a person changing seats through N processes had N times its lines and
                # spent the table's, a newcomer's "joined" unsaid (a fourteenth scale audit)
                # (hashed with the table's id, as a speaker's chat key is: no address's hash
                # is written to Redis)
                person = f"seats:{room.id}:{_person_at(room.id, by or '?')}"
                if await self.bus.spend(person, s.chat_rate * 2, s.chat_burst * 2) is False:
                    continue
                key = f"seats:{room.id}"
                if shared and await self.bus.spend(key, s.chat_rate * n, s.chat_burst * n) is False:
                    continue
                c = await self.db(
                    self.store.add_chat,
                    room.id,
                    event["seat"],
                    None,
                    None,
                    None,
                    event,
                    table=room.id,
                )
            except Refused:  # (the table closed meanwhile: nobody to tell)
                return
            except Exception:  # (the change is made: its line is not worth an error)
                log.exception("table %s: a seat change's chat line was not stored", room.id)
                continue
            await self._send_chat(room, c)

    async def _send_chat(self, room: Room, c: Chat) -> None:
        """A chat row just stored, told to the clients here that may read it and to the other
        processes."""
        msg = self._chat_message(c)
        self._tell_chat(room, msg)
        await self._publish(room, {"kind": "chat", "message": msg})

    def chat_history(self, room: Room, client: Client) -> dict[str, Any] | None:
        """The newest messages, for a client that may read them (sent after ``hello``, when
        there are any)."""
        if not (room.chat or room.seat_chat) or not self.may_chat(room, client):
            return None
        both = sorted([*room.chat, *room.seat_chat], key=lambda m: int(m.get("id") or 0))
        return {"type": "chat_history", "messages": both}

    def _tell_chat(self, room: Room, msg: dict[str, Any]) -> None:
        kept = room.chat if "event" not in msg else room.seat_chat
        if any(old.get("id") == msg.get("id") for old in kept):
            return
        kept.append(msg)
        for c in list(room.clients):
            if self.may_chat(room, c):
                c.tell_chat(msg)

    async def chat(self, room: Room, client: Client, text: Any, reaction: Any) -> None:
        """A chat text or a quick reaction from ``client``: checked, stored, then told to
        every client that may read the chat (in every process)."""
        if not self.may_chat(room, client):
            raise ActError("chat_closed", "spectators may not chat at this table", 403)
        seat = client.seat
        if seat is not None:
            self._held_seat(room, client, "")
        if reaction is not None:
            if text is not None or reaction not in REACTIONS:
                raise ActError("bad_message", "a reaction is one of " + ", ".join(REACTIONS), 400)
        else:
            try:
                text = chat_text(text, self.settings.max_chat)
            except Invalid as e:
                raise ActError("bad_message", str(e), 400) from None
        # the speaker's name as they speak: read after the limits' round trip to Redis, a seat
        # the host swapped meanwhile put the line under the other person's name (an eighth
        # audit's suspicion); a seat that changed hands meanwhile does not speak
        name = room.seats[seat].name if seat is not None else None
        await self._chat_allowed(room, client)
        if client.seat != seat:
            raise ActError("seat_changed", "your seat changed as you spoke: say it again")
        try:
            c = await self.db(
                self.store.add_chat,
                room.id,
                seat,
                name,
                text,
                reaction,
                None,
                client.holder,
                table=room.id,
            )
        except Refused as e:  # (the table closed meanwhile, or the seat changed hands: the
            # socket, its seat gone, watches on — it stayed seated here, a hello with its token
            # let back in by the old copy of the seats, a code review)
            raise await self._behind(room, e) from None
        await self._send_chat(room, c)

    async def _chat_allowed(self, room: Room, client: Client) -> None:
        """The chat limits of the speaker and of the table (:class:`ActError` ``rate_limited``
        past them). A speaker is its seat token (every socket holding it) or, as a spectator,
        its address, so new sockets bring no new allowance; the table's players as a whole
        take :data:`TABLE_CHAT_SPEAKERS` speakers' worth, and its spectators as much apart (a
        seventeenth audit: spectators from a few addresses, each within its own allowance,
        spent the whole table's, and four of ten of the players' messages were refused). With
        several processes the same buckets
        are kept on the bus too, so a speaker with a socket on each process has one allowance,
        not one a process (a third audit: 10 messages a second where the burst is 5); with the
        bus down, each process's own buckets stand alone."""
        s = self.settings
        now = self.clock()
        n = TABLE_CHAT_SPEAKERS
        if room.chat_speakers is None or room.chat_table is None or room.chat_watchers is None:
            room.chat_speakers = PerKey(s.chat_rate, s.chat_burst, MAX_CHAT_SPEAKERS)
            room.chat_table = TokenBucket(s.chat_rate * n, s.chat_burst * n, now)
            room.chat_watchers = TokenBucket(s.chat_rate * n, s.chat_burst * n, now)
        speaker = client.holder or f"@{client.addr}"
        mine = room.chat_speakers.bucket(speaker, now)
        playing = client.seat is not None
        table = room.chat_table if playing else room.chat_watchers
        whose = "its players" if playing else "its spectators"
        refused = ActError(
            "rate_limited",
            f"at most {s.chat_rate:g} chat messages a second from one player "
            f"({s.chat_rate * n:g} from {whose} at one table)",
        )
        if not mine.available(now) or not table.available(now):
            raise refused
        mine.take(now)
        table.take(now)
        # the shared buckets: a speaker by a hash (no token or address is written to Redis)
        who = _person_at(room.id, speaker)
        if await self.bus.spend(f"chat:{room.id}:{who}", s.chat_rate, s.chat_burst) is False:
            raise refused
        shared = f"chat:{room.id}" if playing else f"chat:{room.id}:watchers"
        if await self.bus.spend(shared, s.chat_rate * n, s.chat_burst * n) is False:
            raise refused

    def hint_job(self, room: Room, seat: int) -> BotJob:
        """The search the hint for ``seat`` runs: the seat's own ``view`` and legal actions
        (nothing else of the match), a seed unrelated to the deal, and the server's limits."""
        m = room.match
        assert m is not None and m.to_play == seat, "a hint is for the seat to play"
        think = min(self.settings.hint_think, self.settings.max_bot_think)
        return BotJob(
            f"ismcts:think={think:g}",
            room.table.game,
            random.SystemRandom().getrandbits(63),
            m.view(seat),
            m.legal_actions(),
            limit=think + GRACE,
        )

    async def hint(self, room: Room, client: Client) -> dict[str, Any]:
        """The search bot's suggestion for the seat to play, computed from its view on the
        bot pool: one a turn, where the host allowed hints."""
        if not room.table.features.get("hints"):
            raise ActError("hints_off", "the host did not allow hints at this table", 403)
        seat = self._held_seat(room, client, "a spectator has no hand to hint")
        m = room.match
        if m is None:
            raise ActError("not_started", "the table has not started")
        if m.is_over:
            raise ActError("over", "the match is over")
        if m.to_play != seat:
            raise ActError("not_your_turn", "a hint is for the seat whose turn it is")
        if self._between_open(room):
            raise ActError("between_games", "the next game has not started")
        choose = m.game.choose()
        # (its list alone took a second of the loop: a 29th audit; a Napoleon's discard is
        # listed whole, and hinted)
        if choose is not None and in_part(m):
            raise ActError(
                "no_hint",
                f"no hint for a choice of {choose['ways']:,} ways: choose the cards yourself",
            )
        version = room.version
        if room.hinted.get(seat) == version:
            raise ActError("hint_used", "one hint a turn")
        if self._hinting[client.addr]:
            raise ActError("hint_busy", "a hint of yours is still being worked out", 503)
        # counted at once, before anything awaits: counted after the claim's round trip to
        # Redis, one address's hints asked at once at ten tables all passed the check (a tenth
        # audit)
        self._hinting[client.addr] += 1
        try:
            answer = await self._hint_claimed(room, seat, version)
        finally:
            self._hinting[client.addr] -= 1
            if not self._hinting[client.addr]:
                del self._hinting[client.addr]
        # while the search thought the seat may have changed hands (its player left, a bot or
        # a friend took it), the turn moved on: its advice is the old seat's hand's, sent
        # after "seat_revoked" to a socket watching on (a fifty-sixth audit)
        if client.seat != seat or room.seats[seat].token != client.holder:
            raise ActError("seat_revoked", f"seat {seat} is no longer yours")
        if room.version != version:
            raise ActError("stale_version", "the game moved on: ask again on your turn")
        return {"type": "hint", "version": version, "seat": seat, **answer}

    async def _hint_claimed(self, room: Room, seat: int, version: int) -> dict[str, Any]:
        """:meth:`hint`'s work once its checks passed: the turn's one hint claimed across the
        processes, then the search's answer."""
        room.hinted[seat] = version
        # the search's view and legal actions are the seat's own now, before anything awaits:
        # made after the claim's round trip to Redis they were those of whoever was to play
        # once the player's move (sent at once on another socket) was made — a hint named
        # another seat's cards (an eighth audit)
        job = self.hint_job(room, seat)
        # the turn's one hint is claimed across the processes too (a seat's sockets on two
        # processes each got one), for as long as a turn may last
        claim = f"hint:{room.id}:{seat}:{version}"
        try:
            mine = await self.bus.claim(claim, HINT_CLAIM_TTL)
        except BusError:
            room.hinted.pop(seat, None)
            raise ActError("hint_busy", "the bots are busy: try again in a moment", 503) from None
        if not mine:
            raise ActError("hint_used", "one hint a turn")
        if room.version != version:  # the turn moved on meanwhile: its hint is of no use
            raise ActError("stale_version", "the game moved on: ask again on your turn")
        busy = False
        try:
            answer = await self.pool.hint(job, room.owner or room.id)
        except PoolBusy:
            answer, busy = None, True
        except Exception:
            # a hint that failed is not spent either (else the turn's hint was gone, unanswered;
            # a fourth audit's suspicion): the error is logged with an id by the caller
            room.hinted.pop(seat, None)
            with contextlib.suppress(BusError):
                await self.bus.unclaim(claim)
            raise
        if answer is None:  # not given: the turn's hint is not spent
            room.hinted.pop(seat, None)
            await self.bus.unclaim(claim)
            if busy:
                raise ActError("hint_busy", "the bots are busy: try again in a moment", 503)
            raise ActError("hint_failed", "no hint this time (the search failed)", 503)
        return answer

    async def _refresh_row(self, room: Room) -> None:
        """Read the table's row (seats, status) and any actions this room has not seen."""
        table = await self.db(self.store.table, room.id, table=room.id)
        if table is None:
            # deleted: its host closed it in another process whose ``closed`` event was lost
            # (the bus down then; an eighth audit found the table served here, its players
            # told nothing, for as long as one stayed), so every path that reads the row
            # again — an event, the poll, the bus back — sends its clients away (purge spares
            # loaded tables)
            await self._drop_closed(room)
            return
        changed = table.rematch != room.table.rematch
        seats = {s: st for s, st in enumerate(table.seats) if st != room.seats[s]}
        if seats:  # all at once: a client whose seat moved follows it (see _seats_changed)
            changed = True
            if self._seats_changed(room, seats):
                self._share_presence(room)
        room.table = table
        self._check_watchers(room)
        if table.status != "waiting" and room.match is None:
            room.match = self._new_match(room)
            now = self.clock()
            room.turn_started = now
            room.away_since = {s: now for s in range(table.players) if not room.connected(s)}
            changed = True
            if not self._closing:
                self._ensure_driver(room)
        if table.version > room.version:
            actions = await self.db(self.store.actions, room.id, room.version, table=room.id)
            changed = self._apply_actions(room, actions) or changed
            await self._read_ready(room)
        elif table.version < room.version and room.match is not None:
            await self._replay_from_store(room, table)
            changed = True
        if changed:
            room.changed.set()
            self.broadcast(room)

    async def _replay_from_store(self, room: Room, table: Table) -> None:
        """This room played an action the database does not hold (it cannot happen by this
        server's own paths: an action is played only once stored; a forged bus event could do
        it): play the match again from what is stored, the one truth. Before, such a room never
        came back — every later move was refused ``stale_version`` (a third audit)."""
        log.warning(
            "table %s: this process was at version %d, the database at %d: playing it again",
            room.id,
            room.version,
            table.version,
        )
        actions = await self.db(self.store.actions, room.id, 0, table=room.id)
        new = self._new_match
        m, games = await asyncio.get_running_loop().run_in_executor(
            self._load_pool, lambda: _replayed(room.id, new(room), actions)
        )
        room.match = m
        room.version = 0
        room.last = None
        room.between = None
        room.stood_in = _stood_ins(actions[:-1], games)  # (the last is counted as it is taken)
        if actions:
            self._took(room, actions[-1], games[-1])
        room.revision += 1
        room.turn_started = self.clock()

    async def _refresh_presence(self, room: Room, only_if_changed: bool = False) -> None:
        """Who is connected to this table in other processes."""
        try:
            seats, clients = await self.bus.presence(room.id)
        except BusError:
            return
        if self.clock() < self._settling_until:  # (see _reload_all: gone, or not yet told)
            seats, clients = seats | room.remote_seats, max(clients, room.remote_clients)
        if only_if_changed and (seats, clients) == (room.remote_seats, room.remote_clients):
            return
        was = room.attended
        room.remote_seats, room.remote_clients = seats, clients
        self._presence_moved(room, was)

    def _presence_moved(self, room: Room, was_attended: bool = True) -> None:
        now = self.clock()
        for seat in range(room.table.players):
            if room.connected(seat):
                room.away_since.pop(seat, None)
            else:
                room.away_since.setdefault(seat, now)
        if not room.attended and was_attended:
            # (nobody's quiet starts now only if somebody was there: a presence read again of
            # a table nobody was at — the bus back after an outage reads every loaded table's —
            # set it to now, and bots that had stopped for nobody played on for another
            # --abandon-after, a thirty-fourth scale audit)
            room.empty_since = now if room.empty_since < room.touched else room.empty_since
        room.changed.set()
        self.broadcast(room)
        self._rematch_if_agreed(room)

    def _share_presence(self, room: Room) -> None:
        """Tell the other processes who is connected here (nothing to tell in one process)."""
        if isinstance(self.bus, LocalBus) or self._closing:
            return

        async def share() -> None:
            try:
                await self._write_presence(room)
                await self.bus.publish(room.id, {"kind": "presence"})
            except BusError as e:
                log.warning("table %s: presence not shared (%s)", room.id, e)

        self._spawn(share())

    async def _write_presence(self, room: Room) -> None:
        """Write who is connected here at ``room`` to the bus, as it is when the write goes out:
        writes of one room wait for each other, and one that finds a later write already told
        the change does nothing. (Each write was of the state when it was asked, and writes went
        out on several connections at once: one of seats a player had left could land after the
        one that said they were gone — a sixth audit: a seat shown connected on the other
        processes for 40 s after its last socket closed.)"""
        room.presence_dirty = True
        async with room.presence_lock:
            if not room.presence_dirty:
                return
            room.presence_dirty = False
            seats, clients = room.local_presence()
            await self.bus.set_presence(room.id, seats, clients)

    async def _beat(self) -> None:
        """Keep this process's presence fresh on the bus and read the others' again (a process
        that was killed tells nobody it went: its entries only grow old); announce the tables
        whose events the bus did not take once it answers again; while the bus is down, poll
        the database for what other processes stored."""
        if isinstance(self.bus, LocalBus):
            return
        every = self.settings.presence_ttl / 3
        probe: asyncio.Task[None] | None = None
        while not self._closing:
            await asyncio.sleep(every if self.bus.healthy else min(every, 2.0))
            if not self.bus.healthy and (probe is None or probe.done()):
                # tried beside the poll, not before it: a hung Redis takes a command's whole
                # timeout (5 s) to fail, and the poll below must not wait for it
                if probe is not None and not probe.cancelled():
                    probe.exception()  # (retrieved: a BusError says only that it is down)
                probe = asyncio.get_running_loop().create_task(self.bus.probe())
            for table_id in list(self._unpublished) if self.bus.healthy else []:
                try:
                    await self.bus.publish(table_id, {"kind": "table"})
                except BusError:
                    break
                self._unpublished.discard(table_id)
            for room in list(self.rooms.values()):
                try:
                    # once the bus has failed (a command timed out, 5 s), the other rooms skip
                    # it until a probe answers: a hung Redis cost 5 s a room and held the poll
                    # below back by as much (a third audit: the 40th table heard 40 s late)
                    if room.clients and self.bus.healthy:
                        await self._write_presence(room)
                    # (and of a finished table whose rematch waits for its people: a process
                    # killed there held it up for good, its player "connected" — a tenth audit)
                    if (room.status != "over" or self._rematch_pending(room)) and self.bus.healthy:
                        await self._refresh_presence(room, only_if_changed=True)
                except (BusError, ActError):
                    pass  # the bus failing here must not skip the database's poll below
                except Exception:
                    log.exception("table %s: heartbeat failed", room.id)
                if not self.bus.healthy:
                    await self._read_again(room)

    async def _watch_versions(self) -> None:
        """Every ``version_poll`` seconds, the bus healthy, the stored status, version and seat
        holdings of the tables held here, waiting or in play (:meth:`Store.versions`): a table
        still behind a stored one (a start, a move), or holding other seats than stored at the
        same version, for :data:`UNANNOUNCED_AFTER` seconds — stored by another process while
        its own bus was down, its event lost; an event merely on its way comes in milliseconds
        — is caught up from the database. (The bus down here, :meth:`_beat` reads every table
        whole instead.)"""
        every = self.settings.version_poll
        if isinstance(self.bus, LocalBus) or every <= 0:
            return
        # table → a stored state it was behind, and since when (monotonic)
        ahead: dict[str, tuple[tuple[int, int], float]] = {}
        # table → stored seat holdings it did not have at the same version, and since when
        elsewhere: dict[str, tuple[Holdings, float]] = {}
        while not self._closing:
            await asyncio.sleep(every)
            if not self.bus.healthy:
                ahead.clear()
                elsewhere.clear()
                continue
            held = {t: r for t, r in self.rooms.items() if r.status != "over"}
            if not held:
                ahead.clear()
                elsewhere.clear()
                continue
            try:
                stored = await self.db(self.store.versions, list(held))
            except ActError:
                continue  # (logged where it failed; read again at the next turn)
            before, ahead, now = ahead, {}, time.monotonic()
            seats_before, elsewhere = elsewhere, {}
            for table_id, (status, version, holdings) in stored.items():
                room = held[table_id]
                # (a table started elsewhere is ahead too: its start's event was lost as well)
                there, here = (STAGES.get(status, 0), version), (STAGES[room.status], room.version)
                if self.rooms.get(table_id) is not room:
                    continue
                if there == here and holdings != _holdings(room.seats):
                    # a seat that changed hands without a new version (a leave in play, a
                    # reopen, a join) stored by a process cut off from Redis: the old holder's
                    # sockets here stayed seated — shown the seat, offered its moves, the table
                    # waiting for them — for as long as that process's bus was down, for good
                    # if it stopped meanwhile (a sixty-ninth audit). Read again once the same
                    # holdings are still stored a poll later (an event may be on its way)
                    seen = seats_before.get(table_id)
                    if seen is None or seen[0] != holdings:
                        elsewhere[table_id] = (holdings, now)
                    elif now - seen[1] < UNANNOUNCED_AFTER:
                        elsewhere[table_id] = seen
                    else:
                        log.warning("table %s: seats changed elsewhere, unannounced", table_id)
                        await self._read_again(room)
                    continue
                if there <= here:
                    continue
                was = before.get(table_id)
                if was is None or was[0] <= here:  # (newly behind: its event may come)
                    ahead[table_id] = (there, now)
                    continue
                if now - was[1] < UNANNOUNCED_AFTER:
                    ahead[table_id] = was
                    continue
                log.warning(  # (a process cut off from Redis, most likely)
                    "table %s: %s, version %d stored elsewhere, unannounced",
                    table_id,
                    status,
                    version,
                )
                await self._read_again(room, behind=was[0])

    async def _read_again(self, room: Room, behind: tuple[int, int] | None = None) -> None:
        """Read ``room`` from the database again, what its events would have told (see
        :meth:`_refresh_told`), under its lock; ``behind``: only if it is still behind that
        stage and version (:data:`STAGES`) once the lock is had (a move's event may have come
        meanwhile). A failure is logged, never raised: the next turn tries again."""
        try:
            async with room.lock:
                if behind is None or (STAGES[room.status], room.version) < behind:
                    await self._refresh_told(room)
        except ActError:
            pass  # (logged where it failed)
        except Exception:
            log.exception("table %s: reading it again failed", room.id)

    async def _reload_all(self) -> None:
        """The bus is back after an outage: say who is connected here first (to a Redis
        started afresh, the others' entries are gone until each says so again), then read
        every loaded table again. Until every process has had a heartbeat to say so, a seat
        missing from the presence read is not taken as gone (a tenth scale audit: a Redis
        restarted empty read a player on another process as gone, and a pause between games
        ended at once, its player never ready)."""
        self._settling_until = self.clock() + self.settings.presence_ttl / 3
        for room in list(self.rooms.values()):
            if room.clients:
                with contextlib.suppress(BusError):
                    await self._write_presence(room)
                    await self.bus.publish(room.id, {"kind": "presence"})
        for room in list(self.rooms.values()):
            try:
                async with room.lock:
                    await self._refresh_told(room)
                await self._refresh_presence(room)
            except (BusError, ActError):
                continue

    # ------------------------------------------------------------------ clients
    def connect(self, room: Room, client: Client) -> None:
        """A client said ``hello``: it gets a snapshot; the others only if a seat's presence
        changed (a spectator arriving changes nothing they see)."""
        was = client.seat is not None and room.connected(client.seat)
        # (new here: this process tells the others, even when another process holds the seat
        # too — that one may be about to close, and the seat would read as gone everywhere: an
        # eleventh audit, a player on two processes lost their seat to a rematch's bot)
        here = client.seat is not None and room.held_here(client.seat)
        first = not room.clients
        if not room.attended:
            # nobody was at the table, and nobody's clock ran (see _who_moves): the turn's
            # time starts now
            room.turn_started = self.clock()
        room.clients.add(client)
        room.touched = self.clock()
        room.changed.set()
        if client.seat is not None and not was:
            room.away_since.pop(client.seat, None)
            self.broadcast(room)
        else:
            client.refresh()
        if first or (client.seat is not None and not here):
            self._share_presence(room)

    def disconnect(self, room: Room, client: Client) -> None:
        if client not in room.clients:
            return
        room.clients.discard(client)
        now = self.clock()
        room.touched = now
        if not room.attended:
            room.empty_since = now
            room.changed.set()
        seat_left = client.seat is not None and not room.connected(client.seat)
        # (gone from here — as it is wherever it has left — the others are told even when
        # another process seems to hold the seat: its sockets may be closing at this moment
        # too, each process counting on the other)
        gone_here = client.seat is not None and not room.held_here(client.seat)
        if seat_left:
            assert client.seat is not None
            room.away_since[client.seat] = now
            room.changed.set()
            self.broadcast(room)
            self._rematch_if_agreed(room)
        if gone_here or not room.clients:
            self._share_presence(room)

    def public_table(self, room: Room) -> dict[str, Any]:
        m = room.match
        out = self.public_row(room.table, room.seats, room)
        out.update(
            status=room.status,
            version=room.version,
            games_played=m.games_played if m is not None else 0,
            to_play=m.to_play if m is not None else None,
            records_after_match=records_wait(m),
            rematch_wanted=sorted(room.wishes) if room.table.rematch is None else [],
            result=match_outcome(m) if m is not None else None,
        )
        return out

    def public_row(
        self, table: Table, seats: list[Seat] | tuple[Seat, ...], room: Room | None = None
    ) -> dict[str, Any]:
        """The public face of a table from its stored row (presence only if it is loaded)."""
        return {
            "id": table.id,
            "game": table.game,
            "rules": table.rules,
            "preset": table.preset,
            "players": table.players,
            "games": table.games,
            "status": table.status,
            "version": table.version,
            "games_played": table.games_played,
            "created": table.created.isoformat(),
            "to_play": None,
            "rematch": table.rematch,
            "result": table.result,
            "chat": {"spectators": bool(table.features.get("spectator_chat"))},
            "hints": bool(table.features.get("hints")),
            "turn_timeout": self._table_timing(table, "turn_timeout"),
            "private": table.private,
            "paused": self._paused(table, room),
            "records_after_match": row_records_wait(table),
            "seats": [
                {
                    "seat": s,
                    "kind": st.kind,
                    "name": st.name,
                    "bot": st.bot,
                    "connected": st.kind == "bot" or (room is not None and room.connected(s)),
                    "away": room is not None and self._away(room, s),
                    "holder": holder_id(st.token) if st.kind == "human" else None,
                }
                for s, st in enumerate(seats)
            ],
        }

    @property
    def most_pending(self) -> int:
        """``max_pending_sockets``, or a tenth of ``max_sockets``."""
        most = self.settings.max_pending_sockets
        return most if most is not None else max(1, self.settings.max_sockets // 10)

    @property
    def most_spectators(self) -> int:
        """``max_spectators``, or four fifths of ``max_sockets``."""
        most = self.settings.max_spectators
        return most if most is not None else max(1, self.settings.max_sockets * 4 // 5)

    def _paused(self, table: Table, room: Room | None) -> bool:
        """Whether a table in play waits for someone: nobody (player or spectator) has been
        connected for ``abandon_after``, so its bots and stand-ins have stopped. A table not
        loaded here is judged from its stored row: nobody there for ``abandon_after`` as its
        driver wrote (:meth:`_note_quiet`), or else no change for that long."""
        if (room.status if room is not None else table.status) != "playing":
            return False
        if room is not None:
            idle = self.clock() - room.empty_since
            return not room.attended and idle >= self.settings.abandon_after
        return _quiet_for(table, self.wall()) >= self.settings.abandon_after

    def _away(self, room: Room, seat: int) -> bool:
        if room.seats[seat].kind != "human" or room.status != "playing":
            return False
        since = room.away_since.get(seat)
        if since is None or room.connected(seat):  # (connected elsewhere: see _away_left)
            return False
        return self.clock() - since >= self._timing(room, "away_timeout")

    def snapshot(self, room: Room, seat: int | None) -> dict[str, Any]:
        """What one client may see now: built from ``view(seat)`` and the public table."""
        m = room.match
        view = newest_log(m.view(seat)) if m is not None else None
        mine = (
            m is not None
            and seat is not None
            and m.to_play == seat
            and room.between is None
            and not self._too_long(room)
        )
        choose = m.game.choose() if mine and m is not None else None
        # (a choice of many ways is its description alone: the page reads ``choose``)
        legal = m.legal_actions() if mine and listed(choose) and m is not None else []
        # a hint where the host allows them and the search is offered every choice (a
        # Napoleon's discard, described to the page, is; a Daifugo choice of more than 1,000
        # ways is not: ``no_hint``)
        hintable = (
            mine and m is not None and bool(room.table.features.get("hints")) and not in_part(m)
        )
        last = room.last
        between = self._between_info(room)
        fresh_game = m is not None and not m.game.history and m.games_played > 0
        if last is not None and between is None and fresh_game:
            # the next game is on and nobody has moved in it: the move before was the last
            # game's ("Last: Yuki — play ♥7" stood over game 2's exchange: a second review)
            last = None
        if last is not None and last["seat"] != seat and m is not None:
            # a move that finished a game was made in that game, whose plays are all public by
            # now: the new deal's hidden cards say nothing about it (private moves stay hidden)
            fresh_deal = not m.game.history and m.games_played > 0
            hidden = (
                0 if fresh_deal or self._names_only(last["action"]) else m.game.hidden_from(seat)
            )
            named = cards_mentioned(last["action"])
            if named & hidden or (
                self._private(last["action"]) and not _holds(m.game, seat, named)
            ):
                # the verb alone, marked hidden: "give" here is not "give nothing"
                last = {**last, "action": last["action"].split()[0], "hidden": True}
        # (a spectator has no seat: nothing stood in for it)
        stood = room.stood_in.get(seat, (0, ())) if seat is not None else (0, ())
        return {
            "type": "snapshot",
            "version": room.version,
            "seat": seat,
            "table": self.public_table(room),
            "view": view,
            "legal": legal,
            "choose": choose,
            "hintable": hintable,
            "last": last,
            "between": between,
            "timer": self._timer_info(room),
            "stood_in": stood[0],
            "stood_in_moves": [action for _, action in stood[1]],
            # the game each was made in: 8 moves over two deals read as one, the same card
            # twice (a tenth review)
            "stood_in_games": [game for game, _ in stood[1]],
        }

    def _between_info(self, room: Room) -> dict[str, Any] | None:
        b = room.between
        if b is None or not self._between_open(room):
            return None
        waiting = [
            s
            for s, st in enumerate(room.seats)
            if st.kind == "human" and room.connected(s) and s not in b.ready
        ]
        info: dict[str, Any] = {
            "game": b.game,
            "seconds_left": round(max(0.0, b.deadline - self.wall()), 1),
            "delay": self._timing(room, "next_game_delay"),
            "ready": sorted(b.ready),
            "waiting": waiting,
        }
        if b.shown is None:
            b.shown = {}
            finished = room.match.finished if room.match is not None else None
            if finished is not None:
                # the finished game's last trick, public once played: the view has moved on to
                # the next deal, and the table shows that trick a moment before the results
                public = finished.view(None)
                if public.get("tricks"):
                    b.shown = {"last_trick": public["tricks"][-1], "trump": public.get("trump")}
                    # and what the seat boxes showed as it was won (Hell's bids and tricks,
                    # Nap's tricks, Napoleon's honors): over that trick the boxes showed the
                    # next deal's "bid – · took 0", its first player lit as to play (a
                    # seventh review)
                    counts = ("bids", "tricks_won", "honor_counts")
                    b.shown["seats"] = {k: public[k] for k in counts if k in public}
                if isinstance(public.get("log"), list) and public["log"]:
                    # Daifugo's last plays: the play log said "No plays yet" (the next game's)
                    # behind "Game 2 is over", who went out how seen only in the replay (a
                    # twelfth review)
                    b.shown["log"] = public["log"][-BETWEEN_LOG:]
        info.update(b.shown)
        return info

    def _timer_info(self, room: Room) -> dict[str, Any] | None:
        """The clock on the human seat to play, if one runs: its turn timer
        (``--turn-timeout``, ``kind`` ``turn``), or the time until a stand-in plays for its
        player, gone from the table (``--away-timeout``, ``kind`` ``away``), whichever ends
        first. (The others read only "Ben to play" while Ben, gone, held the table up for a
        minute and more: a ninth review.)"""
        m, timeout = room.match, self._timing(room, "turn_timeout")
        if m is None or m.is_over or m.to_play is None or room.between is not None:
            return None
        seat = m.to_play
        if room.seats[seat].kind != "human":
            return None
        clocks = []
        if timeout > 0:
            clocks.append(("turn", room.turn_started + timeout - self.clock(), timeout))
        gone = self._stand_in_in(room, seat)
        if gone is not None:
            clocks.append(("away", gone, self._timing(room, "away_timeout")))
        if not clocks:
            return None
        kind, left, length = min(clocks, key=lambda c: c[1])
        out: dict[str, Any] = {"seat": seat, "seconds_left": round(max(0.0, left), 1)}
        out.update(timeout=length, kind=kind)
        return out

    def _away_left(self, room: Room, seat: int) -> float | None:
        """Seconds until a stand-in plays for ``seat``'s player, gone from the table (≤ 0: it
        is time); None while they are there, or when nobody is at the table to wait for them.
        A stand-in plays for an absent player so that the others need not wait; with nobody at
        the table nobody waits, and the seat waits for its player (a player of a table of bots
        who stepped away found the match played out when back)."""
        since = room.away_since.get(seat)
        if since is None or not room.attended or room.connected(seat):
            return None
        return since + self._timing(room, "away_timeout") - self.clock()

    def _stand_in_in(self, room: Room, seat: int) -> float | None:
        """:meth:`_away_left` as this process may say it to the table's clients: while it runs,
        by the process driving the table (another process's clock started when it loaded the
        table, and said 40 s where 21 were left — a sixteenth audit)."""
        left = self._away_left(room, seat)
        if left is None or left <= 0 or room.connected(seat) or not room.driving:
            return None
        return left

    def snapshot_text(self, room: Room, seat: int | None) -> str:
        """:meth:`snapshot` as JSON, built once per seat and revision however many clients
        watch (the ``away`` flags move with the clock: a snapshot is rebuilt when one turns;
        while a countdown runs, at most once a second)."""
        self._between_open(room)  # a pause that has run out ends before anyone sees it
        m = room.match
        timed = room.between is not None or (
            room.status == "playing"
            and (
                self._timing(room, "turn_timeout") > 0
                or (m is not None and m.to_play is not None and m.to_play in room.away_since)
            )
        )
        key = (
            room.revision,
            int(any(self._away(room, s) for s in range(room.table.players))),
            int(self.wall()) if timed else 0,
        )
        hit = room.cache.get(seat)
        if hit is not None and hit[0] == key:
            return hit[1]
        text = json.dumps(self.snapshot(room, seat), ensure_ascii=False)
        room.cache[seat] = (key, text)
        return text

    @staticmethod
    def _names_only(action: str) -> bool:
        """Actions that name a card without placing it: Napoleon's call of the adjutant card,
        which every seat reads in the view (``adjutant_card``) — its last move read "Aki —
        Adjutant (a card hidden from you)" to everyone else (a ninth review)."""
        return action.split()[0] == "adjutant"

    @staticmethod
    def _private(action: str) -> bool:
        """Actions whose cards stay private even once they are out of the hand: exchanges and
        gives go face down to one seat. A discard's cards are as the engine's ``hidden_from``
        says: a Daifugo 10捨て face up to the pile, a Napoleon's face down but for those
        ``reveal_discards`` shows (the line said "discard (cards not shown to you)" of cards
        the view's log and panel showed: a forty-sixth review, a code review)."""
        return action.split()[0] in ("exchange", "give")

    def broadcast(self, room: Room) -> None:
        """Every client of the room will get a fresh snapshot (its writer builds and sends it
        when the client is ready: nothing here waits for a client)."""
        room.revision += 1
        for client in list(room.clients):
            client.refresh()

    # ------------------------------------------------------------------ bots and timers
    def _ensure_driver(self, room: Room) -> None:
        if room.driver is None or room.driver.done():
            room.driver = asyncio.get_running_loop().create_task(self._drive(room))

    def _note_quiet(self, room: Room) -> None:
        """The driver's: store since when nobody has been at the table (or that someone is)
        when that changed, so that a process reading the table back — a restart, a peer
        taking it over — or listing it counts the quiet from there, not from the bots' last
        move (:func:`_quiet_for`)."""
        quiet_for = self.clock() - room.empty_since
        if not room.attended and quiet_for < min(QUIET_AFTER, self.settings.abandon_after / 2):
            return  # (a moment's quiet — a page reloaded, a watcher come and gone — unwritten)
        want = None if room.attended else self.wall() - quiet_for
        had = room.quiet
        if room.quiet_known:
            if want is None and had is None:
                return
            if want is not None and had is not None and abs(want - had) < QUIET_SLACK:
                return
        room.quiet, room.quiet_known = want, True
        if not room.quiet_writing:
            room.quiet_writing = True
            self._spawn(self._write_quiet(room))

    async def _write_quiet(self, room: Room) -> None:
        """Store :attr:`Room.quiet`, one write at a time, until the value written is the newest
        wanted (a write of a time that finished after a later write of "someone is here" left
        the time stored: a code review)."""
        try:
            while True:
                want = room.quiet
                at = None if want is None else datetime.fromtimestamp(want, UTC)
                try:
                    await self.db(self.store.set_quiet, room.id, at, table=room.id)
                except ActError:
                    room.quiet_known = False  # (logged where it failed: written at the next turn)
                    return
                if room.quiet == want:
                    return
        finally:
            room.quiet_writing = False

    def _timings(self, turn_timeout: float | None = None) -> dict[str, float]:
        """The clocks of a table made here (:data:`TIMING`): stored with it, so that every
        process — whatever its own flags — counts them alike; ``turn_timeout``: the table's
        own, as its maker chose it."""
        out = {name: float(getattr(self.settings, name)) for name in TIMED}
        if turn_timeout is not None:
            out["turn_timeout"] = float(turn_timeout)
        return out

    def _timing(self, room: Room, name: str) -> float:
        """The table's own ``name`` of :data:`TIMED` (see :meth:`_table_timing`)."""
        return self._table_timing(room.table, name)

    def _table_timing(self, table: Table, name: str) -> float:
        """The table's own ``name`` of :data:`TIMED`, as stored when it was made (a table made
        before they were stored: this process's setting)."""
        stored = table.features.get(TIMING)
        value = stored.get(name) if isinstance(stored, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            return float(value)
        return float(getattr(self.settings, name))

    def _too_long(self, room: Room) -> bool:
        """The game in play has had ``max_game_actions`` actions: the table stops."""
        m = room.match
        return m is not None and len(m.game.history) >= self.settings.max_game_actions

    def _who_moves(self, room: Room) -> tuple[str | None, float]:
        """Who makes the next move for the server (``bot``, ``away``, ``timeout``) and when
        (seconds from now; ``inf`` and ``None`` when it is a present human's to make, or when
        nobody has been connected for ``abandon_after``: the table waits for someone)."""
        m = room.match
        assert m is not None
        seat = m.to_play
        assert seat is not None
        now = self.clock()
        if not room.attended and now - room.empty_since >= self.settings.abandon_after:
            return None, float("inf")
        if self._too_long(room):
            return None, float("inf")  # stopped: no bot or stand-in tries (and is refused)
        abandon = (
            room.empty_since + self.settings.abandon_after - now
            if not room.attended
            else float("inf")
        )
        if self._between_open(room):
            assert room.between is not None
            return None, min(abandon, max(0.05, room.between.deadline - self.wall()))
        st = room.seats[seat]
        if st.kind != "human":
            return "bot", 0.0
        wait = abandon
        left = self._away_left(room, seat)
        if left is not None:
            if left <= 0:
                return "away", 0.0
            wait = min(wait, left)
        timeout = self._timing(room, "turn_timeout")
        if timeout > 0 and room.attended:  # (nobody there: nobody waits)
            left = room.turn_started + timeout - now
            if left <= 0:
                return "timeout", 0.0
            wait = min(wait, left)
        return None, wait

    async def _lead(self, room: Room) -> bool:
        """Take or keep this table's driver lease (always ours in one process)."""
        was = room.driving
        try:  # (a lease taken, not renewed, unparks the table: see the bus)
            room.driving = await self.bus.lease(room.id, self.settings.lease_ttl, held=was)
            room.standby = not room.driving  # (the bus's answer: another process holds it)
        except BusError:
            room.driving = False  # (no answer: not known to be another's, standby as it was)
        if room.driving != was:
            self.broadcast(room)  # (the countdown to a stand-in is the driver's to say)
            # (the quiet stored may be another driver's since this one read it: written
            # again as this one sees it — a code review)
            room.quiet_known = False
        return room.driving

    async def _drive(self, room: Room) -> None:
        delay = self.settings.bot_delay
        renew = self.settings.lease_ttl / 3
        try:
            while not self._closing:
                m = room.match
                if m is None or m.is_over:
                    return
                room.changed.clear()
                if not await self._lead(room):
                    # another process drives this table; take over if its lease runs out
                    wait = renew
                    if room.between is not None:  # (its end is this process's to tell too)
                        wait = min(wait, max(0.05, room.between.deadline - self.wall()))
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(room.changed.wait(), wait)
                    if room.between is not None and not self._between_open(room):
                        self.broadcast(room)
                    continue
                self._note_quiet(room)
                who, wait = self._who_moves(room)
                if who is None:
                    # (a clock that may have turned meanwhile: a pause, a player gone, a turn's
                    # time. Else nothing a snapshot shows moves with time: every third of a lease
                    # the same snapshot went again to every socket of each table waiting on a
                    # present person's move, 3-4 KB each — a thirty-third scale audit)
                    timed = (
                        room.between is not None
                        or any(room.seats[s].kind == "human" for s in room.away_since)
                        or self._timing(room, "turn_timeout") > 0
                    )
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(room.changed.wait(), min(wait, renew))
                    if not room.changed.is_set() and timed:
                        self.broadcast(room)  # an away flag may have turned
                    continue
                key = room.owner or room.id
                again = room.granted == room.version
                if self.bot_moves is None or again:
                    # (its grant taken already: with workers elsewhere the driver asks again
                    # while the job waits for one — each pass took a grant, and a worker back
                    # from a pause stored twice the bound's moves in a second, a thirty-first
                    # scale audit)
                    pass
                elif any(
                    st.kind == "human" and room.connected(s) for s, st in enumerate(room.seats)
                ) and self.bot_moves.take_now(key):
                    # a table a person plays at does not wait (its move counts: the tables of
                    # bots alone wait the longer) — in turns with them, twenty addresses with
                    # two tables of bots alone stretched its bots' moves from 0.3 s to 1 s
                    # apart (a fifty-seventh audit), and as many seated at tables of their
                    # own, one socket each, did the same to a first place in the turns (a
                    # fifty-eighth) — while at most a burst is owed: past it (sockets at
                    # hundreds of tables of bots, one person each) it waits its turn as any
                    pass
                elif not await self.bot_moves.acquire(key, renew):
                    continue  # not its turn yet: the lease renewed, then it asks again
                else:  # after its wait: the move wanted now, the lease renewed
                    m = room.match
                    if m is None or m.is_over:
                        return
                    who, _ = self._who_moves(room)
                    # (read with who: a move may come in the lease's await — a stand-in then
                    # went as "timeout" for the next person's turn, a code review)
                    version = room.version
                    if who is None or not await self._lead(room) or room.version != version:
                        continue
                version = room.granted = room.version
                if delay > 0:  # a natural pause: between 3/4 and 5/4 of the delay
                    await asyncio.sleep(delay * (0.75 + 0.5 * self._jitter.random()))
                    if room.version != version or self._who_moves(room)[0] is None:
                        continue  # something happened meanwhile (the human came back, say)
                    if not await self._lead(room):
                        continue  # (a --bot-delay past the lease's time: another took over)
                seat = m.to_play
                assert seat is not None
                st = room.seats[seat]
                spec = st.bot if st.kind == "bot" and st.bot else self.settings.standin
                job = MoveJob(room.id, version, seat, spec, who)
                await self.workers.move(self, room, job, again=again and self.bot_moves is not None)
        finally:
            if room.driving and (room.match is None or room.match.is_over or self._closing):
                room.driving = False
                with contextlib.suppress(Exception):
                    await self.bus.release(room.id)
