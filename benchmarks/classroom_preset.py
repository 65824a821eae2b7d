"""How long RuleSet.classroom() games last and how they end, next to the standard rules.

    python benchmarks/classroom_preset.py --games 200

Seeded persona and random line-ups (seats rotated), one row per rule set and line-up:
median and 10-90 % range of turns, outcome shares (the standard game races to 10 VP, the
classroom game to 5), and the win rate of each persona (a shared win counts for each winner).
Whether the classroom game tempts (its dilemma, with intervals) is benchmarks/dilemma.py's.
"""

from __future__ import annotations

import argparse

import energies as en
from energies.viz.outcomes import win_rates

LINEUPS = (
    ("fossil", "green", "balanced", "freerider"),
    ("random",) * 4,
    ("green",) * 4,
    ("fossil",) * 4,
    ("fossil", "fossil", "fossil", "green"),
    ("fossil", "green", "green", "green"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        "| rules | line-up | turns median (10-90 %) | VP target reached (14.1) / empty bag / "
        "everyone loses | wins per seat |"
    )
    print("|---|---|---|---|---|")
    for label, rules in (
        ("standard", en.RuleSet.standard()),
        ("classroom", en.RuleSet.classroom()),
    ):
        for lineup in LINEUPS:
            rotated = [list(lineup[i:] + lineup[:i]) for i in range(4)]
            frame = en.simulate(args.games, rotated, rules=rules, seed=args.seed, progress=False)
            shares = frame["outcome"].value_counts(normalize=True)
            ends = " / ".join(
                f"{shares.get(k, 0):.0%}" for k in ("victory_points", "empty_bag", "everyone_loses")
            )
            turns = frame["turns"]
            rates = win_rates(frame)["win_rate"]
            wins = ", ".join(f"{bot} {rate:.0%}" for bot, rate in rates.items())
            print(
                f"| {label} | {','.join(lineup)} | {turns.median():.0f} "
                f"({turns.quantile(0.1):.0f}-{turns.quantile(0.9):.0f}) | {ends} | {wins} |"
            )


if __name__ == "__main__":
    main()
