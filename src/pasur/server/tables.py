"""Tables: seats, the match, versioned moves, bots, the turn timer and what each listener is sent.

The server owns the state. Each listener (a browser's WebSocket) is sent its own projection: a
seat gets its seat's view and its legal moves, a spectator the public view. A move names the
version it was made against: a stale one is refused, a repeated one (same client id) acknowledged
again and not applied twice. A move is stored before it is applied and acknowledged."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..bots import BotError, checked_choice, make_bot
from ..core import IllegalMove, Match, Move, Refusal, Rules, RulesError, cards_in, public_json, to_record
from ..core.moves import short_texts
from ..core.record import positions
from .store import Store

#: A listener: something that takes a JSON-ready message (a WebSocket, in the app).
Send = Callable[[dict[str, Any]], Awaitable[None]]

#: The bot that plays for a person whose turn timer ran out.
STAND_IN = "expert"
#: Client move ids remembered per table, to acknowledge a repeated move.
REMEMBERED_IDS = 256
#: How long a table nobody has started or watched stays in memory (the store keeps it).
OPEN_TABLE_SECONDS = 3600.0


class TableError(Refusal):
    """A request the table refuses, with a message for the person."""


class NoSuchTable(TableError):
    """A table id this server does not know."""


class TooManyRequests(TableError):
    """Requests coming faster than this server takes them."""


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
    bot_delay: float = 0.7
    match: Match | None = None
    version: int = 0
    client_ids: dict[str, int] = field(default_factory=dict)
    listeners: list[Listener] = field(default_factory=list)
    deadline: float | None = None  # loop time when the turn timer runs out
    touched: float = field(default_factory=time.monotonic)  # when someone last joined, came or went
    _task: asyncio.Task[None] | None = None

    # -- settings and restoring -----------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "seats": [seat.to_json() for seat in self.seats],
            "host_hash": self.host_hash,
            "timer": self.timer,
            "fill_level": self.fill_level,
        }

    @classmethod
    def restore(cls, table_id: str, settings: dict[str, Any], status: str, store: Store, bot_delay: float) -> TableRoom:
        """A table as stored, its moves replayed through the engine."""
        room = cls(
            id=table_id,
            rules=Rules.from_dict(settings["rules"]),
            seed=int(settings["seed"]),
            seats=[Seat(**seat) for seat in settings["seats"]],
            host_hash=settings["host_hash"],
            timer=int(settings.get("timer", 0)),
            fill_level=settings.get("fill_level", "medium"),
            status=status,
            store=store,
            bot_delay=bot_delay,
        )
        if status != "open":
            room.match = Match(room.rules, seed=room.seed)
            for version, _seat, move, client_id in store.moves(table_id):
                room.match.play(move)
                room.version = version
                if client_id:
                    room.client_ids[client_id] = version
        return room

    def _save(self) -> None:
        if self.store is not None:
            self.store.update_table(self.id, self.settings(), self.status)

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
        self.seats[seat] = Seat(name=name, token_hash=token_hash(token))
        self.touched = time.monotonic()
        self._save()
        return seat, token

    async def start(self, token: str | None) -> None:
        """The host starts: open seats get the table's bot level."""
        if not self.is_host(token):
            raise TableError("only the host can start the match", "host_only")
        if self.status != "open":
            raise TableError("the match has already started", "already_started")
        for index, seat in enumerate(self.seats):
            if seat.open:
                self.seats[index] = Seat(name=self.fill_level, bot=self.fill_level)
        self.match = Match(self.rules, seed=self.seed)
        self.status = "playing"
        self._save()
        await self.changed()

    # -- moves ----------------------------------------------------------------------------------

    async def submit(self, seat: int | None, version: int, text: str, client_id: str | None) -> dict[str, Any]:
        """A person's move: the acknowledgement, or why it was refused (nothing changes then)."""
        if client_id and client_id in self.client_ids:
            return {"type": "ack", "id": client_id, "version": self.client_ids[client_id], "repeated": True}
        if self.match is None or self.status != "playing":
            raise TableError("the match is not under way", "not_under_way")
        if seat is None:
            raise TableError("you have no seat at this table", "no_seat")
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
        await self.apply(seat, Move.from_code(code), client_id)
        return {"type": "ack", "id": client_id, "version": self.version}

    async def apply(self, seat: int, move: Move, client_id: str | None = None) -> None:
        """Store a legal move, then play it and tell everyone."""
        assert self.match is not None
        text = short_texts_for(self.match, move)
        if self.store is not None:
            self.store.add_move(self.id, self.version + 1, seat, text, client_id)
        self.match.play(move)
        self.version += 1
        if client_id:
            self.client_ids[client_id] = self.version
            if len(self.client_ids) > REMEMBERED_IDS:
                self.client_ids.pop(next(iter(self.client_ids)))
        if self.match.over:
            self.status = "finished"
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
            self._task = loop.create_task(self._bot_move(seat, self.seats[seat].bot or STAND_IN, self.bot_delay))
        elif self.timer:
            if self.deadline is None:
                self.deadline = loop.time() + self.timer
            delay = max(0.0, self.deadline - loop.time())
            self._task = loop.create_task(self._bot_move(seat, STAND_IN, delay))

    async def _bot_move(self, seat: int, spec: str, delay: float) -> None:
        version = self.version
        await asyncio.sleep(delay)
        assert self.match is not None
        game = self.match.rounds[-1]
        view, legal = game.view(seat), game.legal_moves()
        bot = make_bot(spec, seed=self.seed * 1_000 + self.version)
        try:
            move = await asyncio.to_thread(checked_choice, bot, view, legal)
        except BotError:
            move = make_bot(STAND_IN).choose(view, legal)
        if self.version == version and self.status == "playing":
            self._task = None
            await self.apply(seat, move)

    # -- what listeners see -----------------------------------------------------------------------

    async def connect(self, send: Send, seat: int | None, since: int | None) -> Listener:
        listener = Listener(send, seat)
        self.listeners.append(listener)
        self.touched = time.monotonic()
        await self._send(listener, since)
        await self._tell_others(listener)
        return listener

    async def disconnect(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)
            self.touched = time.monotonic()
            await self._tell_others(listener)

    async def _tell_others(self, listener: Listener) -> None:
        """Who is connected changed: everyone else gets a fresh state."""
        await asyncio.gather(*(self._send(other) for other in list(self.listeners) if other is not listener))

    async def _send(self, listener: Listener, since: int | None = None) -> None:
        with contextlib.suppress(Exception):  # a closed socket: it is removed when its handler ends
            await listener.send(self.projection(listener.seat, since))

    def projection(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """Everything ``seat`` may know (None: a spectator), with the moves since ``since``."""
        connected = {listener.seat for listener in self.listeners}
        table = {
            "id": self.id,
            "status": self.status,
            "rules": self.rules.to_dict(),
            "seats": [
                {"name": place.name, "bot": place.bot, "open": place.open, "connected": index in connected}
                for index, place in enumerate(self.seats)
            ],
            "timer": self.timer,
            "you": seat,
        }
        state: dict[str, Any] = {"type": "state", "version": self.version, "table": table}
        if self.match is None:
            return state
        game = self.match.rounds[-1]
        state["view"] = game.view(seat).to_json() if seat is not None else public_json(game)
        mine = seat is not None and self.match.turn == seat
        legal = game.legal_moves() if mine else []
        state["legal"] = [
            {"text": text, **move.to_json()} for text, move in zip(short_texts(legal), legal, strict=True)
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


def short_texts_for(match: Match, move: Move) -> str:
    """A legal move's short text in its position."""
    legal = match.rounds[-1].legal_moves()
    return short_texts(legal)[legal.index(move)]


def round_summary(game: Any) -> dict[str, Any]:
    """A finished round's breakdown per side (public: every capture was seen)."""
    return {"number": game.number, "sides": [{"points": score.total, **asdict(score)} for score in game.breakdown()]}


class Lobby:
    """Every table of this server process, over one store."""

    def __init__(self, store: Store, bot_delay: float = 0.7) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.rooms: dict[str, TableRoom] = {}

    def restore(self) -> int:
        """Load the tables that are not finished; how many."""
        for table_id, settings, status in self.store.tables(("open", "playing")):
            self.rooms[table_id] = TableRoom.restore(table_id, settings, status, self.store, self.bot_delay)
        return len(self.rooms)

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
            room = TableRoom.restore(table_id, stored[0], stored[1], self.store, self.bot_delay)
            self.rooms[table_id] = room
        return room

    def create(
        self, name: str, rules: dict[str, Any], seats: list[str], timer: int, fill_level: str
    ) -> tuple[str, str]:
        """A new table with its creator in seat 0; ``seats`` says, for every other seat, "friend"
        or a bot level. The table id and the creator's token."""
        try:
            parsed = Rules.from_dict(rules)
        except (RulesError, TypeError) as error:
            raise TableError(f"rules: {error}", "bad_rules", problem=str(error)) from None
        if len(seats) != parsed.players - 1:
            raise TableError(
                f"say who sits in each of the other {parsed.players - 1} seats", "seats_count", count=parsed.players - 1
            )
        for level in [*seats, fill_level]:
            if level != "friend":
                try:
                    make_bot(level)
                except ValueError as error:
                    raise TableError(str(error), "bad_level", level=level) from None
        self.forget_idle()  # memory holds the tables in use, not every table ever made
        token = secrets.token_urlsafe(18)
        places = [Seat(name=name, token_hash=token_hash(token))]
        places += [Seat() if level == "friend" else Seat(name=level, bot=level) for level in seats]
        table_id = secrets.token_urlsafe(6)
        room = TableRoom(
            id=table_id,
            rules=parsed,
            seed=random.randrange(1 << 48),
            seats=places,
            host_hash=token_hash(token),
            timer=timer,
            fill_level=fill_level,
            store=self.store,
            bot_delay=self.bot_delay,
        )
        self.store.create_table(table_id, room.settings(), room.status)
        self.rooms[table_id] = room
        return table_id, token
