"""The exact solver: equal to plain minimax (no pruning, no table) near the round's end on every
option that changes a value, equal to a pure-Python minimax on the last deal, consistent from the
first move (the root is its best move, each move's value is the value after it, the line scores
the value), unchanged by the table's size; with more than two sides the same against the mover's
paranoid margin (the others as one); and ``pasur solve`` as a user runs it.

``PASUR_SOLVER_POSITIONS`` sets how many positions meet plain minimax (CI: 600; the full check:
``PASUR_SOLVER_POSITIONS=6000 pytest tests/test_solver.py``)."""

from __future__ import annotations

import json
import math
import os
import random
import statistics
from collections.abc import Callable, Iterator

import pytest

from pasur import Match, Round, Rules, SolveError, deal_deck, solve, to_record
from pasur.bots.solver_bot import deal_evidence, deal_plays
from pasur.core import CARDS, Card, native
from pasur.core.captures import capture_takes, hand_moves
from pasur.core.cards import CLUB_CARDS, JACK, KING, QUEEN, mask_of
from pasur.core.scoring import card_points, club_count
from pasur.core.solver import Sampling, minimax, sampled_values

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


def random_position(
    rng: random.Random, rules: Rules, plays_left: int, deck: Callable[[random.Random, Rules], list[Card]] = deal_deck
) -> Round:
    """A round (its pack from ``deck``) played at random until ``plays_left`` plays remain, with
    banked scores around the Sur cut-off."""
    banked = [rng.choice((0, 49, 50, 61)) for _ in range(rules.sides)]
    game = Round(rules, deck(rng, rules), rng.randint(1, 4), banked, check_deck=False)
    while 48 - len(game.history) > plays_left:
        game.play_code(rng.choice(game.legal_codes()))
    return game


#: Rules with more than two sides, which the solver searches as the mover against the others.
PARANOID_OPTIONS = [
    Rules(players=3),
    Rules(players=3, haft_khaj="most", sur_in_last_deal=True),
    Rules(players=3, sur_cancel=False, compulsory_capture=False),
    Rules(players=4, partnership=False),
]


def absolute_best(game: Round, values: list[int], me: int = 0) -> int:
    """The value of the side to move's best choice as side ``me`` sees it (side 0 minus side 1
    with two sides): ``me`` maximises, the others together minimise."""
    return max(values) if game.side_of(game.turn) == me else min(values)


def margin(points: list[float], me: int = 0) -> float:
    """Side ``me``'s points times (sides - 1) minus the others' together: side 0 minus side 1 with
    two sides."""
    return len(points) * points[me] - sum(points)


def paranoid(game: Round, deal_only: bool = False) -> tuple[int, dict[int, int]]:
    """The native solver's value and move values for a round of any number of sides (the mover's
    margin with more than two)."""
    value, moves, _line, _nodes = native.solve(game, game.rules.haft_khaj == "most", 16, 0, deal_only)
    return value, dict(moves)


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


def face_left_with_no_taker(game: Round) -> bool:
    """Whether a Queen or King (not the club) is on the table with every card of its rank in play
    (none in the pack): positions where the rest of the round can leave one on the table with no
    card left to take it."""
    for rank in (QUEEN, KING):
        suits = 0xF << (4 * rank)
        if game.table & suits & ~CLUB_CARDS and not mask_of(game.deck[game.dealt :]) & suits:
            return True
    return False


def jacks_first(rng: random.Random, rules: Rules) -> list[Card]:
    """A shuffled pack whose four Jacks are in the first deal's hands: later in the round a numeral
    laid down can be left with no card to take it."""
    jacks = [card for card in CARDS if card >> 2 == JACK]
    others = [card for card in CARDS if card >> 2 != JACK]
    rng.shuffle(others)
    filler = 4 * rules.players - len(jacks)  # the first deal's other hand cards
    hands = jacks + others[:filler]
    rng.shuffle(hands)
    return hands + others[filler:]


@pytest.mark.parametrize(
    "rules, deck, plays, positions, untakeable",
    [
        (Rules(compulsory_capture=False), deal_deck, (3, 9), 60, face_left_with_no_taker),
        (Rules(compulsory_capture=False, sur_in_last_deal=True), deal_deck, (3, 9), 60, face_left_with_no_taker),
        (Rules(), jacks_first, (8, 16), 150, None),
        (Rules(sur_in_last_deal=True), jacks_first, (8, 16), 150, None),
        (Rules(players=4, sur_in_last_deal=True, compulsory_capture=False), jacks_first, (4, 12), 150, None),
    ],
)
def test_cards_no_card_can_take_change_no_value(rules, deck, plays, positions, untakeable):
    # such a card stays on the table to the end; the key keeps one of those that score nothing,
    # and only while a Sur can still count, and every one that scores (an Ace, the 2 of clubs, the
    # 10 of diamonds, a club while Haft Khaj is open): the solver's table must never merge what
    # plain minimax tells apart (no blocker kept, the 10 of diamonds set aside, or numerals one
    # rank too low taken for untakeable, each fails here)
    rng = random.Random(23)
    compared = 0
    while compared < max(positions, POSITIONS // 10):
        game = random_position(rng, rules, rng.randint(*plays), deck)
        if untakeable and not untakeable(game):
            continue
        try:
            value, moves = minimax(game, node_limit=5_000_000)
        except SolveError:
            continue
        solution = solve(game, table_mb=1)
        assert solution.value == value, compared
        assert {move.code: move.value for move in solution.moves} == moves, compared
        compared += 1


def python_minimax(game: Round, me: int = 0) -> int:
    """Minimax over the pure-Python engine, scored by its breakdown: side 0 minus side 1, or side
    ``me``'s margin against the others as one."""
    if game.over:
        return int(margin([float(points) for points in game.points()], me))
    values = []
    for code in game.legal_codes():
        child = game.copy()
        child.play_code(code)
        values.append(python_minimax(child, me))
    return absolute_best(game, values, me)


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


def test_a_large_search_grows_its_part_of_the_table_and_keeps_what_it_found():
    """A search starts in the first megabyte of the table and doubles its part as it fills (moving
    each entry to where the larger part hashes it): a whole 4-player deal then searches far fewer
    nodes than in a 1 MB table, which cannot grow, and finds the same values."""
    rules = Rules(players=4)
    rng = random.Random(3)
    grown, small = [], []
    for _ in range(3):
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        grown.append(solve(game, table_mb=16))
        small.append(solve(game, table_mb=1))
    assert [(s.value, s.moves) for s in grown] == [(s.value, s.moves) for s in small]
    assert sum(s.nodes for s in grown) < 0.8 * sum(s.nodes for s in small)


def test_a_search_takes_the_same_nodes_whatever_came_before():
    """The table is kept from one solve to the next, each search's entries tagged as its own; the
    tag is not part of where an entry lies, so solving a position again, after other searches,
    takes the same nodes (and a reported count can be reproduced)."""
    rules = Rules(players=4)
    rng = random.Random(3)
    games = [Round(rules, deal_deck(rng, rules), check_deck=False) for _ in range(4)]
    first = [solve(game).nodes for game in games]
    for index in range(7):  # other searches in between, moving the tag on
        solve(random_position(rng, OPTIONS[index % 2], rng.randint(8, 24)))
    assert [solve(game).nodes for game in games] == first


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
    # move 31 is played in the position after 30: the number analyze and replay give it
    result = pasur("solve", str(path), "--round", "1", "--move", "31", "--json")
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


def expected_haft_khaj(clubs: list[int], me: int = 0) -> float:
    """Haft Khaj as side ``me``'s margin (side 0 minus side 1 with two sides) when each club still
    out goes to any side with even chances; exact once a side holds 7."""
    sides, out = len(clubs), 13 - sum(clubs)
    if max(clubs) >= 7:
        return margin([7.0 if held >= 7 else 0.0 for held in clubs], me)
    chances = [
        sum(math.comb(out, taken) * (sides - 1) ** (out - taken) for taken in range(7 - held, out + 1)) / sides**out
        for held in clubs
    ]
    return margin([7 * chance for chance in chances], me)


def expected_sur(game: Round, pack: list[Card], me: int = 0) -> float:
    """The Sur the next deal's first player can expect on the table left, as side ``me``'s margin:
    the chance that four cards drawn from ``pack`` hold one that empties the table (and would
    score a Sur), times 5 and the points swept."""
    side = game.side_of(game.turn)
    counts = (game._sur_ok if game.dealt < 52 else game._last_deal_sur)[side]
    if not game.table or not counts:
        return 0.0
    sweeping = [card for card in pack if card.rank != JACK and game.table in capture_takes(game.table, card)]
    chance = 1 - math.comb(len(pack) - len(sweeping), 4) / math.comb(len(pack), 4)
    points = [0.0] * game.rules.sides
    points[side] = chance * (5 + card_points(game.table))
    return margin(points, me)


def nearest(value: float) -> int:
    """To the nearest whole point, halves away from zero."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def deal_minimax(game: Round, deal: int, pack: list[Card], me: int = 0) -> int:
    """Minimax over the Python engine to the end of ``deal``: the points taken by then (cards and
    Surs), Haft Khaj as expected from the clubs still out and a Sur as expected on the table left;
    the round's points if it ends; side 0 minus side 1, or side ``me``'s margin."""
    if game.over:
        return int(margin([float(points) for points in game.points()], me))
    if game.deal > deal:
        score = game.breakdown()
        taken = int(margin([float(side.total - side.haft_khaj) for side in score], me))
        expected = expected_haft_khaj([side.clubs for side in score], me) + expected_sur(game, pack, me)
        return taken + nearest(expected)
    values = []
    for code in game.legal_codes():
        child = game.copy()
        child.play_code(code)
        values.append(deal_minimax(child, deal, pack, me))
    return absolute_best(game, values, me)


def test_searching_to_the_end_of_the_deal_only():
    rng = random.Random(22)
    sweepable = 0
    for index in range(200):
        rules = OPTIONS[index % 2]
        game = random_position(rng, rules, rng.randint(1, 47))
        if game.over:
            continue
        # near the deal's end, so that the Python minimax stays small
        while sum(hand.bit_count() for hand in game.hands) > 5:
            game.play_code(rng.choice(game.legal_codes()))
        pack = [CARDS[card] for card in game.deck[game.dealt :]]
        solution = solve(game, deal_only=True)
        assert solution.value == deal_minimax(game, game.deal, pack), index
        if game.last_deal:
            assert solution.value == solve(game).value
        end = game.copy()  # the principal line leaves a table the next player may sweep
        for text in solution.line:
            end.play(text)
        sweepable += not end.over and expected_sur(end, pack) != 0
    assert sweepable >= 3


def mover_sign(game: Round) -> int:
    return 1 if game.side_of(game.turn) == 0 else -1


def test_sampled_deals_where_the_mover_can_infer_everything_are_the_position_itself():
    """With nothing relevant hidden, every sampled deal is worth what the position is: in the last
    deal of 2 players (the other hand is what is left) to the round's end; when only the pack is
    unseen, to the deal's end (the pack's order does not matter there)."""
    rng = random.Random(31)
    checked = 0
    for index in range(120):
        rules = OPTIONS[index % len(OPTIONS)]
        game = random_position(rng, rules, rng.randint(1, 40))
        deal_only = not (rules.players == 2 and game.last_deal)
        if deal_only:  # play on until the mover holds the deal's last cards, alone
            while not game.over and any(hand for seat, hand in enumerate(game.hands) if seat != game.turn):
                game.play_code(rng.choice(game.legal_codes()))
        if game.over or len(game.legal_codes()) < 2:
            continue
        values = sampled_values(game, 5, index, Sampling(deal_only=deal_only)).values
        solution = solve(game, deal_only=deal_only)
        assert {move.code: [mover_sign(game) * move.value] * 5 for move in solution.moves} == values, index
        checked += 1
    assert checked >= 20


def test_sampled_deals_depend_on_the_movers_view_only():
    rng = random.Random(32)
    checked = whole_rounds = 0
    for index in range(30):
        rules = OPTIONS[index % len(OPTIONS)]
        game = random_position(rng, rules, rng.randint(20, 44))
        if game.over or game.dealt == 52:
            continue
        holding = [seat for seat in range(game.players) if seat != game.turn and game.hands[seat]]
        if not holding:
            continue
        other = holding[0]
        checked += 1
        swapped = game.copy()  # a card of another hand changes places with one in the pack
        hand_card = (swapped.hands[other] & -swapped.hands[other]).bit_length() - 1
        deck = list(swapped.deck)
        pack_index = rng.randrange(game.dealt, 52)
        pack_card = deck[pack_index]
        deck[pack_index] = hand_card
        swapped.deck = tuple(deck)
        swapped.hands[other] ^= (1 << hand_card) | (1 << pack_card)
        # to the round's end only with two players: with more, one such search can take seconds
        for deal_only in (True, False) if game.players == 2 else (True,):
            sampling = Sampling(deal_only=deal_only)
            assert sampled_values(game, 8, index, sampling) == sampled_values(swapped, 8, index, sampling), index
            whole_rounds += not deal_only
    assert checked >= 15 and whole_rounds >= 5


def test_sampled_deals_are_shared_out_as_the_python_engine_shares_them():
    """Mean values over many native samples agree with the Python engine's reshuffle and solve."""
    rng = random.Random(33)
    for rules in (Rules(), Rules(players=4)):
        game = random_position(rng, rules, 30)
        samples = 600
        native_values = sampled_values(game, samples, 5, Sampling(deal_only=True)).values
        python_values: dict[int, list[int]] = {code: [] for code in native_values}
        for _ in range(samples):
            deal = game.copy()
            deal.reshuffle_unseen(game.turn, rng)
            for move in solve(deal, deal_only=True).moves:
                python_values[move.code].append(mover_sign(game) * move.value)
        for code, values in native_values.items():
            assert len(set(values)) > 1  # the deals differ
            spread = math.sqrt(
                statistics.pvariance(values) / samples + statistics.pvariance(python_values[code]) / samples
            )
            assert abs(statistics.fmean(values) - statistics.fmean(python_values[code])) < 4 * spread + 1e-9


def test_sampling_stops_at_the_node_limit():
    game = random_position(random.Random(34), Rules(), 40)
    assert all(values == [] for values in sampled_values(game, 10, 1, Sampling(node_limit=1)).values.values())


# -- more than two sides: the mover against the others as one ------------------------------------


def test_the_paranoid_search_equals_plain_minimax_with_more_sides():
    rng = random.Random(38)
    compared = too_wide = 0
    while compared < POSITIONS // 3:
        rules = PARANOID_OPTIONS[compared % len(PARANOID_OPTIONS)]
        game = random_position(rng, rules, rng.randint(1, 12 if rules.compulsory_capture else 8))
        if game.over:
            continue
        try:
            value, moves, _nodes = native.minimax(game, rules.haft_khaj == "most", 5_000_000)
        except RuntimeError:  # too wide for plain minimax: draw another
            too_wide += 1
            continue
        assert paranoid(game) == (value, dict(moves)), (rules, compared)
        assert value == max(dict(moves).values())  # the mover's own margin: it maximises
        compared += 1
    assert too_wide < POSITIONS // 10


def test_the_paranoid_search_equals_the_pure_python_engine_on_the_last_deal():
    rng = random.Random(39)
    for index in range(40):
        rules = PARANOID_OPTIONS[index % len(PARANOID_OPTIONS)]
        game = random_position(rng, rules, rng.randint(1, 6))
        if not game.over:
            assert paranoid(game)[0] == python_minimax(game, me=game.side_of(game.turn)), (rules, index)


def test_the_paranoid_search_to_the_end_of_the_deal():
    rng = random.Random(40)
    checked = 0
    for index in range(120):
        rules = PARANOID_OPTIONS[index % 2]
        game = random_position(rng, rules, rng.randint(1, 47))
        while not game.over and sum(hand.bit_count() for hand in game.hands) > 6:
            game.play_code(rng.choice(game.legal_codes()))
        if game.over:
            continue
        pack = [CARDS[card] for card in game.deck[game.dealt :]]
        me = game.side_of(game.turn)
        assert paranoid(game, deal_only=True)[0] == deal_minimax(game, game.deal, pack, me), index
        checked += 1
    assert checked >= 60


def only_the_pack_unseen(rng: random.Random, count: int) -> Iterator[tuple[int, Round]]:
    """Positions with more than two sides where the mover holds the deal's last cards (only the
    pack is unseen, so every sampled deal to the deal's end is the position itself), numbered."""
    for index in range(count):
        rules = PARANOID_OPTIONS[index % len(PARANOID_OPTIONS)]
        game = random_position(rng, rules, rng.randint(1, 40))
        while not game.over and any(hand for seat, hand in enumerate(game.hands) if seat != game.turn):
            game.play_code(rng.choice(game.legal_codes()))
        if not game.over and len(game.legal_codes()) >= 2:
            yield index, game


def test_sampled_deals_with_more_sides_are_the_mover_against_the_others_average():
    """With only the pack unseen, every sampled deal is the position itself: its margin divided by
    (sides - 1)."""
    checked = 0
    for index, game in only_the_pack_unseen(random.Random(41), 160):
        rules = game.rules
        _value, moves = paranoid(game, deal_only=True)
        found = sampled_values(game, 4, index, Sampling(deal_only=True)).values
        assert found == {code: [value / (rules.sides - 1)] * 4 for code, value in moves.items()}, index
        checked += 1
    assert checked >= 15


def one_card_sweeps(table: int) -> bool:
    """Whether one card other than a Jack could take the whole of ``table`` (a Sur)."""
    return bool(table) and any(card >> 2 != JACK and table in capture_takes(table, card) for card in range(52))


def greedy_value(game: Round, table: int, code: int, seat: int, gift: float) -> float:
    """Points and a Sur a move takes at once, less ``gift`` Surs when it leaves a table that one
    card could sweep (the Python engine's view of it)."""
    take, card = code >> 6, code & 63
    given = 5 * gift * one_card_sweeps(table & ~take if take else table | 1 << card)
    if not take:
        return -given
    sur = (
        not (table & ~take)
        and card >> 2 != JACK
        and (game._sur_ok if game.dealt < 52 else game._last_deal_sur)[game.side_of(seat)]
    )
    return card_points(take | 1 << card) + 5 * sur - given


@pytest.mark.parametrize("gift", [0.0, 1.0])
def test_the_others_plays_weigh_each_deal_by_how_likely_they_are(gift):
    """In the last deal of 2 players the other hand is known by elimination: each deal's weight is
    exp(-g / temper), g the immediate gains the other seat passed up in this deal (with ``gift``,
    a table left for a Sur costing that many Surs)."""
    rng = random.Random(36)
    checked = gifts = 0
    for index in range(200):
        game = random_position(rng, OPTIONS[index % 2], rng.randint(1, 7))
        if game.over or not game.last_deal or len(game.legal_codes()) < 2:
            continue
        evidence = deal_evidence(game.view(game.turn))
        shortfalls = {0.0: 0.0, gift: 0.0}
        for seat, table, later, code in evidence:
            hand = game.hands[seat] | later | 1 << (code & 63)
            moves = hand_moves(hand, table, game._compulsory)
            for each in shortfalls:
                values = [greedy_value(game, table, move, seat, each) for move in moves]
                shortfalls[each] += max(values) - greedy_value(game, table, code, seat, each)
        found = sampled_values(game, 3, index, Sampling(evidence=tuple(evidence), temper=2.0, gift=gift))
        assert found.weights == pytest.approx([math.exp(-shortfalls[gift] / 2.0)] * 3), index
        checked += shortfalls[gift] > 0
        gifts += shortfalls[gift] != shortfalls[0.0]
    assert checked >= 5
    assert gifts >= 3 if gift else gifts == 0


def test_the_evidence_is_the_other_seats_plays_of_the_deal_with_the_table_each_saw():
    """Each play of the evidence with the table it saw, and its context: every seat's cards played
    after it in the deal, the side that had captured last and each side's clubs before it."""
    for rules in (Rules(), Rules(players=4)):
        rng = random.Random(37)
        for _ in range(10):
            game = Round(rules, deal_deck(rng, rules), check_deck=False)
            seen: list[tuple[int, int, int, int, list[int]]] = []  # before each play
            while not game.over:
                in_deal = [index for index, (*_, deal, _last, _clubs) in enumerate(seen) if deal == game.deal]
                expected, contexts, later = [], [], [0] * 4
                for index in reversed(in_deal):
                    seat, table, _, last, clubs = seen[index]
                    if seat != game.turn:
                        expected.append((seat, table, later[seat], game.history[index]))
                        contexts.append((tuple(later), last, tuple(clubs + [0] * (4 - len(clubs)))))
                    later[seat] |= 1 << (game.history[index] & 63)
                assert deal_plays(game.view(game.turn)) == (expected, contexts)
                assert deal_evidence(game.view(game.turn)) == expected
                clubs = [club_count(pile) for pile in game.captured]
                seen.append((game.turn, game.table, game.deal, game.last_capturer, clubs))
                game.play_code(rng.choice(game.legal_codes()))


def test_the_solver_can_judge_the_others_plays_instead():
    """With contexts, a deal's weight is exp(-g / temper), g what :func:`solve` finds the other
    seat's plays of this deal lost against its best moves; in the last deal of 2 players the other
    hand is known by elimination, so every sampled deal is the real one."""
    rng = random.Random(39)
    checked = 0
    for index in range(80):
        rules = [Rules(), Rules(sur_cancel=False, sur_in_last_deal=True, sur_cutoff=None)][index % 2]
        game = random_position(rng, rules, 8)
        snapshots = []
        for _ in range(rng.randint(1, 7)):
            snapshots.append(game.copy())
            game.play_code(rng.choice(game.legal_codes()))
        if game.over or len(game.legal_codes()) < 2:
            continue
        lost = 0
        for before, code in zip(snapshots, game.history[-len(snapshots) :], strict=True):
            if before.turn != game.turn:
                values = {move.code: mover_sign(before) * move.value for move in solve(before, deal_only=True).moves}
                lost += max(values.values()) - values[code]
        evidence, contexts = deal_plays(game.view(game.turn))
        found = sampled_values(game, 3, index, Sampling(evidence=tuple(evidence), temper=2.0, contexts=tuple(contexts)))
        assert found.weights == pytest.approx([math.exp(-lost / 2.0)] * 3), index
        checked += lost > 0
    assert checked >= 5


@pytest.mark.parametrize("rules", [Rules(players=4), *PARANOID_OPTIONS], ids=str)
def test_judging_the_others_plays_weighs_the_deals_and_changes_no_value(rules):
    """At every number of sides the solver's judgement only weighs the sampled deals: each weight
    is a likelihood (above 0, at most 1), and the deals and their values are those without it."""
    rng = random.Random(40)
    weighed = 0
    for index in range(12):
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        for _ in range(rng.randint(1, 3 * rules.players)):
            game.play_code(rng.choice(game.legal_codes()))
        evidence, contexts = deal_plays(game.view(game.turn))
        plain = sampled_values(game, 6, index, Sampling(deal_only=True, evidence=tuple(evidence), temper=2.0))
        judged = sampled_values(
            game, 6, index, Sampling(deal_only=True, evidence=tuple(evidence), temper=2.0, contexts=tuple(contexts))
        )
        assert judged.values == plain.values
        assert all(0 < weight <= 1 for weight in judged.weights)
        weighed += any(weight < 1 for weight in judged.weights)
    assert weighed >= 3
