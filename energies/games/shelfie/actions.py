"""The four decisions of My Shelfie Dice, as small frozen dataclasses.

Faces and items are numbers (a face 0-4 is a colour, 5 the joker; an item is
``(row, column)`` with columns from 0, so item k of a row is column k-1);
``str(action)`` reads them in the default colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...kit.codec import ActionCodec
from .rules import COLOURS, JOKER_NAME

# The names below also print malformed actions (a save file's, a user's): their reason says
# what is wrong, so here anything that is not a number in range is shown as it is.


def face_name(face: int, colours: int = len(COLOURS)) -> str:
    """A face in words; ``colours`` is the rules' number (a sixth colour is no joker)."""
    if not isinstance(face, int) or isinstance(face, bool) or not 0 <= face <= colours:
        return repr(face)
    if face == colours:
        return JOKER_NAME
    return COLOURS[face] if face < len(COLOURS) else f"colour {face + 1}"


def item_name(item: tuple[int, int], colours: int = len(COLOURS)) -> str:
    if not (isinstance(item, tuple) and len(item) == 2):
        return repr(item)
    row, column = item
    return f"{face_name(row, colours)} {column + 1 if isinstance(column, int) else repr(column)}"


def _names(values: tuple, name) -> str:
    return ", ".join(name(v) for v in values) if isinstance(values, tuple) else repr(values)


@dataclass(frozen=True)
class Reroll:
    """Re-roll these dice (faces, sorted); the others are kept (rule 2.1)."""

    seat: int
    faces: tuple[int, ...]
    kind: ClassVar[str] = "reroll"

    def __str__(self) -> str:
        return f"seat {self.seat} re-rolls {_names(self.faces, face_name)}"


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
        return f"seat {self.seat} circles {_names(self.items, item_name)}"


@dataclass(frozen=True)
class CrossOut:
    """Cross out a whole row: nothing could be circled (rule 2.4)."""

    seat: int
    row: int
    kind: ClassVar[str] = "cross_out"

    def __str__(self) -> str:
        return f"seat {self.seat} crosses out the {face_name(self.row)} row"


CODEC = ActionCodec(Reroll, Keep, Circle, CrossOut)
