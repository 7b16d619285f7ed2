"""The web server over HTTP and WebSocket (Starlette's test client): tables, seats, versioned
moves, bad input, spectators, hidden hands, the turn timer, and resuming from the database."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import itertools
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

import pasur.server
from pasur.bots import LEVELS

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pasur import CARDS, Rules, from_record
from pasur.coach.analysis import ALLOWED
from pasur.i18n import text
from pasur.server.app import create_app
from pasur.server.lobby import OPEN_TABLE_SECONDS
from pasur.server.shared import Hub
from pasur.server.store import Store
from pasur.server.visitors import RateLimit

from .helpers import cards_named, hidden_from
from .server_helpers import TEST_SETTINGS, answer, create, next_state, play_to_the_end, reviewed, seated, start

POSTGRES = os.environ.get("PASUR_TEST_POSTGRES")
PERSIAN_LETTER = re.compile("[\u0600-\u06ff]")


@pytest.fixture
def database(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'pasur.db'}"


@pytest.fixture
def client(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as test_client:
        yield test_client


# -- tables and seats ------------------------------------------------------------------------------


def test_bad_table_requests_get_clear_errors(client):
    too_long = client.post("/api/tables", json={"name": "x" * 40, "seats": ["easy"]})
    assert too_long.status_code == 400 and too_long.json()["reason"] == "name_too_long"
    response = client.post("/api/tables", json={"name": "Ava", "seats": ["easy"], "rules": {"players": 9}})
    assert response.status_code == 400 and "players" in response.json()["error"]
    response = client.post("/api/tables", json={"name": "Ava", "seats": ["wizard"]})
    assert response.status_code == 400 and "wizard" in response.json()["error"]
    response = client.post("/api/tables", json={"name": "Ava", "seats": []})
    assert response.status_code == 400 and "other 1 seats" in response.json()["error"]
    missing = client.get("/api/tables/nope")
    assert missing.status_code == 404 and missing.json()["error"] == "there is no such table"
    assert missing.json()["messages"] == {"en": "there is no such table", "fa": "چنین میزی وجود ندارد"}
    assert client.post("/api/tables", content=b"{", headers={"content-type": "application/json"}).status_code == 422
    unnamed = client.post("/api/tables", json={"seats": ["easy"]})
    assert unnamed.status_code == 422 and unnamed.json()["reason"] == "not_understood"
    assert unnamed.json()["error"] == "not understood: name: Field required"
    assert unnamed.json()["messages"]["fa"] == "پیام فهمیده نشد"


def test_table_creation_is_rate_limited(client):
    answers = [client.post("/api/tables", json={"name": "Ava", "seats": ["easy"]}) for _ in range(21)]
    assert [response.status_code for response in answers] == [200] * 20 + [429]
    assert answers[20].json()["reason"] == "too_many_tables"


def test_a_rate_limit_forgets_addresses_whose_window_has_passed():
    limit = RateLimit(1, 0.05, keys=3)
    assert all(limit.allow(address) for address in "abc")
    assert not limit.allow("a")  # within its window
    time.sleep(0.06)
    assert limit.allow("d") and set(limit.events) == {"d"}
    assert limit.allow("a") and not limit.allow("a")


def test_friends_take_open_seats_and_only_the_host_starts(client):
    table = create(client, seats=["friend", "easy"], rules={"players": 3})
    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"}).json()
    assert joined["seat"] == 1
    full = client.post(f"/api/tables/{table['id']}/join", json={"name": "Cy"})
    assert full.status_code == 400 and "taken" in full.json()["error"]
    assert full.json()["messages"]["fa"] == "جای خالی‌ای نمانده است"
    with seated(client, table["id"], joined["token"]) as friend:
        assert next_state(friend)["table"]["you"] == 1
        friend.send_json({"type": "start"})
        refused = answer(friend)
        assert refused["type"] == "refused" and "host" in refused["message"]
    with seated(client, table["id"], table["token"]) as host:
        next_state(host)
        host.send_json({"type": "start"})
        assert next_state(host, lambda state: state["table"]["status"] != "open")["table"]["status"] == "playing"
    late = client.post(f"/api/tables/{table['id']}/join", json={"name": "Di"})
    assert late.status_code == 400 and "started" in late.json()["error"]


# -- playing -----------------------------------------------------------------------------------------


def test_a_whole_match_against_a_bot_shows_only_the_seats_own_cards(client):
    table = create(client, rules={"target": 10})
    frames: list[dict[str, Any]] = []
    for hidden_until_the_end in ("record", "replay"):
        assert client.get(f"/api/tables/{table['id']}/{hidden_until_the_end}").status_code == 400
    with seated(client, table["id"], table["token"]) as socket:
        socket.send_json({"type": "start"})
        final = play_to_the_end(socket, frames)
    assert final["winner"] is not None and final["rounds"]
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert from_record(record).scores == final["scores"]
    states = [frame for frame in frames if frame["type"] == "state" and "view" in frame]
    assert len(states) > 20
    for frame in states:
        assert frame["view"]["seat"] == 0
        assert not cards_named(frame) & hidden_from(record, 0, frame["version"], frame.get("waiting") is not None), (
            frame["version"]
        )
    steps = client.get(f"/api/tables/{table['id']}/replay").json()
    assert len(steps) == sum(len(entry["moves"]) + 1 for entry in record["rounds"])
    # each round's last step shows the sweep: with the captures it makes up the whole deck
    for number in {step["round"] for step in steps}:
        rounds = [step for step in steps if step["round"] == number]
        taken = {card for step in rounds if step["move"] and step["move"]["take"] for card in step["move"]["take"]}
        taken |= {step["move"]["card"] for step in rounds if step["move"] and step["move"]["take"]}
        assert not any(step["swept"] for step in rounds[:-1]) and taken | set(rounds[-1]["swept"]) == {
            str(card) for card in CARDS
        }
        assert rounds[-1]["sweeper"] in (0, 1) and len({tuple(step["scores"]) for step in rounds}) == 1
        # the piles as they stood at each step: they only grow, and at the end hold the whole deck
        piles = [sum(len(pile) for pile in step["captured"]) for step in rounds]
        assert piles == sorted(piles) and piles[0] == 0 and piles[-1] == len(CARDS)
        assert [step["over"] for step in rounds] == [False] * (len(rounds) - 1) + [True]
    # once nobody watches it, a new table lets the finished one go from memory, not from the store
    rooms = client.app.state.lobby.rooms
    assert table["id"] in rooms
    create(client)
    assert table["id"] not in rooms
    assert client.get(f"/api/tables/{table['id']}/record").json() == record
    assert client.get(f"/api/tables/{table['id']}").json()["status"] == "finished"


def test_stale_and_repeated_moves_are_not_applied_twice(client):
    table = create(client)
    with seated(client, table["id"], table["token"]) as socket:
        state = start(socket)
        move, version = state["legal"][0]["text"], state["version"]
        socket.send_json({"type": "move", "version": version, "move": move, "id": "once"})
        assert answer(socket) == {"type": "ack", "id": "once", "version": version + 1}
        socket.send_json({"type": "move", "version": version, "move": move, "id": "once"})
        assert answer(socket) == {"type": "ack", "id": "once", "version": version + 1, "repeated": True}
        socket.send_json({"type": "move", "version": version, "move": move, "id": "other"})
        stale = answer(socket)
        assert stale["type"] == "refused" and "version" in stale["message"]


def test_bad_messages_are_refused_and_change_nothing(client):
    table = create(client)
    with seated(client, table["id"], table["token"]) as socket:
        state = start(socket)
        version = state["version"]
        bad = [
            "not json",
            json.dumps({"type": "dance"}),
            json.dumps({"type": "move", "version": version, "move": "x" * 100}),
            json.dumps({"type": "move", "version": version, "move": "7Zx9Q"}),
            json.dumps({"type": "move", "version": -1, "move": "7C"}),
        ]
        for raw in bad:
            socket.send_text(raw)
            reply = answer(socket)
            assert reply["type"] in ("error", "refused") and reply["message"], raw
            assert reply["messages"]["en"] == reply["message"] and PERSIAN_LETTER.search(reply["messages"]["fa"])
        socket.send_json({"type": "ping"})
        assert answer(socket) == {"type": "pong", "version": version}


def test_a_connection_says_hello_first_and_tokens_stay_out_of_urls(client):
    table = create(client)
    with client.websocket_connect(f"/ws/{table['id']}") as socket:
        socket.send_json({"type": "start"})
        refused = socket.receive_json()
        assert refused["type"] == "error" and refused["reason"] == "no_hello"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4400
    # a token in the address counts for nothing: that connection only watches
    with client.websocket_connect(f"/ws/{table['id']}?token={table['token']}") as socket:
        socket.send_json({"type": "hello"})
        assert next_state(socket)["table"]["you"] is None
        socket.send_json({"type": "start"})
        assert answer(socket)["reason"] == "host_only"
    with seated(client, table["id"], "not-a-token") as socket:
        assert answer(socket)["reason"] == "bad_token"


def test_a_table_left_unstarted_leaves_memory_but_not_the_store(client):
    table = create(client, seats=["friend"])
    rooms = client.app.state.lobby.rooms
    create(client)
    assert table["id"] in rooms  # recently touched: kept
    rooms[table["id"]].audience.touched -= OPEN_TABLE_SECONDS + 1
    create(client)
    assert table["id"] not in rooms
    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1  # read back from the store


def test_a_spectator_sees_no_hand(client):
    table = create(client)
    with seated(client, table["id"], table["token"]) as host:
        host.send_json({"type": "start"})
        next_state(host, lambda found: found["table"]["status"] == "playing")  # not the state sent on connecting
        with seated(client, table["id"]) as spectator:
            state = next_state(spectator)
            assert state["table"]["you"] is None and state["legal"] == []
            assert "hand" not in state["view"] and state["view"]["seat"] is None
            hidden = {str(card) for card in CARDS} - set(state["view"]["table"])
            assert not cards_named(state) & hidden - set().union(*map(set, state["view"]["captured"]))


def test_the_turn_timer_lets_a_bot_play_for_an_absent_player(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        table = create(client, timer=1)
        with seated(client, table["id"], table["token"]) as socket:
            socket.send_json({"type": "start"})
            state = next_state(socket)
            while not state.get("legal"):
                state = next_state(socket)
            assert state["seconds_left"] <= 1
            version = state["version"]
            time.sleep(1.5)
            later = next_state(socket)
            assert later["version"] > version


def test_a_restarted_server_resumes_every_table_where_it_was(database):
    stop_and_resume(database)


@pytest.mark.skipif(not POSTGRES, reason="set PASUR_TEST_POSTGRES to a database URL (scripts/test.sh starts one)")
def test_on_postgresql_a_restarted_server_resumes_where_it_was():
    stop_and_resume(POSTGRES or "")


def stop_and_resume(database: str) -> None:
    """Play some moves, stop the app, start another over the same database, finish the match."""
    with TestClient(create_app(database, TEST_SETTINGS)) as first:
        table = create(first, rules={"target": 10})
        frames: list[dict[str, Any]] = []
        with seated(first, table["id"], table["token"]) as socket:
            socket.send_json({"type": "start"})
            before = play_to_the_end(socket, frames, stop_after=6)
    with TestClient(create_app(database, TEST_SETTINGS)) as second:
        with seated(second, table["id"], table["token"], since=2) as socket:
            resumed = next_state(socket)
            assert resumed["version"] == before["version"] and resumed["view"] == before["view"]
            assert [move["version"] for move in resumed["missed"]] == list(range(3, before["version"] + 1))
            final = play_to_the_end(socket, frames, first=resumed)
        record = second.get(f"/api/tables/{table['id']}/record").json()
    assert final["winner"] is not None and from_record(record).rules == Rules(target=10)


def test_a_flood_of_messages_is_slowed_down(database):
    paced = dataclasses.replace(TEST_SETTINGS, messages_per_second=50)
    with TestClient(create_app(database, paced)) as client:
        table = create(client)
        with seated(client, table["id"], table["token"]) as socket:
            next_state(socket)
            for _ in range(60):
                socket.send_json({"type": "ping"})
            replies = [answer(socket) for _ in range(60)]
    assert any(reply["type"] == "error" and "slow down" in reply["message"] for reply in replies)
    assert sum(reply["type"] == "pong" for reply in replies) >= 50


def test_a_socket_gone_ends_its_outbox_and_a_fault_in_sending_is_not_hidden():
    from pasur.server.outbox import GONE, Outbox

    async def gone(message: dict[str, Any]) -> None:
        raise OSError("the socket is closed")

    async def broken(message: dict[str, Any]) -> None:
        raise KeyError("a bug")

    async def run(send: Any) -> str:
        outbox = Outbox(send, seconds=1)
        outbox.post({"type": "state"})
        return await outbox.run()

    with pytest.raises(GONE):
        asyncio.run(run(gone))
    with pytest.raises(KeyError):
        asyncio.run(run(broken))


def test_a_socket_that_does_not_read_holds_up_no_one_and_is_given_up():
    from pasur.server.outbox import OUTBOX_LIMIT, Outbox

    sent: list[dict[str, Any]] = []
    never = asyncio.Event()

    async def reads(message: dict[str, Any]) -> None:
        sent.append(message)

    async def stuck(message: dict[str, Any]) -> None:
        await never.wait()

    async def scene() -> tuple[str, Outbox]:
        # a minute for a message: stuck on version 0 throughout the posting, however busy the machine
        keeping_up, behind = Outbox(reads, seconds=60), Outbox(stuck, seconds=60)
        running = asyncio.create_task(keeping_up.run())
        stuck_on_the_first = asyncio.create_task(behind.run())
        behind.post({"type": "state", "version": 0, "chat": []})  # the first state: it carries the chat
        await asyncio.sleep(0)
        for version in range(1, 1000):  # posting never waits, however far behind a socket is
            for outbox in (keeping_up, behind):
                outbox.post({"type": "state", "version": version})
                outbox.post({"type": "presence", "connected": [True, version % 2 == 0]})
            await asyncio.sleep(0)
        behind.post({"type": "chat", "text": "hello"})
        # behind is sending version 0 still; only the newest state and presence wait, with the chat
        assert [message["type"] for message in behind.waiting] == ["state", "presence", "chat"]
        assert behind.waiting[0]["version"] == 999
        while keeping_up.waiting:  # the one that reads is sent everything, in order
            await asyncio.sleep(0)
        stuck_on_the_first.cancel()
        # one whose message is not read within its seconds is given up
        slow = Outbox(stuck, seconds=0.2)
        given_up = asyncio.create_task(slow.run())
        slow.post({"type": "state", "version": 0})
        reason = await asyncio.wait_for(given_up, 60)
        running.cancel()
        return reason, slow

    reason, behind = asyncio.run(scene())
    assert "0.2 s" in reason and behind.too_slow == reason
    versions = [message["version"] for message in sent if message["type"] == "state"]
    assert versions == sorted(set(versions)) and versions[-1] == 999  # in order, the newest last
    # a listener with too much waiting that cannot be replaced is given up too
    flooded = Outbox(reads, seconds=1)
    for line in range(OUTBOX_LIMIT + 1):
        flooded.post({"type": "chat", "text": str(line)})
    assert flooded.too_slow and len(flooded.waiting) == OUTBOX_LIMIT


# -- the lobby -------------------------------------------------------------------------------------


def test_the_lobby_lists_public_tables_waiting_for_people_and_nothing_else(client):
    public = create(client, seats=["friend", "hard"], public=True, rules={"players": 3})
    create(client, seats=["friend"])  # private: found by its link only
    full = create(client, seats=["easy"], public=True)  # no seat free
    started = create(client, seats=["friend"], public=True)
    with seated(client, started["id"], started["token"]) as socket:
        socket.receive_json()
        socket.send_json({"type": "start"})
        assert answer(socket) == {"type": "started"}
    listed = client.get("/api/tables").json()
    assert listed["next"] is None
    assert [table["id"] for table in listed["tables"]] == [public["id"]]
    entry = listed["tables"][0]
    assert (
        entry
        == {
            "id": public["id"],
            "players": 3,
            "seated": ["Ava"],
            "free": 1,
            "rules": entry["rules"],
            "bots": ["hard"],
            "rated": False,
        }
        and entry["rules"]["players"] == 3
    )
    assert full["id"] not in str(listed)
    joined = client.post(f"/api/tables/{public['id']}/join", json={"name": "Bo"})
    assert joined.status_code == 200
    assert client.get("/api/tables").json()["tables"] == []  # its last seat is taken


def test_the_lobby_lists_public_matches_under_way_to_watch(client):
    def start_match(**body: Any) -> dict[str, Any]:
        table = create(client, **body)
        with seated(client, table["id"], table["token"]) as socket:
            start(socket)
        return table

    private = start_match(seats=["easy"])
    first = start_match(seats=["easy"], public=True, rules={"target": 30})
    waiting = create(client, seats=["friend"], public=True)  # not under way: it is an open table
    second = start_match(seats=["medium", "hard"], public=True, rules={"players": 3})
    live = client.get("/api/live").json()
    assert [table["id"] for table in live["tables"]] == [second["id"], first["id"]] and live["next"] is None
    assert private["id"] not in str(live) and waiting["id"] not in str(live)
    entry = live["tables"][1]
    assert entry["scores"] == [0, 0] and entry["round"] == 1 and entry["target"] == 30 and entry["players"] == 2
    assert entry["seats"][0] == {"en": "Ava", "fa": "Ava"} and entry["seats"][1]["en"] == "Shirin (easy)"
    page = client.get("/api/live", params={"limit": 1}).json()
    assert [table["id"] for table in page["tables"]] == [second["id"]]
    following = client.get("/api/live", params={"cursor": page["next"]}).json()
    assert [table["id"] for table in following["tables"]] == [first["id"]]
    assert client.get("/api/live", params={"cursor": "1.<script>"}).json()["reason"] == "bad_cursor"
    assert client.get("/api/live", params={"limit": 51}).status_code == 422


def test_the_lobby_comes_in_pages_and_refuses_a_cursor_it_did_not_give(client):
    made = [create(client, seats=["friend"], public=True)["id"] for _ in range(5)]
    seen: list[str] = []
    cursor = None
    for _ in range(5):
        query = {"limit": 2} | ({"cursor": cursor} if cursor else {})
        page = client.get("/api/tables", params=query).json()
        assert len(page["tables"]) <= 2
        seen += [table["id"] for table in page["tables"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == made[::-1]  # newest first, each once
    for hostile in ("x", "1.", ".abc", "9" * 30 + ".abc", "1.<script>", "1.a/b", "١٢.abc"):
        answer = client.get("/api/tables", params={"cursor": hostile})
        assert answer.status_code == 400 and answer.json()["reason"] == "bad_cursor", hostile
    for limit in (0, 51, -1, "many"):
        assert client.get("/api/tables", params={"limit": limit}).status_code == 422
    assert client.get("/api/tables", params={"cursor": "1" * 65}).status_code == 422


def test_public_must_be_a_yes_or_no(client):
    for hostile in ([1], {"a": {"b": 1}}, "x" * 100, None):
        answer = client.post("/api/tables", json={"name": "Ava", "seats": ["easy"], "public": hostile})
        assert answer.status_code == 422, hostile
    assert client.get("/api/tables").json()["tables"] == []


# -- following the game: the round's end, names, pace, chat ---------------------------------------


def play_to_the_round_end(sockets: list[Any]) -> list[dict[str, Any]]:
    """The started match's players (one socket a seat, every seat a person's) play first legal
    moves until a round is over; each seat's state that shows it."""
    states = [next_state(socket, lambda message: "view" in message) for socket in sockets]
    while states[0].get("waiting") is None:
        turn = states[0]["view"]["turn"]
        state = states[turn]
        sockets[turn].send_json({"type": "move", "version": state["version"], "move": state["legal"][0]["text"]})
        moved = functools.partial(lambda version, message: message["version"] > version, state["version"])
        states = [next_state(socket, moved) for socket in sockets]
        assert answer(sockets[turn])["type"] == "ack"  # the move's answer comes after its state
    return states


def test_a_round_end_is_shown_and_the_next_deal_waits_for_every_player(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        table = create(client, rules={"target": 200}, seats=["friend"])
        guest = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"}).json()
        with (
            seated(client, table["id"], table["token"]) as host,
            seated(client, table["id"], guest["token"]) as other,
            seated(client, table["id"]) as spectator,
        ):
            host.send_json({"type": "start"})
            ended = play_to_the_round_end([host, other])
            for seat, state in enumerate(ended):
                # the round that ended, its last card and sweep; not the next deal
                view = state["view"]
                assert view["round"] == 1 and view["over"] and view["table"] == [] and state["legal"] == []
                assert state["waiting"] == [0, 1] and len(state["rounds"]) == 1
                last = state["last"]
                assert last["round_over"] and last["seat"] == view["history"][-1]["seat"]
                assert last["card"] == view["history"][-1]["card"]
                assert last["sweeper"] == view["last_capturer"] and (last["sweeper"] is not None or not last["swept"])
                assert seat == state["table"]["you"]
            watched = next_state(spectator, lambda message: message.get("waiting") is not None)
            assert watched["view"]["round"] == 1 and "hand" not in watched["view"]
            version = ended[0]["version"]
            turn = 1 - ended[0]["view"]["first"]  # who leads the next round: the deal passes on
            mover = [host, other][turn]
            mover.send_json({"type": "move", "version": version, "move": "KS"})
            refused = answer(mover)
            assert refused.get("reason") == "between_rounds", refused
            spectator.send_json({"type": "continue"})
            assert answer(spectator)["reason"] == "no_seat"
            host.send_json({"type": "continue"})
            assert answer(host) == {"type": "dealt_on", "version": version}
            assert next_state(other)["waiting"] == [1]  # still waiting for Bo
            other.send_json({"type": "continue"})
            dealt = next_state(other, lambda message: message.get("waiting") is None)
            assert dealt["view"]["round"] == 2 and dealt["version"] == version and len(dealt["view"]["hand"]) == 4
            assert dealt["last"] is None  # the last round's play is not this deal's
            assert (dealt["legal"] != []) == (dealt["view"]["turn"] == 1)


def test_bots_wait_between_rounds_and_the_turn_timer_ends_the_wait(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        table = create(client, rules={"target": 200})
        with seated(client, table["id"], table["token"]) as socket:
            socket.send_json({"type": "start"})
            [ended] = play_to_the_round_end_against_bots(socket)
            client.portal.call(asyncio.sleep, 0.3)  # bots move at once here; they must not now
            room = client.app.state.lobby.rooms[table["id"]]
            assert room.version == ended["version"] and room.waiting == {0}
    with TestClient(create_app(database, TEST_SETTINGS)) as client:  # a restart keeps the wait
        room = client.app.state.lobby.rooms[table["id"]]
        assert room.waiting == {0} and room.version == ended["version"]
    timed = TEST_SETTINGS
    with TestClient(create_app(database, timed)) as client:
        table = create(client, rules={"target": 200}, timer=1)
        with seated(client, table["id"], table["token"]) as socket:
            socket.send_json({"type": "start"})
            [ended] = play_to_the_round_end_against_bots(socket)
            assert ended["seconds_left"] <= 1
            dealt = next_state(socket, lambda message: message.get("waiting") is None)
            assert dealt["view"]["round"] == 2


def play_to_the_round_end_against_bots(socket: Any) -> list[dict[str, Any]]:
    """Play first legal moves for the one person at a table of bots until a round is over."""
    state = next_state(socket, lambda message: "view" in message)
    while state.get("waiting") is None:
        if state.get("legal"):
            socket.send_json({"type": "move", "version": state["version"], "move": state["legal"][0]["text"]})
        state = next_state(socket)
    return [state]


def test_bots_have_distinct_names_in_both_languages(client):
    table = create(client, rules={"players": 4}, seats=["medium", "hard", "medium"])
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert seats[0]["shown"] == {"en": "Ava", "fa": "Ava"}
    english = [seat["shown"]["en"] for seat in seats[1:]]
    assert english == ["Shirin (medium)", "Bahram (hard)", "Laleh (medium)"]
    persian = [seat["shown"]["fa"] for seat in seats[1:]]
    assert len(set(persian)) == 3 and all(PERSIAN_LETTER.search(name) for name in persian)


def test_a_player_may_ask_the_bots_to_play_faster_and_a_spectator_may_not(client):
    table = create(client)
    with seated(client, table["id"], table["token"]) as host, seated(client, table["id"]) as spectator:
        host.send_json({"type": "pace", "fast": True})
        assert answer(host) == {"type": "pace", "fast": True}
        spectator.send_json({"type": "pace", "fast": False})
        assert answer(spectator)["reason"] == "no_seat"
        assert client.app.state.lobby.rooms[table["id"]].settings.fast
        for hostile in ("banana", 7, None, [True], {"fast": True}):
            host.send_json({"type": "pace", "fast": hostile})
            assert answer(host)["reason"] == "not_understood", hostile
        assert client.app.state.lobby.rooms[table["id"]].settings.fast  # unchanged by any of them


def test_no_bot_takes_the_name_of_a_person_at_the_table(client):
    table = create(client, name="bahram", rules={"players": 3}, seats=["friend", "easy"])
    client.post(f"/api/tables/{table['id']}/join", json={"name": "شیرین"})
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    bot = seats[2]["shown"]
    assert not bot["en"].casefold().startswith(("bahram", "shirin")) and not bot["fa"].startswith(("بهرام", "شیرین"))
    assert bot["en"] == "Laleh (easy)"


def test_each_state_says_which_plays_of_its_round_were_surs(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        for _ in range(4):  # a match's deals are random, and now and then one has no Sur at all
            table = create(client, rules={"target": 62})
            frames: list[dict[str, Any]] = []
            with seated(client, table["id"], table["token"]) as socket:
                play_to_the_end(socket, frames, first=start(socket))
            states = [frame for frame in frames if frame["type"] == "state" and frame.get("view")]
            if any(state["sur_plays"] for state in states):
                break
        # a socket behind is sent the newest state instead of each (a bot at no pause outruns it),
        # so the state of a Sur itself may be skipped: the later states of its round still name it
        assert any(state["sur_plays"] for state in states), "one of four matches has a Sur"
        surs = [state for state in states if state["last"] and state["last"]["sur"]]
        for state in surs:
            assert len(state["view"]["history"]) - 1 in state["sur_plays"]
        for state in states:  # and no other play is called one
            made = len(state["view"]["history"]) - 1
            if state["last"] and not state["last"]["sur"]:
                assert made not in state["sur_plays"]
    with TestClient(create_app(database, TEST_SETTINGS)) as again, seated(again, table["id"]) as watcher:
        assert next_state(watcher)["sur_plays"] == states[-1]["sur_plays"]  # read back from the moves


def test_faster_bots_outlive_a_restart(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as first:
        table = create(first)
        with seated(first, table["id"], table["token"]) as host:
            host.send_json({"type": "pace", "fast": True})
            assert answer(host) == {"type": "pace", "fast": True}
    with TestClient(create_app(database, TEST_SETTINGS)) as second, seated(second, table["id"]) as watcher:
        assert next_state(watcher)["table"]["fast"] is True


def test_a_player_asks_for_a_hint_on_their_turn_where_the_table_gives_hints(client):
    table = create(client)  # against a bot: hints by default
    with seated(client, table["id"], table["token"]) as host, seated(client, table["id"]) as spectator:
        state = start(host)
        assert state["table"]["hints"] is True
        host.send_json({"type": "hint"})
        advice = answer(host)
        assert advice["type"] == "hint" and advice["version"] == state["version"], advice
        legal = [{"card": move["card"], "take": move["take"]} for move in state["legal"]]
        assert {"card": advice["card"], "take": advice["take"]} in legal and advice["reason"]
        host.send_json({"type": "hint"})
        assert answer(host) == advice  # thought out once a seat and version
        host.send_json({"type": "hint", "lang": "fa"})
        persian = answer(host)
        assert persian["move"] == advice["move"] and PERSIAN_LETTER.search(persian["reason"])
        spectator.send_json({"type": "hint"})
        assert answer(spectator)["reason"] == "no_seat"
        for hostile in ("xx", 5, None, ["en"], "en" * 40):
            host.send_json({"type": "hint", "lang": hostile})
            assert answer(host)["reason"] == "not_understood", hostile
        assert client.app.state.lobby.rooms[table["id"]].version == state["version"]  # nothing was played


def test_a_table_with_friends_or_that_says_so_gives_no_hints(client):
    for body in ({"seats": ["friend"]}, {"seats": ["easy"], "hints": False}):
        table = create(client, **body)
        assert client.get(f"/api/tables/{table['id']}").json()["hints"] is False
        with seated(client, table["id"], table["token"]) as host:
            host.send_json({"type": "hint"})
            refused = answer(host)
            assert refused["reason"] == "no_hints" and PERSIAN_LETTER.search(refused["messages"]["fa"])
    assert create(client, seats=["friend"], hints=True)  # the creator may allow them
    for hostile in ([1], {"a": 1}, "x" * 100):
        answer_ = client.post("/api/tables", json={"name": "Ava", "seats": ["easy"], "hints": hostile})
        assert answer_.status_code == 422, hostile


def test_a_finished_match_has_the_peoples_moves_judged_in_the_background(client):
    table = create(client, rules={"target": 1})  # one round against a bot
    assert client.get(f"/api/tables/{table['id']}/analysis").json()["reason"] == "not_finished"
    for hostile in ("nosuchtable", "x" * 5000, "..%2F..%2Fetc", "%00"):
        assert client.get(f"/api/tables/{hostile}/analysis").status_code in (404, 414), hostile
    with seated(client, table["id"], table["token"]) as host:
        play_to_the_end(host, [], first=start(host))
    analysis = reviewed(client, table["id"])
    record = client.get(f"/api/tables/{table['id']}/record").json()
    person_moves = sum(len(round_["moves"]) for round_ in record["rounds"]) // 2  # a tie at the top plays another round
    assert analysis["total"] == person_moves == len(analysis["moves"]) > 0
    for judged in analysis["moves"]:
        assert judged["seat"] == 0 and judged["verdict"] in ALLOWED
        assert judged["loss"] >= 0 and judged["samples"] >= 1 and judged["played"] in judged["values"]
        said = text(f"verdict_{judged['verdict']}")
        assert judged["lines"]["en"].startswith(said) and PERSIAN_LETTER.search(judged["lines"]["fa"])


def test_three_players_get_their_analysis_too(client):
    table = create(client, rules={"players": 3, "target": 1}, seats=["easy", "easy"])
    with seated(client, table["id"], table["token"]) as host:
        play_to_the_end(host, [], first=start(host))
    analysis = reviewed(client, table["id"])  # 14 s alone, more beside other tests
    rounds = client.get(f"/api/tables/{table['id']}/record").json()["rounds"]
    assert "unavailable" not in analysis and analysis["total"] == len(analysis["moves"]) == 16 * len(rounds)
    assert {judged["seat"] for judged in analysis["moves"]} == {0}


def chat_lines(socket: Any, count: int) -> list[dict[str, Any]]:
    lines = []
    while len(lines) < count:
        message = socket.receive_json()
        if message["type"] == "chat":
            lines.append(message)
    return lines


def test_players_and_spectators_chat_apart_and_lines_are_kept(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        table = create(client, seats=["friend"])
        guest = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"}).json()
        with (
            seated(client, table["id"], table["token"]) as host,
            seated(client, table["id"], guest["token"]) as other,
            seated(client, table["id"]) as spectator,
        ):
            for socket in (host, other, spectator):
                assert next_state(socket)["chat"] == []
            host.send_json({"type": "chat", "text": "  salaam <b>Bo</b>  "})
            assert answer(host) == {"type": "said"}
            for name, reason in (("evil\u202e", "name_control"), ("x" * 201, "not_understood"), (7, "not_understood")):
                spectator.send_json({"type": "chat", "phrase": "hello", "name": name})
                assert answer(spectator)["reason"] == reason, name  # a spectator's name is checked too
            spectator.send_json({"type": "chat", "phrase": "nice_sur", "name": "Kian"})
            [watched] = chat_lines(spectator, 1)  # a line is told before its writer's answer
            assert watched["channel"] == "spectators" and watched["phrase"] == "nice_sur" and watched["name"] == "Kian"
            assert answer(spectator) == {"type": "said"}
            [heard] = chat_lines(other, 1)
            assert heard == {
                "type": "chat",
                "channel": "players",
                "seat": 0,
                "name": "Ava",
                "text": "salaam <b>Bo</b>",
                "phrase": None,
            }
            other.send_json({"type": "chat", "phrase": "hello"})
            assert answer(other) == {"type": "said"}
            assert [line["seat"] for line in chat_lines(host, 1)] == [1]  # never the spectators' line
    with (
        TestClient(create_app(database, TEST_SETTINGS)) as client,  # kept in the store
        seated(client, table["id"], guest["token"]) as other,
        seated(client, table["id"]) as spectator,
    ):
        assert [line.get("text") or line["phrase"] for line in next_state(other)["chat"]] == [
            "salaam <b>Bo</b>",
            "hello",
        ]
        assert [line["phrase"] for line in next_state(spectator)["chat"]] == ["nice_sur"]


def test_bad_chat_lines_are_refused_and_nobody_hears_them(client):
    table = create(client, seats=["friend"])
    guest = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"}).json()
    with seated(client, table["id"], table["token"]) as host, seated(client, table["id"], guest["token"]) as other:
        next_state(host)
        next_state(other)
        hostile = {
            "chat_too_long": {"text": "a" * 201},
            "chat_control": {"text": "hi\u202eevil"},
            "chat_empty": {"text": " \t "},
            "chat_phrase": {"phrase": "rm -rf /"},
            "not_understood": {"text": 7},
        }
        for reason, line in hostile.items():
            host.send_text(json.dumps({"type": "chat", **line}).replace("\\u", "\\u"))
            refused = answer(host)
            assert refused["reason"] == reason, (reason, refused)
            assert PERSIAN_LETTER.search(refused["messages"]["fa"])
        host.send_json({"type": "chat", "text": "one", "phrase": "hello"})
        assert answer(host)["reason"] == "chat_empty"
        host.send_json({"type": "chat", "text": "x" * 900})
        assert answer(host)["reason"] == "not_understood"  # longer than any line: refused at the door
        host.send_json({"type": "chat", "text": "\U0001f600" * 160})  # 160 emoji: 640 bytes
        assert answer(host)["reason"] == "chat_too_long"
        for hidden in ("hi\u200b", "hi\u2028there", "h" + "\u0301" * 20):
            host.send_json({"type": "chat", "text": hidden})
            assert answer(host)["reason"] == "chat_control", hidden
        host.send_json({"type": "chat", "phrase": "thanks"})
        assert answer(host) == {"type": "said"}
        [heard] = chat_lines(other, 1)  # the only line anyone heard
        assert heard["phrase"] == "thanks"
        for _ in range(4):
            host.send_json({"type": "chat", "phrase": "oops"})
            assert answer(host) == {"type": "said"}
        host.send_json({"type": "chat", "phrase": "oops"})
        assert answer(host)["reason"] == "chat_too_fast"
        other.send_json({"type": "chat", "phrase": "oops"})  # another seat writes on
        assert answer(other) == {"type": "said"}


def test_a_malformed_notice_from_the_database_is_not_acted_on(tmp_path):
    """Notices come from other server processes over the database; one that is not a notice (not
    JSON, not an object, no table, the wrong types, megabytes) is dropped and nothing is asked."""
    store = Store(f"sqlite:///{tmp_path / 'notices.db'}")
    hub = Hub(store)
    acted: list[dict[str, Any]] = []

    async def on_notice(notice: dict[str, Any]) -> None:
        acted.append(notice)

    async def hear(payloads: list[str]) -> None:
        for payload in payloads:
            await hub._received(payload, on_notice)

    hostile = [
        "{",
        "[1, 2]",
        '"table"',
        "null",
        '{"kind": "move"}',
        '{"table": 5}',
        '{"table": ["a"]}',
        "x" * 2_000_000,
    ]
    asyncio.run(hear(hostile))
    assert acted == []
    asyncio.run(hear(['{"table": "ABCDEFGH", "kind": "move", "from": "elsewhere"}']))
    assert acted == [{"table": "ABCDEFGH", "kind": "move", "from": "elsewhere"}]
    store.close()


# -- seats before the start, and the rematch after the end ------------------------------------------


def test_a_person_moves_to_an_open_seat_before_the_start(client):
    table = create(client, seats=["friend", "friend"], rules={"players": 3})
    guest = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"}).json()
    with seated(client, table["id"], table["token"]) as host, seated(client, table["id"]) as watcher:
        assert next_state(host)["table"]["host"] == 0
        next_state(watcher)
        watcher.send_json({"type": "seat", "seat": 2})
        assert answer(watcher)["reason"] == "not_seated"  # a spectator has no seat to move
        host.send_json({"type": "seat", "seat": 1})
        assert answer(host)["reason"] == "seat_not_free"  # Bo sits there
        for hostile in (9, -1, "2", None):
            host.send_json({"type": "seat", "seat": hostile})
            assert answer(host)["reason"] == "not_understood", hostile
        host.send_json({"type": "seat", "seat": 2})
        assert answer(host) == {"type": "seated", "seat": 2}
        moved = next_state(watcher, lambda state: state["table"]["seats"][2]["name"] == "Ava")["table"]
        assert moved["seats"][0]["open"] and moved["host"] == 2
    with seated(client, table["id"], table["token"]) as host:
        assert next_state(host)["table"]["you"] == 2  # the token went with her
        host.send_json({"type": "start"})  # still the host, from another seat
        assert answer(host) == {"type": "started"}
        host.send_json({"type": "seat", "seat": 0})
        assert answer(host)["reason"] == "already_started"
    with seated(client, table["id"], guest["token"]) as friend:
        assert next_state(friend)["table"]["you"] == 1


def test_a_finished_match_offers_one_rematch_with_the_seats_turned(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        table = create(client, rules={"target": 10}, hints=False)
        with seated(client, table["id"], table["token"]) as socket:
            next_state(socket)
            socket.send_json({"type": "rematch"})
            assert answer(socket)["reason"] == "match_not_over"
            socket.send_json({"type": "start"})
            play_to_the_end(socket, [])
            with seated(client, table["id"]) as watcher:
                next_state(watcher)
                socket.send_json({"type": "rematch"})
                while (made := answer(socket))["type"] == "ack":  # the last move's may follow the last state
                    pass
                assert made["type"] == "rematch"
                told = next_state(watcher, lambda state: state["table"]["rematch"] is not None)
                assert told["table"]["rematch"] == made["id"]  # every listener is told
                socket.send_json({"type": "rematch"})
                assert answer(socket) == made  # one rematch, however often it is asked for
                watcher.send_json({"type": "rematch"})
                assert answer(watcher)["reason"] == "not_seated"
    with TestClient(create_app(database, TEST_SETTINGS)) as client:  # kept through a restart
        assert client.get(f"/api/tables/{table['id']}").json()["rematch"] == made["id"]
        again = client.get(f"/api/tables/{made['id']}").json()
        assert [seat["bot"] for seat in again["seats"]] == ["easy", None] and again["seats"][1]["name"] == "Ava"
        assert again["hints"] is False and again["rules"]["target"] == 10 and again["status"] == "open"
        with seated(client, made["id"], table["token"]) as socket:  # the same person, the same token
            assert next_state(socket)["table"]["you"] == 1
            socket.send_json({"type": "start"})
            first = next_state(socket, lambda state: state["table"]["status"] == "playing")
            assert first["view"]["turn"] == 0  # the other player opens this time


def test_the_service_worker_keeps_every_module_of_the_page():
    from pasur.server.site_routes import STATIC

    worker = (STATIC / "sw.js").read_text(encoding="utf-8")
    listed = worker[worker.index("const MODULES = [") : worker.index("];", worker.index("const MODULES"))]
    kept = set(re.findall(r'"([\w-]+)"', listed))
    assert kept == {path.stem for path in (STATIC / "js").glob("*.js")}


def test_each_level_is_offered_with_its_rating_from_the_measured_ladder(database):
    from pasur.bots import IsmctsBot, PimcBot, SolverBot, validate_spec
    from pasur.core.rules import TABLES
    from pasur.server.bots import BOT_RATINGS, BOT_RATINGS_AT, SEARCHING
    from pasur.server.ratings import match_wins_elo

    def plays_as(spec: str, level: str) -> bool:
        """Whether a report's bot is ``level`` as it plays today (by name, or its bot with every
        option it names at its default): a default changed without the ladder measured again fails."""
        bot = LEVELS[level]
        if spec in (level, bot):
            return True
        name, options = validate_spec(spec)
        made = {"solver": SolverBot, "pimc": PimcBot, "ismcts": IsmctsBot}.get(bot)
        defaults = {key: value.default for key, value in inspect.signature(made).parameters.items()} if made else {}
        defaults |= dict([SEARCHING[bot]]) if bot in SEARCHING else {}  # a budget's default is the class's
        return name == bot and all(key in defaults and defaults[key] == value for key, value in options.items())

    measured = json.loads((Path(pasur.server.__file__).parent / "bot-ratings.json").read_text())
    assert set(measured["tables"]) == set(TABLES)  # every kind of table is rated, by its own ladder
    for kind, table in measured["tables"].items():
        rules = TABLES[kind]
        rating = {level: float(value) for level, value in measured["anchor"].items()}
        for step in table["steps"]:  # each step up is the Elo its stored ladder report measured, per seat
            report = json.loads((Path(__file__).parent.parent / "docs" / "strength" / step["report"]).read_text())
            assert report["rules"]["players"] == rules.players
            assert report["rules"].get("partnership", True) == rules.partnership
            upper = report["bots"][0]
            assert plays_as(upper["name"], step["level"]) and plays_as(report["bots"][1]["name"], step["over"])
            seats = 1 if rules.players == 3 else 2  # the upper level's seats, each playing alone
            elo = (
                report["elo"]["diff"]
                if rules.sides == 2
                else round(match_wins_elo(upper["win_rate"], rules.sides, seats), 4)
            )
            assert elo == step["elo"] and step["over"] in rating
            rating[step["level"]] = rating[step["over"]] + step["elo"] / table["seats"]
        assert {level: round(value) for level, value in rating.items()} == BOT_RATINGS_AT[kind]
        assert list(rating) == list(LEVELS)  # every level measured at this table
        # each level above the one below; four each for themselves, the top three are level in match
        # wins (docs/STRENGTH.md): no step there is measured below zero
        climbing = list(rating.values())
        assert kind == "4-each" or all(low < high for low, high in itertools.pairwise(climbing)), kind
        assert all(step["ci95"][1] > 0 for step in table["steps"]), kind
    assert BOT_RATINGS_AT["2"] == BOT_RATINGS
    settings = dataclasses.replace(TEST_SETTINGS, extra_levels={"champion": "solver:samples=64"})
    with TestClient(create_app(database, settings)) as client:
        offered = client.get("/api/levels").json()["levels"]
    builtin = [entry["rating"] for entry in offered if entry["level"] in LEVELS]
    assert [entry["level"] for entry in offered][: len(LEVELS)] == list(LEVELS)  # weakest first
    assert builtin == sorted(builtin) and builtin[0] == 800  # the anchor, then ever stronger
    assert {"level": "champion", "rating": None, "ratings": None} in offered  # never measured: no rating claimed
    for entry in offered[: len(LEVELS)]:  # and at each rated table, the rating the server rates with
        assert entry["ratings"] == {kind: BOT_RATINGS_AT[kind][entry["level"]] for kind in TABLES}


def test_a_matchs_analysis_is_kept_once_whole_and_never_thought_out_again(database, monkeypatch):
    from pasur.server.bots import BotPool

    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        table = create(client, rules={"target": 1}, seats=["easy"])
        with seated(client, table["id"], table["token"]) as host:
            play_to_the_end(host, [], first=start(host))
        first = reviewed(client, table["id"])

    async def never(*args: Any) -> None:
        raise AssertionError("a kept analysis was thought out again")

    monkeypatch.setattr(BotPool, "judge", never)
    with TestClient(create_app(database, TEST_SETTINGS)) as again:  # the server restarted: the table read back
        kept = again.get(f"/api/tables/{table['id']}/analysis").json()
    assert kept == first and kept["total"] == len(kept["moves"]) > 0


def hints_with_busy_workers() -> tuple[Any, Any, Any, list[asyncio.Future[Any]]]:
    """A table's hints whose workers are all busy elsewhere (a hint asked never gets one): the
    hints, the match, the table as they see it, and each hint's thinking as it is asked."""
    from types import SimpleNamespace

    from pasur import Match, Rules
    from pasur.server.advice import Hints

    thinking: list[asyncio.Future[Any]] = []

    class Workers:
        async def think_hint(self, *args: Any) -> Any:
            waiting = asyncio.get_running_loop().create_future()  # never answered
            thinking.append(waiting)
            return await waiting

    match = Match(Rules(), seed=1)
    room = SimpleNamespace(
        version=1,
        settings=SimpleNamespace(hints=True, seed=1),
        bots=Workers(),
        owner="visitor",
        round_under_way=lambda: match,
        must_be_turn_of=lambda _match, _seat: None,
    )
    return Hints(room), match, room, thinking  # type: ignore[arg-type]


def test_a_hint_still_being_thought_for_a_position_left_behind_is_dropped():
    from pasur.server.errors import TableError

    hints, match, room, thinking = hints_with_busy_workers()

    async def scene() -> None:
        asked = asyncio.create_task(hints.ask(match.turn, "en", "203.0.113.0/24"))
        await asyncio.sleep(0.01)
        room.version = 2  # the person played meanwhile
        hints.moved_on()
        with pytest.raises(TableError) as refused:
            await asyncio.wait_for(asked, 5)
        assert refused.value.reason == "hint_stale"
        assert thinking[0].cancelled()  # the job waiting for a worker is cancelled: it never takes one

    asyncio.run(scene())


def test_a_hint_nobody_waits_for_any_more_is_dropped():
    hints, match, _, thinking = hints_with_busy_workers()

    async def scene() -> None:
        first = asyncio.create_task(hints.ask(match.turn, "en", "203.0.113.0/24"))
        second = asyncio.create_task(hints.ask(match.turn, "en", "203.0.113.0/24"))  # the same hint, asked again
        await asyncio.sleep(0.01)
        assert len(thinking) == 1
        first.cancel()  # one asker leaves (its socket closed): the other still waits
        await asyncio.sleep(0.01)
        assert not thinking[0].cancelled()
        second.cancel()  # the last one leaves: the job waiting for a worker is dropped
        await asyncio.sleep(0.01)
        assert thinking[0].cancelled()

    asyncio.run(scene())


def test_a_socket_waiting_for_a_hint_is_still_answered_and_its_hint_is_dropped_when_it_goes(client):
    table = create(client)  # against a bot: hints by default
    room = client.app.state.lobby.rooms[table["id"]]
    thinking: list[asyncio.Future[Any]] = []

    async def busy_workers(*args: Any) -> Any:  # every worker busy elsewhere: the hint waits
        waiting = asyncio.get_running_loop().create_future()
        thinking.append(waiting)
        return await waiting

    room.bots.think_hint = busy_workers
    with seated(client, table["id"], table["token"]) as host:
        state = start(host)
        host.send_json({"type": "hint"})
        host.send_json({"type": "hint"})
        assert answer(host)["reason"] == "too_much_advice"  # one at a time a socket
        host.send_json({"type": "ping"})
        assert answer(host) == {"type": "pong", "version": state["version"]}  # not held up by the hint
        assert len(thinking) == 1 and not thinking[0].done()
    deadline = time.monotonic() + 5
    while not thinking[0].cancelled() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert thinking[0].cancelled()  # the socket went: nobody waits for the hint, it is dropped


def test_the_pages_files_come_compressed_and_are_asked_again_before_use(tmp_path):
    """The page's files and the API's larger answers are gzip'd for a browser that takes it; each
    file is revalidated (no-cache, its ETag answering 304 when unchanged), so an upgrade is seen."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'files.db'}", TEST_SETTINGS)) as client:
        script = client.get("/static/js/table.js", headers={"accept-encoding": "gzip"})
        assert script.status_code == 200 and script.headers["content-encoding"] == "gzip"
        assert script.headers["cache-control"] == "no-cache"
        again = client.get("/static/js/table.js", headers={"if-none-match": script.headers["etag"]})
        assert again.status_code == 304
        assert client.get("/api/offline", headers={"accept-encoding": "gzip"}).headers["content-encoding"] == "gzip"
