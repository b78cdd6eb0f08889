"""A UECda server (protocol 20070) that plays torampu's ``uecda`` rules with torampu's engine.

Existing UECda clients connect to it as to tndhms: five clients, player numbers in the order they
connect, then ``games`` games of a :class:`torampu.daifugo.DaifugoMatch` (seat changes and rank
resets per the ``seat_change`` / ``rank_reset`` options, by default every 5 and 100 games as
``tndhms.cfg``). Each game goes as in tndhms (see :mod:`torampu.uecda.codec` for the messages):

* the deal tables, sent in the order of the previous game's places: the poor see their hand
  from before they gave their best cards, the rich with them, ``[5][1]`` = cards to return;
* the 大富豪's then the 富豪's table of cards to return; an invalid one (wrong number of cards,
  cards not held) returns the rich player's strongest cards instead, as tndhms does;
* every turn: the hand tables to all, the submission of the player to act, the answer (9, or 8
  for a play torampu refuses — which then counts as a pass — and, as tndhms, for a pass while
  cards are on the table), the table of cards to all (the last accepted play as its player laid
  it out; zero after a flush), and 0/1/2 to all.

After each game it prints the places and the running totals (5/4/3/2/1 points) the way tndhms
does, and writes the game's torampu record (``game-00001.json`` …, plus ``match.json`` at the
end) into the records directory; :func:`torampu.replay` reads them back.

It never waits forever on a client: every read has a timeout, and a client that disconnects,
stalls or breaks the protocol during the games stops the server with a
:class:`~torampu.uecda.codec.UecdaConnectionError` naming it (the other clients are
disconnected). A connection that does not start with a 20070 profile is refused and the server
waits for another client.
"""

from __future__ import annotations

import contextlib
import json
import random
import selectors
import socket
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import torampu
from torampu.daifugo import SPEC, Daifugo
from torampu.daifugo_plays import PASS, REAL, cards_words, strongest
from torampu.errors import IllegalAction, RulesError
from torampu.explain import fill
from torampu.game import new_seed
from torampu.match import Match
from torampu.uecda.codec import (
    ACCEPTED,
    ALL_GAMES_OVER,
    COLS,
    DEAL_TURN_MARK,
    GAME_GOES_ON,
    GAME_OVER,
    HAND_BYTES,
    REFUSED,
    TABLE_BYTES,
    Status,
    Table,
    UecdaConnectionError,
    UecdaProtocolError,
    UnrepresentablePlay,
    cell_card,
    decode_table,
    encode_cell_rows,
    encode_hand_rows,
    encode_int,
    encode_status,
    read_profile,
    table_play,
)
from torampu.uecda.wire import Wire

PLAYERS = 5
NO_CARDS = bytes(HAND_BYTES)
"""Rows 0..4 of an empty table of cards, encoded."""
CODE_BYTES = {c: encode_int(c) for c in (GAME_GOES_ON, GAME_OVER, ALL_GAMES_OVER)}
TITLE_LINES = ("daihugou  ", "hugou     ", "heimin    ", "himmin    ", "daihinnmin")
"""tndhms's console lines for the places."""


def ranks_row(mibun: Sequence[int], fresh: bool) -> tuple[int, ...]:
    """``[6][5..9]`` as tndhms writes it: ``row[mibun[i]] = i`` for i = 0..4, where ``mibun`` is
    the previous game's places with this game's finishers written over them as they go out
    (so a player can appear twice and another not at all: its entry stays 0); all 0 in a game
    that starts without titles.

    >>> ranks_row([3, 0, 1, 4, 2], False)
    (1, 2, 4, 0, 3)
    >>> ranks_row([2, 0, 1, 4, 2], False)
    (1, 2, 4, 0, 3)
    """
    row = [0] * PLAYERS
    if not fresh:
        for i, p in enumerate(mibun):
            row[p] = i
    return tuple(row)


@dataclass
class ServerConfig:
    """How to run: port (0 = any free port), games, seed (None = fresh), records directory,
    per-read ``timeout`` and ``accept_timeout`` (None = wait for clients forever) in seconds,
    rule overrides on top of the ``uecda`` preset (e.g. ``{"seat_change": 0}``), and
    ``batch_sends``: keep what a client is sent queued until the server waits for its answer
    (and at the end), instead of sending every client its messages before each read — the same
    bytes in the same order, a fifth of the system calls and wake-ups, but a client learns of
    others' turns only when its own comes (for matches of programs, not for watching)."""

    port: int = 42485
    host: str = "0.0.0.0"
    games: int = 100
    seed: int | None = None
    records: Path | None = None
    timeout: float = 120.0
    accept_timeout: float | None = None
    handshake_timeout: float = 5.0
    """Seconds a new connection has to send its profile (at most ``timeout``): a silent
    connection held every client behind it for the whole ``timeout`` (two minutes each by
    default: a seventh audit); the profiles are read side by side, so silent connections
    delay the seating by this once, not once each."""
    rules: dict[str, Any] = field(default_factory=dict)
    batch_sends: bool = False
    duplicate: int = 1
    """Each deal played this many times, the hands one seat on each time (1 = off, 5 = every
    player holds every hand once; see :class:`torampu.daifugo.DaifugoMatch`)."""


MAX_HANDSHAKES = 64
"""Connections whose profile is awaited at once; more wait in the listen backlog."""


class _Handshake:
    """A new connection whose profile table is being read, without blocking the others."""

    def __init__(self, sock: socket.socket, where: str, host: str, deadline: float) -> None:
        self.sock = sock
        self.where = where
        self.host = host
        self.deadline = deadline
        self.buf = bytearray()
        self.error: str | None = None
        self.registered = True

    @property
    def complete(self) -> bool:
        return self.error is None and len(self.buf) == TABLE_BYTES

    def failed(self, now: float) -> bool:
        return self.error is not None or (not self.complete and now >= self.deadline)

    def read(self, sel: selectors.BaseSelector) -> None:
        """What has arrived of the profile (no more than a table: the rest is the game's)."""
        try:
            chunk = self.sock.recv(TABLE_BYTES - len(self.buf))
        except (BlockingIOError, InterruptedError):
            return
        except OSError as e:
            self.error = f"the connection failed before its profile ({e})"
            self.unregister(sel)
            return
        if not chunk:
            self.error = "it closed the connection before its profile was complete"
            self.unregister(sel)
            return
        self.buf += chunk
        if len(self.buf) == TABLE_BYTES:
            self.unregister(sel)

    def unregister(self, sel: selectors.BaseSelector) -> None:
        if self.registered:
            self.registered = False
            with contextlib.suppress(KeyError, ValueError):
                sel.unregister(self.sock)

    def close(self, sel: selectors.BaseSelector) -> None:
        self.unregister(sel)
        with contextlib.suppress(OSError):
            self.sock.close()


@dataclass
class ServerResult:
    """What the games gave."""

    names: list[str]
    rankings: list[list[int]] = field(default_factory=list)
    """Per game, the players from 大富豪 to 大貧民."""
    totals: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    refused: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    """Plays (not passes) refused, per player."""
    unnamed: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    """Of those, plays tndhms takes but torampu cannot name (a joker beyond the 3 or the 2)."""
    bad_exchanges: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    records: list[dict[str, Any]] = field(default_factory=list)
    match_record: dict[str, Any] | None = None

    def deal_intervals(self, duplicate: int) -> list[tuple[float, float] | None]:
        """Per player, a 95% interval for its points per game over duplicate deals of
        ``duplicate`` games each (:func:`torampu.tournament.deal_intervals`). ``None`` with
        fewer than two deals.

        >>> r = ServerResult(names=["a", "b", "c", "d", "e"])
        >>> r.rankings = [[0, 1, 2, 3, 4]] * 5 + [[1, 0, 2, 3, 4]] * 5
        >>> r.deal_intervals(5)[2], r.deal_intervals(5)[0] is not None, r.deal_intervals(10)
        ((3.0, 3.0), True, [None, None, None, None, None])
        """
        from torampu.tournament import deal_intervals

        points = [[PLAYERS - rk.index(q) for q in range(PLAYERS)] for rk in self.rankings]
        return [None if f is None else (f[1], f[2]) for f in deal_intervals(points, duplicate)]


class UecdaServer:
    """The server: :meth:`bind` (optional, to learn the port), then :meth:`serve`."""

    def __init__(
        self, config: ServerConfig, out: TextIO | None = None, err: TextIO | None = None
    ) -> None:
        self.config = config
        self.rules = SPEC.resolve({"preset": "uecda", **config.rules})  # RulesError at once
        if self.rules["players"] != PLAYERS or self.rules["jokers"] != 1:
            raise RulesError("the UECda protocol plays 5 players and 1 joker")
        # a ValueError at once (not after five clients connected) for duplicate deals the
        # rules or the number of games cannot hold
        torampu.new_match(
            "daifugo", rules=self.rules, games=config.games, seed=0, duplicate=config.duplicate
        )
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.listener: socket.socket | None = None
        self.wires: list[Wire] = []

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def warn(self, text: str) -> None:
        print(text, file=self.err, flush=True)

    # ------------------------------------------------------------------ connections
    def bind(self) -> int:
        """Listen; returns the port (useful with port 0)."""
        if self.listener is None:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((self.config.host, self.config.port))
            except OSError as e:
                sock.close()
                raise UecdaConnectionError(
                    f"cannot listen on {self.config.host}:{self.config.port}: {e}"
                ) from None
            sock.listen(64)  # (past MAX_HANDSHAKES, connections wait here)
            self.listener = sock
        port: int = self.listener.getsockname()[1]
        return port

    def close(self) -> None:
        for w in self.wires:
            w.close()
        self.wires = []
        if self.listener is not None:
            self.listener.close()
            self.listener = None

    def _accept(self) -> list[str]:
        """Seat the first five connections that say who they are, numbered in the order they
        connected (as tndhms does). Every new connection's profile is read at once, side by
        side (:class:`_Handshake`), each within ``handshake_timeout``: read one after another,
        a flood of silent connections held the clients behind them for that time each (the
        seventh audit's fix still cost 5 s a connection)."""
        assert self.listener is not None
        listener = self.listener
        names: list[str] = []
        deadline = (
            None
            if self.config.accept_timeout is None
            else time.monotonic() + self.config.accept_timeout
        )
        quick = min(self.config.timeout, self.config.handshake_timeout)
        pending: list[_Handshake] = []  # in the order they connected
        sel = selectors.DefaultSelector()
        listener.setblocking(False)
        sel.register(listener, selectors.EVENT_READ, None)
        listening = True
        try:
            while len(self.wires) < PLAYERS:
                now = time.monotonic()
                for hs in [hs for hs in pending if hs.failed(now)]:
                    pending.remove(hs)
                    self._refuse(sel, hs, quick)
                while pending and pending[0].complete and len(self.wires) < PLAYERS:
                    self._seat(sel, pending.pop(0), names, quick)
                if len(self.wires) == PLAYERS:
                    break
                if deadline is not None and now >= deadline:
                    raise UecdaConnectionError(
                        f"only {len(self.wires)} of {PLAYERS} clients connected within "
                        f"{self.config.accept_timeout:g} s"
                    )
                full = len(pending) >= MAX_HANDSHAKES
                if full == listening:  # (more connections wait in the backlog meanwhile)
                    if full:
                        sel.unregister(listener)
                    else:
                        sel.register(listener, selectors.EVENT_READ, None)
                    listening = not full
                ends = [hs.deadline for hs in pending if not hs.complete]
                if deadline is not None:
                    ends.append(deadline)
                wait = max(0.0, min(ends) - now) if ends else None
                for key, _ in sel.select(wait):
                    if key.data is None:
                        self._take(sel, listener, pending, now + quick)
                    else:
                        key.data.read(sel)
        finally:
            for hs in pending:
                hs.close(sel)
            sel.close()
            if self.listener is not None:
                listener.setblocking(True)
        return names

    def _take(
        self,
        sel: selectors.BaseSelector,
        listener: socket.socket,
        pending: list[_Handshake],
        deadline: float,
    ) -> None:
        """A new connection, its profile to be read by ``deadline``."""
        try:
            sock, addr = listener.accept()
        except (BlockingIOError, InterruptedError):
            return  # (another wake-up took it, or it went away)
        sock.setblocking(False)
        hs = _Handshake(sock, f"{addr[0]}:{addr[1]}", addr[0], deadline)
        pending.append(hs)
        sel.register(sock, selectors.EVENT_READ, hs)

    def _refuse(self, sel: selectors.BaseSelector, hs: _Handshake, quick: float) -> None:
        why = hs.error or f"no profile table (protocol 20070) within {quick:g} s"
        self.warn(f"refused a connection from {hs.where}: {why}")
        hs.close(sel)

    def _seat(
        self, sel: selectors.BaseSelector, hs: _Handshake, names: list[str], quick: float
    ) -> None:
        """The oldest connection has sent its profile: its player number (sent within
        ``quick``), if the profile is good (else it is refused and the next in line is seen)."""
        hs.unregister(sel)
        hs.sock.setblocking(True)
        k = len(self.wires)
        w = Wire(hs.sock, f"the client at {hs.where}", quick)
        try:
            _, name = read_profile(decode_table(bytes(hs.buf)))
            w.peer = f"player {k} ({name})"
            w.send_int(k, "its player number")
        except UecdaProtocolError as e:
            self.warn(f"refused a connection from {hs.where}: {e}")
            w.close()
            return
        w = Wire(hs.sock, w.peer, self.config.timeout)  # the game's own timeout from now on
        self.wires.append(w)
        names.append(name)
        self.say(f"player {k}: {name} from {hs.host}")

    # ------------------------------------------------------------------ games
    def serve(self) -> ServerResult:
        """Accept the five clients and play every game. Raises
        :class:`UecdaConnectionError` if a client fails; the connections are closed either
        way."""
        self.bind()
        try:
            names = self._accept()
            return self._play(names)
        finally:
            self.close()

    def _play(self, names: list[str]) -> ServerResult:
        cfg = self.config
        seed = new_seed() if cfg.seed is None else cfg.seed
        rng = random.Random(seed)
        rules = self.rules
        match_seed = rng.getrandbits(63)
        m = torampu.new_match(
            "daifugo",
            rules=rules,
            games=cfg.games,
            seed=match_seed,
            dealer=rng.randrange(5),
            duplicate=cfg.duplicate,
        )
        result = ServerResult(names=names)
        mibun = list(range(PLAYERS))
        if cfg.records is not None:
            cfg.records.mkdir(parents=True, exist_ok=True)
        for number in range(1, cfg.games + 1):
            g = m.game
            assert isinstance(g, Daifugo)
            mibun = self._game(m, g, number, mibun, result)
            self._flush()  # with batch_sends, every client has the game's end before the next
            rec = g.to_record()
            rec["uecda"] = {"game": number, "names": names, "server_seed": seed}
            result.records.append(rec)
            if cfg.records is not None:
                path = cfg.records / f"game-{number:05d}.json"
                path.write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
        self._flush()
        if cfg.duplicate > 1:
            per_game = " ".join(
                f"{t / cfg.games:.2f}" + ("" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]")
                for t, ci in zip(result.totals, result.deal_intervals(cfg.duplicate), strict=True)
            )
            deals = cfg.games // cfg.duplicate
            self.say(
                f"duplicate deals: {deals} deal{'s' if deals > 1 else ''} played "
                f"{cfg.duplicate} times each, the hands one seat on each time; "
                f"points per game (95% intervals over deals) {per_game}"
            )
        result.match_record = m.to_record()
        if cfg.records is not None:
            (cfg.records / "match.json").write_text(
                json.dumps(result.match_record, ensure_ascii=False) + "\n", encoding="utf-8"
            )
        self.say("All games are overed ")
        return result

    def _flush(self, reader: int | None = None) -> None:
        """Send every client what was queued for it: before each read, and at the end (one
        ``sendall`` per client between two reads instead of one per message). With
        ``batch_sends``, before a read only the client about to be read is sent its queue."""
        if reader is not None and self.config.batch_sends:
            self.wires[reader].flush()
            return
        for w in self.wires:
            w.flush()

    def _game(
        self, m: Match, g: Daifugo, number: int, mibun: list[int], result: ServerResult
    ) -> list[int]:
        fresh = g.titles is None
        seating = tuple(g.seating)
        hands0, jok0 = g.initial
        pre_sizes = tuple(h.bit_count() + j for h, j in zip(hands0, jok0, strict=True))
        returns = {e["rich"]: e["count"] for e in g.exchanges}
        poor = {e["poor"] for e in g.exchanges}
        ranks = ranks_row(mibun, fresh)
        for p in mibun:
            hand = (hands0[p], jok0[p]) if p in poor else (g.hands[p], g.jok[p])
            st = Status(
                deal=True,
                exchange=returns.get(p, 0),
                turn=DEAL_TURN_MARK,
                hand_sizes=pre_sizes,
                ranks=ranks,
                seating=seating,
            )
            self.wires[p].queue(encode_hand_rows(*hand) + encode_status(st))
        while g.phase == "exchange":
            rich = g.to_play
            assert rich is not None
            k = g.exchange_queue[0][2]
            self._flush(rich)
            t = self.wires[rich].recv_table(
                fill("the {k} {k|card|cards} to return in game {n}", k=k, n=number)
            )
            action = _exchange_action(g, rich, t, k)
            if action is None:
                result.bad_exchanges[rich] += 1
                real, j = strongest(g.hands[rich], g.jok[rich], k)
                action = " ".join(["exchange", *cards_words(real, j)])
                self.warn(
                    fill(
                        "game {n}: player {p} returned no valid {k} {k|card|cards}: {a}",
                        n=number,
                        p=rich,
                        k=k,
                        a=action,
                    )
                )
            m.play(action)
        # what is sent is built as bytes: rows 0..4 (a hand, or the cards on the table) and
        # rows 5..7 (the status) separately, a hand's rows kept while it does not change
        # (``encode_table(write_status(hand_table(h, j), s))``, byte for byte)
        stage = NO_CARDS
        hand_rows: dict[tuple[int, int], bytes] = {}
        mib = list(mibun)
        out_order: list[int] = []
        turn = 0
        while not g.is_over:
            turn += 1
            actor = g.to_play
            assert actor is not None
            p = actor
            sizes = tuple(g.hands[q].bit_count() + g.jok[q] for q in range(PLAYERS))
            ranks = ranks_row(mib, fresh)
            base = Status(
                turn=p,
                new_round=g.table_info is None,
                revolution=g.revolution,
                lock=bool(g.lock_suits),
                hand_sizes=sizes,
                ranks=ranks,
                seating=seating,
            )
            theirs = encode_status(base, my_turn=False)
            for q, w in enumerate(self.wires):
                key = (g.hands[q], g.jok[q])
                rows = hand_rows.get(key)
                if rows is None:
                    rows = hand_rows[key] = encode_hand_rows(*key)
                w.queue(rows + (encode_status(base, my_turn=True) if q == p else theirs))
            self._flush(p)
            sub = self.wires[p].recv_table(f"its play (game {number}, turn {turn})")
            move, answer, note = self._judge(g, p, sub)
            if note:
                result.refused[p] += 1
                if "torampu cannot name" in note:
                    result.unnamed[p] += 1
                self.warn(f"game {number}, turn {turn}: player {p}: {note}")
            self.wires[p].queue_int(answer)
            locked_before = bool(g.lock_suits)
            if move == PASS:
                m.play("pass")  # checked by the engine (a pass is legal under lead_pass)
            else:
                m.apply(move)  # one of g.legal_moves(): _judge checked it
            if move != PASS:
                stage = encode_cell_rows(sub)
                codes = {w["code"] for w in g.log[-1]["why"]}
                lock = (locked_before and "joker_unlocks" not in codes) or "lock" in codes
            else:
                lock = locked_before
            after = tuple(g.hands[q].bit_count() + g.jok[q] for q in range(PLAYERS))
            for q in range(PLAYERS):
                if sizes[q] > 0 and after[q] == 0 and q not in out_order:
                    out_order.append(q)
                    mib[len(out_order) - 1] = q
            empty = stage == NO_CARDS
            st = Status(
                turn=p,
                new_round=empty,
                revolution=g.revolution,
                lock=lock,
                hand_sizes=after,
                ranks=ranks_row(mib, fresh),
                seating=seating,
            )
            code = GAME_GOES_ON
            if g.is_over:
                code = ALL_GAMES_OVER if number == self.config.games else GAME_OVER
            data = stage + encode_status(st) + CODE_BYTES[code]  # the same for all five
            for w in self.wires:
                w.queue(data)
            if g.table_info is None:
                stage = NO_CARDS
        ranking: list[int] = g.result()["ranking"]
        result.rankings.append(ranking)
        for pos, q in enumerate(ranking):
            result.totals[q] += PLAYERS - pos
        self.say(f"================ game {number} ")
        for line, q in zip(TITLE_LINES, ranking, strict=True):
            self.say(f"{line} {q}")
        self.say("--------- total point")
        self.say(" ".join(str(v) for v in result.totals))
        return list(ranking)

    def _judge(self, g: Daifugo, p: int, sub: Table) -> tuple[int, int, str]:
        """(move to play: ``PASS`` or one of ``g.legal_moves()``, answer, why it was refused
        or "")."""
        try:
            move = table_play(sub)
        except UnrepresentablePlay as e:
            return PASS, REFUSED, f"{e} (refused, counted as a pass)"
        except UecdaProtocolError as e:
            return PASS, REFUSED, f"an invalid table: {e} (counted as a pass)"
        if move == PASS:
            return PASS, ACCEPTED if g.table_info is None else REFUSED, ""
        if move not in g.legal_moves():
            try:
                g.clone().play(g.action_str(move))
                reason = "not legal"  # pragma: no cover - legal_moves and play agree
            except IllegalAction as e:
                reason = str(e)
            return PASS, REFUSED, f"{reason} (counted as a pass)"
        return move, ACCEPTED, ""


def _exchange_action(g: Daifugo, rich: int, t: Table, k: int) -> str | None:
    """The ``exchange …`` action a returned table names, or None if it is not ``k`` cards the
    rich player holds (tndhms then returns the strongest ones)."""
    real = 0
    jokers = 0
    for i in range(5):
        for j in range(COLS):
            v = t[i][j]
            if v == 0:
                continue
            if v == 2:
                jokers += 1
            elif v == 1 and i < 4 and 1 <= j <= 13:
                real |= 1 << cell_card(i, j)
            else:
                return None
    if real.bit_count() + jokers != k or real & ~g.hands[rich] or jokers > g.jok[rich]:
        return None
    return " ".join(["exchange", *cards_words(real & REAL, jokers)])


def serve(
    config: ServerConfig, out: TextIO | None = None, err: TextIO | None = None
) -> ServerResult:
    """Run a server until every game is played (``torampu uecda server``)."""
    return UecdaServer(config, out, err).serve()
