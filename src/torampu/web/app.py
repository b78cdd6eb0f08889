"""The web server: HTTP API, one websocket per table, and the browser front end.

``create_app(settings)`` builds a FastAPI application; ``torampu serve`` runs it with uvicorn.
The protocol is described in ``docs/web.md``. Every request is checked here for its form (JSON,
sizes, tokens) and passed to :class:`~torampu.web.rooms.Lobby`, which owns the tables.

>>> from fastapi.testclient import TestClient
>>> with TestClient(create_app(Settings(database="sqlite://"))) as client:
...     client.get("/api/health").json()["status"]
'ok'
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gzip
import ipaddress
import json
import logging
import math
import re
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

import torampu
from torampu.bots import bot_kinds
from torampu.web import validate
from torampu.web.addresses import address_key, owner_hash
from torampu.web.bus import Bus, RedisBus
from torampu.web.http import SECURITY_HEADER_LINES, now_and_then
from torampu.web.outbox import Behind, Dismissed, Outbox, PerKey, TokenBucket
from torampu.web.rooms import (
    BOT_SPECS,
    ActError,
    Client,
    Lobby,
    Room,
    Settings,
    error_id,
    invite_matches,
    new_token,
    records_wait,
    storage_unavailable,
)
from torampu.web.store import Store
from torampu.web.validate import MAX_MESSAGE_VALUES, Invalid, parse_object
from torampu.web.workers import RedisWorkers, Workers

STATIC = Path(__file__).parent / "static"
MAX_BODY = 65536


def _json_bytes(out: Any) -> bytes:
    """``out`` as the API's JSON (FastAPI's own encoding: UTF-8, no spaces)."""
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode()


Endpoint = TypeVar("Endpoint", bound=Callable[..., Awaitable[Any]])

LIST_FRESH = 1.0
"""Seconds a page of the table list is served again as it was made (the lobby asks every 4 s)."""
LIST_SETTLE = 0.5
"""Seconds a page of the table list is served again as it was made though a table changed
since, to every address that changed none through this process since the page was made."""
LOBBY_PAGES = frozenset({(0, 50, "open"), (0, 20, "over")})
"""The table-list pages the lobby asks for every 4 s (lobby.js ``refresh``)."""
LIST_STALE = 30.0
"""Seconds a page of the table list is served again, however the tables changed, when the
process has made its ``list_rate_all`` pages (to an address that changed none since): a lobby
polling every 4 s reads a list a little old, not ``503 busy`` at every poll."""
ACTED_KEPT = 10_000
"""Addresses remembered as having changed a table (the newest), for :data:`LIST_SETTLE`."""
LISTINGS_KEPT = 64
"""Pages of the table list kept made (the newest)."""
HEALTH_FRESH = 1.0
"""Seconds the health's count of public tables is given again as counted."""
MAX_OFFSET = 1000
"""The furthest a page of the table list starts (rows read and passed over cost: 100,000 of
them took 0.45 s a page, a thirty-first audit)."""
CHUNK = 65536
"""Bytes of a large response written at a time (:func:`_in_chunks`)."""


def _takes_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` takes gzip (named, not with ``q=0``).

    >>> [_takes_gzip(h) for h in ("gzip, deflate, br", "br;q=1, GZIP;q=0.5", "gzip;q=0", "")]
    [True, True, False, False]
    """
    for part in accept_encoding.split(","):
        name, _, params = part.partition(";")
        if name.strip().lower() != "gzip":
            continue
        q = params.strip().lower()
        if q.startswith("q="):
            try:
                return float(q[2:]) > 0
            except ValueError:
                return False
        return True
    return False


def _in_chunks(body: bytes, headers: dict[str, str] | None = None) -> Response:
    """The JSON ``body``, written ``CHUNK`` bytes at a time: each waits until the client has
    taken enough of the one before (uvicorn's flow control), so a client that reads slowly
    or not at all holds a chunk of it in its connection's buffer, not the whole of a replay of
    megabytes (a seventh audit; ``--send-timeout`` drops a client that reads nothing)."""
    if len(body) <= CHUNK:
        return Response(body, media_type="application/json", headers=headers)

    async def chunks() -> AsyncIterator[bytes]:
        view = memoryview(body)
        for i in range(0, len(view), CHUNK):
            yield bytes(view[i : i + CHUNK])

    sized = {"Content-Length": str(len(body)), **(headers or {})}
    return StreamingResponse(chunks(), media_type="application/json", headers=sized)


log = logging.getLogger("torampu.web")


BOT_LABELS = {
    "heuristic": ("Bot (normal): quick rules of thumb", "CPU・普通 (経験則ですばやく打つ)"),
    "random": ("Bot (easy): random legal moves", "CPU・弱 (ランダムに打つ)"),
    "ismcts:think=0.3": ("Bot (strong): search, 0.3 s a move", "CPU・強 (探索、1手0.3秒)"),
    "ismcts:think=1": ("Bot (strongest): search, 1 s a move", "CPU・最強 (探索、1手1秒)"),
}


CREATE_KEYS = frozenset(
    ("game", "rules", "players", "games", "seats", "chat", "hints", "private", "turn_timeout")
)
"""The keys of a new table's request body (``POST /api/tables``); any other is refused."""

INVITE_HEADER = "x-torampu-invite"
"""The request header that carries a private table's invite secret (the page takes it from its
link's fragment, ``/t/<id>#invite=…``, which browsers never send to a server)."""


def _error(e: ActError) -> JSONResponse:
    # a body refused before it was read whole leaves the rest of it on the connection: closed
    headers = {"connection": "close"} if e.status in (408, 413) else {}
    if e.status == 429:  # (when to ask again, as the request rate's own 429 says: a code review)
        headers["retry-after"] = "1"
    body = {"error": {"code": e.code, "message": str(e)}}
    return JSONResponse(body, status_code=e.status, headers=headers or None)


async def _body(request: Request) -> dict[str, Any]:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ActError("too_large", f"the body is over {MAX_BODY} bytes", 413)
    raw = b""
    wait: float = request.app.state.settings.body_timeout
    try:  # (a body sent a byte a minute held its connection for ever: a fifth audit's guess)
        async with asyncio.timeout(wait):
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_BODY:
                    raise ActError("too_large", f"the body is over {MAX_BODY} bytes", 413)
    except TimeoutError:
        raise ActError("too_slow", f"the body did not arrive within {wait:g} s", 408) from None
    except ClientDisconnect:
        # gone before its body came: nobody to answer, nothing to log (each was an internal
        # error with its traceback, 7.5 KB of log a request: a nineteenth audit)
        raise ActError("bad_request", "the client went away before the body came", 400) from None
    if not raw.strip():
        return {}
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        # a page of another site can send text/plain without asking the server first (no
        # CORS preflight): a body is JSON, said so
        raise ActError(
            "unsupported_media_type", "a body is JSON, sent as Content-Type: application/json", 415
        )
    try:
        return parse_object(raw)
    except Invalid as e:
        raise ActError("bad_request", f"the body: {e}", 400) from None


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


def _address(conn: Request | WebSocket, ipv6_prefix: int) -> str:
    """The key of the client's address for the per-address limits (an IPv6 client's network:
    :func:`~torampu.web.addresses.address_key`; behind a proxy, uvicorn's
    ``--forwarded-allow-ips`` sets the address)."""
    return address_key(conn.client.host, ipv6_prefix) if conn.client is not None else "unknown"


class RevalidatedStatic(StaticFiles):
    """The client's files, each checked against its ETag on every load (``no-cache``): with no
    caching header a browser keeps a module for a while on a guess, and after an upgrade would run
    old modules beside new ones (and talk to the server in an old way)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


class SecurityHeaders:
    """ASGI middleware: :data:`~torampu.web.http.SECURITY_HEADERS` on every HTTP response,
    errors included, and ``Cache-Control: no-store`` on the API's (unless a route set its
    own)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.headers = SECURITY_HEADER_LINES

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        api = str(scope.get("path", "")).startswith("/api/")

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in have]
                if api and b"cache-control" not in have:
                    # the API's answers are one reader's (a seat's, a private table's): kept by
                    # no cache on the way
                    extra.append((b"cache-control", b"no-store"))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


_AGAIN_SOON = [(b"retry-after", b"1"), (b"connection", b"close")]
"""The headers of a request refused from its address's queue: again in a second, on a new
connection."""


@dataclass
class _Queue:
    """An address's requests in :class:`RequestLimit`: ``turn`` lets ``at_once`` of them run;
    ``requests``, run or waiting (the queue is dropped at 0)."""

    turn: asyncio.Semaphore
    requests: int = 0


class RequestLimit:
    """ASGI middleware: at most ``rate`` HTTP requests a second from one client address
    (``burst`` at once), pages, static files and the API alike (a page's first load takes about
    30). Past it a request is answered ``429`` ``rate_limited`` with ``Retry-After`` before any
    route runs, and its connection is closed (``Connection: close``): a client that goes on
    must open a new one, which the raw connections' own rate bounds (:mod:`~torampu.web.http`).
    Without it one address looping requests on a few keep-alive connections had the event loop
    for itself: 460 listings a second, and every other table's answers 30 times slower
    (``bench/web_flood.py``). Websockets have their own limits (``connect_rate``, messages).
    The limit is this process's: behind a balancer, each process gives an address its own.

    Of the requests it lets in, at most ``at_once`` from one address run at once; the others
    wait their turn in that address's queue (first come, first served). Five addresses each
    sending their whole burst (300) at once every six seconds held the event loop half a second
    each time — the process ran 1,500 requests at once, and every other table's answers and
    moves waited behind them (a fifteenth audit; ``bench/web_flood.py --burst-every 6``). A
    queue holds at most ``burst`` requests (past it ``429``), each waiting at most ``wait``
    seconds (past it ``503`` ``busy``): behind a proxy, where the per-address bound on
    connections is off, one address's requests with bodies that never came held their turns,
    and the rest waited without end, each holding its connection — 2,500 descriptors in a
    minute, the process's all in eight (a nineteenth audit).

    And at most ``rate_all`` requests a second in all (``burst_all`` at once; 0: no bound),
    whatever the addresses: past it ``503`` ``busy``, the connection closed. Thirty addresses,
    each within its own rate, asked for cached records and lists 450 times a second, and a
    table's moves on the process came 180 ms late at the median, 1.7 s at worst (a
    forty-eighth audit); the tables' websockets are not counted."""

    def __init__(
        self,
        app: Any,
        rate: float,
        burst: int,
        ipv6_prefix: int,
        at_once: int,
        wait: float,
        rate_all: float = 0.0,
        burst_all: int = 1,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets = PerKey(rate, burst)
        self.all = TokenBucket(rate_all, burst_all, clock()) if rate_all > 0 else None
        # a fair share: while the process's bucket is empty, an address that asked for little
        # lately (its share, charged for every request of its that comes this far, served or
        # not, in hand) is still served, from a reserve of a quarter of the process's rate — a
        # few addresses, each within --request-rate, spent the whole bucket, and every other
        # address's pages failed 503 (a forty-ninth audit: 5 addresses at 48 a second, an
        # innocent's page loads 1 in 11 whole; with the share 6 in 6 against 10 such addresses).
        # The share is the rate split among the addresses that asked lately, a tenth at most:
        # fourteen addresses at 19 a second each, each within a fixed tenth, spent the reserve
        # too (a fiftieth audit). And the addresses within their shares come first: an address
        # past its share takes from the bucket only what it holds over a quarter of its burst
        # (``floor``), which is the light ones' — four addresses spending the bucket, eight
        # pacing within their shares kept the reserve empty, and another's page loads came
        # whole 0 times in 5 (a fifty-first audit). The shares of all who ask add up to the
        # process's rate, so those within theirs are all served
        self.share_rate = rate_all / FAIR_SHARE
        self.shares = PerKey(self.share_rate, max(FAIR_BURST, burst_all // 8))
        self._shared_at = clock()
        self.reserve = TokenBucket(rate_all / RESERVE, max(1, burst_all // RESERVE), clock())
        self.floor = burst_all // RESERVE
        most = f"the server takes at most {rate_all:g} requests a second: try again in a moment"
        self.most = _json_bytes({"error": {"code": "busy", "message": most}})
        self.rate_all = rate_all
        self.refused_all = 0
        """Requests refused by the process's bound since it was last logged."""
        self._said_at = -BUSY_LOG_EVERY
        self.ipv6_prefix = ipv6_prefix
        self.at_once = at_once
        self.wait = wait
        self.queues: dict[str, _Queue] = {}  # (an address's, while it has a request here)
        full = f"at most {burst} requests from one address wait their turn: wait a little"
        self.full = _json_bytes({"error": {"code": "rate_limited", "message": full}})
        busy = f"this address's requests waited over {wait:g} s for their turn: try again"
        self.busy = _json_bytes({"error": {"code": "busy", "message": busy}})
        message = (
            f"at most {rate:g} requests a second from one address ({burst} at once): wait a little"
        )
        self.body = _json_bytes({"error": {"code": "rate_limited", "message": message}})

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = address_key(client[0], self.ipv6_prefix) if client else "unknown"
        now = self.clock()
        if self.buckets.take(key, now):
            queue = self.queues.get(key)
            if queue is not None and queue.requests >= self.burst:
                await _refuse(send, 429, self.full, _AGAIN_SOON)
                return
            # (the process's bound after the address's queue: a request that queue refused
            # spent a token of the process's, a code review; the health check is not counted —
            # refused, every process read as down to the proxy at once, another)
            if (
                self.all is not None
                and scope.get("path") != "/api/health"
                and not self._take_all(key, now)
            ):
                self._busy(now)
                await _refuse(send, 503, self.most, _AGAIN_SOON)
                return
            if queue is None:
                queue = self.queues[key] = _Queue(asyncio.Semaphore(self.at_once))
            queue.requests += 1
            try:
                try:
                    async with asyncio.timeout(self.wait):
                        await queue.turn.acquire()
                except TimeoutError:
                    await _refuse(send, 503, self.busy, _AGAIN_SOON)
                    return
                try:
                    # (its turn taken, it waits for the loop's next round: a burst arrives in
                    # one round, and each request, run whole in its first step, gave its turn
                    # back before the next took it — the queue never held anyone)
                    await asyncio.sleep(0)
                    await self.app(scope, receive, send)
                finally:
                    queue.turn.release()
            finally:
                queue.requests -= 1
                if not queue.requests:
                    del self.queues[key]
            return
        wait = max(1, math.ceil(1 / self.rate))
        more = [(b"retry-after", str(wait).encode()), (b"connection", b"close")]
        await _refuse(send, 429, self.body, more)

    def _take_all(self, key: str, now: float) -> bool:
        """A token of the process's bound for a request of ``key``'s: for an address within
        its fair share, from the common bucket, or, that one empty, from the reserve; for one
        past it, from the common bucket while it holds more than its ``floor``."""
        assert self.all is not None
        if now - self._shared_at >= SHARE_EVERY:  # (how many asked lately)
            asked = sum(1 for b in self.shares.buckets.values() if now - b.at < SHARE_LATELY)
            self.share_rate = self.rate_all / max(FAIR_SHARE, asked)
            self._shared_at = now
        share = self.shares.bucket(key, now)
        share.rate = self.share_rate
        if share.charge(now):
            return self.all.take(now) or self.reserve.take(now)
        return self.all.take(now, keep=self.floor)

    def _busy(self, now: float) -> None:
        """Count a request the process's bound refused; say so in the log at most every
        :data:`BUSY_LOG_EVERY` seconds (refused without a word, an operator saw only pages that
        failed to load — a code review)."""
        self.refused_all += 1
        if now - self._said_at >= BUSY_LOG_EVERY:
            log.warning(
                "the process took its %g requests a second (--request-rate-all): %d refused busy "
                "(addresses past their fair share while a quarter of the burst was kept, or all "
                "spent)",
                self.rate_all,
                self.refused_all,
            )
            self._said_at, self.refused_all = now, 0


TURN_TIMEOUT_LEAST = 10.0
"""The shortest time for a turn a table may be made with (seconds)."""


def _turn_timeout(value: Any, most: float) -> float | None:
    """A creation's ``turn_timeout``: seconds a player has for a move at the table (0: no
    limit), :data:`TURN_TIMEOUT_LEAST` to an hour — or, where the server limits a turn
    (``--turn-timeout`` ``most`` > 0), at most that (and from it, if it is less); ``None``
    (not given): the server's.

    >>> _turn_timeout(None, 0.0), _turn_timeout(60, 0.0), _turn_timeout(0, 0.0)
    (None, 60.0, 0.0)
    >>> _turn_timeout(120, 60.0)
    Traceback (most recent call last):
    ...
    torampu.web.rooms.ActError: turn_timeout must be 10 to 60 seconds on this server
    """
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise ActError(
            "bad_request", f"turn_timeout must be a number of seconds, not {value!r}", 400
        )
    top = most if most > 0 else 3600.0
    least = min(TURN_TIMEOUT_LEAST, top)  # (a server's own limit under 10 s is its to allow)
    if (value == 0 and most <= 0) or least <= value <= top:
        return float(value) + 0.0  # (-0.0: 0.0)
    none = " (0: no limit)" if most <= 0 else ""
    raise ActError(
        "bad_request",
        f"turn_timeout must be {least:g} to {top:g} seconds{none} on this server",
        400,
    )


BUSY_LOG_EVERY = 10.0
"""Seconds between the log's lines about requests the process's bound refused."""

FAIR_SHARE = 10
"""An address's fair share of ``--request-rate-all``: a tenth of it at most — split among the
addresses that asked lately, more than ten of them — in a burst of :data:`FAIR_BURST` (three
pages' first loads) or an eighth of ``--request-burst-all``."""

SHARE_EVERY = 1.0
"""Seconds between two counts of the addresses that asked lately (for the fair share)."""

SHARE_LATELY = 5.0
"""Seconds since its last request within which an address counts as one that asked lately."""

FAIR_BURST = 90
"""The least burst of an address's fair share: three pages' first loads."""

RESERVE = 4
"""The reserve for addresses within their fair share once the process's bucket is empty: a
quarter of ``--request-rate-all`` and of ``--request-burst-all`` more (so the process takes
1.25 times its bound at most)."""


async def _refuse(
    send: Any, status: int, body: bytes, more: list[tuple[bytes, bytes]] | None = None
) -> None:
    """Answer an HTTP request ``status`` with the JSON ``body`` from a middleware, before any
    route runs (``more``: further headers)."""
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *(more or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _refuse_any(scope: Any, receive: Any, send: Any, status: int, body: bytes) -> None:
    """Refuse a request from a middleware: an HTTP one ``status`` with ``body``, a websocket's
    handshake by closing it before it opens (the client sees 403)."""
    if scope["type"] == "websocket":
        await receive()  # websocket.connect; closing now refuses the handshake
        await send({"type": "websocket.close", "code": 1008})
        return
    await _refuse(send, status, body)


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


_WEB_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}


def origin_host(origin: str) -> str | None:
    """``scheme://host[:port]`` as ``scheme://host:port`` (the scheme's port when none is
    written; ``ws`` as ``http``, ``wss`` as ``https``), or None for anything else (``null``, a
    path, no scheme).

    >>> origin_host("HTTPS://Tables.example.org"), origin_host("ws://[::1]:8000")
    ('https://tables.example.org:443', 'http://[::1]:8000')
    >>> origin_host("null"), origin_host("https://x/y")
    (None, None)
    """
    scheme, sep, rest = origin.partition("://")
    scheme = scheme.lower()
    if not sep or scheme not in _DEFAULT_PORTS or not rest or "/" in rest or "@" in rest:
        return None
    return f"{_WEB_SCHEMES[scheme]}://{_with_port(rest, _DEFAULT_PORTS[scheme])}"


def _with_port(host: str, default: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):  # [v6]:port
        return host if "]:" in host else f"{host}:{default}"
    return host if ":" in host else f"{host}:{default}"


class SameOrigin:
    """ASGI middleware: a request that changes something (any method but GET, HEAD and OPTIONS)
    and every websocket handshake must come from a page of this server, or from no page at all
    (a script or a bot sends no ``Origin``). A browser names the page's origin in ``Origin``;
    one that is not this server's (its host and port are the request's ``Host``, as a TLS proxy
    forwards it) nor one of ``allowed`` (``--origin``), or a request the browser marks
    ``Sec-Fetch-Site: cross-site``, is refused ``403 cross_origin`` (a websocket: closed before
    it opens). Without it any web page could create tables and take seats from its visitors'
    browsers: a ``text/plain`` POST needs no CORS preflight (a security review filled a
    stranger's public table with "ghost" players that way), and browsers apply no CORS to
    websockets at all."""

    def __init__(self, app: Any, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = {h for h in (origin_host(o) for o in allowed) if h is not None}
        message = "a page of another site may not act on this server"
        self.body = _json_bytes({"error": {"code": "cross_origin", "message": message}})

    def _foreign(self, scope: Any) -> bool:
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        if headers.get(b"sec-fetch-site", b"").lower() == b"cross-site":
            return True
        origin = headers.get(b"origin")
        if origin is None:
            return False
        seen = origin_host(origin.decode("latin-1"))
        if seen is None:
            return True  # "null" (a sandboxed frame, a file) or garbage
        # this server's own: the scheme (as a TLS proxy says it, ``X-Forwarded-Proto``), host
        # and port it was reached by — a page of ``http://site:443`` (a network attacker's, on
        # plain HTTP) is not of ``https://site`` (a fortieth audit)
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        host = headers.get(b"host", b"").decode("latin-1")
        own = origin_host(f"{scheme}://{host}") if host else None
        return seen != own and seen not in self.allowed

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        acting = kind == "websocket" or (kind == "http" and scope["method"] not in SAFE_METHODS)
        if not acting or not self._foreign(scope):
            await self.app(scope, receive, send)
            return
        await _refuse_any(scope, receive, send, 403, self.body)


_HOST_NAME = re.compile(r"(\*\.)?[a-z0-9_][a-z0-9_-]*(\.[a-z0-9_][a-z0-9_-]*)*\.?")


def host_pattern(name: str) -> str | None:
    """``name`` as :class:`KnownHost` compares it (lower case, no trailing dot), or None if it
    is not a host name, a ``*.`` pattern of one, or ``*``.

    >>> host_pattern("Tables.Example.org"), host_pattern("*.example.org"), host_pattern("*")
    ('tables.example.org', '*.example.org', '*')
    >>> host_pattern("evil.org/x") is None, host_pattern("") is None, host_pattern("a..b") is None
    (True, True, True)
    """
    name = name.strip().lower()
    if name == "*":
        return name
    if len(name) > 253 or not _HOST_NAME.fullmatch(name):
        return None
    return name.rstrip(".")


def host_name(host: str) -> str:
    """The name a ``Host`` header gives, without its port, lower case, no trailing dot.

    >>> host_name("Example.ORG:8000"), host_name("[::1]:8000"), host_name("127.0.0.1")
    ('example.org', '::1', '127.0.0.1')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0].rstrip(".") if ":" in host else host.rstrip(".")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class KnownHost:
    """ASGI middleware: a request (a websocket too) whose ``Host`` names this server by a name it
    was not told is refused ``400 unknown_host`` (a websocket: closed before it opens). That is
    DNS rebinding's defence: a page of ``evil.example`` whose name its owner points at
    127.0.0.1 after it loaded is, to the browser, of the same origin as the server it reaches
    there — :class:`SameOrigin` compares the page's origin with ``Host``, which the page's own
    name passes — so it could create tables and take seats on a server that only this computer
    was meant to reach. A rebinding page always sends its own name as ``Host``; an address
    (``127.0.0.1``, ``[::1]``, ``192.168.1.5``) cannot be rebound, so addresses always pass, as
    do ``localhost`` and ``*.localhost`` (which browsers resolve themselves). ``allowed`` are the
    other names (``--allowed-host``): ``tables.example.org``, ``*.example.org`` (any name under
    it), or ``*`` (any name: no check). A request without ``Host`` (HTTP/1.0: no browser) passes.
    """

    def __init__(self, app: Any, allowed: tuple[str, ...]) -> None:
        self.app = app
        patterns = [p for p in (host_pattern(a) for a in allowed) if p is not None]
        self.any = "*" in patterns
        self.names = {p for p in patterns if not p.startswith("*")}
        self.suffixes = tuple(p[1:] for p in patterns if p.startswith("*."))
        message = (
            "this server does not answer to the name this request gave it (its operator lists "
            "the names it answers to with --allowed-host)"
        )
        self.body = _json_bytes({"error": {"code": "unknown_host", "message": message}})

    def known(self, host: str) -> bool:
        """Whether a request whose ``Host`` is ``host`` may reach the server."""
        name = host_name(host)
        if self.any or not name or name in self.names or _is_address(name):
            return True
        if name == "localhost" or name.endswith(".localhost"):
            return True
        return name.endswith(self.suffixes) if self.suffixes else False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or self.any:
            await self.app(scope, receive, send)
            return
        host = next((v for k, v in scope.get("headers", []) if k.lower() == b"host"), b"")
        if self.known(host.decode("latin-1")):
            await self.app(scope, receive, send)
            return
        await _refuse_any(scope, receive, send, 400, self.body)


SOURCE_REF = re.compile(r"\s*[(（](?:\d{3}(?:/\d{3})*(?:/napoleon-web)?|napoleon-web)[)）]")
"""A rule text's number or an outside program named after a rule, "(000)", "(001/002)",
"(napoleon-web)": the developers' references, not the players' words."""
SOURCE_PREFIX = re.compile(r"([(（、,] ?)(?:\d{3}|napoleon-web)(?:: | (?=★)|の)")
PLAYER_FIELDS = ("label", "description_en", "label_ja", "description_ja", "values_en", "values_ja")
PRESET_FIELDS = ("name_en", "note_en", "name_ja", "note_ja")


def _for_players(value: Any) -> Any:
    """``value`` (a text, or a dict of texts) without the rule texts' numbers in it.

    >>> _for_players({"own": "Its printed suit (000)", "x": "redeal (000), or (napoleon-web)"})
    {'own': 'Its printed suit', 'x': 'redeal, or'}
    >>> _for_players("4人 (000: 小さい札を抜く)"), _for_players("(弱い請求、002: 強い請求)")
    ('4人 (小さい札を抜く)', '(弱い請求、強い請求)')
    >>> _for_players("ジョーカーの枚数 (004のヤイタ式: 3枚)")  # (an eleventh review)
    'ジョーカーの枚数 (ヤイタ式: 3枚)'
    """
    if isinstance(value, str):
        return SOURCE_PREFIX.sub(r"\1", SOURCE_REF.sub("", value))
    if isinstance(value, dict):
        return {k: _for_players(v) for k, v in value.items()}
    return value


def _preset_by_players(
    game: str, preset: str, given: dict[str, Any], options: list[dict[str, Any]], values: list[Any]
) -> dict[str, Any]:
    """``{"players_options": {"4": {option: value}}}``: what ``preset`` resolves to, beyond its
    ``options``, with so many players (Napoleon's classic presets show every discard at 4), or
    nothing. The lobby's list said "Basic + 1 change" of a 4-player table of Basic whose host
    changed nothing (a code review of 664f8bc)."""
    base = {o["name"]: o["default"] for o in options} | given
    out = {}
    for n in values:
        try:
            rules = torampu.new_game(game, rules=preset, players=n, seed=0).rules
        except torampu.RulesError:
            continue
        differ = {k: v for k, v in rules.items() if k != "players" and k in base and v != base[k]}
        if differ:
            out[str(n)] = differ
    return {"players_options": out} if out else {}


@functools.cache
def _games_info() -> list[dict[str, Any]]:
    """What ``GET /api/games`` says of each game (the same for every request: made once)."""
    out = []
    for name in torampu.games():
        options = torampu.rules(name)
        players = next((o for o in options if o["name"] == "players"), None)
        values = list(players.get("values") or []) if players else []
        info = {
            "name": name,
            "players": {
                "default": players["default"] if players else None,
                "min": min(values) if values else None,
                "max": max(values) if values else None,
            },
            # the games of a match when a table does not say (Hell: its whole series, which
            # depends on the number of players), by number of players
            "games": {
                "default": {
                    str(n): torampu.new_match(name, players=n, seed=0).games_total for n in values
                }
            },
            # what players read carries no rule text's number ("Highest trump (000)": a third
            # review); ``description`` and ``note``, the developers' notes, keep them
            "presets": {
                k: {f: _for_players(v) if f in PRESET_FIELDS else v for f, v in p.items()}
                | _preset_by_players(name, k, p["options"], options, values)
                for k, p in torampu.presets(name).items()
            },
            "options": [
                {f: _for_players(v) if f in PLAYER_FIELDS else v for f, v in o.items()}
                for o in options
            ],
        }
        out.append(json.loads(json.dumps(info, default=str)))
    return out


def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    """The server application, on ``store`` (else one opened and migrated from ``settings``
    when it starts); the store is closed when the application stops."""
    settings = settings or Settings()
    state: dict[str, Lobby] = {}
    creations = MovingWindowRateLimiter(MemoryStorage())
    made: OrderedDict[tuple[Any, ...], tuple[bytes, bytes]] = OrderedDict()
    """The newest replays and match records made (``replays_kept``), by what they are of
    (``("replay", table, game, seat)``, ``("record", table)``): once made they never change.
    Each whole and gzipped."""
    refused: OrderedDict[tuple[Any, ...], ActError] = OrderedDict()
    """Replays found too large (``--max-replay-mb``): refused at once when asked again."""
    making = 0
    pending: dict[tuple[Any, ...], asyncio.Future[tuple[bytes, bytes]]] = {}
    """The replays and records being made, by key: a second request for one waits for it
    rather than making it again (a sixty-first audit: eight requests at once for one unbuilt
    replay took every build slot, other addresses' replays 503)."""
    builder = ThreadPoolExecutor(1, thread_name_prefix="torampu-replay")
    builds = PerKey(settings.replay_rate, settings.replay_burst)
    # (and the whole process's: one key, four addresses' bursts at once)
    builds_all = PerKey(settings.replay_rate_all, 4 * settings.replay_burst)
    # the bytes of them sent to one address (made or kept): a kept replay of 1.3 MB asked
    # within --request-rate went out at 64 MB a second to one address (a sixty-first audit)
    sent_bytes = PerKey(
        settings.replay_mb_rate * 1_000_000, int(2 * settings.max_replay_mb * 1_000_000)
    )
    listings: OrderedDict[tuple[int, int, str | None], tuple[float, int, bytes]] = OrderedDict()
    """The table list's pages made, by (offset, limit, status), with when and after how many
    changes to tables' rows (:attr:`Lobby.rows_changed`): every reader of a page within
    ``LIST_FRESH`` seconds and no change is served the same bytes."""
    lists = PerKey(settings.list_rate, settings.list_burst)
    # (and the whole process's: one key; twenty addresses, each within its own rate, made 40
    # pages of 100 tables a second, the loop at 85 %, another table's moves 5 ms -> 300 ms at
    # p99, a fifty-fourth audit)
    lists_all = PerKey(settings.list_rate_all, 4 * settings.list_burst)
    building: dict[tuple[int, int, str | None], tuple[float, asyncio.Future[bytes]]] = {}
    """The table list's pages being made, with when each began."""
    acted: OrderedDict[str, float] = OrderedDict()
    """The addresses that asked this process to change a table, and when (``monotonic``):
    their next page of the table list shows what they did."""
    seat_changes = PerKey(settings.seat_change_rate, settings.seat_change_burst)

    def changes_tables(endpoint: Endpoint) -> Endpoint:
        """``endpoint`` changes a table (makes, seats, starts, closes one): once it has
        answered, its address's next page of the table list is made after it."""

        @functools.wraps(endpoint)
        async def changing(*args: Any, **kwargs: Any) -> Any:
            try:
                return await endpoint(*args, **kwargs)
            finally:
                address = _address(kwargs["request"], settings.ipv6_prefix)
                acted[address] = time.monotonic()
                acted.move_to_end(address)
                while len(acted) > ACTED_KEPT:
                    acted.popitem(last=False)

        return cast(Endpoint, changing)

    async def seat_changing(request: Request) -> None:
        """A seat change from the request's address, within ``--seat-change-rate`` (else
        ``rate_limited``): here, then across every process (a bucket on Redis, the address by
        its hash). Each change is read again by every process holding the table and each of
        its watchers is sent a snapshot (a forty-first audit: renames in a loop through one
        process kept another's core 30 % busy)."""
        address = _address(request, settings.ipv6_prefix)
        rate, burst = settings.seat_change_rate, settings.seat_change_burst
        if (
            not seat_changes.take(address, time.monotonic())
            or await lobby().bus.spend(f"seats:{owner_hash(address)}", rate, burst) is False
        ):
            raise ActError(
                "rate_limited",
                f"at most {rate:g} seat changes a second from one address: wait a little",
                429,
            )

    replay_cap = int(settings.max_replay_mb * 1_000_000)

    async def built(
        request: Request, key: tuple[Any, ...], make: Callable[[], bytes]
    ) -> tuple[bytes, bytes]:
        """``make()``'s bytes, kept once made. Making one (a Daifugo game's replay: some 150
        views and up to 1 MB of JSON, 30–130 ms; a long match's record: 17 ms) runs in one
        thread off the event loop, at most ``replay_rate`` a second per address
        (``replay_burst`` at once) and ``replays_queued`` queued in all: a security review
        cycled 45 uncached replays at 19 a second and held every other table's websocket
        for up to 2 s. Kept whole and gzipped (made in the same thread): see :func:`served`;
        refused first if the address was sent its ``--replay-mb-rate`` (:func:`sending`)."""
        nonlocal making
        sending(request)

        def whole_and_zipped() -> tuple[bytes, bytes]:
            body = make()
            return body, gzip.compress(body, 6)

        kept_pair = made.get(key)
        if kept_pair is not None:
            made.move_to_end(key)
            return kept_pair
        if key in refused:  # (made once, too large: not made again)
            raise refused[key]
        waited = pending.get(key)
        if waited is not None:  # (being made for another request: one build, both served)
            return await asyncio.shield(waited)
        now = time.monotonic()
        mine = builds.bucket(_address(request, settings.ipv6_prefix), now)
        if not mine.available(now):
            raise ActError(
                "rate_limited",
                f"at most {settings.replay_rate:g} replays or records made a second from one "
                "address: wait a little",
                429,
            )
        if making >= settings.replays_queued or not builds_all.take("", now):
            # (before the address's own token is taken: a busy server costs it nothing)
            raise ActError("busy", "the server is making other replays: try again shortly", 503)
        mine.take(now)
        # (counted once it is queued: a builder that refuses it — shut down with the app —
        # raises here, and a slot counted first was never given back)
        future = asyncio.get_running_loop().run_in_executor(builder, whole_and_zipped)
        making += 1
        pending[key] = future
        future.add_done_callback(functools.partial(keep, key))
        return await asyncio.shield(future)

    def keep(key: tuple[Any, ...], future: asyncio.Future[tuple[bytes, bytes]]) -> None:
        """A build of ``key`` done (on the event loop): kept, or its refusal kept — whether or
        not the request that began it is still there (a client gone mid-build: the others
        waiting for it, and the next to ask, have it)."""
        nonlocal making
        if pending.get(key) is not future:
            return  # (a build of the app's last run, ended since: counted there, not here)
        making -= 1
        del pending[key]
        if future.cancelled():
            return
        e = future.exception()
        if isinstance(e, ActError) and e.code == "too_large":
            refused[key] = e
            while len(refused) > 4 * settings.replays_kept:
                refused.popitem(last=False)
        if e is not None:
            return
        made[key] = future.result()
        kept = sum(len(a) + len(z) for a, z in made.values())
        while len(made) > settings.replays_kept or (len(made) > 1 and kept > 4 * replay_cap):
            a, z = made.popitem(last=False)[1]
            kept -= len(a) + len(z)

    def sending(request: Request) -> None:
        """Refuse (``rate_limited``) an address sent its ``--replay-mb-rate`` of replays and
        records: checked before a replay is made, so that a refusal costs it nothing."""
        if not sent_bytes.bucket(
            _address(request, settings.ipv6_prefix), time.monotonic()
        ).available(time.monotonic()):
            raise ActError(
                "rate_limited",
                f"at most {settings.replay_mb_rate:g} MB of replays and records a second to one "
                "address: wait a little",
                429,
            )

    def served(
        request: Request, pair: tuple[bytes, bytes], headers: dict[str, str] | None = None
    ) -> Response:
        """A replay or record made (:func:`built`), gzipped where the client takes it, its
        bytes charged to the address's ``--replay-mb-rate`` (one body past the bucket's
        last tokens goes out, into a debt of one burst at most)."""
        # (again: requests that passed sending() together while their replays were being
        # made would each go out past the bucket, its debt capped at one burst)
        sending(request)
        body, zipped = pair
        accepts = request.headers.get("accept-encoding", "")
        out = dict(headers or {})
        out["Vary"] = "Accept-Encoding"
        if _takes_gzip(accepts):
            body = zipped
            out["Content-Encoding"] = "gzip"
        sent_bytes.bucket(_address(request, settings.ipv6_prefix), time.monotonic()).charge(
            time.monotonic(), len(body)
        )
        return _in_chunks(body, headers=out)

    per_minute = RateLimitItemPerMinute(max(1, settings.create_rate))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        nonlocal builder, making, pending
        # (a thread of its own for each run of the app: the last run's was shut down with it,
        # and every replay of a second run failed 500)
        builder = ThreadPoolExecutor(1, thread_name_prefix="torampu-replay")
        # (and no build of the last run's: one in flight as it ended finished on a loop gone,
        # and held its --replays-queued slot and its key for good — that replay 500, a
        # future of another loop awaited, every other replay 503 — a code review)
        making, pending = 0, {}
        db = store if store is not None else Store(settings.database_url())
        bus: Bus | None = None
        workers: Workers | None = None
        if settings.redis:
            redis_bus = RedisBus(settings.redis, settings.presence_ttl, settings.redis_connections)
            bus = redis_bus
            workers = RedisWorkers(redis_bus.redis, settings.job_timeout)
        lobby = Lobby(db, settings, bus=bus, workers=workers)
        state["lobby"] = lobby
        _app.state.lobby = lobby
        await lobby.start()
        try:
            yield
        finally:
            await lobby.stop()
            db.close()
            builder.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="torampu", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )  # the contract is docs/web.md; no generated route map (a fifth audit)
    app.state.settings = settings
    app.add_middleware(
        RequestLimit,
        rate=settings.request_rate,
        burst=settings.request_burst,
        ipv6_prefix=settings.ipv6_prefix,
        at_once=settings.requests_at_once,
        wait=settings.body_timeout,
        rate_all=settings.request_rate_all,
        burst_all=settings.request_burst_all,
    )
    app.add_middleware(SameOrigin, allowed=settings.origins)
    if settings.allowed_hosts is not None:
        app.add_middleware(KnownHost, allowed=settings.allowed_hosts)
    app.add_middleware(SecurityHeaders)  # the outer one: a refusal has the headers too

    def lobby() -> Lobby:
        return state["lobby"]

    async def room(table_id: str, request: Request) -> Room:
        """The table a request names, if the request may see it: a private table answers 404,
        as a missing one does, unless the request carries its invite (``X-Torampu-Invite``)
        or a seat token or the host token of it (``Authorization: Bearer``)."""
        try:
            validate.table_id(table_id)
        except Invalid:
            raise ActError(
                "not_found", "no such table (a table id is letters and digits)", 404
            ) from None
        r, _how = await lobby().open_table(
            table_id,
            request.headers.get(INVITE_HEADER),
            _bearer(request),
            _address(request, settings.ipv6_prefix),
        )
        return r

    @app.exception_handler(ActError)
    async def on_act_error(_request: Request, e: ActError) -> JSONResponse:
        return _error(e)

    @app.exception_handler(RequestValidationError)
    async def on_bad_params(_request: Request, e: RequestValidationError) -> JSONResponse:
        where = ", ".join(".".join(str(x) for x in err.get("loc", ())) for err in e.errors())
        return _error(ActError("bad_request", f"malformed request ({where or 'parameters'})", 400))

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, e: StarletteHTTPException) -> Response:
        """Starlette's own answers (no such route, a method a route does not take) in the
        contract's shape, ``{"error": {"code", "message"}}`` — except a browser's page that is
        not there, which gets the page (status 404) to say so in the reader's language, with
        the way back (a fourth review: raw JSON)."""
        if (
            e.status_code == 404
            and request.method == "GET"
            and not request.url.path.startswith(("/api/", "/ws/", "/static/"))
            and "text/html" in request.headers.get("accept", "")
            and (STATIC / "index.html").exists()
        ):
            return page(404)
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "bad_request")
        message = {404: "no such page or API route", 405: "this route does not take that method"}
        return JSONResponse(
            {"error": {"code": code, "message": message.get(e.status_code, str(e.detail))}},
            e.status_code,
            headers=dict(e.headers or {}),
        )

    @app.exception_handler(SQLAlchemyError)
    async def on_storage(_request: Request, e: SQLAlchemyError) -> JSONResponse:
        return _error(storage_unavailable(e))

    @app.exception_handler(Exception)
    async def on_internal(_request: Request, e: Exception) -> JSONResponse:
        eid = error_id()
        log.error("internal error %s", eid, exc_info=e)
        return JSONResponse(
            {"error": {"code": "internal", "message": f"internal error (error {eid})"}}, 500
        )

    # ---------------------------------------------------------------- pages
    if STATIC.is_dir():
        app.mount("/static", RevalidatedStatic(directory=STATIC), name="static")

    def page(status: int = 200) -> Response:
        """The page (``status``: 404 for an address it is not at), or without a front end a
        JSON 404."""
        html = STATIC / "index.html"
        if not html.exists():
            return JSONResponse({"error": {"code": "no_page", "message": "no front end"}}, 404)
        return FileResponse(html, status_code=status, headers={"Cache-Control": "no-cache"})

    def index() -> Response:
        return page()

    app.get("/", include_in_schema=False)(index)
    app.head("/", include_in_schema=False)(index)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return index()

    @app.get("/t/{table_id}/replay/{k}", include_in_schema=False)
    async def replay_page(table_id: str, k: str) -> Response:
        return index()

    # ---------------------------------------------------------------- API
    counted: list[float] = [-HEALTH_FRESH, 0.0]  # when, and how many public tables
    counting = asyncio.Lock()

    async def public_tables() -> int:
        """The public tables, counted at most once every :data:`HEALTH_FRESH` seconds, one
        count at a time (each count read every table's row: 26–33 ms with 100,000 tables, and
        four addresses asking the health without end held every join 166 ms, a thirty-first
        audit)."""
        async with counting:
            if time.monotonic() - counted[0] >= HEALTH_FRESH:
                lb = lobby()
                counted[1] = await lb.db(lb.store.count_tables)
                counted[0] = time.monotonic()
            return int(counted[1])

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        lb = lobby()
        out = {
            "status": "ok",
            "database": lb.store.dialect,
            "tables": await public_tables(),
            "version": torampu.__version__,
        }
        if settings.redis:
            out["bus"] = "ok" if lb.bus.healthy else "unavailable"
            out["process"] = lb.bus.process
            if not lb.bus.healthy:
                out["status"] = "degraded"
        return out

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        # (and this server's time for a turn: a table's own is chosen within it)
        return {"games": _games_info(), "turn_timeout": settings.turn_timeout}

    @app.get("/api/bots")
    async def bots() -> dict[str, Any]:
        kinds = set(bot_kinds())
        out = []
        for spec, (en, ja) in BOT_LABELS.items():
            if spec.split(":")[0] not in kinds or spec not in BOT_SPECS:
                continue
            try:
                lobby().check_bot(spec)
            except ActError:
                continue  # above this server's think ceiling
            out.append({"spec": spec, "label": {"en": en, "ja": ja}})
        return {"bots": out, "max_think": settings.max_bot_think}

    async def creating(address: str) -> None:
        """A new table from ``address``, within ``--create-rate`` (else ``rate_limited``)."""
        too_many = ActError(
            "rate_limited",
            f"at most {settings.create_rate} new tables a minute from one address",
            429,
        )
        if not creations.hit(per_minute, address):
            raise too_many
        # and the same allowance across every process (a bucket on Redis; the address by its
        # hash): a client spreading its requests over two processes made 20 a minute, not 10
        rate = max(1, settings.create_rate)
        if await lobby().bus.spend(f"create:{owner_hash(address)}", rate / 60, rate) is False:
            raise too_many

    @app.post("/api/tables", status_code=201)
    @changes_tables
    async def create_table(request: Request) -> dict[str, Any]:
        body = await _body(request)
        game = body.get("game")
        if not isinstance(game, str):
            raise ActError("bad_request", "game must be one of " + ", ".join(torampu.games()), 400)
        seats = body.get("seats")
        if seats is not None and not (
            isinstance(seats, list) and all(isinstance(s, str) for s in seats)
        ):
            raise ActError("bad_request", "seats must be a list of 'open' or bot specs", 400)
        for key in ("players", "games"):
            v = body.get(key)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise ActError("bad_request", f"{key} must be a whole number, not {v!r}", 400)
        unknown = sorted(set(body) - CREATE_KEYS)
        if unknown:
            # (a key misspelt was passed over: {"privat": true} made a public table, and its
            # maker was told nothing — a sixtieth audit)
            shown = ", ".join(repr(k[:40]) for k in unknown[:5])
            raise ActError(
                "bad_request",
                f"unknown key {shown}: a new table takes " + ", ".join(sorted(CREATE_KEYS)),
                400,
            )
        address = _address(request, settings.ipv6_prefix)
        chat = body.get("chat", {})
        if not isinstance(chat, dict) or set(chat) - {"spectators"}:
            raise ActError("bad_request", 'chat is {"spectators": true or false}', 400)
        features = {"spectator_chat": chat.get("spectators", False), "hints": body.get("hints")}
        features["hints"] = False if features["hints"] is None else features["hints"]
        for key, v in features.items():
            if not isinstance(v, bool):
                raise ActError("bad_request", f"{key.replace('_', ' ')} is true or false", 400)
        private = body.get("private", False)
        if not isinstance(private, bool):
            raise ActError("bad_request", "private is true or false", 400)
        turn = _turn_timeout(body.get("turn_timeout"), settings.turn_timeout)
        invite = new_token() if private else None
        # charged within --create-rate once the whole request is checked (its game, rules,
        # seats and bots too): a request refused 400 makes nothing and costs no new table of
        # the minute's ten (a sixtieth audit: ten with a misspelt option locked their address
        # out of making a table for a minute)
        r, token = await lobby().create(
            game,
            body.get("rules"),
            body.get("players"),
            body.get("games"),
            seats,
            features,
            address,
            invite,
            turn,
            charge=lambda: creating(address),
        )
        out = {"table": lobby().public_table(r), "host_token": token}
        if invite is not None:
            out["invite"] = invite
        return out

    @app.get("/api/tables")
    async def list_tables(
        request: Request, offset: int = 0, limit: int = 50, status: str | None = None
    ) -> Response:
        """A page of the public tables. A page made in the last ``LIST_FRESH`` seconds, with no
        table made, seated, started or closed since, is served again as it was; making one (a
        hundred tables' rows and rules: some 30 ms of CPU, most of it encoding) is at most
        ``list_rate`` a second per address: an eighth audit's 40 pages a second of
        ``limit=100``, within the request rate, took 85% of a core, and two addresses slowed
        every table's moves from 3 ms to 680 ms.

        A page is made at most once in ``LIST_SETTLE`` seconds, changes or not, and while one
        is being made its readers wait for it: a forty-first audit's five renames a second at
        some table made each of 120 lobby visitors' polls make the page anew, 80 % of a core.
        An address that changed a table through this process since (made, seated, started,
        closed one) is made a page after its change, its own table there."""
        # (an offset is rows read and passed over: 100,000 of them took 0.45 s a page, a
        # thirty-first audit; the lobby shows 50 a page, and nobody pages twenty deep)
        if not 0 <= offset <= MAX_OFFSET or not 1 <= limit <= 100:
            raise ActError("bad_request", f"offset is 0 to {MAX_OFFSET:,}, limit 1 to 100", 400)
        if status not in (None, "open", "waiting", "playing", "over"):
            raise ActError("bad_request", "status is open, waiting, playing or over", 400)
        key = (offset, limit, status)
        now = time.monotonic()
        lb = lobby()
        address = _address(request, settings.ipv6_prefix)
        since = acted.get(address, -math.inf)
        kept = listings.get(key)
        if kept is not None and since < kept[0]:
            age = now - kept[0]
            if age < LIST_SETTLE or (age < LIST_FRESH and kept[1] == lb.rows_changed):
                return Response(kept[2], media_type="application/json")
        while (going := building.get(key)) is not None and since < going[0]:
            try:
                return Response(await asyncio.shield(going[1]), media_type="application/json")
            except asyncio.CancelledError:
                if not going[1].cancelled():
                    raise  # (this request is, not the page: its maker's was)
            # (its maker's request was cancelled: the first reader makes it, the others wait
            # for that one — each made its own, the many pages this is to spare, a code review)
        mine = lists.bucket(address, now)
        if not mine.available(now):
            raise ActError(
                "rate_limited",
                f"at most {settings.list_rate:g} table lists made a second from one address: "
                "wait a little",
                429,
            )
        # (the lobby's own two pages, made at most every LIST_SETTLE whoever asks, may take the
        # last list_burst of the process's allowance: five addresses each within --list-rate
        # asking pages of their own kept it spent, and every lobby's poll was refused)
        reserve = 0 if key in LOBBY_PAGES else settings.list_burst
        if not lists_all.bucket("", now).take(now, keep=reserve):
            # (before the address's own token is taken: a busy server costs it nothing; a page
            # of this key kept, if not too old, is better than an error at every lobby poll)
            kept = listings.get(key)
            if kept is not None and since < kept[0] and now - kept[0] < LIST_STALE:
                return Response(kept[2], media_type="application/json")
            raise ActError("busy", "the server is making other table lists: try again shortly", 503)
        mine.take(now)
        page: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        building[key] = (now, page)
        try:
            changes = lb.rows_changed
            rows = await lb.db(lb.store.tables, limit, offset, status)
            out = []
            for t in rows:
                loaded = lb.rooms.get(t.id)
                out.append(lb.public_table(loaded) if loaded else lb.public_row(t, t.seats))
            body = _json_bytes({"tables": out, "offset": offset, "limit": limit})
        except Exception as e:
            page.set_exception(e)
            page.exception()  # (retrieved: nobody else may be waiting)
            raise
        except BaseException:
            page.cancel()  # (its readers make it themselves)
            raise
        finally:
            if building.get(key, (0.0, None))[1] is page:
                del building[key]
        page.set_result(body)
        listings[key] = (now, changes, body)
        listings.move_to_end(key)
        while len(listings) > LISTINGS_KEPT:
            listings.popitem(last=False)
        return Response(body, media_type="application/json")

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        return lobby().public_table(await room(table_id, request))

    @app.post("/api/tables/{table_id}/join")
    @changes_tables
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        r = await room(table_id, request)
        await seat_changing(request)
        body = await _body(request)
        address = _address(request, settings.ipv6_prefix)
        seat, token = await lobby().join(r, body.get("name"), body.get("seat"), address)
        return {"seat": seat, "token": token, "table": lobby().public_table(r)}

    @app.post("/api/tables/{table_id}/seats/{seat}")
    @changes_tables
    async def set_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        r = await room(table_id, request)
        lobby().check_host(r, _bearer(request))
        await seat_changing(request)
        body = await _body(request)
        holder = body.get("holder", ...)  # (the seat's holder as the host saw it, if sent)
        if body.get("open") is True:
            await lobby().set_seat(r, seat, None, holder)
        elif isinstance(body.get("bot"), str):
            await lobby().set_seat(r, seat, body["bot"], holder)
        else:
            raise ActError("bad_request", 'send {"bot": spec} or {"open": true}', 400)
        return lobby().public_table(r)

    @app.post("/api/tables/{table_id}/start")
    @changes_tables
    async def start(table_id: str, request: Request) -> dict[str, Any]:
        r = await room(table_id, request)
        lobby().check_host(r, _bearer(request))
        body = await _body(request)
        fill = body.get("fill")
        if fill is not None and not isinstance(fill, str):
            raise ActError("bad_request", "fill must be a bot spec", 400)
        await lobby().start_table(r, fill)
        return lobby().public_table(r)

    @app.post("/api/tables/{table_id}/leave")
    @changes_tables
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        r = await room(table_id, request)
        await seat_changing(request)
        body = await _body(request)
        in_play = body.get("in_play", False)
        if not isinstance(in_play, bool):
            raise ActError("bad_request", "in_play must be true or false", 400)
        address = _address(request, settings.ipv6_prefix)
        # (the game in progress only when asked in so many words: a "Leave seat" pressed as
        # the host started was refused ``started``, and must not hand the seat to a bot)
        leave = lobby().leave_game if in_play else lobby().leave
        seat = await leave(r, _bearer(request), address)
        return {"seat": seat, "table": lobby().public_table(r)}

    @app.post("/api/tables/{table_id}/move")
    @changes_tables
    async def move(table_id: str, request: Request) -> dict[str, Any]:
        r = await room(table_id, request)
        await seat_changing(request)
        body = await _body(request)
        address = _address(request, settings.ipv6_prefix)
        seat = await lobby().move_seat(r, _bearer(request), body.get("seat"), address)
        return {"seat": seat, "table": lobby().public_table(r)}

    @app.post("/api/tables/{table_id}/swap")
    @changes_tables
    async def swap(table_id: str, request: Request) -> dict[str, Any]:
        r = await room(table_id, request)
        lobby().check_host(r, _bearer(request))
        await seat_changing(request)
        body = await _body(request)
        seats = body.get("seats")
        if not isinstance(seats, list) or len(seats) != 2:
            raise ActError("bad_request", 'send {"seats": [a, b]}: the two seats to swap', 400)
        await lobby().swap_seats(r, seats[0], seats[1])
        return lobby().public_table(r)

    @app.post("/api/tables/{table_id}/close")
    @changes_tables
    async def close_table(table_id: str, request: Request) -> dict[str, Any]:
        r = await room(table_id, request)
        await _body(request)
        await lobby().close_table(r, _bearer(request))
        return {"closed": r.id}

    @app.post("/api/tables/{table_id}/name")
    @changes_tables
    async def rename(table_id: str, request: Request) -> dict[str, Any]:
        r = await room(table_id, request)
        await seat_changing(request)
        body = await _body(request)
        address = _address(request, settings.ipv6_prefix)
        seat = await lobby().rename(r, _bearer(request), body.get("name"), address)
        return {"seat": seat, "table": lobby().public_table(r)}

    @app.post("/api/tables/{table_id}/rematch", response_model=None)
    @changes_tables
    async def rematch(table_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        r = await room(table_id, request)
        body = await _body(request)
        withdraw, host = body.get("withdraw", False), body.get("host")
        if not isinstance(withdraw, bool):
            raise ActError("bad_request", "withdraw is true or false", 400)
        if host is not None and not isinstance(host, str):
            raise ActError("bad_request", "host is the table's host token, a string", 400)
        # the request that makes the rematch pays for it, within its address's --create-rate
        # (a chain of rematches of one-game tables against bots made 2.4 tables a second from
        # one address, where 10 a minute are allowed: a thirty-first audit)
        address = _address(request, settings.ipv6_prefix)
        new = await lobby().rematch(
            r, _bearer(request), withdraw, host, charge=lambda: creating(address), address=address
        )
        if new is None:  # asked for; the others connected have not yet
            old = lobby().public_table(r)
            return JSONResponse({"table": None, "from": r.id, "wanted": old["rematch_wanted"]}, 202)
        return {"table": lobby().public_table(new), "from": r.id}

    @app.post("/api/tables/{table_id}/invite")
    async def new_invite(table_id: str, request: Request) -> dict[str, Any]:
        r = await room(table_id, request)
        await _body(request)
        invite = await lobby().new_invite(r, _bearer(request))
        return {"invite": invite, "table": lobby().public_table(r)}

    def _finished(r: Room, k: int) -> dict[str, Any]:
        m = r.match
        if k < 0:  # ("game 0 has not finished" was said of game -1: a twenty-first audit)
            raise ActError("not_found", f"no game at index {k}: the games' indexes start at 0", 404)
        if m is None or not k < m.games_played:
            played = 0 if m is None else m.games_played
            raise ActError(
                "not_found", f"game {k + 1} has not finished (games finished: {played})", 404
            )
        if records_wait(m):
            raise ActError(
                "not_over",
                "in this match the next deal is made from the last game's cards (light "
                "shuffle): a game's record and replay are there once the match is over",
            )
        return m.records[k]

    @app.get("/api/tables/{table_id}/games")
    async def finished_games(table_id: str, request: Request) -> dict[str, Any]:
        m = (await room(table_id, request)).match
        records = [] if m is None else m.records
        shown = not records_wait(m)
        return {
            "games": [
                {"index": k, "result": rec["result"], "record": shown}
                for k, rec in enumerate(records)
            ]
        }

    @app.get("/api/tables/{table_id}/games/{k}/record")
    async def game_record(table_id: str, k: int, request: Request) -> Response:
        r = await room(table_id, request)
        rec = _finished(r, k)
        # made once and kept, as the match's (encoded on the event loop at each request: 326 a
        # second of a long game's from ten addresses, another table's pings 38 ms and its joins
        # 228 ms, a thirty-first audit)
        pair = await built(request, ("game_record", r.id, k), lambda: _json_bytes(rec))
        name = f'attachment; filename="{table_id}-game{k + 1}.json"'
        return served(request, pair, headers={"Content-Disposition": name})

    @app.get("/api/tables/{table_id}/games/{k}/replay")
    async def game_replay(
        table_id: str, k: int, request: Request, seat: int | None = None, hands: str | None = None
    ) -> Response:
        r = await room(table_id, request)
        rec = _finished(r, k)
        if seat is not None and not 0 <= seat < int(rec["players"]):
            raise ActError("not_found", f"no seat {seat}", 404)
        if hands not in (None, "all"):
            raise ActError("bad_request", "hands is 'all' or left out", 400)
        every = hands == "all"
        players = int(rec["players"])

        def make() -> bytes:
            # with hands=all each step also has every seat's hand, each from that seat's own
            # view: a finished game's record (every card) is public already, and a game is
            # looked back on with every hand open
            g = torampu.replay({**rec, "actions": []})

            def step(seat_: Any, action: Any) -> dict[str, Any]:
                out: dict[str, Any] = {"seat": seat_, "action": action, "view": g.view(seat)}
                if every:
                    out["hands"] = [g.view(s).get("hand") for s in range(players)]
                return out

            # each step written as it is made, and the whole bounded (--max-replay-mb): a
            # Daifugo view holds the game's log, so a replay grows with the square of the
            # game's length — one made long on purpose (1,700 passes on the lead) gave 90 MB
            # and held the server at 1 GB after six (a sixth audit)
            head = _json_bytes({"game": k, "seat": seat, "result": rec["result"], "steps": []})
            parts = [head[:-2]]
            size = len(head)
            for i, a in enumerate([None, *rec["actions"]]):
                if a is not None:
                    g.play(a["action"])
                part = _json_bytes(step(None, None) if a is None else step(a["seat"], a["action"]))
                size += len(part) + (i > 0)
                if size > replay_cap:
                    raise ActError(
                        "too_large",
                        f"this game's replay would be over {settings.max_replay_mb:g} MB: its "
                        f"record (/api/tables/{table_id}/games/{k}/record) holds the same moves",
                        413,
                    )
                parts.append((b"," if i else b"") + part)
            parts.append(head[-2:])
            return b"".join(parts)

        # a replay found too large is refused at once for the replays larger than it, not made
        # again for each of a long match's 900 seat, hand and game keys (up to 1.9 s each: ten
        # addresses held another table's joins 1.4 s, a thirty-first audit)
        # (a replay made is served as made; the smallest of a game's, the spectator's without
        # the hands, too large: so is every other; a seat's without them: so is it with them)
        key = ("replay", r.id, k, seat, every)
        smallest = ("replay", r.id, k, None, False)
        if key not in made:
            for larger in (smallest, ("replay", r.id, k, seat, False)):
                if larger in refused:
                    raise refused[larger]
        return served(request, await built(request, key, make))

    @app.get("/api/tables/{table_id}/record")
    async def match_record(table_id: str, request: Request) -> Response:
        r = await room(table_id, request)
        if r.match is None or not r.match.is_over:
            raise ActError("not_over", "the match record is there once the match is over")
        m = r.match
        pair = await built(request, ("record", r.id), lambda: _json_bytes(m.to_record()))
        return served(
            request,
            pair,
            headers={"Content-Disposition": f'attachment; filename="{table_id}.json"'},
        )

    # ---------------------------------------------------------------- websocket
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        await Socket(ws, lobby(), settings).serve(table_id)

    return app


class Gone(Exception):
    """A hello at a private table without its invite or a token of it: the socket is refused
    as for a table that does not exist."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.table_id = table_id


class TooMany(Exception):
    """A hello to a table that holds its most sockets: the socket is refused, closed with
    ``close`` (1013 where the server is full: try again later; else 1008, a limit)."""

    def __init__(self, why: str, close: int = 1008) -> None:
        super().__init__(why)
        self.close = close


WAITED_LONG = 1.0
"""Seconds a websocket may wait for its hello before a newer one may push it out past
``max_pending_sockets``: a browser says hello a moment after its socket opens, but a server
that a crowd reconnects to at once (after a restart) reads their hellos only after taking all
their sockets — pushing out the oldest at once closed 300 of 800 such players (a code
review)."""


MAX_REFUSALS = 20
"""Rate-limit refusals after which a socket is closed."""


class Socket:
    """One websocket to a table: limits, the hello, the messages, and its outbox."""

    def __init__(self, ws: WebSocket, lobby: Lobby, settings: Settings) -> None:
        self.ws = ws
        self.lobby = lobby
        self.settings = settings
        self.addr = _address(ws, settings.ipv6_prefix)
        self.client = Client(None, addr=self.addr)
        self.client.demoted = self._demoted
        self.room: Room | None = None
        self.table_id = ""
        self.counted: list[tuple[Counter[str], str]] = []
        self.joined = False
        now = time.monotonic()
        self.hellos = TokenBucket(settings.hello_rate, settings.hello_burst, now)
        self.messages = TokenBucket(settings.message_rate, settings.message_burst, now)
        self.chats = TokenBucket(settings.chat_rate, settings.chat_burst, now)
        self.hints = TokenBucket(settings.hint_rate, settings.hint_burst, now)
        self.outbox = Outbox(self._send, self._snapshot, settings.send_timeout, settings.outbox_max)
        self.refusals = 0
        # a hello within --hello-timeout of the connection, however many pings come meanwhile
        # (the clock started again at each message: a code review kept a silent socket open so)
        self.hello_by = now + settings.hello_timeout
        self.client.outbox = self.outbox

    async def _send(self, text: str) -> None:
        await self.ws.send_text(text)

    def _snapshot(self) -> str | None:
        if self.room is None or not self.joined:
            return None
        return self.lobby.snapshot_text(self.room, self.client.seat)

    def error(self, code: str, message: str) -> None:
        self.outbox.push({"type": "error", "code": code, "message": message})

    async def refuse(self, code: str, message: str, close: int) -> None:
        """Say why in one error message, then close (without waiting on a slow client)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.ws.send_text(json.dumps({"type": "error", "code": code, "message": message})),
                2.0,
            )
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code=close, reason=code), 2.0)

    async def serve(self, table_id: str) -> None:
        lb, st = self.lobby, self.settings
        now = time.monotonic()
        refusal: tuple[str, str, int] | None = None
        if sum(lb.sockets.values()) >= st.max_sockets + lb.most_pending:
            refusal = ("too_many_sockets", "the server has its most connections", 1013)
        elif lb.sockets[self.addr] >= st.sockets_per_address:
            refusal = (
                "too_many_sockets",
                f"at most {st.sockets_per_address} connections from one address",
                1008,
            )
        elif not lb.connects.take(self.addr, now):
            refusal = (
                "rate_limited",
                f"at most {st.connect_rate:g} new connections a second from one address",
                1008,
            )
        if refusal is not None:
            if lb.told_refused.take(self.addr, now):
                # opened to say why (a browser is told no reason for a refused handshake)
                await self.ws.accept()
                await self.refuse(*refusal)
            else:
                # past a few reasons a second, refused before the handshake (an HTTP 403):
                # an opened socket's frames are read, and a forty-second audit's 104 sockets
                # in 12 s from one address, each opened to be refused, each sent 256 KiB
                await self.ws.close(code=refusal[2])
            return
        # counted before anything is awaited, the accept too: sockets opened at once (to
        # tables that must be loaded first) each see the others
        lb.sockets[self.addr] += 1
        self.counted.append((lb.sockets, self.addr))  # (its table's count joins at the hello)
        self._wait_for_hello()
        try:
            await self.ws.accept()
            try:
                validate.table_id(table_id)
            except Invalid:
                await self.refuse("not_found", "no such table", 4404)
                return
            # the table is looked at only when the hello comes: until then a socket to a table
            # that is there (public or private) and one to a table that is not are alike, and
            # a socket that never says hello neither loads nor wakes a table
            self.table_id = table_id
            await self._run(table_id)
        finally:
            lb.waiting.pop(id(self), None)
            self._uncount(self.counted)

    def _wait_for_hello(self) -> None:
        """Count this socket among those waiting for their hello (``max_pending_sockets``);
        past the bound the one that has waited longest is closed, once it has waited
        :data:`WAITED_LONG`. Until its hello nobody can tell a player's socket from a
        stranger's that will never speak, so refusing the new one would let a few addresses'
        silent sockets shut everyone out; a player's hello comes a moment after the accept,
        and the silent ones are the old ones (a twenty-sixth audit: counted among
        --max-sockets, six addresses holding 20 sockets each kept a player out of their own
        table for as long as they went on). A socket leaves the count when its hello comes;
        past it, ``max_sockets`` bounds them by kind (see :meth:`_count_in`)."""
        lb = self.lobby
        now = time.monotonic()
        if len(lb.waiting) >= lb.most_pending:
            oldest = next(iter(lb.waiting))
            since, close = lb.waiting[oldest]
            if now - since >= WAITED_LONG:
                del lb.waiting[oldest]
                close()
                lb.waited_out += 1
                if now_and_then(lb.waited_out):
                    log.warning(
                        "closed a websocket that waited for its hello to let a newer one in: "
                        "%d waiting (%d so far)",
                        lb.most_pending,
                        lb.waited_out,
                    )
        lb.waiting[id(self)] = (now, self._waited_out)

    def _waited_out(self) -> None:
        msg = {
            "type": "error",
            "code": "too_many_sockets",
            "message": "the server has its most connections waiting to begin: connect again",
        }
        self.outbox.dismiss(msg, 1013, "too_many_sockets")

    async def _run(self, table_id: str) -> None:
        writer = asyncio.ensure_future(self.outbox.run())
        reader = asyncio.ensure_future(self._read())
        try:
            done, _ = await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
            if writer in done and isinstance(writer.exception(), Dismissed):
                sent_away = writer.exception()
                assert isinstance(sent_away, Dismissed)
                reader.cancel()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(
                        self.ws.close(code=sent_away.code, reason=sent_away.reason), 1.0
                    )
            elif writer in done and isinstance(writer.exception(), Behind):
                log.info(
                    "table %s: a client at %s is behind (%s): closed",
                    table_id,
                    self.addr,
                    writer.exception(),
                )
                reader.cancel()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.ws.close(code=4008, reason="too slow"), 1.0)
        finally:
            for t in (writer, reader):
                t.cancel()
            for t in (writer, reader):
                with contextlib.suppress(BaseException):
                    await t
            if self.room is not None and self.joined:
                self.lobby.disconnect(self.room, self.client)

    async def _read(self) -> None:
        st = self.settings
        while True:
            timeout = None if self.joined else max(0.0, self.hello_by - time.monotonic())
            try:
                msg = await asyncio.wait_for(self.ws.receive(), timeout)
            except TimeoutError:
                await self.refuse("hello_timeout", f"say hello within {st.hello_timeout:g} s", 1008)
                return
            if msg["type"] == "websocket.disconnect":
                return
            text = msg.get("text")
            now = time.monotonic()
            too_many = None
            if not self.messages.take(now):
                too_many = f"at most {st.message_rate:g} messages a second"
            elif not self.lobby.address_messages.take(self.addr, now):
                n = self.lobby.address_messages.rate
                too_many = f"at most {n:g} messages a second from one address"
            if too_many is not None:
                self.error("rate_limited", too_many)
                if await self._flooding():
                    return
                continue
            if text is None:
                self.error("bad_message", "messages are JSON text, not binary")
                continue
            if len(text) > st.max_message or len(text.encode()) > st.max_message:
                self.error("too_large", f"a message is at most {st.max_message} bytes")
                continue
            try:
                data = parse_object(text, MAX_MESSAGE_VALUES)
            except Invalid as e:
                self.error("bad_message", str(e))
                continue
            if not isinstance(data.get("type"), str):
                self.error("bad_message", 'a message is an object with a "type"')
                continue
            if data["type"] == "hello":  # (it speaks: no longer among the silent, whatever
                self.lobby.waiting.pop(id(self), None)  # the hello's answer)
            try:
                await self._handle(data)
            except Gone as e:
                await self.refuse("not_found", f"no table {e.table_id!r}", 4404)
                return
            except TooMany as e:
                await self.refuse("too_many_sockets", str(e), e.close)
                return
            except ActError as e:
                self.error(e.code, str(e))
                if e.code == "rate_limited" and await self._flooding():
                    return
            except Exception as e:
                eid = error_id()
                log.error("internal error %s on a websocket message", eid, exc_info=e)
                self.error("internal", f"internal error (error {eid})")

    async def _admit(self, token: Any, invite: Any) -> tuple[Room, int | None, str | None, str]:
        """What a hello opens: the table (:meth:`Lobby.open_table`: a private table only with
        its invite, a seat token or the host token of it; else :class:`Gone`, as for a table
        that is not there), the seat its token holds and the token's hash, and how it came
        in. A token that is not a seat's is refused (``unauthorized``) as before — unless it
        is the table's host token, which watches."""
        try:
            room, how = await self.lobby.open_table(self.table_id, invite, token, self.client.addr)
        except ActError as e:
            if e.status == 404:
                raise Gone(self.table_id) from None
            raise
        if how == "host":
            return room, None, None, how
        seat, holder = await self.lobby.seat_of(room, token)
        if seat is None:
            return room, seat, holder, how
        # the mark of a returning player's seat, only for a hello that is let in: its place
        # taken first (refused, :class:`TooMany`, as before), given back if the hello then
        # fails — a hello refused for the server's or the table's sockets, marked first, held
        # the stand-in off, and a client refused again and again held the table's turn (a
        # twenty-third scale audit; a place checked but not taken could be gone after the
        # mark's wait, a code review)
        saved = list(self.counted)
        self._count_in(room, holder)
        try:
            if await self.lobby.coming_back(room, seat):
                # (read again after the wait: nothing is awaited between it and the connect)
                seat, holder = await self.lobby.seat_of(room, token)
        except BaseException:
            self._recount(saved)
            raise
        return room, seat, holder, how

    def _recount(self, saved: list[tuple[Counter[str], str]]) -> None:
        """This socket counted as it was (``saved``: its :attr:`counted` then) — the places a
        hello took given back when it failed."""
        sockets = self.lobby.sockets
        self._uncount([(c, k) for c, k in self.counted if c is not sockets])
        for c, k in saved:
            if c is not sockets:
                c[k] += 1
        self.counted = saved

    async def _flooding(self) -> bool:
        """Count a refusal for rate; a client refused :data:`MAX_REFUSALS` times is flooding
        and is closed (its refusals cost the server more than its messages are worth)."""
        self.refusals += 1
        if self.refusals < MAX_REFUSALS:
            return False
        log.info("a client at %s floods its socket: closed", self.addr)
        await self.refuse("rate_limited", "too many messages: closed", 1008)
        return True

    def _count_in(self, room: Room, who: str | None) -> None:
        """Count this socket at ``room`` (else :class:`TooMany`). ``who`` is the seat token's
        hash it holds its seat by, ``"host"``, or None for a spectator. Each seat's holder and
        the host have ``sockets_per_seat`` places of their own, apart from the spectators, so
        that neither watchers nor another player, however many sockets they open, shut a
        table's people out; spectators are bounded per table (``sockets_per_table``) and per
        table and address (``watchers_per_address``), so that one address cannot fill a
        table's places."""
        lb, st = self.lobby, self.settings
        full = (lb.greeted, "", st.max_sockets, "the server has its most connections")
        if who is not None:
            bounds = [
                full,
                (
                    lb.player_sockets,
                    f"{room.id} {who}",
                    st.sockets_per_seat,
                    f"at most {st.sockets_per_seat} connections for one seat (or the host) at a "
                    "table",
                ),
            ]
        else:
            bounds = [
                full,
                (
                    lb.watchers,
                    f"{room.id} {self.addr}",
                    st.watchers_per_address,
                    f"at most {st.watchers_per_address} spectators' connections to a table "
                    "from one address",
                ),
                (
                    lb.table_sockets,
                    room.id,
                    st.sockets_per_table,
                    f"at most {st.sockets_per_table} spectators' connections to a table",
                ),
                (  # (the rest of --max-sockets stays for players and hosts)
                    lb.spectators,
                    "",
                    lb.most_spectators,
                    "the server has its most spectators' connections (players' still connect)",
                ),
            ]
        # what this socket is counted as now replaces what it was counted as before: a socket
        # that said hello with a seat token and then as a spectator was left among the
        # players, outside the spectators' bounds (a fourth audit's note)
        before = [(c, k) for c, k in self.counted if c is not lb.sockets]
        self._uncount(before)
        for counter, key, most, why in bounds:
            if counter[key] >= most:
                for c, k in before:  # refused: counted as before
                    c[k] += 1
                raise TooMany(why, 1013 if key == "" else 1008)
        self.counted = [(c, k) for c, k in self.counted if c is lb.sockets]
        for counter, key, _, _ in bounds:
            counter[key] += 1
            self.counted.append((counter, key))

    def _demoted(self) -> None:
        """The seat this socket held changed hands (the host reopened it, its player left it):
        it watches on, so it counts as a spectator now — else sockets of a seat left were
        spectators outside the spectators' bounds (a fifth audit: 16 of one address at a table
        where 4 are allowed, by taking and leaving seats) — or, past those bounds, it closes."""
        if self.room is None:
            return
        try:
            self._count_in(self.room, "host" if self.client.host else None)
        except TooMany as e:
            self.client.dismiss("too_many_sockets", f"{e}: this seat's connection closes", 1008)

    @staticmethod
    def _uncount(counted: list[tuple[Counter[str], str]]) -> None:
        for counter, key in counted:
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    async def _handle(self, data: dict[str, Any]) -> None:
        lb, kind = self.lobby, data["type"]
        if kind == "ping":
            self.outbox.push({"type": "pong"})
            return
        if kind == "hello":
            # (each of a wrong type was taken without a word: a twenty-first audit)
            known = data.get("version")
            if known is not None and (type(known) is not int or known < 0):
                raise ActError("bad_message", "a hello's version is a whole number or null", 400)
            if data.get("invite") is not None and not isinstance(data["invite"], str):
                raise ActError("bad_message", "a hello's invite is a string or null", 400)
            if not self.hellos.take(time.monotonic()):
                raise ActError("rate_limited", "too many hellos: wait a little")
            new, seat, holder, how = await self._admit(data.get("token"), data.get("invite"))
            # a table's sockets count from the first hello it takes, as what they said hello as
            self._count_in(new, holder if seat is not None else "host" if how == "host" else None)
            c = self.client
            # a hello again to the same table and seat changes nothing the others see: it took
            # the seat's presence off and on, two new revisions and a snapshot to every client
            # each way, outside every bound on moves (a sixty-second audit: a seat's sockets
            # saying hello five times each, a new one every half second, at a table of 300
            # spectators: 13-15% of the server's CPU, 10-11% without the re-hellos' part)
            again = self.joined and self.room is new and c.seat == seat and c.holder == holder
            if self.joined and self.room is not None and not again:
                lb.disconnect(self.room, self.client)
            self.room = new
            c.seat, c.holder = seat, holder
            c.host = how == "host"
            # the invite a private table's guest holds, seated or not: once the guest's seat
            # changes hands, it still lets them watch (until the host replaces it)
            c.invite = new.table.invite if invite_matches(new, data.get("invite")) else None
            self.joined = True
            if again:
                c.refresh()  # (this client alone: its fresh snapshot)
            else:
                lb.connect(new, c)
            history = lb.chat_history(new, c)
            if history is not None:
                self.outbox.after_snapshot(history)
            return
        room = self.room
        if not self.joined or room is None:
            raise ActError("bad_message", 'send "hello" first', 400)
        if kind == "act":
            await lb.act(
                room,
                self.client.seat,
                data.get("action"),
                data.get("version"),
                holder=self.client.holder,
            )
        elif kind == "ready":
            await lb.ready(room, self.client)
        elif kind in ("chat", "react"):
            if not lb.may_chat(room, self.client):
                raise ActError("chat_closed", "spectators may not chat at this table", 403)
            if not self.chats.take(time.monotonic()):
                raise ActError(
                    "rate_limited", f"at most {self.settings.chat_rate:g} chat messages a second"
                )
            if kind == "chat":
                await lb.chat(room, self.client, data.get("text"), None)
            else:
                # ("": a reaction without one — told what a reaction is, not what a chat text
                # is, a forty-fourth audit)
                await lb.chat(room, self.client, None, data.get("id") or "")
        elif kind == "hint":
            if not self.hints.take(time.monotonic()):
                raise ActError("rate_limited", "too many hint requests: wait a little")
            self.outbox.push(await lb.hint(room, self.client))
        else:
            # named, not echoed whole (a type of 16 KB came back in full: a fourteenth audit)
            shown = repr(kind[:32]) + ("…" if len(kind) > 32 else "")
            raise ActError(
                "bad_message",
                f"unknown message type {shown}: one of hello, act, ready, chat, react, hint, ping",
                400,
            )
