"""Our client's game tracker on hand-made server tables: the mirror game, the plays torampu cannot
name (a run with its joker below the 3), tndhms's judgement narrowing torampu's legal plays,
and the exchange."""

from __future__ import annotations

from torampu.cards import parse_cards
from torampu.daifugo_plays import parse_play
from torampu.uecda.client import GameTracker, exchange_game
from torampu.uecda.codec import (
    Status,
    Table,
    empty_table,
    hand_table,
    play_table,
    write_status,
)

RULES = {"preset": "uecda"}
SEATING = (0, 1, 2, 3, 4)


def hand_t(cards: str, st: Status) -> Table:
    real = parse_cards(" ".join(w for w in cards.split() if w != "JK"))
    return write_status(hand_table(real, cards.split().count("JK")), st)


class Table_:
    """Feeds a tracker the tables tndhms would send to player 0."""

    def __init__(self, mine: str, sizes: list[int]) -> None:
        self.mine = mine.split()
        self.sizes = list(sizes)
        deal = hand_t(mine, Status(deal=True, turn=6, hand_sizes=tuple(sizes), seating=SEATING))
        self.tracker = GameTracker(0, 1, deal, RULES)
        self.stage = empty_table()
        self.lock = False

    def turn(self, actor: int, play: Table | None = None, *, lock_after: bool = False) -> None:
        """One turn: the hand table, then the table of cards after ``actor`` played ``play``
        (None: a pass)."""
        new_round = all(v == 0 for row in self.stage[:5] for v in row)
        st = Status(
            my_turn=actor == 0,
            turn=actor,
            new_round=new_round,
            lock=self.lock,
            hand_sizes=tuple(self.sizes),
            seating=SEATING,
        )
        self.tracker.on_hand(hand_t(" ".join(self.mine), st))
        if actor == 0:
            return
        if play is not None:
            self.stage = [list(r) for r in play[:5]] + [[0] * 15 for _ in range(3)]
            self.sizes[actor] -= sum(1 for r in play[:5] for v in r if v)
            self.lock = lock_after
        self.tracker.on_stage(
            write_status(
                self.stage,
                Status(turn=actor, lock=self.lock, hand_sizes=tuple(self.sizes), seating=SEATING),
            )
        )

    def my_turn(self) -> None:
        self.turn(0)


def test_a_run_with_its_joker_below_the_3_is_followed() -> None:
    f = Table_("5H 6H 7H 8H 9C TC", [6, 11, 11, 11, 14])
    run = empty_table()
    run[0][0], run[0][1], run[0][2] = 2, 1, 1  # JK 3S 4S, as UECda's default client lays it out
    f.turn(1, run)
    for p in (2, 3, 4):
        f.turn(p)
    f.my_turn()
    g, ok = f.tracker.candidates()
    assert g is not None and g.to_play == 0
    assert "below the 3" in f.tracker.report.notes[0]
    # the mirror holds the run as 3S 4S JK (its joker at the top): stronger than the real one,
    # so torampu offers only runs tndhms also takes
    assert g.view(None)["table"]["cards"] == ["3S", "4S", "JK"]
    assert "play 6H 7H 8H" in ok and "play 5H 6H 7H" not in ok
    assert f.tracker.report.fallbacks == 0


def test_tndhms_locks_that_torampu_does_not_see_narrow_the_plays() -> None:
    """A group's joker put in an unusual row makes a tndhms lock the mirror does not know: the
    client then offers only what tndhms takes."""
    f = Table_("7S 7C 7H 7D 3H", [5, 11, 11, 11, 15])
    pair = play_table(parse_play("5S JK"), joker_rows=[3])  # the joker as ♣, not ♥
    f.turn(1, pair)
    f.turn(2, play_table(parse_play("6S 6C")), lock_after=True)  # {♠♣} twice: tndhms locks
    for p in (3, 4):
        f.turn(p)
    f.my_turn()
    g, ok = f.tracker.candidates()
    assert g is not None and g.view(None)["lock"] is None  # torampu saw ♠♥ then ♠♣
    assert "play 7C 7S" in ok and "play 7D 7H" not in ok and "play 7H 7S" not in ok
    assert f.tracker.report.narrowed == 1
    _, table = f.tracker.submission("play 7C 7S")
    assert table[0][5] == 1 and table[3][5] == 1


def test_the_exchange_game_gives_the_rich_player_its_hand() -> None:
    # player 0 was 大富豪 (ranks: player 0 → 0), player 3 大貧民; hand after receiving 2 cards
    mine = "3D 4C 5S 6H 7D 8C 9S TH JD QC 2S JK"
    real = parse_cards(" ".join(w for w in mine.split() if w != "JK"))
    st = Status(
        deal=True,
        exchange=2,
        turn=6,
        hand_sizes=(10, 11, 11, 10, 11),
        ranks=(0, 2, 1, 4, 3),
        seating=(2, 0, 4, 1, 3),
    )
    g = exchange_game(0, (real, 1), 2, st, RULES, seed=1)
    assert g.phase == "exchange" and g.to_play == 0
    assert sorted(g.view(0)["hand"]) == sorted(mine.split())
    legal = g.legal_actions()
    assert len(legal) == 66 and all(a.startswith("exchange ") for a in legal)  # C(12, 2)
    # as 富豪 (1 card), after the 大富豪's return has been made up
    st1 = Status(
        deal=True,
        exchange=1,
        turn=6,
        hand_sizes=(10, 11, 11, 10, 11),
        ranks=(1, 0, 2, 3, 4),
        seating=SEATING,
    )
    g1 = exchange_game(0, (real, 1), 1, st1, RULES, seed=2)
    assert g1.to_play == 0 and len(g1.legal_actions()) == 12


def test_the_reports_interval_is_over_blocks_of_games() -> None:
    """Titles carry over, so places come in streaks: the interval is taken over blocks of
    consecutive games and is wider than one over single games would be."""
    import pytest

    from torampu.uecda.client import BLOCK_GAMES, ClientReport, GameReport

    rep = ClientReport(player=0, name="t")
    rep.games = [GameReport(number=k + 1, position=k % 2) for k in range(40)]
    assert rep.average_points == 4.5 and rep.interval() == (4.5, 4.5)  # every block the same
    # streaks of ten: places 0, 1, 2, 3, 4 ten games each, twice
    rep.games = [GameReport(number=k + 1, position=(k // 10) % 5) for k in range(100)]
    block = rep.interval()
    single = rep.interval(1)
    assert block is not None and single is not None
    assert block[0] < single[0] < 3.0 < single[1] < block[1]
    assert block[1] - block[0] > 3 * (single[1] - single[0])
    assert f"by blocks of {BLOCK_GAMES} games" in rep.summary()
    # an unranked game (the server did not say) is left out of the blocks, as of the mean
    rep.games.append(GameReport(number=101, position=None))
    assert rep.interval() == block
    # too few games for two blocks: no interval, and none in the summary
    rep.games = rep.games[:15]
    assert rep.interval() is None and "blocks" not in rep.summary()
    with pytest.raises(ValueError, match="block must be at least 1 game"):
        rep.interval(0)
