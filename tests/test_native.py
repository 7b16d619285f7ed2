"""The native engine core against the pure-Python reference: the same legal moves (the same
codes, in the same order) at every step, the same captures, Surs and final state, for every rules
option that reaches a round, at 2, 3 and 4 players; and odd positions from hypothesis.

``PASUR_NATIVE_ROUNDS`` sets how many random rounds (CI: 3,000; the full check:
``PASUR_NATIVE_ROUNDS=100000 pytest tests/test_native.py``)."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasur import Round, Rules, deal_deck
from pasur.core import native
from pasur.core.captures import hand_moves
from pasur.core.scoring import SUR_POINTS, card_points, clears_table

from .helpers import ROUND_OPTIONS as OPTIONS

if not native.available():
    pytest.skip("the native core was not built (or PASUR_ENGINE=python)", allow_module_level=True)

ROUNDS = int(os.environ.get("PASUR_NATIVE_ROUNDS", "3000"))


def state_of(game: Round) -> tuple[object, ...]:
    return (
        game.hands,
        game.table,
        game.captured,
        game.surs,
        game.last_capturer,
        game.turn,
        game.dealt,
        game.deal,
        game.over,
        game.history,
    )


def test_random_rounds_agree_move_by_move_on_every_option():
    rng = random.Random(2026)
    for index in range(ROUNDS):
        rules = OPTIONS[index % len(OPTIONS)]
        banked = tuple(rng.choice((0, 30, 49, 50, 70)) for _ in range(rules.sides))
        start = Round(rules, deal_deck(rng, rules), number=rng.randint(1, 5), banked=banked, check_deck=False)
        played = start.copy()
        native.play_random(played, rng)  # the native core chooses and plays every move
        reference = start.copy()
        for code in played.history:  # the Python engine replays them, checking each step
            legal = reference.legal_codes()
            assert (
                native.hand_moves(reference.hands[reference.turn], reference.table, rules.compulsory_capture) == legal
            )
            assert code in legal, (rules, index)
            reference.play_code(code)
        assert reference.over and state_of(reference) == state_of(played), (rules, index)
        assert reference.breakdown() == played.breakdown()


def test_native_play_from_the_middle_of_a_round_matches():
    rng = random.Random(7)
    for rules in OPTIONS[:: max(1, len(OPTIONS) // 24)]:
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        for _ in range(rng.randint(0, 30)):
            codes = game.legal_codes()
            game.play_code(codes[rng.randrange(len(codes))])
        moves = []
        probe = game.copy()
        for _ in range(10):
            if probe.over:
                break
            codes = probe.legal_codes()
            moves.append(codes[rng.randrange(len(codes))])
            probe.play_code(moves[-1])
        through_native = game.copy()
        native.play_codes(through_native, moves)
        assert state_of(through_native) == state_of(probe)


@settings(max_examples=400, deadline=None)
@given(hand=st.integers(0, (1 << 52) - 1), table=st.integers(0, (1 << 52) - 1), compulsory=st.booleans())
def test_odd_positions_have_the_same_moves(hand, table, compulsory):
    hand &= ~table
    hand = sum(
        1 << card
        for card in random.Random(hand).sample([c for c in range(52) if hand >> c & 1], min(4, hand.bit_count()))
    )
    table_cards = [c for c in range(52) if table >> c & 1][:14]  # tables in play hold a dozen or so
    table = sum(1 << card for card in table_cards)
    assert native.hand_moves(hand, table, compulsory) == hand_moves(hand, table, compulsory)


def test_a_round_the_native_core_cannot_read_is_refused_with_a_reason():
    game = Round(Rules(), deal_deck(random.Random(1), Rules()))
    fields = list(game.native_fields())
    for index, bad in ((0, 5), (6, (0,) * 10), (6, (99,) * 52), (12, 7)):
        broken = fields[:]
        broken[index] = bad
        with pytest.raises(ValueError):
            native._native.play(tuple(broken), [])  # type: ignore[union-attr]


def test_the_search_playout_agrees_with_its_python_reference():
    """Native playouts chose each greedy move as bots/playout.py does: the first capture worth the
    most (a Sur +5), any legal move when nothing can be taken; the final state follows the rules."""
    rng = random.Random(11)
    for index in range(300):
        rules = OPTIONS[index % len(OPTIONS)]
        start = Round(rules, deal_deck(rng, rules), check_deck=False)
        played = start.copy()
        native.play_mixed(played, rng, 1.0)
        reference = start.copy()
        for code in played.history:
            legal = reference.legal_codes()
            assert code in legal
            takes = [move for move in legal if move >> 6]
            if len(legal) > 1 and takes:
                table = reference.table
                values = [
                    card_points(move >> 6 | 1 << (move & 63))
                    + 0.3 * (move >> 6).bit_count()
                    + (SUR_POINTS if clears_table(move & 63, move >> 6, table) else 0)
                    for move in takes
                ]
                assert code == takes[values.index(max(values))], (rules, index)
            reference.play_code(code)
        assert state_of(reference) == state_of(played)


def test_the_bare_loop_benchmark_builds_and_runs():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parent.parent / "benchmarks" / "bare_loop.py"
    done = subprocess.run([sys.executable, str(script), "--rounds", "300"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "300 random 2-player rounds (14,400 moves)" in done.stdout and "bare loop" in done.stdout
