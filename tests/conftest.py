"""What every test module shares: with pytest-xdist, each worker's own PostgreSQL database."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """The PostgreSQL tests drop and make their tables, so workers running side by side must not
    share a database: each gets ``<database>_<worker>`` on the same server, made when missing."""
    url, worker = os.environ.get("PASUR_TEST_POSTGRES"), os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return
    from sqlalchemy import create_engine, make_url, text

    base = make_url(url)
    name = f"{base.database}_{worker}"
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        if connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}).first() is None:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    os.environ["PASUR_TEST_POSTGRES"] = base.set(database=name).render_as_string(hide_password=False)
