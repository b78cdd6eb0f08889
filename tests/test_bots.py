"""Bots: legal choices under every preset, determinism, views only, and the heuristic's strength."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import torampu
from torampu.bots import Bot, BotError, make_bot, play_game
from torampu.bots.base import View
from torampu.bots.heuristic import NapoleonHeuristic, contract_for, hand_estimate, to_cards
from torampu.game import Game

PRESETS = ["classic", "classic-joker", "killers", "house-001", "house-002", "napoleon-web"]
PLAYERS = [4, 5, 6]


class Spy:
    """Wraps a bot: checks every answer is legal and records what the bot was given."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.arg_types: set[tuple[type, type]] = set()
        self.calls = 0
        self.seconds = 0.0

    def choose(self, view: View, legal: Sequence[str]) -> str:
        self.arg_types.add((type(view), type(legal)))
        assert isinstance(view, Mapping) and not isinstance(view, Game)
        assert isinstance(legal, list) and legal
        assert all(isinstance(a, str) for a in legal)
        t = time.perf_counter()
        action = self.inner.choose(view, legal)
        self.seconds += time.perf_counter() - t
        self.calls += 1
        assert action in legal, f"{self.name} chose {action!r}, not legal"
        return action


def _lineup(kinds: Sequence[str], players: int, seed: int) -> list[Spy]:
    return [Spy(make_bot(kinds[s % len(kinds)], seed=seed * 10 + s)) for s in range(players)]


# ---------------------------------------------------------------------------------- legality
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", PLAYERS)
def test_bots_always_choose_legal_actions(preset: str, players: int) -> None:
    lineups = [["heuristic"], ["random"], ["heuristic", "random"], ["random", "heuristic"]]
    for seed in range(40):
        kinds = lineups[seed % len(lineups)]
        g = torampu.new_game("napoleon", preset, players, seed=seed)
        spies = _lineup(kinds, players, seed)
        play_game(g, spies)  # play_game raises BotError on an illegal choice; Spy asserts too
        assert g.is_over
        json.dumps(g.to_record())
        for spy in spies:
            assert spy.arg_types <= {(dict, list)}


def test_heuristic_handles_other_rule_combinations() -> None:
    variants: list[dict[str, Any]] = [
        {"preset": "classic", "adjutant_timing": "after_exchange", "reveal_discards": "none"},
        {"preset": "house-002", "ura_jack_suit": "own", "killers": True, "early_end": False},
        {"preset": "classic-joker", "no_trump": True, "declare_alone": True, "yoromeki": True},
        {"preset": "house-001", "same_two_first_trick": True, "same_two_beats_specials": True},
        {"preset": "classic", "players": 4, "removed_cards": ["3C", "3D"], "min_bid": 13},
        {"preset": "house-002", "all_twenty": "lose", "discarded_honors": "nobody"},
    ]
    for i, rules in enumerate(variants):
        for seed in range(6):
            g = torampu.new_game("napoleon", rules, seed=100 * i + seed)
            play_game(g, _lineup(["heuristic"], g.n, seed))
            assert g.is_over


def test_heuristic_is_fast() -> None:
    spies: list[Spy] = []
    for seed in range(20):
        g = torampu.new_game("napoleon", ["house-001", "house-002"][seed % 2], 4, seed=seed)
        lineup = _lineup(["heuristic"], 4, seed)
        play_game(g, lineup)
        spies += lineup
    calls = sum(s.calls for s in spies)
    seconds = sum(s.seconds for s in spies)
    assert seconds / calls < 0.003  # typically well under a millisecond


# ---------------------------------------------------------------------------------- determinism
@pytest.mark.parametrize("kind", ["random", "heuristic"])
@pytest.mark.parametrize("preset", ["classic", "house-001", "house-002"])
def test_bots_are_deterministic_for_a_seed(kind: str, preset: str) -> None:
    def run(seed: int) -> dict[str, Any]:
        g = torampu.new_game("napoleon", preset, seed=seed)
        return play_game(g, [make_bot(kind, seed=seed + s) for s in range(g.n)]).to_record()

    for seed in (3, 4):
        assert run(seed) == run(seed)
    if kind == "random":
        assert run(3)["actions"] != run(4)["actions"]


def test_heuristic_does_not_depend_on_hidden_state() -> None:
    # the same view (a fresh copy, via JSON) gives the same choice, whatever came before
    g = torampu.new_game("napoleon", "house-002", seed=8)
    bot = make_bot("heuristic", seed=1)
    other = make_bot("heuristic", seed=2)
    while not g.is_over:
        seat = g.to_play
        assert seat is not None
        legal = g.legal_actions()
        view = g.view(seat)
        a = bot.choose(view, legal)
        assert other.choose(json.loads(json.dumps(view)), list(legal)) == a
        g.play(a)


# ---------------------------------------------------------------------------------- views only
def test_bots_receive_only_a_view_dict_and_a_list_of_strings() -> None:
    for preset in PRESETS:
        g = torampu.new_game("napoleon", preset, seed=21)
        spies = _lineup(["heuristic", "random"], g.n, 21)
        play_game(g, spies)
        for spy in spies:
            assert spy.arg_types == {(dict, list)}  # never the game itself


def test_heuristic_kinds_per_game() -> None:
    with pytest.raises(BotError, match="napoleon"):
        make_bot("heuristic", seed=0, game="no-such-game")
    for game in ("napoleon", "nap", "hell", "daifugo"):
        assert make_bot("heuristic", seed=0, game=game).name == "heuristic"


# ---------------------------------------------------------------------------------- its rules
def test_trick_judgement_matches_the_engine() -> None:
    checked = 0
    for preset in PRESETS:
        for seed in range(30):
            g = torampu.new_game("napoleon", preset, 5, seed=seed)
            play_game(g, _lineup(["random"], 5, seed))
            v = g.view(None)
            ct = contract_for(v["rules"], v["trump"])
            calls = [a["action"].endswith(" call") for a in g.to_record()["actions"]]
            play_actions = [
                c
                for a, c in zip(g.to_record()["actions"], calls, strict=True)
                if a["action"].startswith("play")
            ]
            for i, t in enumerate(v["tricks"]):
                cards = to_cards([x["card"] for x in t["cards"]])
                called = play_actions[i * 5]
                w = ct.winner(cards, i == 0, called)
                assert t["cards"][w]["seat"] == t["winner"], (preset, seed, i, t)
                checked += 1
    assert checked > 1000


def test_adjutant_is_the_strongest_missing_card_and_discards_keep_trumps() -> None:
    mine = ["AS", "AH", "KH", "QH", "TH", "9H", "8H", "7H", "5C", "4D"]
    widow = ["2S", "JH"]
    rest = [
        r + s for s in "SHDC" for r in "AKQJT98765432" if r + s not in mine and r + s not in widow
    ]
    hands = [mine] + [rest[i * 10 : (i + 1) * 10] for i in range(4)]
    g = torampu.new_game("napoleon", "classic", deal={"hands": hands, "widow": widow}, dealer=4)
    g.play("bid 13H")
    for _ in range(4):
        g.play("pass")
    bot = make_bot("heuristic", seed=0)
    # it holds Mighty: the next strongest card under hearts is 正J (JH), here in the widow
    assert bot.choose(g.view(0), g.legal_actions()) == "adjutant JH"
    g.play("adjutant JH")
    discard = bot.choose(g.view(0), g.legal_actions())
    assert discard in g.legal_actions()
    # keeps Mighty, 正J and every trump; voids two side suits with the low singletons
    assert discard == "discard 2S 4D"


def test_discard_in_a_four_player_game_is_built_directly() -> None:
    g = torampu.new_game("napoleon", "house-002", 4, seed=5)
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    while g.phase != "exchange":
        seat = g.to_play
        assert seat is not None
        g.play(bots[seat].choose(g.view(seat), g.legal_actions()))
    legal = g.legal_actions()
    assert len(legal) > 1000
    nap = g.view(None)["napoleon"]
    view = g.view(nap)
    t = time.perf_counter()
    a = bots[nap].choose(view, legal)
    assert time.perf_counter() - t < 0.05
    assert a in legal
    ct = contract_for(view["rules"], view["trump"])
    keep = set(to_cards(view["hand"])) - set(to_cards(a.split()[1:]))
    specials = {c for c in ct.specials if c in to_cards(view["hand"])}
    assert specials <= keep


def test_bids_follow_the_hand() -> None:
    rules = torampu.new_game("napoleon", "classic", seed=0).rules
    strong = to_cards(["AS", "JS", "JC", "AH", "KS", "QS", "9S", "5S", "AD", "3C"])
    weak = to_cards(["2S", "4H", "6H", "8H", "3D", "5D", "7D", "9D", "2C", "4C"])
    assert hand_estimate(strong, "S", rules, 5) >= 15
    assert hand_estimate(weak, "S", rules, 5) < 10
    bot = NapoleonHeuristic(0)
    view: dict[str, Any] = {
        "phase": "bid",
        "seat": 1,
        "players": 5,
        "rules": rules,
        "high_bidder": None,
        "hand": ["AS", "JS", "JC", "AH", "KS", "QS", "9S", "5S", "AD", "3C"],
    }
    legal = ["pass"] + [f"bid {n}{s}" for n in range(11, 21) for s in "CDHS"]
    assert bot.choose(view, legal) == "bid 11S"  # the cheapest bid of its best suit
    view["hand"] = ["2S", "4H", "6H", "8H", "3D", "5D", "7D", "9D", "2C", "4C"]
    assert bot.choose(view, legal) == "pass"


# ---------------------------------------------------------------------------------- strength
def _vs_random(preset: str, games: int, seed0: int) -> tuple[list[int], list[int]]:
    heur: list[int] = []
    rand: list[int] = []
    for i in range(games):
        seat = i % 5
        g = torampu.new_game("napoleon", preset, 5, seed=seed0 + i)
        bots = [make_bot("heuristic" if s == seat else "random", seed=i * 7 + s) for s in range(5)]
        scores = play_game(g, bots).result()["scores"]
        heur.append(scores[seat])
        rand += [v for s, v in enumerate(scores) if s != seat]
    return heur, rand


@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_beats_random_by_a_wide_margin(preset: str) -> None:
    heur, rand = _vs_random(preset, 100, 7000)
    # measured over these seeds: heuristic +0.58 to +0.68 a game, random -0.15 to -0.17. (Random
    # outbids it in every auction, and the army of a random Napoleon nearly always loses, so
    # about +0.6 — +1 as an ally, -1 as the unlucky adjutant — is close to the most it can get.)
    assert statistics.mean(heur) > 0.35
    # napoleon-web scores win/loss (+1/-1 each): a random Napoleon's loss gives each of the four
    # random allies +1, so random's mean is positive there (measured +0.23, heuristic +0.62)
    margin = 0.3 if torampu.presets("napoleon")[preset]["options"].get("scoring") else 0.5
    assert statistics.mean(heur) - statistics.mean(rand) > margin


@pytest.mark.parametrize("preset", ["classic", "house-001"])
def test_heuristic_bids_and_makes_contracts(preset: str) -> None:
    bid_seats = made = 0
    games = 150
    for i in range(games):
        g = torampu.new_game("napoleon", preset, 5, seed=9000 + i)
        play_game(g, [make_bot("heuristic", seed=i * 5 + s) for s in range(5)])
        bids = {a["seat"] for a in g.view(None)["auction"] if a["action"] != "pass"}
        bid_seats += len(bids)
        made += bool(g.result()["army_won"])
    # measured: 43% (classic) and 68% (house-001) of the seats bid in a deal; 63% and 59% of
    # the contracts are made against heuristic defenders (about 70% over 500 deals)
    assert bid_seats / (games * 5) > 0.3
    assert made / games > 0.5


class PassingRandom:
    """Random, but passes in the auction: lets the heuristic be the Napoleon against random."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.inner = make_bot("random", seed=seed)

    def choose(self, view: View, legal: Sequence[str]) -> str:
        return "pass" if view["phase"] == "bid" else self.inner.choose(view, legal)


@pytest.mark.parametrize("preset", ["classic", "house-002"])
def test_heuristic_napoleon_makes_its_contracts_against_random(preset: str) -> None:
    made = 0
    games = 60
    for i in range(games):
        me = i % 5
        g = torampu.new_game("napoleon", preset, 5, seed=9500 + i)
        bots: list[Bot] = [
            make_bot("heuristic", seed=i) if s == me else PassingRandom(i * 5 + s) for s in range(5)
        ]
        res = play_game(g, bots).result()  # all-pass deals are redealt: it bids in the end
        assert res["napoleon"] == me
        made += bool(res["army_won"])
    # measured: 92% (classic) and 90% (house-002)
    assert made / games > 0.75
