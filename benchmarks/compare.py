"""Engine against the plain baseline, measured in one run, interleaved so machine noise hits both.

.venv/bin/python benchmarks/compare.py [--seconds 3] [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import plain_baseline
from pasur.bench import random_rounds_per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    engine, plain = [], []
    for repeat in range(args.repeats):
        engine.append(random_rounds_per_second(args.seconds, seed=repeat + 1))
        plain.append(plain_baseline.rounds_per_second(args.seconds, seed=repeat + 1))
    engine_rate, plain_rate = statistics.median(engine), statistics.median(plain)
    print(f"engine        : {engine_rate:8.0f} random 2-player rounds/s (median of {args.repeats})")
    print(f"plain baseline: {plain_rate:8.0f} random 2-player rounds/s (median of {args.repeats})")
    print(f"speed-up      : {engine_rate / plain_rate:8.1f}x")


if __name__ == "__main__":
    main()
