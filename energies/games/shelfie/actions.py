"""The four decisions of My Shelfie Dice, as small frozen dataclasses.

Faces and items are numbers (a face 0-4 is a colour, 5 the joker; an item is
``(row, column)`` with columns from 0, so item k of a row is column k-1);
``str(action)`` reads them in the default colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import ActionCodec
from .rules import COLOURS, JOKER_NAME


def face_name(face: int) -> str:
    return COLOURS[face] if 0 <= face < len(COLOURS) else JOKER_NAME


def item_name(item: tuple[int, int]) -> str:
    row, column = item
    return f"{face_name(row)} {column + 1}"


@dataclass(frozen=True)
class Reroll:
    """Re-roll these dice (faces, sorted); the others are kept (rule 2.1)."""

    seat: int
    faces: tuple[int, ...]
    kind: ClassVar[str] = "reroll"

    def __str__(self) -> str:
        return f"seat {self.seat} re-rolls {', '.join(face_name(f) for f in self.faces)}"


@dataclass(frozen=True)
class Keep:
    """Stop re-rolling and keep the dice as they are (rule 2.1)."""

    seat: int
    kind: ClassVar[str] = "keep"

    def __str__(self) -> str:
        return f"seat {self.seat} keeps the dice"


@dataclass(frozen=True)
class Circle:
    """Circle these items (sorted), each with its own combo of the dice (rules 2.2-2.3)."""

    seat: int
    items: tuple[tuple[int, int], ...]
    kind: ClassVar[str] = "circle"

    def __str__(self) -> str:
        return f"seat {self.seat} circles {', '.join(item_name(i) for i in self.items)}"


@dataclass(frozen=True)
class CrossOut:
    """Cross out a whole row: nothing could be circled (rule 2.4)."""

    seat: int
    row: int
    kind: ClassVar[str] = "cross_out"

    def __str__(self) -> str:
        return f"seat {self.seat} crosses out the {face_name(self.row)} row"


CODEC = ActionCodec(Reroll, Keep, Circle, CrossOut)
