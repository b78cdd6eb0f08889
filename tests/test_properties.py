"""Property tests of Napoleon (hypothesis): whole random games under random rules.

Every example draws rules (a preset, or a preset plus random overrides drawn from
``torampu.rules("napoleon")``), a player count, a seed and a random-policy seed, and plays a whole
game through the public API while an independent model tracks where every card is. Checked at
every step or at the end:

* rules: ``RulesError`` exactly for the documented contradictions, naming the option; the record
  holds every option resolved;
* random legal play ends within a bounded number of steps;
* card conservation: every card of the deck is dealt once, then played or discarded exactly once
  (with ``early_end`` the rest is still in hands);
* honors: army + allied + discarded-for-nobody + untaken = 20, consistent with the tricks and the
  result; an early end happens exactly when the outcome is certain;
* scoring follows 001's table / win-loss (sum per game ``5 - n`` in points), and a match's
  standings are the sums of its games' scores;
* records replay exactly (also after a JSON round trip, mid-game, and for matches); the fast path
  (``legal_moves``/``apply``/``playout``) matches the public API and its records replay;
* illegal actions (junk strings, cards not in hand, cards that do not follow, off-phase actions)
  raise ``IllegalAction`` and change neither the record nor any view;
* no view leaks a hidden card or the adjutant's identity; the spectator sees no hand;
* ``clone()`` is independent of its original, both ways.

No timing assertions here; speed lives in ``bench/``.
"""

from __future__ import annotations

import json
import random
import re
import signal
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, note, reject, settings
from hypothesis import strategies as st

import torampu
from torampu import IllegalAction, RulesError
from torampu.game import listed

RANKS = "23456789TJQKA"
SUITS = "SHDC"
CARDS52 = [r + s for s in SUITS for r in RANKS]
ALL_CARDS = [*CARDS52, "JK"]
HONORS = frozenset(r + s for s in SUITS for r in "TJQKA")
LOW_CARDS = [r + s for s in SUITS for r in "23456789"]
PRESETS = ["classic", "classic-joker", "killers", "house-001", "house-002", "napoleon-web"]
OPTIONS = {o["name"]: o for o in torampu.rules("napoleon")}
RULE_NAMES = [name for name in OPTIONS if name != "players"]
DEFAULTS = {name: o["default"] for name, o in OPTIONS.items()}
PRESET_OPTIONS = {name: p["options"] for name, p in torampu.presets("napoleon").items()}
MAX_STEPS = 5_000
"""Bound on the steps of one random game (auction rounds, redeals and tricks included)."""

CARD_RE = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][SHDC]|JK)(?![0-9A-Za-z])")
"""A card string inside any text (``"play AS"``, ``"JD wins: 裏J"``), not inside ``"bid 13S"``."""
NOT_PLACING = frozenset({"rules", "adjutant_card"})
"""View keys whose values name cards without placing them (``joker_call``, the named card)."""

_PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink)  # no slow explain phase
FAST = settings(max_examples=300, deadline=None, phases=_PHASES)
GAMES = settings(
    max_examples=200,
    deadline=None,
    phases=_PHASES,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
FAST_PATH = settings(GAMES, max_examples=400)
MATCHES = settings(GAMES, max_examples=100)


class Hang(AssertionError):
    """An engine call that did not return (an infinite loop)."""


@contextmanager
def time_limit(seconds: float, what: str) -> Iterator[None]:
    """Turn a hang inside the engine into a test failure (SIGALRM; a no-op where unavailable)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"{what} did not return within {seconds} s (an infinite loop?)")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_presets_are_the_documented_ones() -> None:
    assert set(PRESETS) <= set(PRESET_OPTIONS)


# ---------------------------------------------------------------------------------- strategies
def _option_values(name: str) -> st.SearchStrategy[Any]:
    o = OPTIONS[name]
    if o["type"] == "cards":  # removed_cards: usually low cards, sometimes anything
        return st.one_of(
            st.just([]),
            st.lists(st.sampled_from(LOW_CARDS), max_size=8, unique=True),
            st.lists(st.sampled_from(ALL_CARDS), max_size=3, unique=True),
        )
    if o["type"] == "set":
        return st.lists(st.sampled_from(o["values"]), unique=True)
    return st.sampled_from(o["values"])


@st.composite
def rule_choices(draw: st.DrawFn, valid_bias: bool) -> str | dict[str, Any]:
    """A preset name, or ``{"preset": p, **overrides}`` with overrides drawn per option.

    With ``valid_bias``, most draws repair the documented dependencies so that few are rejected.
    """
    preset = draw(st.sampled_from(PRESETS))
    if draw(st.integers(0, 3)) == 0:
        return preset
    everything = draw(st.booleans())
    names = RULE_NAMES if everything else draw(st.sets(st.sampled_from(RULE_NAMES)))
    out: dict[str, Any] = {"preset": preset}
    for name in RULE_NAMES:
        if name in names:
            out[name] = draw(_option_values(name))
    if valid_bias and draw(st.integers(0, 9)) > 0:
        resolved = expected_rules(out, None)
        if resolved["jokers"] == 0:
            out["joker_mode"], out["joker_call"] = "trump_top", "none"
        if not resolved["same_two"]:
            out["same_two_first_trick"] = out["same_two_beats_specials"] = False
            out["same_two_joker"] = "matches"
        if resolved["max_bid"] < resolved["min_bid"]:
            out["max_bid"] = 20
        bad = {"JK", *HONORS, resolved["joker_call"]}
        if resolved["same_two"]:
            bad |= {"2" + s for s in SUITS}
        if any(c in bad for c in resolved["removed_cards"]):
            out["removed_cards"] = [c for c in resolved["removed_cards"] if c not in bad]
    return out


setups = st.tuples(
    rule_choices(valid_bias=True),
    st.sampled_from([4, 5, 6]),
    st.integers(0, 2**63 - 1),
    st.integers(0, 2**32 - 1),
)
junk_strings = st.lists(st.text(max_size=14), max_size=4)


# ---------------------------------------------------------------------------------- rules
def expected_rules(rules: str | Mapping[str, Any], players: int | None) -> dict[str, Any]:
    """Rules resolved independently of the engine: defaults, then the preset, then overrides."""
    given_ = {"preset": rules} if isinstance(rules, str) else dict(rules)
    out = dict(DEFAULTS)
    preset = given_.pop("preset", "classic")
    out.update(PRESET_OPTIONS[preset])
    out.update(given_)
    if players is not None:
        out["players"] = players
    # rules.md: 000's 4-player game discards face up, unless reveal_discards is given
    classic = preset in ("classic", "classic-joker", "killers")
    if classic and out["players"] == 4 and "reveal_discards" not in given_:
        out["reveal_discards"] = "all"
    return out


def contradictions(r: Mapping[str, Any]) -> set[str]:
    """The options at fault in a combination that the rules document as contradictory."""
    faults = set()
    if r["jokers"] == 0:
        if r["joker_mode"] != "trump_top":  # rules.md: joker_mode only with jokers: 1
            faults.add("joker_mode")
        if r["joker_call"] != "none":  # the call forces out a joker that is not there
            faults.add("joker_call")
    if not r["same_two"]:  # sub-options of same-two
        faults |= {k for k in ("same_two_first_trick", "same_two_beats_specials") if r[k]}
        if r["same_two_joker"] != "matches":
            faults.add("same_two_joker")
    if r["max_bid"] < r["min_bid"]:  # no bid could be made
        faults.add("max_bid")
    removed = set(r["removed_cards"])
    if (
        "JK" in removed  # the joker is `jokers`, not a removed card
        or removed & HONORS  # all 20 honors are played for
        or (r["same_two"] and any(c[0] == "2" for c in removed))  # 000: keep the 2s
        or r["joker_call"] in removed  # the call card must exist
        or (52 - len(removed) + r["jokers"] - 2) // r["players"] < 1
    ):
        faults.add("removed_cards")
    return faults


def make_game(rules: str | dict[str, Any], players: int, seed: int) -> tuple[Any, dict[str, Any]]:
    """The game, or reject the example (after checking that the RulesError was documented)."""
    expected = expected_rules(rules, players)
    faults = contradictions(expected)
    try:
        g = torampu.new_game("napoleon", rules=rules, players=players, seed=seed)
    except RulesError as e:
        assert faults, f"RulesError for a combination with no documented contradiction: {e}"
        assert any(f"'{f}'" in str(e) for f in faults), f"{e} names none of {faults}"
        reject()
    assert not faults, f"no RulesError although {faults} contradict"
    resolved = g.to_record()["rules"]
    assert set(resolved) == set(OPTIONS)
    assert {k: v for k, v in resolved.items() if k != "removed_cards"} == {
        k: v for k, v in expected.items() if k != "removed_cards"
    }
    assert sorted(resolved["removed_cards"]) == sorted(expected["removed_cards"])
    return g, resolved


@FAST
@given(rule_choices(valid_bias=False), st.sampled_from([4, 5, 6]))
def test_rules_errors_exactly_for_documented_contradictions(
    rules: str | dict[str, Any], players: int
) -> None:
    faults = contradictions(expected_rules(rules, players))
    try:
        torampu.new_game("napoleon", rules=rules, players=players, seed=1)
    except RulesError as e:
        assert faults, f"RulesError for a combination with no documented contradiction: {e}"
        assert any(f"'{f}'" in str(e) for f in faults), f"{e} names none of {faults}"
    else:
        assert not faults, f"no RulesError although {faults} contradict"


# ---------------------------------------------------------------------------------- the model
def canonical(cards: set[str] | list[str]) -> list[str]:
    """Multi-card order of actions: ascending rank, then suit S H D C, the joker last."""
    return sorted(
        cards, key=lambda c: (99, 0) if c == "JK" else (RANKS.index(c[0]), SUITS.index(c[1]))
    )


def deck_of(r: Mapping[str, Any]) -> list[str]:
    return [c for c in CARDS52 if c not in r["removed_cards"]] + (["JK"] if r["jokers"] else [])


class Model:
    """Where every card is, tracked from the deal and the actions alone."""

    def __init__(self, g: Any, r: dict[str, Any]) -> None:
        self.r = r
        self.n: int = r["players"]
        self.deck = deck_of(r)
        self.hand_size = (len(self.deck) - 2) // self.n
        self.widow_size = len(self.deck) - self.hand_size * self.n
        self.redeals = 0
        self.deal(g)
        rec = g.to_record()["deal"]
        assert [set(h) for h in rec["hands"]] == self.hands
        assert set(rec["widow"]) == self.widow

    def deal(self, g: Any) -> None:
        """A fresh deal: read each hand from its owner's view and check it is a deal."""
        self.hands = [set(g.view(s)["hand"]) for s in range(self.n)]
        dealt = [c for h in self.hands for c in h]
        assert all(len(h) == self.hand_size for h in self.hands)
        assert len(set(dealt)) == len(dealt), "a card is dealt twice"
        assert set(dealt) <= set(self.deck)
        self.widow = set(self.deck) - set(dealt)
        assert len(self.widow) == self.widow_size
        self.played: list[tuple[int, str]] = []
        self.discards: set[str] = set()
        self.nap: int | None = None
        self.bid = 0
        self.adj_card: str | None = None
        self.alone_declared = False
        self.adj_seat: int | None = None  # the true adjutant, once play starts

    @property
    def played_cards(self) -> set[str]:
        return {c for _, c in self.played}

    def revealed(self) -> set[str]:
        mode = self.r["reveal_discards"]
        if mode == "all":
            return set(self.discards)
        if mode == "honors":
            return self.discards & HONORS
        return set()

    def hidden_from(self, seat: int | None) -> set[str]:
        out = set(self.widow)  # nonempty only until the Napoleon takes it into the hand
        for t, h in enumerate(self.hands):
            if t != seat:
                out |= h
        if seat is None or seat != self.nap:
            out |= self.discards - self.revealed()
        return out

    def may_know_adjutant(self, seat: int | None, phase: str) -> bool:
        if phase == "over" or self.alone_declared:
            return True
        c = self.adj_card
        if c is None:
            return False
        if c in self.played_cards or c in self.revealed():
            return True
        if seat is None:
            return False
        if c in self.hands[seat]:
            return True
        return seat == self.nap and c in self.discards

    def step(self, seat: int, action: str, phase: str) -> None:
        """Apply an action just played in ``phase`` by ``seat``."""
        words = action.split()
        if phase == "adjutant":
            if action == "alone":
                self.alone_declared = True
            else:
                self.adj_card = words[1]
        elif phase == "exchange":
            assert self.nap is not None
            cards = set(words[1:])
            assert cards <= self.hands[self.nap]
            self.hands[self.nap] -= cards
            self.discards = cards
        elif phase == "play":
            card = words[1]
            assert card in self.hands[seat], f"seat {seat} played {card} it does not hold"
            self.hands[seat].discard(card)
            self.played.append((seat, card))

    def after(self, g: Any, pub: dict[str, Any]) -> None:
        """Follow the game's phase changes (read from the public view)."""
        if pub["redeals"] != self.redeals:
            assert pub["redeals"] == self.redeals + 1 and pub["phase"] == "bid"
            self.redeals += 1
            self.deal(g)
            return
        if self.nap is None and pub["napoleon"] is not None:
            self.nap = pub["napoleon"]
            bids = [a for a in pub["auction"] if a["action"] != "pass"]
            if not bids:  # all passed: napoleon-web's forced contract
                assert self.r["all_pass"] == "first_bidder_12S"
                assert self.nap == pub["first_bidder"] and pub["contract"] == "12S"
            else:
                assert bids[-1]["seat"] == self.nap, "the Napoleon is not the last bidder"
                assert pub["contract"] == bids[-1]["action"].split()[1]
            self.bid = int(pub["contract"][:-1])
        if pub["phase"] == "exchange" and self.widow:
            assert self.nap is not None
            self.hands[self.nap] |= self.widow
            self.widow = set()
        if pub["phase"] in ("play", "over") and self.adj_seat is None:
            assert self.nap is not None and not self.widow
            self.adj_seat = self.nap
            if not self.alone_declared:
                for s, h in enumerate(self.hands):
                    if self.adj_card in h:
                        self.adj_seat = s

    @property
    def alone(self) -> bool:
        return self.alone_declared or self.adj_seat == self.nap


# ---------------------------------------------------------------------------------- view checks
def json_safe(obj: Any) -> None:
    assert json.loads(json.dumps(obj)) == obj, "not JSON-safe (tuples, non-str keys, …)"


def _strings(obj: Any, out: list[str]) -> list[str]:
    """Every string (keys included) in a JSON value, except under keys that name cards without
    placing them, and except the ``adjutant X`` legal actions (any card may be named)."""
    t = type(obj)
    if t is str:
        out.append(obj)
    elif t is dict:
        for k, v in obj.items():
            out.append(k)
            if k in NOT_PLACING:
                continue
            if k == "legal_actions":
                v = [a for a in v if not a.startswith("adjutant ")]
            _strings(v, out)
    elif t is list or t is tuple:
        for v in obj:
            if type(v) is str:
                out.append(v)
            else:
                _strings(v, out)
    return out


def cards_named(view: Any) -> set[str]:
    """Every card string placed anywhere in a view."""
    return set(CARD_RE.findall("\n".join(_strings(view, []))))


NAMES_ADJUTANT = re.compile(r'"adjutant": (?!null)|"adjutant_revealed"')
"""In a view's JSON text: an adjutant seat given, or a trick that revealed the adjutant."""


def played_in_view(v: dict[str, Any]) -> list[tuple[int, str]]:
    tricks = [*v["tricks"], {"cards": v["trick"]}]
    return [(e["seat"], e["card"]) for t in tricks for e in t["cards"]]


def check_views(g: Any, m: Model, legal: list[str], *, json_check: bool = True) -> dict[str, str]:
    """Every seat's view and the spectator's against the model; returns them as JSON text."""
    phase = g.phase
    out: dict[str, str] = {}
    for seat in [None, *range(m.n)]:
        v = g.view(seat)
        text = out[str(seat)] = json.dumps(v, sort_keys=True)
        if json_check:
            assert json.loads(text) == v, "a view is not JSON-safe (tuples, non-str keys, …)"
        where = f"view({seat}) in phase {phase}"
        leaked = cards_named(v) & m.hidden_from(seat)
        assert not leaked, f"{where} leaks {sorted(leaked)}"
        assert v["phase"] == phase and v["to_play"] == g.to_play
        assert v["hand_sizes"] == [len(h) for h in m.hands]
        assert played_in_view(v) == m.played
        if seat is None:
            assert v["hand"] is None, "the spectator sees a hand"
            assert v.get("widow") is None
            assert v["legal_actions"] == []
        else:
            assert set(v["hand"]) == m.hands[seat]
            # (a discard of more than CHOICES_LISTED ways is described by ``choose``, not
            # listed: a thirty-second audit)
            mine = seat == g.to_play
            choose = g.choose() if mine else None
            assert v["choose"] == choose
            assert v["legal_actions"] == (legal if mine and listed(choose) else [])
            if choose is not None:
                assert choose["ways"] == len(legal) and all(
                    a.split()[0] == choose["verb"] and len(a.split()) == 1 + choose["max"]
                    for a in legal
                )
        if m.may_know_adjutant(seat, phase):
            if v["adjutant_known"] and phase not in ("play", "over") and not m.alone_declared:
                # the exchange: the named card's holder knows (the Napoleon holding it, from
                # the widow or their own, plays alone)
                assert phase == "exchange" and m.adj_card in m.hands[seat], where
                alone = seat == m.nap
                assert v["adjutant"] == (None if alone else seat), where
                assert v["alone"] is alone, where
            elif v["adjutant_known"]:
                if phase not in ("play", "over"):
                    assert m.alone_declared, where
                true = None if m.alone else m.adj_seat
                assert v["adjutant"] == true, f"{where}: adjutant {v['adjutant']}, not {true}"
                assert v["alone"] is m.alone, f"{where}: alone {v['alone']}, not {m.alone}"
            else:
                assert v["adjutant"] is None and v["alone"] is None, where
        else:
            assert v["adjutant_known"] is False, f"{where} knows the adjutant"
            assert not NAMES_ADJUTANT.search(text), f"{where} names the adjutant"
            assert v["alone"] is None, f"{where} tells whether the Napoleon is alone"
    return out


# ---------------------------------------------------------------------------------- illegal
def illegal_candidates(
    g: Any, m: Model, legal: list[str], rng: random.Random
) -> tuple[list[str], list[str]]:
    """(canonical actions that are not legal now, free-form strings that might be aliases)."""
    seat = g.to_play
    hand = sorted(m.hands[seat])
    others = sorted(set(m.deck) - m.hands[seat])
    counts = range(m.r["min_bid"], 21)
    canon = ["pass", "alone", "bid 20S", "bid 20N", f"bid {m.r['min_bid']}C", "bid 1S"]
    canon += [f"bid {rng.choice(counts)}{rng.choice('CDHSN')}" for _ in range(3)]
    canon += ["adjutant AS", "adjutant JK", "adjutant " + rng.choice(ALL_CARDS)]
    canon += ["play " + c for c in rng.sample(others, min(4, len(others)))]
    canon += ["play " + c for c in hand]  # in the play phase: those that do not follow
    canon += ["play 3S call", "play 8S call", "play AS call"]
    k = m.widow_size
    for size in (k - 1, k + 1, k):
        if 0 < size <= len(hand):
            canon.append("discard " + " ".join(canonical(rng.sample(hand, size))))
    if others:
        mixed = [*rng.sample(hand, min(k - 1, len(hand))), rng.choice(others)]
        canon.append("discard " + " ".join(canonical(mixed)))
    legal_set = set(legal)
    free = ["", " ", "xyz", "play", "play ZZ", "play AS AS", "bid", "bid 21S", "bid 0S", "bid 13X"]
    free += ["bid two", "adjutant", "adjutant XX", "discard", "discard XX", "pass pass", "PASS"]
    free += ["alone now", "bid 13S extra", "play 3S shout", "play as", "bid 13s", "play 10H"]
    free += [
        f"{rng.choice(['play', 'bid', 'discard', 'adjutant', 'Play'])} "
        f"{rng.choice([*ALL_CARDS, '13s', '10S', '♠A', 'jk', 'X'])}".lower()
        for _ in range(3)
    ]
    return [a for a in dict.fromkeys(canon) if a not in legal_set], free


def snapshot(g: Any) -> tuple[Any, ...]:
    views = [json.dumps(g.view(s), sort_keys=True) for s in [None, *range(g.players)]]
    return json.dumps(g.to_record(), sort_keys=True), views, g.to_play, g.phase, g.legal_actions()


def must_raise(g: Any, action: Any) -> None:
    try:
        g.play(action)
    except IllegalAction:
        return
    raise AssertionError(f"illegal action {action!r} accepted in phase {g.phase}")


def check_illegal(g: Any, m: Model, legal: list[str], rng: random.Random, junk: list[str]) -> None:
    """Illegal actions raise IllegalAction and change nothing; free-form strings that the engine
    accepts must be spellings of a legal action."""
    canon, free = illegal_candidates(g, m, legal, rng)
    before = snapshot(g)
    rec = before[0]
    for a in canon:
        must_raise(g, a)
        assert json.dumps(g.to_record(), sort_keys=True) == rec, f"{a!r} changed the record"
    legal_set = set(legal)
    for a in [*free, *junk]:
        if a in legal_set:
            continue
        c = g.clone()
        try:
            c.play(a)
        except IllegalAction:
            pass
        else:
            spelled = c.to_record()["actions"][-1]["action"]
            assert spelled in legal_set, f"{a!r} was accepted as {spelled!r}, which is not legal"
            continue
        must_raise(g, a)
        assert json.dumps(g.to_record(), sort_keys=True) == rec, f"{a!r} changed the record"
    for bad in (None, 3, ["pass"]):
        must_raise(g, bad)
    assert snapshot(g) == before, "an illegal action changed a view"


# ---------------------------------------------------------------------------------- random play
def choose_index(n: int, phase: str, rng: random.Random, alone_at: int | None = None) -> int:
    """A random legal action's index, biased towards realistic auctions (passes, low bids); in
    the bid phase index 0 is the pass, the bids follow from the lowest."""
    if phase == "bid":
        if rng.random() < 0.6 or n == 1:
            return 0
        return 1 + int(rng.random() * min(10, n - 1))
    if alone_at is not None and rng.random() < 0.2:
        return alone_at
    return int(rng.random() * n)


def choose(legal: list[str], phase: str, rng: random.Random) -> str:
    alone_at = legal.index("alone") if phase == "adjutant" and "alone" in legal else None
    return legal[choose_index(len(legal), phase, rng, alone_at)]


def check_legal(g: Any, m: Model, legal: list[str]) -> None:
    assert legal, "no legal action in a game that is not over"
    assert len(set(legal)) == len(legal)
    assert [g.action_str(mv) for mv in g.legal_moves()] == legal, "fast path != public API"
    seat = g.to_play
    phase = g.phase
    if phase == "bid":
        assert legal[0] == "pass"
    elif phase == "exchange":
        assert seat == m.nap
        for a in legal:
            cards = a.split()[1:]
            assert len(cards) == m.widow_size and set(cards) <= m.hands[seat]
    elif phase == "play":
        cards = {a.split()[1] for a in legal}
        assert cards <= m.hands[seat], "a legal play is not in the hand"
        if len(m.played) % m.n == 0:  # leading
            assert cards == m.hands[seat], "a leader may play any card"


def play_game(
    g: Any, r: dict[str, Any], rng: random.Random, junk: list[str], *, per_step: bool = True
) -> Model:
    """Play ``g`` to the end with random legal actions, checking the contract along the way."""
    m = Model(g, r)
    clones: list[tuple[Any, str]] = []
    replay_at = rng.randrange(60)
    last_phase = None
    for step in range(MAX_STEPS):
        if g.is_over:
            break
        legal = g.legal_actions()
        seat, phase = g.to_play, g.phase
        if per_step:
            check_legal(g, m, legal)
            views = check_views(g, m, legal, json_check=step % 8 == 0)
            if phase != last_phase or rng.random() < 0.08:
                check_illegal(g, m, legal, rng, junk)
            if rng.random() < 0.05:  # a clone is independent of its original
                c = g.clone()
                rec = json.dumps(g.to_record(), sort_keys=True)
                with time_limit(5, f"playout(rng) on a clone at step {step}"):
                    c.playout(random.Random(step))
                assert c.is_over
                assert json.dumps(g.to_record(), sort_keys=True) == rec, "a clone changed it"
                assert check_views(g, m, legal, json_check=False) == views, (
                    "a clone's play changed a view"
                )
                clones.append((c, json.dumps(c.to_record(), sort_keys=True)))
        if step == replay_at:
            rec = json.loads(json.dumps(g.to_record()))
            assert torampu.replay(rec).to_record() == rec, "a mid-game record does not replay"
        action = choose(legal, phase, rng)
        with time_limit(0.5, f"play({action!r}) by seat {seat} in phase {phase} at step {step}"):
            g.play(action)
        m.step(seat, action, phase)
        m.after(g, g.view(None))
        last_phase = phase
    else:
        raise AssertionError(f"the game did not end in {MAX_STEPS} steps")
    for c, rec in clones:
        assert json.dumps(c.to_record(), sort_keys=True) == rec, "the original changed a clone"
    check_views(g, m, [])
    assert g.legal_actions() == [] and g.to_play is None
    with pytest.raises(IllegalAction):
        g.play("pass")
    return m


# ---------------------------------------------------------------------------------- end checks
def army_wins(r: Mapping[str, Any], bid: int, army: int) -> bool:
    if r["all_twenty"] == "lose" and army == 20 and bid < 20:
        return False
    return army >= bid


def check_result(g: Any, m: Model) -> dict[str, Any]:
    """Conservation of cards and honors, early end, and the scoring table."""
    r, n = m.r, m.n
    res = g.result()
    json_safe(res)
    pub = g.view(None)
    assert pub["result"] == res and g.to_record()["result"] == res
    # every card of the deck exactly once: played, discarded, or (early end) still in a hand
    played = [c for _, c in m.played]
    left = [c for h in m.hands for c in h]
    assert not m.widow
    assert Counter(played + sorted(m.discards) + left) == Counter(m.deck)
    assert len(m.discards) == m.widow_size
    if not res["early_end"]:
        assert not left, "the game ended with cards in hand"
    else:
        assert r["early_end"] and left
    # the teams
    nap, adj = m.nap, m.adj_seat
    assert nap is not None and adj is not None
    assert res["napoleon"] == nap
    assert res["alone"] is m.alone
    assert res["adjutant"] == (None if m.alone else adj)
    assert res["alone_declared"] is m.alone_declared
    assert res["adjutant_card"] == m.adj_card
    assert res["contract"] == pub["contract"]
    # honors: taken per seat from the tricks, discarded, untaken
    taken: list[set[str]] = [set() for _ in range(n)]
    tricks = pub["tricks"]
    assert pub["trick"] == []
    for t in tricks:
        taken[t["winner"]] |= {e["card"] for e in t["cards"]} & HONORS
    assert [set(h) for h in pub["honors_taken"]] == taken
    assert pub["honor_counts"] == [len(t) for t in taken]
    army_side = {nap, adj}
    army = sum(len(taken[s]) for s in army_side)
    allied = sum(len(taken[s]) for s in range(n) if s not in army_side)
    disc = len(m.discards & HONORS)
    untaken = len(set(left) & HONORS)
    if r["discarded_honors"] == "napoleon":
        army += disc
    assert res["army_honors"] == army
    assert res["discarded_honors"] == disc
    allies_get = disc if r["discarded_honors"] == "allies" else 0
    assert res["allied_honors"] == allied + allies_get
    nobody = disc if r["discarded_honors"] == "nobody" else 0
    assert res["army_honors"] + res["allied_honors"] + nobody + untaken == 20
    # the outcome; an early end exactly when it became certain
    bid = m.bid
    won = army_wins(r, bid, army)
    assert res["army_won"] is won
    assert res["all_twenty"] is (army == 20)
    if r["early_end"]:
        outcomes = {army_wins(r, bid, army + k) for k in range(untaken + 1)}
        assert len(outcomes) == 1, "the game ended early, but the outcome was open"
        army_k = disc if r["discarded_honors"] == "napoleon" else 0
        open_k = 20 - disc
        # early_end_judged public: certain on the true teams is enough only once the adjutant
        # and the discarded honors are public (test_napoleon_rules checks the rest)
        public = r["early_end_judged"] == "public"
        shown = m.alone_declared or m.adj_card in m.revealed()
        for i, t in enumerate([None, *tricks[:-1]]):
            if t is not None:
                h = {e["card"] for e in t["cards"]} & HONORS
                open_k -= len(h)
                army_k += len(h) if t["winner"] in army_side else 0
                shown = shown or m.adj_card in {e["card"] for e in t["cards"]}
            if public and not (shown and r["reveal_discards"] != "none"):
                continue
            if i < len(tricks):
                certain = len({army_wins(r, bid, army_k + k) for k in range(open_k + 1)}) == 1
                assert not certain, f"the outcome was certain after {i} tricks, play went on"
    # the scores
    doubled = r["all_twenty"] == "lose" and army == 20
    assert res["doubled"] is doubled
    factor = 2 if doubled else 1
    sign = 1 if won else -1
    scores = []
    for s in range(n):
        if r["scoring"] == "points" and s == nap:
            v = 4 if m.alone else 2
        else:
            v = 1 if s in army_side else -1
        scores.append(v * sign * factor)
    assert res["scores"] == scores
    if r["scoring"] == "points":
        assert sum(res["scores"]) == sign * factor * (2 + 1 - (n - 2))
    else:
        k = len(army_side)
        assert sum(res["scores"]) == sign * factor * (k - (n - k))
    assert res["winners"] == sorted(s for s in range(n) if (s in army_side) == won)
    assert res["redeals"] == m.redeals
    return res


def check_replay(g: Any) -> None:
    rec = g.to_record()
    text = json.dumps(rec)
    back = json.loads(text)
    assert back == rec, "the record is not JSON-safe"
    assert back["format"] == "torampu/1" and back["game"] == "napoleon"
    h = torampu.replay(back)
    assert h.to_record() == rec, "the record does not replay to itself"
    assert h.result() == g.result()
    assert [h.view(s) for s in [None, *range(g.players)]] == [
        g.view(s) for s in [None, *range(g.players)]
    ]


# ---------------------------------------------------------------------------------- properties
@GAMES
@given(setups, junk_strings)
def test_random_game_through_public_api(
    setup: tuple[str | dict[str, Any], int, int, int], junk: list[str]
) -> None:
    rules, players, seed, policy = setup
    g, r = make_game(rules, players, seed)
    m = play_game(g, r, random.Random(policy), junk)
    note(f"record: {json.dumps(g.to_record())}")
    check_result(g, m)
    check_replay(g)


@FAST_PATH
@given(setups)
def test_fast_path_and_playout(setup: tuple[str | dict[str, Any], int, int, int]) -> None:
    rules, players, seed, policy = setup
    g, _ = make_game(rules, players, seed)
    rng = random.Random(policy)
    # legal_moves + apply: each move is its action string, and the record replays
    mid = None
    stop = rng.randrange(80)
    steps = 0
    while not g.is_over:
        steps += 1
        assert steps < MAX_STEPS
        moves = g.legal_moves()
        assert moves
        if steps == stop:
            mid = g.clone()
        phase = g.phase
        alone = phase == "adjutant" and g.action_str(moves[-1]) == "alone"
        mv = moves[choose_index(len(moves), phase, rng, len(moves) - 1 if alone else None)]
        assert g.parse_action(g.action_str(mv)) == mv
        with time_limit(0.5, f"apply({g.action_str(mv)!r}) in phase {phase} at step {steps}"):
            g.apply(mv)
    check_replay(g)
    # the same game through the public API, replaying the fast path's actions
    h = torampu.new_game("napoleon", rules=rules, players=players, seed=seed)
    for step in g.to_record()["actions"]:
        assert h.to_play == step["seat"]
        h.play(step["action"])
    assert h.to_record() == g.to_record()
    # playout from the start and from a mid-game clone
    p = torampu.new_game("napoleon", rules=rules, players=players, seed=seed)
    with time_limit(5, "playout(rng) from the deal"):
        p.playout(random.Random(policy))
    assert p.is_over
    check_replay(p)
    if mid is not None:
        before = mid.to_record()
        c = mid.clone()
        with time_limit(5, f"playout(rng) from step {stop} on a clone"):
            c.playout(random.Random(policy + 1))
        assert c.is_over and mid.to_record() == before, "playout on a clone changed it"
        assert c.to_record()["actions"][: len(before["actions"])] == before["actions"]
        check_replay(c)


@MATCHES
@given(setups, st.integers(1, 3), st.integers(0, 5))
def test_match_standings_and_replay(
    setup: tuple[str | dict[str, Any], int, int, int], games: int, dealer: int
) -> None:
    rules, players, seed, policy = setup
    make_game(rules, players, seed)  # rejects contradictory rules
    dealer %= players
    mt = torampu.new_match(
        "napoleon", rules=rules, players=players, games=games, seed=seed, dealer=dealer
    )
    rng = random.Random(policy)
    replay_at = rng.randrange(200)
    steps = 0
    while not mt.is_over:
        steps += 1
        assert steps < MAX_STEPS * games
        if steps == replay_at:
            rec = json.loads(json.dumps(mt.to_record()))
            assert torampu.replay_match(rec).to_record() == rec
        legal = mt.legal_actions()
        action = choose(legal, mt.phase, rng)
        with time_limit(0.5, f"match play({action!r}) in phase {mt.phase} at step {steps}"):
            mt.play(action)
    rec = mt.to_record()
    json_safe(rec)
    assert len(rec["records"]) == games
    st_ = mt.standings()
    json_safe(st_)
    per_game = [g["result"]["scores"] for g in rec["records"]]
    assert st_["per_game"] == per_game
    assert st_["totals"] == [sum(col) for col in zip(*per_game, strict=True)]
    assert st_["games_played"] == games
    assert st_["leaders"] == [s for s, v in enumerate(st_["totals"]) if v == max(st_["totals"])]
    assert rec["standings"] == st_
    last_nap = None
    for i, grec in enumerate(rec["records"]):
        assert grec["dealer"] == (dealer + i) % players
        if i and rec["rules"]["first_bidder"] == "last_napoleon":
            assert grec["first_bidder"] == last_nap
        last_nap = grec["result"]["napoleon"]
        assert torampu.replay(grec).to_record() == grec
    back = json.loads(json.dumps(rec))
    assert torampu.replay_match(back).to_record() == rec
    with pytest.raises(IllegalAction):
        mt.play("pass")
