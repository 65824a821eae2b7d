"""A map of which rules make which game: the policy knobs a lesson can discuss, and their rules.

Each point of the map is a rule set described by a few knobs (their published values in
:data:`PUBLISHED_KNOBS`); :func:`policy_rules` turns knobs into a :class:`~energies.RuleSet`:

* ``victory_points`` — the VP target of rule 14.1 (the length of the race);
* ``brown_discs`` — the brown discs in the bag (rule 1): 43 is the published 9/8/9/9/8;
  any other multiple of 5 is the same number of each of the five kinds;
* ``row_spaces`` — spaces on every event row (rule 6.3): fewer spaces, events fire sooner;
* ``green_per_player`` — each player's green discs (rule 1): 9 is the published 1/4/4; any
  other odd number keeps the one Climate Conference and splits the rest evenly between
  Sustainable Production and Government Funding;
* ``fossil_science`` and ``renewable_science`` — the price of a plant in science (rule 10);
* ``disc_bands`` — how many discs the event phase draws by GF (rule 4.3): "published";
  "flat" (one disc at any footprint: no feedback from pollution to the pace of the game);
  "early" (the two top bands start 3 GF lower with 4 players, 2 lower with 3: pollution
  speeds the end sooner).

``benchmarks/dilemma_map.py`` measures a grid of points with
:func:`~energies.insight.temptation.measure.dilemma` and ships the table with the package
(``energies/data/dilemma_map.csv``); :func:`dilemma_map` reads it, one row per point with
its verdict, and :func:`plot_dilemma_map` draws it.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from .verdict import VERDICTS, classify, signed_points

__all__ = [
    "BAND_CHOICES",
    "KNOBS",
    "MAP_TABLE",
    "PUBLISHED_KNOBS",
    "VERDICT_COLORS",
    "dilemma_map",
    "knobs_of",
    "plot_dilemma_map",
    "policy_rules",
]

#: The cached map inside the package (written by benchmarks/dilemma_map.py).
MAP_TABLE = "dilemma_map.csv"

#: The knobs and their published values.
PUBLISHED_KNOBS: dict[str, Any] = {
    "victory_points": 10,
    "brown_discs": 43,
    "row_spaces": 3,
    "green_per_player": 9,
    "fossil_science": 1,
    "renewable_science": 3,
    "disc_bands": "published",
}
KNOBS = tuple(PUBLISHED_KNOBS)
BAND_CHOICES = ("published", "flat", "early")

#: One colour per verdict, for the map.
VERDICT_COLORS = {
    "social dilemma": "#D62728",
    "volunteer's dilemma": "#FF7F0E",
    "chicken": "#FFBB78",
    "no temptation": "#2CA02C",
    "other": "#9467BD",
    "undecided": "#D9D9D9",
}


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}.")
    return value


def policy_rules(players: int = 4, **knobs: Any):
    """The :class:`~energies.RuleSet` of a map point: the published rules with the knobs set.

    ``policy_rules(victory_points=6, brown_discs=30)`` is the published game raced to 6 VP
    with 6 brown discs of each kind. Unknown knobs and impossible values raise a ValueError
    that names them.
    """
    from ...newenergies.rules import BROWN_EVENTS, EARLY_DISC_BANDS, ROWS, RuleSet

    unknown = sorted(set(knobs) - set(KNOBS))
    if unknown:
        raise ValueError(f"Unknown knob(s) {unknown}; the knobs are {list(KNOBS)}.")
    values = {**PUBLISHED_KNOBS, **knobs}
    changes: dict[str, Any] = {
        "victory_points": _whole("victory_points", values["victory_points"], 3, 20)
    }
    brown = _whole("brown_discs", values["brown_discs"], 5, 200)
    if brown != PUBLISHED_KNOBS["brown_discs"]:
        if brown % len(BROWN_EVENTS):
            raise ValueError(f"brown_discs must be 43 (published) or a multiple of 5, not {brown}.")
        changes["brown_discs"] = tuple((kind, brown // len(BROWN_EVENTS)) for kind in BROWN_EVENTS)
    spaces = _whole("row_spaces", values["row_spaces"], 1, 10)
    if spaces != PUBLISHED_KNOBS["row_spaces"]:
        changes["event_spaces"] = tuple((row, spaces) for row in ROWS)
    green = _whole("green_per_player", values["green_per_player"], 1, 29)
    if green != PUBLISHED_KNOBS["green_per_player"]:
        if green % 2 == 0:
            raise ValueError(f"green_per_player must be an odd number, not {green}.")
        half = (green - 1) // 2
        changes["green_discs_per_player"] = (
            ("climate_conference", 1),
            ("sustainable_production", half),
            ("government_funding", half),
        )
    changes["fossil_cost"] = (
        ("science", _whole("fossil_science", values["fossil_science"], 0, 10)),
    )
    changes["renewable_cost"] = (
        ("science", _whole("renewable_science", values["renewable_science"], 0, 10)),
    )
    bands = values["disc_bands"]
    if bands not in BAND_CHOICES:
        raise ValueError(f"disc_bands must be one of {list(BAND_CHOICES)}, not {bands!r}.")
    if players not in (3, 4) or isinstance(players, bool):
        raise ValueError(f"players must be 3 or 4, not {players!r}.")
    # both player counts' bands, as RuleSet.classroom() sets them
    if bands == "flat":
        changes["disc_bands_4p"], changes["disc_bands_3p"] = ((0, 28, 1),), ((0, 21, 1),)
    elif bands == "early":
        changes["disc_bands_4p"], changes["disc_bands_3p"] = (
            EARLY_DISC_BANDS[4],
            EARLY_DISC_BANDS[3],
        )
    return RuleSet.standard(players, **changes)


def knobs_of(rules) -> dict[str, Any]:
    """The knobs of a rule set that differs from the published one only in what the knobs
    set (``knobs_of(RuleSet.classroom())``); a ValueError names the other fields."""
    from ...newenergies.rules import RuleSet

    if not isinstance(rules, RuleSet):
        raise ValueError(f"rules must be a RuleSet, not {type(rules).__name__}.")
    published = RuleSet.standard(rules.players)
    bands = {name: policy_rules(rules.players, disc_bands=name).disc_bands for name in BAND_CHOICES}
    greens = dict(rules.green_discs_per_player)
    knobs = {
        "victory_points": rules.victory_points,
        "brown_discs": sum(n for _, n in rules.brown_discs),
        "row_spaces": max(n for _, n in rules.event_spaces),
        "green_per_player": sum(greens.values()),
        "fossil_science": dict(rules.fossil_cost).get("science", 0),
        "renewable_science": dict(rules.renewable_cost).get("science", 0),
        "disc_bands": next((n for n, b in bands.items() if b == rules.disc_bands), "published"),
    }
    try:
        rebuilt = policy_rules(rules.players, **knobs)
    except ValueError:
        rebuilt = None
    if rebuilt != rules:
        other = sorted(
            name
            for name, value in rules.to_dict().items()
            if value != published.to_dict()[name]
            and (rebuilt is None or value != rebuilt.to_dict()[name])
        )
        raise ValueError(
            f"The map's knobs cannot describe this rule set: it changes {other or 'a knob'} "
            "in a way the knobs do not cover."
        )
    return knobs


def map_table():
    """The shipped map in long form: one row per point and k: the point's ``point`` (its
    label), ``block``, ``centre`` and ``change`` (policy block: the centre it varies and the
    knob changed, "none" for the centre itself), its knobs, then the dilemma table's columns."""
    import pandas as pd

    with resources.files("energies.data").joinpath(MAP_TABLE).open() as f:
        return pd.read_csv(f)


def summarise_point(table) -> dict[str, Any]:
    """One map row from one point's dilemma table: its verdict and the numbers a lesson quotes."""
    table = table.sort_values("k")
    verdict = classify(table)
    n = int(table["k"].max())
    first, lone, last = (table[table["k"] == k].iloc[0] for k in (0, 1, n))
    return {
        "verdict": verdict.kind,
        "verdict_text": verdict.text,
        "games": verdict.games,
        "lone_fossil": lone["fossil_win_rate"],
        "lone_fossil_low": lone["fossil_win_low"],
        "lone_fossil_high": lone["fossil_win_high"],
        "all_fossil_everyone_loses": last["everyone_loses"],
        "all_fossil_everyone_loses_low": last["everyone_loses_low"],
        "all_fossil_everyone_loses_high": last["everyone_loses_high"],
        "all_green_everyone_loses": first["everyone_loses"],
        "winners_all_green": first["expected_winners"],
        "winners_all_fossil": last["expected_winners"],
        "turns_all_green": first["mean_turns"],
        "turns_lone_fossil": lone["mean_turns"],
        "turns_all_fossil": last["mean_turns"],
        "gains": " ".join(signed_points(g.value) for g in verdict.gains),
    }


def dilemma_map(table=None):
    """The map, one row per point: ``point``, ``block`` ("race": VP target x game length;
    "policy": one knob changed around a centre), ``centre``, ``change``, the knobs, ``verdict`` and the numbers a lesson
    quotes: the lone fossil seat's win rate with its 95 % interval, the all-fossil
    everyone-loses rate with its interval, the all-green one, the expected winners and mean
    turns at the all-green, lone-fossil and all-fossil tables, and the switching gains
    D(1) .. D(n) in points (``gains``). ``table``: the long form (default: the shipped map).
    """
    import pandas as pd

    if table is None:
        table = map_table()
    rows = []
    for point, part in table.groupby("point", sort=False):
        head = part.iloc[0]
        row = {key: head[key] for key in ("point", "block", "centre", "change")}
        row.update({knob: head[knob] for knob in KNOBS})
        row.update(summarise_point(part))
        rows.append(row)
    return pd.DataFrame(rows)


def _length_label(row) -> str:
    return f"{row['brown_discs']} brown, rows of {row['row_spaces']}"


def plot_dilemma_map(frame=None, ax=None, block: str = "race"):
    """Draw the map as a grid of verdicts; return the Axes.

    ``block="race"``: VP target (x) against the game's length (y: brown discs and event-row
    spaces), every other knob published. ``block="policy"``: one knob changed at a time (y)
    around each centre (x: the published game and the classroom game). Each cell is coloured
    by its verdict and shows the lone fossil seat's win rate ("F1") and the all-fossil
    everyone-loses rate ("EL"). ``frame``: :func:`dilemma_map`'s table (default: shipped).
    """
    from matplotlib.patches import Patch, Rectangle

    if block not in ("race", "policy"):
        raise ValueError(f"block must be 'race' or 'policy', not {block!r}.")
    if frame is None:
        frame = dilemma_map()
    rows = frame[frame["block"] == block]
    if rows.empty:
        raise ValueError(f"The map has no points in the {block!r} block.")
    if block == "race":
        xs = [str(v) for v in sorted(rows["victory_points"].unique())]
        ys = sorted({_length_label(r) for _, r in rows.iterrows()}, key=_length_key)
        cells = {(str(r["victory_points"]), _length_label(r)): r for _, r in rows.iterrows()}
        xlabel, ylabel = "VP target (rule 14.1)", "game length (bag and event rows)"
    else:
        xs = list(dict.fromkeys(rows["centre"]))
        ys = list(dict.fromkeys(rows["change"]))
        cells = {(r["centre"], r["change"]): r for _, r in rows.iterrows()}
        xlabel, ylabel = "centre", "one knob changed"
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(
            figsize=(1.3 * len(xs) + 3.2, 0.55 * len(ys) + 1.6), layout="constrained"
        )
    presets = _presets()  # in the race block only where a preset lies on its grid
    for (x, y), row in cells.items():
        i, j = xs.index(x), ys.index(y)
        color = VERDICT_COLORS[row["verdict"]]
        ax.add_patch(
            Rectangle((i, j), 1, 1, facecolor=color, edgecolor="white", gid=f"cell-{x}-{y}")
        )
        text = (
            f"F1 {100 * row['lone_fossil']:.0f}%\nEL {100 * row['all_fossil_everyone_loses']:.0f}%"
        )
        preset = presets.get(tuple(row[knob] for knob in KNOBS))
        if preset:  # the published game and RuleSet.classroom(), outlined and named
            ax.add_patch(
                Rectangle(
                    (i + 0.04, j + 0.04),
                    0.92,
                    0.92,
                    fill=False,
                    edgecolor="black",
                    linewidth=2,
                    gid=f"preset-{preset}",
                )
            )
            text = f"{preset}\n{text}"
        ax.text(i + 0.5, j + 0.5, text, ha="center", va="center", fontsize=7)
    if block == "policy":  # a change a centre already has (the classroom game's early bands)
        for i, x in enumerate(xs):
            for j, y in enumerate(ys):
                if (x, y) not in cells:
                    ax.text(
                        i + 0.5,
                        j + 0.5,
                        "the centre's\nown rule",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="0.45",
                    )
    ax.set_xlim(0, len(xs))
    ax.set_ylim(0, len(ys))
    ax.set_xticks([i + 0.5 for i in range(len(xs))], xs, fontsize=8)
    ax.set_yticks([j + 0.5 for j in range(len(ys))], ys, fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    shown = [v for v in VERDICTS if v in set(rows["verdict"])]
    ax.legend(
        handles=[Patch(facecolor=VERDICT_COLORS[v], label=v) for v in shown],
        fontsize=7,
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
    )
    games = int(rows["games"].min())
    ax.set_title(
        f"Which rules make which game (personas, at least {games} games per table)", fontsize=10
    )
    return ax


def _presets() -> dict[tuple, str]:
    """The knobs of the published game and of RuleSet.classroom(), by the name to show."""
    from ...newenergies.rules import RuleSet

    return {
        tuple(knobs_of(rules)[knob] for knob in KNOBS): name
        for name, rules in (("published", RuleSet.standard()), ("classroom", RuleSet.classroom()))
    }


def _length_key(label: str) -> tuple[int, int]:
    brown, _, rest = label.partition(" brown, rows of ")
    return int(brown), int(rest)
