"""The OpenSpiel game ``python_pasur``, checked by OpenSpiel's own tests."""

from __future__ import annotations

import subprocess
import sys
import unittest
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is installed by scripts/test.sh")

import pasur  # noqa: E402
import pasur.envs.openspiel  # noqa: E402 - registers python_pasur

GAMES = [
    "python_pasur",
    "python_pasur(players=3)",
    "python_pasur(players=4)",
    "python_pasur(players=4,partnership=False,haft_khaj=most)",
    "python_pasur(bury_table_jack=False,compulsory_capture=False,sur_cutoff=-1,redeal_on_faces=False)",
]


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=6, serialize=False, verbose=False)


def test_openspiel_api_test_for_python_pasur():
    from open_spiel.integration_tests import api_test

    api_test.FLAGS(["api_test", "--test_only_games=python_pasur"])
    suite = api_test.load_tests(unittest.TestLoader(), None, None)
    result = unittest.TextTestRunner(verbosity=0).run(suite)
    assert result.testsRun >= 5
    assert result.wasSuccessful(), result.failures + result.errors


def _played_state(seed: int):
    game = pyspiel.load_game("python_pasur(players=3)")
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node() or (not state.is_terminal() and rng.random() > 0.05):
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_deals_are_valid_and_returns_are_zero_sum():
    for seed in range(20):
        state = _played_state(seed)
        assert state.round is not None and sorted(state.round.deck) == list(range(52))
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        assert sum(state.returns()) == pytest.approx(0)


def test_resampling_keeps_the_information_state():
    for seed in range(20):
        state = _played_state(seed)
        if state.is_terminal():
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.legal_actions() == state.legal_actions()


def test_information_state_hides_other_hands():
    state = _played_state(3)
    player = state.current_player() if not state.is_terminal() else 0
    text = state.information_state_string(player)
    others = [
        card for seat, hand in enumerate(state.round.hands) if seat != player for card in range(52) if hand >> card & 1
    ]
    hand_part = text.split(" | ")[1]
    assert all(f" {pasur.Card(card)}" not in f" {hand_part}" for card in others)


def test_openspiel_ismcts_example_runs():
    example = Path(__file__).parent.parent / "examples" / "openspiel_ismcts.py"
    result = subprocess.run(
        [sys.executable, str(example), "--games", "1", "--simulations", "10"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "points per round" in result.stdout
