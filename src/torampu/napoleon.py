"""Japanese Napoleon (ナポレオン), with every local rule of the sources as an option.

The rules (sources 000, 001, 002; digest in ``spec/rules.md`` §1)
-----------------------------------------------------------------
4–6 players (5 is best), 52 cards or 53 with a joker. Each player gets ``(deck - 2) // players``
cards; the rest is the widow, face down. Honors (絵札) are the 20 cards A K Q J T.

1. **Bid** (``bid 13S``, ``pass``). From the first bidder, round and round the table, a player
   bids a count of honors the Napoleon's army will take and a trump suit (``N``: no trump, with
   ``no_trump``). A bid beats another with a higher count, or the same count and a higher suit,
   ``N > S > H > D > C``. A passed player may bid again (soft pass) unless ``pass_is_final``. When
   all but the highest bidder have passed in a row, the highest bidder is the Napoleon. If all
   pass, the cards are redealt by the same dealer (``all_pass``). ``max_bid`` caps the count.
2. **Adjutant** (``adjutant AS`` or, with ``declare_alone``, ``alone``). The Napoleon names a card;
   its holder is the secret adjutant until the card is played. If the Napoleon holds it, or it is
   in the widow, the Napoleon plays alone. ``adjutant_timing`` puts this before or after:
3. **Exchange** (``discard 2C 3D``): the Napoleon takes the widow and puts back as many cards.
   Discarded honors count for the allies, nobody, or the army (``discarded_honors``);
   ``reveal_discards`` says which are
   shown to everyone. In 000's 4-player game the four discards are put down face up, so the
   classic presets with 4 players resolve ``reveal_discards`` to ``all`` unless it is given.
4. **Play**: the Napoleon leads; must follow suit; the winner of a trick leads the next; honors in
   a trick go to its winner. Strength: Mighty ``AS``, 正J (jack of trumps), 裏J (the other jack of
   the trump's colour), trumps, the led suit; anything else never wins. Local rules change this:
   the joker (``joker_mode``, ``joker_call``), same-two, よろめき, killer Queens, 裏J as a trump for
   following, no trumping on the first trick.
5. **Result**: the army (Napoleon and adjutant) wins with at least the bid count of honors.
   ``scoring`` is 001's points table or win/loss; ``all_twenty`` is 001's all-20 rule.

The napoleon-web preset
-----------------------
``napoleon-web`` is the rule set of eletim/napoleon-web (its ``packages/game-core``), an outside
program with a learned player (the ``onnx-napoleon`` bot plays it). What 000-002 do not have is
switched by these options:

* ``max_bid: 19`` — bids run 13..19 (``bidding.ts``: ``maxBidTargetPointCards``).
* ``all_pass: first_bidder_12S`` — when all five pass, the first bidder is the Napoleon with the
  contract 12S instead of a redeal (``game.ts``, ``pass``).
* ``discarded_honors: napoleon`` — honors the Napoleon discards count for the army
  (``awardedPointCards`` go to the Napoleon in ``scoring.ts``); they are shown (``honors``).
* ``joker_mode: request_lowest`` — led, the joker requests trumps and is itself the lowest trump
  (the 2 of trumps beats it; it wins only if no trump is played); followed, it is the lowest card
  of the led suit and may be played at any time (``trick.ts``: joker rank 1, category trump when
  led, lead when followed). It never wins when followed.
* ``same_two_joker: blocks`` — a joker anywhere in the trick stops same-two (``trick.ts``,
  ``findSameTwoWinner``); with ``matches`` (the default) a followed request joker is wild.

Their same-two also skips the first trick and gives way to Mighty and the jacks (our
``same_two_first_trick: false``, ``same_two_beats_specials: false``), their よろめき is ours, the
adjutant is named before the exchange, and their result is win or loss (``scoring: win_loss``).

Rulings beyond ``rules.md``
---------------------------
* The joker matches any suit for the same-two test in the request modes (001: a followed joker
  "stands for any suit"); in ``trump_top`` it is a trump.
* よろめき's ``QH`` ranks just above Mighty; a ``trump_top`` joker or a led strong joker still
  beats it.
* With killers, ``QS`` steals the strongest kill in its trick; the other killer keeps its own.
* ``first_trick_trumps: false`` removes the power of plain trumps only; Mighty, the jacks and the
  joker keep theirs.
* ``play 3S call`` is offered to a leader who holds the call card while the joker is neither in
  their hand nor played; a called joker never wins.
* With ``early_end``, the game stops when the outcome is certain. ``early_end_judged`` says certain
  to whom. ``true_teams`` (the default, as every record before the option was made) judges on the
  real adjutant and discards, so a game going on tells everyone that no seat whose honors would
  settle it is the adjutant. ``public`` (``house-002``; 002 stops when failing is
  「明らかとなった」, and 「当の本人以外、副官が誰かはわからない」) judges on what a spectator's
  view shows: the game stops only when the outcome is the same in every world a spectator cannot
  rule out (:meth:`Napoleon.public_worlds`). Until the adjutant card is played or shown among
  the discards (or the Napoleon declared alone), any seat may hold it — the Napoleon's own seat
  meaning he plays alone (he named his own card, or it was in the widow, so it is in his hand or
  his discards) — except seats that showed a void in the suit the card follows as, or did not
  answer a joker call while it is the joker. With ``reveal_discards: none`` the number of honors
  among the discards is unknown too. A world must also fit the hand sizes (Hall's condition on
  the unseen cards). The stop itself scores as a full game would: the true world is one of them.

>>> g = new_napoleon(rules="classic", seed=1)
>>> g.phase, g.to_play, g.legal_actions()[:3]
('bid', 1, ['pass', 'bid 11C', 'bid 11D'])
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Final

from torampu.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    HONORS,
    JACK,
    JOKER,
    JOKER_BIT,
    QUEEN,
    SPADES,
    SUIT_LETTERS,
    Card,
    CardSet,
    card_list,
    card_str,
    cards_of,
    deck,
    make_card,
    parse_card,
    parse_cards,
    shuffled,
)
from torampu.errors import CardError, DealError, IllegalAction, RulesError
from torampu.explain import Reason, explain
from torampu.game import Move, Seat, listed, new_seed
from torampu.options import Option, Rules, RuleSpec
from torampu.trick import (
    _BIT,
    _MOVES_OF,
    _STRS_OF,
    NO_SUIT,
    TrickGame,
    _moves_of,
    parse_hands,
    suit_masks_plain,
)

# ---------------------------------------------------------------------------------------- options
OPTIONS: Final = [
    Option("players", "int", (5, 4, 6), "number of players", source="000"),
    Option("jokers", "int", (0, 1), "0: 52 cards; 1: 53 cards with a joker", source="000/001"),
    Option(
        "removed_cards",
        "cards",
        (),
        "cards taken out before dealing (000: 4 players remove low cards for 10 tricks and a "
        "2-card widow; with same_two remove 3s/4s, not 2s)",
        source="000",
    ),
    Option(
        "min_bid", "int", (11, *range(10, 11), *range(12, 21)), "lowest bid count", source="000/001"
    ),
    Option(
        "max_bid",
        "int",
        (20, *range(10, 20)),
        "highest bid count (napoleon-web: 19)",
        source="napoleon-web",
    ),
    Option(
        "all_pass",
        "choice",
        ("redeal", "first_bidder_12S"),
        "when everyone passes: redeal (000), or the first bidder is the Napoleon at 12S "
        "(napoleon-web)",
        source="000/napoleon-web",
    ),
    Option("no_trump", "bool", (False, True), "allow no-trump bids (12N)", source="002"),
    Option(
        "first_bidder",
        "choice",
        ("dealer_left", "last_napoleon"),
        "who opens the auction in later games of a match",
        source="000",
    ),
    Option(
        "pass_is_final",
        "bool",
        (False, True),
        "false: soft pass, a passed player may bid again later",
        source="001",
    ),
    Option(
        "adjutant_timing",
        "choice",
        ("before_exchange", "after_exchange"),
        "name the adjutant card before or after taking the widow",
        source="000",
    ),
    Option(
        "declare_alone",
        "bool",
        (False, True),
        "the Napoleon may name no card and fight alone, publicly",
        source="002",
    ),
    Option(
        "reveal_discards",
        "choice",
        ("honors", "all", "none"),
        "which discards are shown to everyone",
        source="000/001/002",
    ),
    Option(
        "discarded_honors",
        "choice",
        ("allies", "nobody", "napoleon"),
        "who scores honors that the Napoleon discards (napoleon: they count for the army, "
        "as in napoleon-web)",
        source="000/napoleon-web",
    ),
    Option(
        "ura_jack_suit",
        "choice",
        ("own", "trump"),
        "裏J follows as its printed suit (000) or as a trump (002)",
        source="000/002",
    ),
    Option(
        "first_trick_trumps",
        "bool",
        (True, False),
        "false: on the first trick plain trumps have no power (002)",
        source="002",
    ),
    Option(
        "same_two",
        "bool",
        (False, True),
        "セイムツー: an all-one-suit trick is won by its 2",
        source="000/001/002",
    ),
    Option(
        "same_two_first_trick",
        "bool",
        (False, True),
        "false: same-two does not apply on the first trick (001/002)",
        source="001/002",
    ),
    Option(
        "same_two_joker",
        "choice",
        ("matches", "blocks"),
        "matches: a joker in the trick counts as the suit for same-two (request modes: any "
        "suit; trump_top: trumps); blocks: a joker in the trick stops same-two (napoleon-web)",
        source="001/napoleon-web",
    ),
    Option(
        "same_two_beats_specials",
        "bool",
        (False, True),
        "true: the same-two 2 beats even Mighty, the jacks and a led joker",
        source="000",
    ),
    Option(
        "yoromeki",
        "bool",
        (False, True),
        "よろめき: QH beats Mighty in the same trick",
        source="001",
    ),
    Option(
        "killers",
        "bool",
        (False, True),
        "killer Queens: QH kills Mighty, QD 正J, QC 裏J; QS steals a kill (横取り)",
        source="000",
    ),
    Option(
        "joker_mode",
        "choice",
        ("trump_top", "request_weak", "request_strong", "request_lowest"),
        "the joker: strongest trump (000), or a led trump request (001 weak, 002 strong; "
        "request_lowest: led it is the lowest trump, followed the lowest card, napoleon-web)",
        source="000/001/002/napoleon-web",
    ),
    Option(
        "joker_call",
        "choice",
        ("none", "3S", "8S"),
        "leading this card with a call forces the joker out (002: 3S, 001: 8S)",
        source="001/002",
    ),
    Option(
        "early_end", "bool", (False, True), "stop as soon as the outcome is certain", source="002"
    ),
    Option(
        "early_end_judged",
        "choice",
        ("true_teams", "public"),
        "with early_end, what the certainty is judged on: true_teams: the real adjutant and "
        "discards (stopping can give away who the adjutant is); public: only what everyone has "
        "seen, so the game stops when every adjutant and discard still possible settles it",
        source="002",
    ),
    Option(
        "scoring",
        "choice",
        ("points", "win_loss"),
        "points: 001's table (+2/+1/-1, alone +4/-1); win_loss: +1/-1 each",
        source="001",
    ),
    Option(
        "all_twenty",
        "choice",
        ("normal", "lose"),
        "lose: an army taking all 20 honors without bidding 20 loses; "
        "games with all 20 score double",
        source="001",
    ),
]

PRESETS: Final[dict[str, dict[str, Any]]] = {
    "classic": {},
    "classic-joker": {"jokers": 1, "joker_mode": "trump_top"},
    "killers": {"killers": True},
    "house-001": {
        "jokers": 1,
        "min_bid": 10,
        "reveal_discards": "all",
        "joker_mode": "request_weak",
        "joker_call": "8S",
        "same_two": True,
        "yoromeki": True,
        "scoring": "points",
    },
    "napoleon-web": {
        "jokers": 1,
        "min_bid": 13,
        "max_bid": 19,
        "all_pass": "first_bidder_12S",
        "discarded_honors": "napoleon",
        "same_two": True,
        "same_two_joker": "blocks",
        "yoromeki": True,
        "joker_mode": "request_lowest",
        "scoring": "win_loss",
    },
    "house-002": {
        "jokers": 1,
        "no_trump": True,
        "declare_alone": True,
        "ura_jack_suit": "trump",
        "first_trick_trumps": False,
        "same_two": True,
        "joker_mode": "request_strong",
        "joker_call": "3S",
        "early_end": True,
        "early_end_judged": "public",
    },
}

PRESET_NOTES: Final = {
    "classic": "000's base rules: 52 cards, min bid 11 (4 players: discards face up)",
    "classic-joker": "classic with a joker, the strongest card and a trump",
    "killers": "classic with killer Queens and the ♠Q steal",
    "house-001": "001: 53 cards, min bid 10, weak joker, ♠8 call, same-two, よろめき, points",
    "napoleon-web": "eletim/napoleon-web's rules: 53 cards, bids 13-19, all pass: first bidder "
    "12S, discarded honors count for the army, lowest joker, same-two (not with a joker), "
    "よろめき",
    "house-002": "002: 53 cards, no-trump bids, alone, 裏J as trump, no first-trick trumps, "
    "strong joker, ♠3 call, early end (once certain to everyone)",
}


def _check(r: Rules) -> None:
    if r["jokers"] == 0:
        if r["joker_mode"] != "trump_top":
            raise RulesError(f"option 'joker_mode' {r['joker_mode']!r} needs 'jokers': 1")
        if r["joker_call"] != "none":
            raise RulesError(f"option 'joker_call' {r['joker_call']!r} needs 'jokers': 1")
    if not r["same_two"]:
        for sub in ("same_two_first_trick", "same_two_beats_specials"):
            if r[sub]:
                raise RulesError(f"option {sub!r} needs 'same_two': true")
        if r["same_two_joker"] != "matches":
            raise RulesError("option 'same_two_joker' needs 'same_two': true")
    if r["max_bid"] < r["min_bid"]:
        raise RulesError(
            f"option 'max_bid' {r['max_bid']} is below option 'min_bid' {r['min_bid']}"
        )
    removed = [parse_card(c) for c in r["removed_cards"]]
    for c in removed:
        if c == JOKER:
            raise RulesError("option 'removed_cards' cannot remove the joker: set 'jokers': 0")
        if HONORS >> c & 1:
            raise RulesError(
                f"option 'removed_cards' cannot remove the honor {card_str(c)}: "
                "all 20 honors are played for"
            )
        if r["same_two"] and c % 13 == 0:
            raise RulesError(
                f"option 'removed_cards' removes {card_str(c)} while 'same_two' is on "
                "(000: remove 3s or 4s, keep the 2s)"
            )
        if r["joker_call"] != "none" and card_str(c) == r["joker_call"]:
            raise RulesError(f"option 'removed_cards' removes {card_str(c)}, the 'joker_call' card")
    size = 52 - len(removed) + r["jokers"]
    hand = (size - 2) // r["players"]
    if hand < 1:
        raise RulesError(
            f"option 'removed_cards' leaves {size} cards, too few for {r['players']} players"
        )


CLASSIC_PRESETS: Final = ("classic", "classic-joker", "killers")
"""The presets built on 000's base rules."""


def _refine(preset: str, given: frozenset[str], r: Rules) -> None:
    """000's 4-player game puts the Napoleon's four discards down face up (「不必要な4枚を表向きに
    捨てる」): the classic presets with 4 players show every discard unless ``reveal_discards``
    is given explicitly."""
    if preset in CLASSIC_PRESETS and r["players"] == 4 and "reveal_discards" not in given:
        r["reveal_discards"] = "all"


SPEC: Final = RuleSpec(
    "napoleon",
    OPTIONS,
    PRESETS,
    "classic",
    _check,
    PRESET_NOTES,
    derived={"hand_size": "(deck - 2) // players; the rest is the widow"},
    refine=_refine,
)

# ---------------------------------------------------------------------------------------- moves
PHASE_BID: Final = 0
PHASE_ADJUTANT: Final = 1
PHASE_EXCHANGE: Final = 2
PHASE_PLAY: Final = 3
PHASE_OVER: Final = 4
PHASE_NAMES: Final = ("bid", "adjutant", "exchange", "play", "over")

CALL: Final = 53
"""Lead the joker-call card and call for the joker (``play 3S call``)."""
PASS: Final = 99
BID_BASE: Final = 100
"""``bid`` moves are ``BID_BASE + count * 5 + b``, b = 0 C, 1 D, 2 H, 3 S, 4 N: bigger is higher."""
ADJ_BASE: Final = 300
ALONE: Final = 400
DISCARD: Final = 1 << 60
"""``discard`` moves are ``DISCARD | card set``."""

NO_TRUMP: Final = 4
"""The trump 'suit' of a no-trump contract."""
BID_SUITS: Final = "CDHSN"
_BID_TO_SUIT: Final = (CLUBS, DIAMONDS, HEARTS, SPADES, NO_TRUMP)
MIGHTY: Final = make_card(ACE, SPADES)
_OTHER_JACK_SUIT: Final = {SPADES: CLUBS, CLUBS: SPADES, HEARTS: DIAMONDS, DIAMONDS: HEARTS}

# strengths in a trick
S_SAME2_TOP: Final = 2000
S_JOKER_STRONG: Final = 1000
S_JOKER_TOP: Final = 900
S_YOROMEKI: Final = 850
S_MIGHTY: Final = 800
S_SEI: Final = 700
S_URA: Final = 600
S_JOKER_WEAK: Final = 500
S_JOKER_LOW: Final = 199
"""A led ``request_lowest`` joker: below the 2 of trumps (``S_TRUMP``), above any other suit."""
LED_JOKER: Final = {
    "request_weak": S_JOKER_WEAK,
    "request_strong": S_JOKER_STRONG,
    "request_lowest": S_JOKER_LOW,
}
"""The strength of a led joker in each request mode (a followed one never wins: 0)."""
ALL_PASS_CONTRACT: Final = 100 + 12 * 5 + 3
"""``all_pass: first_bidder_12S``: the contract 12S (``bid_move(12, "S")``)."""
S_SAME2: Final = 450
S_TRUMP: Final = 200
S_LED: Final = 100

_QH: Final = make_card(QUEEN, HEARTS)
_QD: Final = make_card(QUEEN, DIAMONDS)
_QC: Final = make_card(QUEEN, CLUBS)
_QS: Final = make_card(QUEEN, SPADES)


def bid_move(count: int, bid_suit: str) -> Move:
    """The move of a bid such as ``13S``.

    >>> bid_move(13, "S") > bid_move(13, "H") > bid_move(12, "N")
    True
    """
    return BID_BASE + count * 5 + BID_SUITS.index(bid_suit)


def bid_str(move: Move) -> str:
    """``13S`` for a bid move."""
    count, b = divmod(move - BID_BASE, 5)
    return f"{count}{BID_SUITS[b]}"


_ACTION_STRS: dict[Move, str] = {c: "play " + card_str(c) for c in range(53)}
_ACTION_STRS[PASS] = "pass"
_ACTION_STRS[ALONE] = "alone"
for _count in range(1, 21):
    for _b in range(5):
        _m = BID_BASE + _count * 5 + _b
        _ACTION_STRS[_m] = "bid " + bid_str(_m)
for _c in range(53):
    _ACTION_STRS[ADJ_BASE + _c] = "adjutant " + card_str(_c)
_ACTION_MOVES: dict[str, Move] = {s: m for m, s in _ACTION_STRS.items()}


_CANON_KEY: Final = [(c % 13) * 4 + c // 13 for c in range(52)] + [99]
_CARD_STRS: Final = [card_str(c) for c in range(53)]


def _canonical_order(cards: CardSet) -> list[Card]:
    """Cards for a multi-card action: ascending rank (2..A, joker last), then suit S H D C."""
    return sorted(cards_of(cards), key=_CANON_KEY.__getitem__)


@dataclass(frozen=True)
class _Table:
    """What a game's rules fix once: the deck, hand and widow sizes, the bid ladder."""

    removed: CardSet
    deck_cards: list[Card]
    deck_set: CardSet
    hand_size: int
    widow_size: int
    bids: tuple[Move, ...]
    adjutant_moves: tuple[Move, ...]
    call_card: int
    bid_strs: tuple[str, ...] = ()
    adjutant_strs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "bid_strs", tuple(_ACTION_STRS[m] for m in self.bids))
        object.__setattr__(
            self, "adjutant_strs", tuple(_ACTION_STRS[m] for m in self.adjutant_moves)
        )


_TABLES: dict[tuple[Any, ...], _Table] = {}


def _table(r: Rules) -> _Table:
    key = (
        r["players"],
        r["jokers"],
        tuple(r["removed_cards"]),
        r["min_bid"],
        r["max_bid"],
        r["no_trump"],
        r["declare_alone"],
        r["joker_call"],
    )
    t = _TABLES.get(key)
    if t is None:
        removed = parse_cards(r["removed_cards"])
        cards = deck(r["jokers"], removed)
        hand = (len(cards) - 2) // r["players"]
        bids = tuple(
            bid_move(count, b)
            for count in range(r["min_bid"], r["max_bid"] + 1)
            for b in (BID_SUITS if r["no_trump"] else BID_SUITS[:4])
        )
        adj = tuple(ADJ_BASE + c for c in sorted(set(cards))) + (
            (ALONE,) if r["declare_alone"] else ()
        )
        call = -1 if r["joker_call"] == "none" else parse_card(r["joker_call"])
        t = _TABLES[key] = _Table(
            removed,
            cards,
            sum(1 << c for c in cards),
            hand,
            len(cards) - hand * r["players"],
            bids,
            adj,
            call,
        )
    return t


_LEVEL_CODES: Final = {
    S_JOKER_STRONG: "joker_led_strong",
    S_JOKER_TOP: "joker_top",
    S_JOKER_WEAK: "joker_led",
    S_MIGHTY: "mighty",
    S_SEI: "sei_j",
    S_URA: "ura_j",
}


_STRENGTHS: dict[tuple[int, bool, bool], list[list[int]]] = {}
_REASON_MEMO: dict[tuple[int, str], dict[Card, Reason]] = {}


def strength_tables(
    trump: int, sei: int, ura: int, trump_power: bool, joker_request: bool
) -> list[list[int]]:
    """Strength of every card, per led suit (index 0..3, 4 = the joker's own suit, -1 = none).

    A led request joker and a called joker are adjusted by the judge; killers, よろめき and
    same-two are applied on top. Memoized per contract (the tables are never mutated).
    """
    key = (trump, trump_power, joker_request)
    tables = _STRENGTHS.get(key)
    if tables is None:
        tables = _STRENGTHS[key] = _build_strengths(trump, sei, ura, trump_power, joker_request)
    return tables


def _build_strengths(
    trump: int, sei: int, ura: int, trump_power: bool, joker_request: bool
) -> list[list[int]]:
    tables = []
    for led in (0, 1, 2, 3, 4, NO_SUIT):
        tab = []
        for c in range(52):
            if c == MIGHTY:
                v = S_MIGHTY
            elif c == sei:
                v = S_SEI
            elif c == ura:
                v = S_URA
            elif c // 13 == trump and (trump_power or trump == led):
                v = S_TRUMP + c % 13
            elif c // 13 == led:
                v = S_LED + c % 13
            else:
                v = 0
            tab.append(v)
        tab.append(0 if joker_request else S_JOKER_TOP)
        tables.append(tab)
    return tables


def _fits(groups: list[tuple[int, int]], caps: list[int]) -> bool:
    """Whether cards can fill places of capacities ``caps`` exactly, ``groups`` giving per bit
    mask of the places a card may go to how many cards have it (as many cards as room): Hall's
    condition, no union of groups' places must take more cards than it has room for."""
    unions = {0}
    for m, _ in groups:
        if not m:
            return False
        unions |= {u | m for u in unions}
    for u in unions:
        need = sum(k for m, k in groups if not m & ~u)
        if need > sum(cap for i, cap in enumerate(caps) if u >> i & 1):
            return False
    return True


# ---------------------------------------------------------------------------------------- game
class Napoleon(TrickGame):
    """One deal of Napoleon, from the auction to the score.

    Create it with :func:`torampu.new_game` (``"napoleon"``) or :func:`new_napoleon`.
    """

    name = "napoleon"
    spec = SPEC
    phase_names = PHASE_NAMES
    play_phase = PHASE_PLAY
    over_phase = PHASE_OVER
    extra_args = ("first_bidder",)
    point_cards = HONORS

    def __init__(
        self,
        rules: Rules,
        seed: int,
        deal: Mapping[str, Any] | None = None,
        dealer: Seat = 0,
        first_bidder: Seat | None = None,
    ) -> None:
        r = rules
        self.rules = r
        self.n = n = r["players"]
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
        if first_bidder is None:
            first_bidder = (dealer + 1) % n
        if not isinstance(first_bidder, int) or not 0 <= first_bidder < n:
            raise DealError(f"first_bidder must be a seat 0..{n - 1}, not {first_bidder!r}")
        self.seed = seed
        self.dealer = dealer
        self.opener = first_bidder
        self.rng = random.Random(seed)
        t = self.table = _table(r)
        self.removed = t.removed
        self.deck_cards = t.deck_cards
        self.deck_set = t.deck_set
        self.hand_size = t.hand_size
        self.widow_size = t.widow_size
        # rule flags, read on hot paths
        self.min_bid: int = r["min_bid"]
        self.max_bid: int = r["max_bid"]
        self.soft_pass: bool = not r["pass_is_final"]
        self.joker_request: bool = r["joker_mode"] != "trump_top"
        self.led_joker: int = LED_JOKER.get(r["joker_mode"], S_JOKER_TOP)
        self.call_card: int = t.call_card
        self.history = []
        self.redeals = 0
        self._deal(deal)
        self.initial = (tuple(self.hands), self.widow)

    # ---------------------------------------------------------------- dealing and bidding
    def _deal(self, deal: Mapping[str, Any] | None) -> None:
        cards = shuffled(self.rng, self.deck_cards)  # always: redeals then replay from the seed
        h, n = self.hand_size, self.n
        if deal is None:
            bits = [_BIT[c] for c in cards]
            self.hands = [sum(bits[i * h : (i + 1) * h]) for i in range(n)]
            self.widow = sum(bits[n * h :])
        else:
            self.hands, self.widow = self._check_deal(deal)
        self.phase_id = PHASE_BID
        self.turn = self.opener
        self.high = 0
        self.high_seat = -1
        self.passes = 0
        self.passed = 0
        self.auction: list[tuple[Seat, Move]] = []
        self.napoleon = -1
        self.trump = -1
        self.bid_count = 0
        self.adj_card = -1
        self.adj_seat = -1
        self.alone_declared = False
        self.adj_named = False
        self.exchanged = False
        self.discards = 0
        self.taken = [0] * n
        self.call_active = False
        self.forced = 0
        self.free = 0
        self.has_lead_extras = self.call_card >= 0
        self.early = False
        self.trick = []
        self.tricks = []
        self.leader = self.opener
        self.led = NO_SUIT
        self.played = 0

    def _check_deal(self, deal: Mapping[str, Any]) -> tuple[list[CardSet], CardSet]:
        hands = parse_hands(
            deal,
            self.n,
            self.hand_size,
            self.deck_set,
            '{"hands": [[card, …] per seat], "widow": [...]}',
        )
        seen = sum(hands)
        try:
            widow = parse_cards(deal.get("widow", []))
        except CardError as e:
            raise DealError(f"bad card in the widow: {e}") from None
        if widow.bit_count() != self.widow_size or widow & seen:
            raise DealError(f"the widow must hold {self.widow_size} cards not in any hand")
        if seen | widow != self.deck_set:
            raise DealError(
                "the deal's cards differ from the rules' deck: "
                f"missing {card_list(self.deck_set & ~(seen | widow))}, "
                f"extra {card_list((seen | widow) & ~self.deck_set)}"
            )
        return hands, widow

    def _deal_record(self) -> dict[str, Any]:
        hands, widow = self.initial
        return {"hands": [card_list(h) for h in hands], "widow": card_list(widow)}

    def _record_extra(self) -> dict[str, Any]:
        return {"first_bidder": self.opener}

    # ---------------------------------------------------------------- contract state
    @property
    def contract(self) -> str | None:
        """The winning bid, e.g. ``13S``, once the auction is over."""
        return None if self.napoleon < 0 else bid_str(self.high)

    def action_str(self, move: Move) -> str:
        s = _ACTION_STRS.get(move)
        if s is not None:
            return s
        if move == CALL:
            return f"play {card_str(self.call_card)} call"
        if move & DISCARD:
            return "discard " + " ".join(card_str(c) for c in _canonical_order(move ^ DISCARD))
        raise IllegalAction(f"not a Napoleon move: {move!r}")

    def parse_action(self, action: str) -> Move:
        m = _ACTION_MOVES.get(action)
        if m is not None:
            return m
        words = action.split()
        if not words:
            raise IllegalAction("empty action")
        verb = words[0].lower()
        try:
            if verb == "play" and len(words) in (2, 3):
                card = parse_card(words[1])
                if len(words) == 3:
                    if words[2].lower() != "call":
                        raise IllegalAction(f"{action!r}: write 'play CARD' or 'play CARD call'")
                    if card != self.call_card:
                        raise IllegalAction(
                            f"{action!r}: only {self._call_name()} may be led with a call"
                        )
                    return CALL
                return card
            if verb == "bid" and len(words) == 2:
                w = words[1].upper().replace("NT", "N")
                # (ASCII digits, a few: int() takes other scripts' digits, and refuses 4,300
                # digits in Python's words)
                n = w[:-1]
                if len(n) <= 3 and n.isascii() and n.isdigit() and w[-1] in BID_SUITS:
                    count = int(w[:-1])
                    if 1 <= count <= 20:
                        return bid_move(count, w[-1])
                raise IllegalAction(f"{action!r}: a bid is a count 1-20 and a suit, e.g. 'bid 13S'")
            if verb == "pass" and len(words) == 1:
                return PASS
            if verb == "alone" and len(words) == 1:
                return ALONE
            if verb == "adjutant" and len(words) == 2:
                return ADJ_BASE + parse_card(words[1])
            if verb == "discard" and len(words) >= 2:
                return DISCARD | parse_cards(words[1:])
        except CardError as e:
            raise IllegalAction(f"{action!r}: {e}") from None
        raise IllegalAction(
            f"not a Napoleon action: {action!r} (actions: 'bid 13S', 'pass', 'adjutant AS', "
            "'alone', 'discard 2C 3D', 'play QH', 'play 3S call')"
        )

    def _call_name(self) -> str:
        return "no card (no joker_call)" if self.call_card < 0 else card_str(self.call_card)

    # ---------------------------------------------------------------- legal moves
    def legal_moves(self) -> list[Move]:
        ph = self.phase_id
        if ph == PHASE_PLAY:
            mask = self.hands[self.turn]
            if self.trick:
                mask = self._follow_mask(self.turn)
            moves = _MOVES_OF.get(mask)
            if moves is None:
                moves = _moves_of(mask)
            if not self.trick and self.call_card >= 0 and self._can_call(self.turn):
                return [*moves, CALL]
            return list(moves)
        if ph == PHASE_BID:
            bids = self.table.bids
            return [PASS, *bids[bisect_right(bids, self.high) :]]
        if ph == PHASE_ADJUTANT:
            return list(self.table.adjutant_moves)
        if ph == PHASE_EXCHANGE:
            bits = [1 << c for c in _canonical_order(self.hands[self.napoleon])]
            return [DISCARD | s for s in map(sum, combinations(bits, self.widow_size))]
        return []

    def legal_actions(self) -> list[str]:
        ph = self.phase_id
        if ph == PHASE_PLAY:
            mask = self._follow_mask(self.turn)
            strs = _STRS_OF.get(mask)
            if strs is None:
                strs = _STRS_OF[mask] = tuple(_ACTION_STRS[c] for c in _moves_of(mask))
            if not self.trick and self.call_card >= 0 and self._can_call(self.turn):
                return [*strs, self.action_str(CALL)]
            return list(strs)
        t = self.table
        if ph == PHASE_BID:
            return ["pass", *t.bid_strs[bisect_right(t.bids, self.high) :]]
        if ph == PHASE_ADJUTANT:
            return list(t.adjutant_strs)
        if ph == PHASE_EXCHANGE:
            names = [_CARD_STRS[c] for c in _canonical_order(self.hands[self.napoleon])]
            return ["discard " + " ".join(combo) for combo in combinations(names, self.widow_size)]
        return []

    def choose(self) -> dict[str, Any] | None:
        """The Napoleon's discard, described (see :meth:`Game.choose`): exactly as many of his
        cards as the widow had — 6,188 ways with a joker and four players (five of 17), every
        one listed in each of his snapshots a third of a megabyte (a thirty-second audit);
        ``None`` in every other phase.

        >>> import torampu
        >>> g = torampu.new_game("napoleon", seed=3)
        >>> g.choose() is None  # (the auction)
        True
        """
        if self.phase_id != PHASE_EXCHANGE:
            return None
        w = self.widow_size
        held = self.hands[self.napoleon].bit_count()
        return {"verb": "discard", "min": w, "max": w, "ways": math.comb(held, w)}

    def _can_call(self, seat: Seat) -> bool:
        c = self.call_card
        return (
            c >= 0
            and bool(self.hands[seat] >> c & 1)
            and not self.played & JOKER_BIT
            and not self.hands[seat] & JOKER_BIT
        )

    def _lead_extras(self, seat: Seat) -> tuple[int, ...]:
        return (CALL,) if self.call_card >= 0 and self._can_call(seat) else ()

    def _card_of_move(self, move: Move) -> Card:
        if move == CALL:
            self.call_active = True
            self.forced = JOKER_BIT
            return self.call_card
        return move

    def _random_move(self, rand: Callable[[], float]) -> Move:
        ph = self.phase_id
        t = self.table
        if ph == PHASE_BID:
            i = bisect_right(t.bids, self.high)
            k = int(rand() * (len(t.bids) - i + 1))
            return PASS if k == 0 else t.bids[i + k - 1]
        if ph == PHASE_ADJUTANT:
            return t.adjutant_moves[int(rand() * len(t.adjutant_moves))]
        if ph == PHASE_EXCHANGE:
            cards = cards_of(self.hands[self.napoleon])
            out = 0
            for _ in range(self.widow_size):  # a uniform k-subset, drawn one card at a time
                out |= _BIT[cards.pop(int(rand() * len(cards)))]
            return DISCARD | out
        moves = self.legal_moves()
        return moves[int(rand() * len(moves))]

    def _illegal_reason(self, move: Move) -> str | None:
        ph = self.phase_id
        seat = self.turn
        if ph == PHASE_PLAY:
            if move == CALL:
                if self.trick:
                    return "only the leader may call for the joker"
                if not self._can_call(seat):
                    return self._why_no_call(seat)
                return None
            if not 0 <= move <= JOKER:
                return f"it is the play phase: play a card ({self._phase_hint()})"
            if not self.hands[seat] >> move & 1:
                return f"{card_str(move)} is not in your hand"
            if self._follow_mask(seat) >> move & 1:
                return None
            return self._why_not_playable(seat)
        if ph == PHASE_BID:
            if move == PASS:
                return None
            if not BID_BASE <= move < ADJ_BASE:
                return f"it is the auction: bid or pass ({self._phase_hint()})"
            count, b = divmod(move - BID_BASE, 5)
            if b == 4 and not self.rules["no_trump"]:
                return "no-trump bids are off (option no_trump)"
            if count < self.min_bid:
                return f"the lowest bid is {self.min_bid} (option min_bid)"
            if count > self.max_bid:
                return (
                    "there are only 20 honors"
                    if self.max_bid == 20
                    else f"the highest bid is {self.max_bid} (option max_bid)"
                )
            if move <= self.high:
                return f"a bid must beat the highest bid {bid_str(self.high)}"
            return None
        if ph == PHASE_ADJUTANT:
            if move == ALONE:
                return (
                    None
                    if self.rules["declare_alone"]
                    else "declaring alone is off (option declare_alone)"
                )
            if ADJ_BASE <= move <= ADJ_BASE + JOKER:
                c = move - ADJ_BASE
                if not self.deck_set >> c & 1:
                    return f"{card_str(c)} is not in this game's deck"
                return None
            return f"the Napoleon names the adjutant card now ({self._phase_hint()})"
        if ph == PHASE_EXCHANGE:
            if not move & DISCARD:
                return f"the Napoleon discards now ({self._phase_hint()})"
            cards = move ^ DISCARD
            if cards.bit_count() != self.widow_size:
                return f"discard exactly {self.widow_size} cards, as many as the widow had"
            extra = cards & ~self.hands[seat]
            if extra:
                return f"{' '.join(card_list(extra))} not in your hand"
            return None
        return "the game is over"

    def _phase_hint(self) -> str:
        return {
            PHASE_BID: "e.g. 'bid 13S' or 'pass'",
            PHASE_ADJUTANT: "e.g. 'adjutant AS'"
            + (" or 'alone'" if self.rules["declare_alone"] else ""),
            PHASE_EXCHANGE: f"e.g. 'discard' and {self.widow_size} cards",
            PHASE_PLAY: "e.g. 'play QH'",
        }.get(self.phase_id, "")

    def _why_no_call(self, seat: Seat) -> str:
        if self.call_card < 0:
            return "there is no joker call in these rules (option joker_call)"
        if not self.hands[seat] >> self.call_card & 1:
            return f"you do not hold {card_str(self.call_card)}"
        if self.played & JOKER_BIT:
            return "the joker has already been played"
        return "you hold the joker yourself"

    def _why_not_playable(self, seat: Seat) -> str:
        hand = self.hands[seat]
        if hand & self.forced:
            return "the joker was called: you must play JK"
        led_name = SUIT_LETTERS[self.led] if self.led < 4 else "JK"
        must = card_list(hand & self.suit_masks[self.led])
        if self.trick[0] == JOKER and self.joker_request:
            return f"the led joker requests trumps ({led_name}): play one of {' '.join(must)}"
        return f"must follow suit {led_name}: play one of {' '.join(must)}"

    # ---------------------------------------------------------------- applying moves
    def apply(self, move: Move) -> None:
        """Fast path: apply a move from :meth:`legal_moves` without checking it."""
        seat = self.turn
        self.history.append((seat, move))
        ph = self.phase_id
        if ph == PHASE_PLAY:
            self._play_card(seat, move if move <= JOKER else self._card_of_move(move))
        elif ph == PHASE_BID:
            self._bid(seat, move)
        elif ph == PHASE_ADJUTANT:
            if move == ALONE:
                self.alone_declared = True
            else:
                self.adj_card = move - ADJ_BASE
            self.adj_named = True
            self._after_contract_step()
        elif ph == PHASE_EXCHANGE:
            cards = move ^ DISCARD
            self.hands[seat] &= ~cards
            self.discards = cards
            self.exchanged = True
            self._after_contract_step()

    _apply = apply

    def _bid(self, seat: Seat, move: Move) -> None:
        self.auction.append((seat, move))
        n = self.n
        if move == PASS:
            self.passes += 1
            self.passed |= 1 << seat
            if self.high_seat < 0 and self.passes == n:
                if self.rules["all_pass"] == "first_bidder_12S":
                    self._all_passed()
                else:
                    self._redeal()
                return
            if self.high_seat >= 0 and (
                (self.soft_pass and self.passes == n - 1)
                or (not self.soft_pass and self.passed.bit_count() == n - 1)
            ):
                self._win_auction()
                return
        else:
            self.high = move
            self.high_seat = seat
            self.passes = 0
            if not self.soft_pass and self.passed.bit_count() == n - 1:
                self._win_auction()  # everyone else has passed for good
                return
        nxt = (seat + 1) % n
        if not self.soft_pass:
            while self.passed >> nxt & 1:
                nxt = (nxt + 1) % n
        self.turn = nxt

    def _all_passed(self) -> None:
        """``all_pass: first_bidder_12S`` (napoleon-web): the first bidder is the Napoleon with
        the contract 12S, below any bid that could have been made."""
        self.high = ALL_PASS_CONTRACT
        self.high_seat = self.opener
        self._win_auction()

    def _redeal(self) -> None:
        self.redeals += 1
        self._deal(None)

    def _win_auction(self) -> None:
        nap = self.napoleon = self.high_seat
        count, b = divmod(self.high - BID_BASE, 5)
        self.bid_count = count
        self.trump = _BID_TO_SUIT[b]
        self._setup_suits()
        self.turn = nap
        if self.rules["adjutant_timing"] == "before_exchange":
            self.phase_id = PHASE_ADJUTANT
        else:
            self._start_exchange()

    def _start_exchange(self) -> None:
        self.phase_id = PHASE_EXCHANGE
        self.hands[self.napoleon] |= self.widow

    def _after_contract_step(self) -> None:
        if not self.exchanged:
            self._start_exchange()
        elif not self.adj_named:
            self.phase_id = PHASE_ADJUTANT
        else:
            self._start_play()

    def _start_play(self) -> None:
        nap = self.napoleon
        self.adj_seat = nap
        if self.adj_card >= 0:
            for s in range(self.n):
                if self.hands[s] >> self.adj_card & 1:
                    self.adj_seat = s
        self.phase_id = PHASE_PLAY
        del self.rng  # every card is dealt: nothing more is drawn, and clones skip the generator
        self._start_tricks(nap)
        if self._early_end_now():  # e.g. honors discarded
            self.early = True
            self._finish()

    def _setup_suits(self) -> None:
        """Which cards follow as which suit under this contract (``suit_masks``, ``eff_suit``)."""
        t = self.trump
        masks = list(suit_masks_plain())
        eff = [c // 13 for c in range(52)] + [NO_SUIT]
        self.sei_j = self.ura_j = -1
        if t != NO_TRUMP:
            self.sei_j = make_card(JACK, t)
            self.ura_j = make_card(JACK, _OTHER_JACK_SUIT[t])
            if self.rules["ura_jack_suit"] == "trump":
                u = self.ura_j
                masks[u // 13] &= ~(1 << u)
                masks[t] |= 1 << u
                eff[u] = t
        if not self.joker_request:  # trump_top: the joker follows as a trump (no trump: own suit)
            js = t if t != NO_TRUMP else 4
            masks[js] |= JOKER_BIT
            eff[JOKER] = js
        self.suit_masks = masks
        self.eff_suit = eff
        lead = list(eff)
        if self.joker_request:  # a led joker requests trumps (nothing under no trump)
            lead[JOKER] = t if t != NO_TRUMP else NO_SUIT
            self.free = JOKER_BIT  # and a followed joker may be played at any time
        self.lead_suit = lead
        self.str_tab = strength_tables(t, self.sei_j, self.ura_j, True, self.joker_request)
        self.str_tab_first = (
            self.str_tab
            if self.rules["first_trick_trumps"]
            else strength_tables(t, self.sei_j, self.ura_j, False, self.joker_request)
        )
        r = self.rules
        self.modifiers = r["killers"] or r["yoromeki"] or r["same_two"]
        self.reason_memo = _REASON_MEMO.setdefault((t, r["joker_mode"]), {})

    # ---------------------------------------------------------------- tricks
    def _judge(self) -> tuple[int, Reason]:
        cards = self.trick
        first = not self.tricks
        st = (self.str_tab_first if first else self.str_tab)[self.led]
        strength = [st[c] for c in cards]
        if JOKER in cards:
            ji = cards.index(JOKER)
            if ji == 0 and self.joker_request:
                strength[0] = self.led_joker
            elif ji > 0 and self.call_active:
                strength[ji] = 0
        reasons: dict[int, Reason] = {}
        if self.modifiers:
            self._modify(cards, strength, reasons, first)
        v = max(strength)
        best = strength.index(v)
        if best in reasons:
            reason = reasons[best]
        elif first:
            reason = self._plain_reason(cards, best, v, first)
        else:
            # after the first trick a plain win's reason depends only on the card (memoized)
            c = cards[best]
            memo = self.reason_memo
            known = memo.get(c)
            if known is None:
                known = memo[c] = self._plain_reason(cards, best, v, first)
            reason = known
        note = self._powerless(cards, strength, best, first)
        return best, replace(reason, note=note) if note else reason

    def _powerless(self, cards: list[Card], strength: list[int], best: int, first: bool) -> str:
        """The rule that took a special card of the trick, not its winner, the power a player
        expects of it (:data:`~torampu.explain.NOTES`), or ``""``: a joker played to a led
        suit in a request mode, or called out; the led suit's 2 where every card followed, on
        the first trick without ``same_two_first_trick`` — where its same-two would have won
        (over Mighty or a jack it loses on any trick, unless ``same_two_beats_specials``: a
        code review)."""
        if JOKER in cards and cards.index(JOKER) not in (0, best):
            # (only where its power would have beaten the winner: a joker led loses to Mighty
            # and the jacks too — "♠A wins: Mighty (the joker has power only when it is led)"
            # read as the joker robbed, a twenty-fourth review)
            power = self.led_joker if self.joker_request else S_JOKER_TOP
            if power > strength[best]:
                if self.call_active:
                    return "joker_called"
                if self.joker_request:
                    return "joker_not_led"
        r = self.rules
        led = self.led
        if first and r["same_two"] and not r["same_two_first_trick"] and 0 <= led < 4:
            two = led * 13
            at = cards.index(two) if two in cards else best
            if at != best:
                eff = self.eff_suit
                would = S_SAME2_TOP if r["same_two_beats_specials"] else S_SAME2
                if all(c != JOKER and eff[c] == led for c in cards) and all(
                    would > v for i, v in enumerate(strength) if i != at
                ):
                    return "same_two_first_trick"
        return ""

    def _modify(
        self, cards: list[Card], strength: list[int], reasons: dict[int, Reason], first: bool
    ) -> None:
        """Killer Queens (which govern QH when on with よろめき), よろめき, and same-two."""
        r = self.rules
        led = self.led
        if r["killers"]:
            kills: list[tuple[int, int, int]] = []  # (strength, killer index, victim card)
            for killer, victim in ((_QH, MIGHTY), (_QD, self.sei_j), (_QC, self.ura_j)):
                if victim >= 0 and killer in cards and victim in cards:
                    ki, vi = cards.index(killer), cards.index(victim)
                    kills.append((strength[vi], ki, victim))
                    strength[ki] = strength[vi]
                    strength[vi] = 0
                    reasons[ki] = Reason("killer", killer, victim)
            if kills and _QS in cards:
                best_kill = max(kills)
                qi = cards.index(_QS)
                strength[qi] = best_kill[0]
                strength[best_kill[1]] = 0
                reasons[qi] = Reason("steal", _QS, best_kill[2], extra=cards[best_kill[1]])
        elif r["yoromeki"] and _QH in cards and MIGHTY in cards:
            qi = cards.index(_QH)
            strength[qi] = S_YOROMEKI
            reasons[qi] = Reason("yoromeki", _QH, MIGHTY)
        if r["same_two"] and 0 <= led < 4 and (r["same_two_first_trick"] or not first):
            two = led * 13
            if two in cards:
                eff = self.eff_suit
                jk_ok = r["same_two_joker"] == "matches" and (
                    self.joker_request or eff[JOKER] == led
                )
                if all(eff[c] == led if c != JOKER else jk_ok for c in cards):
                    ti = cards.index(two)
                    strength[ti] = S_SAME2_TOP if r["same_two_beats_specials"] else S_SAME2
                    reasons[ti] = Reason("same_two", two, suit=led)

    def _plain_reason(self, cards: list[Card], best: int, v: int, first: bool) -> Reason:
        c = cards[best]
        trump = self.trump
        if v >= S_TRUMP:
            code = _LEVEL_CODES.get(v)
            if code is None:
                return Reason("trump", c, suit=trump)
            return Reason(code, c, suit=trump if code in ("sei_j", "ura_j") else -1)
        if v == S_JOKER_LOW and c == JOKER:
            return Reason("joker_led_low", c)
        if (
            first
            and not self.rules["first_trick_trumps"]
            and any(
                x != JOKER and x // 13 == trump and x not in (self.sei_j, self.ura_j, MIGHTY)
                for x in cards
            )
        ):
            return Reason("led_first_trick", c, suit=self.led)
        if v >= S_LED:
            return Reason("led", c, suit=self.led)
        return Reason("lead_only", c)

    def _won(self, winner: Seat, cards: CardSet) -> None:
        self.taken[winner] |= cards & HONORS
        self.forced = 0
        if self.adj_card >= 0 and cards >> self.adj_card & 1:
            self.tricks[-1].note = {"adjutant_revealed": self.adj_seat}
        if self.call_active:  # public: the lead called for the joker (its view says so)
            self.tricks[-1].note = {**(self.tricks[-1].note or {}), "called": True}
        self.call_active = False

    def _tricks_done(self) -> bool:
        if not self.hands[self.turn]:
            return True
        if self._early_end_now():
            self.early = True
            return True
        return False

    def army_honors(self) -> int:
        """Honors taken in tricks by the Napoleon and the adjutant, and the discarded honors with
        ``discarded_honors: napoleon``."""
        army = (self.taken[self.napoleon] | self.taken[self.adj_seat]).bit_count()
        if self.rules["discarded_honors"] == "napoleon":
            army += (self.discards & HONORS).bit_count()
        return army

    def _outcome_certain(self) -> bool:
        """Whether the outcome is settled on the true teams and discards (``true_teams``)."""
        disc = (self.discards & HONORS).bit_count()
        return self._settled(self.army_honors(), self._open_honors(disc))

    def _open_honors(self, disc: int) -> int:
        """Honors still to be won in tricks, with ``disc`` honors among the discards."""
        taken_all = 0
        for t in self.taken:
            taken_all |= t
        return 20 - taken_all.bit_count() - disc

    def _settled(self, army: int, open_honors: int) -> bool:
        """Whether an army with ``army`` honors, ``open_honors`` still to play for, has surely
        made or surely failed its contract."""
        if army + open_honors < self.bid_count:
            return True
        if army >= self.bid_count:
            if self.rules["all_twenty"] != "lose" or self.bid_count == 20:
                return True
            return army == 20 or army + open_honors < 20  # all 20 taken (a loss) or out of reach
        return False

    # ---------------------------------------------------------------- early end, judged in public
    def _early_end_now(self) -> bool:
        """With ``early_end``: whether to stop now. ``true_teams``: the outcome is certain;
        ``public``: it is certain in every world of :meth:`public_worlds` (the true one is among
        them, so the true check goes first and usually answers alone)."""
        if not self.rules["early_end"] or not self._outcome_certain():
            return False
        if self.rules["early_end_judged"] == "true_teams":
            return True
        return self._settled_in_public(self._public_voids())

    def _settled_in_public(self, voids: list[CardSet]) -> bool:
        """Whether the outcome is the same in every world a spectator cannot rule out, ``voids``
        being :meth:`_public_voids` (the fast rollouts keep their own)."""
        return not any(
            not self._settled_in(a, d) and self._world_fits(a, d, voids)
            for a, d in self._world_keys()
        )

    def public_worlds(self) -> list[tuple[Seat, int]]:
        """In the play phase, every ``(adjutant seat, honors among the hidden discards)`` that a
        spectator's view cannot rule out; the Napoleon's own seat means he plays alone (he named
        his own card or a widow card: it is in his hand or among his discards). These are the
        worlds ``early_end_judged: public`` judges on."""
        if self.phase_id != PHASE_PLAY:
            return []
        voids = self._public_voids()
        return [(a, d) for a, d in self._world_keys() if self._world_fits(a, d, voids)]

    def _world_keys(self) -> list[tuple[Seat, int]]:
        """The worlds before the hand sizes and voids are checked: any seat for the adjutant
        until everyone knows it; any count of hidden discarded honors (only with
        ``reveal_discards: none``: otherwise discarded honors are shown)."""
        seats = [self.adj_seat] if self.adjutant_known_to(None) else list(range(self.n))
        d_max = 0
        if self.rules["reveal_discards"] == "none":
            unseen_honors = (HONORS & ~self.played).bit_count()
            d_max = min(self.discards.bit_count(), unseen_honors)
        return [(a, d) for a in seats for d in range(d_max + 1)]

    def _settled_in(self, adjutant: Seat, hidden_honors: int) -> bool:
        """:meth:`_settled` in the world where ``adjutant`` holds the adjutant card and
        ``hidden_honors`` honors are among the face-down discards."""
        disc = (self.revealed_discards() & HONORS).bit_count() + hidden_honors
        army = (self.taken[self.napoleon] | self.taken[adjutant]).bit_count()
        if self.rules["discarded_honors"] == "napoleon":
            army += disc
        return self._settled(army, self._open_honors(disc))

    def _public_voids(self) -> list[CardSet]:
        """Per seat, the cards the tricks (and the trick in progress) show it cannot hold: a
        follower who played a card neither of the led suit nor free holds none of that suit; a
        seat that did not answer a joker call, and the caller, hold no joker."""
        n = self.n
        out = [0] * n
        masks = self.suit_masks
        tricks = [(t.leader, t.cards, bool(t.note and t.note.get("called"))) for t in self.tricks]
        if self.trick:
            tricks.append((self.leader, self.trick, self.call_active))
        for leader, cards, called in tricks:
            if called:
                out[leader] |= JOKER_BIT
            follow = masks[self.lead_suit[cards[0]]]
            for i in range(1, len(cards)):
                x = cards[i]
                s = (leader + i) % n
                if called:
                    if x == JOKER:
                        continue
                    out[s] |= JOKER_BIT
                if not (follow | self.free) >> x & 1:
                    out[s] |= follow
        return out

    def _world_fits(self, adjutant: Seat, hidden_honors: int, voids: list[CardSet]) -> bool:
        """Whether some deal of the unseen cards fits the spectator's view with ``adjutant``
        holding the adjutant card (the Napoleon: in his hand or discards) and
        ``hidden_honors`` honors among the face-down discards. Places: the seats' hands, then
        the face-down discards split into honors and other cards; each unseen card may go
        where no void rules it out."""
        n = self.n
        shown = self.revealed_discards()
        unseen = self.deck_set & ~self.played & ~shown
        hidden = self.discards.bit_count() - shown.bit_count()
        if not 0 <= hidden_honors <= hidden:
            return False
        caps = [h.bit_count() for h in self.hands] + [hidden_honors, hidden - hidden_honors]
        holds = [unseen & ~v for v in voids] + [unseen & HONORS, unseen & ~HONORS]
        fixed = [-1]  # the place of the adjutant card: none to choose once it is public
        if not self.adjutant_known_to(None):
            bit = 1 << self.adj_card
            own = [adjutant, n, n + 1] if adjutant == self.napoleon else [adjutant]
            fixed = [p for p in own if holds[p] & bit and caps[p]]
            holds = [h & ~bit for h in holds]
            unseen &= ~bit
        classes = [(0, unseen)]  # (the places a card may go to, the cards), refined place by place
        for p, h in enumerate(holds):
            if caps[p]:
                classes = [
                    (m | b, cs) if b else (m, cs)
                    for m, cards in classes
                    for b, cs in ((1 << p, cards & h), (0, cards & ~h))
                    if cs
                ]
        groups = [(m, cs.bit_count()) for m, cs in classes]
        for p in fixed:
            room = list(caps)
            if p >= 0:
                room[p] -= 1
            if _fits(groups, room):
                return True
        return False

    def _finish(self) -> None:
        self.phase_id = PHASE_OVER
        self.turn = -1

    # ---------------------------------------------------------------- results
    @property
    def alone(self) -> bool:
        """True when the Napoleon has no adjutant (declared, own card, or card in widow)."""
        return self.alone_declared or self.adj_seat == self.napoleon

    def _holder_in_exchange(self) -> int:
        """During the exchange, the seat holding the adjutant card (the widow is in the
        Napoleon's hand by then: the Napoleon holding it plays alone, whatever they discard);
        -1 at any other time or before a card is named."""
        if self.phase_id != PHASE_EXCHANGE or self.adj_card < 0:
            return -1
        for s in range(self.n):
            if self.hands[s] >> self.adj_card & 1:
                return s
        return -1

    def adjutant_known_to(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None``: everyone) knows who the adjutant is. During the
        exchange (the card named before it) the card's holder knows: the Napoleon whose named
        card came up in the widow, or was their own, knows they play alone."""
        if self.phase_id == PHASE_OVER or self.alone_declared:
            return True
        if seat is not None and seat == self._holder_in_exchange():
            return True
        if self.adj_card < 0 or self.phase_id != PHASE_PLAY:
            return False
        if self.played >> self.adj_card & 1 or self.revealed_discards() >> self.adj_card & 1:
            return True
        if seat is None:
            return False
        if seat == self.adj_seat:
            return True
        return seat == self.napoleon and bool(
            (self.hands[seat] | self.discards | self.played) >> self.adj_card & 1
        )

    def hidden_from(self, seat: Seat | None) -> CardSet:
        out = super().hidden_from(seat)
        nap = seat is not None and seat == self.napoleon
        if not self.exchanged and not (nap and self.phase_id == PHASE_EXCHANGE):
            out |= self.widow  # the widow, until the Napoleon takes it
        if self.exchanged and not nap:
            out |= self.discards & ~self.revealed_discards()
        if self.phase_id == PHASE_EXCHANGE and not nap:
            out |= self.widow
        return out

    def revealed_discards(self) -> CardSet:
        mode = self.rules["reveal_discards"]
        if mode == "all":
            return self.discards
        if mode == "honors":
            return self.discards & HONORS
        return 0

    def _outcome(self) -> tuple[list[int], bool, int, bool, int]:
        """(scores, the army won, army honors, all twenty, the doubling factor) of a finished
        game."""
        n, nap, adj = self.n, self.napoleon, self.adj_seat
        army_set = {nap, adj}
        army = self.army_honors()
        all_twenty = army == 20
        won = army >= self.bid_count
        lose20 = self.rules["all_twenty"] == "lose"
        if lose20 and all_twenty and self.bid_count < 20:
            won = False
        factor = 2 if lose20 and all_twenty else 1
        scores = [0] * n
        if self.rules["scoring"] == "points":
            sign = 1 if won else -1
            for s in range(n):
                if s == nap:
                    scores[s] = sign * (4 if self.alone else 2)
                elif s in army_set:
                    scores[s] = sign
                else:
                    scores[s] = -sign
        else:
            for s in range(n):
                scores[s] = 1 if (s in army_set) == won else -1
        return [v * factor for v in scores], won, army, all_twenty, factor

    def scores(self) -> list[int]:
        if self.phase_id != PHASE_OVER:
            return [0] * self.n
        return self._outcome()[0]

    def result(self) -> dict[str, Any]:
        if self.phase_id != PHASE_OVER:
            return {"scores": [0] * self.n, "winners": [], "over": False}
        n, nap, adj = self.n, self.napoleon, self.adj_seat
        army_set = {nap, adj}
        scores, won, army, all_twenty, factor = self._outcome()
        disc = (self.discards & HONORS).bit_count()
        allied_set = 0
        for s, t in enumerate(self.taken):
            if s not in army_set:
                allied_set |= t
        allied = allied_set.bit_count()
        if self.rules["discarded_honors"] == "allies":
            allied += disc
        winners = [s for s in range(n) if (s in army_set) == won]
        return {
            "scores": scores,
            "winners": winners,
            "napoleon": nap,
            "adjutant": None if self.alone else adj,
            "alone": self.alone,
            "alone_declared": self.alone_declared,
            "adjutant_card": None if self.adj_card < 0 else card_str(self.adj_card),
            "contract": bid_str(self.high),
            "army_honors": army,
            "allied_honors": allied,
            "discarded_honors": disc,
            "army_won": won,
            "all_twenty": all_twenty,
            "doubled": factor == 2,
            "early_end": self.early,
            "redeals": self.redeals,
        }

    # ---------------------------------------------------------------- views
    def view(self, seat: Seat | None) -> dict[str, Any]:
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < self.n):
            raise ValueError(f"seat must be 0..{self.n - 1} or None, not {seat!r}")
        ph = self.phase_id
        hand_sizes = [h.bit_count() for h in self.hands]
        v: dict[str, Any] = {
            "game": self.name,
            "rules": dict(self.rules),
            "players": self.n,
            "seat": seat,
            "dealer": self.dealer,
            "first_bidder": self.opener,
            "phase": self.phase,
            "to_play": self.to_play,
            "hand": card_list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": hand_sizes,
            "widow_size": self.widow_size,
            "redeals": self.redeals,
            "auction": [{"seat": s, "action": self.action_str(m)} for s, m in self.auction],
            "high_bid": bid_str(self.high) if self.high else None,
            "high_bidder": self.high_seat if self.high_seat >= 0 else None,
            "napoleon": self.napoleon if self.napoleon >= 0 else None,
            "contract": self.contract,
            "trump": None
            if self.trump < 0
            else ("N" if self.trump == NO_TRUMP else SUIT_LETTERS[self.trump]),
            "adjutant_card": card_str(self.adj_card) if self.adj_card >= 0 else None,
            "alone_declared": self.alone_declared,
        }
        known = self.adjutant_known_to(seat)
        adj, alone = self.adj_seat, self.alone
        if ph == PHASE_EXCHANGE and known and not self.alone_declared:
            adj = self._holder_in_exchange()  # (set when play begins)
            alone = adj == self.napoleon
        v["adjutant"] = None if not known or alone or adj < 0 else adj
        v["adjutant_known"] = known
        v["alone"] = alone if known else None
        if seat is not None and seat == self.napoleon and ph == PHASE_EXCHANGE:
            v["widow"] = card_list(self.widow)
        if self.exchanged:
            shown = self.revealed_discards()
            if seat is not None and seat == self.napoleon:
                shown = self.discards
            v["discards"] = card_list(shown)
            v["discards_count"] = self.discards.bit_count()
        v["trick"] = self.current_trick_json() if ph == PHASE_PLAY else []
        v["call"] = self.call_active
        v["tricks"] = [t.as_json(self.n) for t in self.tricks]
        v["honors_taken"] = [card_list(t) for t in self.taken]
        v["honor_counts"] = [t.bit_count() for t in self.taken]
        mine = seat is not None and seat == self.to_play
        # the discard of more than CHOICES_LISTED ways is described, not listed (as Daifugo's
        # choices of cards): the seat's snapshot was a third of a megabyte
        choose = self.choose() if mine else None
        v["choose"] = choose
        v["legal_actions"] = self.legal_actions() if mine and listed(choose) else []
        if ph == PHASE_OVER:
            v["result"] = self.result()
        return v

    def explain_trick(self, i: int, lang: str = "en") -> str:
        """The explanation of trick ``i``, e.g. ``'JD wins: 裏J (trump H)'``."""
        return explain(self.tricks[i].reason, "ja" if lang == "ja" else "en")

    # ---------------------------------------------------------------- search support
    _copied = ("hands", "taken", "trick", "tricks", "history", "auction")


def new_napoleon(
    rules: str | Mapping[str, Any] | None = "classic",
    players: int | None = None,
    seed: int | None = None,
    deal: Mapping[str, Any] | None = None,
    dealer: Seat = 0,
    first_bidder: Seat | None = None,
) -> Napoleon:
    """A new Napoleon game (see :func:`torampu.new_game`)."""
    resolved = SPEC.resolve(rules, players=players)
    return Napoleon(resolved, new_seed() if seed is None else seed, deal, dealer, first_bidder)
