"""Whether the coach's words hold: on every move of played matches judged as ``pasur analyze``
judges them, how much of each flagged move's loss the parts its reason names make up, how many
reasons are exact or name the other side's reply, and how many verdicts lie in one band.

    .venv/bin/python benchmarks/reasons_check.py RECORD... [--jobs 2] [--move-ms 2000] [--json OUT]

RECORD files are pasur-record/1 matches (or JSON Lines of them). A move is **flagged** when it has a
reason (it lost 0.3 points or more and is not judged good). Its reason **covers** the loss when the
points of the parts it names (on the reason's own deals) come to at least half of the judged loss.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from analysis_coverage import read_matches
from pasur.coach.analysis import BAND_NAMES, MoveJudgement, Precision, Task, analysis_tasks, judge_move
from pasur.coach.reasons import reason_line


def judged(item: tuple[Task, Precision]) -> MoveJudgement:
    return judge_move(*item)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("records", nargs="+")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--move-ms", type=float, default=2000.0)
    parser.add_argument("--json")
    args = parser.parse_args()
    matches = read_matches(args.records)
    tasks = [task for match in matches for task in analysis_tasks(match, None, seed=1)]
    precision = Precision(ms=args.move_ms)
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        judgements = pool.map(judged, [(task, precision) for task in tasks], chunksize=4)
    seconds = time.perf_counter() - started
    chosen = [one for one in judgements if one.verdict != "forced"]
    verdicts = Counter(one.verdict for one in chosen)
    flagged = [one for one in judgements if one.reason is not None]
    shares = [one.reason.points / one.loss for one in flagged if one.reason is not None]
    covered = sum(share >= 0.5 for share in shares)
    rows: list[dict[str, Any]] = []
    for one, share in zip(flagged, shares, strict=True):
        assert one.reason is not None
        rows.append({"round": one.round, "move": one.move, "loss": round(one.loss, 2), "covers": round(share, 2)})
        print(f"round {one.round} move {one.move}: loses {one.loss:.2f}, named {share:.0%}: {reason_line(one.reason)}")
    single = sum(verdicts[name] for name in BAND_NAMES)
    summary = {
        "moves": len(judgements),
        "with_a_choice": len(chosen),
        "verdicts": dict(verdicts),
        "in_one_band": round(single / len(chosen), 3),
        "exact": sum(one.exact for one in judgements),
        "cut_short": sum(one.cut_short for one in judgements),
        "flagged": len(flagged),
        "covered_half": covered,
        "covered_share": round(covered / len(flagged), 3) if flagged else None,
        "median_cover": round(statistics.median(shares), 2) if shares else None,
        "exact_reasons": sum(one.reason.exact for one in flagged if one.reason),
        "with_reply": sum(one.reason.reply is not None for one in flagged if one.reason),
        "seconds": round(seconds, 1),
    }
    print(json.dumps(summary, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "flagged": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
