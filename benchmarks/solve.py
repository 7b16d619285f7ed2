"""The exact solver over many random deals, on one core: how long it takes and what the values say.

.venv/bin/python benchmarks/solve.py [--deals 1000] [--four 100] [--seed 1] [--json]

Prints the time and node distribution of whole 2-player deals from the first move, of positions
from the 4th deal on, and of whole 4-player partnership deals; then, over the 2-player deals, the
mean value of the first player's seat (side 0 minus side 1), how much a deal's value varies, how
often the principal line holds a Sur, and how often a Sur decides the deal (the side ahead under
perfect play differs when no Sur counts).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from typing import Any

from pasur import Move, Round, Rules, solve
from pasur.bench import solve_deals, solver_figures
from pasur.core import deal_deck


def sur_in_line(game: Round, line: tuple[str, ...]) -> bool:
    """Whether playing the principal line makes a Sur that counts."""
    walk = game.copy()
    return any(walk.play(Move.parse(text)).sur for text in line)


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def value_figures(seed: int, deals: int) -> dict[str, Any]:
    """What perfect-information values say about 2-player deals (the same deals as the timing)."""
    rules, no_surs = Rules(), Rules(sur_cutoff=0)  # a cut-off of 0: no side scores a Sur
    rng = random.Random(seed)
    values, with_sur, decided = [], 0, 0
    for _ in range(deals):
        deck = deal_deck(rng, rules)
        game = Round(rules, deck, check_deck=False)
        solution = solve(game)
        values.append(solution.value)
        with_sur += sur_in_line(game, solution.line)
        without = solve(Round(no_surs, deck, check_deck=False)).value
        decided += sign(solution.value) != sign(without)
    mean = statistics.fmean(values)
    deviation = statistics.stdev(values)
    return {
        "deals": deals,
        "first_seat_mean": round(mean, 3),
        "first_seat_mean_95": [
            round(mean - 1.96 * deviation / math.sqrt(deals), 3),
            round(mean + 1.96 * deviation / math.sqrt(deals), 3),
        ],
        "stdev": round(deviation, 3),
        "range": [min(values), max(values)],
        "first_seat_ahead": round(sum(value > 0 for value in values) / deals, 4),
        "even": round(sum(value == 0 for value in values) / deals, 4),
        "line_with_sur": round(with_sur / deals, 4),
        "sur_decides": round(decided / deals, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="2-player deals (and positions from the 4th deal)")
    parser.add_argument("--four", type=int, default=100, help="4-player partnership deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = {
        "whole_2p": solver_figures(solve_deals(args.deals, args.seed)),
        # the 4th deal starts after 3 deals of 8 plays; 24 to 47 random plays land on deals 4-6
        "from_deal_4_2p": solver_figures(solve_deals(args.deals, args.seed + 1, plays=(24, 47))),
        "whole_4p": solver_figures(solve_deals(args.four, args.seed + 2, Rules(players=4))),
        "values_2p": value_figures(args.seed, args.deals),
    }
    if args.json:
        print(json.dumps(figures))
        return
    for name, words in (
        ("whole_2p", "whole 2-player deals, from the first move"),
        ("from_deal_4_2p", "2-player positions from the 4th deal on"),
        ("whole_4p", "whole 4-player partnership deals"),
    ):
        row = figures[name]
        print(
            f"{words:<44}: {row['positions']:>5} positions, median {row['median_ms']:8.3f} ms, "
            f"95% {row['p95_ms']:8.3f} ms, largest {row['max_ms']:8.3f} ms; nodes median {row['median_nodes']:,.0f}, "
            f"largest {row['max_nodes']:,}; {row['nodes_per_second']:,} nodes/s"
        )
    values = figures["values_2p"]
    print(
        f"2-player values over {values['deals']} deals: first seat {values['first_seat_mean']:+.2f} a deal "
        f"(95% {values['first_seat_mean_95'][0]:+.2f} to {values['first_seat_mean_95'][1]:+.2f}), "
        f"standard deviation {values['stdev']:.2f}, from {values['range'][0]:+d} to {values['range'][1]:+d}; "
        f"first seat ahead {values['first_seat_ahead']:.1%}, level {values['even']:.1%}; "
        f"a Sur in the principal line {values['line_with_sur']:.1%}; "
        f"a Sur decides who is ahead {values['sur_decides']:.1%}"
    )


if __name__ == "__main__":
    main()
