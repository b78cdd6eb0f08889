"""The terminal front end for Nap and Hell, driven as a user would (typer's CliRunner).

Numbers on screen are checked against the engine: each test plays the same match with the same
seed and the same random bots through the public API and compares the standings (Hell's score
sheet, Nap's payments) with what the terminal printed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

import torampu
from torampu.bots import base as bots_base
from torampu.bots import make_bot
from torampu.cards import card_list, parse_card, pretty
from torampu.cli import app, show_hand
from torampu.cli.commands import _bot_seed
from torampu.cli.games import HellRenderer, NapRenderer
from torampu.cli.show import Ctx, menu_order
from torampu.cli.text import TEXT

runner = CliRunner()

Decide = Callable[[Mapping[str, Any], list[str], int], tuple[list[str], str]]
"""At the human's k-th decision: (the lines they type, the action those lines end with)."""


def invoke(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


def cli(command: str, *more: str, input: str | None = None) -> Any:
    """``cli("play hell --watch", "--record", path)``: the words of a command line, then more."""
    return invoke(*command.split(), *more, input=input)


def flat(text: str) -> str:
    """Output with line wrapping undone (Rich wraps at 80 columns under the test runner)."""
    return " ".join(text.split())


def plain(markup: str) -> str:
    return flat(Text.from_markup(markup).plain)


def signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


def engine_match(game: str, seed: int, games: int | None, players: int | None = None) -> Any:
    """The match the terminal plays with ``--watch --bots random``, played through the API."""
    m = torampu.new_match(game, players=players, games=games, seed=seed)
    bots = [make_bot("random", seed=_bot_seed(seed, s), game=game) for s in range(m.n)]
    while not m.is_over:
        seat = m.game.to_play
        m.play(bots[seat].choose(m.game.view(seat), m.game.legal_actions()))
    return m


def section(output: str, heading: str) -> str:
    """The output from the last occurrence of ``heading`` on."""
    at = output.rfind(heading)
    assert at >= 0, f"no {heading!r} in:\n{output}"
    return output[at:]


def parse_sheet(output: str, heading: str, seats: int) -> tuple[list[list[str]], list[str]]:
    """The rows of the score sheet printed under ``heading``: per deal its number, cards, upcard
    and per seat bid, score and total (one line per deal, or the totals on a second line); and
    the final totals row."""
    rows: list[list[str]] = []
    lines = section(output, heading).splitlines()[1:]
    i = 0
    while i < len(lines):
        words = lines[i].split()
        i += 1
        if words and words[0] in ("total", "累計"):
            return rows, [w for w in words[1:] if w != "★"]
        if not words or not words[0].isdigit():
            continue
        if len(words) == 3 + 2 * seats:  # the totals on the next line
            more = lines[i].split()
            i += 1
            words = words[:3] + [
                x for s in range(seats) for x in (*words[3 + 2 * s : 5 + 2 * s], more[s])
            ]
        assert len(words) == 3 + 3 * seats, words
        rows.append(words)
    raise AssertionError(f"no totals row under {heading!r}")


def check_sheet(output: str, heading: str, st: Mapping[str, Any]) -> None:
    """The printed sheet says exactly what the engine's standings say."""
    n = len(st["totals"])
    rows, totals = parse_sheet(output, heading, n)
    assert len(rows) == len(st["sheet"]) == st["games_played"]
    for no, (row, deal) in enumerate(zip(rows, st["sheet"], strict=True), 1):
        expected = [str(no), str(deal["cards"]), pretty(parse_card(deal["upcard"]))]
        for s in range(n):
            expected += [str(deal["bids"][s]), signed(deal["scores"][s]), str(deal["totals"][s])]
        assert row == expected, (no, row, expected)
    assert totals == [str(v) for v in st["totals"]]


# ------------------------------------------------------------------------------------ words
def test_both_languages_have_the_same_words() -> None:
    assert set(TEXT["en"]) == set(TEXT["ja"])
    for key, en in TEXT["en"].items():
        fields = set(re.findall(r"{(\w+)", en))
        assert fields == set(re.findall(r"{(\w+)", TEXT["ja"][key])), key


def test_headers_name_the_game_and_the_bots_in_the_reader_s_words() -> None:
    """A fourth review: the headers said "napoleon" and "hell" (identifiers) in both languages,
    "heuristic ボット" in Japanese, and Hell's reasons "highest trump (D)" with a letter."""
    en = invoke("play", "hell", "--watch", "--games", "3", "--seed", "3")
    assert en.exit_code == 0, en.output
    assert "— Hell (Oh Hell), " in en.output and "Watching 5 bots (heuristic)." in en.output
    assert "highest trump (♦)" in en.output and "(D)" not in en.output
    ja = invoke("play", "napoleon", "--watch", "--games", "1", "--seed", "3", "--lang", "ja")
    assert ja.exit_code == 0, ja.output
    assert "— ナポレオン、5人" in ja.output and "5体のボット (経験則)" in ja.output, ja.output[:400]
    assert "napoleon" not in ja.output


def test_typed_shorthand_for_nap_and_hell() -> None:
    nap = NapRenderer(Ctx("en", 4, 0, "nap"))
    view = {"phase": "bid"}
    legal = ["pass", "bid two", "bid three", "bid misere", "bid four", "bid nap"]
    for typed, action in [
        ("nap", "bid nap"),
        ("Misère", "bid misere"),
        ("misere", "bid misere"),
        ("bid Three", "bid three"),
        ("ナップ", "bid nap"),
        ("ウェリントン", "bid wellington"),
        ("blücher", "bid blucher"),
        ("p", "pass"),
        ("PASS", "pass"),
        ("2", "bid two"),
    ]:
        assert nap.read(typed, legal, view) == action, typed
    with pytest.raises(torampu.IllegalAction, match="in the auction type a bid"):
        nap.read("AS", legal, view)
    play = {"phase": "play"}
    assert nap.read("♠a", ["play AS", "play 7S"], play) == "play AS"
    assert nap.read("2", ["play AS", "play 7S"], play) == "play 7S"
    hell = HellRenderer(Ctx("en", 5, 0, "hell"))
    bidding = {"phase": "bid", "cards": 3}
    legal = ["bid 0", "bid 1", "bid 3"]
    assert hell.read("0", legal, bidding) == "bid 0"  # a bare number is the bid, not the menu
    assert hell.read("bid 2", legal, bidding) == "bid 2"  # the engine will say why not
    assert hell.read(" 3 ", legal, bidding) == "bid 3"
    with pytest.raises(torampu.IllegalAction, match=r"number of tricks you bid \(0-3\)"):
        hell.read("AS", legal, bidding)
    assert hell.read("1", ["play AS", "play 7S"], play) == "play AS"
    assert hell.read("２", legal, bidding) == "bid 2"  # a full-width digit is a digit
    with pytest.raises(torampu.IllegalAction, match="cannot read '²'"):
        nap.read("²", ["play AS", "play 7S"], play)  # a digit, but not a number


# ------------------------------------------------------------------------------------ watching
def test_a_watched_hell_series_ends_with_the_engines_score_sheet(tmp_path: Path) -> None:
    seed = 11
    rec = tmp_path / "hell.json"
    out = cli("play hell --watch --bots random --seed", str(seed), "--record", str(rec))
    assert out.exit_code == 0, out.stdout
    m = engine_match("hell", seed, None)
    st = m.standings()
    assert st["games"] == 19  # the whole series 1..10..1 by default
    assert json.loads(rec.read_text(encoding="utf-8")) == m.to_record()
    text = flat(out.stdout)
    for no, deal in enumerate(st["sheet"], 1):
        cards = "1 card" if deal["cards"] == 1 else f"{deal['cards']} cards"
        head = f"Deal {no} of 19 — Hell (Oh Hell), {cards} each, 5 players"
        assert f"{head}, dealer seat {deal['dealer']}" in text
        up = pretty(parse_card(deal["upcard"]))
        assert f"Upcard {up}: trump {pretty(parse_card(deal['upcard']))[0]}" in text
        # after every deal, the sheet so far
        if no < 19:
            check_sheet(
                out.stdout[: out.stdout.find(f"Deal {no + 1} of 19")],
                "Score sheet",
                {
                    **st,
                    "sheet": st["sheet"][:no],
                    "games_played": no,
                    "totals": deal["totals"],
                },
            )
    check_sheet(out.stdout, "Score sheet after 19 of 19 deals", st)
    best = max(st["totals"])
    leaders = ", ".join(f"seat {s}" for s in st["leaders"])
    assert f"The series is over. Highest total: {leaders} ({best})." in text
    # each deal's result in words, e.g. "Missed: seat 2 (bid 1, took 0) -3."
    for deal in st["sheet"]:
        for s in range(5):
            bid, took, pts = deal["bids"][s], deal["tricks"][s], signed(deal["scores"][s])
            assert (
                f"seat {s} ({bid}) {pts}" in text
                if bid == took
                else f"seat {s} (bid {bid}, took {took}) {pts}" in text
            )


def test_a_watched_nap_match_prints_payments_and_standings() -> None:
    seed, games = 2, 4
    out = cli("play nap --watch --bots random --games", str(games), "--seed", str(seed))
    assert out.exit_code == 0, out.stdout
    m = engine_match("nap", seed, games)
    names = dict(zip(torampu.nap.BIDS, TEXT["en"]["nap_bid_names"].split(","), strict=True))
    running = [0] * 4
    for no, rec in enumerate(m.records, 1):
        res = rec["result"]
        running = [a + b for a, b in zip(running, res["scores"], strict=True)]
        part = section(
            out.stdout.split(f"Game {no + 1} of {games} —")[0], f"Game {no} of {games} —"
        )
        text = flat(part)
        d, bid = res["declarer"], names[res["contract"]]
        suit = res["trump"]
        trump = "no trump" if suit is None else f"trump {pretty(parse_card('A' + suit))[0]}"
        outcome = "contract made" if res["made"] else "contract failed"
        assert f"seat {d} bid {bid} ({trump}) and took" in text and outcome in text
        per = abs(res["scores"][d]) // 3
        total = signed(res["scores"][d])
        if res["made"]:
            assert (
                f"Payments: every other player pays {per} to seat {d} (seat {d} {total})." in text
            )
        else:
            assert f"every other player receives {per} from seat {d} (seat {d} {total})." in text
        # the payments table: role, tricks, this game's payment, running total
        table = section(part, f"Game {no} of {games}: payments")
        game = torampu.replay(rec)
        for s in range(4):
            role = f"declarer: {bid}" if s == d else ""
            tricks = str(game.view(None)["tricks_won"][s])
            assert row_cells(table, str(s)) == [
                role,
                tricks,
                signed(res["scores"][s]),
                signed(running[s]),
            ]
        # the standings after the game: every game so far and the total
        standings = section(part, f"Match standings after {no} of {games} games")
        for s in range(4):
            per_game = [signed(r["result"]["scores"][s]) for r in m.records[:no]]
            assert row_cells(standings, str(s)) == [*per_game, signed(running[s])]
    assert running == m.standings()["totals"]
    leaders = ", ".join(f"seat {s}" for s in m.standings()["leaders"])
    assert f"The match is over. Leading: {leaders}" in flat(out.stdout)


def row_cells(output: str, first_cell: str) -> list[str]:
    """The other cells of the first table row whose first cell is ``first_cell`` (stars off)."""
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│┃ ").split("│")]
        if len(cells) > 1 and cells[0].rstrip(" ★") == first_cell:
            return cells[1:]
    raise AssertionError(f"no table row {first_cell!r} in:\n{output}")


def test_a_nap_redeal_is_told_and_the_record_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Passer:
        """Passes in the first deal, then plays at random: forces one redeal."""

        name = "passer"

        def __init__(self, seed: int) -> None:
            self.inner = make_bot("random", seed=seed)

        def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
            if view["redeals"] == 0 and "pass" in legal:
                return "pass"
            return self.inner.choose(view, legal)

    monkeypatch.setitem(bots_base._REGISTRY, "passer", lambda seed, game: Passer(seed))
    rec = tmp_path / "redeal.json"
    args = ["--bots", "passer", "--games", "1", "--seed", "2", "--record", str(rec)]
    out = cli("play nap --watch", *args)
    assert out.exit_code == 0, out.stdout
    data = json.loads(rec.read_text(encoding="utf-8"))
    game = torampu.replay(data["records"][0])
    assert game.result()["redeals"] == 1 and game.view(None)["dealer"] == 1
    redeal = "All passed: the deal moves left to seat 1 and the cards are dealt again (redeal 1)."
    text = flat(out.stdout)
    assert redeal in text and "The new deal" in text
    redealt = torampu.replay({**data["records"][0], "actions": data["records"][0]["actions"][:4]})
    new_deal = flat(section(out.stdout, "The new deal"))
    for s in range(4):  # the new hands, shown to the spectator
        assert plain(f"seat {s}: {show_hand(redealt.view(s)['hand'])}") in new_deal
    assert "All passed before this hand: 1 redeal." in text
    story = cli("replay", str(rec))
    assert story.exit_code == 0, story.stdout
    told = flat(story.stdout)
    assert redeal in told and "The new deal" in told and "Record checked" in told
    assert "Match standings after 1 of 1 games" in told


# ------------------------------------------------------------------------------------ a human
def drive(game: str, seat: int, seed: int, games: int, players: int | None, decide: Decide) -> Any:
    """What a person types to play ``seat`` of the match the terminal will play, and that match
    (played through the API with the same bots). Decisions with one legal action are not asked."""
    m = torampu.new_match(game, players=players, games=games, seed=seed)
    bots = {s: make_bot("random", seed=_bot_seed(seed, s), game=game) for s in range(m.n)}
    typed: list[str] = []
    k = 0
    while not m.is_over:
        g = m.game
        s = g.to_play
        if s != seat:
            m.play(bots[s].choose(g.view(s), g.legal_actions()))
            continue
        legal = menu_order(g.legal_actions())
        if len(legal) == 1:
            m.play(legal[0])
            continue
        lines, action = decide(g.view(seat), legal, k)
        k += 1
        typed += lines
        m.play(action)
    return typed, m


def play_turn(view: Mapping[str, Any], legal: list[str], k: int) -> tuple[list[str], str]:
    """A play: on some turns first a card not held and one that does not follow suit (both
    refused), then a bare card (``♠a``, ``10h``) or the menu number of the chosen card."""
    lines = []
    hand = view["hand"]
    action = legal[k % len(legal)]
    if k % 3 == 0:
        missing = next(c for c in card_list(range(52)) if c not in hand)
        lines.append(f"play {missing}")
        renege = [c for c in hand if f"play {c}" not in legal]
        if renege:
            lines.append(renege[0].lower())
    if k % 2:
        lines.append(str(legal.index(action) + 1))
    else:
        lines.append(pretty(parse_card(action.split()[1])).lower())  # ♠a, ♥10
    return lines, action


def test_a_human_plays_hell_typing_bids_cards_and_numbers(tmp_path: Path) -> None:
    games = 4
    refused: list[str] = []

    def decide(view: Mapping[str, Any], legal: list[str], k: int) -> tuple[list[str], str]:
        if view["phase"] != "bid":
            lines, action = play_turn(view, legal, k)
            refused.extend(lines[:-1])
            return lines, action
        lines = []
        cards = view["cards"]
        if k == 0:
            lines += ["AS", str(cards + 1)]  # not a bid; more tricks than there are
        if view["forbidden_bid"] is not None:
            lines.append(str(view["forbidden_bid"]))  # the hook
        refused.extend(lines)
        pick = int(legal[k % len(legal)].split()[1])
        lines.append(f"bid {pick}" if k % 2 else str(pick))
        return lines, f"bid {pick}"

    # the first match seed whose deals give the human a chance to fail to follow suit
    for seed in range(50):
        refused.clear()
        typed, m = drive("hell", 0, seed, games, 3, decide)
        if any(len(r) == 2 and r == r.lower() and not r.isdigit() for r in refused):
            break
    rec = tmp_path / "human.json"
    args = ["--players", "3", "--games", str(games), "--seed", str(seed), "--record", str(rec)]
    out = cli("play hell --bots random", *args, input="\n".join(typed) + "\n")
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "Traceback" not in text
    # every refusal says why and asks again; nothing is lost: the match is the engine's
    assert text.count("Not accepted") == len(refused)
    assert text.count("your choice>") == len(typed)
    assert re.search(r"Not accepted: type the number of tricks you bid \(0-\d\) or 'bid 1'", text)
    assert re.search(r"'bid (\d)' is not legal for seat 0 now: only \d tricks are played", text)
    assert re.search(
        r"the dealer may not bid \d: the bids would add up to \d \(option hook\)", text
    )
    assert "You deal: you may not bid" in text  # the status said so before the prompt
    assert re.search(r"'play \w\w' is not legal for seat 0 now: \w\w is not in your hand", text)
    assert "must follow suit" in text
    assert json.loads(rec.read_text(encoding="utf-8")) == m.to_record()
    assert "Your turn — bidding" in text and "Your turn — play" in text
    # the bids' row says its numbers are the bids, not menu numbers (a fifth review: from Nap,
    # where 1 is the menu's first entry, a player bid 1 by mistake)
    assert re.search(
        r"Your bid — the number of tricks you will take \(not a menu number\):\s+0 ", text
    )
    assert "Tricks / bid: you " in text and "you: bid " in text
    check_sheet(out.stdout, f"Score sheet after {games} of {games} deals", m.standings())


def test_a_human_plays_nap_by_bid_names_cards_and_numbers(tmp_path: Path) -> None:
    seed, games = 4, 3

    def decide(view: Mapping[str, Any], legal: list[str], k: int) -> tuple[list[str], str]:
        if view["phase"] != "bid":
            return play_turn(view, legal, k)
        bids = [a for a in legal if a != "pass"]
        action = bids[-1] if bids else "pass"  # the highest bid there is: the human declares
        word = action.split()[-1]
        lines = ["AS"] if k == 0 else []  # a card in the auction: refused
        lines.append({"misere": "Misère", "blucher": "Blücher"}.get(word, word))
        return lines, action

    typed, m = drive("nap", 1, seed, games, None, decide)
    rec = tmp_path / "nap.json"
    args = ["--seat", "1", "--games", str(games), "--seed", str(seed), "--record", str(rec)]
    out = cli("play nap --bots random", *args, input="\n".join(typed) + "\n")
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert text.count("your choice>") == len(typed)
    assert "Not accepted: in the auction type a bid (two, three, misere, four, nap, …)" in text
    assert "you: bid Nap" in text
    assert json.loads(rec.read_text(encoding="utf-8")) == m.to_record()
    first = m.records[0]["result"]
    if first["declarer"] == 1:
        assert "Contract: Nap by you — all five tricks" in text
        assert "Declarer: you — Nap, all five tricks" in text
    assert "Match standings after 3 of 3 games" in text and "│ you" in out.stdout


def test_the_hook_is_shown_to_the_dealer() -> None:
    """A one-card deal where seat 0 deals: the status names the forbidden bid."""
    for seed in range(50):  # the first seed whose bots leave the dealer a forbidden bid
        m = torampu.new_match("hell", games=1, seed=seed)
        bots = [make_bot("random", seed=_bot_seed(seed, s), game="hell") for s in range(5)]
        while m.game.to_play != 0:
            s = m.game.to_play
            m.play(bots[s].choose(m.game.view(s), m.game.legal_actions()))
        no = m.game.view(0)["forbidden_bid"]
        if no is not None:
            break
    else:
        raise AssertionError("no seed below 50 leaves the dealer a forbidden bid")
    out = cli("play hell --games 1 --bots random --seed", str(seed))
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert f"You deal: you may not bid {no}, the bids would add up to 1 (hook)." in text
    assert f"(only choice) bid {1 - no}" in text  # one card: the other bid is the only one left


# ------------------------------------------------------------------------------------ Japanese
def test_japanese_tables_for_hell_and_nap() -> None:
    out = cli("play hell --watch --games 3 --bots random --seed 3 --lang ja")
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "第1ディール / 全3ディール — ヘル、各1枚、5人、親は席0" in text
    assert "表札" in text and "切り札" in text and "をビッド" in text
    assert "ぴったり:" in text and "はずれ:" in text and "第1トリック" in text
    assert "スコアシート (3 / 3 ディール終了)" in text and "シリーズ終了。" in text
    assert "最も強い切り札" in text  # the trick's explanation in Japanese
    check_sheet(out.stdout, "スコアシート (3 / 3", engine_match("hell", 3, 3).standings())
    out = cli("play nap --watch --games 2 --bots random --seed 2 --lang ja")
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "契約:" in text and "支払い:" in text and "通算成績 (2 / 2 ゲーム終了)" in text
    assert "ミゼール" in text or "ナップ" in text or "ツー" in text


def test_a_human_bids_in_japanese() -> None:
    out = cli("play nap --seat 1 --games 1 --bots random --seed 4 --lang ja", input="ナップ\n")
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "あなたの番です — 競り" in text and "ナップ +10/−6" in text
    assert "あなた: ナップ を宣言" in text
    assert "入力が終わりました" in text


# ------------------------------------------------------------------------------------ replay
def test_a_hell_record_replays_with_its_sheet(tmp_path: Path) -> None:
    rec = tmp_path / "hell.json"
    played = cli("play hell --seat none --games 5 --bots random --seed 7 --record", str(rec))
    assert played.exit_code == 0, played.stdout
    story = cli("replay", str(rec))
    assert story.exit_code == 0, story.stdout
    st = torampu.replay_match(json.loads(rec.read_text(encoding="utf-8"))).standings()
    heading = "Score sheet after 5 of 5 deals"
    check_sheet(played.stdout, heading, st)
    check_sheet(story.stdout, heading, st)
    text = flat(story.stdout)
    assert (
        "Match record: 5 of 5 deals — Hell (Oh Hell), 5 players" in text and "The bidding" in text
    )
    for no, deal in enumerate(st["sheet"], 1):
        assert f"Deal {no} of 5: result" in text
        assert plain(f"Upcard {pretty(parse_card(deal['upcard']))}") in text
    assert "Record checked" in text


def test_an_unfinished_hell_record_and_a_single_deal(tmp_path: Path) -> None:
    rec = tmp_path / "part.json"
    out = cli("play hell --games 3 --bots random --seed 2 --record", str(rec), input="q\n")
    assert out.exit_code == 0 and "Leaving the match." in out.stdout
    story = cli("replay", str(rec), "--lang", "ja")
    assert story.exit_code == 0, story.stdout
    assert "記録はここまで" in story.stdout
    g = torampu.new_game("hell", cards=3, seed=8)
    bots = [make_bot("random", seed=s) for s in range(5)]
    while not g.is_over:
        g.play(bots[g.to_play or 0].choose(g.view(g.to_play), g.legal_actions()))
    one = tmp_path / "deal.json"
    one.write_text(json.dumps(g.to_record()), encoding="utf-8")
    story = cli("replay", str(one))
    assert story.exit_code == 0, story.stdout
    text = flat(story.stdout)
    assert "Deal 1 of 1 — Hell (Oh Hell), 3 cards each, 5 players, dealer seat 0" in text
    assert "Deal 1 of 1: result" in text and "Record checked" in text


def test_a_sheet_too_wide_for_the_terminal_puts_the_totals_on_a_second_line() -> None:
    m = engine_match("hell", 5, 6, players=7)
    st = m.standings()
    ctx = Ctx("en", 7, None, "hell")
    console = Console(width=200, record=True)
    with console.capture() as wide:
        console.print("Sheet", HellRenderer(ctx).sheet_table(st, width=200))
    with console.capture() as narrow:
        console.print("Sheet", HellRenderer(ctx).sheet_table(st, width=60))
    assert len(narrow.get().splitlines()) > len(wide.get().splitlines()) + 5
    for out in (wide.get(), narrow.get()):
        check_sheet(out, "Sheet", st)
