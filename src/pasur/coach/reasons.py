"""Why one move is better than another, read from the solver's own lines.

The cards the mover cannot see are dealt at random a number of times, consistently with its view;
on each deal the position after either move is solved exactly (:func:`pasur.solve`) and its
principal line played out to the round's end. Each line's final breakdown says where the points
went: Surs, Haft Khaj, the 2♣, the 10♦, Aces and Jacks. The part of the round points that differs
most between the two moves is the reason, told as what the worse move lets the other side do, or
what the better move lets the mover's side do, and how often, with its share of the points.
Two sides only (the solver's open-deck search); elsewhere there is no reason to give.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from typing import Any

from ..core import Card, Move, MoveCode, Round, SideScore
from ..core.errors import SolveError
from ..core.solver import solve, solve_problem
from ..i18n import move_words, number_text, text

__all__ = ["REASON_DEALS", "Reason", "explain", "reason_from_json", "reason_line"]

#: Deals solved for a reason (each twice: after either move), and how many times more are solved
#: when none of them favours the better move in any part (Haft Khaj, say, is won in few deals).
REASON_DEALS = 64
MORE_DEALS = 2

#: The parts of a side's round points a reason may name, and what each counts in a deal.
PARTS: dict[str, Any] = {
    "sur": lambda score: score.surs,
    "haft_khaj": lambda score: int(score.haft_khaj > 0),
    "ten_of_diamonds": lambda score: int(score.ten_of_diamonds > 0),
    "two_of_clubs": lambda score: int(score.two_of_clubs > 0),
    "aces": lambda score: score.aces,
    "jacks": lambda score: score.jacks,
}
#: Each part's points in a breakdown.
PART_POINTS: dict[str, Any] = {
    "sur": lambda score: score.sur_points,
    "haft_khaj": lambda score: score.haft_khaj,
    "ten_of_diamonds": lambda score: score.ten_of_diamonds,
    "two_of_clubs": lambda score: score.two_of_clubs,
    "aces": lambda score: score.aces,
    "jacks": lambda score: score.jacks,
}


@dataclass(frozen=True, slots=True)
class Reason:
    """Where ``better`` gains most over ``worse`` on the solved deals: the ``part`` of the round
    points, whose side it is about (``mine``: the better move wins it for the mover's side; else
    the worse move gives it to the other side), how much of it that side gets after each move (a
    mean count a deal, or for Surs, Haft Khaj, the 2♣ and the 10♦ the deals where it gets it), and
    the part's share of the points between the moves."""

    better: MoveCode
    worse: MoveCode
    part: str
    mine: bool
    after_better: float
    after_worse: float
    points: float
    deals: int

    def to_json(self) -> dict[str, Any]:
        return {
            "better": Move.from_code(self.better).to_json(),
            "worse": Move.from_code(self.worse).to_json(),
            "part": self.part,
            "mine": self.mine,
            "after_better": round(self.after_better, 3),
            "after_worse": round(self.after_worse, 3),
            "points": round(self.points, 3),
            "deals": self.deals,
        }


def reason_from_json(data: Any) -> Reason:
    """A reason as :meth:`Reason.to_json` wrote it (a puzzle file, a kept analysis); ValueError
    saying what is wrong."""
    try:
        better, worse = (
            Move(Card.parse(data[key]["card"]), tuple(Card.parse(card) for card in data[key]["take"]))
            for key in ("better", "worse")
        )
        part = str(data["part"])
        if part not in PARTS:
            raise ValueError(f"no part of the points is called {part!r}")
        return Reason(
            better.code,
            worse.code,
            part,
            bool(data["mine"]),
            float(data["after_better"]),
            float(data["after_worse"]),
            float(data["points"]),
            int(data["deals"]),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"the reason is malformed: {error}") from None


def explain(
    game: Round, better: MoveCode, worse: MoveCode, seed: int, deals: int = REASON_DEALS, sure: bool = False
) -> Reason | None:
    """Why ``better`` beats ``worse`` in ``game``'s position, from the view of the seat to play;
    None with more than two sides, without the native core, or when no part favours ``better``
    on the deals solved (with ``sure``, also when the part's 95% interval over the deals reaches
    0: a reason that may be the deals' luck is left unsaid)."""
    if solve_problem(game) is not None or better == worse:
        return None
    rng = random.Random(seed)
    view = game.view(game.turn)
    side = game.side_of(game.turn)
    lines: dict[MoveCode, list[list[SideScore]]] = {better: [], worse: []}
    best_part, best_share = None, 0.0
    while best_part is None and len(lines[better]) < deals * MORE_DEALS:
        for _ in range(deals if not lines[better] else deals * (MORE_DEALS - 1)):
            dealt = Round.from_view(view, rng)
            for code in (better, worse):
                lines[code].append(line_end(dealt, code))
        # the largest gain among the parts that surely favour the better move (95% above 0); if
        # none does, the surest one (the largest mean less a standard error), so that a certain
        # 2♣ outweighs a Haft Khaj won or lost by chance in a few deals
        gains = {part: paired_gain(points, lines[better], lines[worse], side) for part, points in PART_POINTS.items()}
        surely = [(share, part) for part, (share, error) in gains.items() if share - 1.96 * error > 0]
        if surely:
            best_share, best_part = max(surely)
        elif not sure:
            surest = max(gains, key=lambda part: gains[part][0] - gains[part][1])
            if gains[surest][0] > 0:
                best_part, best_share = surest, gains[surest][0]
    if best_part is None:
        return None
    counted = PARTS[best_part]
    frequency = best_part not in ("aces", "jacks")

    def gets(code: MoveCode, own: bool) -> float:
        found = [
            sum(counted(score) for number, score in enumerate(end) if (number == side) == own) for end in lines[code]
        ]
        return float(sum(count > 0 for count in found)) if frequency else statistics.fmean(found)

    mine_gain = gets(better, True) - gets(worse, True)
    their_gain = gets(worse, False) - gets(better, False)
    mine = mine_gain > their_gain
    solved = len(lines[better])
    return Reason(better, worse, best_part, mine, gets(better, mine), gets(worse, mine), best_share, solved)


def paired_gain(
    points: Any, after: list[list[SideScore]], before: list[list[SideScore]], side: int
) -> tuple[float, float]:
    """A part's mean net gain after one move over the other on the same deals, and its standard
    error (infinite from one deal)."""
    gains = [
        net_points(points, one, side) - net_points(points, other, side)
        for one, other in zip(after, before, strict=True)
    ]
    if len(gains) < 2:
        return statistics.fmean(gains), math.inf
    return statistics.fmean(gains), statistics.stdev(gains) / math.sqrt(len(gains))


def line_end(dealt: Round, code: MoveCode) -> list[SideScore]:
    """The breakdown at the end of the solver's line after ``code`` on a dealt position."""
    game = dealt.copy()
    game.play_code(code)
    if not game.over:
        try:
            line = solve(game).line
        except SolveError:
            return game.breakdown()
        for move in line:
            game.play(Move.parse(move))
    return game.breakdown()


def net_points(points: Any, end: list[SideScore], side: int) -> float:
    """A part's points to ``side`` less the other side's."""
    return float(sum(points(score) if number == side else -points(score) for number, score in enumerate(end)))


def reason_line(reason: Reason, lang: str = "en", isolate: bool = False) -> str:
    """The reason in one line: "the other side makes a Sur in 9 of 64 solved deals after 7♠ × 4♦,
    in 1 after lay 4♣ (Surs: 2.8 points)"."""
    words = {
        name: move_words(str(move.card), [str(card) for card in move.take], lang, isolate)
        for name, move in (("better", Move.from_code(reason.better)), ("worse", Move.from_code(reason.worse)))
    }
    first, second = ("better", "worse") if reason.mine else ("worse", "better")
    counts = (reason.after_better, reason.after_worse) if reason.mine else (reason.after_worse, reason.after_better)
    frequency = reason.part not in ("aces", "jacks")
    places = 1 if frequency or round(counts[0], 1) != round(counts[1], 1) else 2
    shown = [number_text(round(count) if frequency else round(count, places), lang) for count in counts]
    event = text(
        f"reason_event_{reason.part}",
        lang,
        first=words[first],
        count=shown[0],
        deals=reason.deals,
        other=shown[1],
        second=words[second],
    )
    return text(
        "reason_line",
        lang,
        who=text("reason_you" if reason.mine else "reason_they", lang),
        event=event,
        part=text(f"reason_part_{reason.part}", lang),
        points=number_text(round(reason.points, 1), lang),
    )
