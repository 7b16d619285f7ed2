"""The solver each for themselves (more than two sides, ``each``): a max-n search in which every
player plays for its own margin, equal to a pure-Python max-n over the engine on the last deal and
to the end of earlier deals; the sampler and the ``solver`` bot with ``others=each``."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from pasur import Round, Rules, deal_deck
from pasur.bots.registry import make_bot
from pasur.bots.solver_bot import SolverBot, deal_plays
from pasur.core import CARDS, Card, native
from pasur.core.captures import capture_takes
from pasur.core.cards import JACK
from pasur.core.scoring import card_points
from pasur.core.solver import Sampling, sampled_values

from .test_solver import PARANOID_OPTIONS, margin, nearest, only_the_pack_unseen, paranoid, random_position

if not native.available():
    pytest.skip("the native core was not built (or PASUR_ENGINE=python)", allow_module_level=True)

#: The search's unit: a share is in sixteenths of a point.
SHARE = 16


def chance_of_haft_khaj(clubs: int, out: int, sides: int) -> float:
    """The chance a side holding ``clubs`` ends with 7 when each club out goes to it with chance
    1/``sides`` (computed step by step as the native core does, so that both round alike)."""
    if clubs >= 7:
        return 1.0
    chance, each = 0.0, 1.0 / sides
    term = (1 - each) ** out
    for taken in range(out + 1):
        if clubs + taken >= 7:
            chance += term
        term = term * (out - taken) / (taken + 1) * each / (1 - each)
    return chance


def chance_of_any(pool: int, wanted: int, hand: int) -> float:
    """The chance that ``hand`` cards drawn from ``pool`` hold one of ``wanted``."""
    none = 1.0
    for drawn in range(hand):
        if none <= 0:
            break
        none *= (pool - wanted - drawn) / (pool - drawn)
    return 1 - none


def horizon_shares(game: Round, pack: list[Card]) -> list[int]:
    """Each side's points at a deal's end, in sixteenths: taken so far (cards and Surs), Haft Khaj as
    expected from the clubs still out, and the Sur the next player may make on the table left."""
    score = game.breakdown()
    clubs = [side.clubs for side in score]
    out, decided = 13 - sum(clubs), max(clubs) >= 7
    expected = [7 * (float(held >= 7) if decided else chance_of_haft_khaj(held, out, len(clubs))) for held in clubs]
    mover = game.side_of(game.turn)
    if game.table and (game._sur_ok if game.dealt < 52 else game._last_deal_sur)[mover]:
        sweeping = [card for card in pack if card.rank != JACK and game.table in capture_takes(game.table, card)]
        expected[mover] += chance_of_any(len(pack), len(sweeping), 4) * (5 + card_points(game.table))
    return [
        SHARE * (side.total - side.haft_khaj) + math.floor(value * SHARE + 0.5)
        for side, value in zip(score, expected, strict=True)
    ]


def each_for_itself(game: Round, deal: int, pack: list[Card], me: int) -> list[int]:
    """Max-n over the Python engine to the end of ``deal`` (or of the round): each side's points in
    sixteenths when every player plays for its own margin; a player indifferent between moves plays
    the one worst for side ``me``, then the one of the smaller margins, side by side."""
    if game.over:
        return [SHARE * points for points in game.points()]
    if game.deal > deal:
        return horizon_shares(game, pack)
    mover, sides = game.side_of(game.turn), game.rules.sides
    best: tuple[tuple[float, ...], list[int]] | None = None
    for code in game.legal_codes():
        child = game.copy()
        child.play_code(code)
        shares = each_for_itself(child, deal, pack, me)
        key = (margin(shares, mover), -margin(shares, me), *(-margin(shares, side) for side in range(sides)))
        if best is None or key > best[0]:
            best = (key, shares)
    assert best is not None
    return best[1]


def move_values(game: Round, deal_only: bool) -> dict[int, int]:
    """Each legal move's value by the Python max-n: the mover's margin, what is still to come to
    the nearest point."""
    me, deal = game.side_of(game.turn), game.deal if deal_only else 99
    pack = [CARDS[card] for card in game.deck[game.dealt :]]
    taken = margin([float(side.total - side.haft_khaj) for side in game.breakdown()], me)
    values = {}
    for code in game.legal_codes():
        child = game.copy()
        child.play_code(code)
        to_come = margin(each_for_itself(child, deal, pack, me), me) - SHARE * taken
        values[code] = int(taken) + nearest(to_come / SHARE)
    return values


def each(game: Round, deal_only: bool = False) -> tuple[int, dict[int, int]]:
    """The native solver each for themselves: the value and each move's value."""
    value, moves, line, _nodes = native.solve(game, game.rules.haft_khaj == "most", 16, 0, deal_only, True)
    assert line == []
    return value, dict(moves)


def test_each_for_themselves_equals_the_pure_python_max_n_on_the_last_deal():
    rng = random.Random(61)
    checked = differs = 0
    for index in range(48):
        rules = PARANOID_OPTIONS[index % len(PARANOID_OPTIONS)]
        game = random_position(rng, rules, rng.randint(2, 7))
        if game.over:
            continue
        value, moves = each(game)
        assert moves == move_values(game, deal_only=False), (rules, index)
        assert value == max(moves.values())
        differs += moves != paranoid(game)[1]
        checked += 1
    assert checked >= 40
    assert differs >= 5  # the others each for themselves are not the coalition


def test_each_for_themselves_to_the_end_of_the_deal():
    rng = random.Random(62)
    checked = 0
    for index in range(80):
        rules = PARANOID_OPTIONS[index % len(PARANOID_OPTIONS)]
        game = random_position(rng, rules, rng.randint(8, 47))
        while not game.over and sum(hand.bit_count() for hand in game.hands) > 6:
            game.play_code(rng.choice(game.legal_codes()))
        if game.over or game.last_deal:
            continue
        assert each(game, deal_only=True)[1] == move_values(game, deal_only=True), (rules, index)
        checked += 1
    assert checked >= 30


def test_sampled_deals_each_for_themselves_are_the_search_of_each_deal():
    """With only the pack unseen, every sampled deal is the position itself: its values each for
    themselves, divided by (sides - 1)."""
    checked = 0
    for index, game in only_the_pack_unseen(random.Random(63), 160):
        rules = game.rules
        _value, moves = each(game, deal_only=True)
        found = sampled_values(game, 3, index, Sampling(deal_only=True, each=True)).values
        assert found == {code: [value / (rules.sides - 1)] * 3 for code, value in moves.items()}, index
        checked += 1
    assert checked >= 15


@pytest.mark.parametrize("rules", PARANOID_OPTIONS, ids=str)
def test_judging_the_others_plays_weighs_the_same_deals_each_for_themselves(rules):
    """The solver's judgement of the others' plays (a bound search) weighs each sampled deal as it
    does when the deal is searched with the others as one: the two searches share no entries."""
    rng = random.Random(65)
    weighed = 0
    for index in range(10):
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        for _ in range(rng.randint(rules.players, 3 * rules.players)):
            game.play_code(rng.choice(game.legal_codes()))
        evidence, contexts = deal_plays(game.view(game.turn))
        sampling = Sampling(deal_only=True, evidence=tuple(evidence), temper=2.0, contexts=tuple(contexts))
        coalition = sampled_values(game, 4, index, sampling)
        each_for_itself = sampled_values(game, 4, index, replace(sampling, each=True))
        assert each_for_itself.weights == coalition.weights, index
        weighed += any(weight < 1 for weight in coalition.weights)
    assert weighed >= 3


def test_the_solver_bot_plays_the_others_each_for_themselves_on_request():
    rules = Rules(players=4, partnership=False)
    rng = random.Random(64)
    game = random_position(rng, rules, 30)
    view = game.view(game.turn)
    legal = game.legal_moves()
    bot = make_bot("solver:others=each,samples=8,playouts=0", seed=1)
    assert isinstance(bot, SolverBot) and bot.each
    assert bot.choose(view, legal) in legal
    with pytest.raises(ValueError, match="others"):
        SolverBot(others="together")
    assert SolverBot().each and not SolverBot(others="coalition").each
    assert not SolverBot(horizon="round").each  # to the round's end: the coalition
