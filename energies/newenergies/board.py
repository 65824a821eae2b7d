"""Static island topology: hexes, corners, paths, harbors and the board layouts (rules 1-2).

The topology of the standard 19-hex island never changes, so every id is fixed
and independent of the layout; a layout only decides terrain, number tokens
and harbor types.  Ids:

* hexes 0..18 in row order (rows of 3, 4, 5, 4, 3; each row left to right);
* corners 0..53 sorted top-to-bottom, then left-to-right;
* paths 0..71 sorted by their (smaller corner, larger corner) pair;
* harbors 0..8 clockwise around the coast, starting at the top-left hex.

Drawing coordinates use pointy-top hexes of unit side with y growing upward.
A :class:`Board` is immutable; :func:`energies.layouts.build_board` caches one per layout.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..kit.i18n import N_, joined, msg

TERRAIN_RESOURCE: dict[str, str | None] = {
    "forest": "lumber",
    "hills": "brick",
    "pasture": "fiber",
    "fields": "food",
    "mountains": "steel",
    "desert": None,
}
RESOURCES = ("lumber", "brick", "fiber", "food", "steel")
PIPS: dict[int, int] = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
# The island's words said in the reader's language (energies.kit.i18n); the rules' vocabulary
# adds the cards, plants and events to them.
TERRAIN_WORDS = {
    "forest": N_("Forest"),
    "hills": N_("Hills"),
    "pasture": N_("Pasture"),
    "fields": N_("Fields"),
    "mountains": N_("Mountains"),
    "desert": N_("Desert"),
}
RESOURCE_WORDS = {
    "lumber": N_("lumber"),
    "brick": N_("brick"),
    "fiber": N_("fiber"),
    "food": N_("food"),
    "steel": N_("steel"),
}
#: The templates of a corner and a path in sentences; apps that name places their own way
#: look for them (``energies.kit.i18n.Replace``).
CORNER = N_("corner {corner} ({hexes})")
PATH = N_("path {path} (corners {a}-{b})")

TERRAIN_COUNTS = {"forest": 4, "hills": 3, "pasture": 4, "fields": 4, "mountains": 3, "desert": 1}
# Tokens A-R of the published spiral set-up (rule 2.2), in letter order.
SPIRAL_TOKENS = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)
LAYOUTS = ("beginner", "random")
NUMBER_MODES = ("spiral", "shuffled")

# Base-game beginner board (rule 2.2 [H]), hex ids 0..18 in row order.
BEGINNER_HEXES: tuple[tuple[str, int | None], ...] = (
    ("mountains", 10),
    ("pasture", 2),
    ("forest", 9),
    ("fields", 12),
    ("hills", 6),
    ("pasture", 4),
    ("hills", 10),
    ("fields", 9),
    ("forest", 11),
    ("desert", None),
    ("forest", 3),
    ("mountains", 8),
    ("forest", 8),
    ("mountains", 3),
    ("fields", 4),
    ("pasture", 5),
    ("hills", 5),
    ("fields", 6),
    ("pasture", 11),
)
# Beginner harbor types for harbors 0..8, clockwise from the top-left [H].
BEGINNER_HARBORS: tuple[str | None, ...] = (
    None,
    "fiber",
    None,
    None,
    "brick",
    "lumber",
    None,
    "food",
    "steel",
)
# Harbor slots: indices into the 30 coastal paths taken clockwise from the
# top-left hex's upper-left path.  The gaps 3,3,4 (repeated) mimic the
# base-game frame: harbors spread evenly and never share a corner.
HARBOR_SLOTS = (0, 3, 6, 10, 13, 16, 20, 23, 26)
_NO_HARBOR = "no harbor"  # a corner's harbor kind when it has none (None means 3:1)
_NONE_REACHED = frozenset({_NO_HARBOR})

# Axial hex coordinates (q, r), r growing downward row by row, in hex-id order.
_COORDS: tuple[tuple[int, int], ...] = tuple(
    (q, r) for r in range(-2, 3) for q in range(max(-2, -2 - r), min(2, 2 - r) + 1)
)
_AXIAL_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# Corner offsets of a pointy-top hex on an integer lattice whose units are
# (sqrt(3)/2, 1/2); clockwise from the top corner.  Integers make corner
# identification exact (no float rounding).
_CORNER_OFFSETS = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))
_SQRT3 = math.sqrt(3.0)


def _angle(x: float, y: float) -> float:
    """Counter-clockwise angle in [0, 2*pi) of a drawing position around the centre."""
    return math.atan2(y, x) % (2 * math.pi)


_HEX_INDEX = {qr: h for h, qr in enumerate(_COORDS)}
# Side-sharing land hexes of each hex, ascending.
_HEX_NEIGHBORS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            _HEX_INDEX[(q + dq, r + dr)] for dq, dr in _AXIAL_DIRS if (q + dq, r + dr) in _HEX_INDEX
        )
    )
    for q, r in _COORDS
)


def _hex_center(h: int) -> tuple[float, float]:
    q, r = _COORDS[h]
    return (_SQRT3 * (q + r / 2), 1.5 * -r)  # "* -r" avoids a -0.0 on the middle row


# The 6 outer hexes on the island's corners (the only hexes with 3 land neighbours).
CORNER_HEXES = tuple(h for h in range(19) if len(_HEX_NEIGHBORS[h]) == 3)


def spiral_order(start: int) -> tuple[int, ...]:
    """All 19 hex ids in the published spiral order (rule 2.2).

    Starts at ``start`` (one of :data:`CORNER_HEXES`), runs counter-clockwise
    round the outer ring, continues on the inner ring from the hex touching
    ``start``, and ends on the centre hex.  Consecutive hexes are neighbours.
    """
    if start not in CORNER_HEXES:
        raise ValueError(
            f"The spiral must start on an outer corner hex, one of {CORNER_HEXES}; got {start!r}."
        )
    a0 = _angle(*_hex_center(start))
    order: list[int] = []
    for ring in (2, 1):
        ring_hexes = [
            h for h, (q, r) in enumerate(_COORDS) if max(abs(q), abs(r), abs(q + r)) == ring
        ]
        # Inner hex "d" sits at the same angle as corner hex "2d", so the
        # same starting angle continues the spiral inward seamlessly.
        ring_hexes.sort(key=lambda h: round((_angle(*_hex_center(h)) - a0) % (2 * math.pi), 9))
        order.extend(ring_hexes)
    order.append(_COORDS.index((0, 0)))
    return tuple(order)


@dataclass(frozen=True)
class Hex:
    """One land hex: terrain, resource, number token and geometry."""

    id: int
    terrain: str
    resource: str | None
    number: int | None
    corners: tuple[int, ...]
    coord: tuple[int, int]
    center: tuple[float, float]

    def __str__(self) -> str:
        name = _terrain_name(self.terrain)  # "Fields", in any language
        if self.number is None:
            return name
        return msg(N_("{terrain} {number}"), terrain=name, number=self.number)


@functools.cache  # six terrains, named in every hex's name: each message made once
def _terrain_name(terrain: str) -> str:
    known = TERRAIN_WORDS.get(terrain)
    return msg(known) if known else terrain.capitalize()


def _resource(name: str) -> str:
    known = RESOURCE_WORDS.get(name)
    return msg(known) if known else name


@dataclass(frozen=True)
class Harbor:
    """A harbor on one coastal path; both its corners may use it."""

    id: int
    resource: str | None
    rate: int
    path: int
    corners: tuple[int, int]

    def __str__(self) -> str:
        if self.resource is None:
            return msg(N_("{rate}:1 harbor"), rate=self.rate)
        return msg(
            N_("{rate}:1 {resource} harbor"), rate=self.rate, resource=_resource(self.resource)
        )


class Board:
    """Immutable. Built once per layout.

    Every query is precomputed into tuples so that lookups in simulation hot
    loops are O(1).  Prefer :func:`energies.layouts.build_board` to constructing one directly.
    """

    def __init__(
        self,
        layout: str,
        terrains: Sequence[str],
        numbers: Sequence[int | None],
        harbor_resources: Sequence[str | None],
        harbor_rates: tuple[int, int] = (3, 2),
    ) -> None:
        """Build the board from per-hex terrains/numbers and per-slot harbor types;
        ``harbor_rates``: (generic, special) as the rule set trades (rule 12.3 [H] fields)."""
        if len(terrains) != 19 or len(numbers) != 19 or len(harbor_resources) != 9:
            raise ValueError("A board needs 19 terrains, 19 numbers and 9 harbor types.")
        s = functools.partial(object.__setattr__, self)  # bypass our own immutability guard
        s(
            "_args",
            (layout, tuple(terrains), tuple(numbers), tuple(harbor_resources), tuple(harbor_rates)),
        )
        s("layout", layout)
        s("corners", range(54))

        # Corners: identify by exact lattice position, then id by (-y, x).
        hex_lattice = [
            [(cx + dx, cy + dy) for dx, dy in _CORNER_OFFSETS]
            for cx, cy in ((2 * q + r, -3 * r) for q, r in _COORDS)
        ]
        points = sorted({p for pts in hex_lattice for p in pts}, key=lambda p: (-p[1], p[0]))
        assert len(points) == 54
        cid = {p: i for i, p in enumerate(points)}
        hex_corners = tuple(tuple(cid[p] for p in pts) for pts in hex_lattice)
        s("_hex_corners", hex_corners)

        hexes = tuple(
            Hex(
                h,
                terrains[h],
                TERRAIN_RESOURCE[terrains[h]],
                numbers[h],
                hex_corners[h],
                _COORDS[h],
                _hex_center(h),
            )
            for h in range(19)
        )
        s("hexes", hexes)
        s("desert", next(h.id for h in hexes if h.terrain == "desert"))

        # Paths: consecutive corners around each hex; remember how many hexes share each.
        path_hex_count: dict[tuple[int, int], int] = {}
        for cs in hex_corners:
            for i in range(6):
                a, b = sorted((cs[i], cs[(i + 1) % 6]))
                path_hex_count[(a, b)] = path_hex_count.get((a, b), 0) + 1
        paths = tuple(sorted(path_hex_count))
        s("paths", paths)
        s("path_ends", paths)
        s("_path_id", {pair: i for i, pair in enumerate(paths)})

        c_hexes: list[list[int]] = [[] for _ in range(54)]
        for h, cs in enumerate(hex_corners):
            for c in cs:
                c_hexes[c].append(h)
        s("corner_hexes_of", tuple(tuple(x) for x in c_hexes))
        s(
            "corner_paths_of",
            tuple(tuple(p for p, pair in enumerate(paths) if c in pair) for c in range(54)),
        )
        s(
            "corner_neighbors_of",
            tuple(
                tuple(sorted(a + b - c for a, b in (paths[p] for p in ps)))
                for c, ps in enumerate(self.corner_paths_of)
            ),
        )

        # Coast: paths on exactly one hex; ordered clockwise (decreasing angle)
        # from the top-left hex's upper-left path, i.e. from its left corner.
        pos = tuple((x * _SQRT3 / 2, y / 2) for x, y in points)
        coastal = [p for p, pair in enumerate(paths) if path_hex_count[pair] == 1]
        start = _angle(*pos[hex_corners[0][5]])

        def cw_key(p: int) -> float:
            a, b = paths[p]
            mid = ((pos[a][0] + pos[b][0]) / 2, (pos[a][1] + pos[b][1]) / 2)
            return round((start - _angle(*mid)) % (2 * math.pi), 9)

        coastal.sort(key=cw_key)
        s("coastal_paths", tuple(coastal))
        generic, special = harbor_rates  # the labels say what a trade costs
        harbors = tuple(
            Harbor(i, res, generic if res is None else special, coastal[slot], paths[coastal[slot]])
            for i, (slot, res) in enumerate(zip(HARBOR_SLOTS, harbor_resources))
        )
        s("harbors", harbors)
        c_harbor: list[Harbor | None] = [None] * 54
        for hb in harbors:
            for c in hb.corners:
                c_harbor[c] = hb
        s("_corner_harbor", tuple(c_harbor))
        s("_corner_harbor_kind", tuple(_NO_HARBOR if h is None else h.resource for h in c_harbor))
        coastal_corners = frozenset(c for p in coastal for c in paths[p])

        s("_hex_neighbors", _HEX_NEIGHBORS)
        by_number: dict[int, list[int]] = {}
        for hx in hexes:
            if hx.number is not None:
                by_number.setdefault(hx.number, []).append(hx.id)
        s("_by_number", {n: tuple(hs) for n, hs in by_number.items()})
        s(
            "_corner_pips",
            tuple(
                sum(PIPS[hexes[h].number] for h in c_hexes[c] if hexes[h].number is not None)
                for c in range(54)
            ),
        )
        s(
            "_corner_numbered",
            tuple(tuple(h for h in c_hexes[c] if hexes[h].number is not None) for c in range(54)),
        )
        s(
            "_corner_resources",
            tuple(
                tuple(sorted({hexes[h].resource for h in c_hexes[c]} - {None})) for c in range(54)
            ),
        )
        s(
            "_corner_text",
            tuple(
                msg(CORNER, corner=c, hexes=joined([hexes[h].__str__() for h in c_hexes[c]], " / "))
                for c in range(54)
            ),
        )

        s("corner_positions", pos)
        s("_coastal_corners", coastal_corners)

    @functools.cached_property
    def graph(self):
        """The island as a frozen ``networkx.Graph``: corners are nodes, paths are edges.

        Node attributes: ``pos`` (x, y), ``hexes``, ``harbor`` (id or None),
        ``coastal``; edge attribute: ``path`` (id). Built on first use so that
        ``import energies`` stays fast; the engine itself reads the cached tuples.
        """
        import networkx as nx

        g = nx.Graph()
        for c in range(54):
            hb = self._corner_harbor[c]
            g.add_node(
                c,
                pos=self.corner_positions[c],
                hexes=self.corner_hexes_of[c],
                harbor=None if hb is None else hb.id,
                coastal=c in self._coastal_corners,
            )
        for p, (a, b) in enumerate(self.paths):
            g.add_edge(a, b, path=p)
        return nx.freeze(g)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Board is immutable")

    def __reduce__(self) -> tuple:
        return (Board, self._args)

    def __copy__(self) -> Board:
        return self  # immutable: sharing is safe and keeps copies of game states cheap

    def __deepcopy__(self, memo: dict) -> Board:
        return self

    def __repr__(self) -> str:
        return f"<Board {self.layout}: desert on hex {self.desert}>"

    def hex_corners(self, h: int) -> tuple[int, ...]:
        """The 6 corner ids of hex ``h``, clockwise from its top corner."""
        return self._hex_corners[h]

    def corner_hexes(self, c: int) -> tuple[int, ...]:
        """The 1..3 land hexes touching corner ``c``, ascending."""
        return self.corner_hexes_of[c]

    def corner_paths(self, c: int) -> tuple[int, ...]:
        """The 2 or 3 path ids ending at corner ``c``, ascending."""
        return self.corner_paths_of[c]

    def corner_neighbors(self, c: int) -> tuple[int, ...]:
        """The corners one path away from corner ``c``, ascending."""
        return self.corner_neighbors_of[c]

    def path_corners(self, p: int) -> tuple[int, int]:
        """The two end corners ``(a, b)`` of path ``p``, with ``a < b``."""
        return self.paths[p]

    def path_between(self, a: int, b: int) -> int | None:
        """The path id joining corners ``a`` and ``b``, or None if they are not adjacent."""
        return self._path_id.get((a, b) if a < b else (b, a))

    def harbor_of(self, c: int) -> Harbor | None:
        """The harbor usable from corner ``c``, if any."""
        return self._corner_harbor[c]

    def harbors_reached(self, corners: Iterable[int]) -> frozenset[str | None]:
        """The harbors usable from these corners, by resource (None: a 3:1 harbor)."""
        return frozenset(map(self._corner_harbor_kind.__getitem__, corners)) - _NONE_REACHED

    def hex_neighbors(self, h: int) -> tuple[int, ...]:
        """The land hexes sharing a side with hex ``h``, ascending."""
        return self._hex_neighbors[h]

    def hexes_with_number(self, n: int) -> tuple[int, ...]:
        """The hexes carrying number token ``n`` (empty for 7 or a missing number)."""
        return self._by_number.get(n, ())

    def corner_pips(self, c: int) -> int:
        """Sum of the token dots of the numbered hexes around corner ``c`` (a yield estimate)."""
        return self._corner_pips[c]

    def corner_numbered_hexes(self, c: int) -> tuple[int, ...]:
        """The hexes around corner ``c`` that carry a number token (not the desert), ascending."""
        return self._corner_numbered[c]

    def corner_resources(self, c: int) -> tuple[str, ...]:
        """The different resources produced around corner ``c``, sorted (desert excluded)."""
        return self._corner_resources[c]

    def hex_table(self) -> list[dict]:
        """One plain dict per hex: id, terrain, resource, number, pips (0 for the desert)."""
        return [
            {
                "id": h.id,
                "terrain": h.terrain,
                "resource": h.resource,
                "number": h.number,
                "pips": 0 if h.number is None else PIPS[h.number],
            }
            for h in self.hexes
        ]

    def describe_corner(self, c: int) -> str:
        """Short text for action strings, e.g. ``corner 17 (Fields 12 / Hills 6 / Forest 11)``."""
        return self._corner_text[c]

    def describe_path(self, p: int) -> str:
        """Short text for action strings, e.g. ``path 40 (corners 28-33)``."""
        a, b = self.paths[p]
        return msg(PATH, path=p, a=a, b=b)
