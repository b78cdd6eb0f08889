"""Features of a Daifugo move, as the mover sees it: the input of the learned policy.

:func:`move_features` describes every legal move of the seat to play in an engine state
(:class:`~torampu.daifugo.Daifugo`) by :data:`N_FEATURES` numbers. They read only what that
seat knows — its own hand, the table, the order (革命 / 11バック), the lock, how many cards the
others hold and the rules — never another seat's cards, so a determinization gives the same
features as the real game, and a search may call them inside its rollouts.

Two blocks share one vector (the other block is zero): the *play* block (a play or a pass) and
the *cards* block (an exchange return, a 7渡し give, a 10捨て discard). The play block holds
the play's shape (single / group / run / pass), its rank in the order of the moment (0 the
weakest, 1 the strongest; a lone joker 13/12), its size, whether it uses a joker or the top rank,
whether it is an 8切り or makes a revolution (and whether the revolution helps the rest of the
hand), the cards left after it, how the rest splits into plays (one per rank plus the jokers)
and how many of them are singles, whether it breaks a group, whether it leaves one play (could
be the last), whether it is a lead or a follow (and how far above the table's rank), whether it
locks, the fewest cards any opponent holds, and, for a single of a rank the hand holds once (a
*lone* card), whether it is the weakest lone card in the order of the moment, the second-weakest
or a stronger one (on any play, and again on leads). Each decision's moves are compared with each
other only (a softmax), so a feature that is the same for every move counts only through its
products with the others.

The per-decision context is computed once per call of :func:`move_features`; the per-move part
is a few dozen integer operations (see ``bench/daifugo_policy.py``).
"""

from __future__ import annotations

from typing import Final

from torampu.daifugo import PH_EXCHANGE, PH_PLAY, Daifugo
from torampu.daifugo_plays import (
    D8,
    DRANK,
    GROUP,
    JOKER_RANK,
    JSHIFT,
    PASS,
    RANK_SET,
    REAL,
    RUN,
    SINGLE,
    info,
)

PLAY_FEATURES: Final = (
    "pass",
    "pass_lead",
    "pass_table_rank",
    "pass_opp_short",
    "pass_cards",
    "single",
    "group",
    "run",
    "size",
    "rank",
    "rank_sq",
    "joker_alone",
    "joker_in",
    "top_rank",
    "eight_cut",
    "revolution",
    "revolution_gain",
    "left",
    "out",
    "plays_left",
    "singles_left",
    "one_play_left",
    "breaks_group",
    "strong_left",
    "lead",
    "lead_rank",
    "lead_size",
    "follow_rank",
    "follow_gap",
    "locks",
    "opp_short_rank",
    "opp_short_size",
    "cards_rank",
    "top_rank_lead",
    "unbeatable",
    "lead_unbeatable",
    "winners_left",
    "losers_left",
    "lone_low",
    "lone_second",
    "lone_high",
    "lead_lone_low",
    "lead_lone_second",
    "lead_lone_high",
    "pass_losers",
)
CARDS_FEATURES: Final = (
    "c_count",
    "c_rank",
    "c_max_rank",
    "c_joker",
    "c_top",
    "c_plays_left",
    "c_singles_left",
    "c_breaks",
    "c_clears_rank",
)
M_JOKER: Final = 91
"""The move class of a lone joker (the others: kind × rank, see :data:`N_KEYS`)."""
M_PASS: Final = 104
N_MOVES: Final = 105
K_LEAD: Final = 0
K_LEFT: Final = K_LEAD + N_MOVES * 2
K_OPP: Final = K_LEFT + N_MOVES * 8
K_UNBEAT: Final = K_OPP + N_MOVES * 5
K_ACTIVE: Final = K_UNBEAT + N_MOVES * 2
K_TABLE: Final = K_ACTIVE + N_MOVES * 4
K_HAND: Final = K_TABLE + N_MOVES * 14
K_JOKER: Final = K_HAND + 13 * 25
N_KEYS: Final = K_JOKER + 9
"""The binary keys of a play (:func:`move_keys`), a richer and sparser description than
:data:`FEATURES`, each with its own weight in a policy's table. A play's *class* is its kind
and size (single; group of 2, 3, 4+; run of 3, 4, 5+) and its rank in the order of the moment
(13 classes each), or a lone joker, or a pass: 105 classes. Each play has the key of its class
crossed with each of: lead or follow; its mover's cards left after it (0–4, 5–6, 7–9, 10+);
the fewest cards an opponent holds (1, 2, 3, 4–5, 6+); whether it cannot be beaten; how many
players are still in (2, 3, 4, 5+); and, when following, the table's rank in the order (or a
joker). Then one key per rank it takes cards of — the rank in the order, how many the hand held
and holds after — and one for the jokers it uses, so the weights can value what the play leaves
in the hand."""
FEATURES: Final = PLAY_FEATURES + CARDS_FEATURES
"""The names of the features, in vector order."""
N_FEATURES: Final = len(FEATURES)
_NP: Final = len(PLAY_FEATURES)
_ZERO_PLAY: Final = [0.0] * _NP
_ZERO_CARDS: Final = [0.0] * len(CARDS_FEATURES)
_RANKS: Final = tuple(enumerate(RANK_SET))


def _split(hand: int, jokers: int) -> tuple[int, int]:
    """(plays, singles) of a hand played one rank at a time: one play per rank held, plus one
    for the jokers; singles are the ranks held once."""
    plays = 1 if jokers else 0
    singles = 0
    for _, rs in _RANKS:
        c = (hand & rs).bit_count()
        if c:
            plays += 1
            if c == 1:
                singles += 1
    return plays, singles


def move_features(g: Daifugo, moves: list[int]) -> list[list[float]]:
    """One feature vector (:data:`FEATURES`) per move of ``moves`` (legal at ``g``) for the
    seat to play."""
    return _describe(g, moves, None)


def move_keys(g: Daifugo, moves: list[int]) -> tuple[list[list[float]], list[list[int]]]:
    """:func:`move_features` and, per move, its :data:`N_KEYS` binary keys (the indices of the
    keys it has; none outside the play phase).

    >>> import torampu
    >>> g = torampu.new_game("daifugo", "uecda", seed=1)
    >>> while g.phase_id != PH_PLAY:
    ...     g._apply(g.legal_moves()[0])
    >>> moves = g.legal_moves()
    >>> feats, keys = move_keys(g, moves)
    >>> feats == move_features(g, moves), len(keys) == len(moves)
    (True, True)
    >>> all(0 <= k < N_KEYS for ks in keys for k in ks), min(len(ks) for ks in keys) >= 5
    (True, True)
    """
    keys: list[list[int]] = []
    return _describe(g, moves, keys), keys


def _bucket_left(n: int) -> int:
    if n <= 4:
        return n
    if n <= 6:
        return 5
    return 6 if n <= 9 else 7


def _bucket_opp(n: int) -> int:
    if n <= 3:
        return n - 1 if n > 0 else 0
    return 3 if n <= 5 else 4


def _describe(g: Daifugo, moves: list[int], keys: list[list[int]] | None) -> list[list[float]]:
    """The features of ``moves`` and, when ``keys`` is a list, each move's keys appended to it."""
    s = g.turn
    hand = g.hands[s]
    jok = g.jok[s]
    rev = g.reversed
    ncards = hand.bit_count() + jok
    counts = [(hand & rs).bit_count() for rs in RANK_SET]
    opp = 99
    active = g.active
    hands = g.hands
    jk = g.jok
    unseen = 0  # the others' cards: the same in every determinization of the seat's view
    uj = 0
    for o in range(g.n):
        if o != s:
            unseen |= hands[o]
            uj += jk[o]
            if active >> o & 1:
                c = hands[o].bit_count() + jk[o]
                if c < opp:
                    opp = c
    short = 1.0 if opp <= 2 else 0.0
    if g.phase_id != PH_PLAY:
        if keys is not None:
            for _ in moves:
                keys.append([])
        return [
            _ZERO_PLAY + _card_features(m, counts, jok, rev and g.phase_id != PH_EXCHANGE)
            for m in moves
        ]
    r = g.rules
    t = g.table_info
    lead = t is None
    table_rank = 0.0
    table_suits = 0
    if t is not None:
        tr = (
            t.rank
            if not rev or t.rank == JOKER_RANK
            else 12 - (t.high if t.kind == RUN else t.rank)
        )
        table_rank = tr / 12.0
        table_suits = t.suits
    lockable = (r["lock"] or r["strict_lock"]) and not g.lock_suits and t is not None
    eight = r["eight_cut"]
    quad_rev = r["revolution"]
    stair_rev = r["stair_revolution"]
    fcards = ncards / 13.0
    # the hand's strength sum in the current order and flipped (for the revolution's gain)
    sum_now = 0
    for d in range(13):
        if counts[d]:
            sum_now += counts[d] * (12 - d if rev else d)
    nreal = ncards - jok
    base_plays, base_singles = _split(hand, jok)
    # above[e]: the most cards of one rank stronger than order position e the others may hold,
    # plus their jokers; a play of size k at position e is unbeatable when above[e] < k
    above = [0] * 13
    most = 0
    for e in range(12, -1, -1):
        above[e] = most + uj
        c = (unseen & RANK_SET[12 - e if rev else e]).bit_count()
        if c > most:
            most = c
    win = [counts[d] > above[12 - d if rev else d] for d in range(13)]
    base_winners = sum(win) + (1 if jok else 0)
    # the lone ranks (held once): the order positions of the weakest and second-weakest
    lone_low = 99
    lone_second = 99
    for d in range(13):
        if counts[d] == 1:
            e = 12 - d if rev else d
            if e < lone_low:
                lone_second = lone_low
                lone_low = e
            elif e < lone_second:
                lone_second = e
    # the keys' context: the same for every move of the decision
    k_lead = 1 if lead else 0
    k_opp = _bucket_opp(opp)
    if t is None:
        k_table = -1
    elif t.rank == JOKER_RANK:
        k_table = 13
    else:
        k_table = 12 - (t.high if t.kind == RUN else t.rank) if rev else t.rank
    k_active = min(max(active.bit_count(), 2), 5) - 2
    out: list[list[float]] = []
    for m in moves:
        if m == PASS:
            if keys is not None:
                keys.append(_keys(M_PASS, k_lead, ncards, k_opp, k_table, 0, k_active))
            out.append(
                [
                    1.0,
                    1.0 if lead else 0.0,
                    table_rank,
                    short,
                    fcards,
                    *_ZERO_PLAY[5:-1],
                    (base_plays - base_winners) / 10.0,
                    *_ZERO_CARDS,
                ]
            )
            continue
        i = info(m)
        kind = i.kind
        size = i.size
        rank = i.rank
        if rank == JOKER_RANK:
            er = 13
        elif rev:
            er = 12 - (i.high if kind == RUN else rank)
        else:
            er = rank
        fr = er / 12.0
        real = m & REAL
        used_j = m >> JSHIFT & 3
        left = ncards - size
        # the plays left: adjust the split for the ranks this play touches
        plays = base_plays
        singles = base_singles
        winners = base_winners
        breaks = 0.0
        gain_sum = 0
        if kind == RUN:  # one card of each rank it spans
            touched: list[tuple[int, int]] = []
            bits = real
            while bits:
                low = bits & -bits
                touched.append((DRANK[low.bit_length() - 1], 1))
                bits ^= low
        elif real:
            touched = [(rank, real.bit_count())]
        else:
            touched = []
        for d, took in touched:
            before = counts[d]
            after = before - took
            if win[d]:
                winners -= 1
            if after:
                breaks = 1.0
                if after == 1:
                    singles += 1
                if after > above[12 - d if rev else d]:
                    winners += 1
            else:
                plays -= 1
            if before == 1:
                singles -= 1
            gain_sum += took * (12 - d if rev else d)
        if used_j and used_j == jok:
            plays -= 1
            winners -= 1
        # strength of what is left, and how a revolution would change it
        left_real = nreal - (size - used_j)
        rest_sum = sum_now - gain_sum
        revolt = (quad_rev and kind == GROUP and size >= 4) or (
            stair_rev and kind == RUN and size >= 5
        )
        rgain = 0.0
        if revolt and left_real > 0:
            # flipped strength 12 - x per card: gain = (12 * n - 2 * sum) / (12 * n)
            rgain = (12 * left_real - 2 * rest_sum) / (12.0 * left_real)
        strong = 0
        for d in (9, 10, 11, 12) if not rev else (0, 1, 2, 3):
            strong += counts[d] - (real & RANK_SET[d]).bit_count()
        strong += jok - used_j
        cut = 0.0
        if eight:
            if kind == RUN:
                cut = 1.0 if i.rank <= D8 <= i.high else 0.0
            elif i.effect == D8:
                cut = 1.0
        top = 1.0 if er == 12 else 0.0
        locks = 0.0
        if lockable and i.suits and i.suits == table_suits and not used_j:
            locks = 1.0
        fsize = size / 4.0
        if er == 13:
            mk = M_JOKER
        elif kind == RUN:
            mk = (min(size, 5) + 1) * 13 + er
        else:
            mk = (min(size, 4) - 1) * 13 + er
        if er == 13:
            unbeat = 1.0
        elif kind == RUN:
            unbeat = 1.0 if above[er] < 1 else 0.0
        else:
            unbeat = 1.0 if above[er] < size else 0.0
        lone1 = 0.0
        lone2 = 0.0
        lone3 = 0.0
        if kind == SINGLE and real and counts[rank] == 1:
            if er == lone_low:
                lone1 = 1.0
            elif er == lone_second:
                lone2 = 1.0
            else:
                lone3 = 1.0
        if keys is not None:
            ks = _keys(mk, k_lead, left, k_opp, k_table, 1 if unbeat else 0, k_active)
            for d, took in touched:
                before = counts[d]
                ks.append(K_HAND + (12 - d if rev else d) * 25 + before * 5 + before - took)
            if used_j:
                ks.append(K_JOKER + jok * 3 + jok - used_j)
            keys.append(ks)
        out.append(
            [
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                1.0 if kind == SINGLE else 0.0,
                1.0 if kind == GROUP else 0.0,
                1.0 if kind == RUN else 0.0,
                fsize,
                fr,
                fr * fr,
                1.0 if not real else 0.0,
                1.0 if used_j and real else 0.0,
                top,
                cut,
                1.0 if revolt else 0.0,
                rgain,
                left / 13.0,
                1.0 if left == 0 else 0.0,
                plays / 10.0,
                singles / 10.0,
                1.0 if plays == 1 else 0.0,
                breaks,
                strong / 4.0,
                1.0 if lead else 0.0,
                fr if lead else 0.0,
                fsize if lead else 0.0,
                0.0 if lead else fr,
                0.0 if lead else fr - table_rank,
                locks,
                short * fr,
                short * fsize,
                fcards * fr,
                top if lead else 0.0,
                unbeat,
                unbeat if lead else 0.0,
                winners / 4.0,
                (plays - winners) / 10.0,
                lone1,
                lone2,
                lone3,
                lone1 if lead else 0.0,
                lone2 if lead else 0.0,
                lone3 if lead else 0.0,
                0.0,
                *_ZERO_CARDS,
            ]
        )
    return out


def _keys(mk: int, lead: int, left: int, opp: int, table: int, unbeat: int, act: int) -> list[int]:
    """A play's keys but those of the cards it takes (see :data:`N_KEYS`)."""
    ks = [
        K_LEAD + mk * 2 + lead,
        K_LEFT + mk * 8 + _bucket_left(left),
        K_OPP + mk * 5 + opp,
        K_UNBEAT + mk * 2 + unbeat,
        K_ACTIVE + mk * 4 + act,
    ]
    if table >= 0:
        ks.append(K_TABLE + mk * 14 + table)
    return ks


def _card_features(m: int, counts: list[int], jok: int, rev: bool) -> list[float]:
    """The cards block: what an exchange return, a give or a discard takes from the hand."""
    real = m & REAL
    used_j = m >> JSHIFT & 3
    n = real.bit_count() + used_j
    if n == 0:
        return [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    total = 0
    top = -1
    twos = 0
    plays = 1 if jok - used_j else 0
    singles = 0
    breaks = 0
    clears = 0
    for d, rs in _RANKS:
        before = counts[d]
        if not before:
            continue
        took = (real & rs).bit_count()
        after = before - took
        if took:
            er = 12 - d if rev else d
            total += took * er
            if er > top:
                top = er
            if er == 12:
                twos += took
            if after:
                breaks += 1
            else:
                clears += 1
        if after:
            plays += 1
            if after == 1:
                singles += 1
    if used_j:
        top = 13
        total += 13 * used_j
    return [
        n / 4.0,
        total / (12.0 * n),
        top / 12.0,
        float(used_j),
        twos / 2.0,
        plays / 10.0,
        singles / 10.0,
        breaks / 2.0,
        clears / 2.0,
    ]


__all__ = [
    "CARDS_FEATURES",
    "FEATURES",
    "N_FEATURES",
    "N_KEYS",
    "PLAY_FEATURES",
    "move_features",
    "move_keys",
]
