"""The learned Daifugo move policy: a linear softmax over :mod:`~torampu.learn.daifugo_features`.

A move's score is the dot product of its features with the policy's weights; the moves of one
decision are chosen with probability ``softmax(score / temperature)``, or greedily (the highest
score). A policy may also carry a *table*: a weight for each binary key of
:func:`~torampu.learn.daifugo_features.move_keys` (a play's class crossed with its context, and
what it takes from each rank), added to the score of every move that has the key — a richer
policy, still linear, learned by self-play (``torampu train daifugo-selfplay --table``) and
written as :data:`FORMAT_TABLE`.

The weights come from :mod:`torampu.learn.train` (``torampu train daifugo``) as a small
JSON file; the package ships one (:data:`DEFAULT_PATH`, loaded by :func:`default_policy`),
made by the command recorded in the file itself (its ``command`` field) and in
:mod:`torampu.learn`'s docstring.

Scoring is plain Python loops, compiled by mypyc with the features (``setup.py``; the pure
source runs where no compiler is): a decision has a handful of moves and :data:`N_FEATURES`
features, and building numpy arrays for so few numbers costs more than the dot products
themselves (``bench/daifugo_policy.py`` measures both); numpy is needed only to train.

The shipped parameters
----------------------
Made by (written to ``/tmp`` and copied to :data:`DEFAULT_PATH`; the file's ``command`` and
``training`` fields say the same)::

    torampu train daifugo --games 90 --match-games 5 \
        --teacher ismcts:iterations=800:rollout=greedy --rules uecda --seed 31 \
        --out /tmp/pol_ex1.json

90 matches of 5 ``uecda`` games with the search (800 iterations, greedy rollouts) at every
seat: 20,526 decisions, 2,064 of them (the last 9 matches) held out; held-out NLL 0.827, the
search's move is the policy's best in 68.1% of the held-out decisions (records 22 min on one
core, fit 3 s). (``rollout=greedy`` is spelled out: it was the search's default then.) Measured
(``torampu tournament daifugo``, 100 duplicate deals of 5-game matches, ``--seed 7``, 95%
intervals), the ``policy`` bot against the heuristic and against the parameters shipped before
(trained on the heuristic's own moves under ``standard``)::

    rules      against the heuristic        against the previous policy
    uecda      −0.08 [−0.20, 0.03]          +0.25 [0.13, 0.36]
    standard   +0.13 [0.01, 0.24]           +0.34 [0.22, 0.46]
    yaita      −0.79 [−0.86, −0.71]         +0.01 [−0.06, 0.09]

Inside the search, as the rollout (``ismcts:think=0.5:rollout=policy``) against four
Blauweregen under tndhms: 2.43 points/game over 400 games against 2.19 for the greedy rollout
over 200 in the same session (see the README); so it is the default rollout under the rules it
was trained under (``rollout=auto``, :data:`torampu.bots.search.DEFAULT_ROLLOUT`). A second
round trained on the search with this policy as its rollout (60 matches, 14,008 decisions,
70.2% agreement) scored the same there (2.45 over 200) and is not shipped. The previous
parameters (``--teacher heuristic --rules standard --seed 21``, 500 matches) scored −0.08
[−0.13, −0.03] against the heuristic under ``standard`` over 500 deals.

Used three ways:

* :func:`policy_rollout` — a rollout for the ``ismcts`` tree (bot option ``rollout=policy``,
  and ``rollout=auto``, the default, under the rules the parameters were trained under);
* :meth:`Policy.prior` — the tree's prior over a node's moves (``prior=on``), a progressive bias;
* the ``policy`` bot (:mod:`torampu.bots.policy`): the policy alone, on a determinization of
  the seat's view (its features read only what the seat knows).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from torampu.daifugo import PH_OVER, Daifugo
from torampu.game import Game, Move
from torampu.learn.daifugo_features import FEATURES, N_FEATURES, N_KEYS, move_features, move_keys
from torampu.search.daifugo_sampler import mate_play

FORMAT = "torampu-daifugo-policy-1"
FORMAT_TABLE = "torampu-daifugo-policy-2"
"""The format of a policy with a table of key weights (:data:`N_KEYS`); a policy without one
is still written as :data:`FORMAT`."""
DEFAULT_PATH = "data/daifugo_policy.json"
"""The shipped parameters, inside the package :mod:`torampu.learn`."""

Rand = Callable[[], float]


class PolicyError(ValueError):
    """A parameter file that is not a Daifugo policy of this version."""


class Policy:
    """A linear softmax policy: ``weights`` for :data:`~torampu.learn.daifugo_features.FEATURES`
    and, optionally, a ``table`` of weights for the binary keys of
    :func:`~torampu.learn.daifugo_features.move_keys` (a move's score adds the weights of its
    keys)."""

    def __init__(
        self,
        weights: Sequence[float],
        meta: Mapping[str, Any] | None = None,
        table: Sequence[float] | None = None,
    ) -> None:
        if len(weights) != N_FEATURES:
            raise PolicyError(f"a policy needs {N_FEATURES} weights, not {len(weights)}")
        if table is not None and len(table) != N_KEYS:
            raise PolicyError(f"a policy's table needs {N_KEYS} weights, not {len(table)}")
        self.weights = [float(w) for w in weights]
        self.table: list[float] | None = None if table is None else [float(w) for w in table]
        self.meta: dict[str, Any] = dict(meta or {})

    # ------------------------------------------------------------------ files
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT if self.table is None else FORMAT_TABLE,
            "features": list(FEATURES),
            "weights": [round(w, 6) for w in self.weights],
        }
        if self.table is not None:
            out["keys"] = N_KEYS
            out["table"] = [round(w, 5) for w in self.table]
        return {**out, **self.meta}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Policy:
        """A policy from its file's data (either format). Weights are matched to features by
        name: a file written before a feature was added (the shipped one predates the lone-card
        features) gives that feature weight 0, so it scores every move as it did.

        >>> p = Policy([0.5] * N_FEATURES, {"note": 1}, table=[0.25] * N_KEYS)
        >>> q = Policy.from_json(p.to_json())
        >>> q.weights == p.weights, q.table == p.table, q.meta
        (True, True, {'note': 1})
        >>> Policy.from_json({**p.to_json(), "keys": 7})
        Traceback (most recent call last):
        ...
        torampu.learn.daifugo_policy.PolicyError: the file has 7 keys, this version 4009
        """
        fmt = data.get("format")
        if fmt not in (FORMAT, FORMAT_TABLE):
            raise PolicyError(
                f"not a {FORMAT} or {FORMAT_TABLE} file (format {data.get('format')!r})"
            )
        names = data.get("features", ())
        if not isinstance(names, list) or not all(isinstance(f, str) for f in names):
            raise PolicyError("the file's features must be a list of names")
        unknown = [f for f in names if f not in FEATURES]
        if unknown:
            raise PolicyError(f"the file's features are not this version's: {unknown[:3]}")
        if len(set(names)) != len(names):
            raise PolicyError("the file names a feature twice")
        table = None
        if fmt == FORMAT_TABLE:
            if data.get("keys") != N_KEYS:
                raise PolicyError(f"the file has {data.get('keys')!r} keys, this version {N_KEYS}")
            table = data.get("table")
            if not isinstance(table, list):
                raise PolicyError("a policy file of format 2 needs its table")
        skip = ("format", "features", "weights", "keys", "table")
        meta = {k: v for k, v in data.items() if k not in skip}
        given = _numbers("weights", data.get("weights"))
        if len(given) != len(names):
            raise PolicyError(f"the file has {len(names)} features but {len(given)} weights")
        # a file from before a feature was added gives that feature no weight
        by_name = dict(zip(names, given, strict=True))
        weights = [by_name.get(f, 0.0) for f in FEATURES]
        return cls(weights, meta, None if table is None else _numbers("table", table))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))

    @property
    def trained_under(self) -> str | None:
        """The preset the policy was trained under (its file's ``training.rules``), if named.

        >>> Policy([0.0] * N_FEATURES, {"training": {"rules": "uecda"}}).trained_under
        'uecda'
        >>> Policy([0.0] * N_FEATURES, {"training": 5}).trained_under is None
        True
        """
        training = self.meta.get("training")
        rules = training.get("rules") if isinstance(training, dict) else None
        return rules if isinstance(rules, str) else None

    # ------------------------------------------------------------------ scoring
    def scores(self, g: Daifugo, moves: list[Move]) -> list[float]:
        """Each move's score (its logit) for the seat to play at ``g``."""
        w = self.weights
        n = len(w)
        out: list[float] = []
        table = self.table
        if table is None:
            for f in move_features(g, moves):
                t = 0.0
                for k in range(n):
                    t += w[k] * f[k]
                out.append(t)
            return out
        feats, keys = move_keys(g, moves)
        for i in range(len(feats)):
            f = feats[i]
            t = 0.0
            for k in range(n):
                t += w[k] * f[k]
            for key in keys[i]:
                t += table[key]
            out.append(t)
        return out

    def probs(self, g: Daifugo, moves: list[Move], temperature: float = 1.0) -> list[float]:
        """``softmax(scores / temperature)`` over ``moves``."""
        return softmax(self.scores(g, moves), temperature)

    def prior(self, game: Game, moves: list[Move]) -> list[float]:
        """The tree's prior over ``moves`` (:meth:`probs` at temperature 1)."""
        assert isinstance(game, Daifugo)
        return softmax(self.scores(game, moves), 1.0)

    def best(self, g: Daifugo, moves: list[Move]) -> Move:
        """The highest-scoring move (the first of equals)."""
        if len(moves) == 1:
            return moves[0]
        sc = self.scores(g, moves)
        return moves[sc.index(max(sc))]

    def sample(self, g: Daifugo, moves: list[Move], rand: Rand, temperature: float = 1.0) -> Move:
        """A move drawn from :meth:`probs` (greedy at ``temperature`` 0)."""
        if len(moves) == 1:
            return moves[0]
        if temperature <= 0:
            return self.best(g, moves)
        p = softmax(self.scores(g, moves), temperature)
        x = rand()
        for m, q in zip(moves, p, strict=True):
            x -= q
            if x < 0:
                return m
        return moves[-1]


def _numbers(name: str, value: object) -> list[float]:
    """``value`` as a list of finite numbers, or :class:`PolicyError` naming the field.

    >>> _numbers("table", [1, 2.5])
    [1.0, 2.5]
    >>> _numbers("table", [1, "x"])
    Traceback (most recent call last):
    ...
    torampu.learn.daifugo_policy.PolicyError: the file's table holds 'x' at 1, not a number
    """
    if not isinstance(value, list):
        raise PolicyError(f"the file's {name} is not a list of numbers")
    out: list[float] = []
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise PolicyError(f"the file's {name} holds {v!r} at {i}, not a number")
        out.append(float(v))
    return out


def softmax(scores: Sequence[float], temperature: float = 1.0) -> list[float]:
    """Probabilities ``exp(s / temperature)``, normalized (stable)."""
    top = max(scores)
    inv = 1.0 / temperature
    e = [math.exp((s - top) * inv) for s in scores]
    z = sum(e)
    return [x / z for x in e]


@cache
def default_policy() -> Policy:
    """The policy shipped in the package (:data:`DEFAULT_PATH`)."""
    text = resources.files("torampu.learn").joinpath(DEFAULT_PATH).read_text(encoding="utf-8")
    return Policy.from_json(json.loads(text))


def policy_rollout(
    game: Game,
    rng: random.Random,
    policy: Policy | None = None,
    temperature: float = 1.0,
    mate: bool = False,
) -> None:
    """Play a Daifugo game to its end with every seat's moves drawn from ``policy`` (default:
    :func:`default_policy`) at ``temperature`` (0: greedy). With ``mate``, a player who can go
    out at once does (:func:`~torampu.search.daifugo_sampler.mate_play`: the whole hand, or on
    the lead a play nobody answers and then the rest in one play)."""
    assert isinstance(game, Daifugo)
    pol = policy or default_policy()
    g = game
    rand = rng.random
    sample = pol.sample
    while g.phase_id != PH_OVER:
        moves = g.legal_moves()
        if len(moves) == 1:
            g._apply(moves[0])
            continue
        if mate:
            m = mate_play(g, moves)
            if m >= 0:
                g._apply(m)
                continue
        g._apply(sample(g, moves, rand, temperature))


def split_policy_rollout(
    game: Game,
    rng: random.Random,
    own: Policy,
    others: Policy,
    seat: int,
    temperature: float = 1.0,
    others_temperature: float | None = None,
) -> None:
    """Play a Daifugo game to its end, ``seat``'s moves drawn from ``own`` at ``temperature``
    and every other seat's from ``others`` at ``others_temperature`` (``None``: the same) — the
    ``ismcts`` options ``adapt`` (a model of the other players) and ``others_temperature``
    (the others' moves sharper or softer than the searcher's own)."""
    assert isinstance(game, Daifugo)
    g = game
    rand = rng.random
    t_others = temperature if others_temperature is None else others_temperature
    while g.phase_id != PH_OVER:
        moves = g.legal_moves()
        if len(moves) == 1:
            g._apply(moves[0])
        elif g.turn == seat:
            g._apply(own.sample(g, moves, rand, temperature))
        else:
            g._apply(others.sample(g, moves, rand, t_others))


def make_policy_rollout(
    policy: Policy | None = None, temperature: float = 1.0, mate: bool = False
) -> Callable[[Game, random.Random], None]:
    """:func:`policy_rollout` with its policy, temperature and ``mate`` fixed (a search's
    ``rollout``)."""
    pol = policy or default_policy()

    def rollout(game: Game, rng: random.Random) -> None:
        policy_rollout(game, rng, pol, temperature, mate)

    return rollout


__all__ = [
    "DEFAULT_PATH",
    "FORMAT",
    "FORMAT_TABLE",
    "Policy",
    "PolicyError",
    "default_policy",
    "make_policy_rollout",
    "policy_rollout",
    "softmax",
    "split_policy_rollout",
]
