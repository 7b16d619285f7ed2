"""Tables: the match, versioned moves, bots' turns and the turn timer, over the store.

The server owns the state. Each listener is sent its own projection (:mod:`.projection`). A move
names the version it was made against: a stale one is refused, a repeated one (same client id)
acknowledged again and not applied twice. A move is stored before it is applied and acknowledged.
Several server processes may hold the same table over one PostgreSQL database (:mod:`.shared`):
each keeps its copy up to date from the others' notices, and only the table's owner runs its bots
and timer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ..bots.analysis import Task, analysis_tasks, judgement_line
from ..bots.hint import Hint
from ..core import IllegalMove, Match, MoveCode, Played, Rules, to_record
from ..core.solver import SolveError
from ..host import STAND_IN, bot_seed
from ..i18n import LANGUAGES
from .audience import Audience, Listener, Send, deliver
from .bots import BotPool
from .chat import KEPT_LINES, Channel, ChatLine, chat_phrase, chat_text, kept_lines
from .errors import NoSuchTable, StorageUnavailable, TableError, TooManyRequests, VersionTaken
from .projection import played_since, replay_steps, state_json, table_json
from .seats import Seat, TableSettings, TableStatus, person_name, token_hash
from .shared import Hub
from .store import Store, StoredMove, StoredTable

log = logging.getLogger("pasur.server")

#: Client move ids remembered per table, to acknowledge a repeated move.
REMEMBERED_IDS = 256
#: How long a table nobody has started or watched stays in memory (the store keeps it).
OPEN_TABLE_SECONDS = 3600.0
#: How far another machine's clock may be behind when tables made meanwhile are read in.
CLOCK_MARGIN = timedelta(minutes=5)
#: Seconds between tries of a bot's move while the storage is not answering.
STORAGE_RETRY_SECONDS = 2.0
#: Public tables in one page of the lobby, at most.
LISTED_TABLES = 20
#: How much faster bots play when a player asks them to.
FAST_PACE = 4.0
#: What a table id looks like (``secrets.token_urlsafe(6)``).
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


@dataclass
class TableRoom:
    """One table in this server process."""

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
    #: (seat, client move id) → (the version it made, its move's short text).
    client_ids: dict[tuple[int, str], tuple[int, str]] = field(default_factory=dict)
    deadline: float | None = None  # loop time when the turn timer runs out
    #: What the last move did (None before the first).
    last: Played | None = None
    #: Between two rounds: the people's seats that have not yet said to deal on (None: not between).
    waiting: frozenset[int] | None = None
    #: Whether a player asked the bots to play faster.
    fast: bool = False
    #: Recent chat lines per channel.
    chat: dict[Channel, deque[ChatLine]] = field(default_factory=kept_lines)
    #: When the table was made here (``time.time_ns()``; 0 once restored): the lobby's order.
    created: int = 0
    _task: asyncio.Task[None] | None = None
    #: Held while this copy of the table changes and whenever it waits on the store mid-change, so
    #: that nothing else (a move, a notice, the sweep) sees or changes the table half-way.
    _changing: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Judging the people's moves of the finished match (started when first asked), and those judged.
    _analysis: asyncio.Future[None] | None = None
    _judged: list[dict[str, Any]] = field(default_factory=list)
    _judged_total: int = 0
    #: The hint last asked for by (seat, language): the version it is for, and its thinking.
    _hints: dict[tuple[int, str], tuple[int, asyncio.Future[Hint]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.audience.seats = len(self.settings.seats)

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
        room = cls(stored.id, _offered(stored, bots), TableStatus(stored.status), store, bots, hub, owner=stored.id)
        if room.status is not TableStatus.OPEN:
            room.match = Match(room.rules, seed=room.settings.seed)
            room._replay(store.moves(stored.id))
        for channel in Channel:
            room.chat[channel].extend(ChatLine.read(line) for line in store.chat(stored.id, channel, KEPT_LINES))
        return room

    def _replay(self, moves: list[StoredMove]) -> None:
        """Play stored moves on this copy of the table (they were applied where they were made)."""
        assert self.match is not None
        for move in moves:
            self.last = self.match.play(move.move)
            self.version = move.version
            if move.client_id:
                self._remember(move.seat, move.client_id, move.move)
        if self.match.over:
            self.status = TableStatus.FINISHED
        elif moves:
            self.waiting = self.people() if self.last is not None and self.last.round_over else None

    def _remember(self, seat: int, client_id: str, text: str) -> None:
        self.client_ids[seat, client_id] = (self.version, text)
        if len(self.client_ids) > REMEMBERED_IDS:
            self.client_ids.pop(next(iter(self.client_ids)))

    async def catch_up(self, told: bool = False) -> None:
        """Bring this copy up to date with the moves other processes stored; everyone here is
        sent the new state (also when ``told``, after a change of the table itself)."""
        async with self._changing:
            await self._catch_up(told)

    async def _catch_up(self, told: bool = False) -> None:
        if self.store is None or self.match is None:
            if told:
                await self.changed()
            return
        moves = self.store.moves(self.id, after=self.version)
        self._replay(moves)
        if moves or told:
            await self.changed()

    async def _moved(self, notice: dict[str, Any]) -> None:
        """Another process stored a move: the notice carries it when it is the next one here;
        else (a notice was missed) the moves are read from the database."""
        version, seat, text, client_id = (notice.get(key) for key in ("version", "seat", "move", "client_id"))
        if self.match is None or not (
            version == self.version + 1
            and isinstance(seat, int)
            and isinstance(text, str)
            and (client_id is None or isinstance(client_id, str))
        ):
            await self._catch_up()
            return
        self._replay([StoredMove(version, seat, text, client_id)])
        await self.changed()

    async def _reload(self) -> None:
        """Another process changed the table (a seat taken, the match started): read it again."""
        assert self.store is not None and self.bots is not None
        stored = self.store.table(self.id)
        if stored is None:
            return
        self.settings = _offered(stored, self.bots)
        self.audience.seats = len(self.settings.seats)
        status = TableStatus(stored.status)
        if status is not TableStatus.OPEN and self.match is None:
            self.match = Match(self.rules, seed=self.settings.seed)
        if self.status is not TableStatus.FINISHED:
            self.status = status
        await self._catch_up(told=True)

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's notice about this table, acted on."""
        kind = notice.get("kind")
        if kind == "move":
            async with self._changing:
                await self._moved(notice)
        elif kind == "table":
            async with self._changing:
                await self._reload()
        elif kind == "ready":
            seat = notice.get("seat")
            await self._ready(seat if isinstance(seat, int) else None, tell=False)
        elif kind == "chat" and isinstance(notice.get("line"), dict):
            line = ChatLine.read(notice["line"])
            self.chat[line.channel].append(line)
            await self._tell_channel(line)
        elif kind == "pace":
            self.fast = bool(notice.get("fast"))

    async def reread_chat(self) -> None:
        """Read the table's recent chat again: lines said in other processes whose notices were
        lost are kept, and sent to whoever listens on their channel here."""
        if self.store is None:
            return
        for channel in Channel:
            stored = [ChatLine.read(line) for line in self.store.chat(self.id, channel, KEPT_LINES)]
            missed = _unseen(list(self.chat[channel]), stored)
            self.chat[channel].extend(missed)
            for line in missed:
                await self._tell_channel(line)

    async def _tell_channel(self, line: ChatLine) -> None:
        """Send a chat line to whoever listens on its channel here."""
        await self.audience.send_where(line.to_json(), lambda listener: Channel.of(listener.seat) is line.channel)

    def _save(self, settings: TableSettings | None = None, status: TableStatus | None = None) -> None:
        """Store the table as it will be with ``settings`` and ``status``: StorageUnavailable, and
        nothing changes, when the store does not answer."""
        if self.store is not None:
            self.store.update_table(self.id, (settings or self.settings).to_json(), (status or self.status).value)

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

    def join(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """Take an open seat (the first, unless one is named); the seat and its new token."""
        if self.status is not TableStatus.OPEN:
            raise TableError("the match has started: no seat is free", "no_seat_free")
        free = [index for index, place in enumerate(self.seats) if place.open]
        if seat is None:
            if not free:
                raise TableError("every seat is taken", "no_seat_free")
            seat = free[0]
        if seat not in free:
            raise TableError(f"seat {seat + 1} is not free", "seat_not_free", seat=seat + 1)
        token = secrets.token_urlsafe(18)
        seats = list(self.seats)
        seats[seat] = Seat(name=person_name(name), token_hash=token_hash(token))
        settings = self.settings.with_seats(tuple(seats))
        self._save(settings)
        self.settings = settings
        self.tell("table")
        self.audience.touched = time.monotonic()
        return seat, token

    async def start(self, token: str | None) -> None:
        """The host starts: open seats get the table's bot level."""
        if not self.is_host(token):
            raise TableError("only the host can start the match", "host_only")
        if self.status is not TableStatus.OPEN:
            raise TableError("the match has already started", "already_started")
        level = self.settings.fill_level
        settings = self.settings.with_seats(
            tuple(Seat(name=level, bot=level) if seat.open else seat for seat in self.seats)
        )
        self._save(settings, TableStatus.PLAYING)
        self.settings = settings
        self.match = Match(self.rules, seed=self.settings.seed)
        self.status = TableStatus.PLAYING
        self.tell("table")
        await self.changed()

    def tell(self, kind: str, **fields: Any) -> None:
        """Announce a change here to the other server processes."""
        if self.hub is not None:
            self.hub.tell(self.id, kind, **fields)

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
            return {"type": "ack", "id": client_id, "version": version_made, "repeated": True}
        # once under way a move is seen through, even if its socket closes meanwhile: a move stored
        # but not played here would leave this copy behind the store
        return await asyncio.shield(self._submit(seat, version, text, client_id))

    async def _submit(self, seat: int, version: int, text: str, client_id: str | None) -> dict[str, Any]:
        async with self._changing:
            if version != self.version:
                await self._catch_up()  # another process may have moved the table on
            match = self._round_under_way()
            if version != self.version:
                raise TableError(
                    f"that move was made against version {version}; the table is at {self.version}", "stale_version"
                )
            self._must_be_turn_of(match, seat)
            try:
                code = match.rounds[-1].resolve(text)
            except IllegalMove as error:
                raise TableError(str(error), error.reason, **error.details) from None
            await self._apply(seat, code, client_id)
            return {"type": "ack", "id": client_id, "version": self.version}

    async def _apply(self, seat: int, code: MoveCode, client_id: str | None = None) -> None:
        """Store a legal move, then play it and tell everyone (with the table held: while the
        store answers, the other tables of this process go on)."""
        assert self.match is not None
        text = self.match.rounds[-1].notation(code)
        if self.store is not None:
            notice = (
                self.hub.notice(self.id, "move", version=self.version + 1, seat=seat, move=text, client_id=client_id)
                if self.hub is not None
                else ""
            )
            try:
                await self.store.store_move(self.id, self.version + 1, seat, text, client_id, notice)
            except VersionTaken:
                await self._catch_up()  # another process stored this version first
                raise
        self.last = self.match.play(code)
        self.version += 1
        if client_id:
            self._remember(seat, client_id, text)
        if self.match.over:
            self.status = TableStatus.FINISHED
            with contextlib.suppress(StorageUnavailable):  # the moves say it is over when it is read back
                self._save()
            if self.hub is not None:
                self.hub.release(self.id)
        elif self.last.round_over:
            self.waiting = self.people()  # everyone sees the round end and its breakdown first
        await self.changed()

    async def deal_on(self, seat: int | None) -> dict[str, Any]:
        """A player is ready for the next deal; once every player is, play goes on."""
        if seat is None:
            raise TableError("you have no seat at this table", "no_seat")
        await self._ready(seat)
        return {"type": "dealt_on", "version": self.version}

    async def _ready(self, seat: int | None, tell: bool = True) -> None:
        """``seat`` is ready for the next deal (None: every seat, the wait is over)."""
        async with self._changing:
            await self._ready_held(seat, tell)

    async def _ready_held(self, seat: int | None, tell: bool) -> None:
        if seat is None or (self.waiting is not None and seat in self.waiting):
            self.waiting = None if seat is None or self.waiting is None else self.waiting - {seat} or None
            if tell:
                self.tell("ready", seat=seat)
            await self.changed()

    async def hint(self, seat: int | None, lang: str) -> dict[str, Any]:
        """A hint for the person to play, where the table allows hints: the move, a one-line
        reason in ``lang`` and the expected edge in points. One is thought out per seat and
        version, however often it is asked for."""
        if seat is None:
            raise TableError("you have no seat at this table", "no_seat")
        if not self.settings.hints:
            raise TableError("this table gives no hints", "no_hints")
        match = self._round_under_way()
        self._must_be_turn_of(match, seat)
        assert self.bots is not None
        asked = self._hints.get((seat, lang))
        if asked is None or asked[0] != self.version:
            game = match.rounds[-1]
            seed = bot_seed(self.settings.seed, seat, game=self.version)
            thinking = self.bots.hint(self.owner, game.view(seat), game.legal_moves(), lang, seed)
            asked = (self.version, asyncio.ensure_future(thinking))
            self._hints[seat, lang] = asked
        version, thinking_task = asked
        advice = await asyncio.shield(thinking_task)
        return {
            "type": "hint",
            "version": version,
            **advice.move.to_json(),
            "move": advice.move.text(),
            "shown": advice.move.text(symbols=True),
            "reason": advice.reason,
            "edge": None if advice.edge is None else round(advice.edge, 2),
        }

    def _round_under_way(self) -> Match:
        """The match, when a round is being played; else TableError says why not."""
        if self.match is None or self.status is not TableStatus.PLAYING:
            raise TableError("the match is not under way", "not_under_way")
        if self.waiting is not None:
            raise TableError("the round is over: say when you are ready for the next deal", "between_rounds")
        return self.match

    def _must_be_turn_of(self, match: Match, seat: int) -> None:
        if match.turn != seat:
            name = self.seats[match.turn].name if match.turn is not None else ""
            raise TableError("it is not your turn", "not_your_turn", name=name)

    async def set_pace(self, seat: int | None, fast: bool) -> dict[str, Any]:
        """A player asks the bots to play at the usual pace or faster."""
        if seat is None:
            raise TableError("you have no seat at this table", "no_seat")
        self.fast = fast
        self.tell("pace", fast=fast)
        return {"type": "pace", "fast": fast}

    async def say(
        self,
        seat: int | None,
        text: str | None,
        phrase: str | None,
        name: str | None = None,
        may_say: Callable[[], bool] = lambda: True,
    ) -> dict[str, Any]:
        """A chat line from ``seat`` (None: a spectator, who may give a ``name``), told to its
        channel and stored, if ``may_say`` (the writer's pace) allows; TableError says what is
        wrong with it, and nothing is said then."""
        if (text is None) == (phrase is None):
            raise TableError("say a text or a quick phrase, not both", "chat_empty")
        channel = Channel.of(seat)
        shown = (self.seats[seat].name or "") if seat is not None else person_name(name) if name else "spectator"
        line = ChatLine(
            channel,
            seat,
            shown,
            text=chat_text(text) if text is not None else None,
            phrase=chat_phrase(phrase) if phrase is not None else None,
        )
        if not may_say():
            raise TooManyRequests("you are writing too fast: wait a few seconds", "chat_too_fast")
        if self.store is not None:
            self.store.add_chat(self.id, line.stored())
        self.tell("chat", line=line.stored())
        self.chat[channel].append(line)
        await self._tell_channel(line)
        return {"type": "said"}

    async def changed(self) -> None:
        """Send every listener its projection; then let a bot move or start the turn timer."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        loop = asyncio.get_running_loop()
        seat = self.match.turn if self.match is not None and self.status is TableStatus.PLAYING else None
        waiting_for_people = self.waiting is not None or (seat is not None and not self.seats[seat].bot)
        self.deadline = loop.time() + self.settings.timer if waiting_for_people and self.settings.timer else None
        await self.audience.send_each(lambda listener: self.projection(listener.seat))
        self.schedule()

    def runs_alone(self) -> bool:
        """Whether something happens next without a person (a bot's move, the turn timer): what
        the table's owner runs."""
        if self.match is None or self.status is not TableStatus.PLAYING:
            return False
        seat = self.match.turn
        assert seat is not None
        return bool(self.settings.timer or (self.waiting is None and self.seats[seat].bot))

    def schedule(self) -> None:
        """Start what happens next without a person: a bot's move, or the turn timer (only in the
        process that owns the table, when several share it)."""
        if self._task is not None or not self.runs_alone():
            return
        if self.hub is not None and not self.hub.owns(self.id):
            return
        assert self.match is not None
        seat = self.match.turn
        assert seat is not None
        loop = asyncio.get_running_loop()
        if self.waiting is not None:
            if self.settings.timer:  # the turn timer ends the wait between rounds too
                if self.deadline is None:
                    self.deadline = loop.time() + self.settings.timer
                self._task = loop.create_task(self._end_wait(max(0.0, self.deadline - loop.time())))
        elif self.seats[seat].bot:
            delay = (self.bots.delay if self.bots is not None else 0.0) / (FAST_PACE if self.fast else 1.0)
            self._task = loop.create_task(self._bot_move(seat, self.seats[seat].bot or STAND_IN, delay))
        elif self.settings.timer:
            if self.deadline is None:
                self.deadline = loop.time() + self.settings.timer
            delay = max(0.0, self.deadline - loop.time())
            self._task = loop.create_task(self._bot_move(seat, STAND_IN, delay))

    async def _end_wait(self, delay: float) -> None:
        """The wait between rounds ends after ``delay`` seconds, ready or not."""
        await asyncio.sleep(delay)
        self._task = None
        await self._ready(None)

    async def _bot_move(self, seat: int, level: str, delay: float) -> None:
        """The bot of ``level`` plays for ``seat`` after ``delay`` seconds, unless the table moved
        on; while the storage does not answer it tries again every few seconds."""
        assert self.match is not None and self.bots is not None
        version = self.version
        await asyncio.sleep(delay)
        game = self.match.rounds[-1]
        view, legal = game.view(seat), game.legal_moves()
        seed = bot_seed(self.settings.seed, seat, game=self.version)  # a bot is made afresh for each move
        move = await self.bots.move(self.owner, level, seed, view, legal)
        while self.version == version and self.status is TableStatus.PLAYING:
            try:
                self._task = None
                async with self._changing:
                    if self.version != version or self.status is not TableStatus.PLAYING:
                        return  # the table moved on while this waited for it
                    await self._apply(seat, move.code)
            except VersionTaken:
                return  # another process moved first: this copy has caught up
            except StorageUnavailable:
                log.warning("table %s: the storage is not answering; the bot's move waits", self.id)
                self._task = asyncio.current_task()
                await asyncio.sleep(STORAGE_RETRY_SECONDS)

    # -- what listeners see -----------------------------------------------------------------------

    async def connect(self, send: Send, seat: int | None, since: int | None) -> Listener:
        """A new listener, sent its projection and its channel's recent chat; TableError when a
        spectator finds the table full."""
        listener = self.audience.add(send, seat)
        first = self.projection(seat, since)
        first["chat"] = [line.to_json() for line in self.chat[Channel.of(seat)]]  # the recent lines, once
        await deliver(listener, first)
        return listener

    async def disconnect(self, listener: Listener) -> None:
        self.audience.remove(listener)

    def projection(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """Everything ``seat`` may know (None: a spectator), with the moves since ``since``."""
        table = table_json(self.id, self.settings, self.status, self.audience.connected(), seat)
        table["fast"] = self.fast
        state = state_json(self.match, seat, self.version, table, self.last, self.waiting)
        if self.match is not None:
            if self.deadline is not None:
                state["seconds_left"] = max(0.0, round(self.deadline - asyncio.get_running_loop().time(), 1))
            if since is not None and since < self.version:
                state["missed"] = played_since(self.match, since)
        return state

    def finished_match(self) -> Match:
        """The match, once it is over (its record shows every deck, so not before)."""
        if self.match is None or self.status is not TableStatus.FINISHED:
            raise TableError("the record is available once the match is over", "not_finished")
        return self.match

    def analysis(self) -> dict[str, Any]:
        """The people's moves of the finished match judged so far, each with its verdict and what
        to say of it in each language; the first call starts judging them, in the bot workers,
        one move at a time."""
        match = self.finished_match()
        if self._analysis is None:
            people = [seat for seat, place in enumerate(self.seats) if place.bot is None]
            try:
                tasks = analysis_tasks(match, people, self.settings.seed)
            except SolveError as error:
                return {"done": True, "moves": [], "total": 0, "unavailable": str(error)}
            self._analysis = asyncio.ensure_future(self._judge_all(tasks))
            self._judged_total = len(tasks)
        return {"done": self._analysis.done(), "moves": list(self._judged), "total": self._judged_total}

    async def _judge_all(self, tasks: list[Task]) -> None:
        assert self.bots is not None
        for task in tasks:
            judged = await self.bots.judge(self.owner, task)
            if judged is not None:
                lines = {lang: judgement_line(judged, lang) for lang in LANGUAGES}
                self._judged.append({**judged.to_json(), "lines": lines})

    def replay(self) -> list[dict[str, Any]]:
        """Every position of the finished match, for the replay view."""
        return replay_steps(self.finished_match())

    def record(self) -> dict[str, Any]:
        """The finished match as pasur-record/1."""
        names = [seat.name or "" for seat in self.seats]
        return to_record(self.finished_match(), names=names, table=self.id)


def _offered(stored: StoredTable, bots: BotPool) -> TableSettings:
    """A stored table's settings; ValueError if they name a bot level this server does not offer
    (a table is never trusted to name a program)."""
    settings = TableSettings.from_json(stored.settings)
    for level in settings.bot_levels():
        if level not in bots.levels:
            raise ValueError(f"table {stored.id} names the bot {level[:40]!r}, which this server does not offer")
    return settings


def _cursor_key(cursor: str) -> tuple[int, str]:
    """A lobby cursor read back (``created.id``); TableError if it is not one."""
    created, dot, table_id = cursor.partition(".")
    if not (dot and created.isascii() and created.isdigit() and len(created) <= 20 and _TABLE_ID.fullmatch(table_id)):
        raise TableError("that page of the lobby does not exist: start from the first", "bad_cursor")
    return int(created), table_id


def _unseen(known: list[ChatLine], stored: list[ChatLine]) -> list[ChatLine]:
    """The lines at the end of ``stored`` (the latest, oldest first) that ``known`` lacks: after
    the longest start of ``stored`` with which ``known`` ends."""
    if not known:
        return stored
    for kept in range(len(stored), -1, -1):
        overlap = min(kept, len(known))
        if stored[kept - overlap : kept] == known[len(known) - overlap :]:
            return stored[kept:]
    return stored


def _spelled(text: str) -> str:
    """A move's short text with case and spaces set aside, to tell a repeat from another move."""
    return "".join(text.split()).upper()


class Lobby:
    """Every table of this server process, over one store, its bots played by ``bots``."""

    def __init__(self, store: Store, bots: BotPool, spectators_per_table: int = 20) -> None:
        self.store = store
        self.bots = bots
        self.spectators_per_table = spectators_per_table
        self.rooms: dict[str, TableRoom] = {}
        self.hub = Hub(store)
        #: When the store's tables were last read in.
        self._tables_read: datetime | None = None

    def restore(self) -> int:
        """Load the tables that are not finished; how many. A table that names a bot this server
        does not offer is left in the store, and the log says why."""
        self._read_tables()
        return len(self.rooms)

    def _read_tables(self) -> None:
        """Read in the unfinished tables not held here: all of them the first time, then those
        made since the last reading (less :data:`CLOCK_MARGIN`, for other machines' clocks)."""
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
            room = TableRoom.restore(stored, self.store, self.bots, self.hub)
        except (ValueError, KeyError, TypeError) as error:
            log.warning("not restoring a stored table: %s", error)
            return None
        room.audience.spectator_limit = self.spectators_per_table
        return room

    def resume(self) -> None:
        """Once the event loop runs: bots and timers of restored tables carry on (those this
        process owns), and other processes' notices are listened to."""
        for room in self.rooms.values():
            room.schedule()
        self.hub.start(self.heard, self.sweep)

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's notice: the table it names, if held here, catches up (a table new to
        this process is read in, for the lobby)."""
        table_id = notice["table"]
        room = self.rooms.get(table_id)
        if room is not None:
            await room.heard(notice)
        elif notice.get("kind") == "table" and _TABLE_ID.fullmatch(table_id):
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
                await room.reread_chat()
        playing = [room for room in self.rooms.values() if room.status is TableStatus.PLAYING]
        latest = self.store.latest_versions([room.id for room in playing]) if playing else {}
        for room in playing:
            if latest.get(room.id, 0) > room.version:
                await room.catch_up()
        self.hub.claim([room.id for room in playing if room.runs_alone()])  # one round trip for all
        for room in playing:
            room.schedule()

    def forget_idle(self) -> int:
        """Let go of the tables nobody is watching that are finished, or open and untouched for
        :data:`OPEN_TABLE_SECONDS` (the store keeps them, and :meth:`get` reads one back when
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

    def get(self, table_id: str) -> TableRoom:
        room = self.rooms.get(table_id)
        if room is None:
            stored = self.store.table(table_id)
            if stored is None:
                raise NoSuchTable("there is no such table", "no_such_table")
            restored = self._restored(stored)
            if restored is None:
                raise NoSuchTable("this table cannot be played on this server", "table_refused")
            self.rooms[table_id] = room = restored
        return room

    def open_tables(
        self, cursor: str | None = None, limit: int = LISTED_TABLES
    ) -> tuple[list[dict[str, Any]], str | None]:
        """The public tables waiting for people, newest first, at most ``limit`` after ``cursor``
        (the ``next`` of the page before); and the cursor of the next page, None at the end.
        TableError for a cursor this server did not give."""
        after = _cursor_key(cursor) if cursor else None
        waiting = sorted(
            (
                (room.created, table_id)
                for table_id, room in self.rooms.items()
                if room.settings.public and room.status is TableStatus.OPEN and any(seat.open for seat in room.seats)
            ),
            reverse=True,
        )
        if after is not None:
            waiting = [key for key in waiting if key < after]
        page = waiting[:limit]
        tables = [self.rooms[table_id].settings.listing(table_id) for _, table_id in page]
        more = len(waiting) > limit
        return tables, f"{page[-1][0]}.{page[-1][1]}" if more else None

    def create(
        self,
        name: str,
        rules: Rules,
        seats: list[str],
        timer: int,
        fill_level: str,
        owner: str = "",
        public: bool = False,
        hints: bool | None = None,
    ) -> tuple[str, str]:
        """A new table with its creator in seat 0; ``seats`` says, for every other seat, "friend"
        or a bot level, and ``fill_level`` who takes the seats left open. ``owner`` is the address
        whose bots' moves wait in line together; ``hints`` whether people may ask for hints (by
        default, when everyone else at the table is a bot). The table id and the creator's token."""
        if len(seats) != rules.players - 1:
            raise TableError(
                f"seats: say who sits in each of the other {rules.players - 1} seats",
                "seats_count",
                count=rules.players - 1,
            )
        for level in [*seats, fill_level]:
            if level != "friend" and level not in self.bots.levels:
                known = ", ".join(self.bots.levels)
                raise TableError(f"unknown level '{level[:40]}' (levels: {known})", "bad_level", level=level[:40])
        name = person_name(name)
        self.forget_idle()  # memory holds the tables in use, not every table ever made
        token = secrets.token_urlsafe(18)
        places = [Seat(name=name, token_hash=token_hash(token))]
        places += [Seat() if level == "friend" else Seat(name=level, bot=level) for level in seats]
        table_id = secrets.token_urlsafe(6)
        settings = TableSettings(
            rules=rules,
            seed=random.randrange(1 << 48),
            seats=tuple(places),
            host_hash=token_hash(token),
            timer=timer,
            fill_level=fill_level,
            public=public,
            hints="friend" not in seats if hints is None else hints,
        )
        room = TableRoom(
            table_id,
            settings,
            store=self.store,
            bots=self.bots,
            hub=self.hub,
            owner=owner or table_id,
            audience=Audience(len(places), self.spectators_per_table),
            created=time.time_ns(),
        )
        self.store.create_table(table_id, settings.to_json(), room.status.value)
        room.tell("table")
        self.rooms[table_id] = room
        return table_id, token
