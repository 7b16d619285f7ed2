"""``python -m pasur.train``: make targets with the solver, fit the ``net`` bot's network to them.

python -m pasur.train targets --positions 60000 --out build/train/targets.jsonl.gz
python -m pasur.train fit build/train/targets.jsonl.gz --out build/train/net-2p.npz
python -m pasur.train onnx --out build/train/net-2p.onnx
python -m pasur.train reproduce    # both rounds of the shipped weights, from nothing
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..core import Rules
from ..core.errors import MissingExtra
from ..core.rules import TABLES

if TYPE_CHECKING:
    from ..bots.net import Network


def load_weights(path: Path | None) -> Network:
    """The network in a weights file (the shipped one for None), or the one-line reason it cannot
    be read (a missing NumPy: the commands' group says it)."""
    from ..bots.net import Network

    try:
        return Network.load(path)
    except ValueError as error:
        raise click.ClickException(str(error)) from None


class _Commands(click.Group):
    """The commands, each refusing in one line when an extra it needs is missing (as ``pasur``'s
    own commands do)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MissingExtra as missing:
            raise click.ClickException(str(missing)) from None


@click.group(cls=_Commands)
def main() -> None:
    """Train the net bot: targets from the solver, then a network fitted to them."""


@main.command()
@click.option("--positions", type=click.IntRange(1, 10_000_000), default=60_000, show_default=True)
@click.option("--samples", type=click.IntRange(1, 4096), default=128, show_default=True, help="solved deals a decision")
@click.option("--explore", type=click.FloatRange(0, 1), default=0.1, show_default=True, help="chance of a random move")
@click.option("--jobs", type=click.IntRange(1, 256), default=os.cpu_count() or 1, show_default="every core")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--table",
    type=click.Choice(sorted(TABLES)),
    default="2",
    show_default=True,
    help="2 or 3 players, 4 in partnership or 4 each for themselves",
)
@click.option(
    "--player",
    type=click.Choice(["solver", "net"]),
    default="solver",
    show_default=True,
    help="who chooses the moves played (solver's best, or net's: see --net-weights)",
)
@click.option(
    "--net-weights",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="the weights --player net plays with [the shipped ones]",
)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def targets(
    positions: int,
    samples: int,
    explore: float,
    jobs: int,
    seed: int,
    table: str,
    player: str,
    net_weights: Path | None,
    out: Path,
) -> None:
    """Play rounds with solver in every seat and write each decision's move values (pasur-targets/1)."""
    from ..core import native
    from .targets import Plan, generate

    if not native.available():
        raise click.ClickException("making targets needs the native core (install with a C compiler)")
    out.parent.mkdir(parents=True, exist_ok=True)
    if net_weights is not None and player != "net":
        raise click.UsageError("--net-weights is for --player net")
    weights = ""
    if net_weights is not None:
        load_weights(net_weights)  # refused here, before any process starts
        weights = str(net_weights.resolve())
    plan = Plan(TABLES[table], samples=samples, explore=explore, seed=seed, player=player, weights=weights)
    began = time.perf_counter()
    with click.progressbar(length=positions, label="positions", file=sys.stderr) as bar:
        written = generate(plan, positions, out, jobs, bar.update)
    seconds = time.perf_counter() - began
    click.echo(f"{written} positions in {seconds:.0f} s ({written / seconds:.0f} a second, {jobs} processes) -> {out}")


@main.command()
@click.argument("data", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="the weights (.npz)")
@click.option("--epochs", type=click.IntRange(1, 1000), default=12, show_default=True)
@click.option("--hidden", type=click.IntRange(1, 4096), default=256, show_default=True, help="first layer's units")
@click.option("--second", type=click.IntRange(1, 4096), default=64, show_default=True, help="second layer's units")
@click.option("--limit", type=click.IntRange(1), default=None, help="read at most this many positions")
@click.option("--rate", type=click.FloatRange(0, 1, min_open=True), default=1e-3, show_default=True, help="Adam's")
@click.option(
    "--start",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="train these weights further (.npz; their sizes stand) instead of new ones",
)
@click.option(
    "--policy", type=click.FloatRange(0), default=0.0, show_default=True, help="weight of the moves' cross-entropy"
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None, help="the loss curves (.png)")
def fit(
    data: tuple[Path, ...],
    out: Path,
    epochs: int,
    hidden: int,
    second: int,
    limit: int | None,
    rate: float,
    start: Path | None,
    policy: float,
    seed: int,
    plot: Path | None,
) -> None:
    """Fit the net bot's network to targets files (DATA...) and write its weights."""
    if importlib.util.find_spec("torch") is None:  # said before reading, which may take minutes
        raise MissingExtra("python -m pasur.train fit (torch)", "train")
    from .positions import load_positions  # NumPy alone: a bad file is refused without loading torch

    began = time.perf_counter()
    started = load_weights(start) if start is not None else None
    try:
        headers, positions = load_positions(data, limit)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    from . import fit as fitting

    if started is not None:
        hidden, second = started.w1.shape[1], started.w2.shape[1]
    click.echo(
        f"{positions.count} positions, {len(positions.values)} moves, read in {time.perf_counter() - began:.0f} s"
    )
    settings = fitting.Settings(hidden=hidden, second=second, epochs=epochs, rate=rate, policy=policy, seed=seed)

    def report(entry: dict[str, float]) -> None:
        click.echo(
            f"epoch {entry['epoch']:>3}: loss {entry['train_loss']:.3f}, held-out {entry['held_loss']:.3f}, "
            f"picks a best move {entry['agreement']:.1%}, gives up {entry['points_lost']:.3f} points a decision"
        )

    tables = {Rules.from_dict(header["rules"]).table for header in headers}
    if len(tables) != 1 or (started is not None and started.meta.get("table", "2") not in tables):
        raise click.ClickException("the targets (and --start's weights) must all be of one table")
    meta: dict[str, Any] = {
        "table": tables.pop(),
        "targets": [
            {key: header.get(key) for key in ("samples", "horizon", "explore", "seed", "player")} for header in headers
        ],
        "positions": positions.count,
    }
    if started is not None:  # what the start was trained on comes first
        meta = {
            "table": meta["table"],
            "targets": [*started.meta.get("targets", []), *meta["targets"]],
            "positions": started.meta.get("positions", 0) + positions.count,
            "started_from": str(start),
        }
    fitted = fitting.fit(positions, settings, meta, report, started)
    out.parent.mkdir(parents=True, exist_ok=True)
    fitted.network.save(out)
    fitting.write_history(fitted.history, out.with_suffix(".json"))
    if plot is not None:
        title = f"net: {positions.count} positions, {hidden} and {second} hidden units"
        fitting.plot_history(fitted.history, plot, title, settings.policy)
    click.echo(f"fitted in {time.perf_counter() - began:.0f} s -> {out}")


@main.command()
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("build/train/reproduce"),
    show_default=True,
    help="where the targets, weights and loss curves go",
)
@click.option("--positions", type=click.IntRange(1, 10_000_000), default=580_000, show_default=True, help="round 1's")
@click.option("--own-play", type=click.IntRange(1, 10_000_000), default=540_000, show_default=True, help="round 2's")
@click.option("--samples", type=click.IntRange(1, 4096), default=32, show_default=True, help="solved deals a decision")
@click.option("--jobs", type=click.IntRange(1, 256), default=os.cpu_count() or 1, show_default="every core")
@click.option(
    "--policy", type=click.FloatRange(0), default=1.0, show_default=True, help="both fits' (see fit --policy)"
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--table", type=click.Choice(sorted(TABLES)), default="2", show_default=True, help="as targets'")
@click.pass_context
def reproduce(
    ctx: click.Context,
    folder: Path,
    positions: int,
    own_play: int,
    samples: int,
    jobs: int,
    policy: float,
    seed: int,
    table: str,
) -> None:
    """Make the net bot's weights from nothing, in the shipped weights' two rounds.

    Round 1: solver's own play, fitted 12 epochs. Round 2: round 1's network playing (still valued
    by solver), fitted 4 more epochs from round 1's weights. Writes FOLDER/net-2p.npz (net-3p.npz,
    net-4p.npz or net-4each.npz at another table)."""
    from ..bots.net import weights_name

    began = time.perf_counter()
    first, second = folder / "round1.jsonl.gz", folder / "round2.jsonl.gz"
    round1, weights = folder / "net-round1.npz", folder / weights_name(TABLES[table])
    at_table = {"table": table, "samples": samples, "jobs": jobs}
    steps = [
        (targets, {"positions": positions, "seed": seed, "out": first} | at_table),
        (
            fit,
            {"data": (first,), "out": round1, "epochs": 12, "policy": policy, "plot": folder / "net-round1-loss.png"},
        ),
        (
            targets,
            {"positions": own_play, "seed": seed + 1, "out": second, "player": "net", "net_weights": round1} | at_table,
        ),
        (
            fit,
            {"data": (second,), "out": weights, "epochs": 4, "rate": 3e-4, "start": round1}
            | {"policy": policy, "plot": folder / "net-round2-loss.png"},
        ),
    ]
    for step, arguments in steps:
        ctx.invoke(step, **arguments)
        click.echo(f"{time.perf_counter() - began:.0f} s so far")
    players = f" expert --players {TABLES[table].players}" if table != "2" else ""
    partnership = " --no-partnership" if table == "4-each" else ""
    click.echo(
        f"the weights: {weights}; measure them with: "
        f"pasur match net:weights={weights} expert{players}{partnership} --rounds 2000"
    )


@main.command()
@click.option(
    "--weights",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="a weights file (.npz) [default: the shipped one]",
)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="the model (.onnx)")
def onnx(weights: Path | None, out: Path) -> None:
    """Write the net bot's network as an ONNX model (features in, one score a move out)."""
    from .onnx_export import to_onnx

    network = load_weights(weights)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(to_onnx(network).SerializeToString())
    click.echo(f"{out}: {out.stat().st_size} bytes, input 'features' (moves x features), output 'scores'")


if __name__ == "__main__":
    main()
