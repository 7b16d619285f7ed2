"""The puzzles' HTTP API: the puzzle of the day, a stream by difficulty, and an answer checked.
The puzzles are those that come with pasur (``pasur puzzles`` found them; a test solves each
again). A puzzle is sent as its player's view and legal moves, never its answer; the answer, every
move's exact value and the reason come back once a move is tried."""

from __future__ import annotations

import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from ..coach.puzzles import DIFFICULTIES, Puzzle, shipped_puzzles
from ..coach.reasons import reason_from_json, reason_line
from ..core import IllegalMove, Move
from ..i18n import LANGUAGES
from .errors import NoSuchPuzzle, PassedOn, TableError
from .messages import PuzzleAnswer


def public_puzzle(puzzle: Puzzle) -> dict[str, Any]:
    """What the page shows of a puzzle before it is tried: the view and the legal moves."""
    return {
        "id": puzzle.id,
        "difficulty": puzzle.difficulty,
        "exact": puzzle.exact,
        "arrangements": puzzle.arrangements,
        "margin": round(puzzle.margin, 2),
        "view": puzzle.view.to_json(),
        "legal": [{**move.to_json(), "move": move.text()} for move in puzzle.view.legal_moves()],
    }


def puzzle_routes() -> APIRouter:
    routes = APIRouter()
    puzzles = shipped_puzzles()
    by_id = {puzzle.id: puzzle for puzzle in puzzles}

    @routes.get("/api/puzzles")
    def stream(
        difficulty: Annotated[str, Query(max_length=8)] = "", index: Annotated[int, Query(ge=0, le=1_000_000)] = 0
    ) -> dict[str, Any]:
        """The ``index``-th puzzle of a difficulty (all when none), round and round."""
        if difficulty and difficulty not in DIFFICULTIES:
            raise TableError("no_such_difficulty", difficulty=difficulty[:40])
        chosen = [puzzle for puzzle in puzzles if difficulty in ("", puzzle.difficulty)]
        if not chosen:
            raise NoSuchPuzzle("no_such_puzzle")
        return {
            "count": len(chosen),
            "index": index % len(chosen),
            "puzzle": public_puzzle(chosen[index % len(chosen)]),
        }

    @routes.get("/api/puzzles/daily")
    def daily() -> dict[str, Any]:
        """Today's puzzle (UTC): the same for everyone all day."""
        if not puzzles:
            raise NoSuchPuzzle("no_such_puzzle")
        today = datetime.datetime.now(datetime.UTC).date()
        return {"date": today.isoformat(), "puzzle": public_puzzle(puzzles[today.toordinal() % len(puzzles)])}

    @routes.post("/api/puzzles/{puzzle_id}/answer")
    def answer(puzzle_id: Annotated[str, Path(pattern="^[0-9a-f]{12}$")], body: PuzzleAnswer) -> dict[str, Any]:
        """Whether a move is best, then the answer, every move's exact value and why."""
        puzzle = by_id.get(puzzle_id)
        if puzzle is None:
            raise NoSuchPuzzle("no_such_puzzle")
        try:
            move = puzzle.view.read_move(body.move)
        except IllegalMove as error:
            raise PassedOn(error) from None
        reason = reason_from_json(puzzle.reason) if puzzle.reason else None
        return {
            "right": puzzle.is_answer(move),
            "tried": move.to_json(),
            "answers": [Move.parse(text).to_json() for text in puzzle.answers],
            "values": [
                {**Move.parse(text).to_json(), "value": round(value, 2)}
                for text, value in sorted(puzzle.values.items(), key=lambda item: -item[1])
            ],
            "margin": round(puzzle.margin, 2),
            "reasons": {lang: reason_line(reason, lang, isolate=True) for lang in LANGUAGES} if reason else None,
        }

    return routes
