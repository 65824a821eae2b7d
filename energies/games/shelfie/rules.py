"""ShelfieRules: every number of My Shelfie Dice, in one frozen dataclass.

The rules reference is ``shared/rules/shelfie-dice.md``; rule numbers in the
comments are its numbers. [H] values are house defaults, listed by
:meth:`ShelfieRules.house_defaults`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...kit.rulebook import CompanionRules

COLOURS = ("pink", "blue", "green", "yellow", "white")  # rule 1.1: one row per colour
JOKER_NAME = "joker"


@dataclass(frozen=True)
class ShelfieRules(CompanionRules):
    """The rules of My Shelfie Dice; change a copy with ``.replace(...)``."""

    players: int = 2  # rule 1.4 [H]: 1 to 6
    colours: int = 5  # rule 1.1: rows (one per colour); a die has one face per colour
    columns: int = 5  # rule 1.1: items per row; item k needs a combo of k dice
    dice: int = 6  # rule 1.2
    rerolls: int = 2  # rule 2.1: at most two re-rolls
    max_circles: int = 3  # rule 2.2: up to 3 items a turn
    # rule 1.3 [H]: the value of the k-th item of every row (columns counted from 0 in code)
    item_values: tuple[int, ...] = (1, 2, 3, 4, 5)
    any_order_in_row: bool = True  # rule 2.2 [H]: items of a row in any order
    joker_alone_when_all_jokers: bool = True  # rule 2.3: six jokers circle any one item
    must_circle_if_able: bool = True  # rule 2.4 [H]
    rows_to_end: int = 2  # rule 3.1: rows with no available item that end the game
    min_to_score: int = 3  # rule 3.2: circled items a row or column needs to score
    first_seat: int = 0  # rule 2 [H]: who starts (the round ends before them again)

    HOUSE: ClassVar[dict[str, tuple[str, str]]] = {
        "players": ("1.4", "the source does not state the player count: 1 to 6, default 2"),
        "item_values": ("1.3", "printed item values unknown: item k of every row is worth k"),
        "any_order_in_row": ("2.2", "items of a row may be circled in any order"),
        "must_circle_if_able": ("2.4", "a player who can circle must circle at least one item"),
        "first_seat": ("2.1", "seat 0 starts; the last round ends with the seat before it"),
    }
    READINGS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("2.6", "only the active player uses the dice"),
        ("2.4", "a player with no available item at all skips the turn (nothing to cross out)"),
    )

    @property
    def faces(self) -> int:
        """Faces of a die: one per colour plus the joker (rule 1.2); the joker is the last."""
        return self.colours + 1

    @property
    def joker(self) -> int:
        """The face number of the joker."""
        return self.colours

    def value(self, row: int, column: int) -> int:
        """Points of item (row, column) (rule 1.3); columns count from 0 (item k is column k-1)."""
        return self.item_values[column]

    def colour_name(self, face: int) -> str:
        if face == self.joker:
            return JOKER_NAME
        return COLOURS[face] if face < len(COLOURS) else f"colour {face + 1}"

    def problems(self) -> list[str]:
        out = []  # the field types are checked before (CompanionRules.type_problems)
        if not 1 <= self.players <= 6:
            out.append(f"players must be 1 to 6, not {self.players}")
        if not 1 <= self.colours <= 8 or not 1 <= self.columns <= 8:
            out.append("colours and columns must be 1 to 8")
        if not 1 <= self.dice <= 8:
            out.append("dice must be 1 to 8 (the exact odds enumerate every roll)")
        if not 0 <= self.rerolls <= 4 or not 1 <= self.max_circles <= 6:
            out.append("rerolls must be 0 to 4 and max_circles 1 to 6")
        if self.columns > self.dice:
            out.append("columns cannot exceed dice: item k needs a combo of k dice")
        if len(self.item_values) != self.columns:
            out.append(f"item_values needs one value per column ({self.columns})")
        if not 1 <= self.rows_to_end <= self.colours:
            out.append("rows_to_end must be between 1 and the number of rows")
        if self.min_to_score < 1:
            out.append("min_to_score must be at least 1")
        if not 0 <= self.first_seat < max(self.players, 1):
            out.append("first_seat must be one of the seats")
        return out
