"""Whether each shipped puzzle of the deal before the last holds when played out by players who
cannot see the hidden cards: its values are averages of open-card solves, so the answer is
checked by play too (:func:`pasur.coach.puzzles.played_gain`, as ``pasur puzzles --play-out``).

    .venv/bin/python benchmarks/puzzle_playout.py [--deals 256] [--bot solver] [--jobs 2] [--json OUT]

Prints each puzzle's played gain with its interval and whether it holds; ``--json`` keeps them
(``docs/analysis/puzzle-playout-*.json``, which a test compares with the shipped set).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from pathlib import Path
from typing import Any

from pasur.coach.puzzles import PLAY_OUT_BOT, PLAY_OUT_DEALS, Puzzle, played_gain, read_puzzles, shipped_puzzles


def check(item: tuple[Puzzle, int, str]) -> dict[str, Any]:
    """One puzzle played out: the answer's gain over the best other move, with its interval."""
    puzzle, deals, bot = item
    mean, low, high = played_gain(puzzle, deals, bot)
    return {
        "id": puzzle.id,
        "answer": puzzle.answers[0],
        "exact_gain": round(puzzle.margin, 3),
        "played_gain": round(mean, 3),
        "interval": [round(low, 3), round(high, 3)],
        "holds": low > 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=PLAY_OUT_DEALS)
    parser.add_argument("--bot", default=PLAY_OUT_BOT)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--puzzles", help="a pasur-puzzle/1 file [the shipped puzzles]")
    parser.add_argument("--json")
    args = parser.parse_args()
    puzzles = read_puzzles(Path(args.puzzles).read_text(encoding="utf-8")) if args.puzzles else shipped_puzzles()
    chosen = [puzzle for puzzle in puzzles if puzzle.exact == "every_arrangement"]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(check, [(puzzle, args.deals, args.bot) for puzzle in chosen])
    for one in results:
        low, high = one["interval"]
        print(
            f"{one['id']} {one['answer']}: exact {one['exact_gain']:+.2f}, played "
            f"{one['played_gain']:+.2f} [{low:+.2f}, {high:+.2f}] {'holds' if one['holds'] else 'NOT PROVEN'}"
        )
    print(f"{sum(one['holds'] for one in results)} of {len(results)} hold ({args.deals} deals each, {args.bot})")
    if args.json:
        summary = {"deals": args.deals, "bot": args.bot, "puzzles": results}
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
