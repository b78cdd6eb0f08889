"""Samplers: rebuild a whole game from one seat's view, dealing the hidden cards at random.

A sampler reads only ``view(seat)``: the seat's hand, the public history, what the seat has
been shown. It deals every card that seat cannot see to the other seats at random, respecting
what play has revealed (a seat that did not follow a suit holds none of it), builds the game
from that deal and replays the public actions. The result is one *determinization*: a game
state the seat cannot tell apart from the real one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from torampu.cards import card_list, parse_card, parse_cards
from torampu.errors import TorampuError
from torampu.game import Game
from torampu.hell import BID_BASE as HELL_BID_BASE
from torampu.hell import Hell
from torampu.nap import Nap, nap_deck
from torampu.search.daifugo_sampler import pooled, sample_daifugo
from torampu.search.napoleon_sampler import NapoleonSampler, sample_napoleon  # noqa: F401

View = Mapping[str, Any]
Sampler = Callable[[View, random.Random], Game]

_FULL = (1 << 52) - 1
_SUIT = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


def _trick_info(
    n: int, tricks: Sequence[Mapping[str, Any]], current: Sequence[Mapping[str, Any]]
) -> tuple[list[int], list[int], list[int]]:
    """(cards each seat has played, suits each seat has shown void in, the plays in order)."""
    played = [0] * n
    voids = [0] * n
    order: list[int] = []
    for cards in [t["cards"] for t in tricks] + ([current] if current else []):
        led = -1
        for e in cards:
            c = parse_card(e["card"])
            s = e["seat"]
            played[s] |= 1 << c
            order.append(c)
            if c >= 52:
                continue
            if led < 0:
                led = c // 13
            elif c // 13 != led:
                voids[s] |= 1 << led
    return played, voids, order


def deal_hidden(
    unknown: int,
    need: Sequence[int],
    voids: Sequence[int],
    rng: random.Random,
    tries: int = 20,
) -> list[int]:
    """Deal the ``unknown`` cards so seat ``s`` gets ``need[s]`` of them, none of a suit it has
    shown void in (bit ``k`` of ``voids[s]``: void in suit ``k``). Most-constrained seats are
    served first; after ``tries`` failures the voids are ignored (never raises)."""
    cards = [c for c in range(64) if unknown >> c & 1]
    order = sorted(range(len(need)), key=lambda s: -bin(voids[s]).count("1"))
    for attempt in range(tries + 1):
        rng.shuffle(cards)
        pool = list(cards)
        out = [0] * len(need)
        ok = True
        for s in order:
            k = need[s]
            if not k:
                continue
            if attempt < tries and voids[s]:
                bad = 0
                for suit in range(4):
                    if voids[s] >> suit & 1:
                        bad |= _SUIT[suit]
                fits = [c for c in pool if not bad >> c & 1]
            else:
                fits = pool
            if len(fits) < k:
                ok = False
                break
            chosen = fits[:k]
            for c in chosen:
                out[s] |= 1 << c
            taken = set(chosen)
            pool = [c for c in pool if c not in taken]
        if ok:
            return out
    raise AssertionError("unreachable: the last try ignores voids")


def sample_hell(view: View, rng: random.Random) -> Game:
    """A Hell deal consistent with ``view``: replays the bids and plays on a random deal."""
    n = view["players"]
    seat = view["seat"]
    hand = parse_cards(view["hand"])
    played, voids, order = _trick_info(n, view["tricks"], view["trick"])
    up = parse_card(view["upcard"])
    seen = hand | 1 << up
    for p in played:
        seen |= p
    need = [0 if s == seat else view["hand_sizes"][s] for s in range(n)]
    # the upcard's suit is trump: a seat void in the led suit may still hold trumps, nothing more
    dealt = deal_hidden(_FULL & ~seen, need, voids, rng)
    dealt[seat] = hand
    hands = [card_list(dealt[s] | played[s]) for s in range(n)]
    g = Hell(
        dict(view["rules"]),
        rng.getrandbits(63),
        {"hands": hands, "upcard": view["upcard"]},
        view["dealer"],
        cards=view["cards"],
    )
    dealer = view["dealer"]
    bids = view["bids"]
    for i in range(n):
        s = (dealer + 1 + i) % n
        if bids[s] is None:
            break
        g.apply(HELL_BID_BASE + bids[s])
    for c in order:
        g.apply(c)
    return g


def sample_nap(view: View, rng: random.Random) -> Game:
    """A Nap deal consistent with ``view``: the current deal (after any redeals) is dealt with
    the hidden cards at random, the stock takes the rest; the auction and plays are replayed."""
    n = view["players"]
    seat = view["seat"]
    rules = dict(view["rules"])
    hand = parse_cards(view["hand"])
    played, voids, order = _trick_info(n, view["tricks"], view["trick"])
    deck = sum(1 << c for c in nap_deck(rules))
    seen = hand
    for p in played:
        seen |= p
    need = [0 if s == seat else view["hand_sizes"][s] for s in range(n)]
    dealt = deal_hidden(deck & ~seen, need, voids, rng)
    dealt[seat] = hand
    g = Nap(
        rules,
        rng.getrandbits(63),
        {"hands": [card_list(dealt[s] | played[s]) for s in range(n)]},
        view["dealer"],
    )
    for step in view["auction"]:
        g.apply(g.parse_action(step["action"]))
    for c in order:
        g.apply(c)
    return g


_FACTORIES: dict[str, Callable[[], Sampler]] = {
    "hell": lambda: sample_hell,
    "nap": lambda: sample_nap,
    "daifugo": lambda: pooled(sample_daifugo),
    "napoleon": NapoleonSampler,
}


def sampler_for(game: str) -> Sampler:
    """A sampler for ``game`` (``TorampuError`` if there is none yet).

    Each call returns a new sampler: some keep the last view's determinization to re-deal it
    cheaply, so give each searcher its own.
    """
    try:
        return _FACTORIES[game]()
    except KeyError:
        raise TorampuError(
            f"no search sampler for {game!r} yet (games: {', '.join(_FACTORIES)})"
        ) from None
