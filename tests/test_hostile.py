"""The server against a hostile visitor: every finding of the security review replayed, and
requests and messages of every shape (hypothesis). After each, nothing changed that should not
have, no program ran, and other tables still answer."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gzip
import io
import json
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import httpx
import uvicorn
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine
from starlette.websockets import WebSocketDisconnect

from pasur import Match, Rules
from pasur.bots import SolverBot, make_bot
from pasur.server.app import create_app
from pasur.server.bots import BotPool, Level, server_levels
from pasur.server.guard import guarded_http
from pasur.server.lobby import Lobby
from pasur.server.settings import ServerSettings
from pasur.server.visitors import forwarded_hosts

from .server_helpers import (
    TEST_SETTINGS,
    answer,
    create,
    next_state,
    notices_heard,
    play_to_the_end,
    seated,
    start,
)

SPELLINGS_OF_A_PROGRAM = [
    "exec:touch /tmp/pasur-hostile",
    " EXEC:touch /tmp/pasur-hostile",
    "exec :touch /tmp/pasur-hostile",
    "Exec:/bin/sh -c id",
    "pimc:playouts=1000000000",
    "master:playouts=1000000000",
    "ismcts:iterations=999999999",
    "hard:ms=999999",
    "x" * 1_000,
]


@pytest.fixture
def no_programs(monkeypatch) -> None:
    """Any attempt to start a program fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"the server tried to start a program: {args!r}")

    monkeypatch.setattr(subprocess, "Popen", refuse)


@pytest.fixture
def client(tmp_path, no_programs) -> Iterator[TestClient]:
    roomy = dataclasses.replace(TEST_SETTINGS, tables_per_minute=100_000)  # hypothesis makes many
    with TestClient(create_app(f"sqlite:///{tmp_path / 'pasur.db'}", roomy)) as test_client:
        yield test_client


def _tables(client: TestClient) -> int:
    return len(client.app.state.lobby.rooms)  # type: ignore[attr-defined]


# -- 1, 2: nothing of a visitor's runs; bot work is bounded -----------------------------------------


@pytest.mark.parametrize("spec", SPELLINGS_OF_A_PROGRAM)
def test_a_visitor_names_levels_only(client, spec):
    for body in ({"seats": [spec]}, {"seats": ["friend"], "fill_level": spec}):
        response = client.post("/api/tables", json={"name": "Ava", **body})
        assert response.status_code in (400, 422), response.text
        assert response.json()["reason"] in ("bad_level", "not_understood")
    assert _tables(client) == 0


def test_a_stored_table_naming_a_program_is_refused_at_restore(tmp_path, no_programs, caplog):
    database = f"sqlite:///{tmp_path / 'pasur.db'}"
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        table = create(client, seats=["friend"])
    engine = create_engine(database)
    with engine.begin() as connection:
        row = connection.exec_driver_sql("SELECT settings FROM tables WHERE id = ?", (table["id"],)).scalar_one()
        settings_json = json.loads(row)
        settings_json["seats"][1] = {"name": "x", "bot": "exec:touch /tmp/pasur-hostile", "token_hash": None}
        connection.exec_driver_sql(
            "UPDATE tables SET settings = ?, status = 'playing' WHERE id = ?", (json.dumps(settings_json), table["id"])
        )
    engine.dispose()
    with (
        caplog.at_level(logging.WARNING, logger="pasur.server"),
        TestClient(create_app(database, TEST_SETTINGS)) as again,
    ):
        assert table["id"] not in again.app.state.lobby.rooms  # type: ignore[attr-defined]
        refused = again.get(f"/api/tables/{table['id']}")
        assert refused.status_code == 404 and refused.json()["reason"] == "table_refused"
    assert "exec:touch" in caplog.text and "does not offer" in caplog.text


def test_every_level_thinks_within_the_ceiling():
    levels = server_levels(40, {"champion": "pimc:playouts=5000,ms=9000", "exact": "solver:samples=100000"})
    assert set(levels) == {"beginner", "easy", "medium", "hard", "master", "grandmaster", "champion", "exact"}
    assert levels["exact"].searches and levels["exact"].spec == "solver:samples=100000,ms=40"
    for level in levels.values():
        if level.searches:
            assert "ms=40" in level.spec, level
    assert levels["hard"].spec == "ismcts:iterations=1000,ms=40"  # the level's own budget, capped in time
    assert levels["champion"].spec == "pimc:playouts=5000,ms=40"
    assert levels["grandmaster"].spec == f"solver:samples={SolverBot.DEFAULT_SAMPLES},ms=40"
    with pytest.raises(ValueError, match="command line"):
        server_levels(40, {"evil": "exec:sh"})
    with pytest.raises(ValueError, match="playouts"):
        server_levels(40, {"odd": "pimc:playouts=many"})
    with pytest.raises(ValueError, match="playouts must be 0"):
        server_levels(40, {"odd": "solver:playouts=-1"})
    # the solver's playouts (with three or more sides) think within the ceiling too: half of it
    vast = server_levels(40, {"vast": "solver:playouts=1000000000"})["vast"]
    assert "ms=40" in vast.spec and make_bot(vast.spec)._playouts.ms == 20


def test_searching_bots_run_in_a_worker_process_taken_fairly_by_address():
    """One address with many waiting moves does not delay another address's one move."""
    game = Match(Rules(), seed=3).round
    view, legal = game.view(0), game.legal_moves()
    pool = BotPool({"medium": Level("medium", "expert"), "search": Level("search", "pimc:playouts=2")}, workers=1)

    async def run() -> list[str]:
        finished: list[str] = []

        async def one(owner: str, index: int) -> None:
            move = await pool.move(owner, "search", index, view, legal)
            assert move in legal
            finished.append(owner)

        await asyncio.gather(*[one("flood", index) for index in range(6)], one("friend", 99))
        return finished

    try:
        order = asyncio.run(run())
    finally:
        pool.close()
    assert order.index("friend") <= 2, order  # round-robin: after at most one of the flood's


def test_advice_waits_behind_bot_moves_and_is_bounded_per_visitor():
    """Hints flooding in from ten visitors: a bot move asked after them is taken next, and a
    visitor's advice past its share waiting is refused (issue 31, item 2)."""
    from pasur.server.bots import ADVICE_WAITING
    from pasur.server.errors import TooManyRequests

    game = Match(Rules(), seed=3).round
    view, legal = game.view(0), game.legal_moves()
    pool = BotPool({"medium": Level("medium", "expert"), "search": Level("search", "pimc:playouts=2")}, 1, hint_ms=20)

    async def run() -> list[str]:
        finished: list[str] = []

        async def hint_for(owner: str, seed: int) -> None:
            await pool.think_hint(owner, view, legal, seed)
            finished.append("hint")

        flood = [asyncio.create_task(hint_for(f"visitor {n}", i)) for n in range(10) for i in range(ADVICE_WAITING)]
        await asyncio.sleep(0)  # every hint is in line
        with pytest.raises(TooManyRequests):  # visitor 5's hints all wait (visitor 0's first is being thought)
            await pool.think_hint("visitor 5", view, legal, 99)
        assert await pool.move("friend", "search", 99, view, legal) in legal
        finished.append("move")
        await asyncio.gather(*flood)
        assert pool.waiting() == 0  # nothing left for the worker once the flood is answered
        return finished

    try:
        order = asyncio.run(run())
    finally:
        pool.close()
    assert order.index("move") <= 1, order  # after at most the hint the worker was already thinking


def test_a_visitors_advice_past_its_cpu_budget_a_minute_is_refused_until_the_minute_has_passed():
    from pasur.server.errors import TooManyRequests

    game = Match(Rules(), seed=3).round
    view, legal = game.view(0), game.legal_moves()
    now = [1000.0]
    levels = {"medium": Level("medium", "expert")}
    pool = BotPool(levels, 1, hint_ms=150, advice_budget=0.2, clock=lambda: now[0])

    async def run() -> None:
        asked = 0
        with pytest.raises(TooManyRequests):  # each search takes up to 150 ms of the worker's CPU
            while asked < 20:
                asked += 1
                await pool.think_hint("flood", view, legal, asked)
        assert pool.advice_spent("flood") >= 0.2  # measured in the worker, not guessed
        assert asked >= 2  # the first ask, with nothing spent, was answered
        await pool.think_hint("friend", view, legal, 4)  # another visitor is not held up
        now[0] += 61
        await pool.think_hint("flood", view, legal, 5)  # a minute on, it may ask again

    try:
        asyncio.run(run())
    finally:
        pool.close()


WORKERS_THEN_DIE = """
import asyncio, json, os
from pasur import Match, Rules
from pasur.server.bots import BotPool, server_levels
if __name__ == "__main__":
    pool = BotPool(server_levels(50), workers=2)
    game = Match(Rules(), seed=1).round
    async def main():
        await asyncio.gather(*(pool.move(str(n), "master", n, game.view(0), game.legal_moves()) for n in range(4)))
    asyncio.run(main())
    print(json.dumps(list(pool._executor._processes)), flush=True)
    os._exit(0)  # as a server killed with -9 would: no shutdown
"""


def test_bot_workers_end_with_the_server(tmp_path):
    script = tmp_path / "server.py"
    script.write_text(WORKERS_THEN_DIE)
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    workers = json.loads(result.stdout.splitlines()[-1])
    assert len(workers) == 2
    deadline = time.monotonic() + 10
    alive = list(workers)
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in alive if _running(pid)]
    assert not alive, f"bot workers outlived their server: {alive}"


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has ended, whoever reaps it
        return stat.read().split(") ")[-1][0] != "Z"


def test_master_bots_play_at_the_server(client):
    table = create(client, seats=["master"], rules={"target": 1})
    with seated(client, table["id"], table["token"]) as socket:
        state = start(socket)
        socket.send_json({"type": "move", "version": state["version"], "move": state["legal"][0]["text"], "id": "a"})
        after = next_state(socket, lambda message: message.get("legal") and message["version"] >= 2)
        assert after["version"] >= 2  # the master bot answered, from a worker process


# -- 3: bounded requests --------------------------------------------------------------------------


def test_request_bodies_are_bounded(client):
    huge = client.post(
        "/api/tables", content=b"{" + b" " * 100_000 + b"}", headers={"content-type": "application/json"}
    )
    assert huge.status_code == 413 and huge.json()["reason"] == "too_large"
    assert "fa" in huge.json()["messages"]
    elsewhere = client.post("/nowhere", content=b"x" * 100_000)
    assert elsewhere.status_code == 413
    unknown_field = client.post("/api/tables", json={"name": "Ava", "seats": ["easy"], "extra": "x" * 1000})
    assert unknown_field.status_code == 422 and "extra" in unknown_field.json()["error"]
    assert _tables(client) == 0


class GuardedServer:
    """``pasur serve``'s app and HTTP protocol in a thread, with short limits."""

    def __init__(self, tmp_path: Any, send_buffer: int | None = None, database: str = "", **limits: Any) -> None:
        """``send_buffer``: the kernel's send buffer of every connection, in bytes (its default
        otherwise, which on this loopback holds megabytes before a send waits); ``database``: a
        database URL (a SQLite file in ``tmp_path`` by default)."""
        self.settings = ServerSettings(**limits)
        listening = socket.socket()
        if send_buffer is not None:  # accepted connections take it from the listening socket
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        listening.bind(("127.0.0.1", 0))
        self.port = listening.getsockname()[1]
        self.app = create_app(database or f"sqlite:///{tmp_path / 'live.db'}", self.settings)
        # as pasur serve runs it: X-Forwarded-For is the app's to read, from trusted proxies only
        config = uvicorn.Config(self.app, log_level="warning", http=guarded_http(self.settings), proxy_headers=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [listening]}, daemon=True)

    def __enter__(self) -> GuardedServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.should_exit = True
        self.thread.join(15)

    def connect(self) -> socket.socket:
        connection = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        return connection

    def ask(self, raw: bytes) -> bytes:
        with self.connect() as connection:
            connection.sendall(raw)
            return _read_all(connection)


def _read_all(connection: socket.socket) -> bytes:
    data = b""
    while chunk := connection.recv(65536):
        data += chunk
    return data


def test_the_door_limits_slow_and_many_connections(tmp_path, no_programs):
    with GuardedServer(tmp_path, header_seconds=0.5, body_seconds=0.5, connections_per_address=4) as server:
        # a body announced as 100 MB is refused before it is read
        answer = server.ask(
            b"POST /api/tables HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100000000\r\n\r\n12345678"
        )
        assert answer.startswith(b"HTTP/1.1 413") and b"too_large" in answer
        # a body that stops coming is answered 408 once its time is up
        with server.connect() as slow:
            slow.sendall(b"POST /api/tables HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100\r\n\r\n12345678")
            assert _read_all(slow).startswith(b"HTTP/1.1 408")
        # headers that never end: the connection is closed
        with server.connect() as dawdler:
            dawdler.sendall(b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ")
            assert _read_all(dawdler) == b""  # closed by the server (the socket's own timeout would raise)
        # too many open connections from one address: the next is told so
        held = [server.connect() for _ in range(4)]
        try:
            time.sleep(0.1)
            with server.connect() as one_too_many:  # told at once, before it sends anything
                assert _read_all(one_too_many).startswith(b"HTTP/1.1 429")
        finally:
            for connection in held:
                connection.close()
        time.sleep(0.3)
        assert server.ask(b"GET /api/tables/none HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n").startswith(
            b"HTTP/1.1 404"
        )
        # headers larger than allowed
        big = b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: " + b"a" * 20_000 + b"\r\n\r\n"
        assert server.ask(big).startswith(b"HTTP/1.1 431")


# -- 4, 5: spectators, presence, message budgets, deep JSON -----------------------------------------


def test_spectators_are_capped_and_their_coming_and_going_is_one_small_message(tmp_path, no_programs):
    limits = ServerSettings(allowed_hosts=("testserver",), bot_delay=0, spectators_per_table=3)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", limits)) as client:
        table = create(client, seats=["friend"])
        with seated(client, table["id"], table["token"]) as host:
            first = next_state(host)
            watchers = [seated(client, table["id"]) for _ in range(3)]
            sockets = [watcher.__enter__() for watcher in watchers]
            for watcher in sockets:
                next_state(watcher)
            with seated(client, table["id"]) as fourth:
                refused = fourth.receive_json()
                assert refused["reason"] == "too_many_spectators"
                with pytest.raises(WebSocketDisconnect):
                    fourth.receive_json()
            for watcher in reversed(watchers):
                watcher.__exit__(None, None, None)
            time.sleep(0.4)
            host.send_json({"type": "ping"})
            seen = []
            while (message := host.receive_json())["type"] != "pong":
                seen.append(message)
            assert all(message["type"] == "presence" for message in seen), seen
            assert 1 <= len(seen) <= 3 and seen[-1]["spectators"] == 0
            assert first["version"] == 0


def resident_kib() -> int:
    """This process's resident memory (the server runs in one of its threads), in KiB."""
    status = Path("/proc/self/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1])


def never_reading_spectator(port: int, table_id: str) -> socket.socket:
    """A spectator that opens a table's socket, says hello and never reads again (with a small
    receive buffer, so what the server sends it soon has nowhere to go)."""
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.connect(("127.0.0.1", port))
    connection.sendall(
        f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += connection.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    hello, mask = b'{"type": "hello", "token": null}', os.urandom(4)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(hello))
    connection.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + masked)  # one masked text frame
    return connection


def play_rounds(url: str, token: str, rounds: int, host: bool, acks: list[float]) -> None:
    """One person: plays the first legal move at each turn and deals on, until ``rounds`` rounds
    are over; the time from each move to its acknowledgement goes in ``acks``."""
    from websockets.sync.client import connect

    with connect(url, max_size=None) as person:
        person.send(json.dumps({"type": "hello", "token": token}))
        if host:
            person.send(json.dumps({"type": "start"}))
        sent = 0.0
        while True:
            message = json.loads(person.recv(timeout=60))
            if message["type"] == "ack":
                acks.append(time.perf_counter() - sent)
            if message["type"] != "state" or message["table"]["status"] == "open":
                continue
            if len(message["rounds"]) >= rounds or message["table"]["status"] == "finished":
                return
            if message["table"]["you"] in (message.get("waiting") or ()):
                person.send(json.dumps({"type": "continue"}))
            elif message.get("legal"):
                move = {"type": "move", "version": message["version"], "move": message["legal"][0]["text"]}
                sent = time.perf_counter()
                person.send(json.dumps(move))


def test_a_spectator_that_never_reads_holds_up_no_table_and_is_let_go(tmp_path, no_programs):
    limits = {"allowed_hosts": ("127.0.0.1",), "bot_delay": 0, "messages_per_second": 100_000}
    with GuardedServer(tmp_path, send_buffer=4096, send_seconds=1.0, **limits) as server:
        base = f"http://127.0.0.1:{server.port}"
        body = {"name": "Ava", "seats": ["friend"], "rules": {"target": 500}}
        made = httpx.post(f"{base}/api/tables", json=body).json()
        friend = httpx.post(f"{base}/api/tables/{made['id']}/join", json={"name": "Bo"}).json()
        room = server.app.state.lobby.get(made["id"])
        memory_before = resident_kib()
        stuck = never_reading_spectator(server.port, made["id"])
        try:
            deadline = time.monotonic() + 10
            while not room.audience.spectators():
                assert time.monotonic() < deadline
                time.sleep(0.01)
            url = f"ws://127.0.0.1:{server.port}/ws/{made['id']}"
            acks: list[float] = []
            people = [
                threading.Thread(target=play_rounds, args=(url, made["token"], 3, True, acks)),
                threading.Thread(target=play_rounds, args=(url, friend["token"], 3, False, acks)),
            ]
            for person in people:
                person.start()
            for person in people:
                person.join(120)  # a guard against a hang: a frozen table never gets there
                assert not person.is_alive(), "a player was held up"
            # three rounds played while the spectator read nothing; it was let go, its socket still open
            assert len(room.match.rounds) >= 3
            while room.audience.spectators():
                assert time.monotonic() < deadline + 120, "the spectator was never let go"
                time.sleep(0.05)
            assert stuck.fileno() != -1
            acks.sort()
            print(f"{len(acks)} acknowledgements beside a stuck spectator: p50 {acks[len(acks) // 2] * 1e3:.1f} ms,")
            print(f"p99 {acks[int(len(acks) * 0.99)] * 1e3:.1f} ms, largest {acks[-1] * 1e3:.1f} ms;")
            print(f"the server's process grew {resident_kib() - memory_before} KiB meanwhile")
        finally:
            stuck.close()


def test_messages_are_budgeted_per_address_across_connections(tmp_path, no_programs):
    limits = ServerSettings(allowed_hosts=("testserver",), bot_delay=0, messages_per_second=20)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", limits)) as client:
        table = create(client, seats=["friend"])
        with seated(client, table["id"]) as one, seated(client, table["id"]) as two:
            next_state(one)
            next_state(two)
            answers = []
            for _ in range(15):
                for socket_ in (one, two):
                    socket_.send_json({"type": "ping"})
            for socket_ in (one, two):
                while len([answer for answer in answers if answer.get("_from") is socket_]) < 15:
                    message = socket_.receive_json()
                    if message["type"] in ("pong", "error"):
                        answers.append({**message, "_from": socket_})
            refused = [answer for answer in answers if answer.get("reason") == "too_many_messages"]
            assert len(refused) >= 5  # 30 messages, 20 allowed a second over both


def test_deeply_nested_json_is_refused_and_the_socket_stays(client):
    table = create(client, seats=["friend"])
    with seated(client, table["id"], table["token"]) as socket_:
        next_state(socket_)
        for depth in (20, 800, 990, 5000):
            socket_.send_text("[" * depth + "]" * depth)
            answer = _answer(socket_)
            assert answer["reason"] == "not_understood" and "deeper" in answer["message"]
        socket_.send_json({"type": "ping"})
        assert _answer(socket_)["type"] == "pong"


def test_oversized_messages_and_hellos_are_refused(client):
    table = create(client, seats=["friend"])
    with seated(client, table["id"], table["token"]) as socket_:
        next_state(socket_)
        socket_.send_text(json.dumps({"type": "ping", "pad": "x" * 20_000}))
        answer = _answer(socket_)
        assert answer["reason"] == "not_understood" and "longer than" in answer["message"]
        socket_.send_json({"type": "ping"})
        assert _answer(socket_)["type"] == "pong"
    for hello in ("[" * 5000 + "]" * 5000, json.dumps({"type": "hello", "token": "t" * 20_000}), "null"):
        with client.websocket_connect(f"/ws/{table['id']}") as socket_:
            socket_.send_text(hello)
            assert socket_.receive_json()["reason"] == "no_hello"


def _answer(socket_: Any) -> dict[str, Any]:
    while True:
        message = socket_.receive_json()
        if message["type"] not in ("state", "presence"):
            return dict(message)


# -- 6: move ids ---------------------------------------------------------------------------------


def test_a_move_id_reused_for_another_move_is_refused(client):
    table = create(client, seats=["friend"])
    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bahram"}).json()
    with seated(client, table["id"], table["token"]) as host, seated(client, table["id"], joined["token"]) as guest:
        state = start(host)
        move = state["legal"][0]["text"]
        host.send_json({"type": "move", "version": state["version"], "move": move, "id": "same"})
        assert _answer(host)["type"] == "ack"
        host.send_json({"type": "move", "version": state["version"], "move": move, "id": "same"})
        assert _answer(host)["repeated"] is True
        other = state["legal"][-1]["text"] if len(state["legal"]) > 1 else "KS"
        host.send_json({"type": "move", "version": state["version"], "move": other + "x", "id": "same"})
        refused = _answer(host)
        assert refused["type"] == "refused" and refused["reason"] == "id_reused"
        assert "شناسه" in refused["messages"]["fa"]
        # ids are each seat's own: the guest's "same" is a new move of the guest's
        guest_state = next_state(guest, lambda message: bool(message.get("legal")))
        guest_move = guest_state["legal"][0]["text"]
        guest.send_json({"type": "move", "version": guest_state["version"], "move": guest_move, "id": "same"})
        assert _answer(guest) == {"type": "ack", "id": "same", "version": 2}
        with seated(client, table["id"]) as spectator:
            spectator.send_json({"type": "move", "version": 2, "move": move, "id": "same"})
            assert _answer(spectator)["reason"] == "no_seat"


# -- 7, 8: names and options ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["O'Brien", "Sam & Max", "<b>Ava</b>", "شیرین", "李雷", "  Ava  ", "Zoë", "علی\u200cرضا", "Ava 👩🏽\u200d💻"],
)
def test_ordinary_names_of_any_script_are_taken_and_kept_as_text(client, name):
    table = create(client, name=name, seats=["friend"])
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert seats[0]["name"] == name.strip()


def test_a_name_that_passes_for_another_at_the_table_is_refused(client):
    table = create(client, name="Host", seats=["friend", "friend"], rules={"players": 3})
    # a Greek capital Eta, a zero, a Cherokee Ꮋ and an Armenian Օ (Unicode's confusables, UTS #39)
    for look_alike in ("host", "\u0397ost", "H0st", "\u13bbost", "H\u0555st"):
        refused = client.post(f"/api/tables/{table['id']}/join", json={"name": look_alike})
        assert refused.status_code == 400 and refused.json()["reason"] == "name_taken_here", look_alike
    assert client.post(f"/api/tables/{table['id']}/join", json={"name": "Hostess"}).status_code == 200


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("   ", "name_empty"),
        ("\u3164\u2800", "name_empty"),  # a Hangul filler and a blank braille cell show nothing
        ("\u200b\u200b", "name_control"),
        ("Host\u200b", "name_control"),
        ("Ava\u200f", "name_control"),  # a right-to-left mark
        ("Ava\U000e0041", "name_control"),  # a tag character
        ("Ava\u2028Bob", "name_control"),
        ("a" + "\u0301" * 150, "name_control"),  # one letter under 150 accents
        ("Shirin (medium)", "name_reserved"),
        ("Ava\u202eevil", "name_control"),
        ("Ava\u2067", "name_control"),
        ("Ava\x7f", "name_control"),
        ("Ava\nBob", "name_control"),
        ("x" * 33, "name_too_long"),
    ],
)
def test_names_that_hide_or_bend_text_are_refused_with_a_reason(client, name, reason):
    response = client.post("/api/tables", json={"name": name, "seats": ["easy"]})
    assert response.status_code == 400 and response.json()["reason"] == reason
    assert response.json()["messages"]["fa"] != response.json()["messages"]["en"]
    assert _tables(client) == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rules": {"target": 10**15}}, "target"),
        ({"rules": {"target": 0}}, "target"),
        ({"rules": {"sur_cutoff": -5}}, "sur_cutoff"),
        ({"rules": {"players": 7}, "seats": ["easy"] * 6}, "players"),
        ({"rules": {"haft_khaj": "all"}}, "haft_khaj"),
        ({"rules": {"partnership": "yes"}}, "partnership"),
        ({"rules": {"nonsense": 1}}, "nonsense"),
        ({"timer": 45}, "timer"),
        ({"timer": -1}, "timer"),
        ({"seats": ["x" * 1_000]}, "seats"),
        ({"seats": ["easy"] * 100}, "seats"),
    ],
)
def test_every_option_is_range_checked_naming_the_field(client, body, field):
    response = client.post("/api/tables", json={"name": "Ava", "seats": ["easy"], **body})
    assert response.status_code in (400, 422) and field in response.json()["error"], response.text
    assert _tables(client) == 0


# -- 9: the database down ----------------------------------------------------------------------


def test_a_database_outage_is_refused_and_keeps_the_socket(client):
    table = create(client, seats=["friend"])
    store = client.app.state.lobby.store  # type: ignore[attr-defined]
    working = store.engine
    with seated(client, table["id"], table["token"]) as socket_:
        state = start(socket_)
        store.engine = create_engine(
            "postgresql+psycopg://nobody@127.0.0.1:1/none", connect_args={"connect_timeout": 1}
        )
        try:
            move = state["legal"][0]["text"]
            socket_.send_json({"type": "move", "version": state["version"], "move": move, "id": "m1"})
            refused = _answer(socket_)
            assert refused["reason"] == "storage_unavailable" and refused["version"] == state["version"]
            created = client.post("/api/tables", json={"name": "Ava", "seats": ["easy"]})
            assert created.status_code == 503 and created.json()["reason"] == "storage_unavailable"
            joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "B"})
            assert joined.status_code in (400, 503)
        finally:
            store.engine = working
        socket_.send_json({"type": "move", "version": state["version"], "move": move, "id": "m1"})
        assert _answer(socket_) == {"type": "ack", "id": "m1", "version": state["version"] + 1}


# -- visitors: networks, and addresses behind a proxy (issue 31, items 3 and 6) -----------------------


def test_addresses_of_one_network_are_one_visitor(tmp_path):
    from pasur.server.visitors import network_of

    settings = ServerSettings()
    assert network_of("203.0.113.5", settings) == network_of("203.0.113.250", settings) == "203.0.113.0/24"
    assert network_of("203.0.114.5", settings) == "203.0.114.0/24"
    assert network_of("2001:db8:1:2:aaaa::1", settings) == network_of("2001:db8:1:2:ffff::9", settings)
    assert network_of("2001:db8:1:3::1", settings) == "2001:db8:1:3::/64"
    assert network_of("::ffff:203.0.113.9", settings) == "203.0.113.0/24"  # IPv4 written as IPv6
    assert network_of("testclient", settings) == "testclient"
    assert network_of("203.0.113.5", dataclasses.replace(settings, ipv4_prefix=32)) == "203.0.113.5/32"
    # the limits count networks: a second address of one network shares the first's tables a minute
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", dataclasses.replace(TEST_SETTINGS, tables_per_minute=2))
    made = []
    for address in ("203.0.113.5", "203.0.113.6", "203.0.113.7", "198.51.100.1"):
        with TestClient(app, client=(address, 5000)) as visitor:
            made.append(visitor.post("/api/tables", json={"name": "Ava", "seats": ["easy"]}).status_code)
    assert made == [200, 200, 429, 200]


def source_address_client(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any of 127.0.0.0/8 is this machine)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def deploy_nginx_config(front: int, ports: list[int], tls: tuple[Path, Path] | None = None) -> str:
    """docs/DEPLOY.md's nginx example, listening on ``front`` (with TLS when given the
    certificate and key files ``tls``, else without), in front of ``ports`` (its two upstream
    servers; one port stands for both)."""
    document = (Path(__file__).parent.parent / "docs" / "DEPLOY.md").read_text(encoding="utf-8")
    example = document.split("```nginx\n", 1)[1].split("```", 1)[0]
    if tls is None:
        lines = [line for line in example.splitlines() if not line.strip().startswith(("ssl_", "server_name"))]
        example = "\n".join(lines).replace("listen 443 ssl;", f"listen 127.0.0.1:{front};")
    else:
        certificate, key = tls
        example = example.replace("listen 443 ssl;", f"listen 127.0.0.1:{front} ssl;")
        example = re.sub(r"ssl_certificate +\S+;", f"ssl_certificate {certificate};", example)
        example = re.sub(r"ssl_certificate_key +\S+;", f"ssl_certificate_key {key};", example)
    first, second = (ports * 2)[:2]
    return example.replace("127.0.0.1:8001", f"127.0.0.1:{first}").replace("127.0.0.1:8002", f"127.0.0.1:{second}")


@contextlib.contextmanager
def nginx_in_front_of(port: int | list[int], folder: Path, tls: tuple[Path, Path] | None = None) -> Iterator[int]:
    """Debian's nginx, set up as docs/DEPLOY.md's example (X-Forwarded-For appended, WebSockets
    upgraded, each table's sockets routed to one of ``port``; with TLS given ``tls``); its port."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        pytest.skip("no nginx here (scripts/test.sh installs Debian's)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        front = probe.getsockname()[1]
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in kinds)
    config = folder / "nginx.conf"
    site = deploy_nginx_config(front, port if isinstance(port, list) else [port], tls)
    config.write_text(
        f"error_log {folder / 'error.log'}; pid {folder / 'nginx.pid'};\n"
        "events { worker_connections 256; }\n"
        f"http {{ access_log off; {temp}\n{site}\n}}\n"
    )
    process = subprocess.Popen(
        [nginx, "-p", str(folder), "-c", str(config), "-g", "daemon off; master_process off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", front), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()  # type: ignore[union-attr]
                time.sleep(0.05)
        yield front
    finally:
        process.terminate()
        process.wait(10)


def test_behind_nginx_visitors_are_counted_apart_and_forged_addresses_change_nothing(tmp_path):
    limits = {"allowed_hosts": ("127.0.0.1",), "bot_delay": 0, "tables_per_minute": 2}
    with (
        GuardedServer(tmp_path, trusted_proxies=("127.0.0.1",), **limits) as server,
        nginx_in_front_of(server.port, tmp_path) as front,
    ):
        body = {"name": "Ava", "seats": ["easy"]}

        def tables_made(address: str, url: str, forged: list[str]) -> list[int]:
            with source_address_client(address) as visitor:
                return [
                    visitor.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": lie}).status_code
                    for lie in forged
                ]

        through_proxy = f"http://127.0.0.1:{front}"
        # one visitor, a new made-up address each time: still one visitor, limited at 2
        assert tables_made("127.0.1.2", through_proxy, ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) == [
            200,
            200,
            429,
        ]
        # another visitor through the same proxy is counted apart
        assert tables_made("127.0.2.3", through_proxy, ["127.0.1.2", "198.51.100.4"]) == [200, 200]
        # straight to the server, not from the proxy: the header is not believed at all
        direct = f"http://127.0.0.1:{server.port}"
        assert tables_made("127.0.3.4", direct, ["198.51.100.5", "198.51.100.6", "198.51.100.7"]) == [200, 200, 429]


def test_forwarded_elements_are_read_from_the_right_and_a_visitors_open_quote_ends_at_its_comma():
    assert forwarded_hosts("for=192.0.2.60;proto=https;by=203.0.113.43") == (["192.0.2.60"], "https")
    assert forwarded_hosts('for="[2001:db8:cafe::17]:4711", For="192.0.2.43:47011"') == (
        ["2001:db8:cafe::17", "192.0.2.43"],
        None,
    )
    # a visitor's element left unreadable (an open quote) does not swallow the proxy's own
    assert forwarded_hosts('for="198.51.100.9, for=192.0.2.1') == (["unknown", "192.0.2.1"], None)
    assert forwarded_hosts("for=_hidden, by=10.0.0.1, ") == (["_hidden", "unknown", "unknown"], None)


def test_behind_a_proxy_that_writes_forwarded_its_last_untrusted_for_is_the_visitor(tmp_path):
    limits = {"allowed_hosts": ("127.0.0.1",), "bot_delay": 0, "tables_per_minute": 2}
    with GuardedServer(tmp_path, trusted_proxies=("127.0.0.1",), proxy_header="forwarded", **limits) as server:
        url = f"http://127.0.0.1:{server.port}"
        body = {"name": "Ava", "seats": ["easy"]}

        def tables_made(address: str, headers: list[dict[str, str]]) -> list[int]:
            with source_address_client(address) as client:
                return [client.post(f"{url}/api/tables", json=body, headers=sent).status_code for sent in headers]

        visitor = "for=198.51.100.1;proto=http"
        # the proxy (127.0.0.1) names one visitor: limited at 2, whatever comes before its element
        # and whatever X-Forwarded-For the visitor added (such a proxy passes it on untouched)
        assert tables_made(
            "127.0.0.1",
            [
                {"Forwarded": visitor},
                {"Forwarded": f"for=203.0.113.7, {visitor}"},
                {"Forwarded": visitor, "X-Forwarded-For": "203.0.113.8"},
            ],
        ) == [200, 200, 429]
        # another visitor through it, written as RFC 7239 writes IPv6, is counted apart
        assert tables_made("127.0.0.1", [{"Forwarded": 'for="[2001:db8::1]:4711"'}]) == [200]
        # a peer that is not a trusted proxy is its own visitor, whatever it says
        forged = [{"Forwarded": f"for=203.0.113.{n}"} for n in range(3)]
        assert tables_made("127.0.3.4", forged) == [200, 200, 429]


def test_behind_nginx_as_deployed_each_tables_sockets_reach_one_process_and_the_other_stays_idle(tmp_path):
    """docs/DEPLOY.md's nginx in front of two processes over one PostgreSQL database: every socket
    of a table goes to one of them, and the other follows none of its moves."""
    from .test_shared import POSTGRES, fresh_database

    if not POSTGRES:
        pytest.skip("set PASUR_TEST_POSTGRES (scripts/test.sh starts one)")
    from websockets.sync.client import connect

    limits = {"allowed_hosts": ("127.0.0.1",), "bot_delay": 0, "trusted_proxies": ("127.0.0.1",)}
    database = fresh_database()
    with (
        GuardedServer(tmp_path, database=database, **limits) as first,
        GuardedServer(tmp_path, database=database, **limits) as second,
        nginx_in_front_of([first.port, second.port], tmp_path) as front,
        httpx.Client(base_url=f"http://127.0.0.1:{front}", timeout=10) as client,
    ):
        lobbies = [first.app.state.lobby, second.app.state.lobby]
        heard = [notices_heard(lobby.hub) for lobby in lobbies]
        finished: dict[str, int] = {}
        for _ in range(6):  # tables of two friends, each played a few moves through nginx
            made = client.post("/api/tables", json={"name": "Ava", "seats": ["friend"], "rules": {"target": 10}}).json()
            token = client.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"}).json()["token"]
            path = f"ws://127.0.0.1:{front}/ws/{made['id']}"
            with connect(path) as host, connect(path) as friend:
                sockets = [host, friend]
                for socket_, seat_token in zip(sockets, [made["token"], token], strict=True):
                    socket_.send(json.dumps({"type": "hello", "token": seat_token}))
                host.send(json.dumps({"type": "start"}))
                version, deadline = 0, time.monotonic() + 30
                while version < 6:
                    assert time.monotonic() < deadline, version
                    for socket_ in sockets:
                        with contextlib.suppress(TimeoutError):
                            state = json.loads(socket_.recv(timeout=0.05))
                            if state["type"] == "state" and state.get("legal"):
                                move = {"type": "move", "version": state["version"], "move": state["legal"][0]["text"]}
                                socket_.send(json.dumps(move))
                            version = max(version, state.get("version", 0))
                listening = [
                    len(lobby.rooms[made["id"]].audience.listeners) for lobby in lobbies if made["id"] in lobby.rooms
                ]
            assert sorted(listening)[-1] == 2 and sum(listening) == 2, listening  # both sockets in one process
            finished[made["id"]] = version
        deadline = time.monotonic() + 5
        while any(made not in lobby.rooms for made in finished for lobby in lobbies) and time.monotonic() < deadline:
            time.sleep(0.1)
        for table_id, version in finished.items():
            rooms = [lobby.rooms[table_id] for lobby in lobbies]
            # the process its sockets were not in heard none of its moves, and played none
            assert sorted(room.version >= version for room in rooms) == [False, True], [r.version for r in rooms]
            idle = [room.version >= version for room in rooms].index(False)
            assert not [notice for notice in heard[idle] if notice["table"] == table_id and notice["kind"] == "move"]


def test_a_trusted_proxys_connections_are_not_capped_as_one_visitor(tmp_path):
    limits = {"allowed_hosts": ("127.0.0.1",), "connections_per_address": 2}
    with GuardedServer(tmp_path, trusted_proxies=("127.0.0.1",), **limits) as server:

        def open_from(address: str, count: int) -> list[socket.socket]:
            target = ("127.0.0.1", server.port)
            held = [socket.create_connection(target, timeout=5, source_address=(address, 0)) for _ in range(count)]
            time.sleep(0.2)
            return held

        proxy, visitor = open_from("127.0.0.1", 4), open_from("127.0.1.2", 3)
        try:
            for connection in proxy + visitor:
                connection.setblocking(False)
            told = []
            for connection in proxy + visitor:
                try:
                    told.append(connection.recv(100).startswith(b"HTTP/1.1 429"))
                except BlockingIOError:
                    told.append(False)
            assert told == [False] * 4 + [False, False, True]  # the proxy's 4 stand; the visitor's third is refused
        finally:
            for connection in proxy + visitor:
                connection.close()


# -- 10: host names and origins ------------------------------------------------------------------


def test_other_host_names_and_foreign_pages_are_refused(client):
    assert client.get("/", headers={"host": "evil.example"}).status_code == 421
    assert client.get("/", headers={"host": "evil.example"}).json()["reason"] == "bad_host"
    assert client.get("/").status_code == 200
    table = create(client, seats=["friend"])
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/{table['id']}", headers={"origin": "http://evil.example"}) as socket_,
    ):
        socket_.receive_json()
    assert closed.value.code == 4403
    with client.websocket_connect(f"/ws/{table['id']}", headers={"origin": "http://testserver:8000"}) as socket_:
        socket_.send_json({"type": "hello"})
        assert next_state(socket_)["table"]["id"] == table["id"]


# -- every shape of request and message ------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(max_size=40) | JSON,
        "rules": st.dictionaries(
            st.sampled_from(["players", "target", "sur_cutoff", "partnership", "haft_khaj", "x"]), JSON
        )
        | JSON,
        "seats": st.lists(st.sampled_from(["friend", "easy", "exec:id", "pimc:playouts=9"]) | st.text(), max_size=5)
        | JSON,
        "timer": st.integers() | JSON,
        "fill_level": st.text(max_size=50) | JSON,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=FIELDS | JSON)
def test_any_request_body_is_answered_without_harm(client, body):
    before = _tables(client)
    response = client.post("/api/tables", json=body)
    assert response.status_code in (200, 400, 422), response.text
    answer = response.json()
    if response.status_code == 200:
        assert _tables(client) == before + 1
    else:
        assert _tables(client) == before and answer["reason"] and answer["messages"]["fa"]


MESSAGES = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "start", "ping", "hello", "chat", "", "MOVE"])},
        optional={"version": JSON | st.integers(-5, 5), "move": JSON | st.text(max_size=30), "id": JSON},
    )
    | JSON
)


@pytest.fixture
def a_table_under_way(tmp_path, no_programs) -> Iterator[tuple[TestClient, Any, dict[str, Any], Any]]:
    """A started two-person table, its guest's socket, and a spectator of another table; the
    message budget is lifted, since hypothesis sends fast."""
    roomy = ServerSettings(allowed_hosts=("testserver",), bot_delay=0, messages_per_second=1_000_000)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", roomy)) as client:
        table = create(client, seats=["friend"])
        other = create(client, seats=["friend"])
        joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "B"}).json()
        with (
            seated(client, table["id"], table["token"]) as host,
            seated(client, table["id"], joined["token"]) as guest,
            seated(client, other["id"]) as elsewhere,
        ):
            start(host)
            yield client, guest, table, elsewhere


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=MESSAGES | st.text(max_size=200).map(lambda text: {"raw": text}))
def test_any_socket_message_is_answered_without_harm(a_table_under_way, message):
    """The guest (not on turn, or on turn with a random message) sends anything: it gets one
    answer, the table moves on only through an acknowledged move, and another table still answers."""
    client, guest, table, elsewhere = a_table_under_way
    room = client.app.state.lobby.rooms[table["id"]]  # type: ignore[attr-defined]
    version = room.version
    raw = message["raw"] if isinstance(message, dict) and set(message) == {"raw"} else json.dumps(message)
    guest.send_text(raw)
    answer = _answer(guest)
    assert answer["type"] in ("error", "refused", "pong", "ack", "started"), answer
    if answer["type"] in ("error", "refused"):
        assert answer["reason"] and answer["messages"]["fa"]
    assert room.version == version + (1 if answer["type"] == "ack" and not answer.get("repeated") else 0)
    for socket_ in (guest, elsewhere):
        socket_.send_json({"type": "ping"})
        assert _answer(socket_)["type"] == "pong"


# -- 11: files and bots on the command line ----------------------------------------------------------


def test_resuming_a_file_that_names_a_program_asks_first(tmp_path):
    from pasur.tui.session import LocalGame, SeatPlan

    marker = tmp_path / "ran"
    program = f"exec:{sys.executable} -c \"open('{marker}', 'w')\""
    game = LocalGame(Rules(target=5), [SeatPlan("me"), SeatPlan("them", program)], seed=1, allow_exec=True)
    save = tmp_path / "save.json"
    game.save(save)
    command = [sys.executable, "-m", "pasur", "play", "--resume", str(save), "--plain"]
    refused = subprocess.run(command, input="q\n", capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "--allow-exec" in refused.stderr and sys.executable in refused.stderr
    assert "Traceback" not in refused.stderr and not marker.exists()
    allowed = subprocess.run([*command, "--allow-exec"], input="q\n", capture_output=True, text=True, timeout=60)
    assert allowed.returncode == 0, allowed.stderr


@pytest.mark.parametrize(
    "spec", ["ismcts:iterations=999999999", "pimc:playouts=999999999", "solver:samples=999999999,nodes=0"]
)
def test_a_saved_game_cannot_ask_its_bots_to_think_without_end(tmp_path, monkeypatch, spec):
    from pasur.tui import session
    from pasur.tui.session import LocalGame, SeatPlan

    save = tmp_path / "save.json"
    LocalGame(
        Rules(players=3, target=5), [SeatPlan("me"), SeatPlan("them", spec), SeatPlan("her", "hard")], seed=1
    ).save(save)
    monkeypatch.setattr(session, "SAVED_BOT_MS", 50)
    game = LocalGame.load(save)
    # a bot named with options thinks at most SAVED_BOT_MS a move; a level keeps its own bound, as saved
    assert [plan.bot for plan in game.plans] == [None, f"{spec},ms=50", "hard"]
    game.play(game.legal_moves()[0])
    (played, fault), _ = list(game.play_bots())  # uncapped, the first would think for hours
    assert played.seat == 1 and fault is None


def test_a_saved_game_whose_names_would_steer_the_terminal_is_refused(tmp_path):
    from pasur.tui.session import LocalGame, SeatPlan

    save = tmp_path / "save.json"
    LocalGame(Rules(), [SeatPlan("me"), SeatPlan("them", "easy")], seed=1).save(save)
    saved = json.loads(save.read_text(encoding="utf-8"))
    saved["pasur_play"]["seats"][1]["name"] = "\x1b]0;owned\x07them"
    save.write_text(json.dumps(saved), encoding="utf-8")
    command = [sys.executable, "-m", "pasur", "play", "--resume", str(save), "--plain"]
    refused = subprocess.run(command, input="q\n", capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "a seat's name holds control characters" in refused.stderr
    assert "\x1b" not in refused.stdout + refused.stderr and "Traceback" not in refused.stderr


def test_a_saved_program_cannot_disguise_itself_in_the_consent_it_asks_for(tmp_path):
    from pasur.tui.session import LocalGame, SeatPlan

    marker = tmp_path / "ran"
    save = tmp_path / "save.json"
    LocalGame(Rules(), [SeatPlan("me"), SeatPlan("them", "easy")], seed=1).save(save)
    saved = json.loads(save.read_text(encoding="utf-8"))
    # shown raw, the carriage return and the erase-line sequence would leave only the harmless-looking part
    disguised = f"exec:{sys.executable} -c \"open('{marker}', 'w')\" \r\x1b[2K  exec:python3 my_bot.py"
    saved["pasur_play"]["seats"][1]["bot"] = disguised
    save.write_text(json.dumps(saved), encoding="utf-8")
    command = [sys.executable, "-m", "pasur", "play", "--resume", str(save), "--plain", "--allow-exec"]
    refused = subprocess.run(command, input="q\n", capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "a seat's bot holds characters that do not print" in refused.stderr
    assert "\x1b" not in refused.stderr and not marker.exists()


def test_a_faulty_bots_answer_is_cut_and_never_shows_its_view():
    from pasur.bots import BotError
    from pasur.bots.protocol import ExternalBot

    echo = f"{sys.executable} -c \"import sys\nfor line in sys.stdin: print(line, end='', flush=True)\""
    bot = ExternalBot(echo, timeout=5)
    game = Match(Rules(), seed=4).round
    view = game.view(0)
    try:
        with pytest.raises(BotError) as fault:
            bot.choose(view, game.legal_moves())
    finally:
        bot.close()
    shown = str(fault.value)
    assert fault.value.reason == "bot_no_move_text" and len(fault.value.answer or "") <= 80
    assert not any(str(card) in shown for card in view.hand), shown


#: JSON nested past what Python's parser goes (its RecursionError was an internal error, or crashed a bot).
TOO_DEEP = "[" * 20_000 + "]" * 20_000


def test_json_nested_too_deeply_is_refused_as_not_json_by_every_reader(tmp_path):
    from pasur.bots import BotError
    from pasur.bots.protocol import PROTOCOL, ExternalBot, serve
    from pasur.core.record import replay_line

    # a record, and one line of JSON Lines among others
    assert replay_line(TOO_DEEP)["error"]["message"] == "not JSON: nested too deeply at line 1 column 1"
    # a bot's answer: a fault of its own, not a crash of the match
    answering = f"{sys.executable} -c \"import sys\nfor line in sys.stdin: print('[' * 20_000, flush=True)\""
    bot = ExternalBot(answering, timeout=5)
    game = Match(Rules(), seed=4).round
    try:
        with pytest.raises(BotError) as fault:
            bot.choose(game.view(0), game.legal_moves())
    finally:
        bot.close()
    assert fault.value.reason == "bot_not_json"
    # a served bot: the message is skipped, said on standard error, and the next one answered
    said, errors = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(errors):
        hello = json.dumps({"type": "hello", "protocol": PROTOCOL})
        serve(make_bot("random"), "r", io.StringIO(f"{TOO_DEEP}\n{hello}\n"), said)
    assert "nested too deeply" in errors.getvalue() and json.loads(said.getvalue())["type"] == "hello"
    # a targets file (python -m pasur.train fit)
    from pasur.train.targets import read_targets

    deep = tmp_path / "deep.jsonl.gz"
    with gzip.open(deep, "wt", encoding="utf-8") as sink:
        sink.write("[" * 3_000 + "\n")
    with pytest.raises(ValueError, match="is not a targets file: nested too deeply"):
        read_targets(deep)


def test_two_sockets_of_one_seat_moving_at_once_get_one_move_applied(client):
    """The store is waited for off the event loop: while one move is being stored, another for the
    same version (a second tab of the same seat) waits for the table, then is refused; the move is
    stored and played once."""
    table = create(client, seats=["friend"])
    assert client.post(f"/api/tables/{table['id']}/join", json={"name": "Bea"}).status_code == 200  # no bot
    room = client.app.state.lobby.get(table["id"])  # type: ignore[attr-defined]
    store = room.store
    storing = store.add_move

    def slow_add_move(*args: Any, **kwargs: Any) -> None:
        storing(*args, **kwargs)
        time.sleep(0.3)  # stored, not yet played: the other socket's move arrives meanwhile

    with seated(client, table["id"], table["token"]) as first, seated(client, table["id"], table["token"]) as second:
        state = start(first)
        texts = [legal["text"] for legal in state["legal"]]
        store.add_move = slow_add_move
        try:
            first.send_json({"type": "move", "version": state["version"], "move": texts[0], "id": "tab-1"})
            time.sleep(0.1)
            second.send_json({"type": "move", "version": state["version"], "move": texts[-1], "id": "tab-2"})
            answers = [_answer(first), _answer(second)]
        finally:
            store.add_move = storing
    assert answers[0] == {"type": "ack", "id": "tab-1", "version": 1}
    assert answers[1]["reason"] == "stale_version", answers[1]
    assert [(move.version, move.move) for move in store.moves(table["id"])] == [(1, texts[0])]
    assert room.version == 1 and room.match.turn == 1 and len(room.match.rounds[-1].history) == 1


# -- seat squatting (issue 31, item 7) --------------------------------------------------------------


def test_seats_taken_are_limited_per_visitor(tmp_path):
    limited = dataclasses.replace(TEST_SETTINGS, joins_per_minute=3, tables_per_minute=100)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", limited)) as client:
        tables = [create(client, seats=["friend", "friend"], rules={"players": 3}, public=True) for _ in range(2)]
        answers = [
            client.post(f"/api/tables/{table['id']}/join", json={"name": f"Squatter {number}"})
            for number, table in enumerate(tables * 2)
        ]
        assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
        assert answers[-1].json()["reason"] == "too_many_joins" and "fa" in answers[-1].json()["messages"]
        assert client.get(f"/api/tables/{tables[1]['id']}").json()["seats"][2]["open"]  # nothing changed


def test_the_host_frees_the_seat_of_someone_away(client):
    table = create(client, seats=["friend", "friend"], rules={"players": 3})
    joined = [client.post(f"/api/tables/{table['id']}/join", json={"name": name}).json() for name in ("Bo", "Cy")]
    with seated(client, table["id"], table["token"]) as host, seated(client, table["id"], joined[1]["token"]) as here:
        next_state(here)
        next_state(host)
        refusals = ((here, 1, "only_host_frees"), (host, 0, "own_seat"), (host, 2, "player_here"))
        for who, seat, reason in (*refusals, (host, 3, "no_person_there")):
            who.send_json({"type": "free", "seat": seat})
            assert answer(who)["reason"] == reason
        host.send_json({"type": "free", "seat": 1})  # Bo never came
        assert answer(host) == {"type": "freed", "seat": 1}
        seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
        assert seats[1]["open"] and seats[2]["name"] == "Cy"
    with seated(client, table["id"], joined[0]["token"]) as gone:  # Bo's token holds nothing now
        assert answer(gone)["reason"] == "bad_token"


def test_after_the_start_a_bot_plays_for_a_person_away_when_the_host_says_so(client):
    table = create(client, seats=["friend"], rules={"target": 1})
    client.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"})
    with seated(client, table["id"], table["token"]) as host:
        first = start(host)
        host.send_json({"type": "move", "version": first["version"], "move": first["legal"][0]["text"]})
        while (message := host.receive_json())["type"] != "ack":
            pass
        host.send_json({"type": "free", "seat": 1})  # Bo, whose turn it is, never came
        latest = first
        while (message := host.receive_json())["type"] != "freed":
            assert message["type"] in ("state", "presence"), message
            latest = message if message["type"] == "state" else latest
        final = play_to_the_end(host, [], first=latest)  # Bo never came: the match ends only if a bot plays for him
    assert final["table"]["status"] == "finished" and final["table"]["seats"][1]["bot"] == "medium"


# -- nothing kept for ever (issue 31, item 9) ---------------------------------------------------------


def test_tables_left_untouched_are_deleted_or_ended_and_let_go(tmp_path, monkeypatch):
    database = f"sqlite:///{tmp_path / 'p.db'}"
    quick = dataclasses.replace(TEST_SETTINGS, abandoned_hours=0.5 / 3600, tables_per_minute=1000)  # half a second
    # the retiring waits until every table is made: on a slow machine making them takes longer than half a second
    made = threading.Event()
    retire = Lobby.retire_abandoned

    async def retire_once_made(self: Lobby, hours: float) -> tuple[int, int]:
        return await retire(self, hours) if made.is_set() else (0, 0)

    monkeypatch.setattr(Lobby, "retire_abandoned", retire_once_made)
    with TestClient(create_app(database, quick)) as client:
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        never_started = [create(client, seats=["friend"], public=True)["id"] for _ in range(30)]
        with seated(client, never_started[0]) as watcher:  # someone says something, and goes
            next_state(watcher)
        started = []
        for _ in range(10):
            table = create(client, seats=["easy"])
            with seated(client, table["id"], table["token"]) as host:
                first = start(host)
                host.send_json({"type": "move", "version": first["version"], "move": first["legal"][0]["text"]})
                while host.receive_json()["type"] != "ack":
                    pass
            started.append(table["id"])
        assert len(lobby.rooms) == 40  # all of them are still here
        made.set()
        deadline = time.monotonic() + 30  # a guard against a hang: the sweep comes every 1/8 s
        while lobby.rooms:
            assert time.monotonic() < deadline, len(lobby.rooms)
            time.sleep(0.1)
        assert client.get("/api/tables").json()["tables"] == []
        gone = client.get(f"/api/tables/{never_started[5]}")
        assert gone.status_code == 404
        ended = client.get(f"/api/tables/{started[0]}").json()
        assert ended["status"] == "abandoned"
    engine = create_engine(database)
    with engine.connect() as connection:
        statuses = dict(connection.exec_driver_sql("SELECT status, COUNT(*) FROM tables GROUP BY status").all())
        moves = connection.exec_driver_sql("SELECT COUNT(DISTINCT table_id) FROM moves").scalar_one()
    engine.dispose()
    assert statuses == {"abandoned": 10} and moves == 10  # the never-started are gone; the moves kept
    with TestClient(create_app(database, TEST_SETTINGS)) as again:  # nothing of them is read in again
        assert again.app.state.lobby.rooms == {}  # type: ignore[attr-defined]
        with seated(again, started[0]) as watcher:
            state = next_state(watcher)
        assert state["table"]["status"] == "abandoned" and state["legal"] == []


# -- a locked SQLite file (issue 31, item 10) ----------------------------------------------------------


@pytest.mark.parametrize("writing", ["move", "chat", "start", "create", "join"])
def test_a_locked_sqlite_file_holds_up_only_the_table_that_writes(tmp_path, writing):
    import sqlite3

    path = tmp_path / "p.db"
    with TestClient(create_app(f"sqlite:///{path}", TEST_SETTINGS)) as client:
        table = create(client, seats=["friend" if writing == "join" else "easy"])
        with seated(client, table["id"], table["token"]) as host:
            first = start(host) if writing in ("move", "chat") else next_state(host)
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")  # another process holds the file's write lock
            asked: list[int] = []  # an HTTP request's status, asked in a thread of its own
            try:
                if writing == "move":
                    move = first["legal"][0]["text"]
                    host.send_json({"type": "move", "version": first["version"], "move": move, "id": "m1"})
                elif writing in ("chat", "start"):
                    host.send_json({"type": "chat", "text": "salaam"} if writing == "chat" else {"type": "start"})
                else:
                    path_, body = (
                        ("/api/tables", {"name": "Bo", "seats": ["easy"]})
                        if writing == "create"
                        else (f"/api/tables/{table['id']}/join", {"name": "Bo"})
                    )
                    asking = threading.Thread(target=lambda: asked.append(client.post(path_, json=body).status_code))
                    asking.start()
                    time.sleep(0.3)  # the write is waiting for the file
                answered = threading.Event()
                helper = threading.Thread(target=lambda: client.get("/api/help") and answered.set())
                helper.start()
                # the page answers while the write waits for the file (the loop is not held)
                answered_while_locked = answered.wait(3)
                assert not asked  # the change itself waits
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            helper.join(10)
            if writing in ("create", "join"):
                asking.join(10)
                assert asked == [200]
            else:
                answers = {"move": "ack", "chat": "said", "start": "started"}
                while (message := host.receive_json())["type"] != answers[writing]:
                    assert message["type"] in ("state", "presence", "chat"), message
        assert answered_while_locked
        status = client.get(f"/api/tables/{table['id']}").json()["status"]
        assert status == ("open" if writing in ("create", "join") else "playing")


def test_a_tables_chat_is_kept_to_its_last_lines(tmp_path):
    from pasur.server.store import CHAT_LINES_STORED, Store

    store = Store(f"sqlite:///{tmp_path / 'p.db'}")
    try:
        store.create_table("chatty", {}, "playing")
        for number in range(CHAT_LINES_STORED + 60):
            line = {"channel": "players", "seat": 0, "name": "Ava", "text": f"line {number} " + "🙂" * 150}
            store.add_chat("chatty", line)
        store.add_chat("chatty", {"channel": "spectators", "seat": None, "name": "Bo", "text": "hello"})
        kept = store.chat("chatty", "players", 10_000)
        assert len(kept) == CHAT_LINES_STORED and kept[-1]["text"].startswith(f"line {CHAT_LINES_STORED + 59} ")
        assert kept[0]["text"].startswith("line 60 ")  # the oldest went
        assert [line["text"] for line in store.chat("chatty", "spectators", 10)] == ["hello"]  # each channel its own
    finally:
        store.close()
