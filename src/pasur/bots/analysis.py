"""Game analysis: each move of a record judged from the mover's view only.

For every move of the chosen seats, the cards that seat could not see are dealt at random many
times, consistently with its view, and each deal is solved exactly (:func:`pasur.solve`): every
legal move gets its expected final round points (the mover's side minus the other side) over the
same samples. The best move has the highest mean; a move's **loss** is the best mean minus its
mean, with a 95% interval from the paired differences (the same deals for every move). A move is
a **mistake** when it loses more than 1 point and the interval's low end is above 0, an
**inaccuracy** when it loses more than 0.3 so, else good. With 3 players, or 4 each for
themselves, the values are the mover's points minus the others' average, the others searched as
one coalition (:mod:`pasur.core.solver`).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import Match, MoveCode, Round, Rules
from ..core.errors import SolveError
from ..core.solver import sampled_within, solve_problem
from ..i18n import text

__all__ = [
    "MISTAKE",
    "MoveJudgement",
    "analysis_tasks",
    "judge_move",
    "judge_position",
    "judgement_line",
    "players_summary",
    "rounds_summary",
]

#: A loss above this many points is a mistake.
MISTAKE = 1.0
#: Below this many points (and above none) a loss is an inaccuracy.
INACCURACY = 0.3


@dataclass(frozen=True, slots=True)
class MoveJudgement:
    """One move judged: what each legal move is worth (mean over the samples), the best, the one
    played and what it lost, with the 95% interval of the loss."""

    round: int
    move: int  # 1-based, within the round
    seat: int
    played: str
    best: str
    loss: float
    loss_interval: tuple[float, float]
    values: dict[str, float]
    samples: int

    @property
    def verdict(self) -> str:
        """``good``, ``inaccuracy`` or ``mistake``: by the loss, when its interval is above 0."""
        if self.loss_interval[0] <= 0:
            return "good"
        return "mistake" if self.loss > MISTAKE else "inaccuracy" if self.loss > INACCURACY else "good"

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "move": self.move,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "loss": round(self.loss, 3),
            "loss_interval": [round(self.loss_interval[0], 3), round(self.loss_interval[1], 3)],
            "verdict": self.verdict,
            "values": {text: round(value, 3) for text, value in self.values.items()},
            "samples": self.samples,
        }


#: One move to judge: rules, the round's deck, number and banked scores, the moves before it, the
#: move, and the seed of its samples (plain values, so worker processes can take it).
Task = tuple[Rules, tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int, int]


def analysis_tasks(match: Match, seats: Iterable[int] | None, seed: int) -> list[Task]:
    """A task for every move of the chosen seats (all when None) in the match's rounds; a
    :class:`SolveError` when the solver cannot judge them (no native core)."""
    if match.rounds:
        problem = solve_problem(match.rounds[0], paranoid=True)
        if problem:
            raise SolveError(problem)
    chosen = set(range(match.rules.players) if seats is None else seats)
    tasks: list[Task] = []
    for game in match.rounds:
        for index, code in enumerate(game.history):
            if (game.first + index) % match.rules.players in chosen:
                tasks.append(
                    (
                        match.rules,
                        game.deck,
                        game.number,
                        game.banked,
                        tuple(game.history[:index]),
                        code,
                        seed * 1_000_003 + game.number * 100 + index,
                    )
                )
    return tasks


def judge_move(task: Task, samples: int, ms: float | None = None) -> MoveJudgement:
    """Judge one move from its seat's view over ``samples`` solved deals (fewer if ``ms``
    milliseconds run out first)."""
    rules, deck, number, banked, before, played, seed = task
    game = Round(rules, deck, number, banked, check_deck=False)
    for code in before:
        game.play_code(code)
    return judge_position(game, played, samples, seed, ms)


#: Deals solved between two looks at the clock when judging within a time.
JUDGE_BATCH = 8


def judge_position(game: Round, played: MoveCode, samples: int, seed: int, ms: float | None = None) -> MoveJudgement:
    """Judge ``played`` in ``game``'s position from the view of the seat to play (the cards it
    cannot see play no part) over ``samples`` solved deals, or as many as ``ms`` milliseconds
    allow (at least one batch)."""
    seat, codes = game.turn, game.legal_codes()
    rng = random.Random(seed)
    base = Round.from_view(game.view(seat), rng)
    values = sampled_within(base, samples if len(codes) > 1 else 1, rng, ms, JUDGE_BATCH).values
    means = {code: statistics.fmean(found) for code, found in values.items()}
    best = max(codes, key=means.__getitem__)
    if means[played] == means[best]:
        best = played  # the move played is as good as any
    differences = [b - p for b, p in zip(values[best], values[played], strict=True)]
    loss = means[best] - means[played]
    spread = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else 0.0
    texts = {code: game.move_text(code) for code in codes}
    return MoveJudgement(
        round=game.number,
        move=len(game.history) + 1,
        seat=seat,
        played=texts[played],
        best=texts[best],
        loss=loss,
        loss_interval=(loss - spread, loss + spread),
        values={texts[code]: means[code] for code in codes},
        samples=len(differences),
    )


def judgement_line(judgement: MoveJudgement, lang: str = "en") -> str:
    """What the analysis says of a move: its verdict, its loss with the interval, the best move."""
    low, high = judgement.loss_interval
    return text(
        "judged",
        lang,
        verdict=text(f"verdict_{judgement.verdict}", lang),
        loss=round(judgement.loss, 2),
        low=round(low, 2),
        high=round(high, 2),
        best=judgement.best,
    )


def players_summary(judgements: Sequence[MoveJudgement]) -> list[dict[str, Any]]:
    """Per seat: moves judged, mean loss a move, mistakes (loss over 1 point), inaccuracies and
    the largest loss."""
    seats = sorted({judgement.seat for judgement in judgements})
    return [{"seat": seat, **_summary([one for one in judgements if one.seat == seat])} for seat in seats]


def rounds_summary(judgements: Sequence[MoveJudgement]) -> list[dict[str, Any]]:
    """The same per round and seat."""
    keys = sorted({(judgement.round, judgement.seat) for judgement in judgements})
    rows = []
    for number, seat in keys:
        own = [judgement for judgement in judgements if (judgement.round, judgement.seat) == (number, seat)]
        rows.append({"round": number, "seat": seat, **_summary(own)})
    return rows


def _summary(own: Sequence[MoveJudgement]) -> dict[str, Any]:
    worst = max(own, key=lambda judgement: judgement.loss)
    return {
        "moves": len(own),
        "mean_loss": round(statistics.fmean(judgement.loss for judgement in own), 3),
        "mistakes": sum(judgement.verdict == "mistake" for judgement in own),
        "inaccuracies": sum(judgement.verdict == "inaccuracy" for judgement in own),
        "largest": {"round": worst.round, "move": worst.move, "played": worst.played, "loss": round(worst.loss, 3)},
    }
