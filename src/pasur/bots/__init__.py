"""Bots: each reads a seat's view and the legal moves, and returns one of them."""

from .base import Bot, make_bot, BOT_NAMES
from .simple import GreedyBot, RandomBot, immediate_value

__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "immediate_value", "make_bot"]
