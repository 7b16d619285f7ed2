"""``net``: a small network distilled from ``solver``, run with NumPy alone.

Each legal move is described by what the seat would see just after it (`move_features()`:
its hand, the table, its side's pile and the others', the unseen cards, the card played and what it
takes, and a few counts), and a two-layer network scores it; the move of the highest score is
played. Features and network run in the native core when it was built (``_net.h``, the same
features value for value, tested against `python_features()`), else in Python and NumPy. The
network was trained (``python -m pasur.train``, docs/TRAINING.md) to give each move
``solver``'s mean value, less the mean over the position's moves, so only the differences between
moves are learned. Those values end with the deal, so moves the network scores nearly alike are
told apart by ``expert``'s judgement, which looks past it, as ``solver`` tells apart its equal
values. In the last deal at two players nothing is hidden any more, and it solves the deal
exactly instead (`NetBot`). It plays with the network trained at its table (`SHIPPED_AT`, or
a weights file's own table); at a table with none it plays as ``expert`` (its fallback, said in
docs/STRENGTH.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..core import Move, MoveCode, SeatMasks, SeatView, native
from ..core.captures import DECIDING, card_move_table, card_moves
from ..core.cards import ACES, CLUB_CARDS, JACK, JACKS, TEN_OF_DIAMONDS, TWO_OF_CLUBS
from ..core.errors import MissingExtra
from ..core.rules import TABLES, Rules
from ..core.scoring import SUR_POINTS, card_points, club_count, sur_counts
from .expert import ExpertBot
from .judgement import Position, club_worth, expected_best, others_sur_count
from .solver_bot import CARDS_A_HAND, SolverBot

try:
    import numpy as np
except ImportError as missing:
    raise MissingExtra(f"the net bot ({missing.name})", "net") from None

#: The version of `move_features()`; a weights file names the one it was trained on.
FEATURES_VERSION = 3
#: The card blocks of a move's features, 52 values each, in order.
CARD_BLOCKS = ("hand", "table", "card", "take", "own pile", "other piles", "unseen")
#: The card blocks' values, and the whole bytes that hold them as bits.
CARD_VALUES = 52 * len(CARD_BLOCKS)
_CARD_BYTES = (CARD_VALUES + 7) // 8
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
FEATURE_COUNT = CARD_VALUES + len(COUNTS) + REPLY_COUNT


def weights_name(rules: Rules) -> str:
    """The weights file of a kind of table: net-2p.npz, net-3p.npz, net-4p.npz, net-4each.npz."""
    return f"net-{rules.table_tag}.npz"


#: The weights shipped with the package (two players).
SHIPPED = weights_name(TABLES["2"])
#: The shipped weights of every table, each trained there (`Rules.table`); with a weights file of
#: one table, ``net`` plays as ``expert`` at the others.
SHIPPED_AT = {table: weights_name(TABLES[table]) for table in TABLES}


@dataclass(frozen=True, slots=True)
class Decision:
    """What no move of one decision changes, read from the seat's view (the native core's
    ``net_features`` and ``net_scores`` take its `fields()`)."""

    hand: int
    table: int
    own: int  # the side's pile
    others: int  # the other sides' piles together
    unseen: int
    side_last: bool  # the side captured last (kept by a move that takes nothing)
    other_last: bool  # another side did
    sur_ok: bool  # a Sur would count for the side
    their_sur: bool  # a Sur would count for another side
    own_surs: int
    club_value: float  # a club's worth to the side (expert's judgement)
    chance: float  # that the next player holds a given unseen card
    before: tuple[float, ...]  # the counts no move changes, in `COUNTS`' order

    @classmethod
    def of(cls, view: SeatMasks) -> Decision:
        """Read a view."""
        side = view.side
        others = 0
        for index, pile in enumerate(view.captured):
            if index != side:
                others |= pile
        next_hand = view.hands[(view.seat + 1) % view.rules.players]
        holding = next_hand or (4 if view.pack else 0)
        last = view.last_capturer
        return cls(
            hand=view.hand,
            table=view.table,
            own=view.captured[side],
            others=others,
            unseen=view.unseen,
            side_last=last == side,
            other_last=last >= 0 and last != side and view.rules.sides > 1,
            sur_ok=sur_counts(view.rules, view.scores[side], last_deal=view.pack == 0),
            their_sur=others_sur_count(view.rules, view.scores, side, view.pack == 0),
            own_surs=view.surs[side],
            club_value=club_worth(view.rules, [club_count(pile) for pile in view.captured], side),
            chance=min(1.0, holding / max(view.unseen.bit_count(), 1)),
            before=(
                view.pack / 48,
                float(view.pack == 0),
                club_share(others),
                card_points(others) / 13,
                others.bit_count() / 52,
                min(sum(view.surs) - view.surs[side], 4) / 4,
                (view.hands[view.seat] - 1) / 4,
                next_hand / 4,
            ),
        )

    def fields(self) -> tuple[int | float, ...]:
        """The fields in order, flat, as the native core reads them."""
        return (
            self.hand,
            self.table,
            self.own,
            self.others,
            self.unseen,
            int(self.side_last),
            int(self.other_last),
            int(self.sur_ok),
            int(self.their_sur),
            self.own_surs,
            self.club_value,
            self.chance,
            *self.before,
        )


def move_features(view: SeatMasks, codes: Sequence[MoveCode]) -> np.ndarray:
    """One row of `FEATURE_COUNT` float32 values for each move of ``codes``, from the
    seat's view alone: the view just after the move, the move, and counts (see `COUNTS`);
    computed by the native core when it runs, else by `python_features()` (the reference)."""
    decision = Decision.of(view)
    if native.available():
        values = native.net_features(decision.fields(), codes)
        return np.frombuffer(values, np.float32).reshape(len(codes), FEATURE_COUNT)
    return python_features(decision, codes)


def python_features(decision: Decision, codes: Sequence[MoveCode]) -> np.ndarray:
    """`move_features()` in Python: the reference the native core mirrors."""
    own, table_before = decision.own, decision.table
    unseen_ranks = [(decision.unseen >> (4 * rank) & 15).bit_count() for rank in range(13)]
    before = decision.before
    unseen_share = [count / 4 for count in unseen_ranks]
    fixed_bits = decision.others << 260 | decision.unseen << 312
    packed = bytearray()
    rows = []
    for code in codes:
        card, take = code & 63, code >> 6
        played = 1 << card
        hand = decision.hand & ~played
        if take:
            table = table_before & ~take
            pile = own | take | played
            side_last, other_last = True, False
        else:
            table = table_before | played
            pile = own
            side_last, other_last = decision.side_last, decision.other_last
        clears = bool(take) and not table
        sur = clears and card >> 2 != JACK and decision.sur_ok
        bits = hand | table << 52 | played << 104 | take << 156 | pile << 208 | fixed_bits
        packed += bits.to_bytes(_CARD_BYTES, "little")
        replies, threat = reply_values(table, decision.club_value, decision.their_sur, unseen_ranks, decision.chance)
        rows.append(
            [
                float(take != 0),
                float(clears),
                float(sur),
                float(decision.sur_ok),
                float(side_last),
                float(other_last),
                before[0],
                before[1],
                club_share(pile),
                before[2],
                card_points(pile) / 13,
                before[3],
                pile.bit_count() / 52,
                before[4],
                min(decision.own_surs + sur, 4) / 4,
                before[5],
                before[6],
                before[7],
                decision.club_value / 2,
                threat / 8,
                *replies,
                *unseen_share,
            ]
        )
    packed_rows = np.frombuffer(bytes(packed), np.uint8).reshape(len(codes), _CARD_BYTES)
    cards = np.unpackbits(packed_rows, axis=1, bitorder="little")[:, :CARD_VALUES]
    return np.concatenate((cards.astype(np.float32), np.array(rows, np.float32)), axis=1)


def reply_values(
    table: int, club_value: float, their_sur: bool, unseen_ranks: Sequence[int], chance: float
) -> tuple[list[float], float]:
    """What a card of each rank could take from ``table`` (rank by rank, `REPLIES`), and
    what the next player can expect to gain there, as ``expert`` judges it (each unseen card held
    with ``chance``; a capture worth its points, its clubs at ``club_value`` and a Sur where
    ``their_sur``)."""
    values: list[float] = []
    offers: list[tuple[float, float]] = []  # each rank's best gain, with the chance one is held
    cache = card_move_table(True)
    for rank in range(13):
        heart = 4 * rank + 2
        codes = cache.get((table & DECIDING[heart]) << 6 | heart) or card_moves(table, heart, True)
        most_points = most_cards = most_clubs = 0
        clears = False
        best = 0.0
        for code in codes:
            take = code >> 6
            if not take:
                continue
            points = (
                (take & ACES).bit_count()
                + (take & JACKS).bit_count()
                + 2 * (take >> TWO_OF_CLUBS & 1)
                + 3 * (take >> TEN_OF_DIAMONDS & 1)
            )
            clubs = (take & CLUB_CARDS).bit_count()
            sweeps = take == table and rank != JACK
            most_points = max(most_points, points)
            most_cards = max(most_cards, take.bit_count())
            most_clubs = max(most_clubs, clubs)
            clears = clears or sweeps
            best = max(best, points + club_value * clubs + (SUR_POINTS if sweeps and their_sur else 0))
        values += (most_points / 4, most_cards / 8, most_clubs / 4, float(clears))
        if best > 0:
            offers.append((best, 1 - (1 - chance) ** unseen_ranks[rank]))
    return values, expected_best(offers)


def club_share(cards: int) -> float:
    """The clubs of a mask, as a share of the 13."""
    return (cards & CLUB_CARDS).bit_count() / 13


class Network:
    """The scoring network: ``features → hidden → hidden → 1``, ReLU between, float32."""

    LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        """ValueError unless the arrays are this network's layers, of shapes that fit together."""
        for name in self.LAYERS:
            if name not in arrays:
                raise ValueError(f"the weights have no {name}")
        if meta.get("features") != FEATURES_VERSION:
            raise ValueError(f"the weights were made for other features (version {meta.get('features')})")
        w1, b1, w2, b2, w3, b3 = (np.asarray(arrays[name]) for name in self.LAYERS)
        first, second = w1.shape[-1], w2.shape[-1]
        wanted = [(FEATURE_COUNT, first), (first,), (first, second), (second,), (second, 1), (1,)]
        if [array.shape for array in (w1, b1, w2, b2, w3, b3)] != wanted:
            raise ValueError("the weights' layers do not fit together")
        self.w1, self.b1, self.w2, self.b2, self.w3, self.b3 = (
            np.ascontiguousarray(array, np.float32) for array in (w1, b1, w2, b2, w3, b3)
        )
        self.meta = meta

    @property
    def layers(self) -> tuple[np.ndarray, ...]:
        """The six arrays, in `LAYERS` order."""
        return self.w1, self.b1, self.w2, self.b2, self.w3, self.b3

    @property
    def table(self) -> str:
        """The table it was trained at (`Rules.table`; weights that do not say are of two players)."""
        return str(self.meta.get("table", "2"))

    @classmethod
    def load(cls, path: str | Path | None = None, shipped: str = SHIPPED) -> Network:
        """The network in a weights file (``.npz``; without ``path`` the shipped file ``shipped``);
        ValueError for a file that is not one."""
        source = resources.files(__package__).joinpath(shipped) if path is None else Path(path)
        try:
            with source.open("rb") as stream, np.load(stream, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
            meta = json.loads(str(arrays.pop("meta", np.array("{}"))))
            if not isinstance(meta, dict):
                raise ValueError("its metadata is not an object")
            return cls(arrays, meta)
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ValueError(f"cannot read weights from {source}: {error}") from None

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


def network_from(weights: str = "", table: str = "2") -> Network:
    """The network in a weights file (for "", the one shipped for ``table``), read once in a process."""
    key = weights or f"shipped:{table}"
    if key not in _loaded:
        _loaded[key] = Network.load(weights) if weights else Network.load(shipped=SHIPPED_AT[table])
    return _loaded[key]


def networks_from(weights: str = "") -> dict[str, Network]:
    """The networks a bot plays with, by table: those of a weights file at its table, else every
    shipped one."""
    if weights:
        network = network_from(weights)
        return {network.table: network}
    return {table: network_from("", table) for table in SHIPPED_AT}


def all_known(view: SeatMasks) -> bool:
    """Whether the cards the seat has not seen are exactly the others' hands (no pack left)."""
    return view.pack == 0 and view.unseen.bit_count() == sum(view.hands) - view.hands[view.seat]


class NetBot:
    """Plays the legal move the network of its table scores highest (``expert`` at a table with none).
    With ``endgame`` "solve" (the default), once every card it has not seen is in the others'
    hands (the last deal at two players) it solves the rest exactly instead: a single deal,
    nothing left to sample (needs the native core; without it the network plays on). With
    ``late`` N > 0 (16 by default), ``solver`` with N sampled deals chooses in the deal before
    that one (native core too; 0 leaves it to the network). With
    ``ties`` X > 0, ``expert``'s judgement chooses among the moves scored within X points of the
    best."""

    name = "net"

    def __init__(
        self, seed: int | None = None, weights: str = "", endgame: str = "solve", late: int = 16, ties: float = 0.08
    ) -> None:
        """``weights`` names a weights file other than the shipped one (only the command line may)."""
        if endgame not in ("solve", "net"):
            raise ValueError('endgame must be "solve" (exactly, once every card is known) or "net"')
        if not 0 <= late <= 256:
            raise ValueError("late must be from 0 to 256 sampled deals")
        if not 0 <= ties <= 1:
            raise ValueError("ties must be from 0 to 1 point")
        self.ties = ties
        #: The network of each table it plays at with one (at the others it plays as ``expert``).
        self.networks = networks_from(weights)
        self._fallback = ExpertBot(seed=seed)
        # the others as one coalition, as the networks were measured (docs/TRAINING.md)
        self._exact = SolverBot(samples=1, temper=0, seed=seed, others="coalition") if endgame == "solve" else None
        self._late = SolverBot(samples=late, seed=seed, others="coalition") if late else None

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """The move of the highest score (of those of the best exact value, as above); with
        ``ties`` above 0, of the moves scored within ``ties`` points of the highest, the one
        ``expert`` judges best (the higher score of equals)."""
        if len(legal) == 1:
            return legal[0]
        if view.rules.table not in self.networks:
            return self._fallback.choose(view, legal)
        masks = view.masks()
        if view.rules.players == 2:
            deal_before_last = masks.pack == 2 * CARDS_A_HAND  # one more hand each to come
            solver = self._exact if all_known(masks) else self._late if deal_before_last else None
        else:  # who holds which of the unseen cards stays hidden to the end: the last deal sampled
            solver = self._late if masks.pack == 0 else None
        if solver is not None:
            values = solver.mean_values(view, legal)
            if values is not None:  # None without the native core; the network tells apart equal values
                top = max(values.values())
                legal = [move for move in legal if values[move.code] >= top - 1e-9]
                if len(legal) == 1:
                    return legal[0]
        scores = self.scores(masks, [move.code for move in legal])
        top = max(scores)
        near = [index for index, score in enumerate(scores) if score >= top - self.ties] if self.ties else []
        if len(near) > 1:
            position = Position.of(view)
            judged = {index: self._fallback.judge(position, legal[index].code) for index in near}
            return legal[max(near, key=lambda index: (judged[index], scores[index]))]
        return legal[scores.index(top)]

    def best(self, view: SeatMasks, codes: Sequence[MoveCode]) -> int:
        """The index of the move of ``codes`` the network scores highest (the first of equals)."""
        scores = self.scores(view, codes)
        return scores.index(max(scores))

    def scores(self, view: SeatMasks, codes: Sequence[MoveCode]) -> list[float]:
        """The network's score of each move of ``codes``: features and network in native code
        when it runs, else the NumPy reference."""
        network = self.networks[view.rules.table]
        if native.available():
            return native.net_scores(Decision.of(view).fields(), codes, network.layers)
        return [float(score) for score in network.scores(move_features(view, codes))]
