"""A targets file's positions as arrays for fitting (NumPy alone: a file is read, and a bad one
refused, before torch is loaded)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import MissingExtra

try:
    import numpy as np
except ImportError as missing:
    raise MissingExtra(f"python -m pasur.train fit ({missing.name})", "train") from None

from ..bots.net import CARD_VALUES, move_features
from .targets import read_targets

#: Positions read before their rows are packed (see `Positions`).
PACKED_A_TIME = 10_000


@dataclass
class Positions:
    """Many positions' moves: one feature row and one centred target value a move, and where each
    position's rows start (``starts`` has one more entry: the end). A row's card blocks, all 0 or
    1, are kept as bits (``cards``) and the rest as they are (``counts``): a fifth of the memory,
    so millions of positions fit in it."""

    cards: np.ndarray
    counts: np.ndarray
    values: np.ndarray
    starts: np.ndarray

    @property
    def count(self) -> int:
        return len(self.starts) - 1

    def features(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The whole feature rows ``rows`` (all of them for None), as the network reads them."""
        cards = self.cards if rows is None else self.cards[rows]
        counts = self.counts if rows is None else self.counts[rows]
        bits = np.unpackbits(cards, axis=1, count=CARD_VALUES).astype(np.float32)
        return np.concatenate((bits, counts), axis=1)

    def part(self, indices: np.ndarray) -> Positions:
        """The positions of ``indices``, in that order."""
        sizes = np.diff(self.starts)[indices]
        rows = group_rows(self.starts[:-1][indices], sizes)
        starts = np.concatenate(([0], np.cumsum(sizes)))
        return Positions(self.cards[rows], self.counts[rows], self.values[rows], starts)


def group_rows(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The row numbers of groups that start at ``starts`` and hold ``sizes`` rows."""
    ends = np.cumsum(sizes)
    return np.repeat(starts - (ends - sizes), sizes) + np.arange(ends[-1] if len(ends) else 0)


def load_positions(paths: Sequence[Path], limit: int | None = None) -> tuple[list[dict[str, Any]], Positions]:
    """The headers of targets files and their positions (at most ``limit`` in all) as arrays."""
    headers: list[dict[str, Any]] = []
    cards: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    values: list[np.ndarray] = []
    starts = [0]
    pending: list[np.ndarray] = []  # feature rows not packed yet

    def pack() -> None:
        if pending:
            rows = np.concatenate(pending)
            pending.clear()
            cards.append(card_bits(rows))
            counts.append(rows[:, CARD_VALUES:].copy())

    for path in paths:
        header, positions = read_targets(path)
        headers.append(header)
        for view, moves in positions:
            if limit is not None and len(starts) > limit:
                break
            pending.append(move_features(view.masks(), [code for code, _ in moves]))
            targets = np.array([value for _, value in moves], np.float32)
            values.append(targets - targets.mean())
            starts.append(starts[-1] + len(moves))
            if len(pending) == PACKED_A_TIME:
                pack()
    pack()
    if not values:
        raise ValueError("the targets hold no positions")
    return headers, Positions(np.concatenate(cards), np.concatenate(counts), np.concatenate(values), np.array(starts))


def card_bits(rows: np.ndarray) -> np.ndarray:
    """The card blocks of feature rows as bits, eight to a byte."""
    blocks = rows[:, :CARD_VALUES]
    if not np.isin(blocks, (0.0, 1.0)).all():
        raise ValueError("a card block holds a value other than 0 or 1")
    return np.packbits(blocks.astype(np.uint8), axis=1)
