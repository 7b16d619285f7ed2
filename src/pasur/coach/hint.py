"""A hint for the seat to play: the best move as the review judges it, what it takes, and why.

The deals the seat cannot see are sampled as the review samples them (`analysis`: the same
horizon, the round's end, and the same intervals; the one deal there is when every card's place
is known, and then the edge is exact), so a hint never says a move is best that the review of the
same position calls a loss. The move is compared with the next best move that differs in
substance (not a twin card of the same rank and worth), with the edge said only when its 95%
interval lies above 0 (else the two are "about as good as" each other), and the reason read from
the solver's lines (`reasons`). Given a time, the deals solved and the reason's lines stay
within it; without the native core, or where not one deal can be solved in that time (a whole
round at four players each for themselves, from its first moves), the move comes from ``pimc``
with what it takes. A forced move gets no hint. Only the seat's view is used.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..bots.judgement import move_substance
from ..bots.pimc import PimcBot
from ..core import Move, Round, SeatView, native
from ..core.sampling import Sampling, node_limit_within
from ..core.scoring import SUR_POINTS, card_points, club_count
from ..core.solver import Samples, sampled_within
from ..i18n import move_words, number_text, text
from .analysis import JUDGE_BATCH, points_text, weighted_interval
from .reasons import Reason, explain, reason_line

__all__ = ["Advice", "Hint", "advise", "hint", "move_gain"]

#: Solved deals behind a hint (a few milliseconds a position on one core).
HINT_SAMPLES = 1024
#: Deals solved for a hint's reason (said only when its part surely favours the move advised).
HINT_REASON_DEALS = 32
#: An edge below this many points is told as "about as good as".
SMALLEST_EDGE = 0.05


@dataclass(frozen=True, slots=True)
class Hint:
    """The move advised; what it takes and how it compares, in one line; why, from the solver's
    lines (None when no reason was found); and its expected edge in points a round over the next
    best move that differs in substance (None unless it is known to be above 0)."""

    move: Move
    reason: str
    why: str | None
    edge: float | None


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint before it is put in words, the same in every language: the move advised, the next
    best move that differs in substance (None when all are alike or nothing was solved), the
    edge over it and its 95% margin (0 when ``exact``), and the reason found."""

    move: Move
    other: Move | None = None
    edge: float = 0.0
    spread: float = math.inf
    exact: bool = False
    reason: Reason | None = None

    @property
    def sure(self) -> bool:
        """Whether the edge is known to be above 0 (and large enough to say)."""
        return math.isfinite(self.spread) and self.edge - self.spread > 0 and self.edge >= SMALLEST_EDGE

    def words(self, view: SeatView, lang: str = "en", isolate: bool = False) -> Hint:
        """The hint said in ``lang``; ``isolate`` keeps cards left to right in Persian on a page."""
        said = move_gain(view, self.move, lang, isolate)
        joined = f"{said}{text('clause_join', lang)}"
        if self.other is None:  # all alike when solved; nothing more to say without the solver
            alike = math.isfinite(self.spread)
            return Hint(self.move, joined + text("hint_all_alike", lang) if alike else said, None, None)
        other = move_words(str(self.other.card), [str(card) for card in self.other.take], lang, isolate)
        if not self.sure:
            return Hint(self.move, joined + text("hint_close", lang, other=other), None, None)
        if self.exact:
            compared = text("hint_edge_exact", lang, points=points_text(self.edge, lang, exact=True), other=other)
        else:
            compared = text(
                "hint_edge",
                lang,
                points=number_text(round(self.edge, 1), lang),
                margin=number_text(round(self.spread, 1 if self.spread >= 0.1 else 2), lang),
                other=other,
            )
        why = reason_line(self.reason, lang, isolate) if self.reason is not None else None
        return Hint(self.move, joined + compared, why, self.edge)


def hint_samples(view: SeatView, seed: int, ms: float | None) -> tuple[Samples, bool]:
    """The deals a hint stands on, as the review's: `HINT_SAMPLES` dealt consistently with
    ``view`` (fewer where ``ms`` milliseconds of this thread's CPU run out first), or the one deal
    there is when every card's place is known (True then)."""
    rng = random.Random(seed)
    exact = view.sees_everything
    count = 1 if exact else HINT_SAMPLES
    # with a time bound, a deal that would take longer than it ends the sampling (a whole round at
    # four players each for themselves takes seconds from its first moves)
    base = Round.from_view(view, rng)
    sampling = Sampling(node_limit=node_limit_within(ms))
    found = sampled_within(base, count, rng, ms, JUDGE_BATCH, sampling, clock=time.thread_time)
    return found, exact


def advise(view: SeatView, legal: Sequence[Move], seed: int = 0, ms: float | None = None) -> Advice | None:
    """The advice for ``view``'s seat among ``legal`` (None when only one move is legal); ``ms``
    bounds the thinking (this thread's CPU)."""
    if len(legal) < 2:
        return None
    if not native.available():
        return Advice(PimcBot(ms=ms, seed=seed).choose(view, legal))
    started = time.thread_time()
    found, exact = hint_samples(view, seed, ms)
    left = None if ms is None else max(ms - 1000 * (time.thread_time() - started), ms / 10)
    if not found.weights:  # no deal could be solved within the time: the playouts' choice
        return Advice(PimcBot(ms=left, seed=seed).choose(view, legal))
    means = found.means()
    ranked = sorted(legal, key=lambda move: -means[move.code])
    move = ranked[0]
    other = next((one for one in ranked[1:] if not _same_in_substance(move, one, found)), None)
    if other is None:
        return Advice(move, spread=0.0)
    differences = [b - o for b, o in zip(found.values[move.code], found.values[other.code], strict=True)]
    edge, spread, _effective = weighted_interval(differences, found.weights)
    advice = Advice(move, other, edge, 0.0 if exact else spread, exact)
    if not advice.sure:
        return advice
    game = Round.from_view(view, random.Random(seed))
    reason = explain(game, move.code, other.code, seed, HINT_REASON_DEALS, sure=True, loss=edge, ms=left)
    return Advice(move, other, advice.edge, advice.spread, exact, reason)


def hint(
    view: SeatView,
    legal: Sequence[Move],
    lang: str = "en",
    seed: int = 0,
    ms: float | None = None,
    isolate: bool = False,
) -> Hint | None:
    """`advise()` said in ``lang`` (None when only one move is legal)."""
    advice = advise(view, legal, seed, ms)
    return None if advice is None else advice.words(view, lang, isolate)


def _same_in_substance(move: Move, other: Move, found: Samples) -> bool:
    """Whether two moves are twins: the same in substance (`move_substance()`), or worth the
    same on every deal solved."""
    return found.values[move.code] == found.values[other.code] or move_substance(move.code) == move_substance(
        other.code
    )


def move_gain(view: SeatView, move: Move, lang: str = "en", isolate: bool = False) -> str:
    """What a move takes and what that is worth: ``10♣ × A♠ (2 points, 1 club)``, a Sur said,
    ``lay 7♦, taking nothing`` (the points count the played card, which joins the side's pile)."""
    words = move_words(str(move.card), [str(card) for card in move.take], lang, isolate)
    if not move.take:
        return text("gain_lay", lang, move=words)
    sur = Round.from_view(view, random.Random(0)).play(move).sur
    won = move.take_mask | 1 << move.card
    worth = [
        text(key if count != 1 else f"{key}_one", lang, count=count)
        for key, count in (
            ("gain_points", card_points(won) + (SUR_POINTS if sur else 0)),
            ("gain_clubs", club_count(won)),
        )
        if count
    ]
    said = text("gain_sur", lang, move=words) if sur else words
    return f"{said} ({text('list_join', lang).join(worth)})" if worth else said
