"""``pimc``: determinized sampling search with common random numbers.

Perfect-information Monte Carlo: each sample deals the cards this seat has not seen at random,
consistently with its view, and plays every legal move in that same deal, each followed by a
playout driven by the same random numbers. Comparing the moves on identical deals and identical
luck cancels most of the noise, so few samples separate moves that differ by a fraction of a point.
The move played has the best total.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..core import Move, MoveCode, Round, SeatView
from .playout import budget, deadline, outcome, playout


class PimcBot:
    """A budget of ``playouts`` (default 1,200) or ``ms`` per decision, spread over the moves."""

    name = "pimc"
    DEFAULT_PLAYOUTS = 1200

    def __init__(
        self,
        playouts: int | None = None,
        ms: float | None = None,
        greedy: float = 0.9,
        seed: int | None = None,
    ) -> None:
        """``playouts`` or ``ms`` bound each decision (both: whichever comes first); ``greedy``
        is the playouts' share of greedy moves."""
        self.playouts = budget(playouts, ms, self.DEFAULT_PLAYOUTS, "playouts")
        self.ms = ms
        self.greedy = greedy
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """The move with the best total over the sampled deals."""
        if len(legal) == 1:
            return legal[0]
        totals = self.totals(view, legal)
        best = max(totals, key=totals.__getitem__)
        return next(move for move in legal if move.code == best)

    def totals(self, view: SeatView, legal: Sequence[Move]) -> dict[MoveCode, float]:
        """Each legal move's mean reward (`playout.outcome()`, in [0, 1]) over the sampled deals."""
        rng = self._rng
        base = Round.from_view(view, rng)
        codes = [move.code for move in legal]
        totals = dict.fromkeys(codes, 0.0)
        samples = max(1, self.playouts // len(codes)) if self.playouts is not None else 1 << 60
        stop = deadline(self.ms)
        done = 0
        while done < samples and (done == 0 or time.perf_counter() < stop):
            deal = base.copy()
            deal.reshuffle_unseen(view.seat, rng)
            luck = rng.random()
            for code in codes:
                game = deal.copy()
                game.play_code(code)
                playout(game, random.Random(luck), self.greedy)
                totals[code] += outcome(game)[view.side]
            done += 1
        return {code: total / done for code, total in totals.items()}
