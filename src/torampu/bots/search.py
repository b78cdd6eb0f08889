"""The ``ismcts`` bot: search from the seat's view, by PIMC or by information-set MCTS.

It rebuilds determinizations of the game from ``view(seat)`` with the game's sampler
(:mod:`torampu.search.samplers`), so it sees exactly what the seat may see, and decides in one
of two ways (``algorithm``):

* ``pimc`` — :func:`~torampu.search.pimc.pimc`: every candidate move is played out on the same
  sampled deals by the heuristic bots, and the heuristic's own move is replaced only by one whose
  paired advantage exceeds ``z`` standard errors;
* ``tree`` — :func:`~torampu.search.ismcts.ismcts`, one tree over all the determinizations with
  fast rollouts;
* ``auto`` (the default) — where each was measured stronger (:data:`PIMC_PHASES`): PIMC in
  Napoleon, Nap and Hell, the tree in Daifugo.

Options (``make_bot("ismcts", seed, game, **options)`` or the spec ``ismcts:think=0.5``):
``think`` (seconds per decision), ``iterations`` (tree iterations per decision, default 1000),
``samples`` (PIMC deals per decision: default 48, or up to 256 under ``think``), ``exploration``
(the tree's UCB constant, 0.7), ``z`` (PIMC's bar, 1.0), ``bid_z`` (PIMC's bar in the auction
phase ``bid`` only; default :data:`DEFAULT_BID_Z`, else ``z``), ``correct`` (raise that bar with
the number of alternatives, false), ``infer_bids`` (Napoleon: deals fit the other seats' bids,
true), ``infer_adjutant`` (Napoleon: the secret adjutant is sampled where the play points,
true), ``guard`` (the tree's move only where it beats the heuristic's by that many standard
errors at the root, see :func:`~torampu.search.ismcts.guarded`; default :data:`DEFAULT_GUARD`,
else off; ``guard=off`` turns it off), ``guard_by`` (whose move the guard keeps: ``heuristic``,
the default, or in Daifugo ``policy``, the learned policy's, :data:`GUARD_BY`), ``endgame``
(Daifugo: with two players left in play, an exact solver,
:mod:`~torampu.search.daifugo_endgame`, answers first when it finds a forced win; else the tree
decides; default on, ``endgame=off``), ``root_mate`` (Daifugo: a chain of plays that goes out
whatever the others hold, :mod:`~torampu.search.daifugo_mate`, is played without a search, as
Blauweregen does; default on, ``root_mate=off``), ``infer_exchange`` (Daifugo: in play, deals
follow what the seat knows from its own exchange — the cards it handed over are its partner's,
and a rich seat bounds the poor one's other cards; default true, see
:func:`~torampu.search.daifugo_sampler.sample_daifugo`: against four Blauweregen 2.12 [1.98,
2.26] points/game over 300 games with it, 1.88 [1.77, 2.00] without; on 30 duplicate ``uecda``
matches between two search bots −0.11 [−0.24, 0.03]), ``unseen_exchange`` (Daifugo: in play,
deals also play the exchanges the seat took no part in — the poor gave their best cards, the
rich their weakest; default :data:`DEFAULT_UNSEEN_EXCHANGE`), ``belief`` (Daifugo:
determinizations weighted by how likely the other players' passes were,
:mod:`~torampu.search.daifugo_belief`; default :data:`DEFAULT_BELIEF`), ``shed`` (with
``belief``: the plays weigh too, a player taken to shed its weakest plays first with that
strength, 0 off), ``likelihood`` (Daifugo: the determinizations weighted by the likelihood of
the other players' moves under the learned policy, to this power; 0, the default, off; see
:data:`DEFAULT_LIKELIHOOD`), ``worlds`` (Daifugo: the determinizations dealt per decision, default
:data:`DEFAULT_WORLDS`), ``reward`` (``points``, the default, or in Daifugo ``class``: each
place valued over the match, the titles it gives included, :data:`REWARDS`), ``endgame_nodes``
(the solver's budget of positions, default
:data:`~torampu.search.daifugo_endgame.DEFAULT_NODES`), ``algorithm``, and in Daifugo the
learned policy (:mod:`torampu.learn.daifugo_policy`): ``rollout`` (``auto``, the default: the
policy's rollout under the rules its file was trained under — the shipped one's are ``uecda``'s;
options that act only between games, :data:`BETWEEN_GAMES`, aside — and the greedy rollout
elsewhere, see :data:`DEFAULT_ROLLOUT`; ``greedy``,
:func:`~torampu.search.daifugo_sampler.greedy_rollout`; ``mate``, the same where a player who
can go out at once does, :func:`~torampu.search.daifugo_sampler.mate_play`; ``policy``, moves
drawn from the policy at ``temperature``, 1; ``random``), ``rollout_hold`` (with the greedy or
mate rollout: a following player with more than three cards passes now and then instead of
playing a high card, :func:`~torampu.search.daifugo_sampler.greedy_play`; 0, the default, never;
given without ``rollout``, it asks for the greedy rollout), ``rollout_explore`` (likewise with
the greedy or mate rollout: how often a player makes any legal move instead of the greedy one;
default :data:`~torampu.search.daifugo_sampler.ROLLOUT_EXPLORE`), ``rollout_mate`` (with the
policy's rollout, ``auto`` or ``policy``: a player who can go out at once does, as in
``rollout=mate``; default off), ``others_temperature`` (with the policy's rollout: the other
players' moves drawn at this temperature, the searcher's own at ``temperature``; 0 takes the
policy's best move; default: the same as the searcher's — sharper opponents did not play better:
against four Blauweregen on 80 duplicate deals, 400 games a side, 0.5 scored +0.01 [−0.11,
+0.13] points/game beside the default deal by deal, 0.25 −0.02 [−0.20, +0.16] on 40),
``others_params`` (with the policy's rollout: the other players' moves drawn from the policy in
this file, the searcher's own from ``params``' or the shipped one; default: the same policy —
with the self-play table policy (README) for the others, against four Blauweregen on 110
duplicate deals, +0.03 [−0.07, +0.13] points/game beside the default deal by deal, its
forecasts much nearer its results), ``prior``
(``on``: the policy's move probabilities guide the tree, weighted by ``prior_weight``, 1; default
:data:`DEFAULT_PRIOR`), ``params`` (with ``rollout=policy``, ``rollout=auto`` or ``prior=on``:
the policy's file, as ``torampu train daifugo --out`` writes it; default the shipped one),
``opponents`` (Daifugo: ``tree``, the default, searches the other players' moves too; ``greedy``
models them by the rollout's greedy policy,
:func:`~torampu.search.rollouts.daifugo_greedy_opponents`; ``policy`` by draws from the learned
policy at ``temperature``, :func:`~torampu.search.rollouts.daifugo_policy_opponents`; see
:data:`OPPONENTS`). A time budget
makes the bot depend on the machine's speed: only an iteration or sample budget is reproducible
from the seed.

>>> import torampu
>>> from torampu.bots import make_bot
>>> g = torampu.new_game("hell", cards=2, seed=5)
>>> bot = make_bot("ismcts", seed=1, game="hell")
>>> bot.choose(g.view(g.to_play), g.legal_actions()) in g.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from torampu.bots.base import Bot, BotError, View, check_nonnegative, make_bot, register
from torampu.errors import TorampuError
from torampu.search import ismcts, rollout_for, sampler_for
from torampu.search.daifugo_belief import belief_sampler
from torampu.search.daifugo_classes import Reward, class_reward
from torampu.search.daifugo_endgame import DEFAULT_NODES, WIN, EndgameResult, solve_view, two_left
from torampu.search.daifugo_mate import mate_view
from torampu.search.daifugo_sampler import (
    ROLLOUT_EXPLORE,
    SamplerError,
    greedy_rollout,
    pooled,
    sample_daifugo,
)
from torampu.search.ismcts import (
    Prior,
    Rollout,
    Sampler,
    Scripted,
    SearchResult,
    guarded,
    random_rollout,
)
from torampu.search.napoleon_sampler import NapoleonSampler
from torampu.search.pimc import PolicyRollout, pimc
from torampu.search.rollouts import (
    daifugo_greedy_opponents,
    daifugo_policy_opponents,
    pimc_candidates,
    scripted_moves,
)

if TYPE_CHECKING:
    from torampu.daifugo import Daifugo
    from torampu.game import Game, Move
    from torampu.learn.daifugo_adapt import OpponentModel
    from torampu.learn.daifugo_policy import Policy

DEFAULT_ITERATIONS = 1000
_clock = time.perf_counter
"""The clock a ``think`` budget is counted on (a name of its own so a test can replace it)."""
DECISION_RESERVE = 0.02
"""Seconds of a ``think`` budget the search leaves for what follows it (the result, the guard's
comparison, the caller's own bookkeeping), so that a whole decision answers within ``think``:
against four Blauweregen at ``think=0.5`` the UECda client's decisions took up to 0.53–0.62 s
with the search given all of it."""
DEFAULT_SAMPLES = 48
"""PIMC samples per decision when neither ``samples`` nor ``think`` is given."""
MAX_SAMPLES = 256
"""PIMC samples per decision under a ``think`` budget: more would not change the choice."""
ALL_PHASES: dict[str, frozenset[str]] = {
    "napoleon": frozenset({"bid", "adjutant", "exchange", "play"}),
    "nap": frozenset({"bid", "play"}),
    "hell": frozenset({"bid", "play"}),
    "daifugo": frozenset({"exchange", "give", "discard", "play"}),
}
"""The phases of each game with choices: ``algorithm=pimc`` decides them all by PIMC."""
PIMC_PHASES: dict[str, frozenset[str]] = {g: ALL_PHASES[g] for g in ("napoleon", "nap", "hell")}
"""Where ``algorithm=auto`` decides by PIMC with heuristic playouts rather than the tree: every
phase of Napoleon, Nap and Hell (by measurement: see the README's figures; Daifugo's tree
already beats its heuristic, and against four Blauweregen ``algorithm=pimc`` scored 1.94 [1.71,
2.17] points/game over 100 games, the tree 2.21 to 2.35)."""
DEFAULT_BID_Z: dict[str, float] = {"napoleon": 2.0}
"""PIMC's bar in the auction where it is not ``z``: in Napoleon a bid must beat the heuristic's
by two standard errors. With ``z`` there (150 duplicate deals of ``classic`` at ``think=0.5``) the
search bid a little more than the heuristic and made fewer contracts, and beat it by +0.04
[−0.08, 0.16] a game; with 2, by +0.15 [0.04, 0.25], making 79% of its contracts against 72%.
Under ``house-001`` both gave +0.11 [−0.01, 0.24]. Nap and Hell keep ``z``: their targets
were met with it, and 2 was not measured there."""
GUARD_BY: Final = ("heuristic", "policy")
"""The ``guard_by`` option's values: whose move the tree must beat under ``guard`` — the
heuristic bot's (the default), or in Daifugo the learned policy's best move (``params``' file,
or the shipped one; :class:`~torampu.bots.policy.PolicyBot`). On Blauweregen's own games
(``bench/agreement.py --profile``) the heuristic follows with the lone joker fourteen times as
often as the champion, and the guard keeps its move wherever the tree cannot tell the two
apart. Measured with the self-play table policy (README, A learned Daifugo policy) on 200 fixed
deals against four Blauweregen at ``think=0.5``: −0.03 ± 0.17 points/game against the default,
+0.03 ± 0.16 against that policy's rollout with the heuristic's guard; under tndhms 2.46 [2.30,
2.61] over 200 games beside the default's 2.61 [2.43, 2.79]. So ``heuristic`` stays."""
DEFAULT_GUARD: dict[str, float] = {"daifugo": 1.0}
"""Where the tree's move must beat the heuristic's by that many standard errors (``guard``):
Daifugo. On duplicate deals at ``think=0.5:iterations=200`` against the heuristic, ``yaita``
went from −0.08 [−0.18, 0.02] points per game unguarded to +0.16 [0.02, 0.30] with 1 (40
deals, the same ones), ``standard`` from +0.27 [0.04, 0.51] to +0.43 [0.22, 0.63] (30 deals).
Against four Blauweregen under the UECda rule, ``guard=off`` and its combinations scored 2.09
to 2.17 points/game over 150 games each and the default 1.88 to 2.15: no clear difference
(against the champion the guard replaced the tree's move in 11% of the searched decisions,
where the tree's move led by 0.009 in mean reward). With the policy rollout, on 80 duplicate deals
against four Blauweregen (our server, ``--duplicate --seed 101`` and ``102``, 400 games a side at
``think=0.5``), ``guard=off`` scored 2.69 beside the default's 2.70: −0.01 [−0.14, +0.13] deal by
deal, the guard replacing the tree's move in 11.6% of the searched decisions."""

DEFAULT_BELIEF = False
"""Whether Daifugo's search weights its determinizations by the other players' passes
(``belief``). Off: on 50 duplicate deals at ``think=0.5`` (one game per deal) it scored −0.06
[−0.25, 0.12] points per game against the same bot without it under ``standard`` and −0.06
[−0.27, 0.14] under ``uecda``. With the plays weighed too (``shed=1``, ``worlds=64``,
``guard=off``), against four Blauweregen: 2.17 [1.96, 2.37] over 150 games beside 2.09 [1.92,
2.27] for ``guard=off`` alone, run at the same time."""


DEFAULT_LIKELIHOOD = 0.0
"""The ``likelihood`` option's default: off. With it, a Daifugo search weights its pool of
determinizations by how likely the other players' moves were under the learned policy, for the
hands each deal gives them (:class:`~torampu.search.daifugo_belief._PolicyCounter`), raised to
this power (sampling-importance-resampling, as ``belief``). It reads the others' hands better:
at positions of ``uecda`` games played by the ``policy`` bot, ``likelihood=1`` put 0.438 of the
others' cards in the right hand against 0.349 for uniform deals, and 0.394 against 0.352 in
heuristic games; but the weights gather on a few deals (of a pool of 24, an effective 1.3–10 at
power 1, 3–18 at 0.5), and building the weighted pool costs a few times the uniform one. In play
it did not help: against four Blauweregen under tndhms at ``think=0.5``, ``likelihood=1`` scored
2.04 [1.83, 2.25] points/game over 100 games beside the default's 2.10 [1.89, 2.31], the two
run side by side."""


DEFAULT_UNSEEN_EXCHANGE = True
"""Whether Daifugo's search plays the exchanges its seat did not see on its deals
(``unseen_exchange``; :func:`~torampu.search.daifugo_sampler.sample_daifugo`'s ``unseen``). On:
against four Blauweregen under the UECda rule at ``think=0.5`` it scored 2.30 [2.19, 2.41]
points/game over 500 games, the bot without it 2.11 [1.97, 2.26] over 300 run beside; on 24
duplicate ``uecda`` matches of 5 games at ``iterations=300``, +0.14 [−0.07, 0.35] against the
same bot without it; it puts 0.383 of the others' cards in the right hand on Blauweregen's own
games, 0.362 without."""


DEFAULT_ROLLOUT: dict[str, str] = {"daifugo": "auto"}
"""The ``rollout`` option's default per game where it is not the game's own
(:func:`~torampu.search.rollout_for`): in Daifugo ``auto``, the learned policy's rollout under
the rules its parameters were trained under (the shipped ones: ``uecda``, 68% agreement with the
search they were trained on) and the greedy rollout under any other rules. Measured at
``think=0.5`` against four Blauweregen under tndhms (the ``uecda`` rules): ``rollout=policy``
with those parameters 2.43 points/game over 400 games (four runs of 100: 2.40, 2.55, 2.47, 2.30;
2.43 [2.30, 2.56], places 31/64/79/98/128, no decision over 0.5 s) against 2.19 [2.02, 2.35] for
the greedy rollout over 200 in the same session (2.30 over 500 the session before); the policy
rollout makes about 1,000–1,400 iterations in a decision where the greedy one makes about 3,000.
Elsewhere the greedy rollout stays, by measurement: at iterations matching that cost
(``iterations=120:rollout=policy`` against ``iterations=300``, 30 duplicate deals of 5-game
matches) −0.01 [−0.20, 0.19] points per game under ``standard`` and −0.16 [−0.31, −0.01] under
``yaita``, whose rules the policy never saw. ``rollout=policy:prior=on`` scored 2.15 over 100
against Blauweregen: the prior stays off. A sharper policy rollout, ``temperature=0.5``, scored
1.98 [1.71, 2.26] over 56 games against Blauweregen on a slower machine, where the default
scored 2.10 [1.89, 2.31] over 100: stopped there, no sign of a gain.

Before: ``rollout=mate`` (a player who can go out at once does) scored +0.12 [−0.10, 0.34]
points/game against the greedy rollout on 40 duplicate ``uecda`` deals at ``iterations=300``
and +0.11 [−0.08, 0.30] on 50 at ``think=0.5``: not clearly better. With the parameters
trained on the heuristic under ``standard``, and before the policy was compiled, in Daifugo
``standard`` at ``think=0.5`` (24 duplicate deals) ``rollout=policy`` scored −0.30 [−0.61, 0.01]
points/game against the greedy rollout (it was then some 1.7 times slower); at equal
iterations (``iterations=200``, 20 deals) +0.20 [−0.01, 0.41]; against four Blauweregen 2.30
[2.07, 2.53] over 100 (and 2.15 over 100 with those parameters and the policy compiled).
``rollout_hold=0.5`` (with ``guard=off``) scored 2.16 [1.97, 2.35] points/game against four
Blauweregen over 150 games, beside 2.09 [1.92, 2.27] for ``guard=off`` alone. With the policy
rollout, ``rollout_mate=on`` (a player who can go out at once does, in the policy's rollouts:
Blauweregen checks every playout move for a mate) scored 2.65 beside the default's 2.70 on 80
duplicate deals against four Blauweregen (400 games a side): −0.05 [−0.17, +0.07] deal by deal,
so it stays off."""
DEFAULT_PRIOR: dict[str, bool] = {}
"""Where the tree uses the learned prior by default (``prior``): none. In Daifugo ``standard``
at ``think=0.5`` (the same 24 deals) ``prior=on`` scored −0.03 [−0.29, 0.24] against the plain
tree: no measurable difference."""
DEFAULT_WORLDS = 24
"""Daifugo: the determinizations a search deals per decision and cycles through (``worlds``;
see :func:`~torampu.search.daifugo_sampler.pooled`). On 40 duplicate ``uecda`` deals at
``think=0.5`` ``worlds=128`` scored +0.07 [−0.12, 0.26] points/game against 24; against four
Blauweregen, ``worlds=256`` 2.18 [1.95, 2.41] over 100 games beside 2.21 [1.98, 2.44] for 24."""
MAX_WORLDS = 1024
"""The most ``worlds`` a search may deal: the belief's weighted pool is dealt whole before the
search starts (about 0.2–0.8 ms a world), outside the ``think`` budget."""
REWARDS = ("points", "class")
"""The ``reward`` option: what the tree maximizes — ``points``, each seat's points in this game
(scaled to [0, 1]), or in Daifugo ``class``, each place's worth over the match, the titles it
gives for the next games included (:mod:`~torampu.search.daifugo_classes`)."""
DEFAULT_REWARD: dict[str, str] = {}
"""Where ``reward`` is not ``points`` by default: none. Against four Blauweregen (150 games
each, side by side) ``reward=class`` scored 1.77 [1.60, 1.95] points/game, the default 1.88
[1.70, 2.07]."""
ROLLOUTS = ("auto", "greedy", "mate", "policy", "random")
ADAPT = (False, True, "all", "auto")
"""The ``adapt`` option (Daifugo; off by default): on, a model of the other players fitted to
the match's revealed games (:mod:`~torampu.learn.daifugo_adapt`; a front end gives them to
:meth:`IsmctsBot.learn`, as the UECda client does) draws their moves in the rollouts (in the
tree too with ``opponents=policy``, and weighs the deals with ``likelihood``); ``all``, the
searcher's own moves in the rollouts too. It predicts the others better — on Blauweregen's
self-play, each next game's moves at a negative log-likelihood of 0.878 against the shipped
policy's 0.980 — but does not play better: against four Blauweregen under tndhms at
``think=0.5`` it scored 2.20 [2.08, 2.33] points/game over 300 games (places 7/30/79/85/99)
where the default scored 2.34 [2.20, 2.49] over 300 run beside it (places 20/48/49/81/102);
``adapt=on:opponents=policy`` 2.32 and ``adapt=all`` 2.29 over 100 each. ``auto``: as ``on``,
but the model draws the others' moves only while it foresees them better than the policy it
started from by :data:`ADAPT_GATE` nats a move (over the last
:data:`~torampu.learn.daifugo_adapt.GAIN_GAMES` games, each scored before the model saw it:
:meth:`~torampu.learn.daifugo_adapt.OpponentModel.gain`). Measured under tndhms at ``think=0.5``
(runs of 200, two at a time): against four sample clients, whose moves the model foresees at
0.40 nats where the shipped policy gives 0.69, ``adapt=on`` 4.60, ``adapt=on:opponents=policy``
4.51, the same with ``likelihood=1`` 4.50 and ``auto`` 4.40 points/game (4.50 over the 800),
the default 4.48 and 4.34 (an earlier session: ``adapt=on`` 4.28, the default 4.37); against
four Blauweregen (0.89 against 1.00 nats) ``adapt=on`` 2.21 beside the default's 2.28, and
``auto``, whose gate never opened there, 2.34. Hence off."""
ADAPT_GATE: Final = 0.2
"""``adapt=auto``'s bar: the model is used only while it foresees the others' moves better than
its starting policy by this many nats a move (see :data:`ADAPT`)."""
OPPONENTS = ("tree", "greedy", "policy")
"""The ``opponents`` option: the other players' moves searched by the tree (each seat's UCB
on its own reward), or in Daifugo modelled by the greedy rollout policy or by draws from the
learned policy, so that the tree branches on the searcher's own decisions only. The default
stays ``tree``: on 40 duplicate deals of ``uecda`` at ``think=0.5`` (one game per deal)
``greedy`` scored +0.04 [−0.18, 0.26] points per game against it, no clear difference; against
four Blauweregen under tndhms ``policy`` scored 2.08 [1.70, 2.45] over 53 games, stopped there
as no sign of the large gain the issue needs (the same session's default: 2.10 [1.89, 2.31]
over 100). Then on 40 duplicate deals against four Blauweregen (our server, ``--duplicate --seed
101``, 200 games a side at ``think=0.5``, the policy rollout), ``policy`` scored 2.46 beside the
default's 2.66: −0.20 [−0.37, −0.03] deal by deal. The tree's own model of the others, each
choosing by its own reward, is the better one: ``tree`` stays."""


class IsmctsBot:
    """Decides by PIMC in ``pimc_phases`` (``samples`` deals per decision and/or ``think``
    seconds, playing out with ``policy``) and by the ISMCTS tree elsewhere (``iterations`` and/or
    ``think``; whichever limit comes first; with neither, :data:`DEFAULT_ITERATIONS`)."""

    name = "ismcts"

    def __init__(
        self,
        sampler: Sampler,
        seed: int = 0,
        iterations: int | None = None,
        think: float | None = None,
        exploration: float = 0.7,
        fallback: Bot | None = None,
        rollout: Rollout = random_rollout,
        policy: PolicyRollout | None = None,
        pimc_phases: frozenset[str] = frozenset(),
        z: float = 1.0,
        samples: int | None = None,
        correct: bool = False,
        bid_z: float | None = None,
        guard: float | None = None,
        baseline: Bot | None = None,
        endgame_nodes: int = 0,
        root_mate: bool = False,
        prior: Prior | None = None,
        ruled_rollout: tuple[Mapping[str, Any], Rollout] | None = None,
        prior_weight: float = 1.0,
        scripted: Scripted | None = scripted_moves,
        reward: Callable[[View], Reward | None] | None = None,
        model: OpponentModel | None = None,
        split: tuple[Policy, float, bool, bool] | None = None,
        others: tuple[Policy, Policy, float, float, bool] | None = None,
    ) -> None:
        self.others = others
        """``others_temperature`` and ``others_params``: ``(own policy, the others' policy,
        temperature, the others' temperature, everywhere)`` — the policy rollout draws the other
        seats' moves from their own policy at their own temperature (``everywhere``:
        ``rollout=policy``; else under :attr:`ruled_rollout`'s rules), or ``None``."""
        self.model = model
        """``adapt``: the model of the other players learned from the match's revealed games
        (:meth:`learn`), or ``None``."""
        self.split = split
        """With :attr:`model`: ``(own policy, temperature, everywhere, itself)`` — once a game
        is learned, rollouts draw the others' moves from the model and the searcher's from the
        own policy (``itself``, ``adapt=all``: from the model too), wherever the policy rollout
        is used (``everywhere``: ``rollout=policy``; else under :attr:`ruled_rollout`'s
        rules)."""
        self._seat: int | None = None
        self.last_foresight: tuple[int, float, float] | None = None
        """With :attr:`model`: how it foresaw the last game it learned (see
        :attr:`~torampu.learn.daifugo_adapt.OpponentModel.foresight`), or ``None``."""
        self.reward = reward
        """The tree's reward at a game's end for a search from a view (``None``, or ``None``
        for the view: each seat's points, scaled)."""
        self.scripted = scripted
        """The moves the tree does not branch on (see :func:`~torampu.search.ismcts.ismcts`)."""
        self.endgame_nodes = endgame_nodes
        """Daifugo: the exact two-player solver's budget (0: no solver)."""
        self.last_endgame: EndgameResult | None = None
        """What the solver found at the last decision (``None``: it did not run)."""
        self.root_mate = root_mate
        """Daifugo: a certain mate (:func:`~torampu.search.daifugo_mate.mate_view`) is played
        without a search."""
        self.last_mate: list[str] | None = None
        """The certain mates found at the last decision (``None``: the check did not run)."""
        self.rollout = rollout
        self.ruled_rollout = ruled_rollout
        """``(rules, rollout)``: where the view's rules are exactly ``rules``, the search uses
        this rollout instead of :attr:`rollout` (``rollout=auto``: the learned policy under the
        rules it was trained on)."""
        self.prior = prior
        """The tree's prior over moves (the learned policy), or ``None``."""
        self.prior_weight = prior_weight
        self.guard = guard
        self.baseline = baseline
        """With ``guard``: the policy whose move the tree must beat (the heuristic bot)."""
        self.policy = policy
        """The policy PIMC plays out with (the heuristic bots), where it is used."""
        self.pimc_phases = pimc_phases
        """The phases (``view["phase"]``) decided by :func:`~torampu.search.pimc.pimc`."""
        self.z = z
        self.bid_z = z if bid_z is None else bid_z
        """PIMC's bar in the auction (phase ``bid``): a bid is a bigger commitment than a card."""
        self.correct = correct
        """Raise PIMC's bar with the number of alternatives (see
        :func:`~torampu.search.pimc.corrected_z`)."""
        self.samples = (
            samples if samples is not None else (MAX_SAMPLES if think else DEFAULT_SAMPLES)
        )
        self.sampler = sampler
        self.fallback = fallback
        """Answers where the sampler cannot rebuild the game (Daifugo's exchange)."""
        self.rng = random.Random(seed)
        self.iterations = DEFAULT_ITERATIONS if iterations is None and think is None else iterations
        self.think = think
        self.exploration = exploration
        self.last_iterations = 0
        self.last_result: SearchResult | None = None
        """The statistics of the last search (``None`` when no search ran: one legal move,
        or the fallback answered)."""

    def choose(self, view: View, legal: Sequence[str]) -> str:
        self.last_result = None
        self.last_endgame = None
        self.last_mate = None
        seat = view.get("seat")
        self._seat = seat if isinstance(seat, int) else None
        if len(legal) == 1:
            return legal[0]
        start = _clock()
        if self.root_mate and view.get("phase") == "play":
            mate = self._mate(view, legal)
            if mate is not None:
                return mate
        if self.endgame_nodes and two_left(view):
            won = self._endgame(view, legal)
            if won is not None:
                return won
        policy = self.policy if view.get("phase") in self.pimc_phases else None
        base_move = None
        if policy is None and self.guard is not None and self.baseline is not None:
            base_move = self.baseline.choose(view, legal)  # before the search: inside ``think``
        # ``think`` bounds the whole decision: the search gets what the solver and the guard's
        # policy left of it, less DECISION_RESERVE for what comes after it
        think = (
            None
            if self.think is None
            else max(self.think - (_clock() - start) - DECISION_RESERVE, 0.0)
        )
        try:
            if policy is not None:
                res = pimc(
                    view,
                    self.sampler,
                    self.rng,
                    policy,
                    iterations=self.samples,
                    seconds=think,
                    prune=pimc_candidates,
                    z=self.bid_z if view.get("phase") == "bid" else self.z,
                    correct=self.correct,
                )
                action = res.action
            else:
                res = ismcts(
                    view,
                    self.sampler,
                    self.rng,
                    iterations=self.iterations,
                    seconds=think,
                    exploration=self.exploration,
                    rollout=self._rollout(view),
                    prior=self.prior,
                    prior_weight=self.prior_weight,
                    scripted=self.scripted,
                    allowed=legal,
                    reward=None if self.reward is None else self.reward(view),
                )
                action = res.action
                if base_move is not None:  # chosen above where there is a guard
                    assert self.guard is not None
                    action = guarded(res, base_move, self.guard)
        except SamplerError:
            if self.fallback is None:
                raise
            self.last_iterations = 0
            return self.fallback.choose(view, legal)
        self.last_iterations = res.iterations
        self.last_result = res
        if action not in legal:  # a sampler bug must never become an illegal move
            raise BotError(f"ismcts chose {action!r}, which is not legal here")
        return action

    def _rollout(self, view: View) -> Rollout:
        """The rollout of a search from ``view`` (see :attr:`ruled_rollout` and :attr:`split`)."""
        ruled = self.ruled_rollout
        under = ruled is not None and _play_rules(view.get("rules")) == _play_rules(ruled[0])
        model, split, others, seat = self.model, self.split, self.others, view.get("seat")
        # (own policy, the others' policy, temperature, the others' temperature): a split rollout
        pols: tuple[Policy, Policy, float, float | None] | None = None
        if model is not None and split is not None and model.active:
            own, temperature, everywhere, itself = split
            if everywhere or under:
                pols = (model.policy if itself else own, model.policy, temperature, None)
        elif others is not None and (others[4] or under):
            own, pol, temperature, t_others, _ = others
            pols = (own, pol, temperature, t_others)
        if pols is not None and isinstance(seat, int):
            from torampu.learn.daifugo_policy import split_policy_rollout

            return partial(
                split_policy_rollout,
                own=pols[0],
                others=pols[1],
                seat=seat,
                temperature=pols[2],
                others_temperature=pols[3],
            )
        if ruled is not None and under:
            return ruled[1]
        return self.rollout

    def learn(self, record: Mapping[str, Any]) -> bool:
        """Learn from a finished game of the match whose every hand is known (a UECda client
        rebuilds them: :meth:`~torampu.uecda.client.GameTracker.revealed`): with ``adapt``, the
        other seats' decisions join :attr:`model`, which is fitted again; else nothing. The
        seat left out is the one of the last view this bot was shown. Whether it learned."""
        if self.model is None or self._seat is None:
            return False
        added = self.model.observe(record, skip=(self._seat,))
        self.last_foresight = self.model.foresight[-1] if added else None
        self.model.fit()
        return True

    def _mate(self, view: View, legal: Sequence[str]) -> str | None:
        """The first certain mate the caller offers, or ``None`` (none: the search decides)."""
        try:
            self.last_mate = mate_view(view, self.sampler, self.rng)
        except SamplerError:
            return None
        for action in self.last_mate:
            if action in legal:
                self.last_iterations = 0
                return action
        return None

    def _endgame(self, view: View, legal: Sequence[str]) -> str | None:
        """The solver's winning move, or ``None`` (no forced win found: the tree decides)."""
        try:
            res, sample = solve_view(view, self.sampler, self.rng, self.endgame_nodes)
        except SamplerError:
            return None
        self.last_endgame = res
        if res.status != WIN or res.move is None or sample is None:
            return None
        action = sample.action_str(res.move)
        if action not in legal:  # a move the caller does not offer: the tree picks among them
            return None
        self.last_iterations = 0
        return action


def _positive(name: str, value: object, whole: bool) -> None:
    ok = isinstance(value, int if whole else (int, float)) and not isinstance(value, bool)
    if not ok or not 0 < value < math.inf:  # type: ignore[operator]  # also refuses nan
        kind = "a whole number" if whole else "a number of seconds"
        raise BotError(f"ismcts option {name} must be {kind} > 0, not {value!r}")


@register("ismcts")
def _ismcts(
    seed: int,
    game: str,
    *,
    iterations: int | None = None,
    think: float | None = None,
    exploration: float = 0.7,
    algorithm: str = "auto",
    samples: int | None = None,
    z: float = 1.0,
    bid_z: float | None = None,
    infer_bids: bool = True,
    correct: bool = False,
    infer_adjutant: bool = True,
    guard: float | bool | None = None,
    guard_by: str = "heuristic",
    endgame: bool = True,
    endgame_nodes: int = DEFAULT_NODES,
    root_mate: bool = True,
    belief: bool = DEFAULT_BELIEF,
    likelihood: float = DEFAULT_LIKELIHOOD,
    rollout: str | None = None,
    temperature: float = 1.0,
    prior: bool | None = None,
    prior_weight: float = 1.0,
    opponents: str = "tree",
    infer_exchange: bool = True,
    unseen_exchange: bool = DEFAULT_UNSEEN_EXCHANGE,
    worlds: int | None = None,
    reward: str | None = None,
    shed: float = 0.0,
    rollout_hold: float = 0.0,
    rollout_explore: float | None = None,
    rollout_mate: bool = False,
    params: str | None = None,
    adapt: bool | str = False,
    others_temperature: float | None = None,
    others_params: str | None = None,
) -> Bot:
    if reward is None:
        reward = DEFAULT_REWARD.get(game, "points")
    if reward not in REWARDS:
        raise BotError(f"ismcts option reward must be points or class, not {reward!r}")
    if reward == "class" and game != "daifugo":
        raise BotError("ismcts option reward=class is Daifugo's only")
    if opponents not in OPPONENTS:
        raise BotError(f"ismcts option opponents must be tree, greedy or policy, not {opponents!r}")
    if opponents != "tree" and game != "daifugo":
        raise BotError(f"ismcts option opponents={opponents} is Daifugo's only")
    if iterations is not None:
        _positive("iterations", iterations, whole=True)
    if think is not None:
        _positive("think", think, whole=False)
    _positive("exploration", exploration, whole=False)
    if samples is not None:
        _positive("samples", samples, whole=True)
    if worlds is not None:
        _positive("worlds", worlds, whole=True)
        if worlds > MAX_WORLDS:
            raise BotError(f"ismcts option worlds is at most {MAX_WORLDS}, not {worlds!r}")
        if game != "daifugo":
            raise BotError("ismcts option worlds is Daifugo's only")
    size = DEFAULT_WORLDS if worlds is None else worlds
    check_nonnegative("ismcts", "shed", shed)
    check_nonnegative("ismcts", "likelihood", likelihood)
    if likelihood and game != "daifugo":
        raise BotError("ismcts option likelihood is Daifugo's only")
    if likelihood and belief:
        raise BotError(
            "ismcts options likelihood and belief are two weightings of the deals: give one"
        )
    if shed and not (game == "daifugo" and belief):
        raise BotError("ismcts option shed weights Daifugo's belief: give it with belief=on")
    if guard is None:
        guard = DEFAULT_GUARD.get(game)
    elif guard is False:  # guard=off
        guard = None
    for name, bar in (("z", z), ("bid_z", bid_z), ("guard", guard)):
        if bar is None and name != "z":
            continue
        check_nonnegative("ismcts", name, bar)
    if guard_by not in GUARD_BY:
        raise BotError(f"ismcts option guard_by must be heuristic or policy, not {guard_by!r}")
    if guard_by == "policy" and game != "daifugo":
        raise BotError("ismcts option guard_by=policy is Daifugo's only")
    if algorithm not in ("auto", "tree", "pimc"):
        raise BotError(f"ismcts option algorithm must be auto, tree or pimc, not {algorithm!r}")
    if not isinstance(correct, bool):
        raise BotError(f"ismcts option correct must be true or false, not {correct!r}")
    _positive("endgame_nodes", endgame_nodes, whole=True)
    for name, flag in (
        ("infer_bids", infer_bids),
        ("infer_adjutant", infer_adjutant),
        ("endgame", endgame),
        ("root_mate", root_mate),
        ("belief", belief),
        ("infer_exchange", infer_exchange),
        ("unseen_exchange", unseen_exchange),
    ):
        if not isinstance(flag, bool):
            raise BotError(f"ismcts option {name} must be true or false, not {flag!r}")
    learned: Policy | None = None  # ``params``' policy, read once for all its uses
    if params is not None:
        from torampu.bots.policy import load_policy

        learned = load_policy("ismcts", params)
    model: OpponentModel | None = None
    if not (isinstance(adapt, bool) or adapt in ("all", "auto")):  # (1 == True: not "in ADAPT")
        raise BotError(f"ismcts option adapt must be on, off, auto or all, not {adapt!r}")
    if adapt:
        if game != "daifugo":
            raise BotError("ismcts option adapt is Daifugo's only")
        from torampu.learn.daifugo_adapt import OpponentModel

        model = OpponentModel(_own_policy(learned), gate=ADAPT_GATE if adapt == "auto" else None)
    try:
        sampler = (
            NapoleonSampler(infer_bids=infer_bids, infer_adjutant=infer_adjutant)
            if game == "napoleon"
            else belief_sampler(size=size, shed=float(shed), unseen=unseen_exchange)
            if game == "daifugo" and belief
            else belief_sampler(
                size=size,
                unseen=unseen_exchange,
                policy=_likelihood_policy(learned, model),
                power=float(likelihood),
            )
            if game == "daifugo" and likelihood
            else pooled(
                partial(sample_daifugo, exchange=infer_exchange, unseen=unseen_exchange), size
            )
            if game == "daifugo"
            else sampler_for(game)
        )
    except TorampuError as e:
        raise BotError(str(e)) from None
    fallback = None
    play_out, tree_prior, ruled = _learned(
        game,
        rollout,
        temperature,
        prior,
        prior_weight,
        rollout_hold,
        rollout_explore,
        learned,
        opponents == "policy" or bool(likelihood),
        rollout_mate,
    )
    split: tuple[Policy, float, bool, bool] | None = None
    if model is not None and rollout_mate:
        raise BotError(
            "ismcts option rollout_mate is not for adapt's rollouts (the model's draws): "
            "give one of them"
        )
    if model is not None:
        everywhere = rollout == "policy"
        if not (everywhere or ruled is not None or opponents == "policy" or likelihood):
            raise BotError(
                "ismcts option adapt models the others in the learned policy's rollout, "
                "opponents=policy or likelihood: give it with rollout=auto, rollout=policy, "
                "opponents=policy or likelihood"
            )
        split = (model.base, float(temperature), everywhere, adapt == "all")
    others: tuple[Policy, Policy, float, float, bool] | None = None
    if others_temperature is not None or others_params is not None:
        name = "others_temperature" if others_params is None else "others_params"
        if others_temperature is not None:
            check_nonnegative("ismcts", "others_temperature", others_temperature)
        if ruled is None and rollout != "policy":
            raise BotError(
                f"ismcts option {name} is for Daifugo's policy rollouts (rollout=auto or policy)"
            )
        if rollout_mate or model is not None:
            raise BotError(
                f"ismcts option {name} is not for rollout_mate's or adapt's rollouts: "
                "give one of them"
            )
        own_policy = _own_policy(learned)
        if others_params is not None:
            from torampu.bots.policy import load_policy

            others_policy = load_policy("ismcts", others_params, "others_params")
        else:
            others_policy = own_policy
        others = (
            own_policy,
            others_policy,
            float(temperature),
            float(temperature if others_temperature is None else others_temperature),
            rollout == "policy",
        )
    scripted: Scripted | None = scripted_moves
    if opponents == "greedy":
        scripted = daifugo_greedy_opponents
    elif opponents == "policy":
        scripted = _policy_opponents(learned, float(temperature), model)
    if bid_z is None:
        bid_z = DEFAULT_BID_Z.get(game)
    if game == "daifugo":  # a rare view the sampler cannot rebuild is the heuristic's
        from torampu.bots.daifugo import make_daifugo_bot

        fallback = make_daifugo_bot(seed)
    elif game == "napoleon":  # likewise
        fallback = make_bot("heuristic", seed, game)
    if algorithm == "tree":
        phases: frozenset[str] = frozenset()
    elif algorithm == "pimc":
        phases = ALL_PHASES.get(game, frozenset())
    else:
        phases = PIMC_PHASES.get(game, frozenset())
    return IsmctsBot(
        sampler,
        seed,
        fallback=fallback,
        rollout=play_out,
        iterations=iterations,
        think=None if think is None else float(think),
        exploration=float(exploration),
        policy=PolicyRollout(game, seed=seed) if phases else None,
        pimc_phases=phases,
        z=float(z),
        samples=samples,
        correct=correct,
        bid_z=None if bid_z is None else float(bid_z),
        guard=None if guard is None else float(guard),
        baseline=_guard_baseline(guard is not None, guard_by, learned, seed, game),
        endgame_nodes=endgame_nodes if endgame and game == "daifugo" else 0,
        root_mate=root_mate and game == "daifugo",
        prior=tree_prior,
        ruled_rollout=ruled,
        prior_weight=float(prior_weight),
        scripted=scripted,
        reward=class_reward if reward == "class" else None,
        model=model,
        split=split,
        others=others,
    )


def _guard_baseline(
    guarded: bool, guard_by: str, learned: Policy | None, seed: int, game: str
) -> Bot | None:
    """The bot whose move the guard keeps (``guard_by``), or ``None`` without a guard."""
    if not guarded:
        return None
    if guard_by == "policy":
        from torampu.bots.policy import PolicyBot

        return PolicyBot(_own_policy(learned), seed)
    return make_bot("heuristic", seed, game)


def _learned(
    game: str,
    rollout: str | None,
    temperature: float,
    prior: bool | None,
    weight: float,
    hold: float = 0.0,
    explore: float | None = None,
    policy: Policy | None = None,
    opponents: bool = False,
    mate: bool = False,
) -> tuple[Rollout, Prior | None, tuple[Mapping[str, Any], Rollout] | None]:
    """The rollout, the tree's prior and the rollout kept for the policy's own rules
    (``rollout=auto``: see :attr:`IsmctsBot.ruled_rollout`) of the options ``rollout``,
    ``temperature``, ``prior``, ``prior_weight``, ``rollout_hold``, ``rollout_explore`` and
    ``params`` (``policy``, the file's policy; checked; ``opponents``: the policy also serves
    ``opponents=policy`` or ``likelihood``)."""
    asked = rollout == "auto"
    if rollout is None:
        rollout = DEFAULT_ROLLOUT.get(game)
        if rollout == "auto" and (hold or explore is not None):
            rollout = "greedy"  # the greedy rollout's own options ask for it
    if prior is None:
        prior = DEFAULT_PRIOR.get(game, False)
    uses = rollout in ("policy", "auto") or prior is True or opponents
    if policy is not None and not uses:
        raise BotError(
            "ismcts option params is the learned policy's file: give it with "
            "rollout=policy, rollout=auto, prior=on or opponents=policy"
        )
    if rollout is not None and rollout not in ROLLOUTS:
        raise BotError(
            f"ismcts option rollout must be auto, greedy, mate, policy or random, not {rollout!r}"
        )
    if not isinstance(prior, bool):
        raise BotError(f"ismcts option prior must be on or off, not {prior!r}")
    for name, value in (
        ("temperature", temperature),
        ("prior_weight", weight),
        ("rollout_hold", hold),
    ):
        check_nonnegative("ismcts", name, value)
    if not isinstance(mate, bool):
        raise BotError(f"ismcts option rollout_mate must be on or off, not {mate!r}")
    if mate and not (game == "daifugo" and rollout in ("policy", "auto")):
        raise BotError(
            "ismcts option rollout_mate is for Daifugo's policy rollouts (rollout=auto or "
            "policy; rollout=mate is the greedy rollout's own)"
        )
    if hold and not (game == "daifugo" and rollout in (None, "greedy", "mate")):
        raise BotError("ismcts option rollout_hold is for Daifugo's greedy and mate rollouts")
    if explore is not None:
        if not (game == "daifugo" and rollout in (None, "greedy", "mate")):
            raise BotError(
                "ismcts option rollout_explore is for Daifugo's greedy and mate rollouts"
            )
        if not 0.0 <= explore <= 1.0:
            raise BotError(f"ismcts option rollout_explore must be in [0, 1], not {explore!r}")
    ex = ROLLOUT_EXPLORE if explore is None else float(explore)
    if game != "daifugo" and (rollout in ("auto", "greedy", "mate", "policy") or prior):
        raise BotError(
            "ismcts options rollout=auto|greedy|mate|policy and prior=on are Daifugo's only"
        )
    ruled: tuple[Mapping[str, Any], Rollout] | None = None
    if rollout == "random":
        play_out: Rollout = random_rollout
    elif rollout == "mate":
        play_out = partial(greedy_rollout, mate=True, hold=float(hold), explore=ex)
    elif hold or explore is not None:
        play_out = partial(greedy_rollout, hold=float(hold), explore=ex)
    elif rollout == "policy":
        from torampu.learn.daifugo_policy import make_policy_rollout

        play_out = make_policy_rollout(policy, temperature=float(temperature), mate=mate)
    else:
        play_out = rollout_for(game)
        if rollout == "auto":
            ruled = _policy_rules(policy, float(temperature), asked, mate)
    tree_prior: Prior | None = None
    if prior:
        from torampu.learn.daifugo_policy import default_policy

        tree_prior = (policy or default_policy()).prior
    return play_out, tree_prior, ruled


def _likelihood_policy(policy: Policy | None, model: OpponentModel | None = None) -> Prior:
    """``likelihood``'s model of the others' moves: the learned policy's probabilities
    (``policy``, ``params``' file, or the shipped one; with ``adapt``, ``model``'s fit once it
    has learned a game; at temperature 1)."""
    base = _own_policy(policy)
    if model is None:
        return base.prior

    def prior(game: Game, moves: list[Move]) -> list[float]:
        return (model.policy if model.active else base).prior(game, moves)

    return prior


def _own_policy(policy: Policy | None) -> Policy:
    """``params``' policy, or the shipped one."""
    from torampu.learn.daifugo_policy import default_policy

    return policy or default_policy()


def _policy_opponents(
    policy: Policy | None, temperature: float, model: OpponentModel | None = None
) -> Scripted:
    """``opponents=policy``: the other players' moves in the tree drawn from the learned policy
    (``policy``, ``params``' file, or the shipped one; with ``adapt``, ``model``'s fit once it
    has learned a game) at ``temperature``
    (:func:`~torampu.search.rollouts.daifugo_policy_opponents`)."""
    base = _own_policy(policy)

    def draw(g: Daifugo, legal: list[Move], rand: Callable[[], float]) -> Move:
        pol = model.policy if model is not None and model.active else base
        return pol.sample(g, legal, rand, temperature)

    return daifugo_policy_opponents(draw)


BETWEEN_GAMES: Final = frozenset({"seat_change", "rank_reset"})
"""Daifugo options that act only between the games of a match (new seats, titles forgotten):
``rollout=auto`` leaves them out when it compares a view's rules with those a policy was
trained under, so a match that reseats or forgets titles on another schedule (``torampu uecda
server --seat-change 0 --rank-reset 1``) still gets the policy's rollout."""


def _play_rules(rules: object) -> object:
    """``rules`` without :data:`BETWEEN_GAMES` (anything but a mapping as it is)."""
    if not isinstance(rules, Mapping):
        return rules
    return {k: v for k, v in rules.items() if k not in BETWEEN_GAMES}


def _policy_rules(
    policy: Policy | None, temperature: float, asked: bool, mate: bool = False
) -> tuple[Mapping[str, Any], Rollout] | None:
    """``rollout=auto``'s pair: the rules ``policy`` (default the shipped one) was trained under
    (the preset its file's ``training`` names) and the rollout drawn from it. A file that names
    no preset is refused where ``rollout=auto`` was ``asked`` for, else gives ``None`` (the
    greedy rollout everywhere)."""
    from torampu.daifugo import SPEC
    from torampu.learn.daifugo_policy import default_policy, make_policy_rollout

    pol = policy or default_policy()
    preset = pol.trained_under
    try:
        rules = None if preset is None else SPEC.resolve(preset)
    except TorampuError:
        rules = None
    if rules is None:
        if not asked:
            return None
        raise BotError(
            "ismcts option rollout=auto needs a policy file that names the preset it was "
            f"trained under (its training.rules), not {preset!r}"
        )
    return rules, make_policy_rollout(pol, temperature=temperature, mate=mate)
