"""The rules: legal_actions / why_illegal / apply — the only place the game's rules run.

``why_illegal`` and ``legal_actions`` share one check per action kind, and
``apply`` calls the same check before it changes anything, so a rejected
action leaves the state exactly as it was. Turn flow: event phase (rule 6,
:mod:`energies.events`), roll and production (rules 7–9), action phase
(rules 10–13). Decisions the engine waits for sit at the front of
``state.queue``; the seat named there must act next.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable

from . import events
from .actions import (
    Action,
    BuildCity,
    BuildPlant,
    BuildRoad,
    BuildTown,
    BuildWarehouse,
    BuyDevCard,
    ChooseHex,
    ChooseVictim,
    Decline,
    DemolishFossil,
    DiscardCard,
    EndTurn,
    Goods,
    MoveInspector,
    OfferTrade,
    PlaceHazard,
    PlayDevCard,
    RemoveHazard,
    RespondToTrade,
    RollDice,
    SandboxEdit,
    TakeCard,
    TradeWithSupply,
    goods_text,
    pretty,
)
from .board import Board, build_board
from .rules import CARD_KINDS, DEV_CARDS, RESOURCES, RuleSet
from .state import GameState, PlayerState, Stats, Task, full_supply, new_hand

PLANTS = ("fossil", "renewable")


class IllegalActionError(ValueError):
    """An action the rules do not allow now; ``reason`` says why in one sentence."""

    def __init__(self, reason: str, action: Action | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.action = action


# ==============================================================================================
# Set-up (rule 3)
# ==============================================================================================


def new_state(rules: RuleSet, seed: int) -> GameState:
    """A game after set-up: pieces placed (quick start) or the draft waiting (rule 3)."""
    board = build_board(rules.layout, seed, rules.number_placement)
    streams = ("setup", "dice", "bag", "cards")
    rng = {name: random.Random(f"{seed}:{name}") for name in streams}
    # rule 3.6: drawn first, so rule variants with other decks keep the same start player
    start_player = rng["setup"].randrange(rules.players) if rules.random_start_player else 0
    deck = [card for card, count in rules.dev_deck for _ in range(count)]
    rng["setup"].shuffle(deck)
    players = []
    for seat in range(rules.players):
        greens = [sym for sym, count in rules.green_discs_per_player for _ in range(count)]
        rng["setup"].shuffle(greens)  # rule 3.1: face down under the renewable slots
        players.append(PlayerState(seat, new_hand(), green_slots=greens))
    state = GameState(
        rules=rules,
        board=board,
        seed=seed,
        players=players,
        supply=full_supply(rules),
        energy_supply=rules.energy_tokens,
        dev_deck=deck,
        inspector=board.desert,  # rule 3.1
        bag=[("brown", sym) for sym, count in rules.brown_discs for _ in range(count)],
        event_board={row: [] for row, _ in rules.event_spaces},
        stats=[Stats() for _ in range(rules.players)],
    )
    state.rng = rng
    state.start_player = start_player
    # rule 3.3: towns in seat order, cities in reverse
    order = [(state.start_player + i) % rules.players for i in range(rules.players)]
    for seat in order:
        state.queue += [Task("setup_town", seat), Task("setup_road", seat)]
    for seat in reversed(order):
        state.queue += [Task("setup_city", seat), Task("setup_road", seat)]
    state.active = state.start_player
    if rules.start == "quick":
        while state.phase == "setup":
            _apply_checked(state, quick_start_choice(state))
    return state


def quick_start_choice(state: GameState) -> Action:
    """The documented quick-start heuristic (rule 2.3 [H]).

    A town or city goes on the free corner with the most pips (dots on the
    number tokens around it), ties broken by the number of different
    resources and then by the game's set-up random stream; a road points to
    the neighbouring corner with the most pips.
    """
    board, rng = state.board, state.rng["setup"]
    options = legal_actions(state)

    def score(action: Action) -> tuple:
        if isinstance(action, BuildRoad):
            a, b = board.path_corners(action.path)
            far = b if state.owner_of(a) is not None else a
            return (board.corner_pips(far), rng.random())
        kinds = {board.hexes[h].resource for h in board.corner_hexes(action.corner)} - {None}
        return (board.corner_pips(action.corner), len(kinds), rng.random())

    return max(options, key=score)


def _starting_hand(state: GameState, seat: int, city: int) -> None:
    # rule 3.4: one card per resource hex around the city, plus science
    p, rules = state.players[seat], state.rules
    resources = [state.board.hexes[h].resource for h in state.board.corner_hexes(city)]
    resources = [r for r in resources if r]
    if not rules.starting_hand_per_hex:
        resources = sorted(set(resources))
    for r in resources:
        _gain(state, p, r, 1)
    _gain(state, p, "science", rules.starting_science)
    p.energy = min(rules.energy_cap, rules.starting_energy)
    state.energy_supply -= p.energy


def _finish_setup(state: GameState) -> None:
    state.phase = "event"
    state.active = state.start_player
    record_turn(state)  # turn 0: the starting position, so charts begin at 3 per player
    _start_turn(state)


# ==============================================================================================
# Small helpers
# ==============================================================================================


def _gain(state: GameState, p: PlayerState, kind: str, count: int) -> int:
    """Move up to ``count`` cards from the supply to a hand; returns how many moved."""
    count = min(count, state.supply[kind])
    state.supply[kind] -= count
    p.hand[kind] += count
    return count


def _pay(state: GameState, p: PlayerState, cost: dict[str, int]) -> None:
    for kind, n in cost.items():
        p.hand[kind] -= n
        state.supply[kind] += n


def _gain_energy(state: GameState, p: PlayerState, count: int) -> None:
    # rule 8.4: never more than the cap; excess stays in the supply
    count = min(count, state.energy_supply, state.rules.energy_cap - p.energy)
    if count > 0:
        p.energy += count
        state.energy_supply -= count


def _spend_energy(state: GameState, p: PlayerState, count: int) -> None:
    p.energy -= count
    state.energy_supply += count


def _lack(p: PlayerState, cost: dict[str, int], what: str) -> str | None:
    missing = [f"{n - p.hand[k]} {k}" for k, n in cost.items() if p.hand[k] < n]
    if not missing:
        return None
    price = " and ".join(f"{n} {k}" for k, n in cost.items())
    return f"{what} costs {price}; you are short of {', '.join(missing)}."


def _lack_energy(p: PlayerState, need: int, what: str) -> str | None:
    if p.energy >= need:
        return None
    return f"{what} costs {need} energy; you have {p.energy}."


def _corner_ok(board: Board, c: int) -> bool:
    return isinstance(c, int) and 0 <= c < len(board.corners)


def _distance_ok(state: GameState, c: int) -> bool:
    return all(state.owner_of(n) is None for n in state.board.corner_neighbors(c))


def _hand_text(p: PlayerState) -> str:
    return ", ".join(f"{n} {k}" for k, n in p.hand.items() if n) or "no cards"


def steal_random(state: GameState, thief: int, victim: int) -> None:
    """Take one random resource or science card (never energy, rule 11.1)."""
    hand = state.players[victim].hand
    cards = [k for k in CARD_KINDS for _ in range(hand[k])]
    if not cards:
        return
    card = state.rng["cards"].choice(cards)
    hand[card] -= 1
    state.players[thief].hand[card] += 1
    state.stats[victim].cards_stolen += 1
    state.log.append(f"Seat {thief} steals a card from seat {victim}")


# ==============================================================================================
# Checks — one per action kind; ``None`` means legal
# ==============================================================================================


def _check_road(state: GameState, a: BuildRoad, mode: str, anchor: int | None = None) -> str | None:
    board, p = state.board, state.players[a.seat]
    if not (isinstance(a.path, int) and 0 <= a.path < len(board.paths)):
        return f"There is no path {a.path!r} on this island."
    if state.road_owner(a.path) is not None:
        return "That path already has a road."
    if state.pieces_left(a.seat, "road") <= 0:
        return f"You have no roads left (all {state.rules.roads} are on the board)."
    ends = board.path_corners(a.path)
    if mode == "setup":
        if anchor not in ends:
            return "Your starting road must touch the building you just placed."
        return None
    if not any(_road_connects(state, a.seat, c) for c in ends):
        return "A road must connect to your own road or building, and cannot pass an opponent's building."
    if mode == "paid":
        return _lack(p, state.rules.cost("road"), "A road")
    return None


def _road_connects(state: GameState, seat: int, corner: int) -> bool:
    # rule 10.1: through one's own building, or along one's own road not cut by an opponent
    owner = state.owner_of(corner)
    if owner == seat:
        return True
    if owner is not None:
        return False
    roads = state.players[seat].roads
    return any(path in roads for path in state.board.corner_paths(corner))


def _check_town(state: GameState, a: BuildTown, setup: bool = False) -> str | None:
    p = state.players[a.seat]
    if not _corner_ok(state.board, a.corner):
        return f"There is no corner {a.corner!r} on this island."
    if state.owner_of(a.corner) is not None:
        return "That corner already has a building."
    if not _distance_ok(state, a.corner):
        return "Too close to another building: the corners next to a town must be empty (distance rule)."
    if state.pieces_left(a.seat, "town") <= 0:
        return f"You have no towns left (all {state.rules.towns} are on the board)."
    if setup:
        return None
    if not any(path in p.roads for path in state.board.corner_paths(a.corner)):
        return "A town must stand at the end of one of your roads."
    return _lack(p, state.rules.cost("town"), "A town")


def _check_city(state: GameState, a: BuildCity, setup: bool = False) -> str | None:
    p = state.players[a.seat]
    if not _corner_ok(state.board, a.corner):
        return f"There is no corner {a.corner!r} on this island."
    if state.pieces_left(a.seat, "city") <= 0:
        return f"You have no cities left (all {state.rules.cities} are on the board)."
    if setup:  # rule 3.2/3.3: the starting city stands on its own corner
        if state.owner_of(a.corner) is not None:
            return "That corner already has a building."
        if not _distance_ok(state, a.corner):
            return "Too close to another building: the corners next to a city must be empty (distance rule)."
        return None
    if a.corner not in p.towns:
        return "A city replaces one of your own towns: pick a corner with your town."
    return _lack(p, state.rules.cost("city"), "A city")


def _check_plant(state: GameState, a: BuildPlant, mode: str = "paid") -> str | None:
    """``mode``: "paid" (rule 10), "event" (free fossil, rule 7.4) or "sandbox" (free, any kind)."""
    board, p, rules = state.board, state.players[a.seat], state.rules
    if a.plant not in PLANTS:
        return f"A plant is 'fossil' or 'renewable', not {a.plant!r}."
    if mode == "event" and a.plant != "fossil":
        return "Production Increase gives a free fossil plant only."
    if not (isinstance(a.hex, int) and 0 <= a.hex < len(board.hexes)):
        return f"There is no hex {a.hex!r} on this island."
    if board.hexes[a.hex].number is None:
        return "Power plants stand on a land hex with a number, not on the desert."
    if a.corner not in p.buildings():
        return "A plant belongs to one of your own towns or cities: pick a corner with your building."
    if a.hex not in board.corner_hexes(a.corner):
        return "That hex does not touch the building you picked."
    if (a.corner, a.hex) in p.plants:
        return "That building already has a plant on this hex (one per hex)."
    slots = rules.city_plant_slots if a.corner in p.cities else rules.town_plant_slots
    if sum(1 for (c, _h) in p.plants if c == a.corner) >= slots:
        kind = "city" if a.corner in p.cities else "town"
        return f"A {kind} carries at most {slots} plant(s); this one is full."
    if state.pieces_left(a.seat, a.plant) <= 0:
        return f"You have no {a.plant} plants left."
    if mode != "paid":
        return None
    if state.plants_built >= rules.plants_per_turn:
        return f"You can build only {rules.plants_per_turn} plant per turn (rule 10.3)."
    return _lack(p, rules.cost(a.plant), f"A {a.plant} plant")


def _check_buy_dev(state: GameState, a: BuyDevCard) -> str | None:
    if not state.dev_deck:
        return "The development card deck is empty."
    return _lack(state.players[a.seat], state.rules.cost("dev_card"), "A development card")


def supply_rate(state: GameState, seat: int, give: str) -> int:
    """Cards of ``give`` needed for one card from the supply (rules 12.2, 12.3, 11)."""
    rules = state.rules
    if give == "science":
        return rules.science_rate
    if give == "energy":
        return rules.energy_card_rate
    rate = rules.bank_rate
    for c in state.players[seat].buildings():
        harbor = state.board.harbor_of(c)
        if harbor is None:
            continue
        if harbor.resource is None:
            rate = min(rate, rules.generic_harbor_rate)
        elif harbor.resource == give:
            rate = min(rate, rules.special_harbor_rate)
    return rate


def _check_supply_trade(state: GameState, a: TradeWithSupply) -> str | None:
    p = state.players[a.seat]
    if a.give not in CARD_KINDS + ("energy",):
        return f"You cannot trade {a.give!r} with the supply."
    allowed = CARD_KINDS if a.give == "energy" else RESOURCES
    if a.get not in allowed:
        what = "a resource or science" if a.give == "energy" else "a resource"
        return f"Trading {a.give} gets you {what}, not {a.get!r}."
    if a.get == a.give:
        return "Trading a card for the same card changes nothing."
    rate = supply_rate(state, a.seat, a.give)
    held = p.energy if a.give == "energy" else p.hand[a.give]
    if held < rate:
        return f"This trade needs {rate} {a.give}; you have {held}."
    if state.supply[a.get] <= 0:
        return f"The supply has no {a.get} left."
    return None


def _goods_problem(state: GameState, items: Goods, seat: int, who: str) -> str | None:
    tradeable = CARD_KINDS + (("energy",) if state.rules.energy_tradeable else ())
    p = state.players[seat]
    for kind, n in items:
        if kind not in tradeable:
            return f"{kind!r} cannot be traded between players."
        if not isinstance(n, int) or n <= 0:
            return "Every traded amount must be a whole number above 0."
        held = p.energy if kind == "energy" else p.hand[kind]
        if held < n:
            return f"{who} {n} {kind} but {'you have' if who == 'You offer' else 'they have'} {held}."
    if len({k for k, _ in items}) != len(items):
        return "Name each kind only once in a trade."
    return None


def _well_formed(items) -> bool:
    return isinstance(items, tuple) and all(
        isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) for x in items
    )


def _check_offer(state: GameState, a: OfferTrade) -> str | None:
    if not (isinstance(a.partner, int) and 0 <= a.partner < state.n) or a.partner == a.seat:
        return "Offer a trade to another player at the table."
    if not (_well_formed(a.give) and _well_formed(a.get)):
        return "Describe each side of a trade as (kind, count) pairs, e.g. ((\"brick\", 1),)."
    if not a.give or not a.get:
        return "A trade needs something on both sides."
    if {k for k, _ in a.give} & {k for k, _ in a.get}:
        return "Do not offer and ask for the same kind of card."
    if state.offers_made >= state.rules.trade_offers_per_turn:
        return f"You may make at most {state.rules.trade_offers_per_turn} trade offers per turn."
    return _goods_problem(state, a.give, a.seat, "You offer") or _goods_problem(
        state, a.get, a.partner, "You ask for"
    )


def _hazard_exists(state: GameState, place: str, index: int) -> bool:
    if place == "hex":
        return index in state.hex_hazards
    return place == "building" and index in state.building_hazards


def _check_remove_hazard(state: GameState, a: RemoveHazard, free: bool = False) -> str | None:
    if not _hazard_exists(state, a.place, a.index):
        return "There is no hazard there."
    if free:
        return None
    return _lack_energy(state.players[a.seat], state.rules.hazard_removal_energy, "Removing a hazard")


def _check_demolish(state: GameState, a: DemolishFossil) -> str | None:
    p = state.players[a.seat]
    if p.plants.get((a.corner, a.hex)) != "fossil":
        return "You have no fossil plant there."
    if state.demolished >= state.rules.demolish_per_turn:
        return "You may demolish only one fossil plant per turn."
    return _lack_energy(p, state.rules.demolish_energy, "Demolishing a fossil plant")


def _check_warehouse(state: GameState, a: BuildWarehouse) -> str | None:
    p = state.players[a.seat]
    if p.warehouse:
        return "You already built your warehouse (once per game)."
    return _lack_energy(p, state.rules.warehouse_energy, "The warehouse")


def _check_play_dev(state: GameState, a: PlayDevCard) -> str | None:
    p = state.players[a.seat]
    if a.card not in DEV_CARDS:
        return f"There is no development card called {a.card!r}."
    if a.card == "victory_point":
        return "Victory Point cards are never played: they count as soon as you hold them."
    if state.dev_played_turn >= state.rules.dev_cards_per_turn:
        return "You may play only one development card per turn."
    if a.card not in p.dev_cards:
        return f"You do not hold a {pretty(a.card)} card."
    if p.dev_cards.count(a.card) - p.dev_new.count(a.card) <= 0:
        return f"You got this {pretty(a.card)} card this turn; play it from your next turn."
    if state.phase == "roll" and not state.rules.dev_card_before_roll:
        return "Development cards may be played only after rolling."
    if a.card == "high_yield" and not _renewable_hexes(p):
        return "High Yield needs at least one of your renewable plants on the board."
    return None


def _renewable_hexes(p: PlayerState) -> list[int]:
    return sorted({h for (_c, h), k in p.plants.items() if k == "renewable"})


def _steal_candidates_near(state: GameState, hex_id: int, thief: int) -> list[int]:
    seats = {state.owner_of(c) for c in state.board.hex_corners(hex_id)}
    return [
        s for s in state.clockwise_from_active()
        if s in seats and s != thief and state.players[s].cards > 0
    ]


def _cleanup_victims(state: GameState, seat: int) -> list[int]:
    # rule 13.5: only a player whose LF is higher than yours
    mine = state.local_footprint(seat)
    return [
        s for s in state.clockwise_from_active()
        if s != seat and state.local_footprint(s) > mine and state.players[s].cards > 0
    ]


def _check_move_inspector(state: GameState, a: MoveInspector) -> str | None:
    board = state.board
    if not (isinstance(a.hex, int) and 0 <= a.hex < len(board.hexes)):
        return f"There is no hex {a.hex!r} on this island."
    if a.hex == state.inspector:
        return "The Inspector must move to another hex."
    if a.hex in state.hex_hazards:
        return "The Inspector cannot move onto a hex with a hazard."
    return None


# ==============================================================================================
# Decisions the engine waits for
# ==============================================================================================

# task kind -> action types that answer it
_ANSWERS: dict[str, tuple[type, ...]] = {
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
}

_TASK_TEXT = {
    "setup_town": "place a starting town",
    "setup_city": "place a starting city",
    "setup_road": "place a starting road",
    "discard": "discard cards",
    "take_card": "take a card from the supply",
    "move_inspector": "move the Inspector",
    "cleanup": "move the Inspector or remove a hazard (Cleanup)",
    "choose_victim": "choose whom to steal from",
    "place_hazard": "put a hazard on one of their buildings",
    "free_fossil": "place a free fossil plant or decline",
    "free_road": "place a free road",
    "choose_hex": "choose a hex for High Yield",
    "trade_response": "answer a trade offer",
}


def task_text(task: Task) -> str:
    """What the engine waits for, in words."""
    return _TASK_TEXT.get(task.kind, task.kind.replace("_", " "))


def _check_decision(state: GameState, task: Task, a: Action) -> str | None:
    kind, p = task.kind, state.players[a.seat]
    if kind == "setup_town":
        return _check_town(state, a, setup=True)
    if kind == "setup_city":
        return _check_city(state, a, setup=True)
    if kind == "setup_road":
        return _check_road(state, a, "setup", task.info["corner"])
    if kind == "free_road":
        return _check_road(state, a, "free")
    if kind == "discard":
        if a.card not in CARD_KINDS:
            return f"You can discard resource or science cards, not {a.card!r}."
        if p.hand[a.card] <= 0:
            return f"You have no {a.card} to discard."
        return None
    if kind == "take_card":
        allowed = RESOURCES if task.info["kinds"] == "resource" else CARD_KINDS
        if a.card not in allowed:
            return f"Choose one of: {', '.join(allowed)}."
        if state.supply[a.card] <= 0:
            return f"The supply has no {a.card} left."
        return None
    if kind == "move_inspector" or (kind == "cleanup" and isinstance(a, MoveInspector)):
        return _check_move_inspector(state, a)
    if kind == "cleanup":
        return _check_remove_hazard(state, a, free=True)
    if kind == "choose_victim":
        return None if a.victim in task.info["candidates"] else "You cannot steal from that seat now."
    if kind == "place_hazard":
        if a.corner not in events.hazard_targets(state, a.seat, task.info["source"]):
            return _hazard_target_reason(task.info["source"])
        return None
    if kind == "free_fossil":
        if isinstance(a, Decline):
            if not state.rules.production_increase_optional:
                return "The free fossil plant must be built."
            return None
        return _check_plant(state, a, "event")
    if kind == "choose_hex":
        if a.hex not in _renewable_hexes(p) or a.hex in task.info["chosen"]:
            return "Choose a different hex that holds one of your renewable plants."
        return None
    if kind == "trade_response":
        if a.accept:  # both sides must still hold their goods (a sandbox edit may intervene)
            offered = _goods_problem(state, _goods(task.info["give"]), task.info["from"], "They offer")
            if offered:
                return "The offer can no longer be accepted: the other player no longer has the goods."
            return _goods_problem(state, _goods(task.info["get"]), a.seat, "You give")
        return None
    return f"Nothing to decide for {kind}."


def _hazard_target_reason(source: str) -> str:
    if source == "air_pollution":
        return "Air Pollution: put the hazard on one of your cities without a hazard (a town only if you have no such city)."
    return "Put the hazard on one of your own towns or cities that has no hazard yet."


def _goods(items) -> Goods:
    return tuple((k, n) for k, n in items)


def _decision_candidates(state: GameState, task: Task) -> list[Action]:
    s, kind, board = task.seat, task.kind, state.board
    if kind == "setup_town":
        return [BuildTown(s, c) for c in board.corners]
    if kind == "setup_city":
        return [BuildCity(s, c) for c in board.corners]
    if kind == "setup_road":
        return [BuildRoad(s, p) for p in board.corner_paths(task.info["corner"])]
    if kind == "free_road":
        return [BuildRoad(s, p) for p in _road_frontier(state, s)]
    if kind == "discard":
        return [DiscardCard(s, k) for k in CARD_KINDS]
    if kind == "take_card":
        return [TakeCard(s, k) for k in CARD_KINDS]
    if kind == "move_inspector":
        return [MoveInspector(s, h.id) for h in board.hexes]
    if kind == "cleanup":
        return [MoveInspector(s, h.id) for h in board.hexes] + _hazard_removals(state, s)
    if kind == "choose_victim":
        return [ChooseVictim(s, v) for v in task.info["candidates"]]
    if kind == "place_hazard":
        return [PlaceHazard(s, c) for c in events.hazard_targets(state, s, task.info["source"])]
    if kind == "free_fossil":
        return _plant_spots(state, s, ("fossil",)) + [Decline(s)]
    if kind == "choose_hex":
        return [ChooseHex(s, h) for h in _renewable_hexes(state.players[s])]
    if kind == "trade_response":
        return [RespondToTrade(s, True), RespondToTrade(s, False)]
    return []


def _decision_options(state: GameState, task: Task) -> list[Action]:
    return [a for a in _decision_candidates(state, task) if _check_decision(state, task, a) is None]


def _hazard_removals(state: GameState, seat: int) -> list[Action]:
    return [RemoveHazard(seat, "hex", h) for h in sorted(state.hex_hazards)] + [
        RemoveHazard(seat, "building", c) for c in sorted(state.building_hazards)
    ]


def _road_frontier(state: GameState, seat: int) -> list[int]:
    p, board = state.players[seat], state.board
    corners = set(p.buildings())
    for path in p.roads:
        corners.update(board.path_corners(path))
    return sorted({path for c in corners for path in board.corner_paths(c)} - p.roads)


def _plant_spots(state: GameState, seat: int, kinds: tuple[str, ...]) -> list[Action]:
    p, board = state.players[seat], state.board
    return [
        BuildPlant(seat, kind, c, h)
        for c in sorted(p.buildings())
        for h in board.corner_hexes(c)
        for kind in kinds
    ]


# ==============================================================================================
# The public trio
# ==============================================================================================


def current_seat(state: GameState) -> int | None:
    """The seat that must decide now, or None when the game is over."""
    if state.outcome is not None:
        return None
    return state.queue[0].seat if state.queue else state.active


def why_illegal(state: GameState, action: Action) -> str | None:
    """Why ``action`` may not be applied now, or None if it is legal."""
    if not isinstance(action, Action):
        return f"{action!r} is not an action."
    if isinstance(action, SandboxEdit):
        from .sandbox import check_edit

        return check_edit(state, action)
    if state.outcome is not None:
        return "The game is over."
    seat = current_seat(state)
    if action.seat != seat:
        waiting = f"seat {seat} must {task_text(state.queue[0])}" if state.queue else f"it is seat {seat}'s turn"
        return f"Not your move: {waiting}."
    if state.queue:
        task = state.queue[0]
        if not isinstance(action, _ANSWERS[task.kind]):
            return f"First {task_text(task)}."
        return _check_decision(state, task, action)
    return _check_free(state, action)


_FREE_CHECKS: dict[type, Callable[[GameState, Action], str | None]] = {
    BuildRoad: lambda s, a: _check_road(s, a, "paid"),
    BuildTown: _check_town,
    BuildCity: _check_city,
    BuildPlant: _check_plant,
    BuyDevCard: _check_buy_dev,
    TradeWithSupply: _check_supply_trade,
    OfferTrade: _check_offer,
    RemoveHazard: _check_remove_hazard,
    DemolishFossil: _check_demolish,
    BuildWarehouse: _check_warehouse,
    PlayDevCard: _check_play_dev,
    RollDice: lambda s, a: None,
    EndTurn: lambda s, a: None,
}


def _check_free(state: GameState, action: Action) -> str | None:
    check = _FREE_CHECKS.get(type(action))
    if check is None:
        return f"There is nothing to answer with {action.kind.replace('_', ' ')} now."
    if state.phase == "roll":
        if not isinstance(action, (RollDice, PlayDevCard)):
            return "Roll the dice first (you may play a development card before rolling)."
    elif isinstance(action, RollDice):
        return "You already rolled this turn."
    return check(state, action)


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the seat that must decide now (empty when the game is over).

    Player trades are listed as one-for-one offers; ``apply`` also accepts any
    larger bundle that ``why_illegal`` approves.
    """
    if state.outcome is not None:
        return []
    if state.queue:
        return _decision_options(state, state.queue[0])
    seat, p = state.active, state.players[state.active]
    legal: list[Action] = [
        a for c in sorted(set(p.dev_cards)) if _check_play_dev(state, a := PlayDevCard(seat, c)) is None
    ]
    if state.phase == "roll":
        return legal + [RollDice(seat)]
    rules = state.rules
    legal.append(EndTurn(seat))
    checked: list[tuple[Callable, list[Action]]] = []
    if not _lack(p, rules.cost("road"), ""):
        checked.append((_FREE_CHECKS[BuildRoad], [BuildRoad(seat, x) for x in _road_frontier(state, seat)]))
    if not _lack(p, rules.cost("town"), ""):
        ends = sorted({c for path in p.roads for c in state.board.path_corners(path)})
        checked.append((_check_town, [BuildTown(seat, c) for c in ends]))
    if not _lack(p, rules.cost("city"), ""):
        checked.append((_check_city, [BuildCity(seat, c) for c in sorted(p.towns)]))
    if state.plants_built < rules.plants_per_turn and p.hand["science"] >= 1:
        checked.append((_check_plant, _plant_spots(state, seat, PLANTS)))
    checked.append((_check_buy_dev, [BuyDevCard(seat)]))
    if p.energy > 0:
        checked.append((_check_remove_hazard, _hazard_removals(state, seat)))
        fossils = [DemolishFossil(seat, c, h) for (c, h), k in sorted(p.plants.items()) if k == "fossil"]
        checked.append((_check_demolish, fossils))
    if not p.warehouse:
        checked.append((_check_warehouse, [BuildWarehouse(seat)]))
    for check, candidates in checked:
        legal += [a for a in candidates if check(state, a) is None]
    # trades are generated valid by construction (they are many; tests hold them to why_illegal)
    legal += _supply_trades(state, seat)
    if state.offers_made < rules.trade_offers_per_turn:
        legal += _one_for_one_offers(state, seat)
    return legal


def _supply_trades(state: GameState, seat: int) -> list[Action]:
    p, trades = state.players[seat], []
    for give in CARD_KINDS + ("energy",):
        held = p.energy if give == "energy" else p.hand[give]
        if held < supply_rate(state, seat, give):
            continue
        gets = CARD_KINDS if give == "energy" else RESOURCES
        trades += [TradeWithSupply(seat, give, get) for get in gets if get != give and state.supply[get] > 0]
    return trades


def _one_for_one_offers(state: GameState, seat: int) -> list[Action]:
    kinds = CARD_KINDS + (("energy",) if state.rules.energy_tradeable else ())
    me = state.players[seat]

    def held(p: PlayerState, k: str) -> int:
        return p.energy if k == "energy" else p.hand[k]

    offers: list[Action] = []
    for other in state.players:
        if other.seat == seat:
            continue
        for give in kinds:
            if held(me, give) <= 0:
                continue
            for get in kinds:
                if get != give and held(other, get) > 0:
                    offers.append(OfferTrade(seat, other.seat, ((give, 1),), ((get, 1),)))
    return offers


def apply(state: GameState, action: Action) -> None:
    """Apply a legal action, or raise IllegalActionError and change nothing."""
    reason = why_illegal(state, action)
    if reason is not None:
        raise IllegalActionError(reason, action)
    if isinstance(action, SandboxEdit):
        from .sandbox import apply_edit

        apply_edit(state, action)
        return
    _apply_checked(state, action)


def _apply_checked(state: GameState, action: Action) -> None:
    state.log.append(str(action))
    if state.queue:
        task = state.queue[0]
        _DECISION_EFFECTS[task.kind](state, task, action)
    else:
        _FREE_EFFECTS[type(action)](state, action)
    _run(state)


# ==============================================================================================
# The turn machine
# ==============================================================================================


def _run(state: GameState) -> None:
    """Run automatic steps until a decision is needed or the action phase is free."""
    while state.outcome is None:
        _check_victory(state)
        if state.outcome is not None or not state.queue:
            break
        task = state.queue[0]
        if task.kind == "draw":
            state.queue.pop(0)
            events.draw_disc(state)
        elif task.kind == "begin_roll":
            state.queue.pop(0)
            state.phase = "roll"
        elif task.kind == "end_setup":
            state.queue.pop(0)
            _finish_setup(state)
        elif not any(not isinstance(a, Decline) for a in _decision_options(state, task)):
            state.queue.pop(0)  # nothing to choose (no card, no spot, no hazard left)
        else:
            break
    if state.outcome is not None and (not state.history or state.history[-1]["turn"] != state.turn):
        record_turn(state)  # the final position of a game that ended mid-turn


def _check_victory(state: GameState) -> None:
    # rule 14.1: 10 VP on the player's own turn wins at once
    if state.phase in ("setup", "over"):
        return
    seat = state.active
    if state.victory_points(seat) >= state.rules.victory_points:
        state.finish(
            "victory_points",
            (seat,),
            f"Seat {seat} reaches {state.victory_points(seat)} victory points on their turn and wins.",
        )


def _start_turn(state: GameState) -> None:
    state.turn += 1
    if state.turn > state.rules.turn_limit:  # rule 14.3
        state.turn -= 1
        state.finish("unfinished", (), f"The turn limit ({state.rules.turn_limit}) was reached.")
        return
    state.plants_built = state.demolished = state.dev_played_turn = state.offers_made = 0
    state.dice = None
    for p in state.players:
        p.dev_new.clear()  # rule 5.4: cards bought or received last turn become playable
    p = state.players[state.active]
    if p.buildings() and p.buildings() <= state.building_hazards:
        state.stats[state.active].blocked_turns += 1
    state.log.append(f"— Turn {state.turn}: seat {state.active} —")
    _check_victory(state)
    if state.outcome is None:
        events.begin_event_phase(state)


def record_turn(state: GameState) -> None:
    """Append one history record per seat (design §3)."""
    gf = state.global_footprint
    for p in state.players:
        st = state.stats[p.seat]
        state.history.append(
            {
                "turn": state.turn,
                "seat": p.seat,
                "active": state.active,
                "lf": state.local_footprint(p.seat),
                "gf": gf,
                "vp": state.victory_points(p.seat),
                "towns": len(p.towns),
                "cities": len(p.cities),
                "roads": len(p.roads),
                "fossil": p.count_plants("fossil"),
                "renewable": p.count_plants("renewable"),
                "energy": p.energy,
                "science": p.hand["science"],
                "resources": sum(p.hand[r] for r in RESOURCES),
                "hand_size": p.cards,
                "hazards_on_buildings": len(p.buildings() & state.building_hazards),
                "hazards_suffered": st.hazards_suffered,
                "production_lost": st.production_lost,
                "cards_discarded": st.cards_discarded,
                "cards_stolen": st.cards_stolen,
                "blocked_turns": st.blocked_turns,
                "bag": len(state.bag),
            }
        )


# ==============================================================================================
# Effects of free actions
# ==============================================================================================


def _do_roll(state: GameState, a: RollDice) -> None:
    state.dice = state.roll_dice()
    total = sum(state.dice)
    state.log.append(f"Seat {a.seat} rolled {total}")
    state.phase = "action"
    if total == 7:
        _seven(state)
    else:
        _produce(state, total)


def _seven(state: GameState) -> None:
    # rule 9.1 discards, then 9.2 the Inspector and the steal
    rules, tasks = state.rules, []
    for s in state.clockwise_from_active():
        p = state.players[s]
        limit = rules.warehouse_threshold if p.warehouse else rules.discard_threshold
        if p.cards > limit:
            tasks.append(Task("discard", s, {"count": p.cards // 2, "source": "seven"}))
    tasks.append(Task("move_inspector", state.active, {"source": "seven"}))
    state.queue[0:0] = tasks


def _produce(state: GameState, total: int) -> None:
    """Production for a dice total other than 7 (rules 8.1–8.6)."""
    board, rules = state.board, state.rules
    rolled = board.hexes_with_number(total)
    producing = [h for h in rolled if h != state.inspector and h not in state.hex_hazards]
    owed: dict[str, Counter] = {}  # resource -> seat -> cards
    sources: list[tuple[int, int, int]] = []  # (seat, corner, hex) entitled to production
    for h in rolled:
        resource = board.hexes[h].resource
        for c in board.hex_corners(h):
            seat = state.owner_of(c)
            if seat is None:
                continue
            blocked = h not in producing or c in state.building_hazards
            if blocked:  # rules 8.1/8.2: the Inspector or a hazard keeps the cards away
                state.stats[seat].production_lost += 2 if c in state.players[seat].cities else 1
                continue
            owed.setdefault(resource, Counter())[seat] += 1
            sources.append((seat, c, h))
    received: dict[str, set[int]] = {}
    for resource, per_seat in owed.items():
        received[resource] = _pay_out(state, resource, per_seat)
    science = Counter(seat for seat, c, _h in sources if c in state.players[seat].cities)
    received["science"] = _pay_clockwise(state, "science", science)
    # rule 8.3: a plant gives energy when its building received production from its hex
    energy = Counter(
        seat
        for seat, c, h in sources
        if (c, h) in state.players[seat].plants and seat in received[board.hexes[h].resource]
    )
    for seat in state.clockwise_from_active():
        _gain_energy(state, state.players[seat], energy[seat])
    _remove_hazards_after_roll(state, rolled, producing)


def _pay_out(state: GameState, resource: str, per_seat: Counter) -> set[int]:
    # rule 8.6 [H]: a short supply pays nobody, unless only one player is owed
    if sum(per_seat.values()) <= state.supply[resource]:
        for seat, n in per_seat.items():
            _gain(state, state.players[seat], resource, n)
        return set(per_seat)
    if state.rules.shortage_rule == "clockwise":
        return _pay_clockwise(state, resource, per_seat)
    if len(per_seat) == 1:
        seat = next(iter(per_seat))
        return {seat} if _gain(state, state.players[seat], resource, per_seat[seat]) else set()
    state.log.append(f"The supply is short of {resource}: nobody gets {resource}.")
    return set()


def _pay_clockwise(state: GameState, kind: str, per_seat: Counter) -> set[int]:
    paid = set()
    for seat in state.clockwise_from_active():
        if per_seat[seat] and _gain(state, state.players[seat], kind, per_seat[seat]):
            paid.add(seat)
    return paid


def _remove_hazards_after_roll(state: GameState, rolled, producing) -> None:
    # rule 8.5: a hex hazard goes when its number is rolled; a building hazard goes when an
    # adjacent hex without the Inspector and without a hazard was rolled
    board = state.board
    gone_hex = [h for h in rolled if h in state.hex_hazards]
    gone_building = [
        c for c in state.building_hazards if any(h in producing for h in board.corner_hexes(c))
    ]
    state.hex_hazards.difference_update(gone_hex)
    state.building_hazards.difference_update(gone_building)
    if gone_hex or gone_building:
        state.log.append(f"{len(gone_hex) + len(gone_building)} hazard(s) cleared by production")


def _do_build_road(state: GameState, a: BuildRoad, paid: bool = True) -> None:
    p = state.players[a.seat]
    if paid:
        _pay(state, p, state.rules.cost("road"))
    p.roads.add(a.path)
    update_longest_road(state)


def _do_build_town(state: GameState, a: BuildTown, paid: bool = True) -> None:
    p = state.players[a.seat]
    if paid:
        _pay(state, p, state.rules.cost("town"))
    holder = state.longest_road_holder
    before = longest_road(state, holder) if holder not in (None, a.seat) else None
    p.towns.add(a.corner)
    update_longest_road(state, before)  # a town can cut an opponent's road


def _do_build_city(state: GameState, a: BuildCity) -> None:
    p = state.players[a.seat]
    _pay(state, p, state.rules.cost("city"))
    p.towns.discard(a.corner)
    p.cities.add(a.corner)
    if not state.rules.city_keeps_town_plant:  # rule 10.5 variant
        for key in [k for k in p.plants if k[0] == a.corner]:
            del p.plants[key]


def _place_plant(state: GameState, a: BuildPlant) -> None:
    p = state.players[a.seat]
    p.plants[(a.corner, a.hex)] = a.plant
    if a.plant == "renewable" and p.green_slots:  # rule 10.4
        state.bag.append(("green", p.green_slots.pop(0)))


def _do_build_plant(state: GameState, a: BuildPlant) -> None:
    _pay(state, state.players[a.seat], state.rules.cost(a.plant))
    state.plants_built += 1
    _place_plant(state, a)


def _do_buy_dev(state: GameState, a: BuyDevCard) -> None:
    p = state.players[a.seat]
    _pay(state, p, state.rules.cost("dev_card"))
    card = state.dev_deck.pop()
    p.dev_cards.append(card)
    p.dev_new.append(card)


def _do_supply_trade(state: GameState, a: TradeWithSupply) -> None:
    p = state.players[a.seat]
    rate = supply_rate(state, a.seat, a.give)
    if a.give == "energy":
        _spend_energy(state, p, rate)
    else:
        _pay(state, p, {a.give: rate})
    _gain(state, p, a.get, 1)


def _do_offer(state: GameState, a: OfferTrade) -> None:
    state.offers_made += 1
    info = {"from": a.seat, "give": [list(x) for x in a.give], "get": [list(x) for x in a.get]}
    state.queue.insert(0, Task("trade_response", a.partner, info))


def _do_remove_hazard(state: GameState, a: RemoveHazard, paid: bool = True) -> None:
    if paid:
        _spend_energy(state, state.players[a.seat], state.rules.hazard_removal_energy)
    (state.hex_hazards if a.place == "hex" else state.building_hazards).discard(a.index)


def _do_demolish(state: GameState, a: DemolishFossil) -> None:
    p = state.players[a.seat]
    _spend_energy(state, p, state.rules.demolish_energy)
    del p.plants[(a.corner, a.hex)]
    state.demolished += 1


def _do_warehouse(state: GameState, a: BuildWarehouse) -> None:
    p = state.players[a.seat]
    _spend_energy(state, p, state.rules.warehouse_energy)
    p.warehouse = True


def _do_play_dev(state: GameState, a: PlayDevCard) -> None:
    p, rules = state.players[a.seat], state.rules
    p.dev_cards.remove(a.card)
    p.dev_played[a.card] = p.dev_played.get(a.card, 0) + 1
    state.dev_played_turn += 1
    s = a.seat
    if a.card == "cleanup":  # rule 13.5
        state.queue.insert(0, Task("cleanup", s))
        _update_environmentalist(state)
    elif a.card == "road_construction":  # rule 13.1
        state.queue[0:0] = [Task("free_road", s) for _ in range(rules.road_construction_roads)]
    elif a.card == "research_grant":  # rule 13.3
        info = {"kinds": "resource", "source": "research_grant"}
        state.queue[0:0] = [Task("take_card", s, dict(info)) for _ in range(rules.research_grant_cards)]
    elif a.card == "high_yield":  # rule 13.2
        hexes = _renewable_hexes(p)
        if len(hexes) <= rules.high_yield_hexes:
            for h in hexes:
                _gain(state, p, state.board.hexes[h].resource, 1)
        else:
            state.queue[0:0] = [
                Task("choose_hex", s, {"chosen": []}) for _ in range(rules.high_yield_hexes)
            ]


def _do_end_turn(state: GameState, a: EndTurn) -> None:
    record_turn(state)
    state.active = (state.active + 1) % state.n
    _start_turn(state)


_FREE_EFFECTS: dict[type, Callable[[GameState, Action], None]] = {
    RollDice: _do_roll,
    EndTurn: _do_end_turn,
    BuildRoad: _do_build_road,
    BuildTown: _do_build_town,
    BuildCity: _do_build_city,
    BuildPlant: _do_build_plant,
    BuyDevCard: _do_buy_dev,
    TradeWithSupply: _do_supply_trade,
    OfferTrade: _do_offer,
    RemoveHazard: _do_remove_hazard,
    DemolishFossil: _do_demolish,
    BuildWarehouse: _do_warehouse,
    PlayDevCard: _do_play_dev,
}


# ==============================================================================================
# Effects of decisions
# ==============================================================================================


def _decide_setup_town(state: GameState, task: Task, a: BuildTown) -> None:
    state.queue.pop(0)
    _do_build_town(state, a, paid=False)
    state.queue[0].info["corner"] = a.corner  # the road that follows must touch it


def _decide_setup_city(state: GameState, task: Task, a: BuildCity) -> None:
    state.queue.pop(0)
    state.players[a.seat].cities.add(a.corner)
    _starting_hand(state, a.seat, a.corner)
    state.queue[0].info["corner"] = a.corner


def _decide_setup_road(state: GameState, task: Task, a: BuildRoad) -> None:
    state.queue.pop(0)
    _do_build_road(state, a, paid=False)
    if not state.queue:
        state.queue.append(Task("end_setup"))


def _decide_free_road(state: GameState, task: Task, a: BuildRoad) -> None:
    state.queue.pop(0)
    _do_build_road(state, a, paid=False)


def _decide_discard(state: GameState, task: Task, a: DiscardCard) -> None:
    p = state.players[a.seat]
    p.hand[a.card] -= 1
    state.supply[a.card] += 1
    state.stats[a.seat].cards_discarded += 1
    task.info["count"] -= 1
    if task.info["count"] <= 0 or p.cards == 0:
        state.queue.pop(0)


def _decide_take_card(state: GameState, task: Task, a: TakeCard) -> None:
    state.queue.pop(0)
    _gain(state, state.players[a.seat], a.card, 1)


def _decide_move_inspector(state: GameState, task: Task, a: MoveInspector) -> None:
    state.queue.pop(0)
    state.inspector = a.hex
    if task.kind == "move_inspector":  # rule 9.2: steal from a building next to the hex
        _queue_steal(state, a.seat, _steal_candidates_near(state, a.hex, a.seat), "seven")
    else:
        _queue_steal(state, a.seat, _cleanup_victims(state, a.seat), "cleanup")


def _decide_cleanup_hazard(state: GameState, task: Task, a: RemoveHazard) -> None:
    state.queue.pop(0)
    _do_remove_hazard(state, a, paid=False)
    _queue_steal(state, a.seat, _cleanup_victims(state, a.seat), "cleanup")


def _queue_steal(state: GameState, thief: int, candidates: list[int], source: str) -> None:
    if len(candidates) == 1:
        steal_random(state, thief, candidates[0])
    elif candidates:
        state.queue.insert(0, Task("choose_victim", thief, {"candidates": candidates, "source": source}))


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
    _place_plant(state, a)  # rule 7.4: not counted toward the one-plant limit
    _gain(state, state.players[a.seat], state.board.hexes[a.hex].resource, 1)


def _decide_choose_hex(state: GameState, task: Task, a: ChooseHex) -> None:
    state.queue.pop(0)
    _gain(state, state.players[a.seat], state.board.hexes[a.hex].resource, 1)
    for later in state.queue:
        if later.kind == "choose_hex" and later.seat == a.seat:
            later.info["chosen"] = task.info["chosen"] + [a.hex]


def _decide_trade(state: GameState, task: Task, a: RespondToTrade) -> None:
    state.queue.pop(0)
    if not a.accept:
        return
    offerer, partner = state.players[task.info["from"]], state.players[a.seat]
    _move_goods(state, offerer, partner, _goods(task.info["give"]))
    _move_goods(state, partner, offerer, _goods(task.info["get"]))


def _move_goods(state: GameState, giver: PlayerState, taker: PlayerState, items: Goods) -> None:
    for kind, n in items:
        if kind == "energy":
            giver.energy -= n
            state.energy_supply += n
            _gain_energy(state, taker, n)  # rule 8.4: the cap holds for traded energy too
        else:
            giver.hand[kind] -= n
            taker.hand[kind] += n


def _decide_cleanup(state: GameState, task: Task, a: Action) -> None:
    if isinstance(a, MoveInspector):
        _decide_move_inspector(state, task, a)
    else:
        _decide_cleanup_hazard(state, task, a)


_DECISION_EFFECTS: dict[str, Callable[[GameState, Task, Action], None]] = {
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
}


# ==============================================================================================
# Awards (rules 13.6, 13.7)
# ==============================================================================================


def longest_road(state: GameState, seat: int) -> int:
    """Length of the seat's longest continuous road; opponents' buildings cut it."""
    board, roads = state.board, state.players[seat].roads
    if not roads:
        return 0
    blocked = {c for p in state.players if p.seat != seat for c in p.buildings()}
    best = 0

    def walk(corner: int, used: set[int]) -> int:
        longest = len(used)
        if corner in blocked and used:
            return longest
        for path in board.corner_paths(corner):
            if path in roads and path not in used:
                a, b = board.path_corners(path)
                used.add(path)
                longest = max(longest, walk(b if a == corner else a, used))
                used.remove(path)
        return longest

    for corner in {c for path in roads for c in board.path_corners(path)}:
        best = max(best, walk(corner, set()))
    return best


def update_longest_road(state: GameState, holder_before: int | None = None) -> None:
    """Give, keep, take or set aside the Longest Road card (rule 13.6).

    ``holder_before`` is the holder's length before a town was built, so a
    road that the town broke can be told apart from one that was only equalled.
    """
    rules = state.rules
    lengths = {s: longest_road(state, s) for s in range(state.n)}
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


def _update_environmentalist(state: GameState) -> None:
    # rule 13.7: first to 3 played Cleanups; another takes it only with strictly more
    rules = state.rules
    played = {p.seat: p.dev_played.get("cleanup", 0) for p in state.players}
    holder = state.environmentalist_holder
    best = max(played, key=lambda s: (played[s], s == holder))
    if played[best] < rules.environmentalist_min:
        return
    if holder is None or played[best] > played[holder]:
        state.environmentalist_holder = best


__all__ = [
    "IllegalActionError",
    "apply",
    "current_seat",
    "legal_actions",
    "longest_road",
    "new_state",
    "why_illegal",
    "supply_rate",
    "goods_text",
]
