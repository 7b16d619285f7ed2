"""The two simplest bots: ``random`` and ``greedy``."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import Move, SeatView
from ..core.cards import CLUB_CARDS, JACK, mask_of
from .judgement import fixed_points


class RandomBot:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """A uniformly random one of ``legal``."""
        return legal[self._rng.randrange(len(legal))]


def card_points(mask: int) -> float:
    """Points the cards of a mask are worth when captured, a club counting 7/13 toward Haft Khaj."""
    return fixed_points(mask) + 7 / 13 * (mask & CLUB_CARDS).bit_count()


def immediate_value(view: SeatView, move: Move) -> float:
    """What a move gains at once: points and clubs taken, 5 for a Sur; laying a card down costs
    what it is worth."""
    card_mask = 1 << move.card
    if not move.take:
        return -card_points(card_mask) - 0.01 * move.card.value
    take = move.take_mask
    left = mask_of(view.table) & ~take
    sur = (
        not left
        and move.card.rank != JACK
        and (not view.last_deal or view.rules.sur_in_last_deal)
        and (view.rules.sur_cutoff is None or view.scores[view.side] < view.rules.sur_cutoff)
    )
    return card_points(take | card_mask) + 5 * sur + 0.05 * take.bit_count()


class GreedyBot:
    """Takes the best immediate value: points taken, Sur, clubs."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """The move of highest immediate value, ties broken at random."""
        scored = [(immediate_value(view, move), self._rng.random(), move) for move in legal]
        return max(scored, key=lambda item: (item[0], item[1]))[2]
