"""Research environments: PettingZoo's, Gymnasium's own conformance tests, observations from
the view only, and actions that round-trip with the engine's moves."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is installed by scripts/test.sh")
pettingzoo_test = pytest.importorskip("pettingzoo.test")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import pasur.envs  # noqa: E402,F401 - registers pasur/Pasur-v0
from pasur import CARDS, Card, Round, Rules, deal_deck  # noqa: E402
from pasur.envs.encoding import ACTION_COUNT, DONE, TAKE, MoveChooser, actions_for, observe  # noqa: E402
from pasur.envs.pettingzoo import env as pettingzoo_env  # noqa: E402

OPTIONS = [
    {},
    {"players": 3},
    {"players": 4},
    {"players": 4, "partnership": False, "reward": "match", "target": 20},
    {"compulsory_capture": False, "bury_table_jack": False, "sur_cancel": False},
]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_pettingzoo_api_seed_and_render_tests(options):
    pettingzoo_test.api_test(pettingzoo_env(**options), num_cycles=400)
    pettingzoo_test.seed_test(lambda: pettingzoo_env(**options), num_cycles=400)
    pettingzoo_test.render_test(lambda render_mode=None: pettingzoo_env(render_mode=render_mode, **options))


def test_pettingzoo_performance_benchmark_runs():
    pettingzoo_test.performance_benchmark(pettingzoo_env())


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"players": 3, "opponents": "random"},
        {"players": 4, "reward": "match", "target": 20, "seat": 2},
        {"opponents": "expert", "compulsory_capture": False},
    ],
    ids=str,
)
def test_gymnasium_check_env(options):
    environment = gymnasium.make("pasur/Pasur-v0", **options)
    check_env(environment.unwrapped, skip_render_check=False)


def test_gymnasium_episode_rewards_the_round_point_difference():
    environment = gymnasium.make("pasur/Pasur-v0", opponents="greedy")
    rng = np.random.default_rng(3)
    for episode in range(5):
        observation, info = environment.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            assert (observation["action_mask"] == info["action_mask"]).all()
            action = rng.choice(np.flatnonzero(observation["action_mask"]))
            observation, reward, done, _, info = environment.step(action)
            total += reward
        points = environment.unwrapped.game.points()
        assert total == points[0] - points[1]


def test_pettingzoo_round_rewards_sum_to_zero():
    game = pettingzoo_env(players=3)
    game.reset(seed=1)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        totals[agent] += reward
        action = (
            None
            if termination or truncation
            else int(random.Random(0).choice(np.flatnonzero(observation["action_mask"])))
        )
        game.step(action)
    assert sum(totals.values()) == pytest.approx(0)
    assert any(totals.values())


def random_positions(rules: Rules, count: int, seed: int):
    rng = random.Random(seed)
    while count > 0:
        game = Round(rules, deal_deck(rng, rules))
        while not game.over and count > 0:
            yield game
            count -= 1
            codes = game.legal_codes()
            game.play_code(codes[rng.randrange(len(codes))])


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=3), Rules(players=4), Rules(compulsory_capture=False, bury_table_jack=False)],
    ids=str,
)
def test_every_legal_move_round_trips_through_the_actions(rules):
    for game in random_positions(rules, 3000, seed=rules.players):
        codes = game.legal_codes()
        chosen = set()
        for code in codes:
            chooser = MoveChooser(codes)
            decided = None
            for action in actions_for(code, codes):
                assert chooser.mask()[action] == 1
                assert decided is None
                decided = chooser.step(action)
            assert decided == code
            chosen.add(decided)
        assert chosen == set(codes)


def test_an_action_the_mask_refuses_changes_nothing():
    game = next(random_positions(Rules(), 1, seed=1))
    chooser = MoveChooser(game.legal_codes())
    refused = next(action for action in range(ACTION_COUNT) if not chooser.mask()[action])
    with pytest.raises(ValueError, match="not legal"):
        chooser.step(refused)
    assert chooser.card is None and chooser.named == 0
    assert not chooser.mask()[TAKE : DONE + 1].any()


@settings(max_examples=150, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    deal_seed=st.integers(0, 10**6),
    moves=st.integers(0, 47),
    seat=st.integers(0, 3),
    shuffle_seed=st.integers(0, 10**6),
)
def test_observations_do_not_change_when_unseen_cards_are_reshuffled(players, deal_seed, moves, seat, shuffle_seed):
    rules = Rules(players=players)
    seat %= players
    rng = random.Random(deal_seed)
    game = Round(rules, deal_deck(rng, rules))
    for _ in range(moves):
        codes = game.legal_codes()
        game.play_code(codes[rng.randrange(len(codes))])
    other = game.copy()
    other.reshuffle_unseen(seat, random.Random(shuffle_seed))
    assert (observe(game.masks(seat)) == observe(other.masks(seat))).all()
    if game.turn == seat and not game.over:
        assert (MoveChooser(game.legal_codes()).mask() == MoveChooser(other.legal_codes()).mask()).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_observation_reads_back_as_the_seats_view(players):
    """Each block of the documented layout holds what the view says, from the observer's side."""
    rng = random.Random(players)
    rules = Rules(players=players)
    game = Round(rules, deal_deck(rng, rules), number=3, banked=[7] * rules.sides)
    for _ in range(rng.randrange(5, 30)):
        codes = game.legal_codes()
        game.play_code(codes[rng.randrange(len(codes))])
    chooser = MoveChooser(game.legal_codes())
    chooser.card = game.legal_codes()[0] & 63

    def names(cards: tuple[Card, ...]) -> set[str]:
        return {str(card) for card in cards}

    for seat in range(players):
        view = game.view(seat)
        seen = observe(game.masks(seat), chooser if seat == game.turn else None)

        def block(index: int, seen: np.ndarray = seen) -> set[str]:
            return {str(card) for card in CARDS if seen[52 * index + card]}

        assert block(0) == names(view.hand) and block(1) == names(view.table)
        for slot in range(rules.sides):
            assert block(2 + slot) == names(view.captured[(view.side + slot) % rules.sides])
        assert block(6) == names(view.unseen())
        assert block(7) == ({str(CARDS[chooser.card])} if seat == game.turn else set())
        scalars = seen[52 * 9 :]
        assert scalars[0] == pytest.approx(7 / rules.target)
        assert list(scalars[8 : 8 + players]) == [view.hands[(seat + slot) % players] / 4 for slot in range(players)]
        assert scalars[12] == pytest.approx(view.pack / 48)
        assert scalars[13 + view.deal - 1] == 1 and scalars[19] == pytest.approx(0.3)
        assert scalars[25 + players - 2] == 1
