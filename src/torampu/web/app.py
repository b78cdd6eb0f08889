"""The web server: HTTP API, one websocket per table, and the browser front end.

``create_app(settings)`` builds a FastAPI application; ``torampu serve`` runs it with uvicorn.
The protocol is described in ``docs/web.md``. Every request is checked here for its form (JSON,
sizes, tokens) and passed to :class:`~torampu.web.rooms.Lobby`, which owns the tables.

>>> from fastapi.testclient import TestClient
>>> with TestClient(create_app(Settings(database="sqlite://"))) as client:
...     client.get("/api/health").json()["status"]
'ok'
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

import torampu
from torampu.bots import bot_kinds
from torampu.web.rooms import BOT_SPECS, ActError, Client, Lobby, Room, Settings
from torampu.web.store import Store

STATIC = Path(__file__).parent / "static"
MAX_BODY = 65536
log = logging.getLogger("torampu.web")

CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "media-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "require-trusted-types-for 'script'",
        "trusted-types torampu-svg",
    ]
)
"""The Content-Security-Policy of every response: scripts and styles only from this server's
``/static`` files (no inline script, no ``style`` attribute, no ``eval``), no framing, and
Trusted Types: ``innerHTML`` takes only what the page's one policy (``torampu-svg``: the card
and suit drawings of ``cards.js``) hands it, so a string from a player can never become markup."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}
"""Sent with every HTTP response (pages, static files, the API)."""

BOT_LABELS = {
    "heuristic": ("Heuristic (fast, solid)", "ヒューリスティック(速い・堅実)"),
    "random": ("Random (beginner)", "ランダム(初心者)"),
    "ismcts:think=0.3": ("Search, 0.3 s a move", "探索(1手0.3秒)"),
    "ismcts:think=1": ("Search, 1 s a move (strongest)", "探索(1手1秒・最強)"),
}


def _error(e: ActError) -> JSONResponse:
    return JSONResponse({"error": {"code": e.code, "message": str(e)}}, status_code=e.status)


async def _body(request: Request) -> dict[str, Any]:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ActError("too_large", f"the body is over {MAX_BODY} bytes", 413)
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ActError("too_large", f"the body is over {MAX_BODY} bytes", 413)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ActError("bad_request", f"the body is not JSON: {e}", 400) from None
    if not isinstance(data, dict):
        raise ActError("bad_request", "the body must be a JSON object", 400)
    return data


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


@functools.cache
def _games_info() -> list[dict[str, Any]]:
    out = []
    for name in torampu.games():
        options = torampu.rules(name)
        players = next((o for o in options if o["name"] == "players"), None)
        values = list(players.get("values") or []) if players else []
        info = {
            "name": name,
            "players": {
                "default": players["default"] if players else None,
                "min": min(values) if values else None,
                "max": max(values) if values else None,
            },
            "presets": torampu.presets(name),
            "options": options,
        }
        out.append(json.loads(json.dumps(info, default=str)))
    return out


def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    """The server application, on ``store`` (else one opened and migrated from ``settings``
    when it starts); the store is closed when the application stops."""
    settings = settings or Settings()
    state: dict[str, Lobby] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        db = store if store is not None else Store(settings.database_url())
        lobby = Lobby(db, settings)
        state["lobby"] = lobby
        await lobby.start()
        try:
            yield
        finally:
            await lobby.stop()
            db.close()

    app = FastAPI(title="torampu", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    def lobby() -> Lobby:
        return state["lobby"]

    def room(table_id: str) -> Room:
        return lobby().room(table_id)

    @app.exception_handler(ActError)
    async def on_act_error(_request: Request, e: ActError) -> JSONResponse:
        return _error(e)

    # ---------------------------------------------------------------- pages
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def index() -> Response:
        page = STATIC / "index.html"
        if not page.exists():
            return JSONResponse({"error": {"code": "no_page", "message": "no front end"}}, 404)
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    app.get("/", include_in_schema=False)(index)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return index()

    @app.get("/t/{table_id}/replay/{k}", include_in_schema=False)
    async def replay_page(table_id: str, k: int) -> Response:
        return index()

    # ---------------------------------------------------------------- API
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        lb = lobby()
        return {
            "status": "ok",
            "database": lb.store.dialect,
            "tables": lb.store.count_tables(),
            "version": torampu.__version__,
        }

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        return {"games": _games_info()}

    @app.get("/api/bots")
    async def bots() -> dict[str, Any]:
        kinds = set(bot_kinds())
        return {
            "bots": [
                {"spec": spec, "label": {"en": en, "ja": ja}}
                for spec, (en, ja) in BOT_LABELS.items()
                if spec.split(":")[0] in kinds and spec in BOT_SPECS
            ]
        }

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        body = await _body(request)
        game = body.get("game")
        if not isinstance(game, str):
            raise ActError("bad_request", "game must be one of " + ", ".join(torampu.games()), 400)
        seats = body.get("seats")
        if seats is not None and not (
            isinstance(seats, list) and all(isinstance(s, str) for s in seats)
        ):
            raise ActError("bad_request", "seats must be a list of 'open' or bot specs", 400)
        for key in ("players", "games"):
            v = body.get(key)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise ActError("bad_request", f"{key} must be a whole number, not {v!r}", 400)
        r, token = lobby().create(
            game, body.get("rules"), body.get("players"), body.get("games"), seats
        )
        return {"table": lobby().public_table(r), "host_token": token}

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        lb = lobby()
        out = []
        for t in lb.store.tables():
            out.append(lb.public_table(lb.room(t.id)))
        return {"tables": out}

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return lobby().public_table(room(table_id))

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        r = room(table_id)
        body = await _body(request)
        seat, token = await lobby().join(r, body.get("name"), body.get("seat"))
        return {"seat": seat, "token": token, "table": lobby().public_table(r)}

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def set_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        r = room(table_id)
        lobby().check_host(r, _bearer(request))
        body = await _body(request)
        if body.get("open") is True:
            await lobby().set_seat(r, seat, None)
        elif isinstance(body.get("bot"), str):
            await lobby().set_seat(r, seat, body["bot"])
        else:
            raise ActError("bad_request", 'send {"bot": spec} or {"open": true}', 400)
        return lobby().public_table(r)

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, request: Request) -> dict[str, Any]:
        r = room(table_id)
        lobby().check_host(r, _bearer(request))
        body = await _body(request)
        fill = body.get("fill")
        if fill is not None and not isinstance(fill, str):
            raise ActError("bad_request", "fill must be a bot spec", 400)
        await lobby().start_table(r, fill)
        return lobby().public_table(r)

    def _finished(r: Room, k: int) -> dict[str, Any]:
        m = r.match
        if m is None or not 0 <= k < m.games_played:
            played = 0 if m is None else m.games_played
            raise ActError("not_found", f"no finished game {k} (finished: {played})", 404)
        return m.records[k]

    @app.get("/api/tables/{table_id}/games")
    async def finished_games(table_id: str) -> dict[str, Any]:
        m = room(table_id).match
        records = [] if m is None else m.records
        return {"games": [{"index": k, "result": rec["result"]} for k, rec in enumerate(records)]}

    @app.get("/api/tables/{table_id}/games/{k}/record")
    async def game_record(table_id: str, k: int) -> Response:
        rec = _finished(room(table_id), k)
        return JSONResponse(
            rec,
            headers={"Content-Disposition": f'attachment; filename="{table_id}-game{k + 1}.json"'},
        )

    @app.get("/api/tables/{table_id}/games/{k}/replay")
    async def game_replay(table_id: str, k: int, seat: int | None = None) -> dict[str, Any]:
        rec = _finished(room(table_id), k)
        if seat is not None and not 0 <= seat < int(rec["players"]):
            raise ActError("not_found", f"no seat {seat}", 404)
        g = torampu.replay({**rec, "actions": []})
        steps = [{"seat": None, "action": None, "view": g.view(seat)}]
        for step in rec["actions"]:
            g.play(step["action"])
            steps.append({"seat": step["seat"], "action": step["action"], "view": g.view(seat)})
        return {"game": k, "seat": seat, "result": rec["result"], "steps": steps}

    @app.get("/api/tables/{table_id}/record")
    async def match_record(table_id: str) -> Response:
        r = room(table_id)
        if r.match is None or not r.match.is_over:
            raise ActError("not_over", "the match record is there once the match is over")
        return JSONResponse(
            r.match.to_record(),
            headers={"Content-Disposition": f'attachment; filename="{table_id}.json"'},
        )

    # ---------------------------------------------------------------- websocket
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        lock = asyncio.Lock()

        async def send(message: dict[str, Any]) -> None:
            async with lock:
                await ws.send_text(json.dumps(message, ensure_ascii=False))

        async def error(code: str, message: str) -> None:
            await send({"type": "error", "code": code, "message": message})

        lb = lobby()
        try:
            r = lb.room(table_id)
        except ActError as e:
            await error(e.code, str(e))
            await ws.close(code=4404)
            return
        client: Client | None = None
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    await error("bad_message", "messages are JSON text, not binary")
                    continue
                if len(text.encode()) > settings.max_message:
                    await error("too_large", f"a message is at most {settings.max_message} bytes")
                    continue
                try:
                    data = json.loads(text)
                except ValueError as e:
                    await error("bad_message", f"not JSON: {e}")
                    continue
                if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                    await error("bad_message", 'a message is an object with a "type"')
                    continue
                kind = data["type"]
                if kind == "ping":
                    await send({"type": "pong"})
                elif kind == "hello":
                    try:
                        seat = lb.seat_of(r, data.get("token"))
                    except ActError as e:
                        await error(e.code, str(e))
                        continue
                    if client is not None:
                        await lb.disconnect(r, client)
                    client = Client(seat, send)
                    await lb.connect(r, client)
                elif client is None:
                    await error("bad_message", 'send "hello" first')
                elif kind == "act":
                    try:
                        await lb.act(r, client.seat, data.get("action"), data.get("version"))
                    except ActError as e:
                        await error(e.code, str(e))
                else:
                    await error("bad_message", f"unknown message type {kind!r}")
        except WebSocketDisconnect:
            pass
        finally:
            if client is not None:
                await lb.disconnect(r, client)

    return app
