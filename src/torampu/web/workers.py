"""Who computes and stores the bots' moves: a pool in this process, or workers on Redis.

A table's driver (the one process holding its lease) decides *that* a bot moves now — a bot's
seat, a stand-in for an absent player, a turn timeout — and hands a :class:`MoveJob` (table,
version, seat, spec, why) to one of two implementations of one interface:

* :class:`LocalWorkers` — without ``--redis``: the move is computed by this process's
  :class:`~torampu.web.bots.BotPool` (worker processes) and stored by the driver;
* :class:`RedisWorkers` — with ``--redis``: the job goes on the Redis stream
  ``torampu:bot-jobs``; ``torampu worker`` processes (any number, on any machine) take jobs
  through the consumer group ``torampu-bots``, rebuild the game from the database, compute the
  move in their own pool, store it with the version check, publish it on the bus, and only then
  acknowledge the job. A job whose worker died stays pending and is claimed by another worker
  after ``reclaim_after`` seconds (``XAUTOCLAIM``), or as soon as its worker's heartbeat is
  stale (:data:`BEATS`); the version check makes a move that two workers computed count once.
  The driver waits for the table to move and asks again (the same job) if it has not after
  ``job_timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import secrets
import signal
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

import torampu
from torampu.game import CHOICES_LISTED
from torampu.match import Match, leaders
from torampu.web import clock
from torampu.web.bots import (
    QUEUE_WAIT,
    QUICK_KINDS,
    BotAnswer,
    BotJob,
    BotPool,
    BotRefused,
    check_spec,
)
from torampu.web.stopping import STOP_WAIT
from torampu.web.store import PlayerBack, StaleVersion, Store, StoreError, Table

if TYPE_CHECKING:
    from torampu.web.rooms import Lobby, Room

log = logging.getLogger("torampu.web")

STREAM = "torampu:bot-jobs"
GROUP = "torampu-bots"
BEATS = "torampu:worker-beats"
"""A Redis hash: each running worker's name and the Redis time (ms) of its last heartbeat,
written every :data:`BEAT_EVERY` seconds; a worker that stops removes its entry, or sets it to 0
when it leaves jobs pending. A worker's jobs pending with a beat older than :data:`BEAT_STALE`
are a dead worker's, and are taken over once they have been idle as long — not after
``--reclaim-after`` (15 s: a killed worker's table waited that long, a
twenty-first audit). A consumer with no entry (a worker of an older version) is judged by
``--reclaim-after`` alone."""
BEAT_EVERY = 1.0
BEAT_STALE = 4.0
MATCH_CACHE = 512
"""Tables whose match a worker keeps between jobs by default (``--match-cache``): a job at a
table the worker saw last time plays only the actions stored since, instead of the whole game."""
MATCH_CACHE_ACTIONS = 100_000
"""The actions those matches may hold together by default (``--match-cache-actions``): a match
holds every game it played, some 450 bytes an action — 512 long matches grew a worker by 3 MB a
minute for as long as they went on (a nineteenth scale audit)."""
DB_THREADS = 12
"""Database threads a worker has for all its jobs (under the store's 15 connections): with 4,
rows held locked at 4 tables (a psql session's ``FOR UPDATE``) held every thread for the lock
timeout, and every other bot table stood (a fifteenth scale audit)."""
FAIL_BACKOFF_MAX = 5.0
"""The most seconds a worker whose jobs fail in a row (not for the database: a bug, a broken
install) waits before taking more: doubling from 0.1 s with each failure, none after a job
done."""
JOBS_PER_PROCESS = 16
"""Jobs a worker holds at once per process: while some wait for the database or for a search
process, others compute (the bot pool bounds the computing itself, and a search waits for it at
most ``queue_wait``). A job gives its place back once its move is computed, before the wait
that holds back a search's quick answer: with 4 places held through that wait, one address's
search tables (every place a search waiting its 2 s, then waiting out its think budget) held up
the quick jobs of every other table behind them in the stream — 0.8 s a move became 4.2 s with
20 such tables, 10.7 s with 40 (an audit)."""

SEARCHES_WAITING_PER_PROCESS = 64
"""Search jobs a worker lets wait for a search process (its fair gate, at most
``queue_wait``) per process without a place of their own: a search waiting there gives its place
back, so that the quick jobs behind it in the stream are taken at once. Past this many waiting,
the heuristic makes a search's move at once (a bound on the jobs a worker holds) — counted
apart for the jobs of tables of bots alone (:attr:`MoveJob.alone`), which wait behind people's
and must not use up their room to wait."""
JOB = "torampu:job:"
"""``torampu:job:<table>:<version>``: set while a job for that move is queued (no duplicates);
a turn's time-out's ``…:<version>:timeout``, a bot's ``…:<version>:bot`` (see :func:`job_key`)."""


@dataclass(frozen=True)
class MoveJob:
    """A move the server makes: at ``table`` at ``version``, for ``seat``, by the bot ``spec``;
    ``by`` is why (``bot``, ``away``, ``timeout``); ``alone``: no person holding a seat is at
    the table (its search waits behind people's: :meth:`~torampu.web.bots.FairGate.acquire`).

    >>> job = MoveJob("t", 3, 1, "ismcts", "bot", alone=True)
    >>> MoveJob.from_fields(job.fields()) == job
    True
    >>> MoveJob.from_fields({k: v for k, v in job.fields().items() if k != "alone"}).alone
    False
    """

    table: str
    version: int
    seat: int
    spec: str
    by: str
    alone: bool = False

    def fields(self) -> dict[str, str]:
        return {
            "table": self.table,
            "version": str(self.version),
            "seat": str(self.seat),
            "spec": self.spec,
            "by": self.by,
            "alone": "1" if self.alone else "0",
        }

    @classmethod
    def from_fields(cls, raw: dict[Any, Any]) -> MoveJob:
        f = {_text(k): _text(v) for k, v in raw.items()}
        # (a job queued by a process before "alone" was: a person's, as every job was then)
        alone = f.get("alone") == "1"
        return cls(f["table"], int(f["version"]), int(f["seat"]), f["spec"], f["by"], alone)


def nobody_at(room: Room) -> bool:
    """Whether no person holding a seat of ``room`` is connected to it (here or, by the bus,
    to another process): its bots' searches wait behind people's."""
    return not any(st.kind == "human" and room.connected(s) for s, st in enumerate(room.seats))


def job_key(job: MoveJob) -> str:
    """The Redis key set while ``job`` is queued. A turn's time-out has a key of its own: the
    stand-in's, kept after its player came back until the mark's grace ends (``PlayerBack``),
    held the time-out's move at that version off too (a code review). So has a bot's: a player
    who left the game while a stand-in's job for their turn was taken by a worker held up —
    the bot's job, of the same key, was queued once that worker had dropped the stand-in's and
    the driver looked again (a twenty-eighth scale audit: 1.9 s, and a third of the lease with
    another worker free)."""
    key = f"{JOB}{job.table}:{job.version}"
    return f"{key}:{job.by}" if job.by in ("timeout", "bot") else key


def _text(x: Any) -> str:
    return x.decode() if isinstance(x, bytes) else str(x)


def _waited(entry_id: Any, now_ms: int) -> float:
    """Seconds since a stream entry was added, from its id (``<ms>-<seq>``, Redis's clock)
    and Redis's clock now (0 when either is unknown).

    >>> _waited(b"1700000000000-0", 1700000002500)
    2.5
    >>> _waited("1700000000000-3", 0)
    0.0
    """
    try:
        ms = int(_text(entry_id).split("-", 1)[0])
    except ValueError:
        return 0.0
    return max(0.0, (now_ms - ms) / 1000) if now_ms else 0.0


def _database_failed(e: BaseException) -> bool:
    """Whether ``e`` is the database failing (unreachable, refusing connections, timing out),
    not a bug.

    >>> from sqlalchemy.exc import OperationalError
    >>> _database_failed(OperationalError("SELECT 1", {}, Exception("connection refused")))
    True
    >>> _database_failed(KeyError("table"))
    False
    """
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    return isinstance(e, StoreError | DBAPIError | PoolTimeout)


def bot_seed(table_seed: int, seat: int, version: int) -> int:
    """The seed of a bot's move: the same table, seat and version give the same move, whichever
    process computes it."""
    return (table_seed ^ (seat * 7919 + 1) ^ (version * 104_729)) & (2**63 - 1)


Outcome = dict[str, Any]
"""How a match ended: ``{"scores": [each seat's total], "winners": [seats], "side": bool}``
(``side``: a match of one game won by a side, not by the best total)."""


SEEDING = "seeding"
"""The key of a table's stored features naming how its games' seeds follow from its seed
(:data:`torampu.match.SEEDINGS`): a table made here is ``"keyed"``, since each game's record,
seed and all, is published as the game ends (``"stream"`` seeds, about 312 of them, tell the
next games' deals)."""

SIDE_GAMES = frozenset({"napoleon", "nap"})
"""The games played by sides (the Napoleon and the adjutant against the allied army, the
declarer against the others): a game's winners there are a side, not a tie. (Hell's winners are
the seats that made their bids: no side.)"""


def outcome(game: str, totals: Sequence[float], side: Sequence[int], games_total: int) -> Outcome:
    """How a match of ``game`` ended, from its totals and the winners of its last game
    (``side``): a match of one game of :data:`SIDE_GAMES` won by more than one seat
    (Napoleon's allied army, the Napoleon and the adjutant, Nap's defenders) was won by that
    side; otherwise by the best total, tied seats all winners.

    >>> outcome("napoleon", [13, -5, -5, -5, 2], [0, 4], 1)
    {'scores': [13, -5, -5, -5, 2], 'winners': [0, 4], 'side': True}
    >>> outcome("hell", [13, 12, 13], [0, 1, 2], 1)
    {'scores': [13, 12, 13], 'winners': [0, 2], 'side': False}
    >>> outcome("napoleon", [3, 7, 7, 1, 0], [1], 5)
    {'scores': [3, 7, 7, 1, 0], 'winners': [1, 2], 'side': False}
    """
    if game in SIDE_GAMES and games_total == 1 and len(side) > 1:
        return {"scores": list(totals), "winners": sorted(side), "side": True}
    return {"scores": list(totals), "winners": leaders(totals), "side": False}


def match_outcome(m: Match) -> Outcome | None:
    """:func:`outcome` of a finished match (``None`` while it is on)."""
    if not m.is_over or m.finished is None:
        return None
    return outcome(m.name, m.totals, m.finished.result()["winners"], m.games_total)


def status_after(m: Match, action: str) -> tuple[str, int | None, Outcome | None]:
    """A table's status once ``action`` (legal) is played — ``over`` if it ends the match —, its
    games played if that action finishes a game (else ``None``), and the match's
    :func:`outcome` if it ends it (else ``None``)."""
    return _status_of(m.game.clone(), m.totals, m.games_played, m.games_total, action)


def table_match(table: Table) -> Match:
    """A new match of the stored table ``table`` (its game, rules, length, seed, first dealer
    and seeding), at version 0: the one a web process and a worker both replay its actions on.
    A table made before tables kept their seeding (:data:`SEEDING`) draws its games' seeds as
    it always did (``"stream"``)."""
    t = table
    seeding = t.features.get(SEEDING, "stream")
    return torampu.new_match(
        t.game, t.rules, games=t.games, seed=t.seed, dealer=t.dealer, seeding=seeding
    )


def _status_of(
    g: Any, totals: Sequence[float], games_played: int, games_total: int, action: str
) -> tuple[str, int | None, Outcome | None]:
    """:func:`status_after` on ``g``, a copy of the match's game (played on), and the match's
    ``totals`` before it."""
    g.play(action)
    if not g.is_over:
        return "playing", None, None
    played = games_played + 1
    if played < games_total:
        return "playing", played, None
    result = g.result()
    final = [t + v for t, v in zip(totals, result["scores"], strict=True)]
    return "over", played, outcome(g.name, final, result["winners"], games_total)


MOVERS = ("bot", "away", "timeout")
"""Who the server moves for: a bot's seat, a stand-in for an absent player, a turn timeout."""


def job_spec(job: MoveJob, table: Table) -> str | None:
    """The bot that makes ``job``'s move, from what the database says of its seat, not from the
    job (Redis carries jobs; whoever can write there must not pick a bot or a mover): a bot's
    seat is played by the bot it holds, a person's seat by a stand-in, a quick bot (the web
    process's ``standin``); None for a job that does not fit the table (refused)."""
    if job.by not in MOVERS or not 0 <= job.seat < len(table.seats):
        return None
    seat = table.seats[job.seat]
    if job.by == "bot":
        return seat.bot if seat.kind == "bot" and seat.bot else None
    if seat.kind != "human":
        return None
    try:
        spec = check_spec(job.spec, 0.0)
    except BotRefused:
        return None
    return spec if spec in QUICK_KINDS else None


AUCTIONS = ("napoleon", "nap")
"""Games whose auction a stand-in passes in (:func:`stand_in_move`)."""


def stand_in_move(by: str, job: BotJob, others: bool = True) -> BotAnswer | None:
    """A stand-in's move (``away``, ``timeout``) where the player, not a bot, should choose: in
    Napoleon's and Nap's auction it passes — a contract is the player's to take on (a fourth
    review: the stand-in bid 12♥ for a player who had stepped away for 45 s, who came back the
    Napoleon, its adjutant called and its cards discarded) — as long as ``others``: someone
    else at the table can bid (a bot's seat, or a player who is there). At a table of absent
    players everyone passing would deal again for ever: there it bids as the bot would.
    ``None``: the stand-in bot plays (Hell has no pass: its stand-in bids as the bot would)."""
    if not others or not stand_in_passes(by, job):
        return None
    return BotAnswer("pass")


def stand_in_passes(by: str, job: BotJob) -> bool:
    """Whether ``job`` is a stand-in's in an auction where it would pass (see
    :func:`stand_in_move`), before asking who else is at the table."""
    return (
        by != "bot"
        and job.game in AUCTIONS
        and job.view.get("phase") == "bid"
        and "pass" in job.legal
    )


def _others_here(room: Room, seat: int) -> bool:
    """Whether a seat of ``room`` besides ``seat`` is a bot's or has its player connected
    (to any process: the room knows the others' presence)."""
    seats = enumerate(room.seats)
    return any(st.kind == "bot" or room.connected(s) for s, st in seats if s != seat)


class Workers(Protocol):
    async def move(self, lobby: Lobby, room: Room, job: MoveJob, again: bool = False) -> None:
        """Have the move of ``job`` made (or return once it is no longer wanted); ``again``:
        asked again without a grant of the bot gate (:attr:`Room.granted`)."""
        ...

    async def close(self) -> None: ...


def bot_legal(m: Match) -> list[str]:
    """The legal actions a bot chooses among: every one, but of a choice of cards of more
    than :data:`CHOICES_LISTED` ways the smallest choices (``legal_actions_up_to``): listing
    them all took up to a second of the event loop — on a thread too, the compiled engine
    holding the interpreter's lock all along (a stand-in for a player gone, 8 tables: another
    table's pings up to 4.9 s, a thirtieth audit)."""
    return m.game.legal_actions_up_to(CHOICES_LISTED) if not m.is_over else []


def in_part(m: Match) -> bool:
    """Whether a bot is offered (:func:`bot_legal`) only a part of the choice of cards ``m``'s
    seat to play makes: a Daifugo 7渡し or 10捨て of more than :data:`CHOICES_LISTED` ways,
    told without listing it. A Napoleon's discard, described to the page past as many, is
    listed whole to a bot (6,188 ways at most, half a millisecond)."""
    return not m.is_over and m.game.offers_in_part(CHOICES_LISTED)


def bot_job(spec: str, game: str, seed: int, m: Match, seat: int) -> BotJob:
    """The job of the bot ``spec`` for ``seat`` of ``m``: the seat's view and the actions it
    chooses among (:func:`bot_legal`). A choice offered in part is the heuristic's: a search
    expands every choice at its root, and found none of the offered ones within its think
    (a code review: its whole think spent, then the heuristic's move anyway)."""
    spec = "heuristic" if in_part(m) else spec
    return BotJob(spec, game, seed, m.view(seat), bot_legal(m))


class LocalWorkers:
    """Moves computed by this process's bot pool, stored by the driver."""

    def __init__(self, pool: BotPool) -> None:
        self.pool = pool

    async def move(self, lobby: Lobby, room: Room, job: MoveJob, again: bool = False) -> None:
        m = room.match
        assert m is not None
        seed = bot_seed(room.table.seed, job.seat, job.version)
        bot = bot_job(job.spec, room.table.game, seed, m, job.seat)
        # (who else is at the table is asked only where it matters, as the worker does)
        fixed = (
            stand_in_move(job.by, bot, _others_here(room, job.seat))
            if stand_in_passes(job.by, bot)
            else None
        )
        # (a table of bots alone, which no person holding a seat is connected to, waits for a
        # search worker behind the tables a person plays at: a sixty-seventh audit)
        answer = fixed or await self.pool.move(bot, room.owner or room.id, low=nobody_at(room))
        if room.version != job.version:
            return  # the table moved on while the bot thought
        from torampu.web.rooms import ActError

        try:
            await lobby.act(room, job.seat, answer.action, job.version, job.by)
        except ActError as e:
            log.info("table %s: the bot's move was refused: %s", room.id, e)
            room.granted = -1  # (refused, not waiting: asked again, it takes a grant again)
            await asyncio.sleep(1.0 if e.code == "storage_unavailable" else 0.05)

    async def close(self) -> None:
        return None


_QUEUE = """
if redis.call('set', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  local fields = {}
  for i = 2, #ARGV do fields[#fields + 1] = ARGV[i] end
  redis.call('xadd', KEYS[2], 'MAXLEN', '~', '100000', '*', unpack(fields))
  return 1
end
return 0
"""


_KEEP_OURS = """
local taken = {}
for i = 3, #ARGV do
  local p = redis.call('xpending', KEYS[1], ARGV[1], ARGV[i], ARGV[i], 1)
  if p[1] then
    if p[1][2] == ARGV[2] then
      redis.call('xclaim', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'JUSTID')
    else
      taken[#taken + 1] = ARGV[i]
    end
  end
end
return taken
"""
"""Renew the idle time of the jobs (ARGV[3:]) still pending with consumer ARGV[2] (in group
ARGV[1] of stream KEYS[1]), and only those: one another worker took over stays theirs (one no
longer pending is done). The ids another worker holds."""


class RedisWorkers:
    """Moves queued on the Redis stream for ``torampu worker`` processes."""

    def __init__(self, redis: Any, job_timeout: float = 30.0) -> None:
        self.redis = redis
        self.job_timeout = job_timeout
        self._queue = redis.register_script(_QUEUE)

    async def move(self, lobby: Lobby, room: Room, job: MoveJob, again: bool = False) -> None:
        """Queue the job (once: a job already queued for this move is not queued again until
        ``job_timeout`` has passed), then wait a little for the table to move; the driver calls
        again (renewing its lease in between) until it has. Asked ``again`` (no new grant of
        the bot gate), only while the job waits or is worked on: one whose key went (its move
        not made — a write that failed, a refusal) is asked anew through the gate (a code
        review: each was thought again every third of a lease past ``--bot-rate-all``)."""
        key = job_key(job)
        if again:
            try:
                waiting = bool(await self.redis.exists(key))
            except Exception:  # (Redis away: nothing is queued meanwhile either)
                waiting = True
            if not waiting:
                room.granted = -1
                return
        else:
            # (whether a person is there, which the workers cannot see: LocalWorkers.move)
            fields = replace(job, alone=nobody_at(room)).fields()
            args: list[str | int] = [max(1, int(self.job_timeout))]
            for k, v in fields.items():
                args += [k, v]
            try:  # one script: the job is queued if and only if its key is set
                await self._queue(keys=[key, STREAM], args=args)
            except Exception as e:
                log.warning("table %s: the bot job was not queued (%s)", room.id, type(e).__name__)
                await asyncio.sleep(1.0)
                return
        if room.version == job.version:
            room.changed.clear()
            try:
                await asyncio.wait_for(room.changed.wait(), lobby.settings.lease_ttl / 3)
            except TimeoutError:
                # no word of the move yet: it may be stored with its event lost (a worker's
                # publish failing as Redis restarts), so look in the database
                await lobby.read_again(room)

    async def close(self) -> None:
        return None


# ---------------------------------------------------------------------- the worker process
class _Place:
    """A job's place among those a worker holds: given back once, whichever comes first (the
    move computed, or the job's end)."""

    def __init__(self, slots: asyncio.Semaphore) -> None:
        self.slots: asyncio.Semaphore | None = slots

    def free(self) -> None:
        if self.slots is not None:
            self.slots.release()
            self.slots = None

    def done(self, _task: asyncio.Task[None]) -> None:
        self.free()


class Worker:
    """``torampu worker``: takes bot jobs from the stream, makes and stores the moves."""

    def __init__(
        self,
        store: Store,
        redis_url: str,
        processes: int = 1,
        reclaim_after: float = 15.0,
        name: str | None = None,
        queue_wait: float = QUEUE_WAIT,
        match_cache: int = MATCH_CACHE,
        redis_connections: int = 32,
        match_cache_actions: int = MATCH_CACHE_ACTIONS,
    ) -> None:
        import redis.asyncio as aioredis

        from torampu.web.bus import RedisBus, retrying

        self.store = store
        self.redis: Any = aioredis.from_url(
            redis_url,
            socket_timeout=10,
            socket_connect_timeout=3,
            max_connections=redis_connections,
            # a connection idle 10 s is pinged before use, as the bus's are: after Redis came
            # back from a restart, jobs failed on pooled connections it had closed ("not
            # acknowledged: Connection closed by server", 1-12 s after) and were computed again
            # by another worker 15 s later (a seventh scale audit)
            health_check_interval=10,
            # and a command on a connection found dead is sent again on a new one (see
            # retrying(): an eleventh scale audit)
            **retrying(),
        )
        self.bus = RedisBus(redis_url, connections=redis_connections)
        self.pool = BotPool(processes, queue_wait)
        """Computes the moves; a search job waits for it, in the stream and here together, at
        most ``queue_wait`` seconds (by the stream entry's id, Redis's clock at queueing), past
        which the heuristic makes the move: a backlog of one address's bot tables in the stream
        delays no other table's bots longer, as in one process (a job taken over from a dead
        worker counts from its takeover: it has waited for the takeover already)."""
        self.processes = max(1, processes)
        self.reclaim_after = reclaim_after
        self.name = name or f"worker-{secrets.token_hex(3)}"
        self.failures = 0
        """Jobs failed in a row (a worker failing them steps back: see :meth:`run`)."""
        self.db = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="torampu-worker-db")
        self.done = 0
        self.matches: OrderedDict[str, tuple[int, Match]] = OrderedDict()
        """Recent tables' matches and the version each is at (at most ``match_cache``)."""
        self.match_cache = max(0, match_cache)
        self.match_cache_actions = max(0, match_cache_actions)
        self.cached_actions = 0
        """The actions of the matches kept, together (at most ``match_cache_actions``)."""
        self._evict = random.Random()  # (which kept match goes: no game randomness here)
        self.inflight: set[str] = set()
        """The stream entries this worker is handling now: their idle time is kept below
        ``reclaim_after`` (:meth:`_keep`), and one handed back by ``XAUTOCLAIM`` is not taken
        twice."""
        self.searching = 0
        """Search jobs here waiting for (or in) a search process without a place."""
        self.searching_alone = 0
        """Those of tables of bots alone (:attr:`MoveJob.alone`), bounded apart: waiting behind
        people's (``low``) the whole ``queue_wait``, they filled the bound, and a person's search
        past it had the heuristic's move at once (a code review of the sixty-seventh audit)."""
        self.most_searching = self.processes * SEARCHES_WAITING_PER_PROCESS
        self._keep_ours = self.redis.register_script(_KEEP_OURS)
        self._lost: set[str] = set()
        """Jobs in progress here that another worker took over (said once in the log)."""
        self._own_left = True
        """Jobs pending under this worker's name from before it started (a restart under the
        same ``--name``) are still to be taken back (:meth:`_left_here`)."""
        self._stop = asyncio.Event()

    async def _db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db, lambda: fn(*args))

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self._stop.set)
        await self._group()
        slots = asyncio.Semaphore(self.processes * JOBS_PER_PROCESS)
        tasks: set[asyncio.Task[None]] = set()
        with contextlib.suppress(Exception):  # (Redis away: the beat's loop sets it later)
            await self.bus.keep_time()  # (before the first move it stamps)
            await self._name_in_use()
        log.warning("worker %s: taking bot jobs (%d at a time)", self.name, self.processes)
        keeper = loop.create_task(self._keep())
        beating = loop.create_task(self._beat())
        try:
            while not self._stop.is_set():
                if self.failures:
                    # a worker whose jobs fail steps back before taking more: failing at once,
                    # it was always first to the next job, and one broken worker beside a good
                    # one cut the bots' moves by 70 % (a fifteenth scale audit)
                    await asyncio.sleep(min(FAIL_BACKOFF_MAX, 0.05 * 2 ** min(self.failures, 10)))
                try:
                    # (raced with the stop: each Redis command of a take waits out its socket
                    # timeout and a retry on a frozen Redis, and a worker told to stop then
                    # took 32 s to leave — a twenty-sixth scale audit. A job read and dropped
                    # here stays pending under this name: taken as a dead worker's, 4 s on)
                    take = asyncio.ensure_future(self._take())
                    told = asyncio.ensure_future(self._stop.wait())
                    await asyncio.wait({take, told}, return_when=asyncio.FIRST_COMPLETED)
                    told.cancel()
                    if not take.done():
                        take.cancel()  # (its end awaited, never its error: it is not wanted)
                        take.add_done_callback(lambda t: t.cancelled() or t.exception())
                        await asyncio.wait({take}, timeout=STOP_WAIT)
                        break
                    entries, taken_over = take.result()
                except Exception as e:
                    if "NOGROUP" in str(e):  # Redis restarted without its data, or a new primary
                        log.warning("worker %s: the job group is gone; making it again", self.name)
                        with contextlib.suppress(Exception):
                            await self._group()
                            continue
                    else:
                        log.warning(
                            "worker %s: Redis failed (%s: %s); retrying",
                            self.name,
                            type(e).__name__,
                            str(e)[:200],
                        )
                    await asyncio.sleep(1.0)
                    continue
                now = await self._now_ms() if entries else 0
                taken = loop.time()
                for entry_id, fields in entries:
                    key = _text(entry_id)
                    if key in self.inflight:
                        continue  # (ours, in progress)
                    await slots.acquire()
                    # a job taken over from a worker gone waits afresh: counted from its entry,
                    # it had waited the takeover's time already (its heartbeat gone stale, or
                    # --reclaim-after), past --bot-queue-wait, and its search bot's move was the
                    # heuristic's (a twenty-first audit)
                    waited = (0.0 if taken_over else _waited(entry_id, now)) + (loop.time() - taken)
                    place = _Place(slots)
                    self.inflight.add(key)
                    t = loop.create_task(self._handle(entry_id, fields, waited, place.free))
                    t.add_done_callback(place.done)
                    t.add_done_callback(functools.partial(self._finished, key))
                    tasks.add(t)
                    t.add_done_callback(tasks.discard)
        finally:
            keeper.cancel()
            beating.cancel()
            for t in list(tasks):
                t.cancel()
            with contextlib.suppress(Exception):  # leave the group, unless jobs are pending
                # (bounded: Redis frozen, each command waited its timeout and a retry)
                await asyncio.wait_for(self._leave(), STOP_WAIT)
            self.pool.close()
            self.db.shutdown(wait=False)
            with contextlib.suppress(Exception):
                await self.redis.aclose()
            await self.bus.stop()

    async def _leave(self) -> None:
        """Leave the job group at the stop, unless jobs are pending under this name (deleting a
        consumer drops its pending jobs, which another worker must claim): then the heartbeat
        says it is gone, and the others take them as a dead worker's."""
        held = await self.redis.xpending_range(STREAM, GROUP, "-", "+", 1, consumername=self.name)
        if not held:
            await self.redis.hdel(BEATS, self.name)
            await self.redis.xgroup_delconsumer(STREAM, GROUP, self.name)
        else:  # its jobs left pending: the others take them as a dead worker's (4 s)
            await self.redis.hset(BEATS, self.name, 0)

    async def _group(self) -> None:
        """Make the stream's consumer group (from the stream's start) unless it is there."""
        try:
            await self.redis.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
        except Exception as e:
            if "BUSYGROUP" not in str(e):
                raise

    def _finished(self, key: str, _task: asyncio.Task[None]) -> None:
        self.inflight.discard(key)
        self._lost.discard(key)

    async def _keep(self) -> None:
        """Keep the jobs in progress this worker's: every third of ``reclaim_after`` their idle
        time starts again (``XCLAIM`` to itself, ``JUSTID``), so that neither another worker nor
        this one takes them as a dead worker's. A job may rightly take longer than
        ``reclaim_after`` (a search waits for a process up to ``--bot-queue-wait``, thinks its
        budget, waits for the database): without this ``XAUTOCLAIM`` handed a worker's own
        jobs in progress back to it (or to another worker) as a dead worker's at each turn of
        its loop — a move delivered up to three times in a test with ``--reclaim-after 0.6``,
        each computed again, and no new job read while old ones came back.

        Only jobs still pending with this worker: one another worker took over (this one had
        seemed gone, say a pause of the machine past ``reclaim_after``) stays with it — an
        ``XCLAIM`` of every job in progress took it back, and the two took it in turns (each
        computing the move; the database stores one)."""
        while True:
            await asyncio.sleep(self.reclaim_after / 3)
            ids = sorted(self.inflight - self._lost)
            if not ids:
                continue
            try:
                taken = await self._keep_ours(keys=[STREAM], args=[GROUP, self.name, *ids])
            except Exception as e:  # (Redis away: the loop says so as it takes jobs)
                log.info("worker %s: its jobs' idle times were not reset (%s)", self.name, e)
                continue
            lost = {_text(k) for k in taken}
            if lost:
                self._lost |= lost
                log.warning(
                    "worker %s: %d job(s) in progress here were taken over by another worker "
                    "(%s): left to it (the database stores one move)",
                    self.name,
                    len(lost),
                    ", ".join(sorted(lost)),
                )

    async def _beat(self) -> None:
        """Say every :data:`BEAT_EVERY` seconds that this worker lives (:data:`BEATS`)."""
        while True:
            with contextlib.suppress(Exception):  # (Redis away: the loop says so)
                await self.bus.keep_time()  # (the moves it stores are stamped by Redis's clock)
                now = await self._now_ms()
                if now > 0:  # (0: Redis's clock unread — a beat of 0 reads as a dead worker's)
                    await self.redis.hset(BEATS, self.name, now)
            await asyncio.sleep(BEAT_EVERY)

    async def _dead_workers_jobs(self) -> list[tuple[Any, dict[Any, Any]]]:
        """Jobs pending with a worker whose heartbeat is stale (killed, or its machine gone),
        claimed for this one; ``XCLAIM``'s idle bound makes one of two workers asking at once
        take each. Looked up worker by worker from the heartbeats: among every worker's
        pending jobs, live workers' long ones could fill a page and hide the dead one's."""
        stale_ms = int(BEAT_STALE * 1000)
        now = await self._now_ms()
        if now <= 0:
            return []
        beats = await self.redis.hgetall(BEATS)
        dead = sorted(
            name
            for name, beat in ((_text(k), _text(v)) for k, v in beats.items())
            if name != self.name and (not beat.isdigit() or now - int(beat) > stale_ms)
        )
        out: list[tuple[Any, dict[Any, Any]]] = []
        room = self.processes * JOBS_PER_PROCESS
        for name in dead:
            pending = await self.redis.xpending_range(
                STREAM, GROUP, "-", "+", room - len(out), consumername=name, idle=stale_ms
            )
            if not pending:  # (its jobs are taken, or it had none: it is gone from both)
                if not await self.redis.xpending_range(
                    STREAM, GROUP, "-", "+", 1, consumername=name
                ):
                    await self.redis.hdel(BEATS, name)
                    await self.redis.xgroup_delconsumer(STREAM, GROUP, name)
                continue
            ids = [e["message_id"] for e in pending]
            claimed = await self.redis.xclaim(STREAM, GROUP, self.name, stale_ms, ids)
            mine = [e for e in claimed if e and e[1] and _text(e[0]) not in self.inflight]
            if mine:
                log.warning(
                    "worker %s: took over %d job(s) of %s, gone (no heartbeat for %g s)",
                    self.name,
                    len(mine),
                    name,
                    BEAT_STALE,
                )
            out += mine
            if len(out) >= room:
                break
        return out

    async def _name_in_use(self) -> None:
        """Before this worker's first heartbeat: if another worker beats under its name (two
        started with one ``--name``), the jobs pending under it are that one's, not left by a
        killed predecessor — not taken back (both would compute them), and said. A heartbeat
        fresh at the start is watched a moment: a killed worker's stops."""
        first = _text(await self.redis.hget(BEATS, self.name) or b"")
        now = await self._now_ms()
        if not first.isdigit() or now - int(first) > BEAT_STALE * 1000:
            return
        await asyncio.sleep(1.5 * BEAT_EVERY)
        if _text(await self.redis.hget(BEATS, self.name) or b"") != first:
            self._own_left = False
            log.warning(
                "worker %s: another worker beats under this name: the jobs pending under it are "
                "left to it (give each worker its own --name)",
                self.name,
            )

    async def _left_here(self) -> list[tuple[Any, dict[Any, Any]]]:
        """Once, at the start: the jobs still pending under this worker's name — left by a
        worker of the same ``--name`` killed and started again. Its fresh heartbeat made the
        name look alive to the others, so nobody took them before ``--reclaim-after`` (a
        seventeenth scale audit: a table's bots stood 17.5 s after a kill -9 and restart,
        not the 4 s of a worker gone)."""
        room = self.processes * JOBS_PER_PROCESS
        got = await self.redis.xreadgroup(GROUP, self.name, {STREAM: "0"}, count=room)
        self._own_left = False
        entries = [e for _stream, listed in got or [] for e in listed]
        mine = [e for e in entries if e and e[1] and _text(e[0]) not in self.inflight]
        if mine:
            log.warning(
                "worker %s: took back %d job(s) left pending under its name (a restart)",
                self.name,
                len(mine),
            )
        return mine

    async def _take(self) -> tuple[list[tuple[Any, dict[Any, Any]]], bool]:
        """Jobs whose worker died (its heartbeat stale, or pending past ``reclaim_after``;
        this worker's own name's, once at its start), else new ones; and whether they are a
        dead worker's."""
        if self._own_left:
            left = await self._left_here()
            if left:
                return left, True
        try:
            dead = await self._dead_workers_jobs()
        except Exception as e:  # (the jobs below are still taken; --reclaim-after still holds)
            log.info("worker %s: the heartbeats were not read (%s)", self.name, e)
            dead = []
        if dead:
            return dead, True
        claimed = await self.redis.xautoclaim(
            STREAM,
            GROUP,
            self.name,
            int(self.reclaim_after * 1000),
            "0-0",
            count=self.processes * JOBS_PER_PROCESS,
        )
        out = [e for e in claimed[1] if e and e[1] and _text(e[0]) not in self.inflight]
        if out:
            log.warning(
                "worker %s: took over %d job(s) idle for %g s (a worker gone?)",
                self.name,
                len(out),
                self.reclaim_after,
            )
            return out, True
        fresh = await self.redis.xreadgroup(
            GROUP, self.name, {STREAM: ">"}, count=self.processes * JOBS_PER_PROCESS, block=1000
        )
        return [e for _stream, entries in fresh for e in entries], False

    async def _match(self, table: Table) -> Match:
        """The table's match at its stored version: kept from the last job at this table and
        brought up to date with the actions stored since, or rebuilt from all of them."""
        cached = self._let_go(table.id)
        if cached is None or cached[0] > table.version:
            m = table_match(table)
            done = 0
        else:
            done, m = cached
        for a in await self._db(self.store.actions, table.id, done):
            m.play(a.action)
            done = a.version
        # (a job at this table ran meanwhile, and kept its match: this one replaces it — its
        # count left in the total, the total grew until it let go of every match at each job,
        # a code review)
        self._let_go(table.id)
        if m.is_over:
            return m  # (no job comes after the match's end: not kept)
        self.matches[table.id] = (done, m)
        self.cached_actions += done
        while len(self.matches) > self.match_cache:
            self._let_go(next(iter(self.matches)))
        # past the actions' bound, a match other than this one let go at random: the bots'
        # jobs come round the tables in turn, and the least lately used was the one the next
        # job wanted — every job then played its whole match again (a twentieth scale audit)
        while self.cached_actions > self.match_cache_actions and len(self.matches) > 1:
            self._let_go(self._evict.choice(list(self.matches)[:-1]))
        if self.cached_actions > self.match_cache_actions:
            self._let_go(table.id)  # (alone, it is too long)
        return m

    def _let_go(self, table_id: str) -> tuple[int, Match] | None:
        """The kept match of ``table_id`` and its version, no longer kept (None: none was)."""
        kept = self.matches.pop(table_id, None)
        if kept is not None:
            self.cached_actions -= kept[0]
        return kept

    async def _now_ms(self) -> int:
        """Redis's clock in milliseconds (the clock of the stream's entry ids)."""
        try:
            secs, micros = await self.redis.time()
            return int(secs) * 1000 + int(micros) // 1000
        except Exception:
            return 0  # unknown: every job counts as fresh

    async def _handle(
        self,
        entry_id: Any,
        fields: dict[Any, Any],
        waited: float = 0.0,
        computed: Callable[[], None] = lambda: None,
    ) -> None:
        job: MoveJob | None = None
        try:
            job = MoveJob.from_fields(fields)
            await self._make(job, asyncio.get_running_loop().time() - waited, computed)
            self.failures = 0
        except asyncio.CancelledError:
            raise
        except Exception as e:
            # (not for the database away: every worker fails alike then, and each takes the
            # jobs again the moment it is back)
            self.failures += 0 if _database_failed(e) else 1
            if _database_failed(e):
                # one line with an id, not a 60-line traceback a job through an outage (a
                # twelfth audit: 41 of them in 8 s); anything else is a bug: its traceback
                log.warning(
                    "worker %s: job %s failed: the database is unavailable (%s; error %s)",
                    self.name,
                    _text(entry_id),
                    str(e).splitlines()[0][:200] if str(e) else type(e).__name__,
                    secrets.token_hex(4),
                )
            else:
                log.exception("worker %s: job %s failed", self.name, entry_id)
            if job is not None:
                # the move is not made (the database was away, say): let the table's driver
                # queue it again at its next look (within a third of the lease), not only once
                # the job's key runs out (--job-timeout: every bot table stood for ~25 s after
                # a 6 s database outage, an audit found)
                await self._unqueue(job)
        # acknowledged, and gone from the stream: a done job is of no more use, and kept (up
        # to 100,000) it was read again by every worker whenever the group was made anew
        # (Redis restarted without it, a new primary): a twelfth audit's 6,519 old jobs, one
        # database read each, held every table up 7–9 s
        try:
            async with self.redis.pipeline(transaction=False) as p:
                p.xack(STREAM, GROUP, entry_id)
                p.xdel(STREAM, entry_id)
                await p.execute()
        except Exception as e:  # (claimed again after --reclaim-after, and found done then)
            log.info("worker %s: job %s not acknowledged (%s)", self.name, _text(entry_id), e)

    async def _others_there(self, job: MoveJob, table: Table) -> bool:
        """Whether a seat of ``table`` besides ``job``'s is a bot's or has its player connected
        (by the presence on Redis; taken as so when it cannot be told)."""
        from torampu.web.bus import BusError

        if any(st.kind == "bot" for s, st in enumerate(table.seats) if s != job.seat):
            return True
        try:
            seats, _ = await self.bus.presence(job.table)
        except BusError:
            return True
        return any(s != job.seat for s in seats)

    async def _unqueue(self, job: MoveJob, until: datetime | None = None) -> None:
        """Let the table's driver queue a move at ``job``'s version again at its next look (the
        job's key gone), or from ``until`` (the key runs out then) — not once the key runs out
        (``--job-timeout``)."""
        key = job_key(job)
        with contextlib.suppress(Exception):
            if until is None:
                await self.redis.delete(key)
            else:
                ms = int((until - clock.now()).total_seconds() * 1000)
                await (self.redis.pexpire(key, ms) if ms > 0 else self.redis.delete(key))

    async def _back(self, job: MoveJob) -> bool:
        """Whether the player a stand-in's move was asked for is connected again (to any web
        process, by the presence on Redis; or it cannot be told): the move is theirs. A job
        waits in the stream and a search takes its time, and the player came back meanwhile —
        in one process the driver refuses such a move (``player_back``); a worker stored it
        (a sixth audit: shown their turn, the returned player saw the bot play it)."""
        from torampu.web.bus import BusError

        try:
            seats, _ = await self.bus.presence(job.table)
        except BusError:
            seats = {job.seat}  # (not known: the driver asks again once it can tell)
        if job.seat in seats:
            log.warning(
                "worker %s: table %s seat %d is back: no stand-in move",
                self.name,
                job.table,
                job.seat,
            )
            return True
        return False

    async def _make(
        self, job: MoveJob, queued: float | None = None, computed: Callable[[], None] = lambda: None
    ) -> None:
        """Make and store ``job``'s move; ``queued``: when it was queued, on this event loop's
        clock (``None``: now); ``computed`` is called once the move is known (the job's place
        in this worker is free from then: what is left is waiting and storing)."""
        table = await self._db(self.store.table, job.table)
        if table is None or table.version != job.version or table.status != "playing":
            return  # the move was made (or the table is gone): nothing to do
        m = await self._match(table)
        if m.is_over or m.to_play != job.seat:
            return
        spec = job_spec(job, table)
        if spec is None:
            log.warning("worker %s: job for table %s refused: %r", self.name, job.table, job)
            await self._unqueue(job)  # (the seat went to a bot: its move is queued at once)
            return
        # the match is the cache's, and another job of this table (the same move asked again
        # past --job-timeout, then the next) may play it on while this one waits: what the
        # move does is worked out on a copy of the game as it is now (the cached match, played
        # on meanwhile, refused this move as illegal)
        now = (m.game.clone(), tuple(m.totals), m.games_played, m.games_total)
        bot = bot_job(spec, table.game, bot_seed(table.seed, job.seat, job.version), m, job.seat)
        # the jobs this worker holds take its processes in turns by the tables' makers
        loop = asyncio.get_running_loop()
        waited = 0.0 if queued is None else max(0.0, loop.time() - queued)
        fixed = (
            stand_in_move(job.by, bot, await self._others_there(job, table))
            if stand_in_passes(job.by, bot)
            else None
        )
        # a search waits for a process (its turn among the tables' makers) without a place:
        # holding one, a few addresses' search tables filled a worker's places and every other
        # table's quick bots waited behind them in the stream, about 1 s a move (a fifteenth
        # audit: 100 such tables from 5 addresses)
        search = fixed is None and not bot.quick
        held = self.searching_alone if job.alone else self.searching - self.searching_alone
        waiting = search and held < self.most_searching
        if waiting:
            computed()
            self.searching += 1
            self.searching_alone += job.alone
        elif search:
            # past the bound, the heuristic answers at once (as for a search that waited out
            # --bot-queue-wait): holding its place, such a search took the quick jobs' places
            # again past 80 search tables on one process (a sixteenth audit)
            waited = float("inf")
        try:
            answer, rest = (
                (fixed, 0.0)
                if fixed is not None
                else await self.pool.answer(bot, table.owner or table.id, waited, job.alone)
            )
        finally:
            if waiting:
                self.searching -= 1
                self.searching_alone -= job.alone
        computed()
        if rest > 0:  # a search's answer is not seen before its think budget has passed
            await asyncio.sleep(rest)
        if job.by == "away" and await self._back(job):
            # (and its key goes: the turn's timeout, or a stand-in once the player is away
            # again, is queued at once — not after --job-timeout, a code review)
            await self._unqueue(job)
            return
        status, played, result = _status_of(*now, answer.action)
        at = clock.now()
        try:
            await self._db(
                self.store.append_action,
                job.table,
                job.version,
                job.seat,
                answer.action,
                job.by,
                status,
                played,
                at,
                result,
            )
        except PlayerBack as e:
            # the player is back (Store.seat_back): no stand-in's move at this version until
            # the mark's grace ends — the key kept until then, not let go (queued again at once,
            # each job refused again: some 7 searches and refused writes a second, a
            # forty-sixth audit), nor held for --job-timeout (a twenty-second scale audit)
            await self._unqueue(job, until=e.until)
            return
        except StaleVersion:
            # another worker (or the driver) stored this move first: the key goes, as above
            # (what is queued next is another move)
            await self._unqueue(job)
            return
        except StoreError:
            raise
        self.done += 1
        if status == "over":
            # (the match the job was worked out on was kept at the version before this move,
            # not over then: it stayed until evicted, every match a bot ended held for good
            # within --match-cache — a worker grew 1.2 MB a minute in a soak, a thirty-fifth
            # scale audit. No job comes after the match's end)
            self._let_go(job.table)
        step = {"seat": job.seat, "action": answer.action, "by": job.by, "at": at.isoformat()}
        event = {"kind": "action", "version": job.version + 1, "action": step}
        for wait in (0.0, 0.2, 1.0, 3.0):  # the driver also looks in the database while it waits
            await asyncio.sleep(wait)
            with contextlib.suppress(Exception):
                await self.bus.publish(job.table, event)
                return
