"""Who pollutes, who pays: each seat's share of the pollution caused vs. the pollution harm borne.

A seat's losses in a game have two kinds of cause, and this module keeps them apart:

* **pollution harm** — what the brown (pollution) discs' events took from the seat: hazards
  on its buildings (Air Pollution, Rain and Flooding, rules 7.3 and 7.5), hazards on the hexes
  of its buildings (Environmental Pollution, rule 7.2), the production those hazards kept
  from it (rule 8.1: the cards it was owed from a hazard-blocked hex or building), and the
  cards a brown disc's Climate Conference made it discard (rule 7.1). Columns
  ``hazards_suffered``, ``hex_hazards_suffered``, ``production_lost_hazard``,
  ``cards_discarded_brown``; ``pollution_harm`` adds them (one unit each);
* **ordinary losses** — the Catan luck every game has: cards discarded on a 7 (rule 9.1),
  cards stolen (the Inspector's steal, rule 9.2, and Cleanup's, 13.5), production the
  Inspector kept (rule 8.1), and anything else (``cards_discarded_other``: the Climate
  Conference when a green disc fills its shared row, rule 6.4). ``ordinary_losses`` adds
  ``cards_discarded_seven``, ``cards_stolen``, ``production_lost_inspector`` and
  ``cards_discarded_other``.

**Pollution caused** — *fossil-plant-turns*: the sum over the played turns (history records
with turn >= 1; the set-up record only when no turn was played) of the seat's fossil plants
at the end of each turn. A fossil plant adds 1 to its owner's LF and to the GF for every turn
it stands (rule 4.1); the GF sets how many discs are drawn (rule 4.3). Towns and cities add
to LF too, but every player builds them: the pollution a seat chooses is its fossil plants.
The game has no per-seat link from a plant to a brown disc (every brown disc is in the bag
from the start, rule 3.1), so this is the seat's share of the chosen pollution, not of the
discs. ``pollution_caused_share`` = own / table total; ``pollution_harm_share`` likewise;
``pollution_ratio`` = pollution_harm_share / pollution_caused_share (> 1: bore more pollution
harm than its share of the pollution; inf when it caused none but bore some).

Table numbers (the same on every row of a game): ``pollution_mismatch`` =
1/2 * sum |pollution_harm_share - pollution_caused_share| (0: the harm exactly follows the
pollution; 1: all of it falls on seats that caused none) and ``pollution_concentration`` —
the concentration index of pollution harm with seats ranked by pollution caused:
C = 2 * sum_i harm_share_i * R_i - 1, fractional rank R_i = (rank_i - 1/2) / n (rank 1 = the
least pollution, tied seats share their mean rank). C > 0: the polluters bear most of the
harm ("polluter pays"); C < 0: the clean seats do; 0: no relation; extremes +-(1 - 1/n). NaN
when nobody bore pollution harm or nobody caused any.

The first measures of release 0.4 stay, unchanged: **footprint caused** (``footprint_turns``:
the sum over played turns of max(LF, 0), ``footprint_share``), all losses together (``harm``
adds ``hazards_suffered``, ``production_lost``, ``cards_discarded``, ``cards_stolen``,
``blocked_turns``; ``harm_share``; ``burden_ratio`` = harm_share / footprint_share) and their
``mismatch`` and ``concentration``. They mix pollution with ordinary Catan losses: a question
about who pays for pollution needs the pollution columns.

History records written before the split (no ``production_lost_hazard`` column, e.g. a saved
frame of release 0.4) give NaN in the pollution and ordinary columns.
"""

from __future__ import annotations

import math
from typing import Any

from ..kit.text import chart_text

__all__ = ["HARM_KINDS", "ORDINARY_KINDS", "POLLUTION_KINDS", "burden", "plot_burden", "who_paid"]

HARM_KINDS = (
    "hazards_suffered",
    "production_lost",
    "cards_discarded",
    "cards_stolen",
    "blocked_turns",
)
POLLUTION_KINDS = (
    "hazards_suffered",
    "hex_hazards_suffered",
    "production_lost_hazard",
    "cards_discarded_brown",
)
ORDINARY_KINDS = (
    "cards_discarded_seven",
    "cards_stolen",
    "production_lost_inspector",
    "cards_discarded_other",
)
# the history columns the split needs (the others of ORDINARY_KINDS are derived from them)
_SPLIT_COLUMNS = ("hex_hazards_suffered", "production_lost_hazard", "cards_discarded_seven")


def _records(game_or_frame) -> tuple[list[dict[str, Any]], bool]:
    """History records (dicts) and whether they carry a ``game`` column."""
    if hasattr(game_or_frame, "state") and hasattr(game_or_frame, "history"):
        names = list(getattr(game_or_frame, "names", []) or [])
        records = [dict(r) for r in game_or_frame.history]
        if len(names) == game_or_frame.rules.players:
            for r in records:
                r["name"] = names[r["seat"]]
        return records, False
    if hasattr(game_or_frame, "to_dict") and hasattr(game_or_frame, "columns"):
        missing = {"turn", "seat", "lf"} - set(game_or_frame.columns)
        if missing:
            raise ValueError(
                "burden needs a Game, game.history_frame() or simulate(per_turn=True)'s turns "
                f"frame (missing columns {sorted(missing)})."
            )
        return game_or_frame.to_dict("records"), "game" in game_or_frame.columns
    if isinstance(game_or_frame, (list, tuple)):
        records = [dict(r) for r in game_or_frame]
        return records, bool(records) and "game" in records[0]
    raise ValueError("burden needs a Game or a history DataFrame.")


def _shares(values: list[float]) -> list[float]:
    total = sum(values)
    return [v / total if total > 0 else math.nan for v in values]


def concentration_index(footprint: list[float], harm_share: list[float]) -> float:
    """Gini-style concentration index of harm with seats ranked by footprint (see module doc)."""
    n = len(footprint)
    if n == 0 or any(math.isnan(h) for h in harm_share) or sum(footprint) <= 0:
        return math.nan
    order = sorted(range(n), key=lambda i: footprint[i])
    rank = [0.0] * n
    i = 0
    while i < n:  # tied footprints share their mean rank
        j = i
        while j + 1 < n and footprint[order[j + 1]] == footprint[order[i]]:
            j += 1
        mean_rank = (i + j) / 2 + 1
        for k in range(i, j + 1):
            rank[order[k]] = mean_rank
        i = j + 1
    return 2 * sum(h * (r - 0.5) / n for h, r in zip(harm_share, rank)) - 1


def mismatch_index(harm_share: list[float], caused_share: list[float]) -> float:
    """1/2 * sum |harm share - caused share|: the share of the harm that would have to move
    for harm to follow what each seat caused (NaN if either is undefined)."""
    if any(math.isnan(x) for x in harm_share + caused_share):
        return math.nan
    return 0.5 * sum(abs(h - f) for h, f in zip(harm_share, caused_share))


def _ratio(harm_share: float, caused_share: float) -> float:
    if math.isnan(caused_share) or math.isnan(harm_share):
        return math.nan
    if caused_share == 0:
        return math.inf if harm_share > 0 else math.nan
    return harm_share / caused_share


def _count(record: dict, kind: str) -> float:
    value = record.get(kind, 0)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return 0.0
    return float(value)


def _split(record: dict) -> dict[str, float]:
    """The pollution and ordinary counts of a seat's last record (NaN before the split)."""
    if not all(column in record for column in _SPLIT_COLUMNS):
        return {kind: math.nan for kind in {*POLLUTION_KINDS, *ORDINARY_KINDS}}
    c = {kind: int(_count(record, kind)) for kind in {*HARM_KINDS, *_SPLIT_COLUMNS}}
    brown = int(_count(record, "cards_discarded_brown"))
    return {
        "hazards_suffered": c["hazards_suffered"],
        "hex_hazards_suffered": c["hex_hazards_suffered"],
        "production_lost_hazard": c["production_lost_hazard"],
        "cards_discarded_brown": brown,
        "cards_discarded_seven": c["cards_discarded_seven"],
        "cards_stolen": c["cards_stolen"],
        "production_lost_inspector": c["production_lost"] - c["production_lost_hazard"],
        "cards_discarded_other": c["cards_discarded"] - c["cards_discarded_seven"] - brown,
    }


def _one_game(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    last: dict[tuple[int, int], dict] = {}
    for r in records:  # one record per (turn, seat): keep the last one
        last[(int(r["turn"]), int(r["seat"]))] = r
    seats = sorted({seat for _, seat in last})
    played = [key for key in last if key[0] >= 1] or list(last)
    caused = {s: 0.0 for s in seats}
    fossil_turns = {s: 0 for s in seats}
    for turn, seat in played:
        caused[seat] += max(float(last[(turn, seat)]["lf"]), 0.0)
        fossil_turns[seat] += int(_count(last[(turn, seat)], "fossil"))
    final: dict[int, dict] = {}
    for (_turn, seat), r in sorted(last.items()):
        final[seat] = r  # the seat's latest record: cumulative harm counters
    foot_share = _shares([caused[s] for s in seats])
    harm_counts = {kind: [_count(final[s], kind) for s in seats] for kind in HARM_KINDS}
    harm = [sum(harm_counts[k][i] for k in HARM_KINDS) for i in range(len(seats))]
    harm_share = _shares(harm)
    kind_shares = {k: _shares(v) for k, v in harm_counts.items()}
    split = [_split(final[s]) for s in seats]
    pollution = [sum(x[k] for k in POLLUTION_KINDS) for x in split]
    ordinary = [sum(x[k] for k in ORDINARY_KINDS) for x in split]
    polluted = [fossil_turns[s] for s in seats]
    pollution_caused_share = _shares(polluted)
    pollution_share = _shares(pollution) if not any(map(math.isnan, pollution)) else pollution
    ordinary_share = _shares(ordinary) if not any(map(math.isnan, ordinary)) else ordinary
    rows = []
    for i, s in enumerate(seats):
        row = {"seat": s}
        if "name" in final[s]:
            row["name"] = final[s]["name"]
        row.update(
            {
                "fossil_plant_turns": polluted[i],
                "pollution_caused_share": pollution_caused_share[i],
            }
        )
        for k in POLLUTION_KINDS:
            row[k] = split[i][k]
        row["pollution_harm"] = pollution[i]
        row["pollution_harm_share"] = pollution_share[i]
        row["pollution_ratio"] = _ratio(pollution_share[i], pollution_caused_share[i])
        for k in ORDINARY_KINDS:
            row[k] = split[i][k]
        row["ordinary_losses"] = ordinary[i]
        row["ordinary_losses_share"] = ordinary_share[i]
        row.update({"footprint_turns": caused[s], "footprint_share": foot_share[i]})
        for k in HARM_KINDS:
            row[k] = int(harm_counts[k][i])  # (hazards_suffered: known before the split too)
            row[f"{k}_share"] = kind_shares[k][i]
        row["harm"] = int(harm[i])
        row["harm_share"] = harm_share[i]
        row["burden_ratio"] = _ratio(harm_share[i], foot_share[i])
        rows.append(row)
    table = {
        "pollution_mismatch": mismatch_index(pollution_share, pollution_caused_share),
        "pollution_concentration": concentration_index(polluted, pollution_share),
        "mismatch": mismatch_index(harm_share, foot_share),
        "concentration": concentration_index([caused[s] for s in seats], harm_share),
    }
    for row in rows:
        row.update(table)
    return rows


TABLE_NUMBERS = ("pollution_mismatch", "pollution_concentration", "mismatch", "concentration")


def burden(game_or_frame):
    """Per seat: pollution caused vs pollution harm borne, and the ordinary losses apart.

    Accepts a :class:`~energies.Game`, ``game.history_frame()`` (the last turn's cumulative
    counters are used) or the turns frame of ``simulate(..., per_turn=True)`` (then one row
    per game and seat, with a ``game`` column). Columns: ``[game,] seat, [name,]
    fossil_plant_turns, pollution_caused_share``, the pollution kinds, ``pollution_harm,
    pollution_harm_share, pollution_ratio``, the ordinary kinds, ``ordinary_losses,
    ordinary_losses_share``, then the all-losses measures (``footprint_turns,
    footprint_share``, each of ``HARM_KINDS`` and its ``<kind>_share``, ``harm, harm_share,
    burden_ratio``) and the table numbers ``pollution_mismatch, pollution_concentration,
    mismatch, concentration`` — defined in the module docstring and ``docs/insight.md``. The
    pollution and ordinary columns are NaN where the records predate the split. For a single
    game ``frame.attrs`` holds the four table numbers.
    """
    import pandas as pd

    records, by_game = _records(game_or_frame)
    if not records:
        raise ValueError("No turns recorded yet: nothing to compute a burden from.")
    if by_game:
        groups: dict[Any, list] = {}
        for r in records:
            groups.setdefault(r["game"], []).append(r)
        rows = []
        for game_id, recs in groups.items():
            rows += [{"game": game_id, **row} for row in _one_game(recs)]
        return pd.DataFrame.from_records(rows)
    frame = pd.DataFrame.from_records(_one_game(records))
    for key in TABLE_NUMBERS:
        frame.attrs[key] = float(frame[key].iloc[0])
    return frame


_PARTS = {
    # part -> (caused column and label, harm column and label, title)
    "pollution": (
        ("pollution_caused_share", "pollution caused (fossil plants)"),
        ("pollution_harm_share", "pollution harm borne"),
        "Who polluted, who paid for it",
        ("pollution_mismatch", "pollution_concentration"),
    ),
    "all": (
        ("footprint_share", "footprint caused"),
        ("harm_share", "all losses (pollution and Catan luck)"),
        "Footprint and every loss",
        ("mismatch", "concentration"),
    ),
}


def who_paid(game_or_frame):
    """The pollution burden of one game as a class reads it: one row per player, three columns.

    ``pollution caused`` and ``pollution harm borne`` are the player's shares of the table's, in
    whole percent (the ordinary Catan losses, 7s and theft, are left out: :func:`burden` has
    them); ``paid ÷ caused`` is the pollution ratio (above 1: bore more than its share of the
    pollution it caused)."""
    frame = game_or_frame if hasattr(game_or_frame, "columns") else burden(game_or_frame)
    if "game" in frame.columns:
        raise ValueError("who_paid shows one game: pass a Game or one game's burden frame.")
    names = frame["name"] if "name" in frame.columns else [f"Seat {s}" for s in frame["seat"]]
    table = frame.assign(player=list(names)).set_index("player")
    shares = table[["pollution_caused_share", "pollution_harm_share"]].fillna(0)
    out = (100 * shares).round().astype(int)
    out.columns = ["pollution caused (%)", "pollution harm borne (%)"]
    out["paid ÷ caused"] = table["pollution_ratio"].round(1)
    return out


def plot_burden(frame, ax=None, part: str = "pollution"):
    """Bars per seat: its share of the pollution caused, of the pollution harm borne and, in
    grey, of the ordinary losses (the Catan luck kept apart). ``part="all"`` draws the
    release 0.4 chart instead: footprint caused vs every loss together.

    ``frame`` is :func:`burden`'s result (or a Game); with a ``game`` column the shares are
    averaged over the games. Returns the Axes.
    """
    if part not in _PARTS:
        raise ValueError(f"part must be one of {sorted(_PARTS)}, not {part!r}.")
    if not hasattr(frame, "columns"):
        frame = burden(frame)
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=(6.5, 3.5), layout="constrained")
    from ..viz import SEAT_COLORS

    (caused, caused_label), (harm, harm_label), title, table = _PARTS[part]
    columns = [caused, harm] + (["ordinary_losses_share"] if part == "pollution" else [])
    per_seat = frame.groupby("seat")[columns].mean()
    seats = [int(s) for s in per_seat.index]
    names = {}
    if "name" in frame.columns:
        names = dict(zip(frame["seat"].astype(int), frame["name"]))
    width = 0.8 / len(columns)
    xs = list(range(len(seats)))
    colors = [SEAT_COLORS[s % len(SEAT_COLORS)] for s in seats]
    offset = [(k - (len(columns) - 1) / 2) * width for k in range(len(columns))]
    ax.bar(
        [x + offset[0] for x in xs],
        per_seat[caused].fillna(0),
        width,
        color=colors,
        label=caused_label,
        gid="burden-caused",
    )
    ax.bar(
        [x + offset[1] for x in xs],
        per_seat[harm].fillna(0),
        width,
        color=colors,
        alpha=0.45,
        hatch="//",
        edgecolor="black",
        label=harm_label,
        gid="burden-suffered",
    )
    if part == "pollution":
        ax.bar(
            [x + offset[2] for x in xs],
            per_seat["ordinary_losses_share"].fillna(0),
            width,
            color="#BBBBBB",
            edgecolor="#777777",
            label="ordinary losses (7s, theft, Inspector)",
            gid="burden-ordinary",
        )
    ax.axhline(
        1 / max(len(seats), 1),
        color="black",
        linestyle=":",
        linewidth=1,
        label=f"equal share (1/{len(seats)})",
    )
    ax.set_xticks(xs, [chart_text(str(names.get(s, f"Seat {s}"))) for s in seats])
    ax.yaxis.set_major_formatter("{x:.0%}")
    ax.set_ylabel("share of the table")
    mismatch, concentration = table
    if "game" not in frame.columns and mismatch in frame.columns:
        m, c = frame[mismatch].iloc[0], frame[concentration].iloc[0]
        title += f" — mismatch {m:.2f}, concentration {c:+.2f}"
    elif "game" in frame.columns:
        title += f" (mean of {frame['game'].nunique()} games)"
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    return ax
