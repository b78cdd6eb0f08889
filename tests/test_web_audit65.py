"""A sixty-fifth audit: the plain HTTP side. A websocket upgrade request that websockets' own
parser refuses (a body announced with ``Content-Length``, a request line or a header
line past its 8 KiB) was never
answered nor closed: the HTTP side had let go of the connection at the upgrade, and uvicorn's
websocket protocol saw no event. One address held one such connection for ever for every one
it opened (1,024 from two addresses in 41 s spent a process's descriptors; nobody else could
connect). Now each is answered ``400`` (the security headers with it) and closed; and every
refused handshake (uvicorn's 403, websockets' 400) carries the security headers."""

from __future__ import annotations

import base64
import os
import socket
import time
from pathlib import Path

import pytest

from torampu.web.http import GuardedWebSocketProtocol, HttpLimits
from web_helpers import live_server


def _upgrade(addr: str, extra: bytes = b"", path: bytes = b"/ws/tables/abcdef") -> bytes:
    host = addr.split(":")[0]
    key = base64.b64encode(os.urandom(16))
    return (
        b"GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n"
        % (path, host.encode(), key, extra)
    )


def _answer(addr: str, request: bytes, wait: float = 3.0) -> bytes:
    """What the server sends for ``request`` until it closes the connection (a timeout, the
    connection still open, fails the test)."""
    host, port = addr.split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as s:
        s.sendall(request)
        got = b""
        try:
            while chunk := s.recv(4096):
                got += chunk
        except TimeoutError:
            pytest.fail(f"the connection was still open {wait} s after {request[:60]!r}: {got!r}")
    return got


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        (b"Content-Length: 1\r\n", b"/ws/tables/abcdef"),
        (b"Content-Length: 100000\r\n", b"/ws/tables/abcdef"),
        (b"", b"/ws/tables/" + b"a" * 9000),  # (past websockets' 8 KiB request line)
        (b"X-Long: " + b"b" * 9000 + b"\r\n", b"/ws/tables/abcdef"),  # (and header line)
    ],
)
def test_a_refused_upgrade_is_answered_and_closed(
    tmp_path: Path, extra: bytes, path: bytes
) -> None:
    with live_server(tmp_path) as addr:
        for _ in range(3):
            got = _answer(addr, _upgrade(addr, extra, path))
            head = got.partition(b"\r\n\r\n")[0].lower()
            assert head.startswith(b"http/1.1 400"), got
            assert b"content-security-policy:" in head and b"x-content-type-options:" in head
        # and an upgrade the server takes is still taken
        host, port = addr.split(":")
        with socket.create_connection((host, int(port)), timeout=5) as s:
            s.sendall(_upgrade(addr))
            assert s.recv(4096).startswith(b"HTTP/1.1 101"), "a good handshake is refused"


def test_an_upgrade_that_never_becomes_a_handshake_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The backstop: whatever else keeps a handshake from beginning, the connection goes after
    ``header_timeout``."""
    monkeypatch.setattr(GuardedWebSocketProtocol, "_refused_handshake", lambda self: False)
    with live_server(tmp_path, http=HttpLimits(header_timeout=0.5)) as addr:
        started = time.monotonic()
        _answer(addr, _upgrade(addr, b"Content-Length: 1\r\n"), wait=5.0)
        assert time.monotonic() - started < 3.0


@pytest.mark.parametrize(
    ("path", "key", "status"),
    [
        (b"/ws/tables/abcdef", False, b"400"),  # websockets' own: no Sec-WebSocket-Key
        (b"/no-such-socket", True, b"403"),  # uvicorn's: the application closed it unopened
    ],
)
def test_a_refused_handshake_has_the_security_headers(
    tmp_path: Path, path: bytes, key: bool, status: bytes
) -> None:
    with live_server(tmp_path) as addr:
        request = _upgrade(addr, path=path)
        if not key:
            request = b"".join(
                line + b"\r\n"
                for line in request.split(b"\r\n")[:-1]
                if not line.startswith(b"Sec-WebSocket-Key")
            )
        head = _answer(addr, request).partition(b"\r\n\r\n")[0].lower()
        assert head.startswith(b"http/1.1 " + status), head
        assert b"content-security-policy: default-src 'none'" in head, head
        assert b"x-content-type-options: nosniff" in head, head
