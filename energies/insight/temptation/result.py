"""DilemmaResult: a measured dilemma table, its verdict and its chart."""

from __future__ import annotations

import textwrap
from typing import Any

from .verdict import Verdict, classify

__all__ = ["DilemmaResult"]

_LINES = (
    # column, marker, label, gid; the two strategies wear their persona colours
    # (energies.viz.persona_color), the everyone-loses line black
    ("fossil_win", "o-", "a {fossil} seat's win rate", "dilemma-fossil"),
    ("green_win", "s-", "a {green} seat's win rate", "dilemma-green"),
    ("everyone_loses", "x--", "everyone loses", "dilemma-lose"),
)


class DilemmaResult:
    """A dilemma table (one row per number k of fossil-leaning seats) and what it shows.

    ``table``: the pandas DataFrame of :func:`~energies.insight.temptation.measure.dilemma_row`
    rows; ``verdict``: "social dilemma", "volunteer's dilemma", "chicken", "no temptation",
    "other" or "undecided at N games" (the criteria: ``docs/insight.md``, section 5);
    ``reason``: the evidence in words; ``switching``: the switching gains as a table;
    ``plot(ax=None)``: win rates and the everyone-loses rate against k with their intervals.
    ``rules`` is the rule set measured (None for a table read from a file) and ``name`` its
    label ("classroom", ...).
    """

    def __init__(self, table: Any, rules: Any = None, name: str | None = None) -> None:
        self.table = table
        self.rules = rules
        self.name = name
        self.details: Verdict = classify(table)

    @property
    def verdict(self) -> str:
        """The verdict, or "undecided at N games" when the intervals do not settle it."""
        return self.details.text

    @property
    def kind(self) -> str:
        """The verdict's kind (:data:`~energies.insight.temptation.verdict.VERDICTS`)."""
        return self.details.kind

    @property
    def reason(self) -> str:
        """The switching gains and the collective comparison behind the verdict, in words."""
        return self.details.reason()

    @property
    def switching(self):
        """One row per comparison: what it compares, k, the difference and its 95 % interval."""
        import pandas as pd

        comparisons = (*self.details.gains, self.details.collective, *self.details.gaps)
        return pd.DataFrame(
            [
                {
                    "comparison": c.name,
                    "k": c.k,
                    "difference": c.value,
                    "low": c.low,
                    "high": c.high,
                    "sign": {1: "+", -1: "-", 0: "?"}[c.sign],
                }
                for c in comparisons
            ]
        )

    def __repr__(self) -> str:
        label = f"{self.name}: " if self.name else ""
        return f"<DilemmaResult {label}{self.verdict}, {self.details.games} games per table>"

    def plot(self, ax: Any = None):
        """Win rate per seat of each strategy and the everyone-loses rate against k, with 95 %
        intervals, and the fair share 1/n; return the Axes."""
        if ax is None:
            import matplotlib.pyplot as plt

            _fig, ax = plt.subplots(figsize=(6.5, 3.8), layout="constrained")
        table = self.table.sort_values("k")
        players = int(table["players"].iloc[0])
        fossil, green = table["fossil_bot"].iloc[0], table["green_bot"].iloc[0]
        from ...viz import persona_color

        colors = {
            "fossil_win": persona_color(fossil),
            "green_win": persona_color(green),
            "everyone_loses": "black",
        }
        for column, style, label, gid in _LINES:
            color = colors[column]
            label = label.format(fossil=fossil, green=green)
            rate = column if column == "everyone_loses" else f"{column}_rate"
            shown = table[table[rate].notna()]
            ax.errorbar(
                shown["k"],
                shown[rate],
                yerr=[shown[rate] - shown[f"{column}_low"], shown[f"{column}_high"] - shown[rate]],
                fmt=style,
                color=color,
                capsize=3,
                label=label,
                gid=gid,
            )
        ax.axhline(
            1 / players,
            color="grey",
            linestyle=":",
            linewidth=1,
            label=f"fair share (1/{players})",
        )
        ax.set_xticks(
            list(table["k"]),
            [f"{k} {fossil}\n{players - k} {green}" for k in table["k"]],
            fontsize=8,
        )
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter("{x:.0%}")
        ax.set_xlabel(f"seats playing {fossil} (the others play {green})")
        ax.set_ylabel("share (95 % interval)")
        label = f"{self.name}: " if self.name else ""
        title = f"{label}{self.verdict} ({self.details.games} games per table)"
        # a long verdict ("a dilemma: ... or ..., undecided") wraps instead of running into
        # the next chart of a row
        ax.set_title(textwrap.fill(title, 60), fontsize=10)
        ax.legend(fontsize=8, loc="best")
        return ax
