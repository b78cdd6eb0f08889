"""A twelfth review's three things the felt and the log did not say, in a real Chromium.

(a) Napoleon: the adjutant card (副官指定札) is named in the felt's corner chip once it is
called, beside the trump and the contract ("切り札♥ · 宣言12♥ · 副官 ♠A"): only the side panel
said it, below the table on a phone. (b) Nap: the contract ("Misère", "Four", "Nap") is in the
chip for the whole of the play, as Napoleon's is, with no trump in a misère. (c) Daifugo's log,
newest first: a ruling such as the flush ("everyone passed: the table is flushed, Ren leads")
is a note indented under the entry that caused it, smaller, on a rule, with a dashed line above
that entry; it was a line like an entry under "Sora Pass", read as an older entry of its own.

Each is tested on the real page at a player's turn and with the page's own modules drawing a
crafted view, in English and in Japanese. Screenshots go to ``artifacts/web/``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import chromium, new_page, post, require_chromium, serve

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "web"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("review12-a-data"), 0.01, 0.0) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as b:
        yield b


def _table(base: str, game: str, players: int) -> dict[str, Any]:
    """A started table: seat 0 taken by a person ("あき"), the others heuristic bots."""
    seats = ["open"] + ["bot:heuristic"] * (players - 1)
    made = post(f"{base}/api/tables", {"game": game, "players": players, "seats": seats})
    tid, host = made["table"]["id"], made["host_token"]
    joined = post(f"{base}/api/tables/{tid}/join", {"name": "あき", "seat": 0})
    post(f"{base}/api/tables/{tid}/start", {}, host)
    return {"id": tid, "token": joined["token"]}


def _open(browser: Any, base: str, tb: dict[str, Any], viewport: dict[str, int], lang: str) -> Any:
    init = (
        f"localStorage.setItem('torampu.seats', JSON.stringify({{'{tb['id']}': "
        f"{{seat: 0, token: '{tb['token']}'}}}}));"
    )
    page = new_page(browser, viewport, lang, init=init, device_scale_factor=3)
    page.goto(f"{base}/t/{tb['id']}")
    page.wait_for_selector("#felt [data-seat='0']")
    return page


def _first_turn_in_play(page: Any) -> dict[str, Any]:
    """Pass (or the first legal move) at each turn of this seat until its first turn in the
    play: the view then."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "this seat's turn in the play did not come"
        status = page.locator("#status")
        if status.get_attribute("data-my-turn") != "1":
            page.wait_for_timeout(40)
            continue
        view = page.evaluate("window.torampu.snapshot.view")
        if view["phase"] == "play":
            return dict(view)
        before = status.get_attribute("data-version")
        passes = page.locator('#actions [data-action="pass"]')
        (passes if passes.count() else page.locator("#actions [data-action]")).first.click()
        page.wait_for_function(
            "v => document.querySelector('#status')?.dataset.version !== v", arg=before
        )


def _chip_at_first_turn(
    browser: Any, base: str, game: str, players: int, viewport: dict[str, int], lang: str
) -> tuple[Any, dict[str, Any], str]:
    """A table of ``game`` opened at seat 0, played up to its first turn in the play: the page,
    the view then and the felt's chip as read."""
    page = _open(browser, base, _table(base, game, players), viewport, lang)
    view = _first_turn_in_play(page)
    return page, view, " ".join(page.locator("#felt #trump-chip").text_content().split())


def _problems(page: Any) -> list[str]:
    return [*page.errors, *page.csp]


# A crafted view drawn by the page's own renderFelt into a felt on the page; the chip's text
# and whether its adjutant card is drawn red.
CHIP = r"""async (view) => {
  const g = await import('/static/game.js');
  const table = {seats: [...Array(view.players).keys()].map((s) =>
    s ? {seat: s, kind: 'bot', bot: 'heuristic'} : {seat: 0, kind: 'human', name: 'Aki'})};
  const felt = document.createElement('div');
  felt.id = 'crafted-felt';
  document.querySelector('#crafted-felt')?.remove();
  document.body.prepend(felt);
  g.renderFelt(felt, view, {table, mySeat: 0});
  const chip = felt.querySelector('#trump-chip');
  return {text: chip ? chip.textContent.replace(/\s+/g, ' ').trim() : null,
          red: !!chip?.querySelector('#chip-adjutant .ct.red')};
}"""

NAPOLEON = {
    "game": "napoleon",
    "players": 5,
    "phase": "play",
    "hand_sizes": [10, 10, 10, 10, 10],
    "to_play": 0,
    "napoleon": 1,
    "contract": "12H",
    "trump": "H",
    "trick": [],
    "tricks": [],
    "tricks_won": [0, 0, 0, 0, 0],
    "adjutant_known": False,
}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_napoleon_s_trump_chip_names_the_adjutant_card(
    server: str, browser: Any, lang: str
) -> None:
    """At this seat's first turn in the play (it passed the auction) the chip names the trump,
    the contract and the adjutant card the Napoleon called, as ♠A is written elsewhere; the
    page's renderFelt writes a red card red and no adjutant before it is called."""
    viewport = PHONE if lang == "ja" else LAPTOP
    page, view, chip = _chip_at_first_turn(browser, server, "napoleon", 5, viewport, lang)
    card = page.evaluate(
        "c => import('/static/cards.js').then(m => m.cardText(c))", view["adjutant_card"]
    )
    word = {"ja": ("切り札", "宣言", "副官"), "en": ("Trump", "Contract", "Adjutant")}[lang]
    assert chip.startswith(word[0]) and f"{word[1]} " in chip, chip
    assert chip.endswith(f"· {word[2]} {card}"), (chip, view["adjutant_card"])
    page.screenshot(path=str(SHOTS / f"review12-napoleon-adjutant-chip-{lang}.png"))
    drawn = page.evaluate(CHIP, {**NAPOLEON, "adjutant_card": "AH"})
    want = {"ja": "切り札 · 宣言 12 · 副官 ♥A", "en": "Trump · Contract 12 · Adjutant ♥A"}[lang]
    # (the suits are pictures: no text of their own)
    assert drawn == {"text": want, "red": True}, drawn
    drawn = page.evaluate(CHIP, {**NAPOLEON, "adjutant_card": "AS"})
    assert drawn["text"].endswith(f"{word[2]} ♠A") and not drawn["red"], drawn
    drawn = page.evaluate(CHIP, {**NAPOLEON, "adjutant_card": None})
    assert word[2] not in drawn["text"], drawn
    # a no-trump contract says so itself ("Trump no trump · Contract 16NT" read it twice)
    drawn = page.evaluate(
        CHIP, {**NAPOLEON, "contract": "16N", "trump": "N", "adjutant_card": "AH"}
    )
    assert drawn["text"].startswith(f"{word[1]} 16") and word[0] not in drawn["text"], drawn
    assert not _problems(page), _problems(page)


NAP = {
    "game": "nap",
    "players": 4,
    "phase": "play",
    "hand_sizes": [5, 5, 5, 5],
    "to_play": 0,
    "declarer": 1,
    "trick": [],
    "tricks": [],
    "tricks_won": [0, 0, 0, 0],
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_nap_s_trump_chip_names_the_contract_for_the_whole_play(
    server: str, browser: Any, lang: str
) -> None:
    """At this seat's first turn in the play the chip names the contract ("Contract Four"), with
    the trump once the first lead has set it; a misère has the chip with its contract and "no
    trump"; the contract is there before the first lead too."""
    viewport = LAPTOP if lang == "en" else PHONE
    page, view, chip = _chip_at_first_turn(browser, server, "nap", 4, viewport, lang)
    name = page.evaluate(
        "k => import('/static/i18n.js').then(m => m.t('nap_' + k))", view["contract"]
    )
    word = {"en": ("Trump", "Contract"), "ja": ("切り札", "宣言")}[lang]
    assert f"{word[1]} {name}" in chip, (chip, view["contract"])
    assert chip.startswith(word[0]) == bool(view["trump"]), (chip, view["trump"])
    page.screenshot(path=str(SHOTS / f"review12-nap-contract-chip-{lang}.png"))
    # (a misère says it has no trump: "Contract Misère" alone left it unsaid — a 52nd review)
    misere = {
        "en": "no trump · Contract Misère",
        "ja": "ノートランプ · 宣言 ミゼール",
    }[lang]
    assert page.evaluate(CHIP, {**NAP, "contract": "misere", "trump": None})["text"] == misere
    four = {"en": "Trump · Contract Four", "ja": "切り札 · 宣言 フォー (4)"}[lang]
    assert page.evaluate(CHIP, {**NAP, "contract": "four", "trump": "S"})["text"] == four
    before = page.evaluate(CHIP, {**NAP, "contract": "nap", "trump": None})["text"]
    assert before == {"en": "Contract Nap", "ja": "宣言 ナップ"}[lang], before
    assert not _problems(page), _problems(page)


# Daifugo's log panel drawn by the page's own sidePanels from a crafted view: Mina plays ♦10,
# Sora and Yui pass (Yui's pass flushes the table: everyone passed), Ren... leads ♠Q. Each
# entry's text, its note's, and where the note sits against its entry.
LOG = """async () => {
  const p = await import('/static/panels.js');
  const table = {seats: ['Aki', 'Mina', 'Sora', 'Ren'].map((name, seat) =>
    ({seat, kind: 'human', name}))};
  const flush = {code: 'flush', en: 'everyone passed: the table is flushed, seat 3 leads',
    ja: '全員パス: 場が流れ、3番席から', seats: {p: 3}};
  const view = {game: 'daifugo', players: 4, phase: 'play', hand_sizes: [5, 5, 5, 5],
    seating: [0, 1, 2, 3], direction: 1, out: [], table: null, to_play: 0,
    log: [{seat: 1, action: 'play TD'}, {seat: 0, action: 'pass'},
          {seat: 2, action: 'pass', why: [flush]}, {seat: 3, action: 'play QS'}]};
  document.querySelector('#crafted-side')?.remove();
  const side = document.createElement('div');
  side.id = 'crafted-side';
  side.className = 'side-col';
  side.append(...p.sidePanels(view, {table, mySeat: 0}));
  document.body.prepend(side);
  const box = (e) => e.getBoundingClientRect();
  const size = (e) => parseFloat(getComputedStyle(e).fontSize);
  return [...side.querySelectorAll('ul.log > li')].map((li) => {
    const note = li.querySelector('.why-text'); // (the ruling's text, before and after)
    const entry = li.querySelector('.who');
    return {
      entry: li.textContent.slice(0, li.textContent.length - (note?.textContent.length ?? 0)),
      note: note?.textContent ?? null,
      indent: note ? box(note).left - box(entry).left : null,
      smaller: note ? size(note) < size(entry) : null,
      rule: note ? getComputedStyle(note).borderLeftStyle : null,
      divider: getComputedStyle(li).borderTopStyle,
    };
  });
}"""


@pytest.mark.parametrize(("lang", "viewport"), [("en", PHONE), ("ja", LAPTOP)])
def test_daifugo_s_log_writes_the_flush_under_the_pass_that_caused_it(
    server: str, browser: Any, lang: str, viewport: dict[str, int]
) -> None:
    """Newest first: "Ren ♠Q", then — below a dashed line — "Sora Pass" with the flush's note
    indented under it, smaller and on a rule of its own; the older entries as they were."""
    page = new_page(browser, viewport, lang, device_scale_factor=3)
    page.goto(f"{server}/")
    page.wait_for_selector("main")
    rows = page.evaluate(LOG)
    note = {
        "en": "everyone passed: the table is flushed, Ren leads",
        "ja": "全員パス: 場が流れ、Renから",
    }[lang]
    pass_, play = {"en": ("Pass", "Play "), "ja": ("パス", "出す ")}[lang]
    entries = [(r["entry"], r["note"]) for r in rows]
    assert entries == [
        (f"Ren{play}♠Q", None),
        (f"Sora{pass_}", note),
        (f"Aki{pass_}", None),
        (f"Mina{play}♦10", None),
    ], entries
    flushed = rows[1]
    assert flushed["indent"] >= 10 and flushed["smaller"] and flushed["rule"] == "solid", flushed
    assert flushed["divider"] == "dashed", flushed
    assert [r["divider"] for r in rows[2:]] == ["solid", "solid"], rows
    page.locator("#crafted-side #log").screenshot(
        path=str(SHOTS / f"review12-daifugo-log-{lang}.png")
    )
    assert not _problems(page), _problems(page)


def test_hell_s_chip_over_the_finished_deal_counts_that_deal(server: str, browser: Any) -> None:
    """A twelfth and a thirteenth review: over the finished deal's last trick, held on the felt
    as the next deal comes, Hell's chip set that deal's bids against the next deal's cards
    ("bids 6/5", "0/2 (2 short)"). It counts the finished deal's: its bids, its tricks."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    drawn = page.evaluate(
        """async () => {
      const { Motion } = await import('/static/motion.js');
      const g = await import('/static/game.js');
      const base = {game: 'hell', players: 3, phase: 'play', hand_sizes: [0, 0, 1]};
      const m = new Motion(() => {}, 60000);
      // deal 2 (2 cards) at its last trick, then deal 3 (3 cards) dealt
      m.observe({...base, cards: 2, trump: 'S', bids: [1, 0, 0], tricks_won: [1, 0, 0],
                 tricks: [{cards: [], winner: 0}], trick: [{seat: 1, card: '2S'}]});
      const last = {cards: [{seat: 1, card: '2S'}, {seat: 2, card: '3S'},
                            {seat: 0, card: 'AS'}], winner: 0};
      const between = {game: 1, last_trick: last, trump: 'S',
                       seats: {bids: [1, 0, 0], tricks_won: [2, 0, 0]}};
      const next = {...base, cards: 3, trump: 'H', phase: 'bid', bids: [null, null, null],
                    tricks_won: [0, 0, 0], tricks: [], trick: [], hand_sizes: [3, 3, 3]};
      m.observe(next, between);
      const felt = document.createElement('div');
      const table = {seats: [0, 1, 2].map((s) => ({seat: s, kind: 'bot', bot: 'heuristic'}))};
      g.renderFelt(felt, m.feltView(next), {table, mySeat: null});
      return felt.querySelector('#hell-bids')?.textContent;
    }"""
    )
    assert drawn == "1 bid on 2 tricks · underbid by 1", drawn


@pytest.mark.parametrize(("viewport", "dot"), [(PHONE, False), (LAPTOP, True)])
def test_the_contract_and_adjutant_in_the_centre_take_no_stray_dot_on_a_phone(
    server: str, browser: Any, viewport: dict[str, int], dot: bool
) -> None:
    """A twenty-fifth review: while the Napoleon discards, a phone's felt showed the contract and
    the adjutant card one above the other, the second line beginning "· 副官 ♠A". The dot stands
    between them on one line only."""
    page = new_page(browser, viewport, "ja")
    page.goto(f"{server}/")
    shown = page.evaluate(
        r"""async (view) => {
          const g = await import('/static/game.js');
          const table = {seats: [...Array(view.players).keys()].map((s) =>
            s ? {seat: s, kind: 'bot', bot: 'heuristic'} : {seat: 0, kind: 'human', name: 'Aki'})};
          const felt = document.createElement('div');
          felt.className = 'felt';
          document.body.prepend(felt);
          g.renderFelt(felt, view, {table, mySeat: 0});
          const info = felt.querySelector('.centre-info');
          const sep = info.querySelector('#centre-adjutant .sep');
          return {text: info.innerText.replace(/\s+/g, ' ').trim(),
                  dot: getComputedStyle(sep).display !== 'none'};
        }""",
        {**NAPOLEON, "phase": "exchange", "adjutant_card": "AS", "trump": "S"},
    )
    assert shown["dot"] is dot, shown
    assert ("·" in shown["text"]) is dot and "副官" in shown["text"], shown
    assert not _problems(page), _problems(page)


@pytest.mark.parametrize("game", ["hell", "napoleon"])
def test_five_at_a_laptop_s_table_the_trump_chip_meets_no_seat_box(
    server: str, browser: Any, game: str
) -> None:
    """A twenty-fifth review: with five at Hell on a 1366×650 laptop the chip ("切り札♦・宣言計
    4/3 (1超過)") ran over the top left seat's box. It ends before it, in lines if need be."""
    page, _view, chip = _chip_at_first_turn(
        browser, server, game, 5, {"width": 1366, "height": 650}, "ja"
    )
    assert chip, chip
    hits = page.evaluate(
        """() => { const a = document.querySelector('#felt #trump-chip').getBoundingClientRect();
             return [...document.querySelectorAll('#felt .seat-box')].filter((b) => {
               const r = b.getBoundingClientRect();
               return a.left < r.right && r.left < a.right && a.top < r.bottom && r.top < a.bottom;
             }).map((b) => b.dataset.seat); }"""
    )
    assert not hits, hits
    # its parts a line each, no dot left hanging at a line's end (a thirty-third review)
    dots = page.evaluate(
        "() => [...document.querySelectorAll('#trump-chip .sep')]"
        ".filter((e) => getComputedStyle(e).display !== 'none').length"
    )
    assert dots == 0
    assert not _problems(page), _problems(page)
