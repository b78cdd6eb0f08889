"""Which build of the engine runs: compiled by mypyc, or the pure-Python source.

``pip install`` compiles the modules in :data:`COMPILED` with mypyc (``setup.py``; the same
source, so the rules have one definition) and records each source's sha256 beside them in
``_compiled.json``. This module is imported first by :mod:`torampu`, and decides:

* ``TORAMPU_PURE=1`` in the environment: the pure-Python source (the tests compare the two
  builds move for move this way; benchmarks print both);
* a compiled build whose recorded sources differ from the ``.py`` files beside it (an editable
  install edited since it was built): the pure source, with a warning naming the edited module
  (``pip install -e .`` builds it again);
* otherwise the compiled modules where they exist (``TORAMPU_COMPILE=0`` at install time, or a
  platform without a C compiler, leaves only the source).

All of :data:`COMPILED` are loaded from the same build, never a mix: the compiled modules call
each other natively. :data:`MODE` says which one is in use: ``"compiled"`` or ``"pure"``, and
:data:`WHY` why it is pure.

>>> from torampu import _engine
>>> _engine.MODE in ("compiled", "pure")
True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

COMPILED: Final = (
    "torampu.cards",
    "torampu.daifugo_plays",
    "torampu.daifugo",
    "torampu.search.daifugo_sampler",
    "torampu.search.ismcts",
    "torampu.learn.daifugo_features",
    "torampu.learn.daifugo_policy",
    "torampu.learn.daifugo_adapt",
)
"""The modules ``setup.py`` compiles (keep the two lists in step; a test checks it)."""

PACKAGE: Final = Path(__file__).resolve().parent
HASHES: Final = PACKAGE / "_compiled.json"


def source(module: str) -> Path:
    """The ``.py`` file of a module: ``torampu.search.x`` -> ``…/torampu/search/x.py``."""
    return PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def _compiled_file(module: str) -> Path | None:
    stem = PACKAGE.joinpath(*module.split(".")[1:])
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        p = stem.with_name(stem.name + suffix)
        if p.exists():
            return p
    return None


def _decide() -> tuple[str, str]:
    """``(mode, why)``."""
    if os.environ.get("TORAMPU_PURE", "") not in ("", "0"):
        return "pure", "TORAMPU_PURE is set"
    built = [m for m in COMPILED if _compiled_file(m) is not None]
    if not built:
        return "pure", "no compiled build is installed"
    if len(built) != len(COMPILED):
        missing = sorted(set(COMPILED) - set(built))
        return "pure", f"the compiled build lacks {', '.join(missing)}"
    try:
        recorded = json.loads(HASHES.read_text(encoding="utf-8"))["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return "pure", f"{HASHES.name} is missing or unreadable"
    stale = [
        m for m in COMPILED if recorded.get(m) != hashlib.sha256(source(m).read_bytes()).hexdigest()
    ]
    if stale:
        return "pure", (
            f"the compiled build is older than the source of {', '.join(stale)}; "
            "run `pip install -e .` again to rebuild it"
        )
    return "compiled", ""


class _PureFinder(importlib.abc.MetaPathFinder):
    """Loads the modules of :data:`COMPILED` from their ``.py`` source."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, source(fullname))


MODE, WHY = _decide()
if MODE == "pure" and any(_compiled_file(m) is not None for m in COMPILED):
    # torampu/__init__ imports this module first, so none of them is loaded yet
    sys.meta_path.insert(0, _PureFinder())
    if "older than the source" in WHY:
        warnings.warn(f"torampu runs its pure-Python engine: {WHY}", stacklevel=2)
