"""``pasur serve``: the web app (FastAPI). HTTP creates and joins tables; each browser then talks
to its table over one WebSocket and is sent only its seat's view. Everything a visitor sends is
checked at the door (:mod:`.guard`) and again here, bounded by :class:`.settings.ServerSettings`."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections import Counter, defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

import orjson
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParameter
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ..bots.lesson import LESSON_LEVEL
from ..core import Rules, RulesError
from ..i18n import LANGUAGES, RULES_EXAMPLES, RULES_SUMMARY, text
from . import messages
from .account_routes import account_routes
from .accounts import COOKIE, CSRF_HEADER, Accounts
from .bots import BOT_RATINGS, BotPool, server_levels
from .chat import BURST_LINES, BURST_SECONDS
from .errors import (
    Forbidden,
    NoSuchPuzzle,
    NoSuchTable,
    NotSignedIn,
    StorageUnavailable,
    TableError,
    TooManyRequests,
)
from .guard import Guard
from .lobby import LISTED_TABLES, Lobby
from .messages import (
    CLIENT_MESSAGES,
    ChatMessage,
    ContinueMessage,
    CreateTable,
    FreeSeatMessage,
    HelloMessage,
    HintMessage,
    JoinTable,
    MoveMessage,
    PaceMessage,
    RematchMessage,
    ResignMessage,
    SeatMessage,
    StartLesson,
    StartMessage,
)
from .outbox import GONE, Outbox
from .players import leaderboard, player_record
from .projection import replay_steps
from .puzzle_routes import puzzle_routes
from .settings import ServerSettings
from .store import DEFAULT_DATABASE, Store
from .tables import TableRoom
from .visitors import ForwardedHeader, visitor

log = logging.getLogger("pasur.server")

STATIC = Path(__file__).parent / "static"
#: How long a new connection has to say hello.
HELLO_SECONDS = 10.0
#: Seconds between two looks for abandoned tables, at most.
RETIRE_SECONDS = 600.0
#: Seconds a socket given up as too slow has to take its closing.
CLOSE_SECONDS = 2.0
#: The highest target a table may play to.
MAX_TARGET = 1000


def table_rules(options: dict[str, Any]) -> Rules:
    """The rules a visitor asked for, range-checked: TableError names the option that is wrong."""
    try:
        rules = Rules.from_dict(options)
    except (RulesError, TypeError) as error:
        raise TableError(f"rules: {error}", "bad_rules", problem=str(error)) from None
    problem = None
    if rules.target > MAX_TARGET:
        problem = f"target must be at most {MAX_TARGET}, not {rules.target}"
    elif rules.sur_cutoff is not None and rules.sur_cutoff > MAX_TARGET:
        problem = f"sur_cutoff must be at most {MAX_TARGET}, not {rules.sur_cutoff}"
    if problem:
        raise TableError(f"rules: {problem}", "bad_rules", problem=problem)
    return rules


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
    database: str = DEFAULT_DATABASE, settings: ServerSettings | None = None, upgrade: bool = False
) -> FastAPI:
    """The app over a database URL (SQLite file by default, or PostgreSQL), within ``settings``;
    ``upgrade`` brings an older database's schema forward."""
    settings = settings or ServerSettings()
    store = Store(database, upgrade)
    bots = BotPool(
        server_levels(settings.bot_ms, settings.extra_levels),
        settings.bot_workers,
        settings.bot_delay,
        settings.bot_ms,
        advice_budget=settings.advice_seconds,
        analysis_ms=settings.analysis_ms,
    )
    lobby = Lobby(store, bots, settings.spectators_per_table)
    lobby.restore()
    creations = RateLimit(settings.tables_per_minute, 60.0)
    joins = RateLimit(settings.joins_per_minute, 60.0)
    review_asks = RateLimit(settings.review_asks_per_minute, 60.0)
    message_pace = RateLimit(settings.messages_per_second, 1.0)  # per address, over all its sockets
    chats = RateLimit(BURST_LINES, BURST_SECONDS)  # per seat (spectators: per address)
    sockets: Counter[str] = Counter()  # open WebSockets per address

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        lobby.resume()
        retiring = asyncio.create_task(_retire_abandoned(lobby, settings.abandoned_hours))
        yield
        retiring.cancel()
        await lobby.hub.close()
        await store.close_writers()
        bots.close()
        store.close()

    app = FastAPI(title="Pasur", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.lobby = lobby
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(Guard, settings=settings)
    if settings.trusted_proxies:  # outermost: the visitor's address is known before anything counts it
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))
        if settings.proxy_header == "forwarded":  # read before uvicorn's, which knows only X-Forwarded-For
            app.add_middleware(ForwardedHeader)
    app.state.accounts = Accounts(store, settings)
    app.include_router(account_routes(app.state.accounts, lobby))
    app.include_router(puzzle_routes())

    _answer_refusals(app)

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    @app.get("/p/{name}", include_in_schema=False)
    @app.get("/leaders", include_in_schema=False)
    @app.get("/puzzles", include_in_schema=False)
    async def page(table_id: str | None = None, name: str | None = None) -> FileResponse:
        """The page: the lobby, a table, a player's page, the leaderboard or the puzzles (it reads
        which from its address)."""
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    def sitting_as(request: Request, typed: str) -> tuple[str, int | None]:
        """The name and account a person sits down as: a signed-in browser's account, whatever
        was typed, when the request repeats its session's CSRF token (a page elsewhere cannot
        seat someone as their account); else the typed name, as a guest."""
        signed = app.state.accounts.changing_as(request.cookies.get(COOKIE), request.headers.get(CSRF_HEADER))
        return (signed.account.name, signed.account.id) if signed else (typed, None)

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        """The page's service worker, from the root so that it serves every page of the site."""
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        """What installing the page on a phone or a desktop needs: its name, colours and icons."""
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    @app.get("/api/help")
    async def rules_help() -> dict[str, Any]:
        """The rules in brief, in every language of the page, with pictures of captures (``examples``:
        the card played, the table, what it takes, the caption in each language)."""
        examples = [
            {"card": card, "table": table, "take": take, "caption": {lang: text(key, lang) for lang in LANGUAGES}}
            for card, table, take, key in RULES_EXAMPLES
        ]
        return {
            "examples": examples,
            **{lang: {"title": title, "lines": lines} for lang, (title, lines) in RULES_SUMMARY.items()},
        }

    @app.get("/api/levels")
    async def bot_levels() -> dict[str, Any]:
        """The bot levels a table may seat, weakest first, each with its rating (on the people's
        scale; none for a level the operator added, which was never measured)."""
        return {"levels": [{"level": level, "rating": BOT_RATINGS.get(level)} for level in bots.levels]}

    @app.post("/api/tables")
    async def create_table(request: Request, body: CreateTable) -> dict[str, Any]:
        rules = table_rules(body.rules)
        if body.timer not in settings.timers:
            choices = ", ".join(map(str, settings.timers))
            raise TableError(f"timer: choose one of {choices} seconds (0: none)", "bad_timer", choices=choices)
        client = creator(request)
        name, account = sitting_as(request, body.name)
        table_id, token = await lobby.create(
            name,
            rules,
            body.seats,
            body.timer,
            body.fill_level,
            owner=client,
            public=body.public,
            hints=body.hints,
            account=account,
            rated=body.rated,
        )
        return seated_at(table_id, token)

    @app.post("/api/lesson")
    async def start_lesson(request: Request, body: StartLesson) -> dict[str, Any]:
        """A first-game lesson: two players, the gentle bot, the lesson's first deal, tips."""
        client = creator(request)
        name, account = sitting_as(request, body.name)
        table_id, token = await lobby.create(
            name, Rules(), [LESSON_LEVEL], 0, LESSON_LEVEL, owner=client, hints=True, account=account, lesson=True
        )
        return seated_at(table_id, token)

    def creator(request: Request) -> str:
        """The address making a new table, refused past its new tables a minute."""
        client = visitor(request, settings)
        if not creations.allow(client):
            raise TooManyRequests("too many new tables from this address: wait a minute", "too_many_tables")
        return client

    def seated_at(table_id: str, token: str) -> dict[str, Any]:
        """What a new table's creator is told: the table, their seat's token, and its address."""
        return {"id": table_id, "token": token, "seat": 0, "url": f"/t/{table_id}"}

    @app.get("/api/tables")
    async def open_tables(
        cursor: Annotated[str | None, Query(max_length=64)] = None,
        limit: Annotated[int, Query(ge=1, le=LISTED_TABLES)] = LISTED_TABLES,
    ) -> dict[str, Any]:
        """The public tables waiting for people, newest first, a page at a time."""
        tables, following = lobby.open_tables(cursor, limit)
        return {"tables": tables, "next": following}

    @app.get("/api/live")
    async def live_tables(
        cursor: Annotated[str | None, Query(max_length=64)] = None,
        limit: Annotated[int, Query(ge=1, le=LISTED_TABLES)] = LISTED_TABLES,
    ) -> dict[str, Any]:
        """The public matches under way, to watch, newest first, a page at a time."""
        tables, following = lobby.live_tables(cursor, limit)
        return {"tables": tables, "next": following}

    @app.get("/api/players/{name}")
    def player(name: Annotated[str, PathParameter(max_length=200)]) -> dict[str, Any]:
        """A player's page: ratings, figures, the rating's course and their matches (read in a thread)."""
        return player_record(store, name)

    @app.get("/api/leaderboard")
    def leaders(
        period: Annotated[str, Query(max_length=8)] = "all", players: Annotated[int, Query()] = 2
    ) -> dict[str, Any]:
        """The leaderboard of rated matches: all time or this week, at 2 or 4 players (read in a thread)."""
        return leaderboard(store, period, players)

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        table: dict[str, Any] = lobby.get(table_id).projection(None)["table"]
        return table

    @app.post("/api/tables/{table_id}/join")
    async def join_table(request: Request, table_id: str, body: JoinTable) -> dict[str, Any]:
        room = lobby.get(table_id)
        if not joins.allow(visitor(request, settings)):
            raise TooManyRequests("too many seats taken from this address: wait a minute", "too_many_joins")
        name, account = sitting_as(request, body.name)
        seat, token = await room.seating.join(name, body.seat, account, visitor(request, settings))
        await room.changed()
        return {"seat": seat, "token": token}

    @app.get("/api/tables/{table_id}/record")
    async def table_record(table_id: str) -> JSONResponse:
        record = lobby.get(table_id).record()
        headers = {"Content-Disposition": f'attachment; filename="pasur-{table_id}.json"'}
        return JSONResponse(record, headers=headers)

    @app.get("/api/tables/{table_id}/analysis")
    async def table_analysis(request: Request, table_id: str) -> dict[str, Any]:
        """The finished match's people's moves judged so far (asking sets the judging going)."""
        asker = visitor(request, settings)
        if not review_asks.allow(asker):
            raise TooManyRequests("too many reviews asked for from this address: wait a minute", "too_much_advice")
        return lobby.reviews.report(lobby.get(table_id), asker)

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str) -> list[dict[str, Any]]:
        return replay_steps(lobby.get(table_id).finished_match())

    @app.websocket("/ws/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        client = visitor(websocket, settings)
        await websocket.accept()
        send = _sender(websocket)
        if sockets[client] >= settings.connections_per_address:
            limit = settings.connections_per_address
            refusal = TooManyRequests(f"this address has {limit} connections open already", "too_many_connections")
            await send(messages.error(refusal))
            await websocket.close(code=4429)
            return
        sockets[client] += 1
        try:
            await _serve_socket(websocket, send, client, table_id)
        finally:
            sockets[client] -= 1
            if sockets[client] <= 0:
                del sockets[client]

    async def _serve_socket(
        websocket: WebSocket, send: Callable[[dict[str, Any]], Awaitable[None]], client: str, table_id: str
    ) -> None:
        try:
            room = lobby.get(table_id)
        except TableError as error:
            await send(messages.error(error))
            await websocket.close(code=4000 + _status(error))
            return
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
            hello = HelloMessage.model_validate(json_message(raw, settings))
        except (TimeoutError, ValidationError, ValueError):
            example = '{"type": "hello", "token": …, "since": …}'
            await send(messages.error(TableError(f"say hello first: {example}", "no_hello")))
            await websocket.close(code=4400)
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        token = hello.token
        seat = room.seat_of(token)
        if token and seat is None and not room.is_host(token):
            await send(messages.error(TableError("that seat token is not valid here", "bad_token")))
        outbox = Outbox(send, settings.send_seconds)
        try:
            listener = await room.connect(outbox.post, seat, hello.since)
        except TableError as error:
            await send(messages.error(error))
            await websocket.close(code=4000 + _status(error))
            return
        # a seat's lines are counted together from every address; spectators' per address
        may_chat = functools.partial(chats.allow, f"{table_id} seat {seat}" if seat is not None else client)

        #: Hints being thought out for this socket: answered when ready, while its other messages
        #: are read and answered; dropped when it goes away (nobody waits for them then).
        hinting: set[asyncio.Task[None]] = set()

        async def hint(answering: Awaitable[dict[str, Any]]) -> None:
            outbox.post(await answering)

        async def answer_each() -> None:
            """Answer the socket's messages, until it goes away."""
            while True:
                raw = await websocket.receive_text()
                if not message_pace.allow(client):
                    outbox.post(messages.error(TooManyRequests("too many messages: slow down", "too_many_messages")))
                    continue
                message = _read(raw, settings)
                if isinstance(message, dict):  # not understood
                    outbox.post(message)
                    continue
                if isinstance(message, HintMessage):
                    if hinting:  # one at a time a socket
                        busy = TooManyRequests("a hint is being thought out for you already", "too_much_advice")
                        outbox.post(messages.refused(busy, room.version, None))
                        continue
                    hinting.add(
                        task := asyncio.create_task(hint(_answer(lobby, room, seat, token, message, may_chat, client)))
                    )
                    task.add_done_callback(hinting.discard)
                    continue
                answering = _answer(lobby, room, seat, token, message, may_chat, client)
                # shielded: a socket given up half-way through a change does not cut it short
                outbox.post(await asyncio.shield(answering))

        receiving, sending = asyncio.create_task(answer_each()), asyncio.create_task(outbox.run())
        try:
            await asyncio.wait((receiving, sending), return_when=asyncio.FIRST_COMPLETED)
        finally:  # nothing here waits: a handler being cancelled must not be held up
            receiving.cancel()
            sending.cancel()
            for thinking in list(hinting):
                thinking.cancel()
            await room.disconnect(listener)  # a browser that went away reclaims its seat when it comes back
        for task in (receiving, sending):
            fault = task.exception() if task.done() and not task.cancelled() else None
            if fault is not None and not isinstance(fault, GONE):
                raise fault
        if sending.done() and not sending.cancelled() and sending.exception() is None:
            with contextlib.suppress(TimeoutError, *GONE):  # given up as too slow: told why, if it reads
                await asyncio.wait_for(websocket.close(code=4408, reason=sending.result()), CLOSE_SECONDS)

    return app


def _answer_refusals(app: FastAPI) -> None:
    """Every refusal in one shape (:func:`.messages.http_refusal`): the server's own, a request
    not understood, and a body that cannot be read (not JSON, nested past the parser)."""

    @app.exception_handler(TableError)
    async def refused(_: Request, error: TableError) -> JSONResponse:
        return JSONResponse(messages.http_refusal(error), status_code=_status(error))

    @app.exception_handler(StarletteHTTPException)
    async def unreadable(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code != 400:
            return await http_exception_handler(request, error)
        problem = "its body cannot be read as JSON"
        refusal = TableError(f"request not understood: {problem}", "not_understood", problem=problem)
        return JSONResponse(messages.http_refusal(refusal), status_code=400)

    @app.exception_handler(RequestValidationError)
    async def not_understood(_: Request, error: RequestValidationError) -> JSONResponse:
        problem = _first_problem(error)
        refusal = TableError(f"request not understood: {problem}", "not_understood", problem=problem)
        return JSONResponse(messages.http_refusal(refusal), status_code=422)


async def _retire_abandoned(lobby: Lobby, hours: float) -> None:
    """Now and then, retire the tables that stood untouched for ``hours`` (0: never)."""
    if hours <= 0:
        return
    while True:
        await asyncio.sleep(min(RETIRE_SECONDS, hours * 3600 / 4))
        try:
            deleted, ended = await lobby.retire_abandoned(hours)
        except Exception:  # one bad sweep must not end the next
            log.exception("retiring abandoned tables")
            continue
        if deleted or ended:
            log.info("retired %d tables never started and ended %d matches abandoned", deleted, ended)


def _sender(websocket: WebSocket) -> Callable[[dict[str, Any]], Awaitable[None]]:
    """How a socket is sent a message: as JSON text, encoded by orjson (every listener of a table
    is sent its state at every move: a tenth of the standard library's time, 5 us against 47)."""

    async def send(message: dict[str, Any]) -> None:
        await websocket.send_text(orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode())

    return send


def _read(raw: str, settings: ServerSettings) -> BaseModel | dict[str, Any]:
    """A client message read and checked, or the answer saying why it was not understood."""
    try:
        data = json_message(raw, settings)
        kind = data.get("type") if isinstance(data, dict) else None
        if kind not in CLIENT_MESSAGES:
            return messages.not_understood(f"unknown type {str(kind)[:40]!r}")
        return CLIENT_MESSAGES[kind].model_validate(data)
    except ValidationError as error:
        return messages.not_understood(_first_problem(error))
    except ValueError as error:
        return messages.not_understood(str(error))


async def _answer(
    lobby: Lobby,
    room: TableRoom,
    seat: int | None,
    token: str | None,
    message: BaseModel,
    may_chat: Callable[[], bool],
    client: str,
) -> dict[str, Any]:
    """One client message handled: an answer saying what happened or what was wrong."""
    try:
        if isinstance(message, MoveMessage):
            return dict(await room.submit(seat, message.version, message.move, message.id))
        if isinstance(message, StartMessage):
            await room.seating.start(token)
            return messages.started()
        if isinstance(message, ContinueMessage):
            return await room.deal_on(seat)
        if isinstance(message, PaceMessage):
            return await room.seating.set_pace(seat, message.fast)
        if isinstance(message, HintMessage):
            return await room.hints.ask(seat, message.lang, client)
        if isinstance(message, ChatMessage):
            return await room.chat.say(seat, message.text, message.phrase, message.name, may_chat)
        if isinstance(message, SeatMessage):
            await room.seating.change_seat(seat, message.seat)
            await room.changed()
            return messages.seated(message.seat)
        if isinstance(message, RematchMessage):
            return messages.rematch(await lobby.rematch(room, seat, room.owner))
        if isinstance(message, ResignMessage):
            return await room.resign(seat)
        if isinstance(message, FreeSeatMessage):
            return await room.seating.free_seat(token, message.seat)
        return messages.pong(room.version)
    except TableError as error:
        return messages.refused(error, room.version, message.id if isinstance(message, MoveMessage) else None)


def _status(error: TableError) -> int:
    """The HTTP status of a refusal."""
    if isinstance(error, NoSuchTable | NoSuchPuzzle):
        return 404
    if isinstance(error, TooManyRequests):
        return 429
    if isinstance(error, NotSignedIn):
        return 401
    if isinstance(error, Forbidden):
        return 403
    return 503 if isinstance(error, StorageUnavailable) else 400


def _first_problem(error: ValidationError | RequestValidationError) -> str:
    """The first thing wrong with a message or request, and where: ``seats.0: Input should be …``."""
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"] if part != "body")
    return f"{where}: {problem['msg']}"
