"""Are match sense's moves better where it differs? Each such decision, rolled out many times.

Endgames as in ``match_sense.py`` (2 players, banked scores drawn between ``--low`` and the target)
are played by ``solver`` playing for points. At each decision the same sampled deals are also
judged by the candidate (a ``solver`` spec with match sense, default ``solver:match=1``); where its
best moves leave out the move played and it expects at least ``--min-gain`` more chance of winning
the match, the position is kept. Each kept position is then rolled out ``--rollouts`` times from
the deciding seat's view: the cards it has not seen dealt again at random, both moves played on
that same deal and the same later deals by fresh ``--continue-with`` bots seeded alike, to the end
of the match. A rollout is worth +1 when only the candidate's move wins the match for the deciding
side, -1 when only the move played does.

Reported: the positions, the candidate's mean expected gain (its own estimate) and the measured
gain a decision (mean over positions of each one's mean rollout worth) with a 95% interval over
positions, how often decisions like these came up a match, and each position (``each``: banked
scores, deal, both moves, expected and measured gain).

    .venv/bin/python benchmarks/match_sense_rollouts.py --endgames 300 --rollouts 100 --seed 1
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from multiprocessing import Pool

from match_sense import deal_round, endgames  # the endgames of benchmarks/match_sense.py
from pasur import Match, Rules
from pasur.bots import make_bot
from pasur.bots.solver_bot import SolverBot
from pasur.core import Move, MoveCode, Round
from pasur.core.solver import Samples
from pasur.core.stats import t_quantile

#: A kept position: the match, the deciding seat, the move played, the candidate's, its expected
#: gain, and the position's seed.
Position = tuple[Match, int, str, str, float, int]


def banded(legal: list[Move], found: Samples, chances: dict[MoveCode, float], band: float) -> list[Move]:
    """The moves of the best chance among those within ``band`` points of the best mean."""
    means = found.means()
    near = [move for move in legal if means[move.code] >= max(means.values()) - band]
    top = max(chances[move.code] for move in near)
    return [move for move in near if chances[move.code] >= top - 1e-9]


def collect(task: tuple[str, float, float | None, int, int, int]) -> tuple[int, list[Position]]:
    """Play one endgame by points; its decisions, and the positions where the candidate differs."""
    spec, min_gain, band, a, b, seed = task
    judge = make_bot(spec)
    assert isinstance(judge, SolverBot)
    match = Match(Rules(), auto_deal=False)
    match.scores = [a, b]
    bots = [SolverBot(seed=seed * 2 + side) for side in range(2)]
    kept: list[Position] = []
    decisions = 0
    while not match.over:
        current = match.rounds[-1] if match.rounds else None
        if current is None or current.over:
            deal_round(match, seed)
            continue
        seat = current.turn
        view, legal = current.view(seat), current.legal_moves()
        found = bots[seat].sampled(view, legal) if len(legal) > 1 else None
        if found is None:
            match.play(bots[seat].choose(view, legal))
            continue
        decisions += 1
        best = bots[seat].best_moves(legal, found, None)
        played = best[0] if len(best) == 1 else bots[seat]._judge.choose(view, best)
        sense = judge.sense_of(view)
        if sense is not None:
            chances = found.means(sense.win_chance)
            theirs = judge.best_moves(legal, found, sense) if band is None else banded(legal, found, chances, band)
            gain = chances[theirs[0].code] - chances[played.code]
            if played not in theirs and gain >= min_gain:
                chosen = theirs[0] if len(theirs) == 1 else judge._judge.choose(view, theirs)
                kept.append((match.copy(), seat, str(played), str(chosen), gain, seed * 1000 + decisions))
        match.play(played)
    return decisions, kept


def roll_out(task: tuple[Position, int, str]) -> list[int]:
    """The worth of each rollout of one position (see the module's description)."""
    (match, seat, played, chosen, _, seed), rollouts, spec = task
    side = match.rules.side_of(seat)
    view = match.rounds[-1].view(seat)
    worths = []
    for rollout in range(rollouts):
        world = match.copy()
        world.rounds[-1] = Round.from_view(view, random.Random(seed * 1000 + rollout))
        won = []
        for move in (chosen, played):
            fork = world.copy()
            fork.play(move)
            bots = [make_bot(spec, seed=seed * 1000 + rollout * 2 + other) for other in range(2)]
            while not fork.over:
                current = fork.rounds[-1]
                if current.over:
                    deal_round(fork, seed * 1000 + rollout)
                    continue
                turn = current.turn
                fork.play(bots[turn].choose(current.view(turn), current.legal_moves()))
            won.append(fork.winner == side)
        worths.append(won[0] - won[1])
    return worths


def described(position: Position, measured: float) -> dict[str, object]:
    """One kept position for the report: where it arose, the two moves, expected and measured gain."""
    match, seat, played, chosen, gain, _ = position
    side = match.rules.side_of(seat)
    return {
        "banked": [match.scores[side], match.scores[1 - side]],
        "deal": match.rounds[-1].view(seat).deal,
        "played": played,
        "chosen": chosen,
        "expected": round(gain, 4),
        "measured": round(measured, 4),
    }


def interval(values: list[float]) -> list[float]:
    """The mean's 95% interval."""
    if len(values) < 2:
        return [math.nan, math.nan]
    mean, half = (
        statistics.fmean(values),
        t_quantile(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values)),
    )
    return [round(mean - half, 4), round(mean + half, 4)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidate", default="solver:match=1")
    parser.add_argument("--continue-with", default="solver:samples=32,infer=greedy")
    parser.add_argument("--endgames", type=int, default=300)
    parser.add_argument("--rollouts", type=int, default=100)
    parser.add_argument("--min-gain", type=float, default=0.003, help="the candidate's least expected gain kept")
    parser.add_argument("--band", type=float, help="choose by chance only among moves this near the best mean")
    parser.add_argument("--low", type=int, default=36, help="the lowest banked score drawn")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    tasks = [
        (args.candidate, args.min_gain, args.band, *banked, seed)
        for banked, seed in endgames(args.endgames, args.low, args.seed)
    ]
    with Pool(args.jobs) as pool:
        collected = pool.map(collect, tasks, chunksize=2)
        positions = [position for _, kept in collected for position in kept]
        rolled = [(position, args.rollouts, args.continue_with) for position in positions]
        worths = pool.map(roll_out, rolled, chunksize=1)
    means = [statistics.fmean(found) for found in worths]
    expected = [position[4] for position in positions]
    print(
        json.dumps(
            {
                "candidate": args.candidate,
                "continue_with": args.continue_with,
                "endgames": args.endgames,
                "low": args.low,
                "seed": args.seed,
                "min_gain": args.min_gain,
                "band": args.band,
                "rollouts": args.rollouts,
                "decisions": sum(seen for seen, _ in collected),
                "positions": len(positions),
                "positions_a_match": round(len(positions) / args.endgames, 3),
                "expected_gain": round(statistics.fmean(expected), 4) if expected else None,
                "measured_gain": round(statistics.fmean(means), 4) if means else None,
                "ci95": interval(means),
                "rollouts_won_only_by_candidate": sum(found.count(1) for found in worths),
                "rollouts_won_only_by_points": sum(found.count(-1) for found in worths),
                "each": [described(position, mean) for position, mean in zip(positions, means, strict=True)],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
