"""Matches played on a device with no server (the page's offline table), added by a signed-in
player to their history. The record is replayed under its rules from the seed it was shuffled
from, and kept as a finished table, so that its record, replay and review work as any table's. It
is never rated and never counted in a player's games, wins or figures: nothing played on a device
is watched, so the site shows it only for what it is ("on a device")."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..bots import LEVELS
from ..coach.lesson import LESSON_DECK
from ..core import Match, RecordError, from_record
from .errors import TableError, TooManyRequests
from .messages import DeviceGame
from .names import person_name
from .results import Outcome, result_rows
from .rows import MoveRow, ResultRow, ResultSeatRow, TableRow
from .seats import Seat, TableSettings, TableStatus
from .store import Store, storage

#: Matches played on a device an account may add in a day.
DEVICE_GAMES_A_DAY = 50


@dataclass(frozen=True, slots=True)
class DeviceMatch:
    """A match played on a device, replayed here: the table it makes, and its moves as stored."""

    table_id: str
    settings: TableSettings
    match: Match
    moves: list[tuple[int, str]]


def device_match(game: DeviceGame, account_id: int, account_name: str) -> DeviceMatch:
    """The table a match played on a device makes: its id (the same for the same match added
    twice by one account), its settings (the account's player at ``game.seat``) and its match
    replayed from the seed (a lesson's first round from the lesson's deck). TableError says what
    is wrong: a record the rules refuse (``bad_record``), one not played to its end, seats that do
    not fit it, or rounds that the seed does not deal (``device_game_not_dealt``)."""
    try:
        played = from_record(game.record)
    except RecordError as error:
        raise TableError("bad_record", problem=str(error)[:200]) from None
    rules = played.rules
    if not played.over:
        raise TableError("device_game_unfinished")
    if len(game.seats) != rules.players or game.seat >= rules.players or game.seats[game.seat].bot is not None:
        raise TableError("bad_device_seats")
    seats = []
    for index, seat in enumerate(game.seats):
        if index == game.seat:
            seats.append(Seat(name=account_name, account=account_id))
        elif seat.bot is not None:
            if seat.bot not in LEVELS:
                raise TableError("bad_device_seats")
            seats.append(Seat(bot=seat.bot))
        else:
            seats.append(Seat(name=person_name(seat.name or "")))
    lesson_deck = LESSON_DECK if game.lesson else None
    settings = TableSettings(
        rules=rules, seed=int(game.seed), seats=tuple(seats), host_hash="", lesson_deck=lesson_deck
    )
    dealt = settings.new_match()
    moves: list[tuple[int, str]] = []  # each move's seat and short text, as the tables store them
    for game_round in played.rounds:
        if dealt.over or dealt.rounds[-1].deck != game_round.deck:
            raise TableError("device_game_not_dealt")
        for code in game_round.history:
            moves.append((dealt.rounds[-1].turn, dealt.rounds[-1].move_text(code)))
            dealt.play(code)
    digest = hashlib.sha256(f"{account_id}:{game.seed}:{json.dumps(game.record, sort_keys=True)}".encode())
    return DeviceMatch("d" + digest.hexdigest()[:15], settings, dealt, moves)


@storage
def add_device_game(store: Store, account_id: int, device: DeviceMatch) -> None:
    """Keep a match played on a device as a finished table with its moves and its result (never
    rated), in one transaction. TableError ``device_game_added`` when this account added it
    already; TooManyRequests past `DEVICE_GAMES_A_DAY` a day."""
    table_id, settings, match = device.table_id, device.settings, device.match
    now = datetime.now(UTC)
    since = (now - timedelta(days=1)).isoformat(timespec="seconds")
    made = now.isoformat(timespec="seconds")
    try:
        with Session(store.engine) as session, session.begin():
            if session.get(TableRow, table_id) is not None:
                raise TableError("device_game_added")
            added = session.scalar(
                select(func.count())
                .select_from(ResultRow)
                .join(ResultSeatRow, ResultSeatRow.table_id == ResultRow.table_id)
                .where(ResultSeatRow.account_id == account_id, ResultRow.device, ResultRow.finished >= since)
            )
            if (added or 0) >= DEVICE_GAMES_A_DAY:
                raise TooManyRequests("too_many_device_games", count=DEVICE_GAMES_A_DAY)
            settings_json = json.dumps(settings.to_json())
            session.add(TableRow(id=table_id, settings=settings_json, status=TableStatus.FINISHED.value, created=made))
            session.flush()  # the table first: its moves and result refer to it
            session.add_all(
                MoveRow(table_id=table_id, version=version, seat=seat, move=text)
                for version, (seat, text) in enumerate(device.moves, start=1)
            )
            result, seats = result_rows(session, table_id, settings, match, Outcome(match.winner or 0), made)
            result.device = True
            session.add(result)
            session.flush()
            session.add_all(seats)
    except IntegrityError:  # the same match added at the same moment through another request
        raise TableError("device_game_added") from None
