"""Reproduce the strength table in docs/STRENGTH.md: each pairing on duplicate deals, and how
the search bots grow with their budget (about two hours on two cores).

    .venv/bin/python benchmarks/strength.py [--rounds 2000] [--budget-rounds 300] [--jobs 2]

Prints the Markdown table and writes every match's JSON report to docs/strength/.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from pasur.arena import Plan, run
from pasur.core import Rules

PAIRINGS = [
    ("greedy", "random"),
    ("expert", "greedy"),
    ("ismcts:iterations=300", "expert"),
    ("pimc:playouts=300", "expert"),
]
BUDGETS = ["ismcts:iterations=100", "ismcts:iterations=300", "ismcts:iterations=1000", "pimc:playouts=100"]


def measure(first: str, second: str, rounds: int, jobs: int, out: Path) -> dict[str, Any]:
    start = time.time()
    tally, _ = run(Plan((first, second), Rules(), rounds=rounds, seed=1), jobs=jobs)
    report = tally.report()
    report["seconds"] = round(time.time() - start)
    name = f"{first}-vs-{second}-{rounds}".replace(":", "_").replace("=", "")
    (out / f"{name}.json").write_text(json.dumps(report, indent=1) + "\n")
    return report


def row(report: dict[str, Any]) -> str:
    first, second = report["bots"]
    low, high = first["ci95"]
    elo = report["elo"]
    return (
        f"| {first['name']} | {second['name']} | {report['rounds']:.0f} | {first['points_per_round']:+.2f} "
        f"| [{low:+.2f}, {high:+.2f}] | {first['win_rate']:.3f} | {elo['diff']:+.0f} "
        f"| {report['seconds']} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--budget-rounds", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    out = Path(__file__).parent.parent / "docs" / "strength"
    out.mkdir(parents=True, exist_ok=True)
    header = (
        "| bot | against | deals | points/round | 95% interval | match wins | Elo | seconds |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    print(header)
    for first, second in PAIRINGS:
        print(row(measure(first, second, args.rounds, args.jobs, out)), flush=True)
    print()
    print(header)
    for bot in BUDGETS:
        print(row(measure(bot, "expert", args.budget_rounds, args.jobs, out)), flush=True)


if __name__ == "__main__":
    main()
