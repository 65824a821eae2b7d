"""Probe: does a longer classroom race bring back the collective loss with strong players?

    python benchmarks/classroom_race_probe.py --vp 6 --games 100 --seed 1

The classroom preset (a race to 5 VP, rows of 2) tempts a lone fossil player but, played by
the search players, an all-fossil table mostly reaches 5 VP before the bag runs out, so it
seldom loses together (benchmarks/results/dilemma.md). This probe plays the three tables that
decide the preset's aims (k = 1, 4 and 0 search-fossil seats against search-green, 24 rollouts
per decision) under ``RuleSet.classroom(victory_points=VP)`` and writes one results file per
target. A probe, fewer games than the shipped tables: a candidate preset is then measured with
``benchmarks/dilemma.py`` at 200 games on two seed sets.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import energies as en
from energies.bots.search import SearchPlayer
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
    args = parser.parse_args()
    rules = en.RuleSet.classroom(victory_points=args.vp)
    strategies = (
        SearchPlayer(budget=args.budget, plants="fossil"),
        SearchPlayer(budget=args.budget, plants="renewable"),
    )
    lines = []
    for k in (1, 4, 0):
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
    command = (
        f"python benchmarks/classroom_race_probe.py --vp {args.vp} --games {args.games} "
        f"--seed {args.seed}" + (f" --budget {args.budget}" if args.budget != 24 else "")
    )
    page = [
        f"# Classroom race to {args.vp} VP, search players (a probe)",
        "",
        (
            f"Command: `{command}` ({args.games} games per table, seed {args.seed}, "
            f"{args.budget} rollouts per decision; Python {platform.python_version()}, "
            f"energies {en.__version__}). Rules: `RuleSet.classroom(victory_points={args.vp})`."
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
    target = RESULTS / f"classroom_race_{args.vp}vp.md"
    target.write_text("\n".join(page), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
