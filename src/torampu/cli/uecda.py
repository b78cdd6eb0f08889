"""``torampu uecda client`` and ``torampu uecda server``: Daifugo over the UECda protocol.

The client plays on a UECda server (tndhms, or ours) with a torampu bot until the server says
all games are over; the server lets five UECda clients (the devkit's default client, ours, …)
play torampu's ``uecda`` rules and writes a torampu record of every game. See
:mod:`torampu.uecda.client` and :mod:`torampu.uecda.server`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from torampu.bots import BotError
from torampu.errors import RulesError
from torampu.uecda.client import BLOCK_GAMES, FLUSH_RULES, make_client_bot
from torampu.uecda.client import play as play_client
from torampu.uecda.codec import DEFAULT_PORT, UecdaProtocolError
from torampu.uecda.server import PLAYERS, ServerConfig, UecdaServer
from torampu.uecda.wire import MIN_TIMEOUT, valid_timeout

uecda_app = typer.Typer(
    help="Daifugo over the UECda protocol (computer Daihinmin, protocol 20070).",
    no_args_is_help=True,
    add_completion=False,
)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(1)


def _check_wait(flag: str, seconds: float) -> None:
    """A timeout of a finite number of seconds, at least a millisecond (else a clear error: -1,
    nan or inf gave tracebacks from the socket calls, and 0 meant "for ever" to the kernel)."""
    if not valid_timeout(seconds):
        raise _fail(f"{flag} is a number of seconds of at least {MIN_TIMEOUT:g}, not {seconds:g}")


def _check_port(port: int, low: int) -> None:
    if not low <= port <= 65535:
        raise _fail(f"--port is {low} to 65535, not {port}")


@uecda_app.command()
def client(
    host: Annotated[str, typer.Option(help="the server's address")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="the server's port")] = DEFAULT_PORT,
    name: Annotated[str, typer.Option(help="our name (ASCII; the server keeps 9)")] = "torampu",
    bot: Annotated[
        str, typer.Option(help="heuristic, ismcts or random; options as ismcts:iterations=300")
    ] = "heuristic",
    seed: Annotated[int, typer.Option(help="the bot's seed")] = 0,
    timeout: Annotated[
        float, typer.Option(help="seconds to wait for the server before giving up")
    ] = 300.0,
    quiet: Annotated[bool, typer.Option(help="print only the summary")] = False,
    report: Annotated[
        Path | None, typer.Option(help="write the per-game report here as JSON")
    ] = None,
    flush: Annotated[
        str,
        typer.Option(
            help="the server's flush rule: everyone (UECda's: all players still in have "
            "passed), one_left (the changed tndhms: all but one), or auto (recognised from "
            "the tables)"
        ),
    ] = "auto",
    records: Annotated[
        Path | None,
        typer.Option(
            help="write one JSON line per decision here: the bot's view, the actions offered, "
            "the one sent, its time and the search's figures"
        ),
    ] = None,
) -> None:
    """Connect to a UECda server and play every game with a torampu bot."""
    _check_wait("--timeout", timeout)
    _check_port(port, 1)
    if report is not None and not report.parent.is_dir():  # found now, not after the match
        raise _fail(f"cannot write --report {report}: no directory {report.parent}")
    if flush != "auto" and flush not in FLUSH_RULES:
        raise _fail(f"--flush is auto, {', '.join(FLUSH_RULES)}, not {flush!r}")
    try:
        make_client_bot(bot, seed)
    except (BotError, RulesError, ValueError) as e:
        raise _fail(f"no {bot!r} bot that plays daifugo: {e}") from None
    try:
        sink = None if records is None else records.open("w", encoding="utf-8")
    except OSError as e:
        raise _fail(f"cannot write --records {records}: {e.strerror or e}") from None
    try:
        rep = play_client(
            host,
            port,
            name,
            bot=bot,
            seed=seed,
            timeout=timeout,
            quiet=quiet,
            flush=flush,
            records=sink,
        )
    except UecdaProtocolError as e:
        raise _fail(str(e)) from None
    finally:
        if sink is not None:
            sink.close()
    if quiet:
        typer.echo(rep.summary())
    if report is not None:
        try:
            report.write_text(
                json.dumps(
                    {
                        "player": rep.player,
                        "name": rep.name,
                        "games": len(rep.games),
                        "total_points": rep.total_points,
                        "average_points": rep.average_points,
                        "average_interval": rep.interval(),
                        "interval_block": BLOCK_GAMES,
                        "places": rep.positions(),
                        "refused": rep.refused,
                        "fallbacks": rep.fallbacks,
                        "narrowed": rep.narrowed,
                        "mirror_lost": rep.lost,
                        "resyncs": rep.resyncs,
                        "flush_rules": rep.flush_rules(),
                        "leader_passes": rep.leader_passes,
                        "stalemates": rep.stalemates,
                        "seconds_per_decision": rep.seconds_per_decision,
                        "seconds_max": rep.seconds_max,
                        "foresight": rep.foresight(),
                        "per_game": [
                            {
                                "game": g.number,
                                "place": g.position,
                                "points": g.points,
                                "refused": g.refused,
                                "fallbacks": g.fallbacks,
                                "resyncs": g.resyncs,
                                "mirror_lost": g.lost,
                                "flush_when": g.flush_when,
                                "leader_passes": g.leader_passes,
                                "stalemate": g.stalemate,
                                "decisions": g.decisions,
                                "think": g.think,
                                "foresight": g.foresight,
                                "notes": g.notes,
                            }
                            for g in rep.games
                        ],
                    },
                    ensure_ascii=False,
                    indent=1,
                )
                + "\n",
                encoding="utf-8",
            )
        except OSError as e:
            raise _fail(f"cannot write --report {report}: {e.strerror or e}") from None


@uecda_app.command()
def server(
    port: Annotated[int, typer.Option(help="the port to listen on")] = DEFAULT_PORT,
    games: Annotated[int, typer.Option(help="how many games", min=1)] = 100,
    records: Annotated[
        Path, typer.Option(help="directory for the torampu records of the games")
    ] = Path("uecda-records"),
    seed: Annotated[int | None, typer.Option(help="the seed of the deals (default: fresh)")] = None,
    seat_change: Annotated[
        int | None, typer.Option(help="new seats every N games (0: never; default 5)")
    ] = None,
    flush_when: Annotated[
        str | None,
        typer.Option(help="everyone (UECda's rule, the default) or one_left (the changed tndhms)"),
    ] = None,
    rank_reset: Annotated[
        int | None, typer.Option(help="titles forgotten every N games (0: never; default 100)")
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            help="duplicate deals: each deal played five times, the hands one seat on each "
            "time, so the luck of the cards cancels out (every game fresh and fixed seats: "
            "rank-reset 1 and seat-change 0 unless given; games a multiple of 5)"
        ),
    ] = False,
    timeout: Annotated[float, typer.Option(help="seconds to wait for a client's answer")] = 120.0,
    handshake_timeout: Annotated[
        float,
        typer.Option(
            help="seconds a new connection has to say who it is (read side by side: silent "
            "connections hold the others back this long at most)"
        ),
    ] = 5.0,
    host: Annotated[str, typer.Option(help="the address to listen on")] = "0.0.0.0",
    batch_sends: Annotated[
        bool,
        typer.Option(
            help="keep each client's messages until its turn (the same bytes, fewer system "
            "calls; for matches of programs: a client sees others' turns late)"
        ),
    ] = False,
) -> None:
    """Let five UECda clients play torampu's ``uecda`` rules; print places and points."""
    _check_wait("--timeout", timeout)
    _check_wait("--handshake-timeout", handshake_timeout)
    _check_port(port, 0)
    if records.exists() and not records.is_dir():  # found now, not once five clients came
        raise _fail(f"--records {records} is a file, not a directory")
    given = (("seat_change", seat_change), ("rank_reset", rank_reset), ("flush_when", flush_when))
    overrides = {k: v for k, v in given if v is not None}
    if duplicate:
        overrides.setdefault("rank_reset", 1)
        overrides.setdefault("seat_change", 0)
    config = ServerConfig(
        port=port,
        host=host,
        games=games,
        seed=seed,
        records=records,
        timeout=timeout,
        handshake_timeout=handshake_timeout,
        rules=overrides,
        batch_sends=batch_sends,
        duplicate=PLAYERS if duplicate else 1,
    )
    try:
        srv = UecdaServer(config)
    except (RulesError, ValueError) as e:  # the rules, or duplicate deals they cannot hold
        raise _fail(str(e)) from None
    try:
        srv.serve()
    except (UecdaProtocolError, RulesError) as e:
        raise _fail(str(e)) from None
    except OSError as e:  # the records' directory or a file in it (a full disk, permissions)
        raise _fail(f"{e.strerror or e}: {e.filename or records}") from None
