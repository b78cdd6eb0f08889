"""The shared PettingZoo AEC environment: one torampu game per episode, seen through ``view(seat)``.

:class:`TorampuEnv` drives a game through the public contract only (``torampu.new_game``,
``legal_actions``, ``play``, ``view``, ``result``, ``to_play``, ``is_over``). A game module
subclasses it with two small parts: the action :class:`~torampu.envs.catalogue.Catalogue` and the
observation encoder (a :class:`~torampu.envs.layout.Layout` and :meth:`TorampuEnv.encode_view`).

Conventions (those of PettingZoo's classic environments):

* agents ``player_0`` … ``player_{n-1}`` are the seats 0..n-1; the agent to act is the seat of
  ``game.to_play`` (a seat stays selected through the sub-steps of a card choice);
* ``observe(agent)`` is ``{"observation": float32 vector in [0, 1], "action_mask": int8 vector}``;
  the observation is a function of ``game.view(seat)`` and the seat's own partial card choice
  only (:meth:`TorampuEnv.encode_view`); the mask is all zeros except for the agent to act;
* rewards are 0 until the game ends; then every agent gets its seat's score from
  ``game.result()["scores"]`` (divided by :attr:`TorampuEnv.reward_scale`, the largest absolute
  score the rules allow, with ``normalize_rewards=True``), every agent is terminated, and its
  ``infos`` entry holds the result;
* ``reset(seed=s)`` plays the game ``torampu.new_game(name, rules, seed=s)``: the same seed gives
  the same deal and, with the same actions, the same game; ``reset()`` without a seed draws the
  next game's seed from the last seed given. ``reset(options={"deal": …, "dealer": d})`` passes a
  fixed deal (``api.md``) and dealer to the game; other option keys are ignored (PettingZoo's API
  test passes one);
* an index that the mask forbids raises :class:`torampu.IllegalAction` and changes nothing;
  ``env()`` (not ``raw_env``) wraps the environment as the classic ones are, so that an illegal
  index instead ends the game with reward -1 for its agent (PettingZoo's
  ``TerminateIllegalWrapper``);
* ``render_mode="ansi"``: ``render()`` returns a text view of the table (public information and
  the hand of the seat to act).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import torampu
from torampu.envs.catalogue import Catalogue, Legal, Partial
from torampu.envs.layout import Layout, Obs
from torampu.errors import IllegalAction, RulesError
from torampu.game import Game

ObsDict = dict[str, Any]
"""An observation: ``{"observation": float32 vector, "action_mask": int8 vector}``."""
Action = int | np.integer[Any] | None


class TorampuEnv(AECEnv[str, ObsDict, Action]):
    """A PettingZoo AEC environment for one torampu game; subclassed once per game."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention: a class attribute)
        "render_modes": ["ansi"],
        "name": "torampu",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    game_name: ClassVar[str]
    """The torampu game: ``"napoleon"``, ``"nap"``, ``"hell"``, ``"daifugo"``."""
    render_keys: ClassVar[tuple[str, ...]] = ()
    """Keys of the spectator's view that :meth:`render` prints."""

    def __init__(
        self,
        rules: str | Mapping[str, Any] | None = None,
        players: int | None = None,
        render_mode: str | None = None,
        normalize_rewards: bool = False,
        game_args: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # PettingZoo is untyped
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.normalize_rewards = bool(normalize_rewards)
        self.game_args: dict[str, Any] = dict(game_args or {})
        probe = torampu.new_game(
            self.game_name, rules=rules, players=players, seed=0, **self.game_args
        )
        public = probe.view(None)
        self.rules: dict[str, Any] = dict(public["rules"])
        """The resolved rules (every option), as the game's view reports them."""
        self.n: int = int(public["players"])
        self.catalogue: Catalogue = self._build_catalogue(probe)
        self.layout: Layout = self._build_layout(probe)
        self.reward_scale: float = float(self._reward_scale(probe))
        """The largest absolute score of a seat under these rules (the normalizing divisor)."""

        self.possible_agents = [f"player_{s}" for s in range(self.n)]
        self.agents = self.possible_agents[:]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(len(self.catalogue)) for a in self.agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=0.0, high=1.0, shape=(self.layout.size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(
                        low=0, high=1, shape=(len(self.catalogue),), dtype=np.int8
                    ),
                }
            )
            for a in self.agents
        }
        self._seeds = random.Random()
        self.game: Game = probe
        """The game being played (``reset`` makes a new one)."""
        self._partial: Partial = ()
        self._legal: Legal | None = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]

    # ------------------------------------------------------------------ the game-specific parts
    @abstractmethod
    def _build_catalogue(self, probe: Game) -> Catalogue:
        """The action catalogue for these rules (``self.rules``, ``self.n`` are set)."""

    @abstractmethod
    def _build_layout(self, probe: Game) -> Layout:
        """The observation layout for these rules."""

    @abstractmethod
    def _reward_scale(self, probe: Game) -> float:
        """The largest absolute score any seat can get under these rules."""

    @abstractmethod
    def _encode(self, view: Mapping[str, Any], me: int, partial: Partial, out: Obs) -> None:
        """Fill ``out`` (zeros) from the seat's view and its partial card choice."""

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[ObsDict]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Action]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = int(seed)
        else:
            game_seed = self._seeds.getrandbits(63)
        opts = options or {}
        self.game = torampu.new_game(
            self.game_name,
            rules=self.rules,
            seed=game_seed,
            deal=opts.get("deal"),
            dealer=opts.get("dealer", 0),
            **self.game_args,
        )
        self._partial = ()
        self._legal = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        to_play = self.game.to_play
        self.agent_selection = self.possible_agents[0 if to_play is None else to_play]

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat_of[agent]
        g = self.game
        acting = not g.is_over and g.to_play == seat
        partial = self._partial if acting else ()
        obs = self.encode_view(g.view(seat), seat, partial)
        if acting:
            mask = self.catalogue.mask(self._legal_now(), partial)
        else:
            mask = np.zeros(len(self.catalogue), dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or isinstance(action, bool | np.bool_):
            raise IllegalAction(f"{agent} must act: an action index, not {action!r}")
        seat = self._seat_of[agent]
        got = self.catalogue.advance(self._legal_now(), self._partial, int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if isinstance(got, tuple):
            self._partial = got
        else:
            self.game.play(got)
            self._partial = ()
            self._legal = None
            if self.game.is_over:
                self._finish(seat)
            else:
                to_play = self.game.to_play
                assert to_play is not None
                self.agent_selection = self.possible_agents[to_play]
        self._accumulate_rewards()

    def _finish(self, last_seat: int) -> None:
        result = self.game.result()
        scale = self.reward_scale if self.normalize_rewards else 1.0
        for s, score in enumerate(result["scores"]):
            agent = self.possible_agents[s]
            self.rewards[agent] = float(score) / scale
            self.terminations[agent] = True
            self.infos[agent] = {"result": result}
        self.agent_selection = self.possible_agents[(last_seat + 1) % self.n]

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use 'ansi')")
            return None
        g = self.game
        public = g.view(None)
        to_play = g.to_play
        head = f"{self.game_name}  phase: {g.phase}  to play: " + (
            "nobody (game over)" if to_play is None else self.possible_agents[to_play]
        )
        lines = [head]
        for key in self.render_keys:
            value = public.get(key)
            if value not in (None, [], {}):
                lines.append(f"  {key}: {value}")
        if to_play is not None:
            lines.append(f"  hand of {self.possible_agents[to_play]}: {g.view(to_play)['hand']}")
            if self._partial:
                lines.append(f"  picked so far: {' '.join(self._partial)}")
        if g.is_over:
            lines.append(f"  scores: {g.result()['scores']}")
        return "\n".join(lines)

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ helpers for users
    def encode_view(self, view: Mapping[str, Any], seat: int, partial: Partial = ()) -> Obs:
        """The observation vector of ``seat`` given its ``view`` (``game.view(seat)``) and its
        partial card choice: what :meth:`observe` returns under ``"observation"``."""
        out = self.layout.zeros()
        self._encode(view, seat, partial, out)
        return out

    @property
    def partial_choice(self) -> Partial:
        """The cards the seat to act has picked so far in a multi-card choice."""
        return self._partial

    def legal_action_strings(self) -> list[str]:
        """The engine's legal action strings now (``[]`` when the game is over)."""
        return [] if self.game.is_over else list(self._legal_now().actions)

    def indices_for(self, action: str) -> list[int]:
        """The action indices that play the canonical ``action`` string in the current state
        (one for most actions; the picks, and ``done`` if needed, for a card choice). Useful to
        turn game records into index sequences."""
        legal = self._legal_now()
        if action not in legal.actions:
            raise IllegalAction(f"{action!r} is not legal now")
        return self.catalogue.indices_for(action, legal)

    def action_name(self, index: int) -> str:
        """The catalogue entry of an index: an action string, ``pick 7H`` or ``done``."""
        return self.catalogue.names[index]

    def _legal_now(self) -> Legal:
        if self._legal is None:
            self._legal = self.catalogue.legal(self.game.legal_actions())
        return self._legal


def wrap(raw: TorampuEnv) -> AECEnv[str, ObsDict, Action]:
    """Wrap a raw environment as PettingZoo's classic environments are: an illegal index ends the
    game with reward -1 for its agent, indices are bounds-checked, and the API order is enforced.
    """
    env: AECEnv[str, ObsDict, Action] = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    env = wrappers.OrderEnforcingWrapper(env)
    return env
