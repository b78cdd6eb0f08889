"""Build hook: compile the Daifugo engine with mypyc (the same source, one definition of the
rules), unless TORAMPU_COMPILE=0 or no C compiler can be used.

The compiled modules are listed in ``torampu/_engine.py`` (``COMPILED``); that module also
records which build is in use and falls back to the pure-Python source when the compiled one
is older than its source, or when ``TORAMPU_PURE=1`` asks for it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
# keep in step with torampu._engine.COMPILED (a test checks it)
COMPILED = (
    "torampu.cards",
    "torampu.daifugo_plays",
    "torampu.daifugo",
    "torampu.search.daifugo_sampler",
    "torampu.search.ismcts",
    "torampu.learn.daifugo_features",
    "torampu.learn.daifugo_policy",
    "torampu.learn.daifugo_adapt",
)
HASHES = "torampu/_compiled.json"


def _source(module: str) -> Path:
    return SRC / (module.replace(".", "/") + ".py")


class BuildWithHashes(build_ext):
    """build_ext that also writes ``torampu/_compiled.json``: the sha256 of each compiled
    module's source, so that an editable install can tell when an edit made it stale."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, BaseError, OSError) as e:  # no usable C compiler
            print(f"torampu: the engine could not be compiled ({e}); the pure-Python engine runs")
            return
        digests = {m: hashlib.sha256(_source(m).read_bytes()).hexdigest() for m in COMPILED}
        base = SRC if self.inplace else Path(self.build_lib)
        out = base / HASHES
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"python": sys.version, "modules": digests}, indent=1) + "\n")

    def get_outputs(self) -> list[str]:
        return [*super().get_outputs(), str(Path(self.build_lib) / HASHES)]


def _extensions() -> list[object]:
    if os.environ.get("TORAMPU_COMPILE", "1") == "0":
        print("torampu: TORAMPU_COMPILE=0, installing the pure-Python engine only")
        return []
    from mypyc.build import mypycify

    return list(
        mypycify(
            [str(_source(m)) for m in COMPILED],
            opt_level="3",
            debug_level="0",
            target_dir=str(HERE / "build" / "mypyc"),
        )
    )


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildWithHashes})
