"""A person's puzzle rating and streak: each try of a puzzle is rated as a match against the
puzzle (the ladder's model), whose rating is its difficulty's bot level. A signed-in person's is
kept with their account, each puzzle rated on its first try only; a guest's is kept by their
page, which sends it with a try (it is theirs alone: puzzle ratings are on no board)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..coach.puzzles import DIFFICULTIES, Puzzle
from .bots import BOT_RATINGS
from .errors import StorageUnavailable
from .ratings import START, START_DEVIATION, Rating, rate
from .rows import PuzzleRatingRow
from .store import Store, storage

#: A puzzle's rating: that of the level named as its difficulty (an easy puzzle's answer is the
#: greedy bot's move, a medium's the expert's; a hard one's neither), on the people's scale.
PUZZLE_RATINGS = {difficulty: float(BOT_RATINGS[difficulty]) for difficulty in DIFFICULTIES}
#: How far a puzzle's rating may be off (it is fixed: the person's rating moves against it).
PUZZLE_DEVIATION = 100.0
#: Times a try is written again when another try of the same account changed the rating meanwhile.
RETRIES = 3


def rated(puzzle: Puzzle, right: bool, before: Rating) -> Rating:
    """The person's puzzle rating after a try, rated as a match won or lost against the puzzle."""
    (after,), _puzzle = rate(
        [[before], [Rating(PUZZLE_RATINGS[puzzle.difficulty], PUZZLE_DEVIATION)]], 0 if right else 1
    )
    return after


def rating_json(after: Rating, before: Rating, streak: int | None = None) -> dict[str, Any]:
    """A rating as a try's answer gives it: with the change, and the streak when it is kept here."""
    return {**after.to_json(), "change": round(after.value - before.value), "streak": streak}


def guest_try(puzzle: Puzzle, right: bool, value: float | None, deviation: float | None) -> dict[str, Any]:
    """A guest's puzzle rating after a try, from the one their page keeps (a new player's when
    none): nothing is kept here."""
    before = Rating(value if value is not None else START, deviation or START_DEVIATION)
    return rating_json(rated(puzzle, right, before), before)


@storage
def standing(store: Store, account_id: int) -> dict[str, Any]:
    """The account's puzzle rating and streak (a new player's when it has tried none)."""
    with Session(store.engine) as session:
        row = session.get(PuzzleRatingRow, account_id)
    rating = Rating(row.value, row.deviation) if row is not None else Rating()
    return {**rating.to_json(), "streak": row.streak if row is not None else 0, "tried": _tried_count(row)}


@storage
def rate_try(store: Store, account_id: int, puzzle: Puzzle, right: bool) -> dict[str, Any]:
    """Rate the account's try of ``puzzle`` (its first only: a puzzle tried before changes
    nothing), keep it, and say the rating after it with the change and the streak."""
    for _ in range(RETRIES):
        with Session(store.engine) as session:
            row = session.get(PuzzleRatingRow, account_id)
            tried = json.loads(row.tried) if row is not None else []
            before = Rating(row.value, row.deviation) if row is not None else Rating(START, START_DEVIATION)
            streak = row.streak if row is not None else 0
        if puzzle.id in tried:
            return rating_json(before, before, streak)
        after, streak = rated(puzzle, right, before), streak + 1 if right else 0
        values = {
            "value": after.value,
            "deviation": after.deviation,
            "streak": streak,
            "tried": json.dumps([*tried, puzzle.id]),
        }
        try:
            with store.engine.begin() as connection:
                if row is None:
                    connection.execute(insert(PuzzleRatingRow).values(account_id=account_id, **values))
                    return rating_json(after, before, streak)
                # written only over what was read: a try of the same account meanwhile reads again
                changed = update(PuzzleRatingRow).where(
                    PuzzleRatingRow.account_id == account_id, PuzzleRatingRow.tried == row.tried
                )
                if connection.execute(changed.values(**values)).rowcount == 1:
                    return rating_json(after, before, streak)
        except IntegrityError:
            pass  # made meanwhile by another try: read again
    raise StorageUnavailable("storage_unavailable")


def _tried_count(row: PuzzleRatingRow | None) -> int:
    return len(json.loads(row.tried)) if row is not None else 0


__all__ = ["PUZZLE_RATINGS", "guest_try", "rate_try", "rated", "rating_json", "standing"]
