"""Hostile display names in a real Chromium: every place a player's name appears on the lobby,
the table (before the start, in play, after a game) and the replay viewer shows it as literal
text, no element is injected, no script runs, and the pages raise no script error and no
Content-Security-Policy violation.

Tables are set up through the HTTP API with a hostile name in every seat, so the Napoleon (the
Nap declarer, every Hell bidder, every Daifugo title holder) is one of them; the moves are made
from Python over the websocket (seat 0 bids, the others pass). Skipped when /usr/bin/chromium is
missing outside CI; in CI (``CI`` set) that is a failure.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

from browser_helpers import chromium, get, new_page, post, problems, require_chromium, serve

sync_api = require_chromium()
ws_client = pytest.importorskip("websockets.sync.client")

DESKTOP = {"width": 1280, "height": 900}

NAMES = [
    "<img src=x onerror=window.__pwned=1>",
    '"><svg onload=window.__pwned=2>',
    "</dd><script>window.__pwned=3</script>",
    "<b>bold</b>&amp;",
    "ナポレオン<i>将軍</i>&lt;",
]
"""One per seat (seat 0 first): each at most 40 characters, the server's limit."""

# Elements the names above would create if any of them were parsed as HTML. The page's own
# markup has none of these (its SVG drawings have no event handler attributes, its scripts a src).
INJECTED = (
    'document.querySelectorAll(\'img[src="x"], script:not([src]), svg[onload], [onerror], '
    "[onload], i').length"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("web-abuse-data")) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b


# ------------------------------------------------------------------ tables and moves from Python


def _table(base: str, game: str, preset: str, players: int, games: int) -> dict[str, Any]:
    """A waiting table with a hostile name in every seat: {id, host, tokens}."""
    made = post(
        f"{base}/api/tables",
        {"game": game, "rules": preset, "players": players, "games": games},
    )
    tid = made["table"]["id"]
    tokens = []
    for seat in range(players):
        joined = post(f"{base}/api/tables/{tid}/join", {"name": NAMES[seat], "seat": seat})
        assert joined["seat"] == seat
        tokens.append(joined["token"])
    shown = [s["name"] for s in get(f"{base}/api/tables/{tid}")["seats"]]
    assert shown == NAMES[:players], "the server keeps the names as typed"
    return {"id": tid, "host": made["host_token"], "tokens": tokens}


def _start(base: str, table: dict[str, Any]) -> None:
    post(f"{base}/api/tables/{table['id']}/start", {"fill": "heuristic"}, table["host"])


Chooser = Callable[[int, dict[str, Any]], str]


class Players:
    """Every seat of a table connected over the websocket, moving when asked to."""

    def __init__(self, base: str, table: dict[str, Any]) -> None:
        url = base.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
        self.stack = ExitStack()
        self.conns = [self.stack.enter_context(ws_client.connect(url)) for _ in table["tokens"]]
        for conn, token in zip(self.conns, table["tokens"], strict=True):
            conn.send(json.dumps({"type": "hello", "token": token, "version": None}))
        self.snaps: dict[int, dict[str, Any]] = {}
        self.acted: set[int] = set()

    def _pump(self) -> None:
        for seat, conn in enumerate(self.conns):
            while True:
                try:
                    msg = json.loads(conn.recv(timeout=0.01))
                except TimeoutError:
                    break
                assert msg["type"] != "error", msg
                if msg["type"] == "snapshot":
                    old = self.snaps.get(seat)
                    if old is None or msg["version"] >= old["version"]:
                        self.snaps[seat] = msg

    @property
    def latest(self) -> dict[str, Any]:
        """Seat 0's newest snapshot."""
        return self.snaps[0]

    def play(self, choose: Chooser, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Move (``choose(seat, snapshot)``) until ``until(seat 0's snapshot)`` or the table is
        over; returns that snapshot."""
        deadline = time.monotonic() + 90
        while True:
            assert time.monotonic() < deadline, "the game did not get there in time"
            self._pump()
            if len(self.snaps) < len(self.conns):
                continue
            top = max(s["version"] for s in self.snaps.values())
            snap = self.latest
            if snap["version"] == top and (
                snap["table"]["status"] == "over" or (snap["view"] and until(snap))
            ):
                return snap
            for seat, msg in self.snaps.items():
                if msg["version"] == top and msg["legal"] and top not in self.acted:
                    self.acted.add(top)
                    action = choose(seat, msg)
                    self.conns[seat].send(
                        json.dumps({"type": "act", "action": action, "version": top})
                    )

    def __enter__(self) -> Players:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stack.close()


def _seat0_declares(seat: int, msg: dict[str, Any]) -> str:
    """Seat 0 makes the lowest bid, everyone else passes; afterwards the first legal move."""
    legal: list[str] = msg["legal"]
    if msg["view"]["phase"] == "bid":
        if seat == 0:
            return next((a for a in legal if a.startswith("bid ")), legal[0])
        if "pass" in legal:
            return "pass"
    return legal[0]


def _play_cards(seat: int, msg: dict[str, Any]) -> str:
    """Daifugo: play rather than pass, so that the games end quickly."""
    legal: list[str] = msg["legal"]
    return next((a for a in legal if a != "pass"), legal[0])


def _first(seat: int, msg: dict[str, Any]) -> str:
    legal: list[str] = msg["legal"]
    return legal[0]


# ------------------------------------------------------------------ the checks in the browser


def _open(browser: Any, url: str, ready: str, init: str | None = None) -> Any:
    page = new_page(browser, DESKTOP, init=init)
    page.goto(url)
    try:
        page.wait_for_selector(ready)
    except sync_api.TimeoutError:
        assert not problems(page), f"{url} did not show {ready}: {problems(page)}"
        raise
    return page


def _as_seat(table: dict[str, Any], seat: int) -> str:
    """Init script that keeps seat ``seat``'s token in localStorage, as the page does."""
    seats = {table["id"]: {"seat": seat, "token": table["tokens"][seat]}}
    return f"localStorage.setItem('torampu.seats', {json.dumps(json.dumps(seats))})"


def _as_host(table: dict[str, Any]) -> str:
    hosts = {table["id"]: table["host"]}
    return f"localStorage.setItem('torampu.host', {json.dumps(json.dumps(hosts))})"


def _safe(page: Any, where: str, *names: str, text: bool = True) -> None:
    """Each of ``names`` shows as literal text in ``where``; nothing was injected or run."""
    assert not problems(page), problems(page)
    assert page.locator(where).count(), f"{where} is on the page"
    region = page.locator(where).first
    shown = region.inner_text() if text else region.text_content() or ""
    for name in names:
        assert name in shown, f"{where} shows {name!r} as text: {shown!r}"
    assert page.evaluate("window.__pwned") is None, f"a script ran ({where})"
    assert page.evaluate(INJECTED) == 0, f"an element was injected ({where})"
    assert not problems(page), problems(page)


def _done(page: Any) -> None:
    assert not problems(page), problems(page)
    page.context.close()


def _check_last_move(page: Any) -> None:
    last = page.evaluate("window.torampu.snapshot.last")
    assert last, "a move was made"
    page.wait_for_selector("#last-move .ct, #last-move span")
    _safe(page, "#last-move", NAMES[last["seat"]])


def _check_replay(browser: Any, base: str, table: dict[str, Any], k: int, players: int) -> None:
    """The replay viewer at its first, a few middle and the last step; as a seat too."""
    page = _open(browser, f"{base}/t/{table['id']}/replay/{k}", "#replay-slider")
    _safe(page, "#replay-seat", *NAMES[:players], text=False)
    steps = len(get(f"{base}/api/tables/{table['id']}/games/{k}/replay")["steps"])
    for at in sorted({0, 1, 3, players + 2, steps // 2, steps - 1}):
        page.locator("#replay-slider").fill(str(at))
        page.wait_for_function(
            "at => document.querySelector('#replay-step')?.textContent.startsWith('Step ' + at)",
            arg=at,
        )
        step = get(f"{base}/api/tables/{table['id']}/games/{k}/replay")["steps"][at]
        who = [NAMES[step["seat"]]] if step["action"] is not None else []
        _safe(page, "#status", *who)
        _safe(page, "#felt", *NAMES[:players])
        declarer = step["view"].get("napoleon", step["view"].get("declarer"))
        if declarer is not None and step["view"].get("contract"):
            _safe(page, "#info dd", NAMES[declarer])  # the contract row
    page.select_option("#replay-seat", "1")
    page.locator("#replay-slider").fill("1")
    page.wait_for_selector("#hand .card")
    _safe(page, "#felt", *NAMES[:players])
    # every hand open: a line per seat, under its name (as text), with that seat's cards
    page.check("#replay-all")
    page.wait_for_selector("#replay-hands")
    _safe(page, "#replay-hands", *NAMES[:players])
    step = get(f"{base}/api/tables/{table['id']}/games/{k}/replay?hands=all")["steps"][1]
    shown = page.eval_on_selector_all(
        "#replay-hands dd", "dds => dds.map(d => [+d.dataset.seat, d.textContent])"
    )
    assert [s for s, _ in shown] == list(range(players))
    for s, text in shown:
        assert (text == "–") == (not step["hands"][s]), (s, text)
    _done(page)


def _check_waiting(browser: Any, base: str, table: dict[str, Any], players: int) -> None:
    """The lobby's table list, and the seat list before the start (spectator and host)."""
    names = NAMES[:players]
    lobby = _open(browser, f"{base}/", f".table-row[data-table='{table['id']}']")
    _safe(lobby, f".table-row[data-table='{table['id']}']", *names)
    _done(lobby)
    watcher = _open(browser, f"{base}/t/{table['id']}", ".seat-row[data-seat='0']")
    _safe(watcher, "#seats", *names)
    _done(watcher)
    host = _open(browser, f"{base}/t/{table['id']}", "#start-btn", init=_as_host(table))
    _safe(host, "#seats", *names)
    for seat in range(players):
        _safe(host, f"select[data-host-seat='{seat}']", names[seat], text=False)
    _done(host)


# ------------------------------------------------------------------ the four games


def test_hostile_names_napoleon(server: str, browser: Any) -> None:
    table = _table(server, "napoleon", "classic", 5, 1)
    _check_waiting(browser, server, table, 5)
    _start(server, table)
    with Players(server, table) as players:
        # the auction: seat 0 bids, the rest pass, so seat 0 is the Napoleon
        snap = players.play(_seat0_declares, lambda m: len(m["view"]["auction"] or []) >= 2)
        page = _open(browser, f"{server}/t/{table['id']}", "#auction li")
        _safe(page, "#auction", NAMES[snap["view"]["auction"][0]["seat"]])
        _safe(page, "#felt", *NAMES)
        _safe(page, "#status", NAMES[snap["view"]["to_play"]])
        _check_last_move(page)
        _done(page)

        # seat 0 names a card of seat 2's hand: seat 2 is the adjutant, known once it is played
        def call_seat2(seat: int, msg: dict[str, Any]) -> str:
            hand2 = players.snaps[2]["view"]["hand"]
            called = [a for a in msg["legal"] if a.startswith("adjutant ") and a[9:] in hand2]
            return called[0] if called else _seat0_declares(seat, msg)

        snap = players.play(call_seat2, lambda m: bool(m["view"].get("adjutant_known")))
        view = snap["view"]
        assert view["napoleon"] == 0
        assert view["adjutant"] == 2 and not view.get("alone"), view
        for seat in (None, 2):
            init = None if seat is None else _as_seat(table, seat)
            page = _open(browser, f"{server}/t/{table['id']}", "#info dd", init=init)
            contract = page.locator("#info dd").first
            _safe(page, "#info dd", NAMES[0])  # the contract row: the Napoleon's name
            assert "·" in contract.inner_text()
            _safe(page, "#info dd >> nth=3", NAMES[2])  # the adjutant row
            _safe(page, "#auction", *NAMES, text=False)  # (folded once the bidding is over)
            _safe(page, "#felt", *NAMES)
            if view["tricks"]:
                _safe(page, "#last-trick", *(NAMES[c["seat"]] for c in view["tricks"][-1]["cards"]))
            # (the seats that took some: each seat's count is on its box)
            _safe(page, "#honors", *(NAMES[s] for s, n in enumerate(view["honor_counts"]) if n))
            _safe(page, "#standings", *NAMES)
            _check_last_move(page)
            _done(page)
        players.play(_seat0_declares, lambda m: False)
    # after the game: the result panel (the Napoleon, adjutant, winners) and the standings
    page = _open(browser, f"{server}/t/{table['id']}", "#result dd", init=_as_seat(table, 3))
    _safe(page, "#result", NAMES[0], *NAMES)
    _safe(page, "#standings", *NAMES)
    _done(page)
    _check_replay(browser, server, table, 0, 5)


def test_hostile_names_nap(server: str, browser: Any) -> None:
    table = _table(server, "nap", "standard", 4, 1)
    _start(server, table)
    with Players(server, table) as players:
        snap = players.play(_seat0_declares, lambda m: m["view"]["phase"] == "play")
        page = _open(browser, f"{server}/t/{table['id']}", "#info dd")
        assert snap["view"]["declarer"] == 0
        _safe(page, "#info dd", NAMES[0])  # the contract row: the declarer's name
        _safe(page, "#felt", *NAMES[:4])
        _safe(page, "#auction", *NAMES[:4], text=False)  # (folded once the bidding is over)
        _check_last_move(page)
        _done(page)
        players.play(_seat0_declares, lambda m: False)
    page = _open(browser, f"{server}/t/{table['id']}", "#result dd", init=_as_seat(table, 1))
    _safe(page, "#result", NAMES[0], *NAMES[:4])
    _safe(page, "#standings", *NAMES[:4])
    _done(page)
    _check_replay(browser, server, table, 0, 4)


def test_hostile_names_hell(server: str, browser: Any) -> None:
    table = _table(server, "hell", "standard", 5, 2)
    _start(server, table)
    with Players(server, table) as players:
        # the first deal's bids table, then the score sheet during the second deal
        players.play(_first, lambda m: m["view"]["phase"] == "play")
        page = _open(browser, f"{server}/t/{table['id']}", "#info table")
        _safe(page, "#info table", *NAMES)
        _check_last_move(page)
        _done(page)
        players.play(_first, lambda m: m["view"]["match"]["games_played"] >= 1)
        page = _open(browser, f"{server}/t/{table['id']}", "#sheet th", init=_as_seat(table, 4))
        _safe(page, "#sheet", *NAMES)
        _safe(page, "#result", *NAMES)
        _safe(page, "#info table", *NAMES)
        _done(page)
        players.play(_first, lambda m: False)
    page = _open(browser, f"{server}/t/{table['id']}", "#result dd")
    _safe(page, "#result", *NAMES)
    _safe(page, "#sheet", *NAMES)
    _done(page)
    _check_replay(browser, server, table, 1, 5)


def test_hostile_names_daifugo(server: str, browser: Any) -> None:
    table = _table(server, "daifugo", "standard", 5, 2)
    _start(server, table)
    with Players(server, table) as players:
        # the log of the first game, then the titles it gave, during the second
        players.play(_play_cards, lambda m: len(m["view"].get("log") or []) >= 6)
        page = _open(browser, f"{server}/t/{table['id']}", "#log li")
        log = players.latest["view"]["log"][-14:]
        _safe(page, "#log", *{NAMES[e["seat"]] for e in log})
        _check_last_move(page)
        _done(page)
        players.play(_play_cards, lambda m: m["view"]["match"]["games_played"] >= 1)
        snap = players.latest
        assert snap["view"].get("titles"), "the second game has titles"
        page = _open(browser, f"{server}/t/{table['id']}", "#result dd", init=_as_seat(table, 0))
        _safe(page, "#info", *NAMES)  # the titles row: "name: title" for every seat
        _safe(page, "#result", *NAMES)
        _safe(page, "#felt", *NAMES)
        _done(page)
        players.play(_play_cards, lambda m: False)
    page = _open(browser, f"{server}/t/{table['id']}", "#result dd")
    _safe(page, "#result", *NAMES)
    _safe(page, "#standings", *NAMES)
    _done(page)
    _check_replay(browser, server, table, 1, 5)


def test_the_replay_viewer_past_its_budget_says_so_in_the_reader_s_language(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> None:
    """Replays are made at most --replay-rate a second per address (the audit's replay flood):
    a reader flipping through the seats faster than that is told "too fast" in the page's
    language (it showed the server's English), and the replays already made still show."""
    data = tmp_path_factory.mktemp("replay-budget")
    with serve(data, 0.0, 0.0, "--replay-rate", "0.001", "--replay-burst", "2") as base:
        res = post(f"{base}/api/tables", {"game": "nap", "games": 1, "seats": ["heuristic"] * 4})
        tid, host = res["table"]["id"], res["host_token"]
        post(f"{base}/api/tables/{tid}/start", {}, host)
        deadline = time.monotonic() + 30
        while get(f"{base}/api/tables/{tid}")["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.2)
        page = new_page(browser, {"width": 1280, "height": 800}, "ja")
        page.goto(f"{base}/t/{tid}/replay/0")  # one replay made (everyone's view)
        page.wait_for_selector("#replay-slider")
        page.select_option("#replay-seat", "1")  # a second: the budget's last
        page.wait_for_selector("#hand .card")
        page.select_option("#replay-seat", "2")  # a third: refused
        page.wait_for_function(
            "() => document.querySelector('#toast')?.textContent"
            " === '操作が速すぎます。少し待ってください'"
        )
        page.select_option("#replay-seat", "1")  # made already: shown at once
        page.wait_for_selector("#hand .card")
        assert not problems(page), problems(page)
        page.context.close()


EVIL_PAGE = "<!doctype html><title>free cards</title><p>nothing to see</p>"


def test_a_page_of_another_site_cannot_act_through_its_visitors_browser(
    server: str, browser: Any
) -> None:
    """The audit's cross-site forgery, in a real browser: a page of another site (here
    http://evil.test, served by the browser's own router) sends the text/plain POSTs a browser
    sends without asking (no CORS preflight) to create a table and to take a stranger's seats,
    and opens a websocket to the table. Nothing is made, nobody sits, the socket never opens."""
    made = post(f"{server}/api/tables", {"game": "napoleon", "games": 1})
    tid = made["table"]["id"]
    before = len(get(f"{server}/api/tables")["tables"])
    page = new_page(browser, {"width": 800, "height": 600})
    with _other_site() as evil:
        page.goto(evil)
        outcome = _forge(page, server, tid)
    assert outcome["opened"] is False, outcome
    assert len(get(f"{server}/api/tables")["tables"]) == before
    seats = get(f"{server}/api/tables/{tid}")["seats"]
    assert all(s["kind"] == "open" for s in seats), seats


def test_a_page_whose_name_was_rebound_to_the_server_cannot_use_it(
    server: str, browser: Any
) -> None:
    """DNS rebinding, in a real browser: a page of http://evil.test:PORT (the attacker's page,
    served here by the browser's own router) whose name then resolves to 127.0.0.1 (the
    browser's host resolver is told so) sends its requests to this server with its own name as
    ``Host`` and ``Origin`` — the same origin to the browser, so it may read the answers and
    send JSON. It reads no lobby, makes no table, takes no seat, and its socket never opens."""
    from browser_helpers import ARGS, CHROMIUM

    made = post(f"{server}/api/tables", {"game": "napoleon", "games": 1})
    tid = made["table"]["id"]
    before = len(get(f"{server}/api/tables")["tables"])
    port = server.rsplit(":", 1)[1]
    rules = "--host-resolver-rules=MAP evil.test 127.0.0.1"
    # Chromium's own check of a public page reaching a local address (Firefox and Safari have
    # none) is off: the server must hold by itself
    local = "--disable-features=BlockInsecurePrivateNetworkRequests,LocalNetworkAccessChecks"
    local += ",PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults"
    rebound = browser.browser_type.launch(executable_path=str(CHROMIUM), args=[*ARGS, rules, local])
    try:
        page = rebound.new_page()
        evil = f"http://evil.test:{port}/"
        page.route(evil, lambda route: route.fulfill(content_type="text/html", body=EVIL_PAGE))
        page.goto(evil)  # the attacker's page; from here on its name is the server's address
        outcome = page.evaluate(
            """async (tid) => {
                 const send = (path, body) => fetch(path, {method: "POST",
                   headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
                   .then((r) => r.status).catch(() => null);
                 const lobby = await fetch("/api/tables").then((r) => r.status);
                 const made = await send("/api/tables", {game: "daifugo", games: 1});
                 const joined = await send(`/api/tables/${tid}/join`, {name: "ghost"});
                 const opened = await new Promise((resolve) => {
                   const ws = new WebSocket(`ws://${location.host}/ws/tables/${tid}`);
                   ws.onopen = () => resolve(true);
                   ws.onerror = () => resolve(false);
                   setTimeout(() => resolve(null), 5000);
                 });
                 return {lobby, made, joined, opened};
               }""",
            tid,
        )
    finally:
        rebound.close()
    assert outcome == {"lobby": 400, "made": 400, "joined": 400, "opened": False}, outcome
    assert len(get(f"{server}/api/tables")["tables"]) == before
    seats = get(f"{server}/api/tables/{tid}")["seats"]
    assert all(s["kind"] == "open" for s in seats), seats


@contextmanager
def _other_site() -> Iterator[str]:
    """A page of another site (another origin on this machine, no CSP): its address."""
    import http.server
    import threading

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = EVIL_PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()


def _forge(page: Any, server: str, tid: str) -> dict[str, Any]:
    outcome = page.evaluate(
        """async ([base, tid]) => {
             // the answer is withheld from the page (Cross-Origin-Resource-Policy): a fetch
             // fails, but it was sent, and what it asked for was done unless refused
             const send = (path, body) => fetch(base + path, {method: "POST", mode: "no-cors",
               headers: {"Content-Type": "text/plain"}, body: JSON.stringify(body)})
               .catch(() => null);
             await send("/api/tables", {game: "daifugo", players: 8, games: 50});
             for (let i = 0; i < 5; i++) await send(`/api/tables/${tid}/join`, {name: "ghost"});
             const opened = await new Promise((resolve) => {
               const ws = new WebSocket(base.replace("http", "ws") + `/ws/tables/${tid}`);
               ws.onopen = () => resolve(true);
               ws.onerror = () => resolve(false);
               setTimeout(() => resolve(null), 5000);
             });
             return {opened};
           }""",
        [server, tid],
    )
    return dict(outcome)
