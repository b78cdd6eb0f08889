"""Bot strength and speed: the ``heuristic`` bots against ``random`` (Napoleon, Nap, Hell).

For each preset (default ``classic`` and ``house-001``), 5 players, fixed seeds:

* heuristic vs random: one heuristic seat (rotating through the seats) and random bots in the
  other seats. Per bot kind: mean score per game, bid rate (share of its games in which it bid
  at least once), games as Napoleon and the share of those contracts made, ms per decision.
* heuristic table: every seat heuristic. Bid rate per seat, contracts made, mean contract.
* heuristic Napoleon vs random defence: random bots that pass in the auction (random always
  outbids the heuristic otherwise, so it is hardly ever the Napoleon against them); a deal that
  everyone passes is redealt, so the heuristic is the Napoleon of every game. Contracts made and
  its mean score.

Nap (4 players, standard rules): one heuristic seat (rotating) and random bots in the other
seats. Per bot kind: mean score per deal with its 95% confidence interval, bid rate (share of
deals in which it bid), deals as declarer, the share of those contracts made, ms per decision.
Random outbids the heuristic in most auctions, so two more rows: a heuristic table (bid rate per
seat, contracts made, per contract) and the heuristic declarer against random defenders that
pass in the auction (contracts made, per contract, and its score per deal).

Hell (5 players, the full series 1..10..1 per game): one heuristic seat (rotating per series) and
random bots. Per bot kind: mean score per series with its 95% confidence interval, mean score
per deal, the exact-bid rate (share of deals with tricks == bid), ms per decision; and the
exact-bid rate of a table of five heuristic bots.

Run: .venv/bin/python bench/bots.py [--games N] [--presets classic,house-001] [--nap-games N]
     [--hell-series N] [--only napoleon,nap,hell] [--json FILE]
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
from _common import Timed, ci95
from torampu.bots import Bot, make_bot, play_game
from torampu.bots.base import View

PLAYERS = 5
SEED = 424242


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


@dataclass
class TrickStats:
    """Per bot kind in Nap or Hell against random."""

    scores: list[float] = field(default_factory=list)
    deal_scores: list[float] = field(default_factory=list)
    bid_deals: int = 0
    declarer: int = 0
    made: int = 0
    exact: int = 0
    calls: int = 0
    seconds: float = 0.0

    def timing(self, bot: Timed) -> None:
        self.calls += bot.calls
        self.seconds += bot.seconds

    def summary(self) -> dict[str, Any]:
        mean, half = ci95(self.scores)
        out: dict[str, Any] = {
            "mean_score": mean,
            "ci95": half,
            "games": len(self.scores),
            "ms_per_decision": 1000 * self.seconds / self.calls if self.calls else 0.0,
        }
        if self.deal_scores:
            out["mean_deal_score"] = statistics.mean(self.deal_scores)
            out["exact_rate"] = self.exact / len(self.deal_scores)
        else:
            out["bid_rate"] = self.bid_deals / len(self.scores)
            out["declarer_deals"] = self.declarer
            out["contracts_made"] = self.made / self.declarer if self.declarer else None
        return out


NAP_PLAYERS = 4
HELL_PLAYERS = 5


def nap_vs_random(games: int) -> dict[str, dict[str, Any]]:
    """Nap, 4 players: one heuristic seat (rotating) against random bots."""
    stats = {"heuristic": TrickStats(), "random": TrickStats()}
    for i in range(games):
        me = i % NAP_PLAYERS
        g = torampu.new_game("nap", players=NAP_PLAYERS, seed=SEED + i)
        bots = [
            Timed(make_bot("heuristic" if s == me else "random", seed=SEED + i * 7 + s, game="nap"))
            for s in range(NAP_PLAYERS)
        ]
        res = play_game(g, bots).result()
        bidders = _bidders(g)
        for s, bot in enumerate(bots):
            st = stats[bot.name]
            st.scores.append(res["scores"][s])
            st.bid_deals += s in bidders
            if res["declarer"] == s:
                st.declarer += 1
                st.made += bool(res["made"])
            st.timing(bot)
    return {kind: st.summary() for kind, st in stats.items()}


def nap_table(games: int) -> dict[str, Any]:
    """Nap, 4 heuristic seats: bid rate per seat, contracts and how many are made."""
    bid_seats = made = 0
    per: dict[str, list[int]] = {}
    for i in range(games):
        g = torampu.new_game("nap", players=NAP_PLAYERS, seed=SEED + i)
        bots = [make_bot("heuristic", seed=SEED + s, game="nap") for s in range(NAP_PLAYERS)]
        res = play_game(g, bots).result()
        bid_seats += len(_bidders(g))
        made += bool(res["made"])
        per.setdefault(res["contract"], []).append(int(res["made"]))
    return {
        "bid_rate": bid_seats / (games * NAP_PLAYERS),
        "contracts_made": made / games,
        "per_contract": {k: {"deals": len(v), "made": statistics.mean(v)} for k, v in per.items()},
    }


def nap_declarer_vs_random(games: int) -> dict[str, Any]:
    """Nap: the heuristic declares against random defenders that pass in the auction."""
    made = 0
    scores: list[int] = []
    per: dict[str, list[int]] = {}
    for i in range(games):
        me = i % NAP_PLAYERS
        g = torampu.new_game("nap", players=NAP_PLAYERS, seed=SEED + i)
        bots: list[Bot] = [
            make_bot("heuristic", seed=SEED + i, game="nap")
            if s == me
            else PassingRandom(SEED + i * 7 + s)
            for s in range(NAP_PLAYERS)
        ]
        res = play_game(g, bots).result()  # deals everyone passes are redealt
        assert res["declarer"] == me
        made += bool(res["made"])
        scores.append(res["scores"][me])
        per.setdefault(res["contract"], []).append(int(res["made"]))
    mean, half = ci95(scores)
    return {
        "contracts_made": made / games,
        "mean_score": mean,
        "ci95": half,
        "per_contract": {k: {"deals": len(v), "made": statistics.mean(v)} for k, v in per.items()},
    }


def hell_table(series: int) -> dict[str, Any]:
    """Hell, 5 heuristic seats over whole series: exact-bid rate and mean score per series."""
    exact = deals = 0
    totals: list[int] = []
    for i in range(series):
        m = torampu.new_match("hell", players=HELL_PLAYERS, seed=SEED + i)
        bots = [make_bot("heuristic", seed=SEED + s, game="hell") for s in range(HELL_PLAYERS)]
        st = play_game(m, bots).standings()
        totals += st["totals"]
        for row in st["sheet"]:
            deals += HELL_PLAYERS
            exact += sum(b == t for b, t in zip(row["bids"], row["tricks"], strict=True))
    return {"exact_rate": exact / deals, "mean_score": statistics.mean(totals)}


def hell_vs_random(series: int) -> dict[str, dict[str, Any]]:
    """Hell, 5 players, whole series: one heuristic seat (rotating) against random bots."""
    stats = {"heuristic": TrickStats(), "random": TrickStats()}
    for i in range(series):
        me = i % HELL_PLAYERS
        m = torampu.new_match("hell", players=HELL_PLAYERS, seed=SEED + i)
        bots = [
            Timed(
                make_bot("heuristic" if s == me else "random", seed=SEED + i * 7 + s, game="hell")
            )
            for s in range(HELL_PLAYERS)
        ]
        st_all = play_game(m, bots).standings()
        for s, bot in enumerate(bots):
            st = stats[bot.name]
            st.scores.append(st_all["totals"][s])
            for row in st_all["sheet"]:
                st.deal_scores.append(row["scores"][s])
                st.exact += row["bids"][s] == row["tricks"][s]
            st.timing(bot)
    return {kind: st.summary() for kind, st in stats.items()}


def _per_contract(per: dict[str, dict[str, Any]]) -> str:
    order = ["two", "three", "misere", "four", "nap", "wellington", "blucher"]
    return ", ".join(f"{k} {per[k]['deals']} ({per[k]['made']:.0%})" for k in order if k in per)


def print_nap(
    res: dict[str, dict[str, Any]],
    table: dict[str, Any],
    decl: dict[str, Any],
    games: int,
    secs: float,
) -> None:
    print(f"\nNap, {NAP_PLAYERS} players, standard rules, {games} deals  ({secs:.1f} s)")
    print("  heuristic (1 seat, rotating) vs random (3 seats):")
    print("    kind        score/deal (95% CI)  bid rate  declarer  made    ms/decision")
    for kind, s in res.items():
        made = "-" if s["contracts_made"] is None else f"{s['contracts_made']:.0%}"
        score = f"{s['mean_score']:+.3f} ± {s['ci95']:.3f}"
        print(
            f"    {kind:<10}  {score:>19}  {s['bid_rate']:8.0%}  {s['declarer_deals']:8d}  "
            f"{made:>5}  {s['ms_per_decision']:11.3f}"
        )
    print(
        f"  heuristic table (4 heuristic seats): bid rate {table['bid_rate']:.0%} per seat, "
        f"contracts made {table['contracts_made']:.0%}"
    )
    print(f"    contracts (deals, made): {_per_contract(table['per_contract'])}")
    print(
        f"  heuristic declarer vs random defence: contracts made {decl['contracts_made']:.0%}, "
        f"score/deal {decl['mean_score']:+.3f} ± {decl['ci95']:.3f}"
    )
    print(f"    contracts (deals, made): {_per_contract(decl['per_contract'])}")


def print_hell(
    res: dict[str, dict[str, Any]], table: dict[str, Any], series: int, secs: float
) -> None:
    print(f"\nHell, {HELL_PLAYERS} players, full series 1..10..1, {series} series  ({secs:.1f} s)")
    print("  heuristic (1 seat, rotating) vs random (4 seats):")
    print("    kind        score/series (95% CI)  score/deal  exact bids  ms/decision")
    for kind, s in res.items():
        score = f"{s['mean_score']:+.1f} ± {s['ci95']:.1f}"
        print(
            f"    {kind:<10}  {score:>21}  {s['mean_deal_score']:+10.2f}  "
            f"{s['exact_rate']:10.1%}  {s['ms_per_decision']:11.3f}"
        )
    print(
        f"  heuristic table (5 heuristic seats): exact bids {table['exact_rate']:.1%}, "
        f"score/series {table['mean_score']:+.1f}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=500, help="games per preset (default 500)")
    ap.add_argument("--presets", default="classic,house-001", help="comma-separated presets")
    ap.add_argument("--nap-games", type=int, default=2000, help="Nap deals (default 2000)")
    ap.add_argument("--hell-series", type=int, default=100, help="Hell series (default 100)")
    ap.add_argument(
        "--only", default="napoleon,nap,hell", help="comma-separated games to bench (default all)"
    )
    ap.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    out: dict[str, Any] = {"players": PLAYERS, "games": args.games, "seed": SEED, "presets": {}}
    presets = args.presets.split(",") if "napoleon" in only else []
    if presets:
        print(
            f"Napoleon bots, {PLAYERS} players, {args.games} games per preset, "
            f"Python {sys.version.split()[0]}"
        )
    for preset in presets:
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
    if "nap" in only:
        t = time.perf_counter()
        nap = nap_vs_random(args.nap_games)
        table = nap_table(args.nap_games)
        decl = nap_declarer_vs_random(args.nap_games)
        out["nap"] = {
            "players": NAP_PLAYERS,
            "games": args.nap_games,
            "vs_random": nap,
            "heuristic_table": table,
            "declarer_vs_random_defence": decl,
        }
        print_nap(nap, table, decl, args.nap_games, time.perf_counter() - t)
    if "hell" in only:
        t = time.perf_counter()
        hell = hell_vs_random(args.hell_series)
        htable = hell_table(args.hell_series)
        out["hell"] = {
            "players": HELL_PLAYERS,
            "series": args.hell_series,
            "vs_random": hell,
            "heuristic_table": htable,
        }
        print_hell(hell, htable, args.hell_series, time.perf_counter() - t)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
