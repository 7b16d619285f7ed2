"""Tables: seats, the match, versioned moves, bots, the turn timer and what each listener is sent.

The server owns the state. Each listener (a browser's WebSocket) is sent its own projection: a
seat gets its seat's view and its legal moves, a spectator the public view. A move names the
version it was made against: a stale one is refused, a repeated one (same client id) acknowledged
again and not applied twice. A move is stored before it is applied and acknowledged."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core import IllegalMove, Match, Move, MoveCode, Rules, cards_in, short_texts, to_record
from ..core.record import positions
from ..host import STAND_IN, bot_seed
from .bots import BotPool
from .errors import NoSuchTable, StorageUnavailable, TableError
from .store import Store

log = logging.getLogger("pasur.server")

#: A listener: something that takes a JSON-ready message (a WebSocket, in the app).
Send = Callable[[dict[str, Any]], Awaitable[None]]

#: Client move ids remembered per table, to acknowledge a repeated move.
REMEMBERED_IDS = 256
#: How long a table nobody has started or watched stays in memory (the store keeps it).
OPEN_TABLE_SECONDS = 3600.0
#: The longest name, in characters a person sees.
NAME_LENGTH = 32
#: Seconds between tries of a bot's move while the storage is not answering.
STORAGE_RETRY_SECONDS = 2.0
#: Seconds over which spectators coming and going are told as one presence message.
PRESENCE_SECONDS = 0.25
#: Characters that reorder text around them (bidirectional embeddings, overrides and isolates).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def person_name(raw: str) -> str:
    """A person's name as the tables keep it: trimmed, 1 to :data:`NAME_LENGTH` visible
    characters of any script with ordinary punctuation. TableError refuses control and
    text-direction characters (``name_control``), a name nothing of which shows (``name_empty``)
    and a longer one (``name_too_long``)."""
    name = unicodedata.normalize("NFC", raw).strip()
    if any(unicodedata.category(char) == "Cc" or char in _BIDI_CONTROLS for char in name):
        raise TableError("a name may not hold control or text-direction characters", "name_control")
    visible = [char for char in name if unicodedata.category(char) not in ("Cf", "Zs", "Zl", "Zp", "Mn", "Me")]
    if not visible:
        raise TableError("say a name with at least one visible character", "name_empty")
    if len(visible) > NAME_LENGTH:
        limit = NAME_LENGTH
        raise TableError(f"a name may have at most {limit} characters", "name_too_long", limit=limit)
    return name


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    """A seat: open (waiting for a friend), a person's (token hash kept), or a bot's."""

    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None

    @property
    def open(self) -> bool:
        return self.name is None and self.bot is None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "token_hash": self.token_hash}


@dataclass
class Listener:
    send: Send
    seat: int | None


@dataclass
class TableRoom:
    """One table in this server process."""

    id: str
    rules: Rules
    seed: int
    seats: list[Seat]
    host_hash: str
    timer: int = 0
    fill_level: str = "medium"
    status: str = "open"  # open → playing → finished
    store: Store | None = None
    bots: BotPool | None = None
    #: Whose bot moves wait in line together: the address that made the table (its id once restored).
    owner: str = ""
    spectator_limit: int = 20
    match: Match | None = None
    version: int = 0
    #: (seat, client move id) → (the version it made, its move's short text).
    client_ids: dict[tuple[int, str], tuple[int, str]] = field(default_factory=dict)
    listeners: list[Listener] = field(default_factory=list)
    deadline: float | None = None  # loop time when the turn timer runs out
    touched: float = field(default_factory=time.monotonic)  # when someone last joined, came or went
    _task: asyncio.Task[None] | None = None
    _presence: asyncio.TimerHandle | None = None

    # -- settings and restoring -----------------------------------------------------------------

    def settings(self, seats: list[Seat] | None = None) -> dict[str, Any]:
        """What the store keeps of the table (with ``seats`` instead of the present ones)."""
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "seats": [seat.to_json() for seat in seats or self.seats],
            "host_hash": self.host_hash,
            "timer": self.timer,
            "fill_level": self.fill_level,
        }

    @classmethod
    def restore(cls, table_id: str, settings: dict[str, Any], status: str, store: Store, bots: BotPool) -> TableRoom:
        """A table as stored, its moves replayed through the engine. ValueError if it names a bot
        level this server does not offer (a table is never trusted to name a program)."""
        seats = [Seat(**seat) for seat in settings["seats"]]
        fill_level = settings.get("fill_level", STAND_IN)
        for level in [fill_level, *(seat.bot for seat in seats if seat.bot)]:
            if level not in bots.levels:
                raise ValueError(f"table {table_id} names the bot {level[:40]!r}, which this server does not offer")
        room = cls(
            id=table_id,
            rules=Rules.from_dict(settings["rules"]),
            seed=int(settings["seed"]),
            seats=seats,
            host_hash=settings["host_hash"],
            timer=int(settings.get("timer", 0)),
            fill_level=fill_level,
            status=status,
            store=store,
            bots=bots,
            owner=table_id,
        )
        if status != "open":
            room.match = Match(room.rules, seed=room.seed)
            for version, seat, move, client_id in store.moves(table_id):
                room.match.play(move)
                room.version = version
                if client_id:
                    room.client_ids[seat, client_id] = (version, move)
            if room.match.over:
                room.status = "finished"
        return room

    def _save(self, seats: list[Seat] | None = None, status: str | None = None) -> None:
        """Store the table as it will be with ``seats`` and ``status``: StorageUnavailable, and
        nothing changes, when the store does not answer."""
        if self.store is not None:
            self.store.update_table(self.id, self.settings(seats), status or self.status)

    # -- seats ----------------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None."""
        if not token:
            return None
        digest = token_hash(token)
        return next((index for index, seat in enumerate(self.seats) if seat.token_hash == digest), None)

    def is_host(self, token: str | None) -> bool:
        return bool(token) and token_hash(token or "") == self.host_hash

    def join(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """Take an open seat (the first, unless one is named); the seat and its new token."""
        if self.status != "open":
            raise TableError("the match has started: no seat is free", "no_seat_free")
        free = [index for index, place in enumerate(self.seats) if place.open]
        if seat is None:
            if not free:
                raise TableError("every seat is taken", "no_seat_free")
            seat = free[0]
        if seat not in free:
            raise TableError(f"seat {seat + 1} is not free", "seat_not_free", seat=seat + 1)
        token = secrets.token_urlsafe(18)
        seats = [*self.seats]
        seats[seat] = Seat(name=person_name(name), token_hash=token_hash(token))
        self._save(seats)
        self.seats = seats
        self.touched = time.monotonic()
        return seat, token

    async def start(self, token: str | None) -> None:
        """The host starts: open seats get the table's bot level."""
        if not self.is_host(token):
            raise TableError("only the host can start the match", "host_only")
        if self.status != "open":
            raise TableError("the match has already started", "already_started")
        seats = [Seat(name=self.fill_level, bot=self.fill_level) if seat.open else seat for seat in self.seats]
        self._save(seats, "playing")
        self.seats = seats
        self.match = Match(self.rules, seed=self.seed)
        self.status = "playing"
        await self.changed()

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
        if self.match is None or self.status != "playing":
            raise TableError("the match is not under way", "not_under_way")
        if version != self.version:
            raise TableError(
                f"that move was made against version {version}; the table is at {self.version}", "stale_version"
            )
        if self.match.turn != seat:
            name = self.seats[self.match.turn].name if self.match.turn is not None else ""
            raise TableError("it is not your turn", "not_your_turn", name=name)
        try:
            code = self.match.rounds[-1].resolve(text)
        except IllegalMove as error:
            raise TableError(str(error), error.reason, **error.details) from None
        await self.apply(seat, code, client_id)
        return {"type": "ack", "id": client_id, "version": self.version}

    async def apply(self, seat: int, code: MoveCode, client_id: str | None = None) -> None:
        """Store a legal move, then play it and tell everyone."""
        assert self.match is not None
        text = self.match.rounds[-1].notation(code)
        if self.store is not None:
            self.store.add_move(self.id, self.version + 1, seat, text, client_id)
        self.match.play_code(code)
        self.version += 1
        if client_id:
            self.client_ids[seat, client_id] = (self.version, text)
            if len(self.client_ids) > REMEMBERED_IDS:
                self.client_ids.pop(next(iter(self.client_ids)))
        if self.match.over:
            self.status = "finished"
            with contextlib.suppress(StorageUnavailable):  # the moves say it is over when it is read back
                self._save()
        await self.changed()

    async def changed(self) -> None:
        """Send every listener its projection; then let a bot move or start the turn timer."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        loop = asyncio.get_running_loop()
        seat = self.match.turn if self.match is not None and self.status == "playing" else None
        waiting_for_person = seat is not None and not self.seats[seat].bot and self.timer
        self.deadline = loop.time() + self.timer if waiting_for_person else None
        await asyncio.gather(*(self._send(listener) for listener in list(self.listeners)))
        self.schedule()

    def schedule(self) -> None:
        """Start what happens next without a person: a bot's move, or the turn timer."""
        if self.match is None or self.status != "playing" or self._task is not None:
            return
        seat = self.match.turn
        assert seat is not None
        loop = asyncio.get_running_loop()
        if self.seats[seat].bot:
            delay = self.bots.delay if self.bots is not None else 0.0
            self._task = loop.create_task(self._bot_move(seat, self.seats[seat].bot or STAND_IN, delay))
        elif self.timer:
            if self.deadline is None:
                self.deadline = loop.time() + self.timer
            delay = max(0.0, self.deadline - loop.time())
            self._task = loop.create_task(self._bot_move(seat, STAND_IN, delay))

    async def _bot_move(self, seat: int, level: str, delay: float) -> None:
        """The bot of ``level`` plays for ``seat`` after ``delay`` seconds, unless the table moved
        on; while the storage does not answer it tries again every few seconds."""
        assert self.match is not None and self.bots is not None
        version = self.version
        await asyncio.sleep(delay)
        game = self.match.rounds[-1]
        view, legal = game.view(seat), game.legal_moves()
        seed = bot_seed(self.seed, seat, game=self.version)  # a bot is made afresh for each move
        move = await self.bots.move(self.owner, level, seed, view, legal)
        while self.version == version and self.status == "playing":
            try:
                self._task = None
                await self.apply(seat, move.code)
            except StorageUnavailable:
                log.warning("table %s: the storage is not answering; the bot's move waits", self.id)
                self._task = asyncio.current_task()
                await asyncio.sleep(STORAGE_RETRY_SECONDS)

    # -- what listeners see -----------------------------------------------------------------------

    async def connect(self, send: Send, seat: int | None, since: int | None) -> Listener:
        """A new listener, sent its projection; TableError when a spectator finds the table full."""
        if seat is None and self.spectators() >= self.spectator_limit:
            limit = self.spectator_limit
            raise TableError(f"this table has its {limit} spectators already", "too_many_spectators", limit=limit)
        listener = Listener(send, seat)
        self.listeners.append(listener)
        self.touched = time.monotonic()
        await self._send(listener, since)
        self._presence_changed()
        return listener

    async def disconnect(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)
            self.touched = time.monotonic()
            self._presence_changed()

    def spectators(self) -> int:
        return sum(1 for listener in self.listeners if listener.seat is None)

    def connected(self) -> list[bool]:
        """For each seat, whether someone is connected to it."""
        present = {listener.seat for listener in self.listeners}
        return [index in present for index in range(len(self.seats))]

    def presence(self) -> dict[str, Any]:
        """Who is here: each seat's connection, and how many watch."""
        return {"type": "presence", "connected": self.connected(), "spectators": self.spectators()}

    def _presence_changed(self) -> None:
        """Someone came or went: everyone is told in one small message, once for every change
        within :data:`PRESENCE_SECONDS` (never a whole state per coming and going)."""
        if self._presence is None:
            loop = asyncio.get_running_loop()
            self._presence = loop.call_later(PRESENCE_SECONDS, lambda: loop.create_task(self._tell_presence()))

    async def _tell_presence(self) -> None:
        self._presence = None
        message = self.presence()
        await asyncio.gather(*(self._deliver(listener, message) for listener in list(self.listeners)))

    @staticmethod
    async def _deliver(listener: Listener, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # a closed socket: it is removed when its handler ends
            await listener.send(message)

    async def _send(self, listener: Listener, since: int | None = None) -> None:
        await self._deliver(listener, self.projection(listener.seat, since))

    def projection(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """Everything ``seat`` may know (None: a spectator), with the moves since ``since``."""
        connected = self.connected()
        table = {
            "id": self.id,
            "status": self.status,
            "rules": self.rules.to_dict(),
            "seats": [
                {"name": place.name, "bot": place.bot, "open": place.open, "connected": here}
                for place, here in zip(self.seats, connected, strict=True)
            ],
            "timer": self.timer,
            "you": seat,
        }
        state: dict[str, Any] = {"type": "state", "version": self.version, "table": table}
        if self.match is None:
            return state
        game = self.match.rounds[-1]
        state["view"] = game.view(seat).to_json() if seat is not None else game.public_json()
        mine = seat is not None and self.match.turn == seat
        codes = game.legal_codes() if mine else []
        state["legal"] = [
            {"text": text, **Move.from_code(code).to_json()}
            for text, code in zip(short_texts(codes), codes, strict=True)
        ]
        state["scores"] = list(self.match.scores)
        state["winner"] = self.match.winner
        state["rounds"] = [round_summary(done) for done in self.match.rounds if done.over]
        if self.deadline is not None:
            state["seconds_left"] = max(0.0, round(self.deadline - asyncio.get_running_loop().time(), 1))
        if since is not None and since < self.version:
            state["missed"] = self.played_since(since)
        return state

    def played_since(self, version: int) -> list[dict[str, Any]]:
        """The moves after ``version``, as everyone saw them."""
        assert self.match is not None
        plays: list[dict[str, Any]] = []
        for game in self.match.rounds:
            for index, code in enumerate(game.history):
                plays.append({"round": game.number, "seat": (game.first + index) % self.rules.players, "code": code})
        return [
            {"version": number, "round": play["round"], "seat": play["seat"], **Move.from_code(play["code"]).to_json()}
            for number, play in enumerate(plays, start=1)
            if number > version
        ]

    def replay(self) -> list[dict[str, Any]]:
        """Every position of the finished match, for the replay view: table, hands, the move."""
        self.record()  # the same condition: only once the match is over
        assert self.match is not None
        steps: list[dict[str, Any]] = []
        for game, move in positions(self.match):
            steps.append(
                {
                    "round": game.number,
                    "deal": game.deal,
                    "table": [str(card) for card in cards_in(game.table)],
                    "hands": [[str(card) for card in cards_in(hand)] for hand in game.hands],
                    "seat": (game.first + len(game.history) - 1) % self.rules.players if move else None,
                    "move": move.to_json() if move else None,
                    "scores": list(game.banked),
                }
            )
        return steps

    def record(self) -> dict[str, Any]:
        """The finished match as pasur-record/1 (the decks are in it, so only once it is over)."""
        if self.match is None or self.status != "finished":
            raise TableError("the record is available once the match is over", "not_finished")
        return to_record(self.match, names=[seat.name or "" for seat in self.seats], table=self.id)


def _spelled(text: str) -> str:
    """A move's short text with case and spaces set aside, to tell a repeat from another move."""
    return "".join(text.split()).upper()


def round_summary(game: Any) -> dict[str, Any]:
    """A finished round's breakdown per side (public: every capture was seen)."""
    return {"number": game.number, "sides": [{"points": score.total, **asdict(score)} for score in game.breakdown()]}


class Lobby:
    """Every table of this server process, over one store, its bots played by ``bots``."""

    def __init__(self, store: Store, bots: BotPool, spectators_per_table: int = 20) -> None:
        self.store = store
        self.bots = bots
        self.spectators_per_table = spectators_per_table
        self.rooms: dict[str, TableRoom] = {}

    def restore(self) -> int:
        """Load the tables that are not finished; how many. A table that names a bot this server
        does not offer is left in the store, and the log says why."""
        for table_id, settings, status in self.store.tables(("open", "playing")):
            room = self._restored(table_id, settings, status)
            if room is not None:
                self.rooms[table_id] = room
        return len(self.rooms)

    def _restored(self, table_id: str, settings: dict[str, Any], status: str) -> TableRoom | None:
        """A stored table, or None (and the log says why) when it names a bot not offered here."""
        try:
            room = TableRoom.restore(table_id, settings, status, self.store, self.bots)
        except ValueError as error:
            log.warning("not restoring a stored table: %s", error)
            return None
        room.spectator_limit = self.spectators_per_table
        return room

    def resume(self) -> None:
        """Once the event loop runs: bots and timers of restored tables carry on."""
        for room in self.rooms.values():
            room.schedule()

    def forget_idle(self) -> int:
        """Let go of the tables nobody is watching that are finished, or open and untouched for
        :data:`OPEN_TABLE_SECONDS` (the store keeps them, and :meth:`get` reads one back when
        asked); how many."""
        now = time.monotonic()
        idle = [
            table_id
            for table_id, room in self.rooms.items()
            if not room.listeners
            and (room.status == "finished" or (room.status == "open" and now - room.touched > OPEN_TABLE_SECONDS))
        ]
        for table_id in idle:
            del self.rooms[table_id]
        return len(idle)

    def get(self, table_id: str) -> TableRoom:
        room = self.rooms.get(table_id)
        if room is None:
            stored = self.store.table(table_id)
            if stored is None:
                raise NoSuchTable("there is no such table", "no_such_table")
            restored = self._restored(table_id, stored[0], stored[1])
            if restored is None:
                raise NoSuchTable("this table cannot be played on this server", "table_refused")
            self.rooms[table_id] = room = restored
        return room

    def create(
        self, name: str, rules: Rules, seats: list[str], timer: int, fill_level: str, owner: str = ""
    ) -> tuple[str, str]:
        """A new table with its creator in seat 0; ``seats`` says, for every other seat, "friend"
        or a bot level, and ``fill_level`` who takes the seats left open. ``owner`` is the address
        whose bots' moves wait in line together. The table id and the creator's token."""
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
        room = TableRoom(
            id=table_id,
            rules=rules,
            seed=random.randrange(1 << 48),
            seats=places,
            host_hash=token_hash(token),
            timer=timer,
            fill_level=fill_level,
            store=self.store,
            bots=self.bots,
            owner=owner or table_id,
            spectator_limit=self.spectators_per_table,
        )
        self.store.create_table(table_id, room.settings(), room.status)
        self.rooms[table_id] = room
        return table_id, token
