"""``net``: a small network distilled from ``solver``, run with NumPy alone.

Each legal move is described by what the seat would see just after it (:func:`move_features`:
its hand, the table, its side's pile and the others', the unseen cards, the card played and what it
takes, and a few counts), and a two-layer network scores it; the move of the highest score is
played. The network was trained (``python -m pasur.train``, docs/TRAINING.md) to give each move
``solver``'s mean value, less the mean over the position's moves, so only the differences between
moves are learned. It was trained at two players; with more it plays as ``expert`` (its fallback,
said in docs/STRENGTH.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..core import Move, MoveCode, SeatMasks, SeatView
from ..core.captures import hand_moves
from ..core.cards import CLUB_CARDS, JACK
from ..core.errors import MissingExtra
from ..core.scoring import HAFT_KHAJ_CLUBS, SUR_POINTS, card_points, club_count, sur_counts
from .expert import ExpertBot
from .judgement import SHARED_CLUB, club_weight

try:
    import numpy as np
except ImportError as missing:
    raise MissingExtra(f"the net bot ({missing.name})", "net") from None

#: The version of :func:`move_features`; a weights file names the one it was trained on.
FEATURES_VERSION = 3
#: The card blocks of a move's features, 52 values each, in order.
CARD_BLOCKS = ("hand", "table", "card", "take", "own pile", "other piles", "unseen")
#: Whole bytes for the card blocks' bits (7 × 52 = 364 bits).
_CARD_BYTES = (52 * len(CARD_BLOCKS) + 7) // 8
#: The counts after the card blocks.
COUNTS = (
    "capture",
    "clears the table",
    "a Sur",
    "Surs count for this side now",
    "this side captured last",
    "another side captured last",
    "pack / 48",
    "last deal",
    "own clubs / 13",
    "others' clubs / 13",
    "own card points / 13",
    "others' card points / 13",
    "own cards / 52",
    "others' cards / 52",
    "own Surs / 4",
    "others' Surs / 4",
    "own hand / 4",
    "next hand / 4",
    "a club's worth / 2",
    "the next player's expected best capture / 8",
)
#: For each rank, what a card of it could take from the table the move leaves (the next player's
#: replies), four values a rank: the most card points / 4, the most cards / 8, the most clubs / 4,
#: and whether it clears the table (not with a Jack); then the unseen cards of each rank / 4.
REPLIES = ("points", "cards", "clubs", "clears")
REPLY_COUNT = 13 * len(REPLIES) + 13
FEATURE_COUNT = 52 * len(CARD_BLOCKS) + len(COUNTS) + REPLY_COUNT
#: One card of each rank (the hearts), to list what each rank could take.
_ONE_OF_EACH_RANK = sum(1 << (rank * 4 + 2) for rank in range(13))
#: The weights shipped with the package (two players).
SHIPPED = "net-2p.npz"


def move_features(view: SeatMasks, codes: Sequence[MoveCode]) -> np.ndarray:
    """One row of :data:`FEATURE_COUNT` float32 values for each move of ``codes``, from the
    seat's view alone: the view just after the move, the move, and counts (see :data:`COUNTS`)."""
    side, sides = view.side, view.rules.sides
    own = view.captured[side]
    others = 0
    for index, pile in enumerate(view.captured):
        if index != side:
            others |= pile
    banked = view.scores[side] if side < len(view.scores) else 0
    sur_ok = sur_counts(view.rules, banked, last_deal=view.pack == 0)
    other_surs = sum(view.surs) - view.surs[side]
    next_hand = view.hands[(view.seat + 1) % view.rules.players]
    clubs = [club_count(pile) for pile in view.captured]
    if sides == 2:
        club_value = club_weight(clubs[side], clubs[1 - side], 13 - sum(clubs))
    else:
        club_value = 0.0 if max(clubs) >= HAFT_KHAJ_CLUBS else SHARED_CLUB
    last_deal = view.pack == 0
    their_sur = any(
        sur_counts(view.rules, score, last_deal) for index, score in enumerate(view.scores) if index != side
    )
    unseen_ranks = [(view.unseen >> (4 * rank) & 15).bit_count() for rank in range(13)]
    holding = next_hand or (4 if view.pack else 0)
    chance = min(1.0, holding / max(view.unseen.bit_count(), 1))
    fixed = (
        view.pack / 48,
        float(view.pack == 0),
        club_share(others),
        card_points(others) / 13,
        others.bit_count() / 52,
        min(other_surs, 4) / 4,
        (view.hands[view.seat] - 1) / 4,
        next_hand / 4,
    )
    packed = bytearray()
    counts = np.empty((len(codes), len(COUNTS)), np.float32)
    replies = np.zeros((len(codes), REPLY_COUNT), np.float32)
    replies[:, 13 * len(REPLIES) :] = [count / 4 for count in unseen_ranks]
    for row, code in enumerate(codes):
        card, take = code & 63, code >> 6
        played = 1 << card
        hand = view.hand & ~played
        if take:
            table = view.table & ~take
            pile = own | take | played
            last = side
        else:
            table = view.table | played
            pile = own
            last = view.last_capturer
        clears = bool(take) and not table
        sur = clears and card >> 2 != JACK and sur_ok
        surs = view.surs[side] + sur
        bits = hand | table << 52 | played << 104 | take << 156 | pile << 208 | others << 260 | view.unseen << 312
        packed += bits.to_bytes(_CARD_BYTES, "little")
        counts[row] = (
            float(take != 0),
            float(clears),
            float(sur),
            float(sur_ok),
            float(last == side),
            float(last >= 0 and last != side and sides > 1),
            fixed[0],
            fixed[1],
            club_share(pile),
            fixed[2],
            card_points(pile) / 13,
            fixed[3],
            pile.bit_count() / 52,
            fixed[4],
            min(surs, 4) / 4,
            fixed[5],
            fixed[6],
            fixed[7],
            club_value / 2,
            reply_values(table, replies[row], club_value, their_sur, unseen_ranks, chance) / 8,
        )
    rows = np.frombuffer(bytes(packed), np.uint8).reshape(len(codes), _CARD_BYTES)
    cards = np.unpackbits(rows, axis=1, bitorder="little")
    return np.concatenate((cards[:, : 52 * len(CARD_BLOCKS)].astype(np.float32), counts, replies), axis=1)


def reply_values(
    table: int, row: np.ndarray, club_value: float, their_sur: bool, unseen_ranks: Sequence[int], chance: float
) -> float:
    """Fill ``row`` (rank by rank, :data:`REPLIES`) with what a card of each rank could take from
    ``table``, and return what the next player can expect to gain there, as ``expert`` judges it
    (each unseen card held with ``chance``; a capture worth its points, its clubs at
    ``club_value`` and a Sur where ``their_sur``)."""
    best = [[0, 0, 0, 0] for _ in range(13)]
    worth = [0.0] * 13
    for code in hand_moves(_ONE_OF_EACH_RANK, table, True):
        take = code >> 6
        if take:
            rank = (code & 63) >> 2
            found = best[rank]
            points, clubs = card_points(take), (take & CLUB_CARDS).bit_count()
            clears = take == table and rank != JACK
            found[0] = max(found[0], points)
            found[1] = max(found[1], take.bit_count())
            found[2] = max(found[2], clubs)
            found[3] |= int(clears)
            value = points + club_value * clubs + (SUR_POINTS if clears and their_sur else 0)
            worth[rank] = max(worth[rank], value)
    for rank, (most_points, most_cards, most_clubs, any_clears) in enumerate(best):
        row[4 * rank : 4 * rank + 4] = (most_points / 4, most_cards / 8, most_clubs / 4, any_clears)
    expected, none_better = 0.0, 1.0
    for value, rank in sorted(((value, rank) for rank, value in enumerate(worth) if value > 0), reverse=True):
        missing = (1 - chance) ** unseen_ranks[rank]
        expected += value * (1 - missing) * none_better
        none_better *= missing
    return expected


def club_share(cards: int) -> float:
    """The clubs of a mask, as a share of the 13."""
    return (cards & CLUB_CARDS).bit_count() / 13


class Network:
    """The scoring network: ``features → hidden → hidden → 1``, ReLU between, float32."""

    LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        for name in self.LAYERS:
            if name not in arrays:
                raise ValueError(f"the weights have no {name}")
        if meta.get("features") != FEATURES_VERSION or arrays["w1"].shape[0] != FEATURE_COUNT:
            raise ValueError(f"the weights were made for other features (version {meta.get('features')})")
        self.w1, self.b1, self.w2, self.b2, self.w3, self.b3 = (
            np.ascontiguousarray(arrays[name], np.float32) for name in self.LAYERS
        )
        self.meta = meta

    @classmethod
    def load(cls, path: str | Path | None = None) -> Network:
        """The network in a weights file (``.npz``; the shipped one by default); ValueError for a
        file that is not one."""
        source = resources.files(__package__).joinpath(SHIPPED) if path is None else Path(path)
        try:
            with source.open("rb") as stream, np.load(stream, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError, KeyError) as error:
            raise ValueError(f"cannot read weights from {source}: {error}") from None
        meta = json.loads(str(arrays.pop("meta", np.array("{}"))))
        return cls(arrays, meta)

    def save(self, path: str | Path) -> None:
        """Write the weights (``.npz``, compressed) with their metadata."""
        arrays = {name: getattr(self, name) for name in self.LAYERS}
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta)), **arrays)

    def scores(self, features: np.ndarray) -> np.ndarray:
        """One score for each row of ``features``."""
        hidden = np.maximum(features @ self.w1 + self.b1, 0)
        hidden = np.maximum(hidden @ self.w2 + self.b2, 0)
        scores: np.ndarray = (hidden @ self.w3 + self.b3).ravel()
        return scores


_loaded: dict[str, Network] = {}


def network_from(weights: str = "") -> Network:
    """The network in a weights file (the shipped one for ""), read once in a process."""
    if weights not in _loaded:
        _loaded[weights] = Network.load(weights or None)
    return _loaded[weights]


class NetBot:
    """Plays the legal move the network scores highest (at two players; with more, ``expert``)."""

    name = "net"

    def __init__(self, seed: int | None = None, weights: str = "") -> None:
        """``weights`` names a weights file other than the shipped one (only the command line may)."""
        self.network = network_from(weights)
        self._fallback = ExpertBot(seed=seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """The move of the highest score."""
        if len(legal) == 1:
            return legal[0]
        if view.rules.players != 2:
            return self._fallback.choose(view, legal)
        return legal[self.best(view.masks(), [move.code for move in legal])]

    def best(self, view: SeatMasks, codes: Sequence[MoveCode]) -> int:
        """The index of the move of ``codes`` the network scores highest."""
        return int(np.argmax(self.network.scores(move_features(view, codes))))
