"""Match sense: what the end of a round is worth in match wins, for two sides.

A match is won by the side with the highest score once a side reaches the target (RULES.md, The
match), so near the target a point more or less can decide it, and around the Sur cut-off the
banked score changes what the next rounds can bring. The **equity** ``E(a, b)`` is the chance that
a side with ``a`` banked points wins against one with ``b`` when both play equally from the start
of a round: found backward over the banked scores from how rounds between two equal players end
(`OUTCOMES`, measured: the data file ``round-outcomes.json``), with the rules' target, Sur cut-off and
cancellation applied to each outcome. `MatchSense` turns a round's expected final point
difference into the chance of winning the match: the rounds still to deal after the search's
horizon are uncertain, so the difference is spread (a normal with the variance of the cards still
in the pack) before each end is valued.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from ..core import Rules
from ..core.scoring import SUR_POINTS

__all__ = ["MAX_TARGET", "MatchSense", "equity_table"]

#: How rounds between two equal players end: (a side's card points with Haft Khaj, its Surs, the
#: other side's Surs, how many rounds), each round counted from both sides, as
#: benchmarks/round_outcomes.py measured them.
OUTCOMES: tuple[tuple[int, int, int, int], ...] = tuple(
    (int(cards), int(surs), int(theirs), int(count))
    for cards, surs, theirs, count in json.loads(Path(__file__).with_name("round-outcomes.json").read_text())["rows"]
)

#: Beyond this target the table grows too large to build at a decision; the bot plays for points.
MAX_TARGET = 150
#: The card points of a round with two sides (2♣, 10♦, aces, jacks and Haft Khaj).
ROUND_CARD_POINTS = 20
#: Cards dealt to the hands in a round (48 of the 52; 4 open the table).
HAND_CARDS = 48
#: Where the spread of a round's difference is sampled (standard deviations) and each weight.
SPREAD = tuple(step / 2 for step in range(-6, 7))
SPREAD_WEIGHTS = tuple(math.exp(-z * z / 2) for z in SPREAD)

#: One end of a round for the table: its points for each side, and how many rounds ended so.
Ending = tuple[int, int, int]


def _endings(sur_a: bool, sur_b: bool, cancel: bool) -> list[Ending]:
    """The round endings (points to a, points to b, count) when Surs count for a, for b."""
    tally: Counter[tuple[int, int]] = Counter()
    for cards, surs, other_surs, count in OUTCOMES:
        mine, theirs = surs if sur_a else 0, other_surs if sur_b else 0
        fewest = min(mine, theirs) if cancel else 0
        points = (cards + SUR_POINTS * (mine - fewest), ROUND_CARD_POINTS - cards + SUR_POINTS * (theirs - fewest))
        tally[points] += count
    return [(a, b, count) for (a, b), count in tally.items()]


@lru_cache(maxsize=8)
def equity_table(target: int, cutoff: int | None, cancel: bool) -> tuple[tuple[float, ...], ...]:
    """``E[a][b]`` for banked scores below ``target``: the chance that the side with ``a`` wins."""
    endings = {(sur_a, sur_b): _endings(sur_a, sur_b, cancel) for sur_a in (False, True) for sur_b in (False, True)}
    totals = {key: sum(count for _, _, count in found) for key, found in endings.items()}
    table = [[0.5] * target for _ in range(target)]
    # every round adds points, so a state needs only states with a larger sum: fill from the top
    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(total, target - 1) + 1):
            b = total - a
            key = (cutoff is None or a < cutoff, cutoff is None or b < cutoff)
            value = 0.0
            for gain_a, gain_b, count in endings[key]:
                x, y = a + gain_a, b + gain_b
                if x >= target or y >= target:
                    value += count * (1.0 if x > y else 0.0 if y > x else 0.5)
                else:
                    value += count * table[x][y]
            table[a][b] = value / totals[key]
    return tuple(tuple(row) for row in table)


class MatchSense:
    """The chance of winning the match for a side with ``banked`` points against ``other``, as a
    function of the round's final point difference (this side's minus the other's)."""

    def __init__(self, rules: Rules, banked: int, other: int, sur_points: int, pack_cards: int) -> None:
        """``sur_points``: the Sur points both sides have counted so far this round (the round's
        points then add up to 20 and those); ``pack_cards``: the cards still to be dealt after
        the search's horizon (their points are uncertain)."""
        self.target = rules.target
        self.table = equity_table(rules.target, rules.sur_cutoff, rules.sur_cancel)
        self.banked, self.other = banked, other
        self.round_total = ROUND_CARD_POINTS + sur_points
        self.spread = ROUND_SPREAD * math.sqrt(pack_cards / HAND_CARDS)
        self._known: dict[float, float] = {}

    @staticmethod
    def applies(rules: Rules) -> bool:
        """Whether match sense can play these rules: two sides, a target the table can hold."""
        return rules.sides == 2 and rules.target <= MAX_TARGET

    def win_chance(self, difference: float) -> float:
        """The chance of winning the match when the round ends ``difference`` points ahead."""
        found = self._known.get(difference)
        if found is None:
            ends = [difference + z * self.spread for z in SPREAD] if self.spread else [difference]
            weights = SPREAD_WEIGHTS if self.spread else (1.0,)
            found = sum(w * self._ended(end) for w, end in zip(weights, ends, strict=True)) / sum(weights)
            self._known[difference] = found
        return found

    def _ended(self, difference: float) -> float:
        mine = min(max(round((self.round_total + difference) / 2), 0), self.round_total)
        x, y = self.banked + mine, self.other + self.round_total - mine
        if x >= self.target or y >= self.target:
            return 1.0 if x > y else 0.0 if y > x else 0.5
        return self.table[x][y]


def _round_spread(outcomes: Sequence[tuple[int, int, int, int]]) -> float:
    """The standard deviation of a whole round's point difference, every Sur counted."""
    count = sum(row[3] for row in outcomes)
    differences = [
        (2 * cards - ROUND_CARD_POINTS + SUR_POINTS * (surs - other), n) for cards, surs, other, n in outcomes
    ]
    mean = sum(d * n for d, n in differences) / count
    return math.sqrt(sum(n * (d - mean) ** 2 for d, n in differences) / count)


#: The spread of a whole round's difference between equal players.
ROUND_SPREAD = _round_spread(OUTCOMES)
