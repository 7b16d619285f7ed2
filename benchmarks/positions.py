"""The positions players doubted (issue 16): a Jack that can take only numerals, or a lone 10,
with the 10♦ in hand. Each is judged as ``pasur analyze`` judges a move (sampled deals of the
unseen cards, each solved exactly; :func:`pasur.coach.analysis.judge_position`), and each level
from ``hard`` up is asked what it plays, over ten seeds.

    .venv/bin/python benchmarks/positions.py [--samples 2000] [--seeds 10]

Prints a Markdown table: the position, each legal move's expected round points with the loss of
the Jack capture and its 95% interval, and how often each level takes with the Jack.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from pasur import Round, Rules, deal_deck
from pasur.bots import make_bot
from pasur.coach.analysis import Precision, judge_position
from pasur.core.cards import Card, mask_of

#: (table, seat 0's hand): the first card of the hand is the Jack, the second the 10♦.
POSITIONS = [
    ("5H 5S 8H 9H", "JD 10D"),
    ("5H 5S 8H 9H", "JD 10D 2H 7C"),
    ("5H 5S 8H 9H", "JD 10D QC 6S"),
    ("10S", "JC 10D"),
    ("10S", "JC 10D KS 2D"),
    ("10S", "JC 10D QH 4S"),
]
#: The levels asked, and their bots.
ASKED = ["hard", "master", "grandmaster"]


def position(table: str, hand: str) -> Round:
    """A 2-player round of the first deal's kind in which seat 0 holds ``hand`` and ``table`` lies
    on the table; seat 1 holds as many of the other cards, the rest is the pack."""
    game = Round(Rules(), deal_deck(random.Random(0), Rules()))
    on_table, held = mask_of(map(Card.parse, table.split())), mask_of(map(Card.parse, hand.split()))
    rest = [card for card in range(52) if not (on_table | held) >> card & 1]
    game.table, game.hands, game.turn = on_table, [held, mask_of(rest[: len(hand.split())])], 0
    return game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()
    print("| table | hand | moves (expected points) | Jack capture loses | " + " | ".join(ASKED) + " |")
    print("| --- | --- | --- | --- | " + " | ".join("---" for _ in ASKED) + " |")
    for table, hand in POSITIONS:
        game = position(table, hand)
        jack = next(move for move in game.legal_moves() if move.take and str(move.card) == hand.split()[0])
        judged = judge_position(game, jack.code, 1, Precision.fixed(args.samples))
        ranked = sorted(judged.values.items(), key=lambda item: -item[1])
        values = ", ".join(f"{text} {value:+.2f}" for text, value in ranked)
        low, high = judged.loss_interval
        grabs = []
        for level in ASKED:
            bots = [make_bot(level, seed=seed) for seed in range(args.seeds)]
            chosen = Counter(bot.choose(game.view(0), game.legal_moves()) == jack for bot in bots)
            grabs.append(f"{chosen[True]}/{args.seeds}")
        print(
            f"| {table} | {hand} | {values} | {judged.loss:.2f} [{low:.2f}, {high:.2f}] {judged.verdict} | "
            + " | ".join(grabs)
            + " |"
        )


if __name__ == "__main__":
    main()
