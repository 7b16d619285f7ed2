"""What several commands share: the rules options (RECORDS.md names, with dashes), reading a
record file, and how a side and its breakdown are printed."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from typing import IO, Any, TypeVar

import click

from ..core import (
    Match,
    RecordError,
    Rules,
    RulesError,
)
from ..core.record import from_record, load_json

F = TypeVar("F", bound=Callable[..., Any])


_FLAGS = ("partnership", "sur_cancel", "sur_in_last_deal", "compulsory_capture", "bury_table_jack", "redeal_on_faces")


def rules_options(command: F) -> F:
    """Add the rules options (RECORDS.md names, dashes for underscores) to a command."""
    options = [
        click.option("--players", type=click.IntRange(2, 4), help="2, 3 or 4 players [2]"),
        click.option("--target", type=click.IntRange(min=1), help="match target score [62]"),
        click.option("--sur-cutoff", type=int, help="banked score from which a side scores no Sur [50]"),
        click.option("--no-sur-cutoff", is_flag=True, help="no Sur cut-off"),
        click.option(
            "--haft-khaj",
            type=click.Choice(["seven", "most"]),
            help="7 points for 7+ clubs (seven) or for strictly the most (most) [seven]",
        ),
        click.option(
            "--rule",
            "rule_pairs",
            multiple=True,
            metavar="KEY=VALUE",
            help="any rules option by its record name, e.g. --rule sur_cancel=false",
        ),
    ]
    for flag in _FLAGS:
        dashed = flag.replace("_", "-")
        options.append(
            click.option(
                f"--{dashed}/--no-{dashed}",
                flag,
                default=None,
                help=f"{flag} rules option [{'on' if getattr(Rules(), flag) else 'off'}]",
            )
        )
    for option in reversed(options):
        command = option(command)
    return command


def build_rules(options: dict[str, Any]) -> Rules:
    """The Rules from a command's rules options; a bad value raises a one-line error."""
    values: dict[str, Any] = {}
    for pair in options.pop("rule_pairs", ()):
        key, sep, raw = pair.partition("=")
        if not sep:
            raise click.UsageError(f"--rule takes KEY=VALUE, not '{pair}'")
        values[key.strip()] = _parse_value(raw.strip())
    for key in ("players", "target", "sur_cutoff", "haft_khaj", *_FLAGS):
        if options.get(key) is not None:
            values[key] = options.pop(key)
        else:
            options.pop(key, None)
    if options.pop("no_sur_cutoff", False):
        values["sur_cutoff"] = None
    try:
        return Rules.from_dict(values)
    except (RulesError, TypeError) as error:
        raise click.UsageError(str(error)) from None


def _parse_value(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("null", "none"):
        return None
    try:
        return int(raw)
    except ValueError:
        return raw


def open_text(file: str) -> IO[str]:
    """A text file (or standard input) read as UTF-8, a byte that is not kept as a lone surrogate
    for the reader to refuse in one line (`load_json`), not raised as it is reached."""
    if file == "-":
        if isinstance(sys.stdin, io.TextIOWrapper):
            sys.stdin.reconfigure(errors="surrogateescape")
        return sys.stdin
    try:
        return open(file, encoding="utf-8", errors="surrogateescape")
    except OSError as error:
        raise click.ClickException(f"cannot read {file}: {error.strerror}") from None


def open_for_writing(file: str) -> IO[str]:
    """A text file to write as UTF-8, opened before any work is done; one line of error when it
    cannot be (a missing folder, no permission)."""
    try:
        return open(file, "w", encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot write {file}: {error.strerror}") from None


def read_match(file: str) -> Match:
    """The match of a single record file; one line of error when it is not a valid record."""
    with open_text(file) as stream:
        text = stream.read()
    try:
        return from_record(load_json(text))
    except RecordError as error:
        raise click.ClickException(f"invalid record: {error}") from None


def side_name(rules: Rules, side: int) -> str:
    if rules.sides == 2 and rules.players == 4:
        return f"seats {side}+{side + 2}"
    return f"seat {side}"


def breakdown_line(rules: Rules, side: int, score: Any) -> str:
    return (
        f"{side_name(rules, side):>10}: {score.total:>3} points  clubs {score.clubs:>2}"
        f" (+{score.haft_khaj})  2♣ +{score.two_of_clubs}  10♦ +{score.ten_of_diamonds}"
        f"  aces +{score.aces}  jacks +{score.jacks}  Surs {score.surs} (+{score.sur_points})"
        f"  cards {score.cards}"
    )
