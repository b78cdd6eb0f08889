"""Storage of the web tables, against SQLite always and PostgreSQL (127.0.0.1:5432) when it is
reachable — in CI it must be: ``web_helpers.postgres_database`` fails there instead of skipping.

The same tests run on both: migrations (twice: the second start finds the schema current), the
write path with its version check (two stores, one database: one write wins), and a whole
server — a game played, the server stopped mid-game and started again, the game finished.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text

import torampu
from torampu.web.store import (
    PlayerBack,
    Refused,
    Seat,
    SeatNotHeld,
    StaleVersion,
    Store,
    StoreError,
    Table,
)
from torampu.web.workers import SEEDING
from web_helpers import auth, client, new_table, play_through, postgres_database, started_lobby


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'torampu.db'}"
    else:
        with postgres_database() as u:
            yield u


def test_migrations_create_the_schema_once(url: str) -> None:
    s = Store(url)
    names = set(inspect(s.engine).get_table_names())
    assert {"tables", "seats", "actions", "chat", "ready", "alembic_version"} <= names
    assert "holder" in {c["name"] for c in inspect(s.engine).get_columns("seats")}
    assert "result" in {c["name"] for c in inspect(s.engine).get_columns("tables")}  # (0008)
    assert "event" in {c["name"] for c in inspect(s.engine).get_columns("chat")}  # (0009)
    assert "quiet" in {c["name"] for c in inspect(s.engine).get_columns("tables")}  # (0012)
    assert {"back", "back_at"} <= {c["name"] for c in inspect(s.engine).get_columns("seats")}
    # the look for tables in play nobody drives reads an index, not every table (0003)
    indexes = {i["name"]: i["column_names"] for i in inspect(s.engine).get_indexes("tables")}
    assert indexes.get("ix_tables_status_updated") == ["status", "updated"], indexes
    # and the lobby's pages by status, newest first (0011)
    assert indexes.get("ix_tables_status_created") == ["status", "created"], indexes
    with s.engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == "0013"
    s.close()
    again = Store(url)  # a second start: nothing to do, nothing lost
    assert again.count_tables() == 0
    again.close()


def test_a_database_of_an_older_revision_is_upgraded_keeping_its_tables(url: str) -> None:
    """A database left at revision 0001 (before ``tables.preset``) by an older server: the next
    start upgrades it, and its tables are still there (with no preset)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from torampu.web.store import MIGRATIONS, normalize_url

    engine = create_engine(normalize_url(url))
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(
            text(
                "insert into tables (id, game, rules, players, games, seed, host_token, status,"
                " version, created) values ('old', 'hell', '{\"players\": 3}', 3, 1, 5, 'h',"
                " 'waiting', 0, CURRENT_TIMESTAMP)"
            )
        )
        assert "preset" not in {c["name"] for c in inspect(conn).get_columns("tables")}
    engine.dispose()
    s = Store(url)
    old = s.table("old")
    assert old is not None and old.rules == {"players": 3} and old.preset is None
    assert s.create_table("new", "hell", {}, 3, 1, 5, "h", ["open"] * 3, "classic").preset == (
        "classic"
    )
    s.close()


def test_tables_seats_and_actions_round_trip(url: str) -> None:
    s = Store(url)
    big_seed = 2**62 + 12345  # seeds are 63-bit
    t = s.create_table("abc", "napoleon", {"players": 5}, 5, 3, big_seed, "h" * 64, ["open"] * 5)
    assert (t.seed, t.version, t.status, t.games) == (big_seed, 0, "waiting", 3)
    assert s.set_seat("abc", 1, "human", "Aki", "x" * 64, None, only_if_open=True)
    assert not s.set_seat("abc", 1, "human", "Ben", "y" * 64, None, only_if_open=True)
    s.set_seat("abc", 2, "bot", bot="ismcts:think=0.3")
    s.set_status("abc", "playing")
    assert s.append_action("abc", 0, 1, "pass", "human") == 1
    assert s.append_action("abc", 1, 2, "bid 13S", "bot", status="playing") == 2
    t2 = s.table("abc")
    assert t2 is not None and t2.version == 2 and t2.status == "playing"
    assert [(x.kind, x.name, x.bot) for x in t2.seats][:3] == [
        ("open", None, None),
        ("human", "Aki", None),
        ("bot", None, "ismcts:think=0.3"),
    ]
    assert [(a.version, a.seat, a.action, a.by) for a in s.actions("abc")] == [
        (1, 1, "pass", "human"),
        (2, 2, "bid 13S", "bot"),
    ]
    assert s.table_ids("playing") == ["abc"] and s.table("nope") is None
    with pytest.raises(StoreError, match="no table"):
        s.append_action("nope", 0, 0, "pass", "human")
    s.close()


def test_two_writers_on_one_version_one_wins(url: str) -> None:
    a, b = Store(url), Store(url)
    a.create_table("t", "hell", {"players": 3}, 3, 1, 1, "h", ["open"] * 3)
    assert a.append_action("t", 0, 0, "bid 1", "human") == 1
    with pytest.raises(StaleVersion, match="at version 1, not 0"):
        b.append_action("t", 0, 0, "bid 0", "human")
    assert [x.action for x in b.actions("t")] == ["bid 1"]
    a.close()
    b.close()


def test_a_stand_in_s_move_is_refused_for_a_moment_once_its_player_came_back(url: str) -> None:
    """A forty-fifth audit: a worker's stand-in checked the player's presence on Redis, then
    stored its move — 2 ms after the player, back on another process, was shown their turn. A
    returning player's hello marks their seat at the version stored then: a stand-in's move for
    that version is refused for a moment (a person's is not, nor a stand-in's once it is past:
    a player who came back and left again at once held the table there for good)."""
    from datetime import timedelta

    from torampu.web.store import BACK_GRACE, utc

    s = Store(url)
    s.create_table("t", "hell", {"players": 3}, 3, 1, 1, "h" * 64, ["open"] * 3)
    for seat, name in enumerate(("Aki", "Ben", "Cy")):  # (a stand-in plays a person's seat)
        s.set_seat("t", seat, "human", name, str(seat) * 64, None)
    s.set_status("t", "playing")
    assert s.append_action("t", 0, 0, "bid 1", "human") == 1
    assert s.seat_back("t", 1) == 1
    assert s.seat_back("nope", 1) is None
    with pytest.raises(PlayerBack, match="seat 1's player is back") as back:
        s.append_action("t", 1, 1, "bid 0", "away")
    # (when a stand-in may try again: the worker holds the job off until then, a 46th audit)
    assert abs((back.value.until - utc(datetime.now(UTC)) - BACK_GRACE).total_seconds()) < 2
    with pytest.raises(StaleVersion):  # (the grace's last moment)
        s.append_action("t", 1, 1, "bid 0", "away", at=utc(datetime.now(UTC)) + BACK_GRACE / 2)
    assert s.append_action("t", 1, 1, "bid 0", "human") == 2  # the player's own
    assert s.append_action("t", 2, 2, "bid 0", "away") == 3  # another seat's stand-in
    s.seat_back("t", 0)
    later = utc(datetime.now(UTC)) + BACK_GRACE + timedelta(seconds=1)
    assert s.append_action("t", 3, 0, "play 2C", "away", at=later) == 4  # (past the grace)
    s.close()


def test_a_stand_in_s_move_for_a_seat_its_player_left_is_refused(url: str) -> None:
    """A code review: a worker's stand-in (or time-out) move, its job read before the player
    left the game, was stored after — a stand-in's move at a seat the bot now plays, counted as
    stood in for nobody. Once the seat is the bot's, only the bot's move is taken; the leaver's
    name stays on the seat (one who left must not close the others' match, see
    ``Lobby.close_table``), and the token holds nothing."""
    s = Store(url)
    s.create_table("t", "hell", {"players": 3}, 3, 1, 1, "h" * 64, ["open"] * 3)
    for seat, name in enumerate(("Aki", "Ben", "Cy")):
        s.set_seat("t", seat, "human", name, str(seat) * 64, None)
    s.set_status("t", "playing")
    with pytest.raises(Refused) as e:
        s.hand_seat_to_bot("t", 1, "x" * 64, "heuristic")
    assert e.value.code == "seat_revoked"
    assert s.hand_seat_to_bot("t", 1, "1" * 64, "heuristic") == "Ben"
    row = s.table("t")
    assert row is not None and row.seats[1] == Seat(1, "bot", "Ben", None, "heuristic")
    assert s.append_action("t", 0, 0, "bid 1", "human") == 1
    for by in ("away", "timeout"):
        with pytest.raises(StaleVersion, match="seat 1 is not a person's now"):
            s.append_action("t", 1, 1, "bid 0", by)
    assert s.append_action("t", 1, 1, "bid 0", "bot") == 2
    # a person's move by the token that held the seat (a process that had not heard of the
    # leave yet): refused, and nothing stored (a fifty-first audit's defence in depth)
    with pytest.raises(SeatNotHeld, match="seat 1 is no longer theirs"):
        s.append_action("t", 2, 1, "bid 0", "human", holder="1" * 64)
    with pytest.raises(SeatNotHeld):  # (another's token for a person's seat, too)
        s.append_action("t", 2, 2, "bid 0", "human", holder="0" * 64)
    assert s.append_action("t", 2, 2, "bid 0", "human", holder="2" * 64) == 3
    s.set_status("t", "over")
    with pytest.raises(Refused) as e:
        s.hand_seat_to_bot("t", 2, "2" * 64, "heuristic")
    assert e.value.code == "not_playing"
    s.close()


@contextlib.contextmanager
def _one_table_and_another_session() -> Iterator[tuple[Store, Any, str]]:
    """A PostgreSQL database of one table, "t1" (Hell, three open seats): this process's store
    of it, another session's transaction (its lock timeout 5 s) and the database's DSN."""
    psycopg = pytest.importorskip("psycopg")
    with postgres_database() as u:
        store = Store(u)
        try:
            store.create_table("t1", "hell", {}, 3, 1, 1, "h" * 64, ["open"] * 3)
            dsn = u.replace("postgresql+psycopg://", "postgresql://")
            with psycopg.connect(dsn) as other:
                other.execute("SET lock_timeout = '5s'")
                yield store, other, dsn
        finally:
            store.close()


def _started(call: Callable[[], object]) -> tuple[Any, list[object]]:
    """``call()`` on a thread of its own, started: the thread, and the list its answer (or the
    exception it raised: the failure is the test's) goes to."""
    import threading

    out: list[object] = []

    def run() -> None:
        try:
            out.append(call())
        except Exception as e:
            out.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def _until_one_waits(dsn: str, why: str) -> None:
    """Wait (at most 10 s) until one session of this PostgreSQL database waits for a lock (in
    this database: another's waits are not the test's); else fail saying ``why``."""
    import time

    import psycopg

    waiting = (
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        " AND datname = current_database()"
    )
    with psycopg.connect(dsn, autocommit=True) as look:
        until = time.monotonic() + 10
        while look.execute(waiting).fetchone() != (1,):
            assert time.monotonic() < until, why
            time.sleep(0.02)


def test_a_returning_player_s_mark_waits_for_a_stand_in_s_write_under_way() -> None:
    """On PostgreSQL a stand-in's write under way holds the table's row: the mark waits for it
    and reads its version (read before it, the returning player was shown a turn already
    played)."""
    with _one_table_and_another_session() as (store, other, dsn):
        other.execute("UPDATE tables SET version = 1 WHERE id = 't1'")  # (the stand-in's)
        marking, marked = _started(lambda: store.seat_back("t1", 0))
        _until_one_waits(dsn, "the mark never waited for the table's row")
        other.commit()
        marking.join(10)
        assert marked == [1], marked


def test_a_chat_line_for_a_table_closed_meanwhile_is_refused_as_no_table(url: str) -> None:
    """A ninth scale audit: a seat change's chat line stored just after another process closed
    the table failed on the row's foreign key, and the log said the storage was unavailable
    (an error id, a traceback). It is refused as the table's absence: nothing to say."""
    a = Store(url)
    a.create_table("t", "hell", {"players": 3}, 3, 1, 1, "h", ["open"] * 3)
    assert a.add_chat("t", None, None, "hi", None).text == "hi"
    a.delete_table("t", lambda _: None)
    with pytest.raises(Refused) as e:
        a.add_chat("t", 0, None, None, None, {"kind": "left", "seat": 0, "who": "Aki"})
    assert e.value.code == "not_found"
    if url.startswith("sqlite"):  # the close between the look and the line (no lock there)
        from sqlalchemy import event

        a.create_table("u", "hell", {"players": 3}, 3, 1, 1, "h", ["open"] * 3)
        b = Store(url)

        closed: list[str] = []

        def close_first(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            if statement.startswith("INSERT INTO chat") and not closed:
                closed.append(statement)
                b.delete_table("u", lambda _: None)

        event.listen(a.engine, "before_cursor_execute", close_first)
        with pytest.raises(Refused) as e:
            a.add_chat("u", None, None, "hi", None)
        event.remove(a.engine, "before_cursor_execute", close_first)
        assert e.value.code == "not_found" and closed
        b.close()
    a.close()


def _across_a_restart(
    url: str, tmp_path: Path, tid: str, tok: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play table ``tid`` (seat token ``tok``) to its 20th action on a server, then on another
    started on the same database, which picks it up as it was, to its end: the last snapshot
    and the match record."""
    with client(tmp_path, database=url) as c, c.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": tok, "version": None})
        before = play_through(ws, until=lambda m: m["version"] >= 20 and m["legal"])
    with client(tmp_path, database=url) as c:
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": tok, "version": before["version"]})
            snap = ws.receive_json()
            assert snap["version"] == before["version"] and snap["view"] == before["view"]
            last = play_through(ws, first=snap)
        return last, c.get(f"/api/tables/{tid}/record").json()


def test_a_server_on_this_database_survives_a_restart(url: str, tmp_path: Path) -> None:
    with client(tmp_path, database=url) as c:
        assert c.get("/api/health").json()["database"] == url.split(":")[0].split("+")[0]
        tid, _, (tok,) = new_table(c, "daifugo", "standard", games=2)
    last, record = _across_a_restart(url, tmp_path, tid, tok)
    m = torampu.replay_match(record)
    assert m.is_over and m.standings()["totals"] == last["view"]["match"]["totals"]


def test_a_table_made_before_tables_kept_their_seeding_is_rebuilt_as_it_was_made(
    url: str, tmp_path: Path
) -> None:
    """A table made now keeps ``"keyed"`` seeding among its features; one stored before has
    none and must be rebuilt (after a restart, on another process) with the seeds it was dealt
    with — a stream match's — or its stored actions would not replay."""
    with client(tmp_path, database=url) as c:
        r = c.post("/api/tables", json={"game": "daifugo", "rules": "standard", "games": 2})
        tid, host = r.json()["table"]["id"], r.json()["host_token"]
        room = c.app.state.lobby.rooms[tid]
        assert room.table.features[SEEDING] == "keyed"
        del room.table.features[SEEDING]  # as a table made before
        s = Store(url)
        with s.engine.begin() as conn:
            conn.execute(
                text("UPDATE tables SET features = :f WHERE id = :id"),
                {"f": json.dumps(room.table.features), "id": tid},
            )
        s.close()
        tok = c.post(f"/api/tables/{tid}/join", json={"name": "P0", "seat": 0}).json()["token"]
        started = c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        assert started.status_code == 200, started.text
    _, whole = _across_a_restart(url, tmp_path, tid, tok)
    assert "seeding" not in whole
    assert whole["records"][0]["seed"] == random.Random(whole["seed"]).getrandbits(63)
    assert torampu.replay_match(whole).is_over


def test_a_process_holds_at_most_its_database_connections() -> None:
    """A sixteenth scale audit: each process's PostgreSQL pool was the library's 5 + 10, fixed,
    with no setting — a deployment could not be sized under the server's ``max_connections``.
    ``--db-connections`` (``Store(connections=)``) bounds it: one more waits, then fails."""
    import sqlalchemy.exc

    with postgres_database() as url:
        s = Store(url, connections=3)
        held = [s.engine.connect() for _ in range(3)]
        s.engine.pool._timeout = 0.3  # type: ignore[attr-defined]  # (10 s in service)
        with pytest.raises(sqlalchemy.exc.TimeoutError):
            s.engine.connect()
        held.pop().close()
        s.engine.connect().close()  # a connection given back serves the next
        for c in held:
            c.close()
        s.close()


def _age(s: Store, table_id: str, days: float, null_updated: bool = False) -> None:
    """Make a table look last changed ``days`` ago (and, optionally, older than the column)."""
    from datetime import UTC, datetime, timedelta

    at = datetime.now(UTC) - timedelta(days=days)
    with s.engine.begin() as conn:
        conn.execute(
            text("update tables set updated = :u, created = :c where id = :id"),
            {"u": None if null_updated else at, "c": at, "id": table_id},
        )


def test_old_tables_are_purged_with_everything_they_hold(url: str) -> None:
    """A bound on the database: finished tables past their keeping and unfinished ones nobody
    touched go, with their seats, actions, chat and ready marks; recent ones, spared ones and
    (keep 0) everything stay."""
    from datetime import UTC, datetime, timedelta

    s = Store(url)
    for tid, status in [
        ("fin_old", "over"),
        ("fin_new", "over"),
        ("wait_old", "waiting"),
        ("play_old", "playing"),
        ("play_new", "playing"),
        ("fin_nul", "over"),
        ("spared", "over"),
    ]:
        s.create_table(tid, "hell", {"players": 3}, 3, 1, 5, "h" * 64, ["open"] * 3)
        s.set_seat(tid, 0, "human", "Aki", "x" * 64, None)
        if status != "waiting":
            s.set_status(tid, "playing")
            s.append_action(tid, 0, 0, "bid 0", "human", status=status)
            s.add_chat(tid, 0, "Aki", "hi", None)
            s.mark_ready(tid, 0, 0)
    for tid, days in [("fin_old", 100), ("fin_new", 10), ("wait_old", 40), ("play_old", 40)]:
        _age(s, tid, days)
    _age(s, "play_new", 20)
    _age(s, "fin_nul", 200, null_updated=True)  # a row from before tables.updated
    _age(s, "spared", 100)
    now = datetime.now(UTC)
    assert s.purge(None, None) == []  # keep for ever: nothing goes
    gone = s.purge(now - timedelta(days=90), now - timedelta(days=30), spare={"spared"})
    assert sorted(gone) == ["fin_nul", "fin_old", "play_old", "wait_old"]
    for tid in gone:
        assert s.table(tid) is None and s.actions(tid) == [] and s.recent_chat(tid, 10) == []
    assert {t.id for t in s.tables(100)} == {"fin_new", "play_new", "spared"}
    assert s.ready_seats("spared", 0) == {0} and len(s.actions("spared")) == 1
    with s.engine.connect() as conn:
        for child in ("seats", "actions", "chat", "ready"):
            n = conn.execute(text(f"select count(*) from {child} where table_id = 'fin_old'"))
            assert n.scalar() == 0, child
    assert s.purge(now - timedelta(days=90), now - timedelta(days=30), limit=1) == ["spared"]
    s.close()


def test_a_purge_deletes_a_bounded_number_of_rows_at_a_time(url: str) -> None:
    """A sixty-third audit: one purge transaction deleted 200 tables whatever they held — 200
    tables of 20,000 actions each (a table may hold --max-games x --max-game-actions) held
    SQLite's write lock, and every other table's move, 3.6 s, and left a 325 MB WAL file on
    disk. A batch now holds at most PURGE_ROWS actions and chat lines (one bigger table goes
    alone), and the lobby's loop goes on until none is left."""
    import asyncio
    from datetime import timedelta

    s = Store(url)
    big = 12_000  # three fifths of PURGE_ROWS (20,000)
    ids = [f"big{i}" for i in range(3)]
    for tid in ids:
        s.create_table(tid, "hell", {"players": 3}, 3, 1, 5, "h" * 64, ["open"] * 3)
        s.set_status(tid, "playing")
        with s.engine.begin() as conn:
            conn.execute(
                text(
                    "insert into actions (table_id, version, seat, action, by, at) "
                    "values (:t, :v, 0, 'pass', 'human', :at)"
                ),
                [{"t": tid, "v": v, "at": datetime.now(UTC)} for v in range(1, big + 1)],
            )
            conn.execute(text("update tables set version = :v where id = :t"), {"v": big, "t": tid})
        _age(s, tid, 40)
    now = datetime.now(UTC)
    first = s.purge(None, now - timedelta(days=30))
    assert first == ["big0"]  # two of them together hold more than PURGE_ROWS
    assert len(s.actions("big1")) == big
    s.close()

    async def run() -> None:
        store = Store(url)
        async with started_lobby(store, url, keep_abandoned=30) as lobby:
            assert await lobby.purge() == 2  # the rest, a batch at a time
            assert [t for t in ids if store.table(t) is not None] == []
        store.close()

    asyncio.run(run())
    if url.startswith("sqlite"):
        s = Store(url)
        with s.engine.connect() as conn:
            limit = conn.execute(text("PRAGMA journal_size_limit")).scalar()
        assert limit == 64 * 1024 * 1024  # the WAL is cut back after a big checkpoint
        s.close()


def test_the_server_deletes_tables_past_their_keeping_but_not_one_in_use(tmp_path: Path) -> None:
    """``--keep-finished`` / ``--keep-abandoned`` at work: the lobby's purge deletes the old
    tables it has not loaded; a table someone has open stays; the deleted answer 404."""
    import asyncio

    from torampu.web.rooms import ActError

    url = f"sqlite:///{tmp_path / 'torampu.db'}"

    async def run() -> None:
        store = Store(url)
        async with started_lobby(store, url, keep_abandoned=7) as lobby:
            idle, _ = await lobby.create("hell", {"players": 3}, None, 1, None)
            used, _ = await lobby.create("hell", {"players": 3}, None, 1, None)
            fresh, _ = await lobby.create("hell", {"players": 3}, None, 1, None)
            for room in (idle, used):
                _age(store, room.id, 8)
            del lobby.rooms[idle.id]  # it left memory (nobody used it)
            del lobby.rooms[fresh.id]
            assert await lobby.purge() == 1
            with pytest.raises(ActError) as e:
                await lobby.room(idle.id)
            assert e.value.status == 404
            assert (await lobby.room(used.id)).table.id == used.id
            assert (await lobby.room(fresh.id)).table.id == fresh.id

    asyncio.run(run())


def test_every_wait_on_postgresql_is_bounded() -> None:
    """The third audit found no bound on a wait for PostgreSQL: a statement, a lock or a network
    that stopped answering held a database thread (and the table's lock) without end. A
    statement or a lock wait past ``statement_timeout`` now fails (a store error, so the client
    gets ``storage_unavailable``); connecting gives up after a few seconds."""
    import threading
    import time

    from sqlalchemy.exc import OperationalError

    with postgres_database() as u:
        store = Store(u, statement_timeout=1.0)
        other = Store(u, statement_timeout=1.0)
        try:
            t0 = time.monotonic()
            with (
                pytest.raises(OperationalError, match="statement timeout"),
                store.engine.connect() as conn,
            ):
                conn.execute(text("SELECT pg_sleep(20)"))
            assert time.monotonic() - t0 < 10
            # a lock another connection holds: given up, not waited for
            store.create_table("t1", "hell", {"players": 3}, 3, 1, 5, "h", ["heuristic"] * 3)
            held = threading.Event()
            done = threading.Event()

            def hold() -> None:
                with other.engine.begin() as conn:
                    conn.execute(text("SELECT * FROM tables WHERE id = 't1' FOR UPDATE"))
                    held.set()
                    done.wait(15)

            holder = threading.Thread(target=hold)
            holder.start()
            assert held.wait(10)
            t0 = time.monotonic()
            with (
                pytest.raises(OperationalError, match=r"lock timeout|statement timeout"),
                store.engine.begin() as conn,
            ):
                conn.execute(text("UPDATE tables SET version = version WHERE id = 't1'"))
            assert time.monotonic() - t0 < 10
            done.set()
            holder.join(10)
        finally:
            store.close()
            other.close()
    # nobody answers there: refused at once or given up within the connect timeout
    t0 = time.monotonic()
    with pytest.raises(OperationalError):
        Store("postgresql://postgres@127.0.0.1:1/none")
    assert time.monotonic() - t0 < 15


def _over_with_three(s: Store, tid: str) -> None:
    """A finished Hell table of three people (seat tokens "t0".."t2")."""
    s.create_table(tid, "hell", {"players": 3}, 3, 1, 5, "h" * 64, ["open"] * 3)
    for seat in range(3):
        s.set_seat(tid, seat, "human", f"P{seat}", f"t{seat}", None)
    s.set_status(tid, "playing")
    s.append_action(tid, 0, 0, "bid 0", "human", status="over")


def test_a_wish_taken_back_and_a_rematch_made_at_once_give_one_answer(url: str) -> None:
    """A thirteenth audit: a wish taken back on one process while another made the rematch on
    the wishes it had read was told 202 — and its player was seated at the rematch. Both go
    through the old table's row: a rematch made on a wish taken back meanwhile is refused
    (``wishes_changed``, nothing made), a wish taken back once it is made is refused
    (``rematch_made``, the wish kept), and a seat that asked meanwhile keeps its place.
    On PostgreSQL the two race on threads too: every time, one of the two answers."""
    from concurrent.futures import ThreadPoolExecutor

    from torampu.web.store import REMATCH_WISH, Refused

    s = Store(url)
    _over_with_three(s, "t1")
    for seat in (0, 2):
        s.mark_ready("t1", REMATCH_WISH, seat)
    s.withdraw_wish("t1", 0)  # taken back first: the rematch counted on it is not made
    with pytest.raises(Refused) as refused:
        s.create_rematch("t1", "n1", 1, bots={1: "heuristic"}, wishes=frozenset({0, 2}))
    assert refused.value.code == "wishes_changed"
    assert s.table("t1").rematch is None and s.table("n1") is None  # type: ignore[union-attr]
    s.mark_ready("t1", REMATCH_WISH, 1)  # seat 1 asks as the rematch is made on {2}
    new, made = s.create_rematch(
        "t1", "n1", 1, bots={0: "heuristic", 1: "heuristic"}, wishes=frozenset({2})
    )
    assert made and [x.kind for x in s.table(new).seats] == ["bot", "human", "human"]  # type: ignore[union-attr]
    with pytest.raises(Refused) as late:  # made: too late to take it back, the wish stays
        s.withdraw_wish("t1", 2)
    assert late.value.code == "rematch_made"
    assert s.ready_seats("t1", REMATCH_WISH) == {1, 2}
    if not url.startswith("postgresql"):
        return
    for k in range(12):
        tid = f"r{k}"
        _over_with_three(s, tid)
        for seat in (0, 2):
            s.mark_ready(tid, REMATCH_WISH, seat)

        def make(tid: str = tid, k: int = k) -> str:
            try:
                s.create_rematch(tid, f"m{k}", 1, bots={1: "heuristic"}, wishes=frozenset({0, 2}))
                return "made"
            except Refused as e:
                return e.code

        def withdraw(tid: str = tid) -> str:
            try:
                s.withdraw_wish(tid, 0)
                return "withdrawn"
            except Refused as e:
                return e.code

        with ThreadPoolExecutor(2) as pool:  # (at once: whichever takes the row first wins)
            both = pool.submit(make), pool.submit(withdraw)
            answers = (both[0].result(), both[1].result())
        row = s.table(tid)
        assert row is not None
        assert answers in {("made", "rematch_made"), ("wishes_changed", "withdrawn")}, answers
        assert (row.rematch is not None) == (answers[0] == "made")


def test_a_table_loaded_as_another_process_stores_a_move_loads(tmp_path: Path) -> None:
    """A thirteenth audit: a table read back while another process stored a move between the
    read of its row and of its actions failed to load ("47 of 46 actions stored"); the look
    for tables nobody drives reads busy tables more. It loads as far as its row says, and the
    later move comes to it as any other does."""
    import asyncio
    import dataclasses

    url = f"sqlite:///{tmp_path / 'torampu.db'}"

    async def run() -> None:
        store = Store(url)
        async with started_lobby(store, url) as lobby:
            made, _ = await lobby.create("hell", {"players": 3}, None, 1, None)
            tid = made.id
            await lobby._unload(made)  # (read back below, as by another process)
            for seat in range(3):
                store.set_seat(tid, seat, "bot", None, None, "random")
            store.set_status(tid, "playing")
            row = store.table(tid)
            assert row is not None
            m = torampu.new_match("hell", row.rules, games=1, seed=row.seed)
            for v in range(3):
                action = m.legal_actions()[0]
                store.append_action(tid, v, m.to_play or 0, action, "bot")
                m.play(action)
            real = store.table

            def before_the_last(table_id: str) -> Table | None:  # (read before the last move)
                row = real(table_id)
                return dataclasses.replace(row, version=row.version - 1) if row else row

            store.table = before_the_last  # type: ignore[method-assign]
            lobby.rooms.pop(tid, None)
            room = await lobby.room(tid)
            assert room.version == 2 and room.match is not None
            store.table = real  # type: ignore[method-assign]
            await lobby.read_again(room)
            assert room.version == 3

    asyncio.run(run())


def test_a_join_waits_for_the_table_s_row_before_its_seat_s_and_never_deadlocks() -> None:
    """A twenty-second audit, two processes on PostgreSQL: a join (seat's row, then the table's)
    racing the host's seat change, start or close (the table's row, then the seats') deadlocked
    in 1 of 6 races, and one side was told "storage unavailable". A join now locks the table's
    row first, as they do. Performed step by step: another transaction holds the table's row,
    the join waits; that transaction then writes the seat — with the old order it met the
    join's lock on it and PostgreSQL broke the deadlock."""
    with _one_table_and_another_session() as (store, other, dsn):
        other.execute("SELECT id FROM tables WHERE id = 't1' FOR UPDATE")
        joining, done = _started(
            lambda: store.set_seat("t1", 0, "human", "Aki", "t" * 64, None, True)
        )
        _until_one_waits(dsn, "the join never waited for the table's row")
        # the other transaction's seat write: the join holds no seat's row
        other.execute("UPDATE seats SET kind = 'bot', bot = 'random' WHERE table_id = 't1'")
        other.commit()
        joining.join(10)
        assert done == [False], done  # (the seat was a bot's by then: not taken, no error)
        assert [st.kind for st in store.table("t1").seats] == ["bot"] * 3  # type: ignore[union-attr]


def test_a_transaction_rolled_back_for_a_deadlock_is_run_once_more(tmp_path: Path) -> None:
    """Beside the lock order above: a store call that PostgreSQL rolled back for a deadlock
    (40P01) or a failed serialization (40001) runs once more before the client hears of it;
    another database error, or a second deadlock, is still ``storage_unavailable``."""
    import asyncio

    from sqlalchemy.exc import OperationalError

    from torampu.web.rooms import ActError

    class Orig(Exception):
        def __init__(self, sqlstate: str) -> None:
            super().__init__(sqlstate)
            self.sqlstate = sqlstate

    url = f"sqlite:///{tmp_path / 'torampu.db'}"

    async def run() -> None:
        async with started_lobby(Store(url), url) as lobby:
            # (the state, how many times it fails, whether it is answered, the calls made)
            cases = [("40P01", 1, True, 2), ("40001", 1, True, 2)]
            cases += [("40P01", 2, False, 2), ("57P01", 1, False, 1)]
            for state, fails, answered, tries in cases:
                calls: list[int] = []

                def flaky(n: int = fails, s: str = state, c: list[int] = calls) -> str:
                    c.append(1)
                    if len(c) <= n:
                        raise OperationalError("UPDATE", {}, Orig(s))
                    return "done"

                if answered:
                    assert await lobby.db(flaky) == "done"
                else:
                    with pytest.raises(ActError) as e:
                        await lobby.db(flaky)
                    assert e.value.code == "storage_unavailable"
                assert len(calls) == tries, (state, calls)

    asyncio.run(run())


def test_a_join_to_a_table_closed_meanwhile_says_so(url: str) -> None:
    """A twenty-second audit: a join on one process as the host closed the table on another
    was told "seat 0 is taken". The store says the table is gone (404 ``not_found``)."""
    from torampu.web.store import Refused

    store = Store(url)
    with pytest.raises(Refused) as e:
        store.set_seat("gone", 0, "human", "Aki", "t" * 64, None, True)
    assert (e.value.code, e.value.status) == ("not_found", 404), e.value
    store.close()
