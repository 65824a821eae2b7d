"""Jupyter widgets: play against bots (PlayApp), replay a game's footprint, try rule variants.

    import energies as en
    from energies.widgets import PlayApp, FootprintExplorer, RulesPanel

    app = PlayApp(en.new_game(seed=7), seats={0: "human", 1: "fossil", 2: "green", 3: "random"})
    app                      # shows the app in a notebook
    app = en.widgets.group_app(1, ["Ana", "Ben", "Cleo"])  # a group's lesson game, saved
    FootprintExplorer(game)  # slide through the turns of a (finished) game
    RulesPanel()             # change a few rules, run a small simulation, compare outcomes

``import energies`` does not import this module (it needs ipywidgets and anywidget);
``energies.widgets`` imports it on first use. matplotlib is imported only when a chart is drawn.

Everything a click does can also be done from Python, so the widgets are testable
without a browser: ``app.click(action)``, ``app.click_spot("c12")``, ``app.play_bots()``,
``app.step()``, ``app.undo()``, or ``app.message({...})`` with a message exactly as the
page sends it; ``app.page`` is what the page draws.

Every handler catches its errors and shows a sentence in the status line: an
illegal action shows the engine's reason (:class:`~energies.IllegalActionError`),
a corrupt save file the :class:`~energies.SaveFileError` message. The kernel handles
the page's clicks one after the other; a click made on an older picture is applied when
it is still legal and explained when it is not, never dropped silently (but a double click,
the same click twice on one picture, is done once and says so).
"""

# The package:
#   common.py       escaping, PNG helpers, footprint_png / risk_png, the busy guard, the status line
#   words.py        the PlayApp's wording: place names, seat names, grammar for "You"
#   board_view.py   the anywidget (static/playapp.js, static/playapp.css) and the board's shapes
#   controls.py     spots and controls of the deciding seat, with prices and reasons
#   page.py         PlayApp's view: readouts, strip, controls, charts
#   play/           PlayApp (seats, public API, handlers, files) and its page
#   group.py        group_app: a group's lesson game (short rules, its seed, saved each move)
#   explorer.py     FootprintExplorer
#   rules_panel.py  RulesPanel

from __future__ import annotations

from .common import CHART_DPI, CHART_SIZE, footprint_png, risk_png  # noqa: F401
from .explorer import FootprintExplorer
from .group import class_folder, group_app, group_seed
from .play import DEFAULT_SEATS, HUMAN, PlayApp  # noqa: F401
from .rules_panel import RulesPanel

__all__ = [
    "FootprintExplorer",
    "PlayApp",
    "RulesPanel",
    "class_folder",
    "footprint_png",
    "group_app",
    "group_seed",
    "risk_png",
]
