"""The match runner: duplicate deals, parallel workers, statistics, records out."""

from .runner import GameResult, Plan, Tally, play_game, play_set, run
from .stats import Estimate, Sprt, elo_estimate, elo_of, ratio_estimate, score_of

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
