"""A table this process drives keeps its room while the bus cannot answer, and before its
driver's first lease: only a copy whose lease the bus said is another process's may go."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from torampu.web.bus import BusError
from web_helpers import client, new_table


class _Bus:
    """A shared bus in memory (not the one-process LocalBus): this process holds every lease
    it asks for until ``down`` (each command then fails, as in a Redis outage); ``slow``: its
    lease answers after that many seconds."""

    process = "here"

    def __init__(self) -> None:
        self.down = False
        self.slow = 0.0

    @property
    def healthy(self) -> bool:
        return not self.down

    async def lease(self, table_id: str, ttl: float, held: bool = False) -> bool:
        if self.slow:
            await asyncio.sleep(self.slow)
        if self.down:
            raise BusError("lease failed: ConnectionError")
        return True

    async def release(self, table_id: str, park: float = 0.0) -> None:
        return None

    async def leased(self, table_ids: list[str]) -> set[str]:
        return set(table_ids)

    async def publish(self, table_id: str, event: dict[str, Any]) -> None:
        return None

    async def set_presence(self, table_id: str, seats: list[int], clients: int) -> None:
        return None

    async def presence(self, table_id: str) -> tuple[set[int], int]:
        return set(), 0

    async def spend(self, key: str, rate: float, burst: int) -> bool | None:
        return None

    async def claim(self, key: str, ttl: float) -> bool:
        return True

    async def unclaim(self, key: str) -> None:
        return None

    async def stop(self) -> None:
        return None


def test_a_table_this_process_drives_keeps_its_room_through_a_bus_outage(tmp_path: Path) -> None:
    with client(tmp_path, max_rooms=1, lease_ttl=0.6, bot_delay=0.05) as c:
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        bus = lobby.bus = _Bus()
        tid, _host, _ = new_table(c, "hell", {"players": 3}, games=19, humans=0)
        room = lobby.rooms[tid]
        deadline = time.monotonic() + 10
        while not room.driving:  # its driver holds the lease
            assert time.monotonic() < deadline
            time.sleep(0.02)
        bus.down = True  # Redis away a moment: the lease cannot be renewed, nor taken by anyone
        deadline = time.monotonic() + 10
        while room.driving:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        r = c.post("/api/tables", json={"game": "nap", "games": 1})
        # (refused busy as before: the table it drives is not let go)
        assert tid in lobby.rooms and lobby.rooms[tid] is room, r.status_code
        assert room.driver is not None and not room.driver.done()


def test_a_table_keeps_its_room_before_its_driver_s_first_lease(tmp_path: Path) -> None:
    with client(tmp_path, max_rooms=1, bot_delay=0.05) as c:
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        bus = lobby.bus = _Bus()
        bus.slow = 1.0  # the lease's answer takes its time (Redis busy)
        tid, _host, _ = new_table(c, "hell", {"players": 3}, games=19, humans=0)
        room = lobby.rooms[tid]
        assert not room.driving  # its driver still waits for its first lease
        r = c.post("/api/tables", json={"game": "nap", "games": 1})
        assert tid in lobby.rooms and lobby.rooms[tid] is room, r.status_code
        assert room.driver is not None and not room.driver.done()
