"""Whether the analysis's reasons read right: each reason of ``pasur analyze --json`` output is
checked against the solver's lines on other deals, four times as many.

For every judged move with a reason, the reason (the part of the points the better move gains
most in, and whose side it is about) is found again from the same position with another seed and
``--deals`` deals. A reason reads right when the check names the same part, or when the part it
named still favours the better move by at least half of what the check's own top part does.

    .venv/bin/pasur analyze game.json --json > analysis.json
    .venv/bin/python benchmarks/reasons_check.py game.json analysis.json [--deals 64] [--most 50]

Prints each reason with what the check found, then the count.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from pasur import from_record
from pasur.coach.reasons import PART_POINTS, line_end, paired_gain, reason_from_json, reason_line
from pasur.core import Round, SideScore


def part_shares(game: Round, better: int, worse: int, deals: int, seed: int) -> dict[str, float]:
    """Each part's mean net points after ``better`` less after ``worse`` over ``deals`` deals."""
    rng = random.Random(seed)
    view = game.view(game.turn)
    side = game.side_of(game.turn)
    ends: dict[int, list[list[SideScore]]] = {better: [], worse: []}
    for _ in range(deals):
        dealt = Round.from_view(view, rng)
        for code in (better, worse):
            ends[code].append(line_end(dealt, code))
    return {part: paired_gain(points, ends[better], ends[worse], side)[0] for part, points in PART_POINTS.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("record")
    parser.add_argument("analysis")
    parser.add_argument("--deals", type=int, default=64)
    parser.add_argument("--most", type=int, default=50)
    args = parser.parse_args()
    match = from_record(json.loads(Path(args.record).read_text(encoding="utf-8")))
    judged = [one for one in json.loads(Path(args.analysis).read_text(encoding="utf-8"))["moves"] if one["reason"]]
    right = 0
    for one in judged[: args.most]:
        recorded = match.rounds[one["round"] - 1]
        game = Round(match.rules, recorded.deck, recorded.number, recorded.banked, check_deck=False)
        for code in recorded.history[: one["move"] - 1]:
            game.play_code(code)
        reason = reason_from_json(one["reason"])
        shares = part_shares(game, reason.better, reason.worse, args.deals, seed=99)
        top = max(shares, key=shares.__getitem__)
        holds = top == reason.part or shares[reason.part] >= shares[top] / 2 > 0
        right += holds
        print(
            f"round {one['round']} move {one['move']}: {reason_line(reason)}\n"
            f"    check ({args.deals} deals): {', '.join(f'{part} {share:+.2f}' for part, share in shares.items())}"
            f" -> {'reads right' if holds else 'does not hold'}"
        )
    print(f"{right} of {min(len(judged), args.most)} reasons read right")


if __name__ == "__main__":
    main()
