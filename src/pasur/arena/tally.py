"""Results of a match between bots as sets come in: points, wins, intervals and the report."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core import relative_points
from .games import GameResult, Plan
from .stats import Estimate, elo_estimate, ratio_estimate


@dataclass(slots=True)
class BotSummary:
    """One bot's results."""

    name: str
    points_per_round: Estimate
    win_rate: Estimate
    rounds: int
    games: int
    faults: int


@dataclass(slots=True)
class Tally:
    """Results as they come in, per set."""

    plan: Plan
    sets: dict[int, list[GameResult]] = field(default_factory=dict)

    def add(self, results: list[GameResult]) -> None:
        self.sets[results[0].set_index] = results

    @property
    def games(self) -> int:
        return sum(len(results) for results in self.sets.values())

    @property
    def rounds(self) -> float:
        """Deals played (a round cut short by a fault counts), each counted once however many
        rotations played it."""
        total = sum(game.rounds_played for results in self.sets.values() for game in results)
        return total / len(self.plan.specs)

    def _relative(self, game: GameResult, bot: int) -> tuple[float, int]:
        """A bot's points against the mean of the other sides, summed over a game's rounds,
        and how many rounds that covers."""
        rules = self.plan.rules
        seats = [seat for seat, index in enumerate(game.seating) if index == bot]
        total = 0.0
        for points in game.round_points:
            for seat in seats:
                total += relative_points(points, rules.side_of(seat)) / len(seats)
        return total, len(game.round_points)

    def _won(self, game: GameResult, bot: int) -> float:
        if game.fault is not None:
            return 0.0 if game.fault_bot == bot else 1.0 / (len(self.plan.specs) - 1)
        if game.winner is None:
            return 0.0
        return float(
            any(self.plan.rules.side_of(seat) == game.winner for seat, index in enumerate(game.seating) if index == bot)
        )

    def summaries(self) -> list[BotSummary]:
        """Each bot's points per round and match win rate, with 95% intervals over sets."""
        out = []
        ordered = [self.sets[key] for key in sorted(self.sets)]
        for bot, spec in enumerate(self.plan.specs):
            point_totals, round_counts, wins, games = [], [], [], []
            for results in ordered:
                pairs = [self._relative(game, bot) for game in results]
                point_totals.append(sum(total for total, _ in pairs))
                round_counts.append(sum(count for _, count in pairs))
                wins.append(sum(self._won(game, bot) for game in results))
                games.append(len(results))
            out.append(
                BotSummary(
                    name=spec,
                    points_per_round=ratio_estimate(point_totals, round_counts),
                    win_rate=ratio_estimate(wins, games).clamped(0.0, 1.0),
                    rounds=sum(round_counts),
                    games=sum(games),
                    faults=sum(1 for results in ordered for game in results if game.fault_bot == bot),
                )
            )
        return out

    def pair_scores(self) -> list[float]:
        """Per set, the first bot's share of the games won (two bots)."""
        return [sum(self._won(game, 0) for game in results) / len(results) for _, results in sorted(self.sets.items())]

    def faults(self) -> list[str]:
        return [game.fault for _, results in sorted(self.sets.items()) for game in results if game.fault]

    def done(self) -> bool:
        """Whether the plan's stopping rule is met."""
        plan = self.plan
        if plan.sprt is not None and plan.sprt.verdict(self.pair_scores()):
            return True
        if plan.max_sets is not None and len(self.sets) >= plan.max_sets:
            return True
        return self.rounds >= plan.rounds

    def report(self, interrupted: bool = False) -> dict[str, Any]:
        """Everything ``pasur match --json`` prints."""
        bots = [
            {
                "name": summary.name,
                "points_per_round": _number(summary.points_per_round.mean),
                "ci95": [_number(value) for value in summary.points_per_round.as_list()],
                "win_rate": _number(summary.win_rate.mean),
                "win_rate_ci95": [_number(value) for value in summary.win_rate.as_list()],
                "rounds": summary.rounds,
                "games": summary.games,
                "faults": summary.faults,
            }
            for summary in self.summaries()
        ]
        report: dict[str, Any] = {
            "bots": bots,
            "rules": self.plan.rules.to_dict(),
            "sets": len(self.sets),
            "games": self.games,
            "rounds": self.rounds,
            "interrupted": interrupted,
            "faults": self.faults(),
        }
        if len(self.plan.specs) == 2:
            elo = elo_estimate(self.pair_scores())
            report["elo"] = {"diff": _number(elo.mean), "ci95": [_number(v) for v in elo.as_list()]}
        if self.plan.sprt is not None:
            sprt = self.plan.sprt
            low, high = sprt.bounds
            report["sprt"] = {
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "llr": round(sprt.llr(self.pair_scores()), 4),
                "bounds": [round(low, 4), round(high, 4)],
                "verdict": sprt.verdict(self.pair_scores()),
            }
        return report


def _number(value: float) -> float | None:
    """JSON has no NaN or infinity: those become null."""
    return None if math.isnan(value) or math.isinf(value) else round(value, 4)


class Intake:
    """Takes finished sets in any order and adds them to the tally in set order, stopping at
    the plan's rule, so the result does not depend on how many workers played it."""

    def __init__(self, tally: Tally, on_set: Callable[[Tally, list[GameResult]], None] | None) -> None:
        self.tally = tally
        self.on_set = on_set
        self.waiting: dict[int, list[GameResult]] = {}
        self.next_index = 0
        self.issued = 0

    def next_task(self) -> int | None:
        """The next set to play, or None once no more are needed."""
        if self.tally.done():
            return None
        self.issued += 1
        return self.issued - 1

    def offer(self, results: list[GameResult]) -> None:
        """A finished set."""
        self.waiting[results[0].set_index] = results
        while self.next_index in self.waiting and not self.tally.done():
            ready = self.waiting.pop(self.next_index)
            self.tally.add(ready)
            self.next_index += 1
            if self.on_set:
                self.on_set(self.tally, ready)
