"""My Shelfie Dice, rule by rule (numbers are those of shared/rules/shelfie-dice.md).

Positions are set up by writing the dice or a shelf into the state, as a teacher's
sandbox would; everything after that goes through the game's contract.
"""

from __future__ import annotations

import pytest

import energies as en
from energies.games import shelfie
from energies.games.shelfie import Circle, CrossOut, Keep, Reroll, ShelfieRules
from energies.games.shelfie.state import AVAILABLE, CIRCLED, CROSSED

P, B, G, Y, W, J = range(6)  # pink, blue, green, yellow, white, joker


def at(game, *dice, phase="place", rerolls=0):
    """Put these dice on the table for the active player."""
    game.state.dice, game.state.phase, game.state.rerolls_left = tuple(sorted(dice)), phase, rerolls
    return game


def circles(game):
    return {a.items for a in game.legal_actions() if isinstance(a, Circle)}


def test_1_shelves_are_5_by_5_and_item_k_is_worth_k():
    game = shelfie.new_game(players=3, seed=1)
    assert [len(s) for s in game.state.shelves] == [5, 5, 5]
    assert all(row == [AVAILABLE] * 5 for s in game.state.shelves for row in s)
    assert [game.rules.value(2, c) for c in range(5)] == [1, 2, 3, 4, 5]  # rule 1.3 [H]
    assert game.rules.faces == 6 and game.rules.colour_name(5) == "joker"  # rule 1.2


def test_2_1_roll_six_dice_then_at_most_two_rerolls():
    game = shelfie.new_game(seed=3)
    assert len(game.dice) == 6 and game.state.phase == "roll"
    first = game.dice
    reroll = Reroll(0, first[:2])
    assert reroll in game.legal_actions() and Keep(0) in game.legal_actions()
    game.apply(reroll)
    assert len(game.dice) == 6 and game.state.rerolls_left == 1
    _assert_kept(first, reroll.faces, game.dice)
    game.apply(Reroll(0, game.dice[:1]))
    assert game.state.phase == "place"  # two re-rolls used
    assert game.why_illegal(Reroll(0, game.dice[:1])) == (
        "No re-rolls left: circle items or cross out a row now (rule 2.1)."
    )


def _assert_kept(first, rerolled, now):
    """The dice of ``first`` that were not re-rolled are still on the table."""
    rest, left = list(first), list(now)
    for face in rerolled:
        rest.remove(face)
    for face in rest:
        assert face in left, f"kept die {face} changed"
        left.remove(face)


def test_2_1_a_reroll_lists_its_chance_outcomes_with_exact_probabilities():
    game = at(shelfie.new_game(seed=3), P, P, B, G, Y, J, phase="roll", rerolls=2)
    outcomes = game.chance_outcomes(Reroll(0, (B, G)))
    assert sum(p for _, p in outcomes) == 1 and len(outcomes) == 21  # multisets of 2 dice
    assert dict(outcomes)[(P, P, P, P, Y, J)] == pytest.approx(1 / 36)
    assert dict(outcomes)[(P, P, P, Y, J, J)] == pytest.approx(2 / 36)


def test_2_2_k_dice_of_a_colour_circle_its_kth_item_or_split_into_combos():
    game = at(shelfie.new_game(seed=4), P, P, P, B, G, Y)
    options = circles(game)
    assert ((P, 2),) in options  # three pink: pink item 3
    assert ((P, 0), (P, 1)) in options  # one pink for item 1, two for item 2
    assert ((P, 0), (P, 2)) not in options  # would need four pink dice
    assert ((B, 0), (G, 0), (Y, 0)) in options
    reason = game.why_illegal(Circle(0, ((P, 0), (P, 2))))
    assert "cannot make a separate combo" in reason and "rules 2.2-2.3" in reason


def test_2_2_at_most_three_circles():
    game = at(shelfie.new_game(seed=4), P, B, G, Y, W, W)
    assert max(len(items) for items in circles(game)) == 3
    four = Circle(0, ((P, 0), (B, 0), (G, 0), (Y, 0)))
    assert game.why_illegal(four) == "You may circle at most 3 items a turn (rule 2.2)."


def test_2_2_items_of_a_row_in_any_order_unless_the_rules_say_otherwise():
    game = at(shelfie.new_game(seed=4), B, B, B, B, G, Y)
    assert ((B, 3),) in circles(game)
    strict = shelfie.new_game(seed=4, rules=ShelfieRules(any_order_in_row=False))
    at(strict, B, B, B, B, G, Y)
    assert ((B, 3),) not in circles(strict) and ((B, 0),) in circles(strict)
    assert "must wait" in strict.why_illegal(Circle(0, ((B, 3),)))


def test_2_3_a_joker_is_wild_but_never_alone_and_at_most_one_per_combo():
    game = at(shelfie.new_game(seed=4), B, J, J, J, J, J)
    options = circles(game)
    assert ((B, 0),) in options and ((B, 1),) in options  # blue alone; blue + joker
    assert ((B, 2),) not in options  # blue + two jokers: two jokers in one combo
    assert ((P, 0),) not in options  # a joker alone
    assert ((B, 0), (B, 1)) not in options  # both combos would need the one blue die


def test_2_3_six_jokers_circle_any_one_item():
    game = at(shelfie.new_game(seed=4), J, J, J, J, J, J)
    game.state.shelves[0][0][4] = CIRCLED
    options = circles(game)
    assert len(options) == 24 and all(len(items) == 1 for items in options)
    assert ((P, 4),) not in options
    assert "exactly one item" in game.why_illegal(Circle(0, ((B, 0), (G, 0))))


def test_2_4_nothing_to_circle_forces_a_row_cross_out():
    game = at(shelfie.new_game(seed=4), P, P, B, B, G, G)
    shelf = game.state.shelves[0]
    for row in (P, B, G):
        shelf[row][0] = shelf[row][1] = CIRCLED
    shelf[Y][:] = [CROSSED] * 5
    legal = game.legal_actions()
    assert legal == [CrossOut(0, P), CrossOut(0, B), CrossOut(0, G), CrossOut(0, W)]
    game.apply(CrossOut(0, P))
    assert shelf[P] == [CIRCLED, CIRCLED, CROSSED, CROSSED, CROSSED]


def test_2_4_a_player_who_can_circle_may_not_cross_out_unless_the_rules_allow():
    game = at(shelfie.new_game(seed=4), P, B, G, Y, W, J)
    assert "you may not cross out a row (rule 2.4)" in game.why_illegal(CrossOut(0, P))
    relaxed = at(
        shelfie.new_game(seed=4, rules=ShelfieRules(must_circle_if_able=False)), P, B, G, Y, W, J
    )
    assert CrossOut(0, P) in relaxed.legal_actions() and circles(relaxed)


def test_2_5_completing_a_column_crosses_it_out_for_the_others():
    game = at(shelfie.new_game(players=3, seed=4), W, J, B, B, G, G)
    for row in (P, B, G, Y):
        game.state.shelves[0][row][1] = CIRCLED
    game.state.shelves[1][G][1] = CIRCLED  # already circled: stays
    game.apply(Circle(0, ((W, 1),)))
    assert all(row[1] == CIRCLED for row in game.state.shelves[0])
    assert [row[1] for row in game.state.shelves[1]] == [
        CROSSED,
        CROSSED,
        CIRCLED,
        CROSSED,
        CROSSED,
    ]
    assert all(row[1] == CROSSED for row in game.state.shelves[2])
    assert "completes column 2" in "\n".join(game.log)


def test_3_1_two_full_rows_end_the_game_after_the_round():
    game = shelfie.new_game(players=3, seed=4)
    shelf = game.state.shelves[0]
    shelf[P][:] = [CROSSED] * 5
    shelf[B][:4] = [CIRCLED] * 4
    at(game, B, B, B, B, B, G)
    game.apply(Circle(0, ((B, 4),)))  # the blue row is full: 2 rows without an available item
    assert game.state.ending and not game.is_over and game.current_seat == 1
    for seat in (1, 2):
        assert game.current_seat == seat
        game.apply(Keep(seat))
        game.apply(game.legal_actions()[0])
    assert game.is_over and game.turn == 3  # every player had the same number of turns


def test_3_2_rows_and_columns_of_three_or_more_circled_items_score():
    game = shelfie.new_game(seed=4)
    shelf = game.state.shelves[0]
    shelf[P][0] = shelf[P][2] = shelf[P][4] = CIRCLED  # row: 1 + 3 + 5
    shelf[B][4] = shelf[G][4] = CIRCLED  # column 5: pink, blue, green = 3 x 5
    shelf[Y][0] = shelf[Y][1] = CIRCLED  # only 2 in the yellow row: nothing
    parts = game.state.score_parts(0)
    assert parts["rows"] == [9, 0, 0, 0, 0] and parts["columns"] == [0, 0, 0, 0, 15]
    assert game.score(0) == 24  # pink 5 scores in its row and its column
    values = ShelfieRules(item_values=(2, 2, 2, 2, 2))
    other = shelfie.new_game(seed=4, rules=values)
    other.state.shelves[0] = shelf
    assert other.score(0) == 12


def test_3_3_ties_share_the_victory():
    game = shelfie.new_game(players=2, seed=4)
    for seat in (0, 1):
        game.state.shelves[seat][W][:3] = [CIRCLED] * 3
        game.state.shelves[seat][P][:] = [CROSSED] * 5
        game.state.shelves[seat][B][:] = [CROSSED] * 5
    game.state.ending = True
    game.state.active = 1
    at(game, G, Y, Y, W, B, B)
    game.apply(Circle(1, ((G, 0),)))
    assert (
        game.is_over
        and game.outcome.winners == (0, 1)
        and "share the victory" in game.outcome.reason
    )


def test_a_player_with_no_available_item_skips_the_turn():
    game = shelfie.new_game(players=2, seed=4)
    game.state.shelves[1] = [[CROSSED] * 5 for _ in range(5)]
    at(game, P, B, G, Y, W, J)
    game.apply(Circle(0, ((P, 0),)))
    assert game.is_over  # seat 1 had nothing left, the round was complete
    assert "seat 1 has no available item left and skips the turn" in game.log


def test_rules_reject_unplayable_numbers():
    with pytest.raises(ValueError, match="columns cannot exceed dice"):
        ShelfieRules(dice=4)
    with pytest.raises(ValueError, match="item_values needs one value per column"):
        ShelfieRules(item_values=(1, 2))
    with pytest.raises(en.IllegalActionError, match="Roll first"):
        shelfie.new_game(seed=1).apply(CrossOut(0, 0))
