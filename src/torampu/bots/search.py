"""The ``ismcts`` bot: information-set Monte Carlo tree search from the seat's view.

It rebuilds determinizations of the game from ``view(seat)`` with the game's sampler
(:mod:`torampu.search.samplers`), so it sees exactly what the seat may see, and plays the most
visited move after a fixed number of iterations or a time budget.

Options (``make_bot("ismcts", seed, game, **options)`` or the spec ``ismcts:think=0.5``):
``iterations`` (per decision, default 1000), ``think`` (seconds per decision; with
``iterations`` too, whichever limit comes first) and ``exploration`` (the UCB constant, 0.7).
A time budget makes the bot depend on the machine's speed: only an iteration budget is
reproducible from the seed.

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
from collections.abc import Sequence

from torampu.bots.base import Bot, BotError, View, register
from torampu.errors import TorampuError
from torampu.search import ismcts, rollout_for, sampler_for
from torampu.search.daifugo_sampler import SamplerError
from torampu.search.ismcts import Rollout, Sampler, random_rollout

DEFAULT_ITERATIONS = 1000


class IsmctsBot:
    """Plays by ISMCTS with ``iterations`` per decision and/or ``think`` seconds (whichever limit
    comes first); with neither, :data:`DEFAULT_ITERATIONS`."""

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
    ) -> None:
        self.rollout = rollout
        self.sampler = sampler
        self.fallback = fallback
        """Answers where the sampler cannot rebuild the game (Daifugo's exchange)."""
        self.rng = random.Random(seed)
        self.iterations = DEFAULT_ITERATIONS if iterations is None and think is None else iterations
        self.think = think
        self.exploration = exploration
        self.last_iterations = 0

    def choose(self, view: View, legal: Sequence[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        try:
            res = ismcts(
                view,
                self.sampler,
                self.rng,
                iterations=self.iterations,
                seconds=self.think,
                exploration=self.exploration,
                rollout=self.rollout,
            )
        except SamplerError:
            if self.fallback is None:
                raise
            self.last_iterations = 0
            return self.fallback.choose(view, legal)
        self.last_iterations = res.iterations
        if res.action not in legal:  # a sampler bug must never become an illegal move
            raise BotError(f"ismcts chose {res.action!r}, which is not legal here")
        return res.action


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
) -> Bot:
    if iterations is not None:
        _positive("iterations", iterations, whole=True)
    if think is not None:
        _positive("think", think, whole=False)
    _positive("exploration", exploration, whole=False)
    try:
        sampler = sampler_for(game)
    except TorampuError as e:
        raise BotError(str(e)) from None
    fallback = None
    rollout: Rollout = rollout_for(game)
    if game == "daifugo":  # a rare view the sampler cannot rebuild is the heuristic's
        from torampu.bots.daifugo import make_daifugo_bot

        fallback = make_daifugo_bot(seed)
    elif game == "napoleon":  # likewise
        from torampu.bots.base import make_bot

        fallback = make_bot("heuristic", seed, game)
    return IsmctsBot(
        sampler,
        seed,
        fallback=fallback,
        rollout=rollout,
        iterations=iterations,
        think=None if think is None else float(think),
        exploration=float(exploration),
    )
