"""A table: the master of its match. It owns the versions and the one way a move is applied
(stored first, then played, then every listener sent its own projection, `projection`).

A move names the version it was made against: a stale one is refused, a repeated one (same client
id) acknowledged again and not applied twice. The rest of a table's life lives with its
collaborators, each behind a few methods: `seating.Seating` (who sits where, and the
table's settings, by the seat rules of `seats`), `replication.Replication` (the
other processes that hold the same table over one PostgreSQL database, `shared`),
`pacing.Pacing` (bots' moves, the turn timer, the wait between rounds: what the table's
owner runs), `turns.Turns` (what the moves were: Surs, the turn timer's turns, move ids;
how the match ended), `table_chat.TableChat` (its chat), `advice.Hints` (what
the bot workers say besides moves; a finished match's judgement is the lobby's,
`advice.Reviews`). `lobby` holds a process's tables."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ..core import IllegalMove, Match, MoveCode, Played, Rules, to_record
from . import messages
from .advice import Hints
from .audience import Audience, Listener, Post
from .bots import BotPool
from .chat import ChatLine
from .errors import ChangedElsewhere, PassedOn, StorageUnavailable, TableError, VersionTaken
from .pacing import Pacing
from .projection import state_json, table_json
from .replication import Replication
from .results import Ended, Outcome, record_result
from .seating import Seating
from .seats import Seat, TableSettings, TableStatus, seated, token_hash
from .shared import Hub
from .store import Store, StoredMove, StoredTable
from .table_chat import TableChat
from .turns import Turns

T = TypeVar("T")

#: Times a change of the table itself is tried while other processes change it first.
CHANGE_TRIES = 5


@dataclass
class TableRoom:
    """One table in this server process: its seats, versions and moves; the rest through its
    collaborators."""

    id: str
    settings: TableSettings
    status: TableStatus = TableStatus.OPEN
    store: Store | None = None
    bots: BotPool | None = None
    #: What this process shares with others over the database (None: nothing).
    hub: Hub | None = None
    #: Whose bot moves wait in line together: the address that made the table (its id once restored).
    owner: str = ""
    audience: Audience = field(default_factory=lambda: Audience(0))
    match: Match | None = None
    version: int = 0
    #: The table's revision as last stored or read here (see `store.Store.update_table()`).
    revision: int = 0
    #: What the last move did (None before the first).
    last: Played | None = None
    #: Between two rounds: the people's seats that have not yet said to deal on (None: not between).
    waiting: frozenset[int] | None = None
    #: When the table was made here (``time.time_ns()``; 0 once restored): the lobby's order.
    created: int = 0
    turns: Turns = field(default_factory=Turns)
    #: The latest version the store held at the last sweep (a copy left behind is taken over only
    #: when its table stood still since).
    swept_version: int = 0
    #: When the table last changed here (``time.monotonic()``): how long it has stood untouched.
    changed_at: float = field(default_factory=time.monotonic)
    #: Held while this copy of the table changes and whenever it waits on the store mid-change, so
    #: that nothing else (a move, a notice, the sweep) sees or changes the table half-way.
    changing: asyncio.Lock = field(default_factory=asyncio.Lock)
    replication: Replication = field(init=False)
    pacing: Pacing = field(init=False)
    chat: TableChat = field(init=False)
    hints: Hints = field(init=False)
    seating: Seating = field(init=False)

    def __post_init__(self) -> None:
        self.audience.seats = len(self.settings.seats)
        self.replication = Replication(self)
        self.pacing = Pacing(self)
        self.chat = TableChat(self)
        self.hints = Hints(self)
        self.seating = Seating(self)

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.settings.seats

    # -- restoring and saving ---------------------------------------------------------------------

    def tell(self, kind: str, **fields: Any) -> None:
        """Announce a change of the table to the other server processes."""
        self.replication.tell(kind, **fields)

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's notice about this table, given to whom it concerns."""
        kind = notice.get("kind")
        if kind in ("move", "table", "ready"):
            await self.replication.heard(notice)
        elif kind == "chat" and isinstance(notice.get("line"), dict):
            await self.chat.heard(ChatLine.read(notice["line"]))

    def offered(self, stored: StoredTable) -> TableSettings:
        """A stored copy of this table's settings, checked as `offered()` checks them."""
        assert self.bots is not None
        return offered(stored, self.bots)

    def replay(self, moves: list[StoredMove]) -> None:
        """Play stored moves on this copy of the table (they were applied where they were made)."""
        assert self.match is not None
        for move in moves:
            self.last = self.match.play(move.move)
            self.turns.played(self.match, self.last, move.seat, move.timed)
            self.version = move.version
            if move.client_id:
                self.turns.remember(move.seat, move.client_id, move.version, move.move)
        if self.match.over:
            if self.status is not TableStatus.FINISHED:  # its end was stored, perhaps not its result
                self._keep_result()
            self.status = TableStatus.FINISHED
        elif moves:
            self.waiting = self.people() if self.last is not None and self.last.round_over else None

    def _keep_result(self) -> None:
        """Keep the finished match's result, once: any process that sees the end may try, and a
        database that does not answer now is tried again when the table is next read back."""
        outcome = self.outcome()
        if self.store is not None and self.match is not None and outcome is not None:
            with contextlib.suppress(StorageUnavailable):
                record_result(self.store, self.id, self.settings, self.match, outcome)

    def outcome(self) -> Outcome | None:
        """How the match ended (None while it goes on): see `turns.Turns.outcome()`."""
        return self.turns.outcome(self.settings, self.match)

    async def take(self, settings: TableSettings | None = None, status: TableStatus | None = None) -> None:
        """Store the table with ``settings`` and ``status``, then take them (see
        `replication.Replication.store_table()`). Called with the table held."""
        await self.replication.store_table(settings or self.settings, status or self.status)
        self.settings, self.status = settings or self.settings, status or self.status

    async def again_if_changed(self, change: Callable[[], Awaitable[T]]) -> T:
        """``change`` (which checks the table and saves it); made again on the table as read back,
        a few times at most, while another process changed it first. Called with the table held."""
        for _ in range(CHANGE_TRIES - 1):
            with contextlib.suppress(ChangedElsewhere):
                return await change()
        return await change()

    async def settle(self, change: Callable[[], Awaitable[T]]) -> T:
        """``change`` made with the table held, again while another process changed it first."""
        async with self.changing:
            return await self.again_if_changed(change)

    # -- seats ----------------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None."""
        return self.settings.seat_of(token)

    def people(self) -> frozenset[int]:
        """The seats people sit in."""
        return self.settings.people()

    def is_host(self, token: str | None) -> bool:
        return bool(token) and token_hash(token or "") == self.settings.host_hash

    # -- moves ----------------------------------------------------------------------------------

    async def submit(self, seat: int | None, version: int, text: str, client_id: str | None) -> dict[str, Any]:
        """A person's move: the acknowledgement, or why it was refused (nothing changes then). A
        move id is the seat's own: the same id with the same move is acknowledged again, with
        another move refused (``id_reused``)."""
        seat = seated(seat)
        made = self.turns.made_before(seat, client_id, text)
        if made is not None:
            return messages.ack(client_id, made, repeated=True)
        # once under way a move is seen through, even if its socket closes meanwhile: a move stored
        # but not played here would leave this copy behind the store
        return await asyncio.shield(self._submit(seat, version, text, client_id))

    async def _submit(self, seat: int, version: int, text: str, client_id: str | None) -> dict[str, Any]:
        async with self.changing:
            if version != self.version:
                await self.replication.caught_up()  # another process may have moved the table on
            match = self.round_under_way()
            if version != self.version:
                raise TableError("stale_version", version=version)
            self.must_be_turn_of(match, seat)
            try:
                code = match.rounds[-1].read_move(text)
            except IllegalMove as error:
                raise PassedOn(error) from None
            await self.apply(seat, code, client_id)
            return messages.ack(client_id, self.version)

    async def apply(self, seat: int, code: MoveCode, client_id: str | None = None, timed: bool = False) -> None:
        """Store a legal move, then play it and tell everyone: the one way a move is applied, a
        person's, a bot's or the turn timer's for a person (``timed``); called with the table
        held; while the store answers, the other tables of this process go on."""
        assert self.match is not None
        text = self.match.rounds[-1].move_text(code)
        if self.store is not None:
            notice = self.replication.move_notice(StoredMove(self.version + 1, seat, text, client_id, timed))
            try:
                await self.store.store_move(self.id, self.version + 1, seat, text, client_id, notice, timed)
            except VersionTaken:
                await self.replication.caught_up()  # another process stored this version first
                raise
        self.last = self.match.play(code)
        self.turns.played(self.match, self.last, seat, timed)
        self.version += 1
        if client_id:
            self.turns.remember(seat, client_id, self.version, text)
        if self.match.over:
            self.status = TableStatus.FINISHED
            with contextlib.suppress(StorageUnavailable):  # the moves say it is over when it is read back
                await self.again_if_changed(self.take)
            await asyncio.to_thread(self._keep_result)  # the match is over: nothing changes it meanwhile
            if self.hub is not None:
                self.hub.release(self.id)
        elif self.last.round_over:
            self.waiting = self.people()  # everyone sees the round end and its breakdown first
        await self.changed()

    async def resign(self, seat: int | None) -> dict[str, Any]:
        """A player resigns: their side loses the match now. The result is kept first (at a rated
        table with the ratings' change); a database that does not answer refuses, and nothing changes."""
        seat = seated(seat)
        if self.rules.sides != 2:
            raise TableError("resign_sides")
        async with self.changing:
            await self.replication.caught_up()  # resign the match as it stands everywhere
            if self.match is None or self.status is not TableStatus.PLAYING:
                raise TableError("not_under_way")

            async def finish() -> None:  # the result and the table's end in one transaction
                finished = replace(self.settings, resigned=seat)
                outcome = self.turns.ended_early(finished, seat, Ended.RESIGNED, self.match)
                await self.replication.store_result(finished, outcome)
                self.settings, self.status, self.waiting = finished, TableStatus.FINISHED, None

            await self.again_if_changed(finish)
            if self.hub is not None:
                self.hub.release(self.id)
            self.tell("table")
            await self.changed()
        return messages.resigned()

    async def deal_on(self, seat: int | None) -> dict[str, Any]:
        """A player is ready for the next deal; once every player is, play goes on."""
        seat = seated(seat)
        await self.ready(seat)
        return messages.dealt_on(self.version)

    async def ready(self, seat: int | None, tell: bool = True) -> None:
        """``seat`` is ready for the next deal (None: every seat, the wait is over)."""
        async with self.changing:
            if seat is None or (self.waiting is not None and seat in self.waiting):
                self.waiting = None if seat is None or self.waiting is None else self.waiting - {seat} or None
                if tell:
                    self.tell("ready", seat=seat, version=self.version)
                await self.changed()

    def round_under_way(self) -> Match:
        """The match, when a round is being played; else TableError says why not."""
        if self.match is None or self.status is not TableStatus.PLAYING:
            raise TableError("not_under_way")
        if self.waiting is not None:
            raise TableError("between_rounds")
        return self.match

    def must_be_turn_of(self, match: Match, seat: int) -> None:
        """TableError unless ``seat`` is to play."""
        if match.turn != seat:
            name = self.seats[match.turn].name if match.turn is not None else ""
            raise TableError("not_your_turn", name=name)

    async def changed(self) -> None:
        """Send every listener its projection; then let a bot move or start the turn timer."""
        self.changed_at = time.monotonic()
        self.pacing.restart()
        self.hints.moved_on()
        self.audience.send_each(lambda listener: self.projection(listener.seat))
        self.pacing.schedule()

    # -- what listeners see -----------------------------------------------------------------------

    async def connect(self, post: Post, seat: int | None, since: int | None) -> Listener:
        """A new listener, sent its projection and its channel's recent chat; TableError when a
        spectator finds the table full."""
        listener = self.audience.add(post, seat)
        self.replication.watched()  # kept current from now on, as somebody listens here
        first = self.projection(seat, since)
        first["chat"] = self.chat.recent(seat)  # the recent lines, once
        listener.post(first)
        return listener

    async def disconnect(self, listener: Listener) -> None:
        self.audience.remove(listener)
        if not self.audience.listeners:
            self.replication.unwatched()

    def projection(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """Everything ``seat`` may know (None: a spectator), with the moves since ``since``."""
        table = table_json(self.id, self.settings, self.status, self.audience.connected(), seat)
        outcome = self.outcome() if self.status is TableStatus.FINISHED else None  # not at every move
        return state_json(
            self.match,
            seat,
            self.version,
            table,
            self.last,
            self.waiting,
            self.turns.surs,
            outcome=outcome,
            seconds_left=self.pacing.seconds_left() if self.match is not None else None,
            since=since,
        )

    def finished_match(self) -> Match:
        """The match, once it is over (its record shows every deck, so not before)."""
        if self.match is None or self.status is not TableStatus.FINISHED:
            raise TableError("not_finished")
        return self.match

    def record(self) -> dict[str, Any]:
        """The finished match as pasur-record/1."""
        names = [seat.name or "" for seat in self.seats]
        return to_record(self.finished_match(), names=names, table=self.id)


def restore(stored: StoredTable, store: Store, bots: BotPool, hub: Hub | None = None) -> TableRoom:
    """A table as stored, its moves replayed through the engine. ValueError if it names a bot
    level this server does not offer (a table is never trusted to name a program)."""
    room = TableRoom(stored.id, offered(stored, bots), TableStatus(stored.status), store, bots, hub, owner=stored.id)
    room.revision = stored.revision
    if room.status is not TableStatus.OPEN:
        room.match = room.settings.new_match()
        room.replay(store.moves(stored.id))
    room.chat.read_stored()
    return room


def offered(stored: StoredTable, bots: BotPool) -> TableSettings:
    """A stored table's settings; ValueError if they name a bot level this server does not offer
    (a table is never trusted to name a program)."""
    settings = TableSettings.from_json(stored.settings)
    for level in settings.bot_levels():
        if level not in bots.levels:
            raise ValueError(f"table {stored.id} names the bot {level[:40]!r}, which this server does not offer")
    return settings
