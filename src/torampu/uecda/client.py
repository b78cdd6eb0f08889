"""Our UECda client: plays Daifugo on a UECda server (protocol 20070) with a torampu bot.

The bot sees what it sees in a torampu game: ``view(seat)`` and legal action strings. The
client keeps a *mirror*: a torampu game under the ``uecda`` rules that has gone through the same
turns as the server's game. Only our hand and the cards already played are known, so the mirror
is dealt our hand (as it was after the exchange), each other player the cards they have played
so far plus unseen cards up to their hand size (♦3, if unseen, to whoever led first), and every
turn the server reported is replayed on it; the player numbers are the torampu seats and the
server's seats its ``seating``. The bot gets the mirror's ``view(me)``, whose hidden cards are
placeholders the view does not show; so the bot sees the truth. (It does not see the exchange
in the mirror, which starts after it: the client adds it to the view as its ``exchange`` rows,
:meth:`GameTracker.exchange_rows` — both exchanges, with the cards of the one it took part in.)

Safety: every candidate play is also judged by :func:`torampu.uecda.tndhms.judge` — tndhms's own
test, on the server's hand table, table of cards and flags — and only plays both torampu and
tndhms accept are offered to the bot; with none, the client passes. So against a correct
server it never sends a play the server refuses. A turn the mirror cannot follow (a play
torampu cannot name, such as a run with its joker below the 3, is replayed with the joker at the
run's other end; a turn order that differs, which should not happen) makes the rest of the game
fall back to the weakest play both accept, and is counted in the report.

Flush rules: a UECda server flushes the table either by UECda's rule (every player still in has
passed; play comes back to the table's player: ``flush_when: everyone``, the ``uecda`` preset) or,
like the changed tndhms of s1300097/reserch, once all but one have passed (``one_left``,
``uecda-tndhms``). Every turn the server announces is checked against the mirror: the player to
act, and whether the table is empty ([5][4] of the hand tables). With ``flush="auto"`` (the
default) a disagreement makes the tracker rebuild the mirror under each rule in turn and keep the
one that follows the server (noted in the report; the next game starts from it); with a fixed
rule, or when no rule follows, the mirror is set to the server's tables (a flush it missed is
made, a flush the server did not make is undone: the last play and the passes since the lead put
back) and each such turn is counted as a resynchronisation. The mirror is only lost (the
fallback below) if the server's game cannot be replayed at all.

Exchange: as 大富豪/富豪 the bot chooses the cards to return, on a torampu game in its
exchange phase built the same way (the cards the poor gave are taken to be our best ones).

>>> from torampu.uecda.client import ClientReport
>>> ClientReport(player=0, name="t").average_points
0.0
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import torampu
from torampu.bots.base import Bot, BotError, make_bot, parse_bot_spec
from torampu.cards import CardSet, cards_of
from torampu.daifugo import SPEC, Daifugo
from torampu.daifugo_plays import (
    JSHIFT,
    PASS,
    REAL,
    all_plays,
    card_at,
    cards_words,
    info,
    parse_play,
    run_move,
    strongest,
)
from torampu.errors import IllegalAction, TorampuError
from torampu.uecda.codec import (
    ACCEPTED,
    ALL_GAMES_OVER,
    GAME_GOES_ON,
    REFUSED,
    Status,
    Table,
    UecdaProtocolError,
    UnrepresentablePlay,
    card_cell,
    check_answer,
    check_game_code,
    empty_table,
    play_table,
    play_text,
    profile_table,
    read_status,
    table_hand,
    table_play,
)
from torampu.uecda.tndhms import EMPTY_STAGE, JOKER_TYPE, judge, stage_of
from torampu.uecda.wire import Tap, Wire, connect

PLAYERS = 5
DIAMOND3 = card_at(0, 2)
RULES = "uecda"


class MirrorError(TorampuError):
    """The mirror cannot follow the server's game (the report counts these turns)."""


class Disagreement(MirrorError):
    """The server let a player act, or showed the table empty or not, where the mirror says
    otherwise (another flush rule, or a server that differs from torampu's rules)."""


FLUSH_RULES = ("everyone", "one_left")
"""The flush rules a UECda server may play (``flush_when``): UECda's own, and the changed
tndhms's. ``auto`` tries them in turn."""


@dataclass
class GameReport:
    """One game as our client saw it."""

    number: int
    position: int | None = None
    """0 = 大富豪 … 4 = 大貧民; None when the server did not let us know (a stalemate in the
    last game, or before a rank reset)."""
    ranking: list[int] | None = None
    decisions: int = 0
    refused: int = 0
    """Our plays (not passes) the server answered 8."""
    fallbacks: int = 0
    """Decisions taken without the mirror."""
    narrowed: int = 0
    """Decisions where tndhms refused some play torampu allowed."""
    resyncs: int = 0
    """Turns where the server's tables disagreed with the mirror and the mirror was set to
    them (whose turn, a flush): 0 against a server of the rule we play."""
    lost: bool = False
    """Whether the mirror was lost (the rest of the game played by the fallback)."""
    flush_when: str = ""
    """The flush rule the mirror followed at the end of the game."""
    leader_passes: int = 0
    """Our passes on an empty table (legal under ``lead_pass``)."""
    stalemate: bool = False
    """The game ended by the 20-pass stalemate (places drawn at random)."""
    think: float = 0.0
    """Seconds the bot spent choosing our plays (the exchange not counted)."""
    think_max: float = 0.0
    """The longest of those choices, in seconds."""
    learned: bool = False
    """Whether the bot learned from this game's revealed hands (``bot.learn``)."""
    learn_seconds: float = 0.0
    """Seconds the bot spent learning from it (after the game, outside any decision)."""
    foresight: tuple[int, float, float] | None = None
    """With a model of the others (``ismcts:adapt``): (their decisions in this game, the summed
    negative log-likelihood of their moves under the model as it stood before the game, the
    same under the policy it started from) — how well it foresaw moves it had not seen."""
    notes: list[str] = field(default_factory=list)

    @property
    def points(self) -> int | None:
        return None if self.position is None else PLAYERS - self.position


BLOCK_GAMES = 10
"""Consecutive games per block for :meth:`ClientReport.interval`."""


@dataclass
class ClientReport:
    """All the games of a session."""

    player: int
    name: str
    games: list[GameReport] = field(default_factory=list)

    @property
    def known(self) -> list[GameReport]:
        return [g for g in self.games if g.position is not None]

    @property
    def total_points(self) -> int:
        return sum(g.points or 0 for g in self.known)

    @property
    def average_points(self) -> float:
        k = self.known
        return self.total_points / len(k) if k else 0.0

    def interval(self, block: int = BLOCK_GAMES) -> tuple[float, float] | None:
        """A 95% interval for :attr:`average_points`: Student's t over the means of blocks of
        ``block`` consecutive ranked games (the last, shorter block left out of the spread).
        With the exchange a game's place is the next game's title, so neighbouring games are
        not independent and an interval over single games is too narrow: over 1,000 games of
        the heuristic against four sample clients under tndhms the blocks of 10 gave an
        interval 1.6 times as wide. ``None`` with fewer than two whole blocks.

        >>> rep = ClientReport(player=0, name="t")
        >>> rep.games = [GameReport(number=k + 1, position=k % 2) for k in range(40)]
        >>> rep.average_points, rep.interval()
        (4.5, (4.5, 4.5))
        """
        # here: the client need not load tournaments to start
        from torampu.tournament import deal_intervals

        if block < 1:
            raise ValueError(f"block must be at least 1 game, not {block}")
        figures = deal_intervals([[g.points or 0] for g in self.known], block)
        if not figures or figures[0] is None:  # no games, or fewer than two whole blocks
            return None
        _, low, high = figures[0]  # the spread of the whole blocks, about every game's mean
        half = (high - low) / 2
        return self.average_points - half, self.average_points + half

    @property
    def refused(self) -> int:
        return sum(g.refused for g in self.games)

    @property
    def fallbacks(self) -> int:
        return sum(g.fallbacks for g in self.games)

    @property
    def narrowed(self) -> int:
        return sum(g.narrowed for g in self.games)

    @property
    def resyncs(self) -> int:
        return sum(g.resyncs for g in self.games)

    @property
    def lost(self) -> int:
        """Games in which the mirror was lost."""
        return sum(g.lost for g in self.games)

    @property
    def leader_passes(self) -> int:
        return sum(g.leader_passes for g in self.games)

    @property
    def stalemates(self) -> int:
        return sum(g.stalemate for g in self.games)

    @property
    def seconds_per_decision(self) -> float:
        """The bot's mean time per play decision (wall clock, the client's machine)."""
        n = sum(g.decisions for g in self.games)
        return sum(g.think for g in self.games) / n if n else 0.0

    @property
    def seconds_max(self) -> float:
        """The bot's longest play decision, in seconds."""
        return max((g.think_max for g in self.games), default=0.0)

    @property
    def learned(self) -> int:
        """Games whose revealed hands the bot learned from (``bot.learn``)."""
        return sum(g.learned for g in self.games)

    @property
    def learn_seconds_max(self) -> float:
        """The longest the bot spent learning from one game, in seconds."""
        return max((g.learn_seconds for g in self.games), default=0.0)

    def foresight(self) -> tuple[int, float, float] | None:
        """Over the games a model of the others foresaw (:attr:`GameReport.foresight`): (their
        decisions, the model's mean negative log-likelihood a move, the starting policy's), or
        ``None``. Lower is better; the gap is what watching the table taught the model.

        >>> rep = ClientReport(player=0, name="t")
        >>> rep.games = [GameReport(number=1, foresight=(10, 7.0, 9.0)),
        ...              GameReport(number=2, foresight=(30, 21.0, 30.0)), GameReport(number=3)]
        >>> rep.foresight()
        (40, 0.7, 0.975)
        """
        seen = [g.foresight for g in self.games if g.foresight is not None]
        n = sum(f[0] for f in seen)
        if not n:
            return None
        return n, sum(f[1] for f in seen) / n, sum(f[2] for f in seen) / n

    def flush_rules(self) -> dict[str, int]:
        """How many games the mirror ended on each flush rule."""
        out: dict[str, int] = {}
        for g in self.games:
            out[g.flush_when] = out.get(g.flush_when, 0) + 1
        return out

    def positions(self) -> list[int]:
        """How many games we finished in each place (0 = 大富豪 …)."""
        out = [0] * PLAYERS
        for g in self.known:
            assert g.position is not None
            out[g.position] += 1
        return out

    def summary(self) -> str:
        ci = self.interval()
        spread = (
            "" if ci is None else f" [{ci[0]:.3f}, {ci[1]:.3f}] by blocks of {BLOCK_GAMES} games"
        )
        return (
            f"player {self.player} ({self.name}): {len(self.games)} games, "
            f"{self.total_points} points over {len(self.known)} ranked games "
            f"(average {self.average_points:.3f}{spread}; 3.0 is even), "
            f"places {self.positions()}, "
            f"refused plays {self.refused}, fallback decisions {self.fallbacks}, "
            f"mirror lost in {self.lost} games, resynchronised {self.resyncs} times, "
            f"flush rule {self.flush_rules()}, our leader passes {self.leader_passes}, "
            f"stalemates {self.stalemates}, "
            f"{self.seconds_per_decision:.3f} s per decision (longest {self.seconds_max:.3f} s)"
            + (
                f", learned from {self.learned} games (longest {self.learn_seconds_max:.3f} s)"
                if self.learned
                else ""
            )
            + (
                f", the model of the others foresaw their {fs[0]} moves at {fs[1]:.3f} nats a "
                f"move (its starting policy {fs[2]:.3f})"
                if (fs := self.foresight()) is not None
                else ""
            )
        )


def _size(real: CardSet, jokers: int) -> int:
    return real.bit_count() + jokers


def _stand_in(e: UnrepresentablePlay) -> int:
    """A run torampu can name with the same cards: the joker moved to the run's other end."""
    # column 0: one above the highest real card; column 14: one below the lowest
    cell = card_at(e.size - 1, e.suit) if e.low == 0 else card_at(e.low - 2, e.suit)
    return run_move(e.real, e.jokers, 1 << cell)


class GameTracker:
    """One game from our seat: what the server told us, and the mirror built from it."""

    def __init__(
        self,
        me: int,
        number: int,
        deal: Table,
        rules: dict[str, Any],
        flush: str = "auto",
        guess: str | None = None,
    ) -> None:
        """``flush``: the server's flush rule (``everyone``, ``one_left``), or ``auto`` to
        recognise it from the tables, starting from ``guess`` (default: the rules' own)."""
        if flush != "auto" and flush not in FLUSH_RULES:
            raise MirrorError(f"flush rule {flush!r}: auto, {', '.join(FLUSH_RULES)}")
        self.me = me
        self.number = number
        self.rules = rules
        self.flush = flush
        own = SPEC.resolve(rules)["flush_when"]
        self.flush_when: str = flush if flush != "auto" else guess or own
        self._forcing = False
        self._pending = False
        self.deal_status = read_status(deal)
        self.deal_hand = table_hand(deal)
        self.start_hand: tuple[CardSet, int] | None = None
        self.start_sizes: tuple[int, ...] = ()
        self.seating: tuple[int, ...] = self.deal_status.seating
        self.first_leader = -1
        self.events: list[tuple[int, int, bool]] = []
        """(player, move, whether the server's table was empty before it) per turn."""
        self.finished: list[int] = []
        self.hand_table = deal
        self.status = self.deal_status
        self.stage_table = empty_table()
        self.sizes_before: tuple[int, ...] = self.deal_status.hand_sizes
        self.fallback = False
        self.report = GameReport(number)
        self._mirror: Daifugo | None = None
        self._mirror_events = 0

    # ------------------------------------------------------------------ what the server says
    def on_hand(self, t: Table) -> Status:
        st = read_status(t)
        if st.deal:
            raise UecdaProtocolError("a deal table in the middle of a game")
        if self.start_hand is None:
            self.start_hand = table_hand(t)
            self.start_sizes = st.hand_sizes
            self.seating = st.seating
            self.first_leader = st.turn
        elif st.seating != self.seating:
            raise UecdaProtocolError("the seats changed during a game")
        if st.my_turn and st.turn != self.me:
            raise UecdaProtocolError(f"our turn, says [5][2], but [5][3] names player {st.turn}")
        self.hand_table = t
        self.status = st
        self.sizes_before = st.hand_sizes
        self._pending = True
        return st

    def on_stage(self, t: Table) -> None:
        st = read_status(t)
        actor = st.turn
        before, after = self.sizes_before, st.hand_sizes
        move = PASS
        if after[actor] < before[actor]:
            try:
                move = table_play(t)
                n = _size(move & REAL, move >> JSHIFT & 3)
                if before[actor] - after[actor] != n:
                    raise UecdaProtocolError(
                        f"player {actor} lost {before[actor] - after[actor]} cards but the "
                        f"table shows {n}"
                    )
            except UnrepresentablePlay as e:
                move = _stand_in(e)
                self.report.notes.append(f"turn {len(self.events)}: {e}")
            except UecdaProtocolError as e:  # the mirror cannot follow: play on without it
                self.fallback = True
                self.report.lost = True
                self.report.notes.append(f"turn {len(self.events)}: {e}")
        self.events.append((actor, move, self.status.new_round))
        self._pending = False
        for p in range(PLAYERS):
            if before[p] > 0 and after[p] == 0 and p not in self.finished:
                self.finished.append(p)
        self.stage_table = t

    def finish(self) -> GameReport:
        """The game is over: our place if the server's tables tell it."""
        left = [p for p in range(PLAYERS) if p not in self.finished]
        self.report.flush_when = self.flush_when
        self.report.stalemate = len(left) > 1
        if len(left) == 1:
            ranking = self.finished + left
            self.report.ranking = ranking
            self.report.position = ranking.index(self.me)
        return self.report

    def revealed(self) -> Daifugo | None:
        """The finished game with every hand it was played with (after the exchange), or
        ``None``.

        The server shows every card played, and a player who went out played its whole hand;
        so once the game is over with one player left, each hand is known: the cards the player
        played, and for the last one the rest of the pack. ``None`` where that does not hold or
        cannot be checked: a stalemate, a lost or resynchronised mirror, a turn torampu's rules
        refuse, or a replay that ends with other places than the server's."""
        ranking = self.report.ranking
        if ranking is None or self.report.lost or self.report.resyncs or self.fallback:
            return None
        try:
            g = self._build(self.flush_when)
        except MirrorError:
            return None
        for p, move, empty in self.events:
            if g.is_over or g.to_play != p or (g.table_info is None) != empty:
                return None
            try:
                g.play(g.action_str(move))
            except IllegalAction:
                return None
        if not g.is_over or list(g.ranking) != ranking:
            return None
        return g

    # ------------------------------------------------------------------ the mirror
    def mirror(self) -> Daifugo:
        """The torampu game after every turn so far (see the module docstring)."""
        if self.start_hand is None:
            raise MirrorError("the game has not started")
        g = self._mirror
        if g is not None:
            try:
                if self._extend(g):
                    return g
            except Disagreement as e:
                self.report.notes.append(f"turn {self._mirror_events}: {e}")
        # rebuild: under the rule we follow, else (auto) the other ones, else set to the server
        tried = [self.flush_when]
        if self.flush == "auto":
            tried += [r for r in FLUSH_RULES if r != self.flush_when]
        for rule in tried:
            g = self._build(rule)
            self._mirror_events = 0
            try:
                if not self._extend(g):
                    raise MirrorError("the mirror's deal does not hold the cards played")
            except Disagreement:
                continue
            if rule != self.flush_when:
                self.report.notes.append(
                    f"turn {len(self.events)}: the server plays flush_when {rule}, "
                    f"not {self.flush_when}"
                )
                self.flush_when = rule
            self._mirror = g
            return g
        self._forcing = True
        g = self._build(self.flush_when)
        self._mirror_events = 0
        if not self._extend(g):
            raise MirrorError("the mirror's deal does not hold the cards played")
        self._mirror = g
        return g

    def _resync(self, g: Daifugo, p: int, empty: bool) -> None:
        """Set the mirror to the server's tables: player ``p`` acts, on an empty table or not;
        raise :class:`Disagreement` unless forcing (the report counts each)."""
        mirror_empty = g.table_info is None
        if g.to_play == p and mirror_empty == empty:
            return
        what = (
            f"the server let player {p} act on {'an empty' if empty else 'a'} table where "
            f"torampu expected {g.to_play} on {'an empty' if mirror_empty else 'a'} table"
        )
        if not self._forcing:
            raise Disagreement(what)
        self.report.resyncs += 1
        self.report.notes.append(f"turn {self._mirror_events}: resynchronised: {what}")
        if empty and not mirror_empty:
            g._flush_to(p)
        elif not empty and mirror_empty:
            self._restore_table(g)
        g.turn = p

    def _restore_table(self, g: Daifugo) -> None:
        """The mirror flushed a table the server kept: put back the last play and the passes
        since the server's last lead (a lock is left to tndhms's judge, which the candidates
        pass through anyway)."""
        done = self.events[: self._mirror_events]
        lead = max((k for k, e in enumerate(done) if e[2]), default=0)
        plays = [(p, m) for p, m, _ in done if m != PASS]
        if not plays:
            raise MirrorError("the server kept a table on which nothing was played")
        by, move = plays[-1]
        g.table = move
        g.table_info = info(move)
        g.table_by = by
        g.passed = 0
        for p, m, _ in done[lead:]:
            if m == PASS:
                g.passed |= 1 << p

    def _extend(self, g: Daifugo) -> bool:
        """Replay the new turns on ``g``; False if a player plays cards its mirror hand lacks."""
        for p, move, empty in self.events[self._mirror_events :]:
            if g.is_over:
                raise MirrorError("the server's game went on after torampu's ended")
            self._resync(g, p, empty)
            real = move & REAL
            if real & ~g.hands[p] or (move >> JSHIFT & 3) > g.jok[p]:
                return False
            try:
                g.play(g.action_str(move))
            except IllegalAction:
                if move == PASS:
                    raise MirrorError(f"torampu does not let player {p} pass here") from None
                g.apply(move)  # tndhms took it where torampu's rules differ: follow the server
                self.report.notes.append(f"turn {self._mirror_events}: forced {g.action_str(move)}")
            self._mirror_events += 1
        if self._pending and not g.is_over:  # the turn the server has just announced
            self._resync(g, self.status.turn, self.status.new_round)
        return True

    def _build(self, flush_when: str) -> Daifugo:
        assert self.start_hand is not None
        me = self.me
        mine, my_jok = self.start_hand
        hands = [0] * PLAYERS
        jok = [0] * PLAYERS
        hands[me], jok[me] = mine, my_jok
        seen = mine
        seen_jok = my_jok
        for p, move, _ in self.events:
            if p == me:
                continue
            hands[p] |= move & REAL
            jok[p] += move >> JSHIFT & 3
            seen |= move & REAL
            seen_jok += move >> JSHIFT & 3
        need = [0] * PLAYERS
        for p in range(PLAYERS):
            if p != me:
                need[p] = self.start_sizes[p] - _size(hands[p], jok[p])
                if need[p] < 0:
                    raise MirrorError(f"player {p} played more cards than it held")
        unseen = [c for c in range(52) if not (seen >> c & 1)]
        jokers_left = 1 - seen_jok
        if jokers_left < 0:
            raise MirrorError("more than one joker was played")
        if sum(need) != len(unseen) + jokers_left:
            raise MirrorError(
                f"the hand sizes ({sum(need)} unseen cards) do not add up "
                f"({len(unseen) + jokers_left} unseen)"
            )
        rng = random.Random(self.number * 7919 + len(self.events))
        leader = self.first_leader
        if DIAMOND3 in unseen and leader != me:
            if need[leader] <= 0:
                raise MirrorError("♦3 is unseen, but its holder (the first leader) is out")
            unseen.remove(DIAMOND3)
            hands[leader] |= 1 << DIAMOND3
            need[leader] -= 1
        pool: list[int] = unseen + [52] * jokers_left
        rng.shuffle(pool)
        k = 0
        for p in range(PLAYERS):
            for c in pool[k : k + need[p]]:
                if c == 52:
                    jok[p] += 1
                else:
                    hands[p] |= 1 << c
            k += need[p]
        deal = {"hands": [cards_words(hands[p], jok[p]) for p in range(PLAYERS)]}
        g = torampu.new_game(
            "daifugo",
            rules={**self.rules, "flush_when": flush_when},
            seed=self.number,
            deal=deal,
            seating=list(self.seating),
        )
        assert isinstance(g, Daifugo)
        if g.to_play != leader:
            raise MirrorError(f"the mirror's first leader is {g.to_play}, the server's {leader}")
        return g

    def exchange_rows(self) -> list[dict[str, Any]]:
        """The game's exchanges as a torampu view's ``exchange`` rows (none in a game without
        titles): the 大富豪 and 大貧民 swap two cards, the 富豪 and 貧民 one. The one this
        player took part in carries its cards. As the poor one it is known exactly: the deal
        table shows a poor player's hand before the exchange, so what it gave and got back are
        the difference from its first hand table. As the rich one, what it returned is known;
        what it received is taken to be its best cards (as in :func:`exchange_game`), which
        bounds the poor player's other cards correctly by rank whichever they were. The others
        are rows with no cards, as a torampu view shows an exchange the seat did not see (the
        sampler plays them on its deals: ``unseen_exchange``)."""
        st = self.deal_status
        if sorted(st.ranks) != list(range(PLAYERS)) or self.start_hand is None:
            return []
        rows: list[dict[str, Any]] = []
        for rich_title, k in ((0, 2), (1, 1)):
            rich = st.ranks.index(rich_title)
            poor = st.ranks.index(PLAYERS - 1 - rich_title)
            row: dict[str, Any] = {"rich": rich, "poor": poor, "count": k}
            if self.me in (rich, poor):
                mine = self._own_exchange(k, self.me == rich)
                if mine is None:
                    continue
                row["given"], row["returned"] = mine
            rows.append(row)
        return rows

    def _own_exchange(self, k: int, rich: bool) -> tuple[list[str], list[str]] | None:
        """(given, returned) in this player's own exchange of ``k`` cards, or ``None`` where
        the tables do not show an exchange of ``k`` cards (a card sent straight back)."""
        assert self.start_hand is not None
        (d_real, d_jok), (s_real, s_jok) = self.deal_hand, self.start_hand
        out_words = cards_words(d_real & ~s_real, max(d_jok - s_jok, 0))
        in_words = cards_words(s_real & ~d_real, max(s_jok - d_jok, 0))
        if rich:
            given, returned = cards_words(*strongest(d_real, d_jok, k)), out_words
        else:
            given, returned = out_words, in_words
        if len(given) != k or len(returned) != k:
            return None
        return given, returned

    # ------------------------------------------------------------------ deciding
    def server_lock_suits(self, stage: tuple[int, int, int, int]) -> int:
        return stage[2] & 15 if self.status.lock and stage[0] >= 0 else 0

    def candidates(self) -> tuple[Daifugo | None, list[str]]:
        """(mirror or None, the actions both torampu and tndhms accept), pass first."""
        st = self.status
        stage = stage_of(self.stage_table, st.new_round) if self.events else EMPTY_STAGE
        lock_suits = self.server_lock_suits(stage)
        real, jokers = table_hand(self.hand_table)
        g: Daifugo | None = None
        if not self.fallback:
            try:
                g = self.mirror()
                if g.to_play != self.me or g.phase != "play":
                    raise MirrorError(f"torampu's game waits for {g.to_play} ({g.phase})")
                if g.hands[self.me] != real or g.jok[self.me] != jokers:
                    raise MirrorError("the mirror's hand is not ours")
            except MirrorError as e:
                self.fallback = True
                self.report.lost = True
                self.report.notes.append(f"mirror lost at turn {len(self.events)}: {e}")
                g = None
        if g is not None:
            legal = g.legal_actions()
        else:
            legal = ["pass", *(play_text(m) for m in all_plays(real, jokers, True, True))]
        ok = []
        for a in legal:
            if a == "pass":
                ok.append(a)
                continue
            v = judge(
                self.hand_table,
                play_table(parse_play(a[5:]), lock_suits),
                stage,
                revolution=st.revolution,
                eleven_back=st.eleven_back,
                lock=int(st.lock),
                joker_single=stage[3] == JOKER_TYPE,
            )
            if not v.error:
                ok.append(a)
        if g is not None and len(ok) < len(legal):
            self.report.narrowed += 1
        if "pass" not in ok:
            ok.insert(0, "pass")
        return g, ok

    def submission(self, action: str) -> tuple[int, Table]:
        """(move, table) for an action chosen among :meth:`candidates`."""
        if action == "pass":
            return PASS, empty_table()
        stage = stage_of(self.stage_table, self.status.new_round) if self.events else EMPTY_STAGE
        move = parse_play(action[5:])
        return move, play_table(move, self.server_lock_suits(stage))


def exchange_game(
    me: int,
    hand: tuple[CardSet, int],
    count: int,
    status: Status,
    rules: dict[str, Any],
    seed: int,
) -> Daifugo:
    """A torampu game in its exchange phase where ``me`` (大富豪 or 富豪, with ``hand`` after
    receiving) returns ``count`` cards: the poor are dealt, besides our best ``count`` cards
    (taken to be what they gave), unseen cards weaker than those, so that torampu's exchange
    hands us exactly ``hand``."""
    titles = list(status.ranks)
    if sorted(titles) != list(range(PLAYERS)):
        raise MirrorError(f"no titles to exchange by: {titles}")
    mine, my_jok = hand
    rich_title = titles[me]
    if rich_title not in (0, 1) or count != (2 if rich_title == 0 else 1):
        raise MirrorError(f"title {rich_title} does not return {count} cards")
    poor = titles.index(PLAYERS - 1 - rich_title)
    got, got_jok = strongest(mine, my_jok, count)
    order = [52] + [card_at(d, s) for d in range(12, -1, -1) for s in range(4)]
    floor = max((order.index(c) for c in cards_of(got)), default=0)
    hands = [0] * PLAYERS
    jok = [0] * PLAYERS
    hands[me], jok[me] = mine & ~got, my_jok - got_jok
    hands[poor], jok[poor] = got, got_jok
    sizes = list(status.hand_sizes)
    unseen = [c for c in order if (c == 52 and not my_jok) or (c != 52 and not mine >> c & 1)]
    weak = [c for c in unseen if order.index(c) > floor]
    rng = random.Random(seed)
    rng.shuffle(weak)
    need_poor = sizes[poor] - count
    if need_poor > len(weak):
        raise MirrorError("not enough weak unseen cards for the poor player's hand")
    for c in weak[:need_poor]:
        hands[poor] |= 1 << c
    rest = [c for c in unseen if c == 52 or not (hands[poor] >> c & 1)]
    rng.shuffle(rest)
    k = 0
    for p in range(PLAYERS):
        if p in (me, poor):
            continue
        for c in rest[k : k + sizes[p]]:
            if c == 52:
                jok[p] += 1
            else:
                hands[p] |= 1 << c
        k += sizes[p]
    deal = {"hands": [cards_words(hands[p], jok[p]) for p in range(PLAYERS)]}
    g = torampu.new_game(
        "daifugo",
        rules=rules,
        seed=seed,
        deal=deal,
        titles=titles,
        seating=list(status.seating),
    )
    assert isinstance(g, Daifugo)
    while g.phase == "exchange" and g.to_play != me:
        g.play(g.legal_actions()[0])
    if g.phase != "exchange" or g.hands[me] != mine or g.jok[me] != my_jok:
        raise MirrorError("torampu's exchange does not give us our hand")
    return g


class UecdaClient:
    """Connects to a UECda server and plays until it says all games are over."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        bot: Bot,
        timeout: float | None = 300.0,
        rules: dict[str, Any] | None = None,
        out: TextIO | None = None,
        tap: Tap | None = None,
        quiet: bool = False,
        flush: str = "auto",
        records: TextIO | None = None,
    ) -> None:
        """``flush``: the server's flush rule, ``everyone`` (UECda's), ``one_left`` (the
        changed tndhms's) or ``auto``: recognised from the tables, game after game.
        ``records``: where to write one JSON line per decision (:meth:`record`)."""
        self.records = records
        if flush != "auto" and flush not in FLUSH_RULES:
            raise MirrorError(f"flush rule {flush!r}: auto, {', '.join(FLUSH_RULES)}")
        self.flush = flush
        self.guess: str | None = None
        self.host = host
        self.port = port
        self.name = name
        self.bot = bot
        self.timeout = timeout
        self.rules: dict[str, Any] = dict(rules or {"preset": RULES})
        self.out = out or sys.stdout
        self.tap = tap
        self.quiet = quiet

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out, flush=True)

    def run(self, wire: Wire | None = None) -> ClientReport:
        w = wire or connect(self.host, self.port, self.timeout, self.tap)
        try:
            return self._session(w)
        finally:
            w.close()

    def _session(self, w: Wire) -> ClientReport:
        w.send_table(profile_table(self.name), "our profile")
        me = w.recv_int("our player number")
        if not 0 <= me < PLAYERS:
            raise UecdaProtocolError(f"the server gave us player number {me}")
        report = ClientReport(player=me, name=self.name)
        self.say(f"connected as player {me} ({self.name})")
        number = 0
        while True:
            number += 1
            code = self._game(w, me, number, report)
            if code == ALL_GAMES_OVER:
                break
        self.say(report.summary())
        return report

    def _game(self, w: Wire, me: int, number: int, report: ClientReport) -> int:
        deal = w.recv_table(f"the deal table of game {number}")
        st = read_status(deal)
        if not st.deal:
            raise UecdaProtocolError(f"game {number}: the first table is not a deal ([5][0] = 0)")
        if (
            report.games
            and report.games[-1].position is None
            and sorted(st.ranks) == list(range(PLAYERS))
        ):
            prev = report.games[-1]
            prev.position = st.ranks[me]
            prev.ranking = sorted(range(PLAYERS), key=lambda p: st.ranks[p])
        tracker = GameTracker(me, number, deal, self.rules, self.flush, self.guess)
        if 0 < st.exchange < 100:
            w.send_table(self._exchange(tracker, st), f"the cards we return in game {number}")
        while True:
            hand = w.recv_table(f"the hand table (game {number}, turn {len(tracker.events)})")
            hst = tracker.on_hand(hand)
            if hst.my_turn:
                move, sub = self._decide(tracker)
                w.send_table(sub, f"our play (game {number})")
                answer = check_answer(w.recv_int(f"the answer to our play (game {number})"))
                if answer == REFUSED and move != PASS:
                    tracker.report.refused += 1
                    tracker.report.notes.append(f"the server refused {play_text(move)}")
                    self.say(f"game {number}: the server refused our play (answer {answer})")
                elif answer != ACCEPTED and move != PASS:  # pragma: no cover - check_answer
                    raise UecdaProtocolError(f"answer {answer}")
            tracker.on_stage(w.recv_table(f"the table of cards (game {number})"))
            code = check_game_code(w.recv_int(f"the game-over flag (game {number})"))
            if code != GAME_GOES_ON:
                break
        game = tracker.finish()
        self._learn(tracker)
        if game.flush_when != self.guess:
            if self.guess is not None:
                self.say(f"game {number}: the server's flush rule is {game.flush_when}")
            self.guess = game.flush_when
        report.games.append(game)
        where = "?" if game.position is None else str(game.position)
        self.say(
            f"game {number}: place {where}"
            + ("" if game.points is None else f", {game.points} points")
            + (f", {game.fallbacks} fallback decisions" if game.fallbacks else "")
            + (f", resynchronised {game.resyncs} times" if game.resyncs else "")
            + (", mirror lost" if game.lost else "")
            + (", stalemate" if game.stalemate else "")
        )
        return code

    def _learn(self, tracker: GameTracker) -> None:
        """Give a bot that learns (a ``learn`` method, e.g. ``ismcts:adapt=on``; it returns
        whether it learned) the record of the game just finished with every hand known
        (:meth:`GameTracker.revealed`)."""
        learn = getattr(self.bot, "learn", None)
        if not callable(learn):
            return
        full = tracker.revealed()
        if full is None:
            return
        start = time.perf_counter()
        try:
            learned = learn(full.to_record())
        except (TorampuError, ValueError) as e:
            tracker.report.notes.append(f"the bot could not learn from the game: {e}")
            return
        tracker.report.learned = bool(learned)
        tracker.report.learn_seconds = time.perf_counter() - start
        foresight = getattr(self.bot, "last_foresight", None) if learned else None
        if isinstance(foresight, tuple):
            tracker.report.foresight = foresight

    def _decide(self, tracker: GameTracker) -> tuple[int, Table]:
        tracker.report.decisions += 1
        g, ok = tracker.candidates()
        action = ""
        view: dict[str, Any] | None = None
        problem = None
        spent = 0.0
        if g is not None:
            start = time.perf_counter()
            try:
                view = g.view(tracker.me)
                view["exchange"] = tracker.exchange_rows()  # the mirror starts after it
                action = self.bot.choose(view, ok)
            except TorampuError as e:
                problem = f"the bot failed: {e}"
                tracker.report.notes.append(problem)
            spent = time.perf_counter() - start
            tracker.report.think += spent
            tracker.report.think_max = max(tracker.report.think_max, spent)
            if action and action not in ok:
                problem = f"the bot chose {action!r}, which was not offered"
                tracker.report.notes.append(problem)
                action = ""
        fallback = not action
        if fallback:  # no mirror, or no answer from the bot: the weakest play both accept
            tracker.report.fallbacks += 1
            plays = [a for a in ok if a != "pass"]
            action = plays[0] if plays else "pass"
        if action == "pass" and tracker.status.new_round:
            tracker.report.leader_passes += 1
        self.record(tracker, "play", view, ok, action, spent, fallback, problem)
        return tracker.submission(action)

    def record(
        self,
        tracker: GameTracker,
        phase: str,
        view: Mapping[str, Any] | None,
        offered: Sequence[str],
        action: str,
        seconds: float,
        fallback: bool,
        problem: str | None,
    ) -> None:
        """One JSON line to ``records`` (if any) for a decision: the game's number, the phase
        (``play`` or ``exchange``), the bot's view (``null`` without a mirror), the actions
        offered, the one sent, the bot's seconds, whether the fallback answered and why, and
        what a search bot's last search found (its iterations and the root's visits and mean
        rewards), so a match's decisions can be read and re-searched afterwards."""
        if self.records is None:
            return
        line: dict[str, Any] = {
            "game": tracker.number,
            "decision": tracker.report.decisions,
            "phase": phase,
            "offered": list(offered),
            "action": action,
            "seconds": round(seconds, 4),
            "fallback": fallback,
        }
        if problem is not None:
            line["problem"] = problem
        res = getattr(self.bot, "last_result", None)
        if res is not None and not fallback:
            line["search"] = {
                "iterations": res.iterations,
                "chosen": res.action,
                "visits": res.visits,
                "values": {a: round(v, 4) for a, v in res.values.items()},
            }
        line["view"] = view
        self.records.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.records.flush()

    def _exchange(self, tracker: GameTracker, st: Status) -> Table:
        k = st.exchange
        real, jokers = tracker.deal_hand
        view: dict[str, Any] | None = None
        offered: list[str] = []
        problem = None
        start = time.perf_counter()
        try:
            g = exchange_game(tracker.me, (real, jokers), k, st, self.rules, tracker.number)
            view, offered = g.view(tracker.me), g.legal_actions()
            action = self.bot.choose(view, offered)
            words = action.split()[1:]
            if action.split()[0] != "exchange" or len(words) != k:
                raise MirrorError(f"the bot chose {action!r} in the exchange")
        except TorampuError as e:
            problem = f"exchange by the weakest cards: {e}"
            tracker.report.notes.append(problem)
            words = cards_words(*_weakest(real, jokers, k))[:k]
        spent = time.perf_counter() - start
        sent = "exchange " + " ".join(words)
        self.record(tracker, "exchange", view, offered, sent, spent, problem is not None, problem)
        t = empty_table()
        for word in words:
            move = parse_play(word)
            if move >> JSHIFT & 3:
                t[4][1] = 2
            else:
                i, j = card_cell((move & REAL).bit_length() - 1)
                t[i][j] = 1
        return t


def _weakest(real: CardSet, jokers: int, k: int) -> tuple[CardSet, int]:
    order = [card_at(d, s) for d in range(13) for s in range(3, -1, -1)]
    out = 0
    for c in order:
        if out.bit_count() == k:
            break
        if real >> c & 1:
            out |= 1 << c
    return out, max(0, k - out.bit_count()) if jokers else 0


def make_client_bot(kind: str, seed: int) -> Bot:
    """A torampu bot for Daifugo (``heuristic``, ``ismcts``, ``random``, or a spec with options
    such as ``ismcts:iterations=300``), tried once on a ``uecda`` position so that a bot that
    cannot play Daifugo fails here, not in game 1."""
    kind, options = parse_bot_spec(kind)
    bot = make_bot(kind, seed=seed, game="daifugo", **options)
    g = torampu.new_game("daifugo", rules=RULES, seed=seed)
    seat = g.to_play
    assert seat is not None
    legal = g.legal_actions()
    if bot.choose(g.view(seat), legal) not in legal:
        raise BotError(f"the {kind!r} bot answers a Daifugo position with no legal action")
    return make_bot(kind, seed=seed, game="daifugo", **options)


def play(
    host: str,
    port: int,
    name: str,
    bot: str = "heuristic",
    seed: int = 0,
    timeout: float | None = 300.0,
    quiet: bool = False,
    out: TextIO | None = None,
    on_report: Callable[[ClientReport], None] | None = None,
    flush: str = "auto",
    records: TextIO | None = None,
) -> ClientReport:
    """Connect, play every game, return the report (``torampu uecda client``); ``records``:
    one JSON line per decision (:meth:`UecdaClient.record`)."""
    client = UecdaClient(
        host,
        port,
        name,
        make_client_bot(bot, seed),
        timeout=timeout,
        out=out,
        quiet=quiet,
        flush=flush,
        records=records,
    )
    report = client.run()
    if on_report is not None:
        on_report(report)
    return report
