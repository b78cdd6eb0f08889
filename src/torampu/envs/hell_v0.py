"""Hell (an Oh Hell variant) as a PettingZoo AEC environment: one deal of ``cards`` cards each.

>>> from torampu.envs import hell_v0
>>> env = hell_v0.env(cards=3, players=4)
>>> env.reset(seed=1)
>>> env.agent_selection, int(env.action_space("player_0").n)
('player_1', 65)
>>> obs, reward, terminated, truncated, info = env.last()
>>> [env.unwrapped.action_name(i) for i in obs["action_mask"].nonzero()[0]]
['bid 0', 'bid 1', 'bid 2', 'bid 3']

Options: ``rules`` (a preset name or a dict, see ``torampu.rules("hell")``), ``players`` (2–7),
``cards`` (cards dealt to each player in this deal, 1..``51 // players``; the engine's default is
1), ``normalize_rewards``, ``render_mode="ansi"``. The whole 1..max..1 series is a match, not one
environment episode; play it as episodes with ``cards`` going up and down.

Actions (``Discrete(M + 53)``, ``M = 51 // players``: 13 for 3 players, 10 for 5)
---------------------------------------------------------------------------------

| index | action |
| --- | --- |
| 0..M | ``bid 0`` … ``bid M`` |
| M+1 .. M+52 | ``play 2S`` … ``play AS``, ``play 2H`` … ``play AC`` (the layout's card order) |

Observation (``float32``, every entry in [0, 1]; seats relative to the observer, 0 = itself)
--------------------------------------------------------------------------------------------

| block | width | meaning |
| --- | --- | --- |
| `hand` | 52 | own hand |
| `phase` | 2 | one-hot: bid, play |
| `to_play` | n | seat to act |
| `dealer` | n | the dealer (bids last, leads the first trick) |
| `cards` | 1 | cards dealt to each player / M |
| `upcard` | 52 | the card turned up |
| `trump` | 4 | trump suit S H D C |
| `bids` | n × (M+1) | each seat's bid, one-hot 0..M (all zero: not bid yet) |
| `forbidden_bid` | M+1 | the bid the hook forbids the dealer now, one-hot |
| `tricks_won` | n | tricks each seat has won / cards |
| `trick` | n × 52 | the current trick: the card each seat played to it |
| `trick_leader` | n | who led the current trick |
| `played` | n × 52 | every card each seat has played in this deal |

Reward: the seat's deal score (exact bid ``10 + 3 × bid``, otherwise ``-3 × |bid - tricks|``
with the default rules); ``normalize_rewards`` divides it by the largest possible absolute score.
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
    scalar,
    seat_fractions,
    set_cards,
)
from torampu.game import Game

PHASES = ("bid", "play")


class raw_env(TorampuEnv):
    """Hell, one deal; see the module docstring."""

    metadata = {**TorampuEnv.metadata, "name": "hell_v0"}  # noqa: RUF012
    game_name = "hell"
    render_keys = ("cards", "upcard", "bids", "tricks_won", "trick")

    def __init__(
        self,
        rules: str | Mapping[str, Any] | None = None,
        players: int | None = None,
        cards: int | None = None,
        render_mode: str | None = None,
        normalize_rewards: bool = False,
    ) -> None:
        super().__init__(
            rules,
            players,
            render_mode,
            normalize_rewards,
            game_args=None if cards is None else {"cards": cards},
        )

    def _build_catalogue(self, probe: Game) -> Catalogue:
        self.max_cards = 51 // self.n
        self.cards = int(probe.view(None)["cards"])
        bids = [f"bid {b}" for b in range(self.max_cards + 1)]
        return Catalogue([*bids, *(f"play {c}" for c in CARD_NAMES[:52])])

    def _build_layout(self, probe: Game) -> Layout:
        n, m = self.n, self.max_cards
        lay = Layout()
        lay.add("hand", 52, "own hand")
        lay.add("phase", len(PHASES), "one-hot: bid, play")
        lay.add("to_play", n, "seat to act")
        lay.add("dealer", n, "the dealer")
        lay.add("cards", 1, "cards dealt to each player / M")
        lay.add("upcard", 52, "the card turned up")
        lay.add("trump", 4, "trump suit S H D C")
        lay.add("bids", n * (m + 1), "each seat's bid, one-hot 0..M")
        lay.add("forbidden_bid", m + 1, "the bid the hook forbids the dealer now")
        lay.add("tricks_won", n, "tricks won / cards")
        lay.add("trick", n * 52, "the current trick, by seat")
        lay.add("trick_leader", n, "who led the current trick")
        lay.add("played", n * 52, "every card each seat has played")
        return lay

    def _reward_scale(self, probe: Game) -> float:
        r, c = self.rules, self.cards
        exact = max(abs(r["exact_base"] + r["exact_per_trick"] * b) for b in range(c + 1))
        return float(max(exact, abs(r["miss_per_trick"]) * c, 1))

    def _encode(self, view: Mapping[str, Any], me: int, partial: Partial, out: Obs) -> None:
        lay, n = self.layout, self.n
        set_cards(out, lay["hand"], view["hand"])
        if view["phase"] in PHASES:
            one_hot(out, lay["phase"], PHASES.index(view["phase"]))
        one_hot(out, lay["to_play"], rel(view["to_play"], me, n))
        one_hot(out, lay["dealer"], rel(view["dealer"], me, n))
        scalar(out, lay["cards"], view["cards"], self.max_cards)
        set_cards(out, lay["upcard"], [view["upcard"]])
        one_hot(out, lay["trump"], SUITS.index(view["trump"]))
        for s, bid in enumerate(view["bids"]):
            if bid is not None:
                one_hot(out, per_seat(lay["bids"], n)[(s - me) % n], bid)
        one_hot(out, lay["forbidden_bid"], view["forbidden_bid"])
        seat_fractions(out, lay["tricks_won"], view["tricks_won"], me, view["cards"])
        encode_tricks(
            out, view, me, n, played=lay["played"], trick=lay["trick"], leader=lay["trick_leader"]
        )


def env(**kwargs: Any) -> AECEnv[str, ObsDict, Action]:
    """The wrapped environment (see :func:`torampu.envs.base.wrap`); keyword arguments as
    :class:`raw_env`."""
    return wrap(raw_env(**kwargs))
