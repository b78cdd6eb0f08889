"""A sixty-sixth audit: running a stranger's script or misleading a player in the browser.

A stranger could sit beside "Aki" as "Akі" (a Cyrillic і), "AkI" or "Akl": the seats, the chat
and the turn line showed two players of one name, and the newcomer's "it's Aki, give me the
link" read as Aki's. A name that looks like another's at the table is refused as the same name.
"""

from __future__ import annotations

from pathlib import Path

from web_helpers import auth, client


def test_a_name_that_only_looks_like_another_is_refused(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "hell", "players": 4, "games": 1})
        tid = r.json()["table"]["id"]
        join, rename = f"/api/tables/{tid}/join", f"/api/tables/{tid}/name"
        assert c.post(join, json={"name": "Aki", "seat": 0}).status_code == 200
        for twin in ("Ak\u0456", "\u0410ki", "AkI", "\u0391ki", "Ak\u0131"):
            r = c.post(join, json={"name": twin, "seat": 1})
            assert r.status_code == 409, (twin, r.text)
            assert r.json()["error"]["code"] == "name_taken", (twin, r.text)
        ben = c.post(join, json={"name": "Ben", "seat": 1}).json()["token"]
        r = c.post(rename, json={"name": "Ak\u0456"}, headers=auth(ben))
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", r.text
        # (names that only share letters stay apart: another script's own name, a longer one)
        for i, name in enumerate(("Akira", "\u0410\u043d\u044f"), start=2):
            assert c.post(join, json={"name": name, "seat": i}).status_code == 200, name


def test_a_name_the_page_uses_for_others_is_refused(tmp_path: Path) -> None:
    """A 66th audit: a player could sit as "Spectator" (or "観戦者", "Seat 2", "空席", "you"):
    their chat lines read as a spectator's, their seat as an empty one's or the reader's own.
    Refused, ``name_reserved``, on joining and renaming; names that only hold such a word stay
    allowed."""
    with client(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "hell", "players": 4, "games": 1})
        tid = r.json()["table"]["id"]
        join, rename = f"/api/tables/{tid}/join", f"/api/tables/{tid}/name"
        for word in (
            "Spectator",
            "観戦者",
            "ＳＥＡＴ ２",
            "seat3",
            "3番席",
            "空席",
            "You",
            "あなた",
        ):
            r = c.post(join, json={"name": word, "seat": 0})
            assert r.status_code == 400, (word, r.text)
            assert r.json()["error"]["code"] == "name_reserved", (word, r.text)
        aki = c.post(join, json={"name": "Aki", "seat": 0}).json()["token"]
        r = c.post(rename, json={"name": "Open seat"}, headers=auth(aki))
        assert r.status_code == 400 and r.json()["error"]["code"] == "name_reserved", r.text
        for i, name in enumerate(("Spectator Aki", "Seattle", "Youko"), start=1):
            assert c.post(join, json={"name": name, "seat": i}).status_code == 200, name
        assert c.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Aki"


def test_an_i_and_an_l_are_two_letters(tmp_path: Path) -> None:
    """A review: the capital I taken both as an i (case folded) and as an l (one stroke) made
    every i an l — "Mel" could not sit beside "Mei", nor "Kal" beside "Kai", nor "ALL" beside
    "ALI". A letter is read as it looks in its own case: "MeI" and "Me1" look like "Mel";
    and the Greek Ν like an N, its η like an n (they were read as a v and an h only)."""
    with client(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "hell", "players": 4, "games": 1})
        join = f"/api/tables/{r.json()['table']['id']}/join"
        for seat, name in enumerate(("Mei", "Mel", "\u039da\u03b7")):
            assert c.post(join, json={"name": name, "seat": seat}).status_code == 200, name
        for twin in ("MeI", "Me1", "Me|", "MEI", "Nan"):
            r = c.post(join, json={"name": twin, "seat": 3})
            assert r.status_code == 409, (twin, r.text)
            assert r.json()["error"]["code"] == "name_taken", (twin, r.text)
        # (the refusal names whom the name looks like: the newcomer typed no one's name)
        said = c.post(join, json={"name": "Me1", "seat": 3}).json()["error"]["message"]
        assert "already called Mel, which Me1 looks like" in said, said
