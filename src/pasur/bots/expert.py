"""``expert``: hand-written Pasur judgement, one move deep with the next player's best reply."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import Move, SeatView
from ..core.cards import ACE, JACK, TEN_OF_DIAMONDS
from .judgement import Position


class ExpertBot:
    """Counts unseen cards and weighs each move by what it takes now (points, clubs by the state
    of the race, Sur unless cut off) against what the next player can expect to take from the
    table it leaves (Sur denial), keeps Jacks for a full table and Aces for the 10♦, and plays
    the last card of a round knowing who takes what is left."""

    name = "expert"

    #: What holding a Jack is worth while deals remain, in points.
    JACK_KEPT = 1.2
    #: What holding an Ace is worth while the 10♦ is still to be won.
    ACE_KEPT = 0.4

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """The legal move of highest judged value, ties broken at random."""
        if len(legal) == 1:
            return legal[0]
        position = Position.of(view)
        best = max(legal, key=lambda move: (self.judge(position, move.code), self._rng.random()))
        return best

    def judge(self, position: Position, code: int) -> float:
        """The judged value of a move, in round points for this seat's side."""
        view = position.view
        card, take = code & 63, code >> 6
        table_after = position.table ^ take if take else position.table | 1 << card
        value = position.gain(code, position.my_sur)
        if view.pack == 0 and sum(view.hands) == 1:
            # The round's last card: whoever captured last takes what is left.
            last = position.side if take else view.last_capturer
            if last is not None:
                value += position.value(table_after) * (1 if last == position.side else -1)
            return value
        value -= position.threat(table_after, position.unseen)
        rank = card >> 2
        if rank == JACK:
            value -= self.JACK_KEPT if view.pack else self.JACK_KEPT / 2
        elif rank == ACE and (position.unseen | position.table) >> TEN_OF_DIAMONDS & 1:
            value -= self.ACE_KEPT
        return value
