"""``pasur puzzle``: exact puzzles from real play, line by line. Each shows the position as the
player sees it and its numbered moves, reads a number or a move's short text, and says whether it
was best, what every move is worth and why the answer is better."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from ..coach.puzzles import Puzzle, best_line, tried_reason
from ..coach.reasons import reason_line
from ..core import IllegalMove, Move, SeatView
from ..core.cards import RANK_NAMES
from ..i18n import cards_words, move_words, number_text, refusal, text, typed_move


def position_lines(puzzle: Puzzle, lang: str = "en") -> list[str]:
    """The puzzle's position in lines: the deal, the scores and piles, the table and the hand."""
    view = puzzle.view
    other = 1 - view.seat
    lines = [
        text(
            "puzzle_title" if len(puzzle.answers) == 1 else "puzzle_title_twins",
            lang,
            deal=view.deal,
            deals=view.rules.deals,
            points=number_text(round(puzzle.margin, 1), lang),
        ),
        text(
            "puzzle_piles",
            lang,
            mine=len(view.captured[view.side]),
            theirs=len(view.captured[1 - view.side]),
            clubs=sum(card & 3 == 0 for card in view.captured[view.side]),
            their_clubs=sum(card & 3 == 0 for card in view.captured[1 - view.side]),
            surs=view.surs[view.side],
            their_surs=view.surs[1 - view.side],
        ),
        text("puzzle_other_hand", lang, count=view.hands[other], pack=view.pack),
        text(
            "puzzle_known",
            lang,
            mine=view.scores[view.side],
            theirs=view.scores[1 - view.side],
            surs=text("puzzle_surs_always", lang)
            if view.rules.sur_cutoff is None
            else text("puzzle_surs_below", lang, cutoff=view.rules.sur_cutoff),
            unseen=unseen_by_rank(view, lang),
        ),
        f"{text('table', lang)}: {cards_words([str(card) for card in view.table], lang) or text('table_empty', lang)}",
        f"{text('puzzle_hand', lang)}: {' '.join(cards_words([str(card)], lang) for card in view.hand)}",
    ]
    return lines


def unseen_by_rank(view: SeatView, lang: str = "en") -> str:
    """The cards ``view``'s seat has not seen, counted by rank: ``A×2 5×1 K×3``."""
    ranks = [card.rank for card in view.unseen()]
    shown = [(RANK_NAMES[rank], ranks.count(rank)) for rank in sorted(set(ranks))]
    return " ".join(
        f"{number_text(int(name), lang) if name.isdigit() else name}×{number_text(count, lang)}"
        for name, count in shown
    )


def _words(move: Move, lang: str) -> str:
    return move_words(str(move.card), [str(card) for card in move.take], lang)


def verdict_lines(puzzle: Puzzle, chosen: Move, lang: str = "en") -> list[str]:
    """What the answer was: right or not, every move's exact value, and why the best is best."""
    right = puzzle.is_answer(chosen)
    best = [Move.parse(answer) for answer in puzzle.answers]
    lines = [
        text("puzzle_right" if right else "puzzle_wrong", lang, move=_words(chosen, lang)),
        text(
            "puzzle_answer" if puzzle.exact == "last_deal" else "puzzle_answer_on_average",
            lang,
            moves=text("list_join", lang).join(_words(move, lang) for move in best),
            count=puzzle.arrangements,
        ),
    ]
    ranked = sorted(puzzle.values.items(), key=lambda item: -item[1])
    for move_text, value in ranked:
        lines.append(f"  {_words(Move.parse(move_text), lang)}: {number_text(round(value, 2), lang)}")
    reason = tried_reason(puzzle, chosen)
    if reason is not None:
        lines.append(reason_line(reason, lang))
    line = best_line(puzzle)
    if line:
        said = [text("line_you" if step.mine else "line_them", lang, move=_words(step.move, lang)) for step in line]
        lines.append(text("puzzle_line", lang, moves=text("clause_join", lang).join(said)))
    return lines


class PlainPuzzles:
    """Puzzles one after another through text streams."""

    def __init__(
        self, puzzles: Sequence[Puzzle], lang: str = "en", source: TextIO | None = None, sink: TextIO | None = None
    ) -> None:
        self.puzzles = puzzles
        self.lang = lang
        self.source = source or sys.stdin
        self.sink = sink or sys.stdout

    def say(self, line: str = "") -> None:
        self.sink.write(line + "\n")
        self.sink.flush()

    def run(self) -> int:
        """Ask every puzzle in turn until input ends or ``q``; how many were answered right."""
        right = answered = 0
        for number, puzzle in enumerate(self.puzzles, start=1):
            self.say(text("puzzle_number", self.lang, number=number, count=len(self.puzzles), id=puzzle.id))
            chosen = self.ask(puzzle)
            if chosen is None:
                break
            answered += 1
            right += puzzle.is_answer(chosen)
            for line in verdict_lines(puzzle, chosen, self.lang):
                self.say(line)
            self.say()
        self.say(text("puzzle_score", self.lang, right=right, count=answered))
        return right

    def ask(self, puzzle: Puzzle) -> Move | None:
        """Read until a legal move is given; None at the end of input or on ``q``."""
        for line in position_lines(puzzle, self.lang):
            self.say(line)
        legal = puzzle.view.legal_moves()
        self.say(text("legal_moves", self.lang))
        for number, move in enumerate(legal, start=1):
            self.say(f"  {number}) {_words(move, self.lang)}")
        while True:
            self.sink.write(text("your_move", self.lang))
            self.sink.flush()
            line = self.source.readline()
            answer = line.strip()
            if not line or answer.lower() in ("q", "quit"):
                return None
            digits = answer.translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789"))
            if digits.isdigit() and 1 <= int(digits) <= len(legal):
                return legal[int(digits) - 1]
            try:
                return puzzle.view.read_move(typed_move(answer))
            except IllegalMove as error:
                self.say(refusal(error, self.lang))
