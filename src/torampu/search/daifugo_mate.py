"""Certain mates in Daifugo: plays that go out against every hand the others could hold.

A player who can go out by a chain of plays nobody can answer wins the best place still open,
whatever the others hold: each play but the last is one that no card the player cannot see
could beat (the others pass, or it flushes the table, as an 8 does), so the lead comes back,
and the last play empties the hand. No other move can do better, so a search need not weigh
one (Blauweregen, the UECda 2017 champion, looks for such a mate before it searches, as does
the bot here: ``ismcts:root_mate``, on by default, :mod:`torampu.bots.search`).

"Every hand the others could hold" is checked on one worst case: a determinization of the
seat's view (:mod:`torampu.search.daifugo_sampler`) in which *every* other player still in
holds *all* the cards the seat cannot see (the others' hands, and any set aside unseen), but
may answer only with as many cards as that player really holds (hand sizes are public). A
split of those cards among players can only answer less than their union can, so a play that
this worst case cannot answer is answered by nobody. The engine's own moves and effects decide
everything (revolutions, 8-cuts, locks, who passed): one definition of the rules.

Conservative where the rules make finishing subtle: with ``forbidden_finish`` (some last plays
are fouls) no mate is claimed, and a play that starts a give or a discard (7渡し, 10捨て), or
after which the seat holds other cards than before less those played (大7 passes every hand
on), does not count as unanswered.

>>> import torampu
>>> g = torampu.new_game("daifugo", rules="standard", players=3, seed=0, dealer=2,
...     deal={"hands": [["4H", "8C", "8D"], ["4S", "5S", "6S"], ["7H", "9D", "KD"]]})
>>> [g.action_str(m) for m in g.legal_moves()]
['play 4H', 'play 8C', 'play 8D', 'play 8C 8D']
>>> [g.action_str(m) for m in certain_mates(g, 0)]  # an 8 flushes the table; the 4 goes out
['play 8C', 'play 8D', 'play 8C 8D']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from torampu.daifugo import PH_PLAY, Daifugo
from torampu.daifugo_plays import JSHIFT, PASS, REAL, info
from torampu.game import Game, Move

View = Mapping[str, Any]
Sampler = Callable[[View, random.Random], Game]

MAX_STATES = 5_000
"""Positions of the seat's own hand the search looks at, at most (a hand of 11 cards has few
plays nobody answers, so real searches stay far below this)."""


def worst_case(game: Daifugo, me: int) -> Daifugo:
    """A copy of ``game`` in which every other player still in holds every card ``me`` cannot
    see: the union of the others' hands and of the cards set aside. (Who holds how many cards
    is public: :func:`certain_mates` reads it from ``game`` itself.)"""
    g = game.clone()
    unseen = g.set_aside
    jokers = g.set_aside_jokers
    for s in range(g.n):
        if s != me:
            unseen |= g.hands[s]
            jokers += g.jok[s]
    for s in range(g.n):
        if s != me and (g.hands[s] or g.jok[s]):
            g.hands[s] = unseen
            g.jok[s] = jokers
    return g


def _goes_out(g: Daifugo, m: Move, me: int) -> bool:
    return (m & REAL) == g.hands[me] and (m >> JSHIFT & 3) == g.jok[me]


def _comes_back(g: Daifugo, m: Move, me: int, sizes: list[int]) -> Daifugo | None:
    """The position after ``m`` once every other player has passed and the table is empty
    with ``me`` to lead again, or ``None`` when someone could answer: a player holding ``k``
    cards (``sizes``) answers with any play of at most ``k`` of the cards ``me`` cannot see."""
    c = g.clone()
    c._apply(m)
    if c.hands[me] != g.hands[me] & ~(m & REAL) or c.jok[me] != g.jok[me] - (m >> JSHIFT & 3):
        return None  # cards changed hands (大7: every hand passed on): nothing is certain
    while c.phase_id == PH_PLAY and c.turn != me:
        k = sizes[c.turn]
        if any(p != PASS and info(p).size <= k for p in c._plays_now(c.turn)):
            return None
        c._apply(PASS)
    if c.phase_id != PH_PLAY or c.turn != me or c.table_info is not None:
        return None
    return c


class _Search:
    def __init__(self, me: int, sizes: list[int], max_states: int) -> None:
        self.me = me
        self.sizes = sizes
        self.max_states = max_states
        self.seen: dict[tuple[Any, ...], bool] = {}

    def mates(self, g: Daifugo, first: bool) -> list[Move]:
        """The moves of ``me`` (to play in ``g``) that start a certain mate; with ``first``,
        only the first found."""
        me = self.me
        found: list[Move] = []
        for m in g._plays_now(me):
            if m == PASS:
                continue
            if _goes_out(g, m, me):
                found.append(m)
            else:
                c = _comes_back(g, m, me, self.sizes)
                if c is not None and self.wins(c):
                    found.append(m)
            if found and first:
                break
        return found

    def wins(self, g: Daifugo) -> bool:
        key = (g.hands[self.me], g.jok[self.me], g.revolution, g.eleven, g.direction)
        got = self.seen.get(key)
        if got is None:
            if len(self.seen) >= self.max_states:
                return False  # out of budget: not known to be a mate
            self.seen[key] = False  # a position met again on its own path is no mate
            got = bool(self.mates(g, first=True))
            self.seen[key] = got
        return got


def certain_mates(game: Game, me: int, max_states: int = MAX_STATES) -> list[Move]:
    """The moves of ``me`` (to play in ``game``, Daifugo, in play) that go out by a chain of
    plays nobody could answer, whatever the cards ``me`` cannot see (``game`` is a
    determinization: only ``me``'s hand and the public state are read as such; the others'
    cards are pooled by :func:`worst_case`). Empty when there is none, when it is not
    ``me``'s play, or under ``forbidden_finish``."""
    if not isinstance(game, Daifugo) or game.phase_id != PH_PLAY or game.turn != me:
        return []
    if game.rules["forbidden_finish"]:
        return []
    sizes = [game.hands[s].bit_count() + game.jok[s] for s in range(game.n)]
    return _Search(me, sizes, max_states).mates(worst_case(game, me), first=False)


def mate_view(
    view: View, sampler: Sampler, rng: random.Random, max_states: int = MAX_STATES
) -> list[str]:
    """The actions of the seat of ``view`` that start a certain mate (see
    :func:`certain_mates`), as action strings; empty when there is none."""
    if view.get("phase") != "play" or not isinstance(view.get("seat"), int):
        return []
    me = int(view["seat"])
    g = sampler(view, rng)
    if not isinstance(g, Daifugo):
        return []
    return [g.action_str(m) for m in certain_mates(g, me, max_states)]
