"""Hostile inputs, round 3 (issue 37): edited companion saves, rules at the top of their
ranges, outside text that is not what it seems, unchecked arguments, false reasons, file names
at the file system's limit, and a class's shared save folder."""

from __future__ import annotations

import random
import time
import warnings

import pytest

from energies.games import shelfie
from energies.games.shelfie import ShelfieRules
from energies.games.shelfie import insight as shelfie_insight

# -- costs bounded over the whole valid rule space -----------------------------------------------

#: My Shelfie Dice with dice, colours and re-rolls at the top of their allowed ranges.
LARGEST_SHELFIE = ShelfieRules(
    colours=8, columns=8, dice=8, rerolls=4, max_circles=6, item_values=tuple(range(1, 9))
)


def _cpu_seconds(run) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def test_exact_odds_at_the_largest_rules_take_seconds_not_tens_of_seconds():
    # 8 dice of 9 faces with 4 re-rolls took 20 s of CPU; about 1.6 s now
    game = shelfie.new_game(seed=1, rules=LARGEST_SHELFIE)
    seconds = _cpu_seconds(
        lambda: shelfie_insight.combo_probability(game.dice, 4, [(0, 7)], LARGEST_SHELFIE)
    )
    assert seconds < 8


def test_the_ev_bot_and_the_hint_fall_back_to_a_bounded_choice_and_say_so():
    # one ev decision took 22 s: now it re-rolls as the greedy player does, with a warning
    game = shelfie.new_game(seed=1, rules=LARGEST_SHELFIE)
    bot = shelfie.make_bot("ev", seed=1)
    with pytest.warns(UserWarning, match="greedy player.*12,870 different sets"):
        seconds = _cpu_seconds(
            lambda: bot.decide(game.view(0), game.legal_actions(), random.Random(1))
        )
    assert seconds < 2 and "12,870" in bot.fallback
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per bot: a whole game does not repeat it
        bot.decide(game.view(0), game.legal_actions(), random.Random(1))
    pytest.importorskip("ipywidgets")
    from energies.games.shelfie.widget import ShelfieApp

    app = ShelfieApp(game, seats={0: "human", 1: "human"})
    assert _cpu_seconds(app.hint) < 2
    assert "No exact hint" in app.status.value and "greedy player would" in app.status.value


def test_the_standard_ev_bot_still_plans_exactly():
    game = shelfie.new_game(seed=1)
    bot = shelfie.make_bot("ev", seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bot.decide(game.view(0), game.legal_actions(), random.Random(1))
    assert bot.fallback is None


# -- files at the edge of the file system ------------------------------------------------------


def _named(tmp_path, stem: str, ending: str, size: int):
    """A path in tmp_path whose name is exactly ``size`` bytes of UTF-8."""
    stem_bytes = size - len(ending.encode())
    unit = len(stem.encode())
    name = stem * (stem_bytes // unit) + "x" * (stem_bytes % unit) + ending
    assert len(name.encode()) == size
    return tmp_path / name


@pytest.mark.parametrize("stem", ["g", "é", "游戏", "🎲"])
def test_a_name_at_the_file_systems_limit_saves_and_loads(tmp_path, stem):
    import energies as en
    from energies.kit import registry

    for game in (
        en.new_game(seed=3),
        shelfie.new_game(seed=3),
        registry.new_game("noclear", players=2, seed=3),
    ):
        path = _named(tmp_path, stem, f".{game.NAME}.json", 255)
        game.save(path)
        assert en.load_file(path).to_json() == game.to_json()
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file


def test_simulate_out_at_the_limit_keeps_its_compression_ending(tmp_path):
    from energies.cli import main

    path = _named(tmp_path, "é", ".csv.gz", 255)
    argv = ["simulate", "--games", "2", "--no-progress", "--out", str(path)]
    assert main(argv) == 0
    assert path.read_bytes()[:2] == b"\x1f\x8b"  # gzip, inferred from the temporary name too


@pytest.mark.parametrize("size", [256, 400])
def test_a_name_over_the_limit_is_refused_with_the_reason(tmp_path, size):
    import energies as en

    path = _named(tmp_path, "é", ".json", size)
    with pytest.raises(ValueError, match=rf"name is {size} bytes long, more than this file"):
        en.new_game(seed=3).save(path)
    with pytest.raises(ValueError, match="choose a shorter name"):
        shelfie.new_game(seed=3).save(path)
    assert list(tmp_path.iterdir()) == []
