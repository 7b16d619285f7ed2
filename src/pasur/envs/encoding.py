"""The numeric encodings the research environments share: actions and observations.

**Actions** (a fixed ``Discrete(105)``): `ACTION_BLOCKS`. A move is chosen in one or more
steps: a card of the hand, then, while the card has several captures, table cards lowest index
first (index = rank × 4 + suit, ranks A … K, suits C D H S) until they fit one legal move.

**Observation** (``int8``, `OBSERVATION_SIZE` values, each 0 or 1, as PettingZoo's classic
games give them): `OBSERVATION_BLOCKS`, from the seat's view only, sides and seats counted
from the observer (0 = the observer's own side or seat, then in order of play). docs/ENVIRONMENTS.md
shows both as tables (`layout_tables()`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import MissingExtra

try:
    import numpy as np
except ImportError as missing:  # the rl extra is not installed
    raise MissingExtra(f"pasur.envs.encoding ({missing.name})", "rl") from None

from ..core import Rules, SeatMasks

if TYPE_CHECKING:
    from gymnasium import spaces

PLAY, TAKE, DONE = 0, 52, 104
ACTION_COUNT = 105
#: Where each block of the observation starts.
HAND, TABLE, CAPTURED, UNSEEN, CHOSEN, NAMED = 0, 52, 104, 312, 364, 416
TURN, HANDS, DEAL, LAST_CAPTURER, PLAYERS, PARTNERSHIP = 468, 472, 488, 494, 499, 502
SCORES, SURS, ROUND = 503, 599, 619
OBSERVATION_SIZE = 629
#: How many slots each side's score has, and each side's Surs.
SCORE_SLOTS, SUR_SLOTS = 24, 5

#: The actions: (what, first, how many, meaning).
ACTION_BLOCKS = (
    ("play card", PLAY, 52, "play card c = action from the hand; a card with one legal move is played at once"),
    (
        "take table card",
        TAKE,
        52,
        "take table card c = action − 52, while choosing among the chosen card's captures; as soon as "
        "the cards named fit one legal move, it is played",
    ),
    (
        "done",
        DONE,
        1,
        "play the chosen card taking exactly the cards named so far (legal only when they make a legal "
        "choice: in practice, laying the card down when capture is not compulsory)",
    ),
)

#: The observation's blocks: (name, first index, size, meaning).
OBSERVATION_BLOCKS = (
    ("hand", HAND, 52, "1 for each card in the observer's hand"),
    ("table", TABLE, 52, "1 for each card on the table"),
    ("captured", CAPTURED, 4 * 52, "1 for each card in each side's pile this round (4 × 52)"),
    ("unseen", UNSEEN, 52, "1 for each card the observer has not seen (the others' hands, the pack)"),
    ("chosen card", CHOSEN, 52, "1 for the card chosen in an unfinished multi-step move"),
    ("named cards", NAMED, 52, "1 for each table card named so far in that move"),
    ("turn", TURN, 4, "one-hot: the seat to play"),
    ("hands", HANDS, 4 * 4, "each seat's hand size: slot k is 1 when it holds more than k cards (4 × 4)"),
    ("deal", DEAL, 6, "one-hot deal number (1 … 6); how many cards the pack holds follows from it"),
    ("last capturer", LAST_CAPTURER, 5, "one-hot side, or the last slot when nobody has captured"),
    ("players", PLAYERS, 3, "one-hot 2, 3 or 4 players"),
    ("partnership", PARTNERSHIP, 1, "1 when four players play in partnerships"),
    (
        "scores",
        SCORES,
        4 * SCORE_SLOTS,
        "each side's banked match score: slot k is 1 from (k + 1) sixteenths of the target on "
        "(16 slots set: the target is reached) (4 × 24)",
    ),
    ("surs", SURS, 4 * SUR_SLOTS, "each side's Surs this round: slot k is 1 when it has more than k (4 × 5)"),
    ("round", ROUND, 10, "one-hot round number (1 … 10; later rounds count as 10)"),
)


def layout_tables() -> str:
    """The actions and the observation as Markdown tables (docs/ENVIRONMENTS.md holds them)."""
    lines = ["| actions | first | count | meaning |", "| --- | --- | --- | --- |"]
    lines += [f"| {name} | {first} | {count} | {meaning} |" for name, first, count, meaning in ACTION_BLOCKS]
    lines += ["", "| observation block | first index | size | meaning |", "| --- | --- | --- | --- |"]
    lines += [f"| {name} | {first} | {size} | {meaning} |" for name, first, size, meaning in OBSERVATION_BLOCKS]
    return "\n".join(lines) + "\n"


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

    def __deepcopy__(self, memo: dict[int, object]) -> MoveChooser:
        """The same as `copy()`: it holds numbers and a sequence that is replaced, never changed."""
        return self.copy()

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


#: Each byte's 8 bits as 0/1, lowest bit first: one ``take`` turns packed bits into values.
_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").view(np.int8)
#: The action mask is unpacked with the observation, from this bit on.
_MASK_AT = 8 * ((OBSERVATION_SIZE + 7) // 8)
_BYTES = (_MASK_AT + ACTION_COUNT + 7) // 8
#: Where a `SeatMasks` lists its counts: ``hands``, ``pack``, ``scores`` … to the end.
_COUNTS = SeatMasks._fields.index("hands")
#: How many entries the memo of `Observer` keeps before it starts again.
_MEMO_LIMIT = 1 << 16


def observation_space() -> spaces.Dict:
    """The observation space both environments declare: a Dict of ``observation`` and ``action_mask``."""
    from gymnasium import spaces  # only the Gymnasium and PettingZoo adapters need it

    return spaces.Dict(
        {
            "observation": spaces.Box(0, 1, shape=(OBSERVATION_SIZE,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, shape=(ACTION_COUNT,), dtype=np.int8),
        }
    )


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
        #: For each seat: the blocks from ``turn`` on, as bits, by the view's counts.
        self._counters: list[dict[tuple[Any, ...], int]] = [{} for _ in range(players)]
        self._packed = np.zeros(_BYTES, np.uint8)  # the bits of the observation being made
        self._packing = self._packed.data

    def observation(self, view: SeatMasks, chooser: MoveChooser | None = None) -> np.ndarray:
        """The observation of a seat's view; ``chooser`` holds the seat's unfinished move."""
        return self.observe(view, chooser)["observation"]

    def observe(self, view: SeatMasks, chooser: MoveChooser | None) -> dict[str, np.ndarray]:
        """The observation and the action mask, as the environments hand them out; ``chooser`` is
        None when the seat is not to move (no action is legal)."""
        captured = view.captured
        bits = view.hand | view.table << TABLE | view.unseen << UNSEEN
        for pile, shift in self._piles[view.side]:
            bits |= captured[pile] << shift
        if chooser is not None:
            bits |= chooser.allowed(view.hand) << _MASK_AT
            if chooser.card is not None:
                bits |= 1 << (CHOSEN + chooser.card) | chooser.named << NAMED
        kept = self._counters[view.seat]
        counts = view[_COUNTS:]
        counters = kept.get(counts)
        if counters is None:
            counters = self._counters_of(view)
            if len(kept) >= _MEMO_LIMIT:
                kept.clear()
            kept[counts] = counters
        self._packing[:] = (bits | counters).to_bytes(_BYTES, "little")
        values = _BITS.take(self._packed, 0).ravel()
        return {"observation": values[:OBSERVATION_SIZE], "action_mask": values[_MASK_AT : _MASK_AT + ACTION_COUNT]}

    def _counters_of(self, view: SeatMasks) -> int:
        """The blocks from ``turn`` on, as bits."""
        rules, seat, side = self.rules, view.seat, view.side
        players, sides = rules.players, rules.sides
        bits: int = self._fixed | 1 << (TURN + (view.turn - seat) % players) | 1 << (DEAL + min(view.deal, 6) - 1)
        for slot in range(players):
            bits |= _ones(min(view.hands[(seat + slot) % players], 4)) << (HANDS + 4 * slot)
        last = view.last_capturer
        bits |= 1 << (LAST_CAPTURER + (4 if last < 0 else (last - side) % sides))
        for slot in range(sides):
            score = max(view.scores[(side + slot) % sides], 0)
            bits |= _ones(min(16 * score // rules.target, SCORE_SLOTS)) << (SCORES + SCORE_SLOTS * slot)
            bits |= _ones(min(view.surs[(side + slot) % sides], SUR_SLOTS)) << (SURS + SUR_SLOTS * slot)
        return bits | 1 << (ROUND + min(view.round, 10) - 1)


def _ones(count: int) -> int:
    """The lowest ``count`` bits set."""
    return (1 << count) - 1
