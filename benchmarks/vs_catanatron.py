"""energies vs catanatron: random-bot games/s and actions/s of both engines (a report, not a test).

    python benchmarks/vs_catanatron.py --games 200

catanatron (https://github.com/bcollazo/catanatron, the base game of Catan) is installed
from PyPI into a throwaway virtual environment in a temporary directory, so it never
becomes a dependency of this project; the environment is deleted afterwards. A small script
runs INSIDE that environment and plays N 4-player games of ``catanatron.RandomPlayer``;
actions are counted from ``game.state.actions``, catanatron's log of every action taken
(initial placements, rolls, builds, trades, discards, robber moves, end turns). Then this
process plays N 4-player energies games of ``RandomBot`` and counts ``len(game.actions)``
(every applied action; quick start places the starting pieces without actions).

If the virtual environment or the pip install fails (no network, no wheel), a clear message
is printed and the script exits with status 0.

The games are different (New Energies ends on an empty event bag, catanatron's random games
run to 10 VP), so actions/s is the fairer comparison; CPU seconds are reported next to the
wall clock because a busy machine slows both the same way only if they run at the same time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import textwrap
import time
import venv
from pathlib import Path

INNER = textwrap.dedent(
    """
    import json, sys, time
    from importlib.metadata import version
    from catanatron import Color, Game, RandomPlayer
    from catanatron.game import TURNS_LIMIT

    games, seed = int(sys.argv[1]), int(sys.argv[2])
    colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    actions = turns = finished = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        game = Game([RandomPlayer(c) for c in colors], seed=seed + i + 1)  # seed 0 means random
        winner = game.play()
        actions += len(game.state.actions)  # the log of every action taken
        turns += game.state.num_turns
        finished += winner is not None
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(json.dumps({
        "engine": "catanatron " + version("catanatron"),
        "python": sys.version.split()[0],
        "games": games, "actions": actions, "turns": turns, "finished": finished,
        "turn_limit": TURNS_LIMIT, "seconds": wall, "cpu_seconds": cpu,
    }))
    """
)


def run_catanatron(games: int, seed: int, spec: str, quiet: bool = False) -> dict | None:
    """Install ``spec`` into a temporary venv and play the games there; None on failure."""
    with tempfile.TemporaryDirectory(prefix="energies-vs-catanatron-") as tmp:
        env_dir = Path(tmp) / "venv"
        try:
            venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
        except Exception as exc:  # noqa: BLE001 - any failure means "cannot compare"
            print(f"Could not create a virtual environment ({exc}); skipping catanatron.")
            return None
        python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
        print(f"Installing {spec} into a throwaway venv in {tmp} ...", file=sys.stderr, flush=True)
        pip = subprocess.run(
            [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", spec],
            capture_output=True,
            text=True,
            check=False,
        )
        if pip.returncode != 0:
            tail = "\n".join((pip.stderr or pip.stdout).strip().splitlines()[-5:])
            print(
                f"pip could not install {spec!r} (exit {pip.returncode}); "
                f"the comparison is skipped.\n{tail}"
            )
            return None
        script = Path(tmp) / "catanatron_bench.py"
        script.write_text(INNER, encoding="utf-8")
        run = subprocess.run(
            [str(python), str(script), str(games), str(seed)],
            capture_output=True,
            text=True,
            check=False,
        )
        if run.returncode != 0:
            print(f"The catanatron script failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
            return None
        return json.loads(run.stdout.strip().splitlines()[-1])


def run_energies(games: int, seed: int, players: int = 4) -> dict:
    import energies as en

    actions = turns = 0
    outcomes: dict[str, int] = {}
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        game = en.new_game(players=players, seed=seed + i)
        outcome = en.play(game, [en.bots.RandomBot() for _ in range(players)])
        actions += len(game.actions)
        turns += game.turn
        outcomes[outcome.kind] = outcomes.get(outcome.kind, 0) + 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "engine": f"energies {en.__version__}",
        "python": platform.python_version(),
        "games": games,
        "actions": actions,
        "turns": turns,
        "outcomes": outcomes,
        "seconds": wall,
        "cpu_seconds": cpu,
    }


def row(r: dict) -> str:
    return (
        f"| {r['engine']} | {r['games']} | {r['seconds']:.2f} | {r['cpu_seconds']:.2f} | "
        f"{r['games'] / r['seconds']:.2f} | {r['actions'] / r['seconds']:,.0f} | "
        f"{r['actions'] / r['cpu_seconds']:,.0f} | {r['actions'] / r['games']:.1f} | "
        f"{r['turns'] / r['games']:.1f} |"
    )


def report(cat: dict | None, ene: dict, args) -> str:
    lines = [
        "# energies vs catanatron, random bots (benchmarks/vs_catanatron.py)",
        "",
        f"Command: `python benchmarks/vs_catanatron.py {' '.join(sys.argv[1:])}`  ",
        (
            f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
            f"both engines run one after the other in single processes."
        ),
        "",
        (
            "| engine | games | wall s | CPU s | games/s | actions/s (wall) | actions/s (CPU) "
            "| actions/game | turns/game |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    if cat:
        lines.append(row(cat))
    lines.append(row(ene))
    lines.append("")
    if cat:
        wall = (ene["actions"] / ene["seconds"]) / (cat["actions"] / cat["seconds"])
        cpu = (ene["actions"] / ene["cpu_seconds"]) / (cat["actions"] / cat["cpu_seconds"])
        games = (ene["games"] / ene["seconds"]) / (cat["games"] / cat["seconds"])
        lines += [
            (
                f"**Ratio energies / catanatron actions/s: {wall:.2f} (wall clock), "
                f"{cpu:.2f} (CPU time)**; games/s ratio {games:.2f}."
            ),
            "",
            (
                f"catanatron: {cat['finished']}/{cat['games']} games reached 10 VP within its "
                f"{cat['turn_limit']}-turn limit; actions counted from `game.state.actions`.  "
            ),
        ]
    else:
        lines += ["catanatron could not be installed: no comparison (see the message above).", ""]
    lines.append(
        f"energies outcomes: {ene['outcomes']}; actions counted from `game.actions` "
        "(quick start: the starting pieces are placed without actions)."
    )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--spec", default="catanatron==3.2.1", help="what pip installs")
    parser.add_argument(
        "--out",
        default=str(Path(__file__).parent / "results" / "vs_catanatron.md"),
        help="markdown file to write ('' to only print)",
    )
    args = parser.parse_args()

    cat = run_catanatron(args.games, args.seed, args.spec)
    if cat is None:
        print("catanatron is unavailable; the comparison was skipped (exit 0).")
        sys.exit(0)
    print(f"catanatron: {json.dumps(cat)}", file=sys.stderr, flush=True)
    ene = run_energies(args.games, args.seed)
    text = report(cat, ene, args)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
