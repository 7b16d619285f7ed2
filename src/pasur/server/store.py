"""Where tables live between restarts: SQLAlchemy, SQLite by default, PostgreSQL by URL. A table
is its settings and seed plus every move in order; its state is the engine replaying them. The
schema is versioned (`pasur.server.schema`); its rows are declared in `rows`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    Integer,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import Session

from .errors import ChangedElsewhere, StorageUnavailable, VersionTaken
from .rows import (
    AnalysisRow,
    ChatRow,
    MoveRow,
    TableRow,
)
from .schema import ensure_schema

P = ParamSpec("P")
R = TypeVar("R")


def storage(method: Callable[P, R]) -> Callable[P, R]:
    """A store method whose database errors come out as `StorageUnavailable`."""

    @wraps(method)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except SQLAlchemyError as error:
            raise StorageUnavailable("storage_unavailable") from error

    return guarded


#: Chat lines a table keeps stored in each channel (the page shows the last 50).
CHAT_LINES_STORED = 200
#: The database when none is given: a file beside where the server runs.
DEFAULT_DATABASE = "sqlite:///pasur-server.db"
#: The most connections a process stores moves through at once: with one, every table's moves
#: queued behind each other's round trips.
WRITERS = 4
#: Seconds a move waits for one of those connections (or to connect) before it is refused.
WRITER_WAIT_SECONDS = 5

#: The PostgreSQL channel on which server processes tell each other what changed at a table
#: (its seats, its start, its chat); a move is told on the table's own channel (`table_channel()`).
CHANNEL = "pasur"


def table_channel(table_id: str) -> str:
    """The channel a table's moves are told on: only the processes that follow the table listen."""
    return f"{CHANNEL}.{table_id}"


#: A move stored and announced in one statement (so in one transaction: the notice goes out when,
#: and only if, the move is stored), in psycopg's own form.
_INSERT_AND_ANNOUNCE = (
    "WITH stored AS (INSERT INTO moves (table_id, version, seat, move, client_id, timed)"
    " VALUES (%(table_id)s, %(version)s, %(seat)s, %(move)s, %(client_id)s, %(timed)s) RETURNING 1)"
    " SELECT pg_notify(%(channel)s, %(notice)s) FROM stored"
)
_ANNOUNCE = text("SELECT pg_notify(:channel, :notice)")


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: its id, its settings (the JSON of ``TableSettings``), its status and its
    revision."""

    id: str
    settings: dict[str, Any]
    status: str
    revision: int = 0


@dataclass(frozen=True, slots=True)
class StoredMove:
    """A move as stored: the version it made, the seat, its short text, the client's move id,
    and whether the turn timer played it for a person."""

    version: int
    seat: int
    move: str
    client_id: str | None
    timed: bool = False


class Store:
    """Reads and writes tables and moves; every write is committed before it returns."""

    def __init__(self, url: str = DEFAULT_DATABASE, upgrade: bool = False) -> None:
        """Open the database at ``url``: an empty one is built, an older one upgraded only when
        ``upgrade`` (else `pasur.server.schema.SchemaMismatch` says how)."""
        self.url = url
        self.engine: Engine = create_engine(url)
        #: Whether other server processes may share the database (PostgreSQL): moves and changes
        #: are then announced on `CHANNEL`.
        self.shared = self.engine.dialect.name == "postgresql"
        #: This process's pool of connections for storing moves from the event loop (PostgreSQL;
        #: opened at the first move).
        self._writers: Any = None
        self._autocommit_of: tuple[Engine | None, Engine] = (None, self.engine)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            ensure_schema(self.engine, upgrade)
        except BaseException:
            self.engine.dispose()
            raise

    @property
    def driver_url(self) -> str:
        """The database's address as psycopg itself takes it (for this process's own connections)."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    @property
    def _autocommit(self) -> Engine:
        """The same connections, each statement its own transaction (made once for the engine:
        making it costs some 20 µs, a fifth of a SQLite move)."""
        engine, autocommit = self._autocommit_of
        if engine is not self.engine:
            autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            self._autocommit_of = (self.engine, autocommit)
        return autocommit

    @storage
    def create_table(self, table_id: str, settings: dict[str, Any], status: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(
                TableRow(
                    id=table_id,
                    settings=json.dumps(settings),
                    status=status,
                    created=datetime.now(UTC).isoformat(timespec="seconds"),
                )
            )

    @storage
    def update_table(self, table_id: str, settings: dict[str, Any], status: str, revision: int) -> None:
        """Store a table's new settings and status, made on its ``revision`` (which goes one up);
        `ChangedElsewhere`, and nothing changes, when the stored table is past it."""
        change = (
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.revision == revision)
            .values(settings=json.dumps(settings), status=status, revision=revision + 1)
        )
        with self.engine.begin() as connection:
            if connection.execute(change).rowcount != 1:
                raise ChangedElsewhere("changed_elsewhere")

    @storage
    def add_move(
        self,
        table_id: str,
        version: int,
        seat: int,
        move: str,
        client_id: str | None,
        notice: str = "",
        timed: bool = False,
    ) -> None:
        """Store a move; it is on disk when this returns. `VersionTaken` when that version
        is stored already (by another process). With a shared database ``notice`` is announced to
        the other processes as the move commits."""
        row = _move_row(table_id, version, seat, move, client_id, timed)
        try:
            # This runs on every move: one statement, its own transaction, one round trip.
            with self._autocommit.connect() as connection:
                if self.shared and notice:
                    connection.exec_driver_sql(_INSERT_AND_ANNOUNCE, _announced(row, notice))
                else:
                    connection.execute(insert(MoveRow), row)
        except IntegrityError:
            raise _taken(version) from None

    async def store_move(
        self,
        table_id: str,
        version: int,
        seat: int,
        move: str,
        client_id: str | None,
        notice: str = "",
        timed: bool = False,
    ) -> None:
        """`add_move()` for the event loop: on PostgreSQL through this process's own
        asynchronous connections, so the loop serves other tables while the database answers (a
        thread would wait for the interpreter's lock behind a busy loop: measured slower); on
        SQLite in a thread, so that a slow disk, or a file another process holds locked, holds up
        only the table that is moving, never the loop."""
        if not (self.shared and notice):
            await asyncio.to_thread(self.add_move, table_id, version, seat, move, client_id, notice, timed)
            return
        import psycopg  # the PostgreSQL driver, with the web extra

        row = _move_row(table_id, version, seat, move, client_id, timed)
        try:
            async with (await self._writer_pool()).connection() as connection:
                await connection.execute(_INSERT_AND_ANNOUNCE, _announced(row, notice))
        except psycopg.errors.UniqueViolation:
            raise _taken(version) from None
        except psycopg.Error as error:  # the pool's timeout too
            raise StorageUnavailable("storage_unavailable") from error

    async def _writer_pool(self) -> Any:
        """This process's connections for storing moves, opened at the first move (the pool
        replaces a broken connection; waiting for one ends after `WRITER_WAIT_SECONDS`)."""
        if self._writers is None:
            from psycopg_pool import AsyncConnectionPool

            pool = AsyncConnectionPool(
                self.driver_url,
                min_size=1,
                max_size=WRITERS,
                open=False,
                timeout=WRITER_WAIT_SECONDS,
                kwargs={"autocommit": True, "connect_timeout": WRITER_WAIT_SECONDS},
            )
            await pool.open()
            if self._writers is None:
                self._writers = pool
            else:  # another move opened one meanwhile
                await pool.close()
        return self._writers

    @storage
    def announce(self, notice: str) -> None:
        """Tell the other server processes ``notice`` (with a shared database; else nothing)."""
        if self.shared and notice:
            with self._autocommit.connect() as connection:
                connection.execute(_ANNOUNCE, {"channel": CHANNEL, "notice": notice})

    @storage
    def tables(self, statuses: tuple[str, ...], since: datetime | None = None) -> list[StoredTable]:
        """Every table in one of ``statuses`` (made at ``since`` or later, when given)."""
        query = select(TableRow).where(TableRow.status.in_(statuses))
        if since is not None:
            query = query.where(TableRow.created >= since.isoformat(timespec="seconds"))
        with Session(self.engine) as session:
            rows = session.scalars(query)
            return [StoredTable(row.id, json.loads(row.settings), row.status, row.revision) for row in rows]

    @storage
    def table(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            return None if row is None else StoredTable(row.id, json.loads(row.settings), row.status, row.revision)

    @storage
    def moves(self, table_id: str, after: int = 0) -> list[StoredMove]:
        """A table's moves in order (those after version ``after``)."""
        query = select(MoveRow).where(MoveRow.table_id == table_id, MoveRow.version > after).order_by(MoveRow.version)
        with Session(self.engine) as session:
            return [
                StoredMove(row.version, row.seat, row.move, row.client_id, row.timed) for row in session.scalars(query)
            ]

    @storage
    def latest_versions(self, table_ids: list[str]) -> dict[str, int]:
        """The version each of these tables has reached (tables without moves left out): one
        look into the moves' index a table, however many moves are stored."""
        latest = select(func.max(MoveRow.version)).where(MoveRow.table_id == TableRow.id).scalar_subquery()
        query = select(TableRow.id, type_coerce(latest, Integer)).where(TableRow.id.in_(table_ids))
        with self.engine.connect() as connection:
            return {table_id: version for table_id, version in connection.execute(query) if version is not None}

    @storage
    def add_chat(self, table_id: str, line: dict[str, Any]) -> None:
        """Store a chat line (``channel``, ``seat``, ``name``, ``text`` or ``phrase``); a
        channel keeps its last `CHAT_LINES_STORED` lines, the older go."""
        same_channel = (ChatRow.table_id == table_id, ChatRow.channel == line["channel"])
        oldest_gone = (
            select(ChatRow.id).where(*same_channel).order_by(ChatRow.id.desc()).offset(CHAT_LINES_STORED).limit(1)
        )
        with self.engine.begin() as connection:
            said = datetime.now(UTC).isoformat(timespec="seconds")
            connection.execute(insert(ChatRow), {"table_id": table_id, "said": said, **line})
            connection.execute(delete(ChatRow).where(*same_channel, ChatRow.id <= oldest_gone.scalar_subquery()))

    @storage
    def delete_table(self, table_id: str) -> None:
        """Delete a table that was never started, with its chat (it has no moves or result)."""
        with self.engine.begin() as connection:  # all or nothing: a table started meanwhile keeps its chat
            connection.execute(delete(ChatRow).where(ChatRow.table_id == table_id))
            never_started = delete(TableRow).where(TableRow.id == table_id, TableRow.status == "open")
            if connection.execute(never_started).rowcount != 1:
                raise ChangedElsewhere("changed_elsewhere")

    @storage
    def keep_analysis(self, table_id: str, moves: list[dict[str, Any]]) -> None:
        """Keep a finished match's whole judgement (a second process keeping it too changes nothing)."""
        made = datetime.now(UTC).isoformat(timespec="seconds")
        row = {"table_id": table_id, "moves": json.dumps(moves), "made": made}
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(AnalysisRow), row)
        except IntegrityError:
            pass  # kept already

    @storage
    def analysis(self, table_id: str) -> list[dict[str, Any]] | None:
        """A finished match's judgement as kept, or None."""
        with Session(self.engine) as session:
            row = session.get(AnalysisRow, table_id)
            return None if row is None else list(json.loads(row.moves))

    @storage
    def chat(self, table_id: str, channel: str, limit: int) -> list[dict[str, Any]]:
        """A table's last ``limit`` chat lines in ``channel``, oldest first."""
        query = (
            select(ChatRow)
            .where(ChatRow.table_id == table_id, ChatRow.channel == channel)
            .order_by(ChatRow.id.desc())
            .limit(limit)
        )
        with Session(self.engine) as session:
            rows = list(session.scalars(query))
        fields = ("channel", "seat", "name", "text", "phrase")
        return [{name: getattr(row, name) for name in fields} for row in reversed(rows)]

    async def close_writers(self) -> None:
        if self._writers is not None:
            await self._writers.close()
            self._writers = None

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """Write-ahead logging: writers do not block readers, and a commit is one append."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _announced(row: dict[str, Any], notice: str) -> dict[str, Any]:
    """A move's row with its notice, for `_INSERT_AND_ANNOUNCE`: told on its table's channel."""
    return {**row, "channel": table_channel(row["table_id"]), "notice": notice}


def _move_row(table_id: str, version: int, seat: int, move: str, client_id: str | None, timed: bool) -> dict[str, Any]:
    """A move as the moves table stores it."""
    return dict(table_id=table_id, version=version, seat=seat, move=move, client_id=client_id, timed=timed)


def _taken(version: int) -> VersionTaken:
    """What storing a version that another process stored first raises."""
    return VersionTaken("stale_version", version=version)


#: What a database URL may name, said where one names something else.
DATABASE_KINDS = "a sqlite:///FILE or postgresql+psycopg://USER@HOST/NAME URL"


def cannot_open(error: Exception) -> str:
    """A database that cannot be used, said in one line (SQLAlchemy's messages go on with the SQL
    and a link); for a kind of database this server has no driver for, what it takes."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    said = f"cannot open the database: {lines[0] if lines else type(cause).__name__}"
    return f"{said} (give {DATABASE_KINDS})" if isinstance(cause, NoSuchModuleError | ImportError) else said
