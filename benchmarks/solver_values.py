"""Whether a change to the solver kept every value: solves a fixed set of positions and prints the
nodes searched and a digest of every value and every root move's value (not the principal lines,
which follow the search order).

    .venv/bin/python benchmarks/solver_values.py                          # this tree's build
    PYTHONPATH=/tmp/base/src .venv/bin/python benchmarks/solver_values.py  # another build's

The positions: 200 whole 2-player deals (seed 1) and 20 whole 4-player partnership deals (seed 3),
as `benchmarks/solve.py` deals them; then, under the default rules and each rules option that
changes a two-sided value (Surs in the last deal, no compulsory capture, both), 60 2-player and 6
4-player deals (seed 7) each after up to 20 random plays. Two builds that print the same digests
found the same values; the nodes say which searched less.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from pasur import Round, Rules
from pasur.bench import solve_deals
from pasur.core import deal_deck
from pasur.core.solver import Solution, solve

# the options that change a two-sided value (with two sides Haft Khaj by most clubs is 7 of 13,
# and Sur cancelling moves both sides alike)
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "sur in the last deal": {"sur_in_last_deal": True},
    "no compulsory capture": {"compulsory_capture": False},
    "both": {"sur_in_last_deal": True, "compulsory_capture": False},
}


def digest(solutions: list[Solution]) -> str:
    """A digest of every value and every root move's value."""
    found = [(solution.value, [(move.text, move.value) for move in solution.moves]) for solution in solutions]
    return hashlib.sha256(json.dumps(found).encode()).hexdigest()[:16]


def variant_solutions(options: dict[str, Any], seed: int = 7) -> list[Solution]:
    """60 2-player and 6 4-player partnership positions under ``options``, each after up to 20
    random plays."""
    solutions = []
    for players, deals in ((2, 60), (4, 6)):
        rules = Rules(players=players, **options)
        rng = random.Random(seed)
        for _ in range(deals):
            game = Round(rules, deal_deck(rng, rules), check_deck=False)
            for _ in range(rng.randint(0, 20)):
                codes = game.legal_codes()
                game.play_code(codes[rng.randrange(len(codes))])
            solutions.append(solve(game))
    return solutions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    sets = {
        "whole 2-player deals": solve_deals(200, 1),
        "whole 4-player partnership deals": solve_deals(20, 3, Rules(players=4)),
    }
    sets.update({f"variant: {name}": variant_solutions(options) for name, options in VARIANTS.items()})
    report = {name: {"nodes": sum(s.nodes for s in found), "digest": digest(found)} for name, found in sets.items()}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    for name, row in report.items():
        print(f"{name:40s} nodes {row['nodes']:>12,}  values {row['digest']}")


if __name__ == "__main__":
    main()
