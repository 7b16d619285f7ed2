"""``PasurVectorEnv`` equals ``SyncVectorEnv`` of ``PasurEnv`` step by step: the same
observations, action masks, rewards and ends, through many episodes and restarts, with random and
greedy opponents at 2, 3 and 4 players, and actions the mask refuses now and then."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is installed by scripts/test.sh")
gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is installed by scripts/test.sh")

from pasur.core import native  # noqa: E402
from pasur.envs.gymnasium import PasurEnv  # noqa: E402

if not native.available():
    pytest.skip("the native core was not built (or PASUR_ENGINE=python)", allow_module_level=True)

from pasur.envs.vector import PasurVectorEnv, twister_key  # noqa: E402

SETTINGS = [
    {"opponents": "greedy"},
    {"opponents": "random", "sur_in_last_deal": True},
    {"opponents": "greedy", "players": 3, "haft_khaj": "most"},
    {"opponents": ["greedy", "random", "greedy"], "players": 4, "seat": 2},
    {"opponents": "greedy", "players": 4, "partnership": False, "compulsory_capture": False, "seat": 1},
]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda settings: str(sorted(settings.items())))
def test_the_vector_env_equals_single_environments_step_by_step(settings):
    count = 5
    batched = PasurVectorEnv(count, **settings)
    single = gymnasium.vector.SyncVectorEnv([lambda: PasurEnv(**settings) for _ in range(count)])
    observed, infos = batched.reset(seed=21)
    expected, expected_infos = single.reset(seed=21)
    assert_same_infos(infos, expected_infos)
    rng = np.random.default_rng(21)
    ended = rewarded = refused = 0
    for step in range(500):
        assert (observed["observation"] == expected["observation"]).all(), step
        assert (observed["action_mask"] == expected["action_mask"]).all(), step
        actions = np.array(
            [rng.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in observed["action_mask"]], dtype=np.int64
        )
        if step % 50 == 7:  # now and then an action the mask refuses
            actions[step % count] = 104 if not observed["action_mask"][step % count][104] else 51
        observed, rewards, terminated, truncated, infos = batched.step(actions)
        expected, expected_rewards, expected_terminated, _, expected_infos = single.step(actions)
        assert (rewards == expected_rewards).all() and (terminated == expected_terminated).all(), step
        assert not truncated.any()
        assert_same_infos(infos, expected_infos)
        mine = np.asarray(infos.get("illegal_action", np.zeros(count, bool)), bool)
        refused += int(mine.sum())
        ended += int(terminated.sum())
        rewarded += int((rewards != 0).sum())
    assert ended > 20 and rewarded > 10 and refused > 0  # episodes ended, paid and were refused
    observed, _ = batched.reset()  # no seed: each episode goes on with its own stream, as Env.reset does
    expected, _ = single.reset()
    assert (observed["observation"] == expected["observation"]).all()


def assert_same_infos(infos, expected):  # type: ignore[no-untyped-def]
    """The same keys, and under each the same values (the action mask above all)."""
    assert set(infos) == set(expected)
    for key, value in expected.items():
        assert np.array_equal(np.asarray(infos[key]), np.asarray(value)), key


def test_make_vec_returns_the_native_vector_env_with_the_single_envs_settings():
    import pasur.envs  # noqa: F401 - registers pasur/Pasur-v0 and its vector entry point

    envs = gymnasium.make_vec("pasur/Pasur-v0", num_envs=3, opponents="random", players=3)
    assert isinstance(envs.unwrapped, PasurVectorEnv) and envs.unwrapped.rules.players == 3
    observed, infos = envs.reset(seed=4)
    assert (infos["action_mask"] == observed["action_mask"]).all() and infos["_action_mask"].all()
    named = gymnasium.make_vec("pasur/Pasur-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert isinstance(named.unwrapped, PasurVectorEnv)
    with pytest.raises(ValueError, match="one-round reward only"):
        gymnasium.make_vec("pasur/Pasur-v0", num_envs=2, reward="match")
    synced = gymnasium.make_vec("pasur/Pasur-v0", num_envs=2, vectorization_mode="sync", reward="match")
    assert isinstance(synced, gymnasium.vector.SyncVectorEnv)


def test_the_seed_words_are_those_of_python_random():
    assert twister_key(0) == [0] and twister_key(5) == [5]
    assert twister_key(2**40 + 3) == [3, 256]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="opponents"):
        PasurVectorEnv(2, opponents="expert")
    with pytest.raises(ValueError, match="seat"):
        PasurVectorEnv(2, seat=2)
    with pytest.raises(ValueError, match="num_envs"):
        PasurVectorEnv(0)


def test_the_stable_baselines3_vec_env_equals_dummyvecenv_of_single_environments():
    """As SB3's own DummyVecEnv of PasurEnv: the same observations, rewards and ends, an ended
    episode started again at once with its last observation in its info."""
    pytest.importorskip("stable_baselines3", reason="the train extra is installed by scripts/test.sh")
    from stable_baselines3.common.vec_env import DummyVecEnv

    from pasur.envs.sb3 import PasurSB3VecEnv

    count, settings = 4, {"opponents": "greedy", "players": 3}
    batched = PasurSB3VecEnv(count, **settings)
    single = DummyVecEnv([lambda: PasurEnv(**settings) for _ in range(count)])
    batched.seed(5)
    single.seed(5)
    observed, expected = batched.reset(), single.reset()
    rng = np.random.default_rng(5)
    ended = 0
    for step in range(400):
        assert all((observed[key] == expected[key]).all() for key in expected), step
        assert (np.stack(batched.env_method("action_masks")) == observed["action_mask"].astype(bool)).all()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in observed["action_mask"]])
        observed, rewards, dones, infos = batched.step(actions)
        expected, expected_rewards, expected_dones, expected_infos = single.step(actions)
        assert (rewards == expected_rewards).all() and (dones == expected_dones).all(), step
        for index in np.flatnonzero(dones):
            mine, theirs = infos[index]["terminal_observation"], expected_infos[index]["terminal_observation"]
            assert all((mine[key] == theirs[key]).all() for key in theirs)
        ended += int(dones.sum())
    assert ended > 10


def test_maskable_ppo_trains_on_the_stable_baselines3_vec_env():
    pytest.importorskip("sb3_contrib", reason="the train extra is installed by scripts/test.sh")
    from sb3_contrib import MaskablePPO

    from pasur.envs.sb3 import PasurSB3VecEnv

    model = MaskablePPO("MultiInputPolicy", PasurSB3VecEnv(8), n_steps=32, batch_size=64, n_epochs=1, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512 and model.logger.name_to_value  # it trained and logged its losses
