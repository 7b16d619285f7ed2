"""The measuring commands: ``pasur bench`` (speed on one core) and ``pasur match`` (strength on
duplicate deals)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

import click

from .. import bench
from .common import build_rules, open_for_writing, rules_options


@click.command(name="bench")
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


@click.command(name="match")
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
@click.option(
    "--allow-faults", is_flag=True, help="exit 0 even when a bot faulted (by default: exit 3 after the report)"
)
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
    allow_faults: bool,
    **options: Any,
) -> None:
    """Play bots against each other on duplicate deals and report their strength.

    BOTS are names (random, greedy, expert, net, ismcts, pimc, solver; see pasur bots), with options
    (ismcts:iterations=2000), or exec:COMMAND. With 2 bots at 4 players, each bot takes two
    partnered seats. A game a bot loses by a fault (an illegal, late or unreadable answer) is
    reported, and the command then exits 3 unless --allow-faults.
    """
    from ..arena import Plan, Sprt, run

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
    with open_for_writing(records_path) if records_path else contextlib.nullcontext() as records:

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
    if report["faults"] and not allow_faults:
        click.echo(f"pasur: {len(report['faults'])} games lost by a bot's fault (--allow-faults to exit 0)", err=True)
        sys.exit(FAULT_STATUS)


#: The exit status of a match in which a bot faulted.
FAULT_STATUS = 3


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
