"""pytest set-up for the whole tree (``pytest --doctest-modules src tests``).

When the mypyc-compiled engine is in use, its modules are extension modules: pytest cannot
collect the doctests of their ``.py`` source in the same process. They are skipped here and
run against the pure-Python build instead by ``tests/test_engine_build.py``.
"""

from __future__ import annotations

from torampu import _engine

collect_ignore = (
    [str(_engine.source(m)) for m in _engine.COMPILED] if _engine.MODE == "compiled" else []
)
