"""A table: the master of its match. It owns the seats, the versions and the one way a move is
applied (stored first, then played, then every listener sent its own projection, :mod:`.projection`).

A move names the version it was made against: a stale one is refused, a repeated one (same client
id) acknowledged again and not applied twice. The rest of a table's life lives with its
collaborators, each behind a few methods: :class:`.replication.Replication` (the other processes
that hold the same table over one PostgreSQL database, :mod:`.shared`), :class:`.pacing.Pacing`
(bots' moves, the turn timer, the wait between rounds: what the table's owner runs),
:class:`.table_chat.TableChat` (its chat), :class:`.advice.Hints` (what the bot workers say
besides moves; a finished match's judgement is the lobby's, :class:`.advice.Reviews`).
:mod:`.lobby` holds a process's tables."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
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
from .errors import ChangedElsewhere, NotSignedIn, StorageUnavailable, TableError, VersionTaken
from .names import seat_name
from .pacing import Pacing
from .projection import played_since, replay_steps, state_json, table_json
from .replication import Replication
from .results import MOVES_TO_COUNT, Outcome, record_result
from .seats import Seat, TableSettings, TableStatus, network_key, token_hash
from .shared import Hub
from .store import Store, StoredMove, StoredTable
from .table_chat import TableChat

T = TypeVar("T")

#: Times a change of the table itself is tried while other processes change it first.
CHANGE_TRIES = 5
#: Client move ids remembered per table, to acknowledge a repeated move.
REMEMBERED_IDS = 256
#: A person whose last turns of a rated match, this many or more, the turn timer played has left
#: it: their side loses.
ABANDONED_TURNS = 3


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
    #: The table's revision as last stored or read here (see :meth:`.store.Store.update_table`).
    revision: int = 0
    #: (seat, client move id) → (the version it made, its move's short text).
    client_ids: dict[tuple[int, str], tuple[int, str]] = field(default_factory=dict)
    #: What the last move did (None before the first).
    last: Played | None = None
    #: Between two rounds: the people's seats that have not yet said to deal on (None: not between).
    waiting: frozenset[int] | None = None
    #: When the table was made here (``time.time_ns()``; 0 once restored): the lobby's order.
    created: int = 0
    #: By round number, which of its plays (from 0) made a Sur that counts (the move log marks them).
    surs: dict[int, list[int]] = field(default_factory=dict)
    #: By seat, how many of its turns in a row, up to the last, the turn timer played.
    timed_turns: dict[int, int] = field(default_factory=dict)
    #: seat → the moves it made itself (not the turn timer for it): a match ended before each seat
    #: made :data:`.results.MOVES_TO_COUNT` is aborted.
    own_moves: dict[int, int] = field(default_factory=dict)
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

    def __post_init__(self) -> None:
        self.audience.seats = len(self.settings.seats)
        self.replication = Replication(self)
        self.pacing = Pacing(self)
        self.chat = TableChat(self)
        self.hints = Hints(self)

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.settings.seats

    # -- restoring and saving ---------------------------------------------------------------------

    @classmethod
    def restore(cls, stored: StoredTable, store: Store, bots: BotPool, hub: Hub | None = None) -> TableRoom:
        """A table as stored, its moves replayed through the engine. ValueError if it names a bot
        level this server does not offer (a table is never trusted to name a program)."""
        room = cls(stored.id, offered(stored, bots), TableStatus(stored.status), store, bots, hub, owner=stored.id)
        room.revision = stored.revision
        if room.status is not TableStatus.OPEN:
            room.match = room.settings.new_match()
            room.replay(store.moves(stored.id))
        room.chat.read_stored()
        return room

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
        """A stored copy of this table's settings, checked as :func:`offered` checks them."""
        assert self.bots is not None
        return offered(stored, self.bots)

    def replay(self, moves: list[StoredMove]) -> None:
        """Play stored moves on this copy of the table (they were applied where they were made)."""
        assert self.match is not None
        for move in moves:
            self.last = self.match.play(move.move)
            self._note_sur(self.last)
            self._note_timed(move.seat, move.timed)
            self.version = move.version
            if move.client_id:
                self._remember(move.seat, move.client_id, move.move)
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
        """How the match ended (None while it goes on): a side resigned; at a rated table, a
        person the turn timer played for to the end (:data:`ABANDONED_TURNS`) left it; else
        the score decided."""
        resigned = self.settings.resigned
        if resigned is not None:
            return self._ended_early(resigned, "resigned")
        if self.match is None or self.match.winner is None:
            return None
        left = max(self.timed_turns.items(), key=lambda item: item[1], default=(0, 0))
        if self.settings.rated and left[1] >= ABANDONED_TURNS:
            return self._ended_early(left[0], "abandoned")
        return Outcome(self.match.winner)

    def _ended_early(self, seat: int, how: str) -> Outcome:
        """The match lost by ``seat``'s side ``how`` (resigned, abandoned): aborted, and so never
        rated, while a seat has made fewer than :data:`.results.MOVES_TO_COUNT` moves itself."""
        early = any(self.own_moves.get(other, 0) < MOVES_TO_COUNT for other in range(self.rules.players))
        return Outcome(1 - self.rules.side_of(seat), how, aborted=early)

    def _note_timed(self, seat: int, timed: bool) -> None:
        """Count the turns in a row the turn timer played for ``seat``."""
        if timed:
            self.timed_turns[seat] = self.timed_turns.get(seat, 0) + 1
        else:
            self.timed_turns.pop(seat, None)
            self.own_moves[seat] = self.own_moves.get(seat, 0) + 1

    def _note_sur(self, played: Played) -> None:
        """Keep which play of its round a Sur was (only the last two rounds can be shown)."""
        if played.sur:
            assert self.match is not None
            self.surs.setdefault(played.round, []).append(len(self.match.rounds[played.round - 1].history) - 1)
            for old in [number for number in self.surs if number < played.round - 1]:
                del self.surs[old]

    def _remember(self, seat: int, client_id: str, text: str) -> None:
        self.client_ids[seat, client_id] = (self.version, text)
        if len(self.client_ids) > REMEMBERED_IDS:
            self.client_ids.pop(next(iter(self.client_ids)))

    async def _save(self, settings: TableSettings | None = None, status: TableStatus | None = None) -> None:
        """Store the table as it will be with ``settings`` and ``status`` (in a thread: a slow or
        locked database holds up only this table); StorageUnavailable, and nothing changes, when
        the store does not answer; ChangedElsewhere when another process changed the table first
        (this copy has read it again then). Called with the table held."""
        if self.store is None:
            return
        try:
            await asyncio.to_thread(
                self.store.update_table,
                self.id,
                (settings or self.settings).to_json(),
                (status or self.status).value,
                self.revision,
            )
        except ChangedElsewhere:
            self.replication.reread_table()
            raise
        self.revision += 1

    async def _again_if_changed(self, change: Callable[[], Awaitable[T]]) -> T:
        """``change`` (which checks the table and saves it); made again on the table as read back,
        a few times at most, while another process changed it first. Called with the table held."""
        for _ in range(CHANGE_TRIES - 1):
            with contextlib.suppress(ChangedElsewhere):
                return await change()
        return await change()

    # -- seats ----------------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None."""
        if not token:
            return None
        digest = token_hash(token)
        return next((index for index, seat in enumerate(self.seats) if seat.token_hash == digest), None)

    def people(self) -> frozenset[int]:
        """The seats people sit in."""
        return frozenset(index for index, seat in enumerate(self.seats) if seat.token_hash)

    def is_host(self, token: str | None) -> bool:
        return bool(token) and token_hash(token or "") == self.settings.host_hash

    async def join(
        self, name: str, seat: int | None = None, account: int | None = None, network: str = ""
    ) -> tuple[int, str]:
        """Take an open seat (the first, unless one is named), as ``account`` when signed in, from
        the visitor ``network``; the seat and its new token."""
        async with self.changing:
            return await self._again_if_changed(lambda: self._join(name, seat, account, network))

    async def _join(self, name: str, seat: int | None, account: int | None, network: str) -> tuple[int, str]:
        if self.status is not TableStatus.OPEN:
            raise TableError("the match has started: no seat is free", "no_seat_free")
        free = [index for index, place in enumerate(self.seats) if place.open]
        if seat is None:
            if not free:
                raise TableError("every seat is taken", "no_seat_free")
            seat = free[0]
        if seat not in free:
            raise TableError(f"seat {seat + 1} is not free", "seat_not_free", seat=seat + 1)
        key = None
        if self.settings.rated:
            if account is None:
                raise NotSignedIn("sign in to play rated matches", "rated_needs_account")
            key = network_key(network)
            if any(place.network == key for place in self.seats):
                raise TableError(
                    "two players from one network cannot play a rated match together: make it a casual table",
                    "rated_same_network",
                )
        token = secrets.token_urlsafe(18)
        seats = list(self.seats)
        others = [place.name for place in self.seats if place.name and not place.bot]
        seats[seat] = Seat(name=seat_name(name, others), token_hash=token_hash(token), account=account, network=key)
        settings = self.settings.with_seats(tuple(seats))
        await self._save(settings)
        self.settings = settings
        self.tell("table")
        self.audience.touched = time.monotonic()
        return seat, token

    async def change_seat(self, seat: int | None, to: int) -> None:
        """Before the start, a person moves to an open seat (their name and token go with them)."""
        async with self.changing:
            await self._again_if_changed(lambda: self._change_seat(seat, to))

    async def _change_seat(self, seat: int | None, to: int) -> None:
        if seat is None:
            raise TableError("take a seat first", "not_seated")
        if self.status is not TableStatus.OPEN:
            raise TableError("the match has already started", "already_started")
        if not 0 <= to < len(self.seats) or not self.seats[to].open:
            raise TableError(f"seat {to + 1} is not free", "seat_not_free", seat=to + 1)
        seats = list(self.seats)
        seats[to], seats[seat] = seats[seat], Seat()
        settings = self.settings.with_seats(tuple(seats))
        await self._save(settings)
        self.settings = settings
        self.tell("table")

    async def free_seat(self, token: str | None, seat: int) -> dict[str, Any]:
        """The host frees the seat of a person who is away (not connected here): it is open again
        before the start; after it, the table's bot level plays it (a rated table's timer plays
        for the absent instead)."""
        if not self.is_host(token):
            raise TableError("only the host can free a seat", "only_host_frees")
        async with self.changing:
            await self._again_if_changed(lambda: self._free_seat(seat))
        self.tell("table")
        await self.changed()
        return messages.freed(seat)

    async def _free_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats) or not self.seats[seat].token_hash:
            raise TableError(f"seat {seat + 1} holds no person", "no_person_there", seat=seat + 1)
        if self.seats[seat].token_hash == self.settings.host_hash:
            raise TableError("the host's own seat cannot be freed", "own_seat")
        if self.audience.connected()[seat]:
            raise TableError(f"the player in seat {seat + 1} is here", "player_here", seat=seat + 1)
        if self.status is TableStatus.FINISHED:
            raise TableError("the match is over", "match_over")
        if self.status is TableStatus.PLAYING and self.settings.rated:
            raise TableError("at a rated table the turn timer plays for a player away", "rated_seat")
        level = self.settings.fill_level
        freed = Seat() if self.status is TableStatus.OPEN else Seat(name=level, bot=level)
        seats = list(self.seats)
        seats[seat] = freed
        settings = self.settings.with_seats(tuple(seats))
        await self._save(settings)
        self.settings = settings
        self.waiting = self.waiting - {seat} if self.waiting is not None else None

    async def abandon(self) -> None:
        """End the match under way as abandoned: its moves are kept, nothing more is played."""

        async def end() -> None:
            if self.status is not TableStatus.PLAYING:
                raise TableError("the match is not under way", "not_under_way")
            await self._save(status=TableStatus.ABANDONED)
            self.status = TableStatus.ABANDONED

        async with self.changing:
            await self._again_if_changed(end)
        self.pacing.restart()
        if self.hub is not None:
            self.hub.release(self.id)
        self.tell("table")

    async def record_rematch(self, table_id: str) -> None:
        """Keep, with this finished table, the id of its rematch (called with the table held)."""

        async def keep() -> None:
            settings = replace(self.settings, rematch=table_id)
            await self._save(settings)
            self.settings = settings

        await self._again_if_changed(keep)
        self.tell("table")

    async def start(self, token: str | None) -> None:
        """The host starts: open seats get the table's bot level."""
        if not self.is_host(token):
            raise TableError("only the host can start the match", "host_only")
        async with self.changing:
            await self._again_if_changed(self._start)
        self.tell("table")
        await self.changed()

    async def _start(self) -> None:
        if self.status is not TableStatus.OPEN:
            raise TableError("the match has already started", "already_started")
        level = self.settings.fill_level
        settings = self.settings.with_seats(
            tuple(Seat(name=level, bot=level) if seat.open else seat for seat in self.seats)
        )
        await self._save(settings, TableStatus.PLAYING)
        self.settings = settings
        self.match = self.settings.new_match()
        self.status = TableStatus.PLAYING

    # -- moves ----------------------------------------------------------------------------------

    async def submit(self, seat: int | None, version: int, text: str, client_id: str | None) -> dict[str, Any]:
        """A person's move: the acknowledgement, or why it was refused (nothing changes then). A
        move id is the seat's own: the same id with the same move is acknowledged again, with
        another move refused (``id_reused``)."""
        if seat is None:
            raise TableError("you have no seat at this table", "no_seat")
        if client_id and (seat, client_id) in self.client_ids:
            version_made, text_made = self.client_ids[seat, client_id]
            if _spelled(text) != _spelled(text_made):
                raise TableError(f"move id {client_id[:64]} was used for another move", "id_reused")
            return messages.ack(client_id, version_made, repeated=True)
        # once under way a move is seen through, even if its socket closes meanwhile: a move stored
        # but not played here would leave this copy behind the store
        return await asyncio.shield(self._submit(seat, version, text, client_id))

    async def _submit(self, seat: int, version: int, text: str, client_id: str | None) -> dict[str, Any]:
        async with self.changing:
            if version != self.version:
                await self.replication.caught_up()  # another process may have moved the table on
            match = self.round_under_way()
            if version != self.version:
                raise TableError(
                    f"that move was made against version {version}; the table is at {self.version}", "stale_version"
                )
            self.must_be_turn_of(match, seat)
            try:
                code = match.rounds[-1].read_move(text)
            except IllegalMove as error:
                raise TableError(str(error), error.reason, **error.details) from None
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
        self._note_sur(self.last)
        self._note_timed(seat, timed)
        self.version += 1
        if client_id:
            self._remember(seat, client_id, text)
        if self.match.over:
            self.status = TableStatus.FINISHED
            with contextlib.suppress(StorageUnavailable):  # the moves say it is over when it is read back
                await self._again_if_changed(self._save)
            await asyncio.to_thread(self._keep_result)  # the match is over: nothing changes it meanwhile
            if self.hub is not None:
                self.hub.release(self.id)
        elif self.last.round_over:
            self.waiting = self.people()  # everyone sees the round end and its breakdown first
        await self.changed()

    async def resign(self, seat: int | None) -> dict[str, Any]:
        """A player resigns: their side loses the match now. The result is kept first (at a rated
        table with the ratings' change); a database that does not answer refuses, and nothing changes."""
        if seat is None:
            raise TableError("you have no seat at this table", "no_seat")
        if self.rules.sides != 2:
            raise TableError("a match of three sides cannot be resigned: leave the table instead", "resign_sides")
        async with self.changing:
            await self.replication.caught_up()  # resign the match as it stands everywhere
            if self.match is None or self.status is not TableStatus.PLAYING:
                raise TableError("the match is not under way", "not_under_way")

            async def finish() -> None:  # the result and the table's end in one transaction
                assert self.match is not None
                finished = replace(self.settings, resigned=seat)
                if self.store is not None:
                    outcome = self._ended_early(seat, "resigned")
                    try:
                        await asyncio.to_thread(
                            record_result, self.store, self.id, finished, self.match, outcome, self.revision
                        )
                    except ChangedElsewhere:
                        self.replication.reread_table()
                        raise
                    self.revision += 1
                self.settings, self.status, self.waiting = finished, TableStatus.FINISHED, None

            await self._again_if_changed(finish)
            if self.hub is not None:
                self.hub.release(self.id)
            self.tell("table")
            await self.changed()
        return messages.resigned()

    async def deal_on(self, seat: int | None) -> dict[str, Any]:
        """A player is ready for the next deal; once every player is, play goes on."""
        if seat is None:
            raise TableError("you have no seat at this table", "no_seat")
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
            raise TableError("the match is not under way", "not_under_way")
        if self.waiting is not None:
            raise TableError("the round is over: say when you are ready for the next deal", "between_rounds")
        return self.match

    def must_be_turn_of(self, match: Match, seat: int) -> None:
        """TableError unless ``seat`` is to play."""
        if match.turn != seat:
            name = self.seats[match.turn].name if match.turn is not None else ""
            raise TableError("it is not your turn", "not_your_turn", name=name)

    async def set_pace(self, seat: int | None, fast: bool) -> dict[str, Any]:
        """A player asks the bots to play at the usual pace or faster: kept with the table's settings
        (StorageUnavailable, and nothing changes, when the store does not answer)."""
        if seat is None:
            raise TableError("you have no seat at this table", "no_seat")

        async def keep() -> None:
            settings = replace(self.settings, fast=fast)
            await self._save(settings)
            self.settings = settings

        async with self.changing:
            await self._again_if_changed(keep)
        self.tell("table")
        return messages.pace(fast)

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
        state = state_json(self.match, seat, self.version, table, self.last, self.waiting, self.surs)
        outcome = self.outcome() if self.status is TableStatus.FINISHED else None  # not at every move
        if outcome is not None:
            state["winner"], state["ended"], state["aborted"] = outcome.winner, outcome.ended, outcome.aborted
            state["legal"] = []  # a resigned match stops mid-round: nothing more is played
        if self.status is TableStatus.ABANDONED:
            state["legal"] = []
        if self.match is not None:
            seconds_left = self.pacing.seconds_left()
            if seconds_left is not None:
                state["seconds_left"] = seconds_left
            if since is not None and since < self.version:
                state["missed"] = played_since(self.match, since)
        return state

    def finished_match(self) -> Match:
        """The match, once it is over (its record shows every deck, so not before)."""
        if self.match is None or self.status is not TableStatus.FINISHED:
            raise TableError("the record is available once the match is over", "not_finished")
        return self.match

    def replay_steps(self) -> list[dict[str, Any]]:
        """Every position of the finished match, for the replay view."""
        return replay_steps(self.finished_match())

    def record(self) -> dict[str, Any]:
        """The finished match as pasur-record/1."""
        names = [seat.name or "" for seat in self.seats]
        return to_record(self.finished_match(), names=names, table=self.id)


def offered(stored: StoredTable, bots: BotPool) -> TableSettings:
    """A stored table's settings; ValueError if they name a bot level this server does not offer
    (a table is never trusted to name a program)."""
    settings = TableSettings.from_json(stored.settings)
    for level in settings.bot_levels():
        if level not in bots.levels:
            raise ValueError(f"table {stored.id} names the bot {level[:40]!r}, which this server does not offer")
    return settings


def _spelled(text: str) -> str:
    """A move's short text with case and spaces set aside, to tell a repeat from another move."""
    return "".join(text.split()).upper()
