"""Bots: each reads a seat's view and the legal moves, and returns one of them."""

from .base import Bot, BotError, checked_choice
from .expert import ExpertBot
from .ismcts import IsmctsBot
from .pimc import PimcBot
from .registry import BOT_DESCRIPTIONS, BOT_NAMES, LEVELS, SEARCHING, capped_spec, make_bot, parse_spec, validate_spec
from .simple import GreedyBot, RandomBot
from .solver_bot import SolverBot

__all__ = [
    "BOT_DESCRIPTIONS",
    "BOT_NAMES",
    "LEVELS",
    "SEARCHING",
    "Bot",
    "BotError",
    "ExpertBot",
    "GreedyBot",
    "IsmctsBot",
    "PimcBot",
    "RandomBot",
    "SolverBot",
    "capped_spec",
    "checked_choice",
    "make_bot",
    "parse_spec",
    "validate_spec",
]
