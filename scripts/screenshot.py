"""Take docs/screenshot.png: the web page mid-round against a bot (needs the dev extra and
Debian's Chromium). Run: .venv/bin/python scripts/screenshot.py"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.test_browser import CHROMIUM, FLAGS, LiveServer, click_a_move, create_table, free_port

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshot.png"

with tempfile.TemporaryDirectory() as folder:
    server = LiveServer(f"sqlite:///{folder}/shot.db", free_port()).start()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 900, "height": 720})
        create_table(page, server.base, ["medium"], target=62)
        page.click("#start")
        page.wait_for_selector("#board:not([hidden])")
        for _ in range(3):
            page.wait_for_selector("#hand .card.playable")
            click_a_move(page)
        page.wait_for_selector("#hand .card.playable")
        page.wait_for_timeout(400)
        page.screenshot(path=str(OUT))
        browser.close()
    server.stop()
print(OUT)
