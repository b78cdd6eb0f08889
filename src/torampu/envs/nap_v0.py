"""Nap (European Napoleon) as a PettingZoo AEC environment: one deal, bidding then play.

>>> from torampu.envs import nap_v0
>>> env = nap_v0.env()
>>> env.reset(seed=1)
>>> env.possible_agents, int(env.action_space("player_0").n)
(['player_0', 'player_1', 'player_2', 'player_3'], 60)
>>> obs, *_ = env.last()
>>> [env.unwrapped.action_name(i) for i in obs["action_mask"].nonzero()[0]]
['pass', 'bid two', 'bid three', 'bid misere', 'bid four', 'bid nap']

Options: ``rules`` (a preset name or a dict, see ``torampu.rules("nap")``), ``players`` (2–8),
``normalize_rewards``, ``render_mode="ansi"``. A deal that everyone passes is redealt inside the
episode by the engine.

Actions (``Discrete(60)``)
--------------------------

| index | action |
| --- | --- |
| 0 | ``pass`` |
| 1..7 | ``bid two``, ``three``, ``misere``, ``four``, ``nap``, ``wellington``, ``blucher`` |
| 8..59 | ``play 2S`` … ``play AC`` (card order of :mod:`~torampu.envs.layout`) |

Observation (``float32``, every entry in [0, 1]; seats relative to the observer, 0 = itself)
--------------------------------------------------------------------------------------------

| block | width | meaning |
| --- | --- | --- |
| `hand` | 52 | own hand |
| `phase` | 2 | one-hot: bid, play |
| `to_play` | n | seat to act |
| `dealer` | n | the dealer |
| `auction` | n × 8 | what each seat said: pass or one of the 7 bids (all zero: not yet) |
| `high_bid` | 7 | the highest bid so far |
| `declarer` | n | the declarer (highest bidder once play starts) |
| `contract` | 7 | the contract being played |
| `trump` | 4 | trump suit S H D C (set by the declarer's first lead; none in misère) |
| `tricks_won` | n | tricks each seat has won / 5 |
| `trick` | n × 52 | the current trick: the card each seat played to it |
| `trick_leader` | n | who led the current trick |
| `played` | n × 52 | every card each seat has played in this deal |

Reward: the seat's payment from ``result()["scores"]`` (the declarer wins or pays the bid's value
from or to each other player); ``normalize_rewards`` divides by the declarer's largest possible
payment under the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import AECEnv

from torampu.envs.base import Action, ObsDict, TorampuEnv, wrap
from torampu.envs.catalogue import Catalogue, Partial
from torampu.envs.layout import (
    CARD_NAMES,
    SUITS,
    Layout,
    Obs,
    encode_tricks,
    one_hot,
    per_seat,
    rel,
    seat_fractions,
    set_cards,
)
from torampu.game import Game

PHASES = ("bid", "play")
BIDS = ("two", "three", "misere", "four", "nap", "wellington", "blucher")
SAID = ("pass", *(f"bid {b}" for b in BIDS))
_BASE_POINTS = (2, 3, 3, 4, 10, 6)


class raw_env(TorampuEnv):
    """Nap, one deal; see the module docstring."""

    metadata = {**TorampuEnv.metadata, "name": "nap_v0"}  # noqa: RUF012
    game_name = "nap"
    render_keys = ("auction", "contract", "declarer", "trump", "tricks_won", "trick")

    def __init__(
        self,
        rules: str | Mapping[str, Any] | None = None,
        players: int | None = None,
        render_mode: str | None = None,
        normalize_rewards: bool = False,
    ) -> None:
        super().__init__(rules, players, render_mode, normalize_rewards)

    def _build_catalogue(self, probe: Game) -> Catalogue:
        return Catalogue([*SAID, *(f"play {c}" for c in CARD_NAMES[:52])])

    def _build_layout(self, probe: Game) -> Layout:
        n = self.n
        lay = Layout()
        lay.add("hand", 52, "own hand")
        lay.add("phase", len(PHASES), "one-hot: bid, play")
        lay.add("to_play", n, "seat to act")
        lay.add("dealer", n, "the dealer")
        lay.add("auction", n * len(SAID), "what each seat said: pass or a bid")
        lay.add("high_bid", len(BIDS), "the highest bid so far")
        lay.add("declarer", n, "the declarer")
        lay.add("contract", len(BIDS), "the contract being played")
        lay.add("trump", 4, "trump suit S H D C")
        lay.add("tricks_won", n, "tricks won / 5")
        lay.add("trick", n * 52, "the current trick, by seat")
        lay.add("trick_leader", n, "who led the current trick")
        lay.add("played", n * 52, "every card each seat has played")
        return lay

    def _reward_scale(self, probe: Game) -> float:
        r = self.rules
        values = [*_BASE_POINTS, *r["wellington_points"]]
        if r["blucher"]:
            values += r["blucher_points"]
        return float((self.n - 1) * max(abs(v) for v in values))

    def _encode(self, view: Mapping[str, Any], me: int, partial: Partial, out: Obs) -> None:
        lay, n = self.layout, self.n
        set_cards(out, lay["hand"], view["hand"])
        if view["phase"] in PHASES:
            one_hot(out, lay["phase"], PHASES.index(view["phase"]))
        one_hot(out, lay["to_play"], rel(view["to_play"], me, n))
        one_hot(out, lay["dealer"], rel(view["dealer"], me, n))
        auction = per_seat(lay["auction"], n)
        for entry in view["auction"]:
            one_hot(out, auction[(entry["seat"] - me) % n], SAID.index(entry["action"]))
        if view["high_bid"] is not None:
            one_hot(out, lay["high_bid"], BIDS.index(view["high_bid"]))
        one_hot(out, lay["declarer"], rel(view["declarer"], me, n))
        if view["contract"] is not None:
            one_hot(out, lay["contract"], BIDS.index(view["contract"]))
        if view["trump"] is not None:
            one_hot(out, lay["trump"], SUITS.index(view["trump"]))
        seat_fractions(out, lay["tricks_won"], view["tricks_won"], me, 5)
        encode_tricks(
            out, view, me, n, played=lay["played"], trick=lay["trick"], leader=lay["trick_leader"]
        )


def env(**kwargs: Any) -> AECEnv[str, ObsDict, Action]:
    """The wrapped environment (see :func:`torampu.envs.base.wrap`); keyword arguments as
    :class:`raw_env`."""
    return wrap(raw_env(**kwargs))
