"""tndhms's referee, ported line by line: what the UECda server accepts, and how its turns go.

A port of ``server/src/external.c`` (``count_card_num``, ``analyze_card``,
``compare_card_status``, ``check_include_card``, ``check_special_card``) and of the turn loop of
``daihu.c`` (tndhms 0.29) under the rules of ``tndhms.cfg``: revolution, lock, runs and 8-cut on;
11-back, 5-skip, 6-reverse and forbidden finishes off. It keeps tndhms's quirks, which is the
point: our client checks every play against :func:`judge` before sending it (so it never sends
one the real server refuses), and the tests play torampu's ``uecda`` preset against
:class:`TndhmsGame` to find every difference.

What tndhms does, in short (the ``uecda`` preset of :mod:`torampu.daifugo` follows it):

* a submission is refused (answer 8, and it counts as a pass) unless its cells are the player's
  cards, it makes one shape (``analyze_card``: at most one joker, a single, a group of one
  column, a run of 3+ adjacent cells in one row, a joker anywhere alone) and it beats the table:
  same number of cards, same shape (a lone joker may go on a single), higher — a run's lowest
  card above the table's highest (in revolution: its highest below the table's lowest);
* a pass while cards are on the table is answered 8 as well (the number of cards differs);
* a lock (``now_shibari``) forms when a play has exactly the suits of the table's play (joker
  cells count with the row they are in); a locked table takes only plays of those suits; a lone
  joker ignores the lock and clears it; only ♠3 (held, played alone) goes on a lone joker, and
  flushes the table;
* a group of 4+ or a run of 5+ toggles the revolution; a play spanning an 8 flushes the table
  (not a lone joker);
* after every turn, 20 passes in a row end the game (the players still in get random places);
  when the players who passed since the flush number at least (players still in − 1), the table
  is flushed and the last player to play leads (or the next seat with cards);
* otherwise the next seat with cards that has not passed plays.

>>> from torampu.uecda.codec import hand_table, play_table
>>> from torampu.cards import parse_cards
>>> from torampu.daifugo_plays import parse_play
>>> hand = hand_table(parse_cards("3D 3H 5S"), 0)
>>> judge(hand, play_table(parse_play("3D 3H")), EMPTY_STAGE).error
False
>>> fours, _ = analyze_card(play_table(parse_play("4C 4S")))
>>> judge(hand, play_table(parse_play("3D 3H")), fours).error
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from torampu.uecda.codec import COLS, Table, UecdaProtocolError, copy_table, empty_table

Stage = tuple[int, int, int, int]
"""tndhms's ``status_of_*_card``: (lowest column, number of cards, suit bits, type); type 0 pass,
1 single, 2 group, 3 run, 4 lone joker."""
EMPTY_STAGE: Final[Stage] = (-1, -1, -1, -1)

PASS_TYPE: Final = 0
SINGLE_TYPE: Final = 1
GROUP_TYPE: Final = 2
RUN_TYPE: Final = 3
JOKER_TYPE: Final = 4

STALEMATE: Final = 20
"""``number_renzoku_pass``: passes in a row that end a game."""
EIGHT_COLUMN: Final = 6


def _cell(t: Table, i: int, j: int) -> int:
    """``t[i][j]`` as C reads it: past column 14 it runs into the next row."""
    k = i * COLS + j
    return t[k // COLS][k % COLS] if k < 8 * COLS else 0


def count_card_num(t: Table) -> tuple[int, bool]:
    """(cards, error): cells of 1 or 2 in rows 0..4; an error for a 1 in row 4 or in column
    0/14, any value but 0/1/2, or two jokers."""
    n = 0
    jokers = 0
    bad = False
    for i in range(5):
        for j in range(COLS):
            v = t[i][j]
            if v == 0:
                continue
            if v == 1:
                n += 1
                if j in (0, 14) or i == 4:
                    bad = True
            elif v == 2:
                n += 1
                jokers += 1
            else:
                bad = True
    return n, bad or jokers >= 2


def analyze_card(t: Table) -> tuple[Stage, bool]:
    """(status, error) of a submitted table (``analyze_card`` with ``revers`` 0, as daihu.c
    calls it)."""
    i, j = 0, -1
    while j == -1 or (_cell(t, i, j) == 0 and j <= 14):
        i = 0
        j += 1
        while _cell(t, i, j) == 0 and i <= 3:
            i += 1
    value = j
    n, bad = count_card_num(t)
    error = int(bad)
    count = 0
    suits = 0
    kind = PASS_TYPE
    if n == 0:
        return (value, 0, 0, PASS_TYPE), False
    if n == 1:
        kind = JOKER_TYPE if _cell(t, i, j) == 2 else SINGLE_TYPE
    if j != 14 and _cell(t, i, j + 1) != 0:  # a run
        suits = 1 << i
        count = 1
        while True:
            if not j <= 14:
                break
            v = _cell(t, i, j)
            j += 1
            if v == 0:
                break
            count += 1
        count -= 1
        kind = RUN_TYPE
        error += count <= 2
    else:  # a group (or a single)
        for r in range(5):
            if _cell(t, r, j) != 0:
                count += 1
                suits |= 1 << r
        if kind == PASS_TYPE:
            kind = GROUP_TYPE
    if suits >= 16 and suits != 31:
        error += 1
    return (value, count, suits, kind), bool(error) or n != count


def compare_card_status(stage: Stage, now: Stage, reverse: bool) -> bool:
    """True when ``now`` may not follow ``stage`` (``compare_card_status``; suits aside)."""
    if stage[0] == -1:
        return False
    if stage[1] != now[1]:
        return True
    if now[3] == JOKER_TYPE and stage[3] == SINGLE_TYPE:
        return False
    if stage[3] != now[3]:
        return True
    if stage[3] == GROUP_TYPE:
        return now[0] - stage[0] >= 0 if reverse else now[0] - stage[0] <= 0
    if reverse:
        return now[0] - stage[0] + stage[1] - 1 >= 0
    return now[0] - stage[0] - stage[1] + 1 <= 0


def check_include_card(hand: Table, sub: Table) -> bool:
    """True when ``sub`` uses a card (1) the hand lacks, or a joker (2) without ``[4][1]``."""
    for i in range(5):
        for j in range(COLS):
            v = sub[i][j]
            if v == 1 and hand[i][j] != 1:
                return True
            if v == 2 and hand[4][1] != 2:
                return True
    return False


def check_special_card(column: int, status: Stage) -> bool:
    """Whether a play spans ``column`` (a run) or is of it (``check_special_card``)."""
    if status[3] == RUN_TYPE:
        return status[0] <= column <= status[0] + status[1] - 1
    return status[0] == column


@dataclass(frozen=True)
class Verdict:
    """tndhms's judgement of one submission."""

    error: bool
    """Refused (answer 8): it counts as a pass."""
    is_pass: bool
    """Counts as a pass (refused, or no cards)."""
    status: Stage
    lock: int
    """``now_shibari`` afterwards."""
    joker_single: bool
    """``now_jocker_single`` afterwards."""
    spade3: bool
    """♠3 returned a lone joker (the table is flushed)."""

    @property
    def answer(self) -> int:
        return 8 if self.error else 9


def judge(
    hand: Table,
    sub: Table,
    stage: Stage,
    *,
    revolution: bool = False,
    eleven_back: bool = False,
    lock: int = 0,
    joker_single: bool = False,
    rule_lock: bool = True,
    rule_runs: bool = True,
) -> Verdict:
    """What tndhms makes of ``sub`` from a player holding ``hand``, the table's status being
    ``stage`` (:data:`EMPTY_STAGE` after a flush) under the flags of the hand table."""
    error = check_include_card(hand, sub)
    status, bad = analyze_card(sub)
    error = error or bad
    error = error or compare_card_status(stage, status, revolution != eleven_back)
    if rule_lock and not error and status[3] != JOKER_TYPE:
        if lock == 1:
            if status[2] != stage[2]:
                error = True
        elif status[2] == stage[2]:
            lock += 1
        else:
            lock = 0
    spade3 = False
    if joker_single:
        if status[:3] == (1, 1, 1) and hand[0][1] == 1:
            error = False
            joker_single = False
            spade3 = True
        else:
            error = True
    if not error:
        if status[3] == RUN_TYPE and not rule_runs:
            error = True
        elif status[3] == JOKER_TYPE:
            joker_single = True
            lock = 0
    return Verdict(error, error or status[1] == 0, status, lock, joker_single, spade3)


def stage_of(table: Table, new_round: bool) -> Stage:
    """The table's status as tndhms keeps it: that of its last accepted play (``table`` as
    sent), or :data:`EMPTY_STAGE` on a new round."""
    if new_round:
        return EMPTY_STAGE
    status, _ = analyze_card(table)
    return EMPTY_STAGE if status[1] == 0 else status


def cards_in(t: Table) -> int:
    n, _ = count_card_num(t)
    return n


class TndhmsGame:
    """One game's play phase as tndhms runs it (5 players, after the exchange).

    ``hands`` are the players' hand tables, ``seating[k]`` the player in seat k; ♦3's holder
    leads. :meth:`submit` plays one turn of the player to act and returns the answer (9/8).

    ``pass_limit``: the table is flushed when the passes since the last flush reach
    ``pass_limit`` minus the players out: 5 in tndhms 0.29 and UECda's rule (``flush_when:
    everyone``), 4 in the changed tndhms of s1300097/reserch (``flush_when: one_left``).
    """

    def __init__(
        self,
        hands: Sequence[Table],
        seating: Sequence[int],
        rng: random.Random | None = None,
        pass_limit: int = 5,
    ) -> None:
        if pass_limit not in (4, 5):
            raise UecdaProtocolError(
                f"pass_limit is 5 (UECda) or 4 (changed tndhms), not {pass_limit}"
            )
        self.pass_limit = pass_limit
        if len(hands) != 5 or sorted(seating) != [0, 1, 2, 3, 4]:
            raise UecdaProtocolError("tndhms plays 5 players in 5 seats")
        self.hands = [copy_table(h) for h in hands]
        self.seating = list(seating)
        self.rng = rng or random.Random(0)
        holder = [p for p in range(5) if self.hands[p][2][1] == 1]
        self.now_player = holder[0] if holder else 255
        self.last_player = self.now_player
        self.stage: Stage = EMPTY_STAGE
        self.stage_table = empty_table()
        self.revolution = False
        self.eleven_back = False
        self.lock = 0
        self.joker_single = False
        self.passed = [False] * 5
        self.goal = [False] * 5
        self.ranking: list[int] = []
        self.pass_run = 0
        self.stalemate = False
        self.flushed = False
        """Whether the last turn flushed the table."""

    @property
    def over(self) -> bool:
        return len(self.ranking) >= 4

    def _next_seat(self, p: int) -> int:
        return self.seating[(self.seating.index(p) + 1) % 5]

    def judge(self, sub: Table) -> Verdict:
        """The verdict on ``sub`` from the player to act, without playing it."""
        return judge(
            self.hands[self.now_player],
            sub,
            self.stage,
            revolution=self.revolution,
            eleven_back=self.eleven_back,
            lock=self.lock,
            joker_single=self.joker_single,
        )

    def submit(self, sub: Table) -> int:
        """Play one turn: the player to act submits ``sub``. Returns 9 or 8."""
        if self.over:
            raise UecdaProtocolError("the game is over")
        p = self.now_player
        v = self.judge(sub)
        self.lock = v.lock
        self.joker_single = v.joker_single
        flash = v.spade3
        self.flushed = False
        if v.is_pass:
            self.passed[p] = True
            self.pass_run += 1
        else:
            self.stage = v.status
            self.stage_table = [list(row) for row in sub[:5]] + [[0] * COLS for _ in range(3)]
            hand = self.hands[p]
            for i in range(5):
                for j in range(COLS):
                    if sub[i][j] == 1:
                        hand[i][j] = 0
                    elif sub[i][j] == 2:
                        hand[4][1] = 0
            self.last_player = p
            self.pass_run = 0
            if cards_in(hand) == 0 and not self.goal[p]:
                self.goal[p] = True
                self.ranking.append(p)
            if not self.joker_single:
                kind, n = v.status[3], v.status[1]
                if (kind == GROUP_TYPE and n >= 4) or (kind == RUN_TYPE and n >= 5):
                    self.revolution = not self.revolution
                if check_special_card(EIGHT_COLUMN, v.status):
                    flash = True
        if self.pass_run >= STALEMATE:
            rest = [q for q in range(5) if not self.goal[q]]
            self.rng.shuffle(rest)
            self.ranking.extend(rest)
            self.stalemate = True
            return v.answer
        if sum(self.passed) >= self.pass_limit - len(self.ranking):
            flash = True
        if self.over:
            self.ranking.extend(q for q in range(5) if not self.goal[q])
            return v.answer
        if flash:
            self.flushed = True
            self.eleven_back = False
            self.joker_single = False
            self.lock = 0
            self.passed = [False] * 5
            self.stage = EMPTY_STAGE
            self.stage_table = empty_table()
            q = self.last_player
            for _ in range(5):
                if cards_in(self.hands[q]):
                    break
                q = self._next_seat(q)
            self.now_player = self.last_player = q
        else:
            q = self._next_seat(p)
            for _ in range(5):
                if cards_in(self.hands[q]) and not self.passed[q]:
                    break
                q = self._next_seat(q)
            else:
                raise UecdaProtocolError("tndhms would loop: nobody may play")
            self.now_player = q
        return v.answer
