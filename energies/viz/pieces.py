"""What changes on the board during a game: pieces, hazards, the Inspector, highlights, title.

``_draw_pieces`` is the layer :func:`~energies.viz.draw_board` and
:func:`~energies.viz.board_png` redraw on every call; :func:`highlight_targets`
turns a ``highlight`` argument into the corners, paths, hexes and plant spots it marks.
matplotlib is imported inside the functions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .style import (
    _CITY,
    _FOSSIL,
    _PLANT_FROM_CORNER,
    _TOWN,
    _TRIANGLE,
    _YLIM,
    HAZARD_COLOR,
    HIGHLIGHT_COLOR,
    PLANT_COLORS,
    _shift,
    seat_color,
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
