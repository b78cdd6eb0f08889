"""The web table under load: action-to-update latency and actions per second of `torampu serve`.

For each database (SQLite in a fresh temporary data dir; PostgreSQL on 127.0.0.1:5432 as user
``postgres`` with trust auth, in a fresh database ``torampu_bench_<pid>`` dropped at the end, the
row skipped if the server is unreachable) it starts ``torampu serve --bot-delay 0
--away-timeout 600`` on a free loopback port as a subprocess, waits for ``GET /api/health`` and
keeps ``--tables`` tables in play at once from one asyncio client process. Per table: ``POST
/api/tables`` (``--game``, its ``--rules``, one game), ``join`` seat 0 as a scripted human,
``start`` with ``fill`` = ``--bots`` so that bots play the other seats, connect the websocket
(``websockets``), send ``hello``; whenever a snapshot gives the human legal actions it picks one
(seeded random) and sends ``act`` with the snapshot's version. When a table's match is over a new
table replaces it, until ``--seconds`` have passed; tables still in play then are abandoned.

It prints per database: the tables held at once (peak), the tables finished, the actions applied
per second (every seat: the sum of the tables' last versions seen over the run's wall time), the
human actions, the p50 / p99 / max *action-to-update latency* (from sending ``act`` on version v
to receiving the snapshot of version v + 1), the errors (HTTP failures, websocket ``error``
messages, stalls of 30 s, protocol surprises), the server's CPU use over the run and its peak
RSS (``VmHWM``). Server and client share the machine: keep it otherwise idle (2 cores suffice).

Run: .venv/bin/python bench/web.py [--quick] [--tables N] [--seconds S] [--bots random]
     [--databases sqlite,postgresql] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

HOST = "127.0.0.1"
PG_PORT = 5432
SEED = 20241122
STALL = 30.0
"""Seconds without a message from the server after which a table counts as stalled."""
BY = {"human", "bot", "away", "timeout"}
SNAPSHOT_KEYS = {"type", "version", "seat", "table", "view", "legal", "last"}


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def proc_status(pid: int, key: str) -> int | None:
    """A ``kB`` figure of ``/proc/<pid>/status`` (``VmHWM``: peak RSS), or ``None``."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (``/proc/<pid>/stat``)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Server:
    """``torampu serve`` as a subprocess, its output in a log file."""

    def __init__(self, data_dir: Path, database: str | None) -> None:
        self.port = free_port()
        self.log_path = data_dir / "server.log"
        exe = Path(sys.executable).with_name("torampu")
        cmd = [str(exe), "serve", "--host", HOST, "--port", str(self.port)]
        cmd += ["--data-dir", str(data_dir), "--bot-delay", "0", "--away-timeout", "600"]
        if database:
            cmd += ["--database", database]
        self.log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)

    async def wait_healthy(self, timeout: float = 60.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}):\n{self.tail()}")
            with contextlib.suppress(OSError, ValueError):
                status, body = await http(self.port, "GET", "/api/health")
                if status == 200 and body.get("status") == "ok":
                    return body
            if time.monotonic() > end:
                raise RuntimeError(f"no /api/health after {timeout:.0f} s:\n{self.tail()}")
            await asyncio.sleep(0.1)

    def tail(self, lines: int = 20) -> str:
        if not self.log.closed:
            self.log.flush()
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def stop(self) -> int | None:
        """Stop the server (terminate, wait, kill); its peak RSS in kB if it could be read."""
        peak = proc_status(self.proc.pid, "VmHWM")
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()
        return peak


async def http(
    port: int, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, dict[str, Any]]:
    """One HTTP/1.1 request on a new loopback connection (``Connection: close``): status, JSON."""
    data = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    header, _, payload = raw.partition(b"\r\n\r\n")
    status = int(header.split(b" ", 2)[1])
    try:
        parsed = json.loads(payload) if payload.strip() else {}
    except ValueError:
        parsed = {"error": {"code": "not_json", "message": payload[:200].decode(errors="replace")}}
    return status, parsed if isinstance(parsed, dict) else {"value": parsed}


# --------------------------------------------------------------------------- PostgreSQL


def _pg_admin(sql: str) -> None:
    """Run one statement as the local server's superuser, outside a transaction."""
    import psycopg

    with psycopg.connect(
        host=HOST, port=PG_PORT, user="postgres", dbname="postgres", connect_timeout=5
    ) as conn:
        conn.autocommit = True
        conn.execute(sql)


def pg_create(name: str) -> None:
    _pg_admin(f'CREATE DATABASE "{name}"')


def pg_drop(name: str) -> None:
    _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --------------------------------------------------------------------------- the client


@dataclass
class Stats:
    """What the client saw during one database's run."""

    latencies: list[float] = field(default_factory=list)
    setups: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    versions: dict[str, int] = field(default_factory=dict)
    """Per table: the last version seen (the actions applied to it, every seat)."""
    started: int = 0
    finished: int = 0
    human: int = 0
    snapshots: int = 0
    bytes_in: int = 0
    in_play: int = 0
    peak_in_play: int = 0
    gaps: int = 0
    client_cpu: float = 0.0

    def error(self, code: str, detail: str) -> None:
        self.errors[code] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{code}: {detail}"[:300])


async def play_table(port: int, args: argparse.Namespace, rng: random.Random, stats: Stats) -> None:
    """One table from its creation to the end of its match (or the cancellation at the end)."""
    t0 = time.perf_counter()
    body: dict[str, Any] = {"game": args.game, "games": 1}
    if args.rules:
        body["rules"] = args.rules
    status, created = await http(port, "POST", "/api/tables", body)
    if status != 201:
        stats.error(f"http_create_{status}", json.dumps(created))
        await asyncio.sleep(0.1)
        return
    table_id, host_token = created["table"]["id"], created["host_token"]
    status, joined = await http(
        port, "POST", f"/api/tables/{table_id}/join", {"name": "bench", "seat": 0}
    )
    if status != 200:
        stats.error(f"http_join_{status}", json.dumps(joined))
        return
    token = joined["token"]
    status, started = await http(
        port, "POST", f"/api/tables/{table_id}/start", {"fill": args.bots}, host_token
    )
    if status != 200:
        stats.error(f"http_start_{status}", json.dumps(started))
        return
    stats.started += 1
    stats.in_play += 1
    stats.peak_in_play = max(stats.peak_in_play, stats.in_play)
    stats.versions[table_id] = 0
    try:
        async with connect(f"ws://{HOST}:{port}/ws/tables/{table_id}", open_timeout=STALL) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "version": None}))
            acted: int | None = None  # the version acted on, until its update arrives
            acted_action = ""
            sent = 0.0
            last_version = -1
            last_acted = -1
            first = True
            while True:
                try:
                    async with asyncio.timeout(STALL):
                        raw = await ws.recv()
                except TimeoutError:
                    stats.error("stalled", f"table {table_id}: nothing for {STALL:.0f} s")
                    return
                now = time.perf_counter()
                stats.bytes_in += len(raw)
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "error":
                    stats.error(f"ws_{msg.get('code')}", f"table {table_id}: {msg.get('message')}")
                    acted = None
                    continue
                if kind != "snapshot":
                    stats.error("protocol", f"table {table_id}: unexpected message {kind!r}")
                    continue
                stats.snapshots += 1
                if first:
                    stats.setups.append(now - t0)
                    first = False
                missing = SNAPSHOT_KEYS - msg.keys()
                if missing or msg["seat"] != 0:
                    stats.error("protocol", f"snapshot without {sorted(missing)} or not seat 0")
                    continue
                version = msg["version"]
                if version < last_version:
                    stats.error("protocol", f"version went back from {last_version} to {version}")
                elif version > last_version + 1 and last_version >= 0:
                    stats.gaps += 1
                last_version = max(last_version, version)
                stats.versions[table_id] = last_version
                if acted is not None and version >= acted + 1:
                    stats.latencies.append(now - sent)
                    last = msg["last"] or {}
                    if version == acted + 1 and (
                        last.get("seat") != 0
                        or last.get("action") != acted_action
                        or last.get("by") != "human"
                    ):
                        stats.error("protocol", f"version {version}: last is {last}")
                    acted = None
                last = msg["last"]
                if last is not None and last.get("by") not in BY:
                    stats.error("protocol", f"last.by is {last.get('by')!r}")
                if msg["table"]["status"] == "over":
                    stats.finished += 1
                    return
                legal = msg["legal"]
                if legal and acted is None and version > last_acted:
                    acted, last_acted = version, version
                    acted_action = legal[int(rng.random() * len(legal))]
                    sent = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "act", "action": acted_action, "version": version})
                    )
                    stats.human += 1
    except (OSError, TimeoutError) as e:
        stats.error("ws_connection", f"table {table_id}: {type(e).__name__}: {e}")
    except Exception as e:  # a closed connection (websockets' ConnectionClosed) or bad JSON
        stats.error("ws_" + type(e).__name__, f"table {table_id}: {e}")
    finally:
        stats.in_play -= 1


async def drive(port: int, args: argparse.Namespace, stats: Stats) -> float:
    """Keep ``args.tables`` tables in play for ``args.seconds``; the wall time of the run."""
    loop = asyncio.get_running_loop()
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    deadline = loop.time() + args.seconds
    counter = iter(range(args.max_tables))

    async def worker() -> None:
        while loop.time() < deadline:
            k = next(counter, None)
            if k is None:
                return
            try:
                await play_table(port, args, random.Random(args.seed * 100_003 + k), stats)
            except (OSError, ValueError, KeyError) as e:
                stats.error("client", f"{type(e).__name__}: {e}")
                await asyncio.sleep(0.1)

    tasks = [asyncio.create_task(worker()) for _ in range(args.tables)]
    _, pending = await asyncio.wait(tasks, timeout=args.seconds)
    wall = time.perf_counter() - t0
    stats.client_cpu = time.process_time() - cpu0
    for t in pending:
        t.cancel()
    if pending:
        await asyncio.wait(pending, timeout=15)
    return wall


def pct(xs: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``xs``, in ms; NaN when empty."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))] * 1000


async def run_one(name: str, args: argparse.Namespace) -> dict[str, Any] | None:
    """One database's row (``None`` when PostgreSQL is unreachable)."""
    db_name = f"torampu_bench_{os.getpid()}"
    database = None
    if name == "postgresql":
        try:
            pg_create(db_name)
        except Exception as e:
            why = " ".join(str(e).split())
            print(f"{name}: PostgreSQL unreachable on {HOST}:{PG_PORT} ({why}); skipped")
            return None
        database = f"postgresql://postgres@{HOST}:{PG_PORT}/{db_name}"
    try:
        with tempfile.TemporaryDirectory(prefix="torampu-bench-web-") as tmp:
            server = Server(Path(tmp), database)
            peak_kb: int | None = None
            try:
                health = await server.wait_healthy()
                if health.get("database") != name:
                    print(f"{name}: the server says its database is {health.get('database')!r}")
                stats = Stats()
                cpu0 = cpu_seconds(server.proc.pid)
                wall = await drive(server.port, args, stats)
                cpu1 = cpu_seconds(server.proc.pid)
                alive = server.proc.poll() is None
                status, end_health = (0, {})
                if alive:
                    with contextlib.suppress(OSError, ValueError):
                        status, end_health = await asyncio.wait_for(
                            http(server.port, "GET", "/api/health"), 10
                        )
            finally:
                peak_kb = server.stop()
                log_text = server.log_path.read_text(errors="replace")
    finally:
        if database:
            try:
                pg_drop(db_name)
            except Exception as e:
                print(f"{name}: could not drop database {db_name}: {e}")
    actions = sum(stats.versions.values())
    log_lines = [ln for ln in log_text.splitlines() if ln.strip()]
    noisy = [
        ln
        for ln in log_lines
        if any(w in ln for w in ("WARNING", "ERROR", "Traceback", "refused", "Exception"))
    ]
    return {
        "database": name,
        "tables_target": args.tables,
        "tables_peak": stats.peak_in_play,
        "tables_started": stats.started,
        "tables_finished": stats.finished,
        "seconds": wall,
        "actions": actions,
        "actions_per_s": actions / wall,
        "human_actions": stats.human,
        "latency_ms": {
            "n": len(stats.latencies),
            "p50": pct(stats.latencies, 0.50),
            "p99": pct(stats.latencies, 0.99),
            "max": max(stats.latencies, default=float("nan")) * 1000,
        },
        "setup_ms_p50": pct(stats.setups, 0.50),
        "snapshots": stats.snapshots,
        "mb_received": stats.bytes_in / 1e6,
        "version_gaps": stats.gaps,
        "errors": sum(stats.errors.values()),
        "error_codes": dict(stats.errors),
        "error_samples": stats.error_samples,
        "server_alive_at_end": alive,
        "server_health_at_end": end_health if status == 200 else None,
        "server_cpu_percent": (
            100 * (cpu1 - cpu0) / wall if cpu0 is not None and cpu1 is not None else None
        ),
        "client_cpu_percent": 100 * stats.client_cpu / wall,
        "server_peak_rss_mb": peak_kb / 1024 if peak_kb is not None else None,
        "server_log_lines": len(log_lines),
        "server_log_warnings": noisy[:20],
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=20, help="tables in play at once (default 20)")
    ap.add_argument("--seconds", type=float, default=20.0, help="run length per database")
    ap.add_argument("--game", default="napoleon")
    ap.add_argument("--rules", default=None, help="preset (default: classic for napoleon)")
    ap.add_argument("--bots", default="heuristic", help="the fill bot (heuristic, random, …)")
    ap.add_argument("--databases", default="sqlite,postgresql")
    ap.add_argument("--max-tables", type=int, default=100_000, help="at most this many tables")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--quick", action="store_true", help="a smoke run: 5 tables, 5 seconds")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    if args.quick:
        args.tables, args.seconds = 5, 5.0
    if args.rules is None and args.game == "napoleon":
        args.rules = "classic"
    names = [d.strip() for d in args.databases.split(",") if d.strip()]
    for n in names:
        if n not in ("sqlite", "postgresql"):
            ap.error(f"unknown database {n!r} (sqlite, postgresql)")

    print(
        f"torampu serve: {args.tables} tables of {args.game} {args.rules or 'default'} (1 game), "
        f"seat 0 a scripted human, the others {args.bots} bots, --bot-delay 0; "
        f"{args.seconds:g} s per database ({platform.machine()}, {os.cpu_count()} cores)"
    )
    results: dict[str, Any] = {
        "game": args.game,
        "rules": args.rules,
        "bots": args.bots,
        "tables": args.tables,
        "seconds": args.seconds,
        "seed": args.seed,
        "python": sys.version.split()[0],
        "rows": {},
    }
    head = (
        f"{'database':10} {'tables':>6} {'done':>5} {'actions/s':>9} {'human':>6} "
        f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'errors':>6} {'srv CPU':>7} {'srv RSS':>8}"
    )
    rows = []
    for name in names:
        row = asyncio.run(run_one(name, args))
        results["rows"][name] = row if row is not None else {"skipped": "unreachable"}
        if row is not None:
            rows.append(row)
    if rows:
        print(head)
    for r in rows:
        lat = r["latency_ms"]
        cpu = r["server_cpu_percent"]
        rss = r["server_peak_rss_mb"]
        print(
            f"{r['database']:10} {r['tables_peak']:6} {r['tables_finished']:5} "
            f"{r['actions_per_s']:9,.0f} {r['human_actions']:6} {lat['p50']:7.1f} "
            f"{lat['p99']:7.1f} {lat['max']:7.1f} {r['errors']:6} "
            f"{'-' if cpu is None else f'{cpu:.0f}%':>7} "
            f"{'-' if rss is None else f'{rss:.0f} MB':>8}"
        )
    for r in rows:
        if r["errors"]:
            print(f"{r['database']}: errors {r['error_codes']}")
            for s in r["error_samples"]:
                print(f"  {s}")
        if r["version_gaps"]:
            print(f"{r['database']}: {r['version_gaps']} snapshots skipped a version")
        if not r["server_alive_at_end"]:
            print(f"{r['database']}: the server had exited by the end of the run")
        if r["server_log_warnings"]:
            print(f"{r['database']}: server log ({r['server_log_lines']} lines), first warnings:")
            for ln in r["server_log_warnings"][:5]:
                print(f"  {ln[:200]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
