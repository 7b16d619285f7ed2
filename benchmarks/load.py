"""Load on ``pasur serve``: many tables driven over WebSocket at once, some against the server's
bots, as on a real site.

    .venv/bin/python benchmarks/load.py --tables 200 --bot-tables 50 --seconds 60 --think 1.0

Starts the server in its own process (a fresh SQLite file, its default bot settings: searching
bots in worker processes, at most ``--bot-ms`` a move), creates the tables and plays. With
``--postgres URL`` (any database of a PostgreSQL server; scripts/postgres-for-tests.sh starts a
throwaway one) it makes a new database there for the run, serves from ``--workers`` processes,
and drops it afterwards:

    .venv/bin/python benchmarks/load.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/pasur --workers 2

With ``--route`` the processes are separate ``pasur serve`` processes on ports of their own behind
Debian's nginx, which sends each table's sockets (``/ws/TABLE``) to one of them and any other request
to any, as docs/DEPLOY.md sets a site up; its CPU is reported apart (one process is then behind
nginx too, so that the two compare):

    .venv/bin/python benchmarks/load.py --postgres URL --workers 1,2 --route

With ``--capacity`` it finds, for each of ``--workers 1,2``, the most moves a second carried with
the 99th percentile of acknowledgement under ``--p99-ms`` (50): a run at ``--think`` seconds, then
at shorter and shorter think times (each ``--step`` of the last), until two runs in a row are
over the limit; every run has a fresh database and server.

Of the
``--tables``, ``--bot-tables`` seat one person (this script) against a server bot, the levels
taken in turn from ``--levels``; the others seat two people, both this script. A ``--signed-in``
share of the people (half by default) have accounts (made before the run, each browser its own
cookie) and play rated: of the bot tables and of the two-people tables, that share are rated
(the standard rules, a turn timer of a minute), their people signed in; the rest are casual and
their people guests. A rated match that ends while measuring changes its people's ratings in the
result's transaction; at each turn a rated player resigns with the chance ``--resigns`` (1 in 100
by default: random play makes long matches, and few would end otherwise), so that matches end and
ratings change while measuring; the figures say how many rated seats finished. Each person answers
its turn after ``--think`` seconds (jittered) with a random legal move. Acknowledgement time is
from sending a move to receiving its ``ack``: the move stored, applied and every seat sent its new
state. Every connection comes from one address, so the per-address limits are lifted for the run.
Prints the figures, and one JSON line with ``--json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
import websockets
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def seat_player(
    url: str, token: str, think: float, rng: random.Random, latencies: list[float], host: bool, resigns: float
) -> None:
    """Play one seat until cancelled (or its match ends), each acknowledgement time in ``latencies``;
    at each of its turns it resigns instead with the chance ``resigns``."""
    sent: dict[str, float] = {}
    async with websockets.connect(url, max_size=None) as connection:
        await connection.send(json.dumps({"type": "hello", "token": token}))
        if host:
            await connection.send(json.dumps({"type": "start"}))
        pending: asyncio.Task[None] | None = None

        async def move_later(state: dict[str, Any]) -> None:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if rng.random() < resigns:
                await connection.send(json.dumps({"type": "resign"}))
                return
            move_id = f"{rng.getrandbits(64):x}"
            sent[move_id] = time.perf_counter()
            choice = rng.choice(state["legal"])["text"]
            await connection.send(
                json.dumps({"type": "move", "version": state["version"], "move": choice, "id": move_id})
            )

        try:
            async for raw in connection:
                message = orjson.loads(raw)  # the script's time is not the server's: the fastest parser
                if message["type"] == "ack" and message.get("id") in sent:
                    latencies.append(time.perf_counter() - sent.pop(message["id"]))
                elif message["type"] == "state" and message["table"]["you"] in (message.get("waiting") or ()):
                    await connection.send(json.dumps({"type": "continue"}))  # seen the round's end: deal on
                elif message["type"] == "state" and message.get("legal"):
                    if pending is None or pending.done():
                        pending = asyncio.create_task(move_later(message))
                elif message["type"] == "state" and message["table"]["status"] == "finished":
                    break
        finally:
            if pending is not None:
                pending.cancel()


#: Sign-ups at once while setting up (each is an Argon2id hash on the server).
SIGN_UPS_AT_ONCE = 4


async def signed_in(base: str, name: str, limit: asyncio.Semaphore) -> httpx.AsyncClient:
    """A browser signed in to a new account called ``name``: its client keeps the session's cookie."""
    client = httpx.AsyncClient(base_url=base, timeout=60)
    async with limit:
        answer = await client.post("/api/account", json={"name": name, "password": "felt and four cards on the table"})
    answer.raise_for_status()
    return client


async def set_up(
    base: str, tables: int, bot_tables: int, levels: list[str], signed_share: float
) -> tuple[list[tuple[str, str, bool, bool]], int]:
    """Make the tables: each seat's (table, token, whether it hosts, whether it is rated), and how
    many tables are rated."""
    rated_bot_tables = round(bot_tables * signed_share)
    rated_friend_tables = round((tables - bot_tables) * signed_share)
    rated = [index < rated_bot_tables or 0 <= index - bot_tables < rated_friend_tables for index in range(tables)]
    limit = asyncio.Semaphore(SIGN_UPS_AT_ONCE)
    names = [
        f"p{index}{side}" for index in range(tables) if rated[index] for side in ("a" if index < bot_tables else "ab")
    ]
    accounts = dict(zip(names, await asyncio.gather(*(signed_in(base, name, limit) for name in names)), strict=True))
    seats: list[tuple[str, str, bool, bool]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as guest:
        for index in range(tables):
            against = levels[index % len(levels)] if index < bot_tables else "friend"
            host, other = (accounts[f"p{index}a"], accounts.get(f"p{index}b")) if rated[index] else (guest, guest)
            body = {"name": f"a{index}", "seats": [against], **({"rated": True, "timer": 60} if rated[index] else {})}
            created = (await host.post("/api/tables", json=body)).json()
            seats.append((created["id"], created["token"], True, rated[index]))
            if against == "friend":
                assert other is not None
                joined = (await other.post(f"/api/tables/{created['id']}/join", json={"name": f"b{index}"})).json()
                seats.append((created["id"], joined["token"], False, rated[index]))
    for client in accounts.values():
        await client.aclose()
    return seats, sum(rated)


def cpu_seconds(pids: list[int]) -> tuple[float, float]:
    """The CPU seconds (user and system) the servers started as ``pids`` have spent so far: their
    server processes (each, and the workers it forked), and their bot workers (spawned, apart)."""
    tick = os.sysconf("SC_CLK_TCK")
    server = bots = 0.0
    waiting = [pid for pid in pids if pid]
    while waiting:
        one = waiting.pop()
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{one}/cmdline").read_bytes()
            waiting += [int(child) for child in Path(f"/proc/{one}/task/{one}/children").read_text().split()]
        except (OSError, ValueError):
            continue  # it ended meanwhile
        spent = (int(fields[11]) + int(fields[12])) / tick  # utime and stime, the 14th and 15th fields
        if b"spawn_main" in command:
            bots += spent
        else:
            server += spent
    return server, bots


async def drive(
    base: str,
    tables: int,
    bot_tables: int,
    levels: list[str],
    seconds: float,
    think: float,
    signed_share: float,
    resigns: float,
    server_pids: list[int],
    proxy_pid: int | None,
) -> dict[str, Any]:
    seats, rated_tables = await set_up(base, tables, bot_tables, levels, signed_share)
    latencies: list[float] = []
    # This script's own collector passes (up to ~80 ms with 400 sockets) would be counted as the
    # server's acknowledgement time: none run while playing.
    gc.collect()
    gc.freeze()
    gc.disable()
    ws_base = base.replace("http://", "ws://")
    players = [
        asyncio.create_task(
            seat_player(
                f"{ws_base}/ws/{table}", token, think, random.Random(seat), latencies, host, resigns if rated else 0.0
            )
        )
        for seat, (table, token, host, rated) in enumerate(seats)
    ]
    start, cpu_before, proxy_before = time.perf_counter(), cpu_seconds(server_pids), cpu_seconds([proxy_pid or 0])
    await asyncio.sleep(seconds)
    elapsed, cpu_after, proxy_after = (
        time.perf_counter() - start,
        cpu_seconds(server_pids),
        cpu_seconds([proxy_pid or 0]),
    )
    ordered = sorted(latencies)  # the moves acknowledged while measuring
    moves = len(ordered)
    for player in players:
        player.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    gc.enable()
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        board = (await client.get("/api/leaderboard", params={"period": "week", "players": 2})).json()
    rated_seats = sum(leader["games"] for leader in board["leaders"])  # a rated match's people, each once

    def percentile(share: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1) if ordered else float("nan")

    return {
        "tables": tables,
        "bot_tables": bot_tables,
        "rated_tables": rated_tables,
        "rated_seats_finished": rated_seats,
        "levels": levels,
        "connections": len(seats),
        "seconds": round(elapsed, 1),
        "think_seconds": think,
        "moves": moves,
        "moves_per_second": round(moves / elapsed, 1),
        "ack_ms_p50": percentile(0.50),
        "ack_ms_p95": percentile(0.95),
        "ack_ms_p99": percentile(0.99),
        "ack_ms_max": round(1000 * ordered[-1], 1) if ordered else None,
        "ack_ms_mean": round(1000 * statistics.fmean(ordered), 1) if ordered else None,
        # what a move costs the server processes (and, apart, the bot workers), from /proc
        "server_cpu_ms_per_move": round(1000 * (cpu_after[0] - cpu_before[0]) / moves, 3) if moves else None,
        "bot_cpu_ms_per_move": round(1000 * (cpu_after[1] - cpu_before[1]) / moves, 3) if moves else None,
        "proxy_cpu_ms_per_move": round(1000 * (proxy_after[0] - proxy_before[0]) / moves, 3)
        if moves and proxy_pid
        else None,
    }


@contextlib.contextmanager
def run_database(postgres: str | None, folder: Path) -> Iterator[str]:
    """The run's database: a SQLite file in ``folder``, or a new database on the PostgreSQL
    server of ``postgres``, dropped afterwards."""
    if not postgres:
        yield f"sqlite:///{folder / 'load.db'}"
        return
    name = f"pasur_load_{random.getrandbits(32):08x}"
    admin = create_engine(postgres, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(postgres).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


#: nginx in front of ``--route``'s processes, as docs/DEPLOY.md sets it up: a table's sockets go to
#: one process (chosen by the path, /ws/TABLE), everything else to any.
NGINX_CONFIG = """error_log {folder}/nginx-error.log; pid {folder}/nginx.pid;
events {{ worker_connections 4096; }}
http {{ access_log off; {temp}
  upstream tables {{ hash $uri consistent; {servers} }}
  upstream any {{ {servers} }}
  server {{ listen 127.0.0.1:{port};
    location /ws/ {{ proxy_pass http://tables; proxy_http_version 1.1; proxy_read_timeout 1h;
      proxy_set_header Host $host; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "upgrade"; }}
    location / {{ proxy_pass http://any; proxy_set_header Host $host; }} }} }}
"""


@contextlib.contextmanager
def nginx_routing(ports: list[int], folder: Path) -> Iterator[tuple[int, int]]:
    """Debian's nginx (one process) in front of the servers on ``ports``; its port and pid."""
    port = free_port()
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    servers = " ".join(f"server 127.0.0.1:{server};" for server in ports)
    config = folder / "nginx.conf"
    config.write_text(NGINX_CONFIG.format(folder=folder, temp=temp, servers=servers, port=port))
    nginx = subprocess.Popen(["nginx", "-p", str(folder), "-c", str(config), "-g", "daemon off; master_process off;"])
    try:
        yield port, nginx.pid
    finally:
        nginx.terminate()
        nginx.wait(10)


def serve_and_drive(args: argparse.Namespace, workers: int, think: float) -> dict[str, Any]:
    """One run: a fresh database and server of ``workers`` processes, driven for ``args.seconds``
    (with ``args.route``, that many separate servers behind nginx routing each table to one)."""
    with tempfile.TemporaryDirectory() as folder, run_database(args.postgres, Path(folder)) as database:
        apart = args.route
        ports = [free_port() for _ in range(workers if apart else 1)]
        servers = [
            subprocess.Popen(
                [*serve_command(args, database, port), "--workers", "1" if apart else str(workers)],
                stdout=subprocess.DEVNULL,
            )
            for port in ports
        ]
        with contextlib.ExitStack() as stack:
            if apart:
                port, proxy_pid = stack.enter_context(nginx_routing(ports, Path(folder)))
            else:
                port, proxy_pid = ports[0], None
            base = f"http://127.0.0.1:{port}"
            try:
                for _ in range(100):
                    try:
                        if all(httpx.get(f"http://127.0.0.1:{one}/api/tables/none", timeout=1) for one in ports):
                            break
                    except httpx.TransportError:
                        time.sleep(0.1)
                levels = [level.strip() for level in args.levels.split(",") if level.strip()]
                figures = uvloop.run(
                    drive(
                        base,
                        args.tables,
                        args.bot_tables,
                        levels,
                        args.seconds,
                        think,
                        args.signed_in,
                        args.resigns,
                        [server.pid for server in servers],
                        proxy_pid,
                    )
                )
            finally:
                for server in servers:
                    server.terminate()
                for server in servers:
                    server.wait(10)
    figures["workers"] = workers
    figures["routed"] = bool(apart)
    figures["database"] = "postgresql" if args.postgres else "sqlite"
    return figures


def serve_command(args: argparse.Namespace, database: str, port: int) -> list[str]:
    """``pasur serve`` for a run, on ``port``, its per-address limits lifted (every connection
    comes from this script's one address)."""
    return [
        sys.executable,
        "-m",
        "pasur",
        "serve",
        "--port",
        str(port),
        "--database",
        database,
        "--tables-per-minute",
        str(args.tables * 2),
        "--joins-per-minute",
        str(args.tables * 2),
        "--sign-ups-per-day",
        str(args.tables * 2),
        "--connections-per-address",
        str(args.tables * 4),
        "--messages-per-second",
        str(args.tables * 20),
        "--bot-ms",
        str(args.bot_ms),
    ]


def capacity(args: argparse.Namespace, workers: int) -> dict[str, Any]:
    """The most moves a second ``workers`` processes carry with p99 acknowledgement under
    ``args.p99_ms``: runs from ``args.think`` down, each think time ``args.step`` of the one
    before, until ``args.misses`` runs in a row are over the limit."""
    runs: list[dict[str, Any]] = []
    think, misses = args.think, 0
    while misses < args.misses and think >= 0.05:
        figures = serve_and_drive(args, workers, think)
        runs.append(figures)
        print(describe(figures), file=sys.stderr)
        misses = 0 if figures["ack_ms_p99"] < args.p99_ms else misses + 1
        think = round(think * args.step, 3)
    within = [run for run in runs if run["ack_ms_p99"] < args.p99_ms]
    best = max((run["moves_per_second"] for run in within), default=0.0)
    return {"workers": workers, "p99_ms_limit": args.p99_ms, "moves_per_second": best, "runs": runs}


def describe(figures: dict[str, Any]) -> str:
    return (
        f"{figures['workers']} process(es){' behind nginx, routed by table,' if figures['routed'] else ''} "
        f"on {figures['database']}: "
        f"{figures['tables']} tables ({figures['bot_tables']} against bots: {', '.join(figures['levels'])}; "
        f"{figures['rated_tables']} rated, {figures['rated_seats_finished']} rated seats finished), "
        f"{figures['connections']} WebSockets, {figures['seconds']} s, "
        f"{figures['moves']} moves ({figures['moves_per_second']}/s, think {figures['think_seconds']} s)\n"
        f"move acknowledgement: p50 {figures['ack_ms_p50']} ms, p95 {figures['ack_ms_p95']} ms, "
        f"p99 {figures['ack_ms_p99']} ms, max {figures['ack_ms_max']} ms\n"
        f"CPU a move: {figures['server_cpu_ms_per_move']} ms in the server processes, "
        f"{figures['bot_cpu_ms_per_move']} ms in the bot workers"
        + (f", {figures['proxy_cpu_ms_per_move']} ms in nginx" if figures["routed"] else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--bot-tables", type=int, default=50, help="how many of the tables are against a bot")
    parser.add_argument("--levels", default="easy,medium,hard,master", help="the bots' levels, taken in turn")
    parser.add_argument("--bot-ms", type=int, default=250, help="the server's think-time ceiling")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play once every table is set up")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a seat takes to answer its turn")
    parser.add_argument("--signed-in", type=float, default=0.5, help="the share of people signed in, playing rated")
    parser.add_argument("--resigns", type=float, default=0.01, help="the chance a rated player resigns at a turn")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL server to make the run's database on")
    parser.add_argument(
        "--workers",
        default="1",
        help="server processes (more than 1 needs --postgres); a list, as 1,2, runs each in turn (1,2,2,1: averaged)",
    )
    parser.add_argument(
        "--route",
        action="store_true",
        help="run --workers separate servers behind nginx, each table's sockets routed to one (docs/DEPLOY.md)",
    )
    parser.add_argument("--capacity", action="store_true", help="find each --workers count's capacity (see below)")
    parser.add_argument("--p99-ms", type=float, default=50.0, help="--capacity: the acknowledgement limit")
    parser.add_argument("--step", type=float, default=0.87, help="--capacity: each think time this share of the last")
    parser.add_argument("--misses", type=int, default=2, help="--capacity: stop after this many runs over the limit")
    args = parser.parse_args()
    counts = [int(count) for count in str(args.workers).split(",")]
    if not args.capacity:  # one run for each count of processes (1,2: what a second process costs)
        runs = [serve_and_drive(args, count, args.think) for count in counts]
        if args.json:
            print(json.dumps(runs[0] if len(runs) == 1 else {"runs": runs}))
            return
        print("\n".join(describe(figures) for figures in runs))
        fewest, most = min(counts), max(counts)
        if fewest != most:  # repeated counts (1,2,2,1: the host's drift cancels) are averaged
            cpu = {
                count: statistics.mean(run["server_cpu_ms_per_move"] for run in runs if run["workers"] == count)
                for count in (fewest, most)
            }
            if cpu[fewest]:
                print(f"server CPU a move, {most} processes against {fewest}: {cpu[most] / cpu[fewest]:.2f}x")
        return
    found = [capacity(args, count) for count in counts]
    if args.json:
        print(json.dumps({"capacities": found}))
        return
    for result in found:
        print(f"{result['workers']} process(es): {result['moves_per_second']} moves/s at p99 < {args.p99_ms} ms")
    if len(found) > 1 and found[0]["moves_per_second"]:
        print(f"ratio {found[-1]['moves_per_second'] / found[0]['moves_per_second']:.2f}")


if __name__ == "__main__":
    main()
