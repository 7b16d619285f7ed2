"""The match runner: duplicate deals, parallel workers, statistics, records out."""

from .games import GameResult, Plan, play_game, play_set
from .runner import run
from .stats import Estimate, Sprt, elo_estimate, elo_of, ratio_estimate, score_of
from .tally import Tally

__all__ = [
    "Estimate",
    "GameResult",
    "Plan",
    "Sprt",
    "Tally",
    "elo_estimate",
    "elo_of",
    "play_game",
    "play_set",
    "ratio_estimate",
    "run",
    "score_of",
]
