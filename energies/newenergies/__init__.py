"""CATAN: New Energies: the exact rules engine (rules, board, engine, view, invariants).

Standard library only; imports nothing of ``energies`` but :mod:`energies.kit`.
``import energies as en`` offers the names users need (``en.new_game``, ``en.RuleSet``, ...).
This package is also the game's entry in the kit's registry
(:class:`energies.kit.registry.GameSpec`): ``new_game``, ``load_game`` and ``RULES``; its bots
live in :mod:`energies.bots`.
"""

from ..kit.contract import IllegalActionError, Outcome, RuleError, SaveFileError
from .actions import Action
from .board import Board
from .game import Game, new_game
from .layouts import build_board
from .rules import RuleSet
from .saves import load_game

RULES = RuleSet

__all__ = [
    "RULES",
    "Action",
    "Board",
    "Game",
    "IllegalActionError",
    "Outcome",
    "RuleError",
    "RuleSet",
    "SaveFileError",
    "build_board",
    "load_game",
    "new_game",
]
