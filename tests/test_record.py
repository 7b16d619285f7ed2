"""pasur-record/1: writing, reading, and replay that agrees with RULES.md on broken records."""

from __future__ import annotations

import copy
import json
import random

import pytest

from pasur import Match, Move, Rules, from_record, replay_record, to_record
from pasur.bench import random_match
from pasur.core.cards import CARDS, Card
from pasur.core.record import replay_line


def played_match(rules: Rules | None = None, seed: int = 1, target: int = 62) -> Match:
    return random_match((rules or Rules()).with_options(target=target), seed)


def error_of(record: dict) -> dict:
    result = replay_record(record)
    assert "error" in result, result
    return result["error"]


@pytest.fixture
def record() -> dict:
    return json.loads(json.dumps(to_record(played_match(), names=["Ava", "greedy"], event="test")))


def test_a_record_has_the_documented_shape(record):
    assert record["format"] == "pasur-record/1"
    assert record["rules"] == {"players": 2}
    assert record["names"] == ["Ava", "greedy"]
    assert all(len(entry["deck"]) == 52 for entry in record["rounds"])
    assert record["rounds"][0]["moves"][0].keys() == {"card", "take"}


def test_replay_summary_matches_the_played_match(record):
    match = played_match()
    result = replay_record(record)
    assert result["scores"] == match.scores
    assert result["over"] is True and result["winner"] == match.winner
    assert len(result["rounds"]) == len(match.rounds)
    first = result["rounds"][0]
    assert set(first) == {"points", "surs", "clubs", "cards"}
    assert sum(first["cards"]) == 52
    assert sum(first["clubs"]) == 13


def test_take_may_be_left_out_when_there_is_one_choice_and_not_otherwise(record):
    match = Match(Rules(), auto_deal=False)
    dropped, ambiguous = 0, None
    for number, entry in enumerate(record["rounds"], start=1):
        game = match.next_round([Card.parse(text) for text in entry["deck"]])
        for index, item in enumerate(entry["moves"], start=1):
            code = game.read_move(Move(Card.parse(item["card"]), tuple(Card.parse(t) for t in item["take"])))
            if game.move_text(code) == item["card"]:
                del item["take"]
                dropped += 1
            elif ambiguous is None:
                ambiguous = (number, index)
            match.play_code(code)
    assert dropped > 100
    assert replay_record(record)["scores"] == match.scores
    assert ambiguous is not None
    number, index = ambiguous
    del record["rounds"][number - 1]["moves"][index - 1]["take"]
    error = error_of(record)
    assert (error["round"], error["move"]) == ambiguous and "say which" in error["message"]


def test_unfinished_last_round_is_valid(record):
    record["rounds"][-1]["moves"] = record["rounds"][-1]["moves"][:10]
    result = replay_record(record)
    assert "error" not in result
    assert len(result["rounds"]) == len(record["rounds"]) - 1
    assert result["over"] is False and result["winner"] is None


def test_empty_record_is_a_match_not_started():
    assert replay_record({"format": "pasur-record/1", "rounds": []}) == {
        "rounds": [],
        "scores": [0, 0],
        "winner": None,
        "over": False,
    }


def test_an_earlier_round_that_stops_early_names_the_first_missing_move(record):
    record["rounds"][0]["moves"] = record["rounds"][0]["moves"][:30]
    assert error_of(record) == {"round": 1, "move": 31, "message": "the round stops before its end but is not the last"}


def test_rounds_after_the_match_was_won_are_invalid(record):
    record["rounds"].append(copy.deepcopy(record["rounds"][0]))
    error = error_of(record)
    assert (error["round"], error["move"]) == (len(record["rounds"]), 0)
    assert "already won" in error["message"]


def test_a_card_not_in_hand_is_named(record):
    moves = record["rounds"][0]["moves"]
    match = from_record(record)
    hand_before = set(match.rounds[0].deck[:4])
    outsider = match.rounds[0].deck[8]  # a table card is in nobody's hand
    assert outsider not in hand_before
    moves[0] = {"card": str(CARDS[outsider]), "take": []}
    error = error_of(record)
    assert error == {"round": 1, "move": 1, "message": f"{CARDS[outsider]} is not in your hand"}


def test_an_illegal_take_is_refused(record):
    move = record["rounds"][0]["moves"][0]
    move["take"] = ["KS", "KH"] if move["card"] != "KS" else ["QS", "QH"]
    error = error_of(record)
    assert (error["round"], error["move"]) == (1, 1)


def test_too_many_moves(record):
    record["rounds"][0]["moves"].append({"card": "AC"})
    error = error_of(record)
    assert error["move"] == len(record["rounds"][0]["moves"])
    assert "too many moves" in error["message"]


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda r: r["rounds"][0]["deck"].pop(), "52 cards"),
        (lambda r: r["rounds"][0]["deck"].__setitem__(0, r["rounds"][0]["deck"][1]), "52 cards"),
        (lambda r: r["rounds"][0]["deck"].__setitem__(0, "ZZ"), "'ZZ' is not a card"),
        (lambda r: r["rounds"][0].__setitem__("deck", "AC"), "deck must be a list"),
    ],
)
def test_bad_decks_name_round_and_move_zero(record, mutate, message):
    mutate(record)
    error = error_of(record)
    assert (error["round"], error["move"]) == (1, 0)
    assert message in error["message"]


def test_a_deck_with_a_jack_on_the_table_is_invalid_when_jacks_are_buried(record):
    deck = record["rounds"][0]["deck"]
    jack = next(i for i, card in enumerate(deck) if card.startswith("J"))
    deck[8], deck[jack] = deck[jack], deck[8]
    error = error_of(record)
    assert (error["round"], error["move"]) == (1, 0) and "Jack" in error["message"]
    record["rules"]["bury_table_jack"] = False
    result = replay_record(record)
    assert "error" not in result or result["error"]["move"] != 0


@pytest.mark.parametrize(
    "rules,message",
    [
        ({"players": 9}, "players must be 2, 3 or 4"),
        ({"bogus": 1}, "unknown rules option 'bogus'"),
        ("two", "rules must be a JSON object"),
    ],
)
def test_bad_rules_are_move_zero(record, rules, message):
    record["rules"] = rules
    error = error_of(record)
    assert error["move"] == 0 and message in error["message"]


@pytest.mark.parametrize(
    "bad,message",
    [
        ([], "a record must be a JSON object"),
        ({"format": "pgn", "rounds": []}, "unknown format"),
        ({"rounds": {}}, "rounds must be a list"),
        ({"rounds": [], "names": ["a"]}, "names must be a list of 2 strings"),
        ({"rounds": [7]}, "a round must be a JSON object"),
    ],
)
def test_malformed_records(bad, message):
    assert message in error_of(bad)["message"]


def test_bad_move_objects_are_named(record):
    record["rounds"][0]["moves"][2] = {"card": 7}
    error = error_of(record)
    assert (error["round"], error["move"]) == (1, 3) and "a move must be an object" in error["message"]


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=3),
        Rules(players=4),
        Rules(players=4, partnership=False),
        Rules(compulsory_capture=False, sur_cancel=False, haft_khaj="most"),
    ],
)
def test_broken_records_of_every_player_count_are_caught_at_the_right_move(rules):
    rng = random.Random(rules.players)
    for seed in range(30):
        record = json.loads(json.dumps(to_record(played_match(rules, seed, target=30))))
        round_index = rng.randrange(len(record["rounds"]))
        moves = record["rounds"][round_index]["moves"]
        index = rng.randrange(len(moves))
        moves[index] = {"card": moves[index]["card"], "take": ["KC", "KD", "KH"]}
        error = error_of(record)
        assert (error["round"], error["move"]) == (round_index + 1, index + 1)


def test_json_lines_replay_line_gives_a_summary_or_an_error():
    assert replay_line('{"rounds": []}')["over"] is False
    assert "not JSON" in replay_line("not json")["error"]["message"]
    assert replay_line("[1]")["error"]["message"] == "a record must be a JSON object"
