"""Rule options: named, typed, validated, with presets.

Every game declares its options as :class:`Option` values in a :class:`RuleSpec`. A user gives a
preset name or a dict (``{"preset": "classic", "jokers": 1}``); :meth:`RuleSpec.resolve` returns
every option resolved to a JSON-safe value, or raises :class:`~torampu.errors.RulesError` naming
the option at fault.

>>> spec = RuleSpec("demo", [Option("n", "int", (1, 2, 3), "a number")], {"base": {}}, "base")
>>> spec.resolve({"n": 2})
{'n': 2}
>>> spec.resolve({"m": 2})
Traceback (most recent call last):
...
torampu.errors.RulesError: unknown option 'm' for demo (options: n)
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from torampu.cards import card_str, parse_card
from torampu.errors import CardError, RulesError

Kind = Literal["int", "bool", "choice", "cards", "set", "pair"]
Rules = dict[str, Any]
"""Resolved rules: every option of a game by name, JSON-safe."""


@dataclass(frozen=True)
class Option:
    """One named rule option.

    ``values`` lists the allowed values for ``int``, ``bool`` and ``choice`` options (the first is
    the default unless ``default`` is given); for ``set`` options it lists the allowed members.
    ``cards`` options hold a list of card strings.
    """

    name: str
    kind: Kind
    values: tuple[Any, ...]
    description: str
    default: Any = None
    source: str = ""

    @property
    def default_value(self) -> Any:
        if self.default is not None:
            return self.default
        if self.kind in ("cards", "set"):
            return []
        if self.kind == "pair":
            return list(self.values[0])
        return self.values[0]

    def check(self, game: str, value: Any) -> Any:
        """The value, normalized, or :class:`RulesError` naming the option."""
        where = f"option {self.name!r} of {game}"
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RulesError(f"{where} takes true or false, not {_brief(value)}")
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) or value not in self.values:
                raise RulesError(f"{where} takes one of {_show(self.values)}, not {_brief(value)}")
            return value
        if self.kind == "choice":
            if value not in self.values or isinstance(value, bool):
                raise RulesError(f"{where} takes one of {_show(self.values)}, not {_brief(value)}")
            return value
        if self.kind == "pair":
            if (
                not isinstance(value, list | tuple)
                or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            ):
                raise RulesError(
                    f"{where} takes a pair [win, loss] of whole numbers, not {_brief(value)}"
                )
            return [int(value[0]), int(value[1])]
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        if not isinstance(value, list | tuple):
            raise RulesError(f"{where} takes a list, not {_brief(value)}")
        if self.kind == "cards":
            try:
                cards = [parse_card(str(v)) for v in value]
            except CardError as e:
                raise RulesError(f"{where}: {e}") from None
            if len(set(cards)) != len(cards):
                raise RulesError(f"{where} names a card twice")
            return [card_str(c) for c in sorted(cards)]
        out = []
        for v in value:
            norm = str(v).upper() if isinstance(v, str) else str(v)
            if norm not in self.values:
                raise RulesError(f"{where} takes members of {_show(self.values)}, not {_brief(v)}")
            if norm not in out:
                out.append(norm)
        return sorted(out, key=self.values.index)

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe description, as listed by :func:`torampu.rules`."""
        return {
            "name": self.name,
            "type": self.kind,
            "values": list(self.values),
            "default": self.default_value,
            "description": self.description,
            "source": self.source,
        }


_BRIEF = reprlib.Repr()  # (its keyword arguments are 3.12's)
_BRIEF.maxlevel, _BRIEF.maxlist, _BRIEF.maxtuple, _BRIEF.maxdict = 3, 8, 8, 6
_BRIEF.maxstring, _BRIEF.maxother, _BRIEF.maxlong = 60, 60, 40


def _brief(value: object) -> str:
    """``repr(value)``, cut short: an error names what it refused without echoing a client's
    64 KiB back (a fortieth audit: 900 list items, each in the message).

    >>> _brief([1] * 900), _brief("a" * 500)[:12], len(_brief("a" * 500))
    ('[1, 1, 1, 1, 1, 1, 1, 1, ...]', "'aaaaaaaaaaa", 60)
    """
    return _BRIEF.repr(value)


def _show(values: Sequence[Any]) -> str:
    return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)


@dataclass(frozen=True)
class RuleSpec:
    """The options and presets of one game, and the check for contradictory combinations."""

    game: str
    options: Sequence[Option]
    presets: Mapping[str, Mapping[str, Any]]
    default_preset: str
    check: Callable[[Rules], None] = field(default=lambda rules: None)
    preset_notes: Mapping[str, str] = field(default_factory=dict)
    derived: Mapping[str, str] = field(default_factory=dict)
    refine: Callable[[str, frozenset[str], Rules], None] = field(default=lambda p, g, r: None)
    """Adjusts resolved rules in place from the preset's name and the option names given
    explicitly (not by the preset), before :attr:`check`: a preset's default that depends on
    another option, e.g. Napoleon's ``classic`` showing a 4-player game's discards."""
    _cache: dict[Any, Rules] = field(default_factory=dict, compare=False, repr=False)

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise RulesError(f"unknown option {_brief(name)} for {self.game}")

    def resolve(self, rules: str | Mapping[str, Any] | None = None, **overrides: Any) -> Rules:
        """Resolve a preset name or dict of options (key ``preset`` + overrides).

        Keyword ``overrides`` whose value is ``None`` are ignored (e.g. ``players=None``).
        """
        if rules is None or isinstance(rules, str):
            given_over = tuple(sorted((k, v) for k, v in overrides.items() if v is not None))
            if all(isinstance(v, int | str) for _, v in given_over):
                key = (rules, given_over)
                cached = self._cache.get(key)
                if cached is None:
                    base: dict[str, Any] = {} if rules is None else {"preset": rules}
                    cached = self._cache[key] = self._resolve(base | dict(given_over))
                return dict(cached)
        return self._resolve(rules, **overrides)

    def _resolve(self, rules: str | Mapping[str, Any] | None = None, **overrides: Any) -> Rules:
        if rules is None:
            given: dict[str, Any] = {}
        elif isinstance(rules, str):
            given = {"preset": rules}
        elif isinstance(rules, Mapping):
            given = dict(rules)
        else:
            raise RulesError(
                f"rules must be a preset name or a dict of options, not {_brief(rules)}"
            )
        preset = given.pop("preset", self.default_preset)
        if not isinstance(preset, str) or preset not in self.presets:
            presets = ", ".join(self.presets)
            raise RulesError(
                f"unknown preset {_brief(preset)} for {self.game} (presets: {presets})"
            )
        for k, v in overrides.items():
            if v is not None:
                given[k] = v
        names = [o.name for o in self.options]
        resolved: Rules = {o.name: o.default_value for o in self.options}
        for source in (self.presets[preset], given):
            for k, v in source.items():
                if k not in names:
                    if k in self.derived:
                        raise RulesError(
                            f"option {_brief(k)} of {self.game} is derived ({self.derived[k]}); "
                            "it cannot be set"
                        )
                    raise RulesError(
                        f"unknown option {_brief(k)} for {self.game} (options: {', '.join(names)})"
                    )
                resolved[k] = self.option(k).check(self.game, v)
        self.refine(preset, frozenset(given), resolved)
        self.check(resolved)
        return resolved

    def table(self) -> list[dict[str, Any]]:
        """Every option as a JSON-safe dict (see :meth:`Option.as_dict`)."""
        return [o.as_dict() for o in self.options]
