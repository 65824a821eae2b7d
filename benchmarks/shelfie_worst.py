"""The costliest exact computations of My Shelfie Dice the rules allow, in CPU seconds.

    python benchmarks/shelfie_worst.py

For each rule set (dice, colours and re-rolls up to the top of their ranges; every column
open and six circles a turn, so placements are as many as they can be) it times, in a fresh
game's first roll, one exact-odds call (``insight.combo_probability``) and one decision of
the ``ev`` bot. A report, not a test: docs/guarantees.md quotes its result.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings

from energies.games import shelfie
from energies.games.shelfie import ShelfieRules, insight
from energies.games.shelfie.odds import planning_problem

#: (dice, colours, re-rolls): the standard game, the largest the ev bot plans exactly
#: (3,003 sets of dice), and the largest the rules allow.
CASES = ((6, 5, 2), (6, 8, 4), (7, 7, 4), (8, 6, 4), (8, 8, 4))


def rules_for(dice: int, colours: int, rerolls: int) -> ShelfieRules:
    columns = min(colours, dice)
    return ShelfieRules(
        colours=colours,
        columns=columns,
        dice=dice,
        rerolls=rerolls,
        max_circles=6,
        item_values=tuple(range(1, columns + 1)),
    )


def cpu(run) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| dice | colours | re-rolls | exact odds | ev decision | ev plans |")
    print("|---|---|---|---|---|---|")
    for dice, colours, rerolls in CASES:
        rules = rules_for(dice, colours, rerolls)
        game = shelfie.new_game(seed=args.seed, rules=rules)
        item = [(0, rules.columns - 1)]
        odds = cpu(lambda: insight.combo_probability(game.dice, rerolls, item, rules))  # noqa: B023
        bot = shelfie.make_bot("ev", seed=args.seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the fallback's warning: the last column says it
            decision = cpu(
                lambda: bot.decide(game.view(0), game.legal_actions(), random.Random(0))  # noqa: B023
            )
        plans = "greedy fallback" if planning_problem(dice, rules.faces) else "exactly"
        print(f"| {dice} | {colours} | {rerolls} | {odds:.2f} s | {decision:.2f} s | {plans} |")


if __name__ == "__main__":
    main()
