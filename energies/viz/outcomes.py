"""Charts of simulation results: plot_outcomes and win_rates (one row per simulated game).

pandas and matplotlib are imported inside the functions.
"""

from __future__ import annotations

import math
import re

from ..kit.text import chart_text
from .charts import _labels
from .style import OUTCOME_COLORS, OUTCOME_LABELS, persona_color


def _winners(value) -> tuple[int, ...]:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ()
    if isinstance(value, str):  # e.g. "(0, 2)" after a round trip through CSV
        return tuple(int(v) for v in re.findall(r"-?\d+", value))
    return tuple(int(v) for v in value)


def win_rates(frame):
    """Win rate per bot name: wins / seats played, from columns ``winners`` and ``bot_<seat>``.

    Returns a DataFrame indexed by bot with columns ``seats``, ``wins``, ``win_rate``.
    """
    import pandas as pd

    bot_cols = sorted(
        (c for c in frame.columns if re.fullmatch(r"bot_\d+", str(c))), key=lambda c: int(c[4:])
    )
    counts: dict[str, list[int]] = {}
    for row in frame.to_dict("records"):
        won = set(_winners(row.get("winners")))
        for col in bot_cols:
            bot = row[col]
            if bot is None or (isinstance(bot, float) and math.isnan(bot)):
                continue
            c = counts.setdefault(str(bot), [0, 0])
            c[0] += 1
            c[1] += int(col[4:]) in won
    out = pd.DataFrame(
        [(b, n, w) for b, (n, w) in counts.items()], columns=["bot", "seats", "wins"]
    ).set_index("bot")
    out["win_rate"] = out["wins"] / out["seats"]
    return out.sort_values("win_rate")


def plot_outcomes(frame, ax=None):
    """How simulated games ended, per line-up; and the win rate per bot; return the outcome Axes.

    ``frame`` has one row per game with columns ``lineup`` (str, e.g.
    ``"fossil,green,balanced,random"``), ``outcome`` (victory_points, empty_bag,
    everyone_loses or unfinished) and ``winners`` (tuple of winning seats), and
    optionally ``bot_0`` .. ``bot_3`` (the bot name of each seat).

    Draws stacked horizontal bars of the outcome shares per line-up. With ``ax=None``
    and bot columns present, a second panel (``ax.figure.axes[1]``) shows each bot's
    win rate (wins per seat played) against the 1-in-N chance line. With a given ``ax``
    only the outcome bars are drawn into it.
    """
    if not hasattr(frame, "columns"):
        raise ValueError(f"plot_outcomes needs simulate()'s DataFrame, not {frame!r}.")
    missing = {"lineup", "outcome"} - set(frame.columns)
    if missing:
        raise ValueError(
            f"plot_outcomes needs the columns lineup and outcome (missing {sorted(missing)})."
        )
    if frame.empty:
        raise ValueError("plot_outcomes needs at least one game (the frame has no rows).")
    has_bots = any(re.fullmatch(r"bot_\d+", str(c)) for c in frame.columns)
    panel = None
    if ax is None:
        import matplotlib.pyplot as plt

        height = 0.6 * frame["lineup"].nunique() + 2.5
        if has_bots:
            _fig, (ax, panel) = plt.subplots(
                1, 2, figsize=(13, height), layout="constrained", width_ratios=(3, 2)
            )
        else:
            _fig, ax = plt.subplots(figsize=(9, height), layout="constrained")
    shares = frame.groupby("lineup")["outcome"].value_counts(normalize=True).unstack(fill_value=0.0)
    games = frame.groupby("lineup").size()
    kinds = [k for k in OUTCOME_COLORS if k in shares.columns]
    kinds += sorted(k for k in shares.columns if k not in OUTCOME_COLORS)
    lineups = list(dict.fromkeys(frame["lineup"]))  # first-seen order, top to bottom
    shares = shares.loc[lineups, kinds]
    left = [0.0] * len(lineups)
    for kind in kinds:
        values = shares[kind].tolist()
        bars = ax.barh(
            range(len(lineups)),
            values,
            left=left,
            color=OUTCOME_COLORS.get(kind, "#CCCCCC"),
            edgecolor="white",
            label=OUTCOME_LABELS.get(kind, kind),
            gid=f"outcome-{kind}",
        )
        for i, (bar, v) in enumerate(zip(bars, values)):
            bar.set_gid(f"outcome-{kind}-{i}")
            if v >= 0.08:
                ax.text(
                    left[i] + v / 2,
                    i,
                    f"{v:.0%}",
                    ha="center",
                    va="center",
                    fontsize=11,
                    color="white" if kind != "unfinished" else "black",
                )
        left = [a + b for a, b in zip(left, values)]
    ax.set_yticks(range(len(lineups)), [chart_text(f"{lu}\n({games[lu]} games)") for lu in lineups])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter("{x:.0%}")
    _labels(ax, "share of games", "line-up (bots in seat order)", "How the games ended", pad=28)
    ax.legend(
        loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(kinds), frameon=False, fontsize=10
    )
    if panel is not None:
        rates = win_rates(frame)
        seats = sum(1 for c in frame.columns if re.fullmatch(r"bot_\d+", str(c)))
        panel.barh(
            range(len(rates)),
            rates["win_rate"],
            color=[persona_color(str(bot)) for bot in rates.index],
            gid="win-rate",
        )
        for i, (_bot, row) in enumerate(rates.iterrows()):
            panel.text(
                row["win_rate"] + 0.01,
                i,
                f"{row['win_rate']:.0%} of {int(row['seats'])}",
                va="center",
                fontsize=11,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1, "alpha": 0.8},
            )
        panel.set_yticks(range(len(rates)), [chart_text(str(bot)) for bot in rates.index])
        panel.axvline(
            1 / seats, color="black", linestyle="--", linewidth=1, label=f"chance (1 in {seats})"
        )
        panel.xaxis.set_major_formatter("{x:.0%}")
        panel.set_xlim(0, max(0.5, float(rates["win_rate"].max()) + 0.2))
        _labels(
            ax=panel,
            xlabel="games won per seat played",
            ylabel="bot",
            title="Win rate per bot",
            pad=28,
        )
        panel.legend(loc="lower right", fontsize=10)
    return ax
