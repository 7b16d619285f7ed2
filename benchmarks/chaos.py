"""Chaos: two ``pasur serve`` processes over one PostgreSQL database, people and bots playing, and
one process killed with SIGKILL every ``--every`` seconds (and started again at once), alternately.

    .venv/bin/python benchmarks/chaos.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/pasur \\
        --minutes 3 --every 20

Each of ``--tables`` tables seats one person (this script) against an ``easy`` bot; the person
answers each turn after ``--think`` seconds through either process, and when its connection is
lost connects again through either. The run ends when every match is over (or ``--minutes`` and a
minute's grace have passed). Then the database is read: every table's moves must run 1, 2, … with
no gap, every move the person had acknowledged must be stored at its version as sent, every
table must be finished with its result stored once. Prints one JSON object (the figures and what
was wrong, if anything) and exits 1 when anything was.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).parent))
from load import free_port, run_database  # the same throwaway database


class Server:
    """One ``pasur serve`` process on a port of its own, which a kill does not change."""

    def __init__(self, database: str, bot_pause: float) -> None:
        self.database = database
        self.bot_pause = bot_pause
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "pasur", "serve", "--database", self.database, "--port", str(self.port)]
        command += ["--bot-pause", str(self.bot_pause), "--tables-per-minute", "1000", "--messages-per-second", "1000"]
        command += ["--joins-per-minute", "1000", "--connections-per-address", "1000"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/api/help", timeout=1)
                return
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise RuntimeError("a server did not start") from None
                time.sleep(0.1)

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


async def person(servers: list[Server], table: dict[str, Any], think: float, acked: dict[int, str]) -> int:
    """Play one seat until its match is over, through whichever process answers; each move
    acknowledged goes in ``acked`` (version → move). How many times it connected."""
    connections, sent = 0, dict[str, str]()
    while True:
        server = random.choice(servers)
        try:
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{table['id']}", open_timeout=3) as socket:
                connections += 1
                await socket.send(json.dumps({"type": "hello", "token": table["token"]}))
                async for raw in socket:
                    message = json.loads(raw)
                    if message["type"] == "ack" and message.get("id") in sent:
                        acked[message["version"]] = sent[message["id"]]
                    if message["type"] != "state":
                        continue
                    if message["table"]["status"] == "open":
                        await socket.send(json.dumps({"type": "start"}))
                    elif message["table"]["status"] == "finished":
                        return connections
                    if message["table"]["you"] in (message.get("waiting") or ()):
                        await socket.send(json.dumps({"type": "continue"}))
                    elif message.get("legal"):
                        await asyncio.sleep(think * random.uniform(0.5, 1.5))
                        move_id = f"m{message['version']}-{random.getrandbits(32)}"
                        sent[move_id] = message["legal"][0]["text"]
                        move = {"type": "move", "version": message["version"], "move": sent[move_id], "id": move_id}
                        await socket.send(json.dumps(move))
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError):
            await asyncio.sleep(0.3)  # the process died under it: connect again, through either


async def killer(servers: list[Server], every: float, kills: list[float]) -> None:
    """Kill one process, alternately, every ``every`` seconds, and start it again at once."""
    index = 0
    while True:
        await asyncio.sleep(every)
        server = servers[index % len(servers)]
        index += 1
        await asyncio.to_thread(server.kill)
        kills.append(time.monotonic())
        await asyncio.to_thread(server.start)


async def play(servers: list[Server], tables: int, target: int, think: float, every: float, minutes: float) -> Any:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{servers[0].port}") as client:
        made = []
        for _ in range(tables):
            answer = await client.post(
                "/api/tables", json={"name": "Ava", "seats": ["easy"], "rules": {"target": target}}
            )
            made.append(answer.json())
    acked: dict[str, dict[int, str]] = {table["id"]: {} for table in made}
    kills: list[float] = []
    chaos = asyncio.create_task(killer(servers, every, kills))
    people = [asyncio.create_task(person(servers, table, think, acked[table["id"]])) for table in made]
    done, pending = await asyncio.wait(people, timeout=minutes * 60 + 60)
    chaos.cancel()
    for task in pending:
        task.cancel()
    connections = sum(task.result() for task in done)
    return made, acked, len(kills), connections, len(pending)


def check(database: str, made: list[dict[str, Any]], acked: dict[str, dict[int, str]]) -> dict[str, Any]:
    """What the database holds against what the person was told."""
    engine = create_engine(database)
    wrong: list[str] = []
    moves_stored = 0
    with engine.connect() as connection:
        for table in made:
            stored: dict[int, str] = dict(
                connection.execute(
                    text("SELECT version, move FROM moves WHERE table_id = :id ORDER BY version"), {"id": table["id"]}
                ).all()
            )
            moves_stored += len(stored)
            if sorted(stored) != list(range(1, len(stored) + 1)):
                wrong.append(f"table {table['id']}: its moves have gaps")
            lost = {version: move for version, move in acked[table["id"]].items() if stored.get(version) != move}
            if lost:
                wrong.append(f"table {table['id']}: acknowledged moves not stored as sent: {lost}")
            status = connection.execute(text("SELECT status FROM tables WHERE id = :id"), {"id": table["id"]}).scalar()
            results = connection.execute(
                text("SELECT COUNT(*) FROM results WHERE table_id = :id"), {"id": table["id"]}
            ).scalar()
            if status != "finished" or results != 1:
                wrong.append(f"table {table['id']}: {status}, {results} results")
    engine.dispose()
    acknowledged = sum(len(moves) for moves in acked.values())
    return {"moves_stored": moves_stored, "moves_acknowledged": acknowledged, "wrong": wrong}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", required=True, metavar="URL", help="a PostgreSQL server for the run's database")
    parser.add_argument("--minutes", type=float, default=3.0, help="how long the kills go on, at most")
    parser.add_argument("--every", type=float, default=20.0, help="seconds between kills")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--target", type=int, default=10, help="the matches' target")
    parser.add_argument("--think", type=float, default=0.3, help="mean seconds the person takes a turn")
    parser.add_argument("--bot-pause", type=float, default=0.3)
    args = parser.parse_args()
    with run_database(args.postgres, Path(".")) as database:
        servers = [Server(database, args.bot_pause) for _ in range(2)]
        try:
            for server in servers:
                server.start()
            started = time.monotonic()
            made, acked, kills, connections, unfinished = asyncio.run(
                play(servers, args.tables, args.target, args.think, args.every, args.minutes)
            )
            seconds = round(time.monotonic() - started, 1)
        finally:
            for server in servers:
                server.stop()
        figures = check(database, made, acked)
    figures.update(tables=len(made), unfinished=unfinished, kills=kills, connections=connections, seconds=seconds)
    print(json.dumps(figures))
    sys.exit(1 if figures["wrong"] or unfinished else 0)


if __name__ == "__main__":
    main()
