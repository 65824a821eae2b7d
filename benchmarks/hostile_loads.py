"""The slowest and biggest save files we could construct, and how long loading them takes.

    python benchmarks/hostile_loads.py

Each case is built, saved, and loaded in a fresh process (CPU time of ``load_game`` and
the process's peak memory). A report, not a test; docs/guarantees.md quotes it.

* ``huge-counts``: a 3 KB file whose rules ask for a million discs and 72 roads (refused).
* ``largest-rules``: every count at its upper bound, a bot game played to its end.
* ``edit-storm``: the most teacher edits a game may hold, each moving one road so that
  Longest Road is searched again on a dense network of the most roads the rules allow.
* ``most-actions``: the most actions a file may hold (a 1:1 bank, random bots, long turns).

It ends with the busiest turn of 200 standard bot games (four line-ups), for the default
``turn_action_limit``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile

import energies as en
from energies import sandbox
from energies.newenergies.game import MAX_SANDBOX_EDITS, MAX_SAVED_ACTIONS
from energies.newenergies.rules import MAX_ROADS

LOADER = """
import resource, sys, time
from energies.kit.registry import load_file
from energies.kit.saves import SaveFileError
start = time.process_time()
try:
    game = load_file(sys.argv[1]); result = f"loaded, {len(game.actions)} actions"
except SaveFileError as exc:
    result = f"refused: {str(exc)[:70]}"
spent = time.process_time() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{spent:.3f} s CPU, peak {peak:.0f} MiB: {result}")
"""


def huge_counts() -> str:
    game = en.new_game(seed=1)
    data = json.loads(game.to_json())
    data["rules"]["brown_discs"] = [["air_pollution", 10**6]]
    data["rules"]["roads"] = 72
    return json.dumps(data)


def largest_rules() -> str:
    rules = en.RuleSet.standard(
        4,
        resource_cards=200,
        science_cards=200,
        energy_tokens=200,
        hazard_tokens=100,
        dev_deck=tuple((card, 40) for card in en.newenergies.rules.DEV_CARDS),
        brown_discs=tuple((event, 60) for event in en.newenergies.rules.BROWN_EVENTS),
        towns=30,
        cities=30,
        roads=MAX_ROADS,
        fossil_plants=60,
        renewable_plants=60,
        event_spaces=tuple((row, 100) for row in en.newenergies.rules.ROWS),
        turn_limit=2000,
        victory_points=100,
    )
    game = en.new_game(seed=2, rules=rules)
    en.play(game, [en.bots.RandomBot(seed=s) for s in range(4)])
    return game.to_json()


def edit_storm() -> str:
    game = en.new_game(seed=3, rules=en.RuleSet.standard(4, roads=MAX_ROADS))
    sandbox.clear_board(game)
    rng = random.Random(3)
    board = game.board
    # grow a dense network around the middle, then keep moving one road
    mine: list[int] = []
    corners = {27}
    while len(mine) < MAX_ROADS:
        options = sorted({p for c in corners for p in board.corner_paths_of[c]} - set(mine))
        path = rng.choice(options)
        sandbox.place(game, 0, "road", path)
        mine.append(path)
        corners |= set(board.paths[path])
    while game.edits < MAX_SANDBOX_EDITS - 1:
        old = mine.pop(rng.randrange(len(mine)))
        sandbox.remove(game, "road", old)
        ends = {c for p in mine for c in board.paths[p]}
        options = sorted({p for c in ends for p in board.corner_paths_of[c]} - set(mine) - {old})
        new = rng.choice(options)
        sandbox.place(game, 0, "road", new)
        mine.append(new)
    return game.to_json()


def most_actions() -> str:
    rules = en.RuleSet.standard(
        4,
        bank_rate=1,
        science_rate=1,
        turn_limit=2000,
        turn_action_limit=2000,
        event_spaces=tuple((row, 100) for row in en.newenergies.rules.ROWS),
        victory_points=100,
        brown_discs=tuple((event, 60) for event in en.newenergies.rules.BROWN_EVENTS),
    )
    game = en.new_game(seed=4, rules=rules)
    rng = random.Random(4)
    while not game.is_over and len(game.actions) < MAX_SAVED_ACTIONS:
        legal = game.legal_actions()
        trades = [a for a in legal if a.kind == "trade_with_supply"]
        game.apply_listed(rng.choice(trades if trades and rng.random() < 0.995 else legal))
    return game.to_json()


def busiest_turn(games: int = 200) -> int:
    """Most actions any turn of ``games`` standard games had (random and persona line-ups)."""
    from energies.runner import play_one

    lineups = [
        ["random"] * 4,
        ["fossil", "green", "balanced", "freerider"],
        ["green"] * 4,
        ["balanced", "random", "random", "random"],
    ]
    busiest = 0
    for i in range(games):
        log = play_one(lineups[i % 4], i).state.log
        count = 0
        for line in log:
            if isinstance(line, str) and line.startswith("— Turn"):
                count = 0
            elif not isinstance(line, str):
                count += 1
                busiest = max(busiest, count)
    return busiest


def main() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with tempfile.TemporaryDirectory() as folder:
        for case in (huge_counts, largest_rules, edit_storm, most_actions):
            path = os.path.join(folder, case.__name__ + ".json")
            text = case()
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            out = subprocess.run(
                [sys.executable, "-c", LOADER, path],
                capture_output=True,
                text=True,
                env=env,
                check=True,
            ).stdout.strip()
            print(f"{case.__name__.replace('_', '-'):14} {len(text) / 1024:8.0f} KiB  {out}")
    print(f"busiest turn of 200 standard bot games: {busiest_turn()} actions")


if __name__ == "__main__":
    main()
