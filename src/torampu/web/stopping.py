"""Stopping a process's tasks in bounded time.

A task told to stop (:meth:`asyncio.Task.cancel`) may catch the cancellation — in a library's
retry, a handler's cleanup, Python 3.11's ``wait_for`` racing a result — and go on: awaited
after one cancel, it held its process's shutdown for ever (a twenty-fourth scale audit: a
``torampu serve`` told to stop waited ten minutes on the bus's listener, back reading Redis).
:func:`stop_tasks` cancels, waits at most :data:`STOP_WAIT`, cancels what still runs again
(after ``nudge``, which can close what they wait on), waits as long once more, and leaves —
logged — what then still runs. (The event loop's own end cancels a task left once more and
waits for it: one that survives three cancels still holds the exit. The bus's listener, the
one seen to catch a cancel, also ends at its next step once its bus is stopping.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

log = logging.getLogger("torampu.web")

STOP_WAIT = 2.0
"""Seconds a stopping process waits for its cancelled tasks before it cancels them again (and
as long again before it leaves them)."""


async def stop_tasks(
    tasks: Iterable[asyncio.Task[Any]],
    what: str,
    *,
    wait: float = STOP_WAIT,
    nudge: Callable[[], Awaitable[None]] | None = None,
) -> list[asyncio.Task[Any]]:
    """Cancel ``tasks`` and wait for them to end, in at most twice ``wait`` seconds; return
    those still running then (logged as ``what``). A task's error is taken (not raised): a
    stopping process has nobody to tell it to but its log.

    >>> async def stubborn() -> None:
    ...     try:
    ...         await asyncio.sleep(10)
    ...     except asyncio.CancelledError:
    ...         pass  # (caught, and on it goes: to the second cancel)
    ...     await asyncio.sleep(10)
    >>> async def main() -> tuple[int, bool]:
    ...     task = asyncio.create_task(stubborn())
    ...     await asyncio.sleep(0)
    ...     left = await stop_tasks([task], "a test's task", wait=0.1)
    ...     return len(left), task.cancelled()
    >>> asyncio.run(main())
    (0, True)
    """
    tasks = list(tasks)
    pending = {t for t in tasks if not t.done()}
    ended = [t for t in tasks if t.done()]
    for t in pending:
        t.cancel()
    for again in (True, False):
        if not pending:
            break
        done, pending = await asyncio.wait(pending, timeout=wait)
        ended += done
        if pending and again:
            log.warning("%d %s went on once cancelled: cancelled again", len(pending), what)
            if nudge is not None:
                try:
                    await nudge()
                except Exception:
                    log.exception("nudging %s to stop failed", what)
            for t in pending:
                t.cancel()
    for t in ended:
        if not t.cancelled() and t.exception() is not None:
            log.info("%s ended with %r while stopping", what, t.exception())
    if pending:
        log.error(
            "%d %s still run %g s after they were told to stop: left (they still hold the exit)",
            len(pending),
            what,
            2 * wait,
        )
    return list(pending)
