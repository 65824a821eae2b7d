"""How fast persona games could be if the bots and their views cost nothing (a report).

    git archive c3c1615 | tar -x -C /tmp/i16base          # issue 16's baseline
    python benchmarks/persona_floor.py --before /tmp/i16base --games 100 --rounds 4

Issue 16 asks persona games (``fossil,green,balanced,random`` through ``simulate``) to run
at 3x the baseline's games/s "by making the bots cheap". This report bounds what cheaper
bots can give. Each round, in one fresh process for this tree:

* **persona** — the games of ``simulate(games, lineup, seed=0)`` (``persona_speed.py``
  times that call), played with ``simulate.play_one`` to keep each game's actions;
* **floor** — the same games again through ``energies.runner.loop.play`` with every bot replaced by
  one that returns the recorded action (found in the listed actions by identity, as the
  bots return them): the same listing, the same checks and the same ``apply`` work, no
  decisions and no views. No bot can be cheaper than that; the replayed games must end as
  the played ones did.

and, in another fresh process, the baseline tree's persona games/s (``--before``,
``persona_speed.py``'s child). CPU time, rounds alternating which tree runs first.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from pathlib import Path

from persona_speed import CHILD as PERSONA_CHILD  # (this script's folder is on sys.path)
from persona_speed import run

HERE = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
import energies as en
from energies.bots import make_bot
from energies.runner.loop import play
from energies.runner import game_seeds, play_one

games, lineup = int(sys.argv[1]), sys.argv[2].split(",")


class Replay:
    # a bot that returns the recorded action: the listed object where the play loop lists it
    def __init__(self, script, unlisted):
        self.script, self.scores_unlisted_offers = script, unlisted

    def decide(self, view, legal, rng):
        action = next(self.script)
        for listed in legal:
            if listed is action:
                return listed
        return action  # an offer the bot scored unlisted: play() checks it with apply()

    decide.ignores_view = True


def replay(game):
    script = iter(list(game.actions))
    flags = [getattr(make_bot(spec), "scores_unlisted_offers", False) for spec in lineup]
    replayers = [Replay(script, unlisted) for unlisted in flags]
    again = en.new_game(players=len(lineup), seed=game.seed, history=False)
    play(again, replayers)
    assert again.outcome == game.outcome and len(again.actions) == len(game.actions)


for seed in game_seeds(2, 99):  # warm-up: imports, caches
    replay(play_one(lineup, seed, history=False))
cpu = time.process_time()
played = [play_one(lineup, seed, history=False) for seed in game_seeds(games, 0)]
persona = time.process_time() - cpu
cpu = time.process_time()
for game in played:
    replay(game)
floor = time.process_time() - cpu
print(json.dumps({"persona": persona, "floor": floor,
                  "actions": sum(len(g.actions) for g in played)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the baseline's source tree")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--lineup", default="fossil,green,balanced,random")
    parser.add_argument("--out", default="", help="markdown file to write ('' to only print)")
    args = parser.parse_args()
    before = Path(args.before).resolve()
    rows = []
    # the baseline's persona games (persona_speed's program) and this tree's played and
    # replayed games, in an order that alternates: drift of the machine hits both alike
    sides = {"baseline": (before, PERSONA_CHILD), "floor": (HERE, CHILD)}
    for i in range(args.rounds):
        order = ("baseline", "floor") if i % 2 == 0 else ("floor", "baseline")
        got = {}
        for name in order:
            tree, child = sides[name]
            got[name] = run(tree, args.games, args.lineup, child)
        base, now = got["baseline"], got["floor"]
        rows.append((args.games / base["cpu"], args.games / now["persona"],
                     args.games / now["floor"], now["actions"] / args.games))  # fmt: skip
        print(f"round {i + 1}: " + ", ".join(f"{v:.1f}" for v in rows[-1]), file=sys.stderr)
    lines = [
        "# Persona games/s if the bots cost nothing (benchmarks/persona_floor.py)",
        "",
        "Command: `python benchmarks/persona_floor.py " + " ".join(sys.argv[1:]) + "`; "
        f"lineup `{args.lineup}`, the {args.games} games of `simulate(..., seed=0)` per round, "
        f"CPU time, {os.cpu_count()} CPUs, Python {platform.python_version()}. "
        f"Baseline: `{before}`.",
        "",
        (
            "| round | baseline games/s | persona games/s | floor games/s | floor / baseline "
            "| actions a game |"
        ),
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for i, (base, persona, floor, actions) in enumerate(rows, start=1):
        lines.append(
            f"| {i} | {base:.1f} | {persona:.1f} | {floor:.1f} | {floor / base:.2f} "
            f"| {actions:.1f} |"
        )
    ratios = [floor / base for base, _, floor, _ in rows]
    lines += [
        "",
        (
            f"With bots and views that cost nothing, persona games would run at "
            f"**{statistics.median(ratios):.2f}×** the baseline's games/s (rounds "
            f"{min(ratios):.2f}–{max(ratios):.2f}); issue 16 asks 3×."
        ),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
