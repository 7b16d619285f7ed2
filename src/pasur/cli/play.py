"""The playing commands: ``pasur play`` (the terminal game), ``pasur demo`` (bots play a match)
and ``pasur bots`` (the built-in bots)."""

from __future__ import annotations

import random
import sys
from typing import Any

import click
from click.core import ParameterSource

from ..bots import BOT_DESCRIPTIONS, LEVELS
from ..bots.registry import OPEN_DESCRIPTIONS
from ..core import (
    Match,
    RecordError,
    format_cards,
)
from ..host import MatchHost, seat_bots
from ..i18n import LANGUAGES
from .common import breakdown_line, build_rules, rules_options, side_name


@click.command()
@click.argument("bots", nargs=-1)
@click.option("--seed", type=int, default=None, help="seed for the deals and the bots")
@click.option("--symbols/--letters", default=True, help="suits as ♣ ♦ ♥ ♠ or as C D H S")
@rules_options
def demo(bots: tuple[str, ...], seed: int | None, symbols: bool, **options: Any) -> None:
    """Watch bots play a whole match, move by move (default: greedy against random)."""
    rules = build_rules(options)
    names = list(bots) or ["greedy", "random"] * 2
    names = (names * rules.players)[: rules.players]
    seed = seed if seed is not None else random.randrange(1 << 32)
    try:
        host = MatchHost(Match(rules, seed=seed), seat_bots(names, seed, allow_exec=True))
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    match = host.match
    click.echo(
        f"A match of Pasur to {rules.target}, seed {seed}: "
        + ", ".join(f"seat {seat} {name}" for seat, name in enumerate(names))
    )
    while not match.over:
        game = host.round
        if not game.history:
            click.echo(
                f"\nRound {game.number} (seat {game.first} plays first), "
                f"table: {format_cards(game.table, symbols=symbols)}"
            )
        deal_before = game.deal
        played, fault = host.play_bot()
        if fault:
            click.echo(f"  ({fault}; the stand-in played)")
        shown = format_cards(played.table, symbols=symbols)
        click.echo(
            f"  seat {played.seat} {names[played.seat]:>7}: {played.move.text(symbols):<16}"
            f" table: {shown or '(empty)'}{' — Sur!' if played.sur else ''}"
        )
        if game.deal != deal_before and not game.over:
            click.echo(f"  -- deal {game.deal}")
        if played.round_over:
            if played.swept and played.sweeper is not None:
                click.echo(f"  {side_name(rules, played.sweeper)} captured last and takes {shown}")
            click.echo(f"Round {played.round} over:")
            for side, score in enumerate(played.breakdown):
                click.echo("  " + breakdown_line(rules, side, score))
            click.echo(f"  match score: {' - '.join(map(str, match.scores))}")
    click.echo(f"\n{side_name(rules, match.winner or 0)} wins the match {' - '.join(map(str, match.scores))}.")


@click.command()
@click.option("--humans", type=click.IntRange(0, 4), default=1, show_default=True, help="people at this keyboard")
@click.option(
    "--opponents",
    default="medium",
    show_default=True,
    metavar="LEVEL[,LEVEL…]",
    help="bot level for every bot seat, or one per bot seat: beginner … grandmaster, a bot name, or exec:COMMAND",
)
@click.option("--seed", type=int, default=None, help="seed for the deals and the bots")
@click.option("--fast", is_flag=True, help="no pauses between the bots' moves")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True, help="English or Persian")
@click.option("--plain", is_flag=True, help="line by line on standard input and output, no full screen")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False), help="play on from a saved game or record")
@click.option(
    "--allow-exec", is_flag=True, help="with --resume: start the programs (exec: bots) the file names without asking"
)
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="the file saving writes [pasur-save.json]")
@click.option("--theme", type=click.Choice(["dark", "light"]), default="dark", show_default=True)
@click.option(
    "--lesson", is_flag=True, help="learn to play: a first game with tips against the easy bot, on a chosen deal"
)
@rules_options
def play(
    humans: int,
    opponents: str,
    seed: int | None,
    fast: bool,
    lang: str,
    plain: bool,
    resume: str | None,
    allow_exec: bool,
    save_path: str | None,
    theme: str,
    lesson: bool,
    **options: Any,
) -> None:
    """Play Pasur against bots, or with friends at one keyboard (hot-seat).

    Full screen on a terminal: digits or arrows and Enter choose a card (and a digit picks one of
    a card's numbered captures), h asks for a hint, m types a move, s saves, t switches the
    theme, q asks before leaving. --save FILE keeps the match there when you leave and when it
    ends, so a finished match can be replayed (pasur replay FILE --view). --plain (and any run
    whose input or output is not a terminal) plays the same game line by line. --lesson is a first
    game against the easy bot whose tips tell each rule as it first arises.
    """
    from ..tui.session import DEFAULT_SAVE, LocalGame, ProgramsNamed, keep_on_hang_up, seat_plans

    if lesson:
        conflicting = [name for name in ("humans", "opponents", "resume", *options) if _given(name)]
        if conflicting:
            raise click.UsageError(
                f"--lesson is one person against the easy bot: leave out --{conflicting[0].replace('_', '-')}"
            )
    rules = build_rules(options)
    levels = [level.strip() for level in opponents.split(",") if level.strip()]
    given = _given("opponents")
    try:
        if resume:
            try:
                game = LocalGame.load(resume, levels if given else (), allow_exec=allow_exec)
            except ProgramsNamed as named:
                _agree_to_programs(resume, named.commands)
                game = LocalGame.load(resume, levels if given else (), allow_exec=True)
        elif lesson:
            game = LocalGame.first_lesson(lang, seed)
        else:
            plans = seat_plans(rules.players, humans, levels, lang)
            game = LocalGame(rules, plans, seed=seed, allow_exec=True)
    except RecordError as error:
        raise click.ClickException(f"cannot resume {resume}: {error}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise click.ClickException(f"cannot read {resume}: {error}") from None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if resume and save_path is None:
        save_path = resume  # a resumed game saves back where it came from
    game.kept_in = save_path  # kept after every move: a closed terminal loses nothing
    keep_on_hang_up(game, save_path or DEFAULT_SAVE)
    if not plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
        plain = True  # not on a terminal: a pipe, a file or a screen reader's stream
    if plain:
        from ..tui.plain import PlainGame

        PlainGame(game, lang, save_path=save_path).run()
        return
    try:
        from ..tui.app import PasurApp
    except ImportError:
        raise click.ClickException(
            "the full-screen game needs Textual: pip install 'pasur[tui]' (or play with --plain)"
        ) from None
    PasurApp.in_language(lang)(game, lang=lang, fast=fast, save_path=save_path, theme_name=theme).run()


def _given(name: str) -> bool:
    """Whether the command line gave the option ``name`` (not its default)."""
    return click.get_current_context().get_parameter_source(name) == ParameterSource.COMMANDLINE


def _agree_to_programs(path: str, commands: list[str]) -> None:
    """Show the programs a saved game would start as bots, and go on only if the person agrees
    (on a terminal); elsewhere stop and name ``--allow-exec``."""
    click.echo(f"{path} seats bots that are programs; resuming would run:", err=True)
    for command in commands:
        click.echo(f"  {command}", err=True)
    if not sys.stdin.isatty():
        raise click.ClickException("not starting them: check the commands, then resume with --allow-exec")
    if not click.confirm("Run these programs?", default=False, err=True):
        raise click.ClickException("not resumed: the programs were not started")


@click.command(name="bots")
def bots_command() -> None:
    """List the built-in bots, weakest first, with the difficulty level each plays."""
    levels = {bot: level for level, bot in LEVELS.items()}
    for name, description in BOT_DESCRIPTIONS.items():
        level = f"[{levels[name]}]" if name in levels else "[no level yet]"
        click.echo(f"{name:<8} {level} {description}")
    for name, description in OPEN_DESCRIPTIONS.items():
        click.echo(f"{name:<8} [pasur match only] {description}")
    click.echo("exec:COMMAND  any program speaking pasur-bot/1 on stdin/stdout")
