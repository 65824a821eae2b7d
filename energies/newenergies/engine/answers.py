"""What an answer to a pending decision changes (the tasks: :mod:`energies.decisions`).

``DECISION_EFFECTS[task.kind](state, task, action)`` runs once the engine has checked the
action (``why_illegal``): set-up placements (rule 3), discards and the Inspector on a 7
(rule 9), steals, hazards and free plants asked for by events (rule 6) and development
cards (rule 13), and the answers to trade offers and proposals (rule 12.1).
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import (
    Action,
    BuildCity,
    BuildRoad,
    BuildTown,
    ChooseHex,
    ChooseVictim,
    Decline,
    DiscardCard,
    Goods,
    MoveInspector,
    PlaceHazard,
    RemoveHazard,
    RespondToTrade,
    TakeCard,
)
from ..state import GameState, PlayerState, Task
from .checks import (
    cleanup_victims,
    steal_candidates_near,
)
from .decisions import as_goods
from .effects import (
    do_build_road,
    do_build_town,
    do_remove_hazard,
    gain,
    gain_energy,
    place_plant,
    record_proposal,
    starting_hand,
    steal_random,
)


def _decide_setup_town(state: GameState, task: Task, a: BuildTown) -> None:
    state.queue.pop(0)
    do_build_town(state, a, paid=False)
    state.queue[0].info["corner"] = a.corner  # the road that follows must touch it


def _decide_setup_city(state: GameState, task: Task, a: BuildCity) -> None:
    state.queue.pop(0)
    state.players[a.seat].cities.add(a.corner)
    state.cache.forget("building")  # (a city can cut a road: kept lengths go)
    starting_hand(state, a.seat, a.corner)
    state.queue[0].info["corner"] = a.corner


def _decide_setup_road(state: GameState, task: Task, a: BuildRoad) -> None:
    state.queue.pop(0)
    do_build_road(state, a, paid=False)
    if not state.queue:
        state.queue.append(Task("end_setup"))


def _decide_free_road(state: GameState, task: Task, a: BuildRoad) -> None:
    state.queue.pop(0)
    do_build_road(state, a, paid=False)


def _decide_discard(state: GameState, task: Task, a: DiscardCard) -> None:
    p = state.players[a.seat]
    p.hand[a.card] -= 1
    state.supply[a.card] += 1
    stats = state.stats[a.seat]
    stats.cards_discarded += 1
    source = task.info.get("source")
    if source == "seven":
        stats.cards_discarded_seven += 1
    elif source == "climate_conference" and state.events and state.events[-1]["color"] == "brown":
        # (the Climate Conference that queued this discard is the last event fired: its
        # answers come before any further draw, rule 6.2)
        stats.cards_discarded_brown += 1
    task.info["count"] -= 1
    if task.info["count"] <= 0 or p.cards == 0:
        state.queue.pop(0)


def _decide_take_card(state: GameState, task: Task, a: TakeCard) -> None:
    state.queue.pop(0)
    gain(state, state.players[a.seat], a.card, 1)


def _decide_move_inspector(state: GameState, task: Task, a: MoveInspector) -> None:
    state.queue.pop(0)
    state.inspector = a.hex
    if task.kind == "move_inspector":  # rule 9.2: steal from a building next to the hex
        _queue_steal(state, a.seat, steal_candidates_near(state, a.hex, a.seat), "seven")
    else:
        _queue_steal(state, a.seat, cleanup_victims(state, a.seat), "cleanup")


def _decide_cleanup_hazard(state: GameState, task: Task, a: RemoveHazard) -> None:
    state.queue.pop(0)
    do_remove_hazard(state, a, paid=False)
    _queue_steal(state, a.seat, cleanup_victims(state, a.seat), "cleanup")


def _queue_steal(state: GameState, thief: int, candidates: list[int], source: str) -> None:
    if len(candidates) == 1:
        steal_random(state, thief, candidates[0])
    elif candidates:
        state.queue.insert(
            0, Task("choose_victim", thief, {"candidates": candidates, "source": source})
        )


def _decide_victim(state: GameState, task: Task, a: ChooseVictim) -> None:
    state.queue.pop(0)
    steal_random(state, a.seat, a.victim)


def _decide_place_hazard(state: GameState, task: Task, a: PlaceHazard) -> None:
    state.queue.pop(0)
    state.building_hazards.add(a.corner)
    state.stats[a.seat].hazards_suffered += 1


def _decide_free_fossil(state: GameState, task: Task, a: Action) -> None:
    state.queue.pop(0)
    if isinstance(a, Decline):
        return
    place_plant(state, a)  # rule 7.4: not counted toward the one-plant limit
    resource = state.board.hexes[a.hex].resource
    if resource is not None:  # a plant on the desert (rule 10.2) has no card to give
        gain(state, state.players[a.seat], resource, 1)


def _decide_choose_hex(state: GameState, task: Task, a: ChooseHex) -> None:
    state.queue.pop(0)
    gain(state, state.players[a.seat], state.board.hexes[a.hex].resource, 1)
    for later in state.queue:
        if later.kind == "choose_hex" and later.seat == a.seat:
            later.info["chosen"] = task.info["chosen"] + [a.hex]


def _decide_trade(state: GameState, task: Task, a: RespondToTrade) -> None:
    state.queue.pop(0)
    if not a.accept:
        return
    offerer, partner = state.players[task.info["from"]], state.players[a.seat]
    _move_goods(state, offerer, partner, as_goods(task.info["give"]))
    _move_goods(state, partner, offerer, as_goods(task.info["get"]))


def _decide_proposal(state: GameState, task: Task, a: Action) -> None:
    state.queue.pop(0)
    if isinstance(a, Decline):
        return  # the seat passes: no more proposals from it this turn
    made = record_proposal(state, a)  # the active player answers first
    if made < state.rules.trade_offers_per_turn:  # then the seat may propose again
        state.queue.insert(1, Task("propose_trade", a.seat, {"made": made}))


def _move_goods(state: GameState, giver: PlayerState, taker: PlayerState, items: Goods) -> None:
    for kind, n in items:
        if kind == "energy":
            giver.energy -= n
            state.energy_supply += n
            gain_energy(state, taker, n)  # rule 8.4: the cap holds for traded energy too
        else:
            giver.hand[kind] -= n
            taker.hand[kind] += n


def _decide_cleanup(state: GameState, task: Task, a: Action) -> None:
    if isinstance(a, MoveInspector):
        _decide_move_inspector(state, task, a)
    else:
        _decide_cleanup_hazard(state, task, a)


DECISION_EFFECTS: dict[str, Callable[[GameState, Task, Action], None]] = {
    "setup_town": _decide_setup_town,
    "setup_city": _decide_setup_city,
    "setup_road": _decide_setup_road,
    "free_road": _decide_free_road,
    "discard": _decide_discard,
    "take_card": _decide_take_card,
    "move_inspector": _decide_move_inspector,
    "cleanup": _decide_cleanup,
    "choose_victim": _decide_victim,
    "place_hazard": _decide_place_hazard,
    "free_fossil": _decide_free_fossil,
    "choose_hex": _decide_choose_hex,
    "trade_response": _decide_trade,
    "propose_trade": _decide_proposal,
}
