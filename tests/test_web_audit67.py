"""A sixty-seventh audit: bot and hint compute as a shared resource.

The search workers were shared in turns by the address that made each table — fairly, a turn
a round, but every table alike: a person's table of search bots waited behind one search of each
other address. Four addresses with ten tables each of ``ismcts:think=1`` alone, nobody watching,
made a person's ``ismcts:think=0.3`` bots wait about 2 s a move (one in three made by the
heuristic, past ``--bot-queue-wait``) where they took 0.65 s. A table of bots alone, which no
person holding a seat is connected to, now waits for a worker behind the tables a person plays at.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

import torampu
from torampu.web import workers as workers_mod
from torampu.web.bots import BotJob, BotPool
from torampu.web.workers import LocalWorkers, MoveJob


def _room(owner: str, attended: bool) -> Any:
    seats = [SimpleNamespace(kind="human" if attended else "bot")] + [
        SimpleNamespace(kind="bot") for _ in range(4)
    ]
    return SimpleNamespace(
        id=owner,
        owner=owner,
        version=1,
        match=object(),
        table=SimpleNamespace(seed=1, game="napoleon"),
        seats=seats,
        connected=lambda s: attended and s == 0,
    )


def test_a_person_s_search_bots_go_before_other_addresses_tables_of_bots_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    g = torampu.new_game("napoleon", "classic", seed=3)
    view, legal = g.view(g.to_play), g.legal_actions()

    def job(spec: str, game: str, seed: int, m: Any, seat: int) -> BotJob:
        return BotJob(spec, game, seed, view, legal)

    monkeypatch.setattr(workers_mod, "bot_job", job)

    async def run() -> None:
        pool = BotPool(1, queue_wait=30.0)
        local = LocalWorkers(pool)
        done: list[str] = []

        class Lobby:
            async def act(self, room: Any, seat: int, action: str, version: int, by: str) -> None:
                done.append(room.owner)

        lobby: Any = Lobby()

        async def move(owner: str, attended: bool) -> None:
            mj = MoveJob(owner, 1, 1, "ismcts:think=0.2", "bot")
            await local.move(lobby, _room(owner, attended), mj)

        try:
            await pool.move(BotJob("heuristic", "napoleon", 5, view, legal))  # workers up
            hogs = [asyncio.create_task(move("hog0", False))]
            await asyncio.sleep(0.05)
            # three more addresses' tables of bots alone, queued before the person's
            hogs += [asyncio.create_task(move(f"hog{i}", False)) for i in (1, 2, 3)]
            await asyncio.sleep(0.05)
            await move("person", True)
            await asyncio.gather(*hogs)
            # the person's search ran right after the one running, not after a turn of each
            assert done == ["hog0", "person", "hog1", "hog2", "hog3"], done
        finally:
            pool.close()

    asyncio.run(run())


def test_tables_of_bots_alone_still_take_turns_and_a_free_worker_at_once() -> None:
    """Behind nobody, a table of bots alone is served at once; among themselves in turns."""
    g = torampu.new_game("napoleon", "classic", seed=3)
    view, legal = g.view(g.to_play), g.legal_actions()

    async def run() -> None:
        pool = BotPool(1, queue_wait=30.0)
        done: list[str] = []

        async def ask(name: str, key: str) -> None:
            job = BotJob("ismcts:think=0.1", "napoleon", 5, view, legal)
            answer = await pool.move(job, key, low=True)
            assert not answer.by_fallback
            done.append(name)

        try:
            await pool.move(BotJob("heuristic", "napoleon", 5, view, legal))
            jobs = [asyncio.create_task(ask("hog0", "hog"))]
            await asyncio.sleep(0.05)
            jobs += [asyncio.create_task(ask(f"hog{i}", "hog")) for i in (1, 2)]
            await asyncio.sleep(0.05)
            jobs.append(asyncio.create_task(ask("other", "other")))
            await asyncio.gather(*jobs)
            assert done == ["hog0", "other", "hog1", "hog2"], done
        finally:
            pool.close()

    asyncio.run(run())
