"""The ``policy`` bot: Daifugo's learned move policy alone, without search.

It rebuilds one game consistent with the seat's view (the search's sampler,
:func:`~torampu.search.daifugo_sampler.sample_daifugo`): the policy's features read only the
seat's own hand and public facts, so any such game gives the same choice. It plays the move the
policy scores highest (``temperature=0``, the default) or draws one from the policy's softmax
at ``temperature``. Where the view cannot be rebuilt it asks the heuristic bot.

>>> import torampu
>>> from torampu.bots import make_bot, play_game
>>> g = torampu.new_game("daifugo", rules="standard", seed=4)
>>> play_game(g, [make_bot("policy", seed=s, game="daifugo") for s in range(g.n)]).is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from torampu.bots.base import Bot, BotError, View, check_nonnegative, register
from torampu.daifugo import Daifugo
from torampu.learn.daifugo_policy import Policy, PolicyError, default_policy
from torampu.search.daifugo_sampler import SamplerError, sample_daifugo


class PolicyBot:
    """Plays ``policy``'s move on a determinization of the view (see the module docstring)."""

    name = "policy"

    def __init__(self, policy: Policy, seed: int = 0, temperature: float = 0.0) -> None:
        from torampu.bots.daifugo import make_daifugo_bot

        self.policy = policy
        self.temperature = temperature
        self.rng = random.Random(seed)
        self.fallback = make_daifugo_bot(seed)
        self.fallbacks = 0
        """Decisions the heuristic made (the view could not be rebuilt)."""

    def choose(self, view: View, legal: Sequence[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        try:
            g = sample_daifugo(view, self.rng)
        except SamplerError:
            g = None
        if isinstance(g, Daifugo) and g.to_play == view.get("seat"):
            moves = g.legal_moves()
            m = self.policy.sample(g, moves, self.rng.random, self.temperature)
            action = g.action_str(m)
            if action in legal:
                return action
        self.fallbacks += 1
        return self.fallback.choose(view, legal)


def load_policy(kind: str, params: str | None, option: str = "params") -> Policy:
    """The shipped policy, or the one in the file ``params`` (bot ``kind``'s ``option``,
    ``params`` unless named); :class:`BotError` naming the option and the problem if it cannot
    be read."""
    try:
        return default_policy() if params is None else Policy.load(Path(str(params)))
    except (OSError, PolicyError, ValueError) as e:
        raise BotError(f"{kind} option {option}: {e}") from None


@register("policy")
def _policy(seed: int, game: str, *, temperature: float = 0.0, params: str | None = None) -> Bot:
    if game != "daifugo":
        raise BotError(f"the policy bot plays daifugo only, not {game!r}")
    check_nonnegative("policy", "temperature", temperature)
    return PolicyBot(load_policy("policy", params), seed, float(temperature))
