"""Exact odds of My Shelfie Dice: how likely a combo is after the re-rolls still to come.

    from energies.games.shelfie import insight
    insight.combo_probability((0, 0, 1, 2, 3, 5), rerolls_left=2, items=[(0, 2)])  # 3 pink
    insight.reroll_probability((0, 0, 1, 2, 3, 5), reroll=(1, 2, 3), items=[(0, 2)])

Every number is a :class:`fractions.Fraction` computed by enumerating the dice
(``odds.RerollPlanner``), never by sampling; ``tests/games/test_shelfie_insight.py``
checks it against brute-force enumeration of ordered rolls and against simulation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from ...kit.fields import show
from . import dice as D
from .odds import RerollPlanner
from .rules import ShelfieRules

__all__ = ["combo_probability", "reaches", "reroll_probability", "reroll_table"]


def _whole(value, what: str) -> int:
    """``value`` when it is a whole number; 2.5 was cut to 2 and True read as 1."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be whole numbers, not {show(value)}.")
    return value


def _items(items: Iterable, rules: ShelfieRules) -> tuple[tuple[int, int], ...]:
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise ValueError(f"items must be a list of (row, column) pairs, not {show(items)}.")
    pairs = []
    for item in items:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ValueError(f"items must be (row, column) pairs, not {show(item)}.")
        pairs.append(tuple(_whole(x, "An item's row and column") for x in item))
    out = tuple(sorted(pairs))
    if not out:
        raise ValueError("Name at least one item, e.g. [(0, 2)] for the third pink item.")
    for row, column in out:  # a negative row used to count from the end: a wrong answer
        if not (0 <= row < rules.colours and 0 <= column < rules.columns):
            raise ValueError(f"There is no item {(row, column)} on the shelf.")
    return out


def _rules(rules) -> ShelfieRules:
    if rules is None:
        return ShelfieRules()
    if not isinstance(rules, ShelfieRules):
        raise ValueError(f"rules must be a ShelfieRules (e.g. ShelfieRules()), not {show(rules)}.")
    return rules


def reaches(items, dice: tuple[int, ...], rules: ShelfieRules | None = None) -> bool:
    """Can these dice circle all these items together (rules 2.2-2.3)?"""
    rules = _rules(rules)
    return _reaches(_items(items, rules), _dice(dice, rules), rules)


def _reaches(items, dice: tuple[int, ...], rules: ShelfieRules) -> bool:
    if len(items) == 1 and rules.joker_alone_when_all_jokers and D.all_jokers(dice, rules.colours):
        return True
    return len(items) <= rules.max_circles and D.can_circle(items, dice, rules.colours)


def _planner(items, rules: ShelfieRules) -> RerollPlanner:
    items = _items(items, rules)
    return RerollPlanner(
        rules.faces, lambda dice: Fraction(int(_reaches(items, dice, rules))), exact=True
    )


def _dice(dice, rules: ShelfieRules, name: str = "dice") -> tuple[int, ...]:
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Iterable):
        raise ValueError(f"{name} must be a list of faces, not {show(dice)}.")
    dice = tuple(sorted(_whole(f, f"The faces of {name}") for f in dice))
    if any(not 0 <= f < rules.faces for f in dice):
        raise ValueError(f"Dice faces are numbers 0 to {rules.faces - 1}.")
    if len(dice) > rules.dice:  # the planner enumerates every roll: bounded by the rules' dice
        raise ValueError(f"The rules have {rules.dice} dice, not {len(dice)}.")
    return dice


def _rerolls(rerolls_left, rules: ShelfieRules) -> int:
    if (
        not isinstance(rerolls_left, int)
        or isinstance(rerolls_left, bool)
        or not 0 <= rerolls_left <= rules.rerolls
    ):
        raise ValueError(f"rerolls_left must be 0 to {rules.rerolls} (rule 2.1).")
    return rerolls_left


def combo_probability(
    dice, rerolls_left: int, items, rules: ShelfieRules | None = None
) -> Fraction:
    """Exact chance of ending with dice that circle ``items``, re-rolling as well as possible."""
    rules = _rules(rules)
    return _planner(items, rules).best(_dice(dice, rules), _rerolls(rerolls_left, rules))


def reroll_probability(
    dice, reroll, items, rerolls_left: int = 1, rules: ShelfieRules | None = None
) -> Fraction:
    """Exact chance of reaching ``items`` if you re-roll ``reroll`` now (then play best)."""
    rules = _rules(rules)
    dice, reroll = _dice(dice, rules), _dice(reroll, rules, "reroll")
    if Counter(reroll) - Counter(dice):
        raise ValueError("You can only re-roll dice that are on the table.")
    if _rerolls(rerolls_left, rules) < 1 and reroll:
        raise ValueError("No re-roll left.")
    return _planner(items, rules).reroll_value(dice, reroll, rerolls_left)


def reroll_table(dice, rerolls_left: int, items, rules: ShelfieRules | None = None):
    """Every choice of dice to re-roll now with its exact chance of reaching ``items``.

    A pandas DataFrame sorted best first: ``reroll`` (faces), ``dice_rerolled``,
    ``probability`` (a float) and ``exact`` (the Fraction).
    """
    import pandas as pd

    rules = _rules(rules)
    dice, rerolls_left = _dice(dice, rules), _rerolls(rerolls_left, rules)
    planner = _planner(items, rules)
    rows = []
    for keep in D.sub_multisets(dice)[::-1]:
        reroll = tuple((Counter(dice) - Counter(keep)).elements())
        if reroll and rerolls_left < 1:
            continue
        exact = planner.reroll_value(dice, reroll, rerolls_left)
        rows.append(
            {
                "reroll": reroll,
                "dice_rerolled": len(reroll),
                "probability": float(exact),
                "exact": exact,
            }
        )
    frame = pd.DataFrame(rows)
    return frame.sort_values(["probability", "dice_rerolled"], ascending=[False, True]).reset_index(
        drop=True
    )
