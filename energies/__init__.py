"""energies — an exact rules engine and Jupyter teaching kit for CATAN: New Energies.

Unofficial teaching kit: the rules are described in our own words, no artwork
is used, and CATAN is a trademark of its owners.

    import energies as en
    game = en.new_game(players=4, seed=7)
    outcome = en.play(game, [en.bots.RandomBot() for _ in range(4)])
"""

from . import actions, bots, sandbox, viz
from .actions import Action
from .board import Board
from .engine import IllegalActionError
from .game import Game, SaveFileError, new_game
from .games import load_game  # any game's save file; New Energies files as before
from .layouts import build_board
from .play import play
from .rules import RuleError, RuleSet
from .save_files import load_file
from .simulate import simulate
from .state import Outcome

__version__ = "0.2.0"

__all__ = [
    "Action",
    "Board",
    "Game",
    "IllegalActionError",
    "Outcome",
    "RuleError",
    "RuleSet",
    "SaveFileError",
    "actions",
    "bots",
    "build_board",
    "insight",
    "load_file",
    "load_game",
    "new_game",
    "play",
    "sandbox",
    "simulate",
    "viz",
    "widgets",
]

_LAZY = ("widgets", "insight")  # heavy (ipywidgets, anywidget, pandas): imported on first use


def __getattr__(name: str):
    """``en.widgets`` and ``en.insight`` without importing them in ``import energies``."""
    if name in _LAZY:
        import importlib

        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module  # later look-ups skip this function
        return module
    raise AttributeError(f"module 'energies' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
