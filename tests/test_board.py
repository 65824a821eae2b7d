"""Tests for energies.newenergies.board: island topology, layouts and harbors (rules 1-2)."""

from __future__ import annotations

import copy
import dataclasses
import math
import os
import pickle
import subprocess
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from energies.newenergies.board import (
    CORNER_HEXES,
    PIPS,
    RESOURCES,
    SPIRAL_TOKENS,
    TERRAIN_RESOURCE,
    Board,
    spiral_order,
)
from energies.newenergies.layouts import build_board

TERRAINS = {"forest": 4, "hills": 3, "pasture": 4, "fields": 4, "mountains": 3, "desert": 1}
TOKENS = Counter({2: 1, 12: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2})
BEGINNER_ROWS = [
    [("mountains", 10), ("pasture", 2), ("forest", 9)],
    [("fields", 12), ("hills", 6), ("pasture", 4), ("hills", 10)],
    [("fields", 9), ("forest", 11), ("desert", None), ("forest", 3), ("mountains", 8)],
    [("forest", 8), ("mountains", 3), ("fields", 4), ("pasture", 5)],
    [("hills", 5), ("fields", 6), ("pasture", 11)],
]
CENTER_HEX = 9


def _boards() -> list[Board]:
    return [build_board(), build_board("random", 3), build_board("random", 4, "shuffled")]


@pytest.fixture(params=range(3), ids=["beginner", "random-spiral", "random-shuffled"])
def board(request: pytest.FixtureRequest) -> Board:
    return _boards()[request.param]


# --- constants ---------------------------------------------------------------


def test_constants() -> None:
    assert RESOURCES == ("lumber", "brick", "fiber", "food", "steel")
    assert TERRAIN_RESOURCE == {
        "forest": "lumber",
        "hills": "brick",
        "pasture": "fiber",
        "fields": "food",
        "mountains": "steel",
        "desert": None,
    }
    assert PIPS == {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    assert Counter(SPIRAL_TOKENS) == TOKENS


# --- components (rule 1, 2.1) -----------------------------------------------


def test_terrain_and_tokens(board: Board) -> None:
    assert len(board.hexes) == 19
    assert [h.id for h in board.hexes] == list(range(19))
    assert Counter(h.terrain for h in board.hexes) == TERRAINS
    assert all(h.resource == TERRAIN_RESOURCE[h.terrain] for h in board.hexes)
    assert Counter(h.number for h in board.hexes if h.number is not None) == TOKENS
    assert board.hexes[board.desert].terrain == "desert"
    assert board.hexes[board.desert].number is None
    assert sum(h.number is None for h in board.hexes) == 1


def test_counts_corners_paths(board: Board) -> None:
    assert board.corners == range(54)
    assert len(board.paths) == 72
    assert len(set(board.paths)) == 72
    assert list(board.paths) == sorted(board.paths)
    assert all(a < b for a, b in board.paths)
    assert board.graph.number_of_nodes() == 54
    assert board.graph.number_of_edges() == 72


def test_corner_degrees_and_coast(board: Board) -> None:
    degrees = Counter(len(board.corner_paths(c)) for c in board.corners)
    assert set(degrees) == {2, 3}
    # Coastal paths (on one hex only) form one 30-cycle round the island.
    path_hexes = Counter()
    for h in range(19):
        cs = board.hex_corners(h)
        for i in range(6):
            path_hexes[board.path_between(cs[i], cs[(i + 1) % 6])] += 1
    coastal = [p for p in range(72) if path_hexes[p] == 1]
    assert sorted(board.coastal_paths) == coastal
    coast = nx.Graph(board.paths[p] for p in coastal)
    assert coast.number_of_nodes() == 30 and coast.number_of_edges() == 30
    assert nx.is_connected(coast) and all(d == 2 for _, d in coast.degree())
    # coastal_paths is that cycle walked in order: neighbours share a corner.
    cp = board.coastal_paths
    assert all(set(board.paths[cp[i]]) & set(board.paths[cp[i - 1]]) for i in range(30))
    # Degree-2 corners are exactly the coastal corners touching one hex.
    deg2 = {c for c in board.corners if len(board.corner_paths(c)) == 2}
    assert deg2 == {c for c in coast if len(board.corner_hexes(c)) == 1}
    assert degrees == Counter({2: 18, 3: 36})
    assert {c for c in board.corners if board.graph.nodes[c]["coastal"]} == set(coast)


def test_hex_corners(board: Board) -> None:
    for h in board.hexes:
        assert len(h.corners) == 6 and len(set(h.corners)) == 6
        assert board.hex_corners(h.id) == h.corners
        pts = [board.graph.nodes[c]["pos"] for c in h.corners]
        # Clockwise from the top corner (y grows upward): angle decreases.
        assert max(pts, key=lambda p: p[1]) == pts[0]
        angles = [math.atan2(y - h.center[1], x - h.center[0]) for x, y in pts]
        assert all(
            ((angles[i] - angles[i + 1]) % (2 * math.pi)) == pytest.approx(math.pi / 3)
            for i in range(5)
        )
        assert all(math.dist(p, h.center) == pytest.approx(1.0) for p in pts)
        # Consecutive corners are joined by a path.
        assert all(board.path_between(h.corners[i - 1], h.corners[i]) is not None for i in range(6))


def test_corner_hexes(board: Board) -> None:
    for c in board.corners:
        hs = board.corner_hexes(c)
        assert 1 <= len(hs) <= 3 and list(hs) == sorted(hs)
        assert all(c in board.hex_corners(h) for h in hs)
        assert board.graph.nodes[c]["hexes"] == hs
    assert sum(len(board.corner_hexes(c)) for c in board.corners) == 19 * 6
    assert Counter(len(board.corner_hexes(c)) for c in board.corners) == {1: 18, 2: 12, 3: 24}


def test_ids_and_geometry_are_layout_independent() -> None:
    a, b = build_board(), build_board("random", 11)
    assert a.paths == b.paths
    assert [h.corners for h in a.hexes] == [h.corners for h in b.hexes]
    assert [h.path for h in a.harbors] == [h.path for h in b.harbors]
    # Corner ids follow position: top-to-bottom, then left-to-right.
    pos = [a.graph.nodes[c]["pos"] for c in a.corners]
    keys = [(-round(y, 6), round(x, 6)) for x, y in pos]
    assert keys == sorted(keys) and len(set(keys)) == 54
    # Hex ids in row order; the top row has the largest y.
    ys = [h.center[1] for h in a.hexes]
    assert ys[0] == max(ys) and ys[18] == min(ys)
    assert a.hexes[CENTER_HEX].coord == (0, 0) and a.hexes[CENTER_HEX].center == (0.0, 0.0)
    rows = [a.hexes[i:j] for i, j in ((0, 3), (3, 7), (7, 12), (12, 16), (16, 19))]
    for row in rows:
        assert len({h.center[1] for h in row}) == 1
        assert [h.center[0] for h in row] == sorted(h.center[0] for h in row)


# --- queries ------------------------------------------------------------------


def test_paths_and_neighbors(board: Board) -> None:
    for p, (a, b) in enumerate(board.paths):
        assert board.path_corners(p) == (a, b) == board.path_ends[p]
        assert board.path_between(a, b) == p == board.path_between(b, a)
        assert p in board.corner_paths(a) and p in board.corner_paths(b)
    assert board.path_between(0, 53) is None
    assert board.path_between(0, 0) is None
    for c in board.corners:
        assert set(board.corner_neighbors(c)) == set(board.graph.neighbors(c))
        assert len(board.corner_neighbors(c)) == len(board.corner_paths(c))
        assert board.corner_neighbors_of[c] == board.corner_neighbors(c)
        assert board.corner_paths_of[c] == board.corner_paths(c)
        assert board.corner_hexes_of[c] == board.corner_hexes(c)


def test_hex_neighbors(board: Board) -> None:
    for h in range(19):
        ns = board.hex_neighbors(h)
        assert h not in ns and list(ns) == sorted(ns)
        for n in ns:
            assert h in board.hex_neighbors(n)
            assert len(set(board.hex_corners(h)) & set(board.hex_corners(n))) == 2
        others = set(range(19)) - set(ns) - {h}
        assert all(len(set(board.hex_corners(h)) & set(board.hex_corners(o))) == 0 for o in others)
    assert len(board.hex_neighbors(CENTER_HEX)) == 6
    assert sorted(h for h in range(19) if len(board.hex_neighbors(h)) == 3) == list(CORNER_HEXES)
    assert CORNER_HEXES == (0, 2, 7, 11, 16, 18)


def test_numbers_and_pips(board: Board) -> None:
    for n in TOKENS:
        hs = board.hexes_with_number(n)
        assert len(hs) == TOKENS[n]
        assert all(board.hexes[h].number == n for h in hs)
    assert board.hexes_with_number(7) == ()
    for c in board.corners:
        expected = sum(
            PIPS[board.hexes[h].number]
            for h in board.corner_hexes(c)
            if board.hexes[h].number is not None
        )
        assert board.corner_pips(c) == expected
    table = board.hex_table()
    assert [row["id"] for row in table] == list(range(19))
    assert set(table[0]) == {"id", "terrain", "resource", "number", "pips"}
    assert table[board.desert]["pips"] == 0 and table[board.desert]["resource"] is None
    assert sum(row["pips"] for row in table) == sum(PIPS[n] * k for n, k in TOKENS.items())


def test_beginner_values() -> None:
    b = build_board()
    # corner 17 touches Fields 12, Hills 6, Forest 11 -> 1 + 5 + 2 pips.
    assert b.corner_hexes(17) == (3, 4, 8)
    assert b.corner_pips(17) == 8
    assert b.corner_resources(17) == ("brick", "food", "lumber")
    desert_corner = b.hexes[b.desert].corners[0]  # the desert adds no resource
    assert len(b.corner_resources(desert_corner)) == len(b.corner_hexes(desert_corner)) - 1
    assert b.corner_numbered_hexes(17) == (3, 4, 8)  # where plants may stand (rule 10.2)
    assert b.corner_numbered_hexes(desert_corner) == tuple(
        h for h in b.corner_hexes(desert_corner) if h != b.desert
    )
    assert b.describe_corner(17) == "corner 17 (Fields 12 / Hills 6 / Forest 11)"
    assert b.describe_corner(0) == "corner 0 (Mountains 10)"
    assert b.describe_path(40) == "path 40 (corners 28-33)"
    assert b.hexes_with_number(8) == (11, 12)
    assert str(b.hexes[7]) == "Fields 9" and str(b.hexes[b.desert]) == "Desert"


# --- harbors ------------------------------------------------------------------


def test_harbors(board: Board) -> None:
    hs = board.harbors
    assert len(hs) == 9 and [h.id for h in hs] == list(range(9))
    coastal = set(board.coastal_paths)
    assert all(h.path in coastal and board.path_corners(h.path) == h.corners for h in hs)
    corners = [c for h in hs for c in h.corners]
    assert len(set(corners)) == 18  # no two harbors share a corner
    assert Counter(h.resource for h in hs) == Counter({None: 4, **{r: 1 for r in RESOURCES}})
    assert all(h.rate == (3 if h.resource is None else 2) for h in hs)
    for c in board.corners:
        hb = board.harbor_of(c)
        assert board.graph.nodes[c]["harbor"] == (None if hb is None else hb.id)
        assert (hb is not None) == (c in corners)
        if hb is not None:
            assert c in hb.corners
    # what a player with buildings on these corners may use (rule 12.3)
    assert board.harbors_reached([]) == frozenset()
    assert board.harbors_reached([c for c in board.corners if c not in corners]) == frozenset()
    assert board.harbors_reached(corners) == {h.resource for h in hs}
    assert board.harbors_reached(hs[1].corners + (hs[1].corners[0],)) == {hs[1].resource}
    # Slots spaced 3,3,4 along the coastal cycle.
    slots = [board.coastal_paths.index(h.path) for h in hs]
    assert slots == [0, 3, 6, 10, 13, 16, 20, 23, 26]


def test_beginner_harbors() -> None:
    b = build_board()
    assert [h.resource for h in b.harbors] == [
        None,
        "fiber",
        None,
        None,
        "brick",
        "lumber",
        None,
        "food",
        "steel",
    ]
    # Harbor 0 sits on the top-left hex's upper-left path.
    assert b.harbors[0].corners == (0, 3) and b.corner_hexes(0) == (0,)
    assert str(b.harbors[0]) == "3:1 harbor"
    assert str(b.harbors[8]) == "2:1 steel harbor"


# --- layouts (rule 2.2) --------------------------------------------------------


def test_beginner_layout_matches_rows() -> None:
    b = build_board("beginner")
    assert b.layout == "beginner"
    flat = [cell for row in BEGINNER_ROWS for cell in row]
    assert [(h.terrain, h.number) for h in b.hexes] == flat
    assert b.desert == CENTER_HEX


def test_random_is_deterministic_and_seeded() -> None:
    def sig(b: Board) -> tuple:
        return (tuple((h.terrain, h.number) for h in b.hexes), tuple(h.resource for h in b.harbors))

    for numbers in ("spiral", "shuffled"):
        a = build_board("random", 7, numbers)
        fresh = Board(*a.__reduce__()[1])
        assert sig(a) == sig(fresh)
        assert a.layout == "random"
        sigs = {sig(build_board("random", s, numbers)) for s in range(10)}
        assert len(sigs) == 10
        harbor_orders = {sig(build_board("random", s, numbers))[1] for s in range(10)}
        assert len(harbor_orders) > 1


def test_random_rebuild_without_cache_is_identical() -> None:
    # Bypass the cache to prove the seed alone fixes the board.
    from energies.newenergies import layouts as mod

    for numbers in ("spiral", "shuffled"):
        first = mod._build.__wrapped__("random", 5, numbers)
        second = mod._build.__wrapped__("random", 5, numbers)
        assert first is not second
        assert [(h.terrain, h.number) for h in first.hexes] == [
            (h.terrain, h.number) for h in second.hexes
        ]
        assert [h.resource for h in first.harbors] == [h.resource for h in second.harbors]


def test_shuffled_never_puts_red_numbers_together() -> None:
    for seed in range(50):
        b = build_board("random", seed, "shuffled")
        assert Counter(h.number for h in b.hexes if h.number) == TOKENS
        for h in b.hexes:
            if h.number in (6, 8):
                assert all(b.hexes[n].number not in (6, 8) for n in b.hex_neighbors(h.id)), seed


@pytest.mark.parametrize("start", CORNER_HEXES)
def test_spiral_order(start: int) -> None:
    b = build_board()
    order = spiral_order(start)
    assert sorted(order) == list(range(19))
    assert order[0] == start and order[-1] == CENTER_HEX
    assert all(order[i + 1] in b.hex_neighbors(order[i]) for i in range(18))
    assert all(len(b.hex_neighbors(h)) < 6 for h in order[:12])  # outer ring first
    # Counter-clockwise (y up): the angle round the centre grows along the outer ring.
    ang = [math.atan2(b.hexes[h].center[1], b.hexes[h].center[0]) for h in order[:12]]
    assert all(
        (ang[i + 1] - ang[i]) % (2 * math.pi) == pytest.approx(math.pi / 6) for i in range(11)
    )


def test_spiral_order_known_and_invalid() -> None:
    # From the top-left hex, counter-clockwise goes down the left side first.
    assert spiral_order(0)[:5] == (0, 3, 7, 12, 16)
    with pytest.raises(ValueError, match="corner hex"):
        spiral_order(9)


def test_spiral_numbers_follow_tokens() -> None:
    for seed in range(20):
        b = build_board("random", seed, "spiral")
        laid = [
            tuple(b.hexes[h].number for h in spiral_order(s) if h != b.desert) for s in CORNER_HEXES
        ]
        assert SPIRAL_TOKENS in laid, seed
    starts = set()
    for seed in range(20):
        b = build_board("random", seed)
        for s in CORNER_HEXES:
            if tuple(b.hexes[h].number for h in spiral_order(s) if h != b.desert) == SPIRAL_TOKENS:
                starts.add(s)
    assert len(starts) > 1  # the starting corner depends on the seed


# --- graph ----------------------------------------------------------------------


def test_graph(board: Board) -> None:
    g = board.graph
    assert nx.is_connected(g)
    assert set(g.nodes) == set(range(54))
    for c, data in g.nodes(data=True):
        assert {"pos", "hexes", "harbor", "coastal"} <= set(data)
        assert len(data["pos"]) == 2
    for a, b, data in g.edges(data=True):
        assert board.paths[data["path"]] == (min(a, b), max(a, b))
    assert sorted(d["path"] for _, _, d in g.edges(data=True)) == list(range(72))
    # Neighbouring corners are one unit apart.
    for a, b in board.paths:
        assert math.dist(g.nodes[a]["pos"], g.nodes[b]["pos"]) == pytest.approx(1.0)


# --- API behaviour ----------------------------------------------------------------


def test_unknown_layout_or_numbers() -> None:
    with pytest.raises(ValueError, match=r"Unknown board layout 'hexagonal'.*'beginner'"):
        build_board("hexagonal")
    with pytest.raises(ValueError, match=r"Unknown number placement 'zigzag'.*'spiral'"):
        build_board("random", 1, "zigzag")
    with pytest.raises(TypeError):
        build_board("random", None)  # an unseeded board must not be cached


def test_cached_and_immutable() -> None:
    assert build_board() is build_board("beginner")
    assert build_board("beginner", seed=9, numbers="shuffled") is build_board()
    assert build_board("random", 2) is build_board("random", 2, "spiral")
    assert build_board("random", 2) is not build_board("random", 3)
    b = build_board()
    with pytest.raises(AttributeError):
        b.desert = 3
    with pytest.raises(AttributeError):
        del b.layout
    with pytest.raises(nx.NetworkXError):
        b.graph.add_edge(0, 53)
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.hexes[0].number = 4
    assert copy.copy(b) is b and copy.deepcopy(b) is b
    clone = pickle.loads(pickle.dumps(b))
    assert clone.paths == b.paths and clone.hex_table() == b.hex_table()
    assert clone.harbors == b.harbors


def test_import_is_light() -> None:
    root = Path(__file__).resolve().parents[1]
    code = (
        "import sys, energies.newenergies.board; "
        "print(sorted(m for m in ('pandas', 'matplotlib') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, check=True
    )
    assert out.stdout.strip() == "[]"
