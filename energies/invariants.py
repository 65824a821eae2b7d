"""Bookkeeping invariants of a GameState, recomputed from first principles (test oracle).

:func:`check_invariants` returns one readable sentence per violation (an empty
list means the state is consistent). It deliberately recomputes every derived
quantity — card, energy, development-card and disc totals, LF, GF, VP, road
lengths, the distance rule — from the raw pieces and the RuleSet instead of
calling the state's or engine's helpers, so a bug in a helper cannot hide
itself: the state's own LF, GF and VP are read only to be compared with the
recomputed values. :func:`energies.engine.list_actions` and ``current_seat``
are called (lazily, to avoid an import cycle) only to check that a running
game is never stuck and that the listing the state keeps is the fresh one.

    >>> import energies as en
    >>> from energies.invariants import check_invariants
    >>> check_invariants(en.new_game(seed=7).state)
    []
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .rules import CARD_KINDS, DEV_CARDS, ROWS, RuleSet
from .state import GameState

OUTCOME_KINDS = ("victory_points", "empty_bag", "everyone_loses", "unfinished")
PHASES = ("setup", "event", "roll", "action", "over")


def check_invariants(
    state: GameState,
    *,
    distance_rule: bool = True,
    legal_actions: Sequence[Any] | None = None,
) -> list[str]:
    """Every bookkeeping invariant the state breaks, as readable sentences ([] = fine).

    ``distance_rule``: check the distance rule (rules 3.3, 10.1) between all
    buildings once the game has started. Pass False for a position built with
    teacher-sandbox placements, which skip the distance rule on purpose.
    ``legal_actions``: the list a game loop got from the engine for this very
    state; like the listing the state keeps, it must equal a fresh listing.
    """
    out: list[str] = []
    rules = state.rules
    n = len(state.players)
    if n != rules.players:
        out.append(f"{n} players in the state but the rule set is for {rules.players}")
    out += _cards(state, rules)
    out += _energy(state, rules)
    out += _dev_cards(state, rules)
    out += _pieces(state, rules)
    out += _plants(state, rules)
    out += _footprint_and_points(state, rules)
    out += _awards(state, rules)
    out += _hazards(state, rules)
    out += _discs(state, rules)
    out += _turn_flags(state, rules)
    if distance_rule and state.phase != "setup":
        out += _distance(state)
    out += _progress(state, legal_actions)
    out += _kept_listing_facts(state)
    if not out:  # (a broken state could break the copying itself)
        out += _views(state)
    return out


def _kept_listing_facts(state: GameState) -> list[str]:
    """The speed caches equal a fresh computation: every seat's kept building spots
    (GameState.spots, dropped selectively as pieces move: engine.keep_spots), what each hand
    can pay for (listing.hand_buys, kept per card counts), the corner owners
    (GameState.owners, dropped when a town or city is placed) and the road lengths of the
    Longest Road award (GameState.road_lengths, likewise)."""
    from . import listing  # lazy, as in _progress

    out = []
    for seat, kept in sorted((state.spots or {}).items()):
        for key, found in kept.items():
            if found != listing.find_spots(state, seat, key):
                out.append(f"seat {seat}'s kept {key} spots are not those found afresh")
    for p in state.players:
        buys = [listing.can_pay(p.hand, state.rules.cost(item)) for item in listing.BUYABLE]
        road, town, city, plants, dev_card = listing.hand_buys(state.rules, p.hand)
        kinds = [kind for kind, ok in zip(listing.PLANTS, buys[3:-1]) if ok]
        if [road, town, city, dev_card] != [*buys[:3], buys[-1]] or list(plants) != kinds:
            out.append(f"what seat {p.seat}'s hand can pay for is kept wrong")
    if state.road_lengths is not None:
        minimum = state.rules.longest_road_min
        fresh = {
            p.seat: _road_length(state, p.seat) if len(p.roads) >= minimum else 0
            for p in state.players
        }
        if state.road_lengths != fresh:
            out.append("the road lengths the state keeps are not those of the roads (rule 13.6)")
    if state.owners is not None:
        fresh = {c: p.seat for p in state.players for c in (*p.towns, *p.cities)}
        if state.owners != fresh:
            out.append("the corner owners the state keeps are not those of the pieces")
    return out


def _views(state: GameState) -> list[str]:
    """Where a view would reuse the public copies of an earlier one (kept through the answers
    of a trade window, engine.QUIET), the view of the seat to decide equals one copied afresh.
    (The per-player copies the view module compares before reusing: tests/test_view.py.)"""
    from . import view  # lazy, as in _progress

    if not view.reuses_copies(state):
        return []
    seat = state.queue[0].seat if state.queue and state.outcome is None else state.active
    if tuple(view.make_view(state, seat)) != tuple(view.fresh_view(state, seat)):
        return [f"seat {seat}'s view made from kept copies differs from a fresh one"]
    return []


# -- cards, energy, development cards (§1, rules 8.4, 13) ----------------------------------------


def _cards(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    kinds = set(CARD_KINDS)
    if state.supply.keys() != kinds:
        out.append(f"supply holds the kinds {sorted(state.supply)}, expected {sorted(kinds)}")
    totals = dict(state.supply)
    for p in state.players:
        if p.hand.keys() != kinds:
            out.append(f"seat {p.seat}'s hand holds the kinds {sorted(p.hand)}")
        for kind, count in p.hand.items():
            if not isinstance(count, int) or count < 0:
                out.append(f"seat {p.seat} holds {count!r} {kind} (a hand count must be >= 0)")
            totals[kind] = totals.get(kind, 0) + count
    for kind in CARD_KINDS:
        expected = rules.science_cards if kind == "science" else rules.resource_cards
        supply = state.supply.get(kind, 0)
        if supply < 0:
            out.append(f"the supply holds {supply} {kind} (must be >= 0)")
        if totals.get(kind, 0) != expected:
            hands = totals.get(kind, 0) - supply
            out.append(
                f"{kind} cards not conserved: supply {supply} + hands {hands} = "
                f"{supply + hands}, expected {expected}"
            )
    return out


def _energy(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    held = 0
    for p in state.players:
        held += p.energy
        if not 0 <= p.energy <= rules.energy_cap:
            out.append(
                f"seat {p.seat} holds {p.energy} energy, outside 0..{rules.energy_cap} (rule 8.4)"
            )
    if state.energy_supply < 0:
        out.append(f"the energy supply is {state.energy_supply} (must be >= 0)")
    if state.energy_supply + held != rules.energy_tokens:
        out.append(
            f"energy not conserved: supply {state.energy_supply} + players {held} = "
            f"{state.energy_supply + held}, expected {rules.energy_tokens}"
        )
    return out


def _dev_cards(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    expected = Counter(dict(rules.dev_deck))
    total = Counter(state.dev_deck)
    for p in state.players:
        total.update(p.dev_cards)
        for kind, count in p.dev_played.items():
            total[kind] += count
            if count < 0:
                out.append(f"seat {p.seat} has a negative played-card count: {p.dev_played}")
        if p.dev_new and Counter(p.dev_new) - Counter(p.dev_cards):
            out.append(f"seat {p.seat} has new development cards it does not hold: {p.dev_new}")
        if p.dev_played.get("victory_point", 0):
            out.append(f"seat {p.seat} played a Victory Point card (rule 5.4: never played)")
    if total == expected:
        return out
    # explain the difference: totals, then kind by kind
    deck = Counter(state.dev_deck)
    held = Counter(card for p in state.players for card in p.dev_cards)
    played: Counter = Counter()
    for p in state.players:
        played.update(p.dev_played)
    found, wanted = sum(total.values()), sum(expected.values())
    if found != wanted:
        out.append(
            f"development cards not conserved: deck {len(state.dev_deck)} + held "
            f"{sum(held.values())} + played {sum(played.values())} = {found}, expected {wanted}"
        )
    for kind in sorted(set(expected) | set(total) | set(DEV_CARDS)):
        if total[kind] != expected[kind]:
            out.append(
                f"{kind} development cards not conserved: deck {deck[kind]} + held {held[kind]} "
                f"+ played {played[kind]} = {total[kind]}, expected {expected[kind]}"
            )
    return out


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
                if hexes[hex_id].number is None:
                    problems.append("stands on a hex without a number (rule 10.2)")
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


def _road_length(state: GameState, seat: int) -> int:
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
        p.seat: _road_length(state, p.seat) if len(p.roads) >= minimum else len(p.roads)
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


# -- turn structure (rules 5.4, 10.3, 11, 14) ---------------------------------------------------


def _turn_flags(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    if state.phase not in PHASES:
        out.append(f"unknown phase {state.phase!r}")
    flags = (
        ("plants built", state.plants_built, rules.plants_per_turn, "10.3"),
        ("fossil plants demolished", state.demolished, rules.demolish_per_turn, "11"),
        ("development cards played", state.dev_played_turn, rules.dev_cards_per_turn, "5.4"),
        ("trade offers made", state.offers_made, rules.trade_offers_per_turn, "12.1"),
    )
    for what, count, limit, rule in flags:
        if not 0 <= count <= limit:
            out.append(f"{count} {what} this turn, limit {limit} (rule {rule})")
    out += _proposals(state, rules)
    return out


def _proposals(state: GameState, rules: RuleSet) -> list[str]:
    """Rule 12.1: proposals come from seats that are not active, in the action phase, at most
    ``trade_offers_per_turn`` per proposer; the active player answers each one."""
    out = []
    limit = rules.trade_offers_per_turn
    for seat, made in sorted(state.proposals_made.items()):
        if seat == state.active and made:
            out.append(f"the active seat {seat} made {made} proposal(s) to itself (rule 12.1)")
        if not 0 <= made <= limit:
            out.append(f"seat {seat} made {made} trade proposals this turn, limit {limit} (12.1)")
    for task in state.queue:
        if task.kind == "propose_trade":
            if task.seat == state.active or state.phase != "action" or limit <= 0:
                out.append(
                    f"seat {task.seat} is asked for a trade proposal in the {state.phase} phase "
                    f"while seat {state.active} is active (rule 12.1)"
                )
            elif state.proposals_made.get(task.seat, 0) >= limit:
                out.append(f"seat {task.seat} is asked for a proposal past the limit (12.1)")
        elif task.kind == "trade_response" and task.info.get("from") == task.seat:
            out.append(f"seat {task.seat} is asked to answer its own trade (rule 12.1)")
    return out


def _distance(state: GameState) -> list[str]:
    """No two buildings on neighbouring corners (rules 3.3, 10.1), from the path list."""
    out = []
    buildings = {c for p in state.players for c in p.towns | p.cities}
    for a, b in state.board.paths:
        if a in buildings and b in buildings:
            out.append(f"buildings on neighbouring corners {a} and {b} break the distance rule")
    return out


def _progress(state: GameState, legal: Sequence[Any] | None) -> list[str]:
    """A running game waits for a valid seat that has a legal action; a finished one is over."""
    from . import engine  # lazy: engine imports the modules this one reads

    out = []
    n = len(state.players)
    if state.outcome is not None:
        kind: Any = getattr(state.outcome, "kind", None)
        if kind not in OUTCOME_KINDS:
            out.append(f"unknown outcome kind {kind!r}")
        winners = tuple(getattr(state.outcome, "winners", ()))
        if any(not (isinstance(s, int) and 0 <= s < n) for s in winners):
            out.append(f"outcome winners {winners} are not seats")
        if kind in ("everyone_loses", "unfinished") and winners:
            out.append(f"a game ending as {kind} has winners {winners}")
        if kind in ("victory_points", "empty_bag") and not winners:
            out.append(f"a game ending as {kind} has no winner")
        if kind == "victory_points":
            for s in winners:
                vp = state.victory_points(s)
                if vp < state.rules.victory_points:
                    out.append(f"seat {s} won on points with only {vp} VP (rule 14.1)")
        if state.phase != "over" or state.queue:
            out.append(
                f"the game is over but the phase is {state.phase!r} with "
                f"{len(state.queue)} pending task(s)"
            )
        return out
    if state.phase == "over":
        out.append("the phase is 'over' but there is no outcome")
    seat = state.queue[0].seat if state.queue else state.active  # who must decide now
    if not (isinstance(seat, int) and 0 <= seat < n):
        out.append(f"the current seat {seat!r} is not a seat at the table")
    elif engine.current_seat(state) != seat:
        out.append(
            f"the engine says seat {engine.current_seat(state)} decides, but the "
            f"pending decision belongs to seat {seat}"
        )
    if not (isinstance(state.active, int) and 0 <= state.active < n):
        out.append(f"the active seat {state.active!r} is not a seat at the table")
    if out:
        return out  # an invalid seat would make the legal-action search itself fail
    fresh = engine.list_actions(state)
    for source, listed in (("the state keeps", state.listed), ("the caller got", legal)):
        if listed is not None and list(listed) != fresh:
            out.append(
                f"the legal actions {source} ({len(listed)}) are not those of this position "
                f"({len(fresh)} listed afresh)"
            )
    legal = fresh
    if not legal:
        pending = state.queue[0].kind if state.queue else "free choice"
        out.append(f"the game is not over but seat {seat} has no legal action ({pending})")
    others = sorted({a.seat for a in legal if getattr(a, "seat", None) != seat})
    if others:
        out.append(f"legal actions are listed for seat(s) {others}, but seat {seat} decides now")
    return out


__all__ = ["OUTCOME_KINDS", "check_invariants"]
