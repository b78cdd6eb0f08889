"""The fixed action catalogue of an environment: index ↔ action string, with card-by-card choices.

A :class:`Catalogue` lists every action an environment's ``Discrete(N)`` space can name:

* *direct* entries, one canonical action string each (``pass``, ``bid 13S``, ``play 3D 3H JK``);
* for actions that choose a set of cards (Napoleon's ``discard``, Daifugo's ``give``, ``discard``
  and ``exchange``), *pick* entries, one per card (``pick 7H``, ``pick JK``), and, when a choice
  may stop at several sizes, a ``done`` entry.

A multi-card action is then a short sequence of sub-steps by the same seat: each ``pick`` adds a
card to the seat's partial choice; the choice is committed (the engine receives the one full
action string) as soon as it is a legal choice that no further card can extend, or when the
seat takes ``done`` on a legal choice. A pick is masked in only if some legal choice contains the
partial choice plus that card, so every masked-in sub-step leads to a legal action and every
legal action is reachable (:meth:`Catalogue.indices_for` gives its sub-steps).

Everything here is a pure function of the legal action strings and the partial choice, so it can
be tested without a game:

>>> cat = Catalogue(["pass", "play AS"], select_verbs=["discard"], pick_cards=["AS", "2C", "3D"])
>>> legal = cat.legal(["discard 2C 3D", "discard AS 3D"])
>>> [cat.names[i] for i in cat.mask(legal, ()).nonzero()[0]]
['pick AS', 'pick 2C', 'pick 3D']
>>> cat.advance(legal, (), cat.index("pick 3D"))
('3D',)
>>> cat.advance(legal, ("3D",), cat.index("pick 2C"))
'discard 2C 3D'
>>> cat.indices_for("discard AS 3D") == [cat.index("pick AS"), cat.index("pick 3D")]
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from torampu.errors import IllegalAction, TorampuError

Partial = tuple[str, ...]
"""A seat's partial card choice: the cards picked so far, in the order picked."""


class CatalogueError(TorampuError):
    """A legal action string that the environment's catalogue cannot name (a bug to report),
    or an action name that is not in the catalogue."""


@dataclass
class Legal:
    """The legal actions of one state, split for the catalogue."""

    actions: list[str]
    direct: list[int] = field(default_factory=list)
    """Catalogue indices of the legal direct actions."""
    direct_set: set[int] = field(default_factory=set)
    choices: list[tuple[int, str]] = field(default_factory=list)
    """Each legal card choice, as a bit set of card slots (:meth:`Catalogue.slots`), and its
    action string."""
    cache: dict[Partial, tuple[frozenset[str], str | None]] = field(default_factory=dict)
    """:meth:`Catalogue.extensions` of the partial choices met so far in this state."""


class Catalogue:
    """A fixed list of action names; see the module docstring."""

    def __init__(
        self,
        direct: Iterable[str],
        select_verbs: Sequence[str] = (),
        pick_cards: Sequence[str] = (),
        done: bool = False,
    ) -> None:
        self.names: list[str] = list(direct)
        self._direct: dict[str, int] = {}
        for i, a in enumerate(self.names):
            if a in self._direct:
                raise CatalogueError(f"action {a!r} twice in the catalogue")
            self._direct[a] = i
        self.select_verbs = frozenset(select_verbs)
        if self.select_verbs and not pick_cards:
            raise CatalogueError("a catalogue with card choices needs pick entries")
        self.n_direct = len(self.names)
        self._pick: dict[str, int] = {}
        self._pick_cards: list[str] = list(pick_cards)
        self._width = max(1, len(self._pick_cards))
        for c in self._pick_cards:
            if c in self._pick:
                raise CatalogueError(f"pick card {c!r} twice in the catalogue")
            self._pick[c] = len(self.names)
            self.names.append(f"pick {c}")
        self._pick_card = {i: c for c, i in self._pick.items()}
        self.done_index: int | None = None
        if done:
            self.done_index = len(self.names)
            self.names.append("done")
        self._all = {a: i for i, a in enumerate(self.names)}

    def __len__(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        """The index of an entry (a direct action string, ``pick 7H`` or ``done``)."""
        try:
            return self._all[name]
        except KeyError:
            raise CatalogueError(f"{name!r} is not in the action catalogue") from None

    def _pick_index(self, card: str) -> int:
        i = self._pick.get(card)
        if i is None:
            raise CatalogueError(f"card {card!r} of a legal choice has no pick entry")
        return i

    # ------------------------------------------------------------------ one state's legal actions
    def legal(self, actions: Sequence[str]) -> Legal:
        """Split a state's legal action strings into direct indices and card choices."""
        out = Legal(list(actions))
        verbs: set[str] = set()
        for a in actions:
            words = a.split()
            if words and words[0] in self.select_verbs:
                verbs.add(words[0])
                out.choices.append((self.slots(words[1:]), a))
                continue
            i = self._direct.get(a)
            if i is None:
                raise CatalogueError(f"legal action {a!r} has no index in the catalogue")
            out.direct.append(i)
        if len(verbs) > 1:
            raise CatalogueError(f"card choices of several kinds at once: {sorted(verbs)}")
        out.direct_set = set(out.direct)
        return out

    def slots(self, cards: Iterable[str]) -> int:
        """A multiset of cards as a bit set: bit ``k * W + p`` stands for the ``k``-th copy
        (from 0) of the card with pick position ``p`` (``W`` = the number of pick cards), so that
        one multiset contains another exactly when its bit set does."""
        bits = 0
        seen: Counter[str] = Counter()
        for c in cards:
            bits |= 1 << (seen[c] * self._width + self._pick_index(c) - self.n_direct)
            seen[c] += 1
        return bits

    def extensions(self, legal: Legal, partial: Partial) -> tuple[frozenset[str], str | None]:
        """(the cards that may be picked next, the action that the partial choice completes or
        None), given a state's legal actions."""
        got = legal.cache.get(partial)
        if got is not None:
            return got
        have = self.slots(partial)
        more = 0
        complete: str | None = None
        for bits, action in legal.choices:
            if have & ~bits:
                continue  # the partial choice is not inside this choice
            rest = bits & ~have
            if rest:
                more |= rest
            else:
                complete = action
        picks: set[str] = set()
        while more:
            low = more & -more
            picks.add(self._pick_cards[(low.bit_length() - 1) % self._width])
            more ^= low
        got = (frozenset(picks), complete)
        legal.cache[partial] = got
        return got

    def mask(self, legal: Legal, partial: Partial) -> NDArray[np.int8]:
        """The action mask: 1 for every index that leads to a legal action now."""
        m = np.zeros(len(self.names), dtype=np.int8)
        if not partial:
            m[legal.direct] = 1
        if legal.choices:
            picks, complete = self.extensions(legal, partial)
            for c in picks:
                m[self._pick[c]] = 1
            if complete is not None and self.done_index is not None:
                m[self.done_index] = 1
        return m

    def advance(self, legal: Legal, partial: Partial, index: int) -> str | Partial:
        """Apply index ``index`` to the partial choice: the action string to play now, or the new
        partial choice (a tuple). Raises :class:`~torampu.IllegalAction` for a masked-out index,
        changing nothing."""
        if not 0 <= index < len(self.names):
            raise IllegalAction(f"action index {index} is outside 0..{len(self.names) - 1}")
        name = self.names[index]
        if index < self.n_direct:
            if partial:
                raise IllegalAction(
                    f"{name!r}: finish the card choice first (picked {' '.join(partial)})"
                )
            if index not in legal.direct_set:
                raise IllegalAction(f"{name!r} (index {index}) is not legal now")
            return name
        picks, complete = self.extensions(legal, partial)
        if index == self.done_index:
            if complete is None:
                raise IllegalAction(
                    f"'done' (index {index}): the cards picked so far "
                    f"({' '.join(partial) or 'none'}) are not a legal choice"
                )
            return complete
        card = self._pick_card[index]
        if card not in picks:
            raise IllegalAction(f"{name!r} (index {index}) is not legal now")
        new = (*partial, card)
        more, done = self.extensions(legal, new)
        if done is not None and not more:
            return done
        return new

    def indices_for(self, action: str, legal: Legal | None = None) -> list[int]:
        """The indices that play ``action`` (a canonical action string) from an empty choice:
        one index for a direct action; for a card choice its picks, plus ``done`` when it is
        needed (an empty choice, or, given the state's ``legal`` actions, a choice that some legal
        choice extends)."""
        words = action.split()
        if not words or words[0] not in self.select_verbs:
            return [self.index(action)]
        steps = [self._pick_index(c) for c in words[1:]]
        extended = legal is not None and bool(self.extensions(legal, tuple(words[1:]))[0])
        if self.done_index is not None and (not steps or extended):
            steps.append(self.done_index)
        return steps
