"""The server's bots: which specs a table may seat, and where their moves are computed.

**Which bots.** A table seats only what :func:`check_spec` allows: ``random`` and ``heuristic``
(no options), and ``ismcts`` with a ``think`` budget of at most the operator's ceiling
(``--max-bot-think``, default 1 s), optionally ``algorithm`` and capped ``iterations`` /
``samples``. Everything else — an unbounded ``iterations=10**15``, ``think=100000``, an unknown
kind or option, a spec over 64 characters — is refused with a message naming the problem.

>>> check_spec("ismcts:think=0.3", max_think=1.0)
'ismcts:think=0.3'
>>> check_spec("bot:heuristic", max_think=1.0)
'heuristic'
>>> check_spec("ismcts:think=100000", max_think=1.0)
Traceback (most recent call last):
...
torampu.web.bots.BotRefused: bot 'ismcts:think=100000': think is at most 1 s on this server
>>> check_spec("ismcts:iterations=10000000", max_think=1.0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
torampu.web.bots.BotRefused: bot 'ismcts:iterations=10000000': a search bot needs a think budget...

**Where.** A bot move is a :class:`BotJob` — spec, game, seed, the seat's ``view`` and its legal
actions — and :func:`compute_move` is a pure function of it: the bot is made afresh from the
spec and a seed derived from the table's seed, the seat and the version, so the move does not
depend on which process computes it. :class:`BotPool` computes jobs in worker *processes*
(:mod:`pebble` pools, started with ``forkserver``, at a lower CPU priority than the web
process), never in the threads that write to the database: one pool for the search bots
(``--bot-workers``), one for the quick ones, so a search never holds up a heuristic move. Every
job has a hard deadline (its think budget plus a grace period); past it the worker is killed
and replaced, and the heuristic answers instead (``by_fallback``). ``workers=0`` computes in one
dedicated thread instead (for tests and embedding; not for a public server).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from torampu.bots import BotError, make_bot, parse_bot_spec
from torampu.errors import TorampuError
from torampu.web.http import now_and_then

log = logging.getLogger("torampu.web")

MAX_SPEC = 64
"""The longest bot spec a table stores."""
QUICK_KINDS = ("random", "heuristic")
MAX_ITERATIONS = 200_000
MAX_SAMPLES = 256
ALGORITHMS = ("auto", "tree", "pimc")
GRACE = 2.0
"""Seconds a job may run past its think budget before its worker is killed."""
QUICK_DEADLINE = 5.0
"""The hard deadline of a quick (random, heuristic) move."""
RENEW_EVERY = 30.0
"""Seconds at least between two new pools of one kind (:meth:`BotPool._schedule`): a pool whose
processes die before their first job (a crash in loading the bots, the OOM killer at their
warm-up) is broken again at once — made anew at every job, each its processes forked and a
warning, two a move (the search's, the fallback's); within this the job fails as before."""
QUEUE_WAIT = 2.0
"""Seconds a search move may wait for a free worker before the heuristic answers instead."""
SEARCH_NICE = 10
QUICK_NICE = 5


class BotRefused(TorampuError):
    """A bot spec this server does not seat (the message says why)."""


def check_spec(spec: Any, max_think: float) -> str:
    """The canonical spec (``bot:`` prefix dropped) if this server seats it, else
    :class:`BotRefused` naming the problem."""
    if not isinstance(spec, str):
        raise BotRefused(f"a bot is a spec string such as 'heuristic', not {spec!r}")
    if len(spec) > MAX_SPEC:
        raise BotRefused(f"a bot spec is at most {MAX_SPEC} characters")
    text = spec.strip().removeprefix("bot:")
    shown = text if text.isprintable() else repr(text)
    if not text.isascii():  # ("think=０.５" was read as 0.5 and kept as typed, a fifth audit)
        raise BotRefused(f"bot {shown!r}: a bot spec is written in ASCII (think=0.5)")
    try:
        kind, options = parse_bot_spec(text)
    except BotError as e:
        raise BotRefused(str(e)) from None
    if kind in QUICK_KINDS:
        if options:
            raise BotRefused(f"bot {shown!r}: the {kind} bot takes no options here")
        return kind
    if kind != "ismcts":
        allowed = ", ".join((*QUICK_KINDS, "ismcts:think=S"))
        raise BotRefused(f"bot {shown!r}: this server seats only {allowed}")
    extra = sorted(set(options) - {"think", "iterations", "samples", "algorithm"})
    if extra:
        raise BotRefused(
            f"bot {shown!r}: option {extra[0]!r} is not allowed here "
            "(allowed: think, iterations, samples, algorithm)"
        )
    think = options.get("think")
    if think is None:
        raise BotRefused(
            f"bot {shown!r}: a search bot needs a think budget "
            f"(think=S, at most {max_think:g} s on this server)"
        )
    if isinstance(think, bool) or not isinstance(think, int | float) or not 0 < think < math.inf:
        raise BotRefused(f"bot {shown!r}: think is a number of seconds above 0")
    if think > max_think:
        raise BotRefused(f"bot {shown!r}: think is at most {max_think:g} s on this server")
    for key, cap in (("iterations", MAX_ITERATIONS), ("samples", MAX_SAMPLES)):
        v = options.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 < v <= cap):
            raise BotRefused(f"bot {shown!r}: {key} is a whole number from 1 to {cap}")
    if "algorithm" in options and options["algorithm"] not in ALGORITHMS:
        raise BotRefused(f"bot {shown!r}: algorithm is one of {', '.join(ALGORITHMS)}")
    return text


STEADY: Final = 0.05
"""Seconds past its think budget that a search bot's move is held back to (see
:meth:`BotPool.move`): a search that uses its whole budget ends within it."""


def think_of(spec: str) -> float:
    """The think budget of a checked spec (0 for the quick bots)."""
    kind, options = parse_bot_spec(spec)
    return float(options.get("think", 0.0)) if kind == "ismcts" else 0.0


MIN_COST: Final = 0.1
"""The least a search job weighs in its key's share of the workers (:func:`cost_of`)."""


def cost_of(job: BotJob) -> float:
    """What a search job weighs in its key's share of the workers (:class:`FairGate`) ahead of
    its run: its think budget, a tenth of a second at least (it holds a worker that long, and
    more); once it has run, the time it held the worker (:meth:`BotPool._settle`)."""
    return max(think_of(job.spec), MIN_COST)


@dataclass(frozen=True)
class BotJob:
    """One bot move to compute: everything the bot may know, and nothing else."""

    spec: str
    game: str
    seed: int
    view: dict[str, Any]
    legal: list[str]
    limit: float | None = None
    """The deadline in seconds, if not the spec's (its think budget plus :data:`GRACE`)."""

    @property
    def quick(self) -> bool:
        return think_of(self.spec) == 0.0

    @property
    def deadline(self) -> float:
        """Seconds after which the job is abandoned and the heuristic answers."""
        if self.limit is not None:
            return self.limit
        return QUICK_DEADLINE if self.quick else think_of(self.spec) + GRACE


@dataclass(frozen=True)
class BotAnswer:
    action: str
    by_fallback: bool = False
    """The job failed or ran past its deadline: the heuristic (or the first legal action)
    answered instead."""


def compute_move(job: BotJob) -> str:
    """The bot's move for ``job`` (a legal action); raises if the bot fails."""
    kind, options = parse_bot_spec(job.spec)
    bot = make_bot(kind, job.seed, job.game, **options)
    action = bot.choose(job.view, job.legal)
    if action not in job.legal:
        raise BotError(f"bot {job.spec!r} chose {action!r}, which is not legal")
    return action


HINT_ALTERNATIVES = 5
"""The most alternatives a hint lists."""


def compute_hint(job: BotJob) -> dict[str, Any]:
    """The search bot's move for ``job`` and the moves it weighed: ``{"action", "measure",
    "alternatives": [{"action", "value", "visits"}, …]}``, best value first. ``measure`` says
    what ``value`` is: ``reward`` (the tree's mean reward, 0 to 1) or ``score`` (PIMC's mean
    points). A pure function of the job: only the seat's view and legal actions go in."""
    kind, options = parse_bot_spec(job.spec)
    bot = make_bot(kind, job.seed, job.game, **options)
    action = bot.choose(job.view, job.legal)
    if action not in job.legal:
        raise BotError(f"bot {job.spec!r} chose {action!r}, which is not legal")
    res = getattr(bot, "last_result", None)
    if res is None or not res.values:
        return {"action": action, "measure": None, "alternatives": []}
    pimc = getattr(bot, "policy", None) is not None and job.view.get("phase") in getattr(
        bot, "pimc_phases", ()
    )
    ranked = sorted(res.values, key=lambda a: (-res.values[a], a))[:HINT_ALTERNATIVES]
    if action not in ranked and action in res.values:
        ranked = [*ranked[:-1], action]
    return {
        "action": action,
        "measure": "score" if pimc else "reward",
        "alternatives": [
            {"action": a, "value": round(res.values[a], 4), "visits": res.visits.get(a, 0)}
            for a in ranked
        ],
    }


WARM_THINK = 0.01
"""The think budget of the searches :func:`warm` runs."""


def warm(search: bool) -> int:
    """Load once what a worker's first job would otherwise load inside its deadline: the bots'
    modules and, for a search worker, the search's modules and policy tables of every game (a
    short search at each phase of one game of each). Without it a search worker's first job pays
    about half a second of CPU for loading; on a loaded machine, at the worker's lower
    priority, that alone ran past the deadline, and the worker that replaced the killed one
    paid it again — a busy server's hints failed every time. Returns the searches run.

    >>> warm(search=False)
    0
    """
    import torampu
    from torampu.bots import make_bot

    if not search:
        for game in torampu.games():
            make_bot("heuristic", 0, game)
        return 0
    runs = 0
    for game in torampu.games():
        g = torampu.new_game(game, seed=0)
        phases: set[str] = set()
        for _ in range(400):
            if g.is_over:
                break
            legal = g.legal_actions()
            if len(legal) > 1:
                view = g.view(g.to_play)
                phase = str(view.get("phase"))
                if phase not in phases:
                    phases.add(phase)
                    compute_hint(BotJob(f"ismcts:think={WARM_THINK}", game, 0, view, legal))
                    runs += 1
            g.play(legal[0])
    return runs


def _lower_priority(nice: int, search: bool = False) -> None:  # pragma: no cover - in workers
    with contextlib.suppress(OSError):
        os.nice(nice)
    try:
        warm(search)
    except Exception:  # a worker that could not warm up still computes (only slower at first)
        log.exception("a bot worker could not load its bots ahead of its first job")


def _stop_pool(pool: Any) -> None:
    """Stop a broken pebble pool: its threads end, its processes still alive are stopped."""
    with contextlib.suppress(Exception):
        pool.stop()
        pool.join()


class FairGate:
    """``slots`` at a time, shared fairly: a freed slot goes to the oldest waiter of the key
    (whoever's tables they are) that has had the least of the slots' time, so one key with
    many waiting jobs has its share, not the whole queue. Each grant is weighed by its
    ``cost`` (a search's think seconds, then the time it held its worker, :meth:`charge`; 1
    unless said): start-time fair queueing, a key's tag the time it was given less
    everyone's, a key that comes back after a while starting level, with no credit for its
    absence. Alike costs take turns key by key; a key whose jobs think a second has a turn
    for every three of one whose jobs think 0.3 s (by turns, an attacker's four addresses of
    1 s bots took four turns in five — some 93 % of the time — beside a person's 0.3 s bots,
    who waited some 2.3 s a move: the sixty-seventh audit's leftover). :meth:`take_now`
    takes a slot without waiting, in debt if none is free: the next ones freed pay it back
    before any waiter has one.

    >>> async def demo() -> list[str]:
    ...     gate, order = FairGate(1), []
    ...     await gate.acquire("a", 1.0)              # a holds the one slot (its turn)
    ...     async def job(key: str, n: int) -> None:
    ...         await gate.acquire(key, 1.0)
    ...         order.append(f"{key}{n}")
    ...         gate.release()
    ...     jobs = [job("a", n) for n in (1, 2, 3)] + [job("b", 1)]
    ...     waiting = [asyncio.ensure_future(j) for j in jobs]
    ...     await asyncio.sleep(0)
    ...     gate.release()
    ...     await asyncio.gather(*waiting)
    ...     return order
    >>> asyncio.run(demo())
    ['b1', 'a1', 'a2', 'a3']
    >>> async def weighed() -> list[str]:
    ...     gate, order = FairGate(1), []
    ...     await gate.acquire("a", 1.0)              # a holds the one slot
    ...     async def job(key: str, n: int, cost: float) -> None:
    ...         await gate.acquire(key, 1.0, cost=cost)
    ...         order.append(f"{key}{n}")
    ...         gate.release()
    ...     jobs = [job("a", n, 1.0) for n in (1, 2)] + [job("b", n, 0.3) for n in (1, 2, 3, 4)]
    ...     waiting = [asyncio.ensure_future(j) for j in jobs]
    ...     await asyncio.sleep(0)
    ...     gate.release()
    ...     await asyncio.gather(*waiting)
    ...     return order
    >>> asyncio.run(weighed())                    # b's jobs cost 0.3 s each, a's 1 s
    ['b1', 'b2', 'b3', 'b4', 'a1', 'a2']
    >>> async def debt() -> list[str]:
    ...     gate, order = FairGate(1), []
    ...     await gate.acquire("a", 1.0)              # a holds the one slot
    ...     gate.take_now("p")                        # p too, at once: in debt
    ...     async def job(key: str) -> None:
    ...         await gate.acquire(key, 1.0)
    ...         order.append(key)
    ...     waiting = asyncio.ensure_future(job("b"))
    ...     await asyncio.sleep(0)
    ...     gate.release()                            # a's slot pays p's debt: b waits on
    ...     await asyncio.sleep(0)
    ...     order.append(f"{len(gate.waiting)} waiting")
    ...     gate.release()                            # p's: b's turn
    ...     await waiting
    ...     return order
    >>> asyncio.run(debt())
    ['1 waiting', 'b']
    """

    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        self.waiting: OrderedDict[str, deque[tuple[asyncio.Future[None], float]]] = OrderedDict()
        """Each key's waiters, oldest first, each with its cost."""
        self.idle: OrderedDict[str, deque[tuple[asyncio.Future[None], float]]] = OrderedDict()
        """The waiters that asked ``low`` (:meth:`acquire`): a slot goes to them, in turns by
        key likewise, only while nobody waits in :attr:`waiting`."""
        self.clock = 0.0
        """The start tag of the last grant: the time every key has been given, fairly."""
        self.finish: dict[str, float] = {}
        """Each key's finish tag: :attr:`clock` when it was last given a slot, plus that
        grant's cost; bounded by forgetting, once it holds 4,096, the keys that wait for
        nothing and are owed nothing (their tag behind the clock: they start level anyway)."""
        self.served: dict[str, int] = {}
        """When each key last had a slot (a count of grants): of keys level, the one served
        least lately goes first. Not the first to wait: a grant taken at once
        (:meth:`take_now`) moves the clock past the waiters' tags, making them level, and a
        key whose queue never empties stayed first — another key's lone waiter had none,
        for as long as the debt lasted (a review of the sixty-ninth session)."""
        self.grants = 0
        self._their_turn = False
        """In debt, whether the next slot freed goes to a waiter rather than to the debt."""

    def _start(self, key: str) -> float:
        """The start tag a grant to ``key`` would have now."""
        return max(self.clock, self.finish.get(key, 0.0))

    def _granted(self, key: str, cost: float) -> None:
        self.grants += 1
        self.served[key] = self.grants
        self.clock = self._start(key)
        self.finish[key] = self.clock + max(cost, 0.0)
        if len(self.finish) > 4096:
            self.finish = {
                k: v
                for k, v in self.finish.items()
                if k in self.waiting or k in self.idle or v > self.clock
            }
            self.served = {k: v for k, v in self.served.items() if k in self.finish}

    def _order(self, key: str) -> tuple[float, int]:
        """Who goes first: the least given (start tag), then the served least lately."""
        return self._start(key), self.served.get(key, 0)

    def charge(self, key: str, extra: float) -> None:
        """Count ``extra`` more (or, below 0, less) of the slots' time to ``key``: a grant's
        ``cost`` said ahead, this what it came to (a search holds its worker longer than its
        think budget: ``think=0.001``, weighed 0.1 s, held one up to 0.8 s in Napoleon and
        1.2 s in Daifugo — a review of the sixty-ninth session). Call it before
        :meth:`release`, so that the next grant sees it."""
        if key in self.finish:
            self.finish[key] += extra

    def take_now(self, key: str, most_debt: int | None = None, cost: float = 1.0) -> bool:
        """Take a slot at once, whether or not one is free (see :meth:`release`) — unless
        ``most_debt`` slots are owed already (False: nothing taken; wait as any)."""
        if most_debt is not None and self.free <= -most_debt:
            return False
        self.free -= 1
        self._granted(key, cost)
        return True

    async def acquire(self, key: str, timeout: float, low: bool = False, cost: float = 1.0) -> bool:
        """Take a slot within ``timeout`` seconds (False: none came). A waiter cancelled (its
        table closed) takes no slot with it: one it was handed as it was cancelled goes on to
        the next. ``low``: a slot goes to this waiter only while no other waiter is without
        ``low`` (a table of bots alone, which nobody waits on, behind a person's). ``cost``:
        what the slot is held for (see the class)."""
        if self.free > 0 and not self.waiting and not self.idle:
            self.free -= 1
            self._granted(key, cost)
            return True
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiting = self.idle if low else self.waiting
        waiting.setdefault(key, deque()).append((fut, cost))
        try:
            await asyncio.wait_for(asyncio.shield(fut), timeout)
            return True
        except BaseException as e:  # a timeout, or the waiter cancelled (its table closed)
            if fut.done():  # handed over just as the wait ended: it is ours
                if isinstance(e, TimeoutError):
                    return True
                self.release()  # (cancelled holding it: the slot goes on, not lost)
                raise
            queue = waiting.get(key)
            if queue is not None and (fut, cost) in queue:
                queue.remove((fut, cost))
                if not queue:
                    del waiting[key]
            fut.cancel()
            if isinstance(e, TimeoutError):
                return False
            raise

    def release(self) -> None:
        """Give the slot to the oldest waiter of the key given the least (its start tag), the
        one served least lately of those level — or, where slots were taken in debt
        (:meth:`take_now`), to pay that back first."""
        if self.free < 0 and not ((self.waiting or self.idle) and self._their_turn):
            self.free += 1  # (pays a slot owed; the next freed goes to a waiter, if any)
            self._their_turn = True
            return
        self._their_turn = False  # (in debt, every other slot freed: waiters not shut out)
        for waiting in (self.waiting, self.idle):
            while waiting:
                key = min(waiting, key=self._order)
                queue = waiting[key]
                fut, cost = queue.popleft()
                if not queue:
                    del waiting[key]
                if not fut.done():
                    fut.set_result(None)
                    self._granted(key, cost)
                    return
        self.free += 1


class RateGate:
    """At most ``rate`` grants a second for the whole process, shared fairly among keys as
    :class:`FairGate` shares its slots: ``burst`` slots (a tenth of a second's worth, at least
    one), each held ``burst / rate`` seconds after its grant. A key with many waiters takes one
    turn in every round, so one address's many tables wait for their turns, not another's.
    :meth:`take_now` (a table a person plays at) does not wait while at most
    :attr:`most_debt` grants are owed, and its grant counts: the waiters have one the later.

    >>> async def demo() -> list[str]:
    ...     gate, order = RateGate(10.0), []              # one grant each 0.1 s
    ...     async def job(key: str, n: int) -> None:
    ...         if await gate.acquire(key, 5.0):
    ...             order.append(f"{key}{n}")
    ...     jobs = [job("a", n) for n in (1, 2, 3, 4)] + [job("b", 1), job("b", 2)]
    ...     await asyncio.gather(*jobs)
    ...     return order
    >>> asyncio.run(demo())
    ['a1', 'b1', 'a2', 'b2', 'a3', 'a4']
    """

    def __init__(self, rate: float) -> None:
        self.burst = max(1, int(rate / 10))
        self.hold = self.burst / rate
        self.gate = FairGate(self.burst)
        self.most_debt = max(self.burst, 8)
        """Grants :meth:`take_now` may owe at once; each is held ``most_debt / rate`` seconds,
        so that they too come at ``rate`` at most (a fifty-ninth audit: held ``hold``, eight
        owed at a rate of 5 let 45 a second through)."""
        self.debt_hold = self.most_debt / rate

    async def acquire(self, key: str, timeout: float) -> bool:
        """Take a grant within ``timeout`` seconds (False: none came; wait and ask again)."""
        if not await self.gate.acquire(key, timeout):
            return False
        asyncio.get_running_loop().call_later(self.hold, self.gate.release)
        return True

    def take_now(self, key: str) -> bool:
        """Take a grant at once, the waiters' next one the later for it — while at most a
        burst (eight at least) is owed, each held the longer for it (:attr:`most_debt`);
        else False (wait as any, :meth:`acquire`): the grants stay within twice ``rate``
        whatever the rate, and in debt every other one freed goes to a waiter, so the tables
        of bots alone are not shut out while tables with a person connected ask faster than
        ``rate``."""
        if not self.gate.take_now(key, self.most_debt):
            return False
        asyncio.get_running_loop().call_later(self.debt_hold, self.gate.release)
        return True


class PoolBroken(RuntimeError):
    """A bot process pool is broken and was made anew less than :data:`RENEW_EVERY` ago: the
    job is not run (its move the heuristic's, a hint none)."""


class PoolBusy(Exception):
    """No search worker came free within the pool's ``queue_wait`` (a hint: ``hint_busy``)."""


class BotPool:
    """Computes :class:`BotJob` s off the event loop: in worker processes (``workers`` for the
    search bots, one more for the quick ones), or with ``workers=0`` in one dedicated thread."""

    def __init__(self, workers: int, queue_wait: float = QUEUE_WAIT) -> None:
        self.workers = workers
        self.queue_wait = queue_wait
        """Seconds a search job waits for a free worker; past it the heuristic answers (a
        search's hard deadline counts from its start, so without this a backlog of other
        tables' searches would delay a move without bound)."""
        self._slots = FairGate(workers)
        self.waited_out = 0
        """Search jobs answered by the heuristic because no worker was free in time (logged
        the first time and every thousandth: one a move, sixty tables of search bots from six
        addresses wrote 20 lines a second, a fifty-fifth audit)."""
        self.hints_busy = 0
        """Hints refused because no worker was free in time (logged likewise)."""
        self._search: Any = None
        self._quick: Any = None
        self._thread: ThreadPoolExecutor | None = None
        self.fallbacks = 0
        """Jobs answered by the fallback (failed or past their deadline) since the start."""
        self._closed = False
        self._renewed_at = {True: -math.inf, False: -math.inf}
        self.renewed = 0
        """Pools made anew since the start, one of theirs broken (:meth:`_schedule`)."""
        self.broken_jobs = 0
        """Jobs refused by a broken pool not yet made anew (:class:`PoolBroken`)."""
        if workers <= 0:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="torampu-bot")
            return
        self._search = self._new_pool(quick=False)
        self._quick = self._new_pool(quick=True)

    def _new_pool(self, quick: bool) -> Any:
        from pebble import ProcessPool

        ctx = multiprocessing.get_context("forkserver")
        if quick:
            return ProcessPool(1, initializer=_lower_priority, initargs=(QUICK_NICE,), context=ctx)
        return ProcessPool(
            self.workers, initializer=_lower_priority, initargs=(SEARCH_NICE, True), context=ctx
        )

    def _schedule(self, quick: bool, fn: Any, job: BotJob, timeout: float) -> Any:
        """``fn(job)`` scheduled on the quick pool or the search pool, within ``timeout``. A
        pool one of whose processes died while none of them had a job (killed: the OOM killer,
        an operator's ``kill -9``) is broken for good (pebble: ``Unexpected error within the
        Pool``): it is replaced by a new one, and the job goes there. Before (a thirty-fifth
        scale audit), every later search of the process failed at once and the heuristic made
        its move (every hint failed), without end and a warning a move, until a restart."""
        pool = self._quick if quick else self._search
        try:
            return pool.schedule(fn, (job,), timeout=timeout)
        except RuntimeError:
            now = time.monotonic()
            if self._closed or pool.active:
                raise
            if now - self._renewed_at[quick] < RENEW_EVERY:
                raise PoolBroken("the bot processes' pool is broken") from None
            self._renewed_at[quick] = now
        fresh = self._new_pool(quick)
        if quick:
            self._quick = fresh
        else:
            self._search = fresh
        self.renewed += 1
        log.warning(
            "the %s bot processes' pool broke (one of its processes died outside a job); "
            "a new one takes its place (%d so far)",
            "quick" if quick else "search",
            self.renewed,
        )
        # (the broken pool's threads and any process of it still alive: stopped off the loop)
        threading.Thread(target=_stop_pool, args=(pool,), daemon=True).start()
        return fresh.schedule(fn, (job,), timeout=timeout)

    async def move(
        self, job: BotJob, key: str = "", waited: float = 0.0, low: bool = False
    ) -> BotAnswer:
        """The bot's action for ``job``; never raises: a failure or a job past its deadline is
        logged and answered by the heuristic. ``key``: whose job it is (the address that made
        the table): searches wait their turn key by key. ``waited``: seconds the job has already
        waited for this pool elsewhere (a worker's job in the Redis stream): a search waits for
        a free worker at most what is left of ``queue_wait``, and none at all past it. ``low``:
        nobody waits on this move (a table of bots alone): a free worker goes to it only while
        no other search waits (:meth:`FairGate.acquire`) — in turns with them, a few addresses'
        tables of bots alone made a person's search bots wait a turn behind each, past
        ``queue_wait`` from three (a sixty-seventh audit).

        A search bot's answer never comes before its think budget (and :data:`STEADY`) has
        passed: a move it makes without searching — the only legal move, an endgame solved at
        once, the fallback — would otherwise come sooner, and everyone watching would learn
        from its speed that the bot could not play (a quick Daifugo pass: nothing beats the
        table; a quick follow: its last card of the suit)."""
        answer, rest = await self.answer(job, key, waited, low)
        if rest > 0:
            await asyncio.sleep(rest)
        return answer

    async def answer(
        self, job: BotJob, key: str = "", waited: float = 0.0, low: bool = False
    ) -> tuple[BotAnswer, float]:
        """:meth:`move` without its wait: the answer, and the seconds it must still be held
        back before anyone sees it (a worker waits them out without holding a job's place)."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        answer = await self._move(job, key, waited, low)
        rest = 0.0 if job.quick else think_of(job.spec) + STEADY - (loop.time() - start)
        return answer, max(0.0, rest)

    async def _move(
        self, job: BotJob, key: str, waited: float = 0.0, low: bool = False
    ) -> BotAnswer:
        slot = not job.quick
        left = self.queue_wait - waited
        if slot and (left <= 0 or not await self._slots.acquire(key, left, low, cost_of(job))):
            self.fallbacks += 1
            self.waited_out += 1
            if now_and_then(self.waited_out):  # (per move, it filled the log: a 55th audit)
                log.warning(
                    "bot %s: no worker free within %.1f s; the heuristic answers (%d so far)",
                    job.spec,
                    self.queue_wait,
                    self.waited_out,
                )
            return BotAnswer(await self._fallback(job), by_fallback=True)
        held = asyncio.get_running_loop().time()
        try:
            if self._thread is not None:
                loop = asyncio.get_running_loop()
                fut = loop.run_in_executor(self._thread, compute_move, job)
                action = await asyncio.wait_for(fut, job.deadline)
            else:
                pfut = self._schedule(job.quick, compute_move, job, job.deadline)
                action = await asyncio.wrap_future(pfut)
            return BotAnswer(action)
        except asyncio.CancelledError:
            raise
        except PoolBroken:
            self.fallbacks += 1
            self._broken_said()
        except Exception as e:
            self.fallbacks += 1
            why = "ran past its deadline" if isinstance(e, TimeoutError) else f"failed ({e!r})"
            log.warning(
                "bot %s %s after %.1f s; the heuristic answers", job.spec, why, job.deadline
            )
        finally:
            if slot:
                self._settle(key, job, held)
        return BotAnswer(await self._fallback(job), by_fallback=True)

    async def _fallback(self, job: BotJob) -> str:
        """The heuristic's move for ``job``, or its first legal action if even that fails."""
        quick = BotJob("heuristic", job.game, job.seed, job.view, job.legal)
        try:
            if self._quick is not None:
                pfut = self._schedule(True, compute_move, quick, QUICK_DEADLINE)
                return str(await asyncio.wrap_future(pfut))
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._thread, compute_move, quick)
        except PoolBroken:
            self._broken_said()
            return job.legal[0]
        except Exception:
            log.warning("the heuristic fallback failed too; playing the first legal action")
            return job.legal[0]

    def _broken_said(self) -> None:
        """Log a job refused by a broken pool (:class:`PoolBroken`) the first time and every
        thousandth: a line a job — two a move, with the fallback's — until the pool is made
        anew (a code review: 'failed after 3.0 s' of a job that failed at once, at every
        move)."""
        self.broken_jobs += 1
        if now_and_then(self.broken_jobs):
            log.warning(
                "a bot pool is broken and made anew at most every %g s; the heuristic or the "
                "first legal action answers meanwhile (%d so far)",
                RENEW_EVERY,
                self.broken_jobs,
            )

    async def hint(self, job: BotJob, key: str = "") -> dict[str, Any] | None:
        """:func:`compute_hint` of ``job`` on the search pool, within its deadline (``None``
        if it failed or ran past it: a hint has no fallback); :class:`PoolBusy` if no worker
        was free within ``queue_wait`` (its turn taken with the bot moves, by ``key``)."""
        if not await self._slots.acquire(key, self.queue_wait, cost=cost_of(job)):
            self.hints_busy += 1
            if now_and_then(self.hints_busy):
                log.warning(
                    "a hint (%s): no worker free within %.1f s (%d so far)",
                    job.spec,
                    self.queue_wait,
                    self.hints_busy,
                )
            raise PoolBusy(self.queue_wait)
        held = asyncio.get_running_loop().time()
        try:
            if self._thread is not None:
                loop = asyncio.get_running_loop()
                fut = loop.run_in_executor(self._thread, compute_hint, job)
                return await asyncio.wait_for(fut, job.deadline)
            pfut = self._schedule(False, compute_hint, job, job.deadline)
            out: dict[str, Any] = await asyncio.wrap_future(pfut)
            return out
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.warning("a hint (%s) failed: %r", job.spec, e)
            return None
        finally:
            self._settle(key, job, held)

    def _settle(self, key: str, job: BotJob, since: float) -> None:
        """Free ``job``'s worker, its key charged the time it held it, not its think budget
        (:meth:`FairGate.charge`): the spec is the table maker's to choose."""
        held = max(asyncio.get_running_loop().time() - since, MIN_COST)
        self._slots.charge(key, held - cost_of(job))
        self._slots.release()

    def close(self) -> None:
        self._closed = True
        for pool in (self._search, self._quick):
            if pool is not None:
                pool.stop()
                pool.join(timeout=5)
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
