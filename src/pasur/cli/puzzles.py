"""The puzzle commands: ``pasur puzzles`` finds exact puzzles in records or self-play, ``pasur
puzzle`` asks them in the terminal."""

from __future__ import annotations

import json
import sys

import click

from ..coach.puzzles import MARGIN, PLAY_OUT_DEALS, Puzzle, find_puzzles, played_gain, read_puzzles, shipped_puzzles
from ..core import Match, Rules
from ..core.errors import RecordError
from ..core.record import from_record, load_json
from ..host import MatchHost, seat_bots
from ..i18n import LANGUAGES
from ..tui.puzzle import PlainPuzzles
from .common import open_for_writing, open_text

#: The levels that play the self-play matches puzzles are found in.
SELF_PLAY = ("solver", "pimc")


@click.command(name="puzzles")
@click.argument("records", nargs=-1, type=click.Path(allow_dash=True, dir_okay=False))
@click.option(
    "--self-play",
    type=click.IntRange(0, 1000),
    default=0,
    help="also play this many matches, grandmaster against master",
)
@click.option("--seed", type=int, default=1, show_default=True, help="seed of the first self-play match")
@click.option(
    "--margin",
    type=click.FloatRange(0.1, 50),
    default=MARGIN,
    show_default=True,
    help="points the best move must win by",
)
@click.option(
    "--most-arrangements",
    type=click.IntRange(min=1),
    default=None,
    help="leave out positions whose unseen cards may lie in more ways (34,650 at most; each takes ~0.1 ms)",
)
@click.option(
    "--play-out",
    type=click.IntRange(0, 100_000),
    default=PLAY_OUT_DEALS,
    show_default=True,
    help="keep a puzzle of the deal before the last only if its answer wins played out on N deals (0: keep all)",
)
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="write the puzzles here [standard output]")
def puzzles_command(
    records: tuple[str, ...],
    self_play: int,
    seed: int,
    margin: float,
    most_arrangements: int | None,
    play_out: int,
    out: str | None,
) -> None:
    """Find exact puzzles in 2-player records (one or many a file, JSON Lines) or self-play: the
    positions of the last two deals where one move beats every other by --margin points, every
    move's worth solved exactly from the player's view (the last deal as it lies, the deal before
    over every arrangement of the unseen cards, and then kept only if the answer also wins when
    the bot plays it out without seeing them). Writes pasur-puzzle/1 JSON Lines."""
    if not records and not self_play:
        raise click.UsageError("give RECORD files or --self-play N")
    sink = open_for_writing(out) if out else None  # refused now, not after the work
    matches = [match for file in records for match in _matches(file)] + [_self_play(seed + n) for n in range(self_play)]
    found: dict[str, Puzzle] = {}
    for match in matches:
        for puzzle in find_puzzles(match, margin, most_arrangements=most_arrangements):
            found.setdefault(puzzle.id, puzzle)
    if play_out:
        unproven = [one.id for one in found.values() if one.exact != "last_deal" and played_gain(one, play_out)[1] <= 0]
        for puzzle_id in unproven:
            del found[puzzle_id]
        click.echo(f"{len(unproven)} left out: their answer did not win when played out", err=True)
    lines = "".join(json.dumps(puzzle.to_json(), ensure_ascii=False) + "\n" for puzzle in found.values())
    if sink:
        with sink:
            sink.write(lines)
    else:
        click.echo(lines, nl=False)
    click.echo(f"{len(found)} puzzles from {len(matches)} matches", err=True)


def _matches(file: str) -> list[Match]:
    with open_text(file) as stream:
        text = stream.read()
    try:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
            return [from_record(load_json(line)) for line in lines]
        return [from_record(load_json(text))]
    except RecordError as error:
        raise click.ClickException(f"{file}: invalid record: {error}") from None


def _self_play(seed: int) -> Match:
    match = Match(Rules(), seed=seed)
    for _ in MatchHost(match, seat_bots(list(SELF_PLAY), seed)).play_bots():
        pass
    return match


@click.command(name="puzzle")
@click.argument("file", required=False, type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--difficulty", type=click.Choice(("easy", "medium", "hard")), help="only puzzles this hard")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", help="English or Persian")
def puzzle_command(file: str | None, difficulty: str | None, lang: str) -> None:
    """Solve exact puzzles from real play in the terminal: find the best move, then see every
    move's exact worth and why. FILE is pasur-puzzle/1 JSON Lines [the puzzles that come with pasur]."""
    if file is None:
        puzzles = list(shipped_puzzles())
    else:
        with open_text(file) as stream:
            try:
                puzzles = read_puzzles(stream.read())
            except ValueError as error:
                raise click.ClickException(f"{file}: {error}") from None
    chosen = [puzzle for puzzle in puzzles if difficulty in (None, puzzle.difficulty)]
    if not chosen:
        raise click.ClickException("no puzzle to ask")
    PlainPuzzles(chosen, lang, sys.stdin, sys.stdout).run()
