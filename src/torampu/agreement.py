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
    titles: Sequence[str | None] | None = None,
) -> list[Decision]:
    """The decisions of ``records`` with more than one legal action (every ``every``-th of them,
    counted per record; only those of ``seats``, in ``phases`` and by a player whose title in
    the view is one of ``titles`` — Daifugo's ``daifugo`` … ``daihinmin``, ``None`` for a game
    without titles — if given). Each record is replayed move by move from its deal; keys that
    are not the record's own (a UECda server's ``uecda`` block) are left out."""
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
                    view = g.view(s)
                    if titles is None or _title(view, s) in titles:
                        found.append(Decision(view, legal, action, s, index))
            g.play(action)
    return found


def _title(view: View, seat: int) -> str | None:
    """The title ``seat`` holds in ``view`` (``None`` where the game has none)."""
    titles = view.get("titles")
    if not isinstance(titles, list) or not 0 <= seat < len(titles):
        return None
    t = titles[seat]
    return t if isinstance(t, str) else None


@dataclass
class AgreementResult:
    """Per bot spec, one flag per decision: whether it chose the recorded action (and the
    actions it chose, in :attr:`chosen`)."""

    hits: dict[str, list[bool]] = field(default_factory=dict)
    chosen: dict[str, list[str]] = field(default_factory=dict)
    errors: dict[str, dict[int, float]] = field(default_factory=dict)
    """With the records (:func:`agreement`'s ``records``), per search bot, per decision (its
    index) where the search tried the recorded move: the squared difference between the
    search's mean reward below that move and the reward the mover got in the end."""

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
        pairs = zip(self.hits[spec], self.hits[base], strict=True)
        return _mean_interval([int(a) - int(b) for a, b in pairs])

    def error(self, spec: str) -> tuple[float, float, float]:
        """``spec``'s mean squared error predicting the recorded games' ends, with a 95%
        interval (see :attr:`errors`)."""
        return _mean_interval(list(self.errors[spec].values()))

    def paired_error(self, spec: str, base: str) -> tuple[float, float, float]:
        """``spec``'s squared error minus ``base``'s on the decisions both scored, with a 95%
        interval (negative: ``spec``'s model predicts the recorded games better)."""
        a, b = self.errors[spec], self.errors[base]
        return _mean_interval([a[i] - b[i] for i in a if i in b])


def agreement(
    found: Sequence[Decision],
    bots: Sequence[str],
    game: str,
    seed: int = 0,
    records: Sequence[Mapping[str, Any]] | None = None,
) -> AgreementResult:
    """Show every bot (specs such as ``ismcts:iterations=300``) each decision's view and count
    the recorded action. Each bot is made once, from ``seed``, and sees the decisions in order.

    With ``records`` (those ``found`` was taken from: :attr:`Decision.game` indexes them), each
    search bot's model is scored too (:attr:`AgreementResult.errors`): where its tree tried the
    recorded move, its mean reward below that move is set against the reward the mover got
    (:func:`~torampu.search.ismcts.scores_to_rewards` of the record's final scores: 1 first, 0
    last, as the search counts them). That move's future is the one the record shows, so this
    measures how well the search's rollouts and its model of the others foresee a strong
    program's games, whichever move the search itself would pick."""
    from torampu.bots.search import IsmctsBot
    from torampu.search.ismcts import scores_to_rewards

    res = AgreementResult()
    for spec in bots:
        kind, options = parse_bot_spec(spec)
        bot = make_bot(kind, seed, game, **options)
        search = bot if records is not None and isinstance(bot, IsmctsBot) else None
        picks: list[str] = []
        errors: dict[int, float] = {}
        for i, d in enumerate(found):
            picks.append(bot.choose(d.view, d.legal))
            r = search.last_result if search is not None else None
            if r is not None and records is not None and d.action in r.visits:
                scores = [float(x) for x in records[d.game]["result"]["scores"]]
                errors[i] = (r.values[d.action] - scores_to_rewards(scores)[d.seat]) ** 2
        res.chosen[spec] = picks
        res.hits[spec] = [a == d.action for a, d in zip(picks, found, strict=True)]
        if search is not None:
            res.errors[spec] = errors
    return res


def _mean_interval(xs: Sequence[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n if n else 0.0
    if n < 2:
        return m, m, m
    half = 1.96 * math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) / math.sqrt(n)
    return m, m - half, m + half


_STRENGTH = "3456789TJQKA2"
"""The ranks' letters from the weakest to the strongest in the normal order."""
_TOP = {False: "2", True: "3"}
"""The strongest rank's letter, by whether the order is reversed (革命 xor 11バック)."""


def daifugo_tags(view: View, action: str) -> tuple[str, list[str]]:
    """A Daifugo play decision's situation (``lead``: an empty table, else ``follow``) and what
    ``action`` spends: ``pass``, or ``play`` with ``joker`` (it uses a joker), ``lone joker``
    and ``top rank`` (a card of the strongest rank of the moment: a 2, or a 3 when the order is
    reversed), ``lowest lone`` (a single card, the weakest of the moment among the ranks the
    hand holds once: shedding from the bottom), for :func:`profile`.

    >>> view = {"table": {"cards": ["AS"]}, "reversed": False}
    >>> daifugo_tags(view, "play JK")
    ('follow', ['play', 'joker', 'lone joker'])
    >>> daifugo_tags(view, "play 2H")
    ('follow', ['play', 'top rank'])
    >>> daifugo_tags({"table": None, "reversed": True}, "play 3S JK")
    ('lead', ['play', 'joker', 'top rank'])
    >>> daifugo_tags(view, "pass")
    ('follow', ['pass'])
    >>> lead = {"table": None, "reversed": False, "hand": ["3C", "3D", "5S", "7H", "JK"]}
    >>> daifugo_tags(lead, "play 5S"), daifugo_tags(lead, "play 7H")[1]
    (('lead', ['play', 'lowest lone']), ['play'])
    """
    situation = "follow" if view.get("table") else "lead"
    words = action.split()
    if words[0] != "play":
        return situation, [words[0]]
    cards = words[1:]
    tags = ["play"]
    jokers = [c for c in cards if c.startswith("JK")]
    if jokers:
        tags.append("joker")
        if len(cards) == 1:
            tags.append("lone joker")
    reversed_ = bool(view.get("reversed"))
    top = _TOP[reversed_]
    if any(c[0] == top for c in cards if not c.startswith("JK")):
        tags.append("top rank")
    if len(cards) == 1 and not jokers:
        held = [c[0] for c in view.get("hand") or [] if not c.startswith("JK")]
        lone = [r for r in held if held.count(r) == 1]
        if lone and cards[0][0] == min(
            lone, key=lambda r: _STRENGTH.index(r) * (-1 if reversed_ else 1)
        ):
            tags.append("lowest lone")
    return situation, tags


def profile(found: Sequence[Decision], actions: Sequence[str]) -> dict[str, int]:
    """How often the Daifugo ``actions`` (one per decision: the recorded ones, or a bot's
    :attr:`AgreementResult.chosen`) spend what :func:`daifugo_tags` names, per situation:
    ``"follow: lone joker"`` counts the follows that played the joker alone, ``"follow"`` all
    follows. Set beside the recorded player's, a bot's profile shows what it does differently
    (one that plays its joker where the player kept it, or keeps its 2s where the player played
    them), which agreement alone does not."""
    counts: dict[str, int] = {}
    for d, action in zip(found, actions, strict=True):
        situation, tags = daifugo_tags(d.view, action)
        for key in (situation, *(f"{situation}: {t}" for t in tags)):
            counts[key] = counts.get(key, 0) + 1
    return counts
