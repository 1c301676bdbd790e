"""Intervals: the Wilson score interval of a win rate and the Student-t interval of a mean.

The formulas and what they assume are in ``docs/evaluation.md``. The t quantile is SciPy's
(``scipy.stats.t.ppf``, the ``tools`` extra), imported on first use.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Z95 = 1.959963984540054  # the normal 97.5% quantile


def wilson_interval(successes: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (``z`` = 1.96: 95%); ``(0, 1)`` for n = 0.

    With p = successes/n: ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``. Fractional
    successes (shared wins) are allowed."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in [0, n], got {successes} of {n}")
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    lo, hi = center - half, center + half
    if successes == n:
        hi = 1.0
    if successes == 0:
        lo = 0.0
    return (max(0.0, min(lo, p)), min(1.0, max(hi, p)))


def t_quantile(df: int, q: float = 0.975) -> float:
    """Student's t quantile with ``df`` degrees of freedom (``scipy.stats.t.ppf``): 12.706 for df 1."""
    from mythzoo.extras import import_optional

    return float(import_optional("scipy.stats", "Student-t intervals").t.ppf(q, df))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float, float]:
    """``(mean, lo, hi, sd)``: the mean with its 95% Student-t interval and the sample sd (ddof 1);
    one value gives an unbounded interval (nan), none gives all nan."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return (math.nan,) * 4
    m = float(x.mean())
    if x.size == 1:
        return m, math.nan, math.nan, math.nan
    sd = float(x.std(ddof=1))
    half = t_quantile(x.size - 1) * sd / math.sqrt(x.size)
    return m, m - half, m + half, sd
