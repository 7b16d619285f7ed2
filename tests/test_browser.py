"""End to end in a real Chromium (Playwright driving Debian's /usr/bin/chromium): create a table
and play by clicking, reload mid-round, two browsers against each other, and a server restart
mid-round. Every WebSocket frame a page receives is recorded and checked against the finished
record: no frame names a card its seat could not see at that moment."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from pasur.coach.analysis import ALLOWED  # noqa: E402
from pasur.core import from_record  # noqa: E402
from pasur.server.app import create_app  # noqa: E402
from pasur.server.settings import ServerSettings  # noqa: E402

from .helpers import cards_named, hidden_from  # noqa: E402

CHROMIUM = os.environ.get("PASUR_CHROMIUM", "/usr/bin/chromium")
if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveServer:
    """``pasur serve`` in a thread, on a port and database that outlive a restart."""

    def __init__(self, database: str, port: int) -> None:
        self.database = database
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> LiveServer:
        config = uvicorn.Config(
            create_app(self.database, ServerSettings(bot_delay=0.05, analysis_ms=300)),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        assert self.thread is not None
        self.thread.join(15)


@pytest.fixture
def server(tmp_path) -> Iterator[LiveServer]:
    live = LiveServer(f"sqlite:///{tmp_path / 'pasur.db'}", free_port()).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield launched
        launched.close()


#: The address of every WebSocket the pages open.
SOCKET_URLS: list[str] = []

#: What each page's sockets sent (">") and received ("<") lately: said when a move brings nothing.
SOCKET_TALK: dict[Any, list[str]] = {}

#: The script errors the pages met: a test fails on any (a module that does not load, a TypeError).
PAGE_ERRORS: list[Any] = []


#: The browser contexts a test opened: closed when it ends, so that no page of one test (a lobby
#: that polls, a table whose timer redraws it) goes on running, and costing, during the next ones.
CONTEXTS: list[Any] = []


@pytest.fixture(autouse=True)
def no_script_errors() -> Iterator[None]:
    PAGE_ERRORS.clear()
    yield
    errors = [str(error) for error in PAGE_ERRORS]
    for context in CONTEXTS:
        with contextlib.suppress(Exception):  # a context the test closed itself, or a browser gone
            context.close()
    CONTEXTS.clear()
    SOCKET_TALK.clear()
    assert not errors, errors


def recorded_page(
    browser: Any, motion: str = "reduce", keep_csp: bool = False, **context: Any
) -> tuple[Any, list[dict[str, Any]]]:
    """A page in a fresh context, and the list every WebSocket frame it receives goes to. Plays
    are shown without motion unless ``motion`` is "no-preference" (as most people have it)."""
    # Playwright's waits for a condition evaluate strings, which the page's own policy forbids:
    # the page's policy is kept only where ``keep_csp`` (test_the_page_obeys_its_own_content_policy)
    opened = browser.new_context(reduced_motion=motion, bypass_csp=not keep_csp, **context)
    CONTEXTS.append(opened)
    page = opened.new_page()
    page.context.on("page", lambda other: other.on("pageerror", lambda error: PAGE_ERRORS.append(error)))
    page.on("pageerror", lambda error: PAGE_ERRORS.append(error))
    frames: list[dict[str, Any]] = []

    talk = SOCKET_TALK.setdefault(page, [])

    def received(payload: str) -> None:
        frame = json.loads(payload)
        frames.append(frame)
        legal = f" legal {len(frame.get('legal') or [])}" if frame.get("type") == "state" else ""
        talk.append(f"{time.monotonic():.2f} < {frame.get('type')} v{frame.get('version')}{legal} {payload[:80]}")

    def watch(websocket: Any) -> None:
        SOCKET_URLS.append(websocket.url)
        talk.append(f"{time.monotonic():.2f} open {websocket.url}")
        websocket.on("framereceived", received)
        websocket.on("framesent", lambda payload: talk.append(f"{time.monotonic():.2f} > {payload[:120]}"))
        websocket.on("close", lambda _: talk.append(f"{time.monotonic():.2f} closed"))

    page.on("websocket", watch)
    return page, frames


#: Where the tests leave screenshots of what they checked (CI keeps them).
SCREENSHOTS = os.environ.get("PASUR_SCREENSHOTS", "build/screenshots")


#: Where a sign before a number is drawn: [signs checked, the texts whose sign sits right of its number].
#: Right-to-left text draws a bare "−5" as "5−"; a sign must stay on its number's left in both languages.
SIGNS_BESIDE_THEIR_NUMBERS = """(selector) => {
  const misplaced = [], range = document.createRange();
  const x = (node, at) => {
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    return range.getBoundingClientRect().x;
  };
  const walker = document.createTreeWalker(document.querySelector(selector), NodeFilter.SHOW_TEXT);
  let checked = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const sign of node.data.matchAll(/(?<![0-9۰-۹])[-−+±](?=[0-9۰-۹])/g)) {
      checked += 1;
      if (x(node, sign.index) > x(node, sign.index + 1)) misplaced.push(node.data);
    }
  }
  return [checked, misplaced];
}"""


def signs_left_of_their_numbers(page: Any, selector: str) -> int:
    """Fail if a sign before a number under ``selector`` is drawn right of it; how many were checked."""
    checked, misplaced = page.evaluate(SIGNS_BESIDE_THEIR_NUMBERS, selector)
    assert misplaced == [], misplaced
    return int(checked)


def snap(page: Any, name: str) -> None:
    """Keep a screenshot of what a test checked, after checking what every page must hold: no sign
    right of its number, and in Persian no middle dot (beside digits it reads as the digit zero, ۰)."""
    signs_left_of_their_numbers(page, "body")
    persian = page.evaluate("document.documentElement.lang === 'fa' ? document.body.innerText : ''")
    assert "·" not in persian, [line for line in persian.splitlines() if "·" in line]
    os.makedirs(SCREENSHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


#: Whether the page waits for this seat's move with nothing left to show.
READY = "pasur.page.state?.legal?.length > 0 && !pasur.page.showing && pasur.page.queue.length === 0"


def in_table_menu(page: Any, control: str) -> None:
    """Click one of the table's controls (Resign, Faster bots): on a phone they wait behind its ⋯ menu."""
    if page.is_visible("#table-menu"):
        page.click("#table-menu")
    page.click(control)


def click_resign(page: Any) -> None:
    in_table_menu(page, "#resign")


def in_language(page: Any, base: str, lang: str) -> None:
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('pasur-lang', '{lang}')")
    page.goto(base + "/")


def create_table(page: Any, base: str, seats: list[str], target: int = 1, timer: int = 0) -> str:
    """Fill in the lobby form; the table's address."""
    page.goto(base + "/")
    page.fill("#create-form input[name=name]", "Ava")
    if len(seats) + 1 != 2:
        page.select_option("#create-form select[name=players]", str(len(seats) + 1))
    for seat, choice in enumerate(seats, start=1):
        page.select_option(f"select[name=seat{seat}]", choice)
    page.fill("input[name=target]", str(target))
    if timer:
        page.select_option("select[name=timer]", str(timer))
    page.click("#create")
    page.wait_for_url("**/t/**")
    return str(page.url)


def start_against_a_bot(page: Any, base: str, moves: int = 0) -> str:
    """Create a table against `easy`, start it and play ``moves`` moves; the table's address."""
    url = create_table(page, base, ["easy"])
    page.click("#start")
    page.wait_for_selector("#board:not([hidden])")
    for _ in range(moves):
        play_until([page], lambda: page.locator("#hand .card.playable").count() > 0)
        click_a_move(page)
    return url


def finished(page: Any) -> bool:
    return bool(page.is_visible("#finished"))


def close_breakdown(page: Any) -> None:
    """Close the round's breakdown if it is up (a player's Continue deals the next round)."""
    if page.is_visible("#round-dialog[open]"):
        page.locator("#round-dialog button:visible").first.click()  # Continue for a player, else Close


def click_a_move(page: Any) -> bool:
    """If this page may move, play its first playable card by clicking (and the first choice
    when the card has several captures); whether it did. Closes a round's breakdown first."""
    close_breakdown(page)
    cards = page.locator("#hand .card.playable")
    if not cards.count():
        return False
    version = page.evaluate("pasur.page.version")
    cards.first.click()
    if page.locator("#choices .choice").count():
        page.locator("#choices .choice").first.click()
    wait_or_say(
        page,
        f"pasur.page.version > {version}",
        "({error: document.querySelector('#table-error').textContent, queued: pasur.page.queue.length,"
        " shown: pasur.page.state && pasur.page.state.version,"
        " connection: document.querySelector('#connection').textContent,"
        " sent: pasur.page.sent && pasur.page.sent.id, legal: pasur.page.state && pasur.page.state.legal.length,"
        " status: document.querySelector('#status').textContent, chosen: pasur.page.chosen})",
        f"the move at version {version} brought no new state",
        timeout=10_000,
    )
    return True


def wait_or_say(page: Any, condition: str, shown: str, failure: str, timeout: float = 30_000) -> None:
    """Wait until ``condition`` holds in the page; if it does not, fail with ``failure``, what the
    expression ``shown`` finds in the page, and the socket's last talk."""
    try:
        page.wait_for_function(condition, timeout=timeout)
    except sync_api.TimeoutError:
        seen = page.evaluate(shown)
        talk = "\n".join(SOCKET_TALK.get(page, [])[-12:])
        raise AssertionError(f"{failure}: {seen}; lately:\n{talk}") from None


def take_a_seat(page: Any) -> None:
    """Press the waiting room's Take a seat and wait until the page shows this player seated; if it
    does not, say what the page showed (its error line, the form, the socket's talk)."""
    page.click("#join")
    wait_or_say(
        page,
        "pasur.page.state && pasur.page.state.table.you !== null",
        "({error: document.querySelector('#table-error').textContent,"
        " form: !document.querySelector('#join-form').hidden,"
        " name: document.querySelector('#join-form').name.value,"
        " seats: pasur.page.state && pasur.page.state.table.seats.map((seat) => seat.name)})",
        "Take a seat did not seat the player",
        timeout=15_000,
    )


def sees_seated(page: Any, seat: int, name: str) -> None:
    """Wait until this page's table shows ``name`` in ``seat``; if it does not, say what the page
    showed (its seats, its connection line, the socket's talk)."""
    wait_or_say(
        page,
        f"pasur.page.state && pasur.page.state.table.seats[{seat}].name === '{name}'",
        "({seats: pasur.page.state && pasur.page.state.table.seats.map((one) => one.name),"
        " version: pasur.page.state && pasur.page.state.version,"
        " connection: document.querySelector('#connection').textContent,"
        " offline: !document.querySelector('#offline').hidden})",
        f"{name} never showed in seat {seat}",
    )


def play_until(pages: list[Any], done: Any, limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        if not any(click_a_move(page) for page in pages):
            time.sleep(0.05)


def assert_nothing_hidden_was_sent(frames: list[dict[str, Any]], record: dict[str, Any], seat: int) -> None:
    states = [frame for frame in frames if frame.get("type") == "state" and "view" in frame]
    assert states, "no state frames were recorded"
    assert SOCKET_URLS and not [url for url in SOCKET_URLS if "token" in url]  # tokens never go in a URL
    for frame in states:
        assert frame["table"]["you"] == seat
        leaked = cards_named(frame) & hidden_from(record, seat, frame["version"], frame.get("waiting") is not None)
        assert not leaked, f"version {frame['version']} showed seat {seat} {sorted(leaked)}"


def record_of(server: LiveServer, url: str) -> dict[str, Any]:
    table_id = url.rsplit("/", 1)[1]
    return dict(httpx.get(f"{server.base}/api/tables/{table_id}/record").json())


FINISHED_SAID = {
    "en": {
        "wins": r"^(You|.+ wins?) the match, \d+ – \d+",
        "haft_khaj": "Haft Khaj",
        "move_1": "move 1 of",
        "move_5": "move 5 of",
        "best": "best",
    },
    "fa": {
        "wins": r"بازی را برد(ید|ند)?، [۰-۹]+ – [۰-۹]+",
        "haft_khaj": "هفت خاج",
        "move_1": "حرکت ۱ از",
        "move_5": "حرکت ۵ از",
        "best": "بهترین",
    },
}


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_play_a_whole_round_against_a_bot_by_clicking(server, browser, lang):
    said = FINISHED_SAID[lang]
    page, frames = recorded_page(browser)
    in_language(page, server.base, lang)
    url = start_against_a_bot(page, server.base)
    assert page.locator("#hand .card").count() == 4 and page.locator("#table-cards .card").count() == 4
    play_until([page], lambda: finished(page))
    line = page.inner_text("#winner")
    assert re.search(said["wins"], line)
    winner_score = page.evaluate("pasur.page.state.scores[pasur.page.state.winner]")  # said first
    first = re.search(r"\d+", line).group()  # \d is Persian digits too
    assert first.translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")) == str(winner_score)
    won = page.evaluate("pasur.page.state.winner === pasur.page.state.table.you")
    assert ("won" in (page.get_attribute("#winner", "class") or "").split()) == won  # a win is a moment, not a loss
    record = record_of(server, url)
    assert len(record["rounds"]) >= 1
    assert_nothing_hidden_was_sent(frames, record, 0)
    # the winner, the last breakdown and Replay together, nothing over them, no empty felt
    assert said["haft_khaj"] in page.inner_text("#final-table") and page.is_visible("#open-replay")
    snap(page, f"finished-{lang}")
    assert not page.is_visible("#round-dialog") and not page.is_visible("#arena")
    page.click("#open-replay")
    page.wait_for_selector("#replay:not([hidden])")
    # "next" lies the way the slider grows, and its arrow points there: leftwards right to left
    ahead = page.evaluate(
        "(() => { const at = (id) => document.querySelector(id).getBoundingClientRect().x;"
        " return at('#replay-next') > at('#replay-prev'); })()"
    )
    mirrored = page.evaluate("getComputedStyle(document.querySelector('#replay-next')).transform") != "none"
    assert (ahead, mirrored) == ((True, False) if lang == "en" else (False, True))
    page.click("#replay-next")
    assert said["move_1"] in page.inner_text("#replay-position") and page.url.endswith("#replay=1.1")
    # the replay is drawn on the felt: the table and the hand as large as in play (1280 px wide),
    # the other hands face up at their seats
    cards = "#table-cards .card, #hand .card"
    widths = page.evaluate(f"[...document.querySelectorAll('{cards}')].map((card) => card.clientWidth)")
    assert widths and min(widths) >= 89.5
    step = page.evaluate("pasur.page.replaySteps[pasur.page.replayIndex]")
    assert page.locator("#hand .card").count() == len(step["hands"][0])
    assert page.locator(".seat .backs.face-up svg").count() == sum(len(hand) for hand in step["hands"][1:])
    # the person's first move, judged by the server in the background: verdict, loss, best move
    judged = ", ".join(f".{verdict}" for verdict in ALLOWED)
    verdict = page.wait_for_selector(f"#replay-body .verdict:is({judged})", timeout=60_000)
    assert said["best"] in verdict.inner_text()
    moves = len(record["rounds"][0]["moves"])
    page.click("#replay-last")  # the end of the round, with its breakdown
    assert page.url.endswith(f"#replay=1.{moves}") and said["haft_khaj"] in page.inner_text("#replay-breakdown")
    # ... and the sweep of what was left; the live score line and log give way to the replay's
    swept = page.evaluate("pasur.page.replaySteps[pasur.page.replayIndex].swept")
    assert not swept or page.locator("#replay-body .swept").count() == 1
    # the score line shows the match score as it stood in that round, not the final one
    shown = page.evaluate("[...document.querySelectorAll('#scorebar .side b')].map((b) => b.textContent)")
    digits = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")
    assert [int(text.translate(digits)) for text in shown] == page.evaluate(
        "pasur.page.replaySteps[pasur.page.replayIndex].scores"
    )
    assert not page.is_visible("#log-box") and not page.is_visible("#finished")
    if len(record["rounds"]) > 1:
        page.select_option("#replay-round", "2")
        assert page.url.endswith("#replay=2.0")
    page.click("#replay-close")  # back to the result, where Rematch and the record are
    page.wait_for_selector("#finished:not([hidden])")
    assert not page.is_visible("#replay") and page.is_visible("#rematch")
    check_the_review(page, lang)
    linked = page.context.new_page()  # a link to a position opens there
    linked.goto(url + "#replay=1.5")
    linked.wait_for_selector("#replay:not([hidden])")
    assert said["move_5"] in linked.inner_text("#replay-position")
    snap(linked, f"replay-{lang}")


def check_the_review(page: Any, lang: str) -> None:
    """The result panel's review: the person's accuracy as the server summed it up, and each key
    moment opening the position before its move, the card played and the best one marked."""
    page.wait_for_function("pasur.page.analysis && pasur.page.analysis.done", timeout=120_000)
    summary = page.evaluate("pasur.page.analysis.players")
    assert [player["seat"] for player in summary] == [0]
    digits = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")
    shown = page.inner_text("#review .accuracy b").translate(digits)
    assert shown == str(summary[0]["accuracy"]) and 0 <= summary[0]["accuracy"] <= 100
    moments = summary[0]["key_moments"]
    assert page.locator("#review .moment").count() == len(moments)
    if not moments:
        return
    page.locator("#review .moment").first.click()
    page.wait_for_selector("#replay:not([hidden])")
    first = moments[0]
    assert page.url.endswith(f"#replay={first['round']}.{first['move'] - 1}")  # before the move
    said = {"en": f"before move {first['move']}", "fa": "پیش از حرکت"}[lang]
    assert said in page.inner_text("#replay-position")
    judged = page.evaluate("pasur.page.moment")
    assert page.locator(f"#hand .card.mark-played[data-card='{judged['played_move']['card']}']").count() == 1
    assert page.locator(f"#hand .card.mark-best[data-card='{judged['best_move']['card']}']").count() == 1
    assert page.locator("#replay-body .tag.played").count() == 1 and page.is_visible("#replay-body .verdict")
    assert page.is_disabled("#replay-prev-moment") and page.is_disabled("#replay-next-moment") == (len(moments) == 1)
    if len(moments) > 1:
        page.click("#replay-next-moment")
        second = moments[1]
        page.wait_for_function(f"pasur.page.moment && pasur.page.moment.move === {second['move']}")
        assert page.url.endswith(f"#replay={second['round']}.{second['move'] - 1}")
    page.click("#replay-close")
    page.wait_for_selector("#finished:not([hidden])")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_page_obeys_its_own_content_policy(server, browser, lang):
    """With the policy the server sends in force (no inline script or style, nothing from
    elsewhere), a whole round plays by clicking, the rules, settings and account dialogs open and
    the leaderboard and puzzles draw, without one refusal by the policy."""
    page, _ = recorded_page(browser, keep_csp=True)
    refused: list[str] = []
    page.on(
        "console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None
    )
    page.goto(server.base + "/")
    page.evaluate(f"localStorage.setItem('pasur-lang', '{lang}')")  # through the debugger: the policy allows it
    start_against_a_bot(page, server.base)

    def waited(expression: str) -> None:  # a wait that evaluates nothing in the page's own world
        deadline = time.monotonic() + 20
        while not page.evaluate(expression):
            assert time.monotonic() < deadline, expression
            time.sleep(0.05)

    while not finished(page):
        close_breakdown(page)
        cards = page.locator("#hand .card.playable")
        if not cards.count():
            time.sleep(0.05)
            continue
        version = page.evaluate("pasur.page.version")
        cards.first.click()
        if page.locator("#choices .choice").count():
            page.locator("#choices .choice").first.click()
        waited(f"pasur.page.version > {version} || !!document.querySelector('#finished:not([hidden])')")
    assert page.locator("#final-table").is_visible()
    for link, dialog in (("#rules-link", "#rules-dialog"), ("#settings-link", "#settings-dialog")):
        page.click(link)
        page.locator(f"{dialog}[open]").wait_for()
        page.keyboard.press("Escape")
    for path, drawn in (("/leaders", "#leaders-bots li"), ("/puzzles", "#puzzles-page .card")):
        page.goto(server.base + path)
        page.locator(drawn).first.wait_for()
    page.goto(server.base + "/")
    page.locator("#account-link").click()
    page.locator("#account-dialog[open]").wait_for()
    snap(page, f"csp-kept-{lang}")
    page.wait_for_timeout(200)  # a refusal is reported after the render that caused it
    assert refused == []


def test_a_rematch_turns_the_seats_and_starts_at_once_against_bots(server, browser):
    page, _ = recorded_page(browser)
    url = start_against_a_bot(page, server.base)
    play_until([page], lambda: finished(page))
    page.click("#rematch")
    page.wait_for_url(lambda address: address.split("#")[0] != url)
    page.wait_for_selector("#board:not([hidden])")
    table = page.evaluate("pasur.page.state.table")
    # the same person, one seat on (so the bot opens), hosting a match already under way
    assert (table["you"], table["host"], table["status"]) == (1, 1, "playing")
    assert table["seats"][0]["bot"] == "easy" and table["seats"][1]["name"] == "Ava"
    back = page.context.new_page()  # the finished table now leads to the rematch
    back.goto(url)
    back.wait_for_selector("#finished:not([hidden])")
    back.wait_for_function("pasur.page.state.table.rematch !== null")
    assert back.inner_text("#rematch") == back.evaluate("pasur.t('rematch_join')")
    back.click("#rematch")
    back.wait_for_url(page.url.split("#")[0])


def test_a_person_moves_to_an_open_seat_before_the_start(server, browser):
    page, _ = recorded_page(browser)
    url = create_table(page, server.base, ["friend", "friend"])
    page.wait_for_selector("#seat-list .move-seat")
    assert page.locator("#seat-list .move-seat").count() == 2  # the two open seats
    page.locator("#seat-list li").nth(2).locator(".move-seat").click()
    page.wait_for_function("pasur.page.state.table.you === 2")
    seats = page.locator("#seat-list li")
    assert seats.nth(0).locator(".move-seat").count() == 1 and seats.nth(2).locator(".move-seat").count() == 0
    assert page.is_visible("#start")  # the host moved, and still starts the match
    friend, _ = recorded_page(browser)
    friend.goto(url)
    friend.fill("#join-form input[name=name]", "Bahram")
    take_a_seat(friend)
    assert friend.evaluate("pasur.page.state.table.you") in (0, 1) and not friend.is_visible("#start")


def use_the_account_dialog(page: Any, button: str, name: str = "Ava", password: str = "felt and four cards") -> None:
    """Fill in the account dialog and press ``button`` (#sign-up or #sign-in)."""
    page.click("#account-link")
    page.fill("#sign-in-form input[name=name]", name)
    page.fill("#sign-in-form input[name=password]", password)
    page.click(button)


def test_an_account_made_in_the_page_lasts_across_reloads_and_browsers_until_logged_out(server, browser):
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    use_the_account_dialog(page, "#sign-up", password="short")
    page.wait_for_function("document.querySelector('#account-error').textContent.includes('10')")
    page.fill("#sign-in-form input[name=password]", "felt and four cards")
    page.click("#sign-up")
    signed_in = "document.querySelector('#account-link-text').textContent === 'Ava'"
    page.wait_for_function(signed_in)
    assert page.input_value("#create-form input[name=name]") == "Ava" and not page.is_visible("#account-dialog")
    assert "pasur_session" not in page.evaluate("document.cookie")  # HttpOnly: no script reads it
    page.reload()
    page.wait_for_function(signed_in)
    page.click("#lang")  # in Persian the header still names the account
    page.wait_for_function(f"document.documentElement.lang === 'fa' && {signed_in}")
    other, _ = recorded_page(browser)  # another browser, signed in with the name in another case
    other.goto(server.base + "/")
    use_the_account_dialog(other, "#sign-in", name="ava")
    other.wait_for_function(signed_in)
    page.click("#account-link")
    page.click("#log-out-everywhere")
    signed_out = "document.querySelector('#account-link-text').textContent === pasur.t('sign_in')"
    page.wait_for_function(signed_out)
    other.reload()
    other.wait_for_function(signed_out)


def test_the_lobby_offers_each_bot_level_with_its_rating(server, browser):
    from pasur.server.bots import BOT_RATINGS, BOT_RATINGS_AT

    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    option = "select[name=seat1] option[value=grandmaster]"
    page.wait_for_function(f"document.querySelector('{option}').textContent.includes('{BOT_RATINGS['grandmaster']}')")
    # at three, at four in partnership and at four each alone the rating measured there
    page.select_option("#create-form select[name=players]", "3")
    assert str(BOT_RATINGS_AT["3"]["grandmaster"]) in page.locator(option).text_content()
    page.select_option("#create-form select[name=players]", "4")
    assert str(BOT_RATINGS_AT["4"]["grandmaster"]) in page.locator(option).text_content()
    page.locator("#create-form input[name=partnership]").uncheck()
    assert str(BOT_RATINGS_AT["4-each"]["grandmaster"]) in page.locator(option).text_content()
    page.select_option("#create-form select[name=players]", "2")
    in_language(page, server.base, "fa")  # in Persian digits
    persian = str(BOT_RATINGS["grandmaster"]).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
    page.wait_for_function(f"document.querySelector('{option}').textContent.includes('{persian}')")


def test_a_signed_in_players_finished_match_is_on_their_page_with_its_replay(server, browser):
    page, _ = recorded_page(browser)
    account = page.request.post(f"{server.base}/api/account", data={"name": "Ava", "password": "felt and four cards"})
    assert account.status == 201  # the context keeps the session's cookie, as the page's dialog does
    url = start_against_a_bot(page, server.base)
    play_until([page], lambda: finished(page))
    won = page.evaluate("pasur.page.state.winner === pasur.page.state.table.you")
    page.goto(f"{server.base}/p/ava")
    page.wait_for_selector("#profile-games li")
    assert page.inner_text("#profile-name") == "Ava" and page.locator("#profile-games li").count() == 1
    line = page.inner_text("#profile-games li")
    assert (" won" in line, " lost" in line) == (won, not won)
    page.click("#profile-games li a")
    page.wait_for_url(url + "#replay=1.0")
    page.wait_for_selector("#replay:not([hidden])")
    page.goto(f"{server.base}/p/Nobody")
    page.wait_for_function("document.querySelector('#profile-error').textContent.includes('Nobody')")


def test_a_guest_who_signs_up_in_the_same_browser_keeps_their_match(server, browser):
    page, _ = recorded_page(browser)
    url = start_against_a_bot(page, server.base)
    play_until([page], lambda: finished(page))
    page.goto(server.base + "/")
    use_the_account_dialog(page, "#sign-up")
    page.wait_for_function("document.querySelector('#account-link-text').textContent === 'Ava'")
    page.click("#account-link")
    page.click("#my-games")
    page.wait_for_selector("#profile-games li a")
    assert page.get_attribute("#profile-games li a", "href").startswith("/t/" + url.rsplit("/", 1)[1])


def test_reload_mid_round_and_carry_on(server, browser):
    page, frames = recorded_page(browser)
    url = start_against_a_bot(page, server.base, moves=3)
    # the hand as shown once the page has shown every state it has (a play may still be flying)
    # (the hand and its version read in one step: a state arriving between two reads once gave
    # the hand of one version and the number of the next)
    settled = "pasur.page.state && !pasur.page.queue.length && !pasur.page.showing"
    cards = "[...document.querySelectorAll('#hand .card')].map(card => card.dataset.card)"
    before = page.wait_for_function(f"{settled} && {{version: pasur.page.state.version, hand: {cards}}}").json_value()
    hand, version = before["hand"], before["version"]
    page.reload()
    # the hand back, or a later state (seen twice in five full runs: just after the reload the
    # hand was empty for a moment at the same version; issue 31's note)
    # (read in the same step as the check: the page may show a deal again right after)
    shown = page.wait_for_function(
        f"{settled} && (pasur.page.state.version > {version} || {cards}.length > 0)"
        f" && {{version: pasur.page.state.version, hand: {cards}}}"
    ).json_value()
    assert shown["hand"] == hand or shown["version"] > version
    play_until([page], lambda: finished(page))
    assert_nothing_hidden_was_sent(frames, record_of(server, url), 0)


@pytest.mark.skipif(not os.environ.get("PASUR_TEST_POSTGRES"), reason="set PASUR_TEST_POSTGRES (scripts/test.sh)")
def test_two_browsers_on_two_server_processes_play_one_table(browser):
    """Each browser talks to its own server (its own database sessions, as another process or
    machine would), both over one PostgreSQL database: a whole match."""
    from .test_shared import fresh_database

    database = fresh_database()
    first, second = LiveServer(database, free_port()).start(), LiveServer(database, free_port()).start()
    try:
        host, host_frames = recorded_page(browser)
        url = create_table(host, first.base, ["friend"])
        guest, guest_frames = recorded_page(browser)
        guest.goto(url.replace(first.base, second.base))
        guest.fill("#join-form input[name=name]", "Bahram")
        take_a_seat(guest)
        sees_seated(host, 1, "Bahram")
        host.click("#start")
        guest.wait_for_selector("#board:not([hidden])")
        play_until([host, guest], lambda: finished(host) and finished(guest))
        record = record_of(second, url)
        assert record == record_of(first, url) and record["names"] == ["Ava", "Bahram"]
        assert_nothing_hidden_was_sent(host_frames, record, 0)
        assert_nothing_hidden_was_sent(guest_frames, record, 1)
    finally:
        first.stop()
        second.stop()


def test_two_browsers_play_each_other(server, browser):
    host, host_frames = recorded_page(browser)
    url = create_table(host, server.base, ["friend"])
    guest, guest_frames = recorded_page(browser)
    guest.goto(url)
    guest.fill("#join-form input[name=name]", "Bahram")
    take_a_seat(guest)
    sees_seated(host, 1, "Bahram")
    host.click("#start")
    guest.wait_for_selector("#board:not([hidden])")
    assert "Bahram" in host.inner_text(".seat[data-seat='1']")
    play_until([host, guest], lambda: finished(host) and finished(guest))
    record = record_of(server, url)
    assert record["names"] == ["Ava", "Bahram"]
    assert_nothing_hidden_was_sent(host_frames, record, 0)
    assert_nothing_hidden_was_sent(guest_frames, record, 1)


def test_the_server_restarts_mid_round_and_the_page_carries_on(server, browser):
    page, frames = recorded_page(browser)
    url = start_against_a_bot(page, server.base, moves=2)
    version = page.evaluate("pasur.page.version")
    server.stop()
    page.wait_for_function("document.querySelector('#connection').textContent.includes('reconnecting')")
    assert page.is_visible("#offline")  # said plainly, not only in small grey text
    server.start()
    connected = "document.querySelector('#connection').textContent === 'connected'"
    page.wait_for_function(f"{connected} && pasur.page.version >= {version}")
    play_until([page], lambda: finished(page))
    record = record_of(server, url)
    assert_nothing_hidden_was_sent(frames, record, 0)


def test_the_page_in_persian_is_right_to_left(server, browser):
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    page.click("#lang")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.inner_text("#create") == "ساختن میز"
    page.fill("#create-form input[name=name]", "آوا")
    page.click("#create")
    page.wait_for_url("**/t/**")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    page.click("#start")
    page.wait_for_selector("#board:not([hidden])")
    assert "نوبت" in page.inner_text("#status") or "دست" in page.inner_text("#scorebar")
    page.goto(server.base + "/t/no-such-table")  # what the server refuses is said in Persian too
    page.wait_for_function("document.querySelector('#table-error').textContent.length > 0")
    assert page.inner_text("#table-error") == "چنین میزی وجود ندارد"


def test_one_card_is_said_in_the_singular(server, browser):
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    assert page.evaluate("[1, 2, 0].map((n) => pasur.t('cards_left', {n}))") == [
        "1 card",
        "2 cards",
        "0 cards",
    ]
    page.click("#lang")
    assert page.evaluate("pasur.t('cards_left', {n: 1})") == "۱ کارت"


def test_a_person_who_is_not_here_is_said_to_be_away(server, browser):
    page, _ = recorded_page(browser)
    url = create_table(page, server.base, ["friend"])
    joined = httpx.post(f"{server.base}/api/tables/{url.rsplit('/', 1)[-1]}/join", json={"name": "Bo"})
    assert joined.status_code == 200  # Bo takes the seat and never connects
    sees_seated(page, 1, "Bo")
    page.click("#start")
    page.wait_for_selector(".seat[data-seat='1']")
    assert "away" in page.inner_text(".seat[data-seat='1'] .seat-name")
    assert "away" not in page.inner_text(".seat[data-seat='0'] .seat-name")
    page.context.close()


def test_the_four_player_waiting_room_shows_the_teams(server, browser):
    page, _ = recorded_page(browser)
    create_table(page, server.base, ["friend", "easy", "friend"])
    page.wait_for_selector("#seat-list li")
    seats = page.locator("#seat-list li .seat-words").all_inner_texts()
    assert len(seats) == 4
    assert seats[0].startswith("Seat 1: Ava (you) · side 1, with Shirin (easy)")
    assert "side 2, with open seat" in seats[1] and "side 1, with Ava" in seats[2]
    page.context.close()


def test_the_page_is_installable_and_opens_without_the_server(server, browser, tmp_path):
    """What an install prompt asks of a page (a manifest with a name, a start address, a
    standalone display and 192 and 512 px icons; a service worker in control), at 390 px; then,
    with the network gone, the page still opens and says the server cannot be reached."""
    page, _ = recorded_page(browser, viewport={"width": 390, "height": 844})
    page.goto(server.base + "/")
    href = page.get_attribute("link[rel=manifest]", "href")
    manifest = httpx.get(server.base + href).json()
    assert manifest["name"] == "Pasur" and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["id"] == "/"
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    assert {icon["sizes"] for icon in pngs} == {"192x192", "512x512"}
    assert [icon["sizes"] for icon in pngs if icon.get("purpose") == "maskable"] == ["512x512"]
    for icon in pngs:
        png = httpx.get(server.base + icon["src"]).content
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]
    assert {shot["form_factor"] for shot in manifest["screenshots"]} == {"narrow", "wide"}
    for shot in manifest["screenshots"]:  # each a JPEG of the size it says (its SOF0 frame)
        jpeg = httpx.get(server.base + shot["src"]).content
        frame = jpeg.index(b"\xff\xc0")
        height, width = (
            int.from_bytes(jpeg[frame + 5 : frame + 7], "big"),
            int.from_bytes(jpeg[frame + 7 : frame + 9], "big"),
        )
        assert jpeg[:2] == b"\xff\xd8" and f"{width}x{height}" == shot["sizes"] and shot["label"]
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready", timeout=15_000
    )
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now under the service worker's control
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=15_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("document.querySelector('#lobby-error').textContent.includes('cannot be reached')")
    snap(page, "offline-390")
    page.context.set_offline(False)
    page.wait_for_function("document.querySelector('#lobby-error').textContent === ''", timeout=15_000)
    page.context.close()


def test_settings_are_kept_in_the_browser_and_change_the_table(server, browser):
    page, _ = recorded_page(browser, viewport={"width": 1280, "height": 900})
    # the sounds the page makes, counted where WebAudio starts each tone (the page keeps no count)
    page.add_init_script("""
        window.soundsPlayed = 0;
        const start = OscillatorNode.prototype.start;
        OscillatorNode.prototype.start = function (...args) {
          window.soundsPlayed += 1;
          return start.apply(this, args);
        };
    """)
    start_against_a_bot(page, server.base)
    page.wait_for_function(READY)
    hand = lambda: page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")  # noqa: E731
    dealt = hand()
    # the widest card of the hand, measured in one step (a card being re-dealt may be hidden a moment)
    hand_width = (
        "Math.max(0, ...[...document.querySelectorAll('#hand .card')].map(c => c.getBoundingClientRect().width))"
    )
    width = lambda: page.evaluate(hand_width)  # noqa: E731
    usual = width()
    assert usual >= 90  # a desktop's cards at a glance
    page.click("#settings-link")
    page.select_option("#settings-form select[name=order]", "suit")
    page.check("#settings-form input[name=fourColour]")
    page.check("#settings-form input[name=large]")
    snap(page, "settings")
    page.click("#settings-close")
    by_suit = hand()
    assert page.evaluate("JSON.parse(localStorage.getItem('pasur-settings')).order") == "suit"
    suits, ranks = "CDHS", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert sorted(by_suit) == sorted(dealt)
    assert by_suit == sorted(dealt, key=lambda card: (suits.index(card[-1]), ranks.index(card[:-1])))
    assert width() >= usual * 1.2
    snap(page, "large-four-colour")
    club = page.locator("#hand .card[data-card$='C'] svg text, #table-cards .card[data-card$='C'] svg text")
    if club.count():
        assert club.first.get_attribute("fill") == "#16743a"  # clubs green in the four-colour deck
    page.reload()  # kept in this browser
    page.wait_for_function(f"pasur.page.state !== null && {READY}")
    page.wait_for_selector("#hand .card:visible")
    # the same order and size once the table is drawn again (a timeout here: the settings not kept)
    page.wait_for_function(
        f"""([order, least]) => {{
            const cards = [...document.querySelectorAll('#hand .card')].map(c => c.dataset.card);
            return cards.join() === order.join() && {hand_width} >= least;
        }}""",
        arg=[by_suit, usual * 1.2],
        timeout=15_000,
    )
    # sound: on by default, heard once the person has touched the page (as browsers require)
    assert page.evaluate("window.soundsPlayed || 0") == 0  # nothing yet: no gesture since the reload
    play_until([page], lambda: page.evaluate(READY))
    click_a_move(page)
    page.wait_for_function("(window.soundsPlayed || 0) > 0", timeout=15_000)
    assert page.evaluate("pasur.audioAwake()")
    page.click("#settings-link")  # and off
    page.uncheck("#settings-form input[name=sound]")
    page.click("#settings-close")
    heard = page.evaluate("window.soundsPlayed")
    play_until([page], lambda: page.evaluate(READY))
    click_a_move(page)
    page.wait_for_function(READY, timeout=30_000)
    assert page.evaluate("window.soundsPlayed") == heard
    page.context.close()


def test_a_malformed_stored_setting_leaves_the_defaults(server, browser):
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    for kept in ("{not json", '{"order": 5, "sound": "yes", "__proto__": {"large": true}}', "[1, 2]"):
        page.evaluate(f"localStorage.setItem('pasur-settings', {kept!r})")
        page.reload()
        page.wait_for_selector("#lobby:not([hidden])")
        kept_now = page.evaluate("[pasur.settings.order, pasur.settings.sound, pasur.settings.large]")
        assert kept_now == ["dealt", True, False], kept
    page.context.close()


def test_names_show_as_text_never_as_html(server, browser):
    """A name with markup is taken as ordinary text (the server refuses only control and
    text-direction characters) and the page shows it letter for letter, running none of it."""
    page, _ = recorded_page(browser)
    url = create_table(page, server.base, ["friend"])
    name = "<img src=x onerror=hacked=1>S&M"
    joined = httpx.post(f"{server.base}/api/tables/{url.rsplit('/', 1)[-1]}/join", json={"name": name})
    assert joined.status_code == 200, joined.text
    page.wait_for_function("() => document.body.innerText.includes('>S&M')")
    assert name in page.inner_text("body")
    assert page.evaluate("() => window.hacked") is None
    page.context.close()


def test_the_lobby_lists_a_public_table_live_and_another_browser_joins_it(server, browser):
    """Two browsers: one opens the start page, the other creates a public table; it appears in the
    first page's list without a reload, names shown as text, and a click joins it. A private
    table never appears."""
    watcher, _ = recorded_page(browser)
    watcher.goto(server.base + "/")
    assert watcher.is_visible("#no-tables")
    host, _ = recorded_page(browser)
    host.goto(server.base + "/")
    host.fill("#create-form input[name=name]", "<b>Ava</b>")
    host.select_option("#create-form select[name=players]", "3")
    host.select_option("select[name=seat1]", "friend")
    host.select_option("select[name=seat2]", "hard")
    host.check("#create-form input[name=public]")
    host.click("#create")
    host.wait_for_url("**/t/**")
    private = httpx.post(f"{server.base}/api/tables", json={"name": "Hidden", "seats": ["friend"]})
    assert private.status_code == 200
    watcher.wait_for_selector("#table-list li", timeout=15_000)
    entry = watcher.inner_text("#table-list")
    assert "<b>Ava</b>" in entry and "1 free" in entry and "hard" in entry and "Hidden" not in entry
    watcher.click("#table-list .join-link")
    watcher.wait_for_url("**/t/**")
    watcher.fill("#join-form input[name=name]", "Bahram")
    take_a_seat(watcher)
    sees_seated(host, 1, "Bahram")
    watcher.goto(server.base + "/")
    watcher.wait_for_selector("#no-tables:not([hidden])", timeout=15_000)  # no seat free: gone from the list


def test_the_lobby_lists_a_public_match_under_way_and_a_click_watches_it(server, browser):
    watcher, _ = recorded_page(browser)
    watcher.goto(server.base + "/")
    assert watcher.is_hidden("#live-tables")
    host, _ = recorded_page(browser)
    host.goto(server.base + "/")
    host.fill("#create-form input[name=name]", "<b>Ava</b>")
    host.check("#create-form input[name=public]")
    host.click("#create")
    host.wait_for_url("**/t/**")
    host.click("#start")
    host.wait_for_selector("#board:not([hidden])")
    watcher.wait_for_selector("#live-list li", timeout=15_000)  # without a reload
    entry = watcher.inner_text("#live-list li")
    assert "<b>Ava</b>" in entry and "Shirin (medium)" in entry and "round 1" in entry
    snap(watcher, "lobby-live")
    watcher.click("#live-list li a")
    watcher.wait_for_selector("#board:not([hidden])")
    assert watcher.evaluate("pasur.page.state.table.you") is None  # a spectator
    assert watcher.inner_text("#chat-title") == "Spectators' chat"
    watcher.evaluate("localStorage.setItem('pasur-lang', 'fa')")  # in Persian, the names by a Persian comma
    watcher.goto(server.base + "/")
    watcher.wait_for_selector("#live-list li", timeout=15_000)
    assert "<b>Ava</b>، شیرین (متوسط)" in watcher.inner_text("#live-list li")
    host.context.close()
    watcher.context.close()


def test_quick_game_seats_a_person_against_a_bot_in_one_click(server, browser, tmp_path):
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    page.click("#lang")
    assert page.inner_text("#quick") == "همین حالا بازی کن: ۲ نفره، در برابر متوسط"
    page.click("#quick")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#board:not([hidden])")  # started without pressing Start
    assert page.locator("#hand .card").count() == 4
    assert page.evaluate("pasur.page.state.table.seats[1].bot") == "medium"
    page.screenshot(path=str(tmp_path / "quick-game-fa.png"))
    # against bots the page offers a hint on one's turn: the move, why, and its card marked
    page.click("#hint:visible", timeout=15_000)
    page.wait_for_function("document.querySelector('#hint-text').textContent.startsWith('راهنما: ')")
    assert page.locator("#hand .card.hinted").count() == 1
    hinted = page.locator("#hand .card.hinted").get_attribute("data-card")
    assert hinted == page.evaluate("pasur.page.hinted.card")
    click_a_move(page)  # after a move the hint is gone
    page.wait_for_function("document.querySelector('#hint-text').textContent === ''")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_learn_to_play_guides_a_first_game_with_tips_and_marks_the_move_they_suggest(server, browser, lang):
    page, _ = recorded_page(browser)
    in_language(page, server.base, lang)
    page.click("#learn")
    page.wait_for_url("**/t/**")
    page.wait_for_function(READY)
    coach = page.locator("#coach")
    assert coach.is_visible()
    said = coach.inner_text()
    assert ("Welcome to Pasur" if lang == "en" else "به پاسور خوش آمدید") in said
    assert ("5 + 6 = 11" if lang == "en" else "۵ + ۶ = ۱۱") in said  # the numeral's 11, in the page's digits
    # the move the tip suggests glows: the 5♥ in the hand and the 6♣ it takes on the table
    assert page.locator("#hand .card.suggested").get_attribute("data-card") == "5H"
    assert [one.get_attribute("data-card") for one in page.locator("#table-cards .card.suggested").all()] == ["6C"]
    snap(page, f"lesson-start-{lang}")
    page.click("#hand .card.suggested")
    page.wait_for_function(f"{READY} && pasur.page.state.version >= 2")
    # the bot's Queen took a Queen, and now the learner can clear the table: a Sur
    said = coach.inner_text()
    assert ("Queen one Queen" if lang == "en" else "بی‌بی یک بی‌بی") in said
    assert ("Sur" if lang == "en" else "سور") in said
    assert page.locator("#hand .card.suggested").get_attribute("data-card") == "6H"
    # a tip is told once: drawn again, the page says nothing new; No more tips ends them at this table
    page.click("#coach-off")
    assert not coach.is_visible() and page.locator(".card.suggested").count() == 0
    page.reload()
    page.wait_for_function(READY)
    assert not page.locator("#coach").is_visible()


def test_the_rules_draw_captures_with_the_games_own_cards(server, browser):
    page, _ = recorded_page(browser)
    in_language(page, server.base, "fa")
    page.click("#rules-link")
    page.wait_for_selector("#rules-examples figure")
    figures = page.locator("#rules-examples figure")
    assert figures.count() == 4
    # the Jack's picture: J♠ played, the 3♦, J♣ and 5♠ taken, the Q♥ left
    jack = figures.nth(2)
    assert jack.locator(".example-card svg").count() == 5
    assert jack.locator(".example-card.taken").count() == 3
    assert "می‌ماند" in jack.locator("figcaption").inner_text()
    snap(page, "rules-pictures-fa")


# -- following a game ------------------------------------------------------------------------------

#: A deal in which seat 0's first card (the 2♣) clears the table: a Sur.
SUR_SEED = 485
#: What the page says, in each language, for the checks below.
SAID = {
    "en": {
        "sur": "Sur!",
        "round_over": "Round 1 is over",
        "round_2": "Round 2",
        "continue": "continue",
        "partner": "partner",
        "you": "you",
        "surs_1": "Surs 1",
    },
    "fa": {
        "sur": "سور!",
        "round_over": "دست ۱ تمام شد",
        "round_2": "دست ۲",
        "continue": "ادامه",
        "partner": "یار",
        "you": "شما",
        "surs_1": "سور ۱",
    },
}


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_every_play_is_seen_and_the_round_end_waits_for_continue(server, browser, lang, monkeypatch):
    monkeypatch.setattr(random, "randrange", lambda _: SUR_SEED)  # the table's deal
    page, frames = recorded_page(browser, motion="no-preference")
    page.add_init_script("""
        window.flights = 0;
        new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach((node) => {
          if (node.classList && node.classList.contains('flying')) window.flights += 1;
        }))).observe(document, { childList: true, subtree: true });
    """)
    said = SAID[lang]
    in_language(page, server.base, lang)
    page.click("#quick")
    page.wait_for_selector("#hand .card.playable")
    page.wait_for_function(READY)
    page.click("#hand .card[data-card='2C']")  # takes the whole table
    try:
        page.wait_for_function(f"document.querySelector('#announce').textContent.includes({said['sur']!r})")
    except sync_api.TimeoutError:
        raise AssertionError(f"no Sur announced; the page received {[frame.get('type') for frame in frames]}") from None
    snap(page, f"sur-{lang}")
    # the Sur is the moment: a large banner, and the plate counts it while the banner is still up
    assert page.evaluate("pasur.t('move_sent')") not in page.inner_text("#status")  # it says the play shown
    banner = page.evaluate("({kind: announce.className, size: parseFloat(getComputedStyle(announce).fontSize)})")
    assert "sur" in banner["kind"].split() and banner["size"] >= 28, banner
    page.wait_for_function(
        f"document.querySelector('.seat[data-seat=\"0\"]').innerText.includes({said['surs_1']!r})"
        " && !document.querySelector('#announce').hidden"
    )
    # the move log marks the Sur (the 2♣, the round's first play)
    page.wait_for_function("document.querySelector('#log li[value=\"1\"]')?.classList.contains('sur')")
    assert said["sur"] in page.inner_text('#log li[value="1"]')
    page.wait_for_function("window.flights >= 2", timeout=15_000)  # the 2♣ flew, then the bot's card
    page.emulate_media(reduced_motion="reduce")  # the rest of the round without waiting for motion
    deadline = time.monotonic() + 120
    while not page.is_visible("#round-dialog[open]"):
        assert time.monotonic() < deadline, "the round did not end"
        cards = page.locator("#hand .card.playable")
        if cards.count() and page.evaluate(READY):
            cards.first.click()
            if page.locator("#choices .choice").count():
                page.locator("#choices .choice").first.click()
        time.sleep(0.05)
    # the round that ended is still on the table: its last play, an empty felt, every play logged
    assert said["round_over"] in page.inner_text("#round-title")
    assert page.locator("#table-cards .card").count() == 0
    plays = page.evaluate("pasur.page.state.view.history.length")
    assert plays == 48 and page.locator("#log li").count() == 48
    latest = page.evaluate("pasur.page.state.view.history[47]")
    assert latest["card"][:-1] in page.inner_text("#log li:first-child") or lang == "fa"
    assert page.evaluate("document.querySelector('#log li').value") == 48
    assert said["continue"] in page.inner_text("#status")
    # 48 logged moves scroll in the log's own box: the page itself fits the window, top and all
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight + 1 && scrollY === 0")
    version = page.evaluate("pasur.page.version")
    snap(page, f"round-end-{lang}")
    time.sleep(1.0)
    assert page.evaluate("pasur.page.version") == version  # the bot waits for the person
    # the breakdown counts what the points came from, and can be closed to look at the table first
    counted = page.locator("#round-table tr.counted")
    assert counted.count() == 3 and page.is_visible("#round-close")
    sides = page.evaluate("pasur.page.state.rounds[0].sides")
    assert sum(side["cards"] for side in sides) == 52 and sum(side["clubs"] for side in sides) == 13
    last = page.evaluate("pasur.page.state.last")
    if last["swept"]:  # what the last capturer swept up is said in the dialog, not hidden behind it
        assert page.is_visible("#round-swept") and said["round_over"].split()[0] in page.inner_text("#round-dialog")
    if lang == "en":
        page.click("#round-close")
        assert not page.is_visible("#round-dialog") and page.is_visible("#deal-on")
        # closed, the breakdown stays on the felt where the table was, not an empty felt
        assert page.is_visible("#round-summary") and "Round 1 is over" in page.inner_text("#round-summary")
        page.click("#deal-on")
    else:
        page.click("#round-continue")
    page.wait_for_function(f"document.querySelector('#scorebar').innerText.includes({said['round_2']!r})")
    assert not page.is_visible("#round-dialog")
    waiting = [frame for frame in frames if frame.get("type") == "state" and frame.get("waiting")]
    assert waiting and all(frame["view"]["round"] == 1 for frame in waiting)


#: The animation each animated element of a table would run, each shown in the moment that brings
#: it (a suggested card, a pile's bump, a Sur's banner, a match won), the mover's ring first.
ANIMATIONS_SHOWN = """(() => {
    const elements = ['.seat.turn .avatar', '#hand .card', '.seat-facts', '#announce', '#winner']
      .map((selector) => document.querySelector(selector));
    const [, card, facts, announce, winner] = elements;
    card.classList.add('suggested'); facts.classList.add('bumped'); winner.classList.add('won');
    announce.hidden = false; announce.classList.add('show', 'sur');
    return elements.map((element) => getComputedStyle(element).animationName);
})()"""


def test_a_table_waiting_for_a_move_stops_moving_and_motion_off_stops_every_animation(server, browser):
    """The turn's ring pulses as the turn comes, then holds: a page waiting for a person's move
    repaints nothing (an endless pulse cost a sixth of a core). With the system's reduced motion,
    or the page's own motion setting off, nothing pops, pulses or beckons at all."""
    page, _ = recorded_page(browser, motion="no-preference")
    start_against_a_bot(page, server.base)
    page.wait_for_selector("#hand .card.playable")
    # the ring's pulse (and any other animation) ends by itself; the ring's animation is still "turn"
    page.wait_for_function("document.getAnimations().every((motion) => motion.playState !== 'running')", timeout=10_000)
    assert page.evaluate(ANIMATIONS_SHOWN) == ["turn", "beckon", "bump", "sur-pop", "sur-pop"]
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(ANIMATIONS_SHOWN) == ["none"] * 5
    page.emulate_media(reduced_motion="no-preference")
    page.evaluate("document.body.classList.add('motion-off')")  # what the setting "motion: off" sets
    assert page.evaluate(ANIMATIONS_SHOWN) == ["none"] * 5


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_no_width_scrolls_sideways_and_a_phone_keeps_the_seat_across_on_one_line(server, browser, lang):
    """From 320 to 2560 px wide the start page and a 4-player table fit the window; on a phone the
    seat across is one line (its name shown), the score one chip, and the table's own actions wait
    behind one button that opens them."""
    for width in (320, 360, 390, 768, 1440, 2560):
        page, _ = recorded_page(browser, viewport={"width": width, "height": 800})
        in_language(page, server.base, lang)
        page.wait_for_selector("#offline-form:not([hidden])")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"the start page at {width}"
        page.fill("#create-form input[name=name]", "Ava")
        page.select_option("#offline-form select[name=players]", "4")
        page.select_option("#offline-form select[name=level]", "easy")
        page.click("#offline-form button[type=submit]")
        page.wait_for_selector("#hand .card.playable")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"the table at {width}"
        top = page.locator(".seat-top").bounding_box()
        name = page.locator(".seat-top .seat-name strong").bounding_box()
        assert top["x"] >= 0 and top["x"] + top["width"] <= width and name["width"] > 20
        if width <= 600:
            assert top["height"] < 50, f"the seat across is {top['height']} px high at {width}"
            assert not page.is_visible("#resign")
            page.click("#table-menu")
            assert page.is_visible("#resign") and page.get_attribute("#table-menu", "aria-expanded") == "true"
            page.click("#scorebar")  # a tap elsewhere closes the menu
            assert not page.is_visible("#resign")
        else:
            assert page.is_visible("#resign") and not page.is_visible("#table-menu")
        page.close()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_four_seats_around_the_felt_on_a_desktop_and_a_phone(server, browser, lang):
    said = SAID[lang]
    for width, height in ((1280, 900), (390, 844)):
        page, _ = recorded_page(browser, viewport={"width": width, "height": height})
        in_language(page, server.base, lang)
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wraps away
        page.fill("#create-form input[name=name]", "Ava")
        page.select_option("#create-form select[name=players]", "4")
        for seat, level in ((1, "medium"), (2, "hard"), (3, "medium")):
            page.select_option(f"select[name=seat{seat}]", level)
        if lang == "fa":
            assert "۳۰" in page.inner_text("select[name=timer]")
        page.click("#create")
        page.wait_for_url("**/t/**")
        page.click("#start")
        page.wait_for_selector(".seat[data-seat='3']")
        names = [page.inner_text(f".seat[data-seat='{seat}'] .seat-name strong") for seat in range(4)]
        assert names[0] == "Ava" and len(set(names)) == 4
        if lang == "en":
            assert names[1:] == ["Shirin (medium)", "Bahram (hard)", "Laleh (medium)"]
        assert page.get_attribute(".seat-top", "data-seat") == "2" and said["partner"] in page.inner_text(".seat-top")
        assert said["you"] in page.inner_text(".seat-bottom")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for box in page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.getBoundingClientRect().right)"):
            assert box <= width
        assert page.locator("#table-cards .card[tabindex='0']").count() == 0  # table cards are no tab stops
        snap(page, f"four-seats-{lang}-{width}")
        # keyboard play: the focus stays in the hand from one turn to the next
        page.wait_for_selector("#hand .card.playable")
        page.focus("#hand .card.playable")
        version = page.evaluate("pasur.page.version")
        page.keyboard.press("Enter")
        if page.locator("#choices .choice").count():
            page.keyboard.press("Enter")  # the first choice has the focus
        page.wait_for_function(f"pasur.page.version >= {version + 4} && {READY}", timeout=30_000)
        assert page.evaluate("document.getElementById('hand').contains(document.activeElement)")
        # partners share one pile: shown once, at the side's first seat; the other seat says where it is
        kept = "pile is with" if lang == "en" else "نزد"
        facts = [page.inner_text(f".seat[data-seat='{seat}'] .seat-facts") for seat in range(4)]
        assert kept not in facts[0] and kept not in facts[1] and names[0] in facts[2] and names[1] in facts[3]
        assert page.locator(".seat[data-seat='2'] .pile > *").count() == 0
        page.click("#rules-link")
        page.wait_for_selector("#rules-dialog[open] #rules-body li")
        assert page.locator("#rules-body li").count() >= 6
        assert ("سور" if lang == "fa" else "Sur") in page.inner_text("#rules-body")
        page.context.close()


def test_players_chat_apart_from_spectators_with_mute_and_quick_phrases(server, browser):
    host, _ = recorded_page(browser)
    url = create_table(host, server.base, ["friend"])
    guest, _ = recorded_page(browser)
    in_language(guest, server.base, "fa")
    guest.goto(url)
    guest.fill("#join-form input[name=name]", "Bahram")
    take_a_seat(guest)
    sees_seated(host, 1, "Bahram")
    watcher, _ = recorded_page(browser)
    watcher.goto(url)
    watcher.wait_for_selector("#chat-box:not([hidden])")
    # a spectator's chat says so from the start, before any line arrives
    watcher.wait_for_function("document.querySelector('#chat-title').textContent === \"Spectators' chat\"")
    assert host.inner_text("#chat-title") == "Table chat (players)"
    host.fill("#chat-text", "<img src=x onerror=window.hacked=1>salaam")
    host.press("#chat-text", "Enter")
    guest.wait_for_function("document.querySelector('#chat-lines').innerText.includes('salaam')")
    assert "<img src=x onerror=window.hacked=1>salaam" in guest.inner_text("#chat-lines")
    assert guest.evaluate("window.hacked") is None
    guest.select_option("#chat-phrase", "good_game")
    host.wait_for_function("document.querySelector('#chat-lines').innerText.includes('Good game!')")
    guest.wait_for_function("document.querySelector('#chat-lines').innerText.includes('بازی خوبی بود!')")
    snap(guest, "chat-fa")
    watcher.fill("#chat-text", "go Ava")
    watcher.press("#chat-text", "Enter")
    watcher.wait_for_function("document.querySelector('#chat-lines').innerText.includes('go Ava')")
    assert "salaam" not in watcher.inner_text("#chat-lines")  # spectators do not hear the players
    time.sleep(0.5)
    assert "go Ava" not in host.inner_text("#chat-lines")  # nor the players the spectators
    host.click("#chat-lines li:has-text('Bahram') .mute")
    assert "Good game!" not in host.inner_text("#chat-lines") and "salaam" in host.inner_text("#chat-lines")
    host.click("#unmute-all")
    assert "Good game!" in host.inner_text("#chat-lines")
    snap(host, "chat-en")


# -- the table's layout at three sizes ---------------------------------------------------------------

LAYOUT_SIZES = [(390, 844), (768, 1024), (1440, 900)]

#: Each box on the table page, as the page lays it out.
BOXES = """(() => {
  const box = (element) => { const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (selector) => [...document.querySelectorAll(selector)].map(box);
  return { arena: box(document.querySelector('#arena')), table: all('#table-cards .card'), hand: all('#hand .card'),
           seats: all('.seat'), width: document.documentElement.scrollWidth };
})()"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=[f"{w}x{h}" for w, h in LAYOUT_SIZES])
def test_the_felt_fills_the_window_and_nothing_on_it_overlaps(server, browser, lang, size):
    width, height = size
    page, _ = recorded_page(browser, viewport={"width": width, "height": height})
    in_language(page, server.base, lang)
    page.fill("#create-form input[name=name]", "Ava")
    page.select_option("#create-form select[name=players]", "4")
    for seat, level in ((1, "medium"), (2, "hard"), (3, "medium")):
        page.select_option(f"select[name=seat{seat}]", level)
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.click("#start")
    page.wait_for_function(READY)
    boxes = page.evaluate(BOXES)
    left, top, right, bottom = boxes["arena"]
    assert (right - left) * (bottom - top) >= 0.6 * width * height  # the felt is most of the window
    assert boxes["width"] <= width  # nothing runs off the side
    smallest = 90 if width >= 1280 else 56
    for card in boxes["table"] + boxes["hand"]:
        assert card[2] - card[0] >= smallest - 0.5
    for index, card in enumerate(boxes["table"]):
        assert not any(overlap(card, other) for other in boxes["table"][index + 1 :])
        assert not any(overlap(card, seat) for seat in boxes["seats"])
    for card in boxes["hand"]:  # fanned, but on the felt, and in the window without scrolling
        assert card[0] >= left - 4 and card[2] <= right + 4 and card[3] <= min(bottom, height) + 4
    # every control is reached with the keyboard
    reached = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.id || document.activeElement.className"))
    # among bots alone there is no chat; on a phone the bots' pace waits behind the table's menu
    wanted = {"settings-link", "rules-link", "lang"} | ({"fast"} if width > 600 else {"table-menu"})
    assert wanted <= reached and any("playable" in name for name in reached), reached
    assert not reached & {"chat-text", "chat-toggle"} and page.is_hidden("#chat-box")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_arrow_keys_walk_the_hand_as_it_is_seen_and_a_mouse_is_told_to_click(server, browser, lang):
    page, _ = recorded_page(browser)
    in_language(page, server.base, lang)
    create_table(page, server.base, ["easy"], target=1)
    page.click("#start")
    play_until([page], lambda: page.evaluate(READY) and page.locator("#hand .card").count() >= 3)
    assert ("click a card" if lang == "en" else "کلیک کنید") in page.inner_text("#status")
    cards = page.locator("#hand .card").evaluate_all("cards => cards.map((card) => card.dataset.card)")
    focused = "document.activeElement.dataset.card"
    page.focus(f"#hand .card[data-card='{cards[0]}']")
    page.keyboard.press("ArrowRight" if lang == "en" else "ArrowLeft")  # the next card along the hand as drawn
    assert page.evaluate(focused) == cards[1]
    page.keyboard.press("End")
    assert page.evaluate(focused) == cards[-1]
    page.keyboard.press("Home")
    assert page.evaluate(focused) == cards[0]


def test_the_quick_game_plays_the_last_game_set_up_against_bots_in_one_tap(server, browser):
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    assert page.inner_text("#quick") == "Play now: 2 players, against medium"  # nothing set up yet
    assert page.is_visible("#daily-link") and page.is_visible("#open-tables")  # above the forms
    create_table(page, server.base, ["hard", "easy"], target=1)
    page.goto(server.base + "/")
    assert page.inner_text("#quick") == "Play now: 3 players, against hard and easy"
    page.click("#quick")
    page.wait_for_url("**/t/**")
    page.wait_for_function("pasur.page.state?.table?.status === 'playing'")
    assert page.evaluate("pasur.page.state.table.seats.map((seat) => seat.bot)") == [None, "hard", "easy"]


def test_the_waiting_room_says_what_is_joined_and_the_turn_timer_is_a_clock(server, browser):
    page, _ = recorded_page(browser)
    create_table(page, server.base, ["friend"], timer=60)
    page.wait_for_selector("#waiting:not([hidden])")
    about = page.inner_text("#waiting-about")
    assert "unrated" in about and "Turn timer: 60 s" in about and "to 1" in about
    create_table(page, server.base, ["easy"], timer=30)
    page.click("#start")
    play_until([page], lambda: page.evaluate(READY))
    page.wait_for_function("document.querySelector('#status').classList.contains('timed')")
    left = float(page.evaluate("getComputedStyle(document.querySelector('#status')).getPropertyValue('--left')"))
    assert 0 < left <= 1


def test_on_a_phone_only_the_others_chat_lines_are_counted_unread(server, browser):
    phone = {"width": 390, "height": 844}
    host, _ = recorded_page(browser, viewport=phone)
    url = create_table(host, server.base, ["friend"])
    guest, _ = recorded_page(browser, viewport=phone)
    guest.goto(url)
    guest.fill("#join-form input[name=name]", "Bahram")
    take_a_seat(guest)
    sees_seated(host, 1, "Bahram")
    host.click("#chat-toggle")
    host.fill("#chat-text", "salaam")
    host.press("#chat-text", "Enter")
    guest.wait_for_function("document.querySelector('#chat-toggle').dataset.unread === '1'")  # news to Bahram
    host.reload()
    host.wait_for_function("pasur.page.chatLines?.length === 1")
    assert host.get_attribute("#chat-toggle", "data-unread") == ""  # one's own line is no news


def test_a_move_tapped_while_the_connection_is_down_is_said_not_sent_and_stays_playable(server, browser):
    page, _ = recorded_page(browser)
    create_table(page, server.base, ["easy"], target=1)
    page.click("#start")
    play_until([page], lambda: page.evaluate(READY))
    version = page.evaluate("pasur.page.version")
    sent = page.evaluate("pasur.page.sent?.id ?? null")  # a move played before (its answer is in)
    page.evaluate("Object.defineProperty(WebSocket.prototype, 'readyState', { get: () => 3, configurable: true })")
    page.locator("#hand .card.playable").first.click()
    said = "document.querySelector('#table-error').textContent.includes('Not connected')"
    page.wait_for_function(f"{said} || document.querySelector('#choices .choice') !== null")
    if not page.evaluate(said):  # a card with several captures: its choice
        page.locator("#choices .choice").first.click()
        page.wait_for_function(said)
    assert page.locator("#hand .card.playable").count() > 0 and page.evaluate("pasur.page.sent?.id ?? null") == sent
    assert page.evaluate("pasur.page.version") == version
    assert "on its way" not in page.inner_text("#status")


def test_a_tap_on_a_card_held_while_the_turn_timer_counts_down_still_plays(server, browser):
    """The countdown changes only its own line: a card pressed before a tick and released after it
    is played (the hand redrawn every second would swallow the tap)."""
    page, _ = recorded_page(browser)
    create_table(page, server.base, ["easy"], timer=60)
    page.click("#start")
    play_until([page], lambda: page.evaluate(READY))
    version = page.evaluate("pasur.page.version")
    box = page.locator("#hand .card.playable").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    status = page.text_content("#status")
    page.wait_for_function(f"document.querySelector('#status').textContent !== {json.dumps(status)}")  # a tick
    page.mouse.up()
    if page.locator("#choices .choice").count():
        page.locator("#choices .choice").first.click()
    page.wait_for_function(f"pasur.page.version > {version}", timeout=10_000)


@pytest.mark.long
def test_a_rated_match_against_a_bot_to_the_end_changes_the_rating_on_the_page_and_the_board(server, browser):
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    assert page.is_disabled("#create-form input[name=rated]") and page.is_visible("#rated-note")  # a guest
    use_the_account_dialog(page, "#sign-up")
    page.wait_for_function("!document.querySelector('#create-form input[name=rated]').disabled")
    page.check("#create-form input[name=rated]")
    # the form holds what a rated table needs: the standard rules, a timer, no hints (any of 2, 3, 4 players)
    assert page.input_value("select[name=timer]") == "60" and page.is_disabled("input[name=target]")
    assert not page.is_checked("input[name=hints]") and not page.is_disabled(
        "#create-form select[name=players] option[value='3']"
    )
    page.select_option("select[name=seat1]", "easy")
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.click("#start")
    page.wait_for_selector("#board:not([hidden])")
    assert page.is_visible("#resign") and not page.is_visible("#hint")
    play_until([page], lambda: finished(page), limit=600)  # the whole match, to 62
    page.wait_for_selector("#rating-change:not([hidden])")
    won = page.evaluate("pasur.page.state.winner === pasur.page.state.table.you")
    change = page.inner_text("#rating-change")
    after = int(re.search(r"1500 → (\d+)", change).group(1))
    assert (after > 1500) is won, change
    snap(page, "rated-end")
    page.goto(f"{server.base}/p/Ava")
    page.wait_for_selector("#profile-ratings .rating-box")
    assert page.inner_text("#profile-ratings .rating-box[data-table='2'] strong") == f"{after}?"  # provisional
    assert page.locator("#profile-graph path.line").count() == 1 and page.is_visible("#profile-figures")
    assert f"{after} (" in page.inner_text("#profile-games li")
    snap(page, "rated-profile")
    page.goto(f"{server.base}/leaders")
    page.wait_for_selector("#leaders-table tr td a")
    assert page.inner_text("#leaders-table tr:nth-child(2)").split("\t")[1:3] == ["Ava", f"{after}?"]
    assert page.locator("#leaders-bots li").count() == 6
    page.click("[data-period=week]")
    page.wait_for_function("document.querySelector('#leaders-note').textContent.includes('Monday')")
    page.wait_for_function(
        f"document.querySelector('#leaders-table').innerText.includes('{after - 1500:+d}'.replace('-', '−'))"
    )
    snap(page, "rated-leaders-week")
    # logged out, then in from another browser: the same rating
    page.click("#account-link")
    page.click("#log-out")
    page.wait_for_function("document.querySelector('#account-link-text').textContent === pasur.t('sign_in')")
    other, _ = recorded_page(browser)
    other.goto(server.base + "/")
    use_the_account_dialog(other, "#sign-in")
    other.wait_for_function("document.querySelector('#account-link-text').textContent === 'Ava'")
    other.goto(f"{server.base}/p/Ava")
    other.wait_for_selector("#profile-ratings .rating-box")
    assert other.inner_text("#profile-ratings .rating-box[data-table='2'] strong") == f"{after}?"


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_resigning_a_rated_match_in_the_page_loses_it(server, browser, lang):
    page, _ = recorded_page(browser)
    in_language(page, server.base, lang)
    use_the_account_dialog(page, "#sign-up")
    page.wait_for_function("!document.querySelector('#create-form input[name=rated]').disabled")
    page.check("#create-form input[name=rated]")
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.click("#start")
    page.wait_for_function("!document.querySelector('#resign').hidden")
    for _ in range(2):  # resigned before each side's second move, a match is aborted, not lost
        play_until([page], lambda: page.locator("#hand .card.playable").count() > 0)
        click_a_move(page)
    page.wait_for_function("pasur.page.version >= 4")
    click_resign(page)
    page.click("#resign-no")  # thought better of it: nothing is sent
    assert not page.is_visible("#finished")
    click_resign(page)
    page.press("#resign-dialog", "Escape")
    page.wait_for_timeout(300)
    assert not page.is_visible("#finished")
    click_resign(page)
    page.click("#resign-yes")
    page.wait_for_selector("#finished:not([hidden])")
    assert page.inner_text("#ended") == ("You resigned" if lang == "en" else "شما واگذار کردید")
    page.wait_for_selector("#rating-change:not([hidden])")
    western = page.inner_text("#rating-change").translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789"))
    before, after = map(int, re.search(r"(\d+) [→←] (\d+)", western).groups())
    assert before == 1500 > after
    assert signs_left_of_their_numbers(page, "#rating-change") == 1  # the change, "(−12)"
    assert not page.is_visible("#resign")
    snap(page, f"rated-resigned-{lang}")


def test_the_lobby_makes_a_rated_table_of_four_each_for_themselves(server, browser):
    from pasur.server.bots import BOT_RATINGS_AT

    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    use_the_account_dialog(page, "#sign-up")
    page.wait_for_function("!document.querySelector('#create-form input[name=rated]').disabled")
    page.check("#create-form input[name=rated]")
    page.select_option("#create-form select[name=players]", "4")
    page.locator("#create-form input[name=partnership]").uncheck()  # rated either way at four
    for seat in (1, 2, 3):
        page.select_option(f"select[name=seat{seat}]", "hard")
    assert str(BOT_RATINGS_AT["4-each"]["hard"]) in page.locator("select[name=seat1] option[value=hard]").text_content()
    page.click("#create")
    page.wait_for_url("**/t/**")
    table = page.request.get(f"{server.base}/api/tables/{page.url.rsplit('/', 1)[1]}").json()
    assert table["rated"] is True and table["rules"]["players"] == 4 and table["rules"]["partnership"] is False


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_rated_match_resigned_at_once_is_shown_aborted_and_changes_no_rating(server, browser, lang, size):
    viewport = {"width": 1440, "height": 900} if size == "desktop" else {"width": 390, "height": 844}
    page, _ = recorded_page(browser, viewport=viewport)
    in_language(page, server.base, lang)
    use_the_account_dialog(page, "#sign-up")
    page.wait_for_function("!document.querySelector('#create-form input[name=rated]').disabled")
    page.check("#create-form input[name=rated]")
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.click("#start")
    page.wait_for_function("!document.querySelector('#resign').hidden")
    click_resign(page)
    page.click("#resign-yes")
    page.wait_for_selector("#finished:not([hidden])")
    assert page.inner_text("#winner") == page.evaluate("pasur.t('aborted')")
    assert page.evaluate("pasur.t('aborted_why')") in page.inner_text("#ended")
    assert not page.is_visible("#rating-change")
    snap(page, f"rated-aborted-{size}-{lang}")
    page.goto(f"{server.base}/p/Ava")
    page.wait_for_selector("#profile-games li")
    assert page.evaluate("pasur.t('aborted_short')") in page.inner_text("#profile-games li")
    page.goto(f"{server.base}/leaders")
    page.wait_for_selector("#leaders-fair")
    assert page.inner_text("#leaders-fair") == page.evaluate("pasur.t('fair_note')")
    snap(page, f"leaders-{size}-{lang}")


def test_a_player_invited_by_name_sees_it_in_the_lobby_joins_and_can_block(server, browser):
    ava, _ = recorded_page(browser)
    bahar, _ = recorded_page(browser)
    for page, name in ((bahar, "Bahar"), (ava, "Ava")):
        page.goto(server.base + "/")
        use_the_account_dialog(page, "#sign-up", name=name)
        page.wait_for_function(f"document.querySelector('#account-link-text').textContent === '{name}'")
    url = create_table(ava, server.base, ["friend"], target=62)
    ava.wait_for_selector("#invite-form:not([hidden])")
    ava.fill("#invite-form input[name=name]", "bahar")
    ava.click("#invite-form button")
    ava.wait_for_function("document.querySelector('#invite-note').textContent.includes('Bahar is invited')")
    bahar.wait_for_selector("#invitation-list li")  # the lobby fetches its invitations with its tables
    assert "Ava invites you" in bahar.inner_text("#invitation-list li")
    bahar.click("#invitation-list li a")
    bahar.wait_for_url(url)
    take_a_seat(bahar)
    sees_seated(ava, 1, "Bahar")
    assert not ava.is_visible("#invite-form")  # no seat is free now
    bahar.goto(f"{server.base}/p/Ava")
    bahar.wait_for_selector("#block:not([hidden])")
    assert bahar.inner_text("#block") == "Block"
    bahar.click("#block")
    bahar.wait_for_function("document.querySelector('#block').textContent === 'Unblock'")
    assert httpx.get(f"{server.base}/api/players/Ava").status_code == 200
    snap(bahar, "friends-blocked")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_puzzle_page_asks_a_puzzle_and_answers_a_tap_with_every_moves_worth(server, browser, lang):
    page, _frames = recorded_page(browser)
    in_language(page, server.base, lang)
    page.goto(server.base + "/puzzles")
    page.wait_for_selector("#puzzle-hand .card")
    shown = page.evaluate("document.querySelector('#puzzle-task').textContent")
    assert ("is best" in shown or "are best" in shown) if lang == "en" else ("یک حرکت" in shown or "دو حرکت" in shown)
    page.click("#puzzles-page [data-difficulty='easy']")
    # drawn once the easy puzzle has arrived (the title was already the daily puzzle's)
    page.wait_for_selector("#puzzles-page [data-difficulty='easy'][aria-selected='true']")
    hand = page.locator("#puzzle-hand .card")
    hand.first.click()
    if page.locator("#puzzle-choices .choice").count():
        page.locator("#puzzle-choices .choice").first.click()
    page.wait_for_selector("#puzzle-verdict:not([hidden])")
    # the verdict, the best move ringed green on the felt, and every legal move's exact worth
    assert page.locator("#puzzle-verdict .verdict").count() == 1
    assert page.locator("#puzzles-page .card.mark-best").count() >= 1
    legal = page.evaluate("document.querySelectorAll('#puzzle-verdict .puzzle-values li').length")
    assert legal >= 2 and page.is_disabled("#puzzle-hand .card >> nth=0")
    if lang == "fa":  # numbers as Persian writes them: its digits and decimal separator
        worths = page.inner_text("#puzzle-verdict .puzzle-values")
        assert "٫" in worths and not re.search("[0-9]|[۰-۹][.][۰-۹]", worths), worths
    assert signs_left_of_their_numbers(page, "#puzzle-verdict") >= 1  # the rating's change, the moves' worths
    snap(page, f"puzzle-{lang}")
    page.click("#puzzle-next")  # the next puzzle, not yet tried
    page.wait_for_selector("#puzzle-verdict", state="hidden")


def test_the_puzzles_play_without_the_network_once_the_page_was_opened(server, browser):
    page, _ = recorded_page(browser, viewport={"width": 390, "height": 844})
    page.goto(server.base + "/puzzles")
    page.wait_for_selector("#puzzle-hand .card")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now under the service worker's control, which keeps the shipped puzzles
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=15_000)
    page.wait_for_selector("#puzzle-hand .card")
    online = {part: page.inner_text(f"#puzzle-{part}") for part in ("title", "task", "facts")}
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#puzzle-hand .card")
    # today's puzzle, picked as the server picks it, and the page says it is offline
    assert {part: page.inner_text(f"#puzzle-{part}") for part in ("title", "task", "facts")} == online
    assert "No network" in page.inner_text("#puzzle-error")
    page.locator("#puzzle-hand .card").first.click()
    if page.locator("#puzzle-choices .choice").count():
        page.locator("#puzzle-choices .choice").first.click()
    page.wait_for_selector("#puzzle-verdict:not([hidden])")
    assert page.locator("#puzzle-verdict .puzzle-values li").count() >= 2
    assert page.locator("#puzzles-page .card.mark-best").count() >= 1
    page.click("#puzzles-page [data-difficulty='hard']")  # a stream by difficulty, offline too
    page.wait_for_selector("#puzzles-page [data-difficulty='hard'][aria-selected='true']")
    page.wait_for_selector("#puzzle-verdict", state="hidden")
    assert "hard" in page.inner_text("#puzzle-facts") and page.locator("#puzzle-hand .card").count() >= 1
    page.context.set_offline(False)
    page.context.close()


def test_a_signed_in_persons_puzzle_rating_follows_the_account_to_another_browser(server, browser):
    page, _ = recorded_page(browser)
    page.goto(server.base + "/puzzles")
    page.wait_for_selector("#puzzle-hand .card")
    assert "rating: –" in page.inner_text("#puzzle-standing")
    use_the_account_dialog(page, "#sign-up", name="Puzzler")
    page.wait_for_function("document.querySelector('#account-link-text').textContent === 'Puzzler'")
    page.keyboard.press("Escape")
    page.locator("#puzzle-hand .card").first.click()
    if page.locator("#puzzle-choices .choice").count():
        page.locator("#puzzle-choices .choice").first.click()
    page.wait_for_selector("#puzzle-verdict:not([hidden])")
    standing = page.inner_text("#puzzle-standing")
    assert "rating: –" not in standing and "rating: 1500" not in standing
    other, _ = recorded_page(browser)  # another browser, signed in to the same account
    other.goto(server.base + "/puzzles")
    use_the_account_dialog(other, "#sign-in", name="Puzzler")
    other.wait_for_function("document.querySelector('#account-link-text').textContent === 'Puzzler'")
    other.keyboard.press("Escape")
    other.click("#puzzles-page [data-difficulty='easy']")
    other.wait_for_selector("#puzzles-page [data-difficulty='easy'][aria-selected='true']")
    other.wait_for_function(f"document.querySelector('#puzzle-standing').textContent === {standing!r}")


def test_a_last_deal_puzzle_plays_its_best_line_on_the_felt(server, browser):
    page, _frames = recorded_page(browser)
    page.goto(server.base + "/puzzles")
    page.click("#puzzles-page [data-difficulty='easy']")
    page.wait_for_selector("#puzzles-page [data-difficulty='easy'][aria-selected='true']")
    cards = "(selector) => [...document.querySelectorAll(selector + ' .card')].map((card) => card.dataset.card)"
    for _ in range(60):  # the stream until a puzzle of the last deal, where every card is known
        if "Deal 6 of 6" in page.inner_text("#puzzle-task"):
            break
        title = page.inner_text("#puzzle-title")
        page.click("#puzzle-next")
        page.wait_for_function(f"document.querySelector('#puzzle-title').textContent !== {title!r}")
    position = {part: page.evaluate(cards, f"#puzzle-{part}") for part in ("table", "hand")}
    with page.expect_response("**/answer") as answered:
        page.locator("#puzzle-hand .card").first.click()
        if page.locator("#puzzle-choices .choice").count():
            page.locator("#puzzle-choices .choice").first.click()
    line = answered.value.json()["line"]
    assert line and line[0]["mine"]
    page.wait_for_selector("#puzzle-line:not([hidden])")
    for number, step in enumerate(line, start=1):
        page.click("#puzzle-line-step")
        page.wait_for_function(
            f"document.querySelector('#puzzle-line-said').textContent.startsWith('Move {number} of {len(line)}')"
        )
        assert page.evaluate(cards, "#puzzle-table") == step["table"]
        assert page.evaluate(cards, "#puzzle-hand") == step["hand"]
    assert page.inner_text("#puzzle-line-step") == "Back to the puzzle"
    page.click("#puzzle-line-step")
    assert {part: page.evaluate(cards, f"#puzzle-{part}") for part in ("table", "hand")} == position


def offline_page(server: LiveServer, browser: Any, viewport: dict[str, int]) -> Any:
    """A page that opened the lobby once (so the service worker keeps what offline play needs),
    now with the network gone."""
    page, _ = recorded_page(browser, viewport=viewport)
    page.goto(server.base + "/")
    page.wait_for_selector("#offline-form:not([hidden])")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now under the service worker's control, which keeps the engine
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=15_000)
    page.wait_for_selector("#offline-form:not([hidden])")
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#offline-form:not([hidden])")
    return page


@pytest.mark.parametrize(("players", "level"), [(2, "grandmaster"), (3, "hard"), (4, "medium")])
def test_with_no_network_the_installed_page_plays_a_whole_round_against_bots(server, browser, players, level):
    """With the network off, the lobby offers the computer on this device; a whole round is
    played by clicking (the bots play in the browser's engine), and the page says it is on this
    device; a reload mid-match resumes it where it was, at the pace chosen (Faster bots)."""
    page = offline_page(server, browser, {"width": 390, "height": 844})
    page.fill("#create-form input[name=name]", "Ava")
    page.select_option("#offline-form select[name=players]", str(players))
    page.select_option("#offline-form select[name=level]", level)
    page.click("#offline-form button[type=submit]")
    page.wait_for_url("**/offline")
    page.wait_for_selector("#board:not([hidden])")
    assert page.inner_text("#connection") == "on this device"
    page.click("#rules-link")  # the rules and their pictures, kept by the service worker too
    page.wait_for_selector("#rules-examples figure .example-card")
    page.keyboard.press("Escape")
    for _ in range(3):
        play_until([page], lambda: page.locator("#hand .card.playable").count() > 0, limit=60)
        click_a_move(page)
    in_table_menu(page, "#fast")  # the bots' pause a quarter as long (450 ms a move otherwise)
    page.wait_for_function("JSON.parse(localStorage.getItem('pasur-offline-match')).setup.fast === true")  # kept
    version = page.evaluate("pasur.page.version")
    page.reload()  # the match is kept on the device
    page.wait_for_function(f"pasur.page.version >= {version}", timeout=15_000)
    assert page.evaluate("pasur.page.state.table.fast") is True
    seats = page.evaluate("pasur.page.state.table.seats.map((seat) => seat.bot)")
    assert seats == [None, *[level] * (players - 1)]
    play_until([page], lambda: page.evaluate("pasur.page.state.rounds.length") >= 1 or finished(page), limit=240)
    state = page.evaluate("pasur.page.state")
    breakdown = state["rounds"][0]["sides"]
    assert sum(side["cards"] for side in breakdown) == 52  # every card ended in a pile
    record = json.loads(page.evaluate("localStorage.getItem('pasur-offline-match')"))["record"]
    assert len(record["rounds"][0]["moves"]) == 48  # kept on the device, a record the reference reads
    assert from_record(record).rounds[0].points() == [side["points"] for side in breakdown]
    snap(page, f"offline-round-{players}p")
    page.context.set_offline(False)
    page.context.close()


def test_pass_and_play_on_one_device_hides_each_hand_until_its_person_takes_it(server, browser):
    """Friends on one device, offline: each turn shows the hand of the person to play only after
    they tap "Pass the device to …"; the other person's cards are never on the screen before."""
    page = offline_page(server, browser, {"width": 1280, "height": 800})
    page.fill("#create-form input[name=name]", "Ava")
    page.select_option("#offline-form select[name=level]", "friends")
    page.click("#offline-form button[type=submit]")
    page.wait_for_url("**/offline")
    page.wait_for_selector("#board:not([hidden])")
    for turn in range(4):
        page.wait_for_selector("#hand .handover")
        seat = page.evaluate("pasur.page.state.table.you")
        assert seat == turn % 2 and page.locator("#hand .card").count() == 0
        assert ("Ava" if seat == 0 else "Player 2") in page.inner_text("#hand .handover")
        page.click("#hand .handover")
        hand = page.evaluate("pasur.page.state.view.hand")
        assert sorted(
            page.locator("#hand .card").evaluate_all("(cards) => cards.map((card) => card.dataset.card)")
        ) == sorted(hand)
        click_a_move(page)
    page.context.set_offline(False)
    page.context.close()


def test_a_kept_offline_match_this_engine_cannot_replay_is_dropped_not_stuck(server, browser):
    """A match kept on the device whose moves the engine refuses (a forged save, or rules changed
    by an upgrade) is let go: the page goes back to the start, which offers a new one."""
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("#offline-form:not([hidden])")
    rules = httpx.get(server.base + "/api/offline").json()["defaults"]
    saved = {"setup": {"rules": rules, "seats": [{"name": "Ava"}, {"bot": "easy"}], "seed": "1", "moves": ["4095"]}}
    page.evaluate(
        "(saved) => localStorage.setItem('pasur-offline-match', JSON.stringify(saved))", {**saved, "over": False}
    )
    page.goto(server.base + "/offline")
    page.wait_for_url(server.base + "/")
    page.wait_for_selector("#offline-form:not([hidden])")
    assert page.evaluate("localStorage.getItem('pasur-offline-match')") is None
    assert page.is_hidden("#offline-resume")


def test_with_no_network_learn_to_play_gives_the_lesson_on_this_device(server, browser):
    """Offline, "Learn to play" deals the lesson on this device against its bot, with the coach's
    tips as the server gives them (test_offline holds every tip equal) and the move they suggest."""
    page = offline_page(server, browser, {"width": 390, "height": 844})
    page.click("#learn")
    page.wait_for_url("**/offline")
    page.wait_for_function("window.pasur?.page.state?.legal?.length > 0")
    coach = page.locator("#coach")
    coach.wait_for()
    assert "Welcome to Pasur" in coach.inner_text() and "5 + 6 = 11" in coach.inner_text()
    assert page.locator("#hand .card.suggested").get_attribute("data-card") == "5H"
    snap(page, "offline-lesson-390")
    page.click("#hand .card.suggested")
    page.wait_for_function("pasur.page.state?.version >= 2 && pasur.page.state.legal.length > 0")
    assert "Queen one Queen" in coach.inner_text()
    assert page.locator("#hand .card.suggested").get_attribute("data-card") == "6H"
    page.context.set_offline(False)


def test_an_offline_engine_and_levels_from_two_versions_say_so_and_keep_the_match(server, browser):
    """The device holds /api/offline of another engine than the one it holds (half an upgrade):
    the table does not start on a mismatch, says to open the page once online, and the kept match
    stays to be played on."""
    page = offline_page(server, browser, {"width": 390, "height": 844})
    about = httpx.get(server.base + "/api/offline").json()
    stale = {**about, "version": about["version"].split("+")[0] + "+000000000000"}
    page.evaluate(
        """async (stale) => {
          const [name] = await caches.keys();
          const headers = { "content-type": "application/json" };
          await (await caches.open(name)).put("/api/offline", new Response(JSON.stringify(stale), { headers }));
        }""",
        stale,
    )
    saved = {
        "setup": {"rules": about["defaults"], "seats": [{"name": "Ava"}, {"bot": "hard"}], "seed": "3", "moves": []}
    }
    page.evaluate(
        "(saved) => localStorage.setItem('pasur-offline-match', JSON.stringify(saved))", {**saved, "over": False}
    )
    page.goto(server.base + "/offline")
    page.wait_for_function("document.querySelector('#table-error').textContent.includes('network on')")
    assert page.evaluate("JSON.parse(localStorage.getItem('pasur-offline-match')).setup.seed") == "3"
    page.context.set_offline(False)


def test_a_finished_offline_match_is_listed_on_the_device_with_its_record(server, browser):
    """A match on this device played to its end (a one-round match here) joins the start page's
    list of matches on this device, with the score, won or lost, and its record to download, which
    the reference replays to the same scores."""
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("#offline-form:not([hidden])")
    assert page.is_hidden("#offline-history")
    rules = {**httpx.get(server.base + "/api/offline").json()["defaults"], "target": 1}
    saved = {
        "setup": {"rules": rules, "seats": [{"name": "Ava"}, {"bot": "easy"}], "seed": "5", "moves": [], "fast": True},
        "over": False,
    }
    page.evaluate("(saved) => localStorage.setItem('pasur-offline-match', JSON.stringify(saved))", saved)
    page.goto(server.base + "/offline")
    play_until([page], lambda: finished(page), limit=240)
    scores = page.evaluate("pasur.page.state.scores")
    page.goto(server.base + "/")
    page.wait_for_selector("#offline-history:not([hidden])")
    entries = page.locator("#offline-history-list li")
    assert entries.count() == 1 and " – ".join(map(str, scores)) in entries.first.inner_text()
    href = entries.first.locator("a").get_attribute("href")
    record = json.loads(page.evaluate("async (href) => (await fetch(href)).text()", href))
    assert from_record(record).scores == scores
    assert entries.first.locator("button").is_hidden()  # adding it needs an account
    account = page.request.post(f"{server.base}/api/account", data={"name": "Darya", "password": "felt and four cards"})
    assert account.ok, account.text()
    page.reload()
    page.locator("#offline-history-list li button").click()  # added to the account, unrated
    added = page.locator("#offline-history-list li a", has_text="In my matches")
    added.wait_for()
    table = added.get_attribute("href").split("/t/")[1].split("#")[0]
    [entry] = httpx.get(f"{server.base}/api/players/Darya").json()["history"]
    assert entry["table"] == table and entry["device"] and not entry["rated"] and entry["scores"] == scores
    page.goto(f"{server.base}/p/Darya")
    page.wait_for_selector("#profile-games li")
    assert "on a device" in page.inner_text("#profile-games li")
    # in Persian the entry's parts are set apart by a bar: a middle dot beside its digits reads as ۰
    page.evaluate("localStorage.setItem('pasur-lang', 'fa')")
    page.goto(server.base + "/")
    page.wait_for_selector("#offline-history:not([hidden])")
    shown = page.inner_text("#offline-history-list li")
    assert "·" not in shown and shown.count(" | ") == 3, shown


def test_damaged_offline_keepings_leave_the_start_page_working(server, browser):
    """What the device keeps for offline play, damaged (not JSON, the wrong type), is let go: the
    start page still offers offline play, and /offline goes back to it."""
    page, _ = recorded_page(browser)
    page.goto(server.base + "/")
    page.evaluate(
        "localStorage.setItem('pasur-offline-match', '{not json'); localStorage.setItem('pasur-offline-history', '7')"
    )
    page.reload()
    page.wait_for_selector("#offline-form:not([hidden])")
    assert page.is_hidden("#offline-resume") and page.is_hidden("#offline-history")
    page.goto(server.base + "/offline")
    page.wait_for_url(server.base + "/")
    page.wait_for_selector("#offline-form:not([hidden])")
