"""``solver``: sampled deals, each solved exactly.

For each decision it deals the cards its seat has not seen at random, consistently with its view,
and solves each such deal exactly with the native open-deck solver (`pasur.solve()`), which
values every legal move under perfect play by both sides — by default to the end of the current
deal, with the Haft Khaj each side can expect from the clubs still out (``horizon=deal``: the
pack's order, which nobody knows, then plays no part), or to the round's end (``horizon=round``).
The move played has the best mean over the samples, as bridge programs do (GIB), each sample
weighted by how likely the others' plays in this deal are with its hands: a player gives up g
points with likelihood exp(-g / ``temper``) (0 weighs nothing), g what the solver finds the play
lost against the best move with that deal's hands seen (``infer=solver``, the default at 2
players), or the immediate gain it passed up, cards and Sur, leaving a table that one card could
sweep counting as giving up ``gift`` Surs (``infer=greedy``, the default with more players, where
judging a dozen plays of the deal in every sample would cost most of the time). Moves of exactly
the same mean are told apart by ``expert``'s judgement (``ties=net``: by the ``net`` bot's).
docs/STRENGTH.md has the measurements behind the defaults.

With **match sense** (``match=1``; two sides) it plays for the match rather than the round: each
sample's final round difference becomes the chance of winning the match from the banked scores
(`pasur.bots.match_sense`), and the move with the best mean chance is played, the round's
points deciding between moves of equal chance. It is off by default: on 2,000 duplicate endgames
it won no more matches than playing for points (docs/STRENGTH.md).

With 3 players, or 4 each for themselves, each deal is solved with every other player playing for
itself (``others=each``: a max-n search of the deal, docs/SOLVER.md), or with the others as one
coalition against its seat (``others=coalition``: a paranoid search, pessimistic, as they do not
play together); values are its points minus the others' average. Each move's value also counts
``pimc``'s mean round points over ``playouts`` playouts (1,200 by default, 0 for none), which play
the others as each for themselves to the round's end (docs/STRENGTH.md: at four each for
themselves the two together are +0.08 a round over ``master``, where the coalition with the
playouts was level). Without the native core it plays as ``pimc`` (its fallback, stated in
docs/STRENGTH.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import Move, MoveCode, Round, SeatView, native
from ..core.cards import mask_of
from ..core.sampling import node_limit_within
from ..core.scoring import SUR_POINTS, club_count
from ..core.solver import DEFAULT_TABLE_MB, Context, Evidence, Samples, Sampling, sampled_within
from .base import Bot
from .expert import ExpertBot
from .match_sense import MatchSense
from .pimc import PimcBot
from .playout import REWARD_SPAN, budget

#: Cards a hand is dealt.
CARDS_A_HAND = 4
#: The most plays of a deal the native sampler weighs (a deal of four players has 16).
MAX_EVIDENCE = 16
#: The transposition table at the deal horizon: searches to a deal's end are small, and a small
#: table stays in the cache (1,024 samples of 30 positions took 30% less time with 1 MB than 16).
DEAL_TABLE_MB = 1


class SolverBot:
    """A budget of ``samples`` (default 256) solved deals or ``ms`` per decision."""

    name = "solver"
    DEFAULT_SAMPLES = 256
    #: Deals solved in one native call when a time budget is checked between calls.
    BATCH = 32

    #: Nodes a decision searches at most (about 0.4 s): sampling stops after the deal that reaches
    #: them. Only the widest deals meet it (the first plays of four players each for themselves).
    DEFAULT_NODES = 2_000_000

    def __init__(
        self,
        samples: int | None = None,
        ms: float | None = None,
        horizon: str = "deal",
        seed: int | None = None,
        temper: float = 2.0,
        nodes: int = DEFAULT_NODES,
        match: int = 0,
        gift: float = 1.0,
        infer: str = "",
        ties: str = "expert",
        judge: Bot | None = None,
        playouts: int = PimcBot.DEFAULT_PLAYOUTS,
        others: str = "each",
    ) -> None:
        """``samples`` or ``ms`` bound each decision (both: whichever comes first), and ``nodes``
        the search (0: no bound). With ``ms``, a deal whose search would take far longer is not
        solved: when not even the first one is, the decision is ``pimc``'s. ``judge`` is the bot
        that tells apart equal moves when ``ties`` names another than expert (the registry makes
        it: `registry.solver_bot()`). With more than two sides, ``playouts`` (0: none) of
        ``pimc``'s, to the round's end, add their mean points to each move's value; ``others``
        says how the search plays them there: ``each`` for itself (the default; at the deal's
        horizon only, the coalition to the round's end) or as one ``coalition``."""
        self.samples = budget(samples, ms, self.DEFAULT_SAMPLES, "samples")
        if nodes < 0:
            raise ValueError("nodes must be 0 (no bound) or more")
        self.nodes = nodes
        if match not in (0, 1):
            raise ValueError("match must be 1 (play for the match) or 0 (for the round's points)")
        self.match_sense = bool(match)
        if gift < 0:
            raise ValueError("gift must be 0 or more")
        self.gift = gift
        if infer not in ("", "greedy", "solver"):
            raise ValueError('infer must be "greedy" or "solver"')
        self.infer = infer
        if horizon not in ("round", "deal"):
            raise ValueError('horizon must be "round" or "deal"')
        self.deal_only = horizon == "deal"
        self.table_mb = DEAL_TABLE_MB if self.deal_only else DEFAULT_TABLE_MB
        self.ms = ms
        if temper < 0:
            raise ValueError("temper must be 0 (no weighing) or more")
        self.temper = temper
        if ties not in ("expert", "net"):
            raise ValueError('ties must be "expert" or "net"')
        if (ties == "expert") != (judge is None):
            raise ValueError(f"ties={ties} needs its judge made by the registry")
        self._judge: Bot = judge or ExpertBot(seed=seed)
        self._rng = random.Random(seed)
        self._fallback = PimcBot(ms=ms, seed=seed)
        if playouts < 0:
            raise ValueError("playouts must be 0 (none) or more")
        # with a time budget, the playouts take half of it and the solved deals the other half
        if others not in ("coalition", "each"):
            raise ValueError('others must be "coalition" or "each"')
        # to the round's end a search of each for themselves would be far too wide: the coalition
        self.each = others == "each" and self.deal_only
        self._playouts = PimcBot(playouts=playouts, ms=ms / 2 if ms else None, seed=seed) if playouts else None

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """The move with the best mean exact value over the sampled deals."""
        if len(legal) == 1:
            return legal[0]
        found = self.sampled(view, legal)
        if found is None:
            return self._fallback.choose(view, legal)
        best = self.best_moves(legal, found, self.sense_of(view), self.playout_points(view, legal))
        return best[0] if len(best) == 1 else self._judge.choose(view, best)

    def playout_points(self, view: SeatView, legal: Sequence[Move]) -> dict[MoveCode, float]:
        """Each move's mean round points against the others' average over ``pimc``'s playouts,
        where they count (``playouts``, more than two sides); else none."""
        pimc = self.playouts_at(view)
        if pimc is None:
            return {}
        rewards = pimc.totals(view, legal)
        return {code: (reward - 0.5) * REWARD_SPAN for code, reward in rewards.items()}

    def playouts_at(self, view: SeatView) -> PimcBot | None:
        """The ``pimc`` whose playouts count in this seat's values (``playouts``, more than two
        sides), or None."""
        return self._playouts if view.rules.sides > 2 else None

    @staticmethod
    def best_moves(
        legal: Sequence[Move], found: Samples, sense: MatchSense | None, added: dict[MoveCode, float] | None = None
    ) -> list[Move]:
        """The moves of the best mean over ``found`` (with match ``sense``, of the best mean
        chance of winning the match, then of points), ``added`` counted in each move's mean."""
        means = found.means()
        for code, points in (added or {}).items():
            means[code] += points
        chances = found.means(sense.win_chance) if sense else {}
        top = max((round(chances.get(move.code, 0.0), 9), means[move.code]) for move in legal)
        return [
            move
            for move in legal
            if round(chances.get(move.code, 0.0), 9) == top[0] and means[move.code] >= top[1] - 1e-9
        ]

    def sense_of(self, view: SeatView) -> MatchSense | None:
        """What a round's end is worth in match wins for this seat, where match sense applies."""
        rules = view.rules
        if not (self.match_sense and MatchSense.applies(rules)):
            return None
        side = view.side
        fewest = min(view.surs) if rules.sur_cancel else 0
        sur_points = SUR_POINTS * sum(count - fewest for count in view.surs)
        pack = view.pack if self.deal_only else 0
        return MatchSense(rules, view.scores[side], view.scores[1 - side], sur_points, pack)

    def infer_by_solver(self, players: int) -> bool:
        """Whether the solver judges the others' plays (else their greedy gains)."""
        return self.infer == "solver" or (not self.infer and players == 2)

    def mean_values(self, view: SeatView, legal: Sequence[Move]) -> dict[MoveCode, float] | None:
        """Each legal move's mean value over the sampled deals (the seat's side minus the other,
        or minus the others' average), or None where the solver cannot decide: no native core, or
        not even one deal solved within the time budget."""
        found = self.sampled(view, legal)
        return found.means() if found else None

    def sampled(self, view: SeatView, legal: Sequence[Move]) -> Samples | None:
        """Each legal move's values over the sampled deals, or None as for `mean_values()`."""
        if not native.available():
            return None
        base = Round.from_view(view, self._rng)
        ms = self.ms / 2 if self.ms is not None and self.playouts_at(view) else self.ms
        evidence, contexts = deal_plays(view) if self.temper else ([], [])
        # with a time budget, one deal may take at most about that long (the solver searches some
        # 5 million nodes a second); one that takes longer ends the sampling
        found = sampled_within(
            base,
            self.samples if self.samples is not None else 1 << 30,
            self._rng,
            ms,
            self.BATCH,
            Sampling(
                deal_only=self.deal_only,
                node_limit=node_limit_within(ms),
                node_budget=self.nodes,
                table_mb=self.table_mb,
                evidence=tuple(evidence),
                temper=self.temper or 1.0,
                gift=self.gift,
                contexts=tuple(contexts) if self.infer_by_solver(view.rules.players) else None,
                each=self.each,
            ),
        )
        return found if sum(found.weights) > 0 else None


def deal_evidence(view: SeatView) -> list[Evidence]:
    """The plays the other seats made in the current deal, each with the table it saw and the
    cards that seat played after it in the deal (what they say about the hands still hidden)."""
    return deal_plays(view)[0]


def deal_plays(view: SeatView) -> tuple[list[Evidence], list[Context]]:
    """`deal_evidence()`, and for each of its plays what the solver needs to judge it: every
    seat's cards played after it in the deal, and the side that had captured last and each side's
    clubs before it."""
    plays = list(view.history)
    rules = view.rules
    in_deal = max(0, len(plays) - (view.deal - 1) * rules.players * CARDS_A_HAND)
    last_before, last = [], -1
    for play in plays:
        last_before.append(last)
        last = rules.side_of(play.seat) if play.take else last
    table = mask_of(view.table)
    clubs = [club_count(mask_of(pile)) for pile in view.captured] + [0] * (4 - len(view.captured))
    later = [0] * 4
    evidence: list[Evidence] = []
    contexts: list[Context] = []
    for index in reversed(range(len(plays) - in_deal, len(plays))):
        play = plays[index]
        taken = mask_of(play.take)
        table = table | taken if taken else table & ~(1 << play.card)
        if taken:
            clubs[rules.side_of(play.seat)] -= club_count(taken | 1 << play.card)
        if play.seat != view.seat:
            evidence.append((play.seat, table, later[play.seat], play.card | taken << 6))
            contexts.append(
                ((later[0], later[1], later[2], later[3]), last_before[index], (clubs[0], clubs[1], clubs[2], clubs[3]))
            )
        later[play.seat] |= 1 << play.card
    return evidence[:MAX_EVIDENCE], contexts[:MAX_EVIDENCE]
