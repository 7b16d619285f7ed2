"""Research environments: PettingZoo's, Gymnasium's own conformance tests, observations from
the view only, and actions that round-trip with the engine's moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="the rl extra is installed by scripts/test.sh")
gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is installed by scripts/test.sh")
pettingzoo_test = pytest.importorskip("pettingzoo.test")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import pasur.envs  # noqa: E402,F401 - registers pasur/Pasur-v0
from pasur import CARDS, Card, Round, Rules, deal_deck  # noqa: E402
from pasur.envs.encoding import (  # noqa: E402
    ACTION_COUNT,
    CAPTURED,
    CHOSEN,
    DEAL,
    HAND,
    HANDS,
    LAST_CAPTURER,
    OBSERVATION_SIZE,
    PLAYERS,
    ROUND,
    SCORE_SLOTS,
    SCORES,
    SUR_SLOTS,
    SURS,
    TABLE,
    TAKE,
    TURN,
    UNSEEN,
    MoveChooser,
    Observer,
    actions_for,
)
from pasur.envs.pettingzoo import env as pettingzoo_env  # noqa: E402
from pasur.envs.pettingzoo import raw_env  # noqa: E402

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


def refused_action(game) -> int:
    mask = game.observe(game.agent_selection)["action_mask"]
    return next(action for action in range(ACTION_COUNT) if not mask[action])


def test_pettingzoo_an_action_the_mask_refuses_ends_the_game_with_minus_one():
    game = pettingzoo_env(players=3)
    game.reset(seed=4)
    game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    offender = game.agent_selection
    history = list(game.game.history)
    game.step(refused_action(game))
    assert game.game.history == history
    assert all(game.terminations.values()) and all(game.truncations.values())
    final = {}
    for agent in game.agent_iter():
        _, reward, termination, truncation, _ = game.last()
        assert termination and truncation
        final[agent] = final.get(agent, 0.0) + reward
        game.step(None)
    assert final == {agent: (-1.0 if agent == offender else 0.0) for agent in game.possible_agents}


def test_pettingzoo_raw_env_refuses_an_illegal_action_and_changes_nothing():
    game = raw_env()
    with pytest.raises(RuntimeError, match="reset"):
        game.step(0)
    game.reset(seed=5)
    before = game.observe(game.agent_selection)
    for action in (refused_action(game), -1, ACTION_COUNT, None, 2.5):
        with pytest.raises(ValueError, match=r"not legal|action space"):
            game.step(action)
        after = game.observe(game.agent_selection)
        assert (after["observation"] == before["observation"]).all()
        assert (after["action_mask"] == before["action_mask"]).all()
        assert not any(game.terminations.values()) and game.game.history == []
    wrapped = pettingzoo_env()  # an action outside the space is refused there too
    wrapped.reset(seed=5)
    with pytest.raises(ValueError, match="action space"):
        wrapped.step(ACTION_COUNT)


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
    observer = Observer(rules)
    for game in random_positions(rules, 3000, seed=rules.players):
        codes = game.legal_codes()
        view = game.masks(game.turn)
        chosen = set()
        for code in codes:
            chooser = MoveChooser()
            decided = None
            for action in actions_for(code, game.card_codes):
                assert observer.observe(view, chooser)["action_mask"][action] == 1
                assert decided is None
                decided = chooser.step(action, game.card_codes)
            assert decided == code
            chosen.add(decided)
        assert chosen == set(codes)
        # the first step offers exactly the cards that have a legal move
        first = observer.observe(view, MoveChooser())["action_mask"]
        assert set(np.flatnonzero(first)) == {code & 63 for code in codes}


def test_an_action_the_mask_refuses_changes_nothing():
    rules = Rules()
    observer = Observer(rules)
    game = next(
        game for game in random_positions(rules, 10_000, seed=1) if any(len(game.card_codes(c)) > 2 for c in range(52))
    )
    card = next(card for card in range(52) if len(game.card_codes(card)) > 2)
    view = game.masks(game.turn)
    chooser = MoveChooser()
    for _ in range(2):  # refused at the first step, then in the middle of a capture choice
        mask = observer.observe(view, chooser)["action_mask"].copy()
        for action in range(-1, ACTION_COUNT + 1):
            if 0 <= action < ACTION_COUNT and mask[action]:
                continue
            before = (chooser.card, chooser.named, chooser.allowed(view.hand))
            with pytest.raises(ValueError, match="not legal"):
                chooser.step(action, game.card_codes)
            assert (chooser.card, chooser.named, chooser.allowed(view.hand)) == before
        if chooser.card is None:
            assert chooser.step(card, game.card_codes) is None
    assert not mask[:TAKE].any() and mask[TAKE:].any()


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
    to_move = game.turn == seat and not game.over
    seen = Observer(rules).observe(game.masks(seat), MoveChooser() if to_move else None)
    seen_again = Observer(rules).observe(other.masks(seat), MoveChooser() if to_move else None)
    assert (seen["observation"] == seen_again["observation"]).all()
    assert (seen["action_mask"] == seen_again["action_mask"]).all()


def thermometer(count: int, slots: int) -> list[int]:
    """``count`` ones, then zeros, ``slots`` values in all."""
    return [1] * min(count, slots) + [0] * (slots - min(count, slots))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_observation_reads_back_as_the_seats_view(players):
    """Each block of the documented layout holds what the view says, from the observer's side."""
    rng = random.Random(players)
    rules = Rules(players=players)
    choosing = []  # the cards in hand with several legal moves
    while not choosing:
        banked = [7 * (side + 1) for side in range(rules.sides)]  # 7 points: 1/16 of the target, 14: 3/16
        game = Round(rules, deal_deck(rng, rules), number=3, banked=banked)
        for _ in range(rng.randrange(5, 30)):
            codes = game.legal_codes()
            game.play_code(codes[rng.randrange(len(codes))])
        choosing = [card for card in range(52) if len(game.card_codes(card)) > 1]
    game.surs = [side + 1 for side in range(rules.sides)]  # as if each side had made Surs
    card = choosing[0]
    chooser = MoveChooser()
    chooser.step(card, game.card_codes)
    observer = Observer(rules)

    def names(cards: tuple[Card, ...]) -> set[str]:
        return {str(card) for card in cards}

    for seat in range(players):
        view = game.view(seat)
        seen = observer.observation(game.masks(seat), chooser if seat == game.turn else None)
        assert seen.shape == (OBSERVATION_SIZE,)

        def block(start: int, seen: np.ndarray = seen) -> set[str]:
            return {str(card) for card in CARDS if seen[start + card]}

        def from_observer(index: int, count: int, own: int) -> int:
            return (index - own) % count

        assert block(HAND) == names(view.hand) and block(TABLE) == names(view.table)
        for slot in range(rules.sides):
            assert block(CAPTURED + 52 * slot) == names(view.captured[(view.side + slot) % rules.sides])
        assert block(UNSEEN) == names(view.unseen())
        assert block(CHOSEN) == ({str(CARDS[card])} if seat == game.turn else set())
        assert list(np.flatnonzero(seen[TURN:HANDS])) == [from_observer(view.turn, players, seat)]
        for slot in range(players):
            size = view.hands[(seat + slot) % players]
            assert list(seen[HANDS + 4 * slot : HANDS + 4 * slot + 4]) == [1] * size + [0] * (4 - size)
        assert list(np.flatnonzero(seen[DEAL:LAST_CAPTURER])) == [view.deal - 1]
        last = 4 if view.last_capturer is None else from_observer(view.last_capturer, rules.sides, view.side)
        assert list(np.flatnonzero(seen[LAST_CAPTURER:PLAYERS])) == [last]
        assert list(np.flatnonzero(seen[PLAYERS:SCORES])) == [players - 2] + ([3] if players == 4 else [])
        for slot in range(4):
            side = (view.side + slot) % rules.sides
            score = view.scores[side] if slot < rules.sides else 0
            surs = view.surs[side] if slot < rules.sides else 0
            scores_block = seen[SCORES + SCORE_SLOTS * slot : SCORES + SCORE_SLOTS * (slot + 1)]
            assert list(scores_block) == thermometer(16 * score // rules.target, SCORE_SLOTS)
            assert list(seen[SURS + SUR_SLOTS * slot : SURS + SUR_SLOTS * (slot + 1)]) == thermometer(surs, SUR_SLOTS)
        assert list(np.flatnonzero(seen[ROUND:])) == [2]
        assert seen.dtype == np.int8 and set(np.unique(seen)) <= {0, 1}


@pytest.mark.parametrize(
    "make",
    [
        lambda **options: pettingzoo_env(**options),
        lambda **options: gymnasium.make("pasur/Pasur-v0", **options),
        lambda **options: gymnasium.make_vec("pasur/Pasur-v0", num_envs=2, **options),
    ],
    ids=["pettingzoo", "gymnasium", "vector"],
)
def test_an_unknown_option_is_refused_by_name_with_the_options_there_are(make):
    with pytest.raises(TypeError) as raised:
        make(plyers=3)
    said = str(raised.value)
    assert "'plyers'" in said and "players" in said and "reward" in said and "sur_cutoff" in said
    make(players=3).close()  # the right name is taken
