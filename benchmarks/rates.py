"""Confidence intervals shared by the benchmark reports (a helper module, not a script).

One implementation for the package and the benchmarks: :mod:`energies.insight.intervals`.
"""

from __future__ import annotations

from energies.insight.intervals import mean_interval, newcombe, wilson

__all__ = ["mean_interval", "newcombe", "wilson"]
