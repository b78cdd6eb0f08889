"""PIMC with heuristic playouts: the paired test guards the policy's move; every answer is legal
and reproducible; the bot uses it where ``algorithm`` says."""

from __future__ import annotations

import random
from typing import Any

import pytest

import torampu
from torampu.bots import BotError, make_bot
from torampu.search import sampler_for
from torampu.search.pimc import PolicyRollout, pimc


class Pick:
    """A toy game: seat 0 picks a number; its score is ``value(number, noise)``."""

    def __init__(self, values: list[float], noise: float, seed: int) -> None:
        self.values = values
        self.noise = random.Random(seed).uniform(-noise, noise)
        self.picked: int | None = None

    @property
    def is_over(self) -> bool:
        return self.picked is not None

    @property
    def to_play(self) -> int | None:
        return None if self.is_over else 0

    def legal_moves(self) -> list[int]:
        return list(range(len(self.values)))

    def apply(self, move: int) -> None:
        self.picked = move

    def clone(self) -> Pick:
        g = Pick(self.values, 0.0, 0)
        g.noise, g.picked = self.noise, self.picked
        return g

    def scores(self) -> list[float]:
        assert self.picked is not None
        return [self.values[self.picked] + self.noise * (1 + self.picked)]

    def action_str(self, move: int) -> str:
        return f"pick {move}"


class FirstMove:
    """The base policy of the toy game: always the first move."""

    def move(self, g: Any) -> int:
        return 0

    def finish(self, g: Any) -> None:
        while not g.is_over:
            g.apply(0)


def _sampler(values: list[float], noise: float) -> Any:
    return lambda view, rng: Pick(values, noise, rng.getrandbits(32))


def test_a_clearly_better_move_replaces_the_policys() -> None:
    res = pimc({"seat": 0}, _sampler([0.0, 1.0, 3.0], 0.5), random.Random(1), FirstMove(), 20)  # type: ignore[arg-type]
    assert res.action == "pick 2"
    assert res.iterations == 20
    assert res.visits == {"pick 0": 20, "pick 1": 20, "pick 2": 20}
    assert res.values["pick 2"] == pytest.approx(3.0, abs=0.5)


def test_noise_does_not_replace_the_policys_move() -> None:
    """A move better by far less than the sampling noise is not played, and neither is one that
    is better only after too few samples."""
    noisy = _sampler([0.0, 0.01], 5.0)
    for seed in range(10):
        res = pimc({"seat": 0}, noisy, random.Random(seed), FirstMove(), 30, z=2.0)  # type: ignore[arg-type]
        assert res.action == "pick 0"
    few = pimc({"seat": 0}, _sampler([0.0, 3.0], 0.0), random.Random(1), FirstMove(), 3)  # type: ignore[arg-type]
    assert few.action == "pick 0"  # fewer than min_samples=4


def _position(game: str, phase: str, seed: int, **kw: Any) -> torampu.Game:
    g = torampu.new_game(game, seed=seed, **kw)
    heur = make_bot("heuristic", 0, game)
    while g.phase != phase or len(g.legal_actions()) < 2:
        s = g.to_play
        assert s is not None
        g.play(heur.choose(g.view(s), g.legal_actions()))
    return g


@pytest.mark.parametrize(
    ("game", "phase", "kw"),
    [
        ("nap", "bid", {}),
        ("nap", "play", {}),
        ("hell", "bid", {"cards": 4}),
        ("hell", "play", {"cards": 4}),
        ("napoleon", "bid", {}),
        ("napoleon", "adjutant", {}),
        ("napoleon", "exchange", {}),
        ("napoleon", "play", {}),
    ],
)
def test_pimc_is_legal_reproducible_and_starts_from_the_heuristic(
    game: str, phase: str, kw: dict[str, Any]
) -> None:
    g = _position(game, phase, 3, **kw)
    s = g.to_play
    assert s is not None
    view = g.view(s)
    before = g.to_record()
    runs = [
        pimc(view, sampler_for(game), random.Random(5), PolicyRollout(game), iterations=4)
        for _ in range(2)
    ]
    assert runs[0].action in g.legal_actions()
    assert runs[0].action == runs[1].action and runs[0].values == runs[1].values
    assert g.to_record() == before  # the real game is never touched
    # with an impossible bar, the answer is the heuristic's own
    never = pimc(view, sampler_for(game), random.Random(5), PolicyRollout(game), 4, z=1e9)
    assert never.action == make_bot("heuristic", 0, game).choose(view, g.legal_actions())


def test_the_bot_uses_pimc_where_the_algorithm_says() -> None:
    auto = make_bot("ismcts", 1, "napoleon", samples=2)
    tree = make_bot("ismcts", 1, "napoleon", algorithm="tree")
    everywhere = make_bot("ismcts", 1, "napoleon", algorithm="pimc")
    assert auto.pimc_phases and not tree.pimc_phases  # type: ignore[attr-defined]
    assert everywhere.pimc_phases == {"bid", "adjutant", "exchange", "play"}  # type: ignore[attr-defined]
    assert not make_bot("ismcts", 1, "daifugo").pimc_phases  # type: ignore[attr-defined]
    assert make_bot("ismcts", 1, "daifugo", algorithm="pimc").pimc_phases  # type: ignore[attr-defined]
    g = _position("napoleon", "play", 8)
    s = g.to_play
    assert s is not None
    auto.choose(g.view(s), g.legal_actions())
    assert auto.last_iterations == 2  # type: ignore[attr-defined]  # samples, not tree iterations


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"algorithm": "deep"}, "algorithm must be auto, tree or pimc"),
        ({"samples": 0}, "samples must be a whole number > 0"),
        ({"z": -1}, "z must be a number >= 0"),
        ({"bid_z": "high"}, "bid_z must be a number >= 0"),
        ({"guard": -0.5}, "guard must be a number >= 0"),
        ({"guard": True}, "guard must be a number >= 0"),
        ({"correct": "yes"}, "correct must be true or false"),
        ({"infer_adjutant": 1}, "infer_adjutant must be true or false"),
        ({"unseen_exchange": "maybe"}, "unseen_exchange must be true or false"),
    ],
)
def test_bad_search_options_are_named(options: dict[str, Any], words: str) -> None:
    with pytest.raises(BotError, match=words):
        make_bot("ismcts", 1, "nap", **options)


def test_racing_stops_playing_out_moves_out_of_contention() -> None:
    """A move clearly worse than the policy's, or never different from it, stops being played
    out after ``drop_after`` samples; with ``drop_z=None`` every move gets every sample."""
    worse = pimc({"seat": 0}, _sampler([1.0, 0.0, 2.0], 0.2), random.Random(2), FirstMove(), 30)  # type: ignore[arg-type]
    assert worse.visits == {"pick 0": 30, "pick 1": 8, "pick 2": 30}
    assert worse.action == "pick 2"
    same = pimc({"seat": 0}, _sampler([1.0, 1.0], 0.0), random.Random(2), FirstMove(), 30)  # type: ignore[arg-type]
    assert same.iterations == 8 and same.action == "pick 0"
    full = pimc(
        {"seat": 0},
        _sampler([1.0, 0.0, 2.0], 0.2),
        random.Random(2),
        FirstMove(),  # type: ignore[arg-type]
        30,
        drop_z=None,
    )
    assert set(full.visits.values()) == {30}


def test_the_corrected_bar_switches_less_on_noise() -> None:
    """Among ten alternatives that are all pure noise, the best often clears the bar meant for
    one; with ``correct`` the bar rises with the number of alternatives."""
    noise = _sampler([0.0] * 11, 1.0)

    def switches(correct: bool) -> int:
        return sum(
            pimc({"seat": 0}, noise, random.Random(s), FirstMove(), 10, correct=correct).action  # type: ignore[arg-type]
            != "pick 0"
            for s in range(60)
        )

    plain, corrected = switches(False), switches(True)
    assert corrected < plain


def test_bid_z_is_the_bar_in_the_auction_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bid_z`` replaces ``z`` when the view's phase is ``bid`` and nowhere else; without it
    the auction uses the game's default (Napoleon 2) or else ``z`` (Nap)."""
    import torampu.bots.search as search

    bars: list[tuple[str, float]] = []
    real = search.pimc

    def spy(view: Any, *args: Any, **kw: Any) -> Any:
        bars.append((view["phase"], kw["z"]))
        return real(view, *args, **kw)

    monkeypatch.setattr(search, "pimc", spy)
    strict = make_bot("ismcts", 1, "napoleon", samples=2, z=0.5, bid_z=3)
    plain = make_bot("ismcts", 1, "napoleon", samples=2, z=0.5)
    for phase in ("bid", "play"):
        g = _position("napoleon", phase, 4)
        s = g.to_play
        assert s is not None
        strict.choose(g.view(s), g.legal_actions())
        plain.choose(g.view(s), g.legal_actions())
    assert bars == [("bid", 3.0), ("bid", 2.0), ("play", 0.5), ("play", 0.5)]
    bars.clear()
    nap = make_bot("ismcts", 1, "nap", samples=2, z=0.5)
    g = _position("nap", "bid", 4)
    s = g.to_play
    assert s is not None
    nap.choose(g.view(s), g.legal_actions())
    assert bars == [("bid", 0.5)]
