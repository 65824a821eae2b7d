"""How many own turns a persona keeps in hand when racing the bag (StrategyBot.scramble_margin).

    nice -n 5 python benchmarks/scramble_margin.py --games 400 --margins 0 1 2 3

FossilRush and FreeRider build a fossil plant only while they can still end with more
renewable than fossil plants by the empty bag (rule 14.2) with one fix per own turn and
``scramble_margin`` turns to spare, and scramble when the plants they have need more
(energies.bots.strategy.StrategyBot.qualifies_in_time). For each margin this plays, on the
same seeded games (seats rotated), FossilRush among three RandomBots and four FossilRush, and
reports FossilRush's win rate per seat with its 95 % interval over games, the share of its seats
that end unqualified at the empty bag (more fossil than renewable plants, or as many), its
mean fossil and renewable plants at the end (how much of a fossil player it still is), the
everyone-loses share and the mean turns. Writes benchmarks/results/scramble_margin.md.
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
from energies.bots.personas import FossilRush, FreeRider

RESULTS = Path(__file__).resolve().parent / "results" / "scramble_margin.md"
LINEUPS = {
    "fossil + 3 random": ["fossil", "random", "random", "random"],
    "4x fossil": ["fossil"] * 4,
}


def mean_ci(values: list[float]) -> tuple[float, float]:
    """The 95 % interval of the mean: mean +- 1.96 standard errors (every game one sample)."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else math.nan
    half = 1.96 * sd / math.sqrt(n)
    return mean - half, mean + half


def measure(lineup: list[str], games: int, seed: int) -> dict:
    rotations = [lineup[i:] + lineup[:i] for i in range(len(lineup))]
    frame = en.simulate(games, rotations, seed=seed, jobs=1, progress=False)
    wins = seats = unqualified = fossil = renewable = 0.0
    per_game = []  # FossilRush's mean win share per seat in each game (a game is one sample)
    for row in frame.itertuples():
        mine = [s for s in range(len(lineup)) if getattr(row, f"bot_{s}") == "fossil"]
        share = sum(1 / len(row.winners) for s in mine if s in row.winners)
        wins += share
        seats += len(mine)
        per_game.append(share / len(mine))
        fossil += sum(getattr(row, f"fossil_{s}") for s in mine)
        renewable += sum(getattr(row, f"renewable_{s}") for s in mine)
        if row.outcome in ("empty_bag", "everyone_loses"):
            unqualified += sum(
                getattr(row, f"renewable_{s}") <= getattr(row, f"fossil_{s}") for s in mine
            )
    low, high = mean_ci(per_game)
    return {
        "win_rate": wins / seats,
        "low": low,
        "high": high,
        "unqualified": unqualified / seats,
        "fossil": fossil / seats,
        "renewable": renewable / seats,
        "everyone_loses": float(frame["everyone_loses"].mean()),
        "turns": float(frame["turns"].mean()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per line-up and margin")
    parser.add_argument("--margins", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    default = FossilRush.scramble_margin
    rows, start = [], time.perf_counter()
    for margin in args.margins:
        FossilRush.scramble_margin = FreeRider.scramble_margin = margin
        for title, lineup in LINEUPS.items():
            r = measure(lineup, args.games, args.seed)
            rows.append((margin, title, r))
            print(f"margin {margin}, {title}: {r}", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    lines = [
        "# FossilRush's scramble margin (benchmarks/scramble_margin.py)",
        "",
        f"Command: `python benchmarks/scramble_margin.py {' '.join(sys.argv[1:])}`  ",
        (
            f"{args.games} games per line-up and margin (seats rotated), seed {args.seed}, the "
            f"same games for every margin; {seconds:.0f} s. energies {en.__version__}, Python "
            f"{platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}.  "
        ),
        f"The default margin (StrategyBot.scramble_margin) is {default}.",
        "",
        (
            "Win rate: FossilRush's wins per seat (a shared win split), with its 95 % interval: "
            "mean ± 1.96 standard errors of its per-game win share (every game one sample; with "
            "four FossilRush every game that has a winner gives each exactly 1/4). Unqualified: "
            "its seats that end at the empty bag without more renewable than fossil plants (rule "
            "14.2), out of all its seats."
        ),
        "",
        (
            "| margin | line-up | FossilRush win rate | 95 % CI | unqualified "
            "| fossil / renewable plants at the end | everyone loses | mean turns |"
        ),
        "|---:|---|---:|---|---:|---|---:|---:|",
    ]
    for margin, title, r in rows:
        lines.append(
            f"| {margin} | {title} | {r['win_rate']:.1%} | {r['low']:.1%} – {r['high']:.1%} | "
            f"{r['unqualified']:.1%} | {r['fossil']:.2f} / {r['renewable']:.2f} | "
            f"{r['everyone_loses']:.1%} | {r['turns']:.1f} |"
        )
    RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
