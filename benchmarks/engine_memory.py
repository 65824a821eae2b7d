"""Peak memory of bot games: tracemalloc and the process's max RSS per line-up (a report).

    python benchmarks/engine_memory.py --games 50
    python benchmarks/engine_memory.py --games 50 --lineups random,random,random,random

Each line-up runs in its own fresh subprocess (``ru_maxrss`` is a high-water mark for the
whole life of a process, so line-ups sharing a process would hide each other). In the
child:

* ``maxrss after import`` — ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` once
  ``energies`` is imported, and ``maxrss after games`` once the N games are played;
* ``peak per game`` — tracemalloc's peak above the memory in use when the game started,
  one game alive at a time (mean and max over the N games): what one running game costs;
* ``kept per finished game`` — memory still allocated per game when all N finished
  ``Game`` objects are kept in a list (their action log, text log, history and events):
  what a notebook that keeps its games pays;
* ``tracemalloc peak`` — the largest traced total during the run (games kept).

tracemalloc slows the games down a few times; the timings printed are for this traced run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

DEFAULT_LINEUPS = [
    "random,random,random,random",
    "random,random,random",
    "fossil,random,random,random",
    "green,random,random,random",
    "fossil,green,balanced,freerider",
    "fossil,fossil,fossil,fossil",
    "green,green,green,green",
    "balanced,balanced,balanced,balanced",
    "freerider,freerider,freerider,freerider",
]


def _maxrss_mib() -> float:
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024  # bytes vs KiB


def child(lineup: list[str], games: int, seed: int) -> dict:
    """Run in a fresh process: play the games and measure."""
    import time
    import tracemalloc

    import energies as en
    from energies.runner import play_one

    rss_import = _maxrss_mib()
    tracemalloc.start()
    kept, peaks, actions = [], [], 0
    start = time.perf_counter()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(games):
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        game = play_one(lineup, seed + i)
        peaks.append(tracemalloc.get_traced_memory()[1] - before)
        actions += len(game.actions)
        kept.append(game)
    seconds = time.perf_counter() - start
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del en
    return {
        "lineup": ",".join(lineup),
        "games": games,
        "seconds": seconds,
        "mean_actions": actions / games,
        "rss_import_mib": rss_import,
        "rss_after_mib": _maxrss_mib(),
        "peak_game_mean_kib": sum(peaks) / len(peaks) / 1024,
        "peak_game_max_kib": max(peaks) / 1024,
        "kept_per_game_kib": (current - base) / games / 1024,
        "traced_peak_mib": peak / (1024 * 1024),
    }


def measure(lineup: str, games: int, seed: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", lineup, "--games", str(games), "--seed", str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def report(rows: list[dict], args) -> str:
    lines = [
        "# Engine memory (benchmarks/engine_memory.py)",
        "",
        f"Command: `python benchmarks/engine_memory.py {' '.join(sys.argv[1:])}`  ",
        (
            f"{args.games} games per line-up (seeds {args.seed}..{args.seed + args.games - 1}), "
            f"one fresh process per line-up; Python {platform.python_version()}, "
            f"{platform.machine()}, {os.cpu_count()} CPUs."
        ),
        "",
        (
            "| line-up | actions/game | maxrss after import (MiB) | maxrss after games (MiB) "
            "| peak per game, mean / max (KiB) | kept per finished game (KiB) "
            "| tracemalloc peak, games kept (MiB) | traced run (s) |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['lineup']} | {r['mean_actions']:.0f} | {r['rss_import_mib']:.1f} | "
            f"{r['rss_after_mib']:.1f} | {r['peak_game_mean_kib']:.0f} / "
            f"{r['peak_game_max_kib']:.0f} | {r['kept_per_game_kib']:.0f} | "
            f"{r['traced_peak_mib']:.1f} | {r['seconds']:.1f} |"
        )
    lines += [
        "",
        (
            "maxrss: `resource.getrusage(RUSAGE_SELF).ru_maxrss` (the process's high-water mark, "
            "interpreter and imports included). Peak per game: tracemalloc peak above the memory "
            "in use when the game started. Kept per finished game: traced memory still held per "
            "`Game` when all games are kept in a list."
        ),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--lineups", nargs="+", default=DEFAULT_LINEUPS, help="comma-separated line-ups"
    )
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument(
        "--out",
        default=str(Path(__file__).parent / "results" / "engine_memory.md"),
        help="markdown file to write ('' to only print)",
    )
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.child.split(","), args.games, args.seed)))
        return
    rows = []
    for lineup in args.lineups:
        rows.append(measure(lineup, args.games, args.seed))
        print(f"  {lineup}: done", file=sys.stderr, flush=True)
    text = report(rows, args)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
