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
import contextlib
import logging
import os
import socket
import time
from pathlib import Path

import pytest

from torampu.web.http import (
    FILES_KEPT,
    GuardedWebSocketProtocol,
    HttpLimits,
    quiet_client_errors,
)
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


def test_past_the_most_connections_a_new_one_is_dropped(tmp_path: Path) -> None:
    """Past ``--max-connections`` (every address's connections, of every kind) a new
    connection is dropped as it opens: some 150 addresses' idle connections (within each one's
    bound) spent every file the process may open — nobody could connect, a 125 MB log of
    asyncio's refused accepts in 20 s (a sixty-fifth audit). A connection that closes makes
    room for the next."""
    request = b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    with live_server(tmp_path, http=HttpLimits(most=4)) as addr:
        host, port = addr.split(":")
        held = [socket.create_connection((host, int(port)), timeout=5) for _ in range(3)]
        # a websocket is one of them too
        ws = socket.create_connection((host, int(port)), timeout=5)
        ws.sendall(_upgrade(addr))
        assert ws.recv(4096).startswith(b"HTTP/1.1 101")
        held.append(ws)
        try:
            time.sleep(0.2)
            with socket.create_connection((host, int(port)), timeout=5) as s:
                with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                    s.sendall(request)
                got = b""
                with contextlib.suppress(ConnectionResetError):
                    got = s.recv(4096)
                assert got == b"", got  # (dropped, unanswered)
            held.pop(0).close()
            # (the server hears of the close in its own time: on a loaded machine past 0.2 s)
            deadline = time.monotonic() + 5
            while True:
                with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                    got = _answer(addr, request)
                    if got:
                        break
                assert time.monotonic() < deadline, "no room made by a closed connection"
                time.sleep(0.05)
            assert got.startswith(b"HTTP/1.1 200"), got[:200]
        finally:
            for s in held:
                s.close()


def test_asyncio_s_refused_accepts_are_logged_short(caplog: pytest.LogCaptureFixture) -> None:
    """With every open file held, asyncio logs each accept it cannot make, a traceback each
    (some 14,000 a second): kept as one line, the first and one in every thousand after."""
    quiet_client_errors()
    log = logging.getLogger("asyncio")
    with caplog.at_level(logging.WARNING, logger="asyncio"):
        for _ in range(1001):
            try:
                raise OSError(24, "Too many open files")
            except OSError as e:
                log.error("socket.accept() out of system resource\nsocket: <s>", exc_info=e)
        log.error("another of asyncio's errors")
    said = [r for r in caplog.records if r.name == "asyncio"]
    assert [r.levelname for r in said] == ["WARNING", "WARNING", "ERROR"], said
    assert said[0].exc_info is None and said[1].exc_info is None
    assert "(1001 so far)" in said[1].getMessage()


def test_the_most_connections_is_the_operators_to_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--max-connections``; by default the open-files limit less what the process keeps for
    its database, Redis, log and workers; past that limit, or below 1, refused."""
    import resource

    import uvicorn
    from typer.testing import CliRunner

    from torampu.cli import app

    seen: list[int] = []
    monkeypatch.setattr(uvicorn, "run", lambda asgi, **kw: seen.append(kw["http"].limits.most))
    data = ["serve", "--data-dir", str(tmp_path)]
    assert CliRunner().invoke(app, [*data, "--max-connections", "300"]).exit_code == 0
    r = CliRunner().invoke(app, data)
    assert r.exit_code == 0, r.output
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    kept = FILES_KEPT + 15  # (--db-connections by default; no Redis, none of its connections)
    assert seen == [300, files - kept], (seen, files)
    for bad in ("0", str(files - kept + 1)):
        r = CliRunner().invoke(app, [*data, "--max-connections", bad])
        said = " ".join(r.output.replace("│", " ").split())
        assert r.exit_code == 2 and f"--max-connections is from 1 to {files - kept}" in said, said


def test_a_pipelined_upgrade_after_an_unread_response_is_not_cut_once_read(tmp_path: Path) -> None:
    """A code review: an upgrade pipelined after a response the client had not read yet (the
    connection paused for writing) left the HTTP side's ``send_timeout`` deadline running, and
    the resume that ends it went to the websocket protocol: a client that read everything at
    once had its websocket cut ``send_timeout`` later. The deadline goes with the connection
    now (a client that reads nothing is dropped as before)."""
    # (a kernel send buffer a slow network would fill: loopback takes any response whole)
    with live_server(tmp_path, http=HttpLimits(send_timeout=1.0, send_buffer=4096)) as addr:
        host, port = addr.split(":")
        request = b"GET /static/style.css HTTP/1.1\r\nHost: %s\r\n\r\n" % host.encode()
        for reads in (True, False):
            with socket.socket() as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.connect((host, int(port)))
                s.sendall(request + _upgrade(addr))
                time.sleep(0.3)
                s.settimeout(0.3)
                got = b""
                with contextlib.suppress(TimeoutError):
                    while reads and (chunk := s.recv(65536)):
                        got += chunk
                time.sleep(1.5)  # past send_timeout
                if reads:
                    assert b"HTTP/1.1 101" in got, got[-300:]
                    s.sendall(bytes([0x89, 0x80]) + os.urandom(4))  # a ping
                    s.settimeout(3)
                    assert s.recv(2) == b"\x8a\x00", "the websocket was cut"
                else:  # dropped with its unread response (the rest of it, then the end)
                    s.settimeout(3)
                    with contextlib.suppress(ConnectionResetError):
                        while s.recv(65536):
                            pass


def test_a_low_open_files_limit_is_told_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review: a soft limit of 256 that cannot be raised (macOS's) left the default bound at
    one connection — a player's page loaded and its websocket was dropped, with nothing said.
    What the process keeps for itself is a quarter of its files at most (256: 192 connections),
    and a bound under 64 left by a lower limit is said at start, naming the limit."""
    import uvicorn
    from typer.testing import CliRunner

    from torampu.cli import app
    from torampu.web import http

    seen: list[int] = []
    monkeypatch.setattr(uvicorn, "run", lambda asgi, **kw: seen.append(kw["http"].limits.most))
    monkeypatch.setattr(http, "raise_open_files_limit", lambda: 256)
    r = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path)])
    assert r.exit_code == 0 and seen == [192] and "ulimit" not in r.output, (seen, r.output)
    monkeypatch.setattr(http, "raise_open_files_limit", lambda: 64)
    r = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path)])
    said = " ".join(r.output.split())
    assert r.exit_code == 0 and seen == [192, 48], (seen, said)
    assert "may open 64 files" in said and "ulimit -n" in said, said
    # (a bound the operator set is theirs: nothing said)
    monkeypatch.setattr(http, "raise_open_files_limit", lambda: 1024)
    r = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path), "--max-connections", "9"])
    assert r.exit_code == 0 and seen == [192, 48, 9] and "ulimit" not in r.output, r.output
