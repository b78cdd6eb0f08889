"""A review of taps on a phone, in a real Chromium through Playwright: a Daifugo card tapped
the moment the turn comes straight back.

Daifugo on a 390 px phone: in 3 of 22 moves a tap on a legal card brought up no Play button
(the player waited 30 s; a second tap worked), each time as the player led a fresh round or
answered right after a pass. The turn had come straight back after the page's own move (an 8
that cleared the table, a pass that ended the round), and a tap within 450 ms of that move was
taken for the second tap of a double tap, and dropped — a guard for the games where a tap plays
the card (see test_web_polish_browser's double tap). A Daifugo tap only picks the card: no tap
is a move there, and none is dropped.

The turn coming back is played by handing the page snapshots (the server's own held back), and
the page's clock is held by the test, so that the tap comes 200 ms after the move whatever the
machine's load.

Skipped when /usr/bin/chromium is missing outside CI (a failure in CI).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import chromium, close_pages, new_page, post, problems, require_chromium, serve
from test_web_polish_browser import HELD, _hand

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "web"
PHONE = {"width": 390, "height": 844}

sync_api = require_chromium()

CLOCK = """() => { const now = performance.now.bind(performance); window.__at = now();
performance.now = () => window.__at ?? now(); }"""
"""The page's clock (performance.now, what times a double tap) held by the test (``__at``)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("taps-data"), 0.01) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as b:
        yield b
        close_pages()


def _daifugo_phone(server: str, browser: Any) -> Any:
    """A started Daifugo table of four (seat 0 Aki's, three bots), opened by Aki on a phone's
    touch screen with its websockets in the test's hands (test_web_polish_browser's ``HELD``)."""
    made = post(
        f"{server}/api/tables",
        {"game": "daifugo", "players": 4, "games": 1, "seats": ["open"] + ["bot:heuristic"] * 3},
    )
    tid, host = made["table"]["id"], made["host_token"]
    seat = post(f"{server}/api/tables/{tid}/join", {"name": "Aki", "seat": 0}, None)
    post(f"{server}/api/tables/{tid}/start", {}, host)
    init = (
        f"localStorage.setItem('torampu.seats', "
        f"{json.dumps(json.dumps({tid: {'seat': 0, 'token': seat['token']}}))});"
    )
    page = new_page(browser, PHONE, "en", init=init, has_touch=True, is_mobile=True)
    page.context.add_init_script(HELD)
    page.goto(f"{server}/t/{tid}")
    page.wait_for_selector("#felt [data-seat='0']")
    return page


def _answering_turn(page: Any) -> dict[str, Any]:
    """This seat's first turn of play where it may pass (a play on the table to answer): its
    snapshot. A lead before it is made by the page's socket (its first single card)."""
    until = time.monotonic() + 60
    done = -1
    while True:
        assert time.monotonic() < until, "no turn to answer came"
        page.wait_for_function(
            "(v) => { const s = window.torampu?.snapshot; return !!s && s.version !== v"
            " && s.seat != null && s.view?.to_play === s.seat && s.legal?.length > 0; }",
            arg=done,
        )
        snap = page.evaluate("window.torampu.snapshot")
        if "pass" in snap["legal"]:
            return dict(snap)
        done = snap["version"]
        lead = next(a for a in snap["legal"] if len(a.split()) == 2)
        page.evaluate(
            "(a) => window.__socks.at(-1).send(JSON.stringify({type: 'act', action: a.action,"
            " version: a.version}))",
            {"action": lead, "version": done},
        )


def _handed(page: Any, snapshot: dict[str, Any]) -> None:
    """Hand the page ``snapshot`` as if the server had sent it (the server's own held back), and
    wait until it is drawn."""
    _hand(page, snapshot)
    page.wait_for_function(
        "(v) => document.querySelector('#status')?.dataset.version === String(v)",
        arg=snapshot["version"],
    )


def _lead(snap: dict[str, Any], version: int, hand: list[str]) -> dict[str, Any]:
    """``snap`` made this seat's lead of a fresh round at ``version``: the table cleared, nobody
    passed, its ``hand`` each playable alone."""
    view = {**snap["view"], "hand": hand, "table": None, "last_player": None, "passed": []}
    return {**snap, "version": version, "view": view, "legal": [f"play {c}" for c in hand]}


def _tap_and_see_play(page: Any, card: str, where: str) -> None:
    """Tap ``card`` as a finger does: it is picked, and its Play button comes."""
    page.locator(f"#hand .card[data-card='{card}']").tap(position={"x": 6, "y": 24})
    shown = page.evaluate(
        "(c) => ({pressed: document.querySelector(`#hand .card[data-card='${c}']`)"
        "?.getAttribute('aria-pressed'), play: [...document.querySelectorAll("
        "'#actions .select-bar button.primary')].map((b) => b.dataset.action)})",
        card,
    )
    assert shown == {"pressed": "true", "play": [f"play {card}"]}, f"{where}: {shown}"


def test_a_card_tapped_as_the_turn_comes_straight_back_is_picked(server: str, browser: Any) -> None:
    page = _daifugo_phone(server, browser)
    snap = _answering_turn(page)
    page.wait_for_timeout(500)  # (nothing of the page's own just before)
    page.evaluate("window.__hold = true")
    page.evaluate(CLOCK)
    sent = page.evaluate("window.__acts.length")
    version = snap["version"]
    hand = list(snap["view"]["hand"])

    # a pass that ended the round: the lead is this seat's at once, the table cleared; the
    # first card tapped 200 ms after the pass is picked, its Play button shown
    page.locator("#actions [data-action='pass']").tap()
    page.wait_for_function("(n) => window.__acts.length === n + 1", arg=sent)
    page.evaluate("window.__at += 200")
    _handed(page, _lead(snap, version + 1, hand))
    first, second = hand[0], hand[1]
    _tap_and_see_play(page, first, "the lead after the page's pass")
    page.screenshot(path=str(SHOTS / "taps-lead-after-pass.png"))

    # and a play that cleared the table (an 8): the lead back at once, the next card tapped
    # 200 ms after the Play is picked too
    page.evaluate("window.__at += 600")
    page.locator(f"#actions [data-action='play {first}']").tap()
    page.wait_for_function("(n) => window.__acts.length === n + 2", arg=sent)
    assert page.evaluate("JSON.parse(window.__acts.at(-1)).action") == f"play {first}"
    page.evaluate("window.__at += 200")
    _handed(page, _lead(snap, version + 2, hand[1:]))
    _tap_and_see_play(page, second, "the lead after the page's own play")
    # a tap on it again unpicks it, as ever (no move is made by a tap)
    page.locator(f"#hand .card[data-card='{second}']").tap(position={"x": 6, "y": 24})
    assert (
        page.locator(f"#hand .card[data-card='{second}']").get_attribute("aria-pressed") == "false"
    )
    assert page.evaluate("window.__acts.length") == sent + 2, page.evaluate("window.__acts")
    page.evaluate("window.__at = null")  # (the page's clock its own again)
    assert not problems(page), problems(page)
