"""The pause between games, ready, chat and rematch in the scaled-out layout: two ``torampu
serve --redis`` processes and a ``torampu worker`` on one PostgreSQL database (the processes and
services as in ``test_web_scale.py``). A player on one process, a spectator on the other: both
see the same pause (its deadline derived from the stored time of the game's last action), the
player's ready (stored, and announced on the bus) lets the bots — driven by whichever process
holds the lease — go on, the chat reaches the other process, and the rematch made on one is the
one the other shows."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from test_web_scale import (  # noqa: F401  (fixtures)
    RedisServer,
    Web,
    _get,
    _post,
    _worker,
    pg,
    redis_server,
)


def _next(ws: Any, pred: Any, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        assert msg["type"] != "error", msg
        if pred(msg):
            return dict(msg)
    raise AssertionError("no such message in time")


def test_between_games_chat_and_rematch_across_processes(
    tmp_path: Path,
    pg: str,  # noqa: F811  (the fixture)
    redis_server: RedisServer,  # noqa: F811
) -> None:
    delay = ("--next-game-delay", "60")
    webs = [Web(tmp_path, "a", pg, redis_server.url, *delay)]
    webs.append(Web(tmp_path, "b", pg, redis_server.url, *delay))
    worker = _worker(tmp_path, "w1", pg, redis_server.url)
    try:
        a, b = webs
        a.wait()
        b.wait()
        status, r = _post(
            f"{a.base}/api/tables",
            {
                "game": "hell",
                "rules": {"players": 3},
                "games": 2,
                "seats": ["open", "heuristic", "heuristic"],
                "chat": {"spectators": True},
            },
        )
        assert status == 201, r
        tid, host = r["table"]["id"], r["host_token"]
        _, j = _post(f"{a.base}/api/tables/{tid}/join", {"name": "Aki", "seat": 0})
        token = j["token"]
        with (
            connect(f"{a.ws}/ws/tables/{tid}", open_timeout=10) as player,
            connect(f"{b.ws}/ws/tables/{tid}", open_timeout=10) as spectator,
        ):
            player.send(json.dumps({"type": "hello", "token": token}))
            spectator.send(json.dumps({"type": "hello", "token": None}))
            _next(player, lambda m: m["type"] == "snapshot")
            _next(spectator, lambda m: m["type"] == "snapshot")
            _post(f"{b.base}/api/tables/{tid}/start", {}, host)
            m = _play_until(player, lambda m: m["between"] is not None)  # game 1
            version = m["version"]
            seen = _next(spectator, lambda m: m["type"] == "snapshot" and m["between"] is not None)
            assert seen["between"]["game"] == 0 and seen["between"]["waiting"] == [0]
            assert 40 < seen["between"]["seconds_left"] <= 60
            assert abs(seen["between"]["seconds_left"] - m["between"]["seconds_left"]) < 5
            time.sleep(1.0)  # the bots (lease holder, worker) wait
            assert _get(f"{b.base}/api/tables/{tid}")["version"] == version
            player.send(json.dumps({"type": "chat", "text": "<b>よろしく</b>"}))
            msg = _next(spectator, lambda m: m["type"] == "chat")
            assert (msg["seat"], msg["name"], msg["text"]) == (0, "Aki", "<b>よろしく</b>")
            player.send(json.dumps({"type": "ready"}))
            _next(
                spectator,
                lambda m: (
                    m["type"] == "snapshot" and m["between"] is None and m["version"] > version
                ),
            )
            _play_until(player, lambda m: m["table"]["status"] == "over")  # game 2, to the end
            status, r = _post(f"{a.base}/api/tables/{tid}/rematch", {}, token)
            assert status == 200, r
            new = r["table"]["id"]
            status, r2 = _post(f"{b.base}/api/tables/{tid}/rematch", {}, host)
            assert status == 200 and r2["table"]["id"] == new
            moved = _next(
                spectator, lambda m: m["type"] == "snapshot" and m["table"]["rematch"] is not None
            )
            assert moved["table"]["rematch"] == new
        with connect(f"{b.ws}/ws/tables/{new}", open_timeout=10) as again:
            again.send(json.dumps({"type": "hello", "token": token}))
            first = _next(again, lambda m: m["type"] == "snapshot")
            assert first["seat"] == 0 and first["table"]["status"] == "playing"
            # the chat of the old table stays there
            assert first["table"]["chat"] == {"spectators": True}
    finally:
        for p in (*webs, worker):
            p.stop()


@contextmanager
def _two_processes(
    tmp_path: Path, database: str, redis: str, *flags: str
) -> Iterator[tuple[Web, Web]]:
    """Two web processes (``flags`` added to each) and a worker, on one database and Redis."""
    webs = [Web(tmp_path, n, database, redis, *flags) for n in ("a", "b")]
    worker = _worker(tmp_path, "w1", database, redis)
    try:
        for w in webs:
            w.wait()
        yield webs[0], webs[1]
    finally:
        for p in (*webs, worker):
            p.stop()


def _two_at_hell(a: Web) -> tuple[str, str, list[str]]:
    """A one-game Hell table made on ``a``: people at seats 0 and 2 (P0, P2), a bot at 1:
    (id, host token, [seat 0's token, seat 2's])."""
    game = {"game": "hell", "rules": {"players": 3}, "games": 1}
    status, r = _post(f"{a.base}/api/tables", game | {"seats": ["open", "heuristic", "open"]})
    assert status == 201, r
    tid = r["table"]["id"]
    tokens = [
        _post(f"{a.base}/api/tables/{tid}/join", {"name": f"P{s}", "seat": s})[1]["token"]
        for s in (0, 2)
    ]
    return tid, r["host_token"], tokens


def _play_to_the_end(a: Web, tid: str, host: str, p0: Any, token: str) -> None:
    """Seat 0's player says hello on ``p0`` (a socket to ``a``), the host starts the table and
    seat 0 plays to the match's end; seat 2's player is away: a stand-in plays it."""
    p0.send(json.dumps({"type": "hello", "token": token}))
    _next(p0, lambda m: m["type"] == "snapshot")
    _post(f"{a.base}/api/tables/{tid}/start", {}, host)
    _play_until(p0, lambda m: m["table"]["status"] == "over")


def _play_until(ws: Any, stop: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Play the first legal action at each turn of the seat on ``ws`` until a snapshot meets
    ``stop``: that snapshot."""
    acted = -1
    while True:
        m = _next(ws, lambda m: m["type"] == "snapshot")
        if stop(m):
            return m
        if m["legal"] and m["version"] != acted:
            acted = m["version"]
            ws.send(json.dumps({"type": "act", "action": m["legal"][0], "version": m["version"]}))


def test_two_players_asking_for_a_rematch_at_once_on_two_processes_get_one(
    tmp_path: Path,
    pg: str,  # noqa: F811  (the fixture)
    redis_server: RedisServer,  # noqa: F811
) -> None:
    """A rematch is made once everyone connected has asked. Two players on two processes who
    ask at the same moment each see only their own wish in memory (the other's event is on its
    way): the wishes are read back from the database, so one of them makes it, once."""
    with _two_processes(tmp_path, pg, redis_server.url, "--away-timeout", "0.2") as (a, b):
        tid, host, tokens = _two_at_hell(a)
        with (
            connect(f"{a.ws}/ws/tables/{tid}", open_timeout=10) as p0,
            connect(f"{b.ws}/ws/tables/{tid}", open_timeout=10) as p2,
        ):
            _play_to_the_end(a, tid, host, p0, tokens[0])
            p2.send(json.dumps({"type": "hello", "token": tokens[1]}))
            both = lambda m: (  # noqa: E731
                m["type"] == "snapshot" and all(m["table"]["seats"][s]["connected"] for s in (0, 2))
            )
            _next(p0, both)
            _next(p2, both)
            with ThreadPoolExecutor(2) as pool:
                answers = list(
                    pool.map(
                        lambda job: _post(f"{job[0].base}/api/tables/{tid}/rematch", {}, job[1]),
                        ((a, tokens[0]), (b, tokens[1])),
                    )
                )
            made = {r["table"]["id"] for status, r in answers if status == 200}
            assert all(status in (200, 202) for status, _ in answers), answers
            assert len(made) == 1, answers
            (new,) = made
            for ws in (p0, p2):
                moved = _next(ws, lambda m: m["type"] == "snapshot" and m["table"]["rematch"])
                assert moved["table"]["rematch"] == new
        assert _get(f"{b.base}/api/tables/{tid}")["rematch"] == new


def test_a_rematch_held_up_by_a_process_that_died_is_made_once_its_presence_is_gone(
    tmp_path: Path,
    pg: str,  # noqa: F811  (the fixture)
    redis_server: RedisServer,  # noqa: F811
) -> None:
    """A tenth audit: the heartbeat read the other processes' presence again only at tables
    in play; at a finished one a player on a process that was killed stayed "connected" for
    good, and the rematch the other player asked for never came. It comes once that
    process's presence has grown old (``--presence-ttl``)."""
    flags = ("--away-timeout", "0.2", "--presence-ttl", "3")
    with _two_processes(tmp_path, pg, redis_server.url, *flags) as (a, b):
        tid, host, tokens = _two_at_hell(a)
        with connect(f"{a.ws}/ws/tables/{tid}", open_timeout=10) as p0:
            _play_to_the_end(a, tid, host, p0, tokens[0])
            with connect(f"{b.ws}/ws/tables/{tid}", open_timeout=10, close_timeout=1) as p2:
                p2.send(json.dumps({"type": "hello", "token": tokens[1]}))
                connected = lambda m: (  # noqa: E731
                    m["type"] == "snapshot" and m["table"]["seats"][2]["connected"]
                )
                _next(p0, connected)
                status, r = _post(f"{a.base}/api/tables/{tid}/rematch", {}, tokens[0])
                assert status == 202, r
                b.kill()  # its player's presence is left behind on the bus
            moved = _next(
                p0, lambda m: m["type"] == "snapshot" and m["table"]["rematch"], timeout=30
            )
            assert moved["table"]["seats"][2]["connected"] is False


def test_a_player_still_at_the_table_on_another_process_keeps_the_seat_in_a_rematch(
    tmp_path: Path,
    pg: str,  # noqa: F811  (the fixture)
    redis_server: RedisServer,  # noqa: F811
) -> None:
    """An eleventh audit: a player with a tab on each process closed the one on the process of
    the player who had asked; the other process, where someone else was already at the table,
    had not said it held the seat too (another process already did), so the seat read as gone
    and went to a bot in the rematch, its player still at the table. Each process says when a
    seat is new there, and the rematch reads the bus again before it seats a bot."""
    with _two_processes(tmp_path, pg, redis_server.url, "--away-timeout", "0.2") as (a, b):
        tid, host, tokens = _two_at_hell(a)
        with connect(f"{a.ws}/ws/tables/{tid}", open_timeout=10) as p0:
            _play_to_the_end(a, tid, host, p0, tokens[0])
            connected = lambda m: (  # noqa: E731
                m["type"] == "snapshot" and m["table"]["seats"][2]["connected"]
            )
            with (
                connect(f"{b.ws}/ws/tables/{tid}", open_timeout=10) as watcher,
                connect(f"{b.ws}/ws/tables/{tid}", open_timeout=10) as on_b,
            ):
                # (someone already at the table on process b: a spectator)
                watcher.send(json.dumps({"type": "hello", "token": None}))
                _next(watcher, lambda m: m["type"] == "snapshot")
                with connect(f"{a.ws}/ws/tables/{tid}", open_timeout=10) as on_a:
                    on_a.send(json.dumps({"type": "hello", "token": tokens[1]}))
                    _next(p0, connected)
                    _next(watcher, connected)  # (process b knows the seat is held on a)
                    on_b.send(json.dumps({"type": "hello", "token": tokens[1]}))
                    _next(on_b, lambda m: m["type"] == "snapshot")
                    time.sleep(0.5)
                    status, r = _post(f"{a.base}/api/tables/{tid}/rematch", {}, tokens[0])
                    assert status == 202, r
                time.sleep(5)  # past the grace (3 s): seat 2's player is still on process b
                assert _get(f"{a.base}/api/tables/{tid}")["rematch"] is None
                status, r = _post(f"{b.base}/api/tables/{tid}/rematch", {}, tokens[1])
                assert status == 200, r
                seats = r["table"]["seats"]
                assert [s["kind"] for s in seats] == ["human", "bot", "human"]


def test_a_seat_taken_back_on_one_process_is_a_person_s_on_the_other(
    tmp_path: Path,
    pg: str,  # noqa: F811  (the fixture)
    redis_server: RedisServer,  # noqa: F811
) -> None:
    """The rematch's seat that went to a bot (its player gone as the other asked) is taken
    back by its player asking on the other process: the process driving the table (its bots
    on the worker) seats them at once — their socket holds the seat, told what the bot played
    for them — and no bot plays that seat again."""
    with _two_processes(tmp_path, pg, redis_server.url, "--away-timeout", "0.2") as (a, b):
        tid, host, tokens = _two_at_hell(a)
        with connect(f"{a.ws}/ws/tables/{tid}", open_timeout=10) as p0:
            _play_to_the_end(a, tid, host, p0, tokens[0])
            time.sleep(3.5)  # (seat 2's player gone past the grace)
            status, r = _post(f"{a.base}/api/tables/{tid}/rematch", {}, tokens[0])
            assert status == 200, r
        nid = r["table"]["id"]
        assert [s["kind"] for s in r["table"]["seats"]] == ["human", "bot", "bot"]
        with connect(f"{a.ws}/ws/tables/{nid}", open_timeout=10) as p0:
            p0.send(json.dumps({"type": "hello", "token": tokens[0]}))
            # the bots (on the worker) play up to seat 0's bid: seat 2's bid before it
            _next(p0, lambda m: m["type"] == "snapshot" and m["view"]["to_play"] == 0)
            status, r = _post(f"{b.base}/api/tables/{tid}/rematch", {}, tokens[1])
            assert status == 200 and r["table"]["id"] == nid, r
            assert [(s["kind"], s["name"]) for s in r["table"]["seats"]][2] == ("human", "P2")
            _next(p0, lambda m: m["type"] == "snapshot" and m["table"]["seats"][2]["name"] == "P2")
            with connect(f"{a.ws}/ws/tables/{nid}", open_timeout=10) as p2:
                p2.send(json.dumps({"type": "hello", "token": tokens[1]}))
                back = _next(p2, lambda m: m["type"] == "snapshot")
                assert back["seat"] == 2 and back["stood_in"] >= 1, back
                turn = _play_until(p0, lambda m: m["view"]["to_play"] == 2)
                time.sleep(1.5)  # (no bot's move comes for seat 2: its player is there)
                assert _get(f"{b.base}/api/tables/{nid}")["version"] == turn["version"]
                mine = _next(
                    p2, lambda m: m["type"] == "snapshot" and m["version"] == turn["version"]
                )
                p2.send(
                    json.dumps(
                        {"type": "act", "action": mine["legal"][0], "version": mine["version"]}
                    )
                )
                played = _next(
                    p2, lambda m: m["type"] == "snapshot" and m["version"] > turn["version"]
                )
                assert played["last"]["seat"] == 2 and played["last"]["by"] == "human"
