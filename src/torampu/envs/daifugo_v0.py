"""Daifugo (大富豪) as a PettingZoo AEC environment: one game, every house rule as an option.

>>> from torampu.envs import daifugo_v0
>>> env = daifugo_v0.env(rules="standard", players=4)
>>> env.reset(seed=1)
>>> env.agent_selection, int(env.action_space("player_0").n)
('player_1', 2382)
>>> obs, *_ = env.last()
>>> [env.unwrapped.action_name(i) for i in obs["action_mask"].nonzero()[0]][:4]
['play 3D', 'play 3D 3H', 'play 3D 4D 5D', 'play 3D 4D 5D 6D']

Options: ``rules`` (a preset name or a dict, see ``torampu.rules("daifugo")``), ``players``
(2–8), the game arguments ``titles`` (each seat's title position from a previous game, 0 =
大富豪: turns on the exchange, 都落ち, 天変地異 …), ``defense`` and ``seating``,
``normalize_rewards``, ``render_mode="ansi"``. A match (titles carried from game to game) is a
sequence of episodes: pass ``result()["ranking"]``'s positions as the next ``titles``.

Actions: every play enumerated, card choices card by card
---------------------------------------------------------

*Plays* are enumerated once for the rules' number of jokers ``J`` (wild or not) and ``stairs``:
every single (52 + the joker), every group (2+ cards of one rank, jokers standing in; jokers
alone) and every run (3+ consecutive ranks of one suit, 3..2; each joker standing for a
specific cell, at least one real card), written as the engine's canonical strings (``5H JK 7H``,
``5H JK=6H JK=7H``, ``3D 3H JK``). Sizes: 2 327 plays with 1 joker, 7 935 with 2, 20 099 with 3
(``yaita``), 459 without jokers (runs: 264; groups: 143); without ``stairs`` there are no runs.
The joker of a run stands for one cell, so ``5H JK 7H`` (for 6H) and ``5H 6H JK`` (for 7H) are
different plays.

*Card choices* (``give …`` after 7渡し, ``discard …`` after 10捨て, ``exchange …`` for a rich
player's return) are chosen one card at a time: ``pick 7H`` adds a card (``pick JK`` a joker,
as often as the hand has jokers) to the seat's partial choice, shown in the ``picked`` block;
the choice goes to the engine as soon as no legal choice could contain another card, or when
the seat takes ``done`` on a legal choice (``done`` with nothing picked gives or discards
nothing, where the rules allow it). The seat stays the agent to act during these sub-steps.

| index | action |
| --- | --- |
| 0 .. P-1 | plays: singles, groups, runs (``play 3D``, ``play 3D 3H JK``, ``play 5H JK 7H``, …) |
| P | ``pass`` |
| P+1 .. P+53 | ``pick 2S`` … ``pick AC`` (the layout's card order), ``pick JK`` (if jokers) |
| P+54 (P+53 without jokers) | ``done`` |

Observation (``float32``, every entry in [0, 1]; seats relative to the observer, 0 = itself)
--------------------------------------------------------------------------------------------
Card blocks are 52 real cards plus 3 entries counting jokers as a thermometer (``JK JK`` →
``1 1 0``).

| block | width | meaning |
| --- | --- | --- |
| `hand` | 52 + 3 | own hand |
| `picked` | 52 + 3 | cards picked so far in a give/discard/exchange choice |
| `phase` | 5 | one-hot: exchange, play, give, discard, over |
| `pending` | 1 | cards that may be given or discarded now / 7 |
| `to_play` | n | seat to act |
| `table` | 52 + 3 | the cards of the play on the table |
| `table_shape` | 3 | single, group, run (all zero: empty table) |
| `table_size` | 1 | its number of cards / 13 |
| `table_ranks` | 14 | the ranks it stands for, 3 4 … A 2, and jokers alone |
| `table_by` | n | who made it |
| `passed` | n | who has passed since it was made |
| `flags` | 7 | 革命, クーデター, 11バック, order reversed, direction of play reversed, 縛り, 激縛 |
| `lock_suits` | 4 | the locked suits S H D C |
| `hand_sizes` | n | cards in each hand / (52 + J) |
| `finished` | n × n | each seat's finishing place, one-hot (all zero: still playing) |
| `fouls` | n | seats out by a forbidden finish |
| `fallen` | n | the 大富豪 dropped by 都落ち |
| `titles` | n × 5 | titles this game started with: 大富豪, 富豪, 平民, 貧民, 大貧民 |
| `seating` | n × n | each seat's place in the order of play after the observer's |
| `exchange_in` | 52 + 3 | cards the observer received in the exchange |
| `exchange_out` | 52 + 3 | cards the observer handed over in the exchange |
| `exchange_due` | 1 | cards the observer must return now / 5 |
| `discarded` | 52 + 3 | the face-up discard pile (10捨て, 都落ち) |
| `played` | n × (52 + 3) | every card each seat has played |
| `misc` | 2 | 防衛 count / 5; 天変地異 happened |

Reward: the seat's points for the game from ``result()["scores"]`` (``points: rank``: n for
大富豪 … 1 for 大貧民; ``zero_sum``: +2 … -2); ``normalize_rewards`` divides by n or 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any, Final

from pettingzoo import AECEnv

from torampu.envs.base import Action, ObsDict, TorampuEnv, wrap
from torampu.envs.catalogue import Catalogue, Partial
from torampu.envs.layout import (
    CARD_NAMES,
    SUITS,
    Layout,
    Obs,
    one_hot,
    per_seat,
    rel,
    scalar,
    seat_fractions,
    set_cards_jokers,
)
from torampu.game import Game

PHASES: Final = ("exchange", "play", "give", "discard", "over")
DRANKS: Final = "3456789TJQKA2"
"""Daifugo ranks from weak to strong."""
GROUP_SUITS: Final = "CDHS"
"""The order of suits in the canonical string of a group."""
SHAPES: Final = ("single", "group", "run")
TITLES: Final = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
CHOICE_VERBS: Final = ("give", "discard", "exchange")


# ------------------------------------------------------------------------------ the play list
def _card(drank: int, suit: str) -> str:
    return DRANKS[drank] + suit


def _groups(jokers: int) -> Iterator[str]:
    for d in range(13):
        for k in range(1, 5):
            for suits in combinations(GROUP_SUITS, k):
                real = [_card(d, s) for s in suits]
                for j in range(jokers + 1):
                    if k + j >= 2:
                        yield " ".join(real + ["JK"] * j)
    for j in range(2, jokers + 1):
        yield " ".join(["JK"] * j)


def _runs(jokers: int) -> Iterator[str]:
    for suit in SUITS:
        for lo in range(11):
            for length in range(3, 14 - lo):
                cells = [_card(d, suit) for d in range(lo, lo + length)]
                for j in range(min(jokers, length - 1) + 1):
                    for holes in combinations(range(length), j):
                        explicit = length - j == 1
                        words = [
                            (f"JK={c}" if explicit else "JK") if i in holes else c
                            for i, c in enumerate(cells)
                        ]
                        yield " ".join(words)


def all_plays(jokers: int, wild: bool, stairs: bool) -> list[str]:
    """Every play (its cards, canonical) with ``jokers`` jokers in the deck.

    >>> len(all_plays(0, True, True)), len(all_plays(1, True, True)), len(all_plays(3, True, True))
    (459, 2327, 20099)
    >>> len(all_plays(1, False, False))
    196
    """
    wj = jokers if wild else 0
    singles = [_card(d, s) for d in range(13) for s in GROUP_SUITS]
    if jokers:
        singles.append("JK")
    plays = singles + list(_groups(wj))
    if stairs:
        plays += list(_runs(wj))
    return plays


def _words(words: Iterable[str]) -> list[str]:
    """Card words with a run's ``JK=6H`` read as a joker."""
    return ["JK" if w.startswith("JK") else w for w in words]


class raw_env(TorampuEnv):
    """Daifugo, one game; see the module docstring."""

    metadata = {**TorampuEnv.metadata, "name": "daifugo_v0"}  # noqa: RUF012
    game_name = "daifugo"
    render_keys = ("titles", "table", "passed", "revolution", "lock", "hand_sizes", "finished")

    def __init__(
        self,
        rules: str | Mapping[str, Any] | None = None,
        players: int | None = None,
        titles: Sequence[int] | None = None,
        defense: int | None = None,
        seating: Sequence[int] | None = None,
        render_mode: str | None = None,
        normalize_rewards: bool = False,
    ) -> None:
        game_args: dict[str, Any] = {}
        if titles is not None:
            game_args["titles"] = list(titles)
        if defense is not None:
            game_args["defense"] = defense
        if seating is not None:
            game_args["seating"] = list(seating)
        super().__init__(rules, players, render_mode, normalize_rewards, game_args=game_args)

    def _build_catalogue(self, probe: Game) -> Catalogue:
        r = self.rules
        self.jokers = int(r["jokers"])
        plays = all_plays(self.jokers, bool(r["joker_wild"]), bool(r["stairs"]))
        self.n_plays = len(plays)
        cat = Catalogue(
            [*(f"play {p}" for p in plays), "pass"],
            select_verbs=CHOICE_VERBS,
            pick_cards=CARD_NAMES if self.jokers else CARD_NAMES[:52],
            done=True,
        )
        return cat

    def _build_layout(self, probe: Game) -> Layout:
        n = self.n
        lay = Layout()

        def cards(name: str, doc: str) -> None:
            lay.add(name, 52, doc)
            lay.add(name + "_jokers", 3, doc + ": jokers")

        cards("hand", "own hand")
        cards("picked", "cards picked so far")
        lay.add("phase", len(PHASES), "one-hot: " + ", ".join(PHASES))
        lay.add("pending", 1, "cards that may be given or discarded now / 7")
        lay.add("to_play", n, "seat to act")
        cards("table", "the play on the table")
        lay.add("table_shape", len(SHAPES), "single, group, run")
        lay.add("table_size", 1, "cards on the table / 13")
        lay.add("table_ranks", 14, "ranks the table stands for, then jokers alone")
        lay.add("table_by", n, "who made the table's play")
        lay.add("passed", n, "who has passed since")
        lay.add("flags", 7, "revolution, coup, eleven back, reversed, direction, lock, strict")
        lay.add("lock_suits", 4, "locked suits S H D C")
        lay.add("hand_sizes", n, "cards in each hand / deck")
        lay.add("finished", n * n, "each seat's finishing place")
        lay.add("fouls", n, "seats out by a forbidden finish")
        lay.add("fallen", n, "the 大富豪 dropped by 都落ち")
        lay.add("titles", n * len(TITLES), "titles this game started with")
        lay.add("seating", n * n, "each seat's place in the order of play after the observer")
        cards("exchange_in", "cards received in the exchange")
        cards("exchange_out", "cards handed over in the exchange")
        lay.add("exchange_due", 1, "cards to return now / 5")
        cards("discarded", "the face-up discard pile")
        lay.add("played", n * 52, "every card each seat has played")
        lay.add("played_jokers", n * 3, "jokers each seat has played")
        lay.add("misc", 2, "defense / 5, tenpen happened")
        return lay

    def _reward_scale(self, probe: Game) -> float:
        return float(self.n if self.rules["points"] == "rank" else 2)

    def _encode(self, view: Mapping[str, Any], me: int, partial: Partial, out: Obs) -> None:
        lay, n = self.layout, self.n

        def cards(name: str, words: Iterable[str]) -> None:
            set_cards_jokers(out, lay[name], lay[name + "_jokers"], _words(words))

        cards("hand", view["hand"])
        cards("picked", partial)
        one_hot(out, lay["phase"], PHASES.index(view["phase"]))
        scalar(out, lay["pending"], view["pending"], 7)
        one_hot(out, lay["to_play"], rel(view["to_play"], me, n))
        table = view["table"]
        if table is not None:
            cards("table", table["cards"])
            one_hot(out, lay["table_shape"], SHAPES.index(table["shape"]))
            scalar(out, lay["table_size"], table["size"], 13)
            ranks = lay["table_ranks"].start
            for w in table["stands_for"]:
                out[ranks + (13 if w == "JK" else DRANKS.index(w[0]))] = 1.0
            one_hot(out, lay["table_by"], rel(table["by"], me, n))
        for s in view["passed"]:
            one_hot(out, lay["passed"], rel(s, me, n))
        flags = lay["flags"].start
        lock = view["lock"]
        for i, on in enumerate(
            (
                view["revolution"],
                view["coup"],
                view["eleven_back"],
                view["reversed"],
                view["direction"] == -1,
                lock is not None,
                lock is not None and lock["strict"],
            )
        ):
            out[flags + i] = float(bool(on))
        if lock is not None:
            for suit in lock["suits"]:
                one_hot(out, lay["lock_suits"], SUITS.index(suit))
        seat_fractions(out, lay["hand_sizes"], view["hand_sizes"], me, 52 + self.jokers)
        finished = per_seat(lay["finished"], n)
        for place, s in enumerate(view["finished"]):
            one_hot(out, finished[(s - me) % n], place)
        for s in view["fouls"]:
            one_hot(out, lay["fouls"], rel(s, me, n))
        one_hot(out, lay["fallen"], rel(view["fallen"], me, n))
        if view["titles"] is not None:
            titles = per_seat(lay["titles"], n)
            for s, t in enumerate(view["titles"]):
                one_hot(out, titles[(s - me) % n], TITLES.index(t))
        seating = per_seat(lay["seating"], n)
        order: list[int] = view["seating"]
        mine = order.index(me)
        for place, s in enumerate(order):
            one_hot(out, seating[(s - me) % n], (place - mine) % n)
        got: list[str] = []
        gave: list[str] = []
        due = 0
        for row in view["exchange"]:
            if me not in (row["rich"], row["poor"]):
                continue
            given = row.get("given") or []
            returned = row.get("returned") or []
            if me == row["rich"]:
                got += given
                gave += returned
                if row.get("returned") is None:
                    due += row["count"]
            else:
                got += returned
                gave += given
        cards("exchange_in", got)
        cards("exchange_out", gave)
        scalar(out, lay["exchange_due"], due, 5)
        cards("discarded", view["discarded"])
        by_seat: list[list[str]] = [[] for _ in range(n)]
        for entry in view["log"]:
            action: str = entry.get("action", "")
            if action.startswith("play "):
                by_seat[(entry["seat"] - me) % n] += _words(action.split()[1:])
        for played, jokers, words in zip(
            per_seat(lay["played"], n), per_seat(lay["played_jokers"], n), by_seat, strict=True
        ):
            set_cards_jokers(out, played, jokers, words)
        misc = lay["misc"].start
        scalar(out, slice(misc, misc + 1), view["defense"], 5)
        out[misc + 1] = float(view["tenpen"] is not None)


def env(**kwargs: Any) -> AECEnv[str, ObsDict, Action]:
    """The wrapped environment (see :func:`torampu.envs.base.wrap`); keyword arguments as
    :class:`raw_env`."""
    return wrap(raw_env(**kwargs))
