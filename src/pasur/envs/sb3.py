"""``PasurSB3VecEnv``: the native vector env as stable-baselines3's ``VecEnv``, so that PPO, and
sb3-contrib's MaskablePPO with the action masks, train on many episodes stepped at once.

    from sb3_contrib import MaskablePPO
    from pasur.envs.sb3 import PasurSB3VecEnv
    model = MaskablePPO("MultiInputPolicy", PasurSB3VecEnv(16, opponents="greedy"), gamma=1.0)

Episodes are `pasur.envs.vector.PasurVectorEnv`'s (one round each, the same observations,
masks and rewards as ``pasur/Pasur-v0``); as stable-baselines3 expects, an episode that ends is
started again at once, its last observation kept in its info as ``terminal_observation``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..core.errors import MissingExtra
from .vector import PasurVectorEnv

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn
except ImportError as missing:  # the train extra is not installed
    raise MissingExtra(f"pasur.envs.sb3 ({missing.name})", "train") from None

__all__ = ["PasurSB3VecEnv"]


class PasurSB3VecEnv(VecEnv):
    """``num_envs`` one-round episodes of Pasur stepped natively, as a stable-baselines3 VecEnv;
    the keywords are `PasurVectorEnv`'s (opponents, seat, rules)."""

    def __init__(self, num_envs: int = 16, **settings: Any) -> None:
        self.episodes = PasurVectorEnv(num_envs, **settings)
        super().__init__(num_envs, self.episodes.single_observation_space, self.episodes.single_action_space)
        self._actions = np.zeros(num_envs, np.int64)

    def reset(self) -> dict[str, np.ndarray]:
        """Every episode anew: episode ``i`` seeded with ``seed + i`` after `seed()`, else each
        goes on with its own stream (stable-baselines3's way)."""
        observed, _ = self.episodes.reset(seed=list(self._seeds))
        self._reset_seeds()
        return observed

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> VecEnvStepReturn:
        observed, rewards, terminated, truncated, infos = self.episodes.step(self._actions)
        dones = terminated | truncated
        ended = np.flatnonzero(dones)
        details: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for index in np.flatnonzero(infos.get("illegal_action", np.zeros(self.num_envs, bool))):
            details[index]["illegal_action"] = True
        if ended.size:
            for index in ended:
                details[index]["terminal_observation"] = {key: value[index].copy() for key, value in observed.items()}
            observed = self.episodes.restart(ended.tolist())
        return observed, rewards.astype(np.float32), dones, details

    def action_masks(self) -> np.ndarray:
        """Every episode's legal actions, as MaskablePPO asks of a vector env."""
        return self.episodes.action_masks()

    def close(self) -> None:
        self.episodes.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self.episodes, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.episodes, attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: VecEnvIndices = None, **kwargs: Any) -> list[Any]:
        """``action_masks`` gives each episode's row (sb3-contrib's ``get_action_masks`` asks so)."""
        chosen = self._indices(indices)
        if method_name == "action_masks":
            masks = self.episodes.action_masks()
            return [masks[index] for index in chosen]
        result = getattr(self.episodes, method_name)(*args, **kwargs)
        return [result for _ in chosen]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices if isinstance(indices, Iterable) else [indices])
