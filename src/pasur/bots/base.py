"""The bot interface and bots by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..core import Move, SeatView


class Bot(Protocol):
    """A player that sees only its seat's view."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """One of ``legal``, chosen from what ``view`` shows."""
        ...


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from its name, as ``random`` or ``greedy``; ValueError for an unknown one."""
    from .simple import GreedyBot, RandomBot

    makers: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}
    name = spec.strip().lower()
    if name not in makers:
        raise ValueError(f"unknown bot '{spec}' (known: {', '.join(BOT_NAMES)})")
    return makers[name](seed=seed)


BOT_NAMES = ("random", "greedy")
