"""Who pollutes, who pays: each seat's share of the footprint caused vs. the harm suffered.

Definitions (also in ``docs/insight.md``):

* **footprint caused** — *footprint-turns*: the sum over the played turns
  (history records with turn >= 1; the set-up record, turn 0, is used only when
  no turn was played) of ``max(LF, 0)`` at the end of each turn. A seat that
  keeps LF 5 for ten turns caused 50; a negative LF causes nothing (it does
  not cancel another seat's pollution). ``footprint_share`` = the seat's
  footprint-turns / the table's.
* **harm suffered** — the cumulative counters of the last record:
  ``hazards_suffered``, ``production_lost``, ``cards_discarded``,
  ``cards_stolen``, ``blocked_turns``. Each has a ``<kind>_share`` of the
  table total. ``harm`` adds them up: every hazard, lost, discarded or stolen
  card and every blocked turn is one unit of harm; ``harm_share`` is the
  seat's share of all units.
* ``burden_ratio`` = harm_share / footprint_share (> 1: suffers more than it
  caused; inf when it caused nothing but suffered).
* Table numbers (the same on every row of a game):
  ``mismatch`` = 1/2 * sum |harm_share - footprint_share| (0: harm exactly
  follows footprint; 1: all harm falls on seats that caused nothing), and
  ``concentration`` — the Gini-style concentration index of harm, seats
  ranked by footprint: C = 2 * sum_i harm_share_i * R_i - 1 with the
  fractional rank R_i = (rank_i - 1/2) / n (rank 1 = smallest footprint,
  tied seats share their mean rank). C > 0: the polluters suffer most
  ("polluter pays"); C < 0: the clean seats suffer most; 0: no relation.
  Its extremes are +-(1 - 1/n). NaN when nobody suffered (or nobody polluted).
"""

from __future__ import annotations

import math
from typing import Any

from ..kit.text import chart_text

__all__ = ["HARM_KINDS", "burden", "plot_burden", "who_paid"]

HARM_KINDS = (
    "hazards_suffered",
    "production_lost",
    "cards_discarded",
    "cards_stolen",
    "blocked_turns",
)


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


def _one_game(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    last: dict[tuple[int, int], dict] = {}
    for r in records:  # one record per (turn, seat): keep the last one
        last[(int(r["turn"]), int(r["seat"]))] = r
    seats = sorted({seat for _, seat in last})
    played = [key for key in last if key[0] >= 1] or list(last)
    caused = {s: 0.0 for s in seats}
    for turn, seat in played:
        caused[seat] += max(float(last[(turn, seat)]["lf"]), 0.0)
    final: dict[int, dict] = {}
    for (_turn, seat), r in sorted(last.items()):
        final[seat] = r  # the seat's latest record: cumulative harm counters
    rows = []
    foot_share = _shares([caused[s] for s in seats])
    harm_counts = {kind: [float(final[s].get(kind, 0) or 0) for s in seats] for kind in HARM_KINDS}
    harm = [sum(harm_counts[k][i] for k in HARM_KINDS) for i in range(len(seats))]
    harm_share = _shares(harm)
    kind_shares = {k: _shares(v) for k, v in harm_counts.items()}
    for i, s in enumerate(seats):
        row = {"seat": s}
        if "name" in final[s]:
            row["name"] = final[s]["name"]
        row.update({"footprint_turns": caused[s], "footprint_share": foot_share[i]})
        for k in HARM_KINDS:
            row[k] = int(harm_counts[k][i])
            row[f"{k}_share"] = kind_shares[k][i]
        row["harm"] = int(harm[i])
        row["harm_share"] = harm_share[i]
        f, h = foot_share[i], harm_share[i]
        if math.isnan(f) or math.isnan(h):
            ratio = math.nan
        elif f == 0:
            ratio = math.inf if h > 0 else math.nan
        else:
            ratio = h / f
        row["burden_ratio"] = ratio
        rows.append(row)
    if any(math.isnan(x) for x in foot_share + harm_share):
        mismatch = math.nan
    else:
        mismatch = 0.5 * sum(abs(h - f) for h, f in zip(harm_share, foot_share))
    conc = concentration_index([caused[s] for s in seats], harm_share)
    for row in rows:
        row["mismatch"] = mismatch
        row["concentration"] = conc
    return rows


def burden(game_or_frame):
    """Per seat: share of the footprint caused vs share of the harm suffered; a DataFrame.

    Accepts a :class:`~energies.Game`, ``game.history_frame()`` (the last turn's
    cumulative counters are used) or the turns frame of
    ``simulate(..., per_turn=True)`` (then one row per game and seat, with a
    ``game`` column). Columns: ``[game,] seat, [name,] footprint_turns,
    footprint_share``, per harm kind the count and ``<kind>_share``, ``harm,
    harm_share, burden_ratio, mismatch, concentration`` — defined in the module
    docstring and ``docs/insight.md``. For a single game ``frame.attrs`` holds
    ``mismatch`` and ``concentration``.
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
    frame.attrs["mismatch"] = float(frame["mismatch"].iloc[0])
    frame.attrs["concentration"] = float(frame["concentration"].iloc[0])
    return frame


def who_paid(game_or_frame):
    """The burden of one game as a class reads it: one row per player, three columns.

    ``footprint caused`` and ``harm suffered`` are the player's shares of the table's, in
    whole percent; ``paid ÷ caused`` is the burden ratio (above 1: paid more than its share
    of the pollution). :func:`burden` has every column behind them."""
    frame = game_or_frame if hasattr(game_or_frame, "columns") else burden(game_or_frame)
    if "game" in frame.columns:
        raise ValueError("who_paid shows one game: pass a Game or one game's burden frame.")
    names = frame["name"] if "name" in frame.columns else [f"Seat {s}" for s in frame["seat"]]
    table = frame.assign(player=list(names)).set_index("player")
    out = (100 * table[["footprint_share", "harm_share"]].fillna(0)).round().astype(int)
    out.columns = ["footprint caused (%)", "harm suffered (%)"]
    out["paid ÷ caused"] = table["burden_ratio"].round(1)
    return out


def plot_burden(frame, ax=None):
    """Paired bars per seat: share of the footprint caused vs share of the harm suffered.

    ``frame`` is :func:`burden`'s result (or a Game); with a ``game`` column the
    shares are averaged over the games. Returns the Axes.
    """
    if not hasattr(frame, "columns"):
        frame = burden(frame)
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=(6.5, 3.5), layout="constrained")
    from ..viz import SEAT_COLORS

    per_seat = frame.groupby("seat")[["footprint_share", "harm_share"]].mean()
    seats = [int(s) for s in per_seat.index]
    names = {}
    if "name" in frame.columns:
        names = dict(zip(frame["seat"].astype(int), frame["name"]))
    width = 0.38
    xs = list(range(len(seats)))
    colors = [SEAT_COLORS[s % len(SEAT_COLORS)] for s in seats]
    ax.bar(
        [x - width / 2 for x in xs],
        per_seat["footprint_share"].fillna(0),
        width,
        color=colors,
        label="footprint caused",
        gid="burden-caused",
    )
    ax.bar(
        [x + width / 2 for x in xs],
        per_seat["harm_share"].fillna(0),
        width,
        color=colors,
        alpha=0.45,
        hatch="//",
        edgecolor="black",
        label="harm suffered",
        gid="burden-suffered",
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
    title = "Who pollutes, who pays"
    if "game" not in frame.columns and "mismatch" in frame.columns:
        m, c = frame["mismatch"].iloc[0], frame["concentration"].iloc[0]
        title += f" — mismatch {m:.2f}, concentration {c:+.2f}"
    elif "game" in frame.columns:
        title += f" (mean of {frame['game'].nunique()} games)"
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    return ax
