"""``torampu tournament``: bots against bots on duplicate deals, with 95% confidence intervals.

The command reads its options, runs :func:`torampu.tournament.run_tournament` under a Rich
progress bar (deals done of the total, time left) and prints a table per bot (games, mean score
±CI95, win rate; for Napoleon the roles, bid rate and contract success) and the difference of
every pair of bots with its interval and a verdict. The definitions of the figures are in the
docstring of :mod:`torampu.tournament`.

Bad input (an unknown game, bot kind or option, a bad ``--rules``) is a one-line error and exit
code 2; a bot or engine failure during the games exits with 1 after saving the finished deals;
Ctrl-C stops, prints the figures of the finished deals and exits with 130.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from torampu.cli.show import console, error
from torampu.errors import TorampuError
from torampu.tournament import ROLES, TournamentError, plan_tournament, run_tournament, unit_games

__all__ = ["TEXT", "pair_verdict", "show_summary", "split_bots", "tournament", "unit_text"]


class Lang(StrEnum):
    en = "en"
    ja = "ja"


TEXT: dict[str, dict[str, str]] = {
    "en": {
        "header": (
            "{game} tournament: {bots} — {deals} deals × {rot} rotations, unit: {unit}, "
            "seed {seed}, {jobs} jobs"
        ),
        "progress": "deals",
        "bot": "bot",
        "games": "games",
        "mean": "mean ±CI95",
        "win": "win rate",
        "role": "role",
        "bid_rate": "bid rate",
        "nap_rate": "Napoleon",
        "contract": "contract made",
        "napoleon": "Napoleon",
        "adjutant": "adjutant",
        "ally": "ally",
        "title": "Per bot (mean score per {unit}; intervals over deals)",
        "roles_title": "Napoleon: by role",
        "pairs_title": "Pairs: mean difference per {unit}, 95% CI over deals",
        "beats": "{a} beats {b}: {diff}",
        "even": "{a} vs {b}: {diff} — no clear difference",
        "no_ci": "{a} vs {b}: {diff} — too few deals for an interval",
        "interrupted": "Interrupted: these are the figures of {done} finished deals of {total}.",
        "saved": "saved {what} to {path}",
        "summary": "summary",
        "records": "records",
        "elapsed": "{done} deals in {secs:.1f} s",
        "unit_game": "game",
        "unit_hell": "series of {k} deals",
        "unit_daifugo": "match of {k} games (scored per game)",
        "lead_pass": "leader passes",
        "stalemates": "games ended by the {k}-pass stalemate (places drawn at random): {n}",
    },
    "ja": {
        "header": (
            "{game} トーナメント: {bots} — {deals} 配 × {rot} ローテーション、単位: {unit}、"
            "シード {seed}、{jobs} 並列"
        ),
        "progress": "配",
        "bot": "ボット",
        "games": "ゲーム数",
        "mean": "平均 ±95%CI",
        "win": "勝率",
        "role": "役",
        "bid_rate": "ビッド率",
        "nap_rate": "ナポレオン率",
        "contract": "宣言達成率",
        "napoleon": "ナポレオン",
        "adjutant": "副官",
        "ally": "連合軍",
        "title": "ボット別 ({unit} あたりの平均得点、区間は配ごと)",
        "roles_title": "ナポレオン: 役別",
        "pairs_title": "対戦: {unit} あたりの平均差、配ごとの 95% 信頼区間",
        "beats": "{a} が {b} に勝る: {diff}",
        "even": "{a} 対 {b}: {diff} — 差ははっきりしない",
        "no_ci": "{a} 対 {b}: {diff} — 区間を出すには配が足りない",
        "interrupted": "中断: {total} 配のうち終わった {done} 配の成績です。",
        "saved": "{what} を {path} に保存",
        "summary": "集計",
        "records": "記録",
        "elapsed": "{done} 配、{secs:.1f} 秒",
        "unit_game": "ゲーム",
        "unit_hell": "{k} 配のシリーズ",
        "unit_daifugo": "{k} ゲームのマッチ (得点はゲームあたり)",
        "lead_pass": "親のパス",
        "stalemates": "{k}回連続パスで終わった試合 (残りの順位は抽選): {n}",
    },
}


def split_bots(text: str) -> list[str]:
    """``--bots``: comma-separated bot specs (a spec's own options are joined with ``:``)."""
    parts = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in parts):
        raise TournamentError(
            f"--bots {text!r}: give comma-separated bot specs, e.g. heuristic,random "
            "or ismcts:think=0.1,ismcts:think=0.5"
        )
    return parts


def unit_text(game: str, unit_games: int, lang: str) -> str:
    """The unit of play in words: a game, a Hell series, a Daifugo match."""
    key = f"unit_{game}" if game in ("hell", "daifugo") else "unit_game"
    return TEXT[lang][key].format(k=unit_games)


def _mean_ci(mean: float | None, ci: Sequence[float] | None, signed: bool = False) -> str:
    if mean is None:
        return "-"
    text = f"{mean:+.2f}" if signed else f"{mean:.2f}"
    return text if ci is None else f"{text} [{ci[0]:.2f}, {ci[1]:.2f}]"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def pair_verdict(pair: Mapping[str, Any], lang: str = "en") -> str:
    """One line for a pair: ``"ismcts beats heuristic: +1.23 [0.80, 1.66]"``."""
    words = TEXT[lang]
    a, b = pair["a"], pair["b"]
    mean, ci = pair["mean"], pair["ci95"]
    if pair["better"] == b:  # say it the right way round
        a, b = b, a
        mean, ci = -mean, [-ci[1], -ci[0]]
    diff = _mean_ci(mean, ci, signed=True)
    key = "no_ci" if ci is None else "beats" if pair["better"] else "even"
    return words[key].format(a=a, b=b, diff=diff)


def bots_table(summary: Mapping[str, Any], lang: str) -> Table:
    """Games, mean ±CI95 and win rate per bot (Napoleon: bid rate, Napoleon rate, contracts)."""
    w = TEXT[lang]
    nap = summary["game"] == "napoleon"
    unit = unit_text(summary["game"], summary["unit_games"], lang)
    table = Table(title=w["title"].format(unit=unit), title_justify="left")
    table.add_column(w["bot"], overflow="fold")
    table.add_column(w["games"], justify="right")
    table.add_column(w["mean"], justify="right", no_wrap=True)
    table.add_column(w["win"], justify="right")
    dai = summary["game"] == "daifugo"
    if nap:
        for key in ("bid_rate", "nap_rate", "contract"):
            table.add_column(w[key], justify="right")
    if dai:
        table.add_column(w["lead_pass"], justify="right")
    for name in summary["order"]:
        b = summary["bots"][name]
        row = [escape(name), str(b["games"]), _mean_ci(b["mean"], b["ci95"]), _pct(b["win_rate"])]
        if dai:
            row.append(str(b.get("leader_passes", 0)))
        if nap:
            cs = b["contract_success"]
            row += [
                _pct(b["bid_rate"]),
                _pct(b["napoleon_rate"]),
                f"{_pct(cs['rate'])} ({cs['games']})",
            ]
        table.add_row(*row)
    return table


def roles_table(summary: Mapping[str, Any], lang: str) -> Table:
    """Napoleon: games, mean ±CI95 and win rate of each bot in each role."""
    w = TEXT[lang]
    table = Table(title=w["roles_title"], title_justify="left")
    table.add_column(w["bot"], overflow="fold")
    table.add_column(w["role"])
    table.add_column(w["games"], justify="right")
    table.add_column(w["mean"], justify="right", no_wrap=True)
    table.add_column(w["win"], justify="right")
    for name in summary["order"]:
        for role in ROLES:
            r = summary["bots"][name]["roles"][role]
            table.add_row(
                escape(name),
                w[role],
                str(r["games"]),
                _mean_ci(r["mean"], r["ci95"]),
                _pct(r["win_rate"]),
            )
    return table


def tournament(
    game: Annotated[str, typer.Argument(metavar="GAME", help="napoleon, nap, hell or daifugo")],
    bots: Annotated[
        str,
        typer.Option(
            help="comma-separated bot specs: a kind (random, heuristic, ismcts; Napoleon under "
            "--rules napoleon-web also onnx-napoleon:model=PATH; Daifugo also policy, the learned "
            "policy alone) with options after ':' — e.g. "
            "ismcts,heuristic,random or ismcts:think=0.1,ismcts:think=0.5"
        ),
    ] = "heuristic,random",
    games: Annotated[
        int,
        typer.Option(
            min=1,
            help="number of deals; each deal is played once per rotation of the bots through "
            "the seats (k rotations for k bots), so every bot holds every hand",
        ),
    ] = 20,
    rules: Annotated[
        str | None,
        typer.Option(help="a preset (see `torampu rules GAME`) or JSON: '{\"preset\": …, …}'"),
    ] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    jobs: Annotated[
        int | None, typer.Option(min=1, help="worker processes (default: the number of CPUs)")
    ] = None,
    json_file: Annotated[
        Path | None,
        typer.Option("--json", help="write the summary (JSON) here, rewritten after every deal"),
    ] = None,
    records: Annotated[
        Path | None,
        typer.Option(help="write every game (JSON lines: seats, seeds, scores, record) here"),
    ] = None,
    think: Annotated[
        float | None, typer.Option(help="seconds per move for search bots (ismcts)")
    ] = None,
    iterations: Annotated[
        int | None, typer.Option(help="iterations per move for search bots (ismcts)")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="tournament seed (default: random)")] = None,
    match_games: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Daifugo: games per match (default 5); Hell: deals of the series "
            "(default the whole series)",
        ),
    ] = None,
    lang: Annotated[Lang, typer.Option(help="language of the tables")] = Lang.en,
) -> None:
    """Compare bots on duplicate deals: mean scores with 95% confidence intervals."""
    from torampu.cli.commands import _parse_rules  # imported late: commands imports this module

    w = TEXT[lang.value]
    if seed is None:
        seed = secrets.randbelow(10**9)
    opts: dict[str, Any] = {}
    if think is not None:
        opts["think"] = think
    if iterations is not None:
        opts["iterations"] = iterations
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    )
    task = progress.add_task(w["progress"], total=games)

    def on_deal(done: int, total: int, rows: list[dict[str, Any]]) -> None:
        progress.update(task, completed=done)

    start = time.perf_counter()
    try:
        specs = split_bots(bots)
        parsed_rules = _parse_rules(rules)
        # the checks run_tournament makes, before the progress bar starts
        plan = plan_tournament(
            game, specs, games, rules=parsed_rules, players=players, seed=seed,
            match_games=match_games, bot_opts=opts,
        )  # fmt: skip
    except TorampuError as e:
        error(escape(str(e)))
        raise typer.Exit(2) from None
    console.print(
        w["header"].format(
            game=game,
            bots=escape(", ".join(e.name for e in plan.bots)),
            deals=games,
            rot=len(plan.bots),
            unit=unit_text(game, unit_games(plan), lang.value),
            seed=seed,
            jobs=min(jobs or os.cpu_count() or 1, games),
        )
    )
    try:
        with progress:
            summary = run_tournament(
                game, specs, games, rules=parsed_rules, players=players, seed=seed,
                match_games=match_games, bot_opts=opts, jobs=jobs, records=records,
                summary=json_file, on_deal=on_deal,
            )  # fmt: skip
    except TournamentError as e:
        error(escape(str(e)))
        raise typer.Exit(2) from None
    except TorampuError as e:  # a bot or the engine failed in a deal: finished deals are saved
        error(escape(str(e)))
        raise typer.Exit(1) from None
    except OSError as e:  # --json or --records cannot be written
        error(escape(f"cannot write {e.filename}: {e.strerror}"))
        raise typer.Exit(2) from None
    show_summary(summary, lang.value)
    console.print(
        f"[dim]{w['elapsed'].format(done=summary['deals'], secs=time.perf_counter() - start)}[/]"
    )
    for what, path in (("summary", json_file), ("records", records)):
        if path is not None:
            console.print(f"[dim]{escape(w['saved'].format(what=w[what], path=path))}[/]")
    if summary["interrupted"]:
        console.print(w["interrupted"].format(done=summary["deals"], total=games))
        raise typer.Exit(130)


def show_summary(summary: Mapping[str, Any], lang: str = "en") -> None:
    """Print the tables of a summary and the pairs' verdicts."""
    w = TEXT[lang]
    console.print(bots_table(summary, lang))
    if summary["game"] == "daifugo" and "stalemates" in summary:
        k = summary["rules"].get("stalemate_passes", 0)
        if k:
            console.print(w["stalemates"].format(k=k, n=summary["stalemates"]))
    if summary["game"] == "napoleon":
        console.print(roles_table(summary, lang))
    if summary["pairs"]:
        unit = unit_text(summary["game"], summary["unit_games"], lang)
        console.print(w["pairs_title"].format(unit=unit))
        for pair in summary["pairs"]:
            console.print("  " + escape(pair_verdict(pair, lang)))
