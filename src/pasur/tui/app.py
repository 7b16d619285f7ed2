"""``pasur play``: the full-screen game (Textual). Everything shown comes from one seat's view."""

from __future__ import annotations

from typing import ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ..core import IllegalMove, Move, Played, SeatView
from ..host import BotChoice
from ..i18n import refusal, rules_help, text
from .choosing import ChoosingMoves
from .session import DEFAULT_SAVE, PERSIAN_LAYOUT, LocalGame, hint_lines, round_over_text, winner_text
from .table import TableView
from .widgets import RED_SUITS, ConfirmScreen, MessageScreen, MoveEntry, key_name

#: Seconds between a bot's moves, so people can follow them (``--fast``: none).
BOT_PAUSE = 0.9
#: The screen height from which each other seat has a line of its own, with its last play.
ROOMY_HEIGHT = 30


def _bindings(lang: str) -> list[BindingType]:
    """The game's keys, described in ``lang`` for the footer."""
    return [
        Binding("pageup", "scroll_log(-1)", show=False),
        Binding("pagedown", "scroll_log(1)", show=False),
        Binding("left", "select(-1)", "←", show=False),
        Binding("right", "select(1)", "→", show=False),
        # the footer shows them in this order and cuts off the last at 60 columns: the rules and
        # leaving first, the keys that only help last
        Binding("question_mark", "rules", text("key_rules", lang)),
        Binding("q", "quit", text("key_quit", lang)),
        Binding("enter", "play_selected", text("key_play", lang)),
        Binding("h", "hint", text("key_hint", lang)),
        Binding("m", "type_move", text("key_type", lang)),
        Binding("s", "save", text("key_save", lang)),
        Binding("t", "toggle_theme", text("key_theme", lang)),
        *[Binding(str(number), f"pick({number})", show=False) for number in range(1, 10)],
        # the same keys where a Persian keyboard layout puts them, and Persian digits
        *[Binding(key_name(persian), LETTER_ACTIONS[latin], show=False) for persian, latin in PERSIAN_LAYOUT.items()],
        *[Binding(digit, f"pick({number})", show=False) for number, digit in enumerate("۱۲۳۴۵۶۷۸۹", start=1)],
    ]


#: What the game's letter keys do.
LETTER_ACTIONS = {"h": "hint", "m": "type_move", "s": "save", "t": "toggle_theme", "q": "quit", "?": "rules"}


class PasurApp(App[None], ChoosingMoves):
    """The table at a glance, the hand to play from, and the log."""

    TITLE = "Pasur"
    #: Nothing takes the focus by itself: the capture list, hidden, would take Enter from the hand.
    AUTO_FOCUS = None
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = _bindings("en")

    @classmethod
    def in_language(cls, lang: str) -> type[PasurApp]:
        """The app with its footer's keys described in ``lang``."""
        return (
            cls
            if lang == "en"
            else type(f"{cls.__name__}_{lang}", (cls,), {"BINDINGS": _bindings(lang), "__module__": cls.__module__})
        )

    def __init__(
        self,
        game: LocalGame,
        lang: str = "en",
        fast: bool = False,
        save_path: str | None = None,
        theme_name: str = "dark",
    ) -> None:
        super().__init__()
        self.game = game
        self.lang = lang
        self.pause = 0.0 if fast else BOT_PAUSE
        self.save_path = save_path
        self.start_theme = "textual-light" if theme_name == "light" else "textual-dark"
        people = game.people
        #: The person whose hand is on screen (None: hidden, at a hand-over or with no people).
        self.viewer: int | None = people[0] if len(people) == 1 else None
        self.selected = 0
        self.taken_preview = 0
        self.busy = False  # a bot is thinking or a message is up

    def t(self, key: str, **values: object) -> str:
        return text(key, self.lang, **values)

    # -- layout and drawing ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TableView()
        yield Footer()

    def on_mount(self) -> None:
        self.theme = self.start_theme
        self.title = self.t("title")
        self.advance()
        if self.game.over:  # a finished match resumed: its result, not a stale position
            self.say(winner_text(self.game, self.lang) + " " + self.t("match_over_keys"))

    def view(self) -> SeatView:
        """The view on screen: the viewer's, else (hands hidden) the seat to play's public part."""
        return self.game.view(self.viewer if self.viewer is not None else self.game.turn)

    def refresh_table(self) -> None:
        view = self.view()
        if self.viewer is not None:
            self.selected = min(self.selected, max(len(view.hand) - 1, 0))
        self.query_one(TableView).draw(
            self.game,
            view,
            self.lang,
            viewer=self.viewer,
            selected=self.selected,
            taken=self.taken_preview,
            red=RED_SUITS.get(self.theme, RED_SUITS["textual-dark"]),
            roomy=self.size.height >= ROOMY_HEIGHT,  # a tall screen: each other seat on its own line
        )

    def on_resize(self, _event: events.Resize) -> None:
        """Drawn again for the room the screen now has."""
        if self.query("#others"):  # once the table is on screen
            self.refresh_table()

    def say(self, message: str) -> None:
        self.query_one("#message", Static).update(message)

    def tell_lesson(self) -> None:
        """At a lesson, on the person's turn: what is new to tell, with the move it suggests chosen
        in the hand and what it takes marked on the table (as a hint is)."""
        said, move = self.game.lesson_tips(self.game.round.number, self.lang)
        if not said:
            return
        coach = self.query_one("#coach", Static)
        coach.update("\n".join(said))
        coach.add_class("open")
        if move is not None:
            self.selected = list(self.view().hand).index(move.card)
            self.taken_preview = move.take_mask
        self.refresh_table()

    # -- the flow of the game ---------------------------------------------------------------------

    def advance(self) -> None:
        """After a move: hand over, let a bot play, or wait for a person."""
        game = self.game
        self.refresh_table()
        if game.over:
            return
        seat = game.turn
        if game.is_person(seat):
            if self.viewer != seat:
                self.hand_over(seat)
            else:
                self.tell_lesson()
            return
        self.busy = True
        if self.pause:
            self.set_timer(self.pause, self.think)
        else:
            self.think()

    def hand_over(self, seat: int) -> None:
        """Hot-seat: hide the hand until the next person says they are ready."""
        self.viewer = None
        self.refresh_table()
        self.busy = True

        def ready(_: None) -> None:
            self.viewer = seat
            self.busy = False
            self.selected = 0
            self.refresh_table()

        self.push_screen(MessageScreen(self.t("pass_to", name=self.game.name(seat))), ready)

    @work(thread=True, exclusive=True)
    def think(self) -> None:
        """A bot chooses in a worker thread, so the screen stays alive; the move is played on the
        main thread."""
        self.call_from_thread(self.bot_played, self.game.bot_choice())

    def bot_played(self, choice: BotChoice) -> None:
        played = self.game.apply_bot_choice(choice)
        if choice.fault:
            self.say(self.t("bot_fault", bot=self.game.name(played.seat), reason=refusal(choice.fault, self.lang)))
        self.after(played)

    def after(self, played: Played) -> None:
        """Show a move; at the end of a round its breakdown, at the end of the match the winner."""
        self.taken_preview = 0
        if not played.round_over:
            self.busy = False
            self.advance()
            return
        self.busy = True
        self.refresh_table()

        def next_round(_: None) -> None:
            self.busy = False
            if self.game.over:
                self.finished()
            else:
                self.advance()

        self.push_screen(MessageScreen(round_over_text(self.game, played, self.lang)), next_round)

    def finished(self) -> None:
        """The match is over: it stays on screen with its result; saved to ``--save`` if given."""
        saved = self.game.save_reported(self.save_path, self.lang) + " " if self.save_path else ""
        self.say(f"{winner_text(self.game, self.lang)} {saved}{self.t('match_over_keys')}")

    def my_turn(self) -> bool:
        """Whether a person at the screen may act now."""
        game = self.game
        return not self.busy and not game.over and self.viewer is not None and game.turn == self.viewer

    # -- actions --------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape":
            if self.choosing:
                self.close_choices()
                self.say("")
                self.refresh_table()
            if self.query_one(MoveEntry).has_class("open"):
                self.query_one(MoveEntry).close()

    def play(self, move: Move | str) -> None:
        """A person's move through the engine; an illegal one is refused with its reason."""
        try:
            played = self.game.play(move)
        except IllegalMove as error:
            self.say(self.t("illegal", reason=refusal(error, self.lang)))
            return
        self.say("")
        self.query_one("#coach", Static).remove_class("open")  # a lesson's tips were for this turn
        self.selected = 0
        self.after(played)

    def action_type_move(self) -> None:
        if self.my_turn():
            self.query_one(MoveEntry).open()

    @on(MoveEntry.Submitted)
    def move_typed(self, event: MoveEntry.Submitted) -> None:
        self.query_one(MoveEntry).close()
        if event.value.strip() and self.my_turn():
            self.play(event.value.strip())

    def action_hint(self) -> None:
        if self.my_turn():
            self.say(self.t("hint_thinking"))
            game = self.game
            self.think_hint(game.view(game.turn), game.round.legal_moves(), len(game.log))

    @work(thread=True, exclusive=True, group="hint")
    def think_hint(self, view: SeatView, legal: list[Move], moves: int) -> None:
        """A hint is thought out in a worker thread (up to two seconds), so the screen stays alive;
        it is shown on the main thread unless a move was played meanwhile."""
        move, said = hint_lines(view, legal, self.lang, seed=moves)
        self.call_from_thread(self.show_hint, moves, move, said)

    def show_hint(self, moves: int, move: Move, said: list[str]) -> None:
        if len(self.game.log) != moves or not self.my_turn():
            return
        self.say("\n".join(said))
        self.selected = list(self.view().hand).index(move.card)
        self.refresh_table()

    def action_scroll_log(self, direction: int) -> None:
        """PageUp and PageDown page through the log (earlier moves above)."""
        log = self.query_one("#log", VerticalScroll)
        log.scroll_page_up(animate=False) if direction < 0 else log.scroll_page_down(animate=False)

    def action_rules(self) -> None:
        """The rules in brief and the keys, over the table until Enter."""
        self.push_screen(MessageScreen(rules_help(self.lang)))

    def action_save(self) -> None:
        self.say(self.game.save_reported(self.save_path or DEFAULT_SAVE, self.lang))

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"
        self.refresh_table()  # the red suits take the theme's red

    async def action_quit(self) -> None:
        """Leave: at once when the match is over, else after the person says so (an unfinished
        match is saved to ``--save`` if given)."""
        if self.game.over:
            self.exit()
            return
        saving = self.t("quit_saves", path=self.save_path) if self.save_path else self.t("quit_unsaved")

        def leave(yes: bool | None) -> None:
            if not yes:
                return
            if self.save_path:
                self.game.save_reported(self.save_path, self.lang)
            self.exit()

        self.push_screen(ConfirmScreen(self.t("confirm_quit", saving=saving)), leave)
