"""What one server process shares with the others over PostgreSQL, so that many processes (on one
machine or several) serve one site.

- **Notices**: after a change at a table (a seat taken, the match started, a player ready for the
  next deal, a chat line) a process announces it on the ``pasur`` channel (``NOTIFY``), which every
  other process ``LISTEN``\\ s to. A move is announced, in the same transaction as its row, on the
  table's own channel (``pasur.<table>``), which only the processes that **follow** the table
  listen to: those with somebody watching it, and its owner. A process that follows a table keeps
  its copy up to date from the database (moves by version, so a lost notice leaves no gap: the
  next one, or the sweep every `SWEEP_SECONDS`, reads whatever was missed); one that does not
  is woken by nothing and reads the moves when it next uses its copy. So each move costs only the
  processes that need it (with a table's sockets routed to one process, usually one).
- **Ownership**: one process at a time runs a started table's bots and turn timer: the one that
  holds the table's PostgreSQL advisory lock on its own session. When that process dies its
  session ends, the lock is free, and the sweep of another process that holds the table takes it
  within `SWEEP_SECONDS`. A move is applied once whoever makes it: the moves' primary key
  (table, version) lets only one process store a version.

With SQLite nothing is shared: one process owns every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from .store import CHANNEL, Store, table_channel

log = logging.getLogger("pasur.server")

#: How often a process checks that its tables are up to date and takes over those nobody runs.
SWEEP_SECONDS = 2.0
#: Seconds before listening again after the notices' connection was lost.
RECONNECT_SECONDS = 1.0
#: At most how long a table this process starts to follow waits to be listened to.
FOLLOW_SECONDS = 0.1

#: What a process does with another's notice: the notice, as a dict.
OnNotice = Callable[[dict[str, Any]], Awaitable[None]]
#: What a process does once it listens to some tables' moves: they catch up with those stored before.
OnFollowed = Callable[[set[str]], Awaitable[None]]
#: The sweep: tables brought up to date from the database; with True, after notices may have been
#: lost (before listening, or while the listening connection was down), the tables made meanwhile
#: and every table's chat too.
Sweep = Callable[[bool], Awaitable[None]]


class Hub:
    """This process's part in a shared database: notices out and in, and table ownership."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.shared = store.shared
        #: This process's name in its notices (its own are not acted on twice).
        self.process = secrets.token_hex(6)
        self._owned: set[str] = set()
        #: The tables somebody watches here (a socket is connected to them).
        self._watched: set[str] = set()
        #: The tables whose moves the notices' connection listens to now.
        self._following: set[str] = set()
        #: When another process last held each table this one asked for.
        self._refused: dict[str, float] = {}
        self._locks: Connection | None = None
        self._tasks: list[asyncio.Task[None]] = []

    # -- notices --------------------------------------------------------------------------------

    def notice(self, table_id: str, kind: str, **fields: Any) -> str:
        """A notice's text (empty when nothing is shared)."""
        if not self.shared:
            return ""
        return json.dumps({"table": table_id, "kind": kind, "from": self.process, **fields}, separators=(",", ":"))

    def tell(self, table_id: str, kind: str, **fields: Any) -> None:
        """Announce a change at a table to the other processes (nothing when nothing is shared; a
        lost notice is made good by their sweep)."""
        if self.shared:
            with contextlib.suppress(Exception):
                self.store.announce(self.notice(table_id, kind, **fields))

    def start(self, on_notice: OnNotice, on_followed: OnFollowed, sweep: Sweep) -> None:
        """Once the event loop runs: listen for notices, and sweep every `SWEEP_SECONDS`."""
        if self.shared:
            loop = asyncio.get_running_loop()
            listening = self._listen(on_notice, on_followed, sweep)
            self._tasks = [loop.create_task(listening), loop.create_task(self._sweeping(sweep))]

    def watch(self, table_id: str, watched: bool) -> None:
        """Somebody watches the table here now (``watched``), or nobody does any more: a table is
        followed while watched or run here."""
        if watched:
            self._watched.add(table_id)
        else:
            self._watched.discard(table_id)

    def follows(self, table_id: str) -> bool:
        """Whether this process hears the table's moves as they are made (always, sharing nothing)."""
        return not self.shared or table_id in self._following

    async def _listen(self, on_notice: OnNotice, on_followed: OnFollowed, sweep: Sweep) -> None:
        import psycopg  # the PostgreSQL driver, with the web extra

        url = self.store.driver_url
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self._following = set()
                    # what was missed while not listening: since the last connection, or the first
                    # time since the tables were read at the start
                    await self._sweep(sweep, True)
                    while True:  # the tables to follow are listened to anew every FOLLOW_SECONDS
                        followed = await self._follow(connection)
                        if followed:
                            await on_followed(followed)
                        async with contextlib.aclosing(connection.notifies(timeout=FOLLOW_SECONDS)) as notices:
                            async for message in notices:
                                await self._received(message.payload, on_notice)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the connection was lost: listen again, and catch up
                log.warning("listening for other processes' notices failed (%s); trying again", error)
                self._following = set()
                await asyncio.sleep(RECONNECT_SECONDS)

    async def _follow(self, connection: Any) -> set[str]:
        """Listen to the moves of the tables watched or run here, and to no others; the tables
        followed from now on (their moves stored before are read by ``on_followed``)."""
        wanted = self._watched | self._owned
        started, stopped = wanted - self._following, self._following - wanted
        if started or stopped:
            from psycopg import sql

            commands = [sql.SQL("LISTEN {}").format(sql.Identifier(table_channel(t))) for t in sorted(started)]
            commands += [sql.SQL("UNLISTEN {}").format(sql.Identifier(table_channel(t))) for t in sorted(stopped)]
            await connection.execute(sql.SQL("; ").join(commands))
            self._following = set(wanted)
        return started

    async def _received(self, payload: str, on_notice: OnNotice) -> None:
        try:
            notice = json.loads(payload)
        except json.JSONDecodeError:
            return
        mine = isinstance(notice, dict) and notice.get("from") == self.process
        if mine or not (isinstance(notice, dict) and isinstance(notice.get("table"), str)):
            return
        try:
            await on_notice(notice)
        except Exception:  # one table's trouble must not stop the listening
            log.exception("acting on a notice for table %s", notice.get("table"))

    async def _sweeping(self, sweep: Sweep) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self._sweep(sweep, False)
            except Exception:
                log.exception("sweeping the tables")

    async def _sweep(self, sweep: Sweep, missed: bool) -> None:
        """The sweep, once this process knows which tables are still its own."""
        self._check_locks()
        await sweep(missed)

    # -- ownership ------------------------------------------------------------------------------

    def runs(self, table_id: str) -> bool:
        """Whether this process runs the table now (asking nobody)."""
        return not self.shared or table_id in self._owned

    def owns(self, table_id: str) -> bool:
        """Whether this process runs the table's bots and timer (taking it when nobody does; a
        table another process holds is asked about again only after `SWEEP_SECONDS`, so a
        move heard from the owner costs no round trip to the database)."""
        if not self.shared or table_id in self._owned:
            return True
        refused = self._refused.get(table_id)
        if refused is not None and time.monotonic() - refused < SWEEP_SECONDS:
            return False
        return table_id in self.claim([table_id])

    def claim(self, table_ids: Sequence[str]) -> set[str]:
        """Take, in one round trip, those of ``table_ids`` nobody runs; the ones this process runs."""
        wanted = {_lock_key(table_id): table_id for table_id in table_ids if table_id not in self._owned}
        if not (self.shared and wanted):
            return self._owned & set(table_ids)
        try:
            if self._locks is None:
                self._locks = self.store.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            rows = self._locks.execute(_TRY_LOCKS, {"keys": list(wanted)})
            taken = {int(row[0]): bool(row[1]) for row in rows}
        except SQLAlchemyError as error:
            log.warning("cannot take tables: %s", error)
            self._drop_locks()
            return set()
        now = time.monotonic()
        for key, got in taken.items():
            table_id = wanted[key]
            if got:
                self._owned.add(table_id)
                self._refused.pop(table_id, None)
            else:
                self._refused[table_id] = now
        return self._owned & set(table_ids)

    def release(self, table_id: str) -> None:
        """Let another process run the table (it is finished, or this process lets it go)."""
        self._refused.pop(table_id, None)
        if self.shared and table_id in self._owned and self._locks is not None:
            self._owned.discard(table_id)
            try:
                self._locks.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _lock_key(table_id)})
            except SQLAlchemyError:
                self._drop_locks()

    def _check_locks(self) -> None:
        """When the session holding this process's tables has ended (the database restarted, or
        ended it), so have its locks, and another process may run those tables already: they are
        no longer counted as this process's (it takes each again only if it is still free)."""
        if self._owned and self._locks is not None:
            try:
                self._locks.execute(text("SELECT 1"))
            except SQLAlchemyError:
                log.warning("the session holding this process's tables was lost; they are taken again if free")
                self._drop_locks()

    def _drop_locks(self) -> None:
        """The locks' session is gone: so are the locks (others may take the tables)."""
        self._owned.clear()
        if self._locks is not None:
            with contextlib.suppress(Exception):
                self._locks.close()
        self._locks = None

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._drop_locks()


#: Try each table's lock: (key, taken) for each key.
_TRY_LOCKS = text("SELECT key, pg_try_advisory_lock(key) FROM unnest(CAST(:keys AS bigint[])) AS wanted(key)")


def _lock_key(table_id: str) -> int:
    """A table's advisory lock: a signed 64-bit number from its id."""
    return int.from_bytes(hashlib.sha256(f"pasur-table:{table_id}".encode()).digest()[:8], "big", signed=True)
