"""The ``heuristic`` bot for Daifugo (大富豪): a hand-planning player that sees only ``view(seat)``.

Strategy
--------
**Hand plan ("turns to go out").** The hand is split into *melds* — a group per rank, runs (階段)
where a run sheds cards that would otherwise be weak singles, and jokers as singles or as the
extra card of a group when that is cheaper. Each meld gets a *control* estimate ``c`` in 0..1:
the chance that nobody beats it when it is played, from the cards still unseen (every card not
in the hand, not played in the log and not discarded), the number of opponents that could hold a
beating combination (exact balls-in-bins odds: ``u`` unseen cards of a rank among ``m`` hands)
and the rules (8切り and 砂嵐 always take the lead, a lone joker fears only ♠3). A meld costs
``1 - 2c``: a weak meld (``c ≈ 0``) needs a lead of its own (+1), a control meld (``c ≈ 1``)
wins a lead for another one (−1). The sum ``T`` is the number of "turns to go out" (lower is
better). A hand whose melds would all be forbidden finishes (``forbidden_finish``: 2, joker,
♥K, joker 8-cut) gets a heavy penalty, so such cards are shed while something else remains.

**Choosing a play.** Every distinct legal play ``p`` (plays that differ only by suit are judged
once, by their best representative) scores ``-T(hand - p) + P_win(p) · L(hand - p)``: the plan
left after the play, plus the chance ``P_win`` that ``p`` wins the round (same odds as above,
but in the order in force after ``p`` — 11バック, 革命 —, with locks, 5とび skips and the players
still in the round) times the value ``L`` of the next lead (the cost of the weakest meld left,
since a lead sheds it for free). Passing scores ``-T(hand)``. Consequences:

* leading: it sheds its weakest meld, preferring the play that clears the most weak cards
  (groups and runs before singles) and never breaking a pair or a run needlessly;
* following: it sheds weak and middling cards on others' plays, keeps 2s, jokers and 8s (8切り)
  until they win a lead that matters, and does not break a strong pair for a single unless the
  plan says it is close to going out;
* it plays a control card when the lead lets it go out soon (``L`` is large, ``T`` small);
* revolutions: a play that causes 革命 (or 階段革命, クーデター) is judged with ``T`` in the
  reversed order, so it revolts with a weak hand and avoids it with a strong one;
* 7渡し / 10捨て: the cards it may then give or discard are taken off in the plan, and a play
  that lets it go out by giving everything away counts as going out;
* going out: a play that empties the hand is always taken unless it is a forbidden finish; a
  forbidden finish is avoided whenever any other action exists.

**Exchange, give, discard.** It returns, gives or discards the cards whose removal lowers ``T``
the most — its weakest loose cards, keeping groups, runs and control cards — and under
``8JK`` never gives away its last card after a 7/10 play with a joker.

The bot is deterministic (no randomness; the seed is kept for the interface) and fast: the
plan of a hand is memoized within a decision and action strings are parsed once per process.
It never touches a game object: only the JSON-safe view and the legal action strings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import factorial
from typing import Any, Final, NamedTuple

from torampu.bots.base import Bot, View
from torampu.cards import card_str
from torampu.daifugo_plays import (
    D2,
    D3,
    D4,
    D5,
    D7,
    D8,
    D9,
    D10,
    DA,
    DJ,
    DK,
    DRANK,
    GROUP,
    JOKER_RANK,
    RUN,
    SINGLE,
    card_at,
    cards_words,
    info,
    parse_play,
)

# ------------------------------------------------------------------------------------ tables
JK: Final = 52
CARD: Final[dict[str, int]] = {card_str(c): c for c in range(53)}
"""Card string -> card (``JK`` is 52)."""
POP4: Final = tuple(bin(i).count("1") for i in range(16))
HEARTS_BIT: Final = 1 << 1
SPADES_BIT: Final = 1
THREE_SPADES: Final = card_at(D3, 0)
KING_HEARTS: Final = card_at(DK, 1)
FULL: Final = (1 << 52) - 1
STRONGER: Final = (
    tuple(tuple(range(d + 1, 13)) for d in range(14)),
    tuple(tuple(range(d - 1, -1, -1)) for d in range(14)),
)
"""``STRONGER[reversed][rank]``: the ranks that beat ``rank`` (3..2), strongest last/first."""

Hand = tuple[int, ...]
"""A hand's real cards: the suits held of each rank 3..2 (13 masks, bit s for suit s)."""


def _q_table(max_u: int = 8, max_k: int = 8, max_m: int = 8) -> list[list[list[float]]]:
    """``Q[u][k][m]``: the chance that one of ``m`` hands holds ``k`` or more of ``u`` cards
    dealt at random (balls in bins: 1 - u! [x^u] (sum_{i<k} x^i/i!)^m / m^u)."""
    q = [[[0.0] * (max_m + 1) for _ in range(max_k + 1)] for _ in range(max_u + 1)]
    for m in range(1, max_m + 1):
        for k in range(1, max_k + 1):
            base = [1.0 / factorial(i) if i < k else 0.0 for i in range(max_u + 1)]
            poly = [1.0] + [0.0] * max_u
            for _ in range(m):
                nxt = [0.0] * (max_u + 1)
                for i, a in enumerate(poly):
                    if a:
                        for j in range(max_u + 1 - i):
                            nxt[i + j] += a * base[j]
                poly = nxt
            for u in range(max_u + 1):
                q[u][k][m] = max(0.0, 1.0 - factorial(u) * poly[u] / m**u)
    return q


Q: Final = _q_table()


def q_beat(u: int, k: int, m: int) -> float:
    """The chance that one of ``m`` opponents holds ``k`` of ``u`` unseen cards."""
    if u < k or m <= 0:
        return 0.0
    if k > 8:
        return 0.0
    return Q[min(u, 8)][k][min(m, 8)]


# ------------------------------------------------------------------------------------ plays
class Play(NamedTuple):
    """A legal ``play …`` action, read once (cached by its string)."""

    action: str
    kind: int
    """SINGLE, GROUP or RUN."""
    size: int
    lo: int
    """The rank it stands for (a run: its lowest); JOKER_RANK for jokers only."""
    hi: int
    suits: int
    """Suits of its real cards."""
    jokers: int
    cards: tuple[tuple[int, int], ...]
    """(rank, suit bit) of each real card."""
    real: int
    """Its real cards as a card set."""
    effect: int
    """The rank whose card effects apply (-1 for jokers only)."""
    n_effect: int
    has_two: bool
    has_kh: bool


_PLAYS: dict[str, Play] = {}


def play_of(action: str) -> Play:
    """The :class:`Play` of a ``play …`` action string (memoized)."""
    got = _PLAYS.get(action)
    if got is not None:
        return got
    i = info(parse_play(action[5:]))
    real = i.real
    cards = []
    r = real
    while r:
        low = r & -r
        c = low.bit_length() - 1
        cards.append((DRANK[c], 1 << (c // 13)))
        r ^= low
    got = Play(
        action,
        i.kind,
        i.size,
        i.rank,
        i.high,
        i.suits,
        i.jokers,
        tuple(cards),
        real,
        i.effect,
        i.n_effect,
        any(d == D2 for d, _ in cards),
        bool(real >> KING_HEARTS & 1),
    )
    if len(_PLAYS) > 200_000:
        _PLAYS.clear()
    _PLAYS[action] = got
    return got


_WORDS: dict[str, tuple[int, int]] = {}


def cards_of_action(action: str) -> tuple[int, int]:
    """(real card set, jokers) named by an action string after its verb (memoized)."""
    got = _WORDS.get(action)
    if got is not None:
        return got
    real = 0
    jokers = 0
    for w in action.split()[1:]:
        if w.startswith("JK"):
            jokers += 1
        else:
            real |= 1 << CARD[w]
    if len(_WORDS) > 200_000:
        _WORDS.clear()
    _WORDS[action] = got = (real, jokers)
    return got


def hand_of(cards: int) -> Hand:
    """A card set as 13 suit masks."""
    masks = [0] * 13
    while cards:
        low = cards & -cards
        c = low.bit_length() - 1
        masks[DRANK[c]] |= 1 << (c // 13)
        cards ^= low
    return tuple(masks)


# ------------------------------------------------------------------------------------ tuning
@dataclass(frozen=True)
class Params:
    """The bot's constants (tuned by self-play against random and against variants)."""

    beat_willing: float = 0.8
    """How often an opponent who can beat a play does (a card held is not always spent)."""
    joker_willing: float = 0.55
    """The same for a lone joker played on a single."""
    eight_control: float = 0.85
    """The control of an 8 under 8切り (it flushes whenever it can be played)."""
    forbid_penalty: float = 3.0
    """Added to T when every meld left would be a forbidden finish."""
    pass_cost: float = 0.5
    """The tempo lost by passing."""
    shed_bonus: float = 0.03
    """Per card played: prefer shedding more cards among equals."""
    keep_control: float = 0.12
    """Cost of spending control (``c`` of the play) on a play that does not finish."""
    break_penalty: float = 0.15
    """Cost of taking cards from a larger group of the same rank (breaking a pair or triple)."""
    break_control: float = 1.0
    """… plus this much times the control of the group broken (a pair of 2s is precious)."""
    big7_per_card: float = 0.45
    """T per card of an unknown hand (after ビッグセブン)."""
    weak_weight: float = 1.0
    """Extra cost of a meld that needs a lead of its own (weak, and hard to follow with)."""
    ctrl_weight: float = 1.0
    """Credit of a meld for the lead it wins."""
    lead_base: float = 1.0
    """What a lead is worth beyond shedding the meld that most needs one."""
    follow_freq: tuple[float, ...] = (0.0, 1.0, 0.45, 0.15, 0.03)
    """How often a meld of each size can be shed on an opponent's play of the same shape."""
    run_follow: float = 0.1
    """The same for a run."""
    last_lead: float = 5.0
    """Bonus (times ``P_win``) for a play after which the hand goes out in one more play."""
    lead_low: float = 0.5
    """Leading: bonus for weak cards (in proportion to how few unseen cards they beat)."""
    flush_lead: float = 1.0
    """Leading: cost of spending a flushing play's control on a lead we already have."""


DEFAULT: Final = Params()
FINISH: Final = 1000.0
FOUL: Final = -1000.0


def is_foul(p: Play, bad: Sequence[str], eight_cut: bool) -> bool:
    """Whether going out with ``p`` is a forbidden finish (mirrors the rules digest)."""
    if not bad:
        return False
    if "2" in bad and p.has_two:
        return True
    if "JK" in bad and p.jokers:
        return True
    if "KH" in bad and p.has_kh:
        return True
    return "8JK" in bad and p.jokers > 0 and eight_cut and p.effect == D8


# ------------------------------------------------------------------------------------ context
class Ctx:
    """What one decision knows: the hand, the unseen cards, the opponents, the rules, and the
    memo tables of the plan (valid for this decision only)."""

    def __init__(self, view: View, params: Params) -> None:
        self.p = params
        rules: Mapping[str, Any] = view["rules"]
        self.rules = rules
        self.wild = bool(rules["joker_wild"])
        self.stairs = bool(rules["stairs"])
        self.eight_cut = bool(rules["eight_cut"])
        self.sandstorm = bool(rules["sandstorm"])
        self.spade3 = bool(rules["spade3_return"])
        self.bad: list[str] = list(rules.get("forbidden_finish") or [])
        me: int = view["seat"]
        self.me = me
        real = 0
        jokers = 0
        for w in view["hand"]:
            c = CARD[w]
            if c == JK:
                jokers += 1
            else:
                real |= 1 << c
        self.real = real
        self.jokers = jokers
        self.hand = hand_of(real)
        seen = real
        seen_j = jokers
        last_play_mine: str | None = None
        for e in view["log"]:
            a = e["action"]
            if a.startswith("play "):
                r, j = cards_of_action(a)
                seen |= r
                seen_j += j
                if e.get("seat") == me:
                    last_play_mine = a
        self.last_play_mine = last_play_mine
        for w in view.get("discarded") or ():
            c = CARD[w]
            if c == JK:
                seen_j += 1
            else:
                seen |= 1 << c
        unseen = FULL & ~seen
        self.unseen = unseen
        self.u_suits = hand_of(unseen)
        self.u_cnt = tuple(POP4[m] for m in self.u_suits)
        self.uj = max(0, int(rules["jokers"]) - seen_j)
        self.spade3_unseen = bool(unseen >> THREE_SPADES & 1)
        sizes: list[int] = view["hand_sizes"]
        self.sizes = sizes
        self.opp = [sizes[s] for s in range(len(sizes)) if s != me and sizes[s] > 0]
        passed = set(view.get("passed") or ())
        rejoin = bool(rules["pass_rejoin"])
        self.eligible = [
            sizes[s]
            for s in range(len(sizes))
            if s != me and sizes[s] > 0 and (rejoin or s not in passed)
        ]
        self.revolution = bool(view["revolution"])
        self.rev_now = bool(view["reversed"])
        self.fixed = bool(view.get("coup"))
        self.table: Mapping[str, Any] | None = view.get("table")
        lock = view.get("lock")
        self.lock_suits = 0
        self.strict = False
        if lock:
            for s in lock["suits"]:
                self.lock_suits |= 1 << "SHDC".index(s)
            self.strict = bool(lock["strict"])
        self._ctrl: dict[tuple[int, int, bool], float] = {}
        self._run: dict[tuple[int, int, int, bool], float] = {}
        self._turns: dict[tuple[Hand, int, bool], tuple[float, float]] = {}
        self._cost: dict[tuple[int, int, bool], float] = {}
        self._weaker: dict[tuple[int, bool], float] = {}

    # -------------------------------------------------------------- odds
    def m_at_least(self, k: int, sizes: Sequence[int]) -> int:
        return sum(1 for x in sizes if x >= k)

    def ctrl_group(self, d: int, k: int, rev: bool) -> float:
        """The chance that a group of ``k`` cards of rank ``d`` led now wins its round."""
        key = (d, k, rev)
        got = self._ctrl.get(key)
        if got is not None:
            return got
        got = self._group_odds(d, k, rev, self.opp, 0, False)
        self._ctrl[key] = got
        return got

    def _is_storm(self, d: int, k: int) -> bool:
        if not self.sandstorm:
            return False
        rev = self.revolution
        return (k == 3 and d == (D2 if rev else D3)) or (k == 4 and d == (DA if rev else D4))

    def _group_odds(
        self, d: int, k: int, rev: bool, sizes: Sequence[int], suits: int, strict: bool
    ) -> float:
        """Nobody beats ``k`` cards of rank ``d``: only ``suits`` may follow when non-zero
        (a lock), only the next rank when ``strict``."""
        pr = self.p
        if d == JOKER_RANK:
            if k > 1:
                return 1.0
            if not (self.spade3 and self.spade3_unseen) or strict:
                return 1.0
            if suits and not suits & SPADES_BIT:
                return 1.0
            return 1.0 - pr.beat_willing * q_beat(1, 1, self.m_at_least(1, sizes))
        if self._is_storm(d, k):
            return 1.0
        m = self.m_at_least(k, sizes)
        if m == 0:
            return 1.0
        w = pr.beat_willing
        extra = self.uj if self.wild and k > 1 else 0
        p = 1.0
        ranks = STRONGER[rev][d]
        if strict:
            ranks = ranks[:1]  # 激縛: only the next rank (in the order in force)
        for r in ranks:
            u = POP4[self.u_suits[r] & suits] if suits else self.u_cnt[r]
            u += extra
            if u >= k:
                p *= 1.0 - w * q_beat(u, k, m)
        if self.uj:
            if k == 1:
                p *= 1.0 - pr.joker_willing * q_beat(self.uj, 1, m)
            elif self.wild:
                p *= 1.0 - w * q_beat(self.uj, k, m)
        if self.eight_cut and d == D8:
            p = max(p, pr.eight_control)
        return p

    def ctrl_run(self, lo: int, hi: int, suit: int, rev: bool) -> float:
        """The chance that a run lo..hi led now wins its round."""
        key = (lo, hi, suit, rev)
        got = self._run.get(key)
        if got is None:
            got = self._run_odds(lo, hi, rev, self.opp, 0)
            if self.eight_cut and hi == D8:
                got = max(got, self.p.eight_control)
            self._run[key] = got
        return got

    def _run_odds(self, lo: int, hi: int, rev: bool, sizes: Sequence[int], suits: int) -> float:
        n = hi - lo + 1
        m = self.m_at_least(n, sizes)
        if m == 0:
            return 1.0
        starts = range(0, lo - n + 1) if rev else range(hi + 1, 13 - n + 1)
        one = (1.0 / m) ** (n - 1) * self.p.beat_willing
        jok = self.uj if self.wild else 0
        p = 1.0
        for s in range(4):
            if suits and not suits >> s & 1:
                continue
            bit = 1 << s
            for a in starts:
                missing = 0
                for d in range(a, a + n):
                    if not self.u_suits[d] & bit:
                        missing += 1
                        if missing > jok:
                            break
                if missing <= jok and missing < n:
                    p *= 1.0 - one
        return p

    # -------------------------------------------------------------- the plan
    def turns(self, hand: Hand, jokers: int, rev: bool) -> tuple[float, float]:
        """(T, L): the hand's turns to go out, and what a lead is worth to it."""
        key = (hand, jokers, rev)
        got = self._turns.get(key)
        if got is not None:
            return got
        got = self._plan(hand, jokers, rev)
        self._turns[key] = got
        return got

    def _gcost(self, d: int, k: int, rev: bool) -> float:
        if not k:
            return 0.0
        key = (d, k, rev)
        got = self._cost.get(key)
        if got is None:
            c = self.ctrl_group(d, k, rev)
            ff = self.p.follow_freq
            f = (ff[k] if k < len(ff) else ff[-1]) * self.weaker_frac(d, rev)
            got = self._meld_cost(c, f)
            self._cost[key] = got
        return got

    def _meld_cost(self, c: float, f: float) -> float:
        """A meld's cost: one play, plus the lead it may need (weak and hard to follow with),
        less the lead it may win."""
        pr = self.p
        return 1.0 + pr.weak_weight * (1.0 - c) * (1.0 - f) - pr.ctrl_weight * c

    def weaker_frac(self, d: int, rev: bool) -> float:
        """The share of the unseen cards that rank ``d`` beats (what it may follow)."""
        key = (d, rev)
        got = self._weaker.get(key)
        if got is None:
            if d == JOKER_RANK:
                got = 1.0
            else:
                total = sum(self.u_cnt) or 1
                weaker = sum(self.u_cnt[r] for r in STRONGER[not rev][d])
                got = weaker / total
            self._weaker[key] = got
        return got

    def _plan(self, hand: Hand, jokers: int, rev: bool) -> tuple[float, float]:
        cnt = [POP4[m] for m in hand]
        cost = [self._gcost(d, cnt[d], rev) for d in range(13)]
        melds: list[tuple[float, bool]] = []  # runs: (cost, forbidden)
        bad = self.bad
        bad2 = "2" in bad
        bad_kh = "KH" in bad
        if self.stairs:
            work = list(hand)
            for s in range(4):
                bit = 1 << s
                d = 0
                while d < 13:
                    if not work[d] & bit:
                        d += 1
                        continue
                    e = d
                    while e + 1 < 13 and work[e + 1] & bit:
                        e += 1
                    if e - d >= 2:
                        best = self._best_run(d, e, s, cnt, cost, rev)
                        if best is not None:
                            a, b, c_run = best
                            for x in range(a, b + 1):
                                cnt[x] -= 1
                                work[x] &= ~bit
                                cost[x] = self._gcost(x, cnt[x], rev)
                            forb = (bad2 and b == D2) or (bad_kh and s == 1 and a <= DK <= b)
                            melds.append((c_run, forb))
                    d = e + 1
        extra = [0] * 13
        loose = jokers
        if jokers:
            jc = self._gcost(JOKER_RANK, 1, rev)
            if self.wild:
                for _ in range(jokers):
                    best_d = -1
                    best_delta = -0.05
                    for d in range(13):
                        if cnt[d]:
                            k = cnt[d] + extra[d]
                            delta = self._gcost(d, k + 1, rev) - cost[d] - jc
                            if delta < best_delta:
                                best_d, best_delta = d, delta
                    if best_d < 0:
                        break
                    extra[best_d] += 1
                    cost[best_d] = self._gcost(best_d, cnt[best_d] + extra[best_d], rev)
                    loose -= 1
            for _ in range(loose):
                melds.append((jc, "JK" in bad))
        total = 0.0
        worst = 0.0
        n_ok = 0
        n_bad = 0
        for c, forb in melds:
            total += c
            worst = max(worst, c)
            if forb:
                n_bad += 1
            else:
                n_ok += 1
        for d in range(13):
            if cnt[d]:
                c = cost[d]
                total += c
                worst = max(worst, c)
                forb = (
                    (bad2 and d == D2)
                    or (extra[d] > 0 and "JK" in bad)
                    or (bad_kh and d == DK and bool(hand[d] & HEARTS_BIT))
                    or (extra[d] > 0 and "8JK" in bad and self.eight_cut and d == D8)
                )
                if forb:
                    n_bad += 1
                else:
                    n_ok += 1
        if n_bad and not n_ok:
            total += self.p.forbid_penalty
        return total, max(worst - 1.0, 0.0) + self.p.lead_base

    def _best_run(
        self, a: int, b: int, suit: int, cnt: list[int], cost: list[float], rev: bool
    ) -> tuple[int, int, float] | None:
        """The window of the chain a..b (one suit) that lowers T most as a run, if any."""
        windows: list[tuple[int, int]] = []
        if b - a <= 5:
            windows = [(x, y) for x in range(a, b - 1) for y in range(x + 2, b + 1)]
        else:
            x, y = a, b
            while y - x > 2 and cnt[x] > 1:
                x += 1
            while y - x > 2 and cnt[y] > 1:
                y -= 1
            windows = [(a, b), (x, y)]
        best: tuple[int, int, float] | None = None
        best_delta = -0.05
        for x, y in windows:
            c_run = self._meld_cost(
                self.ctrl_run(x, y, suit, rev), self.p.run_follow * self.weaker_frac(x, rev)
            )
            delta = c_run
            for d in range(x, y + 1):
                delta += self._gcost(d, cnt[d] - 1, rev) - cost[d]
            if delta < best_delta:
                best, best_delta = (x, y, c_run), delta
        return best

    def one_meld(self, hand: Hand, jokers: int, rev: bool) -> bool:
        """Whether the hand goes out in one play that is no forbidden finish."""
        n = sum(POP4[m] for m in hand) + jokers
        if n == 0 or (jokers and n > 1 and not self.wild):
            return False
        bad = self.bad
        if bad and (
            (jokers and "JK" in bad)
            or ("2" in bad and hand[D2])
            or ("KH" in bad and hand[DK] & HEARTS_BIT)
            or ("8JK" in bad and jokers and self.eight_cut and hand[D8])
        ):
            return False
        ranks = [d for d in range(13) if hand[d]]
        if len(ranks) <= 1:
            return True
        if not self.stairs or n < 3:
            return False
        suit = hand[ranks[0]]
        if POP4[suit] != 1 or any(hand[d] != suit for d in ranks):
            return False
        span = ranks[-1] - ranks[0] + 1
        return span - len(ranks) <= jokers and n <= 13

    # -------------------------------------------------------------- removing cards
    def without(self, hand: Hand, p: Play) -> Hand:
        masks = list(hand)
        for d, bit in p.cards:
            masks[d] &= ~bit
        return tuple(masks)

    def shed_weakest(self, hand: Hand, jokers: int, k: int, rev: bool) -> tuple[Hand, int]:
        """The hand after giving or discarding up to ``k`` cards, greedily: one card at a time,
        the one whose loss lowers T most (an estimate for judging 7/10 plays)."""
        for _ in range(k):
            best_t = self.turns(hand, jokers, rev)[0]
            best: tuple[Hand, int] | None = None
            for d in range(13):
                m = hand[d]
                if not m:
                    continue
                low = m & -m
                h2 = (*hand[:d], m & ~low, *hand[d + 1 :])
                t = self.turns(h2, jokers, rev)[0]
                if t < best_t - 1e-9:
                    best_t, best = t, (h2, jokers)
            if best is None:
                break
            hand, jokers = best
        return hand, jokers


def _size(hand: Hand, jokers: int) -> int:
    return sum(POP4[m] for m in hand) + jokers


# ------------------------------------------------------------------------------------ the bot
class DaifugoHeuristic:
    """The ``heuristic`` Daifugo bot (strategy in the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int = 0, params: Params = DEFAULT) -> None:
        self.seed = seed
        self.params = params

    def choose(self, view: View, legal: Sequence[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        ctx = Ctx(view, self.params)
        if phase == "play":
            return self._play(ctx, legal)
        if phase == "exchange":
            return self._cards_away(ctx, legal, "exchange", len(legal[0].split()) - 1, True)
        if phase in ("give", "discard"):
            # (at most as many as the actions offered: of a choice of very many ways a bot is
            # offered the smallest ones, see Game.legal_actions_up_to)
            most = max(len(a.split()) - 1 for a in legal)
            k = min(int(view.get("pending") or most), most)
            return self._cards_away(ctx, legal, phase, k, False)
        return legal[0]

    # -------------------------------------------------------------- play
    def _play(self, ctx: Ctx, legal: Sequence[str]) -> str:
        pr = ctx.p
        hand, jokers = ctx.hand, ctx.jokers
        n_hand = _size(hand, jokers)
        rev = ctx.revolution
        t_now, _ = ctx.turns(hand, jokers, rev)
        best_action = legal[0]
        best_score = -1e18
        plays = [play_of(a) for a in legal if a != "pass"]
        # a leader's pass (lead_pass) only leads towards the random places of a stalemate
        can_pass = legal[0] == "pass" and not (ctx.table is None and plays)
        if not can_pass and plays:
            best_action = plays[0].action
        if can_pass:
            best_score = -t_now - pr.pass_cost
        # one representative per shape: plays that differ only by suit are judged once
        reps: dict[tuple[int, int, int, int, int], tuple[float, Play]] = {}
        many = len(plays) > 40
        for p in plays:
            if many and p.jokers >= 2 and p.size != n_hand:
                continue
            key = (p.kind, p.size, p.lo, p.suits if p.kind == RUN else 0, p.jokers)
            pref = self._suit_pref(ctx, hand, p)
            old = reps.get(key)
            if old is None or pref > old[0]:
                reps[key] = (pref, p)
        for _, p in reps.values():
            score = self._score(ctx, p, hand, jokers, n_hand, rev)
            if score > best_score:
                best_score, best_action = score, p.action
        return best_action

    def _suit_pref(self, ctx: Ctx, hand: Hand, p: Play) -> float:
        """Among plays of one shape and rank: keep runs (avoid cards with same-suit neighbours),
        shed ♥K early under its forbidden finish, follow the table's suits (a lock), keep ♠3
        (the answer to a lone joker)."""
        score = 0.0
        for d, bit in p.cards:
            if ctx.stairs:
                row = 0
                for x in (d - 1, d + 1):
                    if 0 <= x < 13 and hand[x] & bit:
                        row += 1
                score -= 0.3 * row
        if p.has_kh and "KH" in ctx.bad:
            score += 1.0
        t = ctx.table
        if t is not None and ctx.rules["lock"]:
            tsuits = _suits_of_words(t["cards"])
            if tsuits == p.suits:
                score += 0.5
        if ctx.spade3 and p.real >> THREE_SPADES & 1:
            score -= 0.6  # ♠3 is the answer to a lone joker: keep it
        return score

    def _score(self, ctx: Ctx, p: Play, hand: Hand, jokers: int, n_hand: int, rev: bool) -> float:
        pr = ctx.p
        rules = ctx.rules
        left = n_hand - p.size
        if left == 0:
            return FOUL if is_foul(p, ctx.bad, ctx.eight_cut) else FINISH
        h2 = ctx.without(hand, p)
        j2 = jokers - p.jokers
        rev2 = rev
        toggles = self._toggles(ctx, p)
        if toggles and not ctx.fixed:
            rev2 = not rev
        big7 = rules["big_seven"] and p.kind == GROUP and p.size == 3 and p.effect == D7
        give = 0
        if (p.effect == D7 and rules["seven_pass"] and not big7) or (
            p.effect == D10 and rules["ten_discard"]
        ):
            give = p.n_effect
        if give:
            jk_foul = "8JK" in ctx.bad and p.jokers > 0
            if left <= give and not jk_foul:
                return FINISH - 1.0
            if jk_foul:
                give = min(give, left - 1)
            h2, j2 = ctx.shed_weakest(h2, j2, give, rev2)
        if big7:
            t2 = pr.big7_per_card * self._prev_size(ctx)
            lead = 1.0
        else:
            t2, lead = ctx.turns(h2, j2, rev2)
        pw = self._p_win(ctx, p, toggles)
        score = -t2 + pw * lead + pr.shed_bonus * p.size
        last = not big7 and ctx.one_meld(h2, j2, rev2)
        if last:
            # if it wins the round, the next lead goes out
            score += pw * pr.last_lead
        # spending control on a play that does not finish
        score -= pr.keep_control * self._own_ctrl(ctx, p, rev)
        if ctx.table is None:
            # leading: the weaker the cards, the more a lead is the only way to shed them
            if p.lo != JOKER_RANK:
                score += pr.lead_low * (1.0 - ctx.weaker_frac(p.lo, rev))
            if pw >= 1.0 and not last:
                # a lead that flushes (8切り, 砂嵐) keeps a lead we already had: its control
                # is spent for nothing
                score -= pr.flush_lead * self._own_ctrl(ctx, p, rev)
        # breaking a group of the same rank
        if p.kind != RUN and p.cards:
            d = p.cards[0][0]
            k = POP4[hand[d]]
            if k > len(p.cards) and not last:
                score -= pr.break_penalty + pr.break_control * ctx.ctrl_group(d, k, rev)
        return score

    def _own_ctrl(self, ctx: Ctx, p: Play, rev: bool) -> float:
        if p.kind == RUN:
            return ctx.ctrl_run(p.lo, p.hi, 0, rev) * 0.5
        return ctx.ctrl_group(p.lo, p.size, rev)

    def _prev_size(self, ctx: Ctx) -> int:
        sizes = ctx.sizes
        n = len(sizes)
        for k in range(1, n):
            s = (ctx.me - k) % n
            if sizes[s] > 0:
                return sizes[s]
        return 0

    def _toggles(self, ctx: Ctx, p: Play) -> bool:
        """Whether ``p`` reverses the order for the rest of the game (革命, 階段革命,
        クーデター)."""
        r = ctx.rules
        if p.kind == GROUP and ctx._is_storm(p.lo, p.size):
            return False
        if r["revolution"] and p.kind == GROUP and p.size >= 4:
            return True
        if r["stair_revolution"] and p.kind == RUN and p.size >= 5:
            return True
        return bool(r["coup"] and p.kind == GROUP and p.size == 3 and p.effect == D9)

    def _p_win(self, ctx: Ctx, p: Play, toggles: bool) -> float:
        """The chance that ``p`` wins the round (nobody beats it)."""
        r = ctx.rules
        if ctx.eight_cut and p.effect == D8:
            return 1.0
        if p.kind == GROUP and ctx._is_storm(p.lo, p.size):
            return 1.0
        t = ctx.table
        if (
            t is not None
            and ctx.spade3
            and t["shape"] == "single"
            and t["cards"] == ["JK"]
            and p.kind == SINGLE
            and p.real >> THREE_SPADES & 1
        ):
            return 1.0
        rev = ctx.rev_now
        if toggles and not ctx.fixed:
            rev = not rev
        if r["eleven_back"] and p.effect == DJ:
            rev = not rev
        sizes = ctx.eligible
        if r["five_skip"] and p.effect == D5:
            skip = 2 * p.n_effect - 1
            if skip >= len(sizes):
                return 1.0
            sizes = sorted(sizes)[skip:]
        suits = ctx.lock_suits
        strict = ctx.strict
        half = False
        if not suits and t is not None and p.jokers == 0 and (r["lock"] or r["reverse_lock"]):
            tsuits = _suits_of_words(t["cards"])
            if tsuits == p.suits and "JK" not in " ".join(t["cards"]):
                suits = p.suits
                half = not self._weaker_than_table(ctx, p)
        if p.kind == RUN:
            run_suit = p.suits if suits else 0
            odds = ctx._run_odds(p.lo, p.hi, rev, sizes, run_suit)
            if half:
                odds = 0.5 * (odds + ctx._run_odds(p.lo, p.hi, rev, sizes, 0))
            return odds
        odds = ctx._group_odds(p.lo, p.size, rev, sizes, suits, strict)
        if half:
            odds = 0.5 * (odds + ctx._group_odds(p.lo, p.size, rev, sizes, 0, False))
        return odds

    def _weaker_than_table(self, ctx: Ctx, p: Play) -> bool:
        t = ctx.table
        if t is None or p.kind == RUN:
            return False
        words = [w for w in t["stands_for"] if w != "JK"]
        if not words:
            return False
        w = words[0]
        d = "3456789TJQKA2".index(w[0])
        return p.lo < d if not ctx.rev_now else p.lo > d

    # -------------------------------------------------------------- exchange, give, discard
    def _cards_away(self, ctx: Ctx, legal: Sequence[str], verb: str, k: int, exact: bool) -> str:
        """Return (exchange: exactly ``k``), give or discard (up to ``k``) the cards whose loss
        lowers the plan's T most: its weakest loose cards; jokers are never given away."""
        hand, jokers = ctx.hand, ctx.jokers
        rev = ctx.revolution
        n_hand = _size(hand, jokers)
        if not exact:
            # going out by giving / discarding everything is no foul, unless (8JK) the 7/10
            # play used a joker
            last = ctx.last_play_mine
            jk_foul = last is not None and "8JK" in ctx.bad and play_of(last).jokers > 0
            if k >= n_hand and not jk_foul:
                everything = self._action(verb, ctx.real, jokers)
                if everything in legal:
                    return everything
            if jk_foul:
                k = min(k, n_hand - 1)
        pool = self._pool(hand, rev)
        if exact and len(pool) < k:
            pool = [(d, 1 << s) for d in range(13) for s in range(4) if hand[d] >> s & 1]
        best_t = float("inf")
        best: int | None = None
        for size in [k] if exact else range(k + 1):
            for combo in combinations(pool, min(size, len(pool))):
                h2 = list(hand)
                out = 0
                for d, bit in combo:
                    h2[d] &= ~bit
                    out |= 1 << card_at(d, bit.bit_length() - 1)
                t = ctx.turns(tuple(h2), jokers, rev)[0]
                if t < best_t - 1e-9:
                    best_t, best = t, out
        if best is not None:
            a = self._action(verb, best, 0)
            if a in legal:
                return a
        return legal[0]

    def _pool(self, hand: Hand, rev: bool) -> list[tuple[int, int]]:
        """The up to 8 weakest cards (in the current order of the game), weakest first."""
        order = range(12, -1, -1) if rev else range(13)
        out: list[tuple[int, int]] = []
        for d in order:
            m = hand[d]
            for s in range(4):
                if m >> s & 1:
                    out.append((d, 1 << s))
            if len(out) >= 8:
                break
        return out[:8]

    def _action(self, verb: str, real: int, jokers: int) -> str:
        return " ".join([verb, *cards_words(real, jokers)])


def _suits_of_words(words: Sequence[str]) -> int:
    out = 0
    for w in words:
        if not w.startswith("JK"):
            out |= 1 << "SHDC".index(w[1])
    return out


def turns_to_go_out(view: View, params: Params = DEFAULT) -> float:
    """The plan's ``T`` for the hand of ``view``'s seat (lower is closer to going out)."""
    ctx = Ctx(view, params)
    return ctx.turns(ctx.hand, ctx.jokers, ctx.revolution)[0]


def make_daifugo_bot(seed: int) -> Bot:
    """A new ``heuristic`` Daifugo bot (for ``make_bot("heuristic", game="daifugo")``)."""
    return DaifugoHeuristic(seed)
