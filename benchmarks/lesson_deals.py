"""How the lesson's pack was chosen: its first deal is written by hand (pasur.coach.lesson); the rest
of the pack is the shuffle, among ``--tries`` seeded ones, that tells every rule and leaves the
learner furthest ahead of the easy bot at the end of round 1 in its worst case (then on average),
whether the learner then plays greedily, at random or as ``medium`` (three bot seeds each; the
learner follows every suggestion it is given).

    .venv/bin/python benchmarks/lesson_deals.py [--tries 300] [--top 5]
"""

from __future__ import annotations

import argparse
import random
import statistics

from pasur import Match, Rules
from pasur.bots import make_bot
from pasur.coach.lesson import LEARNER, LESSON_DECK, lesson_tips, untold
from pasur.core import Card

#: Every topic a first round should tell.
EVERY_TOPIC = {
    "welcome", "eleven", "faces", "sur", "jack", "points", "deal", "must",
    "haft_khaj", "last_deal", "last_sweep", "scoring", "play_on",
}  # fmt: skip
LEARNERS = ("greedy", "random", "expert")


def learner_margin(deck: list[Card], bot_seed: int, learner: str) -> tuple[int, set[str]]:
    """Round 1 on ``deck``: the learner's points less the bot's, and the topics told."""
    match = Match.first_dealt(Rules(), deck)
    game = match.rounds[0]
    bot, own = make_bot("easy", seed=bot_seed), make_bot(learner, seed=bot_seed + 99)
    told: set[str] = set()
    while True:
        view = game.view(LEARNER)
        shown = untold(lesson_tips(view), told)
        suggested = shown[-1].move if shown else None
        if game.over:
            points = game.points()
            return points[0] - points[1], told
        legal = game.legal_moves()
        if game.turn == LEARNER:
            match.play(suggested if suggested in legal else own.choose(view, legal))
        else:
            match.play(bot.choose(game.view(game.turn), legal))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tries", type=int, default=300)
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()
    first, rest = list(LESSON_DECK[:12]), sorted(LESSON_DECK[12:])
    found = []
    for seed in range(args.tries):
        shuffled = rest[:]
        random.Random(seed).shuffle(shuffled)
        results = [
            learner_margin(first + shuffled, bot_seed, learner) for bot_seed in (1, 2, 3) for learner in LEARNERS
        ]
        if all(told == EVERY_TOPIC for _, told in results):
            margins = [margin for margin, _ in results]
            found.append((min(margins), statistics.fmean(margins), seed, " ".join(map(str, shuffled))))
    found.sort(reverse=True)
    print(f"{len(found)} of {args.tries} shuffles tell every rule; the best for the learner:")
    for least, mean, seed, cards in found[: args.top]:
        print(f"seed {seed}: mean {mean:+.1f}, least {least:+d}: {cards}")


if __name__ == "__main__":
    main()
