"""Bots: each reads a seat's view and the legal moves, and returns one of them."""

from .base import (
    BOT_DESCRIPTIONS,
    BOT_NAMES,
    LEVELS,
    Bot,
    BotError,
    checked_choice,
    make_bot,
    parse_spec,
    validate_spec,
)
from .expert import ExpertBot
from .ismcts import IsmctsBot
from .pimc import PimcBot
from .simple import GreedyBot, RandomBot

__all__ = [
    "BOT_DESCRIPTIONS",
    "BOT_NAMES",
    "LEVELS",
    "Bot",
    "BotError",
    "ExpertBot",
    "GreedyBot",
    "IsmctsBot",
    "PimcBot",
    "RandomBot",
    "checked_choice",
    "make_bot",
    "parse_spec",
    "validate_spec",
]
