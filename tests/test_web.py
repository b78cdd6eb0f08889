"""The web server (``torampu serve``): every HTTP route and websocket message, bad input that
changes nothing, reconnection, absence and turn timers, restarts, two writers, and the leak test.

The server runs in-process (Starlette's TestClient) on a temporary SQLite store; bots move with
no delay. Storage against PostgreSQL is in ``test_web_store.py``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import torampu
from torampu.cards import card_str
from torampu.match import keyed_seed
from torampu.testing import cards_mentioned
from torampu.web.rooms import holder_id, newest_log, token_hash
from torampu.web.store import Store
from web_helpers import auth, client, new_table, play_out_elsewhere, play_through, receive
from web_helpers import hello as _hello


# ------------------------------------------------------------------------------------ HTTP
def test_health_games_bots(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        h = c.get("/api/health")
        assert h.status_code == 200
        assert h.json() == {"status": "ok", "database": "sqlite", "tables": 0, "version": "0.1.0"}
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
        assert set(games) == {"napoleon", "nap", "hell", "daifugo"}
        assert "classic" in games["napoleon"]["presets"]
        assert "yaita" in games["daifugo"]["presets"]
        assert {o["name"] for o in games["napoleon"]["options"]} >= {"killers", "joker_mode"}
        assert games["napoleon"]["players"]["default"] == 5
        specs = [b["spec"] for b in c.get("/api/bots").json()["bots"]]
        assert "heuristic" in specs and "random" in specs
    assert (tmp_path / "torampu.db").exists()  # created on first start


def test_the_page_is_served(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for path in ("/", "/t/abc", "/t/abc/replay/0"):
            r = c.get(path)
            assert r.status_code == 200
            assert "<html" in r.text.lower()


def test_create_join_seat_start(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.post(
            "/api/tables",
            json={
                "game": "hell",
                "rules": {"hook": False},
                "players": 4,
                "games": 3,
                "seats": ["open", "bot:random", "open", "open"],
            },
        )
        assert r.status_code == 201, r.text
        table, host = r.json()["table"], r.json()["host_token"]
        tid = table["id"]
        assert table["status"] == "waiting" and table["players"] == 4 and table["games"] == 3
        assert table["rules"]["hook"] is False and table["preset"] is None
        assert [s["kind"] for s in table["seats"]] == ["open", "bot", "open", "open"]
        j = c.post(f"/api/tables/{tid}/join", json={"name": "Aki"}).json()
        holder = j["table"]["seats"][0]["holder"]  # (public, 8 hex digits: no token)
        assert isinstance(holder, str) and re.fullmatch(r"[0-9a-f]{8}", holder)
        assert j["seat"] == 0 and j["table"]["seats"][0] == {
            "seat": 0,
            "kind": "human",
            "name": "Aki",
            "bot": None,
            "connected": False,
            "away": False,
            "holder": holder,
        }
        assert c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 0}).status_code == 409
        assert c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 1}).status_code == 409
        assert c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 9}).status_code == 404
        assert c.post(f"/api/tables/{tid}/join", json={"name": ""}).status_code == 400
        assert c.post(f"/api/tables/{tid}/join", json={"name": "B", "seat": "2"}).status_code == 400
        assert (
            c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 2}).json()["seat"] == 2
        )
        # seats: host only, before the start
        seat3 = f"/api/tables/{tid}/seats/3"
        assert c.post(seat3, json={"bot": "heuristic"}).status_code == 401
        assert c.post(seat3, json={"bot": "heuristic"}, headers=auth("nope")).status_code == 403
        assert c.post(seat3, json={"bot": "nosuch"}, headers=auth(host)).status_code == 400
        assert c.post(seat3, json={"x": 1}, headers=auth(host)).status_code == 400
        t = c.post(seat3, json={"bot": "heuristic"}, headers=auth(host)).json()
        assert t["seats"][3]["kind"] == "bot" and t["seats"][3]["bot"] == "heuristic"
        t = c.post(seat3, json={"open": True}, headers=auth(host)).json()
        assert t["seats"][3]["kind"] == "open"
        start = f"/api/tables/{tid}/start"
        r = c.post(start, json={}, headers=auth(host))
        assert r.status_code == 409 and "seat 3" in r.json()["error"]["message"]
        assert c.get(f"/api/tables/{tid}").json()["status"] == "waiting"
        assert c.post(start, json={"fill": "heuristic"}, headers=auth("bad")).status_code == 403
        t = c.post(start, json={"fill": "heuristic"}, headers=auth(host)).json()
        assert t["status"] == "playing" and t["seats"][3]["bot"] == "heuristic"
        assert c.post(start, json={"fill": "heuristic"}, headers=auth(host)).status_code == 409
        assert c.post(seat3, json={"open": True}, headers=auth(host)).status_code == 409
        assert c.post(f"/api/tables/{tid}/join", json={"name": "Cy"}).status_code == 409
        listed = c.get("/api/tables").json()["tables"]
        assert [x["id"] for x in listed] == [tid]
        r = c.post("/api/tables", json={"game": "daifugo", "rules": {"preset": "yaita"}})
        assert r.json()["table"]["preset"] == "yaita"
        assert c.get("/api/health").json()["tables"] == 2


def test_a_player_gets_up_before_the_start_and_nothing_else_can(tmp_path: Path) -> None:
    """One could take a seat but never leave it: a wrong seat, or a table one no longer wants
    (with --seats-per-address, a seat held for nothing). Before the start the seat token's
    holder gets up: the seat is open, the token holds nothing, its socket watches on and is told
    so; nobody is barred, and the same person may sit again. Another token, the host token, a
    started table: refused, and nothing changes."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 3}).json()
        tid, host = made["table"]["id"], made["host_token"]
        aki = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 1}).json()["token"]
        ben = c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 2}).json()["token"]
        leave = f"/api/tables/{tid}/leave"
        for token, status in ((None, 401), ("x" * 43, 403), (host, 403), ("x" * 500, 401)):
            r = c.post(leave, json={}, headers=auth(token) if token else {})
            assert r.status_code == status and r.json()["error"]["code"] == "unauthorized", r.text
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert _hello(ws, aki)["seat"] == 1
            r = c.post(leave, json={}, headers=auth(aki))
            assert r.status_code == 200, r.text
            assert r.json()["seat"] == 1 and r.json()["table"]["seats"][1]["kind"] == "open"
            msg = receive(ws)
            assert msg["type"] == "error" and msg["code"] == "seat_revoked", msg
            while msg["type"] != "snapshot":
                msg = receive(ws)
            assert msg["seat"] is None and msg["table"]["seats"][1]["kind"] == "open"
        r = c.post(leave, json={}, headers=auth(aki))
        assert r.status_code == 403, "the token holds nothing now"
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 1})
        assert r.status_code == 200, "getting up bars nobody"
        c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        r = c.post(leave, json={}, headers=auth(ben))
        assert r.status_code == 409 and r.json()["error"]["code"] == "started", r.text
        assert c.get(f"/api/tables/{tid}").json()["seats"][2]["name"] == "Ben"


def test_a_player_leaves_a_game_in_progress_and_a_bot_plays_their_seat_at_once(
    tmp_path: Path,
) -> None:
    """A forty-first review: a player who had to go could only close the page, and the others
    waited --away-timeout (a minute) at each of their turns, for a stand-in until the player
    came back — they never would. With ``in_play: true`` the holder of a seat token leaves the
    game for good: the stand-in bot plays the seat to the match's end at once, the token holds
    nothing, its socket is told ``seat_revoked`` and watches without the hand, and the others'
    chat says so. A leave without it in play is refused as ever (a "Leave seat" pressed as the
    host started must not hand the seat to a bot); a bad ``in_play``, another token, the host
    token, a match over: refused, and nothing changes. (--away-timeout is an hour here: only
    the bot can have played Ben's seat to the end.)"""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 3, "games": 2}).json()
        tid, host = made["table"]["id"], made["host_token"]
        aki = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 0}).json()["token"]
        ben = c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 1}).json()["token"]
        leave = f"/api/tables/{tid}/leave"
        r = c.post(leave, json={"in_play": True}, headers=auth(ben))
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_started", r.text
        c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        for bad in ("yes", 1, None, [True]):
            r = c.post(leave, json={"in_play": bad}, headers=auth(ben))
            assert r.status_code == 400 and "in_play" in r.json()["error"]["message"], r.text
        r = c.post(leave, json={}, headers=auth(ben))
        assert r.status_code == 409 and r.json()["error"]["code"] == "started", r.text
        for token, status in ((None, 401), ("x" * 43, 403), (host, 403)):
            r = c.post(leave, json={"in_play": True}, headers=auth(token) if token else {})
            assert r.status_code == status and r.json()["error"]["code"] == "unauthorized", r.text
        assert c.get(f"/api/tables/{tid}").json()["seats"][1]["name"] == "Ben"
        with (
            c.websocket_connect(f"/ws/tables/{tid}") as mine,
            c.websocket_connect(f"/ws/tables/{tid}") as bens,
        ):
            first = _hello(mine, aki)
            assert _hello(bens, ben)["seat"] == 1
            r = c.post(leave, json={"in_play": True}, headers=auth(ben))
            assert r.status_code == 200, r.text
            seat = r.json()["table"]["seats"][1]
            assert r.json()["seat"] == 1 and seat["kind"] == "bot", seat
            assert seat["bot"] == "heuristic" and seat["name"] == "Ben", seat  # (the standings')
            msg = receive(bens)
            assert msg["type"] == "error" and msg["code"] == "seat_revoked", msg
            while msg["type"] != "snapshot":
                msg = receive(bens)
            assert msg["seat"] is None and not msg["legal"], msg
            assert not msg["view"].get("hand"), "a hand shown to a socket whose seat went"
            seen: list[dict[str, Any]] = []
            last = play_through(mine, seen=seen, first=first)
        assert last["table"]["status"] == "over"
        said = [m for m in seen if m["type"] == "chat" and m.get("event")]
        assert {"kind": "left", "seat": 1, "who": "Ben", "bot": True} in [
            m["event"] for m in said
        ], said
        r = c.post(leave, json={"in_play": True}, headers=auth(ben))
        assert r.status_code == 403, "the token holds nothing now"
        r = c.post(leave, json={"in_play": True}, headers=auth(aki))
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_playing", r.text
    store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
    acts = store.actions(tid)
    store.close()
    assert {a.by for a in acts if a.seat == 0} == {"human"}
    assert {a.by for a in acts if a.seat == 1} == {"bot"}, "the seat stood, or a stand-in moved"


def test_a_move_by_a_seat_another_process_handed_to_the_bot_is_refused(tmp_path: Path) -> None:
    """A fifty-first audit (defence in depth): each process checks a person's move against its
    own copy of the seats, and one that had not yet heard that the player left the game on
    another process would have stored the leaver's move. The move's token is checked against
    the stored seat under the table row's lock too: refused ``seat_revoked``, nothing stored,
    and the process reads the seat again."""
    with client(tmp_path, bot_delay=60.0) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 3, "games": 2}).json()
        tid, host = made["table"]["id"], made["host_token"]
        tokens = [
            c.post(f"/api/tables/{tid}/join", json={"name": n, "seat": i}).json()["token"]
            for i, n in enumerate(("Aki", "Ben", "Cy"))
        ]
        c.post(f"/api/tables/{tid}/start", json={}, headers=auth(host))
        store = c.app.state.lobby.store  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            first = _hello(ws, tokens[0])
            seat = first["view"]["to_play"]
            snap = _hello(ws, tokens[seat]) if seat else first
            assert snap["seat"] == seat and snap["legal"], snap
            # another process hands the seat to the bot: this one has not heard
            store.hand_seat_to_bot(tid, seat, token_hash(tokens[seat]), "heuristic")
            ws.send_json({"type": "act", "action": snap["legal"][0], "version": snap["version"]})
            msg = receive(ws)
            while msg["type"] == "snapshot":  # (the seats read again, drawn)
                assert msg["version"] == snap["version"], "the leaver's move was played"
                msg = receive(ws)
            assert msg["type"] == "error" and msg["code"] == "seat_revoked", msg
        assert store.actions(tid) == [], "the leaver's move was stored"
        assert store.table(tid).seats[seat].kind == "bot"


def test_a_host_who_left_the_game_cannot_close_the_others_match(tmp_path: Path) -> None:
    """A code review: the host may close a table in play that one person plays at alone (a quick
    game with bots); a host who played with a friend left the game — their seat the bot's — and
    then closed the friend's match, its moves and chat deleted. A seat its person left in play
    counts as theirs (it keeps their name); at the rematch it is a bot's like any other."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 3}).json()
        tid, host = made["table"]["id"], made["host_token"]
        aki = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 0}).json()["token"]
        c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 1})
        c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        close = f"/api/tables/{tid}/close"
        r = c.post(close, json={}, headers=auth(host))
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_closable", r.text
        r = c.post(f"/api/tables/{tid}/leave", json={"in_play": True}, headers=auth(aki))
        assert r.status_code == 200, r.text
        r = c.post(close, json={}, headers=auth(host))
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_closable", r.text
        assert c.get(f"/api/tables/{tid}").status_code == 200
        play_out_elsewhere(c, tid)
        c.app.state.lobby.rooms.clear()  # type: ignore[attr-defined]  # (read from the store)
        r = c.post(f"/api/tables/{tid}/rematch", json={}, headers=auth(host))
        assert r.status_code == 200, r.text
        seats = r.json()["table"]["seats"]
        assert seats[0]["kind"] == "bot" and not seats[0].get("name"), seats
        assert seats[1]["name"] == "Ben" and seats[1]["kind"] == "human", seats


def test_a_player_who_left_the_rematch_in_play_cannot_take_the_seat_back(tmp_path: Path) -> None:
    """A code review: a person whose seat a rematch's bot took (gone when it was made) takes it
    back by asking the old table for its rematch; one who left the rematch's game in play took
    it back the same way — "for good", as the page had asked them, and the others had been
    told. A seat left in play stays the bot's."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 3}).json()
        tid, host = made["table"]["id"], made["host_token"]
        c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 0})
        ben = c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 1}).json()["token"]
        c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        play_out_elsewhere(c, tid)
        c.app.state.lobby.rooms.clear()  # type: ignore[attr-defined]  # (read from the store)
        new = c.post(f"/api/tables/{tid}/rematch", json={}, headers=auth(host)).json()["table"]
        assert new["seats"][1]["kind"] == "human", new
        r = c.post(f"/api/tables/{new['id']}/leave", json={"in_play": True}, headers=auth(ben))
        assert r.status_code == 200, r.text
        r = c.post(f"/api/tables/{tid}/rematch", json={}, headers=auth(ben))  # (the old table)
        seat = c.get(f"/api/tables/{new['id']}").json()["seats"][1]
        assert seat["kind"] == "bot" and seat["name"] == "Ben", (r.text, seat)


def test_a_player_changes_their_name_before_the_start_and_nothing_else_can(tmp_path: Path) -> None:
    """A second review: a blank name became "Player N" and stayed so. Before the start the seat
    token's holder sits under another name, which everyone's snapshot shows at once; a bad name,
    another token, the host token, a seat left, a started table: refused, nothing changes."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 3}).json()
        tid, host = made["table"]["id"], made["host_token"]
        aki = c.post(f"/api/tables/{tid}/join", json={"name": "Player 2", "seat": 1}).json()
        ben = c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 2}).json()
        rename = f"/api/tables/{tid}/name"
        for token, status in ((None, 401), ("x" * 43, 403), (host, 403), ("x" * 500, 401)):
            r = c.post(rename, json={"name": "Eve"}, headers=auth(token) if token else {})
            assert r.status_code == status and r.json()["error"]["code"] == "unauthorized", r.text
        for bad in ("", "   ", "x" * 41, "a\u202eb", "\x00", None, 7, ["Aki"]):
            r = c.post(rename, json={"name": bad}, headers=auth(aki["token"]))
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request", (
                bad,
                r.text,
            )
        assert [s.get("name") for s in c.get(f"/api/tables/{tid}").json()["seats"]] == [
            None,
            "Player 2",
            "Ben",
        ]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert _hello(ws, ben["token"])["seat"] == 2
            r = c.post(rename, json={"name": "  Aki  "}, headers=auth(aki["token"]))
            assert r.status_code == 200, r.text
            assert r.json()["seat"] == 1 and r.json()["table"]["seats"][1]["name"] == "Aki"
            msg = ws.receive_json()
            while msg["type"] != "snapshot":
                msg = ws.receive_json()
            assert msg["seat"] == 2 and msg["table"]["seats"][1]["name"] == "Aki"
        left = c.post(f"/api/tables/{tid}/leave", json={}, headers=auth(ben["token"]))
        assert left.status_code == 200
        r = c.post(rename, json={"name": "Ben2"}, headers=auth(ben["token"]))
        assert r.status_code == 403, "the token holds nothing now"
        c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        r = c.post(rename, json={"name": "Akiko"}, headers=auth(aki["token"]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "started", r.text
        assert c.get(f"/api/tables/{tid}").json()["seats"][1]["name"] == "Aki"
    store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
    row = store.table(tid)
    store.close()
    assert row is not None and row.seats[1].name == "Aki"


def _seen(ws: Any, seat: int, name: str | None) -> dict[str, Any]:
    """The first snapshot on ``ws`` that shows ``name`` at ``seat`` (what came before it
    skipped; the error codes among it in ``["told"]``)."""
    told = []
    while True:
        msg = receive(ws)
        if msg["type"] != "snapshot":
            told.append(msg.get("code"))
        elif msg["table"]["seats"][seat].get("name") == name:
            return {**msg, "told": told}


def test_a_player_moves_to_an_open_seat_before_the_start_and_nothing_else_can(
    tmp_path: Path,
) -> None:
    """Seat order matters (who leads, who sits beside whom), and one could only leave and hope
    to take the other seat first. Before the start the seat token's holder moves to an open
    seat: name and token go along, their socket follows (it is not made a spectator's), and
    everyone sees it. A taken seat, a bad seat, another token, a started table: refused, and
    nothing changes."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 4}).json()
        tid, host = made["table"]["id"], made["host_token"]
        aki = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 0}).json()["token"]
        ben = c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 1}).json()["token"]
        move = f"/api/tables/{tid}/move"
        for token, status in ((None, 401), ("x" * 43, 403), (host, 403)):
            r = c.post(move, json={"seat": 3}, headers=auth(token) if token else {})
            assert r.status_code == status and r.json()["error"]["code"] == "unauthorized", r.text
        for bad, status in ((1, 409), (4, 404), (-1, 404), ("2", 400), (True, 400), (None, 400)):
            r = c.post(move, json={"seat": bad}, headers=auth(aki))
            assert r.status_code == status, (bad, r.text)
        names = [s.get("name") for s in c.get(f"/api/tables/{tid}").json()["seats"]]
        assert names == ["Aki", "Ben", None, None], "nothing changed"
        with (
            c.websocket_connect(f"/ws/tables/{tid}") as mine,
            c.websocket_connect(f"/ws/tables/{tid}") as his,
        ):
            assert _hello(mine, aki)["seat"] == 0 and _hello(his, ben)["seat"] == 1
            r = c.post(move, json={"seat": 3}, headers=auth(aki))
            assert r.status_code == 200, r.text
            seats = r.json()["table"]["seats"]
            assert r.json()["seat"] == 3 and seats[3]["name"] == "Aki"
            assert seats[0]["kind"] == "open" and seats[3]["connected"] is True
            snap = _seen(mine, 3, "Aki")
            assert snap["seat"] == 3 and "seat_revoked" not in snap["told"], snap["told"]
            assert _seen(his, 3, "Aki")["seat"] == 1
            # the token holds seat 3 now: leaving frees it, a second move goes from there
            r = c.post(move, json={"seat": 2}, headers=auth(aki))
            assert r.json()["seat"] == 2 and _seen(mine, 2, "Aki")["seat"] == 2
        c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        r = c.post(move, json={"seat": 0}, headers=auth(aki))
        assert r.status_code == 409 and r.json()["error"]["code"] == "started", r.text
        t = c.get(f"/api/tables/{tid}").json()
        assert [s["name"] for s in t["seats"]][1:3] == ["Ben", "Aki"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            snap = _hello(ws, aki)  # the token plays seat 2: its cards are seat 2's
            assert snap["seat"] == 2 and snap["view"]["seat"] == 2


def test_a_join_to_any_seat_takes_the_next_when_another_process_took_the_first(
    tmp_path: Path,
) -> None:
    """A seventh scale audit: five joins without a seat, split between two processes, left two
    of them told "seat 1 is taken" — a seat they never chose — with two seats still open: the
    process took the first open seat of its own copy and gave up when the write found it
    taken. Here the other process's joins are written to the database behind this one's back;
    a join to any seat takes the next open one, and is refused only when none is left."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 3}).json()
        tid = made["table"]["id"]
        store = c.app.state.lobby.store  # type: ignore[attr-defined]
        c.get(f"/api/tables/{tid}")  # (this process holds the table, every seat open)
        for s in (0, 1):  # (two friends, on another process)
            assert store.set_seat(tid, s, "human", f"F{s}", f"token{s}", only_if_open=True)
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Aki"})
        assert r.status_code == 200 and r.json()["seat"] == 2, r.text
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Ben"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken", r.text
        seats = c.get(f"/api/tables/{tid}").json()["seats"]
        assert [s.get("name") for s in seats] == ["F0", "F1", "Aki"], seats


def test_a_seat_change_here_after_another_process_moved_people_follows_the_database(
    tmp_path: Path,
) -> None:
    """An eighth scale audit: a process whose copy of the seats was behind a change made on
    another (a person moved, or the host swapped two seats) wrote a join, a put-out or a
    leave into the database and changed only that seat in its copy — the person it still had
    there was told ``seat_revoked`` though their token held another seat, and the page, taking
    that as final, forgot their token. Here the other process's change is written to the
    database behind this one's back; after each change made here every socket holds the seat
    its token holds as stored, and the chat names who was really put out or left."""
    with client(tmp_path) as c:
        store = c.app.state.lobby.store  # type: ignore[attr-defined]
        for change in ("join", "put_out", "leave"):
            made = c.post("/api/tables", json={"game": "hell", "players": 4}).json()
            tid, host = made["table"]["id"], made["host_token"]
            base = f"/api/tables/{tid}"
            aki = c.post(f"{base}/join", json={"name": "Aki", "seat": 0}).json()["token"]
            ben = c.post(f"{base}/join", json={"name": "Ben", "seat": 1}).json()["token"]
            with (
                c.websocket_connect(f"/ws/tables/{tid}") as mine,
                c.websocket_connect(f"/ws/tables/{tid}") as his,
            ):
                assert _hello(mine, aki)["seat"] == 0 and _hello(his, ben)["seat"] == 1
                # (the other process: Aki and Ben trade seats — this one still has them as were)
                store.swap_waiting_seats(tid, 0, 1)
                if change == "join":  # Cat sits where this process's copy said Ben had gone
                    store.swap_waiting_seats(tid, 0, 2)  # (Ben on to seat 2, seat 0 open)
                    r = c.post(f"{base}/join", json={"name": "Cat", "seat": 0})
                    want = {"Aki": 1, "Ben": 2}
                elif change == "put_out":  # the host puts out Ben, whom the host saw in seat 0
                    out = {"bot": "heuristic", "holder": holder_id(token_hash(ben))}
                    r = c.post(f"{base}/seats/0", json=out, headers=auth(host))
                    want = {"Aki": 1, "Ben": None}
                else:  # Ben gets up from seat 0, where his token is now
                    r = c.post(f"{base}/leave", json={}, headers=auth(ben))
                    want = {"Aki": 1, "Ben": None}
                assert r.status_code == 200, (change, r.text)
                snap = _seen(mine, 1, "Aki")
                assert snap["seat"] == 1 and "seat_revoked" not in snap["told"], (change, snap)
                if want["Ben"] is not None:
                    assert _seen(his, 2, "Ben")["seat"] == 2, change
            seats = [s.get("name") for s in c.get(base).json()["seats"]]
            ben_at = seats.index("Ben") if "Ben" in seats else None
            assert seats.index("Aki") == 1 and ben_at == want["Ben"], (change, seats)
            events = [x.event for x in store.recent_chat(tid, 100) if x.event is not None]
            if change != "join":
                assert events[-1]["who"] == "Ben" and events[-1]["seat"] == 0, (change, events)


def test_a_seat_change_stored_stands_when_the_seats_cannot_be_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A code review: a join stored, and the read of the seats after it (as stored, for a
    process that may be behind) failing, answered 503 — the joiner without the token of the
    seat they took. The change stands as written, and the answer is the join's."""
    from sqlalchemy.exc import OperationalError

    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 3}).json()
        tid = made["table"]["id"]
        store = c.app.state.lobby.store  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{tid}").status_code == 200  # (loaded here)

        def down(*_: Any) -> None:
            raise OperationalError("SELECT", {}, Exception("the database went away"))

        monkeypatch.setattr(store, "table", down)
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 1})
        assert r.status_code == 200 and r.json()["seat"] == 1, r.text
        assert r.json()["table"]["seats"][1]["name"] == "Aki"
        monkeypatch.undo()
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert _hello(ws, r.json()["token"])["seat"] == 1


def test_a_rematch_asked_where_the_last_move_was_stored_elsewhere_is_not_refused(
    tmp_path: Path,
) -> None:
    """A ninth scale audit: three players asking for the rematch on three processes as the
    last move was stored got 409 ``not_over`` from a process whose copy had not yet read that
    move, the wishes lost and the rematch never made. Here the whole match is stored behind
    this process's back (as another process would); a wish asked here reads the table again."""
    with client(tmp_path) as c:
        tid, _, tokens = new_table(c, "hell", None, humans=3)
        play_out_elsewhere(c, tid)
        assert c.app.state.lobby.rooms[tid].version == 0  # type: ignore[attr-defined]
        r = c.post(f"/api/tables/{tid}/rematch", json={}, headers=auth(tokens[0]))
        assert r.status_code in (200, 202), r.text
        assert c.get(f"/api/tables/{tid}").json()["status"] == "over"


def test_a_rematch_of_a_table_made_before_seeds_were_keyed_is_keyed(tmp_path: Path) -> None:
    """A code review: a rematch copied its table's features, so the rematches of a table made
    before tables kept their seeding went on drawing a stream's seeds, one published game
    after another. A rematch is a new match: keyed."""
    from sqlalchemy import text

    from torampu.web.workers import SEEDING

    with client(tmp_path) as c:
        tid, _, tokens = new_table(c, "hell", None, games=1, humans=3)  # (no bots moving)
        store = c.app.state.lobby.store  # type: ignore[attr-defined]
        with store.engine.begin() as db:  # (as a table made before)
            db.execute(text("UPDATE tables SET features = NULL WHERE id = :id"), {"id": tid})
        play_out_elsewhere(c, tid)
        for token in tokens:  # (everyone asks: the last makes it)
            r = c.post(f"/api/tables/{tid}/rematch", json={}, headers=auth(token))
        assert r.status_code == 200, r.text
        again = store.table(r.json()["table"]["id"])
        assert again.features[SEEDING] == "keyed", again.features


def test_a_seat_that_changed_hands_elsewhere_is_refused_as_no_longer_held(tmp_path: Path) -> None:
    """A twenty-second audit: a player's move, leave or rename that raced the host putting them
    out on another process was answered 409 ``seat_revoked``, where docs/web.md says a token
    holding no seat is 403. Here the put-out is written to the database behind this process's
    back (as another process would), so its own copy still has the token holding the seat."""
    with client(tmp_path) as c:
        store = c.app.state.lobby.store  # type: ignore[attr-defined]
        for path, body in (("move", {"seat": 3}), ("name", {"name": "Ben"}), ("leave", {})):
            made = c.post("/api/tables", json={"game": "hell", "players": 4}).json()
            tid = made["table"]["id"]
            join = {"name": "Aki", "seat": 0}
            aki = c.post(f"/api/tables/{tid}/join", json=join).json()["token"]
            store.set_seat(tid, 0, "bot", bot="heuristic")  # (the host, on another process)
            r = c.post(f"/api/tables/{tid}/{path}", json=body, headers=auth(aki))
            assert r.status_code == 403, (path, r.text)
            assert r.json()["error"]["code"] == "seat_revoked", (path, r.text)
            assert "seat 0" in r.json()["error"]["message"]
            seats = c.get(f"/api/tables/{tid}").json()["seats"]
            assert [s["kind"] for s in seats] == ["bot", "open", "open", "open"], "no change"


def test_a_rename_raced_by_the_host_s_swap_elsewhere_renames_the_seat_held_now(
    tmp_path: Path,
) -> None:
    """A twenty-third audit: a rename that raced the host's swap on another process was
    refused "seat 0 is no longer yours" — to a person sitting in seat 1. The token's seat is
    looked up again once. And a move to the seat one holds, once the table has started, is
    ``started`` as any other move (it was 200); a stranger's token with a bad seat is told
    about the token (403), not the seat."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 4}).json()
        tid, host = made["table"]["id"], made["host_token"]
        aki = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 0}).json()["token"]
        store = c.app.state.lobby.store  # type: ignore[attr-defined]
        store.swap_waiting_seats(tid, 0, 1)  # (the host, on another process)
        r = c.post(f"/api/tables/{tid}/name", json={"name": "Akiko"}, headers=auth(aki))
        assert r.status_code == 200 and r.json()["seat"] == 1, r.text
        seats = c.get(f"/api/tables/{tid}").json()["seats"]
        assert [s.get("name") for s in seats] == [None, "Akiko", None, None], seats
        store.swap_waiting_seats(tid, 1, 2)  # (again: a move goes from the seat held now)
        r = c.post(f"/api/tables/{tid}/move", json={"seat": 3}, headers=auth(aki))
        assert r.status_code == 200 and r.json()["seat"] == 3, r.text
        seats = c.get(f"/api/tables/{tid}").json()["seats"]
        assert [s.get("name") for s in seats] == [None, None, None, "Akiko"], seats
        store.swap_waiting_seats(tid, 3, 1)  # (and one that moved it to the seat asked for)
        r = c.post(f"/api/tables/{tid}/move", json={"seat": 1}, headers=auth(aki))
        assert r.status_code == 200 and r.json()["seat"] == 1, r.text
        r = c.post(f"/api/tables/{tid}/move", json={"seat": 9}, headers=auth("x" * 43))
        assert r.status_code == 403 and r.json()["error"]["code"] == "unauthorized", r.text
        c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        r = c.post(f"/api/tables/{tid}/move", json={"seat": 1}, headers=auth(aki))
        assert r.status_code == 409 and r.json()["error"]["code"] == "started", r.text


def test_the_host_swaps_two_seats_before_the_start(tmp_path: Path) -> None:
    """The host could not swap two seated friends (a review): before the start the host has
    two seats trade places — people (tokens and sockets with them), bots or open seats. A seat
    token, a bad pair, a started table: refused, and nothing changes."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 4}).json()
        tid, host = made["table"]["id"], made["host_token"]
        aki = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 0}).json()["token"]
        ben = c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 1}).json()["token"]
        c.post(f"/api/tables/{tid}/seats/3", json={"bot": "random"}, headers=auth(host))
        swap = f"/api/tables/{tid}/swap"
        r = c.post(swap, json={"seats": [0, 1]}, headers=auth(aki))
        assert r.status_code == 403, "a player is not the host"
        for bad, status in (([0], 400), ([0, 0], 400), ([0, 4], 404), ("01", 400), ([0, "1"], 400)):
            r = c.post(swap, json={"seats": bad}, headers=auth(host))
            assert r.status_code == status, (bad, r.text)
        with (
            c.websocket_connect(f"/ws/tables/{tid}") as a_ws,
            c.websocket_connect(f"/ws/tables/{tid}") as b_ws,
        ):
            assert _hello(a_ws, aki)["seat"] == 0 and _hello(b_ws, ben)["seat"] == 1
            r = c.post(swap, json={"seats": [0, 1]}, headers=auth(host))
            assert r.status_code == 200, r.text
            assert [s["name"] for s in r.json()["seats"][:2]] == ["Ben", "Aki"]
            a, b = _seen(a_ws, 1, "Aki"), _seen(b_ws, 1, "Aki")
            assert (a["seat"], b["seat"]) == (1, 0) and not a["told"] and not b["told"]
            r = c.post(swap, json={"seats": [3, 0]}, headers=auth(host))  # Ben and the bot
            seats = r.json()["seats"]
            assert seats[0]["kind"] == "bot" and seats[3]["name"] == "Ben", seats
            assert _seen(b_ws, 3, "Ben")["seat"] == 3
        c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        r = c.post(swap, json={"seats": [1, 3]}, headers=auth(host))
        assert r.status_code == 409 and r.json()["error"]["code"] == "started", r.text
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert _hello(ws, ben)["view"]["seat"] == 3 and _hello(ws, aki)["seat"] == 1


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess"}, 400, "unknown game"),
        ({"game": "napoleon", "rules": {"killerz": True}}, 400, "killerz"),
        ({"game": "napoleon", "rules": "nosuch"}, 400, "nosuch"),
        ({"game": "napoleon", "players": 12}, 400, "players"),
        ({"game": "napoleon", "games": 0}, 400, "games"),
        ({"game": "napoleon", "games": "5"}, 400, "games"),
        ({"game": "napoleon", "seats": ["open"]}, 400, "seats"),
        ({"game": "napoleon", "seats": ["open", "bot:zzz", "open", "open", "open"]}, 400, "zzz"),
        ({"game": "napoleon", "seats": "open"}, 400, "seats"),
        ({}, 400, "game"),
    ],
)
def test_create_rejects_bad_tables(
    tmp_path: Path, body: dict[str, Any], status: int, words: str
) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/tables", json=body)
        assert r.status_code == status, r.text
        assert words in r.json()["error"]["message"]
        assert c.get("/api/tables").json()["tables"] == []


def test_malformed_and_oversized_bodies(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        r = c.post("/api/tables", content=b"[1, 2]", headers={"content-type": "application/json"})
        assert r.status_code == 400 and "object" in r.json()["error"]["message"]
        r = c.post("/api/tables", content=b'{"game": "' + b"x" * 70000 + b'"}')
        assert r.status_code == 413
        assert c.get("/api/tables/nosuch").status_code == 404
        assert c.post("/api/tables/nosuch/join", json={"name": "A"}).status_code == 404
        assert c.get("/api/tables").json()["tables"] == []


# ------------------------------------------------------------------------------------ websocket
def _error(ws: Any, payload: Any, code: str) -> dict[str, Any]:
    if isinstance(payload, bytes):
        ws.send_bytes(payload)
    elif isinstance(payload, str):
        ws.send_text(payload)
    else:
        ws.send_json(payload)
    msg = receive(ws)
    assert msg["type"] == "error" and msg["code"] == code, msg
    assert msg["message"]
    return msg


def test_every_bad_message_gets_an_error_and_changes_nothing(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        # before the start: the snapshot has no view and acting is refused
        r = c.post("/api/tables", json={"game": "napoleon", "rules": "classic", "games": 1})
        tid, host = r.json()["table"]["id"], r.json()["host_token"]
        tok0 = c.post(f"/api/tables/{tid}/join", json={"name": "A", "seat": 0}).json()["token"]
        tok1 = c.post(f"/api/tables/{tid}/join", json={"name": "B", "seat": 1}).json()["token"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            _error(ws, {"type": "act", "action": "pass"}, "bad_message")  # hello first
            _error(ws, {"type": "hello", "token": "forged"}, "unauthorized")
            _error(ws, {"type": "hello", "token": 5}, "unauthorized")
            snap = _hello(ws, tok0)
            assert snap["seat"] == 0 and snap["view"] is None and snap["legal"] == []
            _error(ws, {"type": "act", "action": "pass", "version": 0}, "not_started")
        c.post(f"/api/tables/{tid}/start", json={"fill": "heuristic"}, headers=auth(host))
        with c.websocket_connect(f"/ws/tables/{tid}") as ws0:
            snap = _hello(ws0, tok1)  # seat 0 deals: seat 1 bids first
            version, view = snap["version"], snap["view"]
            assert version == 0 and snap["legal"]
            assert snap["seat"] == 1 and view["seat"] == 1 and view["hand"]
            _error(ws0, "{not json", "bad_message")
            _error(ws0, b"\x00\x01", "bad_message")
            _error(ws0, [1, 2], "bad_message")
            _error(ws0, {"kind": "act"}, "bad_message")
            _error(ws0, {"type": "dance"}, "bad_message")
            _error(ws0, {"type": "act", "action": "x" * 20000}, "too_large")
            _error(ws0, {"type": "act", "action": "bid 99Z", "version": version}, "illegal")
            e = _error(ws0, {"type": "act", "action": "play AS", "version": version}, "illegal")
            assert "play AS" in e["message"]
            _error(ws0, {"type": "act", "action": 7, "version": version}, "bad_message")
            _error(ws0, {"type": "act", "action": "pass", "version": version - 1}, "stale_version")
            ws0.send_json({"type": "ping"})
            assert ws0.receive_json() == {"type": "pong"}
            # nothing changed: the same version and view
            again = _hello(ws0, tok1, version)
            assert again["version"] == version and again["view"] == view
            with c.websocket_connect(f"/ws/tables/{tid}") as ws1:
                other = _hello(ws1, tok0)
                assert other["legal"] == []
                _error(ws1, {"type": "act", "action": "pass", "version": version}, "not_your_turn")
            with c.websocket_connect(f"/ws/tables/{tid}") as spectator:
                watch = _hello(spectator, None)
                assert watch["seat"] is None and watch["view"]["hand"] is None
                _error(spectator, {"type": "act", "action": "pass"}, "unauthorized")
        assert c.get(f"/api/tables/{tid}").json()["version"] == version
        with c.websocket_connect("/ws/tables/nosuch") as ws:  # (told at the hello)
            ws.send_json({"type": "hello", "token": None, "version": None})
            assert ws.receive_json()["code"] == "not_found"


def test_a_whole_match_over_the_websocket_then_records_and_replays(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid, _, (tok,) = new_table(c, "nap", None, games=2)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            last = play_through(ws, first=_hello(ws, tok))
        assert last["table"]["status"] == "over" and last["table"]["games_played"] == 2
        assert last["legal"] == []
        finished = c.get(f"/api/tables/{tid}/games").json()["games"]
        assert [g["index"] for g in finished] == [0, 1]
        rec = c.get(f"/api/tables/{tid}/games/1/record")
        assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
        g = torampu.replay(rec.json())
        assert g.is_over and g.result() == finished[1]["result"]
        whole = c.get(f"/api/tables/{tid}/record").json()
        m = torampu.replay_match(whole)
        assert m.is_over and m.standings()["totals"] == last["view"]["match"]["totals"]
        # each game's record, seed and all, is out as the game ends: the games' seeds are keyed
        # by the match's (secret till the end), not its generator's draws — some 312 of those
        # would tell every later deal
        assert whole["seeding"] == "keyed"
        assert [g["seed"] for g in whole["records"]] == [
            keyed_seed(whole["seed"], k) for k in (0, 1)
        ]
        rp = c.get(f"/api/tables/{tid}/games/0/replay", params={"seat": 0}).json()
        first = torampu.replay(c.get(f"/api/tables/{tid}/games/0/record").json())
        assert len(rp["steps"]) == len(first.history) + 1
        assert rp["steps"][0]["action"] is None and rp["steps"][-1]["view"] == first.view(0)
        watch = c.get(f"/api/tables/{tid}/games/0/replay").json()["steps"]
        assert all(s["view"]["hand"] is None for s in watch)
        assert c.get(f"/api/tables/{tid}/games/2/record").status_code == 404
        assert c.get(f"/api/tables/{tid}/games/0/replay", params={"seat": 9}).status_code == 404
        # a finished game's replay is made once per seat, not on every request (each took some
        # 4 ms of the event loop for a Daifugo game): the same answer, without replaying again
        made = []
        real = torampu.replay
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(torampu, "replay", lambda r: made.append(1) or real(r))
            again = c.get(f"/api/tables/{tid}/games/0/replay", params={"seat": 0})
            assert again.json() == rp and again.headers["content-type"] == "application/json"
            assert made == []
            other = c.get(f"/api/tables/{tid}/games/1/replay", params={"seat": 1}).json()
            assert made == [1] and other["seat"] == 1 and other["game"] == 1


def test_a_finished_games_replay_can_show_every_hand(tmp_path: Path) -> None:
    """One looks back on a game with every hand open (the record of a finished game holds
    every card already): ``hands=all`` adds each seat's hand to each step, each from that
    seat's own view; anything else for ``hands`` is refused, and an unfinished game has no
    replay at all."""
    with client(tmp_path) as c:
        tid, _, (tok,) = new_table(c, "hell", {"players": 3}, games=2)
        url = f"/api/tables/{tid}/games/0/replay"
        assert c.get(url, params={"hands": "all"}).status_code == 404  # not played yet
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            play_through(ws, first=_hello(ws, tok))
        every = c.get(url, params={"hands": "all"}).json()["steps"]
        g = torampu.replay({**c.get(f"/api/tables/{tid}/games/0/record").json(), "actions": []})
        assert every[0]["hands"] == [g.view(s)["hand"] for s in range(3)]
        assert all(len(s["hands"]) == 3 for s in every)
        for seat in range(3):
            own = c.get(url, params={"seat": seat}).json()["steps"]
            assert [s["view"]["hand"] for s in own] == [s["hands"][seat] for s in every]
        assert all(s["view"]["hand"] is None for s in every)  # the spectator's view still
        assert "hands" not in c.get(url).json()["steps"][0]
        bad = c.get(url, params={"hands": "<b>"})
        assert bad.status_code == 400 and "hands" in bad.json()["error"]["message"]


def test_the_match_record_waits_for_the_end(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid, _, _ = new_table(c, "hell", None, games=2)
        r = c.get(f"/api/tables/{tid}/record")
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"


def test_reconnect_gets_a_fresh_snapshot(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid, _, (tok,) = new_table(c, "napoleon", "classic")
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            before = play_through(
                ws,
                first=_hello(ws, tok),
                until=lambda m: m["view"]["phase"] == "play" and m["legal"],
            )
        assert c.get(f"/api/tables/{tid}").json()["seats"][0]["connected"] is False
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            snap = _hello(ws, tok, before["version"])
            assert snap["version"] == before["version"] and snap["view"] == before["view"]
            assert snap["table"]["seats"][0]["connected"] is True
            assert play_through(ws, first=snap)["table"]["status"] == "over"


# ------------------------------------------------------------------------------------ leaks
def _hidden_at(record: dict[str, Any], version: int, seat: int | None) -> tuple[Any, int]:
    """The match replayed to ``version`` actions, and the cards hidden from ``seat`` then."""
    m = torampu.new_match(
        record["game"],
        record["rules"],
        games=record["games"],
        seed=record["seed"],
        seeding=record.get("seeding", "stream"),
    )
    actions = [a for g in record["records"] for a in g["actions"]]
    for a in actions[:version]:
        m.play(a["action"])
    return m, m.game.hidden_from(seat)


@pytest.mark.parametrize(
    ("game", "rules", "games"),
    [
        ("napoleon", "classic", 1),
        ("napoleon", "house-001", 1),
        ("daifugo", "yaita", 2),
        ("hell", None, 2),
    ],
)
def test_no_message_ever_names_a_card_the_seat_may_not_know(
    tmp_path: Path, game: str, rules: str | None, games: int
) -> None:
    """Every message seat 0 (and a spectator) receives through a whole match: its view is the
    engine's ``view(seat)`` at that version, and nothing in it names a card hidden from the seat
    then (the other hands, unshown discards, a secret adjutant's holder; a Daifugo exchange)."""
    with client(tmp_path) as c:
        tid, _, (tok,) = new_table(c, game, rules, games=games)
        seen: list[dict[str, Any]] = []
        watched: list[dict[str, Any]] = []
        with c.websocket_connect(f"/ws/tables/{tid}") as spectator:
            watched.append(_hello(spectator, None))
            with c.websocket_connect(f"/ws/tables/{tid}") as ws:
                ws.send_json({"type": "hello", "token": tok, "version": None})
                play_through(ws, seen=seen)
            while watched[-1]["table"]["status"] != "over":
                watched.append(spectator.receive_json())
        record = c.get(f"/api/tables/{tid}/record").json()
    snapshots = [m for m in seen if m["type"] == "snapshot"]
    assert len(snapshots) > 10
    for seat, messages in ((0, snapshots), (None, watched)):
        for msg in messages:
            m, hidden = _hidden_at(record, msg["version"], seat)
            assert msg["view"] == newest_log(m.view(seat))
            assert msg["legal"] == (m.legal_actions() if m.to_play == seat is not None else [])
            # the legal actions name cards without placing them (``adjutant AS``); the match
            # block speaks of finished games only (a past upcard may be in a hand of this deal)
            # and is compared whole with the engine's just above
            rest = {k: v for k, v in msg.items() if k != "legal"}
            rest["view"] = {k: v for k, v in (msg["view"] or {}).items() if k != "match"}
            # the seat's own last move names the cards it chose itself (a 7渡し gift or an
            # exchange: the engine counts them hidden once they are in another hand)
            # and the adjutant's call names a card without placing it (as the view's
            # adjutant_card)
            last = msg.get("last") or {}
            if (seat is not None and last.get("seat") == seat) or last.get("action", "").startswith(
                "adjutant "
            ):
                del rest["last"]
            # the move that finished a game was made in that game, where a played card is
            # public: it is not judged by the new deal's hidden cards (a private move stays bare)
            elif msg.get("last") and not m.game.history and m.games_played > 0:
                verb, *words = msg["last"]["action"].split()
                # (a Daifugo 10捨て goes face up to the pile: its cards are named)
                face_up = game == "daifugo" and verb == "discard"
                assert verb not in ("exchange", "give", "discard") or not words or face_up, msg[
                    "last"
                ]
                del rest["last"]
            leaked = cards_mentioned(json.loads(json.dumps(rest))) & hidden
            assert not leaked, (
                seat,
                msg["version"],
                [card_str(x) for x in range(53) if leaked >> x & 1],
            )


@pytest.mark.parametrize("rules", ["classic", "house-001"])
def test_another_seats_discard_is_shown_without_its_cards(tmp_path: Path, rules: str) -> None:
    """A Napoleon's discard is face down: another seat reads the verb alone — but where
    ``reveal_discards`` shows them all (house-001), the cards, as the panel shows them (it
    said "cards not shown to you" of them: a code review); at ``honors`` (classic), a discard
    of honors alone would be named likewise."""
    from torampu.napoleon import HONORS

    with client(tmp_path) as c:
        tid, _, (tok,) = new_table(c, "napoleon", rules)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": tok, "version": None})
            seen: list[dict[str, Any]] = []
            play_through(ws, seen=seen)
        record = c.get(f"/api/tables/{tid}/games/0/record").json()
    napoleon = record["result"]["napoleon"]
    lasts = [m["last"] for m in seen if m["type"] == "snapshot" and m["last"]]
    discards = [x for x in lasts if x["action"].startswith("discard")]
    assert discards
    if napoleon != 0 and rules == "house-001":
        assert all(len(x["action"].split()) > 1 and "hidden" not in x for x in discards), discards
    elif napoleon != 0:
        # (the cards of the record's discard: honors alone would be shown)
        done = [a["action"] for a in record["actions"] if a["action"].startswith("discard ")]
        if all(cards_mentioned(a) & ~HONORS == 0 for a in done):
            assert all("hidden" not in x for x in discards), discards
        else:
            assert all(x["action"] == "discard" and x["hidden"] is True for x in discards)
    else:
        assert all(len(x["action"].split()) > 1 and "hidden" not in x for x in discards)
    # the adjutant card called is read by every seat (it read "Adjutant (a card hidden from
    # you)" to the others: a ninth review), whoever holds it
    called = [x for x in lasts if x["action"].startswith("adjutant")]
    assert called and all("hidden" not in x for x in called), called
    assert {x["action"] for x in called} == {f"adjutant {record['result']['adjutant_card']}"}


def test_a_card_given_to_a_seat_is_named_to_it_and_to_nobody_else(tmp_path: Path) -> None:
    """A ninth review: a Daifugo player the exchange gave a card to read "Sora — return (a card
    hidden from you)" of the card just come to their hand. A private move (a return, a 7渡し
    gift) names its cards to the seat that holds them now, and still to nobody else."""
    import asyncio

    from torampu.web.rooms import token_hash
    from web_helpers import started_lobby

    url = f"sqlite:///{tmp_path / 'torampu.db'}"

    async def scenario() -> None:
        async with started_lobby(Store(url), url, bot_delay=0, next_game_delay=0) as lobby:
            rules = {"preset": "standard", "exchange": True}
            room, _host = await lobby.create("daifugo", rules, 4, 2, None)
            tokens = [(await lobby.join(room, f"P{s}", s))[1] for s in range(4)]
            await lobby.start_table(room, None)
            seen = 0
            for _ in range(2000):
                m = room.match
                if m is None or m.is_over:
                    break
                seat = m.to_play
                assert seat is not None
                action = m.legal_actions()[0]
                await lobby.act(room, seat, action, room.version, holder=token_hash(tokens[seat]))
                verb = action.split()[0]
                if verb not in ("exchange", "return", "give") or len(action.split()) < 2:
                    continue
                named = cards_mentioned(action)
                holders = [s for s in range(4) if s != seat and named & ~m.game.hands[s] == 0]
                for s in range(4):
                    last = lobby.snapshot(room, s)["last"]
                    if s == seat or s in holders:
                        assert last["action"] == action and "hidden" not in last, (s, last)
                    else:
                        assert last == {**last, "action": verb, "hidden": True}, (s, last)
                seen += len(holders)
            assert room.match is not None and room.match.is_over
            assert seen, "no card was given to a seat"

    asyncio.run(scenario())


def test_a_daifugo_ten_discard_is_named_as_the_log_names_it(tmp_path: Path) -> None:
    """A forty-sixth review: a Daifugo 10捨て goes face up to the discard pile — the view's log
    said "カイ 捨てる ♠5" to every seat — while the last move's line said "捨てる (あなたには
    見えないカード)". The line names the cards the engine shows every seat; a Napoleon's
    discard, face down, stays bare (test_another_seats_discard_is_shown_without_its_cards)."""
    import asyncio

    from torampu.web.rooms import token_hash
    from web_helpers import started_lobby

    url = f"sqlite:///{tmp_path / 'torampu.db'}"

    async def scenario() -> None:
        async with started_lobby(Store(url), url, bot_delay=0, next_game_delay=0) as lobby:
            room, _host = await lobby.create("daifugo", "yaita", 4, 3, None)
            tokens = [(await lobby.join(room, f"P{s}", s))[1] for s in range(4)]
            await lobby.start_table(room, None)
            seen = 0
            for _ in range(3000):
                m = room.match
                if m is None or m.is_over or seen >= 3:
                    break
                seat = m.to_play
                assert seat is not None
                legal = m.legal_actions()
                # (a discard of cards where one is offered, else the last legal action)
                action = next((a for a in legal if a.startswith("discard ")), legal[-1])
                game = m.game
                await lobby.act(room, seat, action, room.version, holder=token_hash(tokens[seat]))
                # (one that ended its game is said with the game's end: the next game's deal
                # is what is hidden now — 1 run in some 20 met it)
                if not action.startswith("discard ") or m.game is not game:
                    continue
                seen += 1
                for s in [*range(4), None]:
                    if s is not None and s == seat:
                        continue
                    assert not cards_mentioned(action) & m.game.hidden_from(s), (s, action)
                    last = lobby.snapshot(room, s)["last"]
                    assert last["action"] == action and "hidden" not in last, (s, last)
            assert seen, "no 10捨て in three games"

    asyncio.run(scenario())


# ------------------------------------------------------------------------------------ restart
def test_a_restart_mid_game_resumes_exactly(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid, _, (tok,) = new_table(c, "napoleon", "house-001", games=2)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            before = play_through(
                ws,
                first=_hello(ws, tok),
                until=lambda m: (
                    m["view"]["phase"] == "play" and len(m["view"]["tricks"]) >= 3 and m["legal"]
                ),
            )
    # the server is gone; a new one on the same data directory
    with client(tmp_path) as c:
        assert c.get(f"/api/tables/{tid}").json()["version"] == before["version"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            snap = _hello(ws, tok, before["version"])
            assert snap["view"] == before["view"] and snap["legal"] == before["legal"]
            last = play_through(ws, first=snap)
        assert last["table"]["status"] == "over"
        record = c.get(f"/api/tables/{tid}/record").json()
    m = torampu.replay_match(record)
    assert m.is_over and m.standings()["totals"] == last["view"]["match"]["totals"]


def test_bots_resume_after_a_restart_without_anyone_connected(tmp_path: Path) -> None:
    with client(tmp_path, bot_delay=30.0) as c:  # bots too slow to move before the stop
        tid, _, _ = new_table(c, "hell", None, games=2, humans=0)
        assert c.get(f"/api/tables/{tid}").json()["version"] == 0
    with client(tmp_path) as c:
        for _ in range(400):
            t = c.get(f"/api/tables/{tid}").json()
            if t["status"] == "over":
                break
            time.sleep(0.02)
        assert t["status"] == "over" and t["version"] > 0


# ------------------------------------------------------------------------------------ absence
def test_an_absent_player_is_replaced_by_a_bot_until_they_return(tmp_path: Path) -> None:
    with client(tmp_path, away_timeout=0.3) as c:
        tid, _, (_tok,) = new_table(c, "hell", None, games=3)
        # never connected, while someone watches: after the timeout the stand-in plays seat 0
        with c.websocket_connect(f"/ws/tables/{tid}") as watcher:
            _hello(watcher, None)
            for _ in range(300):
                t = c.get(f"/api/tables/{tid}").json()
                if t["status"] == "over":
                    break
                time.sleep(0.02)
        assert t["status"] == "over" and t["seats"][0]["away"] is False
    store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
    by = {a.by for a in store.actions(tid) if a.seat == 0}
    store.close()
    assert by == {"away"}


def _stood_in_since_own_move(tmp: Path, tid: str, upto: int) -> list[str]:
    """How seat 0's stored actions up to version ``upto`` since its own last move were made."""
    store = Store(f"sqlite:///{tmp / 'torampu.db'}")
    acts = [a for a in store.actions(tid) if a.seat == 0 and a.version <= upto]
    store.close()
    own = max((a.version for a in acts if a.by == "human"), default=0)
    return [a.by for a in acts if a.version > own]


def _stood_in_actions(tmp: Path, tid: str, upto: int) -> list[str]:
    """Seat 0's actions by a stand-in up to version ``upto`` since its own last move."""
    store = Store(f"sqlite:///{tmp / 'torampu.db'}")
    acts = [a for a in store.actions(tid) if a.seat == 0 and a.version <= upto]
    store.close()
    own = max((a.version for a in acts if a.by == "human"), default=0)
    return [a.action for a in acts if a.version > own and a.by == "away"]


def test_a_player_back_from_an_absence_is_told_what_the_bot_made_for_them(tmp_path: Path) -> None:
    """A second review: a player who came back found the game moved on with no word of the
    moves a bot had made in their name. Their snapshot counts them (``stood_in``), from the
    stored actions — the same after a restart — until the player moves again."""
    quick = {"away_timeout": 0.05, "bot_delay": 0.0}
    with client(tmp_path, **quick) as c:
        # (ten deals of 1 to 10 cards: with three, the bots could end the match before the
        # stand-in had moved twice more for seat 0 in the second absence, a flaky CI run)
        tid, _, (tok,) = new_table(c, "hell", None, games=10)
        with c.websocket_connect(f"/ws/tables/{tid}") as watcher:  # someone at the table
            _hello(watcher, None)
            deadline = time.monotonic() + 60  # the stand-in moves for seat 0 at least twice
            while len(_stood_in_since_own_move(tmp_path, tid, 10**9)) < 2:
                assert time.monotonic() < deadline, "the stand-in never moved twice for seat 0"
                time.sleep(0.02)
            with c.websocket_connect(f"/ws/tables/{tid}") as ws:
                snap = _hello(ws, tok)
                mine = _stood_in_since_own_move(tmp_path, tid, snap["version"])
                assert set(mine) == {"away"} and snap["stood_in"] == len(mine) >= 2
                # and which: the last eight (a fourth review: "a bot made 14 moves" hid that
                # it had bid for the player)
                made = _stood_in_actions(tmp_path, tid, snap["version"])
                assert snap["stood_in_moves"] == made[-8:], (snap["stood_in_moves"], made)
                moved = None
                while moved is None:
                    while snap["type"] != "snapshot" or not snap["legal"]:
                        # our turn comes: the count holds until we move
                        snap = ws.receive_json()
                        if snap["type"] == "snapshot" and snap["stood_in"] < len(mine):
                            store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
                            acts = [(a.version, a.seat, a.by, a.action) for a in store.actions(tid)]
                            store.close()
                            pytest.fail(f"the count fell: {snap['version']} {mine} {acts[-12:]}")
                    v = snap["version"]
                    ws.send_json({"type": "act", "action": snap["legal"][0], "version": v})
                    while True:
                        msg = ws.receive_json()
                        if msg["type"] == "error":
                            # a stand-in's move already being written when we came back (an
                            # error may come after newer snapshots: it says nothing of this act)
                            assert msg["code"] == "stale_version", msg
                            continue
                        if msg["type"] == "snapshot" and msg["version"] > v:
                            # (snapshots may skip versions: the store says whose v + 1 was)
                            store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
                            step = next(a for a in store.actions(tid) if a.version == v + 1)
                            store.close()
                            if (step.seat, step.by) == (0, "human"):
                                moved = msg
                            snap = msg
                            break
                assert moved["stood_in"] == 0 and moved["stood_in_moves"] == [], moved["last"]
                spectator = _hello(watcher, None)  # a spectator is never told a count
                assert spectator["stood_in"] == 0 and spectator["seat"] is None
                assert spectator["stood_in_moves"] == []
    # away once more (someone watches, the stand-in plays), then a new process reads the count
    with client(tmp_path, **quick) as c, c.websocket_connect(f"/ws/tables/{tid}") as watcher:
        _hello(watcher, None)
        deadline = time.monotonic() + 60
        while len(_stood_in_since_own_move(tmp_path, tid, 10**9)) < 2:
            assert time.monotonic() < deadline, "the stand-in never moved twice for seat 0"
            time.sleep(0.02)
    with client(tmp_path) as c, c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = _hello(ws, tok)
        again = _stood_in_since_own_move(tmp_path, tid, snap["version"])
        assert set(again) == {"away"} and snap["stood_in"] == len(again) >= 2
        assert snap["stood_in_moves"] == _stood_in_actions(tmp_path, tid, snap["version"])[-8:]


def test_the_moves_made_for_an_absent_player_say_the_game_each_was_made_in(
    tmp_path: Path,
) -> None:
    """A tenth review: "a bot made 8 moves for you … Play ♥3 … Play ♥3": the moves went over
    two deals, nothing told them apart, and the same card came twice. The snapshot says the
    game (from 0) each was made in (``stood_in_games``), as played and as read back from the
    stored actions by a new process alike."""
    with client(tmp_path, away_timeout=0.05, bot_delay=0.02) as c:
        tid, _, (tok,) = new_table(c, "hell", None, games=10)
        with c.websocket_connect(f"/ws/tables/{tid}") as watcher:  # someone at the table
            _hello(watcher, None)
            deadline = time.monotonic() + 60  # the stand-in bids for seat 0 in two deals
            while sum(a.startswith("bid ") for a in _stood_in_actions(tmp_path, tid, 10**9)) < 2:
                assert time.monotonic() < deadline, "the stand-in never bid twice for seat 0"
                time.sleep(0.01)
            with c.websocket_connect(f"/ws/tables/{tid}") as ws:
                live = _hello(ws, tok)
    moves, games = live["stood_in_moves"], live["stood_in_games"]
    assert len(games) == len(moves) and len(set(games)) >= 2, (moves, games)
    # (Hell: a deal's first move of a seat is its bid, and the next deal's is the next game)
    for i in range(1, len(moves)):
        assert games[i] == games[i - 1] + moves[i].startswith("bid "), (moves, games)
    if live["stood_in"] == len(moves):  # all of them, from the first deal's bid
        assert games[0] == 0 and moves[0].startswith("bid "), (moves, games)
    with client(tmp_path) as c, c.websocket_connect(f"/ws/tables/{tid}") as ws:
        again = _hello(ws, tok)
    assert again["stood_in_moves"] == moves and again["stood_in_games"] == games, (again, live)


def test_a_stand_in_passes_in_an_auction_for_an_absent_player() -> None:
    """A fourth review: a player who stepped away for 45 s came back the Napoleon of a 12♥
    contract the stand-in had bid, its adjutant called and its cards discarded. A stand-in
    (``away``, ``timeout``) passes in Napoleon's and Nap's auctions; a seat's own bot bids as
    before, and Hell (no pass) and the play are the bot's."""
    from torampu.web.bots import BotJob
    from torampu.web.workers import stand_in_move

    for game, rules in (("napoleon", "classic"), ("nap", None)):
        g = torampu.new_game(game, rules, seed=1)
        job = BotJob("heuristic", game, 1, g.view(g.to_play), g.legal_actions())
        assert any(a.startswith("bid ") for a in job.legal) and "pass" in job.legal
        for by in ("away", "timeout"):
            answer = stand_in_move(by, job)
            assert answer is not None and answer.action == "pass", (game, by)
        assert stand_in_move("bot", job) is None
        # at a table where nobody else could bid (every other seat a player who is away), all
        # passing would deal again for ever: there the stand-in bids as its bot would
        assert stand_in_move("away", job, others=False) is None
    g = torampu.new_game("hell", None, seed=1)
    job = BotJob("heuristic", "hell", 1, g.view(g.to_play), g.legal_actions())
    assert "pass" not in job.legal and stand_in_move("away", job) is None
    g = torampu.new_game("napoleon", "classic", seed=1)
    g.apply(g.parse_action(next(a for a in g.legal_actions() if a.startswith("bid "))))
    while g.view(g.to_play)["phase"] == "bid":  # (one bid, then everyone passes)
        g.apply(g.parse_action("pass"))
    job = BotJob("heuristic", "napoleon", 1, g.view(g.to_play), g.legal_actions())
    assert stand_in_move("away", job) is None  # past the auction: the bot's


def test_a_stand_in_does_not_move_for_a_player_who_is_back(tmp_path: Path) -> None:
    """A stand-in's move is worked out while its player is away, and written later: a player who
    came back meanwhile was shown their turn and then saw the bot play it (found while testing
    the count above). The write is refused once the player is back; the turn stays theirs."""
    from torampu.web.rooms import ActError

    with client(tmp_path) as c:
        # (ten deals of 1 to 10 cards: with three, the bots could end the match before the
        # stand-in had moved twice more for seat 0 in the second absence, a flaky CI run)
        tid, _, (tok,) = new_table(c, "hell", None, games=10)
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            snap = _hello(ws, tok)
            while not snap["legal"]:
                snap = receive(ws)
            room = lobby.rooms[tid]
            for by in ("away", "timeout"):  # (no --turn-timeout here: no timeout is due either)
                with pytest.raises(ActError) as e:
                    c.portal.call(  # type: ignore[union-attr]
                        lobby.act, room, 0, snap["legal"][0], snap["version"], by
                    )
                assert e.value.code == "player_back"
            assert room.version == snap["version"]
            ws.send_json({"type": "act", "action": snap["legal"][0], "version": snap["version"]})
            while True:
                msg = ws.receive_json()
                if msg["type"] == "snapshot" and msg["version"] > snap["version"]:
                    break
        # (snapshots may skip versions: the store says who made the move after it)
        store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
        step = next(a for a in store.actions(tid) if a.version == snap["version"] + 1)
        store.close()
        assert (step.seat, step.action, step.by) == (0, snap["legal"][0], "human")


@pytest.mark.parametrize("turn_timeout", [0.0, 0.3])
def test_a_table_nobody_is_left_at_waits_for_its_absent_player(
    tmp_path: Path, turn_timeout: float
) -> None:
    """A helper's review: a player of a table of bots stepped away for a few minutes and found
    the match played out by the stand-in. A stand-in plays so that the others need not wait;
    with nobody at the table the seat waits for its player, and the bots with it, and the
    player who comes back plays on. A turn timer does not play for them either (the second
    audit: with --turn-timeout the stand-in still played the empty table on)."""
    with client(tmp_path, away_timeout=0.05, bot_delay=0.0, turn_timeout=turn_timeout) as c:
        # (ten deals of 1 to 10 cards: with three, the bots could end the match before the
        # stand-in had moved twice more for seat 0 in the second absence, a flaky CI run)
        tid, _, (tok,) = new_table(c, "hell", None, games=10)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            _hello(ws, tok)
        time.sleep(0.6)  # twelve away timeouts: a stand-in would have played on
        t = c.get(f"/api/tables/{tid}").json()
        assert t["to_play"] == 0 and t["status"] == "playing"
        time.sleep(0.3)
        assert c.get(f"/api/tables/{tid}").json()["version"] == t["version"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            snap = _hello(ws, tok)
            assert snap["legal"] and snap["version"] == t["version"]  # the turn is still theirs
    store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
    assert not [a for a in store.actions(tid) if a.by in ("away", "timeout")]
    store.close()


def test_a_present_player_keeps_the_seat_and_a_slow_one_times_out(tmp_path: Path) -> None:
    with client(tmp_path, away_timeout=30.0, turn_timeout=0.3) as c:
        tid, _, (tok,) = new_table(c, "hell", None, games=1)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            _hello(ws, tok)
            # connected, but idle: each of our turns is made after turn_timeout, as "timeout"
            while True:
                msg = ws.receive_json()
                if msg["type"] == "snapshot" and msg["table"]["status"] == "over":
                    break
    store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
    by = {a.by for a in store.actions(tid) if a.seat == 0}
    store.close()
    assert by == {"timeout"}


def test_a_table_s_maker_chooses_its_time_for_a_turn_within_the_server_s(tmp_path: Path) -> None:
    """One player idle, the tab open, held the table for good: a turn's limit was the operator's
    --turn-timeout alone (none by default), and friends who wanted a quick game could not ask
    for one. The maker chooses ``turn_timeout`` (10 s to an hour, 0: none) — within the
    server's limit where it has one (none is then refused) — stored with the table's clocks,
    shown on its face and carried to the rematch; its turns' clock runs by it. A bad value is
    refused and nothing is made."""
    with client(tmp_path) as c:
        assert c.get("/api/games").json()["turn_timeout"] == 0
        body = {"game": "hell", "players": 3, "seats": ["open", "heuristic", "heuristic"]}
        made = c.post("/api/tables", json={**body, "turn_timeout": 30}).json()
        tid, host = made["table"]["id"], made["host_token"]
        assert made["table"]["turn_timeout"] == 30
        assert c.post("/api/tables", json=body).json()["table"]["turn_timeout"] == 0
        for bad in ('"30"', "true", "-1", "5", "9.9", "3601", "1e309", "[30]"):
            raw = json.dumps(body)[:-1] + f', "turn_timeout": {bad}}}'
            r = c.post("/api/tables", content=raw, headers={"Content-Type": "application/json"})
            assert r.status_code == 400 and "turn_timeout" in r.json()["error"]["message"], r.text
        assert len(c.get("/api/tables").json()["tables"]) == 2, "a refused one was made"
        token = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 0}).json()["token"]
        c.post(f"/api/tables/{tid}/start", json={}, headers=auth(host))
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            snap = _hello(ws, token)
            while snap["type"] != "snapshot" or not snap["legal"]:
                snap = ws.receive_json()
            timer = snap["view"].get("timer") or snap.get("timer")
            assert timer["kind"] == "turn" and timer["timeout"] == 30, timer
            assert 25 < timer["seconds_left"] <= 30, timer
    with client(tmp_path / "limited", turn_timeout=60.0) as c:
        assert c.get("/api/games").json()["turn_timeout"] == 60
        body = {"game": "hell", "players": 3}
        assert c.post("/api/tables", json=body).json()["table"]["turn_timeout"] == 60
        assert c.post("/api/tables", json={**body, "turn_timeout": 20}).status_code == 201
        for bad in (0, 61):
            r = c.post("/api/tables", json={**body, "turn_timeout": bad})
            assert r.status_code == 400, r.text
            assert "10 to 60 seconds on this server" in r.json()["error"]["message"], r.text
    # (a code review: -0.0 was stored and shown as -0.0; a server's own limit under 10 s
    # refused every turn_timeout, its own too)
    with client(tmp_path / "quick", turn_timeout=5.0) as c:
        body = {"game": "hell", "players": 3}
        r = c.post("/api/tables", json={**body, "turn_timeout": 5})
        assert r.status_code == 201 and r.json()["table"]["turn_timeout"] == 5, r.text
    with client(tmp_path / "none") as c:
        raw = '{"game": "hell", "players": 3, "turn_timeout": -0.0}'
        r = c.post("/api/tables", content=raw, headers={"Content-Type": "application/json"})
        assert r.status_code == 201 and '"turn_timeout":0.0' in r.text.replace(" ", ""), r.text


# ------------------------------------------------------------------------------------ writers
def test_two_servers_on_one_database_never_both_apply_a_move(tmp_path: Path) -> None:
    with client(tmp_path) as a:
        tid, _host, toks = new_table(a, "napoleon", "classic", humans=5)
        with client(tmp_path) as b:  # a second process on the same store
            with a.websocket_connect(f"/ws/tables/{tid}") as wa:
                sa = _hello(wa, toks[1])  # seat 1 bids first (seat 0 deals)
                with b.websocket_connect(f"/ws/tables/{tid}") as wb:
                    sb = _hello(wb, toks[1])
                    assert sa["version"] == sb["version"] == 0 and sa["legal"] == sb["legal"]
                    wa.send_json({"type": "act", "action": "pass", "version": 0})
                    assert receive(wa)["version"] == 1
                    # b still holds version 0 in memory: its write must lose, then b reloads
                    bid = next(x for x in sb["legal"] if x != "pass")
                    _error(wb, {"type": "act", "action": bid, "version": 0}, "stale_version")
                    fresh = _hello(wb, toks[1], 0)
                    assert fresh["version"] == 1 and fresh["legal"] == []
            assert b.get(f"/api/tables/{tid}").json()["version"] == 1
    store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
    assert [(x.version, x.action) for x in store.actions(tid)] == [(1, "pass")]
    store.close()


# ------------------------------------------------------------------------------------ command
def test_serve_refuses_a_bad_database_or_delay_clearly() -> None:
    from typer.testing import CliRunner

    from torampu.cli import app

    r = CliRunner().invoke(app, ["serve", "--database", "foo://nowhere"])
    assert r.exit_code == 2 and "cannot use the database" in r.output and "foo" in r.output
    r = CliRunner().invoke(app, ["serve", "--bot-delay", "-1"])
    assert r.exit_code == 2 and "≥ 0" in r.output
    for bad in ("0", "-2", "nan", "inf"):
        r = CliRunner().invoke(app, ["serve", "--max-replay-mb", bad])
        assert r.exit_code == 2 and "--max-replay-mb" in r.output, (bad, r.output)
    for bad in (["--max-spectators", "0"], ["--max-sockets", "10", "--max-spectators", "11"]):
        r = CliRunner().invoke(app, ["serve", *bad])
        assert r.exit_code == 2 and "--max-spectators is from 1" in r.output, (bad, r.output)
    for flag, bad, words in (
        ("--max-message", "100", "--max-message is from 256"),
        ("--max-message", "70000", "--max-message is from 256"),
        ("--message-rate", "0", "--message-rate"),
        ("--hello-timeout", "0", "timeouts are seconds > 0"),
        ("--outbox-max", "0", "--outbox-max"),
        ("--db-threads", "0", "--db-threads"),
        ("--sockets-per-seat", "0", "every limit is a whole number ≥ 1"),
        ("--replays-kept", "0", "every limit is a whole number ≥ 1"),
        ("--replays-queued", "0", "every limit is a whole number ≥ 1"),
        ("--redis-connections", "0", "every limit is a whole number ≥ 1"),
        ("--db-connections", "0", "every limit is a whole number ≥ 1"),
        ("--list-burst", "0", "every limit is a whole number ≥ 1"),
        ("--list-rate", "0", "--list-rate"),
        ("--table-move-rate", "0", "--table-move-rate"),
        ("--seat-change-rate", "0", "--seat-change-rate"),
        ("--seat-change-burst", "0", "every limit is a whole number ≥ 1"),
        ("--table-move-burst", "0", "every limit is a whole number ≥ 1"),
        ("--chat-burst", "0", "every limit is a whole number ≥ 1"),
        ("--hint-rate", "0", "--hint-rate"),
        ("--hint-burst", "0", "every limit is a whole number ≥ 1"),
        ("--bot-rate-all", "-1", "--bot-rate-all is moves a second: 0 (no bound) or at"),
        ("--bot-rate-all", "nan", "--bot-rate-all is moves a second: 0 (no bound) or at"),
        ("--bot-rate-all", "0.5", "--bot-rate-all is moves a second: 0 (no bound) or at"),
        ("--requests-at-once", "0", "every limit is a whole number ≥ 1"),
        ("--ws-frame-rate", "0", "--ws-frame-rate and --ws-kib-rate are numbers > 0"),
        ("--ws-kib-rate", "inf", "--ws-frame-rate and --ws-kib-rate are numbers > 0"),
        ("--ws-kib-rate", "nan", "--ws-frame-rate and --ws-kib-rate are numbers > 0"),
        ("--max-name", "65", "--max-name is at most 64 and --max-chat at most 1000"),
        ("--max-chat", "1001", "--max-name is at most 64 and --max-chat at most 1000"),
        ("--ws-kib-rate", "3", "--ws-kib-rate or --ws-frame-rate too low"),
        ("--ws-frame-rate", "0.1", "--ws-kib-rate or --ws-frame-rate too low"),
    ):
        r = CliRunner().invoke(app, ["serve", flag, bad])
        assert r.exit_code == 2 and words in r.output, (flag, bad, r.output)
    # with many processes a bot's pause (up to 5/4 of --bot-delay) outlasting the driver's lease
    # let every bot move hand the table to another process: refused before anything starts
    redis = ("--redis", "redis://127.0.0.1:1/0", "--database", "postgresql://nobody@127.0.0.1/x")
    r = CliRunner().invoke(app, ["serve", *redis, "--bot-delay", "4", "--lease-ttl", "5"])
    said = " ".join(r.output.replace("│", " ").split())  # (the error's box wraps its lines)
    assert r.exit_code == 2 and "must be shorter than 4/5 of --lease-ttl (5 s)" in said, said
    assert "--bot-delay (4 s, a pause up to 5 s)" in said
    # (one process holds its own lease: any delay goes; past the check Redis is tried, not there)
    r = CliRunner().invoke(app, ["serve", *redis, "--bot-delay", "3.9", "--lease-ttl", "5"])
    assert "cannot use Redis at redis://127.0.0.1:1/0" in r.output, r.output


def test_the_sockets_bounds_are_the_operators_to_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seventh audit listed bounds with no flag (a socket's message rate and size, its hello's
    deadline and rate, its outbox, the chat's length and history, the database threads, then
    a seat's sockets and the replays kept and queued, code constants until an eighth
    session): each is a ``torampu serve`` flag that reaches the server's settings."""
    import uvicorn
    from typer.testing import CliRunner

    from torampu.cli import app

    seen: dict[str, Any] = {}

    def run(asgi: Any, **kw: Any) -> None:
        seen["settings"] = asgi.state.settings
        seen["ws_max_size"] = kw["ws_max_size"]
        seen["deflate"] = kw["ws_per_message_deflate"]

    monkeypatch.setattr(uvicorn, "run", run)
    flags = {
        "--hello-timeout": "3",
        "--message-rate": "7",
        "--message-burst": "9",
        "--hello-rate": "0.25",
        "--hello-burst": "2",
        "--max-message": "4096",
        "--outbox-max": "8",
        "--max-chat": "80",
        "--chat-history": "10",
        "--db-threads": "2",
        "--db-slow-threads": "3",
        "--max-spectators": "100",
        "--max-pending-sockets": "40",
        "--sockets-per-seat": "2",
        "--replays-kept": "5",
        "--replays-queued": "3",
        "--redis-connections": "12",
        "--list-rate": "0.5",
        "--list-burst": "4",
        "--table-move-rate": "3",
        "--table-move-burst": "7",
        "--seat-change-rate": "2.5",
        "--seat-change-burst": "9",
        "--chat-burst": "3",  # (documented, and no flag: a seventeenth audit)
        "--hint-rate": "2",
        "--hint-burst": "4",
        "--requests-at-once": "5",
        "--bot-rate-all": "40",
    }
    args = ["serve", "--data-dir", str(tmp_path), *[x for kv in flags.items() for x in kv]]
    args.append("--no-ws-deflate")  # (each socket compresses every snapshot itself: a seventh
    # audit's note; on by default, for the bandwidth)
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    st = seen["settings"]
    got = {
        "--hello-timeout": st.hello_timeout,
        "--message-rate": st.message_rate,
        "--message-burst": st.message_burst,
        "--hello-rate": st.hello_rate,
        "--hello-burst": st.hello_burst,
        "--max-message": st.max_message,
        "--outbox-max": st.outbox_max,
        "--max-chat": st.max_chat,
        "--chat-history": st.chat_history,
        "--db-threads": st.db_threads,
        "--db-slow-threads": st.db_slow_threads,
        "--max-spectators": st.max_spectators,
        "--max-pending-sockets": st.max_pending_sockets,
        "--sockets-per-seat": st.sockets_per_seat,
        "--replays-kept": st.replays_kept,
        "--replays-queued": st.replays_queued,
        "--redis-connections": st.redis_connections,
        "--list-rate": st.list_rate,
        "--list-burst": st.list_burst,
        "--table-move-rate": st.table_move_rate,
        "--table-move-burst": st.table_move_burst,
        "--seat-change-rate": st.seat_change_rate,
        "--seat-change-burst": st.seat_change_burst,
        "--chat-burst": st.chat_burst,
        "--hint-rate": st.hint_rate,
        "--hint-burst": st.hint_burst,
        "--requests-at-once": st.requests_at_once,
        "--bot-rate-all": st.bot_rate_all,
    }
    assert {k: float(v) for k, v in flags.items()} == {k: float(v) for k, v in got.items()}
    assert seen["ws_max_size"] == 65536 and seen["deflate"] is False


def test_the_table_list_filters_by_status(tmp_path: Path) -> None:
    """The lobby read the newest 50 tables and folded the finished ones away: on a busy server a
    page of finished tables hid the open ones. The list filters by status (open: waiting or
    playing), and an unknown status is a named error."""
    with client(tmp_path) as c:
        done, _host, tokens = new_table(c, "hell", rules=None, games=1)
        with c.websocket_connect(f"/ws/tables/{done}") as ws:
            end = play_through(ws, first=_hello(ws, tokens[0]))
        assert end["table"]["status"] == "over"
        totals, leaders = end["view"]["match"]["totals"], end["view"]["match"]["leaders"]
        waiting = c.post("/api/tables", json={"game": "nap"}).json()["table"]["id"]
        playing, _h, _t = new_table(c, "napoleon", games=1)

        def ids(query: str) -> set[str]:
            r = c.get(f"/api/tables{query}")
            assert r.status_code == 200, r.text
            return {t["id"] for t in r.json()["tables"]}

        assert ids("?status=open") == {waiting, playing}
        assert ids("?status=over") == {done}
        # a finished table says how its match ended (the lobby said 'Game 1 of 1' and no
        # winner): the totals and the seats with the best one, as the match's standings say,
        # in the list and read whole, and stored with the last move (a new process reads it)
        over = c.get("/api/tables?status=over").json()["tables"][0]
        assert over["result"] == {"scores": totals, "winners": leaders, "side": False}, over
        assert c.get(f"/api/tables/{done}").json()["result"] == over["result"]
        stored = Store(f"sqlite:///{tmp_path / 'torampu.db'}").table(done)
        assert stored is not None and stored.result == over["result"]
        assert all(t["result"] is None for t in c.get("/api/tables?status=open").json()["tables"])
        assert ids("?status=waiting") == {waiting}
        assert ids("") == {done, waiting, playing}
        r = c.get("/api/tables?status=finished")
        assert r.status_code == 400 and "status is open" in r.json()["error"]["message"]


def test_the_last_move_of_a_game_is_not_shown_over_the_next_one(tmp_path: Path) -> None:
    """A second review: once the next game was on, "Last: Yuki — play ♥7" from the game before
    still stood over it until somebody moved (in Daifugo, over the whole exchange). The last
    move is shown through the game and its pause, and not once the next game has begun."""
    from contextlib import ExitStack

    with client(tmp_path) as c:
        tid, _, toks = new_table(c, game="hell", rules="standard", games=2, humans=3, players=3)
        with ExitStack() as stack:
            sockets = [stack.enter_context(c.websocket_connect(f"/ws/tables/{tid}")) for _ in toks]
            snaps = [_hello(ws, t) for ws, t in zip(sockets, toks, strict=True)]
            first_of_game_two: list[dict[str, Any]] = []
            while not first_of_game_two:
                mover = next(i for i, s in enumerate(snaps) if s["legal"])
                ws, snap = sockets[mover], snaps[mover]
                ws.send_json(
                    {"type": "act", "action": snap["legal"][0], "version": snap["version"]}
                )
                version = snap["version"] + 1
                for i, w in enumerate(sockets):  # every seat's snapshot of the new version
                    while (m := w.receive_json())["type"] != "snapshot" or m["version"] < version:
                        pass
                    snaps[i] = m
                played = snaps[0]["view"]["match"]["games_played"]
                if played == 1 and snaps[0]["between"] is None:
                    first_of_game_two = snaps
                elif played == 0:
                    assert all(s["last"] for s in snaps)  # within game 1: the move just made
        assert all(s["last"] is None for s in first_of_game_two), [
            s["last"] for s in first_of_game_two
        ]


def test_a_table_deleted_elsewhere_is_dropped_when_its_row_is_read_again(tmp_path: Path) -> None:
    """An eighth audit: a table its host closed in another process while the bus was down (its
    ``closed`` event lost) stayed served here — its players told nothing, its page still
    there — because reading its row again ignored a row that was gone. Any reading again (an
    event, the poll, the bus back: :meth:`Lobby.read_again`) now sends its clients away
    (``table_closed``) and it leaves memory: the table is 404 here too."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 3}).json()
        tid, host = made["table"]["id"], made["host_token"]
        tok = c.post(f"/api/tables/{tid}/join", json={"name": "Ben", "seat": 1}).json()["token"]
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/tables/{tid}") as ben:
            assert _hello(ben, tok)["seat"] == 1
            other = Store(f"sqlite:///{tmp_path / 'torampu.db'}")  # another process's close
            other.delete_table(tid, lambda t: None)
            other.close()
            assert c.get(f"/api/tables/{tid}").status_code == 200  # (still in memory)
            c.portal.call(lobby.read_again, lobby.rooms[tid])  # type: ignore[union-attr]
            ben.send_json({"type": "ping"})  # (answered only if the socket was left there)
            while (msg := ben.receive_json())["type"] not in ("error", "pong"):
                pass
            assert msg.get("code") == "table_closed", msg
        assert tid not in lobby.rooms
        assert c.get(f"/api/tables/{tid}").status_code == 404
        assert c.post(f"/api/tables/{tid}/start", json={}, headers=auth(host)).status_code == 404


def test_the_host_closes_a_table_for_bots_or_one_not_started(tmp_path: Path) -> None:
    """A third review: a browser that left its quick games for bots unfinished could make no
    new table (--tables-per-address counts them for a day) and had no way to end one. The
    host closes a table not yet started, or one in play where at most one seat is a
    person's: it is deleted, and whoever was at it is sent away (``table_closed``). Not one
    where others play, nor a finished one; not by another token; a forged event closes
    nothing."""
    with client(tmp_path, tables_per_address=2) as c:
        solo, solo_host, (solo_tok,) = new_table(c, "hell", None, games=3)
        made = c.post("/api/tables", json={"game": "hell", "players": 3}).json()
        waiting, host = made["table"]["id"], made["host_token"]
        r = c.post("/api/tables", json={"game": "hell", "players": 3})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables"
        tok = c.post(f"/api/tables/{waiting}/join", json={"name": "Ben", "seat": 1}).json()
        close = f"/api/tables/{waiting}/close"
        for token, status in ((None, 401), (tok["token"], 403), (solo_host, 403)):
            r = c.post(close, json={}, headers=auth(token) if token else {})
            assert r.status_code == status and r.json()["error"]["code"] == "unauthorized", r.text
        # a forged event (Redis carries them) closes nothing: the database says the table is there
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        c.portal.call(lobby._on_event, waiting, {"kind": "closed"})  # type: ignore[union-attr]
        assert c.get(f"/api/tables/{waiting}").status_code == 200
        with c.websocket_connect(f"/ws/tables/{waiting}") as ws:
            assert _hello(ws, tok["token"])["seat"] == 1
            r = c.post(close, json={}, headers=auth(host))
            assert r.status_code == 200 and r.json() == {"closed": waiting}, r.text
            msg = ws.receive_json()
            while msg["type"] != "error":
                msg = ws.receive_json()
            assert msg["code"] == "table_closed" and "closed" in msg["message"]
        assert c.get(f"/api/tables/{waiting}").status_code == 404
        # the solo table in play: closed too, and a new table may be made again
        with c.websocket_connect(f"/ws/tables/{solo}") as ws:
            _hello(ws, solo_tok)
            r = c.post(f"/api/tables/{solo}/close", json={}, headers=auth(solo_host))
            assert r.status_code == 200, r.text
        assert c.get(f"/api/tables/{solo}").status_code == 404
        again, again_host, _ = new_table(c, "hell", None, humans=2, games=1)
        # two people in play: not closed; nor once the match is over
        r = c.post(f"/api/tables/{again}/close", json={}, headers=auth(again_host))
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_closable", r.text
        assert "others play" in r.json()["error"]["message"]
        over, over_host, _ = new_table(c, "hell", None, humans=0, games=1)
        for _ in range(300):
            if c.get(f"/api/tables/{over}").json()["status"] == "over":
                break
            time.sleep(0.02)
        r = c.post(f"/api/tables/{over}/close", json={}, headers=auth(over_host))
        assert r.status_code == 409 and "finished" in r.json()["error"]["message"], r.text
    store = Store(f"sqlite:///{tmp_path / 'torampu.db'}")
    assert store.table(waiting) is None and store.table(solo) is None
    assert store.actions(solo) == [] and store.table(again) is not None
    store.close()


def test_what_players_read_of_the_rules_names_no_rule_text_by_number(tmp_path: Path) -> None:
    """A third review: rule choices read "Highest trump (000)", "Trump (002)", "Points table
    (001)" — the numbers of the rule texts the options come from, which no player knows. The
    players' labels, explanations and value names leave them out; the developers' notes
    (``description``, a preset's ``note``) keep them."""
    import re

    ref = re.compile(r"[(（、,] ?(?:\d{3}(?:/\d{3})*|napoleon-web)(?:[)）:]| ★)")
    with client(tmp_path) as c:
        games = c.get("/api/games").json()["games"]
    fields = ("label", "description_en", "label_ja", "description_ja", "values_en", "values_ja")
    seen = []
    for g in games:
        for o in g["options"]:
            for f in fields:
                text = json.dumps(o.get(f), ensure_ascii=False)
                assert not ref.search(text), (g["name"], o["name"], f, text)
            seen.append(o["description"])
        for name, p in g["presets"].items():
            for f in ("name_en", "note_en", "name_ja", "note_ja"):
                assert not ref.search(str(p.get(f))), (g["name"], name, f, p.get(f))
    assert any("(000)" in d for d in seen), "the developers' notes keep their sources"
    ura = next(o for o in games[0]["options"] if o["name"] == "ura_jack_suit")
    assert ura["values_en"] == {"own": "Its printed suit", "trump": "Trump"}


def test_every_client_module_parses_as_a_module(tmp_path: Path) -> None:
    """The page's client is ES modules; a file that does not parse breaks every page that
    imports it. Each is checked as a module with Node — ``node --check`` on a ``.js`` file let
    a ``const`` declared twice through (it reads the file as a script), which the browser
    refuses: the session that wrote one found it only by chance."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    static = Path(torampu.__file__).parent / "web" / "static"
    files = sorted(static.glob("*.js"))
    assert len(files) > 20, files

    def check(source: bytes) -> subprocess.CompletedProcess[bytes]:
        cmd = [node, "--input-type=module", "--check"]
        return subprocess.run(cmd, input=source, capture_output=True, timeout=60)

    for f in files:
        done = check(f.read_bytes())
        assert done.returncode == 0, (f.name, done.stderr.decode(errors="replace")[-600:])
    # (the check refuses what the browser refuses)
    twice = check(b'import { h } from "./dom.js";\nconst a = 1;\nconst a = 2;\n')
    assert twice.returncode != 0 and b"already been declared" in twice.stderr


def test_the_host_puts_out_the_person_they_saw_or_nobody(tmp_path: Path) -> None:
    """A twenty-second audit: the host's "open seat" acted on a seat number, so a player who
    moved seats as the host chose it was not put out, and the host was told "done" (200); and
    opening an open seat answered 200 too. With the seat's holder as the host saw it, a seat
    that changed hands meanwhile is refused ``holder_changed`` and nothing changes; an open
    seat is refused ``seat_open``."""
    with client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "hell", "players": 4}).json()
        tid, host = made["table"]["id"], made["host_token"]
        base = f"/api/tables/{tid}"
        ben = c.post(f"{base}/join", json={"name": "Ben", "seat": 1}).json()["token"]
        seen = c.get(base).json()["seats"][1]["holder"]
        assert isinstance(seen, str) and len(seen) == 8
        assert c.post(f"{base}/move", json={"seat": 3}, headers=auth(ben)).status_code == 200
        for seat in (1, 3):  # Ben's old seat (open now), and his new one under the old view
            r = c.post(
                f"{base}/seats/{seat}",
                json={"open": True, "holder": None if seat == 1 else "0" * 8},
                headers=auth(host),
            )
            code = "seat_open" if seat == 1 else "holder_changed"
            assert r.status_code == 409 and r.json()["error"]["code"] == code, r.text
        r = c.post(f"{base}/seats/1", json={"bot": "random", "holder": seen}, headers=auth(host))
        assert r.status_code == 409 and r.json()["error"]["code"] == "holder_changed", r.text
        seats = c.get(base).json()["seats"]
        assert [s["kind"] for s in seats] == ["open", "open", "open", "human"], seats
        r = c.post(f"{base}/seats/0", json={"open": True}, headers=auth(host))
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_open", r.text
        for bad in (5, ["x"], "x" * 40):
            r = c.post(f"{base}/seats/3", json={"open": True, "holder": bad}, headers=auth(host))
            assert r.status_code == 400 and "holder" in r.json()["error"]["message"], r.text
        # as seen now: Ben is put out (and may not sit here again)
        r = c.post(f"{base}/seats/3", json={"open": True, "holder": seen}, headers=auth(host))
        assert r.status_code == 200, r.text
        assert c.get(base).json()["seats"][3]["kind"] == "open"
        r = c.post(f"{base}/seats/2", json={"bot": "random", "holder": None}, headers=auth(host))
        assert r.status_code == 200 and r.json()["seats"][2]["kind"] == "bot", r.text


def test_a_rematch_asked_of_a_table_deleted_elsewhere_is_refused_as_gone(tmp_path: Path) -> None:
    """A table over whose row another process deleted (its host closed it, or it was kept
    its time) answered a rematch request 409 or 503, and a wish on it was taken as asked: the
    table is not there, 404 ``not_found`` (docs/web.md), for the wish, its withdrawal and
    the host's request alike."""
    with client(tmp_path) as c:
        # (Ben asked first: this process's copy has read the match over, so the wish itself,
        # its withdrawal, meets the table gone)
        for who, ben in (("seat", False), ("seat", True), ("withdraw", True), ("host", False)):
            tid, host, tokens = new_table(c, "hell", None, humans=3)
            store = c.app.state.lobby.store  # type: ignore[attr-defined]
            play_out_elsewhere(c, tid)
            if ben:  # (Ben's wish: not yet everyone's)
                r = c.post(f"/api/tables/{tid}/rematch", json={}, headers=auth(tokens[1]))
                assert r.status_code == 202, r.text
            store.delete_table(tid, lambda _: None)  # (another process)
            token = host if who == "host" else tokens[0]
            body = {"withdraw": True} if who == "withdraw" else {}
            r = c.post(f"/api/tables/{tid}/rematch", json=body, headers=auth(token))
            assert r.status_code == 404, (who, ben, r.text)
            assert r.json()["error"]["code"] == "not_found", (who, ben, r.text)
            assert store.table(tid) is None


def test_seat_changes_from_one_address_are_bounded(tmp_path: Path) -> None:
    """A forty-first audit: seat changes had no bound but the request rate — one address
    renaming its seats at 20 tables in a loop (43 a second) kept another process's core 30 %
    busy, as each change is read again by every process holding the table and each watcher is
    sent a snapshot. ``--seat-change-rate`` bounds them per address, every table and process
    together (429, nothing changed); another address is not refused."""
    with client(tmp_path, seat_change_rate=0.5, seat_change_burst=3) as c:
        tid = c.post("/api/tables", json={"game": "hell", "players": 4}).json()["table"]["id"]
        tok = c.post(f"/api/tables/{tid}/join", json={"name": "Aki", "seat": 0}).json()["token"]
        for name in ("Ben", "Cho"):
            r = c.post(f"/api/tables/{tid}/name", json={"name": name}, headers=auth(tok))
            assert r.status_code == 200, r.text
        r = c.post(f"/api/tables/{tid}/name", json={"name": "Dai"}, headers=auth(tok))
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
        assert "seat changes a second" in r.json()["error"]["message"]
        assert r.headers["retry-after"] == "1"  # (as every 429)
        assert c.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Cho"  # unchanged
        for path, body in (("move", {"seat": 2}), ("leave", {})):
            r = c.post(f"/api/tables/{tid}/{path}", json=body, headers=auth(tok))
            assert r.status_code == 429, (path, r.text)
        other = TestClient(c.app, client=("203.0.113.9", 5000))
        r = other.post(f"/api/tables/{tid}/join", json={"name": "Eve", "seat": 1})
        assert r.status_code == 200, r.text


def test_the_table_list_pages_no_further_than_its_offset_bound(tmp_path: Path) -> None:
    """A thirty-first audit: a page far into the list read and passed over every table before
    it (100,000 finished tables: 0.45 s a page, the database threads busy). A page starts at
    most 1,000 tables in; the lobby's pages by status are read from an index (0011)."""
    with client(tmp_path) as c:
        assert c.get("/api/tables?offset=1000").status_code == 200
        r = c.get("/api/tables?offset=1001")
        assert r.status_code == 400 and "offset is 0 to 1,000" in r.json()["error"]["message"]
        made = c.post("/api/tables", json={"game": "hell", "players": 3}).json()["table"]["id"]
        ids = [t["id"] for t in c.get("/api/tables?status=open").json()["tables"]]
        assert ids == [made]


async def _bots_table_in_play(url: str) -> str:
    """A Napoleon table of five bots started by a process now stopped (nobody drives it): its
    id, for a process to adopt."""
    from torampu.web.rooms import Lobby, Settings

    first = Lobby(Store(url), Settings(database=url, bot_workers=0, bot_delay=60))
    room, _host = await first.create("napoleon", None, 5, 1, ["heuristic"] * 5)
    await first.start_table(room, None)
    await first.stop()
    first.store.close()
    return str(room.id)


def _leases_and_slow_load() -> tuple[type[Any], type[Any]]:
    """A bus on which nobody held a table's lease when looked at and this process takes it
    (``held``: the leases held), and a lobby whose first load takes 30 s (a long match
    replayed: what the test does meanwhile comes first)."""
    import asyncio

    from torampu.web.bus import LocalBus
    from torampu.web.rooms import Lobby

    class Leases(LocalBus):
        def __init__(self) -> None:
            super().__init__()
            self.held: set[str] = set()

        async def leased(self, table_ids: list[str]) -> set[str]:
            return set()

        async def lease(self, table_id: str, ttl: float, held: bool = False) -> bool:
            self.held.add(table_id)
            return True

        async def release(self, table_id: str, park: float = 0.0) -> None:
            self.held.discard(table_id)

    class SlowLoad(Lobby):
        slow = 30.0

        async def _load(self, table: Any, actions: list[Any]) -> Any:
            slow, self.slow = self.slow, 0.0
            await asyncio.sleep(slow)
            return await super()._load(table, actions)

    return Leases, SlowLoad


def test_a_table_another_process_took_first_is_neither_loaded_nor_said_driven_here(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A thirty-third scale audit: every process looking for tables nobody drives found the same
    ones free at once (after a process died, or a stall), loaded each of them and logged it
    "driven here" before its driver asked for the lease — one drove, the others held copies
    and counted the tables twice. The lease is now taken before the table is loaded: a table
    whose lease another process took in between is left to it, and only those taken here are
    counted."""
    import asyncio
    import contextlib
    import logging

    from torampu.web.bus import LocalBus
    from torampu.web.rooms import Lobby, Settings

    url = f"sqlite:///{tmp_path / 'torampu.db'}"

    class Elsewhere(LocalBus):  # nobody held the lease when looked at; then another took it
        def __init__(self, wins: bool) -> None:
            super().__init__()
            self.wins, self.asked = wins, 0

        async def leased(self, table_ids: list[str]) -> set[str]:
            return set()

        async def lease(self, table_id: str, ttl: float, held: bool = False) -> bool:
            self.asked += 1
            return self.wins

    async def scenario() -> None:
        tid = await _bots_table_in_play(url)
        for wins in (False, True):
            caplog.clear()
            bus = Elsewhere(wins)
            store = Store(url)
            lobby = Lobby(store, Settings(database=url, bot_workers=0, lease_ttl=0.5), bus=bus)
            looking = asyncio.create_task(lobby._adopt())
            # (it looks every 2 s at least; then a load on a busy machine takes what it takes:
            # waited for, not a fixed 0.6 s. The turn's line follows the load with no await)
            for _ in range(400):
                if bus.asked and (not wins or tid in lobby.rooms):
                    break
                await asyncio.sleep(0.05)
            looking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await looking
            said = [r.getMessage() for r in caplog.records if "driven here" in r.getMessage()]
            assert bus.asked >= 1
            if wins:
                line = f"1 table(s) in play that no process drove: driven here ({tid})"
                assert tid in lobby.rooms and said == [line], said
            else:
                assert tid not in lobby.rooms and said == [], said
            await lobby.stop()
            store.close()

    with caplog.at_level(logging.WARNING, logger="torampu.web"):
        asyncio.run(scenario())


def test_a_table_waiting_on_a_present_persons_move_sends_no_snapshot_again(
    tmp_path: Path,
) -> None:
    """A thirty-third scale audit: while a table waited on the move of a person who was there
    (no turn timer, nobody gone), its driver sent every socket at it the same snapshot again
    every third of a lease (1.7 s; 3-4 KB each, 5 of 5 identical) — "an away flag may have
    turned", when no clock ran that could turn one. Nothing is sent until something changes."""
    import time as _time

    with client(tmp_path, lease_ttl=0.6) as c:
        tid, _host, tokens = new_table(c, humans=1)
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            msg = _hello(ws, tokens[0])
            while not msg["legal"]:  # the bots move until it is seat 0's turn
                msg = receive(ws)
            room = lobby.rooms[tid]
            before = room.revision
            _time.sleep(1.5)  # (the driver looks every 0.2 s)
            assert room.version == msg["version"]
            assert room.revision == before, room.revision - before


def test_a_database_outage_logs_one_traceback_a_minute_and_a_line_for_each_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A thirty-third scale audit: a 12 s PostgreSQL outage wrote some 80 tracebacks of 25
    lines each per process, one per refused request. Each failure is still logged with its
    id (the one its client is shown), the traceback once a minute for each kind."""
    import logging

    from sqlalchemy.exc import OperationalError

    from torampu.web import rooms

    rooms._traced.clear()
    down = OperationalError("SELECT 1", {}, Exception("connection refused\nDETAIL: more"))
    with caplog.at_level(logging.ERROR, logger="torampu.web"):
        said = [str(rooms.storage_unavailable(down, now=t)) for t in (0.0, 1.0, 30.0, 61.0)]
    records = [r for r in caplog.records if "storage error" in r.getMessage()]
    assert [r.exc_info is not None for r in records] == [True, False, False, True]
    ids = [m.rsplit("error ", 1)[1].rstrip(")") for m in said]
    assert len(set(ids)) == 4 and all(
        i in r.getMessage() for i, r in zip(ids, records, strict=True)
    )
    assert all("\n" not in r.getMessage() for r in records[1:3])
    assert "OperationalError: (builtins.Exception) connection refused" in records[1].getMessage()


def test_a_process_stopping_while_it_loads_a_table_it_adopts_gives_the_lease_back(
    tmp_path: Path,
) -> None:
    """A code review of the lease taken before the load: a process stopped (a deploy's
    SIGTERM) while a table it had leased to adopt was loading kept the lease — the adopter is
    cancelled in the load, no driver ever started to release it — and every other process left
    the table for a whole --lease-ttl more, nobody driving it."""
    import asyncio

    from torampu.web.rooms import Settings

    url = f"sqlite:///{tmp_path / 'torampu.db'}"
    Leases, SlowLoad = _leases_and_slow_load()

    async def scenario() -> None:
        tid = await _bots_table_in_play(url)
        bus = Leases()
        store = Store(url)
        lobby = SlowLoad(store, Settings(database=url, bot_workers=0, lease_ttl=0.5), bus=bus)
        lobby._adopter = asyncio.create_task(lobby._adopt())
        for _ in range(200):  # (it looks every 2 s at least)
            if bus.held:
                break
            await asyncio.sleep(0.05)
        assert bus.held == {tid}
        await asyncio.sleep(0.1)  # (in the load)
        await lobby.stop()
        store.close()
        assert bus.held == set()

    asyncio.run(scenario())


def test_serve_refuses_a_websocket_data_rate_past_a_float_whatever_the_frame_rate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A code review: the two websocket rates were checked finite by their product, so a frame
    rate of 0.001 let --ws-kib-rate 1e306 through — inf bytes a second, and every websocket's
    start an OverflowError (its burst, four seconds' worth, made a whole number)."""
    import uvicorn
    from typer.testing import CliRunner

    from torampu.cli import app

    def run(asgi: Any, **kw: Any) -> None:
        raise AssertionError(f"served with {kw['ws'].limits}")

    monkeypatch.setattr(uvicorn, "run", run)
    r = CliRunner().invoke(app, ["serve", "--ws-frame-rate", "0.001", "--ws-kib-rate", "1e306"])
    assert r.exit_code == 2 and "--ws-frame-rate and --ws-kib-rate are numbers > 0" in r.output


def test_the_adopter_goes_on_when_another_load_of_the_same_table_is_cancelled(
    tmp_path: Path,
) -> None:
    """A code review of 6b25212: the adopter waiting on a load another caller began (a
    websocket's hello, its reader cancelled as its writer ended) got that caller's
    CancelledError, taken for the process stopping: the lease given back and the adopter's
    loop ended for good — no table adopted by this process again, though nothing stopped."""
    import asyncio

    from torampu.web.rooms import Settings

    url = f"sqlite:///{tmp_path / 'torampu.db'}"
    Leases, SlowLoad = _leases_and_slow_load()  # (the first load long: the adopter comes meanwhile)

    async def scenario() -> None:
        tid = await _bots_table_in_play(url)
        bus = Leases()
        store = Store(url)
        lobby = SlowLoad(store, Settings(database=url, bot_workers=0, lease_ttl=0.5), bus=bus)
        other = asyncio.create_task(lobby.room(tid))  # (a socket's hello, loading it)
        await asyncio.sleep(0.05)
        lobby._adopter = asyncio.create_task(lobby._adopt())
        for _ in range(200):  # (it looks every 2 s at least)
            if bus.held:
                break
            await asyncio.sleep(0.05)
        assert bus.held == {tid}
        await asyncio.sleep(0.05)  # (waiting on the other's load)
        other.cancel()  # (that socket gone)
        await asyncio.sleep(0.3)
        assert not lobby._adopter.done(), "the adopter ended, nothing stopping"
        for _ in range(100):
            if tid in lobby.rooms:
                break
            await asyncio.sleep(0.05)
        assert tid in lobby.rooms and bus.held == {tid}
        await lobby.stop()
        store.close()

    asyncio.run(scenario())
