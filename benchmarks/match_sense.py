"""Does match sense win more matches? Endgames on duplicate deals.

Each endgame starts a 2-player match (default rules: target 62, Sur cut-off 50) from banked scores
drawn between ``--low`` and the target, where a round or two decide it, and plays it to the end
twice on the same deals: bot A on side 0 and bot B on side 1, then the other way round. Reports A's
share of the matches won, with a 95% interval over endgames (each endgame's pair of matches is one
observation), and A's points a round minus B's.

    .venv/bin/python benchmarks/match_sense.py --endgames 1000 --seed 1 \\
        solver solver:match=0
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from multiprocessing import Pool

from pasur import Match, Rules, deal_deck
from pasur.bots import make_bot
from pasur.core.stats import t_quantile


def deal_round(match: Match, seed: int) -> None:
    """The endgame's next round, from a deck of its own for ``seed`` and the round's number (the
    same whoever sits where, and in every fork)."""
    match.next_round(deal_deck(random.Random(seed * 100 + len(match.rounds) + 1), match.rules))


def play_endgame(task: tuple[str, str, int, int, int]) -> tuple[float, list[float], int]:
    """A's wins (0, 1 or 2) over the two seatings, A's and B's round points, rounds played."""
    first, second, a, b, seed = task
    rules = Rules()
    wins, points, rounds = 0.0, [0.0, 0.0], 0
    for swap in (False, True):
        specs = (second, first) if swap else (first, second)
        bots = [make_bot(spec, seed=seed * 2 + side) for side, spec in enumerate(specs)]
        match = Match(rules, auto_deal=False)
        match.scores = [b, a] if swap else [a, b]
        while not match.over:
            deal_round(match, seed)
            current = match.rounds[-1]
            while not current.over:
                seat = current.turn
                match.play(bots[seat].choose(current.view(seat), current.legal_moves()))
            earned = current.points()
            points[0] += earned[1 if swap else 0]
            points[1] += earned[0 if swap else 1]
            rounds += 1
        wins += match.winner == (1 if swap else 0)
    return wins / 2, points, rounds


def endgames(count: int, low: int, seed: int) -> list[tuple[tuple[int, int], int]]:
    """``count`` endgames: each side's banked score, drawn between ``low`` and the target, and a
    seed for the endgame's deals."""
    rng, target = random.Random(seed), Rules().target
    drawn = [(rng.randint(low, target - 1), rng.randint(low, target - 1)) for _ in range(count)]
    return [(banked, seed * 100_000 + index) for index, banked in enumerate(drawn)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs=2)
    parser.add_argument("--endgames", type=int, default=1000)
    parser.add_argument("--low", type=int, default=36, help="the lowest banked score drawn")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    tasks = [(*args.bots, *banked, seed) for banked, seed in endgames(args.endgames, args.low, args.seed)]
    with Pool(args.jobs) as pool:
        results = pool.map(play_endgame, tasks, chunksize=4)
    shares = [share for share, _, _ in results]
    rounds = sum(count for _, _, count in results)
    mean = statistics.fmean(shares)
    half = t_quantile(len(shares) - 1) * statistics.stdev(shares) / math.sqrt(len(shares))
    print(
        json.dumps(
            {
                "bots": args.bots,
                "endgames": len(shares),
                "low": args.low,
                "seed": args.seed,
                "a_match_share": round(mean, 4),
                "ci95": [round(mean - half, 4), round(mean + half, 4)],
                "a_minus_b_points_per_round": round(sum(p[0] - p[1] for _, p, _ in results) / rounds, 3),
                "rounds": rounds,
            }
        )
    )


if __name__ == "__main__":
    main()
