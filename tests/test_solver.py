"""The exact solver: equal to plain minimax (no pruning, no table) near the round's end on every
option that changes a value, equal to a pure-Python minimax on the last deal, consistent from the
first move (the root is its best move, each move's value is the value after it, the line scores
the value), unchanged by the table's size; and ``pasur solve`` as a user runs it.

``PASUR_SOLVER_POSITIONS`` sets how many positions meet plain minimax (CI: 600; the full check:
``PASUR_SOLVER_POSITIONS=6000 pytest tests/test_solver.py``)."""

from __future__ import annotations

import json
import math
import os
import random

import pytest

from pasur import Match, Round, Rules, SolveError, deal_deck, solve, to_record
from pasur.core import CARDS, Card, native
from pasur.core.solver import minimax

from .test_cli import assert_one_line_error, pasur

if not native.available():
    pytest.skip("the native core was not built (or PASUR_ENGINE=python)", allow_module_level=True)

POSITIONS = int(os.environ.get("PASUR_SOLVER_POSITIONS", "600"))

#: Every option that changes what a position is worth, and the two-sided tables.
OPTIONS = [
    Rules(),
    Rules(haft_khaj="most"),
    Rules(sur_in_last_deal=True),
    Rules(sur_cancel=False, sur_in_last_deal=True, sur_cutoff=None),
    Rules(compulsory_capture=False),
    Rules(players=4),
    Rules(players=4, sur_in_last_deal=True, haft_khaj="most", compulsory_capture=False),
]


def random_position(rng: random.Random, rules: Rules, plays_left: int) -> Round:
    """A round played at random until ``plays_left`` plays remain, with banked scores around the
    Sur cut-off."""
    banked = [rng.choice((0, 49, 50, 61)) for _ in range(rules.sides)]
    game = Round(rules, deal_deck(rng, rules), rng.randint(1, 4), banked, check_deck=False)
    while 48 - len(game.history) > plays_left:
        game.play_code(rng.choice(game.legal_codes()))
    return game


def absolute_best(game: Round, values: list[int]) -> int:
    """The value of the side to move's best choice, side 0 minus side 1."""
    return max(values) if game.side_of(game.turn) == 0 else min(values)


def test_solver_equals_plain_minimax_on_the_last_two_deals():
    rng = random.Random(15)
    compared = too_wide = 0
    while compared < POSITIONS:
        rules = OPTIONS[compared % len(OPTIONS)]
        # from the last two deals (the deal before the last part-played); fewer plays where laying
        # any card is allowed, which plain minimax cannot search in time
        game = random_position(rng, rules, rng.randint(1, 14 if rules.compulsory_capture else 9))
        try:
            value, moves = minimax(game, node_limit=5_000_000)
        except SolveError:  # too wide for plain minimax: draw another
            too_wide += 1
            continue
        solution = solve(game, table_mb=1)
        assert solution.value == value, (rules, compared)
        assert {move.code: move.value for move in solution.moves} == moves, (rules, compared)
        assert solution.value == absolute_best(game, list(moves.values()))
        compared += 1
    assert too_wide < POSITIONS // 10


def python_minimax(game: Round) -> int:
    """Minimax over the pure-Python engine, scored by its breakdown: side 0 minus side 1."""
    if game.over:
        points = game.points()
        return points[0] - points[1]
    values = []
    for code in game.legal_codes():
        child = game.copy()
        child.play_code(code)
        values.append(python_minimax(child))
    return absolute_best(game, values)


def test_solver_equals_the_pure_python_engine_on_the_last_deal():
    rng = random.Random(16)
    for index in range(60):
        rules = OPTIONS[index % len(OPTIONS)]
        game = random_position(rng, rules, rng.randint(1, 8 if rules.players == 2 else 6))
        assert solve(game).value == python_minimax(game), (rules, index)


@pytest.mark.parametrize("rules", [Rules(), Rules(haft_khaj="most", sur_in_last_deal=True), Rules(players=4)])
def test_whole_rounds_are_consistent_from_the_first_move(rules):
    rng = random.Random(17)
    for _ in range(4 if rules.players == 2 else 1):
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        solution = solve(game)
        assert solution.value == absolute_best(game, [move.value for move in solution.moves])
        assert [move.code for move in solution.moves] == game.legal_codes()
        for move in solution.moves:  # a move's value is the value of the position it leads to
            child = game.copy()
            child.play_code(move.code)
            assert solve(child).value == move.value
        walk = game.copy()
        for text in solution.line:  # the principal line, played, scores the value
            walk.play(text)
        points = walk.points()
        assert walk.over and points[0] - points[1] == solution.value


def test_the_table_size_changes_the_work_not_the_values():
    rng = random.Random(18)
    for index in range(12):
        game = random_position(rng, OPTIONS[index % 2], rng.randint(8, 24))
        values = {table_mb: solve(game, table_mb=table_mb) for table_mb in (0, 0.001, 16)}
        assert len({(solution.value, solution.moves) for solution in values.values()}) == 1
        assert values[16].nodes <= values[0].nodes


def test_a_finished_round_is_worth_its_points():
    rng = random.Random(19)
    game = random_position(rng, Rules(), 0)
    points = game.points()
    solution = solve(game)
    assert game.over and solution.value == points[0] - points[1]
    assert solution.moves == () and solution.line == ()


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(players=4, partnership=False)])
def test_more_than_two_sides_is_refused_clearly(rules):
    game = Round(rules, deal_deck(random.Random(1), rules), check_deck=False)
    with pytest.raises(SolveError, match="two sides only"):
        solve(game)


def test_the_node_limit_stops_the_search():
    game = Round(Rules(), deal_deck(random.Random(2), Rules()), check_deck=False)
    with pytest.raises(SolveError, match="node limit"):
        solve(game, node_limit=1000)


# -- pasur solve -------------------------------------------------------------------------------


def deck_text(seed: int, rules: Rules) -> str:
    return " ".join(str(CARDS[card]) for card in deal_deck(random.Random(seed), rules))


def test_solve_a_deck_in_json():
    deck = deck_text(4, Rules())
    result = pasur("solve", "--deck", deck, "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert set(answer) == {"value", "moves", "line", "nodes", "seconds"}
    game = Round(Rules(), [Card.parse(text) for text in deck.split()])
    assert answer["value"] == solve(game).value
    assert [move["move"] for move in answer["moves"]] == [str(move) for move in game.legal_moves()]
    assert len(answer["line"]) == 48


def test_solve_a_deck_under_other_rules_and_scores():
    deck = deck_text(5, Rules())
    plain = json.loads(pasur("solve", "--deck", deck, "--json", "--sur-in-last-deal").stdout)
    game = Round(Rules(sur_in_last_deal=True), [Card.parse(text) for text in deck.split()], 1, [55, 0])
    cut = json.loads(pasur("solve", "--deck", deck, "--json", "--sur-in-last-deal", "--scores", "55,0").stdout)
    assert cut["value"] == solve(game).value
    assert plain["value"] == solve(Round(Rules(sur_in_last_deal=True), game.deck)).value
    human = pasur("solve", "--deck", deck)
    assert human.returncode == 0 and "value" in human.stdout and "best" in human.stdout


def test_solve_a_record_position(tmp_path):
    match = Match(Rules(), seed=8)
    game = match.rounds[0]
    rng = random.Random(8)
    while not game.over:
        match.play_code(rng.choice(game.legal_codes()))
    path = tmp_path / "match.json"
    path.write_text(json.dumps(to_record(match)))
    position = Round(Rules(), game.deck)
    for code in game.history[:30]:
        position.play_code(code)
    result = pasur("solve", str(path), "--round", "1", "--move", "30", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["value"] == solve(position).value


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--deck", "7C KD"), "52 cards"),
        (("--deck", " ".join(["7C"] * 52)), "52 cards"),
        (("--deck", "ZZ " * 52), "--deck"),
        (("--deck", deck_text(6, Rules()), "--scores", "a,b"), "--scores"),
        (("--deck", deck_text(6, Rules()), "--scores", "10"), "--scores"),
        ((), "RECORD"),
        (("--deck", deck_text(6, Rules()), "--move", "3"), "--move"),
    ],
)
def test_bad_solve_arguments_give_one_line(args, words):
    assert words in assert_one_line_error(pasur("solve", *args), 2)


def test_solve_says_it_takes_two_sides_only():
    line = assert_one_line_error(pasur("solve", "--deck", deck_text(7, Rules(players=3)), "--players", "3"), 1)
    assert "two sides only" in line


def test_solve_refuses_a_bad_record_and_a_missing_position(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "pasur-record/1", "rounds": [')
    assert "invalid record" in assert_one_line_error(pasur("solve", str(path)), 1)
    match = Match(Rules(), seed=9)
    path.write_text(json.dumps(to_record(match)))
    assert "moves" in assert_one_line_error(pasur("solve", str(path), "--move", "5"), 1)
    assert "rounds" in assert_one_line_error(pasur("solve", str(path), "--round", "3"), 1)
    assert "own rules" in assert_one_line_error(pasur("solve", str(path), "--players", "4"), 2)


def expected_haft_khaj(clubs: list[int]) -> int:
    """Haft Khaj, side 0 minus side 1, when each club still out goes either way with even chances,
    to the nearest point (halves away from zero); exact once a side holds 7."""
    if max(clubs) >= 7:
        return 7 if clubs[0] >= 7 else -7
    out, need = 13 - sum(clubs), 7 - clubs[0]
    chance = sum(math.comb(out, taken) for taken in range(need, out + 1)) / 2**out
    value = 7 * (2 * chance - 1)
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def deal_minimax(game: Round, deal: int) -> int:
    """Minimax over the Python engine to the end of ``deal``: the points taken by then (cards and
    Surs, side 0 minus side 1) and Haft Khaj as expected from the clubs still out; the round's
    points if it ends."""
    if game.over:
        points = game.points()
        return points[0] - points[1]
    if game.deal > deal:
        score = game.breakdown()
        taken = [side.total - side.haft_khaj for side in score]
        return taken[0] - taken[1] + expected_haft_khaj([side.clubs for side in score])
    values = []
    for code in game.legal_codes():
        child = game.copy()
        child.play_code(code)
        values.append(deal_minimax(child, deal))
    return absolute_best(game, values)


def test_searching_to_the_end_of_the_deal_only():
    rng = random.Random(22)
    for index in range(40):
        rules = OPTIONS[index % 2]
        game = random_position(rng, rules, rng.randint(1, 47))
        if game.over:
            continue
        # near the deal's end, so that the Python minimax stays small
        while sum(hand.bit_count() for hand in game.hands) > 6:
            game.play_code(rng.choice(game.legal_codes()))
        solution = solve(game, deal_only=True)
        assert solution.value == deal_minimax(game, game.deal), index
        if game.last_deal:
            assert solution.value == solve(game).value
