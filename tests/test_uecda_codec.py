"""The UECda codec on bytes captured from a real session, byte round trips, and the play ↔ table
mapping against the port of tndhms's ``analyze_card`` (hypothesis).

``tests/fixtures/uecda/tndhms-default*.json`` hold the whole byte streams, both ways, of the five
default clients of the UECda devkit playing 3 games on a tndhms (captured with a logging TCP
proxy); that server flushes the table once all but one of the players still in have passed (the
changed rule, ``flush_when: one_left``), as walking them shows. ``tndhms-official*.json`` are the
same kind of capture on the tndhms of s1300097/reserch with its flush line restored to UECda's
rule (``flush_when: everyone``: play comes back to the table's player). Walking them with the
protocol's state machine checks every message the codec reads, that each table re-encodes to its
exact bytes, that the port of tndhms's referee predicts every answer the real server gave, and
that our client's tracker follows the games (turns, places), recognising the flush rule by
itself, never losing its mirror.
"""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from torampu.cards import parse_cards
from torampu.daifugo_plays import JSHIFT, PASS, all_plays, parse_play, play_str
from torampu.uecda.client import GameTracker
from torampu.uecda.codec import (
    ACCEPTED,
    ALL_GAMES_OVER,
    GAME_GOES_ON,
    GAME_OVER,
    HAND_BYTES,
    REFUSED,
    TABLE_BYTES,
    Status,
    Table,
    UecdaProtocolError,
    UnrepresentablePlay,
    check_answer,
    check_game_code,
    check_shape,
    decode_int,
    decode_table,
    empty_table,
    encode_cell_rows,
    encode_hand_rows,
    encode_int,
    encode_status,
    encode_table,
    hand_table,
    play_table,
    play_text,
    profile_table,
    read_profile,
    read_status,
    table_hand,
    table_play,
    write_status,
)
from torampu.uecda.tndhms import EMPTY_STAGE, JOKER_TYPE, analyze_card, judge, stage_of

FIXTURES = Path(__file__).parent / "fixtures" / "uecda"
RULES = {"preset": "uecda"}
# tndhms's console output for the captured sessions: places per game, 大富豪 first
CAPTURED_RANKINGS = {
    "default": [[4, 2, 0, 3, 1], [2, 4, 0, 3, 1], [4, 2, 0, 1, 3]],
    "official": [[2, 4, 0, 1, 3], [0, 1, 4, 2, 3], [3, 1, 2, 0, 4]],
}
FLUSH_RULE = {"default": "one_left", "official": "everyone"}
"""The flush rule each capture's server plays."""


def load(player: int, capture: str = "default") -> tuple[bytes, bytes]:
    d = json.loads((FIXTURES / f"tndhms-{capture}{player}.json").read_text(encoding="utf-8"))
    assert d["player"] == player
    c2s = zlib.decompress(base64.b64decode(d["c2s"]))
    s2c = zlib.decompress(base64.b64decode(d["s2c"]))
    return c2s, s2c


class Stream:
    """Reads one direction of a captured session message by message, checking that each
    decoded message re-encodes to the very bytes it came from."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def table(self) -> Table:
        raw = self.data[self.at : self.at + TABLE_BYTES]
        self.at += TABLE_BYTES
        t = decode_table(raw)
        assert encode_table(t) == raw
        return t

    def int(self) -> int:
        raw = self.data[self.at : self.at + 4]
        self.at += 4
        v = decode_int(raw)
        assert encode_int(v) == raw
        return v

    @property
    def done(self) -> bool:
        return self.at == len(self.data)


@dataclass
class Walk:
    """What walking one captured session found."""

    me: int = -1
    name: str = ""
    games: int = 0
    turns: int = 0
    my_turns: int = 0
    refused_plays: int = 0
    exchanges: int = 0
    rankings: list[list[int] | None] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)
    flush_rules: list[str] = field(default_factory=list)
    lost: int = 0
    resyncs: int = 0
    comebacks: int = 0
    """Turns where play came back to the player of the table's play, the table kept (UECda's
    flush rule: the others all passed, and it may play on)."""


def walk(player: int, capture: str = "default") -> Walk:
    c2s, s2c = load(player, capture)
    up, down = Stream(c2s), Stream(s2c)
    w = Walk()
    version, w.name = read_profile(up.table())
    assert version == 20070
    w.me = down.int()
    while True:
        w.games += 1
        deal = down.table()
        st = read_status(deal)
        assert st.deal and st.turn == 6 and not st.my_turn
        real, jokers = table_hand(deal)
        # the sizes are from before the exchange; the rich already hold what the poor gave
        assert real.bit_count() + jokers == st.hand_sizes[w.me] + st.exchange
        guess = w.flush_rules[-1] if w.flush_rules else None
        tracker = GameTracker(w.me, w.games, deal, RULES, "auto", guess)
        table_by = -1
        if 0 < st.exchange < 100:
            w.exchanges += 1
            back = up.table()
            back_real, back_jok = table_hand(back)
            assert back_real.bit_count() + back_jok == st.exchange
            assert back_real & ~real == 0  # the default client returns cards it holds
        while True:
            hand = down.table()
            hst = tracker.on_hand(hand)
            w.turns += 1
            if not hst.new_round and hst.turn == table_by:
                w.comebacks += 1
            if hst.my_turn:
                w.my_turns += 1
                sub = up.table()
                answer = check_answer(down.int())
                stage = stage_of(tracker.stage_table, hst.new_round) if tracker.events else None
                verdict = judge(
                    hand,
                    sub,
                    stage or EMPTY_STAGE,
                    revolution=hst.revolution,
                    eleven_back=hst.eleven_back,
                    lock=int(hst.lock),
                    joker_single=stage is not None and stage[3] == JOKER_TYPE,
                )
                assert verdict.answer == answer, (w.games, w.turns, verdict)
                if answer == REFUSED and not verdict.is_pass:
                    w.refused_plays += 1
                if answer == ACCEPTED and not verdict.is_pass:
                    try:
                        move = table_play(sub)
                    except UnrepresentablePlay:
                        move = -1
                    if move >= 0:  # the client's own play is now our hand's loss
                        assert move != PASS
                tracker.mirror()  # the mirror follows the real game up to our turn
            stage_t = down.table()
            tracker.on_stage(stage_t)
            if tracker.events[-1][1] != PASS:
                table_by = tracker.events[-1][0]
            code = check_game_code(down.int())
            w.codes.append(code)
            if code != GAME_GOES_ON:
                break
        tracker.mirror()  # the whole game, to its end
        report = tracker.finish()
        w.rankings.append(report.ranking)
        w.flush_rules.append(report.flush_when)
        w.lost += report.lost
        w.resyncs += report.resyncs
        if code == ALL_GAMES_OVER:
            break
    assert up.done and down.done, "bytes left over in the capture"
    return w


@pytest.mark.parametrize("capture", ["default", "official"])
@pytest.mark.parametrize("player", range(5))
def test_captured_sessions_parse_and_the_port_predicts_every_answer(
    player: int, capture: str
) -> None:
    w = walk(player, capture)
    assert w.me == player and w.name == f"default{player}"
    assert w.games == 3
    assert w.codes.count(GAME_OVER) == 2 and w.codes[-1] == ALL_GAMES_OVER
    rankings = CAPTURED_RANKINGS[capture]
    assert w.rankings == rankings
    assert w.my_turns > 0
    # game 1 has no exchange; games 2 and 3 make the 大富豪 and the 富豪 return cards
    rich = {rankings[0][0], rankings[0][1]}
    rich2 = {rankings[1][0], rankings[1][1]}
    assert w.exchanges == (player in rich) + (player in rich2)
    # the tracker recognised the server's flush rule and never lost (or forced) its mirror
    assert w.flush_rules == [FLUSH_RULE[capture]] * 3
    assert w.lost == 0 and w.resyncs == 0


@pytest.mark.parametrize("capture", ["default", "official"])
def test_captured_turn_counts_agree_across_players(capture: str) -> None:
    walks = [walk(p, capture) for p in range(5)]
    assert len({w.turns for w in walks}) == 1  # every client saw every turn
    assert sum(w.my_turns for w in walks) == walks[0].turns
    # only UECda's rule gives the turn back to the table's player
    assert (walks[0].comebacks > 0) == (capture == "official")


def test_a_fixed_flush_rule_that_is_wrong_is_resynchronised() -> None:
    """Told the wrong rule (no ``auto``), the tracker sets its mirror to the server's tables,
    counts each such turn, and still follows the game to its places."""
    c2s, s2c = load(0, "official")
    up, down = Stream(c2s), Stream(s2c)
    read_profile(up.table())
    me = down.int()
    deal = down.table()
    tracker = GameTracker(me, 1, deal, RULES, "one_left")
    while True:
        hst = tracker.on_hand(down.table())
        if hst.my_turn:
            up.table()
            down.int()
            tracker.mirror()
        tracker.on_stage(down.table())
        if down.int() != GAME_GOES_ON:
            break
    tracker.mirror()
    report = tracker.finish()
    assert report.resyncs > 0 and not report.lost and report.flush_when == "one_left"
    assert report.ranking == CAPTURED_RANKINGS["official"][0]


def test_first_bytes_of_a_capture() -> None:
    """The first messages of player 0's session, byte for byte."""
    c2s, s2c = load(0)
    profile = decode_table(c2s[:TABLE_BYTES])
    assert c2s[:4].hex() == "00004e66"  # 20070, big-endian
    assert profile[1][:9] == [ord(c) for c in "default0"] + [0]
    assert s2c[:4] == bytes(4)  # player number 0
    deal = decode_table(s2c[4 : 4 + TABLE_BYTES])
    st = read_status(deal)
    assert st == Status(
        deal=True,
        exchange=0,
        turn=6,
        hand_sizes=st.hand_sizes,
        ranks=(0, 0, 0, 0, 0),
        seating=(1, 2, 0, 4, 3),  # tndhms printed "sekigae done -> 1 2 0 4 3"
    )
    assert sorted(st.hand_sizes) == [10, 10, 11, 11, 11]
    assert profile_table("default0") == profile


# ------------------------------------------------------------------------------- round trips
def test_encode_decode_bytes() -> None:
    t = empty_table()
    t[0][0] = 20070
    t[7][14] = 1
    raw = encode_table(t)
    assert len(raw) == 480
    assert raw[:4] == bytes.fromhex("00004e66") and raw[-4:] == bytes.fromhex("00000001")
    assert decode_table(raw) == t
    t[3][3] = -2
    assert decode_table(encode_table(t))[3][3] == 0  # tndhms sends a negative cell as 0
    assert encode_int(9) == b"\x00\x00\x00\x09" and decode_int(b"\x00\x00\x00\x08") == 8


def test_cells_follow_the_devkit() -> None:
    """Rows ♠ ♥ ♦ ♣, columns 3..2 = 1..13, the joker of a hand at [4][1]."""
    t = hand_table(parse_cards("3D 3S 2C AH"), 1)
    assert t[2][1] == 1 and t[0][1] == 1 and t[3][13] == 1 and t[1][12] == 1
    assert t[4][1] == 2
    assert sum(map(sum, t)) == 6
    assert table_hand(t) == (parse_cards("3D 3S 2C AH"), 1)


def test_play_tables_for_each_shape() -> None:
    group = play_table(parse_play("5H 5C JK"))
    assert group[1][3] == 1 and group[3][3] == 1 and group[0][3] == 2  # joker: lowest free row
    locked = play_table(parse_play("5H 5C JK"), lock_suits=0b1110)
    assert locked[2][3] == 2  # under a lock of ♥♦♣ the joker takes the missing ♦
    five = play_table(parse_play("9S 9H 9D 9C JK"))
    assert five[4][7] == 2  # five of a kind: the joker in row 4
    run = play_table(parse_play("5H JK 7H"))
    assert [run[1][j] for j in (3, 4, 5)] == [1, 2, 1]
    lone = play_table(parse_play("JK"))
    assert lone[0][14] == 2 and sum(map(sum, lone)) == 2
    assert play_table(PASS) == empty_table()
    for text in ("5C 5H JK", "9C 9D 9H 9S JK", "5H JK 7H", "JK", "3D", "3D 4D 5D 6D"):
        assert play_text(table_play(play_table(parse_play(text)))) == "play " + text


def test_unrepresentable_runs_are_named() -> None:
    t = empty_table()
    t[0][0], t[0][1], t[0][2] = 2, 1, 1  # JK 3S 4S: the joker below the 3
    assert analyze_card(t)[1] is False  # tndhms takes it
    with pytest.raises(UnrepresentablePlay, match="below the 3") as e:
        table_play(t)
    assert e.value.low == 0 and e.value.size == 3 and e.value.suit == 0


@pytest.mark.parametrize(
    ("cells", "match"),
    [
        ({(0, 3): 3}, r"cell \[0\]\[3\] is 3"),
        ({(4, 3): 1}, r"cell \[4\]\[3\] holds no card"),
        ({(0, 3): 2, (1, 3): 2}, "at most one joker"),
        ({(0, 3): 1, (1, 4): 1}, "make no play"),
        ({(0, 3): 1, (0, 5): 1, (0, 6): 1}, "adjacent"),
        ({(0, 3): 1, (0, 4): 1}, "3 or more"),
        ({(4, 5): 2}, "row 4"),
    ],
)
def test_bad_tables_raise_precise_errors(cells: dict[tuple[int, int], int], match: str) -> None:
    t = empty_table()
    for (i, j), v in cells.items():
        t[i][j] = v
    with pytest.raises(UecdaProtocolError, match=match):
        table_play(t)
    status, error = analyze_card(t)
    # tndhms refuses each of them too, but for a table with no 1 or 2 at all: that is a pass
    assert error is True or status[1] == 0


def test_protocol_errors() -> None:
    with pytest.raises(UecdaProtocolError, match="480 bytes, not 479"):
        decode_table(bytes(479))
    bad = profile_table("x")
    bad[0][0] = 20060
    with pytest.raises(UecdaProtocolError, match="speaks protocol 20060"):
        read_profile(bad)
    with pytest.raises(UecdaProtocolError, match="ASCII"):
        profile_table("大富豪")
    with pytest.raises(UecdaProtocolError, match=r"expected 9 \(accepted\) or 8"):
        check_answer(7)
    with pytest.raises(UecdaProtocolError, match="expected 0, 1 or 2"):
        check_game_code(3)
    t = empty_table()
    t[4][3] = 1
    with pytest.raises(UecdaProtocolError, match=r"a hand table has 1 at \[4\]\[3\]"):
        table_hand(t)
    with pytest.raises(UecdaProtocolError, match="at most one joker"):
        play_table(parse_play("5H JK JK"))
    s = write_status(empty_table(), Status())
    s[6][10] = 1  # player 1 in two seats, player 0 in none
    with pytest.raises(UecdaProtocolError, match="seats"):
        read_status(s)


def test_status_round_trip() -> None:
    st = Status(
        deal=False,
        exchange=0,
        my_turn=True,
        turn=3,
        new_round=True,
        revolution=True,
        lock=True,
        hand_sizes=(1, 2, 3, 4, 5),
        ranks=(4, 3, 2, 1, 0),
        seating=(2, 0, 1, 4, 3),
    )
    t = write_status(hand_table(parse_cards("3D"), 0), st)
    assert read_status(t) == st
    assert decode_table(encode_table(t)) == t
    assert t[5][:8] == [0, 0, 1, 3, 1, 0, 1, 1]
    assert t[6] == [1, 2, 3, 4, 5, 4, 3, 2, 1, 0, 2, 0, 1, 4, 3]


# ------------------------------------------------------------------------------- hypothesis
@settings(max_examples=150, deadline=None)
@given(st.integers(0, (1 << 52) - 1), st.integers(0, 1), st.data())
def test_every_play_round_trips_through_a_table(
    real: int, jokers: int, data: st.DataObject
) -> None:
    """play → table → play is the identity for every play a hand can make (one joker at most),
    and tndhms's analyze_card takes each table as a play of that many cards."""
    hand = real & ((1 << 52) - 1) & data.draw(st.integers(0, (1 << 52) - 1))
    plays = all_plays(hand, jokers, True, True)
    for m in data.draw(st.lists(st.sampled_from(plays), max_size=8)) if plays else []:
        lock = data.draw(st.integers(0, 15))
        t = play_table(m, lock_suits=lock)
        assert table_play(t) == m, play_str(m)
        status, error = analyze_card(t)
        assert not error, play_str(m)
        assert status[1] == (m & ((1 << 52) - 1)).bit_count() + (m >> JSHIFT & 3)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.tuples(st.integers(0, 4), st.integers(0, 14)),
        st.sampled_from([1, 1, 1, 2]),
        max_size=6,
    )
)
def test_table_play_accepts_what_tndhms_accepts(cells: dict[tuple[int, int], int]) -> None:
    """For any table of 1s and 2s: our codec names a play exactly when tndhms's analyze_card
    finds one (a run with its joker beyond the 3 or the 2 is named as unrepresentable)."""
    t = empty_table()
    for (i, j), v in cells.items():
        t[i][j] = v
    _, error = analyze_card(t)
    try:
        table_play(t)
        ours = True
    except UnrepresentablePlay:
        ours = True
    except UecdaProtocolError:
        ours = False
    assert ours == (not error), cells


statuses = st.builds(
    Status,
    deal=st.booleans(),
    exchange=st.integers(0, 2),
    my_turn=st.booleans(),
    turn=st.integers(0, 6),
    new_round=st.booleans(),
    eleven_back=st.booleans(),
    revolution=st.booleans(),
    lock=st.booleans(),
    hand_sizes=st.tuples(*[st.integers(0, 53)] * 5),
    ranks=st.tuples(*[st.integers(0, 4)] * 5),
    seating=st.permutations(range(5)).map(tuple),
)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << 52) - 1), st.integers(0, 1), statuses, st.booleans())
def test_the_servers_byte_encoders_equal_encoding_the_tables(
    real: int, jokers: int, s: Status, mine: bool
) -> None:
    """What the server sends as bytes (a hand's rows + the status rows, the cards on the table
    + the status rows) is byte for byte ``encode_table`` of the tables it stands for."""
    t = write_status(hand_table(real, jokers), s)
    assert encode_hand_rows(real, jokers) + encode_status(s) == encode_table(t)
    assert encode_cell_rows(t) + encode_status(s) == encode_table(t)
    other = write_status(hand_table(real, jokers), replace(s, my_turn=mine))
    assert encode_hand_rows(real, jokers) + encode_status(s, my_turn=mine) == encode_table(other)
    assert len(encode_hand_rows(real, jokers)) == HAND_BYTES


def test_the_byte_encoders_refuse_what_encode_table_refuses() -> None:
    with pytest.raises(UecdaProtocolError, match="joker"):
        encode_hand_rows(0, 2)
    with pytest.raises(UecdaProtocolError, match="not an int"):
        encode_status(Status(exchange=True))
    with pytest.raises(UecdaProtocolError, match="rows"):
        encode_status(Status(hand_sizes=(1, 2, 3)))
    t = empty_table()
    t[2][3] = -4  # sent as 0, as tndhms does
    assert encode_cell_rows(t) == bytes(HAND_BYTES)
    t[1][1] = 1 << 31
    with pytest.raises(UecdaProtocolError, match="32-bit"):
        encode_cell_rows(t)
    t[1][1] = True
    with pytest.raises(UecdaProtocolError, match=r"\[1\]\[1\] is True"):
        check_shape(t)
    t[1][1] = 0
    check_shape(t)
    t[7].append(0)
    with pytest.raises(UecdaProtocolError, match="8 rows of 15"):
        check_shape(t)
