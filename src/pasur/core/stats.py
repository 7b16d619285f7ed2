"""Student's t quantiles, for 95% intervals of means over few samples (duplicate sets, sampled
deals): the normal's 1.96 is too narrow below a few dozen."""

from __future__ import annotations

import math
import statistics


def t_quantile(freedom: float, level: float = 0.975) -> float:
    """Student's t quantile at ``level`` for ``freedom`` degrees of freedom (1 or more; between 1
    and 2 the value at 1, exactly): the Cornish-Fisher expansion (Abramowitz and Stegun 26.7.5),
    at 97.5% within 1% from 2 degrees on and within 0.001% from 10 on."""
    if freedom < 2:
        return math.tan(math.pi * (level - 0.5))
    z = statistics.NormalDist().inv_cdf(level)
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(term / freedom ** (power + 1) for power, term in enumerate(terms))
