"""The web table as players see it (issue 20's defects), in a real Chromium through Playwright.

(a) Napoleon at 1366×650 in Japanese, the person becoming the Napoleon: in the auction, the
adjutant call, the widow exchange and trick play the hand and the action bar are inside the
viewport without scrolling; the exchange's selection message follows the selection through
select / deselect / replace / clear; no element shows raw JSON; rulings write cards as ♠8, not
8S; bots show a friendly name and a strength, never their spec. (b) Daifugo at 390×844: the
exchange of game 2 names who gives how many cards to whom, and the selection texts of the
exchange, 7渡し and 10捨て say why and to whom. (c) The share link is built from the address
the page was opened with (127.0.0.1, localhost, another host name). (d) The lobby in Japanese
shows no English option name, explanation or value. (e) Hell's score sheet on a phone scrolls
sideways with its first column sticky; hover styles only apply on hover-capable screens.

Skipped when /usr/bin/chromium is missing outside CI (a failure in CI). Screenshots go to
``artifacts/web/``.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from browser_helpers import (
    ARGS,
    CHROMIUM,
    chosen_game,
    chromium,
    get,
    new_page,
    post,
    problems,
    require_chromium,
    serve,
    wait_shown,
)

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "web"
LAPTOP = {"width": 1366, "height": 650}
PHONE = {"width": 390, "height": 844}
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])[SHDC](?![0-9A-Za-z])")
SPEC = re.compile(r"heuristic|ismcts|random")

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # a page of the share-link test opens the server by the name table.torampu.test
    more = ("--allowed-host", "table.torampu.test")
    with serve(tmp_path_factory.mktemp("polish-data"), 0.01, 0.0, *more) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as b:
        yield b


def _table(
    base: str, game: str, rules: Any, players: int, games: int = 1, **more: Any
) -> dict[str, Any]:
    """A started table: seat 0 taken by a person ("あき"), the others heuristic bots (``more``:
    more of its creation, as ``hints``)."""
    seats = ["open"] + ["bot:heuristic"] * (players - 1)
    made = post(
        f"{base}/api/tables",
        {"game": game, "rules": rules, "players": players, "seats": seats, "games": games, **more},
    )
    tid, host = made["table"]["id"], made["host_token"]
    joined = post(f"{base}/api/tables/{tid}/join", {"name": "あき", "seat": 0})
    post(f"{base}/api/tables/{tid}/start", {}, host)
    return {"id": tid, "host": host, "token": joined["token"]}


def _bots(base: str, game: str, games: int, players: int, bot: str, **body: Any) -> dict[str, Any]:
    """A started table of ``bot`` at every seat (``body``: more of its creation, as
    ``private``): its creation's answer (``table``, ``host_token``, ``invite``)."""
    made = post(
        f"{base}/api/tables",
        {"game": game, "games": games, "players": players, "seats": [bot] * players, **body},
    )
    post(f"{base}/api/tables/{made['table']['id']}/start", {}, made["host_token"])
    return dict(made)


def _until_over(base: str, made: dict[str, Any]) -> None:
    """Wait (at most a minute) for the bots' table ``made`` (see :func:`_bots`) to finish."""
    import urllib.request

    invite = {"X-Torampu-Invite": made["invite"]} if made.get("invite") else {}
    ask = urllib.request.Request(f"{base}/api/tables/{made['table']['id']}", headers=invite)
    deadline = time.monotonic() + 60
    while True:
        with urllib.request.urlopen(ask, timeout=5) as r:
            if json.loads(r.read())["status"] == "over":
                return
        assert time.monotonic() < deadline, "the bots' table did not finish"
        time.sleep(0.2)


def _open(
    browser: Any, base: str, tb: dict[str, Any], viewport: dict[str, int], lang: str, **more: Any
) -> Any:
    """``tb``'s table in a page holding seat 0 (``more``: the context's options, as ``touch``)."""
    init = (
        f"localStorage.setItem('torampu.seats', JSON.stringify({{'{tb['id']}': "
        f"{{seat: 0, token: '{tb['token']}'}}}}));"
    )
    if more.pop("touch", False):
        more.update(has_touch=True, is_mobile=True)
    page = new_page(browser, viewport, lang, init=init, **more)
    page.goto(f"{base}/t/{tb['id']}")
    page.wait_for_selector("#felt [data-seat='0']")
    return page


HELD = """(() => { const W = window.WebSocket; window.__socks = []; window.__acts = [];
window.WebSocket = class extends W { constructor(...a) { super(...a);
  window.__socks.push(this); const send = this.send.bind(this);
  this.send = (d) => { if (JSON.parse(d).type === 'act') window.__acts.push(d); send(d); };
}
set onmessage(f) { super.onmessage = (e) => { if (!window.__hold || e.ours) f(e); }; }
}; })();"""
"""The page's websockets kept (``__socks``), its moves counted (``__acts``), and while
``__hold`` is set, the server's messages held back: the test's own (``ours``) pass."""


def _held(page: Any) -> None:
    """The page opened again with its websockets in the test's hands (:data:`HELD`)."""
    page.context.add_init_script(HELD)
    page.reload()


def _hand(page: Any, snapshot: dict[str, Any]) -> None:
    """Hand the page ``snapshot`` as if the server had sent it; the server's own held back from
    here (see :func:`_held`)."""
    page.evaluate(
        "(s) => { window.__hold = true; const e = new MessageEvent('message', "
        "{data: JSON.stringify(s)}); e.ours = true; window.__socks.at(-1).dispatchEvent(e); }",
        snapshot,
    )


def _held_snapshot(page: Any, ready: str = "() => !!window.torampu?.snapshot?.view") -> Any:
    """The page opened again with its websockets held (:func:`_held`), once ``ready`` holds of
    its first snapshot: that snapshot, to change and hand back (:func:`_hand`)."""
    _held(page)
    page.wait_for_selector("#felt [data-seat='0']")
    page.wait_for_function(ready)
    return page.evaluate("() => window.torampu.snapshot")


def _pass_until(socks: Iterable[Any], done: Callable[[], bool], why: str) -> None:
    """Each of the seats' websockets ``socks`` passes as its turns come, until ``done()`` (at
    most 30 s: else fail saying ``why``)."""
    socks = list(socks)
    deadline = time.monotonic() + 30
    while not done():
        assert time.monotonic() < deadline, why
        for ws in socks:
            try:
                m = json.loads(ws.recv(timeout=0.05))
            except TimeoutError:
                continue
            if m.get("type") == "snapshot" and "pass" in (m.get("legal") or []):
                ws.send(json.dumps({"type": "act", "action": "pass", "version": m["version"]}))


def _wait_my_turn(page: Any, timeout: float = 20) -> str:
    """Wait for this seat's turn (or the end of the match); the phase, or "over"."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        over = page.evaluate(
            "(() => { const m = window.torampu?.snapshot?.view?.match;"
            " return !!m && m.games_played >= m.games; })()"
        )
        if over:
            return "over"
        status = page.locator("#status")
        if status.get_attribute("data-my-turn") == "1":
            return str(status.get_attribute("data-phase"))
        page.wait_for_timeout(40)
    raise AssertionError("this seat's turn did not come")


def _napoleon_to(page: Any, phase: str, within: float = 90) -> None:
    """Play seat 0's Napoleon turns by the keys until its turn in ``phase`` (``adjutant`` or
    ``exchange``): each bid the most (nobody outbids 20), the adjutant the first quick call."""
    until = time.monotonic() + within
    while (now := _wait_my_turn(page)) != phase:
        assert now in ("bid", "adjutant") and time.monotonic() < until, now
        before = page.locator("#status").get_attribute("data-version")
        if now == "bid":
            page.locator("#bid-picker .bid-num").last.focus()  # (the highest number)
            page.keyboard.press("Enter")
            page.locator("#bid-picker [data-action^='bid']").first.focus()
        else:
            page.locator("#actions [data-quick]").first.focus()
        page.keyboard.press("Enter")  # (a key's press sends at once)
        _after(page, before)


def _after(page: Any, before: str | None) -> None:
    page.wait_for_function(
        "v => document.querySelector('#status')?.dataset.version !== v", arg=before
    )


def _in_viewport(page: Any, where: str) -> None:
    """The hand and the action bar are fully visible, the page not scrolled."""
    box = page.evaluate(
        """() => {
          const r = (sel) => { const el = document.querySelector(sel);
            if (!el || el.hidden) return null; const b = el.getBoundingClientRect();
            return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
          return {hand: r('#hand'), actions: r('#actions'), w: innerWidth, h: innerHeight,
                  scroll: document.scrollingElement.scrollTop};
        }"""
    )
    assert box["hand"], f"{where}: the hand is shown"
    for key in ("hand", "actions"):
        b = box[key]
        if b is None:
            continue
        assert b["top"] >= 0 and b["bottom"] <= box["h"] + 0.5, f"{where}: #{key} {b} of {box}"
        assert b["left"] >= 0 and b["right"] <= box["w"] + 0.5, f"{where}: #{key} {b} of {box}"
    assert box["scroll"] == 0, f"{where}: the page scrolled"


def _no_raw(page: Any, where: str) -> None:
    text = page.locator("body").inner_text()
    assert '{"' not in text and '":' not in text, f"{where}: raw JSON on the page"
    assert page.locator("#details").count() == 0, "no raw 'other information' panel"


def _tap(card: Any) -> None:
    """Tap a hand card where it shows: cards overlap on a narrow screen, the left strip of
    each stays visible."""
    card.click(position={"x": 6, "y": 24})


NAP_RANKS = "23456789TJQKA"


def _taking_card(page: Any) -> Any:
    """The hand's legal card likeliest to take the trick at Nap (the snapshot's trick and
    trump): the strongest that beats the trick's card so far, else the weakest (kept back).
    The page draws a suit strongest first: its last legal card is its suit's lowest, which
    rarely takes a trick."""
    view = page.evaluate("window.torampu.snapshot.view")
    legal = page.eval_on_selector_all(
        '#hand .card[data-legal="1"]', "es => es.map((e) => e.dataset.card)"
    )
    trump = view.get("trump")

    def strength(card: str) -> int:
        return NAP_RANKS.index(card[:-1]) + (100 if card[-1] == trump else 0)

    def beats(card: str, top: str) -> bool:
        same = card[-1] == top[-1]
        return NAP_RANKS.index(card[:-1]) > NAP_RANKS.index(top[:-1]) if same else card[-1] == trump

    top = ""
    for played in view.get("trick") or []:
        if not top or beats(played["card"], top):
            top = played["card"]
    winners = [c for c in legal if not top or beats(c, top)]
    card = max(winners, key=strength) if winners else min(legal, key=strength)
    return page.locator(f'#hand .card[data-legal="1"][data-card="{card}"]')


def _covered_strips(page: Any) -> list[str]:
    """The hand cards whose visible strip does not get the tap (a chosen, raised card must
    not cover its neighbour). The pointer moves away first: a hovered card rises on purpose."""
    page.mouse.move(1, 1)
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('#hand .card')].filter((c) => {
              const r = c.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + 6, r.top + 24);
              return !hit || hit.closest('.card') !== c;
            }).map((c) => c.dataset.card)"""
        )
    )


def _hint(page: Any) -> tuple[str, str]:
    el = page.locator("#select-hint")
    return str(el.get_attribute("data-state")), el.inner_text().strip()


def test_every_trick_ruling_is_shown_with_suits_not_letters(server: str, browser: Any) -> None:
    """A twenty-fifth review: "♣J wins: right bower (正J; trump C)" — the page wrote a ruling's
    "(trump H)" as a suit, not "; trump C". Every ruling of the trick games, each suit, as the
    page shows it: no card code, no suit letter left."""
    from torampu.explain import MESSAGES, Reason, explain

    texts = [
        explain(Reason(code, card=9, other=12, suit=suit, extra=3), lang)
        for code in MESSAGES
        for suit in range(4)
        for lang in ("en", "ja")
    ]
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    shown = page.evaluate(
        "async (texts) => { const l = await import('/static/labels.js');"
        " return texts.map((x) => l.prettyCards(x)); }",
        texts,
    )
    letter = re.compile(r"(?<![0-9A-Za-z])[SHDC](?![0-9A-Za-z])")
    left = [(x, y) for x, y in zip(texts, shown, strict=True) if letter.search(y)]
    assert not left, left[:5]
    assert not [y for y in shown if CARD_CODE.search(y)]
    assert "(正J; trump ♣)" in " ".join(shown)


def test_a_discard_names_its_cards_as_the_panels_list_them(server: str, browser: Any) -> None:
    """A thirtieth review: the Napoleon's own discard ("Last: … discard …") named its cards in
    the move's notation, by rank (♠2 ♦3 ♥Q ♠A), where the panel lists them by suit (♠A ♠2 ♥Q
    ♦3), as the hand does."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    shown = page.evaluate(
        "async () => { const l = await import('/static/labels.js');"
        " const f = (a) => { const d = document.createElement('div');"
        " d.append(l.actionNode(a, 'napoleon')); return d.textContent; };"
        " return [f('discard 2S 3D TH QH AS JK'), f('play 3D AS')]; }"
    )
    assert shown[0].split()[1:] == ["♠A", "♠2", "♥Q", "♥10", "♦3", "Joker"], shown
    assert shown[1].split()[1:] == ["♦3", "♠A"], shown  # (a play's cards as played)


def test_a_napoleon_bidder_who_passed_before_is_told_why_they_may_bid_again(
    server: str, browser: Any
) -> None:
    """A thirty-fourth review: the turn came back to a player who had passed (the soft pass of
    the default rules), their "パス" still on the felt, and the word that a pass is not final
    only in the side panel far below — a newcomer took the table for broken. Their bid
    buttons say it. (The turn's coming back is the page's snapshot with a pass of theirs.)"""
    for _ in range(4):  # (bots before this seat may end the auction)
        page = _open(browser, server, _table(server, "napoleon", "classic", 5), PHONE, "ja")
        _held(page)
        if _wait_my_turn(page) == "bid":
            break
        page.context.close()
    else:
        raise AssertionError("the auction never came to this seat")
    assert page.locator("#pass-again-note").count() == 0
    snap = page.evaluate("window.torampu.snapshot")
    assert not snap["view"]["rules"]["pass_is_final"]
    view = {**snap["view"], "auction": [{"seat": 0, "action": "pass"}, *snap["view"]["auction"]]}
    _hand(page, {**snap, "view": view, "version": snap["version"] + 1})
    page.wait_for_selector("#pass-again-note")
    assert "また宣言できます" in page.inner_text("#pass-again-note")
    # and the suits' row stays in sight beside Pass (in the grid's first column the note widened
    # Pass to the row's width and pushed the suits off the screen: a thirty-fifth review)
    out = page.evaluate(
        """() => [...document.querySelectorAll('#actions .bid-suits .act')]
             .filter((b) => b.getBoundingClientRect().right > innerWidth).length"""
    )
    assert page.locator("#actions .bid-suits .act").count() and not out, out
    page.screenshot(path=str(SHOTS / "napoleon-pass-again-phone-ja.png"))
    assert not problems(page), problems(page)


def test_a_napoleon_alone_reads_so_on_the_felt_s_chip(server: str, browser: Any) -> None:
    """A thirty-seventh review: the Napoleon's called card came from the widow into their own
    hand — alone — and the felt's chip said "副官 ♠A" the whole game; they played hoping for an
    ally. The chip says 単独 to whoever knows it. (The play is the page's snapshot, made so.)"""
    page = _open(browser, server, _table(server, "napoleon", "classic", 5), PHONE, "ja")
    _held(page)
    page.wait_for_function("() => !!window.torampu?.snapshot?.view")
    snap = page.evaluate("window.torampu.snapshot")
    view = {
        **snap["view"],
        "phase": "play",
        "to_play": 1,
        "napoleon": 0,
        "contract": "13S",
        "trump": "S",
        "adjutant_card": "AS",
        "adjutant_known": True,
        "alone": True,
        "trick": [],
    }
    _hand(page, {**snap, "view": view, "legal": [], "version": snap["version"] + 1})
    page.wait_for_selector("#chip-adjutant")
    said = page.inner_text("#chip-adjutant")
    assert said == "副官 ♠A (単独)", said
    # and declared alone, no card called (the chip said only the contract: a 38th review)
    alone = {**view, "adjutant_card": None, "alone_declared": True}
    _hand(page, {**snap, "view": alone, "legal": [], "version": snap["version"] + 2})
    page.wait_for_function(
        "() => document.querySelector('#chip-adjutant')?.textContent === '単独 (副官なし)'"
    )
    assert not problems(page), problems(page)


def test_a_napoleon_made_by_everyone_passing_is_told_why(server: str, browser: Any) -> None:
    """A thirty-sixth review: with the house rule that makes the first bidder the Napoleon at
    12♠ when all pass (``all_pass: first_bidder_12S``), a newcomer was suddenly the Napoleon
    without a word of why. The last move's line says it."""
    from websockets.sync.client import connect

    rules = {"preset": "classic", "all_pass": "first_bidder_12S"}
    made = post(
        f"{server}/api/tables",
        {"game": "napoleon", "rules": rules, "players": 5, "seats": ["open"] * 5},
    )
    tid, host = made["table"]["id"], made["host_token"]
    tokens = [
        post(f"{server}/api/tables/{tid}/join", {"name": f"P{s}", "seat": s})["token"]
        for s in range(5)
    ]
    post(f"{server}/api/tables/{tid}/start", {}, host)
    page = _open(browser, server, {"id": tid, "token": tokens[0]}, PHONE, "ja", touch=True)
    url = server.replace("http://", "ws://") + f"/ws/tables/{tid}"
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(connect(url)) for _ in tokens]
        for ws, token in zip(socks, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
        _pass_until(  # (everyone passes)
            socks, lambda: bool(page.locator("#all-passed").count()), "the auction did not end"
        )
    said = page.inner_text("#last-move")
    suit = page.get_attribute("#all-passed [role=img]", "aria-label")
    assert "全員パス" in said and "P1がナポレオン、宣言 12" in said and suit == "スペード", (
        said,
        suit,
    )
    # whole on a phone (cut at "…このテーブルのルール…" it said neither who nor why: a
    # thirty-seventh review)
    whole = page.eval_on_selector("#last-move", "e => e.scrollWidth <= e.clientWidth + 1")
    assert whole, "the line is cut"
    assert not problems(page), problems(page)


def test_a_double_tap_on_a_card_is_one_move_when_the_turn_comes_straight_back(
    server: str, browser: Any
) -> None:
    """A thirty-third review: on a phone the player double-tapped a card that took the trick;
    their turn came straight back (to lead) and the second tap, 150 ms later, played the card
    that had slid under the finger. A tap within a moment of the page's own move is not a
    move; the turn come back is said. The turn's coming back is played here by handing the
    page its snapshot again."""
    tb = _table(server, "hell", "standard", 3, 3)
    page = _open(browser, server, tb, PHONE, "en", touch=True)
    _held(page)
    until = time.monotonic() + 60
    while (phase := _wait_my_turn(page)) != "play":
        assert phase != "over" and time.monotonic() < until, phase
        before = page.locator("#status").get_attribute("data-version")
        page.locator("#actions [data-action^='bid']").first.focus()
        page.keyboard.press("Enter")  # (a key's press sends a bid at once)
        _after(page, before)
    snap = page.evaluate("window.torampu.snapshot")
    sent = page.evaluate("window.__acts.length")  # (the bids)
    page.wait_for_timeout(500)  # (a tap just after one's bid would be a double tap's too)

    def hand() -> Any:
        return page.locator('#hand .card[data-legal="1"]').first

    def turn_back(version: int) -> None:
        # (the server's own snapshots held from here: the turn back is the test's to say)
        _hand(page, {**snap, "version": version})

    page.evaluate("window.__hold = true")
    # (the page's clock, performance.now — what times a double tap — held by the test from the
    # first tap to the second: the test's own round trips between them, a turn handed back and a
    # tap's checks, took over 450 ms on a loaded machine, and its second tap was rightly a move —
    # a flake. The finger's, as the review's, are 150 ms apart)
    page.evaluate(
        """() => { const now = performance.now.bind(performance); window.__at = now();
        performance.now = () => window.__at ?? now(); }"""
    )
    hand().tap()
    page.wait_for_function("(n) => window.__acts.length === n + 1", arg=sent)
    page.evaluate("window.__at += 150")
    turn_back(snap["version"] + 1)  # its lead, at once
    # (a click that is no PointerEvent, as older WebKit's, after a finger's press: the same)
    page.evaluate(
        """() => { const c = document.querySelector('#hand .card[data-legal="1"]');
        c.dispatchEvent(new PointerEvent('pointerdown', {pointerType: 'touch', bubbles: true}));
        c.dispatchEvent(new MouseEvent('click', {detail: 1, bubbles: true})); }"""
    )
    hand().tap()  # the double tap's second
    page.wait_for_timeout(200)
    assert page.evaluate("window.__acts.length") == sent + 1, page.evaluate("window.__acts")
    page.evaluate("window.__at = null")  # (the page's clock its own again)
    # and the turn come back is said: the status line read the same, and a screen reader heard
    # nothing of it (a thirty-third review)
    page.wait_for_function(
        "() => /Your turn/.test(document.querySelector('#announce').textContent)"
    )
    page.wait_for_timeout(400)  # and a tap a moment later is a move
    hand().tap()
    page.wait_for_function("(n) => window.__acts.length === n + 2", arg=sent)


def test_naming_the_adjutant_on_a_small_phone_shows_the_picker_s_cards_whole(
    server: str, browser: Any
) -> None:
    """A thirty-third review: at 360×740 the Napoleon's hand took two rows while the adjutant
    was named, and the picker of 52 cards above it was a 60 px strip of cut cards to scroll
    inside. While the adjutant is named the hand, only looked at, is one row. And a fifty-first:
    the picker's fourth suit (♣) lay under the panel's foot; its rows show each card's top."""
    tb = _table(server, "napoleon", "classic", 5)
    page = _open(browser, server, tb, {"width": 360, "height": 740}, "en", touch=True)
    _napoleon_to(page, "adjutant")
    page.wait_for_selector("#actions .adj-card")
    page.wait_for_timeout(300)
    laid = page.evaluate(
        """() => { const r = (e) => e.getBoundingClientRect();
        const hand = [...document.querySelectorAll('#hand .card')].map((c) => r(c).top);
        const card = r(document.querySelector('#actions .adj-card'));
        const box = r(document.querySelector('#actions'));
        const suits = [...document.querySelectorAll('#actions .adj-row')].map(r);
        return { rows: new Set(hand.map(Math.round)).size, cardH: card.height,
          shown: Math.min(card.bottom, box.bottom) - Math.max(card.top, box.top),
          below: suits.map((s) => Math.round(s.bottom - box.bottom)) }; }"""
    )
    assert laid["rows"] == 1, laid
    assert laid["shown"] >= laid["cardH"] - 1, laid  # (a card of the picker whole)
    # every suit's row in view, the clubs too: they lay 60 px under the panel's foot, under the
    # hand, with nothing to say so (a fifty-first review)
    assert len(laid["below"]) == 4 and max(laid["below"]) <= 0, laid
    assert not problems(page), problems(page)


def test_a_full_discard_on_a_small_phone_shows_its_button_and_slices_no_words(
    server: str, browser: Any
) -> None:
    """A thirty-third review: on a small phone the Napoleon's discard made whole, the turn's
    panel scrolled down to the Discard button and sliced its heading ("…discard: Ready: press
    the button to confirm") through. The button (which names the cards) comes first, its words
    below it, read from their start as the panel scrolls."""
    tb = _table(server, "napoleon", "classic", 5)
    page = _open(browser, server, tb, {"width": 360, "height": 640}, "en", touch=True)
    _napoleon_to(page, "exchange")
    until = time.monotonic() + 60
    while not page.locator(".select-bar button.primary").count():
        _tap(page.locator("#hand .card:not(.selected)").last)
        assert time.monotonic() < until
    page.wait_for_timeout(300)
    seen = page.evaluate(
        """() => { const r = (e) => e.getBoundingClientRect();
        const box = r(document.querySelector('#actions'));
        const inside = (e) => { const q = r(e);
          return q.top >= box.top - 1 && q.bottom <= box.bottom + 1; };
        return { button: inside(document.querySelector('.select-bar button.primary')),
          cut: r(document.querySelector('#select-purpose')).top < box.top - 1 }; }"""
    )
    assert seen == {"button": True, "cut": False}, seen
    # the cards left out stand back, the chosen ones out (two of twelve were a thin blue frame
    # among ten gold ones: a thirty-fifth review)
    rings = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card:not(.selected)')].map((c) =>
             [c.classList.contains('faint'), getComputedStyle(c.querySelector('svg')).boxShadow])"""
    )
    assert rings and all(faint and "231, 177, 10" not in ring for faint, ring in rings), rings
    page.screenshot(path=str(SHOTS / "napoleon-discard-chosen-phone-en.png"))
    assert not problems(page), problems(page)


def test_napoleon_as_the_napoleon_at_1366x650(server: str, browser: Any) -> None:
    tb = _table(server, "napoleon", "classic", 5)
    page = _open(browser, server, tb, LAPTOP, "ja")
    # a card's name for a screen reader is in the page's language ("3 of hearts" on the
    # Japanese page: an eleventh review)
    page.wait_for_selector("#hand .card svg")
    label = page.get_attribute("#hand .card svg", "aria-label") or ""
    assert re.fullmatch("(スペード|ハート|ダイヤ|クラブ)の.+|ジョーカー", label), label
    seen: set[str] = set()
    plays = 0
    while True:
        phase = _wait_my_turn(page)
        if phase == "over" or plays >= 4:
            break
        _in_viewport(page, phase)
        _no_raw(page, phase)
        before = page.locator("#status").get_attribute("data-version")
        if phase == "bid":
            bids = page.locator('#actions [data-action^="bid "]')
            if "bid" not in seen:
                page.screenshot(path=str(SHOTS / "polish-napoleon-bid-1366.png"))
                bids.last.click()  # the highest bid: nobody outbids 20
            else:
                page.locator('#actions [data-action="pass"]').click()
        elif phase == "adjutant":
            page.screenshot(path=str(SHOTS / "polish-napoleon-adjutant-1366.png"))
            page.locator("#actions .adjutant-picker [data-action]").first.click()
        elif phase == "exchange":
            _widow_exchange(page)
        else:
            _tap(page.locator('#hand .card[data-legal="1"]').first)
            plays += 1
        seen.add(phase)
        _after(page, before)
    assert {"bid", "adjutant", "exchange", "play"} <= seen, seen
    # the finished tricks' rulings write cards as players do
    page.wait_for_function("document.querySelectorAll('#last-trick .why-text').length > 0")
    why = page.locator("#last-trick .why-text").inner_text()
    assert not CARD_CODE.search(why) and re.search("[♠♥♦♣]", why), why
    # bots: a friendly name and a strength, never the spec
    felt = page.locator("#felt").inner_text()
    assert "CPU・普通" in felt and not SPEC.search(felt), felt
    side = page.locator("#side").inner_text()
    assert not SPEC.search(side), side
    page.screenshot(path=str(SHOTS / "polish-napoleon-play-1366.png"))
    assert not problems(page), problems(page)


def _widow_exchange(page: Any) -> None:
    """Select, deselect, replace and clear cards: the message always matches the selection."""
    page.screenshot(path=str(SHOTS / "polish-napoleon-exchange-1366.png"))
    assert "伏せ札" in page.locator("#select-purpose").inner_text()
    cards = page.locator('#hand .card[data-legal="1"]')
    assert _hint(page) == ("more", "2枚選んでください。")
    _tap(cards.nth(0))
    assert _hint(page)[0] == "more" and "あと1枚" in _hint(page)[1]
    _tap(cards.nth(0))  # deselect
    assert _hint(page) == ("more", "2枚選んでください。")
    _tap(cards.nth(1))
    _tap(cards.nth(2))
    assert _hint(page)[0] == "ready"
    first = page.eval_on_selector_all("#hand .card.selected", "els => els.map(e => e.dataset.card)")
    # a third card is refused, and it is said (it made the oldest choice give way without a
    # word, and a player returned a card they had not meant to: an eighth review)
    _tap(cards.nth(3))
    page.wait_for_function(
        "t => (document.querySelector('#toast')?.textContent || '').includes(t)",
        arg="もう2枚選んでいます",
    )
    chosen = page.eval_on_selector_all(
        "#hand .card.selected", "els => els.map(e => e.dataset.card)"
    )
    assert chosen == first and _hint(page)[0] == "ready", (first, chosen)
    assert len(page.locator("#actions .select-bar [data-action]").all()) == 1
    action = page.locator("#actions .select-bar [data-action]").get_attribute("data-action")
    assert sorted(action.split()[1:]) == sorted(chosen)
    page.locator('#actions [data-clear="1"]').click()
    assert _hint(page) == ("more", "2枚選んでください。")
    _tap(cards.nth(4))
    _tap(cards.nth(5))
    picked = "els => els.map(e => e.dataset.card).sort()"
    two = page.eval_on_selector_all("#hand .card.selected", picked)
    # the page loaded again keeps the picks (a reload in an exchange forgot them: a ninth
    # review's note)
    page.reload()
    page.wait_for_selector("#hand .card.selected")
    assert page.eval_on_selector_all("#hand .card.selected", picked) == two
    assert _hint(page)[0] == "ready"
    _in_viewport(page, "exchange, two chosen")
    page.locator("#actions .select-bar [data-action]").click()


def _over_the_box_above(page: Any) -> list[str]:
    """The chosen (raised) cards of the hand that reach over the box shown above the hand (an
    eighth review: on a phone they covered the bottom of the Hint button)."""
    return list(
        page.evaluate(
            """() => { const hand = document.querySelector('#hand');
                 let above = hand.previousElementSibling;
                 while (above && !above.getBoundingClientRect().height)
                   above = above.previousElementSibling;
                 const bottom = above ? above.getBoundingClientRect().bottom : -1e9;
                 return [...hand.querySelectorAll('.card.selected')]
                   .filter(c => c.getBoundingClientRect().top < bottom - 0.5)
                   .map(c => c.dataset.card); }"""
        )
    )


def test_the_card_under_the_mouse_leaves_its_neighbour_within_reach(
    server: str, browser: Any
) -> None:
    """A ninth review, with a mouse: in a long overlapping hand (Daifugo for two, 26 cards) the
    card under the pointer rose above its right neighbour and covered that card's whole
    visible strip, so the card next to the one just chosen — the other half of a pair — could
    not be clicked. A hovered card rises, as the chosen one, beneath its neighbour."""
    tb = _table(server, "daifugo", {"preset": "standard"}, 2)
    page = _open(browser, server, tb, LAPTOP, "en")
    assert _wait_my_turn(page) == "play"
    cards = page.locator("#hand .card")
    n = cards.count()
    assert n >= 20, n
    overlapping = page.evaluate(
        "(() => { const c = [...document.querySelectorAll('#hand .card')];"
        " return c[1].getBoundingClientRect().left < c[0].getBoundingClientRect().right; })()"
    )
    assert overlapping, "the hand does not overlap: nothing to test"
    trapped = []
    for i in range(n - 1):
        card = cards.nth(i)
        if "legal" not in (card.get_attribute("class") or ""):
            continue
        box = card.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + 6, box["y"] + 24)  # on the card's own strip
        page.wait_for_timeout(50)  # (its rise is animated)
        hit = page.evaluate(
            """(i) => { const c = document.querySelectorAll('#hand .card');
              const r = c[i + 1].getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + 6, r.top + 24);
              return !!hit && hit.closest('.card') === c[i + 1]; }""",
            i,
        )
        if not hit:
            trapped.append(card.get_attribute("data-card"))
    assert not trapped, f"the hovered card covered its neighbour: {trapped}"
    assert not problems(page), problems(page)


def test_the_turn_of_a_player_gone_counts_down_to_their_stand_in(server: str, browser: Any) -> None:
    """A ninth review: with a friend's connection gone on their turn, the table read "Ben to
    play" for over a minute, nothing saying why or for how long. The line under the status says
    Ben has lost the connection and counts down to the bot that plays for him."""
    made = post(
        f"{server}/api/tables",
        {"game": "hell", "players": 3, "games": 1, "seats": ["open", "open", "bot:heuristic"]},
    )
    tid, host = made["table"]["id"], made["host_token"]
    aki = post(f"{server}/api/tables/{tid}/join", {"name": "Aki", "seat": 0})
    post(f"{server}/api/tables/{tid}/join", {"name": "Ben", "seat": 1})  # (never comes)
    post(f"{server}/api/tables/{tid}/start", {}, host)
    page = _open(browser, server, {"id": tid, "token": aki["token"]}, LAPTOP, "en")
    deadline = time.monotonic() + 30
    while page.evaluate("window.torampu.snapshot.table.to_play") != 1:
        assert time.monotonic() < deadline, "Ben's turn did not come"
        if page.locator("#status").get_attribute("data-my-turn") == "1":
            before = page.locator("#status").get_attribute("data-version")
            page.locator("#actions [data-action]").first.click()
            _after(page, before)
        page.wait_for_timeout(100)
    timer = page.locator("#turn-timer")
    timer.wait_for(state="visible")
    assert timer.get_attribute("data-kind") == "away"
    said = timer.inner_text()
    assert said.startswith("Ben has lost the connection: a bot plays for them in "), said
    first = int(said.split(" in ")[1].split()[0])
    assert 0 < first <= 60, said
    page.wait_for_timeout(2200)
    later = int(timer.inner_text().split(" in ")[1].split()[0])
    assert later < first, (first, later)  # (it counts down)
    page.screenshot(path=str(SHOTS / "away-countdown-laptop-en.png"))
    # this page's own connection lost: the page cannot know the server's clock, so the count
    # stops and says why (it ran to a red "0 s left", then jumped back: a sixteenth review),
    # and one's own seat is not shown online
    page.context.set_offline(True)
    waits = "The clock is shown again once the connection is back"
    page.wait_for_function(f"() => document.querySelector('#turn-timer').textContent === {waits!r}")
    page.wait_for_timeout(1500)
    assert timer.inner_text() == waits and "urgent" not in (timer.get_attribute("class") or "")
    # (a change of language meanwhile keeps it stopped, in the new words)
    page.click("#lang")
    ja = "接続が戻ると残り時間を表示します"
    page.wait_for_function(f"() => document.querySelector('#turn-timer').textContent === {ja!r}")
    page.click("#lang")
    page.wait_for_function(f"() => document.querySelector('#turn-timer').textContent === {waits!r}")
    dot = "getComputedStyle(document.querySelector('#felt .seat-box.me .pres.dot')).backgroundColor"
    assert page.evaluate(dot) == "rgb(185, 185, 185)", page.evaluate(dot)
    page.screenshot(path=str(SHOTS / "away-countdown-offline-laptop-en.png"))
    page.context.set_offline(False)
    page.wait_for_function(
        "() => document.querySelector('#turn-timer').textContent.includes('plays for them in')"
        " || !window.torampu.snapshot.timer"
    )
    assert page.evaluate(dot) == "rgb(34, 163, 90)", page.evaluate(dot)
    assert not problems(page), problems(page)


def test_hell_s_trump_chip_adds_up_the_bids_against_the_tricks(server: str, browser: Any) -> None:
    """A ninth review: in Hell nothing said the bids' sum against the deal's tricks (Trickster
    shows it: the hook and the bidding turn on it). The chip on the felt says "3 bid on 7 tricks"
    while bidding, and how far off the sum is once play begins."""
    tb = _table(server, "hell", None, 3)
    page = _open(browser, server, tb, PHONE, "en")
    for _ in range(30):  # a deal of more than one card, to bid on
        if _wait_my_turn(page) == "bid":
            break
        page.locator("#actions [data-action]").first.click()
        page.wait_for_timeout(200)

    def chip_and_sum() -> tuple[str, int, int, str]:
        snap = page.evaluate("window.torampu.snapshot")
        view = snap["view"]
        sum_ = sum(b for b in view["bids"] if b is not None)
        return page.locator("#hell-bids").inner_text(), sum_, view["cards"], view["phase"]

    said, sum_, n, _phase = chip_and_sum()
    tricks = "trick" if n == 1 else "tricks"
    assert said == f"{sum_} bid on {n} {tricks}", (said, sum_, n)
    before = page.locator("#status").get_attribute("data-version")
    page.locator('#actions [data-action^="bid "]').last.click()
    _after(page, before)
    page.wait_for_function("() => window.torampu.snapshot.view.phase === 'play'")
    said, sum_, n, _phase = chip_and_sum()
    off = "" if sum_ == n else f" · {'under' if sum_ < n else 'over'}bid by {abs(n - sum_)}"
    assert said == f"{sum_} bid on {n} {tricks}{off}", (said, sum_, n)
    page.screenshot(path=str(SHOTS / "hell-bids-chip-phone-en.png"))
    assert not problems(page), problems(page)


def test_daifugo_exchange_and_texts_on_a_phone(server: str, browser: Any) -> None:
    tb = _table(server, "daifugo", {"preset": "standard"}, 4, games=2)
    page = _open(browser, server, tb, PHONE, "ja")
    deadline = time.monotonic() + 90
    # game 1: pass whenever allowed (the bots go out first), else play the first legal single
    while page.evaluate("window.torampu.snapshot.view.match.games_played") < 1:
        assert time.monotonic() < deadline, "game 1 did not end"
        phase = _wait_my_turn(page)
        if page.evaluate("window.torampu.snapshot.view.match.games_played") >= 1:
            break
        _in_viewport(page, f"daifugo {phase}")
        before = page.locator("#status").get_attribute("data-version")
        if page.locator('#actions [data-action="pass"]').count():
            page.locator('#actions [data-action="pass"]').click()
        else:
            single = page.evaluate(
                "window.torampu.snapshot.legal.find(a => /^play \\S+$/.test(a))"
                " || window.torampu.snapshot.legal[0]"
            )
            for word in single.split()[1:]:
                card = word.split("=")[0].upper()
                _tap(page.locator(f'#hand .card[data-card="{card}"]:not(.selected)').first)
            assert not _covered_strips(page), _covered_strips(page)
            page.locator("#actions .select-bar [data-action]").first.click()
        _after(page, before)
    # game 2: the panel names this seat by the title it earned in game 1 (passing whenever
    # allowed usually makes it last, but a heuristic bot can finish behind it: the deal is random)
    page.wait_for_selector("#exchange-info")
    info = page.locator("#exchange-info").inner_text()
    title = page.evaluate("window.torampu.snapshot.view.titles[0]")
    ja = {"daifugo": "大富豪", "fugo": "富豪", "hinmin": "貧民", "daihinmin": "大貧民"}
    assert title in ja, title
    count = "2枚" if title in ("daifugo", "daihinmin") else "1枚"
    assert f"{ja[title]}のあき" in info and "大富豪の" in info and count in info, (title, info)
    assert "最も強いカード" in info and "返す" in info, info
    page.screenshot(path=str(SHOTS / "polish-daifugo-exchange-phone.png"))
    _no_raw(page, "daifugo game 2")
    # the selection texts of the exchange (rich side), 7渡し and 10捨て, from the page's own code
    texts = page.evaluate(
        """async () => {
          const g = await import('/static/game.js');
          const table = {seats: [{seat: 0, kind: 'human', name: 'あき'},
            {seat: 1, kind: 'bot', bot: 'heuristic'}, {seat: 2, kind: 'bot', bot: 'random'},
            {seat: 3, kind: 'bot', bot: 'ismcts:think=0.3'}]};
          const base = {game: 'daifugo', players: 4, seating: [0, 1, 2, 3], direction: 1, out: [],
            titles: ['daifugo', 'fugo', 'hinmin', 'daihinmin']};
          const ctx = {table, mySeat: 0};
          const acts = await import('/static/actions.js');
          const plan = acts.planActions(
            ['pass', 'play 5H', 'play 5D 5H', 'play 5D 5H 5S', 'play 6C'], 'daifugo');
          const text = (v) => { const d = document.createElement('div');
            const parts = [g.selectPurpose({...base, ...v}, ctx)].flat(Infinity);
            d.append(...parts.filter((x) => x != null && x !== false)); return d.textContent; };
          return {
            exchange: text({phase: 'exchange', exchange: [{rich: 0, poor: 3, count: 2,
              given: ['2S', 'AH'], returned: null}]}),
            give: text({phase: 'give', pending: 2}),
            // the opening lead that must hold ♦3 says so before a wrong tap does (a ninth
            // review: only the refusal's toast said it)
            opening: (() => { const d = document.createElement('div');
              const parts = [g.selectPurpose({...base, phase: 'play'},
                {...ctx, legal: ['play 3D', 'play 3D 3S', 'play 3D 4D 5D']})].flat(Infinity);
              d.append(...parts.filter((x) => x != null && x !== false));
              return d.textContent; })(),
            // ...but not where that card is the hand's one (it read as a rule: a 22nd review)
            lone: (() => { const d = document.createElement('div');
              const parts = [g.selectPurpose({...base, phase: 'play', hand: ['9S']},
                {...ctx, legal: ['play 9S']})].flat(Infinity);
              d.append(...parts.filter((x) => x != null && x !== false));
              return d.textContent; })(),
            // a flushed table held on the felt gives way to the next lead at once (a ninth
            // review: the felt kept ♦10 while the action bar answered the ♠Q led meanwhile)
            motion: await (async () => {
              const { Motion } = await import('/static/motion.js');
              const a = [{seat: 1, action: 'play TD'}];
              const b = [...a, {seat: 2, action: 'pass'},
                {seat: 3, action: 'pass', why: [{code: 'flush'}]}];
              const c = [...b, {seat: 1, action: 'play QS'}];
              const m = new Motion(() => {}, 60000);
              m.observe({game: 'daifugo', log: a});
              m.observe({game: 'daifugo', log: b});
              const held = m.hold?.kind ?? null;
              m.observe({game: 'daifugo', log: c});
              // (at once: a sweep of the flushed cards first kept them, or the flush's caption
              // over an empty felt, 0.2-0.6 s after the lead — a twelfth review)
              const gone = m.hold?.kind ?? null;
              const once = new Motion(() => {}, 60000);
              once.observe({game: 'daifugo', log: a});
              once.observe({game: 'daifugo', log: c}); // the flush and the lead seen at once
              // a snapshot's log cut to its newest entries (log_from: the first one's index)
              const e = [...Array(100).keys()].map((i) => ({seat: i % 4, action: 'pass'}));
              e.push({seat: 1, action: 'play 5H'},
                {seat: 2, action: 'pass', why: [{code: 'flush'}]});
              const cut = new Motion(() => {}, 60000);
              cut.observe({game: 'daifugo', log: e.slice(0, 100)});
              const ev = cut.observe({game: 'daifugo', log_from: 2, log: e.slice(2)});
              const felt = cut.feltView({game: 'daifugo', log_from: 2, log: e.slice(2)});
              return [held, gone, once.hold?.kind ?? null,
                [ev.played, cut.hold?.cards, felt.log.length, felt.log.at(-1).action]];
            })(),
            mustHold: [g.mustHold(['play 3D', 'play 3D 3S']), g.mustHold(['pass', 'play 3D']),
              g.mustHold(['play 3D', 'play 4S'])],
            discard: text({phase: 'discard', pending: 1}),
            name3: g.seatName(table, 3),
            // on this seat's turn with pass alone: the cards dimmed, and why (they looked
            // playable, a third review)
            onlyPass: (() => {
              const hand = document.createElement('div');
              const acts = document.createElement('div');
              document.body.append(hand, acts);
              // (seat 0 is the 大貧民: the exchange brought it 4H, just received, and the
              // note says so on this turn too: a fifth review found it only in the card bar,
              // which a turn of pass alone does not have)
              const view = {...base, phase: 'play', to_play: 0, hand: ['3S', '4H'],
                hand_sizes: [2, 5, 5, 5], table: [{seat: 1, cards: ['2S']}], log: [],
                exchange: [{rich: 3, poor: 0, count: 1, given: ['AS'], returned: ['4H']}]};
              g.renderPlay(hand, acts, view, {...ctx, legal: ['pass'], live: true,
                act: () => {}, clear: () => {}, onCard: () => {}}, {selected: [], choice: null});
              const out = [[...hand.querySelectorAll('.card')].map((c) => c.className.trim()),
                acts.querySelector('#only-pass')?.textContent,
                acts.querySelector('#fresh-note')?.textContent];
              hand.remove(); acts.remove();
              return out;
            })(),
            // another's turn: the cards the exchange brought and took are said still (a
            // ninth review: the poor player on a phone saw a teal dot and no words)
            offTurn: (() => {
              const hand = document.createElement('div');
              const acts = document.createElement('div');
              document.body.append(hand, acts);
              const view = {...base, phase: 'play', to_play: 1, hand: ['3S', '4H'],
                hand_sizes: [2, 5, 5, 5], table: [], log: [],
                exchange: [{rich: 3, poor: 0, count: 1, given: ['AS'], returned: ['4H']}]};
              g.renderPlay(hand, acts, view, {...ctx, legal: [], live: true,
                act: () => {}, clear: () => {}, onCard: () => {}}, {selected: [], choice: null});
              const out = [acts.hidden, acts.querySelector('#fresh-note')?.textContent];
              // once it has played, nothing more is said
              const played = {...view, log: [{seat: 0, action: 'play 3S'}], hand: ['4H']};
              g.renderPlay(hand, acts, played, {...ctx, legal: [], live: true,
                act: () => {}, clear: () => {}, onCard: () => {}}, {selected: [], choice: null});
              out.push(acts.hidden, acts.querySelector('#fresh-note')?.textContent ?? null);
              // between games (the results up, the next deal's exchange made): said too (a
              // tenth review saw the K♣ K♥ gone from the hand with no word until its turn)
              g.renderPlay(hand, acts, {...view, to_play: null}, {...ctx, legal: [], live: true,
                between: true, act: () => {}, clear: () => {}, onCard: () => {}},
                {selected: [], choice: null});
              out.push(acts.querySelector('#fresh-note')?.textContent ?? null);
              hand.remove(); acts.remove();
              return out;
            })(),
            // an absent player's turn says the stand-in plays it
            awayTurn: g.statusText({game: 'hell', phase: 'play', to_play: 0},
              {table: {seats: [{seat: 0, kind: 'human', name: 'ゆき', away: true}]}, mySeat: 1}),
            // a bot never takes a person's name; two people of one name by seats from 1
            names: [
              g.seatName({seats: [{seat: 0, kind: 'human', name: 'ソラ'},
                {seat: 1, kind: 'human', name: 'あき'}, {seat: 2, kind: 'bot', bot: 'heuristic'}]},
              2, true),
              ...[0, 1].map((s) => g.seatName({seats: [{seat: 0, kind: 'human', name: 'あき'},
                {seat: 1, kind: 'human', name: 'あき'}]}, s)),
              // one name as a reader sees it: full-width and other case too (a sixth audit)
              ...[0, 1].map((s) => g.seatName({seats: [{seat: 0, kind: 'human', name: 'Aki'},
                {seat: 1, kind: 'human', name: 'ＡＫＩ'}]}, s))],
            // a ruling's seats as names, each name as it is (a sixth audit: "$`" in a name put
            // the text before it there again, and a name "1番席" was replaced once more)
            why: (await import('/static/labels.js')).daifugoWhy(
              {ja: '全員パス: 場が流れ、1番席から。8切り: 2番席から', en: 'x', seats: {a: 1, b: 2}},
              (seat) => (seat === 1 ? '$`<<' : '1番席')),
            // the auction (oldest bid first) follows its newest bid as it grows, unless the
            // reader scrolled up; the play log (newest first) stays at its top
            follow: await (async () => {
              const p = await import('/static/panels.js');
              const d = await import('/static/dom.js');
              const side = d.h('aside', {class: 'side-col'});
              document.body.append(side);
              const draw = (n) => () => d.patch(side,
                d.h('section', {id: 'auction'}, d.h('ol', {class: 'auction'},
                  [...Array(n).keys()].map((i) => d.h('li', {}, `bid ${i}`)))),
                d.h('section', {id: 'log'}, d.h('ul', {class: 'log'},
                  [...Array(n).keys()].reverse().map((i) => d.h('li', {}, `move ${i}`)))));
              const at = () => [side.querySelector('ol.auction'), side.querySelector('ul.log')]
                .map((l) => [l.scrollTop, l.scrollHeight - l.clientHeight]);
              p.followLogs(side, draw(30));
              const first = at();
              side.querySelector('ol.auction').scrollTop = 0; // the reader goes back up
              p.followLogs(side, draw(31));
              const kept = at();
              side.remove();
              return {first, kept};
            })(),
            // the chips of a revolution; of an 11-back alone; of both (the order twice undone)
            flags: [{revolution: true, reversed: true}, {eleven_back: true, reversed: true},
              {revolution: true, eleven_back: true, reversed: false}].map((v) =>
              // (the chip's whole words: a narrow felt shows their short twin instead)
              g.daifugoFlags(v).map((e) => {
                const whole = e.cloneNode(true);
                whole.querySelectorAll('.short').forEach((n) => n.remove());
                return whole.textContent;
              })),
            progress: [[], ['5H'], ['5H', '5D', '5S'], ['5D'], ['5H', '6C']].map((ch) => {
              const p = g.selectProgress(plan, ch, acts.matching(plan.cardActs, ch));
              return [p.state, p.text];
            }),
          };
        }"""
    )
    assert "大富豪" in texts["exchange"] and "大貧民" in texts["exchange"], texts
    assert "2枚" in texts["exchange"] and "♠2" in texts["exchange"], texts
    assert "どの出し方にも次の札が必要です" in texts["opening"], texts["opening"]
    assert "♦3" in texts["opening"], texts["opening"]
    assert "必要" not in texts["lone"] and "♠9" not in texts["lone"], texts["lone"]
    assert texts["mustHold"] == [["3D"], [], []], texts["mustHold"]
    assert texts["motion"] == ["table", None, None, [1, ["5H"], 99, "play 5H"]], texts["motion"]
    assert "7渡し" in texts["give"] and "2枚" in texts["give"] and "ミナ" in texts["give"], texts
    assert "10捨て" in texts["discard"] and "1枚" in texts["discard"], texts
    assert texts["name3"].endswith("(CPU・強)"), texts
    assert texts["awayTurn"].startswith("ゆきは離席中: CPUが代わりに打ちます"), texts["awayTurn"]
    # (a bot beside a person called ソラ was ソラ too, and both showed as "ソラ 0" and "ソラ 2")
    cards, said, fresh = texts["onlyPass"]
    assert cards[0] == "card dim" and said and "パス" in said, texts["onlyPass"]
    assert set(cards[1].split()) == {"card", "fresh", "dim"}, cards
    assert fresh and fresh.strip().startswith("受け取ったばかりのカード") and "4" in fresh, fresh
    assert "に渡したカード: ♠A" in fresh, fresh  # (its best, handed up without a choice)
    hidden, said, hidden_after, said_after, between = texts["offTurn"]
    assert between and "♠A" in between, texts["offTurn"]
    assert hidden is False and said and "受け取ったばかりのカード" in said, texts["offTurn"]
    assert "に渡したカード: ♠A" in said, said
    assert hidden_after is True and said_after is None, texts["offTurn"]
    assert texts["names"] == ["レン", "あき 1", "あき 2", "Aki 1", "ＡＫＩ 2"], texts["names"]
    assert texts["why"] == "全員パス: 場が流れ、$`<<から。8切り: 1番席から", texts["why"]
    (auction, log), kept = texts["follow"]["first"], texts["follow"]["kept"]
    assert auction[1] > 0 and auction[0] >= auction[1] - 4, texts["follow"]  # at the newest
    assert log == [0, log[1]] and log[1] > 0, texts["follow"]  # at its top, the newest
    assert kept[0][0] == 0, texts["follow"]  # the reader's place kept
    # a revolution is one chip, not also "強弱逆転中" (it said the same twice: a review), and
    # says which cards win (a fortieth review); so does an 11-back, alone or over a revolution
    # (a fifty-third: test_web_review53_browser.py)
    assert texts["flags"] == [
        ["革命中 · 小さい数字ほど強い"],
        ["イレブンバック中 · 小さい数字ほど強い"],
        ["革命中", "イレブンバック中 · 大きい数字ほど強い"],
    ], texts
    # a Daifugo play of one, two or three cards: the message follows the selection
    states = [state for state, _ in texts["progress"]]
    assert states == ["empty", "ready", "ready", "more", "none"], texts["progress"]
    assert "あと2枚まで" in texts["progress"][1][1], texts["progress"]
    assert not problems(page), problems(page)


@pytest.mark.parametrize("lang", ["ja"])
def test_lobby_in_japanese_shows_no_english_option(server: str, browser: Any, lang: str) -> None:
    page = new_page(browser, LAPTOP, lang)
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    english = re.compile(r"(?<![A-Za-z-])(?!UECda(?![A-Za-z])|napoleon-web)[A-Za-z]{2,}")
    for game in ("napoleon", "nap", "hell", "daifugo"):
        page.click(f"#pick-{game}")
        page.locator("#options summary").click()
        names = page.eval_on_selector_all(
            "#options .opt-name", "els => els.map(e => e.textContent)"
        )
        descs = page.eval_on_selector_all(
            "#options .opt-desc", "els => els.map(e => e.textContent)"
        )
        values = page.eval_on_selector_all(
            "#options select option, #options .set label, select[name=preset] option",
            "els => els.map(e => e.textContent)",
        )
        assert names and len(names) == len(descs)
        for text in [*names, *descs, *values]:
            assert not english.search(text), f"{game}: {text!r}"
    page.screenshot(path=str(SHOTS / "polish-lobby-options-ja.png"), full_page=True)
    assert not problems(page), problems(page)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_new_table_options_fit_a_phone(server: str, browser: Any, lang: str) -> None:
    """On a 390 px phone every option of the new-table form (name, control, explanation) stays
    within the screen: long Japanese explanations and values wrap (they ran to 447 px and were
    cut off at the right edge)."""
    page = new_page(browser, PHONE, lang)
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    for game in ("napoleon", "nap", "hell", "daifugo"):
        page.click(f"#pick-{game}")
        page.locator("#options summary").click()
        page.wait_for_selector("#options .option")
        wide = page.eval_on_selector_all(
            "#options .option, #options .option *",
            "els => els.filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)"
            ".map(e => e.closest('.option').dataset.option)",
        )
        assert not wide, (game, sorted(set(wide)))
        # no option hides in a box of its own: the grid is as tall as its options (a half-screen
        # box hid Nap's last two below its edge, with no sign there were more: a third review)
        grid = page.eval_on_selector(
            "#options .option-grid", "e => [e.scrollHeight, e.clientHeight]"
        )
        assert grid[0] <= grid[1] + 1, (game, grid)
        page.locator("#options summary").click()
    assert not problems(page), problems(page)


def test_lobby_in_english_names_options_as_the_rules_list_does(server: str, browser: Any) -> None:
    """The new-table form's options in English: each option's short label (``label`` of
    ``GET /api/games``, as in the Rules dialog) and its values' names (``values_en``), never the
    code names (``removed_cards``, ``3D``) the form used to show."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    info = {g["name"]: g for g in get(f"{server}/api/games")["games"]}
    for game in ("napoleon", "nap", "hell", "daifugo"):
        page.click(f"#pick-{game}")
        # the rule sets by their players' names ("House rules A", not "house-001")
        shown = page.eval_on_selector_all(
            "select[name=preset] option", "els => els.map(e => e.textContent)"
        )
        presets = info[game]["presets"]
        assert shown == [p["name_en"] for p in presets.values()], (game, shown)
        assert not set(shown) & set(presets) - {"uecda"}, (game, shown)
        page.locator("#options summary").click()
        rows = page.eval_on_selector_all(
            "#options .option",
            "els => els.map(e => [e.dataset.option, e.querySelector('.opt-name').textContent,"
            " [...e.querySelectorAll('select option, .set label')].map(o => o.textContent)])",
        )
        opts = {o["name"]: o for o in info[game]["options"]}
        assert rows
        for name, label, values in rows:
            assert label == opts[name]["label"] and "_" not in label, (game, name, label)
            names = opts[name].get("values_en") or {}
            for v, shown in zip(opts[name].get("values") or [], values, strict=False):
                assert shown == names.get(str(v), str(v)), (game, name, v, shown)
    assert not problems(page), problems(page)


def test_share_link_uses_the_address_the_page_was_opened_with(server: str, browser: Any) -> None:
    port = urlsplit(server).port
    tb = _table(server, "hell", "standard", 3)
    # a second Chromium that resolves another host name to this machine (no network needed)
    args = [*ARGS, "--host-resolver-rules=MAP table.torampu.test 127.0.0.1"]
    other = browser.browser_type.launch(executable_path=str(CHROMIUM), args=args)
    try:
        for host, local in (
            ("127.0.0.1", True),
            ("localhost", True),
            ("table.torampu.test", False),
        ):
            hosts = json.dumps(json.dumps({tb["id"]: tb["host"]}))
            page = new_page(
                other, LAPTOP, "en", init=f"localStorage.setItem('torampu.host', {hosts})"
            )
            page.goto(f"http://{host}:{port}/t/{tb['id']}")
            page.wait_for_selector("#felt [data-seat='0']")
            page.locator(".share-box summary").click()  # in play the link folds away
            link = page.locator("#share-link").input_value()
            assert link == f"http://{host}:{port}/t/{tb['id']}", link
            assert (page.locator("#share-local").count() == 1) == local, host
            assert not problems(page), problems(page)
            page.context.close()
        # the note is the host's, who shares the link: a friend who came by it is not told it
        # (a twenty-third review)
        page = new_page(other, LAPTOP, "en")
        page.goto(f"http://127.0.0.1:{port}/t/{tb['id']}")
        page.wait_for_selector("#felt [data-seat='0']")
        page.locator(".share-box summary").click()
        assert page.locator("#share-link").count() and not page.locator("#share-local").count()
        page.context.close()
    finally:
        other.close()


def _off_screen(page: Any, selector: str) -> bool:
    return bool(
        page.eval_on_selector(
            selector,
            "e => { const r = e.getBoundingClientRect();"
            " return r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth; }",
        )
    )


def test_the_jump_to_the_panels_shows_their_first_heading_below_the_band(
    server: str, browser: Any
) -> None:
    """A thirtieth review: on a phone, after a match, "成績・情報 ↓" scrolled the panels
    themselves to the top of the page, where the band back to the table sticks: the band
    covered their first heading ("成績・第2ゲーム / 全2ゲーム"). The jump goes to the band."""
    made = _bots(server, "daifugo", 2, 4, "bot:heuristic")
    _until_over(server, made)
    page = new_page(browser, PHONE, "ja", has_touch=True, is_mobile=True)
    page.goto(f"{server}/t/{made['table']['id']}")
    page.wait_for_selector("#between-fold")
    page.click("#between-fold")  # the match's box folded, as a player reading on does
    page.locator("#side-jump").click()
    page.wait_for_timeout(1500)  # (a smooth scroll)
    band, head, text = page.evaluate(
        """() => { const band = document.querySelector('#side-back').getBoundingClientRect();
          const head = document.querySelector('.side-col .panel h3');
          return [band.bottom, head.getBoundingClientRect().top, head.textContent]; }"""
    )
    assert "成績" in text and head >= band - 1, (band, head, text)
    # a game over is in no state (its last trick's イレブンバック was listed as in force)
    assert "場の状態" not in page.inner_text(".side-col")
    page.screenshot(path=str(SHOTS / "polish-jump-to-panels-phone.png"))
    found = problems(page)
    assert not found, found


@pytest.mark.parametrize(
    ("players", "size", "cards"),
    [
        (4, {"width": 360, "height": 740}, ["7C", "7H", "7S", "JK"]),
        (4, {"width": 390, "height": 844}, ["3S", "4S", "5S", "6S", "7S", "8S"]),
        (6, {"width": 844, "height": 390}, ["3S", "4S", "5S", "6S", "7S", "8S"]),
        (6, {"width": 360, "height": 740}, ["3S", "4S", "5S", "6S", "7S", "8S"]),
        (6, {"width": 1024, "height": 768}, ["3S", "4S", "5S", "6S", "7S", "8S"]),
    ],
)
def test_many_cards_down_at_daifugo_lie_between_the_side_seats(
    server: str, browser: Any, players: int, size: dict[str, int], cards: list[str]
) -> None:
    """A forty-fourth review: a revolution's four cards (7♣ 7♥ 7♠ and the joker) lay under the
    side seats' boxes on a 360 px phone, the biggest moment of the game hidden. Cards down
    overlap as a fanned hand to fit between the side boxes, each one's index in sight."""
    tb = _table(server, "daifugo", "standard", players, 1)
    page = _open(browser, server, tb, size, "ja", touch=size["width"] < 900)
    _held(page)
    page.wait_for_selector("#felt [data-seat='0']")
    snap = page.evaluate("window.torampu.snapshot")
    snap["view"]["table"] = {"cards": cards, "by": 1}
    _hand(page, snap)
    page.wait_for_selector(f"#felt .table-cards .tcard:nth-child({len(cards)})")
    page.wait_for_timeout(400)  # (the cards' flight to the felt)
    found = page.evaluate(
        """() => { const box = (e) => e.getBoundingClientRect();
          const over = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
            && b.top < a.bottom;
          const cards = [...document.querySelectorAll('#felt .table-cards .tcard')].map(box);
          const seats = [...document.querySelectorAll('#felt .seat-box')].map(box);
          const under = cards.flatMap((c, i) => seats.filter((s) => over(c, s)).map(() => i));
          // each card's index (its left 12 px) is not under the next card
          const hidden = cards.slice(0, -1).filter((c, i) => cards[i + 1].left < c.left + 12);
          return {under, hidden: hidden.length}; }"""
    )
    assert found == {"under": [], "hidden": 0}, found
    page.screenshot(path=str(SHOTS / f"polish-daifugo-cards-down-{players}-{size['width']}.png"))
    assert not problems(page), problems(page)


def test_japanese_lines_break_between_phrases_not_inside_a_word(server: str, browser: Any) -> None:
    """A forty-fourth review: on a 390 px phone the turn line read "ソラ (CPU・普通)の番です — カ /
    ードを出す" and a caption "全員パス: 場が流れ、ソ / ラから", words cut in two. Japanese lines
    break between phrases (``word-break: auto-phrase``): here the turn line, its width held to
    where it once broke "カード", keeps the word whole."""
    tb = _table(server, "daifugo", "standard", 5, 1)
    page = _open(browser, server, tb, PHONE, "ja", touch=True)
    page.wait_for_selector("#status .status-text")
    lines = page.evaluate(
        """() => { const el = document.querySelector('#status .status-text');
          el.textContent = 'ソラ (CPU・普通)の番です — カードを出す';
          el.style.display = 'block'; el.style.width = '15.5em';
          const text = el.firstChild, at = text.textContent.indexOf('カード');
          const range = document.createRange();
          range.setStart(text, at); range.setEnd(text, at + 6);  // カードを出す
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; }"""
    )
    assert lines == 1, "カードを出す was cut between two lines"
    assert not problems(page), problems(page)


def test_on_a_phone_a_trick_the_player_takes_is_captioned_clear_of_their_card(
    server: str, browser: Any
) -> None:
    """A thirtieth review: four at Nap on a 360×740 phone, the caption of a finished trick
    ("はなが取る · ♣Aの勝ち…") sat at the foot of the felt, over the player's own card and name.
    A trick the player takes (they lead next: the caption stays) is captioned at the top."""
    # (twenty games, each card chosen to take the trick where one can: the player, who
    # passes, leads after a trick of theirs before the match ends but in about 1 deal in
    # 70,000 — a simulation of 4,000 deals with the engine and its heuristic bots: none took
    # all twenty, 6 % five, about 0.57 a game; the loop most often ends in the first two
    # games. Tapping the page's last legal card, its suit's lowest, the player took none in
    # five games in 1 deal in 6 — 16 % of 4,000 — and no clock of 90 s let it go further)
    tb = _table(server, "nap", "standard", 4, 20)
    page = _open(browser, server, tb, {"width": 360, "height": 740}, "ja", touch=True)
    measure = """() => {
      const box = (e) => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
      const why = document.querySelector('#trick-taker[data-side="top"]');
      const card = document.querySelector('#felt .trick-card[data-trick-seat="0"]');
      const seat = document.querySelector('#felt .seat-box[data-seat="0"]');
      return why && card ? [box(why), box(card), box(seat)] : null; }"""
    took = """() => { const v = window.torampu.snapshot.view;
      return !v.trick.length && !!v.tricks.length && v.tricks.at(-1).winner === v.seat; }"""
    # (no clock on the whole: the match's end bounds the loop, and each turn's wait a hang —
    # on a machine loaded past its cores five games took 72 s of a 90 s bound)
    while True:
        phase = _wait_my_turn(page, 30)
        assert phase != "over", "the player took no trick"
        if phase == "play" and page.evaluate(took):
            break
        before = page.locator("#status").get_attribute("data-version")
        if phase == "bid":
            page.locator('#actions [data-action="pass"]').click()
        else:
            _tap(_taking_card(page))
        _after(page, before)
    # the trick the player took, captioned at the top (drawn after the turn), their card come
    # to rest on the felt
    page.wait_for_function(
        """() => { const c = document.querySelector('#felt .trick-card[data-trick-seat="0"]');
          return !!document.querySelector('#trick-taker[data-side="top"]') && !!c
            && !c.getAnimations().length; }"""
    )
    rects = page.evaluate(measure)
    assert rects, "the trick the player took is captioned with their card"
    why = rects[0]
    for other in rects[1:]:
        apart = why[2] <= other[0] or other[2] <= why[0] or why[3] <= other[1] or other[3] <= why[1]
        assert apart, rects
    # and the player's own card is tagged "あなた", not a name cut short (a thirty-first review)
    assert page.inner_text('#felt .trick-card[data-trick-seat="0"] .trick-who') == "あなた"
    page.screenshot(path=str(SHOTS / "polish-nap-caption-top-phone.png"))
    assert not problems(page), problems(page)


CAPTION_OVER = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const why = document.querySelector('#trick-taker');
  if (!why || !why.getBoundingClientRect().width) return [];
  // (upright, a trick the player takes is captioned at the top edge, over the box across for
  // the moment it shows: by design, a thirtieth review)
  if (innerWidth < innerHeight && why.dataset.side === 'top') return [];
  const w = box(why), f = box(document.querySelector('#felt'));
  const out = [];
  if (w[0] < f[0] || w[1] < f[1] || w[2] > f[2] || w[3] > f[3]) out.push(['felt', w, f]);
  // (a trick card still flying in from its seat is left out: it passes under for a moment)
  const still = [...document.querySelectorAll('#felt .trick-card')]
    .filter((e) => !e.getAnimations().length);
  for (const e of [...document.querySelectorAll('#felt .seat-box, #felt .trump-chip'), ...still]) {
    const o = box(e);
    const apart = w[2] <= o[0] || o[2] <= w[0] || w[3] <= o[1] || o[3] <= w[1];
    if (!apart) out.push([e.className, w, o]);
  }
  return out; }"""
"""What a finished trick's caption lies over on the felt (or where it leaves the felt)."""


@pytest.mark.parametrize(
    "size", [(844, 390), (667, 375), (360, 740), (390, 844)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_on_a_phone_a_four_handed_trick_s_caption_lies_clear_of_the_boxes_and_cards(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    """A forty-fourth review: four at Hell on a phone on its side (844×390), a finished trick's
    caption lay over the player's own box and the trump chip (at the foot) or over the box of
    the player across (at the top, a trick the player took) — a short felt has no gap between
    the trick's cards and the boxes. It lies in the felt's lower right corner, the chip's twin,
    clear of every seat box, the chip and the trick's cards. Upright (a forty-fifth review,
    360×740 in Japanese), a trick another takes was captioned in two or three lines over the
    player's own card and name: the caption, an absolute box at the felt's middle, wrapped at
    half the felt's width; it is as wide as its words now. Every drawing of the felt is looked
    at (a trick another player takes is captioned between the player's turns)."""
    tb = _table(server, "hell", "standard", 4, 8)
    viewport = {"width": size[0], "height": size[1]}
    page = _open(browser, server, tb, viewport, "ja", touch=True)
    page.evaluate(
        "() => { const over = " + CAPTION_OVER + ";"
        """ window.__sides = []; window.__over = [];
            new MutationObserver(() => {
              const why = document.querySelector('#trick-taker');
              if (!why) return;
              window.__sides.push(why.dataset.side); window.__over.push(...over());
            }).observe(document.querySelector('#felt'),
                       {childList: true, subtree: true, characterData: true}); }"""
    )
    deadline = time.monotonic() + 120
    while not {"top", "foot"} <= set(page.evaluate("window.__sides")):
        assert time.monotonic() < deadline, page.evaluate("window.__sides")
        phase = _wait_my_turn(page, 30)
        assert phase != "over", page.evaluate("window.__sides")
        before = page.locator("#status").get_attribute("data-version")
        if phase == "bid":
            page.locator("#actions .bidbtn:not([disabled])").first.click()
            with contextlib.suppress(sync_api.TimeoutError):
                page.locator("#actions .bidbtn.armed").click(timeout=2000)
        else:
            _tap(page.locator('#hand .card[data-legal="1"]').last)
        _after(page, before)
    over = page.evaluate("window.__over") + page.evaluate(CAPTION_OVER)
    if over:
        page.screenshot(path=str(SHOTS / f"polish-hell-caption-side-{size[0]}.png"))
    assert not over, over[:4]
    assert not problems(page), problems(page)


def test_a_replay_on_a_phone_on_its_side_captions_a_trick_clear_of_the_boxes(
    server: str, browser: Any
) -> None:
    """A code review: the replay of a four-handed Hell game on a phone on its side (844×390)
    captioned a finished trick at 75 % of its felt, as wide as its words: over the foot's box
    and the trump chip. It lies in the felt's lower right corner, as at the table."""
    made = _bots(server, "hell", 2, 4, "bot:heuristic")
    _until_over(server, made)
    page = new_page(browser, {"width": 844, "height": 390}, "en", has_touch=True, is_mobile=True)
    page.goto(f"{server}/t/{made['table']['id']}/replay/1")
    page.wait_for_selector("#felt .seat-box")
    seen, over = 0, []
    for _ in range(40):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(60)
        if page.locator("#trick-taker").count():
            seen += 1
            over += page.evaluate(CAPTION_OVER)
    assert seen, "no trick captioned in the replay"
    if over:
        page.screenshot(path=str(SHOTS / "polish-replay-caption-side.png"))
    assert not over, over[:4]
    assert not problems(page), problems(page)


@pytest.mark.parametrize("width", [390, 360])
def test_a_toast_on_an_upright_phone_is_as_wide_as_the_screen_allows(
    server: str, browser: Any, width: int
) -> None:
    """A forty-fifth review: on a 390 px phone every toast (why a card cannot be played, the
    name a friend was seated under) was 195 px wide, four or five lines over the title and the
    share link — a fixed box at ``left: 50%`` shrinks to the half of the screen to its right.
    A long one takes the width it may (92 % of the screen), a short one its words'."""
    tb = _table(server, "daifugo", "standard", 4, 1)
    page = _open(browser, server, tb, {"width": width, "height": 740}, "ja", touch=True)
    page.wait_for_selector("#status .status-text")
    long = "場は♣9 ♦9 ♥9: それより強い3枚組で返すか、パスです。"
    for said, wide in ((long, True), ("パス", False)):
        page.evaluate("async (m) => (await import('/static/dom.js')).toast(m)", said)
        page.wait_for_timeout(400)  # (slid in)
        box = page.evaluate(
            "() => { const r = document.querySelector('#toast').getBoundingClientRect();"
            " return [r.left, r.right, r.height]; }"
        )
        if wide:
            assert box[1] - box[0] >= 0.92 * width - 2, box
            assert box[2] < 80, box  # (two lines, not five)
        else:
            assert box[1] - box[0] < 0.5 * width, box
        assert abs((box[0] + box[1]) / 2 - width / 2) <= 1, box  # (in the middle)
    page.screenshot(path=str(SHOTS / f"polish-toast-phone-{width}.png"))
    assert not problems(page), problems(page)


def test_a_preset_whose_name_is_its_code_name_is_not_said_twice(server: str, browser: Any) -> None:
    """A forty-fifth review: the English rules line read "Standard (standard)" — the code name
    the API and the terminal know a preset by is said beside its name only where they
    differ ("House rules A (house-001)")."""
    made = post(
        f"{server}/api/tables",
        {"game": "hell", "rules": "standard", "players": 4, "seats": ["open"] * 4},
    )
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/t/{made['table']['id']}")
    page.wait_for_selector("#head-rules")
    assert "Standard" in page.inner_text("#head-rules")
    assert "(standard)" not in page.inner_text("#head-rules"), page.inner_text("#head-rules")
    # nor where its name holds it (a forty-ninth review: "napoleon-web's rules (napoleon-web)")
    made = post(
        f"{server}/api/tables",
        {"game": "napoleon", "rules": "napoleon-web", "players": 5, "seats": ["open"] * 5},
    )
    page.goto(f"{server}/t/{made['table']['id']}")
    page.wait_for_selector("#head-rules")
    line = page.inner_text("#head-rules")
    assert "napoleon-web" in line and "(napoleon-web)" not in line, line
    assert not problems(page), problems(page)


def test_hell_sheet_on_a_phone_and_hover_styles(server: str, browser: Any) -> None:
    tb = _table(server, "hell", "standard", 6, games=2)
    page = _open(browser, server, tb, PHONE, "en")
    while True:
        phase = _wait_my_turn(page)
        if phase == "over":
            break
        _in_viewport(page, f"hell {phase}")
        before = page.locator("#status").get_attribute("data-version")
        if phase == "bid":
            page.locator('#actions [data-action^="bid "]').first.click()
        else:
            _tap(page.locator('#hand .card[data-legal="1"]').first)
        _after(page, before)
    page.wait_for_selector("#sheet table")
    # the last trick stays on the felt for its pause (motion.js), then the page is drawn again
    page.wait_for_timeout(1600)
    page.locator("#side-jump").click()
    sheet = page.evaluate(
        """() => {
          const box = document.querySelector('#sheet .scroll');
          const first = document.querySelector('#sheet tbody tr > :first-child');
          const heads = [...document.querySelectorAll('#sheet thead th')];
          return {scrollable: box.scrollWidth > box.clientWidth,
            sticky: getComputedStyle(first).position,
            inPanel: box.getBoundingClientRect().right <= innerWidth, heads: heads.length};
        }"""
    )
    assert sheet["heads"] == 7, "one column per player plus the round"
    assert sheet["sticky"] == "sticky" and sheet["inPanel"], sheet
    if sheet["scrollable"]:  # the players' columns scroll sideways, the round column stays
        page.eval_on_selector("#sheet .scroll", "el => { el.scrollLeft = el.scrollWidth; }")
        left = page.eval_on_selector(
            "#sheet tbody tr > :first-child", "el => el.getBoundingClientRect().left"
        )
        box = page.eval_on_selector("#sheet .scroll", "el => el.getBoundingClientRect().left")
        assert abs(left - box) < 2, (left, box)
    page.locator("#sheet").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "polish-hell-sheet-phone.png"), full_page=False)
    # the panels cover the table: a way back stays in view (a review found none), and takes
    # the player back to the felt
    back = page.locator("#side-back")
    assert back.is_visible() and not _off_screen(page, "#side-back"), "no way back in view"
    # a band across the panels, flush under the page's header: a pill floating over them hid
    # the middle of the lines behind it (a fourth review), and a gap above it showed a strip
    band = page.evaluate(
        """() => {
          const b = document.querySelector('#side-back').getBoundingClientRect();
          const s = document.querySelector('.side-col').getBoundingClientRect();
          const m = document.querySelector('main').getBoundingClientRect();
          return [b.left - s.left, s.right - b.right, b.top - m.top];
        }"""
    )
    assert all(abs(x) < 2 for x in band), band
    back.click()
    page.wait_for_function(
        "() => { const r = document.querySelector('#felt').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    # every :hover rule sits inside @media (hover: hover): no sticky hover after a tap
    loose = page.evaluate(
        """() => {
          const out = [];
          const walk = (rules, hover) => {
            for (const r of rules) {
              const media = r instanceof CSSMediaRule;
              if (media) walk(r.cssRules, hover || r.conditionText.includes('hover: hover'));
              const sel = r.selectorText || '';
              if (!media && sel.includes(':hover') && !hover) out.push(sel);
            }
          };
          for (const s of document.styleSheets) walk(s.cssRules, false);
          return out;
        }"""
    )
    assert loose == [], loose
    assert not problems(page), problems(page)


def test_every_text_has_both_languages_and_fills_in_for_one_and_for_many(
    server: str, browser: Any
) -> None:
    """Texts read "1 cards" and "card(s)" (a player's report): counts now take the word for one
    or for many (``{n|card|cards}``). Every text, filled in with 1 and with 2 for each of its
    placeholders, leaves no brace, "(s)" or "1 cards"-like plural behind, and each English text
    has a Japanese one."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    found = page.evaluate(
        """async () => {
          const m = await import('/static/i18n.js');
          const en = m.textKeys('en'), ja = new Set(m.textKeys('ja'));
          const out = {missing: en.filter(k => !ja.has(k)), texts: []};
          for (const code of ['en', 'ja']) {
            m.setLang(code);
            for (const key of en) {
              for (const n of [1, 2]) {
                const params = new Proxy({}, {has: () => true, get: () => n});
                out.texts.push([code, key, n, m.t(key, params)]);
              }
            }
          }
          m.setLang('en');
          return out;
        }"""
    )
    assert not found["missing"], f"no Japanese text for {found['missing']}"
    bad = re.compile(r"[{}]|\(s\)|\b1 (cards|options|times|tricks|games|players)\b")
    wrong = [(c, k, n, s) for c, k, n, s in found["texts"] if bad.search(s)]
    assert not wrong, wrong[:10]
    texts = {(c, k, n): s for c, k, n, s in found["texts"]}
    assert texts[("en", "cardsThisRound", 1)] == "1 card this round"
    assert texts[("en", "cardsThisRound", 2)] == "2 cards this round"
    assert texts[("ja", "cardsThisRound", 1)] == "配られた枚数: 1枚"
    assert not problems(page), problems(page)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_waiting_room_fits_a_phone_and_counts_seats_from_one(
    server: str, browser: Any, lang: str
) -> None:
    """The host's waiting room on a 390 px phone was 425 px wide (the seat menus ran off the
    right edge, 「この席に座る」 one character a line), and seats were numbered from 0."""
    page = new_page(browser, PHONE, lang)
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    page.click("#pick-daifugo")
    page.select_option("select[name=players]", "4")
    for i in (2, 3):
        page.select_option(f"select[name=seat-{i}]", "bot:random")
    page.uncheck("#sit-me")
    page.click("#create-btn")
    page.wait_for_selector("[data-take='0']")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    numbers = page.eval_on_selector_all(".seat-row .seat-no", "els => els.map(e => e.textContent)")
    assert numbers == (
        ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
        if lang == "en"
        else ["1番席", "2番席", "3番席", "4番席"]
    )
    take = page.locator("[data-take='0']").bounding_box()
    assert take and take["height"] < 60, take  # one line, not a column of characters
    # a name as long as the server takes (--max-name, 40): the field cut it at 24, silently
    long = "Bartholomew Maximilian Featherstonehaugh"
    page.fill("#player-name", long)
    assert page.input_value("#player-name") == long
    # an open seat's button and the host's choice for it share a line (one above the other,
    # a table of five ran past the screen, its start buttons with it)
    for seat in (0, 1):
        row = page.locator(f".seat-row[data-seat='{seat}']")
        button = row.locator(f"[data-take='{seat}']").bounding_box()
        choice = row.locator("select").bounding_box()
        assert button and choice and abs(button["y"] - choice["y"]) < 10, (button, choice)
        assert choice["x"] + choice["width"] <= PHONE["width"]
    # the host is told how friends come and what becomes of the open seats at the start (the
    # main button, "Take seat 1 and start", read as the only way on); not when none is left
    note = page.locator("#start-note")
    assert note.is_visible() and (
        "share link" in note.inner_text() or "共有リンク" in note.inner_text()
    )
    # one main button: the host's way on is "Take seat 1 and start"; the rows' Take buttons
    # are plain beside it (five green ones at once, a review), a friend's are the main ones
    primary = (
        "els => els.filter(e => e.classList.contains('primary')).map(e => e.id || e.dataset.take)"
    )
    assert page.eval_on_selector_all("#seats button", primary) == ["sit-start-btn"]
    tid = page.url.split("#")[0].rstrip("/").split("/")[-1]
    friend = new_page(browser, PHONE, lang)
    friend.goto(f"{server}/t/{tid}")
    friend.wait_for_selector("[data-take='0']")
    assert friend.eval_on_selector_all("#seats button", primary) == ["0", "1"]
    page.screenshot(path=str(SHOTS / f"polish-waiting-phone-{lang}.png"))
    page.select_option("select[data-host-seat='1']", "bot:random")
    page.wait_for_function("() => !document.querySelector('#start-note')")
    assert not problems(page), problems(page)
    assert not problems(friend), problems(friend)


def test_the_lobby_folds_finished_tables_away(server: str, browser: Any) -> None:
    """Finished tables crowded the lobby's list (every rematch added one): the tables one can
    join come first, those in play next, and the finished ones are folded under a count."""
    bots = _bots(server, "hell", 1, 3, "heuristic")
    done = bots["table"]["id"]
    waiting = post(f"{server}/api/tables", {"game": "nap", "players": 4})["table"]["id"]
    _until_over(server, bots)
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector(f"#tables a[href$='/t/{waiting}']")
    folded = page.locator("#finished-tables")
    assert folded.get_attribute("open") is None
    assert folded.locator(f"a[href$='/t/{done}']").count() == 1
    assert page.locator(f"#tables > ul a[href$='/t/{done}']").count() == 0
    first = page.locator("#tables > ul .badge").first.inner_text()
    assert first == "waiting", first
    # each row says what opening it does (they did not look like links: a third review)
    go = page.locator(f"#tables [data-table='{waiting}'] .row-go")
    assert go.inner_text() == "Join ›"
    assert folded.locator(f"[data-table='{done}'] .row-go").text_content() == "Watch ›"
    assert "Finished tables (" in folded.locator("summary").inner_text()
    # and who won it, as the table's results box says (the row said 'Game 1 of 1' and no more)
    result = get(f"{server}/api/tables/{done}")["result"]
    folded.locator("summary").click()
    row = folded.locator(f"[data-table='{done}']")
    note = row.locator(".winner-note").inner_text()
    tied = len(result["winners"]) > 1
    assert note.startswith("Winners (tied): " if tied else "Winner: "), (note, result)
    said = note.split(": ", 1)[1].split(", ")
    chips = row.locator(".chip").all_inner_texts()  # each bot's name and strength, by seat
    assert len(said) == len(result["winners"]), (note, result)
    assert all(chips[s].startswith(f"{n} (") for s, n in zip(result["winners"], said, strict=True))
    assert not problems(page), problems(page)


def test_the_lobby_marks_a_table_nobody_is_at(server: str, browser: Any) -> None:
    """Tables whose players had all gone showed "playing" like live ones (a third review): a
    table the server reports ``paused`` (nobody there for ``--abandon-after``, its bots waiting)
    says so, and comes after the tables in play. (The server's side is tested in
    test_web_abuse; here its answer is marked on the way to the page.)"""
    ids = [_bots(server, "hell", 30, 3, "heuristic")["table"]["id"] for _ in range(2)]
    paused, live = ids  # the older one paused: newest first, it would be listed last anyway

    def mark(route: Any) -> None:
        body = route.fetch().json()
        for tb in body.get("tables", []):
            tb["paused"] = tb["id"] == paused
        route.fulfill(json=body)

    page = new_page(browser, LAPTOP, "en")
    page.route("**/api/tables?*", mark)
    page.goto(f"{server}/")
    page.wait_for_selector(f"#tables [data-table='{paused}']")
    badge = page.locator(f"#tables [data-table='{paused}'] .badge").first
    assert badge.inner_text() == "paused: nobody there"
    assert "bots wait" in (badge.get_attribute("title") or "")
    assert page.locator(f"#tables [data-table='{live}'] .badge").first.inner_text() == "playing"
    order = page.eval_on_selector_all(
        "#tables > ul > li.table-row", "(rows) => rows.map((r) => r.dataset.table)"
    )
    assert order.index(live) < order.index(paused), order
    assert not problems(page), problems(page)


def test_the_standings_keep_the_total_and_the_newest_games_in_sight(
    server: str, browser: Any
) -> None:
    """At game 14 of a Hell series on a laptop the standings showed games #1–#4 and the total
    had scrolled out of sight: the total stays at the row's end, and the games' columns stay
    scrolled to the newest (unless the reader scrolls back)."""
    tid = _bots(server, "hell", 19, 5, "heuristic")["table"]["id"]
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/t/{tid}")
    page.wait_for_selector("#standings")
    deadline = time.monotonic() + 120
    # (games enough that their columns do not fit: with the bots' short names, eight did)
    while not page.evaluate(
        "() => { const s = document.querySelector('#standings .scroll');"
        " return !!s && s.scrollWidth > s.clientWidth + 40; }"
    ):
        assert time.monotonic() < deadline, "the bots did not play enough games"
        page.wait_for_timeout(200)
    page.wait_for_timeout(300)
    # (read in one go: a bot's move draws the panel again)
    r = page.evaluate(
        """() => {
          const box = document.querySelector('#standings .scroll').getBoundingClientRect();
          const heads = [...document.querySelectorAll('#standings thead th.num')]
            .map((e) => e.getBoundingClientRect());
          const name = document.querySelector('#standings tbody th').getBoundingClientRect();
          return { box: [box.left, box.right], heads: heads.map((b) => [b.left, b.right]),
                   name: name.right };
        }"""
    )
    (left, right), heads = r["box"], r["heads"]
    total, newest, first = heads[-1], heads[-2], heads[0]
    assert left <= total[0] and total[1] <= right + 1, r  # the total in sight, at the end
    assert r["name"] <= newest[0] and newest[1] <= total[0] + 1, r  # the newest beside it
    assert first[1] <= r["name"] + 1, r  # the first game scrolled away behind the names
    assert not problems(page), problems(page)


def test_before_the_start_one_moves_seats_and_the_host_swaps_them(
    server: str, browser: Any
) -> None:
    """Seat order matters, and the waiting room had no way to change it but leaving and hoping
    (a review: the host could not swap two seated friends). A seated player's page offers
    "Sit here" at each open seat, and the host's menu of each seat swaps it with another; the
    page keeps its seat with its token, and the friend's own page follows its seat."""
    page = new_page(browser, LAPTOP, "en", "localStorage.setItem('torampu.name', 'Aki')")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    page.click("#pick-hell")
    page.select_option("select[name=players]", "4")
    # the maker sits at the first open seat under the name they go by (left to take a seat of
    # the table they had just made: a fourteenth review)
    assert page.is_checked("#sit-me")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".seat-row.me[data-seat='0']")
    tid = page.url.split("#")[0].rstrip("/").split("/")[-1]
    assert get(f"{server}/api/tables/{tid}")["seats"][0]["name"] == "Aki"
    ben = post(f"{server}/api/tables/{tid}/join", {"name": "Ben", "seat": 1})["token"]
    held = json.dumps({tid: {"seat": 1, "token": ben}})
    init = f"localStorage.setItem('torampu.seats', {json.dumps(held)})"
    friend = new_page(browser, LAPTOP, "en", init=init)
    friend.goto(f"{server}/t/{tid}")
    friend.wait_for_selector(".seat-row.me[data-seat='1']")
    assert not friend.locator("[data-host-seat]").count(), "Ben is not the host"
    # the host swaps Ben (seat 2) with the open seat 4: Ben's page follows, still seated
    page.wait_for_selector(".seat-row[data-seat='1'] select[data-host-seat='1']")
    labels = page.eval_on_selector_all(
        "select[data-host-seat='1'] optgroup:nth-of-type(2) option",
        "(os) => os.map((o) => o.textContent)",
    )
    assert labels == ["⇄ Seat 1 (Aki)", "⇄ Seat 3 (open)", "⇄ Seat 4 (open)"], labels
    # what each choice does to Ben: the bots under "Replace Ben with", putting him out in a
    # group of its own at the foot (the menu showed "Ben" over "Open seat", which puts him out,
    # beside the bots: a seventh review; then first among the bots: a fourteenth)
    group = "select[data-host-seat='1'] optgroup:first-of-type"
    assert page.get_attribute(group, "label") == "Replace Ben with"
    values = page.eval_on_selector_all(f"{group} option", "(os) => os.map((o) => o.value)")
    assert values and all(v.startswith("bot:") for v in values), values
    out = "select[data-host-seat='1'] optgroup:last-of-type"
    assert page.get_attribute(out, "label") == "Ask Ben to leave"
    last = page.eval_on_selector_all(f"{out} option", "(os) => os.map((o) => [o.value, o.text])")
    assert last == [["open", "Open seat (Ben leaves the table)"]], last
    page.select_option("select[data-host-seat='1']", "swap:3")
    friend.wait_for_selector(".seat-row.me[data-seat='3']")
    assert "Ben" in friend.inner_text(".seat-row.me[data-seat='3']")
    # and is told so (a fourth review: moved without a word); the head says the match's length
    friend.wait_for_function(
        "() => (document.querySelector('#toast')?.textContent || '')"
        ".includes('The host moved you to seat 4.')"
    )
    assert "a series of" in friend.inner_text(".table-head")  # (Hell: of deals)
    # the others' chat says Ben moved: one line, not "Ben left seat 2" then "Ben took seat 4"
    # (a fifth review read a swap as the friend leaving, "a bot plays it")
    page.wait_for_function(
        "() => document.querySelector('#chat-list').textContent"
        ".includes('Ben moved from seat 2 to seat 4')"
    )
    said = page.eval_on_selector("#chat-list", "(l) => l.textContent")
    assert "Ben left" not in said and "Ben took seat 4" not in said, said
    stored = "(id) => JSON.parse(localStorage.getItem('torampu.seats'))[id].seat"
    friend.wait_for_function(f"() => ({stored})('{tid}') === 3")
    page.wait_for_selector(".seat-row.open[data-seat='1']")
    # the menu of seat 2 shows the seat as it is now (open), not the swap that was picked
    assert page.eval_on_selector("select[data-host-seat='1']", "(s) => s.value") == "open"
    # Aki sits in seat 3 instead: the "Sit here" of an open seat
    assert page.locator("[data-move='2']").inner_text() == "Sit here"
    page.click("[data-move='2']")
    page.wait_for_selector(".seat-row.me[data-seat='2']")
    assert page.evaluate(stored, tid) == 2
    page.wait_for_timeout(300)
    toasts = page.evaluate("() => document.querySelector('#toast')?.textContent || ''")
    assert "moved you" not in toasts, "one's own move is not the host's"
    assert get(f"{server}/api/tables/{tid}")["seats"][2]["name"] == "Aki"
    # the lines are the table's, stored with its chat: Ben's page, reloaded, reads them all (a
    # fourteenth review: each page drew its own, and a reload or a later arrival had none)
    friend.reload()
    friend.wait_for_selector(".seat-row.me[data-seat='3']")
    lines = (
        "() => [...document.querySelectorAll('#chat-list li.chat-event')].map(e => e.textContent)"
    )
    want = ["Aki took seat 1", "Ben took seat 2", "Ben moved from seat 2 to seat 4"]
    want.append("Aki moved from seat 1 to seat 3")
    friend.wait_for_function(f"() => ({lines})().length >= 4")
    assert [x[-len(w) :] for x, w in zip(friend.evaluate(lines), want, strict=False)] == want
    assert not problems(page) and not problems(friend), (problems(page), problems(friend))


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_share_link_and_the_seat_link_are_readable_in_play(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    """A fourth review: once play started, the Share link box squeezed its link to a 6 px
    sliver beside its notes (Copy one character a line on a phone), and "My seat on another
    device" wrapped its heading on five lines beside its help. The link and Copy share a line,
    the notes go below; the seat link's heading is one line."""
    tb = _table(server, "hell", None, 4)
    page = _open(browser, server, tb, viewport, "ja")
    page.click("details.share-box > summary")
    link = page.locator("#share-link").bounding_box()
    copy = page.locator("#copy-link").bounding_box()
    assert link and link["width"] >= 150, link
    assert copy and copy["height"] < 60 and abs(copy["y"] - link["y"]) < 30, (copy, link)
    page.click("details.share-box > summary")  # shut again
    page.locator("details.seat-link > summary").scroll_into_view_if_needed()
    page.click("details.seat-link > summary")
    head = page.locator("details.seat-link > summary").bounding_box()
    field = page.locator("#seat-link").bounding_box()
    assert head and head["height"] < 40, head
    assert field and field["width"] >= 150, field
    assert not problems(page), problems(page)


def test_pages_that_are_not_there_say_so_in_the_page_s_language(server: str, browser: Any) -> None:
    """A fourth review: a replay of a table that is not there showed an English toast over an
    empty felt with no way back; a replay of a game not yet over said "no finished game 0
    (finished: 0)"; an unknown address answered raw JSON; and codes such as not_found came in
    the server's English on a Japanese page. Each now says what is wrong in the page's
    language, with the way back."""
    page = new_page(browser, PHONE, "ja")
    page.goto(f"{server}/t/nosuchtable/replay/3")
    page.wait_for_selector("#table-gone")
    said = page.inner_text("#table-gone")
    assert "そのテーブル(またはゲーム)はありません" in said and "ロビーへ戻る" in said, said
    tb = _table(server, "hell", None, 4)  # in play: its first game is not over
    page.goto(f"{server}/t/{tb['id']}/replay/0")
    page.wait_for_selector("#table-gone")
    assert "テーブルへ戻る" in page.inner_text("#table-gone")
    assert page.get_attribute("#table-gone a", "href") == f"/t/{tb['id']}"
    answer = page.goto(f"{server}/no/such/page")
    assert answer is not None and answer.status == 404
    page.wait_for_selector("#page-gone")
    assert page.inner_text("#page-gone").startswith("このページはありません。")
    api = page.goto(f"{server}/api/nosuch")  # the API answers JSON as before
    assert api is not None and api.status == 404 and api.json()["error"]["code"] == "not_found"
    # a code the table meets, in the page's language; a malformed request's reason inside it
    said = page.evaluate(
        """async () => { const { errorText } = await import('/static/i18n.js');
          return [errorText({ code: 'not_over', message: 'x' }),
                  errorText({ code: 'bad_request', message: 'name is empty' })]; }"""
    )
    assert said == [
        "まだです。この対戦の記録とリプレイは対戦の終了後に見られます",
        "受け付けられませんでした: name is empty",
    ], said
    assert not problems(page), problems(page)


def test_a_finished_daifugo_match_shows_the_titles_it_gave(server: str, browser: Any) -> None:
    """A fourth review: when a Daifugo match ended, the seats showed the titles its last game
    was played under ("Daihinmin · out 2") beside results that named the new ones (Fugo). Once
    the game is over the seats show the titles it gave."""
    made = _bots(server, "daifugo", 1, 4, "random")
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/t/{made['table']['id']}")
    _until_over(server, made)
    page.wait_for_function("() => window.torampu?.snapshot?.view?.phase === 'over'")
    titles = page.evaluate("window.torampu.snapshot.view.result.titles")
    for seat, title in enumerate(titles):
        page.wait_for_selector(f".seat-box[data-seat='{seat}'] .badge.title-{title}")
    # the results say in English what each title is: the romaji alone ("Hinmin") said nothing
    # of which is good (a fifth review); a seat's badge keeps the short name
    page.wait_for_selector("#between:not([hidden])")
    box = page.inner_text("#between")
    assert "Daifugo\nrichest" in box and "Daihinmin\npoorest" in box, box
    assert "(" not in page.inner_text(".seat-box .badge.title-daifugo")
    assert not problems(page), problems(page)


def test_the_status_line_names_the_match_s_winner_as_it_ends(server: str, browser: Any) -> None:
    """A thirty-second review: as a match ended the status line said only "The match is over";
    the winner came with the results' box, after the last trick's pause. The line names them at
    once; the last game's panel says its winners are the game's ("Winners: Aki, Kai" beside the
    match's "Winner: Kai" read as two verdicts)."""
    made = post(
        f"{server}/api/tables",
        {"game": "hell", "games": 1, "players": 3, "seats": ["random"] * 3},
    )
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/t/{made['table']['id']}")
    # (started once the page watches: opened on a finished table, its result panel is read
    # from the games' list, and on a loaded machine the bots finished first)
    page.wait_for_function("() => window.torampu?.snapshot?.table?.status === 'waiting'")
    post(f"{server}/api/tables/{made['table']['id']}/start", {}, made["host_token"])
    _until_over(server, made)
    page.wait_for_function("() => window.torampu?.snapshot?.table?.status === 'over'")
    line = page.inner_text("#status .status-text")
    assert re.search(r"The (match|series) is over — Winners?\b", line), line
    # and the last game's own winners are said to be that game's, not a second verdict
    games = get(f"{server}/api/tables/{made['table']['id']}/games")["games"]
    if games[-1]["result"].get("winners"):  # (a deal nobody bid exactly has none)
        page.wait_for_function(  # (the panel's details come from the games' list, a moment after)
            "() => [...document.querySelectorAll('#result dt')]"
            ".some((d) => /Made their bid/.test(d.textContent))"
        )
    page.wait_for_selector("#result dt")
    terms = page.locator("#result dt").all_inner_texts()
    assert "Winners" not in terms, terms
    # (a Hell deal has no winner: those who made their bid — "Won this deal" said otherwise,
    # a forty-eighth review)
    assert ("Made their bid" in terms) == bool(games[-1]["result"].get("winners")), terms
    # names short there and in the standings: a bot's strength is on its seat's box
    for where in ("#result", "#standings tbody th"):
        assert "bot)" not in " ".join(page.locator(where).all_inner_texts()), where
    assert not problems(page), problems(page)


def test_a_replay_the_server_is_too_busy_to_make_is_asked_again_and_said_so(
    server: str, browser: Any
) -> None:
    """A code review: a replay refused 503 busy (the server making other replays, now bounded
    for the whole process) left a toast over an empty felt for good. The page says so, with
    "trying again", and asks again: the replay shows."""
    made = _bots(server, "hell", 1, 3, "random")
    _until_over(server, made)
    refused: list[str] = []

    def once_busy(route: Any) -> None:
        if not refused:
            refused.append(route.request.url)
            body = {"error": {"code": "busy", "message": "the server is making other replays"}}
            route.fulfill(status=503, content_type="application/json", body=json.dumps(body))
        else:
            route.continue_()

    page = new_page(browser, LAPTOP, "en")
    page.route("**/games/0/replay*", once_busy)
    page.goto(f"{server}/t/{made['table']['id']}/replay/0")
    page.wait_for_selector("#replay-wait")
    assert "trying again" in page.inner_text("#replay-wait")
    page.wait_for_selector("#replay-next")
    assert refused and not page.locator("#replay-wait").count()
    assert not problems(page), problems(page)


def test_the_lobby_keeps_this_browser_s_finished_matches(server: str, browser: Any) -> None:
    """A fourth review: a quick game against bots is private, and once it was over "Your
    tables" dropped it: its results and replays were nowhere to be found. The lobby keeps this
    browser's finished matches, folded under a count."""
    made = _bots(server, "hell", 1, 3, "random", private=True)
    tid, host = made["table"]["id"], made["host_token"]
    _until_over(server, made)
    init = (
        f"localStorage.setItem('torampu.host', JSON.stringify({{'{tid}': '{host}'}}));"
        f"localStorage.setItem('torampu.invites', JSON.stringify({{'{tid}': '{made['invite']}'}}));"
    )
    page = new_page(browser, LAPTOP, "en", init)
    page.goto(f"{server}/")
    page.wait_for_selector(f"#my-finished [data-table='{tid}']", state="attached")
    assert page.inner_text("#my-finished > summary").startswith("Your finished matches (")
    assert page.locator(f"#my-tables [data-table='{tid}']").count() == 0
    assert not problems(page), problems(page)


def test_a_replay_leads_to_the_games_before_and_after_it(server: str, browser: Any) -> None:
    """A fourth review: the replay viewer had no way to the match's other games but back to
    the table. It links the game before and the game after, where there are such."""
    made = _bots(server, "hell", 3, 3, "random")
    tid = made["table"]["id"]
    _until_over(server, made)
    page = new_page(browser, LAPTOP, "en")
    # (Hell: a series of deals, called so everywhere: an eleventh review)
    for k, prev, nxt in ((0, None, "Deal 2 ▶"), (1, "◀ Deal 1", "Deal 3 ▶"), (2, "◀ Deal 2", None)):
        page.goto(f"{server}/t/{tid}/replay/{k}")
        page.wait_for_selector("#replay-slider")
        for key, want in (("prev", prev), ("next", nxt)):
            link = page.locator(f"#replay-game-{key}")
            assert (link.inner_text() if link.count() else None) == want, (k, key)
    page.click("#replay-game-prev")
    page.wait_for_url(f"**/t/{tid}/replay/1")
    # a step's line names the move: "Mina: Bid 1", not "Mina: 1" (a Hell bid is a bare number:
    # a tenth review)
    page.wait_for_selector("#replay-slider")
    page.click("#replay-next")
    page.wait_for_function("() => /: Bid \\d/.test(document.querySelector('#status').innerText)")
    # viewed as a seat, that seat is not "(you)": the viewer is not its player (a thirty-third
    # review: "Sora (you)" on a bot's box, to a spectator)
    page.select_option("#replay-seat", "1")
    page.wait_for_selector("#felt .seat-box.me[data-seat='1']")
    assert "(you)" not in page.inner_text("#felt"), page.inner_text("#felt")
    assert not problems(page), problems(page)


def test_a_daifugo_replay_says_the_tribute_came_with_the_deal(server: str, browser: Any) -> None:
    """The ninth review's note: from Daifugo's second game, the replay's first step (the deal)
    showed hands the tribute had already changed — the poor hand up their best cards with the
    deal, no move of theirs — without a word. The deal's step says it, to the seats that saw
    it."""
    made = _bots(server, "daifugo", 2, 4, "heuristic")
    tid = made["table"]["id"]
    _until_over(server, made)
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/t/{tid}/replay/1")
    page.wait_for_selector("#replay-slider")
    # the 大富豪 and the 大貧民, the 富豪 and the 貧民: each seat sees its own exchange, named
    # after the deal with the cards handed up
    said = {}
    for seat in range(4):
        page.select_option("#replay-seat", str(seat))
        # (drawn for that seat: its steps come after a request, and the status read at once was
        # the seat before's — four seats said one exchange, a clean-clone run's failure)
        page.wait_for_selector(f"#felt .seat-box.me[data-seat='{seat}']")
        page.wait_for_function(
            "() => / handed .*: .*([♠♥♦♣]|Joker)/.test(document.querySelector('#status').innerText)"
        )
        said[seat] = page.inner_text("#status")
        assert said[seat].startswith("The deal · "), said
    assert len(set(said.values())) >= 2, said  # (one exchange's two seats say the same)
    assert not problems(page), problems(page)


def test_every_hand_of_a_replay_is_in_sight_on_a_phone(server: str, browser: Any) -> None:
    """A fifth review: on a phone the replay's list of every hand lay below the felt, out of
    sight, so stepping through a game one never saw the hands change. With the list shown the
    felt is lower: the list's five rows are on the first screen, the felt's seats inside it."""
    made = _bots(server, "napoleon", 1, 5, "random")
    tid = made["table"]["id"]
    _until_over(server, made)
    page = new_page(browser, PHONE, "ja")
    page.goto(f"{server}/t/{tid}/replay/0")
    page.wait_for_selector("#replay-slider")
    page.check("#replay-all")
    for _ in range(12):
        page.click("#replay-next")
    page.wait_for_selector("#replay-hands dd[data-seat='4']")
    rows = page.eval_on_selector_all(
        "#replay-hands dt", "els => els.map(e => e.getBoundingClientRect().bottom)"
    )
    assert len(rows) == 5 and rows[-1] <= PHONE["height"], rows
    felt = page.eval_on_selector("#felt", "e => e.getBoundingClientRect().toJSON()")
    boxes = page.eval_on_selector_all(
        "#felt .seat-box", "els => els.map(e => e.getBoundingClientRect().toJSON())"
    )
    assert len(boxes) == 5
    for b in boxes:
        assert felt["top"] - 1 <= b["top"] and b["bottom"] <= felt["bottom"] + 1, (b, felt)
    page.screenshot(path=str(SHOTS / "replay-hands-phone-ja.png"))
    # scrolled down to the panels below, the controls stay at the top (they scrolled away: a
    # twenty-third review)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(200)
    assert page.evaluate("scrollY") > 0
    next_box = page.locator("#replay-next").bounding_box()
    assert next_box and 0 <= next_box["y"] <= PHONE["height"] - next_box["height"], next_box
    assert not problems(page), problems(page)


def test_one_click_plays_against_bots(server: str, browser: Any) -> None:
    """A new player had to fill the seats with bots, take a seat and start (the Create button
    below the fold at 650 px): the lobby's first button makes the chosen game with this person
    in the first seat and bots of the middle strength in the others, and starts it. It asks the
    name beside the button (kept in this browser), and the table is unlisted: the public list
    is for tables people can join or watch, not every practice game; "Your tables" has it."""
    page = new_page(browser, LAPTOP, "en", "localStorage.setItem('torampu.name', 'Mi')")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    assert page.input_value("#quick-name") == "Mi"
    page.fill("#quick-name", "Mio")
    page.click("#pick-hell")
    # how long the match is, before it starts: Hell's whole series at 4 players (GET /api/games)
    games = {g["name"]: g for g in get(f"{server}/api/games")["games"]}["hell"]["games"]
    players = page.input_value("select[name=players]")
    n = games["default"][players]
    # (Hell's match is a series of deals, 1 card, 2, … and back: a tenth review typed 1 under
    # "Games in the match" and played one deal of one card)
    assert page.inner_text("#quick-play-note").startswith(f"By default a series of {n} deals.")
    assert page.get_attribute("input[name=games]", "placeholder") == f"default: {n}"
    top = (n + 1) // 2
    assert page.inner_text("#hell-series") == f"Cards per deal: 1 → {top} → 1."
    assert "Deals in the series" in page.inner_text("#create-form")
    # a length typed below is the one the note says (it said "by default" whatever was typed:
    # a seventh review); cleared, the default again
    page.fill("input[name=games]", "3")
    assert page.inner_text("#quick-play-note").startswith("A series of 3 deals (set below).")
    assert page.inner_text("#hell-series") == "Cards per deal: 1 → 3."
    page.fill("input[name=games]", "1")
    assert page.inner_text("#hell-series") == "Cards per deal: 1."
    page.fill("input[name=games]", "")
    assert page.inner_text("#quick-play-note").startswith(f"By default a series of {n} deals.")
    page.check("#allow-hints")  # a table setting below: quick play takes it too (it was lost)
    button = page.locator("#quick-play")
    assert "Hell" in button.inner_text()
    box = button.bounding_box()
    assert box and box["y"] + box["height"] <= LAPTOP["height"]  # in view without scrolling
    button.click()
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => window.torampu?.snapshot?.table?.status === 'playing'")
    snap = page.evaluate("window.torampu.snapshot")
    # (in Hell the last seat: the first deals first, and its first bid at one card a hand was
    # the hook's forced one — a fifty-fourth review's newcomer lost the first deal so)
    last = int(players) - 1
    assert snap["seat"] == last and snap["table"]["game"] == "hell"
    assert snap["view"]["dealer"] != last
    assert snap["table"]["hints"] is True
    seats = snap["table"]["seats"]
    assert seats[last]["name"] == "Mio" and all(s["bot"] == "heuristic" for s in seats[:last])
    tid = snap["table"]["id"]
    listed = get(f"{server}/api/tables?limit=100&status=playing")
    assert tid not in [tb["id"] for tb in listed.get("tables", listed)], "quick play is listed"
    assert not problems(page), problems(page)
    page.goto(f"{server}/")
    page.wait_for_selector(f"a[href$='/t/{tid}']")  # under "Your tables"
    # and the form is on the game last chosen (back from Hell, it showed Napoleon: a review)
    page.wait_for_selector("#create-form")
    assert chosen_game(page) == "hell"
    assert "Hell" in page.inner_text("#quick-play")
    assert not problems(page), problems(page)


def test_the_lobby_s_form_is_as_the_last_table_of_its_game_was_made(
    server: str, browser: Any
) -> None:
    """A forty-fifth review: back in the lobby from a four-handed Hell match, Hell was chosen
    again but the form said five players (and a rule changed, the bots chosen, were gone):
    "Play now" made a five-handed table. The form a table was made with is kept for the next
    of its game, in this browser; a stored form that is not one (another server's options,
    a hand-edited store) falls back to the game's default, part by part, without an error."""
    page = new_page(browser, LAPTOP, "en", "localStorage.setItem('torampu.name', 'Mi')")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    page.click("#pick-hell")
    assert page.input_value("select[name=players]") == "5"  # (the default, at first)
    assert page.locator("#form-remembered").count() == 0  # (nothing kept: nothing said)
    page.select_option("select[name=players]", "4")
    # (nor once the default form is changed: it is not a kept one — a code review)
    assert page.locator("#form-remembered").count() == 0
    page.select_option("select[name=seat-1]", "bot:random")
    page.locator("#options summary").click()
    page.uncheck("input[name=opt-hook]")
    page.fill("input[name=games]", "3")
    page.locator("#create-btn").click()
    page.wait_for_url("**/t/*")
    made = page.url.rstrip("/").split("/")[-1]
    page.goto(f"{server}/")
    page.wait_for_selector(f"a[href$='/t/{made}']")
    page.wait_for_selector("#create-form")

    def form() -> dict[str, Any]:
        return {
            "game": chosen_game(page),
            "players": page.input_value("select[name=players]"),
            "seat-1": page.input_value("select[name=seat-1]"),
            "hook": page.is_checked("input[name=opt-hook]"),
            "games": page.input_value("input[name=games]"),
        }

    kept = {"game": "hell", "players": "4", "seat-1": "bot:random", "hook": False, "games": "3"}
    assert form() == kept
    # (another game's form is its own; back to Hell, Hell's kept one)
    page.click("#pick-nap")
    assert (
        page.input_value("select[name=players]") != "4"
        or page.input_value("select[name=seat-1]") == "open"
    )
    page.click("#pick-hell")
    assert form() == kept
    # and it says so beside Play now, the changed rule counted (a forty-sixth review: only the
    # folded rule details at the form's foot said it), with the way back to the defaults
    said = page.inner_text("#form-remembered")
    assert "last table of this game" in said and "1 rule changed" in said, said
    page.click("#form-defaults")
    assert form() == {"game": "hell", "players": "5", "seat-1": "open", "hook": True, "games": ""}
    assert page.evaluate("document.activeElement?.id") == "quick-play"  # (not lost to the page)
    assert page.locator("#form-remembered").count() == 0
    assert page.evaluate("localStorage.getItem('torampu.form.hell')") is None
    # a stored form that is not one: the default, part by part, no error
    page.evaluate(
        """() => localStorage.setItem('torampu.form.hell', JSON.stringify({players: 99,
          preset: '__proto__', seats: 'bot:random', games: '1e9', turnTimeout: 7,
          overrides: {hook: 'no', nothing: 1, players: 3, exact_base: 12}}))"""
    )
    page.reload()
    page.wait_for_selector("#create-form")
    assert chosen_game(page) == "hell"
    assert page.input_value("select[name=players]") == "5"
    assert page.input_value("select[name=seat-1]") == "open"
    assert page.input_value("input[name=games]") == ""
    assert page.is_checked("input[name=opt-hook]")  # (its default)
    assert page.input_value("input[name=opt-exact_base]") == "12"  # (a value it may take)
    for junk in ("not json", "[1, 2]", "null"):
        page.evaluate("(j) => localStorage.setItem('torampu.form.hell', j)", junk)
        page.reload()
        page.wait_for_selector("#create-form")
        assert page.input_value("select[name=players]") == "5", junk
    assert not problems(page), problems(page)


def test_a_phone_s_small_buttons_answer_a_thumb_around_them(server: str, browser: Any) -> None:
    """A forty-sixth review measured the controls a player taps often on a 360×740 phone: the
    header's buttons 30 px tall, the sort buttons 26, "Share link" 20. Each answers a tap
    around it now (a transparent hit area: the look and the layout, the phone header's height
    above all, as they were), without taking a neighbour's."""
    tb = _table(server, "hell", "standard", 4, 3)
    page = _open(browser, server, tb, {"width": 360, "height": 740}, "ja", touch=True)
    page.wait_for_selector(".feel-sort-btn")
    reach = page.evaluate(
        """() => { const at = (sel, dx, dy) => { const e = document.querySelector(sel);
            const r = e.getBoundingClientRect();
            const x = dx < 0 ? r.left + 1 : dx > 0 ? r.right - 1 : (r.left + r.right) / 2;
            const hit = document.elementFromPoint(x, dy < 0 ? r.top + dy : r.bottom + dy);
            return !!hit && (hit === e || e.contains(hit)); };
          return {
            rulesAbove: at('#rules-btn', 0, -5), rulesBelow: at('#rules-btn', 0, 5),
            soundBelow: at('#sound-btn', 0, 5), langAbove: at('header .lang', 0, -4),
            sortBelow: at('.feel-sort-btn', 0, 6),
            sortBelow2: at('.feel-sort-btn:last-child', 0, 6),
            shareAbove: at('.share-box > summary', 0, -10),
            shareBelow: at('.share-box > summary', 0, 10),
            header: document.querySelector('header').getBoundingClientRect().height }; }"""
    )
    assert all(v is True for k, v in reach.items() if k != "header"), reach
    # (and neither takes the other's: the gap between the Rules and the sound buttons is none's)
    apart = page.evaluate(
        """() => { const a = document.querySelector('#rules-btn').getBoundingClientRect();
          const hit = document.elementFromPoint(a.right + 1, (a.top + a.bottom) / 2);
          return hit?.id !== 'sound-btn'; }"""
    )
    assert apart, "the Rules button's right edge is the sound button's"
    assert reach["header"] < 44, reach  # (the phone header as it was)


def test_on_a_phone_on_its_side_the_sort_buttons_leave_the_bids_below_them_their_taps(
    server: str, browser: Any
) -> None:
    """A forty-seventh review: on a phone on its side (844×390) the sort buttons' larger tap
    area reached 16 px below them, over the top of the bid buttons there — a thumb on a bid's
    top edge sorted the hand. Each bid button answers its own top edge."""
    tb = _table(server, "nap", "standard", 4, 3)
    page = _open(browser, server, tb, {"width": 844, "height": 390}, "ja", touch=True)
    assert _wait_my_turn(page, 30) == "bid"
    page.wait_for_selector("#actions .bidbtn")
    taken = page.evaluate(
        """() => [...document.querySelectorAll('#actions .act')].filter((b) => {
          const r = b.getBoundingClientRect();
          for (let x = r.left + 3; x < r.right - 3; x += 4) {  // (along its top edge)
            const hit = document.elementFromPoint(x, r.top + 2);
            if (!hit || !(hit === b || b.contains(hit))) return true;
          }
          return false; }).map((b) => b.textContent)"""
    )
    assert not taken, taken
    assert not problems(page), problems(page)


def test_the_lobby_keeps_a_set_of_rules_and_a_list_of_cards_chosen_and_no_refused_form(
    server: str, browser: Any
) -> None:
    """The forty-fifth review's kept form, for the options that are lists: a Daifugo set of
    forbidden finishes and Napoleon's cards taken out were never kept — a list is no member of
    the values a set lists, and a list of cards lists none."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    page.evaluate(
        """() => {
          localStorage.setItem('torampu.form.daifugo', JSON.stringify({game: 'daifugo',
            preset: 'standard', overrides: {forbidden_finish: ['2', 'JK']}}));
          localStorage.setItem('torampu.form.napoleon', JSON.stringify({game: 'napoleon',
            preset: 'classic', overrides: {removed_cards: ['2C', '2D']}}));
        }"""
    )
    page.click("#pick-daifugo")
    page.locator("#options summary").click()
    boxes = page.locator("[data-option='forbidden_finish'] input")
    assert [boxes.nth(i).is_checked() for i in range(boxes.count())] == [True, True, False, False]
    page.click("#pick-napoleon")
    page.locator("#options summary").click()
    assert page.input_value("input[name=opt-removed_cards]") == "2C 2D"
    # a form the server refused is not kept (it was, before the request: 99 games for good)
    page.click("#pick-hell")
    page.fill("input[name=games]", "99")
    page.locator("#create-btn").click()
    page.wait_for_function("() => !document.querySelector('#create-btn').disabled")
    assert page.evaluate("localStorage.getItem('torampu.form.hell')") is None
    page.evaluate(
        """() => localStorage.setItem('torampu.form.hell', JSON.stringify({games: '0'}))"""
    )
    page.reload()
    page.wait_for_selector("#create-form")
    assert page.input_value("input[name=games]") == ""  # (not one the form's field takes)
    assert not problems(page), problems(page)


def test_a_seat_lost_in_a_race_is_told_in_the_players_language(server: str, browser: Any) -> None:
    """Two people press Take seat on one seat at once; the one who loses reads why in Japanese,
    without a seat number counted from 0 or an error code ("seat 0 is taken" before), and
    nothing changed for them: they are still a spectator."""
    made = post(
        f"{server}/api/tables",
        {"game": "hell", "players": 3, "seats": ["open", "open", "bot:heuristic"]},
    )
    tid = made["table"]["id"]
    page = new_page(browser, LAPTOP, "ja")
    page.goto(f"{server}/t/{tid}")
    page.wait_for_selector("[data-take='0']")

    def first_someone_else(route: Any) -> None:  # the other press reaches the server first
        post(f"{server}/api/tables/{tid}/join", {"name": "べん", "seat": 0})
        route.continue_()

    page.route("**/api/tables/*/join", first_someone_else)
    page.fill("#player-name", "あき")
    page.click("[data-take='0']")
    page.wait_for_function("() => document.querySelector('#toast')?.textContent")
    said = page.inner_text("#toast")
    assert said == "その席はちょうど埋まりました。別の席を選んでください", said
    assert not page.locator(".seat-row.me").count()
    assert page.evaluate("window.torampu?.snapshot?.seat ?? null") is None


def _at_the_adjutant(server: str, browser: Any, viewport: dict[str, int]) -> Any:
    """A page of seat 0 of a Napoleon table of people, seat 0 the Napoleon naming its adjutant
    (it bid once, the others passed)."""
    import json

    from websockets.sync.client import connect

    made = post(
        f"{server}/api/tables",
        {"game": "napoleon", "rules": "classic", "players": 5, "games": 1, "seats": ["open"] * 5},
    )
    tid, host = made["table"]["id"], made["host_token"]
    toks = [
        post(f"{server}/api/tables/{tid}/join", {"name": f"P{s}", "seat": s})["token"]
        for s in range(5)
    ]
    post(f"{server}/api/tables/{tid}/start", {}, host)
    ws_url = server.replace("http://", "ws://") + f"/ws/tables/{tid}"
    with contextlib.ExitStack() as stack:  # seat 0 bids once, the others pass
        socks = [stack.enter_context(connect(ws_url)) for _ in range(5)]
        for w, tok in zip(socks, toks, strict=True):
            w.send(json.dumps({"type": "hello", "token": tok}))
        snap: dict[str, Any] = {}
        while snap.get("view", {}).get("phase") != "adjutant":
            snap = json.loads(socks[0].recv(timeout=10))
            if snap.get("type") != "snapshot" or snap["view"]["phase"] != "bid":
                continue
            seat = snap["view"]["to_play"]
            act = "pass" if seat else next(a for a in snap["legal"] if a.startswith("bid "))
            socks[seat].send(json.dumps({"type": "act", "action": act, "version": snap["version"]}))
    seats = json.dumps({tid: {"seat": 0, "token": toks[0]}})
    page = new_page(
        browser, viewport, "en", init=f"localStorage.setItem('torampu.seats', {json.dumps(seats)})"
    )
    page.goto(f"{server}/t/{tid}")
    page.wait_for_selector("#actions .adjutant-picker [data-action]")
    return page


def test_naming_the_adjutant_on_a_phone_shows_each_suits_high_cards_big_enough_to_tap(
    server: str, browser: Any
) -> None:
    """On a phone the picker's 52 cards were 30 px wide, wrapped into eight rows, the clubs
    below the panel's edge (a usability review). Now each suit is one row from its ace down,
    scrolling sideways, its cards 42 px wide: every suit's A, K, Q and J in view at once."""
    page = _at_the_adjutant(server, browser, PHONE)
    rows = page.eval_on_selector_all(
        "#actions .adjutant-picker .adj-row",
        """rows => rows.map(r => ({suit: r.dataset.suit,
             cards: [...r.querySelectorAll('[data-action]')].map(b => {
               const x = b.getBoundingClientRect();
               return {a: b.dataset.action, w: x.width, left: x.left, right: x.right,
                       top: x.top, bottom: x.bottom}; })}))""",
    )
    panel = page.evaluate(
        """() => { const a = document.querySelector('#actions').getBoundingClientRect();
                   return {top: a.top, bottom: a.bottom, w: innerWidth}; }"""
    )
    assert [r["suit"] for r in rows] == ["S", "H", "D", "C"], rows
    for r in rows:
        ranks = [c["a"].split()[-1][:-1] for c in r["cards"]]
        assert ranks == ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"], ranks
        assert len({round(c["top"]) for c in r["cards"]}) == 1, "one row"
        for c in r["cards"][:4]:  # the high cards: in view, unscrolled
            assert c["w"] >= 40 and c["left"] >= 0 and c["right"] <= panel["w"], c
            assert panel["top"] <= c["top"] and c["bottom"] <= panel["bottom"] + 1, (c, panel)
    page.screenshot(path=str(SHOTS / "polish-adjutant-phone.png"))
    assert not problems(page), problems(page)


def test_naming_the_adjutant_on_a_laptop_leaves_the_felt_its_room(
    server: str, browser: Any
) -> None:
    """At 1366×768 the adjutant picker's four rows of cards squeezed the felt to 190 px, the
    Napoleon's own seat box over the contract. Two suits to a row now, below 900 px of height:
    the felt keeps most of its room and the seat box clears the contract."""
    page = _at_the_adjutant(server, browser, {"width": 1366, "height": 768})
    felt, me, contract = page.evaluate(
        """() => [document.querySelector('#felt'), document.querySelector('#felt .seat-box.me'),
                  document.querySelector('#felt .centre-info')]
                 .map(e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })"""
    )
    page.screenshot(path=str(SHOTS / "polish-adjutant-laptop.png"))
    assert felt[1] - felt[0] >= 300, felt
    assert me[0] >= contract[1], (me, contract)
    assert not problems(page), problems(page)


def test_a_seat_box_cuts_a_long_name_but_never_the_you_after_it(server: str, browser: Any) -> None:
    """In Japanese a four-player Hell table's own seat box read "プレイヤー1 (あ…": the
    "(あなた)" after the name was cut. The name is cut now, the mark never."""
    made = post(
        f"{server}/api/tables",
        {"game": "hell", "players": 4, "seats": ["open", *["bot:heuristic"] * 3], "games": 1},
    )
    tid, host = made["table"]["id"], made["host_token"]
    joined = post(f"{server}/api/tables/{tid}/join", {"name": "プレイヤー1プレイヤー1", "seat": 0})
    post(f"{server}/api/tables/{tid}/start", {}, host)
    page = _open(browser, server, {"id": tid, "token": joined["token"]}, LAPTOP, "ja")
    page.wait_for_selector("#felt .seat-box.me .you")
    you, name, box = page.evaluate(
        """() => ['.you', '.name', '.seat-name'].map(sel => {
             const r = document.querySelector('#felt .seat-box.me ' + sel).getBoundingClientRect();
             return [r.left, r.right]; })"""
    )
    assert page.inner_text("#felt .seat-box.me .you").strip() == "(あなた)"
    assert box[0] - 0.5 <= you[0] and you[1] <= box[1] + 0.5, (you, box)
    assert name[1] <= you[0] + 0.5, (name, you)
    assert not problems(page), problems(page)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lobby_says_how_each_game_is_played(server: str, browser: Any, lang: str) -> None:
    """ "How to play" was only in a table's Rules dialog; a newcomer choosing a game in the
    lobby now finds it under the game, for the game chosen."""
    page = new_page(browser, LAPTOP, lang)
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    texts = {}
    for game in ("napoleon", "nap", "hell", "daifugo"):
        page.click(f"#pick-{game}")
        page.wait_for_selector("#lobby-howto")
        if not page.eval_on_selector("#lobby-howto", "e => e.open"):
            page.click("#lobby-howto > summary")
        texts[game] = page.inner_text("#lobby-howto p")
        assert len(texts[game]) > 80, (game, texts[game])
    assert len(set(texts.values())) == 4, texts
    page.locator("#lobby-howto").screenshot(path=str(SHOTS / f"polish-lobby-howto-{lang}.png"))
    assert not problems(page), problems(page)


@pytest.mark.parametrize(
    ("viewport", "lang"), [(PHONE, "en"), ({"width": 360, "height": 740}, "ja")], ids=["en", "ja"]
)
def test_a_hint_turns_a_phone_s_bid_picker_to_its_bid_and_says_its_suit(
    server: str, browser: Any, viewport: dict[str, int], lang: str
) -> None:
    """A twenty-sixth review: on a phone the hint could name a bid of a number the picker did
    not show (nothing ringed, the focus nowhere), and a screen reader heard "suggests: Bid 12"
    — the suit, drawn, was lost from the announcement. The picker turns to the hint's number,
    its bid ringed and in sight (at 360×740 the hint's line squeezed the panel and the bid lay
    below its foot: a twenty-seventh review), and the announcement names the suit. (The hint is
    the server's message, sent to the page here: which bid the search suggests is its own.)"""
    tb = _table(server, "napoleon", "classic", 5, hints=True)
    sockets: list[Any] = []

    def through(ws: Any) -> None:
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)
        upstream.on_message(ws.send)
        sockets.append(ws)

    init = (
        f"localStorage.setItem('torampu.seats', JSON.stringify({{'{tb['id']}': "
        f"{{seat: 0, token: '{tb['token']}'}}}}));"
    )
    page = new_page(browser, viewport, lang, init=init, has_touch=True, is_mobile=True)
    page.route_web_socket(re.compile(r".*/ws/tables/.*"), through)
    page.goto(f"{server}/t/{tb['id']}")
    assert _wait_my_turn(page) == "bid"
    page.wait_for_selector("#bid-picker")
    snap = page.evaluate("window.torampu.snapshot")
    bids = [a for a in snap["legal"] if re.fullmatch(r"bid \d+[CDHS]", a)]
    low = min(int(a[4:-1]) for a in bids)
    target = next(a for a in bids if int(a[4:-1]) == low + 2 and a.endswith("H"))
    assert page.inner_text("#bid-picker .bid-num.on") == str(low)
    hint = {"type": "hint", "version": snap["version"], "seat": 0, "action": target}
    sockets[-1].send(json.dumps({**hint, "alternatives": [], "measure": "reward"}))
    page.wait_for_selector(f"#bid-picker [data-action='{target}'].hinted")
    assert page.inner_text("#bid-picker .bid-num.on") == str(low + 2)
    page.wait_for_timeout(200)
    inside = page.evaluate(
        """(a) => { const q = (s) => document.querySelector(s).getBoundingClientRect();
             const b = q(`[data-action='${a}']`), r = q('#actions');
             return [b.top >= r.top - 1 && b.bottom <= r.bottom + 1,
                     b.top, b.bottom, r.top, r.bottom]; }""",
        target,
    )
    assert inside[0], inside
    words = {"en": f"Bid {low + 2} hearts", "ja": f"宣言 {low + 2} ハート"}[lang]
    page.wait_for_function(
        "(n) => document.querySelector('#announce').textContent.includes(n)", arg=words
    )
    # and after a reload, the answer kept for the turn turns it again (a code review)
    page.reload()
    page.wait_for_selector(f"#bid-picker [data-action='{target}'].hinted")
    assert page.inner_text("#bid-picker .bid-num.on") == str(low + 2)
    # what is announced of a block of terms keeps each term apart, and stops close up (a
    # result's "Contract12 hearts": a code review)
    said = page.evaluate(
        """async () => { const d = await import('/static/dom.js');
             const l = await import('/static/labels.js');
             const box = d.h('div', {}, d.h('dl', {}, d.h('dt', {}, 'Contract'),
               d.h('dd', {}, l.bidNode('12H', 'napoleon')), d.h('dt', {}, 'Result'),
               d.h('dd', {}, 'Made')), d.h('p', {}, 'Adjutant ', l.cardNode('AS'), '.'),
               d.h('span', {style: {display: 'none'}}, 'hidden'));
             document.body.append(box);
             const out = d.spokenText(box);
             box.remove();
             return out; }"""
    )
    # (each label and value a sentence: "Contract: 12 hearts." — a fifty-fifth review)
    expected = {
        "en": "Contract: 12 hearts. Result: Made. Adjutant ♠A.",
        "ja": "Contract、12 ハート。Result、Made。Adjutant ♠A.",
    }[lang]
    assert said == expected, said
    assert not problems(page), problems(page)


def test_napoleons_bids_are_a_table_of_number_and_suit_all_in_view(
    server: str, browser: Any
) -> None:
    """The bids were a flow of up to 40 buttons wrapped at the screen's width: 14♠ sat under 13♦
    on one screen and under 15♣ on another (a usability review). Now each bid has the cell of
    its number and its suit, a row per suit, and every one is in view unscrolled — with the
    hint's line under them too (the ♠ row was half hidden then: a twenty-fifth review)."""
    across = "number"
    tb = _table(server, "napoleon", "classic", 5, hints=True)
    page = _open(browser, server, tb, LAPTOP, "en")
    assert _wait_my_turn(page) == "bid"
    page.wait_for_selector("#hint-button")
    cells = page.eval_on_selector_all(
        '#actions .bid-table [data-action^="bid "]',
        """els => els.map(e => { const s = getComputedStyle(e), b = e.getBoundingClientRect();
             return {a: e.dataset.action, row: +s.gridRowStart, col: +s.gridColumnStart,
                     top: b.top, bottom: b.bottom}; })""",
    )
    assert len(cells) >= 16, cells
    suits = sorted({c["a"][-1] for c in cells}, key="CDHSN".index)
    low = min(int(c["a"].split()[1][:-1]) for c in cells)
    for c in cells:
        number, suit = int(c["a"].split()[1][:-1]), suits.index(c["a"][-1]) + 1
        # across = what changes along a row
        want = (suit, number - low + 1) if across == "number" else (number - low + 1, suit)
        assert (c["row"], c["col"]) == want, c
    panel = page.evaluate(
        """() => { const a = document.querySelector('#actions').getBoundingClientRect();
                   return {top: a.top, bottom: a.bottom, h: innerHeight}; }"""
    )
    for c in cells:
        assert panel["top"] <= c["top"] and c["bottom"] <= min(panel["bottom"], panel["h"]) + 1, (
            c,
            panel,
        )
    page.screenshot(path=str(SHOTS / "polish-napoleon-bid-table-1366.png"))
    assert not problems(page), problems(page)


@pytest.mark.parametrize(
    "viewport",
    [PHONE, {"width": 360, "height": 740}, {"width": 844, "height": 390}],
    ids=["up", "small", "side"],
)
def test_a_phone_bids_by_number_then_suit_with_buttons_a_finger_finds(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    """A twenty-fifth review: on a phone Napoleon's bids were a table of ten rows of buttons
    24 px high, the last rows cut at the panel's foot (on its side, the suits under the fold).
    Now the numbers are a row, the suits of the number picked another, every button at least
    36 px high and all in view, a suit no longer open shown idle; the bid a first tap marked
    says "tap again" on itself, the second tap bids it, and picking another number unmarks it
    — with the hint's line under them (at 360×740 the suits were cut then: a code review)."""
    tb = _table(server, "napoleon", "classic", 5, hints=True)
    page = _open(browser, server, tb, viewport, "en", touch=True)
    assert _wait_my_turn(page) == "bid"
    legal = [a for a in page.evaluate("window.torampu.snapshot.legal") if a.startswith("bid ")]
    page.wait_for_selector("#bid-picker")
    measure = """() => { const a = document.querySelector('#actions').getBoundingClientRect();
        const r = (e) => { const b = e.getBoundingClientRect();
                           return {t: e.textContent, top: b.top, bottom: b.bottom, h: b.height,
                                   on: !e.disabled, act: e.dataset.action || null}; };
        return {panel: [a.top, a.bottom], h: innerHeight,
                nums: [...document.querySelectorAll('#bid-picker .bid-num')].map(r),
                suits: [...document.querySelectorAll('#bid-picker .bid-suits button')].map(r)}; }"""
    m = page.evaluate(measure)
    numbers = sorted({int(a.split()[1][:-1]) for a in legal})
    assert [int(n["t"]) for n in m["nums"]] == numbers
    shown = m["nums"] + m["suits"]
    for b in shown:
        assert b["h"] >= 36 and m["panel"][0] <= b["top"] and b["bottom"] <= m["panel"][1] + 1, (
            b,
            m,
        )
        assert b["bottom"] <= m["h"], b
    # the lowest number first: its suits, the ones not open idle
    low = numbers[0]
    assert {b["act"] for b in m["suits"] if b["on"]} == {
        a for a in legal if a.startswith(f"bid {low}")
    }
    assert all(b["t"].startswith(str(low)) for b in m["suits"])
    page.locator(".bid-num", has_text=str(numbers[1])).tap()
    page.locator(f"[data-action='bid {numbers[1]}C']").tap()
    page.wait_for_selector(f"[data-action='bid {numbers[1]}C'].armed[data-again='tap again']")
    page.locator(".bid-num", has_text=str(numbers[2])).tap()  # another number: unmarked
    page.wait_for_selector(f"[data-action='bid {numbers[2]}C']")
    assert page.locator(".armed").count() == 0
    page.locator(f"[data-action='bid {numbers[2]}C']").tap()
    page.locator(f"[data-action='bid {numbers[2]}C']").tap()
    page.wait_for_function(
        "(b) => (window.torampu.snapshot.view.auction || [])"
        ".some((x) => x.seat === 0 && x.action === b)",
        arg=f"bid {numbers[2]}C",
    )
    page.screenshot(path=str(SHOTS / f"polish-napoleon-bid-picker-{viewport['width']}.png"))
    assert not problems(page), problems(page)


@pytest.mark.parametrize("game", ["nap", "hell"])
def test_a_phone_on_its_side_shows_every_bid_whole_beside_pass(
    server: str, browser: Any, game: str
) -> None:
    """A twenty-fifth review: on a phone on its side (844×390, the hint's line under the
    actions) Nap's Pass, "Bid:" and the bids took three lines, the bids cut in half and their
    stakes hidden. Now the bids share Pass's line and every one is whole in the panel."""
    tb = _table(server, game, None, 5, hints=True)
    page = _open(browser, server, tb, {"width": 844, "height": 390}, "en", touch=True)
    assert _wait_my_turn(page) == "bid"
    page.wait_for_selector("#hint-button")
    m = page.evaluate(
        """() => { const a = document.querySelector('#actions'), p = a.getBoundingClientRect();
             const r = (e) => { const b = e.getBoundingClientRect();
                                return {t: e.textContent, top: b.top, bottom: b.bottom}; };
             return {panel: [p.top, p.bottom],
                     buttons: [...a.querySelectorAll('button[data-action]')].map(r),
                     stakes: [...a.querySelectorAll('.bid-stake')].map(r)}; }"""
    )
    assert m["buttons"], m
    for b in m["buttons"] + m["stakes"]:
        assert m["panel"][0] <= b["top"] and b["bottom"] <= m["panel"][1] + 1, (b, m["panel"])
    assert game != "nap" or m["stakes"], m
    page.screenshot(path=str(SHOTS / f"polish-{game}-bids-on-its-side.png"))
    assert not problems(page), problems(page)


def test_hell_says_how_a_round_scores_and_its_info_keeps_its_values_readable(
    server: str, browser: Any
) -> None:
    """Hell's scores came with no word of how they were counted (a usability review): the info
    panel now says it with the table's own numbers. And the dealer's "may not bid 0 (…)" line,
    a label with no value, widened the label column until the trump beside it wrapped letter
    by letter; a label with no value is a line of its own now."""
    # (two players: the dealer, seat 0, bids after one bot, whose bid never passes the cards, so
    # the hook always forbids a bid; with four, two bots bidding 1 on one card left none, and the
    # line this test looks for never came: a flaky CI run)
    rules = {"players": 2, "exact_base": 5, "exact_per_trick": 2, "miss_per_trick": -1}
    page = _open(browser, server, _table(server, "hell", rules, 2), LAPTOP, "en")
    assert _wait_my_turn(page) == "bid"
    text = page.locator("#hell-scoring").inner_text()
    assert "5 + 2 a trick bid" in text and "took 2: 9" in text and "−1 a trick off" in text, text
    # (the line comes with the snapshot in which the dealer is to bid: wait for its drawing)
    page.wait_for_function(
        "() => document.querySelector('#info')?.innerText.includes('may not bid')"
    )
    info = page.locator("#info").inner_text()
    assert "may not bid" in info, "the dealer bids last, with the hook: the long line is there"
    # the forbidden bid stands among the bids, struck through and idle, not missing (a
    # fifteenth review: "0 2 3 5" read as a broken row)
    hooked = page.locator("#actions #hooked-bid")
    assert hooked.is_disabled() and "may not bid" in (hooked.get_attribute("title") or "")
    shown = page.eval_on_selector_all(
        "#actions .bids .bidbtn", "bs => bs.map((b) => Number(b.textContent))"
    )
    assert shown == sorted(shown) and shown == list(range(len(shown))), shown
    widths = page.eval_on_selector_all(
        "#info .kv dd",
        """dds => dds.filter(d => d.textContent.trim()).map(d =>
             [d.previousElementSibling.textContent, d.getBoundingClientRect().width,
              d.parentElement.getBoundingClientRect().width])""",
    )
    for label, w, whole in widths:
        assert w >= 0.45 * whole, (label, w, whole)
    page.screenshot(path=str(SHOTS / "polish-hell-scoring.png"))
    assert not problems(page), problems(page)


def test_the_felt_keeps_its_size_while_the_others_bid(server: str, browser: Any) -> None:
    """The actions panel came with this player's turn and went with it: in an auction on a
    laptop the felt shrank from 354 to 149 px and grew back at every turn, its seats jumping (a
    usability review). The panel now keeps its height in the phase while others move, saying
    whose turn it is."""
    import json

    from websockets.sync.client import connect

    made = post(
        f"{server}/api/tables",
        {"game": "napoleon", "rules": "classic", "players": 5, "games": 1, "seats": ["open"] * 5},
    )
    tid, host = made["table"]["id"], made["host_token"]
    toks = [
        post(f"{server}/api/tables/{tid}/join", {"name": f"P{s}", "seat": s})["token"]
        for s in range(5)
    ]
    post(f"{server}/api/tables/{tid}/start", {}, host)
    seats = json.dumps({tid: {"seat": 0, "token": toks[0]}})
    page = new_page(
        browser, LAPTOP, "en", init=f"localStorage.setItem('torampu.seats', {json.dumps(seats)})"
    )
    page.goto(f"{server}/t/{tid}")
    felt = "() => Math.round(document.querySelector('#felt').getBoundingClientRect().height)"
    ws_url = server.replace("http://", "ws://") + f"/ws/tables/{tid}"
    with contextlib.ExitStack() as stack:  # the others pass until the page's turn
        socks = [stack.enter_context(connect(ws_url)) for _ in range(5)]
        for w, tok in zip(socks, toks, strict=True):
            w.send(json.dumps({"type": "hello", "token": tok}))

        def others_pass_until_seat_0() -> None:
            while True:
                snap = json.loads(socks[0].recv(timeout=10))
                if snap.get("type") != "snapshot":
                    continue
                seat = snap["view"]["to_play"]
                if seat == 0:
                    return
                act = {"type": "act", "action": "pass", "version": snap["version"]}
                socks[seat].send(json.dumps(act))

        others_pass_until_seat_0()
        page.wait_for_selector('#actions [data-action^="bid "]')
        mine = page.evaluate(felt)
        page.locator('#actions [data-action^="bid "]').first.click()
        if page.locator("#actions .bidbtn.armed").count():
            page.locator("#actions .bidbtn.armed").click()
        page.wait_for_selector("#actions-wait")
        assert "'s turn" in page.locator("#actions-wait").inner_text()
        assert abs(page.evaluate(felt) - mine) <= 2, (page.evaluate(felt), mine)
        page.screenshot(path=str(SHOTS / "polish-napoleon-others-bid-1366.png"))
    assert not problems(page), problems(page)


def _play_by_socket(base: str, tid: str, tokens: list[str]) -> None:
    """Play the match of table ``tid`` to its end for the seats ``tokens`` hold (first legal
    action), over websockets of their own."""
    from websockets.sync.client import connect

    url = base.replace("http://", "ws://") + f"/ws/tables/{tid}"
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(connect(url, open_timeout=10)) for _ in tokens]
        for ws, token in zip(socks, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
        acted: dict[int, int] = {}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for i, ws in enumerate(socks):
                try:
                    msg = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                assert msg["type"] != "error", msg
                if msg["type"] != "snapshot":
                    continue
                if msg["table"]["status"] == "over":
                    return
                if msg["legal"] and acted.get(i) != msg["version"]:
                    acted[i] = msg["version"]
                    act = {"type": "act", "action": msg["legal"][0], "version": msg["version"]}
                    ws.send(json.dumps(act))
        raise AssertionError("the match did not end")


def _finished_hell_of_two(server: str) -> tuple[str, str, list[str]]:
    """A one-game Hell table of Aki (seat 0), Ben (seat 1) and a bot, played to its end:
    (id, host token, [Aki's token, Ben's])."""
    made = post(
        f"{server}/api/tables",
        {"game": "hell", "players": 3, "games": 1, "seats": ["open", "open", "bot:heuristic"]},
    )
    tid, host = made["table"]["id"], made["host_token"]
    tokens = [
        post(f"{server}/api/tables/{tid}/join", {"name": name, "seat": s})["token"]
        for s, name in enumerate(("Aki", "Ben"))
    ]
    post(f"{server}/api/tables/{tid}/start", {}, host)
    _play_by_socket(server, tid, tokens)
    return tid, host, tokens


def test_a_finished_match_s_scores_show_whole_above_the_rematch_on_a_phone_on_its_side(
    server: str, browser: Any
) -> None:
    """A thirty-sixth review: Hell for four, two deals, over, on a phone on its side — the
    rematch's band cut the last row of the scores ("ソラ +10 −3 7"), the replay's link on a line
    of its own below the button. The link is one word beside the button; every row is above
    the band."""
    made = post(
        f"{server}/api/tables",
        {"game": "hell", "players": 4, "games": 2, "seats": ["open"] + ["bot:heuristic"] * 3},
    )
    tid, host = made["table"]["id"], made["host_token"]
    token = post(f"{server}/api/tables/{tid}/join", {"name": "Aki", "seat": 0})["token"]
    post(f"{server}/api/tables/{tid}/start", {}, host)
    _play_by_socket(server, tid, [token])
    page = _open(
        browser,
        server,
        {"id": tid, "token": token},
        {"width": 844, "height": 390},
        "ja",
        touch=True,
    )
    page.wait_for_selector("#between .between-foot #rematch-button")
    page.wait_for_timeout(300)
    cut = page.evaluate(
        """() => { const last = [...document.querySelectorAll('#between-scores tbody tr')].at(-1);
             const foot = document.querySelector('#between .between-foot');
             return last.getBoundingClientRect().bottom - foot.getBoundingClientRect().top; }"""
    )
    page.screenshot(path=str(SHOTS / "hell4-over-phone-side-ja.png"))
    assert cut <= 1, f"the rematch's band lies {cut:.0f} px over the last row"
    assert page.inner_text("#between-replay") == "振り返る"
    assert not problems(page), problems(page)


def test_a_private_table_s_replay_opens_by_its_link(server: str, browser: Any) -> None:
    """A tenth review: a private table's replay opened by its link in a fresh browser,
    ``/t/<id>/replay/<k>#invite=…``, said "そのテーブル(またはゲーム)はありません" (the
    table's page kept the invite of its link, the replay's did not: only its in-table link,
    followed once the table had kept it, worked); and every person's seat in the replay had a
    grey "offline" dot: a replay is a record, with nobody's presence on it."""
    import urllib.request

    made = post(
        f"{server}/api/tables",
        {"game": "hell", "players": 3, "games": 1, "private": True,
         "seats": ["open", "open", "bot:heuristic"]},
    )  # fmt: skip
    tid, invite = str(made["table"]["id"]), str(made["invite"])
    tokens = []
    for s, name in enumerate(("Aki", "Ben")):
        ask = urllib.request.Request(
            f"{server}/api/tables/{tid}/join",
            json.dumps({"name": name, "seat": s}).encode(),
            {"Content-Type": "application/json", "X-Torampu-Invite": invite},
            method="POST",
        )
        with urllib.request.urlopen(ask, timeout=10) as r:
            tokens.append(str(json.loads(r.read())["token"]))
    post(f"{server}/api/tables/{tid}/start", {}, made["host_token"])
    _play_by_socket(server, tid, tokens)
    page = new_page(browser, PHONE, "ja")  # a fresh browser: nothing of the table kept
    page.goto(f"{server}/t/{tid}/replay/0#invite={invite}")
    page.wait_for_selector("#replay-slider, #table-gone")
    page.screenshot(path=str(SHOTS / "private-replay-link-opened-phone-ja.png"))
    assert not page.locator("#table-gone").count(), page.locator("#table-gone").inner_text()
    page.click("#replay-next")
    page.wait_for_selector("#felt .seat-box[data-seat='1']")
    assert "#invite=" in page.url, "the address stays the replay's link"
    # no presence on the record: the bot's sign stays (it says who played), no dot, no moon
    assert page.locator("#felt .pres.dot, #felt .pres.away").count() == 0
    assert page.locator("#felt .pres.bot").count() == 1
    labels = page.eval_on_selector_all(
        "#felt .seat-box", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels and not [x for x in labels if "接続中" in x or "未接続" in x], labels
    page.screenshot(path=str(SHOTS / "private-replay-by-link-phone-ja.png"))
    # the way back to the table works from there (the invite is kept)
    page.click(".share a[href$='/t/" + tid + "']")
    page.wait_for_selector("#felt .seat-box")
    assert page.url.endswith(f"#invite={invite}")
    # without the invite the replay stays closed
    stranger = new_page(browser, PHONE, "ja")
    stranger.goto(f"{server}/t/{tid}/replay/0")
    stranger.wait_for_selector("#table-gone")
    assert not problems(page), problems(page)
    assert not problems(stranger), problems(stranger)
    page.context.close()
    stranger.context.close()


def test_a_rematch_is_asked_for_and_accepted_not_forced(server: str, browser: Any) -> None:
    """A fifth review: one player's click on Rematch moved everyone to a new match, without
    asking them or saying who had asked. Now the one who asks sees whom it waits for, the other
    is told who asked (in the results box and in the chat) and accepts, and both move."""
    tid, _, tokens = _finished_hell_of_two(server)
    pages = []
    for seat, (viewport, lang) in enumerate(((LAPTOP, "en"), (PHONE, "ja"))):
        held = json.dumps({tid: {"seat": seat, "token": tokens[seat]}})
        page = new_page(
            browser, viewport, lang, f"localStorage.setItem('torampu.seats', {json.dumps(held)})"
        )
        page.goto(f"{server}/t/{tid}")
        page.wait_for_selector("#rematch-button:not([disabled])")
        pages.append(page)
    aki, ben = pages
    # on a phone on its side the button stays in sight at the box's foot (it was below every
    # game's scores, out of sight: a twenty-third review)
    ben.set_viewport_size({"width": 844, "height": 390})
    ben.wait_for_timeout(300)
    seen = ben.evaluate(
        """() => { const r = document.querySelector('#rematch-button').getBoundingClientRect();
                   const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                   const foot = document.querySelector('#rematch-button').closest('.between-foot');
                   return at?.closest('#rematch-button') !== null && r.bottom <= innerHeight
                     && !!foot && getComputedStyle(foot).position === 'sticky'; }"""
    )
    ben.screenshot(path=str(SHOTS / "rematch-phone-side-ja.png"))
    assert seen, "the rematch button is out of sight on a phone on its side"
    ben.set_viewport_size(PHONE)
    aki.wait_for_function("() => window.torampu?.snapshot?.table?.seats?.[1]?.connected")
    ben.click("#rematch-button")
    ben.wait_for_selector("#rematch-button[disabled]")
    assert ben.inner_text("#rematch-button") == "再戦を希望しました"
    # (an answer awaited, not a Ready: a twenty-third review)
    assert ben.inner_text("#rematch-waiting") == "返事待ち: Aki"
    aki.wait_for_selector("#rematch-asked")
    assert aki.inner_text("#rematch-asked") == "Ben would like a rematch"
    assert aki.inner_text("#rematch-button") == "Accept the rematch"
    said = "() => document.querySelector('#chat-list').textContent"
    aki.wait_for_function(f"() => ({said})().includes('Ben would like a rematch')")
    aki.wait_for_timeout(1000)
    assert tid in aki.url and tid in ben.url, "nobody moved before everyone asked"
    aki.screenshot(path=str(SHOTS / "rematch-asked-laptop-en.png"))
    ben.screenshot(path=str(SHOTS / "rematch-asked-phone-ja.png"))
    # Ben takes it back (a wish stood once made: a later review), and Aki reads nothing more
    # of it; then asks again
    assert ben.inner_text("#rematch-withdraw") == "希望を取り消す"
    ben.click("#rematch-withdraw")
    ben.wait_for_selector("#rematch-button:not([disabled])")
    aki.wait_for_selector("#rematch-asked", state="detached")
    assert aki.inner_text("#rematch-button") == "Rematch (same seats and rules)"
    ben.click("#rematch-button")
    aki.wait_for_selector("#rematch-asked")
    aki.click("#rematch-button")
    aki.wait_for_url(lambda url: tid not in url)
    new = get(f"{server}/api/tables/{tid}")["rematch"]
    assert new
    for page in pages:
        page.wait_for_url(f"**/t/{new}")
    assert not problems(aki) and not problems(ben), (problems(aki), problems(ben))


def test_a_player_who_says_no_to_a_rematch_is_replaced_by_a_bot_and_it_is_said(
    server: str, browser: Any
) -> None:
    """A sixth review: a player who left while the other asked for a rematch was seated in
    it anyway (the other waited at each of their turns, and they could not find the seat).
    Now "Not this time" (or leaving) says no: the rematch starts with a bot in that seat,
    and the new table says who did not come."""
    tid, _, tokens = _finished_hell_of_two(server)
    pages = []
    for seat in (0, 1):
        held = json.dumps({tid: {"seat": seat, "token": tokens[seat]}})
        # (once: at the rematch's page the browser holds the new table's seat too — an init
        # script runs at every load, and put the old seats back, making Aki a spectator there)
        key = "'torampu.seats'"
        init = f"localStorage.getItem({key}) || localStorage.setItem({key}, {json.dumps(held)})"
        page = new_page(browser, LAPTOP, "en", init)
        page.goto(f"{server}/t/{tid}")
        page.wait_for_selector("#rematch-button:not([disabled])")
        pages.append(page)
    aki, ben = pages
    # the match over, the keyboard is at the Rematch button (14 Tabs away in Hell before)
    aki.wait_for_function("() => document.activeElement?.id === 'rematch-button'")
    aki.wait_for_function("() => window.torampu?.snapshot?.table?.seats?.[1]?.connected")
    aki.click("#rematch-button")
    ben.wait_for_selector("#rematch-decline")
    ben.click("#rematch-decline")
    ben.wait_for_url(f"{server}/")
    aki.wait_for_url(lambda url: tid not in url, timeout=30000)
    aki.wait_for_function(
        "() => (document.querySelector('#toast')?.textContent || '')"
        ".includes('Ben did not come to the rematch: a bot plays in their place')"
    )
    new = get(f"{server}/api/tables/{tid}")["rematch"]
    seats = get(f"{server}/api/tables/{new}")["seats"]
    assert [(s["kind"], s["name"]) for s in seats][:2] == [("human", "Aki"), ("bot", None)]
    # Ben thinks again (or was only away a moment: an eleventh review's friend, gone 3 s as
    # the host asked, could only watch): the old table's page takes him to the rematch, in
    # his seat again, and he is told what the bot played for him; Aki reads that he came
    # (a page of its own: Aki's browser holds no seat of Ben's)
    ben = new_page(browser, PHONE, "en")
    ben.goto(f"{server}/")
    held = json.dumps({tid: {"seat": 1, "token": tokens[1]}})
    ben.evaluate("(held) => localStorage.setItem('torampu.seats', held)", held)
    # the lobby lists the finished table among his own, saying a bot plays his seat in its
    # rematch (it was folded away among the finished ones: a thirteenth review); its page says
    # the rematch began without him, and offers the seat back
    ben.reload()
    row = f"#my-tables [data-table='{tid}']"
    ben.wait_for_selector(f"{row} .reclaim")
    assert "A bot plays your seat" in ben.inner_text(f"{row} .reclaim")
    # an offer, not the red of "Your turn" (loud after a plain "Not this time": a fourteenth
    # review)
    assert "your-turn" not in (ben.get_attribute(f"{row} .reclaim", "class") or "")
    ben.screenshot(path=str(SHOTS / "lobby-reclaim-phone-en.png"))
    ben.click(f"{row} a")
    ben.wait_for_selector("#rematch-taken")
    assert ben.inner_text("#rematch-open") == "Take your seat back in the rematch"
    ben.screenshot(path=str(SHOTS / "rematch-seat-taken-phone-en.png"))
    ben.click("#rematch-open")
    ben.wait_for_url(f"**/t/{new}")
    ben.wait_for_function("() => window.torampu?.snapshot?.seat === 1")
    seats = get(f"{server}/api/tables/{new}")["seats"]
    assert [(s["kind"], s["name"]) for s in seats][:2] == [("human", "Aki"), ("human", "Ben")]
    if ben.evaluate("() => window.torampu.snapshot.stood_in"):
        assert "a bot made" in ben.inner_text("#stood-in")
    ben.screenshot(path=str(SHOTS / "rematch-seat-back-phone-en.png"))
    aki.wait_for_function(
        "() => document.querySelector('#chat-list').textContent"
        ".includes('Ben is back: seat 2 is theirs again')"
    )
    assert not problems(aki) and not problems(ben), (problems(aki), problems(ben))


def test_a_line_gone_dead_is_found_out_and_a_lost_move_is_said(server: str, browser: Any) -> None:
    """A sixth review: with the network gone quiet (nothing closed), the page said "connected"
    for a minute, the felt "Your turn", and the move made then came back to the hand without
    a word. Now a ping or a move unanswered for 8 s gives the socket up: a band over the table
    says the connection is lost (the hand out of reach), a new socket is opened, and the move
    that never arrived is said to be lost. (The page's first socket goes quiet on cue; the
    next ones pass.)"""
    tb = _table(server, "hell", {"players": 3}, 3)
    # the socket the page has open when the line goes quiet (not always its first: on a loaded
    # machine a ping went unanswered 8 s before, the page opened another, and the quiet first
    # one held nothing — a clean-clone run's failure), and none after it
    held = {"quiet": 0, "sockets": 0}

    def route(ws: Any) -> None:
        held["sockets"] += 1
        n = held["sockets"]
        upstream = ws.connect_to_server()
        quiet = lambda: held["quiet"] == n  # noqa: E731
        ws.on_message(lambda m: None if quiet() else upstream.send(m))
        upstream.on_message(lambda m: None if quiet() else ws.send(m))

    init = (
        f"localStorage.setItem('torampu.seats', JSON.stringify({{'{tb['id']}': "
        f"{{seat: 0, token: '{tb['token']}'}}}}));"
    )
    page = new_page(browser, PHONE, "en", init=init)
    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    page.goto(f"{server}/t/{tb['id']}")
    page.wait_for_selector("#felt [data-seat='0']")
    _wait_my_turn(page)
    version = page.evaluate("() => window.torampu.snapshot.version")
    # the band is up from the give-up to the next socket's opening, about half a second: a
    # loaded CI machine's polling missed it once (the page had given up, reconnected, and
    # hidden it again), so the page itself writes down each time the band shows
    page.evaluate(
        """() => {
        const band = document.querySelector('#conn-banner');
        window.bandSeen = [];
        new MutationObserver(() => {
          if (!band.hidden)
            window.bandSeen.push([band.textContent, document.body.dataset.conn]);
        }).observe(band, {attributes: true, childList: true, subtree: true});
      }"""
    )
    held["quiet"] = held["sockets"]
    page.locator("#actions button[data-action]").first.click()
    try:
        page.wait_for_function("() => window.bandSeen.length > 0", timeout=20000)
    except Exception:  # (what may tell why, next time)
        seen = page.evaluate("() => [window.torampu.snapshot.version, document.body.dataset.conn]")
        pytest.fail(f"no banner: sockets {held}, version and line {seen} (was {version})")
    text, line = page.evaluate("() => window.bandSeen[0]")
    assert "Connection lost" in text
    assert line == "closed"
    if page.is_visible("#conn-banner"):  # (for the eye, when it is still up)
        page.screenshot(path=str(SHOTS / "conn-lost-phone-en.png"))
    page.wait_for_function(
        "() => (document.querySelector('#toast')?.textContent || '').includes('did not arrive')",
        timeout=20000,
    )
    page.wait_for_selector("#conn-banner", state="hidden")
    assert held["sockets"] >= 2
    assert page.evaluate("() => window.torampu.snapshot.version") == version  # nothing played
    _wait_my_turn(page)
    assert not problems(page), problems(page)


def test_the_lobby_takes_a_seat_along_to_a_rematch_made_while_away(
    server: str, browser: Any
) -> None:
    """A sixth review: the host made the rematch while a friend was away from the page; the
    friend's seat was theirs at the new table, but the lobby did not list it as theirs (only
    "Watch", and watching showed their own seat away). The lobby takes the seat along: the
    rematch is listed under "Your tables" and opens at the seat."""
    tid, host, tokens = _finished_hell_of_two(server)
    new = post(f"{server}/api/tables/{tid}/rematch", {}, host)["table"]["id"]
    held = json.dumps({tid: {"seat": 1, "token": tokens[1]}})
    ben = new_page(browser, LAPTOP, "en")  # (stored once: an init script runs at every page)
    ben.goto(f"{server}/")
    ben.evaluate("(held) => localStorage.setItem('torampu.seats', held)", held)
    ben.reload()
    ben.wait_for_selector(f"#my-tables [data-table='{new}']")
    stored = "() => JSON.parse(localStorage.getItem('torampu.seats'))"
    assert ben.evaluate(stored)[new] == {"seat": 1, "token": tokens[1]}
    ben.goto(f"{server}/t/{new}")
    ben.wait_for_function("() => window.torampu?.snapshot?.seat === 1")
    assert not problems(ben), problems(ben)


def test_a_page_refused_after_its_hello_backs_off(server: str, browser: Any) -> None:
    """An eleventh audit: a page whose socket was accepted and then refused after its hello
    (one spectator too many from an address) reconnected twice a second for ever: its backoff
    started again at every socket opened. It starts again at a snapshot only."""
    made = _bots(server, "daifugo", 3, 4, "heuristic")
    tid = made["table"]["id"]
    pages = []
    for _ in range(4):  # --watchers-per-address (4): this address's spectators at the table
        page = new_page(browser, LAPTOP, "en")
        page.goto(f"{server}/t/{tid}")
        page.wait_for_function("() => !!window.torampu?.snapshot")
        pages.append(page)
    late = new_page(browser, LAPTOP, "en")
    sockets: list[Any] = []
    late.on("websocket", lambda ws: sockets.append(ws))
    late.goto(f"{server}/t/{tid}")
    late.wait_for_timeout(6000)
    assert not late.evaluate("() => !!window.torampu?.snapshot"), "the fifth was let in"
    assert 1 <= len(sockets) <= 5, len(sockets)  # (0.5, 1, 2, 4 s apart; twice a second before)
    for page in pages:
        page.close()


def _one_game_won_by_several(
    server: str, game: str, players: int, tries: int
) -> tuple[str, list[int]]:
    """A finished one-game table of heuristic bots whose game more than one seat won (up to
    ``tries`` deals): its id and the game's winners."""
    for _ in range(tries):
        made = _bots(server, game, 1, players, "heuristic")
        _until_over(server, made)
        tid = str(made["table"]["id"])
        won = get(f"{server}/api/tables/{tid}/games")["games"][0]["result"]["winners"]
        if len(won) > 1:
            return tid, list(won)
    pytest.fail(f"{tries} deals of {game} in a row won by one seat at most")


def test_a_one_game_napoleon_won_by_a_side_says_the_side_won(server: str, browser: Any) -> None:
    """A seventh review: a one-game Napoleon won by the allied army read "Winners (tied): Ben,
    Ren, Yui" (their equal totals), and one won by the Napoleon and the adjutant named the
    Napoleon alone (the larger score). The side that won is named as one side."""
    # (a Napoleon who was their own adjutant wins alone: another deal)
    tid, side = _one_game_won_by_several(server, "napoleon", 5, 4)
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/t/{tid}")
    page.wait_for_selector("#between-detail")  # (the game's result has come)
    said = page.inner_text("#between-winner")
    assert said.startswith("Winning side: "), said
    assert "tied" not in said and said.split(": ", 1)[1].count(", ") == len(side) - 1, said
    # (short names: "Mina (normal bot), Sora (normal bot), …" ran over two lines, a tenth review)
    assert "(" not in said, said
    assert get(f"{server}/api/tables/{tid}")["result"]["side"] is True
    page.screenshot(path=str(SHOTS / "napoleon-side-won-laptop-en.png"))
    # the side column's finished games keep "Game 1", "Replay" and "Record (JSON)" whole (they
    # wrapped as "Ga / me", "Rep / lay": the same review)
    page.wait_for_selector("ul.finished li a[data-replay]")
    tall = page.eval_on_selector_all(
        "ul.finished li > :not(.finished-points)",
        "(els) => els.filter((e) => e.getBoundingClientRect().height >"
        " 1.8 * parseFloat(getComputedStyle(e).fontSize)).map((e) => e.textContent)",
    )
    assert not tall, tall
    assert not problems(page), problems(page)


def test_a_finished_match_shows_each_game_s_points_and_the_way_out(
    server: str, browser: Any
) -> None:
    """A tenth review: the box at a match's end showed the last game's points alone, nothing of
    how the match went, and led back to the lobby only once someone had asked for a rematch
    ("Not this time"). Each game has its column (up to 12), and the lobby its link."""
    made = _bots(server, "nap", 3, 4, "heuristic")
    _until_over(server, made)
    tid = str(made["table"]["id"])
    totals = get(f"{server}/api/tables/{tid}/games")
    per_game = [g["result"]["scores"] for g in totals["games"]]
    for size, lang, head in ((LAPTOP, "en", "G"), (PHONE, "ja", "第")):
        page = new_page(browser, size, lang)
        page.goto(f"{server}/t/{tid}")
        page.wait_for_selector("#between-scores.per-game")
        # the game's summary above them is the last game's, and says so (under "Winner: …" it
        # read as the match's: a twenty-third review)
        page.wait_for_selector("#between-last")
        last = page.inner_text("#between-last")
        assert last == ("The last game, game 3:" if lang == "en" else "最終ゲーム (第3ゲーム):"), (
            last
        )
        heads = page.eval_on_selector_all(
            "#between-scores th", "(ths) => ths.map((x) => x.textContent)"
        )
        assert len(heads) == 5 and all(head in x for x in heads[1:4]), heads
        rows = page.eval_on_selector_all(
            "#between-scores tbody tr",
            "(trs) => trs.map((tr) => [Number(tr.dataset.seat),"
            " [...tr.querySelectorAll('td')].map((td) => td.textContent)])",
        )
        for seat, cells in rows:
            shown = [int(x) for x in cells[1:4]]
            assert shown == [g[seat] for g in per_game], (seat, cells, per_game)
            assert int(cells[4]) == sum(shown)
        assert page.locator("#between-lobby").get_attribute("href") == "/"
        page.screenshot(path=str(SHOTS / f"match-over-per-game-{lang}.png"))
        assert not problems(page), problems(page)
        page.click("#between-lobby")
        page.wait_for_selector("#create-form")


@pytest.mark.parametrize(
    ("size", "touch"), [((360, 740), True), ((1024, 700), False), ((1366, 768), False)]
)
def test_a_no_trump_bid_fits_its_button_in_japanese(
    server: str, browser: Any, size: tuple[int, int], touch: bool
) -> None:
    """A forty-sixth review: Napoleon's no-trump bids broke inside the word on a laptop
    ("11ノート / ランプ"), and on a 360 px phone the picker's cell broke it at each letter,
    its row 105 px tall. The number, then "ノー" "トランプ" on lines of their own: no bid
    button taller than its row's others need, none overflowing."""
    made = post(
        f"{server}/api/tables",
        {
            "game": "napoleon",
            "rules": "house-002",
            "players": 5,
            "seats": ["open"] + ["bot:heuristic"] * 4,
        },
    )
    tid, host = made["table"]["id"], made["host_token"]
    joined = post(f"{server}/api/tables/{tid}/join", {"name": "あき", "seat": 0})
    post(f"{server}/api/tables/{tid}/start", {}, host)
    tb = {"id": tid, "host": host, "token": joined["token"]}
    page = _open(browser, server, tb, {"width": size[0], "height": size[1]}, "ja", touch=touch)
    page.wait_for_selector(".bid-picker, .bid-table", timeout=30000)
    got = page.evaluate(
        """() => [...document.querySelectorAll('.bid-picker .bid-suits .act, .bid-table .act')]
          .map((b) => ({nt: /N$/.test(b.dataset.action || b.dataset.bidShut || ''),
                        h: b.getBoundingClientRect().height,
                        over: b.scrollWidth > b.clientWidth + 1
                          || b.scrollHeight > b.clientHeight + 1}))"""
    )
    nts = [g for g in got if g["nt"]]
    others = [g for g in got if not g["nt"]]
    assert nts and others, got
    assert not any(g["over"] for g in got), got
    tallest = max(g["h"] for g in others)
    # (upright, one row of 44 px buttons, none stretched by the word; a laptop's table, the
    # word a line or two of its own)
    most = 56 if touch else 2.6 * tallest
    assert not touch or tallest <= most, got
    assert all(g["h"] <= most for g in nts), (nts[:2], tallest)
    page.screenshot(path=str(SHOTS / f"polish-no-trump-{size[0]}.png"))
    assert not problems(page), problems(page)


def test_a_napoleon_game_s_scores_say_each_player_s_side(server: str, browser: Any) -> None:
    """A forty-sixth review: the box at a Napoleon game's end named the Napoleon and the
    adjutant above, and its rows went by the points, with no side beside them (the seats'
    badges gone with the next deal): who fought with whom was to be worked out. Each row says
    its side — the Napoleon, the adjutant, or the allies."""
    made = _bots(server, "napoleon", 1, 5, "heuristic")
    _until_over(server, made)
    tid = str(made["table"]["id"])
    result = get(f"{server}/api/tables/{tid}/games")["games"][0]["result"]
    nap, adj = result["napoleon"], result.get("adjutant")
    for size, lang, names in (
        (LAPTOP, "en", ("Side", "Napoleon", "Adjutant", "Allies")),
        (PHONE, "ja", ("陣営", "ナポレオン", "副官", "連合軍")),
    ):
        page = new_page(browser, size, lang)
        page.goto(f"{server}/t/{tid}")
        page.wait_for_selector("#between-scores")
        heads = page.eval_on_selector_all(
            "#between-scores th", "(ths) => ths.map((x) => x.textContent)"
        )
        assert names[0] in heads, heads
        col = heads.index(names[0])
        rows = page.eval_on_selector_all(
            "#between-scores tbody tr",
            "(trs) => trs.map((tr) => [Number(tr.dataset.seat),"
            " [...tr.querySelectorAll('td, th')].map((td) => td.textContent)])",
        )
        assert len(rows) == 5, rows
        for seat, cells in rows:
            side = names[1] if seat == nap else names[2] if seat == adj else names[3]
            assert cells[col] == side, (seat, cells, nap, adj)
        page.screenshot(path=str(SHOTS / f"napoleon-sides-{lang}.png"))
        assert not problems(page), problems(page)


def test_a_one_game_hell_is_won_by_the_best_score_not_a_side(server: str, browser: Any) -> None:
    """The page took any one-game match whose game had several winners for a side: a one-game
    Hell, where the game's "winners" are the seats that made their bids, read "Winning side:
    Aki, Ben" over unequal scores. Hell's match is won by the best score (tied seats all
    named), as the server's ``table.result`` says, on the page and in the lobby alike."""
    tid, _made_bids = _one_game_won_by_several(server, "hell", 3, 6)  # (two made their bids)
    result = get(f"{server}/api/tables/{tid}")["result"]
    best = max(result["scores"])
    assert result["side"] is False
    assert result["winners"] == [s for s, v in enumerate(result["scores"]) if v == best]
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/t/{tid}")
    # (once the finished game's result has come: the page read its winners as a side then)
    page.wait_for_selector("ul.finished li a[data-replay]")
    said = page.locator("#between-winner").inner_text()
    tied = len(result["winners"]) > 1
    assert said.startswith("Winners (tied): " if tied else "Winner: "), (said, result)
    assert said.split(": ", 1)[1].count(", ") == len(result["winners"]) - 1, said
    assert not problems(page), problems(page)


def test_a_long_name_in_the_turn_line_wraps_on_a_phone(server: str, browser: Any) -> None:
    """A seventh review: "Wolfeschlegelsteinhausenbergerdorffwelch の番です" (40 letters, no
    space) ran under the line's button and past the screen's edge on a phone. It wraps."""
    long = "Wolfeschlegelsteinhausenbergerdorffwelch"
    made = post(
        f"{server}/api/tables",
        {"game": "hell", "players": 3, "games": 1, "seats": ["open", "heuristic", "heuristic"]},
    )
    tid = made["table"]["id"]
    post(f"{server}/api/tables/{tid}/join", {"name": long, "seat": 0})
    post(f"{server}/api/tables/{tid}/start", {}, made["host_token"])
    page = new_page(browser, PHONE, "ja")
    page.goto(f"{server}/t/{tid}")
    page.wait_for_function(
        "n => document.querySelector('#status .status-text')?.textContent.includes(n)", arg=long
    )
    box = page.evaluate(
        """() => { const t = document.querySelector('#status .status-text');
             const r = t.getBoundingClientRect();
             const b = document.querySelector('#side-jump').getBoundingClientRect();
             return {right: r.right, width: innerWidth, over: t.scrollWidth - t.clientWidth,
                     meets: r.right > b.left + 1}; }"""
    )
    page.screenshot(path=str(SHOTS / "long-name-turn-phone-ja.png"))
    assert box["over"] <= 1 and box["right"] <= box["width"] and not box["meets"], box
    assert not problems(page), problems(page)


def test_a_chosen_card_on_a_phone_leaves_the_hint_button_whole(server: str, browser: Any) -> None:
    """An eighth review: on a phone a chosen card rose 16 px, over the bottom of the Hint
    button just above the hand. It rises within the hand's own space."""
    # (a heuristic bot's game can end before this seat ever has a card to play: none in 3,000
    # simulated deals did, but a new table is dealt then, up to three times, not skipped)
    for _ in range(3):
        made = post(
            f"{server}/api/tables",
            {
                "game": "daifugo",
                "players": 4,
                "games": 1,
                "hints": True,
                "seats": ["open", "heuristic", "heuristic", "heuristic"],
            },
        )
        tid = made["table"]["id"]
        tok = post(f"{server}/api/tables/{tid}/join", {"name": "あき", "seat": 0})["token"]
        post(f"{server}/api/tables/{tid}/start", {}, made["host_token"])
        page = _open(browser, server, {"id": tid, "token": tok}, PHONE, "ja")
        deadline = time.monotonic() + 60
        while not page.locator('#hand .card[data-legal="1"]').count():
            assert time.monotonic() < deadline, "no turn with cards to play"
            if _wait_my_turn(page) == "over":
                break  # (the bots ended the game before a turn of this seat to play)
            if not page.locator('#hand .card[data-legal="1"]').count():
                page.locator('#actions [data-action="pass"]').click()
                page.wait_for_timeout(300)
        else:
            break
        page.context.close()
    else:
        pytest.fail("three Daifugo games ended before a turn of this seat to play")
    page.wait_for_selector("#hint-button")
    _tap(page.locator('#hand .card[data-legal="1"]').first)
    # (as a finger leaves it: a mouse over the card, or the keyboard's focus, lifts it less)
    page.mouse.move(1, 1)
    page.evaluate("() => document.activeElement?.blur()")
    page.wait_for_timeout(200)  # (the card's rise, 0.12 s)
    assert page.locator("#hand .card.selected").count() == 1
    assert not _over_the_box_above(page), _over_the_box_above(page)
    assert not problems(page), problems(page)


@pytest.mark.parametrize(
    ("game", "players", "rules"),
    [("nap", 4, None), ("napoleon", 5, {"early_end": True, "early_end_judged": "true_teams"})],
)
def test_a_deal_stopped_once_decided_says_why_cards_are_left(
    server: str, browser: Any, game: str, players: int, rules: Any
) -> None:
    """A tenth review: a Nap deal stops once its contract is decided, and the result read
    "Made (2 tricks taken)" beside cards left in every hand, nothing saying why. The result
    says the remaining tricks were not played (Napoleon's ``early_end`` alike), in both
    languages."""
    for _ in range(6):
        made = _bots(server, game, 1, players, "random", rules=rules)
        _until_over(server, made)
        tid = str(made["table"]["id"])
        res = get(f"{server}/api/tables/{tid}/games")["games"][0]["result"]
        if res.get("early_end"):
            break
    else:
        pytest.fail(f"six deals of {game} in a row played to the last trick")
    won = res["made"] if game == "nap" else res["army_won"]
    for lang, said in (
        ("en", f"{'Made' if won else 'Beaten'} before the end: the remaining tricks"),
        ("ja", f"{'成功' if won else '失敗'}が決まったため、残りのトリックは行いませんでした"),
    ):
        page = new_page(browser, LAPTOP, lang)
        page.goto(f"{server}/t/{tid}")
        page.wait_for_selector("#between-detail")  # (the game's result has come)
        assert said in page.inner_text("#between-detail"), page.inner_text("#between-detail")
        assert said in page.inner_text("#result"), page.inner_text("#result")
        page.screenshot(path=str(SHOTS / f"{game}-early-end-laptop-{lang}.png"))
        assert not problems(page), problems(page)
        page.context.close()


def test_a_device_gone_offline_is_said_at_once_and_comes_back_online(
    server: str, browser: Any
) -> None:
    """A tenth review: with the browser offline the page kept its green dot and "Your turn"
    for 12 s and more (a dead line was found out only at a ping's unanswered 8 s). The
    browser's ``offline`` gives the socket up at once: the band over the table says the
    connection is lost; back ``online``, the page reconnects and plays on."""
    tb = _table(server, "hell", {"players": 3}, 3)
    page = _open(browser, server, tb, PHONE, "ja")
    _wait_my_turn(page)
    assert page.evaluate("() => document.body.dataset.conn") == "open"
    page.context.set_offline(True)
    # (well inside the 8 s a ping's answer is waited for, and the 25 s between pings)
    page.wait_for_selector("#conn-banner:not([hidden])", timeout=2000)
    assert page.evaluate("() => document.body.dataset.conn") == "closed"
    page.screenshot(path=str(SHOTS / "conn-offline-phone-ja.png"))
    page.wait_for_timeout(3000)  # (the sockets tried meanwhile do not open: still lost)
    assert page.locator("#conn-banner").is_visible()
    page.context.set_offline(False)
    page.wait_for_selector("#conn-banner", state="hidden", timeout=5000)
    page.wait_for_function("() => document.body.dataset.conn === 'open'", timeout=5000)
    _wait_my_turn(page)
    assert not problems(page), problems(page)


def test_a_big_screen_is_used(server: str, browser: Any) -> None:
    """A twelfth review: at 1920×1080 the table kept to 1,280 px of the screen, wide margins
    either side, its cards small. A big screen gets a wider page, side column and cards; a
    laptop's short one closer set side panels."""
    tb = _table(server, "hell", {"players": 3}, 3)
    init = (
        f"localStorage.setItem('torampu.seats', JSON.stringify({{'{tb['id']}': "
        f"{{seat: 0, token: '{tb['token']}'}}}}));"
    )
    page = new_page(browser, {"width": 1920, "height": 1080}, "en", init=init)
    page.goto(f"{server}/t/{tb['id']}")
    page.wait_for_selector("#hand .card")
    width = "(sel) => document.querySelector(sel).getBoundingClientRect().width"
    assert page.evaluate(width, "main") >= 1650
    assert page.evaluate(width, "#hand .card") >= 80
    assert page.evaluate(width, "#side") >= 380
    page.screenshot(path=str(SHOTS / "big-screen-hell-en.png"))
    # (and a person's whole name on hover, where a long one is cut: a thirteenth review)
    assert page.get_attribute("#felt .seat-box[data-seat='0']", "title") == "あき"
    # a laptop keeps its layout; on its short screen (768 px) the side panels are set closer
    # (the standings ran out of sight under the rules panel: the same review)
    pad = (
        "() => parseFloat(getComputedStyle(document.querySelector('#side .panel.side')).paddingTop)"
    )
    page.set_viewport_size({"width": 1366, "height": 900})
    assert page.evaluate(width, "main") <= 1280
    roomy = page.evaluate(pad)
    page.set_viewport_size({"width": 1366, "height": 768})
    assert page.evaluate(pad) < roomy - 3, (page.evaluate(pad), roomy)
    assert not problems(page), problems(page)


ZOOM_200 = {"width": 640, "height": 400}
"""A 1280×800 laptop at 200 % browser zoom, in CSS pixels."""


def test_at_200_percent_zoom_the_bids_and_the_hand_can_be_reached(
    server: str, browser: Any
) -> None:
    """A sixteenth review (a low-vision player, 200 % zoom): the one-screen table squashed the
    action bar to 18 px — a sliver of one button, none of the bids — and the hand ran past the
    window's foot, the page unable to scroll. A window this short scrolls the table instead:
    every bid button and every card can be scrolled to, whole."""
    tb = _table(server, "napoleon", "classic", 5)
    page = _open(browser, server, tb, ZOOM_200, "en")
    until = time.monotonic() + 60
    while _wait_my_turn(page) != "bid":
        assert time.monotonic() < until, "no bidding turn"
        page.wait_for_timeout(200)
    page.wait_for_selector("#actions [data-action]")
    # each one scrolled to: the point a little inside its top and its bottom edge is its own
    # (not a box it lies under, nor outside a container that clips it)
    reach = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
        el.scrollIntoView({block: 'nearest', inline: 'nearest'});
        const b = el.getBoundingClientRect();
        const x = b.left + Math.min(8, b.width / 2);
        const mine = (y) => el.contains(document.elementFromPoint(x, y));
        return [el.dataset.action || el.dataset.bidNum || el.dataset.card, Math.round(b.height),
                mine(b.top + 3) && mine(b.bottom - 3)];
      })"""
    # (a window this narrow picks a bid's number, then its suit: the numbers are buttons too)
    buttons = page.evaluate(reach, "#actions [data-action], #actions [data-bid-num]")
    assert len(buttons) > 10, buttons
    cut = [b for b in buttons if b[1] < 24 or not b[2]]
    page.screenshot(path=str(SHOTS / "zoom200-bids.png"))
    assert not cut, cut[:5]
    cards = page.evaluate(reach, "#hand [data-card]")
    assert len(cards) >= 10, cards
    cut = [c for c in cards if c[1] < 60 or not c[2]]
    assert not cut, cut[:5]
    page.screenshot(path=str(SHOTS / "zoom200-hand.png"))
    assert not problems(page), problems(page)


def test_a_screen_reader_hears_who_takes_each_trick_and_how_the_game_went(
    server: str, browser: Any
) -> None:
    """A sixteenth review (a blind player): the live regions said every card played and whose
    turn it was, but never who took a trick, nor how the game went or their points. The
    table's announcer says the trick's taker and why, and the game's result with the player's
    points."""
    tb = _table(server, "hell", "standard", 3)
    watch = """() => { window.__said = [];
      new MutationObserver(() => { const t = document.querySelector('#announce').textContent;
        if (t) window.__said.push(t); })
        .observe(document.querySelector('#announce'), {childList: true, characterData: true,
                                                          subtree: true}); }"""
    page = _open(browser, server, tb, LAPTOP, "en")
    page.wait_for_selector("#announce", state="attached")
    page.evaluate(watch)
    assert page.get_attribute("#announce", "aria-live") == "polite"
    until = time.monotonic() + 60
    while _wait_my_turn(page) != "over":
        assert time.monotonic() < until, "the deal did not end"
        before = page.locator("#status").get_attribute("data-version")
        cards = page.locator('#hand .card[data-legal="1"]')
        (cards.first if cards.count() else page.locator("#actions [data-action]").first).click()
        _after(page, before)
    page.wait_for_function("() => window.__said.some(t => t.includes('Your points:'))")
    said = page.evaluate("window.__said")
    assert any(re.search(r"takes the trick · .+ wins", x) for x in said), said
    result = next(x for x in said if "Your points:" in x)
    assert result.startswith("The series is over. Winner"), result
    assert re.search(r"Your points: [+-]?\d+, -?\d+ in all", result), result
    assert not problems(page), problems(page)


def test_a_friend_from_the_link_is_told_where_they_are_and_the_keyboard_has_a_place(
    server: str, browser: Any
) -> None:
    """A sixteenth review: a friend who opened the host's link on a phone met the host's share
    notes and nothing saying where they were; a blank name sat them as 「プレイヤー2」 without a
    word; the seats' buttons were four "この席に座る" to a screen reader and the link box had no
    name. And the keyboard began on the page's body after "Create table" and after Start. The
    newcomer is greeted, told who sits there already and of the name given them; the buttons
    name their seats; the host's page starts at its Start button, the game at the hand."""
    made = post(f"{server}/api/tables", {"game": "daifugo", "players": 4, "games": 1})
    tid, host = made["table"]["id"], made["host_token"]
    post(f"{server}/api/tables/{tid}/join", {"name": "Aki", "seat": 0})
    friend = new_page(browser, PHONE, "ja", has_touch=True, is_mobile=True)
    friend.goto(f"{server}/t/{tid}")
    friend.wait_for_selector("#join-intro")
    intro = friend.inner_text("#join-intro")
    assert "大富豪のテーブルに招待されています" in intro and "着席中: Aki" in intro, intro
    assert friend.get_attribute("[data-take='1']", "aria-label") == "2番の席に座る"
    assert friend.get_attribute("#share-link", "aria-label") == "共有リンク"
    assert friend.evaluate("document.activeElement === document.body")  # (no keyboard popping)
    friend.screenshot(path=str(SHOTS / "join-intro-phone-ja.png"))
    friend.fill("#player-name", "")
    friend.click("[data-take='1']")
    friend.wait_for_selector(".seat-row.me[data-seat='1']")
    friend.wait_for_function(
        "() => (document.querySelector('#toast')?.textContent || '').includes('として座りました')"
    )
    assert "「プレイヤー2」として座りました" in friend.inner_text("#toast")
    assert not friend.locator("#join-intro").count()  # (seated: the intro has done its work)
    hosts = json.dumps(json.dumps({tid: host}))
    page = new_page(browser, LAPTOP, "en", init=f"localStorage.setItem('torampu.host', {hosts})")
    page.goto(f"{server}/t/{tid}")
    page.wait_for_selector("#start-btn")
    assert not page.locator("#join-intro").count()  # (the host made the table)
    page.wait_for_function(
        "() => ['sit-start-btn', 'start-btn'].includes(document.activeElement?.id)"
    )
    page.keyboard.press("Enter")  # the host starts (taking seat 3 first, or watching)
    wait_shown(page, "#felt", server)
    page.wait_for_function("() => document.activeElement?.id === 'hand'")
    label = page.get_attribute("#hand", "aria-label") or ""
    assert "arrow keys" in label, label
    # with no ring until a key is pressed (a twenty-fifth review: a gold frame round the whole
    # hand through the auction read as "play a card"); then the keyboard's user sees where
    ring = "() => getComputedStyle(document.getElementById('hand')).outlineStyle"
    assert page.evaluate(ring) == "none"
    page.keyboard.press("Shift")
    assert page.evaluate(ring) == "solid"
    assert not problems(friend) and not problems(page), (problems(friend), problems(page))


@pytest.mark.parametrize("size", [(390, 800), (360, 740), (844, 390)])
def test_chat_lines_at_the_seats_lie_clear_of_bids_names_and_each_other(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    """Thirty-fourth and thirty-fifth reviews: on a phone a friend's chat line lay over their
    "パス" chip — the auction's record in sight — and ran past the felt's left edge; two friends'
    first "よろしく" at once lay over each other, a top seat's over the rim and the other top
    seat's name, the player's own over the next seat's 親 badge. Four people at five seats say
    a line at once in the auction: each lies inside the felt, over no bid, name, badge or other
    line."""
    from websockets.sync.client import connect

    made = post(
        f"{server}/api/tables",
        {
            "game": "napoleon",
            "rules": "classic",
            "players": 5,
            "seats": ["open", "open", "open", "bot:heuristic", "open"],
        },
    )
    tid, host = made["table"]["id"], made["host_token"]
    names = ["あき", "Ben", "かい", "", "Dan"]
    tokens = {
        s: post(f"{server}/api/tables/{tid}/join", {"name": n, "seat": s})["token"]
        for s, n in enumerate(names)
        if n
    }
    post(f"{server}/api/tables/{tid}/start", {}, host)
    page = _open(
        browser,
        server,
        {"id": tid, "token": tokens[0]},
        {"width": size[0], "height": size[1]},
        "ja",
        touch=True,
    )
    url = server.replace("http://", "ws://") + f"/ws/tables/{tid}"
    with contextlib.ExitStack() as stack:
        socks = {s: stack.enter_context(connect(url)) for s in tokens}
        for s, ws in socks.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[s]}))
        _pass_until(
            socks.values(),
            lambda: page.locator("#felt .seat-box > .bubble").count() >= 3,
            "the auction did not come round",
        )
        # (the chat open, below the table, off the screen: a friend's line the felt has no
        # place for counts as unread — nothing showed it, a code review)
        page.evaluate("document.querySelector('#chat').open = true; scrollTo(0, 0)")
        for s, ws in socks.items():  # (the player and two friends at once)
            if s in (0, 1, 4):
                said = f"{names[s]}: よろしくお願いします！ " * 2
                ws.send(json.dumps({"type": "chat", "text": said}))
        page.wait_for_function(  # (the player's own, and the friends' that find a place)
            "() => !!document.querySelector('#felt .seat-box[data-seat=\"0\"] .reaction-bubble')"
        )
        page.wait_for_timeout(400)  # (their pop-in done)
        found = page.evaluate(
            """() => { const r = (e) => e.getBoundingClientRect();
                 const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
                   && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
                 const felt = r(document.querySelector('#felt'));
                 const lines = [...document.querySelectorAll('#felt .reaction-bubble')];
                 const marks = [...document.querySelectorAll(
                   '#felt .seat-box > .bubble, #felt .seat-box .name, #felt .seat-box .badge,'
                   + ' #felt .trick-card, #felt .centre-info, #felt .trump-chip')];
                 const out = [];
                 const say = (l, what) => out.push(`${l.textContent.slice(0, 8)} ${what}`);
                 lines.forEach((l, i) => { const a = r(l);
                   if (a.left < felt.left || a.right > felt.right || a.top < felt.top
                       || a.bottom > felt.bottom) say(l, 'leaves the felt');
                   for (const m of marks) if (meet(a, r(m))) say(l, `over ${m.textContent}`);
                   lines.slice(i + 1).forEach((o) => {
                     if (meet(a, r(o))) say(l, `over ${o.textContent.slice(0, 8)}`); });
                 });
                 return out; }"""
        )
        page.screenshot(path=str(SHOTS / f"chat-lines-at-seats-{size[0]}-ja.png"))
        shown = page.locator("#felt .reaction-bubble").count()
        unread = page.locator("#jump-unread").all_inner_texts()
        # and each popped in once: drawn again with the felt (every move), they popped each time
        page.evaluate("async () => (await import('/static/i18n.js')).setLang('en')")
        page.wait_for_function(
            "() => [...document.querySelectorAll('#felt .reaction-bubble')]"
            ".every((b) => getComputedStyle(b).animationName === 'none')"
        )
    assert not found, found
    assert shown >= (3 if size[0] > 360 else 2), shown  # (the smallest felt has room for two)
    assert unread == ([str(3 - shown)] if shown < 3 else []), (unread, shown)
    assert not problems(page), problems(page)


def test_a_friend_arriving_at_a_waiting_table_sees_which_rules_it_plays(
    server: str, browser: Any
) -> None:
    """A thirty-fourth review: an invited friend read "4 players · a match of 1 game" and not
    which rules — the first question at a house-rules table. The waiting table names its preset
    and what its host changed, and opens the list of every rule."""
    made = post(
        f"{server}/api/tables",
        {
            "game": "daifugo",
            "rules": {"preset": "standard", "eleven_back": True},
            "players": 4,
            "seats": ["open", "open", "bot:heuristic", "bot:heuristic"],
        },
    )
    tid = made["table"]["id"]
    page = new_page(browser, {"width": 360, "height": 740}, "ja", has_touch=True, is_mobile=True)
    page.goto(f"{server}/t/{tid}")
    page.wait_for_selector("#head-rules")
    said = page.inner_text("#head-rules")
    assert "標準" in said and "イレブンバック" in said, said
    page.screenshot(path=str(SHOTS / "waiting-rules-line-phone-ja.png"))
    page.click("#head-rules-open")
    page.wait_for_selector("#rules-dialog[open] #rules-preset")
    page.keyboard.press("Escape")
    post(f"{server}/api/tables/{tid}/start", {"fill": "heuristic"}, made["host_token"])
    page.wait_for_function("() => !!window.torampu?.snapshot?.view")
    assert page.locator("#head-rules").count() == 0  # (in play: the Rules button, as before)
    assert not problems(page), problems(page)


def test_a_table_s_maker_seated_without_a_name_is_told_the_name_given(
    server: str, browser: Any
) -> None:
    """The lobby seats the table's maker at its first seat; with no name typed they sat as
    "Player 1" without a word (the table's page tells a friend who sits unnamed since a
    sixteenth review; the maker, once)."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    page.click("#pick-hell")
    assert page.is_checked("#sit-me")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".seat-row.me[data-seat='0']")
    page.wait_for_function(
        "() => (document.querySelector('#toast')?.textContent || '').includes('You sit as')"
    )
    assert "You sit as Player 1" in page.inner_text("#toast")
    page.reload()  # (once)
    page.wait_for_selector(".seat-row.me[data-seat='0']")
    page.wait_for_timeout(500)
    assert "You sit as" not in (
        page.evaluate("document.querySelector('#toast')?.textContent") or ""
    )
    assert not problems(page), problems(page)
    # and it goes once the game starts (it lay over "Your turn" for its four seconds: a
    # thirty-fourth review)
    page.goto(f"{server}/")
    page.wait_for_selector("#create-form")
    page.click("#pick-hell")
    page.click("#create-form button[type=submit]")
    page.wait_for_function(
        "() => (document.querySelector('#toast.show')?.textContent || '').includes('You sit as')"
    )
    page.click("#start-btn")
    page.wait_for_function("() => !!window.torampu?.snapshot?.view")
    shown = page.evaluate("document.querySelector('#toast.show')?.textContent") or ""
    assert "You sit as" not in shown, shown
    assert not problems(page), problems(page)


def test_a_replay_ends_on_the_game_s_result_and_its_controls_speak(
    server: str, browser: Any
) -> None:
    """A twenty-first review: a replay ended on its last card, nothing said of how the game
    went (Hell: a bid of 0 that took a trick, and no score); Space on the "Every hand" box
    started the replay instead of ticking it; the slider was read "slider, 30", unnamed. The
    last step shows the game's result (scores, bids made), Space ticks the box, and the slider
    is named, its value said as the step and its move."""
    made = _bots(server, "hell", 1, 3, "random")
    tid = made["table"]["id"]
    _until_over(server, made)
    scores = get(f"{server}/api/tables/{tid}/games")["games"][0]["result"]["scores"]
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/t/{tid}/replay/0")
    page.wait_for_selector("#replay-slider")
    assert page.locator("#result").count() == 0
    slider = page.locator("#replay-slider")
    assert slider.get_attribute("aria-label") == "Step"
    assert slider.get_attribute("aria-valuetext").startswith("Step 0 / ")
    page.keyboard.press("End")
    page.wait_for_selector("#side #result")
    said = [int(x) for x in page.locator("#result td.score").all_inner_texts()]
    assert said == scores, (said, scores)
    assert "Result of" in page.inner_text("#result h3")
    # in sight: the side column's first panel, and the points in the step's line (it lay at
    # the column's foot, out of sight: a twenty-second review)
    assert page.eval_on_selector("#side section", "s => s.id") == "result"
    line = page.inner_text("#replay-points")
    assert "Result of deal 1" in line and all(f"{v:+d}".lstrip("+") in line for v in scores), line
    value = slider.get_attribute("aria-valuetext")
    assert re.match(r"Step (\d+) / \1 · .+: Play ", value), value
    page.click("#replay-prev")
    page.wait_for_function("() => !document.querySelector('#result')")
    page.focus("#replay-all")
    page.keyboard.press("Space")
    page.wait_for_timeout(300)
    assert page.is_checked("#replay-all")
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"
    assert not problems(page), problems(page)


def test_a_quick_game_s_first_turn_has_no_word_on_changing_one_s_name(
    server: str, browser: Any
) -> None:
    """A twenty-first review: "You sit as Player 1: 'Change name' beside your seat changes it
    until the start" lay over the first turn of a quick game against bots — started already,
    with no such button. Said only at a table that waits."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    page.click("#pick-hell")
    page.click("#quick-play")
    page.wait_for_function("() => !!window.torampu?.snapshot?.view")
    page.wait_for_timeout(800)
    assert "You sit as" not in (
        page.evaluate("document.querySelector('#toast.show')?.textContent") or ""
    )
    assert not problems(page), problems(page)


def test_a_replay_on_a_phone_on_its_side_shows_its_felt_beside_one_row_of_controls(
    server: str, browser: Any
) -> None:
    """A twenty-first review: on a phone on its side (667×375) the replay's title, links and
    controls took 260 px in three rows, the felt below the screen, and Next went out of reach
    once scrolled to it. The controls are one row, the felt in the left half of the screen."""
    made = _bots(server, "hell", 1, 3, "random")
    tid = made["table"]["id"]
    _until_over(server, made)
    page = new_page(browser, {"width": 667, "height": 375}, "en")
    page.goto(f"{server}/t/{tid}/replay/0")
    page.wait_for_selector("#replay-slider")
    page.click("#replay-next")
    rows = page.eval_on_selector_all(
        "#replay-controls > *",
        "els => new Set(els.map(e => Math.round(e.getBoundingClientRect().top / 20))).size",
    )
    assert rows == 1, rows
    felt = page.eval_on_selector("#felt", "e => e.getBoundingClientRect().toJSON()")
    assert felt["top"] < 180 and felt["bottom"] <= 375 + 4 and felt["right"] <= 667 * 0.6, felt
    nxt = page.eval_on_selector("#replay-next", "e => e.getBoundingClientRect().toJSON()")
    assert nxt["bottom"] <= 375 and nxt["right"] <= 667, nxt
    status = page.eval_on_selector("#status", "e => e.getBoundingClientRect().toJSON()")
    assert status["left"] > felt["right"] and status["bottom"] <= 375, status
    assert not problems(page), problems(page)


def test_a_replay_s_trump_chip_on_a_phone_on_its_side_leaves_the_seats_names_in_sight(
    server: str, browser: Any
) -> None:
    """A thirty-fourth review: in a replay of five at Hell on a phone on its side, the chip
    "切り札♥・宣言計 0/1" lay over the top left seat's box, its name unread. It sits at the
    felt's foot, as at the table."""
    made = _bots(server, "hell", 1, 5, "random")
    _until_over(server, made)
    page = new_page(browser, {"width": 844, "height": 390}, "ja", has_touch=True, is_mobile=True)
    page.goto(f"{server}/t/{made['table']['id']}/replay/0")
    page.wait_for_selector("#felt .trump-chip")
    over = page.evaluate(
        """() => { const c = document.querySelector('#felt .trump-chip').getBoundingClientRect();
             return [...document.querySelectorAll('#felt .seat-box')].map((b) => {
               const r = b.getBoundingClientRect();
               const w = Math.min(c.right, r.right) - Math.max(c.left, r.left);
               const h = Math.min(c.bottom, r.bottom) - Math.max(c.top, r.top);
               return w > 0 && h > 0 ? Math.round(w * h) : 0; }); }"""
    )
    page.screenshot(path=str(SHOTS / "replay-hell5-phone-side-ja.png"))
    assert not any(over), f"the trump chip lies over seat boxes (px²): {over}"
    assert not problems(page), problems(page)


def test_nap_s_bids_say_what_they_are_worth_and_its_result_works_the_points_out(
    server: str, browser: Any
) -> None:
    """A twenty-third review: Nap's bid buttons read "ツー (2) / スリー (3) / ミゼール / フォー
    (4) / ナップ", nothing said what Misère is nor what a contract pays, and the result box
    said "-9" alone. Each bid shows its points per other player, a note says how they are paid
    and what Misère is, and the result works the points out."""
    for _ in range(4):  # (bots before this seat may end the auction: Nap, then Wellington)
        page = _open(browser, server, _table(server, "nap", {}, 4, games=2), PHONE, "ja")
        if _wait_my_turn(page) == "bid":
            break
        page.context.close()
    else:
        raise AssertionError("the auction never came to this seat")
    stakes = page.eval_on_selector_all(
        "[data-action^='bid ']", "bs => bs.map((b) => [b.dataset.action, b.textContent])"
    )
    assert stakes and all(text.endswith(("±2", "±3", "±4", "+10 −6")) for _, text in stakes)
    assert ("bid nap", "ナップ+10 −6") in [tuple(s) for s in stakes], stakes
    note = page.inner_text("#nap-stakes-note")
    assert "1人あたり" in note and "ミゼールは1トリックも取らない" in note, note
    page.screenshot(path=str(SHOTS / "nap-bids-phone-ja.png"))
    said = page.evaluate(
        """async () => { const p = await import('/static/panels.js');
          const { setLang } = await import('/static/i18n.js');
          const table = {seats: [0, 1, 2, 3].map((s) => ({seat: s, kind: 'bot'}))};
          const detail = (made, scores) => ({declarer: 0, contract: 'misere', made,
            declarer_tricks: made ? 0 : 1, scores});
          const text = (d) => p.resultSummary(d, 'nap', table).textContent;
          const ja = text(detail(false, [-9, 3, 3, 3]));
          setLang('en');
          return [ja, text(detail(true, [9, -3, -3, -3])), text(detail(true, [10, -10]))]; }"""
    )
    assert "得点ほかの3人に3点ずつ: -9" in said[0], said
    assert "Points3 from each of the 3 others: +9" in said[1], said
    assert "Points10 from the other player: +10" in said[2], said  # (two players)
    assert not problems(page), problems(page)


def test_what_a_daifugo_play_did_is_said_to_a_screen_reader(server: str, browser: Any) -> None:
    """A twenty-third review: a revolution, 8切り, 7渡し, 都落ち were written on the felt alone,
    in no live region — a blind player heard "Play ♣4 ♦4 ♥4 ♠4" and never that the order of
    strength had turned. What a play did is said, once."""
    made = _bots(server, "daifugo", 5, 4, "random")
    record = (
        "window.__said = []; new MutationObserver(() => { const a ="
        " document.querySelector('#announce'); if (a?.textContent) window.__said.push("
        "a.textContent); }).observe(document, {subtree: true, childList: true,"
        " characterData: true});"
    )
    page = new_page(browser, LAPTOP, "en", init=record)
    page.goto(f"{server}/t/{made['table']['id']}")
    page.wait_for_selector("#felt .seat-box")  # (drawn once)
    # (what the felt shows as the page opens is not said: a ruling that comes after it is)
    first = page.evaluate("document.querySelector('#daifugo-why')?.dataset.at ?? null")
    page.wait_for_function(
        "a => { const w = document.querySelector('#daifugo-why');"
        " return w && w.dataset.at !== a && (window.__why = w.textContent); }",
        arg=first,
        timeout=30_000,
    )
    why = page.evaluate("window.__why")
    assert why
    page.wait_for_function("w => window.__said.some((s) => s.includes(w))", arg=why, timeout=10_000)
    assert not problems(page), problems(page)


def test_a_prompt_to_choose_cards_says_the_count_once_and_who_will_see_the_discards(
    server: str, browser: Any
) -> None:
    """A twenty-third review: the widow exchange read "伏せ札を手札に加えました。捨てるカードを
    3枚選んでください。 3枚選んでください。", never said that everyone would see the discards
    (reveal_discards: all), and a Daifugo 大富豪 returning cards read "You received from Ren:
    ♦A" and then "● Just received: ♦A". Each is said once — the discard described (`choose`)
    as a snapshot past 1,000 ways has it."""
    page = new_page(browser, PHONE, "ja")
    page.goto(f"{server}/")
    texts = page.evaluate(
        """async () => {
          const g = await import('/static/game.js');
          const table = {seats: [0, 1, 2, 3].map((s) => ({seat: s, kind: 'bot', bot: 'random'}))};
          const ctx = {table, mySeat: 0, live: true, act: () => {}, clear: () => {},
            onCard: () => {}};
          const bar = (view, more) => {
            const hand = document.createElement('div');
            const acts = document.createElement('div');
            document.body.append(hand, acts);
            g.renderPlay(hand, acts, view, {...ctx, ...more}, {selected: [], choice: null});
            const text = acts.querySelector('.select-bar')?.textContent ?? null;
            hand.remove(); acts.remove();
            return text;
          };
          const hand = ['2C', '3C', '4C', '5C', '6D', '7D', '8D', '9H', 'TH', 'JH', 'QS', 'KS',
                        'AS', 'JK'];
          const napoleon = (reveal) => bar({game: 'napoleon', players: 4, phase: 'exchange',
            to_play: 0, napoleon: 0, hand, hand_sizes: [14, 12, 12, 12], widow: ['JK', 'AS'],
            rules: {reveal_discards: reveal}, trick: [], tricks: [], honors_taken: [[], [], [], []],
            honor_counts: [0, 0, 0, 0], legal_actions: [],
            choose: {verb: 'discard', min: 2, max: 2, ways: 91}},
            {legal: [], choose: {verb: 'discard', min: 2, max: 2, ways: 91}});
          const daifugo = bar({game: 'daifugo', players: 4, phase: 'exchange', to_play: 0,
            hand: ['3S', '4H', 'AH', '2S'], hand_sizes: [4, 4, 4, 4], seating: [0, 1, 2, 3],
            direction: 1, out: [], titles: ['daifugo', 'fugo', 'hinmin', 'daihinmin'],
            log: [], exchange: [{rich: 0, poor: 3, count: 2, given: ['AH', '2S'],
            returned: null}]}, {legal: [], choose: {verb: 'exchange', min: 2, max: 2, ways: 6}});
          return [napoleon('all'), napoleon('honors'), napoleon('none'), daifugo];
        }"""
    )
    shown_all, shown_honors, shown_none, daifugo = texts
    for text in texts[:3]:
        assert text and text.count("枚選んでください") == 1, text
        assert "同じ枚数を捨てます" in text, text
    assert "捨てた札は全員に公開されます" in shown_all, shown_all
    assert "捨てた絵札は全員に公開されます" in shown_honors, shown_honors
    assert "公開" not in shown_none, shown_none
    # said in sentences, each to its end (a twenty-fifth review: "同じ枚数を捨てます: (捨てた札
    # は全員に公開されます) 4枚選んでください", and "…受け取ったカード: ♠A 1枚選んでください")
    want = "伏せ札を手札に加えました。同じ枚数を捨てます。 捨てた絵札は全員に公開されます。"
    want += " 2枚選んでください。"
    assert shown_honors.startswith(want), shown_honors
    assert daifugo and daifugo.count("♥A") == 1, daifugo
    assert re.search(r"受け取ったカード: ♥A ♠2。 ?2枚選んでください", daifugo), daifugo
    assert not problems(page), problems(page)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_play_that_would_go_out_on_a_forbidden_finish_is_warned_of_before_it_is_made(
    server: str, browser: Any, lang: str
) -> None:
    """A twenty-eighth review: under forbidden finishes (反則上がり) a player went out on ♦2 and
    was ranked last, told only by a badge after. The view names such plays
    (``foul_finishes``: the engine's, tested with the rules); the page says so in the select
    bar as soon as the play is chosen, and not for another play. (Which play is one is the
    server's word, set here on a snapshot on its way: a lone 2 at a hand's end is a long game
    away.)"""
    tb = _table(server, "daifugo", "yaita", 4)
    marked: list[str] = []

    def mark(message: str | bytes) -> str | bytes:
        msg = json.loads(message)
        legal = msg.get("legal") or [] if msg.get("type") == "snapshot" else []
        singles = [a for a in legal if re.fullmatch(r"play \w\w", a)]
        if singles and msg["view"].get("phase") == "play":
            marked[:] = [singles[0]]
            msg["view"]["foul_finishes"] = {singles[0]: "2"}
            return json.dumps(msg)
        return message

    def through(ws: Any) -> None:
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)
        upstream.on_message(lambda m: ws.send(mark(m)))

    init = (
        f"localStorage.setItem('torampu.seats', JSON.stringify({{'{tb['id']}': "
        f"{{seat: 0, token: '{tb['token']}'}}}}));"
    )
    page = new_page(browser, {"width": 1366, "height": 768}, lang, init=init)
    page.route_web_socket(re.compile(r".*/ws/tables/.*"), through)
    page.goto(f"{server}/t/{tb['id']}")
    while _wait_my_turn(page) != "play" or not marked:
        phase = page.locator("#status").get_attribute("data-phase")
        assert phase != "over", "no play of a single card came"
        legal = page.evaluate("window.torampu.snapshot.legal")
        page.locator(f'#actions [data-action="{legal[0]}"]').first.click()  # (an exchange)
        page.wait_for_timeout(300)
    foul = marked[0]
    assert page.locator("#foul-warn").count() == 0
    page.locator(f'#hand .card[data-card="{foul.split()[1]}"]').first.click()
    page.wait_for_selector("#foul-warn")
    words = {"en": "forbidden finish", "ja": "反則上がり"}[lang]
    assert words in page.inner_text("#foul-warn"), page.inner_text("#foul-warn")
    assert {"en": "a 2", "ja": "2で"}[lang] in page.inner_text("#foul-warn")
    page.locator("[data-clear]").click()
    page.wait_for_function("() => !document.querySelector('#foul-warn')")
    assert not problems(page), problems(page)


def test_the_match_s_last_box_says_daifugo_s_titles_and_keeps_the_totals_in_sight(
    server: str, browser: Any
) -> None:
    """A twenty-eighth review: (1) Daifugo's match-over box gave every game's points and
    nothing of the last game — its titles, a great revolution, a forbidden finish — where each
    game's own box had them; (2) on a 360 px phone the totals of a seven-deal Hell series lay
    behind a sideways scroll nothing showed (合計 cut to "合言"); (3) "dealt again 1 time"."""
    made = _bots(server, "daifugo", 2, 4, "bot:heuristic")
    _until_over(server, made)
    page = new_page(browser, {"width": 1366, "height": 768}, "en")
    page.goto(f"{server}/t/{made['table']['id']}")
    page.wait_for_selector("#between-scores.per-game")
    detail = page.inner_text("#between-detail")
    assert "Titles" in detail and "Daifugo (richest)" in detail, detail
    assert page.locator("#between-scores th").all_inner_texts()[-1] == "Total"
    ones = page.evaluate(
        "async () => { const i = await import('/static/i18n.js');"
        " return [1, 3].map((n) => i.t('redealsText', { n })); }"
    )
    assert ones == ["everyone passed: dealt again once", "everyone passed: dealt again 3 times"]
    page.close()

    hell = _bots(server, "hell", 7, 7, "bot:heuristic")
    _until_over(server, hell)
    page = new_page(browser, {"width": 360, "height": 740}, "ja", has_touch=True, is_mobile=True)
    page.goto(f"{server}/t/{hell['table']['id']}")
    page.wait_for_selector("#between-scores.per-game")
    box = page.evaluate(
        """() => { const s = document.querySelector('#between .between-scroll');
        const head = [...s.querySelectorAll('thead th')];
        const r = (e) => e.getBoundingClientRect();
        return { wide: s.scrollWidth > s.clientWidth + 1, right: r(s).right, left: r(s).left,
                 total: r(head.at(-1)), name: r(head[0]), text: head.at(-1).textContent }; }"""
    )
    assert box["text"] == "合計"
    # and how the last deal went, each seat's bid and tricks: the sheet has every deal's points,
    # not the deal's bids, and the box said nothing of them — "-3" with no reason (a
    # thirty-ninth review)
    assert page.locator("#between-last").count() == 1
    assert page.locator("#between-detail .result-lines li").count() == 7
    assert box["wide"], box  # (seven games and the names: wider than the phone)
    assert box["left"] - 1 <= box["total"]["left"] and box["total"]["right"] <= box["right"] + 1
    page.evaluate("() => { document.querySelector('#between .between-scroll').scrollLeft = 1e4; }")
    first = page.evaluate(
        "() => document.querySelector('#between-scores thead th').getBoundingClientRect().left"
    )
    assert abs(first - box["name"]["left"]) <= 1  # (the names stay too)
    assert not problems(page), problems(page)


def test_a_phone_s_lobby_lists_every_table_in_the_page_with_their_number(
    server: str, browser: Any
) -> None:
    """A twenty-ninth review: on a phone the table list was a box of its own, scrolling inside
    the scrolling page; it cut on a row's edge and the tables in play inside it lay out of
    sight with nothing to say so. On a phone the list is part of the page, and its heading
    says how many tables it holds."""
    for _ in range(12):
        _bots(server, "nap", 5, 4, "bot:heuristic")
    page = new_page(browser, {"width": 390, "height": 844}, "ja", has_touch=True, is_mobile=True)
    page.goto(f"{server}/")
    page.wait_for_selector("#tables-title .count")
    listed = page.evaluate(
        """() => { const h = document.querySelector('#tables-title');
        const list = h.nextElementSibling;
        return { n: list.querySelectorAll(':scope > li').length,
                 count: h.querySelector('.count').textContent,
                 boxed: list.scrollHeight > list.clientHeight + 1 }; }"""
    )
    assert listed["n"] >= 12 and listed["count"] in (f" ({listed['n']})", f" ({listed['n']}+)")
    assert not listed["boxed"], listed  # (the page scrolls, the list does not)
    assert not problems(page), problems(page)


@pytest.mark.parametrize(
    ("viewport", "lang"),
    [
        ({"width": 360, "height": 740}, "ja"),
        ({"width": 360, "height": 740}, "en"),
        ({"width": 390, "height": 844}, "ja"),
        ({"width": 844, "height": 390}, "ja"),
    ],
    ids=["360", "360-en", "390", "844x390"],
)
def test_seven_at_hell_on_a_phone_the_trump_chip_covers_no_seat(
    server: str, browser: Any, viewport: dict[str, int], lang: str
) -> None:
    """A twenty-eighth review: seven at Hell on a 360 px phone, the trump chip in the felt's
    lower left corner lay over the lower left seat's box — its bid and, when it dealt, its
    dealer mark (the hook's dealer). The two boxes beside the player's own sit a little higher
    and the chip a little lower; on its side the chip's parts are a line each (a dot hung at a
    wrapped line's end). A thirty-ninth review, in English at 360×740: the chip (three lines,
    "1 bid on 1 trick") lay over that box's bid again, and the two top boxes over each other
    ("took 0" cut) — the boxes are two lines there, the top two further apart."""
    tb = _table(server, "hell", "standard", 7, 4)
    page = _open(browser, server, tb, viewport, lang, touch=True)
    page.wait_for_selector("#trump-chip")
    hits = page.evaluate(
        """() => { const r = (e) => e.getBoundingClientRect();
        const meet = (q, c) => q.left < c.right - 1 && c.left < q.right - 1
          && q.top < c.bottom - 1 && c.top < q.bottom - 1;
        const chip = r(document.querySelector('#trump-chip'));
        const boxes = [...document.querySelectorAll('#felt .seat-box')];
        const out = boxes.filter((b) => meet(r(b), chip)).map((b) => `chip ${b.dataset.seat}`);
        for (const a of boxes) for (const b of boxes) {
          if (a.dataset.seat < b.dataset.seat && meet(r(a), r(b)))
            out.push(`${a.dataset.seat} ${b.dataset.seat}`);
        }
        return out; }"""
    )
    page.screenshot(path=str(SHOTS / f"hell7-chip-{lang}-{viewport['width']}.png"))
    assert hits == [], hits
    dots = page.evaluate(
        "() => [...document.querySelectorAll('#trump-chip .sep')]"
        ".filter((e) => getComputedStyle(e).display !== 'none').length"
    )
    assert dots == 0
    assert not problems(page), problems(page)


def test_seven_at_hell_on_a_phone_on_its_side_keep_the_trick_off_the_seats(
    server: str, browser: Any
) -> None:
    """A thirty-first and a thirty-second review: on a phone on its side (844×390), seven at
    Hell, the felt had half the width: seven seat boxes of three lines lay over each other and
    a fifth of a trick's card under a seat box, the right half of the screen mostly empty. With
    six to eight the felt has three fifths of the width and the boxes two lines."""
    made = _bots(server, "hell", 3, 7, "random")
    page = new_page(browser, {"width": 844, "height": 390}, "en", has_touch=True, is_mobile=True)
    # a finished trick held on the page, its cards at rest, the server's messages held back from
    # the moment its caption shows (on a loaded machine the next trick began within the 400 ms
    # the cards take: four cards of it, one flying from its seat box, were measured once)
    page.add_init_script(HELD)
    page.add_init_script(
        "new MutationObserver(() => { if (document.querySelector('#trick-taker'))"
        " window.__hold = true; }).observe(document, { childList: true, subtree: true });"
    )
    page.goto(f"{server}/t/{made['table']['id']}")
    page.wait_for_selector("#trick-taker", timeout=30_000)
    page.wait_for_timeout(400)
    laid = page.evaluate(
        """() => { const r = (e) => e.getBoundingClientRect();
    const boxes = [...document.querySelectorAll('#felt .seat-box')].map(r);
    const cards = [...document.querySelectorAll('#felt .trick-card')].map(r);
    const ov = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
      * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    let card = 0, box = 0;
    for (const c of cards) {
      for (const b of boxes) card = Math.max(card, ov(c, b) / (c.width * c.height));
    }
    for (const a of boxes) for (const b of boxes) if (a !== b) box = Math.max(box, ov(a, b));
    return { cards: cards.length, card, box,
      felt: r(document.querySelector('#felt')).width / window.innerWidth }; }"""
    )
    assert laid["cards"] == 7, laid
    assert laid["box"] == 0, laid  # (65 px² before)
    assert laid["card"] < 0.08, laid  # (a fifth of a card before)
    assert laid["felt"] > 0.55, laid
    assert not problems(page), problems(page)


def test_in_a_phone_s_side_column_the_bar_back_says_the_turn_is_the_player_s(
    server: str, browser: Any
) -> None:
    """A fortieth review: on a phone, in the chat (or the scores) below the table, the sticky
    bar back to it said "Back to the table" whoever's turn it was — a player typing sat there
    while the table waited. On their turn it says so, in the turn's gold."""
    tb = _table(server, "napoleon", "classic", 5, 1)
    page = _open(browser, server, tb, PHONE, "en", touch=True)
    assert _wait_my_turn(page) == "bid"
    page.locator("#chat").scroll_into_view_if_needed()
    back = page.locator("#side-back")
    assert back.is_visible()
    assert back.inner_text() == "↑ Your turn — back to the table"
    assert "mine" in (back.get_attribute("class") or "")
    colour = back.evaluate("(e) => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(255, 244, 199)", colour
    page.screenshot(path=str(SHOTS / "polish-side-back-turn-phone.png"))
    # another's turn (a snapshot of it handed to the page: the bots may give the turn back at
    # once): the plain words, without the gold
    _held(page)
    assert _wait_my_turn(page) == "bid"
    snap = page.evaluate("window.torampu.snapshot")
    snap["view"]["to_play"] = (snap["seat"] + 1) % 5
    snap["legal"], snap["version"] = [], snap["version"] + 1
    _hand(page, snap)
    page.wait_for_function("() => document.querySelector('#status').dataset.myTurn === '0'")
    assert back.inner_text() == "↑ Back to the table"
    assert "mine" not in (back.get_attribute("class") or "")
    assert not problems(page), problems(page)


def test_daifugo_s_revolution_chip_says_which_cards_win(server: str, browser: Any) -> None:
    """A fortieth review: after a four of a kind the felt showed a small "Revolution" chip and
    nothing said which cards now win. It says so while the order is turned — not when an
    11-back turns it round again."""
    page = new_page(browser, LAPTOP, "en")
    page.goto(f"{server}/")
    said = page.evaluate(
        """async () => { const g = await import('/static/game.js');
        // (the chip's whole words: a narrow felt shows their short twin instead)
        const whole = (e) => {
          const copy = e.cloneNode(true);
          copy.querySelectorAll('.short').forEach((n) => n.remove());
          return copy.textContent;
        };
        const text = (v) => g.daifugoFlags(v).map(whole);
        return [text({ revolution: true }), text({ revolution: true, reversed: true }),
                text({ revolution: true, eleven_back: true, reversed: false }),
                text({ revolution: true, coup: true, reversed: true })]; }"""
    )
    assert said == [
        ["Revolution · lower cards win"],
        ["Revolution · lower cards win"],
        # (the 11-back's chip says the order is the usual one again: a fifty-third review)
        ["Revolution", "11-back (イレブンバック) · higher cards win"],
        ["Revolution (coup: cannot be reversed) · lower cards win"],
    ], said
    assert not problems(page), problems(page)


def test_on_a_phone_on_its_side_a_toast_leaves_the_turn_s_line_in_sight(
    server: str, browser: Any
) -> None:
    """A thirty-ninth review: on a phone on its side (844×390), why a card could not be played
    came at the top, over the title, the top seat and the line saying it was the player's
    turn. It comes at the foot of the felt."""
    tb = _table(server, "daifugo", "standard", 4, 1)
    page = _open(browser, server, tb, {"width": 844, "height": 390}, "ja", touch=True)
    page.wait_for_selector("#status .status-text")
    page.evaluate(
        "async () => (await import('/static/dom.js')).toast("
        "'場は♣9 ♦9 ♥9: それより強い3枚組で返すか、パスです。')"
    )
    page.wait_for_timeout(400)  # (slid in)
    laid = page.evaluate(
        """() => { const r = (s) => document.querySelector(s).getBoundingClientRect();
        const t = r('#toast'), felt = r('#felt');
        const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
          && b.top < a.bottom;
        return { status: meet(t, r('#status')), title: meet(t, r('.title-line')),
                 inFelt: t.left >= felt.left - 1 && t.right <= felt.right + 1
                   && t.bottom <= felt.bottom + 1,
                 shown: t.bottom <= innerHeight && t.top >= 0 }; }"""
    )
    assert laid == {"status": False, "title": False, "inFelt": True, "shown": True}, laid
    page.screenshot(path=str(SHOTS / "polish-toast-landscape.png"))
    assert not problems(page), problems(page)


def test_on_a_phone_on_its_side_the_last_move_line_shows_the_cards(
    server: str, browser: Any
) -> None:
    """A thirty-ninth review: on a phone on its side the last move's line, one line, was cut
    at its cards — "直前: レン (CPU・普通) — 返す ♠…". It names the seat short (the bot's
    strength is on its box)."""
    made = _bots(server, "daifugo", 1, 4, "bot:heuristic")
    page = new_page(browser, {"width": 844, "height": 390}, "ja", has_touch=True, is_mobile=True)
    page.goto(f"{server}/t/{made['table']['id']}")
    page.wait_for_selector("#last-move .ct, #last-move span")
    for _ in range(30):  # (the bots' moves, each its line)
        said = page.inner_text("#last-move")
        assert "CPU" not in said and "(" not in said, said
        whole = page.eval_on_selector("#last-move", "e => e.scrollWidth <= e.clientWidth + 1")
        assert whole, said
        page.wait_for_timeout(100)
    assert not problems(page), problems(page)


def test_through_the_auction_the_standings_are_in_sight_on_a_large_screen(
    server: str, browser: Any
) -> None:
    """A twenty-ninth review: at 1920×1080, through Napoleon's auction, the side column held
    the game's information, the auction, a table of the honors taken (every one nought) and the
    standings, cut under the chat. The honors come once tricks are played."""
    tb = _table(server, "napoleon", "classic", 5, 3)
    page = _open(browser, server, tb, {"width": 1920, "height": 1080}, "ja")
    assert _wait_my_turn(page) == "bid"
    page.wait_for_selector("#standings")
    assert page.locator("#honors").count() == 0
    inside = page.evaluate(
        """() => { const side = document.querySelector('#side').getBoundingClientRect();
        const s = document.querySelector('#standings').getBoundingClientRect();
        return s.bottom <= side.bottom + 1; }"""
    )
    assert inside, "the standings lie below the side column's foot"
    assert not problems(page), problems(page)


def test_in_play_the_standings_are_in_sight_on_a_large_screen(server: str, browser: Any) -> None:
    """A thirtieth review: at 1920×1080, six at Napoleon, once cards were played the side
    column held the game's information, the whole auction, the last trick and six rows of
    honors taken (most of them noughts): the standings lay out of sight. The auction folds to
    its title once the bidding is over (a press opens it, and it stays open), and the honors
    list the seats that took some."""
    tb = _table(server, "napoleon", "classic", 6, 3)
    page = _open(browser, server, tb, {"width": 1920, "height": 1080}, "ja")
    while True:
        phase = _wait_my_turn(page)
        snap = page.evaluate("window.torampu.snapshot")
        if phase == "play" and len(snap["view"]["tricks"]) >= 2:
            break
        before = page.locator("#status").get_attribute("data-version")
        if phase == "bid":
            page.locator('#actions [data-action="pass"]').click()
        else:
            page.locator('#hand .card[data-legal="1"]').first.click()
        _after(page, before)
    fold = page.locator("#auction-fold")
    assert fold.count() == 1 and fold.get_attribute("open") is None
    assert "宣言の経過 (" in fold.inner_text()
    takers = [s for s, n in enumerate(snap["view"]["honor_counts"]) if n]
    assert page.locator("#honors tr").count() == len(takers), takers
    inside = page.evaluate(
        """() => { const side = document.querySelector('#side').getBoundingClientRect();
        const s = document.querySelector('#standings').getBoundingClientRect();
        return [s.bottom, side.bottom]; }"""
    )
    page.screenshot(path=str(SHOTS / "polish-napoleon-six-side-1920.png"))
    assert inside[0] <= inside[1] + 1, f"the standings lie below the side column's foot {inside}"
    page.locator("#auction-fold > summary").click()
    before = page.locator("#status").get_attribute("data-version")
    page.locator('#hand .card[data-legal="1"]').first.click()
    _after(page, before)
    assert page.locator("#auction-fold").get_attribute("open") is not None, "stays as left"
    assert page.locator("#auction-fold li").count() == len(snap["view"]["auction"])
    assert not problems(page), problems(page)


SEVEN_AT_REST = """() => {
  const cards = [...document.querySelectorAll('#felt .centre .trick-card')];
  if (cards.length < 7 || cards.some((e) => e.getAnimations().length)) return null;
  const rects = cards.map((e) => e.getBoundingClientRect());
  let worst = 0;
  for (const a of rects) for (const b of rects) {
    if (a === b) continue;
    const w = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left));
    const h = Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    worst = Math.max(worst, (w * h) / (a.width * a.height));
  }
  return worst; }"""
"""The most any card of a trick of seven on the felt lies under another, as a share of its
area — once there are seven and none of them moves (``null`` until then)."""


@pytest.mark.parametrize(
    ("viewport", "touch", "most"),
    [({"width": 360, "height": 740}, True, 0.1), ({"width": 1920, "height": 1080}, False, 0.02)],
)
def test_seven_cards_of_a_trick_lie_apart(
    server: str, browser: Any, viewport: dict[str, int], touch: bool, most: float
) -> None:
    """A twenty-eighth review: seven at Hell on a 360 px phone, a trick's seven cards and their
    names lay in one heap in the middle of the felt — who played what could not be told. They
    are smaller and further apart: no card more than a tenth under another. A thirtieth: at
    1920×1080 the upper card on either side covered the lower one's corner index (and a name):
    there the cards do not touch."""
    tb = _table(server, "hell", "standard", 7, 4)
    page = _open(browser, server, tb, viewport, "ja", touch=touch)
    deadline = time.monotonic() + 60
    # (measured once a trick's seven cards are at rest: the last one flies in from its seat for
    # a third of a second, and after the pause all seven sweep to the winner — a run that read
    # them in the sweep found one 0.53 over another)
    while (worst := page.evaluate(SEVEN_AT_REST)) is None:
        assert time.monotonic() < deadline, "no trick of seven came"
        if page.locator("#felt .centre .trick-card").count() >= 7:
            # (a move of the player's own ends the trick's pause, its cards swept away before
            # they were looked at: the player waits while a trick of seven is on the felt)
            page.wait_for_timeout(50)
            continue
        snap = page.evaluate("window.torampu.snapshot")
        mine = page.locator("#status").get_attribute("data-my-turn") == "1"
        if mine and snap.get("legal"):
            action = snap["legal"][0]
            if action.startswith("play "):
                # (likewise a card: the one this loop played a moment ago, the snapshot not yet
                # the answer's, drawn disabled — the click waited 15 s for it on a clean-clone CI)
                with contextlib.suppress(sync_api.TimeoutError):
                    card = page.locator(f'#hand .card[data-card="{action.split()[1]}"]').first
                    card.click(timeout=2000)
            else:
                button = page.locator(f'#actions [data-action="{action}"]').first
                # (the snapshot read may be one behind: the bid the last round tapped again went
                # meanwhile, its button gone — on the clean-clone CI the click waited 15 s for
                # it; the loop looks again)
                with contextlib.suppress(sync_api.TimeoutError):
                    button.click(timeout=2000)
                page.wait_for_timeout(100)
                if button.count() and button.is_visible():
                    # (a bid asks to be tapped again — on a phone; at 1920 the turn may have
                    # gone on, the button drawn disabled: the click waited 15 s for it, once)
                    with contextlib.suppress(sync_api.TimeoutError):
                        button.click(timeout=1000)
        page.wait_for_timeout(50)
    assert worst <= most, worst  # (a phone: 0.18 before, 0.02 now)
    assert not problems(page), problems(page)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_box_after_a_game_says_why_the_points_are_what_they_are(
    server: str, browser: Any, lang: str
) -> None:
    """A forty-first review: after a Hell deal a missed bid's "−3" came with no reason (the rule
    only in the side panel, out of sight between deals), and a Napoleon's result read "honors 2
    · failed", leaving the contract's 15 to be found and compared. Hell's box says how a deal
    scores, with the table's numbers; Napoleon's says the honors beside those the contract
    needed."""
    hell = _bots(server, "hell", 1, 3, "heuristic")
    nap = _bots(server, "napoleon", 1, 5, "heuristic")
    for made in (hell, nap):
        _until_over(server, made)
    page = new_page(browser, LAPTOP, lang)
    page.goto(f"{server}/t/{hell['table']['id']}")
    page.wait_for_selector("#between-scoring")
    said = page.inner_text("#between-scoring")
    page.screenshot(path=str(SHOTS / f"hell-scoring-between-{lang}.png"))
    rule = (
        "exactly your bid: 10 + 3 a trick bid"
        if lang == "en"
        else "宣言ちょうど: 10 + 宣言1につき3"
    )
    assert rule in said and ("−3 a trick off" in said or "差1につき−3" in said), said
    page.goto(f"{server}/t/{nap['table']['id']}")
    page.wait_for_selector("#between-detail")
    res = get(f"{server}/api/tables/{nap['table']['id']}/games")["games"][0]["result"]
    need = int(re.match(r"\d+", res["contract"]).group())  # type: ignore[union-attr]
    honors = res["army_honors"]
    want = f"{honors} ({need} needed)" if lang == "en" else f"{honors}枚 (必要{need}枚)"
    assert want in page.inner_text("#between-detail"), page.inner_text("#between-detail")
    page.screenshot(path=str(SHOTS / f"napoleon-honors-needed-{lang}.png"))
    assert not problems(page), problems(page)
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_way_out_of_a_finished_match_is_in_sight_on_a_phone_on_its_side(
    server: str, browser: Any, lang: str
) -> None:
    """A forty-second review: at a match's end on a phone on its side, "Back to the lobby" lay
    under the scores, behind the box's foot (Rematch, Replay) — out of sight, nothing saying the
    box scrolls. Where there is a foot, the way out is in it, beside the replay's link."""
    made = _bots(server, "hell", 1, 4, "heuristic")
    _until_over(server, made)
    tid, host = str(made["table"]["id"]), made["host_token"]
    hosts = json.dumps(json.dumps({tid: host}))
    page = new_page(
        browser,
        {"width": 844, "height": 390},
        lang,
        init=f"localStorage.setItem('torampu.host', {hosts})",
        has_touch=True,
        is_mobile=True,
    )
    page.goto(f"{server}/t/{tid}")
    page.wait_for_selector(".between-foot #between-lobby")
    seen = page.evaluate(
        """() => { const a = document.querySelector('#between-lobby');
          const r = a.getBoundingClientRect();
          const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return [a.contains(at), r.bottom <= innerHeight, r.right <= innerWidth]; }"""
    )
    assert seen == [True, True, True], seen
    page.screenshot(path=str(SHOTS / f"match-over-way-out-844-{lang}.png"))
    assert not problems(page), problems(page)
    page.click("#between-lobby")
    page.wait_for_selector("#create-form")
    page.context.close()


FLAGS_CLEAR = """() => {
  const box = (e) => e.getBoundingClientRect();
  const felt = box(document.querySelector('#felt'));
  const shown = (sel) => [...document.querySelectorAll(sel)].filter((e) => box(e).width > 0);
  const over = [];
  const clear = (el, others) => {
    const r = box(el);
    for (const s of others.map(box)) {
      const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
      const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
      if (w > 2 && h > 2) over.push([el.textContent, Math.round(w), Math.round(h)]);
    }
  };
  const inFelt = shown('#felt .seat-box, #felt .table-cards .tcard, #felt .centre.daifugo .why');
  for (const el of shown('#felt .flag')) {
    clear(el, inFelt);
    const r = box(el);
    if (r.left < felt.left || r.right > felt.right) over.push([el.textContent, 'out']);
  }
  // (the row under the felt on a phone: clear of the felt and of the lines round it)
  const round = shown('#felt, #status, #last-move, #actions, #hand, #hint');
  for (const el of shown('#felt-flags .flag')) {
    clear(el, round);
    const r = box(el);
    const out = r.left < 0 || r.right > innerWidth || r.bottom > innerHeight;
    if (out) over.push([el.textContent, 'out']);
  }
  return over;
}"""
"""The Daifugo chips (``.flag``) shown that lie over a seat's box, a card down or the caption by
more than 2 px, or past the felt's sides; or, in the row under the felt on a phone, over the
felt or a line round it, or past the screen."""

SHOWN_FLAGS = """() => [...document.querySelectorAll('#felt .flag, #felt-flags .flag')]
  .filter((e) => e.getBoundingClientRect().width > 0).length"""


OTHER_FONT = """() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('* { font-family: "Noto Serif CJK JP", serif !important;'
    + ' letter-spacing: 0.2em !important; }');
  document.adoptedStyleSheets = [sheet];
}"""
"""Another font, of other widths, for the whole page (a sheet built in script: the CSP refuses
an inline one)."""


@pytest.mark.parametrize(
    ("players", "size", "lang", "font"),
    [
        (5, (390, 844), "ja", ""),
        (5, (844, 390), "ja", ""),
        (4, (844, 390), "ja", ""),
        (5, (1280, 650), "ja", ""),
        (6, (1280, 650), "en", ""),
        (8, (1366, 768), "en", ""),
        (6, (844, 390), "ja", ""),
        (5, (390, 844), "ja", "serif"),
        (6, (844, 390), "ja", "serif"),
        (5, (360, 640), "ja", ""),
        (8, (360, 740), "ja", ""),
        (5, (667, 375), "ja", ""),
        (8, (667, 375), "en", ""),
    ],
    ids=str,
)
def test_what_is_in_force_in_daifugo_lies_clear_of_the_seats_boxes(
    server: str, browser: Any, players: int, size: tuple[int, int], lang: str, font: str
) -> None:
    """A forty-eighth review: on a 390 px phone at five players the chips of what is in force
    ("イレブンバック中 · 強弱逆転中 · 縛り ♣") ran in one row under the side seats' boxes, the
    lock the one hidden ("♣" alone) on a turn the player could only pass; kept to the width
    between the boxes, a forty-ninth found them wrapped over the player's own box on a phone on
    its side, the cards pushed under the seats across and the caption cut. They lie in the
    trump's corner, a chip a line, said short on a narrow felt ("11バック", "逆回り"). Each set
    of chips is handed to the page, with a play's caption, as a snapshot would. A CI machine
    whose font was not ours found a revolution's chip wrapped onto a third line, over the seat
    above: a chip's words break only between its parts, and a font of other widths is tried."""
    w, h = size
    strict = {"suits": ["C", "S"], "strict": True}
    sets = [  # (the chips each makes: a revolution, an 11-back, says its reversal itself)
        ({"eleven_back": True, "reversed": True, "lock": {"suits": ["C"], "strict": False}}, 2),
        ({"lock": {"suits": ["D"], "strict": False}, "direction": -1}, 2),
        ({"eleven_back": True, "reversed": True, "direction": -1}, 2),
        ({"revolution": True, "reversed": True, "lock": strict, "direction": -1}, 3),
    ]
    tb = _table(server, "daifugo", "yaita", players)
    page = _open(browser, server, tb, {"width": w, "height": h}, lang, touch=w < 1000)
    try:
        snap = _held_snapshot(page)
        if font:
            page.evaluate(OTHER_FONT)
        for flags, chips in sets:
            view = snap["view"]
            view.update({"eleven_back": False, "reversed": False, "lock": None, "direction": 1})
            view.update({"revolution": False, **flags})
            view["table"] = {"cards": ["JC", "JD", "JH"], "by": 1}
            # (another's turn: the action bar one line — at six on a 360 px phone the felt is
            # too short for the chips beside the lower left seat, a case left)
            view["to_play"], snap["legal"], snap["choose"] = 2, [], None
            why = [
                {"code": "lock", "en": "Lock (縛り): ♣ only until the flush", "ja": "縛り: ♣のみ"},
                {"code": "eleven_back", "en": "11-back", "ja": "11バック: 流れるまで強弱が逆"},
            ]
            view["log"] = [
                *(view.get("log") or []),
                {"seat": 1, "action": "play JC JD JH", "why": why},
            ]
            _hand(page, snap)
            page.wait_for_selector("#daifugo-state .flag", state="attached")
            page.wait_for_selector("#daifugo-why")
            shown = page.evaluate(SHOWN_FLAGS)
            assert shown == chips, (flags, shown)
            assert page.evaluate(FLAGS_CLEAR) == [], (flags, page.evaluate(FLAGS_CLEAR))
        page.screenshot(path=str(SHOTS / f"daifugo-flags-{players}-{w}x{h}-{lang}{font}.png"))
    finally:
        page.close()


def test_a_card_passed_by_a_daifugo_7_is_marked_as_just_received(server: str, browser: Any) -> None:
    """A forty-eighth review: a card another player passed with a 7 (7渡し) came in silence —
    only the last-move line said "渡す ♥Q", the card in the hand unmarked, where the exchange's
    cards are marked and said. It is marked and said until the player's next play."""
    tb = _table(server, "daifugo", "yaita", 4)
    page = _open(browser, server, tb, {"width": 390, "height": 844}, "ja", touch=True)
    try:
        snap = _held_snapshot(page, "() => !!window.torampu?.snapshot?.view?.hand?.length")
        view = snap["view"]
        card = next(c for c in reversed(view["hand"]) if c[-1] in "SHDC")  # (not a joker)
        shown = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]] + card[:-1].replace("T", "10")
        given = {"seat": 1, "action": "give", "to": 0, "count": 1, "cards": [card]}
        view["log"] = [*(view.get("log") or []), given]
        view["exchange"] = []
        _hand(page, snap)
        marked = f"#hand [data-card='{card}'].fresh"
        page.wait_for_selector(marked)
        assert shown in page.locator("#fresh-note").inner_text()
        # after the player's own play, no longer
        view["log"] = [*view["log"], {"seat": 0, "action": "play " + view["hand"][0]}]
        snap["version"] += 1
        _hand(page, snap)
        page.wait_for_function(f'() => !document.querySelector("{marked}")')
        assert page.locator("#fresh-note").count() == 0
    finally:
        page.close()


def test_the_share_link_s_box_shuts_on_a_tap_elsewhere_or_escape(server: str, browser: Any) -> None:
    """A forty-eighth review: on a phone in play the share link's box, once opened, lay over the
    status line and the scores button, and neither a tap elsewhere nor Escape shut it — only its
    own summary, to be found again. It shuts as a menu does."""
    tb = _table(server, "nap", None, 4)
    page = _open(browser, server, tb, {"width": 390, "height": 844}, "ja", touch=True)
    try:
        box = page.locator(".share-box")
        summary = page.locator(".share-box > summary")
        summary.tap()
        page.wait_for_function("() => document.querySelector('.share-box').open")
        page.touchscreen.tap(195, 560)  # (the felt's lower half, below the box)
        page.wait_for_function("() => !document.querySelector('.share-box').open")
        summary.tap()
        page.wait_for_function("() => document.querySelector('.share-box').open")
        page.locator("#share-link").tap()  # (inside: stays open, its link to copy)
        assert box.evaluate("(b) => b.open")
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('.share-box').open")
        assert page.evaluate("() => document.activeElement.matches('.share-box > summary')")
    finally:
        page.close()


def test_a_hell_sheet_of_five_fits_a_laptop_s_side_column(server: str, browser: Any) -> None:
    """A forty-eighth review: on a 1366×768 laptop the Hell score sheet of five players, the
    heart of the game, scrolled sideways in the side column, its fourth name cut ("Re…") and
    its fifth out of sight. Each running total lies under its bid/tricks: every player's column
    in sight."""
    tid = _bots(server, "hell", 3, 5, "heuristic")["table"]["id"]
    page = new_page(browser, LAPTOP, "en")
    try:
        page.goto(f"{server}/t/{tid}")
        page.wait_for_selector("#sheet tbody tr")
        fit = page.evaluate(
            """() => { const s = document.querySelector('#sheet .scroll');
              return [s.scrollWidth, s.clientWidth,
                      document.querySelectorAll('#sheet thead th').length]; }"""
        )
        assert fit[2] == 6 and fit[0] <= fit[1] + 1, fit
        # (in one go: a bot's move draws the panel again)
        page.evaluate("() => document.querySelector('#sheet').scrollIntoView()")
        page.screenshot(path=str(SHOTS / "hell-sheet-laptop.png"))
    finally:
        page.close()


def test_a_napoleon_whose_named_card_came_up_in_the_widow_is_told_at_the_exchange(
    server: str, browser: Any
) -> None:
    """A forty-ninth review: named before the widow is taken (``adjutant_timing:
    before_exchange``), the adjutant card may come up in it — the Napoleon plays alone, and the
    view says so from the exchange; the felt said "副官 ♥7" all through it, and the discard's
    prompt nothing. Both say it now. The exchange is the engine's own, handed to the page."""
    import torampu

    g = torampu.new_game("napoleon", "classic", seed=11)
    widow = g.to_record()["deal"]["widow"]
    while g.to_play != 0:
        g.play("pass")
    g.play(next(a for a in g.legal_actions() if a.startswith("bid ")))
    while g.phase == "bid":
        g.play("pass")
    g.play(f"adjutant {widow[0]}")
    assert g.phase == "exchange" and g.view(0)["alone"] is True
    tb = _table(server, "napoleon", "classic", 5)
    page = _open(browser, server, tb, {"width": 390, "height": 844}, "ja", touch=True)
    try:
        snap = _held_snapshot(page)
        snap.update(view=g.view(0), legal=g.view(0)["legal_actions"], choose=g.choose())
        snap["version"] += 1
        _hand(page, snap)
        page.wait_for_selector("#widow-alone")
        assert "単独" in page.inner_text("#widow-alone")
        assert "(単独)" in page.inner_text("#centre-adjutant")
    finally:
        page.close()


def test_a_friend_taking_a_seat_before_the_start_is_said_in_view(server: str, browser: Any) -> None:
    """A forty-ninth review: on a 360 px phone the host's Start button lies below the seats,
    a screen down, and a friend's taking a seat was said only in the chat further down — the
    host saw nothing come. It is said in a toast, in view (not one's own seat's)."""
    made = post(f"{server}/api/tables", {"game": "hell", "rules": "standard", "players": 4})
    tid = made["table"]["id"]
    mine = post(f"{server}/api/tables/{tid}/join", {"name": "あき", "seat": 0})
    held = json.dumps({tid: {"seat": 0, "token": mine["token"]}})
    init = f"localStorage.setItem('torampu.seats', {json.dumps(held)});"
    page = new_page(
        browser, {"width": 360, "height": 740}, "ja", init=init, has_touch=True, is_mobile=True
    )
    try:
        page.goto(f"{server}/t/{tid}")
        page.wait_for_selector("#seats")
        page.wait_for_function("() => window.torampu?.snapshot?.seat === 0")
        post(f"{server}/api/tables/{tid}/join", {"name": "Ben", "seat": 1})
        page.wait_for_function(
            "() => { const e = document.getElementById('toast');"
            " return e.classList.contains('show') && e.textContent.includes('Ben'); }"
        )
        assert "あき" not in page.inner_text("#toast")
        # not over an error still said (a refused take or start: a code review)
        page.evaluate("async () => (await import('/static/dom.js')).toast('refused', 'error')")
        post(f"{server}/api/tables/{tid}/join", {"name": "Cleo", "seat": 2})
        page.wait_for_function(
            "() => [...document.querySelectorAll('#chat li, #chat p')]"
            ".some((e) => e.textContent.includes('Cleo'))"
        )
        assert page.inner_text("#toast") == "refused"
    finally:
        page.close()


def test_the_folded_result_bar_leaves_no_caption_half_hidden(server: str, browser: Any) -> None:
    """A forty-ninth review: at a finished Hell table of five on a 1366×768 laptop the folded
    result bar ("シリーズ終了 · 結果を見る") lay over the top of the last trick's caption, which at
    five lies at the felt's top — "Akiが取る · ♦Aの勝ち…" cut through its line. Folded over it,
    the caption goes (the winning card keeps its frame), as on a phone on its side."""
    made = _bots(server, "hell", 1, 5, "heuristic")
    page = new_page(browser, {"width": 1366, "height": 768}, "ja")
    try:
        page.goto(f"{server}/t/{made['table']['id']}")
        _until_over(server, made)
        page.wait_for_selector("#between:not([hidden]) #between-fold")
        if not page.evaluate(
            "() => document.getElementById('between').classList.contains('folded')"
        ):
            page.click("#between-fold")
        page.wait_for_selector("#between.folded")
        hidden = page.evaluate(
            """() => { const c = document.getElementById('trick-taker');
              if (!c || !c.getClientRects().length) return null;
              const a = c.getBoundingClientRect();
              const b = document.getElementById('between').getBoundingClientRect();
              return Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top); }"""
        )
        assert hidden is None or hidden <= 0, hidden
    finally:
        page.close()
