"""Instructions per action of energies and catanatron, counted by valgrind (a report).

    python -m pip install catanatron==3.2.1      # once; not a dependency of energies
    python benchmarks/engine_instructions.py --before /tmp/main    # needs valgrind; minutes

The machine's timings are noisy (``vs_catanatron.py`` and ``persona_speed.py`` give CPU
time per round); instruction counts are not. Each side runs under
``valgrind --tool=callgrind`` twice, both times after the same warm-up games (imports,
the quick-start tree and other caches filled, as in a long benchmark run): once with no
measured game and once with ``--games`` of them. The difference is the cost of those games.

* **catanatron** — random 4-player games (``RandomPlayer``, seeds 1.., as
  ``vs_catanatron.py``); per action of ``game.state.actions``;
* **energies, offers off** — random 4-player games with ``trade_offers_per_turn=0``
  through ``en.play`` without history (as ``vs_catanatron.py``), seeds 0..; per action of
  ``game.actions``; for this tree and for ``--before`` if given (the warm-up adds 400
  set-ups, which fill the quick-start tree of ``energies.newenergies.engine.setup`` as the hundreds of
  games of a ``vs_catanatron.py`` round do);
* **persona games** — ``en.simulate(--persona-games, 'fossil,green,balanced,random',
  seed=0, jobs=1)`` (as ``persona_speed.py``); per game; both trees.

With ``--before``, a last line gives this tree's difference from it, per action of the
random games and per persona game (the engine's budget: within 2 %).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
LINEUP = "fossil,green,balanced,random"


def play(side: str, games: int) -> int:
    """Warm up, then play ``games`` measured games on one side; the actions they took."""
    if side == "catanatron":
        from catanatron import Color, Game, RandomPlayer

        colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
        actions = 0
        for seed in [*range(1001, 1004), *range(1, games + 1)]:
            game = Game([RandomPlayer(c) for c in colors], seed=seed)
            game.play()
            actions += len(game.state.actions) if seed <= games else 0
        return actions
    import energies as en

    if side == "persona":
        en.simulate(4, LINEUP, seed=99, progress=False)  # warm-up, as persona_speed.py
        if not games:
            return 0
        return int(en.simulate(games, LINEUP, seed=0, progress=False, jobs=1)["actions"].sum())
    rules = en.RuleSet.standard(4).replace(trade_offers_per_turn=0)
    for seed in range(2000, 2400):  # set-ups only: the quick-start tree as a long run has it
        en.new_game(seed=seed, rules=rules, history=False)
    actions = 0
    for seed in [*range(1000, 1040), *range(games)]:
        game = en.new_game(seed=seed, rules=rules, history=False)
        en.play(game, [en.bots.RandomBot() for _ in range(4)])
        actions += len(game.actions) if seed < 1000 else 0
    return actions


def _child_env(tree: Path) -> dict:
    """The measured child's environment: ``tree`` on PYTHONPATH, string hashes fixed (unless
    set), and one BLAS thread: numpy's idle BLAS threads (persona games import pandas) spin
    and callgrind counts them (benchmarks/env_instructions.py found it)."""
    return {
        "PYTHONHASHSEED": "0",
        **os.environ,
        "PYTHONPATH": str(tree),
        "OPENBLAS_NUM_THREADS": "1",
    }


def count(side: str, games: int, tree: Path) -> tuple[int, int]:
    """(actions, instructions) of one run under callgrind with ``tree`` on PYTHONPATH."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--play", side, str(games)],
        capture_output=True, text=True, env=_child_env(tree), cwd="/",
        check=True,
    )  # fmt: skip
    actions = int(re.search(r"ACTIONS (\d+)", out.stdout).group(1))
    return actions, int(re.search(r"Collected : (\d+)", out.stderr).group(1))


def measured(side: str, games: int, tree: Path) -> tuple[int, int]:
    """(actions, instructions) of ``games`` measured games, warm-up and start-up left out."""
    _, base = count(side, 0, tree)
    actions, total = count(side, games, tree)
    return actions, total - base


def main() -> None:
    if sys.argv[1:2] == ["--play"]:
        print("ACTIONS", play(sys.argv[2], int(sys.argv[3])))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="random games per side")
    parser.add_argument("--persona-games", type=int, default=10)
    parser.add_argument("--before", default="", help="another source tree to count too")
    args = parser.parse_args()
    trees = {"this tree": HERE, **({"before": Path(args.before)} if args.before else {})}
    cat_actions, cat = measured("catanatron", args.games, HERE)
    cat_per = cat / cat_actions
    print(f"catanatron: {cat_per:,.0f} instructions per action ({cat_actions} actions)")
    per_action = {}
    for name, tree in trees.items():
        actions, ins = measured("energies", args.games, tree)
        per = per_action[name] = ins / actions
        print(
            f"energies offers off, {name}: {per:,.0f} instructions per action "
            f"({actions} actions, {ins / args.games / 1e6:.2f} M per game); "
            f"catanatron / energies: {cat_per / per:.2f}"
        )
    per_game = {}
    for name, tree in trees.items():
        actions, ins = measured("persona", args.persona_games, tree)
        per_game[name] = ins / args.persona_games
        print(
            f"persona games, {name}: {ins / 1e9:.3f} x 10^9 instructions for "
            f"{args.persona_games} games ({actions} actions)"
        )
    if args.before:  # the budget of a change is stated against --before (within 2 %)
        print(
            "this tree vs before: offers off "
            f"{per_action['this tree'] / per_action['before'] - 1:+.2%} per action, "
            f"persona games {per_game['this tree'] / per_game['before'] - 1:+.2%} per game"
        )


if __name__ == "__main__":
    main()
