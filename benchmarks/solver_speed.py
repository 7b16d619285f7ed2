"""How long a bot takes a decision at every number of players: the median and slowest milliseconds
over positions met in random play (each position's mover asked once).

    .venv/bin/python benchmarks/solver_speed.py solver --positions 80
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pasur import Round, Rules, deal_deck
from pasur.bots import make_bot

TABLES = {
    "2 players": Rules(),
    "4 in partnership": Rules(players=4),
    "3 players": Rules(players=3),
    "4 each for themselves": Rules(players=4, partnership=False),
}


def decision_times(spec: str, rules: Rules, positions: int, seed: int) -> list[float]:
    """Seconds ``spec`` took at each of ``positions`` positions of random play."""
    rng = random.Random(seed)
    bot = make_bot(spec, seed=seed)
    times: list[float] = []
    while len(times) < positions:
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        while not game.over and len(times) < positions:
            view, legal = game.view(game.turn), game.legal_moves()
            start = time.perf_counter()
            bot.choose(view, legal)
            times.append(time.perf_counter() - start)
            codes = game.legal_codes()
            game.play_code(codes[rng.randrange(len(codes))])
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", nargs="?", default="solver")
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, rules in TABLES.items():
        times = decision_times(args.spec, rules, args.positions, args.seed)
        median, slowest = 1000 * statistics.median(times), 1000 * max(times)
        print(f"{args.spec}, {name}: median {median:.1f} ms, slowest {slowest:.0f} ms")


if __name__ == "__main__":
    main()
