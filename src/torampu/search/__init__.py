"""Search: determinized information-set MCTS over the public contract.

>>> import random, torampu
>>> from torampu.search import ismcts, sampler_for
>>> g = torampu.new_game("hell", cards=3, seed=2)
>>> res = ismcts(g.view(g.to_play), sampler_for("hell"), random.Random(0), iterations=50)
>>> res.action in g.legal_actions()
True
"""

from __future__ import annotations

from torampu.search.ismcts import (
    SearchResult,
    ismcts,
    random_rollout,
    rollout_for,
    scores_to_rewards,
)
from torampu.search.samplers import sampler_for

__all__ = [
    "SearchResult",
    "ismcts",
    "random_rollout",
    "rollout_for",
    "sampler_for",
    "scores_to_rewards",
]
