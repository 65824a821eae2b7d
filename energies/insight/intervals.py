"""95 % intervals of rates and of their differences, shared by the insight tools and benchmarks.

* :func:`wilson` — the Wilson score interval of a rate (a share of ``n`` trials); it stays
  inside 0..1 and behaves at 0 % and 100 %, where the textbook ``p ± 1.96·se`` does not.
* :func:`newcombe` — the interval of the difference of two rates measured on independent
  samples, built from their two Wilson intervals (Newcombe 1998, method 10).
* :func:`mean_interval` — the normal interval of a mean (a mean number of winners, a mean
  paired difference), for samples of at least a few dozen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z95", "mean_interval", "newcombe", "wilson"]

#: The normal quantile of a two-sided 95 % interval (rounded as the benchmarks always have).
Z95 = 1.96


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95 % Wilson score interval of a rate ``p`` (a share of ``n`` trials); (0, 1) for n = 0.

    A shared win split among its winners makes ``p`` a mean of shares rather than a count;
    the interval is then read as if the shares were whole wins, which only widens it (a share
    varies less than a win or a loss).
    """
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(p1: float, n1: int, p2: float, n2: int, z: float = Z95) -> tuple[float, float]:
    """95 % interval of ``p1 - p2`` for rates of two independent samples (Newcombe's method 10).

    Each rate's Wilson interval gives its uncertainty on either side; the difference's lower
    end combines the room of ``p1`` to fall and of ``p2`` to rise, the upper end the reverse.
    """
    low1, high1 = wilson(p1, n1, z)
    low2, high2 = wilson(p2, n2, z)
    delta = p1 - p2
    return (
        delta - math.sqrt((p1 - low1) ** 2 + (high2 - p2) ** 2),
        delta + math.sqrt((high1 - p1) ** 2 + (p2 - low2) ** 2),
    )


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95 % normal interval ``(mean, low, high)``.

    With fewer than two values the interval is unbounded (NaN for no values at all).
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = math.fsum(values) / n
    if n < 2:
        return mean, -math.inf, math.inf
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half
