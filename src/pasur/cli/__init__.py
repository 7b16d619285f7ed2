"""The ``pasur`` command: a thin shell over the engine, one module a command family (records,
analysis, play, serve, measure) over the options they share (`common`)."""

from __future__ import annotations

import os
import sys

import click

from ..core import native
from ..core.errors import MissingExtra
from .analysis import analyze_command, solve_command
from .measure import bench_command, match_command
from .play import bots_command, demo, play
from .puzzles import puzzle_command, puzzles_command
from .records import deal, replay, rules_command
from .serve import db, serve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pasur", message=f"%(prog)s %(version)s ({native.ENGINE} engine)")
def cli() -> None:
    """Pasur (Chahar Barg): replay records, show deals and rules, watch bots, measure speed."""


for command in (
    replay,
    deal,
    rules_command,
    bench_command,
    demo,
    play,
    serve,
    db,
    solve_command,
    analyze_command,
    bots_command,
    match_command,
    puzzles_command,
    puzzle_command,
):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """Run the command; every error is one line on stderr and a non-zero status."""
    try:
        cli.main(args=argv, prog_name="pasur", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        click.echo(f"pasur: error: {error.format_message()}", err=True)
        sys.exit(error.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("pasur: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    except MissingExtra as error:
        click.echo(f"pasur: error: {error}", err=True)
        sys.exit(1)
    except Exception as error:
        if os.environ.get("PASUR_DEBUG"):
            raise
        click.echo(f"pasur: internal error: {type(error).__name__}: {error} (set PASUR_DEBUG=1 for details)", err=True)
        sys.exit(1)
