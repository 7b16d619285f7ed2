"""The terminal game's screen below the title: the table at a glance, the hand, the capture list,
the typed move, the coach's and the game's messages, and the log. It draws what it is given from
one seat's view; the app decides whose view and what is selected."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from ..core import CardMask, SeatView
from ..i18n import separator, text
from .session import LocalGame, describe, others_line, side_lines, status_line
from .widgets import CaptureChoices, CardStrip, MoveEntry, card_text

#: Moves the log shows.
LOG_LINES = 500


class TableView(Vertical):
    """Everything on screen but the footer."""

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)
        yield Static(id="scores", markup=False)
        yield Static(id="others", markup=False)
        with Horizontal(id="table-row"):
            yield CardStrip(id="table")
        yield Static(id="turn", markup=False)
        with Horizontal(id="hand-row"):
            yield CardStrip(id="hand")
        yield CaptureChoices(id="choices")
        yield MoveEntry(id="move-input", placeholder="7Cx4H")
        yield Static(id="coach", markup=False)
        yield Static(id="message", markup=False)
        with VerticalScroll(id="log", can_focus=False):  # as tall as the screen leaves; PageUp/PageDown page it
            yield Static(id="log-text", markup=False)

    def draw(
        self,
        game: LocalGame,
        view: SeatView,
        lang: str,
        *,
        viewer: int | None,
        selected: int,
        taken: CardMask,
        red: str,
        roomy: bool,
    ) -> None:
        """Show ``view``: the hand of ``viewer`` (hidden when None) with card ``selected`` marked
        on the player's turn, the table's cards in ``taken`` marked, red suits in ``red``, and
        each other seat on a line of its own when ``roomy``."""
        apart = separator(lang)
        self.query_one("#status", Static).update(text("title", lang) + apart + status_line(game, view, lang))
        self.query_one("#scores", Static).update(apart.join(side_lines(game, view, lang)))
        self.query_one("#others", Static).update(others_line(game, view, lang, viewer, roomy))
        table = [card_text(card, red, taken=bool(taken >> card & 1)) for card in view.table]
        self.query_one("#table", CardStrip).show(text("table", lang), table, empty=text("table_empty", lang))
        self.query_one("#turn", Static).update("" if game.over else text("turn", lang, name=game.name(game.turn)))
        hand = self.query_one("#hand", CardStrip)
        if viewer is None:
            hand.show(text("hand_of", lang, name="…"), [])
        else:
            mine = game.turn == viewer and not game.over
            cards = [card_text(card, red, selected=mine and i == selected) for i, card in enumerate(view.hand)]
            hand.show(text("hand_of", lang, name=game.name(viewer)), cards, numbered=True)
        log = [describe(game, played, lang) for played in game.log[-LOG_LINES:]]
        self.query_one("#log-text", Static).update("\n".join(log))
        self.query_one("#log", VerticalScroll).scroll_end(animate=False)
