"""Make the example class of lesson 07: six tables, two rounds, the same seed per table in both.

    python notebooks/class-example/make_example.py

Bots stand in for a class so that lesson 07 runs without one; the files are example data, not
a real class. Round 1 ("silent") seats a seeded mix of personas at every table. Round 2 ("with
role cards") plays each table's seed again, and each seat's bot is chosen to act out the card
that seat was dealt (cards in seat order, ``energies.classroom.roles_for``): the energy company
is a FossilRush, the city a Balanced player, the green NGO and the journalist GreenInvestors.
The difference between the rounds is therefore built in by this choice of bots; in a real
class it is the experiment. Then one round-2 file is edited by hand (its seed changed, so the
replay no longer fits), to show that ``collect`` skips a changed file and that its table drops
out of the paired comparison. A real class's files replace these.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import energies as en
from energies.classroom import roles_for

HERE = Path(__file__).resolve().parent
GROUPS = ("A", "B", "C", "D", "E", "F")
FIRST_SEED = 100  # group A plays seed 100, B 101, ... in both rounds
NAMES = ("Ada", "Ben", "Chloé", "Dev", "Ela", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea")
ROUND_1_PERSONAS = ("fossil", "fossil", "freerider", "random", "balanced", "green")
# the bot that acts out each role card in round 2
ROLE_PERSONAS = {"company": "fossil", "city": "balanced", "ngo": "green", "journalist": "green"}
EDITED = "F"  # the table whose round-2 file someone "improved" by hand


def lineups(seed: int = 18) -> dict[str, tuple[list[str], list[str]]]:
    """The seeded line-ups of both rounds, {group: (round 1, round 2)}."""
    rng = random.Random(seed)
    second = [ROLE_PERSONAS[role.key] for role in roles_for(4)]
    return {group: ([rng.choice(ROUND_1_PERSONAS) for _ in range(4)], second) for group in GROUPS}


def play_group(group: str, personas: list[str], seed: int) -> en.Game:
    names = random.Random(group).sample(NAMES, 4)  # the same students in both rounds
    game = en.new_game(rules=en.RuleSet.classroom(), seed=seed, names=names)
    en.play(game, [en.bots.make_bot(p, seed=seed + s) for s, p in enumerate(personas)])
    return game


def main() -> None:
    for number in (1, 2):
        folder = HERE / f"round{number}"
        folder.mkdir(exist_ok=True)
        for old in folder.glob("*.json"):
            old.unlink()
    for i, (group, rounds) in enumerate(lineups().items()):
        for number, personas in enumerate(rounds, start=1):
            game = play_group(group, personas, seed=FIRST_SEED + i)
            game.save(HERE / f"round{number}" / f"group-{group}.json")
    edited = HERE / "round2" / f"group-{EDITED}.json"
    data = json.loads(edited.read_text(encoding="utf-8"))
    data["seed"] += 1  # "better dice": the replay no longer matches the recorded game
    edited.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")


if __name__ == "__main__":
    main()
