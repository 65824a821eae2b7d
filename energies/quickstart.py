"""The quick start: every seat's starting town, city and roads placed by a documented heuristic.

The printed start spots of the game are not known (rule 2.3 [H]). On them every city touches
three different resources (rule 3.4), so the quick start first reserves, for every seat, a
city corner touching three different resources wherever the board allows: most pips (dots on
the number tokens around a corner) first, skipping corners next to one already reserved; if
that leaves too few, the set of such corners two apart with the most pips in total. Seats
placing their city earlier (rule 3.3: reverse seat order) get the richer corners. Then:

* a town goes on the free corner with the most pips, ties broken by the number of different
  resources, keeping off the reserved city corners and their neighbours;
* a city goes on its seat's reserved corner (or, on a board with too few such corners, the
  free corner with the most different resources, then the most pips);
* a road points to the neighbouring corner with the most pips.

Remaining ties are broken by the game's set-up random stream. Both readings of rule 3.4 (one
card per hex, one per distinct resource) then give the same hand: one card of each of the
three resources plus science.
"""

from __future__ import annotations

import functools
import itertools
import operator

from .actions import Action, BuildCity, BuildRoad
from .board import Board
from .state import GameState


def reserve_city_corners(board: Board, city_order: list[int]) -> dict[int, int]:
    """Seat -> reserved city corner touching three different resources (as many seats as the
    board allows, richest corner to the seat that places its city first)."""
    pips = board.corner_pips
    candidates = sorted(
        (c for c in board.corners if len(board.corner_resources(c)) == 3),
        key=lambda c: (-pips(c), c),
    )
    chosen: list[int] = []
    for c in candidates:  # greedy: usually enough
        if len(chosen) < len(city_order) and _apart(board, c, chosen):
            chosen.append(c)
    if len(chosen) < len(city_order):
        chosen = _best_spread(board, candidates, len(city_order)) or chosen
    chosen.sort(key=lambda c: (-pips(c), c))
    return dict(zip(city_order, chosen))


def _apart(board: Board, corner: int, others) -> bool:
    """The distance rule (rule 3.3): no other corner on or next to ``corner``."""
    near = set(board.corner_neighbors(corner)) | {corner}
    return near.isdisjoint(others)


def _best_spread(board: Board, candidates: list[int], wanted: int) -> list[int]:
    """The largest set (up to ``wanted``) of candidates two apart, with the most pips."""
    for size in range(wanted, 0, -1):
        sets = [
            combo
            for combo in itertools.combinations(candidates, size)
            if all(_apart(board, c, combo[i + 1 :]) for i, c in enumerate(combo))
        ]
        if sets:
            return list(max(sets, key=lambda combo: sum(map(board.corner_pips, combo))))
    return []


_CORNER = operator.attrgetter("corner")


@functools.lru_cache(maxsize=64)
def _corner_tables(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per corner: its pips, and how many different resources it touches."""
    pips = tuple(map(board.corner_pips, board.corners))
    return pips, tuple(len(board.corner_resources(c)) for c in board.corners)


def quick_start_choice(state: GameState, options: list[Action], reserved: dict[int, int]) -> Action:
    """The quick start's pick among the set-up ``options`` of the seat to place (see above)."""
    board, rng = state.board, state.rng["setup"]
    first = options[0]
    if isinstance(first, BuildRoad):  # the far end: the corner without the building
        pips = board.corner_pips
        ends = [board.path_corners(a.path) for a in options]
        far = [b if state.owner_of(a) is not None else a for a, b in ends]
        scores = [(pips(c), rng.random()) for c in far]
    else:
        # Speed only (the same scores, the same draws): the ~50 options are scored with
        # per-board tables and C-level maps; one draw per option, in the options' order.
        corners = list(map(_CORNER, options))
        pip_table, kinds_table = _corner_tables(board)
        pip_of, kinds_of = pip_table.__getitem__, kinds_table.__getitem__
        draws = [rng.random() for _ in corners]
        if isinstance(first, BuildCity):
            mine = reserved.get(first.seat)
            mine_first = [c == mine for c in corners]
            scores = list(zip(mine_first, map(kinds_of, corners), map(pip_of, corners), draws))
        else:
            # _apart(board, c, reserved corners), read from one set: a corner is next to a
            # reserved corner exactly when a reserved corner is next to it
            near = set(reserved.values())
            near.update(*map(board.corner_neighbors, reserved.values()))
            apart = [c not in near for c in corners]
            scores = list(zip(apart, map(pip_of, corners), map(kinds_of, corners), draws))
    return options[scores.index(max(scores))]
