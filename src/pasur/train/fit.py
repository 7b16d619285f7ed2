"""Fitting the ``net`` bot's network to a targets file with torch, on the CPU.

Each position's moves are scored by the network and the scores, less their mean over the
position, are brought near the targets' values less theirs (a squared error): only the differences
between one position's moves are learned, which is all a player needs to choose.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.net import FEATURE_COUNT, FEATURES_VERSION, Network
from ..core.errors import MissingExtra
from .positions import Positions, group_rows

try:
    import torch
    from torch import nn
except ImportError as missing:
    raise MissingExtra(f"python -m pasur.train fit ({missing.name})", "train") from None


@dataclass
class Settings:
    """How the network is fitted."""

    hidden: int = 256  # the first layer's units
    second: int = 64  # the second layer's
    epochs: int = 12
    batch: int = 256  # positions a step
    rate: float = 1e-3
    decay: float = 1e-5
    policy: float = 0.0  # weight of the cross-entropy between the moves' softmax of scores and of values
    temperature: float = 0.3  # points: the softmax's scale for both
    held_out: float = 0.05
    seed: int = 1


@dataclass
class Fitted:
    """The fitted network and how each epoch went."""

    network: Network
    history: list[dict[str, float]] = field(default_factory=list)


def make_model(settings: Settings) -> nn.Sequential:
    """The torch form of `Network`."""
    first, second = settings.hidden, settings.second
    return nn.Sequential(
        nn.Linear(FEATURE_COUNT, first), nn.ReLU(), nn.Linear(first, second), nn.ReLU(), nn.Linear(second, 1)
    )


def to_network(model: nn.Sequential, meta: dict[str, Any]) -> Network:
    """The NumPy network with the model's weights."""
    layers = [layer for layer in model if isinstance(layer, nn.Linear)]
    arrays: dict[str, np.ndarray] = {}
    for number, layer in enumerate(layers, start=1):
        arrays[f"w{number}"] = layer.weight.detach().numpy().T.copy()
        arrays[f"b{number}"] = layer.bias.detach().numpy().copy()
    return Network(arrays, meta)


def from_network(network: Network) -> nn.Sequential:
    """The torch form of a NumPy network, its weights copied (to go on training it)."""
    model = make_model(Settings(hidden=network.w1.shape[1], second=network.w2.shape[1]))
    layers = [layer for layer in model if isinstance(layer, nn.Linear)]
    with torch.no_grad():
        for number, layer in enumerate(layers, start=1):
            layer.weight.copy_(torch.from_numpy(getattr(network, f"w{number}").T.copy()))
            layer.bias.copy_(torch.from_numpy(getattr(network, f"b{number}").copy()))
    return model


def fit(
    data: Positions,
    settings: Settings,
    meta: dict[str, Any],
    report: Callable[[dict[str, float]], None] | None = None,
    start: Network | None = None,
) -> Fitted:
    """Fit a network to ``data`` (a new one, or ``start`` trained further: then its layers' sizes
    stand, not the settings'); a share ``held_out`` of the positions is kept aside to measure
    each epoch (its loss, how often the network picks one of the targets' best moves, and the
    mean points it gives up against them)."""
    torch.manual_seed(settings.seed)
    order = np.random.default_rng(settings.seed).permutation(data.count)
    kept = max(1, int(data.count * settings.held_out))
    held, trained = data.part(order[:kept]), order[kept:]  # the trained positions are not copied
    starts, sizes = data.starts[:-1][trained], np.diff(data.starts)[trained]
    model = make_model(settings) if start is None else from_network(start)
    optimiser = torch.optim.Adam(model.parameters(), lr=settings.rate, weight_decay=settings.decay)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, settings.epochs)
    shuffle = random.Random(settings.seed)
    history: list[dict[str, float]] = []
    for epoch in range(1, settings.epochs + 1):
        model.train()
        positions = list(range(len(trained)))
        shuffle.shuffle(positions)
        total, steps = 0.0, 0
        for first in range(0, len(positions), settings.batch):
            chosen = np.array(positions[first : first + settings.batch])
            group_sizes = sizes[chosen]
            rows = group_rows(starts[chosen], group_sizes)
            groups = torch.from_numpy(np.repeat(np.arange(len(chosen)), group_sizes))
            scores = model(torch.from_numpy(data.features(rows))).squeeze(1)
            values = torch.from_numpy(data.values[rows])
            loss = centred_loss(scores, values, groups, len(chosen))
            if settings.policy:
                loss = loss + settings.policy * policy_loss(scores, values, groups, len(chosen), settings.temperature)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item()
            steps += 1
        schedule.step()
        measured = {"epoch": epoch, "train_loss": total / max(steps, 1), **measure(model, held)}
        history.append(measured)
        if report is not None:
            report(measured)
    meta = {**meta, "features": FEATURES_VERSION, "settings": asdict(settings), "history": history}
    return Fitted(to_network(model, meta), history)


def centred_loss(scores: torch.Tensor, values: torch.Tensor, groups: torch.Tensor, count: int) -> torch.Tensor:
    """The mean squared difference between the scores less their position's mean and the
    (already centred) values."""
    sums = torch.zeros(count).index_add_(0, groups, scores)
    sizes = torch.zeros(count).index_add_(0, groups, torch.ones_like(scores))
    return ((scores - (sums / sizes)[groups] - values) ** 2).mean()


def _group_log_softmax(logits: torch.Tensor, groups: torch.Tensor, count: int) -> torch.Tensor:
    """Each logit less the log-sum-exp of its position's."""
    peaks = torch.zeros(count).scatter_reduce(0, groups, logits.detach(), "amax", include_self=False)
    shifted = logits - peaks[groups]
    sums = torch.zeros(count).index_add_(0, groups, shifted.exp())
    return shifted - sums.log()[groups]


def policy_loss(
    scores: torch.Tensor, values: torch.Tensor, groups: torch.Tensor, count: int, temperature: float
) -> torch.Tensor:
    """The cross-entropy, a position's mean, from the softmax of its moves' values to that of
    their scores (both over ``temperature``): it weighs the best moves' order over the worst's."""
    wanted = _group_log_softmax(values / temperature, groups, count).exp()
    return -(wanted * _group_log_softmax(scores / temperature, groups, count)).sum() / count


def measure(model: nn.Sequential, data: Positions) -> dict[str, float]:
    """On ``data``: the centred loss, the share of positions where the network's pick is one of
    the best moves by the targets, and the mean points its pick gives up against the best."""
    model.eval()
    with torch.no_grad():
        scores = model(torch.from_numpy(data.features())).squeeze(1).numpy()
    sizes = np.diff(data.starts)
    groups = np.repeat(np.arange(data.count), sizes)
    means = np.bincount(groups, scores, data.count) / sizes
    loss = float(np.mean((scores - means[groups] - data.values) ** 2))
    agree, lost = 0, 0.0
    for index in range(data.count):
        begin, end = data.starts[index], data.starts[index + 1]
        values = data.values[begin:end]
        picked = values[int(np.argmax(scores[begin:end]))]
        best = float(values.max())
        agree += picked >= best - 1e-4
        lost += best - float(picked)
    return {"held_loss": loss, "agreement": agree / data.count, "points_lost": lost / data.count}


def plot_history(history: list[dict[str, float]], path: Path, title: str, policy: float = 0.0) -> None:
    """The loss curves and the held-out agreement, as a PNG (matplotlib, in the train extra);
    ``policy``, the fit's weight of the cross-entropy, which the training loss then holds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [entry["epoch"] for entry in history]
    figure, (losses, agreement) = plt.subplots(1, 2, figsize=(10, 4))
    fitted = f"training positions (+ {policy:g} × cross-entropy)" if policy else "training positions"
    losses.plot(epochs, [entry["train_loss"] for entry in history], marker="o", label=fitted)
    losses.plot(epochs, [entry["held_loss"] for entry in history], marker="o", label="held-out positions")
    losses.set_xlabel("epoch")
    losses.set_ylabel("centred squared error (points²)")
    losses.legend()
    agreement.plot(epochs, [entry["agreement"] for entry in history], marker="o", color="tab:green")
    agreement.set_xlabel("epoch")
    agreement.set_ylabel("held-out: picks one of solver's best moves")
    lost = agreement.twinx()
    lost.plot(epochs, [entry["points_lost"] for entry in history], marker="s", color="tab:red")
    lost.set_ylabel("held-out: points given up a decision", color="tab:red")
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def write_history(history: list[dict[str, float]], path: Path) -> None:
    """Each epoch's measures as JSON."""
    path.write_text(json.dumps(history, indent=1) + "\n", encoding="utf-8")
