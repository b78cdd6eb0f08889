"""``torampu serve``: the web table for friends and bots (see ``docs/web.md``)."""

from __future__ import annotations

import logging
import math
import os
import socket
from pathlib import Path
from typing import Annotated

import typer

WS_MAX_SIZE = 65536
"""Bytes of the largest websocket frame uvicorn takes (``--max-message`` is at most this)."""


def serving_lines(host: str, port: int) -> list[str]:
    """Where the table can be opened, as told at start. Never "localhost" for an address that
    others can reach: the page builds its share links from the address it was opened with, so
    the address printed here is the one a host will share.

    >>> serving_lines("127.0.0.1", 8000)  # doctest: +ELLIPSIS
    ['torampu: serving on http://127.0.0.1:8000/ (this computer only; ...)']
    >>> serving_lines("192.168.1.5", 8000)
    ['torampu: serving on http://192.168.1.5:8000/']
    """
    if host in ("0.0.0.0", "::", ""):
        name = socket.gethostname()
        return [
            f"torampu: serving on http://{name}:{port}/ (open the table through this computer's "
            "network name or address, so that the share links work for others)",
            f"torampu: on this computer also http://127.0.0.1:{port}/",
        ]
    shown = f"[{host}]" if ":" in host else host
    if host == "::1" or host.startswith("127.") or host == "localhost":
        return [
            f"torampu: serving on http://{shown}:{port}/ (this computer only; "
            "--host 0.0.0.0 lets others on your network join)"
        ]
    return [f"torampu: serving on http://{shown}:{port}/"]


def own_names(host: str) -> list[str]:
    """The names of this computer that may reach a server listening on ``host`` without
    ``--allowed-host`` (:class:`~torampu.web.app.KnownHost`): none on a loopback address (only
    this computer reaches it, by address or ``localhost``), else its host name as
    :func:`serving_lines` prints it, with its ``.local`` (mDNS) and fully qualified forms.

    >>> own_names("127.0.0.1"), own_names("::1"), own_names("localhost")
    ([], [], [])
    >>> socket.gethostname().lower() in own_names("0.0.0.0")
    True
    """
    from torampu.web.app import host_pattern

    if host == "::1" or host.startswith("127.") or host == "localhost":
        return []
    name = socket.gethostname()
    found = [host_pattern(n) for n in (name, f"{name}.local", socket.getfqdn())]
    return sorted({n for n in found if n is not None and n != "*"})


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
    next_game_delay: Annotated[
        float,
        typer.Option(
            help="Seconds between the games of a match, unless every player says ready "
            "sooner (0: no pause)."
        ),
    ] = 20.0,
    table_move_rate: Annotated[
        float,
        typer.Option(
            help="People's moves one table takes per second (as many as --table-move-burst at "
            "once); past it a move is refused rate_limited. Bots' moves are not counted."
        ),
    ] = 4.0,
    table_move_burst: Annotated[int, typer.Option(help="See --table-move-rate.")] = 12,
    chat_rate: Annotated[
        float,
        typer.Option(
            help="Chat messages (texts, reactions) per second per player or spectator's address "
            "(--chat-burst at once); four such speakers' worth per table from its players, and "
            "as much from its spectators."
        ),
    ] = 0.5,
    chat_burst: Annotated[int, typer.Option(help="See --chat-rate.")] = 5,
    hint_think: Annotated[
        float,
        typer.Option(help="Seconds the search bot thinks for a learner's hint (≤ max-bot-think)."),
    ] = 0.5,
    hint_rate: Annotated[
        float,
        typer.Option(
            help="Hint requests per second per connection (--hint-burst at once; one hint a "
            "turn anyway): past it rate_limited."
        ),
    ] = 1.0,
    hint_burst: Annotated[int, typer.Option(help="See --hint-rate.")] = 3,
    max_bot_think: Annotated[
        float, typer.Option(help="The most seconds per move a table's search bot may think.")
    ] = 1.0,
    bot_workers: Annotated[
        int | None,
        typer.Option(help="Worker processes for search bots (default: cores - 1, at least 1)."),
    ] = None,
    max_tables: Annotated[
        int, typer.Option(help="Open tables (waiting or playing) the server holds at most.")
    ] = 2000,
    create_rate: Annotated[
        int, typer.Option(help="New tables one address may create per minute.")
    ] = 10,
    tables_per_address: Annotated[
        int,
        typer.Option(
            help="Open tables (waiting or playing, changed in the last day) that one address "
            "may have made: one address cannot fill --max-tables."
        ),
    ] = 20,
    tables_per_day: Annotated[
        int,
        typer.Option(
            help="Tables one address may make in a day (rematches too), finished or not, "
            "those their host closed aside (0: no bound): finished tables are kept "
            "--keep-finished days, and one address's bots playing themselves made thousands "
            "a day."
        ),
    ] = 200,
    seats_per_address: Annotated[
        int,
        typer.Option(
            help="Seats one address may hold at tables waiting to start: one address cannot "
            "take every open seat. People behind one address (a school) may need more."
        ),
    ] = 24,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            help="An origin (https://host[:port]) besides this server's own whose pages may act "
            "on it (repeat for more); other sites' pages may not create tables, take seats or "
            "open websockets."
        ),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            help="A name this server is reached by (tables.example.org; *.example.org for any "
            "name under it; * for any name), repeat for more. Requests by other names are "
            "refused: DNS rebinding's defence. Addresses and localhost always pass, and on "
            "--host 0.0.0.0 this computer's own names. Behind a proxy, name your site."
        ),
    ] = None,
    ipv6_prefix: Annotated[
        int,
        typer.Option(
            help="Leading bits of an IPv6 address that count as one client for every "
            "per-address limit (a home line holds a whole /64; 128: each address alone)."
        ),
    ] = 64,
    keep_finished: Annotated[
        float,
        typer.Option(
            help="Days a finished table (records, replays, chat) is kept after its last "
            "change, then deleted (0: for ever)."
        ),
    ] = 90.0,
    keep_abandoned: Annotated[
        float,
        typer.Option(help="Days an unfinished table nobody touched is kept (0: for ever)."),
    ] = 30.0,
    max_games: Annotated[int, typer.Option(help="The longest match a table may have.")] = 50,
    max_game_actions: Annotated[
        int,
        typer.Option(
            help="Actions one game may have (an auction everyone passes deals again without "
            "end); past it the table stops."
        ),
    ] = 2000,
    max_name: Annotated[int, typer.Option(help="The longest display name (characters).")] = 40,
    sockets_per_table: Annotated[
        int,
        typer.Option(
            help="Spectators' websockets per table (its players and host have their own places)."
        ),
    ] = 64,
    watchers_per_address: Annotated[
        int, typer.Option(help="Spectators' websockets one client address may hold at one table.")
    ] = 4,
    sockets_per_seat: Annotated[
        int,
        typer.Option(
            help="Websockets one seat's holder (or the host) may have at a table (a phone and a "
            "laptop, a reload), apart from the spectators'."
        ),
    ] = 4,
    connect_rate: Annotated[
        float,
        typer.Option(
            help="New websockets per second from one address (as many as "
            "--sockets-per-address at once); a socket closed and opened again counts anew."
        ),
    ] = 2.0,
    sockets_per_address: Annotated[
        int, typer.Option(help="Websockets from one client address.")
    ] = 32,
    max_sockets: Annotated[
        int,
        typer.Option(help="Websockets past their hello in all (players', hosts', spectators')."),
    ] = 5000,
    max_spectators: Annotated[
        int | None,
        typer.Option(
            help="Spectators' websockets in all (default: four fifths of --max-sockets; the "
            "rest stays for players and hosts)."
        ),
    ] = None,
    max_pending_sockets: Annotated[
        int | None,
        typer.Option(
            help="Websockets not yet past their hello, in all (default: a tenth of "
            "--max-sockets; past it the one waiting longest is closed; --max-sockets bounds "
            "those past it)."
        ),
    ] = None,
    send_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a send may take before a slow client is closed (a websocket, or an "
            "HTTP response the client reads none of)."
        ),
    ] = 10.0,
    send_buffer_kib: Annotated[
        int,
        typer.Option(
            help="KiB asked of the kernel for each connection's send buffer (the kernel gives "
            "twice it; 0: its own, grown up to megabytes): what a client that reads nothing can "
            "leave queued there, beyond --send-timeout's reach."
        ),
    ] = 128,
    room_idle: Annotated[
        float, typer.Option(help="Seconds an unused table stays in memory (it reloads).")
    ] = 300.0,
    abandon_after: Annotated[
        float,
        typer.Option(help="Seconds with nobody connected after which a table's bots stop."),
    ] = 600.0,
    redis: Annotated[
        str | None,
        typer.Option(
            help="A Redis URL (redis://host:6379/0): run as one of many processes on one "
            "PostgreSQL database, bots in `torampu worker` processes (docs/deploy.md)."
        ),
    ] = None,
    lease_ttl: Annotated[
        float, typer.Option(help="With --redis: seconds a table's driver lease lasts.")
    ] = 5.0,
    job_timeout: Annotated[
        float,
        typer.Option(help="With --redis: seconds to wait for a worker's bot move, then ask again."),
    ] = 30.0,
    redis_connections: Annotated[
        int,
        typer.Option(
            help="With --redis: Redis connections this process may have open (a command waits "
            "up to 5 s for a free one)."
        ),
    ] = 64,
    db_connections: Annotated[
        int,
        typer.Option(
            help="With a PostgreSQL --database: its connections this process may hold at once "
            "(a request waits up to 10 s for a free one); every process's together must stay "
            "under the server's max_connections."
        ),
    ] = 15,
    presence_ttl: Annotated[
        float,
        typer.Option(
            help="With --redis: seconds this process's word on who is connected through it "
            "lasts without a heartbeat (one every third of it); a killed process's players "
            "count as gone after it."
        ),
    ] = 30.0,
    version_poll: Annotated[
        float,
        typer.Option(
            help="With --redis: seconds between this process's reads of the stored versions and "
            "seat holders of its tables waiting or in play, so that a move or a seat's change "
            "stored by a process that alone lost Redis reaches it; 0: never."
        ),
    ] = 2.0,
    bot_rate_all: Annotated[
        float,
        typer.Option(
            help="Bot moves (stand-ins' too) this process's tables make per second in all; past "
            "it a table's bot waits its turn, the turns shared fairly among the addresses that "
            "made the tables. 0: no bound."
        ),
    ] = 100.0,
    bot_queue_wait: Annotated[
        float,
        typer.Option(
            help="Seconds a search bot's move waits for a free worker; past it the heuristic "
            "makes the move (other tables' bots never delay a table longer)."
        ),
    ] = 2.0,
    header_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds an HTTP request's head (request line and headers) may take to arrive, "
            "and then its body; a connection that trickles either is closed."
        ),
    ] = 10.0,
    max_request_head: Annotated[
        int,
        typer.Option(
            help="Bytes an HTTP request's head (request line and headers) may hold; past it 431 "
            "and the connection closed, before the head is parsed."
        ),
    ] = 16 * 1024,
    max_request_lines: Annotated[
        int,
        typer.Option(
            help="Lines an HTTP request's head may hold (its request line and header lines; a "
            "browser's has some 20); past it 431 and the connection closed."
        ),
    ] = 100,
    connections_per_address: Annotated[
        int,
        typer.Option(
            help="Open HTTP connections one address may hold (not applied behind "
            "--forwarded-allow-ips: the proxy bounds its clients)."
        ),
    ] = 128,
    connections_rate: Annotated[
        float,
        typer.Option(
            help="New HTTP connections per second one address may open (as many as "
            "--connections-per-address at once; not behind --forwarded-allow-ips); past it a "
            "connection is dropped before any handshake."
        ),
    ] = 20.0,
    max_connections: Annotated[
        int | None,
        typer.Option(
            help="Open connections (HTTP and websocket, every address's) this process holds at "
            "once; past it a new one is dropped as it opens. By default its open-files limit "
            "less 256 and its database and Redis connections: were they all spent, nobody "
            "could connect, and its database neither."
        ),
    ] = None,
    request_rate: Annotated[
        float,
        typer.Option(
            help="HTTP requests per second from one address (pages, static files, the API; "
            "as many as --request-burst at once); past it 429 and the connection closed."
        ),
    ] = 50.0,
    request_burst: Annotated[
        int,
        typer.Option(help="HTTP requests one address may make at once (a page load takes ~30)."),
    ] = 300,
    requests_at_once: Annotated[
        int,
        typer.Option(
            help="HTTP requests from one address this process runs at once; the others that "
            "address sent wait in its queue (its burst otherwise held the event loop: every "
            "other table waited)."
        ),
    ] = 8,
    request_rate_all: Annotated[
        float,
        typer.Option(
            help="HTTP requests per second this process takes in all, whatever the addresses "
            "(as many as --request-burst-all at once; 0: no bound); past it 503 busy, so that "
            "many addresses' requests, each within --request-rate, cannot take the CPU the "
            "tables' moves need. Websockets are not counted. An address within its fair share "
            "(the rate split among the addresses that asked lately, a tenth at most) comes "
            "first: one past it is served only while the process holds more than a quarter of "
            "--request-burst-all, and once all is spent one within it is still served, from a "
            "quarter more."
        ),
    ] = 200.0,
    request_burst_all: Annotated[
        int, typer.Option(help="See --request-rate-all (a page's first load takes about 30).")
    ] = 600,
    load_rate: Annotated[
        float,
        typer.Option(
            help="Tables not in memory one address may have read back per second (each plays "
            "its match again; as many as --load-burst at once); past it 429."
        ),
    ] = 0.5,
    load_burst: Annotated[
        int, typer.Option(help="Tables one address may have read back into memory at once.")
    ] = 5,
    max_rooms: Annotated[
        int,
        typer.Option(
            help="Tables held in memory at most; past it idle ones leave first, and with every "
            "one in use a new one is refused 503."
        ),
    ] = 4000,
    replay_rate: Annotated[
        float,
        typer.Option(
            help="Replays and match records made per second for one address (as many as "
            "--replay-burst at once; each made is then kept and served at once); past it 429."
        ),
    ] = 0.5,
    replay_burst: Annotated[
        int, typer.Option(help="Replays and match records one address may have made at once.")
    ] = 10,
    replay_rate_all: Annotated[
        float,
        typer.Option(
            help="Replays and match records made per second by this process in all, whatever "
            "the addresses (four times --replay-burst at once); past it 503 busy."
        ),
    ] = 3.0,
    replay_mb_rate: Annotated[
        float,
        typer.Option(
            help="Megabytes of replays and match records sent to one address a second, made or "
            "kept (twice --max-replay-mb at once; a browser takes them gzipped); past it 429."
        ),
    ] = 2.0,
    list_rate: Annotated[
        float,
        typer.Option(
            help="Pages of the table list made per second for one address (as many as "
            "--list-burst at once); a page made in the last second is served again free."
        ),
    ] = 2.0,
    list_burst: Annotated[int, typer.Option(help="See --list-rate.")] = 20,
    list_rate_all: Annotated[
        float,
        typer.Option(
            help="Pages of the table list made per second by this process in all, whatever "
            "the addresses (four times --list-burst at once); past it 503 busy."
        ),
    ] = 10.0,
    seat_change_rate: Annotated[
        float,
        typer.Option(
            help="Seat changes per second from one address, every table and process together "
            "(taking, leaving, moving, renaming a seat; a host's seating): as many as "
            "--seat-change-burst at once; past it 429."
        ),
    ] = 4.0,
    seat_change_burst: Annotated[int, typer.Option(help="See --seat-change-rate.")] = 30,
    replays_kept: Annotated[
        int,
        typer.Option(
            help="Replays and match records a process keeps made (the newest; served at once "
            "when asked again)."
        ),
    ] = 32,
    replays_queued: Annotated[
        int,
        typer.Option(
            help="Replays and records being made or waiting to be made at most (one thread "
            "makes them); past it 503 busy."
        ),
    ] = 4,
    max_replay_mb: Annotated[
        float,
        typer.Option(
            help="Megabytes of JSON a game's replay may be (one view after every move: a game "
            "made long on purpose grows it with the square of its length); past it 413, the "
            "game's record holds the same moves."
        ),
    ] = 8.0,
    hello_timeout: Annotated[
        float, typer.Option(help="Seconds a new websocket has to say hello before it is closed.")
    ] = 10.0,
    message_rate: Annotated[
        float, typer.Option(help="Messages a second one websocket may send (on average).")
    ] = 20.0,
    message_burst: Annotated[
        int, typer.Option(help="Messages one websocket may send at once (past --message-rate).")
    ] = 60,
    hello_rate: Annotated[
        float, typer.Option(help="hello messages a second one websocket may send (on average).")
    ] = 0.5,
    hello_burst: Annotated[
        int, typer.Option(help="hello messages one websocket may send at once.")
    ] = 5,
    max_message: Annotated[
        int, typer.Option(help="Bytes of the largest websocket message a client may send.")
    ] = 16384,
    outbox_max: Annotated[
        int,
        typer.Option(
            help="Messages (besides the newest snapshot) that may wait for one client before "
            "it is closed as too slow."
        ),
    ] = 32,
    max_chat: Annotated[int, typer.Option(help="Characters of the longest chat text.")] = 200,
    chat_history: Annotated[
        int, typer.Option(help="Chat messages a table keeps in memory and sends on hello.")
    ] = 50,
    db_threads: Annotated[
        int, typer.Option(help="Threads that talk to the database (bots never run there).")
    ] = 4,
    db_slow_threads: Annotated[
        int,
        typer.Option(
            help="Threads beyond --db-threads for database calls that have taken over a second "
            "(a table's rows held locked): such a call gives its place to the next, up to this "
            "many at once, so that other tables go on (0: none)."
        ),
    ] = 4,
    ws_deflate: Annotated[
        bool,
        typer.Option(
            help="Compress websocket messages (permessage-deflate): less to send, but each "
            "socket keeps its own compressor and compresses every snapshot itself."
        ),
    ] = True,
    ws_frame_rate: Annotated[
        float,
        typer.Option(
            help="Websocket frames of any kind one socket may send a second (four seconds' "
            "worth at once); past it the connection is cut. Counted below the application's "
            "own message limits (--message-rate): pings, pongs, frames after a close."
        ),
    ] = 50.0,
    ws_kib_rate: Annotated[
        float,
        typer.Option(
            help="KiB of websocket message data (inflated) one socket may send a second (four "
            "seconds' worth at once); past it the connection is cut."
        ),
    ] = 64.0,
    ws_ping: Annotated[
        float,
        typer.Option(
            help="Seconds between websocket pings, and to wait for the answer: a client that "
            "stops reading is closed."
        ),
    ] = 20.0,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Behind a TLS proxy: the proxy's address, whose X-Forwarded-For is trusted "
            "for the client address (limits per address)."
        ),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "warning",
) -> None:
    """Start the web table: open the address, create a table, share its link, add bots."""
    import uvicorn

    from torampu.web.addresses import check_prefix
    from torampu.web.app import create_app, host_pattern, origin_host
    from torampu.web.http import (
        FEW_CONNECTIONS,
        FILES_KEPT,
        UNLIMITED,
        HttpLimits,
        connections_cap,
        guarded_protocol,
        guarded_ws_protocol,
        quiet_client_errors,
        raise_open_files_limit,
    )
    from torampu.web.rooms import Settings
    from torampu.web.store import Store

    if min(bot_delay, away_timeout, turn_timeout, next_game_delay) < 0:
        raise typer.BadParameter("delays and timeouts are seconds ≥ 0")
    if min(keep_finished, keep_abandoned) < 0:
        raise typer.BadParameter("--keep-finished and --keep-abandoned are days ≥ 0 (0: for ever)")
    if request_rate_all < 0 or not math.isfinite(request_rate_all) or request_burst_all < 1:
        raise typer.BadParameter(
            "--request-rate-all is a number ≥ 0 (0: no bound), --request-burst-all a count ≥ 1"
        )
    if not (bot_rate_all == 0 or 1 <= bot_rate_all < math.inf):
        raise typer.BadParameter("--bot-rate-all is moves a second: 0 (no bound) or at least 1")
    # (each finite on its own, in bytes too: their product was checked, and a frame rate of
    # 0.001 let 1e306 KiB through — inf bytes a second, every websocket's start then an
    # OverflowError — a code review)
    if not (0 < ws_frame_rate < math.inf and 0 < ws_kib_rate * 1024 < math.inf):
        raise typer.BadParameter("--ws-frame-rate and --ws-kib-rate are numbers > 0")
    if 4 * ws_kib_rate * 1024 < max_message or 4 * ws_frame_rate < 1:
        # (a message the application takes, cut off below it: the socket closed, no answer)
        raise typer.BadParameter("--ws-kib-rate or --ws-frame-rate too low for one message")
    timeouts = [send_timeout, room_idle, abandon_after, ws_ping, lease_ttl, presence_ttl]
    timeouts += [header_timeout, bot_queue_wait, hello_timeout]
    if min(max_bot_think, *timeouts) <= 0:
        raise typer.BadParameter("--max-bot-think and the timeouts are seconds > 0")
    if min(
        chat_rate,
        hint_think,
        hint_rate,
        connect_rate,
        connections_rate,
        request_rate,
        replay_rate,
        replay_rate_all,
        list_rate,
        list_rate_all,
        seat_change_rate,
        load_rate,
        table_move_rate,
        max_replay_mb,
        replay_mb_rate,
        message_rate,
        hello_rate,
    ) <= 0 or not (math.isfinite(max_replay_mb) and math.isfinite(replay_mb_rate)):
        raise typer.BadParameter(
            "--chat-rate, --hint-think, --hint-rate, --connect-rate, --connections-rate, "
            "--request-rate, "
            "--replay-rate, --replay-rate-all, --replay-mb-rate, --list-rate, --list-rate-all, "
            "--seat-change-rate, "
            "--load-rate, "
            "--table-move-rate, "
            "--message-rate, "
            "--hello-rate and "
            "--max-replay-mb are numbers > 0"
        )
    counts = (
        max_tables,
        create_rate,
        tables_per_address,
        seats_per_address,
        max_games,
        max_name,
        sockets_per_table,
    )
    if (
        min(
            *counts,
            sockets_per_address,
            watchers_per_address,
            sockets_per_seat,
            replays_kept,
            replays_queued,
            redis_connections,
            db_connections,
            list_burst,
            seat_change_burst,
            table_move_burst,
            max_game_actions,
            max_sockets,
            connections_per_address,
            request_burst,
            requests_at_once,
            chat_burst,
            hint_burst,
            replay_burst,
            load_burst,
            max_rooms,
        )
        < 1
    ):
        raise typer.BadParameter("every limit is a whole number ≥ 1")
    if max_name > 64 or max_chat > 1000:
        # (the database's columns: on PostgreSQL a longer name or text failed as a storage
        # error, not a refusal naming it — a sixty-third audit)
        raise typer.BadParameter("--max-name is at most 64 and --max-chat at most 1000")
    if min(message_burst, hello_burst, outbox_max, max_chat, chat_history, db_threads) < 1:
        raise typer.BadParameter(
            "--message-burst, --hello-burst, --outbox-max, --max-chat, --chat-history and "
            "--db-threads are whole numbers ≥ 1"
        )
    if not 0 <= send_buffer_kib <= 64 * 1024:
        raise typer.BadParameter("--send-buffer-kib is from 0 (the kernel's own) to 65536")
    if db_slow_threads < 0:
        raise typer.BadParameter("--db-slow-threads is a whole number ≥ 0")
    if tables_per_day < 0:
        raise typer.BadParameter("--tables-per-day is a whole number ≥ 0 (0: no bound)")
    if max_request_head < 1024 or max_request_lines < 10:
        raise typer.BadParameter(
            "--max-request-head is at least 1024 bytes and --max-request-lines at least 10 "
            "(a browser's request head has some 20 lines)"
        )
    files = raise_open_files_limit()
    # (Redis's connections only where there is a Redis: without one they hold no file)
    kept = FILES_KEPT + db_connections + (redis_connections if redis else 0)
    kept = min(kept, files // 4) if files > 0 else kept  # (as connections_cap counts it)
    cap = connections_cap(files, kept)
    if max_connections is not None and not 1 <= max_connections <= cap:
        raise typer.BadParameter(
            f"--max-connections is from 1 to {cap}: this process may "
            f"open {files} files, and keeps {kept} for its database, Redis, log and workers "
            "(raise its open-files limit, ulimit -n, for more)"
        )
    if not 256 <= max_message <= WS_MAX_SIZE:
        raise typer.BadParameter(f"--max-message is from 256 to {WS_MAX_SIZE} bytes")
    if redis and bot_delay * 1.25 >= lease_ttl:
        # a bot's pause is up to 5/4 of --bot-delay, and the driver's lease is renewed between
        # pauses: longer, and every bot move would let the lease lapse and the table change hands
        raise typer.BadParameter(
            f"with --redis, --bot-delay ({bot_delay:g} s, a pause up to {bot_delay * 1.25:g} s) "
            f"must be shorter than 4/5 of --lease-ttl ({lease_ttl:g} s): raise --lease-ttl"
        )
    if max_spectators is not None and not 1 <= max_spectators <= max_sockets:
        raise typer.BadParameter("--max-spectators is from 1 to --max-sockets")
    if max_pending_sockets is not None and not 1 <= max_pending_sockets <= max_sockets:
        raise typer.BadParameter("--max-pending-sockets is from 1 to --max-sockets")
    try:
        check_prefix(ipv6_prefix)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    origins = tuple(origin or ())
    for o in origins:
        if origin_host(o) is None:
            raise typer.BadParameter(f"--origin {o!r}: not an origin like https://example.org")
    allowed_hosts = []
    for name in allowed_host or ():
        pattern = host_pattern(name)
        if pattern is None:
            raise typer.BadParameter(
                f"--allowed-host {name!r}: not a host name like tables.example.org "
                "(or *.example.org, or *)"
            )
        allowed_hosts.append(pattern)
    allowed_hosts += own_names(host)
    if bot_workers is None:
        bot_workers = max(1, (os.cpu_count() or 2) - 1)
    if bot_workers < 1:
        raise typer.BadParameter("--bot-workers is at least 1")
    settings = Settings(
        data_dir=data_dir,
        database=database,
        bot_delay=bot_delay,
        away_timeout=away_timeout,
        turn_timeout=turn_timeout,
        next_game_delay=next_game_delay,
        table_move_rate=table_move_rate,
        table_move_burst=table_move_burst,
        chat_rate=chat_rate,
        chat_burst=chat_burst,
        hint_think=hint_think,
        hint_rate=hint_rate,
        hint_burst=hint_burst,
        max_bot_think=max_bot_think,
        bot_workers=bot_workers,
        max_tables=max_tables,
        create_rate=create_rate,
        tables_per_address=tables_per_address,
        tables_per_day=tables_per_day,
        seats_per_address=seats_per_address,
        keep_finished=keep_finished,
        keep_abandoned=keep_abandoned,
        ipv6_prefix=ipv6_prefix,
        max_games=max_games,
        max_game_actions=max_game_actions,
        max_name=max_name,
        sockets_per_table=sockets_per_table,
        watchers_per_address=watchers_per_address,
        sockets_per_seat=sockets_per_seat,
        list_rate=list_rate,
        list_rate_all=list_rate_all,
        list_burst=list_burst,
        seat_change_rate=seat_change_rate,
        seat_change_burst=seat_change_burst,
        replays_kept=replays_kept,
        replays_queued=replays_queued,
        origins=origins,
        body_timeout=header_timeout,
        allowed_hosts=tuple(allowed_hosts),
        sockets_per_address=sockets_per_address,
        connect_rate=connect_rate,
        request_rate=request_rate,
        request_burst=request_burst,
        requests_at_once=requests_at_once,
        request_rate_all=request_rate_all,
        request_burst_all=request_burst_all,
        replay_rate=replay_rate,
        replay_burst=replay_burst,
        replay_rate_all=replay_rate_all,
        max_replay_mb=max_replay_mb,
        replay_mb_rate=replay_mb_rate,
        load_rate=load_rate,
        load_burst=load_burst,
        max_rooms=max_rooms,
        max_sockets=max_sockets,
        max_spectators=max_spectators,
        max_pending_sockets=max_pending_sockets,
        hello_timeout=hello_timeout,
        message_rate=message_rate,
        message_burst=message_burst,
        hello_rate=hello_rate,
        hello_burst=hello_burst,
        max_message=max_message,
        outbox_max=outbox_max,
        max_chat=max_chat,
        chat_history=chat_history,
        db_threads=db_threads,
        db_slow_threads=db_slow_threads,
        send_timeout=send_timeout,
        room_idle=room_idle,
        abandon_after=abandon_after,
        redis=redis,
        lease_ttl=lease_ttl,
        job_timeout=job_timeout,
        presence_ttl=presence_ttl,
        version_poll=version_poll,
        redis_connections=redis_connections,
        bot_rate_all=bot_rate_all,
        bot_queue_wait=bot_queue_wait,
    )
    logging.basicConfig(
        level=logging.INFO if log_level in ("info", "debug", "trace") else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    url = settings.database_url()
    where = url.split("@")[-1]  # no password on the screen
    if redis and url.startswith("sqlite"):
        typer.echo(
            "torampu serve: --redis needs a database all processes share "
            "(--database postgresql://…), not SQLite",
            err=True,
        )
        raise typer.Exit(2)
    if redis:
        try:
            import redis as redis_lib

            redis_lib.Redis.from_url(redis, socket_connect_timeout=3).ping()
        except Exception as e:
            typer.echo(f"torampu serve: cannot use Redis at {redis.split('@')[-1]}: {e}", err=True)
            raise typer.Exit(2) from None
    if not url.startswith("sqlite") and db_connections < db_threads + db_slow_threads + 2:
        typer.echo(
            f"torampu serve: --db-connections {db_connections} is fewer than the threads that "
            f"use them ({db_threads} of --db-threads, {db_slow_threads} of --db-slow-threads "
            "and 2 that load tables): requests will "
            "wait for a connection",
            err=True,
        )
    try:  # open and migrate the database now, so that a bad URL is a clear error, not a trace
        store = Store(url, connections=db_connections)
    except Exception as e:
        typer.echo(f"torampu serve: cannot use the database {where}: {e}", err=True)
        raise typer.Exit(2) from None
    for line in serving_lines(host, port):
        typer.echo(line, err=False)
    typer.echo(f"torampu: database {where}", err=False)
    if forwarded_allow_ips is not None and not allowed_host:
        typer.echo(
            "torampu: behind a proxy, give your site's name with --allowed-host "
            "(requests by any name but an address or localhost are refused)",
            err=False,
        )
    typer.echo("Press Ctrl-C to stop; tables resume where they were on the next start.")
    limits = HttpLimits(
        header_timeout,
        connections_per_address if forwarded_allow_ips is None else UNLIMITED,
        connections_rate,
        ipv6_prefix,
        send_timeout,
        head_bytes=max_request_head,
        head_lines=max_request_lines,
        ws_frame_rate=ws_frame_rate,
        ws_data_rate=ws_kib_rate * 1024,
        most=cap if max_connections is None else max_connections,
        send_buffer=send_buffer_kib * 1024,
    )
    if max_connections is None and limits.most < FEW_CONNECTIONS:
        # (a soft limit of 256 that cannot be raised, macOS's, left one connection: the page
        # loaded and its websocket was dropped, with nothing said)
        typer.echo(
            f"torampu serve: this process may open {files} files and keeps {kept} of them: it "
            f"holds at most {limits.most} connection(s) at once (--max-connections), and a "
            "player's page holds two or three; raise its open-files limit (ulimit -n)",
            err=True,
        )
    quiet_client_errors()
    uvicorn.run(
        create_app(settings, store),
        host=host,
        port=port,
        log_level=log_level,
        http=guarded_protocol(limits),
        ws=guarded_ws_protocol(limits),
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=ws_ping,
        ws_ping_timeout=ws_ping,
        ws_per_message_deflate=ws_deflate,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
        server_header=False,
        # h11's own cap on a head still coming (16 KiB): no lower than --max-request-head, or a
        # larger head allowed there was refused 400 when it came in two reads (a code review)
        h11_max_incomplete_event_size=max(16 * 1024, max_request_head + 2),
    )
