"""Bots' milliseconds a decision, measured in turns so that a host whose speed drifts slows them
all alike: each run times every bot on the same positions of random 2-player rounds (one-move
decisions included), and the median of the runs' medians and of their means is printed.

    OPENBLAS_NUM_THREADS=1 taskset -c 1 .venv/bin/python benchmarks/bot_times.py net net:ties=0 expert solver
"""

from __future__ import annotations

import argparse
import statistics

from pasur.bench import decision_times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="+", help="bot specs")
    parser.add_argument("--decisions", type=int, default=800, help="decisions a run")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {spec: [] for spec in args.bots}
    for run in range(args.runs):
        for spec, figures in runs.items():
            times = decision_times(spec, args.decisions, seed=1 + run)
            figures.append((1000 * statistics.median(times), 1000 * statistics.fmean(times)))
    for spec, figures in runs.items():
        median = statistics.median(each for each, _ in figures)
        mean = statistics.median(each for _, each in figures)
        print(f"{spec}: median {median:.3f} ms, mean {mean:.3f} ms a decision ({args.runs} runs of {args.decisions})")


if __name__ == "__main__":
    main()
