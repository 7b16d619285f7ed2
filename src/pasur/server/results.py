"""Finished matches, kept once each with who sat where, and at a rated table the ratings they
changed, in the same transaction (:mod:`.players` reads them back)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..core import Match
from .ratings import Rating, bot_rating, rate
from .seats import TableSettings, token_hash
from .store import AccountRow, RatingRow, ResultRow, ResultSeatRow, Store, TableRow, storage


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended: the winning side, and "resigned" or "abandoned" when not by the score."""

    winner: int
    ended: str | None = None


@storage
def record_result(store: Store, table_id: str, settings: TableSettings, match: Match, outcome: Outcome) -> bool:
    """Keep a finished match's result and its seats, and at a rated table its people's new
    ratings, in one transaction; False when it was kept already (by this process or another: the
    table is the key, so a result is kept, and a rating changes, exactly once)."""
    rules = settings.rules
    figures = _side_figures(match)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    try:
        with Session(store.engine) as session, session.begin():
            session.add(
                ResultRow(
                    table_id=table_id,
                    finished=now,
                    players=rules.players,
                    scores=json.dumps(list(match.scores)),
                    winner=outcome.winner,
                    rated=settings.rated,
                    ended=outcome.ended,
                )
            )
            session.flush()  # the result first: the seats refer to it, and a second try stops here
            seats = []
            for index, seat in enumerate(settings.seats):
                side = rules.side_of(index)
                rounds, points, surs, haft_khaj = figures[side]
                seats.append(
                    ResultSeatRow(
                        table_id=table_id,
                        seat=index,
                        account_id=seat.account,
                        name=seat.name or "",
                        bot=seat.bot,
                        side=side,
                        won=side == outcome.winner,
                        rounds=rounds,
                        points=points,
                        surs=surs,
                        haft_khaj=haft_khaj,
                    )
                )
            if settings.rated:
                _rate(session, rules.players, rules.sides, seats, outcome.winner, now)
            session.add_all(seats)
    except IntegrityError:
        return False
    return True


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


#: A rating made the first time an account plays rated at a player count (another process may
#: make the same one at the same moment: the second does nothing).
_NEW_RATING = text(
    "INSERT INTO ratings (account_id, players, value, deviation, games, updated) "
    "VALUES (:account, :players, :value, :deviation, 0, :now) ON CONFLICT (account_id, players) DO NOTHING"
)


def _rate(session: Session, players: int, sides: int, seats: list[ResultSeatRow], winner: int, now: str) -> None:
    """Rate a finished match: each account's rating (locked until the transaction ends) and each
    bot's fixed one, side against side; the accounts' new ratings kept, and on each seat its
    rating before and after."""
    accounts = {seat.account_id for seat in seats if seat.account_id is not None}
    existing = set(session.scalars(select(AccountRow.id).where(AccountRow.id.in_(accounts))))
    for account in sorted(existing):  # one order everywhere: two matches ending together cannot deadlock
        start = Rating()
        session.execute(
            _NEW_RATING,
            {"account": account, "players": players, "value": start.value, "deviation": start.deviation, "now": now},
        )
    rows = {
        row.account_id: row
        for row in session.scalars(
            select(RatingRow)
            .where(RatingRow.account_id.in_(existing), RatingRow.players == players)
            .order_by(RatingRow.account_id)
            .with_for_update()
        )
    }
    before = [
        Rating(rows[seat.account_id].value, rows[seat.account_id].deviation)
        if seat.account_id in rows
        else bot_rating(seat.bot or "")
        for seat in seats
    ]
    sides_ratings = [[before[index] for index, seat in enumerate(seats) if seat.side == side] for side in range(sides)]
    after_by_side = [iter(side) for side in rate(sides_ratings, winner)]
    for seat, old in zip(seats, before, strict=True):
        new = next(after_by_side[seat.side])
        row = rows.get(seat.account_id) if seat.account_id is not None else None
        if row is None:
            continue  # a bot's rating is fixed
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
