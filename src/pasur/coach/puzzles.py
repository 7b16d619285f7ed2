"""Puzzles from real play: positions where one move is clearly best, and every move's worth is
exact from the player's own view.

At two players a position is exact in the round's **last deal** (the pack is empty: every card not
in the player's hand, on the table or taken is in the other hand, so the open-deck solver's value
is the truth), and in the **deal before it** when every arrangement of the unseen cards — which of
them the other player holds, and which four of the pack each player gets in the last deal — is
solved and the values averaged (each arrangement is as likely as any other). A position makes a
puzzle when the best value beats every other by at least `MARGIN` points and the best moves
are one move in substance (twin cards aside). Its difficulty
says which bot finds the answer: ``easy`` the greedy one, ``medium`` the expert, ``hard`` neither.
The deal before the last is averaged with open cards, which no player has: such a puzzle is kept
only when its answer also wins when played out (`played_gain()`: the answer and the best other
move on sampled arrangements, every seat then played by the bot from its own view).

A puzzle travels as ``pasur-puzzle/1`` JSON (`Puzzle.to_json()`): the player's view (as
BOT-PROTOCOL.md writes it, no hidden card), the answers, every move's value, the margin, how it was
made exact and the difficulty. Why the answer beats a move tried is worked out when it is tried
(`tried_reason()`), about that move.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..bots.judgement import move_substance
from ..bots.registry import make_bot
from ..core import Card, Match, Move, MoveCode, Round, SeatView
from ..core.cards import FULL_DECK, cards_in, mask_of
from ..core.errors import RecordError, SolveError
from ..core.record import load_json
from ..core.solver import solve, solve_problem
from ..core.stats import t_quantile
from ..core.view import is_number, whole_number
from .reasons import Reason, explain

__all__ = [
    "FORMAT",
    "MARGIN",
    "PLAY_OUT_DEALS",
    "LineStep",
    "Puzzle",
    "best_line",
    "exact_values",
    "find_puzzles",
    "played_gain",
    "puzzle_problem",
    "read_puzzles",
    "shipped_puzzles",
    "tried_reason",
]

FORMAT = "pasur-puzzle/1"
#: Points the best move must beat every other move by.
MARGIN = 1.0
#: How a puzzle's values were made exact.
EXACTNESS = ("last_deal", "every_arrangement")
DIFFICULTIES = ("easy", "medium", "hard")
#: Cards a hand is dealt.
HAND = 4
#: The puzzles that come with pasur, found by ``pasur puzzles`` in self-play (JSON Lines).
SHIPPED = Path(__file__).with_name("puzzles.jsonl")
#: Arrangements a puzzle of the deal before the last is played out on, and the bot that plays.
PLAY_OUT_DEALS = 256
PLAY_OUT_BOT = "solver"
#: The most puzzles one file may hold, and the longest line (a puzzle file is not trusted).
MOST_PUZZLES = 10_000
LONGEST_LINE = 64 * 1024


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position from a seat's view, its best moves and every legal move's exact value (the
    round's final points, the seat's side minus the other), and what makes it a puzzle."""

    view: SeatView
    values: dict[str, float]
    answers: tuple[str, ...]
    margin: float
    exact: str
    arrangements: int
    difficulty: str
    source: dict[str, Any] | None = None

    @property
    def id(self) -> str:
        """Twelve hex digits from the view: the same position is the same puzzle."""
        return hashlib.sha256(json.dumps(self.view.to_json(), sort_keys=True).encode()).hexdigest()[:12]

    def is_answer(self, move: Move) -> bool:
        """Whether ``move`` is one of the best."""
        return move.text() in self.answers

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "id": self.id,
            "view": self.view.to_json(),
            "values": {text: round(value, 4) for text, value in self.values.items()},
            "answers": list(self.answers),
            "margin": round(self.margin, 4),
            "exact": self.exact,
            "arrangements": self.arrangements,
            "difficulty": self.difficulty,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: Any) -> Puzzle:
        """Read a puzzle; ValueError saying what is wrong (the file is not trusted)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} puzzle")
        view = SeatView.from_json(data.get("view"))
        if view.rules.players != 2 or view.turn != view.seat or view.over:
            raise ValueError("the puzzle's view is not of a 2-player seat to play")
        legal = {move.text() for move in view.legal_moves()}
        values, answers = data.get("values"), data.get("answers")
        if not isinstance(values, dict) or set(values) != legal:
            raise ValueError("the puzzle's values are not one for each legal move")
        if not isinstance(answers, list) or not answers or not all(isinstance(text, str) for text in answers):
            raise ValueError("the puzzle's answers must be a list of move texts")
        if not set(answers) <= legal:
            raise ValueError("the puzzle's answers are not legal moves")
        if data.get("exact") not in EXACTNESS or data.get("difficulty") not in DIFFICULTIES:
            raise ValueError("the puzzle says neither how it is exact nor how hard it is")
        if not all(is_number(value) for value in values.values()) or not is_number(data.get("margin")):
            raise ValueError("the puzzle's values and margin must be numbers")
        if not isinstance(data.get("id", ""), str):
            raise ValueError("the puzzle's id must be a string")
        source = data.get("source")
        if source is not None and not isinstance(source, dict):
            raise ValueError("the puzzle's source must be a JSON object")
        return cls(
            view=view,
            values={str(text): float(value) for text, value in values.items()},
            answers=tuple(answers),
            margin=float(data["margin"]),
            exact=str(data["exact"]),
            arrangements=whole_number(data.get("arrangements"), "arrangements"),
            difficulty=str(data["difficulty"]),
            source=source,
        )


def arrangement_count(view: SeatView) -> int:
    """How many ways the cards ``view``'s seat cannot see may lie, in one of the last two deals
    at two players: the other hand, and the last deal's two hands."""
    unseen, held = len(view.unseen()), view.hands[1 - view.seat]
    return math.comb(unseen, held) * math.comb(unseen - held, HAND) if view.pack else 1


def exact_values(view: SeatView, most_arrangements: int | None = None) -> tuple[dict[MoveCode, float], str, int] | None:
    """Every legal move's exact value from ``view`` (the seat's side minus the other), how it is
    exact and over how many arrangements; None where it cannot be: more than two players, neither
    of the last two deals, more arrangements than ``most_arrangements``, or no native core."""
    rules = view.rules
    if rules.players != 2 or view.over or view.turn != view.seat or view.pack not in (0, 2 * HAND):
        return None
    if most_arrangements is not None and arrangement_count(view) > most_arrangements:
        return None
    template = Round.from_view(view, random.Random(0))
    if solve_problem(template) is not None:
        return None
    sign = 1 if template.side_of(view.seat) == 0 else -1
    totals: dict[MoveCode, float] = {}
    count = 0
    for game in _arrangements(template, view):
        for move in solve(game).moves:
            totals[move.code] = totals.get(move.code, 0.0) + sign * move.value
        count += 1
    exact = "last_deal" if view.pack == 0 else "every_arrangement"
    return {code: total / count for code, total in totals.items()}, exact, count


def _arrangements(template: Round, view: SeatView) -> Iterator[Round]:
    """Every way the unseen cards may lie: the other hand, and which four of the pack go to the
    round's first player in the last deal (the rest to the other)."""
    if view.pack == 0:
        yield template
        return
    other = 1 - view.seat
    unseen = mask_of(view.unseen())
    seen = tuple(cards_in(FULL_DECK & ~unseen))
    cards = cards_in(unseen)
    for held in itertools.combinations(cards, view.hands[other]):
        rest = [card for card in cards if card not in held]
        for first in itertools.combinations(rest, HAND):
            game = template.copy()
            game.hands[other] = mask_of(held)
            game.deck = seen + held + first + tuple(card for card in rest if card not in first)
            yield game


def find_puzzles(
    match: Match, margin: float = MARGIN, seed: int = 0, most_arrangements: int | None = None
) -> list[Puzzle]:
    """The puzzles among the positions of a 2-player match's rounds (none at more players),
    leaving out positions of more than ``most_arrangements`` arrangements."""
    if match.rules.players != 2:
        return []
    found = []
    for recorded in match.rounds:
        game = Round(match.rules, recorded.deck, recorded.number, recorded.banked, check_deck=False)
        for index, code in enumerate(recorded.history):
            if game.pack in (0, 2 * HAND) and len(game.legal_codes()) > 1:
                source = {
                    "round": game.number,
                    "move": index + 1,
                    "seat": game.turn,
                    "played": Move.from_code(code).text(),
                }
                puzzle = puzzle_of(game.view(game.turn), margin, seed, source, most_arrangements)
                if puzzle is not None:
                    found.append(puzzle)
            game.play_code(code)
    return found


def puzzle_of(
    view: SeatView,
    margin: float = MARGIN,
    seed: int = 0,
    source: dict[str, Any] | None = None,
    most_arrangements: int | None = None,
) -> Puzzle | None:
    """The puzzle a position makes, or None: not exact, or no move best by ``margin`` points."""
    found = exact_values(view, most_arrangements)
    if found is None:
        return None
    values, exact, count = found
    best = max(values.values())
    answers = [code for code, value in values.items() if value >= best - 1e-9]
    others = [value for code, value in values.items() if code not in answers]
    if not others or best - max(others) < margin or len({move_substance(code) for code in answers}) > 1:
        return None  # no clear answer, or two answers that differ in more than a twin card
    return Puzzle(
        view=view,
        values={Move.from_code(code).text(): value for code, value in values.items()},
        answers=tuple(Move.from_code(code).text() for code in answers),
        margin=best - max(others),
        exact=exact,
        arrangements=count,
        difficulty=_difficulty(view, answers, seed),
        source=source,
    )


def tried_reason(puzzle: Puzzle, tried: Move, seed: int = 0) -> Reason | None:
    """Why the answer beats the move tried (for an answer, the next best move), from the solver's
    lines: exact in the last deal, over sampled arrangements in the deal before it."""
    better = Move.parse(puzzle.answers[0])
    if puzzle.is_answer(tried):
        others = [text for text in puzzle.values if text not in puzzle.answers]
        worse = Move.parse(max(others, key=puzzle.values.__getitem__))
    else:
        worse = tried
    loss = puzzle.values[better.text()] - puzzle.values[worse.text()]
    game = Round.from_view(puzzle.view, random.Random(seed))
    return explain(game, better.code, worse.code, seed, loss=loss)


@dataclass(frozen=True, slots=True)
class LineStep:
    """One move of a best line: whether the puzzle's side plays it, the move, and what the felt
    shows after it: the table (before the last sweep) and the puzzle's hand."""

    mine: bool
    move: Move
    table: tuple[Card, ...]
    hand: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            **self.move.to_json(),
            "mine": self.mine,
            "table": [str(card) for card in self.table],
            "hand": [str(card) for card in self.hand],
        }


def best_line(puzzle: Puzzle) -> list[LineStep] | None:
    """The best line to the round's end, when every card is known (the last deal); None otherwise
    (no one line is best for every arrangement)."""
    if puzzle.exact != "last_deal":
        return None
    game = Round.from_view(puzzle.view, random.Random(0))
    seat, side = game.turn, game.side_of(game.turn)
    line = []
    for text in solve(game).line:
        mine = game.side_of(game.turn) == side
        played = game.play(text)
        line.append(LineStep(mine, played.move, tuple(cards_in(played.table)), tuple(cards_in(game.hands[seat]))))
    return line


def played_gain(puzzle: Puzzle, deals: int = PLAY_OUT_DEALS, bot: str = PLAY_OUT_BOT) -> tuple[float, float, float]:
    """What the answer gains over the best other move when played out, and its 95% interval: on
    ``deals`` arrangements dealt consistently with the puzzle's view (the same ones for both
    moves), each move is played and every seat then plays as ``bot`` does from its own view to
    the round's end (the mover's side's points less the other's)."""
    answer = Move.parse(puzzle.answers[0])
    others = [text for text in puzzle.values if text not in puzzle.answers]
    other = Move.parse(max(others, key=puzzle.values.__getitem__))
    rng = random.Random(puzzle.id)
    gains = []
    for deal in range(deals):
        game = Round.from_view(puzzle.view, rng)
        gains.append(_played_out(game, answer, bot, deal) - _played_out(game, other, bot, deal))
    mean = statistics.fmean(gains)
    spread = t_quantile(deals - 1) * statistics.stdev(gains) / math.sqrt(deals) if deals > 1 else math.inf
    return mean, mean - spread, mean + spread


def _played_out(game: Round, move: Move, bot: str, seed: int) -> float:
    """The mover's side's round points less the other's after ``move`` and the bot's play."""
    side = game.side_of(game.turn)
    game = game.copy()
    game.play(move)
    bots = [make_bot(bot, seed + seat) for seat in range(game.rules.players)]
    while not game.over:
        view = game.view(game.turn)
        game.play(bots[game.turn].choose(view, view.legal_moves()))
    points = game.points()
    return float(2 * points[side] - sum(points))


def _difficulty(view: SeatView, answers: list[MoveCode], seed: int) -> str:
    """``easy`` when the greedy bot plays an answer, ``medium`` when only the expert does, else
    ``hard``."""
    legal = view.legal_moves()
    for level, bot in (("easy", "greedy"), ("medium", "expert")):
        if make_bot(bot, seed).choose(view, legal).code in answers:
            return level
    return "hard"


def puzzle_problem(puzzle: Puzzle) -> str | None:
    """What is wrong with a puzzle when solved again (None: its values, answers and margin hold)."""
    try:
        found = exact_values(puzzle.view)
    except SolveError as error:
        return str(error)
    if found is None:
        return "the position is not exact (two players, one of the last two deals)"
    values, exact, count = found
    texts = {Move.from_code(code).text(): value for code, value in values.items()}
    if exact != puzzle.exact or count != puzzle.arrangements:
        return f"it is exact over {count} arrangements ({exact}), not {puzzle.arrangements} ({puzzle.exact})"
    wrong = [text for text, value in texts.items() if abs(value - puzzle.values.get(text, float("nan"))) > 1e-3]
    if wrong:
        return f"the values of {', '.join(sorted(wrong))} differ"
    best = max(texts.values())
    answers = sorted(text for text, value in texts.items() if value >= best - 1e-9)
    if answers != sorted(puzzle.answers):
        return f"the best moves are {answers}, not {sorted(puzzle.answers)}"
    margin = best - max(value for text, value in texts.items() if text not in answers)
    if abs(margin - puzzle.margin) > 1e-3:
        return f"the margin is {margin:.3f}, not {puzzle.margin:.3f}"
    return None


def read_puzzles(text: str) -> list[Puzzle]:
    """The puzzles of a ``pasur-puzzle/1`` JSON Lines text; ValueError naming the first bad line."""
    puzzles: list[Puzzle] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if len(line) > LONGEST_LINE or len(puzzles) >= MOST_PUZZLES:
            raise ValueError(f"line {number}: more than a puzzle file may hold")
        try:
            puzzles.append(Puzzle.from_json(load_json(line)))
        except (RecordError, ValueError) as error:
            raise ValueError(f"line {number}: {error}") from None
    return puzzles


@cache
def shipped_puzzles() -> tuple[Puzzle, ...]:
    """The puzzles that come with pasur."""
    return tuple(read_puzzles(SHIPPED.read_text(encoding="utf-8")))
