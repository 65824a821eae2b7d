"""Pictures: the board (draw_board, board_png) and the footprint, hand, plant and outcome charts.

matplotlib (and pandas, for the charts) are imported inside the functions, so
``import energies`` stays light. Every plot function takes ``ax=None``, makes
a figure only when no Axes is given, returns the Axes and never calls
``plt.show()``.

Board artists carry ids (``artist.get_gid()``) so tests and widgets can find
them: ``hex-<h>``, ``token-<h>``, ``token-number-<h>``, ``harbor-<i>``,
``road-<path>``, ``town-<corner>``, ``city-<corner>``,
``plant-fossil-<corner>-<hex>``, ``plant-renewable-<corner>-<hex>``,
``hazard-hex-<h>``, ``hazard-building-<corner>``, ``inspector`` and, for
``highlight``, ``highlight-corner-<c>``, ``highlight-path-<p>``,
``highlight-hex-<h>``, ``highlight-plant-<c>-<h>``.

Drawing sizes are in board units (a hex side is 1) and fonts and line widths
are scaled to the Axes size, so the picture looks the same small in a widget
or large on a projector.

The package is split by what each part owns: :mod:`~energies.viz.style` (palettes, piece
shapes, shared helpers), :mod:`~energies.viz.board` (draw_board, board_png and the static
board layer), :mod:`~energies.viz.pieces` (pieces, hazards, Inspector and highlights drawn
on top), :mod:`~energies.viz.charts` (charts over one game's history) and
:mod:`~energies.viz.outcomes` (simulation results). Import from ``energies.viz``; the
submodules are an implementation detail.
"""

from __future__ import annotations

from .board import board_png, draw_board
from .charts import plot_footprint, plot_plants, plot_resources
from .outcomes import (
    _winners,  # noqa: F401  (used by energies.insight.payoff)
    plot_outcomes,
    win_rates,
)
from .pieces import highlight_targets
from .style import (
    BAND_COLORS,
    HAZARD_COLOR,
    HIGHLIGHT_COLOR,
    OTHER_BOT_COLORS,
    OUTCOME_COLORS,
    OUTCOME_LABELS,
    PERSONA_COLORS,
    PERSONA_LABELS,
    PLANT_COLORS,
    RED_NUMBER,
    RESOURCE_TERRAIN,
    SEA_COLOR,
    SEAT_COLORS,
    TERRAIN_COLORS,
    TERRAIN_LABELS,
    persona_color,
    seat_color,
)

__all__ = [
    "BAND_COLORS",
    "HAZARD_COLOR",
    "HIGHLIGHT_COLOR",
    "OTHER_BOT_COLORS",
    "OUTCOME_COLORS",
    "OUTCOME_LABELS",
    "PERSONA_COLORS",
    "PERSONA_LABELS",
    "PLANT_COLORS",
    "RED_NUMBER",
    "RESOURCE_TERRAIN",
    "SEAT_COLORS",
    "SEA_COLOR",
    "TERRAIN_COLORS",
    "TERRAIN_LABELS",
    "board_png",
    "draw_board",
    "highlight_targets",
    "persona_color",
    "plot_footprint",
    "plot_outcomes",
    "plot_plants",
    "plot_resources",
    "seat_color",
    "win_rates",
]
