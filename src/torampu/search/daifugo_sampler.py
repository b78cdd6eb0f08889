"""The Daifugo sampler: a whole game rebuilt from one seat's view, the hidden cards at random.

Daifugo has no voids to respect, but cards move between hands: 7渡し gives (seen only by the
giver and the receiver), ビッグセブン (every hand passes on) and, before play, the exchange and
天変地異. The sampler works backwards from now: every seat's hand now (the seat's own exactly, the
others as so many unknown cards), then, undoing the log entry by entry, the cards each seat
played or discarded go back into its hand, a give goes back from receiver to giver (the cards
themselves when the seat saw them, else unknown cards or cards the receiver later played), and a
ビッグセブン turns the hands back round. What is left is every seat's hand when play began; the
unknown cards are dealt from the cards nobody has seen. The game is then built on that deal
*after* the exchange (the rules' ``exchange``, ``defense`` and ``tenpen`` off, the titles kept,
so the same seat leads and the same later rulings apply) and the log is replayed; a sample whose
replay does not reach the seat's own view is drawn again.

During the exchange (:func:`sample_exchange`) the game is built *before* it instead: every
hand as dealt, so that the engine's own exchange makes the poor give their best cards. What the
seat took part in is known to it — the cards it received (the poor held nothing stronger than the
weakest of them, and no joker unless it gave every joker it had) or gave, and what came back —,
the other pair's exchange is the engine's from the sampled hands, and a return the seat did not
see is drawn at random.

>>> import random, torampu
>>> g = torampu.new_game("daifugo", rules="yaita", seed=4)
>>> while g.phase != "play" or len(g.view(None)["log"]) < 12:
...     g.play(g.legal_actions()[-1])
>>> s = sample_daifugo(g.view(g.to_play), random.Random(1))
>>> s.view(g.to_play)["hand"] == g.view(g.to_play)["hand"], s.to_play == g.to_play
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from torampu.cards import card_str, parse_card
from torampu.daifugo import PH_DISCARD, PH_GIVE, PH_OVER, PH_PLAY, SPEC, Daifugo, title_names
from torampu.daifugo_plays import (
    DISCARD,
    DRANK,
    GIVE,
    JOKER_RANK,
    JSHIFT,
    PASS,
    RANK_SET,
    REAL,
    SUIT_SET,
    TWOS,
    all_plays,
    card_at,
    info,
    retire,
)
from torampu.errors import TorampuError
from torampu.game import Game

View = Mapping[str, Any]
Sampler = Callable[[View, random.Random], Game]
JOKER: Final = 52
STARTS_AFTER: Final = frozenset({"rules", "exchange", "defense", "tenpen", "match"})
"""What a sample's view may tell differently: it starts after the exchange (rules to match), and
it is a game, not a match (a match's view adds the match's standings)."""


class SamplerError(TorampuError):
    """No determinization could be built from this view (the bot falls back)."""


def _cards(words: Sequence[str]) -> list[int]:
    return [parse_card(w) for w in words]


def _title_positions(titles: Sequence[str | None], n: int) -> list[int] | None:
    """Positions 0..n-1 from title names (several 平民 take their positions in seat order)."""
    if not titles or any(t is None for t in titles):
        return None
    free: dict[str, list[int]] = {}
    for pos, name in enumerate(title_names(n)):
        free.setdefault(name, []).append(pos)
    out = []
    for t in titles:
        assert t is not None
        out.append(free[t].pop(0))
    return out


class _Hand:
    """A hand during the backward pass: cards whose identity is fixed, and unknown cards."""

    __slots__ = ("known", "unknown")

    def __init__(self, known: list[int] | None = None, unknown: int = 0) -> None:
        self.known: list[int] = list(known or [])
        self.unknown = unknown

    def take(
        self, k: int, rng: random.Random, first: frozenset[int] = frozenset()
    ) -> list[int | None]:
        """Remove ``k`` cards drawn at random from the hand's cards, known or unknown (an
        unknown one is ``None``), the known ones in ``first`` before any (cards the giver was
        seen to receive earlier: they can have come here only through this give). (Taking the
        unknown ones first, as before, assumed the cards a player was given unseen were never
        among those it played later; when one of them was — a card the seat itself had given
        on, seen — every try put that card in two hands and no sample could be made.)"""
        if k > len(self.known) + self.unknown:
            raise SamplerError("a give takes more cards than the hand had")
        out: list[int | None] = []
        # (♠4 seen given to seat 0, given on by 0 unseen, played by seat 1: drawn at random,
        # the unseen give took ♠4 from seat 1's cards too rarely, and 30 tries all failed)
        for c in [c for c in self.known if c in first][:k]:
            self.known.remove(c)
            out.append(c)
        for _ in range(k - len(out)):
            i = rng.randrange(len(self.known) + self.unknown)
            if i < len(self.known):
                out.append(self.known.pop(i))
            else:
                self.unknown -= 1
                out.append(None)
        return out

    def remove(self, card: int) -> None:
        if card in self.known:
            self.known.remove(card)
        elif self.unknown > 0:
            self.unknown -= 1
        else:
            raise SamplerError(f"{card_str(card)} is not in the hand")


def _fallen_cards(view: View) -> list[int]:
    """The hand the old 大富豪 had when it fell (都落ち): the discards that no 10捨て made."""
    cards = _cards(view.get("discarded") or [])
    for e in view["log"]:
        words = str(e["action"]).split()
        if words[0] == "discard":
            for w in words[1:]:
                cards.remove(parse_card(w))
    return cards


def _order_info(view: View) -> tuple[list[int], list[int]]:
    """For each log entry: the direction of play and the seats still in, just after it."""
    n = view["players"]
    direction = 1
    active = (1 << n) - 1
    dirs: list[int] = []
    actives: list[int] = []
    fallen = view.get("fallen")
    for e in view["log"]:
        for w in e.get("why") or []:
            code = w.get("code")
            if code == "queen_reverse":
                direction = -direction
            elif code in ("out", "foul"):
                active &= ~(1 << e["seat"])
            elif code == "miyako_ochi" and isinstance(fallen, int):
                active &= ~(1 << fallen)
        dirs.append(direction)
        actives.append(active)
    return dirs, actives


Observer = Callable[[Game, Mapping[str, Any]], None]
"""``observe(game, entry)``: called during a sample's replay with the game just before each log
entry of the play phase is applied (for :mod:`torampu.search.daifugo_belief`)."""


def sample_daifugo(
    view: View,
    rng: random.Random,
    tries: int = 30,
    observe: Observer | None = None,
    exchange: bool = True,
    unseen: bool = False,
) -> Game:
    """A Daifugo game consistent with ``view`` (see the module docstring); ``observe`` sees
    the replay (not during the exchange). ``exchange``: in the play phase, deal by what the
    seat knows from its own exchange (:func:`_exchange_knowledge`); false ignores it.
    ``unseen``: the exchanges the seat took no part in are played on the deal too
    (:func:`_unseen_exchanges`: the poor give their best cards, the rich their weakest)."""
    if view.get("phase") == "exchange":
        return sample_exchange(view, rng, tries)
    rules = dict(view["rules"])
    n = int(view["players"])
    me = int(view["seat"])
    log: list[Mapping[str, Any]] = list(view["log"])
    seating = list(view.get("seating") or range(n))
    pos = {s: i for i, s in enumerate(seating)}
    titles = _title_positions(view.get("titles") or [], n)
    dirs, actives = _order_info(view)
    njokers = int(rules.get("jokers", 1))
    deck = list(range(52)) + [JOKER] * njokers
    last: Exception | None = None
    for _ in range(tries):
        try:
            return _attempt(
                view,
                rng,
                rules,
                n,
                me,
                log,
                seating,
                pos,
                titles,
                dirs,
                actives,
                deck,
                observe,
                exchange,
                unseen,
            )
        except (TorampuError, ValueError) as e:  # an inconsistent draw: draw again
            last = e
    raise SamplerError(f"no consistent Daifugo sample in {tries} tries: {last}")


def _strength_order() -> list[int]:
    """Real cards from the strongest, in the order the poor give them (2 A K … 3; ♠ ♥ ♦ ♣)."""
    return [card_at(d, su) for d in range(12, -1, -1) for su in range(4)]


_STRONG_FIRST: Final[list[int]] = _strength_order()


def _stronger_than(card: int) -> int:
    """The real cards the poor would have given before ``card`` (a card set)."""
    out = 0
    for c in _STRONG_FIRST:
        if c == card:
            return out
        out |= 1 << c
    raise AssertionError(card)


def sample_exchange(view: View, rng: random.Random, tries: int = 30) -> Game:
    """A Daifugo game in its exchange, consistent with ``view`` (see the module docstring)."""
    last: Exception | None = None
    for _ in range(tries):
        try:
            return _exchange_attempt(view, rng)
        except (TorampuError, ValueError) as e:
            last = e
    raise SamplerError(f"no consistent Daifugo exchange sample in {tries} tries: {last}")


def _exchange_knowledge(view: View, me: int, hands: list[_Hand]) -> list[int]:
    """What the seat learnt in its own exchange, for a deal of the play phase: the cards it
    handed over are put in its partner's hand as play began (unless the backward pass already
    placed them, having seen them played), and when the seat is the rich one, the poor one's
    other cards are bounded: it gave every joker it had, then its best real cards, so it kept
    no joker and no card of a higher rank than the weakest real card it gave (by rank, not
    suit, so the bound holds whatever order a server gives equal ranks in). Returns per seat
    the cards (bit 52: a joker) its unknown cards may not be; a bound the hand's own plays
    contradict is dropped."""
    forbid = [0] * len(hands)
    for r in view.get("exchange") or []:
        rich, poor = int(r["rich"]), int(r["poor"])
        if me not in (rich, poor) or r.get("returned") is None or r.get("given") is None:
            continue
        given = _cards(r["given"])
        back = _cards(r["returned"])
        sent, got = (back, given) if me == rich else (given, back)
        partner = poor if me == rich else rich
        for c in got:  # a card that came back is not the partner's (the seat had it after)
            if c in sent:
                sent.remove(c)
        h = hands[partner]
        for c in sent:
            if any(c in x.known for x in hands) or h.unknown <= 0:
                continue  # seen played (or gone on): already placed
            h.known.append(c)
            h.unknown -= 1
        if me == rich:
            real = [c for c in given if c != JOKER]
            if real:
                weakest = min(DRANK[c] for c in real)
                bound = 1 << JOKER | _stronger_than(card_at(weakest, 0))
                kept = [c for c in h.known if c not in back]
                if not any(bound >> c & 1 for c in kept):
                    forbid[poor] |= bound
    return forbid


def _exchange_attempt(view: View, rng: random.Random) -> Game:
    rules = dict(view["rules"])
    n = int(view["players"])
    me = int(view["seat"])
    titles = _title_positions(view.get("titles") or [], n)
    if titles is None:
        raise SamplerError("an exchange without titles")
    rows = list(view["exchange"])
    now = int(view["to_play"])
    done = next((i for i, r in enumerate(rows) if r["rich"] == now), len(rows))
    sizes = [int(x) for x in view["hand_sizes"]]
    mine = _cards(view["hand"])
    fixed: list[list[int]] = [[] for _ in range(n)]  # cards a seat surely held when dealt
    forbid = [0] * n  # cards a seat surely did not hold when dealt (bit 52: another joker)
    for i, r in enumerate(rows):
        rich, poor, k = int(r["rich"]), int(r["poor"]), int(r["count"])
        returned = i < done
        sizes[rich] += -k + (k if returned else 0)
        sizes[poor] += k - (k if returned else 0)
        if me not in (rich, poor):
            continue
        given = _cards(r["given"])
        back = _cards(r["returned"]) if returned else []
        if me == rich:
            mine += back  # (it may return cards it was given)
            for c in given:
                mine.remove(c)
            fixed[poor] += given
            real = [c for c in given if c != JOKER]
            if real:  # the poor gave every joker it had, and then its best real cards
                forbid[poor] |= 1 << JOKER | _stronger_than(max(real, key=_STRONG_FIRST.index))
        else:
            mine += given
            for c in back:
                mine.remove(c)
            own = list(given)
            for c in back:  # what came back and was not ours to begin with
                if c in own:
                    own.remove(c)
                else:
                    fixed[rich].append(c)
            forbid[rich] |= sum(1 << c for c in given if c != JOKER)
    njokers = int(rules.get("jokers", 1))
    pool = list(range(52)) + [JOKER] * njokers
    for c in mine:
        pool.remove(c)
    for cards in fixed:
        for c in cards:
            pool.remove(c)
    rng.shuffle(pool)
    deal: list[list[int]] = [[] for _ in range(n)]
    deal[me] = mine
    order = sorted((s for s in range(n) if s != me), key=lambda s: -forbid[s].bit_count())
    for s in order:
        need = sizes[s] - len(fixed[s])
        got = [c for c in pool if not forbid[s] >> c & 1][:need]
        if len(got) < need:
            raise SamplerError("the exchange leaves no deal")
        for c in got:
            pool.remove(c)
        deal[s] = fixed[s] + got
    if pool or [len(h) for h in deal] != sizes:
        raise SamplerError("the view's hand sizes do not add up to the deck")
    extra: dict[str, Any] = {"titles": titles, "defense": int(view.get("defense") or 0)}
    if view.get("seating"):
        extra["seating"] = list(view["seating"])
    g = Daifugo(
        SPEC.resolve(rules),
        rng.getrandbits(63),
        {"hands": [[card_str(c) for c in sorted(h)] for h in deal]},
        int(view.get("dealer") or 0),
        **extra,
    )
    for i in range(done):
        r = rows[i]
        if "returned" in r and r["returned"] is not None:
            g.apply(g.parse_action(" ".join(["exchange", *r["returned"]])))
        else:  # a return the seat did not see
            moves = g.legal_moves()
            g.apply(moves[int(rng.random() * len(moves))])
    got_view = g.view(me)
    for key, value in view.items():
        if key != "match" and got_view.get(key) != value:
            raise SamplerError(f"the rebuilt exchange does not reach the view: its {key} differs")
    return g


def _attempt(
    view: View,
    rng: random.Random,
    rules: dict[str, Any],
    n: int,
    me: int,
    log: list[Mapping[str, Any]],
    seating: list[int],
    pos: dict[int, int],
    titles: list[int] | None,
    dirs: list[int],
    actives: list[int],
    deck: list[int],
    observe: Observer | None = None,
    exchange: bool = True,
    unseen: bool = False,
) -> Game:
    sizes = list(view["hand_sizes"])
    hands = [_Hand(unknown=sizes[s]) for s in range(n)]
    hands[me] = _Hand(known=_cards(view["hand"]))
    gives: dict[int, list[int | None]] = {}  # log index -> the cards given (None: unknown)
    start = 0
    for i, e in enumerate(log):
        if e["action"] == "tenpen":
            start = i + 1
    for i in range(len(log) - 1, start - 1, -1):
        e = log[i]
        words = str(e["action"]).split()
        verb = words[0]
        x = int(e["seat"])
        codes = {w.get("code") for w in e.get("why") or []}
        if "miyako_ochi" in codes:  # the old 大富豪's hand went to the discards: take it back
            fallen = int(view["fallen"])
            if hands[fallen].known or hands[fallen].unknown:
                raise SamplerError("the fallen seat held cards after its fall")
            hands[fallen] = _Hand(known=_fallen_cards(view))
        if "big_seven" in codes:  # hands went round after the play: turn them back
            active, d = actives[i], dirs[i]
            seats = [s for s in range(n) if active >> s & 1 or s == x]
            nxt = {
                s: next(
                    t
                    for t in (seating[(pos[s] + d * k) % n] for k in range(1, n + 1))
                    if t in seats
                )
                for s in seats
            }
            before = {s: hands[nxt[s]] for s in seats}
            for s in seats:
                hands[s] = before[s]
        if verb in ("play", "discard"):
            for w in words[1:]:
                hands[x].known.append(JOKER if w.startswith("JK") else parse_card(w))
        elif verb == "give":
            to = int(e["to"])
            seen = e.get("cards")
            if seen is not None:
                cards: list[int | None] = list(_cards(seen))
                for c in cards:
                    assert c is not None
                    hands[to].remove(c)
            else:
                # the cards seat x was seen to receive before this give — since the hands last
                # went round (a big seven), which moved any card received before on with the
                # hand, not through this give (a code review: every try failed)
                since = start
                for j in range(start, i):
                    if any(w.get("code") == "big_seven" for w in log[j].get("why") or []):
                        since = j + 1
                received = frozenset(
                    c
                    for f in log[since:i]
                    if str(f["action"]).split()[0] == "give"
                    and int(f["to"]) == x
                    and f.get("cards") is not None
                    for c in _cards(f["cards"])
                )
                cards = hands[to].take(int(e.get("count") or 0), rng, received)
            gives[i] = cards
            for c in cards:
                if c is None:
                    hands[x].unknown += 1
                else:
                    hands[x].known.append(c)
    forbid = _exchange_knowledge(view, me, hands) if exchange else [0] * n
    # deal the unknown cards from those nobody's hand is known to hold
    pool = list(deck)
    for h in hands:
        for c in h.known:
            pool.remove(c)
    first_lead = rules.get("first_lead")
    holder_leads = titles is None or rules.get("later_lead") == "first_lead"
    played = log[start:]  # with none yet, the seat to play is the first leader
    if holder_leads and first_lead and (played or view.get("phase") == "play"):
        card = parse_card(str(first_lead))
        leader = int(played[0]["seat"] if played else view["to_play"])
        if card in pool and hands[leader].unknown > 0:
            pool.remove(card)
            hands[leader].known.append(card)
            hands[leader].unknown -= 1
    rng.shuffle(pool)
    fills: list[list[int]] = [[] for _ in hands]
    # a hand the exchange bounds first, from the cards it may hold: with one such hand (the
    # seat's partner in the exchange) each consistent deal stays equally likely
    for s in sorted(range(n), key=lambda s: -forbid[s].bit_count()):
        h = hands[s]
        if forbid[s]:
            allowed = [c for c in pool if not forbid[s] >> c & 1]
            if h.unknown > len(allowed):
                raise SamplerError("the exchange leaves too few cards for its partner")
            fills[s] = allowed[: h.unknown]
            for c in fills[s]:
                pool.remove(c)
            continue
        if h.unknown > len(pool):
            raise SamplerError("more unknown cards than cards unseen")
        fills[s] = pool[: h.unknown]
        del pool[: h.unknown]
    if unseen and start == 0:
        _unseen_exchanges(view, me, fills)
    # unknown cards that went round in gives are the receiver's draws: give them identities
    deal = [h.known + fills[s] for s, h in enumerate(hands)]
    deal_words = [[card_str(c) for c in sorted(cards)] for cards in deal]
    play_rules = {**rules, "exchange": False, "defense": False, "tenpen": False}
    extra: dict[str, Any] = {}
    if titles is not None:
        extra["titles"] = titles
    if view.get("seating"):
        extra["seating"] = seating
    g = Daifugo(
        SPEC.resolve(play_rules),
        rng.getrandbits(63),
        {"hands": deal_words},
        int(view.get("dealer") or 0),
        **extra,
    )
    given_unknown = _give_identities(g, log, start, gives, rng)
    for i in range(start, len(log)):
        e = log[i]
        action = str(e["action"])
        if action.split()[0] == "give":
            action = " ".join(["give", *given_unknown[i]])
        if observe is not None:
            observe(g, e)
        g.apply(g.parse_action(action))
    mine = g.view(me)
    for key, value in view.items():
        if key not in STARTS_AFTER and mine.get(key) != value:
            raise SamplerError(f"the replay does not reach the view: its {key} differs")
    return g


_STRENGTH: Final[dict[int, int]] = {JOKER: -1, **{c: i for i, c in enumerate(_STRONG_FIRST)}}
"""A card's place from the strongest in the exchange's order (the joker first, then 2 A K … 3)."""


def _unseen_exchanges(view: View, me: int, fills: list[list[int]]) -> None:
    """Play the exchanges the seat took no part in on a uniform deal's unknown cards, taken as
    the hands before them: for each such row, the poor one's ``count`` strongest unknown cards
    go to the rich one and the rich one's weakest unknown cards come back. A uniform deal is a
    uniform deal before the exchange, so this draws the hands after it as the exchange makes
    them (the rich stronger, the poor weaker); cards a seat is known to have held stay put."""
    strength = _STRENGTH
    for r in view.get("exchange") or []:
        rich, poor, k = int(r["rich"]), int(r["poor"]), int(r["count"])
        if me in (rich, poor):
            continue
        top = sorted(fills[poor], key=strength.__getitem__)
        low = sorted(fills[rich], key=strength.__getitem__, reverse=True)
        j = min(k, len(top), len(low))
        if j:
            fills[poor] = low[:j] + top[j:]
            fills[rich] = top[:j] + low[j:]


def _give_identities(
    g: Game,
    log: list[Mapping[str, Any]],
    start: int,
    gives: dict[int, list[int | None]],
    rng: random.Random,
) -> dict[int, list[str]]:
    """The cards of each give, unknown ones drawn when the give is replayed: a replay on a copy
    that picks, for each unknown card, one the giver holds then and does not play later."""
    out: dict[int, list[str]] = {}
    if not gives:
        return out
    sim = g.clone()
    later_needed: dict[int, set[int]] = {}
    for i in range(start, len(log)):
        e = log[i]
        words = str(e["action"]).split() + list(e.get("cards") or [])
        if words[0] in ("play", "discard", "give"):
            for w in words[1:]:
                later_needed.setdefault(int(e["seat"]), set()).add(
                    JOKER if w.startswith("JK") else parse_card(w)
                )
    for i in range(start, len(log)):
        e = log[i]
        words = str(e["action"]).split()
        if words[0] == "give":
            x = int(e["seat"])
            fixed = [c for c in gives.get(i, []) if c is not None]
            unknown = sum(1 for c in gives.get(i, []) if c is None)
            hand = _cards(sim.view(x)["hand"])
            spare = [c for c in hand if c not in fixed and c not in later_needed.get(x, set())]
            if len(spare) < unknown:
                raise SamplerError("the giver has too few spare cards")
            rng.shuffle(spare)
            cards = fixed + spare[:unknown]
            out[i] = [card_str(c) for c in cards]
            sim.apply(sim.parse_action(" ".join(["give", *out[i]])))
            continue
        sim.apply(sim.parse_action(str(e["action"])))
    return out


def pooled(sampler: Callable[[View, random.Random], Game], size: int = 24) -> Sampler:
    """``sampler`` with its determinizations reused: for one view (the same object, as a search
    asks for many), the first ``size`` calls build samples and later calls return clones of
    them in turn. A replay costs about a millisecond and a clone some 30 µs, so a search makes
    several times more iterations, each still on a game consistent with the view."""
    state: dict[str, Any] = {"view": None, "pool": [], "next": 0}

    def sample(view: View, rng: random.Random) -> Game:
        if state["view"] is not view:
            state.update(view=view, pool=[], next=0)
        pool: list[Game] = state["pool"]
        if len(pool) < size:
            g = sampler(view, rng)
            pool.append(g)
            return g.clone()
        k: int = state["next"]
        state["next"] = (k + 1) % size
        return pool[k].clone()

    return sample


ROLLOUT_EXPLORE: Final = 0.15
"""How often the greedy rollout (:func:`greedy_rollout`, :func:`greedy_play`) makes any legal
move instead of its greedy one (the ``ismcts`` option ``rollout_explore``)."""


def greedy_rollout(
    game: Game,
    rng: random.Random,
    explore: float = ROLLOUT_EXPLORE,
    mate: bool = False,
    hold: float = 0.0,
) -> None:
    """Play a Daifugo game to its end the way a simple player does: shed the weakest play
    (in the order of the moment; a run or group before a single of the same rank), now and then
    (``explore``) any legal move; give (7渡し) and discard (10捨て) as many of its weakest cards
    as it may (:func:`shed_cards`), now and then any choice. Much stronger than a uniformly
    random playout, at a few microseconds a move. With ``mate``, a player who can go out at
    once does (:func:`mate_play`); with ``hold``, a player following with more than three cards
    now and then keeps its high cards back and passes (:func:`greedy_play`). The game plays
    ``quiet`` (its log is not written: a playout is read for its places only)."""
    assert isinstance(game, Daifugo)
    g = game
    g.quiet = True
    rand = rng.random
    while g.phase_id != PH_OVER:
        ph = g.phase_id
        if ph == PH_PLAY:
            pick = greedy_play(g, rand, explore, mate, hold)
        elif ph in (PH_GIVE, PH_DISCARD) and rand() >= explore:
            s = g.turn
            verb = GIVE if ph == PH_GIVE else DISCARD
            pick = verb | shed_cards(g.hands[s], g.jok[s], g.pending, g.revolution != g.eleven)
        else:  # exchanges, and the other gives and discards, at random
            moves = g.legal_moves()
            pick = moves[0] if len(moves) == 1 else moves[int(rand() * len(moves))]
        g._apply(pick)


def shed_cards(hand: int, jokers: int, k: int, rev: bool) -> int:
    """The ``k`` weakest cards of a hand in the order of the moment (``rev``: lower ranks
    strong), jokers last, as card bits plus joker count: what :func:`greedy_rollout` gives and
    discards. (Fewer when the hand has fewer.)

    >>> from torampu.daifugo_plays import play_str
    >>> from torampu.cards import parse_cards
    >>> play_str(shed_cards(parse_cards("3S 9H 2C"), 1, 2, False))
    '3S 9H'
    >>> play_str(shed_cards(parse_cards("3S 9H 2C"), 1, 2, True))
    '9H 2C'
    """
    chosen = 0
    left = k
    for i in range(13):
        d = 12 - i if rev else i
        cards = hand & (TWOS << (d + 1) % 13)
        while cards and left:
            low = cards & -cards
            chosen |= low
            cards ^= low
            left -= 1
        if not left:
            return chosen
    return chosen | min(left, jokers) << JSHIFT


def greedy_play(
    g: Daifugo,
    rand: Callable[[], float],
    explore: float = ROLLOUT_EXPLORE,
    mate: bool = False,
    hold: float = 0.0,
) -> int:
    """:func:`greedy_rollout`'s move in the play phase (``g.phase_id == PH_PLAY``): the weakest
    legal play, or with probability ``explore`` any legal move; with ``mate``, first a play
    that goes out at once (:func:`mate_play`). With ``hold`` > 0 a player following a play with
    more than :data:`HOLD_CARDS` cards passes instead of its weakest play when that play is
    high — with probability ``hold`` × (its rank's place above the jack) / 4 for a queen up to a
    2 in the order of the moment, :data:`HOLD_JOKER` for the lone joker — as strong players
    keep their high cards for the lead (see :func:`_held_back`)."""
    moves: Sequence[int] = g._plays_now(g.turn)
    n = len(moves)
    if n == 1:
        return moves[0]
    if mate:
        m = mate_play(g, moves)
        if m >= 0:
            return m
    if rand() < explore:
        return moves[int(rand() * n)]
    # the weakest play, found once per (memoized) tuple of legal plays
    greedy = _GREEDY
    rev = g.revolution != g.eleven
    picks = greedy.get(id(moves))
    if picks is None or picks[0] is not moves:  # a new tuple: its weakest in this order
        if len(greedy) >= 50_000:
            retire(greedy)
        pick = _weakest(moves, rev)
        greedy[id(moves)] = (moves, -1, pick) if rev else (moves, pick, -1)
    else:
        pick = picks[2] if rev else picks[1]
        if pick < 0:  # the weakest in the other order, found on first need
            pick = _weakest(moves, rev)
            greedy[id(moves)] = (moves, picks[1], pick) if rev else (moves, pick, picks[2])
    if hold > 0.0 and g.table_info is not None and _held_back(g, pick, rev, hold, rand):
        return PASS
    return pick


HOLD_CARDS: Final = 3
""":func:`greedy_play`'s ``hold``: a player with at most this many cards never holds back."""
HOLD_JOKER: Final = 0.9
""":func:`greedy_play`'s ``hold``: how often a player whose weakest answer is the lone joker
passes instead."""


def _held_back(g: Daifugo, pick: int, rev: bool, hold: float, rand: Callable[[], float]) -> bool:
    """Whether the player following with ``pick`` (its weakest play) keeps it back and passes
    (see :func:`greedy_play`)."""
    if pick == PASS:
        return False
    s = g.turn
    if g.hands[s].bit_count() + g.jok[s] <= HOLD_CARDS:
        return False
    r = info(pick).rank
    if r == JOKER_RANK:
        p = HOLD_JOKER
    else:
        place = 12 - r if rev else r  # 0 for the weakest rank of the moment, 12 for the strongest
        if place <= 8:
            return False
        p = hold * (place - 8) / 4
    return rand() < p


MATE_CARDS: Final = 8
""":func:`mate_play` looks for a two-play finish only in hands of at most this many cards."""


def mate_play(g: Daifugo, moves: Sequence[int]) -> int:
    """A play with which the player to move goes out at once, else -1 (the game is a
    determinization: every hand is known). Either a play of the whole hand, or, on the lead, a
    play nobody answers (every other player can only pass, or it flushes the table, as an 8
    does) after which the rest of the hand is one play. Greedy shedding misses the second:
    holding a 2 and a 5 it leads the 5. (Under ``forbidden_finish`` only the first.)"""
    s = g.turn
    hand, jok = g.hands[s], g.jok[s]
    for m in moves:
        if m != PASS and (m & REAL) == hand and (m >> JSHIFT & 3) == jok:
            return m
    if g.table_info is not None or hand.bit_count() + jok > MATE_CARDS:
        return -1
    if g.rules["forbidden_finish"]:  # some finishes are fouls (反則上がり): not worked out here
        return -1
    wild, stairs = g.wild, g.flags.stairs
    for m in moves:
        if m == PASS:
            continue
        rest, rj = hand & ~(m & REAL), jok - (m >> JSHIFT & 3)
        if _one_play(rest, rj, wild, stairs) and _unanswered(g, m):
            return m
    return -1


def _one_play(real: int, jokers: int, wild: bool, stairs: bool) -> bool:
    """Whether these cards make one play on an empty table (the cheap cases first: one rank is
    a group, or needs wild jokers; cards of several ranks can only be a run of one suit)."""
    if real == 0:
        return jokers == 1 or any(
            (p >> JSHIFT & 3) == jokers for p in all_plays(0, jokers, wild, stairs)
        )
    low = (real & -real).bit_length() - 1
    if not real & ~RANK_SET[DRANK[low]]:
        return jokers == 0 or wild
    if not stairs or real & ~SUIT_SET[low // 13]:
        return False
    whole = (p for p in all_plays(real, jokers, wild, stairs) if (p & REAL) == real)
    return any((p >> JSHIFT & 3) == jokers for p in whole)


def _unanswered(g: Daifugo, m: int) -> bool:
    """Whether after the play ``m`` every other player can only pass and the lead comes back
    to the player on an empty table."""
    s = g.turn
    c = g.clone()
    c._apply(m)
    while c.phase_id == PH_PLAY and c.turn != s:
        if len(c._plays_now(c.turn)) > 1:
            return False
        c._apply(PASS)
    return c.phase_id == PH_PLAY and c.turn == s and c.table_info is None


_GREEDY: Final[dict[int, tuple[Sequence[int], int, int]]] = {}
""":func:`greedy_rollout`'s picks per tuple of legal plays (keyed by its ``id``; the entry
holds the tuple, so the id is not reused while the entry lives): (plays, normal, reversed), -1
for an order not asked yet."""


def play_strength(m: int, rev: bool) -> int:
    """A play's place in the order of the moment (``rev``: reversed) as one number, as the
    greedy rollout sheds them: lower is weaker, and a run or group comes before a single of its
    rank (rank, then bigger plays first; sizes are < 16)."""
    i = info(m)
    r = i.rank
    return (r if r == JOKER_RANK or not rev else -r) * 16 - i.size


def _weakest(moves: Sequence[int], rev: bool) -> int:
    """The weakest play among ``moves`` in the order of the moment (``rev``: reversed), by
    :func:`play_strength`; the first of equals."""
    best = 0
    pick = moves[0]
    found = False
    for m in moves:
        if m == PASS:
            continue
        key = play_strength(m, rev)
        if not found or key < best:
            best, pick, found = key, m, True
    return pick
