"""The terminal front end: ``torampu play``, ``replay``, ``rules``, ``tournament``, ``serve``,
``uecda``, ``train`` (Typer + Rich).

:mod:`torampu.cli.commands` holds the Typer app, the commands and the play loop;
:mod:`torampu.cli.show` what every game shares on screen (cards, reading input, menus, trick lines,
standings); :mod:`torampu.cli.games` a renderer per trick-taking game (Napoleon, Nap, Hell) and
:mod:`torampu.cli.daifugo` Daifugo's; :mod:`torampu.cli.text` the words, in English and Japanese;
:mod:`torampu.cli.tournament`, :mod:`torampu.cli.serve`, :mod:`torampu.cli.uecda` and
:mod:`torampu.cli.train` the commands of those names. The console script ``torampu`` is
:func:`main`.
"""

from __future__ import annotations

from torampu.cli.commands import (
    MENU_MAX,
    TEXT,
    Ctx,
    app,
    console,
    error,
    interpret,
    main,
    match_legal,
    prettify,
    resolve_input,
    show_action,
    show_bid,
    show_card,
    show_cards,
    show_hand,
    show_suit,
)

__all__ = [
    "MENU_MAX",
    "TEXT",
    "Ctx",
    "app",
    "console",
    "error",
    "interpret",
    "main",
    "match_legal",
    "prettify",
    "resolve_input",
    "show_action",
    "show_bid",
    "show_card",
    "show_cards",
    "show_hand",
    "show_suit",
]
