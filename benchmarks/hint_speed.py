"""How long a hint takes on one core (``pasur.coach.hint.hint`` with its 1,024 solved deals, and the
reason's 32 deals): the median and slowest over positions met in random play. ``--ms`` bounds it
as the terminal game does (2,000) or the server (its bots' time); ``--players`` 3 or 4 (``--each``:
four each for themselves, else in partnership).

    .venv/bin/python benchmarks/hint_speed.py [--positions 40] [--seed 1] [--players 2] [--each] [--ms MS]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pasur import Round, Rules, deal_deck
from pasur.coach.hint import hint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--each", action="store_true", help="four players each for themselves")
    parser.add_argument("--ms", type=float, default=None, help="the hint's time (this thread's CPU)")
    args = parser.parse_args()
    rules = Rules(players=args.players, partnership=not args.each) if args.players == 4 else Rules(players=args.players)
    rng = random.Random(args.seed)
    seconds: list[float] = []
    whys = 0
    while len(seconds) < args.positions:
        game = Round(rules, deal_deck(rng, rules))
        for _ in range(rng.randrange(48)):
            game.play_code(rng.choice(game.legal_codes()))
        if game.over or len(game.legal_codes()) < 2:
            continue
        started = time.process_time()
        advice = hint(game.view(game.turn), game.legal_moves(), seed=len(seconds), ms=args.ms)
        seconds.append(time.process_time() - started)
        whys += advice is not None and advice.why is not None
    ms = sorted(1000 * one for one in seconds)
    print(
        f"{len(ms)} positions: median {statistics.median(ms):.0f} ms, 90% {ms[int(0.9 * len(ms))]:.0f} ms, "
        f"largest {ms[-1]:.0f} ms; a reason said in {whys}"
    )


if __name__ == "__main__":
    main()
