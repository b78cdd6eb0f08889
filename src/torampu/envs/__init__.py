"""PettingZoo AEC environments for the four games (needs the ``rl`` extra: pettingzoo, gymnasium).

One module per game, each with ``env(**kwargs)`` (wrapped as PettingZoo's classic environments
are) and ``raw_env`` (the bare environment): :mod:`~torampu.envs.napoleon_v0`,
:mod:`~torampu.envs.nap_v0`, :mod:`~torampu.envs.hell_v0`, :mod:`~torampu.envs.daifugo_v0`.
They drive the engine through its public contract only, and each seat's observation is built
from ``view(seat)`` alone (:mod:`torampu.envs.base`). Each module's docstring documents its action
catalogue and observation layout; ``env.unwrapped.layout.table()`` prints the layout of a
configured environment with offsets.

>>> from torampu.envs import ENVS
>>> env = ENVS["nap"].env()
>>> env.reset(seed=3)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][-1])
...     env.step(action)
>>> env.agents
[]
"""

from __future__ import annotations

from types import ModuleType

from torampu.envs import daifugo_v0, hell_v0, nap_v0, napoleon_v0
from torampu.envs.base import TorampuEnv
from torampu.envs.catalogue import Catalogue, CatalogueError
from torampu.envs.layout import CARD_NAMES, Layout

ENVS: dict[str, ModuleType] = {
    "napoleon": napoleon_v0,
    "nap": nap_v0,
    "hell": hell_v0,
    "daifugo": daifugo_v0,
}
"""The environment module of each game."""

__all__ = [
    "CARD_NAMES",
    "ENVS",
    "Catalogue",
    "CatalogueError",
    "Layout",
    "TorampuEnv",
    "daifugo_v0",
    "hell_v0",
    "nap_v0",
    "napoleon_v0",
]
