"""The database's schema, version by version: Alembic migrations (see pasur.server.schema)."""
