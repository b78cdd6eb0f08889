"""pytest set-up for the whole tree (``pytest --doctest-modules src tests``).

When the mypyc-compiled engine is in use, its modules are extension modules: pytest cannot
collect the doctests of their ``.py`` source in the same process. They are skipped here and
run against the pure-Python build instead by ``tests/test_engine_build.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from torampu import _engine

collect_ignore = (
    [str(_engine.source(m)) for m in _engine.COMPILED] if _engine.MODE == "compiled" else []
)


@pytest.fixture(autouse=True)
def _pages_closed() -> Iterator[None]:
    """After each test, the browser pages it opened are closed (``browser_helpers``)."""
    yield
    helpers = sys.modules.get("browser_helpers")
    if helpers is not None:
        helpers.close_pages()


@pytest.fixture(autouse=True)
def _shared_clock_kept() -> Iterator[None]:
    """After each test, the process's shared clock (:mod:`torampu.web.clock`) as it was: a test
    whose Redis bus measured a machine's clock it had set 40 s ahead left every later test of
    its process stamping stored times 40 s off (a code review)."""
    from torampu.web import clock

    was = clock.offset()
    yield
    clock.set_offset(was)
