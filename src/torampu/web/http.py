"""Bounds on raw HTTP connections, below the application: uvicorn's h11 protocol with a deadline
for a request's head and a cap on one address's open connections.

uvicorn waits for a request's head (its request line and headers) as long as bytes keep
trickling in, and accepts any number of connections from one address, so one address sending a
header line every few seconds on a thousand connections ("slowloris") spends the process's
file descriptors and nobody else can connect. :class:`GuardedH11Protocol` closes a connection
whose request head is not complete ``header_timeout`` seconds after the connection opened or
its previous response ended, and refuses a connection from an address that already holds
``per_address`` of them or opens more than ``rate`` a second (not behind a trusted proxy, where
every client has the proxy's address and the proxy bounds its clients itself: ``per_address``
:data:`UNLIMITED`), and answers a head over ``head_bytes`` bytes or ``head_lines`` lines
``431`` before it is parsed; the bounds are ``torampu serve`` flags. A request body sent in
chunks (``Transfer-Encoding``) is answered ``411``, and one thrown away after its response (sent
before the body came) is read for ``discard_bytes`` at most.

>>> HttpLimits(header_timeout=10.0, per_address=128, rate=20.0).new.burst
128
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import struct
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from torampu.web.addresses import DEFAULT_IPV6_PREFIX, address_key
from torampu.web.outbox import PerKey, TokenBucket

log = logging.getLogger("torampu.web")

CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "media-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "require-trusted-types-for 'script'",
        "trusted-types torampu-svg",
    ]
)
"""The Content-Security-Policy of every response: scripts and styles only from this server's
``/static`` files (no inline script, no ``style`` attribute, no ``eval``), no framing, and
Trusted Types: ``innerHTML`` takes only what the page's one policy (``torampu-svg``: the card
and suit drawings of ``cards.js``) hands it, so a string from a player can never become markup."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}
"""Sent with every HTTP response (pages, static files, the API, and the answers given here below
the application: :meth:`GuardedH11Protocol._refuse`, h11's own ``400``)."""

SECURITY_HEADER_LINES = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
""":data:`SECURITY_HEADERS` as ASGI and h11 write them: (name, value) in bytes, names lower
case."""

_RAW_HEADERS = b"".join(b"%s: %s\r\n" % line for line in SECURITY_HEADER_LINES)

_BLANK_LINE = re.compile(rb"\n\r?\n")
"""The end of a request's head, as h11 finds it."""

_LENGTH = re.compile(rb"\ncontent-length[ \t]*:", re.IGNORECASE)
_CHUNKED = re.compile(rb"\ntransfer-encoding[ \t]*:", re.IGNORECASE)


def now_and_then(n: int) -> bool:
    """Whether the ``n``-th of a kind of refusal is logged: the first and every thousandth (an
    attack repeats one without end; the log says so without growing as fast).

    >>> [n for n in range(1, 3001) if now_and_then(n)]
    [1, 1000, 2000, 3000]
    """
    return n == 1 or n % 1000 == 0


UNLIMITED = 2**31
"""``per_address`` that turns the per-address bounds off (behind a trusted proxy)."""


@dataclass
class HttpLimits:
    """What :class:`GuardedH11Protocol` enforces (shared by every connection of a server)."""

    header_timeout: float = 10.0
    """Seconds a request's head may take to arrive."""
    per_address: int = 128
    """Open connections one client address may hold."""
    rate: float = 20.0
    """New connections per second one address may open (``per_address`` at once): refused
    at once, before any HTTP or websocket handshake is parsed."""
    ipv6_prefix: int = DEFAULT_IPV6_PREFIX
    """Leading bits of an IPv6 address that name one client (:func:`address_key`)."""
    send_timeout: float = 10.0
    """Seconds a response may wait for a client that reads none of it (the connection's
    buffer full) before the connection is dropped, the unsent rest with it."""
    open: Counter[str] = field(default_factory=Counter)
    """Open connections per address now."""
    new: PerKey = field(init=False)
    """New connections per address (``rate``, ``per_address`` at once)."""
    refused: int = 0
    timed_out: int = 0
    stalled: int = 0
    """Connections dropped for reading none of a response for ``send_timeout``."""
    ws_frame_rate: float = 50.0
    """Websocket frames of any kind a client may send a second (four seconds' worth at once):
    see :class:`GuardedWebSocketProtocol`."""
    ws_data_rate: float = 64 * 1024
    """Bytes of websocket message data (inflated) a client may send a second (four seconds'
    worth at once)."""
    head_bytes: int = 16 * 1024
    """Bytes a request's head (request line and headers) may hold; past it ``431`` and the
    connection closed, before the head is parsed."""
    head_lines: int = 100
    """Lines a request's head may hold, its request line with them (a browser's has some 20);
    past it as above."""
    too_large: int = 0
    """Connections closed for a head past ``head_bytes`` or ``head_lines``."""
    discard_bytes: int = 64 * 1024
    """Bytes of a request's body read and thrown away after its response went early (a 404,
    405 or 429 before the body came) to keep the connection for the next request; past it the
    connection is closed."""
    discarded: int = 0
    """Connections closed for a body past ``discard_bytes`` after its response."""
    most: int = UNLIMITED
    """Open connections of every kind (HTTP and websocket, every address's) the process holds
    at once: past it a new one is dropped as it opens, before any handshake
    (``--max-connections``; by default :func:`connections_cap`). The per-address bounds keep
    one address from them; without this, some 150 addresses' idle connections spent every open
    file the process may hold, and then nobody could connect, its database and log files
    included, while asyncio logged each refused accept with its traceback (a sixty-fifth
    audit)."""
    full: int = 0
    """Connections dropped for ``most``."""
    send_buffer: int = 128 * 1024
    """Bytes asked of the kernel for each connection's send buffer (``SO_SNDBUF``; Linux
    gives twice it; 0: the kernel's own, grown as it sees fit). A sixty-eighth audit: the
    kernel grew it to 4 MB on its own, so a replay of 1 MB went whole into the buffer of a
    client that read none of it, the response was done as far as the server knew and
    ``send_timeout`` never came; the connection closed at ``header_timeout`` with the megabyte
    still queued in the kernel, out of every count of connections (one address, 60 requests:
    23 such, 24 MB, still held minutes later). Bounded, the rest waits in the process, where
    ``send_timeout`` drops it; 256 KB a round trip (2.5 MB a second at 100 ms) is more than
    ``--replay-mb-rate`` lets one address have."""

    def __post_init__(self) -> None:
        self.new = PerKey(self.rate, self.per_address)


def raise_open_files_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (at most 2**20): every
    connection holds one, and a common default soft limit is 1,024. The new soft limit."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard if hard != resource.RLIM_INFINITY else 2**20, 2**20)
    if soft == resource.RLIM_INFINITY or soft >= want:
        return int(soft)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (ValueError, OSError):  # pragma: no cover - not allowed here
        return int(soft)
    return want


FILES_KEPT = 256
"""Open files a process keeps for what is not a client's connection (its log, SQLite's files,
its bot workers' pipes, a margin), besides its database's and Redis's connections."""


FEW_CONNECTIONS = 64
"""Below this many connections at once, ``torampu serve`` says its open-files limit is low."""


def connections_cap(files: int, kept: int = FILES_KEPT) -> int:
    """The most connections a process whose open-files limit is ``files`` holds at once, when
    it keeps ``kept`` of them for the rest, a quarter of them at most (:data:`UNLIMITED` when
    the limit is unknown, 0): a soft limit of 256 that cannot be raised (macOS's) left one
    connection — a player's page loaded and its websocket was dropped (a code review).

    >>> connections_cap(1024), connections_cap(1024, 200), connections_cap(256), connections_cap(0)
    (768, 824, 192, 2147483648)
    """
    return max(1, files - min(kept, files // 4)) if files > 0 else UNLIMITED


def cancel_timer(owner: object, name: str) -> None:
    """Cancel the timer in ``owner``'s attribute ``name``, if one is set (none before
    ``connection_made``), and clear it."""
    timer: Any = getattr(owner, name, None)
    if timer is not None:
        timer.cancel()
        setattr(owner, name, None)


def set_socket_option(transport: asyncio.BaseTransport, option: int, value: int | bytes) -> None:
    """Set a ``SOL_SOCKET`` option on ``transport``'s socket, if it has one that takes it
    (uvloop's stand-in socket raises ValueError or TypeError where asyncio's raises OSError:
    whatever it says, the caller goes on — a code review)."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError, ValueError, TypeError):
            sock.setsockopt(socket.SOL_SOCKET, option, value)


def guarded_protocol(limits: HttpLimits) -> type[H11Protocol]:
    """uvicorn's ``http=`` class bound to ``limits``."""

    class Bound(GuardedH11Protocol):
        pass

    Bound.limits = limits
    return Bound


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's head and a per-address cap."""

    limits = HttpLimits()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._guard_next_event()
        self._head_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        self._discarded = 0
        self._discarding: object = None
        """The request (uvicorn's cycle) whose body ``_discarded`` counts."""
        lim = self.limits
        self._address = address_key(self.client[0], lim.ipv6_prefix) if self.client else ""
        if len(self.connections) > lim.most:  # (this one among them)
            lim.full += 1
            if now_and_then(lim.full):
                log.warning(
                    "refused a connection: this process holds its most, %d "
                    "(--max-connections; %d refused)",
                    lim.most,
                    lim.full,
                )
            self._address = ""  # not counted
            transport.abort()
            return
        if lim.per_address < UNLIMITED and (
            lim.open[self._address] >= lim.per_address
            or not lim.new.take(self._address, time.monotonic())
        ):
            lim.refused += 1
            if now_and_then(lim.refused):
                log.warning(
                    "refused an HTTP connection: %d open or %g a second from one address "
                    "(%d refused)",
                    lim.per_address,
                    lim.rate,
                    lim.refused,
                )
            self._address = ""  # not counted
            transport.abort()
            return
        lim.open[self._address] += 1
        if lim.send_buffer:
            set_socket_option(transport, socket.SO_SNDBUF, lim.send_buffer)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        self._reading()
        super().connection_lost(exc)

    # A client that asks for a response and reads none of it held the whole body in the
    # server's memory and its connection open for ever: uvicorn waits for the buffer to drain
    # without a limit (a seventh audit: 100 such connections to a 5 MB replay held 260 MB, all
    # open a minute later). Past ``send_timeout`` with the buffer full, the connection goes.
    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None and not self.transport.is_closing():
            self._send_timer = self.loop.call_later(self.limits.send_timeout, self._not_reading)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._reading()

    def _reading(self) -> None:
        cancel_timer(self, "_send_timer")

    def _not_reading(self) -> None:
        self._send_timer = None
        self.limits.stalled += 1
        if now_and_then(self.limits.stalled):
            log.warning(
                "dropped an HTTP connection that read none of its response for %gs (%d so far)",
                self.limits.send_timeout,
                self.limits.stalled,
            )
        # (and what the kernel holds of it with it: a close, abort's too, leaves the socket's
        # queue to go out — to a client that reads nothing, for as long as it answers)
        try:
            set_socket_option(self.transport, socket.SO_LINGER, struct.pack("ii", 1, 0))
        finally:
            self.transport.abort()  # (close() would wait for the unsent data to go out)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # the websocket protocol takes the connection over (and its own limits: hello within
        # --hello-timeout, --sockets-per-address): this protocol hears nothing more of it
        self._release()
        # a pipelined upgrade after a response the client has not read yet: the deadline for
        # reading it goes with the connection, and the resume that ends it now reaches the
        # websocket protocol (left here, it cut the websocket of a client that read it all)
        timer, self._send_timer = self._send_timer, None
        super().handle_websocket_upgrade(event)
        if timer is not None:
            protocol = self.transport.get_protocol()
            if isinstance(protocol, GuardedWebSocketProtocol):
                protocol._send_timer = timer
            else:  # pragma: no cover - another websocket protocol
                timer.cancel()

    def _release(self) -> None:
        self._disarm()
        if self._address:
            self.limits.open[self._address] -= 1
            if self.limits.open[self._address] <= 0:
                del self.limits.open[self._address]
            self._address = ""

    # h11 parses a head that arrives whole in one read however large it is (its own cap holds
    # only while the head is incomplete), header line by header line in Python: a 108 KB head
    # of 10,000 short lines took 20 ms of the event loop, before any rate limit saw the
    # request, and one address's 128 connections sending one each held every other table for
    # 2.2 s (a twenty-third audit). The head is measured first where it waits in h11's buffer,
    # at each of h11's reads of an event: uvicorn's loop goes on to a pipelined head itself
    # once a response that read no body ends (a 405 or a 429, the body and the next head in
    # one write), and a check where the loop began missed it (a code review).
    def _guard_next_event(self) -> None:
        conn = self.conn
        parse = conn.next_event

        def next_event() -> Any:
            if conn.their_state is h11.IDLE and not self._head_fits():
                return h11.NEED_DATA  # (refused and closed: uvicorn's loop stops here)
            return parse()

        conn.next_event = next_event  # type: ignore[method-assign]

    # A body whose response has gone already (a 404, 405 or 429 given before the body came) is
    # read and thrown away so that the connection can serve the next request: at most
    # ``discard_bytes`` of it, then the connection is closed (a twenty-fifth audit pushed
    # 10 GB of a declared body down 20 connections after their responses, reading as fast as
    # the loop could).
    def data_received(self, data: bytes) -> None:
        if self._answered_early():
            # counted per request (its cycle): a body's end and the next request in one read
            # carried the count on, and small pipelined bodies closed the connection (a code
            # review)
            cycle = getattr(self, "cycle", None)
            if self._discarding is not cycle:
                self._discarding, self._discarded = cycle, 0
            self._discarded += len(data)
            if self._discarded > self.limits.discard_bytes:
                self.limits.discarded += 1
                self._disarm()
                self.transport.close()
                return
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self.transport.is_closing():
            return
        if self._waiting():
            # (uvicorn's loop may have gone on to the next request itself, after a response
            # given before its request's body came: no on_response_complete arms the clock)
            if self._head_timer is None:
                self._arm()
        elif self._head_timer is not None:
            self._disarm()  # a head is in: the application's own limits take over

    def _waiting(self) -> bool:
        """Whether the connection waits on the client with no request of its in hand: for a
        request's head, or for the rest of a body whose response has gone already (a 405 or a
        429 given before the body came — a trickle of that body, or of the next head after it,
        held the connection past ``header_timeout``: a code review)."""
        return self.conn.their_state is h11.IDLE or self._answered_early()

    def _answered_early(self) -> bool:
        """Whether the request's response has gone while its body is still coming."""
        c = self.conn
        return c.our_state is h11.DONE and c.their_state is h11.SEND_BODY

    def _head_fits(self) -> bool:
        """Whether the request head waiting in h11's buffer is within ``head_bytes`` and
        ``head_lines`` (an incomplete one: so far); if not, it is answered 431 and the
        connection closed."""
        if self.transport.is_closing():
            return False
        buf = getattr(getattr(self.conn, "_receive_buffer", None), "_data", None)
        if not isinstance(buf, bytearray):  # pragma: no cover - another h11: unbounded
            return True
        lim = self.limits
        end = _BLANK_LINE.search(buf, 0, lim.head_bytes + 2)
        if end is None and len(buf) <= lim.head_bytes:
            fits = buf.count(b"\n") <= lim.head_lines  # (so far: the rest may come)
        else:
            fits = end is not None and buf.count(b"\n", 0, end.start() + 1) <= lim.head_lines
        if fits and end is not None and _CHUNKED.search(buf, 0, end.start()):
            if _LENGTH.search(buf, 0, end.start()):
                # RFC 9112 6.3: a request framed both ways may be smuggling a second one past a
                # proxy that reads the other length; h11 reads the chunks and kept the connection
                self._refuse(b"400 Bad Request", b"both Content-Length and Transfer-Encoding")
            else:
                # h11 parses each chunk as an event of its own, in Python, and a body goes on
                # being parsed after a response given early (to be thrown away): 256 KiB of
                # one-byte chunks in one read held the event loop 0.8 s, and one connection
                # sending them held every other table for 6 s (a twenty-fifth audit). Every
                # body here is a little JSON a browser sends with its length (RFC 9112 6.1: a
                # server may ask for one)
                self._refuse(
                    b"411 Length Required",
                    b"a request body is sent with Content-Length (Transfer-Encoding is refused)",
                )
            return False
        if fits:
            return True
        lim.too_large += 1
        if now_and_then(lim.too_large):
            log.warning(
                "refused an HTTP request head over %d bytes or %d lines (%d refused)",
                lim.head_bytes,
                lim.head_lines,
                lim.too_large,
            )
        self._refuse(b"431 Request Header Fields Too Large", b"request head too large")
        return False

    def _refuse(self, status: bytes, why: bytes) -> None:
        """Answer ``status`` with the text ``why`` and close the connection, the request unread
        (below h11: it has parsed nothing of it)."""
        self._disarm()
        self.transport.write(
            b"HTTP/1.1 %s\r\ncontent-type: text/plain; charset=utf-8\r\n%s"
            b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
            % (status, _RAW_HEADERS, len(why), why)
        )
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """h11's own ``400`` for a request it cannot parse (two ``Host`` headers, a NUL in the
        target), with :data:`SECURITY_HEADERS` as every other answer (uvicorn's had none)."""
        self._refuse(b"400 Bad Request", msg.encode("ascii", "replace"))

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._waiting():
            self._arm()  # the next request's head (besides uvicorn's keep-alive timeout)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.limits.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        cancel_timer(self, "_head_timer")

    def _too_slow(self) -> None:
        self._head_timer = None
        if self._waiting() and not self.transport.is_closing():
            self.limits.timed_out += 1
            # (abort: close() waits for what is unsent, which a client that reads nothing of
            # the previous response never takes)
            self.transport.abort()


class QuietClientErrors(logging.Filter):
    """A filter for uvicorn's error log: what a client sent wrong (a websocket text frame that is
    not UTF-8, say) is the client's doing, not the server's, and each came with a traceback at
    ERROR: a client sending them in a loop filled the log. They are kept as one WARNING line
    without the traceback, the first and then one in every :attr:`every`.

    >>> f = QuietClientErrors(every=2)
    >>> r = logging.LogRecord("uvicorn.error", logging.ERROR, "", 0,
    ...                       "Invalid UTF-8 sequence received from client.", (), None)
    >>> [f.filter(r), r.levelname, f.filter(r), f.filter(r)]
    [True, 'WARNING', False, True]
    """

    MESSAGES = ("Invalid UTF-8 sequence received from client.",)
    RESOURCES = ("socket.accept() out of system resource",)
    """asyncio's, for an accept refused for want of open files (each with its traceback, some
    14,000 a second with the process's files all held: 125 MB of log in 20 s, a sixty-fifth
    audit; ``--max-connections`` keeps them from happening, this from filling the log if they
    do)."""

    def __init__(self, every: int = 1000, messages: tuple[str, ...] | None = None) -> None:
        super().__init__()
        self.every = every
        self.seen = 0
        self.messages = self.MESSAGES if messages is None else messages
        """The messages kept short (matched by their first line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().partition("\n")[0] not in self.messages:
            return True
        self.seen += 1
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        if self.seen > 1:
            record.msg = f"{record.msg} ({self.seen} so far)"
        return (self.seen - 1) % self.every == 0


def quiet_client_errors() -> QuietClientErrors:
    """Install :class:`QuietClientErrors` on uvicorn's error log and, for its
    :attr:`~QuietClientErrors.RESOURCES`, on asyncio's (once); returns uvicorn's."""
    installed = None
    for name, messages in (("asyncio", QuietClientErrors.RESOURCES), ("uvicorn.error", None)):
        logger = logging.getLogger(name)
        installed = next((f for f in logger.filters if isinstance(f, QuietClientErrors)), None)
        if installed is None:
            installed = QuietClientErrors(messages=messages)
            logger.addFilter(installed)
    assert installed is not None
    return installed


PING_RATE = 1.0
"""Websocket pings a client may send a second (at once: :data:`PING_BURST`): a browser sends
none, a library every 20 s or so."""
PING_BURST = 10
FRAME_RATE = HttpLimits.ws_frame_rate
"""Websocket frames of any kind a client may send a second by default (``--ws-frame-rate``; at
once: four seconds' worth, :data:`FRAME_BURST`), counted below the application: its own message
limits (20 a second) come first for text, and this bounds what it never sees (pongs, frames
after it closed the socket)."""
FRAME_BURST = int(4 * FRAME_RATE)
DATA_RATE = HttpLimits.ws_data_rate
"""Bytes of message data (inflated, if the client compresses) a client may send a second by
default (``--ws-kib-rate``; at once: four seconds' worth, :data:`DATA_BURST`): a browser's
messages are a few hundred bytes, a handful a second."""
DATA_BURST = int(4 * DATA_RATE)
READ_SLICE = 256
"""Bytes of a read handed to the websocket parser at a time, the client's allowance taken
between them: a read is up to 256 KiB, which the parser took whole, 43,690 empty frames (0.2–0.3
s of CPU) or 6,241 compressed ones inflated to 100 MB (2 s), before the first was counted."""
PONG_BUFFER_MOST = 64 * 1024
"""Bytes waiting to be sent to a client past which a pong is not written (the client is not
reading; RFC 6455 lets an endpoint answer only the latest ping)."""


def guarded_ws_protocol(limits: HttpLimits) -> type[GuardedWebSocketProtocol]:
    """uvicorn's ``ws=`` class bound to ``limits`` (its frame and data rates)."""

    class Bound(GuardedWebSocketProtocol):
        pass

    Bound.limits = limits
    return Bound


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (``ws="websockets-sansio"``) with its control frames bounded.

    uvicorn answers a ping below the application, writing the pong straight to the connection
    whatever it has waiting: a client that sends pings and never reads grew the server's memory by
    16 MB a second on one socket, and the application's message limits never saw a frame. Here a
    pong is dropped while more than :data:`PONG_BUFFER_MOST` bytes wait for the client, and a
    client past :data:`PING_RATE` pings a second (:data:`PING_BURST` at once) is cut off. Every
    frame counts against :data:`FRAME_RATE` too: unsolicited pongs, which uvicorn parses and drops
    without a limit, and text sent after the application closed the socket, which uvicorn reads
    for nothing until its close timeout, each kept the server at full CPU from one socket.

    >>> p = GuardedWebSocketProtocol.__new__(GuardedWebSocketProtocol)
    >>> p.pings = TokenBucket(PING_RATE, PING_BURST, 0.0)
    >>> [p.pings.take(0.0) for _ in range(PING_BURST + 1)][-2:]
    [True, False]
    """

    limits = HttpLimits()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        now = time.monotonic()
        self.pings = TokenBucket(PING_RATE, PING_BURST, now)
        frames, data = self.limits.ws_frame_rate, self.limits.ws_data_rate
        self.frames_in = TokenBucket(frames, max(1, int(4 * frames)), now)
        self.data_in = TokenBucket(data, max(1, int(4 * data)), now)
        self.cut = False
        # every refusal of a handshake (uvicorn's 403, websockets' 400 for a bad key or
        # version, a 500) with :data:`SECURITY_HEADERS`, as every HTTP answer: they had none
        # (a sixty-fifth audit)
        send_response = self.conn.send_response

        def with_headers(response: Any) -> None:
            if response.status_code != 101:
                for name, value in SECURITY_HEADERS.items():
                    response.headers[name] = value
            send_response(response)

        self.conn.send_response = with_headers  # type: ignore[method-assign]
        # (the HTTP side's deadline for a response not read at the upgrade: see
        # GuardedH11Protocol.handle_websocket_upgrade)
        self._send_timer: asyncio.TimerHandle | None = None
        # the handshake request came whole from the HTTP side (its head parsed by h11): one
        # that has not become a handshake after ``header_timeout`` never will (a backstop to
        # :meth:`_refused_handshake`)
        self._handshake_timer: asyncio.TimerHandle | None = self.loop.call_later(
            self.limits.header_timeout, self._no_handshake
        )

    def connection_lost(self, exc: Exception | None) -> None:
        cancel_timer(self, "_handshake_timer")
        cancel_timer(self, "_send_timer")
        super().connection_lost(exc)

    def resume_writing(self) -> None:
        super().resume_writing()
        cancel_timer(self, "_send_timer")

    def _no_handshake(self) -> None:
        self._handshake_timer = None
        if not self.handshake_initiated and not self.transport.is_closing():
            self.cut = True
            self.transport.abort()

    # An upgrade request that websockets' parser refuses (a body, ``Content-Length: 1``; a
    # request line or a header line over its 8 KiB, within h11's bounds) is not an event:
    # websockets queues an EOF (or a 4xx) and reads on in "discard", and uvicorn, seeing no
    # event, wrote none of it and never closed the connection. The HTTP side had let go of it
    # at the upgrade (no head deadline, not among the address's connections), so one address
    # held a connection open for ever for every one it opened: 1,024 in 41 s from two
    # addresses, the process's descriptors all spent and no one else could connect (and each
    # such connection's bytes were parsed for nothing, 45 MB a second from four of them at 62%
    # of a core) — a sixty-fifth audit. Refused here, ``400`` and closed.
    def _refused_handshake(self) -> bool:
        if self.handshake_initiated or self.conn.handshake_exc is None:
            return False
        self.cut = True
        cancel_timer(self, "_handshake_timer")
        why = b"not a websocket handshake this server takes"
        self.transport.write(
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=utf-8\r\n%s"
            b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (_RAW_HEADERS, len(why), why)
        )
        self.transport.close()
        return True

    def handle_connect(self, event: Any) -> None:
        cancel_timer(self, "_handshake_timer")
        super().handle_connect(event)

    def _cut_off(self, why: str) -> None:
        if not self.cut:
            self.cut = True
            log.info("a websocket client %s: cut off", why)
            self.transport.abort()

    def _counted(self, event: Any = None) -> bool:
        """Take a frame, and its data's bytes, from the client's allowance: False (and the
        client cut off) past it."""
        if self.cut:
            return False
        now = time.monotonic()
        if not self.frames_in.take(now):
            self._cut_off(f"sent over {self.limits.ws_frame_rate:g} frames a second")
            return False
        size = len(event.data) if event is not None else 0
        if size and not self.data_in.take(now, size):
            self._cut_off(f"sent over {self.limits.ws_data_rate / 1024:g} KiB a second")
            return False
        return True

    def data_received(self, data: bytes) -> None:
        # in slices, each parsed (and inflated) only if the client is still within its
        # allowance after the one before (a forty-second audit: a whole read of tiny or
        # compressed frames held the event loop, and every table, 0.7–3 s)
        for start in range(0, len(data), READ_SLICE):
            if self.cut or self.conn.parser_exc is not None:
                return  # (a frame the parser refused: the connection was closed on it, once)
            super().data_received(data[start : start + READ_SLICE])
            if self._refused_handshake():
                return

    def handle_text(self, event: Any) -> None:
        if self._counted(event):
            super().handle_text(event)

    def handle_bytes(self, event: Any) -> None:
        if self._counted(event):
            super().handle_bytes(event)

    def handle_cont(self, event: Any) -> None:
        if self._counted(event):
            super().handle_cont(event)

    def handle_pong(self, event: Any) -> None:
        if self._counted(event):
            super().handle_pong(event)

    def handle_ping(self) -> None:
        pong = b"".join(self.conn.data_to_send())
        if not self._counted():
            return
        if not self.pings.take(time.monotonic()):
            self._cut_off(f"sent over {PING_RATE:g} pings a second")
            return
        if self.transport.get_write_buffer_size() > PONG_BUFFER_MOST:
            return  # the client reads nothing: its pong would only wait in this process
        self.transport.write(pong)
