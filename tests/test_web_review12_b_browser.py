"""A twelfth review's table in play, in a real Chromium through Playwright.

(a) On a phone the action bar kept the height of this player's own turn while the bots
moved: a white box of up to 280 px (Napoleon's bid table, Daifugo's bar while choosing) said
only "Sora's turn…" and squeezed the felt. It keeps at most a row of buttons' height there.
(b) A friend whose tab closed was a green dot gone grey on their seat box, nothing more: the
box now says "offline", and "away — bot plays" once the stand-in plays for them.

Skipped when /usr/bin/chromium is missing outside CI (a failure in CI). Screenshots go to
``artifacts/web/``.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import chromium, new_page, post, problems, require_chromium, serve

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "web"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
TOUCH = {"has_touch": True, "is_mobile": True, "device_scale_factor": 3}
AWAY_AFTER = 3.0  # (seconds: the module's --away-timeout)

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # the bots take their time, so that a test sees the page while they move; a player gone
    # is stood in for after a few seconds
    more = ("--away-timeout", str(AWAY_AFTER))
    with serve(tmp_path_factory.mktemp("review12b-data"), 0.8, 0.0, *more) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as b:
        yield b


def _table(
    base: str, game: str, players: int, seats: list[str], names: list[str]
) -> dict[str, Any]:
    """A started one-game table of ``seats`` ("open" or a bot); the open ones taken, in
    order, by ``names``: its id and each person's seat token."""
    body: dict[str, Any] = {"game": game, "players": players, "seats": seats, "games": 1}
    if game == "napoleon":
        body["rules"] = "classic"
    made = post(f"{base}/api/tables", body)
    tid, host = made["table"]["id"], made["host_token"]
    open_seats = [s for s, kind in enumerate(seats) if kind == "open"]
    tokens = {
        s: post(f"{base}/api/tables/{tid}/join", {"name": name, "seat": s})["token"]
        for s, name in zip(open_seats, names, strict=True)
    }
    post(f"{base}/api/tables/{tid}/start", {}, host)
    return {"id": tid, "tokens": tokens}


def _open(browser: Any, base: str, tid: str, seat: int, token: str, phone: bool, lang: str) -> Any:
    held = json.dumps({tid: {"seat": seat, "token": token}})
    init = f"localStorage.setItem('torampu.seats', {json.dumps(held)})"
    page = new_page(browser, PHONE if phone else LAPTOP, lang, init, **(TOUCH if phone else {}))
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector(f"#felt .seat-box[data-seat='{seat}']")
    return page


def _my_turn(page: Any, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while page.locator("#status").get_attribute("data-my-turn") != "1":
        assert time.monotonic() < deadline, "this seat's turn did not come"
        page.wait_for_timeout(40)


def _height(page: Any) -> float:
    return float(page.evaluate("document.querySelector('#actions').getBoundingClientRect().height"))


def _others_bid_until_seat_0(socks: list[Any]) -> None:
    """Napoleon's auction, seats 1-4 held by sockets: until seat 0's turn the first of them
    to speak bids the lowest bid and the rest pass, so that after seat 0's bid someone is
    still to speak (the auction goes on, and it is not seat 0's turn)."""
    from websockets.sync.client import ClientConnection

    def latest(sock: ClientConnection, version: int) -> dict[str, Any]:
        while True:
            snap = json.loads(sock.recv(timeout=10))
            if snap.get("type") == "snapshot" and snap["version"] >= version:
                return dict(snap)

    bid = False
    version = 0
    while True:
        snap = latest(socks[0], version)
        version, seat = snap["version"], snap["view"]["to_play"]
        if seat == 0:
            return
        legal = latest(socks[seat], version)["legal"]
        action = "pass" if bid else next(a for a in legal if a.startswith("bid "))
        bid = True
        socks[seat].send(json.dumps({"type": "act", "action": action, "version": version}))
        version += 1


def _bid(page: Any) -> float:
    """Napoleon: bid the lowest bid open (a tap chooses it, a second confirms it); the bar's
    height on this turn."""
    mine = _height(page)
    assert mine > 90, f"the bids are {mine} px tall"  # (a phone's picker: numbers, then suits)
    page.locator("#actions [data-action^='bid ']:not([disabled])").first.click()
    if page.locator("#actions .bidbtn.armed").count():
        page.locator("#actions .bidbtn.armed").click()
    return mine


def _daifugo_play(page: Any) -> float:
    """Daifugo: choose cards until Play shows (a pair or more to beat: the next legal card
    too) and play them, or pass with nothing to play; the bar's height with them chosen."""
    play = page.locator("#actions [data-action^='play ']")
    for card in page.locator("#hand .card[data-legal='1']").all():
        card.click(position={"x": 6, "y": 24})
        page.wait_for_timeout(300)
        if play.count():
            break
    if not play.count():
        page.locator("#actions [data-action='pass']").click()
        return 0.0
    mine = _height(page)
    play.first.click()
    return mine


@pytest.mark.parametrize(("game", "lang"), [("napoleon", "ja"), ("daifugo", "en")])
def test_the_action_bar_is_no_taller_than_a_row_while_others_move_on_a_phone(
    server: str, browser: Any, game: str, lang: str
) -> None:
    """A twelfth review: on a phone, while the bots moved, a white box of 130-280 px between
    the felt and the hand said only whose turn it was — the action bar kept its height of
    this player's own turn (Napoleon's bid table; Daifugo's bar with a card chosen). It keeps
    at most a row of buttons' height (64 px) now, and the felt has the rest."""
    from websockets.sync.client import connect

    with contextlib.ExitStack() as stack:
        if game == "napoleon":  # five people, the other four held by sockets
            tb = _table(server, game, 5, ["open"] * 5, ["Aki", "Ben", "Cai", "Dan", "Eve"])
            url = server.replace("http://", "ws://") + f"/ws/tables/{tb['id']}"
            socks = [stack.enter_context(connect(url, open_timeout=10)) for _ in range(5)]
            for s, sock in enumerate(socks):
                sock.send(json.dumps({"type": "hello", "token": tb["tokens"][s]}))
        else:  # Aki and three bots
            tb = _table(server, game, 4, ["open"] + ["bot:heuristic"] * 3, ["Aki"])
        page = _open(browser, server, tb["id"], 0, tb["tokens"][0], True, lang)
        if game == "napoleon":
            _others_bid_until_seat_0(socks)
        wait = page.locator("#actions-wait")
        for _ in range(6):  # (an 8 that cut the pile, a pass: this seat's turn again)
            _my_turn(page)
            before = page.locator("#status").get_attribute("data-version")
            mine = _bid(page) if game == "napoleon" else _daifugo_play(page)
            page.wait_for_function(
                """v => document.querySelector('#status')?.dataset.version !== v
                  && (document.querySelector('#actions-wait')
                      || document.querySelector('#status')?.dataset.myTurn === '1')""",
                arg=before,
            )
            if wait.count():
                break
        wait.wait_for(state="visible")
        assert page.locator("#status").get_attribute("data-my-turn") != "1"
        assert wait.inner_text().endswith("…")
        others = _height(page)
        page.screenshot(path=str(SHOTS / f"review12-others-move-{game}-phone-{lang}.png"))
    assert others <= 66, f"the bar is {others} px tall while others move (own turn: {mine} px)"
    # and the hand is whole on the screen below it
    hand = page.evaluate("document.querySelector('#hand').getBoundingClientRect().bottom")
    assert hand <= PHONE["height"] + 0.5, hand
    assert not problems(page), problems(page)


@pytest.mark.parametrize(("game", "players", "lang"), [("napoleon", 5, "en"), ("hell", 3, "ja")])
def test_a_friend_gone_is_said_on_their_seat_box(
    server: str, browser: Any, game: str, players: int, lang: str
) -> None:
    """A twelfth review: when a friend's tab closed, the only change on the others' screens
    was their green dot turning grey. Their seat box says "offline", then "away — bot plays"
    once the stand-in bot plays for them; the box stays inside the felt on a phone."""
    seats = ["open", "open"] + ["bot:heuristic"] * (players - 2)
    tb = _table(server, game, players, seats, ["Aki", "Ben"])
    aki = _open(browser, server, tb["id"], 0, tb["tokens"][0], True, lang)
    ben = _open(browser, server, tb["id"], 1, tb["tokens"][1], False, "en")
    aki.wait_for_function("() => window.torampu?.snapshot?.table?.seats?.[1]?.connected")
    box = aki.locator("#felt .seat-box[data-seat='1']")
    assert box.locator(".seat-state").count() == 0, "Ben is there"
    ben.context.close()
    words = {"en": ("offline", "away — bot plays"), "ja": ("未接続", "離席中・CPU代打")}[lang]
    state = box.locator(".seat-state")
    state.wait_for(state="visible", timeout=5000)
    # (on a loaded machine the stand-in's seconds may be over before the page looks)
    if state.get_attribute("data-state") == "offline":
        assert state.inner_text() == words[0]
        aki.screenshot(path=str(SHOTS / f"review12-seat-offline-{game}-phone-{lang}.png"))
    aki.wait_for_selector("#felt .seat-box[data-seat='1'] .seat-state[data-state='away']")
    assert state.inner_text() == words[1]
    aki.screenshot(path=str(SHOTS / f"review12-seat-away-{game}-phone-{lang}.png"))
    # nobody else's box says so: not Aki's own, not a bot's
    assert aki.locator("#felt .seat-state").count() == 1
    # every box within the felt (five of them on a phone), none cut by the screen's edge
    inside = aki.evaluate(
        """() => { const f = document.querySelector('#felt').getBoundingClientRect();
          return [...document.querySelectorAll('#felt .seat-box')].map((b) => {
            const r = b.getBoundingClientRect();
            return r.left >= f.left - 0.5 && r.right <= f.right + 0.5
              && r.top >= f.top - 0.5 && r.bottom <= f.bottom + 0.5
              && b.scrollWidth <= b.clientWidth; }); }"""
    )
    assert all(inside), inside
    assert not problems(aki), problems(aki)
