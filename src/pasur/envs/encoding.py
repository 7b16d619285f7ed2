"""The numeric encodings the research environments share: actions and observations.

**Actions** (a fixed ``Discrete(105)``). A move is chosen in one or more steps:

- ``0 … 51``: play card ``c`` from the hand. If the card has one legal move, it is played.
- ``52 … 103``: take table card ``c - 52``, while choosing among several captures of the chosen
  card. Cards are named lowest index first (index = rank × 4 + suit, ranks A … K, suits C D H S);
  as soon as the cards named so far fit just one legal choice, that move is played.
- ``104``: done: play the chosen card taking exactly the cards named so far; it is legal only when
  those make a legal choice (in practice: laying the card down when capture is not compulsory).

**Observation** (``float32``, :data:`OBSERVATION_SIZE` values), from the seat's view only, sides
and seats counted from the observer (0 = the observer's own side or seat, then in order of play):

====================  ======  ==========================================================
block                 size    meaning
====================  ======  ==========================================================
hand                  52      1 for each card in the observer's hand
table                 52      1 for each card on the table
captured              4 × 52  1 for each card in each side's pile this round
unseen                52      1 for each card the observer has not seen (others' hands, pack)
chosen card           52      1 for the card chosen in an unfinished multi-step move
named cards           52      1 for each table card named so far in that move
scores                4       each side's banked match score / target (at most 2)
surs                  4       each side's Surs this round / 5 (at most 2)
hands                 4       cards in each seat's hand / 4
pack                  1       cards still to be dealt / 48
deal                  6       one-hot deal number (1 … 6)
round                 1       round number / 10 (capped at 1)
last capturer         5       one-hot side, or the last slot when nobody has captured
players               3       one-hot 2, 3 or 4 players
partnership           1       1 when four players play in partnerships
====================  ======  ==========================================================
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core import SeatView
from ..core.cards import mask_of

PLAY, TAKE, DONE = 0, 52, 104
ACTION_COUNT = 105
OBSERVATION_SIZE = 52 * 9 + 4 + 4 + 4 + 1 + 6 + 1 + 5 + 3 + 1
#: Every value lies in [0, OBSERVATION_HIGH]: scores and Surs are capped there.
OBSERVATION_HIGH = 2.0


def lowest(mask: int) -> int:
    """The lowest card index of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def is_prefix(named: int, take: int) -> bool:
    """Whether ``named`` is the lowest cards of ``take`` (named lowest first)."""
    if named & ~take:
        return False
    rest = take & ~named
    return not named or not rest or named.bit_length() - 1 < lowest(rest)


class MoveChooser:
    """Turns action numbers into a move for one decision: a card, then table cards if needed."""

    def __init__(self, legal_codes: Sequence[int]) -> None:
        self.legal = list(legal_codes)
        self.card: int | None = None
        self.named = 0

    def candidates(self) -> list[int]:
        """The legal moves still fitting what has been chosen."""
        if self.card is None:
            return self.legal
        return [code for code in self.legal if code & 63 == self.card and is_prefix(self.named, code >> 6)]

    def mask(self) -> np.ndarray:
        """The legal actions now, as 0/1 ``int8``."""
        allowed = np.zeros(ACTION_COUNT, dtype=np.int8)
        if self.card is None:
            for code in self.legal:
                allowed[PLAY + (code & 63)] = 1
            return allowed
        for code in self.candidates():
            rest = (code >> 6) & ~self.named
            if rest:
                allowed[TAKE + lowest(rest)] = 1
            else:
                allowed[DONE] = 1
        return allowed

    def step(self, action: int) -> int | None:
        """Apply one action; the move's engine int once it is decided, else None. ValueError
        for an action the mask does not allow."""
        if not 0 <= action < ACTION_COUNT or not self.mask()[action]:
            raise ValueError(f"action {action} is not legal now")
        if self.card is None:
            self.card = action - PLAY
        elif action == DONE:
            return self.card | self.named << 6
        else:
            self.named |= 1 << (action - TAKE)
        fitting = self.candidates()
        return fitting[0] if len(fitting) == 1 else None


def actions_for(code: int, legal_codes: Sequence[int]) -> list[int]:
    """The actions that choose a legal move."""
    chooser = MoveChooser(legal_codes)
    actions = [PLAY + (code & 63)]
    decided = chooser.step(actions[0])
    take = code >> 6
    while decided is None:
        rest = take & ~chooser.named
        action = TAKE + lowest(rest) if rest else DONE
        actions.append(action)
        decided = chooser.step(action)
    if decided != code:
        raise ValueError("the actions did not lead to the move")
    return actions


def _cards(mask: int) -> np.ndarray:
    """A mask as 52 values of 0 or 1, card index order."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8), bitorder="little")[:52]


def observe(view: SeatView, chooser: MoveChooser | None = None) -> np.ndarray:
    """The observation of a seat's view (see the module's table)."""
    rules = view.rules
    sides, players = rules.sides, rules.players
    side_order = [(view.side + offset) % sides for offset in range(sides)]
    seat_order = [(view.seat + offset) % players for offset in range(players)]
    parts = [_cards(mask_of(view.hand)), _cards(mask_of(view.table))]
    for slot in range(4):
        parts.append(_cards(mask_of(view.captured[side_order[slot]]) if slot < sides else 0))
    parts.append(_cards(mask_of(view.unseen())))
    chosen = chooser.card if chooser is not None and chooser.card is not None else None
    parts.append(_cards(0 if chosen is None else 1 << chosen))
    parts.append(_cards(chooser.named if chooser is not None else 0))
    scalars = np.zeros(OBSERVATION_SIZE - 52 * 9, dtype=np.float32)
    for slot, side in enumerate(side_order):
        scalars[slot] = min(view.scores[side] / rules.target, OBSERVATION_HIGH)
        scalars[4 + slot] = min(view.surs[side] / 5, OBSERVATION_HIGH)
    for slot, seat in enumerate(seat_order):
        scalars[8 + slot] = view.hands[seat] / 4
    scalars[12] = view.pack / 48
    scalars[13 + min(view.deal, 6) - 1] = 1
    scalars[19] = min(view.round / 10, 1.0)
    last = 4 if view.last_capturer is None else side_order.index(view.last_capturer)
    scalars[20 + last] = 1
    scalars[25 + players - 2] = 1
    scalars[28] = float(players == 4 and rules.partnership)
    return np.concatenate([*parts, scalars], dtype=np.float32)
