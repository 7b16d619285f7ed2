"""Write tests/data/server-6b2f8fd.json: tables as the server stored them at commit 6b2f8fd (before
the schema was versioned), for the upgrade test (tests/test_migrations.py).

Run with that commit's code, not this one's:

    git worktree add /tmp/old6b 6b2f8fd
    PASUR_ENGINE=python PYTHONPATH=/tmp/old6b/src:/tmp/old6b .venv/bin/python tests/data/make_6b2f8fd_database.py

It plays, over that server's API, a finished 2-player match, an unfinished 2-player match and an
unfinished 4-player match, then writes every row of its two tables (``tables``, ``moves``) and
each table's host seat token.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

from fastapi.testclient import TestClient
from tests.test_server import create, play_to_the_end, seated  # the commit's own test helpers

from pasur.server.app import create_app

OUT = Path(__file__).resolve().parent / "server-6b2f8fd.json"


def main() -> None:
    folder = tempfile.mkdtemp()
    path = Path(folder) / "old.db"
    tokens = {}
    with TestClient(create_app(f"sqlite:///{path}", bot_delay=0)) as client:
        for body, stop_after in (
            ({"rules": {"target": 10}, "seats": ["easy"]}, None),
            ({"rules": {"target": 30}, "seats": ["medium"]}, 6),
            ({"rules": {"players": 4, "target": 20}, "seats": ["easy", "easy", "easy"]}, 5),
        ):
            table = create(client, **body)
            tokens[table["id"]] = table["token"]
            with seated(client, table["id"], table["token"]) as socket:
                socket.send_json({"type": "start"})
                play_to_the_end(socket, [], stop_after=stop_after)
    connection = sqlite3.connect(path)
    connection.row_factory = sqlite3.Row
    rows = {
        name: [dict(row) for row in connection.execute(f"SELECT * FROM {name} ORDER BY 1, 2")]
        for name in ("tables", "moves")
    }
    schema = [row[0] for row in connection.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")]
    OUT.write_text(json.dumps({"commit": "6b2f8fd", "schema": schema, "tokens": tokens, **rows}, indent=1) + "\n")
    print(f"{OUT}: {len(rows['tables'])} tables, {len(rows['moves'])} moves")


if __name__ == "__main__":
    main()
