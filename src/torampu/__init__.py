"""torampu: Japanese house-rule card games — a pure rules engine, bots and front ends.

>>> import torampu
>>> g = torampu.new_game("napoleon", rules="house-001", seed=7)
>>> g.phase, g.to_play
('bid', 1)
>>> g.play("pass")
>>> rec = g.to_record()
>>> torampu.replay(rec).to_record() == rec
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from torampu import _engine  # noqa: F401  (first: chooses the compiled or the pure engine)
from torampu.daifugo import SPEC as DAIFUGO_SPEC
from torampu.daifugo import Daifugo, DaifugoMatch
from torampu.errors import (
    CardError,
    DealError,
    IllegalAction,
    RecordError,
    RulesError,
    TorampuError,
)
from torampu.game import Game, check_record_header, new_seed
from torampu.hell import SPEC as HELL_SPEC
from torampu.hell import Hell, HellMatch
from torampu.match import Match, NapoleonMatch
from torampu.nap import SPEC as NAP_SPEC
from torampu.nap import Nap, NapMatch
from torampu.napoleon import SPEC as NAPOLEON_SPEC
from torampu.napoleon import Napoleon
from torampu.options import RuleSpec
from torampu.options_en import (
    DESCRIPTIONS_EN,
    MEMBERS_EN,
    PRESET_NAMES_EN,
    PRESET_NOTES_EN,
    VALUES_EN,
    option_en,
)
from torampu.options_ja import MEMBERS_JA, PRESETS_JA, VALUES_JA, option_ja

__all__ = [
    "CardError",
    "DealError",
    "Game",
    "IllegalAction",
    "Match",
    "RecordError",
    "RulesError",
    "TorampuError",
    "games",
    "new_game",
    "new_match",
    "presets",
    "replay",
    "replay_match",
    "rules",
]
__version__ = "0.1.0"

_GAMES: dict[str, tuple[RuleSpec, Any, type[Match]]] = {
    "napoleon": (NAPOLEON_SPEC, Napoleon, NapoleonMatch),
    "nap": (NAP_SPEC, Nap, NapMatch),
    "hell": (HELL_SPEC, Hell, HellMatch),
    "daifugo": (DAIFUGO_SPEC, Daifugo, DaifugoMatch),
}


def games() -> list[str]:
    """The names of the games torampu plays."""
    return list(_GAMES)


def _lookup(game: str) -> tuple[RuleSpec, Any, type[Match]]:
    if not isinstance(game, str) or game not in _GAMES:
        raise RulesError(f"unknown game {game!r} (games: {', '.join(_GAMES)})")
    return _GAMES[game]


def new_game(
    game: str,
    rules: str | Mapping[str, Any] | None = None,
    players: int | None = None,
    seed: int | None = None,
    deal: Mapping[str, Any] | None = None,
    dealer: int = 0,
    **extra: Any,
) -> Game:
    """A new game. ``rules`` is a preset name or a dict (``preset`` + overrides).

    ``extra`` takes game-specific arguments (Napoleon: ``first_bidder``). Unknown options, bad
    values and contradictory combinations raise :class:`RulesError` before any card is dealt.
    """
    spec, cls, _ = _lookup(game)
    for key in extra:
        if key not in cls.extra_args:
            allowed = ", ".join(cls.extra_args) or "none"
            raise RulesError(f"unknown argument {key!r} for {game} (game arguments: {allowed})")
    resolved = spec.resolve(rules, players=players)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RulesError(f"seed must be an int, not {seed!r}")
    g: Game = cls(resolved, new_seed() if seed is None else seed, deal, dealer, **extra)
    return g


def new_match(
    game: str,
    rules: str | Mapping[str, Any] | None = None,
    players: int | None = None,
    games: int | None = None,
    seed: int | None = None,
    dealer: int = 0,
    duplicate: int = 1,
    seeding: str = "stream",
) -> Match:
    """A match of ``games`` games with cumulative scores, the deal moving on each game.

    ``games`` defaults per game: Napoleon 5 (001: "about 5"); Hell the whole series 1..max..1.
    ``duplicate`` (Daifugo only; 1 = off): each deal played that many times, the hands moved one
    seat on each time (see :class:`torampu.daifugo.DaifugoMatch`); a ``ValueError`` names what
    it needs. ``seeding``: how each game's seed follows from ``seed`` — ``"stream"`` (drawn
    one after another) or ``"keyed"`` (a hash of the seed and the game's number: earlier games'
    seeds tell nothing of later ones'; see :mod:`torampu.match`).
    """
    spec, cls, match_cls = _lookup(game)
    resolved = spec.resolve(rules, players=players)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RulesError(f"seed must be an int, not {seed!r}")
    # (checked here for every game: the compiled Daifugo match's own signature would refuse a
    # string with a TypeError about C types)
    if games is not None and (not isinstance(games, int) or isinstance(games, bool) or games < 1):
        raise ValueError(f"games must be a whole number ≥ 1, not {games!r}")
    seed = new_seed() if seed is None else seed
    if match_cls is DaifugoMatch:  # it checks ``duplicate``
        return DaifugoMatch(
            game, cls, resolved, games, seed, dealer, duplicate=duplicate, seeding=seeding
        )
    if duplicate != 1 or isinstance(duplicate, bool):
        raise ValueError(f"duplicate deals are a Daifugo match option, not one of {game}")
    return match_cls(game, cls, resolved, games, seed, dealer, seeding)


def rules(game: str) -> list[dict[str, Any]]:
    """Every option of ``game``: name, type, allowed values, default, description (the
    developers' note, with option names and rule sources), source; for players a short English
    ``label`` and an explanation ``description_en`` (:mod:`torampu.options_en`); in Japanese
    ``label_ja`` and ``description_ja`` (:mod:`torampu.options_ja`). A ``choice`` or ``set``
    option also has ``values_en`` and ``values_ja``: each value's (member's) text, keyed by
    ``str(value)``.

    >>> import torampu
    >>> o = next(o for o in torampu.rules("napoleon") if o["name"] == "all_pass")
    >>> o["label"], o["values_en"]["redeal"], o["label_ja"]
    ('If everyone passes', 'Deal again', '全員パスのとき')
    >>> o["description_en"].startswith("What happens when everyone passes")
    True
    """
    out = _lookup(game)[0].table()
    for o in out:
        o["label"] = option_en(game, o["name"])
        o["description_en"] = DESCRIPTIONS_EN.get(game, {}).get(o["name"], o["description"])
        o["label_ja"], o["description_ja"] = option_ja(game, o["name"])
        if o["type"] in ("choice", "set"):
            table_en, table_ja = (
                (VALUES_EN, VALUES_JA) if o["type"] == "choice" else (MEMBERS_EN, MEMBERS_JA)
            )
            en = table_en.get(game, {}).get(o["name"], {})
            ja = table_ja.get(game, {}).get(o["name"], {})
            o["values_en"] = {str(v): en.get(str(v), str(v)) for v in o["values"]}
            o["values_ja"] = {str(v): ja.get(str(v), str(v)) for v in o["values"]}
    return out


def presets(game: str) -> dict[str, dict[str, Any]]:
    """The presets of ``game``: name -> {"options": overrides of the defaults, "note": … (the
    developers'), "name_en": … and "note_en": … (for players), "name_ja": …, "note_ja": …}."""
    spec = _lookup(game)[0]
    ja = PRESETS_JA[game]
    return {
        name: {
            "options": dict(opts),
            "note": spec.preset_notes.get(name, ""),
            "name_en": PRESET_NAMES_EN.get(game, {}).get(name, name),
            "note_en": PRESET_NOTES_EN.get(game, {}).get(name, spec.preset_notes.get(name, "")),
            "name_ja": ja[name][0] if name in ja else name,
            "note_ja": ja[name][1] if name in ja else spec.preset_notes.get(name, ""),
        }
        for name, opts in spec.presets.items()
    }


def _game_args(cls: type[Game], record: Mapping[str, Any]) -> dict[str, Any]:
    return {key: record[key] for key in cls.extra_args if key in record}


def replay(record: Mapping[str, Any]) -> Game:
    """The game at the end of a record. Raises :class:`RecordError` for a malformed record and
    :class:`IllegalAction` (naming the step) at the first illegal action."""
    check_record_header(record)
    if record.get("match"):
        raise RecordError("this is a match record: use torampu.replay_match")
    spec, cls, _ = _lookup(record["game"])
    try:
        resolved = spec.resolve(record["rules"])
    except RulesError as e:
        raise RecordError(f"record rules: {e}") from None
    seed = record["seed"]
    if not isinstance(seed, int):
        raise RecordError(f"record seed must be an int, not {seed!r}")
    g: Game = cls(
        resolved, seed, record.get("deal"), record.get("dealer", 0), **_game_args(cls, record)
    )
    _replay_actions(g, record.get("actions", []))
    return g


def _replay_actions(g: Game | Match, actions: Any) -> None:
    if not isinstance(actions, list):
        raise RecordError("record 'actions' must be a list")
    for i, step in enumerate(actions):
        if not isinstance(step, Mapping) or "action" not in step:
            raise RecordError(f"action {i} must be {{'seat': s, 'action': '...'}}, not {step!r}")
        seat = step.get("seat")
        if seat is not None and seat != g.to_play:
            raise IllegalAction(f"step {i}: seat {seat} acts, but it is seat {g.to_play}'s turn")
        try:
            g.play(step["action"])
        except IllegalAction as e:
            raise IllegalAction(f"step {i}: {e}") from None


def replay_match(record: Mapping[str, Any]) -> Match:
    """The match at the end of a match record (see :func:`replay`)."""
    check_record_header(record)
    if not record.get("match"):
        raise RecordError("this is a single-game record: use torampu.replay")
    _lookup(record["game"])
    if not isinstance(record["seed"], int) or isinstance(record["seed"], bool):
        raise RecordError(f"match seed must be an int, not {record['seed']!r}")
    try:
        m = new_match(
            record["game"],
            record["rules"],
            games=record.get("games"),
            seed=record["seed"],
            dealer=record.get("dealer", 0),
            duplicate=record.get("duplicate", 1),
            seeding=record.get("seeding", "stream"),
        )
    except (RulesError, ValueError, KeyError) as e:
        raise RecordError(f"bad match record: {e}") from None
    games_in = record.get("records", [])
    if not isinstance(games_in, list):
        raise RecordError("match 'records' must be a list")
    for i, game_rec in enumerate(games_in):
        if not isinstance(game_rec, Mapping):
            raise RecordError(f"game {i} of the match record must be an object, not {game_rec!r}")
        if m.is_over:
            raise RecordError(f"match record has more than {m.games_total} games")
        if game_rec.get("seed") != m.game.seed:
            raise RecordError(f"game {i}: seed does not follow from the match seed")
        try:
            _replay_actions(m, game_rec.get("actions", []))
        except IllegalAction as e:
            raise IllegalAction(f"game {i}, {e}") from None
    return m
