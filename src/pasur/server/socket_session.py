"""One browser's WebSocket at one table: its hello (the seat token, never in a URL), then each of
its messages read against the declared client messages (`messages.CLIENT_MESSAGES`) and
answered by the handler of its kind, while the table's projections go out through the socket's
`outbox.Outbox`. Everything is bounded per visitor by `settings.ServerSettings`."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError

from . import messages
from .audience import Listener
from .chat import BURST_LINES, BURST_SECONDS
from .errors import TableError, TooManyRequests, status_of
from .lobby import Lobby
from .messages import (
    CLIENT_MESSAGES,
    ChatMessage,
    FreeSeatMessage,
    HelloMessage,
    HintMessage,
    MoveMessage,
    PaceMessage,
    SeatMessage,
    first_problem,
)
from .outbox import GONE, Outbox
from .settings import ServerSettings
from .tables import TableRoom
from .visitors import RateLimit, visitor

#: How long a new connection has to say hello.
HELLO_SECONDS = 10.0
#: Seconds a socket given up as too slow has to take its closing.
CLOSE_SECONDS = 2.0

Send = Callable[[dict[str, Any]], Awaitable[None]]
Answer = dict[str, Any]


def json_message(raw: str, settings: ServerSettings) -> Any:
    """A WebSocket message read as JSON, no larger and no deeper than ``settings`` allow;
    ValueError says what is wrong."""
    if len(raw) > settings.message_bytes:
        raise ValueError(f"longer than {settings.message_bytes:,} characters")
    too_deep = f"nested deeper than {settings.json_depth} levels"
    try:
        data = json.loads(raw)
    except RecursionError:  # nested past what the parser takes: far deeper than allowed
        raise ValueError(too_deep) from None
    except json.JSONDecodeError:
        raise ValueError("not JSON") from None
    if _depth(data, settings.json_depth) > settings.json_depth:
        raise ValueError(too_deep)
    return data


def _depth(value: Any, limit: int) -> int:
    """How deep ``value`` nests (looking no further than ``limit`` + 1)."""
    level, layer = 0, [value]
    while layer and level <= limit:
        level += 1
        layer = [
            inner
            for item in layer
            for inner in (item.values() if isinstance(item, dict) else item if isinstance(item, list) else ())
        ]
    return level


def read_message(raw: str, settings: ServerSettings) -> BaseModel | Answer:
    """A client message read and checked, or the answer saying why it was not understood."""
    try:
        data = json_message(raw, settings)
        kind = data.get("type") if isinstance(data, dict) else None
        if kind not in CLIENT_MESSAGES:
            return messages.not_understood(f"unknown type {str(kind)[:40]!r}")
        return CLIENT_MESSAGES[kind].model_validate(data)
    except ValidationError as error:
        return messages.not_understood(first_problem(error))
    except ValueError as error:
        return messages.not_understood(str(error))


def sender(websocket: WebSocket) -> Send:
    """How a socket is sent a message: as JSON text, encoded by orjson (every listener of a table
    is sent its state at every move: a tenth of the standard library's time, 5 us against 47)."""

    async def send(message: dict[str, Any]) -> None:
        await websocket.send_text(orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode())

    return send


@dataclass
class SocketLimits:
    """What every socket of one server shares: its open sockets per address, the messages per
    address a second (over all its sockets), and chat lines per seat (spectators: per address)."""

    settings: ServerSettings

    def __post_init__(self) -> None:
        self.open: Counter[str] = Counter()
        self.pace = RateLimit(self.settings.messages_per_second, 1.0)
        self.chats = RateLimit(BURST_LINES, BURST_SECONDS)


class SocketSession:
    """A seated browser's (or a spectator's) socket at one table, once it has said hello."""

    def __init__(
        self,
        websocket: WebSocket,
        client: str,
        lobby: Lobby,
        room: TableRoom,
        hello: HelloMessage,
        limits: SocketLimits,
    ) -> None:
        self.websocket = websocket
        self.outbox = Outbox(sender(websocket), limits.settings.send_seconds)
        self.client = client
        self.lobby = lobby
        self.room = room
        self.limits = limits
        self.token = hello.token
        self.seat = room.seat_of(hello.token)
        # a seat's lines are counted together from every address; spectators' per address
        self.may_chat = functools.partial(
            limits.chats.allow, f"{room.id} seat {self.seat}" if self.seat is not None else client
        )
        #: Hints being thought out for this socket: answered when ready, while its other messages
        #: are read and answered; dropped when it goes away (nobody waits for them then).
        self.hinting: set[asyncio.Task[None]] = set()

    async def serve(self, listener: Listener) -> None:
        """Answer the socket's messages while the outbox sends the table's news, until either ends."""
        receiving = asyncio.create_task(self._answer_each())
        sending = asyncio.create_task(self.outbox.run())
        try:
            await asyncio.wait((receiving, sending), return_when=asyncio.FIRST_COMPLETED)
        finally:  # nothing here waits: a handler being cancelled must not be held up
            receiving.cancel()
            sending.cancel()
            for thinking in list(self.hinting):
                thinking.cancel()
            await self.room.disconnect(listener)  # a browser that went away reclaims its seat when it comes back
        for task in (receiving, sending):
            fault = task.exception() if task.done() and not task.cancelled() else None
            if fault is not None and not isinstance(fault, GONE):
                raise fault
        if sending.done() and not sending.cancelled() and sending.exception() is None:
            with contextlib.suppress(TimeoutError, *GONE):  # given up as too slow: told why, if it reads
                await asyncio.wait_for(self.websocket.close(code=4408, reason=sending.result()), CLOSE_SECONDS)

    async def _answer_each(self) -> None:
        """Answer the socket's messages, until it goes away."""
        limits = self.limits
        while True:
            raw = await self.websocket.receive_text()
            if not limits.pace.allow(self.client):
                self.outbox.post(messages.error(TooManyRequests("too_many_messages")))
                continue
            message = read_message(raw, limits.settings)
            if isinstance(message, dict):  # not understood
                self.outbox.post(message)
            elif isinstance(message, HintMessage):  # answered when ready; the socket reads on meanwhile
                self._hint_later(message)
            else:  # shielded: a socket given up half-way through a change does not cut it short
                self.outbox.post(await asyncio.shield(self.answer(message)))

    def _hint_later(self, message: HintMessage) -> None:
        if self.hinting:  # one at a time a socket
            busy = TooManyRequests("too_much_advice")
            self.outbox.post(messages.refused(busy, self.room.version, None))
            return

        async def hint() -> None:
            self.outbox.post(await self.answer(message))

        task = asyncio.create_task(hint())
        self.hinting.add(task)
        task.add_done_callback(self.hinting.discard)

    async def answer(self, message: BaseModel) -> Answer:
        """One client message handled: an answer saying what happened or what was wrong."""
        try:
            return await HANDLERS[message.type](self, message)  # type: ignore[attr-defined]
        except TableError as error:
            move_id = message.id if isinstance(message, MoveMessage) else None
            return messages.refused(error, self.room.version, move_id)

    # -- the handlers, one for each kind of client message ---------------------------------------

    async def move(self, message: MoveMessage) -> Answer:
        return dict(await self.room.submit(self.seat, message.version, message.move, message.id))

    async def start(self, _: BaseModel) -> Answer:
        await self.room.seating.start(self.token)
        return messages.started()

    async def ping(self, _: BaseModel) -> Answer:
        return messages.pong(self.room.version)

    async def deal_on(self, _: BaseModel) -> Answer:
        return await self.room.deal_on(self.seat)

    async def pace(self, message: PaceMessage) -> Answer:
        return await self.room.seating.set_pace(self.seat, message.fast)

    async def hint(self, message: HintMessage) -> Answer:
        return await self.room.hints.ask(self.seat, message.lang, self.client)

    async def chat(self, message: ChatMessage) -> Answer:
        return await self.room.chat.say(self.seat, message.text, message.phrase, message.name, self.may_chat)

    async def change_seat(self, message: SeatMessage) -> Answer:
        await self.room.seating.change_seat(self.seat, message.seat)
        await self.room.changed()
        return messages.seated(message.seat)

    async def rematch(self, _: BaseModel) -> Answer:
        return messages.rematch(await self.lobby.rematch(self.room, self.seat, self.room.owner))

    async def resign(self, _: BaseModel) -> Answer:
        return await self.room.resign(self.seat)

    async def free_seat(self, message: FreeSeatMessage) -> Answer:
        return await self.room.seating.free_seat(self.token, message.seat)


#: The handler of each client message, by its declared ``type`` (`messages.CLIENT_MESSAGES`).
HANDLERS: dict[str, Callable[[SocketSession, Any], Awaitable[Answer]]] = {
    "move": SocketSession.move,
    "start": SocketSession.start,
    "ping": SocketSession.ping,
    "continue": SocketSession.deal_on,
    "pace": SocketSession.pace,
    "hint": SocketSession.hint,
    "chat": SocketSession.chat,
    "seat": SocketSession.change_seat,
    "rematch": SocketSession.rematch,
    "resign": SocketSession.resign,
    "free": SocketSession.free_seat,
}


def socket_routes(lobby: Lobby, settings: ServerSettings) -> APIRouter:
    """The tables' WebSocket: ``/ws/{table_id}``."""
    router = APIRouter()
    limits = SocketLimits(settings)

    @router.websocket("/ws/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        client = visitor(websocket, settings)
        await websocket.accept()
        send = sender(websocket)
        if limits.open[client] >= settings.connections_per_address:
            limit = settings.connections_per_address
            refusal = TooManyRequests("too_many_connections", limit=limit)
            await _refuse(websocket, send, refusal, 4429)
            return
        limits.open[client] += 1
        try:
            await _serve(websocket, send, client, table_id, lobby, limits)
        finally:
            limits.open[client] -= 1
            if limits.open[client] <= 0:
                del limits.open[client]

    return router


async def _serve(
    websocket: WebSocket, send: Send, client: str, table_id: str, lobby: Lobby, limits: SocketLimits
) -> None:
    """The socket's hello read, its listener connected, then its session served."""
    try:
        room = lobby.get(table_id)
    except TableError as error:
        await _refuse(websocket, send, error)
        return
    try:
        raw = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
        hello = HelloMessage.model_validate(json_message(raw, limits.settings))
    except (TimeoutError, ValidationError, ValueError):
        example = '{"type": "hello", "token": …, "since": …}'
        await _refuse(websocket, send, TableError("no_hello", example=example), 4400)
        return
    except (WebSocketDisconnect, RuntimeError):
        return
    if hello.token and room.seat_of(hello.token) is None and not room.is_host(hello.token):
        await room.replication.read_again()  # a seat taken through another process a moment ago
    session = SocketSession(websocket, client, lobby, room, hello, limits)
    if session.token and session.seat is None and not room.is_host(session.token):
        await send(messages.error(TableError("bad_token")))
    try:
        listener = await room.connect(session.outbox.post, session.seat, hello.since)
    except TableError as error:
        await _refuse(websocket, send, error)
        return
    await session.serve(listener)


async def _refuse(websocket: WebSocket, send: Send, error: TableError, code: int | None = None) -> None:
    """Say why the socket is refused, and close it (by default with 4000 + the HTTP status)."""
    await send(messages.error(error))
    await websocket.close(code=code or 4000 + status_of(error))
