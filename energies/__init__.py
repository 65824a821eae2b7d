"""energies — an exact rules engine and Jupyter teaching kit for CATAN: New Energies.

Unofficial teaching kit: the rules are described in our own words, no artwork
is used, and CATAN is a trademark of its owners.

    import energies as en
    game = en.new_game(players=4, seed=7)
    outcome = en.play(game, [en.bots.RandomBot() for _ in range(4)])
"""

import importlib as _importlib
import sys as _sys
import types as _types

from . import _moved
from .kit.contract import RELEASE as _kit_release

__version__ = _kit_release  # one number: the kit writes it into every save file

# The public names and where they live. Each is imported on first use, so a companion game
# (``import energies.games.shelfie``) loads the kit and itself, not New Energies, and
# ``import energies`` stays light.
_NAMES = {
    "Action": "newenergies.actions",
    "Board": "newenergies.board",
    "Game": "newenergies.game",
    "IllegalActionError": "kit.contract",
    "LANGUAGES": "kit.i18n",
    "Outcome": "kit.contract",
    "RuleError": "kit.contract",
    "RuleSet": "newenergies.rules",
    "SaveFileError": "kit.contract",
    "build_board": "newenergies.layouts",
    "get_language": "kit.i18n",
    "load_file": "kit.registry",  # any game's save file, chosen by its format
    "load_game": "kit.registry",
    "new_game": "newenergies.game",
    "play": "runner",
    "set_language": "kit.i18n",
    "simulate": "runner",
}
# The public modules: the layers (viz and widgets bring matplotlib and ipywidgets, so none is
# imported before it is used), and en.actions, en.board (lesson 01's island graph) and
# en.sandbox, whose paths energies.actions/board/sandbox stay without a warning (_moved.PUBLIC).
_MODULES = {
    "actions": "newenergies.actions",
    "board": "newenergies.board",
    "sandbox": "newenergies.sandbox",
    **{
        layer: layer
        for layer in (
            "bots",
            "games",
            "insight",
            "kit",
            "newenergies",
            "runner",
            "server",
            "viz",
            "widgets",
        )
    },
}
_moved.install()

__all__ = [
    "LANGUAGES",
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
    "get_language",
    "insight",
    "load_file",
    "load_game",
    "new_game",
    "play",
    "sandbox",
    "server",
    "set_language",
    "simulate",
    "viz",
    "widgets",
]


def __getattr__(name: str):
    """A public name or module on first use (then kept, so later look-ups skip this)."""
    if name in _NAMES:
        value = getattr(_importlib.import_module(f".{_NAMES[name]}", __name__), name)
    elif name in _MODULES:
        value = _importlib.import_module(f".{_MODULES[name]}", __name__)
    elif f"{__name__}.{name}" in _moved.MOVED:  # en.state, en.engine, ...: old paths, warned
        return _importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module 'energies' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_NAMES) | set(_MODULES))


class _Facade(_types.ModuleType):
    """``energies`` itself: importing an old path such as ``energies.simulate`` (the module)
    must not replace the functions ``en.simulate`` and ``en.play`` (Python's import sets the
    parent's attribute to the module it loaded)."""

    def __setattr__(self, name: str, value) -> None:
        if name in ("play", "simulate") and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Facade
