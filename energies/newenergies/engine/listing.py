"""Legal actions listed straight from the state: own turns (rules 10–13) and spots for decisions.

Building every candidate and running its check from :mod:`energies.checks` took most of
the time of a random-bot game. Here one pass over the state gathers the facts those
checks look at (who owns each corner, which paths carry a road, what the player can
afford, how many pieces are left) and lists exactly the actions the checks approve, in
the order the checks would list them. Road and plant spots also answer Road Construction
and Production Increase (:mod:`energies.decisions`). The checks stay the one source of
legality for ``why_illegal`` and ``apply``; the tests hold this listing to them in both
directions on many positions of many games (``tests/test_invariants.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from itertools import chain

from ..actions import Action, BuildPlant, shared
from ..board import Board
from ..rules import CARD_KINDS, RuleSet
from ..state import GameState, PlayerState
from .checks import PLANTS, check_play_dev, proposers_left, supply_gets, supply_rates
from .offers import cards_of, one_for_one_offers


def can_pay(hand: dict[str, int], cost: dict[str, int]) -> bool:
    for kind, n in cost.items():
        if hand[kind] < n:
            return False
    return True


def free_actions(state: GameState, spots: dict | None = None, offers: bool = True) -> list[Action]:
    """Every legal action of the active player when no decision is pending.

    ``spots`` keeps the building spots found (cost aside) for the next listing; the engine
    hands back the active seat's dict, from which it drops what a moved piece changes
    (``engine.keep_spots``). ``offers=False`` leaves out the one-for-one offers, which
    otherwise end the list.
    """
    seat, rules = state.active, state.rules
    p = state.players[seat]
    hand = p.hand
    legal: list[Action] = []
    if p.dev_cards:
        legal += [
            a
            for card in sorted(set(p.dev_cards))
            if check_play_dev(state, a := shared.PlayDevCard(seat, card)) is None
        ]
    if state.phase == "roll":  # rule 5.4: only a development card may come before the roll
        legal.append(shared.RollDice(seat))
        return legal
    legal.append(shared.EndTurn(seat))

    if spots is None:
        spots = {}
    kept = _BUYS  # (hand_buys's answer for a hand it has seen, without the call)
    buys = kept[2].get(cards_of(hand)) if kept[0] is rules else None
    road, town, city, plants, dev_card = buys or hand_buys(rules, hand)
    if road:
        legal += _kept(spots, "road", road_spots, state, p)
    if town and len(p.towns) < rules.towns:
        legal += _kept(spots, "town", town_spots, state, p)
    if city and len(p.cities) < rules.cities:
        legal += [shared.BuildCity(seat, c) for c in sorted(p.towns)]
    if plants and state.plants_built < rules.plants_per_turn:  # rule 10.3
        legal += _kept(spots, plants, plant_spots, state, p, plants)
    if dev_card and state.dev_deck:
        legal.append(shared.BuyDevCard(seat))
    if p.energy >= rules.hazard_removal_energy:
        legal += hazard_removals(state, seat)
    if state.demolished < rules.demolish_per_turn and p.energy >= rules.demolish_energy:
        legal += [
            shared.DemolishFossil(seat, c, h)
            for (c, h), kind in sorted(p.plants.items())
            if kind == "fossil"
        ]
    if not p.warehouse and p.energy >= rules.warehouse_energy:
        legal.append(shared.BuildWarehouse(seat))
    supply, stocked = state.supply, None
    for give, rate, table, trades in _kept(spots, "trades", _trade_tables, state, seat):
        if (p.energy if give == "energy" else hand[give]) >= rate:
            if stocked is None:  # every kind in the supply: every trade of the kind is listed
                stocked = min(supply.values()) > 0
            legal += trades if stocked else [trade for get, trade in table if supply[get]]
    if asks_listed(state):
        legal.append(shared.AskForProposals(seat))
    if offers and state.offers_made < rules.trade_offers_per_turn:
        legal += one_for_one_offers(state, seat)  # always the tail of the listing
    return legal


def asks_listed(state: GameState) -> bool:
    """Whether the active player may ask the table for proposals (rule 12.1 [H]), listed from
    the facts ``checks.check_ask_for_proposals`` reads (the roll phase aside)."""
    rules = state.rules
    return (
        state.table_asks < rules.table_asks_per_turn
        and rules.trade_offers_per_turn > 0
        and (not state.proposals_made or bool(proposers_left(state)))
    )


def hand_buys(rules: RuleSet, hand: dict[str, int]) -> tuple[bool, bool, bool, tuple, bool]:
    """What ``hand`` can pay for: (road, town, city, the plant kinds, a development card).

    Speed only: the answer depends on the card counts alone, each counted up to the most
    any of these costs asks of that kind, so it is kept per such counts (at most a few
    hundred of them) and rule set's costs instead of comparing costs on every listing; and
    per the hand's own counts (up to ``MAX_HANDS`` of them), which finds it at once.
    """
    global _BUYS
    kept = _BUYS
    if kept[0] is not rules:
        costs = tuple(rules.cost(item) for item in BUYABLE)
        if costs != kept[1]:
            caps = tuple(max(cost.get(kind, 0) for cost in costs) for kind in CARD_KINDS)
            kept = (rules, costs, {}, caps)
        else:  # an equal rule set: the same costs, so the same answers
            kept = (rules, *kept[1:])
        _BUYS = kept
    cards = cards_of(hand)
    found = kept[2].get(cards)
    if found is None:
        counts = tuple(map(min, cards, kept[3]))
        found = kept[2].get(counts)
        if found is None:
            road, town, city, *plants, dev_card = (can_pay(hand, cost) for cost in kept[1])
            kinds = tuple(kind for kind, ok in zip(PLANTS, plants) if ok)
            found = kept[2][counts] = (road, town, city, kinds, dev_card)
        if len(kept[2]) < MAX_HANDS:  # the hand's own counts too: found at once next time
            kept[2][cards] = found
    return found


BUYABLE = ("road", "town", "city", *PLANTS, "dev_card")  # in hand_buys's order
MAX_HANDS = 512  # hands kept by hand_buys (beyond, those over the caps are capped first)
# (rule set, its costs, {card counts up to the caps: hand_buys answer}, the caps per kind)
_BUYS: tuple = (None, (), {}, ())


def _trade_tables(state: GameState, seat: int) -> tuple:
    """(give, rate, ((get, trade), ...), (trade, ...)) per kind the seat may give the supply
    (rules 12.2, 12.3, 11): they change only when the seat's buildings do (harbors)."""
    rules = state.rules
    rates = supply_rates(state, seat)
    key = (seat, rules.science_as_any_resource, tuple(rates.items()))  # all they depend on
    tables = _TRADE_TABLES.get(key)
    if tables is None:
        if len(_TRADE_TABLES) >= 1_000:
            _TRADE_TABLES.clear()
        tables = _TRADE_TABLES[key] = tuple(
            (give, rate, table, tuple(trade for _get, trade in table))
            for give, rate in rates.items()
            for table in [_supply_trade_table(seat, give, supply_gets(rules, give))]
        )
    return tables


# (seat, science_as_any_resource, the seat's supply rates) -> the trade tables
_TRADE_TABLES: dict[tuple, tuple] = {}


def find_spots(state: GameState, seat: int, key) -> object:
    """What ``free_actions`` keeps under ``key`` for ``seat``, found afresh (the invariant
    checker compares the kept ones with it)."""
    p = state.players[seat]
    if key == "road":
        return road_spots(state, p)
    if key == "town":
        return town_spots(state, p)
    if key == "trades":
        return _trade_tables(state, seat)
    return plant_spots(state, p, key)  # key: the plant kinds the hand could pay for


def _kept(spots: dict, key, find, *args):
    """``find(*args)``, kept in ``spots`` under ``key`` until a piece it depends on moves
    (``engine.keep_spots`` drops it then)."""
    found = spots.get(key)
    if found is None:
        found = spots[key] = find(*args)
    return found


def road_spots(state: GameState, p: PlayerState) -> list[Action]:
    """Roads the player may place now, cost aside (rule 10.1 and checks.road_connects).

    A road leaves one's own building, or one's own road where no opponent's building
    cuts it.
    """
    if len(p.roads) >= state.rules.roads:
        return []
    board, players = state.board, state.players
    cut = _buildings(q for q in players if q is not p)
    starts = (_road_ends(board, p.roads) - cut) | p.towns | p.cities
    paths = set(chain.from_iterable(map(board.corner_paths_of.__getitem__, starts)))
    paths -= taken_paths(players)
    return [*map(_road_table(p.seat, len(board.paths)).__getitem__, sorted(paths))]


def town_spots(state: GameState, p: PlayerState) -> list[Action]:
    """Towns the player may place now, cost and pieces aside (rules 10.1, 3.2): at the end
    of one's own road, two corners from any building."""
    board, occupied = state.board, _buildings(state.players)
    return [
        shared.BuildTown(p.seat, c)
        for c in sorted(_road_ends(board, p.roads))
        if c not in occupied and occupied.isdisjoint(board.corner_neighbors(c))
    ]


def _buildings(players: Iterable[PlayerState]) -> set[int]:
    """The corners that carry these players' towns and cities."""
    return set().union(*[corners for q in players for corners in (q.towns, q.cities)])


def taken_paths(players: Iterable[PlayerState]) -> set[int]:
    """The paths that carry anyone's road."""
    return set().union(*[q.roads for q in players])


def _road_ends(board: Board, roads: set[int]) -> set[int]:
    return set(chain.from_iterable(map(board.paths.__getitem__, roads)))


@functools.cache
def _road_table(seat: int, paths: int) -> tuple[Action, ...]:
    return tuple(shared.BuildRoad(seat, path) for path in range(paths))  # indexed by path


def plant_spots(state: GameState, p: PlayerState, kinds: Iterable[str]) -> list[Action]:
    """Plants of these kinds the player may place now, cost aside (rules 10.2, 10.3)."""
    rules, board, plants = state.rules, state.board, p.plants
    built = list(plants.values())
    kinds = [kind for kind in kinds if built.count(kind) < rules.piece_limit(kind)]
    if not kinds:
        return []
    used = [c for c, _h in plants]
    spots: list[Action] = []
    hexes_of = board.corner_hexes if rules.plants_on_desert else board.corner_numbered_hexes
    make = shared.BuildPlant
    for c in sorted(p.towns | p.cities):
        slots = rules.city_plant_slots if c in p.cities else rules.town_plant_slots
        if used.count(c) >= slots:
            continue
        for h in hexes_of(c):  # rule 10.2: the desert only when plants_on_desert
            if (c, h) not in plants:
                for kind in kinds:
                    spots.append(make(p.seat, kind, c, h))
    return spots


def plant_spots_after(spots: list[Action], state: GameState, built: BuildPlant) -> list[Action]:
    """:func:`plant_spots` once ``built`` is placed, from those found before it: the spot it
    took goes, so do its building's others once the building's slots are full (rule 10.2)
    and the kind's others once all of the player's plants of that kind are placed."""
    p, rules = state.players[built.seat], state.rules
    corner, spot_hex, kind = built.corner, built.hex, built.plant
    slots = rules.city_plant_slots if corner in p.cities else rules.town_plant_slots
    full = [c for c, _h in p.plants].count(corner) >= slots
    kind_gone = [*p.plants.values()].count(kind) >= rules.piece_limit(kind)
    return [
        a
        for a in spots
        if a.corner != corner or (not full and a.hex != spot_hex)
        if not (kind_gone and a.plant == kind)
    ]


def hazard_removals(state: GameState, seat: int) -> list[Action]:
    """Every hazard on the board, hex hazards first (rule 11; free in a Cleanup, rule 13.5)."""
    if not (state.hex_hazards or state.building_hazards):
        return []
    return [shared.RemoveHazard(seat, "hex", h) for h in sorted(state.hex_hazards)] + [
        shared.RemoveHazard(seat, "building", c) for c in sorted(state.building_hazards)
    ]


@functools.cache
def _supply_trade_table(
    seat: int, give: str, gets: tuple[str, ...]
) -> tuple[tuple[str, Action], ...]:
    # energy buys a resource or science (rule 11), a resource another resource (12.2, 12.4)
    return tuple((get, shared.TradeWithSupply(seat, give, get)) for get in gets if get != give)
