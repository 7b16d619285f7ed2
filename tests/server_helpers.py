"""The web server tests' helpers: the test settings, making a table, a seated WebSocket, reading
states and answers, playing a match through, and losing another process's notices."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from pasur.server.rows import Base
from pasur.server.settings import ServerSettings
from pasur.server.shared import Hub

#: Every table of the server's schema (from its rows, so none is missed), dependants first, and
#: the migrations' own: what a test drops to empty a database.
EVERY_TABLE = ", ".join([*(table.name for table in reversed(Base.metadata.sorted_tables)), "alembic_version"])

#: The test client calls itself "testserver"; bots move at once; a test answers far faster than a
#: person and takes many seats, so the pace and join limits are out of the way
#: (tests/test_hostile.py sets its own to test them).
TEST_SETTINGS = ServerSettings(
    allowed_hosts=("testserver",),
    bot_delay=0,
    timers=(0, 1),
    messages_per_second=100_000,
    joins_per_minute=10_000,
    advice_seconds=10_000,
    analysis_ms=200,
)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body = {"name": "Ava", "seats": ["easy"], **body}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


@contextlib.contextmanager
def seated(client: TestClient, table_id: str, token: str | None = None, since: int | None = None) -> Iterator[Any]:
    """A WebSocket to a table that has said hello (with the seat's token; none: a spectator)."""
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        socket.send_json({"type": "hello", "token": token, "since": since})
        yield socket


def next_state(socket: Any, until: Any = None) -> dict[str, Any]:
    """The next state message (the next for which ``until`` holds), skipping acknowledgements."""
    while True:
        message = socket.receive_json()
        if message["type"] == "state" and (until is None or until(message)):
            return dict(message)


def answer(socket: Any) -> dict[str, Any]:
    """The next message that is not a state, presence or chat line: the answer to what was sent."""
    while True:
        message = socket.receive_json()
        if message["type"] not in ("state", "presence", "chat"):
            return dict(message)


def start(socket: Any) -> dict[str, Any]:
    """Start the match as host; the first state of the match in which this seat may move (its
    answer must be ``started``; presence messages may come between)."""
    socket.send_json({"type": "start"})
    started, latest = False, None
    while not (started and latest is not None and latest.get("legal")):
        message = socket.receive_json()
        if message["type"] == "state":
            latest = message
        elif message["type"] != "presence":  # who is here is told a moment after they come
            assert message == {"type": "started"}
            started = True
    return dict(latest)


def play_to_the_end(
    socket: Any, frames: list[dict[str, Any]], stop_after: int | None = None, first: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Answer every state that offers moves with its first legal move (``first`` is a state
    already received), until the match is over (or ``stop_after`` moves); every message is kept
    in ``frames``."""
    played = 0
    while True:
        message = first if first is not None else socket.receive_json()
        first = None
        frames.append(message)
        if message["type"] != "state":
            # a move answering a state the table has since moved past (a bot played, a round was
            # dealt on) is refused as stale, and the newer state offers the move again, as the page does
            stale = message["type"] == "refused" and message.get("reason") == "stale_version"
            assert stale or message["type"] in ("ack", "started", "presence", "dealt_on"), message
            continue
        if message["table"]["status"] == "finished":
            return message
        if message["table"]["you"] in (message.get("waiting") or ()):
            socket.send_json({"type": "continue"})  # the round is over: deal on
        if message.get("legal"):
            if stop_after is not None and played >= stop_after:
                return message
            move = message["legal"][0]["text"]
            socket.send_json(
                {"type": "move", "version": message["version"], "move": move, "id": f"v{message['version']}"}
            )
            played += 1


#: Seconds between two asks for a review: the page's pace (the asks a visitor may make a minute are
#: bounded, and a review judged slowly on a busy machine must not run into the bound).
REVIEW_ASKED_EVERY = 2.0


def reviewed(client: TestClient, table_id: str, guard: float = 240) -> dict[str, Any]:
    """The finished match's review once whole, asked for as the page asks; ``guard`` seconds is a
    guard against a hang, not a speed goal."""
    deadline = time.monotonic() + guard
    while not (report := client.get(f"/api/tables/{table_id}/analysis").json())["done"]:
        assert time.monotonic() < deadline, report
        time.sleep(REVIEW_ASKED_EVERY)
    return dict(report)


def notices_heard(hub: Hub) -> list[dict[str, Any]]:
    """The list every notice from other processes that ``hub`` receives from now on goes to."""
    received = hub._received
    heard: list[dict[str, Any]] = []

    async def noting(payload: str, on_notice: Any) -> None:
        heard.append(json.loads(payload))
        await received(payload, on_notice)

    hub._received = noting  # type: ignore[method-assign]
    return heard


def lose_notices(hub: Hub, count: int) -> None:
    """The next ``count`` notices from other processes that ``hub`` receives are lost, as a
    dropped notification would be."""
    received = hub._received
    left = [count]

    async def losing(payload: str, on_notice: Any) -> None:
        if left[0] > 0:
            left[0] -= 1
            return
        await received(payload, on_notice)

    hub._received = losing  # type: ignore[method-assign]
