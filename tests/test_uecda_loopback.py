"""Our UECda server against five of our UECda clients on 127.0.0.1 (an ephemeral port), and
against clients that misbehave: a bad handshake, garbage tables, a client that disconnects, and
our client against a server that hangs up. Nothing may hang: every socket has a timeout and
every thread is joined with one.
"""

from __future__ import annotations

import contextlib
import io
import json
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import torampu
from torampu.calibration import calibration_rows
from torampu.cli import app
from torampu.errors import RulesError
from torampu.uecda.client import ClientReport, UecdaClient, make_client_bot
from torampu.uecda.codec import (
    GAME_GOES_ON,
    TABLE_BYTES,
    UecdaConnectionError,
    UecdaProtocolError,
    empty_table,
    encode_int,
    encode_table,
    profile_table,
    read_status,
)
from torampu.uecda.server import ServerConfig, ServerResult, UecdaServer
from torampu.uecda.wire import Wire, connect

JOIN = 60.0  # seconds: a thread still alive after this means something hung


class Runner:
    """A server in a thread, and clients in threads, with their results or errors."""

    def __init__(
        self,
        tmp: Path | None,
        games: int,
        timeout: float = 10.0,
        accept_timeout: float = 10.0,
        batch_sends: bool = False,
        duplicate: int = 1,
        **rules: Any,
    ) -> None:
        self.out = io.StringIO()
        self.err = io.StringIO()
        self.server = UecdaServer(
            ServerConfig(
                port=0,
                host="127.0.0.1",
                games=games,
                seed=11,
                records=tmp,
                timeout=timeout,
                accept_timeout=accept_timeout,
                rules=dict(rules),
                batch_sends=batch_sends,
                duplicate=duplicate,
            ),
            self.out,
            self.err,
        )
        self.port = self.server.bind()
        self.result: ServerResult | None = None
        self.server_error: BaseException | None = None
        self.threads: list[threading.Thread] = []
        self.players = 0
        self.reports: dict[str, ClientReport] = {}
        self.client_errors: dict[str, BaseException] = {}
        t = threading.Thread(target=self._serve, daemon=True)
        t.start()
        self.server_thread = t

    def _serve(self) -> None:
        try:
            self.result = self.server.serve()
        except BaseException as e:
            self.server_error = e

    def client(
        self,
        name: str,
        bot: str = "heuristic",
        seed: int = 0,
        flush: str = "auto",
        tap: Callable[[str, bytes], None] | None = None,
    ) -> None:
        def go() -> None:
            c = UecdaClient(
                "127.0.0.1",
                self.port,
                name,
                make_client_bot(bot, seed),
                timeout=10,
                quiet=True,
                flush=flush,
                tap=tap,
            )
            try:
                self.reports[name] = c.run()
            except BaseException as e:
                self.client_errors[name] = e

        self.start(go)

    def raw(self, name: str, body: Callable[[Wire], None]) -> None:
        """A hand-written client: connects, sends its profile, reads its number, then ``body``."""

        def go() -> None:
            w = connect("127.0.0.1", self.port, 10.0)
            try:
                w.send_table(profile_table(name), "profile")
                w.recv_int("player number")
                body(w)
            except BaseException as e:
                self.client_errors[name] = e
            finally:
                w.close()

        self.start(go)

    def start(self, fn: Callable[[], None], player: bool = True) -> None:
        """Run ``fn`` in a thread; for a player, wait until the server has numbered it, so
        that player numbers follow the calls."""
        t = threading.Thread(target=fn, daemon=True)
        t.start()
        self.threads.append(t)
        self.players += player
        for _ in range(500):
            if len(self.server.wires) >= self.players or not t.is_alive():
                break
            threading.Event().wait(0.01)

    def join(self) -> None:
        self.server_thread.join(JOIN)
        for t in self.threads:
            t.join(JOIN)
        assert not self.server_thread.is_alive(), "the server hung"
        assert not any(t.is_alive() for t in self.threads), "a client hung"


def test_five_of_our_clients_play_our_server(tmp_path: Path) -> None:
    games = 4
    r = Runner(tmp_path, games, seat_change=2, rank_reset=3)
    bots = ["heuristic", "random", "heuristic", "random", "heuristic"]
    for k, bot in enumerate(bots):
        r.client(f"bot{k}", bot, seed=k)
    r.join()
    assert r.server_error is None and not r.client_errors, (r.server_error, r.client_errors)
    res = r.result
    assert res is not None
    assert res.names == [f"bot{k}" for k in range(5)]
    assert len(res.rankings) == games
    assert all(sorted(rk) == [0, 1, 2, 3, 4] for rk in res.rankings)
    assert sum(res.totals) == 15 * games
    assert res.refused == [0] * 5 and res.bad_exchanges == [0] * 5
    for k in range(5):
        rep = r.reports[f"bot{k}"]
        assert rep.player == k and len(rep.games) == games
        assert rep.refused == 0 and rep.fallbacks == 0
        # every client knows its places (games 2..4 confirmed by the next deal's ranks)
        assert [g.position for g in rep.games] == [rk.index(k) for rk in res.rankings]
        assert rep.total_points == res.totals[k]
    # the tndhms-style console output
    text = r.out.getvalue()
    assert text.count("================ game ") == games
    assert "--------- total point\n" + " ".join(map(str, res.totals)) in text
    # records: one per game and the match, each replays
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-{k:05d}.json" for k in range(1, games + 1)]
    for f, ranking in zip(files, res.rankings, strict=True):
        rec = json.loads(f.read_text(encoding="utf-8"))
        assert rec["uecda"]["names"] == res.names
        del rec["uecda"]
        g = torampu.replay(rec)
        assert g.to_record() == rec and g.result()["ranking"] == ranking
        assert sum(g.result()["scores"]) == 15
    mrec = json.loads((tmp_path / "match.json").read_text(encoding="utf-8"))
    m = torampu.replay_match(mrec)
    assert m.to_record() == mrec and m.standings()["totals"] == res.totals
    # rank_reset 3: game 4 starts without titles; seat_change 2: game 2 keeps game 1's seats
    recs = mrec["records"]
    assert [rec["titles"] is None for rec in recs] == [True, False, False, True]
    assert recs[1].get("seating") == recs[0].get("seating")


def comebacks(rec: dict[str, Any]) -> int:
    """Plays made on the player's own play, the others all passed (no flush between)."""
    g = torampu.replay({k: v for k, v in rec.items() if k != "uecda"})
    n = 0
    last = -1
    for e in g.view(None)["log"]:
        codes = {w["code"] for w in e.get("why", [])}
        if e["action"].startswith("play "):
            n += e["seat"] == last
            last = e["seat"]
        if codes & {"flush", "eight_cut", "spade3", "stalemate"}:
            last = -1
    return n


@pytest.mark.parametrize("rule", ["everyone", "one_left"])
def test_our_clients_follow_either_flush_rule(rule: str) -> None:
    """Under UECda's rule (``uecda``) and the changed tndhms's (``uecda-tndhms``) our clients
    recognise the rule from the tables and never lose, nor even correct, their mirrors; a
    client told the wrong rule resynchronises from the tables and still never loses it."""
    games = 4
    r = Runner(None, games, flush_when=rule)
    wrong = "one_left" if rule == "everyone" else "everyone"
    for k in range(4):
        r.client(f"bot{k}", ("heuristic", "random")[k % 2], seed=k)
    r.client("told", "heuristic", seed=9, flush=wrong)
    r.join()
    assert r.server_error is None and not r.client_errors, (r.server_error, r.client_errors)
    res = r.result
    assert res is not None and res.refused == [0] * 5
    for k in range(4):
        rep = r.reports[f"bot{k}"]
        assert rep.lost == 0 and rep.fallbacks == 0 and rep.resyncs == 0, rep.summary()
        assert rep.flush_rules() == {rule: games}
        assert [g.position for g in rep.games] == [rk.index(k) for rk in res.rankings]
        # the report times the bot's choices: every decision counted, none longer than the max
        assert all(g.decisions > 0 for g in rep.games)
        assert 0 < rep.seconds_per_decision <= rep.seconds_max
        assert "s per decision" in rep.summary()
    told = r.reports["told"]
    assert told.lost == 0 and told.fallbacks == 0 and told.resyncs > 0
    assert told.flush_rules() == {wrong: games}
    assert [g.position for g in told.games] == [rk.index(4) for rk in res.rankings]
    backs = sum(comebacks(rec) for rec in res.records)
    assert (backs > 0) == (rule == "everyone")


def test_batched_sends_carry_the_same_bytes_with_fewer_system_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``batch_sends`` keeps each client's messages until its turn: every client receives
    exactly the bytes it receives without it (the same games), in far fewer sends."""
    sends: dict[bool, int] = {}
    streams: dict[bool, list[bytes]] = {}
    results: dict[bool, ServerResult] = {}
    real_send = Wire.send

    def counting_send(self: Wire, data: bytes, what: str) -> None:
        if self.peer.startswith("player "):  # the server's side of a connection
            sends[batch] += 1
        real_send(self, data, what)

    monkeypatch.setattr(Wire, "send", counting_send)
    for batch in (False, True):
        sends[batch] = 0
        got = [bytearray() for _ in range(5)]
        r = Runner(None, 6, batch_sends=batch, seat_change=2)
        for k in range(5):

            def tap(direction: str, data: bytes, buf: bytearray = got[k]) -> None:
                if direction == "in":
                    buf.extend(data)

            r.client(f"bot{k}", ("heuristic", "random")[k % 2], seed=k, tap=tap)
        r.join()
        assert r.server_error is None and not r.client_errors, (r.server_error, r.client_errors)
        assert r.result is not None
        results[batch] = r.result
        streams[batch] = [bytes(b) for b in got]
    assert streams[True] == streams[False]
    assert all(len(b) > 6 * 20 * TABLE_BYTES for b in streams[True])
    assert results[True].rankings == results[False].rankings
    assert results[True].totals == results[False].totals
    # eager: every client is sent its queue before each read; batched: only the one read
    assert sends[True] * 3 < sends[False], sends


def test_a_bad_handshake_is_refused_and_the_games_go_on() -> None:
    r = Runner(None, 1)

    def garbage() -> None:
        s = socket.create_connection(("127.0.0.1", r.port), timeout=10)
        s.sendall(b"\xff" * TABLE_BYTES)
        s.settimeout(10)
        assert s.recv(4) == b""  # the server hangs up on it
        s.close()

    r.start(garbage, player=False)
    for k in range(5):
        r.client(f"ok{k}", "random", seed=k)
    r.join()
    assert r.server_error is None and not r.client_errors
    assert "refused a connection" in r.err.getvalue()
    assert "protocol -1" in r.err.getvalue()
    assert r.result is not None and len(r.result.rankings) == 1


def test_too_few_clients_is_a_clear_error_not_a_hang() -> None:
    r = Runner(None, 1, accept_timeout=1.0)
    r.client("lonely", "random")
    r.join()
    assert isinstance(r.server_error, UecdaConnectionError)
    assert "only 1 of 5 clients connected within 1 s" in str(r.server_error)
    # the client waiting for its deal is told the server went away
    err = r.client_errors["lonely"]
    assert isinstance(err, UecdaConnectionError) and "closed the connection" in str(err)


def test_garbage_tables_count_as_passes() -> None:
    """A client answering every turn (and the exchange) with nonsense is refused (8) and
    passes, as under tndhms; the games still end."""
    answers: list[int] = []

    def nonsense(w: Wire) -> None:
        junk = empty_table()
        junk[0][3] = 7
        junk[2][5] = 1
        junk[2][9] = 1
        code = GAME_GOES_ON
        while True:
            deal = read_status(w.recv_table("deal"))
            if deal.exchange:
                w.send_table(junk, "exchange")
            while True:
                st = read_status(w.recv_table("hand"))
                if st.my_turn:
                    w.send_table(junk, "play")
                    answers.append(w.recv_int("answer"))
                w.recv_table("stage")
                code = w.recv_int("code")
                if code != GAME_GOES_ON:
                    break
            if code == 2:
                return

    r = Runner(None, 3, timeout=10.0)
    r.raw("junk", nonsense)
    for k in range(1, 5):
        r.client(f"ok{k}", "heuristic", seed=k)
    r.join()
    assert r.server_error is None and not r.client_errors, (r.server_error, r.client_errors)
    assert r.result is not None and len(r.result.rankings) == 3
    assert answers and set(answers) == {8}
    assert r.result.refused[0] == len(answers)
    assert "an invalid table" in r.err.getvalue()


def test_a_client_that_disconnects_stops_the_server_with_its_name() -> None:
    def quitter(w: Wire) -> None:
        w.recv_table("deal")  # then hang up

    r = Runner(None, 2, timeout=5.0)
    for k in range(4):
        r.client(f"ok{k}", "random", seed=k)
    r.raw("quitter", quitter)
    r.join()
    assert isinstance(r.server_error, UecdaConnectionError)
    assert "player 4 (quitter)" in str(r.server_error)
    for k in range(4):  # the others learn that the server went away
        assert isinstance(r.client_errors[f"ok{k}"], UecdaConnectionError)


def test_our_client_reports_a_server_that_hangs_up() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]

    def half_a_server() -> None:
        conn, _ = listener.accept()
        conn.settimeout(10)
        got = b""
        while len(got) < TABLE_BYTES:
            got += conn.recv(TABLE_BYTES - len(got))
        conn.sendall(encode_int(3) + encode_table(empty_table())[:100])
        conn.close()

    t = threading.Thread(target=half_a_server, daemon=True)
    t.start()
    client = UecdaClient(
        "127.0.0.1", port, "alone", make_client_bot("random", 0), timeout=10, quiet=True
    )
    with pytest.raises(
        UecdaConnectionError,
        match=r"closed the connection while we waited for the deal table of game 1 "
        r"\(100 of 480 bytes\)",
    ):
        client.run()
    t.join(JOIN)
    listener.close()


def test_our_client_refuses_a_table_that_is_not_a_deal() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]

    def odd_server() -> None:
        conn, _ = listener.accept()
        conn.settimeout(10)
        got = b""
        while len(got) < TABLE_BYTES:
            got += conn.recv(TABLE_BYTES - len(got))
        t = empty_table()
        t[6][10:15] = [0, 1, 2, 3, 4]
        conn.sendall(encode_int(0) + encode_table(t))
        conn.recv(1)
        conn.close()

    th = threading.Thread(target=odd_server, daemon=True)
    th.start()
    client = UecdaClient(
        "127.0.0.1", port, "alone", make_client_bot("random", 0), timeout=10, quiet=True
    )
    with pytest.raises(UecdaProtocolError, match=r"the first table is not a deal"):
        client.run()
    th.join(JOIN)
    listener.close()


def test_the_server_checks_its_rules_before_any_client_connects() -> None:
    with pytest.raises(RulesError, match="seat_change"):
        UecdaServer(ServerConfig(port=0, rules={"seat_change": 7}))
    with pytest.raises(RulesError, match="5 players and 1 joker"):
        UecdaServer(ServerConfig(port=0, rules={"players": 4}))
    with pytest.raises(ValueError, match="rank_reset 1"):
        UecdaServer(ServerConfig(port=0, games=10, duplicate=5))
    with pytest.raises(ValueError, match="games a multiple of 5"):
        fixed = {"rank_reset": 1, "seat_change": 0}
        UecdaServer(ServerConfig(port=0, games=12, duplicate=5, rules=fixed))


def test_duplicate_deals_on_our_server(tmp_path: Path) -> None:
    """Five clients, ten games as two duplicate deals: each deck dealt five times, the hands one
    seat on each time; the match record says so and replays."""
    r = Runner(tmp_path, 10, duplicate=5, rank_reset=1, seat_change=0)
    for k in range(5):
        r.client(f"bot{k}", "heuristic", seed=k)
    r.join()
    assert r.server_error is None and not r.client_errors, (r.server_error, r.client_errors)
    res = r.result
    assert res is not None and len(res.rankings) == 10
    mrec = json.loads((tmp_path / "match.json").read_text(encoding="utf-8"))
    assert mrec["duplicate"] == 5
    assert torampu.replay_match(mrec).to_record() == mrec
    recs = mrec["records"]
    for block in (0, 5):
        hands = [rec["deal"]["hands"] for rec in recs[block : block + 5]]
        for rot in range(5):
            assert hands[rot] == hands[0][-rot:] + hands[0][:-rot]  # seat q had seat q-rot's
    assert recs[0]["deal"] != recs[5]["deal"]
    told = CliRunner().invoke(app, ["replay", str(tmp_path / "match.json")])
    assert told.exit_code == 0, told.output
    assert "Duplicate deals: each deal played 5 times, the hands one seat on each time" in (
        " ".join(told.output.split())
    )
    for k in range(5):
        rep = r.reports[f"bot{k}"]
        assert len(rep.games) == 10 and rep.fallbacks == 0 and rep.lost == 0
        assert [g.position for g in rep.games] == [rk.index(k) for rk in res.rankings]
    figures = []
    for q in range(5):  # each player's mean on each deal, then Student's t with 1 df
        means = [sum(5 - rk.index(q) for rk in res.rankings[d : d + 5]) / 5 for d in (0, 5)]
        half = 12.706 * abs(means[0] - means[1]) / 2
        mean = res.totals[q] / 10
        assert mean == pytest.approx(sum(means) / 2)
        figures.append(f"{mean:.2f} [{mean - half:.2f}, {mean + half:.2f}]")
    assert (
        "duplicate deals: 2 deals played 5 times each, the hands one seat on each time; "
        f"points per game (95% intervals over deals) {' '.join(figures)}" in r.out.getvalue()
    )
    # the replay of the record gives the same figures
    seats = ", ".join(f"seat {q} {f}" for q, f in enumerate(figures))
    assert (
        f"Points per game over 2 whole deals, with 95% intervals over deals: {seats}"
        in " ".join(told.output.split())
    )


def test_the_server_command_refuses_duplicate_deals_it_cannot_hold() -> None:
    res = CliRunner().invoke(
        app, ["uecda", "server", "--duplicate", "--games", "12", "--port", "0"]
    )
    assert res.exit_code == 1
    assert "error: duplicate 5 needs whole deals: games a multiple of 5, not 12" in res.output
    assert "Traceback" not in res.output
    res = CliRunner().invoke(
        app, ["uecda", "server", "--duplicate", "--rank-reset", "100", "--port", "0"]
    )
    assert res.exit_code == 1 and "rank_reset 1" in res.output


def test_a_silent_peer_times_out_and_queued_messages_go_in_order() -> None:
    """A read waits at most the wire's timeout (the kernel's, on a blocking socket) and names
    what it waited for; queued tables and ints go out in order, before a later send."""
    a, b = socket.socketpair()
    w, peer = Wire(a, "the peer", 0.2), Wire(b, "us", 5.0)
    try:
        with pytest.raises(UecdaConnectionError, match=r"did not send a table within 0\.2 s"):
            w.recv_table("a table")
        t = empty_table()
        t[5][0] = 1
        w.queue_table(t)
        w.queue_int(7)
        w.send_int(9, "an int")  # sends what was queued first
        assert peer.recv_table("t") == t and peer.recv_int("7") == 7 and peer.recv_int("9") == 9
        w.queue_int(3)
        w.flush()
        assert peer.recv_int("3") == 3 and not w.pending
    finally:
        w.close()
        peer.close()


def test_a_peer_dribbling_a_table_byte_by_byte_is_cut_off_at_the_message_s_deadline() -> None:
    """A seventh audit: the timeout bounded each read, not a message, so a peer sending one byte
    just before each read's timeout stretched a 480-byte table to 480 timeouts (16 hours at
    the default 120 s; the server's other clients waited). A message must now come whole
    within the timeout; a wire that timed out waits as before for the next message."""
    a, b = socket.socketpair()
    w = Wire(a, "the peer", 0.5)
    stop = threading.Event()

    def dribble() -> None:
        for _ in range(TABLE_BYTES):
            if stop.wait(0.1):
                return
            with contextlib.suppress(OSError):
                b.send(b"\0")

    t = threading.Thread(target=dribble, daemon=True)
    t.start()
    try:
        with pytest.raises(UecdaConnectionError, match=r"did not send a table within 0\.5 s"):
            w.recv_table("a table")  # (about 5 of 480 bytes came)
    finally:
        stop.set()
        t.join()
        w.close()
        b.close()
    a, b = socket.socketpair()
    w = Wire(a, "the peer", 0.5)
    try:  # a whole message in two parts within the time is read as before
        b.send(b"\0" * 100)
        threading.Timer(0.2, lambda: b.send(b"\0" * (TABLE_BYTES - 100))).start()
        assert w.recv_table("a table") == empty_table()
        with socket.socket() as loose, pytest.raises(ValueError, match=r"at least 0\.001"):
            Wire(loose, "x", float("nan"))
    finally:
        w.close()
        b.close()


def _accepting(
    accept_timeout: float, handshake_timeout: float
) -> tuple[UecdaServer, int, io.StringIO, threading.Thread, list[Any]]:
    """A server on a free port seating its clients in a thread of its own: (the server, its
    port, its warnings, the thread, what seating returned — or the exception it raised)."""
    err = io.StringIO()
    cfg = ServerConfig(port=0, host="127.0.0.1", timeout=30.0, accept_timeout=accept_timeout)
    cfg.handshake_timeout = handshake_timeout
    srv = UecdaServer(cfg, out=io.StringIO(), err=err)
    port = srv.bind()
    got: list[Any] = []

    def accept() -> None:
        try:
            got.append(srv._accept())
        except Exception as e:  # (told to the test)
            got.append(e)

    accepting = threading.Thread(target=accept, daemon=True)
    accepting.start()
    return srv, port, err, accepting, got


def test_a_silent_connection_does_not_hold_the_clients_behind_it() -> None:
    """A seventh audit: each new connection's profile was awaited for the game's whole timeout
    before the next was accepted, so silent connections held every client behind them (two
    minutes each by default). A connection now has ``handshake_timeout`` to say who it is."""
    srv, port, err, accepting, got = _accepting(accept_timeout=8.0, handshake_timeout=0.3)
    silent = socket.create_connection(("127.0.0.1", port))
    clients = []
    try:
        for i in range(5):
            c = socket.create_connection(("127.0.0.1", port), timeout=10)
            c.sendall(encode_table(profile_table(f"c{i}")))
            clients.append(c)
        numbers = sorted(Wire(c, "server", 10.0).recv_int("a player number") for c in clients)
        accepting.join(10)
        assert got and got[0] == [f"c{i}" for i in range(5)], (got, err.getvalue())
        assert numbers == [0, 1, 2, 3, 4]
        assert "refused a connection" in err.getvalue() and "within 0.3 s" in err.getvalue()
    finally:
        silent.close()
        for c in clients:
            c.close()
        srv.close()


def test_silent_connections_delay_the_seating_once_not_once_each() -> None:
    """The seventh audit's fix still read the profiles one after another: ten silent
    connections held the clients behind them ``handshake_timeout`` each (50 s at the default).
    Every profile is read side by side now; the players are numbered in the order they
    connected, a half-sent profile and a connection closed at once are refused, and within
    ``accept_timeout`` (here 3 handshake timeouts where one after another needed 12) all five
    are seated."""
    srv, port, err, accepting, got = _accepting(accept_timeout=6.0, handshake_timeout=2.0)
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(10)]
    half = socket.create_connection(("127.0.0.1", port))
    half.sendall(encode_table(profile_table("half"))[:100])
    socket.create_connection(("127.0.0.1", port)).close()
    clients = []
    try:
        for i in range(5):
            c = socket.create_connection(("127.0.0.1", port), timeout=15)
            c.sendall(encode_table(profile_table(f"c{i}")))
            clients.append(c)
        numbers = [Wire(c, "server", 15.0).recv_int("a player number") for c in clients]
        accepting.join(15)
        assert got == [[f"c{i}" for i in range(5)]], (got, err.getvalue())
        assert numbers == [0, 1, 2, 3, 4]
        said = err.getvalue()
        assert said.count("no profile table (protocol 20070) within 2 s") == 11, said
        assert "closed the connection before its profile" in said, said
    finally:
        for c in [*held, half, *clients]:
            c.close()
        srv.close()


def test_the_uecda_commands_refuse_bad_waits_ports_and_paths(tmp_path: Path) -> None:
    """A seventh audit: --timeout -1, nan or inf gave tracebacks from the socket calls (0 meant
    "for ever"), --port 99999 an OverflowError, a --records that is a file a traceback once
    five clients had come, and a --report in no directory one after the whole match."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    for args, said in (
        (["server", "--timeout", "-1"], "--timeout is a number of seconds"),
        (["server", "--timeout", "nan"], "--timeout is a number of seconds"),
        (["server", "--timeout", "inf"], "--timeout is a number of seconds"),
        (["server", "--timeout", "0"], "--timeout is a number of seconds"),
        (["server", "--handshake-timeout", "-3"], "--handshake-timeout is a number"),
        (["server", "--port", "99999"], "--port is 0 to 65535"),
        (["server", "--port", "-5"], "--port is 0 to 65535"),
        (["server", "--records", str(afile)], "is a file, not a directory"),
        (["client", "--timeout", "nan"], "--timeout is a number of seconds"),
        (["client", "--port", "99999"], "--port is 1 to 65535"),
        (["client", "--report", str(tmp_path / "no" / "r.json")], "cannot write --report"),
    ):
        res = CliRunner().invoke(app, ["uecda", *args])
        assert res.exit_code == 1 and said in res.output, (args, res.output)
        assert "Traceback" not in res.output, args


class _ExchangeSpy:
    """The heuristic, noting the ``exchange`` rows of every play-phase view it is shown."""

    name = "spy"

    def __init__(self, seed: int) -> None:
        self.inner = make_client_bot("heuristic", seed)
        self.rows: list[list[dict[str, Any]]] = []

    def choose(self, view: Any, legal: Any) -> str:
        if view.get("phase") == "play":
            self.rows.append(list(view.get("exchange") or []))
        return str(self.inner.choose(view, legal))


def test_the_client_tells_the_bot_what_it_knows_from_its_exchange(tmp_path: Path) -> None:
    """Every play-phase view of games 2.. carries the game's two exchanges (大富豪–大貧民, then
    富豪–貧民). A poor player's own row is exact (given and returned cards: the deal table shows
    its hand before the exchange); a rich one's carries what it returned, and its best cards as
    what it was given (so the search deals the poor's best cards to the rich). A row the player
    took no part in has no cards, as in a torampu view (the search plays it on its deals)."""
    games = 4
    r = Runner(tmp_path, games, seat_change=100, rank_reset=100)
    spies = [_ExchangeSpy(k) for k in range(5)]

    def player(k: int) -> Callable[[], None]:
        def go() -> None:
            c = UecdaClient("127.0.0.1", r.port, f"p{k}", spies[k], timeout=10, quiet=True)
            try:
                r.reports[f"p{k}"] = c.run()
            except BaseException as e:
                r.client_errors[f"p{k}"] = e

        return go

    for k in range(5):
        r.start(player(k))
    r.join()
    assert r.server_error is None and not r.client_errors, (r.server_error, r.client_errors)
    seen = {k: [rows for rows in spies[k].rows if rows] for k in range(5)}
    mrec = json.loads((tmp_path / "match.json").read_text(encoding="utf-8"))
    checked = {"rich": 0, "poor": 0, "other": 0}
    for rec in mrec["records"][1:]:  # games 2.. have titles and an exchange
        g = torampu.replay(rec)
        pairs = [{"rich": e["rich"], "poor": e["poor"], "count": e["count"]} for e in g.exchanges]  # type: ignore[attr-defined]
        assert [p["count"] for p in pairs] == [2, 1]
        for e in g.exchanges:  # type: ignore[attr-defined]
            rich, poor, k = e["rich"], e["poor"], e["count"]
            truth = {"rich": rich, "poor": poor, "count": k}
            poor_row = {**truth, "given": e["given"], "returned": e["returned"]}
            assert [poor_row if p == truth else p for p in pairs] in seen[poor], seen[poor]
            checked["poor"] += 1
            rich_views = [
                rows for rows in seen[rich] if any(x.get("returned") == e["returned"] for x in rows)
            ]
            assert rich_views, (e, seen[rich])
            rows = rich_views[0]
            assert [{k2: x[k2] for k2 in truth} for x in rows] == pairs
            own = next(x for x in rows if "given" in x)
            assert {k2: own[k2] for k2 in truth} == truth and len(own["given"]) == k
            assert all("given" not in x for x in rows if x is not own)
            checked["rich"] += 1
        middle = next(s for s in range(5) if all(s not in (p["rich"], p["poor"]) for p in pairs))
        assert pairs in seen[middle]  # the 平民 took part in neither: rows without cards
        checked["other"] += 1
    assert checked["poor"] >= 4 and checked["rich"] >= 4 and checked["other"] >= 2


def test_the_client_records_each_decision(tmp_path: Path) -> None:
    """``records``: one JSON line per decision — the view the bot was shown, the actions
    offered, the one sent, and the search's figures — enough to search a decision again."""
    games = 10  # enough for us to be 大富豪 or 富豪 in some game (asserted below)
    r = Runner(tmp_path, games, seat_change=100, rank_reset=100)
    sink = io.StringIO()
    bot = make_client_bot("ismcts:iterations=20", 3)

    def go() -> None:
        c = UecdaClient("127.0.0.1", r.port, "rec", bot, timeout=10, quiet=True, records=sink)
        try:
            r.reports["rec"] = c.run()
        except BaseException as e:
            r.client_errors["rec"] = e

    r.start(go)
    for k in range(1, 5):
        r.client(f"h{k}", "heuristic", seed=k)
    r.join()
    assert r.server_error is None and not r.client_errors, (r.server_error, r.client_errors)
    lines = [json.loads(x) for x in sink.getvalue().splitlines()]
    rep = r.reports["rec"]
    plays = [x for x in lines if x["phase"] == "play"]
    assert len(plays) == sum(g.decisions for g in rep.games) > 10
    assert {x["game"] for x in plays} == set(range(1, games + 1))
    searched = 0
    for x in plays:
        assert x["action"] in x["offered"] and not x["fallback"]
        view = x["view"]
        assert view["seat"] == 0 and view["to_play"] == 0 and view["phase"] == "play"
        if "search" in x:
            searched += 1
            assert x["search"]["iterations"] == 20
            assert set(x["search"]["visits"]) <= set(x["offered"])
            assert x["search"]["chosen"] in x["search"]["visits"]
    assert searched > 5
    # each valued move's forecast meets its game's place from the report (torampu.calibration)
    places = {g.number: g.position for g in rep.games if g.position is not None}
    rows = calibration_rows(lines, places)
    valued = [x for x in plays if x["action"] in x.get("search", {}).get("values", {})]
    assert len(rows) == len(valued) > 5
    assert all(r.achieved == (4 - places[r.game]) / 4 for r in rows)
    assert {r.expected for r in rows} == {x["search"]["values"][x["action"]] for x in valued}
    # a recorded view can be searched again
    last = plays[-1]
    again = make_client_bot("ismcts:iterations=20", 4).choose(last["view"], last["offered"])
    assert again in last["offered"]
    # a rich seat's exchange is recorded too (titles from game 2 on)
    ranks = r.result.rankings if r.result else []
    rich_games = [k + 2 for k, rk in enumerate(ranks[:-1]) if rk.index(0) < 2]
    swaps = [x for x in lines if x["phase"] == "exchange"]
    assert rich_games, ranks  # the seeded match makes us rich at least once
    assert [x["game"] for x in swaps] == rich_games
    for x in swaps:
        assert x["action"] in x["offered"] and x["view"]["phase"] == "exchange"


def test_records_that_cannot_be_written_are_a_clear_error(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from torampu.cli import app

    bad = tmp_path / "no" / "such" / "dir" / "r.jsonl"
    res = CliRunner().invoke(app, ["uecda", "client", "--port", "1", "--records", str(bad)])
    assert res.exit_code == 1
    assert "cannot write --records" in res.output and "No such file or directory" in res.output


class Learner:
    """A heuristic player that keeps every record ``learn`` is given."""

    name = "learner"

    def __init__(self) -> None:
        self.inner = make_client_bot("heuristic", 3)
        self.records: list[dict[str, Any]] = []

    def choose(self, view: Any, legal: Any) -> str:
        return self.inner.choose(view, legal)

    def learn(self, record: dict[str, Any]) -> bool:
        self.records.append(record)
        return True


def test_a_learning_bot_gets_each_game_with_every_hand_as_it_was(tmp_path: Path) -> None:
    """After each game the client rebuilds it from the cards played (each player played its
    whole hand, the last one the rest of the pack) and hands the record to a bot with ``learn``:
    the hands are the server's at the start of play, and the plays the server's."""
    games = 5
    r = Runner(tmp_path, games)
    learner = Learner()
    reports: list[ClientReport] = []

    def go() -> None:
        c = UecdaClient("127.0.0.1", r.port, "learner", learner, timeout=10, quiet=True)
        reports.append(c.run())

    r.start(go)
    for k in range(4):
        r.client(f"bot{k}", "heuristic", seed=k)
    r.join()
    assert r.server_error is None and not r.client_errors, (r.server_error, r.client_errors)
    assert r.result is not None and len(learner.records) == games
    assert reports[0].learned == games and "learned from 5 games" in reports[0].summary()
    for k, got in enumerate(learner.records):
        server = json.loads((tmp_path / f"game-{k + 1:05d}.json").read_text(encoding="utf-8"))
        del server["uecda"]
        actions = server["actions"]
        g = torampu.replay({**server, "actions": []})
        done = 0
        while g.phase != "play":  # the exchange: the revealed game starts after it
            g.play(actions[done]["action"])
            done += 1
        mine = torampu.replay({**got, "actions": []})
        assert mine.phase == "play"
        assert mine.hands == g.hands and mine.jok == g.jok  # type: ignore[attr-defined]
        assert [a["action"] for a in got["actions"]] == [a["action"] for a in actions[done:]]
        assert torampu.replay(got).result()["ranking"] == r.result.rankings[k]


def test_a_search_bot_with_adapt_learns_every_game_of_a_match() -> None:
    r = Runner(None, 3)
    bot = make_client_bot("ismcts:iterations=30:adapt=on", 1)
    reports: list[ClientReport] = []

    def go() -> None:
        c = UecdaClient("127.0.0.1", r.port, "adapt", bot, timeout=10, quiet=True)
        reports.append(c.run())

    r.start(go)
    r.client("plain", "ismcts:iterations=30", seed=5)
    for k in range(3):
        r.client(f"bot{k}", "heuristic", seed=k)
    r.join()
    assert r.server_error is None and not r.client_errors, (r.server_error, r.client_errors)
    model = bot.model  # type: ignore[attr-defined]
    assert reports[0].learned == 3 and model.games == 3 and len(model.decisions) > 30
    assert model.weights != model.base.weights  # fitted to the others' moves
    seen = [g.foresight for g in reports[0].games]
    assert all(f is not None and f[0] > 0 for f in seen)  # how it foresaw each game
    assert [f for f in seen] == model.foresight
    fs = reports[0].foresight()
    assert fs is not None and fs[0] == sum(f[0] for f in model.foresight if f is not None)
    assert "the model of the others foresaw their" in reports[0].summary()
    assert r.reports["plain"].foresight() is None
    assert r.reports["plain"].learned == 0  # a search bot without adapt learns nothing
    assert "learned from" not in r.reports["plain"].summary()
