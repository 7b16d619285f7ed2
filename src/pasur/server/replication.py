"""Keeping one process's copy of a table in step with the others that hold it over one PostgreSQL
database (`shared`): what this copy tells them, and what it does with what they tell it.

A move another process stored comes with its notice when it is the next one here; otherwise (a
notice was lost) the moves are read from the database. The table itself routes the other notices
(ready, chat) to whom they concern. Nothing here applies a move of its own: the
moves read are replayed as they were made elsewhere (`tables.TableRoom.replay()`).

A process follows a table (hears each of its moves as it is made) only while somebody listens to
it here or the process runs it (`shared`). Another process's copy is left behind: nothing
wakes it, and it catches up (`Replication.wake()`) when it is next used here: a listener
connects, a request reads it, the sweep takes the table over. So with each table's sockets routed
to one process (docs/DEPLOY.md), a move costs the other processes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from .errors import ChangedElsewhere, StorageUnavailable
from .results import Outcome, record_result
from .room import Room
from .seats import TableSettings, TableStatus
from .store import StoredMove


class Replication:
    """What one table's copy here says to, and hears from, the other processes."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: The players heard to be ready for the next deal while this copy was left behind: by
        #: the version they said so at (None: the wait was over for all).
        self._ready: list[tuple[int, int | None]] = []

    def tell(self, kind: str, **fields: Any) -> None:
        """Announce a change here to the other server processes."""
        room = self.room
        if room.hub is not None:
            room.hub.tell(room.id, kind, **fields)

    async def store_table(self, settings: TableSettings, status: TableStatus) -> None:
        """Store the table as it will be with ``settings`` and ``status`` (in a thread: a slow or
        locked database holds up only this table); StorageUnavailable, and nothing changes, when
        the store does not answer; ChangedElsewhere when another process changed the table first
        (this copy has read it again then). Called with the table held."""
        room = self.room
        if room.store is not None:
            await self._past(room.store.update_table, room.id, settings.to_json(), status.value, room.revision)

    async def store_result(self, finished: TableSettings, outcome: Outcome) -> None:
        """Store the table as finished with ``finished`` and its match's result (`results.record_result()`)
        in one transaction; otherwise as `store_table()`."""
        room = self.room
        if room.store is not None and room.match is not None:
            await self._past(record_result, room.store, room.id, finished, room.match, outcome, room.revision)

    async def _past(self, store: Callable[..., object], *arguments: Any) -> None:
        """The table stored past its revision by ``store(*arguments)`` in a thread, or read again
        when another process changed it first (ChangedElsewhere)."""
        try:
            await asyncio.to_thread(store, *arguments)
        except ChangedElsewhere:
            self.reread_table()
            raise
        self.room.revision += 1

    def move_notice(self, move: StoredMove) -> str:
        """The notice to store with a move, sent once it is stored ("" when nothing is shared)."""
        room = self.room
        if room.hub is None:
            return ""
        return room.hub.notice(
            room.id,
            "move",
            version=move.version,
            seat=move.seat,
            move=move.move,
            client_id=move.client_id,
            timed=move.timed,
        )

    async def catch_up(self, told: bool = False) -> None:
        """Bring this copy up to date with the moves other processes stored; everyone here is
        sent the new state (also when ``told``, after a change of the table itself)."""
        async with self.room.changing:
            await self.caught_up(told)

    async def caught_up(self, told: bool = False) -> None:
        """`catch_up()`, with the table already held."""
        room = self.room
        if room.store is None or room.match is None:
            if told:
                await room.changed()
            return
        moves = room.store.moves(room.id, after=room.version)
        room.replay(moves)
        if moves or told:
            await room.changed()

    def kept_current(self) -> bool:
        """Whether this copy follows every move as it is heard: somebody listens here, or this
        process runs the table (its bots and timer), or nothing is shared."""
        room = self.room
        return room.hub is None or bool(room.audience.listeners) or room.hub.runs(room.id)

    def watched(self) -> None:
        """Somebody listens here now: the copy catches up, and follows the table's moves from now on."""
        room = self.room
        if room.hub is not None:
            room.hub.watch(room.id, True)
        self.wake()

    def unwatched(self) -> None:
        """Nobody listens here any more: the table's moves are no longer followed, unless run here."""
        room = self.room
        if room.hub is not None:
            room.hub.watch(room.id, False)

    def wake(self) -> None:
        """A copy whose table's moves this process does not follow catches up with those stored
        meanwhile (nobody here was sent them, so nobody here is sent anything now); not while
        the table changes here (that change reads what it needs)."""
        if not self.room.changing.locked():
            self._wake()

    async def woken(self) -> None:
        """`wake()`, once a change of the table under way here has ended."""
        async with self.room.changing:
            self._wake()

    def _wake(self) -> None:
        room = self.room
        if room.hub is None or room.hub.follows(room.id):
            return
        if room.store is not None and room.match is not None:
            room.replay(room.store.moves(room.id, after=room.version))
        for version, seat in self._ready:  # said at the end of the round the copy has reached
            if version == room.version and room.waiting is not None:
                room.waiting = None if seat is None else room.waiting - {seat} or None
        self._ready.clear()

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process stored a move (``move``), changed the table itself (``table``), or a
        player is ready for the next deal (``ready``)."""
        room = self.room
        kind, seat, version = notice.get("kind"), notice.get("seat"), notice.get("version")
        seat = seat if isinstance(seat, int) else None
        if not self.kept_current():  # noted only: the copy catches up when it is next used
            room.changed_at = time.monotonic()
            if kind == "table":
                self.reread_table()
            elif kind == "ready" and isinstance(version, int):
                self._ready.append((version, seat))
            return
        if kind == "ready":
            self.wake()  # who is still to say so depends on where the match is
            await room.ready(seat, tell=False)
            return
        async with room.changing:
            if kind == "move":
                await self._moved(notice)
            else:
                await self._reload()

    async def _moved(self, notice: dict[str, Any]) -> None:
        """Another process stored a move: the notice carries it when it is the next one here;
        else (a notice was missed) the moves are read from the database."""
        room = self.room
        version, seat, text, client_id = (notice.get(key) for key in ("version", "seat", "move", "client_id"))
        if room.match is None or not (
            version == room.version + 1
            and isinstance(seat, int)
            and isinstance(text, str)
            and (client_id is None or isinstance(client_id, str))
        ):
            await self.caught_up()
            return
        room.replay([StoredMove(version, seat, text, client_id, notice.get("timed") is True)])
        await room.changed()

    async def read_again(self) -> None:
        """Read the table and its moves again now, not waiting for a notice (a seat taken through
        another process a moment ago, whose notice is on its way or lost, is known at once)."""
        if self.room.hub is None:
            return  # one process: nothing changes elsewhere
        async with self.room.changing:
            with contextlib.suppress(StorageUnavailable):  # as it stands here, then
                await self._reload()

    async def _reload(self) -> None:
        """Another process changed the table (a seat taken, the match started): read it again."""
        if self.reread_table():
            await self.caught_up(told=True)

    def reread_table(self) -> bool:
        """Read the table itself (seats, settings, status, revision) as the database holds it;
        whether it is there."""
        room = self.room
        assert room.store is not None and room.bots is not None
        stored = room.store.table(room.id)
        if stored is None:
            return False
        room.settings = room.offered(stored)
        room.revision = stored.revision
        room.audience.seats = len(room.settings.seats)
        status = TableStatus(stored.status)
        if status is not TableStatus.OPEN and room.match is None:
            room.match = room.settings.new_match()
        if room.status is not TableStatus.FINISHED:
            room.status = status
        return True
