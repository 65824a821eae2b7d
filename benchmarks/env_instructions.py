"""Instructions per action through the env and the engine, counted by valgrind (a report).

    python benchmarks/env_instructions.py            # needs valgrind; a few minutes
    python benchmarks/env_instructions.py engine "env()"    # only these sides

The machine's timings are noisy; instruction counts are not. Each side plays seeded
4-player games of uniformly random legal actions (as ``env_speed.py``) under
``valgrind --tool=callgrind``, once with 1 game and once with 3: the difference divided
by the difference in actions is the cost of one action, start-up and imports left out.

* **engine** — ``legal_actions``, ``random.choice``, ``apply_listed``;
* **env()** — the PettingZoo loop through ``energies.env.env()``, ``random.choice`` of the
  mask's ``nonzero()[0].tolist()`` (different random games: the choice is among the
  mask's indices); **env() flatnonzero** — the same with ``np.flatnonzero(mask)``;
* **loop** — ``raw_env`` without observation or mask: ``agent_iter``,
  ``last(observe=False)``, a random legal index in listing order (the engine's games),
  ``step``; **+observation** — the loop plus the observation vector (the same games);
* **+mask** — the loop plus the action mask and its ``nonzero()`` (the env()'s games).

The children run with ``PYTHONHASHSEED=0`` (unless set) and ``OPENBLAS_NUM_THREADS=1``: the
string hashes then stay the same from run to run, and numpy's BLAS threads, which idle-spin
after ``import numpy`` and were counted with the rest, are not started. With both, two runs
of the same code count within a few instructions per action of each other (before, the
engine's count moved by up to ~12,000 per action between runs).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys

SIDES = ("engine", "env()", "env() flatnonzero", "loop", "+observation", "+mask")


def play(side: str, games: int) -> int:
    """Play ``games`` games on one side; the number of actions taken."""
    import numpy as np

    import energies as en
    from energies.env import env, raw_env

    rng, actions = random.Random(0), 0
    if side == "engine":
        for seed in range(games):
            game = en.new_game(players=4, seed=seed)
            while not game.is_over:
                game.apply_listed(rng.choice(game.legal_actions()))
                actions += 1
        return actions
    checked = side.startswith("env()")
    e = env(players=4) if checked else raw_env(players=4)
    for seed in range(games):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            observation, _r, terminated, truncated, _i = e.last(observe=checked)
            if terminated or truncated:
                e.step(None)
                continue
            if side == "env()":
                choices = observation["action_mask"].nonzero()[0].tolist()
            elif checked:
                choices = np.flatnonzero(observation["action_mask"]).tolist()
            elif side == "+mask":
                choices = e._legal().mask.copy().nonzero()[0].tolist()
            else:
                choices = [i for i in e._legal().indices if i is not None]
                if side == "+observation":
                    e._tracker.observation(e.game, e.agent_name_mapping[agent])
            e.step(rng.choice(choices))
            actions += 1
    return actions


#: a fixed hash seed and no BLAS threads: the counts repeat from run to run (see above)
_CHILD_ENV = {"PYTHONHASHSEED": "0", **os.environ, "OPENBLAS_NUM_THREADS": "1"}


def count(side: str, games: int) -> tuple[int, int]:
    """(actions, instructions) of one run under callgrind."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--play", side, str(games)],
        capture_output=True, text=True, env=_CHILD_ENV, check=True,
    )  # fmt: skip
    actions = int(re.search(r"ACTIONS (\d+)", out.stdout).group(1))
    return actions, int(re.search(r"Collected : (\d+)", out.stderr).group(1))


def main() -> None:
    if sys.argv[1:2] == ["--play"]:
        print("ACTIONS", play(sys.argv[2], int(sys.argv[3])))
        return
    sides = sys.argv[1:] or SIDES  # e.g. ``engine "env()"`` for a quicker look
    unknown = set(sides) - set(SIDES)
    if unknown:
        sys.exit(f"unknown sides {sorted(unknown)}; choose among {', '.join(SIDES)}")
    per_action = {}
    for side in sides:
        (a1, i1), (a3, i3) = count(side, 1), count(side, 3)
        per_action[side] = (i3 - i1) / (a3 - a1)
        print(f"{side:14s} {per_action[side]:10,.0f} instructions per action ({a3 - a1} actions)")
    if {"engine", "env()"} <= per_action.keys():
        ratio = per_action["engine"] / per_action["env()"]
        print(f"engine / env(): {ratio:.0%} (the throughput of env() against the engine's)")


if __name__ == "__main__":
    main()
