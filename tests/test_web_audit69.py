"""A sixty-ninth audit: a seat's one holder across processes when a seat's event is lost.

Real processes, as in ``tests/test_web_scale.py``: two web servers (``--redis``) and a worker on
a fresh PostgreSQL database and a Redis of the test's own."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from test_web_scale import (  # noqa: F401  (fixtures)
    RedisServer,
    _post,
    _stored_version,
    _table,
    cluster,
    pg,
    redis_server,
)
from torampu.web.rooms import token_hash
from torampu.web.store import Store


def _revoked(ws: Any, within: float) -> list[dict[str, Any]]:
    """The messages ``ws`` gets until its ``seat_revoked`` (AssertionError if none comes
    ``within`` seconds)."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        except TimeoutError:
            break
        seen.append(msg)
        if msg["type"] == "error" and msg["code"] == "seat_revoked":
            return seen
    seated = [m for m in seen if m["type"] == "snapshot" and m["seat"] is not None]
    deals = sorted({m["view"]["match"]["games_played"] for m in seated if m["view"]})
    raise AssertionError(
        f"still seated after {within:g} s: {len(seated)} seated snapshots, versions "
        f"{seated[0]['version'] if seated else None}..{seated[-1]['version'] if seated else None}"
        f", of the games played {deals}"
    )


def test_a_seat_changed_by_a_process_cut_off_from_redis_is_taken_from_its_sockets_elsewhere(
    tmp_path: Path,
    pg: str,  # noqa: F811  (the fixture)
    redis_server: RedisServer,  # noqa: F811
) -> None:
    """A seat changes hands without a new version (a leave in play, the host's reopen before
    the start), and the version poll compared only the stored status and version: a change
    stored by a process cut off from Redis (its ``table`` event lost) never reached the others
    while their own bus was well. The old holder's socket on another process stayed seated for
    as long as that process's bus was down — for good if it stopped meanwhile — shown the seat
    and offered its moves, the table in play standing still, its driver waiting for a player
    who had left (the audit: 27 s, the whole of a 25 s cut of one process's Redis connection,
    and the table not one move further). The seats are compared too now. The changes are
    written to the database as that process would, with no event."""
    poll = ("--version-poll", "0.5")
    with cluster(tmp_path, pg, redis_server.url, a=poll, b=poll) as (a, b, _w):
        store = Store(pg)
        try:
            # in play: the player leaves the game; their socket on b is sent to the spectators
            tid, host = _table(a, "napoleon", seats=["open"] + ["random"] * 4, games=3)
            status, joined = _post(f"{a.base}/api/tables/{tid}/join", {"name": "P"})
            assert status == 200, joined
            assert _post(f"{a.base}/api/tables/{tid}/start", {}, host)[0] == 200
            with connect(f"{b.ws}/ws/tables/{tid}") as ws:
                ws.send(json.dumps({"type": "hello", "token": joined["token"], "version": None}))
                first = json.loads(ws.recv(timeout=10))
                assert first["type"] == "snapshot" and first["seat"] == 0, first
                time.sleep(1.0)
                at = _stored_version(pg, tid)
                store.hand_seat_to_bot(tid, 0, token_hash(joined["token"]), "heuristic")
                _revoked(ws, 15)
                snap = json.loads(ws.recv(timeout=10))
                assert snap["type"] == "snapshot" and snap["seat"] is None, snap
                # and the table goes on: the bot plays the seat the player left
                deadline = time.monotonic() + 20
                while _stored_version(pg, tid) < at + 10:
                    assert time.monotonic() < deadline, "the table stood still"
                    time.sleep(0.2)
            # before the start: the host puts a player out
            tid, host = _table(a, "napoleon", seats=["open"] * 5)
            status, joined = _post(f"{a.base}/api/tables/{tid}/join", {"name": "Q"})
            assert status == 200, joined
            with connect(f"{b.ws}/ws/tables/{tid}") as ws:
                ws.send(json.dumps({"type": "hello", "token": joined["token"], "version": None}))
                assert json.loads(ws.recv(timeout=10))["seat"] == 0
                time.sleep(1.0)
                store.set_waiting_seat(tid, 0, "open", None)
                _revoked(ws, 15)
        finally:
            store.close()


def test_store_versions_gives_each_tables_seat_holdings_in_seat_order(tmp_path: Path) -> None:
    """What the poll compares (:meth:`Store.versions`): each seat a person holds and its token
    hash, in seat order, as :func:`~torampu.web.rooms._holdings` makes them of a room's seats;
    a table not there is left out."""
    from torampu.web.rooms import _holdings

    s = Store(f"sqlite:///{tmp_path / 'v.db'}")
    try:
        s.create_table("t", "hell", {"players": 3}, 3, 1, 1, "h", ["open", "random", "open"])
        h = token_hash("a token")
        assert s.set_seat("t", 2, "human", "P", h, None, True)
        assert s.versions(["t", "gone"]) == {"t": ("waiting", 0, ((2, h),))}
        table = s.table("t")
        assert table is not None
        assert s.versions(["t"])["t"][2] == _holdings(table.seats)
    finally:
        s.close()
