"""The search player's strength on another set of seeds: does the recorded win rate hold?

    python benchmarks/search_strength_seeds.py --seed 5 --games 200

Plays the same benchmark games as ``search_strength.py --part strength`` (the default search
player in seat ``i % 4`` against green, balanced and freerider, published 4-player rules) on
the game seeds of ``--seed``, and prints the win rate with its 95 % Wilson interval. It writes
no results file: the recorded run (seed 0) stays the one ``search_strength.md`` shows; this
checks that a different seed set does not tell another story.
"""

from __future__ import annotations

import argparse
import time

import search_strength as strength  # benchmarks/, beside this script
from rates import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5, help="seed of the game seeds (not 0)")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    shares, start = [], time.process_time()
    for task in strength.strength_tasks(args.games, args.seed, strength.DEFAULT_BUDGET):
        shares.append(strength.play_game(*task)["share"])
        if len(shares) % 20 == 0:
            print(f"{len(shares)} games: {sum(shares) / len(shares):.1%}", flush=True)
    rate = sum(shares) / len(shares)
    low, high = wilson(rate, len(shares))
    print(
        f"seed {args.seed}, {len(shares)} games, budget {strength.DEFAULT_BUDGET}: search player "
        f"wins {rate:.1%} (95 % CI {low:.1%} - {high:.1%}); "
        f"{time.process_time() - start:.0f} s CPU"
    )


if __name__ == "__main__":
    main()
