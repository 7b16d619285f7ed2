"""What the site shows of its players, read from the kept results (`results`): a player's
page (ratings, figures, the rating's course and their matches) and the leaderboards (all time by
rating, and the week's league by rating gained, settled ratings first, with last week's podium)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from ..coach.analysis import accuracy, judged_choice
from .bots import BOT_RATINGS_AT, RATED_TABLES
from .errors import NoSuchTable, TableError
from .names import account_named
from .ratings import PROVISIONAL, Rating
from .rows import AccountRow, AnalysisRow, RatingRow, ResultRow, ResultSeatRow
from .store import Store, storage

#: The most matches a player's history lists.
HISTORY = 50
#: The most points of a player's rating graph (their latest rated matches).
GRAPH = 200
#: The most players a leaderboard lists.
BOARD = 100
#: The places of a podium.
PODIUM = 3


@storage
def player_record(store: Store, name: str, history: int = HISTORY, skip: int = 0) -> dict[str, Any]:
    """A player's page: their name; their rating at 2 players (``rating``) and at each kind of
    rated table (``ratings``: "2", "3", "4" in partnership, "4-each"); games and wins and their
    figures over every round they played (matches played on a device aside: those are listed,
    never counted); the course of each rating (``graph``); and their matches, newest first
    (``history`` of them after the newest ``skip``). NoSuchTable (404) for a name no account has."""
    with Session(store.engine) as session:
        account = account_named(session, name)
        if account is None:
            raise NoSuchTable("no_such_player", name=name[:64])
        mine = ResultSeatRow.account_id == account.id
        games, wins, rounds, points, surs, haft_khaj = session.execute(
            select(
                func.count(),
                func.count().filter(ResultSeatRow.won),
                func.coalesce(func.sum(ResultSeatRow.rounds), 0),
                func.coalesce(func.sum(ResultSeatRow.points), 0),
                func.coalesce(func.sum(ResultSeatRow.surs), 0),
                func.coalesce(func.sum(ResultSeatRow.haft_khaj), 0),
            )
            .join(ResultRow, ResultRow.table_id == ResultSeatRow.table_id)
            .where(mine, ResultRow.device.is_(False))  # a match on a device is shown, never counted
        ).one()
        ratings = {
            row.kind: row for row in session.scalars(select(RatingRow).where(RatingRow.account_id == account.id))
        }
        return {
            "name": account.name,
            "rating": _rating_json(ratings.get("2")),
            "ratings": {kind: _rating_json(ratings.get(kind)) for kind in RATED_TABLES},
            "games": games,
            "wins": wins,
            "figures": {
                "rounds": rounds,
                "points_per_round": round(points / rounds, 2) if rounds else None,
                "surs_per_round": round(surs / rounds, 3) if rounds else None,
                "haft_khaj_rate": round(haft_khaj / rounds, 3) if rounds else None,
                **_reviewed(session, account.id),
            },
            "graph": _graph(session, account.id),
            "history": _history(session, account.id, history, skip),
        }


#: The latest reviewed rated matches a player's accuracy is taken over.
REVIEWED = 50


def _reviewed(session: Session, account_id: int) -> dict[str, Any]:
    """The player's accuracy and mean loss a move with a choice over the reviews kept of their
    latest `REVIEWED` rated matches (None for each when there is none)."""
    rows = session.execute(
        select(AnalysisRow.moves, ResultSeatRow.seat)
        .join(ResultSeatRow, ResultSeatRow.table_id == AnalysisRow.table_id)
        .join(ResultRow, ResultRow.table_id == AnalysisRow.table_id)
        .where(ResultSeatRow.account_id == account_id, ResultSeatRow.rating_after.is_not(None))
        .order_by(ResultRow.finished.desc())
        .limit(REVIEWED)
    ).all()
    losses = [
        float(one["loss"])
        for moves, seat in rows
        for one in json.loads(moves)
        if one["seat"] == seat and judged_choice(one)
    ]
    mean_loss = sum(losses) / len(losses) if losses else None
    return {
        "reviewed_matches": len(rows),
        "mean_loss": round(mean_loss, 3) if mean_loss is not None else None,
        "accuracy": accuracy(mean_loss) if mean_loss is not None else None,
    }


def _rating_json(row: RatingRow | None) -> dict[str, Any]:
    """A rating as shown (a new player's when there is none yet), with its rated matches."""
    rating = Rating(row.value, row.deviation) if row is not None else Rating()
    return {**rating.to_json(), "games": row.games if row is not None else 0}


def _graph(session: Session, account_id: int) -> dict[str, list[dict[str, Any]]]:
    """Each rating's course, oldest first: where it stood before the first of the latest
    `GRAPH` rated matches, then after each."""
    rows = session.execute(
        select(ResultRow.finished, ResultRow.kind, ResultSeatRow.rating_before, ResultSeatRow.rating_after)
        .join(ResultRow, ResultRow.table_id == ResultSeatRow.table_id)
        .where(ResultSeatRow.account_id == account_id, ResultSeatRow.rating_after.is_not(None))
        .order_by(ResultRow.finished.desc(), ResultRow.table_id.desc())
        .limit(GRAPH)
    ).all()
    graph: dict[str, list[dict[str, Any]]] = {kind: [] for kind in RATED_TABLES}
    for finished, kind, before, after in reversed(rows):
        line = graph.setdefault(kind, [])
        if not line:
            line.append({"finished": None, "rating": round(before or 0)})
        line.append({"finished": finished, "rating": round(after or 0)})
    return graph


def _history(session: Session, account_id: int, limit: int, skip: int) -> list[dict[str, Any]]:
    """The player's matches, newest first (``limit`` after the newest ``skip``): when, who else
    sat, the scores, the result, whether it was played on a device, and at a rated table the
    rating before and after."""
    rows = session.execute(
        select(ResultSeatRow, ResultRow)
        .join(ResultRow, ResultRow.table_id == ResultSeatRow.table_id)
        .where(ResultSeatRow.account_id == account_id)
        .order_by(ResultRow.finished.desc(), ResultRow.table_id.desc())
        .offset(skip)
        .limit(limit)
    ).all()
    tables = [result.table_id for _, result in rows]
    seated: dict[str, list[ResultSeatRow]] = {table: [] for table in tables}
    for seat in session.scalars(select(ResultSeatRow).where(ResultSeatRow.table_id.in_(tables))):
        seated[seat.table_id].append(seat)
    return [
        {
            "table": result.table_id,
            "finished": result.finished,
            "players": result.players,
            "kind": result.kind,
            "seat": own.seat,
            "won": own.won,
            "scores": json.loads(result.scores),
            "side": own.side,
            "rated": result.rated,
            "device": result.device,
            "ended": result.ended,
            "rating": None
            if own.rating_after is None or own.rating_before is None
            else {"before": round(own.rating_before), "after": round(own.rating_after)},
            "others": [
                {"name": other.name, "bot": other.bot, "side": other.side}
                for other in sorted(seated[result.table_id], key=lambda seat: seat.seat)
                if other.seat != own.seat
            ],
        }
        for own, result in rows
    ]


def week_start(now: datetime) -> datetime:
    """The start of the league week ``now`` falls in: the Monday before, at midnight UTC."""
    day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday())


@storage
def leaderboard(store: Store, period: str, kind: str, now: datetime | None = None) -> dict[str, Any]:
    """The leaderboard of rated matches at the kind of table ``kind`` ("2", "3", "4" in partnership
    or "4-each"): ``period`` "all" ranks every rated player by rating (settled ratings first,
    provisional ones after); "week" ranks the week's league (since Monday, midnight UTC) by rating
    gained, and keeps last week's podium. The bots' fixed ratings come apart, under ``bots``."""
    if period not in ("all", "week"):
        raise TableError("bad_period")
    if kind not in RATED_TABLES:
        raise TableError("bad_table_kind")
    measured = BOT_RATINGS_AT[kind]
    bots = [{"level": level, "rating": rating} for level, rating in sorted(measured.items(), key=lambda i: -i[1])]
    board: dict[str, Any] = {"period": period, "table": kind, "bots": bots}
    with Session(store.engine) as session:
        if period == "all":
            board["leaders"] = _all_time(session, kind)
        else:
            start = week_start(now or datetime.now(UTC))
            board["week"] = {"start": start.isoformat(), "end": (start + timedelta(days=7)).isoformat()}
            board["leaders"] = _league(session, kind, start, start + timedelta(days=7), BOARD)
            board["last_week"] = _league(session, kind, start - timedelta(days=7), start, PODIUM)
    return board


def _all_time(session: Session, kind: str) -> list[dict[str, Any]]:
    rows = session.execute(
        select(AccountRow.name, RatingRow)
        .join(AccountRow, AccountRow.id == RatingRow.account_id)
        .where(RatingRow.kind == kind, RatingRow.games > 0)
        .order_by(RatingRow.value.desc())
        .limit(BOARD * 4)
    ).all()
    ranked = sorted(rows, key=lambda row: (Rating(row[1].value, row[1].deviation).provisional, -row[1].value))
    return [
        {"rank": rank, "name": name, **Rating(row.value, row.deviation).to_json(), "games": row.games}
        for rank, (name, row) in enumerate(ranked[:BOARD], start=1)
    ]


def _league(session: Session, kind: str, start: datetime, end: datetime, limit: int) -> list[dict[str, Any]]:
    """The league of the week from ``start`` to ``end``: each player's rated matches, wins and
    rating gained, most gained first, settled ratings before provisional ones (a new account's
    first jumps never top it), as the all-time board orders them."""
    gained = func.sum(ResultSeatRow.rating_after - ResultSeatRow.rating_before)
    wins = func.count().filter(ResultSeatRow.won)
    provisional = case((RatingRow.deviation > PROVISIONAL, 1), else_=0)
    rows = session.execute(
        select(AccountRow.name, func.count(), wins, gained)
        .join(ResultSeatRow, ResultSeatRow.account_id == AccountRow.id)
        .join(ResultRow, ResultRow.table_id == ResultSeatRow.table_id)
        .join(RatingRow, (RatingRow.account_id == AccountRow.id) & (RatingRow.kind == kind))
        .where(
            ResultRow.rated,
            ResultRow.kind == kind,
            ResultRow.finished >= start.isoformat(timespec="seconds"),
            ResultRow.finished < end.isoformat(timespec="seconds"),
            ResultSeatRow.rating_after.is_not(None),
        )
        .group_by(AccountRow.id, AccountRow.name, RatingRow.deviation)
        .order_by(provisional, gained.desc(), wins.desc(), AccountRow.name)
        .limit(limit)
    ).all()
    return [
        {"rank": rank, "name": name, "games": games, "wins": won, "gained": round(gain or 0)}
        for rank, (name, games, won, gain) in enumerate(rows, start=1)
    ]
