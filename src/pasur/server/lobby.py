"""A server process's tables: read in from the store, made, listed in the lobby, let go when idle,
and told of what the other processes over the same database did (`shared`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from ..coach.lesson import LESSON_DECK
from ..core import Rules
from .advice import Reviews
from .audience import Audience
from .bots import BotPool
from .errors import NoSuchTable, TableError
from .names import seat_name
from .ratings import check_rated
from .seats import TABLE_ID, Seat, TableSettings, TableStatus, network_key, token_hash
from .shared import Hub
from .store import Store, StoredTable
from .tables import TableRoom, restore

log = logging.getLogger("pasur.server")

#: How long a table nobody has started or watched stays in memory (the store keeps it).
OPEN_TABLE_SECONDS = 3600.0
#: How far another machine's clock may be behind when tables made meanwhile are read in.
CLOCK_MARGIN = timedelta(minutes=5)


async def _caught_up(rooms: list[TableRoom], latest: dict[str, int]) -> None:
    """Each copy behind the ``latest`` version its table has stored catches up (and everyone
    listening to it here is sent the new state)."""
    for room in rooms:
        if latest.get(room.id, 0) > room.version:
            await room.replication.catch_up()


class Lobby:
    """Every table of this server process, over one store, its bots played by ``bots``."""

    def __init__(self, store: Store, bots: BotPool, spectators_per_table: int = 20) -> None:
        self.store = store
        self.bots = bots
        self.spectators_per_table = spectators_per_table
        self.rooms: dict[str, TableRoom] = {}
        self.hub = Hub(store)
        #: The judgements of finished matches, held apart from the tables.
        self.reviews = Reviews()
        #: When the store's tables were last read in.
        self._tables_read: datetime | None = None

    def restore(self) -> int:
        """Load the tables that are not finished; how many. A table that names a bot this server
        does not offer is left in the store, and the log says why."""
        self._read_tables()
        return len(self.rooms)

    def _read_tables(self) -> None:
        """Read in the unfinished tables not held here: all of them the first time, then those
        made since the last reading (less `CLOCK_MARGIN`, for other machines' clocks)."""
        since = self._tables_read - CLOCK_MARGIN if self._tables_read is not None else None
        self._tables_read = datetime.now(UTC)
        for stored in self.store.tables((TableStatus.OPEN.value, TableStatus.PLAYING.value), since):
            if stored.id not in self.rooms:
                room = self._restored(stored)
                if room is not None:
                    self.rooms[stored.id] = room

    def _restored(self, stored: StoredTable) -> TableRoom | None:
        """A stored table, or None (and the log says why) when it names a bot not offered here."""
        try:
            room = restore(stored, self.store, self.bots, self.hub)
        except (ValueError, KeyError, TypeError) as error:
            log.warning("not restoring a stored table: %s", error)
            return None
        room.audience.spectator_limit = self.spectators_per_table
        return room

    def resume(self) -> None:
        """Once the event loop runs: bots and timers of restored tables carry on (those this
        process owns), and other processes' notices are listened to."""
        for room in self.rooms.values():
            room.pacing.schedule()
        self.hub.start(self.heard, self.followed, self.sweep)

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's notice: the table it names, if held here, catches up (a table new to
        this process is read in, for the lobby)."""
        table_id = notice["table"]
        room = self.rooms.get(table_id)
        if room is not None:
            await room.heard(notice)
        elif notice.get("kind") == "table" and TABLE_ID.fullmatch(table_id):
            with contextlib.suppress(TableError):
                self.get(table_id)

    async def sweep(self, missed: bool = False) -> None:
        """What a lost notice would leave undone: tables behind the database catch up, and the
        started tables nobody runs are taken over; when notices may have been ``missed`` (before
        listening, or while the listening connection was down), the tables made meanwhile are
        read in and every table's chat is read again too."""
        if missed:
            self._read_tables()  # the tables made meanwhile, for the lobby
            for room in list(self.rooms.values()):
                await room.chat.reread()
        current, behind = [], []  # copies kept current here; copies left behind that may need an owner
        for room in self.rooms.values():
            if room.status is not TableStatus.PLAYING:
                continue
            if room.replication.kept_current():
                current.append(room)
            elif room.pacing.may_run_alone():  # people only and no timer: nothing to check until used
                behind.append(room)
        latest = self.store.latest_versions([room.id for room in current + behind]) if current or behind else {}
        # a copy left behind is taken over only once its table has stood still since the last sweep
        # (a table moving on has an owner; one that stands still may have lost it)
        still = [room for room in behind if latest.get(room.id, 0) == room.swept_version]
        for room in current + behind:
            room.swept_version = latest.get(room.id, 0)
        await _caught_up(current, latest)
        taken = self.hub.claim([room.id for room in current if room.pacing.runs_alone()] + [room.id for room in still])
        for room in still:
            if room.id in taken:
                room.replication.wake()
                if not room.pacing.runs_alone():
                    self.hub.release(room.id)
                current.append(room)
        for room in current:
            room.pacing.schedule()

    def forget_idle(self) -> int:
        """Let go of the tables nobody is watching that are finished, or open and untouched for
        `OPEN_TABLE_SECONDS` (the store keeps them, and `get()` reads one back when
        asked); how many."""
        now = time.monotonic()
        idle = [
            table_id
            for table_id, room in self.rooms.items()
            if not room.audience.listeners
            and (
                room.status is TableStatus.FINISHED
                or (room.status is TableStatus.OPEN and now - room.audience.touched > OPEN_TABLE_SECONDS)
            )
        ]
        for table_id in idle:
            del self.rooms[table_id]
            self.hub.release(table_id)
        return len(idle)

    async def retire_abandoned(self, hours: float) -> tuple[int, int]:
        """The tables that stood untouched with nobody there for ``hours``: one never started is
        deleted, a match under way is ended as abandoned (its moves kept); both are let go from
        memory. How many were deleted, and how many ended."""
        cutoff = time.monotonic() - hours * 3600
        untouched = {
            table_id: room
            for table_id, room in self.rooms.items()
            if not room.audience.listeners and max(room.changed_at, room.audience.touched) <= cutoff
        }
        # a match played on in another process, unheard here, is not abandoned
        unheard = [room.id for room in untouched.values() if room.match is not None and not self.hub.follows(room.id)]
        latest = await asyncio.to_thread(self.store.latest_versions, unheard) if unheard else {}
        deleted = ended = 0
        for table_id, room in untouched.items():
            if latest.get(table_id, 0) > room.version:
                await room.replication.woken()
                room.changed_at = time.monotonic()
                continue
            try:
                if room.status is TableStatus.OPEN:
                    await asyncio.to_thread(self.store.delete_table, table_id)
                    deleted += 1
                elif room.status is TableStatus.PLAYING:
                    await room.seating.abandon()
                    ended += 1
            except TableError as error:  # the store is down, or another process changed it first
                log.warning("table %s is kept for now: %s", table_id, error)
                continue
            self.rooms.pop(table_id, None)
            self.hub.release(table_id)
        return deleted, ended

    async def forfeit(self, account: int) -> int:
        """Resign every rated match under way that ``account`` plays (its account is going): each
        is lost as if it resigned, against its opponents' real ratings; how many."""
        resigned = 0
        for room in list(self.rooms.values()):
            if room.status is not TableStatus.PLAYING or not room.settings.rated:
                continue
            seat = next((index for index, place in enumerate(room.seats) if place.account == account), None)
            if seat is not None:
                with contextlib.suppress(TableError):  # finished meanwhile
                    await room.resign(seat)
                    resigned += 1
        return resigned

    def get(self, table_id: str) -> TableRoom:
        room = self.rooms.get(table_id)
        if room is None:
            stored = self.store.table(table_id)
            if stored is None:
                raise NoSuchTable("no_such_table")
            restored = self._restored(stored)
            if restored is None:
                raise NoSuchTable("table_refused")
            self.rooms[table_id] = room = restored
        room.replication.wake()
        return room

    async def create(
        self,
        name: str,
        rules: Rules,
        seats: list[str],
        timer: int,
        fill_level: str,
        owner: str = "",
        public: bool = False,
        hints: bool | None = None,
        account: int | None = None,
        rated: bool = False,
        lesson: bool = False,
    ) -> tuple[str, str]:
        """A new table with its creator in seat 0; ``seats`` says, for every other seat, "friend"
        or a bot level, and ``fill_level`` who takes the seats left open. ``owner`` is the address
        whose bots' moves wait in line together; ``hints`` whether people may ask for hints (by
        default, when everyone else at the table is a bot); ``account`` the creator's, when signed
        in; ``rated`` whether the match changes ratings (`check_rated()`); ``lesson`` whether it
        is a first-game lesson (its chosen first deal, tips for seat 0). The table id and the
        creator's token."""
        if len(seats) != rules.players - 1:
            raise TableError("seats_count", count=rules.players - 1)
        for level in [*seats, fill_level]:
            if level != "friend" and level not in self.bots.levels:
                known = ", ".join(self.bots.levels)
                raise TableError("bad_level", level=level[:40], known=known)
        if rated:
            check_rated(rules, timer, account)
        name = seat_name(name, [])
        self.forget_idle()  # memory holds the tables in use, not every table ever made
        token = secrets.token_urlsafe(18)
        network = network_key(owner) if rated else None
        places = [Seat(name=name, token_hash=token_hash(token), account=account, network=network)]
        places += [Seat() if level == "friend" else Seat(name=level, bot=level) for level in seats]
        settings = TableSettings(
            rules=rules,
            seed=random.randrange(1 << 48),
            seats=tuple(places),
            host_hash=token_hash(token),
            timer=timer,
            fill_level=fill_level,
            public=public,
            hints=("friend" not in seats if hints is None else hints) and not rated,
            rated=rated,
            lesson_deck=LESSON_DECK if lesson else None,
        )
        return await self._open(settings, owner), token

    async def followed(self, table_ids: set[str]) -> None:
        """Tables whose moves this process hears from now on: each catches up with those stored
        before (and everyone here is sent the new state)."""
        rooms = [self.rooms[table_id] for table_id in table_ids if table_id in self.rooms]
        if rooms:
            await _caught_up(rooms, self.store.latest_versions([room.id for room in rooms]))

    async def _open(self, settings: TableSettings, owner: str) -> str:
        """A new table with ``settings``, stored, told and held here; its id."""
        table_id = secrets.token_urlsafe(6)
        room = TableRoom(
            table_id,
            settings,
            store=self.store,
            bots=self.bots,
            hub=self.hub,
            owner=owner or table_id,
            audience=Audience(len(settings.seats), self.spectators_per_table),
            created=time.time_ns(),
        )
        await asyncio.to_thread(self.store.create_table, table_id, settings.to_json(), room.status.value)
        room.tell("table")
        self.rooms[table_id] = room
        return table_id

    async def rematch(self, room: TableRoom, seat: int | None, owner: str = "") -> str:
        """The rematch of a finished table, made the first time a player asks (the seats turned by
        one, so the next seat opens; the asker hosts it) and the same table every time after."""
        if seat is None:
            raise TableError("not_seated")
        if room.status is not TableStatus.FINISHED:
            raise TableError("match_not_over")
        async with room.changing:
            if room.settings.rematch is None:
                settings = room.settings.for_rematch(random.randrange(1 << 48), room.seats[seat].token_hash or "")
                table_id = await self._open(settings, owner)
                await room.seating.record_rematch(table_id)
        await room.changed()
        assert room.settings.rematch is not None
        return room.settings.rematch
