"""Starting the web server as ``pasur serve`` asks: the options checked, the database's schema
checked (and brought forward) once before any process serves, then uvicorn run with the door's
limits, in this process or in several sharing one port (PostgreSQL only)."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import uvicorn
from sqlalchemy.exc import SQLAlchemyError

from .app import create_app
from .bots import server_levels
from .guard import guarded_http
from .schema import SchemaMismatch
from .settings import ServerSettings
from .store import Store, cannot_open
from .visitors import trusted_networks
from .workers import BALANCED, held_port, serve_in_processes


class LaunchRefused(Exception):
    """The server cannot start as asked, in one line; ``option`` names the command-line option at
    fault (None: the database or the machine is, as a port already in use)."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


def check_options(settings: ServerSettings) -> None:
    """LaunchRefused naming the option whose value cannot be used (a proxy that is no address, a
    bot level that names no built-in bot)."""
    try:
        trusted_networks(settings.trusted_proxies)
    except ValueError as error:
        raise LaunchRefused(f"--trusted-proxy: {error}", "--trusted-proxy") from None
    try:
        server_levels(settings.bot_ms, settings.extra_levels)
    except ValueError as error:
        raise LaunchRefused(f"--bots: {error}", "--bots") from None


def serve(
    url: str, settings: ServerSettings, host: str, port: int, workers: int, upgrade: bool, say: Callable[[str], None]
) -> None:
    """Serve until stopped (``say`` tells the operator where); LaunchRefused, and nothing runs,
    when the options or the database cannot be used."""
    check_options(settings)
    try:
        store = Store(url, upgrade)  # the schema checked (and upgraded) once, before any worker starts
        shared = store.shared
        store.close()
        app = create_app(url, settings) if workers == 1 else None
    except SchemaMismatch as error:
        raise LaunchRefused(str(error)) from None
    except (SQLAlchemyError, ImportError, ValueError, OSError) as error:  # a bad URL, no driver, no database
        raise LaunchRefused(cannot_open(error)) from None
    if workers > 1 and not shared:
        raise LaunchRefused(
            "--workers: with SQLite one process is the limit;"
            " give --database postgresql+psycopg://… to serve from more",
            "--workers",
        )
    try:
        held = held_port(host, port, balanced=app is None and BALANCED)
    except OSError as error:
        raise LaunchRefused(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    options = uvicorn_options(settings)
    say(f"Pasur is being served at http://{host}:{port}/{f' by {workers} processes' if workers > 1 else ''}")

    def serve_one(listening: Any) -> None:
        one = app or create_app(url, settings)
        set_aside_from_collector()
        uvicorn.Server(uvicorn.Config(one, **options)).run(sockets=[listening])

    if app is not None:
        serve_one(held)
        return
    serve_in_processes(workers, host, port, serve_one, held)


def uvicorn_options(settings: ServerSettings) -> dict[str, Any]:
    """How uvicorn runs the app: the door's connection limits, WebSocket messages no larger than a
    request, and forwarding headers read by the app alone."""
    return {
        "log_level": "warning",
        "http": guarded_http(settings),
        "ws_max_size": settings.body_bytes,  # larger than a message may be: those are refused in words
        "ws_per_message_deflate": False,  # states are a few KB: compressing each cost more than it saved
        "timeout_keep_alive": 5,
        # the app reads X-Forwarded-For, from --trusted-proxy only (uvicorn by itself trusts it
        # from 127.0.0.1, where anything on this machine could forge it)
        "proxy_headers": False,
    }


def set_aside_from_collector() -> None:
    """Tune the cyclic garbage collector for a server: what it built to start (its modules, the
    tables it restored) is set aside from every pass, and a pass waits for 50,000 new objects
    instead of 700. Each full pass stopped every table here for 40-130 ms under load; now such
    passes are rare and look only at what play made (docs/DEPLOY.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)
