"""A review of c038926 (quick play closes the oldest game against bots), in Chromium.

(1) A friend who left in play
leaves a stand-in bot under their name (kind "bot"): such a table counted as "against bots
alone", the continue link offered it and quick play tried to close it, refused by the server,
and made no table though a true game against bots was there to close. (2) The continue link was
drawn anew at each list refresh: a keyboard's focus on it was lost every 4 s.

Skipped when /usr/bin/chromium is missing outside CI (a failure in CI).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_helpers import chromium, close_pages, new_page, post, problems, require_chromium, serve
from test_web_quick_continue_browser import _quick, _status

LAPTOP = {"width": 1366, "height": 768}
sync_api = require_chromium()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b
        close_pages()


def _page(browser: Any, dialogs: list[str]) -> Any:
    page = new_page(browser, LAPTOP, "en", "localStorage.setItem('torampu.name', 'Kai')")
    page.on("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    return page


def test_a_friend_left_in_play_is_no_game_against_bots(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> None:
    with serve(
        tmp_path_factory.mktemp("stand-in"), 0.3, 0.0, "--tables-per-address", "3"
    ) as server:
        dialogs: list[str] = []
        page = _page(browser, dialogs)
        page.goto(f"{server}/")
        # this browser's table (host and a seat), a friend's seat left in play: a stand-in bot
        made = post(
            f"{server}/api/tables",
            {
                "game": "napoleon",
                "players": 5,
                "seats": ["open", "open", "heuristic", "heuristic", "heuristic"],
            },
        )
        tid = str(made["table"]["id"])
        mine = post(f"{server}/api/tables/{tid}/join", {"name": "Kai", "seat": 0})
        friend = post(f"{server}/api/tables/{tid}/join", {"name": "Mio", "seat": 1})
        post(f"{server}/api/tables/{tid}/start", {}, made["host_token"])
        post(f"{server}/api/tables/{tid}/leave", {"in_play": True}, friend["token"])
        page.evaluate(
            """async ([id, host, seat]) => {
              const { tokens } = await import('/static/api.js');
              tokens.setHost(id, host);
              tokens.setSeat(id, 0, seat);
            }""",
            [tid, made["host_token"], mine["token"]],
        )
        page.goto(f"{server}/")
        page.wait_for_selector(f"#my-tables [data-table='{tid}']")
        page.wait_for_timeout(300)
        assert page.locator("#continue-solo").count() == 0  # (Mio's match, not one against bots)
        solo = _quick(page, server, "napoleon")
        _quick(page, server, "napoleon")
        page.goto(f"{server}/")
        page.wait_for_selector("#continue-solo")
        invites = page.evaluate("JSON.parse(localStorage.getItem('torampu.invites'))")
        page.click("#quick-play")  # (the fourth: the oldest against bots alone goes)
        page.wait_for_url("**/t/*")  # (before: Mio's match offered, the close refused)
        assert len(dialogs) == 1, dialogs
        assert _status(server, solo, invites[solo]) is None and _status(server, tid) == "playing"
        assert not problems(page), problems(page)


def test_the_continue_link_keeps_the_focus_across_refreshes(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> None:
    with serve(tmp_path_factory.mktemp("focus"), 0.3, 0.0) as server:
        page = _page(browser, [])
        _quick(page, server, "napoleon")
        page.goto(f"{server}/")
        page.wait_for_selector("#continue-solo")
        page.focus("#continue-solo")
        page.wait_for_timeout(9000)  # (two refreshes of the list, 4 s apart)
        assert page.evaluate("document.activeElement?.id") == "continue-solo"


def test_the_oldest_closed_in_another_tab_meanwhile_still_makes_the_new_one(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> None:
    with serve(tmp_path_factory.mktemp("gone"), 0.3, 0.0, "--tables-per-address", "2") as server:
        dialogs: list[str] = []
        page = _page(browser, dialogs)
        first = _quick(page, server, "napoleon")
        second = _quick(page, server, "napoleon")
        page.goto(f"{server}/")
        page.wait_for_selector(f"#my-tables [data-table='{first}']")
        host = page.evaluate(f"JSON.parse(localStorage.getItem('torampu.host'))['{first}']")
        # another tab closed it and made a table of its own: still two open, from this address
        post(f"{server}/api/tables/{first}/close", {}, host)
        other = post(
            f"{server}/api/tables",
            {"game": "nap", "players": 4, "seats": ["open", "open", "heuristic", "heuristic"]},
        )
        invites = page.evaluate("JSON.parse(localStorage.getItem('torampu.invites'))")
        page.click("#quick-play")
        page.wait_for_url("**/t/*")  # (before: "no such table", the lobby's copy was 30 s old)
        assert len(dialogs) == 1, dialogs
        assert _status(server, second, invites[second]) is None
        assert _status(server, str(other["table"]["id"])) == "waiting"
        assert not problems(page), problems(page)
