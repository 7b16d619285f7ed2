"""The ``pasur`` command: a thin shell over the engine."""

from __future__ import annotations

import contextlib
import itertools
import json
import multiprocessing
import os
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, TypeVar

import click
from click.core import ParameterSource

from . import bench
from .bots import BOT_DESCRIPTIONS, LEVELS
from .bots.analysis import MISTAKE, MoveJudgement, analysis_tasks, judge_move, players_summary, rounds_summary
from .bots.registry import OPEN_DESCRIPTIONS
from .core import (
    Card,
    DeckError,
    Match,
    RecordError,
    Round,
    Rules,
    RulesError,
    format_cards,
    native,
)
from .core.record import from_record, load_json, replay_line, summarize
from .core.solver import DEFAULT_TABLE_MB, SolveError, solve
from .host import MatchHost, seat_bots
from .i18n import LANGUAGES

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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pasur", message=f"%(prog)s %(version)s ({native.ENGINE} engine)")
def cli() -> None:
    """Pasur (Chahar Barg): replay records, show deals and rules, watch bots, measure speed."""


@cli.command()
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
@click.option(
    "--samples", type=click.IntRange(2, 10_000), default=32, show_default=True, help="with --analyze: deals a move"
)
def replay(
    file: str,
    as_json: bool,
    jobs: int | None,
    view: bool,
    plain: bool,
    lang: str,
    record_number: int,
    analyze: bool,
    samples: int,
) -> None:
    """Check a pasur-record/1 file against the rules and print the result.

    A .jsonl file, or - for standard input, holds one record a line; each gets one line out,
    in order (standard input may also hold one record over many lines, as a saved game does).
    Exits 1 if any record is invalid. --view steps through one record move by move (--record N
    picks one of many).
    """
    stream = _open_text(file)
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
        judgements = None
        if analyze:
            try:
                tasks = analysis_tasks(match, None, seed=1)
            except SolveError as error:
                raise click.ClickException(str(error)) from None
            judgements = {(one.round, one.move): one for one in _judge_moves(tasks, samples, jobs, progress=True)}
        _view_record(match, record, plain, lang, judgements)
        return
    summary = summarize(match)
    if as_json:
        click.echo(json.dumps(summary.to_json()))
        return
    for number, game in enumerate((game for game in match.rounds if game.over), start=1):
        click.echo(f"round {number}")
        for side, score in enumerate(game.breakdown()):
            click.echo("  " + _breakdown_line(match.rules, side, score))
    over = f"side {match.winner} wins" if match.winner is not None else "match not finished"
    click.echo(f"scores {' - '.join(map(str, match.scores))}: {over}")


def _first_record_line(stream: IO[str]) -> tuple[str, bool]:
    """The first non-blank line of a stream, and whether it is a whole JSON value (a line of
    JSON Lines, or a record on one line) rather than the start of one record over many lines."""
    for line in stream:
        if line.strip():
            try:
                json.loads(line)
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
        from .tui.replay import RecordSteps, describe_step

        steps = RecordSteps(match, judgements)
        for index in range(len(steps)):
            click.echo("\n".join(describe_step(steps.step(index), names, lang)) + "\n")
        return
    try:
        from .tui.replay import ReplayApp
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


def _open_text(file: str) -> IO[str]:
    if file == "-":
        return sys.stdin
    try:
        return open(file, encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot read {file}: {error.strerror}") from None


def _replay_line(result: dict[str, Any]) -> str:
    if "error" in result:
        error = result["error"]
        return f"invalid: round {error['round']} move {error['move']}: {error['message']}"
    state = f"side {result['winner']} wins" if result["over"] else "not finished"
    return f"scores {' - '.join(map(str, result['scores']))} after {len(result['rounds'])} rounds: {state}"


def _side_name(rules: Rules, side: int) -> str:
    if rules.sides == 2 and rules.players == 4:
        return f"seats {side}+{side + 2}"
    return f"seat {side}"


def _breakdown_line(rules: Rules, side: int, score: Any) -> str:
    return (
        f"{_side_name(rules, side):>10}: {score.total:>3} points  clubs {score.clubs:>2}"
        f" (+{score.haft_khaj})  2♣ +{score.two_of_clubs}  10♦ +{score.ten_of_diamonds}"
        f"  aces +{score.aces}  jacks +{score.jacks}  Surs {score.surs} (+{score.sur_points})"
        f"  cards {score.cards}"
    )


@cli.command()
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


@cli.command(name="rules")
@rules_options
def rules_command(**options: Any) -> None:
    """Print the rules in force, with any options applied."""
    rules = build_rules(options)
    for line in rules.describe():
        click.echo(f"- {line}")
    click.echo(f"as a record's rules: {json.dumps(rules.to_dict())}")


@cli.command(name="bench")
@click.option(
    "--seconds", type=click.FloatRange(min=0.1), default=2.0, show_default=True, help="how long to play random rounds"
)
@click.option(
    "--records",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="how many random match records to replay",
)
@click.option("--no-bots", is_flag=True, help="skip timing the bots")
@click.option(
    "--env-players", type=click.IntRange(2, 4), default=2, show_default=True, help="players in the timed environment"
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
def bench_command(seconds: float, records: int, no_bots: bool, env_players: int, as_json: bool) -> None:
    """Measure on one core: random 2-player rounds/s, replay speed, each bot's decisions, and the
    PettingZoo environment against the engine."""
    figures = bench.run(seconds, records, bots=not no_bots, env_players=env_players)
    if as_json:
        click.echo(json.dumps(figures))
        return
    click.echo(f"engine         : {figures['engine']} (PASUR_ENGINE=python forces the pure-Python one)")
    click.echo(f"random playouts: {figures['rounds_per_second']:,} complete 2-player rounds/s (one core)")
    if "native_rounds_per_second" in figures:
        speedup = figures["native_rounds_per_second"] / figures["python_rounds_per_second"]
        click.echo(
            f"  native {figures['native_rounds_per_second']:,}/s ({figures['native_ns_per_move']} ns a move), "
            f"pure Python {figures['python_rounds_per_second']:,}/s: {speedup:.0f}×"
        )
    click.echo(
        f"replay         : {figures['replay_records_per_second']:,} match records/s, "
        f"{figures['replay_moves_per_second']:,} moves/s"
    )
    if "solver" in figures:
        solver = figures["solver"]
        click.echo(
            f"exact solver   : whole 2-player deals from the first move, median {solver['median_ms']:.1f} ms, "
            f"95% {solver['p95_ms']:.1f} ms, largest {solver['max_ms']:.1f} ms over {solver['positions']} deals; "
            f"{solver['nodes_per_second']:,} nodes/s"
        )
    for name, speed in figures.get("bots", {}).items():
        click.echo(
            f"bot {name:<11}: {speed['decisions_per_second']:>10,.1f} decisions/s, median {speed['median_ms']:.3f} ms"
        )
    if "vector_env" in figures:
        vector = figures["vector_env"]
        click.echo(
            f"vector env     : {vector['num_envs']} episodes stepped natively, {vector['vector_steps_per_second']:,} "
            f"steps/s; the Gymnasium env {vector['single_steps_per_second']:,} steps/s ({vector['speedup']}×; "
            "greedy opponents, random legal actions)"
        )
    if "pettingzoo" in figures:
        environment = figures["pettingzoo"]
        click.echo(
            f"PettingZoo env : {env_players} players, {environment['steps_per_second']:,} steps/s, "
            f"{environment['moves_per_second']:,} moves/s (observe, then step); a move costs, against the engine's"
        )
        for loop, words in (
            ("with_view", "view, legal moves, play (masks, legal_codes, play_code)"),
            ("playout", "same without the view (legal_codes, play_code)"),
            ("checked", "checked Move API (legal_moves, play)"),
        ):
            click.echo(
                f"  {words:<56}: {environment[f'cost_per_{loop}_move']:>5}x "
                f"({environment[f'engine_{loop}_moves_per_second']:,} moves/s)"
            )


@cli.command()
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
                click.echo(f"  {_side_name(rules, played.sweeper)} captured last and takes {shown}")
            click.echo(f"Round {played.round} over:")
            for side, score in enumerate(played.breakdown):
                click.echo("  " + _breakdown_line(rules, side, score))
            click.echo(f"  match score: {' - '.join(map(str, match.scores))}")
    click.echo(f"\n{_side_name(rules, match.winner or 0)} wins the match {' - '.join(map(str, match.scores))}.")


@cli.command()
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
    **options: Any,
) -> None:
    """Play Pasur against bots, or with friends at one keyboard (hot-seat).

    Full screen on a terminal: digits or arrows and Enter choose a card (and a digit picks one of
    a card's numbered captures), h asks for a hint, m types a move, s saves, t switches the
    theme, q asks before leaving. --save FILE keeps the match there when you leave and when it
    ends, so a finished match can be replayed (pasur replay FILE --view). --plain (and any run
    whose input or output is not a terminal) plays the same game line by line.
    """
    from .tui.session import LocalGame, ProgramsNamed, seat_plans

    rules = build_rules(options)
    levels = [level.strip() for level in opponents.split(",") if level.strip()]
    given = click.get_current_context().get_parameter_source("opponents") == ParameterSource.COMMANDLINE
    try:
        if resume:
            try:
                game = LocalGame.load(resume, levels if given else (), allow_exec=allow_exec)
            except ProgramsNamed as named:
                _agree_to_programs(resume, named.commands)
                game = LocalGame.load(resume, levels if given else (), allow_exec=True)
        else:
            plans = seat_plans(rules.players, humans, levels, lang)
            game = LocalGame(rules, plans, seed=seed, allow_exec=True)
    except RecordError as error:
        raise click.ClickException(f"cannot resume {resume}: {error}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise click.ClickException(f"cannot read {resume}: {error}") from None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if not plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
        plain = True  # not on a terminal: a pipe, a file or a screen reader's stream
    if plain:
        from .tui.plain import PlainGame

        PlainGame(game, lang, save_path=save_path).run()
        return
    try:
        from .tui.app import PasurApp
    except ImportError:
        raise click.ClickException(
            "the full-screen game needs Textual: pip install 'pasur[tui]' (or play with --plain)"
        ) from None
    PasurApp.in_language(lang)(game, lang=lang, fast=fast, save_path=save_path, theme_name=theme).run()


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


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="the address to listen on")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--database",
    default=None,
    metavar="URL",
    help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/pasur [sqlite:///pasur-server.db]",
)
@click.option(
    "--bot-pause", type=click.FloatRange(0, 10), default=0.7, show_default=True, help="seconds before a bot moves"
)
@click.option(
    "--tables-per-minute",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="new tables one address may create",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="a host name visitors reach this server by (repeat for more; * for any) [the --host and localhost]",
)
@click.option(
    "--bot-ms", type=click.IntRange(10, 60_000), default=250, show_default=True, help="most a bot thinks a move"
)
@click.option(
    "--bot-workers",
    type=click.IntRange(1, 64),
    default=None,
    help="processes for the searching bots [one fewer than the cores, at least 1]",
)
@click.option(
    "--bots",
    "extra_levels",
    multiple=True,
    metavar="LEVEL=SPEC",
    help="offer another level, a built-in bot with options (e.g. champion=solver:samples=1024); never a program",
)
@click.option(
    "--connections-per-address", type=click.IntRange(1), default=32, show_default=True, help="open connections"
)
@click.option("--spectators", type=click.IntRange(0), default=20, show_default=True, help="spectators a table admits")
@click.option(
    "--messages-per-second",
    type=click.IntRange(1),
    default=50,
    show_default=True,
    help="WebSocket messages one address may send",
)
@click.option("--upgrade", is_flag=True, help="bring an older database's schema forward first (as pasur db upgrade)")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="server processes on this port (more than 1 needs PostgreSQL)",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    bot_pause: float,
    tables_per_minute: int,
    allowed_hosts: tuple[str, ...],
    bot_ms: int,
    bot_workers: int | None,
    extra_levels: tuple[str, ...],
    connections_per_address: int,
    spectators: int,
    messages_per_second: int,
    upgrade: bool,
    workers: int,
) -> None:
    """Serve the web game: tables against bots or with friends, in the browser.

    Visitors are trusted with nothing: they choose bots by level, every request and message is
    bounded, and the limits are the options below (README, "Security")."""
    try:
        import uvicorn

        from .server.app import create_app
        from .server.guard import guarded_http
        from .server.schema import SchemaMismatch
        from .server.settings import ServerSettings
        from .server.store import DEFAULT_DATABASE
    except ImportError:
        raise click.ClickException("the web server needs its extra: pip install 'pasur[web]'") from None
    levels = {}
    for entry in extra_levels:
        level, sep, spec = entry.partition("=")
        if not sep or not level.strip() or not spec.strip():
            raise click.UsageError(f"--bots takes LEVEL=SPEC, as champion=solver:samples=1024, not {entry!r}")
        levels[level] = spec  # server_levels tidies and checks both
    settings = ServerSettings(
        allowed_hosts=allowed_hosts or tuple(dict.fromkeys((host, "127.0.0.1", "localhost", "::1"))),
        bot_delay=bot_pause,
        bot_ms=bot_ms,
        bot_workers=bot_workers or max(1, (os.cpu_count() or 2) - 1),
        extra_levels=levels,
        tables_per_minute=tables_per_minute,
        connections_per_address=connections_per_address,
        spectators_per_table=spectators,
        messages_per_second=messages_per_second,
    )
    try:
        from .server.bots import server_levels

        server_levels(settings.bot_ms, settings.extra_levels)
    except ValueError as error:
        raise click.UsageError(f"--bots: {error}") from None
    from sqlalchemy.exc import SQLAlchemyError

    from .server.store import Store

    url = database or DEFAULT_DATABASE
    try:
        store = Store(url, upgrade)  # the schema checked (and upgraded) once, before any worker starts
        shared = store.shared
        store.close()
        app = create_app(url, settings) if workers == 1 else None
    except SchemaMismatch as error:
        raise click.ClickException(str(error)) from None
    except (SQLAlchemyError, ImportError, ValueError, OSError) as error:  # a bad URL, no driver, no database
        raise _cannot_open(error) from None
    if workers > 1 and not shared:
        raise click.UsageError(
            "--workers: with SQLite one process is the limit; give --database postgresql+psycopg://… to serve from more"
        )
    options: dict[str, Any] = {
        "log_level": "warning",
        "http": guarded_http(settings),
        "ws_max_size": settings.body_bytes,  # larger than a message may be: those are refused in words
        "ws_per_message_deflate": False,  # states are a few KB: compressing each cost more than it saved
        "timeout_keep_alive": 5,
    }
    processes = f" by {workers} processes" if workers > 1 else ""
    click.echo(f"Pasur is being served at http://{host}:{port}/{processes} (Ctrl-C stops it)")
    if not allowed_hosts and host in ("0.0.0.0", "::"):
        click.echo("Only localhost names are answered: give --allowed-host with the name visitors use.", err=True)
    if app is not None:
        _set_aside_from_collector()
        uvicorn.run(app, host=host, port=port, **options)
        return
    from .server.workers import serve_in_processes

    def serve_one(listening: Any) -> None:
        one = create_app(url, settings)
        _set_aside_from_collector()
        uvicorn.Server(uvicorn.Config(one, **options)).run(sockets=[listening])

    serve_in_processes(workers, host, port, serve_one)


def _set_aside_from_collector() -> None:
    """Tune the cyclic garbage collector for a server: what it built to start (its modules, the
    tables it restored) is set aside from every pass, and a pass waits for 50,000 new objects
    instead of 700. Each full pass stopped every table here for 40-130 ms under load; now such
    passes are rare and look only at what play made (docs/DEPLOY.md)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)


def _cannot_open(error: Exception) -> click.ClickException:
    """A database that cannot be used, said in one line (SQLAlchemy's messages go on with the SQL
    and a link)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    return click.ClickException(f"cannot open the database: {lines[0] if lines else type(cause).__name__}")


@cli.group(name="db")
def db() -> None:
    """The web server's database: its schema version, and upgrades."""


def _database_engine(database: str | None) -> Any:
    """An engine over ``database`` (the server's default when None), or a one-line error."""
    try:
        from sqlalchemy import create_engine

        from .server.store import DEFAULT_DATABASE

        return create_engine(database or DEFAULT_DATABASE)
    except ImportError:
        raise click.ClickException("the database needs the web extra: pip install 'pasur[web]'") from None
    except ValueError as error:  # sqlalchemy.exc.ArgumentError: not a URL
        raise _cannot_open(error) from None


DATABASE_OPTION = click.option(
    "--database", default=None, metavar="URL", help="SQLAlchemy URL [sqlite:///pasur-server.db]"
)


@db.command(name="upgrade")
@DATABASE_OPTION
def db_upgrade(database: str | None) -> None:
    """Bring the database's schema to this pasur's version, keeping every table (back it up first)."""
    from sqlalchemy.exc import SQLAlchemyError

    from .server.schema import SchemaMismatch, upgrade_schema

    engine = _database_engine(database)
    try:
        before, after = upgrade_schema(engine)
    except SchemaMismatch as error:
        raise click.ClickException(str(error)) from None
    except (SQLAlchemyError, OSError) as error:
        raise _cannot_open(error) from None
    finally:
        engine.dispose()
    if before == after:
        click.echo(f"the database is at schema version {after} already")
    else:
        click.echo(f"the database's schema went from version {before or '(empty)'} to {after}")


@db.command(name="version")
@DATABASE_OPTION
def db_version(database: str | None) -> None:
    """Say the database's schema version and this pasur's."""
    from sqlalchemy.exc import SQLAlchemyError

    from .server.schema import database_version, head_version

    engine = _database_engine(database)
    try:
        with engine.connect() as connection:
            found = database_version(connection)
    except (SQLAlchemyError, OSError) as error:
        raise _cannot_open(error) from None
    finally:
        engine.dispose()
    click.echo(f"database: {found or '(empty)'}; this pasur: {head_version()}")


@cli.command(name="solve")
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
    "--move", "move_number", type=click.IntRange(min=0), default=0, help="with RECORD: after this many moves [0]"
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
    --move. Two sides only: 2 players, or 4 in partnership.
    """
    if (record is None) == (deck is None):
        raise click.UsageError("give a RECORD file or --deck, one of the two")
    if record is not None:
        if scores is not None or any(value not in (None, False, ()) for value in options.values()):
            raise click.UsageError("a record carries its own rules and scores: give --deck to set them")
        game = _record_position(record, round_number, move_number)
    else:
        if move_number:
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


def _read_match(file: str) -> Match:
    """The match of a single record file; one line of error when it is not a valid record."""
    with _open_text(file) as stream:
        text = stream.read()
    try:
        return from_record(load_json(text))
    except RecordError as error:
        raise click.ClickException(f"invalid record: {error}") from None


def _record_position(file: str, round_number: int | None, move_number: int) -> Round:
    """The position after ``move_number`` moves of a round of a record."""
    match = _read_match(file)
    if not match.rounds:
        raise click.ClickException("the record has no round")
    number = round_number or len(match.rounds)
    if number > len(match.rounds):
        raise click.ClickException(f"the record has {len(match.rounds)} rounds, not {number}")
    recorded = match.rounds[number - 1]
    if move_number > len(recorded.history):
        raise click.ClickException(f"round {number} has {len(recorded.history)} moves, not {move_number}")
    game = Round(match.rules, recorded.deck, recorded.number, recorded.banked, check_deck=False)
    for code in recorded.history[:move_number]:
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


@cli.command(name="analyze")
@click.argument("record", type=click.Path(allow_dash=True, dir_okay=False))
@click.option(
    "--seat", "seats", type=click.IntRange(0, 3), multiple=True, help="a seat to judge (again for more) [all]"
)
@click.option("--samples", type=click.IntRange(2, 10_000), default=32, show_default=True, help="solved deals a move")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="worker processes [all cores]")
@click.option("--seed", type=int, default=1, show_default=True, help="seed of the sampled deals")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
def analyze_command(
    record: str, seats: tuple[int, ...], samples: int, jobs: int | None, seed: int, as_json: bool
) -> None:
    """Judge every move of a record from the mover's view only: the expected final round points
    (side minus other side) of each legal move over sampled deals solved exactly, the best move,
    and what the move played lost, with its 95% interval; then a summary per round and player.
    With 3 players, or 4 each for themselves: the mover's points minus the others' average."""
    match = _read_match(record)
    if any(seat >= match.rules.players for seat in seats):
        raise click.UsageError(f"--seat: this record has seats 0 to {match.rules.players - 1}")
    try:
        tasks = analysis_tasks(match, seats or None, seed)
    except SolveError as error:
        raise click.ClickException(str(error)) from None
    judgements = _judge_moves(tasks, samples, jobs, progress=not as_json)
    players, rounds = players_summary(judgements), rounds_summary(judgements)
    if as_json:
        click.echo(json.dumps({"moves": [one.to_json() for one in judgements], "players": players, "rounds": rounds}))
        return
    for one in judgements:
        if one.verdict != "good":
            low, high = one.loss_interval
            click.echo(
                f"round {one.round} move {one.move:>2} seat {one.seat}: {one.played:<12} {one.verdict:<10} "
                f"loses {one.loss:.2f} [{low:.2f}, {high:.2f}]; best {one.best}"
            )
    for row in players:
        largest = row["largest"]
        click.echo(
            f"seat {row['seat']}: {row['moves']} moves, mean loss {row['mean_loss']:.2f} a move, "
            f"{row['mistakes']} mistakes (over {MISTAKE:g} point), {row['inaccuracies']} inaccuracies; largest "
            f"{largest['loss']:.2f} (round {largest['round']} move {largest['move']}, {largest['played']})"
        )


def _judge_moves(tasks: list[Any], samples: int, jobs: int | None, progress: bool) -> list[MoveJudgement]:
    """Judge every move over ``jobs`` processes (all cores), with a progress bar on a terminal."""
    with multiprocessing.get_context("spawn").Pool(jobs or os.cpu_count() or 1) as pool:
        judged = pool.imap(_judge_one, [(task, samples) for task in tasks])
        if progress and sys.stderr.isatty():
            with click.progressbar(judged, length=len(tasks), label="judging moves", file=sys.stderr) as bar:
                return list(bar)
        return list(judged)


def _judge_one(item: tuple[Any, int]) -> MoveJudgement:
    return judge_move(*item)


@cli.command(name="bots")
def bots_command() -> None:
    """List the built-in bots, weakest first, with the difficulty level each plays."""
    levels = {bot: level for level, bot in LEVELS.items()}
    for name, description in BOT_DESCRIPTIONS.items():
        level = f"[{levels[name]}]" if name in levels else "[no level yet]"
        click.echo(f"{name:<8} {level} {description}")
    for name, description in OPEN_DESCRIPTIONS.items():
        click.echo(f"{name:<8} [pasur match only] {description}")
    click.echo("exec:COMMAND  any program speaking pasur-bot/1 on stdin/stdout")


@cli.command(name="match")
@click.argument("bots", nargs=-1, required=True)
@click.option(
    "--rounds", type=click.IntRange(min=1), default=200, show_default=True, help="deals to play, each from every seat"
)
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="worker processes [all cores]")
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="local processes, or a Ray cluster (RAY_ADDRESS; else a local Ray)",
)
@click.option(
    "--sprt",
    nargs=2,
    type=float,
    default=None,
    metavar="ELO0 ELO1",
    help="stop as soon as H0 (elo0) or H1 (elo1) is accepted (two bots)",
)
@click.option(
    "--records",
    "records_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="write every game as pasur-record/1 JSON Lines",
)
@click.option("--seed", type=int, default=1, show_default=True, help="seed of the deals and bots")
@click.option(
    "--move-time",
    type=click.FloatRange(min=0.01),
    default=10.0,
    show_default=True,
    help="seconds an exec: bot has for each answer",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@rules_options
def match_command(
    bots: tuple[str, ...],
    rounds: int,
    jobs: int | None,
    backend: str,
    sprt: tuple[float, float] | None,
    records_path: str | None,
    seed: int,
    move_time: float,
    as_json: bool,
    **options: Any,
) -> None:
    """Play bots against each other on duplicate deals and report their strength.

    BOTS are names (random, greedy, expert, ismcts, pimc, solver; see pasur bots), with options
    (ismcts:iterations=2000), or exec:COMMAND. With 2 bots at 4 players, each bot takes two
    partnered seats.
    """
    from .arena import Plan, Sprt, run

    named_players = any(pair.strip().startswith("players=") for pair in options["rule_pairs"])
    if options["players"] is None and not named_players and 2 <= len(bots) <= 4:
        options["players"] = len(bots)
    rules = build_rules(options)
    try:
        plan = Plan(
            tuple(bots),
            rules,
            rounds=rounds,
            seed=seed,
            records=records_path is not None,
            sprt=Sprt(*sprt) if sprt else None,
            move_timeout=move_time,
        )  # the plan checks every bot's name and options before any game starts
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    show_progress = sys.stderr.isatty()
    with open(records_path, "w", encoding="utf-8") if records_path else contextlib.nullcontext() as records:

        def on_set(tally: Any, results: list[Any]) -> None:
            for game in results:
                if records is not None:
                    records.write(json.dumps(game.record) + "\n")
                if game.fault:
                    click.echo(f"fault: set {game.set_index} rotation {game.rotation}: {game.fault}", err=True)
            if show_progress:
                click.echo(f"\r{_progress(tally, rounds)}", nl=False, err=True)

        tally, interrupted = run(plan, jobs or os.cpu_count() or 1, backend, on_set)
    if show_progress:
        click.echo("", err=True)
    report = tally.report(interrupted)
    if as_json:
        click.echo(json.dumps(report))
    else:
        _print_report(report)
    if interrupted:
        sys.exit(130)


def _progress(tally: Any, target: int) -> str:
    done = min(1.0, tally.rounds / target)
    bar = "#" * int(30 * done) + "-" * (30 - int(30 * done))
    return f"[{bar}] {tally.rounds:.0f}/{target} rounds, {tally.games} games"


def _print_report(report: dict[str, Any]) -> None:
    def fmt(value: float | None, signed: bool = False) -> str:
        return "n/a" if value is None else (f"{value:+.2f}" if signed else f"{value:.3f}")

    click.echo(
        f"{report['games']} games, {report['rounds']:.0f} rounds (each from every seat), "
        f"{report['sets']} duplicate sets" + (" — interrupted" if report["interrupted"] else "")
    )
    click.echo(f"{'bot':<28} {'points/round':>13} {'95% interval':>18} {'match wins':>11} {'95% interval':>16}")
    for bot in report["bots"]:
        low, high = bot["ci95"]
        wlow, whigh = bot["win_rate_ci95"]
        click.echo(
            f"{bot['name']:<28} {fmt(bot['points_per_round'], True):>13} "
            f"{'[' + fmt(low, True) + ', ' + fmt(high, True) + ']':>18} {fmt(bot['win_rate']):>11} "
            f"{'[' + fmt(wlow) + ', ' + fmt(whigh) + ']':>16}"
        )
    if "elo" in report:
        elo = report["elo"]
        low, high = elo["ci95"]
        click.echo(f"Elo difference (first bot): {fmt(elo['diff'], True)} [{fmt(low, True)}, {fmt(high, True)}]")
    if "sprt" in report:
        sprt = report["sprt"]
        verdict = {"H0": "H0 accepted", "H1": "H1 accepted", None: "no verdict yet"}[sprt["verdict"]]
        click.echo(
            f"SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g}: LLR {sprt['llr']:.2f} "
            f"in [{sprt['bounds'][0]:.2f}, {sprt['bounds'][1]:.2f}]: {verdict}"
        )
    if report["faults"]:
        click.echo(f"{len(report['faults'])} games lost by a fault; the first: {report['faults'][0]}")


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
    except Exception as error:
        if os.environ.get("PASUR_DEBUG"):
            raise
        click.echo(f"pasur: internal error: {type(error).__name__}: {error} (set PASUR_DEBUG=1 for details)", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
