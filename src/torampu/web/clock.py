"""The wall clock every process of one deployment agrees on.

Stored times — an action's, a table's last change, since when nobody has been at it — are read
by other processes, on other machines, and compared with their own clocks. A worker whose clock
ran 10 s behind stamped its moves 10 s in the past, and the process driving the table counted
the next person's turn from there: 5 s of 15 (a sixteenth scale audit). With Redis (several
processes) each process sets its clock right by Redis's ``TIME``
(:meth:`torampu.web.bus.RedisBus.keep_time`), as presence already was; a process alone keeps
its machine's. Intervals are measured with :func:`time.monotonic`, never with this.

>>> set_offset(2.5); abs(wall() - time.time() - 2.5) < 1.0, now().tzinfo is UTC
(True, True)
>>> set_offset(0.0)
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

_offset = 0.0
"""The shared clock less this machine's, in seconds."""


def wall() -> float:
    """Seconds since the epoch by the shared clock."""
    return time.time() + _offset


def now() -> datetime:
    """The shared clock's time, timezone-aware (UTC): what a stored time is stamped with."""
    return datetime.fromtimestamp(wall(), UTC)


def set_offset(seconds: float) -> None:
    """Set this process's clock right by ``seconds`` (the shared clock less this machine's)."""
    global _offset
    _offset = seconds


def offset() -> float:
    """The shared clock less this machine's, as last set (0 for a process alone)."""
    return _offset
