"""An exact Daifugo endgame solver for the last two players.

When only two players are still in, the one who goes out first takes the better of the two
places left; nothing else is at stake. Under most rule sets the other player's hand is then known
exactly: every card is in one of the two hands, on the table, flushed or discarded (all public),
so a determinization of the view (:mod:`torampu.search.daifugo_sampler`) is the real game.
Where cards were set aside unseen (``shike``, or a fixed deal that leaves cards out), a sample
is only one possibility: :func:`solve_view` then asks that a move win on every one of several
samples.

The search is a depth-first AND/OR search over the engine's own moves (``legal_moves`` and
``_apply``: one definition of the rules), the searcher's moves OR, the other's AND, with

* a transposition table keyed on a compact state key (the hands, the table, whose turn, the
  lock, the order, who passed...; not the log);
* move ordering: the biggest plays first, passes last (a finishing play is then tried first);
* a node budget: past it the answer is *unknown*;
* the searcher never passes as the leader while it can play (``lead_pass``), as the bot;
* a game that ends in a stalemate (``stalemate_passes``, places drawn at random), or a line that
  comes back to a state already on the path (passing round and round under ``lead_pass``), is
  never counted as a win. Such results may be stored as losses where another path would win:
  a *loss* can be pessimistic, a *win* always holds against every reply.

>>> import torampu
>>> g = torampu.new_game("daifugo", rules="standard", players=2, seed=0,
...                      deal={"hands": [["4S", "4H", "5S"], ["KS", "AS"]]}, dealer=1)
>>> r = solve(g, 0)
>>> r.status, g.action_str(r.move)  # the pair first (unanswered), then the single
('win', 'play 4H 4S')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from torampu.daifugo import PH_EXCHANGE, PH_OVER, Daifugo
from torampu.daifugo_plays import JSHIFT, PASS, REAL
from torampu.game import Game, Move

View = Mapping[str, Any]
Sampler = Callable[[View, random.Random], Game]

DEFAULT_NODES = 20_000
"""The solver's default budget: positions expanded per decision (about 30 µs each)."""
DEFAULT_SAMPLES = 6
"""Determinizations a move must win on when the view leaves cards unseen (``shike``)."""

WIN = "win"
LOSS = "loss"
UNKNOWN = "unknown"


@dataclass
class EndgameResult:
    """What :func:`solve` found: ``status`` is ``"win"`` (``move`` wins against every reply),
    ``"loss"`` (no move is known to win: every line was searched) or ``"unknown"`` (the budget
    ran out first); ``nodes`` is the number of positions expanded."""

    status: str
    move: Move | None
    nodes: int


class _OutOfBudget(Exception):
    pass


def two_left(view: View) -> bool:
    """Whether ``view`` is a decision of its seat in play (a play, or a 7渡し give or 10捨て
    discard) with exactly two players still in (the seat one of them)."""
    sizes = view.get("hand_sizes") or []
    seat = view.get("seat")
    return (
        view.get("phase") in ("play", "give", "discard")
        and isinstance(seat, int)
        and sum(1 for k in sizes if k) == 2
        and bool(sizes[seat])
    )


def _fork(g: Daifugo) -> Daifugo:
    """A copy for the solver: the lists the play phase changes are copied, the log and history
    start empty (the rules never read them back; only a stalemate's random places do, and the
    solver does not count those)."""
    c = g.clone()
    c.history = []
    c.log = []
    return c


def _order_key(m: Move) -> int:
    """Biggest plays first (cards in the play), passes last."""
    if m == PASS:
        return 99
    return -((m & REAL).bit_count() + (m >> JSHIFT & 3))


class _Solver:
    def __init__(self, me: int, other: int, max_nodes: int, stalemate: int) -> None:
        self.me = me
        self.other = other
        self.max_nodes = max_nodes
        self.stalemate = stalemate
        self.nodes = 0
        self.table: dict[tuple[Any, ...], bool] = {}
        self.path: set[tuple[Any, ...]] = set()

    def key(self, g: Daifugo) -> tuple[Any, ...]:
        return (
            g.turn,
            g.phase_id,
            g.hands[self.me],
            g.jok[self.me],
            g.hands[self.other],
            g.jok[self.other],
            g.active,
            g.table,
            g.table_by,
            g.passed,
            g.lock_suits,
            g.strict,
            g.recent,
            g.plays_in_round,
            g.revolution,
            g.eleven,
            g.fixed,
            g.direction,
            g.pending,
            g.pending_play,
            g.must_include,
            g.pass_run if self.stalemate else 0,
        )

    def won(self, g: Daifugo) -> bool:
        if self.stalemate and g.pass_run >= self.stalemate:
            return False  # places drawn at random: no win
        rank = g.ranking
        return self.me in rank and (
            self.other not in rank or rank.index(self.me) < rank.index(self.other)
        )

    def wins(self, g: Daifugo) -> bool:
        """Whether the searcher goes out first from ``g`` against every reply."""
        if g.phase_id == PH_OVER:
            return self.won(g)
        key = self.key(g)
        got = self.table.get(key)
        if got is not None:
            return got
        if key in self.path:
            return False  # round and round: not a win
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfBudget
        self.path.add(key)
        mine = g.turn == self.me
        result = not mine
        moves = g.legal_moves()
        if mine:
            moves = _own(g, moves)
        for m in sorted(moves, key=_order_key):
            c = _fork(g)
            c._apply(m)
            if self.wins(c) == mine:
                result = mine
                break
        self.path.discard(key)
        self.table[key] = result
        return result


def _own(g: Daifugo, moves: list[Move]) -> list[Move]:
    """The searcher's own moves: as the ``ismcts`` bot, it never passes as the leader while it
    can play (``lead_pass``; see :func:`~torampu.search.rollouts.daifugo_candidates`)."""
    if g.table_info is None and len(moves) > 1 and PASS in moves:
        return [m for m in moves if m != PASS]
    return moves


def _pair(g: Daifugo, me: int) -> int | None:
    """The other player still in, or ``None`` when this is not a two-player play decision of
    ``me``."""
    if g.phase_id == PH_OVER or g.turn != me:
        return None
    active = [s for s in range(g.n) if g.active >> s & 1]
    if len(active) != 2 or me not in active:
        return None
    return active[0] if active[1] == me else active[1]


def winning_moves(
    game: Game,
    me: int,
    max_nodes: int = DEFAULT_NODES,
    candidates: list[Move] | None = None,
    first: bool = True,
) -> tuple[list[Move], int, bool]:
    """The moves of ``me`` (to play in ``game``, two players in) that win against every reply:
    ``(moves, nodes, complete)``. With ``first`` it stops at the first winning move;
    ``candidates`` limits the moves tried. ``complete`` is false when the budget ran out (the
    moves found still win)."""
    assert isinstance(game, Daifugo)
    other = _pair(game, me)
    if other is None:
        return [], 0, False
    s = _Solver(me, other, max_nodes, int(game.rules["stalemate_passes"] or 0))
    root = _fork(game)
    s.path.add(s.key(root))
    moves = candidates if candidates is not None else _own(game, game.legal_moves())
    out: list[Move] = []
    complete = True
    for m in sorted(moves, key=_order_key):
        c = _fork(root)
        c._apply(m)
        try:
            if s.wins(c):
                out.append(m)
                if first:
                    break
        except _OutOfBudget:
            complete = False
            break
    return out, s.nodes, complete


def solve(game: Game, me: int, max_nodes: int = DEFAULT_NODES) -> EndgameResult:
    """Solve ``game`` (Daifugo, in play, ``me`` to play, two players still in) for ``me``:
    a move that makes ``me`` go out first whatever the other does, if one exists."""
    moves, nodes, complete = winning_moves(game, me, max_nodes)
    if moves:
        return EndgameResult(WIN, moves[0], nodes)
    return EndgameResult(LOSS if complete else UNKNOWN, None, nodes)


def solve_view(
    view: View,
    sampler: Sampler,
    rng: random.Random,
    max_nodes: int = DEFAULT_NODES,
    samples: int = DEFAULT_SAMPLES,
) -> tuple[EndgameResult, Game | None]:
    """Solve from the seat's ``view`` (see :func:`two_left`), on a determinization by
    ``sampler``. When the view tells every card's place (nothing set aside) one sample is the
    game; else a move must win on each of ``samples`` samples (the budget is shared). Returns the
    result and the first sample (to name the move: ``sample.action_str(move)``)."""
    me = int(view["seat"])
    first = sampler(view, rng)
    assert isinstance(first, Daifugo)
    if first.phase_id == PH_EXCHANGE or _pair(first, me) is None:
        return EndgameResult(UNKNOWN, None, 0), first
    exact = not first.set_aside and not first.set_aside_jokers
    moves, nodes, complete = winning_moves(first, me, max_nodes, first=exact)
    if exact or not moves:
        if moves:
            return EndgameResult(WIN, moves[0], nodes), first
        # a loss on one sample of several possible deals is not known
        return EndgameResult(LOSS if complete and exact else UNKNOWN, None, nodes), first
    for _ in range(samples - 1):
        g = sampler(view, rng)
        left = max_nodes - nodes
        if left <= 0:
            return EndgameResult(UNKNOWN, None, nodes), first
        moves, used, _ = winning_moves(g, me, left, candidates=moves, first=False)
        nodes += used
        if not moves:
            return EndgameResult(UNKNOWN, None, nodes), first
    return EndgameResult(WIN, moves[0], nodes), first
