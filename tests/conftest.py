"""What every test module shares: with pytest-xdist, each worker's own PostgreSQL database; the
cyclic garbage collector held off for the tests that build millions of small objects; the long
tests first."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

import pytest


@pytest.fixture
def without_cycle_collection() -> Iterator[None]:
    """The cyclic garbage collector off while the test runs: for a test that builds or reads
    millions of dicts and lists with no cycles among them, which the collector would otherwise
    walk again and again as they grow (the offline table's comparison: its expected states built
    in 4 s instead of 15, the browser's engine's 224 MB answer read in 3 s instead of 16)."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` first, each module's in its order (its module fixtures are made
    once): pytest-xdist hands out tests from the front of the list, so a long one started last
    would keep one worker busy for a minute after the others are done."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
