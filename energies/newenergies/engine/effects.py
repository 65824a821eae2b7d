"""Effects: how legal actions change the state — building, trading, production.

Nothing here checks legality; :mod:`energies.engine` calls these only with actions the
checks in :mod:`energies.checks` approve (checked by ``apply``, or just listed by
:mod:`energies.listing`, which the tests hold to those checks), so a rejected action never
reaches this module.
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import (
    Action,
    AskForProposals,
    BuildCity,
    BuildPlant,
    BuildRoad,
    BuildTown,
    BuildWarehouse,
    BuyDevCard,
    DemolishFossil,
    OfferTrade,
    PlayDevCard,
    ProposeTrade,
    RemoveHazard,
    RollDice,
    TradeWithSupply,
)
from ..rules import CARD_KINDS
from ..state import GameState, PlayerState, Task
from .awards import (
    holder_road_length,
    update_environmentalist,
    update_longest_road,
)
from .checks import proposers_left, renewable_hexes, supply_rate

# ==============================================================================================
# Moving cards and tokens
# ==============================================================================================


def gain(state: GameState, p: PlayerState, kind: str, count: int) -> int:
    """Move up to ``count`` cards from the supply to a hand; returns how many moved."""
    count = min(count, state.supply[kind])
    state.supply[kind] -= count
    p.hand[kind] += count
    return count


def pay(state: GameState, p: PlayerState, cost: dict[str, int]) -> None:
    for kind, n in cost.items():
        p.hand[kind] -= n
        state.supply[kind] += n


def gain_energy(state: GameState, p: PlayerState, count: int) -> None:
    # rule 8.4: never more than the cap; excess stays in the supply
    count = min(count, state.energy_supply, state.rules.energy_cap - p.energy)
    if count > 0:
        p.energy += count
        state.energy_supply -= count


def spend_energy(state: GameState, p: PlayerState, count: int) -> None:
    p.energy -= count
    state.energy_supply += count


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


def starting_hand(state: GameState, seat: int, city: int) -> None:
    # rule 3.4: one card per resource hex around the city, plus science
    p, rules = state.players[seat], state.rules
    resources = [state.board.hexes[h].resource for h in state.board.corner_hexes(city)]
    resources = [r for r in resources if r]
    if not rules.starting_hand_per_hex:
        resources = sorted(set(resources))
    for r in resources:
        gain(state, p, r, 1)
    gain(state, p, "science", rules.starting_science)
    p.energy = min(rules.energy_cap, rules.starting_energy)
    state.energy_supply -= p.energy


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
    if state.rules.trade_offers_per_turn > 0:  # rule 12.1: the others may propose trades
        others = state.clockwise_from_active()[1:]
        state.queue += [Task("propose_trade", seat, {"made": 0}) for seat in others]


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
    board, owners = state.board, state.corner_owners()
    rolled = board.hexes_with_number(total)
    producing = [h for h in rolled if h != state.inspector and h not in state.hex_hazards]
    owed: dict[str, dict[int, int]] = {}  # resource -> seat -> cards
    sources: list[tuple[int, int, int]] = []  # (seat, corner, hex) entitled to production
    for h in rolled:
        resource = board.hexes[h].resource
        for c in board.hex_corners(h):
            seat = owners.get(c)
            if seat is None:
                continue
            blocked = h not in producing or c in state.building_hazards
            if blocked:  # rules 8.1/8.2: the Inspector or a hazard keeps the cards away
                lost, stats = 2 if c in state.players[seat].cities else 1, state.stats[seat]
                stats.production_lost += lost
                if h != state.inspector:  # a hex or building hazard, not the Inspector
                    stats.production_lost_hazard += lost
                continue
            per_seat = owed.setdefault(resource, {})
            per_seat[seat] = per_seat.get(seat, 0) + 1
            sources.append((seat, c, h))
    received = {
        resource: _pay_out(state, resource, per_seat) for resource, per_seat in owed.items()
    }
    # rule 8.3 [H]: in a shortage (8.6) energy follows the hex producing, like a city's
    # science; "card" gives it only with the card paid (the engine before 0.4)
    energy_needs_card = state.rules.shortage_energy == "card"
    science: dict[int, int] = {}  # rule 8.2: a producing city also gives one science
    energy: dict[int, int] = {}  # rule 8.3: a plant whose building received from its hex
    for seat, c, h in sources:
        p = state.players[seat]
        if c in p.cities:
            science[seat] = science.get(seat, 0) + 1
        if (c, h) in p.plants and (
            not energy_needs_card or seat in received[board.hexes[h].resource]
        ):
            energy[seat] = energy.get(seat, 0) + 1
    if science:
        _pay_clockwise(state, "science", science)
    if energy:
        for seat in state.clockwise_from_active():
            if seat in energy:
                gain_energy(state, state.players[seat], energy[seat])
    _remove_hazards_after_roll(state, rolled)


def _pay_out(state: GameState, resource: str, per_seat: dict[int, int]) -> set[int]:
    # rule 8.6 [H]: a short supply pays nobody, unless only one player is owed
    if sum(per_seat.values()) <= state.supply[resource]:
        for seat, n in per_seat.items():
            gain(state, state.players[seat], resource, n)
        return set(per_seat)
    if state.rules.shortage_rule == "clockwise":
        return _pay_clockwise(state, resource, per_seat)
    if len(per_seat) == 1:
        seat = next(iter(per_seat))
        return {seat} if gain(state, state.players[seat], resource, per_seat[seat]) else set()
    state.log.append(f"The supply is short of {resource}: nobody gets {resource}.")
    return set()


def _pay_clockwise(state: GameState, kind: str, per_seat: dict[int, int]) -> set[int]:
    paid = set()
    for seat in state.clockwise_from_active():
        if per_seat.get(seat) and gain(state, state.players[seat], kind, per_seat[seat]):
            paid.add(seat)
    return paid


def _remove_hazards_after_roll(state: GameState, rolled: tuple[int, ...]) -> None:
    """Rule 8.5: every rolled hex except the Inspector's clears its hazards instead of
    producing them: the hex hazard if it has one, and the building hazards on its corners
    (next to a hazard-free hex too: such a building still got nothing this roll). A building
    hazard next to the Inspector's hex only stays; a 7 never gets here."""
    board, hex_hazards, building_hazards = state.board, state.hex_hazards, state.building_hazards
    gone_hex, gone_building = [], set()
    for h in rolled:
        if h == state.inspector:
            continue  # rule 8.5: the Inspector's hex removes nothing
        if h in hex_hazards:
            gone_hex.append(h)
        if building_hazards:
            gone_building.update(c for c in board.hex_corners(h) if c in building_hazards)
    hex_hazards.difference_update(gone_hex)
    building_hazards.difference_update(gone_building)
    if gone_hex or gone_building:
        state.log.append(f"{len(gone_hex) + len(gone_building)} hazard(s) cleared by production")


def do_build_road(state: GameState, a: BuildRoad, paid: bool = True) -> None:
    p = state.players[a.seat]
    if paid:
        pay(state, p, state.rules.cost("road"))
    p.roads.add(a.path)
    update_longest_road(state, built_by=a.seat)


def do_build_town(state: GameState, a: BuildTown, paid: bool = True) -> None:
    p = state.players[a.seat]
    if paid:
        pay(state, p, state.rules.cost("town"))
    before = holder_road_length(state, unless=a.seat)
    p.towns.add(a.corner)
    state.cache.forget("building")  # (kept by corner_owners, update_longest_road)
    update_longest_road(state, before)  # a town can cut an opponent's road


def _do_build_city(state: GameState, a: BuildCity) -> None:
    p = state.players[a.seat]
    pay(state, p, state.rules.cost("city"))
    p.towns.discard(a.corner)
    p.cities.add(a.corner)  # (the corner keeps its owner: the kept owners and lengths stay)
    if not state.rules.city_keeps_town_plant:  # rule 10.5 variant
        for key in [k for k in p.plants if k[0] == a.corner]:
            del p.plants[key]


def place_plant(state: GameState, a: BuildPlant) -> None:
    p = state.players[a.seat]
    p.plants[(a.corner, a.hex)] = a.plant
    if a.plant == "renewable" and p.green_slots:  # rule 10.4
        state.bag.append(("green", p.green_slots.pop(0)))


def _do_build_plant(state: GameState, a: BuildPlant) -> None:
    pay(state, state.players[a.seat], state.rules.cost(a.plant))
    state.plants_built += 1
    place_plant(state, a)


def _do_buy_dev(state: GameState, a: BuyDevCard) -> None:
    p = state.players[a.seat]
    pay(state, p, state.rules.cost("dev_card"))
    card = state.dev_deck.pop()
    p.dev_cards.append(card)
    p.dev_new.append(card)


def _do_supply_trade(state: GameState, a: TradeWithSupply) -> None:
    p = state.players[a.seat]
    rate = supply_rate(state, a.seat, a.give)
    if a.give == "energy":
        spend_energy(state, p, rate)
    else:
        pay(state, p, {a.give: rate})
    gain(state, p, a.get, 1)


def _do_offer(state: GameState, a: OfferTrade) -> None:
    state.offers_made += 1
    state.queue.insert(0, Task("trade_response", a.partner, trade_info(a)))


def trade_info(a: OfferTrade | ProposeTrade) -> dict:
    """What a trade_response task keeps of the trade it answers (plain JSON)."""
    return {"from": a.seat, "give": list(map(list, a.give)), "get": list(map(list, a.get))}


def record_proposal(state: GameState, a: ProposeTrade) -> int:
    """Count a proposal to the active player, queue the active player's answer first and
    return how many proposals the seat has made this turn (rule 12.1)."""
    made = state.proposals_made[a.seat] = state.proposals_made.get(a.seat, 0) + 1
    state.queue.insert(0, Task("trade_response", state.active, trade_info(a)))
    return made


def _do_interjected_proposal(state: GameState, a: ProposeTrade) -> None:
    # rule 12.1 [H]: a proposal at the active player's free decision: it is answered at once,
    # and nothing follows (no window opens: the seat proposes again whenever it likes)
    record_proposal(state, a)


def _do_ask_for_proposals(state: GameState, a: AskForProposals) -> None:
    # rule 12.1 [H]: the others are asked again, clockwise from the active player, as right
    # after the roll; a seat that reached its cap is not asked
    state.table_asks += 1
    made = state.proposals_made
    state.queue += [
        Task("propose_trade", seat, {"made": made.get(seat, 0)}) for seat in proposers_left(state)
    ]


def do_remove_hazard(state: GameState, a: RemoveHazard, paid: bool = True) -> None:
    if paid:
        spend_energy(state, state.players[a.seat], state.rules.hazard_removal_energy)
    (state.hex_hazards if a.place == "hex" else state.building_hazards).discard(a.index)


def _do_demolish(state: GameState, a: DemolishFossil) -> None:
    p = state.players[a.seat]
    spend_energy(state, p, state.rules.demolish_energy)
    del p.plants[(a.corner, a.hex)]
    state.demolished += 1


def _do_warehouse(state: GameState, a: BuildWarehouse) -> None:
    p = state.players[a.seat]
    spend_energy(state, p, state.rules.warehouse_energy)
    p.warehouse = True


def _do_play_dev(state: GameState, a: PlayDevCard) -> None:
    p, rules = state.players[a.seat], state.rules
    p.dev_cards.remove(a.card)
    p.dev_played[a.card] = p.dev_played.get(a.card, 0) + 1
    state.dev_played_turn += 1
    s = a.seat
    if a.card == "cleanup":  # rule 13.5
        state.queue.insert(0, Task("cleanup", s))
        update_environmentalist(state)
    elif a.card == "road_construction":  # rule 13.1
        state.queue[0:0] = [Task("free_road", s) for _ in range(rules.road_construction_roads)]
    elif a.card == "research_grant":  # rule 13.3
        kinds = "any" if rules.science_as_any_resource else "resource"  # rule 12.4
        info = {"kinds": kinds, "source": "research_grant"}
        state.queue[0:0] = [
            Task("take_card", s, dict(info)) for _ in range(rules.research_grant_cards)
        ]
    elif a.card == "high_yield":  # rule 13.2
        hexes = renewable_hexes(state, p)
        if len(hexes) <= rules.high_yield_hexes:
            for h in hexes:
                gain(state, p, state.board.hexes[h].resource, 1)
        else:
            state.queue[0:0] = [
                Task("choose_hex", s, {"chosen": []}) for _ in range(rules.high_yield_hexes)
            ]


FREE_EFFECTS: dict[type, Callable[[GameState, Action], None]] = {
    RollDice: _do_roll,
    BuildRoad: do_build_road,
    BuildTown: do_build_town,
    BuildCity: _do_build_city,
    BuildPlant: _do_build_plant,
    BuyDevCard: _do_buy_dev,
    TradeWithSupply: _do_supply_trade,
    OfferTrade: _do_offer,
    ProposeTrade: _do_interjected_proposal,
    AskForProposals: _do_ask_for_proposals,
    RemoveHazard: do_remove_hazard,
    DemolishFossil: _do_demolish,
    BuildWarehouse: _do_warehouse,
    PlayDevCard: _do_play_dev,
}
