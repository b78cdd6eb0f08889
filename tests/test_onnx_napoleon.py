"""The ``onnx-napoleon`` bot: its encoder against napoleon-web's, its rules against theirs, and
the bot itself on a small random model of the same shape (no outside code or weights needed).

``fixtures/napoleon_web_encoder.json`` holds torampu games under the ``napoleon-web`` preset that
were replayed in napoleon-web's own engine and encoded by its ``packages/ai-observation``
encoder; their engine agreed with ours on every legal set, trick winner and result.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import torampu
from torampu.bots import BotError, make_bot, parse_bot_spec, play_game
from torampu.bots.onnx_napoleon import (
    CARD_IDS,
    FEATURES,
    card_value,
    encode_play,
    rule_adjutant,
    rule_bid,
    rule_discard,
)
from torampu.web.bots import BotRefused, check_spec

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "napoleon_web_encoder.json").read_text())


def replay(g: dict[str, Any]) -> torampu.Game:
    return torampu.new_game(
        "napoleon", "napoleon-web", seed=g["seed"], deal=g["deal"], dealer=g["dealer"]
    )


def expected_vector(p: dict[str, Any]) -> list[float]:
    v = [0.0] * FEATURES
    for i in p["ones"]:
        v[i] = 1.0
    for i, x in p["values"].items():
        v[int(i)] = float(x)
    return v


# ------------------------------------------------------------------------------------ encoder
def test_encoder_matches_theirs_on_recorded_positions() -> None:
    checked = 0
    kinds = set()
    for g in FIXTURE["games"]:
        game = replay(g)
        positions = {p["step"]: p for p in g["positions"]}
        for step, action in enumerate(g["actions"]):
            p = positions.get(step)
            if p is not None:
                view = game.view(p["seat"])
                ours = encode_play(view)
                theirs = expected_vector(p)
                diff = [i for i in range(FEATURES) if ours[i] != theirs[i]]
                assert not diff, f"seed {g['seed']} step {step}: features {diff[:8]} differ"
                checked += 1
                kinds.add((bool(view["tricks"]), view["alone"], view["contract"] == "12S"))
            game.play(action)
        res = game.result()  # the same game in their engine scored the same
        assert res["army_honors"] == g["result"]["army_honors"]
        assert res["army_won"] == g["result"]["army_won"]
        assert int(res["contract"][:-1]) == g["result"]["contract_count"]
    assert checked == sum(len(g["positions"]) for g in FIXTURE["games"]) >= 90
    # first leads (the buried-cards event), later tricks, a lone Napoleon, the all-pass 12S
    assert {k[0] for k in kinds} == {False, True}
    assert any(k[1] for k in kinds) and any(k[2] for k in kinds)


def test_their_rule_based_contract_decisions_are_ported() -> None:
    counts = {"bid": 0, "adjutant": 0, "exchange": 0}
    for g in FIXTURE["games"]:
        game = replay(g)
        rules = {r["step"]: r for r in g["rule"]}
        for step, action in enumerate(g["actions"]):
            r = rules.get(step)
            if r is not None:
                view = game.view(game.to_play)
                legal = game.legal_actions()
                if r["phase"] == "bid":
                    assert rule_bid(view["hand"], view["high_bid"], legal) == r["theirs"]
                elif r["phase"] == "adjutant":
                    assert rule_adjutant(view["hand"], view["trump"], legal) == r["theirs"]
                else:  # theirs draws among equally scored discards: compare the scores
                    mine = rule_discard(view["hand"], view["trump"], 3, random.Random(step))
                    theirs = r["theirs"].split()[1:]
                    assert sorted(card_value(c, view["trump"]) for c in mine) == sorted(
                        card_value(c, view["trump"]) for c in theirs
                    )
                counts[r["phase"]] += 1
            game.play(action)
    assert counts["bid"] >= 50 and counts["adjutant"] >= 10 and counts["exchange"] >= 10


def test_rule_bid_examples() -> None:
    legal = ["pass"] + [f"bid {n}{s}" for n in range(13, 20) for s in "CDHS"]
    strong = ["AS", "JS", "JC", "AH", "KS", "QS", "9S", "5S", "AD", "JK"]
    # spades: 60 + 55 + 50 + 20 + 43 + 42 + 39 + 35 + 20 + 20 = 384 -> up to 13 + 6 = 19
    assert rule_bid(strong, None, legal) == "bid 13S"
    assert rule_bid(strong, "18H", legal) == "bid 19S"
    assert rule_bid(strong, "19H", ["pass"]) == "pass"  # 20 is no bid in these rules
    weak = ["2S", "4H", "6H", "8H", "3D", "5D", "7D", "9D", "3C", "4C"]
    assert rule_bid(weak, None, legal) == "pass"


# ------------------------------------------------------------------------------------ the bot
def random_model(path: Path, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A linear model of their policy's shape (model_input [batch, 6246] -> logits [batch, 53])."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((FEATURES, 53)).astype(np.float32)
    b = rng.standard_normal(53).astype(np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["model_input", "W"], ["h"]),
            helper.make_node("Add", ["h", "B"], ["logits"]),
        ],
        "policy",
        [helper.make_tensor_value_info("model_input", TensorProto.FLOAT, ["batch", FEATURES])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 53])],
        [numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "B")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return w, b


def test_bot_plays_the_masked_argmax_of_the_model(tmp_path: Path) -> None:
    path = tmp_path / "policy.onnx"
    w, b = random_model(path)
    bot = make_bot("onnx-napoleon", seed=1, model=str(path))
    g = torampu.new_game("napoleon", "napoleon-web", seed=7)
    checked = 0
    while not g.is_over:
        seat = g.to_play
        assert seat is not None
        view, legal = g.view(seat), g.legal_actions()
        action = bot.choose(view, legal)
        assert action in legal
        if g.phase == "play":
            logits = np.asarray(encode_play(view), dtype=np.float32) @ w + b
            cards = [a.split()[1] for a in legal]
            best = max(cards, key=lambda c: (logits[CARD_IDS.index(c)], -CARD_IDS.index(c)))
            assert action == "play " + best
            checked += 1
        g.play(action)
    assert checked == 50


def test_bot_plays_whole_games_against_ours(tmp_path: Path) -> None:
    path = tmp_path / "policy.onnx"
    random_model(path, seed=3)
    kind, options = parse_bot_spec(f"onnx-napoleon:model={path}")
    for seed in range(4):
        g = torampu.new_game("napoleon", "napoleon-web", seed=seed)
        bots = [
            make_bot(kind, seed=s, **options) if s % 2 == seed % 2 else make_bot("heuristic", s)
            for s in range(5)
        ]
        play_game(g, bots)
        assert g.is_over and g.result()["contract"] is not None


def test_bot_refuses_bad_models_and_rules(tmp_path: Path) -> None:
    with pytest.raises(BotError, match="model=PATH"):
        make_bot("onnx-napoleon")
    with pytest.raises(BotError, match="cannot load"):
        make_bot("onnx-napoleon", model=str(tmp_path / "missing.onnx"))
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(BotError, match="cannot load"):
        make_bot("onnx-napoleon", model=str(junk))
    small = tmp_path / "small.onnx"
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])],
        "small",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 53])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 53])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    onnx.save(model, str(small))
    with pytest.raises(BotError, match="6246"):
        make_bot("onnx-napoleon", model=str(small))
    with pytest.raises(BotError, match="napoleon only"):
        make_bot("onnx-napoleon", game="hell", model=str(small))
    good = tmp_path / "good.onnx"
    random_model(good)
    bot = make_bot("onnx-napoleon", model=str(good))
    g = torampu.new_game("napoleon", "classic", seed=1)
    with pytest.raises(BotError, match="napoleon-web"):
        bot.choose(g.view(g.to_play), g.legal_actions())


@pytest.mark.parametrize(
    "spec",
    [
        "onnx-napoleon:model=/etc/passwd",
        "bot:onnx-napoleon:model=/work/policy.onnx",
        "onnx-napoleon",
    ],
)
def test_web_server_does_not_seat_the_onnx_bot(spec: str) -> None:
    # a web client must not make the server open a file of its choosing
    with pytest.raises(BotRefused, match="seats only"):
        check_spec(spec, max_think=1.0)
