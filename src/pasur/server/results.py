"""Finished matches, kept once each with who sat where, and at a rated table the ratings they
changed, in the same transaction (`players` reads them back).

What a rated result may not be made of (the cheapest ways to fake a rating, as lichess guards
against them): a match ended before each seat made `MOVES_TO_COUNT` moves is *aborted*,
never rated; two accounts are rated against each other at most `RATED_PAIRS_A_DAY` times a
day; a win against bots whose expected score passed `EXPECTED_CAP` gains nothing. (Two
accounts from one network never sit at one rated table: `tables.TableRoom.join()`.)"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from sqlalchemy import func, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from ..core import Match
from .errors import ChangedElsewhere
from .ratings import Rating, bot_rating, expected_score, rate
from .rows import AccountRow, RatingRow, ResultRow, ResultSeatRow, TableRow
from .seats import TableSettings, TableStatus, token_hash
from .store import Store, storage

#: Moves each seat makes itself before a match ended early (resigned, abandoned, timed out) counts.
MOVES_TO_COUNT = 2
#: Rated results between the same two accounts a day (24 hours); the matches past it are kept unrated.
RATED_PAIRS_A_DAY = 3
#: A win against bots whose expected score was above this changes no rating.
EXPECTED_CAP = 0.9
#: The name the seat of an account deleted before its result was kept is shown under.
DELETED = "—"


class Ended(StrEnum):
    """How a match ended other than by the score (as its result keeps it)."""

    RESIGNED = "resigned"
    ABANDONED = "abandoned"
    #: Resigned or abandoned before it counted (`MOVES_TO_COUNT`): kept in place of how.
    ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended: the winning side, and how when not by the score (None);
    ``aborted`` when it ended so before each seat made `MOVES_TO_COUNT` moves (unrated,
    and won by nobody)."""

    winner: int
    ended: Ended | None = None
    aborted: bool = False


@storage
def record_result(
    store: Store, table_id: str, settings: TableSettings, match: Match, outcome: Outcome, revision: int | None = None
) -> bool:
    """Keep a finished match's result and its seats, and at a rated table its people's new
    ratings, in one transaction; False when it was kept already (by this process or another: the
    table is the key, so a result is kept, and a rating changes, exactly once). Given the table's
    ``revision``, the table is stored as finished with ``settings`` in the same transaction
    (`ChangedElsewhere`, and nothing is kept, when the stored table is past it)."""
    rules = settings.rules
    now = datetime.now(UTC).isoformat(timespec="seconds")
    try:
        with Session(store.engine) as session, session.begin():
            if revision is not None:
                finish = (
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.revision == revision)
                    .values(
                        settings=json.dumps(settings.to_json()),
                        status=TableStatus.FINISHED.value,
                        revision=revision + 1,
                    )
                )
                if session.execute(finish).rowcount != 1:  # type: ignore[attr-defined]
                    raise ChangedElsewhere("changed_elsewhere")
            if session.get(ResultRow, table_id) is not None:
                return False
            result, seats = result_rows(session, table_id, settings, match, outcome, now)
            rated = settings.rated and not outcome.aborted and not _met_too_often(session, seats, now)
            result.rated = rated
            session.add(result)
            session.flush()  # the result first: the seats refer to it, and a second try stops here
            if rated:
                _rate(session, rules.table, rules.sides, seats, outcome.winner, now)
            session.add_all(seats)
    except IntegrityError:
        with Session(store.engine) as session:  # kept by another process at the same moment
            if session.get(ResultRow, table_id) is not None:
                return False
        raise
    return True


def result_rows(
    session: Session, table_id: str, settings: TableSettings, match: Match, outcome: Outcome, now: str
) -> tuple[ResultRow, list[ResultSeatRow]]:
    """A finished match's result (unrated) and its seats' rows, to add in ``session``: a seat of an
    account deleted meanwhile is kept under `DELETED` (the accounts are locked until then)."""
    rules = settings.rules
    figures = _side_figures(match)
    accounts = {seat.account for seat in settings.seats if seat.account is not None}
    # locked until the result is kept: an account deleted meanwhile waits for it
    existing = set(session.scalars(select(AccountRow.id).where(AccountRow.id.in_(accounts)).with_for_update()))
    seats = []
    for index, seat in enumerate(settings.seats):
        side = rules.side_of(index)
        rounds, points, surs, haft_khaj = figures[side]
        gone = seat.account is not None and seat.account not in existing
        seats.append(
            ResultSeatRow(
                table_id=table_id,
                seat=index,
                account_id=None if gone else seat.account,
                name=DELETED if gone else seat.name or "",
                bot=seat.bot,
                side=side,
                won=side == outcome.winner and not outcome.aborted,
                rounds=rounds,
                points=points,
                surs=surs,
                haft_khaj=haft_khaj,
            )
        )
    result = ResultRow(
        table_id=table_id,
        finished=now,
        players=rules.players,
        kind=rules.table,
        scores=json.dumps(list(match.scores)),
        winner=outcome.winner,
        rated=False,
        ended=Ended.ABORTED if outcome.aborted else outcome.ended,
    )
    return result, seats


def _met_too_often(session: Session, seats: list[ResultSeatRow], now: str) -> bool:
    """Whether two accounts on opposite sides have had `RATED_PAIRS_A_DAY` rated results
    against each other in the day before ``now``."""
    since = (datetime.fromisoformat(now) - timedelta(days=1)).isoformat(timespec="seconds")
    mine, theirs = aliased(ResultSeatRow), aliased(ResultSeatRow)
    people = [seat for seat in seats if seat.account_id is not None]
    for one in people:
        for other in people:
            if one.side >= other.side:
                continue
            met = session.scalar(
                select(func.count())
                .select_from(mine)
                .join(theirs, theirs.table_id == mine.table_id)
                .join(ResultRow, ResultRow.table_id == mine.table_id)
                .where(
                    mine.account_id == one.account_id,
                    theirs.account_id == other.account_id,
                    mine.side != theirs.side,
                    ResultRow.rated,
                    ResultRow.finished >= since,
                )
            )
            if (met or 0) >= RATED_PAIRS_A_DAY:
                return True
    return False


def _side_figures(match: Match) -> list[tuple[int, int, int, int]]:
    """For each side, over the match's finished rounds: rounds, points, Surs, rounds with Haft Khaj."""
    figures = [(0, 0, 0, 0)] * match.rules.sides
    for game in match.rounds:
        if game.over:
            figures = [
                (rounds + 1, points + score.total, surs + score.surs, haft + (score.haft_khaj > 0))
                for (rounds, points, surs, haft), score in zip(figures, game.breakdown(), strict=True)
            ]
    return figures


#: A rating made the first time an account plays rated at a kind of table (another process may
#: make the same one at the same moment: the second does nothing).
_NEW_RATING = text(
    "INSERT INTO ratings (account_id, kind, value, deviation, games, updated) "
    "VALUES (:account, :kind, :value, :deviation, 0, :now) ON CONFLICT (account_id, kind) DO NOTHING"
)


def _rate(session: Session, kind: str, sides: int, seats: list[ResultSeatRow], winner: int, now: str) -> None:
    """Rate a finished match: each account's rating (locked until the transaction ends) and each
    bot's fixed one, side against side; the accounts' new ratings kept, and on each seat its
    rating before and after."""
    existing = {seat.account_id for seat in seats if seat.account_id is not None}
    for account in sorted(existing):  # one order everywhere: two matches ending together cannot deadlock
        start = Rating()
        session.execute(
            _NEW_RATING,
            {"account": account, "kind": kind, "value": start.value, "deviation": start.deviation, "now": now},
        )
    rows = {
        row.account_id: row
        for row in session.scalars(
            select(RatingRow)
            .where(RatingRow.account_id.in_(existing), RatingRow.kind == kind)
            .order_by(RatingRow.account_id)
            .with_for_update()
        )
    }
    before = [
        Rating(rows[seat.account_id].value, rows[seat.account_id].deviation)
        if seat.account_id in rows
        else bot_rating(seat.bot, kind)
        if seat.bot
        else Rating()  # an account deleted before its result was kept: as a new player
        for seat in seats
    ]
    sides_ratings = [[before[index] for index, seat in enumerate(seats) if seat.side == side] for side in range(sides)]
    after_by_side = [iter(side) for side in rate(sides_ratings, winner)]
    # beating bots one was all but sure to beat gains nothing (the weakest bot is no ladder)
    bots_only = all(seat.bot for seat in seats if seat.side != winner)
    too_easy = bots_only and expected_score(sides_ratings, winner) > EXPECTED_CAP
    for seat, old in zip(seats, before, strict=True):
        new = next(after_by_side[seat.side])
        row = rows.get(seat.account_id) if seat.account_id is not None else None
        if row is None:
            continue  # a bot's rating is fixed
        if too_easy and seat.side == winner:
            seat.rating_before = seat.rating_after = old.value
            seat.deviation_after = old.deviation
            continue
        row.value, row.deviation, row.games, row.updated = new.value, new.deviation, row.games + 1, now
        seat.rating_before, seat.rating_after, seat.deviation_after = old.value, new.value, new.deviation


@storage
def claim_guest_matches(store: Store, account_id: int, name: str, tokens: dict[str, str]) -> int:
    """Put the finished matches a browser played as a guest (``tokens``: its seat token at each
    table) under its new account: a seat whose token matches and that no account holds yet. How
    many were claimed; a wrong token claims nothing."""
    claimed = 0
    with Session(store.engine) as session, session.begin():
        for table_id, token in tokens.items():
            table = session.get(TableRow, table_id)  # in this one transaction, not a second connection
            if table is None:
                continue
            held = token_hash(token)
            seats = [
                index
                for index, seat in enumerate(json.loads(table.settings).get("seats", []))
                if seat.get("token_hash") == held
            ]
            unclaimed = select(ResultSeatRow).where(
                ResultSeatRow.table_id == table_id,
                ResultSeatRow.seat.in_(seats),
                ResultSeatRow.account_id.is_(None),
                ResultSeatRow.bot.is_(None),
            )
            for row in session.scalars(unclaimed):
                row.account_id, row.name = account_id, name
                claimed += 1
    return claimed
