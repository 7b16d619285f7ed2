"""What the search bots share: quick playouts to the end of a round, and their rewards."""

from __future__ import annotations

import math
import random
import time

from ..core import Round, native
from ..core.scoring import SUR_POINTS, card_points, clears_table, relative_points


def playout(game: Round, rng: random.Random, greedy: float) -> None:
    """Finish a round: with probability ``greedy`` each move is the capture taking the most
    points (a Sur counting 5; a random move when nothing can be taken), otherwise a uniformly
    random legal move. In the native core when it was built (its own random stream, seeded from
    ``rng``); this loop is the reference it is tested against."""
    if native.available():
        native.play_mixed(game, rng, greedy)
        return
    python_playout(game, rng, greedy)


def python_playout(game: Round, rng: random.Random, greedy: float) -> None:
    """`playout()` in pure Python."""
    random_float = rng.random
    while not game.over:
        codes = game.legal_codes()
        if len(codes) > 1 and random_float() < greedy:
            table = game.table
            best, best_value = codes[int(random_float() * len(codes))], 0.0
            for code in codes:
                take = code >> 6
                if take:
                    value = card_points(take | 1 << (code & 63)) + 0.3 * take.bit_count()
                    if clears_table(code & 63, take, table):
                        value += SUR_POINTS
                    if value > best_value:
                        best, best_value = code, value
            game.play_code(best)
        else:
            game.play_code(codes[int(random_float() * len(codes))])


#: The round points against the others' mean that span a playout's reward from 0 to 1.
REWARD_SPAN = 60


def outcome(game: Round) -> list[float]:
    """Each side's reward in [0, 1]: its round points against the mean of the others'."""
    points = game.points()
    return [min(1.0, max(0.0, 0.5 + relative_points(points, side) / REWARD_SPAN)) for side in range(len(points))]


def budget(count: int | None, ms: float | None, default: int, name: str) -> int | None:
    """The count of iterations a search may spend (the default when neither bound is given);
    ValueError for a bound that makes no sense."""
    if count is None and ms is None:
        return default
    if count is not None and count < 1:
        raise ValueError(f"{name} must be at least 1")
    if ms is not None and ms <= 0:
        raise ValueError("ms must be positive")
    return count


def deadline(ms: float | None) -> float:
    """The ``time.perf_counter()`` value by which a search with ``ms`` milliseconds must stop."""
    return time.perf_counter() + ms / 1000 if ms is not None else math.inf
