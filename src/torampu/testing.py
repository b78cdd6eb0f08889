"""A reusable conformance test that every game must pass (like PettingZoo's ``api_test``).

>>> api_test("hell", games=2)
2
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from torampu.cards import card_str
from torampu.errors import IllegalAction
from torampu.game import Game

_CARD_NAMES = {card_str(c): c for c in range(53)}
_NOT_SCANNED = ("rules", "legal_actions", "adjutant_card", "stands_for")
"""View keys that name cards without placing them, skipped at any depth: the rules (e.g.
``joker_call: 3S``), the legal actions (``adjutant AS`` names any card), the adjutant card and
what a Daifugo joker stands for (``6S`` when a joker fills that cell of a run)."""


def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            if k not in _NOT_SCANNED:
                yield str(k)
                yield from _strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from _strings(v)


def cards_mentioned(view: Any) -> int:
    """Every card named in a JSON value (as a card set), outside the keys that only name cards."""
    out = 0
    for s in _strings(view):
        for token in s.replace(",", " ").replace(":", " ").replace("(", " ").split():
            c = _CARD_NAMES.get(token)
            if c is not None:
                out |= 1 << c
    return out


def check_no_leak(game: Game) -> None:
    """Assert that no seat's view (nor the spectator's) names a card hidden from it."""
    for seat in [None, *range(game.n)]:
        view = game.view(seat)
        leaked = cards_mentioned(view) & game.hidden_from(seat)
        assert not leaked, (
            f"view({seat}) leaks {[card_str(c) for c in range(53) if leaked >> c & 1]}"
        )
        if seat is None:
            assert view.get("hand") is None, "the spectator's view shows a hand"


def _bad_actions(game: Game, rng: random.Random) -> list[str]:
    legal = set(game.legal_actions())
    candidates = ["", "xyz", "play", "play ZZ", "bid 99X", "pass pass", "play AS AS"]
    candidates += [f"play {card_str(c)}" for c in rng.sample(range(52), 6)]
    candidates += ["bid 1", "bid 21S", "discard AS", "adjutant XX", "bid two", "bid 60"]
    return [a for a in candidates if a not in legal]


def api_test(
    name: str,
    rules: str | Mapping[str, Any] | None = None,
    players: int | None = None,
    games: int = 5,
    seed: int = 0,
    max_steps: int = 100_000,
    **extra: Any,
) -> int:
    """Play ``games`` random games of ``name`` checking the public contract at every step.

    Checks: legal actions are distinct strings in a stable order and each one is accepted;
    ``legal_moves`` maps one to one onto them; illegal actions raise :class:`IllegalAction`
    and change nothing; views, results and records are JSON-safe; no view leaks a hidden card;
    a record replays to the same record; ``clone`` is independent; ``playout`` ends in a game
    whose record replays. Returns the number of games played.
    """
    import torampu  # local: torampu imports this module's package

    rng = random.Random(seed)
    for i in range(games):
        g = torampu.new_game(name, rules=rules, players=players, seed=seed * 1000 + i, **extra)
        steps = 0
        while not g.is_over:
            steps += 1
            assert steps < max_steps, "the game did not end"
            legal = g.legal_actions()
            assert legal, "no legal action in a game that is not over"
            assert len(set(legal)) == len(legal), "a legal action is listed twice"
            assert legal == g.legal_actions(), "legal actions are not deterministic"
            assert [g.action_str(m) for m in g.legal_moves()] == legal
            assert g.to_play is not None
            if rng.random() < 0.1:
                check_no_leak(g)
                before = (json.dumps(g.to_record()), [json.dumps(g.view(s)) for s in range(g.n)])
                for bad in _bad_actions(g, rng):
                    try:
                        g.play(bad)
                    except IllegalAction:
                        pass
                    else:
                        raise AssertionError(f"illegal action {bad!r} was accepted")
                after = (json.dumps(g.to_record()), [json.dumps(g.view(s)) for s in range(g.n)])
                assert before == after, "an illegal action changed the game"
                c = g.clone()
                c.play(legal[0])
                assert json.dumps(g.to_record()) == before[0], "playing on a clone changed it"
            g.play(legal[int(rng.random() * len(legal))])
        check_no_leak(g)
        rec = json.loads(json.dumps(g.to_record()))
        assert torampu.replay(rec).to_record() == rec, "the record does not replay"
        res = g.result()
        assert len(res["scores"]) == g.n and isinstance(res["winners"], list)
        json.dumps(g.view(None))
        p = torampu.new_game(name, rules=rules, players=players, seed=seed * 1000 + i, **extra)
        p.playout(random.Random(i))  # type: ignore[attr-defined]
        assert p.is_over
        prec = p.to_record()
        assert torampu.replay(prec).to_record() == prec, "a playout's record does not replay"
    return games


def trace_daifugo(cases: list[dict[str, Any]]) -> list[str]:
    """One sha256 per case: the whole course of a seeded random Daifugo game or match.

    A case is ``{"rules": …, "players": n, "seed": s, "games": g}`` (``games`` > 1: a match,
    with the exchange and titles carried). The digest covers, at every step, the seat and phase,
    every legal move and the one drawn; each seat's view at the start and the end of each game;
    the result; and a random ``playout`` from a clone of the first position. A case whose rules
    are refused digests the error's message. The tests compare these digests between the
    compiled and the pure-Python build of the engine (:mod:`torampu._engine`).

    >>> a = trace_daifugo([{"rules": "standard", "players": 4, "seed": 3, "games": 1}])
    >>> a == trace_daifugo([{"rules": "standard", "players": 4, "seed": 3, "games": 1}])
    True
    """
    import hashlib

    import torampu
    from torampu.daifugo import Daifugo
    from torampu.errors import RulesError

    out: list[str] = []
    for case in cases:
        h = hashlib.sha256()

        def put(x: Any, h: Any = h) -> None:
            h.update(json.dumps(x, sort_keys=True, default=str).encode())
            h.update(b"\n")

        rng = random.Random(case["seed"])
        try:
            m = torampu.new_match(
                "daifugo",
                rules=case["rules"],
                players=case["players"],
                games=case["games"],
                seed=case["seed"],
            )
        except RulesError as e:
            put(["RulesError", str(e)])
            out.append(h.hexdigest())
            continue
        while not m.is_over:
            g = m.game
            assert isinstance(g, Daifugo)
            put([g.view(s) for s in range(g.n)])
            if m.games_played == 0:
                c = g.clone()
                assert isinstance(c, Daifugo)
                c.playout(random.Random(case["seed"] + 1))
                put(["playout", c.result(), [mv for _, mv in c.history]])
            while not g.is_over:
                moves = g.legal_moves()
                move = moves[int(rng.random() * len(moves))]
                put([g.to_play, g.phase, moves, move, g.action_str(move)])
                m.apply(move)
            put([g.view(s) for s in range(g.n)])
            put(g.result())
        put(m.standings())
        out.append(h.hexdigest())
    return out
