"""Shared pieces of the web server tests: apps on a temporary store, a PostgreSQL database made
for one test, and a websocket player that plays through a table."""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from torampu.web.app import create_app
from torampu.web.http import (
    HttpLimits,
    guarded_protocol,
    guarded_ws_protocol,
    quiet_client_errors,
)
from torampu.web.rooms import Lobby, Settings
from torampu.web.store import Store

PG_ADMIN = os.environ.get("TORAMPU_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


@contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test (dropped after it). Skipped when no server is
    reachable, except in CI (``CI`` set), where it fails: CI has the local server."""
    psycopg = pytest.importorskip("psycopg")
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as e:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not reachable at {PG_ADMIN} in CI: {e}")
        pytest.skip(f"no PostgreSQL reachable at {PG_ADMIN} (outside CI): {e}")
    name = f"torampu_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + "/" + name
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def settings(tmp: Path, **kw: Any) -> Settings:
    kw.setdefault("bot_delay", 0.0)
    kw.setdefault("away_timeout", 3600.0)
    kw.setdefault(
        "bot_workers", 0
    )  # bots in one thread: quick to start (test_web_abuse: processes)
    kw.setdefault("create_rate", 1000)
    kw.setdefault("tables_per_address", 1000)
    kw.setdefault("tables_per_day", 0)
    kw.setdefault("next_game_delay", 0.0)  # no pause between games unless a test wants one
    # tests play people's seats as fast as answers come (a test of the bound sets its own)
    kw.setdefault("table_move_rate", 10_000.0)
    kw.setdefault("table_move_burst", 10_000)
    kw.setdefault("bot_rate_all", 10_000.0)  # (the gate there, its bound out of the way)
    kw.setdefault("seat_change_rate", 10_000.0)  # (every test's seats from one address)
    kw.setdefault("seat_change_burst", 10_000)
    return Settings(data_dir=tmp, **kw)


@contextmanager
def client(tmp: Path, **kw: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings(tmp, **kw))) as c:
        yield c


def new_table(
    c: TestClient,
    game: str = "napoleon",
    rules: Any = "classic",
    games: int = 1,
    humans: int = 1,
    fill: str = "heuristic",
    **body: Any,
) -> tuple[str, str, list[str]]:
    """A started table with ``humans`` people in the first seats: (id, host token, tokens)."""
    r = c.post("/api/tables", json={"game": game, "rules": rules, "games": games, **body})
    assert r.status_code == 201, r.text
    tid, host = r.json()["table"]["id"], r.json()["host_token"]
    tokens = []
    for i in range(humans):
        j = c.post(f"/api/tables/{tid}/join", json={"name": f"P{i}", "seat": i})
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    s = c.post(f"/api/tables/{tid}/start", json={"fill": fill}, headers=auth(host))
    assert s.status_code == 200, s.text
    return tid, host, tokens


CHAT = ("chat", "chat_history")
"""The chat's messages: a table's seat changes are chat lines too ("Aki took seat 1"), so a
socket of a table someone sat at hears them beside its snapshots."""


def play_out_elsewhere(c: TestClient, tid: str) -> None:
    """Store the rest of table ``tid``'s match (each seat's first legal action) behind this
    process's back, as another process would: the room here still has the version it had."""
    import copy

    lobby = c.app.state.lobby  # type: ignore[attr-defined]
    room = lobby.rooms[tid]
    m, version = copy.deepcopy(room.match), room.version
    while not m.is_over:
        seat, action = m.to_play, m.legal_actions()[0]
        m.play(action)
        over = "over" if m.is_over else ""
        lobby.store.append_action(tid, version, seat, action, "human", status=over)
        version += 1


def receive(ws: Any) -> dict[str, Any]:
    """The socket's next message that is not the chat's (:data:`CHAT`)."""
    while True:
        msg = ws.receive_json()
        if msg.get("type") not in CHAT:
            return dict(msg)


def hello(ws: Any, token: str | None, version: int | None = None) -> dict[str, Any]:
    """Say hello on a table's websocket; the snapshot that answers (the chat's messages before
    it, from an earlier hello, passed over)."""
    ws.send_json({"type": "hello", "token": token, "version": version})
    msg = receive(ws)
    assert msg["type"] == "snapshot", msg
    return msg


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


Chooser = Callable[[dict[str, Any]], str]


def first_legal(msg: dict[str, Any]) -> str:
    legal: list[str] = msg["legal"]
    return legal[0]


def play_through(
    ws: Any,
    choose: Chooser = first_legal,
    until: Callable[[dict[str, Any]], bool] | None = None,
    seen: list[dict[str, Any]] | None = None,
    first: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Answer snapshots on ``ws`` (hello already sent) until ``until(snapshot)`` or the table is
    over, starting with ``first`` if given (a snapshot already received); every message received
    is appended to ``seen``. Returns the last snapshot."""
    acted: int | None = None
    while True:
        msg, first = (first, None) if first is not None else (ws.receive_json(), None)
        if seen is not None:
            seen.append(msg)
        assert msg["type"] != "error", msg
        if msg["type"] != "snapshot":
            continue
        if msg["table"]["status"] == "over" or (until is not None and until(msg)):
            return msg
        if msg["legal"] and msg["version"] != acted:
            acted = msg["version"]
            ws.send_json({"type": "act", "action": choose(msg), "version": msg["version"]})


@contextmanager
def running(app: Any, http: HttpLimits, **config: Any) -> Iterator[str]:
    """``app`` under a real uvicorn on a free loopback port (in a thread of this process), its
    raw connections bound by ``http``: ``127.0.0.1:PORT``. ``config``: more of uvicorn's
    ``Config``."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            http=guarded_protocol(http),
            **config,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


@contextmanager
def live_server(
    tmp: Path, ping: float = 20.0, http: HttpLimits | None = None, **kw: Any
) -> Iterator[str]:
    """``torampu serve``'s application under a real uvicorn on a free loopback port (in a
    thread of this process), for tests that need real sockets: ``ws://127.0.0.1:PORT``.
    ``ping``: seconds between websocket pings, and to wait for the pong (``--ws-ping``);
    ``http``: the raw connections' limits (``--header-timeout`` and
    ``--connections-per-address``; their defaults unless given)."""
    limits = http or HttpLimits()
    quiet_client_errors()  # as torampu serve does
    with running(
        create_app(settings(tmp, **kw)),
        limits,
        ws=guarded_ws_protocol(limits),
        ws_max_size=65536,
        ws_ping_interval=ping,
        ws_ping_timeout=ping,
    ) as address:
        yield address


@asynccontextmanager
async def started_lobby(store: Store, url: str, **kw: Any) -> AsyncIterator[Lobby]:
    """A lobby on ``store`` (the database at ``url``), its bots in one thread, started; after,
    stopped and the store closed. ``kw``: more of its :class:`Settings`."""
    kw.setdefault("table_move_rate", 10_000.0)  # (as settings(): a test plays fast)
    kw.setdefault("table_move_burst", 10_000)
    kw.setdefault("seat_change_rate", 10_000.0)
    kw.setdefault("seat_change_burst", 10_000)
    lobby = Lobby(store, Settings(database=url, bot_workers=0, **kw))
    await lobby.start()
    try:
        yield lobby
    finally:
        await lobby.stop()
        store.close()
