"""``torampu worker``: makes the bots' moves for ``torampu serve --redis`` processes."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Annotated

import typer


def worker(
    redis: Annotated[str, typer.Option(help="The Redis URL the web servers use.")],
    database: Annotated[
        str | None,
        typer.Option(help="The database URL the web servers use, e.g. postgresql://…/torampu."),
    ] = None,
    data_dir: Annotated[
        Path, typer.Option(help="Where the SQLite database lives, without --database.")
    ] = Path("torampu-data"),
    processes: Annotated[
        int | None,
        typer.Option(help="Bot moves computed at once, each in its own process (default: cores)."),
    ] = None,
    reclaim_after: Annotated[
        float,
        typer.Option(
            help="Seconds after which a job left pending (not renewed by its worker) is taken "
            "by another; a dead worker's jobs go once its heartbeat is 4 s old."
        ),
    ] = 15.0,
    name: Annotated[
        str | None, typer.Option(help="This worker's name in the consumer group.")
    ] = None,
    bot_queue_wait: Annotated[
        float,
        typer.Option(
            help="Seconds a search-bot job may wait (in the Redis stream, then for a process) "
            "before the heuristic makes its move instead: other tables' backlog never delays "
            "a table's bots longer."
        ),
    ] = 2.0,
    match_cache: Annotated[
        int,
        typer.Option(
            help="Tables whose match this worker keeps between jobs, so that a job plays only "
            "the actions stored since (0: none; each job replays its whole game)."
        ),
    ] = 512,
    match_cache_actions: Annotated[
        int,
        typer.Option(
            help="Actions those matches may hold together (each holds every game it played, "
            "some 450 bytes an action): past it, one at a time, at random, until they fit."
        ),
    ] = 100_000,
    redis_connections: Annotated[
        int,
        typer.Option(help="Redis connections of each of this worker's two pools (jobs, events)."),
    ] = 32,
    db_connections: Annotated[
        int,
        typer.Option(
            help="Database connections this worker may hold at once (it stores moves from 12 "
            "threads); every process's together must stay under PostgreSQL's max_connections."
        ),
    ] = 15,
    log_level: Annotated[str, typer.Option(help="info, warning or error.")] = "warning",
) -> None:
    """Take bot-move jobs from Redis, compute them, store them, tell the web servers."""
    from torampu.web.rooms import Settings
    from torampu.web.store import Store
    from torampu.web.workers import DB_THREADS, Worker

    logging.basicConfig(
        level=getattr(logging, log_level.upper(), logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if processes is None:
        processes = os.cpu_count() or 1
    if (
        processes < 1
        or reclaim_after <= 0
        or bot_queue_wait <= 0
        or match_cache < 0
        or match_cache_actions < 0
        or redis_connections < 1
        or db_connections < 1
    ):
        raise typer.BadParameter(
            "--processes, --redis-connections and --db-connections are at least 1, "
            "--reclaim-after and "
            "--bot-queue-wait above 0, --match-cache and --match-cache-actions 0 or more"
        )
    url = Settings(data_dir=data_dir, database=database).database_url()
    where = url.split("@")[-1]
    if not url.startswith("sqlite") and db_connections < DB_THREADS:
        typer.echo(
            f"torampu worker: --db-connections {db_connections} is fewer than its {DB_THREADS} "
            "database threads: moves will wait for a connection to be stored",
            err=True,
        )
    try:
        store = Store(url, connections=db_connections)
    except Exception as e:
        typer.echo(f"torampu worker: cannot use the database {where}: {e}", err=True)
        raise typer.Exit(2) from None
    try:
        w = Worker(
            store,
            redis,
            processes,
            reclaim_after,
            name,
            bot_queue_wait,
            match_cache,
            redis_connections,
            match_cache_actions,
        )
    except Exception as e:
        typer.echo(f"torampu worker: cannot use Redis: {e}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"torampu worker {w.name}: {processes} at a time (database: {where})")
    try:
        asyncio.run(w.run())
    finally:
        store.close()
