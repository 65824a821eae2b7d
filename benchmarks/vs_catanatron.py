"""energies vs catanatron: random-bot games/s and actions/s of both engines (a report, not a test).

    python benchmarks/vs_catanatron.py --rounds 10 --seconds 3

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

The two engines alternate for ``--rounds`` rounds, each playing for about ``--seconds``
of wall time per round (whole games, at most ``--games``): this VM's speed drifts by ±20%
within minutes, so short, equally long turns pair the two engines under the same
conditions. The report gives the actions/s ratio of every round, their median and the
ratio of each engine's best round.

The games are different (New Energies ends on an empty event bag, catanatron's random games
run to 10 VP), so actions/s is the fairer comparison; CPU seconds are reported next to the
wall clock because a busy machine slows both the same way only if they run at the same time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
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

    games, seed, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    played = actions = turns = finished = 0
    start, cpu = time.perf_counter(), time.process_time()
    while played < games and time.perf_counter() - start < seconds:
        game = Game([RandomPlayer(c) for c in colors], seed=seed + played + 1)  # 0 = random
        winner = game.play()
        actions += len(game.state.actions)  # the log of every action taken
        turns += game.state.num_turns
        finished += winner is not None
        played += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({
        "engine": "catanatron " + version("catanatron"),
        "python": sys.version.split()[0],
        "games": played, "actions": actions, "turns": turns, "finished": finished,
        "turn_limit": TURNS_LIMIT, "seconds": wall, "cpu_seconds": cpu,
    }))
    """
)


def install_catanatron(tmp: str, spec: str) -> Path | None:
    """A throwaway venv in ``tmp`` with ``spec`` installed; its python, or None on failure."""
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
            f"pip could not install {spec!r} (exit {pip.returncode}); the comparison is skipped.\n{tail}"
        )
        return None
    (Path(tmp) / "catanatron_bench.py").write_text(INNER, encoding="utf-8")
    return python


def run_catanatron(python: Path, games: int, seed: int, seconds: float) -> dict | None:
    """Play catanatron's random players inside its venv for ``seconds``; None on failure."""
    script = python.parent.parent.parent / "catanatron_bench.py"
    run = subprocess.run(
        [str(python), str(script), str(games), str(seed), str(seconds)],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        print(f"The catanatron script failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
        return None
    return json.loads(run.stdout.strip().splitlines()[-1])


def run_energies(games: int, seed: int, seconds: float, players: int = 4) -> dict:
    import energies as en

    played = actions = turns = 0
    outcomes: dict[str, int] = {}
    start, cpu = time.perf_counter(), time.process_time()
    while played < games and time.perf_counter() - start < seconds:
        game = en.new_game(players=players, seed=seed + played)
        outcome = en.play(game, [en.bots.RandomBot() for _ in range(players)])
        actions += len(game.actions)
        turns += game.turn
        outcomes[outcome.kind] = outcomes.get(outcome.kind, 0) + 1
        played += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "engine": f"energies {en.__version__}",
        "python": platform.python_version(),
        "games": played,
        "actions": actions,
        "turns": turns,
        "outcomes": outcomes,
        "seconds": wall,
        "cpu_seconds": cpu,
    }


def row(label: str, r: dict) -> str:
    return (
        f"| {label} | {r['engine']} | {r['games']} | {r['seconds']:.2f} | {r['cpu_seconds']:.2f} | "
        f"{r['games'] / r['seconds']:.2f} | {r['actions'] / r['seconds']:,.0f} | "
        f"{r['actions'] / r['cpu_seconds']:,.0f} | {r['actions'] / r['games']:.1f} | "
        f"{r['turns'] / r['games']:.1f} |"
    )


def actions_per_s(r: dict) -> float:
    return r["actions"] / r["seconds"]


def report(cats: list[dict], enes: list[dict]) -> str:
    """Markdown: every round of both engines, the per-round ratios and the best-of-rounds ratio."""
    lines = [
        "# energies vs catanatron, random bots (benchmarks/vs_catanatron.py)",
        "",
        f"Command: `python benchmarks/vs_catanatron.py {' '.join(sys.argv[1:])}`  ",
        (
            f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
            "in each round catanatron plays, then energies plays, each in a single process "
            "for about the same wall time. This machine is a shared VM whose speed drifts by "
            "±20% within minutes, so the engines alternate in short runs and the ratio is "
            "given per round."
        ),
        "",
        (
            "| round | engine | games | wall s | CPU s | games/s | actions/s (wall) "
            "| actions/s (CPU) | actions/game | turns/game |"
        ),
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for i, (cat, ene) in enumerate(zip(cats, enes), start=1):
        lines += [row(str(i), cat), row(str(i), ene)]
    ratios = [actions_per_s(e) / actions_per_s(c) for c, e in zip(cats, enes)]
    best = max(map(actions_per_s, enes)) / max(map(actions_per_s, cats))
    games = max(e["games"] / e["seconds"] for e in enes) / max(
        c["games"] / c["seconds"] for c in cats
    )
    finished, played = sum(c["finished"] for c in cats), sum(c["games"] for c in cats)
    outcomes: dict[str, int] = {}
    for e in enes:
        for kind, n in e["outcomes"].items():
            outcomes[kind] = outcomes.get(kind, 0) + n
    lines += [
        "",
        (
            f"**Ratio energies / catanatron actions/s (wall clock): per round "
            f"{', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f}; "
            f"best of each engine {best:.2f}**; games/s ratio (best of each) {games:.2f}."
        ),
        "",
        (
            f"catanatron: {finished}/{played} games reached 10 VP within its "
            f"{cats[0]['turn_limit']}-turn limit; actions counted from `game.state.actions`.  "
        ),
        (
            f"energies outcomes: {outcomes}; actions counted from `game.actions` "
            "(quick start: the starting pieces are placed without actions)."
        ),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="at most this many per run")
    parser.add_argument("--rounds", type=int, default=10, help="alternating runs of each engine")
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time of each run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--spec", default="catanatron==3.2.1", help="what pip installs")
    parser.add_argument(
        "--out",
        default=str(Path(__file__).parent / "results" / "vs_catanatron.md"),
        help="markdown file to write ('' to only print)",
    )
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1 or not args.seconds > 0:
        parser.error("--games and --rounds must be at least 1, --seconds above 0")

    cats: list[dict] = []
    enes: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="energies-vs-catanatron-") as tmp:
        python = install_catanatron(tmp, args.spec)
        for _ in range(args.rounds if python else 0):
            cat = run_catanatron(python, args.games, args.seed, args.seconds)
            if cat is None:
                break
            print(f"catanatron: {json.dumps(cat)}", file=sys.stderr, flush=True)
            cats.append(cat)
            enes.append(run_energies(args.games, args.seed, args.seconds))
    if not cats:
        print("catanatron is unavailable; the comparison was skipped (exit 0).")
        sys.exit(0)
    text = report(cats, enes)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
