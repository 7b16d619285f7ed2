"""The solving commands: ``pasur solve`` (the exact value of a position) and ``pasur analyze``
(each of a seat's moves judged)."""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
from typing import Any

import click

from ..coach.analysis import (
    MoveJudgement,
    Precision,
    analysis_tasks,
    judge_move,
    judgement_line,
    players_summary,
    rounds_summary,
    summary_lines,
)
from ..coach.reasons import reason_line
from ..core import (
    Card,
    DeckError,
    Round,
    Rules,
)
from ..core.errors import SolveError
from ..core.solver import DEFAULT_TABLE_MB, solve
from .common import build_rules, read_match, rules_options


@click.command(name="solve")
@click.argument("record", required=False, type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--deck", help='with no RECORD: the 52 cards, top first, as "7C KD 2S ..." (RECORDS.md)')
@click.option(
    "--round",
    "round_number",
    type=click.IntRange(min=1),
    default=None,
    help="with RECORD: which round [the last]; with --deck: the round's number, which says who plays first [1]",
)
@click.option(
    "--move",
    "move_number",
    type=click.IntRange(min=1),
    default=1,
    help="with RECORD: the position in which the round's move N is played, numbered from 1 as replay and "
    "analyze number them [1]",
)
@click.option("--scores", help="with --deck: each side's banked score at the round's start, as 55,20 [0,0]")
@click.option(
    "--table-mb",
    type=click.FloatRange(min=0, max=16384),
    default=DEFAULT_TABLE_MB,
    show_default=True,
    help="transposition table size (0: none)",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@rules_options
def solve_command(
    record: str | None,
    deck: str | None,
    round_number: int | None,
    move_number: int,
    scores: str | None,
    table_mb: float,
    as_json: bool,
    **options: Any,
) -> None:
    """Solve a position exactly, every card's place known: its value under perfect play by both
    sides (the round's final points, side 0 minus side 1), each legal move's value and a best line.

    Give a deck (--deck, with rules options and --scores) or a pasur-record/1 file with --round and
    --move (the move analyze calls "round R move N" is solved with --round R --move N). Two sides
    only: 2 players, or 4 in partnership.
    """
    if (record is None) == (deck is None):
        raise click.UsageError("give a RECORD file or --deck, one of the two")
    if record is not None:
        if scores is not None or any(value not in (None, False, ()) for value in options.values()):
            raise click.UsageError("a record carries its own rules and scores: give --deck to set them")
        game = _record_position(record, round_number, move_number)
    else:
        if move_number != 1:
            raise click.UsageError("--move goes with a RECORD")
        game = _deck_position(deck or "", round_number or 1, scores, build_rules(options))
    try:
        solution = solve(game, table_mb=table_mb)
    except SolveError as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        click.echo(json.dumps(solution.to_json()))
        return
    side = game.side_of(game.turn)
    click.echo(
        f"round {game.number}, deal {game.deal} of {game.rules.deals}, "
        + ("over" if game.over else f"seat {game.turn} to play (side {side})")
    )
    click.echo(f"value {solution.value:+d} (side 0 minus side 1, both sides playing perfectly)")
    for move in solution.moves:
        mark = "  best" if move.value == solution.value else ""
        click.echo(f"  {move.text:<16} {move.value:+d}{mark}")
    click.echo(f"line: {' '.join(solution.line) or '(none)'}")
    click.echo(f"{solution.nodes:,} nodes in {solution.seconds:.3f} s")


def _record_position(file: str, round_number: int | None, move_number: int) -> Round:
    """The position in which move ``move_number`` (from 1) of a round of a record is played."""
    match = read_match(file)
    if not match.rounds:
        raise click.ClickException("the record has no round")
    number = round_number or len(match.rounds)
    if number > len(match.rounds):
        raise click.ClickException(f"the record has {len(match.rounds)} rounds, not {number}")
    recorded = match.rounds[number - 1]
    if move_number > len(recorded.history):
        raise click.ClickException(f"round {number} has {len(recorded.history)} moves, not {move_number}")
    game = Round(match.rules, recorded.deck, recorded.number, recorded.banked, check_deck=False)
    for code in recorded.history[: move_number - 1]:
        game.play_code(code)
    return game


def _deck_position(text: str, number: int, scores: str | None, rules: Rules) -> Round:
    """A round dealt from a deck given as text."""
    try:
        cards = [Card.parse(part) for part in text.replace(",", " ").split()]
    except ValueError as error:
        raise click.UsageError(f"--deck: {error}") from None
    if len(cards) != 52 or len(set(cards)) != 52:
        distinct = len(set(cards))
        raise click.UsageError(f"--deck: give each of the 52 cards once ({len(cards)} given, {distinct} distinct)")
    banked = None
    if scores is not None:
        try:
            banked = [int(part) for part in scores.split(",")]
        except ValueError:
            raise click.UsageError(f"--scores: whole numbers separated by commas, as 55,20, not '{scores}'") from None
        if len(banked) != rules.sides or min(banked) < 0:
            raise click.UsageError(f"--scores: {rules.sides} scores of 0 or more, one a side")
    try:
        return Round(rules, cards, number, banked)
    except DeckError as error:
        raise click.UsageError(f"--deck: {error}") from None


#: The precision ``pasur analyze`` judges with unless told.
DEFAULT_PRECISION = Precision()


def precision_options(command: Any) -> Any:
    """The options that say how long each move is judged."""
    for option in reversed(
        (
            click.option(
                "--samples",
                type=click.IntRange(2, 10_000),
                default=None,
                help="solve exactly this many deals a move [as many as --width needs]",
            ),
            click.option(
                "--width",
                type=click.FloatRange(0.01, 10),
                default=DEFAULT_PRECISION.width,
                show_default=True,
                help="points either side each loss is to be known to (its 95% interval)",
            ),
            click.option(
                "--most",
                type=click.IntRange(2, 100_000),
                default=DEFAULT_PRECISION.most,
                show_default=True,
                help="deals a move at most",
            ),
            click.option(
                "--move-ms",
                type=click.FloatRange(1, 3_600_000),
                default=DEFAULT_PRECISION.ms,
                show_default=True,
                help="milliseconds a move is judged for at most",
            ),
        )
    ):
        command = option(command)
    return command


def chosen_precision(samples: int | None, width: float, most: int, move_ms: float) -> Precision:
    """The precision the options ask for (``--samples`` fixes the count, with no time limit)."""
    return Precision.fixed(samples) if samples is not None else Precision(width=width, most=most, ms=move_ms)


@click.command(name="analyze")
@click.argument("record", type=click.Path(allow_dash=True, dir_okay=False))
@click.option(
    "--seat", "seats", type=click.IntRange(0, 3), multiple=True, help="a seat to judge (again for more) [all]"
)
@precision_options
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="worker processes [all cores]")
@click.option("--seed", type=int, default=1, show_default=True, help="seed of the sampled deals")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
def analyze_command(
    record: str,
    seats: tuple[int, ...],
    samples: int | None,
    width: float,
    most: int,
    move_ms: float,
    jobs: int | None,
    seed: int,
    as_json: bool,
) -> None:
    """Judge every move of a record from the mover's view only: the expected final round points
    (side minus other side) of each legal move over sampled deals solved exactly, the best move,
    and what the move played lost, with its 95% interval; then a summary per round and player.
    Deals are added until each loss is known to --width points either side within one verdict
    (good, inaccuracy, mistake), else the verdict is unclear. With 3 players, or 4 each for
    themselves: the mover's points minus the others' average."""
    match = read_match(record)
    if any(seat >= match.rules.players for seat in seats):
        raise click.UsageError(f"--seat: this record has seats 0 to {match.rules.players - 1}")
    try:
        tasks = analysis_tasks(match, seats or None, seed)
    except SolveError as error:
        raise click.ClickException(str(error)) from None
    if not tasks and not as_json:
        click.echo(f"nothing to judge: the record has no moves{' by those seats' if seats else ''}")
        return
    judgements = judge_moves(tasks, chosen_precision(samples, width, most, move_ms), jobs, progress=not as_json)
    judged = [one.to_json() for one in judgements]
    players = players_summary(judged)
    if as_json:
        click.echo(json.dumps({"moves": judged, "players": players, "rounds": rounds_summary(judged)}))
        return
    for one in judgements:
        if one.verdict != "good":
            click.echo(f"round {one.round} move {one.move:>2} seat {one.seat}: {judgement_line(one)}")
            if one.reason is not None:
                click.echo(f"    why: {reason_line(one.reason)}")
    for row in players:
        click.echo("\n".join(summary_lines(row, f"seat {row['seat']}")))


def judge_moves(tasks: list[Any], precision: Precision, jobs: int | None, progress: bool) -> list[MoveJudgement]:
    """Judge every move over ``jobs`` processes (all cores), with a progress bar on a terminal."""
    with multiprocessing.get_context("spawn").Pool(jobs or os.cpu_count() or 1) as pool:
        judged = pool.imap(_judge_one, [(task, precision) for task in tasks])
        if progress and sys.stderr.isatty():
            with click.progressbar(judged, length=len(tasks), label="judging moves", file=sys.stderr) as bar:
                return list(bar)
        return list(judged)


def _judge_one(item: tuple[Any, Precision]) -> MoveJudgement:
    return judge_move(*item)
