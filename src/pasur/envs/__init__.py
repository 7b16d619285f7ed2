"""Research environments (the ``rl`` extra): PettingZoo, Gymnasium and OpenSpiel adapters.

Importing this package registers the Gymnasium environment ``pasur/Pasur-v0``, with the native
`pasur.envs.vector.PasurVectorEnv` as its vector entry point (``gymnasium.make_vec``).
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError:  # the rl extra is not installed: nothing to register
    gymnasium = None  # type: ignore[assignment]

if gymnasium is not None and "pasur/Pasur-v0" not in gymnasium.registry:
    gymnasium.register(
        id="pasur/Pasur-v0",
        entry_point="pasur.envs.gymnasium:PasurEnv",
        vector_entry_point="pasur.envs.vector:PasurVectorEnv",
    )
