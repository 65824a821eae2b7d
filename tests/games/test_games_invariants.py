"""Invariants after every action of 200 seeded random games of each companion game, plus the
golden playthroughs (regenerated only on purpose: ``ENERGIES_REGEN_GOLDEN=1``)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import energies as en
from energies import games
from energies.games.noclear.invariants import problems as noclear_problems
from energies.games.shelfie.invariants import problems as shelfie_problems

CHECKS = {"shelfie": shelfie_problems, "noclear": noclear_problems}
GOLDEN = Path(__file__).parent.parent / "golden"


def _random_game(name: str, seed: int):
    """A random-bot game with a player count and a rule variant chosen by the seed."""
    spec = games.get(name)
    low, high = spec.players
    rules = spec.rules_class(players=low + seed % (high - low + 1))
    if name == "noclear" and seed % 4 == 3:
        rules = rules.replace(end="round", uranium_payment="exact", tiebreak="shared")
    if name == "noclear" and seed % 4 == 1:  # rule 2.2 [H]: uranium paid with machines
        rules = rules.replace(uranium_payment="machines")
    if name == "shelfie" and seed % 4 == 3:
        rules = rules.replace(any_order_in_row=False, must_circle_if_able=False)
    return spec.new_game(seed=seed, rules=rules)


@pytest.mark.parametrize("name", ["shelfie", "noclear"])
def test_invariants_hold_after_every_action_of_200_random_games(name):
    check, actions, endings = CHECKS[name], 0, set()
    for seed in range(200):
        game, rng = _random_game(name, seed), random.Random(seed)
        assert check(game) == []
        while not game.is_over:
            legal = game.legal_actions()
            action = rng.choice(legal)
            assert game.why_illegal(action) is None
            game.apply(action)
            actions += 1
            found = check(game)
            assert found == [], f"seed {seed}, action {len(game.actions)} ({action}): {found}"
        endings.add(game.outcome.kind)
        if seed % 20 == 0:  # the save file replays to the same digest
            assert games.load_game(game.to_json()).digest() == game.digest()
    assert actions > 200 * 10 and endings <= {"points", "uranium", "turn_limit"}


def _golden(name: str) -> dict:
    spec = games.get(name)
    lineup = {"shelfie": ["ev", "greedy", "random"], "noclear": ["engineer", "random"]}[name]
    game = spec.new_game(players=len(lineup), seed=7)
    en.play(game, [spec.make_bot(b, seed=s) for s, b in enumerate(lineup)])
    return {
        "lineup": lineup,
        "outcome": game.outcome.to_dict(),
        "digest": game.digest(),
        "actions": [str(a) for a in game.actions],
        "log_head": game.log[:30],
    }


@pytest.mark.parametrize("name", ["shelfie", "noclear"])
def test_golden_playthrough(name):
    path = GOLDEN / f"{name}_seed7.json"
    summary = _golden(name)
    if os.environ.get("ENERGIES_REGEN_GOLDEN"):
        path.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert summary == expected, f"{name}: the seed-7 playthrough changed (see the module docstring)"
