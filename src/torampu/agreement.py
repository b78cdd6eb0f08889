"""Move agreement: how often bots choose the moves that were played in recorded games.

A strong program's own games are a yardstick that costs no match: take its decisions from
torampu records (for example the games it played on ``torampu uecda server --records DIR``), show
each bot the same view the player had, and count how often the bot picks the recorded move. The
bots are compared *paired*, on the same decisions, so small differences show where a match would
need hundreds of games. Agreement is a proxy, not strength: a bot can differ from the record and
be right; use it to choose what to measure in play.

>>> import torampu
>>> from torampu.bots import make_bot
>>> g = torampu.new_game("hell", cards=3, seed=2)
>>> bots = [make_bot("heuristic", s, "hell") for s in range(g.n)]
>>> while not g.is_over:
...     g.play(bots[g.to_play].choose(g.view(g.to_play), g.legal_actions()))
>>> found = decisions([g.to_record()])
>>> res = agreement(found, ["heuristic", "random"], game="hell", seed=1)
>>> res.rates()["heuristic"] >= res.rates()["random"]
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torampu
from torampu.bots.base import make_bot, parse_bot_spec
from torampu.errors import TorampuError

View = Mapping[str, Any]


@dataclass(frozen=True)
class Decision:
    """One recorded decision: the player's view, its legal actions and the action played."""

    view: View
    legal: list[str]
    action: str
    seat: int
    game: int
    """Which record (its index in the records given)."""


def decisions(
    records: Iterable[Mapping[str, Any]],
    every: int = 1,
    seats: Sequence[int] | None = None,
    phases: Sequence[str] | None = None,
) -> list[Decision]:
    """The decisions of ``records`` with more than one legal action (every ``every``-th of them,
    counted per record; only those of ``seats`` and in ``phases`` if given). Each record is
    replayed move by move from its deal; keys that are not the record's own (a UECda server's
    ``uecda`` block) are left out."""
    if every < 1:
        raise ValueError(f"every must be at least 1, not {every}")
    found: list[Decision] = []
    for index, rec in enumerate(records):
        start = {k: v for k, v in rec.items() if k not in ("actions", "result", "uecda")}
        try:
            g = torampu.replay({**start, "actions": []})
        except (TorampuError, KeyError, TypeError, ValueError) as e:
            raise TorampuError(f"record {index} does not replay: {e}") from None
        k = 0
        for step in rec.get("actions", []):
            action = str(step["action"])
            s = g.to_play
            legal = g.legal_actions()
            phase = getattr(g, "phase", None)
            if (
                s is not None
                and len(legal) > 1
                and (seats is None or s in seats)
                and (phases is None or phase in phases)
            ):
                k += 1
                if k % every == 0:
                    found.append(Decision(g.view(s), legal, action, s, index))
            g.play(action)
    return found


@dataclass
class AgreementResult:
    """Per bot spec, one flag per decision: whether it chose the recorded action."""

    hits: dict[str, list[bool]] = field(default_factory=dict)

    def rates(self) -> dict[str, float]:
        return {spec: sum(h) / len(h) if h else 0.0 for spec, h in self.hits.items()}

    def interval(self, spec: str) -> tuple[float, float]:
        """A 95% interval for ``spec``'s agreement (normal approximation, within [0, 1])."""
        h = self.hits[spec]
        n = len(h)
        p = sum(h) / n if n else 0.0
        half = 1.96 * math.sqrt(p * (1 - p) / n) if n else 0.0
        return max(0.0, p - half), min(1.0, p + half)

    def paired(self, spec: str, base: str) -> tuple[float, float, float]:
        """``spec``'s agreement minus ``base``'s on the same decisions, with a 95% interval."""
        d = [int(a) - int(b) for a, b in zip(self.hits[spec], self.hits[base], strict=True)]
        n = len(d)
        m = sum(d) / n if n else 0.0
        if n < 2:
            return m, m, m
        sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
        half = 1.96 * sd / math.sqrt(n)
        return m, m - half, m + half


def agreement(
    found: Sequence[Decision], bots: Sequence[str], game: str, seed: int = 0
) -> AgreementResult:
    """Show every bot (specs such as ``ismcts:iterations=300``) each decision's view and count
    the recorded action. Each bot is made once, from ``seed``, and sees the decisions in order."""
    res = AgreementResult()
    for spec in bots:
        kind, options = parse_bot_spec(spec)
        bot = make_bot(kind, seed, game, **options)
        res.hits[spec] = [bot.choose(d.view, d.legal) == d.action for d in found]
    return res
