"""Napoleon (ナポレオン) as a PettingZoo AEC environment: one game, auction to score.

>>> from torampu.envs import napoleon_v0
>>> env = napoleon_v0.env(rules="house-001")
>>> env.reset(seed=7)
>>> env.agent_selection, int(env.action_space("player_0").n)
('player_1', 218)
>>> obs, *_ = env.last()
>>> [env.unwrapped.action_name(i) for i in obs["action_mask"].nonzero()[0][:3]]
['pass', 'bid 10C', 'bid 10D']

Options: ``rules`` (a preset name or a dict, see ``torampu.rules("napoleon")``), ``players``
(4–6), ``first_bidder`` (the game argument of ``new_game``), ``normalize_rewards``,
``render_mode="ansi"``. A deal that everyone passes is redealt inside the episode by the engine.

Actions (``Discrete(218)``): the widow exchange is chosen card by card
----------------------------------------------------------------------

The exchange (``discard 2C 3D``: as many cards as the widow had, from a hand of up to 17 cards)
has too many combinations for one index each, so the Napoleon picks its discards one card at a
time (``pick 2C``, then ``pick 3D``); the environment keeps the partial choice (shown in the
``picked`` block), masks every card that no legal discard could still contain, and sends the
whole ``discard …`` action to the engine as soon as the last card is picked. The Napoleon stays
the agent to act during these sub-steps. Every other action has its own index:

| index | action |
| --- | --- |
| 0 | ``pass`` |
| 1..55 | ``bid 10C``, ``10D``, ``10H``, ``10S``, ``10N``, ``11C`` … ``bid 20N`` |
| 56 | ``alone`` (with ``declare_alone``) |
| 57..109 | ``adjutant 2S`` … ``adjutant AC``, ``adjutant JK`` (the layout's card order) |
| 110..162 | ``play 2S`` … ``play AC``, ``play JK`` |
| 163, 164 | ``play 3S call``, ``play 8S call`` (with ``joker_call``) |
| 165..217 | ``pick 2S`` … ``pick AC``, ``pick JK``: one card of the exchange's discards |

Observation (``float32``, every entry in [0, 1]; seats relative to the observer, 0 = itself)
--------------------------------------------------------------------------------------------

| block | width | meaning |
| --- | --- | --- |
| `hand` | 53 | own hand (the joker at 52) |
| `picked` | 53 | discards picked so far in the exchange (the Napoleon, mid-choice) |
| `phase` | 5 | one-hot: bid, adjutant, exchange, play, over |
| `to_play` | n | seat to act |
| `dealer` | n | the dealer |
| `first_bidder` | n | who opened the auction |
| `auction` | n × 56 | each seat's last word: pass or one of the 55 bids (all zero: not yet) |
| `high_bid` | 55 | the highest bid so far (count 10..20 × suit C D H S N) |
| `high_bidder` | n | its bidder |
| `napoleon` | n | the Napoleon |
| `trump` | 5 | trump S H D C, or N (no trump) |
| `adjutant_card` | 53 | the card the Napoleon named |
| `flags` | 4 | alone declared; adjutant known (to the observer); alone (when known); joker called |
| `adjutant` | n | the adjutant, once known to the observer |
| `widow` | 53 | the widow (the Napoleon, during the exchange) |
| `discards` | 53 | discards the observer may see (the Napoleon: all; others: ``reveal_discards``) |
| `discard_counts` | 2 | widow size / 5; number of discards / 5 |
| `trick` | n × 53 | the current trick: the card each seat played to it |
| `trick_leader` | n | who led the current trick |
| `played` | n × 53 | every card each seat has played |
| `honor_counts` | n | honors (A K Q J T) each seat has taken / 20 |
| `tricks_done` | 1 | tricks played / hand size |

Reward: the seat's score from ``result()["scores"]`` (001's points table or win/loss);
``normalize_rewards`` divides it by the largest possible (4 for a lone Napoleon's win, doubled
by ``all_twenty: lose``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import AECEnv

from torampu.envs.base import Action, ObsDict, TorampuEnv, wrap
from torampu.envs.catalogue import Catalogue, Partial
from torampu.envs.layout import (
    CARD_NAMES,
    Layout,
    Obs,
    card_index,
    encode_tricks,
    one_hot,
    per_seat,
    rel,
    scalar,
    seat_fractions,
    set_cards,
)
from torampu.game import Game

PHASES = ("bid", "adjutant", "exchange", "play", "over")
BID_SUITS = "CDHSN"
TRUMPS = "SHDCN"
BIDS = tuple(f"{count}{suit}" for count in range(10, 21) for suit in BID_SUITS)
SAID = ("pass", *(f"bid {b}" for b in BIDS))
CALLS = ("play 3S call", "play 8S call")


class raw_env(TorampuEnv):
    """Napoleon, one game; see the module docstring."""

    metadata = {**TorampuEnv.metadata, "name": "napoleon_v0"}  # noqa: RUF012
    game_name = "napoleon"
    render_keys = (
        "contract",
        "napoleon",
        "adjutant_card",
        "adjutant",
        "discards",
        "trick",
        "honor_counts",
    )

    def __init__(
        self,
        rules: str | Mapping[str, Any] | None = None,
        players: int | None = None,
        first_bidder: int | None = None,
        render_mode: str | None = None,
        normalize_rewards: bool = False,
    ) -> None:
        super().__init__(
            rules,
            players,
            render_mode,
            normalize_rewards,
            game_args=None if first_bidder is None else {"first_bidder": first_bidder},
        )

    def _build_catalogue(self, probe: Game) -> Catalogue:
        self.hand_size = max(1, int(probe.view(None)["hand_sizes"][0]))
        return Catalogue(
            [
                *SAID,
                "alone",
                *(f"adjutant {c}" for c in CARD_NAMES),
                *(f"play {c}" for c in CARD_NAMES),
                *CALLS,
            ],
            select_verbs=["discard"],
            pick_cards=CARD_NAMES,
        )

    def _build_layout(self, probe: Game) -> Layout:
        n = self.n
        lay = Layout()
        lay.add("hand", 53, "own hand")
        lay.add("picked", 53, "discards picked so far")
        lay.add("phase", len(PHASES), "one-hot: " + ", ".join(PHASES))
        lay.add("to_play", n, "seat to act")
        lay.add("dealer", n, "the dealer")
        lay.add("first_bidder", n, "who opened the auction")
        lay.add("auction", n * len(SAID), "each seat's last word: pass or a bid")
        lay.add("high_bid", len(BIDS), "the highest bid so far")
        lay.add("high_bidder", n, "its bidder")
        lay.add("napoleon", n, "the Napoleon")
        lay.add("trump", len(TRUMPS), "trump S H D C or N")
        lay.add("adjutant_card", 53, "the card the Napoleon named")
        lay.add("flags", 4, "alone declared, adjutant known, alone, joker called")
        lay.add("adjutant", n, "the adjutant, once known")
        lay.add("widow", 53, "the widow (the Napoleon, during the exchange)")
        lay.add("discards", 53, "the discards the observer may see")
        lay.add("discard_counts", 2, "widow size / 5, discards / 5")
        lay.add("trick", n * 53, "the current trick, by seat")
        lay.add("trick_leader", n, "who led the current trick")
        lay.add("played", n * 53, "every card each seat has played")
        lay.add("honor_counts", n, "honors taken / 20")
        lay.add("tricks_done", 1, "tricks played / hand size")
        return lay

    def _reward_scale(self, probe: Game) -> float:
        base = 4.0 if self.rules["scoring"] == "points" else 1.0
        return base * (2.0 if self.rules["all_twenty"] == "lose" else 1.0)

    def _encode(self, view: Mapping[str, Any], me: int, partial: Partial, out: Obs) -> None:
        lay, n = self.layout, self.n
        set_cards(out, lay["hand"], view["hand"])
        set_cards(out, lay["picked"], partial)
        one_hot(out, lay["phase"], PHASES.index(view["phase"]))
        one_hot(out, lay["to_play"], rel(view["to_play"], me, n))
        one_hot(out, lay["dealer"], rel(view["dealer"], me, n))
        one_hot(out, lay["first_bidder"], rel(view["first_bidder"], me, n))
        auction = per_seat(lay["auction"], n)
        last: dict[int, str] = {e["seat"]: e["action"] for e in view["auction"]}
        for s, word in last.items():
            one_hot(out, auction[(s - me) % n], SAID.index(word))
        if view["high_bid"] is not None:
            one_hot(out, lay["high_bid"], BIDS.index(view["high_bid"]))
        one_hot(out, lay["high_bidder"], rel(view["high_bidder"], me, n))
        one_hot(out, lay["napoleon"], rel(view["napoleon"], me, n))
        if view["trump"] is not None:
            one_hot(out, lay["trump"], TRUMPS.index(view["trump"]))
        if view["adjutant_card"] is not None:
            one_hot(out, lay["adjutant_card"], card_index(view["adjutant_card"]))
        flags = lay["flags"].start
        out[flags] = float(bool(view["alone_declared"]))
        out[flags + 1] = float(bool(view["adjutant_known"]))
        out[flags + 2] = float(bool(view["alone"]))
        out[flags + 3] = float(bool(view["call"]))
        one_hot(out, lay["adjutant"], rel(view["adjutant"], me, n))
        set_cards(out, lay["widow"], view.get("widow") or [])
        set_cards(out, lay["discards"], view.get("discards") or [])
        counts = lay["discard_counts"]
        scalar(out, slice(counts.start, counts.start + 1), view["widow_size"], 5)
        scalar(out, slice(counts.start + 1, counts.stop), view.get("discards_count", 0), 5)
        encode_tricks(
            out, view, me, n, played=lay["played"], trick=lay["trick"], leader=lay["trick_leader"]
        )
        seat_fractions(out, lay["honor_counts"], view["honor_counts"], me, 20)
        scalar(out, lay["tricks_done"], len(view["tricks"]), self.hand_size)


def env(**kwargs: Any) -> AECEnv[str, ObsDict, Action]:
    """The wrapped environment (see :func:`torampu.envs.base.wrap`); keyword arguments as
    :class:`raw_env`."""
    return wrap(raw_env(**kwargs))
