"""``torampu serve``: the web table for friends and bots (see ``docs/web.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 for your LAN).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data_dir: Annotated[
        Path, typer.Option(help="Where the SQLite database lives (created on first start).")
    ] = Path("torampu-data"),
    database: Annotated[
        str | None,
        typer.Option(help="A database URL instead of SQLite, e.g. postgresql://127.0.0.1/test."),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before moving.")] = 0.8,
    away_timeout: Annotated[
        float, typer.Option(help="Seconds a player may be disconnected before a bot stands in.")
    ] = 60.0,
    turn_timeout: Annotated[
        float, typer.Option(help="Seconds a player may take for a move (0: no limit).")
    ] = 0.0,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "warning",
) -> None:
    """Start the web table: open the address, create a table, share its link, add bots."""
    import uvicorn

    from torampu.web.app import create_app
    from torampu.web.rooms import Settings
    from torampu.web.store import Store

    if bot_delay < 0 or away_timeout < 0 or turn_timeout < 0:
        raise typer.BadParameter("delays and timeouts are seconds ≥ 0")
    settings = Settings(
        data_dir=data_dir,
        database=database,
        bot_delay=bot_delay,
        away_timeout=away_timeout,
        turn_timeout=turn_timeout,
    )
    url = settings.database_url()
    where = url.split("@")[-1]  # no password on the screen
    try:  # open and migrate the database now, so that a bad URL is a clear error, not a trace
        store = Store(url)
    except Exception as e:
        typer.echo(f"torampu serve: cannot use the database {where}: {e}", err=True)
        raise typer.Exit(2) from None
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    typer.echo(f"torampu: serving on http://{shown}:{port}/  (database: {where})", err=False)
    typer.echo("Press Ctrl-C to stop; tables resume where they were on the next start.")
    uvicorn.run(
        create_app(settings, store),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=65536,
    )
