"""The native engine core (``_native``, C), when the install built it: the same rules as
:class:`~pasur.core.game.Round`, which stays the readable reference and the fallback.

``ENGINE`` says which runs: "native", or "python" when the module was not built or
``PASUR_ENGINE=python`` asks for the pure one. ``tests/test_native.py`` plays both side by side.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from .cards import CardMask
from .game import Round


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
    """The native module; RuntimeError when it was not built (see :func:`available`)."""
    if _native is None:
        raise RuntimeError("the native core was not built (or PASUR_ENGINE=python)")
    return _native


def available() -> bool:
    """Whether the native core runs."""
    return _native is not None


def round_fields(game: Round) -> tuple[Any, ...]:
    """A round as the native core reads it."""
    return (
        game.players,
        game._compulsory,
        game.first,
        game._side,
        game._sur_ok,
        game._last_deal_sur,
        game.deck,
        game.hands,
        game.table,
        game.captured,
        game.surs,
        game.last_capturer,
        game.turn,
        game.dealt,
        game.deal,
        game.over,
    )


def _set_state(game: Round, state: tuple[Any, ...], codes: list[int]) -> None:
    hands, table, captured, surs, last_capturer, turn, dealt, deal, over = state
    game.hands, game.table, game.captured, game.surs = list(hands), table, list(captured), list(surs)
    game.last_capturer, game.turn, game.dealt, game.deal, game.over = last_capturer, turn, dealt, deal, over
    game._final = None  # its breakdown is worked out again when asked
    game.history += codes


def hand_moves(hand: CardMask, table: CardMask, compulsory: bool) -> list[int]:
    """The legal move codes of a hand on a table, as :func:`captures.hand_moves` lists them."""
    return list(_core().hand_moves(hand, table, compulsory))


def play_codes(game: Round, codes: list[int]) -> None:
    """Play legal move codes in ``game`` through the native core (unchecked, as ``play_code``)."""
    _set_state(game, _core().play(round_fields(game), codes), codes)


def play_random(game: Round, rng: random.Random) -> None:
    """Finish ``game`` with uniformly random legal moves in native code (its own generator,
    seeded from ``rng``: the moves differ from :meth:`Round.play_random`'s)."""
    state, codes = _core().play_random(round_fields(game), rng.getrandbits(64), True)
    _set_state(game, state, codes)


def play_mixed(game: Round, rng: random.Random, greedy: float) -> None:
    """Finish ``game`` as :func:`pasur.bots.playout.playout` does (greedy with probability
    ``greedy``, else random), in native code."""
    state, codes = _core().play_mixed(round_fields(game), rng.getrandbits(64), greedy)
    _set_state(game, state, codes)


def random_round_moves(game: Round, seed: int, rounds: int) -> int:
    """Play ``rounds`` random rounds from ``game`` (left unchanged) in native code; the moves made."""
    return int(_core().random_rounds(round_fields(game), seed, rounds))


def solve(
    game: Round, most_clubs: bool, table_bits: int, node_limit: int, deal_only: bool = False
) -> tuple[int, list[tuple[int, int]], list[int], int]:
    """The exact solver (see :mod:`pasur.core.solver`): value, each legal move's value, a
    principal line and the nodes searched; ``deal_only`` stops at the end of the current deal.
    Values are side 0 minus side 1; with more than two sides, the mover's points times
    (sides - 1) minus the others' together, the others playing as one."""
    value, moves, line, nodes = _core().solve(round_fields(game), most_clubs, table_bits, node_limit, deal_only)
    return value, moves, line, nodes


def solve_samples(
    game: Round,
    most_clubs: bool,
    table_bits: int,
    node_limit: int,
    deal_only: bool,
    samples: int,
    seed: int,
    evidence: Sequence[tuple[int, int, int, int]] = (),
    temper: float = 1.0,
    node_budget: int = 0,
    gift: float = 0.0,
    contexts: Sequence[tuple[tuple[int, int, int, int], int, tuple[int, int, int, int]]] | None = None,
) -> tuple[list[int], bytes, bytes]:
    """The solver on ``samples`` deals of the cards the mover cannot see (dealt again from
    ``seed``): the legal moves, every move's value for each deal solved before the node limit
    stopped one (int32s, deal by deal, as :func:`solve` gives them), and each deal's weight (doubles): how
    likely the others' plays in ``evidence`` (seat, table seen, cards it played later, move) are
    with its hands (a play leaving a table one card could sweep giving up ``gift`` Surs; with
    ``contexts``, one for each play, what the solver finds it gave up). Sampling stops after the
    deal with which the nodes searched reach ``node_budget`` (0: no budget)."""
    codes, values, _solved, _nodes, weights = _core().solve_samples(
        round_fields(game),
        most_clubs,
        table_bits,
        node_limit,
        deal_only,
        game.turn,
        samples,
        seed,
        evidence,
        temper,
        node_budget,
        gift,
        contexts,
    )
    return codes, values, weights


def minimax(game: Round, most_clubs: bool, node_limit: int) -> tuple[int, list[tuple[int, int]], int]:
    """Plain minimax in native code: value, each legal move's value and the nodes searched."""
    value, moves, nodes = _core().minimax(round_fields(game), most_clubs, node_limit)
    return value, moves, nodes
