"""Save files at volume: 1,000 seeded games saved mid-game and at the end, loaded, continued.

For every game the test plays it uninterrupted, then again with a save/load in
the middle, and checks that the loaded game continues to exactly the same end
(same save text) and that the finished game's file loads with the same digest.
Bots draw from a random stream seeded by the game seed and the action count,
so a loaded game meets the same bot choices as the uninterrupted one.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

import energies as en

GAMES = 1000


def _finish(game: en.Game) -> None:
    while not game.is_over:
        legal = game.legal_actions()
        rng = random.Random(f"{game.seed}:{len(game.actions)}")
        game.apply(rng.choice(legal))


def _round_trip(seed: int) -> str | None:
    """None when the game survives both round trips, else what went wrong."""
    players = 3 + seed % 2
    start = "draft" if seed % 5 == 0 else "quick"
    whole = en.new_game(players=players, seed=seed, start=start)
    _finish(whole)
    if whole.outcome.kind not in ("victory_points", "empty_bag", "everyone_loses", "unfinished"):
        return f"seed {seed}: unknown outcome {whole.outcome.kind}"

    cut = random.Random(seed).randrange(1, len(whole.actions))
    halfway = en.new_game(players=players, seed=seed, start=start)
    for action in whole.actions[:cut]:
        halfway.apply(action)
    resumed = en.load_game(halfway.to_json())
    if resumed.to_json() != halfway.to_json():
        return f"seed {seed}: the mid-game save (action {cut}) does not load identically"
    _finish(resumed)
    if resumed.to_json() != whole.to_json():
        return f"seed {seed}: the game resumed at action {cut} ended differently"

    final = en.load_game(whole.to_json())
    if final.digest() != whole.digest() or final.snapshot() != whole.snapshot():
        return f"seed {seed}: the finished game does not load identically"
    return None


def test_1000_games_survive_save_load_mid_game_and_at_the_end():
    with ProcessPoolExecutor(max_workers=2) as pool:
        problems = [p for p in pool.map(_round_trip, range(GAMES), chunksize=25) if p]
    assert problems == []
