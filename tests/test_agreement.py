"""Move agreement with recorded games (torampu.agreement)."""

from __future__ import annotations

import math
from typing import Any

import pytest

import torampu
from torampu.agreement import agreement, daifugo_tags, decisions, profile
from torampu.bots import make_bot
from torampu.errors import TorampuError


def _records(n: int, rules: str = "uecda") -> list[dict[str, Any]]:
    out = []
    for seed in range(n):
        g = torampu.new_game("daifugo", rules, seed=seed)
        bots = [make_bot("heuristic", 7, "daifugo") for _ in range(g.n)]
        while not g.is_over:
            s = g.to_play
            assert s is not None
            g.play(bots[s].choose(g.view(s), g.legal_actions()))
        out.append(g.to_record())
    return out


def test_each_decision_is_the_players_view_and_the_recorded_action() -> None:
    recs = _records(2)
    found = decisions(recs)
    assert found and {d.game for d in found} == {0, 1}
    for d in found:
        assert len(d.legal) > 1 and d.action in d.legal
        assert d.view["seat"] == d.seat == d.view["to_play"]
    # filters: every k-th per record, some seats, a phase
    assert len(decisions(recs, every=3)) < len(found)
    assert {d.seat for d in decisions(recs, seats=[2])} == {2}
    assert all(d.view["phase"] == "play" for d in decisions(recs, phases=["play"]))
    with pytest.raises(ValueError, match="every must be at least 1"):
        decisions(recs, every=0)


def test_the_player_itself_agrees_everywhere_and_a_random_one_does_not() -> None:
    found = decisions(_records(3))
    res = agreement(found, ["heuristic", "random"], game="daifugo", seed=7)
    assert res.rates()["heuristic"] == 1.0  # the recording bot is deterministic
    assert res.rates()["random"] < 0.7
    d, lo, hi = res.paired("random", "heuristic")
    assert d == pytest.approx(res.rates()["random"] - 1.0) and lo <= d <= hi < 0
    lo, hi = res.interval("random")
    assert lo < res.rates()["random"] < hi


def test_a_uecda_servers_records_and_a_broken_record() -> None:
    rec = _records(1)[0]
    served = {**rec, "uecda": {"game": 1, "names": ["a", "b", "c", "d", "e"]}}
    assert len(decisions([served])) == len(decisions([rec]))
    broken = {**rec, "game": "nosuchgame"}
    with pytest.raises(TorampuError, match="record 0 does not replay"):
        decisions([broken])


def test_a_profile_counts_what_each_player_spends_on_leads_and_follows() -> None:
    found = decisions(_records(3), phases=["play"])
    res = agreement(found, ["heuristic", "random"], game="daifugo", seed=7)
    assert res.chosen["heuristic"] == [d.action for d in found]  # the recording bot
    picks = res.chosen["random"]
    assert [a == d.action for a, d in zip(picks, found, strict=True)] == res.hits["random"]
    played = profile(found, [d.action for d in found])
    follows = [d for d in found if d.view["table"]]
    assert played["follow"] == len(follows) and played["lead"] == len(found) - len(follows)
    assert played["follow: pass"] == sum(d.action == "pass" for d in follows)
    assert played["follow: play"] + played["follow: pass"] == played["follow"]
    assert played.get("lead: pass", 0) == 0  # the heuristic never passes as the leader
    lone = sum(d.action == "play JK" for d in follows)
    assert played.get("follow: lone joker", 0) == lone
    jokers = sum("JK" in d.action for d in follows)
    assert played.get("follow: joker", 0) == jokers >= lone
    # the random bot's profile is of its own choices, on the same decisions
    mine = profile(found, res.chosen["random"])
    assert mine["follow"] == played["follow"] and mine != played
    # a 2 is the top rank, a 3 once the order is reversed
    assert daifugo_tags({"table": None, "reversed": False}, "play 3S 3H") == ("lead", ["play"])
    assert daifugo_tags({"table": None, "reversed": True}, "play 3S 3H")[1] == ["play", "top rank"]
    # the weakest card among the ranks held once; in a revolution the weakest is the highest
    hand = {"hand": ["3C", "3D", "5S", "9H", "KD", "2S"], "table": None}
    assert daifugo_tags({**hand, "reversed": False}, "play 5S")[1] == ["play", "lowest lone"]
    assert daifugo_tags({**hand, "reversed": False}, "play 3C")[1] == ["play"]  # from a pair
    assert daifugo_tags({**hand, "reversed": True}, "play 2S")[1] == ["play", "lowest lone"]
    assert daifugo_tags({**hand, "reversed": True}, "play 5S")[1] == ["play"]
    # the search's habit beside the recording heuristic's, counted on the same decisions
    assert played.get("lead: lowest lone", 0) == sum(
        "lowest lone" in daifugo_tags(d.view, d.action)[1] for d in found if not d.view["table"]
    )


def test_decisions_kept_by_the_movers_title() -> None:
    """``titles`` keeps the decisions of the players who started the game with those titles:
    in a match's second game each title is one seat's, the five together are every decision,
    and a game without titles has only ``None``."""
    match = torampu.new_match("daifugo", "uecda", games=2, seed=3)
    bots = [make_bot("heuristic", s, "daifugo") for s in range(5)]
    while not match.is_over:
        s = match.to_play
        assert s is not None
        match.play(bots[s].choose(match.view(s), match.legal_actions()))
    rec = match.game.to_record()
    everything = decisions([rec])
    names = ["daifugo", "fugo", "heimin", "hinmin", "daihinmin"]
    total = 0
    for name in names:
        kept = decisions([rec], titles=[name])
        seats = {d.seat for d in kept}
        assert len(seats) <= 1
        assert all(d.view["titles"][d.seat] == name for d in kept)
        total += len(kept)
    assert total == len(everything) > 0
    assert decisions([rec], titles=[None]) == []
    first = _records(1)[0]
    assert len(decisions([first], titles=[None])) == len(decisions([first])) > 0
    assert decisions([first], titles=["daifugo"]) == []


def test_search_values_are_scored_against_the_recorded_ends() -> None:
    recs = _records(2)
    found = decisions(recs, every=4, phases=["play"])
    specs = ["ismcts:iterations=60", "ismcts:iterations=60:rollout=random", "heuristic"]
    res = agreement(found, specs, game="daifugo", seed=3, records=recs)
    assert "heuristic" not in res.errors  # no search, no value
    errors = res.errors["ismcts:iterations=60"]
    assert errors and set(errors) <= set(range(len(found)))
    assert all(0.0 <= e <= 1.0 for e in errors.values())
    m, lo, hi = res.error("ismcts:iterations=60")
    assert lo <= m <= hi and m == pytest.approx(sum(errors.values()) / len(errors))
    d, dlo, dhi = res.paired_error("ismcts:iterations=60:rollout=random", "ismcts:iterations=60")
    assert dlo <= d <= dhi
    # the errors are measured against the records' own ends: reverse every game's places and
    # the same values (the same seed: the same searches) are scored against the other ends
    flipped = [
        {**r, "result": {**r["result"], "scores": [-x for x in r["result"]["scores"]]}}
        for r in recs
    ]
    again = agreement(found, specs[:1], game="daifugo", seed=3, records=flipped)
    other = again.errors["ismcts:iterations=60"]
    assert other.keys() == errors.keys()
    assert any(abs(other[i] - errors[i]) > 0.01 for i in errors)
    # the same searches (same seed, an iteration budget): one value v per decision, scored
    # against the end y and against its mirror 1 - y
    from torampu.search.ismcts import scores_to_rewards

    for i, e in errors.items():
        d = found[i]
        y = scores_to_rewards([float(x) for x in recs[d.game]["result"]["scores"]])[d.seat]
        values = [y + math.sqrt(e), y - math.sqrt(e)]
        assert any(abs((v - (1 - y)) ** 2 - other[i]) < 1e-9 for v in values)
    # without the records nothing is scored
    assert agreement(found, specs[:1], game="daifugo", seed=3).errors == {}
