"""Why one move is better than another, read from the solver's own lines.

The cards the mover cannot see are dealt at random a number of times, consistently with its view
(once when every card's place is known: the reason is then exact); on each deal the position
after either move is solved exactly (`pasur.solve()`) and its principal line played out to the
round's end. What each side takes **from the move on** (the line's end less the position's piles:
never what was taken before) says where the points went: Surs, Haft Khaj, the 10♦, the 2♣, Aces
and Jacks. A reason names the parts that make up most of the difference (together at least half
of it in points, at most three), each told as what the worse move lets the other side do or what
the better move lets the mover's side do. When the other side's very next move after the worse
one is the cause (the same capture on at least a quarter of the deals, twice as often as after the
better move: a Sur, the 10♦ taken), the reason says it in cards. Two sides only (the solver's
open-deck search); elsewhere there is no reason to give.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core import Card, Move, MoveCode, Round, SideScore
from ..core.cards import ACE, JACK
from ..core.errors import SolveError
from ..core.solver import solve, solve_problem
from ..core.stats import t_quantile
from ..i18n import cards_words, move_words, number_text, text

__all__ = ["REASON_DEALS", "LineEnd", "PartGain", "Reason", "Reply", "explain", "reason_from_json", "reason_line"]

#: Deals solved for a reason (each twice: after either move), and how many times more are solved
#: when none of them favours the better move in any part (Haft Khaj, say, is won in few deals).
REASON_DEALS = 64
MORE_DEALS = 2
#: The most parts one reason names.
MOST_PARTS = 3
#: The share of the deals on which the other side's same next move must take what is at stake
#: for the reason to name it.
REPLY_SHARE = 0.25

#: The parts of a side's round points a reason may name, with the breakdown's line of points.
PART_LINES = {
    "sur": "sur_points",
    "haft_khaj": "haft_khaj",
    "ten_of_diamonds": "ten_of_diamonds",
    "two_of_clubs": "two_of_clubs",
    "aces": "aces",
    "jacks": "jacks",
}
#: Parts told as how many deals it happens in (the others as a mean count a deal).
EVENTS = ("sur", "haft_khaj", "ten_of_diamonds", "two_of_clubs")
_TEN_OF_DIAMONDS, _TWO_OF_CLUBS = Card.parse("10D"), Card.parse("2C")


def part_points(part: str, score: SideScore) -> int:
    """A part's points in a side's breakdown."""
    return int(getattr(score, PART_LINES[part]))


def part_count(part: str, score: SideScore, now: SideScore) -> int:
    """How much of a part a side gets from the position ``now`` on to the line's end ``score``:
    the Surs made, the Aces and Jacks taken, whether it takes the 10♦ or the 2♣, and whether it
    wins Haft Khaj at the end (the clubs taken from now on decide it)."""
    if part == "sur":
        return score.surs - now.surs
    if part == "haft_khaj":
        return int(score.haft_khaj > 0)
    if part in ("aces", "jacks"):
        return int(getattr(score, part)) - int(getattr(now, part))
    return int(getattr(score, part) > 0 and not getattr(now, part) > 0)


@dataclass(frozen=True, slots=True)
class LineEnd:
    """What follows a move on one deal: the round's breakdown at the end of the solver's line, and
    the next move of the line (its seat, card, what it takes, whether it is a Sur), if any."""

    end: list[SideScore]
    reply: tuple[int, Card, tuple[Card, ...], bool] | None


@dataclass(frozen=True, slots=True)
class PartGain:
    """One part a reason names: whose side it is about (``mine``: the better move wins it for the
    mover's side; else the worse move gives it to the other side), how much of it that side gets
    from the move on after each move (the deals where it happens, or for Aces and Jacks a mean
    count a deal), and its points between the moves."""

    part: str
    mine: bool
    after_better: float
    after_worse: float
    points: float

    def to_json(self) -> dict[str, Any]:
        return {
            "part": self.part,
            "mine": self.mine,
            "after_better": round(self.after_better, 3),
            "after_worse": round(self.after_worse, 3),
            "points": round(self.points, 3),
        }


@dataclass(frozen=True, slots=True)
class Reply:
    """The other side's next move after the worse one, the cause a player sees: the cards it takes
    (and the card it plays, when every card is known), whether it is a Sur, and in how many of the
    deals it comes."""

    card: Card | None
    take: tuple[Card, ...]
    sur: bool
    deals: int

    def to_json(self) -> dict[str, Any]:
        return {
            "card": str(self.card) if self.card is not None else None,
            "take": [str(card) for card in self.take],
            "sur": self.sur,
            "deals": self.deals,
        }


@dataclass(frozen=True, slots=True)
class Reason:
    """Why ``better`` beats ``worse``: the parts that make up most of the difference, largest
    first; the deals solved (one when ``exact``: every card's place was known); and the other
    side's next move when it is the cause."""

    better: MoveCode
    worse: MoveCode
    parts: tuple[PartGain, ...]
    deals: int
    exact: bool = False
    reply: Reply | None = None

    @property
    def points(self) -> float:
        """The named parts' points together."""
        return sum(part.points for part in self.parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "better": Move.from_code(self.better).to_json(),
            "worse": Move.from_code(self.worse).to_json(),
            "parts": [part.to_json() for part in self.parts],
            "deals": self.deals,
            "exact": self.exact,
            "reply": self.reply.to_json() if self.reply else None,
        }


def reason_from_json(data: Any) -> Reason:
    """A reason as `Reason.to_json()` wrote it (a puzzle file, a kept analysis); ValueError
    saying what is wrong."""
    try:
        better, worse = (
            Move(Card.parse(data[key]["card"]), tuple(Card.parse(card) for card in data[key]["take"]))
            for key in ("better", "worse")
        )
        parts = []
        for part in data["parts"][:MOST_PARTS]:
            if part["part"] not in PART_LINES:
                raise ValueError(f"no part of the points is called {part['part']!r}")
            fields = (float(part[key]) for key in ("after_better", "after_worse", "points"))
            parts.append(PartGain(str(part["part"]), bool(part["mine"]), *fields))
        reply = data.get("reply")
        return Reason(
            better.code,
            worse.code,
            tuple(parts),
            int(data["deals"]),
            bool(data.get("exact", False)),
            None
            if reply is None
            else Reply(
                Card.parse(reply["card"]) if reply["card"] is not None else None,
                tuple(Card.parse(card) for card in reply["take"]),
                bool(reply["sur"]),
                int(reply["deals"]),
            ),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"the reason is malformed: {error}") from None


def explain(
    game: Round,
    better: MoveCode,
    worse: MoveCode,
    seed: int,
    deals: int = REASON_DEALS,
    sure: bool = False,
    loss: float = 0.0,
    ms: float | None = None,
) -> Reason | None:
    """Why ``better`` beats ``worse`` in ``game``'s position, from the view of the seat to play;
    None with more than two sides, without the native core, or when no part favours ``better``
    on the deals solved (with ``sure``, also when a part's 95% interval over the deals reaches 0:
    a reason that may be the deals' luck is left unsaid). The parts named make up half of the
    difference on these deals, or of ``loss`` (a judge's, on its own deals) if that is more. With
    ``ms``, the deals solved within that many milliseconds of this thread's CPU (one at least)."""
    if solve_problem(game) is not None or better == worse:
        return None
    rng = random.Random(seed)
    view = game.view(game.turn)
    exact = view.sees_everything
    side = game.side_of(game.turn)
    now = game.breakdown()
    lines: dict[MoveCode, list[LineEnd]] = {better: [], worse: []}
    chosen: list[tuple[str, float]] = []
    stop = time.thread_time() + ms / 1000 if ms is not None else math.inf
    while not chosen and len(lines[better]) < (1 if exact else deals * MORE_DEALS):
        for _ in range(1 if exact else deals if not lines[better] else deals * (MORE_DEALS - 1)):
            if lines[better] and time.thread_time() >= stop:
                break
            dealt = Round.from_view(view, rng)
            for code in (better, worse):
                lines[code].append(line_end(dealt, code))
        chosen = _parts_to_name(lines[better], lines[worse], side, sure and not exact, loss)
        if time.thread_time() >= stop:
            break
    if not chosen:
        return None
    parts = tuple(_part_gain(part, points, lines[better], lines[worse], side, now) for part, points in chosen)
    reply = None if parts[0].mine else _reply(parts[0].part, lines[better], lines[worse], side, exact)
    return Reason(better, worse, parts, len(lines[better]), exact, reply)


def _parts_to_name(
    after: list[LineEnd], before: list[LineEnd], side: int, sure: bool, loss: float
) -> list[tuple[str, float]]:
    """The parts to name, largest first, with their points: those favouring the better move
    (surely, with ``sure``: the 95% interval above 0), until they make up half of the whole difference (or
    of ``loss``, if more)."""
    gains = {part: paired_gain(part, after, before, side) for part in PART_LINES}
    whole = max(loss, sum(gain for gain, _half in gains.values()))
    ranked = sorted(
        ((gain, part) for part, (gain, half) in gains.items() if gain > 0 and (not sure or gain - half > 0)),
        reverse=True,
    )
    chosen: list[tuple[str, float]] = []
    for gain, part in ranked[:MOST_PARTS]:
        chosen.append((part, gain))
        if sum(points for _part, points in chosen) >= whole / 2:
            break
    return chosen


def _part_gain(
    part: str, points: float, after: list[LineEnd], before: list[LineEnd], side: int, now: list[SideScore]
) -> PartGain:
    """A named part told from whichever side gains more of it: the mover's after the better move,
    or the other side's after the worse one."""

    def gets(ends: list[LineEnd], own: bool) -> float:
        found = [
            sum(part_count(part, score, now[number]) for number, score in enumerate(one.end) if (number == side) == own)
            for one in ends
        ]
        return float(sum(count > 0 for count in found)) if part in EVENTS else statistics.fmean(found)

    mine = gets(after, True) - gets(before, True) > gets(before, False) - gets(after, False)
    return PartGain(part, mine, gets(after, mine), gets(before, mine), points)


def _reply(part: str, after: list[LineEnd], before: list[LineEnd], side: int, exact: bool) -> Reply | None:
    """The other side's next move after the worse move when it is the part's cause: the same
    capture (of a Sur, the 10♦, the 2♣, an Ace or a Jack, as the part is) on at least a quarter
    of the deals, and at least twice as often as after the better move."""

    def causes(one: LineEnd) -> tuple[Card | None, tuple[Card, ...], bool] | None:
        if one.reply is None:
            return None
        seat_side, played, take, sur = one.reply
        won = set(take)  # the table's cards it takes (its own card was its side's already)
        relevant = {
            "sur": sur,
            "ten_of_diamonds": _TEN_OF_DIAMONDS in won,
            "two_of_clubs": _TWO_OF_CLUBS in won,
            "aces": any(card.rank == ACE for card in won),
            "jacks": any(card.rank == JACK for card in won),
        }.get(part, False)
        if seat_side == side or not relevant:
            return None
        return (played if exact else None, take, sur)

    found = Counter(cause for cause in map(causes, before) if cause is not None)
    if not found:
        return None
    (card, take, sur), count = found.most_common(1)[0]
    also_after = sum(1 for one in after if (cause := causes(one)) is not None and cause[1:] == (take, sur))
    if REPLY_SHARE * len(before) > count or 2 * also_after > count:
        return None
    return Reply(card, take, sur, count)


def paired_gain(part: str, after: Sequence[LineEnd], before: Sequence[LineEnd], side: int) -> tuple[float, float]:
    """A part's mean net points after one move over the other on the same deals, and the half-width
    of its 95% interval (Student's t; infinite from one deal)."""
    gains = [
        net_points(part, one.end, side) - net_points(part, other.end, side)
        for one, other in zip(after, before, strict=True)
    ]
    if len(gains) < 2:
        return statistics.fmean(gains), math.inf
    return statistics.fmean(gains), t_quantile(len(gains) - 1) * statistics.stdev(gains) / math.sqrt(len(gains))


def line_end(dealt: Round, code: MoveCode) -> LineEnd:
    """What follows ``code`` on a dealt position along the solver's line: the breakdown at the
    round's end and the line's next move."""
    game = dealt.copy()
    game.play_code(code)
    reply = None
    if not game.over:
        try:
            line = solve(game).line
        except SolveError:
            return LineEnd(game.breakdown(), None)
        for index, move in enumerate(line):
            played = game.play(Move.parse(move))
            if index == 0:
                reply = (game.side_of(played.seat), played.move.card, tuple(played.move.take), played.sur)
    return LineEnd(game.breakdown(), reply)


def net_points(part: str, end: list[SideScore], side: int) -> float:
    """A part's points to ``side`` less the other side's."""
    return float(sum(part_points(part, score) * (1 if number == side else -1) for number, score in enumerate(end)))


def reason_line(reason: Reason, lang: str = "en", isolate: bool = False) -> str:
    """The reason in one line, e.g. "next move the other side takes K♦ (a Sur) in 40 of 64 solved
    deals after lay 9♦ — the other side makes a Sur in 41 of 64 solved deals after lay 9♦, in 2
    after 7♠ × 4♦ (Surs: 4.4 points)"; exact when every card was known."""
    words = {
        name: move_words(str(move.card), [str(card) for card in move.take], lang, isolate)
        for name, move in (("better", Move.from_code(reason.better)), ("worse", Move.from_code(reason.worse)))
    }
    said = [_part_line(part, reason, words, lang) for part in reason.parts]
    line = text("clause_join", lang).join(said)
    if reason.reply is None:
        return line
    reply = reason.reply
    taken = cards_words([str(card) for card in reply.take], lang, isolate)
    key = "reason_reply_sur" if reply.sur else "reason_reply"
    if reason.exact and reply.card is not None:
        cause = text(f"{key}_exact", lang, card=cards_words([str(reply.card)], lang, isolate), cards=taken)
    else:
        cause = text(key, lang, cards=taken, count=reply.deals, deals=reason.deals)
    return text("reason_with_reply", lang, worse=words["worse"], reply=cause, parts=line)


def _part_line(part: PartGain, reason: Reason, words: dict[str, str], lang: str) -> str:
    """One named part in words."""
    first, second = ("better", "worse") if part.mine else ("worse", "better")
    counts = (part.after_better, part.after_worse) if part.mine else (part.after_worse, part.after_better)
    frequency = part.part in EVENTS
    if reason.exact:
        one_sur = part.part == "sur" and (round(counts[0]), round(counts[1])) == (1, 0)
        key = "reason_exact_sur_one" if one_sur else f"reason_exact_{part.part}"
        shown = [number_text(round(count), lang) for count in counts]
    else:
        key = f"reason_event_{part.part}"
        places = 1 if frequency or round(counts[0], 1) != round(counts[1], 1) else 2
        shown = [number_text(round(count) if frequency else round(count, places), lang) for count in counts]
    event = text(
        key, lang, first=words[first], count=shown[0], deals=reason.deals, other=shown[1], second=words[second]
    )
    return text(
        "reason_line",
        lang,
        who=text("reason_you" if part.mine else "reason_they", lang),
        event=event,
        part=text(f"reason_part_{part.part}", lang),
        points=number_text(round(part.points) if reason.exact else round(part.points, 1), lang),
    )
