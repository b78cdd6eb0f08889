"""The ``ismcts`` bot: information-set Monte Carlo tree search from the seat's view.

It rebuilds determinizations of the game from ``view(seat)`` with the game's sampler
(:mod:`torampu.search.samplers`), so it sees exactly what the seat may see, and plays the most
visited move after a fixed number of iterations or a time budget.

>>> import torampu
>>> from torampu.bots import make_bot
>>> g = torampu.new_game("hell", cards=2, seed=5)
>>> bot = make_bot("ismcts", seed=1, game="hell")
>>> bot.choose(g.view(g.to_play), g.legal_actions()) in g.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from torampu.bots.base import Bot, BotError, View, register
from torampu.errors import TorampuError
from torampu.search import ismcts, sampler_for
from torampu.search.ismcts import Sampler

DEFAULT_ITERATIONS = 1000


class IsmctsBot:
    """Plays by ISMCTS with ``iterations`` per decision, or ``think`` seconds if given."""

    name = "ismcts"

    def __init__(
        self,
        sampler: Sampler,
        seed: int = 0,
        iterations: int | None = DEFAULT_ITERATIONS,
        think: float | None = None,
        exploration: float = 0.7,
    ) -> None:
        self.sampler = sampler
        self.rng = random.Random(seed)
        self.iterations = iterations if think is None else None
        self.think = think
        self.exploration = exploration
        self.last_iterations = 0

    def choose(self, view: View, legal: Sequence[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        res = ismcts(
            view,
            self.sampler,
            self.rng,
            iterations=self.iterations,
            seconds=self.think,
            exploration=self.exploration,
        )
        self.last_iterations = res.iterations
        if res.action not in legal:  # a sampler bug must never become an illegal move
            raise BotError(f"ismcts chose {res.action!r}, which is not legal here")
        return res.action


@register("ismcts")
def _ismcts(seed: int, game: str) -> Bot:
    try:
        sampler = sampler_for(game)
    except TorampuError as e:
        raise BotError(str(e)) from None
    return IsmctsBot(sampler, seed)
