"""Pollution harm against ordinary Catan losses in persona games (energies.insight.burden).

    nice -n 5 python benchmarks/burden_split.py --games 400

Plays ``--games`` seeded games of the four personas (fossil, green, balanced, freerider; seats
rotated) with per-turn records and reads them with :func:`energies.insight.burden`. Reports:

* every kind of loss as a share of all loss units (pollution kinds and ordinary kinds), and
  the pollution share of each game's losses (mean over games, 95 % interval);
* per persona, its mean share of the pollution caused and of the pollution harm borne, and
  its share of the ordinary losses (means over games, 95 % intervals);
* the pollution concentration index and mismatch (means over the games where they are
  defined, 95 % intervals).

Intervals are mean +- 1.96 standard errors over games (every game is one sample). Writes
benchmarks/results/burden_split.md.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import energies as en
from energies.insight import burden
from energies.insight.burden import ORDINARY_KINDS, POLLUTION_KINDS

RESULTS = Path(__file__).resolve().parent / "results" / "burden_split.md"
PERSONAS = ["fossil", "green", "balanced", "freerider"]


def mean_ci(values: list[float]) -> tuple[float, float, float, int]:
    """Mean and its 95 % interval (mean +- 1.96 standard errors) of the defined values."""
    xs = [v for v in values if not math.isnan(v) and not math.isinf(v)]
    n = len(xs)
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    mean = sum(xs) / n
    if n == 1:
        return mean, math.nan, math.nan, 1
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half, n


def _fmt(m: tuple[float, float, float, int], pct: bool = True) -> str:
    mean, low, high, _ = m
    if pct:
        return f"{mean:.1%} ({low:.1%} – {high:.1%})"
    return f"{mean:+.2f} ({low:+.2f} – {high:+.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    lineups = [PERSONAS[i:] + PERSONAS[:i] for i in range(4)]
    frame, turns = en.simulate(
        args.games, lineups, seed=args.seed, per_turn=True, jobs=1, progress=False
    )
    table = burden(turns)
    seconds = time.perf_counter() - start
    persona = {
        (row.game, seat): getattr(row, f"bot_{seat}")
        for row in frame.itertuples()
        for seat in range(4)
    }
    table["persona"] = [persona[(g, s)] for g, s in zip(table["game"], table["seat"])]
    kinds = list(dict.fromkeys([*POLLUTION_KINDS, *ORDINARY_KINDS]))
    totals = {k: float(table[k].sum()) for k in kinds}
    every = sum(totals.values())
    per_game = table.groupby("game")[["pollution_harm", "ordinary_losses"]].sum()
    pollution_part = mean_ci(
        list(
            per_game["pollution_harm"] / (per_game["pollution_harm"] + per_game["ordinary_losses"])
        )
    )
    first = table.groupby("game").first()
    lines = [
        "# Pollution harm against ordinary Catan losses (benchmarks/burden_split.py)",
        "",
        f"Command: `python benchmarks/burden_split.py {' '.join(sys.argv[1:])}`  ",
        (
            f"{args.games} games of fossil, green, balanced, freerider (seats rotated), seed "
            f"{args.seed}, read with energies.insight.burden; {seconds:.0f} s. energies "
            f"{en.__version__}, Python {platform.python_version()}, {os.cpu_count()} CPUs, "
            f"{platform.machine()}.  "
        ),
        "Intervals: mean ± 1.96 standard errors over games (each game one sample).",
        "",
        "## Every loss, by kind",
        "",
        "| kind | part | units | share of all loss units |",
        "|---|---|---:|---:|",
    ]
    for k in kinds:
        part = "pollution" if k in POLLUTION_KINDS else "ordinary"
        lines.append(f"| `{k}` | {part} | {totals[k]:.0f} | {totals[k] / every:.1%} |")
    lines += [
        "",
        (
            f"Pollution harm is {sum(totals[k] for k in POLLUTION_KINDS) / every:.1%} of all "
            f"loss units; per game its share is {_fmt(pollution_part)}."
        ),
        "",
        "## Per persona: pollution caused, pollution harm, ordinary losses",
        "",
        (
            "| persona | seats | pollution caused (share) | pollution harm (share) "
            "| ordinary losses (share) |"
        ),
        "|---|---:|---|---|---|",
    ]
    for name in PERSONAS:
        rows = table[table["persona"] == name]
        caused = mean_ci(list(rows["pollution_caused_share"].fillna(0.0)))
        harm = mean_ci(list(rows["pollution_harm_share"]))
        ordinary = mean_ci(list(rows["ordinary_losses_share"]))
        lines.append(f"| {name} | {len(rows)} | {_fmt(caused)} | {_fmt(harm)} | {_fmt(ordinary)} |")
    conc = mean_ci(list(first["pollution_concentration"]))
    mismatch = mean_ci(list(first["pollution_mismatch"]))
    lines += [
        "",
        "A game where nobody built a fossil plant counts 0 for every seat's pollution caused.",
        "",
        "## The table numbers",
        "",
        (
            "- pollution concentration (> 0: the polluters bear more of the pollution harm): "
            f"{_fmt(conc, pct=False)}, {conc[3]} games where defined;"
        ),
        f"- pollution mismatch (0: harm follows pollution exactly): {_fmt(mismatch, pct=False)}.",
        "",
    ]
    RESULTS.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
