"""``torampu train daifugo``: train the learned Daifugo policy (:mod:`torampu.learn.train`).

Plays ``--games`` matches with the ``--teacher`` bot at every seat, records its decisions, fits
the linear softmax policy and writes its parameters (JSON) to ``--out``, with the command and
the figures of the fit inside. The same command and seed give the same file. Use the file with
the ``policy`` bot (``policy:params=FILE``), or replace the package's
``torampu/learn/data/daifugo_policy.json`` with it.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from torampu.bots.base import BotError
from torampu.errors import TorampuError

train_app = typer.Typer(
    help="Train learned policies from games the project's bots play.",
    no_args_is_help=True,
    add_completion=False,
)


@train_app.command()
def daifugo(
    out: Annotated[Path, typer.Option(help="write the policy's parameters (JSON) here")],
    games: Annotated[int, typer.Option(help="matches the teacher plays (records)")] = 200,
    teacher: Annotated[
        str, typer.Option(help="the bot whose moves are learned: heuristic, ismcts:iterations=100…")
    ] = "heuristic",
    rules: Annotated[str, typer.Option(help="the Daifugo preset of the games")] = "standard",
    seed: Annotated[int, typer.Option(help="the seed of the deals and the teacher")] = 0,
    match_games: Annotated[int, typer.Option(help="games per match")] = 5,
    steps: Annotated[int, typer.Option(help="Adam steps of the fit (full batch)")] = 400,
    lr: Annotated[float, typer.Option(help="Adam's step size")] = 0.05,
    l2: Annotated[float, typer.Option(help="L2 penalty on the weights")] = 1e-4,
    table: Annotated[
        bool, typer.Option(help="learn a weight for each of the moves' binary keys too")
    ] = False,
    soft: Annotated[
        bool,
        typer.Option(
            help="learn the share of the teacher's search visits each move had, not only its pick "
            "(a flatter policy: play it at a lower temperature)"
        ),
    ] = False,
    workers: Annotated[
        int, typer.Option(help="processes playing the matches (the records do not change)")
    ] = 1,
    oracle: Annotated[
        bool,
        typer.Option(
            help="a search teacher searches the true deal (every hand known) instead of deals "
            "drawn from its view; the policy still sees only the mover's side"
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option(help="print only the summary")] = False,
) -> None:
    """Learn a Daifugo move policy from a teacher bot's self-play (a linear softmax)."""
    from torampu.learn.train import train_daifugo

    _at_least_one(games=games, match_games=match_games, steps=steps, workers=workers)
    command = _command_line("daifugo")
    progress = _progress(games, quiet)
    with _refused():
        policy, report = train_daifugo(
            games,
            teacher=teacher,
            rules=rules,
            seed=seed,
            match_games=match_games,
            steps=steps,
            lr=lr,
            l2=l2,
            command=command,
            progress=progress,
            table=table,
            soft=soft,
            workers=workers,
            oracle=oracle,
        )
    policy.save(out)
    typer.echo(
        f"{report.decisions} decisions ({report.held_out} held out): train NLL "
        f"{report.train_nll:.4f}, held-out NLL {report.held_nll:.4f}, the teacher's move "
        f"{100 * report.held_agreement:.1f}% of held-out decisions; wrote {out}"
    )


@train_app.command("daifugo-selfplay")
def daifugo_selfplay(
    out: Annotated[Path, typer.Option(help="write the improved policy (JSON) here")],
    start: Annotated[
        Path | None, typer.Option(help="the policy to start from (default: the shipped one)")
    ] = None,
    games: Annotated[int, typer.Option(help="self-play games")] = 40_000,
    rules: Annotated[str, typer.Option(help="the Daifugo preset of the games")] = "uecda",
    seed: Annotated[int, typer.Option(help="the seed of the deals and the draws")] = 0,
    lr: Annotated[float, typer.Option(help="Adam's step size")] = 0.01,
    batch: Annotated[int, typer.Option(help="games per Adam step")] = 64,
    eval_games: Annotated[
        int, typer.Option(help="games of the new policy against the start, to report")
    ] = 1000,
    table: Annotated[
        bool,
        typer.Option(
            help="learn a table of weights for the moves' binary keys too (the start's, or "
            "a new one at zero)"
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option(help="print only the summary")] = False,
) -> None:
    """Improve a Daifugo policy by self-play (policy gradient; see torampu.learn.selfplay)."""
    from torampu.learn.daifugo_policy import Policy, PolicyError, default_policy
    from torampu.learn.selfplay import reinforce

    _at_least_one(games=games, batch=batch)
    if eval_games < 0:
        typer.echo("error: --eval-games must be at least 0", err=True)
        raise typer.Exit(2)
    command = _command_line("daifugo-selfplay")

    def progress(done: int) -> None:
        if not quiet and (done % 5000 < batch or done == games):
            typer.echo(f"  {done}/{games} games", err=True)

    with _refused(f"--start {start}: ", (OSError, PolicyError, ValueError)):
        policy = default_policy() if start is None else Policy.load(start)
    with _refused():
        new, report = reinforce(
            policy,
            games,
            rules=rules,
            seed=seed,
            lr=lr,
            batch=batch,
            eval_games=eval_games,
            command=command,
            progress=progress,
            table=table,
        )
    new.save(out)
    against = (
        f"; against the start over {report.eval_games} games: {report.against_start:.3f} of "
        "the places (0.5 even)"
        if report.eval_games
        else ""
    )
    typer.echo(
        f"{report.games} games, {report.updates} steps, weights moved {report.change:.3f}"
        f"{against}; wrote {out}"
    )


@train_app.command("daifugo-classes")
def daifugo_classes(
    out: Annotated[Path, typer.Option(help="write the transition table (JSON) here")],
    bot: Annotated[str, typer.Option(help="the bot at every seat")] = "heuristic",
    rules: Annotated[str, typer.Option(help="the Daifugo preset of the matches")] = "uecda",
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    matches: Annotated[int, typer.Option(help="matches to play")] = 40,
    match_games: Annotated[int, typer.Option(help="games per match")] = 100,
    seed: Annotated[int, typer.Option(help="the seed of the deals and the bots")] = 0,
    quiet: Annotated[bool, typer.Option(help="print only the summary")] = False,
) -> None:
    """Count how titles lead to places in self-play matches: the table behind ``reward=class``."""
    from torampu.daifugo import SPEC, points_for
    from torampu.learn.daifugo_classes import count_transitions
    from torampu.search.daifugo_classes import class_values

    _at_least_one(matches=matches, match_games=match_games)
    command = _command_line("daifugo-classes")
    progress = _progress(matches, quiet)
    with _refused():
        counts = count_transitions(
            bot, rules, players, matches=matches, games=match_games, seed=seed, progress=progress
        )
        resolved = SPEC.resolve(rules, players=players)
    n = len(counts)
    values = class_values(counts, points_for(resolved, n))
    data = {
        "command": command,
        "bot": bot,
        "rules": rules,
        "players": n,
        "counts": counts,
        "values": [round(v, 4) for v in values],
    }
    rows = ",\n  ".join(json.dumps(row) for row in counts)
    text = json.dumps(data, indent=1).split('\n "counts"')[0]
    text += f'\n "counts": [\n  {rows}\n ],\n "values": {json.dumps(data["values"])}\n}}\n'
    json.loads(text)  # the hand-laid rows are still JSON
    out.write_text(text)
    for t, row in enumerate(counts):
        total = sum(row) or 1
        shares = " ".join(f"{x / total:.3f}" for x in row)
        typer.echo(f"title {t}: {sum(row):6d} games, places {shares}")
    typer.echo("each place's value over the match: " + ", ".join(f"{v:.2f}" for v in values))
    typer.echo(f"wrote {out}")


@contextmanager
def _refused(
    prefix: str = "",
    errors: tuple[type[Exception], ...] = (BotError, TorampuError, ValueError),
) -> Iterator[None]:
    """Exit with status 2 and ``error: PREFIX<the error>`` where the block raises ``errors``
    (a bad bot, rules or value: the user's input, not a crash)."""
    try:
        yield
    except errors as e:
        typer.echo(f"error: {prefix}{e}", err=True)
        raise typer.Exit(2) from None


def _at_least_one(**values: int) -> None:
    """Exit with status 2, naming the option, where a count is below 1."""
    for name, value in values.items():
        if value < 1:
            typer.echo(f"error: --{name.replace('_', '-')} must be at least 1", err=True)
            raise typer.Exit(2)


def _command_line(name: str) -> str:
    """The ``torampu train NAME …`` command as it was given (written into what it makes)."""
    return f"torampu train {name} " + " ".join(shlex.quote(a) for a in sys.argv[3:])


def _progress(total: int, quiet: bool) -> Callable[[int], None]:
    """A progress line every tenth match and at the last (none when ``quiet``)."""

    def progress(done: int) -> None:
        if not quiet and (done % 10 == 0 or done == total):
            typer.echo(f"  {done}/{total} matches", err=True)

    return progress
