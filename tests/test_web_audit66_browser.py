"""A sixty-sixth audit, in a real Chromium through Playwright: what a stored setting or a long
name does to the page.

- A stored language that is no language but a name every object has ("toString", "__proto__":
  any script of the origin, or a browser extension, can write it) passed `TEXTS[current]` as
  the built-in, and every text `pick()`ed from the server read "function toString() { [native
  code] }" (the rules' descriptions). Only the page's own languages are taken.
- A 40-letter name with no break ("WWWW…") in the turn timer's "… has lost the connection: a
  bot plays for them in 53 s" ran off a phone's screen, over the page's right edge; as the
  winner, the result panel's "Winner: WWWW…" ran past the panel's edge; in a replay, the
  "View as" list (as wide as its longest name) made a phone's page 690 px wide, and the last
  step's line of points ran past its box.

Skipped when /usr/bin/chromium is missing outside CI (a failure in CI).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import (
    chromium,
    close_pages,
    get,
    new_page,
    post,
    problems,
    require_chromium,
    serve,
)

PHONE = {"width": 390, "height": 800}
LAPTOP = {"width": 1366, "height": 768}

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("audit66-data"), 0.01) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b
        close_pages()


@pytest.mark.parametrize("stored", ["toString", "__proto__", "constructor"])
def test_a_stored_language_that_is_no_language_is_english(
    server: str, browser: Any, stored: str
) -> None:
    page = new_page(browser, LAPTOP, stored)
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    page.evaluate("document.querySelectorAll('details').forEach((d) => (d.open = true))")
    got = page.evaluate(
        """async () => {
          const i = await import('/static/i18n.js');
          return [i.lang(), i.pick({en: 'EN', ja: 'JA'}), document.documentElement.lang,
            document.body.innerText];
        }"""
    )
    assert got[:3] == ["en", "EN", "en"], got[:3]
    assert "native code" not in got[3] and "[object Object]" not in got[3]
    assert not problems(page), problems(page)


@pytest.mark.parametrize(
    ("cls", "key", "params"),
    [
        ("turn-timer", "sc_awayIn", {"s": 53}),
        ("between-winner", "sc_winner", {}),
    ],
)
def test_a_long_unbroken_name_stays_on_a_phone_screen(
    server: str, browser: Any, cls: str, key: str, params: dict[str, Any]
) -> None:
    page = new_page(browser, PHONE)
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    # the line as the page writes it for a player of a 40-letter name (the style is the
    # page's own: style.css)
    width = page.evaluate(
        """async ([cls, key, params]) => {
          const {t} = await import('/static/i18n.js');
          const el = document.createElement(cls === 'turn-timer' ? 'div' : 'p');
          el.className = cls;
          const name = 'W'.repeat(40);
          el.textContent = t(key, {...params, name, who: name, names: name});
          document.querySelector('main').prepend(el);
          return [el.textContent, el.scrollWidth, el.clientWidth,
            document.documentElement.scrollWidth];
        }""",
        [cls, key, params],
    )
    assert "W" * 40 in width[0], width
    assert width[1] <= width[2] and width[3] <= PHONE["width"], width
    assert not problems(page), problems(page)


def test_a_replay_of_long_unbroken_names_stays_on_a_phone_screen(
    tmp_path: Path, browser: Any
) -> None:
    # (the player away: a bot plays their cards soon, and the deal is over in seconds)
    with serve(tmp_path / "data", 0.01, 0.0, "--away-timeout", "0.3") as base:
        made = post(
            f"{base}/api/tables",
            {
                "game": "hell",
                "players": 3,
                "games": 1,
                "seats": ["open", "bot:random", "bot:random"],
            },
        )
        tid, host = made["table"]["id"], made["host_token"]
        post(f"{base}/api/tables/{tid}/join", {"name": "W" * 40})
        post(f"{base}/api/tables/{tid}/start", {}, host)
        # (watched: the table's clock runs, and the absent player's turns go to a bot)
        page = new_page(browser, PHONE)
        page.goto(f"{base}/t/{tid}")
        deadline = time.monotonic() + 60
        while get(f"{base}/api/tables/{tid}")["status"] != "over":
            assert time.monotonic() < deadline, "the deal never ended"
            time.sleep(0.3)
        page.goto(f"{base}/t/{tid}/replay/0")
        page.wait_for_selector("#replay-seat")
        page.fill("#replay-slider", "1000")  # (the last step: the deal's points)
        page.wait_for_selector("#replay-points")
        widths = page.evaluate(
            """() => [document.documentElement.scrollWidth,
              ...['#replay-seat', '#status'].map((s) => {
                const el = document.querySelector(s);
                return [el.getBoundingClientRect().right, el.scrollWidth - el.clientWidth];
              })]"""
        )
        wide = page.evaluate(
            """() => [...document.querySelectorAll('body *')]
              .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
              .map((e) => `${e.tagName}#${e.id}.${e.className}`)"""
        )
        assert widths[0] <= PHONE["width"], (widths, wide)
        assert all(r <= PHONE["width"] and over <= 1 for r, over in widths[1:]), widths
        assert not problems(page), problems(page)
