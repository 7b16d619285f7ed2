"""The solver of this tree against another build of it, side by side in one run, on one core.

    git worktree add /tmp/base <commit> && (cd /tmp/base && python setup.py build_ext --inplace)
    .venv/bin/python benchmarks/solver_versus.py --base /tmp/base/src [--deals 1000] [--four 100] \
        [--repeats 3] [--core 0]

Each build solves the same whole 2-player deals, the positions from the 4th deal on, and whole
4-player partnership deals (benchmarks/solve.py's, seed 1), in its own process pinned to one core;
the two alternate `--repeats` times so that the machine's moods hit both. Prints each build's
median time and nodes (the median over the repeats of each run's median), and the speed-up.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"

RUN = """
import json, sys
from pasur import Rules
from pasur.bench import solve_deals, solver_figures
deals, four = int(sys.argv[1]), int(sys.argv[2])
print(json.dumps({
    "whole_2p": solver_figures(solve_deals(deals, 1)),
    "from_deal_4_2p": solver_figures(solve_deals(deals, 2, plays=(24, 47))),
    "whole_4p": solver_figures(solve_deals(four, 3, Rules(players=4))),
}))
"""

ROWS = {
    "whole_2p": "whole 2-player deals",
    "from_deal_4_2p": "2-player positions from the 4th deal on",
    "whole_4p": "whole 4-player partnership deals",
}


def run(source: Path, deals: int, four: int, core: int = 0) -> dict[str, dict[str, float]]:
    """One build's figures, from a process of its own on one core."""
    command = [sys.executable, "-c", RUN, str(deals), str(four)]
    if hasattr(os, "sched_setaffinity"):
        command = ["taskset", "-c", str(core), *command]
    environment = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    figures: dict[str, dict[str, float]] = json.loads(done.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the other build's src folder")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--four", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--core", type=int, default=0, help="the core both builds run on")
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, dict[str, float]]]] = {"base": [], "this": []}
    for _ in range(args.repeats):
        runs["base"].append(run(args.base, args.deals, args.four, args.core))
        runs["this"].append(run(HERE, args.deals, args.four, args.core))
    for row, words in ROWS.items():
        medians = {name: statistics.median(r[row]["median_ms"] for r in found) for name, found in runs.items()}
        nodes = {name: found[0][row]["median_nodes"] for name, found in runs.items()}
        p95 = {name: statistics.median(r[row]["p95_ms"] for r in found) for name, found in runs.items()}
        print(
            f"{words:<40}: base {medians['base']:8.3f} ms (95% {p95['base']:8.3f}, nodes {nodes['base']:>9,.0f}), "
            f"this {medians['this']:8.3f} ms (95% {p95['this']:8.3f}, nodes {nodes['this']:>9,.0f}): "
            f"{medians['base'] / medians['this']:.2f}x"
        )
    if args.json:
        args.json.write_text(json.dumps({"base": str(args.base), "runs": runs}, indent=1) + "\n")


if __name__ == "__main__":
    main()
