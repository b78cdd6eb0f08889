"""Hand by hand on duplicate deals: with which hands a player loses ground to the others.

Reads the records of one or more duplicate matches (``torampu uecda server --duplicate
--records DIR``: ``game-*.json`` in each directory; the match file is skipped) and sets each
hand the player held beside the other players' games with the same hand
(:mod:`torampu.duplicate_hands`). Prints, by the hand's aces, twos and jokers, the player's
points and the others' with the same hands, the difference with a 95% interval, and how often
each finished first and last. The directories are read as separate matches, so two runs on
the same ``--seed`` may be given together.

With ``--against DIR [DIR ...]`` (one directory per ``--records`` one, each pair played on the
same deals: the same server ``--seed``), it also compares the player in the two sets of runs
deal by deal (:func:`torampu.duplicate_hands.paired`): say a bot in ``--records`` and another
in ``--against``, each against the same opponents.

Run: .venv/bin/python bench/duplicate_hands.py --records DIR [DIR ...] [--player torampu]
         [--against DIR [DIR ...]]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from torampu.duplicate_hands import HandResult, hand_results, paired, summary


def _load(d: Path) -> list[dict[str, Any]]:
    files = sorted(d.glob("game-*.json"))
    if not files:
        raise SystemExit(f"no game-*.json records in {d}")
    return [json.loads(f.read_text(encoding="utf-8")) for f in files]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=Path, nargs="+", required=True, help="directories")
    ap.add_argument(
        "--player",
        default="torampu",
        help="a name in the records' UECda names, or a seat number (default: torampu)",
    )
    ap.add_argument("--split", type=int, default=3, help="top cards that make a strong hand")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument(
        "--against",
        type=Path,
        nargs="+",
        default=None,
        help="directories of runs on the same deals as --records' (in order): compare deal by deal",
    )
    a = ap.parse_args()
    player: int | str = int(a.player) if a.player.isdigit() else a.player
    found: list[HandResult] = []
    games = 0
    runs = [_load(d) for d in a.records]
    for d, records in zip(a.records, runs, strict=True):
        games += len(records)
        try:
            found += hand_results(records, player)
        except ValueError as e:
            raise SystemExit(f"{d}: {e}") from None
    print(f"{games} games in {len(a.records)} matches: {len(found)} hands held by {player!r}")
    print(
        f"{'hands with':16s} {'n':>4s}  {'points':>6s} {'others':>6s}  "
        f"{'difference (95%)':22s}  {'1st':>5s} {'others':>6s}  {'last':>5s} {'others':>6s}"
    )
    rows: list[dict[str, Any]] = []
    for g in summary(found, a.split):
        m, lo, hi = g.difference
        print(
            f"{g.label:16s} {g.hands:4d}  {g.points:6.2f} {g.others:6.2f}  "
            f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]{'':5s}  {g.first:5.1%} {g.others_first:6.1%}  "
            f"{g.last:5.1%} {g.others_last:6.1%}"
        )
        rows.append({**g.__dict__, "difference": list(g.difference)})
    out: dict[str, Any] = {"games": games, "groups": rows}
    if a.against is not None:
        if len(a.against) != len(a.records):
            raise SystemExit(f"{len(a.against)} --against directories for {len(a.records)} runs")
        try:
            p = paired(runs, [_load(d) for d in a.against], player)
        except ValueError as e:
            raise SystemExit(str(e)) from None
        m, lo, hi = p.difference
        print(
            f"deal by deal over {p.deals} deals ({p.skipped} not whole in both left out): "
            f"{p.a:.2f} here, {p.b:.2f} against, difference {m:+.2f} [{lo:+.2f}, {hi:+.2f}]"
        )
        out["paired"] = {**p.__dict__, "difference": list(p.difference)}
    if a.json is not None:
        a.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
