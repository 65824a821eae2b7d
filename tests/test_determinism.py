"""Determinism with the strategy personas and simulate() (design §2 randomness, §5 simulation).

test_game_files.py already shows that a RandomBot game is the same in a fresh process
and after a save/load; here the same guarantees are checked where they are easiest to
break: the rule-aware personas (which score, sort and break ties over sets, dicts and
Counters), mixed persona line-ups, variant set-ups (draft start rule 3.3, random
layout rule 2.2), and :func:`energies.runner.batch.simulate` frames.

* a seeded persona game and a simulate() frame are identical in subprocesses with
  different PYTHONHASHSEED values (no result depends on string-hash order);
* simulate(jobs=1) and simulate(jobs=2) give identical frames (also per_turn) for
  lists of mixed persona line-ups, 3 and 4 players, and variant rule sets;
* a persona game saved mid-game, loaded and continued with the same bots ends with
  the same digest (and save text) as the uninterrupted game, also when it resumes
  through ``en.play`` or from a file.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pandas.testing as pdt
import pytest

import energies as en
from energies.newenergies.invariants import check_invariants
from energies.runner import bot_seed, play_one, simulate

LINEUPS_4 = [
    ("fossil", "green", "balanced", "freerider"),
    ("balanced", "random", "green", "balanced"),
    ("freerider", "fossil", "random", "green"),
]
LINEUPS_3 = [
    ("green", "freerider", "balanced"),
    ("fossil", "random", "balanced"),
]
VARIANTS = {
    "quick start, beginner board": {},
    "draft start (rule 3.3)": {"start": "draft"},
    "random layout, shuffled numbers (rule 2.2)": {
        "layout": "random",
        "number_placement": "shuffled",
    },
}


def _rules(players: int, changes: dict) -> en.RuleSet:
    return en.RuleSet.standard(players).replace(**changes)


# -- across processes --------------------------------------------------------------------------

_CHILD = """
import hashlib, json, sys
import energies as en
from energies.runner import play_one, simulate
cases = json.loads(sys.argv[1])
out = []
for lineup, seed, changes in cases:
    rules = en.RuleSet.standard(len(lineup)).replace(**changes)
    game = play_one(lineup, seed, rules)
    out.append([game.digest(), len(game.actions), game.outcome.kind,
                hashlib.sha256(game.to_json().encode()).hexdigest()])
frame = simulate(4, json.loads(sys.argv[2]), seed=11, progress=False)
out.append(hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest())
print(json.dumps(out))
"""

PROCESS_CASES = [
    (list(LINEUPS_4[0]), 7, {}),
    (list(LINEUPS_4[1]), 8, VARIANTS["draft start (rule 3.3)"]),
    (list(LINEUPS_3[0]), 9, VARIANTS["random layout, shuffled numbers (rule 2.2)"]),
]


def _here(cases, lineups) -> list:
    out = []
    for lineup, seed, changes in cases:
        game = play_one(lineup, seed, _rules(len(lineup), changes))
        out.append(
            [
                game.digest(),
                len(game.actions),
                game.outcome.kind,
                hashlib.sha256(game.to_json().encode()).hexdigest(),
            ]
        )
    frame = simulate(4, lineups, seed=11, progress=False)
    out.append(hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest())
    return out


def test_persona_games_and_simulate_frames_are_identical_whatever_the_hash_seed():
    """Persona line-ups (quick and draft start, beginner and random board) and a simulate()
    frame give byte-identical results in this process and in fresh interpreters with
    PYTHONHASHSEED 0 and 4242: no decision depends on the order of a set of strings."""
    lineups = [list(x) for x in LINEUPS_4]
    expected = _here(PROCESS_CASES, lineups)
    args = [json.dumps(PROCESS_CASES), json.dumps(lineups)]
    for hash_seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == expected, f"PYTHONHASHSEED={hash_seed}"


# -- simulate: jobs=1 vs jobs=2 ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lineups", "changes"),
    [
        (LINEUPS_4, {}),
        (LINEUPS_3, VARIANTS["draft start (rule 3.3)"]),
        (LINEUPS_4, VARIANTS["random layout, shuffled numbers (rule 2.2)"]),
    ],
    ids=["4p personas", "3p personas draft", "4p personas random board"],
)
def test_simulate_jobs_1_and_jobs_2_give_identical_frames_for_persona_line_ups(lineups, changes):
    """The per-game seeds (SeedSequence spawn) and per-seat bot seeds make a frame of mixed
    persona line-ups the same whether one process or a pool of two plays it, per game and
    per turn; its rows are the games play_one replays."""
    rules = _rules(len(lineups[0]), changes)
    kwargs = {"bots": [list(x) for x in lineups], "rules": rules, "seed": 21, "progress": False}
    serial, serial_turns = simulate(8, per_turn=True, jobs=1, **kwargs)
    parallel, parallel_turns = simulate(8, per_turn=True, jobs=2, **kwargs)
    pdt.assert_frame_equal(serial, parallel)
    pdt.assert_frame_equal(serial_turns, parallel_turns)
    assert list(serial["lineup"]) == [",".join(lineups[i % len(lineups)]) for i in range(8)]
    for row in serial.head(2).itertuples():
        game = play_one(row.lineup.split(","), row.seed, rules)
        assert (game.outcome.kind, len(game.actions), game.turn) == (
            row.outcome,
            row.actions,
            row.turns,
        )


def test_simulate_same_seed_same_persona_frame_other_seed_other_frame():
    """Re-running simulate with the same seed repeats every persona game; another seed does
    not (the seed really drives the games)."""
    bots = [list(x) for x in LINEUPS_3]
    first = simulate(6, bots, seed=4, progress=False)
    again = simulate(6, bots, seed=4, progress=False)
    other = simulate(6, bots, seed=5, progress=False)
    pdt.assert_frame_equal(first, again)
    assert list(first["seed"]) != list(other["seed"])
    assert (
        first[["actions", "turns"]].values.tolist() != other[["actions", "turns"]].values.tolist()
    )


# -- save / load mid-game ----------------------------------------------------------------------


def _bots(lineup, seed: int) -> list:
    """The bots play_one / simulate give this game: seeded per game and seat."""
    return [en.bots.make_bot(name, seed=bot_seed(seed, s)) for s, name in enumerate(lineup)]


def _advance(game: en.Game, bots: list, rng: random.Random, until: int) -> None:
    while not game.is_over and len(game.actions) < until:
        legal = game.legal_actions()
        game.apply(bots[game.current_seat].decide(game, legal, rng))


SAVE_CASES = [
    (LINEUPS_4[0], 31, "quick start, beginner board"),
    (LINEUPS_4[2], 32, "draft start (rule 3.3)"),
    (LINEUPS_3[0], 33, "random layout, shuffled numbers (rule 2.2)"),
    (LINEUPS_3[1], 34, "quick start, beginner board"),
]


@pytest.mark.parametrize(("lineup", "seed", "variant"), SAVE_CASES)
def test_persona_game_saved_mid_game_and_continued_ends_like_the_uninterrupted_game(
    lineup, seed, variant
):
    """Save a persona game at a third and at two thirds of its length, load it and continue
    with the same bots: the final digest, save text, outcome and log equal those of the game
    played without interruption (design §2: a save holds everything that matters)."""
    rules = _rules(len(lineup), VARIANTS[variant])
    whole = play_one(lineup, seed, rules)
    length = len(whole.actions)

    game = en.new_game(rules=rules, seed=seed)
    bots = _bots(lineup, seed)
    rng = random.Random(f"{seed}:bots:0")  # the shared stream en.play would use
    for stop in (length // 3, 2 * length // 3):
        _advance(game, bots, rng, stop)
        text = game.to_json()
        game = en.load_game(text)  # continue from the loaded copy only
        assert game.to_json() == text
        assert check_invariants(game.state) == []
    _advance(game, bots, rng, 10**9)
    assert game.is_over
    assert game.digest() == whole.digest()
    assert game.to_json() == whole.to_json()
    assert game.outcome == whole.outcome
    assert game.log == whole.log


@pytest.mark.parametrize(("lineup", "seed", "variant"), SAVE_CASES[:2])
def test_persona_game_resumed_from_a_file_with_play_ends_like_play_one(
    tmp_path: Path, lineup, seed, variant
):
    """Seeded personas break ties with their own random stream, so a saved game resumed from
    a file by ``en.play`` with the same bot objects ends exactly as play_one's game."""
    rules = _rules(len(lineup), VARIANTS[variant])
    whole = play_one(lineup, seed, rules)
    game = en.new_game(rules=rules, seed=seed)
    bots = _bots(lineup, seed)
    _advance(game, bots, random.Random(0), len(whole.actions) // 2)
    path = tmp_path / "half.json"
    game.save(path)
    resumed = en.load_file(path)
    outcome = en.play(resumed, bots)
    assert outcome == whole.outcome
    assert resumed.digest() == whole.digest()
    assert resumed.actions == whole.actions
