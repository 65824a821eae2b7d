"""Exact re-roll planning: the best expected result of the remaining re-rolls.

The dice state space is small (462 multisets of 6 dice with 6 faces), so the
planner enumerates it instead of sampling. ``W(dice, r)`` is the best
expected final value with ``r`` re-rolls left: keep the dice (``V(dice)``) or
re-roll some of them, averaging exactly over every result with its
multinomial weight. Values are floats for bots or :class:`fractions.Fraction`
for exact odds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from . import dice as D


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
                for keep in D.sub_multisets(dice)[:-1]:  # [-1] keeps everything: no re-roll
                    value = max(value, self.after_keeping(keep, len(dice), rerolls_left - 1))
            self._best[key] = value
        return self._best[key]

    def after_keeping(self, keep: tuple[int, ...], dice_count: int, rerolls_after: int) -> Any:
        """Expected W after keeping ``keep`` and re-rolling the other dice once."""
        key = (keep, dice_count, rerolls_after)
        if key not in self._kept:
            rolled = dice_count - len(keep)
            total = 0
            for fresh, ways in D.roll_outcomes(rolled, self.faces):
                result = tuple(sorted(keep + fresh))
                total += ways * self.best(result, rerolls_after)
            denominator = self.faces**rolled
            self._kept[key] = Fraction(total, denominator) if self._exact else total / denominator
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
