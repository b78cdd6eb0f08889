"""A thirty-fifth scale audit: what grows and what survives a crash.

A bot process (pebble) that died while its pool had no job running — killed by the OOM killer
or an operator's ``kill -9``, between two moves — left the pool broken for good (pebble:
``Unexpected error within the Pool``): every later search of that worker (or web process) was
the heuristic's, every hint failed, and once the quick bots' process died so, every heuristic
bot, stand-in and turn time-out there played its first legal action, until a restart. Found in
a soak: a worker's idle search process killed, 723 searches in three minutes made by the
fallback, each with a warning."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from typing import Any

import torampu
from torampu.web.bots import BotJob, BotPool, compute_move


def _kill_idle(pool: Any) -> None:
    """Kill -9 every process of the pebble ``pool`` (none has a job), and wait for them to go."""
    workers = pool._pool_manager.worker_manager.workers
    pids = list(workers)
    assert pids
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while any(w.is_alive() for w in workers.values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # (the pool's manager notices)


def _job(spec: str) -> tuple[BotJob, list[str]]:
    g = torampu.new_game("napoleon", "classic", seed=1)
    legal = g.legal_actions()
    return BotJob(spec, "napoleon", 5, g.view(g.to_play), legal), legal


def test_a_search_process_killed_between_moves_leaves_the_searches_working() -> None:
    job, legal = _job("ismcts:think=0.1")

    async def run() -> None:
        pool = BotPool(1, queue_wait=30.0)
        try:
            first = await pool.move(job)
            assert not first.by_fallback
            _kill_idle(pool._search)
            for _ in range(3):
                answer = await pool.move(job)
                assert not answer.by_fallback and answer.action in legal
            assert pool.fallbacks == 0 and pool.renewed == 1
        finally:
            pool.close()

    asyncio.run(run())


def test_the_quick_process_killed_between_moves_leaves_the_heuristic_playing() -> None:
    job, legal = _job("heuristic")
    best = compute_move(job)
    assert best != legal[0]  # (the first legal action is what a broken pool played)

    async def run() -> None:
        pool = BotPool(1)
        try:
            assert (await pool.move(job)).action == best
            _kill_idle(pool._quick)
            for _ in range(3):
                answer = await pool.move(job)
                assert not answer.by_fallback and answer.action == best
            assert pool.fallbacks == 0 and pool.renewed == 1
        finally:
            pool.close()

    asyncio.run(run())


def test_a_closed_pool_is_not_made_again() -> None:
    job, _ = _job("heuristic")

    async def run() -> None:
        pool = BotPool(1)
        await pool.move(job)
        pool.close()
        answer = await pool.move(job)  # (a move asked as the process stops: never raises)
        assert answer.by_fallback and pool.renewed == 0

    asyncio.run(run())


def test_a_process_taking_over_tables_loads_several_at_once(tmp_path: Any) -> None:
    """The thirty-fifth scale audit: a process taking over a stopped one's tables that it had
    not loaded yet loaded them one after another, each waiting for the loads before it: of 27
    tables the last moved again after 18.8 s, where ``--lease-ttl`` promised some 10 s. The
    loads now go several at once (each its own lease first)."""
    from test_web import _bots_table_in_play, _leases_and_slow_load
    from torampu.web.rooms import ADOPT_AT_ONCE, Settings
    from torampu.web.store import Store

    url = f"sqlite:///{tmp_path / 'torampu.db'}"
    Leases, SlowLoad = _leases_and_slow_load()

    class Counted(SlowLoad):  # type: ignore[misc,valid-type]
        loading = most = 0

        async def _load(self, table: Any, actions: list[Any]) -> Any:
            Counted.loading += 1
            Counted.most = max(Counted.most, Counted.loading)
            try:
                await asyncio.sleep(0.3)
                return await super()._load(table, actions)
            finally:
                Counted.loading -= 1

    async def scenario() -> None:
        ids = [await _bots_table_in_play(url) for _ in range(4)]
        bus = Leases()
        store = Store(url)
        lobby = Counted(store, Settings(database=url, bot_workers=0, lease_ttl=0.5), bus=bus)
        lobby.slow = 0.0
        lobby._adopter = asyncio.create_task(lobby._adopt())
        try:
            for _ in range(300):  # (it looks every 2 s at least)
                if all(t in lobby.rooms for t in ids):
                    break
                await asyncio.sleep(0.05)
            assert all(t in lobby.rooms for t in ids) and bus.held >= set(ids)
            assert Counted.most == min(4, ADOPT_AT_ONCE), Counted.most
        finally:
            await lobby.stop()
            store.close()

    asyncio.run(scenario())


def test_a_pool_whose_processes_die_at_their_start_is_not_made_anew_at_every_job(
    caplog: Any,
) -> None:
    """A review of a76ebf4: a pool whose processes die before their first job (a crash loading
    the bots, the OOM killer at their warm-up) breaks again at once; it was made anew at every
    job, its processes forked each time and a warning a job (two a move: the search's and the
    fallback's). Made anew at most once per ``RENEW_EVERY`` (of each kind); within it the job
    fails as before the renewals."""
    import multiprocessing

    from pebble import ProcessPool

    job, legal = _job("ismcts:think=0.1")

    class Dying(BotPool):
        def _new_pool(self, quick: bool) -> Any:
            ctx = multiprocessing.get_context("forkserver")
            return ProcessPool(1, initializer=os._exit, initargs=(3,), context=ctx)

    async def run() -> None:
        pool = Dying(1, queue_wait=30.0)
        try:
            for _ in range(4):
                answer = await pool.move(job)
                assert answer.by_fallback and answer.action == legal[0]
            assert pool.renewed == 2, pool.renewed  # (one of each kind; 6 before)
            assert pool.broken_jobs >= 4, pool.broken_jobs
        finally:
            pool.close()

    with caplog.at_level(logging.WARNING, logger="torampu.web"):
        asyncio.run(run())
    # the jobs the broken pools refused in between: said once, not a line a job (a review)
    said = [r.getMessage() for r in caplog.records]
    assert sum("a bot pool is broken" in m for m in said) == 1, said
    # (a line each only for the jobs the first pools and the fresh ones took and lost)
    assert sum("failed (" in m for m in said) <= 2, said
    assert sum("fallback failed too" in m for m in said) <= 2, said


def test_tables_taken_over_at_once_keep_their_leases_while_they_load(tmp_path: Any) -> None:
    """A review of a01517c: the loads at once share the replay threads (two, and one GIL) and
    the database's: a table's lease, taken as its load began, lasted the loads of every table
    beside it — eight of the audit's (0.7 s each) 5.6 s, past the default ``--lease-ttl`` of
    5 s — and ran out before its driver's first look renewed it (another process, finding it
    free, loaded and drove it, this one holding a copy). The lease is renewed while the table
    loads."""
    from test_web import _bots_table_in_play, _leases_and_slow_load
    from torampu.web.rooms import Settings
    from torampu.web.store import Store

    url = f"sqlite:///{tmp_path / 'torampu.db'}"
    Leases, SlowLoad = _leases_and_slow_load()
    ttl = 1.5

    class Expiring(Leases):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.until: dict[str, float] = {}

        async def lease(self, table_id: str, ttl: float, held: bool = False) -> bool:
            now = time.monotonic()
            if held and self.until.get(table_id, 0.0) < now:
                return False
            self.until[table_id] = now + ttl
            return await super().lease(table_id, ttl, held)

    replay = asyncio.Lock()  # (the replays' CPU: one at a time, as under the GIL)
    lapsed: set[str] = set()

    class OneAtATime(SlowLoad):  # type: ignore[misc,valid-type]
        async def _load(self, table: Any, actions: list[Any]) -> Any:
            async with replay:
                await asyncio.sleep(0.5)
                room = await super()._load(table, actions)
            if bus.until.get(table.id, 0.0) < time.monotonic():
                lapsed.add(table.id)
            return room

    bus = Expiring()

    async def scenario() -> None:
        ids = [await _bots_table_in_play(url) for _ in range(5)]
        store = Store(url)
        lobby = OneAtATime(store, Settings(database=url, bot_workers=0, lease_ttl=ttl), bus=bus)
        lobby.slow = 0.0
        lobby._adopter = asyncio.create_task(lobby._adopt())
        try:
            for _ in range(300):
                if all(t in lobby.rooms for t in ids):
                    break
                await asyncio.sleep(0.05)
            assert all(t in lobby.rooms for t in ids)
            assert not lapsed, f"{len(lapsed)} lease(s) ran out in the load"
        finally:
            await lobby.stop()
            store.close()

    asyncio.run(scenario())


def test_a_worker_keeps_no_match_its_bot_ended(tmp_path: Any) -> None:
    """The thirty-fifth scale audit: a worker keeps each table's match between jobs, at the
    version the job was worked out on — before the bot's move. A match the bot's move ended
    was not over then, so it was kept until evicted: a worker grew some 1.2 MB a minute in a
    soak, every finished table's match held within ``--match-cache``. It goes once the move
    that ends it is stored."""
    from test_web_abuse import _worker_of
    from torampu.web.store import Store
    from torampu.web.workers import MoveJob, table_match

    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    try:
        rules = dict(torampu.new_match("hell", None, 3).game.rules)
        store.create_table("t1", "hell", rules, 3, 1, 5, "h", ["heuristic"] * 3)
        store.start_table("t1", None)

        async def run() -> Any:
            worker, _fake = _worker_of(store)

            async def publish(table: str, event: Any) -> None:
                return None

            worker.bus.publish = publish
            while True:
                table = store.table("t1")
                assert table is not None
                if table.status == "over":
                    return worker
                m = table_match(table)
                for a in store.actions("t1", 0):
                    m.play(a.action)
                job = MoveJob("t1", table.version, m.to_play or 0, "heuristic", "bot")
                await worker._handle(f"{table.version + 1}-0", job.fields())
                if store.table("t1").status != "over":  # type: ignore[union-attr]
                    assert "t1" in worker.matches  # (kept between the jobs of a match)

        worker = asyncio.run(run())
        assert "t1" not in worker.matches and worker.cached_actions == 0
    finally:
        store.close()
