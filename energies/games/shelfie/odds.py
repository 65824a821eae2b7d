"""Exact re-roll planning: the best expected result of the remaining re-rolls.

``W(dice, r)`` is the best expected final value with ``r`` re-rolls left: keep the dice
(``V(dice)``) or re-roll some of them, averaging exactly over every result. Values are
floats for bots or :class:`fractions.Fraction` for exact odds.

The cost is bounded over every rule set the rules allow (``docs/guarantees.md``): the
planner never enumerates the results of a re-roll, nor every part of every set of dice.
Rolling ``m`` dice is rolling one die, then ``m - 1``, so the expected value of the dice
kept, ``E(keep)``, is the mean of ``E(keep + face)`` over the faces, down to a full set whose
value is ``W``; the best part of a set to keep is the better of keeping it all and the best
part of the set less one die. Each set of at most ``n`` dice is visited once per re-roll
left, with one step per face or die, instead of once per re-roll result and kept part
(8 dice of 9 faces with 4 re-rolls took 20 s, now well under a second).
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import Any

from . import dice as D

#: The most sets of dice a player's exact plan may value one by one. Valuing a set means
#: trying every placement of it on the shelf, so the plan of the expected-value player (and
#: the app's hint) costs about a second at this limit on the project's machine (8 dice of
#: 7 faces: 1.7 s; 8 dice of 9 faces, 12,870 sets, took 13 s).
MAX_PLANNED_DICE_SETS = 3_003


def planning_problem(dice: int, faces: int) -> str | None:
    """Why valuing every set of ``dice`` dice of ``faces`` faces would take too long, or None."""
    sets = comb(dice + faces - 1, dice)
    if sets <= MAX_PLANNED_DICE_SETS:
        return None
    return (
        f"{dice} dice of {faces} faces fall in {sets:,} different sets, more than the "
        f"{MAX_PLANNED_DICE_SETS:,} an exact plan values (it would take many seconds)"
    )


class RerollPlanner:
    """Optimal re-roll decisions for a final-value function ``value(dice) -> number``.

    ``exact=True`` keeps every expectation a Fraction (for probabilities that tests
    compare with enumeration); otherwise floats (fast enough for a bot every turn).
    """

    def __init__(self, faces: int, value: Callable[[tuple[int, ...]], Any], exact: bool = False):
        self.faces = faces
        self._value = value
        self._exact = exact
        self._final: dict[tuple[int, ...], Any] = {}
        self._best: dict[tuple[tuple[int, ...], int], Any] = {}
        self._kept: dict[tuple[tuple[int, ...], int, int], Any] = {}
        self._best_part: dict[tuple[tuple[int, ...], int, int], Any] = {}

    def final(self, dice: tuple[int, ...]) -> Any:
        """V: the value of stopping with these dice."""
        if dice not in self._final:
            self._final[dice] = self._value(dice)
        return self._final[dice]

    def best(self, dice: tuple[int, ...], rerolls_left: int) -> Any:
        """W: the best expected final value from these dice with ``rerolls_left`` re-rolls."""
        key = (dice, rerolls_left)
        if key not in self._best:
            value = self.final(dice)
            if rerolls_left > 0:
                # Keeping every die and re-rolling none gives W(dice, r - 1), never more than
                # W(dice, r), so the best part may range over every part, the whole included.
                value = max(value, self._best_kept_part(dice, len(dice), rerolls_left - 1))
            self._best[key] = value
        return self._best[key]

    def _best_kept_part(self, dice: tuple[int, ...], dice_count: int, rerolls_after: int) -> Any:
        """The highest :meth:`after_keeping` over every part of ``dice`` (the whole included)."""
        key = (dice, dice_count, rerolls_after)
        if key not in self._best_part:
            value = self.after_keeping(dice, dice_count, rerolls_after)
            for position, face in enumerate(dice):
                if position and dice[position - 1] == face:
                    continue  # removing another die of the same face gives the same part
                smaller = dice[:position] + dice[position + 1 :]
                value = max(value, self._best_kept_part(smaller, dice_count, rerolls_after))
            self._best_part[key] = value
        return self._best_part[key]

    def after_keeping(self, keep: tuple[int, ...], dice_count: int, rerolls_after: int) -> Any:
        """Expected W after keeping ``keep`` and re-rolling the other dice once."""
        key = (keep, dice_count, rerolls_after)
        if key not in self._kept:
            if len(keep) >= dice_count:
                value = self.best(keep, rerolls_after)
            else:  # the re-rolled dice land one after another: average over the first one
                total = 0
                for face in range(self.faces):
                    grown = list(keep)
                    insort(grown, face)
                    total += self.after_keeping(tuple(grown), dice_count, rerolls_after)
                value = Fraction(total, self.faces) if self._exact else total / self.faces
            self._kept[key] = value
        return self._kept[key]

    def reroll_value(
        self, dice: tuple[int, ...], reroll: tuple[int, ...], rerolls_left: int
    ) -> Any:
        """Expected final value of re-rolling ``reroll`` now (empty: stop and keep the dice)."""
        if not reroll:
            return self.final(dice)
        keep = tuple(sorted((Counter(dice) - Counter(reroll)).elements()))
        return self.after_keeping(keep, len(dice), rerolls_left - 1)

    def choose(self, dice: tuple[int, ...], rerolls_left: int) -> tuple[tuple[int, ...], Any]:
        """The best dice to re-roll (``()``: keep them all) and its expected final value.

        Ties go to re-rolling fewer dice, then to the lowest faces.
        """
        best_faces: tuple[int, ...] = ()
        best_value = self.final(dice)
        if rerolls_left <= 0:
            return best_faces, best_value
        for keep in D.sub_multisets(dice)[:-1]:
            value = self.after_keeping(keep, len(dice), rerolls_left - 1)
            faces = tuple(sorted((Counter(dice) - Counter(keep)).elements()))
            if value > best_value or (value == best_value and len(faces) < len(best_faces)):
                best_faces, best_value = faces, value
        return best_faces, best_value
