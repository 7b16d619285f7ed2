"""Pasur (Chahar Barg), the Iranian fishing card game: an exact rules engine and its tools."""

from .core import (
    CARDS,
    Card,
    DeckError,
    IllegalMove,
    Match,
    Move,
    Play,
    Played,
    RecordError,
    Round,
    Rules,
    RulesError,
    SeatView,
    SideScore,
    deal_deck,
    from_record,
    replay_record,
    to_record,
)
from .core.errors import SolveError
from .core.solver import Solution, solve

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "Card",
    "DeckError",
    "IllegalMove",
    "Match",
    "Move",
    "Play",
    "Played",
    "RecordError",
    "Round",
    "Rules",
    "RulesError",
    "SeatView",
    "SideScore",
    "Solution",
    "SolveError",
    "deal_deck",
    "from_record",
    "replay_record",
    "solve",
    "to_record",
]
