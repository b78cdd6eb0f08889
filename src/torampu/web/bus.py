"""The bus between server processes: table events, presence, and who drives a table.

The database is the only truth; the bus only says *that* something changed, so that every
process can read it and tell its own clients. Two implementations of one interface:

* :class:`LocalBus` — the embedded default (``torampu serve`` alone): one process, so events have
  no one else to reach, nobody else is present, and this process drives every table;
* :class:`RedisBus` — ``--redis URL``: events on the channel ``torampu:t:<table id>`` (Redis
  pub/sub), each process's presence at a table in the hash ``torampu:presence:<table id>``
  (refreshed by a heartbeat every third of its lifetime, ``--presence-ttl``; each process reads
  the others' entries again at each of its own beats, ignores those past their lifetime and
  deletes them, so a killed process's clients count as gone within the lifetime and a beat),
  and one driver per table under a lease ``torampu:lease:<table id>``
  (``SET NX PX``, renewed by its holder, taken over by another process when it expires).

An event is a small JSON object: ``{"kind": "action", "version": v, "action": {"seat", "action",
"by", "at"}}`` (a stored action moved the table to version v; a process one version behind plays it
as is, any other reads the database), ``{"kind": "table"}`` (seats, status or rematch changed: read
the row again), ``{"kind": "presence"}`` (someone came or went), ``{"kind": "ready", "game",
"seat"}`` (a seat said ready after game ``game``; the mark is also stored), ``{"kind": "chat",
"message"}`` (a chat message, already stored, for the other processes' clients).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from torampu.web import clock
from torampu.web.stopping import stop_tasks

log = logging.getLogger("torampu.web")

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
"""``handler(table_id, event)``: called for every event another process published."""

PRESENCE_TTL = 30.0
"""Seconds after which a process's presence entry is stale (its heartbeat is every third)."""
MAX_CONNECTIONS = 64
"""Redis connections per process by default (``--redis-connections``; commands wait for a
free one, at most 5 s)."""
CHANNEL = "torampu:t:"
LEASE = "torampu:lease:"
PARKED = "torampu:parked:"
"""``torampu:parked:<table>``: a table in play whose process let it go on purpose (nobody used
it, its bots had nothing to do): no other process takes it over until someone opens it."""
CLAIM = "torampu:claim:"
BUCKET = "torampu:bucket:"
"""``torampu:bucket:<key>``: a rate limit every process spends from (:meth:`RedisBus.spend`)."""
PRESENCE = "torampu:presence:"
LISTEN_RETRY = 1.0
"""Seconds at most between the listener's tries to subscribe again while Redis is away."""
CLOCK_EVERY = 60.0
"""Seconds between two measures of this machine's clock against Redis's."""
CLOCK_ROUND_TRIP = 0.25
"""A measure whose answer took longer than this (seconds) is not used once there is one: its
midpoint could be off by half of it, and the between-games countdown would jump."""
CLOCK_SAID = 1.0
"""A skew against Redis's clock, or a change of it, past this many seconds is logged."""


class BusError(Exception):
    """The bus (Redis) is unreachable."""


class Bus(Protocol):
    process: str
    """This process's id on the bus."""

    async def start(self, handler: Handler) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, table_id: str, event: dict[str, Any]) -> None: ...

    async def set_presence(self, table_id: str, seats: list[int], clients: int) -> None: ...

    async def presence(self, table_id: str) -> tuple[set[int], int]:
        """The seats connected, and the clients, at ``table_id`` in *other* processes."""
        ...

    async def lease(self, table_id: str, ttl: float, held: bool = False) -> bool:
        """Take or renew the right to drive ``table_id`` for ``ttl`` seconds; ``held``: this
        process holds it (as it last knew): renew it only, never take it anew."""
        ...

    async def release(self, table_id: str, park: float = 0.0) -> None:
        """Give up the lease of ``table_id`` if this process holds it; ``park``: and if so,
        mark the table let go on purpose for that many seconds (:data:`PARKED`), until a
        process takes its lease again."""
        ...

    async def leased(self, table_ids: list[str]) -> set[str]:
        """Those of ``table_ids`` some process holds the driver lease of, or parked."""
        ...

    async def claim(self, key: str, ttl: float) -> bool:
        """Take ``key`` once across every process for ``ttl`` seconds (False: already taken)."""
        ...

    async def unclaim(self, key: str) -> None:
        """Give back a claim this process took."""
        ...

    async def spend(self, key: str, rate: float, burst: int) -> bool | None:
        """Take one from the token bucket ``key`` shared by every process (``rate`` a second,
        at most ``burst``): True if there was one, False if not, None where there is nothing
        shared to ask (one process, or the bus down: the process's own limits stand alone)."""
        ...

    async def probe(self) -> None:
        """Try the bus once (:class:`BusError` if it is still unreachable)."""
        ...

    @property
    def healthy(self) -> bool: ...


class LocalBus:
    """One process: nothing to tell anyone, nobody else present, every lease ours."""

    def __init__(self) -> None:
        self.process = "local"

    async def start(self, handler: Handler) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, table_id: str, event: dict[str, Any]) -> None:
        return None

    async def set_presence(self, table_id: str, seats: list[int], clients: int) -> None:
        return None

    async def presence(self, table_id: str) -> tuple[set[int], int]:
        return set(), 0

    async def lease(self, table_id: str, ttl: float, held: bool = False) -> bool:
        return True

    async def release(self, table_id: str, park: float = 0.0) -> None:
        return None

    async def leased(self, table_ids: list[str]) -> set[str]:
        return set(table_ids)  # one process: every table is this one's to drive

    async def claim(self, key: str, ttl: float) -> bool:
        return True  # one process: its own memory says what it has done

    async def unclaim(self, key: str) -> None:
        return None

    async def spend(self, key: str, rate: float, burst: int) -> bool | None:
        return None  # one process: its own buckets are the only ones

    async def probe(self) -> None:
        return None

    @property
    def healthy(self) -> bool:
        return True


_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
if ARGV[3] == '1' then return 0 end
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('del', KEYS[2])
  return 1
end
return 0
"""
# (the lease taken, not renewed: the table is driven again, no longer parked. ARGV[3] '1': the
# asking process held the lease, and renews it only — a renewal sent while Redis was frozen
# (kill -STOP) ran once it went on, after its process had stopped and let the lease go, and
# took it anew: the dead process's leases came back for a whole --lease-ttl, and a third of
# its tables stood 5.4 s more after Redis was back, a twenty-sixth scale audit. A lease lost
# meanwhile is taken again at the next asking, as any free one)
_RELEASE_LEASE = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('del', KEYS[1])
if tonumber(ARGV[2]) > 0 then redis.call('set', KEYS[2], ARGV[1], 'PX', ARGV[2]) end
return 1
"""
# (parked only by the process that held the lease: one that had the table loaded beside the
# driver parked it, and nobody took it over when the driver died — a thirteenth audit)
_SPEND = """
local now = redis.call('time')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local seen = redis.call('get', KEYS[2])
if seen then return tonumber(seen) end
local held = redis.call('hmget', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(held[1]) or burst, tonumber(held[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('hset', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('pexpire', KEYS[1], ARGV[3])
redis.call('set', KEYS[2], tostring(ok), 'PX', 10000)
return ok
"""
"""A token bucket on Redis's clock: every process spends from the same one. KEYS[2] names the
spending (10 s): the same one sent again (a retry on a new connection after the answer was
lost) gets the answer it had and is not charged twice (a thirty-third audit) — however many
others spent meanwhile (a code review: one name kept, the last, was not enough)."""
_CLAIM = """
local held = redis.call('get', KEYS[1])
if held == ARGV[1] then return 1 end
if held then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
"""A claim: taken if free — or already this very claim's (ARGV[1]: the process and a name of
this asking), as one sent again after its answer was lost is (else the retry found its own
claim and refused it: a turn's hint told "used", none given, a thirty-third audit). Another
asking of the same process is refused as any other (the room's memory of its hint goes with
the room: a code review)."""
_RELEASE_OURS = """
local held = redis.call('get', KEYS[1])
if held and string.sub(held, 1, #ARGV[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
"""Give back a claim this process took (its value begins with the process's id)."""
_PRUNE = """
for i = 1, #ARGV, 2 do
  if redis.call('hget', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('hdel', KEYS[1], ARGV[i])
  end
end
return 0
"""


def retrying() -> dict[str, Any]:
    """A Redis client's (or connection pool's) settings that run a command once more, on a new
    connection, where its pooled connection turns out dead: after Redis restarted, every
    connection pooled before failed its next command ("Connection closed by server") — minutes
    later for the idle ones deep in the pool — a move's event lost, a lease let go, a job's
    acknowledgement missed (taken over 15 s later), the health "degraded" in spurts (an
    eleventh scale audit: tables stalled up to 23 s, 3.5 minutes after the restart)."""
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    # (a connection error alone: a command that timed out — Redis hung, a failover — is not
    # sent again, or a hung Redis held every caller two timeouts, not one)
    dead = (RedisConnectionError,)
    return {"retry": Retry(NoBackoff(), 1, supported_errors=dead), "retry_on_error": list(dead)}


class RedisBus:
    """The bus on Redis (``redis://host:port/db``)."""

    def __init__(
        self, url: str, presence_ttl: float = PRESENCE_TTL, connections: int = MAX_CONNECTIONS
    ) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.presence_ttl = presence_ttl
        """Seconds this process's presence entries last without a heartbeat."""
        self.process = f"{secrets.token_hex(4)}"
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=connections,
            timeout=5,
            socket_timeout=5,
            socket_connect_timeout=3,
            health_check_interval=10,
            **retrying(),
        )  # blocking: under load a command waits for a connection instead of failing
        self.redis: Any = aioredis.Redis(connection_pool=pool)
        # the subscription on a client of its own, without that retry: redis-py's retry
        # reconnects and subscribes a pub/sub connection again by itself, and the listener
        # never heard it had been cut — no reload of what was missed meanwhile, the health
        # never "degraded" (a code review: CLIENT KILL TYPE pubsub)
        self._sub: Any = aioredis.Redis(
            connection_pool=aioredis.BlockingConnectionPool.from_url(
                url,
                max_connections=2,
                timeout=5,
                socket_timeout=5,
                socket_connect_timeout=3,
                health_check_interval=10,
            )
        )
        self._handler: Handler | None = None
        self._listener: asyncio.Task[None] | None = None
        self._stopping = False
        """:meth:`stop` was called: the listener ends at its next step."""
        self._pubsub: Any = None
        """The listener's subscription now (:meth:`_close_sub` closes it)."""
        self._listening = True
        """The subscription to the tables' channels is up."""
        self._commands_ok = True
        """The last command (publish, presence, lease, probe) got an answer."""
        self._renew = self.redis.register_script(_RENEW)
        self._release_lease = self.redis.register_script(_RELEASE_LEASE)
        self._prune = self.redis.register_script(_PRUNE)
        self._spend = self.redis.register_script(_SPEND)
        self._claim = self.redis.register_script(_CLAIM)
        self._release_ours = self.redis.register_script(_RELEASE_OURS)
        self.on_reconnect: Callable[[], Awaitable[None]] | None = None
        """Called when the subscription is back after an outage (read everything again)."""
        self._skew_at = -CLOCK_EVERY
        """When (:func:`time.monotonic`) Redis's clock less this machine's was last measured:
        kept as the process's shared clock (:func:`torampu.web.clock.offset`). Presence entries
        are stamped and judged by it, one clock for every process (a machine 29 s ahead deleted
        every other process's entries as stale, its players read as gone: a tenth scale
        audit)."""

    @property
    def healthy(self) -> bool:
        """Events reach this process and its commands get answers. A failed command makes it
        false until a command (the heartbeat's :meth:`probe` at the latest) gets an answer
        again; a broken subscription, until the listener has subscribed again."""
        return self._listening and self._commands_ok

    def _failed(self, what: str, e: BaseException) -> BusError:
        if self._commands_ok:
            log.warning("the bus failed (%s: %s)", what, type(e).__name__)
        self._commands_ok = False
        return BusError(f"{what} failed: {type(e).__name__}")

    def _answered(self) -> None:
        if not self._commands_ok:
            log.warning("the bus answers again")
        self._commands_ok = True

    async def probe(self) -> None:
        try:
            await self.redis.ping()
            await self.keep_time()  # (the heartbeat's: the clock kept right without presence)
        except Exception as e:
            raise self._failed("ping", e) from None
        self._answered()

    async def start(self, handler: Handler) -> None:
        self._handler = handler
        self._stopping = False
        try:
            await self.redis.ping()
            await self.keep_time()
        except Exception as e:
            raise BusError(f"Redis at {_where(self.url)} is unreachable: {e}") from None
        self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        self._stopping = True
        if self._listener is not None:
            # (bounded: a listener that caught its cancel went back to reading Redis, and a
            # process told to stop waited on it for ever — a twenty-fourth scale audit; the
            # subscription's connection closed wakes its read, which then ends it)
            await stop_tasks([self._listener], "bus listener", nudge=self._close_sub)
        for client in (self.redis, self._sub):
            with contextlib.suppress(Exception):
                # (and its pool: a client given one does not close it by itself)
                await client.aclose(close_connection_pool=True)

    async def _close_sub(self) -> None:
        # (the listener's own subscription, its patterns with it: closing the client's pool
        # only made redis-py's PubSub connect and subscribe again at its next read — a code
        # review)
        if self._pubsub is not None:
            await self._pubsub.aclose()

    async def _listen(self) -> None:
        """Follow every table's channel; after an outage, resubscribe and ask for a reload
        (until :meth:`stop`)."""
        backoff = 0.2
        first = True
        while not self._stopping:
            pubsub = self._pubsub = self._sub.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(CHANNEL + "*")
                if not first:
                    log.warning("the bus is back: reading the tables again")
                    if self.on_reconnect is not None:
                        await self.on_reconnect()
                first = False
                self._listening = True
                backoff = 0.2
                async for msg in pubsub.listen():
                    if self._stopping:
                        break
                    if msg.get("type") != "pmessage":
                        continue
                    await self._deliver(msg)
                await pubsub.aclose()  # (stopping)
            except asyncio.CancelledError:
                with contextlib.suppress(BaseException):
                    await pubsub.aclose()
                raise
            except Exception as e:
                if self._stopping:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                    break
                if self._listening:
                    log.warning("the bus is unreachable (%s); retrying", type(e).__name__)
                self._listening = False
                first = False
                # (not BaseException: a cancel while it closed was taken here, and the
                # listener went on — a twenty-fourth scale audit's process that never stopped)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(backoff)
                # (at most a second: at 5 s, every process read as degraded up to 4.7 s after
                # Redis was back, all of them out of a proxy's rotation at once — a
                # twenty-fifth scale audit)
                backoff = min(backoff * 2, LISTEN_RETRY)

    async def _deliver(self, msg: dict[str, Any]) -> None:
        channel = msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
        try:
            event = json.loads(msg["data"])
        except (ValueError, TypeError):
            return
        if not isinstance(event, dict) or event.get("from") == self.process:
            return
        assert self._handler is not None
        try:
            await self._handler(channel.removeprefix(CHANNEL), event)
        except Exception:
            log.exception("a bus event for %s failed", channel)

    async def publish(self, table_id: str, event: dict[str, Any]) -> None:
        try:
            await self.redis.publish(
                CHANNEL + table_id, json.dumps({**event, "from": self.process})
            )
        except Exception as e:
            raise self._failed("publish", e) from None
        self._answered()

    async def keep_time(self) -> None:
        """Measure this machine's clock against Redis's if it was not in the last
        :data:`CLOCK_EVERY` seconds, and set this process's shared clock right by it
        (:mod:`torampu.web.clock`): every process stamps and judges stored times by Redis's
        clock. Raises if Redis does not answer (the clock stays as it was)."""
        if time.monotonic() - self._skew_at < CLOCK_EVERY:
            return
        before = time.time()
        secs, micros = await self.redis.time()
        after = time.time()
        if after - before > CLOCK_ROUND_TRIP and self._skew_at > -CLOCK_EVERY:
            return  # (a slow answer, the loop busy: measured again at the next call)
        skew = int(secs) + int(micros) / 1e6 - (before + after) / 2
        self._skew_at = time.monotonic()
        if abs(skew - clock.offset()) > CLOCK_SAID:
            log.warning("this machine's clock is %+.1f s off Redis's: set right", -skew)
        clock.set_offset(skew)

    async def _now(self) -> float:
        """The time by Redis's clock (this machine's, set right by the skew measured at most
        :data:`CLOCK_EVERY` seconds ago)."""
        await self.keep_time()
        return clock.wall()

    async def set_presence(self, table_id: str, seats: list[int], clients: int) -> None:
        key = PRESENCE + table_id
        try:
            if clients:
                at, ttl = await self._now(), self.presence_ttl
                value = json.dumps({"seats": seats, "clients": clients, "at": at, "ttl": ttl})
                async with self.redis.pipeline(transaction=False) as p:
                    p.hset(key, self.process, value)
                    p.expire(key, max(1, int(self.presence_ttl * 4)))
                    await p.execute()
            else:
                await self.redis.hdel(key, self.process)
        except Exception as e:
            raise self._failed("presence", e) from None
        self._answered()

    async def presence(self, table_id: str) -> tuple[set[int], int]:
        try:
            entries = await self.redis.hgetall(PRESENCE + table_id)
            now = await self._now()
        except Exception as e:
            raise self._failed("presence", e) from None
        self._answered()
        seats: set[int] = set()
        clients = 0
        stale: list[Any] = []  # field, value: deleted only if not written again meanwhile
        for proc, raw in entries.items():
            if (proc.decode() if isinstance(proc, bytes) else proc) == self.process:
                continue
            try:
                entry = json.loads(raw)
                if now - float(entry["at"]) > float(entry.get("ttl", PRESENCE_TTL)):
                    stale += [proc, raw]  # its process stopped beating: killed, or cut off
                    continue
                seats.update(int(s) for s in entry["seats"])
                clients += int(entry["clients"])
            except (ValueError, TypeError, KeyError, AttributeError):
                stale += [proc, raw]
        if stale:
            with contextlib.suppress(Exception):
                await self._prune(keys=[PRESENCE + table_id], args=stale)
        return seats, clients

    async def lease(self, table_id: str, ttl: float, held: bool = False) -> bool:
        try:
            got = await self._renew(
                keys=[LEASE + table_id, PARKED + table_id],
                args=[self.process, int(ttl * 1000), int(held)],
            )
        except Exception as e:
            raise self._failed("lease", e) from None
        self._answered()
        return bool(got)

    async def release(self, table_id: str, park: float = 0.0) -> None:
        with contextlib.suppress(Exception):
            await self._release_lease(
                keys=[LEASE + table_id, PARKED + table_id],
                args=[self.process, max(0, int(park * 1000))],
            )

    async def leased(self, table_ids: list[str]) -> set[str]:
        out: set[str] = set()
        for at in range(0, len(table_ids), 250):
            chunk = table_ids[at : at + 250]
            try:
                held = await self.redis.mget(
                    [*(LEASE + t for t in chunk), *(PARKED + t for t in chunk)]
                )
            except Exception as e:
                raise self._failed("leased", e) from None
            n = len(chunk)
            out.update(
                t for i, t in enumerate(chunk) if held[i] is not None or held[n + i] is not None
            )
        self._answered()
        return out

    async def spend(self, key: str, rate: float, burst: int) -> bool | None:
        if not self.healthy:
            return None  # known down: not another command's timeout in a request
        full = max(1.0, burst / rate if rate > 0 else 3600.0)  # a full bucket needs no key
        try:
            named = f"{BUCKET}{key}:n:{secrets.token_hex(8)}"  # (this spending's: _SPEND)
            got = await self._spend(
                keys=[BUCKET + key, named],
                args=[repr(float(rate)), int(burst), int(full * 1000) + 1000],
            )
        except Exception as e:
            self._failed("spend", e)
            return None
        self._answered()
        return bool(got)

    async def claim(self, key: str, ttl: float) -> bool:
        try:
            mine = f"{self.process}:{secrets.token_hex(6)}"  # (this asking's own)
            got = await self._claim(keys=[CLAIM + key], args=[mine, int(ttl * 1000)])
        except Exception as e:
            raise self._failed("claim", e) from None
        self._answered()
        return bool(got)

    async def unclaim(self, key: str) -> None:
        with contextlib.suppress(Exception):
            await self._release_ours(keys=[CLAIM + key], args=[f"{self.process}:"])


def _where(url: str) -> str:
    """A Redis URL without its password, for messages."""
    return url.split("@")[-1]
