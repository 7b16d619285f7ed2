"""Write src/pasur/bots/round-outcomes.json: how rounds between two equal players end, the model
behind match sense (pasur.bots.match_sense).

Plays ``--rounds`` 2-player rounds of ``expert`` against itself (default rules, no Sur cut-off, so
that every Sur is counted) from seeded deals and tallies each round's (side 0's card points with
Haft Khaj, side 0's Surs, side 1's Surs), both ways round (the model is symmetric).

    .venv/bin/python benchmarks/round_outcomes.py --rounds 4000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from pasur import Round, Rules, deal_deck
from pasur.bots import make_bot

TARGET = Path(__file__).resolve().parent.parent / "src" / "pasur" / "bots" / "round-outcomes.json"


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
    made_by = f"benchmarks/round_outcomes.py --rounds {args.rounds} --seed {args.seed}"
    made_by += " (expert against itself, every Sur counted)"
    rows = ",\n    ".join(json.dumps([*key, count]) for key, count in sorted(tally.items()))
    columns = json.dumps(["card_points", "surs", "their_surs", "rounds"])
    head = f'{{\n  "made_by": {json.dumps(made_by)},\n  "columns": {columns},\n'
    TARGET.write_text(f'{head}  "rows": [\n    {rows}\n  ]\n}}\n')  # a row a line: readable diffs
    print(f"{len(tally)} outcomes from {args.rounds} rounds -> {TARGET}")


if __name__ == "__main__":
    main()
