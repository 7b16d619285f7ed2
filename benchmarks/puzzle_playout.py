"""Whether each shipped puzzle of the deal before the last holds when played out by people who
cannot see the hidden cards: its values are averages of open-card solves, so the answer is
checked by play instead.

For each such puzzle, ``--deals`` arrangements of the unseen cards are dealt consistently with the
puzzle's view; on each, the answer and the best other move are played, and then every seat plays
as the ``--bot`` plays, each from its own view, to the round's end. The answer holds when its
points over the other move's (the same deals, paired) have a 95% interval above 0.

    .venv/bin/python benchmarks/puzzle_playout.py [--deals 64] [--bot solver] [--jobs 2] [--json OUT]

Prints each puzzle's gain with its interval and whether it holds; ``--json`` keeps them
(``docs/analysis/puzzle-playout-*.json``, which a test compares with the shipped set).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
from pathlib import Path
from typing import Any

from pasur.bots.registry import make_bot
from pasur.coach.analysis import t_quantile
from pasur.coach.puzzles import Puzzle, shipped_puzzles
from pasur.core import Move, Round


def played_out(game: Round, move: Move, bot: str, seed: int) -> float:
    """The mover's side's round points less the other's after ``move`` and the bot's play."""
    side = game.side_of(game.turn)
    game = game.copy()
    game.play(move)
    bots = [make_bot(bot, seed + seat) for seat in range(game.rules.players)]
    while not game.over:
        view = game.view(game.turn)
        game.play(bots[game.turn].choose(view, view.legal_moves()))
    points = game.points()
    return float(points[side] - sum(points) + points[side])


def check(item: tuple[Puzzle, int, str]) -> dict[str, Any]:
    """One puzzle played out on ``deals`` arrangements: the answer's mean gain, its interval."""
    puzzle, deals, bot = item
    answer = Move.parse(puzzle.answers[0])
    others = [text for text in puzzle.values if text not in puzzle.answers]
    other = Move.parse(max(others, key=puzzle.values.__getitem__))
    rng = random.Random(puzzle.id)
    gains = []
    for deal in range(deals):
        game = Round.from_view(puzzle.view, rng)
        gains.append(played_out(game, answer, bot, deal) - played_out(game, other, bot, deal))
    mean = statistics.fmean(gains)
    spread = t_quantile(deals - 1) * statistics.stdev(gains) / deals**0.5
    return {
        "id": puzzle.id,
        "answer": answer.text(),
        "other": other.text(),
        "exact_gain": round(puzzle.margin, 3),
        "played_gain": round(mean, 3),
        "interval": [round(mean - spread, 3), round(mean + spread, 3)],
        "holds": mean - spread > 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=64)
    parser.add_argument("--bot", default="solver")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json")
    args = parser.parse_args()
    chosen = [puzzle for puzzle in shipped_puzzles() if puzzle.exact == "every_arrangement"]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(check, [(puzzle, args.deals, args.bot) for puzzle in chosen])
    for one in results:
        low, high = one["interval"]
        print(
            f"{one['id']} {one['answer']} over {one['other']}: exact {one['exact_gain']:+.2f}, played "
            f"{one['played_gain']:+.2f} [{low:+.2f}, {high:+.2f}] {'holds' if one['holds'] else 'NOT PROVEN'}"
        )
    print(f"{sum(one['holds'] for one in results)} of {len(results)} hold ({args.deals} deals each, {args.bot})")
    if args.json:
        summary = {"deals": args.deals, "bot": args.bot, "puzzles": results}
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
