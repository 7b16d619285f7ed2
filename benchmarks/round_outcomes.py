"""Write src/pasur/bots/round_outcomes.py: how rounds between two equal players end, the model
behind match sense (pasur.bots.match_sense).

Plays ``--rounds`` 2-player rounds of ``expert`` against itself (default rules, no Sur cut-off, so
that every Sur is counted) from seeded deals and tallies each round's (side 0's card points with
Haft Khaj, side 0's Surs, side 1's Surs), both ways round (the model is symmetric).

    .venv/bin/python benchmarks/round_outcomes.py --rounds 4000 --seed 1
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

from pasur import Round, Rules, deal_deck
from pasur.bots import make_bot

TARGET = Path(__file__).resolve().parent.parent / "src" / "pasur" / "bots" / "round_outcomes.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules(sur_cutoff=None)
    rng = random.Random(args.seed)
    bots = [make_bot("expert", seed=args.seed), make_bot("expert", seed=args.seed + 1)]
    tally: Counter[tuple[int, int, int]] = Counter()
    for number in range(args.rounds):
        game = Round(rules, deal_deck(rng, rules), number % 2 + 1, check_deck=False)
        while not game.over:
            game.play(bots[game.turn].choose(game.view(game.turn), game.legal_moves()))
        score = game.breakdown()
        cards = [side.total - side.sur_points for side in score]
        tally[(cards[0], score[0].surs, score[1].surs)] += 1
        tally[(cards[1], score[1].surs, score[0].surs)] += 1
    rows = "\n".join(f"    {(*key, count)}," for key, count in sorted(tally.items()))
    TARGET.write_text(
        '"""How rounds between two equal players end: (a side\'s card points with Haft Khaj, its Surs,\n'
        "the other side's Surs, how many rounds), each round counted from both sides. Written by\n"
        f"benchmarks/round_outcomes.py --rounds {args.rounds} --seed {args.seed} (expert against itself,\n"
        'every Sur counted); read by pasur.bots.match_sense."""\n\n'
        f"OUTCOMES: tuple[tuple[int, int, int, int], ...] = (\n{rows}\n)\n"
    )
    print(f"{len(tally)} outcomes from {args.rounds} rounds -> {TARGET}")


if __name__ == "__main__":
    main()
