"""The database's schema version: Alembic migrations (``pasur/server/migrations``), and the check
that a database is at the version this pasur knows before the server uses it.

A new, empty database is built by the migrations. One made before the schema was versioned (its
``tables`` without Alembic's ``alembic_version``) is recognised by its tables and upgraded from
there. Any other database at an older version is upgraded only when asked (``pasur db upgrade``,
``pasur serve --upgrade``); one at a version this pasur does not know (a newer pasur's) never.
On PostgreSQL the schema is built and upgraded under an advisory lock: several processes or
machines that start at once on one database wait for each other, and each checks the version
again once it holds the lock (the first built it; the others find it built).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

__all__ = ["SchemaMismatch", "database_version", "ensure_schema", "head_version", "upgrade_schema"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The advisory lock that building or upgrading the schema holds on PostgreSQL (any number; this
#: one spells "pasur" in ASCII).
SCHEMA_LOCK = 0x7061737572
#: The versions of databases made before the schema was versioned, by the tables they hold.
UNVERSIONED = (({"tables", "moves", "chat"}, "0002"), ({"tables", "moves"}, "0001"))


class SchemaMismatch(Exception):
    """The database is at a schema version the server must not use as it is."""


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head_version() -> str:
    """The schema version this pasur writes."""
    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert head is not None
    return head


def database_version(connection: Connection) -> str | None:
    """The database's schema version: Alembic's, else that of its tables when made before
    versioning, else None (an empty database)."""
    version = MigrationContext.configure(connection).get_current_revision()
    if version is not None:
        return version
    tables = set(inspect(connection).get_table_names())
    for held, found in UNVERSIONED:
        if held <= tables:
            return found
    return None


def _known(version: str) -> bool:
    return any(script.revision == version for script in ScriptDirectory(str(MIGRATIONS)).walk_revisions())


def upgrade_schema(engine: Engine) -> tuple[str | None, str]:
    """Bring the database to this pasur's version; (the version it was at, the version now).
    `SchemaMismatch` for a version this pasur does not know."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # held until this transaction ends
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        before = database_version(connection)
        if before is not None and not _known(before):
            raise _newer(before)
        config = _config(connection)
        if before is not None and MigrationContext.configure(connection).get_current_revision() is None:
            command.stamp(config, before)  # made before versioning: it is at that version
        command.upgrade(config, "head")
    return before, head_version()


def ensure_schema(engine: Engine, upgrade: bool = False) -> None:
    """Make sure the database is at this pasur's version: build an empty one; upgrade an older one
    when ``upgrade``, else `SchemaMismatch` saying how."""
    with engine.connect() as connection:
        version = database_version(connection)
    head = head_version()
    if version == head:
        return
    version = _settled_version(engine)  # another process may have been making the schema meanwhile
    if version == head:
        return
    if version is not None and not _known(version):
        raise _newer(version)
    if version is not None and not upgrade:
        raise SchemaMismatch(
            f"the database is at schema version {version}, older than this pasur's ({head}): "
            "upgrade it with 'pasur db upgrade --database URL' (back it up first), or serve with --upgrade"
        )
    upgrade_schema(engine)


def _settled_version(engine: Engine) -> str | None:
    """The database's version once no other process is changing its schema (on PostgreSQL, read
    under the schema's lock): read while another builds it, the tables may already be there and
    their version not yet, and an empty database would pass for one made before versioning."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # held until this transaction ends
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        return database_version(connection)


def _newer(version: str) -> SchemaMismatch:
    return SchemaMismatch(
        f"the database is at schema version {version}, which this pasur does not know (a newer "
        f"pasur's?): this one writes {head_version()}; serve it with the pasur that made it"
    )
