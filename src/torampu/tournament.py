"""Tournaments: bots compared on duplicate deals, with 95% confidence intervals.

**Duplicate deals.** Deal ``d`` has a seed derived from the tournament seed; the same deal is
played once per *rotation* ``r = 0 … k-1`` (``k`` bots), seat ``i`` taken by bot
``bots[(i + r) % k]``. Over a deal's rotations every bot sits in every seat exactly once, so it
holds every hand of the deal and the luck of the cards cancels. (With ``k`` bots the line-up
only depends on ``r mod k``: ``k`` rotations are all the distinct ones, whatever the number of
seats ``n``; each bot plays ``n`` seats per deal.)

**The unit of play** ("game" in the figures) is what one deal seed starts:

* Napoleon, Nap: one game (``torampu.new_game``); its score is the seat's score.
* Hell: a series (``torampu.new_match("hell", games=match_games)``: the whole series 1..max..1
  by default, or its first ``match_games`` deals); its score is the seat's series total.
* Daifugo: a match of ``match_games`` games (default 5) with titles carried over
  (``new_match("daifugo", games=…)``); its score is the seat's *points per game* in the match.

**Wins.** Napoleon: the bot's side won (it is in ``result()["winners"]``: the army made its
contract, or the allies stopped it). Nap: the bot was paid (the declarer made the contract, or
it defended a contract that failed). Hell: the best total of the series, a tie shared (two
leaders each get ½). Daifugo: the share of the match's games in which the bot went out first
(became 大富豪). The win rate is wins per game.

**Napoleon figures.** By role — ``napoleon``, ``adjutant`` (the adjutant who is not also the
Napoleon) and ``ally`` (the allied side: everyone else) — games, mean, CI and win rate; the
*bid rate* (share of games in which the bot made at least one bid, not only passes), the
*Napoleon rate* (share of games in which it won the auction) and the *contract success* (share
of its Napoleon games in which the army made the contract).

**Intervals** are computed over *deals*, the independent unit (the rotations of one deal share
its cards): a bot's figure is the ratio ``Σ_d y_d / Σ_d g_d`` of its sums over deals (``y_d``
its scores in deal ``d``, ``g_d`` its games there), with the cluster (ratio-estimator) standard
error ``sqrt(Σ_d (y_d - r g_d)² / (D (D-1))) / ḡ`` and a two-sided 95% **Student t** interval
with ``D - 1`` degrees of freedom (``D`` finished deals). When every deal gives a bot the same
number of games (its overall score, win rate, bid rate) this is exactly the t interval of its
per-deal means. A *pair* ``A - B`` is the mean over deals of (A's per-deal mean - B's): "A beats
B" when its whole interval is above zero. With one deal there is no interval (``None``).

All sums are exact fractions, so the figures do not depend on the order in which deals finish:
the same seed and bots give the same summary with any number of ``jobs`` (a ``think`` time
budget is the exception: it depends on the machine's speed, use ``iterations`` to reproduce).

**Streaming.** Deals run in a :class:`~concurrent.futures.ProcessPoolExecutor` (``jobs``; 1 runs
them in this process). The workers are started fresh (``spawn``): a bot kind must be registered
when :mod:`torampu.bots` is imported to be playable with ``jobs > 1``. Each finished deal is
appended to the ``records`` file (JSON lines, one per rotation: deal, deal seed, rotation, the
bot at each seat and its seed, the unit's scores and totals, winners, for Napoleon the roles,
bids and contract, and the game's or match's ``to_record()``) and flushed, and the ``summary``
JSON is rewritten atomically (temporary file + ``os.replace``); a Ctrl-C arriving meanwhile
waits until both are written. On ``KeyboardInterrupt`` pending deals are cancelled, the workers
stopped, and the summary of the finished deals is returned (``"interrupted": true``).

>>> s = run_tournament("nap", ["heuristic", "random"], deals=2, seed=1, jobs=1)
>>> s["bots"]["heuristic"]["games"], s["rotations"], s["deals"]
(8, 2, 2)
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import torampu
from torampu.bots import Bot, bot_options, make_bot, parse_bot_spec, play_game
from torampu.daifugo import Daifugo
from torampu.errors import TorampuError
from torampu.game import Game
from torampu.hell import series as hell_series
from torampu.match import Match

__all__ = [
    "FORMAT",
    "ROLES",
    "Entrant",
    "Plan",
    "TournamentError",
    "derive_seed",
    "entrants",
    "plan_tournament",
    "play_deal",
    "run_tournament",
    "t95",
    "unit_games",
    "unit_name",
]

FORMAT = "torampu-tournament/1"
ROLES = ("napoleon", "adjutant", "ally")
DAIFUGO_MATCH_GAMES = 5

OnDeal = Callable[[int, int, list[dict[str, Any]]], None]
"""``on_deal(done, total, rows)``: called after each finished deal has been written."""


class TournamentError(TorampuError):
    """A tournament that cannot run: bad bots, sizes or options (the message names it)."""


class WorkerDied(TorampuError):
    """A worker process died in the middle of a deal (killed from outside, or by the system
    when memory ran out); the finished deals are saved."""


# --------------------------------------------------------------------------------- bots
@dataclass(frozen=True)
class Entrant:
    """One bot of a tournament: its display ``name`` (the spec string), kind and options."""

    name: str
    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)


def entrants(specs: Sequence[str], common: Mapping[str, Any] | None = None) -> list[Entrant]:
    """The entrants of bot specs (``"heuristic"``, ``"ismcts:think=0.5"``, see
    :func:`torampu.bots.parse_bot_spec`).

    ``common`` options (the command line's ``--think``, ``--iterations``) go to every bot whose
    kind takes them; a spec's own value wins. Names are the specs; a spec given twice gets
    ``#2``, ``#3``. Raises :class:`TournamentError` for no bots, a bad spec, an unknown kind or
    option, or a common option no bot takes.
    """
    if isinstance(specs, str):
        raise TournamentError("give the bots as a list of specs, not one string")
    if not specs:
        raise TournamentError("no bots: give at least one bot spec (e.g. heuristic,random)")
    common = dict(common or {})
    out: list[Entrant] = []
    used: dict[str, int] = {}
    takers: set[str] = set()
    for spec in specs:
        try:
            kind, options = parse_bot_spec(spec)
            accepted = bot_options(kind)
        except TorampuError as e:
            raise TournamentError(str(e)) from None
        for key, value in common.items():
            if key in accepted:
                takers.add(key)
                options.setdefault(key, value)
        base = spec.strip()
        used[base] = used.get(base, 0) + 1
        name = base if used[base] == 1 else f"{base}#{used[base]}"
        out.append(Entrant(name, kind, options))
    for key in common:
        if key not in takers:
            raise TournamentError(
                f"option {key!r} applies to bots that take it (such as ismcts); "
                f"none of {', '.join(e.name for e in out)} does"
            )
    return out


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed derived from ``seed`` and ``parts`` (stable across runs and processes)."""
    text = json.dumps([seed, *parts], separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


# --------------------------------------------------------------------------------- playing
@dataclass(frozen=True)
class Plan:
    """A checked tournament: everything a worker needs to play a deal (picklable)."""

    game: str
    rules: Mapping[str, Any]
    players: int
    match_games: int | None
    seed: int
    bots: tuple[Entrant, ...]


def _play_unit(setup: Plan, deal_seed: int, bots: Sequence[Bot]) -> Game | Match:
    """The unit of play of one deal seed, played to its end by ``bots``."""
    if setup.game in ("hell", "daifugo"):
        m = torampu.new_match(setup.game, setup.rules, games=setup.match_games, seed=deal_seed)
        return play_game(m, bots)
    return play_game(torampu.new_game(setup.game, setup.rules, seed=deal_seed), bots)


def play_daifugo(unit: Game | Match, bots: Sequence[Bot]) -> dict[str, Any]:
    """:func:`play_game` for Daifugo, counting what stalls a game: each seat's passes as the
    leader of a round while it had a legal play (``lead_pass``), and the games ended by the
    ``stalemate_passes`` rule (places drawn at random)."""
    n = len(bots)
    lead = [0] * n
    stalemates = 0
    while not unit.is_over:
        g = unit.game if isinstance(unit, Match) else unit
        seat = unit.to_play
        assert seat is not None
        legal = unit.legal_actions()
        view = unit.view(seat)
        action = bots[seat].choose(view, legal)
        if action not in legal:
            raise TournamentError(f"bot {bots[seat].name!r} at seat {seat} chose {action!r}")
        if action == "pass" and view.get("phase") == "play" and view.get("table") is None:
            lead[seat] += len(legal) > 1
        unit.play(action)
        if isinstance(g, Daifugo) and g.is_over:
            stalemates += any(w["code"] == "stalemate" for w in g.log[-1]["why"])
    return {"leader_passes": lead, "stalemates": stalemates}


def play_deal(setup: Plan, deal: int) -> list[dict[str, Any]]:
    """Play deal ``deal`` once per rotation; one JSON-safe row per rotation."""
    deal_seed = derive_seed(setup.seed, "deal", deal)
    k, n = len(setup.bots), setup.players
    bot_seeds = [derive_seed(setup.seed, "bot", deal, s) for s in range(n)]
    rows: list[dict[str, Any]] = []
    for r in range(k):
        line_up = [setup.bots[(i + r) % k] for i in range(n)]
        bots = [
            make_bot(e.kind, bot_seeds[s], setup.game, **e.options) for s, e in enumerate(line_up)
        ]
        stalls: dict[str, Any] = {}
        if setup.game == "daifugo":
            unit: Game | Match = torampu.new_match(
                setup.game, setup.rules, games=setup.match_games, seed=deal_seed
            )
            stalls = play_daifugo(unit, bots)
        else:
            unit = _play_unit(setup, deal_seed, bots)
        row: dict[str, Any] = {
            "deal": deal,
            "deal_seed": deal_seed,
            "rotation": r,
            "seats": [e.name for e in line_up],
            "bot_seeds": bot_seeds,
        }
        row.update(_outcome(setup.game, unit))
        row.update(stalls)
        row["record"] = unit.to_record()
        rows.append(row)
    return rows


def _outcome(game: str, unit: Game | Match) -> dict[str, Any]:
    """Scores and the facts behind wins and roles, JSON-safe."""
    res = unit.result()
    totals: list[int] = list(res["scores"])
    games = unit.games_total if isinstance(unit, Match) else 1
    per = games if game == "daifugo" else 1  # Daifugo: points per game; Hell: the series total
    out: dict[str, Any] = {
        "scores": [t / per for t in totals],
        "totals": totals,
        "games": games,
        "winners": list(res["winners"]),
    }
    if isinstance(unit, Match) and game == "daifugo":
        firsts = [0] * len(totals)
        for rec in unit.records:
            firsts[rec["result"]["ranking"][0]] += 1
        out["firsts"] = firsts
    if game == "napoleon":
        nap, adj = res["napoleon"], res["adjutant"]
        out["roles"] = [
            "napoleon" if s == nap else "adjutant" if s == adj else "ally"
            for s in range(len(totals))
        ]
        bid = [False] * len(totals)
        for step in unit.to_record()["actions"]:
            if step["action"].startswith("bid "):
                bid[step["seat"]] = True
        out["bid"] = bid
        out["made"] = bool(res["army_won"])
    return out


def _unit_score(game: str, row: Mapping[str, Any], seat: int) -> Fraction:
    """The score of a unit of play, exactly (``row["scores"]`` as a fraction)."""
    total = row["totals"][seat]
    return Fraction(total, row["games"]) if game == "daifugo" else Fraction(total)


def _win_credit(game: str, row: Mapping[str, Any], seat: int) -> Fraction:
    winners = row["winners"]
    if game == "hell":
        return Fraction(1, len(winners)) if seat in winners else Fraction(0)
    if game == "daifugo":
        return Fraction(row["firsts"][seat], row["games"])
    return Fraction(int(seat in winners))


# --------------------------------------------------------------------------------- statistics
_T95 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip
_Z975 = 1.959963984540054


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (a table up to
    30, then the Cornish-Fisher expansion, accurate to 1e-5)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be ≥ 1, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z, v = _Z975, float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
    )


def deal_intervals(
    scores: Sequence[Sequence[float]], per_deal: int
) -> list[tuple[float, float, float] | None]:
    """Per seat, its mean score a game and a 95% interval over duplicate deals: ``scores``
    holds each game's scores by seat, ``per_deal`` consecutive games make one deal (each hand
    once at every seat). Student's t over the seat's mean on each whole deal: the deals are
    independent and share the cards' luck, games within one are not. ``(mean, low, high)``
    over the whole deals, or ``None`` for every seat with fewer than two.

    >>> deal_intervals([[5, 1], [1, 5], [4, 2], [2, 4]], 2)
    [(3.0, 3.0, 3.0), (3.0, 3.0, 3.0)]
    >>> [round(x, 3) for x in deal_intervals([[5, 1], [4, 2], [2, 4], [1, 5]], 2)[0]]
    [3.0, -16.059, 22.059]
    >>> deal_intervals([[5, 1], [1, 5]], 2)
    [None, None]
    """
    if per_deal < 1:
        raise ValueError(f"a deal is at least 1 game, not {per_deal}")
    deals = len(scores) // per_deal
    seats = len(scores[0]) if scores else 0
    if deals < 2:
        return [None] * seats
    out: list[tuple[float, float, float] | None] = []
    for q in range(seats):
        means = [
            sum(float(g[q]) for g in scores[d * per_deal : (d + 1) * per_deal]) / per_deal
            for d in range(deals)
        ]
        m = sum(float(g[q]) for g in scores[: deals * per_deal]) / (deals * per_deal)
        half = t95(deals - 1) * math.sqrt(sum((x - m) ** 2 for x in means) / (deals - 1) / deals)
        out.append((m, m - half, m + half))
    return out


@dataclass
class _Ratio:
    """Exact running sums of per-deal (sum y_d, count g_d): ratio, cluster SE, t interval."""

    deals: int = 0
    y: Fraction = Fraction(0)
    g: Fraction = Fraction(0)
    yy: Fraction = Fraction(0)
    gg: Fraction = Fraction(0)
    yg: Fraction = Fraction(0)

    def add(self, y: Fraction, g: Fraction | int) -> None:
        self.deals += 1
        self.y += y
        self.g += g
        self.yy += y * y
        self.gg += g * g
        self.yg += y * g

    @property
    def mean(self) -> float | None:
        return None if self.g == 0 else float(self.y / self.g)

    def ci95(self) -> list[float] | None:
        d = self.deals
        if d < 2 or self.g == 0:
            return None
        r = self.y / self.g
        resid = self.yy - 2 * r * self.yg + r * r * self.gg
        gbar = self.g / d
        se = math.sqrt(float(resid / (d * (d - 1) * gbar * gbar)))
        m = float(r)
        half = t95(d - 1) * se
        return [m - half, m + half]

    def figures(self, key: str = "mean") -> dict[str, Any]:
        return {key: self.mean, "ci95": self.ci95()}


@dataclass
class _Tally:
    """Everything the summary needs, fed one finished deal at a time."""

    game: str
    names: list[str]
    deals: int = 0
    score: dict[str, _Ratio] = field(default_factory=dict)
    win: dict[str, _Ratio] = field(default_factory=dict)
    pairs: dict[tuple[str, str], _Ratio] = field(default_factory=dict)
    roles: dict[tuple[str, str], tuple[_Ratio, _Ratio]] = field(default_factory=dict)
    bid: dict[str, _Ratio] = field(default_factory=dict)
    lead: dict[str, _Ratio] = field(default_factory=dict)
    made: dict[str, _Ratio] = field(default_factory=dict)
    leader_passes: dict[str, int] = field(default_factory=dict)
    stalemates: int = 0
    """Daifugo: games ended by the stalemate rule, and each bot's passes as a leader."""

    def __post_init__(self) -> None:
        self.leader_passes = dict.fromkeys(self.names, 0)
        for b in self.names:
            self.score[b], self.win[b] = _Ratio(), _Ratio()
            self.bid[b], self.lead[b], self.made[b] = _Ratio(), _Ratio(), _Ratio()
            for role in ROLES:
                self.roles[b, role] = (_Ratio(), _Ratio())
        for i, a in enumerate(self.names):
            for b in self.names[i + 1 :]:
                self.pairs[a, b] = _Ratio()

    def add(self, rows: Sequence[Mapping[str, Any]]) -> None:
        self.deals += 1
        zero = Fraction(0)
        games = dict.fromkeys(self.names, 0)
        score = dict.fromkeys(self.names, zero)
        win = dict.fromkeys(self.names, zero)
        role_n = {key: 0 for key in self.roles}
        role_y = dict.fromkeys(self.roles, zero)
        role_w = dict.fromkeys(self.roles, zero)
        bid, lead, made = (dict.fromkeys(self.names, 0) for _ in range(3))
        for row in rows:
            self.stalemates += row.get("stalemates", 0)
            for seat, name in enumerate(row["seats"]):
                if "leader_passes" in row:
                    self.leader_passes[name] += row["leader_passes"][seat]
                s = _unit_score(self.game, row, seat)
                w = _win_credit(self.game, row, seat)
                games[name] += 1
                score[name] += s
                win[name] += w
                if "roles" in row:
                    key = (name, row["roles"][seat])
                    role_n[key] += 1
                    role_y[key] += s
                    role_w[key] += w
                    bid[name] += row["bid"][seat]
                    if key[1] == "napoleon":
                        lead[name] += 1
                        made[name] += row["made"]
        for b in self.names:
            self.score[b].add(score[b], games[b])
            self.win[b].add(win[b], games[b])
            self.bid[b].add(Fraction(bid[b]), games[b])
            self.lead[b].add(Fraction(lead[b]), games[b])
            self.made[b].add(Fraction(made[b]), lead[b])
        for key, (sy, sw) in self.roles.items():
            sy.add(role_y[key], role_n[key])
            sw.add(role_w[key], role_n[key])
        for (a, b), pair in self.pairs.items():
            pair.add(score[a] / games[a] - score[b] / games[b], 1)

    def bots(self, entries: Sequence[Entrant]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for e in entries:
            b = e.name
            sc, w = self.score[b], self.win[b]
            fig: dict[str, Any] = {
                "kind": e.kind,
                "options": dict(e.options),
                "games": int(sc.g),
                "mean": sc.mean,
                "ci95": sc.ci95(),
                "win_rate": w.mean,
                "win_ci95": w.ci95(),
            }
            if self.game == "daifugo":
                fig["leader_passes"] = self.leader_passes[b]
            if self.game == "napoleon":
                fig["roles"] = {
                    role: {
                        "games": int(sy.g),
                        "mean": sy.mean,
                        "ci95": sy.ci95(),
                        "win_rate": sw.mean,
                    }
                    for role in ROLES
                    for sy, sw in [self.roles[b, role]]
                }
                fig["bid_rate"] = self.bid[b].mean
                fig["napoleon_rate"] = self.lead[b].mean
                fig["contract_success"] = {"games": int(self.made[b].g)} | self.made[b].figures(
                    "rate"
                )
            out[b] = fig
        return out

    def pair_figures(self) -> list[dict[str, Any]]:
        out = []
        for (a, b), p in self.pairs.items():
            ci = p.ci95()
            better = None
            if ci is not None and ci[0] > 0:
                better = a
            elif ci is not None and ci[1] < 0:
                better = b
            out.append(
                {"a": a, "b": b, "deals": p.deals, "mean": p.mean, "ci95": ci, "better": better}
            )
        return out


# --------------------------------------------------------------------------------- running
def plan_tournament(
    game: str,
    bots: Sequence[str | Entrant],
    deals: int,
    *,
    rules: str | Mapping[str, Any] | None = None,
    players: int | None = None,
    seed: int = 0,
    match_games: int | None = None,
    bot_opts: Mapping[str, Any] | None = None,
) -> Plan:
    """Check a tournament before a card is dealt (the arguments of :func:`run_tournament`);
    :class:`TournamentError` names the problem."""
    if game not in torampu.games():
        raise TournamentError(f"unknown game {game!r} (games: {', '.join(torampu.games())})")
    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise TournamentError(f"the number of deals must be a whole number ≥ 1, not {deals!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TournamentError(f"the seed must be an int, not {seed!r}")
    if match_games is not None and game not in ("hell", "daifugo"):
        raise TournamentError(
            f"match_games applies to hell (deals of the series) and daifugo, not {game}"
        )
    if game == "daifugo" and match_games is None:
        match_games = DAIFUGO_MATCH_GAMES
    if isinstance(bots, str):
        raise TournamentError("give the bots as a list of specs, not one string")
    specs = [b for b in bots if isinstance(b, str)]
    listed = [b for b in bots if isinstance(b, Entrant)]
    if specs and listed:
        raise TournamentError("give the bots either all as specs or all as Entrant")
    entries = listed if listed else entrants(specs, bot_opts)
    if listed and bot_opts:
        raise TournamentError("bot options go with specs, not with Entrant bots")
    if not entries:
        raise TournamentError("no bots: give at least one bot spec (e.g. heuristic,random)")
    if len({e.name for e in entries}) != len(entries):
        raise TournamentError("two bots have the same name")
    try:
        probe = (
            torampu.new_match(game, rules, players=players, games=match_games, seed=0)
            if game in ("hell", "daifugo")
            else torampu.new_game(game, rules, players=players, seed=0)
        )
    except TorampuError as e:
        raise TournamentError(str(e)) from None
    except ValueError as e:  # a match size out of range
        raise TournamentError(f"match_games: {e}") from None
    record = probe.to_record()
    resolved = dict(record["rules"])
    for entry in entries:
        try:
            make_bot(entry.kind, 0, game, **entry.options)
        except TorampuError as err:
            raise TournamentError(f"bot {entry.name!r}: {err}") from None
    return Plan(game, resolved, record["players"], match_games, seed, tuple(entries))


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _ignore_sigint() -> None:  # pragma: no cover (runs in the workers)
    # Ctrl-C reaches the whole process group: the parent handles it, the workers carry on until
    # they are cancelled or terminated
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_process(setup: Plan, deals: int) -> Iterator[list[dict[str, Any]]]:
    for d in range(deals):
        yield play_deal(setup, d)


def _in_pool(
    setup: Plan,
    deals: int,
    jobs: int,
    play: Callable[[Plan, int], list[dict[str, Any]]] = play_deal,
) -> Iterator[list[dict[str, Any]]]:
    ctx = multiprocessing.get_context("spawn")  # no fork of a process with threads (Rich)
    ex = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_ignore_sigint)
    pending: set[Future[list[dict[str, Any]]]] = set()
    deal_of: dict[Future[list[dict[str, Any]]], int] = {}

    def submit(d: int) -> None:
        fut = ex.submit(play, setup, d)
        deal_of[fut] = d
        pending.add(fut)

    try:
        todo = iter(range(deals))
        for d in todo:  # keep at most 2 deals per worker queued: cancelling is then immediate
            submit(d)
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            broken: list[int] = []
            for fut in sorted(done, key=lambda f: deal_of[f]):
                try:
                    rows = fut.result()
                except BrokenProcessPool:
                    broken.append(deal_of[fut])
                    continue
                if not broken:
                    for d in todo:
                        # a worker may die between this result and the next submission: the
                        # pool refuses it, and its unfinished futures report the death below
                        with suppress(BrokenProcessPool):
                            submit(d)
                        break
                yield rows
            if broken:
                lost = sorted([*broken, *(deal_of[f] for f in pending)])
                raise WorkerDied(
                    "a worker process died (killed from outside, or out of memory?) with "
                    f"deal{'s' if len(lost) > 1 else ''} {', '.join(map(str, lost))} "
                    "unfinished; the finished deals are saved"
                )
    finally:
        if pending:  # interrupted, or a deal failed: stop the rest now
            for fut in pending:
                fut.cancel()
            procs = list(getattr(ex, "_processes", {}).values())
            ex.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                p.terminate()
            for p in procs:
                p.join(5)
        else:
            ex.shutdown(wait=True)


def run_tournament(
    game: str,
    bots: Sequence[str | Entrant],
    deals: int,
    *,
    rules: str | Mapping[str, Any] | None = None,
    players: int | None = None,
    seed: int = 0,
    match_games: int | None = None,
    bot_opts: Mapping[str, Any] | None = None,
    jobs: int | None = None,
    records: str | os.PathLike[str] | None = None,
    summary: str | os.PathLike[str] | None = None,
    on_deal: OnDeal | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals of ``game`` between ``bots`` and return the summary.

    ``bots`` are specs (``"heuristic"``, ``"ismcts:iterations=500"``) or :class:`Entrant`;
    ``bot_opts`` go to every bot whose kind takes them (see :func:`entrants`). ``match_games``:
    Hell's deals of the series (default: the whole series), Daifugo's games per match (default
    5). ``jobs``: worker processes (default ``os.cpu_count()``; 1 plays in this process).
    ``records`` (JSON lines, one per rotation) and ``summary`` (JSON) are rewritten from scratch
    and kept up to date after every finished deal. ``on_deal(done, total, rows)`` is called then
    too; if it raises ``KeyboardInterrupt`` the tournament stops as on Ctrl-C.

    Raises :class:`TournamentError` for bad input, before any deal is played; an error in a deal
    (a bot's illegal answer) propagates after the finished deals are saved.
    """
    setup = plan_tournament(
        game,
        bots,
        deals,
        rules=rules,
        players=players,
        seed=seed,
        match_games=match_games,
        bot_opts=bot_opts,
    )
    if jobs is None:
        jobs = os.cpu_count() or 1
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise TournamentError(f"jobs must be a whole number ≥ 1, not {jobs!r}")
    jobs = min(jobs, deals)
    names = [e.name for e in setup.bots]
    tally = _Tally(game, names)
    summary_path = None if summary is None else Path(summary)
    interrupted = False

    def snapshot() -> dict[str, Any]:
        return _summary(setup, tally, deals, interrupted)

    records_path = None if records is None else Path(records)
    try:
        if records_path is not None:
            records_path.write_text("", encoding="utf-8")
        if summary_path is not None:
            _write_json(summary_path, snapshot())
        stream = _in_process(setup, deals) if jobs == 1 else _in_pool(setup, deals, jobs)
        try:
            for rows in stream:
                with _sigint_deferred():  # a deal is saved whole, or not at all
                    if records_path is not None:
                        with records_path.open("a", encoding="utf-8") as f:
                            f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
                    tally.add(rows)
                    if summary_path is not None:
                        _write_json(summary_path, snapshot())
                if on_deal is not None:
                    on_deal(tally.deals, deals, rows)
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
    except KeyboardInterrupt:
        interrupted = True
    if summary_path is not None:
        _write_json(summary_path, snapshot())
    return snapshot()


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that arrives inside the block until its end (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)
    if caught:
        raise KeyboardInterrupt


def unit_games(setup: Plan) -> int:
    """Games (Hell: deals) in one unit of play."""
    if setup.game == "hell":
        return setup.match_games or len(hell_series(setup.players))
    return setup.match_games or 1


def unit_name(setup: Plan) -> str:
    """What one deal seed starts: ``"game"``, ``"series of 10 deals"``, ``"match of 5 games"``."""
    if setup.game == "hell":
        return f"series of {unit_games(setup)} deals"
    if setup.game == "daifugo":
        return f"match of {unit_games(setup)} games"
    return "game"


def _summary(setup: Plan, tally: _Tally, planned: int, interrupted: bool) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": setup.game,
        "rules": dict(setup.rules),
        "players": setup.players,
        "unit": unit_name(setup),
        "unit_games": unit_games(setup),
        "match_games": setup.match_games,
        "seed": setup.seed,
        "deals": tally.deals,
        "deals_planned": planned,
        "rotations": len(setup.bots),
        "complete": tally.deals == planned,
        "interrupted": interrupted,
        "interval": "95% Student t over deals (cluster ratio estimator), df = deals - 1",
        "order": [e.name for e in setup.bots],
        "bots": tally.bots(setup.bots),
        "pairs": tally.pair_figures(),
        **({"stalemates": tally.stalemates} if setup.game == "daifugo" else {}),
    }
