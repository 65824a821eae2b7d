"""Probe: which short race brings back the collective loss with strong players?

    python benchmarks/classroom_race_probe.py --vp 6 --games 100 --seed 1
    python benchmarks/classroom_race_probe.py --vp 5 --brown 30 --games 100 --seed 1
    python benchmarks/classroom_race_probe.py --vp 5 --bands early --k 1 4 --games 100

The classroom preset (a race to 5 VP, rows of 2) tempts a lone fossil player but, played by
the search players, an all-fossil table mostly reaches 5 VP before the bag runs out, so it
seldom loses together (benchmarks/results/dilemma.md). This probe plays the three tables that
decide the preset's aims (k = 1, 4 and 0 search-fossil seats against search-green, 24 rollouts
per decision) under the classroom rules with the map's knobs changed (``policy_rules``: the VP
target, the brown discs in the bag, the disc bands; rows of 2 spaces) and writes one results
file per rule set. A probe, fewer games than the shipped tables: a candidate preset is then measured with
``benchmarks/dilemma.py`` at 200 games on two seed sets.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import energies as en
from energies.bots.search import SearchPlayer
from energies.insight import policy_rules
from energies.insight.temptation.measure import dilemma_row

RESULTS = Path(__file__).parent / "results"


def pct(row: dict, name: str, bounds: str) -> str:
    return f"{row[name]:.0%} ({row[bounds + '_low']:.0%}–{row[bounds + '_high']:.0%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vp", type=int, default=6, help="the race's VP target (rule 14.1)")
    parser.add_argument("--games", type=int, default=100, help="games per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=24, help="rollouts per decision")
    parser.add_argument("--brown", type=int, default=43, help="brown discs in the bag (rule 1)")
    parser.add_argument(
        "--bands", default="published", help="disc bands (rule 4.3): published, flat or early"
    )
    parser.add_argument(
        "--k", type=int, nargs="+", default=[1, 4, 0], help="fossil seats at each table"
    )
    args = parser.parse_args()
    if any(k not in range(5) for k in args.k):
        parser.error(f"--k takes numbers of fossil seats from 0 to 4, not {args.k}")
    try:
        rules = policy_rules(
            victory_points=args.vp, row_spaces=2, brown_discs=args.brown, disc_bands=args.bands
        )
    except ValueError as error:
        parser.error(str(error))
    label = f"{args.vp} VP" + (f", {args.brown} brown discs" if args.brown != 43 else "")
    label += f", {args.bands} disc bands" if args.bands != "published" else ""
    name = f"{args.vp}vp" + (f"_{args.brown}brown" if args.brown != 43 else "")
    name += f"_{args.bands}" if args.bands != "published" else ""
    strategies = (
        SearchPlayer(budget=args.budget, plants="fossil"),
        SearchPlayer(budget=args.budget, plants="renewable"),
    )
    lines = []
    for k in args.k:
        started = time.process_time()
        row = dilemma_row(rules, k, args.games, strategies, seed=args.seed)
        seconds = time.process_time() - started
        fossil = pct(row, "fossil_win_rate", "fossil_win") if k else "—"
        green = pct(row, "green_win_rate", "green_win") if k < 4 else "—"
        line = (
            f"| {k} | {fossil} | {green} | {pct(row, 'everyone_loses', 'everyone_loses')} | "
            f"{row['expected_winners']:.2f} ({row['expected_winners_low']:.2f}–"
            f"{row['expected_winners_high']:.2f}) | {row['mean_turns']:.1f} | {seconds:.0f} s |"
        )
        print(line, flush=True)
        lines.append(line)
    options = [
        f"--{option} {value}"
        for option, value, default in (
            ("brown", args.brown, 43),
            ("bands", args.bands, "published"),
            ("budget", args.budget, 24),
        )
        if value != default
    ]
    if args.k != [1, 4, 0]:
        options.append("--k " + " ".join(map(str, args.k)))
    command = " ".join(
        [
            f"python benchmarks/classroom_race_probe.py --vp {args.vp}",
            *options,
            f"--games {args.games} --seed {args.seed}",
        ]
    )
    page = [
        f"# Classroom race to {label}, search players (a probe)",
        "",
        (
            f"Command: `{command}` ({args.games} games per table, seed {args.seed}, "
            f"{args.budget} rollouts per decision; Python {platform.python_version()}, "
            f"energies {en.__version__}). Rules: `policy_rules(victory_points={args.vp}, "
            f"row_spaces=2, brown_discs={args.brown}, disc_bands={args.bands!r})`: the classroom "
            "rules with these knobs."
        ),
        "",
        (
            "| k search-fossil | fossil seat wins | green seat wins | everyone loses | "
            "expected winners | mean turns | CPU |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|",
        *lines,
        "",
    ]
    target = RESULTS / f"classroom_race_{name}.md"
    target.write_text("\n".join(page), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
