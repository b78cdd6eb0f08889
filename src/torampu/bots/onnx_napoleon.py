"""The ``onnx-napoleon`` bot: eletim/napoleon-web's learned card player, as an outside opponent.

napoleon-web (a TypeScript Napoleon with PyTorch-trained play policies exported to ONNX) plays
the cards with an MLP that reads a 6246-number encoding of the seat's view and returns 53 card
logits; its auction, adjutant call and exchange come from a small rule-based agent. This module
re-implements both from the behaviour of their code (their repository has no licence: nothing
of it is copied or shipped here):

* :func:`encode_play` — ``view(seat)`` of a torampu game under the ``napoleon-web`` preset, as
  the model's input, number for number what their ``packages/ai-observation`` encoder gives for
  the same position (checked against vectors their encoder produced,
  ``tests/fixtures/napoleon_web_encoder.json``);
* the card play: illegal cards masked, the first highest logit (their ``selectLegalPolicyAction``);
* :func:`rule_bid`, :func:`rule_adjutant`, :func:`rule_discard` — their rule-based agent's
  auction (bid the cheapest count of the best suit while the hand's score allows), call (the
  strongest card of a fixed order the Napoleon lacks) and exchange (keep the highest total
  score; ties drawn at random, as theirs).

The model is loaded from a path the user gives (``onnx-napoleon:model=PATH``), with
``onnxruntime`` (the ``onnx`` extra: ``pip install 'torampu[onnx]'``). The web server does not
seat this bot: a client could name any file.

>>> len(CARD_IDS), CARD_IDS[:3], CARD_IDS[-1], FEATURES
(53, ['AS', 'KS', 'QS'], 'JK', 6246)
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from torampu.bots.base import Bot, BotError, View, register

# ------------------------------------------------------------------------------------ layout
_RANKS: Final = "AKQJT98765432"
CARD_IDS: Final = [r + s for s in "SHDC" for r in _RANKS] + ["JK"]
"""Their card order: suits ♠ ♥ ♦ ♣, ranks A K Q … 2, then the joker."""
CARD_INDEX: Final = {c: i for i, c in enumerate(CARD_IDS)}
SUITS: Final = "SHDC"
"""Their suit order for the trump and the bids."""
PLAYERS: Final = 5
TRICKS: Final = 10
PER_TRICK: Final = 5
MIN_BID: Final = 13
MAX_BID: Final = 19
BID_CLASSES: Final = MAX_BID - MIN_BID + 1
MAX_AUCTION: Final = PLAYERS + BID_CLASSES * 4 * (PLAYERS - 1)
"""117: the longest possible auction (each bid raised, four passes between)."""
ROLES: Final = ("napoleon", "adjutant", "alliance", "napoleon-solo")
FLAT: Final = 684
FEATURES: Final = 6246
HONOR_RANKS: Final = "AKQJT"
_URA: Final = {"S": "C", "C": "S", "H": "D", "D": "H"}


def _onehot(out: list[float], index: int, classes: int) -> None:
    """``classes`` numbers, 1 at ``index`` (none for an empty slot: an index out of range)."""
    base = len(out)
    out.extend([0.0] * classes)
    if 0 <= index < classes:
        out[base + index] = 1.0


def _mask(cards: Sequence[str]) -> list[float]:
    m = [0.0] * len(CARD_IDS)
    for c in cards:
        m[CARD_INDEX[c]] = 1.0
    return m


def check_rules(rules: Mapping[str, Any]) -> None:
    """:class:`BotError` unless the rules deal the game the model was trained on: 5 players,
    53 cards (10 each, a 3-card widow), suit bids 13..19."""
    wrong = []
    if rules.get("players") != PLAYERS:
        wrong.append("players 5")
    if rules.get("jokers") != 1 or rules.get("removed_cards"):
        wrong.append("53 cards (jokers 1, no removed_cards)")
    if rules.get("no_trump"):
        wrong.append("no no-trump bids")
    if rules.get("min_bid", 0) < MIN_BID or rules.get("max_bid", 20) > MAX_BID:
        wrong.append("bids 13..19 (min_bid 13, max_bid 19)")
    if wrong:
        raise BotError(
            "the onnx-napoleon bot plays napoleon-web's game: use --rules napoleon-web "
            f"(these rules need {', '.join(wrong)})"
        )


def _auction(view: View, seat: int) -> tuple[list[float], list[int], list[int], list[int]]:
    """The bidding history: per entry (action mask, type 0 pass / 1 bid, relative player, suit
    index, count); empty slots -1 (count 0)."""
    mask = [0.0] * MAX_AUCTION
    kinds = [-1] * MAX_AUCTION
    who = [-1] * MAX_AUCTION
    suits = [-1] * MAX_AUCTION
    counts = [0] * MAX_AUCTION
    for i, entry in enumerate(view["auction"]):
        mask[i] = 1.0
        who[i] = (entry["seat"] - seat) % PLAYERS
        action = entry["action"]
        if action == "pass":
            kinds[i] = 0
        else:
            bid = action.split()[1]
            kinds[i] = 1
            suits[i] = SUITS.index(bid[-1])
            counts[i] = int(bid[:-1])
    return mask, kinds, who, [*suits, *counts]


def encode_play(view: View) -> list[float]:
    """The model input for ``view`` (a seat's view in the play phase, the seat to play).

    Their ``encodePlayingObservation`` then ``createPlayingModelInput``: 684 flat features
    (masks and counts) then the one-hot fields (special cards, trick cards and players, trick
    winners, the bidding history) and the seat's role. Players are relative: 0 is the seat
    itself, then the following seats in the direction of play.
    """
    seat = view["seat"]
    if not isinstance(seat, int) or view.get("phase") != "play":
        raise BotError("encode_play needs the view of a seat in the play phase")
    check_rules(view["rules"])
    nap = view["napoleon"]
    trump = view["trump"]
    adj_card = view["adjutant_card"]

    def rel(s: int) -> int:
        return (s - seat) % PLAYERS

    tricks = view["tricks"]
    current = view["trick"]
    played = [(e["seat"], e["card"]) for t in tricks for e in t["cards"]]
    played += [(e["seat"], e["card"]) for e in current]
    # the adjutant is public once a seat other than the Napoleon plays the called card
    revealed = next((s for s, c in played if c == adj_card and s != nap), None)
    if seat == nap:
        role = "napoleon-solo" if view.get("alone") else "napoleon"
    elif view.get("adjutant") == seat:
        role = "adjutant"
    else:
        role = "alliance"
    # honors the Napoleon discarded are its captured cards (theirs: awardedPointCards)
    discarded = [c for c in view.get("discards") or [] if c[0] in HONOR_RANKS]
    captured = [list(h) for h in view["honors_taken"]]
    captured[nap] += discarded
    legal = [a.split()[1] for a in view["legal_actions"] if a.startswith("play ")]
    first_lead = not tricks and not current  # their buried-cards event lasts until a card is
    # played (runAutomatedGame clears it before every action)

    out: list[float] = []
    _onehot(out, SUITS.index(trump), 4)
    _onehot(out, rel(nap), PLAYERS)
    _onehot(out, PLAYERS if revealed is None else rel(revealed), PLAYERS + 1)
    out += _mask([adj_card] if adj_card else [])
    out += _mask(view["hand"])
    out += _mask(legal)
    sizes = view["hand_sizes"]
    out += [float(sizes[(seat + k) % PLAYERS]) for k in range(PLAYERS)]
    for k in range(PLAYERS):
        out += _mask(captured[(seat + k) % PLAYERS])
    out += [1.0 if i < len(current) else 0.0 for i in range(PER_TRICK)]
    out += [1.0 if i < len(tricks) * PER_TRICK else 0.0 for i in range(TRICKS * PER_TRICK)]
    out += [1.0 if i < len(tricks) else 0.0 for i in range(TRICKS)]
    a_mask, a_kind, a_who, a_rest = _auction(view, seat)
    out += a_mask
    out += _mask(discarded if first_lead else [])
    out += [
        float(len(tricks) + 1),
        float(len(tricks)),
        float(int(view["contract"][:-1])),
        float(3 - len(discarded)) if first_lead else 0.0,
        1.0 if first_lead else 0.0,
    ]
    assert len(out) == FLAT
    for c in ("AS", "QH", "J" + trump, "J" + _URA[trump]):
        _onehot(out, CARD_INDEX[c], len(CARD_IDS))
    for i in range(PER_TRICK):
        _onehot(out, CARD_INDEX[current[i]["card"]] if i < len(current) else -1, len(CARD_IDS))
    slots = [e for t in tricks for e in t["cards"]]
    for i in range(TRICKS * PER_TRICK):
        _onehot(out, CARD_INDEX[slots[i]["card"]] if i < len(slots) else -1, len(CARD_IDS))
    for i in range(PER_TRICK):
        _onehot(out, rel(current[i]["seat"]) if i < len(current) else -1, PLAYERS)
    for i in range(TRICKS * PER_TRICK):
        _onehot(out, rel(slots[i]["seat"]) if i < len(slots) else -1, PLAYERS)
    for i in range(TRICKS):
        _onehot(out, rel(tricks[i]["winner"]) if i < len(tricks) else -1, PLAYERS)
    for k in a_kind:
        _onehot(out, k, 2)
    for w in a_who:
        _onehot(out, w, PLAYERS)
    for s in a_rest[:MAX_AUCTION]:
        _onehot(out, s, 4)
    for count in a_rest[MAX_AUCTION:]:
        _onehot(out, count - MIN_BID if count else -1, BID_CLASSES)
    _onehot(out, ROLES.index(role), len(ROLES))
    assert len(out) == FEATURES
    return out


# ------------------------------------------------------------------------------------ rule-based
_AI_RANK: Final = {"A": 20, "K": 13, "Q": 12, "J": 11, "T": 10, "2": 12}
"""Their card values for the contract decisions (the 2 counts as a Q: same-two)."""


def _rank_value(card: str) -> int:
    return _AI_RANK.get(card[0]) or int(card[0])


def card_value(card: str, trump: str) -> int:
    """Their score of a card for a trump: joker 20, Mighty 60, 正J 55, 裏J 50, ♥Q 45 as a
    trump or 30, else the rank's value (+30 for a trump)."""
    if card == "JK":
        return 20
    if card == "AS":
        return 60
    if card == "J" + trump:
        return 55
    if card == "J" + _URA[trump]:
        return 50
    if card == "QH":
        return 45 if trump == "H" else 30
    return _rank_value(card) + (30 if card[1] == trump else 0)


def rule_bid(hand: Sequence[str], high_bid: str | None, legal: Sequence[str]) -> str:
    """Their auction: the best suit (♠ ♥ ♦ ♣, the first of equal scores); no bid below a score
    of 200, else up to ``13 + (score - 200) // 30`` honors; bid one more than the highest count
    so far (13 to open) in that suit when legal, else pass."""
    best = max(SUITS, key=lambda t: (sum(card_value(c, t) for c in hand), -SUITS.index(t)))
    score = sum(card_value(c, best) for c in hand)
    if score < 200:
        return "pass"
    limit = min(20, MIN_BID + (score - 200) // 30)
    need = MIN_BID if high_bid is None else int(high_bid[:-1]) + 1
    action = f"bid {need}{best}"
    return action if need <= limit and action in legal else "pass"


def rule_adjutant(hand: Sequence[str], trump: str, legal: Sequence[str]) -> str | None:
    """Their call: among Mighty, 正J, 裏J and the trumps not in hand (never ♥Q), the highest of
    Mighty 60, 正J 55, 裏J 50.5 + the trumps held, a trump 30 + its rank value; ties to Mighty,
    正J, 裏J, then the higher rank, then the card name. ``None`` if there is no candidate."""
    held = set(hand)
    trumps = sum(1 for c in hand if c != "JK" and c[1] == trump)
    sei, ura = "J" + trump, "J" + _URA[trump]
    best: tuple[float, int, int, str] | None = None
    for c in CARD_IDS[:-1]:
        if c in held or c == "QH" or "adjutant " + c not in legal:
            continue
        if c not in ("AS", sei, ura) and c[1] != trump:
            continue
        if c == "AS":
            value, prio = 60.0, 4
        elif c == sei:
            value, prio = 55.0, 3
        elif c == ura:
            value, prio = 50.5 + trumps, 2
        else:
            value, prio = 30.0 + _rank_value(c), 1
        key = (value, prio, _rank_value(c), _their_id(c))
        if best is None or _better(key, best):
            best = key
    if best is None:
        return None
    return "adjutant " + next(c for c in CARD_IDS if _their_id(c) == best[3])


def _their_id(card: str) -> str:
    """Their card id (``spades-10``), for their last tie-break (name order)."""
    if card == "JK":
        return "joker"
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[card[1]]
    return f"{suit}-{'10' if card[0] == 'T' else card[0]}"


def _name_key(name: str) -> tuple[int, str]:
    # localeCompare on these ids: digits sort before letters, then case-insensitive order
    return (0 if name[-1].isdigit() else 1, name.lower())


def _better(a: tuple[float, int, int, str], b: tuple[float, int, int, str]) -> bool:
    if abs(a[0] - b[0]) >= 1e-9:
        return a[0] > b[0]
    if a[1] != b[1]:
        return a[1] > b[1]
    if a[2] != b[2]:
        return a[2] > b[2]
    return _name_key(a[3]) < _name_key(b[3])


def rule_discard(hand: Sequence[str], trump: str, k: int, rng: random.Random) -> list[str]:
    """Their exchange: keep the cards of the highest total score, i.e. discard ``k`` cards of
    the lowest scores; among equally good choices one at random (as theirs)."""
    ranked = sorted(hand, key=lambda c: card_value(c, trump))
    edge = card_value(ranked[k - 1], trump)
    sure = [c for c in ranked if card_value(c, trump) < edge]
    tied = [c for c in ranked if card_value(c, trump) == edge]
    return sure + rng.sample(tied, k - len(sure))


# ------------------------------------------------------------------------------------ the model
_SESSIONS: dict[str, Any] = {}


def load_policy(path: str) -> Any:
    """An onnxruntime session of the model at ``path`` (one input of 6246 numbers, one output
    of 53 logits), cached per path; :class:`BotError` naming the problem otherwise."""
    session = _SESSIONS.get(path)
    if session is not None:
        return session
    try:
        ort: Any = importlib.import_module("onnxruntime")
    except ImportError:
        raise BotError(
            "the onnx-napoleon bot needs onnxruntime: pip install 'torampu[onnx]'"
        ) from None
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # one decision at a time; leave the cores to the others
    options.inter_op_num_threads = 1
    try:
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own types for a missing or bad file
        raise BotError(f"cannot load the ONNX model {path!r}: {e}") from None
    inputs, outputs = session.get_inputs(), session.get_outputs()
    if len(inputs) != 1 or inputs[0].shape[-1] != FEATURES or outputs[0].shape[-1] != 53:
        raise BotError(
            f"the ONNX model {path!r} does not take {FEATURES} inputs and give 53 card logits"
        )
    _SESSIONS[path] = session
    return session


def best_legal(logits: Sequence[float], legal_cards: Sequence[str]) -> str:
    """The legal card of the highest logit, the first of equals (their order)."""
    best = ""
    top = float("-inf")
    for c in sorted(legal_cards, key=CARD_INDEX.__getitem__):
        v = float(logits[CARD_INDEX[c]])
        if not best or v > top:
            best, top = c, v
    return best


class OnnxNapoleonBot:
    """napoleon-web's player: the model plays the cards, their rules bid, call and exchange."""

    name = "onnx-napoleon"

    def __init__(self, model: str, seed: int = 0) -> None:
        self.session = load_policy(model)
        self.input_name: str = self.session.get_inputs()[0].name
        self.rng = random.Random(seed)

    def logits(self, view: View) -> list[float]:
        np: Any = importlib.import_module("numpy")
        x = np.asarray([encode_play(view)], dtype=np.float32)
        out = self.session.run(None, {self.input_name: x})[0][0]
        return [float(v) for v in out]

    def choose(self, view: View, legal: Sequence[str]) -> str:
        phase = view["phase"]
        check_rules(view["rules"])
        if phase == "play":
            cards = [a.split()[1] for a in legal if a.startswith("play ") and len(a.split()) == 2]
            return "play " + best_legal(self.logits(view), cards)
        hand = view["hand"]
        if phase == "bid":
            return rule_bid(hand, view.get("high_bid"), legal)
        trump = view["trump"]
        if phase == "adjutant":
            return rule_adjutant(hand, trump, legal) or legal[int(self.rng.random() * len(legal))]
        if phase == "exchange":
            k = len(legal[0].split()) - 1
            chosen = set(rule_discard(hand, trump, k, self.rng))
            return next(a for a in legal if set(a.split()[1:]) == chosen)
        raise BotError(f"the onnx-napoleon bot has no move in phase {phase!r}")


@register("onnx-napoleon")
def _onnx_napoleon(seed: int, game: str, model: str = "") -> Bot:
    if game != "napoleon":
        raise BotError(f"the onnx-napoleon bot plays napoleon only, not {game}")
    if not isinstance(model, str) or not model:
        raise BotError("the onnx-napoleon bot needs model=PATH, the .onnx file of the policy")
    return OnnxNapoleonBot(model, seed)


__all__ = [
    "CARD_IDS",
    "FEATURES",
    "OnnxNapoleonBot",
    "best_legal",
    "card_value",
    "check_rules",
    "encode_play",
    "load_policy",
    "rule_adjutant",
    "rule_bid",
    "rule_discard",
]
