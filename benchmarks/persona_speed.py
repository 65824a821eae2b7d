"""Persona games/s through ``en.simulate``, this tree against another checkout (a report).

    git archive <commit> | tar -x -C /tmp/before          # the code to compare with
    python benchmarks/persona_speed.py --before /tmp/before --games 100 --rounds 6
    python benchmarks/persona_speed.py --before /tmp/before --rounds 2 --instructions 5

Every round runs the same ``simulate(games, lineup, seed=0, jobs=1)`` once with the
``--before`` source tree and once with this one, each in a fresh subprocess (``PYTHONPATH``
set to the tree), in an order that alternates from round to round; each subprocess warms
up with a few games and then reports the **CPU time** (``time.process_time``) of the timed
call. The machine is shared, so the speed-up is given per round, as a median and a range.
The frames of both trees are compared too: the same seeds must give the same games.
``--instructions N`` adds a count of the instructions of N games per tree under valgrind
(slow: minutes), the measure the shared machine does not disturb.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

CHILD = """
import hashlib, json, sys, time
import energies as en
games, lineup = int(sys.argv[1]), sys.argv[2]
en.simulate(4, lineup, seed=99, progress=False)  # warm-up: imports, caches
cpu = time.process_time()
frame = en.simulate(games, lineup, seed=0, progress=False)
cpu = time.process_time() - cpu
text = frame.to_csv(index=False).encode()
print(json.dumps({"cpu": cpu, "actions": int(frame["actions"].sum()),
                  "frame": hashlib.sha256(text).hexdigest()[:16]}))
"""


def run(tree: Path, games: int, lineup: str, child: str = CHILD) -> dict:
    """The JSON line that ``child`` (a program run with ``games lineup`` as arguments) prints
    last, run in a fresh process with ``tree`` on PYTHONPATH."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, "-c", child, str(games), lineup],
        env=env,
        cwd="/",
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="source tree to compare with")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--lineup", default="fossil,green,balanced,random")
    parser.add_argument("--out", default="", help="markdown file to write ('' to only print)")
    parser.add_argument(
        "--instructions",
        type=int,
        default=0,
        metavar="GAMES",
        help="also count the instructions of this many games per tree (valgrind, callgrind; "
        "as engine_instructions.py: warm-up and start-up left out), which load cannot disturb",
    )
    args = parser.parse_args()
    trees = {"before": Path(args.before).resolve(), "after": HERE}
    rows = []
    loads = [os.getloadavg()[0]]  # the machine is shared: say how busy it was
    for i in range(args.rounds):
        order = ["before", "after"] if i % 2 == 0 else ["after", "before"]
        result = {name: run(trees[name], args.games, args.lineup) for name in order}
        rows.append(result)
        loads.append(os.getloadavg()[0])
        print(
            f"round {i + 1}: before {result['before']['cpu']:.2f} s, "
            f"after {result['after']['cpu']:.2f} s CPU",
            file=sys.stderr,
            flush=True,
        )
    speedups = [r["before"]["cpu"] / r["after"]["cpu"] for r in rows]
    # per applied action: the same where the games are the same; the fair measure where a
    # rule change made the games longer or shorter
    per_action = [
        (r["after"]["actions"] / r["after"]["cpu"]) / (r["before"]["actions"] / r["before"]["cpu"])
        for r in rows
    ]
    same = all(r["before"]["frame"] == r["after"]["frame"] for r in rows)
    lines = [
        "# Persona games/s, before and after (benchmarks/persona_speed.py)",
        "",
        "Command: `python benchmarks/persona_speed.py " + " ".join(sys.argv[1:]) + "`  ",
        (
            f"`en.simulate({args.games}, {args.lineup!r}, seed=0, jobs=1)`, one fresh process "
            f"per run, CPU time; {platform.machine()}, {os.cpu_count()} CPUs shared with other "
            f"work, Python {platform.python_version()}. Before: `{trees['before']}`. 1-minute "
            f"load average {min(loads):.1f}–{max(loads):.1f} during the run."
        ),
        "",
        (
            "| round | before: CPU s | before: games/s | after: CPU s | after: games/s "
            "| speed-up | before: actions/s | after: actions/s |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for i, (r, s) in enumerate(zip(rows, speedups), start=1):
        b, a = r["before"]["cpu"], r["after"]["cpu"]
        lines.append(
            f"| {i} | {b:.2f} | {args.games / b:.1f} | {a:.2f} | {args.games / a:.1f} | {s:.2f} "
            f"| {r['before']['actions'] / b:,.0f} | {r['after']['actions'] / a:,.0f} |"
        )
    lines += [
        "",
        f"**Speed-up: median {statistics.median(speedups):.2f} "
        f"(rounds {min(speedups):.2f}–{max(speedups):.2f})**; per applied action "
        f"{statistics.median(per_action):.2f} ({min(per_action):.2f}–{max(per_action):.2f}), "
        f"{rows[0]['before']['actions'] / args.games:.1f} actions a game before and "
        f"{rows[0]['after']['actions'] / args.games:.1f} after. "
        + (
            "Both trees give the same frame (same games) in every round."
            if same
            else "The two trees give DIFFERENT frames: the games changed."
        ),
    ]
    print("\n".join(lines), flush=True)  # the timings, before the (slow) counts
    if args.instructions:
        from engine_instructions import measured  # (this script's folder is on sys.path)

        counted = {
            name: measured("persona", args.instructions, tree) for name, tree in trees.items()
        }
        (_, before), (_, after) = counted["before"], counted["after"]
        lines += [
            "",
            (
                f"Instructions (callgrind) for {args.instructions} games: before "
                f"{before / 1e9:.3f} × 10⁹, after {after / 1e9:.3f} × 10⁹: "
                f"**{before / after:.2f}× fewer** ({counted['after'][0]} actions after, "
                f"{counted['before'][0]} before)."
            ),
        ]
    text = "\n".join(lines) + "\n"
    if args.instructions:
        print(lines[-1])
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
