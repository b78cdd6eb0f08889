"""One address's HTTP request loop against everyone else's answers: ``torampu serve`` with its
per-address request limit (``--request-rate``, ``--request-burst``, the defaults) beside the same
server with the limit lifted (``--request-rate 1e9 --request-burst 1000000000``: the server as
it was before the limit).

For each server (a fresh SQLite data dir, ``torampu serve`` on a free loopback port as a
subprocess, one table made) it measures the latency of ``GET /api/tables/<id>`` — another
client's request, from 127.0.0.1, one every 50 ms on one kept-alive connection — first idle,
then while a flooder from 127.0.0.2 keeps ``--connections`` connections each looping ``GET
--path`` (default ``/api/tables``, a database read) for ``--seconds`` (default 8), reconnecting
whenever the server closes one. It prints per server: the probe's median and max idle and under
the flood (ms), the flood's answers per second by status, the connections the flooder had to
open, and the server's CPU use over the flood (100% = one core). Keep the machine otherwise idle.

    .venv/bin/python bench/web_flood.py [--connections 64] [--seconds 8] [--path /api/games]

With ``--spread N`` the flood is many addresses each within its own rate (a forty-eighth
audit's): N addresses (127.0.0.2…), each looping GET --path on one connection at ``--pace``
requests a second (45, under ``--request-rate``'s 50), against the server with its process-wide
bound (``--request-rate-all``, the default) and without it (``--request-rate-all 0``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SERVERS = {
    "limited (defaults)": [],
    "unlimited (before)": [
        "--request-rate",
        "1e9",
        "--request-burst",
        "1000000000",
        "--request-rate-all",
        "0",
    ],
}
QUEUE_OFF = ["--requests-at-once", "1000000", "--request-rate-all", "0"]
"""The server without its per-address queue of requests (``--burst-every``)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def request(
    r: asyncio.StreamReader, w: asyncio.StreamWriter, method: str, path: str, body: Any = None
) -> tuple[int, bytes]:
    data = b"" if body is None else json.dumps(body).encode()
    w.write(
        f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n".encode()
        + data
    )
    await w.drain()
    head = await r.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return int(head.split(b" ")[1]), await r.readexactly(length)


async def probe(
    port: int, path: str, n: int = 40, every: float = 0.05
) -> tuple[float, float, float]:
    r, w = await asyncio.open_connection("127.0.0.1", port)
    lat = []
    for _ in range(n):
        t = time.perf_counter()
        await request(r, w, "GET", path)
        lat.append((time.perf_counter() - t) * 1000)
        await asyncio.sleep(every)
    w.close()
    p99 = statistics.quantiles(lat, n=100, method="inclusive")[98]
    return statistics.median(lat), p99, max(lat)


async def ws_probe(
    port: int, table: str, n: int = 40, every: float = 0.05
) -> tuple[float, float, float]:
    """A watcher's websocket at ``table``: its pings' round trips (what a table's moves wait
    on: the event loop), ms."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        while json.loads(await ws.recv())["type"] != "snapshot":
            pass
        lat = []
        for _ in range(n):
            t = time.perf_counter()
            await ws.send('{"type": "ping"}')
            while (said := json.loads(await ws.recv()))["type"] != "pong":
                if said["type"] == "error":
                    raise SystemExit(f"the probe's ping was refused: {said}")
            lat.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(every)
    p99 = statistics.quantiles(lat, n=100, method="inclusive")[98]
    return statistics.median(lat), p99, max(lat)


async def flooder(port: int, path: str, stop: float, counts: dict[str, int]) -> None:
    while time.monotonic() < stop:
        try:
            r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
            counts["connections"] = counts.get("connections", 0) + 1
            while time.monotonic() < stop:
                status, _ = await request(r, w, "GET", path)
                counts[str(status)] = counts.get(str(status), 0) + 1
            w.close()
        except (OSError, asyncio.IncompleteReadError):
            counts["closed"] = counts.get("closed", 0) + 1
            await asyncio.sleep(0.01)


async def burster(port: int, path: str, stop: float, address: str, args: Any, counts: Any) -> None:
    """One address holding ``--connections`` connections that all send a request at once every
    ``--burst-every`` seconds (a bucket's whole burst at once, then waiting for it to refill)."""
    conns = []
    for _ in range(args.connections):
        try:
            conns.append(await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0)))
        except OSError:
            counts["refused"] = counts.get("refused", 0) + 1

    async def one(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        try:
            status, _ = await request(r, w, "GET", path)
            counts[str(status)] = counts.get(str(status), 0) + 1
        except (OSError, asyncio.IncompleteReadError):
            counts["closed"] = counts.get("closed", 0) + 1

    counts["connections"] = counts.get("connections", 0) + len(conns)
    while time.monotonic() < stop:
        await asyncio.gather(*(one(r, w) for r, w in conns))
        conns = [(r, w) for r, w in conns if not w.is_closing() and not r.at_eof()]
        await asyncio.sleep(args.burst_every)
    for _, w in conns:
        w.close()


async def spreader(
    port: int, path: str, stop: float, address: str, pace: float, counts: Any
) -> None:
    """One address looping GET ``path`` on one connection at ``pace`` requests a second."""
    while time.monotonic() < stop:
        try:
            r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
            counts["connections"] = counts.get("connections", 0) + 1
            while time.monotonic() < stop:
                t = time.monotonic()
                status, _ = await request(r, w, "GET", path)
                counts[str(status)] = counts.get(str(status), 0) + 1
                await asyncio.sleep(max(0.0, 1 / pace - (time.monotonic() - t)))
            w.close()
        except (OSError, asyncio.IncompleteReadError):
            counts["closed"] = counts.get("closed", 0) + 1
            await asyncio.sleep(0.2)


def flood_process(port: int, stop: float, args: argparse.Namespace, results: Any) -> None:
    """The flood (in a child process, at the lowest priority): puts its counts on ``results``."""
    os.nice(19)
    counts: dict[str, int] = {}

    async def flood() -> None:
        if args.spread:
            await asyncio.gather(
                *(
                    spreader(port, args.path, stop, f"127.0.0.{2 + i}", args.pace, counts)
                    for i in range(args.spread)
                )
            )
        elif args.burst_every:
            await asyncio.gather(
                *(
                    burster(port, args.path, stop, f"127.0.0.{2 + i}", args, counts)
                    for i in range(args.addresses)
                )
            )
        else:
            await asyncio.gather(
                *(flooder(port, args.path, stop, counts) for _ in range(args.connections))
            )

    asyncio.run(flood())
    results.put(counts)


async def measure(port: int, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    r, w = await asyncio.open_connection("127.0.0.1", port)
    _, body = await request(r, w, "POST", "/api/tables", {"game": "daifugo", "games": 1})
    w.close()
    made = json.loads(body)
    if "table" not in made:
        raise SystemExit(f"no table made: {made}")
    target = "/api/tables/" + made["table"]["id"]
    if args.spread:  # (the process's bound refuses the HTTP probe too: a websocket's pings)
        idle = await ws_probe(port, made["table"]["id"])
    else:
        idle = await probe(port, target)
    stop = time.monotonic() + args.seconds
    cpu0 = cpu_seconds(pid)
    # the flood runs in a process of its own, niced: its own work (640 answers to read at once)
    # must not be counted as the server's delay to the probe
    results: Any = multiprocessing.get_context("fork").Queue()
    child = multiprocessing.get_context("fork").Process(
        target=flood_process, args=(port, stop, args, results)
    )
    child.start()
    await asyncio.sleep(0.5)
    if args.spread:
        # (every 80 ms: a websocket's messages are bounded too, 20 a second)
        loaded = await ws_probe(port, made["table"]["id"], int((args.seconds - 1) / 0.08), 0.08)
    else:
        loaded = await probe(port, target, int((args.seconds - 1) / 0.025), every=0.025)
    counts = results.get(timeout=args.seconds + 60)
    child.join(30)
    cpu = (cpu_seconds(pid) - cpu0) / args.seconds
    return {"idle": idle, "flood": loaded, "counts": counts, "cpu": cpu}


def run(name: str, extra: list[str], args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        cmd = [str(Path(sys.executable).parent / "torampu"), "serve", "--port", str(port)]
        cmd += ["--data-dir", data, "--create-rate", "1000", "--tables-per-day", "0", *extra]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit(f"{name}: the server did not start") from None
                    time.sleep(0.2)
            return asyncio.run(measure(port, proc.pid, args))
        finally:
            proc.terminate()
            proc.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--path", default="/api/tables")
    ap.add_argument("--addresses", type=int, default=5, help="with --burst-every")
    ap.add_argument("--burst-every", type=float, default=0.0)
    ap.add_argument("--spread", type=int, default=0, help="addresses each within its rate")
    ap.add_argument("--pace", type=float, default=45.0, help="with --spread: each's requests/s")
    args = ap.parse_args()
    if args.spread:
        print(
            f"flood: {args.spread} addresses (127.0.0.2…), each one connection looping GET "
            f"{args.path} at {args.pace:g} a second, for {args.seconds:g} s"
        )
    elif args.burst_every:
        print(
            f"flood: {args.addresses} addresses (127.0.0.2…), each {args.connections} connections "
            f"sending GET {args.path} at once every {args.burst_every:g} s, for {args.seconds:g} s"
        )
    else:
        print(
            f"flood: {args.connections} connections from 127.0.0.2 looping GET {args.path} "
            f"for {args.seconds:g} s"
        )
    if args.spread:
        print("probe: a watcher's websocket pings at a table, from 127.0.0.1, every 80 ms")
    else:
        print("probe: GET /api/tables/<id> from 127.0.0.1 every 50 ms")
    print(
        f"{'server':<24} {'idle p50/p99/max ms':>20} {'flood p50/p99/max ms':>22} "
        f"{'flood 200/s':>11} {'429/s':>7} {'503/s':>7} {'conns':>6} {'cpu':>5}"
    )
    servers = dict(SERVERS)
    if args.spread:
        servers = {"process bound (default)": [], "no process bound": ["--request-rate-all", "0"]}
    elif args.burst_every:
        servers = {"limited (defaults)": [], "no per-address queue": QUEUE_OFF}
    for name, extra in servers.items():
        f = run(name, extra, args)
        c = f["counts"]
        idle, flood = ("/".join(f"{x:.1f}" for x in f[k]) for k in ("idle", "flood"))
        print(
            f"{name:<24} {idle:>20} {flood:>22} {c.get('200', 0) / args.seconds:>11.1f} "
            f"{c.get('429', 0) / args.seconds:>7.1f} {c.get('503', 0) / args.seconds:>7.1f} "
            f"{c.get('connections', 0):>6} {f['cpu']:>5.0%}"
        )


if __name__ == "__main__":
    main()
