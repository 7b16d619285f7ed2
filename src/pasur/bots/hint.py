"""A hint for the seat to play: the strongest bot's move, and why, in one line.

The move comes from ``solver`` (sampled deals, each solved exactly) where it can decide, with what
the move takes and how much better it is expected to do than the next best move (with 3 sides or
more: against the others' average); without the native core from ``pimc`` with what the move
takes. Only the seat's view is used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..core import Move, Round, SeatView
from ..core.cards import format_cards
from ..core.game import Played
from ..core.scoring import club_count, point_cards
from ..i18n import number_text, text
from .pimc import PimcBot
from .solver_bot import SolverBot

__all__ = ["Hint", "hint", "hint_reason"]

#: Solved deals behind a hint (a few milliseconds a position on one core).
HINT_SAMPLES = 1024


@dataclass(frozen=True, slots=True)
class Hint:
    """The move advised, the one-line reason, and its expected edge in points a round over the
    next best move (None when the advice is not from the solver or there is no other move)."""

    move: Move
    reason: str
    edge: float | None


def hint(view: SeatView, legal: Sequence[Move], lang: str = "en", seed: int = 0, ms: float | None = None) -> Hint:
    """Advice for ``view``'s seat among ``legal``; ``ms`` bounds the thinking."""
    samples = None if ms is not None else HINT_SAMPLES
    means = SolverBot(samples=samples, ms=ms, seed=seed).mean_values(view, legal) if len(legal) > 1 else None
    if means is None:
        move = legal[0] if len(legal) == 1 else PimcBot(ms=ms, seed=seed).choose(view, legal)
        return Hint(move, hint_reason(_played(view, move), lang), None)
    ranked = sorted(legal, key=lambda move: -means[move.code])
    move, runner_up = ranked[0], ranked[1]
    edge = means[move.code] - means[runner_up.code]
    margin = text(
        "hint_edge",
        lang,
        points=number_text(round(edge, 1), lang),
        other=runner_up.text(symbols=True),
    )
    return Hint(move, f"{hint_reason(_played(view, move), lang)}; {margin}", edge)


def _played(view: SeatView, move: Move) -> Played:
    """What ``move`` would do at the table of ``view`` (the hidden cards do not change it)."""
    return Round.from_view(view, random.Random(0)).play(move)


def hint_reason(played: Played, lang: str = "en") -> str:
    """Why a move is good, in one line: what it takes (``played`` is what it would do)."""
    move = played.move
    if not move.take:
        return text("reason_lay", lang)
    if played.sur:
        return text("reason_sur", lang)
    won = move.take_mask | 1 << move.card
    if point_cards(won):
        return text("reason_points", lang, points=format_cards(point_cards(won), symbols=True))
    clubs = club_count(won)
    if clubs >= 2:
        return text("reason_clubs", lang, count=clubs)
    return text("reason_cards", lang, count=len(move.take) + 1)
