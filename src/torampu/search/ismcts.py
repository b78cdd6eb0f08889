"""Information-set Monte Carlo tree search (single-observer ISMCTS), generic over the contract.

The searcher never sees the real game. Each iteration it asks a game-specific *sampler* for a
determinization — a whole game, rebuilt from the searching seat's ``view`` with the hidden
cards dealt at random consistently with everything that seat has seen — then walks one shared
tree keyed by moves (the fast-path ``int`` actions, which mean the same in every
determinization), choosing by UCB over the moves legal in that determinization (counting their
*availability*, as Cowling, Powley and Whitehouse's SO-ISMCTS), expands one move, finishes the
game with a rollout and backs up each seat's normalized score.

Game knowledge lives outside: a :data:`Sampler` per game (see :mod:`torampu.search.samplers`)
and, optionally, a rollout policy. The search itself is one loop.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from torampu.daifugo_plays import release_memos
from torampu.game import Game, Move
from torampu.napoleon import Napoleon
from torampu.search.daifugo_sampler import greedy_rollout
from torampu.search.rollouts import (
    candidate_moves,
    for_game,
    napoleon_playout,
    napoleon_rollout,
    scripted_moves,
)

View = Mapping[str, Any]
Sampler = Callable[[View, random.Random], Game]
"""``sampler(view, rng)``: a game consistent with ``view``, the hidden cards dealt at random."""
Rollout = Callable[[Game, random.Random], None]
"""Play a game to its end (default: the game's own uniformly random ``playout``)."""
Scripted = Callable[[Game, Game, Callable[[], float]], tuple[Move, bool] | None]
"""``scripted(game, root, rand)``: ``(move, seen by the searcher)`` when the move at ``game`` is
not the tree's to choose (``root``: the search's first determinization), else ``None``."""
Prior = Callable[[Game, list[Move]], list[float]]
"""``prior(game, legal)``: a probability per move of ``legal`` for the player to move (a learned
policy's, :meth:`torampu.learn.daifugo_policy.Policy.prior`)."""
Prune = Callable[[Game, list[Move]], list[Move]]
"""``prune(game, legal)``: the legal moves the tree considers at this decision (a non-empty
subset of ``legal``)."""


def random_rollout(game: Game, rng: random.Random) -> None:
    """Uniformly random legal moves to the end: the game's own ``playout``, or for Napoleon
    :func:`~torampu.search.rollouts.napoleon_playout` (the same draws and scores, faster)."""
    fast = _FAST_PLAYOUTS.get(type(game))
    if fast is not None:
        fast(game, rng)
    else:
        game.playout(rng)  # type: ignore[attr-defined]


_FAST_PLAYOUTS: dict[type, Rollout] = {Napoleon: napoleon_playout}


def rollout_for(game: str) -> Rollout:
    """The rollout a search of ``game`` uses by default: Napoleon's contract policy with random
    tricks (:func:`~torampu.search.rollouts.napoleon_rollout`), Daifugo's greedy shedding
    (:func:`~torampu.search.daifugo_sampler.greedy_rollout`), else uniformly random moves."""
    return {"napoleon": napoleon_rollout, "daifugo": greedy_rollout}.get(game, random_rollout)


class _Node:
    __slots__ = ("avail", "children", "prior", "seat", "squares", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who moved into this node (-1 at the root)
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0  # kept for the root's children only
        self.avail = 0
        self.children: dict[Move, _Node] = {}
        self.prior: dict[Move, float] | None = None  # with a prior: each move's, when first seen


@dataclass
class SearchResult:
    """What a search found: the chosen move and its statistics."""

    move: Move
    action: str
    iterations: int
    seconds: float
    visits: dict[str, int] = field(default_factory=dict)
    values: dict[str, float] = field(default_factory=dict)
    spreads: dict[str, float] = field(default_factory=dict)
    """The tree's root moves: the standard deviation of the searcher's rewards below each."""


def scores_to_rewards(scores: Sequence[float]) -> list[float]:
    """Map one game's scores to rewards in [0, 1] (best seat 1, worst 0, all equal 0.5)."""
    lo, hi = min(scores), max(scores)
    if hi == lo:
        return [0.5] * len(scores)
    span = hi - lo
    return [(s - lo) / span for s in scores]


def ismcts(
    view: View,
    sampler: Sampler,
    rng: random.Random,
    iterations: int | None = 1000,
    seconds: float | None = None,
    exploration: float = 0.7,
    rollout: Rollout = random_rollout,
    reward: Callable[[Game], Sequence[float]] | None = None,
    prune: Prune | None = candidate_moves,
    scripted: Scripted | None = scripted_moves,
    prior: Prior | None = None,
    prior_weight: float = 1.0,
    allowed: Collection[str] | None = None,
) -> SearchResult:
    """Search from ``view`` (the searching seat's) and return the most visited root move.

    Stops after ``iterations`` or ``seconds`` (whichever comes first; at least one iteration).
    ``reward(game)`` gives each seat's reward in [0, 1] at the end of a finished game (default:
    :func:`scores_to_rewards` of ``scores()``). ``prune(game, legal)`` narrows the moves the
    tree considers where a decision has too many (default :func:`candidate_moves`: Napoleon's
    auction, call and discards, Daifugo's exchange, 7渡し and 10捨て); ``None`` searches every
    legal move. ``scripted(game, root, rand)`` plays moves the tree does not choose between
    (default :func:`scripted_moves`: in Napoleon's contract phases, the other seats' moves and
    the searcher's own in later phases follow a policy), as ``(move, seen)``: a move the
    searcher sees gets its own node, so the searcher's later decisions depend on it.
    ``prior(game, legal)`` (optional) guides the tree: a node's untried moves are expanded in
    the order of their prior, and a move's UCB value gets a progressive bias of
    ``prior_weight * P(move) / (visits + 1)`` (each node keeps the prior a move had in the first
    determinization where it was legal there). ``allowed`` (optional) names the root moves the
    result may be: a caller may offer fewer moves than the game allows (the UECda client offers
    only the plays its server accepts too); the most visited of them that the tree tried is
    chosen (any root move if it tried none of them).

    Python's cyclic garbage collector is kept out of the search: it is off while the search
    runs, and after it everything alive — what was alive before (frozen at the start) and what
    the search leaves (its memos, mostly) — goes into the collector's oldest generation without
    a scan (``gc.freeze`` then ``gc.unfreeze``), where only its rare full collections look. The
    games and the tree hold no reference cycles, so there is nothing for it to find: at
    Python's default its passes over the growing tree and the memos cost about 5% of a Daifugo
    search, and turned off alone it would scan everything the search left at its first
    collection after it, outside the search's time budget (30–150 ms after a 0.5 s search).
    Where the caller has frozen objects of its own, they are left alone, and the collector is
    only turned off and on.
    """
    enabled = gc.isenabled()
    own = gc.get_freeze_count() == 0  # (a caller's own frozen objects are left alone)
    if own:
        gc.freeze()
    if enabled:
        gc.disable()
    try:
        return _search(
            view,
            sampler,
            rng,
            iterations,
            seconds,
            exploration,
            rollout,
            reward,
            prune,
            scripted,
            prior,
            prior_weight,
            allowed,
        )
    finally:
        if own:  # everything, the search's objects too, into the oldest generation
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()


def _search(
    view: View,
    sampler: Sampler,
    rng: random.Random,
    iterations: int | None,
    seconds: float | None,
    exploration: float,
    rollout: Rollout,
    reward: Callable[[Game], Sequence[float]] | None,
    prune: Prune | None,
    scripted: Scripted | None,
    prior: Prior | None,
    prior_weight: float,
    allowed: Collection[str] | None,
) -> SearchResult:
    root = _Node(-1)
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    release_memos()  # what Daifugo's memos retired since the last search: freed inside the budget
    limit = iterations if iterations is not None else 1 << 62
    rewarder = reward or (lambda g: scores_to_rewards(g.scores()))
    log = math.log
    sqrt = math.sqrt
    done = 0
    first: Game | None = None
    while done < limit:
        if done and deadline is not None and time.perf_counter() > deadline:
            break
        g = sampler(view, rng)
        if first is None:
            first = g
            g = g.clone()
            scripted, prune = for_game(first, scripted, prune)
        node = root
        path = [node]
        # selection and expansion
        while not g.is_over:
            if scripted is not None:
                step = scripted(g, first, rng.random)
                if step is not None:
                    m, seen = step
                    if seen:
                        child = node.children.get(m)
                        if child is None:
                            child = node.children[m] = _Node(g.to_play)  # type: ignore[arg-type]
                        node = child
                        path.append(node)
                    g.apply(m)
                    continue
            legal = g.legal_moves()
            if prune is not None:
                legal = prune(g, legal)
            mover = g.to_play
            assert mover is not None
            children = node.children
            pr = None
            if prior is not None:
                pr = node.prior
                if pr is None:
                    pr = node.prior = {}
                if any(m not in pr for m in legal):
                    for m, p in zip(legal, prior(g, legal), strict=True):
                        pr.setdefault(m, p)
            # one pass: count each existing child's availability, note untried moves, and
            # (while none is untried) keep the best child by UCB
            untried = None
            best = -1.0
            pick = legal[0]
            for m in legal:
                c = children.get(m)
                if c is None:
                    if untried is None:
                        untried = [m]
                    else:
                        untried.append(m)
                    continue
                a = c.avail = c.avail + 1
                if untried is None:
                    n = c.visits
                    v = c.total / n + exploration * sqrt(log(a) / n)
                    if pr is not None:
                        v += prior_weight * pr[m] / (n + 1)
                    if v > best:
                        best, pick = v, m
            if untried is not None:
                if pr is None:
                    m = untried[int(rng.random() * len(untried))]
                else:
                    m = max(untried, key=pr.__getitem__)
                child = children[m] = _Node(mover)
                child.avail = 1
                g.apply(m)
                path.append(child)
                break
            node = children[pick]
            g.apply(pick)
            path.append(node)
        if not g.is_over:
            rollout(g, rng)
        rewards = rewarder(g)
        for nd in path:
            nd.visits += 1
            if nd.seat >= 0:
                nd.total += rewards[nd.seat]
        if len(path) > 1 and path[1].seat >= 0:
            path[1].squares += rewards[path[1].seat] ** 2
        done += 1
    elapsed = time.perf_counter() - start
    assert first is not None
    legal_root = first.legal_moves()
    if prune is not None:
        legal_root = prune(first, legal_root)
    stats = {m: root.children[m] for m in legal_root if m in root.children}
    name = first.action_str
    pickable = stats
    if allowed is not None:
        pickable = {m: c for m, c in stats.items() if name(m) in allowed} or stats
    best_move = (
        max(pickable, key=lambda m: (stats[m].visits, stats[m].total))
        if pickable
        else legal_root[0]
    )
    return SearchResult(
        move=best_move,
        action=name(best_move),
        iterations=done,
        seconds=elapsed,
        visits={name(m): c.visits for m, c in stats.items()},
        values={name(m): c.total / c.visits for m, c in stats.items() if c.visits},
        spreads={name(m): _spread(c) for m, c in stats.items() if c.visits},
    )


def _spread(c: _Node) -> float:
    mean = c.total / c.visits
    return math.sqrt(max(0.0, c.squares / c.visits - mean * mean))


def guarded(res: SearchResult, baseline: str, z: float) -> str:
    """The tree's move only where it beats ``baseline`` (a policy's own move) by more than ``z``
    standard errors of the two moves' mean rewards at the root; else ``baseline``. A move the
    tree did not try twice cannot beat or be beaten: ``baseline`` stands.

    >>> r = SearchResult(move=0, action="b", iterations=60, seconds=0.1,
    ...                  visits={"a": 30, "b": 30}, values={"a": 0.4, "b": 0.6},
    ...                  spreads={"a": 0.3, "b": 0.3})
    >>> guarded(r, "a", 1.0), guarded(r, "a", 3.0), guarded(r, "b", 3.0)
    ('b', 'a', 'b')
    """
    best = res.action
    if best == baseline:
        return best
    n_b, n_h = res.visits.get(best, 0), res.visits.get(baseline, 0)
    if n_b < 2 or n_h < 2:
        return baseline
    se = math.sqrt(res.spreads[best] ** 2 / n_b + res.spreads[baseline] ** 2 / n_h)
    return best if res.values[best] - res.values[baseline] > z * se else baseline
