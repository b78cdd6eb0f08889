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
