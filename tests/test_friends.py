"""Friends, lightly: inviting a named player to an open table (it shows in their lobby until the
table starts), declining, blocking (no invitations, and neither reads the other's table chat),
and the hostile side: no invitations to or from the blocked, none without a seat or a session."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("argon2")

from fastapi.testclient import TestClient

from pasur.server.accounts import COOKIE

from .server_helpers import answer, next_state, seated
from .test_accounts import browser, refused, sign_up


@pytest.fixture
def database(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'friends.db'}"


def post(client: TestClient, path: str, csrf: str, **body: Any) -> Any:
    return client.post(path, json=body, headers={"X-CSRF-Token": csrf})


def test_an_invitation_shows_in_the_lobby_until_the_table_starts(database):
    with browser(database) as ava, browser(database) as bahar:
        ava_csrf, bahar_csrf = sign_up(ava, "Ava")["csrf"], sign_up(bahar, "Bahar")["csrf"]
        table = ava.post("/api/tables", json={"name": "x", "seats": ["friend"]}).json()
        no_token = {"X-CSRF-Token": ""}
        invite = ava.post(f"/api/tables/{table['id']}/invite", json={"name": "Bahar"}, headers=no_token)
        refused(invite, 403, "bad_csrf")
        invited = post(ava, f"/api/tables/{table['id']}/invite", ava_csrf, name="bahar")
        assert invited.json() == {"invited": "Bahar"}
        post(ava, f"/api/tables/{table['id']}/invite", ava_csrf, name="Bahar").raise_for_status()  # once is kept
        (invitation,) = bahar.get("/api/invitations").json()["invitations"]
        assert (invitation["from"], invitation["table"], invitation["players"]) == ("Ava", table["id"], 2)
        refused(post(ava, f"/api/tables/{table['id']}/invite", ava_csrf, name="Ava"), 400, "invite_self")
        refused(post(ava, f"/api/tables/{table['id']}/invite", ava_csrf, name="Nobody"), 404, "no_such_player")
        # Bahar was not at the table: she cannot invite to it
        refused(post(bahar, f"/api/tables/{table['id']}/invite", bahar_csrf, name="Ava"), 400, "not_seated")
        assert ava.get("/api/invitations").json()["invitations"] == []  # another's invitations are never shown
        with seated(ava, table["id"], table["token"]) as socket:
            next_state(socket)
            socket.send_json({"type": "start"})
            assert answer(socket)["type"] == "started"
        assert bahar.get("/api/invitations").json()["invitations"] == []  # started: nothing to join
        refused(post(ava, f"/api/tables/{table['id']}/invite", ava_csrf, name="Bahar"), 400, "already_started")


def test_an_invitation_can_be_declined_by_its_player_only(database):
    with browser(database) as ava, browser(database) as bahar:
        ava_csrf, bahar_csrf = sign_up(ava, "Ava")["csrf"], sign_up(bahar, "Bahar")["csrf"]
        table = ava.post("/api/tables", json={"name": "x", "seats": ["friend"]}).json()
        post(ava, f"/api/tables/{table['id']}/invite", ava_csrf, name="Bahar").raise_for_status()
        (invitation,) = bahar.get("/api/invitations").json()["invitations"]
        ava.request("DELETE", f"/api/invitations/{invitation['id']}", headers={"X-CSRF-Token": ava_csrf})
        assert len(bahar.get("/api/invitations").json()["invitations"]) == 1  # not Ava's to decline
        bahar.request("DELETE", f"/api/invitations/{invitation['id']}", headers={"X-CSRF-Token": bahar_csrf})
        assert bahar.get("/api/invitations").json()["invitations"] == []


def test_a_blocked_player_cannot_invite_and_neither_reads_the_others_chat(database):
    with browser(database) as client:  # one process: both sit at its table; each browser its own cookie
        ava_csrf = sign_up(client, "Ava")["csrf"]
        ava_cookie = client.cookies[COOKIE]
        client.cookies.clear()
        bahar_csrf = sign_up(client, "Bahar")["csrf"]
        bahar_cookie = client.cookies[COOKIE]

        def as_(cookie: str) -> TestClient:
            client.cookies.set(COOKIE, cookie)
            return client

        table = as_(bahar_cookie).post("/api/tables", json={"name": "x", "seats": ["friend"]}).json()
        post(as_(bahar_cookie), f"/api/tables/{table['id']}/invite", bahar_csrf, name="Ava").raise_for_status()
        assert post(as_(ava_cookie), "/api/blocks", ava_csrf, name="bahar").json() == {"blocked": "Bahar"}
        assert client.get("/api/blocks").json() == {"blocked": ["Bahar"]}
        assert client.get("/api/invitations").json()["invitations"] == []  # her invitation went with the block
        refused(post(client, "/api/blocks", ava_csrf, name="Ava"), 400, "block_self")
        refused(client.post("/api/blocks", json={"name": "Bahar"}, headers={"X-CSRF-Token": ""}), 403, "bad_csrf")
        invite = f"/api/tables/{table['id']}/invite"
        refused(post(as_(bahar_cookie), invite, bahar_csrf, name="Ava"), 403, "invite_blocked")
        # at one table anyway (its link was shared): neither reads the other's lines
        join = f"/api/tables/{table['id']}/join"
        joined = as_(ava_cookie).post(join, json={"name": "x"}, headers={"X-CSRF-Token": ava_csrf}).json()
        with (
            seated(client, table["id"], table["token"]) as bahar_socket,
            seated(client, table["id"], joined["token"]) as ava_socket,
        ):
            next_state(bahar_socket), next_state(ava_socket)
            bahar_socket.send_json({"type": "chat", "text": "salaam"})
            said = []
            while not said or said[-1]["type"] != "said":
                said.append(bahar_socket.receive_json())
            assert any(message.get("text") == "salaam" for message in said)  # she reads her own line
            ava_socket.send_json({"type": "ping"})
            heard = []
            while (message := ava_socket.receive_json())["type"] != "pong":
                heard.append(message)
            assert not [message for message in heard if message["type"] == "chat"]
        with seated(client, table["id"], joined["token"]) as ava_socket:
            assert next_state(ava_socket)["chat"] == []  # nor among the recent lines
        as_(ava_cookie).request("DELETE", "/api/blocks/Bahar", headers={"X-CSRF-Token": ava_csrf}).raise_for_status()
        assert client.get("/api/blocks").json() == {"blocked": []}
        with seated(client, table["id"], joined["token"]) as ava_socket:
            assert [line["text"] for line in next_state(ava_socket)["chat"]] == ["salaam"]  # unblocked: read again


def test_friends_need_a_session(database):
    with browser(database) as guest:
        refused(guest.get("/api/invitations"), 401, "not_signed_in")
        refused(guest.get("/api/blocks"), 401, "not_signed_in")
        refused(guest.post("/api/blocks", json={"name": "Ava"}), 401, "not_signed_in")
