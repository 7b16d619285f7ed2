"""The exact open-deck solver: what a round's position is worth when every card's place is known
(the hands, the table and the pack in order) and both sides play perfectly.

The search is native (``_solver.h``; docs/SOLVER.md has the method). A value is the round's final
point difference, side 0 minus side 1, the points already taken this round included, under the
rules in force (Sur and its cut-off from the banked scores, the last capturer's sweep, Haft Khaj).
`solve()` takes two sides only: 2 players, or 4 in partnership. With 3 players, or 4 each for
themselves, `sampled_values()` searches the mover against the others as one coalition (a
paranoid search, the sound two-sided approximation docs/SOLVER.md describes): a value is then the
mover's points minus the others' average.
"""

from __future__ import annotations

import math
import random
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import native
from .errors import SolveError
from .game import Round
from .moves import Move, MoveCode
from .sampling import DEFAULT_SAMPLING, DEFAULT_TABLE_MB, Context, Evidence, Sampling

__all__ = [
    "DEFAULT_TABLE_MB",
    "Context",
    "Evidence",
    "MoveValue",
    "Samples",
    "Sampling",
    "Solution",
    "SolveError",
    "minimax",
    "sampled_values",
    "sampled_within",
    "solve",
    "solve_problem",
]

#: Each transposition table entry takes 32 bytes.
ENTRY_BYTES = 32
#: The most deals one native call samples: it makes room for all of their values at once, so more
#: are asked for in several calls (and a node budget that stops the sampling stops them too).
MOST_DEALS_A_CALL = 1 << 16


@dataclass(frozen=True, slots=True)
class MoveValue:
    """A legal move, its full text (``7Cx4H``, ``KD``), and the round's value after it."""

    code: MoveCode
    text: str
    value: int


@dataclass(frozen=True, slots=True)
class Solution:
    """The value of a position under perfect play, each legal move's value and a principal line."""

    value: int
    moves: tuple[MoveValue, ...]
    line: tuple[str, ...]
    nodes: int
    seconds: float

    @property
    def best(self) -> tuple[MoveValue, ...]:
        """The moves that keep the value (the best for the side to move)."""
        return tuple(move for move in self.moves if move.value == self.value)

    def to_json(self) -> dict[str, Any]:
        """``{"value", "moves": [{"move", "value"}], "line", "nodes", "seconds"}``."""
        return {
            "value": self.value,
            "moves": [{"move": move.text, "value": move.value} for move in self.moves],
            "line": list(self.line),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def solve_problem(game: Round, paranoid: bool = False) -> str | None:
    """Why the solver cannot take this round's position, or None when it can; ``paranoid`` takes
    more than two sides (the mover against the others as one)."""
    if game.rules.sides != 2 and not paranoid:
        return (
            f"the solver solves two sides only (2 players, or 4 in partnership); "
            f"this round has {game.rules.sides} sides ({game.players} players"
            f"{' without partnership' if game.players == 4 else ''})"
        )
    if not native.available():
        return "the solver needs the native core: reinstall pasur where a C compiler (gcc) is present"
    return None


def _table_bits(table_mb: float) -> int:
    entries = max(2, int(table_mb * (1 << 20)) // ENTRY_BYTES)
    return min(30, entries.bit_length() - 1)


def solve(game: Round, *, table_mb: float = DEFAULT_TABLE_MB, node_limit: int = 0, deal_only: bool = False) -> Solution:
    """Solve ``game`` (left unchanged) from its current position. ``table_mb`` sizes the
    transposition table (0: none); ``node_limit`` stops the search (0: no limit). ``deal_only``
    searches only to the end of the current deal (the later deals unknown): values are then the
    points taken by then and the Haft Khaj expected from the clubs still out, not the round's
    final points.
    `SolveError` says why a position cannot be solved."""
    problem = solve_problem(game)
    if problem:
        raise SolveError(problem)
    bits = _table_bits(table_mb) if table_mb > 0 else 0
    started = time.perf_counter()
    try:
        value, moves, line, nodes = native.solve(game, game.rules.haft_khaj == "most", bits, node_limit, deal_only)
    except (RuntimeError, OverflowError, MemoryError) as error:
        raise SolveError(str(error)) from None
    seconds = time.perf_counter() - started
    values = tuple(MoveValue(code, Move.from_code(code).text(), move_value) for code, move_value in moves)
    return Solution(value, values, tuple(Move.from_code(code).text() for code in line), nodes, seconds)


@dataclass(frozen=True, slots=True)
class Samples:
    """Each legal move's values for the side to move (its points minus the other side's, or with
    more than two sides minus the others' average) over the deals solved, and each deal's weight
    (1 unless plays were given as evidence)."""

    values: dict[MoveCode, list[float]]
    weights: list[float]

    def means(self, of: Callable[[float], float] | None = None) -> dict[MoveCode, float]:
        """Each move's weighted mean value, or mean of ``of(value)`` (empty when no deal was
        solved)."""
        total = sum(self.weights)
        if not total:
            return {}
        return {
            code: sum(weight * (of(value) if of else value) for weight, value in zip(self.weights, found, strict=True))
            / total
            for code, found in self.values.items()
        }


def sampled_values(game: Round, samples: int, seed: int, sampling: Sampling = DEFAULT_SAMPLING) -> Samples:
    """Each legal move's values for the side to move over ``samples`` deals of the cards the mover
    cannot see, dealt again at random from ``seed`` and solved exactly as `solve()` does (the
    same deals for every move), as ``sampling`` says. With a node limit or budget the lists can be
    shorter, possibly empty. With more than two sides, the mover plays against the others as one
    coalition (`Samples` says what a value is then). `SolveError` when the position
    cannot be solved."""
    problem = solve_problem(game, paranoid=True)
    if problem:
        raise SolveError(problem)
    if game.over:
        raise SolveError("the round is over")
    bits = _table_bits(sampling.table_mb) if sampling.table_mb > 0 else 0
    try:
        codes, raw, raw_weights = native.solve_samples(game, sampling, bits, samples, seed)
    except MemoryError:
        raise SolveError(f"not enough memory to sample {samples:,} deals at once") from None
    except (RuntimeError, OverflowError) as error:
        raise SolveError(str(error)) from None
    values = array("i")
    values.frombytes(raw)
    weights = array("d")
    weights.frombytes(raw_weights)
    sides = game.rules.sides
    # two sides: side 0 minus side 1; more: the mover's points times (sides - 1) minus the others'
    scale = (1 if game.side_of(game.turn) == 0 else -1) if sides == 2 else 1 / (sides - 1)
    return Samples(
        {code: [scale * value for value in values[index :: len(codes)]] for index, code in enumerate(codes)},
        weights.tolist(),
    )


def sampled_within(
    game: Round,
    samples: int,
    rng: random.Random,
    ms: float | None = None,
    batch: int = 32,
    sampling: Sampling = DEFAULT_SAMPLING,
    clock: Callable[[], float] = time.perf_counter,
) -> Samples:
    """`sampled_values()` for ``samples`` deals, in batches of ``batch`` when ``ms``
    milliseconds of ``clock`` (wall time by default; ``time.thread_time`` counts this thread's
    CPU) bound the time (at least one batch is solved), else of `MOST_DEALS_A_CALL`; each batch's
    seed comes from ``rng``; a deal that reaches the node limit ends the sampling."""
    stop = clock() + ms / 1000 if ms is not None else math.inf
    found: Samples | None = None
    while found is None or (len(found.weights) < samples and clock() < stop):
        size = min(samples - (len(found.weights) if found else 0), batch if ms is not None else MOST_DEALS_A_CALL)
        more = sampled_values(game, size, rng.getrandbits(64), sampling)
        if found is None:
            found = more
        else:
            for code, values in more.values.items():
                found.values[code].extend(values)
            found.weights.extend(more.weights)
        if len(more.weights) < size:
            break
    return found


def minimax(game: Round, node_limit: int = 0) -> tuple[int, dict[MoveCode, int]]:
    """The value and each legal move's value by plain minimax (every move, no pruning, no table):
    the reference the solver is tested against, for positions near a round's end."""
    problem = solve_problem(game)
    if problem:
        raise SolveError(problem)
    try:
        value, moves, _nodes = native.minimax(game, game.rules.haft_khaj == "most", node_limit)
    except RuntimeError as error:
        raise SolveError(str(error)) from None
    return value, dict(moves)
