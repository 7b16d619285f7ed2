"""How a person comes to a move in the full-screen game: the arrows and Enter over the hand, a
card's number or a click, then, for a card with several captures, which one (the table marks what
the highlighted one takes). Mixed into `PasurApp <pasur.tui.app.PasurApp>`, whose table it draws
and whose `play()` it calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from textual.widget import Widget

from ..core import Card, Move, SeatView
from .session import LocalGame
from .widgets import CaptureChoices, CardStrip

Found = TypeVar("Found", bound=Widget)


class ChoosingMoves:
    """The hand's keys and clicks, and the capture list's answers."""

    game: LocalGame
    lang: str
    #: The hand's card under the cursor, and the table cards the highlighted capture would take.
    selected: int
    taken_preview: int

    if TYPE_CHECKING:

        def my_turn(self) -> bool: ...

        def view(self) -> SeatView: ...

        def refresh_table(self) -> None: ...

        def play(self, move: Move | str) -> None: ...

        def say(self, message: str) -> None: ...

        def t(self, key: str, **values: Any) -> str: ...

        def query_one(self, selector: type[Found]) -> Found: ...

    def action_select(self, step: int) -> None:
        if self.my_turn() and not self.choosing:
            count = len(self.view().hand)
            self.selected = (self.selected + step) % max(count, 1)
            self.refresh_table()

    def action_pick(self, number: int) -> None:
        if self.choosing:  # a digit picks one of the numbered captures
            move = self.query_one(CaptureChoices).numbered(number)
            if move is not None:
                self.close_choices()
                self.play(move)
            return
        if not self.my_turn():
            return
        hand = self.view().hand
        if not 1 <= number <= len(hand):
            self.say(self.t("no_such_card", number=number))
            return
        self.selected = number - 1
        self.choose_card(hand[self.selected])

    def action_play_selected(self) -> None:
        if self.my_turn() and not self.choosing:
            hand = self.view().hand
            if hand:
                self.choose_card(hand[self.selected])

    def on_card_strip_clicked(self, event: CardStrip.Clicked) -> None:
        if event.control.id == "hand":
            self.action_pick(event.index + 1)

    def choose_card(self, card: Card) -> None:
        """Play a card: at once if it has one legal move, else ask which capture."""
        choices = self.game.choices(card)
        if len(choices) == 1:
            self.play(choices[0])
            return
        self.query_one(CaptureChoices).offer(choices, self.lang)
        self.say(self.t("choose_capture", card=card.symbol()))
        self.preview(choices[0])

    @property
    def choosing(self) -> list[Move]:
        """The captures the person is choosing among (none when not choosing)."""
        return self.query_one(CaptureChoices).moves

    def on_capture_choices_previewed(self, event: CaptureChoices.Previewed) -> None:
        self.preview(event.move)

    def preview(self, move: Move) -> None:
        """Mark the table cards this capture would take."""
        self.taken_preview = move.take_mask
        self.refresh_table()

    def on_capture_choices_chosen(self, event: CaptureChoices.Chosen) -> None:
        self.close_choices()
        self.play(event.move)

    def close_choices(self) -> None:
        self.query_one(CaptureChoices).close()
        self.taken_preview = 0
