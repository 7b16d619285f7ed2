"""Finished matches, kept once each with who sat where, and a player's record read from them:
games, wins and the list of their matches, newest first."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..core import Match
from .errors import NoSuchTable
from .names import skeleton
from .seats import TableSettings, token_hash
from .store import AccountRow, ResultRow, ResultSeatRow, Store, TableRow, storage

#: The most matches a player's history lists.
HISTORY = 50


@storage
def record_result(store: Store, table_id: str, settings: TableSettings, match: Match) -> bool:
    """Keep a finished match's result and its seats; False when it was kept already (by this
    process or another: the table is the key, so a result is kept exactly once)."""
    assert match.winner is not None
    rules = settings.rules
    try:
        with Session(store.engine) as session, session.begin():
            session.add(
                ResultRow(
                    table_id=table_id,
                    finished=datetime.now(UTC).isoformat(timespec="seconds"),
                    players=rules.players,
                    scores=json.dumps(list(match.scores)),
                    winner=match.winner,
                )
            )
            session.flush()  # the result first: the seats refer to it
            for index, seat in enumerate(settings.seats):
                side = rules.side_of(index)
                session.add(
                    ResultSeatRow(
                        table_id=table_id,
                        seat=index,
                        account_id=seat.account,
                        name=seat.name or "",
                        bot=seat.bot,
                        side=side,
                        won=side == match.winner,
                    )
                )
    except IntegrityError:
        return False
    return True


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


@storage
def player_record(store: Store, name: str) -> dict[str, Any]:
    """A player's page: their name, games and wins, and their matches (newest first, at most
    :data:`HISTORY`): when, the players, the scores and whether they won. NoSuchTable (404) for
    a name no account has."""
    with Session(store.engine) as session:
        account = session.scalars(select(AccountRow).where(AccountRow.name_key == skeleton(name[:200]))).first()
        if account is None:
            raise NoSuchTable(f"no player is called {name[:64]!r}", "no_such_player", name=name[:64])
        mine = select(ResultSeatRow).where(ResultSeatRow.account_id == account.id)
        games = session.scalar(select(func.count()).select_from(mine.subquery())) or 0
        wins = session.scalar(select(func.count()).select_from(mine.where(ResultSeatRow.won).subquery())) or 0
        rows = session.execute(
            select(ResultSeatRow, ResultRow)
            .join(ResultRow, ResultRow.table_id == ResultSeatRow.table_id)
            .where(ResultSeatRow.account_id == account.id)
            .order_by(ResultRow.finished.desc(), ResultRow.table_id)
            .limit(HISTORY)
        ).all()
        tables = [result.table_id for _, result in rows]
        seated: dict[str, list[ResultSeatRow]] = {table: [] for table in tables}
        for seat in session.scalars(select(ResultSeatRow).where(ResultSeatRow.table_id.in_(tables))):
            seated[seat.table_id].append(seat)
        history = [
            {
                "table": result.table_id,
                "finished": result.finished,
                "players": result.players,
                "seat": own.seat,
                "won": own.won,
                "scores": json.loads(result.scores),
                "side": own.side,
                "others": [
                    {"name": other.name, "bot": other.bot, "side": other.side}
                    for other in sorted(seated[result.table_id], key=lambda seat: seat.seat)
                    if other.seat != own.seat
                ],
            }
            for own, result in rows
        ]
        return {"name": account.name, "rating": None, "games": games, "wins": wins, "history": history}
