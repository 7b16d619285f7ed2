"""Bots: each reads a seat's view and the legal moves, and returns one of them."""

from .base import BOT_NAMES, Bot, make_bot
from .simple import GreedyBot, RandomBot, immediate_value

__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "immediate_value", "make_bot"]
