"""Hints, or reviews, flooding a server from many visitors: how much they slow another table's bot.

    .venv/bin/python benchmarks/advice_flood.py --visitors 10 --tables 10 --seconds 30
    .venv/bin/python benchmarks/advice_flood.py --reviews --visitors 10 --tables 3 --seconds 30

Starts ``pasur serve`` as it runs by default (one bot worker on a 2-core machine, searching bots
and hints within 250 ms, bots pausing 0.7 s before they move; a fresh SQLite file) and one victim:
a person playing ``--level`` (master) from an address of its own, moving as soon as it may. The
time a bot move takes is from the person's move sent to the state in which the bot has replied,
pause included, as a person sees it. Three phases of ``--seconds`` each: before the flood; during
it, ``--visitors`` visitors (each from its own network, 127.0.N.1) with ``--tables`` tables each
against a quick bot, asking a hint at each of their turns and then moving; after it, once every
flooding socket is closed. With ``--reviews`` each visitor first plays ``--tables`` one-round
matches against a quick bot to their end, and during the flood asks for the review of each of
them, and of every other visitor's, as fast as the answers come (as issue 46's audit did: one
review judged again and again). Prints the bot's move times in each phase, their ratio to before, and
how long after the flood the bot worker was idle again (its CPU from /proc). ``--json`` prints one
JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from load import cpu_seconds, free_port  # the same /proc reading


async def victim(base: str, level: str, times: list[float], stop: asyncio.Event) -> None:
    """One person against ``level``, moving at once; each bot reply's time in ``times``."""
    async with httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address="127.0.200.1")) as web:
        table = (await web.post("/api/tables", json={"name": "Victim", "seats": [level]})).json()
    url = base.replace("http", "ws") + f"/ws/{table['id']}"
    async with websockets.connect(url, local_addr=("127.0.200.1", 0), max_size=None) as socket:
        await socket.send(json.dumps({"type": "hello", "token": table["token"]}))
        await socket.send(json.dumps({"type": "start"}))
        sent: float | None = None
        while not stop.is_set():
            message = json.loads(await socket.recv())
            if message["type"] != "state":
                continue
            if message.get("waiting"):
                await socket.send(json.dumps({"type": "continue"}))
            elif message.get("legal"):
                if sent is not None:
                    times.append(time.monotonic() - sent)
                sent = time.monotonic()
                move = random.choice(message["legal"])["text"]
                await socket.send(json.dumps({"type": "move", "version": message["version"], "move": move}))
            elif message["table"]["status"] == "finished":
                return


async def flooder(base: str, address: str, tables: int, hints: list[int]) -> None:
    """A visitor from ``address`` at ``tables`` tables against a quick bot, asking a hint at each of
    its turns, then moving; until cancelled."""
    async with httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address)) as web:
        made = [
            (await web.post("/api/tables", json={"name": "Flood", "seats": ["easy"]})).json() for _ in range(tables)
        ]

    async def play(table: dict[str, Any]) -> None:
        url = base.replace("http", "ws") + f"/ws/{table['id']}"
        async with websockets.connect(url, local_addr=(address, 0), max_size=None) as socket:
            await socket.send(json.dumps({"type": "hello", "token": table["token"]}))
            await socket.send(json.dumps({"type": "start"}))
            state: dict[str, Any] | None = None
            async for raw in socket:
                message = json.loads(raw)
                if message["type"] == "state" and message.get("waiting"):
                    await socket.send(json.dumps({"type": "continue"}))
                elif message["type"] == "state" and message.get("legal"):
                    state = message
                    await socket.send(json.dumps({"type": "hint", "lang": "en"}))
                elif message["type"] in ("hint", "refused") and state is not None:
                    hints[0] += message["type"] == "hint"
                    move = random.choice(state["legal"])["text"]
                    await socket.send(json.dumps({"type": "move", "version": state["version"], "move": move}))
                    state = None

    await asyncio.gather(*(play(table) for table in made if "id" in table))


async def finished_tables(base: str, address: str, tables: int) -> list[str]:
    """``tables`` one-round matches of a visitor from ``address`` against a quick bot, played to
    their end; their ids."""
    async with httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address)) as web:
        made = [
            (await web.post("/api/tables", json={"name": "Flood", "seats": ["easy"], "rules": {"target": 1}})).json()
            for _ in range(tables)
        ]

    async def play(table: dict[str, Any]) -> None:
        url = base.replace("http", "ws") + f"/ws/{table['id']}"
        async with websockets.connect(url, local_addr=(address, 0), max_size=None) as socket:
            await socket.send(json.dumps({"type": "hello", "token": table["token"]}))
            await socket.send(json.dumps({"type": "start"}))
            async for raw in socket:
                message = json.loads(raw)
                if message["type"] != "state":
                    continue
                if message["table"]["status"] == "finished":
                    return
                if message.get("waiting"):  # a tie at the top plays another round
                    await socket.send(json.dumps({"type": "continue"}))
                elif message.get("legal"):
                    move = random.choice(message["legal"])["text"]
                    await socket.send(json.dumps({"type": "move", "version": message["version"], "move": move}))

    await asyncio.gather(*(play(table) for table in made))
    return [table["id"] for table in made]


async def reviewer(base: str, address: str, tables: list[str], asked: list[int]) -> None:
    """A visitor from ``address`` asking for the reviews of ``tables`` as fast as they come, until cancelled."""
    async with httpx.AsyncClient(
        base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address), timeout=30
    ) as web:
        while True:
            for table in tables:
                await web.get(f"/api/tables/{table}/analysis")
                asked[0] += 1


def summary(times: list[float], before: float | None = None) -> dict[str, Any]:
    if not times:
        return {"moves": 0}
    median = statistics.median(times)
    found = {
        "moves": len(times),
        "median_s": round(median, 3),
        "mean_s": round(statistics.fmean(times), 3),
        "max_s": round(max(times), 3),
    }
    if before:
        found["median_against_before"] = round(median / before, 2)
    return found


async def measure(base: str, server_pid: int, args: argparse.Namespace) -> dict[str, Any]:
    phases: dict[str, list[float]] = {"before": [], "during": [], "after": []}
    stop = asyncio.Event()
    times: list[float] = phases["before"]
    shared: list[float] = []

    async def victims() -> None:
        while not stop.is_set():  # a new match when one ends
            await victim(base, args.level, shared, stop)

    reviews: list[str] = []
    if args.reviews:  # the finished matches to review, played before anything is timed
        made = await asyncio.gather(
            *(finished_tables(base, f"127.0.{n + 1}.1", args.tables) for n in range(args.visitors))
        )
        reviews = [table for tables in made for table in tables]
    playing = asyncio.create_task(victims())
    await asyncio.sleep(1.0)  # the victim's table is made and under way
    worker_before = cpu_seconds([server_pid])[1]
    await asyncio.sleep(args.seconds)
    usual = (cpu_seconds([server_pid])[1] - worker_before) / args.seconds  # the victim's bot alone
    times.extend(shared)
    shared.clear()
    hints = [0]
    if args.reviews:
        flood = [asyncio.create_task(reviewer(base, f"127.0.{n + 1}.1", reviews, hints)) for n in range(args.visitors)]
    else:
        flood = [
            asyncio.create_task(flooder(base, f"127.0.{n + 1}.1", args.tables, hints)) for n in range(args.visitors)
        ]
    await asyncio.sleep(args.seconds)
    phases["during"].extend(shared)
    shared.clear()
    for task in flood:
        task.cancel()
    await asyncio.gather(*flood, return_exceptions=True)
    ended = time.monotonic()
    idle_after = None
    samples = [(ended, cpu_seconds([server_pid])[1])]
    while time.monotonic() - ended < args.seconds:
        await asyncio.sleep(0.25)
        samples.append((time.monotonic(), cpu_seconds([server_pid])[1]))
        # idle again: over the last second the bot workers spent no more than the victim's bot
        # usually does (and a tenth of a core for noise)
        then, spent = next(sample for sample in samples if sample[0] >= samples[-1][0] - 1.0)
        rate = (samples[-1][1] - spent) / max(1e-9, samples[-1][0] - then)
        if idle_after is None and samples[-1][0] - then >= 0.75 and rate <= usual + 0.1:
            idle_after = round(then - ended, 2)
    phases["after"].extend(shared)
    stop.set()
    playing.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await playing
    before = statistics.median(phases["before"]) if phases["before"] else None
    return {
        "level": args.level,
        "visitors": args.visitors,
        "tables_each": args.tables,
        "seconds_each_phase": args.seconds,
        "flood": "reviews" if args.reviews else "hints",
        ("review_requests_answered_during" if args.reviews else "hints_answered_during"): hints[0],
        "before": summary(phases["before"]),
        "during": summary(phases["during"], before),
        "after": summary(phases["after"], before),
        "workers_idle_after_s": idle_after,
        "worker_cpu_usual": round(usual, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", type=int, default=10)
    parser.add_argument("--tables", type=int, default=10, help="tables of each visitor")
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase's length")
    parser.add_argument("--level", default="master", help="the victim's bot")
    parser.add_argument("--reviews", action="store_true", help="flood with reviews of finished matches, not hints")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "pasur", "serve", "--port", str(port)]
        command += ["--database", f"sqlite:///{Path(folder) / 'flood.db'}", "--messages-per-second", "1000"]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    httpx.get(base + "/api/help", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            figures = asyncio.run(measure(base, server.pid, args))
        finally:
            server.terminate()
            server.wait(10)
    figures["cores"] = os.cpu_count()
    if args.json:
        print(json.dumps(figures))
        return
    for phase in ("before", "during", "after"):
        print(f"{phase:>7}: {figures[phase]}")
    asked = "review requests" if args.reviews else "hints"
    print(f"{asked} answered during the flood: {figures[asked.replace(' ', '_') + '_answered_during']}")
    print(f"bot workers idle {figures['workers_idle_after_s']} s after the flood ended")


if __name__ == "__main__":
    main()
