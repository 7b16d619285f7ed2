"""The puzzles' HTTP API: the puzzle of the day, a stream by difficulty, and an answer checked.
The puzzles are those that come with pasur (``pasur puzzles`` found them; a test solves each
again). A puzzle is sent as its player's view and legal moves, never its answer; the answer, every
move's value and why the answer beats the move tried come back once it is tried (worked out then,
once a puzzle and move: the shipped puzzles bound that work, whoever asks)."""

from __future__ import annotations

import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from ..coach.puzzles import DIFFICULTIES, Puzzle, best_line, shipped_puzzles, tried_reason
from ..coach.reasons import reason_line
from ..core import IllegalMove, Move
from ..core.cards import RANK_NAMES
from ..i18n import LANGUAGES
from .accounts import COOKIE, CSRF_HEADER, Accounts
from .errors import NoSuchPuzzle, NotSignedIn, PassedOn, TableError
from .messages import PuzzleAnswer
from .puzzle_standing import guest_try, rate_try, standing


def public_puzzle(puzzle: Puzzle) -> dict[str, Any]:
    """What the page shows of a puzzle before it is tried: the view and the legal moves, how many
    moves are best (twin cards may be), and what a player there knows besides: the cards not yet
    seen counted by rank."""
    unseen = [card.rank for card in puzzle.view.unseen()]
    return {
        "id": puzzle.id,
        "difficulty": puzzle.difficulty,
        "exact": puzzle.exact,
        "arrangements": puzzle.arrangements,
        "margin": round(puzzle.margin, 2),
        "best_count": len(puzzle.answers),
        "unseen": [[RANK_NAMES[rank], unseen.count(rank)] for rank in sorted(set(unseen))],
        "view": puzzle.view.to_json(),
        "legal": [{**move.to_json(), "move": move.text()} for move in puzzle.view.legal_moves()],
    }


def solution(puzzle: Puzzle) -> dict[str, Any]:
    """What a try shows of a puzzle, whatever was tried: its answers, every move's worth (best
    first) and, in the last deal, the best line."""
    return {
        "answers": [{**Move.parse(text).to_json(), "move": text} for text in puzzle.answers],
        "values": [
            {**Move.parse(text).to_json(), "value": round(value, 2)}
            for text, value in sorted(puzzle.values.items(), key=lambda item: -item[1])
        ],
        "margin": round(puzzle.margin, 2),
        "line": [step.to_json() for step in best_line(puzzle) or []],
    }


class PuzzleShelf:
    """The shipped puzzles as the API serves them: by difficulty and by day; why the answer beats
    a move tried, worked out once per puzzle and move (the shipped set bounds that work); and the
    whole set with its solutions for offline play, made once, when first asked for."""

    def __init__(self, puzzles: tuple[Puzzle, ...]) -> None:
        self.puzzles = puzzles
        self.by_id = {puzzle.id: puzzle for puzzle in puzzles}
        self._reasons: dict[tuple[str, str], dict[str, str] | None] = {}
        self._offline: list[dict[str, Any]] = []

    def stream(self, difficulty: str, index: int) -> dict[str, Any]:
        """The ``index``-th puzzle of a difficulty (all when none), round and round."""
        if difficulty and difficulty not in DIFFICULTIES:
            raise TableError("no_such_difficulty", difficulty=difficulty[:40])
        chosen = [puzzle for puzzle in self.puzzles if difficulty in ("", puzzle.difficulty)]
        if not chosen:
            raise NoSuchPuzzle("no_such_puzzle")
        return {
            "count": len(chosen),
            "index": index % len(chosen),
            "puzzle": public_puzzle(chosen[index % len(chosen)]),
        }

    def daily(self) -> dict[str, Any]:
        """Today's puzzle (UTC): the same for everyone all day."""
        if not self.puzzles:
            raise NoSuchPuzzle("no_such_puzzle")
        today = datetime.datetime.now(datetime.UTC).date()
        return {"date": today.isoformat(), "puzzle": public_puzzle(self.puzzles[today.toordinal() % len(self.puzzles)])}

    def tried(self, puzzle_id: str, text: str) -> tuple[Puzzle, Move]:
        """The puzzle and the legal move a try names; NoSuchPuzzle, or the move's refusal."""
        puzzle = self.by_id.get(puzzle_id)
        if puzzle is None:
            raise NoSuchPuzzle("no_such_puzzle")
        try:
            return puzzle, puzzle.view.read_move(text)
        except IllegalMove as error:
            raise PassedOn(error) from None

    def reasons(self, puzzle: Puzzle, move: Move) -> dict[str, str] | None:
        """Why the answer beats ``move``, in each language (None when no reason was found)."""
        key = (puzzle.id, move.text())
        if key not in self._reasons:
            reason = tried_reason(puzzle, move)
            self._reasons[key] = (
                {lang: reason_line(reason, lang, isolate=True) for lang in LANGUAGES} if reason else None
            )
        return self._reasons[key]

    def offline(self) -> dict[str, Any]:
        """Every puzzle with its solution, for the page to ask them without the network."""
        if not self._offline:
            self._offline.extend({**public_puzzle(puzzle), **solution(puzzle)} for puzzle in self.puzzles)
        return {"puzzles": self._offline}


def puzzle_routes(accounts: Accounts) -> APIRouter:
    routes = APIRouter()
    shelf = PuzzleShelf(shipped_puzzles())

    @routes.get("/api/puzzles")
    def stream(
        difficulty: Annotated[str, Query(max_length=8)] = "", index: Annotated[int, Query(ge=0, le=1_000_000)] = 0
    ) -> dict[str, Any]:
        return shelf.stream(difficulty, index)

    @routes.get("/api/puzzles/daily")
    def daily() -> dict[str, Any]:
        return shelf.daily()

    @routes.get("/api/puzzles/standing")
    def my_standing(request: Request) -> dict[str, Any]:
        """The signed-in account's puzzle rating and streak."""
        signed = accounts.signed_in(request.cookies.get(COOKIE))
        if signed is None:
            raise NotSignedIn("not_signed_in")
        return standing(accounts.store, signed.account.id)

    @routes.post("/api/puzzles/{puzzle_id}/answer")
    def answer(
        puzzle_id: Annotated[str, Path(pattern="^[0-9a-f]{12}$")], body: PuzzleAnswer, request: Request
    ) -> dict[str, Any]:
        """Whether a move is best, then the answer, every move's worth and why; and the puzzle
        rating after it: the signed-in account's, kept (its first try of a puzzle only), or the
        one the page sent for a guest."""
        puzzle, move = shelf.tried(puzzle_id, body.move)
        right = puzzle.is_answer(move)
        signed = accounts.changing_as(request.cookies.get(COOKIE), request.headers.get(CSRF_HEADER))
        if signed is not None:
            rating = rate_try(accounts.store, signed.account.id, puzzle, right)
        else:
            rating = guest_try(puzzle, right, body.rating, body.deviation)
        reasons = shelf.reasons(puzzle, move)
        return {"right": right, "rating": rating, "tried": move.to_json(), **solution(puzzle), "reasons": reasons}

    @routes.get("/api/puzzles/offline")
    def every_puzzle() -> dict[str, Any]:
        """Every shipped puzzle with its solution (the service worker keeps this): the reasons and
        the rating need the server."""
        return shelf.offline()

    return routes
