"""Make the example class of lesson 07: two rounds of six seeded bot games (classroom rules).

    python notebooks/class-example/make_example.py

Bots stand in for a class so that lesson 07 runs without one. Round 1 ("silent") seats a
seeded mix of personas at every table. Round 2 ("with a written agreement") imitates a class
that agreed "everybody builds more renewable than fossil plants": each FossilRush and
RandomBot becomes a Balanced or GreenInvestor player — except at two tables, where one
FreeRider breaks the agreement. Then one saved file is edited by hand (its seed changed, so
the replay no longer fits), to show that ``collect`` skips a changed file. The difference
between the rounds is built in by this choice of bots: in a real class it is the experiment. The files are plain save files; a real
class's files replace them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import energies as en

HERE = Path(__file__).resolve().parent
GROUPS = ("A", "B", "C", "D", "E", "F")
NAMES = ("Ada", "Ben", "Chloé", "Dev", "Ela", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea")
ROUND_1_PERSONAS = ("fossil", "fossil", "freerider", "random", "balanced", "green")
KEEPS_PROMISE = ("balanced", "green")
BREAKS_PROMISE = {"C", "F"}  # the tables where one player keeps building fossil


def lineups(seed: int = 18):
    """The seeded line-ups of both rounds, {group: (round 1, round 2)}."""
    rng = random.Random(seed)
    out = {}
    for group in GROUPS:
        first = [rng.choice(ROUND_1_PERSONAS) for _ in range(4)]
        second = [p if p in KEEPS_PROMISE else rng.choice(KEEPS_PROMISE) for p in first]
        if group in BREAKS_PROMISE:
            second[rng.randrange(4)] = "freerider"
        out[group] = (first, second)
    return out


def play_group(group: str, round_number: int, personas: list[str], seed: int) -> en.Game:
    rng = random.Random(f"{group}{round_number}")
    names = rng.sample(NAMES, 4)
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
            game = play_group(group, number, personas, seed=100 * number + i)
            game.save(HERE / f"round{number}" / f"group-{group}.json")
    edited = HERE / "round2" / "group-F.json"  # someone "improved" their result by hand
    data = json.loads(edited.read_text(encoding="utf-8"))
    data["seed"] += 1  # "better dice": the replay no longer matches the recorded game
    edited.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")


if __name__ == "__main__":
    main()
