"""Bot strength and speed: the ``heuristic`` Napoleon bot against ``random``, and among its own.

For each preset (default ``classic`` and ``house-001``), 5 players, fixed seeds:

* heuristic vs random: one heuristic seat (rotating through the seats) and random bots in the
  other seats. Per bot kind: mean score per game, bid rate (share of its games in which it bid
  at least once), games as Napoleon and the share of those contracts made, ms per decision.
* heuristic table: every seat heuristic. Bid rate per seat, contracts made, mean contract.
* heuristic Napoleon vs random defence: random bots that pass in the auction (random always
  outbids the heuristic otherwise, so it is hardly ever the Napoleon against them); a deal that
  everyone passes is redealt, so the heuristic is the Napoleon of every game. Contracts made and
  its mean score.

Run: .venv/bin/python bench/bots.py [--games N] [--presets classic,house-001] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torampu
from torampu.bots import Bot, make_bot, play_game
from torampu.bots.base import View

PLAYERS = 5
SEED = 424242


class Timed:
    """Wraps a bot and times its decisions."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = 0
        self.seconds = 0.0

    def choose(self, view: View, legal: Sequence[str]) -> str:
        t = time.perf_counter()
        action = self.inner.choose(view, legal)
        self.seconds += time.perf_counter() - t
        self.calls += 1
        return action


@dataclass
class KindStats:
    scores: list[int] = field(default_factory=list)
    games: int = 0
    bid_games: int = 0
    napoleon: int = 0
    made: int = 0
    calls: int = 0
    seconds: float = 0.0

    def add(self, bot: Timed, seat: int, res: dict[str, Any], bidders: set[int]) -> None:
        self.scores.append(res["scores"][seat])
        self.games += 1
        self.bid_games += seat in bidders
        if res["napoleon"] == seat:
            self.napoleon += 1
            self.made += bool(res["army_won"])
        self.calls += bot.calls
        self.seconds += bot.seconds

    def summary(self) -> dict[str, Any]:
        return {
            "mean_score": statistics.mean(self.scores),
            "bid_rate": self.bid_games / self.games,
            "napoleon_games": self.napoleon,
            "contracts_made": self.made / self.napoleon if self.napoleon else None,
            "ms_per_decision": 1000 * self.seconds / self.calls if self.calls else 0.0,
        }


class PassingRandom:
    """Random in every phase but the auction, where it passes."""

    def __init__(self, seed: int) -> None:
        self.inner = make_bot("random", seed=seed)
        self.name = "random"

    def choose(self, view: View, legal: Sequence[str]) -> str:
        return "pass" if view["phase"] == "bid" else self.inner.choose(view, legal)


def _bidders(game: Any) -> set[int]:
    return {a["seat"] for a in game.view(None)["auction"] if a["action"] != "pass"}


def vs_random(preset: str, games: int) -> dict[str, dict[str, Any]]:
    stats = {"heuristic": KindStats(), "random": KindStats()}
    for i in range(games):
        me = i % PLAYERS
        g = torampu.new_game("napoleon", preset, PLAYERS, seed=SEED + i)
        bots = [
            Timed(make_bot("heuristic" if s == me else "random", seed=SEED + i * 7 + s))
            for s in range(PLAYERS)
        ]
        res = play_game(g, bots).result()
        bidders = _bidders(g)
        for s, bot in enumerate(bots):
            stats[bot.name].add(bot, s, res, bidders)
    return {kind: st.summary() for kind, st in stats.items()}


def heuristic_table(preset: str, games: int) -> dict[str, Any]:
    bid_seats = made = 0
    contracts: list[int] = []
    calls = 0
    seconds = 0.0
    for i in range(games):
        g = torampu.new_game("napoleon", preset, PLAYERS, seed=SEED + i)
        bots = [Timed(make_bot("heuristic", seed=SEED + i * 7 + s)) for s in range(PLAYERS)]
        res = play_game(g, bots).result()
        bid_seats += len(_bidders(g))
        made += bool(res["army_won"])
        contracts.append(int(res["contract"][:-1]))
        calls += sum(b.calls for b in bots)
        seconds += sum(b.seconds for b in bots)
    return {
        "bid_rate": bid_seats / (games * PLAYERS),
        "contracts_made": made / games,
        "mean_contract": statistics.mean(contracts),
        "ms_per_decision": 1000 * seconds / calls,
    }


def napoleon_vs_random(preset: str, games: int) -> dict[str, Any]:
    made = 0
    scores: list[int] = []
    contracts: list[int] = []
    for i in range(games):
        me = i % PLAYERS
        g = torampu.new_game("napoleon", preset, PLAYERS, seed=SEED + i)
        bots: list[Bot] = [
            make_bot("heuristic", seed=SEED + i) if s == me else PassingRandom(SEED + i * 7 + s)
            for s in range(PLAYERS)
        ]
        res = play_game(g, bots).result()
        assert res["napoleon"] == me
        made += bool(res["army_won"])
        scores.append(res["scores"][me])
        contracts.append(int(res["contract"][:-1]))
    return {
        "contracts_made": made / games,
        "mean_score": statistics.mean(scores),
        "mean_contract": statistics.mean(contracts),
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=500, help="games per preset (default 500)")
    ap.add_argument("--presets", default="classic,house-001", help="comma-separated presets")
    ap.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"players": PLAYERS, "games": args.games, "seed": SEED, "presets": {}}
    print(
        f"Napoleon bots, {PLAYERS} players, {args.games} games per preset, "
        f"Python {sys.version.split()[0]}"
    )
    for preset in args.presets.split(","):
        t = time.perf_counter()
        vr = vs_random(preset, args.games)
        table = heuristic_table(preset, args.games)
        nap = napoleon_vs_random(preset, args.games)
        out["presets"][preset] = {
            "vs_random": vr,
            "heuristic_table": table,
            "napoleon_vs_random_defence": nap,
        }
        print(f"\n{preset}  ({time.perf_counter() - t:.1f} s)")
        print("  heuristic (1 seat, rotating) vs random (4 seats):")
        print("    kind        score/game  bid rate  as Napoleon  made    ms/decision")
        for kind, s in vr.items():
            made = "-" if s["contracts_made"] is None else f"{s['contracts_made']:.0%}"
            print(
                f"    {kind:<10}  {s['mean_score']:+10.3f}  {s['bid_rate']:8.0%}  "
                f"{s['napoleon_games']:11d}  {made:>5}  {s['ms_per_decision']:11.3f}"
            )
        print(
            f"  heuristic table (5 heuristic seats): bid rate {table['bid_rate']:.0%} per seat, "
            f"contracts made {table['contracts_made']:.0%}, mean contract "
            f"{table['mean_contract']:.1f}, {table['ms_per_decision']:.3f} ms/decision"
        )
        print(
            f"  heuristic Napoleon vs random defence: contracts made {nap['contracts_made']:.0%} "
            f"(mean contract {nap['mean_contract']:.1f}), score/game {nap['mean_score']:+.3f}"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
