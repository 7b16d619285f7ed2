"""The OpenSpiel game ``python_pasur``, checked by OpenSpiel's own tests."""

from __future__ import annotations

import random
import subprocess
import sys
import unittest
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is installed by scripts/test.sh")
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
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=30, serialize=False, verbose=False)


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_300_simulations(players):
    """Enough simulations that a lone table Jack, its replacement and a redeal all come up often."""
    game = pyspiel.load_game(f"python_pasur(players={players})")
    pyspiel.random_sim_test(game, num_sims=300, serialize=False, verbose=False)


def _chance_deal(game, rng: random.Random) -> tuple[list[int], int | None]:
    """A deck dealt by the game's chance node, and where the buried Jack went (None: no burial)."""
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, weights)[0])
    return list(state.round.deck), state.buried_after


class _Recording(random.Random):
    """A random source that remembers the burial place ``deal_deck`` draws in its last attempt."""

    place: int | None = None

    def shuffle(self, x, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.place = None  # each attempt (a redeal) starts with a shuffle
        super().shuffle(x, *args, **kwargs)

    def randrange(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.place = super().randrange(*args, **kwargs)
        return self.place


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bury", [True, False])
@pytest.mark.parametrize("redeal", [True, False])
def test_chance_deals_every_dealing_option(players, bury, redeal):
    """300 deals through the chance node under each option that changes the deal: each makes a
    deck the engine accepts, and a buried Jack goes anywhere in the rest of the pack but its top."""
    game = pyspiel.load_game(
        f"python_pasur(players={players},bury_table_jack={str(bury).lower()},redeal_on_faces={str(redeal).lower()})"
    )
    rng = random.Random(players * 4 + bury * 2 + redeal)
    places = set()
    for _ in range(300):
        deck, place = _chance_deal(game, rng)
        assert sorted(deck) == list(range(52))
        if place is not None:
            places.add(place)
    rest = 52 - (4 * players + 4) - 1
    assert places <= set(range(1, rest + 1)) and (not bury or places), places


def _chi_square(first: list[int], second: list[int]) -> float:
    """Pearson's statistic that two samples' counts over the same categories come from one law."""
    total_first, total_second = sum(first), sum(second)
    statistic = 0.0
    for a, b in zip(first, second, strict=True):
        if a + b:
            expected_a = (a + b) * total_first / (total_first + total_second)
            expected_b = (a + b) * total_second / (total_first + total_second)
            statistic += (a - expected_a) ** 2 / expected_a + (b - expected_b) ** 2 / expected_b
    return statistic


@pytest.mark.parametrize("players", [2, 4])
def test_the_chance_node_deals_as_deal_deck(players):
    """The chance node and ``deal_deck`` agree in law: how often a Jack is buried and where (in
    six classes), and the faces on the first table (Queens and Kings, 0-4). The thresholds are
    chi-square's 0.1% points (5 and 4 degrees of freedom); the seeds are fixed."""
    rules = pasur.Rules(players=players)
    game = pyspiel.load_game(f"python_pasur(players={players})")
    rest = 52 - (4 * players + 4) - 1
    deals = 3000
    places = {"chance": [0] * 6, "deal_deck": [0] * 6}
    faces = {"chance": [0] * 5, "deal_deck": [0] * 5}
    faces_mask = pasur.core.cards.RANK_MASKS[11] | pasur.core.cards.RANK_MASKS[12]
    chance_rng, recording = random.Random(1), _Recording(2)
    for _ in range(deals):
        for source, (deck, place) in (
            ("chance", _chance_deal(game, chance_rng)),
            ("deal_deck", (pasur.deal_deck(recording, rules), recording.place)),
        ):
            places[source][0 if place is None else 1 + (place - 1) * 5 // rest] += 1
            table = pasur.core.cards.mask_of(deck[4 * players : 4 * players + 4])
            faces[source][(table & faces_mask).bit_count()] += 1
    assert _chi_square(places["chance"], places["deal_deck"]) < 20.5, places
    assert _chi_square(faces["chance"], faces["deal_deck"]) < 18.5, faces


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


def _any_action(state, rng: random.Random) -> int:
    """An action of ``state`` at random: a chance outcome or a legal move."""
    actions = [action for action, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    return rng.choice(actions)


def test_a_clone_goes_its_own_way_and_shares_only_the_rules():
    """A clone taken while dealing, while a lone table Jack waits to be buried and in play, played
    on at random, leaves its original as it was; the two share the rules, nothing that changes."""
    game = pyspiel.load_game("python_pasur(players=3)")
    rng = random.Random(5)
    for _ in range(40):
        state, taken = game.new_initial_state(), 0
        while not state.is_terminal():
            if rng.random() < 0.1 and taken < 4:
                taken += 1
                before, history = str(state), state.history()
                clone = state.clone()
                assert clone.rules is state.rules and clone.chooser is not state.chooser
                assert clone.round is None or clone.round is not state.round
                while not clone.is_terminal():
                    clone.apply_action(_any_action(clone, rng))
                assert (str(state), state.history()) == (before, history)
            state.apply_action(_any_action(state, rng))


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


def test_the_openspiel_adapter_needs_no_gymnasium():
    """The OpenSpiel game loads and plays where Gymnasium is not installed."""
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import pyspiel, pasur.envs.openspiel\n"
        "state = pyspiel.load_game('python_pasur').new_initial_state()\n"
        "while state.is_chance_node(): state.apply_action(state.chance_outcomes()[0][0])\n"
        "assert state.legal_actions()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_full_state_observation_is_refused_not_answered_with_less():
    game = pyspiel.load_game("python_pasur")
    every_hand = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        game.make_py_observer(every_hand)
    one_seat = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    observer = game.make_py_observer(one_seat)  # the seat's own view stays offered, its hand in it
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer.set_from(state, 0)
    assert observer.tensor.sum() >= 4


def test_openspiels_pytorch_dqn_learns_on_python_pasur():
    """OpenSpiel's own DQN (PyTorch; it needs dm-tree, in the rl extra) trains a few steps."""
    pytest.importorskip("torch", reason="torch comes with the train extra")
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    environment = rl_environment.Environment("python_pasur")
    environment.seed(3)
    size = environment.observation_spec()["info_state"][0]
    actions = environment.action_spec()["num_actions"]
    agents = [
        dqn.DQN(
            player,
            state_representation_size=size,
            num_actions=actions,
            hidden_layers_sizes=[32],
            replay_buffer_capacity=200,
            batch_size=16,
            min_buffer_size_to_learn=16,
            learn_every=4,
        )
        for player in range(2)
    ]
    time_step = environment.reset()
    for _ in range(160):
        if time_step.last():
            for agent in agents:
                agent.step(time_step)
            time_step = environment.reset()
            continue
        player = time_step.observations["current_player"]
        chosen = agents[player].step(time_step).action
        assert time_step.observations["legal_actions"][player].count(chosen) == 1
        time_step = environment.step([chosen])
    assert all(agent.loss is not None for agent in agents)  # each has learned from its replay buffer
