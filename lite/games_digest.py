"""Play seeded bot games and print what identifies each one, as one JSON object.

    python lite/games_digest.py 1 2 3          # seeds; prints {"1": {...}, "2": {...}, ...}

Every game is played as ``energies.simulate.play_one`` plays it (seeded bots), saved with
``Game.to_json()`` and loaded back with ``load_game`` (which replays the log and checks the
digest). The same seeds must give the same output under CPython, under CPython with numpy,
pandas, networkx and matplotlib made unimportable (tests/test_stdlib_core.py) and under
Pyodide in Node (tests/test_lite.py): the engine needs only the standard library.
"""

from __future__ import annotations

import hashlib
import json
import sys

import energies as en
from energies.simulate import play_one

#: one line-up of random bots and one of the four personas, 4 seats each
LINEUPS = (("random",) * 4, ("fossil", "green", "balanced", "freerider"))


def describe(seeds: list[int]) -> dict[str, dict]:
    """For each seed and line-up: the save file's sha256, the state digest, outcome, length."""
    out = {}
    for seed in seeds:
        for lineup in LINEUPS:
            game = play_one(lineup, seed)
            text = game.to_json()
            again = en.load_game(text)  # replays every action and checks the digest
            assert again.to_json() == text, "a loaded game saves differently"
            out[f"{seed}:{','.join(lineup)}"] = {
                "save_sha256": hashlib.sha256(text.encode()).hexdigest(),
                "digest": game.digest(),
                "outcome": game.outcome.kind,
                "actions": len(game.actions),
            }
    return out


def main(argv: list[str]) -> None:
    seeds = [int(arg) for arg in argv] or [0]
    print(json.dumps(describe(seeds), sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
