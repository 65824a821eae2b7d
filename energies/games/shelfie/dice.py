"""Dice maths of My Shelfie Dice: combos (rules 2.2-2.3) and the chance nodes of a roll.

Dice are a sorted tuple of faces (0 .. colours-1 are colours, ``rules.joker`` is
the joker): the order of the dice never matters, so a roll is a multiset. An
item is ``(row, column)``; item k of a row is column k-1 and needs a combo of k
dice.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from math import factorial

Item = tuple[int, int]


def counts(dice: Iterable[int], faces: int) -> tuple[int, ...]:
    """How many dice show each face."""
    tally = [0] * faces
    for face in dice:
        tally[face] += 1
    return tuple(tally)


def can_circle(items: Iterable[Item], dice: tuple[int, ...], colours: int) -> bool:
    """Can these items be circled together, each with its own combo of these dice? (rule 2.2)

    A combo for item (row c, column k) is k+1 dice of colour c, or k of colour c and
    one joker (rule 2.3: at least one coloured die, at most one joker). So per colour
    the items need ``sum(k+1)`` dice; the shortfall can be covered by jokers, at most
    one per item that needs two or more dice.
    """
    tally = counts(dice, colours + 1)
    needed = [0] * colours
    joker_slots = [0] * colours
    for row, column in items:
        needed[row] += column + 1
        joker_slots[row] += column >= 1
    jokers_needed = 0
    for colour in range(colours):
        short = needed[colour] - tally[colour]
        if short > joker_slots[colour]:
            return False
        jokers_needed += max(short, 0)
    return jokers_needed <= tally[colours]


def all_jokers(dice: tuple[int, ...], colours: int) -> bool:
    """Rule 2.3: every die shows the joker."""
    return bool(dice) and all(face == colours for face in dice)


def placements(
    dice: tuple[int, ...],
    open_items: Iterable[Item],
    colours: int,
    max_circles: int,
    joker_alone: bool = True,
) -> list[tuple[Item, ...]]:
    """Every set of 1 .. max_circles open items the dice can circle together (rules 2.2-2.3).

    ``open_items`` are the items the player may circle now. Six jokers circle any
    one open item (rule 2.3).
    """
    open_items = sorted(open_items)
    if joker_alone and all_jokers(dice, colours):
        return [(item,) for item in open_items]
    # The same test as can_circle, made incremental: a group grows one item at a time and
    # carries the jokers it already needs, so each candidate costs a look at its own row
    # instead of a recount of every colour (8 dice of 9 faces: an ev player's plan had
    # millions of candidates).
    tally = counts(dice, colours + 1)
    jokers = tally[colours]

    def jokers_added(group: tuple[Item, ...], item: Item) -> int | None:
        """How many more jokers ``group`` needs once ``item`` joins it (None: impossible)."""
        row, column = item
        need = sum(c + 1 for r, c in group if r == row)
        slots = sum(1 for r, c in group if r == row and c >= 1)
        before = max(need - tally[row], 0)
        short = need + column + 1 - tally[row]
        if short > slots + (column >= 1):
            return None
        return max(short, 0) - before

    grown = []  # (group, the jokers it needs)
    for item in open_items:
        added = jokers_added((), item)
        if added is not None and added <= jokers:
            grown.append(((item,), added))
    singles = [group[0] for group, _ in grown]
    out: list[tuple[Item, ...]] = [group for group, _ in grown]
    for _ in range(max_circles - 1):  # a set is only possible if each of its subsets is
        larger = []
        for group, used in grown:
            for item in singles:
                if item > group[-1]:
                    added = jokers_added(group, item)
                    if added is not None and used + added <= jokers:
                        larger.append((group + (item,), used + added))
        out += [group for group, _ in larger]
        grown = larger
    return out


# -- chance nodes ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def roll_outcomes(n: int, faces: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every result of rolling ``n`` dice, as (sorted faces, number of ordered rolls giving it).

    The counts sum to ``faces ** n``; a result's probability is its count over that.
    """
    out = []
    for combo in itertools.combinations_with_replacement(range(faces), n):
        ways = factorial(n)
        for repeat in Counter(combo).values():
            ways //= factorial(repeat)
        out.append((combo, ways))
    return tuple(out)


def reroll_outcomes(
    dice: tuple[int, ...], reroll: tuple[int, ...], faces: int
) -> list[tuple[tuple[int, ...], Fraction]]:
    """The chance node of a re-roll: every resulting set of dice with its exact probability."""
    kept = list((Counter(dice) - Counter(reroll)).elements())
    total = faces ** len(reroll)
    merged: dict[tuple[int, ...], int] = {}
    for fresh, ways in roll_outcomes(len(reroll), faces):
        result = tuple(sorted(kept + list(fresh)))
        merged[result] = merged.get(result, 0) + ways
    return [(result, Fraction(ways, total)) for result, ways in sorted(merged.items())]


@functools.lru_cache(maxsize=8192)
def sub_multisets(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every sub-multiset of sorted dice (sorted tuples): first the empty one, last the whole."""
    groups = sorted(Counter(dice).items())
    out = []
    for takes in itertools.product(*(range(n + 1) for _, n in groups)):
        out.append(tuple(face for (face, _), k in zip(groups, takes) for _ in range(k)))
    return tuple(out)


def all_rolls(n: int, faces: int) -> list[tuple[int, ...]]:
    """Every multiset of ``n`` dice (the states of the re-roll problem)."""
    return [combo for combo, _ in roll_outcomes(n, faces)]
