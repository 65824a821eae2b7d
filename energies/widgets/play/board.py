"""The browser side of the PlayApp: one anywidget (an ES module and a stylesheet, no build step).

Python owns the truth. :class:`PlayView` syncs three kinds of data to the page:

* ``geometry`` — the island once per board: hex outlines, corners, paths, harbors (SVG
  units: board units × 100, y pointing down);
* ``view`` — everything a click can change: pieces, the clickable spots with their options
  and hover sentences, the controls beside the board, readouts, the "what just happened"
  strip, the log; ``view["rev"]`` counts the redraws, ``view["decision_no"]`` the decisions
  (it changes with the game only);
* ``chart`` / ``risk`` / ``burden_chart`` — PNG data URLs of the charts, sent only when
  they change (the chart tab asks for them with a message when it is opened);
* ``answered`` — the token of the last page message handled, set after its redraw.

The page answers with custom messages (``{"type": "act", "action": {...}, "decision_no": n,
"click": "<page>:<k>"}`` and a few others), handled in order by
:class:`~energies.widgets.PlayApp`. A click (an action, "Bots play until my turn", "Step",
"Undo") carries the number of the decision it was made on, and is done only on that decision:
the second click of a double click, or a quick click on a picture the game has since left, is
explained in the status line and never applied to the new decision. The page counts its
clicks until their tokens come back in ``answered`` (its "Working…" note and the root's
``data-busy``), and holds a redraw while a mouse button is down on it, so that no click is
lost to a button replaced under the pointer.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ...viz.pieces import _hazard_xy, _plant_xy
from .words import Wording

STATIC = Path(__file__).resolve().parent / "static"
SCALE = 100  # SVG units per board unit


def _xy(x: float, y: float) -> list[float]:
    return [round(x * SCALE, 1), round(-y * SCALE, 1)]


class PlayView(anywidget.AnyWidget):
    """The PlayApp's page: an SVG board, the controls beside it, readouts and charts."""

    _esm = STATIC / "playapp.js"
    _css = STATIC / "playapp.css"
    geometry = traitlets.Dict().tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    chart = traitlets.Unicode("").tag(sync=True)
    risk = traitlets.Unicode("").tag(sync=True)
    burden_chart = traitlets.Unicode("").tag(sync=True)
    # the token of the last page message handled, set after its redraw: the page's busy count
    answered = traitlets.Unicode("").tag(sync=True)


def board_geometry(board, words: Wording) -> dict[str, Any]:
    """The island's static shapes in SVG units, with the place names the app uses."""
    pos = board.corner_positions
    hexes = []
    for hx in board.hexes:
        x, y = hx.center
        points = [
            _xy(x + math.cos(math.radians(90 + 60 * k)), y + math.sin(math.radians(90 + 60 * k)))
            for k in range(6)
        ]
        hexes.append(
            {
                "id": hx.id,
                "terrain": hx.terrain,
                "number": hx.number,
                "name": words.hex(hx.id),
                "center": _xy(x, y),
                "points": points,
                "pips": _pips(hx.number),
            }
        )
    corners = [{"id": c, "xy": _xy(*pos[c]), "name": words.corner(c)} for c in range(len(pos))]
    paths = [
        {"id": p, "a": _xy(*pos[a]), "b": _xy(*pos[b]), "name": words.path(p)}
        for p, (a, b) in enumerate(board.paths)
    ]
    harbors = []
    for hb in board.harbors:
        (ax_, ay), (bx, by) = (pos[c] for c in hb.corners)
        mx, my = (ax_ + bx) / 2, (ay + by) / 2
        hx_, hy_ = next(h.center for h in board.hexes if set(hb.corners) <= set(h.corners))
        d = math.hypot(mx - hx_, my - hy_)
        lx, ly = mx + 0.62 * (mx - hx_) / d, my + 0.62 * (my - hy_) / d
        harbors.append(
            {
                "xy": _xy(lx, ly),
                "piers": [_xy(*pos[c]) for c in hb.corners],
                "rate": hb.rate,
                "resource": hb.resource,
                "text": f"{hb.rate}:1" if hb.resource is None else f"{hb.rate}:1 {hb.resource}",
            }
        )
    xs = [p[0] for h in harbors for p in [h["xy"]]] + [c["xy"][0] for c in corners]
    ys = [p[1] for h in harbors for p in [h["xy"]]] + [c["xy"][1] for c in corners]
    pad = 45
    box = [min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad]
    return {"hexes": hexes, "corners": corners, "paths": paths, "harbors": harbors, "box": box}


def _pips(number: int | None) -> int:
    return 0 if number is None else 6 - abs(7 - number)


def board_pieces(state) -> dict[str, Any]:
    """What stands on the board now (seat-coloured pieces, plants, hazards, the Inspector)."""
    board = state.board
    roads, buildings, plants = {}, {}, []
    for p in state.players:
        for path in p.roads:
            roads[path] = p.seat
        for c in p.towns:
            buildings[c] = [p.seat, "town"]
        for c in p.cities:
            buildings[c] = [p.seat, "city"]
        for (corner, h), kind in sorted(p.plants.items()):
            plants.append(
                {
                    "seat": p.seat,
                    "kind": kind,
                    "corner": corner,
                    "hex": h,
                    "xy": _xy(*_plant_xy(board, corner, h)),
                }
            )
    return {
        "roads": {str(k): v for k, v in sorted(roads.items())},
        "buildings": {str(k): v for k, v in sorted(buildings.items())},
        "plants": plants,
        "hex_hazards": sorted(state.hex_hazards),
        "building_hazards": [
            {"corner": c, "xy": _xy(*_hazard_xy(board, c))} for c in sorted(state.building_hazards)
        ],
        "inspector": state.inspector,
    }


def changed_spots(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """Spot keys ("c12", "p40", "h3") whose pieces differ between two :func:`board_pieces`."""
    if before is None:
        return []
    out = []
    for key, prefix in (("roads", "p"), ("buildings", "c")):
        old, new = before[key], after[key]
        out += [prefix + k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]

    def plant_keys(pieces):
        return {(p["hex"], p["corner"], p["kind"]) for p in pieces["plants"]}

    out += sorted({f"h{h}" for h, _c, _k in plant_keys(before) ^ plant_keys(after)})
    out += [f"h{h}" for h in sorted(set(before["hex_hazards"]) ^ set(after["hex_hazards"]))]
    old_bh = {b["corner"] for b in before["building_hazards"]}
    new_bh = {b["corner"] for b in after["building_hazards"]}
    out += [f"c{c}" for c in sorted(old_bh ^ new_bh)]
    if before["inspector"] != after["inspector"]:
        out += [f"h{before['inspector']}", f"h{after['inspector']}"]
    return list(dict.fromkeys(out))
