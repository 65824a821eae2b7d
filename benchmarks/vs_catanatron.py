"""energies vs catanatron, like for like: random bots, CPU time, alternating rounds (a report).

    python -m pip install catanatron==3.2.1      # once; not a dependency of energies
    python benchmarks/vs_catanatron.py --rounds 10 --seconds 3

catanatron (https://github.com/bcollazo/catanatron) plays the base game of Catan; it has no
trades between players. So the headline compares **energies with player-trade offers off**
(``RuleSet.replace(trade_offers_per_turn=0)``) against catanatron: the same kinds of actions
(rolls, builds, supply trades, cards, discards, robber/Inspector moves, end of turn) chosen
by uniformly random bots. energies "as played" (standard rules, one-for-one offers and their
answers included) is reported next to it, and so are games/s and the action census (how
many actions of each kind a game has) of every engine, so a reader can see what is counted.

Both engines run in this one process, one game at a time, with ``catanatron.RandomPlayer``
and ``energies.bots.RandomBot``. Every round runs the three players (catanatron, energies
offers off, energies as played) for about ``--seconds`` of **CPU time** each
(``time.process_time``), in an order that rotates from round to round so no engine always
runs first; each engine replays the same seeds every round. The machine is shared, so the
ratio is computed per round and reported as its median and its range.

energies plays as ``en.simulate`` does: without the per-turn history records
(``new_game(history=False)``), which catanatron does not keep either; the action log, the
text log and the event log are kept. Actions are counted from catanatron's ``game.state.actions`` (its log of every action taken:
initial placements, rolls, builds, trades, discards, robber moves, end turns) and from
energies' ``game.actions`` (every applied action; quick start places the starting pieces
without actions). If catanatron is not installed the script says how to install it and
exits with status 0.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections import Counter
from importlib.metadata import version
from pathlib import Path


def run_catanatron(games: int, seed: int, seconds: float) -> dict:
    """Random 4-player catanatron games for ``seconds`` of CPU time (whole games)."""
    from catanatron import Color, Game, RandomPlayer
    from catanatron.game import TURNS_LIMIT

    colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    census: Counter = Counter()
    played = actions = turns = finished = 0
    cpu0 = time.process_time()
    while played < games and time.process_time() - cpu0 < seconds:
        game = Game([RandomPlayer(c) for c in colors], seed=seed + played + 1)  # 0 = random
        finished += game.play() is not None
        log = game.state.actions  # the log of every action taken
        actions += len(log)
        turns += game.state.num_turns
        census.update(a.action_type.name.lower() for a in log)
        played += 1
    cpu = time.process_time() - cpu0
    return {
        "engine": f"catanatron {version('catanatron')}",
        "games": played,
        "actions": actions,
        "turns": turns,
        "cpu_seconds": cpu,
        "census": census,
        "note": f"{finished}/{played} reached 10 VP within {TURNS_LIMIT} turns",
    }


def run_energies(games: int, seed: int, seconds: float, offers: bool) -> dict:
    """Random 4-player energies games for ``seconds`` of CPU time (whole games)."""
    import energies as en

    rules = en.RuleSet.standard(4)
    if not offers:
        rules = rules.replace(trade_offers_per_turn=0)
    census: Counter = Counter()
    outcomes: Counter = Counter()
    played = actions = turns = 0
    cpu0 = time.process_time()
    while played < games and time.process_time() - cpu0 < seconds:
        game = en.new_game(seed=seed + played, rules=rules, history=False)  # as simulate()
        outcomes[en.play(game, [en.bots.RandomBot() for _ in range(4)]).kind] += 1
        actions += len(game.actions)
        turns += game.turn
        census.update(a.kind for a in game.actions)
        played += 1
    cpu = time.process_time() - cpu0
    return {
        "engine": f"energies {en.__version__}" + ("" if offers else ", offers off"),
        "games": played,
        "actions": actions,
        "turns": turns,
        "cpu_seconds": cpu,
        "census": census,
        "note": ", ".join(f"{kind} {n}" for kind, n in sorted(outcomes.items())),
    }


PLAYERS = {
    "catanatron": lambda a: run_catanatron(a.games, a.seed, a.seconds),
    "offers off": lambda a: run_energies(a.games, a.seed, a.seconds, offers=False),
    "as played": lambda a: run_energies(a.games, a.seed, a.seconds, offers=True),
}


def actions_per_s(r: dict) -> float:
    return r["actions"] / r["cpu_seconds"]


def games_per_s(r: dict) -> float:
    return r["games"] / r["cpu_seconds"]


def spread(values: list[float]) -> str:
    return f"median {statistics.median(values):.2f} (rounds {min(values):.2f}–{max(values):.2f})"


def report(rounds: list[dict[str, dict]], command: str) -> str:
    """Markdown: every run, the per-round ratios with their spread, and the census."""
    lines = [
        "# energies vs catanatron, random bots, like for like (benchmarks/vs_catanatron.py)",
        "",
        f"Command: `{command}`  ",
        (
            f"{platform.machine()}, {os.cpu_count()} CPUs (shared with other work), Python "
            f"{platform.python_version()}. One process; each round runs catanatron, energies "
            "with player-trade offers off and energies as played for about the same CPU time "
            "(`time.process_time`), in an order that rotates every round. Rates are per CPU "
            "second."
        ),
        "",
        "| round | engine | games | CPU s | games/s | actions/s | actions/game | turns/game |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for i, runs in enumerate(rounds, start=1):
        for r in runs.values():
            lines.append(
                f"| {i} | {r['engine']} | {r['games']} | {r['cpu_seconds']:.2f} | "
                f"{games_per_s(r):.2f} | {actions_per_s(r):,.0f} | "
                f"{r['actions'] / r['games']:.1f} | {r['turns'] / r['games']:.1f} |"
            )

    def ratios(name: str, rate) -> list[float]:
        return [rate(runs[name]) / rate(runs["catanatron"]) for runs in rounds]

    headline = ratios("offers off", actions_per_s)
    lines += [
        "",
        "## energies / catanatron, per round",
        "",
        f"- **actions/s, offers off (the headline): {spread(headline)}**; per round "
        + ", ".join(f"{r:.2f}" for r in headline),
        (
            "- actions/s, as played (offers and answers counted): "
            f"{spread(ratios('as played', actions_per_s))}"
        ),
        f"- games/s, offers off: {spread(ratios('offers off', games_per_s))}",
        f"- games/s, as played: {spread(ratios('as played', games_per_s))}",
        "",
        (
            "The games differ: a New Energies game ends when the event bag runs out or "
            "everyone loses (about 30 turns), catanatron's random games run to 10 VP (about "
            "350 turns). Per action is the like-for-like measure; per game is not."
        ),
        "",
        "## Action census (all rounds; share of each engine's actions)",
        "",
    ]
    totals = {name: Counter() for name in rounds[0]}
    for runs in rounds:
        for name, r in runs.items():
            totals[name].update(r["census"])
    for name, census in totals.items():
        total = sum(census.values())
        engine = rounds[0][name]["engine"]
        parts = [f"{kind} {n / total:.1%}" for kind, n in census.most_common()]
        lines.append(f"- **{engine}** ({total:,} actions): " + ", ".join(parts))
    lines += ["", "Outcomes:"]
    for name in totals:
        notes = [runs[name]["note"] for runs in rounds]
        lines.append(f"- {rounds[0][name]['engine']}: round 1 {notes[0]}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="at most this many per run")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of the three runs")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of each run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out",
        default=str(Path(__file__).parent / "results" / "vs_catanatron.md"),
        help="markdown file to write ('' to only print)",
    )
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1 or not args.seconds > 0:
        parser.error("--games and --rounds must be at least 1, --seconds above 0")
    try:
        import catanatron  # noqa: F401
    except ImportError:
        print(
            "catanatron is not installed: `python -m pip install catanatron==3.2.1`, then run "
            "this again. The comparison was skipped (exit 0)."
        )
        sys.exit(0)

    names = list(PLAYERS)
    rounds: list[dict[str, dict]] = []
    for i in range(args.rounds):
        runs = {}
        for name in names[i % 3 :] + names[: i % 3]:  # rotate who goes first
            gc.collect()
            runs[name] = PLAYERS[name](args)
            print(
                f"round {i + 1} {name}: {actions_per_s(runs[name]):,.0f} actions/s",
                file=sys.stderr,
                flush=True,
            )
        rounds.append({name: runs[name] for name in names})
    command = "python benchmarks/vs_catanatron.py " + " ".join(sys.argv[1:])
    text = report(rounds, command.strip())
    print(text)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)  # never half-written
        print(f"written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
