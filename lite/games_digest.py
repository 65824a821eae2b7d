"""Play seeded bot games and print what identifies each one, as one JSON object.

    python lite/games_digest.py 1 2 3          # seeds; prints {"1": {...}, "2": {...}, ...}

Every game is played as ``energies.runner.batch.play_one`` plays it (seeded bots), saved with
``Game.to_json()`` and loaded back with ``load_game`` (which replays the log and checks the
digest). The same seeds must give the same output under CPython, under CPython with numpy,
pandas, networkx and matplotlib made unimportable (tests/test_stdlib_core.py) and under
Pyodide in Node (tests/test_lite.py): the engine needs only the standard library.

``describe_playapp()`` builds lesson 02's PlayApp (an anywidget; no chart, as matplotlib is
not needed for the page) and identifies the state it syncs to the browser: the same under
CPython and under Pyodide with the site's wheels (tests/test_lite.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys

import energies as en
from energies.runner import play_one

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


#: the PlayView traits that make the page (the layout's model id differs run to run; the save
#: folder, the working directory, and the default save name, holding the time, are set apart)
PAGE_TRAITS = ("_esm", "_css", "_model_module", "_model_module_version", "geometry", "view")


def describe_playapp() -> dict:
    """Lesson 02's PlayApp: its prompt, the anywidget module version it asks the browser for,
    and the sha256 of the page state it syncs."""
    import anywidget

    from energies.widgets import PlayApp

    names = ["You", "Fossil Fred", "Green Grace", "Balanced Bo"]
    game = en.new_game(players=4, seed=2034, names=names)
    seats = {0: "human", 1: "FossilRush", 2: "GreenInvestor", 3: "Balanced"}
    app = PlayApp(game, seats=seats, chart=False)
    assert isinstance(app.view, anywidget.AnyWidget)
    state = app.view.get_state()
    saves = state["view"]["file"]  # where and under which name a save would go: set apart
    assert saves.pop("folder") == os.getcwd()  # /home/pyodide under Pyodide
    assert re.fullmatch(r"energies-You-seed2034-\d{8}-\d{6}\.json", saves.pop("default"))
    return {
        "prompt": app.prompt_text,
        "model_module": f"{state['_model_module']}@{state['_model_module_version']}",
        "page_sha256": {  # trait by trait, so that a difference names its trait
            name: hashlib.sha256(json.dumps(state[name], sort_keys=True).encode()).hexdigest()
            for name in PAGE_TRAITS
        },
    }


def main(argv: list[str]) -> None:
    seeds = [int(arg) for arg in argv] or [0]
    print(json.dumps(describe(seeds), sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
