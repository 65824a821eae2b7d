"""Invariants of the board, recomputed from the raw pieces (part of the test oracle).

The pieces (rules 10.1, 10.2), the plants, LF, GF and VP (rules 4.1, 4.2, 13.8), the
awards and road lengths (rules 13.6, 13.7), hazards and event discs (rules 3.1, 6.2,
6.3, 10.4) and the distance rule (rules 3.3, 10.1). Like the rest of
:func:`energies.invariants.check_invariants`, nothing here calls the state's or the
engine's helpers: each quantity is counted again from the pieces and the rule set.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..rules import ROWS, RuleSet
from ..state import GameState

__all__ = ["board_errors", "distance_errors", "road_length"]


def board_errors(state: GameState, rules: RuleSet) -> list[str]:
    """Every board invariant but the distance rule the state breaks, as sentences."""
    return [
        *_pieces(state, rules),
        *_plants(state, rules),
        *_footprint_and_points(state, rules),
        *_awards(state, rules),
        *_hazards(state, rules),
        *_discs(state, rules),
    ]


# -- pieces on the board (§1, rules 10.1, 10.2) ------------------------------------------------


def _pieces(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    corners, n_paths = state.board.corners, len(state.board.paths)
    limits = {
        "towns": rules.towns,
        "cities": rules.cities,
        "roads": rules.roads,
        "fossil plants": rules.fossil_plants,
        "renewable plants": rules.renewable_plants,
    }
    buildings: list[int] = []
    roads: list[int] = []
    for p in state.players:
        kinds = list(p.plants.values())
        fossil, renewable = kinds.count("fossil"), kinds.count("renewable")
        counts = {
            "towns": len(p.towns),
            "cities": len(p.cities),
            "roads": len(p.roads),
            "fossil plants": fossil,
            "renewable plants": renewable,
        }
        for piece, count in counts.items():
            if count > limits[piece]:
                out.append(
                    f"seat {p.seat} has {count} {piece} on the board, more than the "
                    f"{limits[piece]} it owns (§1)"
                )
        if fossil + renewable != len(kinds):
            out.append(f"seat {p.seat} has plants of unknown kind {sorted(set(kinds))}")
        for c in p.towns | p.cities:
            if not (isinstance(c, int) and c in corners):
                out.append(f"seat {p.seat} has a building on corner {c!r}, which does not exist")
        for r in p.roads:
            if not (isinstance(r, int) and 0 <= r < n_paths):
                out.append(f"seat {p.seat} has a road on path {r!r}, which does not exist")
        buildings += p.towns
        buildings += p.cities
        roads += p.roads
    if len(set(buildings)) != len(buildings):
        for corner, count in sorted(Counter(buildings).items()):
            if count > 1:
                out.append(f"corner {corner} holds {count} buildings (at most one per corner)")
    if len(set(roads)) != len(roads):
        for path, count in sorted(Counter(roads).items()):
            if count > 1:
                out.append(f"path {path} holds {count} roads (at most one per path)")
    return out


def _plants(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    hexes = state.board.hexes
    for p in state.players:
        per_building: dict[int, int] = {}
        for (corner, hex_id), kind in p.plants.items():
            problems = []
            if corner not in p.towns and corner not in p.cities:
                problems.append("does not belong to one of its owner's buildings (rule 10.2)")
            if not (isinstance(hex_id, int) and 0 <= hex_id < len(hexes)):
                problems.append("stands on a hex that does not exist")
            else:
                if corner not in hexes[hex_id].corners:
                    problems.append("stands on a hex that does not touch the building (rule 10.2)")
                if hexes[hex_id].number is None and not rules.plants_on_desert:
                    problems.append("stands on the desert, which these rules forbid (10.2)")
            for problem in problems:
                out.append(
                    f"seat {p.seat}'s {kind} plant at (corner {corner}, hex {hex_id}) {problem}"
                )
            per_building[corner] = per_building.get(corner, 0) + 1
        for corner, count in sorted(per_building.items()):
            if corner in p.cities:
                slots, what = rules.city_plant_slots, "city"
            elif corner in p.towns:
                slots, what = rules.town_plant_slots, "town"
            else:
                continue
            if count > slots:
                out.append(
                    f"seat {p.seat}'s {what} on corner {corner} carries {count} plants, "
                    f"at most {slots} (rule 10.2)"
                )
    return out


# -- footprint and victory points (rules 4.1, 4.2, 13.8) ---------------------------------------


def _footprint_and_points(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    total = 0
    for p in state.players:
        kinds = list(p.plants.values())
        lf = (
            rules.lf_town * len(p.towns)
            + rules.lf_city * len(p.cities)
            + rules.lf_fossil * kinds.count("fossil")
            + rules.lf_renewable * kinds.count("renewable")
        )
        total += lf
        engine_lf = state.local_footprint(p.seat)
        if engine_lf != lf:
            out.append(f"seat {p.seat}'s LF is {engine_lf} but its pieces give {lf} (rule 4.1)")
        vp = (
            rules.town_vp * len(p.towns)
            + rules.city_vp * len(p.cities)
            + rules.vp_card_vp * p.dev_cards.count("victory_point")
            + rules.plant_vp * len(p.plants)
            + (rules.longest_road_vp if state.longest_road_holder == p.seat else 0)
            + (rules.environmentalist_vp if state.environmentalist_holder == p.seat else 0)
        )
        running = state.outcome is None and state.phase not in ("setup", "over")
        if running and p.seat == state.active and vp >= rules.victory_points:
            out.append(
                f"seat {p.seat} has {vp} VP on their own turn, but the game goes on (rule 14.1)"
            )
        engine_vp = state.victory_points(p.seat)
        if engine_vp != vp:
            out.append(
                f"seat {p.seat}'s VP is {engine_vp} but pieces, cards and awards give "
                f"{vp} (rule 13.8)"
            )
    gf = max(0, min(rules.gf_track_per_player * rules.players, total))
    if state.global_footprint != gf:
        out.append(f"GF is {state.global_footprint} but the clamped sum of LF is {gf} (rule 4.2)")
    return out


def road_length(state: GameState, seat: int) -> int:
    """Longest trail of the seat's roads; an opponent's building cuts it (rule 13.6)."""
    paths = state.board.paths
    mine = [r for r in state.players[seat].roads if 0 <= r < len(paths)]
    blocked = {c for p in state.players if p.seat != seat for c in p.towns | p.cities}
    at: dict[int, list[int]] = {}
    for r in mine:
        for c in paths[r]:
            at.setdefault(c, []).append(r)
    used: set[int] = set()

    def walk(corner: int) -> int:
        if used and corner in blocked:
            return len(used)
        best = len(used)
        for r in at[corner]:
            if r not in used:
                a, b = paths[r]
                used.add(r)
                best = max(best, walk(b if a == corner else a))
                used.discard(r)
        return best

    return max((walk(c) for c in at), default=0)


def _awards(state: GameState, rules: RuleSet) -> list[str]:
    """Longest Road (rule 13.6) and Active Environmentalist (rule 13.7) holders are plausible."""
    out = []
    n = len(state.players)
    holder = state.longest_road_holder
    if holder is not None and not (isinstance(holder, int) and 0 <= holder < n):
        return [f"the Longest Road holder {holder!r} is not a seat"]
    # a seat with fewer roads than the minimum cannot matter beyond "too short": skip its search
    minimum = rules.longest_road_min
    lengths = {
        p.seat: road_length(state, p.seat) if len(p.roads) >= minimum else len(p.roads)
        for p in state.players
    }
    top = max(lengths.values(), default=0)
    if holder is not None:
        if lengths[holder] < minimum:
            out.append(
                f"seat {holder} holds Longest Road with a road of only {lengths[holder]} "
                f"(needs {minimum}, rule 13.6)"
            )
        elif lengths[holder] < top:
            out.append(
                f"seat {holder} holds Longest Road with {lengths[holder]} while another "
                f"seat has {top} (rule 13.6)"
            )
    else:
        leaders = [s for s, length in lengths.items() if length == top]
        if top >= minimum and len(leaders) == 1:
            out.append(
                f"nobody holds Longest Road although seat {leaders[0]} alone has the "
                f"longest road ({top}) (rule 13.6)"
            )
    env = state.environmentalist_holder
    played = {p.seat: p.dev_played.get("cleanup", 0) for p in state.players}
    most = max(played.values(), default=0)
    if env is not None:
        if not (isinstance(env, int) and 0 <= env < n):
            out.append(f"the Active Environmentalist holder {env!r} is not a seat")
        elif played[env] < rules.environmentalist_min or played[env] < most:
            out.append(
                f"seat {env} holds Active Environmentalist with {played[env]} Cleanups "
                f"played; the most played is {most} (rule 13.7)"
            )
    elif most >= rules.environmentalist_min:
        out.append(
            f"nobody holds Active Environmentalist although {most} Cleanups were played "
            f"by one seat (rule 13.7)"
        )
    return out


# -- hazards and event discs (§1, rules 3.1, 6.2, 6.3, 10.4) -----------------------------------


def _hazards(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    on_board = len(state.hex_hazards) + len(state.building_hazards)
    if on_board > rules.hazard_tokens:
        out.append(f"{on_board} hazards on the board but only {rules.hazard_tokens} tokens exist")
    for h in sorted(state.hex_hazards):
        if not (isinstance(h, int) and 0 <= h < len(state.board.hexes)):
            out.append(f"a hazard lies on hex {h!r}, which does not exist")
    buildings = {c for p in state.players for c in p.towns | p.cities}
    for c in sorted(state.building_hazards):
        if c not in buildings:
            out.append(f"a building hazard lies on corner {c}, which has no building")
    if not (isinstance(state.inspector, int) and 0 <= state.inspector < len(state.board.hexes)):
        out.append(f"the Inspector stands on hex {state.inspector!r}, which does not exist")
    return out


def _discs(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    expected: Counter = Counter()
    for symbol, count in rules.brown_discs:
        expected[("brown", symbol)] += count
    for symbol, count in rules.green_discs_per_player:
        expected[("green", symbol)] += count * rules.players
    spaces = dict(rules.event_spaces)
    on_board: list[Any] = []
    for row, discs in state.event_board.items():
        if row not in ROWS:
            out.append(f"the event board has an unknown row {row!r}")
        elif len(discs) >= spaces[row]:
            out.append(
                f"event row {row} holds {len(discs)} discs on {spaces[row]} spaces: a full "
                f"row must fire and empty (rule 6.2)"
            )
        for color, symbol in discs:
            if rules.row_of(color, symbol) != row:
                out.append(f"a {color} {symbol} disc lies on the {row} row (rule 6.2)")
        on_board += discs
    slots = sum(c for _s, c in rules.green_discs_per_player)
    under_slots: list[Any] = []
    for p in state.players:
        under_slots += [("green", symbol) for symbol in p.green_slots]
        if len(p.green_slots) > slots:
            out.append(
                f"seat {p.seat} has {len(p.green_slots)} green discs under its {slots} slots"
            )
    found = Counter(state.bag + on_board + state.removed_discs + under_slots)  # one C-level count
    if found != expected:
        diff = {
            f"{c} {s}": found[(c, s)] - expected[(c, s)]
            for c, s in sorted(set(found) | set(expected))
            if found[(c, s)] != expected[(c, s)]
        }
        total = sum(found.values())
        out.append(
            f"event discs not conserved: bag {len(state.bag)} + board {len(on_board)} + removed "
            f"{len(state.removed_discs)} + under slots {len(under_slots)} = {total}, expected "
            f"{sum(expected.values())}; off by {diff}"
        )
    return out


def distance_errors(state: GameState) -> list[str]:
    """No two buildings on neighbouring corners (rules 3.3, 10.1), from the path list."""
    out = []
    buildings = {c for p in state.players for c in p.towns | p.cities}
    for a, b in state.board.paths:
        if a in buildings and b in buildings:
            out.append(f"buildings on neighbouring corners {a} and {b} break the distance rule")
    return out
