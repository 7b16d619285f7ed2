"""How long a bot takes a decision at every number of players: the median and slowest milliseconds
over positions met in random play (each position's mover asked once).

    .venv/bin/python benchmarks/solver_speed.py solver --positions 80
"""

from __future__ import annotations

import argparse
import statistics

from pasur import Rules
from pasur.bench import decision_times

TABLES = {
    "2 players": Rules(),
    "4 in partnership": Rules(players=4),
    "3 players": Rules(players=3),
    "4 each for themselves": Rules(players=4, partnership=False),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", nargs="?", default="solver")
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, rules in TABLES.items():
        times = decision_times(args.spec, args.positions, args.seed, rules)
        median, slowest = 1000 * statistics.median(times), 1000 * max(times)
        print(f"{args.spec}, {name}: median {median:.1f} ms, slowest {slowest:.0f} ms")


if __name__ == "__main__":
    main()
