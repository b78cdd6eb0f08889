"""Daifugo in the terminal (``torampu play daifugo``), driven as a user would (CliRunner).

What the terminal prints is checked against the engine: the same match (same seed, same bots)
is played through the public API, and its rankings, titles, points and rulings must be the ones
on screen. A human seat types plays the way people do (lowercase, any order, ``jk``, ``p``,
menu numbers, bad input first) and must end with the same match.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from typer.testing import CliRunner

import torampu
from torampu.bots import make_bot
from torampu.cards import card_list
from torampu.cli import app
from torampu.cli.commands import _bot_seed
from torampu.cli.daifugo import DaifugoRenderer, show_dhand
from torampu.cli.show import MENU_MAX, Ctx
from torampu.errors import IllegalAction

runner = CliRunner()


def flat(text: str) -> str:
    """Output with line wrapping undone (Rich wraps at 80 columns under the test runner)."""
    return " ".join(text.split())


def plain(markup: str) -> str:
    return flat(Text.from_markup(markup).plain)


def engine_match(seed: int, games: int, rules: str, kind: str = "random") -> torampu.Match:
    """The match ``play daifugo --watch --bots KIND`` plays, through the API."""
    m = torampu.new_match("daifugo", rules=rules, games=games, seed=seed)
    bots = [make_bot(kind, seed=_bot_seed(seed, s), game="daifugo") for s in range(m.n)]
    while not m.is_over:
        s = m.game.to_play
        assert s is not None
        m.play(bots[s].choose(m.game.view(s), m.game.legal_actions()))
    return m


def all_rulings(m: torampu.Match, lang: str) -> list[str]:
    out = []
    for rec in m.to_record()["records"]:
        g = torampu.replay(rec)
        for e in g.view(None)["log"]:
            out += [w[lang] for w in e["why"]]
    return out


# ------------------------------------------------------------------------------ watching
@pytest.mark.parametrize(("rules", "lang"), [("yaita", "en"), ("standard", "ja")])
def test_watch_matches_the_engine(rules: str, lang: str) -> None:
    seed, games = 11, 3
    res = runner.invoke(
        app,
        [
            "play",
            "daifugo",
            "--rules",
            rules,
            "--watch",
            "--bots",
            "random",
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--lang",
            lang,
        ],
    )
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    m = engine_match(seed, games, rules)
    st = m.standings()
    # every ruling the engine logged is told, in the chosen language
    rulings = all_rulings(m, lang)
    assert rulings, "a 3-game match without a single ruling"
    for text in set(rulings):
        assert plain(text) in out, text
    # each game's ranking, with the titles it earned
    ctx = Ctx(lang=lang, n=m.n, game="daifugo")
    r = DaifugoRenderer(ctx)
    for detail in st["games_detail"]:
        names = [
            f"{i}. {ctx.name(s)} {r.title(detail['titles'][s])}"
            for i, s in enumerate(detail["ranking"], 1)
        ]
        assert " · ".join(names) in out
    # the final standings: per seat its title, every game's points and the total
    final = out[out.rfind(plain(ctx.tx("standings", n=games, total=games))) :]
    for s in range(m.n):
        points = " ".join(f"+{g[s]}" if g[s] > 0 else str(g[s]) for g in st["per_game"])
        total = st["totals"][s]
        star = " ★" if s in st["leaders"] else ""
        row = f"{s}{star} │ {r.title(st['titles'][s])} │ {points.replace(' ', ' │ ')} │ +{total}"
        assert flat(row) in final, (row, final)
    if lang == "ja":
        assert "大富豪" in final and "順位" in out


def test_watch_tells_the_exchange_and_titles() -> None:
    res = runner.invoke(
        app,
        [
            "play",
            "daifugo",
            "--rules",
            "standard",
            "--watch",
            "--bots",
            "heuristic",
            "--games",
            "2",
            "--seed",
            "4",
        ],
    )
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    m = engine_match(4, 2, "standard", "heuristic")
    titles = m.standings()["games_detail"][0]["titles"]
    first = ["daifugo", "fugo", "heimin", "hinmin", "daihinmin"]
    assert "First game: the holder of ♦3 leads" in out
    parts = " · ".join(f"seat {s} {t}" for s, t in enumerate(titles))
    assert f"Titles from the last game: {parts}" in out
    rich, poor = titles.index(first[0]), titles.index(first[-1])
    assert f"Exchange: seat {poor} gives 2 best cards to seat {rich}" in out
    assert f"seat {rich}: returned 2 cards to seat {poor}" in out


# ------------------------------------------------------------------------------ a human seat
def typed_for(action: str, legal: list[str], view: Mapping[str, Any], rng: random.Random) -> str:
    """How a person might type ``action``: lowercase, cards shuffled (a run's jokers in place),
    ``jk``, ``p``, ``none``, or the menu number."""
    r = DaifugoRenderer(Ctx(lang="en", n=len(view["hand_sizes"]), game="daifugo"))
    shown = r.menu_actions(legal, view)
    if action in shown and rng.random() < 0.3:
        return str(shown.index(action) + 1)
    words = action.split()
    verb, cards = words[0], words[1:]
    if verb == "pass":
        return rng.choice(["p", "pass", "PASS"])
    if not cards:
        return rng.choice(["none", "", "0"]) if verb != "play" else "p"
    low = ["jk" + w[2:].lower() if w.startswith("JK") else w.lower() for w in cards]
    positional = (
        verb == "play"
        and any(w.startswith("JK") for w in cards)
        and len({w[0] for w in cards if not w.startswith("JK")}) > 1
    )
    if not positional:
        rng.shuffle(low)
    prefix = f"{verb} " if verb != "play" and rng.random() < 0.5 else ""
    return prefix + " ".join(low)


def drive(seed: int, games: int, rules: str, seat: int) -> tuple[list[str], torampu.Match, int]:
    """The lines a human at ``seat`` types (bad ones first, now and then) and the match they
    make with the random bots the terminal uses; and how many lines must be refused."""
    rng = random.Random(seed)
    m = torampu.new_match("daifugo", rules=rules, games=games, seed=seed)
    bots = {s: make_bot("random", seed=_bot_seed(seed, s), game="daifugo") for s in range(m.n)}
    lines: list[str] = []
    refused = 0
    choice = random.Random(seed + 1)
    while not m.is_over:
        g = m.game
        s = g.to_play
        assert s is not None
        if s != seat:
            m.play(bots[s].choose(g.view(s), g.legal_actions()))
            continue
        legal = g.legal_actions()
        if len(legal) == 1:
            m.play(legal[0])
            continue
        view = g.view(seat)
        if g.phase == "play" and rng.random() < 0.2:
            not_held = next(
                c for c in ("3c", "4d", "5h", "6s", "7c") if c.upper() not in view["hand"]
            )
            lines += [not_held, "zz"]
            refused += 2
        action = legal[choice.randrange(len(legal))]
        typed = typed_for(action, legal, view, rng)
        if typed == "":
            typed = "none"
        lines.append(typed)
        m.play(action)
    return lines, m, refused


@pytest.mark.parametrize(("rules", "seed"), [("yaita", 21), ("standard", 8), ("yaita", 3)])
def test_a_human_plays_a_match(rules: str, seed: int, tmp_path: Path) -> None:
    games, seat = 3, 2
    lines, m, refused = drive(seed, games, rules, seat)
    record = tmp_path / "m.json"
    res = runner.invoke(
        app,
        [
            "play",
            "daifugo",
            "--rules",
            rules,
            "--seat",
            str(seat),
            "--bots",
            "random",
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--record",
            str(record),
        ],
        input="\n".join(lines) + "\n",
    )
    assert res.exit_code == 0, res.output[-3000:]
    out = flat(res.output)
    assert out.count("Not accepted") == refused
    # the same match: same actions, same standings
    rec = json.loads(record.read_text())
    assert rec["standings"] == m.standings()
    assert [r["actions"] for r in rec["records"]] == [
        r["actions"] for r in m.to_record()["records"]
    ]
    assert "Hand:" in out and "Your turn" in out
    # the rich seat is asked to return cards, with the cards it received
    titles = [d["titles"] for d in m.standings()["games_detail"]][:-1]
    if any(t[seat] in ("daifugo", "fugo") for t in titles):
        assert "Your turn — the exchange" in out and "You received" in out
    # the record tells the same story again
    again = runner.invoke(app, ["replay", str(record)])
    assert again.exit_code == 0, again.output[-2000:]
    assert "大富豪" in again.output or "daifugo" in again.output


def test_bad_input_changes_nothing() -> None:
    seed = 5
    m = torampu.new_match("daifugo", rules="standard", games=1, seed=seed)
    g = m.game
    first = g.to_play
    assert first is not None
    # type at the first decision of seat 0 (when it leads, the ♦3 must be in the play)
    res = runner.invoke(
        app,
        [
            "play",
            "daifugo",
            "--seat",
            str(first),
            "--bots",
            "random",
            "--games",
            "1",
            "--seed",
            str(seed),
        ],
        input="zz\n5d\n4s\n99\nplay\nquit\n",
    )
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    assert out.count("Not accepted") == 5
    assert "The first play must include ♦3." in out
    assert "'play 5D' is not legal for seat 0 now: the first play must include 3D" in out
    assert "you do not hold 4S" in out
    assert "no menu entry 99" in out
    assert "Leaving the match." in out


# ------------------------------------------------------------------------------ reading input
R = DaifugoRenderer(Ctx(lang="en", n=5, game="daifugo"))
PLAY = {"phase": "play"}


def test_read_plays_in_any_order_and_spelling() -> None:
    legal = [
        "pass",
        "play 3D",
        "play 3D 3H",
        "play 3H",
        "play 5H 6H JK",
        "play JK 5H 6H",
        "play JK",
    ]
    assert R.read("3h 3d", legal, PLAY) == "play 3D 3H"
    assert R.read("♥3 ♦3", legal, PLAY) == "play 3D 3H"
    assert R.read("play 3H 3D", legal, PLAY) == "play 3D 3H"
    assert R.read("jk", legal, PLAY) == "play JK"
    assert R.read("joker", legal, PLAY) == "play JK"
    assert R.read("p", legal, PLAY) == "pass"
    assert R.read("パス", legal, PLAY) == "pass"
    assert R.read("jk 5h 6h", legal, PLAY) == "play JK 5H 6H"
    assert R.read("5h 6h jk=7h", legal, PLAY) == "play 5H 6H JK"
    assert R.read("2", legal, PLAY) == "play 3D"  # the menu lists `legal` as it comes
    with pytest.raises(IllegalAction, match="fit several plays"):
        R.read("6h jk 5h", legal, PLAY)  # shuffled: the joker's place is lost
    with pytest.raises(IllegalAction, match="no menu entry 9"):
        R.read("9", legal, PLAY)
    with pytest.raises(IllegalAction, match="cannot read"):
        R.read("3x", legal, PLAY)
    # readable but not legal: left for the engine to refuse, with its reason
    assert R.read("4c", legal, PLAY) == "play 4C"


def test_read_hostile_and_full_width_input() -> None:
    """A seventh audit: a menu number of 5,000 digits gave int()'s traceback (the other games'
    reader refuses it); full-width letters typed with a Japanese input method were "not a
    card" ("ｐａｓｓ", "３Ｄ") though "１" was read; a 1 MB line was echoed whole, twice."""
    legal = ["pass", "play 3D", "play 3D 3H", "play 3H"]
    with pytest.raises(IllegalAction, match="cannot read '1111"):
        R.read("1" * 5000, legal, PLAY)
    with pytest.raises(IllegalAction, match="no menu entry 111111…"):
        R.read("1" * 150, legal, PLAY)
    assert R.read("ｐａｓｓ", legal, PLAY) == "pass"
    assert R.read("３ｄ　３ｈ", legal, PLAY) == "play 3D 3H"
    assert R.read("２", legal, PLAY) == "play 3D"
    with pytest.raises(IllegalAction) as refused:
        R.read("x" * 1_000_000, legal, PLAY)
    assert len(str(refused.value)) < 200
    with pytest.raises(IllegalAction, match="cannot read '²'"):
        R.read("²", legal, PLAY)  # (a superscript is no digit to type)


def test_play_takes_bot_options_as_the_other_commands_do() -> None:
    """``torampu play --bots ismcts:iterations=300`` was "unknown bot kind" while listing
    ismcts among the kinds; the other commands take ``kind:option=value``."""
    from typer.testing import CliRunner

    from torampu.cli import app

    res = CliRunner().invoke(
        app, ["play", "daifugo", "--watch", "--bots", "ismcts:iterations=20", "--seed", "3"]
    )
    assert res.exit_code == 0 and "unknown bot kind" not in res.output, res.output
    res = CliRunner().invoke(app, ["play", "daifugo", "--watch", "--bots", "ismcts:bogus=1"])
    assert res.exit_code != 0 and "no option 'bogus'" in res.output, res.output
    assert "Traceback" not in res.output


def test_read_exchange_give_discard() -> None:
    ex = {"phase": "exchange", "seat": 0, "hand": ["3C", "4D"], "exchange": []}
    assert R.read("4d 3c", ["exchange 3C 4D"], ex) == "exchange 3C 4D"
    give = {"phase": "give", "hand": ["3C", "4D"], "pending": 1}
    legal = ["give", "give 3C", "give 4D"]
    assert R.read("none", legal, give) == "give"
    assert R.read("give 4d", legal, give) == "give 4D"
    assert R.read("3c", legal, give) == "give 3C"
    disc = {"phase": "discard", "hand": ["3C", "4D", "JK"], "pending": 1}
    assert R.read("jk", ["discard", "discard JK"], disc) == "discard JK"
    assert R.read("なし", ["discard", "discard JK"], disc) == "discard"


def test_menu_with_three_jokers_lists_the_simple_plays_first() -> None:
    mine = [
        *["3D", "4D", "5D", "6D", "7H", "8H", "9H", "TS", "JS", "QS", "KC", "AC"],
        "JK",
        "JK",
        "JK",
    ]
    rest = [c for c in card_list((1 << 52) - 1) if c not in mine]  # the 40 real cards left
    hands = [mine, rest[0:10], rest[10:20], rest[20:30], rest[30:40]]
    g = torampu.new_game(
        "daifugo",
        rules={"preset": "yaita", "exchange": False, "defense": False, "tenpen": False},
        deal={"hands": hands},
        titles=[4, 0, 1, 2, 3],  # a later game: seat 0, the 大貧民, leads
    )
    view = g.view(g.to_play)
    legal = g.legal_actions()
    assert g.to_play == 0 and len(legal) > MENU_MAX
    shown = R.menu_actions(legal, view)
    assert len(shown) == MENU_MAX and set(shown) <= set(legal)
    assert all("JK" not in a for a in shown[:10])
    hint = R.menu_hint(view, legal, True)
    assert hint is not None and f"{len(legal) - MENU_MAX} more plays with jokers" in hint
    # a play not in the menu is typed
    hidden = next(a for a in legal if a not in shown)
    assert R.read(hidden[5:].lower(), legal, view) == hidden


def test_hand_in_playing_order() -> None:
    assert plain(show_dhand(["3C", "3H", "TD", "2S", "JK"])) == "♣3 ♥3 ♦10 ♠2 JK"


@pytest.mark.parametrize("games", [3, 40])
def test_replay_of_a_long_match_summarises_the_standings(games: int, tmp_path: Path) -> None:
    """A few games: one column per game. A long match (a UECda run of 1,000 games): per seat
    the games, how often it finished in each place, points per game and the total."""
    from torampu.bots import play_game
    from torampu.cli.daifugo import GAME_COLUMNS

    m = torampu.new_match("daifugo", rules="uecda", games=games, seed=8)
    play_game(m, [make_bot("heuristic", seed=s, game="daifugo") for s in range(5)])
    path = tmp_path / "match.json"
    path.write_text(json.dumps(m.to_record()), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(path)], terminal_width=200)
    assert res.exit_code == 0, res.output[-2000:]
    st = m.standings()
    if games <= GAME_COLUMNS:
        assert "places per seat" not in res.output
        assert f"│ {games} " in res.output or f" {games} │" in res.output
        return
    assert f"places per seat over {games} games" in res.output
    tail = res.output[res.output.rindex("places per seat") :]
    for s in range(5):
        places = [d["ranking"].index(s) for d in st["games_detail"]]
        counts = " ".join(f"{places.count(k)}" for k in range(5))
        row = next(line for line in tail.splitlines() if line.startswith(f"│ {s}"))
        cells = [c.strip() for c in row.strip("│").split("│")]
        assert len(cells) == 10  # seat, title, games, five places, points/game, total
        assert cells[2] == str(games)
        assert " ".join(cells[3:8]) == counts
        assert cells[8] == f"{st['totals'][s] / games:.2f}"
