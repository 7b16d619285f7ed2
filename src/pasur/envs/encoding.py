"""The numeric encodings the research environments share: actions and observations.

**Actions** (a fixed ``Discrete(105)``). A move is chosen in one or more steps:

- ``0 … 51``: play card ``c`` from the hand. If the card has one legal move, it is played.
- ``52 … 103``: take table card ``c - 52``, while choosing among several captures of the chosen
  card. Cards are named lowest index first (index = rank × 4 + suit, ranks A … K, suits C D H S);
  as soon as the cards named so far fit just one legal choice, that move is played.
- ``104``: done: play the chosen card taking exactly the cards named so far; it is legal only when
  those make a legal choice (in practice: laying the card down when capture is not compulsory).

**Observation** (``float32``, :data:`OBSERVATION_SIZE` values), from the seat's view only, sides
and seats counted from the observer (0 = the observer's own side or seat, then in order of play).
Every value up to ``partnership`` is 0 or 1:

====================  ======  ==========================================================
block                 size    meaning
====================  ======  ==========================================================
hand                  52      1 for each card in the observer's hand
table                 52      1 for each card on the table
captured              4 × 52  1 for each card in each side's pile this round
unseen                52      1 for each card the observer has not seen (others' hands, pack)
chosen card           52      1 for the card chosen in an unfinished multi-step move
named cards           52      1 for each table card named so far in that move
turn                  4       one-hot: the seat to play
hands                 4 × 4   each seat's hand size: slot k is 1 when it holds more than k cards
deal                  6       one-hot deal number (1 … 6)
last capturer         5       one-hot side, or the last slot when nobody has captured
players               3       one-hot 2, 3 or 4 players
partnership           1       1 when four players play in partnerships
scores                4       each side's banked match score / target (at most 2)
surs                  4       each side's Surs this round / 5 (at most 2)
pack                  1       cards still to be dealt / 48
round                 1       round number / 10 (capped at 1)
====================  ======  ==========================================================
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from ..core import Rules, SeatMasks

PLAY, TAKE, DONE = 0, 52, 104
ACTION_COUNT = 105
#: Where each block of the observation starts.
HAND, TABLE, CAPTURED, UNSEEN, CHOSEN, NAMED = 0, 52, 104, 312, 364, 416
TURN, HANDS, DEAL, LAST_CAPTURER, PLAYERS, PARTNERSHIP = 468, 472, 488, 494, 499, 502
SCORES, SURS, PACK, ROUND = 503, 507, 511, 512
OBSERVATION_SIZE = 513
#: Every value lies in [0, OBSERVATION_HIGH]: scores and Surs are capped there.
OBSERVATION_HIGH = 2.0

#: The legal moves of one card in the hand of the player to move, as engine ints.
CardCodes = Callable[[int], Sequence[int]]


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
    """Turns action numbers into moves, one decision after another: a card, then table cards
    while the card has several captures. It keeps only the unfinished decision."""

    __slots__ = ("_allowed", "card", "fitting", "named")

    def __init__(self) -> None:
        self.card: int | None = None
        self.named = 0
        self.fitting: Sequence[int] = ()  # the chosen card's legal moves still fitting
        self._allowed = 0

    def copy(self) -> MoveChooser:
        """An independent copy of the unfinished decision."""
        other = MoveChooser()
        other.card, other.named, other.fitting, other._allowed = self.card, self.named, self.fitting, self._allowed
        return other

    def allowed(self, hand: int) -> int:
        """The legal actions as bits, for the player to move holding ``hand``: any card of it
        (every card has a legal move), or how the chosen card's decision goes on."""
        return hand if self.card is None else self._allowed

    def step(self, action: int, card_codes: CardCodes) -> int | None:
        """Apply one action; the move's engine int once it is decided (the chooser is then ready
        for the next decision), else None. ``card_codes`` gives a card's legal moves (none when
        it is not in the hand). ValueError, changing nothing, for an action that is not legal."""
        if self.card is None:
            fitting = card_codes(action) if 0 <= action < TAKE else ()
            if len(fitting) == 1:
                return fitting[0]
            if not fitting:
                raise ValueError(f"action {action} is not legal now")
            self.card = action
        elif not 0 <= action < ACTION_COUNT or not self._allowed >> action & 1:
            raise ValueError(f"action {action} is not legal now")
        elif action == DONE:
            return self._decided(self.card | self.named << 6)
        else:
            self.named |= 1 << (action - TAKE)
            named = self.named
            fitting = [code for code in self.fitting if is_prefix(named, code >> 6)]
            if len(fitting) == 1:
                return self._decided(fitting[0])
        self.fitting = fitting
        self._allowed = 0
        for code in fitting:
            rest = (code >> 6) & ~self.named
            self._allowed |= 1 << (TAKE + lowest(rest) if rest else DONE)
        return None

    def _decided(self, code: int) -> int:
        self.card, self.named, self.fitting = None, 0, ()
        return code


def actions_for(code: int, card_codes: CardCodes) -> list[int]:
    """The actions that choose a legal move."""
    chooser = MoveChooser()
    actions = [PLAY + (code & 63)]
    decided = chooser.step(actions[0], card_codes)
    take = code >> 6
    while decided is None:
        rest = take & ~chooser.named
        action = TAKE + lowest(rest) if rest else DONE
        actions.append(action)
        decided = chooser.step(action, card_codes)
    if decided != code:
        raise ValueError("the actions did not lead to the move")
    return actions


#: Each byte's 8 bits as 0/1 float32, lowest bit first: one ``take`` turns packed bits into values.
_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float32)
_UINT8 = np.dtype(np.uint8)
#: The action mask is unpacked with the observation, from this bit on.
_MASK_AT = 8 * ((OBSERVATION_SIZE + 7) // 8)
_BYTES = (_MASK_AT + ACTION_COUNT + 7) // 8
#: How many entries each memo of :class:`Observer` keeps before it starts again.
_MEMO_LIMIT = 1 << 16

Kept = TypeVar("Kept")


class _Memo(dict[tuple[int | tuple[int, ...], ...], Kept]):
    """A bounded memo: a missing key's value is made from the key by ``make``."""

    def __init__(self, make: Callable[[tuple[Any, ...]], Kept]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: tuple[Any, ...]) -> Kept:
        if len(self) >= _MEMO_LIMIT:
            self.clear()
        value = self[key] = self.make(key)
        return value


class Observer:
    """Builds observations (see the module's table) for one set of rules. The blocks that change
    seldom are kept, so an observation costs little more than unpacking the card masks."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        players, sides = rules.players, rules.sides
        self._fixed = 1 << (PLAYERS + players - 2) | int(players == 4 and rules.partnership) << PARTNERSHIP
        #: For each side: each pile and where it goes, the observer's side first.
        self._piles = [
            [((side + slot) % sides, CAPTURED + 52 * slot) for slot in range(sides)] for side in range(sides)
        ]
        self._counters = _Memo(self._counters_of)
        self._scalars = _Memo(self._scalars_of)

    def observation(self, view: SeatMasks, chooser: MoveChooser | None = None) -> np.ndarray:
        """The observation of a seat's view; ``chooser`` holds the seat's unfinished move."""
        return self._values(view, chooser, 0)[:OBSERVATION_SIZE]

    def observe(self, view: SeatMasks, chooser: MoveChooser | None) -> dict[str, np.ndarray]:
        """The observation and the action mask, as the environments hand them out; ``chooser`` is
        None when the seat is not to move (no action is legal)."""
        allowed = 0 if chooser is None else chooser.allowed(view.hand)
        values = self._values(view, chooser, allowed)
        mask = values[_MASK_AT : _MASK_AT + ACTION_COUNT].astype(np.int8)
        return {"observation": values[:OBSERVATION_SIZE], "action_mask": mask}

    def _values(self, view: SeatMasks, chooser: MoveChooser | None, allowed: int) -> np.ndarray:
        """The observation, then from :data:`_MASK_AT` the ``allowed`` actions, as float32."""
        captured = view.captured
        bits = view.hand | view.table << TABLE | view.unseen << UNSEEN | allowed << _MASK_AT
        for pile, shift in self._piles[view.side]:
            bits |= captured[pile] << shift
        if chooser is not None and chooser.card is not None:
            bits |= 1 << (CHOSEN + chooser.card) | chooser.named << NAMED
        bits |= self._counters[view.seat, view.turn, view.deal, view.last_capturer, view.hands]
        packed = np.frombuffer(bits.to_bytes(_BYTES, "little"), _UINT8)
        values = _BITS.take(packed, 0).ravel()
        values[SCORES:OBSERVATION_SIZE] = self._scalars[view.seat, view.scores, view.surs, view.pack, view.round]
        return values

    def _counters_of(self, key: tuple[Any, ...]) -> int:
        """The one-hot and count blocks from ``turn`` to ``partnership``, as bits."""
        seat, turn, deal, last, hands = key
        players, side, sides = self.rules.players, self.rules.side_of(seat), self.rules.sides
        bits: int = self._fixed | 1 << (TURN + (turn - seat) % players) | 1 << (DEAL + min(deal, 6) - 1)
        for slot in range(players):
            count = min(hands[(seat + slot) % players], 4)
            bits |= ((1 << count) - 1) << (HANDS + 4 * slot)
        return bits | 1 << (LAST_CAPTURER + (4 if last < 0 else (last - side) % sides))

    def _scalars_of(self, key: tuple[Any, ...]) -> np.ndarray:
        """Scores, Surs, pack and round, as floats."""
        seat, scores, surs, pack, round_number = key
        side, sides = self.rules.side_of(seat), self.rules.sides
        scalars = np.zeros(OBSERVATION_SIZE - SCORES, dtype=np.float32)
        for slot in range(sides):
            scalars[slot] = min(scores[(side + slot) % sides] / self.rules.target, OBSERVATION_HIGH)
            scalars[4 + slot] = min(surs[(side + slot) % sides] / 5, OBSERVATION_HIGH)
        scalars[PACK - SCORES] = pack / 48
        scalars[ROUND - SCORES] = min(round_number / 10, 1.0)
        return scalars
