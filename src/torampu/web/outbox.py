"""Backpressure for the websockets: a bounded outbox per connection, and per-socket rate limits.

A table never waits for a client. :meth:`Outbox.want_snapshot` only marks that the client needs
a fresh snapshot; the connection's own writer task (:meth:`Outbox.run`) builds it when it is
ready to send, so snapshots supersede each other — a client that falls behind gets the newest
state, not a backlog. Other messages (errors, pongs) queue up to ``max_items``; chat messages
have a queue of their own, of the same length, where the oldest give way to the newest (a flood
of chat costs a reader some of it, never its connection). Each send has a timeout; a client
whose send times out, or whose queue overflows, is *behind*: :meth:`run` raises :class:`Behind`
and the server closes that connection. Nothing one client does (or fails to do) delays another
client, its table or any other table.

>>> b = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any


class Behind(Exception):
    """The client does not read fast enough (a send timed out, or its queue overflowed)."""


class Dismissed(Exception):
    """The server sent the client away (:meth:`Outbox.dismiss`): its last message is sent, and
    the connection is to be closed with ``code``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class Outbox:
    """What one connection still has to receive."""

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        snapshot: Callable[[], str | None],
        timeout: float,
        max_items: int = 32,
    ) -> None:
        self._send_text = send_text
        self._snapshot = snapshot
        self.timeout = timeout
        self.max_items = max_items
        self._items: deque[tuple[int, str]] = deque()
        self._chats: deque[tuple[int, str]] = deque(maxlen=max_items)
        self._seq = 0
        """The order messages were queued in (chat and the rest go out in that order)."""
        self.dropped = 0
        """Chat messages that gave way to newer ones before they were sent."""
        self._snapshot_due = False
        self._after: list[str] = []
        self._wake = asyncio.Event()
        self.overflowed = False
        self.sent = 0
        self._dismissed: Dismissed | None = None

    def want_snapshot(self) -> None:
        """The client should see the table's newest state (built when it is sent)."""
        if self._dismissed is not None:
            return
        self._snapshot_due = True
        self._wake.set()

    def dismiss(self, message: dict[str, Any], code: int, reason: str) -> None:
        """Send the client away: what is still queued is dropped, ``message`` is the last thing
        it receives, then :meth:`run` raises :class:`Dismissed` (the socket closes with
        ``code``); nothing queued after this is sent."""
        if self._dismissed is not None:
            return
        self._items.clear()
        self._chats.clear()
        self._after.clear()
        self._snapshot_due = False
        self._seq += 1
        self._items.append((self._seq, json.dumps(message, ensure_ascii=False)))
        self._dismissed = Dismissed(code, reason)
        self._wake.set()

    def push(self, message: dict[str, Any]) -> None:
        """Queue one message; past ``max_items`` waiting the client is behind."""
        if self._dismissed is not None:
            return
        if len(self._items) >= self.max_items:
            self.overflowed = True
        else:
            self._seq += 1
            self._items.append((self._seq, json.dumps(message, ensure_ascii=False)))
        self._wake.set()

    def push_chat(self, message: dict[str, Any]) -> None:
        """Queue one chat message; past ``max_items`` waiting the oldest is dropped."""
        if self._dismissed is not None:
            return
        if len(self._chats) == self._chats.maxlen:
            self.dropped += 1
        self._seq += 1
        self._chats.append((self._seq, json.dumps(message, ensure_ascii=False)))
        self._wake.set()

    def after_snapshot(self, message: dict[str, Any]) -> None:
        """Queue one message to follow the next snapshot (what answers a ``hello`` comes
        first)."""
        self._after.append(json.dumps(message, ensure_ascii=False))
        self.want_snapshot()

    @property
    def pending(self) -> int:
        return len(self._items) + len(self._chats) + self._snapshot_due

    async def run(self) -> None:
        """Send until cancelled; :class:`Behind` when the client cannot keep up."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while True:
                if self.overflowed:
                    raise Behind(f"more than {self.max_items} messages waiting")
                snapshot = False
                if self._items or self._chats:
                    first = self._items
                    if not first or (self._chats and self._chats[0][0] < first[0][0]):
                        first = self._chats
                    text: str | None = first.popleft()[1]
                elif self._snapshot_due:
                    self._snapshot_due = snapshot = False
                    text = self._snapshot()
                    snapshot = text is not None
                else:
                    if self._dismissed is not None:
                        raise self._dismissed
                    break
                if text is None:
                    continue
                try:
                    await asyncio.wait_for(self._send_text(text), self.timeout)
                except TimeoutError:
                    raise Behind(f"a send took over {self.timeout:g} s") from None
                self.sent += 1
                if snapshot and self._after:
                    for after in self._after:
                        self._seq += 1
                        self._items.append((self._seq, after))
                    self._after.clear()


class TokenBucket:
    """At most ``burst`` at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = now

    def _refilled(self, now: float) -> float:
        return min(self.burst, self.tokens + (now - self.at) * self.rate)

    def available(self, now: float) -> bool:
        """Whether :meth:`take` would succeed now (takes nothing)."""
        return self._refilled(now) >= 1

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled to its burst (it then need not be kept)."""
        return self._refilled(now) >= self.burst

    def take(self, now: float, n: int = 1, keep: float = 0) -> bool:
        """Take ``n`` tokens (False, taking none, if fewer are there), leaving ``keep`` at least.

        >>> b = TokenBucket(rate=1.0, burst=4, now=0.0)
        >>> [b.take(0.0, keep=2) for _ in range(3)], b.take(0.0)
        ([True, True, False], True)
        """
        self.tokens = self._refilled(now)
        self.at = now
        if self.tokens - keep >= n:
            self.tokens -= n
            return True
        return False

    def charge(self, now: float, n: int = 1) -> bool:
        """Take ``n`` tokens whether or not they are there, into a debt of one ``burst`` at
        most; whether they were there. A bucket charged for every try, served or not, stays
        in debt while its client goes on, and has tokens again only once it has asked for
        less than ``rate`` for a while.

        >>> b = TokenBucket(rate=1.0, burst=2, now=0.0)
        >>> [b.charge(0.0) for _ in range(5)], b.tokens
        ([True, True, False, False, False], -2.0)
        >>> b.charge(1.0), b.charge(3.0), b.charge(5.0)
        (False, False, True)
        """
        self.tokens = self._refilled(now)
        self.at = now
        had = self.tokens >= n
        self.tokens = max(-float(self.burst), self.tokens - n)
        return had


class PerKey:
    """One :class:`TokenBucket` per key — a client address, a chat speaker — so that new
    sockets bring it no new allowance. At most ``most`` keys are kept: past that, those whose
    buckets are whole again are forgotten (they lose nothing by it), then the oldest.

    >>> p = PerKey(rate=1.0, burst=2)
    >>> [p.take("a", 0.0), p.take("a", 0.0), p.take("a", 0.0), p.take("b", 0.0)]
    [True, True, False, True]
    """

    def __init__(self, rate: float, burst: int, most: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.most = most
        self.buckets: dict[str, TokenBucket] = {}

    def bucket(self, key: str, now: float) -> TokenBucket:
        """``key``'s bucket (a whole one if it has none)."""
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= self.most:
                self._forget(now)
            b = self.buckets[key] = TokenBucket(self.rate, self.burst, now)
        return b

    def _forget(self, now: float) -> None:
        """Make room: forget the keys whose buckets are whole, and if that leaves over nine
        tenths of ``most``, the oldest keys down to that (a client of so many addresses has
        their allowance anyway). Each pass frees a tenth at least, so the scan is paid once
        per ``most / 10`` new keys, not on every one."""
        for k in [k for k, v in self.buckets.items() if v.full(now)]:
            del self.buckets[k]
        excess = len(self.buckets) - self.most * 9 // 10
        for k in list(self.buckets)[: max(0, excess)]:  # the oldest first (insertion order)
            del self.buckets[k]

    def take(self, key: str, now: float) -> bool:
        return self.bucket(key, now).take(now)
