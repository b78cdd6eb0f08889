"""Quick play's games left mid-match, in a real Chromium through Playwright.

Each press of "Play now against bots" makes a table; a person who leaves one mid-match finds it
only under "Your tables", a list cut at its box's foot (the fourth row's seats and Close button
below the fold on a laptop). And once this address holds ``--tables-per-address`` open tables,
quick play was refused with "close one of yours (under Your tables)", where the lobby looks up
only this browser's newest eight. Now quick play offers the way back to the latest unfinished
game of the chosen one against bots, and — refused for the number of tables — offers to close
this browser's oldest game against bots (never a table with another person) and starts the new
one.

Skipped when /usr/bin/chromium is missing outside CI (a failure in CI).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import (
    chromium,
    close_pages,
    new_page,
    post,
    problems,
    require_chromium,
    serve,
)

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "web"
LAPTOP = {"width": 1366, "height": 768}

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(
        tmp_path_factory.mktemp("continue-data"), 0.3, 0.0, "--tables-per-address", "3"
    ) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as b:
        yield b
        close_pages()


def _quick(page: Any, server: str, game: str) -> str:
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    page.click(f"#pick-{game}")
    page.click("#quick-play")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand, .hand, [data-card]")
    return str(page.url.split("#")[0].rstrip("/").rsplit("/", 1)[1])


def _status(server: str, tid: str, invite: str | None = None) -> str | None:
    """The table's status (None: it is gone), asked with its invite where it is private."""
    headers = {"X-Torampu-Invite": invite} if invite else {}
    req = urllib.request.Request(f"{server}/api/tables/{tid}", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return str(json.loads(r.read())["status"])
    except urllib.error.HTTPError as e:
        assert e.code == 404, e.code
        return None


def test_quick_play_offers_the_game_left_and_closes_the_oldest_when_full(
    server: str, browser: Any
) -> None:
    page = new_page(browser, LAPTOP, "en", "localStorage.setItem('torampu.name', 'Kai')")
    dialogs: list[str] = []
    answer = {"accept": False}

    def on_dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.accept() if answer["accept"] else d.dismiss()

    page.on("dialog", on_dialog)
    napoleon = _quick(page, server, "napoleon")
    page.goto(f"{server}/")
    page.wait_for_selector("#continue-solo")
    assert page.get_attribute("#continue-solo", "href") == f"/t/{napoleon}"
    said = page.inner_text("#continue-solo")
    assert "Continue against bots: Napoleon · game 1 of 5" in said, said
    page.click("#pick-hell")  # (another game: nothing of Hell's to continue)
    assert page.locator("#continue-solo").count() == 0
    hell = _quick(page, server, "hell")
    page.goto(f"{server}/")
    page.wait_for_selector("#continue-solo")
    assert page.get_attribute("#continue-solo", "href") == f"/t/{hell}"
    page.click("#pick-napoleon")
    assert page.get_attribute("#continue-solo", "href") == f"/t/{napoleon}"
    page.screenshot(path=str(SHOTS / "quick-continue.png"))
    page.click("#continue-solo")
    page.wait_for_url(f"**/t/{napoleon}")
    # a third table, this browser's too (its host and a seat) but with a friend in another
    # seat: never one this closes
    friend = post(
        f"{server}/api/tables",
        {"game": "nap", "players": 4, "seats": ["open", "open", "heuristic", "heuristic"]},
    )
    friend_id = str(friend["table"]["id"])
    mine = post(f"{server}/api/tables/{friend_id}/join", {"name": "Kai", "seat": 0})
    post(f"{server}/api/tables/{friend_id}/join", {"name": "Mio", "seat": 1})
    page.evaluate(
        """async ([id, host, seat]) => {
          const { tokens } = await import('/static/api.js');
          tokens.setHost(id, host);
          tokens.setSeat(id, 0, seat);
        }""",
        [friend_id, friend["host_token"], mine["token"]],
    )
    # a fourth open table from this address where three are allowed; declined: nothing closed
    page.goto(f"{server}/")
    page.wait_for_selector(f"#my-tables [data-table='{friend_id}']")
    page.click("#pick-nap")
    page.click("#quick-play")
    page.wait_for_selector("#toast.show")
    assert "Too many open tables" in page.inner_text("#toast")
    assert len(dialogs) == 1 and "oldest game against bots (Napoleon" in dialogs[0], dialogs
    assert "/t/" not in page.url
    invites = page.evaluate("JSON.parse(localStorage.getItem('torampu.invites'))")
    assert (
        _status(server, napoleon, invites[napoleon]) == "playing"
        and _status(server, friend_id) == "waiting"
    )
    # accepted: the oldest game against bots goes, the new one starts
    answer["accept"] = True
    page.click("#quick-play")
    page.wait_for_url("**/t/*")
    assert len(dialogs) == 2, dialogs
    assert _status(server, napoleon, invites[napoleon]) is None
    assert (
        _status(server, hell, invites[hell]) == "playing"
        and _status(server, friend_id) == "waiting"
    )
    assert not problems(page), problems(page)
