"""The terminal front end (``torampu play / replay / rules``), driven as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from typer.testing import CliRunner

import torampu
from torampu.bots import BotError, make_bot, play_game
from torampu.bots import base as bots_base
from torampu.cards import parse_card, pretty
from torampu.cli import app, interpret, prettify, resolve_input, show_bid, show_hand

runner = CliRunner()


def flat(text: str) -> str:
    """Output with line wrapping undone (Rich wraps at 80 columns under the test runner)."""
    return " ".join(text.split())


def plain(markup: str) -> str:
    """What a piece of Rich markup looks like on a terminal without colour."""
    return flat(Text.from_markup(markup).plain)


def table_row(output: str, first_cell: str) -> list[str]:
    """The other cells of the table row whose first cell is ``first_cell`` (stars dropped)."""
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│┃ ").split("│")]
        if len(cells) > 1 and cells[0].rstrip(" ★") == first_cell:
            return cells[1:]
    raise AssertionError(f"no table row {first_cell!r} in:\n{output}")


def invoke(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


def finished_match_record(games: int = 1, seed: int = 5) -> dict[str, Any]:
    m = torampu.new_match("napoleon", rules="classic", games=games, seed=seed)
    play_game(m, [make_bot("random", seed=s) for s in range(m.n)])
    return m.to_record()


# ------------------------------------------------------------------------------------ input
def test_resolve_input_accepts_numbers_cards_bids_and_canonical_actions() -> None:
    play = ["play AS", "play TH", "play 3C"]
    assert resolve_input("1", play) == "play AS"
    assert resolve_input("♠A", play) == "play AS"
    assert resolve_input("as", play) == "play AS"
    assert resolve_input("A♠", play) == "play AS"
    assert resolve_input("10h", play) == "play TH"
    assert resolve_input("play 10♥", play) == "play TH"
    assert resolve_input("  PLAY th ", play) == "play TH"
    bids = ["pass", "bid 13H", "bid 13S", "bid 13N"]
    assert resolve_input("13S", bids) == "bid 13S"
    assert resolve_input("13♠", bids) == "bid 13S"
    assert resolve_input("bid 13♥", bids) == "bid 13H"
    assert resolve_input("13nt", bids) == "bid 13N"
    assert resolve_input("pass", bids) == "pass"
    # 10H is a bid in the auction, the ten of hearts in the play
    assert resolve_input("10h", ["pass", "bid 10H"]) == "bid 10H"
    assert resolve_input("as", ["adjutant AS", "adjutant KS", "alone"]) == "adjutant AS"
    assert resolve_input("alone", ["adjutant AS", "alone"]) == "alone"
    exchange = ["discard 2D 3C", "discard 2D 4C", "discard 3C 4C"]
    assert resolve_input("3c 2d", exchange) == "discard 2D 3C"
    assert resolve_input("discard ♣4 ♣3", exchange) == "discard 3C 4C"
    # full-width, as a Japanese input method types them (the engine reads ASCII digits only)
    assert resolve_input("１３Ｓ", bids) == "bid 13S"
    assert resolve_input("bid １３♠", bids) == "bid 13S"
    assert resolve_input("ｐａｓｓ", bids) == "pass"
    calls = ["play 3S", "play 8S", "play 8S call"]
    assert resolve_input("8s call", calls) == "play 8S call"
    assert resolve_input("play ♠8 CALL", calls) == "play 8S call"


@pytest.mark.parametrize(
    ("text", "legal", "numbered", "message"),
    [
        ("", ["play AS"], True, "type an action"),
        ("xyz", ["play AS"], True, "cannot read 'xyz'"),
        ("9", ["play AS", "play KS"], True, "no menu entry 9: choose 1-2"),
        ("9" * 5000, ["play AS", "play KS"], True, "no menu entry 999999…: choose 1-2"),
        ("1", ["discard 2C 3C"], False, "no numbered menu"),
        ("AS", ["pass", "bid 13S"], True, "in the auction type a bid"),
    ],
)
def test_unreadable_input_is_refused_with_a_reason(
    text: str, legal: list[str], numbered: bool, message: str
) -> None:
    with pytest.raises(torampu.IllegalAction, match=message):
        interpret(text, legal, numbered)


def test_well_formed_but_illegal_input_is_not_resolved() -> None:
    with pytest.raises(torampu.IllegalAction, match="not legal now"):
        resolve_input("play KS", ["play AS"])
    with pytest.raises(torampu.IllegalAction, match="not legal now"):
        resolve_input("play ZZ", ["play AS"])
    # interpret passes it on so that the engine can say why
    assert interpret("play ZZ", ["play AS"]) == "play ZZ"
    assert interpret("bid 99X", ["pass"]) == "bid 99X"


def test_japanese_messages() -> None:
    with pytest.raises(torampu.IllegalAction, match="メニューに 9 番はありません"):
        interpret("9", ["play AS"], True, "ja")


# ------------------------------------------------------------------------------------ rules
def test_rules_table_lists_every_option_and_preset() -> None:
    for game in torampu.games():
        out = invoke("rules", game)
        assert out.exit_code == 0, out.stdout
        for option in torampu.rules(game):
            assert option["name"] in out.stdout, (game, option["name"])
            assert option["source"] in out.stdout
        for name, preset in torampu.presets(game).items():
            assert name in out.stdout
            for key in preset["options"]:
                assert key in out.stdout
    text = invoke("rules", "napoleon").stdout
    assert "before_exchange," in text and "after_exchange" in text  # values of a choice
    assert "10…20" in text  # min_bid's values as a range
    assert "joker_mode=request_weak" in text  # a preset's override


def test_rules_json_is_the_api() -> None:
    out = invoke("rules", "napoleon", "--json")
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    assert data["options"] == torampu.rules("napoleon")
    assert data["presets"] == torampu.presets("napoleon")


def test_rules_of_an_unknown_game() -> None:
    out = invoke("rules", "mahjong")
    assert out.exit_code == 1
    assert "unknown game 'mahjong'" in out.stdout
    assert "Traceback" not in out.stdout


# ------------------------------------------------------------------------------------ watching
def test_watching_bots_writes_a_replayable_record_and_explains_every_trick(tmp_path: Path) -> None:
    rec = tmp_path / "watch.json"
    out = invoke(
        "play", "napoleon", "--seat", "none", "--games", "1", "--bots", "random", "--seed", "1",
        "--record", str(rec),
    )  # fmt: skip
    assert out.exit_code == 0, out.stdout
    m = torampu.replay_match(json.loads(rec.read_text(encoding="utf-8")))
    assert m.is_over and m.games_played == 1
    game = torampu.replay(m.records[0])
    view = game.view(None)
    text = flat(out.stdout)
    # every hand at the deal, the auction, the contract, every trick with its explanation
    for seat, hand in enumerate(m.records[0]["deal"]["hands"]):
        assert plain(f"seat {seat}: {show_hand(hand)}") in text  # e.g. "seat 0: ♠9 ♠6 ♥A …"
    for step in view["auction"]:
        if step["action"] == "pass":
            assert f"seat {step['seat']}: passed" in text
        else:
            assert plain(f"seat {step['seat']}: bid {show_bid(step['action'].split()[1])}") in text
    res = view["result"]
    assert f"Napoleon: seat {res['napoleon']}, with" in text
    for i, trick in enumerate(view["tricks"], 1):
        assert f"Trick {i}:" in text
        assert plain(prettify(trick["why"]["en"])) in text
    # the score table and the standings
    assert "Game 1 of 1: result" in text and "Match standings after 1 of 1 games" in text
    roles = {res["napoleon"]: "Napoleon", res["adjutant"]: "adjutant"}
    counts = view["honor_counts"]
    for seat, score in enumerate(res["scores"]):
        role = roles.get(seat, "ally")
        shown = f"{score:+d}" if score else "0"
        # a one-game match: the running total is the game's score
        assert table_row(out.stdout, str(seat)) == [role, str(counts[seat]), shown, shown]


def test_watching_in_japanese() -> None:
    out = invoke(
        "play", "napoleon", "--watch", "--games", "1", "--bots", "random", "--seed", "2",
        "--lang", "ja", "--rules", "house-001",
    )  # fmt: skip
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "第1トリック" in text and "通算成績" in text and "席0" in text
    assert "ナポレオン" in text and ("連合軍の勝ち" in text or "ナポレオン軍の勝ち" in text)
    assert "の勝ち:" in text  # the Japanese explanations of the tricks


def test_match_of_several_games_keeps_running_totals(tmp_path: Path) -> None:
    rec = tmp_path / "m.json"
    out = invoke(
        "play", "napoleon", "--seat", "none", "--games", "3", "--bots", "random", "--seed", "9",
        "--players", "4", "--record", str(rec),
    )  # fmt: skip
    assert out.exit_code == 0, out.stdout
    m = torampu.replay_match(json.loads(rec.read_text(encoding="utf-8")))
    assert m.n == 4 and m.games_played == 3
    text = flat(out.stdout)
    for no in (1, 2, 3):
        assert f"Game {no} of 3: result" in text
    assert f"Leading: {', '.join(f'seat {s}' for s in m.standings()['leaders'])}" in text


# ------------------------------------------------------------------------------------ a human
def test_human_answering_the_first_menu_entry_finishes_a_match(tmp_path: Path) -> None:
    rec = tmp_path / "human.json"
    out = invoke(
        "play", "napoleon", "--games", "1", "--bots", "random", "--seed", "3",
        "--record", str(rec), input="1\n" * 300,
    )  # fmt: skip
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "You are seat 0" in text and "Your turn — auction" in text
    assert "Your turn — play" in text and "Hand:" in text
    assert "you: passed" in text  # "1" is "pass" in the auction
    assert "Game 1 of 1: result" in text and "The match is over" in text
    data = json.loads(rec.read_text(encoding="utf-8"))
    m = torampu.replay_match(data)
    assert m.is_over and m.games_played == 1
    mine = [a for a in data["records"][0]["actions"] if a["seat"] == 0]
    assert any(a["action"].startswith("play ") for a in mine)
    assert all(a["action"] == "pass" for a in mine if not a["action"].startswith("play "))


def test_human_napoleon_names_the_adjutant_and_exchanges(tmp_path: Path) -> None:
    seed = 4
    # seat 1 bids first (the dealer is seat 0); 20S cannot be beaten without no-trump bids
    first = torampu.new_match("napoleon", games=1, seed=seed).game
    hand = first.view(1)["hand"]
    put_back = hand[-2:]
    typed = " ".join(pretty(parse_card(c)).lower() for c in put_back)  # e.g. "♣3 ♣2"
    answers = ["bid 20S", "adjutant AS", "1", "2c 2c", typed] + ["1"] * 20
    rec = tmp_path / "nap.json"
    out = invoke(
        "play", "napoleon", "--seat", "1", "--games", "1", "--bots", "random",
        "--seed", str(seed), "--record", str(rec), input="\n".join(answers) + "\n",
    )  # fmt: skip
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "Napoleon: you, with 20♠ (trump ♠)." in text
    assert "you: named the adjutant card ♠A" in text
    assert "Type the 2 cards to put back" in text
    assert "Not accepted: there is no numbered menu here" in text
    assert "Not accepted: 'discard 2C 2C': card 2C given twice" in text
    assert "you: put back" in text and "Widow:" in text
    data = json.loads(rec.read_text(encoding="utf-8"))
    game = data["records"][0]
    assert game["result"]["napoleon"] == 1 and game["result"]["contract"] == "20S"
    mine = [a["action"] for a in game["actions"] if a["seat"] == 1]
    assert mine[:2] == ["bid 20S", "adjutant AS"]
    assert set(mine[2].split()[1:]) == set(put_back) and mine[2].startswith("discard ")
    assert torampu.replay_match(data).games_played == 1


def test_illegal_input_reprompts_and_changes_nothing(tmp_path: Path) -> None:
    rec = tmp_path / "bad.json"
    out = invoke(
        "play", "napoleon", "--games", "1", "--bots", "random", "--seed", "6",
        "--record", str(rec), input="play ZZ\nbid 99X\nxyz\nbid 11S extra\n",
    )  # fmt: skip
    assert out.exit_code == 0, out.stdout  # the input ends: a clean goodbye, not a crash
    text = flat(out.stdout)
    assert "Traceback" not in text
    assert "Not accepted: 'play ZZ': not a card: 'ZZ'" in text
    assert "Not accepted: 'bid 99X': a bid is a count 1-20 and a suit" in text
    assert "Not accepted: in the auction type a bid such as 13S" in text  # xyz
    assert text.count("Not accepted") == 4
    assert text.count("your choice>") == 5  # the prompt came back after every refusal
    assert "Input closed: leaving the match." in text and "Match record saved" in text
    # the saved match is exactly where it was before the bad input: seat 0 still to bid
    data = json.loads(rec.read_text(encoding="utf-8"))
    m = torampu.replay_match(data)
    assert m.to_play == 0 and m.phase == "bid"
    assert all(a["seat"] != 0 for a in data["records"][0]["actions"])
    fresh = torampu.new_match("napoleon", games=1, seed=6)
    for step in data["records"][0]["actions"]:
        fresh.play(step["action"])
    assert m.game.view(0) == fresh.game.view(0)


def test_quit_and_end_of_input(tmp_path: Path) -> None:
    out = invoke("play", "napoleon", "--games", "1", "--bots", "random", "--seed", "1", input="")
    assert out.exit_code == 0
    assert "Input closed" in out.stdout and "Traceback" not in out.stdout
    out = invoke("play", "napoleon", "--games", "1", "--seed", "1", "--bots", "random", input="q\n")
    assert out.exit_code == 0 and "Leaving the match." in out.stdout


def test_help_at_the_prompt() -> None:
    out = invoke("play", "napoleon", "--games", "1", "--bots", "random", "--seed", "1", input="?\n")
    assert "Type a menu number, or the action itself" in flat(out.stdout)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "grandmaster"], "unknown bot kind 'grandmaster'"),
        (["--seat", "7"], "--seat must be 0..4 or none, not 7"),
        (["--seat", "north"], "--seat must be 0..4 or none, not 'north'"),
        (["--rules", "nope"], "unknown preset 'nope'"),
        (["--rules", '{"killers": "maybe"}'], "killers"),
        (["--rules", "{not json"], "--rules is not valid JSON"),
        (["--players", "9"], "players"),
    ],
)
def test_bad_play_options_are_clean_errors(args: list[str], message: str) -> None:
    out = invoke("play", "napoleon", *args, input="")
    assert out.exit_code == 1
    assert message in flat(out.stdout)
    assert "Traceback" not in out.stdout


def test_a_bot_kind_that_does_not_play_the_game_is_a_clean_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def napoleon_only(seed: int, game: str) -> Any:
        if game != "napoleon":
            raise BotError(f"the picky bot plays napoleon, not {game!r}")
        return make_bot("random", seed=seed)

    monkeypatch.setitem(bots_base._REGISTRY, "picky", napoleon_only)
    out = invoke("play", "nap", "--seat", "none", "--games", "1", "--bots", "picky")
    assert out.exit_code == 1
    assert "the picky bot plays napoleon, not 'nap'" in flat(out.stdout)
    assert "--bots: " in out.stdout and "Traceback" not in out.stdout


def test_without_bots_the_heuristic_bot_plays_where_it_can_else_random(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def napoleon_only(seed: int, game: str) -> Any:
        if game != "napoleon":
            raise BotError("napoleon only")
        return make_bot("random", seed=seed)

    monkeypatch.setitem(bots_base._REGISTRY, "heuristic", napoleon_only)
    out = invoke("play", "nap", "--watch", "--games", "1", "--seed", "1")
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "There is no heuristic bot for Nap yet: the other seats are random bots." in text
    assert "Watching 4 bots (random)." in text


def test_other_games_can_be_watched() -> None:
    for game, end in (
        ("nap", "Match standings after 2 of 2 games"),
        ("hell", "Score sheet after 2 of 2 deals"),  # Hell's games are the deals of a series
    ):
        out = invoke("play", game, "--watch", "--games", "2", "--bots", "random", "--seed", "3")
        assert out.exit_code == 0, out.stdout
        assert "Trick 1:" in out.stdout and end in out.stdout


# ------------------------------------------------------------------------------------ replay
def test_replay_tells_the_story_of_a_match(tmp_path: Path) -> None:
    data = finished_match_record(games=2, seed=5)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = invoke("replay", str(path))
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "Match record: 2 of 2 games" in text and "Rules: classic" in text
    assert "Record checked" in text
    for no, rec in enumerate(data["records"], 1):
        game = torampu.replay(rec)
        view = game.view(None)
        res = view["result"]
        assert f"Game {no} of 2 — Napoleon" in text
        widow = " ".join(pretty(parse_card(c)) for c in rec["deal"]["widow"])
        assert plain(f"Widow: {widow}") in text or res["redeals"]
        discard = next(a["action"] for a in rec["actions"] if a["action"].startswith("discard"))
        for card in discard.split()[1:]:
            assert pretty(parse_card(card)) in text
        assert f"Napoleon: seat {res['napoleon']}" in text
        if res["adjutant_card"]:
            assert plain(f"named the adjutant card {pretty(parse_card(res['adjutant_card']))}") in (
                text
            )
        for trick in view["tricks"]:
            assert plain(prettify(trick["why"]["en"])) in text
    assert "Match standings after 2 of 2 games" in text


def test_replay_of_a_single_game_in_japanese(tmp_path: Path) -> None:
    g = torampu.new_game("napoleon", rules="house-002", players=4, seed=8)
    play_game(g, [make_bot("random", seed=s) for s in range(4)])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(g.to_record(), ensure_ascii=False), encoding="utf-8")
    out = invoke("replay", str(path), "--lang", "ja")
    assert out.exit_code == 0, out.stdout
    text = flat(out.stdout)
    assert "ルール: house-002" in text and "配札" in text and "競り" in text
    assert "席0" in text and "記録を検証しました" in text
    assert ("第1トリック" in text) == bool(g.view(None)["tricks"])
    for trick in g.view(None)["tricks"]:
        assert plain(prettify(trick["why"]["ja"])) in text


def test_replay_of_an_unfinished_match(tmp_path: Path) -> None:
    rec = tmp_path / "part.json"
    invoke(
        "play", "napoleon", "--games", "2", "--bots", "random", "--seed", "1",
        "--record", str(rec), input="pass\n",
    )  # fmt: skip
    out = invoke("replay", str(rec))
    assert out.exit_code == 0, out.stdout
    assert "The record stops here" in out.stdout


def _broken_records() -> list[tuple[str, str, str]]:
    good = finished_match_record(games=1, seed=6)
    illegal = json.loads(json.dumps(good))
    illegal["records"][0]["actions"][0]["action"] = "bid 99S"
    result = json.loads(json.dumps(good))
    result["records"][0]["result"]["scores"] = [9, 9, 9, 9, 9]
    standings = json.loads(json.dumps(good))
    standings["standings"]["totals"] = [1, 2, 3, 4, 5]
    single = json.loads(json.dumps(good["records"][0]))
    single["result"]["army_won"] = not single["result"]["army_won"]
    return [
        ("not-json", "{this is not json", "not JSON"),
        ("array", "[1, 2, 3]", "a record is a JSON object, not list"),
        ("format", '{"format": "nope"}', "record format is 'nope'"),
        ("illegal", json.dumps(illegal), "step 0"),
        ("result", json.dumps(result), "differs from the match's replay"),
        ("standings", json.dumps(standings), "standings differ"),
        ("single", json.dumps(single), "stored result differs"),
        ("game", json.dumps({**good, "game": "chess"}), "unknown game 'chess'"),
        ("records", json.dumps({**good, "records": [5]}), "game 0 of the match is not a JSON"),
        ("not-a-list", json.dumps({**good, "records": 5}), "'records' must be a list"),
        ("seed", json.dumps({**good, "seed": "x"}), "record seed must be an int, not 'x'"),
    ]


@pytest.mark.parametrize(("name", "content", "message"), _broken_records())
def test_replay_rejects_a_bad_record(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(content, encoding="utf-8")
    out = invoke("replay", str(path))
    assert out.exit_code == 1, out.stdout
    text = flat(out.stdout)
    assert text.startswith(f"cannot replay {path}")
    assert message in text
    assert "Traceback" not in text


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    out = invoke("replay", str(tmp_path / "nowhere.json"))
    assert out.exit_code == 1
    assert "cannot replay" in out.stdout and "cannot read it: No such file" in out.stdout


# ------------------------------------------------------------------------------ console script
def test_the_installed_command(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "torampu"
    if not exe.exists():
        pytest.skip("the torampu console script is not installed in this environment")
    env = {**os.environ, "COLUMNS": "120"}
    done = subprocess.run(
        [str(exe), "play", "napoleon", "--games", "1", "--bots", "random", "--seed", "2"],
        input="1\n" * 300,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "The match is over" in done.stdout
    done = subprocess.run(
        [str(exe), "rules", "napoleon", "--json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and json.loads(done.stdout)["options"] == torampu.rules("napoleon")


def test_python_m_torampu_is_the_torampu_command() -> None:
    """``python -m torampu`` answered "No module named torampu.__main__" (a tenth audit ran the
    server from a copy of the source that way)."""
    out = subprocess.run(
        [sys.executable, "-m", "torampu", "--help"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert "serve" in out.stdout and "tournament" in out.stdout
