"""The search workers' time, shared by whose tables the jobs are (the address that made each):
by time, not by turns. An attacker seated and connected at tables of its own from four
addresses, each table's bots thinking a second, took four turns in every five — four fifths
of the workers' time — beside a person whose bots think 0.3 s: that person waited some 2.3 s a
move (a sixty-seventh audit's leftover). Weighed by think seconds, a 0.3 s job is given a
turn three times as often as a 1 s one."""

from __future__ import annotations

import asyncio

import torampu
from torampu.web.bots import BotJob, BotPool, FairGate


def test_keys_share_the_slots_time_not_their_turns() -> None:
    async def run() -> list[str]:
        gate, order = FairGate(1), []
        await gate.acquire("holder", 1.0)

        async def job(key: str, cost: float) -> None:
            await gate.acquire(key, 5.0, cost=cost)
            order.append(key)
            gate.release()

        jobs = [job(f"hog{i}", 1.0) for i in range(4) for _ in range(3)]
        jobs += [job("person", 0.3) for _ in range(6)]
        waiting = [asyncio.ensure_future(j) for j in jobs]
        await asyncio.sleep(0)
        gate.release()
        await asyncio.gather(*waiting)
        return order

    order = asyncio.run(run())
    assert len(order) == 18
    # in the first eight grants the person's 0.3 s jobs have 4 (by turns they had 1)
    assert order[:8].count("person") == 4, order
    # and the time given stays level: by the person's sixth, each hog has had two at most
    sixth = [i for i, k in enumerate(order) if k == "person"][5]
    assert all(order[:sixth].count(f"hog{i}") <= 2 for i in range(4)), order


def test_a_key_that_comes_back_starts_level_with_no_credit_for_its_absence() -> None:
    async def run() -> list[str]:
        gate, order = FairGate(1), []

        async def job(key: str, cost: float) -> None:
            await gate.acquire(key, 5.0, cost=cost)
            order.append(key)
            gate.release()

        await gate.acquire("busy", 1.0)
        first = [asyncio.ensure_future(job("busy", 1.0)) for _ in range(6)]
        await asyncio.sleep(0)
        gate.release()
        await asyncio.gather(*first)  # busy alone had the slot six times
        await gate.acquire("busy", 1.0)
        again = [asyncio.ensure_future(job("busy", 1.0)) for _ in range(3)]
        again += [asyncio.ensure_future(job("late", 1.0)) for _ in range(3)]
        await asyncio.sleep(0)
        gate.release()
        await asyncio.gather(*again)
        return order[6:]

    # the late key did not bank the six grants it was not there for: turns, alike costs
    assert asyncio.run(run()) == ["late", "busy", "late", "busy", "late", "busy"]


def test_the_pool_weighs_a_search_by_its_think_seconds() -> None:
    g = torampu.new_game("napoleon", "classic", seed=3)
    view, legal = g.view(g.to_play), g.legal_actions()

    async def run() -> list[str]:
        pool = BotPool(1, queue_wait=30.0)
        done: list[str] = []

        async def ask(key: str, think: float) -> None:
            job = BotJob(f"ismcts:think={think:g}", "napoleon", 5, view, legal)
            answer = await pool.move(job, key)
            assert not answer.by_fallback
            done.append(key)

        try:
            await pool.move(BotJob("heuristic", "napoleon", 5, view, legal))  # workers up
            jobs = [asyncio.create_task(ask("hog", 0.3))]
            await asyncio.sleep(0.05)
            jobs.append(asyncio.create_task(ask("hog", 0.3)))
            await asyncio.sleep(0.01)
            jobs += [asyncio.create_task(ask("person", 0.1)) for _ in range(3)]
            await asyncio.gather(*jobs)
            return done
        finally:
            pool.close()

    # the person's three 0.1 s searches before the hog's second 0.3 s one (by turns: one)
    assert asyncio.run(run()) == ["hog", "person", "person", "person", "hog"]
