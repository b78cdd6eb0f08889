"""Exceptions. Every one is a :class:`ValueError`, so callers may catch broadly or precisely."""

from __future__ import annotations


class TorampuError(ValueError):
    """Base class of every error torampu raises about its input."""


class CardError(TorampuError):
    """A card or a list of cards could not be parsed."""


class RulesError(TorampuError):
    """An unknown option, a bad value, or a contradictory combination of options.

    Raised before any card is dealt; the message names the option.
    """


class IllegalAction(TorampuError):
    """An action that is not legal now. The game is left exactly as it was."""


class RecordError(TorampuError):
    """A record that is malformed (not an illegal step: that is :class:`IllegalAction`)."""


class DealError(TorampuError):
    """A fixed deal that does not fit the rules (wrong sizes, unknown or repeated cards)."""
