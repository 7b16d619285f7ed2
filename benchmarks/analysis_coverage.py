"""Whether ``pasur analyze``'s judgements hold: on positions from played matches, how often the
default run's 95% interval of a move's loss contains the loss found with many more deals, how
often two seeds agree on a verdict, and how long a whole match takes.

    .venv/bin/python benchmarks/analysis_coverage.py RECORD... [--positions 200] [--reference 4096]
        [--jobs 2] [--json OUT]

RECORD files are pasur-record/1 matches (or JSON Lines of them), e.g. from
``pasur match grandmaster master --records games.jsonl``. Positions with one legal move are left
out; the others are taken evenly from every record. Each is judged twice at the default precision
(seeds 1 and 2) and once with ``--reference`` deals (seed 3), and the whole of the first record is
judged at the default with seeds 1 and 2 for the time and the verdicts.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from pathlib import Path
from typing import Any

from pasur import Match, from_record
from pasur.coach.analysis import ALLOWED, MoveJudgement, Precision, Task, analysis_tasks, judge_move
from pasur.core import Round


def read_matches(paths: list[str]) -> list[Match]:
    """Every match in the files (one record, or one a line)."""
    matches: list[Match] = []
    for path in paths:
        text = Path(path).read_text(encoding="utf-8")
        lines = [text] if text.lstrip().startswith("{") and "\n{" not in text.strip() else text.splitlines()
        matches.extend(from_record(json.loads(line)) for line in lines if line.strip())
    return matches


def choices(task: Task) -> int:
    """How many legal moves the position of ``task`` had."""
    rules, deck, number, banked, before, _played, _seed = task
    game = Round(rules, deck, number, banked, check_deck=False)
    for code in before:
        game.play_code(code)
    return len(game.legal_codes())


def positions(matches: list[Match], count: int) -> list[Task]:
    """``count`` positions with a choice, taken evenly from all the matches' moves."""
    tasks = [task for match in matches for task in analysis_tasks(match, None, seed=1) if choices(task) > 1]
    step = max(1, len(tasks) // count)
    return tasks[::step][:count]


def with_seed(task: Task, seed: int) -> Task:
    return (*task[:6], task[6] * 7 + seed)


def judged(item: tuple[Task, Precision]) -> MoveJudgement:
    return judge_move(*item)


def coverage(tasks: list[Task], reference: int, jobs: int) -> dict[str, Any]:
    """The default run against the reference on each position."""
    default = Precision()
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        first = pool.map(judged, [(with_seed(task, 1), default) for task in tasks])
        second = pool.map(judged, [(with_seed(task, 2), default) for task in tasks])
        exact = pool.map(judged, [(with_seed(task, 3), Precision.fixed(reference)) for task in tasks])
    contained = [
        one.loss_interval[0] <= truth.loss <= one.loss_interval[1] for one, truth in zip(first, exact, strict=True)
    ]
    lossy = [index for index, truth in enumerate(exact) if truth.loss > 0.05]
    return {
        "positions": len(tasks),
        "contained": sum(contained),
        "coverage": round(statistics.fmean(contained), 4),
        "positions_losing_over_0.05": len(lossy),
        "coverage_losing_over_0.05": round(statistics.fmean(contained[index] for index in lossy), 4) if lossy else None,
        "verdicts_disagree": _disagreements(first, second),
        "verdicts": _counts(first),
        "mean_samples": round(statistics.fmean(one.samples for one in first), 1),
        "reference_verdicts": _counts(exact),
    }


def whole_match(match: Match, jobs: int) -> dict[str, Any]:
    """Every move of one match judged at the default with two seeds: the time and the verdicts."""
    runs = []
    for seed in (1, 2):
        tasks = analysis_tasks(match, None, seed=seed)
        started = time.perf_counter()
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            runs.append((pool.map(judged, [(task, Precision()) for task in tasks]), time.perf_counter() - started))
    (first, seconds), (second, other_seconds) = runs
    return {
        "moves": len(first),
        "seconds": [round(seconds, 1), round(other_seconds, 1)],
        "verdicts_disagree": _disagreements(first, second),
        "verdicts": [_counts(first), _counts(second)],
    }


def _disagreements(first: list[MoveJudgement], second: list[MoveJudgement]) -> list[dict[str, Any]]:
    """The moves two runs gave verdicts that contradict each other (that allow no band in common)."""
    return [
        {"round": one.round, "move": one.move, "verdicts": [one.verdict, other.verdict], "loss": [one.loss, other.loss]}
        for one, other in zip(first, second, strict=True)
        if not ALLOWED[one.verdict] & ALLOWED[other.verdict]
    ]


def _counts(judgements: list[MoveJudgement]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for one in judgements:
        counts[one.verdict] = counts.get(one.verdict, 0) + 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("records", nargs="+")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--reference", type=int, default=4096)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", dest="out")
    args = parser.parse_args()
    matches = read_matches(args.records)
    figures = {
        "default": {key: getattr(Precision(), key) for key in ("width", "least", "most", "ms")},
        "reference_samples": args.reference,
        "jobs": args.jobs,
        "whole_match": whole_match(matches[0], args.jobs),
        "coverage": coverage(positions(matches, args.positions), args.reference, args.jobs),
    }
    print(json.dumps(figures, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
