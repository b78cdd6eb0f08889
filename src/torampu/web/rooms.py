"""Tables in play: the server-authoritative side of the web table, independent of HTTP.

A :class:`Room` holds one table's match (rebuilt from the stored actions), its seats, its
connected clients and a lock: the one writer of that table. :class:`Lobby` owns the rooms and the
:class:`~torampu.web.store.Store`; every change goes through it:

* :meth:`Lobby.act` validates an action with the engine (an illegal one raises
  :class:`ActError` and leaves the match as it was), stores it with the version check, and only
  then broadcasts a snapshot to every client;
* each client's snapshot is built from ``view(seat)`` of its own seat (``view(None)`` for a
  spectator) and the public table; the ``last`` action is shown whole only when it names no card
  hidden from the client (another seat's discard shows as ``discard``);
* a driver task per room plays the bots' turns after a short delay, stands in for a human who has
  been away past ``away_timeout`` (until they are back), and makes the move of a human whose turn
  ran past ``turn_timeout``.

Nothing here touches the engine's internals: only ``torampu.new_match``, ``play``, ``view``,
``legal_actions``, records, and the bots' ``choose(view, legal)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torampu
from torampu.bots import Bot, BotError, make_bot, parse_bot_spec
from torampu.errors import IllegalAction, TorampuError
from torampu.match import Match
from torampu.testing import cards_mentioned
from torampu.web.store import Seat, StaleVersion, Store, StoreError, Table

log = logging.getLogger("torampu.web")

BOT_SPECS = ("heuristic", "random", "ismcts:think=0.3", "ismcts:think=1")
"""The bots a table offers (any spec ``make_bot`` takes is accepted through the API)."""


@dataclass
class Settings:
    """How a server runs (the ``torampu serve`` options)."""

    data_dir: Path = Path("torampu-data")
    database: str | None = None
    """A SQLAlchemy URL; ``None``: SQLite in ``data_dir/torampu.db``."""
    bot_delay: float = 0.8
    """Seconds a bot waits before it moves, so that people can follow."""
    away_timeout: float = 60.0
    """Seconds without a connection after which a bot plays for an absent human."""
    turn_timeout: float = 0.0
    """Seconds a human may take for one move before a bot makes it (0: no limit)."""
    standin: str = "heuristic"
    """The bot that plays for an absent human."""
    max_message: int = 16384

    def database_url(self) -> str:
        if self.database:
            return self.database
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / 'torampu.db').resolve()}"


class ActError(TorampuError):
    """A refused request; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Client:
    """One websocket connection: its seat (``None``: a spectator) and how to send to it."""

    seat: int | None
    send: Send


@dataclass(eq=False)
class Room:
    """A table being played: its stored row (what it was created with), its seats and version,
    and the live state that is never stored (the match, rebuilt from the actions; clients,
    bots, timers)."""

    table: Table
    seats: list[Seat]
    version: int
    match: Match | None = None
    last: dict[str, Any] | None = None
    clients: set[Client] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    away_since: dict[int, float] = field(default_factory=dict)
    turn_started: float = 0.0
    bots: dict[int, Bot] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def status(self) -> str:
        """``waiting`` before the start, then ``playing`` until the match is ``over``."""
        if self.match is None:
            return "waiting"
        return "over" if self.match.is_over else "playing"

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.clients)


def make_table_bot(spec: str, seed: int, game: str) -> Bot:
    """A bot from a spec such as ``heuristic`` or ``ismcts:think=0.3``."""
    kind, options = parse_bot_spec(spec)
    return make_bot(kind, seed, game, **options)


def _preset_name(rules: Any) -> str | None:
    """The preset a table's ``rules`` argument names (``"classic"``, or ``{"preset": …}``)."""
    if isinstance(rules, str):
        return rules
    if isinstance(rules, Mapping) and isinstance(rules.get("preset"), str):
        return str(rules["preset"])
    return None


class Lobby:
    """Every table of one server, over one store."""

    def __init__(
        self, store: Store, settings: Settings, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self._closing = False
        self._jitter = random.Random()  # only the bots' pauses: no game randomness here

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Load every table in play from the store and resume its bots and timers."""
        for table_id in self.store.table_ids("playing"):
            room = self.room(table_id)
            self._ensure_driver(room)

    async def stop(self) -> None:
        self._closing = True
        tasks = [r.driver for r in self.rooms.values() if r.driver is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    def room(self, table_id: str) -> Room:
        """The room of a table, loaded from the store if needed (:class:`ActError` 404)."""
        room = self.rooms.get(table_id)
        if room is None:
            table = self.store.table(table_id) if isinstance(table_id, str) else None
            if table is None:
                raise ActError("not_found", f"no table {table_id!r}", 404)
            room = self._load(table)
            self.rooms[table_id] = room
        return room

    def _load(self, table: Table, room: Room | None = None) -> Room:
        if room is None:
            room = Room(table, list(table.seats), table.version)
            now = self.clock()
            room.away_since = {s: now for s in range(table.players)}
            room.turn_started = now
        else:
            room.table, room.seats, room.version = table, list(table.seats), table.version
        room.match = None
        if table.status != "waiting":
            m = self._new_match(room)
            for a in self.store.actions(table.id):
                if m.to_play != a.seat:
                    raise StoreError(f"table {table.id}: stored action {a.version} out of turn")
                m.play(a.action)
                room.last = {"seat": a.seat, "action": a.action, "by": a.by}
            room.match = m
            self._make_bots(room)
        return room

    def _new_match(self, room: Room) -> Match:
        return torampu.new_match(
            room.table.game, room.table.rules, games=room.table.games, seed=room.table.seed
        )

    def _make_bots(self, room: Room) -> None:
        room.bots = {}
        for s, st in enumerate(room.seats):
            spec = st.bot if st.kind == "bot" and st.bot else self.settings.standin
            room.bots[s] = make_table_bot(spec, room.table.seed ^ (s * 7919 + 1), room.table.game)

    # ------------------------------------------------------------------ tables
    def create(
        self,
        game: str,
        rules: Any,
        players: int | None,
        games: int | None,
        seats: list[str] | None,
    ) -> tuple[Room, str]:
        """A new table (:class:`ActError` 400 for a bad game, option, seat or bot)."""
        try:
            probe = torampu.new_match(game, rules, players=players, games=games, seed=0)
        except (TorampuError, ValueError, TypeError) as e:
            raise ActError("bad_request", str(e), 400) from None
        n = probe.n
        specs = list(seats) if seats is not None else ["open"] * n
        if len(specs) != n:
            raise ActError("bad_request", f"seats lists {len(specs)} seats for {n} players", 400)
        for spec in specs:
            if spec != "open":
                self._check_bot(spec, game)
        specs = [s if s == "open" else s.removeprefix("bot:") for s in specs]
        token = new_token()
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        seed = random.SystemRandom().getrandbits(63)
        table = self.store.create_table(
            table_id,
            game,
            dict(probe.rules),
            n,
            probe.games_total,
            seed,
            token_hash(token),
            specs,
            _preset_name(rules),
        )
        room = self._load(table)
        self.rooms[table_id] = room
        return room, token

    def _check_bot(self, spec: str, game: str) -> None:
        if not isinstance(spec, str):
            raise ActError("bad_request", f"a seat is 'open' or a bot spec, not {spec!r}", 400)
        try:
            make_table_bot(spec.removeprefix("bot:"), 0, game)
        except (BotError, TorampuError, ValueError, TypeError) as e:
            raise ActError("bad_request", f"bot {spec!r}: {e}", 400) from None

    def check_host(self, room: Room, token: str | None) -> None:
        if not token:
            raise ActError("unauthorized", "this needs the table's host token", 401)
        if not secrets.compare_digest(token_hash(token), room.table.host_token):
            raise ActError("unauthorized", "wrong host token", 403)

    def seat_of(self, room: Room, token: str | None) -> int | None:
        """The seat a seat token holds (``None`` for no token); :class:`ActError` if wrong."""
        if token is None:
            return None
        if not isinstance(token, str):
            raise ActError("unauthorized", "a token is a string", 401)
        h = token_hash(token)
        for s, st in enumerate(room.seats):
            if st.token is not None and secrets.compare_digest(st.token, h):
                return s
        raise ActError("unauthorized", "this token holds no seat at this table", 403)

    async def join(self, room: Room, name: Any, seat: Any) -> tuple[int, str]:
        """Take an open seat (the first one if ``seat`` is ``None``)."""
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise ActError("bad_request", "name must be 1 to 40 characters", 400)
        async with room.lock:
            if seat is None:
                free = [s for s, st in enumerate(room.seats) if st.kind == "open"]
                if not free:
                    raise ActError("seat_taken", "no open seat at this table")
                seat = free[0]
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise ActError("bad_request", f"seat must be a number, not {seat!r}", 400)
            if not 0 <= seat < room.table.players:
                raise ActError(
                    "not_found", f"no seat {seat} (seats 0..{room.table.players - 1})", 404
                )
            token = new_token()
            st = Seat(seat, "human", name.strip(), token_hash(token))
            taken = await asyncio.to_thread(
                self.store.set_seat, room.id, seat, st.kind, st.name, st.token, None, True
            )
            if not taken:
                raise ActError("seat_taken", f"seat {seat} is taken")
            room.seats[seat] = st
            if room.match is not None:
                self._make_bots(room)
        await self.broadcast(room)
        return seat, token

    async def set_seat(self, room: Room, seat: int, bot: str | None) -> None:
        """Before the start: seat a bot (``bot``), or open the seat (``None``)."""
        async with room.lock:
            if room.status != "waiting":
                raise ActError("started", "seats change only before the start")
            if not 0 <= seat < room.table.players:
                raise ActError(
                    "not_found", f"no seat {seat} (seats 0..{room.table.players - 1})", 404
                )
            if bot is not None:
                self._check_bot(bot, room.table.game)
                bot = bot.removeprefix("bot:")
            st = Seat(seat, "bot", bot=bot) if bot is not None else Seat(seat, "open")
            await asyncio.to_thread(self.store.set_seat, room.id, seat, st.kind, bot=st.bot)
            room.seats[seat] = st
        await self.broadcast(room)

    async def start_table(self, room: Room, fill: str | None) -> None:
        async with room.lock:
            if room.status != "waiting":
                raise ActError("started", "the table has already started")
            if fill is not None:
                self._check_bot(fill, room.table.game)
                fill = fill.removeprefix("bot:")
            for s, st in enumerate(room.seats):
                if st.kind == "open":
                    if fill is None:
                        raise ActError("seat_open", f"seat {s} is open: seat someone or a bot")
                    room.seats[s] = Seat(s, "bot", bot=fill)
                    await asyncio.to_thread(self.store.set_seat, room.id, s, "bot", bot=fill)
            await asyncio.to_thread(self.store.set_status, room.id, "playing")
            room.match = self._new_match(room)
            self._make_bots(room)
            now = self.clock()
            room.turn_started = now
            room.away_since = {s: now for s in range(room.table.players) if not room.connected(s)}
        self._ensure_driver(room)
        await self.broadcast(room)

    # ------------------------------------------------------------------ actions
    async def act(
        self, room: Room, seat: int | None, action: Any, version: Any, by: str = "human"
    ) -> None:
        """Apply ``action`` for ``seat`` if it is legal now, store it, then broadcast."""
        async with room.lock:
            m = room.match
            if m is None:
                raise ActError("not_started", "the table has not started")
            if m.is_over:
                raise ActError("over", "the match is over")
            if seat is None:
                raise ActError("unauthorized", "a spectator cannot act", 403)
            if version is not None and version != room.version:
                raise ActError(
                    "stale_version",
                    f"the table is at version {room.version}, not {version}: "
                    "look at the new state first",
                )
            if m.to_play != seat:
                raise ActError("not_your_turn", f"it is seat {m.to_play}'s turn, not {seat}'s")
            if not isinstance(action, str) or not action.strip():
                raise ActError("bad_message", "an action is a non-empty string", 400)
            g = m.game
            try:
                canon = g.action_str(g.parse_action(action))
                if canon not in m.legal_actions():
                    m.play(canon)  # raises IllegalAction saying why; the match is unchanged
                    raise ActError("illegal", f"{canon!r} is not legal now")  # pragma: no cover
            except (IllegalAction, TorampuError, ValueError) as e:
                raise ActError("illegal", str(e)) from None
            # stored first, off the event loop (the other tables go on while this write
            # commits); the match and every snapshot move on only once it is stored
            try:
                after = self._status_after(m, canon)
                await asyncio.to_thread(
                    self.store.append_action, room.id, room.version, seat, canon, by, after
                )
            except Exception as e:  # another writer moved first, or the database failed
                log.warning("table %s: write refused (%s); reloading", room.id, e)
                with contextlib.suppress(Exception):
                    self._reload(room)
                code = "stale_version" if isinstance(e, StaleVersion) else "storage"
                raise ActError(code, f"not applied: {e}") from None
            m.play(canon)
            room.version += 1
            room.last = {"seat": seat, "action": canon, "by": by}
            room.turn_started = self.clock()
            room.changed.set()
        await self.broadcast(room)

    @staticmethod
    def _status_after(m: Match, action: str) -> str:
        """The table's status once ``action`` (legal) is played: ``over`` if it ends the
        match (the last game, and no seat left to play after it), else ``playing``."""
        if m.games_played < m.games_total - 1:
            return "playing"
        g = m.game.clone()
        g.play(action)
        return "over" if g.is_over else "playing"

    def _reload(self, room: Room) -> None:
        table = self.store.table(room.id)
        if table is None:  # pragma: no cover - tables are never deleted
            raise StoreError(f"table {room.id} vanished")
        self._load(table, room)

    # ------------------------------------------------------------------ clients
    async def connect(self, room: Room, client: Client) -> None:
        room.clients.add(client)
        if client.seat is not None:
            room.away_since.pop(client.seat, None)
        room.changed.set()
        await self.broadcast(room)

    async def disconnect(self, room: Room, client: Client) -> None:
        room.clients.discard(client)
        if client.seat is not None and not room.connected(client.seat):
            room.away_since[client.seat] = self.clock()
        room.changed.set()
        await self.broadcast(room)

    def public_table(self, room: Room) -> dict[str, Any]:
        m = room.match
        return {
            "id": room.id,
            "game": room.table.game,
            "rules": room.table.rules,
            "preset": room.table.preset,
            "players": room.table.players,
            "games": room.table.games,
            "status": room.status,
            "version": room.version,
            "games_played": m.games_played if m is not None else 0,
            "created": room.table.created.isoformat(),
            "to_play": m.to_play if m is not None else None,
            "seats": [
                {
                    "seat": s,
                    "kind": st.kind,
                    "name": st.name,
                    "bot": st.bot,
                    "connected": st.kind == "bot" or room.connected(s),
                    "away": self._away(room, s),
                }
                for s, st in enumerate(room.seats)
            ],
        }

    def _away(self, room: Room, seat: int) -> bool:
        if room.seats[seat].kind != "human" or room.status != "playing":
            return False
        since = room.away_since.get(seat)
        return since is not None and self.clock() - since >= self.settings.away_timeout

    def snapshot(self, room: Room, seat: int | None) -> dict[str, Any]:
        """What one client may see now: built from ``view(seat)`` and the public table."""
        m = room.match
        view = m.view(seat) if m is not None else None
        legal = (
            m.legal_actions() if m is not None and seat is not None and m.to_play == seat else []
        )
        last = room.last
        if last is not None and last["seat"] != seat and m is not None:
            hidden = m.game.hidden_from(seat)
            if cards_mentioned(last["action"]) & hidden or self._private(last["action"]):
                last = {**last, "action": last["action"].split()[0]}
        return {
            "type": "snapshot",
            "version": room.version,
            "seat": seat,
            "table": self.public_table(room),
            "view": view,
            "legal": legal,
            "last": last,
        }

    @staticmethod
    def _private(action: str) -> bool:
        """Actions whose cards stay private even once they are out of the hand: discards,
        exchanges and gives go face down to one seat or out of the game."""
        return action.split()[0] in ("discard", "exchange", "give")

    async def send(self, client: Client, message: dict[str, Any]) -> None:
        try:
            await client.send(message)
        except Exception:  # a broken connection: its handler will disconnect it
            log.debug("send failed", exc_info=True)

    async def broadcast(self, room: Room) -> None:
        for client in list(room.clients):
            await self.send(client, self.snapshot(room, client.seat))

    # ------------------------------------------------------------------ bots and timers
    def _ensure_driver(self, room: Room) -> None:
        if room.driver is None or room.driver.done():
            room.driver = asyncio.get_running_loop().create_task(self._drive(room))

    def _who_moves(self, room: Room) -> tuple[str | None, float]:
        """Who makes the next move for the server (``bot``, ``away``, ``timeout``) and when
        (seconds from now; ``inf`` and ``None`` when it is a present human's to make)."""
        m = room.match
        assert m is not None
        seat = m.to_play
        assert seat is not None
        st = room.seats[seat]
        if st.kind != "human":
            return "bot", 0.0
        now = self.clock()
        wait = float("inf")
        since = room.away_since.get(seat)
        if since is not None:
            left = since + self.settings.away_timeout - now
            if left <= 0:
                return "away", 0.0
            wait = left
        if self.settings.turn_timeout > 0:
            left = room.turn_started + self.settings.turn_timeout - now
            if left <= 0:
                return "timeout", 0.0
            wait = min(wait, left)
        return None, wait

    async def _drive(self, room: Room) -> None:
        delay = self.settings.bot_delay
        while not self._closing:
            m = room.match
            if m is None or m.is_over:
                return
            room.changed.clear()
            who, wait = self._who_moves(room)
            if who is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        room.changed.wait(), None if wait == float("inf") else wait
                    )
                continue
            version = room.version
            if delay > 0:  # a natural pause: between 3/4 and 5/4 of the delay
                await asyncio.sleep(delay * (0.75 + 0.5 * self._jitter.random()))
                if room.version != version or self._who_moves(room)[0] is None:
                    continue  # something happened meanwhile (the human came back, say)
            seat = m.to_play
            assert seat is not None
            view, legal = m.view(seat), m.legal_actions()
            bot = room.bots[seat]
            try:
                action = await asyncio.to_thread(bot.choose, view, legal)
            except Exception:
                log.exception(
                    "table %s: the bot of seat %s failed; it plays %s", room.id, seat, legal[0]
                )
                action = legal[0]
            try:
                await self.act(room, seat, action, version, who)
            except ActError as e:
                log.info("table %s: the bot's move was refused: %s", room.id, e)
                await asyncio.sleep(0.05)
