"""A sixty-eighth audit: the replay and record downloads."""

from __future__ import annotations

import contextlib
import socket
import time
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from torampu.web.app import _in_chunks
from torampu.web.http import HttpLimits
from web_helpers import running

BODY = 2_000_000


async def _big(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An application whose every response is a replay's worth of JSON, sent as the
    server's replays are (:func:`_in_chunks`)."""
    assert scope["type"] == "http"
    await _in_chunks(b"1" * BODY)(scope, receive, send)


def test_a_response_never_read_is_not_left_whole_in_the_kernel(tmp_path: Any) -> None:
    """A client asked for a replay of 1 MB and read none of it: on its own the kernel grew
    the connection's send buffer to hold all of it, the server's response was done at once,
    ``send_timeout`` never came, and the connection closed at ``header_timeout`` with the
    whole body still queued for the client in the kernel — out of every count of connections
    (one address: 24 MB of them, still there 30 s later). The send buffer is bounded now: the
    rest waits in the process and ``send_timeout`` drops the client, its unsent rest with it."""
    limits = HttpLimits(send_timeout=1.0, header_timeout=1.0)
    with running(_big, limits) as address:
        port = int(address.split(":")[1])
        c = socket.socket()
        c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.connect(("127.0.0.1", port))
        c.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(3.0)  # reading nothing, past --send-timeout
        got = 0
        c.settimeout(5)
        with contextlib.suppress(OSError):
            while chunk := c.recv(65536):
                got += len(chunk)
        c.close()
        assert limits.stalled == 1, "dropped for reading nothing"
        assert got < BODY // 2, got  # (before: all of it, from the kernel's buffer)
        with socket.create_connection(("127.0.0.1", port)) as r:  # a reader gets it whole
            r.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            whole = b""
            while chunk := r.recv(65536):
                whole += chunk
        assert whole.endswith(b"1" * BODY)


def test_the_send_buffer_is_the_operators_to_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--send-buffer-kib`` (128 by default, 0: the kernel's own) reaches each connection's
    limits; out of range, refused naming it."""
    from typer.testing import CliRunner

    from torampu.cli import app

    seen: list[int] = []
    monkeypatch.setattr(
        uvicorn, "run", lambda asgi, **kw: seen.append(kw["http"].limits.send_buffer)
    )
    data = ["serve", "--data-dir", str(tmp_path)]
    for given in ([], ["--send-buffer-kib", "64"], ["--send-buffer-kib", "0"]):
        assert CliRunner().invoke(app, [*data, *given]).exit_code == 0
    assert seen == [128 * 1024, 64 * 1024, 0], seen
    r = CliRunner().invoke(app, [*data, "--send-buffer-kib", "-1"])
    said = " ".join(r.output.replace("│", " ").split())
    assert r.exit_code == 2 and "--send-buffer-kib is from 0" in said, said
