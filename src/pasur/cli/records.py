"""The record commands: ``pasur replay`` (check and view records), ``pasur deal`` and ``pasur rules``."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import random
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

import click

from ..coach.analysis import analysis_tasks
from ..core import (
    Match,
    RecordError,
    format_cards,
)
from ..core.errors import SolveError
from ..core.record import from_record, load_json, read_json, replay_line, summarize
from ..i18n import LANGUAGES
from .analysis import chosen_precision, judge_moves, precision_options
from .common import breakdown_line, build_rules, open_text, rules_options


@click.command()
@click.argument("file", type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="print the RECORDS.md JSON object")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="worker processes for JSON Lines [all cores]")
@click.option("--view", is_flag=True, help="step through the record move by move (full screen)")
@click.option("--plain", is_flag=True, help="with --view: print every position, line by line")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", help="with --view: English or Persian")
@click.option(
    "--record", "record_number", type=click.IntRange(min=1), default=1, help="with --view and many records: which one"
)
@click.option(
    "--analyze", is_flag=True, help="with --view: judge every move first (as pasur analyze) and show each verdict"
)
@precision_options
def replay(
    file: str,
    as_json: bool,
    jobs: int | None,
    view: bool,
    plain: bool,
    lang: str,
    record_number: int,
    analyze: bool,
    samples: int | None,
    width: float,
    most: int,
    move_ms: float,
) -> None:
    """Check a pasur-record/1 file against the rules and print the result.

    A .jsonl file, or - for standard input, holds one record a line; each gets one line out,
    in order (standard input may also hold one record over many lines, as a saved game does).
    Exits 1 if any record is invalid. --view steps through one record move by move (--record N
    picks one of many).
    """
    stream = open_text(file)
    with stream:
        first, whole = _first_record_line(stream)
        lines = itertools.chain([first], stream)
        if not (file.endswith(".jsonl") or (file == "-" and whole)):
            text = first + stream.read()  # one record, on one line or over many
        elif view:
            text = _nth_line(lines, record_number, file)
        else:
            invalid = 0
            for result in _replay_lines(lines, jobs or os.cpu_count() or 1):
                invalid += "error" in result
                click.echo(json.dumps(result) if as_json else _replay_line(result))
            sys.exit(1 if invalid else 0)
    try:
        record = load_json(text)
        match = from_record(record)
    except RecordError as error:
        if as_json:
            click.echo(json.dumps(error.to_json()))
            sys.exit(1)
        raise click.ClickException(f"invalid record: {error}") from None
    if analyze and not view:
        raise click.UsageError("--analyze goes with --view (or use pasur analyze)")
    if view:
        if not match.rounds:
            raise click.ClickException("the record has no round to show")
        judgements = None
        if analyze:
            try:
                tasks = analysis_tasks(match, None, seed=1)
            except SolveError as error:
                raise click.ClickException(str(error)) from None
            precision = chosen_precision(samples, width, most, move_ms)
            judgements = {(one.round, one.move): one for one in judge_moves(tasks, precision, jobs, progress=True)}
        _view_record(match, record, plain, lang, judgements)
        return
    summary = summarize(match)
    if as_json:
        click.echo(json.dumps(summary.to_json()))
        return
    for number, game in enumerate((game for game in match.rounds if game.over), start=1):
        click.echo(f"round {number}")
        for side, score in enumerate(game.breakdown()):
            click.echo("  " + breakdown_line(match.rules, side, score))
    over = f"side {match.winner} wins" if match.winner is not None else "match not finished"
    click.echo(f"scores {' - '.join(map(str, match.scores))}: {over}")


def _first_record_line(stream: IO[str]) -> tuple[str, bool]:
    """The first non-blank line of a stream, and whether it is a whole JSON value (a line of
    JSON Lines, or a record on one line) rather than the start of one record over many lines."""
    for line in stream:
        if line.strip():
            try:
                read_json(line)
            except json.JSONDecodeError:
                return line, False
            return line, True
    return "", True


def _nth_line(lines: Iterator[str], number: int, file: str) -> str:
    """The ``number``-th record (from 1) of JSON Lines."""
    for index, line in enumerate((line for line in lines if line.strip()), start=1):
        if index == number:
            return line
    raise click.ClickException(f"{file} holds fewer than {number} records")


def _view_record(match: Match, record: Any, plain: bool, lang: str, judgements: Any = None) -> None:
    """Show a valid record position by position (with each move's judgement when analyzed)."""
    names = record.get("names") or [f"seat {seat}" for seat in range(match.rules.players)]
    if plain:
        from ..tui.replay import RecordSteps, describe_step

        steps = RecordSteps(match, judgements)
        for index in range(len(steps)):
            click.echo("\n".join(describe_step(steps.step(index), names, lang)) + "\n")
        return
    try:
        from ..tui.replay import ReplayApp
    except ImportError:
        raise click.ClickException("the viewer needs Textual: pip install 'pasur[tui]' (or add --plain)") from None
    ReplayApp(match, names, lang, judgements).run()


def _replay_lines(stream: Iterable[str], jobs: int) -> Iterator[dict[str, Any]]:
    """Replay each non-blank line, in order, over ``jobs`` processes."""
    lines = (line for line in stream if line.strip())
    if jobs == 1:
        yield from map(replay_line, lines)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(replay_line, lines, chunksize=32)


def _replay_line(result: dict[str, Any]) -> str:
    if "error" in result:
        error = result["error"]
        return f"invalid: round {error['round']} move {error['move']}: {error['message']}"
    state = f"side {result['winner']} wins" if result["over"] else "not finished"
    return f"scores {' - '.join(map(str, result['scores']))} after {len(result['rounds'])} rounds: {state}"


@click.command()
@click.option("--seed", type=int, default=None, help="shuffle seed (random if left out)")
@click.option("--symbols", is_flag=True, help="print suits as ♣ ♦ ♥ ♠")
@rules_options
def deal(seed: int | None, symbols: bool, **options: Any) -> None:
    """Show a deal: each hand, the table and the pack, as the rules deal them."""
    rules = build_rules(options)
    seed = seed if seed is not None else random.randrange(1 << 32)
    match = Match(rules, seed=seed)
    game = match.rounds[0]
    click.echo(f"seed {seed}, {rules.players} players, seat {game.first} plays first")
    for seat in range(rules.players):
        click.echo(f"  seat {seat}: {format_cards(game.hands[seat], symbols=symbols)}")
    click.echo(f"  table : {format_cards(game.table, symbols=symbols)}")
    pack = " ".join(format_cards(1 << card, symbols=symbols) for card in game.deck[game.dealt :])
    click.echo(f"  pack  : {pack}")


@click.command(name="rules")
@rules_options
def rules_command(**options: Any) -> None:
    """Print the rules in force, with any options applied."""
    rules = build_rules(options)
    for line in rules.describe():
        click.echo(f"- {line}")
    click.echo(f"as a record's rules: {json.dumps(rules.to_dict())}")
