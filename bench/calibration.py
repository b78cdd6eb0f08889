"""How well a search foresaw its own games: the value it gave its moves beside its places.

Reads the decisions and the report of one or more UECda client runs (``torampu uecda client
--bot ismcts… --records FILE --report FILE``) and prints, by the hand's top cards at the start
of each game and by the cards left at the decision, the mean value the search gave the moves it
sent (1 first, 0 last), the mean reward those games gave, and the difference with a 95%
interval over games (:mod:`torampu.calibration`). A negative difference means the search was too
hopeful: its model of the other players (and of its own later moves) is weaker than the play it
met.

Run: .venv/bin/python bench/calibration.py --decisions FILE [FILE ...] --report FILE [FILE ...]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from torampu.calibration import CalibrationRow, calibration_rows, summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=Path, nargs="+", required=True, help="--records files")
    ap.add_argument("--report", type=Path, nargs="+", required=True, help="--report files")
    ap.add_argument("--split", type=int, default=3, help="top cards that make a strong hand")
    a = ap.parse_args()
    if len(a.decisions) != len(a.report):
        raise SystemExit(f"{len(a.decisions)} decision files for {len(a.report)} reports")
    rows: list[CalibrationRow] = []
    for i, (dec, rep) in enumerate(zip(a.decisions, a.report, strict=True)):
        report = json.loads(rep.read_text(encoding="utf-8"))
        places = {
            int(g["game"]): int(g["place"])
            for g in report.get("per_game") or []
            if g.get("place") is not None
        }
        lines = (json.loads(x) for x in dec.read_text(encoding="utf-8").splitlines() if x)
        try:
            # each run's games apart: the same game number in two runs is two games
            rows += [
                CalibrationRow(r.game + i * 1_000_000, r.top_cards, r.cards, r.expected, r.achieved)
                for r in calibration_rows(lines, places)
            ]
        except ValueError as e:
            raise SystemExit(f"{dec}: {e}") from None
    print(f"{len(rows)} searched decisions in {len({r.game for r in rows})} games")
    print(f"{'':24s} {'n':>5s} {'games':>5s}  {'expected':>8s} {'achieved':>8s}  difference (95%)")
    for g in summary(rows, a.split):
        m, lo, hi = g.difference
        print(
            f"{g.label:24s} {g.decisions:5d} {g.games:5d}  {g.expected:8.3f} {g.achieved:8.3f}  "
            f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        )


if __name__ == "__main__":
    main()
