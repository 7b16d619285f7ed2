"""The server's schema is versioned: a database as the server stored it at commit 6b2f8fd (before
versioning) is refused until upgraded, then upgraded keeps every table: the unfinished ones play on
to the end and the finished one replays, and an account plays a rated match on it. A version this
pasur does not know is refused; the migrations build exactly the models the store uses. On SQLite,
and on PostgreSQL when ``PASUR_TEST_POSTGRES`` names one (scripts/test.sh starts one)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("alembic")

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, text

from pasur import from_record
from pasur.server.app import create_app
from pasur.server.rows import Base
from pasur.server.schema import SchemaMismatch, head_version
from pasur.server.store import Store

from .server_helpers import EVERY_TABLE, TEST_SETTINGS, play_to_the_end, seated
from .test_cli import assert_one_line_error, pasur

OLD = json.loads((Path(__file__).parent / "data" / "server-6b2f8fd.json").read_text())
POSTGRES = os.environ.get("PASUR_TEST_POSTGRES")
DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(not POSTGRES, reason="no PostgreSQL"))]


def _drop_everything() -> None:
    engine = create_engine(POSTGRES or "")
    with engine.begin() as connection:
        connection.execute(text(f"DROP TABLE IF EXISTS {EVERY_TABLE} CASCADE"))
    engine.dispose()


@pytest.fixture
def empty(request, tmp_path) -> Iterator[Callable[[str], str]]:
    """Gives a database URL with no tables in it (by name, for SQLite); PostgreSQL's is left
    empty again afterwards, for the other tests that share it."""
    kind = request.node.callspec.params["kind"]
    yield lambda name: f"sqlite:///{tmp_path / name}" if kind == "sqlite" else (_drop_everything(), POSTGRES or "")[1]
    if kind != "sqlite":
        _drop_everything()


def old_database(url: str) -> str:
    """``url`` given the schema and rows the server had at commit 6b2f8fd."""
    engine = create_engine(url)
    with engine.begin() as connection:
        for statement in OLD["schema"]:
            connection.execute(text(statement))
        for name in ("tables", "moves"):
            for row in OLD[name]:
                columns = ", ".join(row)
                connection.execute(text(f"INSERT INTO {name} ({columns}) VALUES (:{', :'.join(row)})"), row)
    engine.dispose()
    return url


def stored_tables() -> dict[str, dict[str, Any]]:
    return {row["id"]: row for row in OLD["tables"]}


@pytest.mark.parametrize("kind", DATABASES)
def test_an_unversioned_database_is_refused_then_upgraded_and_keeps_every_table(kind, empty):
    url = old_database(empty("old.db"))
    with pytest.raises(SchemaMismatch, match=r"older than this pasur.s .*pasur db upgrade"):
        Store(url)
    refusal = assert_one_line_error(pasur("serve", "--database", url, "--port", "1"), 1)
    assert "schema version 0001" in refusal and "--upgrade" in refusal
    assert pasur("db", "version", "--database", url).stdout.strip() == f"database: 0001; this pasur: {head_version()}"
    upgraded = pasur("db", "upgrade", "--database", url)
    assert upgraded.returncode == 0 and f"from version 0001 to {head_version()}" in upgraded.stdout
    assert "already" in pasur("db", "upgrade", "--database", url).stdout

    tables = stored_tables()
    with TestClient(create_app(url, TEST_SETTINGS)) as client:
        for table_id, row in tables.items():
            moves = [move for move in OLD["moves"] if move["table_id"] == table_id]
            if row["status"] == "finished":
                record = client.get(f"/api/tables/{table_id}/record")
                assert record.status_code == 200, record.text
                replayed = from_record(record.json())
                assert sum(len(game.history) for game in replayed.rounds) == len(moves)
                assert client.get(f"/api/tables/{table_id}/replay").status_code == 200
                continue
            with seated(client, table_id, OLD["tokens"][table_id], since=0) as socket:
                frames: list[dict[str, Any]] = []
                final = play_to_the_end(socket, frames)
            assert final["winner"] is not None and final["version"] > len(moves)
            record = client.get(f"/api/tables/{table_id}/record").json()
            played = [move["card"] for game in record["rounds"] for move in game["moves"]]
            assert played[: len(moves)] == [move["move"].split("x")[0] for move in moves]  # the stored moves stand
        # what came after: an account plays a rated match on the upgraded database, and is rated
        signed = client.post("/api/account", json={"name": "Ava", "password": "felt and four cards"})
        assert signed.status_code == 201
        body = {"name": "Ava", "seats": ["easy"], "timer": 1, "rated": True}
        table = client.post("/api/tables", json=body, headers={"X-CSRF-Token": signed.json()["csrf"]}).json()
        with seated(client, table["id"], table["token"]) as socket:
            socket.send_json({"type": "start"})
            play_to_the_end(socket, [])
        assert client.get("/api/players/Ava").json()["ratings"]["2"]["games"] == 1


@pytest.mark.parametrize("kind", DATABASES)
def test_serve_upgrade_brings_the_database_forward_and_a_new_database_is_built(kind, empty):
    url = old_database(empty("old.db"))
    Store(url, upgrade=True).close()
    Store(url).close()  # now at this pasur's version: opened as it is
    store = Store(empty("new.db"))
    with store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    store.close()


@pytest.mark.parametrize("kind", DATABASES)
def test_a_database_of_a_version_this_pasur_does_not_know_is_refused(kind, empty):
    url = empty("new.db")
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    for opened in (lambda: Store(url), lambda: Store(url, upgrade=True)):
        with pytest.raises(SchemaMismatch, match="9999, which this pasur does not know"):
            opened()
    assert "does not know" in assert_one_line_error(pasur("db", "upgrade", "--database", url), 1)


def test_a_file_that_is_no_database_is_refused_in_one_line_and_left_as_it_was(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database\0" * 100)
    url = f"sqlite:///{junk}"
    for command in (("db", "version"), ("db", "upgrade"), ("serve", "--port", "1")):
        assert "cannot open the database" in assert_one_line_error(pasur(*command, "--database", url), 1)
    assert junk.read_bytes() == b"not a database\0" * 100


@pytest.mark.skipif(not POSTGRES, reason="no PostgreSQL")
def test_four_processes_starting_at_once_on_an_empty_database_all_open_it():
    _drop_everything()
    opening = "import sys; from pasur.server.store import Store; Store(sys.argv[1]).close()"
    started = [
        subprocess.Popen([sys.executable, "-c", opening, POSTGRES or ""], stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    answers = [(process.wait(120), process.stderr.read() if process.stderr else "") for process in started]
    assert all(code == 0 for code, _ in answers), answers  # none died on another's half-made schema
    engine = create_engine(POSTGRES or "")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == head_version()
    engine.dispose()
    _drop_everything()


def test_asking_the_version_never_makes_a_database(tmp_path):
    missing = tmp_path / "none.db"
    said = pasur("db", "version", "--database", f"sqlite:///{missing}")
    assert said.returncode == 0 and "no such file" in said.stdout and not missing.exists()


def database_at(url: str, version: str) -> Engine:
    """An engine on ``url``, its schema as migration ``version`` left it."""
    from alembic import command

    from pasur.server.schema import _config

    engine = create_engine(url)
    with engine.begin() as connection:
        command.upgrade(_config(connection), version)
    return engine


def upgraded_rows(url: str, *queries: str) -> list[dict[Any, Any]]:
    """``url`` upgraded by ``pasur db upgrade``, then what each query reads (two columns), as a dict."""
    assert pasur("db", "upgrade", "--database", url).returncode == 0
    engine = create_engine(url)
    with engine.connect() as connection:
        rows = [dict(connection.execute(text(query)).all()) for query in queries]
    engine.dispose()
    return rows


@pytest.mark.parametrize("kind", DATABASES)
def test_names_stored_under_an_older_skeleton_are_keyed_anew_and_each_account_still_signs_in(kind, empty):
    url = empty("names.db")
    engine = database_at(url, "0006")
    # as the skeleton of 0006's day left them: blanks and Unicode's confusables kept as they are
    stored = {"Ava": "ava", "Av\u0251": "av\u0251", "Ava\u3164": "ava\u3164", "Sara": "sara", "H\u0585st": "h\u0585st"}
    password = "felt and four cards"
    with engine.begin() as connection:
        for name, key in stored.items():
            connection.execute(
                text("INSERT INTO accounts (name, name_key, password, created) VALUES (:name, :key, :hash, 'x')"),
                {"name": name, "key": key, "hash": PasswordHasher().hash(password)},
            )
    engine.dispose()
    [keys] = upgraded_rows(url, "SELECT name, name_key FROM accounts ORDER BY id")
    assert keys["Ava"] == "ava" and keys["Sara"] == "sara" and keys["H\u0585st"] == "host"
    assert keys["Av\u0251"].startswith("ava ") and keys["Ava\u3164"].startswith("ava ")  # the older Ava keeps it
    with TestClient(create_app(url, TEST_SETTINGS)) as client:
        for name in stored:
            signed = client.post("/api/session", json={"name": name, "password": password})
            assert signed.status_code == 200 and signed.json()["name"] == name, (name, signed.text)
            assert client.get(f"/api/players/{name}").json()["name"] == name
        assert client.get("/api/players/AVA").json()["name"] == "Ava"  # a name as typed finds the older account
        for look_alike in ("\u0410va", "Ava\u2800", "Host"):  # and new look-alikes are refused
            refusal = client.post("/api/account", json={"name": look_alike, "password": password})
            assert refusal.status_code == 400 and refusal.json()["reason"] == "name_taken", look_alike


@pytest.mark.parametrize("kind", DATABASES)
def test_ratings_and_results_stored_by_player_count_are_keyed_by_the_kind_of_table(kind, empty):
    url = empty("kinds.db")
    engine = database_at(url, "0009")
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO accounts (name, name_key, password, created) VALUES ('Ava', 'ava', 'x', 'x')")
        )
        for players, value in ((2, 1610.0), (4, 1420.0)):  # rated at four: always in partnership then
            connection.execute(
                text("INSERT INTO ratings VALUES (1, :players, :value, 90, 12, 'x')"),
                {"players": players, "value": value},
            )
        # three finished matches: two players, four in partnership, four each for themselves
        for table, sides in (("two", (0, 1)), ("pairs", (0, 1, 0, 1)), ("each", (0, 1, 2, 3))):
            connection.execute(
                text("INSERT INTO tables (id, settings, status, created) VALUES (:id, '{}', 'finished', 'x')"),
                {"id": table},
            )
            connection.execute(
                text(
                    "INSERT INTO results (table_id, finished, players, scores, winner)"
                    " VALUES (:id, 'x', :players, '[]', 0)"
                ),
                {"id": table, "players": len(sides)},
            )
            for seat, side in enumerate(sides):
                connection.execute(
                    text(
                        "INSERT INTO result_seats (table_id, seat, name, side, won)"
                        " VALUES (:id, :seat, 'x', :side, false)"
                    ),
                    {"id": table, "seat": seat, "side": side},
                )
    engine.dispose()
    kinds, ratings = upgraded_rows(
        url, "SELECT table_id, kind FROM results", "SELECT kind, value FROM ratings WHERE account_id = 1"
    )
    assert kinds == {"two": "2", "pairs": "4", "each": "4-each"}
    assert ratings == {"2": 1610.0, "4": 1420.0}  # the rating at four stays the partnership's
    with TestClient(create_app(url, TEST_SETTINGS)) as client:
        record = client.get("/api/players/Ava").json()
        assert record["ratings"]["4"]["value"] == 1420 and record["ratings"]["4-each"]["games"] == 0
