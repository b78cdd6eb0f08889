"""Move agreement with recorded games: how often each bot picks the move that was played.

Reads torampu records (``game-*.json`` in a directory, as ``torampu uecda server --records DIR``
or a tournament writes them; a match file is skipped), takes every ``--every``-th decision with
more than one legal action (``--phase play`` by default; ``--seats`` to keep some players only;
``--titles``, in Daifugo, the players who started the game with one of those titles), shows each
bot the player's view and prints, per bot, the share of decisions where it chose the recorded
action with a 95% interval, the difference from the first bot *on the same decisions*
with its interval, and the seconds it took. With the games of a strong program (for Daifugo,
Blauweregen playing itself on our UECda server) it ranks bot settings without a match; it is a
proxy, not strength (see :mod:`torampu.agreement`).

In Daifugo ``--profile`` also prints what the recorded player and each bot spend on the same
decisions — passes, the joker (alone, or in a play), cards of the top rank — on leads and on
follows, with each bot's agreement on each (:func:`torampu.agreement.profile`): where a bot
differs from a stronger player, not only how often.

``--outcomes`` scores each search bot's *model* as well: where its tree tried the recorded move,
the squared difference between its value for that move and the reward the player got in the end,
with paired differences from the first search bot (:func:`torampu.agreement.agreement`'s
``records``). On the champion's games it tells rollouts and models of the others apart in
minutes where a match needs hours.

Run: .venv/bin/python bench/agreement.py --records DIR --games 50 --every 6 \\
        --bots ismcts:iterations=1000,ismcts:iterations=1000:guard=off,heuristic \\
        [--profile] [--outcomes]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from torampu.agreement import AgreementResult, Decision, agreement, daifugo_tags, decisions, profile


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=Path, required=True, help="a directory of game-*.json")
    ap.add_argument("--games", type=int, default=None, help="the first N records only")
    ap.add_argument("--every", type=int, default=1, help="every k-th decision of a record")
    ap.add_argument("--seats", default=None, help="comma-separated seats (default: all)")
    ap.add_argument("--phase", default="play", help="a phase, or 'all'")
    ap.add_argument(
        "--titles",
        default=None,
        help="Daifugo: comma-separated titles of the mover (daifugo, fugo, heimin, hinmin, "
        "daihinmin; none: a game without titles)",
    )
    ap.add_argument("--bots", default="heuristic,random", help="comma-separated bot specs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument(
        "--profile", action="store_true", help="Daifugo: what each spends, beside the record"
    )
    ap.add_argument(
        "--outcomes",
        action="store_true",
        help="search bots: how well each one's values predict the recorded games' ends",
    )
    a = ap.parse_args()
    files = sorted(a.records.glob("game-*.json"))[: a.games]
    if not files:
        raise SystemExit(f"no game-*.json records in {a.records}")
    records = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    game = str(records[0]["game"])
    seats = None if a.seats is None else [int(s) for s in a.seats.split(",")]
    phases = None if a.phase == "all" else [a.phase]
    titles = (
        None if a.titles is None else [None if t == "none" else t for t in a.titles.split(",") if t]
    )
    found = decisions(records, every=a.every, seats=seats, phases=phases, titles=titles)
    specs = [s for s in a.bots.split(",") if s]
    print(f"{len(files)} {game} records, {len(found)} decisions (one in {a.every})")
    res = AgreementResult()
    seconds: dict[str, float] = {}
    for spec in specs:
        t = time.perf_counter()
        one = agreement(found, [spec], game, a.seed, records if a.outcomes else None)
        res.hits[spec], res.chosen[spec] = one.hits[spec], one.chosen[spec]
        if spec in one.errors:
            res.errors[spec] = one.errors[spec]
        seconds[spec] = time.perf_counter() - t
    base = specs[0]
    width = max(len(s) for s in specs)
    rows = []
    for spec in specs:
        lo, hi = res.interval(spec)
        rate = res.rates()[spec]
        d, dlo, dhi = res.paired(spec, base)
        diff = "" if spec == base else f"   {d:+.3f} [{dlo:+.3f}, {dhi:+.3f}] vs the first"
        print(f"{spec:{width}s}  {rate:.3f} [{lo:.3f}, {hi:.3f}]{diff}   {seconds[spec]:.0f} s")
        rows.append({"bot": spec, "agreement": rate, "ci95": [lo, hi], "diff": [d, dlo, dhi]})
    out: dict[str, object] = {"decisions": len(found), "bots": rows}
    if a.outcomes:
        out["outcomes"] = print_outcomes(res, [s for s in specs if s in res.errors])
    if a.profile:
        if game != "daifugo":
            raise SystemExit("--profile reads Daifugo plays")
        out["profile"] = print_profile(found, res, specs)
    if a.json is not None:
        a.json.write_text(json.dumps(out, indent=1) + "\n")


def print_outcomes(res: AgreementResult, specs: list[str]) -> list[dict[str, object]]:
    """Print each search bot's mean squared error predicting the records' ends (with its
    interval, and the paired difference from the first search bot); return the rows."""
    rows: list[dict[str, object]] = []
    if not specs:
        print("\nno search bots: nothing predicts the outcomes")
        return rows
    print("\nsearch values against the recorded ends (squared error; lower predicts better)")
    width = max(len(s) for s in specs)
    for spec in specs:
        m, lo, hi = res.error(spec)
        n = len(res.errors[spec])
        d, dlo, dhi = res.paired_error(spec, specs[0])
        diff = "" if spec == specs[0] else f"   {d:+.5f} [{dlo:+.5f}, {dhi:+.5f}] vs the first"
        print(f"{spec:{width}s}  {m:.5f} [{lo:.5f}, {hi:.5f}] on {n}{diff}")
        rows.append({"bot": spec, "mse": m, "ci95": [lo, hi], "n": n, "diff": [d, dlo, dhi]})
    return rows


def print_profile(
    found: list[Decision], res: AgreementResult, specs: list[str]
) -> dict[str, dict[str, int]]:
    """Print the profiles side by side (and agreement per situation); return them."""
    profiles = {"played": profile(found, [d.action for d in found])}
    for spec in specs:
        profiles[spec] = profile(found, res.chosen[spec])
    keys = sorted({k for p in profiles.values() for k in p}, key=lambda k: (k.split(":")[0], k))
    names = ["played", *specs]
    print()
    print("  ".join(["what".ljust(22), *(f"[{i}]".rjust(7) for i in range(len(names)))]))
    for k in keys:
        print("  ".join([k.ljust(22), *(str(profiles[n].get(k, 0)).rjust(7) for n in names)]))
    for situation in ("lead", "follow"):
        idx = [i for i, d in enumerate(found) if daifugo_tags(d.view, d.action)[0] == situation]
        if idx:
            cells = [f"{sum(res.hits[s][i] for i in idx) / len(idx):.3f}".rjust(7) for s in specs]
            print("  ".join([f"agreement, {situation}".ljust(22), "".rjust(7), *cells]))
    for i, n in enumerate(names):
        print(f"[{i}] {n}")
    return profiles


if __name__ == "__main__":
    main()
