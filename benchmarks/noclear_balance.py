"""Noclear balance check: no single opening purchase wins more than 60 % of persona games.

    python benchmarks/noclear_balance.py --games 3000 --jobs 2

Plays Engineer-persona games (every seat the same persona, 2, 3 and 4 players) with
``en.simulate(..., game="noclear")`` on the default deck and house rules, records each
seat's opening purchase (its first machine) and the share of games that seat won (a
shared win split among the winners). An opening "wins X %" = the mean win share of the
seats that opened with it. The check passes when no opening seen at least ``--min-seats``
times wins more than 60 %; the exit status is 1 otherwise. Writes
``benchmarks/results/noclear_balance.md``. (A report with a pass/fail line, not a test:
its numbers need thousands of games.)
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

from rates import wilson  # benchmarks/rates.py, beside this script

import energies as en
from energies.games import noclear

LIMIT = 0.60
ROLES = (
    "small",
    "small, other colour",
    "small, surge",
    "medium",
    "medium, mixed",
    "medium, any price",
    "large",
    "hub, moves a token",
)  # decks/default.json order per symbol
OUT = Path(__file__).parent / "results" / "noclear_balance.md"


def openings(frame, players: int) -> tuple[dict, float]:
    """{opening machine id: [seats, win share]} and the start player's mean win share."""
    table: dict = defaultdict(lambda: [0, 0.0])
    start = 0.0
    for row in frame.itertuples(index=False):
        row = row._asdict()
        share = 1 / len(row["winners"])
        for seat in range(players):
            entry = table[row[f"opening_{seat}"]]
            entry[0] += 1
            entry[1] += share if seat in row["winners"] else 0.0
        start += share if row["start"] in row["winners"] else 0.0
    return dict(table), start / len(frame)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per player count")
    parser.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--min-seats", type=int, default=30, help="openings seen fewer times are listed, not judged"
    )
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    deck = noclear.load_deck()
    command = "python benchmarks/noclear_balance.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    lines = [
        "# Noclear balance: opening purchases in persona games (benchmarks/noclear_balance.py)",
        "",
        f"Command: `{command.strip()}`  ",
        (
            f"Engineer persona in every seat, default deck and house rules, seed {args.seed}; "
            f"energies {en.__version__}, Python {platform.python_version()}."
        ),
        "",
        (
            f"An opening = a seat's first machine. Its win rate = the mean win share of the seats that "
            f"opened with it (a shared win split). Judged: openings seen at least {args.min_seats} times; "
            f"limit {LIMIT:.0%}. 95 % Wilson intervals."
        ),
        "",
    ]
    verdicts = []
    for players in (int(p) for p in args.players.split(",")):
        began = time.process_time()
        frame = en.simulate(
            args.games,
            ["engineer"] * players,
            game="noclear",
            seed=args.seed,
            jobs=args.jobs,
            progress=False,
        )
        table, start = openings(frame, players)
        judged = {k: v for k, v in table.items() if k is not None and v[0] >= args.min_seats}
        if not judged:
            raise SystemExit(f"No opening was seen {args.min_seats} times: play more games.")
        worst = max(judged.items(), key=lambda kv: kv[1][1] / kv[1][0])
        worst_rate = worst[1][1] / worst[1][0]
        ok = worst_rate <= LIMIT
        verdicts.append(ok)
        lines += [
            f"## {players} players: {'PASS' if ok else 'FAIL'}",
            "",
            (
                f"{args.games} games, mean {frame['turns'].mean():.1f} turns, "
                f"{(frame['outcome'] == 'turn_limit').mean():.1%} at the turn limit; "
                f"fair share {1 / players:.1%}; the start player wins {start:.1%}; "
                f"CPU {time.process_time() - began:.0f} s in this process."
            ),
            "",
            (
                f"Highest opening: **{deck.machines[worst[0]].name}** wins {worst_rate:.1%} "
                f"of {worst[1][0]} seats (limit {LIMIT:.0%})."
            ),
            "",
            "| opening | role | symbol | seats | win rate | 95 % interval |",
            "|---|---|---|---:|---:|---|",
        ]
        ranked = sorted(table.items(), key=lambda kv: -kv[1][1] / kv[1][0])
        for machine_id, (seats, wins) in ranked:
            rate = wins / seats
            low, high = wilson(rate, seats)
            if machine_id is None:
                lines.append(f"| (no machine) | | | {seats} | {rate:.1%} | {low:.1%}–{high:.1%} |")
                continue
            m = deck.machines[machine_id]
            mark = "" if seats >= args.min_seats else " (few)"
            lines.append(
                f"| {m.name}{mark} | {ROLES[(machine_id - 1) % 8]} | {m.symbol} | {seats} | "
                f"{rate:.1%} | {low:.1%}–{high:.1%} |"
            )
        lines.append("")
    lines += [
        "## Verdict",
        "",
        (
            "PASS: no opening purchase wins more than 60 % of persona games."
            if all(verdicts)
            else "FAIL: an opening purchase wins more than 60 % of persona games: tune the deck."
        ),
        "",
    ]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines[-3:]))
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    raise SystemExit(main())
