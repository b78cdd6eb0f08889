"""The ``ismcts`` option ``worlds``: how many determinizations a Daifugo search deals per
decision before it cycles through them again."""

from __future__ import annotations

import random

import pytest

from test_daifugo_opponents import _mid_game
from torampu.bots import BotError, make_bot
from torampu.bots.search import DEFAULT_WORLDS, IsmctsBot
from torampu.daifugo import Daifugo


def _deals(bot: IsmctsBot, g: Daifugo, draws: int) -> set[tuple[int, ...]]:
    """The distinct deals of the others' hands among ``draws`` of the bot's samples."""
    view = g.view(g.to_play)
    rng = random.Random(0)
    seen = set()
    for _ in range(draws):
        s = bot.sampler(view, rng)
        assert isinstance(s, Daifugo)
        seen.add(tuple(s.hands))
    return seen


@pytest.mark.parametrize(("worlds", "expected"), [(3, 3), (40, 40)])
def test_the_search_deals_that_many_worlds_then_cycles(worlds: int, expected: int) -> None:
    g = _mid_game(5)
    bot = make_bot("ismcts", seed=1, game="daifugo", iterations=50, worlds=worlds)
    assert isinstance(bot, IsmctsBot)
    assert len(_deals(bot, g, 120)) == expected
    assert bot.choose(g.view(g.to_play), g.legal_actions()) in g.legal_actions()


def test_the_default_and_belief_keep_their_pool_size() -> None:
    g = _mid_game(6)
    plain = make_bot("ismcts", seed=1, game="daifugo")
    assert isinstance(plain, IsmctsBot)
    assert len(_deals(plain, g, 4 * DEFAULT_WORLDS)) == DEFAULT_WORLDS
    weighted = make_bot("ismcts", seed=1, game="daifugo", belief=True, worlds=5)
    assert isinstance(weighted, IsmctsBot)
    assert len(_deals(weighted, g, 100)) <= 5


def test_bad_worlds_are_refused() -> None:
    for bad in (0, -2, 1.5, True):
        with pytest.raises(BotError, match="ismcts option worlds must be a whole number > 0"):
            make_bot("ismcts", seed=1, game="daifugo", worlds=bad)
    with pytest.raises(BotError, match="worlds is at most 1024, not 100000"):
        make_bot("ismcts", seed=1, game="daifugo", worlds=100_000)
    with pytest.raises(BotError, match="worlds is Daifugo's only"):
        make_bot("ismcts", seed=1, game="hell", worlds=8)
