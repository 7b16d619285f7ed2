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
from functools import lru_cache

import numpy as np

from ..core import SeatMasks

PLAY, TAKE, DONE = 0, 52, 104
ACTION_COUNT = 105
CARD_VALUES = 52 * 9
SCALAR_COUNT = 4 + 4 + 4 + 1 + 6 + 1 + 5 + 3 + 1
OBSERVATION_SIZE = CARD_VALUES + SCALAR_COUNT
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

    def __init__(self, legal_codes: Sequence[int], card: int | None = None, named: int = 0) -> None:
        """A decision among ``legal_codes``; ``card`` and ``named`` resume one begun elsewhere."""
        self.legal = list(legal_codes)
        self.card = card
        self.named = named
        self.allowed = 0  # the legal actions, as bits
        if card is None:
            for code in self.legal:
                self.allowed |= 1 << (PLAY + (code & 63))
        else:
            self._allow(self.candidates())

    def _allow(self, fitting: list[int]) -> None:
        """Allow the actions that go on towards the ``fitting`` moves."""
        self.allowed = 0
        for code in fitting:
            rest = (code >> 6) & ~self.named
            self.allowed |= 1 << (TAKE + lowest(rest) if rest else DONE)

    def candidates(self) -> list[int]:
        """The legal moves still fitting what has been chosen."""
        if self.card is None:
            return self.legal
        return [code for code in self.legal if code & 63 == self.card and is_prefix(self.named, code >> 6)]

    def mask(self) -> np.ndarray:
        """The legal actions now, as 0/1 ``int8``."""
        raw = np.frombuffer(self.allowed.to_bytes(14, "little"), dtype=np.uint8)
        return np.unpackbits(raw, count=ACTION_COUNT, bitorder="little").view(np.int8)

    def step(self, action: int) -> int | None:
        """Apply one action; the move's engine int once it is decided, else None. ValueError
        for an action the mask does not allow."""
        if not 0 <= action < ACTION_COUNT or not self.allowed >> action & 1:
            raise ValueError(f"action {action} is not legal now")
        if self.card is None:
            self.card = action - PLAY
        elif action == DONE:
            return self.card | self.named << 6
        else:
            self.named |= 1 << (action - TAKE)
        fitting = self.candidates()
        if len(fitting) == 1:
            return fitting[0]
        self._allow(fitting)
        return None


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


#: Hand sizes as observed (count / 4), looked up rather than divided at every step.
_QUARTERS = tuple(count / 4 for count in range(53))


@lru_cache(maxsize=1 << 14)
def _scalars_around(
    scores: tuple[int, ...],
    surs: tuple[int, ...],
    side: int,
    target: int,
    deal: int,
    round_number: int,
    last_capturer: int,
    players: int,
    partnership: bool,
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The scalars before the hand sizes (scores, Surs) and after the pack (deal … partnership):
    they change seldom, so they are kept."""
    sides = len(scores)
    before = [0.0] * 8
    for slot in range(sides):
        before[slot] = min(scores[(side + slot) % sides] / target, OBSERVATION_HIGH)
        before[4 + slot] = min(surs[(side + slot) % sides] / 5, OBSERVATION_HIGH)
    after = [0.0] * 16
    after[min(deal, 6) - 1] = 1.0
    after[6] = min(round_number / 10, 1.0)
    after[7 + (4 if last_capturer < 0 else (last_capturer - side) % sides)] = 1.0
    after[12 + players - 2] = 1.0
    after[15] = float(players == 4 and partnership)
    return tuple(before), tuple(after)


def observe(view: SeatMasks, chooser: MoveChooser | None = None) -> np.ndarray:
    """The observation of a seat's view (see the module's table)."""
    rules, side, seat, hands = view.rules, view.side, view.seat, view.hands
    sides = len(view.scores)
    # The card blocks, packed into one int and unpacked by one numpy call.
    cards = view.hand | view.table << 52 | view.unseen << 312
    for slot in range(sides):
        cards |= view.captured[(side + slot) % sides] << (104 + 52 * slot)
    if chooser is not None and chooser.card is not None:
        cards |= 1 << (364 + chooser.card) | chooser.named << 416
    before, after = _scalars_around(
        view.scores,
        view.surs,
        side,
        rules.target,
        view.deal,
        view.round,
        view.last_capturer,
        len(hands),
        rules.partnership,
    )
    sizes = tuple(_QUARTERS[count] for count in hands[seat:] + hands[:seat])
    observation = np.empty(OBSERVATION_SIZE, dtype=np.float32)
    observation[:CARD_VALUES] = np.unpackbits(
        np.frombuffer(cards.to_bytes(59, "little"), dtype=np.uint8), count=CARD_VALUES, bitorder="little"
    )
    observation[CARD_VALUES:] = before + sizes + (0.0,) * (4 - len(hands)) + (view.pack / 48,) + after
    return observation
