"""A fifty-fourth review, in a real Chromium through Playwright: the button to the chat says chat.

Two friends at Napoleon, one on a 390×844 phone in Japanese: the host's "ナイス！" in the chat
showed on the phone as a red "1" beside "成績・情報 ↓" — read as a score, or a notice about the
standings, where the button led to the chat. With a message unread the button says "チャット ↓"
("Chat ↓") beside the count; with none, "成績・情報 ↓" as before.

Skipped when /usr/bin/chromium is missing outside CI (a failure in CI).
"""

from __future__ import annotations

import json
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
PHONE = {"width": 390, "height": 844}

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("review54-data"), 0.01) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as b:
        yield b
        close_pages()


@pytest.mark.parametrize(
    ("lang", "plain", "chat"),
    [("ja", "成績・情報 ↓", "チャット ↓"), ("en", "Scores & info ↓", "Chat ↓")],
)
def test_the_button_to_an_unread_message_says_chat(
    server: str, browser: Any, lang: str, plain: str, chat: str
) -> None:
    from websockets.sync.client import connect

    body = {"game": "napoleon", "games": 1, "players": 5}
    body["seats"] = ["open", "open", "heuristic", "heuristic", "heuristic"]
    res = post(f"{server}/api/tables", body)
    table_id, host = str(res["table"]["id"]), str(res["host_token"])
    page = new_page(browser, PHONE, lang, has_touch=True, is_mobile=True)
    page.goto(f"{server}/t/{table_id}")
    page.wait_for_function("() => !!window.torampu?.snapshot")
    page.fill("#player-name", "Sakura")
    page.click("[data-take='1']")
    page.wait_for_selector(".seat-row.me[data-seat='1']")
    yuki = post(f"{server}/api/tables/{table_id}/join", {"name": "Yuki", "seat": 0})["token"]
    post(f"{server}/api/tables/{table_id}/start", {}, host)
    page.wait_for_selector("#side-jump")
    jump = page.locator("#side-jump")
    assert jump.inner_text().strip() == plain, jump.inner_text()
    ws_url = server.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "token": yuki}))
        ws.send(json.dumps({"type": "chat", "text": "ナイス！"}))
        page.wait_for_function("() => document.querySelector('#jump-unread')?.textContent === '1'")
    words = jump.evaluate(
        "(b) => { const c = b.cloneNode(true); c.querySelector('#jump-unread').remove();"
        " return c.textContent.trim(); }"
    )
    assert words == chat, words
    page.screenshot(path=str(SHOTS / f"review54-chat-jump-{lang}.png"))
    page.click("#side-jump")
    page.wait_for_function("() => document.querySelector('#chat').open")
    # read, the button is the scores' again
    page.wait_for_function(
        f"() => !document.querySelector('#jump-unread')"
        f" && document.querySelector('#side-jump')?.textContent.trim() === {json.dumps(plain)}"
    )
    assert not problems(page), problems(page)


def test_the_form_says_open_seats_may_be_filled_with_bots_at_the_start(
    server: str, browser: Any
) -> None:
    """A fifty-fourth review: to play with one friend and three bots, a host set three seat
    menus by hand — nothing said the table's page fills the seats still open with bots at the
    start. The seats' box says so, in both languages."""
    for lang, words in (("ja", "CPUで埋められます"), ("en", "fills those still open with bots")):
        page = new_page(browser, {"width": 1366, "height": 768}, lang)
        page.goto(f"{server}/")
        page.wait_for_selector("#create-form .seats-field #seats-note")
        note = page.inner_text("#seats-note")
        assert words in note, note
        assert page.locator("#seats-note").is_visible()
        assert not problems(page), problems(page)
