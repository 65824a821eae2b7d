"""Paired short matches of search-player variants: which lever moves the win rate?

    python benchmarks/search_variants.py --games 48 --seed 7 base '{}'
    python benchmarks/search_variants.py --games 48 --seed 7 depth2 '{"depth": 2}'

Each variant is a ``SearchPlayer(**options)`` at the benchmark's table (green, balanced,
freerider; 4 players, published rules; game i seats it at i % 4), on the same seeded games
as every other variant, so the variants are compared game by game (paired). Results go to
``benchmarks/results/search_variants.json`` (rewritten after every game) and a table of
every variant against ``base`` to ``search_variants.md``; a row run again with the same
options and seed goes on from its saved games (``--games`` larger: more of them). A short match
only finds big effects: the paired standard error of 48 games is about 7 points.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

from search_strength import strength_tasks  # benchmarks/, beside this script

import energies as en
from energies.bots.search import SearchPlayer
from energies.kit.files import write_text
from energies.runner import bot_seed

RESULTS = Path(__file__).parent / "results"
SAVED = RESULTS / "search_variants.json"


def play(seed: int, lineup: list[str], rules, subject: int, options: dict) -> dict:
    """One game with the variant in seat ``subject``; its share of the win and its cost."""
    game = en.new_game(rules=rules, seed=seed, history=False)
    bots = [
        SearchPlayer(seed=bot_seed(seed, s), **options)
        if name == "search"
        else en.bots.make_bot(name, seed=bot_seed(seed, s))
        for s, name in enumerate(lineup)
    ]
    start = time.process_time()
    outcome = en.play(game, bots)
    return {
        "seed": seed,
        "subject": subject,
        "share": 1 / len(outcome.winners) if subject in outcome.winners else 0.0,
        "outcome": outcome.kind,
        "cpu_s": round(time.process_time() - start, 2),
        "searched": bots[subject].searched,
    }


def markdown(saved: dict) -> str:
    base = saved["variants"].get("base")
    lines = [
        "# Search-player variants, paired short matches (benchmarks/search_variants.py)",
        "",
        (
            "Each row: the variant in the search seat of the same seeded games as `base` (the "
            "default player) against green, balanced, freerider. Gain = the variant's win share "
            "minus base's, game by game, over the games both finished (± one standard error)."
        ),
        "",
        "| variant | options | games (of planned) | win rate | gain over base | CPU s per game |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for label, entry in saved["variants"].items():
        records = entry["records"]
        n = len(records)
        rate = sum(r["share"] for r in records) / n
        gain = "—"
        if base and label != "base":
            m = min(n, len(base["records"]))
            diffs = [records[i]["share"] - base["records"][i]["share"] for i in range(m)]
            error = statistics.stdev(diffs) / math.sqrt(m) if m > 1 else 1.0
            gain = f"{100 * statistics.mean(diffs):+.1f} ± {100 * error:.1f} ({m} games)"
        cpu = statistics.mean(r["cpu_s"] for r in records)
        lines.append(
            f"| {label} | `{json.dumps(entry['options'])}` | {n} of {entry['planned']} "
            f"| {100 * rate:.1f}% "
            f"| {gain} | {cpu:.1f} |"
        )
    lines += [
        "",
        (
            "Command per row: `python benchmarks/search_variants.py --games <planned> --seed 7 "
            "<variant> '<options>'`; a row with fewer games was stopped early (its results "
            f"are written after every game). Machine: {saved['machine']}."
        ),
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label", help="the variant's name in the table ('base': the default)")
    parser.add_argument("options", help="SearchPlayer keyword arguments as JSON, e.g. '{}'")
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    options = json.loads(args.options)
    SearchPlayer(**options)  # bad options fail here, before any game
    entry = {"options": options, "seed": args.seed, "planned": args.games, "records": []}
    if SAVED.exists():  # a row of the same variant and seed goes on where it stopped
        before = json.loads(SAVED.read_text())["variants"].get(args.label)
        if before and (before["options"], before["seed"]) == (options, args.seed):
            entry["records"] = before["records"][: args.games]
    tasks = strength_tasks(args.games, args.seed, 0)
    for seed, lineup, rules, _budget, subject in tasks[len(entry["records"]) :]:
        entry["records"].append(play(seed, lineup, rules, subject, options))
        # read again before writing: other variants may run beside this one
        saved = json.loads(SAVED.read_text()) if SAVED.exists() else {"variants": {}}
        saved["machine"] = f"energies {en.__version__}, CPU time on 2 shared cores"
        saved["variants"][args.label] = entry
        write_text(SAVED, json.dumps(saved))
        write_text(RESULTS / "search_variants.md", markdown(saved))
        share = sum(r["share"] for r in entry["records"])
        print(f"{args.label} {len(entry['records'])}/{args.games} wins {share}", file=sys.stderr)


if __name__ == "__main__":
    main()
