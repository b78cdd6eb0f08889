"""A fifty-third review, in a real Chromium through Playwright: an 11-back says which cards win.

Daifugo with revolution, 8-cut, 11-back and locks on a tablet in Japanese: a revolution's chip
read "革命中 · 小さい数字ほど強い", but an 11-back's two chips "イレブンバック中" and "強弱逆転中"
said nothing of which cards now win, and an 11-back over a revolution — the order the usual one
again for the trick — showed "革命中" and "イレブンバック中" alone, where "革命中" reads "small
cards win". The 11-back's chip says it, as the revolution's does: "イレブンバック中 · 小さい数字
ほど強い", or over a revolution "… · 大きい数字ほど強い" (said short on a narrow felt).

Skipped when /usr/bin/chromium is missing outside CI (a failure in CI).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import (
    chosen_game,
    chromium,
    close_pages,
    get,
    new_page,
    post,
    problems,
    require_chromium,
    serve,
)

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "web"
TABLET = {"width": 1024, "height": 768}

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("review53-data"), 0.01) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as b:
        yield b
        close_pages()


CHIPS = """async () => {
  const g = await import('/static/game.js');
  const words = (e, drop) => { const c = e.cloneNode(true);
    c.querySelectorAll(drop).forEach((n) => n.remove()); return c.textContent; };
  return [
    {eleven_back: true, reversed: true},  // an 11-back alone
    {revolution: true, eleven_back: true, reversed: false},  // over a revolution
    {revolution: true, reversed: true},  // a revolution alone (as it was)
  ].map((v) => g.daifugoFlags(v).map((e) => [words(e, '.short'), words(e, '.long')]));
}"""
"""Each view's chips, as [whole words, short words] (a narrow felt shows the short)."""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_an_eleven_back_says_which_cards_win(server: str, browser: Any, lang: str) -> None:
    page = new_page(browser, TABLET, lang)
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    alone, over, revolution = page.evaluate(CHIPS)
    if lang == "ja":
        assert alone == [["イレブンバック中 · 小さい数字ほど強い", "11バック · 小が強い"]], alone
        assert over == [
            ["革命中", "革命中"],
            ["イレブンバック中 · 大きい数字ほど強い", "11バック · 大が強い"],
        ], over
        assert revolution == [["革命中 · 小さい数字ほど強い", "革命中 · 小が強い"]], revolution
    else:
        whole = "11-back (イレブンバック) · lower cards win"
        assert alone == [[whole, "11-back · low wins"]], alone
        assert over[1] == ["11-back (イレブンバック) · higher cards win", "11-back · high wins"]
        assert len(over) == 2 and "lower" not in over[0][0], over
    assert not problems(page), problems(page)


PARTS = """() => [...document.querySelectorAll('#felt .flag')]
  .filter((e) => e.getBoundingClientRect().width > 0)
  .map((e) => [e.innerText.replace(/\\n/g, '/'), [...e.querySelectorAll('.part')]
    .filter((p) => p.getBoundingClientRect().width > 0)
    .map((p) => p.getBoundingClientRect().height
      > 1.6 * parseFloat(getComputedStyle(p).lineHeight || '16'))
    .some(Boolean)])"""
"""Each chip in the felt: its words as the lines show them, and whether a part of it wrapped."""


def test_the_chips_of_five_on_a_tablet_break_only_between_their_parts(
    server: str, browser: Any
) -> None:
    """At five on a 1024×768 tablet the corner's chips are 18% of the felt wide: "革命中 ·
    小さい数字ほど強" wrapped where the font chose and left "い" alone on a third line. There
    they say their short words, and break between their parts."""
    from test_web_polish_browser import _hand, _held_snapshot, _open, _table

    tb = _table(server, "daifugo", "standard", 5)
    page = _open(browser, server, tb, TABLET, "ja", touch=True)
    snap = _held_snapshot(page)
    shown = []
    for flags in (
        {"revolution": True, "reversed": True},
        {"eleven_back": True, "reversed": True, "lock": {"suits": ["C"], "strict": False}},
        {"revolution": True, "eleven_back": True, "reversed": False},
    ):
        view = snap["view"]
        view.update({"eleven_back": False, "reversed": False, "lock": None, "direction": 1})
        view.update({"revolution": False, **flags})
        view["to_play"], snap["legal"], snap["choose"] = 2, [], None
        _hand(page, snap)
        page.wait_for_selector("#daifugo-state .flag", state="attached")
        page.wait_for_timeout(100)
        shown.append(page.evaluate(PARTS))
    page.screenshot(path=str(SHOTS / "review53-five-tablet-chips.png"))
    assert shown == [
        [["革命中/·/小が強い", False]],
        [["11バック/·/小が強い", False], ["縛り ", False]],
        [["革命中", False], ["11バック/·/大が強い", False]],
    ], shown
    assert not problems(page), problems(page)


SNAPSHOTS_SEEN = """
const Socket = window.WebSocket;
window.__seen = [];
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (e) => {
      try {
        const m = JSON.parse(e.data);
        if (m.type === 'snapshot') window.__seen.push([m.table.status, m.version]);
      } catch {}
    });
  }
};
"""


def test_quick_play_starts_once_the_page_is_at_the_table(server: str, browser: Any) -> None:
    """Quick play started the game before its page had loaded: a newcomer arrived to an 8 that
    cut and two more plays already made (a fifty-third review). The page starts it once its
    socket holds the seat: the first snapshot it is sent is the waiting table, "Starting…"
    the only thing said meanwhile, then the game."""
    page = new_page(browser, TABLET, "ja", SNAPSHOTS_SEEN)
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    page.click("#pick-daifugo")
    page.click("#quick-play")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => window.torampu?.snapshot?.table?.status === 'playing'")
    seen = page.evaluate("window.__seen")
    assert seen and seen[0][0] == "waiting", seen
    assert any(status == "playing" for status, _ in seen), seen
    # (the note is taken: a reload of the page does not start anything again)
    assert page.evaluate("sessionStorage.getItem('torampu.arrive')") is None
    assert not page.locator("#start-btn").is_visible()
    assert not problems(page), problems(page)


def test_the_lobby_says_a_table_changed_its_preset_s_rules(server: str, browser: Any) -> None:
    """The lobby's list said "標準" of a Daifugo table whose host added 11-back and locks: a
    player choosing a table to join or watch could not tell (a fifty-third review). It says
    how many rules were changed, and names them on hover; a table as its preset, the name."""
    base = {"game": "daifugo", "players": 4, "seats": ["open", "heuristic", "heuristic", "open"]}
    changed = post(
        f"{server}/api/tables",
        {**base, "rules": {"preset": "standard", "eleven_back": True, "lock": True}},
    )["table"]["id"]
    plain = post(f"{server}/api/tables", {**base, "rules": "standard"})["table"]["id"]
    for lang, said, alone, words in (
        ("ja", "標準+変更2", "標準", ("イレブンバック", "縛り")),
        ("en", "Standard + 2 changes", "Standard", ("11-back", "Lock")),
    ):
        page = new_page(browser, TABLET, lang)
        page.goto(f"{server}/")
        row = page.locator(f".table-row[data-table='{changed}'] .preset")
        row.wait_for()
        assert row.inner_text() == said, row.inner_text()
        title = row.get_attribute("title") or ""
        assert all(w in title for w in words), title
        other = page.locator(f".table-row[data-table='{plain}'] .preset")
        assert other.inner_text() == alone and other.get_attribute("title") is None
        assert not problems(page), problems(page)


WORDS = """async ([legal, seats, between]) => {
  const g = await import('/static/game.js');
  const table = {game: 'daifugo', seats: seats.map((kind, s) => ({seat: s, kind, bot: 'random'}))};
  const view = {game: 'daifugo', players: 4, phase: 'play', to_play: 0, hand: ['5S', '9H'],
    hand_sizes: [2, 5, 5, 5], table: ['KD'], log: [], exchange: [], legal_actions: legal};
  const ctx = {table, mySeat: 0, live: true, legal, act: () => {}, clear: () => {},
    onCard: () => {}, finished: [], tableId: 'x', between};
  const hand = document.createElement('div');
  const actions = document.createElement('div');
  document.body.append(hand, actions);
  g.renderPlay(hand, actions, view, ctx, {selected: [], choice: null});
  const wait = actions.querySelector('#actions-wait')?.textContent ?? null;
  hand.remove();
  actions.remove();
  return [g.statusText(view, ctx), wait];
}"""


def test_the_words_say_what_the_turn_and_the_pause_hold(server: str, browser: Any) -> None:
    """A fifty-third review: with only a pass to make, the status said "カードを出すかパス" over
    the bar's "場に出せる札がありません"; and a spectator of a table of bots alone read, between
    games, "全員の準備ができたら…" where nobody there gets ready: the next game just comes."""
    page = new_page(browser, TABLET, "ja")
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    bots = ["bot", "bot", "bot", "bot"]
    status, _ = page.evaluate(WORDS, [["pass"], bots, False])
    assert status.endswith("出せる札なし: パス") and "出すかパス" not in status, status
    status, _ = page.evaluate(WORDS, [["play 6S", "pass"], bots, False])
    assert status.endswith("カードを出すかパス"), status
    _, wait = page.evaluate(WORDS, [[], bots, True])
    assert wait == "まもなく次のゲームが始まります…", wait
    _, wait = page.evaluate(WORDS, [[], ["human", *bots[1:]], True])
    assert wait == "全員の準備ができたら次のゲームが始まります…", wait


EVERY = """async () => {
  const g = await import('/static/game.js');
  const words = (e) => { const c = e.cloneNode(true);
    c.querySelectorAll('.short').forEach((n) => n.remove()); return c.textContent; };
  const out = [];
  for (const revolution of [false, true])
    for (const eleven_back of [false, true])
      for (const coup of [false, true])
        for (const told of [true, false]) {
          const v = {revolution, eleven_back, coup};
          if (told) v.reversed = revolution !== eleven_back;
          out.push([v, revolution !== eleven_back, g.daifugoFlags(v).map(words)]);
        }
  return out;
}"""
"""Every revolution, 11-back and coup together, with and without the view's ``reversed``: the
view, whether lower cards win, and the chips' whole words."""


def test_no_chip_claims_the_wrong_order(server: str, browser: Any) -> None:
    """A code review of the fifty-third: whatever a revolution (a coup's or not) and an 11-back
    make of the order, no chip says the other — nor where the view leaves ``reversed`` out (it
    was read as "not an 11-back", and an 11-back alone said "higher cards win")."""
    page = new_page(browser, TABLET, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    for view, lower, chips in page.evaluate(EVERY):
        said = " | ".join(chips)
        assert ("higher cards win" not in said) if lower else ("lower" not in said), (view, said)
        if lower:
            assert "lower cards win" in said, (view, said)
        if view["eleven_back"] and not lower:
            assert "higher cards win" in said, (view, said)
    assert not problems(page), problems(page)


ORDER = """async () => {
  const g = await import('/static/game.js');
  const table = {game: 'daifugo', seats: [0, 1, 2, 3].map((s) => ({seat: s, kind: 'bot'}))};
  const legal = ['play QH QS', 'play QS', 'play QH', 'pass'];
  const view = {game: 'daifugo', players: 4, phase: 'play', to_play: 0, hand: ['QS', 'QH', '3C'],
    hand_sizes: [3, 5, 5, 5], table: [], log: [], exchange: [], legal_actions: legal};
  const ctx = {table, mySeat: 0, live: true, legal, act: () => {}, clear: () => {},
    onCard: () => {}, finished: [], tableId: 'x'};
  const hand = document.createElement('div');
  const actions = document.createElement('div');
  document.body.append(hand, actions);
  g.renderPlay(hand, actions, view, ctx, {selected: [0, 1], choice: null});
  const got = [actions.querySelector('#select-hint .chosen')?.textContent,
    actions.querySelector('[data-action="play QH QS"]')?.textContent];
  hand.remove();
  actions.remove();
  return got;
}"""


def test_the_cards_chosen_are_said_in_the_order_the_button_names_them(
    server: str, browser: Any
) -> None:
    """A fifty-third review: the button read "出す ♥Q ♠Q" and the line above it "♠Q ♥Q" (as
    the cards were picked); where one move fits, the line says them in the button's order."""
    page = new_page(browser, TABLET, "ja")
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    chosen, button = page.evaluate(ORDER)
    assert chosen and button and button.strip().endswith(chosen.strip()), (chosen, button)


def test_quick_play_starting_says_nothing_of_a_name_to_change(server: str, browser: Any) -> None:
    """While a quick play's page said "Starting…", the toast said "You sit as Player 1: 'Change
    name' beside your seat changes it until the start" — a moment before the start that took
    it away (a code review). The page starts its game without that word; a start refused says
    why, and its Start is there."""
    page = new_page(browser, {"width": 1366, "height": 768}, "en")
    held: list[Any] = []
    page.route(
        "**/api/tables/*/start",
        lambda route, _: held.append(route) if "/t/" in page.url else route.continue_(),
    )
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    page.click("#quick-play")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => window.torampu?.snapshot?.table?.status === 'waiting'")
    page.wait_for_function(
        "() => document.querySelector('#start-btn')?.textContent === 'Starting…'"
    )
    page.wait_for_timeout(300)
    toast = page.evaluate(
        "() => { const t = document.querySelector('#toast');"
        " return t.classList.contains('show') ? t.textContent : ''; }"
    )
    assert "Change name" not in toast, toast
    assert len(held) == 1, held
    held[0].fulfill(
        status=409,
        content_type="application/json",
        body='{"error": "not now", "code": "conflict"}',
    )
    page.wait_for_function("() => !document.querySelector('#start-btn')?.disabled")
    page.wait_for_timeout(300)
    assert "Change name" not in page.locator("#toast").text_content()
    assert page.locator("#start-btn").text_content() == "Start"
    assert not problems(page), problems(page)


def test_a_first_visit_says_what_the_site_is_and_offers_the_games_first(
    tmp_path: Path, browser: Any
) -> None:
    """A fifty-third review's newcomer on a tablet: the lobby opened on an empty "テーブル一覧"
    with no line saying what the site is, and quick play's button named Napoleon with the
    game's menu below it, in the form. A line says it; the games are buttons above quick play
    (the form's menu the same choice); on one column with no table listed, that part first."""
    with serve(tmp_path / "data", 0.01) as base:
        for size, lang in (
            ({"width": 768, "height": 1024}, "ja"),
            ({"width": 390, "height": 844}, "en"),
        ):
            page = new_page(browser, size, lang)
            page.goto(f"{base}/")
            page.wait_for_selector("#game-picker")
            intro = page.inner_text("#lobby-intro")
            assert ("大富豪" if lang == "ja" else "Daifugo") in intro, intro
            page.click("#pick-daifugo")
            assert chosen_game(page) == "daifugo"
            assert page.get_attribute("#pick-daifugo", "aria-pressed") == "true"
            assert page.get_attribute("#pick-napoleon", "aria-pressed") == "false"
            assert ("大富豪" if lang == "ja" else "Daifugo") in page.inner_text("#quick-play")
            assert page.evaluate("document.activeElement.id") == "pick-daifugo"  # (kept)
            page.click("#pick-hell")
            assert page.get_attribute("#pick-hell", "aria-pressed") == "true"
            # the one choice of the game: the form has no menu of its own for it (the same
            # choice twice, a sixty-ninth session)
            assert page.locator("#create-form select[name=game]").count() == 0
            # nothing listed: the quick play part above the empty list, on a phone
            tops = page.evaluate(
                """['#create', '#tables'].map(
                     (s) => document.querySelector(s).getBoundingClientRect().top)"""
            )
            if size["width"] < 980:
                assert tops[0] < tops[1], tops
            page.screenshot(path=str(SHOTS / f"review53-first-visit-{lang}.png"))
            assert not problems(page), problems(page)


def test_the_lobby_says_no_change_of_a_preset_its_players_refine(server: str, browser: Any) -> None:
    """Napoleon's Basic shows every discard with 4 players (the preset resolves so, nobody
    chose it): the lobby's list said "基本+変更1" / "Basic + 1 change" of a 4-player table of
    it whose host changed nothing, and the rules dialog marked "Discards shown" changed (a code
    review of 664f8bc). A choice the host made is still counted."""
    base = {"game": "napoleon", "players": 4, "seats": ["open", "heuristic", "heuristic", "open"]}
    plain = post(f"{server}/api/tables", {**base, "rules": "classic"})["table"]["id"]
    chose = post(
        f"{server}/api/tables", {**base, "rules": {"preset": "classic", "reveal_discards": "none"}}
    )["table"]["id"]
    for lang, alone, said in (("ja", "基本", "基本+変更1"), ("en", "Basic", "Basic + 1 change")):
        page = new_page(browser, TABLET, lang)
        page.goto(f"{server}/")
        row = page.locator(f".table-row[data-table='{plain}'] .preset")
        row.wait_for()
        assert row.inner_text() == alone and row.get_attribute("title") is None, row.inner_text()
        assert page.locator(f".table-row[data-table='{chose}'] .preset").inner_text() == said
        assert not problems(page), problems(page)


def test_quick_play_refused_a_reserved_name_leaves_no_table(server: str, browser: Any) -> None:
    """Quick play under a name the page uses for others ("Spectator": name_reserved) made the
    table, was refused the seat and said so, and left the table waiting under "Your tables",
    open seat and bots, one more at each press (a code review of 31b9f80). The table goes."""
    page = new_page(browser, {"width": 390, "height": 844}, "en", has_touch=True, is_mobile=True)
    page.goto(f"{server}/")
    page.locator("#quick-name").fill("Spectator")

    def creates(r: Any) -> bool:
        return r.url.endswith("/api/tables") and r.request.method == "POST"

    with page.expect_response(creates) as made:
        page.locator("#quick-play").click()
    table = made.value.json()["table"]["id"]
    page.locator(".toast", has_text="what the page calls others").wait_for()
    page.wait_for_function("!document.querySelector('#quick-play').disabled")
    assert page.evaluate("localStorage.getItem('torampu.host') || '{}'") == "{}"
    with pytest.raises(Exception, match="404"):
        get(f"{server}/api/tables/{table}")
    page.reload()
    page.locator("#quick-play").wait_for()
    assert not page.locator(f".table-row[data-table='{table}']").count()
    assert page.url == f"{server}/"
    assert not problems(page), problems(page)


def test_the_rules_opened_before_the_table_notes_no_game_as_seen(server: str, browser: Any) -> None:
    """A code review: the rules dialog opened before its table was loaded stored
    ``torampu.howtoSeen.undefined``; it notes nothing then, and the game's how-to is still
    open the first time its rules are shown."""
    page = new_page(browser, TABLET, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    keys = page.evaluate(
        """async () => {
          const r = await import('/static/rules.js');
          let table = null;
          const d = new r.RulesDialog(() => table);
          await d.open();
          d.el.close();
          table = {game: 'hell', preset: null, rules: {}, seats: []};
          await d.open();
          const open = d.howtoOpen;
          d.el.close();
          return [Object.keys(localStorage).filter((k) => k.startsWith('torampu.howtoSeen')),
            open];
        }"""
    )
    assert keys == [["torampu.howtoSeen.hell"], True], keys
    assert not problems(page), problems(page)
