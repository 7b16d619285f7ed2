"""Rated play: who may make and join a rated table, a rating changed exactly once per finished
rated match (in the result's transaction, however many processes see the end), resigning and
leaving counted as losses, a player's page and the leaderboards, and the model on the bots' scale."""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import threading
from datetime import UTC, datetime
from typing import Any

import pytest

pytest.importorskip("openskill")

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from pasur.coach.analysis import accuracy
from pasur.core import Match, Rules
from pasur.server.app import create_app
from pasur.server.bots import BOT_RATINGS, BOT_RATINGS_AT
from pasur.server.players import week_start
from pasur.server.ratings import PROVISIONAL, START, Rating, bot_rating, match_wins_elo, rate
from pasur.server.seats import Seat, TableSettings, TableStatus
from pasur.server.store import StoredMove
from pasur.server.tables import TableRoom
from pasur.server.turns import ABANDONED_TURNS

from .server_helpers import EVERY_TABLE, TEST_SETTINGS, answer, next_state, play_to_the_end, reviewed, seated
from .test_accounts import refused, sign_up
from .test_shared import play_my_turns

POSTGRES = os.environ.get("PASUR_TEST_POSTGRES")
#: Rated tables need a turn timer: a minute, so that the test's own moves are never the timer's.
SETTINGS = dataclasses.replace(TEST_SETTINGS, timers=(0, 1, 60))


@pytest.fixture
def database(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'ratings.db'}"


_networks = itertools.count(1)


def browser(database: str, address: str | None = None) -> TestClient:
    """A browser on a server process over ``database``, from a network of its own (two accounts
    of one network never sit at one rated table) unless ``address`` is given."""
    return TestClient(create_app(database, SETTINGS), client=(address or next_network(), 5000))


def next_network() -> str:
    """An address of a network no other browser of these tests has used lately."""
    return f"198.51.{next(_networks) % 250}.7"


def rated_table(client: TestClient, seats: list[str] | None = None, **body: Any) -> dict[str, Any]:
    response = client.post(
        "/api/tables", json={"name": "x", "seats": seats or ["easy"], "timer": 60, "rated": True, **body}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def play_rated_against_a_bot(client: TestClient, level: str = "easy") -> tuple[str, dict[str, Any]]:
    table = rated_table(client, [level])
    with seated(client, table["id"], table["token"]) as socket:
        socket.send_json({"type": "start"})
        return table["id"], play_to_the_end(socket, [])


# -- the model -------------------------------------------------------------------------------------


def test_the_model_puts_people_on_the_bots_elo_scale():
    # the update's expected score is Elo's: a player 400 above a bot is expected to win 10 times
    # in 11, so a win gains a tenth of what a loss costs
    strong, bot = Rating(1800, 10), Rating(1400, 0.001)
    [[won], _] = rate([[strong], [bot]], winner=0)
    [[lost], _] = rate([[strong], [bot]], winner=1)
    assert (won.value - strong.value) / (strong.value - lost.value) == pytest.approx(1 / 10, abs=0.005)
    # a win raises, a loss lowers; the deviation shrinks either way; a bot's own rating is fixed
    [[won], [_]] = rate([[Rating()], [bot_rating("medium")]], winner=0)
    [[lost], [_]] = rate([[Rating()], [bot_rating("medium")]], winner=1)
    assert lost.value < START < won.value and won.deviation < Rating().deviation
    assert bot_rating("medium").value == BOT_RATINGS["medium"]
    # beating the grandmaster is worth more than beating the beginner
    [[over_strong], _] = rate([[Rating()], [bot_rating("grandmaster")]], winner=0)
    [[over_weak], _] = rate([[Rating()], [bot_rating("beginner")]], winner=0)
    assert over_strong.value - START > over_weak.value - START > 0
    # a bot is rated at each kind of rated table by that table's ladder, each its own
    for kind in ("2", "3", "4", "4-each"):
        assert bot_rating("master", kind).value == BOT_RATINGS_AT[kind]["master"]
    assert len({BOT_RATINGS_AT[kind]["master"] for kind in BOT_RATINGS_AT}) == 4
    # at three players, a bot's step up the ladder (match_wins_elo of its share of wins) is where
    # the model's update expects no change: a player that far above two equals, winning that share
    # of matches, neither gains nor loses on average
    for ahead in (0, 50, 150, 300):
        low, high = 0.0, 1.0
        for _ in range(60):  # the share of wins whose Elo at three is `ahead`
            share = (low + high) / 2
            low, high = (share, high) if match_wins_elo(share, 3) < ahead else (low, share)
        player, other = Rating(1500 + ahead, 10), Rating(1500, 0.001)
        [[won], *_] = rate([[player], [other], [other]], winner=0)
        [[lost], *_] = rate([[player], [other], [other]], winner=1)
        expected = share * (won.value - player.value) + (1 - share) * (lost.value - player.value)
        assert abs(expected) < 0.002 * (won.value - lost.value)
    assert match_wins_elo(1 / 3, 3) == pytest.approx(0) and match_wins_elo(10 / 11, 2) == pytest.approx(400)
    # four each for themselves, a level in two seats against two of another: the same holds for
    # its two seats' share of the matches
    for ahead in (0, 50, 150):
        low, high = 0.0, 1.0
        for _ in range(60):
            share = (low + high) / 2
            low, high = (share, high) if match_wins_elo(share, 4, seats=2) < ahead else (low, share)
        player, other = Rating(1500 + ahead, 10), Rating(1500, 0.001)
        sides = [[player], [player], [other], [other]]
        outcomes = [(winner, share / 2 if winner < 2 else (1 - share) / 2) for winner in range(4)]
        expected = sum(chance * (rate(sides, winner)[0][0].value - player.value) for winner, chance in outcomes)
        assert abs(expected) < 0.002 * (rate(sides, 0)[0][0].value - rate(sides, 2)[0][0].value)
    assert match_wins_elo(1 / 2, 4, seats=2) == pytest.approx(0)
    # partners share a side: both rise when it wins
    [[first, second], _] = rate([[Rating(), Rating(1600, 100)], [bot_rating("easy"), bot_rating("hard")]], winner=0)
    assert first.value > START and second.value > 1600
    assert Rating().provisional and not Rating(1500, PROVISIONAL).provisional


# -- who may play rated ------------------------------------------------------------------------------


def test_a_rated_table_needs_an_account_the_standard_rules_and_a_timer(database):
    with browser(database) as client:
        body = {"name": "Ava", "seats": ["easy"], "timer": 60, "rated": True}
        refused(client.post("/api/tables", json=body), 401, "rated_needs_account")
        sign_up(client, "Ava")
        refused(client.post("/api/tables", json={**body, "timer": 0}), 400, "rated_timer")
        for rules in ({"target": 30}, {"players": 4, "partnership": False, "target": 100}, {"sur_cancel": False}):
            seats = ["easy"] * (rules.get("players", 2) - 1)
            refused(client.post("/api/tables", json={**body, "rules": rules, "seats": seats}), 400, "rated_rules")
        four = rated_table(client, ["friend", "easy", "friend"], rules={"players": 4})
        assert client.get(f"/api/tables/{four['id']}").json()["rated"] is True
        each = rated_table(client, ["friend", "easy", "friend"], rules={"players": 4, "partnership": False})
        assert client.get(f"/api/tables/{each['id']}").json()["rated"] is True
        three = rated_table(client, ["friend", "medium"], rules={"players": 3})
        assert client.get(f"/api/tables/{three['id']}").json()["rated"] is True
        table = rated_table(client, ["friend"], hints=True)
        info = client.get(f"/api/tables/{table['id']}").json()
        assert info["rated"] is True and info["hints"] is False  # no bot's advice in a rated match
    with browser(database) as guest:
        refused(guest.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"}), 401, "rated_needs_account")
        sign_up(guest, "Bahar")
        assert guest.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"}).status_code == 200


# -- a rated match, and its rating ------------------------------------------------------------------


def test_a_rated_match_against_a_bot_changes_the_rating_once_and_shows_it(database):
    with browser(database) as client:
        sign_up(client, "Ava")
        table_id, final = play_rated_against_a_bot(client, "easy")
        won = final["winner"] == 0
        record = client.get("/api/players/Ava").json()
        rating = record["ratings"]["2"]
        assert rating["games"] == 1 and rating["provisional"] is True and record["rating"] == rating
        assert (rating["value"] > START) is won and rating["value"] != START
        (match,) = record["history"]
        assert match["rated"] is True and match["rating"] == {"before": START, "after": rating["value"]}
        assert record["graph"]["2"] == [
            {"finished": None, "rating": START},
            {"finished": match["finished"], "rating": rating["value"]},
        ]
        assert record["figures"]["rounds"] == len(final["rounds"]) and record["figures"]["points_per_round"] > 0
        # the same end seen again (another process reading the table back) changes nothing
        client.app.state.lobby.rooms.pop(table_id)
        assert client.get(f"/api/tables/{table_id}/replay").status_code == 200
        assert client.get("/api/players/Ava").json()["ratings"]["2"] == rating
        # the leaderboards: all time by rating, this week by rating gained; the bots apart
        board = client.get("/api/leaderboard?period=all&table=2").json()
        assert [(leader["name"], leader["value"]) for leader in board["leaders"]] == [("Ava", rating["value"])]
        assert board["bots"][0] == {"level": "grandmaster", "rating": BOT_RATINGS["grandmaster"]}
        week = client.get("/api/leaderboard?period=week&table=2").json()
        (leader,) = week["leaders"]
        assert leader == {"rank": 1, "name": "Ava", "games": 1, "wins": int(won), "gained": rating["value"] - START}
        assert week["last_week"] == [] and client.get("/api/leaderboard?table=4").json()["leaders"] == []
        refused(client.get("/api/leaderboard?period=month"), 400, "bad_period")
        assert client.get("/api/leaderboard?table=3").json()["leaders"] == []
        assert client.get("/api/leaderboard?table=4-each").json()["leaders"] == []
        for unknown in ("5", "4each", "4 -each"):
            refused(client.get("/api/leaderboard", params={"table": unknown}), 400, "bad_table_kind")
        assert client.get("/api/leaderboard", params={"table": "4-each" * 2}).status_code == 422  # too long


@pytest.mark.parametrize(("rules", "kind"), [({"players": 3}, "3"), ({"players": 4, "partnership": False}, "4-each")])
def test_a_rated_match_each_for_themselves_rates_the_person_at_that_table_against_the_bots_there(database, rules, kind):
    with browser(database) as client:
        sign_up(client, "Ava")
        table = rated_table(client, ["easy"] * (rules["players"] - 1), rules=rules)
        with seated(client, table["id"], table["token"]) as socket:
            socket.send_json({"type": "start"})
            final = play_to_the_end(socket, [])
        record = client.get("/api/players/Ava").json()
        rating = record["ratings"][kind]
        assert rating["games"] == 1 and all(
            other["games"] == 0 for at, other in record["ratings"].items() if at != kind
        )
        # the winner gains against each bot (rated as measured at that table), the others lose
        assert (rating["value"] > START) is (final["winner"] == 0) and rating["value"] != START
        assert len(record["graph"][kind]) == 2 and all(not line for at, line in record["graph"].items() if at != kind)
        assert record["history"][0]["kind"] == kind
        board = client.get("/api/leaderboard", params={"period": "all", "table": kind}).json()
        assert [leader["name"] for leader in board["leaders"]] == ["Ava"]
        assert (
            client.get("/api/leaderboard", params={"table": "4" if kind == "4-each" else "2"}).json()["leaders"] == []
        )
        measured = BOT_RATINGS_AT[kind]  # the bots at that table's own ratings, strongest first
        assert [(bot["level"], bot["rating"]) for bot in board["bots"]] == sorted(measured.items(), key=lambda i: -i[1])


@pytest.mark.long
def test_the_profile_shows_the_accuracy_of_the_reviewed_rated_matches(database):
    with browser(database) as client:
        sign_up(client, "Ava")
        assert client.get("/api/players/Ava").json()["figures"]["accuracy"] is None  # nothing reviewed yet
        table_id, _final = play_rated_against_a_bot(client, "easy")
        play_a_casual_match = client.post("/api/tables", json={"name": "x", "seats": ["easy"], "rules": {"target": 1}})
        with seated(client, play_a_casual_match.json()["id"], play_a_casual_match.json()["token"]) as socket:
            socket.send_json({"type": "start"})
            play_to_the_end(socket, [])
        casual = reviewed(client, play_a_casual_match.json()["id"])  # a casual match's review does not count
        review = reviewed(client, table_id)
        losses = [one["loss"] for one in review["moves"] if one["seat"] == 0 and len(one["values"]) > 1]
        assert casual["moves"] and losses
        figures = client.get("/api/players/Ava").json()["figures"]
        mean = sum(losses) / len(losses)
        assert figures["reviewed_matches"] == 1 and figures["mean_loss"] == pytest.approx(mean, abs=1e-3)
        assert figures["accuracy"] == accuracy(mean) == review["players"][0]["accuracy"]


def test_a_casual_match_changes_no_rating(database):
    with browser(database) as client:
        sign_up(client, "Ava")
        table = client.post("/api/tables", json={"name": "x", "seats": ["easy"], "rules": {"target": 1}}).json()
        with seated(client, table["id"], table["token"]) as socket:
            socket.send_json({"type": "start"})
            play_to_the_end(socket, [])
        record = client.get("/api/players/Ava").json()
        assert record["games"] == 1 and record["history"][0]["rating"] is None
        assert record["ratings"]["2"] == {"value": START, "deviation": 350, "provisional": True, "games": 0}


def test_resigning_loses_the_match_and_the_rating(database):
    with browser(database) as client:
        sign_up(client, "Ava")
        table = rated_table(client, ["medium"])
        with seated(client, table["id"], table["token"]) as socket:
            socket.send_json({"type": "start"})
            state = play_to_the_end(socket, [], stop_after=3)
            socket.send_json({"type": "resign"})
            said = []  # everyone's finished state, then the answer
            while not said or said[-1]["type"] != "resigned":
                said.append(socket.receive_json())
            final = next(message for message in said if message["type"] == "state")
            assert final["table"]["status"] == "finished"
            assert final["winner"] == 1 and final["ended"] == "resigned" and final["table"]["resigned"] == 0
            assert final["version"] == state["version"] and final["legal"] == []
            socket.send_json({"type": "resign"})
            assert answer(socket)["reason"] == "not_under_way"
        record = client.get("/api/players/Ava").json()
        assert record["ratings"]["2"]["value"] < START and record["wins"] == 0
        assert record["history"][0]["ended"] == "resigned"
        assert client.get(f"/api/tables/{table['id']}/record").status_code == 200


def test_only_a_seated_player_of_two_sides_may_resign(database):
    with browser(database) as client:
        three = client.post(
            "/api/tables", json={"name": "Ava", "seats": ["easy", "easy"], "rules": {"players": 3}}
        ).json()
        with seated(client, three["id"], three["token"]) as socket:
            next_state(socket)
            socket.send_json({"type": "resign"})
            assert answer(socket)["reason"] == "resign_sides"
        two = client.post("/api/tables", json={"name": "Ava", "seats": ["easy"]}).json()
        with seated(client, two["id"]) as watcher:
            next_state(watcher)
            watcher.send_json({"type": "resign"})
            assert answer(watcher)["reason"] == "no_seat"
        with seated(client, two["id"], two["token"]) as socket:
            next_state(socket)
            socket.send_json({"type": "resign"})
            assert answer(socket)["reason"] == "not_under_way"  # not started: nothing to resign


def test_the_turn_timers_moves_are_marked_and_a_persons_own_move_clears_them(database):
    with browser(database) as client:
        table = client.post("/api/tables", json={"name": "Ava", "seats": ["easy"], "timer": 1}).json()
        with seated(client, table["id"], table["token"]) as socket:
            socket.send_json({"type": "start"})
            first = next_state(socket, lambda message: bool(message.get("legal")))
            # nobody moves: the timer plays for seat 0, and says so in the store
            next_state(socket, lambda message: message["version"] > first["version"] and message["last"]["seat"] == 0)
        room = client.app.state.lobby.get(table["id"])
        assert room.turns.timed.get(0, 0) >= 1
    engine = create_engine(database)
    with engine.connect() as connection:
        marked = connection.execute(text("SELECT seat, timed FROM moves ORDER BY version")).all()
    engine.dispose()
    assert (0, True) in [tuple(row) for row in marked] and all(not timed for seat, timed in marked if seat == 1)


def finished_moves(rules: Rules, seed: int) -> list[StoredMove]:
    """A whole match, each seat playing its first legal move, as stored moves."""
    match = Match(rules, seed=seed)
    moves = []
    while not match.over:
        seat = match.turn
        text_ = match.rounds[-1].move_text(match.rounds[-1].legal_moves()[0])
        match.play(text_)
        moves.append(StoredMove(len(moves) + 1, seat, text_, None))
    return moves


@pytest.mark.parametrize(("rated", "players"), [(True, 2), (False, 2), (True, 3)])
def test_a_person_the_timer_played_for_to_the_end_loses_a_rated_match(rated, players):
    rules = Rules(players=players)
    moves = finished_moves(rules, seed=11)
    seats = (Seat(name="Ava", token_hash="a", account=1), *[Seat(name="easy", bot="easy")] * (players - 1))
    settings = TableSettings(rules, 11, seats, "a", timer=60, rated=rated)
    by_score = TableRoom("t", settings, TableStatus.PLAYING, match=Match(rules, seed=11))
    by_score.replay(moves)
    winner, scores = by_score.match.winner, by_score.match.scores
    # the turn timer played the last turns of the side that won by the score
    leaver = next(seat for seat in range(players) if rules.side_of(seat) == winner)
    theirs = [index for index, move in enumerate(moves) if move.seat == leaver][-ABANDONED_TURNS:]
    timed = [dataclasses.replace(move, timed=index in theirs) for index, move in enumerate(moves)]
    room = TableRoom("t", settings, TableStatus.PLAYING, match=Match(rules, seed=11))
    room.replay(timed)
    outcome = room.outcome()
    assert outcome is not None
    if rated:  # the leaver's side loses; of the others, the one with the most points wins
        runner_up = max((side for side in range(rules.sides) if side != winner), key=lambda side: scores[side])
        assert (outcome.winner, outcome.ended) == (runner_up, "abandoned")
    else:  # a casual table: the score decides
        assert (outcome.winner, outcome.ended) == (winner, None)
    # one turn fewer is not leaving
    fewer = [dataclasses.replace(move, timed=index in theirs[1:]) for index, move in enumerate(moves)]
    room = TableRoom("t", settings, TableStatus.PLAYING, match=Match(rules, seed=11))
    room.replay(fewer)
    assert room.outcome() is not None and room.outcome().winner == winner


# -- the leaderboards' weeks -----------------------------------------------------------------------


def test_the_league_week_starts_on_monday_at_midnight_utc():
    assert week_start(datetime(2026, 12, 2, 14, 30, tzinfo=UTC)) == datetime(2026, 11, 30, tzinfo=UTC)
    assert week_start(datetime(2026, 11, 30, 0, 0, tzinfo=UTC)) == datetime(2026, 11, 30, tzinfo=UTC)
    assert week_start(datetime(2026, 11, 29, 23, 59, tzinfo=UTC)) == datetime(2026, 11, 23, tzinfo=UTC)


def test_last_weeks_podium_is_kept_and_this_weeks_league_starts_empty(database):
    with browser(database) as client:
        sign_up(client, "Ava")
        play_rated_against_a_bot(client)
        store = client.app.state.lobby.store
        with store.engine.begin() as connection:  # the match was played on a Tuesday, long ago
            connection.execute(text("UPDATE results SET finished = '2000-01-04T10:00:00+00:00'"))
        from pasur.server.players import leaderboard

        when = datetime(2000, 1, 8, 12, tzinfo=UTC)  # the Saturday after
        assert [leader["name"] for leader in leaderboard(store, "week", "2", now=when)["leaders"]] == ["Ava"]
        later = leaderboard(store, "week", "2", now=datetime(2000, 1, 12, tzinfo=UTC))
        assert later["leaders"] == [] and [leader["name"] for leader in later["last_week"]] == ["Ava"]


# -- many processes --------------------------------------------------------------------------------


@pytest.mark.skipif(not POSTGRES, reason="set PASUR_TEST_POSTGRES (scripts/test.sh starts one)")
def test_two_accounts_on_two_processes_play_a_rated_match_and_each_rating_changes_once():
    url = POSTGRES or ""
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(f"DROP TABLE IF EXISTS {EVERY_TABLE} CASCADE"))
    engine.dispose()
    with browser(url) as first, browser(url) as second:
        sign_up(first, "Ava")
        sign_up(second, "Bahar")
        table = rated_table(first, ["friend"])
        joined = second.post(f"/api/tables/{table['id']}/join", json={"name": "x"})
        assert joined.status_code == 200, joined.text
        with (
            seated(first, table["id"], table["token"]) as host,
            seated(second, table["id"], joined.json()["token"]) as guest,
        ):
            next_state(host)
            host.send_json({"type": "start"})
            finals: dict[str, Any] = {}
            thread = threading.Thread(target=lambda: finals.update(play_my_turns(guest)))
            thread.start()
            final = play_my_turns(host)
            thread.join(120)
        assert finals["version"] == final["version"] and finals["winner"] == final["winner"]
        ava, bahar = (
            process.get(f"/api/players/{name}").json() for process, name in ((first, "Ava"), (second, "Bahar"))
        )
        assert ava["ratings"]["2"]["games"] == bahar["ratings"]["2"]["games"] == 1
        winner, loser = (ava, bahar) if final["winner"] == 0 else (bahar, ava)
        assert winner["rating"]["value"] > START > loser["rating"]["value"]
        # equal ratings before: what one gained the other lost
        assert math.isclose(winner["rating"]["value"] - START, START - loser["rating"]["value"], abs_tol=1)
    engine = create_engine(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM results")).scalar_one() == 1
        assert connection.execute(text("SELECT sum(games) FROM ratings")).scalar_one() == 2
    engine.dispose()
