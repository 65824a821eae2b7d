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
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable
from typing import Any

from .actions import pretty
from .board import PIPS

# Okabe-Ito colours (safe for the common colour-vision deficiencies); green and brown are
# left to the plants and yellow to the hazards, so a seat colour never means a piece kind.
SEAT_COLORS = ("#0072B2", "#D55E00", "#CC79A7", "#E69F00")  # blue, vermillion, purple, orange
# Paul Tol's "light" scheme, lightness-separated; every hex also carries its name in text.
TERRAIN_COLORS = {
    "forest": "#44BB99",
    "hills": "#EE8866",
    "pasture": "#BBCC33",
    "fields": "#EEDD88",
    "mountains": "#9AA6B2",
    "desert": "#E4DCCB",
}
TERRAIN_LABELS = {t: t.capitalize() for t in TERRAIN_COLORS}
RESOURCE_TERRAIN = {
    "lumber": "forest",
    "brick": "hills",
    "fiber": "pasture",
    "food": "fields",
    "steel": "mountains",
}
PLANT_COLORS = {"fossil": "#6B4226", "renewable": "#009E73"}
HAZARD_COLOR = "#F0E442"
RED_NUMBER = "#C8102E"  # 6 and 8 (the likeliest rolls), also bold with 5 dots
HIGHLIGHT_COLOR = "#E6007E"
SEA_COLOR = "#CFE6F2"
OUTCOME_COLORS = {
    "victory_points": "#0072B2",
    "empty_bag": "#009E73",
    "everyone_loses": "#D55E00",
    "unfinished": "#999999",
}
OUTCOME_LABELS = {
    "victory_points": "victory points",
    "empty_bag": "empty bag",
    "everyone_loses": "everyone loses",
    "unfinished": "unfinished",
}
BAND_COLORS = {1: "#DDF0E1", 2: "#FBE6C4", 3: "#F6C9C3"}

# Board extent (board units): island hexes reach |x| 4.33 and |y| 4; harbors sit outside.
_XLIM = (-5.9, 5.9)
_YLIM = (-5.75, 5.45)  # room above for the title, below for the legend
_PLANT_FROM_CORNER = (0.28, 0.4)  # from a building towards the hex centre: (top/bottom, sides)

# Piece outlines, centred on (0, 0), in board units.
_TOWN = ((-0.15, -0.12), (0.15, -0.12), (0.15, 0.05), (0.0, 0.18), (-0.15, 0.05))
_CITY = (
    (-0.25, -0.15),
    (0.25, -0.15),
    (0.25, 0.06),
    (0.03, 0.06),
    (0.03, 0.15),
    (-0.11, 0.27),
    (-0.25, 0.15),
)
_FOSSIL = (
    (-0.14, -0.11),
    (0.14, -0.11),
    (0.14, 0.09),
    (0.05, 0.02),
    (0.05, 0.09),
    (-0.04, 0.02),
    (-0.06, 0.02),
    (-0.06, 0.2),
    (-0.14, 0.2),
)  # factory: roof, chimney
_TRIANGLE = ((-0.5, -0.289), (0.5, -0.289), (0.0, 0.577))  # unit side, centred


def _shift(shape, x, y, scale=1.0):
    return [(x + scale * dx, y + scale * dy) for dx, dy in shape]


def seat_color(seat: int) -> str:
    """The colour of a seat (the palette repeats after 4 seats)."""
    return SEAT_COLORS[int(seat) % len(SEAT_COLORS)]


# ==============================================================================================
# The board
# ==============================================================================================


def _state_and_names(game_or_state):
    state = getattr(game_or_state, "state", game_or_state)
    if not hasattr(state, "players") or not hasattr(state, "board"):
        raise TypeError("draw_board needs a Game or a GameState.")
    names = getattr(game_or_state, "names", None) or [
        f"Seat {s}" for s in range(len(state.players))
    ]
    return state, list(names)


def _points_per_unit(ax) -> float:
    """Points per board unit once the Axes keeps an equal aspect (the smaller of x and y)."""
    fig = ax.figure
    w, h = fig.get_size_inches()
    pos = ax.get_position()
    return min(
        pos.width * w * 72 / (_XLIM[1] - _XLIM[0]), pos.height * h * 72 / (_YLIM[1] - _YLIM[0])
    )


def highlight_targets(highlight: Iterable[Any] | None) -> dict[str, set]:
    """Sort a ``highlight`` argument into corners, paths, hexes and plant spots.

    Accepts actions (BuildTown, BuildCity, PlaceHazard -> corner; BuildRoad -> path;
    MoveInspector, ChooseHex -> hex; BuildPlant, DemolishFossil -> hex and plant spot;
    RemoveHazard -> hex or corner), ``("corner"|"path"|"hex", id)`` pairs, a dict
    ``{"corners": [...], "paths": [...], "hexes": [...]}``, or bare ints (taken as corners).
    Other actions (RollDice, trades, ...) have no place on the board and are ignored.
    """
    out: dict[str, set] = {"corners": set(), "paths": set(), "hexes": set(), "plants": set()}
    if highlight is None:
        return out
    if isinstance(highlight, dict):
        for key in ("corners", "paths", "hexes", "plants"):
            out[key].update(tuple(v) if key == "plants" else int(v) for v in highlight.get(key, ()))
        return out
    for item in highlight:
        kind = getattr(item, "kind", None)
        if kind in ("build_town", "build_city", "place_hazard"):
            out["corners"].add(item.corner)
        elif kind == "build_road":
            out["paths"].add(item.path)
        elif kind in ("move_inspector", "choose_hex"):
            out["hexes"].add(item.hex)
        elif kind in ("build_plant", "demolish_fossil"):
            out["hexes"].add(item.hex)
            out["plants"].add((item.corner, item.hex))
        elif kind == "remove_hazard":
            out["hexes" if item.place == "hex" else "corners"].add(item.index)
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            key = {"corner": "corners", "path": "paths", "hex": "hexes"}.get(item[0])
            if key is None:
                raise ValueError(
                    f"Highlight pairs name a 'corner', 'path' or 'hex', not {item[0]!r}."
                )
            out[key].add(int(item[1]))
        elif isinstance(item, int) and not isinstance(item, bool):
            out["corners"].add(item)
    return out


def _plant_xy(board, corner: int, hex_id: int) -> tuple[float, float]:
    """A plant stands between its building and its hex's centre.

    Plants under or over a building (top and bottom corners of the hex) sit closer to it,
    clear of the hex's name; the other four clear of a city's wide outline.
    """
    cx, cy = board.corner_positions[corner]
    hx, hy = board.hexes[hex_id].center
    t = _PLANT_FROM_CORNER[abs(hx - cx) > 0.1]
    return cx + t * (hx - cx), cy + t * (hy - cy)


def _hazard_xy(board, corner: int) -> tuple[float, float]:
    """A building hazard sits on the building's most upward path, clear of its plants."""
    cx, cy = board.corner_positions[corner]
    nx, ny = max(
        (board.corner_positions[n] for n in board.corner_neighbors(corner)), key=lambda p: p[1] - cy
    )
    return cx + 0.3 * (nx - cx), cy + 0.3 * (ny - cy)


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


def _draw_pieces(ax, state, highlight, u) -> None:
    """What changes during a game: pieces, hazards, the Inspector, highlights and the title."""
    import matplotlib.patheffects as pe
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, PathPatch, Polygon, RegularPolygon

    board, add = state.board, ax.add_artist
    for h in sorted(state.hex_hazards):
        x, y = board.hexes[h].center
        _hazard(ax, x + 0.64, y - 0.02, 0.37, u, f"hazard-hex-{h}")
    ix, iy = board.hexes[state.inspector].center
    add(
        PathPatch(
            _inspector_path(ix - 0.63, iy, 0.85),
            facecolor="white",
            edgecolor="black",
            linewidth=0.035 * u,
            zorder=6,
            gid="inspector",
        )
    )

    casing = [pe.Stroke(linewidth=0.19 * u, foreground="black"), pe.Normal()]
    for p in state.players:
        color = seat_color(p.seat)
        for path in sorted(p.roads):
            (ax_, ay), (bx, by) = (board.corner_positions[c] for c in board.paths[path])
            add(
                Line2D(
                    [ax_ + 0.13 * (bx - ax_), bx - 0.13 * (bx - ax_)],
                    [ay + 0.13 * (by - ay), by - 0.13 * (by - ay)],
                    color=color,
                    linewidth=0.12 * u,
                    solid_capstyle="butt",
                    zorder=4,
                    gid=f"road-{path}",
                    path_effects=casing,
                )
            )
    for p in state.players:
        color = seat_color(p.seat)
        for (corner, h), kind in sorted(p.plants.items()):
            x, y = _plant_xy(board, corner, h)
            if kind == "fossil":
                shape = Polygon(_shift(_FOSSIL, x, y - 0.03), closed=True)
            else:
                shape = Circle((x, y), 0.125)
            shape.set(
                facecolor=PLANT_COLORS.get(kind, "grey"),
                edgecolor=color,
                linewidth=0.045 * u,
                zorder=5,
                gid=f"plant-{kind}-{corner}-{h}",
            )
            add(shape)
        for piece, outline, corners in (("town", _TOWN, p.towns), ("city", _CITY, p.cities)):
            for c in sorted(corners):
                x, y = board.corner_positions[c]
                add(
                    Polygon(
                        _shift(outline, x, y),
                        closed=True,
                        facecolor=color,
                        edgecolor="black",
                        linewidth=0.03 * u,
                        zorder=6,
                        gid=f"{piece}-{c}",
                    )
                )
    for c in sorted(state.building_hazards):
        x, y = _hazard_xy(board, c)
        _hazard(ax, x, y, 0.3, u, f"hazard-building-{c}")

    hl = highlight_targets(highlight)
    glow = [pe.Stroke(linewidth=0.13 * u, foreground="white"), pe.Normal()]
    for h in sorted(hl["hexes"]):
        add(
            RegularPolygon(
                board.hexes[h].center,
                6,
                radius=0.9,
                fill=False,
                edgecolor=HIGHLIGHT_COLOR,
                linewidth=0.07 * u,
                zorder=7,
                path_effects=glow,
                gid=f"highlight-hex-{h}",
            )
        )
    for path in sorted(hl["paths"]):
        (ax_, ay), (bx, by) = (board.corner_positions[c] for c in board.paths[path])
        add(
            Line2D(
                [ax_ + 0.2 * (bx - ax_), bx - 0.2 * (bx - ax_)],
                [ay + 0.2 * (by - ay), by - 0.2 * (by - ay)],
                color=HIGHLIGHT_COLOR,
                linewidth=0.08 * u,
                zorder=7,
                path_effects=glow,
                gid=f"highlight-path-{path}",
            )
        )
    for c in sorted(hl["corners"]):
        add(
            Circle(
                board.corner_positions[c],
                0.2,
                fill=False,
                edgecolor=HIGHLIGHT_COLOR,
                linewidth=0.07 * u,
                zorder=7,
                path_effects=glow,
                gid=f"highlight-corner-{c}",
            )
        )
    for c, h in sorted(hl["plants"]):
        add(
            Circle(
                _plant_xy(board, c, h),
                0.17,
                fill=False,
                edgecolor=HIGHLIGHT_COLOR,
                linewidth=0.06 * u,
                zorder=7,
                path_effects=glow,
                gid=f"highlight-plant-{c}-{h}",
            )
        )

    gf = state.global_footprint
    if state.outcome is not None:
        title = f"Turn {state.turn} · GF {gf} · game over"
    else:
        discs = state.rules.discs_to_draw(gf)
        title = (
            f"Turn {state.turn} · GF {gf} · next event phase draws {discs} disc{'s' * (discs != 1)}"
        )
    # a text inside the Axes, not set_title: cheaper, and the picture stays self-contained
    ax.text(
        0, _YLIM[1] - 0.3, title, ha="center", va="center", fontsize=0.3 * u, zorder=9, gid="title"
    )


def _inspector_path(x, y, scale):
    """A standing figure (head and robe) centred on (x, y)."""
    from matplotlib.path import Path

    body = Path(
        _shift(((-0.14, -0.22), (0.14, -0.22), (0.08, 0.06), (-0.08, 0.06), (0, 0)), x, y, scale),
        [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY],
    )
    return Path.make_compound_path(body, Path.circle((x, y + 0.16 * scale), 0.085 * scale))


def _hazard(ax, x, y, side, u, gid):
    from matplotlib.patches import Polygon

    ax.add_artist(
        Polygon(
            _shift(_TRIANGLE, x, y, side),
            closed=True,
            facecolor=HAZARD_COLOR,
            edgecolor="black",
            linewidth=0.035 * u,
            joinstyle="round",
            zorder=8,
            gid=gid,
        )
    )
    ax.text(
        x,
        y - 0.02 * side,
        "!",
        ha="center",
        va="center",
        fontsize=0.55 * side * u,
        fontweight="bold",
        zorder=8.1,
        gid=gid + "-mark",
    )


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


# ==============================================================================================
# Charts over a game's history
# ==============================================================================================


def _history(history):
    """(frame, names by seat, rules or None, events or None) from a Game, DataFrame or records."""
    import pandas as pd

    rules = events = None
    names: dict[int, str] = {}
    if hasattr(history, "state") and hasattr(history, "history"):  # a Game
        rules, events = history.rules, history.events
        names = dict(enumerate(history.names))
        frame = pd.DataFrame.from_records(list(history.history))
    elif isinstance(history, pd.DataFrame):
        frame = history
    else:
        frame = pd.DataFrame.from_records(list(history))
    if not frame.empty:
        missing = {"turn", "seat"} - set(frame.columns)
        if missing:
            raise ValueError(
                f"The history needs the columns turn and seat (missing {sorted(missing)})."
            )
        if "name" in frame.columns:
            for seat, name in frame.groupby("seat")["name"].first().items():
                names.setdefault(int(seat), str(name))
        for seat in frame["seat"].unique():
            names.setdefault(int(seat), f"Seat {int(seat)}")
    return frame, names, rules, events


def _new_axes(ax, figsize):
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _empty(ax, what):
    ax.text(
        0.5,
        0.5,
        f"No turns recorded yet: nothing to plot for {what}.",
        ha="center",
        va="center",
        transform=ax.transAxes,
    )
    return ax


def _per_seat(frame, column):
    """[(seat, turns, values)] sorted by seat and turn."""
    out = []
    for seat, rows in frame.sort_values("turn").groupby("seat"):
        out.append((int(seat), rows["turn"].to_numpy(), rows[column].to_numpy()))
    return out


def _outside_legend(ax, gap=8.0, **kw):
    """A legend right of the Axes, ``gap`` points away (room for a right-hand axis)."""
    from matplotlib.transforms import ScaledTranslation

    shift = ScaledTranslation(gap / 72, 0, ax.figure.dpi_scale_trans)
    return ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        bbox_transform=ax.transAxes + shift,
        borderaxespad=0,
        fontsize=10,
        **kw,
    )


def _labels(ax, xlabel, ylabel, title, pad=6.0):
    """Axis labels and title in sizes that stay readable on a projector."""
    ax.set_xlabel(xlabel, fontsize=12)
    ax.set_ylabel(ylabel, fontsize=12)
    ax.set_title(title, fontsize=13, pad=pad)
    ax.tick_params(labelsize=11)
    ax.margins(x=0.01)


def plot_footprint(history, ax=None, rules=None, events=None):
    """Each seat's LF and the GF over the turns, on the disc-draw bands of rule 4.3; return the Axes.

    ``history`` is a Game, ``game.history_frame()`` or the records ``game.history``
    (columns turn, seat, lf, gf; name optional). The bands come from the Game's
    rules, else ``rules``, else ``RuleSet.standard`` for the number of seats. Events
    (``game.events`` or ``game.events_frame()``; a Game brings its own) are drawn as
    vertical markers half a turn before the turn record: they fire in the event phase
    at the start of a turn, and the records are taken at its end.
    """
    from matplotlib.lines import Line2D

    frame, names, game_rules, game_events = _history(history)
    rules = game_rules or rules
    events = game_events if events is None else events
    ax = _new_axes(ax, (10, 5.5))
    if frame.empty:
        return _empty(ax, "the footprint")
    if rules is None:
        from .rules import RuleSet

        rules = RuleSet.standard(3 if len(names) == 3 else 4)

    for seat, turns, lf in _per_seat(frame, "lf"):
        ax.plot(
            turns,
            lf,
            color=seat_color(seat),
            linewidth=2,
            label=f"{names[seat]} LF",
            gid=f"lf-{seat}",
            zorder=3,
        )
    gf = frame.groupby("turn")["gf"].first().sort_index()
    ax.plot(
        gf.index.to_numpy(),
        gf.to_numpy(),
        color="black",
        linewidth=3.5,
        label="GF (global footprint)",
        gid="gf",
        zorder=4,
    )

    top_seen = max(int(frame["gf"].max()), int(frame["lf"].max()))
    bottom = min(0, int(frame["lf"].min())) - 1
    top = rules.disc_bands[-1][1] + 0.5
    for i, (low, high, _d) in enumerate(rules.disc_bands):
        if low <= top_seen <= high:  # show the band reached and the next one up
            if i + 1 < len(rules.disc_bands):
                top = rules.disc_bands[i + 1][0] + 2.5
            break
    top = min(top, rules.gf_max + 0.5)
    ticks, tick_labels = [], []
    for i, (low, high, discs) in enumerate(rules.disc_bands):
        ax.axhspan(
            low - 0.5,
            high + 0.5,
            color=BAND_COLORS.get(discs, "#EEEEEE"),
            zorder=0,
            linewidth=0,
            gid=f"band-{i}",
        )
        if low - 0.5 < top:  # name the band on a right-hand axis, clear of the lines
            ticks.append((max(low - 0.5, bottom) + min(high + 0.5, top)) / 2)
            tick_labels.append(f"{discs} disc{'s' * (discs != 1)}\n(GF {low}–{high})")
    bands = ax.secondary_yaxis("right")
    bands.set_gid("disc-bands")
    bands.set_yticks(ticks, tick_labels)
    bands.tick_params(length=0, labelsize=10)
    ax.set_ylim(bottom, top)

    handles, _ = ax.get_legend_handles_labels()
    marks, lift = _event_marks(ax, events)
    for label, color, marker in marks:
        handles.append(
            Line2D([], [], color=color, marker=marker, linestyle="none", markersize=8, label=label)
        )
    _labels(
        ax,
        "turn",
        "footprint (LF per seat, GF)",
        "Footprint over the game — shading: discs drawn per event phase (rule 4.3)",
        pad=6 + lift,
    )
    _outside_legend(ax, gap=80, handles=handles)
    return ax


_EVENT_MARKERS = {
    "climate_conference": "o",
    "environmental_pollution": "v",
    "air_pollution": "^",
    "production_increase": "s",
    "rain_and_flooding": "D",
    "sustainable_production": "P",
    "government_funding": "*",
}


def _event_marks(ax, events):
    """Draw events as vertical lines with a marker on top of the Axes (same-turn events stack).

    Returns ``(legend entries [(label, color, marker)], height of the marker stack in points)``.
    """
    from matplotlib.transforms import ScaledTranslation, blended_transform_factory

    if events is None:
        return [], 0
    rows = events.to_dict("records") if hasattr(events, "to_dict") else list(events)
    top = blended_transform_factory(ax.transData, ax.transAxes)
    seen, stack = {}, {}
    for i, ev in enumerate(rows):
        kind, green = str(ev["event"]), ev.get("color") == "green"
        color = PLANT_COLORS["renewable"] if green else PLANT_COLORS["fossil"]
        marker = _EVENT_MARKERS.get(kind, "o")
        x = float(ev["turn"]) - 0.5
        k = stack[x] = stack.get(x, -1) + 1
        ax.axvline(x, color=color, linewidth=1.2, alpha=0.45, zorder=1, gid=f"event-{i}")
        lift = ScaledTranslation(0, (7 + 11 * k) / 72, ax.figure.dpi_scale_trans)
        ax.plot(
            [x],
            [1.0],
            transform=top + lift,
            marker=marker,
            color=color,
            markersize=11 if marker == "*" else 8,
            markeredgecolor="white",
            markeredgewidth=0.6,
            linestyle="none",
            zorder=5,
            clip_on=False,
            gid=f"event-mark-{i}",
        )
        label = pretty(kind) + (" (green disc)" if green and kind == "climate_conference" else "")
        seen.setdefault((kind, green), (label, color, marker))
    return list(seen.values()), 11 * (max(stack.values()) + 1) if stack else 0


def plot_resources(history, ax=None, column="hand_size"):
    """Cards in hand per seat over the turns, with the discard limit of rule 9.1; return the Axes.

    ``column`` is any per-seat history column: ``hand_size`` (resources + science, what a 7
    counts), ``resources``, ``science`` or ``energy``.
    """
    frame, names, rules, _events = _history(history)
    ax = _new_axes(ax, (10, 4.5))
    if frame.empty:
        return _empty(ax, column)
    for seat, turns, values in _per_seat(frame, column):
        ax.plot(
            turns,
            values,
            color=seat_color(seat),
            linewidth=2,
            label=names[seat],
            gid=f"{column}-{seat}",
        )
    if column == "hand_size":
        limit = rules.discard_threshold if rules is not None else 7
        ax.axhline(
            limit,
            color="#555555",
            linestyle=":",
            linewidth=1.5,
            gid="discard-limit",
            label=f"more than {limit}: discard half on a 7 (rule 9.1)",
        )
    _labels(
        ax,
        "turn",
        column.replace("_", " "),
        {"hand_size": "Cards in hand (resources + science)"}.get(
            column, f"{column.replace('_', ' ').capitalize()} per seat"
        ),
    )
    _outside_legend(ax)
    return ax


def plot_plants(history, ax=None):
    """Renewable (solid) and fossil (dashed) plants per seat over the turns; return the Axes.

    The lines of different seats are nudged apart by a few hundredths of a plant so that
    seats with equal counts stay visible; read the counts off the whole-number ticks.
    """
    from matplotlib.lines import Line2D

    frame, names, _rules, _events = _history(history)
    ax = _new_axes(ax, (10, 4.5))
    if frame.empty:
        return _empty(ax, "the plants")
    middle = (len(names) - 1) / 2
    for kind, style in (("renewable", "-"), ("fossil", "--")):
        for seat, turns, values in _per_seat(frame, kind):
            ax.plot(
                turns,
                values + 0.04 * (seat - middle),
                color=seat_color(seat),
                linestyle=style,
                linewidth=2.2,
                drawstyle="steps-post",
                gid=f"{kind}-{seat}",
            )
    handles = [
        Line2D([], [], color=seat_color(s), linewidth=3, label=names[s]) for s in sorted(names)
    ]
    handles += [
        Line2D([], [], color="black", linestyle="-", linewidth=2, label="renewable"),
        Line2D([], [], color="black", linestyle="--", linewidth=2, label="fossil"),
    ]
    _labels(
        ax,
        "turn",
        "plants on the board",
        "Power plants per seat: renewable (solid) vs fossil (dashed)",
    )
    ax.yaxis.get_major_locator().set_params(integer=True)
    _outside_legend(ax, handles=handles)
    return ax


# ==============================================================================================
# Simulation results
# ==============================================================================================


def _winners(value) -> tuple[int, ...]:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ()
    if isinstance(value, str):  # e.g. "(0, 2)" after a round trip through CSV
        return tuple(int(v) for v in re.findall(r"-?\d+", value))
    return tuple(int(v) for v in value)


def win_rates(frame):
    """Win rate per bot name: wins / seats played, from columns ``winners`` and ``bot_<seat>``.

    Returns a DataFrame indexed by bot with columns ``seats``, ``wins``, ``win_rate``.
    """
    import pandas as pd

    bot_cols = sorted(
        (c for c in frame.columns if re.fullmatch(r"bot_\d+", str(c))), key=lambda c: int(c[4:])
    )
    counts: dict[str, list[int]] = {}
    for row in frame.to_dict("records"):
        won = set(_winners(row.get("winners")))
        for col in bot_cols:
            bot = row[col]
            if bot is None or (isinstance(bot, float) and math.isnan(bot)):
                continue
            c = counts.setdefault(str(bot), [0, 0])
            c[0] += 1
            c[1] += int(col[4:]) in won
    out = pd.DataFrame(
        [(b, n, w) for b, (n, w) in counts.items()], columns=["bot", "seats", "wins"]
    ).set_index("bot")
    out["win_rate"] = out["wins"] / out["seats"]
    return out.sort_values("win_rate")


def plot_outcomes(frame, ax=None):
    """How simulated games ended, per line-up; and the win rate per bot; return the outcome Axes.

    ``frame`` has one row per game with columns ``lineup`` (str, e.g.
    ``"fossil,green,balanced,random"``), ``outcome`` (victory_points, empty_bag,
    everyone_loses or unfinished) and ``winners`` (tuple of winning seats), and
    optionally ``bot_0`` .. ``bot_3`` (the bot name of each seat).

    Draws stacked horizontal bars of the outcome shares per line-up. With ``ax=None``
    and bot columns present, a second panel (``ax.figure.axes[1]``) shows each bot's
    win rate (wins per seat played) against the 1-in-N chance line. With a given ``ax``
    only the outcome bars are drawn into it.
    """
    missing = {"lineup", "outcome"} - set(frame.columns)
    if missing:
        raise ValueError(
            f"plot_outcomes needs the columns lineup and outcome (missing {sorted(missing)})."
        )
    if frame.empty:
        raise ValueError("plot_outcomes needs at least one game (the frame has no rows).")
    has_bots = any(re.fullmatch(r"bot_\d+", str(c)) for c in frame.columns)
    panel = None
    if ax is None:
        import matplotlib.pyplot as plt

        height = 0.6 * frame["lineup"].nunique() + 2.5
        if has_bots:
            _fig, (ax, panel) = plt.subplots(
                1, 2, figsize=(13, height), layout="constrained", width_ratios=(3, 2)
            )
        else:
            _fig, ax = plt.subplots(figsize=(9, height), layout="constrained")
    shares = frame.groupby("lineup")["outcome"].value_counts(normalize=True).unstack(fill_value=0.0)
    games = frame.groupby("lineup").size()
    kinds = [k for k in OUTCOME_COLORS if k in shares.columns]
    kinds += sorted(k for k in shares.columns if k not in OUTCOME_COLORS)
    lineups = list(dict.fromkeys(frame["lineup"]))  # first-seen order, top to bottom
    shares = shares.loc[lineups, kinds]
    left = [0.0] * len(lineups)
    for kind in kinds:
        values = shares[kind].tolist()
        bars = ax.barh(
            range(len(lineups)),
            values,
            left=left,
            color=OUTCOME_COLORS.get(kind, "#CCCCCC"),
            edgecolor="white",
            label=OUTCOME_LABELS.get(kind, kind),
            gid=f"outcome-{kind}",
        )
        for i, (bar, v) in enumerate(zip(bars, values)):
            bar.set_gid(f"outcome-{kind}-{i}")
            if v >= 0.08:
                ax.text(
                    left[i] + v / 2,
                    i,
                    f"{v:.0%}",
                    ha="center",
                    va="center",
                    fontsize=11,
                    color="white" if kind != "unfinished" else "black",
                )
        left = [a + b for a, b in zip(left, values)]
    ax.set_yticks(range(len(lineups)), [f"{lu}\n({games[lu]} games)" for lu in lineups])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter("{x:.0%}")
    _labels(ax, "share of games", "line-up (bots in seat order)", "How the games ended", pad=28)
    ax.legend(
        loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(kinds), frameon=False, fontsize=10
    )
    if panel is not None:
        rates = win_rates(frame)
        seats = sum(1 for c in frame.columns if re.fullmatch(r"bot_\d+", str(c)))
        panel.barh(range(len(rates)), rates["win_rate"], color="#56B4E9", gid="win-rate")
        for i, (_bot, row) in enumerate(rates.iterrows()):
            panel.text(
                row["win_rate"] + 0.01,
                i,
                f"{row['win_rate']:.0%} of {int(row['seats'])}",
                va="center",
                fontsize=11,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1, "alpha": 0.8},
            )
        panel.set_yticks(range(len(rates)), list(rates.index))
        panel.axvline(
            1 / seats, color="black", linestyle="--", linewidth=1, label=f"chance (1 in {seats})"
        )
        panel.xaxis.set_major_formatter("{x:.0%}")
        panel.set_xlim(0, max(0.5, float(rates["win_rate"].max()) + 0.2))
        _labels(
            ax=panel,
            xlabel="games won per seat played",
            ylabel="bot",
            title="Win rate per bot",
            pad=28,
        )
        panel.legend(loc="lower right", fontsize=10)
    return ax
