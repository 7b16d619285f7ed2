"""The web server's commands: ``pasur serve`` and ``pasur db`` (its database's schema)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..server.settings import SERVER_DEFAULTS, ServerSettings


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="the address to listen on")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--database",
    default=None,
    metavar="URL",
    help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/pasur [sqlite:///pasur-server.db]",
)
@click.option(
    "--bot-pause",
    type=click.FloatRange(0, 10),
    default=SERVER_DEFAULTS.bot_delay,
    show_default=True,
    help="seconds before a bot moves",
)
@click.option(
    "--tables-per-minute",
    type=click.IntRange(min=1),
    default=SERVER_DEFAULTS.tables_per_minute,
    show_default=True,
    help="new tables one address may create",
)
@click.option(
    "--joins-per-minute",
    type=click.IntRange(min=1),
    default=SERVER_DEFAULTS.joins_per_minute,
    show_default=True,
    help="seats one address may take",
)
@click.option(
    "--sign-ups-per-day",
    type=click.IntRange(min=0),
    default=SERVER_DEFAULTS.sign_ups_per_day,
    show_default=True,
    help="accounts one address may make a day",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="a host name visitors reach this server by (repeat for more; * for any) [the --host and localhost]",
)
@click.option(
    "--bot-ms",
    type=click.IntRange(10, 60_000),
    default=SERVER_DEFAULTS.bot_ms,
    show_default=True,
    help="most a bot thinks a move",
)
@click.option(
    "--analysis-ms",
    type=click.IntRange(10, 60_000),
    default=SERVER_DEFAULTS.analysis_ms,
    show_default=True,
    help="most CPU milliseconds one move of a finished match is judged for",
)
@click.option(
    "--bot-workers",
    type=click.IntRange(1, 64),
    default=None,
    help="processes for the searching bots [one fewer than the cores, at least 1]",
)
@click.option(
    "--bots",
    "extra_levels",
    multiple=True,
    metavar="LEVEL=SPEC",
    help="offer another level, a built-in bot with options (e.g. champion=solver:samples=1024); never a program",
)
@click.option(
    "--connections-per-address",
    type=click.IntRange(1),
    default=SERVER_DEFAULTS.connections_per_address,
    show_default=True,
    help="open connections",
)
@click.option(
    "--spectators",
    type=click.IntRange(0),
    default=SERVER_DEFAULTS.spectators_per_table,
    show_default=True,
    help="spectators a table admits",
)
@click.option(
    "--messages-per-second",
    type=click.IntRange(1),
    default=SERVER_DEFAULTS.messages_per_second,
    show_default=True,
    help="WebSocket messages one address may send",
)
@click.option(
    "--advice-seconds",
    type=click.FloatRange(min=0),
    default=SERVER_DEFAULTS.advice_seconds,
    show_default=True,
    help="the bot workers' CPU seconds one visitor's hints and analyses may take a minute",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    multiple=True,
    metavar="ADDRESS",
    help="a reverse proxy (address or network) whose forwarding header names the visitor; repeat for more",
)
@click.option(
    "--proxy-header",
    type=click.Choice(["x-forwarded-for", "forwarded"]),
    default=SERVER_DEFAULTS.proxy_header,
    show_default=True,
    help="the header the trusted proxies write: X-Forwarded-For, or RFC 7239 Forwarded",
)
@click.option(
    "--ipv4-prefix",
    type=click.IntRange(8, 32),
    default=SERVER_DEFAULTS.ipv4_prefix,
    show_default=True,
    help="IPv4 addresses of one network this large count as one visitor in every per-address limit",
)
@click.option(
    "--ipv6-prefix",
    type=click.IntRange(16, 128),
    default=SERVER_DEFAULTS.ipv6_prefix,
    show_default=True,
    help="the same for IPv6",
)
@click.option(
    "--abandoned-hours",
    type=click.FloatRange(min=0),
    default=SERVER_DEFAULTS.abandoned_hours,
    show_default=True,
    help="after this long untouched with nobody there, a table never started is deleted and a match "
    "under way ended as abandoned (0: kept for ever)",
)
@click.option("--upgrade", is_flag=True, help="bring an older database's schema forward first (as pasur db upgrade)")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="server processes on this port (more than 1 needs PostgreSQL)",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    upgrade: bool,
    workers: int,
    extra_levels: tuple[str, ...],
    **limits: Any,
) -> None:
    """Serve the web game: tables against bots or with friends, in the browser.

    Visitors are trusted with nothing: they choose bots by level, every request and message is
    bounded, and the limits are the options below (README, "Security")."""
    try:
        from ..server import launch
        from ..server.store import DEFAULT_DATABASE
    except ImportError:
        raise click.ClickException("the web server needs its extra: pip install 'pasur[web]'") from None
    levels = {}
    for entry in extra_levels:
        level, sep, spec = entry.partition("=")
        if not sep or not level.strip() or not spec.strip():
            raise click.UsageError(f"--bots takes LEVEL=SPEC, as champion=solver:samples=1024, not {entry!r}")
        levels[level] = spec  # server_levels tidies and checks both
    given_hosts = limits.pop("allowed_hosts")
    settings = ServerSettings(
        allowed_hosts=given_hosts or tuple(dict.fromkeys((host, "127.0.0.1", "localhost", "::1"))),
        extra_levels=levels,
        bot_delay=limits.pop("bot_pause"),
        bot_workers=limits.pop("bot_workers") or max(1, (os.cpu_count() or 2) - 1),
        spectators_per_table=limits.pop("spectators"),
        **limits,
    )
    try:
        url = database or DEFAULT_DATABASE
        launch.serve(url, settings, host, port, workers, upgrade, say=_announcer(host, warn=not given_hosts))
    except launch.LaunchRefused as refusal:
        raise (click.UsageError if refusal.option else click.ClickException)(str(refusal)) from None


def _announcer(host: str, warn: bool) -> Callable[[str], None]:
    """What the operator is told as the server starts: where it is served, and (``warn``: no
    --allowed-host given) that listening on every address answers localhost names only."""

    def say(line: str) -> None:
        click.echo(f"{line} (Ctrl-C stops it)")
        if warn and host in ("0.0.0.0", "::"):
            click.echo("Only localhost names are answered: give --allowed-host with the name visitors use.", err=True)

    return say


def _cannot_open(error: Exception) -> click.ClickException:
    """A database that cannot be used, said in one line."""
    from ..server.store import cannot_open

    return click.ClickException(cannot_open(error))


@click.group(name="db")
def db() -> None:
    """The web server's database: its schema version, and upgrades."""


def _database_engine(database: str | None) -> Any:
    """An engine over ``database`` (the server's default when None), or a one-line error."""
    try:
        from sqlalchemy import create_engine

        from ..server.store import DEFAULT_DATABASE

        return create_engine(database or DEFAULT_DATABASE)
    except ImportError:
        raise click.ClickException("the database needs the web extra: pip install 'pasur[web]'") from None
    except ValueError as error:  # sqlalchemy.exc.ArgumentError: not a URL
        raise _cannot_open(error) from None


DATABASE_OPTION = click.option(
    "--database", default=None, metavar="URL", help="SQLAlchemy URL [sqlite:///pasur-server.db]"
)


@db.command(name="upgrade")
@DATABASE_OPTION
def db_upgrade(database: str | None) -> None:
    """Bring the database's schema to this pasur's version, keeping every table (back it up first)."""
    engine = _database_engine(database)  # first: without the web extra it says so in one line
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.schema import SchemaMismatch, upgrade_schema

    try:
        before, after = upgrade_schema(engine)
    except SchemaMismatch as error:
        raise click.ClickException(str(error)) from None
    except (SQLAlchemyError, OSError) as error:
        raise _cannot_open(error) from None
    finally:
        engine.dispose()
    if before == after:
        click.echo(f"the database is at schema version {after} already")
    else:
        click.echo(f"the database's schema went from version {before or '(empty)'} to {after}")


@db.command(name="version")
@DATABASE_OPTION
def db_version(database: str | None) -> None:
    """Say the database's schema version and this pasur's."""
    engine = _database_engine(database)  # not yet connected: nothing is made (first: it names a missing extra)
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.schema import database_version, head_version

    url = engine.url
    file = url.database if url.get_backend_name() == "sqlite" and url.database != ":memory:" else None
    if file and not Path(file).exists():
        engine.dispose()
        click.echo(f"database: (no such file: {file}); this pasur: {head_version()}")
        return  # asking a version never makes a database
    try:
        with engine.connect() as connection:
            found = database_version(connection)
    except (SQLAlchemyError, OSError) as error:
        raise _cannot_open(error) from None
    finally:
        engine.dispose()
    click.echo(f"database: {found or '(empty)'}; this pasur: {head_version()}")
