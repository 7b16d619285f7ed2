"""Offline play's budgets, in Debian's Chromium with its CPU slowed 4× (a mid-range phone, as
Chrome's own tools emulate one): what the service worker keeps for offline play (compressed), how
long the installed page takes with the network off from opening /offline to a hand the person
can play, and how long each offline bot thinks a move (the engine on the page's thread here, so
that the time is the bot's alone; the table runs it in a worker).

    .venv/bin/python benchmarks/offline_budget.py [--throttle 4] [--matches 3] [--json OUT]

The budgets (issue 49): the offline bundle at most 5 MB compressed; the first offline game ready
within 2 s; the strongest offline bot's move within 1 s (p95), ``easy`` within 200 ms.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from playwright.sync_api import sync_playwright

from pasur.server.app import create_app

ROOT = Path(__file__).resolve().parent.parent
SW = ROOT / "src" / "pasur" / "server" / "static" / "sw.js"
CHROMIUM = "/usr/bin/chromium"

#: Plays random matches in the page with the browser's engine, timing every bot decision.
TIME_THE_BOTS = """async ({matches, about}) => {
  const { Engine } = await import("/static/js/engine.js");
  const engine = await Engine.load(await fetch("/static/engine.wasm"));
  const times = {};
  let state = 0x1234n;
  const nextSeed = () => (state = BigInt.asUintN(64, state * 6364136223846793005n + 1442695040888963407n));
  for (let match = 0; match < matches; match++) {
    const players = [2, 4, 3][match % 3];
    engine.newMatch({ ...about.defaults, players }, 1000 + match);
    engine.deal();
    for (let seat = 0; seat < players; seat++) engine.seedBot(seat, match * 10 + seat);
    while (!engine.state().over) {
      for (const [level, bot] of Object.entries(about.levels)) {
        const started = performance.now();
        engine.botMove(bot, nextSeed);
        ((times[level] ||= {})[players] ||= []).push(performance.now() - started);
      }
      const codes = engine.legal();
      const code = codes[Math.floor(Math.random() * codes.length)];
      engine.play(Number(code & 63n), [...Array(52).keys()].filter((card) => (code >> 6n) >> BigInt(card) & 1n));
    }
  }
  return times;
}"""


def kept_for_offline(base: str) -> dict[str, int]:
    """Each file the service worker keeps, and its size gzip-compressed (as a server sends it)."""
    source = SW.read_text(encoding="utf-8")
    modules = re.findall(r'"([\w-]+)"', source[source.index("const MODULES") : source.index("const FILES")])
    files = ["/", *(f"/static/js/{name}.js" for name in modules)]
    files += re.findall(r'"(/(?:static|manifest)[^"]*)"', source[source.index("const FILES") :])
    files += ["/api/puzzles/offline", "/api/offline", "/api/help"]
    return {path: len(gzip.compress(httpx.get(base + path).content, 9)) for path in dict.fromkeys(files)}


def serve(database: str) -> tuple[uvicorn.Server, str]:
    """The site in a thread on a free port, and its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(database), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--throttle", type=float, default=4.0)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    folder = tempfile.mkdtemp()
    server, base = serve(f"sqlite:///{folder}/budget.db")
    try:
        sizes = kept_for_offline(base)
        about = httpx.get(base + "/api/offline").json()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844}).new_page()
            page.goto(base + "/")
            page.wait_for_selector("#offline-form:not([hidden])")
            page.evaluate("navigator.serviceWorker.ready")
            page.reload()
            page.wait_for_function("navigator.serviceWorker.controller !== null")
            page.context.set_offline(True)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": options.throttle})
            ready = []
            for _ in range(3):  # a new match each time: from opening /offline to a hand to play
                page.goto(base + "/")
                page.wait_for_selector("#offline-form:not([hidden])")
                page.select_option("#offline-form select[name=level]", "easy")
                started = time.perf_counter()
                page.click("#offline-form button[type=submit]")
                page.wait_for_function("window.pasur?.page.state?.legal?.length > 0", timeout=60_000)
                ready.append(time.perf_counter() - started)
            times = page.evaluate(TIME_THE_BOTS, {"matches": options.matches, "about": about})
            browser.close()
    finally:
        server.should_exit = True
    report: dict[str, Any] = {
        "throttle": options.throttle,
        "bundle_bytes_gzip": sum(sizes.values()),
        "largest_files": dict(sorted(sizes.items(), key=lambda item: -item[1])[:5]),
        "first_game_ready_s": [round(value, 2) for value in ready],
        "bots_ms": {
            level: {
                f"{players}p": {
                    "moves": len(values),
                    "p50": round(percentile(values, 0.5), 1),
                    "p95": round(percentile(values, 0.95), 1),
                }
                for players, values in sorted(by_players.items())
            }
            for level, by_players in times.items()
        },
    }
    print(json.dumps(report, indent=2))
    if options.json:
        options.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
