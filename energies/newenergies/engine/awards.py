"""The two awards: Longest Road (rule 13.6) and the Environmentalist (rule 13.7).

:func:`longest_road` measures a seat's longest continuous road; :func:`update_longest_road`
and :func:`update_environmentalist` hand the award cards on after anything that could change
them (:mod:`energies.effects` calls them after building, the teacher's sandbox after an edit).
"""

from __future__ import annotations

import functools

from ..state import GameState


def longest_road(state: GameState, seat: int) -> int:
    """Length of the seat's longest continuous road; opponents' buildings cut it (rule 13.6).

    A depth-first search over trails (no road used twice). Its cost is bounded: a trail
    branches only at corners where three of the seat's roads meet and passes such a corner
    at most once, and the search starts only where a longest trail can start — at a corner
    where the network ends or branches, or at a cut — so the work grows with the number of
    branch corners, which ``RuleSet.roads`` (at most ``rule_bounds.MAX_ROADS``) keeps small;
    ``benchmarks/longest_road_worst.py`` measures the worst network it can construct.
    """
    roads = state.players[seat].roads
    if not roads:
        return 0
    paths = state.board.paths
    network = {c for path in roads for c in paths[path]}
    # only cuts on the network matter: the same network with the same cuts is looked up
    blocked = frozenset(
        c for p in state.players if p.seat != seat for c in p.buildings() if c in network
    )
    return _longest_road(paths, frozenset(roads), blocked)


@functools.lru_cache(maxsize=4096)
def _longest_road(paths: tuple, roads: frozenset[int], blocked: frozenset[int]) -> int:
    links: dict[int, list[tuple[int, int]]] = {}  # corner -> (road, far corner)
    for path in roads:
        a, b = paths[path]
        links.setdefault(a, []).append((path, b))
        links.setdefault(b, []).append((path, a))
    best = 0
    for component in _components(links):
        size = len({path for c in component for path, _ in links[c]})
        if size <= best:
            continue  # it cannot hold a longer road than one already found
        # A longest trail can always be taken to start at an end, a branch or a cut: one
        # starting in the middle of a plain stretch could be extended backwards (or is a
        # loop, which may start anywhere on it).
        starts = [c for c in component if len(links[c]) != 2 or c in blocked] or component[:1]
        for corner in starts:
            best = max(best, _longest_trail(corner, links, blocked, size))
            if best == size:
                break
    return best


def _components(links: dict[int, list[tuple[int, int]]]) -> list[list[int]]:
    seen: set[int] = set()
    out = []
    for first in sorted(links):
        if first in seen:
            continue
        seen.add(first)
        component, stack = [], [first]
        while stack:
            corner = stack.pop()
            component.append(corner)
            for _, far in links[corner]:
                if far not in seen:
                    seen.add(far)
                    stack.append(far)
        out.append(sorted(component))
    return out


def _longest_trail(start: int, links, blocked: set[int], size: int) -> int:
    used: set[int] = set()

    def walk(corner: int) -> int:
        longest = len(used)
        if longest == size or (used and corner in blocked):
            return longest  # every road used, or an opponent's building cuts the road here
        for path, far in links[corner]:
            if path not in used:
                used.add(path)
                found = walk(far)
                used.remove(path)
                if found > longest:
                    longest = found
                    if longest == size:
                        break
        return longest

    return walk(start)


def holder_road_length(state: GameState, unless: int | None = None) -> int | None:
    """The Longest Road holder's length now (None without a holder, or when the holder is
    ``unless``, whose own building cannot break its road): what :func:`update_longest_road`
    compares with after a change that may break the road."""
    holder = state.longest_road_holder
    return longest_road(state, holder) if holder not in (None, unless) else None


def update_longest_road(
    state: GameState, holder_before: int | None = None, built_by: int | None = None
) -> None:
    """Give, keep, take or set aside the Longest Road card (rule 13.6).

    After a break the holder keeps the card while its road still ties for longest (at
    least ``longest_road_min``); another player takes it only with a strictly longer road;
    several others tying, or nobody at the minimum, set it aside. ``holder_before`` is the
    holder's length before a town was built or a sandbox edit, so that a road the change
    broke can be told apart from one that was only equalled — the ``"set_aside"`` variant
    (the engine before 0.4) takes the card from a broken holder who only ties.
    ``built_by``: the seat that just built a road, the only length a road can change
    (a road cuts nobody's); the others are read from ``state.cache.road_lengths`` if kept.
    """
    rules = state.rules
    cache = state.cache
    kept = cache.road_lengths
    if built_by is not None and kept is not None:
        length = award_length(state, built_by)
        if length == kept[built_by]:  # every length as the last update left it (and the card)
            return
        lengths = dict(kept)
        lengths[built_by] = length
    else:
        lengths = {p.seat: award_length(state, p.seat) for p in state.players}
    cache.road_lengths = lengths
    holder = state.longest_road_holder
    top = max(lengths.values())
    leaders = [s for s, n in lengths.items() if n == top and n >= rules.longest_road_min]
    if holder is None:
        if len(leaders) == 1:
            state.longest_road_holder = leaders[0]
        return
    if lengths[holder] == top and lengths[holder] >= rules.longest_road_min:
        broken = holder_before is not None and lengths[holder] < holder_before
        if broken and len(leaders) > 1 and rules.longest_road_tie_on_break == "set_aside":
            state.longest_road_holder = None
        return  # equalling the holder is not enough: another needs a strictly longer road
    state.longest_road_holder = leaders[0] if len(leaders) == 1 else None


def award_length(state: GameState, seat: int) -> int:
    """The seat's longest road as the award sees it: a network shorter than the minimum
    cannot lead, hold or break a tie, so it counts 0 (which keeps set-up and early turns
    cheap)."""
    if len(state.players[seat].roads) < state.rules.longest_road_min:
        return 0
    return longest_road(state, seat)


def update_environmentalist(state: GameState) -> None:
    # rule 13.7: first to 3 played Cleanups; another takes it only with strictly more
    rules = state.rules
    played = {p.seat: p.dev_played.get("cleanup", 0) for p in state.players}
    holder = state.environmentalist_holder
    best = max(played, key=lambda s: (played[s], s == holder))
    if played[best] < rules.environmentalist_min:
        return
    if holder is None or played[best] > played[holder]:
        state.environmentalist_holder = best
