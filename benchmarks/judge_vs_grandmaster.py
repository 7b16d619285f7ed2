"""Who is right when the analysis calls grandmaster's move a mistake: the judge, or the bot?

Grandmaster (``solver``) plays master (``pimc``) whole matches; every grandmaster move is judged
as ``pasur analyze`` judges it. For each one the judge calls an inaccuracy, a mistake or unclear
(a loss of 0.3 points or more), both moves — the one played and the judge's best — are played out
from the mover's view many times: the cards it could not see are dealt at random, consistently
with its view, and the same deal is played to the round's end by grandmaster in every seat after
either move. The mean difference of the round's points (the mover's side minus the other), with
its 95% interval, says which move does better when grandmaster itself plays on. The deals are
uniform over what the mover could not see, as the judge's are: they do not weigh what the other
side's earlier plays suggest of its hand, as grandmaster's inference does (docs/ANALYSIS.md).

    .venv/bin/python benchmarks/judge_vs_grandmaster.py [RECORD...] [--matches 4] [--rollouts 64]
        [--jobs 2] [--json OUT]

RECORD files are matches grandmaster played in seat 0 (docs/analysis/records); without them it
plays ``--matches`` of its own.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
from pathlib import Path
from typing import Any

from pasur import Match, Rules, from_record
from pasur.bots import make_bot
from pasur.coach.analysis import INACCURACY, MoveJudgement, Precision, analysis_tasks, judge_move, weighted_interval
from pasur.core import MoveCode, Round
from pasur.host import MatchHost, seat_bots


def played_match(seed: int) -> Match:
    """A whole match, grandmaster in seat 0 against master."""
    match = Match(Rules(), seed=seed)
    for _ in MatchHost(match, seat_bots(["solver", "pimc"], seed)).play_bots():
        pass
    return match


def rollout(item: tuple[Round, MoveCode, MoveCode, int]) -> float:
    """One deal of the unseen cards played out after either move by grandmaster in every seat:
    the round's points after ``first`` less after ``second``, for the mover's side."""
    game, first, second, seed = item
    dealt = Round.from_view(game.view(game.turn), random.Random(seed))
    side = game.side_of(game.turn)
    results = []
    for code in (first, second):
        play = dealt.copy()
        play.play_code(code)
        bots = [make_bot("solver", seed + seat) for seat in range(play.players)]
        while not play.over:
            play.play(bots[play.turn].choose(play.view(play.turn), play.legal_moves()))
        points = play.points()
        results.append(points[side] - points[1 - side])
    return float(results[0] - results[1])


def settle(match: Match, judged: MoveJudgement, rollouts: int, pool: Any) -> dict[str, Any]:
    """Both moves of a questioned position played out: the best's edge over the one played."""
    number, index = judged.round, judged.move - 1
    recorded = match.rounds[number - 1]
    game = Round(match.rules, recorded.deck, recorded.number, recorded.banked, check_deck=False)
    for code in recorded.history[:index]:
        game.play_code(code)
    items = [(game, judged.best_code, judged.played_code, 1_000 * index + seed) for seed in range(rollouts)]
    edges = pool.map(rollout, items)
    edge, spread, _ = weighted_interval(edges, [1.0] * len(edges))
    return {
        "round": number,
        "move": judged.move,
        "played": judged.played,
        "best": judged.best,
        "verdict": judged.verdict,
        "judged_loss": round(judged.loss, 3),
        "judged_interval": [round(bound, 3) for bound in judged.loss_interval],
        "rollout_edge": round(edge, 3),
        "rollout_interval": [round(edge - spread, 3), round(edge + spread, 3)],
        "judge_right": edge - spread > 0,
        "bot_right": edge + spread < 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("records", nargs="*")
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=64)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", dest="out")
    args = parser.parse_args()
    questioned: list[dict[str, Any]] = []
    judged_moves = 0
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        matches = [from_record(json.loads(Path(path).read_text(encoding="utf-8"))) for path in args.records]
        for seed, match in enumerate(matches or (played_match(seed) for seed in range(1, args.matches + 1)), 1):
            tasks = analysis_tasks(match, [0], seed)
            judgements = pool.starmap(judge_move, [(task, Precision()) for task in tasks])
            judged_moves += len(judgements)
            for judged in judgements:
                if judged.verdict != "good" and judged.loss >= INACCURACY:
                    questioned.append({"match": seed, **settle(match, judged, args.rollouts, pool)})
                    print(json.dumps(questioned[-1]), flush=True)
    figures = {
        "matches": args.records or args.matches,
        "rollouts": args.rollouts,
        "grandmaster_moves_judged": judged_moves,
        "questioned": len(questioned),
        "judge_right": sum(one["judge_right"] for one in questioned),
        "bot_right": sum(one["bot_right"] for one in questioned),
        "undecided": sum(not one["judge_right"] and not one["bot_right"] for one in questioned),
        "mean_rollout_edge": round(statistics.fmean(one["rollout_edge"] for one in questioned), 3)
        if questioned
        else None,
        "positions": questioned,
    }
    print(json.dumps({key: value for key, value in figures.items() if key != "positions"}, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
