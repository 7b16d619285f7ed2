"""Screenshots of the web table for the docs: the first-game lesson (its first tip, then the Sur
it suggests), the Rules dialog's pictures of captures and today's puzzle, before and after a try; matches against bots
played by clicking, at the start, at a capture choice, at a round's end, at the match's end with
its review and in the replay; then, signed in, two rated matches (one played out against the
beginner, one resigned) and the player's page and the leaderboard; on a desktop in English, a
phone in Persian, and a phone in English in the dark theme (the system's). Writes
docs/screens/*.png. Then the layouts: the start page and a 4-player table at 360x640, 390x844,
768x1024 and 1440x900, in both languages and both themes (docs/screens/layout-*.jpg).

    .venv/bin/python scripts/screens.py [--layouts]   (--layouts: those alone; needs the web extra,
                                                       Playwright and /usr/bin/chromium)
"""

from __future__ import annotations

import itertools
import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from pasur.server.app import create_app
from pasur.server.results import MOVES_TO_COUNT
from pasur.server.settings import ServerSettings

OUT = Path(__file__).resolve().parent.parent / "docs" / "screens"
CHROMIUM = os.environ.get("PASUR_CHROMIUM", "/usr/bin/chromium")
#: Each view: its window, its language and the system's colour scheme.
VIEWS = {
    "desktop-en": ({"width": 1440, "height": 900}, "en", "light"),
    "phone-fa": ({"width": 390, "height": 844}, "fa", "light"),
    "phone-en-dark": ({"width": 390, "height": 844}, "en", "dark"),
}
READY = "pasur.page.state?.legal?.length > 0 && !pasur.page.showing && !pasur.page.queue.length"


def serve(database: str) -> tuple[uvicorn.Server, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(database, ServerSettings(bot_delay=0.05))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def play_first(page: Page) -> None:
    """Play the first playable card (and its first capture); wait for the answer."""
    version = page.evaluate("pasur.page.version")
    page.locator("#hand .card.playable").first.click()
    if page.locator("#choices .choice").count():
        page.locator("#choices .choice").first.click()
    page.wait_for_function(f"pasur.page.version > {version}")


def new_table(page: Page, base: str, lang: str, target: int) -> None:
    """A 3-player table against two bots, started: this page's player to play first."""
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('pasur-lang', '{lang}')")
    page.goto(base + "/")
    page.fill("#create-form input[name=name]", "Ava" if lang == "en" else "آوا")
    page.select_option("#create-form select[name=players]", "3")
    page.select_option("select[name=seat1]", "master")
    page.select_option("select[name=seat2]", "medium")
    page.fill("input[name=target]", str(target))
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.click("#start")
    page.wait_for_function(READY)


def play_until(page: Page, shown: str, at_a_choice: Callable[[], None] | None = None) -> None:
    """Play the first playable card until ``shown`` is visible; at the first move that can take in
    more than one way, call ``at_a_choice`` with the choices open. A round's end on the way (a
    match tied at the target plays on) is continued."""
    deadline = time.monotonic() + 300
    while not page.is_visible(shown):
        if time.monotonic() > deadline:
            raise SystemExit(f"{shown} did not show within 5 minutes")
        if page.is_visible("#round-continue"):
            page.click("#round-continue")
            continue
        if not page.evaluate(READY):
            time.sleep(0.05)
            continue
        several = page.evaluate(
            "(() => { const legal = pasur.page.state.legal; const counts = {};"
            " legal.forEach((move) => { counts[move.card] = (counts[move.card] || 0) + 1; });"
            " return Object.keys(counts).find((card) => counts[card] > 1) || null; })()"
        )
        if several and at_a_choice:
            page.click(f"#hand .card[data-card='{several}']")
            page.wait_for_selector("#choices .choice")
            page.hover("#choices .choice >> nth=0")
            at_a_choice()
            at_a_choice = None
            page.locator("#choices .choice").first.click()
            continue
        play_first(page)


def rated_matches(page: Page, base: str, player: str) -> None:
    """Sign up as ``player``; play a rated match against the beginner to its end, then resign one
    against the grandmaster after the first moves."""
    page.goto(base + "/")
    page.click("#account-link")
    page.fill("#sign-in-form input[name=name]", player)
    page.fill("#sign-in-form input[name=password]", "felt and four cards")
    page.click("#sign-up")
    page.wait_for_function("!document.querySelector('#create-form input[name=rated]').disabled")
    for level, resign in (("beginner", False), ("grandmaster", True)):
        page.goto(base + "/")
        page.wait_for_function("!document.querySelector('#create-form input[name=rated]').disabled")
        page.check("#create-form input[name=rated]")
        page.select_option("select[name=seat1]", level)
        page.click("#create")
        page.wait_for_url("**/t/**")
        page.click("#start")
        page.wait_for_function(READY)
        if resign:  # after each seat's first moves: a match resigned sooner is aborted, never rated
            for _ in range(MOVES_TO_COUNT):
                version = page.evaluate("pasur.page.version")
                play_first(page)
                page.wait_for_function(f"{READY} && pasur.page.version > {version}")
            if page.is_visible("#table-menu"):  # a phone keeps Resign behind the table's menu
                page.click("#table-menu")
            page.click("#resign")
            page.click("#resign-yes")
        else:
            play_until(page, "#finished")
        page.wait_for_selector("#rating-change:not([hidden])")


def seat_away(page: Page, base: str, host: str) -> None:
    """A table where a friend took a seat and went away, started: the host may let a bot play."""
    made = page.evaluate(
        """async (host) => (await fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},
            body: JSON.stringify({name: host, seats: ['friend']})})).json()""",
        host,
    )
    page.evaluate(
        """async (id) => fetch(`/api/tables/${id}/join`, {method: 'POST', headers: {'content-type': 'application/json'},
            body: JSON.stringify({name: 'Bahram'})})""",
        made["id"],
    )
    page.evaluate("([id, token]) => localStorage.setItem(`pasur-token-${id}`, token)", [made["id"], made["token"]])
    page.goto(f"{base}/t/{made['id']}")
    page.click("#start")
    page.wait_for_selector("#board:not([hidden]) .seat > .free-seat")
    page.wait_for_timeout(500)


def learning(page: Page, base: str, lang: str, shot: Callable[[str], None]) -> None:
    """The lesson's first tip and the one after the bot's reply; the Rules' pictures; a puzzle."""
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('pasur-lang', '{lang}')")
    page.goto(base + "/")
    page.click("#learn")
    page.wait_for_url("**/t/**")
    page.wait_for_function(READY)
    shot("lesson")
    version = page.evaluate("pasur.page.version")
    page.click("#hand .card.suggested")
    page.wait_for_function(f"{READY} && pasur.page.version > {version}")
    shot("lesson-sur")
    page.click("#rules-link")
    page.wait_for_selector("#rules-examples figure")
    page.locator("#rules-examples").scroll_into_view_if_needed()
    shot("rules")
    page.goto(base + "/puzzles")
    page.wait_for_selector("#puzzle-hand .card")
    shot("puzzle")
    page.click("#puzzle-hand .card")  # a try: the verdict, the values and why
    if page.locator("#puzzle-choices .choice").count():
        page.click("#puzzle-choices .choice")
    page.wait_for_selector("#puzzle-verdict:not([hidden]) .puzzle-values")
    page.locator("#puzzle-verdict").scroll_into_view_if_needed()
    shot("puzzle-tried")
    if page.is_visible("#puzzle-line"):  # a puzzle of the last deal: its best line on the felt
        page.click("#puzzle-line-step")
        page.locator("#puzzle-line").scroll_into_view_if_needed()
        shot("puzzle-line")


def on_this_device(page: Page, base: str, shot: Callable[[str], None]) -> None:
    """The start page's offer to play on this device, a match there against the grandmaster, and
    pass and play's handover."""
    page.goto(f"{base}/")
    page.wait_for_selector("#offline-form:not([hidden])")
    page.locator("#offline-form").scroll_into_view_if_needed()
    shot("offline-lobby")
    page.click("#offline-form button[type=submit]")
    page.wait_for_selector("#hand .card.playable")
    play_first(page)
    page.wait_for_selector("#hand .card.playable")
    shot("offline-table")
    page.goto(f"{base}/")
    page.wait_for_selector("#offline-form:not([hidden])")
    page.select_option("#offline-form select[name=level]", "friends")
    page.click("#offline-form button[type=submit]")
    page.wait_for_selector("#hand .handover")
    page.click("#hand .handover")
    play_first(page)
    page.wait_for_selector("#hand .handover")
    shot("offline-handover")


#: The sizes a player brings: a small and a common phone, a tablet, a desktop.
LAYOUT_SIZES = [(360, 640), (390, 844), (768, 1024), (1440, 900)]


def layouts(browser: Browser, base: str) -> None:
    """The start page and a 4-player table on this device (three medium bots) at each size, in
    both languages and both themes."""
    for (width, height), lang, scheme in itertools.product(LAYOUT_SIZES, ("en", "fa"), ("light", "dark")):
        context = browser.new_context(
            bypass_csp=True,
            viewport={"width": width, "height": height},
            reduced_motion="reduce",
            device_scale_factor=1,
            color_scheme=scheme,
        )
        page = context.new_page()
        name = f"layout-{width}x{height}-{lang}-{scheme}"
        page.goto(f"{base}/")
        page.evaluate(f"localStorage.setItem('pasur-lang', '{lang}')")
        page.goto(f"{base}/")
        page.wait_for_selector("#offline-form:not([hidden])")
        page.screenshot(path=str(OUT / f"{name}-start.jpg"), quality=80)
        page.fill("#create-form input[name=name]", "Ava" if lang == "en" else "آوا")
        page.select_option("#offline-form select[name=players]", "4")
        page.select_option("#offline-form select[name=level]", "medium")
        page.click("#offline-form button[type=submit]")
        page.wait_for_selector("#hand .card.playable")
        play_first(page)
        page.wait_for_selector("#hand .card.playable")
        page.screenshot(path=str(OUT / f"{name}-table.jpg"), quality=80)
        context.close()


def shoot(page: Page, base: str, name: str, lang: str) -> None:
    shot = lambda what: page.screenshot(path=str(OUT / f"{name}-{what}.png"))  # noqa: E731
    learning(page, base, lang, shot)
    on_this_device(page, base, shot)
    new_table(page, base, lang, target=200)  # a long match: its first round ends with a breakdown
    shot("start")
    play_until(page, "#round-dialog", lambda: shot("capture-choice"))
    page.wait_for_timeout(300)
    shot("round-end")
    new_table(page, base, lang, target=1)  # a one-round match: it ends with the round
    play_until(page, "#finished")
    shot("match-end")
    page.wait_for_selector("#review-body .review-player", timeout=120_000)
    page.locator("#review").scroll_into_view_if_needed()
    shot("review")
    page.click("#open-replay")
    page.wait_for_selector("#replay:not([hidden])")
    for _ in range(6):
        page.click("#replay-next")
    page.wait_for_timeout(300)
    shot("replay")
    player = {"desktop-en": "Ava", "phone-fa": "آرش", "phone-en-dark": "Bahar"}[name]
    seat_away(page, base, player)
    shot("free-seat")
    rated_matches(page, base, player)
    shot("rated-end")
    page.goto(f"{base}/p/{player}")
    page.wait_for_selector("#profile-graph path")
    shot("profile")
    page.goto(f"{base}/leaders")
    page.wait_for_selector("#leaders-table td a")
    shot("leaders")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server, base = serve(f"sqlite:///{folder}/screens.db")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            layouts(browser, base)
            for name, (viewport, lang, scheme) in ({} if "--layouts" in sys.argv else VIEWS).items():
                context = browser.new_context(
                    bypass_csp=True,
                    viewport=viewport,
                    reduced_motion="reduce",
                    device_scale_factor=1,
                    color_scheme=scheme,
                )
                shoot(context.new_page(), base, name, lang)
                context.close()
            browser.close()
        server.should_exit = True
    print(f"wrote {len(list(OUT.glob('*.png')) + list(OUT.glob('*.jpg')))} screenshots to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
