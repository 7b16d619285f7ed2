"""The two simplest bots: ``random`` and ``greedy``."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import Move, SeatView
from ..core.cards import CardMask, mask_of
from ..core.scoring import HAFT_KHAJ_POINTS, SUR_POINTS, card_points, clears_table, club_count, sur_counts


class RandomBot:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """A uniformly random one of ``legal``."""
        return legal[self._rng.randrange(len(legal))]


def taken_value(cards: CardMask) -> float:
    """Points the cards of a mask are worth when captured, a club counting its 1/13 share of
    Haft Khaj."""
    return card_points(cards) + HAFT_KHAJ_POINTS / 13 * club_count(cards)


def immediate_value(view: SeatView, move: Move) -> float:
    """What a move gains at once: points and clubs taken, 5 for a Sur; laying a card down costs
    what it is worth."""
    card_mask = 1 << move.card
    if not move.take:
        return -taken_value(card_mask) - 0.01 * move.card.value
    take = move.take_mask
    sur = clears_table(move.card, take, mask_of(view.table)) and sur_counts(
        view.rules, view.scores[view.side], view.last_deal
    )
    return taken_value(take | card_mask) + SUR_POINTS * sur + 0.05 * take.bit_count()


class GreedyBot:
    """Takes the best immediate value: points taken, Sur, clubs."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """The move of highest immediate value, ties broken at random."""
        scored = [(immediate_value(view, move), self._rng.random(), move) for move in legal]
        return max(scored, key=lambda item: (item[0], item[1]))[2]
