"""Golden trace of one seeded game (design §5.3): 4 RandomBots via ``en.play``, seed 7.

The file ``tests/golden/seed7_random.json`` holds a compact summary of that
game — outcome kind, winners, turns, number of actions, final state digest,
the first 40 log lines and the GF after every turn. The test replays the game
and compares; any change to the rules engine, the bots or the random streams
that alters this game shows up here as a readable diff.

The golden file is regenerated ONLY on purpose, after checking that the change
in play is intended::

    ENERGIES_REGEN_GOLDEN=1 python -m pytest -q tests/test_golden.py
    # or: python tests/test_golden.py

Then review ``git diff tests/golden/`` and commit it with the engine change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import energies as en

GOLDEN = Path(__file__).parent / "golden" / "seed7_random.json"
SEED = 7
PLAYERS = 4
LOG_LINES = 40
REGEN_VAR = "ENERGIES_REGEN_GOLDEN"


def golden_summary(seed: int = SEED, players: int = PLAYERS) -> dict[str, Any]:
    """Play the golden game and summarise it (plain JSON: the content of the golden file)."""
    game = en.new_game(players=players, seed=seed)
    outcome = en.play(game, [en.bots.RandomBot() for _ in range(players)])
    gf_by_turn: dict[int, int] = {}
    for record in game.history:  # one record per seat per turn; GF is the same for all seats
        gf_by_turn[record["turn"]] = record["gf"]
    return {
        "game": f"en.new_game(players={players}, seed={seed}) played by en.play with "
        f"{players} en.bots.RandomBot()",
        "regenerate": f"{REGEN_VAR}=1 python -m pytest -q tests/test_golden.py",
        "outcome_kind": outcome.kind,
        "winners": list(outcome.winners),
        "turns": game.turn,
        "actions": len(game.actions),
        "digest": game.digest(),
        "first_log_lines": game.log[:LOG_LINES],
        "gf_turns": sorted(gf_by_turn),
        "gf_per_turn": [gf_by_turn[t] for t in sorted(gf_by_turn)],
    }


def write_golden(path: Path = GOLDEN) -> dict[str, Any]:
    """Regenerate the golden file (only on purpose: see the module docstring)."""
    summary = golden_summary()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return summary


def _first_difference(expected: list, actual: list) -> str:
    for i, (e, a) in enumerate(zip(expected, actual)):
        if e != a:
            return f"first difference at index {i}: expected {e!r}, got {a!r}"
    return f"lengths differ: expected {len(expected)}, got {len(actual)}"


def test_golden_trace_seed7_random_bots():
    """The seeded RandomBot game replays exactly as recorded in the golden file."""
    if os.environ.get(REGEN_VAR) == "1":
        write_golden()
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    actual = golden_summary()
    problems = []
    for key in sorted(set(expected) | set(actual)):
        e, a = expected.get(key), actual.get(key)
        if e == a:
            continue
        if isinstance(e, list) and isinstance(a, list):
            problems.append(f"{key}: {_first_difference(e, a)}")
        else:
            problems.append(f"{key}: expected {e!r}, got {a!r}")
    assert not problems, (
        "The golden game changed (if intended, regenerate with "
        f"{REGEN_VAR}=1 and review the diff):\n" + "\n".join(problems)
    )


def test_golden_summary_is_deterministic_and_consistent_with_the_rules():
    """Two runs agree; the trace itself obeys the rules it records: GF starts at 3 per player
    (rule 3.5), stays on the track 0..7 per player (rule 4.2), one GF per turn from turn 0, and
    the outcome is one of the four kinds (rule 14) with winners only when somebody won."""
    first, second = golden_summary(), golden_summary()
    assert first == second
    rules = en.RuleSet.standard(PLAYERS)
    assert first["gf_turns"] == list(range(first["turns"] + 1))
    assert first["gf_per_turn"][0] == 3 * PLAYERS
    assert all(0 <= gf <= rules.gf_max for gf in first["gf_per_turn"])
    assert first["outcome_kind"] in ("victory_points", "empty_bag", "everyone_loses", "unfinished")
    assert bool(first["winners"]) == (first["outcome_kind"] in ("victory_points", "empty_bag"))
    assert len(first["first_log_lines"]) == LOG_LINES


if __name__ == "__main__":
    written = write_golden()
    print(
        f"wrote {GOLDEN}: {written['outcome_kind']}, {written['turns']} turns, "
        f"{written['actions']} actions"
    )
