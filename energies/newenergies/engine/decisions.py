"""Decisions the engine waits for: which actions answer each pending task, and the options.

A pending task (``state.queue[0]``) names the seat that must decide: discards on a 7, the
Inspector, steal victims, trade answers, set-up placements and every choice an event asks for.
What an answer then changes: :mod:`energies.decision_effects`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from ...kit.i18n import N_, joined, msg
from ..actions import (
    Action,
    BuildCity,
    BuildPlant,
    BuildRoad,
    BuildTown,
    ChooseHex,
    ChooseVictim,
    Decline,
    DiscardCard,
    Goods,
    MoveInspector,
    PlaceHazard,
    ProposeTrade,
    RemoveHazard,
    RespondToTrade,
    TakeCard,
    shared,
)
from ..rules import CARD_KINDS, RESOURCES
from ..rules.vocabulary import word
from ..state import GameState, PlayerState, Task
from . import events
from .checks import (
    check_city,
    check_move_inspector,
    check_plant,
    check_proposal,
    check_remove_hazard,
    check_road,
    check_town,
    goods_problem,
    renewable_hexes,
)
from .listing import (
    hazard_removals,
    plant_spots,
    road_spots,
    taken_paths,
)
from .offers import proposal_options

# ==============================================================================================
# Decisions the engine waits for
# ==============================================================================================

# task kind -> action types that answer it
ANSWERS: dict[str, tuple[type, ...]] = {
    "setup_town": (BuildTown,),
    "setup_city": (BuildCity,),
    "setup_road": (BuildRoad,),
    "discard": (DiscardCard,),
    "take_card": (TakeCard,),
    "move_inspector": (MoveInspector,),
    "cleanup": (MoveInspector, RemoveHazard),
    "choose_victim": (ChooseVictim,),
    "place_hazard": (PlaceHazard,),
    "free_fossil": (BuildPlant, Decline),
    "free_road": (BuildRoad,),
    "choose_hex": (ChooseHex,),
    "trade_response": (RespondToTrade,),
    "propose_trade": (ProposeTrade, Decline),
}


def check_decision(state: GameState, task: Task, a: Action) -> str | None:
    kind, p = task.kind, state.players[a.seat]
    if kind == "setup_town":
        return check_town(state, a, setup=True)
    if kind == "setup_city":
        return check_city(state, a, setup=True)
    if kind == "setup_road":
        return check_road(state, a, "setup", task.info["corner"])
    if kind == "free_road":
        return check_road(state, a, "free")
    if kind == "discard":
        if a.card not in CARD_KINDS:
            return msg(
                N_("You can discard resource or science cards, not {card}."), card=repr(a.card)
            )
        if p.hand[a.card] <= 0:
            return msg(N_("You have no {card} to discard."), card=word(a.card))
        return None
    if kind == "take_card":
        allowed = RESOURCES if task.info["kinds"] == "resource" else CARD_KINDS
        if a.card not in allowed:
            return msg(
                N_("Choose one of: {kinds}."), kinds=joined([word(k) for k in allowed], ", ")
            )
        if state.supply[a.card] <= 0:
            return msg(N_("The supply has no {card} left."), card=word(a.card))
        return None
    if kind == "move_inspector" or (kind == "cleanup" and isinstance(a, MoveInspector)):
        return check_move_inspector(state, a)
    if kind == "cleanup":
        return check_remove_hazard(state, a, free=True)
    if kind == "choose_victim":
        return (
            None
            if a.victim in task.info["candidates"]
            else msg(N_("You cannot steal from that seat now."))
        )
    if kind == "place_hazard":
        if a.corner not in events.hazard_targets(state, a.seat, task.info["source"]):
            return _hazard_target_reason(task.info["source"])
        return None
    if kind == "free_fossil":
        if isinstance(a, Decline):
            if not state.rules.production_increase_optional:
                return msg(N_("The free fossil plant must be built."))
            return None
        return check_plant(state, a, "event")
    if kind == "choose_hex":
        if a.hex not in renewable_hexes(state, p) or a.hex in task.info["chosen"]:
            return msg(N_("Choose a different hex that holds one of your renewable plants."))
        return None
    if kind == "propose_trade":
        return None if isinstance(a, Decline) else check_proposal(state, a)
    if kind == "trade_response":
        if a.accept:  # both sides must still hold their goods (a sandbox edit may intervene)
            offered = goods_problem(state, as_goods(task.info["give"]), task.info["from"], "offer")
            if offered:
                return msg(
                    N_(
                        "The offer can no longer be accepted: the other player no longer has "
                        "the goods."
                    )
                )
            lacking = goods_problem(state, as_goods(task.info["get"]), a.seat, "give")
            if lacking:
                return msg(N_("{problem} You can only decline this trade."), problem=lacking)
            return None
        return None
    return msg(N_("Nothing to decide for {kind}."), kind=kind)


def _hazard_target_reason(source: str) -> str:
    if source == "air_pollution":
        return msg(
            N_(
                "Air Pollution: put the hazard on one of your cities without a hazard (a town "
                "only if you have no such city)."
            )
        )
    return msg(N_("Put the hazard on one of your own towns or cities that has no hazard yet."))


def as_goods(items) -> Goods:
    return tuple(map(tuple, items))


def decision_options(state: GameState, task: Task) -> Sequence[Action]:
    """Every legal answer to the pending task, in a fixed order.

    The answers are listed straight from the facts ``check_decision`` looks at (it stays
    the check behind ``why_illegal`` and ``apply``; the tests hold the two together).
    """
    options = _OPTIONS.get(task.kind)
    return options(state, task) if options else ()  # a corrupted queue: nothing answers it


def real_choices(state: GameState, task: Task) -> Sequence[Action]:
    """The answers to the pending task; empty when the seat can do nothing but decline."""
    options = decision_options(state, task)
    for option in options:
        if not isinstance(option, Decline):
            return options
    return ()


def _free_corners(state: GameState) -> list[int]:
    # rule 3.2: an empty corner whose neighbours are empty too (the distance rule)
    blocked = _blocked_corners(state)
    return [c for c in state.board.corners if c not in blocked]


def _blocked_corners(state: GameState) -> set[int]:
    """The corners that carry a building or neighbour one."""
    board, blocked = state.board, set()
    for p in state.players:
        for c in p.towns | p.cities:
            blocked.add(c)
            blocked.update(board.corner_neighbors(c))
    return blocked


def _setup_towns(state: GameState, task: Task) -> list[Action]:
    if state.pieces_left(task.seat, "town") <= 0:
        return []
    return [shared.BuildTown(task.seat, c) for c in _free_corners(state)]


def _setup_cities(state: GameState, task: Task) -> list[Action]:
    if state.pieces_left(task.seat, "city") <= 0:
        return []
    return [shared.BuildCity(task.seat, c) for c in _free_corners(state)]


def has_setup_choice(state: GameState, task: Task) -> bool:
    """Whether a set-up task (``SETUP_TASKS``) has any answer: ``bool(real_choices(state,
    task))`` without making the list (speed: the quick start reads few of those lists)."""
    board, players, rules = state.board, state.players, state.rules
    p = players[task.seat]
    if task.kind == "setup_road":  # rule 3.3: a free path at the building just placed
        if len(p.roads) >= rules.roads:
            return False
        paths = board.corner_paths(task.info["corner"])
        return any(all(path not in q.roads for q in players) for path in paths)
    placed, limit = (
        (p.towns, rules.towns) if task.kind == "setup_town" else (p.cities, rules.cities)
    )
    if len(placed) >= limit:
        return False
    # a building blocks its corner and at most 3 neighbours (rule 3.2): while the buildings
    # cannot cover every corner, some corner is free
    buildings = sum(len(q.towns) + len(q.cities) for q in players)
    if 4 * buildings < len(board.corners):
        return True
    return not _blocked_corners(state).issuperset(board.corners)


SETUP_TASKS = frozenset({"setup_town", "setup_city", "setup_road"})


def _setup_roads(state: GameState, task: Task) -> list[Action]:
    # rule 3.3: the starting road touches the building just placed
    if state.pieces_left(task.seat, "road") <= 0:
        return []
    taken = taken_paths(state.players)
    paths = state.board.corner_paths(task.info["corner"])
    return [shared.BuildRoad(task.seat, path) for path in paths if path not in taken]


def _free_roads(state: GameState, task: Task) -> list[Action]:
    return road_spots(state, state.players[task.seat])  # rule 13.1


def _discards(state: GameState, task: Task) -> list[Action]:
    hand = state.players[task.seat].hand
    return [shared.DiscardCard(task.seat, k) for k in CARD_KINDS if hand[k] > 0]


def _takes(state: GameState, task: Task) -> list[Action]:
    allowed = RESOURCES if task.info["kinds"] == "resource" else CARD_KINDS
    return [shared.TakeCard(task.seat, k) for k in allowed if state.supply[k] > 0]


def _inspector_moves(state: GameState, task: Task) -> list[Action]:
    # rule 9.2: to another hex without a hazard
    blocked, hexes = state.hex_hazards, range(len(state.board.hexes))
    moves, inspector = _inspector_table(task.seat, len(hexes)), state.inspector
    return [moves[h] for h in hexes if h != inspector and h not in blocked]


@functools.cache
def _inspector_table(seat: int, hexes: int) -> tuple[Action, ...]:
    return tuple(shared.MoveInspector(seat, h) for h in range(hexes))  # indexed by hex


def _cleanups(state: GameState, task: Task) -> list[Action]:
    return _inspector_moves(state, task) + hazard_removals(state, task.seat)  # rule 13.5


def _victims(state: GameState, task: Task) -> list[Action]:
    return [shared.ChooseVictim(task.seat, v) for v in task.info["candidates"]]


def _hazard_places(state: GameState, task: Task) -> list[Action]:
    targets = events.hazard_targets(state, task.seat, task.info["source"])
    return [shared.PlaceHazard(task.seat, c) for c in targets]


def _free_fossils(state: GameState, task: Task) -> list[Action]:
    spots = plant_spots(state, state.players[task.seat], ("fossil",))  # rule 7.4
    if state.rules.production_increase_optional:
        spots.append(shared.Decline(task.seat))
    return spots


def _high_yield_hexes(state: GameState, task: Task) -> list[Action]:
    chosen = task.info["chosen"]
    hexes = renewable_hexes(state, state.players[task.seat])
    return [shared.ChooseHex(task.seat, h) for h in hexes if h not in chosen]


def _trade_answers(state: GameState, task: Task) -> tuple[Action, ...]:
    # both sides must still hold their goods (a sandbox edit may intervene)
    offerer, partner = state.players[task.info["from"]], state.players[task.seat]
    can_accept = _holds(offerer, task.info["give"]) and _holds(partner, task.info["get"])
    return _answers(task.seat, can_accept)


@functools.cache
def _answers(seat: int, can_accept: bool) -> tuple[Action, ...]:
    """(accept, refuse) or (refuse,): made once per seat, not at every trade offer."""
    refuse = shared.RespondToTrade(seat, False)
    return (shared.RespondToTrade(seat, True), refuse) if can_accept else (refuse,)


def _proposals(state: GameState, task: Task) -> tuple[Action, ...]:
    # rule 12.1: one-for-one proposals to the active player, then passing
    if state.proposals_made.get(task.seat, 0) >= state.rules.trade_offers_per_turn:
        return ()
    return proposal_options(state, task.seat)


def _holds(p: PlayerState, items) -> bool:
    for kind, n in items:  # a plain loop: this runs for every trade offer
        if (p.energy if kind == "energy" else p.hand[kind]) < n:
            return False
    return True


_OPTIONS: dict[str, Callable[[GameState, Task], Sequence[Action]]] = {
    "setup_town": _setup_towns,
    "setup_city": _setup_cities,
    "setup_road": _setup_roads,
    "free_road": _free_roads,
    "discard": _discards,
    "take_card": _takes,
    "move_inspector": _inspector_moves,
    "cleanup": _cleanups,
    "choose_victim": _victims,
    "place_hazard": _hazard_places,
    "free_fossil": _free_fossils,
    "choose_hex": _high_yield_hexes,
    "trade_response": _trade_answers,
    "propose_trade": _proposals,
}
