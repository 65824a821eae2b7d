"""Jupyter widgets: play against bots (PlayApp), replay a game's footprint, try rule variants.

    import energies as en
    from energies.widgets import PlayApp, FootprintExplorer, RulesPanel

    app = PlayApp(en.new_game(seed=7), seats={0: "human", 1: "fossil", 2: "green", 3: "random"})
    app                      # shows the app in a notebook
    FootprintExplorer(game)  # slide through the turns of a (finished) game
    RulesPanel()             # change a few rules, run a small simulation, compare outcomes

``import energies`` does not import this module (it needs ipywidgets); import it
explicitly. matplotlib is imported only when a chart is drawn.

Everything a click does can also be done from Python, so the widgets are testable
without a browser: ``app.click(0)``, ``app.play_bots()``, ``app.step()``,
``app.undo()``, or ``app.bots_button.click()`` and ``button.click()`` on any button in
``app.action_buttons`` (each carries its action as ``button.action``).

Every handler catches its errors and shows a sentence in the status line: an
illegal action shows the engine's reason (:class:`~energies.IllegalActionError`),
a corrupt save file the :class:`~energies.SaveFileError` message. While a handler
runs (bots playing, a simulation), further clicks are ignored, so rapid repeated
clicks cannot interleave two changes of the game.
"""

# The package replaces the former single module energies/widgets.py, with the same names:
#   common.py       escaping, PNG helpers, footprint_png, the busy guard, the status line
#   play.py         PlayApp (seats, public API, handlers)
#   panels.py       PlayApp's widgets and their redrawing (readouts, log, action buttons)
#   explorer.py     FootprintExplorer
#   rules_panel.py  RulesPanel
# Besides __all__, every name the single module had stays importable from here (noqa: F401).

from __future__ import annotations

from .. import bots as _bots  # noqa: F401
from ..actions import Action, EndTurn, pretty  # noqa: F401
from ..engine import IllegalActionError  # noqa: F401
from ..game import Game, SaveFileError, load_file, load_game, new_game  # noqa: F401
from ..rules import RESOURCES, RuleSet  # noqa: F401
from ..viz import board_png, plot_footprint, seat_color  # noqa: F401
from .common import (  # noqa: F401
    _CHART_PX,
    _STATUS_COLORS,
    CHART_DPI,
    CHART_SIZE,
    _esc,
    _figure_png,
    _footprint_figure,
    _Guard,
    _StatusMixin,
    footprint_png,
    risk_png,
)
from .explorer import FootprintExplorer
from .panels import (  # noqa: F401
    GROUP_TITLES,
    GROUPS,
    KIND_TITLES,
    LOG_LINES,
    MAX_BUTTONS,
    MAX_DECISION_BUTTONS,
)
from .play import _SEAT_RE, DEFAULT_SEATS, HUMAN, PlayApp, _bot_label, _is_human  # noqa: F401
from .rules_panel import RulesPanel

__all__ = ["FootprintExplorer", "PlayApp", "RulesPanel", "footprint_png", "risk_png"]
