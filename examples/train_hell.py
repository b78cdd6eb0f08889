"""Train a linear policy for one seat of Hell through the PettingZoo environment, and compare.

Seat 0 of ``torampu.envs.hell_v0`` is played by a learning agent; the other seats by torampu's
heuristic bot, which sees only its ``view(seat)`` and the legal actions (its answer is turned into
an action index with ``env.unwrapped.indices_for``). The agent is a linear softmax policy over
the environment's masked ``Discrete`` actions (logits = W · observation), trained with REINFORCE
(the normalized end-of-deal score as the return, a running mean as baseline). Then three agents
play seat 0 on the same evaluation deals: a random masked agent, the trained policy (greedy) and
the heuristic bot itself, and their mean scores are printed with 95% confidence intervals.

    .venv/bin/python examples/train_hell.py                 # ~30 s: 4 players, 4 cards each
    .venv/bin/python examples/train_hell.py --episodes 20000 --cards 6

Needs the ``rl`` extra (``pip install -e '.[rl]'``; ``.[dev]`` has it too).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from torampu.bots import make_bot
from torampu.envs import TorampuEnv, hell_v0

Policy = Callable[[NDArray[np.float32], NDArray[np.int8]], int]
Step = tuple[NDArray[np.float32], NDArray[np.int8], int]
"""One decision of seat 0: observation, action mask, action index."""


class LinearPolicy:
    """A softmax over the legal actions of ``W · [observation, 1]``."""

    def __init__(self, n_obs: int, n_actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((n_actions, n_obs + 1))
        self.rng = rng

    def probs(self, obs: NDArray[np.float32], mask: NDArray[np.int8]) -> NDArray[np.float64]:
        x = np.append(obs, 1.0)
        logits = np.where(mask == 1, self.w @ x, -np.inf)
        p = np.exp(logits - logits.max())
        return np.asarray(p / p.sum())

    def sample(self, obs: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        p = self.probs(obs, mask)
        return int(self.rng.choice(len(p), p=p))

    def greedy(self, obs: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        return int(np.argmax(self.probs(obs, mask)))

    def update(self, steps: list[Step], advantage: float, lr: float) -> None:
        for obs, mask, action in steps:
            x = np.append(obs, 1.0)
            grad = -self.probs(obs, mask)
            grad[action] += 1.0
            self.w += lr * advantage * np.outer(grad, x)


def play(
    env: Any,
    seed: int,
    policy: Policy,
    bots: list[Any],
    record: list[Step] | None = None,
) -> float:
    """One deal: seat 0 follows ``policy``, the others their bots. Returns seat 0's reward."""
    env.reset(seed=seed)
    raw = env.unwrapped
    score = 0.0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if agent == "player_0":
                score = reward
            env.step(None)
            continue
        if agent == "player_0":
            action = policy(obs["observation"], obs["action_mask"])
            if record is not None:
                record.append((obs["observation"], obs["action_mask"], action))
        else:
            seat = int(agent.split("_")[1])
            legal = raw.legal_action_strings()
            choice = bots[seat].choose(raw.game.view(seat), legal)
            action = raw.indices_for(choice)[0]
        env.step(action)
    return float(score)


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    a = np.asarray(xs)
    return float(a.mean()), float(1.96 * a.std(ddof=1) / math.sqrt(len(a)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=6000, help="training deals")
    ap.add_argument("--eval", type=int, default=600, help="evaluation deals per agent")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--cards", type=int, default=4, help="cards dealt to each player")
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    env = hell_v0.env(players=args.players, cards=args.cards, normalize_rewards=True)
    raw = env.unwrapped
    assert isinstance(raw, TorampuEnv)
    rng = np.random.default_rng(args.seed)
    n_obs = raw.layout.size
    policy = LinearPolicy(n_obs, len(raw.catalogue), rng)
    bots = [make_bot("heuristic", seed=args.seed + s, game="hell") for s in range(args.players)]
    print(
        f"Hell, {args.players} players, {args.cards} cards each: observation {n_obs} floats, "
        f"{len(raw.catalogue)} actions; seat 0 learns, seats 1-{args.players - 1} heuristic"
    )

    start = time.perf_counter()
    baseline = 0.0
    for episode in range(args.episodes):
        steps: list[Step] = []
        ret = play(env, args.seed * 1_000_003 + episode, policy.sample, bots, steps)
        policy.update(steps, ret - baseline, args.lr)
        baseline += 0.01 * (ret - baseline)
    train_time = time.perf_counter() - start

    scale = raw.reward_scale
    eval_seeds = [10**9 + args.seed * 10_000 + i for i in range(args.eval)]

    def heuristic_seat0(obs: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        legal = raw.legal_action_strings()
        return raw.indices_for(bots[0].choose(raw.game.view(0), legal))[0]

    def random_masked(obs: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    agents: dict[str, Policy] = {
        "random (masked)": random_masked,
        "linear, trained": policy.greedy,
        "heuristic bot": heuristic_seat0,
    }
    scores: dict[str, list[float]] = {}
    for name, agent in agents.items():
        scores[name] = [play(env, s, agent, bots) * scale for s in eval_seeds]
    total = time.perf_counter() - start
    print(
        f"trained on {args.episodes} deals in {train_time:.1f} s; seat 0's mean score over "
        f"the same {args.eval} deals (95% CI):"
    )
    for name, xs in scores.items():
        m, h = mean_ci(xs)
        print(f"  {name:<16} {m:+7.2f}  [{m - h:+.2f}, {m + h:+.2f}]")
    diff = np.asarray(scores["linear, trained"]) - np.asarray(scores["random (masked)"])
    m, h = mean_ci(list(diff))
    print(f"  trained - random: {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}] per deal  ({total:.1f} s)")


if __name__ == "__main__":
    main()
