"""The four decisions of My Shelfie Dice, as small frozen dataclasses.

Faces and items are numbers (a face 0-4 is a colour, 5 the joker; an item is
``(row, column)`` with columns from 0, so item k of a row is column k-1);
``str(action)`` reads them in the default colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...kit.codec import ActionCodec
from ...kit.i18n import N_, joined, msg
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


_COLOUR_WORDS = {
    "pink": N_("pink"),
    "blue": N_("blue"),
    "green": N_("green"),
    "yellow": N_("yellow"),
    "white": N_("white"),
    "joker": N_("joker"),
}


def face_word(face: int, colours: int = len(COLOURS)) -> str:
    """:func:`face_name` as a message said in the reader's language."""
    name = face_name(face, colours)
    known = _COLOUR_WORDS.get(name)
    if known:
        return msg(known)
    if isinstance(face, int) and not isinstance(face, bool) and len(COLOURS) <= face < colours:
        return msg(N_("colour {n}"), n=face + 1)
    return name


def item_word(item: tuple[int, int], colours: int = len(COLOURS)):
    """:func:`item_name` as a message: "pink 3"."""
    if not (isinstance(item, tuple) and len(item) == 2):
        return repr(item)
    row, column = item
    number = column + 1 if isinstance(column, int) else repr(column)
    return msg(N_("{colour} {number}"), colour=face_word(row, colours), number=number)


def _words(values: tuple, word):
    return joined([word(v) for v in values], ", ") if isinstance(values, tuple) else repr(values)


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

    def sentence(self):
        faces = _words(self.faces, face_word)
        return msg(N_("seat {seat} re-rolls {faces}"), seat=self.seat, faces=faces)

    def __str__(self) -> str:
        return str(self.sentence())  # English: files never depend on the language


@dataclass(frozen=True)
class Keep:
    """Stop re-rolling and keep the dice as they are (rule 2.1)."""

    seat: int
    kind: ClassVar[str] = "keep"

    def sentence(self):
        return msg(N_("seat {seat} keeps the dice"), seat=self.seat)

    def __str__(self) -> str:
        return str(self.sentence())


@dataclass(frozen=True)
class Circle:
    """Circle these items (sorted), each with its own combo of the dice (rules 2.2-2.3)."""

    seat: int
    items: tuple[tuple[int, int], ...]
    kind: ClassVar[str] = "circle"

    def sentence(self):
        items = _words(self.items, item_word)
        return msg(N_("seat {seat} circles {items}"), seat=self.seat, items=items)

    def __str__(self) -> str:
        return str(self.sentence())


@dataclass(frozen=True)
class CrossOut:
    """Cross out a whole row: nothing could be circled (rule 2.4)."""

    seat: int
    row: int
    kind: ClassVar[str] = "cross_out"

    def sentence(self):
        row = face_word(self.row)
        return msg(N_("seat {seat} crosses out the {colour} row"), seat=self.seat, colour=row)

    def __str__(self) -> str:
        return str(self.sentence())


CODEC = ActionCodec(Reroll, Keep, Circle, CrossOut)
