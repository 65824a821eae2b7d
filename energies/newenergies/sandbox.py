"""Teacher sandbox: set up a position for a lesson or a rule test.

Give or take cards, place or remove pieces, move the Inspector, put hazards,
fill event rows and fix the next dice rolls and disc draws. Every edit is a
:class:`~energies.newenergies.actions.SandboxEdit` recorded in the game's action log, so a
saved game with edits still replays exactly (the engine checks and makes each edit:
:mod:`energies.newenergies.engine.edits`). The game's log, which every seat's view
shows, names no hidden fact: not the kind of cards given or taken (energy excepted), not the
development card given, not the dice fixed. Edits skip costs and the
distance rule (that is their purpose) but never break the game's bookkeeping:
cards come from the supply, pieces from the player's stock, discs from the bag.

    >>> import energies as en
    >>> g = en.new_game(seed=1)
    >>> en.sandbox.give(g, 0, steel=3, food=2)
    >>> en.sandbox.fix_dice(g, 4, 4)
"""

from __future__ import annotations

from .actions import SandboxEdit

# How the engine checks and makes each edit (kept reachable here, as in release 0.2)
from .engine.edits import PIECES, apply_edit, check_edit, public_sentence  # noqa: F401

# -- the public helpers (each records one edit) -------------------------------------------------


def _edit(game, op: str, seat: int = -1, *args) -> None:
    game.apply(SandboxEdit(seat, op, tuple(args)))


def give(game, seat: int, **cards: int) -> None:
    """Move cards (or energy) from the supply to a seat: ``give(g, 0, steel=2, energy=1)``."""
    for kind, n in cards.items():
        _edit(game, "give", seat, kind, n)


def take(game, seat: int, **cards: int) -> None:
    """Return cards (or energy) from a seat to the supply."""
    for kind, n in cards.items():
        _edit(game, "take", seat, kind, n)


def place(game, seat: int, piece: str, index: int) -> None:
    """Put a town, city (on an empty corner or over the seat's town) or road on the board."""
    _edit(game, "place", seat, piece, index)


def remove(game, piece: str, index: int) -> None:
    """Remove a town, city or road (and a building's plants) back to its owner's stock."""
    _edit(game, "remove", -1, piece, index)


def place_plant(game, seat: int, kind: str, corner: int, hex_id: int) -> None:
    """Put a fossil or renewable plant for the building at ``corner`` on ``hex_id`` (free)."""
    _edit(game, "place_plant", seat, kind, corner, hex_id)


def remove_plant(game, seat: int, corner: int, hex_id: int) -> None:
    _edit(game, "remove_plant", seat, corner, hex_id)


def move_inspector(game, hex_id: int) -> None:
    _edit(game, "inspector", -1, hex_id)


def add_hazard(game, *, hex: int | None = None, building: int | None = None) -> None:
    """Put a hazard on a hex or on the building at a corner."""
    _edit(game, "add_hazard", -1, *_hazard_place(hex, building))


def remove_hazard(game, *, hex: int | None = None, building: int | None = None) -> None:
    _edit(game, "remove_hazard", -1, *_hazard_place(hex, building))


def _hazard_place(hex_id, building) -> tuple:
    if (hex_id is None) == (building is None):
        raise ValueError("Name either hex=... or building=... for a hazard.")
    return ("hex", hex_id) if hex_id is not None else ("building", building)


def fix_dice(game, die1: int, die2: int) -> None:
    """The next dice roll (production or Environmental Pollution) shows these dice."""
    _edit(game, "dice", -1, die1, die2)


def fix_disc(game, color: str, symbol: str) -> None:
    """The next disc drawn from the bag is this one (it must be in the bag)."""
    _edit(game, "disc", -1, color, symbol)


def fill_row(game, color: str, symbol: str) -> None:
    """Move one disc from the bag onto its event row without firing the row."""
    _edit(game, "row", -1, color, symbol)


def give_dev_card(game, seat: int, card: str) -> None:
    """Move a development card from the deck to a seat; it may be played this turn."""
    _edit(game, "dev_card", seat, card)


def clear_board(game) -> None:
    """Remove every piece, hazard and card from play: an empty island to build a lesson on."""
    _edit(game, "clear")
