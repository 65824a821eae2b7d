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
