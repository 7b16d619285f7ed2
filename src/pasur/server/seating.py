"""Who sits where at one table, its own settings and its status: each change (but a move's, and a
resign's) is one of the seat rules of `seats` (pure functions of the settings and status),
made with the table held, stored (again on the table as read back while another process changed it
first) and told to the others."""

from __future__ import annotations

import secrets
import time
from dataclasses import replace
from typing import Any

from . import messages
from .errors import TableError
from .room import Room
from .seats import TableStatus, freed, joined, moved, seated, started, under_way


class Seating:
    """The changes of one table's seats, settings and status."""

    def __init__(self, room: Room) -> None:
        self.room = room

    async def join(
        self, name: str, seat: int | None = None, account: int | None = None, network: str = ""
    ) -> tuple[int, str]:
        """Take an open seat (the first, unless one is named), as ``account`` when signed in, from
        the visitor ``network``; the seat and its new token (`seats.joined()`)."""
        room = self.room
        token = secrets.token_urlsafe(18)
        await room.settle(lambda: room.take(joined(room.settings, room.status, name, seat, account, network, token)))
        room.tell("table")
        room.audience.touched = time.monotonic()
        taken = room.settings.seat_of(token)
        assert taken is not None
        return taken, token

    async def change_seat(self, seat: int | None, to: int) -> None:
        """Before the start, a person moves to an open seat (`seats.moved()`)."""
        room = self.room
        await room.settle(lambda: room.take(moved(room.settings, room.status, seat, to)))
        room.tell("table")

    async def free_seat(self, token: str | None, seat: int) -> dict[str, Any]:
        """The host frees the seat of a person who is away (`seats.freed()`); a round's end
        no longer waits for them."""
        room = self.room
        if not room.is_host(token):
            raise TableError("only_host_frees")

        async def free() -> None:
            here = 0 <= seat < len(room.seats) and room.audience.connected()[seat]
            await room.take(freed(room.settings, room.status, seat, here))
            room.waiting = room.waiting - {seat} if room.waiting is not None else None

        await room.settle(free)
        room.tell("table")
        await room.changed()
        return messages.freed(seat)

    async def start(self, token: str | None) -> None:
        """The host starts: open seats get the table's bot level (`seats.started()`)."""
        room = self.room
        if not room.is_host(token):
            raise TableError("host_only")

        async def begin() -> None:
            await room.take(started(room.settings, room.status), TableStatus.PLAYING)
            room.match = room.settings.new_match()

        await room.settle(begin)
        room.tell("table")
        await room.changed()

    async def abandon(self) -> None:
        """End the match under way as abandoned: its moves are kept, nothing more is played."""
        room = self.room

        async def end() -> None:
            under_way(room.status)
            await room.take(status=TableStatus.ABANDONED)

        await room.settle(end)
        if room.hub is not None:
            room.hub.release(room.id)
        room.tell("table")
        await room.changed()

    async def set_pace(self, seat: int | None, fast: bool) -> dict[str, Any]:
        """A player asks the bots to play at the usual pace or faster: kept with the table's settings
        (StorageUnavailable, and nothing changes, when the store does not answer)."""
        room = self.room
        seat = seated(seat)
        await room.settle(lambda: room.take(replace(room.settings, fast=fast)))
        room.tell("table")
        return messages.pace(fast)

    async def record_rematch(self, table_id: str) -> None:
        """Keep, with this finished table, the id of its rematch (called with the table held)."""
        room = self.room
        await room.again_if_changed(lambda: room.take(replace(room.settings, rematch=table_id)))
        room.tell("table")
