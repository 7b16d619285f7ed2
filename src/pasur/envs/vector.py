"""``PasurVectorEnv``: many ``pasur/Pasur-v0`` episodes stepped at once in native code, as a
``gymnasium.vector.VectorEnv``.

    from pasur.envs.vector import PasurVectorEnv
    envs = PasurVectorEnv(64, opponents="greedy", players=2)
    observations, infos = envs.reset(seed=1)
    observations, rewards, terminated, truncated, infos = envs.step(actions)

Each episode is exactly what `pasur.envs.gymnasium.PasurEnv` gives with the same seed —
the same deals, observations, action masks, rewards and ends — and the batch is what
``gymnasium.vector.SyncVectorEnv`` of those environments returns (episode ``i`` seeded with
``seed + i``; an ended episode starts again at the next step, whose action it ignores). The
opponents are ``random`` or ``greedy``, played natively exactly as the Python bots choose (with
Python's own generator); the reward is the one-round reward (``reward="round"``). Importing
`pasur.envs` registers it as ``pasur/Pasur-v0``'s vector entry point, so
``gymnasium.make_vec("pasur/Pasur-v0", num_envs=64)`` returns it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..core.errors import MissingExtra

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as missing:  # the rl extra is not installed
    raise MissingExtra(f"pasur.envs.vector ({missing.name})", "rl") from None

from ..core import Round, deal_deck, native
from ..host import bot_seed
from .encoding import ACTION_COUNT, OBSERVATION_SIZE, observation_space
from .options import rules_of

__all__ = ["OPPONENTS", "PasurVectorEnv"]

#: The opponents the native core plays, by bot spec.
OPPONENTS = {"random": 1, "greedy": 2}


def twister_key(seed: int) -> list[int]:
    """The 32-bit words, lowest first, with which ``random.Random(seed)`` seeds its generator."""
    seed = abs(seed)
    return [(seed >> (32 * index)) & 0xFFFFFFFF for index in range(max(1, (seed.bit_length() + 31) // 32))]


class PasurVectorEnv(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """``num_envs`` one-round episodes of Pasur, the agent in ``seat``, stepped natively."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - as VectorEnv declares it

    def __init__(
        self,
        num_envs: int = 16,
        opponents: str | list[str] = "greedy",
        seat: int = 0,
        reward: str = "round",
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        """The settings of `pasur.envs.gymnasium.PasurEnv` (so that ``gymnasium.make_vec``
        passes them on), less what only the single environment does: ``reward="match"`` and
        drawing."""
        if reward != "round":
            raise ValueError(
                'the vector env gives the one-round reward only: for reward="match" use '
                'gymnasium.make_vec(..., vectorization_mode="sync")'
            )
        if render_mode is not None:
            raise ValueError('the vector env draws nothing: for render_mode use vectorization_mode="sync"')
        if not native.available():
            raise RuntimeError("PasurVectorEnv needs the native core: reinstall pasur where a C compiler is present")
        if num_envs < 1:
            raise ValueError("num_envs must be 1 or more")
        self.rules = rules_of(rules, ("num_envs", "opponents", "seat", "reward", "render_mode"))
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0 … {self.rules.players - 1}")
        others = self.rules.players - 1
        specs = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(specs) != others or any(spec not in OPPONENTS for spec in specs):
            raise ValueError(f"opponents: one of {', '.join(OPPONENTS)}, or one such a seat ({others})")
        #: Each seat's policy for the native core (0 for the agent's).
        self.policies = [OPPONENTS[spec] for spec in specs[:seat]] + [0] + [OPPONENTS[spec] for spec in specs[seat:]]
        self.seat = seat
        self.num_envs = num_envs
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(ACTION_COUNT)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # the episodes live here; each call steps them in the calling thread's native workspace
        self._episodes = bytearray(num_envs * native.episode_size())
        self._generators = [seeding.np_random()[0] for _ in range(num_envs)]
        self._observations = np.zeros((num_envs, OBSERVATION_SIZE), np.int8)
        self._masks = np.zeros((num_envs, ACTION_COUNT), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.uint8)
        self._illegal = np.zeros(num_envs, np.uint8)
        self._restart = np.zeros(num_envs, np.uint8)  # the episodes that start again at the next step

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every episode; episode ``i`` is seeded with ``seed + i`` (or ``seed[i]``)."""
        seeds: list[int | None]
        if isinstance(seed, int):
            seeds = [seed + index for index in range(self.num_envs)]
        else:
            seeds = [None] * self.num_envs if seed is None else list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"give one seed, or {self.num_envs}")
        for index, episode_seed in enumerate(seeds):
            if episode_seed is not None:  # as Env.reset: no seed goes on with the episode's stream
                self._generators[index] = seeding.np_random(episode_seed)[0]
            self._start(index)
        self._restart[:] = 0
        observed = self._observed()
        return observed, self._infos(observed)

    def _start(self, index: int) -> None:
        """Deal episode ``index`` a new round, as PasurEnv.reset deals it."""
        deal_seed = int(self._generators[index].integers(2**63))
        game = Round(self.rules, deal_deck(random.Random(deal_seed), self.rules), check_deck=False)
        keys = [twister_key(bot_seed(deal_seed, seat)) for seat in range(self.rules.players)]
        native.workspace().episode_reset(
            self._episodes,
            index,
            game.native_fields(),
            self.seat,
            self.policies,
            keys,
            self.rules.haft_khaj == "most",
            self.rules.sur_cancel,
        )

    def step(
        self, actions: np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action an episode; an episode that ended at the last step starts again instead."""
        actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(self.num_envs)
        restart = self._restart.copy()
        for index in np.flatnonzero(restart):
            self._start(int(index))
        native.workspace().episode_step(
            self._episodes, actions, restart, self._rewards, self._terminated, self._illegal
        )
        self._restart[:] = self._terminated
        observed = self._observed()
        infos = self._infos(observed)
        if self._illegal.any():
            infos |= {"illegal_action": self._illegal.astype(bool), "_illegal_action": self._illegal.astype(bool)}
        terminated = self._terminated.astype(bool)
        return observed, self._rewards.copy(), terminated, np.zeros(self.num_envs, bool), infos

    def _infos(self, observed: dict[str, np.ndarray]) -> dict[str, Any]:
        """The infos ``SyncVectorEnv`` batches from each PasurEnv's: the action mask, in every episode."""
        return {"action_mask": observed["action_mask"].copy(), "_action_mask": np.ones(self.num_envs, bool)}

    def restart(self, indices: Sequence[int]) -> dict[str, np.ndarray]:
        """Start episodes ``indices`` again now (not at the next step) and return every episode's
        observation: the same-step restart that stable-baselines3's vector envs make."""
        for index in indices:
            self._start(int(index))
            self._restart[index] = 0
        return self._observed()

    def _observed(self) -> dict[str, np.ndarray]:
        native.workspace().episode_observe(self._episodes, self._observations, self._masks)
        return {"observation": self._observations.copy(), "action_mask": self._masks.copy()}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, one row an episode, as booleans (as MaskablePPO asks)."""
        return self._masks.astype(bool)
