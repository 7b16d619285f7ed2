"""``pasur play --plain``: the same game line by line, for screen readers, pipes and tests. It
prints the position and numbered legal moves and reads a number or a move in the short text."""

from __future__ import annotations

import sys
from typing import TextIO

from ..core import IllegalMove, Played
from ..i18n import move_words, refusal, rules_help, separator, text
from .session import (
    DEFAULT_SAVE,
    PERSIAN_LAYOUT,
    LocalGame,
    breakdown_lines,
    describe,
    others_line,
    side_lines,
    status_line,
    winner_text,
)


class PlainGame:
    """Plays a `LocalGame` through text streams."""

    def __init__(
        self,
        game: LocalGame,
        lang: str = "en",
        source: TextIO | None = None,
        sink: TextIO | None = None,
        save_path: str | None = None,
    ) -> None:
        self.game = game
        self.lang = lang
        self.source = source or sys.stdin
        self.sink = sink or sys.stdout
        self.save_path = save_path

    def say(self, line: str = "", end: str = "\n") -> None:
        self.sink.write(line + end)
        self.sink.flush()

    def t(self, key: str, **values: object) -> str:
        return text(key, self.lang, **values)

    def run(self) -> bool:
        """Play to the end of the match; False if input ended or the player quit first. Ctrl-C
        leaves as ``q`` does (saving to ``--save``), then stops the command."""
        try:
            return self._play()
        except KeyboardInterrupt:
            self.say()
            self.save_on_leaving()
            raise

    def _play(self) -> bool:
        game = self.game
        announced = None
        while not game.over:
            if announced is not game.round:
                announced = game.round
                self.say()
                self.say(self.t("round_start", number=game.round.number, name=game.name(game.round.first)))
            if game.is_person(game.turn):
                played = self.ask()
                if played is None:
                    return False
            else:
                played, fault = game.play_bot()
                if fault:
                    self.say(self.t("bot_fault", bot=game.name(played.seat), reason=refusal(fault, self.lang)))
            self.report(played)
        self.say(winner_text(game, self.lang))
        self.keep_finished()
        return True

    def keep_finished(self) -> None:
        """A finished match is saved to ``--save``; without it, a person at a terminal is offered
        to save it (so it can be replayed)."""
        if self.save_path:
            self.say(self.game.save_reported(self.save_path, self.lang))
            return
        if not self.source.isatty():
            return
        self.say(self.t("save_offer", path=DEFAULT_SAVE), end="")
        answer = self.source.readline().strip()
        if answer.lower() not in ("n", "no", "نه"):
            self.say(self.game.save_reported(answer or DEFAULT_SAVE, self.lang))

    def position(self, seat: int) -> None:
        """The position as ``seat`` sees it, and its numbered legal moves."""
        game, view = self.game, self.game.view(seat)
        self.say(status_line(game, view, self.lang))
        self.say(f"{self.t('scores')}: " + separator(self.lang).join(side_lines(game, view, self.lang)))
        self.say(others_line(game, view, self.lang, seat))
        table = " ".join(card.symbol() for card in view.table) or self.t("table_empty")
        self.say(f"{self.t('table')}: {table}")
        self.say(f"{self.t('hand_of', name=game.name(seat))}: " + " ".join(card.symbol() for card in view.hand))
        self.say(self.t("legal_moves"))
        for number, move in enumerate(game.legal_moves(), start=1):
            self.say(f"  {number}) {move_words(str(move.card), [str(card) for card in move.take], self.lang)}")

    def tell_lesson(self, round_number: int) -> None:
        """At a lesson, what is new to tell, each line marked as a tip."""
        for line in self.game.lesson_tips(round_number, self.lang)[0]:
            self.say(f"* {self.t('tip')}: {line}")

    def ask(self) -> Played | None:
        """Read until a legal move is given; None at the end of input or on ``q``."""
        game = self.game
        seat = game.turn
        self.tell_lesson(game.round.number)
        self.position(seat)
        legal = game.legal_moves()
        while True:
            self.say(self.t("prompt", name=game.name(seat)), end="")
            line = self.source.readline()
            if not line:
                self.say()
                self.say(self.t("input_ended"))
                self.save_on_leaving()
                return None
            answer = line.strip()
            if not self.source.isatty():
                self.say(answer)  # a transcript reads as if typed
            if not answer:
                continue
            answer = PERSIAN_LAYOUT.get(answer, answer)  # typed on a Persian keyboard layout
            if answer.lower() in ("q", "quit"):
                self.say(self.t("quit"))
                self.save_on_leaving()
                return None
            if answer in ("?", "help"):
                self.say(rules_help(self.lang, keys="keys_plain"))
                continue
            if answer.lower() in ("h", "hint"):
                self.say(self.t("hint_thinking"))
                _move, said = game.ask_hint(self.lang)
                for line in said:
                    self.say(line)
                continue
            if answer.lower() in ("s", "save"):
                self.say(game.save_reported(self.save_path or DEFAULT_SAVE, self.lang))
                continue
            try:
                if answer.isdigit():
                    number = int(answer)
                    if not 1 <= number <= len(legal):
                        raise IllegalMove(f"there is no move {number}", "no_such_move", number=number)
                    return game.play(legal[number - 1])
                return game.play(answer)
            except IllegalMove as error:
                self.say(self.t("unknown_input", text=answer, count=len(legal), reason=refusal(error, self.lang)))

    def save_on_leaving(self) -> None:
        """Leaving an unfinished match with ``--save`` given keeps it there."""
        if self.save_path:
            self.say(self.game.save_reported(self.save_path, self.lang))

    def report(self, played: Played) -> None:
        """A move in words; at the end of a round, its breakdown and the match score."""
        game = self.game
        self.say("  " + describe(game, played, self.lang))
        if not played.round_over:
            return
        self.say(self.t("round_over", number=played.round))
        for line in breakdown_lines(game, played, self.lang):
            self.say("  " + line)
        self.tell_lesson(played.round)
