"""Log-ins flooding a server: how much memory they take and how much they slow another table.

    .venv/bin/python benchmarks/login_flood.py --visitors 10 --loops 3 --seconds 20

Starts ``pasur serve`` as it runs by default (a fresh SQLite file) and one victim: a person
playing ``--level`` (hard) from an address of its own, moving as soon as it may (the time of a
bot's reply, its 0.7 s pause included, as in ``advice_flood.py``). Three phases of ``--seconds``:
before; during, ``--visitors`` visitors each from its own network (127.0.N.1) logging in to their
own account with the right password in ``--loops`` loops at once, and as many guessers trying
wrong passwords for the victim's account, each try from a new network (127.1.N.M); after. Prints
the victim's reply times (median, p99) in each phase, the server's largest resident memory while
it ran, and how the log-ins were answered.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from advice_flood import victim  # the same victim, timed the same way
from load import free_port

PASSWORD = "felt and four cards"


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def summary(times: list[float]) -> dict[str, Any]:
    if not times:
        return {"moves": 0}
    ordered = sorted(times)
    return {
        "moves": len(times),
        "median_s": round(statistics.median(ordered), 3),
        "p99_s": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 3),
    }


async def log_in_loop(base: str, address: str, name: str, password: str, answers: collections.Counter[int]) -> None:
    async with httpx.AsyncClient(
        base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address), timeout=30
    ) as web:
        while True:
            try:
                response = await web.post("/api/session", json={"name": name, "password": password})
                answers[response.status_code] += 1
            except httpx.HTTPError:
                answers[0] += 1


async def guesses(base: str, visitor: int, answers: collections.Counter[int]) -> None:
    """Wrong passwords for the victim's account, each from a new network."""
    tries = 0
    while True:
        tries += 1
        address = f"127.1.{visitor}.{tries % 250 + 1}"
        async with httpx.AsyncClient(
            base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address), timeout=30
        ) as web:
            try:
                response = await web.post("/api/session", json={"name": "Victim", "password": f"guess {tries}"})
                answers[response.status_code] += 1
            except httpx.HTTPError:
                answers[0] += 1


async def measure(base: str, server_pid: int, args: argparse.Namespace) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address="127.0.201.1")) as web:
        await web.post("/api/account", json={"name": "Victim", "password": PASSWORD})
    for number in range(args.visitors):
        address = f"127.0.{number + 1}.1"
        async with httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address)) as web:
            await web.post("/api/account", json={"name": f"Flood{number}", "password": PASSWORD})
    shared: list[float] = []
    stop = asyncio.Event()

    async def victims() -> None:
        while not stop.is_set():
            await victim(base, args.level, shared, stop)

    playing = asyncio.create_task(victims())
    memory = [resident_mib(server_pid)]

    async def sample() -> None:
        while True:
            memory.append(resident_mib(server_pid))
            await asyncio.sleep(0.1)

    sampling = asyncio.create_task(sample())
    await asyncio.sleep(1.0)
    shared.clear()
    await asyncio.sleep(args.seconds)
    before, idle_memory = list(shared), max(memory)
    shared.clear()
    answers: collections.Counter[int] = collections.Counter()
    flood = [
        asyncio.create_task(log_in_loop(base, f"127.0.{n + 1}.1", f"Flood{n}", PASSWORD, answers))
        for n in range(args.visitors)
        for _ in range(args.loops)
    ]
    flood += [asyncio.create_task(guesses(base, n, answers)) for n in range(args.visitors)]
    await asyncio.sleep(args.seconds)
    during = list(shared)
    shared.clear()
    for task in flood:
        task.cancel()
    await asyncio.gather(*flood, return_exceptions=True)
    flood_memory = max(memory)
    await asyncio.sleep(args.seconds)
    after = list(shared)
    stop.set()
    for task in (playing, sampling):
        task.cancel()
    await asyncio.gather(playing, sampling, return_exceptions=True)
    found = {"before": summary(before), "during": summary(during), "after": summary(after)}
    if before and during:
        found["p99_during_against_before"] = round(found["during"]["p99_s"] / found["before"]["p99_s"], 2)
    return {
        "level": args.level,
        "visitors": args.visitors,
        "loops_each": args.loops,
        "seconds_each_phase": args.seconds,
        **found,
        "server_mib_before_flood": round(idle_memory),
        "server_mib_most_during": round(flood_memory),
        "log_ins_answered": {str(status): count for status, count in sorted(answers.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", type=int, default=10)
    parser.add_argument("--loops", type=int, default=3, help="log-ins each visitor keeps going at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's length")
    parser.add_argument("--level", default="hard", help="the victim's bot")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "pasur", "serve", "--port", str(port)]
        command += ["--database", f"sqlite:///{Path(folder) / 'flood.db'}", "--sign-ups-per-day", "1000"]
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
    idle, most = figures["server_mib_before_flood"], figures["server_mib_most_during"]
    print(f"server memory: {idle} MiB before, at most {most} MiB")
    print(f"log-ins answered: {figures['log_ins_answered']}")


if __name__ == "__main__":
    main()
