"""A round's readable moves: legal moves as `Move`s, a move played from any of its forms with
what it did (`Played`), and the short text of a move. Mixed into `Round <pasur.core.game.Round>`,
whose fast path (engine ints) they stand on."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .cards import CardMask
from .errors import IllegalMove
from .moves import Move, MoveCode
from .notation import find_code, parse_move, short_text
from .scoring import SideScore

__all__ = ["Played", "ReadableMoves"]


class Played(NamedTuple):
    """What one move did, as every seat saw it: the event a host tells its players."""

    #: The round's number, the seat that played, and the move with its short text in its position.
    round: int
    seat: int
    move: Move
    text: str
    #: Whether the move made a Sur that counts.
    sur: bool
    #: The table right after the move (before the end-of-round sweep).
    table: CardMask
    #: Whether the move ended the round; then the side that captured last (None if nobody did),
    #: what it swept up from the table, and the round's breakdown.
    round_over: bool = False
    sweeper: int | None = None
    swept: CardMask = 0
    breakdown: tuple[SideScore, ...] = ()


class ReadableMoves:
    """`legal_moves()`, `play()`, `read_move()` and `move_text()` over a round's engine ints."""

    __slots__ = ()

    number: int
    turn: int
    hands: list[CardMask]
    table: CardMask
    surs: list[int]
    last_capturer: int
    over: bool
    _side: tuple[int, ...]

    if TYPE_CHECKING:

        def legal_codes(self) -> list[MoveCode]: ...

        def play_code(self, code: MoveCode) -> None: ...

        def breakdown(self) -> list[SideScore]: ...

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move."""
        return [Move.from_code(code) for code in self.legal_codes()]

    def play(self, move: Move | str | MoveCode) -> Played:
        """Play a move given as a `Move`, its short text or an engine int, and say what it
        did. An illegal move raises `IllegalMove` and changes nothing."""
        if self.over:
            raise IllegalMove("the round is over", "round_over")
        codes = self.legal_codes()
        code = self._resolve(move, codes)
        seat, side, text = self.turn, self._side[self.turn], short_text(code, codes)
        surs, table = self.surs[side], self.table
        self.play_code(code)
        played = move if isinstance(move, Move) else Move.from_code(code)  # a Move is read as it is
        take = code >> 6
        left = table ^ take if take else table | 1 << (code & 63)
        swept = self.over and self.last_capturer >= 0
        return Played(
            round=self.number,
            seat=seat,
            move=played,
            text=text,
            sur=self.surs[side] != surs,
            table=left,
            round_over=self.over,
            sweeper=self.last_capturer if swept else None,
            swept=left if swept else 0,
            breakdown=tuple(self.breakdown()) if self.over else (),
        )

    def read_move(self, move: Move | str | MoveCode) -> MoveCode:
        """The engine int of a legal move given in any form (short text, a Move, an int), as
        `SeatView.read_move <pasur.core.view.SeatView.read_move>()` reads one; `IllegalMove`
        if it is not legal."""
        if self.over:
            raise IllegalMove("the round is over", "round_over")
        return self._resolve(move, self.legal_codes())

    def _resolve(self, move: Move | str | MoveCode, codes: list[MoveCode]) -> MoveCode:
        hand, table = self.hands[self.turn], self.table
        if isinstance(move, str):
            return parse_move(move, hand, table, codes)
        if isinstance(move, Move):
            return find_code(move.card, move.take, hand, table, codes)
        if isinstance(move, int) and move in codes:
            return move
        raise IllegalMove(f"{move!r} is not a legal move here", "not_legal", text=str(move)[:40])

    def move_text(self, move: Move | MoveCode) -> str:
        """The shortest short text of a legal move here (the card alone when it has one choice), as
        `SeatView.move_text <pasur.core.view.SeatView.move_text>()` writes one."""
        return short_text(move.code if isinstance(move, Move) else move, self.legal_codes())
