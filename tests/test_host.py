"""The match host, the event a move makes, and a move read and written from a seat's view alone."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasur import IllegalMove, Match, Move, Round, Rules, SeatView, deal_deck
from pasur.bots import BotError
from pasur.core import short_texts
from pasur.core.scoring import relative_points
from pasur.host import MatchHost, OnFault, SeatPlan, bot_seed, bot_turn, seat_bots

from .helpers import position


class Broken:
    """A bot that answers a move that is not among the legal ones."""

    name = "broken"

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        return Move.parse("KS") if Move.parse("KS") not in legal else Move.parse("KH")


# -- what a move did ---------------------------------------------------------------------------------


def test_a_sur_is_reported_with_the_table_it_left():
    game = position("4S 3D", "4H 8C")
    played = game.play("4Hx3D+4S")
    assert played.sur and played.table == 0 and played.text == "4H"
    assert played.seat == 0 and not played.round_over and played.breakdown == ()


def test_a_capture_that_clears_the_table_past_the_cut_off_is_no_sur():
    rules = Rules(sur_cutoff=50)
    game = position("4S 3D", "4H 8C", rules)
    game.banked = (50, 0)
    game._setup(rules, game.number, game.banked)
    assert not game.play("4Hx3D+4S").sur


def test_the_last_move_reports_the_sweep_and_the_breakdown():
    rules = Rules()
    rng = random.Random(5)
    for _ in range(20):
        game = Round(rules, deal_deck(rng, rules))
        while True:
            played = game.play(game.legal_moves()[0])
            if played.round_over:
                break
        assert played.breakdown == tuple(game.breakdown())
        if game.last_capturer >= 0:
            assert played.sweeper == game.last_capturer and played.swept == played.table
        else:
            assert played.sweeper is None and played.swept == 0


# -- one notation, from the view alone ---------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4]), compulsory=st.booleans(), steps=st.integers(0, 40)
)
def test_a_view_lists_reads_and_writes_moves_as_the_round_does(seed, players, compulsory, steps):
    rules = Rules(players=players, compulsory_capture=compulsory)
    rng = random.Random(seed)
    game = Round(rules, deal_deck(rng, rules))
    for _ in range(steps):
        if game.over:
            return
        game.play_code(rng.choice(game.legal_codes()))
    view = game.view(game.turn)
    codes = game.legal_codes()
    assert view.legal_codes() == codes
    assert game.view((game.turn + 1) % players).legal_codes() == []  # not its turn
    for text, code in zip(short_texts(codes), codes, strict=True):
        assert view.read_move(text).code == code == game.read_move(text)
        assert view.move_text(Move.from_code(code)) == text == game.move_text(code)
    for wrong in ("", "ZZ", "7Cx", "QSxQS+QS", "AHxKD", *(str(card) for card in rng.sample(range(52), 5))):
        try:
            expected = game.read_move(wrong)
        except IllegalMove as refusal:
            with pytest.raises(IllegalMove) as from_view:
                view.read_move(wrong)
            assert (from_view.value.reason, from_view.value.details) == (refusal.reason, refusal.details)
        else:
            assert view.read_move(wrong).code == expected


# -- the host ----------------------------------------------------------------------------------------


def test_a_faulty_bot_is_stood_in_for_or_raised_as_the_host_says():
    game = Round(Rules(), deal_deck(random.Random(1), Rules()))
    view, legal = game.view(game.turn), game.legal_moves()
    stood_in = bot_turn(Broken(), view, legal, OnFault.STAND_IN)
    assert stood_in.move in legal and stood_in.fault is not None and stood_in.fault.reason == "bot_illegal_move"
    with pytest.raises(BotError):
        bot_turn(Broken(), view, legal, OnFault.RAISE)


def test_bots_play_until_a_person_is_to_play():
    rules = Rules(players=3)
    host = MatchHost(Match(rules, seed=4), seat_bots([None, "greedy", "random"], 4))
    for _ in range(30):
        events = list(host.play_bots())
        assert all(host.is_bot(played.seat) for played, _ in events)
        assert not host.is_bot(host.turn) or host.over
        if host.over:
            break
        host.play(host.round.legal_moves()[0])


def test_the_host_plays_a_whole_match_the_same_from_the_same_seed():
    def scores(seed: int) -> list[int]:
        host = MatchHost(Match(Rules(target=20), seed=seed), seat_bots(["greedy", "expert"], seed), OnFault.RAISE)
        host.play_on()
        assert host.over
        return host.match.scores

    assert scores(3) == scores(3)
    assert bot_seed(3, 0) != bot_seed(3, 1) != bot_seed(3, 1, game=1)


def test_a_seat_plan_names_a_person_or_a_bot():
    assert SeatPlan("Ava").bot is None and SeatPlan("expert", "expert").bot == "expert"
    with pytest.raises(ValueError, match="exec"):
        seat_bots([None, "exec:true"], 1)  # only the command line may name a program


def test_relative_points_is_own_minus_the_mean_of_the_others():
    assert relative_points([10, 4, 1], 0) == pytest.approx(10 - 2.5)
    assert relative_points([3, 9], 1) == 6
