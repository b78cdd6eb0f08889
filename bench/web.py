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

Abuse mode (``--abuse``): does play stay quick at the honest tables while others abuse the
server? A 2×2 grid of cells, each on a FRESH server (SQLite in a temporary dir, ``--bot-delay 0
--away-timeout 600``), each ``--seconds`` long (default 20):

* N = ``--tables`` human tables (default 20): seat 0 a scripted human, the others ``--bots``;
  a match of ``--match-games`` games (default 10, so that a table usually lasts the cell; one
  that ends is replaced, its abusers move to the new one). The human thinks 0.2–0.5 s (seeded)
  after its snapshot offers legal actions, then sends ``act`` on that version v;
* M = ``--bot-tables`` (default 4; 0 in two cells): every seat ``--strong-bot`` (default
  ``ismcts:think=1``, the strongest bot the page offers), one spectator socket each reading
  normally (the table is watched), a new table when a match ends;
* K = ``--readers`` (default 50; 0 in two cells) non-reading sockets spread round-robin over the
  human tables: a raw TCP socket with ``SO_RCVBUF`` = 4096 set before ``connect``, the websocket
  handshake by hand, one ``hello`` (token null), then never read again. Beside them, one
  "hello spam" socket per abused table sends ``hello`` (token null) every 50 ms and reads.

Per cell a row: the human actions sent; p50 / p99 / max of *human action -> own update* (from
sending ``act`` on version v to receiving its own snapshot with a version > v), in ms; the
timeouts (an ``act`` unanswered after 10 s: the human leaves that table for a new one, and the
action enters p50 / p99 / max as 10,000 ms); the stalls (a human waiting for the other seats
whose table's version did not move for 10 s: it leaves too; not in the latencies); the errors
(HTTP failures, websocket ``error`` replies, broken connections, on any socket); the moves the
strong bots made ("bot mv"); the server's CPU use over the cell (100% = one core). After
``--seconds`` a drain of at most 10 s: no new action, but each action sent gets its answer or
its timeout, and each waiting human sees its table move or counts a stall, so that a table
frozen near the end is counted too. At the end, p99 of each cell over p99 of the clean cell
(K=0, M=0) with PASS (≤ 2× and no timeout or stall) or FAIL. ``--server-arg=ARG`` (repeatable)
passes an option on to ``torampu serve`` (e.g. ``--server-arg=--max-bot-think=1``), in both
modes. ``--json FILE`` writes the figures (also: p50 / p99 of the abused tables alone, the
hello-spam counts, client CPU, server log warnings).

Every mode raises the server's limits that all-loopback clients would hit (``--sockets-per-address
100000 --max-sockets 100000 --max-tables 100000 --create-rate 100000 --sockets-per-table 64``).

Scale mode (``--scale``): the scaled-out table, measured in three layouts under two loads.
Layouts (``--layouts``, letters or names, default all): ``a`` = ``single-sqlite`` (one ``torampu
serve``, SQLite in a temporary dir, its own bot process pool), ``b`` = ``single-pg`` (the same on
PostgreSQL), ``c`` = ``scaled`` (two ``torampu serve --redis`` on PostgreSQL + a private
``redis-server --save '' --appendonly no`` on a free port, and one ``torampu worker
--processes 1``). PostgreSQL: a fresh ``torampu_bench_<pid>`` per cell, dropped after it. Loads
(``--loads``): ``realistic`` — the server's natural bot delay (0.8 s; no ``--bot-delay`` given),
the human acting after a think time drawn uniformly from 1–3 s (seeded) — at each of
``--counts`` tables (default 100,300,1000,3000); ``saturation`` — ``--bot-delay 0``, the human
acting at once (the default mode's load) — at each of ``--sat-counts`` (default 100,300). Each
cell is a fresh set-up of the layout. A table is ``--game`` (``--rules``; napoleon ``classic``),
one game, seat 0 a scripted human, the others ``--bots``; a match that ends is replaced by a new
table. Per table, one observer socket (a spectator, ``hello`` with token null) on the OTHER web
process in ``scaled`` (on the same one otherwise); table k's HTTP requests and human go to web
process k % 2, as a load balancer would spread them. Set-up (≤ ``--setup-timeout``, 30 s; 32
set-ups in flight), ``--warmup`` (5 s), then ``--seconds`` (30) measured, then a drain of ≤ 5 s in
which the actions sent in the window get their answers (those still unanswered enter the
latencies as the time waited, a lower bound; a human unanswered for 20 s, or whose table does
not move for 20 s, counts a timeout or a stall and moves on to a new table).

Per cell a row (and ``--json FILE``, rewritten after each cell): the tables requested and held
(median of one sample a second in the window), actions/s (every seat: the versions the humans
saw advance in the window), the human actions sent in the window, p50 / p99 / max of *human
action -> own update* (``act`` on version v -> the human's next snapshot with a version > v),
p50 / p99 of *human action -> other seat's update* (-> the observer's first snapshot with a
version > v), the errors, the server CPU (user + system of every web and worker process and
their children, i.e. the bot pools; 100% = one core) and CPU ms per action, the CPU of the
PostgreSQL backends serving the database plus Redis ("pg+rd"), the client's own CPU, and the
peak RSS (``VmHWM``) of each web / worker process (its children's in the JSON). The client is
one asyncio process kept lean: observers read only ``"version": N`` from the head of each
snapshot's text, humans parse only the ``legal`` list and only when it is not ``[]``; a note
follows when the client used ≥ 85% of a core (it may be the bottleneck) or server + client
≥ 180% of the 2 cores. At the end, per layout and load, the largest count held (≥ 95%) with p99
(own update) < 100 ms and where p99 crosses 100 ms (interpolated in log(count)).

``--profile LAYOUT:LOAD:COUNT`` runs that one cell with ``py-spy record`` (``pip install
py-spy``) attached to web process 1 for ``--profile-seconds`` (15) of the window: 100 Hz, not
pausing the process, only the thread holding the GIL (``--gil``: where the Python side of the
server is busy, not threads waiting in ``epoll`` or on a database socket), collapsed stacks by
function. It prints the share per thread kind (event loop / thread pool of database calls),
own time per package, the top 25 functions by own time and torampu's top functions by
inclusive time. py-spy attaches here (root); without it the cell runs and says why there is no
profile (no cProfile fallback).

Run: .venv/bin/python bench/web.py [--quick] [--tables N] [--seconds S] [--bots random]
     [--databases sqlite,postgresql] [--json FILE] [--server-arg=ARG ...]
     .venv/bin/python bench/web.py --abuse [--tables N] [--bot-tables M] [--readers K]
     [--seconds S] [--strong-bot SPEC] [--json FILE] [--server-arg=ARG ...]
     .venv/bin/python bench/web.py --scale [--layouts a,b,c] [--loads realistic,saturation]
     [--counts 100,300,1000,3000] [--sat-counts 100,300] [--seconds S] [--warmup S]
     [--profile single-pg:realistic:300] [--json FILE] [--server-arg=ARG ...]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import itertools
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
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
LOOPBACK_LIMITS = ["--sockets-per-address", "100000", "--max-sockets", "100000"]
LOOPBACK_LIMITS += [
    "--max-tables",
    "100000",
    "--create-rate",
    "100000",
    "--tables-per-address",
    "100000",
    "--tables-per-day",
    "0",
]
LOOPBACK_LIMITS += ["--sockets-per-table", "64"]
"""Every client of the bench comes from 127.0.0.1: the server's limits per address (and on
tables and sockets in all) are raised, in every mode; ``--server-arg`` comes after them."""


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

    def __init__(
        self, data_dir: Path, database: str | None, extra: list[str] | None = None
    ) -> None:
        self.port = free_port()
        self.log_path = data_dir / "server.log"
        exe = Path(sys.executable).with_name("torampu")
        cmd = [str(exe), "serve", "--host", HOST, "--port", str(self.port)]
        cmd += ["--data-dir", str(data_dir), "--bot-delay", "0", "--away-timeout", "600"]
        cmd += LOOPBACK_LIMITS
        if database:
            cmd += ["--database", database]
        cmd += extra or []  # --server-arg: options the server may gain (--max-bot-think=1, …)
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
            server = Server(Path(tmp), database, args.server_arg)
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


# --------------------------------------------------------------------------- abuse mode

ACT_TIMEOUT = 10.0
"""Abuse mode: seconds a human waits for the answer to its ``act`` (or, while it is not its
turn, for the table's version to move) before it counts a timeout (or a stall) and leaves."""
THINK = (0.2, 0.5)
"""Abuse mode: the human's think time before each action (seconds, seeded uniform)."""
SPAM_EVERY = 0.05
"""Abuse mode: seconds between two ``hello`` of a hello-spam socket."""
RCVBUF = 4096
"""Abuse mode: ``SO_RCVBUF`` of a non-reading socket, set before it connects (the kernel
doubles it), so that its receive window stays small and the server's buffers fill."""
HTTP_TIMEOUT = 10.0


@dataclass
class AbuseStats:
    """What the client saw during one cell of the abuse grid."""

    latencies: list[float] = field(default_factory=list)
    """Human action -> own update, seconds; a timeout enters as ``ACT_TIMEOUT``."""
    abused: list[float] = field(default_factory=list)
    """The same, only the actions at tables with non-reading sockets."""
    human: int = 0
    timeouts: int = 0
    stalls: int = 0
    tables: int = 0
    finished: int = 0
    bot_tables: int = 0
    bot_moves: int = 0
    non_readers: int = 0
    spam_hellos: int = 0
    spam_replies: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    closing: bool = False
    """Set after ``--seconds``: no new action; what is pending gets its answer or its timeout."""

    def error(self, code: str, detail: str) -> None:
        self.errors[code] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{code}: {detail}"[:300])


async def api(
    port: int, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, dict[str, Any]]:
    """:func:`http` bounded by ``HTTP_TIMEOUT`` (a timeout is status 0)."""
    try:
        return await asyncio.wait_for(http(port, method, path, body, token), HTTP_TIMEOUT)
    except TimeoutError:
        return 0, {"error": {"code": "timeout", "message": f"no answer in {HTTP_TIMEOUT:g} s"}}


def ws_text_frame(text: str) -> bytes:
    """One masked websocket text frame (a client's frames are masked)."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = bytes([0x81, 0x80 | n])
    elif n < 65536:
        head = bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x81, 0x80 | 127]) + n.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def non_reader(port: int, table_id: str) -> socket.socket:
    """A websocket to ``table_id`` that says ``hello`` as a spectator and never reads again.

    A raw non-blocking socket (``SO_RCVBUF`` = ``RCVBUF`` before ``connect``) with the handshake
    done by hand: nothing reads it in the background, so once its small kernel receive buffer
    and the server's send buffer are full, every further ``send`` of the server to it waits."""
    loop = asyncio.get_running_loop()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
        s.setblocking(False)
        async with asyncio.timeout(HTTP_TIMEOUT):
            await loop.sock_connect(s, (HOST, port))
            key = base64.b64encode(os.urandom(16)).decode()
            request = (
                f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            await loop.sock_sendall(s, request.encode())
            answer = b""
            while b"\r\n\r\n" not in answer:  # the server sends nothing more before our hello
                chunk = await loop.sock_recv(s, 1024)
                if not chunk:
                    raise OSError("closed during the handshake")
                answer += chunk
            if not answer.startswith(b"HTTP/1.1 101"):
                raise OSError(f"handshake refused: {answer.splitlines()[0]!r}")
            hello = {"type": "hello", "token": None, "version": None}
            await loop.sock_sendall(s, ws_text_frame(json.dumps(hello)))
        return s
    except BaseException:
        s.close()
        raise


async def hello_spam(port: int, table_id: str, st: AbuseStats) -> None:
    """A spectator socket that sends ``hello`` every ``SPAM_EVERY`` seconds, reading replies."""
    hello = json.dumps({"type": "hello", "token": None, "version": None})
    try:
        async with connect(
            f"ws://{HOST}:{port}/ws/tables/{table_id}",
            open_timeout=HTTP_TIMEOUT,
            close_timeout=1,
        ) as ws:

            async def read() -> None:
                async for _ in ws:
                    st.spam_replies += 1

            reader = asyncio.create_task(read())
            try:
                while True:
                    await ws.send(hello)
                    st.spam_hellos += 1
                    await asyncio.sleep(SPAM_EVERY)
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await reader
    except (OSError, TimeoutError) as e:
        st.error("spam_connection", f"table {table_id}: {type(e).__name__}: {e}")
    except Exception as e:  # websockets' ConnectionClosed
        st.error("spam_" + type(e).__name__, f"table {table_id}: {e}")


async def abuse_human(
    ws: Any, table_id: str, rng: random.Random, st: AbuseStats, abused: bool
) -> str:
    """Seat 0 of one table at a human's pace: how it left (``over``, ``timeout``, ``stall``, or
    ``end`` once ``st.closing``: an action thought of is then not sent, one sent waits for its
    answer, and a human waiting for the others leaves when the table moves)."""
    loop = asyncio.get_running_loop()
    acted: int | None = None  # the version acted on, until an update past it arrives
    sent = 0.0
    due: float | None = None  # when to act on due_version
    due_version, due_action = -1, ""
    last_version, last_acted = -1, -1
    progress = loop.time()  # when the version last moved (or the turn came)
    closing_version = -1  # the last version seen before st.closing
    lat = st.abused if abused else None
    while True:
        if not st.closing:
            closing_version = last_version
        elif acted is None and (due is not None or last_version > closing_version):
            return "end"
        if acted is not None:
            limit = sent + ACT_TIMEOUT
        elif due is not None:
            limit = due
        else:
            limit = progress + ACT_TIMEOUT
        try:
            async with asyncio.timeout_at(limit):
                raw = await ws.recv()
        except TimeoutError:
            if acted is not None:
                st.timeouts += 1
                st.latencies.append(ACT_TIMEOUT)
                if lat is not None:
                    lat.append(ACT_TIMEOUT)
                return "timeout"
            if due is not None:
                if st.closing:
                    return "end"
                msg = {"type": "act", "action": due_action, "version": due_version}
                await ws.send(json.dumps(msg))
                acted, sent, due = due_version, loop.time(), None
                st.human += 1
                continue
            st.stalls += 1
            return "stall"
        now = loop.time()
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "error":
            st.error(f"ws_{msg.get('code')}", f"table {table_id}: {msg.get('message')}")
            acted = None
            progress = now
            continue
        if kind != "snapshot":
            st.error("protocol", f"table {table_id}: unexpected message {kind!r}")
            continue
        version = msg.get("version", -1)
        if version > last_version:
            last_version, progress = version, now
        if acted is not None and version > acted:
            st.latencies.append(now - sent)
            if lat is not None:
                lat.append(now - sent)
            acted = None
        if due is not None and version > due_version:
            due = None  # the table moved on without us: think again
        if (msg.get("table") or {}).get("status") == "over":
            st.finished += 1
            return "over"
        legal = msg.get("legal") or []
        if legal and acted is None and due is None and version > last_acted:
            last_acted = version
            due_version, due_action = version, legal[int(rng.random() * len(legal))]
            due = now + rng.uniform(*THINK)
            progress = now


async def human_slot(
    port: int, args: argparse.Namespace, slot: int, readers: int, st: AbuseStats
) -> None:
    """One human table after another (each with its ``readers`` non-reading sockets and, if
    any, a hello-spam socket), until ``st.closing``."""
    k = 0
    while not st.closing:
        rng = random.Random(args.seed * 100_003 + slot * 1009 + k)
        k += 1
        body: dict[str, Any] = {"game": args.game, "games": args.match_games}
        if args.rules:
            body["rules"] = args.rules
        status, created = await api(port, "POST", "/api/tables", body)
        if status != 201:
            st.error(f"http_create_{status}", json.dumps(created)[:200])
            await asyncio.sleep(0.5)
            continue
        table_id, host_token = created["table"]["id"], created["host_token"]
        status, joined = await api(
            port, "POST", f"/api/tables/{table_id}/join", {"name": "bench", "seat": 0}
        )
        if status != 200:
            st.error(f"http_join_{status}", json.dumps(joined)[:200])
            await asyncio.sleep(0.5)
            continue
        token = joined["token"]
        socks: list[socket.socket] = []
        spam: asyncio.Task[None] | None = None
        try:
            status, started = await api(
                port, "POST", f"/api/tables/{table_id}/start", {"fill": args.bots}, host_token
            )
            if status != 200:
                st.error(f"http_start_{status}", json.dumps(started)[:200])
                await asyncio.sleep(0.5)
                continue
            st.tables += 1
            for _ in range(readers):
                try:
                    socks.append(await non_reader(port, table_id))
                    st.non_readers += 1
                except (OSError, TimeoutError) as e:
                    st.error("non_reader", f"table {table_id}: {type(e).__name__}: {e}")
            if readers:
                spam = asyncio.create_task(hello_spam(port, table_id, st))
            async with connect(
                f"ws://{HOST}:{port}/ws/tables/{table_id}",
                open_timeout=HTTP_TIMEOUT,
                close_timeout=1,
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "version": None}))
                await abuse_human(ws, table_id, rng, st, readers > 0)
        except (OSError, TimeoutError) as e:
            st.error("ws_connection", f"table {table_id}: {type(e).__name__}: {e}")
        except (ValueError, KeyError) as e:
            st.error("client", f"table {table_id}: {type(e).__name__}: {e}")
        except Exception as e:  # websockets' ConnectionClosed
            st.error("ws_" + type(e).__name__, f"table {table_id}: {e}")
        finally:
            if spam is not None:
                spam.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(spam, 3)
            for s in socks:
                s.close()


async def bot_table(port: int, args: argparse.Namespace, players: int, st: AbuseStats) -> None:
    """Tables whose every seat is ``--strong-bot``, one after another, each watched by one
    spectator socket that reads normally, until cancelled."""
    while True:
        body: dict[str, Any] = {"game": args.game, "games": 1, "seats": [args.strong_bot] * players}
        if args.rules:
            body["rules"] = args.rules
        status, created = await api(port, "POST", "/api/tables", body)
        if status != 201:
            st.error(f"bots_create_{status}", json.dumps(created)[:200])
            await asyncio.sleep(1)
            continue
        table_id, host_token = created["table"]["id"], created["host_token"]
        status, started = await api(port, "POST", f"/api/tables/{table_id}/start", {}, host_token)
        if status != 200:
            st.error(f"bots_start_{status}", json.dumps(started)[:200])
            await asyncio.sleep(1)
            continue
        st.bot_tables += 1
        seen = 0
        try:
            async with connect(
                f"ws://{HOST}:{port}/ws/tables/{table_id}",
                open_timeout=HTTP_TIMEOUT,
                close_timeout=1,
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None, "version": None}))
                while True:
                    msg = json.loads(await ws.recv())
                    if msg.get("type") != "snapshot":
                        st.error("bots_protocol", f"table {table_id}: {msg.get('type')!r}")
                        continue
                    version = msg.get("version", 0)
                    st.bot_moves += max(0, version - seen)
                    seen = max(seen, version)
                    if (msg.get("table") or {}).get("status") == "over":
                        break
        except (OSError, TimeoutError) as e:
            st.error("bots_connection", f"table {table_id}: {type(e).__name__}: {e}")
            await asyncio.sleep(1)
        except Exception as e:  # websockets' ConnectionClosed
            st.error("bots_" + type(e).__name__, f"table {table_id}: {e}")
            await asyncio.sleep(1)


async def run_cell(args: argparse.Namespace, readers: int, bot_tables: int) -> dict[str, Any]:
    """One cell of the grid on a fresh server: ``readers`` non-reading sockets spread over the
    human tables, ``bot_tables`` tables of strong bots."""
    st = AbuseStats()
    with tempfile.TemporaryDirectory(prefix="torampu-bench-abuse-") as tmp:
        server = Server(Path(tmp), None, args.server_arg)
        tasks: list[asyncio.Task[None]] = []
        try:
            await server.wait_healthy()
            _, info = await api(server.port, "GET", "/api/games")
            game = next(g for g in info.get("games", []) if g["name"] == args.game)
            players = game["players"]["default"]
            for preset, p in (game.get("presets") or {}).items():  # a preset may fix players
                if preset == args.rules and isinstance(p, dict):
                    players = (p.get("options") or {}).get("players", players)
            # the bot tables first, so that they are searching when the humans start
            tasks += [
                asyncio.create_task(bot_table(server.port, args, players, st))
                for _ in range(bot_tables)
            ]
            per_slot = [
                readers // args.tables + (1 if i < readers % args.tables else 0)
                for i in range(args.tables)
            ]
            cpu0 = cpu_seconds(server.proc.pid)
            t0 = time.perf_counter()
            client0 = time.process_time()
            humans = [
                asyncio.create_task(human_slot(server.port, args, i, per_slot[i], st))
                for i in range(args.tables)
            ]
            tasks += humans
            await asyncio.wait(tasks, timeout=args.seconds)
            wall = time.perf_counter() - t0
            cpu1 = cpu_seconds(server.proc.pid)
            client_cpu = time.process_time() - client0
            # the drain: no new action; each one sent gets its answer or its timeout, each
            # human waiting for the others sees the table move or counts a stall
            st.closing = True
            t1 = time.perf_counter()
            await asyncio.wait(humans, timeout=ACT_TIMEOUT + 5)
            drain = time.perf_counter() - t1
            for task in tasks:  # a worker only ends early by an exception the bench missed
                if task.done() and not task.cancelled() and task.exception() is not None:
                    st.error("client_crash", repr(task.exception()))
            alive = server.proc.poll() is None
        finally:
            for t in tasks:
                t.cancel()
            if tasks:
                await asyncio.wait(tasks, timeout=15)
            server.stop()
            log_text = server.log_path.read_text(errors="replace")
    noisy = [
        ln
        for ln in log_text.splitlines()
        if any(w in ln for w in ("WARNING", "ERROR", "Traceback", "Exception"))
    ]
    lat = st.latencies
    return {
        "cell": f"K={readers} M={bot_tables}",
        "readers": readers,
        "bot_tables": bot_tables,
        "seconds": wall,
        "drain_seconds": drain,
        "human_tables": st.tables,
        "human_tables_finished": st.finished,
        "human_actions": st.human,
        "answered": len(lat) - st.timeouts,
        "latency_ms": {
            "n": len(lat),
            "p50": pct(lat, 0.50),
            "p99": pct(lat, 0.99),
            "max": max(lat, default=float("nan")) * 1000,
        },
        "abused_tables_latency_ms": {
            "n": len(st.abused),
            "p50": pct(st.abused, 0.50),
            "p99": pct(st.abused, 0.99),
        },
        "timeouts": st.timeouts,
        "stalls": st.stalls,
        "errors": sum(st.errors.values()),
        "error_codes": dict(st.errors),
        "error_samples": st.error_samples,
        "bot_tables_started": st.bot_tables,
        "bot_moves": st.bot_moves,
        "non_readers_opened": st.non_readers,
        "spam_hellos": st.spam_hellos,
        "spam_replies": st.spam_replies,
        "server_alive_at_end": alive,
        "server_cpu_percent": (
            100 * (cpu1 - cpu0) / wall if cpu0 is not None and cpu1 is not None else None
        ),
        "client_cpu_percent": 100 * client_cpu / wall,
        "server_log_warnings": noisy[:20],
    }


def main_abuse(args: argparse.Namespace) -> None:
    """The 2×2 grid: K = 0 / ``--readers``, M = 0 / ``--bot-tables``; one fresh server each."""
    ks = sorted({0, args.readers})
    ms = sorted({0, args.bot_tables})
    cells = [(k, m) for m in ms for k in ks]
    print(
        f"torampu serve --bot-delay 0 --away-timeout 600 {' '.join(args.server_arg)}".rstrip()
        + f" (SQLite), abuse grid, {args.seconds:g} s per cell "
        f"({platform.machine()}, {os.cpu_count()} cores)\n"
        f"  N = {args.tables} human tables ({args.game} {args.rules or 'default'}, "
        f"{args.match_games} games, seat 0 a human thinking {THINK[0]:g}-{THINK[1]:g} s, "
        f"the others {args.bots});\n"
        f"  M = tables of {args.strong_bot} on every seat, each watched by one spectator;\n"
        f"  K = non-reading spectator sockets spread over the human tables (SO_RCVBUF "
        f"{RCVBUF}), plus one hello-spam socket ({SPAM_EVERY * 1000:.0f} ms) per abused table"
    )
    head = (
        f"{'cell':13} {'actions':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'timeouts':>8} "
        f"{'stalls':>6} {'errors':>6} {'bot mv':>6} {'srv CPU':>7}"
    )
    rows = []
    print(head)
    for k, m in cells:
        r = asyncio.run(run_cell(args, k, m))
        rows.append(r)
        lat = r["latency_ms"]
        cpu = r["server_cpu_percent"]
        print(
            f"{r['cell']:13} {r['human_actions']:7} {lat['p50']:8.1f} {lat['p99']:8.1f} "
            f"{lat['max']:8.1f} {r['timeouts']:8} {r['stalls']:6} {r['errors']:6} "
            f"{r['bot_moves']:6} {'-' if cpu is None else f'{cpu:.0f}%':>7}",
            flush=True,
        )
    base = rows[0]["latency_ms"]["p99"]
    print(f"p99 against the clean cell ({rows[0]['cell']}, {base:.1f} ms); limit 2×:")
    verdicts = {}
    for r in rows[1:]:
        ratio = r["latency_ms"]["p99"] / base if base > 0 else float("nan")
        why = []
        if not ratio <= 2:
            why.append(f"p99 {ratio:.1f}×")
        if r["timeouts"] or r["stalls"]:
            why.append(f"{r['timeouts']} timeouts, {r['stalls']} stalls")
        verdict = "FAIL" if why else "PASS"
        verdicts[r["cell"]] = {"ratio": ratio, "verdict": verdict}
        because = f"  ({'; '.join(why)})" if why else ""
        print(f"  {r['cell']:13} {ratio:6.1f}×  {verdict}{because}")
    for r in rows:
        if r["errors"]:
            print(f"{r['cell']}: errors {r['error_codes']}")
            for s in r["error_samples"][:5]:
                print(f"  {s}")
        if not r["server_alive_at_end"]:
            print(f"{r['cell']}: the server had exited by the end of the cell")
        if r["server_log_warnings"]:
            print(f"{r['cell']}: server log, first warnings:")
            for ln in r["server_log_warnings"][:3]:
                print(f"  {ln[:200]}")
    if args.json:
        out = {
            "mode": "abuse",
            "game": args.game,
            "rules": args.rules,
            "bots": args.bots,
            "strong_bot": args.strong_bot,
            "tables": args.tables,
            "bot_tables": args.bot_tables,
            "readers": args.readers,
            "seconds": args.seconds,
            "match_games": args.match_games,
            "server_args": args.server_arg,
            "act_timeout_s": ACT_TIMEOUT,
            "think_s": list(THINK),
            "seed": args.seed,
            "python": sys.version.split()[0],
            "cells": rows,
            "base_p99_ms": base,
            "verdicts": verdicts,
        }
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)


# --------------------------------------------------------------------------- scale mode

LAYOUTS = {"a": "single-sqlite", "b": "single-pg", "c": "scaled"}
"""Scale mode: the layouts, by letter and by name."""
LOADS = ("realistic", "saturation")
REALISTIC_THINK = (1.0, 3.0)
"""Scale mode, realistic load: the human's think time (seconds, seeded uniform)."""
SCALE_STALL = 20.0
"""Scale mode: seconds a human waits for its answer, or for its table to move, before it counts
a timeout (or a stall) and moves on to a new table."""
SETUP_PARALLEL = 32
"""Scale mode: table set-ups (three HTTP requests, two websockets) in flight at once."""
DRAIN = 5.0
"""Scale mode: seconds after the window for the actions sent in it to get their answers."""
SNAP_HEAD = '{"type": "snapshot", "version": '
"""How every snapshot begins (``Lobby.snapshot``'s key order): the observers read the version
from here and never parse the rest."""
_RAW_DECODE = json.JSONDecoder().raw_decode


def snap_version(raw: str) -> int | None:
    """The version of a snapshot's JSON text, read from its head; ``None`` if not a snapshot
    of the expected shape."""
    if not raw.startswith(SNAP_HEAD):
        return None
    n = len(SNAP_HEAD)
    return int(raw[n : raw.index(",", n)])


def snap_over(raw: str) -> bool:
    """The table's ``status`` is ``over`` (``status`` follows ``preset`` in TABLE, which follows
    ``rules``, whose options might name anything)."""
    i = raw.find('"status": "', raw.find('"preset": '))
    return i >= 0 and raw.startswith("over", i + 11)


def snap_legal(raw: str) -> list[str]:
    """The snapshot's ``legal`` list; only that value is parsed, and only when not ``[]``
    (``legal`` follows the big ``view``, and only ``last``, which has no such key, follows it)."""
    i = raw.rfind('"legal": ')
    if i < 0 or raw.startswith("[]", i + 9):
        return []
    value, _ = _RAW_DECODE(raw, i + 9)
    return value if isinstance(value, list) else []


def proc_tree() -> dict[int, list[int]]:
    """Every process's children (from ``/proc/*/stat``)."""
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(ppid, []).append(int(d))
    return kids


def descendants(pid: int, kids: dict[int, list[int]]) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += kids.get(p, [])
    return out


class Proc:
    """One ``torampu serve`` or ``torampu worker`` subprocess, its output in a log file."""

    def __init__(self, name: str, args: list[str], log_path: Path, port: int | None = None):
        self.name, self.port, self.log_path = name, port, log_path
        exe = Path(sys.executable).with_name("torampu")
        self.log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([str(exe), *args], stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid

    async def wait_healthy(self, bus: bool, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited ({self.proc.returncode}):\n{self.tail()}")
            with contextlib.suppress(OSError, ValueError, IndexError):
                assert self.port is not None
                status, body = await http(self.port, "GET", "/api/health")
                ok = status == 200 and body.get("status") == "ok"
                if ok and (not bus or body.get("bus") == "ok"):
                    return
            if time.monotonic() > end:
                raise RuntimeError(
                    f"{self.name}: not healthy after {timeout:.0f} s:\n{self.tail()}"
                )
            await asyncio.sleep(0.2)

    def tail(self, lines: int = 15) -> str:
        if not self.log.closed:
            self.log.flush()
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def cpu(self, kids: dict[int, list[int]]) -> dict[int, float]:
        """CPU seconds so far of this process and its descendants (its bot pool), per pid."""
        out = {}
        for p in descendants(self.pid, kids):
            c = cpu_seconds(p)
            if c is not None:
                out[p] = c
        return out

    def peak_rss_mb(self, kids: dict[int, list[int]]) -> dict[str, float]:
        """Peak RSS (``VmHWM``) of this process and of each descendant, MB."""
        out = {}
        for p in descendants(self.pid, kids):
            kb = proc_status(p, "VmHWM")
            if kb is not None:
                out["self" if p == self.pid else f"child {p}"] = kb / 1024
        return out

    def warnings(self) -> list[str]:
        if not self.log.closed:
            self.log.flush()
        text = self.log_path.read_text(errors="replace").splitlines()
        words = ("WARNING", "ERROR", "Traceback", "Exception")
        return [
            ln
            for ln in text
            if any(w in ln for w in words) and "taking bot jobs" not in ln  # a worker's start
        ]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if not self.log.closed:
            self.log.close()


def redis_ping(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=1) as s:
        s.sendall(b"PING\r\n")
        return s.recv(64).startswith(b"+PONG")
    return False


def pg_backends(db_name: str) -> list[int]:
    """The pids of the PostgreSQL backends connected to ``db_name`` (their CPU is the
    database's share of the work)."""
    import psycopg

    with psycopg.connect(
        host=HOST, port=PG_PORT, user="postgres", dbname="postgres", connect_timeout=5
    ) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (db_name,)
        ).fetchall()
    return [int(r[0]) for r in rows]


@dataclass
class Env:
    """One layout, up: its web processes, its workers, its database and Redis."""

    layout: str
    webs: list[Proc]
    workers: list[Proc]
    db_name: str | None
    redis: subprocess.Popen[bytes] | None

    @property
    def procs(self) -> list[Proc]:
        return self.webs + self.workers

    def cpu(self) -> dict[str, dict[int, float]]:
        kids = proc_tree()
        out = {p.name: p.cpu(kids) for p in self.procs}
        aux: dict[int, float] = {}
        if self.db_name:
            with contextlib.suppress(Exception):
                for pid in pg_backends(self.db_name):
                    c = cpu_seconds(pid)
                    if c is not None:
                        aux[pid] = c
        out["postgresql"] = aux
        if self.redis is not None:
            c = cpu_seconds(self.redis.pid)
            out["redis"] = {self.redis.pid: c} if c is not None else {}
        return out


@contextlib.asynccontextmanager
async def layout_up(layout: str, load: str, args: argparse.Namespace) -> Any:
    """Start a layout on a fresh database (and Redis); stop everything and drop it after."""
    tmp = Path(tempfile.mkdtemp(prefix="torampu-bench-scale-"))
    db_name = f"torampu_bench_{os.getpid()}" if layout != "single-sqlite" else None
    database = f"postgresql://postgres@{HOST}:{PG_PORT}/{db_name}" if db_name else None
    redis_proc: subprocess.Popen[bytes] | None = None
    env = Env(layout, [], [], db_name, None)
    try:
        if db_name:
            await asyncio.to_thread(pg_drop, db_name)
            await asyncio.to_thread(pg_create, db_name)
        common = ["--host", HOST, "--data-dir", str(tmp), *LOOPBACK_LIMITS, "--away-timeout", "600"]
        if load == "saturation":
            common += ["--bot-delay", "0"]
        if database:
            common += ["--database", database]
        redis_url = None
        if layout == "scaled":
            rport = free_port()
            redis_log = open(tmp / "redis.log", "wb")  # noqa: SIM115 - closed with the process
            rcmd = [args.redis_server, "--port", str(rport), "--bind", HOST]
            rcmd += ["--save", "", "--appendonly", "no"]
            redis_proc = subprocess.Popen(
                rcmd,
                stdout=redis_log,
                stderr=subprocess.STDOUT,
            )
            redis_log.close()
            env.redis = redis_proc
            for _ in range(100):
                if redis_ping(rport):
                    break
                await asyncio.sleep(0.1)
            else:
                raise RuntimeError(f"redis-server did not answer on port {rport}")
            redis_url = f"redis://{HOST}:{rport}/0"
            common += ["--redis", redis_url]
        n_web = 2 if layout == "scaled" else 1
        for i in range(n_web):
            port = free_port()
            cmd = ["serve", "--port", str(port), *common, *args.server_arg]
            env.webs.append(Proc(f"web{i + 1}", cmd, tmp / f"web{i + 1}.log", port))
        for w in env.webs:
            await w.wait_healthy(bus=redis_url is not None)
        if redis_url:
            assert database is not None
            cmd = ["worker", "--database", database, "--redis", redis_url, "--processes", "1"]
            env.workers.append(Proc("worker", cmd, tmp / "worker.log"))
            await asyncio.sleep(1.0)
            if env.workers[0].proc.poll() is not None:
                raise RuntimeError(f"the worker exited:\n{env.workers[0].tail()}")
        yield env
    finally:
        for p in env.procs:
            p.stop()
        if redis_proc is not None:
            redis_proc.terminate()
            try:
                redis_proc.wait(10)
            except subprocess.TimeoutExpired:
                redis_proc.kill()
                redis_proc.wait(5)
        if db_name:
            try:
                await asyncio.to_thread(pg_drop, db_name)
            except Exception as e:
                print(f"could not drop database {db_name}: {e}")
        for f in tmp.iterdir():
            with contextlib.suppress(OSError):
                f.unlink()
        with contextlib.suppress(OSError):
            tmp.rmdir()


@dataclass
class ScaleStats:
    """What the client saw during one cell of the scale mode."""

    gate: asyncio.Semaphore
    own: list[float] = field(default_factory=list)
    """Human action -> its own next snapshot (version > v), seconds; actions sent in the window."""
    other: list[float] = field(default_factory=list)
    """Human action -> the observer's next snapshot with version > v, seconds."""
    outstanding: dict[int, float] = field(default_factory=dict)
    """Per slot: when its human sent the action (in the window) still unanswered."""
    measuring: bool = False
    closing: bool = False
    actions: int = 0
    human: int = 0
    in_play: int = 0
    set_up: int = 0
    finished: int = 0
    timeouts: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)

    def error(self, code: str, detail: str) -> None:
        self.errors[code] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{code}: {detail}"[:300])


async def observe(ws: Any, pending: Any, st: ScaleStats, table_id: str) -> None:
    """The spectator of one table: reads only each snapshot's version; every human action
    (v, sent) in ``pending`` that a snapshot with a version > v answers is timed."""
    loop = asyncio.get_running_loop()
    try:
        async for raw in ws:
            version = snap_version(raw) if isinstance(raw, str) else None
            if version is None:
                msg = json.loads(raw)
                if msg.get("type") == "error":
                    st.error(f"obs_{msg.get('code')}", f"table {table_id}: {msg.get('message')}")
                    continue
                version = msg.get("version")
                if not isinstance(version, int):
                    st.error("obs_protocol", f"table {table_id}: {msg.get('type')!r}")
                    continue
            now = loop.time()
            while pending and pending[0][0] < version:
                _, sent, rec = pending.popleft()
                if rec:
                    st.other.append(now - sent)
    except asyncio.CancelledError:
        raise
    except Exception as e:  # websockets' ConnectionClosed
        if not st.closing:
            st.error("obs_" + type(e).__name__, f"table {table_id}: {e}")


async def scale_human(
    ws: Any,
    slot: int,
    table_id: str,
    pending: Any,
    rng: random.Random,
    think: tuple[float, float] | None,
    st: ScaleStats,
) -> None:
    """Seat 0 of one table until its match is over (or a timeout, a stall, or ``st.closing``):
    acts ``think`` seconds (none: at once) after a snapshot offers it legal actions."""
    loop = asyncio.get_running_loop()
    acted: int | None = None  # the version acted on, until a snapshot past it arrives
    sent, rec = 0.0, False
    due: float | None = None  # when to act on due_version
    due_version, due_action = -1, ""
    last_version, last_acted = -1, -1
    progress = loop.time()

    async def act(version: int, action: str) -> None:
        nonlocal acted, sent, rec
        acted, sent, rec = version, loop.time(), st.measuring
        pending.append((version, sent, rec))
        if rec:
            st.human += 1
            st.outstanding[slot] = sent
        await ws.send(json.dumps({"type": "act", "action": action, "version": version}))

    while True:
        if st.closing and acted is None:
            return
        if acted is not None:
            limit = sent + SCALE_STALL
        elif due is not None:
            limit = due
        else:
            limit = progress + SCALE_STALL
        try:
            async with asyncio.timeout_at(limit):
                raw = await ws.recv()
        except TimeoutError:
            if acted is not None:
                st.timeouts += 1
                st.error("timeout", f"table {table_id}: no answer in {SCALE_STALL:g} s")
                if rec and st.outstanding.pop(slot, None) is not None:
                    st.own.append(SCALE_STALL)
                return
            if due is not None:
                due = None
                await act(due_version, due_action)
                continue
            st.error("stalled", f"table {table_id}: no move in {SCALE_STALL:g} s")
            return
        now = loop.time()
        version = snap_version(raw) if isinstance(raw, str) else None
        if version is None:
            msg = json.loads(raw)
            if msg.get("type") == "error":
                st.error(f"ws_{msg.get('code')}", f"table {table_id}: {msg.get('message')}")
                if acted is not None and rec:
                    st.outstanding.pop(slot, None)
                acted, last_acted, progress = None, -1, now
                continue
            st.error("protocol", f"table {table_id}: unexpected {str(raw)[:80]!r}")
            continue
        if version > last_version:
            if last_version >= 0 and st.measuring:
                st.actions += version - last_version
            last_version, progress = version, now
        if acted is not None and version > acted:
            if rec:
                st.own.append(now - sent)
                st.outstanding.pop(slot, None)
            acted = None
        if due is not None and version > due_version:
            due = None  # the table moved on without us: think again
        if snap_over(raw):
            st.finished += 1
            return
        if acted is None and due is None and version > last_acted and not st.closing:
            legal = snap_legal(raw)
            if legal:
                last_acted = version
                action = legal[int(rng.random() * len(legal))]
                if think is None:
                    await act(version, action)
                else:
                    due_version, due_action = version, action
                    due = now + rng.uniform(*think)


async def scale_slot(
    k: int, ports: list[int], args: argparse.Namespace, think: Any, st: ScaleStats
) -> None:
    """Table slot ``k``: one table after another until ``st.closing``. Its HTTP requests and its
    human go to web process k % n, its observer to the next one (the same one if only one)."""
    port, obs_port = ports[k % len(ports)], ports[(k + 1) % len(ports)]
    n = 0
    while not st.closing:
        rng = random.Random(args.seed * 100_003 + k * 1009 + n)
        n += 1
        table_id = "?"
        in_play = False
        try:
            async with st.gate:
                body: dict[str, Any] = {"game": args.game, "games": 1}
                if args.rules:
                    body["rules"] = args.rules
                status, created = await api(port, "POST", "/api/tables", body)
                if status != 201:
                    st.error(f"http_create_{status}", json.dumps(created)[:200])
                    await asyncio.sleep(1)
                    continue
                table_id, host = created["table"]["id"], created["host_token"]
                path = f"/api/tables/{table_id}"
                status, joined = await api(
                    port, "POST", path + "/join", {"name": "bench", "seat": 0}
                )
                if status != 200:
                    st.error(f"http_join_{status}", json.dumps(joined)[:200])
                    await asyncio.sleep(1)
                    continue
                status, started = await api(
                    port, "POST", path + "/start", {"fill": args.bots}, host
                )
                if status != 200:
                    st.error(f"http_start_{status}", json.dumps(started)[:200])
                    await asyncio.sleep(1)
                    continue
                ows = await connect(
                    f"ws://{HOST}:{obs_port}/ws/tables/{table_id}",
                    open_timeout=HTTP_TIMEOUT,
                    close_timeout=1,
                )
                try:
                    hws = await connect(
                        f"ws://{HOST}:{port}/ws/tables/{table_id}",
                        open_timeout=HTTP_TIMEOUT,
                        close_timeout=1,
                    )
                except BaseException:
                    await ows.close()
                    raise
            async with ows, hws:
                await ows.send(json.dumps({"type": "hello", "token": None, "version": None}))
                hello = {"type": "hello", "token": joined["token"], "version": None}
                await hws.send(json.dumps(hello))
                st.set_up += 1
                st.in_play += 1
                in_play = True
                pending: Any = deque()
                watcher = asyncio.create_task(observe(ows, pending, st, table_id))
                try:
                    await scale_human(hws, k, table_id, pending, rng, think, st)
                finally:
                    watcher.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await watcher
        except asyncio.CancelledError:
            raise
        except (OSError, TimeoutError) as e:
            if not st.closing:
                st.error("ws_connection", f"table {table_id}: {type(e).__name__}: {e}")
                await asyncio.sleep(1)
        except (ValueError, KeyError) as e:
            st.error("client", f"table {table_id}: {type(e).__name__}: {e}")
            await asyncio.sleep(1)
        except Exception as e:  # websockets' ConnectionClosed, InvalidStatus
            if not st.closing:
                st.error("ws_" + type(e).__name__, f"table {table_id}: {e}")
                await asyncio.sleep(1)
        finally:
            if in_play:
                st.in_play -= 1


def cpu_delta(a: dict[int, float], b: dict[int, float]) -> float:
    """CPU seconds between two readings (a process new in ``b`` counts from 0)."""
    return sum(c - a.get(p, 0.0) for p, c in b.items())


async def py_spy(pid: int, seconds: float, out: Path) -> tuple[bool, str]:
    """``py-spy record`` of ``pid`` for ``seconds``: collapsed stacks by function, 100 samples
    a second without pausing the process, only of the thread holding the GIL (so a thread
    waiting in ``epoll`` or on a database socket is not sampled: the samples are where the
    Python side of the server is busy); (ok, its messages)."""
    exe = Path(sys.executable).with_name("py-spy")
    cmd = [str(exe) if exe.exists() else "py-spy", "record", "--pid", str(pid)]
    cmd += ["--duration", str(max(1, round(seconds))), "--rate", "100", "--nonblocking", "--gil"]
    cmd += ["--function", "--format", "raw", "--output", str(out)]
    try:
        p = await asyncio.create_subprocess_exec(
            *cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
    except OSError as e:
        return False, f"py-spy could not start: {e}"
    text, _ = await p.communicate()
    ok = p.returncode == 0 and out.exists()
    return ok, text.decode(errors="replace").strip()


def profile_top(path: Path, n: int = 25) -> dict[str, Any]:
    """A py-spy collapsed-stack file, summed up: the top functions by own samples (the frame on
    top), torampu's functions by total samples (anywhere on the stack, once per sample), own
    samples per package (per module for torampu), and the samples per thread kind (the event
    loop, the thread pool that runs the database calls, others)."""
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    package: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    samples = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        c = int(count)
        samples += c
        frames = [short_frame(f) for f in stack.split(";")]
        own[frames[-1]] += c
        package[frame_package(frames[-1])] += c
        for f in set(frames):
            if "(torampu/" in f and "(torampu/cli/" not in f and "torampu:" not in f:
                total[f] += c
        threads[thread_kind(frames)] += c

    def top(counter: Counter[str], k: int) -> list[tuple[str, int, float]]:
        return [(f, c, 100 * c / max(1, samples)) for f, c in counter.most_common(k)]

    return {
        "samples": samples,
        "threads": top(threads, 6),
        "packages": top(package, 12),
        "own": top(own, n),
        "total": top(total, 15),
    }


def thread_kind(frames: list[str]) -> str:
    """What a sampled thread is: the event loop, or the function its ``Thread`` runs (the
    thread pool's ``_worker`` runs the database calls; pebble's threads feed the bot pool)."""
    if any("run_forever" in f for f in frames):
        return "event loop"
    for i, f in enumerate(frames[:-1]):
        if f.startswith("Thread.run "):
            target = frames[i + 1]
            if target.startswith("_worker (concurrent/futures/thread.py"):
                return "thread pool: _worker (database calls)"
            return "thread: " + target
    return "event loop"  # a coroutine's stack that py-spy caught without the loop's frames


def frame_package(frame: str) -> str:
    """The package of a shortened frame (``torampu/web/rooms.py`` for torampu's modules)."""
    i = frame.rfind("(")
    where = frame[i + 1 :].rsplit(":", 1)[0] if i >= 0 else frame
    parts = where.split("/")
    if parts[0] == "torampu":
        return "/".join(parts[:3]) if parts[1:2] == ["web"] else "/".join(parts[:2])
    return parts[0] if len(parts) > 1 else where


def short_frame(frame: str) -> str:
    """``func (…/site-packages/pkg/mod.py:12)`` -> ``func (pkg/mod.py:12)``."""
    for cut in ("site-packages/", "/src/", "/lib/python3"):
        i = frame.find(cut)
        if i >= 0:
            j = frame.rfind("(", 0, i)
            return frame[: j + 1] + frame[i + len(cut) :]
    return frame


async def scale_cell(
    layout: str, load: str, count: int, args: argparse.Namespace, profile: bool = False
) -> dict[str, Any]:
    """One cell: a fresh layout, ``count`` table slots under ``load``; set-up (at most
    ``--setup-timeout``), ``--warmup``, then ``--seconds`` measured, then a drain."""
    loop = asyncio.get_running_loop()
    st = ScaleStats(asyncio.Semaphore(SETUP_PARALLEL))
    think = REALISTIC_THINK if load == "realistic" else None
    row: dict[str, Any] = {"layout": layout, "load": load, "tables": count}
    async with layout_up(layout, load, args) as env:
        ports = [w.port for w in env.webs if w.port is not None]
        t_setup = loop.time()
        slots = [asyncio.create_task(scale_slot(k, ports, args, think, st)) for k in range(count)]
        try:
            while st.in_play < count and loop.time() - t_setup < args.setup_timeout:
                await asyncio.sleep(0.25)
            row["setup_seconds"] = loop.time() - t_setup
            row["set_up_before_window"] = st.in_play
            await asyncio.sleep(args.warmup)
            prof_task = None
            prof_path = Path(tempfile.gettempdir()) / f"torampu-bench-pyspy-{os.getpid()}.txt"
            if profile:
                secs = max(1, round(min(args.profile_seconds, args.seconds)))
                row["profile_seconds"] = secs
                prof_task = asyncio.create_task(py_spy(env.webs[0].pid, secs, prof_path))
            cpu0 = await asyncio.to_thread(env.cpu)
            client0 = time.process_time()
            t0 = time.perf_counter()
            st.measuring = True
            samples = []
            while (left := args.seconds - (time.perf_counter() - t0)) > 0:
                samples.append(st.in_play)
                await asyncio.sleep(min(1.0, left))
            st.measuring = False
            wall = time.perf_counter() - t0
            client_cpu = time.process_time() - client0
            cpu1 = await asyncio.to_thread(env.cpu)
            st.closing = True
            await asyncio.wait(slots, timeout=DRAIN)
            unanswered = len(st.outstanding)
            t2 = loop.time()
            st.own += [t2 - s for s in st.outstanding.values()]  # lower bounds
            if prof_task is not None:
                ok, msg = await prof_task
                row["profile"] = profile_top(prof_path) if ok else {"error": msg}
                with contextlib.suppress(OSError):
                    prof_path.unlink()
            kids = proc_tree()
            rss = {p.name: p.peak_rss_mb(kids) for p in env.procs}
            alive = {p.name: p.proc.poll() is None for p in env.procs}
        finally:
            for t in slots:
                t.cancel()
            await asyncio.wait(slots, timeout=15)
        warnings = {p.name: p.warnings() for p in env.procs}
    servers = [p for p in cpu1 if p not in ("postgresql", "redis")]
    per = {name: 100 * cpu_delta(cpu0.get(name, {}), cpu1[name]) / wall for name in cpu1}
    server_cpu = sum(per[name] for name in servers)
    pids = {p.name: p.pid for p in env.procs}
    own_cpu = {  # the process alone, without its bot pool
        name: 100 * (cpu1[name].get(pid, 0.0) - cpu0.get(name, {}).get(pid, 0.0)) / wall
        for name, pid in pids.items()
    }
    samples.sort()
    row.update(
        {
            "held": samples[len(samples) // 2] if samples else 0,
            "held_min": samples[0] if samples else 0,
            "tables_set_up": st.set_up,
            "tables_finished": st.finished,
            "seconds": wall,
            "actions": st.actions,
            "actions_per_s": st.actions / wall,
            "human_actions": st.human,
            "own_ms": {
                "n": len(st.own),
                "p50": pct(st.own, 0.5),
                "p99": pct(st.own, 0.99),
                "max": max(st.own, default=float("nan")) * 1000,
            },
            "other_ms": {
                "n": len(st.other),
                "p50": pct(st.other, 0.5),
                "p99": pct(st.other, 0.99),
            },
            "unanswered": unanswered,
            "timeouts": st.timeouts,
            "errors": sum(st.errors.values()),
            "error_codes": dict(st.errors),
            "error_samples": st.error_samples,
            "server_cpu_percent": server_cpu,
            "cpu_percent": per,
            "cpu_percent_without_children": own_cpu,
            "cpu_ms_per_action": 10 * server_cpu * wall / st.actions if st.actions else None,
            "client_cpu_percent": 100 * client_cpu / wall,
            "peak_rss_mb": rss,
            "alive_at_end": alive,
            "server_log_warnings": {k: v[:10] for k, v in warnings.items() if v},
            "server_log_warning_count": {k: len(v) for k, v in warnings.items() if v},
        }
    )
    return row


CLIENT_BOUND = 85.0
"""Scale mode: client CPU % (of one core) from which the client may be the bottleneck."""


def scale_print_row(r: dict[str, Any]) -> None:
    own, other = r["own_ms"], r["other_ms"]
    rss = "/".join(f"{v['self']:.0f}" for v in r["peak_rss_mb"].values() if "self" in v)
    aux = r["cpu_percent"].get("postgresql", 0.0) + r["cpu_percent"].get("redis", 0.0)
    ms = r["cpu_ms_per_action"]
    print(
        f"{r['layout']:13} {r['load']:10} {r['tables']:5} {r['held']:5} "
        f"{r['actions_per_s']:7.0f} {r['human_actions']:6} {own['p50']:7.1f} {own['p99']:7.1f} "
        f"{own['max']:7.0f} {other['p50']:7.1f} {other['p99']:7.1f} {r['errors']:5} "
        f"{r['server_cpu_percent']:6.0f}% {'-' if ms is None else f'{ms:.2f}':>6} "
        f"{aux:5.0f}% {r['client_cpu_percent']:5.0f}% {rss:>11}",
        flush=True,
    )


SCALE_HEAD = (
    f"{'layout':13} {'load':10} {'req':>5} {'held':>5} {'act/s':>7} {'human':>6} "
    f"{'own p50':>7} {'own p99':>7} {'own max':>7} {'oth p50':>7} {'oth p99':>7} {'err':>5} "
    f"{'srv CPU':>7} {'ms/act':>6} {'pg+rd':>6} {'client':>6} {'RSS MB':>11}"
)


def scale_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per layout and load: the largest count held (≥ 95 %) with p99 (own) < 100 ms, and where
    p99 crosses 100 ms (interpolated linearly in p99 against log(count))."""
    out = []
    keys = dict.fromkeys((r["layout"], r["load"]) for r in rows if "error" not in r)
    for layout, load in keys:
        cells = sorted(
            (r for r in rows if r["layout"] == layout and r["load"] == load and "error" not in r),
            key=lambda r: r["tables"],
        )

        def good(r: dict[str, Any]) -> bool:
            return r["held"] >= 0.95 * r["tables"] and r["own_ms"]["p99"] < 100

        best = max((r["tables"] for r in cells if good(r)), default=None)
        cross = None
        for a, b in itertools.pairwise(cells):
            if good(a) and not good(b):
                pa, pb = a["own_ms"]["p99"], b["own_ms"]["p99"]
                if b["held"] >= 0.95 * b["tables"] and pb > pa:
                    f = (100 - pa) / (pb - pa)
                    cross = round(a["tables"] * (b["tables"] / a["tables"]) ** f)
                else:
                    cross = None
                out_between = (a["tables"], b["tables"])
                break
        else:
            out_between = None
        out.append(
            {
                "layout": layout,
                "load": load,
                "largest_under_100ms": best,
                "crosses_between": out_between,
                "crossing_estimate": cross,
            }
        )
    return out


def main_scale(args: argparse.Namespace) -> None:
    layouts = []
    for x in args.layouts.split(","):
        x = x.strip()
        name = LAYOUTS.get(x, x)
        if name not in LAYOUTS.values():
            raise SystemExit(f"unknown layout {x!r}: a/single-sqlite, b/single-pg, c/scaled")
        layouts.append(name)
    loads = [x.strip() for x in args.loads.split(",") if x.strip()]
    for x in loads:
        if x not in LOADS:
            raise SystemExit(f"unknown load {x!r}: realistic, saturation")
    counts = {
        "realistic": [int(c) for c in args.counts.split(",") if c.strip()],
        "saturation": [int(c) for c in args.sat_counts.split(",") if c.strip()],
    }
    cells = [(lay, load, c) for lay in layouts for load in loads for c in counts[load]]
    profile = None
    if args.profile:
        try:
            lay, load, c = args.profile.split(":")
            profile = (LAYOUTS.get(lay, lay), load, int(c))
        except ValueError:
            raise SystemExit("--profile LAYOUT:LOAD:COUNT, e.g. single-pg:realistic:300") from None
        cells = [profile]
    needs_pg = any(lay != "single-sqlite" for lay, _, _ in cells)
    if needs_pg:
        try:
            _pg_admin("SELECT 1")
        except Exception as e:
            print(f"PostgreSQL unreachable on {HOST}:{PG_PORT} ({e}); its layouts are skipped")
            cells = [c for c in cells if c[0] == "single-sqlite"]
    if any(lay == "scaled" for lay, _, _ in cells) and not Path(args.redis_server).exists():
        print(f"no {args.redis_server}; the scaled layout is skipped")
        cells = [c for c in cells if c[0] != "scaled"]
    print(
        f"torampu serve, scale mode ({platform.machine()}, {os.cpu_count()} cores): "
        f"{args.game} {args.rules or 'default'}, 1 game per table, seat 0 a scripted human, "
        f"the others {args.bots};\n  one observer (spectator) per table, on the other web "
        f"process in 'scaled'; realistic = the server's bot delay (0.8 s) and a human thinking "
        f"{REALISTIC_THINK[0]:g}-{REALISTIC_THINK[1]:g} s; saturation = --bot-delay 0, the human "
        f"acts at once;\n  per cell: set-up ≤ {args.setup_timeout:g} s, warm-up "
        f"{args.warmup:g} s, {args.seconds:g} s measured, drain ≤ {DRAIN:g} s. Latencies in ms; "
        f"CPU 100% = one core; RSS per process (web[/web/worker])"
    )
    print(SCALE_HEAD)
    rows: list[dict[str, Any]] = []
    results: dict[str, Any] = {
        "mode": "scale",
        "game": args.game,
        "rules": args.rules,
        "bots": args.bots,
        "seconds": args.seconds,
        "warmup": args.warmup,
        "setup_timeout": args.setup_timeout,
        "realistic_think_s": list(REALISTIC_THINK),
        "server_args": args.server_arg,
        "seed": args.seed,
        "python": sys.version.split()[0],
        "cores": os.cpu_count(),
        "cells": rows,
    }
    for lay, load, c in cells:
        try:
            r = asyncio.run(scale_cell(lay, load, c, args, profile is not None))
        except Exception as e:  # a layout that did not come up: say so, go on
            r = {"layout": lay, "load": load, "tables": c, "error": f"{type(e).__name__}: {e}"}
            print(f"{lay:13} {load:10} {c:5}  failed: {str(e)[:300]}", flush=True)
        else:
            scale_print_row(r)
        rows.append(r)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=2)
    for r in rows:
        if "error" in r:
            continue
        what = f"{r['layout']} {r['load']} {r['tables']}"
        notes = []
        if r["held"] < r["tables"]:
            notes.append(
                f"held {r['held']} of {r['tables']} (min {r['held_min']}; "
                f"{r['set_up_before_window']} set up in {r['setup_seconds']:.0f} s)"
            )
        if r["client_cpu_percent"] >= CLIENT_BOUND:
            notes.append(
                f"the CLIENT used {r['client_cpu_percent']:.0f}% of a core: it may be the "
                "bottleneck here"
            )
        if r["server_cpu_percent"] + r["client_cpu_percent"] >= 180:
            notes.append("server + client used ≥ 180% of the 2 cores: the machine is full")
        if r["unanswered"]:
            notes.append(f"{r['unanswered']} actions unanswered at the end (in p99 as ≥ drain)")
        if r["errors"]:
            notes.append(f"errors {r['error_codes']}")
        if not all(r["alive_at_end"].values()):
            notes.append(f"processes dead at the end: {r['alive_at_end']}")
        if r["server_log_warning_count"]:
            notes.append(f"server log warnings {r['server_log_warning_count']}")
        for n in notes:
            print(f"{what}: {n}")
        for s in r["error_samples"][:3] if r["errors"] else []:
            print(f"  {s}")
    results["summary"] = scale_summary(rows)
    print("p99 (human action -> own update) under 100 ms, tables held ≥ 95%:")
    for s in results["summary"]:
        best = s["largest_under_100ms"]
        line = f"  {s['layout']:13} {s['load']:10} largest count: {best if best else 'none'}"
        if s["crosses_between"]:
            a, b = s["crosses_between"]
            est = s["crossing_estimate"]
            line += f"; crosses between {a} and {b}" + (f" (≈ {est} tables)" if est else "")
        print(line)
    for r in rows:
        prof = r.get("profile")
        if not prof:
            continue
        print(f"\npy-spy of web1 ({r['layout']} {r['load']} {r['tables']}):", end=" ")
        if "error" in prof:
            print(f"failed: {prof['error']}")
            continue
        busy = prof["samples"] / (100 * r["profile_seconds"])
        print(
            f"{prof['samples']} samples in {r['profile_seconds']} s at 100 Hz of the thread "
            f"holding the GIL (held {100 * busy:.0f}% of the time)"
        )
        sections = (
            ("threads", "samples per thread"),
            ("packages", "own time per package (torampu: per module)"),
            ("own", "own time, per function"),
            ("total", "total (inclusive) time, torampu's functions"),
        )
        for key, title in sections:
            print(f"  {title}:")
            for frame, _, p in prof[key]:
                print(f"    {p:5.1f}%  {frame[:150]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--tables", type=int, default=20, help="(human) tables in play at once (default 20)"
    )
    ap.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="run length per database (20; --abuse: per cell, 20; --scale: measured, 30)",
    )
    ap.add_argument("--game", default="napoleon")
    ap.add_argument("--rules", default=None, help="preset (default: classic for napoleon)")
    ap.add_argument("--bots", default="heuristic", help="the fill bot (heuristic, random, …)")
    ap.add_argument("--databases", default="sqlite,postgresql")
    ap.add_argument("--max-tables", type=int, default=100_000, help="at most this many tables")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--quick", action="store_true", help="a smoke run: 5 tables, 5 seconds")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="one more argument for torampu serve (repeatable): --server-arg=--max-bot-think=1",
    )
    abuse = ap.add_argument_group("abuse mode (--abuse: the 2×2 grid, SQLite)")
    abuse.add_argument("--abuse", action="store_true", help="run the abuse grid instead")
    abuse.add_argument("--bot-tables", type=int, default=4, help="M: strong-bot tables (4)")
    abuse.add_argument("--readers", type=int, default=50, help="K: non-reading sockets (50)")
    abuse.add_argument(
        "--strong-bot", default="ismcts:think=1", help="the bot of the M tables (ismcts:think=1)"
    )
    abuse.add_argument(
        "--match-games", type=int, default=10, help="games per human table's match (10)"
    )
    scale = ap.add_argument_group("scale mode (--scale: layouts x loads x table counts)")
    scale.add_argument("--scale", action="store_true", help="run the scale grid instead")
    scale.add_argument(
        "--layouts",
        default="single-sqlite,single-pg,scaled",
        help="a/single-sqlite, b/single-pg, c/scaled (default: all three)",
    )
    scale.add_argument("--loads", default="realistic,saturation", help="realistic, saturation")
    scale.add_argument("--counts", default="100,300,1000,3000", help="tables, realistic load")
    scale.add_argument("--sat-counts", default="100,300", help="tables, saturation load")
    scale.add_argument("--warmup", type=float, default=5.0, help="seconds after set-up (5)")
    scale.add_argument(
        "--setup-timeout", type=float, default=30.0, help="most seconds to set tables up (30)"
    )
    scale.add_argument(
        "--profile",
        metavar="LAYOUT:LOAD:COUNT",
        help="run only this cell, with py-spy on web process 1 (e.g. single-pg:realistic:300)",
    )
    scale.add_argument("--profile-seconds", type=float, default=15.0, help="py-spy's length (15 s)")
    scale.add_argument("--redis-server", default="/usr/bin/redis-server")
    args = ap.parse_args(argv)
    if args.seconds is None:
        args.seconds = 30.0 if args.scale else 20.0
    if args.rules is None and args.game == "napoleon":
        args.rules = "classic"
    if args.scale:
        main_scale(args)
        return
    if args.quick:
        args.tables, args.seconds = 5, 5.0
    if args.abuse:
        if args.tables < 1 or args.readers < 0 or args.bot_tables < 0:
            ap.error("--tables ≥ 1, --readers ≥ 0, --bot-tables ≥ 0")
        main_abuse(args)
        return
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
