"""Bots and the terminal front end, end to end."""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

import torampu
from torampu.bots import Bot, BotError, make_bot, play_game
from torampu.bots.base import View
from torampu.cli import app, resolve_input

PRESETS = list(torampu.presets("napoleon"))


class Spy:
    """Wraps a bot and records what it was given."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.arg_types: set[tuple[type, type]] = set()

    def choose(self, view: View, legal: Sequence[str]) -> str:
        self.arg_types.add((type(view), type(legal)))
        assert all(isinstance(a, str) for a in legal)
        return self.inner.choose(view, legal)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [4, 5, 6])
def test_bots_play_legal_games_and_see_only_views(preset: str, players: int) -> None:
    for seed in range(2):
        g = torampu.new_game("napoleon", preset, players, seed=seed)
        spies = [Spy(make_bot("heuristic" if s % 2 else "random", seed=s)) for s in range(players)]
        play_game(g, spies)  # raises BotError on an illegal choice
        assert g.is_over
        for spy in spies:
            assert spy.arg_types == {(dict, list)}  # a plain view and list: never the game


def test_bots_are_deterministic_for_a_seed() -> None:
    def run() -> dict[str, object]:
        g = torampu.new_game("napoleon", "house-001", seed=11)
        return play_game(g, [make_bot("heuristic", seed=s) for s in range(5)]).to_record()

    assert run() == run()


def test_unknown_bot_kind() -> None:
    with pytest.raises(BotError, match="unknown bot kind"):
        make_bot("grandmaster")


def test_heuristic_beats_random_by_a_wide_margin() -> None:
    heur: list[int] = []
    rand: list[int] = []
    for g in range(100):
        seat = g % 5
        game = torampu.new_game("napoleon", "classic", seed=1000 + g)
        bots = [make_bot("heuristic" if s == seat else "random", seed=g * 7 + s) for s in range(5)]
        res = play_game(game, bots).result()
        heur.append(res["scores"][seat])
        rand += [v for s, v in enumerate(res["scores"]) if s != seat]
    # measured: heuristic ≈ +0.6 per game, random ≈ -0.15
    assert statistics.mean(heur) - statistics.mean(rand) > 0.4


def test_resolve_input_accepts_cards_numbers_and_bids() -> None:
    legal = ["play AS", "play TH", "play 3C"]
    assert resolve_input("♠A", legal) == "play AS"
    assert resolve_input("10h", legal) == "play TH"
    assert resolve_input("3", legal) == "play 3C"
    assert resolve_input("13S", ["pass", "bid 13S"]) == "bid 13S"
    assert resolve_input("3c 2d", ["discard 2D 3C"]) == "discard 2D 3C"
    for bad in ("", "play ZZ", "xyz", "9"):
        with pytest.raises(torampu.IllegalAction):
            resolve_input(bad, legal)


runner = CliRunner()


def test_cli_rules_lists_every_option_and_preset() -> None:
    out = runner.invoke(app, ["rules", "napoleon", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    assert [o["name"] for o in data["options"]] == [o["name"] for o in torampu.rules("napoleon")]
    assert set(data["presets"]) == set(PRESETS)


def test_cli_watch_match_writes_a_replayable_record(tmp_path: Path) -> None:
    rec = tmp_path / "m.json"
    out = runner.invoke(
        app,
        ["play", "napoleon", "--seat", "none", "--games", "2", "--seed", "1", "--record", str(rec)],
    )
    assert out.exit_code == 0, out.stdout
    m = torampu.replay_match(json.loads(rec.read_text()))
    assert m.is_over and m.games_played == 2
    story = runner.invoke(app, ["replay", str(rec), "--lang", "ja"])
    assert story.exit_code == 0
    assert "トリック" in story.stdout and "席0" in story.stdout


def test_cli_human_session_with_bad_input(tmp_path: Path) -> None:
    rec = tmp_path / "h.json"
    answers = "xyz\nplay ZZ\n" + "1\n" * 300
    out = runner.invoke(
        app,
        [
            "play",
            "napoleon",
            "--games",
            "1",
            "--bots",
            "random",
            "--seed",
            "3",
            "--record",
            str(rec),
        ],
        input=answers,
    )
    assert out.exit_code == 0, out.stdout
    assert "Not accepted" in out.stdout
    data = json.loads(rec.read_text())
    assert torampu.replay_match(data).games_played == 1


def test_cli_replay_rejects_a_malformed_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}')
    out = runner.invoke(app, ["replay", str(bad)])
    assert out.exit_code == 1
    assert "cannot replay" in out.stdout


def test_replay_match_rejects_malformed_records_clearly() -> None:
    m = torampu.new_match("hell", players=3, games=2, seed=4)
    rec = m.to_record()
    with pytest.raises(torampu.RecordError, match="match seed must be an int"):
        torampu.replay_match({**rec, "seed": "4"})
    with pytest.raises(torampu.RecordError, match="game 0 of the match record must be an object"):
        torampu.replay_match({**rec, "records": [7]})
