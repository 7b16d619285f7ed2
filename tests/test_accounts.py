"""Accounts: signing up, in and out over HTTP; what the database keeps; and the hostile side:
brute force throttled (shared by processes on one database), CSRF refused, no session fixation,
no account enumeration, look-alike and bot names refused, sign-ups from one address limited."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("argon2")

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from pasur.i18n import REFUSALS
from pasur.server.accounts import ANONYMOUS, COOKIE
from pasur.server.app import create_app

from .server_helpers import EVERY_TABLE, TEST_SETTINGS, play_to_the_end, seated

POSTGRES = os.environ.get("PASUR_TEST_POSTGRES")
PASSWORD = "felt and four cards"


@pytest.fixture
def database(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'accounts.db'}"


def browser(database: str, **settings: Any) -> TestClient:
    """A browser (a client with its own cookies) on a server process over ``database``."""
    return TestClient(create_app(database, dataclasses.replace(TEST_SETTINGS, **settings)))


@pytest.fixture
def client(database) -> Iterator[TestClient]:
    with browser(database) as test_client:
        yield test_client


def sign_up(client: TestClient, name: str = "Ava", password: str = PASSWORD) -> dict[str, Any]:
    """A new account, ``client`` signed in to it and repeating its CSRF token from now on, as the page does."""
    response = client.post("/api/account", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    client.headers["x-csrf-token"] = response.json()["csrf"]
    return dict(response.json())


def refused(response: Any, status: int, reason: str) -> None:
    """Refused with ``status`` and ``reason``, said in both languages."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["reason"] == reason and body["messages"]["en"] and body["messages"]["fa"], body
    assert reason in REFUSALS


def test_sign_up_signs_in_with_an_http_only_cookie_and_keeps_only_a_hash(client, database):
    answer = sign_up(client)
    assert answer["name"] == "Ava" and len(answer["csrf"]) >= 40
    cookie = client.post("/api/session", json={"name": "ava", "password": PASSWORD}).headers["set-cookie"]
    assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    me = client.get("/api/me").json()
    assert me["name"] == "Ava"
    engine = create_engine(database)
    with engine.connect() as connection:
        (stored,) = connection.execute(text("SELECT password FROM accounts")).one()
        sessions = [row[0] for row in connection.execute(text("SELECT id FROM sessions"))]
    engine.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert client.cookies[COOKIE] not in sessions  # the database keeps each token's digest only


def test_behind_tls_the_cookie_is_secure(database):
    with TestClient(create_app(database, TEST_SETTINGS), base_url="https://testserver") as secure:
        response = secure.post("/api/account", json={"name": "Ava", "password": PASSWORD})
        assert "Secure" in response.headers["set-cookie"]


def test_log_in_always_gives_a_new_session_never_the_one_brought(client):
    sign_up(client)
    client.cookies.clear()
    fixed = {"cookie": f"{COOKIE}=a-token-an-attacker-chose"}  # planted in the browser beforehand
    response = client.post("/api/session", json={"name": "Ava", "password": PASSWORD}, headers=fixed)
    chosen = response.cookies[COOKIE]
    assert chosen != "a-token-an-attacker-chose"
    client.cookies.clear()
    refused(client.get("/api/me", headers=fixed), 401, "not_signed_in")
    assert client.get("/api/me", headers={"cookie": f"{COOKIE}={chosen}"}).json()["name"] == "Ava"


def test_an_unknown_name_and_a_wrong_password_are_refused_alike_after_the_same_work(client, monkeypatch):
    sign_up(client)
    accounts = client.app.state.accounts
    verified: list[str] = []
    real = accounts._verify
    monkeypatch.setattr(accounts, "_verify", lambda hashed, password: verified.append(hashed) or real(hashed, password))
    wrong = client.post("/api/session", json={"name": "Ava", "password": "not the password"})
    unknown = client.post("/api/session", json={"name": "Nobody", "password": "not the password"})
    for response in (wrong, unknown):
        refused(response, 400, "bad_log_in")
    # a hash checked for each: the account's, and for the unknown name a decoy
    assert wrong.json() == unknown.json() and len(verified) == 2 and all(h.startswith("$argon2id$") for h in verified)


def test_failed_log_ins_are_throttled_per_account_and_per_address(database):
    with browser(database, log_in_failures=3, log_in_failures_per_address=5) as client:
        sign_up(client, "Ava")
        sign_up(client, "Bahar")
        for _ in range(3):
            refused(client.post("/api/session", json={"name": "Ava", "password": "guess guess"}), 400, "bad_log_in")
        # the right password too is refused now, without being checked
        refused(client.post("/api/session", json={"name": "Ava", "password": PASSWORD}), 429, "too_many_log_ins")
        client.post(
            "/api/session", json={"name": "Bahar", "password": PASSWORD}
        ).raise_for_status()  # a success forgets
        for _ in range(2):
            client.post("/api/session", json={"name": "Bahar", "password": "guess guess"})
        refused(client.post("/api/session", json={"name": "Bahar", "password": PASSWORD}), 429, "too_many_log_ins")


@pytest.mark.parametrize(
    "kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(not POSTGRES, reason="no PostgreSQL"))]
)
def test_every_process_on_one_database_counts_the_same_failures(kind, database):
    url = database if kind == "sqlite" else POSTGRES or ""
    if kind == "postgresql":  # this worker's database, emptied
        engine = create_engine(url)
        with engine.begin() as connection:
            connection.execute(text(f"DROP TABLE IF EXISTS {EVERY_TABLE} CASCADE"))
        engine.dispose()
    with browser(url, log_in_failures=4) as first, browser(url, log_in_failures=4) as second:
        sign_up(first, "Ava")
        for process in (first, second, first, second):
            process.post("/api/session", json={"name": "Ava", "password": "guess guess"})
        refused(second.post("/api/session", json={"name": "Ava", "password": PASSWORD}), 429, "too_many_log_ins")
        refused(first.post("/api/session", json={"name": "Ava", "password": PASSWORD}), 429, "too_many_log_ins")


def test_a_request_its_cookie_authorises_must_repeat_the_csrf_token(client):
    csrf = sign_up(client)["csrf"]
    del client.headers["x-csrf-token"]
    refused(client.delete("/api/session"), 403, "bad_csrf")
    for seat_as_the_account in ("/api/tables", "/api/lesson"):  # a page elsewhere cannot seat you as yourself
        body = {"name": "Ava", "seats": ["easy"]} if seat_as_the_account == "/api/tables" else {"name": "Ava"}
        refused(client.post(seat_as_the_account, json=body), 403, "bad_csrf")
    refused(client.delete("/api/session", headers={"X-CSRF-Token": "guessed"}), 403, "bad_csrf")
    assert client.get("/api/me").status_code == 200  # nothing changed
    assert client.delete("/api/session", headers={"X-CSRF-Token": csrf}).json() == {"ended": 1}
    refused(client.get("/api/me"), 401, "not_signed_in")


def test_a_form_on_another_site_cannot_sign_in_or_up(client):
    # a page elsewhere can post a form (not JSON) without asking: it is not understood
    for path in ("/api/session", "/api/account"):
        response = client.post(path, content=f"name=Ava&password={PASSWORD}", headers={"content-type": "text/plain"})
        assert response.status_code == 422 and COOKIE not in client.cookies


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("АVA", "name_taken"),  # a Cyrillic А
        ("a v a", "name_taken"),
        ("Shirin", "name_reserved"),
        ("5hirin 2", "name_reserved"),
        ("Bahram (master)", "name_reserved"),
        ("شيرين", "name_reserved"),  # the bot's Persian name, with an Arabic ye
        ("Ava\u202e", "name_control"),
    ],
)
def test_names_that_pass_for_another_are_refused(client, name, reason):
    sign_up(client, "Ava")
    refused(client.post("/api/account", json={"name": name, "password": PASSWORD}), 400, reason)


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short", "password_short"),
        ("Password123", "password_common"),
        ("qwerty12345", "password_common"),
        ("my name is Ava!", "password_has_name"),
        ("x" * 300, "password_long"),
    ],
)
def test_weak_passwords_are_refused(client, password, reason):
    refused(client.post("/api/account", json={"name": "Ava", "password": password}), 400, reason)


def test_a_thousand_sign_ups_from_one_address_are_refused_past_the_limit(client):
    answers = [
        client.post("/api/account", json={"name": f"player {number}", "password": PASSWORD}).status_code
        for number in range(1000)
    ]
    limit = TEST_SETTINGS.sign_ups_per_day
    assert answers[:limit] == [201] * limit and set(answers[limit:]) == {429}


def test_log_out_everywhere_and_a_new_password_end_other_browsers_sessions(database):
    with browser(database) as phone, browser(database) as desktop:
        sign_up(phone)
        desktop.post("/api/session", json={"name": "Ava", "password": PASSWORD}).raise_for_status()
        csrf = phone.get("/api/me").json()["csrf"]
        assert phone.delete("/api/sessions", headers={"X-CSRF-Token": csrf}).json() == {"ended": 2}
        refused(desktop.get("/api/me"), 401, "not_signed_in")
        csrf = desktop.post("/api/session", json={"name": "Ava", "password": PASSWORD}).json()["csrf"]
        phone.post("/api/session", json={"name": "Ava", "password": PASSWORD}).raise_for_status()
        new = "a new password for the felt"
        change = {"old": "not it at all", "new": new}
        refused(
            desktop.post("/api/account/password", json=change, headers={"X-CSRF-Token": csrf}), 400, "wrong_password"
        )
        change["old"] = PASSWORD
        desktop.post("/api/account/password", json=change, headers={"X-CSRF-Token": csrf}).raise_for_status()
        assert desktop.get("/api/me").status_code == 200  # this browser was given a new session
        refused(phone.get("/api/me"), 401, "not_signed_in")
        refused(phone.post("/api/session", json={"name": "Ava", "password": PASSWORD}), 400, "bad_log_in")
        phone.post("/api/session", json={"name": "Ava", "password": new}).raise_for_status()


def test_the_data_download_and_deleting_the_account(client):
    csrf = sign_up(client)["csrf"]
    data = client.get("/api/account/data")
    assert "attachment" in data.headers["content-disposition"]
    kept = data.json()
    assert kept["name"] == "Ava" and len(kept["sessions"]) == 1
    assert kept["record"]["ratings"]["2"]["games"] == 0 and kept["blocked"] == []
    assert PASSWORD not in data.text and "argon2" not in data.text and client.cookies[COOKIE] not in data.text
    wrong = client.request("DELETE", "/api/account", json={"password": "not it at all"}, headers={"X-CSRF-Token": csrf})
    refused(wrong, 400, "wrong_password")
    client.request(
        "DELETE", "/api/account", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf}
    ).raise_for_status()
    refused(client.get("/api/me"), 401, "not_signed_in")
    refused(client.post("/api/session", json={"name": "Ava", "password": PASSWORD}), 400, "bad_log_in")
    sign_up(client, "Ava")  # the name is free again


def test_another_browser_is_never_served_the_account(database):
    with browser(database) as ava, browser(database) as stranger:
        sign_up(ava)
        refused(stranger.get("/api/me"), 401, "not_signed_in")
        refused(stranger.get("/api/account/data"), 401, "not_signed_in")


# -- a player's matches -------------------------------------------------------------------------


def finish_a_match(client: TestClient, name: str = "Ava") -> tuple[str, dict[str, Any]]:
    """Create a one-round table against `easy` and play it to the end; its id and final state."""
    table = client.post("/api/tables", json={"name": name, "seats": ["easy"], "rules": {"target": 1}}).json()
    with seated(client, table["id"], table["token"]) as socket:
        socket.send_json({"type": "start"})
        return table["id"], play_to_the_end(socket, [])


def test_a_signed_in_player_sits_as_the_account_and_their_matches_are_kept(client):
    sign_up(client, "Ava")
    table_id, final = finish_a_match(client, name="Somebody else")
    assert final["table"]["seats"][0]["name"] == "Ava"  # the account's name, whatever was typed
    client.cookies.clear()
    finish_a_match(client, name="Ava")  # a guest called Ava: not the account's match
    record = client.get("/api/players/AVA").json()
    won = final["winner"] == 0
    assert (record["name"], record["games"], record["wins"]) == ("Ava", 1, int(won))
    (match,) = record["history"]
    assert match["table"] == table_id and match["won"] is won and match["scores"] == final["scores"]
    assert match["others"] == [{"name": "easy", "bot": "easy", "side": 1}]
    refused(client.get("/api/players/Nobody"), 404, "no_such_player")


def test_a_deleted_accounts_matches_stay_anonymised_and_its_id_is_never_reused(client, database):
    csrf = sign_up(client, "Ava")["csrf"]
    table_id, _ = finish_a_match(client)
    first_id = client.app.state.accounts.signed_in(client.cookies[COOKIE]).account.id
    deleting = {"password": PASSWORD}
    client.request("DELETE", "/api/account", json=deleting, headers={"X-CSRF-Token": csrf}).raise_for_status()
    sign_up(client, "Bahar")
    assert client.app.state.accounts.signed_in(client.cookies[COOKIE]).account.id != first_id
    assert client.get("/api/players/Bahar").json()["games"] == 0  # nothing of Ava's comes with the id
    refused(client.get("/api/players/Ava"), 404, "no_such_player")
    record = client.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200 and "Ava" not in record.text  # the match stays, without the name
    assert ANONYMOUS in record.text
    engine = create_engine(database)
    with engine.connect() as connection:
        kept = connection.execute(text("SELECT account_id, name FROM result_seats WHERE seat = 0")).one()
    engine.dispose()
    assert tuple(kept) == (None, ANONYMOUS)


def test_a_result_is_kept_once_however_many_processes_see_the_end(database):
    from pasur.server.results import Outcome, record_result
    from pasur.server.seats import TableSettings
    from pasur.server.store import Store

    with browser(database) as first:
        sign_up(first, "Ava")
        table_id, _ = finish_a_match(first)
    with browser(database) as second:  # another process reads the finished table back
        assert second.get(f"/api/tables/{table_id}/replay").status_code == 200
        room = second.app.state.lobby.get(table_id)
        store = Store(database)
        settings = TableSettings.from_json(room.settings.to_json())
        assert not record_result(store, table_id, settings, room.match, Outcome(room.match.winner))
        store.close()
        assert second.get("/api/players/Ava").json()["games"] == 1
    engine = create_engine(database)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM results")).scalar_one() == 1
        assert connection.execute(text("SELECT count(*) FROM result_seats")).scalar_one() == 2
    engine.dispose()


def test_a_guest_who_signs_up_keeps_the_matches_played_as_a_guest(database):
    with browser(database) as client:
        tables = []
        for name in ("Ava", "Bahar"):  # this browser's match as a guest, and another's
            table = client.post("/api/tables", json={"name": name, "seats": ["easy"], "rules": {"target": 1}}).json()
            with seated(client, table["id"], table["token"]) as socket:
                socket.send_json({"type": "start"})
                play_to_the_end(socket, [])
            tables.append(table)
        csrf = {"X-CSRF-Token": sign_up(client, "Ava")["csrf"]}
        mine, theirs = tables
        tokens = {mine["id"]: mine["token"], theirs["id"]: "not-the-seat-token", "nosuchtable": "x"}
        no_token = {"X-CSRF-Token": ""}
        refused(client.post("/api/account/matches", json={"tokens": tokens}, headers=no_token), 403, "bad_csrf")
        claimed = client.post("/api/account/matches", json={"tokens": tokens}, headers=csrf)
        assert claimed.json() == {"claimed": 1}  # only the seat whose token this browser holds
        again = client.post("/api/account/matches", json={"tokens": tokens}, headers=csrf)
        assert again.json() == {"claimed": 0}  # a seat is claimed once
        (match,) = client.get("/api/players/Ava").json()["history"]
        assert match["table"] == mine["id"]
        too_many = {"tokens": {f"t{number}": "x" for number in range(501)}}
        assert client.post("/api/account/matches", json=too_many, headers=csrf).status_code == 422
