"""The native engine core (``_native``, C), when the install built it: the same rules as
`Round`, which stays the readable reference and the fallback.

``ENGINE`` says which runs: "native", or "python" when the module was not built or
``PASUR_ENGINE=python`` asks for the pure one. ``tests/test_native.py`` plays both side by side.

The native calls keep no state of their own: each runs in a workspace (its scratch space, the
solver and the solver's transposition table), and every thread has its own, made at its first
call (`workspace()`), so calls from many threads run at once; the long ones release the GIL.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from .cards import CardMask
from .game import Round
from .sampling import Sampling


def _load() -> ModuleType | None:
    if os.environ.get("PASUR_ENGINE", "").lower() == "python":
        return None
    try:
        from . import _native  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _native  # type: ignore[no-any-return]


_native = _load()
#: The engine in use: "native" or "python".
ENGINE = "native" if _native is not None else "python"


def _core() -> ModuleType:
    """The native module; RuntimeError when it was not built (see `available()`)."""
    if _native is None:
        raise RuntimeError("the native core was not built (or PASUR_ENGINE=python)")
    return _native


def available() -> bool:
    """Whether the native core runs."""
    return _native is not None


_threads = threading.local()


def workspace() -> Any:
    """This thread's native workspace (``_native.Workspace``), made at its first use: a workspace
    serves one call at a time, so no two threads share one."""
    found = getattr(_threads, "workspace", None)
    if found is None:
        found = _threads.workspace = _core().Workspace()
    return found


def episode_size() -> int:
    """The bytes of one vector-environment episode in native memory."""
    return int(_core().episode_size())


def hand_moves(hand: CardMask, table: CardMask, compulsory: bool) -> list[int]:
    """The legal move codes of a hand on a table, as `captures.hand_moves()` lists them."""
    return list(workspace().hand_moves(hand, table, compulsory))


def play_codes(game: Round, codes: list[int]) -> None:
    """Play legal move codes in ``game`` through the native core (unchecked, as ``play_code``)."""
    game.take_native_state(_core().play(game.native_fields(), codes), codes)


def play_random(game: Round, rng: random.Random) -> None:
    """Finish ``game`` with uniformly random legal moves in native code (its own generator,
    seeded from ``rng``: the moves differ from `Round.play_random()`'s)."""
    state, codes = workspace().play_random(game.native_fields(), rng.getrandbits(64), True)
    game.take_native_state(state, codes)


def play_mixed(game: Round, rng: random.Random, greedy: float) -> None:
    """Finish ``game`` as `pasur.bots.playout.playout()` does (greedy with probability
    ``greedy``, else random), in native code."""
    state, codes = workspace().play_mixed(game.native_fields(), rng.getrandbits(64), greedy)
    game.take_native_state(state, codes)


def random_round_moves(game: Round, seed: int, rounds: int) -> int:
    """Play ``rounds`` random rounds from ``game`` (left unchanged) in native code, without the
    GIL; the moves made."""
    return int(workspace().random_rounds(game.native_fields(), seed, rounds))


def solve(
    game: Round, most_clubs: bool, table_bits: int, node_limit: int, deal_only: bool = False, each: bool = False
) -> tuple[int, list[tuple[int, int]], list[int], int]:
    """The exact solver (see `pasur.core.solver`), without the GIL: value, each legal move's
    value, a principal line and the nodes searched; ``deal_only`` stops at the end of the current
    deal. Values are side 0 minus side 1; with more than two sides, the mover's points times
    (sides - 1) minus the others' together, the others playing as one, or with ``each`` every
    player for itself (then no line)."""
    value, moves, line, nodes = workspace().solve(
        game.native_fields(), most_clubs, table_bits, node_limit, deal_only, each
    )
    return value, moves, line, nodes


def solve_samples(
    game: Round, sampling: Sampling, table_bits: int, samples: int, seed: int
) -> tuple[list[int], bytes, bytes]:
    """The solver on ``samples`` deals of the cards the mover cannot see (dealt again from
    ``seed``), as ``sampling`` says, without the GIL: the legal moves, every move's value for each
    deal solved before the node limit stopped one (int32s, deal by deal, as `solve()` gives
    them), and each deal's weight (doubles)."""
    codes, values, _solved, _nodes, weights = workspace().solve_samples(
        game.native_fields(),
        game.rules.haft_khaj == "most",
        table_bits,
        sampling.node_limit,
        sampling.deal_only,
        game.turn,
        samples,
        seed,
        sampling.evidence,
        sampling.temper,
        sampling.node_budget,
        sampling.gift,
        sampling.contexts,
        sampling.each,
    )
    return codes, values, weights


def minimax(game: Round, most_clubs: bool, node_limit: int) -> tuple[int, list[tuple[int, int]], int]:
    """Plain minimax in native code, without the GIL: value, each legal move's value and the nodes
    searched."""
    value, moves, nodes = workspace().minimax(game.native_fields(), most_clubs, node_limit)
    return value, moves, nodes


def net_features(decision: tuple[int | float, ...], codes: Sequence[int]) -> bytes:
    """The net bot's features of each move (float32, a row a move), as
    `pasur.bots.net.python_features()` computes them from ``decision`` (``Decision.fields``)."""
    return bytes(workspace().net_features(decision, codes))


def net_scores(decision: tuple[int | float, ...], codes: Sequence[int], layers: Sequence[Any]) -> list[float]:
    """The net bot's network's score of each move (``layers``: its six float32 arrays, in
    ``Network.LAYERS`` order), the features and the network both in native code."""
    return list(workspace().net_scores(decision, codes, *layers))
