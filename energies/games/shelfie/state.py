"""The state of a game of My Shelfie Dice: shelves, dice, whose turn, the log."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from ...kit.contract import Outcome
from .rules import ShelfieRules

AVAILABLE, CIRCLED, CROSSED = 0, 1, 2  # what an item of a shelf is (rules 2.2, 2.4, 2.5)
MARKS = {AVAILABLE: ".", CIRCLED: "O", CROSSED: "X"}


@dataclass
class ShelfieState:
    """Where a playthrough is. ``shelves[seat][row][column]`` is AVAILABLE, CIRCLED or CROSSED."""

    rules: ShelfieRules
    seed: int | None  # None in a view
    rng: random.Random | None
    shelves: list[list[list[int]]]
    active: int = 0
    turn: int = 0  # turns begun (a skipped turn counts)
    phase: str = "roll"  # "roll" (re-roll or keep), "place" (circle or cross out), "over"
    dice: tuple[int, ...] = ()
    rerolls_left: int = 0
    ending: bool = False  # rule 3.1: the last round is being completed
    outcome: Outcome | None = None
    log: list[str] = field(default_factory=list)
    viewer: int | None = None  # set on a view: the seat it was made for

    # -- derived queries ---------------------------------------------------------------------

    def open_items(self, seat: int) -> list[tuple[int, int]]:
        """Items ``seat`` may circle now (rule 2.2; in order only if the rules say so)."""
        rules, shelf = self.rules, self.shelves[seat]
        out = []
        for row in range(rules.colours):
            for column in range(rules.columns):
                if shelf[row][column] == AVAILABLE:
                    out.append((row, column))
                    if not rules.any_order_in_row:
                        break  # only the leftmost available item of the row
        return out

    def rows_with_space(self, seat: int) -> list[int]:
        """Rows of ``seat`` that still hold an available item (rule 2.4)."""
        return [r for r, row in enumerate(self.shelves[seat]) if AVAILABLE in row]

    def full_rows(self, seat: int) -> int:
        """Rows with no available item left (rule 3.1)."""
        return self.rules.colours - len(self.rows_with_space(seat))

    def score_parts(self, seat: int) -> dict[str, list[int]]:
        """Points of every row and every column of ``seat`` (rule 3.2)."""
        rules, shelf = self.rules, self.shelves[seat]
        rows, columns = [], []
        for row in range(rules.colours):
            circled = [c for c in range(rules.columns) if shelf[row][c] == CIRCLED]
            rows.append(
                sum(rules.value(row, c) for c in circled)
                if len(circled) >= rules.min_to_score
                else 0
            )
        for column in range(rules.columns):
            circled = [r for r in range(rules.colours) if shelf[r][column] == CIRCLED]
            columns.append(
                sum(rules.value(r, column) for r in circled)
                if len(circled) >= rules.min_to_score
                else 0
            )
        return {"rows": rows, "columns": columns}

    def score(self, seat: int) -> int:
        """Total points of ``seat`` now (rule 3.2: rows and columns of 3+ circled items)."""
        parts = self.score_parts(seat)
        return sum(parts["rows"]) + sum(parts["columns"])

    # -- copies and plain data -----------------------------------------------------------------

    def view(self, seat: int) -> ShelfieState:
        """A copy for a bot: the shelves and dice are public; the random stream and the seed
        (which would give the coming dice away) are left out."""
        return replace(
            self,
            seed=None,
            rng=None,
            shelves=[[list(row) for row in shelf] for shelf in self.shelves],
            log=list(self.log),
            viewer=seat,
        )

    def to_dict(self) -> dict[str, Any]:
        """Everything that defines the position (the digest of save files hashes it)."""
        data = self.public_dict()
        data["rng"] = None if self.rng is None else list(self.rng.getstate()[1][:8])
        return data

    def public_dict(self) -> dict[str, Any]:
        return {
            "game": "shelfie",
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "dice": list(self.dice),
            "rerolls_left": self.rerolls_left,
            "ending": self.ending,
            "shelves": [[list(row) for row in shelf] for shelf in self.shelves],
            "scores": [self.score(s) for s in range(self.rules.players)],
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }
