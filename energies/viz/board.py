"""The board picture: draw_board, and board_png with its cached off-screen canvas.

The static layer (sea, hexes, number tokens, harbors, legend) is drawn here; the pieces
on top come from :mod:`energies.viz.pieces`. matplotlib is imported inside the functions.
"""

from __future__ import annotations

import io
import math

from ..newenergies.board import PIPS
from .pieces import _draw_pieces, _inspector_path
from .style import (
    _CITY,
    _FOSSIL,
    _TOWN,
    _TRIANGLE,
    _XLIM,
    _YLIM,
    HAZARD_COLOR,
    PLANT_COLORS,
    RED_NUMBER,
    RESOURCE_TERRAIN,
    SEA_COLOR,
    TERRAIN_COLORS,
    TERRAIN_LABELS,
    _points_per_unit,
    _state_and_names,
    seat_color,
)


def _harbor_xy(board, harbor) -> tuple[float, float]:
    """Where a harbor's label sits: out at sea, off the middle of its coastal path."""
    (ax_, ay), (bx, by) = (board.corner_positions[c] for c in harbor.corners)
    mx, my = (ax_ + bx) / 2, (ay + by) / 2
    hx, hy = next(h.center for h in board.hexes if set(harbor.corners) <= set(h.corners))
    dx, dy = mx - hx, my - hy
    d = math.hypot(dx, dy)
    return mx + 0.6 * dx / d, my + 0.6 * dy / d


def draw_board(game_or_state, ax=None, highlight=None):
    """Draw the island with every piece on it; return the Axes.

    ``game_or_state`` is a :class:`~energies.game.Game` (its seat names go into the
    legend) or a GameState. Terrain is shown by colour *and* name; number tokens show
    the number and its probability dots (6 and 8 in red); harbors their rate; roads,
    towns (small house) and cities (large house) the seat colour; fossil plants (brown
    factory) and renewable plants (green disc) stand between their building and their
    hex; hazards are yellow warning triangles; the Inspector is a white figure.
    ``highlight`` marks candidate corners, paths and hexes (see :func:`highlight_targets`),
    e.g. ``draw_board(g, highlight=g.legal_actions())``.
    """
    state, names = _state_and_names(game_or_state)
    if ax is None:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(8, 8))
        fig.subplots_adjust(left=0, right=1, bottom=0, top=1)
    u = _setup_board_axes(ax)
    _draw_static(ax, state.board, names, u)
    _draw_pieces(ax, state, highlight, u)
    return ax


def _setup_board_axes(ax) -> float:
    ax.set_xlim(*_XLIM)
    ax.set_ylim(*_YLIM)
    ax.set_aspect("equal")
    ax.set_axis_off()
    return _points_per_unit(ax)  # 1 board unit in points: fonts and line widths follow the Axes


def _draw_static(ax, board, names, u) -> None:
    """What only changes with the board and the seat names: sea, hexes, tokens, harbors, legend."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, RegularPolygon

    add = ax.add_artist  # not add_patch/add_line: the limits are fixed, skip their updates
    add(
        RegularPolygon(
            (0, 0),
            6,
            radius=5.4,
            orientation=math.pi / 6,
            facecolor=SEA_COLOR,
            edgecolor="#8FB8CE",
            linewidth=0.03 * u,
            zorder=0,
            gid="sea",
        )
    )
    pips_xy, pips_c = [], []
    for hx in board.hexes:
        x, y = hx.center
        add(
            RegularPolygon(
                (x, y),
                6,
                radius=1.0,
                orientation=0.0,
                facecolor=TERRAIN_COLORS.get(hx.terrain, "#FFFFFF"),
                edgecolor="#3C3C3C",
                linewidth=0.025 * u,
                zorder=1,
                gid=f"hex-{hx.id}",
            )
        )
        label = TERRAIN_LABELS.get(hx.terrain, hx.terrain)
        if hx.number is None:
            ax.text(
                x,
                y,
                label,
                ha="center",
                va="center",
                fontsize=0.26 * u,
                zorder=3,
                color="#333333",
                gid=f"label-{hx.id}",
            )
            continue
        ax.text(
            x,
            y + 0.46,
            label,
            ha="center",
            va="center",
            fontsize=0.2 * u,
            zorder=3,
            color="#1A1A1A",
            gid=f"label-{hx.id}",
        )
        red = hx.number in (6, 8)
        add(
            Circle(
                (x, y),
                0.34,
                facecolor="#FBF3DC",
                edgecolor="#555555",
                linewidth=0.02 * u,
                zorder=2,
                gid=f"token-{hx.id}",
            )
        )
        ax.text(
            x,
            y + 0.06,
            str(hx.number),
            ha="center",
            va="center",
            zorder=3,
            fontsize=(0.34 if red else 0.3) * u,
            fontweight="bold",
            color=RED_NUMBER if red else "#111111",
            gid=f"token-number-{hx.id}",
        )
        dots = PIPS[hx.number]
        for i in range(dots):
            pips_xy.append((x + 0.075 * (i - (dots - 1) / 2), y - 0.19))
            pips_c.append(RED_NUMBER if red else "#111111")
    ax.scatter(*zip(*pips_xy), s=(0.05 * u) ** 2, c=pips_c, linewidths=0, zorder=3, gid="pips")
    for hb in board.harbors:
        lx, ly = _harbor_xy(board, hb)
        for c in hb.corners:
            px, py = board.corner_positions[c]
            add(
                Line2D(
                    [lx, px],
                    [ly, py],
                    color="#7A5C3E",
                    linewidth=0.07 * u,
                    solid_capstyle="round",
                    zorder=1.5,
                    gid=f"pier-{hb.id}",
                )
            )
        text = f"{hb.rate}:1" if hb.resource is None else f"{hb.rate}:1\n{hb.resource}"
        fill = "#FFFFFF" if hb.resource is None else TERRAIN_COLORS[RESOURCE_TERRAIN[hb.resource]]
        ax.text(
            lx,
            ly,
            text,
            ha="center",
            va="center",
            fontsize=0.2 * u,
            zorder=2.5,
            linespacing=0.95,
            fontweight="bold",
            gid=f"harbor-{hb.id}",
            bbox={
                "boxstyle": "round,pad=0.2",
                "facecolor": fill,
                "edgecolor": "#7A5C3E",
                "linewidth": 0.035 * u,
            },
        )
    _board_legend(ax, names, u)


def _marker(shape):
    from matplotlib.path import Path

    return Path([*shape, shape[0]], closed=True)


def _board_legend(ax, names, u):
    from matplotlib.lines import Line2D

    ms = 0.32 * u

    def entry(label, marker, face, size=ms):
        return Line2D(
            [],
            [],
            linestyle="none",
            marker=marker,
            markersize=size,
            markerfacecolor=face,
            markeredgecolor="black",
            markeredgewidth=0.025 * u,
            label=label,
        )

    inspector = _inspector_path(0, 0, 1)
    handles = [entry(name, _marker(_TOWN), seat_color(s)) for s, name in enumerate(names)]
    handles += [
        entry("town", _marker(_TOWN), "#DDDDDD", size=ms * 0.9),
        entry("city", _marker(_CITY), "#DDDDDD", size=ms * 1.2),
        entry("fossil plant", _marker(_FOSSIL), PLANT_COLORS["fossil"]),
        entry("renewable plant", "o", PLANT_COLORS["renewable"], size=ms * 0.75),
        entry("hazard", _marker(_TRIANGLE), HAZARD_COLOR),
        entry("Inspector", inspector, "white"),
    ]
    ax.legend(
        handles=handles,
        loc="lower center",
        ncol=5,
        fontsize=0.22 * u,
        frameon=False,
        handletextpad=0.2,
        columnspacing=0.9,
        borderaxespad=0.05,
        labelspacing=0.3,
    )


class _BoardCanvas:
    """A reusable off-screen board picture: the static layer is rendered once, then kept.

    Each :meth:`png` call removes the previous pieces, draws the new ones on a transparent
    figure, pastes the stored static pixels under them (Agg ``restore_region``, pixel-exact)
    and encodes the PNG. No pyplot figure is ever created.
    """

    def __init__(self, board, names: tuple[str, ...], figsize: tuple[float, float], dpi: float):
        import threading

        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        static = Figure(figsize=figsize, dpi=dpi)
        canvas = FigureCanvasAgg(static)
        ax = static.add_axes((0, 0, 1, 1))
        _draw_static(ax, board, list(names), _setup_board_axes(ax))
        canvas.draw()
        self.background = canvas.copy_from_bbox(static.bbox)
        self.figure = Figure(figsize=figsize, dpi=dpi)
        self.figure.patch.set_visible(False)
        self.canvas = FigureCanvasAgg(self.figure)
        self.ax = self.figure.add_axes((0, 0, 1, 1))
        self.u = _setup_board_axes(self.ax)
        self.lock = threading.Lock()

    def png(self, state, highlight) -> bytes:
        from PIL import Image

        with self.lock:
            ax = self.ax
            for artist in [*ax.lines, *ax.patches, *ax.texts, *ax.collections]:
                artist.remove()
            _draw_pieces(ax, state, highlight, self.u)
            renderer = self.canvas.get_renderer()
            renderer.clear()
            renderer.restore_region(self.background)
            self.figure.draw(renderer)
            image = Image.frombuffer(
                "RGBA", self.canvas.get_width_height(), renderer.buffer_rgba(), "raw", "RGBA", 0, 1
            ).convert("RGB")
            buf = io.BytesIO()
            image.save(buf, format="PNG", compress_level=1)
            return buf.getvalue()


_CANVASES: dict[tuple, _BoardCanvas] = {}  # most recently used last; a few at most


def _board_canvas(board, names: tuple[str, ...], figsize: tuple[float, float], dpi: float):
    # The board's constructor arguments name its layout: equal for a board rebuilt from a
    # save file or another process, where the Board object itself would differ.
    key = (board.__reduce__()[1], names, figsize, dpi)
    canvas = _CANVASES.pop(key, None) or _BoardCanvas(board, names, figsize, dpi)
    _CANVASES[key] = canvas
    while len(_CANVASES) > 8:
        del _CANVASES[next(iter(_CANVASES))]
    return canvas


def board_png(game, highlight=None, *, figsize=(7.0, 7.0), dpi=100) -> bytes:
    """The board picture (as :func:`draw_board` draws it) as PNG bytes, for widgets.

    Fast path for a widget click: the static layer (sea, hexes, tokens, harbors,
    legend) is rendered once per board, seat names, size and dpi and kept; each call
    only draws the pieces on top. No pyplot figure is created or left open.
    ``Game._repr_png_`` uses this; ``widgets.Image(value=board_png(g))`` works too.
    """
    state, names = _state_and_names(game)
    canvas = _board_canvas(
        state.board, tuple(names), (float(figsize[0]), float(figsize[1])), float(dpi)
    )
    return canvas.png(state, highlight)
