"""What finished games alone hold in memory, apart from the engine's shared, bounded caches.

    python benchmarks/games_alone_memory.py                       # this tree
    PYTHONPATH=/tmp/other-tree python benchmarks/games_alone_memory.py   # another tree

Per line-up: play ``--warm`` games first so the shared caches fill as in a long run, keep
``--games`` more finished games in a list, then drop them; tracemalloc's current total with
the games kept minus after dropping them (``gc.collect()`` each time) is what the games alone
hold. Also printed: the growth while the kept games were played, the caches' growth included.
A report, not a test (``benchmarks/engine_memory.py`` gives peaks and max RSS).
"""

from __future__ import annotations

import argparse
import gc
import tracemalloc

from energies.runner import play_one

LINEUPS = (("random",) * 4, ("fossil", "green", "balanced", "freerider"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="finished games kept (50)")
    parser.add_argument("--warm", type=int, default=100, help="games played first (100)")
    args = parser.parse_args()
    if args.games < 1 or args.warm < 0:
        parser.error("--games must be at least 1 and --warm at least 0")
    tracemalloc.start()
    print("| line-up | the games alone, KiB per game | with the caches' growth |")
    print("|---|---:|---:|")
    for lineup in LINEUPS:
        for seed in range(args.warm):
            play_one(lineup, 10_000 + seed)
        games = []
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        games.extend(play_one(lineup, seed) for seed in range(args.games))
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0]
        games.clear()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        per_game = 1024 * args.games
        print(
            f"| {', '.join(lineup)} | {(kept - after) / per_game:.1f} "
            f"| {(kept - before) / per_game:.1f} |"
        )


if __name__ == "__main__":
    main()
