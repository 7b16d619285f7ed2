"""Alembic's entry: run the migrations on the connection pasur.server.schema hands over."""

from alembic import context

context.configure(connection=context.config.attributes["connection"])
with context.begin_transaction():
    context.run_migrations()
