"""Event bag, event board and the seven event effects (rules 6, 7) and the empty-bag ending (14.2).

Events that ask players to choose (which card, which building, where a free
plant goes) push decision tasks onto the state's queue, in clockwise order
from the active player (rule 6.5); the engine then waits for those actions.
"""

from __future__ import annotations

from ..actions import pretty
from ..rules import RESOURCES
from ..state import Disc, GameState, Task


def begin_event_phase(state: GameState) -> None:
    """Queue the draws of this turn's event phase; N is fixed now (rule 6.1)."""
    state.phase = "event"
    draws = state.rules.discs_to_draw(state.global_footprint)
    state.queue[0:0] = [Task("draw", state.active) for _ in range(draws)] + [
        Task("begin_roll", state.active)
    ]


def draw_disc(state: GameState) -> None:
    """Draw one disc; place it; fire its row if that fills it (rules 6.1, 6.2)."""
    if not state.bag:
        end_by_empty_bag(state)  # rule 6.1 / 14.2
        return
    disc = _take_from_bag(state)
    color, symbol = disc
    row = state.rules.row_of(color, symbol)
    discs = state.event_board[row]
    discs.append(disc)
    state.log.append(
        f"{color.title()} disc drawn: {pretty(symbol)} ({len(discs)}/{state.rules.spaces(row)})"
    )
    if len(discs) >= state.rules.spaces(row):
        state.removed_discs.extend(discs)  # rule 6.2: the row's discs leave the game
        state.event_board[row] = []
        fire(state, symbol, color)


def _take_from_bag(state: GameState) -> Disc:
    while state.forced_discs:
        wanted = state.forced_discs.pop(0)
        if wanted in state.bag:
            state.bag.remove(wanted)
            return wanted
    return state.bag.pop(state.rng["bag"].randrange(len(state.bag)))


# -- comparisons (rule 6.5) -------------------------------------------------------------------


def _extreme(state: GameState, values: dict[int, int], pick) -> list[int]:
    """Seats holding the extreme value, clockwise from the active player; none if all tie."""
    target = pick(values.values())
    seats = [s for s in state.clockwise_from_active() if values[s] == target]
    return [] if len(seats) == state.n else seats


def lowest_lf(state: GameState) -> list[int]:
    return _extreme(state, {s: state.local_footprint(s) for s in range(state.n)}, min)


def highest_lf(state: GameState) -> list[int]:
    return _extreme(state, {s: state.local_footprint(s) for s in range(state.n)}, max)


def most_renewable(state: GameState) -> list[int]:
    counts = {p.seat: p.count_plants("renewable") for p in state.players}
    if max(counts.values()) == 0:
        return []  # rule 7.6: nobody has one
    return _extreme(state, counts, max)


# -- the seven events (rule 7) ----------------------------------------------------------------


def fire(state: GameState, symbol: str, color: str) -> None:
    """Run an event whose row just filled."""
    hit, effect, tasks = _EFFECTS[symbol](state)
    state.queue[0:0] = tasks
    state.events.append(
        {
            "turn": state.turn,
            "active": state.active,
            "event": symbol,
            "color": color,
            "hit": list(hit),
            "effect": effect,
        }
    )
    state.log.append(f"Event: {pretty(symbol)} — {effect}")


def _climate_conference(state: GameState):
    # rule 7.1: lowest LF take a card of their choice, highest LF discard one
    low, high = lowest_lf(state), highest_lf(state)
    if not low and not high:
        return (), "all players tie on footprint: nothing happens", []
    tasks = [Task("take_card", s, {"kinds": "any", "source": "climate_conference"}) for s in low]
    tasks += [Task("discard", s, {"count": 1, "source": "climate_conference"}) for s in high]
    text = f"lowest footprint {_seats(low)} take a card; highest {_seats(high)} discard one"
    return tuple(low + high), text, tasks


def _environmental_pollution(state: GameState):
    # rule 7.2: roll until not 7; hazards on every land hex with that number
    while True:
        dice = state.roll_dice()
        if sum(dice) != 7:
            break
    number = sum(dice)
    targets = [
        h
        for h in state.board.hexes_with_number(number)
        if h != state.inspector and h not in state.hex_hazards
    ]
    if state.rules.pollution_hazard_order == "none" and len(targets) > state.hazard_supply:
        targets = []
    placed = targets[: max(0, state.hazard_supply)]
    state.hex_hazards.update(placed)
    hit = set()
    for h in placed:  # each seat with a building on the hex suffers its hazard once
        seats = {state.owner_of(c) for c in state.board.hex_corners(h)} - {None}
        for seat in seats:
            state.stats[seat].hex_hazards_suffered += 1
        hit |= seats
    owners = sorted(hit)
    names = ", ".join(str(state.board.hexes[h]) for h in placed) or "no hex"
    return tuple(owners), f"rolled {number}: hazard on {names}", []


def _air_pollution(state: GameState):
    # rule 7.3: highest LF each put a hazard on a city (or town if no city)
    high = highest_lf(state)
    tasks = [Task("place_hazard", s, {"source": "air_pollution"}) for s in high]
    text = (
        f"highest footprint {_seats(high)} put a hazard on a city" if high else "all tie: nothing"
    )
    return tuple(high), text, tasks


def _production_increase(state: GameState):
    # rule 7.4: highest LF each may build a free fossil plant and take 1 resource of its hex
    high = highest_lf(state)
    tasks = [Task("free_fossil", s, {"source": "production_increase"}) for s in high]
    text = (
        f"highest footprint {_seats(high)} may build a free fossil plant"
        if high
        else "all tie: nothing"
    )
    return tuple(high), text, tasks


def _rain_and_flooding(state: GameState):
    # rule 7.5: every player, clockwise from the active player
    seats = state.clockwise_from_active()
    tasks = [Task("place_hazard", s, {"source": "rain_and_flooding"}) for s in seats]
    return tuple(seats), "every player puts a hazard on one of their buildings", tasks


def _sustainable_production(state: GameState):
    # rule 7.6: most renewable plants each take a card of choice
    best = most_renewable(state)
    tasks = [
        Task("take_card", s, {"kinds": "any", "source": "sustainable_production"}) for s in best
    ]
    text = f"most renewable plants {_seats(best)} take a card" if best else "nobody leads: nothing"
    return tuple(best), text, tasks


def _government_funding(state: GameState):
    # rule 7.7: lowest LF each draw the top development card (received this turn)
    low = lowest_lf(state)
    got = []
    for s in low:
        if not state.dev_deck:
            break
        card = state.dev_deck.pop()
        state.players[s].dev_cards.append(card)
        state.players[s].dev_new.append(card)
        got.append(s)
    text = f"lowest footprint {_seats(got)} draw a development card" if got else "nothing"
    return tuple(got), text, []


_EFFECTS = {
    "climate_conference": _climate_conference,
    "environmental_pollution": _environmental_pollution,
    "air_pollution": _air_pollution,
    "production_increase": _production_increase,
    "rain_and_flooding": _rain_and_flooding,
    "sustainable_production": _sustainable_production,
    "government_funding": _government_funding,
}


def _seats(seats) -> str:
    return "seat " + ", ".join(str(s) for s in seats) if seats else "nobody"


# -- rule 7.3 / 7.5 eligible buildings --------------------------------------------------------


def hazard_targets(state: GameState, seat: int, source: str) -> list[int]:
    """Corners of the seat's buildings that may take this event's hazard."""
    if state.hazard_supply <= 0:
        return []
    p = state.players[seat]
    free = state.building_hazards
    if source == "air_pollution":
        cities = sorted(c for c in p.cities if c not in free)
        return cities or sorted(c for c in p.towns if c not in free)
    return sorted(c for c in p.buildings() if c not in free)


# -- the empty bag (rule 14.2) ----------------------------------------------------------------


def end_by_empty_bag(state: GameState) -> None:
    """Rule 14.2: the bag is empty, the game ends as :func:`empty_bag_outcome` scores it."""
    kind, winners, reason, eliminated = empty_bag_outcome(state)
    state.finish(kind, winners, reason, eliminated)


def empty_bag_outcome(state: GameState) -> tuple[str, tuple[int, ...], str, list[int]]:
    """How rule 14.2 scores the position (kind, winners, reason, eliminated seats), without
    changing it: the ending at the empty bag, and "if the bag ran out now" in the PlayApp.

    More fossil than renewable plants eliminates; a winner needs strictly more renewable than
    fossil plants. Rule 14.2a (``empty_bag_even_survives``): everyone not eliminated
    competes, so an even balance may win and everybody loses only when all are out."""
    even_survives = state.rules.empty_bag_even_survives
    balance = {}
    eliminated = []
    for p in state.players:
        renewable, fossil = p.count_plants("renewable"), p.count_plants("fossil")
        if fossil > renewable:
            eliminated.append(p.seat)
        elif renewable > fossil or even_survives:
            balance[p.seat] = renewable - fossil
    if not balance:
        reason = (
            "everybody has more fossil than renewable plants"
            if even_survives
            else "nobody has more renewable than fossil plants"
        )
        return (
            "everyone_loses",
            (),
            f"The event bag is empty and {reason}: everybody loses.",
            eliminated,
        )
    best = max(balance.values())
    winners = [s for s, b in balance.items() if b == best]
    if state.rules.empty_bag_tiebreak_vp and len(winners) > 1:
        top_vp = max(state.victory_points(s) for s in winners)
        winners = [s for s in winners if state.victory_points(s) == top_vp]
    reason = (
        f"The event bag is empty: {_seats(sorted(winners))} "
        f"{'wins' if len(winners) == 1 else 'win'} with the best balance of "
        f"renewable over fossil plants (+{best})."
    )
    return "empty_bag", tuple(sorted(winners)), reason, eliminated


def resource_of(state: GameState, hex_id: int) -> str | None:
    return state.board.hexes[hex_id].resource


__all__ = [
    "RESOURCES",
    "begin_event_phase",
    "draw_disc",
    "empty_bag_outcome",
    "end_by_empty_bag",
    "fire",
    "hazard_targets",
]
