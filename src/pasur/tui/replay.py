"""``pasur replay --view FILE``: step through a record move by move. A record holds every deck, so
the viewer shows every hand, as a game score shows the whole board."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from ..coach.analysis import MoveJudgement, is_key_moment, judgement_line, players_summary, summary_lines
from ..coach.reasons import reason_line
from ..core import Match, Move, Played, Round
from ..core.cards import format_cards
from ..i18n import move_words, number_text, separator, text
from .session import played_text, result_text


@dataclass(frozen=True, slots=True)
class Step:
    """The position after some moves of one round."""

    round: Round
    #: What the move just played did (None before a round's first move).
    played: Played | None
    #: Positions before this one in the record, and after the first in all.
    index: int
    count: int
    #: The moves of this round: its move number N is the N-th of them (as analyze and solve say).
    round_moves: int
    #: The judgement of the move played next from here (the choice this position offers), when
    #: the record was analyzed.
    judgement: MoveJudgement | None = None
    #: At the match's last position: the final scores and the winning side.
    result: tuple[tuple[int, ...], int] | None = None
    #: At the match's last position, when the record was analyzed: each judged player's summary.
    review: tuple[dict[str, Any], ...] = ()


class RecordSteps:
    """Positions of a replayed match, by move number (0 = before the first move), with the
    judgement of each move played when ``judgements`` has one (by round and move number)."""

    def __init__(self, match: Match, judgements: Mapping[tuple[int, int], MoveJudgement] | None = None) -> None:
        self.positions: list[tuple[Round, Played | None]] = []
        self.round_moves = {recorded.number: len(recorded.history) for recorded in match.rounds}
        for recorded in match.rounds:
            game = Round(match.rules, recorded.deck, recorded.number, recorded.banked)
            self.positions.append((game.copy(), None))
            for code in recorded.history:
                played = game.play(code)
                self.positions.append((game.copy(), played))
        self.judgements = judgements or {}
        self.review = tuple(players_summary([one.to_json() for one in self.judgements.values()]))
        #: The positions where a choice worth looking at again was made, in order.
        self.key_moments = [
            index
            for index in range(len(self.positions))
            if (judged := self._choice(index)) is not None and is_key_moment(judged.to_json())
        ]
        self.result = (tuple(match.scores), match.winner) if match.over and match.winner is not None else None

    def __len__(self) -> int:
        return len(self.positions)

    def _choice(self, index: int) -> MoveJudgement | None:
        """The judgement of the move played from position ``index`` (None at a round's end)."""
        game, _played = self.positions[index]
        return None if game.over else self.judgements.get((game.number, len(game.history) + 1))

    def step(self, index: int) -> Step:
        game, played = self.positions[index]
        judged = self._choice(index)
        last = index == len(self) - 1
        moves = self.round_moves[game.number]
        if not last:
            return Step(game, played, index, len(self) - 1, moves, judged)
        return Step(game, played, index, len(self) - 1, moves, judged, self.result, self.review)


def describe_step(step: Step, names: list[str], lang: str = "en") -> list[str]:
    """A position in lines: where we are, the last move, the table and every hand."""
    game = step.round
    rules = game.rules
    sides = [
        " + ".join(names[seat] for seat in range(rules.players) if rules.side_of(seat) == side)
        for side in range(rules.sides)
    ]
    position = text("replay_position", lang, index=len(game.history), count=step.round_moves)
    apart = separator(lang)
    where = (
        text("round", lang, number=game.number),
        text("deal", lang, number=game.deal, deals=rules.deals),
        text("pack", lang, count=game.pack),
        position,
    )
    lines = [
        apart.join(where),
        f"{text('scores', lang)}: "
        + apart.join(f"{sides[side]} {number_text(score, lang)}" for side, score in enumerate(game.banked)),
    ]
    if step.played is not None:
        played = step.played
        lines.append(played_text(played, names[played.seat], sides.__getitem__, lang))
    lines.append(f"{text('table', lang)}: {format_cards(game.table, symbols=True) or text('table_empty', lang)}")
    for seat in range(rules.players):
        marker = "▶" if seat == game.turn and not game.over else " "
        lines.append(f"{marker} {names[seat]}: {format_cards(game.hands[seat], symbols=True)}")
    if step.judgement is not None:  # the choice faced here, and how the move made was judged
        choice = step.judgement
        move = Move.from_code(choice.played_code)
        words = move_words(str(move.card), [str(card) for card in move.take], lang)
        lines.append("  " + text("replay_choice", lang, name=names[choice.seat], move=words))
        lines.append("  " + judgement_line(choice, lang))
        if choice.reason is not None:
            lines.append("  " + reason_line(choice.reason, lang))
    if game.over:
        lines.append(
            apart.join(f"{sides[side]} +{number_text(points, lang)}" for side, points in enumerate(game.points()))
        )
    if step.result is not None:
        scores, winner = step.result
        lines.append(result_text(scores, winner, sides.__getitem__, lang))
    for row in step.review:
        lines.extend(summary_lines(row, names[row["seat"]], lang))
    return lines


class ReplayApp(App[None]):
    """Left and right step through the moves, Home and End jump, q quits."""

    TITLE = "Pasur replay"
    CSS = "#position { padding: 1 2; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,l", "step(1)", "next"),
        Binding("left,backspace,j", "step(-1)", "back"),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("home", "jump(0)", "start"),
        Binding("end", "jump(-1)", "end"),
        Binding("n", "moment(1)", "next mistake"),
        Binding("p", "moment(-1)", "previous mistake"),
        Binding("q,escape", "quit", "quit"),
    ]

    def __init__(
        self,
        match: Match,
        names: list[str],
        lang: str = "en",
        judgements: Mapping[tuple[int, int], MoveJudgement] | None = None,
    ) -> None:
        super().__init__()
        self.steps = RecordSteps(match, judgements)
        self.judged = judgements
        self.names = names
        self.lang = lang
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Static(id="position", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        lines = describe_step(self.steps.step(self.index), self.names, self.lang)
        self.query_one("#position", Static).update("\n".join(lines))

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.steps) - 1, self.index + delta))
        self.show()

    def action_jump(self, index: int) -> None:
        self.index = index % len(self.steps)
        self.show()

    def action_moment(self, direction: int) -> None:
        """To the next (1) or previous (-1) move worth looking at again: an inaccuracy, a mistake."""
        moments = self.steps.key_moments if direction > 0 else self.steps.key_moments[::-1]
        found = next((index for index in moments if (index - self.index) * direction > 0), None)
        if found is not None:
            self.index = found
            self.show()
        else:  # said, never silence: no review was asked for, or none is left that way
            self.notify(text("replay_not_judged" if self.judged is None else "replay_no_more", self.lang))
