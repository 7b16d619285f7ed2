"""The statistics of a match between bots: means with 95% intervals over duplicate sets (Student's
t on their number: a match of a few sets is given the width it has), Elo, and the sequential
probability ratio test that engine testing uses."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.stats import t_quantile


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean and its 95% interval."""

    mean: float
    low: float
    high: float

    def clamped(self, low: float, high: float) -> Estimate:
        """The interval cut to the values the quantity can take."""
        return Estimate(self.mean, max(low, self.low), min(high, self.high))

    def as_list(self) -> list[float]:
        """``[low, high]``, rounded for printing."""
        return [round(self.low, 4), round(self.high, 4)]


def ratio_estimate(totals: Sequence[float], counts: Sequence[float]) -> Estimate:
    """The mean per unit of ``sum(totals) / sum(counts)`` over independent clusters (one per
    duplicate set), with the usual cluster (delta-method) error and Student's t on the clusters
    less one; infinite with one cluster."""
    clusters = len(totals)
    units = sum(counts)
    if not clusters or not units:
        return Estimate(math.nan, math.nan, math.nan)
    mean = sum(totals) / units
    if clusters < 2:
        return Estimate(mean, -math.inf, math.inf)
    spread = sum((total - mean * count) ** 2 for total, count in zip(totals, counts, strict=True))
    error = math.sqrt(clusters / (clusters - 1) * spread) / units
    half = t_quantile(clusters - 1) * error
    return Estimate(mean, mean - half, mean + half)


def elo_of(score: float) -> float:
    """The Elo difference that gives an expected score (0 … 1); ±inf at the ends."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def score_of(elo: float) -> float:
    """The expected score of an Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_estimate(pair_scores: Sequence[float]) -> Estimate:
    """Elo difference from per-set scores (the first bot's share of that set's games won)."""
    count = len(pair_scores)
    if count < 2:
        return Estimate(math.nan, math.nan, math.nan)
    mean = sum(pair_scores) / count
    variance = sum((score - mean) ** 2 for score in pair_scores) / (count - 1)
    half = t_quantile(count - 1) * math.sqrt(variance / count)
    return Estimate(elo_of(mean), elo_of(mean - half), elo_of(mean + half))


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        """The log-likelihood ratio bounds: below the first accept H0, above the second H1."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, pair_scores: Sequence[float]) -> float:
        """The log-likelihood ratio of the per-set scores, in the normal approximation used by
        fishtest's pentanomial GSPRT: n (s1 − s0)(2 x̄ − s0 − s1) / (2 σ²)."""
        count = len(pair_scores)
        if count < 2:
            return 0.0
        mean = sum(pair_scores) / count
        variance = sum((score - mean) ** 2 for score in pair_scores) / count
        if variance <= 0:
            variance = 1e-3  # every set alike so far: a small floor keeps the test finite
        s0, s1 = score_of(self.elo0), score_of(self.elo1)
        return count * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def verdict(self, pair_scores: Sequence[float]) -> str | None:
        """``"H0"`` or ``"H1"`` once the answer is known, else None."""
        low, high = self.bounds
        value = self.llr(pair_scores)
        if value <= low:
            return "H0"
        if value >= high:
            return "H1"
        return None
