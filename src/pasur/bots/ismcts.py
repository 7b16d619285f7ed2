"""``ismcts``: single-observer information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse, 2012) over the rest of the round.

Each iteration deals the cards this seat has not seen at random, consistently with its view,
walks the tree of moves from this information set choosing among the moves legal in that deal
by UCB (counting how often each was available), adds one node, finishes the round with a quick
playout, and scores every node for the side that made its move. The move played is the root's
most visited.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..core import Move, Round, SeatView
from .playout import budget, deadline, outcome, playout


class _Node:
    __slots__ = ("available", "children", "side", "total", "visits")

    def __init__(self, side: int) -> None:
        self.side = side  # the side whose move led here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


class IsmctsBot:
    """Information-set MCTS with a budget in iterations (default) or milliseconds."""

    name = "ismcts"
    DEFAULT_ITERATIONS = 1000

    def __init__(
        self,
        iterations: int | None = None,
        ms: float | None = None,
        exploration: float = 0.5,
        greedy: float = 0.9,
        seed: int | None = None,
    ) -> None:
        """``iterations`` or ``ms`` bound each decision (both: whichever comes first);
        ``exploration`` is the UCB constant, ``greedy`` the playouts' share of greedy moves."""
        self.iterations = budget(iterations, ms, self.DEFAULT_ITERATIONS, "iterations")
        self.ms = ms
        self.exploration = exploration
        self.greedy = greedy
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """The root move most visited by the search."""
        if len(legal) == 1:
            return legal[0]
        rng = self._rng
        base = Round.from_view(view, rng)
        root = _Node(-1)
        stop = deadline(self.ms)
        limit = self.iterations if self.iterations is not None else 1 << 60
        done = 0
        while done < limit and (done & 15 or time.perf_counter() < stop):
            game = base.copy()
            game.reshuffle_unseen(view.seat, rng)
            self._iterate(root, game, rng)
            done += 1
        by_code = {move.code: move for move in legal}
        best = max(by_code, key=lambda code: root.children[code].visits if code in root.children else -1)
        return by_code[best]

    def _iterate(self, root: _Node, game: Round, rng: random.Random) -> None:
        node = root
        path = [root]
        exploration = self.exploration
        while not game.over:
            codes = game.legal_codes()
            children = node.children
            untried = [code for code in codes if code not in children]
            for code in codes:
                if code in children:
                    children[code].available += 1
            if untried:
                code = untried[int(rng.random() * len(untried))]
                child = _Node(game.side_of(game.turn))
                child.available = 1
                children[code] = child
                game.play_code(code)
                path.append(child)
                break
            best_code, best_score = codes[0], -math.inf
            for code in codes:
                child = children[code]
                score = child.total / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)
                if score > best_score:
                    best_code, best_score = code, score
            node = children[best_code]
            game.play_code(best_code)
            path.append(node)
        playout(game, rng, self.greedy)
        rewards = outcome(game)
        for visited in path:
            visited.visits += 1
            if visited.side >= 0:
                visited.total += rewards[visited.side]
