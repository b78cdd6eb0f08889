"""How fast a UECda server referees: ``torampu uecda server`` next to tndhms, each with five
UECda sample clients, in one run.

Usage::

    .venv/bin/python bench/uecda_server.py --client PATH [--tndhms PATH] [--games 1000]

``--client`` is a UECda sample client (the devkit's ``client``, built outside the repository);
``--tndhms`` a tndhms server binary (built outside too; it is run with a generated
``tndhms.cfg``: console, the UECda rules, the seats and rank resets of the devkit's config).
A peer whose path is missing is skipped with a note (without the client nothing can run).
tndhms built with X11 needs a ``DISPLAY`` even on the console (e.g. ``Xvfb :57 &`` and
``DISPLAY=:57``). Each server plays ``--games`` games with five clients on 127.0.0.1; the
wall-clock time from the server's start to its exit is printed with games per second, the
server's own CPU seconds (user + system, from ``wait4``), and the ratio of the two servers.
Issue 21's goal: ours within 2× of tndhms. ``--baseline-src DIR`` also times ``torampu uecda
server`` from another source tree (e.g. ``git archive`` of an older commit), in the same run;
``--batch-sends`` times ours a second time with ``--batch-sends`` (each client's messages kept
until its turn: the same bytes, fewer system calls and wake-ups).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"

TNDHMS_CFG = """WINDOW_TYPE\tconsole
CONSOLE_TYPE\tconsole
GRAPH_WINDOW\tnone
RULE_KAKUMEI\tyes
RULE_SHIBARI\tyes
RULE_KINSOKU\tno
RULE_KAIDAN\tyes
RULE_5TOBI\tno
RULE_6REVERS\tno
RULE_8GIRI\tyes
RULE_11BACK\tno
RULE_CHANGE\tyes
RULE_SEKIGAE\tyes
RULE_SEKIGAE_NUM\t5
FLAG_STATISTICS no
FLAG_HIDDEN_NAME no
FLAG_LOGGER no
GAME_NUMBER\t{games}
FLASH_MIBUN_NUMBER\t100
PORT_NUMBER\t{port}
RAND_TYPE\tMT
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def listening(port: int) -> bool:
    """Whether a socket listens on ``port`` (read from /proc: a probe connection would be taken
    for a client)."""
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] == "0A" and int(f[1].rsplit(":", 1)[1], 16) == port:
                return True
    return False


def run(
    server: list[str], port: int, client: str, cwd: str, src: Path = SRC
) -> tuple[float, float, float]:
    """Seconds from the server's start to its exit, five clients playing, and the server's CPU
    seconds (user, system)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    t = time.perf_counter()
    srv = subprocess.Popen(
        server, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    clients: list[subprocess.Popen[bytes]] = []
    try:
        end = time.monotonic() + 60
        while not listening(port):
            if srv.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"{server[0]} does not listen on port {port}")
            time.sleep(0.02)
        for k in range(5):
            clients.append(
                subprocess.Popen(
                    [client, "-p", str(port), "-n", f"sample{k}"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            time.sleep(0.1)
        _, status, usage = os.wait4(srv.pid, 0)
        wall = time.perf_counter() - t
        srv.returncode = os.waitstatus_to_exitcode(status)
        return wall, usage.ru_utime, usage.ru_stime
    finally:
        for c in clients:
            try:
                c.wait(timeout=10)
            except subprocess.TimeoutExpired:
                c.kill()
        if srv.poll() is None:
            srv.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--client", default="", help="a UECda sample client binary")
    ap.add_argument("--tndhms", default="", help="a tndhms binary (skipped if absent)")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument(
        "--baseline-src", default="", help="also time our server from this source tree (src/)"
    )
    ap.add_argument(
        "--batch-sends", action="store_true", help="also time our server with --batch-sends"
    )
    a = ap.parse_args()
    if not a.client or not Path(a.client).is_file():
        print(f"no sample client at {a.client!r}: nothing to run (see --help)")
        return
    results: dict[str, tuple[float, float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()

        def ours(port: int, records: str) -> list[str]:
            return [
                sys.executable,
                "-m",
                "torampu.cli",
                "uecda",
                "server",
                "--port",
                str(port),
                "--games",
                str(a.games),
                "--records",
                str(Path(tmp) / records),
                "--seed",
                "1",
            ]

        if a.baseline_src:
            port = free_port()
            base = Path(a.baseline_src).resolve()
            results["baseline (--baseline-src)"] = run(
                ours(port, "baseline-records"), port, a.client, tmp, base
            )
        port = free_port()
        results["torampu uecda server"] = run(ours(port, "records"), port, a.client, tmp)
        if a.batch_sends:
            port = free_port()
            cmd = [*ours(port, "batch-records"), "--batch-sends"]
            results["ours --batch-sends"] = run(cmd, port, a.client, tmp)
        if a.tndhms and Path(a.tndhms).is_file():
            port = free_port()
            cfg = Path(tmp) / "tndhms.cfg"
            cfg.write_text(TNDHMS_CFG.format(games=a.games, port=port), encoding="ascii")
            cmd = [str(Path(a.tndhms).resolve()), "-c", "tndhms.cfg", "-p", str(port)]
            results["tndhms"] = run(cmd, port, a.client, tmp)
        else:
            print(f"tndhms not found at {a.tndhms!r}: skipped")
    for name, (secs, user, system) in results.items():
        print(
            f"{name:26s} {a.games} games in {secs:7.2f} s  ({a.games / secs:7.1f} games/s), "
            f"server CPU {user + system:6.2f} s (user {user:.2f}, system {system:.2f})"
        )
    if "tndhms" in results:
        for name in ("baseline (--baseline-src)", "torampu uecda server", "ours --batch-sends"):
            if name in results:
                ratio = results[name][0] / results["tndhms"][0]
                print(f"{name} / tndhms: {ratio:.2f}× (goal: ≤ 2×)")


if __name__ == "__main__":
    main()
