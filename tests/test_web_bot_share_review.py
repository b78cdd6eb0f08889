"""A review of the search workers' shares by time (start-time fair queueing in FairGate): a
grant taken at once (``take_now``, RateGate's tables a person plays at) moved the clock past
the waiters' tags, making every waiter level, and of those level the key whose queue never
emptied went first every time — another key's lone waiter had no grant while the debt lasted;
and a search was weighed by the think budget its table's maker wrote, not by the time it held
its worker (``think=0.001``, weighed 0.1 s, held one up to 0.8 s in Napoleon)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

import torampu
from torampu.web import bots as bots_mod
from torampu.web.bots import BotJob, BotPool, FairGate


def test_a_grant_taken_at_once_shuts_no_waiting_key_out() -> None:
    async def run() -> dict[str, int]:
        gate, got = FairGate(1), {"deep": 0, "lone": 0}
        stop = False
        await gate.acquire("holder", 1.0)

        async def waiter(key: str) -> None:
            while not stop:
                if await gate.acquire(key, 0.5):
                    got[key] += 1
                await asyncio.sleep(0)

        tasks = [asyncio.ensure_future(waiter("deep")) for _ in range(5)]
        tasks.append(asyncio.ensure_future(waiter("lone")))
        await asyncio.sleep(0)
        for _ in range(40):
            gate.take_now("person", 8)  # in debt: every other slot freed goes to a waiter
            for _ in range(2):
                gate.release()
                await asyncio.sleep(0)
                await asyncio.sleep(0)
        counted = dict(got)
        stop = True
        await asyncio.gather(*tasks)
        return counted

    got = asyncio.run(run())
    # in turns, as by the grants' count before (it had 0 of 40)
    assert abs(got["deep"] - got["lone"]) <= 1, got


def test_a_search_is_weighed_by_the_time_it_held_its_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    g = torampu.new_game("napoleon", "classic", seed=3)
    view, legal = g.view(g.to_play), g.legal_actions()

    def compute_move(job: BotJob) -> str:  # the hog's tiny think holds the worker 0.4 s
        time.sleep(0.4 if job.spec == "ismcts:think=0.01" else 0.1)
        return job.legal[0]

    monkeypatch.setattr(bots_mod, "compute_move", compute_move)

    async def run() -> list[str]:
        pool = BotPool(0, queue_wait=30.0)
        done: list[str] = []

        async def ask(key: str, spec: str) -> None:
            answer = await pool.answer(BotJob(spec, "napoleon", 5, view, legal), key)
            assert not answer[0].by_fallback
            done.append(key)

        try:
            jobs = [asyncio.create_task(ask("hog", "ismcts:think=0.01"))]
            await asyncio.sleep(0.05)
            jobs.append(asyncio.create_task(ask("hog", "ismcts:think=0.01")))
            await asyncio.sleep(0.01)
            jobs += [asyncio.create_task(ask("person", "ismcts:think=0.1")) for _ in range(3)]
            await asyncio.gather(*jobs)
            return done
        finally:
            pool.close()

    # the hog held the worker 0.4 s, not the 0.1 s its spec said: the person's three first
    # (weighed by the spec: hog, person, hog, person, person)
    assert asyncio.run(run()) == ["hog", "person", "person", "person", "hog"]


def test_charge_moves_only_a_known_key() -> None:
    gate: Any = FairGate(1)
    gate.take_now("a", cost=0.1)
    gate.charge("a", 0.9)
    gate.charge("nobody", 5.0)
    assert gate.finish == {"a": 1.0}
