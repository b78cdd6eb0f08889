"""Sockets for the UECda protocol: whole tables and ints, with timeouts and clear errors.

:class:`Wire` wraps a connected TCP socket. Every message (a table, an int) must arrive whole
within ``timeout`` seconds of the read's start, however the peer splits it — a byte sent just
before each read's timeout no longer stretches a 480-byte table to 480 timeouts — and a long
send takes at most ``timeout`` in all. A read takes exactly the bytes it needs; a peer that
closes the connection, resets it, or stays silent raises
:class:`~torampu.uecda.codec.UecdaConnectionError` naming the peer and what was awaited. Each
table is written with one ``sendall`` (the default client reads a table with one ``read`` of
480 bytes); a server may queue several messages and send them with one ``sendall``
(:meth:`Wire.flush`), which a reader of exact sizes cannot tell apart. ``tap``, if given, sees
every byte in both directions (for captures and tests).
"""

from __future__ import annotations

import contextlib
import math
import socket
import struct
import time
from collections.abc import Callable

from torampu.uecda.codec import (
    INT_BYTES,
    TABLE_BYTES,
    Table,
    UecdaConnectionError,
    decode_int,
    decode_table,
    encode_int,
    encode_table,
)

MIN_TIMEOUT = 1e-3
"""The shortest timeout a wire takes, in seconds (the kernel reads 0 as "for ever")."""


def valid_timeout(seconds: float) -> bool:
    """Whether ``seconds`` is a timeout a wire takes: finite and at least :data:`MIN_TIMEOUT`.

    >>> valid_timeout(0.5), valid_timeout(0), valid_timeout(float("nan")), valid_timeout(-1)
    (True, False, False, False)
    """
    return math.isfinite(seconds) and seconds >= MIN_TIMEOUT


Tap = Callable[[str, bytes], None]
"""``tap(direction, data)``: direction ``"in"`` (received) or ``"out"`` (sent)."""


class Wire:
    """A connected socket speaking UECda: ``peer`` names it in error messages."""

    def __init__(
        self, sock: socket.socket, peer: str, timeout: float | None = 60.0, tap: Tap | None = None
    ) -> None:
        self.sock = sock
        self.peer = peer
        self.timeout = timeout
        self.tap = tap
        self.pending = bytearray()
        """Bytes queued by :meth:`queue`, sent by :meth:`flush` (or the next send)."""
        if timeout is not None and not valid_timeout(timeout):
            raise ValueError(
                f"a timeout is a number of seconds of at least {MIN_TIMEOUT:g}, not {timeout!r}"
            )
        self.idle: float | None = timeout
        """The socket's own timeout between messages (None: the kernel's, set below)."""
        sock.settimeout(timeout)
        if timeout is not None and hasattr(socket, "SO_RCVTIMEO"):
            # a blocking socket with the kernel's timeouts: one system call per send or read
            # (Python's own timeout polls before each), the same errors after ``timeout``
            whole = int(timeout)
            tv = struct.pack("ll", whole, int((timeout - whole) * 1e6))
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, tv)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, tv)
                sock.settimeout(None)
                self.idle = None
            except OSError:
                sock.settimeout(timeout)
        with contextlib.suppress(OSError):  # not every socket is TCP
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def recv_exact(self, n: int, what: str) -> bytes:
        """Exactly ``n`` bytes, or :class:`UecdaConnectionError`."""
        buf = bytearray()
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        try:
            while len(buf) < n:
                if buf and deadline is not None:  # the rest within what is left of the time
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError
                    self.sock.settimeout(left)
                try:
                    chunk = self.sock.recv(n - len(buf))
                except (TimeoutError, BlockingIOError):
                    raise UecdaConnectionError(
                        f"{self.peer} did not send {what} within {self.timeout:g} s "
                        f"({len(buf)} of {n} bytes came)"
                    ) from None
                except OSError as e:
                    raise UecdaConnectionError(
                        f"the connection to {self.peer} failed while we waited for {what}: {e}"
                    ) from None
                if not chunk:
                    raise UecdaConnectionError(
                        f"{self.peer} closed the connection while we waited for {what} "
                        f"({len(buf)} of {n} bytes)"
                    )
                buf += chunk
        except TimeoutError:
            raise UecdaConnectionError(
                f"{self.peer} did not send {what} within {self.timeout:g} s "
                f"({len(buf)} of {n} bytes came)"
            ) from None
        finally:
            if buf and deadline is not None:
                with contextlib.suppress(OSError):
                    self.sock.settimeout(self.idle)
        data = bytes(buf)
        if self.tap is not None:
            self.tap("in", data)
        return data

    def queue(self, data: bytes) -> None:
        """Add ``data`` to what the next :meth:`flush` sends (one ``sendall`` for many
        messages: the server queues what it sends between two reads)."""
        self.pending += data

    def queue_table(self, t: Table) -> None:
        self.queue(encode_table(t))

    def queue_int(self, v: int) -> None:
        self.queue(encode_int(v))

    def flush(self, what: str = "the queued messages") -> None:
        if self.pending:
            data = bytes(self.pending)
            self.pending.clear()
            self.send(data, what)

    def send(self, data: bytes, what: str) -> None:
        if self.pending:  # in order: what was queued goes first
            data = bytes(self.pending) + data
            self.pending.clear()
        try:
            if self.timeout is not None and len(data) > 4096:
                # a peer reading a byte now and then: the whole send within the timeout
                # (Python bounds a sendall's total time; the kernel's only each call's)
                self.sock.settimeout(self.timeout)
                try:
                    self.sock.sendall(data)
                finally:
                    self.sock.settimeout(self.idle)
            else:
                self.sock.sendall(data)
        except (TimeoutError, BlockingIOError):
            raise UecdaConnectionError(
                f"{self.peer} took no data for {self.timeout:g} s when we sent {what}"
            ) from None
        except OSError as e:
            raise UecdaConnectionError(
                f"the connection to {self.peer} failed when we sent {what}: {e}"
            ) from None
        if self.tap is not None:
            self.tap("out", data)

    def recv_table(self, what: str) -> Table:
        return decode_table(self.recv_exact(TABLE_BYTES, what))

    def send_table(self, t: Table, what: str) -> None:
        self.send(encode_table(t), what)

    def recv_int(self, what: str) -> int:
        return decode_int(self.recv_exact(INT_BYTES, what))

    def send_int(self, v: int, what: str) -> None:
        self.send(encode_int(v), what)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def connect(host: str, port: int, timeout: float | None, tap: Tap | None = None) -> Wire:
    """A :class:`Wire` to a UECda server, or :class:`UecdaConnectionError`."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as e:
        raise UecdaConnectionError(f"cannot connect to the server {host}:{port}: {e}") from None
    return Wire(sock, f"the server {host}:{port}", timeout, tap)
