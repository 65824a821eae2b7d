"""Two rounds of a class compared table by table: the pairs, the change, its interval and p-value.

Lesson 07's protocol gives every group the same seed in both rounds, so the board, the start
and the first dice are the same: the round-2 game of a table is compared with the round-1 game
of the *same* table. The difference per table removes what the seed decides (a rich start, an
early flood), which a comparison of two round averages would leave in as noise.

For each measure, :func:`compare_rounds` reports the mean change per table with a 95 % interval
(Student's t, for the few tables of one class) and a p-value from the exact sign-flip test: if
the second round made no difference, each table's change was as likely to have the other sign,
so the p-value is the share of the 2^n sign patterns whose mean change is at least as large as
the one seen. Both assume only that the tables played independently.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

__all__ = ["MEASURES", "compare_rounds", "pair_rounds", "sign_flip_p", "t_quantile_975"]

# measure -> (what it counts, how it is read from one row of collect()'s table)
MEASURES = {
    "final_gf": "the GF at the end",
    "fossil": "fossil plants at the table at the end",
    "renewable": "renewable plants at the table at the end",
    "everyone_loses": "the game ended with everybody losing (1) or not (0)",
    "turns": "turns played",
}
# Student's t, 97.5 % quantile, for 1 to 30 degrees of freedom (more: the expansion below).
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
_EXACT_UP_TO = 16  # tables: 2^16 sign patterns are counted exactly; more are sampled
_SAMPLED_FLIPS = 20_000


def _value(row: dict[str, Any], measure: str) -> float:
    if measure in ("fossil", "renewable"):
        return float(sum(int(row[f"{measure}_{s}"]) for s in range(int(row["players"]))))
    return float(row[measure])


def _frame_check(frame: Any, argument: str) -> None:
    needed = {"group", "seed", "players", "finished", "final_gf"}
    if not hasattr(frame, "columns") or needed - set(frame.columns):
        raise ValueError(
            f"{argument} must be collect()'s table of one round "
            f"(missing {sorted(needed - set(getattr(frame, 'columns', ())))})."
        )


def pair_rounds(first: Any, second: Any):
    """One row per table that finished both rounds with the same seed.

    ``first`` and ``second`` are :func:`energies.classroom.collect`'s tables of round 1 and
    round 2. A table is known by its ``group`` (the file name: ``group-A.json`` in both
    folders). Columns: ``group``, ``seed``, ``players``, and for each measure of
    :data:`MEASURES` its value in round 1 and 2 and the change (``final_gf_1``,
    ``final_gf_2``, ``final_gf_change``, ...). A table that cannot be paired — in one round
    only, a game not finished, another seed or another number of players in round 2 — is
    left out and listed with the reason in ``attrs["unpaired"]`` (``{"group", "reason"}``).
    """
    import pandas as pd

    _frame_check(first, "first")
    _frame_check(second, "second")
    rounds = [{str(r["group"]): r for r in frame.to_dict("records")} for frame in (first, second)]
    rows, unpaired = [], []
    for group in sorted(set(rounds[0]) | set(rounds[1])):
        one, two = rounds[0].get(group), rounds[1].get(group)
        reason = None
        if one is None or two is None:
            reason = f"Only in round {1 if two is None else 2}."
        elif not (one["finished"] and two["finished"]):
            unfinished = [n for n, r in ((1, one), (2, two)) if not r["finished"]]
            reason = f"The game of round {unfinished[0]} did not finish."
        elif int(one["seed"]) != int(two["seed"]):
            reason = (
                f"Another seed in round 2 ({two['seed']}, not {one['seed']}): not the same game."
            )
        elif int(one["players"]) != int(two["players"]):
            reason = "Another number of players in round 2."
        if reason:
            unpaired.append({"group": group, "reason": reason})
            continue
        row: dict[str, Any] = {
            "group": group,
            "seed": int(one["seed"]),
            "players": int(one["players"]),
        }
        for measure in MEASURES:
            a, b = _value(one, measure), _value(two, measure)
            row.update({f"{measure}_1": a, f"{measure}_2": b, f"{measure}_change": b - a})
        rows.append(row)
    columns = ["group", "seed", "players"] + [
        f"{m}_{part}" for m in MEASURES for part in ("1", "2", "change")
    ]
    pairs = pd.DataFrame(rows, columns=columns)
    pairs.attrs["unpaired"] = unpaired
    return pairs


def t_quantile_975(df: int) -> float:
    """Student's t 97.5 % quantile for ``df`` degrees of freedom (table to 30, then the
    Cornish-Fisher expansion, within 0.1 % there)."""
    if df < 1:
        raise ValueError(f"df must be at least 1, not {df!r}.")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def sign_flip_p(changes: list[float], seed: int = 0) -> float:
    """Two-sided p-value of the sign-flip test of a mean change of zero.

    Exact for up to 16 changes (every sign pattern counted), else estimated from 20,000
    seeded random patterns, the pattern seen counted as one of them. A change of 0 flips to
    itself.
    """
    n = len(changes)
    if n == 0:
        return math.nan
    seen = abs(sum(changes))
    tolerance = 1e-9 * (1 + seen)
    if n <= _EXACT_UP_TO:
        patterns = itertools.product((1, -1), repeat=n)
        total = 2**n
    else:
        rng = random.Random(seed)
        patterns = ([rng.choice((1, -1)) for _ in range(n)] for _ in range(_SAMPLED_FLIPS))
        total = _SAMPLED_FLIPS
    as_large = sum(
        abs(sum(s * c for s, c in zip(signs, changes))) >= seen - tolerance for signs in patterns
    )
    if n > _EXACT_UP_TO:  # the pattern seen counts too, so a sampled p-value is never 0
        return (as_large + 1) / (total + 1)
    return as_large / total


def compare_rounds(first: Any, second: Any, measures: tuple[str, ...] = tuple(MEASURES)):
    """The change from round 1 to round 2, table by table: one row per measure.

    Columns: ``measure``, ``what`` (in words), ``tables`` (pairs counted), ``round_1`` and
    ``round_2`` (means over the paired tables), ``change`` (the mean change per table),
    ``low`` and ``high`` (its 95 % interval; empty with fewer than 2 tables), ``p_value``
    (the sign-flip test), ``tables_down``, ``tables_same``, ``tables_up``. The pairs
    themselves are :func:`pair_rounds`'s table; the tables left out are listed in
    ``attrs["unpaired"]`` (plain records, so that ``pandas.concat`` of two summaries works).
    """
    import pandas as pd

    if isinstance(measures, str):
        measures = (measures,)
    unknown = [m for m in measures if m not in MEASURES]
    if unknown or not measures:
        raise ValueError(
            f"measures must name some of {', '.join(MEASURES)}; {unknown or 'none'} is not one."
        )
    pairs = pair_rounds(first, second)
    if pairs.empty:
        raise ValueError(
            "No table finished both rounds with the same seed, so there is nothing to pair: "
            + "; ".join(f"{u['group']}: {u['reason']}" for u in pairs.attrs["unpaired"])
        )
    rows = []
    n = len(pairs)
    for measure in measures:
        changes = pairs[f"{measure}_change"].tolist()
        mean = sum(changes) / n
        low = high = math.nan
        if n >= 2:
            sd = math.sqrt(sum((c - mean) ** 2 for c in changes) / (n - 1))
            half = t_quantile_975(n - 1) * sd / math.sqrt(n)
            low, high = mean - half, mean + half
        rows.append(
            {
                "measure": measure,
                "what": MEASURES[measure],
                "tables": n,
                "round_1": float(pairs[f"{measure}_1"].mean()),
                "round_2": float(pairs[f"{measure}_2"].mean()),
                "change": mean,
                "low": low,
                "high": high,
                "p_value": sign_flip_p(changes),
                "tables_down": sum(c < 0 for c in changes),
                "tables_same": sum(c == 0 for c in changes),
                "tables_up": sum(c > 0 for c in changes),
            }
        )
    summary = pd.DataFrame(rows).set_index("measure")
    summary.attrs["unpaired"] = pairs.attrs["unpaired"]
    return summary


def describe_change(summary: Any) -> str:
    """:func:`compare_rounds`'s table in sentences, one per measure, for the debrief."""
    if not hasattr(summary, "columns") or not {"change", "low", "high"} <= set(summary.columns):
        raise ValueError("describe_change needs compare_rounds()'s table.")
    lines = []
    for measure, row in summary.iterrows():
        n = int(row["tables"])
        if measure == "everyone_loses":
            lines.append(
                f"Everybody lost at {row['round_1'] * n:.0f} of {n} tables in round 1 and at "
                f"{row['round_2'] * n:.0f} in round 2; p = {row['p_value']:.0%}."
            )
            continue
        else:
            head = (
                f"{str(row['what'])[:1].upper()}{str(row['what'])[1:]}: {row['round_1']:.1f} in "
                f"round 1, {row['round_2']:.1f} in round 2 on average, a change of "
                f"{row['change']:+.1f} per table"
            )
        if math.isnan(row["low"]):
            interval = " (one table: no interval)"
        else:
            interval = f" (95 % interval {row['low']:+.1f} to {row['high']:+.1f})"
        counts = (
            f"; down at {int(row['tables_down'])}, the same at {int(row['tables_same'])}, "
            f"up at {int(row['tables_up'])} of {n} tables; p = {row['p_value']:.0%}."
        )
        lines.append(head + interval + counts)
    return "\n".join(lines)


def plot_rounds(first: Any, second: Any, measure: str = "final_gf", ax=None):
    """Each table's round 1 and round 2 joined by a line (a paired chart); return the Axes.

    ``first`` and ``second`` are :func:`energies.classroom.collect`'s tables; ``measure`` is
    one of :data:`MEASURES`. A line that falls is a table whose value dropped in round 2;
    the thick black line joins the two means.
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {measure!r}.")
    pairs = pair_rounds(first, second)
    if pairs.empty:
        raise ValueError("No table finished both rounds with the same seed: nothing to draw.")
    from ..kit.text import chart_text
    from ..viz.style import GROUP_COLORS

    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=(5.5, 4), layout="constrained")
    ends: dict[float, list[str]] = {}  # tables that end at the same value share one label
    for i, row in enumerate(pairs.to_dict("records")):
        values = (row[f"{measure}_1"], row[f"{measure}_2"])
        color = GROUP_COLORS[i % len(GROUP_COLORS)]
        ax.plot((1, 2), values, "o-", color=color, linewidth=1.5, gid=f"pair-{row['group']}")
        ends.setdefault(values[1], []).append(str(row["group"]))
    for value, groups in ends.items():
        ax.annotate(
            chart_text(", ".join(groups)),
            (2, value),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=9,
        )
    means = (pairs[f"{measure}_1"].mean(), pairs[f"{measure}_2"].mean())
    ax.plot((1, 2), means, "s-", color="black", linewidth=3.5, label="mean", gid="pair-mean")
    ax.set_xticks((1, 2), ("round 1", "round 2"))
    ax.set_xlim(0.7, 2.8)  # room for the table names at the right
    ax.set_ylabel(MEASURES[measure])
    ax.set_title(f"The same seed twice: {len(pairs)} tables", fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9, loc="best")
    return ax
