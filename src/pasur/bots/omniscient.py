"""``omniscient``: the exact solver seeing every card, a cheat that measures how far the fair bots
are from perfect information. Only ``pasur match`` seats it (it is never offered to people)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import Move, Round, SeatView
from ..core.solver import solve
from .base import BotError


class OmniscientBot:
    """Plays a best move of the round as the open-deck solver values it (every hand and the
    pack's order known), a random one among equals."""

    name = "omniscient"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """A seat's view is not enough for this bot."""
        raise BotError("it sees every card, so only pasur match seats it", "open_only", bot=self.name)

    def choose_open(self, game: Round, legal: Sequence[Move]) -> Move:
        """A best move of ``game`` (left unchanged), seeing everything."""
        if len(legal) == 1:
            return legal[0]
        best = [move.code for move in solve(game).best]
        chosen = best[self._rng.randrange(len(best))]
        return next(move for move in legal if move.code == chosen)
