"""``solver``: sampled deals, each solved exactly.

For each decision it deals the cards its seat has not seen at random, consistently with its view,
and solves each such deal exactly with the native open-deck solver (:func:`pasur.solve`), which
values every legal move under perfect play by both sides — by default to the end of the current
deal, with the Haft Khaj each side can expect from the clubs still out (``horizon=deal``: the
pack's order, which nobody knows, then plays no part), or to the round's end (``horizon=round``).
The move played has the best mean over the samples, as bridge programs do (GIB); docs/STRENGTH.md
has the measurements behind the default.

Two sides only (2 players, or 4 in partnership), and only with the native core: otherwise it
plays as ``pimc`` (its fallback, stated in docs/STRENGTH.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..core import Move, Round, SeatView, native
from ..core.solver import SolveError, solve
from .pimc import PimcBot
from .playout import budget, deadline

#: Nodes the solver searches in about a millisecond, for a time budget's node limit.
NODES_A_MILLISECOND = 5000


class SolverBot:
    """A budget of ``samples`` (default 96) solved deals or ``ms`` per decision."""

    name = "solver"
    DEFAULT_SAMPLES = 96

    def __init__(
        self, samples: int | None = None, ms: float | None = None, horizon: str = "deal", seed: int | None = None
    ) -> None:
        """``samples`` or ``ms`` bound each decision (both: whichever comes first). With ``ms``,
        a deal whose search would take far longer is not solved: when not even the first one is,
        the decision is ``pimc``'s."""
        self.samples = budget(samples, ms, self.DEFAULT_SAMPLES, "samples")
        if horizon not in ("round", "deal"):
            raise ValueError('horizon must be "round" or "deal"')
        self.deal_only = horizon == "deal"
        self.ms = ms
        self._rng = random.Random(seed)
        self._fallback = PimcBot(ms=ms, seed=seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """The move with the best mean exact value over the sampled deals."""
        if len(legal) == 1:
            return legal[0]
        if view.rules.sides != 2 or not native.available():
            return self._fallback.choose(view, legal)
        rng = self._rng
        base = Round.from_view(view, rng)
        codes = [move.code for move in legal]
        totals = dict.fromkeys(codes, 0)
        sign = 1 if view.side == 0 else -1  # values are side 0 minus side 1
        samples = self.samples if self.samples is not None else 1 << 60
        stop = deadline(self.ms)
        done = 0
        # with a time budget, one deal may take at most about that long (the solver searches some
        # 5 million nodes a second); one that takes longer ends the sampling
        node_limit = int(self.ms * NODES_A_MILLISECOND) if self.ms is not None else 0
        while done < samples and (done == 0 or time.perf_counter() < stop):
            deal = base.copy()
            deal.reshuffle_unseen(view.seat, rng)
            try:
                solution = solve(deal, node_limit=node_limit, deal_only=self.deal_only)
            except SolveError:
                break
            for move in solution.moves:
                totals[move.code] += sign * move.value
            done += 1
        if not done:  # not even one deal solved within the budget
            return self._fallback.choose(view, legal)
        best = max(codes, key=totals.__getitem__)
        return legal[codes.index(best)]
