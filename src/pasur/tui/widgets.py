"""The terminal game's parts: cards as text in their colours (and marked to be taken), a strip of
cards that wraps, the list of one card's captures, the typed move, and the full-screen message
and question screens."""

from __future__ import annotations

import unicodedata
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ..core import Card, Move
from ..i18n import move_words, number_text

#: The red suits' colour in each theme: at least 4.5:1 against its backgrounds (WCAG AA), where the
#: terminal's plain red (#f4005f) is 3.6:1 on the dark panels and 3.2:1 on the light background.
RED_SUITS = {"textual-dark": "#ff6b81", "textual-light": "#a00030"}


#: A card that would be taken: dark ink on a light yellow, in either theme (the ink 5.9:1 red and
#: 14:1 black against it; the theme's own text on yellow was 1.65:1).
TAKEN_BACKGROUND = "#ffd75f"
TAKEN_INK = {"red": "#a00030", "black": "#1d1d1f"}


def card_text(card: Card, red: str = RED_SUITS["textual-dark"], selected: bool = False, taken: bool = False) -> Text:
    """A card in its suit's colour (``red`` for ♦ ♥); reversed when selected, underlined on yellow
    when it would be taken."""
    is_red = card.suit in (1, 2)
    style = f"bold {red}" if is_red else "bold"
    if taken:
        style = f"bold underline {TAKEN_INK['red' if is_red else 'black']} on {TAKEN_BACKGROUND}"
    if selected:
        style += " reverse"
    return Text(f" {card.symbol()} ", style=style)


class CardStrip(Static):
    """A row of cards, wrapped onto more lines where the screen is too narrow for them all (none is
    ever cut off); a click on one posts `CardStrip.Clicked` with its index."""

    class Clicked(Message):
        def __init__(self, strip: CardStrip, index: int) -> None:
            super().__init__()
            self.strip = strip
            self.index = index

        @property
        def control(self) -> CardStrip:
            return self.strip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Where each card is drawn: its line, and its first and last cell + 1.
        self.spans: list[tuple[int, int, int]] = []
        self.lines: list[Text] = []
        self._shown: tuple[str, list[Text], bool, str] = ("", [], False, "")

    def show(self, label: str, cards: list[Text], numbered: bool = False, empty: str = "") -> None:
        """Draw ``label: card card …``, numbering the cards from 1 when ``numbered``."""
        self._shown = (label, cards, numbered, empty)
        self._draw()

    def on_resize(self, _: events.Resize) -> None:
        self._draw()

    def _draw(self) -> None:
        label, cards, numbered, empty = self._shown
        width = self.content_size.width or 1 << 16  # before the first layout: one line
        lines = [Text.assemble((f"{label}: ", "dim"))]  # the label dim, not the cards after it
        indent = lines[0].cell_len
        self.spans = []
        for index, card in enumerate(cards):
            number = f"{index + 1}" if numbered else ""
            if lines[-1].cell_len + len(number) + card.cell_len > width and lines[-1].cell_len > indent:
                lines.append(Text(" " * indent))
            line = lines[-1]
            line.append(number, style="dim")
            start = line.cell_len
            line.append_text(card)
            self.spans.append((len(lines) - 1, start, line.cell_len))
            line.append(" ")
        if not cards:
            lines[0].append(empty, style="dim")
        self.lines = lines
        self.update(Text("\n").join(lines))

    def on_click(self, event: events.Click) -> None:
        for index, (row, start, end) in enumerate(self.spans):
            if row == event.y and start <= event.x < end:
                self.post_message(self.Clicked(self, index))


class CaptureChoices(OptionList):
    """The captures of the card a person chose, numbered, below the hand (shown only while they
    choose): moving through them tells the app which capture to mark on the table (`Previewed`),
    Enter or a click picks one (`Chosen`)."""

    class Previewed(Message):
        """The capture now highlighted."""

        def __init__(self, move: Move) -> None:
            super().__init__()
            self.move = move

    class Chosen(Message):
        """The capture picked."""

        def __init__(self, move: Move) -> None:
            super().__init__()
            self.move = move

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The captures on offer (none: the list is closed).
        self.moves: list[Move] = []

    def offer(self, moves: list[Move], lang: str) -> None:
        """Open the list with these captures, the first highlighted, and take the keys."""
        self.moves = moves
        self.clear_options()
        for number, move in enumerate(moves, start=1):
            label = move_words(str(move.card), [str(taken) for taken in move.take], lang)
            self.add_option(Option(f"{number_text(number, lang)}) {label}"))
        self.add_class("open")
        self.highlighted = 0
        self.focus()

    def numbered(self, number: int) -> Move | None:
        """The capture shown with this number, if there is one."""
        return self.moves[number - 1] if 1 <= number <= len(self.moves) else None

    def close(self) -> None:
        """Hide the list and give the keys back to the game."""
        self.moves = []
        self.remove_class("open")
        self.screen.set_focus(None)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.moves):
            self.post_message(self.Previewed(self.moves[event.option_index]))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.moves):
            self.post_message(self.Chosen(self.moves[event.option_index]))


class MoveEntry(Input):
    """A move typed in the short notation (``7Cx4H``), shown only while it is typed."""

    def open(self) -> None:
        """Show it empty and take the keys."""
        self.add_class("open")
        self.value = ""
        self.focus()

    def close(self) -> None:
        """Hide it and give the keys back to the game."""
        self.remove_class("open")
        self.screen.set_focus(None)


class MessageScreen(ModalScreen[None]):
    """A full-screen message (round over, match over, hand-over) closed with Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space,escape", "close", "go on")]
    DEFAULT_CSS = """
    MessageScreen { align: center middle; background: $background; }
    MessageScreen > VerticalScroll { width: auto; height: auto; max-width: 100%; max-height: 100%;
      border: round $accent; }
    MessageScreen Static { width: auto; max-width: 96vw; padding: 1 2; }
    """

    def __init__(self, body: str) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll():  # a long text (the rules at 80×24) scrolls with ↑ ↓, PageUp, PageDown
            yield Static(self.body, id="message-body", markup=False)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


def key_name(character: str) -> str:
    """Textual's name for the key that types ``character`` (a letter itself, else its Unicode name)."""
    return character if character.isalnum() else unicodedata.name(character).lower().replace(" ", "_")


class ConfirmScreen(ModalScreen[bool]):
    """A question answered with y (yes) or n / Escape (no); in Persian ب (بله) or ن (نه) too, and
    the keys where y and n sit on a Persian keyboard (غ, د)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(",".join(["y", *(key_name(key) for key in "بغ")]), "answer(True)", "yes"),
        Binding(",".join(["n", "escape", *(key_name(key) for key in "ند")]), "answer(False)", "no"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; background: $background; }
    ConfirmScreen > Static { width: auto; max-width: 100%; padding: 1 2; border: round $accent; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(self.question, id="confirm-body", markup=False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
