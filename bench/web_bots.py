"""Tables of bots alone against another table: ``torampu serve`` with its process-wide bound on
bot moves (``--bot-rate-all``, the default 100 a second) beside the same server without it
(``--bot-rate-all 0``: the server as it was before the bound).

For each server (a fresh SQLite data dir, ``torampu serve`` on a free loopback port as a
subprocess, ``--bot-delay`` 0.3 unless ``--bot-delay`` says otherwise) it makes one table of
heuristic bots from 127.0.0.1 (the innocent one), then ``--tables`` tables of heuristic bots
alone (default 200) from ``--addresses`` addresses (127.0.0.2…, default 20: ten each, within
``--tables-per-address``; the creation limits are lifted so that set-up is quick), nobody
watching them. After ``--warm`` seconds (default 10) it measures for ``--seconds`` (default 15):
the bot moves a second in all and the innocent table's, the server's CPU use (100% = one
core), and a watcher's websocket pings at the innocent table (what a person's move there waits
on: the event loop), p50 / p99 / max in ms; the pings idle, before the flood, for reference.
Keep the machine otherwise idle.

    .venv/bin/python bench/web_bots.py [--tables 200] [--addresses 20] [--game napoleon]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from web_flood import cpu_seconds, free_port, request, ws_probe

SERVERS = {
    "bounded (--bot-rate-all 100, the default)": [],
    "unbounded (--bot-rate-all 0: before)": ["--bot-rate-all", "0"],
}
RULES = {"napoleon": "classic", "nap": "standard", "hell": "standard", "daifugo": "standard"}


async def make_table(port: int, address: str, game: str) -> str:
    """A started table of heuristic bots made from ``address``: its id."""
    r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    games = 19 if game == "hell" else 50
    status, body = await request(
        r, w, "POST", "/api/tables", {"game": game, "rules": RULES[game], "games": games}
    )
    assert status == 201, (status, body)
    made = json.loads(body)
    table, host = made["table"]["id"], made["host_token"]
    start = json.dumps({"fill": "heuristic"}).encode()
    w.write(
        f"POST /api/tables/{table}/start HTTP/1.1\r\nHost: localhost\r\n"
        f"Content-Type: application/json\r\nAuthorization: Bearer {host}\r\n"
        f"Content-Length: {len(start)}\r\n\r\n".encode()
        + start
    )
    await w.drain()
    head = await r.readuntil(b"\r\n\r\n")
    assert b" 200 " in head.split(b"\r\n")[0], head
    w.close()
    return str(table)


def stored(db: Path, table: str | None = None) -> int:
    with sqlite3.connect(db) as con:
        if table is None:
            return int(con.execute("SELECT count(*) FROM actions").fetchone()[0])
        q = "SELECT count(*) FROM actions WHERE table_id = ?"
        return int(con.execute(q, (table,)).fetchone()[0])


async def measure(port: int, pid: int, db: Path, args: argparse.Namespace) -> dict[str, Any]:
    innocent = await make_table(port, "127.0.0.1", args.game)
    idle = await ws_probe(port, innocent, 40, 0.05)
    for i in range(args.tables):
        await make_table(port, f"127.0.0.{2 + i % args.addresses}", args.game)
    await asyncio.sleep(args.warm)
    moves, mine = stored(db), stored(db, innocent)
    cpu, start = cpu_seconds(pid), time.monotonic()
    every = 0.05
    loaded = await ws_probe(port, innocent, max(20, int(args.seconds / (every + 0.002))), every)
    took = time.monotonic() - start
    return {
        "idle_ms": idle,
        "loaded_ms": loaded,
        "moves_per_s": (stored(db) - moves) / took,
        "innocent_moves_per_s": (stored(db, innocent) - mine) / took,
        "cpu_percent": 100 * (cpu_seconds(pid) - cpu) / took,
    }


def run(extra: list[str], args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        cmd = [sys.executable, "-m", "torampu", "serve", "--port", str(port)]
        cmd += ["--data-dir", data, "--bot-delay", str(args.bot_delay)]
        cmd += ["--create-rate", "1000", "--tables-per-day", "0", *extra]
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
        server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    with __import__("socket").create_connection(("127.0.0.1", port), 0.5):
                        break
                except OSError:
                    time.sleep(0.3)
            return asyncio.run(measure(port, server.pid, Path(data) / "torampu.db", args))
        finally:
            server.terminate()
            server.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--addresses", type=int, default=20)
    ap.add_argument("--game", choices=sorted(RULES), default="napoleon")
    ap.add_argument("--bot-delay", type=float, default=0.3)
    ap.add_argument("--warm", type=float, default=10.0)
    ap.add_argument("--seconds", type=float, default=15.0)
    args = ap.parse_args()
    if not 1 <= args.addresses <= 250 or args.tables < 1:
        ap.error("--tables ≥ 1 and --addresses from 1 to 250")
    print(f"{args.tables} tables of heuristic bots ({args.game}, --bot-delay {args.bot_delay})")
    print(f"from {args.addresses} addresses, nobody watching; one more table beside them\n")
    head = f"{'server':44} {'moves/s':>8} {'its own':>8} {'CPU %':>6}  ping ms p50/p99/max"
    print(head)
    for name, extra in SERVERS.items():
        f = run(extra, args)
        lo, hi = f["idle_ms"], f["loaded_ms"]
        print(
            f"{name:44} {f['moves_per_s']:8.1f} {f['innocent_moves_per_s']:8.2f} "
            f"{f['cpu_percent']:6.0f}  {hi[0]:.1f} / {hi[1]:.1f} / {hi[2]:.1f} "
            f"(idle {lo[0]:.1f} / {lo[1]:.1f} / {lo[2]:.1f})"
        )


if __name__ == "__main__":
    main()
