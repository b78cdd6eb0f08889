"""Shared pieces of the browser tests: Chromium (skipped outside CI when missing, a failure in
CI), ``torampu serve`` as a subprocess, and pages that record script errors and
Content-Security-Policy violations (including Trusted Types ones) for the test to check."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Every CSP violation of a page, pushed to window.__csp and reported to the test through a
# binding (window.__csp starts again empty on each navigation; the binding's list does not).
CSP_LISTENER = """
document.addEventListener('securitypolicyviolation', e => {
  const v = e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '');
  (window.__csp = window.__csp || []).push(v);
  if (window.__torampuCsp) window.__torampuCsp(v);
});
"""


def require_chromium() -> Any:
    """Skip the calling test module when Chromium is missing (fail in CI); Playwright's sync
    API otherwise. Call at module level."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing in CI", pytrace=False)
        pytest.skip(f"{CHROMIUM} is missing (outside CI)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds the socket listening on 127.0.0.1:``port`` (Linux's
    /proc; elsewhere, assumed). A port :func:`free_port` gave is free only until another
    process of the run takes it: a server that then failed to bind it left the other's
    answering its health check (a flaky-test review)."""
    try:
        rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return True
    fds = set()
    for fd in names:
        with contextlib.suppress(OSError):  # (closed meanwhile: the listing's own, say)
            fds.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
    local = f"0100007F:{port:04X}"
    return any(
        f"socket:[{row.split()[9]}]" in fds
        for row in rows
        if row.split()[1] == local and row.split()[3] == "0A"
    )


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def post(url: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _torampu() -> list[str]:
    exe = Path(sys.executable).parent / "torampu"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("torampu")
    assert found, "the torampu command is not installed"
    return [found]


@contextmanager
def serve(
    data: Path, bot_delay: float = 0.05, next_game_delay: float = 0.0, *more: str
) -> Iterator[str]:
    """``torampu serve`` on a free port with its store in ``data`` (``more``: further flags);
    yields the base URL. A port another process of the run took before the server bound it is
    given up for another (up to five tries)."""
    cmd = [*_torampu(), "serve", "--data-dir", str(data)]
    cmd += ["--next-game-delay", str(next_game_delay)]
    # every page, request and new table of a test module comes from 127.0.0.1, many at once:
    # as from behind one proxy, not one person's browser (a module makes over 10 tables a
    # minute, --create-rate's default)
    cmd += ["--request-rate", "500", "--request-burst", "5000", "--create-rate", "600"]
    cmd += ["--request-rate-all", "0"]  # (nor the process's, for the same reason)
    # and the pages of a module poll the table list and make replays side by side: a test's
    # own GET /api/tables once met 429 (--list-rate 2 a second, burst 20, for the whole module);
    # a test of these limits passes its own (``more`` comes last and wins)
    cmd += ["--list-rate", "200", "--list-burst", "2000", "--replay-rate", "50"]
    cmd += ["--replay-burst", "500", "--load-rate", "50", "--load-burst", "500"]
    cmd += ["--table-move-rate", "1000", "--table-move-burst", "1000"]
    cmd += ["--seat-change-rate", "1000", "--seat-change-burst", "1000"]
    # (every page of a module is one address: its requests are not queued 8 at a time)
    cmd += ["--requests-at-once", "10000"]
    # nor are new sockets a module's pages open (2 a second, --connect-rate's default: a page
    # refused waits out its backoff), nor seats its tables' pages take (24 at tables waiting:
    # one CI run's host page, Start pressed, never saw its game — either would do that)
    cmd += ["--connect-rate", "200", "--seats-per-address", "1000"]
    cmd += ["--tables-per-address", "1000", "--tables-per-day", "0", *more]
    # the server's log goes to a file beside its store, never to a pipe nobody reads (a full
    # pipe would stop the server mid-test); a failing test can read it with server_log()
    data.mkdir(parents=True, exist_ok=True)
    log = (data / "server.log").open("ab")
    for attempt in range(5):
        port = free_port()
        start = log.tell()
        proc = subprocess.Popen(
            [*cmd, "--port", str(port), "--bot-delay", str(bot_delay)],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        LOGS[f"http://127.0.0.1:{port}"] = data / "server.log"
        base = f"http://127.0.0.1:{port}"
        # (60 s: on a machine loaded past its cores a server took over 20 s to say anything,
        # and a whole module's tests failed at their setup)
        deadline = time.monotonic() + 60
        started = False
        while not started and proc.poll() is None and time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                started = listens(proc.pid, port) and get(f"{base}/api/health")["status"] == "ok"
            if not started:
                time.sleep(0.1)
        if started:  # (not the clock read again: an answer at the deadline's edge is one)
            break
        out = (data / "server.log").read_bytes()[start:].decode(errors="replace")
        if proc.poll() is None or "already in use" not in out or attempt == 4:
            proc.kill()
            proc.wait()
            log.close()
            pytest.fail(f"torampu serve did not start: {out}")
    try:
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


LOGS: dict[str, Path] = {}


def server_log(base: str, tail: int = 4000) -> str:
    """The end of the log of the server ``serve`` started at ``base`` (for a failure's message)."""
    path = LOGS.get(base)
    return path.read_text(errors="replace")[-tail:] if path and path.exists() else ""


@contextmanager
def chromium(sync_api: Any) -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


OPEN: list[Any] = []
"""The browser contexts :func:`new_page` opened in the test running (closed after it)."""


def close_pages() -> None:
    """Close every page a test opened: a page left on a table keeps its socket, and a module's
    pages all come from 127.0.0.1 — past ``--sockets-per-address`` (32) a later test's pages
    were refused, and every test after it in the module failed."""
    while OPEN:
        ctx = OPEN.pop()
        with contextlib.suppress(Exception):  # (its browser closed already)
            ctx.close()


def new_page(
    browser: Any,
    viewport: dict[str, int],
    lang: str = "en",
    init: str | None = None,
    **context: Any,
) -> Any:
    """A page in a fresh context: ``page.errors`` collects uncaught script errors and
    ``page.csp`` every Content-Security-Policy violation; ``init`` is more init script;
    ``context``: more of the context's options (``has_touch=True, is_mobile=True``: a phone's
    touch screen, a coarse pointer)."""
    ctx = browser.new_context(viewport=viewport, **context)
    OPEN.append(ctx)
    csp: list[str] = []
    ctx.expose_function("__torampuCsp", lambda v: csp.append(str(v)))
    ctx.add_init_script(CSP_LISTENER)
    ctx.add_init_script(f"localStorage.setItem('torampu.lang', '{lang}')")
    if init:
        ctx.add_init_script(init)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.csp = csp
    page.set_default_timeout(15000)
    return page


def wait_shown(page: Any, selector: str, base: str) -> None:
    """Wait for ``selector`` on ``page`` as ``wait_for_selector`` does; if it never shows, fail
    with what the page said (its toast, its connection's line) and the end of the server's log
    (a CI run's host page never showed its game, and nothing said why)."""
    try:
        page.wait_for_selector(selector)
    except Exception as e:
        said = page.evaluate(
            "() => ['#toast', '#conn', '#conn-banner', '#status']"
            ".map((s) => `${s}: ${document.querySelector(s)?.textContent ?? '-'}`).join(' | ')"
        )
        pytest.fail(f"{selector} never showed ({e.__class__.__name__}): {said}\n{server_log(base)}")


def chosen_game(page: Any) -> str:
    """The game the lobby's picker has chosen (its pressed button): quick play's and the
    new-table form's."""
    return str(page.eval_on_selector("#game-picker [aria-pressed=true]", "b => b.id.slice(5)"))


def problems(page: Any) -> list[str]:
    """Script errors and CSP violations of the page so far (window.__csp included)."""
    here = page.evaluate("window.__csp || []")
    return [*page.errors, *page.csp, *(v for v in here if v not in page.csp)]
