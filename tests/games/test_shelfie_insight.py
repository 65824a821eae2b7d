"""Exact odds of My Shelfie Dice against brute force and simulation; the exact EV player."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import energies as en
from energies.games import shelfie
from energies.games.shelfie import ShelfieRules, insight
from energies.games.shelfie.odds import RerollPlanner

P, B, G, Y, W, J = range(6)


def brute_force(dice: tuple[int, ...], rerolls: int, items, rules: ShelfieRules) -> Fraction:
    """Best chance of reaching ``items`` by trying every set of dice *positions* to re-roll and
    averaging over every *ordered* roll of them — no multisets, no shared code with odds.py."""
    memo: dict = {}

    def best(ordered: tuple[int, ...], left: int) -> Fraction:
        key = (ordered, left)
        if key in memo:
            return memo[key]
        value = Fraction(int(insight.reaches(items, ordered, rules)))
        if left:
            for mask in range(1, 2 ** len(ordered)):
                positions = [i for i in range(len(ordered)) if mask >> i & 1]
                total = Fraction(0)
                for faces in itertools.product(range(rules.faces), repeat=len(positions)):
                    new = list(ordered)
                    for i, f in zip(positions, faces):
                        new[i] = f
                    total += best(tuple(new), left - 1)
                value = max(value, total / rules.faces ** len(positions))
        memo[key] = value
        return value

    return best(tuple(dice), rerolls)


@pytest.mark.parametrize(
    "dice, items",
    [
        ((P, P, B, G, Y, W), [(P, 3)]),
        ((B, G, Y, W, J, J), [(B, 4)]),
        ((P, B, B, G, Y, J), [(P, 1), (B, 2)]),
    ],
)
def test_one_reroll_matches_brute_force_over_ordered_rolls_of_six_dice(dice, items):
    rules = ShelfieRules()
    assert insight.combo_probability(dice, 1, items, rules) == brute_force(dice, 1, items, rules)


@pytest.mark.parametrize("items", [[(0, 2)], [(1, 1), (0, 0)], [(2, 0)]])
def test_two_rerolls_match_brute_force_with_three_dice(items):
    rules = ShelfieRules(colours=3, columns=3, dice=3, item_values=(1, 2, 3))
    for dice in [(0, 1, 2), (3, 3, 1), (0, 0, 3)]:
        exact = insight.combo_probability(dice, 2, items, rules)
        assert exact == brute_force(dice, 2, items, rules)
        assert 0 < exact <= 1


def test_the_exact_odds_match_simulation_of_the_game_itself():
    """Play the optimal re-roll policy in real games (the engine's dice) and count successes."""
    items, trials, hits = [(P, 3)], 2500, 0
    rules = ShelfieRules(players=1)
    planner = RerollPlanner(
        rules.faces, lambda d: Fraction(int(insight.reaches(items, d, rules))), exact=True
    )
    predicted = 0
    for seed in range(trials):
        game = shelfie.new_game(seed=seed, rules=rules)
        predicted += planner.best(game.dice, 2)
        while game.state.phase == "roll":
            faces, _ = planner.choose(game.dice, game.state.rerolls_left)
            game.apply(shelfie.Reroll(0, faces) if faces else shelfie.Keep(0))
        hits += insight.reaches(items, game.dice, rules)
    expected = float(predicted) / trials  # the mean of the exact odds over the starting rolls
    sd = (expected * (1 - expected) / trials) ** 0.5
    assert abs(hits / trials - expected) < 4 * sd


def test_reroll_probability_and_table():
    dice = (P, P, B, G, Y, W)
    keep_pinks = insight.reroll_probability(dice, (B, G, Y, W), [(P, 3)], rerolls_left=2)
    reroll_all = insight.reroll_probability(dice, dice, [(P, 3)], rerolls_left=2)
    assert keep_pinks > reroll_all
    assert insight.combo_probability(dice, 2, [(P, 3)]) >= keep_pinks
    table = insight.reroll_table(dice, 2, [(P, 3)])
    assert table["exact"].iloc[0] == insight.combo_probability(dice, 2, [(P, 3)])
    assert table["probability"].is_monotonic_decreasing
    with pytest.raises(ValueError, match="only re-roll dice that are on the table"):
        insight.reroll_probability(dice, (J,), [(P, 3)])


def test_expected_value_bot_follows_the_planner_and_beats_random_and_greedy():
    scores = {"ev": 0, "greedy": 0, "random": 0}
    for seed in range(6):
        lineup = ["ev", "greedy", "random"][seed % 3 :] + ["ev", "greedy", "random"][: seed % 3]
        game = shelfie.new_game(players=3, seed=seed)
        en.play(game, [shelfie.make_bot(b, seed=seed) for b in lineup])
        for seat, bot in enumerate(lineup):
            scores[bot] += game.score(seat)
    assert scores["ev"] > scores["greedy"] > scores["random"]


def test_planner_choice_is_the_best_expected_value_exactly():
    rules = ShelfieRules()
    value = lambda d: Fraction(d.count(P))
    planner = RerollPlanner(rules.faces, value, exact=True)
    faces, best = planner.choose((P, P, B, G, Y, J), 1)
    assert faces == (B, G, Y, J) and best == 2 + Fraction(4, 6)
    assert planner.best((P, P, B, G, Y, J), 2) == 2 + Fraction(4, 6) + Fraction(4 * 5, 36)


def test_odds_refuse_items_dice_and_rerolls_the_rules_do_not_have():
    # A negative row used to count from the end (a wrong answer, not an error), a row past
    # the shelf raised IndexError, a million re-rolls RecursionError, and 18 dice ran for
    # minutes.
    dice = (W, W, W, B, G, J)
    for items, message in [([(-1, 2)], "no item"), ([(9, 0)], "no item"), ([], "at least one")]:
        with pytest.raises(ValueError, match=message):
            insight.combo_probability(dice, 1, items)
        with pytest.raises(ValueError, match=message):
            insight.reaches(items, dice)
    with pytest.raises(ValueError, match="rerolls_left must be 0 to 2"):
        insight.combo_probability(dice, 10**6, [(W, 2)])
    with pytest.raises(ValueError, match="rerolls_left must be 0 to 2"):
        insight.reroll_table(dice, 3, [(W, 2)])
    with pytest.raises(ValueError, match="6 dice, not 18"):
        insight.combo_probability(dice * 3, 1, [(W, 2)])
    assert insight.reaches([(W, 2)], dice) and insight.combo_probability(dice, 0, [(W, 2)]) == 1
