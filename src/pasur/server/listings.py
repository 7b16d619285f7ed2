"""The lobby's lists of a process's public tables: those waiting for people and the matches under
way, newest first, a page at a time (a cursor names where the next page starts)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import TableError
from .projection import shown_names
from .seats import TABLE_ID, TableStatus
from .tables import TableRoom

#: Public tables in one page of the lobby, at most.
LISTED_TABLES = 20


def open_tables(
    rooms: dict[str, TableRoom], cursor: str | None = None, limit: int = LISTED_TABLES
) -> tuple[list[dict[str, Any]], str | None]:
    """The public tables waiting for people, newest first, at most ``limit`` after ``cursor``
    (the ``next`` of the page before); and the cursor of the next page, None at the end.
    TableError for a cursor this server did not give."""
    page, following = _page(
        rooms, lambda room: room.status is TableStatus.OPEN and any(seat.open for seat in room.seats), cursor, limit
    )
    return [room.settings.listing(room.id) for room in page], following


def live_tables(
    rooms: dict[str, TableRoom], cursor: str | None = None, limit: int = LISTED_TABLES
) -> tuple[list[dict[str, Any]], str | None]:
    """The public matches under way, to watch, newest first, a page at a time as
    `open_tables()` gives them: who plays (each seat's shown names), the match score and
    the round."""
    page, following = _page(rooms, lambda room: room.status is TableStatus.PLAYING, cursor, limit)
    for room in page:
        room.replication.wake()  # the score as it is now (a match may have ended meanwhile)
    return [_live_listing(room) for room in page if room.status is TableStatus.PLAYING], following


def _page(
    rooms: dict[str, TableRoom], listed: Callable[[TableRoom], bool], cursor: str | None, limit: int
) -> tuple[list[TableRoom], str | None]:
    """The public tables for which ``listed`` holds, newest first, at most ``limit`` after
    ``cursor``, and the cursor of the next page (None at the end)."""
    after = _cursor_key(cursor) if cursor else None
    keys = sorted(
        ((room.created, table_id) for table_id, room in rooms.items() if room.settings.public and listed(room)),
        reverse=True,
    )
    if after is not None:
        keys = [key for key in keys if key < after]
    page = keys[:limit]
    following = f"{page[-1][0]}.{page[-1][1]}" if len(keys) > limit else None
    return [rooms[table_id] for _, table_id in page], following


def _live_listing(room: TableRoom) -> dict[str, Any]:
    """What the lobby shows of a match under way."""
    assert room.match is not None
    return {
        "id": room.id,
        "players": room.rules.players,
        "seats": shown_names(room.seats),
        "scores": list(room.match.scores),
        "round": len(room.match.rounds),
        "target": room.rules.target,
        "watching": room.audience.spectators(),
    }


def _cursor_key(cursor: str) -> tuple[int, str]:
    """A lobby cursor read back (``created.id``); TableError if it is not one."""
    created, dot, table_id = cursor.partition(".")
    if not (dot and created.isascii() and created.isdigit() and len(created) <= 20 and TABLE_ID.fullmatch(table_id)):
        raise TableError("bad_cursor")
    return int(created), table_id
