"""Matches played on a device with no server, added to an account: kept as a finished table whose
record and replay work, listed in the player's history as played on a device, never rated and
never counted in their games, wins or figures; and the hostile side: forged, unfinished, re-dealt
and mis-seated records refused with their reason and nothing kept, a match added twice, a day's
limit, no session or no CSRF token."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

pytest.importorskip("argon2")

from pasur.coach.lesson import lesson_match
from pasur.core import Match, Rules, to_record
from pasur.server import device_games

from .test_accounts import browser, refused, sign_up


@pytest.fixture
def database(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'device.db'}"


def played_on_a_device(seed: int, players: int = 2, target: int = 1) -> dict[str, Any]:
    """What the page sends for a match played to its end on a device: random legal moves."""
    rules = Rules(players=players, target=target)
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    while not match.over:
        match.play(rng.choice(match.legal_moves()))
    names = ["Ava"] + [f"Shirin (hard) {seat}" for seat in range(1, players)]
    return {
        "record": to_record(match, names),
        "seed": str(seed),
        "seats": [{"name": "Ava"}] + [{"bot": "hard"}] * (players - 1),
        "seat": 0,
    }


def history(client: Any, name: str = "Ava") -> dict[str, Any]:
    response = client.get(f"/api/players/{name}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_a_match_played_on_a_device_joins_the_history_unrated_and_uncounted(database):
    with browser(database) as client:
        sign_up(client)
        game = played_on_a_device(11, players=4, target=20)
        response = client.post("/api/account/device-games", json=game)
        assert response.status_code == 201, response.text
        table = response.json()["table"]
        page = history(client)
        [entry] = page["history"]
        assert entry["table"] == table and entry["device"] is True and entry["rated"] is False
        assert [other["bot"] for other in entry["others"]] == ["hard"] * 3
        assert page["games"] == 0 and page["wins"] == 0 and page["figures"]["rounds"] == 0  # shown, not counted
        kept = client.get(f"/api/tables/{table}/record").json()
        assert kept["rounds"] == game["record"]["rounds"]  # the same decks and moves, from the seed
        assert len(client.get(f"/api/tables/{table}/replay").json()) > len(kept["rounds"])
        refused(client.post("/api/account/device-games", json=game), 400, "device_game_added")
    with browser(database) as other:  # another process reads the same table back from the store
        assert other.get(f"/api/tables/{table}/record").json()["rounds"] == game["record"]["rounds"]


def forged(game: dict[str, Any], change: str) -> dict[str, Any]:
    """``game`` with one thing wrong."""
    bad = copy.deepcopy(game)
    moves = bad["record"]["rounds"][0]["moves"]
    if change == "illegal move":
        moves[0], moves[1] = moves[1], moves[0]
    elif change == "cut short":
        del moves[-1]
    elif change == "another seed":
        bad["seed"] = str(int(bad["seed"]) + 1)
    elif change == "a bot's seat":
        bad["seat"] = 1
    elif change == "a seat too many":
        bad["seats"].append({"bot": "hard"})
    elif change == "a program for a bot":
        bad["seats"][1] = {"bot": "exec:rm -rf /"}
    elif change == "a hidden name":
        bad["seats"][1] = {"name": "Shi\u202erin"}
    return bad


@pytest.mark.parametrize(
    ("change", "status", "reason"),
    [
        ("illegal move", 400, "bad_record"),
        ("cut short", 400, "device_game_unfinished"),
        ("another seed", 400, "device_game_not_dealt"),
        ("a bot's seat", 400, "bad_device_seats"),
        ("a seat too many", 400, "bad_device_seats"),
        ("a program for a bot", 400, "bad_device_seats"),
        ("a hidden name", 400, "name_control"),
    ],
)
def test_a_record_that_does_not_hold_is_refused_with_its_reason_and_nothing_is_kept(database, change, status, reason):
    game = played_on_a_device(5)
    if change == "a hidden name":
        game["seats"][1] = {"name": "Shirin"}
    with browser(database) as client:
        sign_up(client)
        refused(client.post("/api/account/device-games", json=forged(game, change)), status, reason)
        assert history(client)["history"] == []
        assert client.post("/api/account/device-games", json=game).status_code == 201  # the true one is taken


def test_only_a_signed_in_page_repeating_its_token_adds_a_match(database):
    game = played_on_a_device(7)
    with browser(database) as client:
        refused(client.post("/api/account/device-games", json=game), 401, "not_signed_in")
        sign_up(client)
        del client.headers["x-csrf-token"]
        refused(client.post("/api/account/device-games", json=game), 403, "bad_csrf")
        assert history(client)["history"] == []


def test_a_day_holds_only_so_many_matches_from_a_device(database, monkeypatch):
    monkeypatch.setattr(device_games, "DEVICE_GAMES_A_DAY", 2)
    with browser(database) as client:
        sign_up(client)
        for seed in (1, 2):
            assert client.post("/api/account/device-games", json=played_on_a_device(seed)).status_code == 201
        refused(client.post("/api/account/device-games", json=played_on_a_device(3)), 429, "too_many_device_games")
        assert len(history(client)["history"]) == 2


def test_a_lesson_played_on_a_device_is_replayed_from_the_lessons_deal(database):
    match = lesson_match(9)
    rng = random.Random(9)
    while not match.over:
        match.play(rng.choice(match.legal_moves()))
    game = {"record": to_record(match), "seed": "9", "seats": [{"name": "Ava"}, {"bot": "easy"}], "seat": 0}
    with browser(database) as client:
        sign_up(client)
        refused(client.post("/api/account/device-games", json=game), 400, "device_game_not_dealt")
        assert client.post("/api/account/device-games", json={**game, "lesson": True}).status_code == 201
