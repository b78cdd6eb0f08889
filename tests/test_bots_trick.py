"""The ``heuristic`` bots for Nap and Hell: legal choices everywhere, determinism, views only,
targeted decisions on fixed deals, and their strength against ``random``."""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import torampu
from torampu.bots import Bot, BotError, make_bot, play_game
from torampu.bots.base import View
from torampu.bots.hell import HellHeuristic
from torampu.bots.nap import NapHeuristic
from torampu.game import Game
from torampu.match import Match

DECK52 = [r + s for s in "SHDC" for r in "AKQJT98765432"]


class Spy:
    """Wraps a bot: checks every answer is legal, records argument types and thinking time."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.arg_types: set[tuple[type, type]] = set()
        self.calls = 0
        self.seconds = 0.0

    def choose(self, view: View, legal: Sequence[str]) -> str:
        self.arg_types.add((type(view), type(legal)))
        assert isinstance(view, Mapping) and not isinstance(view, Game | Match)
        assert isinstance(legal, list) and legal
        t = time.perf_counter()
        action = self.inner.choose(view, legal)
        self.seconds += time.perf_counter() - t
        self.calls += 1
        assert action in legal, f"{self.name} chose {action!r}, not legal"
        return action


def _lineup(game: str, kinds: Sequence[str], players: int, seed: int) -> list[Spy]:
    return [
        Spy(make_bot(kinds[s % len(kinds)], seed=seed * 10 + s, game=game)) for s in range(players)
    ]


LINEUPS = [["heuristic"], ["heuristic", "random"], ["random", "heuristic"], ["random"]]


def ask(bot: Bot, g: Game) -> str:
    """The bot's choice for the seat to play, checked legal."""
    seat = g.to_play
    assert seat is not None
    legal = g.legal_actions()
    action = bot.choose(g.view(seat), legal)
    assert action in legal
    return action


def nap_deal(mine: Sequence[str], players: int = 4) -> dict[str, Any]:
    """Seat 0 holds ``mine``; the other seats the next cards, ace-high, suit by suit."""
    rest = [c for c in DECK52 if c not in mine]
    return {"hands": [list(mine)] + [rest[i * 5 : (i + 1) * 5] for i in range(players - 1)]}


def auction(g: Game, *actions: str) -> None:
    """Play ``actions`` and pass until the auction is over."""
    for a in actions:
        g.play(a)
    while g.phase == "bid":
        g.play("pass")


# ---------------------------------------------------------------------------------- legality
NAP_VARIANTS: list[dict[str, Any]] = [
    {},
    {"deck": "short"},
    {"blucher": True},
    {"wellington_leads_lowest": True},
    {"blucher": True, "wellington_leads_lowest": True, "wellington_points": [20, -20]},
    {"early_end": False},
    {"light_shuffle": True},
]


@pytest.mark.parametrize("players", range(2, 9))
def test_nap_bots_always_choose_legal_actions(players: int) -> None:
    for i, rules in enumerate(NAP_VARIANTS):
        if rules.get("deck") == "short" and players not in (3, 4, 5):
            continue
        for seed in range(12):
            kinds = LINEUPS[seed % len(LINEUPS)]
            g = torampu.new_game("nap", rules, players, seed=1000 * i + seed)
            spies = _lineup("nap", kinds, players, seed)
            play_game(g, spies)  # play_game raises BotError on an illegal choice; Spy asserts
            assert g.is_over
            for spy in spies:
                assert spy.arg_types <= {(dict, list)}


@pytest.mark.parametrize("players", [2, 4, 5])
def test_nap_bots_play_matches(players: int) -> None:
    # one bot per seat for the whole match: it must notice each new deal from the view alone
    for seed, rules in enumerate([{}, {"light_shuffle": True, "wellington_leads_lowest": True}]):
        m = torampu.new_match("nap", rules, players, games=8, seed=seed)
        play_game(m, _lineup("nap", ["heuristic", "random"], players, seed))
        assert m.is_over


@pytest.mark.parametrize("players", range(2, 8))
def test_hell_bots_always_choose_legal_actions_over_a_full_series(players: int) -> None:
    for seed in range(2):
        kinds = [["heuristic"], ["heuristic", "random"]][seed]
        m = torampu.new_match("hell", players=players, seed=seed)
        spies = _lineup("hell", kinds, players, seed)
        play_game(m, spies)
        assert m.is_over
        assert len(m.standings()["sheet"]) == 2 * (51 // players) - 1
        for spy in spies:
            assert spy.arg_types <= {(dict, list)}


def test_hell_bots_without_the_hook_and_other_scores() -> None:
    rules = {"hook": False, "exact_base": 5, "exact_per_trick": 1, "miss_per_trick": -2}
    for players in (3, 6):
        m = torampu.new_match("hell", rules, players, seed=players)
        play_game(m, _lineup("hell", ["heuristic"], players, 1))
        assert m.is_over


def test_the_heuristic_factory_serves_nap_and_hell_and_keeps_napoleon() -> None:
    assert isinstance(make_bot("heuristic", seed=3, game="nap"), NapHeuristic)
    assert isinstance(make_bot("heuristic", seed=3, game="hell"), HellHeuristic)
    assert type(make_bot("heuristic", seed=3, game="napoleon")).__name__ == "NapoleonHeuristic"
    with pytest.raises(BotError, match="napoleon"):
        make_bot("heuristic", seed=0, game="no-such-game")


def test_the_bots_are_fast() -> None:
    spies: list[Spy] = []
    for seed in range(30):
        g = torampu.new_game("nap", players=4 + seed % 4, seed=seed)
        lineup = _lineup("nap", ["heuristic"], g.n, seed)
        play_game(g, lineup)
        spies += lineup
    for seed in range(2):
        m = torampu.new_match("hell", seed=seed)
        lineup = _lineup("hell", ["heuristic"], 5, seed)
        play_game(m, lineup)
        spies += lineup
    calls = sum(s.calls for s in spies)
    seconds = sum(s.seconds for s in spies)
    assert seconds / calls < 0.001  # measured: about 0.1 ms a decision


# ---------------------------------------------------------------------------------- determinism
@pytest.mark.parametrize("game", ["nap", "hell"])
def test_heuristic_is_deterministic_for_a_seed(game: str) -> None:
    def run(seed: int) -> dict[str, Any]:
        m = torampu.new_match(game, players=4, games=6, seed=seed)
        bots = [make_bot("heuristic", seed=seed + s, game=game) for s in range(4)]
        return play_game(m, bots).to_record()

    for seed in (3, 4):
        assert run(seed) == run(seed)


@pytest.mark.parametrize("game", ["nap", "hell"])
def test_choices_depend_on_the_view_only(game: str) -> None:
    # a fresh bot, given a JSON copy of the view, answers the same: nothing is carried over
    # from earlier deals or games of the match
    m = torampu.new_match(game, players=4, games=6, seed=8)
    bot = make_bot("heuristic", seed=1, game=game)
    while not m.is_over:
        seat = m.to_play
        assert seat is not None
        legal = m.legal_actions()
        view = m.view(seat)
        a = bot.choose(view, legal)
        fresh = make_bot("heuristic", seed=2, game=game)
        assert fresh.choose(json.loads(json.dumps(view)), list(legal)) == a
        m.play(a)


# ---------------------------------------------------------------------------------- Hell
def _hell(hands: list[list[str]], upcard: str, bids: Sequence[str], players: int = 3) -> Game:
    g = torampu.new_game(
        "hell", players=players, cards=len(hands[0]), deal={"hands": hands, "upcard": upcard}
    )
    for b in bids:
        g.play(b)
    return g


HELL_HANDS = [["9H", "4S", "5D"], ["KH", "8H", "3H"], ["QH", "7S", "6D"]]


def test_hell_having_made_its_bid_ducks_with_its_highest_losing_card() -> None:
    g = _hell(HELL_HANDS, "2C", ["bid 0", "bid 1", "bid 1"])  # seat 1 bid 0
    g.play("play 9H")
    assert ask(HellHeuristic(), g) == "play 8H"  # not KH (it wins), not 3H (kept to duck later)


def test_hell_having_reached_its_bid_leads_low() -> None:
    hands = [["9H", "4S", "5D"], ["AS", "KH", "8H"], ["QH", "7S", "6D"]]
    g = _hell(hands, "2C", ["bid 1", "bid 1", "bid 0"])
    for a in ("play 4S", "play AS", "play 7S"):  # seat 1 takes the trick: its bid is made
        g.play(a)
    assert g.to_play == 1
    assert ask(HellHeuristic(), g) == "play 8H"


def test_hell_at_its_bid_throws_a_dangerous_card_and_does_not_trump() -> None:
    hands = [["9H", "4S", "5D"], ["AS", "KD", "3D"], ["QH", "7S", "6D"]]
    g = _hell(hands, "2C", ["bid 0", "bid 1", "bid 1"])
    g.play("play 9H")
    assert ask(HellHeuristic(), g) == "play AS"  # void in hearts: the sure winner goes
    hands = [["9H", "4S", "5D"], ["2C", "KD", "3D"], ["QH", "7S", "6D"]]
    g = _hell(hands, "3C", ["bid 0", "bid 1", "bid 1"])
    g.play("play 9H")
    assert ask(HellHeuristic(), g) == "play KD"  # 2C would take the trick


def test_hell_under_its_bid_wins_cheaply() -> None:
    g = _hell([["9H", "4S"], ["TH", "AH"]], "2C", [], players=2)
    g.play("bid 2")  # seat 1 bids 2 first (seat 0 deals)
    g.play("bid 1")
    g.play("play 9H")
    assert ask(HellHeuristic(), g) == "play TH"  # the ten holds; the ace wins the last trick


def test_hell_bids_follow_the_hand() -> None:
    bot = HellHeuristic()
    strong = ["AS", "KS", "QS", "AH", "AD"]  # spades are trumps
    weak = ["2H", "3H", "4D", "2C", "5C"]
    rest = [c for c in DECK52 if c not in strong + weak and c != "9S"]
    hands = [rest[:5], strong, weak, rest[5:10], rest[10:15]]
    g = _hell(hands, "9S", [], players=5)
    assert ask(bot, g) in ("bid 4", "bid 5")
    g.play("bid 4")
    assert ask(bot, g) == "bid 0"


def test_hell_dealer_never_bids_the_forbidden_number() -> None:
    for seed in range(60):
        g = torampu.new_game("hell", players=4, cards=1 + seed % 6, seed=seed)
        bot = HellHeuristic()
        while g.phase == "bid":
            g.play(ask(bot, g))  # ask() checks the answer is legal
        assert sum(g.result()["bids"]) != g.view(None)["cards"]


# ---------------------------------------------------------------------------------- Nap
def test_nap_bids_nap_with_a_solid_suit_and_wellington_over_nap() -> None:
    g = torampu.new_game("nap", players=4, deal=nap_deal(["AS", "KS", "QS", "JS", "TS"]), dealer=3)
    assert ask(NapHeuristic(), g) == "bid nap"
    g = torampu.new_game("nap", players=4, deal=nap_deal(["AH", "KH", "QH", "JH", "TH"]), dealer=2)
    g.play("bid nap")  # seat 3 bids Nap before seat 0
    assert ask(NapHeuristic(), g) == "bid wellington"


def test_nap_bids_misere_with_low_cards_and_passes_a_poor_hand() -> None:
    g = torampu.new_game("nap", players=4, deal=nap_deal(["2S", "3S", "3H", "2D", "4C"]), dealer=3)
    assert ask(NapHeuristic(), g) == "bid misere"
    g = torampu.new_game("nap", players=4, deal=nap_deal(["7S", "8H", "9D", "TC", "JS"]), dealer=3)
    assert ask(NapHeuristic(), g) == "pass"
    # a modest hand bids low, not Nap
    g = torampu.new_game("nap", players=4, deal=nap_deal(["AS", "KS", "7S", "AH", "5D"]), dealer=3)
    assert ask(NapHeuristic(), g) in ("bid two", "bid three")


def test_nap_declarer_leads_its_top_trump() -> None:
    g = torampu.new_game("nap", players=4, deal=nap_deal(["4H", "QS", "AS", "2D", "KS"]), dealer=3)
    auction(g, "bid three")
    assert ask(NapHeuristic(), g) == "play AS"  # spades become trumps, drawn from the top


def test_nap_misere_declarer_plays_its_highest_losing_card() -> None:
    hands = [
        ["2S", "3S", "KH", "8H", "3H"],
        ["AS", "9H", "4D", "5D", "6D"],
        ["KS", "4H", "7D", "8D", "9D"],
        ["QS", "5H", "TD", "JD", "QD"],
    ]
    g = torampu.new_game("nap", players=4, deal={"hands": hands}, dealer=3)
    auction(g, "bid misere")
    for a in ("play 2S", "play AS", "play KS", "play QS", "play 9H", "play 4H", "play 5H"):
        g.play(a)
    assert g.to_play == 0
    assert ask(NapHeuristic(), g) == "play 8H"  # under 9H; KH would win, 3H is kept


def test_nap_misere_declarer_throws_a_dangerous_card_when_void() -> None:
    hands = [
        ["2S", "3S", "4S", "AH", "2D"],
        ["AC", "9H", "4D", "5D", "6D"],
        ["KS", "4H", "7C", "8D", "9D"],
        ["QS", "5H", "TD", "JD", "QD"],
    ]
    g = torampu.new_game("nap", players=4, deal={"hands": hands}, dealer=3)
    auction(g, "bid misere")
    for a in ("play 2S", "play 6D", "play KS", "play QS", "play 7C", "play TD"):
        g.play(a)
    assert ask(NapHeuristic(), g) == "play AH"


def test_nap_misere_defenders_stay_under_the_declarer() -> None:
    hands = [
        ["2S", "3S", "8H", "2D", "3D"],
        ["AS", "9H", "4H", "5D", "6D"],
        ["KS", "7H", "2H", "8D", "9D"],
        ["QS", "5H", "TD", "JD", "QD"],
    ]
    g = torampu.new_game("nap", players=4, deal={"hands": hands}, dealer=3)
    auction(g, "bid misere")
    g.play("play 8H")
    assert ask(NapHeuristic(), g) == "play 4H"  # 9H would spare the declarer
    g.play("play 4H")
    assert ask(NapHeuristic(), g) == "play 7H"  # the highest card still under 8H


def test_nap_defenders_do_not_overtake_a_partner_and_beat_the_declarer_cheaply() -> None:
    hands = [
        ["5H", "AS", "KS", "QS", "JS"],
        ["KH", "2C", "3C", "4C", "5C"],
        ["AH", "3H", "6C", "7C", "8C"],
        ["2D", "3D", "4D", "5D", "6D"],
    ]
    g = torampu.new_game("nap", players=4, deal={"hands": hands}, dealer=3)
    auction(g, "bid four")
    g.play("play 5H")
    g.play("play KH")
    assert ask(NapHeuristic(), g) == "play 3H"  # partner's KH beats the declarer's 5H
    hands[0][0], hands[1][0] = "9H", "2H"
    hands[2][:2] = ["AH", "TH"]
    hands[2][2] = "3H"
    g = torampu.new_game("nap", players=4, deal={"hands": hands}, dealer=3)
    auction(g, "bid four")
    g.play("play 9H")
    g.play("play 2H")
    assert ask(NapHeuristic(), g) == "play TH"  # the cheapest card over the declarer's 9H


def test_nap_wellington_declarer_under_leads_lowest() -> None:
    deal = nap_deal(["AH", "KH", "QH", "JH", "TH"])
    g = torampu.new_game("nap", {"wellington_leads_lowest": True}, 4, deal=deal, dealer=2, seed=1)
    g.play("bid nap")
    bots = [make_bot("heuristic", seed=s, game="nap") for s in range(4)]
    assert ask(bots[0], g) == "bid wellington"
    play_game(g, bots)
    res = g.result()
    assert res["contract"] == "wellington" and res["declarer"] == 0
    led = [t["cards"][0]["card"] for t in g.view(None)["tricks"]]
    assert led[0] == "TH"  # its lowest card: the only legal first lead


# ---------------------------------------------------------------------------------- strength
def _margin(heur: Sequence[float], rand: Sequence[float]) -> tuple[float, float]:
    """Mean difference heuristic - random and its standard error."""
    diff = statistics.mean(heur) - statistics.mean(rand)
    se = math.sqrt(statistics.variance(heur) / len(heur) + statistics.variance(rand) / len(rand))
    return diff, se


def test_nap_heuristic_beats_random() -> None:
    players = 4
    heur: list[float] = []
    rand: list[float] = []
    for i in range(400):
        me = i % players
        g = torampu.new_game("nap", players=players, seed=31000 + i)
        kinds = ["heuristic" if s == me else "random" for s in range(players)]
        bots = [make_bot(k, seed=i * 7 + s, game="nap") for s, k in enumerate(kinds)]
        scores = play_game(g, bots).result()["scores"]
        heur.append(scores[me])
        rand += [v for s, v in enumerate(scores) if s != me]
    diff, se = _margin(heur, rand)
    # measured over these seeds: heuristic about +6 a deal, random about -2 (random bids
    # contracts it cannot make, and the heuristic defends them down or pays for them)
    assert statistics.mean(heur) > 2.0
    assert diff > 2 * se and diff > 4.0


def test_hell_heuristic_beats_random() -> None:
    heur: list[float] = []
    rand: list[float] = []
    exact_h = deals_h = 0
    for i in range(30):
        me = i % 5
        m = torampu.new_match("hell", seed=32000 + i)
        kinds = ["heuristic" if s == me else "random" for s in range(5)]
        bots = [make_bot(k, seed=i * 7 + s, game="hell") for s, k in enumerate(kinds)]
        play_game(m, bots)
        st = m.standings()
        heur.append(st["totals"][me])
        rand += [v for s, v in enumerate(st["totals"]) if s != me]
        for row in st["sheet"]:
            deals_h += 1
            exact_h += row["bids"][me] == row["tricks"][me]
    diff, se = _margin(heur, rand)
    # measured: the heuristic scores about +140 a series and makes its bid exactly in about
    # two deals out of three; random about -70 and one deal in five
    assert diff > 2 * se and diff > 100
    assert exact_h / deals_h > 0.5
