"""A fifty-fifth review, in a real Chromium through Playwright: a Napoleon veteran's local rules
and a keyboard player's ears.

- The box between Napoleon's games gave "−2" to the Napoleon and "+1" to each ally with no rule
  saying why (Hell's box says its own); the scoring of the table is said there (not in the side
  panel: two lines there put the standings below the fold), in both languages.
- With the adjutant named after the exchange, the picker offered the cards the Napoleon had
  just discarded ("ジョーカー", "オールマイティ") as usual calls, unmarked — named, they make a
  lone Napoleon. They are marked as discarded, faded, and not offered.
- A screen reader heard a game's result as one run of words: "Declarer Kiko Contract Three
  Result Made (3 tricks taken)Made before the end". Each label and value is a sentence, and a
  line drawn on its own is one.

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
    with serve(tmp_path_factory.mktemp("review55-data"), 0.01) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as b:
        yield b
        close_pages()


def _napoleon_table(server: str, browser: Any, lang: str, rules: dict[str, Any]) -> Any:
    """A 5-player Napoleon table of one game with these rules, seat 0 this page's, the others
    bots, started."""
    body: dict[str, Any] = {"game": "napoleon", "games": 1, "players": 5, "rules": rules}
    body["seats"] = ["open", "heuristic", "heuristic", "heuristic", "heuristic"]
    res = post(f"{server}/api/tables", body)
    table_id, host = str(res["table"]["id"]), str(res["host_token"])
    page = new_page(browser, LAPTOP, lang)
    page.goto(f"{server}/t/{table_id}")
    page.wait_for_function("() => !!window.torampu?.snapshot")
    page.fill("#player-name", "Aki")
    page.click("[data-take='0']")
    page.wait_for_selector(".seat-row.me[data-seat='0']")
    post(f"{server}/api/tables/{table_id}/start", {}, host)
    page.wait_for_selector("#status[data-my-turn]", state="attached")
    return page


def _my_turn(page: Any, deadline: float) -> dict[str, Any] | None:
    """The snapshot at this seat's next turn, or None once the game (the match) is over."""
    while True:
        snap = page.evaluate("window.torampu.snapshot")
        assert time.monotonic() < deadline, (
            "no turn of this seat nor the game's end: "
            f"{[snap['view'].get(k) for k in ('phase', 'to_play', 'choose')]} {snap.get('legal')}"
            f" {snap.get('between')} {snap.get('table', {}).get('status')}"
        )
        if snap.get("between") or snap["table"].get("status") == "over":
            return None
        if page.locator("#status").get_attribute("data-my-turn") == "1" and snap.get("legal"):
            return dict(snap)
        page.wait_for_timeout(40)


def _act(page: Any, raw: str) -> None:
    before = page.locator("#status").get_attribute("data-version")
    page.click(f"#actions [data-action='{raw}']")
    page.wait_for_function(
        "v => document.querySelector('#status')?.dataset.version !== v", arg=before
    )


@pytest.mark.parametrize(
    ("lang", "words", "spoken"),
    [
        ("ja", "ナポレオン +2 (単独なら +4)", "宣言、"),
        ("en", "Napoleon +2 (+4 alone)", "Contract:"),
    ],
)
def test_the_box_between_napoleon_s_games_says_how_it_scores(
    server: str, browser: Any, lang: str, words: str, spoken: str
) -> None:
    page = _napoleon_table(server, browser, lang, {"all_twenty": "lose"})
    deadline = time.monotonic() + 120
    while (snap := _my_turn(page, deadline)) is not None:
        legal = snap["legal"]
        if snap["view"]["phase"] == "play":
            card = next(a for a in legal if a.startswith("play ")).split()[1]
            before = page.locator("#status").get_attribute("data-version")
            page.click(f"#hand .card[data-card='{card}']")
            page.wait_for_function(
                "v => document.querySelector('#status')?.dataset.version !== v", arg=before
            )
        else:  # (seat 0 passes the auction: a bot is the Napoleon)
            _act(page, "pass" if "pass" in legal else legal[0])
    page.wait_for_selector("#between-scoring")
    said = page.inner_text("#between-scoring")
    assert words in said, said
    assert ("20枚取り" if lang == "ja" else "all 20") in said, said  # (all_twenty: lose)
    # and a screen reader hears the result as label and value, a sentence each
    page.wait_for_function("() => /\\S/.test(document.querySelector('#announce').textContent)")
    page.wait_for_timeout(200)
    heard = page.inner_text("#announce")
    assert spoken in heard, heard
    assert ".." not in heard and "。." not in heard, heard
    assert "。 " not in heard, heard  # (no space after a Japanese stop: a code review)
    page.screenshot(path=str(SHOTS / f"review55-napoleon-scoring-{lang}.png"))
    assert not problems(page), problems(page)


def test_a_result_is_heard_a_sentence_at_a_time(server: str, browser: Any) -> None:
    """A Nap result read by a screen reader: "Result Made (3 tricks taken)Made before the end"
    ran labels, values and the line beneath into one (a keyboard player's review)."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    heard = page.evaluate(
        """async () => {
      const { h, spokenText } = await import('/static/dom.js');
      const box = h('div', {}, h('dl', { class: 'kv' },
        h('dt', {}, 'Declarer'), h('dd', {}, 'Kiko'),
        h('dt', {}, 'Result'), h('dd', {}, 'Made (3 tricks taken)',
          h('span', { class: 'early-end' }, 'Made before the end: the rest was not played'))));
      document.body.append(box);
      const said = spokenText(box);
      box.remove();
      return said;
    }"""
    )
    assert heard == (
        "Declarer: Kiko. Result: Made (3 tricks taken). "
        "Made before the end: the rest was not played."
    ), heard


def test_a_stop_is_added_only_where_there_is_none(server: str, browser: Any) -> None:
    """A code review of the above: the stops were added everywhere and any stop after a stop
    dropped — a player named "Ken..." was heard "Ken.", and "成功！" then a
    line of its own "成功！。"."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    heard = page.evaluate(
        """async () => {
      const { h, spokenText } = await import('/static/dom.js');
      const out = [];
      for (const lang of ['en', 'ja']) {
        document.documentElement.lang = lang;
        const box = h('div', {}, h('dl', { class: 'kv' },
          h('dt', {}, 'Winner'), h('dd', {}, 'Ken...'), h('dt', {}, 'Bid'), h('dd', {}, '1.5')),
          h('p', {}, '成功！', h('span', { class: 'early-end' }, '早期終了')),
          h('p', {}, 'Made.', h('span', { class: 'early-end' }, 'Made before the end:')));
        document.body.append(box);
        out.push(spokenText(box));
        box.remove();
      }
      document.documentElement.lang = 'en';
      return out;
    }"""
    )
    assert heard == [
        "Winner: Ken... Bid: 1.5. 成功！ 早期終了. Made. Made before the end:",
        "Winner、Ken... Bid、1.5。成功！ 早期終了。Made. Made before the end:",
    ], heard


NAMED_FIRST = ["JK", "AS", "JS", "JC", "KS", "QS", "10S", "AH", "AD", "AC"]


def test_the_adjutant_picker_marks_the_cards_just_discarded(server: str, browser: Any) -> None:
    rules = {"jokers": 1, "adjutant_timing": "after_exchange", "reveal_discards": "all"}
    page = _napoleon_table(server, browser, "ja", rules)
    deadline = time.monotonic() + 60
    snap = _my_turn(page, deadline)
    assert snap is not None and snap["view"]["phase"] == "bid", snap
    _act(page, max((a for a in snap["legal"] if a.startswith("bid 20")), default="bid 20S"))
    snap = _my_turn(page, deadline)
    assert snap is not None and snap["view"]["phase"] == "exchange", snap["view"]["phase"]
    # the Napoleon discards the cards usually named (the strongest), as few as a hand may hold
    hand = snap["view"]["hand"]
    gone = [c for c in NAMED_FIRST if c in hand][:3]
    gone += [c for c in hand if c not in gone][: 3 - len(gone)]
    for card in gone:
        page.click(f"#hand .card[data-card='{card}']")
    page.click(".select-bar .row button.primary")
    page.wait_for_selector(".adjutant-picker")
    for card in gone:
        cell = page.locator(f".adj-card[data-action='adjutant {card}']")
        assert "discarded" in (cell.get_attribute("class") or ""), card
        assert "自分が捨てた札" in (cell.get_attribute("aria-label") or ""), card
        assert not page.locator(f".adj-quick[data-quick='adjutant {card}']").count(), card
    assert "捨てた札" in page.inner_text(".adjutant-picker > .hint")
    page.screenshot(path=str(SHOTS / "review55-adjutant-discarded.png"))
    assert not problems(page), problems(page)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "alone (♠A named: the Napoleon's own card)"),
        ("ja", "単独 (指定札♠Aはナポレオン自身の札)"),
    ],
)
def test_a_result_alone_by_the_card_named_says_which_card(
    server: str, browser: Any, lang: str, said: str
) -> None:
    """The review's fourth point: a Napoleon who named a card of their own (in the discards)
    played alone, and the result said only "副官: 単独" — nothing of the card or why."""
    page = new_page(browser, {"width": 1280, "height": 800}, lang)
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    out = page.evaluate(
        """async () => {
          const { resultSummary } = await import('/static/panels.js');
          const table = { seats: [0, 1, 2, 3, 4].map((i) => ({ kind: 'human', name: 'P' + i })) };
          const d = { napoleon: 0, contract: '13S', alone: true, alone_declared: false,
                      adjutant: 0, adjutant_card: 'AS', army_honors: 9 };
          const chosen = { ...d, alone_declared: true, adjutant_card: null };
          return [resultSummary(d, 'napoleon', table, false).textContent,
                  resultSummary(chosen, 'napoleon', table, false).textContent];
        }"""
    )
    assert said in out[0].replace("\u2660", "♠"), out
    assert "named" not in out[1] and "指定札" not in out[1], out  # (alone by choice: as before)
    assert not problems(page), problems(page)
