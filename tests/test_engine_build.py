"""The compiled engine (mypyc, ``setup.py``) against the pure-Python source it is built from.

The Daifugo engine and the modules it needs are compiled by mypyc at install time from the
same source, so the rules keep one definition; these tests check that the two builds agree move
for move, and that the build machinery does what ``torampu._engine`` promises:

* seeded random games and matches under random rules (hypothesis draws the rules as
  ``test_daifugo_properties`` does) give the same digests — every legal move list, every move,
  every view at the start and end of each game, results, standings, a random playout — in this
  process (compiled) and in a ``TORAMPU_PURE=1`` subprocess (pure);
* the doctests of the compiled modules pass on the pure build (pytest cannot collect them
  from an extension module: ``conftest.py`` skips them in the compiled process);
* ``setup.py`` and ``torampu._engine`` list the same modules;
* an edited source makes the compiled build stale: the pure build is used, with a warning.

In CI (``CI`` set) the compiled build must be the one in use: a broken build fails here
instead of silently testing the pure engine twice.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import torampu
from torampu import _engine
from torampu.testing import trace_daifugo

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = {o["name"]: o for o in torampu.rules("daifugo")}
RULE_NAMES = [name for name in OPTIONS if name != "players"]
PRESETS = ["standard", "yaita", "uecda", "uecda-tndhms"]

compiled_only = pytest.mark.skipif(
    _engine.MODE != "compiled", reason=f"the pure engine is in use: {_engine.WHY}"
)


def pure(code: str, stdin: str = "", env: dict[str, str] | None = None) -> str:
    """Run ``code`` in a fresh interpreter on the pure-Python build; its standard output."""
    got = subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "TORAMPU_PURE": "1", **(env or {})},
        check=True,
        timeout=600,
    )
    return got.stdout


def test_the_compiled_build_is_in_use_in_ci() -> None:
    if os.environ.get("CI"):
        assert _engine.MODE == "compiled", _engine.WHY
    import torampu.daifugo

    suffix = Path(torampu.daifugo.__file__ or "").suffix
    assert (suffix == ".py") == (_engine.MODE == "pure")


def test_setup_py_compiles_the_modules_the_loader_knows() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed = [
        ast.literal_eval(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)
    ]
    assert listed == [_engine.COMPILED]


@st.composite
def cases(draw: st.DrawFn) -> dict[str, Any]:
    rules: dict[str, Any] = {"preset": draw(st.sampled_from(PRESETS))}
    for name in RULE_NAMES:
        if draw(st.integers(0, 3)) == 0:
            o = OPTIONS[name]
            if o["type"] == "set":
                rules[name] = draw(st.lists(st.sampled_from(o["values"]), unique=True))
            else:
                rules[name] = draw(st.sampled_from(o["values"]))
    return {
        "rules": rules,
        "players": draw(st.integers(2, 8)),
        "seed": draw(st.integers(0, 2**32)),
        "games": draw(st.sampled_from([1, 1, 1, 3])),
    }


@compiled_only
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(st.lists(cases(), min_size=40, max_size=40))
def test_compiled_and_pure_engines_agree_move_for_move(batch: list[dict[str, Any]]) -> None:
    here = trace_daifugo(batch)
    there = json.loads(
        pure(
            "import json, sys\n"
            "from torampu import _engine\n"
            "from torampu.testing import trace_daifugo\n"
            "assert _engine.MODE == 'pure'\n"
            "print(json.dumps(trace_daifugo(json.load(sys.stdin))))\n",
            stdin=json.dumps(batch),
        )
    )
    differ = [case for case, a, b in zip(batch, here, there, strict=True) if a != b]
    assert not differ, f"the builds disagree on {len(differ)} cases, e.g. {differ[0]}"


SEARCH_CODE = """
import json, random, torampu
from torampu.search import ismcts, rollout_for, sampler_for
out = []
from torampu.learn.daifugo_features import N_KEYS
from torampu.learn.daifugo_policy import Policy, default_policy, make_policy_rollout
tabled = Policy(default_policy().weights, table=[(k % 9 - 4) / 8 for k in range(N_KEYS)])
for name, rules, seed, learned in json.loads(input()):
    g = torampu.new_game(name, rules, seed=seed)
    pol = tabled if learned == "table" else default_policy()
    rollout = make_policy_rollout(pol) if learned else rollout_for(name)
    prior = pol.prior if learned else None
    r = ismcts(g.view(g.to_play), sampler_for(name), random.Random(seed), iterations=150,
               rollout=rollout, prior=prior)
    out.append([r.action, r.visits, {k: round(v, 9) for k, v in r.values.items()}])
print(json.dumps(out))
"""


@compiled_only
def test_compiled_and_pure_searches_agree() -> None:
    """The tree (``search/ismcts.py``, compiled too) makes the same search on both builds:
    the same move, visits and values from the same seed, in Daifugo and in the other games,
    and in Daifugo with the learned policy (``learn/daifugo_features.py`` and
    ``learn/daifugo_policy.py``, compiled too) as the rollout and the prior, with and without a
    table of key weights."""
    cases = (
        [["daifugo", p, s, False] for p in ("standard", "yaita", "uecda") for s in (1, 2)]
        + [
            ["daifugo", p, 4, True]
            for p in ("standard", "uecda")  # the learned policy (compiled)
        ]
        + [["daifugo", "uecda", 5, "table"]]
        + [
            ["napoleon", None, 3, False],
            ["hell", None, 3, False],
            ["nap", None, 3, False],
        ]
    )
    here = subprocess.run(
        [sys.executable, "-c", SEARCH_CODE],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    assert json.loads(here) == json.loads(pure(SEARCH_CODE, stdin=json.dumps(cases)))


def test_the_two_builds_give_the_preset_games_their_known_course() -> None:
    """The same seeded games in this process and on the pure build (whichever this one is)."""
    batch = [
        {"rules": p, "players": n, "seed": s, "games": 2}
        for p in PRESETS
        for n in (3, 5)
        for s in (1, 2)
    ]
    here = trace_daifugo(batch)
    code = (
        "import json, sys\nfrom torampu.testing import trace_daifugo\n"
        "print(json.dumps(trace_daifugo(json.load(sys.stdin))))\n"
    )
    assert json.loads(pure(code, stdin=json.dumps(batch))) == here


@compiled_only
def test_doctests_of_the_compiled_modules_pass_on_the_pure_build() -> None:
    files = [str(_engine.source(m)) for m in _engine.COMPILED]
    got = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--doctest-modules",
            *files,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TORAMPU_PURE": "1"},
        timeout=600,
    )
    assert got.returncode == 0, got.stdout[-3000:]
    assert " passed" in got.stdout


def test_an_edited_source_makes_the_compiled_build_stale(tmp_path: Path) -> None:
    """A copy of the installed package whose engine source is edited after the build."""
    pkg = Path(_engine.__file__).resolve().parent
    if not _engine.HASHES.exists():
        pytest.skip("no compiled build here to make stale")
    import shutil

    copy = tmp_path / "torampu"
    shutil.copytree(pkg, copy, ignore=shutil.ignore_patterns("__pycache__", "web", "static"))
    shared = [p for p in pkg.parent.glob("*__mypyc*")]
    for p in shared:
        shutil.copy(p, tmp_path / p.name)
    src = copy / "daifugo_plays.py"
    src.write_text(src.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")

    def run(code: str) -> str:
        got = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(tmp_path), "TORAMPU_PURE": ""},
            timeout=120,
        )
        return got.stdout + got.stderr

    out = run(
        "import warnings\nwarnings.simplefilter('error')\n"
        "try:\n    import torampu._engine\nexcept Warning as w:\n    print('WARNED', w)\n"
    )
    assert "WARNED" in out, out
    assert "torampu.daifugo_plays" in out
    assert "pip install -e ." in out
    out = run(
        "import warnings\nwarnings.simplefilter('ignore')\n"
        "import torampu, torampu.daifugo as d\nfrom torampu import _engine\n"
        "print(_engine.MODE, d.__file__)\n"
    )
    mode, where = out.split()
    assert mode == "pure"
    assert where == str(copy / "daifugo.py")


def attributes(obj: object) -> dict[str, Any]:
    """Every attribute set on ``obj``: a compiled class's fields and its ``__dict__``."""
    out = dict(getattr(obj, "__dict__", {}))
    for name in getattr(type(obj), "__mypyc_attrs__", ()):
        if name != "__dict__" and hasattr(obj, name):
            out[name] = getattr(obj, name)
    return out


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(PRESETS),
    st.integers(2, 8),
    st.integers(0, 2**32),
    st.integers(0, 300),
    st.integers(1, 3),
)
def test_clone_copies_every_attribute(
    preset: str, players: int, seed: int, steps: int, games: int
) -> None:
    """Daifugo.clone() lists its attributes one by one (fast when compiled): none forgotten,
    the mutable lists copied, and the clone plays on exactly as the original."""
    import random

    m = torampu.new_match("daifugo", preset, players=players, games=games, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.is_over:
            break
        moves = m.game.legal_moves()
        m.apply(moves[int(rng.random() * len(moves))])
    g = m.game
    c = g.clone()
    mine, theirs = attributes(g), attributes(c)
    assert set(mine) == set(theirs)
    assert mine == theirs
    for name in type(g)._copied:  # the lists a game changes; the rest is never mutated
        assert theirs[name] is not mine[name], name
    while not g.is_over:
        moves = g.legal_moves()
        assert c.legal_moves() == moves
        move = moves[int(rng.random() * len(moves))]
        g.apply(move)
        c.apply(move)
    assert c.result() == g.result()
