"""Daifugo (大富豪 / 大貧民), with every house rule of source 004 as an option.

The rules (source 004; digest in ``spec/rules.md`` §4)
-----------------------------------------------------
2–8 players; 52 cards and ``jokers`` jokers, all dealt. Ranks from weak to strong:
3 4 5 6 7 8 9 T J Q K A 2, then the joker. A play is a single, a group (2+ cards of one rank) or,
with ``stairs``, a run (3+ consecutive ranks of one suit); with ``joker_wild`` a joker stands for
any card of a group or run, and alone it is the strongest single. On an empty table the leader
plays anything; afterwards a play must have the same shape and size and be stronger (a run beats
a run whose highest card is below its lowest). A player may pass (``pass_rejoin``: and play again
later in the round). When play comes back to the last player with everyone else passing, the
table is flushed (流す) and that player leads. Going out in order gives the titles 大富豪, 富豪,
平民…, 貧民, 大貧民; a match (:class:`DaifugoMatch`) carries them into the next game, whose
exchange makes the poor give their best cards (automatically) and the rich return cards of their
choice (``exchange …``).

House rules, each an option: 革命 (4+ of a rank reverse the order until another revolution),
8切り, 11バック, 5とび, 7渡し (``give …``), 10捨て (``discard …``), Qリバース, 砂嵐, ビッグセブン,
クーデター, 階段 and 階段革命, 縛り / 激縛 / 逆縛, 都落ち, 防衛, 天変地異, 大革命, ♠3返し,
forbidden finishes (反則上がり) and the finishing play staying on the table.

Rulings beyond ``rules.md`` (the source is silent or ambiguous)
---------------------------------------------------------------
* Jokers stand for the rank of the group or the cell of the run they are in, for every rule that
  counts cards (8切り, 5とび, 7渡し, 革命, 砂嵐, ビッグセブン, クーデター). A group of jokers only
  is the strongest group of its size. Without ``joker_wild`` a joker may only be played alone.
* A lone joker is never wild: it ignores locks, beats every single and is beaten only by ♠3
  (``spade3_return``, which obeys a lock like any card).
* Locks (縛り): a play's suits are those of its real cards. Two consecutive plays "have the same
  suits" when the first has no joker (or was made under the lock) and the second's real suits are
  the same set; a joker then takes the missing suit. Under a lock a play's real cards must all be
  of the locked suits (a lone joker excepted).
* 激縛 (``strict_lock``) forms when the plays that form a lock are also consecutive in rank (each
  the next stronger one; for runs, the next run starts just above the last); then only the same
  suits at the next rank may follow. With ``strict_lock`` but not ``lock`` only this form locks.
* 逆縛 (``reverse_lock``) applies to singles and groups without jokers: the same suits one rank
  weaker than the table (in the current order) may be played and lock at once; not under 激縛.
* 11バック toggles: a second J play while it is in force restores the order until the flush.
* クーデター toggles the order like a revolution and then fixes it for the rest of the game
  (no revolution, counter-revolution or stair revolution changes it).
* 5とび skips 2k−1 players who could play now (active, and not out of the round under
  ``pass_rejoin: false``); when that reaches back to the player, the table is flushed.
* 7渡し gives to the next player still in the game in the direction of play. Going out by giving
  or discarding is never a foul, except under ``8JK`` when the 7/10 play used a joker. Going out
  with the 7/10 play itself is judged like any finishing play (a joker in it is the ``JK`` foul).
  004 ★23 also lists a 砂嵐 made with a joker: it is read, like the rest of the list, as a way of
  going out (the ``JK`` foul), not as a foul when played earlier.
* Runs (``stair_overlap``, off by default): 004 ★17 says a run may not repeat a rank of the
  table's run (on ♥3-4-5, ♠5-6-7 is refused and ♦6-7-8 allowed), so by default a run must lie
  wholly above the table's, in a revolution wholly below; a stair 革命返し then needs a run below
  the first (♦3-7 on ♠8-Q), and a ♠6-T revolution can only be answered from ♦3-7 down. 004 ★18's
  own example of a stair 革命返し answers ♠6-T with ♦5-9, which overlaps: with
  ``stair_overlap`` on, a run beats a run of its length that starts higher (in a revolution:
  lower), overlapping or not, so ★18's example is legal (and so is ★17's ♠5-7 on ♥3-5). Under
  激縛 the next run still starts just beyond the last.
* シケ (``shike``, off by default): 004 ②: 「参加人数が少ない場合は1人分多く配って、余った山は
  流しておきます」. With it on, the cards go round one hand more than there are players, that
  hand dealt last (so the extra cards go to players first), and it is set aside unseen for the
  game: its cards are in nobody's hand and never shown; if it holds the ``first_lead`` card,
  the player after the dealer leads game 1 freely. 004 leaves "few players" to the table: the
  option applies at any table size.
* 都落ち: the dropped 大富豪's hand is put face up on the discard pile.
* 大革命 flips the previous titles in full (the middle 平民 stay).
* The poor give their best cards by rank (jokers first); between equal ranks ♠ ♥ ♦ ♣.
  Under 防衛 the 大富豪–大貧民 exchange grows by one card per defended title, without asking.
* Dealing: the cards go round from the dealer's left in game 1 and from the 大富豪 later (004 ①1:
  "階級の上の人から"), so extra cards go to those seats. A fixed deal may leave cards out (シケ);
  if nobody holds the ``first_lead`` card, the player after the dealer leads game 1 freely.
* Points per game (option ``points``): ``rank`` gives n for 大富豪 down to 1 for 大貧民 (as the
  UECda tournaments), ``zero_sum`` gives +2 大富豪, +1 富豪, 0 平民, −1 貧民, −2 大貧民.

The ``uecda`` preset (the computer Daihinmin tournament's rules, as its server tndhms plays them)
-------------------------------------------------------------------------------------------------
5 players, 1 wild joker, runs of 3+ (jokers fill any cell), 革命 by 4+ of a rank or a run of 5+,
8切り, 縛り, ♠3 over a lone joker, the exchange (2/1, the rich choose what to return), the
finishing cards stay on the table, a player who passed waits for the flush (``pass_rejoin:
false``), points 5/4/3/2/1; no 11バック, 5とび or forbidden finishes. Where 004's rules differ,
an option says how (each off by default):

* ``first_lead_include: false`` with ``later_lead: first_lead``: the ♦3 holder (after the
  exchange) leads every game with any play.
* ``lead_pass``: the leader of a round may pass; a first leader who passes loses the duty to
  include the ``first_lead`` card.
* ``flush_when: everyone``: the table is flushed only when every player still in has passed
  since the last flush (UECda's manual, ``man/rule.html`` §4.2.4: 「全員がパスを宣言するまで、場は
  流れない」; tndhms 0.29 counts passes against "players still in"). When all the others have
  passed, play comes back to the player of the table's play, who may play again on their own
  cards or pass; that pass flushes and they lead. Once that player has gone out (their cards
  stay), the round ends when all the others have passed, and the next player still in after
  them leads. A leader who passes on an empty table is passed like anyone: when everyone has,
  the table's leader leads again.
* ``flush_when: one_left`` (preset ``uecda-tndhms``): the rule of the changed tndhms in
  s1300097/reserch, whose ``daihu.c`` compares the passes with ``4 - now_number_of_goal``
  instead of ``5 - …``: after every turn, when at most one player still in the game has not
  passed since the last flush, the table is flushed and the last player to play (or to lead,
  if nobody played) leads, or the next player still in after them. So play never comes back to
  the table's player, and once that player has gone out the round ends when all but one of the
  others have passed (that one does not get a turn). ``torampu uecda client`` recognises
  which of the two a server plays (:mod:`torampu.uecda.client`).
* ``stalemate_passes: 20``: passes in a row (a refused play counts as a pass at the server),
  across flushes and reset by any play; the 20th ends the game and the players still in get the
  remaining places in an order drawn from the game's seed (tndhms draws them at random).
* ``lock_plays: 2``: any play of exactly the suits of the play it follows locks the table to
  those suits until the flush (tndhms compares each play with the table, passes in between or
  not). ``joker_unlocks``: a lone joker ends a lock, so ♠3 may return it whatever the lock
  (tndhms drops the lock flag on a lone joker).
* ``joker_suit: lowest``: tndhms reads a group's joker as the suit of the row its player puts
  it in; torampu's plays do not say, so the joker takes the lowest suit (♠ ♥ ♦ ♣) that the
  group's cards leave free — under a lock the missing locked suit —, which is where UECda's
  default client puts it (and where ``torampu.uecda`` puts it). With all four suits real (five
  of a kind) it has no suit and never matches. Under ``wild`` (004) such a play makes no lock.
* ``run_effects: any``: a run triggers the effect of every rank it spans (a run through an 8,
  or a joker standing for one, is an 8切り); when a run spans both 7 and 10, 7渡し is the one
  that applies.
* ``deal_from: seats``: later games deal one card at a time from the 大富豪 round the table,
  so the 大富豪 and the two seats after them get the 11th cards (game 1: from the dealer's left).
* ``seat_change`` and ``rank_reset`` (matches only, :class:`DaifugoMatch`): new random seats
  (the ``seating`` game argument: seats in the order of play) before games 1, N+1, …, and titles
  forgotten before games N+1, 2N+1, … (no exchange, a random dealer), as tndhms's
  ``RULE_SEKIGAE_NUM`` (5) and ``FLASH_MIBUN_NUMBER`` (100).

Known differences from tndhms that the preset does not express (``torampu.uecda`` documents
the protocol side): tndhms also accepts a run whose joker stands below the 3 or above the 2
(``JK 3S 4S``), which torampu's play encoding cannot name; and a player may put a group's
joker in any free row, so under tndhms it may make (or keep out of) a lock where torampu's
``joker_suit: lowest`` decides for them.

>>> import torampu
>>> g = torampu.new_game("daifugo", rules="standard", players=4, seed=1)
>>> g.phase, g.to_play, g.legal_actions()[:3]
('play', 1, ['play 3D', 'play 3D 3H', 'play 3D 4D 5D'])
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from torampu.cards import card_str, cards_of, parse_card, shuffled
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
    DISCARD,
    DJ,
    DQ,
    DRANK,
    EXCHANGE,
    GIVE,
    GROUP,
    JOKER_RANK,
    JSHIFT,
    K_DISCARD,
    K_EXCHANGE,
    K_GIVE,
    K_PASS,
    K_PLAY,
    KING_HEARTS,
    KSHIFT,
    PASS,
    REAL,
    RUN,
    SHAPES,
    SINGLE,
    THREE_SPADES,
    TWOS,
    Info,
    all_plays,
    cards_words,
    info,
    jokers_part,
    parse_cards_jokers,
    parse_play,
    play_str,
    plays_of_shape,
    rank_part,
    retire,
    stands_for,
    strongest,
    subsets,
)
from torampu.errors import CardError, DealError, IllegalAction, RulesError
from torampu.explain import fill
from torampu.game import Game, Move, Seat, listed
from torampu.match import Match
from torampu.options import Option, Rules, RuleSpec

_BOOL_ON = (False, True)
_BOOL_OFF = (True, False)
_EVERY = (0, 1, 2, 3, 4, 5, 10, 20, 25, 50, 100, 200, 500, 1000)
"""Values of the "every N games" options (0 = never)."""

OPTIONS: Final = [
    Option("players", "int", (5, 2, 3, 4, 6, 7, 8), "number of players", source="004"),
    Option(
        "jokers", "int", (1, 0, 2, 3), "jokers in the deck (004's house rules: 3)", source="004"
    ),
    Option(
        "joker_wild",
        "bool",
        _BOOL_OFF,
        "a joker may stand for any card in a group or run; alone it is the strongest single",
        source="004",
    ),
    Option(
        "spade3_return",
        "bool",
        _BOOL_OFF,
        "3S alone beats a lone joker and flushes the table",
        source="004",
    ),
    Option(
        "first_lead",
        "choice",
        ("3D", "4D", "3C", "3H", "3S"),
        "the holder of this card leads game 1 and must include it",
        source="004",
    ),
    Option(
        "later_lead",
        "choice",
        ("daihinmin", "first_lead"),
        "who leads games 2+: the 大貧民, or the holder of the first_lead card",
        source="004",
    ),
    Option(
        "exchange",
        "bool",
        _BOOL_OFF,
        "from game 2 the poor give their best cards; the rich return cards of their choice",
        source="004",
    ),
    Option(
        "pass_rejoin",
        "bool",
        _BOOL_OFF,
        "a player who passed may play again later in the same round (false: out until the flush)",
        source="004",
    ),
    Option("revolution", "bool", _BOOL_OFF, "4+ of a rank reverse the order (革命)", source="004"),
    Option(
        "eight_cut", "bool", _BOOL_OFF, "a play with an 8 flushes the table (8切り)", source="004"
    ),
    Option("eleven_back", "bool", _BOOL_ON, "a J reverses the order until the flush", source="004"),
    Option("five_skip", "bool", _BOOL_ON, "k fives skip 2k-1 players (5とび)", source="004"),
    Option("seven_pass", "bool", _BOOL_ON, "k sevens: give up to k cards (7渡し)", source="004"),
    Option("ten_discard", "bool", _BOOL_ON, "k tens: discard up to k cards (10捨て)", source="004"),
    Option(
        "queen_reverse",
        "bool",
        _BOOL_ON,
        "an odd number of Qs reverses the direction",
        source="004",
    ),
    Option(
        "sandstorm",
        "bool",
        _BOOL_ON,
        "three 3s or four 4s (in revolution three 2s, four As) go over anything and flush",
        source="004",
    ),
    Option("big_seven", "bool", _BOOL_ON, "three 7s: everyone passes their hand on", source="004"),
    Option(
        "coup", "bool", _BOOL_ON, "three 9s: a revolution that cannot be reversed", source="004"
    ),
    Option("stairs", "bool", _BOOL_OFF, "runs of 3+ in one suit (階段)", source="004"),
    Option("stair_revolution", "bool", _BOOL_ON, "a run of 5+ causes a revolution", source="004"),
    Option(
        "stair_overlap",
        "bool",
        _BOOL_ON,
        "a run may overlap the table's run: it beats one of its length that starts lower (in a "
        "revolution: higher), as 004 ★18's ♦5-9 answering ♠6-T; off: ★17, it must lie wholly "
        "above (below)",
        source="004",
    ),
    Option(
        "shike",
        "bool",
        _BOOL_ON,
        "シケ: deal one hand more than there are players and set it aside unseen (004: when "
        "few play)",
        source="004",
    ),
    Option(
        "lock",
        "bool",
        _BOOL_ON,
        "縛り: consecutive plays of the same suits lock them",
        source="004",
    ),
    Option(
        "strict_lock", "bool", _BOOL_ON, "激縛: same suits at the next rank lock both", source="004"
    ),
    Option(
        "reverse_lock",
        "bool",
        _BOOL_ON,
        "逆縛: same suit one rank below locks at once",
        source="004",
    ),
    Option(
        "miyako_ochi", "bool", _BOOL_ON, "都落ち: the old 大富豪 drops out if beaten", source="004"
    ),
    Option(
        "defense", "bool", _BOOL_ON, "防衛: a defended 大富豪 exchanges one card more", source="004"
    ),
    Option(
        "tenpen", "bool", _BOOL_ON, "天変地異: a 大貧民 with only 3–10 swaps hands", source="004"
    ),
    Option(
        "great_revolution",
        "bool",
        _BOOL_ON,
        "大革命: the 大貧民 going out first ends the game and flips the titles",
        source="004",
    ),
    Option(
        "forbidden_finish",
        "set",
        ("2", "JK", "KH", "8JK"),
        "going out with any of these makes the player last (8JK: an 8-cut, 7- or 10-play "
        "with a joker)",
        source="004",
    ),
    Option(
        "finish_stays",
        "bool",
        _BOOL_OFF,
        "the cards a player goes out with stay on the table for the next player to beat",
        source="004",
    ),
    Option(
        "points",
        "choice",
        ("rank", "zero_sum"),
        "points per game: rank = n for 大富豪 … 1 for 大貧民; zero_sum = +2 +1 0 -1 -2",
    ),
    Option(
        "first_lead_include",
        "bool",
        _BOOL_OFF,
        "the first_lead holder's first play must include that card (false: any play; UECda)",
        source="UECda",
    ),
    Option(
        "lead_pass",
        "bool",
        _BOOL_ON,
        "the leader of a round may pass (UECda)",
        source="UECda",
    ),
    Option(
        "flush_when",
        "choice",
        ("all_passed", "one_left", "everyone"),
        "when the table is flushed: all_passed = play comes back to the last player (004); "
        "everyone = every player still in has passed, the table's player too, who gets the "
        "turn back and may play on (UECda's rule, manual §4.2.4); one_left = at most one "
        "player still in has not passed (the changed tndhms of s1300097/reserch)",
        source="UECda",
    ),
    Option(
        "stalemate_passes",
        "int",
        (0, 20, 10, 30, 50, 100),
        "this many passes in a row (across flushes) end the game; the players still in are "
        "ranked at random (UECda: 20); 0 = never",
        source="UECda",
    ),
    Option(
        "lock_plays",
        "choice",
        ("004", "2"),
        "plays of the same suits that lock (縛り): 004 = 2 right after a flush, 3 later in the "
        "round; 2 = any 2 consecutive plays (UECda)",
        source="UECda",
    ),
    Option(
        "joker_unlocks",
        "bool",
        _BOOL_ON,
        "a lone joker ends a lock, so ♠3 may return it in any suit (UECda)",
        source="UECda",
    ),
    Option(
        "joker_suit",
        "choice",
        ("wild", "lowest"),
        "a group's joker for 縛り: wild = no suit (the play makes no lock; 004); lowest = the "
        "lowest suit ♠♥♦♣ its cards leave free, the missing suit under a lock (UECda)",
        source="UECda",
    ),
    Option(
        "run_effects",
        "choice",
        ("top", "any"),
        "the ranks of a run whose effects (8切り …) apply: top = its highest card (004); "
        "any = every rank it spans (UECda)",
        source="UECda",
    ),
    Option(
        "deal_from",
        "choice",
        ("titles", "seats"),
        "later games deal from the 大富豪 in order of titles (004) or round the table (UECda)",
        source="UECda",
    ),
    Option(
        "seat_change",
        "int",
        _EVERY,
        "matches: players take new random seats before games 1, N+1, 2N+1, … (席替え; "
        "UECda: 5); 0 = never",
        source="UECda",
    ),
    Option(
        "rank_reset",
        "int",
        _EVERY,
        "matches: titles are forgotten before games N+1, 2N+1, … (no exchange; UECda: 100); "
        "0 = never",
        source="UECda",
    ),
]

_YAITA_ON = [
    *("eleven_back", "five_skip", "seven_pass", "ten_discard", "queen_reverse", "sandstorm"),
    *("big_seven", "coup", "stair_revolution", "lock", "strict_lock", "reverse_lock"),
    *("miyako_ochi", "defense", "tenpen", "great_revolution"),
]


_UECDA: Final[dict[str, Any]] = {
    "players": 5,
    "later_lead": "first_lead",
    "first_lead_include": False,
    "pass_rejoin": False,
    "lead_pass": True,
    "finish_stays": True,
    "stair_revolution": True,
    "lock": True,
    "lock_plays": "2",
    "joker_unlocks": True,
    "joker_suit": "lowest",
    "run_effects": "any",
    "flush_when": "everyone",
    "stalemate_passes": 20,
    "deal_from": "seats",
    "seat_change": 5,
    "rank_reset": 100,
}
"""The ``uecda`` preset: UECda's rules (see the module docstring)."""


def _check(r: Rules) -> None:
    if r["stair_revolution"] and not r["stairs"]:
        raise RulesError("option 'stair_revolution' needs 'stairs' (runs) on")
    if r["defense"] and not r["exchange"]:
        raise RulesError("option 'defense' changes the exchange: it needs 'exchange' on")


SPEC: Final = RuleSpec(
    "daifugo",
    OPTIONS,
    {
        "standard": {},
        "yaita": {
            "jokers": 3,
            "first_lead": "4D",
            "forbidden_finish": ["2", "JK", "KH", "8JK"],
            **dict.fromkeys(_YAITA_ON, True),
        },
        "uecda": _UECDA,
        "uecda-tndhms": {**_UECDA, "flush_when": "one_left"},
    },
    "standard",
    check=_check,
    preset_notes={
        "standard": "004's basic rules: 1 joker, 3D leads, revolution, exchange, stairs, 8-cut",
        "yaita": "004's house rules (ヤイタ式): 3 jokers, 4D leads, every house rule on",
        "uecda": "the UECda computer Daihinmin rules (tndhms): 5 players, 1 joker, ♦3 leads "
        "every game, exchange, revolution, 8-cut, lock, runs; seats and titles as its server",
        "uecda-tndhms": "uecda as the changed tndhms of s1300097/reserch plays it: the table is "
        "flushed once all but one of the players still in have passed (flush_when: one_left)",
    },
)

TITLES: Final = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
TITLES_JA: Final = {
    "daifugo": "大富豪",
    "fugo": "富豪",
    "heimin": "平民",
    "hinmin": "貧民",
    "daihinmin": "大貧民",
}


def title_names(n: int) -> list[str]:
    """The title of each finishing position for ``n`` players.

    >>> title_names(5)
    ['daifugo', 'fugo', 'heimin', 'hinmin', 'daihinmin']
    >>> title_names(3)
    ['daifugo', 'heimin', 'daihinmin']
    """
    if n == 2:
        return ["daifugo", "daihinmin"]
    if n == 3:
        return ["daifugo", "heimin", "daihinmin"]
    return ["daifugo", "fugo"] + ["heimin"] * (n - 4) + ["hinmin", "daihinmin"]


def points_for(rules: Rules, n: int) -> list[int]:
    """Points per finishing position under the ``points`` option."""
    if rules["points"] == "rank":
        return list(range(n, 0, -1))
    value = {"daifugo": 2, "fugo": 1, "heimin": 0, "hinmin": -1, "daihinmin": -2}
    return [value[t] for t in title_names(n)]


# ------------------------------------------------------------------------------ explanations
_SUIT_NAMES = {"S": ("♠", "♠"), "H": ("♥", "♥"), "D": ("♦", "♦"), "C": ("♣", "♣")}

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "flush": ("everyone passed: the table is flushed, {p} leads", "全員パス: 場が流れ、{p}から"),
    "eight_cut": ("8-cut (8切り): the table is flushed, {p} leads", "8切り: 場が流れ、{p}から"),
    "spade3": ("♠3 beats the lone joker: the table is flushed", "スペ3返し: 場が流れる"),
    "sandstorm": (
        "Sandstorm (砂嵐): played over anything, the table is flushed",
        "砂嵐: 場が流れる",
    ),
    "revolution": (
        "Revolution (革命): the order is reversed (3 strongest, 2 weakest)",
        "革命: 強弱が逆転",
    ),
    "counter_revolution": (
        "Counter-revolution (革命返し): the order is normal again",
        "革命返し: 強弱が元に戻る",
    ),
    "stair_revolution": (
        "Stairs revolution (階段革命): a run of 5+ reverses the order",
        "階段革命: 強弱が逆転",
    ),
    "coup": (
        "Coup (クーデター): three 9s reverse the order for the rest of the game",
        "クーデター: 9三枚で革命 (この試合は返せない)",
    ),
    "coup_fixed": (
        "no revolution: the coup fixed the order for this game",
        "クーデター中: 革命は起きない",
    ),
    "eleven_back": (
        "11-back (11バック): the order is reversed until the flush",
        "11バック: 流れるまで強弱が逆",
    ),
    "eleven_back_off": (
        "11-back (11バック) again: the order is normal until the flush",
        "11バック返し",
    ),
    "five_skip": ("5-skip (5とび): {k} {k|player|players} skipped", "5とび: {k}人とばし"),
    "five_skip_back": (
        "5-skip (5とび): the skip comes back round, the table is flushed",
        "5とび: 自分に戻り場が流れる",
    ),
    "seven_pass": (
        "7-pass (7渡し): {p} may give up to {k} {k|card|cards} to {q}",
        "7渡し: {p}が{q}に{k}枚まで渡せる",
    ),
    "ten_discard": (
        "10-discard (10捨て): {p} may discard up to {k} {k|card|cards}",
        "10捨て: {p}が{k}枚まで捨てられる",
    ),
    "queen_reverse": (
        "Q-reverse (Qリバース): the direction of play is reversed",
        "Qリバース: 順番が逆回り",
    ),
    "big_seven": (
        "Big seven (ビッグセブン): every player passes their whole hand to the next",
        "ビッグセブン: 全員が手札を次の人へ渡す",
    ),
    "lock": ("Lock (縛り): {suits} only until the flush", "縛り: {suits}のみ"),
    "strict_lock": (
        "Strict lock (激縛): {suits} at the next rank only",
        "激縛: {suits}の次の数字のみ",
    ),
    "reverse_lock": (
        "Reverse lock (逆縛): one rank below in {suits} locks at once",
        "逆縛: {suits}で縛り",
    ),
    "reverse_lock_locked": (
        "Reverse lock (逆縛): one rank below in {suits}, played into the lock",
        "逆縛: {suits}の1つ下",
    ),
    "out": ("{p} goes out", "{p}があがり"),
    "finish_stays": ("the finishing cards stay on the table", "あがりの札は場に残る"),
    "finish_flush": ("the table is flushed after a finish; {q} leads", "あがりで場が流れ、{q}から"),
    "foul": (
        "Forbidden finish (反則上がり): finished with {card} → ranked last",
        "反則上がり: {card}であがり → 大貧民",
    ),
    "miyako_ochi": (
        "Capital fall (都落ち): {q} went out first, the previous Daifugo {p} drops out",
        "都落ち: {q}が先にあがり、前の大富豪{p}は脱落",
    ),
    "great_revolution": (
        "Great revolution (大革命): the Daihinmin went out first; the game ends and every "
        "title flips",
        "大革命: 大貧民が一番にあがり、試合終了・地位が逆転",
    ),
    "tenpen": (
        "Cataclysm (天変地異): the Daihinmin's hand is all 3–10, so it swaps hands with the "
        "Daifugo (no exchange)",
        "天変地異: 大貧民の手札が3〜10のみ、大富豪と手札を全部交換 (カード交換なし)",
    ),
    "game_over": ("the game is over", "試合終了"),
    "joker_unlocks": ("the lone joker ends the lock", "ジョーカー単騎で縛りが解ける"),
    "stalemate": (
        "{k} passes in a row: the game ends, the players still in are ranked at random",
        "{k}回連続パス: 試合終了、残りの順位は抽選",
    ),
}


def why(code: str, **params: Any) -> dict[str, Any]:
    """A ruling as ``{"code", "en", "ja"}``; ``p``/``q`` are seats, ``suits`` a suit set.

    A ruling that names seats also carries them as ``"seats": {"p": 1, …}``, so that a screen
    can put the players' names in place of "seat 1" / "1番席" (a bare "1番" would read as a
    finishing place).
    """
    if len(params) == 1:  # the common case, memoized on a flat key
        for name, value in params.items():
            if type(value) is int:
                return _why1(code, name, value)
    key = (code, *params.items())
    try:
        got = _WHY.get(key)
    except TypeError:  # a parameter that cannot be a key: no memo
        return _why(code, params)
    if got is None:
        if len(_WHY) > 10_000:
            _WHY.clear()
        got = _WHY[key] = _why(code, params)
    return _fresh(got)


def _why1(code: str, name: str, value: int) -> dict[str, Any]:
    """:func:`why` of one whole-number parameter (``p=1``, ``suits=3``, ``k=2``)."""
    key = (code, name, value)
    got = _WHY1.get(key)
    if got is None:
        if len(_WHY1) > 10_000:
            _WHY1.clear()
        got = _WHY1[key] = _why(code, {name: value})
    return _fresh(got)


def _fresh(got: dict[str, Any]) -> dict[str, Any]:
    """A copy of a memoized ruling (its ``seats`` too), so a caller may change its own."""
    out = dict(got)
    seats = got.get("seats")
    if seats is not None:
        out["seats"] = dict(seats)
    return out


_WHY: Final[dict[tuple[Any, ...], dict[str, Any]]] = {}
"""Memo of :func:`why` (each call returns a fresh copy)."""
_WHY1: Final[dict[tuple[str, str, int], dict[str, Any]]] = {}
"""Memo of :func:`why` with one whole-number parameter, on a flat key."""
_EFFECTS: Final[dict[int, tuple[int, ...]]] = {}
""":meth:`Daifugo._effects` per effect rank and count (keyed ``16 * rank + count``), or per run
span under ``run_effects: any`` (keyed ``-1000 - (32 * lowest + highest)``); a few dozen
entries."""
_PLAY_ACTIONS: Final[dict[int, str]] = {}
"""The log's action text of each play (``play 3D 3H``), memoized."""


def _why(code: str, params: Mapping[str, Any]) -> dict[str, Any]:
    en_t, ja_t = MESSAGES[code]
    en_p: dict[str, Any] = dict(params)
    ja_p: dict[str, Any] = dict(params)
    seats: dict[str, int] = {}
    for key in ("p", "q"):
        if key in params:
            en_p[key] = f"seat {params[key]}"
            ja_p[key] = f"{params[key]}番席"
            seats[key] = params[key]
    if "suits" in params:
        sym = "".join("♠♥♦♣"[s] for s in range(4) if params["suits"] >> s & 1)
        en_p["suits"] = ja_p["suits"] = sym
    out: dict[str, Any] = {"code": code, "en": fill(en_t, **en_p), "ja": fill(ja_t, **ja_p)}
    if seats:
        out["seats"] = seats
    return out


# ------------------------------------------------------------------------------------ phases
PH_EXCHANGE: Final = 0
PH_PLAY: Final = 1
PH_GIVE: Final = 2
PH_DISCARD: Final = 3
PH_OVER: Final = 4
PHASE_NAMES: Final = ("exchange", "play", "give", "discard", "over")

_FIRST_LEAD_CARDS: Final = {s: parse_card(s) for s in ("3D", "4D", "3C", "3H", "3S")}


_LEGAL_MAX: Final = 40_000
"""The bound of the memos of :meth:`Daifugo._plays_now` (the third of each table state's
:data:`_FOLLOWS`), all of them together: they are all emptied when it is reached. Each of the
engine's memos is emptied when it reaches its bound: with these, 8 searches of 3,000 iterations
in ``yaita`` peaked at 121 MB of memory, 76 MB without the memos (5313adf)."""
_LEGAL_COUNT: Final[list[int]] = [0]
"""How many hands the memos of :meth:`Daifugo._plays_now` hold now, all table states together."""
_LEGAL_RULES: Final = (
    "joker_wild",
    "stairs",
    "lead_pass",
    "sandstorm",
    "spade3_return",
    "stair_overlap",
    "reverse_lock",
)
"""The options that :meth:`Daifugo._find_plays` reads."""
_STORMS: Final[dict[tuple[int | bool, ...], dict[int, tuple[Move, ...]]]] = {}
"""Per hand and order: its groups of 3 and 4 that are sandstorms (:meth:`Daifugo._find_plays`)."""


def _shape_order(m: Move) -> tuple[int, int]:
    """Where a play's shape comes in the order of all plays: singles, groups, runs; by size."""
    i = info(m)
    return (i.kind, i.size)


_Memos = tuple[dict[Move, str | None], dict[int, tuple[Move, ...]], dict[int, tuple[Move, ...]]]
_FOLLOWS: Final[dict[tuple[int, int], _Memos]] = {}
"""Per table state (the table's play, or none, and the order, the lock, the rules' key): how
each play may follow it (:meth:`Daifugo._beats`; ``None``: it may not), the plays of each part
of a hand (a rank's cards and the wild jokers, as ``cards | jokers << JSHIFT``) that may, and
the legal plays of each hand (:meth:`Daifugo._plays_now`, keyed ``cards | jokers << 56``)."""
_UNSEEN: Final = "?"
"""A play the memo has not judged yet (``_beats`` never returns it)."""
_FOLLOWS_MAX: Final = 5_000
_STORMS_MAX: Final = 20_000
_RULES_KEYS: Final[dict[tuple[Any, ...], int]] = {}


def _rules_key(r: Rules) -> int:
    """A small number for the values of the options in ``_LEGAL_RULES`` (the memo's key)."""
    flags = tuple(r[name] for name in _LEGAL_RULES)
    return _RULES_KEYS.setdefault(flags, len(_RULES_KEYS))


_AFTER: Final[dict[tuple[int, ...], dict[int, tuple[tuple[int, ...], ...]]]] = {}


def _after_table(seating: tuple[int, ...]) -> dict[int, tuple[tuple[int, ...], ...]]:
    """For each direction of play (1, -1) and seat, the other seats in the order they come
    after it round the table (memoized per seating)."""
    got = _AFTER.get(seating)
    if got is None:
        n = len(seating)
        pos = {x: i for i, x in enumerate(seating)}
        got = _AFTER[seating] = {
            d: tuple(tuple(seating[(pos[s] + d * k) % n] for k in range(1, n)) for s in range(n))
            for d in (1, -1)
        }
    return got


_CHOICES: Final[dict[tuple[int, ...], tuple[Move, ...]]] = {}
_CHOICES_HELD: Final = [0]
"""How many moves :data:`_CHOICES` holds in all."""
CHOICES_MEMO: Final = 10_000
"""The most moves of a choice :func:`_choices` keeps (a larger one is made again when asked: a
few hands of seven chosen of 21 held 200,000 moves each, some 10 MB), and the most it keeps in
all is twenty times that (its entries were counted, not their moves: a twenty-ninth audit)."""


def _choices(verb: int, hand: int, jokers: int, low: int, high: int) -> tuple[Move, ...]:
    """The moves ``verb`` (exchange, give, discard) of ``low``..``high`` cards of a hand, in the
    order of :func:`subsets` (memoized, within :data:`CHOICES_MEMO`)."""
    key = (verb, hand, jokers, low, high)
    got = _CHOICES.get(key)
    if got is None:
        got = tuple(verb | m for m in subsets(hand, jokers, low, high))
        if len(got) > CHOICES_MEMO:
            return got
        if len(_CHOICES) > 20_000 or _CHOICES_HELD[0] + len(got) > 20 * CHOICES_MEMO:
            retire(_CHOICES)
            _CHOICES_HELD[0] = 0
        _CHOICES[key] = got
        _CHOICES_HELD[0] += len(got)
    return got


def _seats(bits: int) -> list[int]:
    return [s for s in range(bits.bit_length()) if bits >> s & 1]


class RuleFlags:
    """The options the play phase reads at every step, as typed fields: read natively by the
    compiled engine instead of looked up in the rules dict (the same values)."""

    def __init__(self, r: Rules) -> None:
        self.stairs: bool = r["stairs"]
        self.lead_pass: bool = r["lead_pass"]
        self.sandstorm: bool = r["sandstorm"]
        self.spade3_return: bool = r["spade3_return"]
        self.stair_overlap: bool = r["stair_overlap"]
        self.reverse_lock: bool = r["reverse_lock"]
        self.pass_rejoin: bool = r["pass_rejoin"]
        self.revolution: bool = r["revolution"]
        self.stair_revolution: bool = r["stair_revolution"]
        self.coup: bool = r["coup"]
        self.eleven_back: bool = r["eleven_back"]
        self.queen_reverse: bool = r["queen_reverse"]
        self.big_seven: bool = r["big_seven"]
        self.eight_cut: bool = r["eight_cut"]
        self.five_skip: bool = r["five_skip"]
        self.seven_pass: bool = r["seven_pass"]
        self.ten_discard: bool = r["ten_discard"]
        self.finish_stays: bool = r["finish_stays"]
        self.joker_unlocks: bool = r["joker_unlocks"]
        self.lock: bool = r["lock"]
        self.strict_lock: bool = r["strict_lock"]
        self.flush_when: str = r["flush_when"]
        self.lock_plays: str = r["lock_plays"]
        self.joker_suit: str = r["joker_suit"]
        self.run_effects: str = r["run_effects"]
        self.stalemate_passes: int = r["stalemate_passes"]


class Daifugo(Game):
    """One game of Daifugo. Create it with ``torampu.new_game("daifugo", …)``.

    ``titles`` (a finishing position per seat from the previous game, 0 = 大富豪) makes it a
    later game of a match: exchange, 都落ち, 大革命 and 天変地異 need it; ``defense`` is how
    many times in a row the 大富豪 has defended the title.
    """

    name = "daifugo"
    spec = SPEC
    extra_args = ("titles", "defense", "seating")

    # declared again here so that the compiled class keeps them as native fields
    rules: Rules
    n: int
    seed: int
    dealer: Seat
    history: list[tuple[Seat, Move]]

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        deal: Mapping[str, Any] | None = None,
        dealer: Seat = 0,
        titles: Sequence[int] | None = None,
        defense: int = 0,
        seating: Sequence[int] | None = None,
    ) -> None:
        if rules is None:
            # a blank instance for clone(): the compiled class's __new__ runs __init__
            return
        self.rules = r = rules
        self.flags = RuleFlags(r)
        self.n = n = r["players"]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
        if titles is not None:
            if (
                not isinstance(titles, list | tuple)
                or any(isinstance(t, bool) or not isinstance(t, int) for t in titles)
                or sorted(titles) != list(range(n))
            ):
                raise DealError(
                    f"titles must give each seat a distinct position 0..{n - 1}, not {titles!r}"
                )
            titles = list(titles)
        if isinstance(defense, bool) or not isinstance(defense, int) or defense < 0:
            raise DealError(f"defense must be a whole number ≥ 0, not {defense!r}")
        if seating is None:
            seating = list(range(n))
        elif (
            not isinstance(seating, list | tuple)
            or any(isinstance(t, bool) or not isinstance(t, int) for t in seating)
            or sorted(seating) != list(range(n))
        ):
            raise DealError(
                f"seating must list every seat 0..{n - 1} once, in the order of play, "
                f"not {seating!r}"
            )
        self.seating: tuple[int, ...] = tuple(seating)
        """The seats in the order of play round the table (席順; UECda's seat changes)."""
        self.pos: tuple[int, ...] = tuple(self.seating.index(s) for s in range(n))
        self._after = _after_table(self.seating)
        self.seed = seed
        self.dealer = dealer
        self.titles: list[int] | None = titles
        self.defense = defense
        self.history = []
        self.njokers: int = r["jokers"]
        self.wild: bool = r["joker_wild"]
        self._rules_key = _rules_key(r)
        if deal is None:
            self.hands, self.jok = self._deal()
        else:
            self.hands, self.jok = self._check_deal(deal)
        self.initial = (tuple(self.hands), tuple(self.jok))
        self.set_aside = REAL & ~sum(self.hands)
        """Cards dealt to nobody (シケ, or left out of a fixed deal): unseen all game."""
        self.set_aside_jokers: int = self.njokers - sum(self.jok)
        self.known = list(self.hands)
        """Cards each seat has legitimately seen in some hand (its own, given, received)."""
        self.public = 0
        """Cards everyone knows the place of (天変地異's revealed hand)."""
        self.active: int = (1 << n) - 1
        self.finished: list[Seat] = []
        self.fouls: list[Seat] = []
        self.fallen = -1
        self.ranking: list[Seat] = []
        self.great = False
        self.revolution = False
        self.fixed = False
        self.eleven = False
        self.direction = 1
        self.table = 0
        self.table_info: Info | None = None
        self.table_by = -1
        self.round_real = 0
        self.round_jokers = 0
        self.pile_real = 0
        self.pile_jokers = 0
        self.trash_real = 0
        self.trash_jokers = 0
        self.recent: tuple[tuple[int, Info], ...] = ()
        self.plays_in_round = 0
        self.lock_suits = 0
        self.strict = False
        self.passed = 0
        self.pass_run = 0
        """Passes in a row, across flushes (``stalemate_passes``)."""
        self.pending = 0  # cards that may be given or discarded now
        self.pending_play = 0
        self.must_include = -1
        self.log: list[dict[str, Any]] = []
        self.quiet = False
        """Play without writing the log (a search's playouts, which nobody reads): the rules
        and every other field as usual; the view's ``log`` then lacks the quiet steps."""
        self._memos: _Memos = ({}, {}, {})
        self._memos_table = -1  # no table state: the first _follow_memos looks its memos up
        self._memos_order = -1
        self.exchanges: list[dict[str, Any]] = []
        self.exchange_queue: list[tuple[Seat, Seat, int]] = []
        self.tenpen: dict[str, Any] | None = None
        self.phase_id = PH_PLAY
        self.turn: int = -1
        self._start()

    # ------------------------------------------------------------------ dealing and exchange
    def _deal(self) -> tuple[list[int], list[int]]:
        n = self.n
        # the deal is the only draw of a game (a stalemate's places are drawn from the seed
        # and the step), so the generator is not kept: clones have none to copy
        cards = shuffled(random.Random(self.seed), list(range(52)) + [52] * self.njokers)
        seating, pos = self.seating, self.pos
        if self.titles is None:
            order = [seating[(pos[self.dealer] + 1 + i) % n] for i in range(n)]
        elif self.rules["deal_from"] == "seats":
            rich = pos[self.titles.index(0)]
            order = [seating[(rich + i) % n] for i in range(n)]
        else:
            order = sorted(range(n), key=lambda s: self.titles[s])  # type: ignore[index]
        if self.rules["shike"]:  # シケ: one hand more, dealt last, set aside unseen
            order.append(-1)
        hands = [0] * n
        jok = [0] * n
        k = len(order)
        for i, c in enumerate(cards):
            s = order[i % k]
            if s < 0:
                continue
            if c == 52:
                jok[s] += 1
            else:
                hands[s] |= 1 << c
        return hands, jok

    def _check_deal(self, deal: Mapping[str, Any]) -> tuple[list[int], list[int]]:
        shape = '{"hands": [[card, …] per seat]}'
        if not isinstance(deal, Mapping) or not isinstance(deal.get("hands"), list):
            raise DealError(f"a Daifugo deal is {shape}")
        rows = deal["hands"]
        if len(rows) != self.n:
            raise DealError(f"the deal has {len(rows)} hands for {self.n} players")
        hands = [0] * self.n
        jok = [0] * self.n
        seen = 0
        for s, row in enumerate(rows):
            if not isinstance(row, list) or not all(isinstance(w, str) for w in row):
                raise DealError(f"hand {s} must be a list of card strings, as in {shape}")
            for w in row:
                try:
                    c = parse_card(w)
                except CardError as e:
                    raise DealError(f"hand {s}: {e}") from None
                if c == 52:
                    jok[s] += 1
                    continue
                if seen >> c & 1:
                    raise DealError(f"{card_str(c)} is dealt twice")
                seen |= 1 << c
                hands[s] |= 1 << c
        if sum(jok) > self.njokers:
            raise DealError(f"the deal has {sum(jok)} jokers; the rules have {self.njokers}")
        if not any(hands) and not any(jok):
            raise DealError("the deal gives nobody any card")
        return hands, jok

    def _start(self) -> None:
        r = self.rules
        titles = self.titles
        if titles is not None and self.n >= 2:
            rich = titles.index(0)
            poor = titles.index(self.n - 1)
            if (
                r["tenpen"]
                and self.jok[poor] == 0
                and self.hands[poor]
                and all(DRANK[c] <= D10 for c in cards_of(self.hands[poor]))
            ):
                revealed = self.hands[poor]
                self.tenpen = {"poor": poor, "rich": rich, "hand": cards_words(revealed, 0)}
                self.hands[poor], self.hands[rich] = self.hands[rich], self.hands[poor]
                self.jok[poor], self.jok[rich] = self.jok[rich], self.jok[poor]
                self.known[poor] |= self.hands[poor]
                self.known[rich] |= self.hands[rich]
                self.public |= revealed
                self.log.append({"seat": poor, "action": "tenpen", "why": [why("tenpen")]})
            elif r["exchange"]:
                pairs = [(rich, poor, 2 + (self.defense if r["defense"] else 0))]
                if self.n >= 4:
                    pairs.append((titles.index(1), titles.index(self.n - 2), 1))
                for rich_s, poor_s, k in pairs:
                    k = min(k, self.hands[poor_s].bit_count() + self.jok[poor_s])
                    if k <= 0:
                        continue
                    real, j = strongest(self.hands[poor_s], self.jok[poor_s], k)
                    self.hands[poor_s] &= ~real
                    self.jok[poor_s] -= j
                    self.hands[rich_s] |= real
                    self.jok[rich_s] += j
                    self.known[rich_s] |= real
                    self.exchanges.append(
                        {
                            "rich": rich_s,
                            "poor": poor_s,
                            "count": k,
                            "given": cards_words(real, j),
                            "returned": None,
                        }
                    )
                    self.exchange_queue.append((rich_s, poor_s, k))
        if self.exchange_queue:
            self.phase_id = PH_EXCHANGE
            self.turn = self.exchange_queue[0][0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase_id = PH_PLAY
        self.turn = self._first_leader()
        self.table_by = self.turn

    def _first_leader(self) -> Seat:
        first = _FIRST_LEAD_CARDS[self.rules["first_lead"]]
        if self.titles is not None and self.rules["later_lead"] == "daihinmin":
            return self.titles.index(self.n - 1)
        for s in range(self.n):
            if self.hands[s] >> first & 1:
                if self.rules["first_lead_include"]:
                    self.must_include = first
                return s
        return self.seating[(self.pos[self.dealer] + 1) % self.n]

    # ------------------------------------------------------------------ the contract
    @property
    def to_play(self) -> Seat | None:
        return None if self.phase_id == PH_OVER else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase_id == PH_OVER  # as to_play is None, one call fewer per step

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self.phase_id]

    def apply(self, move: Move) -> None:
        """Fast path, as :meth:`Game.apply` (defined here too, so that the compiled class
        makes the call without an interpreted frame)."""
        self._apply(move)

    @property
    def reversed(self) -> bool:
        """Whether lower ranks beat higher ones now (革命 xor 11バック)."""
        return self.revolution != self.eleven

    def legal_moves(self) -> list[Move]:
        ph = self.phase_id
        s = self.turn
        if ph == PH_PLAY:
            return list(self._plays_now(s))
        bounds = self._choice()
        if bounds is not None:
            verb, low, high = bounds
            return list(_choices(verb, self.hands[s], self.jok[s], low, high))
        return []

    def _choice(self) -> tuple[int, int, int] | None:
        """In the exchange, 7渡し or 10捨て: the verb and the fewest and most cards the seat to
        play chooses (any of its cards, jokers alike), else ``None``."""
        ph = self.phase_id
        if ph == PH_EXCHANGE:
            k = self.exchange_queue[0][2]
            return EXCHANGE, k, k
        if ph == PH_GIVE:
            return GIVE, 0, self.pending
        if ph == PH_DISCARD:
            return DISCARD, 0, self.pending
        return None

    def choose(self) -> dict[str, Any] | None:
        """The choice of cards the seat to play makes now (the exchange's return, 7渡し, 10捨て):
        ``{"verb", "min", "max", "ways"}`` — any ``min``..``max`` of its cards (a joker is a
        card), in ``ways`` ways; ``None`` in the play phase. A front end reads this rather than
        the list of every choice, which grows past a hundred thousand (seven cards of 21).

        >>> import torampu
        >>> g = torampu.new_game("daifugo", rules={"seven_pass": True}, players=4, seed=3)
        >>> g.choose() is None  # (the play phase)
        True
        """
        bounds = self._choice()
        if bounds is None:
            return None
        verb, low, high = bounds
        name = {EXCHANGE: "exchange", GIVE: "give", DISCARD: "discard"}[verb]
        return {"verb": name, "min": low, "max": high, "ways": self._ways(low, high)}

    def _ways(self, low: int, high: int) -> int:
        """In how many ways the seat to play may choose ``low``..``high`` of its cards."""
        s = self.turn
        n, jokers = self.hands[s].bit_count(), self.jok[s]
        return sum(
            math.comb(n, k - j) for k in range(low, high + 1) for j in range(min(jokers, k) + 1)
        )

    def legal_actions_up_to(self, most: int) -> list[str]:
        """:meth:`legal_actions` where a choice of cards has at most ``most`` ways; past it, the
        smallest choices, as many sizes of them as ``most`` holds (7渡し: give nothing, one
        card, two…) — every one legal, for a bot to choose from without the list of every
        choice (200,000 actions, a second to make: a thirtieth audit). Where even the
        smallest size holds more (an exchange of many cards), every choice.

        >>> import torampu
        >>> g = torampu.new_game("daifugo", rules={"seven_pass": True}, players=4, seed=3)
        >>> g.legal_actions_up_to(10) == g.legal_actions()  # (the play phase)
        True
        """
        sizes = self._sizes_up_to(most)
        if sizes is None:
            return self.legal_actions()
        verb, low, top, _high = sizes
        s = self.turn
        return [self.action_str(m) for m in _choices(verb, self.hands[s], self.jok[s], low, top)]

    def offers_in_part(self, most: int) -> bool:
        """Whether :meth:`legal_actions_up_to` leaves out some choices (sizes past the ones
        ``most`` holds), told without listing any.

        >>> import torampu
        >>> torampu.new_game("daifugo", players=4, seed=3).offers_in_part(10)  # (the play)
        False
        """
        sizes = self._sizes_up_to(most)
        return sizes is not None and sizes[2] < sizes[3]

    def _sizes_up_to(self, most: int) -> tuple[int, int, int, int] | None:
        """Where a choice of cards has more than ``most`` ways: its verb, its smallest size, the
        largest size :meth:`legal_actions_up_to` offers and its largest; else ``None``."""
        bounds = self._choice()
        if bounds is None or self._ways(bounds[1], bounds[2]) <= most:
            return None
        verb, low, high = bounds
        top = low
        while top < high and self._ways(low, top + 1) <= most:
            top += 1
        return verb, low, top, high

    def _plays_now(self, s: Seat) -> tuple[Move, ...]:
        """The legal plays (and pass) of seat ``s`` in the play phase: :meth:`_find_plays`,
        memoized on everything it reads (the hand, the table and its state, the rules' key:
        per hand in the table state's memos, which the game keeps between steps). The tuple is
        shared: the same object for the same position while it is memoized. The first lead of
        a game, which must include a card, is not memoized."""
        if self.must_include >= 0:
            return tuple(self._find_plays(s))
        legal = self._follow_memos()[2]
        key = self.hands[s] | self.jok[s] << 56
        got = legal.get(key)
        if got is None:
            if _LEGAL_COUNT[0] >= _LEGAL_MAX:
                # the game's own too, should its state have left _FOLLOWS
                retire(*(memos[2] for memos in _FOLLOWS.values() if memos[2]), legal)
                _LEGAL_COUNT[0] = 0
            got = legal[key] = tuple(self._find_plays(s))
            _LEGAL_COUNT[0] += 1
        return got

    def _find_plays(self, s: Seat) -> list[Move]:
        hand, jok, stairs = self.hands[s], self.jok[s], self.flags.stairs
        t = self.table_info
        if t is None:
            plays = all_plays(hand, jok, self.wild, stairs)
            if self.must_include >= 0:
                bit = 1 << self.must_include
                plays = tuple(m for m in plays if m & bit)
            return [PASS, *plays] if self.flags.lead_pass else list(plays)
        # only a play of the table's shape can follow it, or a sandstorm (a group of 3 or 4);
        # whether a play may (:meth:`_beats`) is memoized per table state, per play and per
        # part of a hand (one rank's singles or groups), which recur far more than hands
        memo, parts, _ = self._follow_memos()
        kind, size = t.kind, t.size
        out = [PASS]
        if kind == RUN:
            for m in plays_of_shape(hand, jok, self.wild, stairs, kind, size):
                if self._follows(m, memo):
                    out.append(m)
        else:  # as plays_of_shape builds them: rank by rank, then jokers alone
            wj = jok if self.wild else 0
            for d in range(13):
                h = hand & TWOS << (d + 1) % 13
                if not h:
                    continue
                part = h | wj << JSHIFT  # a rank's cards and the wild jokers
                got = parts.get(part)
                if got is None:
                    got = parts[part] = tuple(
                        m for m in rank_part(d, h, wj, kind, size) if self._follows(m, memo)
                    )
                out.extend(got)
            tail = jokers_part(jok, wj, kind, size)
            if tail and self._follows(tail, memo):
                out.append(tail)
        if self.flags.sandstorm:
            key = (hand, jok, self.wild, stairs, self.revolution)
            by_size = _STORMS.get(key)
            if by_size is None:
                if len(_STORMS) >= _STORMS_MAX:
                    retire(_STORMS)
                by_size = _STORMS[key] = self._storms(hand, jok)
            storms = [
                m
                for n, ms in by_size.items()
                if (GROUP, n) != (kind, size)
                for m in ms
                if self._follows(m, memo)
            ]
            if storms:  # into the order of all plays: by shape (stable: each part in order)
                out = [PASS, *sorted((*out[1:], *storms), key=_shape_order)]
        return out

    def _storms(self, hand: int, jok: int) -> dict[int, tuple[Move, ...]]:
        """The groups of 3 and of 4 of a hand that are sandstorms now, each size in the order
        of :func:`plays_of_shape`: only the sandstorm's own rank can make one (three 3s and
        four 4s, in revolution three 2s and four As), then the groups of jokers alone."""
        wj = jok if self.wild else 0
        rev = self.revolution
        out: dict[int, tuple[Move, ...]] = {}
        for n, d in ((3, D2 if rev else D3), (4, DA if rev else D4)):
            held = hand & (TWOS << (d + 1) % 13)
            ms = (
                [m for m in rank_part(d, held, wj, GROUP, n) if self._is_sandstorm(info(m))]
                if held
                else []
            )
            tail = jokers_part(jok, wj, GROUP, n)
            if tail and self._is_sandstorm(info(tail)):
                ms.append(tail)
            out[n] = tuple(ms)
        return out

    def _order_key(self) -> int:
        """The table's order and lock and the rules' key, as one number (a memo key's part):
        what may follow the table's play depends on these and the play alone. The fields have
        room to spare: a lock is a set of 5 suit bits (10 kept), and ``_plays_now`` puts the
        lead's card (-1..52, plus one) in 8 bits below it; the jokers of a hand (at most 3)
        go above its 52 cards, at bit 56."""
        return (
            (self._rules_key << 10 | self.lock_suits) << 3
            | self.revolution << 2
            | self.eleven << 1
            | self.strict
        )

    def _follow_memos(self) -> _Memos:
        """The memos of the table state now (see ``_FOLLOWS``), kept by the game for its next
        step too: after a pass, and for the play that follows, the state is the same."""
        order = self._order_key()
        if self._memos_table == self.table and self._memos_order == order:
            return self._memos
        ctx = (self.table, order)
        memos = _FOLLOWS.get(ctx)
        if memos is None:
            if len(_FOLLOWS) >= _FOLLOWS_MAX:
                retire(_FOLLOWS)
                _LEGAL_COUNT[0] = 0
            memos = _FOLLOWS[ctx] = ({}, {}, {})
        self._memos, self._memos_table, self._memos_order = memos, self.table, order
        return memos

    def _follows(self, m: Move, memo: dict[Move, str | None]) -> bool:
        """Whether ``m`` may follow the table (:meth:`_beats`), memoized in ``memo`` (the
        table state's)."""
        how = memo.get(m, _UNSEEN)
        if how is _UNSEEN:
            how = memo[m] = self._beats(m)
        return how is not None

    def _how(self, m: Move) -> str | None:
        """:meth:`_beats`, memoized with the table state's plays."""
        memo = self._follow_memos()[0]
        how = memo.get(m, _UNSEEN)
        if how is _UNSEEN:
            how = memo[m] = self._beats(m)
        return how

    def _is_sandstorm(self, i: Info) -> bool:
        if i.kind != GROUP:
            return False
        if i.size == 3:
            return i.rank == (D2 if self.revolution else D3)
        if i.size == 4:
            return i.rank == (DA if self.revolution else D4)
        return False

    def _next_rank(self, rank: int) -> int:
        return rank - 1 if self.reversed else rank + 1

    def _beats(self, m: int) -> str | None:
        """How ``m`` may follow the table: ``"beat"``, ``"sandstorm"``, ``"spade3"``,
        ``"reverse_lock"``, or ``None`` when it may not."""
        i = info(m)
        t = self.table_info
        assert t is not None
        f = self.flags
        if f.sandstorm and self._is_sandstorm(i):
            return "sandstorm"
        if t.kind == SINGLE and t.rank == JOKER_RANK:
            if (
                f.spade3_return
                and m == 1 << THREE_SPADES
                and not self.strict
                and (not self.lock_suits or self.lock_suits & 1)
            ):
                return "spade3"
            return None
        if i.kind != t.kind or i.size != t.size:
            return None
        if i.kind == SINGLE and i.rank == JOKER_RANK:
            return "beat"
        rev = self.reversed
        if self.lock_suits and i.suits & ~self.lock_suits:
            return None
        if self.strict:
            if i.kind == RUN:
                ok = i.high == t.rank - 1 if rev else i.rank == t.high + 1
            else:
                ok = i.rank == self._next_rank(t.rank) or (
                    i.rank == JOKER_RANK and t.rank != JOKER_RANK
                )
            return "beat" if ok else None
        if i.kind == RUN:
            if f.stair_overlap:  # ★18: by where the runs start, overlapping or not
                ok = i.rank < t.rank if rev else i.rank > t.rank
            else:  # ★17: no rank of the table's run again
                ok = i.high < t.rank if rev else i.rank > t.high
            return "beat" if ok else None
        if i.rank == JOKER_RANK:
            return "beat" if t.rank != JOKER_RANK else None
        if t.rank == JOKER_RANK:
            return None
        if (i.rank < t.rank) if rev else (i.rank > t.rank):
            return "beat"
        if (
            f.reverse_lock
            and i.jokers == 0
            and t.jokers == 0
            and i.suits == t.suits
            and i.rank == (t.rank + 1 if rev else t.rank - 1)
        ):
            return "reverse_lock"
        return None

    def action_str(self, move: Move) -> str:
        kind = move >> KSHIFT & 7
        if kind == K_PASS:
            return "pass"
        if kind == K_PLAY:
            return "play " + play_str(move)
        words = cards_words(move & REAL, move >> JSHIFT & 3)
        verb = {K_GIVE: "give", K_DISCARD: "discard", K_EXCHANGE: "exchange"}.get(kind)
        if verb is None:
            raise IllegalAction(f"not a Daifugo move: {move!r}")
        return " ".join([verb, *words])

    def parse_action(self, action: str) -> Move:
        words = action.split()
        if not words:
            raise IllegalAction("an empty action (try 'play 3D', 'pass')")
        verb = words[0].lower()
        if verb == "pass" and len(words) == 1:
            return PASS
        if verb == "play":
            if len(words) == 1:
                raise IllegalAction("'play' needs cards, e.g. 'play 3D 3H'")
            return parse_play(" ".join(words[1:]))
        kinds = {"give": GIVE, "discard": DISCARD, "exchange": EXCHANGE}
        if verb in kinds:
            real, j = parse_cards_jokers(words[1:])
            return kinds[verb] | real | j << JSHIFT
        raise IllegalAction(
            f"not a Daifugo action: {action!r} (play CARDS, pass, give CARDS, discard CARDS, "
            "exchange CARDS)"
        )

    def _illegal_reason(self, move: Move) -> str | None:
        bounds = self._choice()
        if bounds is not None:
            # a choice of cards is checked as such, not looked up among every choice (which
            # took a second for seven cards of 21: a twenty-ninth audit)
            verb, low, high = bounds
            s, real, j = self.turn, move & REAL, move >> JSHIFT & 3
            if (
                move == verb | real | j << JSHIFT
                and not real & ~self.hands[s]
                and j <= self.jok[s]
                and low <= real.bit_count() + j <= high
            ):
                return None
        elif move in self.legal_moves():
            return None
        s = self.turn
        kind = move >> KSHIFT & 7
        ph = self.phase_id
        want = {
            PH_EXCHANGE: (K_EXCHANGE, "it is the exchange: return cards with 'exchange …'"),
            PH_GIVE: (K_GIVE, "7渡し: give up to {k} {k|card|cards} with 'give …' (or 'give')"),
            PH_DISCARD: (K_DISCARD, "10捨て: discard up to {k} {k|card|cards} with 'discard …'"),
            PH_PLAY: (K_PLAY, "it is time to play cards or pass"),
        }[ph]
        if kind != want[0] and not (ph == PH_PLAY and kind == K_PASS):
            return fill(want[1], k=self.pending)
        real = move & REAL
        j = move >> JSHIFT & 3
        missing = real & ~self.hands[s]
        if missing:
            return f"you do not hold {' '.join(cards_words(missing, 0))}"
        if j > self.jok[s]:
            return fill("you hold {n} {n|joker|jokers}, not {j}", n=self.jok[s], j=j)
        if ph == PH_EXCHANGE:
            return fill("return exactly {k} {k|card|cards}", k=self.exchange_queue[0][2])
        if ph in (PH_GIVE, PH_DISCARD):
            return fill("at most {k} {k|card|cards}", k=self.pending)
        if kind == K_PASS:
            return "the leader of a round cannot pass"
        return self._why_not(move)

    def _why_not(self, m: int) -> str:
        i = info(m)
        f = self.flags
        if i.jokers and i.size > 1 and not self.wild:
            return "jokers are not wild under these rules (joker_wild: false): play a joker alone"
        if i.kind == RUN and not f.stairs:
            return "runs (stairs) are not played under these rules"
        t = self.table_info
        if t is None:
            if self.must_include >= 0:
                return f"the first play must include {card_str(self.must_include)}"
            return "it is not a play"
        sym = "".join("♠♥♦♣"[s] for s in range(4) if self.lock_suits >> s & 1)
        if t.kind == SINGLE and t.rank == JOKER_RANK:
            if f.spade3_return and m == 1 << THREE_SPADES:  # ♠3 obeys a lock
                return (
                    f"Strict lock (激縛): {sym} at the next rank only"
                    if self.strict
                    else f"Lock (縛り): {sym} only"
                )
            return "only ♠3 beats a lone joker" if f.spade3_return else "nothing beats the joker"
        if i.kind != t.kind or i.size != t.size:
            return f"the table is a {SHAPES[t.kind]} of {t.size}: play the same shape and size"
        if self.lock_suits and i.suits & ~self.lock_suits:
            if self.strict:
                return f"Strict lock (激縛): {sym} at the next rank only"
            return f"Lock (縛り): {sym} only"
        if self.strict:
            return "激縛: only the next rank may follow"
        order = []
        if self.revolution:
            order.append("革命")
        if self.eleven:
            order.append("11バック")
        how = f" ({', '.join(order)}: lower wins)" if self.reversed else ""
        return f"it must beat {play_str(self.table)}{how}"

    # ------------------------------------------------------------------ applying moves
    def _apply(self, move: Move) -> None:
        s = self.turn
        self.history.append((s, move))
        kind = move >> KSHIFT & 7
        if kind == K_PLAY:
            self._play(s, move)
        elif kind == K_PASS:
            self._pass(s)
        elif kind == K_EXCHANGE:
            self._return_cards(s, move)
        else:
            self._give_or_discard(s, move, kind)

    def _take(self, s: Seat, move: int) -> tuple[int, int]:
        real = move & REAL
        j = move >> JSHIFT & 3
        self.hands[s] &= ~real
        self.jok[s] -= j
        return real, j

    def _return_cards(self, s: Seat, move: int) -> None:
        rich, poor, _ = self.exchange_queue.pop(0)
        real, j = self._take(rich, move)
        self.hands[poor] |= real
        self.jok[poor] += j
        self.known[poor] |= real
        for idx, e in enumerate(self.exchanges):
            if e["rich"] == rich and e["returned"] is None:
                self.exchanges[idx] = {**e, "returned": cards_words(real, j)}
                break
        if self.exchange_queue:
            self.turn = self.exchange_queue[0][0]
        else:
            self._start_play()

    def _play(self, s: Seat, m: int) -> None:
        f = self.flags
        i = info(m)
        how = "lead" if self.table_info is None else self._how(m)
        storm = f.sandstorm and self._is_sandstorm(i)
        self.must_include = -1
        real = m & REAL
        j = m >> JSHIFT & 3
        self.hands[s] &= ~real
        self.jok[s] -= j
        self.round_real |= real
        self.round_jokers += j
        events: list[dict[str, Any]] = []
        if not self.quiet:
            action = _PLAY_ACTIONS.get(m)
            if action is None:
                if len(_PLAY_ACTIONS) > 50_000:
                    _PLAY_ACTIONS.clear()
                action = _PLAY_ACTIONS[m] = "play " + play_str(m)
            entry: dict[str, Any] = {"seat": s, "action": action, "why": events}
            if j and i.kind != SINGLE:  # jokers in a group or a run: say what they stand for
                entry["stands_for"] = stands_for(m)
            self.log.append(entry)
        self.table = m
        self.table_info = i
        self.table_by = s
        self.pass_run = 0
        if f.pass_rejoin:
            self.passed = 0
        self._update_lock(i, how == "reverse_lock", events)
        if storm:
            if not self.quiet:
                events.append(why("sandstorm"))
        else:
            quad = f.revolution and i.kind == GROUP and i.size >= 4
            stair = f.stair_revolution and i.kind == RUN and i.size >= 5
            if quad or stair:
                self._revolt(events, "stair_revolution" if stair and not quad else "revolution")
            if f.coup and i.kind == GROUP and i.size == 3 and i.effect == D9:
                if self.fixed:
                    if not self.quiet:
                        events.append(why("coup_fixed"))
                else:
                    self.revolution = not self.revolution
                    self.fixed = True
                    if not self.quiet:
                        events.append(why("coup"))
        eff = self._effects(i)
        if f.eleven_back and eff[DJ]:
            self.eleven = not self.eleven
            if not self.quiet:
                events.append(why("eleven_back" if self.eleven else "eleven_back_off"))
        if f.queen_reverse and eff[DQ] % 2 == 1:
            self.direction = -self.direction
            if not self.quiet:
                events.append(why("queen_reverse"))
        big7 = f.big_seven and i.kind == GROUP and i.size == 3 and i.effect == D7
        cut = f.eight_cut and eff[D8] > 0
        flush = storm or how == "spade3" or cut
        skip = 2 * eff[D5] - 1 if f.five_skip and eff[D5] else 0
        give = eff[D7] if f.seven_pass and not big7 else 0
        discard = eff[D10] if f.ten_discard else 0
        if how == "spade3" and not self.quiet:
            events.append(why("spade3"))
        out = not self.hands[s] and not self.jok[s]
        if out:
            self._go_out(s, m, events)
            if self.phase_id == PH_OVER:
                return
        if big7:
            self._big_seven(events)
        if flush:
            leader = s if self.active >> s & 1 else self._next_active(s)
            self._flush_to(leader)
            if cut and not storm and how != "spade3" and not self.quiet:
                events.append(_why1("eight_cut", "p", leader))
            return
        if out and not f.finish_stays:
            self._flush_to(self._next_active(s))
            if not self.quiet:
                events.append(_why1("finish_flush", "q", self.turn))
            return
        if out and not self.quiet:
            events.append(why("finish_stays"))
        if give or discard:
            left = self.hands[s].bit_count() + self.jok[s]
            if left:
                self.pending = min(give or discard, left)
                self.pending_play = m
                self.phase_id = PH_GIVE if give else PH_DISCARD
                if give:
                    if not self.quiet:
                        events.append(
                            why("seven_pass", p=s, q=self._next_active(s), k=self.pending)
                        )
                else:
                    if not self.quiet:
                        events.append(why("ten_discard", p=s, k=self.pending))
                return
        self._next_turn(s, skip, events)

    def _effects(self, i: Info) -> tuple[int, ...]:
        """How many times a play triggers each rank's card effect, indexed by rank (13 counts):
        a group's rank (its size), a run's highest rank, or under ``run_effects: any`` every
        rank a run spans (1 each). Jokers alone trigger nothing. (A tuple, read by index: a
        play reads up to six ranks' counts.)"""
        span = i.kind == RUN and self.flags.run_effects == "any"
        key = -1000 - (i.rank * 32 + i.high) if span else i.effect * 16 + i.n_effect
        got = _EFFECTS.get(key)
        if got is None:  # shared: read, never changed
            counts = [0] * 13
            if span:
                for d in range(i.rank, i.high + 1):
                    counts[d] = 1
            elif i.effect >= 0:
                counts[i.effect] = i.n_effect
            got = _EFFECTS[key] = tuple(counts)
        return got

    def _revolt(self, events: list[dict[str, Any]], code: str) -> None:
        if self.fixed:
            if not self.quiet:
                events.append(why("coup_fixed"))
            return
        self.revolution = not self.revolution
        if code == "revolution" and not self.revolution:
            code = "counter_revolution"
        if not self.quiet:
            events.append(why(code))

    def _update_lock(self, i: Info, reverse: bool, events: list[dict[str, Any]]) -> None:
        f = self.flags
        lone_joker = i.kind == SINGLE and i.rank == JOKER_RANK
        if lone_joker and f.joker_unlocks and self.lock_suits:
            self.lock_suits = 0
            self.strict = False
            if not self.quiet:
                events.append(why("joker_unlocks"))
        if i.jokers == 0 or i.kind == RUN:
            suits = i.suits
        elif self.lock_suits:
            suits = self.lock_suits
        elif f.joker_suit == "lowest" and not lone_joker:
            suits = i.suits
            for _ in range(i.jokers):
                free = ~suits & 15
                suits |= free & -free if free else 16
        else:
            suits = -1
        self.recent = (*self.recent[-2:], (suits, i))
        self.plays_in_round += 1
        if reverse:
            if self.lock_suits:
                if not self.quiet:
                    events.append(why("reverse_lock_locked", suits=i.suits))
                return
            self.lock_suits = i.suits
            if not self.quiet:
                events.append(why("reverse_lock", suits=i.suits))
            return
        if self.lock_suits or not (f.lock or f.strict_lock):
            return
        k = self.plays_in_round
        if f.lock_plays == "2":
            chain = self.recent[-2:] if k >= 2 else ()
        else:
            chain = self.recent[-2:] if k == 2 else self.recent[-3:] if k >= 3 else ()
        if len(chain) < 2:
            return
        same = chain[0][0]
        if same <= 0:
            return
        for c in chain:  # loops, not generators: this runs at every play of a search's playouts
            if c[0] != same:
                return
        if f.strict_lock and self._consecutive(chain):
            self.lock_suits = same
            self.strict = True
            if not self.quiet:
                events.append(why("strict_lock", suits=self.lock_suits))
        elif f.lock:
            self.lock_suits = same
            if not self.quiet:
                events.append(_why1("lock", "suits", self.lock_suits))

    def _consecutive(self, chain: tuple[tuple[int, Info], ...]) -> bool:
        """Whether each play of ``chain`` is the next rank after the one before it (a run: its
        lowest card next to the last one's highest), in the order of the moment."""
        for idx in range(1, len(chain)):
            a, b = chain[idx - 1][1], chain[idx][1]
            if b.kind == RUN:
                ok = b.rank == a.high + 1 if not self.reversed else b.high == a.rank - 1
            else:
                ok = b.rank == self._next_rank(a.rank)
            if not ok:
                return False
        return True

    def _big_seven(self, events: list[dict[str, Any]]) -> None:
        seats = self._active_in_order(self.turn)
        if len(seats) < 2:
            return
        hands = [(self.hands[s], self.jok[s]) for s in seats]
        for idx in range(len(seats)):
            to = seats[(idx + 1) % len(seats)]
            self.hands[to], self.jok[to] = hands[idx]
            self.known[to] |= hands[idx][0]
        if not self.quiet:
            events.append(why("big_seven"))

    def _give_or_discard(self, s: Seat, move: int, kind: int) -> None:
        real, j = self._take(s, move)
        self.phase_id = PH_PLAY
        self.pending = 0
        events: list[dict[str, Any]] = []
        if kind == K_GIVE:
            to = self._next_active(s)
            self.hands[to] |= real
            self.jok[to] += j
            self.known[to] |= real
            if not self.quiet:
                self.log.append(
                    {
                        "seat": s,
                        "action": "give",
                        "to": to,
                        "count": real.bit_count() + j,
                        "cards": cards_words(real, j),
                        "private": [s, to],
                        "why": events,
                    }
                )
        else:
            self.trash_real |= real
            self.trash_jokers += j
            if not self.quiet:
                self.log.append(
                    {
                        "seat": s,
                        "action": "discard " + " ".join(cards_words(real, j)),
                        "why": events,
                    }
                )
                self.log[-1]["action"] = self.log[-1]["action"].strip()
        if not self.hands[s] and not self.jok[s]:
            self._go_out(s, self.pending_play, events, by_play=False)
            if self.phase_id == PH_OVER:
                return
            if not self.flags.finish_stays:
                self._flush_to(self._next_active(s))
                if not self.quiet:
                    events.append(_why1("finish_flush", "q", self.turn))
                return
        self._next_turn(s, 0, events)

    def _pass(self, s: Seat) -> None:
        f = self.flags
        self.passed |= 1 << s
        self.must_include = -1  # a first leader who passes loses the duty (lead_pass)
        events: list[dict[str, Any]] = []
        if not self.quiet:
            self.log.append({"seat": s, "action": "pass", "why": events})
        self.pass_run += 1
        if f.stalemate_passes and self.pass_run >= f.stalemate_passes:
            rest = self._active_in_order(s)
            # drawn from the seed and the step (a game keeps no generator after its deal, and
            # a fixed deal draws none), so that a record replays to the same places
            random.Random(f"{self.seed}/stalemate/{len(self.history)}").shuffle(rest)
            if not self.quiet:
                events.append(why("stalemate", k=self.pass_run))
            fallen = [self.fallen] if self.fallen >= 0 else []
            self._end(self.finished + rest + fallen + self.fouls)
            return
        c = self._next_eligible(s)
        if f.flush_when == "everyone":
            flush = c < 0 or not self.active & ~self.passed
        else:
            flush = (
                c < 0
                or c == self.table_by
                or bool(f.pass_rejoin and self.passed >> c & 1)
                or (f.flush_when == "one_left" and self._one_left())
            )
        if flush:
            self._flush_round(events)
        else:
            self.turn = c

    def _one_left(self) -> bool:
        """``flush_when: one_left``: at most one player still in has not passed."""
        left: int = (self.active & ~self.passed).bit_count()
        return left <= 1

    def _flush_round(self, events: list[dict[str, Any]], say: bool = True) -> None:
        """Flush the table; the last player to play (or to lead) leads, or the next one in."""
        last = self.table_by
        leader = last if self.active >> last & 1 else self._next_active(last)
        self._flush_to(leader)
        if say and not self.quiet:
            events.append(_why1("flush", "p", leader))

    def _flush_to(self, leader: Seat) -> None:
        """Flush the table and give the lead to ``leader``."""
        self._flush()
        self.turn = leader
        self.table_by = leader

    def _flush(self) -> None:
        self.pile_real |= self.round_real
        self.pile_jokers += self.round_jokers
        self.round_real = 0
        self.round_jokers = 0
        self.table = 0
        self.table_info = None
        self.eleven = False
        self.lock_suits = 0
        self.strict = False
        self.recent = ()
        self.plays_in_round = 0
        self.passed = 0

    # ------------------------------------------------------------------ turn order
    def _active_in_order(self, start: Seat) -> list[Seat]:
        """Active seats in the direction of play, beginning with ``start``."""
        active = self.active
        return [x for x in (start, *self._after[self.direction][start]) if active >> x & 1]

    def _next_active(self, s: Seat) -> Seat:
        active = self.active
        for x in self._after[self.direction][s]:
            if active >> x & 1:
                return x
        return s

    def _eligible_after(self, s: Seat) -> list[Seat]:
        ok = self.active if self.flags.pass_rejoin else self.active & ~self.passed
        return [x for x in self._after[self.direction][s] if ok >> x & 1]

    def _next_eligible(self, s: Seat) -> Seat:
        ok = self.active if self.flags.pass_rejoin else self.active & ~self.passed
        for x in self._after[self.direction][s]:
            if ok >> x & 1:
                return x
        return -1

    def _next_turn(self, s: Seat, skip: int, events: list[dict[str, Any]]) -> None:
        if self.flags.flush_when == "one_left" and self._one_left():
            self._flush_round(events)
            return
        if not skip:  # the first eligible seat after s other than the table's player
            ok = self.active if self.flags.pass_rejoin else self.active & ~self.passed
            by = self.table_by
            for x in self._after[self.direction][s]:
                if ok >> x & 1 and x != by:
                    self.turn = x
                    return
        after = [x for x in self._eligible_after(s) if x != self.table_by]
        if skip:
            if skip >= len(after):
                if not self.quiet:
                    events.append(why("five_skip_back"))
                self._flush_round(events, say=False)
                return
            if not self.quiet:
                events.append(why("five_skip", k=skip))
            after = after[skip:]
        if not after:
            if self.flags.flush_when == "everyone" and self.active >> self.table_by & 1:
                self.turn = self.table_by  # back to the table's player, who may play on
                return
            self._flush_round(events)
            return
        self.turn = after[0]

    # ------------------------------------------------------------------ going out
    def _foul(self, s: Seat, m: int, by_play: bool) -> str | None:
        bad = self.rules["forbidden_finish"]
        if not bad:
            return None
        i = info(m)
        if by_play:
            if "2" in bad and i.real & TWOS:
                return "2"
            if "JK" in bad and i.jokers:
                return "JK"
            if "KH" in bad and i.real >> KING_HEARTS & 1:
                return "KH"
        if "8JK" in bad and i.jokers:
            f = self.flags
            eff = self._effects(i)
            if by_play and f.eight_cut and eff[D8]:
                return "8 + JK"
            if not by_play and (eff[D7] or eff[D10]):
                return f"{'7' if eff[D7] else 'T'} + JK"
        return None

    def foul_finishes(self) -> dict[str, str]:
        """The plays of the seat to play that would take it out on a forbidden finish
        (反則上がり, option ``forbidden_finish``): each play's action with the card that makes
        it one — what a front end warns of before the play is made. Empty outside the play
        phase, and where no play would empty the hand.

        >>> import torampu
        >>> g = torampu.new_game("daifugo", players=4, seed=3)
        >>> g.foul_finishes()  # (thirteen cards: no play empties the hand)
        {}
        """
        if self.phase_id != PH_PLAY or not self.rules["forbidden_finish"]:
            return {}
        s = self.turn
        size = self.hands[s].bit_count() + self.jok[s]
        out: dict[str, str] = {}
        for m in self._plays_now(s):
            if m != PASS and info(m).size == size:
                card = self._foul(s, m, True)
                if card is not None:
                    out[self.action_str(m)] = card
        return out

    def _go_out(self, s: Seat, m: int, events: list[dict[str, Any]], by_play: bool = True) -> None:
        self.active &= ~(1 << s)
        foul = self._foul(s, m, by_play)
        if foul is not None:
            self.fouls.append(s)
            if not self.quiet:
                events.append(why("foul", card=foul))
        else:
            self.finished.append(s)
            if not self.quiet:
                events.append(_why1("out", "p", s))
            titles = self.titles
            if titles is not None and len(self.finished) == 1:
                if self.rules["great_revolution"] and titles[s] == self.n - 1:
                    self.great = True
                    if not self.quiet:
                        events.append(why("great_revolution"))
                    order = sorted(range(self.n), key=lambda x: titles[x])
                    self._end(list(reversed(order)))
                    return
                old = titles.index(0)
                if self.rules["miyako_ochi"] and s != old and self.active >> old & 1:
                    self.fallen = old
                    self.active &= ~(1 << old)
                    self.trash_real |= self.hands[old]
                    self.trash_jokers += self.jok[old]
                    self.hands[old] = 0
                    self.jok[old] = 0
                    if not self.quiet:
                        events.append(why("miyako_ochi", p=old, q=s))
        if self.active.bit_count() <= 1:
            rest = _seats(self.active)
            fallen = [self.fallen] if self.fallen >= 0 else []
            self._end(self.finished + rest + fallen + self.fouls)

    def _end(self, ranking: list[Seat]) -> None:
        self.ranking = ranking
        self.phase_id = PH_OVER
        self.turn = -1

    # ------------------------------------------------------------------ results and views
    def result(self) -> dict[str, Any]:
        n = self.n
        over = self.phase_id == PH_OVER
        names = title_names(n)
        pts = points_for(self.rules, n)
        scores = [0] * n
        titles: list[str | None] = [None] * n
        if over:
            for pos, s in enumerate(self.ranking):
                scores[s] = pts[pos]
                titles[s] = names[pos]
        return {
            "scores": scores,
            "winners": [self.ranking[0]] if over else [],
            "ranking": list(self.ranking),
            "titles": titles,
            "titles_ja": [TITLES_JA[t] if t else None for t in titles],
            "fouls": list(self.fouls),
            "fallen": self.fallen if self.fallen >= 0 else None,
            "great_revolution": self.great,
        }

    def positions(self) -> list[int]:
        """Each seat's finishing position (0 = 大富豪) once the game is over."""
        pos = [0] * self.n
        for p, s in enumerate(self.ranking):
            pos[s] = p
        return pos

    def view(self, seat: Seat | None) -> dict[str, Any]:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n
        ):
            raise ValueError(f"seat must be 0..{self.n - 1} or None, not {seat!r}")
        n = self.n
        names = title_names(n)
        mine = seat is not None and seat == self.to_play
        choose = self.choose() if mine else None
        table = None
        if self.table_info is not None:
            i = self.table_info
            table = {
                "by": self.table_by,
                "cards": play_str(self.table).split(),
                "stands_for": stands_for(self.table),
                "shape": SHAPES[i.kind],
                "size": i.size,
            }
        v: dict[str, Any] = {
            "game": self.name,
            "rules": dict(self.rules),
            "players": n,
            "seat": seat,
            "phase": self.phase,
            "to_play": self.to_play,
            "hand": cards_words(self.hands[seat], self.jok[seat]) if seat is not None else None,
            "hand_sizes": [self.hands[s].bit_count() + self.jok[s] for s in range(n)],
            "titles": None if self.titles is None else [names[self.titles[s]] for s in range(n)],
            "defense": self.defense,
            "exchange": self._exchange_view(seat),
            "tenpen": self.tenpen,
            "table": table,
            "last_player": self.table_by if self.table_info is not None else None,
            "passed": _seats(self.passed),
            "direction": self.direction,
            "seating": list(self.seating),
            "revolution": self.revolution,
            "coup": self.fixed,
            "eleven_back": self.eleven,
            "reversed": self.reversed,
            "lock": None
            if not self.lock_suits
            else {
                "suits": ["SHDC"[s] for s in range(4) if self.lock_suits >> s & 1],
                "strict": self.strict,
            },
            "out": [*self.finished, *([self.fallen] if self.fallen >= 0 else []), *self.fouls],
            "finished": list(self.finished),
            "fouls": list(self.fouls),
            "fallen": self.fallen if self.fallen >= 0 else None,
            "discarded": cards_words(self.trash_real, self.trash_jokers),
            "pending": self.pending if seat == self.turn and self.pending else 0,
            "log": [self._log_entry(e, seat) for e in self.log],
            "choose": choose,
            "legal_actions": self.legal_actions() if mine and listed(choose) else [],
            "foul_finishes": self.foul_finishes() if mine and self.phase_id == PH_PLAY else {},
        }
        if self.phase_id == PH_OVER:
            v["result"] = self.result()
        return v

    def _exchange_view(self, seat: Seat | None) -> list[dict[str, Any]]:
        out = []
        for e in self.exchanges:
            row = {"rich": e["rich"], "poor": e["poor"], "count": e["count"]}
            if seat in (e["rich"], e["poor"]):
                row["given"] = e["given"]
                row["returned"] = e["returned"]
            out.append(row)
        return out

    @staticmethod
    def _log_entry(e: Mapping[str, Any], seat: Seat | None) -> dict[str, Any]:
        private = e.get("private")
        if private is None:
            return dict(e)
        out = {k: v for k, v in e.items() if k not in ("private", "cards")}
        if seat in private:
            out["cards"] = e["cards"]
        return out

    def hidden_from(self, seat: Seat | None) -> int:
        out = self.set_aside
        for s, h in enumerate(self.hands):
            if s != seat:
                out |= h
        if seat is not None:
            out &= ~self.known[seat]
        return out & ~self.public

    def _deal_record(self) -> dict[str, Any]:
        hands, jok = self.initial
        return {"hands": [cards_words(h, j) for h, j in zip(hands, jok, strict=True)]}

    def _record_extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"titles": self.titles, "defense": self.defense}
        if self.seating != tuple(range(self.n)):
            extra["seating"] = list(self.seating)
        return extra

    def cards_accounted(self) -> tuple[int, int]:
        """(real cards, jokers) in hands, on the table, flushed, discarded and set aside: the
        whole deck, whatever happened (a check for tests)."""
        real = self.set_aside | self.round_real | self.pile_real | self.trash_real
        jokers = self.round_jokers + self.pile_jokers + self.trash_jokers + self.set_aside_jokers
        for h, j in zip(self.hands, self.jok, strict=True):
            real |= h
            jokers += j
        return real, jokers

    def clone(self) -> Daifugo:
        """An independent copy (for search): every attribute, the lists of ``_copied``
        copied. Written out, so that the compiled class copies its fields natively; a test
        checks that it names every attribute a game has."""
        g = Daifugo()
        g.rules = self.rules
        g.flags = self.flags
        g.n = self.n
        g.seed = self.seed
        g.dealer = self.dealer
        g.history = list(self.history)
        g.seating = self.seating
        g.pos = self.pos
        g._after = self._after
        g.titles = self.titles
        g.defense = self.defense
        g.njokers = self.njokers
        g.wild = self.wild
        g._rules_key = self._rules_key
        g.hands = list(self.hands)
        g.jok = list(self.jok)
        g.initial = self.initial
        g.set_aside = self.set_aside
        g.set_aside_jokers = self.set_aside_jokers
        g.known = list(self.known)
        g.public = self.public
        g.active = self.active
        g.finished = list(self.finished)
        g.fouls = list(self.fouls)
        g.fallen = self.fallen
        g.ranking = list(self.ranking)
        g.great = self.great
        g.revolution = self.revolution
        g.fixed = self.fixed
        g.eleven = self.eleven
        g.direction = self.direction
        g.table = self.table
        g.table_info = self.table_info
        g.table_by = self.table_by
        g.round_real = self.round_real
        g.round_jokers = self.round_jokers
        g.pile_real = self.pile_real
        g.pile_jokers = self.pile_jokers
        g.trash_real = self.trash_real
        g.trash_jokers = self.trash_jokers
        g.recent = self.recent
        g.plays_in_round = self.plays_in_round
        g.lock_suits = self.lock_suits
        g.strict = self.strict
        g.passed = self.passed
        g.pass_run = self.pass_run
        g.pending = self.pending
        g.pending_play = self.pending_play
        g.must_include = self.must_include
        g.log = list(self.log)
        g.quiet = self.quiet
        g._memos = self._memos
        g._memos_table = self._memos_table
        g._memos_order = self._memos_order
        g.exchanges = list(self.exchanges)
        g.exchange_queue = list(self.exchange_queue)
        g.tenpen = self.tenpen
        g.phase_id = self.phase_id
        g.turn = self.turn
        return g

    def playout(self, rng: random.Random) -> None:
        """Play to the end with uniformly random legal moves (fast path)."""
        rand = rng.random
        while self.phase_id != PH_OVER:
            # in the play phase, the memoized tuple itself (legal_moves() returns a copy)
            moves = self._plays_now(self.turn) if self.phase_id == PH_PLAY else self.legal_moves()
            self._apply(moves[int(rand() * len(moves))])

    _copied = (
        "history",
        "hands",
        "jok",
        "known",
        "finished",
        "fouls",
        "log",
        "exchanges",
        "exchange_queue",
        "ranking",
    )


class DaifugoMatch(Match):
    """Games of Daifugo with titles carried over: exchange, 都落ち, 防衛, 大革命 follow.

    ``seat_change: N`` draws a new seating (the order of play round the table) from the match's
    generator before games 1, N+1, 2N+1, …; ``rank_reset: N`` starts games N+1, 2N+1, … afresh
    (no titles, no exchange, a dealer drawn at random), as UECda's server does.

    ``duplicate: K`` (a match argument, not a rule; 1 = off) plays each deal K times, the dealer
    one seat further round the table each time: the same shuffled deck, so every hand moves one
    seat on and, over K = players games, each player holds each hand once (duplicate deals, as
    in bridge: the luck of the cards cancels out of the totals). It needs every game fresh
    (``rank_reset: 1``: with titles the deal starts from the 大富豪 and the exchange changes the
    hands), the seating kept through each deal (``seat_change`` 0 or a multiple of K) and a
    whole number of deals (``games`` a multiple of K).

    >>> import torampu
    >>> m = torampu.new_match("daifugo", {"preset": "uecda", "rank_reset": 1, "seat_change": 0},
    ...                       games=10, seed=3, duplicate=5)
    >>> first = m.game.hands[0]
    >>> while m.games_played < 1:
    ...     m.play(m.legal_actions()[0])
    >>> m.game.hands[1] == first and m.game.seed == m.records[0]["seed"]
    True
    """

    default_games = 10

    def __init__(
        self,
        name: str,
        factory: Any,
        rules: Rules,
        games: int | None,
        seed: int,
        dealer: Seat = 0,
        duplicate: object = 1,  # object, not int: compiled, an int parameter takes True as 1
        seeding: object = "stream",  # (object: compiled, a str parameter took 5 with a TypeError)
    ) -> None:
        n = rules["players"]
        if isinstance(duplicate, bool) or not isinstance(duplicate, int) or not 1 <= duplicate <= n:
            raise ValueError(
                f"duplicate must be a whole number from 1 (off) to {n} (the players), "
                f"not {duplicate!r}"
            )
        if duplicate > 1:
            total = self.default_games if games is None else games
            if rules["rank_reset"] != 1:
                raise ValueError(
                    "duplicate deals need every game fresh (rank_reset 1), not rank_reset "
                    f"{rules['rank_reset']}: with titles the exchange changes the hands"
                )
            if rules["seat_change"] % duplicate:
                raise ValueError(
                    f"duplicate {duplicate} needs the seating kept through each deal: "
                    f"seat_change 0 or a multiple of {duplicate}, not {rules['seat_change']}"
                )
            if isinstance(total, int) and total % duplicate:
                raise ValueError(
                    f"duplicate {duplicate} needs whole deals: games a multiple of {duplicate}, "
                    f"not {total}"
                )
        self.duplicate = duplicate
        super().__init__(name, factory, rules, games, seed, dealer, seeding)

    def _repeat(self) -> bool:
        """Whether the next game (the first, when there is none yet) repeats the last one's
        deal (``duplicate``)."""
        return len(self.records) % self.duplicate != 0

    def _next_seed(self) -> int:
        if self._repeat():  # the same deck as the game that just ended
            return self.game.seed
        return super()._next_seed()

    def _fresh(self, game_no: int) -> bool:
        """Whether game ``game_no`` (1-based) starts without titles (``rank_reset``)."""
        every = self.rules["rank_reset"]
        return game_no == 1 or (every > 0 and (game_no - 1) % every == 0)

    def _seating(self, game_no: int, current: Sequence[int]) -> dict[str, Any]:
        every = self.rules["seat_change"]
        if every > 0 and (game_no - 1) % every == 0:
            seating = list(range(self.n))
            self.rng.shuffle(seating)
        else:
            seating = list(current)
        return {} if seating == list(range(self.n)) else {"seating": seating}

    def _first_kwargs(self) -> dict[str, Any]:
        return self._seating(1, range(self.n))

    def _next_kwargs(self, finished: Game) -> dict[str, Any]:
        assert isinstance(finished, Daifugo)
        game_no = len(self.records) + 1
        seats = self._seating(game_no, finished.seating)
        if self._fresh(game_no):
            return seats
        pos = finished.positions()
        defense = 0
        if finished.titles is not None and finished.titles.index(0) == finished.ranking[0]:
            defense = finished.defense + 1
        return {"titles": pos, "defense": defense, **seats}

    def _next_dealer(self, finished: Game) -> Seat:
        if self._repeat():  # one seat on round the table (a seating kept through the deal)
            assert isinstance(finished, Daifugo)
            order = finished.seating
            return order[(order.index(finished.dealer) + 1) % self.n]
        if self._fresh(len(self.records) + 1):
            return self.rng.randrange(self.n)
        return finished.dealer

    def to_record(self) -> dict[str, Any]:
        rec = super().to_record()
        if self.duplicate > 1:
            rec["duplicate"] = self.duplicate
        return rec

    def standings(self) -> dict[str, Any]:
        st = super().standings()
        names = title_names(self.n)
        rows = []
        for rec in self.records:
            res = rec["result"]
            rows.append(
                {
                    "ranking": res["ranking"],
                    "titles": res["titles"],
                    "scores": res["scores"],
                    "fouls": res["fouls"],
                    "fallen": res["fallen"],
                    "great_revolution": res["great_revolution"],
                }
            )
        last = self.records[-1]["result"]["titles"] if self.records else [None] * self.n
        st["titles"] = last
        st["titles_ja"] = [TITLES_JA[t] if t else None for t in last]
        st["title_names"] = names
        st["points"] = points_for(self.rules, self.n)
        st["games_detail"] = rows
        return st
