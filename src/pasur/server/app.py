"""``pasur serve``: the web app (FastAPI). HTTP creates and joins tables; each browser then talks
to its table over one WebSocket and is sent only its seat's view. Everything a visitor sends is
checked at the door (`guard`) and again where it is read, bounded by
`settings.ServerSettings`. The routes live with their domain: the site's pages
(`site_routes`), the tables (`table_routes`), the tables' sockets
(`socket_session`), accounts and friends (`account_routes`) and the puzzles
(`puzzle_routes`); this module assembles them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from . import messages
from .account_routes import account_routes
from .accounts import Accounts
from .bots import BotPool, server_levels
from .errors import TableError, status_of
from .guard import Guard
from .lobby import Lobby
from .messages import first_problem
from .puzzle_routes import puzzle_routes
from .settings import ServerSettings
from .site_routes import STATIC, site_routes
from .socket_session import socket_routes
from .store import DEFAULT_DATABASE, Store
from .table_routes import table_routes
from .visitors import ForwardedHeader

log = logging.getLogger("pasur.server")

#: Seconds between two looks for abandoned tables, at most.
RETIRE_SECONDS = 600.0


class PageFiles(StaticFiles):
    """The page's files, each asked again of the server before it is used (``no-cache``: its ETag
    answers 304 when unchanged), since a file keeps its name across upgrades; the service worker
    keeps what the page needs offline."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


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
    app.state.accounts = accounts = Accounts(store, settings)
    app.mount("/static", PageFiles(directory=STATIC), name="static")
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # the page's files, the API's answers
    app.add_middleware(Guard, settings=settings)
    if settings.trusted_proxies:  # outermost: the visitor's address is known before anything counts it
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))
        if settings.proxy_header == "forwarded":  # read before uvicorn's, which knows only X-Forwarded-For
            app.add_middleware(ForwardedHeader)
    for router in (
        site_routes(store, list(bots.levels)),
        table_routes(lobby, accounts, settings),
        socket_routes(lobby, settings),
        account_routes(accounts, lobby),
        puzzle_routes(accounts),
    ):
        app.include_router(router)
    _answer_refusals(app)
    return app


def _answer_refusals(app: FastAPI) -> None:
    """Every refusal in one shape (`messages.http_refusal()`): the server's own, a request
    not understood, and a body that cannot be read (not JSON, nested past the parser)."""

    @app.exception_handler(TableError)
    async def refused(_: Request, error: TableError) -> JSONResponse:
        return JSONResponse(messages.http_refusal(error), status_code=status_of(error))

    @app.exception_handler(StarletteHTTPException)
    async def unreadable(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code != 400:
            return await http_exception_handler(request, error)
        problem = "its body cannot be read as JSON"
        refusal = TableError("not_understood", problem=problem)
        return JSONResponse(messages.http_refusal(refusal), status_code=400)

    @app.exception_handler(RequestValidationError)
    async def not_understood(_: Request, error: RequestValidationError) -> JSONResponse:
        problem = first_problem(error)
        refusal = TableError("not_understood", problem=problem)
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
