"""``pasur serve``: the web app (FastAPI). HTTP creates and joins tables; each browser then talks
to its table over one WebSocket and is sent only its seat's view."""

from __future__ import annotations

import asyncio
import json
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, ValidationError

from ..i18n import LANGUAGES, refusal
from .store import DEFAULT_DATABASE, Store
from .tables import Lobby, NoSuchTable, TableError, TooManyRequests

STATIC = Path(__file__).parent / "static"
#: Tables one address may create per minute.
TABLES_PER_MINUTE = 20
#: Messages one connection may send per second (a burst of this many, then this many a second).
MESSAGES_PER_SECOND = 50
#: How long a new connection has to say hello.
HELLO_SECONDS = 10.0

Name = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[^<>&\"'\x00-\x1f]+$")]


class CreateTable(BaseModel):
    """A new table: the creator's name, the rules, and who sits in the other seats."""

    name: Name
    rules: dict[str, Any] = Field(default_factory=dict)
    seats: list[str] = Field(default_factory=lambda: ["medium"], max_length=3)
    timer: int = Field(default=0, ge=0, le=600)
    fill_level: str = Field(default="medium", max_length=40)


class JoinTable(BaseModel):
    name: Name
    seat: int | None = Field(default=None, ge=0, le=3)


class HelloMessage(BaseModel):
    """A connection's first message: the seat token (none for a spectator), and the version the
    browser last saw (the moves since then come as ``missed``). Tokens never travel in URLs."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=64)
    since: int | None = Field(default=None, ge=0)


class MoveMessage(BaseModel):
    type: Literal["move"]
    version: int = Field(ge=0)
    move: str = Field(min_length=1, max_length=64)
    id: str | None = Field(default=None, max_length=64)


class StartMessage(BaseModel):
    type: Literal["start"]


class PingMessage(BaseModel):
    type: Literal["ping"]


#: What a browser may send, by its ``type``.
CLIENT_MESSAGES: dict[str, type[BaseModel]] = {"move": MoveMessage, "start": StartMessage, "ping": PingMessage}


class RateLimit:
    """At most ``count`` events per ``seconds`` for each key (a sliding window). Keys whose
    window has passed are let go once there are ``keys`` of them, so memory stays bounded."""

    def __init__(self, count: int, seconds: float, keys: int = 10_000) -> None:
        self.count = count
        self.seconds = seconds
        self.keys = keys
        self.events: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        if len(self.events) >= self.keys and key not in self.events:
            for old in [old for old, window in self.events.items() if not window or now - window[-1] > self.seconds]:
                del self.events[old]
        window = self.events[key]
        while window and now - window[0] > self.seconds:
            window.popleft()
        if len(window) >= self.count:
            return False
        window.append(now)
        return True


def create_app(
    database: str = DEFAULT_DATABASE, bot_delay: float = 0.7, tables_per_minute: int = TABLES_PER_MINUTE
) -> FastAPI:
    """The app over a database URL (SQLite file by default, or PostgreSQL)."""
    store = Store(database)
    lobby = Lobby(store, bot_delay=bot_delay)
    lobby.restore()
    creations = RateLimit(tables_per_minute, 60.0)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        lobby.resume()
        yield
        store.close()

    app = FastAPI(title="Pasur", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.lobby = lobby
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(TableError)
    async def refused(_: Request, error: TableError) -> JSONResponse:
        status = 404 if isinstance(error, NoSuchTable) else 429 if isinstance(error, TooManyRequests) else 400
        return JSONResponse({"error": str(error), **_explained(error)}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def not_understood(_: Request, error: RequestValidationError) -> JSONResponse:
        problem = _first_problem(error)
        refused = TableError(f"request not understood: {problem}", "not_understood", problem=problem)
        return JSONResponse({"error": str(refused), **_explained(refused)}, status_code=422)

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    async def page(table_id: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.post("/api/tables")
    async def create_table(request: Request, body: CreateTable) -> dict[str, Any]:
        client = request.client.host if request.client else "unknown"
        if not creations.allow(client):
            raise TooManyRequests("too many new tables from this address: wait a minute", "too_many_tables")
        table_id, token = lobby.create(body.name, body.rules, body.seats, body.timer, body.fill_level)
        return {"id": table_id, "token": token, "seat": 0, "url": f"/t/{table_id}"}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        table: dict[str, Any] = lobby.get(table_id).projection(None)["table"]
        return table

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, body: JoinTable) -> dict[str, Any]:
        room = lobby.get(table_id)
        seat, token = room.join(body.name, body.seat)
        await room.changed()
        return {"seat": seat, "token": token}

    @app.get("/api/tables/{table_id}/record")
    async def table_record(table_id: str) -> JSONResponse:
        record = lobby.get(table_id).record()
        headers = {"Content-Disposition": f'attachment; filename="pasur-{table_id}.json"'}
        return JSONResponse(record, headers=headers)

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str) -> list[dict[str, Any]]:
        return lobby.get(table_id).replay()

    @app.websocket("/ws/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        try:
            room = lobby.get(table_id)
        except TableError as error:
            await websocket.send_json(_error(error))
            await websocket.close(code=4404)
            return
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
            hello = HelloMessage.model_validate_json(raw)
        except (TimeoutError, ValidationError):
            example = '{"type": "hello", "token": …, "since": …}'
            await websocket.send_json(_error(TableError(f"say hello first: {example}", "no_hello")))
            await websocket.close(code=4400)
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        token = hello.token
        seat = room.seat_of(token)
        if token and seat is None and not room.is_host(token):
            await websocket.send_json(_error(TableError("that seat token is not valid here", "bad_token")))
        listener = await room.connect(websocket.send_json, seat, hello.since)
        limit = RateLimit(MESSAGES_PER_SECOND, 1.0)
        try:
            while True:
                raw = await websocket.receive_text()
                if not limit.allow("messages"):
                    await websocket.send_json(
                        _error(TooManyRequests("too many messages: slow down", "too_many_messages"))
                    )
                    continue
                await websocket.send_json(await _answer(room, seat, token, raw))
        except (WebSocketDisconnect, RuntimeError):  # RuntimeError: sending on a closed socket
            pass  # the browser went away: it reclaims its seat when it connects again
        finally:
            await room.disconnect(listener)

    return app


async def _answer(room: Any, seat: int | None, token: str | None, raw: str) -> dict[str, Any]:
    """One client message handled: an answer saying what happened or what was wrong."""
    try:
        data = json.loads(raw)
        kind = data.get("type") if isinstance(data, dict) else None
        if kind not in CLIENT_MESSAGES:
            return _not_understood(f"unknown type {kind!r}")
        message = CLIENT_MESSAGES[kind].model_validate(data)
    except json.JSONDecodeError:
        return _not_understood("not JSON")
    except ValidationError as error:
        return _not_understood(_first_problem(error))
    try:
        if isinstance(message, MoveMessage):
            return dict(await room.submit(seat, message.version, message.move, message.id))
        if isinstance(message, StartMessage):
            await room.start(token)
            return {"type": "started"}
        return {"type": "pong", "version": room.version}
    except TableError as error:
        refused: dict[str, Any] = {"type": "refused", "message": str(error), "version": room.version}
        if isinstance(message, MoveMessage):
            refused["id"] = message.id
        return {**refused, **_explained(error)}


def _explained(error: TableError) -> dict[str, Any]:
    """What a refusal's answer carries besides its English message: its reason, and what to show
    in each language of the page."""
    return {"reason": error.reason, "messages": {lang: refusal(error, lang) for lang in LANGUAGES}}


def _error(error: TableError) -> dict[str, Any]:
    return {"type": "error", "message": str(error), **_explained(error)}


def _first_problem(error: ValidationError | RequestValidationError) -> str:
    """The first thing wrong with a message or request, and where: ``seats.0: Input should be …``."""
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"] if part != "body")
    return f"{where}: {problem['msg']}"


def _not_understood(problem: str) -> dict[str, Any]:
    return _error(TableError(f"message not understood: {problem}", "not_understood", problem=problem))
