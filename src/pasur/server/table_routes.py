"""The tables' HTTP API: making a table (or a first-game lesson), the public tables waiting for
people and those under way, a table as anyone may see it, taking a seat, and a finished match's
record, replay and review. Playing is over the table's WebSocket (`socket_session`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ..coach.lesson import LESSON_LEVEL
from ..core import Rules, RulesError
from . import listings
from .accounts import COOKIE, CSRF_HEADER, Accounts
from .errors import TableError, TooManyRequests
from .listings import LISTED_TABLES
from .lobby import Lobby
from .messages import CreateTable, JoinTable, StartLesson
from .projection import replay_steps
from .settings import ServerSettings
from .visitors import RateLimit, visitor

#: The highest target a table may play to.
MAX_TARGET = 1000

Page = Annotated[str | None, Query(max_length=64)]
Limit = Annotated[int, Query(ge=1, le=LISTED_TABLES)]


def table_rules(options: dict[str, Any]) -> Rules:
    """The rules a visitor asked for, range-checked: TableError names the option that is wrong."""
    try:
        rules = Rules.from_dict(options)
    except (RulesError, TypeError) as error:
        raise TableError("bad_rules", problem=str(error)) from None
    problem = None
    if rules.target > MAX_TARGET:
        problem = f"target must be at most {MAX_TARGET}, not {rules.target}"
    elif rules.sur_cutoff is not None and rules.sur_cutoff > MAX_TARGET:
        problem = f"sur_cutoff must be at most {MAX_TARGET}, not {rules.sur_cutoff}"
    if problem:
        raise TableError("bad_rules", problem=problem)
    return rules


def seated_at(table_id: str, token: str) -> dict[str, Any]:
    """What a new table's creator is told: the table, their seat's token, and its address."""
    return {"id": table_id, "token": token, "seat": 0, "url": f"/t/{table_id}"}


def sitting_as(accounts: Accounts, request: Request, typed: str) -> tuple[str, int | None]:
    """The name and account a person sits down as: a signed-in browser's account, whatever was
    typed, when the request repeats its session's CSRF token (a page elsewhere cannot seat someone
    as their account); else the typed name, as a guest."""
    signed = accounts.changing_as(request.cookies.get(COOKIE), request.headers.get(CSRF_HEADER))
    return (signed.account.name, signed.account.id) if signed else (typed, None)


def table_routes(lobby: Lobby, accounts: Accounts, settings: ServerSettings) -> APIRouter:
    """The routes that make tables and seat people, over the tables of ``lobby`` (a signed-in
    visitor sits down as their account), and those of a finished match."""
    router = APIRouter()
    router.include_router(finished_match_routes(lobby, settings))
    creations = RateLimit(settings.tables_per_minute, 60.0)
    joins = RateLimit(settings.joins_per_minute, 60.0)

    def creator(request: Request) -> str:
        """The address making a new table, refused past its new tables a minute."""
        client = visitor(request, settings)
        if not creations.allow(client):
            raise TooManyRequests("too_many_tables")
        return client

    @router.post("/api/tables")
    async def create_table(request: Request, body: CreateTable) -> dict[str, Any]:
        rules = table_rules(body.rules)
        if body.timer not in settings.timers:
            choices = ", ".join(map(str, settings.timers))
            raise TableError("bad_timer", choices=choices)
        client = creator(request)
        name, account = sitting_as(accounts, request, body.name)
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

    @router.post("/api/lesson")
    async def start_lesson(request: Request, body: StartLesson) -> dict[str, Any]:
        """A first-game lesson: two players, the gentle bot, the lesson's first deal, tips."""
        client = creator(request)
        name, account = sitting_as(accounts, request, body.name)
        table_id, token = await lobby.create(
            name, Rules(), [LESSON_LEVEL], 0, LESSON_LEVEL, owner=client, hints=True, account=account, lesson=True
        )
        return seated_at(table_id, token)

    @router.get("/api/tables")
    async def open_tables(cursor: Page = None, limit: Limit = LISTED_TABLES) -> dict[str, Any]:
        """The public tables waiting for people, newest first, a page at a time."""
        tables, following = listings.open_tables(lobby.rooms, cursor, limit)
        return {"tables": tables, "next": following}

    @router.get("/api/live")
    async def live_tables(cursor: Page = None, limit: Limit = LISTED_TABLES) -> dict[str, Any]:
        """The public matches under way, to watch, newest first, a page at a time."""
        tables, following = listings.live_tables(lobby.rooms, cursor, limit)
        return {"tables": tables, "next": following}

    @router.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        table: dict[str, Any] = lobby.get(table_id).projection(None)["table"]
        return table

    @router.post("/api/tables/{table_id}/join")
    async def join_table(request: Request, table_id: str, body: JoinTable) -> dict[str, Any]:
        room = lobby.get(table_id)
        if not joins.allow(visitor(request, settings)):
            raise TooManyRequests("too_many_joins")
        name, account = sitting_as(accounts, request, body.name)
        seat, token = await room.seating.join(name, body.seat, account, visitor(request, settings))
        await room.changed()
        return {"seat": seat, "token": token}

    return router


def finished_match_routes(lobby: Lobby, settings: ServerSettings) -> APIRouter:
    """A finished match's record, replay and review."""
    router = APIRouter()
    review_asks = RateLimit(settings.review_asks_per_minute, 60.0)

    @router.get("/api/tables/{table_id}/record")
    async def table_record(table_id: str) -> JSONResponse:
        record = lobby.get(table_id).record()
        headers = {"Content-Disposition": f'attachment; filename="pasur-{table_id}.json"'}
        return JSONResponse(record, headers=headers)

    @router.get("/api/tables/{table_id}/analysis")
    async def table_analysis(request: Request, table_id: str) -> dict[str, Any]:
        """The finished match's people's moves judged so far (asking sets the judging going)."""
        asker = visitor(request, settings)
        if not review_asks.allow(asker):
            raise TooManyRequests("too_much_advice")
        return lobby.reviews.report(lobby.get(table_id), asker)

    @router.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str) -> list[dict[str, Any]]:
        return replay_steps(lobby.get(table_id).finished_match())

    return router
