"""Exact puzzles: every arrangement of the unseen cards solved once, the puzzles found in play hold
when solved again, a puzzle file is checked at the door, the terminal asks them, and every puzzle
that comes with pasur is right."""

from __future__ import annotations

import functools
import io
import json
import math
import os
import random
from pathlib import Path

import pytest

from pasur import Match, Move, Rules, solve
from pasur.coach.puzzles import (
    FORMAT,
    Puzzle,
    _arrangements,
    best_line,
    exact_values,
    find_puzzles,
    played_gain,
    puzzle_problem,
    read_puzzles,
    shipped_puzzles,
)
from pasur.core import Round, native
from pasur.core.cards import mask_of
from pasur.host import MatchHost, seat_bots
from pasur.i18n import move_words
from pasur.tui.puzzle import PlainPuzzles

from .test_cli import assert_one_line_error, pasur

POSTGRES = os.environ.get("PASUR_TEST_POSTGRES")

if not native.available():
    pytest.skip("the native core was not built (or PASUR_ENGINE=python)", allow_module_level=True)


@functools.cache
def puzzles_of(seed: int) -> tuple[Puzzle, ...]:
    """The puzzles of one played round (found once; positions of up to 3,150 arrangements, a
    second or so each: the first moves of the fifth deal have 34,650)."""
    return tuple(find_puzzles(played(seed), most_arrangements=3150))


def played(seed: int) -> Match:
    match = Match(Rules(target=1), seed=seed)
    for _ in MatchHost(match, seat_bots(["expert", "greedy"], seed)).play_bots():
        pass
    return match


def position(match: Match, pack: int, hand: int | None = None) -> Round:
    """The first position of the match's round with ``pack`` cards in the pack (and the other
    player holding ``hand``)."""
    recorded = match.rounds[0]
    game = Round(match.rules, recorded.deck, recorded.number, recorded.banked, check_deck=False)
    for code in recorded.history:
        other = game.hands[1 - game.turn].bit_count()
        if game.pack == pack and (hand is None or other == hand) and len(game.legal_codes()) > 1:
            return game
        game.play_code(code)
    raise AssertionError("no such position")


def test_every_arrangement_of_the_unseen_cards_is_solved_once_and_agrees_with_the_view():
    game = position(played(3), pack=8, hand=1)
    view = game.view(game.turn)
    template = Round.from_view(view, random.Random(5))
    seen = set()
    for arranged in _arrangements(template, view):
        assert arranged.view(view.seat) == view  # the player sees the same position in each
        other, first = arranged.hands[1 - view.seat], arranged.deck[44:48]
        seen.add((other, tuple(sorted(first))))
    unseen = len(view.unseen())
    assert len(seen) == math.comb(unseen, 1) * math.comb(unseen - 1, 4) == 9 * 70
    values, exact, count = exact_values(view)
    assert (exact, count) == ("every_arrangement", 630)
    assert game.legal_codes() and set(values) == set(game.legal_codes())


def test_in_the_last_deal_the_values_are_the_solvers_on_the_cards_as_they_lie():
    game = position(played(4), pack=0)
    values, exact, count = exact_values(game.view(game.turn))
    sign = 1 if game.side_of(game.turn) == 0 else -1
    assert (exact, count) == ("last_deal", 1)
    assert values == {move.code: sign * move.value for move in solve(game).moves}
    assert exact_values(position(played(4), pack=16).view(0)) is None  # earlier deals are not exact


def test_the_puzzles_found_in_play_hold_when_solved_again_and_a_changed_one_does_not():
    puzzles = [puzzle for seed in (5, 6) for puzzle in puzzles_of(seed)]
    assert puzzles
    for puzzle in puzzles:
        assert puzzle.margin >= 1 and puzzle.difficulty in ("easy", "medium", "hard")
        back = Puzzle.from_json(json.loads(json.dumps(puzzle.to_json())))
        assert back.id == puzzle.id and back.answers == puzzle.answers
        assert puzzle_problem(back) is None
        best = max(puzzle.values.values())
        assert all(puzzle.values[answer] == best for answer in puzzle.answers)
        assert all(
            best - value >= puzzle.margin - 1e-9 for text, value in puzzle.values.items() if text not in puzzle.answers
        )
    puzzle = puzzles[0]
    wrong = next(text for text in puzzle.values if text not in puzzle.answers)
    changed = Puzzle.from_json({**puzzle.to_json(), "answers": [wrong]})
    assert "best moves" in (puzzle_problem(changed) or "")


def test_a_puzzle_file_is_checked_at_the_door():
    good = json.dumps(puzzles_of(5)[0].to_json())
    assert len(read_puzzles(good + "\n\n" + good)) == 2
    for hostile, words in (
        ("{not json", "not JSON"),
        (json.dumps({"format": "other"}), FORMAT),
        (good.replace('"answers": [', '"answers": ["KS", '), "legal"),
        ("[" * 70_000, "more than a puzzle file may hold"),
        # deeper than the parser goes before 3.14; 3.14's parser reads it, and it is no puzzle
        ("[" * 20_000 + "]" * 20_000, "line 2: (not JSON: nested too deeply|not a pasur-puzzle/1 puzzle)"),
        (json.dumps({**json.loads(good), "values": {}}), "values"),
    ):
        with pytest.raises(ValueError, match=words):
            read_puzzles(good + "\n" + hostile)


def test_the_terminal_asks_a_puzzle_and_says_the_answer_and_why(tmp_path):
    puzzle = puzzles_of(5)[0]
    for answer, said in (
        (puzzle.answers[0], "Right:"),
        (next(t for t in puzzle.values if t not in puzzle.answers), "Not the best"),
    ):
        out = io.StringIO()
        right = PlainPuzzles([puzzle], "en", io.StringIO(f"nonsense\n{answer}\n"), out).run()
        shown = out.getvalue()
        assert said in shown and "The answer:" in shown and "Legal moves:" in shown
        assert right == (said == "Right:")
        assert "nonsense" in shown or "not" in shown.lower()  # the bad answer was refused in words
        # the reason is about the move tried (for the answer, about the next best move)
        tried = Move.parse(
            answer
            if said != "Right:"
            else max((t for t in puzzle.values if t not in puzzle.answers), key=puzzle.values.__getitem__)
        )
        words = move_words(str(tried.card), [str(card) for card in tried.take])
        reason = [line for line in shown.split("The answer:")[1].splitlines() if " after " in line]
        assert len(reason) == 1 and words in reason[0], shown
        # what was answered is counted, not the puzzles left unasked
        counted = io.StringIO()
        PlainPuzzles([puzzle, puzzle], "en", io.StringIO(f"{answer}\nq\n"), counted).run()
        assert f"{int(right)} of 1 answered right." in counted.getvalue()
    persian = io.StringIO()
    PlainPuzzles([puzzle], "fa", io.StringIO("۱\n"), persian).run()  # Persian digits choose a move
    assert "پاسخ:" in persian.getvalue()
    path = tmp_path / "puzzles.jsonl"
    path.write_text(json.dumps(puzzle.to_json()) + "\n")
    result = pasur("puzzle", str(path), stdin="q\n")
    assert result.returncode == 0 and "Legal moves:" in result.stdout
    path.write_text("{not json\n")
    assert "line 1" in assert_one_line_error(pasur("puzzle", str(path)), 1)


@pytest.mark.parametrize("puzzle", shipped_puzzles(), ids=lambda puzzle: puzzle.id)
def test_every_puzzle_that_comes_with_pasur_is_right(puzzle):
    assert puzzle_problem(puzzle) is None


def test_the_web_api_gives_puzzles_without_their_answers_and_checks_a_move_tried(tmp_path):
    from fastapi.testclient import TestClient

    from pasur.server.app import create_app

    from .server_helpers import TEST_SETTINGS

    shipped = shipped_puzzles()
    assert shipped, "pasur comes with puzzles"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'pasur.db'}", TEST_SETTINGS)) as client:
        daily = client.get("/api/puzzles/daily").json()
        assert daily["puzzle"]["id"] in {puzzle.id for puzzle in shipped}
        for difficulty in ("easy", "medium", "hard"):
            count = sum(puzzle.difficulty == difficulty for puzzle in shipped)
            answer = client.get("/api/puzzles", params={"difficulty": difficulty, "index": count + 1})
            if not count:
                assert answer.status_code == 404
                continue
            given = answer.json()
            assert given["count"] == count and given["index"] == (count + 1) % count
            assert given["puzzle"]["difficulty"] == difficulty
        given = client.get("/api/puzzles").json()["puzzle"]
        assert not {"answers", "values", "reason"} & set(given)  # the answer comes after a try
        puzzle = next(one for one in shipped if one.id == given["id"])
        assert sorted(move["move"] for move in given["legal"]) == sorted(puzzle.values)
        for tried, right in (
            (puzzle.answers[0], True),
            (next(t for t in puzzle.values if t not in puzzle.answers), False),
        ):
            said = client.post(f"/api/puzzles/{puzzle.id}/answer", json={"move": tried}).json()
            assert (
                said["right"] is right and said["answers"][0]["card"] == Move.parse(puzzle.answers[0]).to_json()["card"]
            )
            assert [one["value"] for one in said["values"]] == sorted(
                (round(v, 2) for v in puzzle.values.values()), reverse=True
            )
            # the person's puzzle rating, rated against the puzzle: up when right, down when not
            rated = client.post(
                f"/api/puzzles/{puzzle.id}/answer", json={"move": tried, "rating": 1500, "deviation": 200}
            ).json()["rating"]
            assert (rated["change"] > 0) is right and rated["change"] != 0 and rated["deviation"] < 200
            assert (rated["value"] > 1500) is right
        # a harder puzzle moves a rating more when solved
        gains = {
            one.difficulty: client.post(
                f"/api/puzzles/{one.id}/answer", json={"move": one.answers[0], "rating": 1500, "deviation": 200}
            ).json()["rating"]["change"]
            for one in shipped
        }
        assert gains["easy"] < gains["medium"] < gains["hard"]
        for hostile, status in (
            (("/api/puzzles/nothex/answer", {"move": "7C"}), 422),
            (("/api/puzzles/000000000000/answer", {"move": "7C"}), 404),
            ((f"/api/puzzles/{puzzle.id}/answer", {"move": "x" * 500}), 422),
            ((f"/api/puzzles/{puzzle.id}/answer", {"move": "KS", "extra": 1}), 422),
            ((f"/api/puzzles/{puzzle.id}/answer", {"move": "KS", "rating": 1e9}), 422),
            ((f"/api/puzzles/{puzzle.id}/answer", {"move": "KS", "rating": 1500, "deviation": 0}), 422),
        ):
            assert client.post(hostile[0], json=hostile[1]).status_code == status, hostile
        # every shipped puzzle with its solution, for the page to keep for offline play
        kept = {one["id"]: one for one in client.get("/api/puzzles/offline").json()["puzzles"]}
        assert set(kept) == {one.id for one in shipped}
        for one in shipped:
            assert [answer["move"] for answer in kept[one.id]["answers"]] == list(one.answers)
            assert len(kept[one.id]["values"]) == len(one.values) and bool(kept[one.id]["line"]) is (
                one.exact == "last_deal"
            )
        illegal = next(card for card in ("KS", "KH", "KD", "KC", "QS") if card not in given["view"]["hand"])
        refused = client.post(f"/api/puzzles/{puzzle.id}/answer", json={"move": illegal})
        assert refused.status_code == 400 and refused.json()["messages"]["fa"]
        assert client.get("/api/puzzles", params={"difficulty": "wizard"}).status_code == 400


PLAYED_OUT = Path(__file__).resolve().parent.parent / "docs" / "analysis" / "puzzle-playout-2026-12-05.json"


def test_every_shipped_puzzle_of_the_deal_before_the_last_won_when_played_out():
    """Such a puzzle's values are averaged with open cards: each shipped one was played out by the
    bot without them (benchmarks/puzzle_playout.py), and its answer won (95% sure)."""
    checked = {one["id"]: one for one in json.loads(PLAYED_OUT.read_text(encoding="utf-8"))["puzzles"]}
    averaged = [puzzle for puzzle in shipped_puzzles() if puzzle.exact == "every_arrangement"]
    assert averaged
    for puzzle in averaged:
        one = checked[puzzle.id]
        assert one["answer"] == puzzle.answers[0] and one["holds"] and one["interval"][0] > 0, one


def test_a_puzzle_played_out_gains_what_the_bot_makes_of_it():
    puzzle = next(one for one in shipped_puzzles() if one.exact == "every_arrangement")
    mean, low, high = played_gain(puzzle, deals=8)
    assert low <= mean <= high and math.isfinite(high - low)
    assert played_gain(puzzle, deals=8) == (mean, low, high)  # the same deals, the same bots


def test_puzzles_found_in_records_keep_the_deal_before_the_last_only_when_it_wins_played_out(tmp_path):
    records = Path(__file__).resolve().parent.parent / "docs" / "analysis" / "records" / "expert-greedy-seed5.jsonl"
    found = {}
    for play_out in (0, 16):
        out = tmp_path / f"found-{play_out}.jsonl"
        result = pasur(
            "puzzles", str(records), "--most-arrangements", "2000", "--play-out", str(play_out), "--out", str(out)
        )
        assert result.returncode == 0, result.stderr
        found[play_out] = {puzzle.id: puzzle for puzzle in read_puzzles(out.read_text(encoding="utf-8"))}
    everything, kept = found[0], found[16]
    assert set(kept) < set(everything)  # some were left out, and nothing new came
    last_deal = {key for key, puzzle in everything.items() if puzzle.exact == "last_deal"}
    assert last_deal and last_deal <= set(kept)  # exact as they lie: never played out
    for puzzle_id in set(everything) - set(kept):
        assert played_gain(everything[puzzle_id], deals=16)[1] <= 0


def test_a_last_deal_puzzle_shows_the_best_line_which_scores_the_answers_value():
    for puzzle in [one for one in shipped_puzzles() if one.exact == "last_deal"][:5]:
        line = best_line(puzzle)
        assert line and (line[0].mine, line[0].move) == (True, Move.parse(puzzle.answers[0]))
        game = Round.from_view(puzzle.view, random.Random(1))  # every card known: the only deal there is
        side = game.side_of(game.turn)
        seat = game.turn
        for step in line:
            assert (game.side_of(game.turn) == side) is step.mine
            played = game.play(step.move)
            assert mask_of(step.table) == played.table and mask_of(step.hand) == game.hands[seat]  # the felt
        points = game.points()
        assert game.over and 2 * points[side] - sum(points) == puzzle.values[puzzle.answers[0]]
    averaged = next(one for one in shipped_puzzles() if one.exact == "every_arrangement")
    assert best_line(averaged) is None  # no one line is best for every arrangement


@pytest.mark.parametrize(
    "kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(not POSTGRES, reason="no PostgreSQL"))]
)
def test_a_signed_in_persons_puzzle_rating_is_kept_with_the_account_each_puzzle_rated_once(kind, tmp_path):
    from sqlalchemy import create_engine, text

    from .test_accounts import PASSWORD, browser, refused, sign_up
    from .test_shared import fresh_database

    url = f"sqlite:///{tmp_path / 'puzzles.db'}" if kind == "sqlite" else fresh_database()
    first, second = shipped_puzzles()[:2]
    wrong = next(text for text in second.values if text not in second.answers)
    with browser(url) as client:
        refused(client.get("/api/puzzles/standing"), 401, "not_signed_in")
        sign_up(client, "Ava")
        assert client.get("/api/puzzles/standing").json() == {
            "value": 1500,
            "deviation": 350,
            "provisional": True,
            "streak": 0,
            "tried": 0,
        }
        answer = lambda puzzle, move, **body: client.post(  # noqa: E731
            f"/api/puzzles/{puzzle.id}/answer", json={"move": move, **body}
        ).json()["rating"]
        right = answer(first, first.answers[0], rating=3000, deviation=30)  # a sent rating is a guest's only
        assert right["change"] > 0 and right["streak"] == 1 and right["value"] < 3000
        again = answer(first, first.answers[0])  # the same puzzle again: rated once
        assert again["change"] == 0 and (again["value"], again["streak"]) == (right["value"], 1)
        lost = answer(second, wrong)
        assert lost["change"] < 0 and lost["streak"] == 0
        # a forged request from another site (no CSRF token) changes nothing
        forged = client.post(f"/api/puzzles/{second.id}/answer", json={"move": wrong}, headers={"x-csrf-token": ""})
        refused(forged, 403, "bad_csrf")
    with browser(url) as elsewhere:  # another browser, signed in to the same account
        signed_in = elsewhere.post("/api/session", json={"name": "Ava", "password": PASSWORD})
        assert signed_in.status_code == 200, signed_in.text
        kept = elsewhere.get("/api/puzzles/standing").json()
        assert (kept["value"], kept["streak"], kept["tried"]) == (lost["value"], 0, 2)
        csrf = {"X-CSRF-Token": signed_in.json()["csrf"]}
        elsewhere.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf).raise_for_status()
    engine = create_engine(url)
    with engine.connect() as connection:  # the account's puzzle rating went with it
        assert connection.execute(text("SELECT count(*) FROM puzzle_ratings")).scalar_one() == 0
    engine.dispose()
