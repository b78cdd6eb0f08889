"""The ``uecda`` preset and the options it added, scenario by scenario, and torampu's game played
turn by turn against the port of tndhms's referee (:class:`torampu.uecda.tndhms.TndhmsGame`).

Each option added for UECda (source "UECda" in ``torampu.rules("daifugo")``) is off by default
and has a scenario here that shows it on and off; the cross-check at the end plays random games
under the preset on both engines and requires the same turns, the same legal plays (every play
torampu allows, tndhms accepts, and the other way round), the same ends and the same places.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torampu
from torampu.daifugo import Daifugo
from torampu.daifugo_plays import all_plays, parse_play, play_str
from torampu.errors import DealError, RecordError
from torampu.uecda.codec import hand_table, play_table
from torampu.uecda.tndhms import TndhmsGame

UECDA_OPTIONS: dict[str, tuple[Any, list[Any]]] = {
    "first_lead_include": (True, [True, False]),
    "lead_pass": (False, [False, True]),
    "flush_when": ("all_passed", ["all_passed", "one_left", "everyone"]),
    "stalemate_passes": (0, [0, 20, 10, 30, 50, 100]),
    "lock_plays": ("004", ["004", "2"]),
    "joker_unlocks": (False, [False, True]),
    "joker_suit": ("wild", ["wild", "lowest"]),
    "run_effects": ("top", ["top", "any"]),
    "deal_from": ("titles", ["titles", "seats"]),
    "seat_change": (0, [0, 1, 2, 3, 4, 5, 10, 20, 25, 50, 100, 200, 500, 1000]),
    "rank_reset": (0, [0, 1, 2, 3, 4, 5, 10, 20, 25, 50, 100, 200, 500, 1000]),
}
"""option -> (default, values): each default keeps 004's behaviour."""


def new(hands: list[str], seating: list[int] | None = None, **rules: Any) -> Daifugo:
    """A ``uecda`` game (plus ``rules``) on a fixed deal; ♦3's holder leads."""
    extra: dict[str, Any] = {} if seating is None else {"seating": seating}
    g = torampu.new_game(
        "daifugo",
        rules={"preset": "uecda", **rules},
        deal={"hands": [h.split() for h in hands]},
        seed=0,
        **extra,
    )
    assert isinstance(g, Daifugo)
    return g


def run(g: torampu.Game, *actions: str) -> torampu.Game:
    for a in actions:
        g.play(a if a.split()[0] in ("pass", "exchange") else "play " + a)
    return g


def codes(g: torampu.Game, back: int = 1) -> list[str]:
    return [w["code"] for w in g.view(None)["log"][-back]["why"]]


def plays(g: torampu.Game) -> list[str]:
    return [a[5:] for a in g.legal_actions() if a.startswith("play ")]


def roundtrip(g: torampu.Game) -> None:
    rec = json.loads(json.dumps(g.to_record()))
    assert torampu.replay(rec).to_record() == rec


HANDS = [
    "3D 9S KH",
    "4S 5H 8C QD",
    "4H 6H 7C JD",
    "5S 6S 7D TD",
    "4C 5C 9H JK",
]


# ------------------------------------------------------------------------------- the options
def test_uecda_options_are_listed_with_defaults_that_keep_004() -> None:
    table = {o["name"]: (o["default"], o["values"]) for o in torampu.rules("daifugo")}
    assert {k: table[k] for k in UECDA_OPTIONS} == UECDA_OPTIONS
    assert {o["name"] for o in torampu.rules("daifugo") if o["source"] == "UECda"} == set(
        UECDA_OPTIONS
    )


def test_the_uecda_preset() -> None:
    r = torampu.new_game("daifugo", rules="uecda", seed=1).to_record()["rules"]
    assert r["players"] == 5 and r["jokers"] == 1 and r["joker_wild"] is True
    for on in ("revolution", "stair_revolution", "eight_cut", "lock", "spade3_return"):
        assert r[on] is True, on
    for on in ("exchange", "stairs", "finish_stays", "lead_pass", "joker_unlocks"):
        assert r[on] is True, on
    for off in ("eleven_back", "five_skip", "pass_rejoin", "strict_lock", "reverse_lock"):
        assert r[off] is False, off
    for off in ("seven_pass", "ten_discard", "queen_reverse", "sandstorm", "miyako_ochi"):
        assert r[off] is False, off
    assert r["forbidden_finish"] == [] and r["points"] == "rank"
    assert (r["first_lead"], r["later_lead"], r["first_lead_include"]) == (
        "3D",
        "first_lead",
        False,
    )
    assert (r["flush_when"], r["stalemate_passes"], r["lock_plays"]) == ("everyone", 20, "2")
    assert (r["joker_suit"], r["run_effects"], r["deal_from"]) == ("lowest", "any", "seats")
    assert (r["seat_change"], r["rank_reset"]) == (5, 100)
    # the changed tndhms's rule keeps a preset of its own, otherwise the same
    t = torampu.new_game("daifugo", rules="uecda-tndhms", seed=1).to_record()["rules"]
    assert t == {**r, "flush_when": "one_left"}


def test_first_lead_include() -> None:
    """The ♦3 holder leads every game; under UECda with any play."""
    g = new(HANDS)
    assert g.to_play == 0 and "9S" in plays(g) and "3D" in plays(g)
    g = new(HANDS, first_lead_include=True, lead_pass=False)
    assert plays(g) == ["3D"]


def test_lead_pass() -> None:
    g = new(HANDS)
    assert g.legal_actions()[0] == "pass"
    run(g, "pass")  # the leader passes; seat 1 may lead anything
    assert g.to_play == 1 and g.view(None)["table"] is None and "4S" in plays(g)
    run(g, "pass", "pass", "pass")  # four of five passed: seat 4 may still lead
    assert g.to_play == 4 and g.view(None)["table"] is None
    g = new(HANDS, flush_when="one_left")
    run(g, "pass", "pass", "pass", "pass")  # one_left: four of five passed: flushed
    assert g.to_play == 0 and g.view(None)["passed"] == [] and codes(g) == ["flush"]
    g = new(HANDS, lead_pass=False)
    assert "pass" not in g.legal_actions()
    # 004's first lead duty lapses when its holder passes
    g = new(HANDS, first_lead_include=True)
    assert g.legal_actions() == ["pass", "play 3D"]
    run(g, "pass")
    assert "4S" in plays(g)


def test_flush_when_everyone() -> None:
    """UECda's rule: when all the others have passed, play comes back to the table's player,
    who may play on their own cards; their pass flushes, and they lead."""
    g = new(HANDS)
    run(g, "3D", "pass", "pass", "pass", "pass")
    assert g.to_play == 0 and g.view(None)["table"]["cards"] == ["3D"]
    assert plays(g) == ["9S", "KH"]  # on their own 3D
    run(g, "9S")
    assert g.to_play == 0 and g.view(None)["table"]["cards"] == ["9S"]  # the others passed
    run(g, "pass")
    assert g.view(None)["table"] is None and g.to_play == 0 and codes(g) == ["flush"]
    # once the table's player is out, all the others pass and the next one in leads
    hands = ["3D", "4S 5H 8C QD", "4H 6H 7C JD", "5S 6S 7D TD", "4C 5C 9H JK"]
    g = new(hands)
    run(g, "3D", "pass", "pass", "pass")
    assert g.to_play == 4 and g.view(None)["table"]["cards"] == ["3D"]
    run(g, "pass")
    assert g.view(None)["table"] is None and g.to_play == 1 and codes(g) == ["flush"]
    # a leader who passes on an empty table: when everyone has, the same leader leads again
    g = new(HANDS)
    run(g, "pass", "pass", "pass", "pass")
    assert g.to_play == 4 and g.view(None)["table"] is None
    run(g, "pass")
    assert g.to_play == 0 and codes(g) == ["flush"] and g.view(None)["passed"] == []
    # 004's all_passed flushes as soon as play comes back to the table's player
    g = new(HANDS, flush_when="all_passed")
    run(g, "3D", "pass", "pass", "pass", "pass")
    assert g.to_play == 0 and g.view(None)["table"] is None


def test_flush_when_one_left() -> None:
    """Once the table's player has gone out, the round ends when all but one of the others
    have passed: that one does not get a turn (tndhms: passes ≥ players still in − 1)."""
    hands = ["3D", "4S 5H 8C QD", "4H 6H 7C JD", "5S 6S 7D TD", "4C 5C 9H JK"]
    g = new(hands, flush_when="one_left")
    run(g, "3D")  # seat 0 goes out; its 3D stays on the table
    assert codes(g) == ["out", "finish_stays"] and g.to_play == 1
    run(g, "pass", "pass", "pass")
    assert g.view(None)["table"] is None and g.to_play == 1 and codes(g) == ["flush"]
    g = new(hands, flush_when="all_passed")
    run(g, "3D", "pass", "pass", "pass")
    assert g.to_play == 4 and g.view(None)["table"]["cards"] == ["3D"]
    run(g, "pass")
    assert g.to_play == 1 and g.view(None)["table"] is None


def test_flush_when_one_left_right_after_going_out() -> None:
    """When all but one of the others have passed already, going out flushes at once: the last
    one never answers the finishing play, and the next player still in leads."""
    hands = ["3D 9D", "5S 8C", "6H 7C", "7D TD", "4C 5C"]
    g = new(hands, flush_when="one_left")
    run(g, "3D", "pass", "pass", "pass", "4C", "9D")
    assert codes(g) == ["out", "finish_stays", "flush"]
    assert g.view(None)["table"] is None and g.to_play == 1
    g = new(hands, flush_when="all_passed")
    run(g, "3D", "pass", "pass", "pass", "4C", "9D")
    assert g.to_play == 4 and g.view(None)["table"]["cards"] == ["9D"]


def test_stalemate_passes() -> None:
    """20 passes in a row end the game; the players still in are placed in an order drawn
    from the seed (tndhms draws it at random), and the record replays to the same places."""
    g = new(HANDS)
    for _ in range(19):
        run(g, "pass")
    assert not g.is_over
    run(g, "pass")
    assert g.is_over and codes(g) == ["stalemate"]
    res = g.result()
    assert sorted(res["ranking"]) == [0, 1, 2, 3, 4] and sorted(res["scores"]) == [1, 2, 3, 4, 5]
    roundtrip(g)
    g = new(HANDS, stalemate_passes=0)
    for _ in range(40):
        run(g, "pass")
    assert not g.is_over
    # a play resets the count
    g = new(HANDS)
    for _ in range(13):  # two rounds of five passes, then three
        run(g, "pass")
    assert g.to_play == 3 and g.view(None)["table"] is None
    run(g, "5S")
    for _ in range(19):
        run(g, "pass")
    assert not g.is_over
    run(g, "pass")
    assert g.is_over and codes(g) == ["stalemate"]


def test_lock_plays_two() -> None:
    """UECda: any two consecutive plays of the same suits lock, not only the first two of the
    round (004: later in the round it takes three)."""
    hands = ["3D 4S", "5H 8C", "6H 7C", "7S TD", "4C 5C"]
    g = new(hands)
    run(g, "4S", "5H", "6H")
    assert g.view(None)["lock"] == {"suits": ["H"], "strict": False} and "lock" in codes(g)
    assert "7S" not in plays(g)
    g = new(hands, lock_plays="004")
    run(g, "4S", "5H", "6H")
    assert g.view(None)["lock"] is None and "7S" in plays(g)


def test_joker_unlocks() -> None:
    """A lone joker ends a lock, so ♠3 may return it in any suit (tndhms drops its lock flag)."""
    hands = ["3D 4H", "5H 8C", "JK 9C", "3S TD", "4C 5C"]
    g = new(hands)
    run(g, "4H", "5H")
    assert g.view(None)["lock"] is not None
    run(g, "JK")
    assert "joker_unlocks" in codes(g) and g.view(None)["lock"] is None
    assert g.to_play == 3 and plays(g) == ["3S"]
    run(g, "3S")
    assert "spade3" in codes(g) and g.to_play == 3 and g.view(None)["table"] is None
    g = new(hands, joker_unlocks=False)
    run(g, "4H", "5H", "JK")
    assert g.to_play == 3 and plays(g) == []  # ♠3 obeys the ♥ lock (004)


def test_joker_suit_lowest() -> None:
    """A group's joker takes the lowest suit its cards leave free (♠ first), as UECda's
    default client lays it out, so it can make a lock; under 004's ``wild`` it never does."""
    hands = ["3D 5D JK", "6S 6D 9C", "7H 7C 9S", "8S TD", "4C 5C"]
    g = new(hands)
    run(g, "5D JK", "6S 6D")  # {♦, ♠(joker)} then {♠, ♦}
    assert g.view(None)["lock"] == {"suits": ["S", "D"], "strict": False}
    assert "7C 7H" not in plays(g)
    g = new(hands, joker_suit="wild")
    run(g, "5D JK", "6S 6D")
    assert g.view(None)["lock"] is None and "7C 7H" in plays(g)
    # the codec lays the joker out the same way: lowest free row, or the missing locked suit
    assert play_table(parse_play("5D JK"))[0][3] == 2
    assert play_table(parse_play("5D JK"), lock_suits=0b1100)[3][3] == 2


def test_run_effects_any() -> None:
    """A run through an 8 is an 8-cut under UECda (tndhms: any card of the run)."""
    hands = ["3D 7S 8S 9S", "5H 8C", "6H 7C", "7D TD", "4C 5C"]
    g = new(hands)
    run(g, "7S 8S 9S")
    assert "eight_cut" in codes(g) and g.to_play == 0 and g.view(None)["table"] is None
    g = new(hands, run_effects="top")
    run(g, "7S 8S 9S")
    assert "eight_cut" not in codes(g) and g.to_play == 1


def test_seating_and_deal_from_seats() -> None:
    """Seats play in the order of ``seating``; later games deal round the table from the
    大富豪 (the 大富豪 and the next two seats get the 11th cards)."""
    seating = [0, 3, 1, 4, 2]
    g = new(HANDS, seating=seating)
    run(g, "9S")
    assert g.to_play == 3  # the seat after 0 round the table
    assert g.view(None)["seating"] == seating and g.to_record()["seating"] == seating
    roundtrip(g)
    titles = [2, 0, 4, 1, 3]  # seat 1 is 大富豪
    for rule, eleven in (("seats", {1, 4, 2}), ("titles", {1, 3, 0})):
        g2 = torampu.new_game(
            "daifugo",
            rules={"preset": "uecda", "deal_from": rule},
            seed=5,
            titles=titles,
            seating=seating,
        )
        assert isinstance(g2, Daifugo)
        sizes = [h.bit_count() + j for h, j in zip(*g2.initial, strict=True)]
        assert {s for s in range(5) if sizes[s] == 11} == eleven, rule
    with pytest.raises(DealError, match="seating must list every seat"):
        torampu.new_game("daifugo", rules="uecda", seed=1, seating=[0, 1, 2, 3, 3])


def test_seat_change_and_rank_reset_in_a_match() -> None:
    m = torampu.new_match(
        "daifugo",
        rules={"preset": "uecda", "seat_change": 2, "rank_reset": 3},
        games=7,
        seed=3,
    )
    rng = random.Random(0)
    while not m.is_over:
        m.play(rng.choice(m.legal_actions()))
    recs = m.to_record()["records"]
    seatings = [tuple(r.get("seating", range(5))) for r in recs]
    for k in (1, 3, 5):  # games 2, 4, 6 keep the seats of the game before
        assert seatings[k] == seatings[k - 1]
    assert len(set(seatings)) > 1
    fresh = [r["titles"] is None for r in recs]
    assert fresh == [True, False, False, True, False, False, True]
    for r in recs:
        assert torampu.replay(r).to_record() == r
    mrec = json.loads(json.dumps(m.to_record()))
    assert torampu.replay_match(mrec).to_record() == mrec


def test_duplicate_deals_move_every_hand_one_seat_on() -> None:
    """``duplicate=5``: each deck is dealt five times, the dealer one seat further round the
    (shuffled) seating each time, so every player holds every hand of the deal once."""
    rules = {"preset": "uecda", "rank_reset": 1, "seat_change": 5}
    m = torampu.new_match("daifugo", rules=rules, games=15, seed=4, duplicate=5)
    rng = random.Random(1)
    while not m.is_over:
        m.play(rng.choice(m.legal_actions()))
    rec = m.to_record()
    assert rec["duplicate"] == 5
    recs = rec["records"]
    games = [torampu.replay(r) for r in recs]
    assert all(isinstance(g, Daifugo) for g in games)
    for block in range(3):
        first = games[5 * block]
        assert isinstance(first, Daifugo)
        order = list(first.seating)
        held: dict[int, set[int]] = {p: set() for p in range(5)}
        for r in range(5):
            g = games[5 * block + r]
            assert isinstance(g, Daifugo)
            assert g.seed == first.seed and list(g.seating) == order and g.titles is None
            assert g.dealer == order[(order.index(first.dealer) + r) % 5]
            for k, p in enumerate(order):
                # the hand seat p held in the deal's first game is held r seats on
                q = order[(k + r) % 5]
                assert g.initial[0][q] == first.initial[0][p]
                assert g.initial[1][q] == first.initial[1][p]
                held[q].add(first.initial[0][p])
        assert all(len(h) == 5 for h in held.values())  # each player held each hand once
    assert len({g.seed for g in games}) == 3
    assert len({tuple(g.seating) for g in games}) > 1  # seat_change 5: new seats per deal
    again = json.loads(json.dumps(rec))
    assert torampu.replay_match(again).to_record() == again
    # the record says how it was dealt: without the flag it replays to other deals, refused
    del again["duplicate"]
    with pytest.raises(RecordError, match="seed does not follow"):
        torampu.replay_match(again)
    # off by default, and then the record is as before (no key)
    plain = torampu.new_match("daifugo", rules="uecda", games=2, seed=4)
    assert "duplicate" not in plain.to_record()


@pytest.mark.parametrize(
    ("rules", "games", "duplicate", "message"),
    [
        ({"preset": "uecda"}, 10, 5, "rank_reset 1"),
        ({"preset": "uecda", "rank_reset": 1, "seat_change": 3}, 10, 5, "a multiple of 5, not 3"),
        ({"preset": "uecda", "rank_reset": 1, "seat_change": 0}, 7, 5, "games a multiple of 5"),
        ({"preset": "uecda", "rank_reset": 1, "seat_change": 0}, 10, 6, "from 1 .off. to 5"),
        ({"preset": "uecda", "rank_reset": 1, "seat_change": 0}, 10, 0, "from 1 .off. to 5"),
        ({"preset": "uecda", "rank_reset": 1, "seat_change": 0}, 10, True, "not True"),
    ],
)
def test_duplicate_deals_refuse_what_they_cannot_hold(
    rules: dict[str, Any], games: int, duplicate: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        torampu.new_match("daifugo", rules=rules, games=games, seed=1, duplicate=duplicate)


def test_duplicate_deals_are_a_daifugo_option() -> None:
    with pytest.raises(ValueError, match="a Daifugo match option, not one of napoleon"):
        torampu.new_match("napoleon", games=5, seed=1, duplicate=5)


# ------------------------------------------------------------------------------- vs tndhms
def _policy(rng: random.Random, legal: list[str], style: int) -> str:
    plays_ = [a for a in legal if a != "pass"]
    if style == 3:  # a table of passers: the 20-pass stalemate, unless someone plays first
        return "pass" if "pass" in legal and rng.random() < 0.97 else rng.choice(legal)
    if style == 0 or not plays_:
        return rng.choice(legal)
    if style == 1:  # play rather than pass
        return rng.choice(plays_) if rng.random() < 0.85 or "pass" not in legal else "pass"
    # style 2: the largest plays first (groups of 4, long runs: revolutions)
    most = max(len(a.split()) for a in plays_)
    return rng.choice([a for a in plays_ if len(a.split()) == most])


def cross_check(seed: int, style: int, preset: str = "uecda") -> dict[str, int]:
    """Play one game on torampu and on tndhms's port side by side; returns event counts.
    ``uecda`` is checked against tndhms 0.29's rule, ``uecda-tndhms`` against the changed
    server's (passes counted against 4 − players out)."""
    rng = random.Random(seed)
    seating = list(range(5))
    rng.shuffle(seating)
    g = torampu.new_game("daifugo", rules=preset, seed=seed, seating=seating)
    assert isinstance(g, Daifugo)
    ref = TndhmsGame(
        [hand_table(h, j) for h, j in zip(g.hands, g.jok, strict=True)],
        seating,
        random.Random(0),
        pass_limit=5 if preset == "uecda" else 4,
    )
    while not g.is_over:
        assert g.to_play == ref.now_player
        s = g.to_play
        legal = g.legal_actions()
        lock = g.lock_suits
        accepted = {
            "play " + play_str(m)
            for m in all_plays(g.hands[s], g.jok[s], True, True)
            if not ref.judge(play_table(m, lock)).error
        }
        assert accepted == {a for a in legal if a != "pass"}, (seed, g.view(None)["table"])
        a = _policy(rng, legal, style)
        sub = play_table(g.parse_action(a), lock)
        g.play(a)
        ref.submit(sub)
        assert ref.over == g.is_over
        assert ref.revolution == g.revolution
        assert bool(ref.lock) == bool(g.lock_suits) or ref.flushed
    if ref.stalemate:
        assert g.result()["ranking"][: len(g.finished)] == ref.ranking[: len(g.finished)]
    else:
        assert g.result()["ranking"] == ref.ranking
    counts: dict[str, int] = {}
    for e in g.log:
        for w in e["why"]:
            counts[w["code"]] = counts.get(w["code"], 0) + 1
    return counts


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([0, 1, 1, 2, 2, 3]),
    st.sampled_from(["uecda", "uecda-tndhms"]),
)
def test_torampu_plays_like_tndhms(seed: int, style: int, preset: str) -> None:
    cross_check(seed, style, preset)


def test_the_cross_check_sees_the_rules_that_matter() -> None:
    """Over a fixed set of games the cross-check meets locks, 8-cuts, revolutions, ♠3, the
    lone joker's unlock and players going out with their cards left on the table."""
    seen: dict[str, int] = {}
    for seed in range(48):
        preset = ("uecda", "uecda-tndhms")[seed // 6 % 2]
        for k, v in cross_check(seed, (0, 1, 2, 2, 2, 3)[seed % 6], preset).items():
            seen[k] = seen.get(k, 0) + v
    seen["any revolution"] = sum(
        seen.get(k, 0) for k in ("revolution", "stair_revolution", "counter_revolution")
    )
    for code in ("lock", "eight_cut", "any revolution", "spade3", "joker_unlocks", "stalemate"):
        assert seen.get(code, 0) > 0, (code, seen)
    assert seen.get("finish_stays", 0) > 0 and seen.get("flush", 0) > 0
