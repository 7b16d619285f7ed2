"""Hosting a match: who sits in each seat (a person or a bot), the bots' turns with one fault
policy, one seeding convention, and the event each move makes (`pasur.core.Played`).

The terminal game, the arena, ``pasur demo`` and the Gymnasium opponents host their matches with
`MatchHost`; each keeps only what is its own (a screen, statistics). The web server takes
its parts but not the class, since its bots think in worker processes and a move is stored before
it is played: `bot_turn()` (the fault policy) in the workers, `bot_seed()` and
`STAND_IN` at the table (``server/pacing.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from .bots import Bot, BotError, checked_choice, make_bot, validate_spec
from .bots.base import OpenBot
from .core import Match, Move, MoveCode, Played, Round, SeatView

__all__ = [
    "STAND_IN",
    "BotChoice",
    "MatchHost",
    "OnFault",
    "SeatPlan",
    "bot_seed",
    "bot_turn",
    "seat_bots",
    "validate_spec",
]

#: The level that plays a move for a bot that failed (and, at a web table, for a person whose
#: turn timer ran out).
STAND_IN = "medium"


class OnFault(Enum):
    """What a host does when a bot breaks the rules of play (`BotError`)."""

    #: The fault is raised: the arena ends the match, lost by that bot; code that named the bot
    #: (the Gymnasium opponents) hears of it.
    RAISE = "raise"
    #: The stand-in plays the move and the fault is told: a table where people play goes on.
    STAND_IN = "stand_in"


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """Who sits in a seat: a person (``bot`` is None) or a bot by spec."""

    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class BotChoice:
    """A bot's move, and its fault when the stand-in chose the move instead."""

    move: Move
    fault: BotError | None = None


def bot_seed(match_seed: int, seat: int, game: int = 0) -> int:
    """The seed of the bot in ``seat``: the same match seed, seat and ``game`` (the arena's
    rotation, the web server's move number for a bot made afresh each move) give the same bot
    wherever it is played."""
    return (match_seed * 1_000_003 + game) * 5 + seat


def bot_turn(bot: Bot, view: SeatView, legal: Sequence[Move], on_fault: OnFault = OnFault.STAND_IN) -> BotChoice:
    """What ``bot`` plays from ``view``, checked; a fault is raised or, with ``STAND_IN``, the
    stand-in's move comes back with it."""
    try:
        return BotChoice(checked_choice(bot, view, legal))
    except BotError as fault:
        if on_fault is OnFault.RAISE:
            raise
        return BotChoice(make_bot(STAND_IN).choose(view, legal), fault)


def seat_bots(specs: Sequence[str | None], seed: int, *, allow_exec: bool = False) -> dict[int, Bot]:
    """The bots of the seats whose spec is not None, seeded by `bot_seed()`. Only specs from
    the command line (or from code) may ``allow_exec``; ValueError says what is wrong with one."""
    return {
        seat: make_bot(spec, seed=bot_seed(seed, seat), allow_exec=allow_exec)
        for seat, spec in enumerate(specs)
        if spec is not None
    }


class MatchHost:
    """A match with bots in some seats. People's moves are checked by the engine (an illegal one
    raises `IllegalMove` and changes nothing); bots play through
    `bot_turn()` with the host's fault policy."""

    def __init__(self, match: Match, bots: Mapping[int, Bot], on_fault: OnFault = OnFault.STAND_IN) -> None:
        self.match = match
        self.bots = dict(bots)
        self.on_fault = on_fault

    @property
    def round(self) -> Round:
        """The round under way (or the last one, once the match is over)."""
        return self.match.rounds[-1]

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def turn(self) -> int:
        """The seat to play (in the last round once the match is over)."""
        return self.round.turn

    def is_bot(self, seat: int) -> bool:
        return seat in self.bots

    def bot_choice(self) -> BotChoice:
        """What the bot in the seat to play chooses, changing nothing (safe in a worker thread)."""
        seat, bot = self.turn, self.bots[self.turn]
        if isinstance(bot, OpenBot):  # only the match runner seats one (make_bot's allow_open)
            return BotChoice(bot.choose_open(self.round.copy(), self.round.legal_moves()))
        return bot_turn(bot, self.round.view(seat), self.round.legal_moves(), self.on_fault)

    def play(self, move: Move | str | MoveCode) -> Played:
        """Play a move for the seat to play, and say what it did."""
        return self.record(self.match.play(move))

    def apply_bot_choice(self, choice: BotChoice) -> Played:
        """Play the move `bot_choice()` gave (perhaps in another thread)."""
        return self.record(self.match.play(choice.move))

    def play_bot(self) -> tuple[Played, BotError | None]:
        """The bot in the seat to play chooses and plays; what it did, and its fault if it had one."""
        choice = self.bot_choice()
        return self.apply_bot_choice(choice), choice.fault

    def record(self, played: Played) -> Played:
        """Every move played passes here: a host that keeps a log adds it."""
        return played

    def play_on(self) -> None:
        """As `play_bots()`, without the events: the arena's pace."""
        while not self.round.over and self.is_bot(self.turn):
            self.match.play_code(self.bot_choice().move.code)

    def play_bots(self) -> Iterator[tuple[Played, BotError | None]]:
        """Bots play, one move at a time, until a person is to play or the round is over and no
        next one is dealt (the match is over, or it deals only when asked)."""
        while not self.round.over and self.is_bot(self.turn):
            yield self.play_bot()
