"""The shipped measurements as a class reads them: percentages with their 95 % intervals.

The lessons only read tables measured once at hundreds of games (the dilemma tables and the
map of :mod:`energies.insight.temptation`), so a lesson cell runs in a blink and every rate it
shows carries its interval. These functions turn those tables into short tables of whole
percentages and into sentences:

    from energies.insight import shipped_dilemma, readout
    result = shipped_dilemma("classroom", bots="search")
    readout.dilemma_percentages(result)   # one row per number of fossil seats
    readout.switch_percentages(result)    # "should I switch?": stay green or switch, per row
    print(readout.dilemma_in_words(result))
    readout.map_percentages("policy")      # the map's points, one row each

pandas is imported only when a function needs it.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = [
    "dilemma_in_words",
    "dilemma_percentages",
    "map_percentages",
    "percent",
    "persona_summary",
    "rules_side_by_side",
    "switch_percentages",
]


def _finite(value: Any) -> bool:
    try:
        return not math.isnan(float(value))
    except (TypeError, ValueError):
        return False


def percent(rate: Any, low: Any = None, high: Any = None) -> str:
    """A share as whole percent, with its 95 % interval when given: ``"34 % (29–38)"``.

    A missing share (NaN, None) is shown as "—": a table without fossil seats has no fossil
    win rate."""
    if not _finite(rate):
        return "—"
    text = f"{100 * float(rate):.0f} %"
    if low is None and high is None:
        return text
    if not (_finite(low) and _finite(high)):
        raise ValueError("percent needs both ends of the interval, low and high, or neither.")
    return f"{text} ({100 * float(low):.0f}–{100 * float(high):.0f})"


def _points(value: float) -> str:
    points = round(100 * value)
    return f"{points:+d}" if points else "0"


def _checked_result(result: Any):
    if not (hasattr(result, "table") and hasattr(result, "details")):
        raise ValueError(
            "result must be a DilemmaResult (from insight.dilemma or insight.shipped_dilemma), "
            f"not {type(result).__name__}."
        )
    table = result.table.sort_values("k")
    return table, table["fossil_bot"].iloc[0], table["green_bot"].iloc[0], int(table["k"].max())


def dilemma_percentages(result: Any):
    """One row per number k of fossil seats ("1 of 4"): each strategy's win rate per seat, the
    share of games everybody lost (rule 14.2) and the winners per game with their 95 % intervals,
    the mean turns and the mean final GF, as text a class reads (a fair share is one in n)."""
    import pandas as pd

    table, fossil, green, n = _checked_result(result)
    rows = {}
    for row in table.to_dict("records"):
        rows[f"{int(row['k'])} of {n}"] = {
            f"{fossil} seat wins": percent(
                row["fossil_win_rate"], row["fossil_win_low"], row["fossil_win_high"]
            ),
            f"{green} seat wins": percent(
                row["green_win_rate"], row["green_win_low"], row["green_win_high"]
            ),
            "everyone loses": percent(
                row["everyone_loses"], row["everyone_loses_low"], row["everyone_loses_high"]
            ),
            "winners per game": (
                f"{row['expected_winners']:.2f} "
                f"({row['expected_winners_low']:.2f}–{row['expected_winners_high']:.2f})"
            ),
            "mean turns": f"{row['mean_turns']:.0f}",
            "mean final GF": f"{row['mean_final_gf']:.1f}",
        }
    out = pd.DataFrame(rows).T
    out.index.name = f"{fossil} seats"
    return out


def switch_percentages(result: Any):
    """The question one player asks, one row per choice of the others: my win rate if I stay
    green, if I switch to fossil, and my gain by switching in percentage points with its 95 %
    interval; "settled" says "switching pays", "staying pays" or "not settled" (the interval
    holds 0)."""
    import pandas as pd

    table, fossil, green, n = _checked_result(result)
    by_k = {int(row["k"]): row for row in table.to_dict("records")}
    rows = {}
    for gain in result.details.gains:
        k = gain.k
        stay, switch = by_k[k - 1], by_k[k]
        others = f"{k - 1} {fossil}, {n - k} {green}"
        rows[others] = {
            f"I stay {green}": percent(
                stay["green_win_rate"], stay["green_win_low"], stay["green_win_high"]
            ),
            f"I switch to {fossil}": percent(
                switch["fossil_win_rate"], switch["fossil_win_low"], switch["fossil_win_high"]
            ),
            "my gain (points)": f"{_points(gain.value)} ({_points(gain.low)} to {_points(gain.high)})",
            "settled": {1: "switching pays", -1: "staying pays", 0: "not settled"}[gain.sign],
        }
    out = pd.DataFrame(rows).T
    out.index.name = "the others"
    return out


def dilemma_in_words(result: Any) -> str:
    """The verdict and the three numbers a lesson quotes, in sentences: the lone fossil seat's
    win rate against a fair share, how often an all-fossil table loses together, and the
    winners per game at an all-green and an all-fossil table (95 % intervals throughout)."""
    table, fossil, green, n = _checked_result(result)
    by_k = {int(row["k"]): row for row in table.to_dict("records")}
    lone, everyone, nobody = by_k[1], by_k[n], by_k[0]
    games = result.details.games
    lines = [
        f"verdict: {result.verdict} ({games} games per table)",
        (
            f"a lone {fossil} among {n - 1} {green}: wins "
            f"{percent(lone['fossil_win_rate'], lone['fossil_win_low'], lone['fossil_win_high'])}"
            f" of its games; a fair share is {percent(1 / n)}"
        ),
        (
            f"{n} {fossil}: everyone loses in "
            f"{percent(everyone['everyone_loses'], everyone['everyone_loses_low'], everyone['everyone_loses_high'])}"
            f" of the games; {n} {green}: in "
            f"{percent(nobody['everyone_loses'], nobody['everyone_loses_low'], nobody['everyone_loses_high'])}"
        ),
        (
            f"winners per game: {n} {green} {nobody['expected_winners']:.2f} "
            f"({nobody['expected_winners_low']:.2f}–{nobody['expected_winners_high']:.2f}), "
            f"{n} {fossil} {everyone['expected_winners']:.2f} "
            f"({everyone['expected_winners_low']:.2f}–{everyone['expected_winners_high']:.2f})"
        ),
    ]
    return "\n".join(lines)


_MAP_BLOCKS = ("race", "policy")


def map_percentages(block: str = "race", frame: Any = None):
    """The map of :func:`~energies.insight.dilemma_map` as a class reads it, one row per point
    of ``block`` ("race": VP target against the game's length; "policy": one knob changed
    around the published and the classroom game): the verdict, the lone fossil seat's win rate
    and the all-fossil everyone-loses rate with their 95 % intervals, and the mean turns of the
    lone-fossil table. ``frame``: :func:`~energies.insight.dilemma_map`'s table (default: the
    shipped map)."""
    if block not in _MAP_BLOCKS:
        raise ValueError(f"block must be one of {_MAP_BLOCKS}, not {block!r}.")
    if frame is None:
        from .temptation import dilemma_map

        frame = dilemma_map()
    rows = frame[frame["block"] == block]
    if block == "race":
        index = [
            f"VP {r['victory_points']}, {r['brown_discs']} brown, rows of {r['row_spaces']}"
            for _, r in rows.iterrows()
        ]
    else:
        index = [f"{r['centre']}: {r['change']}" for _, r in rows.iterrows()]
    out = rows.assign(
        **{
            "lone fossil wins": [
                percent(r["lone_fossil"], r["lone_fossil_low"], r["lone_fossil_high"])
                for _, r in rows.iterrows()
            ],
            "all fossil: everyone loses": [
                percent(
                    r["all_fossil_everyone_loses"],
                    r["all_fossil_everyone_loses_low"],
                    r["all_fossil_everyone_loses_high"],
                )
                for _, r in rows.iterrows()
            ],
            "turns": [f"{r['turns_lone_fossil']:.0f}" for _, r in rows.iterrows()],
        }
    )[["verdict_text", "lone fossil wins", "all fossil: everyone loses", "turns"]]
    out = out.rename(columns={"verdict_text": "verdict"})
    out.index = index
    out.index.name = "rules"
    return out


def persona_summary():
    """One row per persona of ``energies.bots.PERSONAS``: its class and the first sentence of
    its description (the plan it plays), for a table a class reads at a glance."""
    import pandas as pd

    from ..bots import PERSONAS

    rows = []
    for short, cls in PERSONAS.items():
        text = " ".join((cls.__doc__ or "").split())
        first = text.split(". ")[0].rstrip(".") + "." if text else ""
        rows.append((short, cls.__name__, first))
    return pd.DataFrame(rows, columns=["short name", "class", "its plan"]).set_index("short name")


def rules_side_by_side(**rule_sets: Any):
    """A few numbers of each rule set, one column per keyword (``published=..., classroom=...``):
    the VP target, the price of each plant in science, the brown discs in the bag, the spaces of
    an event row, the green discs per player and the discs drawn in each GF band, each row
    naming its rule."""
    import pandas as pd

    if not rule_sets:
        raise ValueError(
            "rules_side_by_side needs at least one rule set, e.g. published=RuleSet()."
        )
    columns = {}
    for name, rules in rule_sets.items():
        if not hasattr(rules, "disc_bands_4p"):
            raise ValueError(f"{name} must be a RuleSet, not {type(rules).__name__}.")
        columns[name] = {
            "VP target (rule 14.1)": rules.victory_points,
            "fossil plant, science (rule 10)": dict(rules.fossil_cost)["science"],
            "renewable plant, science (rule 10)": dict(rules.renewable_cost)["science"],
            "brown discs in the bag (rule 1)": sum(n for _, n in rules.brown_discs),
            "spaces per event row (rule 6.3)": rules.event_spaces[0][1],
            "green discs per player (rule 1)": sum(n for _, n in rules.green_discs_per_player),
            "discs drawn by GF band (rule 4.3)": "  ".join(
                f"{low}-{high}: {discs}" for low, high, discs in rules.disc_bands_4p
            ),
        }
    return pd.DataFrame(columns)
