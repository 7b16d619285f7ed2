"""Game analysis: each move of a record judged from the mover's view only.

For every move of the chosen seats, the cards that seat could not see are dealt at random many
times, consistently with its view, and each deal is solved exactly (`pasur.solve()`): every
legal move gets its expected final round points (the mover's side minus the other side) over the
same samples. The best move has the highest mean; a move's **loss** is the best mean minus its
mean. Its 95% interval comes from every other move's gain over it on the same deals (paired),
each with Student's t on the effective sample size of the deals' weights and the 5% split between
them, so that not knowing which move is best counts too (docs/ANALYSIS.md). Deals are added
(`Precision`) until the interval is narrow and lies within one verdict's band — **good** (below 0.3 points),
**inaccuracy** (0.3 to 1) or **mistake** (1 or more) — or the samples or CPU time allowed run out;
then the verdict names the bands the interval spans: **good or inaccuracy** (at most an
inaccuracy), **inaccuracy or mistake**, or **unclear** when it spans all three. A position where
every card's place is known is solved once and judged **exactly** (no interval); a move that was
the only one legal is **forced**. With 3 players, or 4 each for themselves, the values are the mover's
points minus the others' average, the others searched as one coalition (`pasur.core.solver`).
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.judgement import move_substance
from ..core import Match, Move, MoveCode, Round, Rules
from ..core.errors import SolveError
from ..core.sampling import Sampling, node_limit_within
from ..core.solver import Samples, sampled_within, solve_problem
from ..core.stats import t_quantile
from ..i18n import move_words, number_text, text
from .reasons import Reason, explain

__all__ = [
    "MISTAKE",
    "MoveJudgement",
    "Precision",
    "analysis_tasks",
    "judge_move",
    "judge_position",
    "judged_choice",
    "judgement_line",
    "players_summary",
    "rounds_summary",
    "t_quantile",
]

#: A loss of this many points or more is a mistake.
MISTAKE = 1.0
#: A loss of this many points or more (and below a mistake's) is an inaccuracy.
INACCURACY = 0.3
#: Deals on which two moves that differ in substance must be worth the same before they are taken
#: to be worth the same (a swing that comes one deal in twenty is missed by 32 deals one time in
#: five, by 128 one time in 700).
SAME_AFTER = 128
#: Each verdict's band of losses, in points.
BANDS = (("good", -math.inf, INACCURACY), ("inaccuracy", INACCURACY, MISTAKE), ("mistake", MISTAKE, math.inf))
#: The verdicts of one band.
BAND_NAMES = tuple(name for name, _floor, _ceiling in BANDS)
#: The verdict of an interval spanning two neighbouring bands.
TWO_BANDS = {("good", "inaccuracy"): "good_or_inaccuracy", ("inaccuracy", "mistake"): "inaccuracy_or_mistake"}
#: The bands each verdict allows (two verdicts contradict each other when they share none).
ALLOWED = {
    "good": {"good"},
    "good_or_inaccuracy": {"good", "inaccuracy"},
    "inaccuracy": {"inaccuracy"},
    "inaccuracy_or_mistake": {"inaccuracy", "mistake"},
    "mistake": {"mistake"},
    "unclear": set(BAND_NAMES),
    "forced": {"good"},
}


@dataclass(frozen=True, slots=True)
class Precision:
    """How long a move is judged: at least ``least`` deals, then more in growing batches until the
    loss's 95% interval is at most ``width`` points either side and lies within one verdict's
    band, or ``most`` deals or ``ms`` milliseconds of CPU time (the judging thread's own: a busy
    machine judges as well, more slowly) are spent (None: no time limit). ``least == most`` fixes
    the count. The time limit bites on a round's first moves, whose deals are the dearest to
    solve (a few milliseconds each on one core); a deal that alone would need more nodes than the
    whole time allows ends the sampling, and the reason of a move that lost has a time as long
    again, so a move takes at most about twice ``ms``."""

    width: float = 0.3
    least: int = 128
    most: int = 8192
    ms: float | None = 2000.0

    @classmethod
    def fixed(cls, samples: int, ms: float | None = None) -> Precision:
        """Exactly ``samples`` deals (fewer if ``ms`` runs out)."""
        return cls(least=samples, most=samples, ms=ms)


@dataclass(frozen=True, slots=True)
class MoveJudgement:
    """One move judged: what each legal move is worth (mean over the samples), the best, the one
    played and what it lost, with the 95% interval of the loss, the deals solved and their
    effective number (their weights counted)."""

    round: int
    move: int  # 1-based, within the round
    seat: int
    played: str
    best: str
    loss: float
    loss_interval: tuple[float, float]
    values: dict[str, float]
    samples: int
    effective: float
    played_code: MoveCode
    best_code: MoveCode
    #: Why the best move is better, for a move that lost something (from the solver's lines).
    reason: Reason | None = None
    #: Whether every card's place was known, so the one deal solved is the truth.
    exact: bool = False
    #: Whether the time ran out before the first ``least`` deals were solved.
    cut_short: bool = False

    @property
    def verdict(self) -> str:
        """``forced`` when one move was legal; else the band (``good``, ``inaccuracy``,
        ``mistake``) holding the whole interval of the loss, the two neighbouring bands it spans
        (``good_or_inaccuracy``, ``inaccuracy_or_mistake``), or ``unclear`` (all three)."""
        if len(self.values) == 1:
            return "forced"
        low, high = self.loss_interval
        spanned = [name for name, floor, ceiling in BANDS if low < ceiling and high >= floor]
        if len(spanned) == 1:
            return spanned[0]
        return TWO_BANDS.get((spanned[0], spanned[-1]), "unclear")

    @property
    def margin(self) -> float:
        """Half the interval's width: the loss is known to ± this many points."""
        return (self.loss_interval[1] - self.loss_interval[0]) / 2

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "move": self.move,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "loss": round(self.loss, 3),
            "loss_interval": [_finite(self.loss_interval[0]), _finite(self.loss_interval[1])],
            "verdict": self.verdict,
            "values": {text: _finite(value) for text, value in self.values.items()},
            "samples": self.samples,
            "effective_samples": round(self.effective, 1),
            "exact": self.exact,
            "cut_short": self.cut_short,
            "played_move": Move.from_code(self.played_code).to_json(),
            "best_move": Move.from_code(self.best_code).to_json(),
            "reason": self.reason.to_json() if self.reason else None,
        }


def _finite(bound: float) -> float | None:
    """An interval's end or a value for JSON: None when the deals were too few to tell it."""
    return round(bound, 3) if math.isfinite(bound) else None


#: One move to judge: rules, the round's deck, number and banked scores, the moves before it, the
#: move, and the seed of its samples (plain values, so worker processes can take it).
Task = tuple[Rules, tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int, int]


def analysis_tasks(match: Match, seats: Iterable[int] | None, seed: int) -> list[Task]:
    """A task for every move of the chosen seats (all when None) in the match's rounds; a
    `SolveError` when the solver cannot judge them (no native core)."""
    if match.rounds:
        problem = solve_problem(match.rounds[0], paranoid=True)
        if problem:
            raise SolveError(problem)
    chosen = set(range(match.rules.players) if seats is None else seats)
    tasks: list[Task] = []
    for game in match.rounds:
        for index, code in enumerate(game.history):
            if (game.first + index) % match.rules.players in chosen:
                tasks.append(
                    (
                        match.rules,
                        game.deck,
                        game.number,
                        game.banked,
                        tuple(game.history[:index]),
                        code,
                        seed * 1_000_003 + game.number * 100 + index,
                    )
                )
    return tasks


def judge_move(task: Task, precision: Precision = Precision()) -> MoveJudgement:
    """Judge one move from its seat's view, as ``precision`` says."""
    rules, deck, number, banked, before, played, seed = task
    game = Round(rules, deck, number, banked, check_deck=False)
    for code in before:
        game.play_code(code)
    return judge_position(game, played, seed, precision)


#: Deals solved between two looks at the clock when judging within a time.
JUDGE_BATCH = 8


def judge_position(game: Round, played: MoveCode, seed: int, precision: Precision = Precision()) -> MoveJudgement:
    """Judge ``played`` in ``game``'s position from the view of the seat to play (the cards it
    cannot see play no part), solving deals until ``precision`` is met (one when every card's
    place is known: the judgement is then exact)."""
    codes = game.legal_codes()
    rng = random.Random(seed)
    view = game.view(game.turn)
    exact = view.sees_everything
    base = Round.from_view(view, rng)
    clock = time.thread_time
    stop = clock() + precision.ms / 1000 if precision.ms is not None else math.inf
    # with a time, a deal that would need more nodes than the whole time allows ends the sampling
    # (a whole round at four players each for themselves takes seconds from its first moves)
    sampling = Sampling(node_limit=node_limit_within(precision.ms))
    wanted = precision.least if len(codes) > 1 and not exact else 1
    found: Samples | None = None
    while True:
        ms = (stop - clock()) * 1000 if precision.ms is not None else None
        more = sampled_within(base, wanted - _count(found), rng, ms, JUDGE_BATCH, sampling, clock)
        found = more if found is None else _joined(found, more)
        if not _count(found):
            return _unjudged(game, played)
        judgement = _judgement(game, played, found, exact)
        count = _count(found)
        if count < min(wanted, precision.least):  # the time, or a node limit, ended the sampling
            return _explained(game, dataclasses.replace(judgement, cut_short=True), seed, precision.ms)
        if (
            wanted == 1
            or count >= precision.most
            or count < wanted
            or clock() >= stop
            or (judgement.margin <= precision.width and judgement.verdict in BAND_NAMES)
        ):
            return _explained(game, judgement, seed, precision.ms)
        wanted = min(precision.most, max(2 * count, _needed(judgement, precision.width, count)))


def _unjudged(game: Round, played: MoveCode) -> MoveJudgement:
    """A move not one deal could be solved for within the time: unclear (or forced), its loss
    unbounded, no move's value known."""
    values = dict.fromkeys(game.legal_codes(), math.nan)
    return _judged(game, played, played, values, (0.0, math.inf), 0, 0.0, cut_short=True)


def _explained(game: Round, judgement: MoveJudgement, seed: int, ms: float | None) -> MoveJudgement:
    """The judgement with its reason, when the move may have lost something worth saying; the
    reason's deals are solved within ``ms`` of their own (a whole round at four players takes tens
    of milliseconds from its first moves, and a reason solves two a deal)."""
    if judgement.verdict in ("good", "forced") or judgement.loss < INACCURACY:
        return judgement
    reason = explain(game, judgement.best_code, judgement.played_code, seed, loss=judgement.loss, ms=ms)
    return dataclasses.replace(judgement, reason=reason)


def _count(found: Samples | None) -> int:
    return len(found.weights) if found is not None else 0


def _joined(found: Samples, more: Samples) -> Samples:
    return Samples(
        {code: values + more.values[code] for code, values in found.values.items()}, found.weights + more.weights
    )


def _needed(judgement: MoveJudgement, width: float, count: int) -> int:
    """About how many deals bring the interval to ``width`` either side."""
    if not math.isfinite(judgement.margin):
        return 2 * count
    return math.ceil(count * (judgement.margin / width) ** 2) if judgement.margin > width else count


def _judgement(game: Round, played: MoveCode, found: Samples, exact: bool) -> MoveJudgement:
    """The judgement the deals found so far make (``exact``: one deal, the only one there is)."""
    codes = game.legal_codes()
    means = found.means()
    best = max(codes, key=means.__getitem__)
    if means[played] == means[best]:
        best = played  # the move played is as good as any
    # the loss is the most any other move gains over the one played: each gain has its interval,
    # the levels split between them (Bonferroni), so that the best move's being unknown counts too
    others = [code for code in codes if code != played]
    level = 1 - 0.025 / max(1, len(others))
    lows, highs, effective = [0.0], [0.0], float(len(found.weights))
    for code in others:
        gains = [o - p for o, p in zip(found.values[code], found.values[played], strict=True)]
        gain, spread, effective = weighted_interval(gains, found.weights, level)
        if exact:
            spread = 0.0
        if not exact and spread == 0 and len(gains) < SAME_AFTER and move_substance(code) != move_substance(played):
            spread = math.inf  # never seen to differ, but too few deals to say it never does
        lows.append(gain - spread)
        highs.append(gain + spread)
    values = {code: means[code] for code in codes}
    interval = (max(lows) if len(lows) > 1 else 0.0, max(highs))
    return _judged(game, played, best, values, interval, len(found.weights), effective, exact=exact)


def _judged(
    game: Round,
    played: MoveCode,
    best: MoveCode,
    values: dict[MoveCode, float],
    loss_interval: tuple[float, float],
    samples: int,
    effective: float,
    exact: bool = False,
    cut_short: bool = False,
) -> MoveJudgement:
    """The judgement of ``played`` in ``game``'s position, each legal move's value given (the loss
    is the best's less the played one's, 0 when no value is known)."""
    texts = {code: game.move_text(code) for code in values}
    loss = values[best] - values[played] if best != played else 0.0
    return MoveJudgement(
        round=game.number,
        move=len(game.history) + 1,
        seat=game.turn,
        played=texts[played],
        best=texts[best],
        loss=loss,
        loss_interval=loss_interval,
        values={texts[code]: value for code, value in values.items()},
        samples=samples,
        effective=effective,
        played_code=played,
        best_code=best,
        exact=exact,
        cut_short=cut_short,
    )


def weighted_interval(
    values: Sequence[float], weights: Sequence[float], level: float = 0.975
) -> tuple[float, float, float]:
    """The weighted mean of ``values``, the half-width of its interval (two-sided, each side
    leaving out ``1 - level``: 95% by default) and the effective sample size (Kish's: the
    weights' sum squared over their squares' sum). The interval is Student's t on the effective
    size less one degree of freedom (none when it is below 2: the spread is then infinite unless
    the mean is 0: a forced move, solved once)."""
    total = sum(weights)
    mean = sum(weight * value for weight, value in zip(weights, values, strict=True)) / total
    effective = total**2 / sum(weight * weight for weight in weights)
    squares = sum((weight * (value - mean)) ** 2 for weight, value in zip(weights, values, strict=True))
    if squares == 0 and (effective >= 2 or mean == 0):
        return mean, 0.0, effective
    if effective < 2:
        return mean, math.inf, effective
    variance = squares / total**2 * effective / (effective - 1)
    return mean, t_quantile(effective - 1, level) * math.sqrt(variance), effective


def judgement_line(judgement: MoveJudgement, lang: str = "en", isolate: bool = False) -> str:
    """What the analysis says of a move, for people: its verdict, what it lost in points and how
    surely (exactly, when every card was known), the deals it took, and the best move
    (``isolate``: cards kept left to right in Persian on a page)."""
    if judgement.verdict == "forced":
        return text("judged_forced", lang)
    if not judgement.samples:
        return text("judged_none", lang)
    verdict = text(f"verdict_{judgement.verdict}", lang)
    if judgement.exact:
        deals = text("judged_exact", lang)
    else:
        deals = text("judged_cut_short" if judgement.cut_short else "judged_deals", lang, count=judgement.samples)
    if judgement.played_code == judgement.best_code:
        return text("judged_best", lang, verdict=verdict, deals=deals)
    low, high = judgement.loss_interval
    if judgement.exact:
        loss = text("judged_loss_exact", lang, loss=points_text(judgement.loss, lang, exact=True))
    elif not math.isfinite(judgement.margin):
        loss = text("judged_unbounded", lang, loss=points_text(judgement.loss, lang))
    else:
        loss = text(
            "judged_loss",
            lang,
            loss=points_text(judgement.loss, lang),
            low=points_text(max(low, 0.0), lang),
            high=points_text(high, lang),
        )
    words = move_words(*_card_texts(judgement.best_code), lang, isolate)
    return text("judged", lang, verdict=verdict, loss=loss, deals=deals, best=words)


def _card_texts(code: MoveCode) -> tuple[str, list[str]]:
    """A move's card and taken cards as record texts, for `move_words()`."""
    move = Move.from_code(code)
    return str(move.card), [str(card) for card in move.take]


def points_text(value: float, lang: str, exact: bool = False) -> str:
    """Points to one decimal (a loss above 0 that rounds to 0 reads as under 0.1); ``exact``
    points that are whole without one."""
    if 0 < value < 0.05:
        return text("under_a_tenth", lang)
    shown = round(value, 1)
    return number_text(int(shown) if exact and shown == int(shown) else shown, lang)


#: A move lost this many points on average halves the accuracy score (`accuracy()`).
HALVING_LOSS = 0.35


def accuracy(mean_loss: float) -> int:
    """A 0–100 score of a mean loss a move: 100 when every move was the best, halved with every
    `HALVING_LOSS` points lost a move on average (0.1 gives 82, 1 point gives 14)."""
    score: float = 100 * 0.5 ** (mean_loss / HALVING_LOSS)
    return round(score)


def is_key_moment(judged: dict[str, Any]) -> bool:
    """Whether a judged move (`MoveJudgement.to_json()`) is one to look at again: at least an
    inaccuracy, or a move whose verdict spans more than one band and which lost that much."""
    return judged["verdict"] in ("inaccuracy", "inaccuracy_or_mistake", "mistake") or (
        judged["verdict"] in ("good_or_inaccuracy", "unclear") and judged["loss"] >= INACCURACY
    )


def players_summary(judged: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per seat, from judged moves as `MoveJudgement.to_json()` writes them: the moves judged
    and those with a choice (judged on a deal at least), their mean loss and its accuracy score, the
    mistakes, inaccuracies and unclear moves, the three largest losses, and the key moments."""
    seats = sorted({one["seat"] for one in judged})
    return [{"seat": seat, **_summary([one for one in judged if one["seat"] == seat])} for seat in seats]


def rounds_summary(judged: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same per round and seat."""
    keys = sorted({(one["round"], one["seat"]) for one in judged})
    rows = []
    for number, seat in keys:
        own = [one for one in judged if (one["round"], one["seat"]) == (number, seat)]
        rows.append({"round": number, "seat": seat, **_summary(own)})
    return rows


def judged_choice(one: dict[str, Any]) -> bool:
    """Whether a judged move (as `MoveJudgement.to_json()` writes it) had a choice and was judged
    on a deal at least: what a mean loss and an accuracy count."""
    return len(one["values"]) > 1 and one.get("samples", 1) > 0


def _summary(own: Sequence[dict[str, Any]]) -> dict[str, Any]:
    chosen = [one for one in own if judged_choice(one)]
    mean_loss = statistics.fmean(one["loss"] for one in chosen) if chosen else 0.0
    largest = sorted((one for one in chosen if one["loss"] > 0), key=lambda one: -one["loss"])[:3]
    return {
        "moves": len(own),
        "choices": len(chosen),
        "mean_loss": round(mean_loss, 3),
        "accuracy": accuracy(mean_loss),
        **{plural: sum(one["verdict"] in verdicts for one in own) for verdicts, plural in _VERDICT_COUNTS},
        "largest": [
            {key: one[key] for key in ("round", "move", "played_move", "best_move", "loss", "verdict")}
            for one in largest
        ],
        "key_moments": [{"round": one["round"], "move": one["move"]} for one in own if is_key_moment(one)],
    }


_VERDICT_COUNTS = (
    (("mistake",), "mistakes"),
    (("inaccuracy",), "inaccuracies"),
    (tuple(TWO_BANDS.values()), "between"),
    (("unclear",), "unclear"),
)


def summary_lines(row: dict[str, Any], name: str, lang: str = "en") -> list[str]:
    """A player's summary (a row of `players_summary()`) for people: the accuracy score and
    what it comes from, the verdicts counted, and the three largest losses."""
    lines = [
        text(
            "review_summary",
            lang,
            name=name,
            accuracy=row["accuracy"],
            loss=number_text(round(row["mean_loss"], 2), lang),
            choices=row["choices"],
            mistakes=row["mistakes"],
            inaccuracies=row["inaccuracies"],
            between=row["between"],
            unclear=row["unclear"],
        )
    ]
    for one in row["largest"]:
        played, best = (one[key] for key in ("played_move", "best_move"))
        lines.append(
            text(
                "review_largest",
                lang,
                round=one["round"],
                move=one["move"],
                played=move_words(played["card"], played["take"], lang),
                loss=points_text(one["loss"], lang),
                best=move_words(best["card"], best["take"], lang),
            )
        )
    return lines
