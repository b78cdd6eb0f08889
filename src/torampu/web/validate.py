"""Checking what clients send before anything else looks at it.

Every HTTP body and websocket message is parsed by :func:`parse_object`: JSON, an object at the
top, at most :data:`MAX_DEPTH` levels deep, every string valid Unicode text (no lone surrogate —
it cannot be stored or encoded — and no NUL, which PostgreSQL refuses), every integer within a
64-bit range. Display names go through :func:`display_name`; table ids through
:func:`table_id`. Each raises :class:`Invalid` with a message that names the problem, which the
server turns into a 400 (HTTP) or an ``error`` message (websocket) that changes nothing.

>>> parse_object('{"name": "Aki", "seat": 2}')
{'name': 'Aki', 'seat': 2}
>>> parse_object('[' * 100 + ']' * 100)
Traceback (most recent call last):
...
torampu.web.validate.Invalid: the JSON is nested more than 16 levels deep
>>> parse_object('{"name": "\\\\ud800"}')
Traceback (most recent call last):
...
torampu.web.validate.Invalid: name: a string holds a lone surrogate (not valid Unicode text)
>>> display_name("  Aki  ", 40)
'Aki'
>>> display_name("a\\x00b", 40)
Traceback (most recent call last):
...
torampu.web.validate.Invalid: name must not hold control characters
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from torampu.errors import TorampuError

MAX_DEPTH = 16
"""The deepest JSON nesting a client may send (real messages use 3)."""
INT_BOUND = 2**63
"""Integers a client sends must lie strictly within ±2**63."""
TABLE_ID = re.compile(r"^[A-Za-z0-9]{1,32}$")


class Invalid(TorampuError):
    """Malformed input (the message names what is wrong)."""


def parse_object(raw: str | bytes) -> dict[str, Any]:
    """The JSON object in ``raw``, checked (see the module docstring)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Invalid("the body is not UTF-8 text") from None
    if _depth(raw) > MAX_DEPTH:
        raise Invalid(f"the JSON is nested more than {MAX_DEPTH} levels deep")
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:  # pragma: no cover - _depth refuses these first
        raise Invalid(f"the JSON is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as e:
        raise Invalid(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise Invalid("the JSON must be an object ({…})")
    _check(data, "")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _depth(raw: str) -> int:
    """The deepest bracket nesting of ``raw``, outside strings (an upper bound on the JSON's)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def _check(value: Any, where: str) -> None:
    if isinstance(value, str):
        _text(value, where)
    elif isinstance(value, bool) or value is None or isinstance(value, float):
        return
    elif isinstance(value, int):
        if not -INT_BOUND < value < INT_BOUND:
            raise Invalid(f"{where or 'a number'}: {value} is out of range")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check(v, f"{where}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            _text(k, where or "a key")
            _check(v, f"{where}.{k}" if where else k)


def _text(s: str, where: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise Invalid(
            f"{where or 'a string'}: a string holds a lone surrogate (not valid Unicode text)"
        ) from None
    if "\x00" in s:
        raise Invalid(f"{where or 'a string'}: a string holds a NUL character")


def display_name(value: Any, max_length: int) -> str:
    """A player's display name: text of 1 to ``max_length`` characters after trimming, NFC
    normalized, without control characters."""
    if not isinstance(value, str):
        raise Invalid(f"name must be text of 1 to {max_length} characters")
    name = unicodedata.normalize("NFC", value.strip())
    if not name or len(name) > max_length:
        raise Invalid(f"name must be 1 to {max_length} characters")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise Invalid("name must not hold control characters")
    return name


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them (a chat line could pass for another)."""


def chat_text(value: Any, max_length: int) -> str:
    """A chat message: text of 1 to ``max_length`` characters after trimming, NFC normalized,
    without control characters (line breaks included) or bidirectional overrides.

    >>> chat_text("  <b>ナイス</b>  ", 200)
    '<b>ナイス</b>'
    >>> chat_text("a\\u202eb", 200)
    Traceback (most recent call last):
    ...
    torampu.web.validate.Invalid: a chat message must not hold control characters
    """
    if not isinstance(value, str):
        raise Invalid(f"a chat message is text of 1 to {max_length} characters")
    text = unicodedata.normalize("NFC", value.strip())
    if not text or len(text) > max_length:
        raise Invalid(f"a chat message is 1 to {max_length} characters")
    if any(unicodedata.category(c) in ("Cc", "Cs") or c in BIDI_CONTROLS for c in text):
        raise Invalid("a chat message must not hold control characters")
    return text


def table_id(value: str) -> str:
    """A table id as the server makes them (letters and digits), else :class:`Invalid`."""
    if not TABLE_ID.match(value):
        raise Invalid("a table id is 1 to 32 letters and digits")
    return value


def whole(value: Any, name: str, low: int, high: int) -> int | None:
    """``None``, or a whole number from ``low`` to ``high`` (else :class:`Invalid`)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Invalid(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value
