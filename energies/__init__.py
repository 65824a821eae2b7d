"""energies — an exact rules engine and Jupyter teaching kit for CATAN: New Energies.

Unofficial teaching kit: the rules are described in our own words, no artwork
is used, and CATAN is a trademark of its owners.

    import energies as en
    game = en.new_game(players=4, seed=7)
    outcome = en.play(game, [en.bots.RandomBot() for _ in range(4)])
"""

import sys as _sys
import types as _types

from . import _moved, bots, viz
from .kit.contract import RELEASE as _kit_release
from .kit.registry import load_file, load_game  # any game's save file, chosen by its format
from .newenergies import actions, board, sandbox
from .newenergies.actions import Action
from .newenergies.board import Board
from .newenergies.engine import IllegalActionError
from .newenergies.game import Game, SaveFileError, new_game
from .newenergies.layouts import build_board
from .newenergies.rules import RuleError, RuleSet
from .newenergies.state import Outcome
from .runner import play, simulate

# en.actions, en.board (lesson 01's island graph) and en.sandbox are public modules: their
# old paths stay, without a warning
for _public in (actions, board, sandbox):
    _sys.modules[f"{__name__}.{_public.__name__.rsplit('.', 1)[1]}"] = _public
_moved.install()

__version__ = _kit_release  # one number: the kit writes it into every save file

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
    "board",
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
    if f"{__name__}.{name}" in _moved.MOVED:  # en.state, en.engine, ...: old paths, with a warning
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'energies' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


class _Facade(_types.ModuleType):
    """``energies`` itself: importing an old path such as ``energies.simulate`` (the module)
    must not replace the functions ``en.simulate`` and ``en.play`` (Python's import sets the
    parent's attribute to the module it loaded)."""

    def __setattr__(self, name: str, value) -> None:
        if name in ("play", "simulate") and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Facade
