"""A fifty-second review, in a real Chromium through Playwright: a Nap misère says it has no trump.

Nap by keyboard on a laptop: a misère won the auction and the page said nothing of trumps — the
info panel's "Trump" row read "–", as it does before any contract's first lead, the chip in the
felt's corner "Contract Misère" alone, while a Three's felt said "trumps: the suit of the first
lead". A misère is played without trumps: the chip and the row say "no trump".

Skipped when /usr/bin/chromium is missing outside CI (a failure in CI).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import chromium, close_pages, new_page, problems, require_chromium, serve

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "web"
LAPTOP = {"width": 1366, "height": 768}

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("review52-data"), 0.01) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as b:
        yield b
        close_pages()


DRAW = """async ([contract, trump]) => {
  const g = await import('/static/game.js');
  const p = await import('/static/panels.js');
  const table = {game: 'nap', seats: [0, 1, 2].map((s) => ({seat: s, kind: 'bot', bot: 'random'}))};
  const view = {game: 'nap', players: 3, phase: 'play', to_play: 0, declarer: 0, dealer: 2,
    contract, trump, hand: ['2S', '4S', '7S', 'TH', '2H'], hand_sizes: [5, 5, 5], trick: [],
    tricks: [], tricks_won: [0, 0, 0], bids: [[1, 'pass'], [2, 'pass'], [0, contract]],
    legal_actions: []};
  const ctx = {table, mySeat: 0, live: true, legal: [], act: () => {}, clear: () => {},
    onCard: () => {}, finished: [], tableId: 'x'};
  const felt = document.createElement('div');
  document.body.append(felt);
  g.renderFelt(felt, view, ctx);
  const chip = felt.querySelector('.trump-chip')?.textContent ?? null;
  felt.remove();
  const side = document.createElement('div');
  side.append(...[p.sidePanels(view, ctx)].flat(9).filter(Boolean));
  const row = [...side.querySelectorAll('dt, th')].find((d) => d.textContent.trim() === 'Trump');
  return [chip, row?.nextElementSibling?.textContent ?? null];
}"""


def test_a_nap_misere_says_it_is_played_without_trumps(server: str, browser: Any) -> None:
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    chip, row = page.evaluate(DRAW, ["misere", None])
    assert chip and "no trump" in chip and "Misère" in chip, chip
    assert row == "no trump", row
    # a Three before its first lead: no trump yet, not "no trump" (the felt says the lead sets it)
    chip, row = page.evaluate(DRAW, ["three", None])
    assert chip and "no trump" not in chip, chip
    assert row == "–", row
    # (and once the lead set it, its suit, drawn as a symbol with no text)
    chip, row = page.evaluate(DRAW, ["three", "S"])
    assert chip and "no trump" not in chip and row not in (None, "–", "no trump"), (chip, row)
    assert not problems(page), problems(page)


def test_the_bids_and_seats_are_drawn_again_for_a_new_size(server: str, browser: Any) -> None:
    """Found by the session's CI: the felt's seats and Napoleon's bids are drawn for the size
    they were drawn at (a phone's number-then-suit picker, a laptop's grid), and a table waiting
    on the person's bid sends nothing that would draw them again — a laptop window narrowed and
    widened, or a phone turned, kept the other size's bids. (A snapshot sent again every 1.7 s
    by an idle table used to redraw them; it is sent no more.) A crossing of those sizes
    draws the table again."""
    from test_web_polish_browser import _open, _table, _wait_my_turn

    tb = _table(server, "napoleon", "classic", 5)
    page = _open(browser, server, tb, LAPTOP, "en")
    assert _wait_my_turn(page) == "bid"
    assert page.locator("#actions .bid-table.by-suit").count() == 1
    box = "() => document.querySelector('#felt [data-seat=\"1\"]').style.left"
    wide = page.evaluate(box)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_selector("#bid-picker", timeout=3000)
    assert page.evaluate(box) != wide  # (the seats placed for a phone's felt)
    page.set_viewport_size(LAPTOP)
    page.wait_for_selector("#actions .bid-table.by-suit", timeout=3000)
    assert page.locator("#bid-picker").count() == 0
    assert page.evaluate(box) == wide
    assert not problems(page), problems(page)


def test_enter_in_the_name_box_plays(server: str, browser: Any) -> None:
    """The lobby's name box beside "Quick play": Enter did nothing (a fifty-second review); it
    plays as the button does — but not the Enter that ends a Japanese input method's
    composition, which only confirms the name typed."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-name")
    page.fill("#quick-name", "Ren")
    # an input method's Enter (composing) leaves the lobby as it was
    page.evaluate(
        """() => document.querySelector('#quick-name').dispatchEvent(new KeyboardEvent('keydown',
             {key: 'Enter', isComposing: true, bubbles: true, cancelable: true}))"""
    )
    page.wait_for_timeout(300)
    assert "/t/" not in page.url
    page.focus("#quick-name")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => window.torampu?.snapshot?.table?.status === 'playing'")
    snap = page.evaluate("window.torampu.snapshot")
    assert snap["seat"] == 0 and snap["table"]["seats"][0]["name"] == "Ren"
    assert not problems(page), problems(page)
