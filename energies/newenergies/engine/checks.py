"""Legality checks: one function per action kind, returning why it is illegal or None.

Shared by ``legal_actions``, ``why_illegal`` and ``apply`` (see :mod:`energies.engine`),
so the three can never disagree. Each reason is one sentence a student understands.
"""

from __future__ import annotations

from ...kit.i18n import N_, joined, msg, nmsg
from ..actions import (
    AskForProposals,
    BuildCity,
    BuildPlant,
    BuildRoad,
    BuildTown,
    BuildWarehouse,
    BuyDevCard,
    DemolishFossil,
    Goods,
    MoveInspector,
    OfferTrade,
    PlayDevCard,
    ProposeTrade,
    RemoveHazard,
    TradeWithSupply,
    pretty,
)
from ..board import Board
from ..rules import CARD_KINDS, DEV_CARDS, RESOURCES, RuleSet
from ..rules.vocabulary import amount, seat_name, word
from ..state import GameState, PlayerState, Task

PLANTS = ("fossil", "renewable")


# between the items of a price: "1 lumber and 1 brick"
AND = N_(" and ")
# What a purchase is called at the start of "... costs 1 lumber and 1 brick" (whole sentences:
# each language words the subject its own way).
_COSTS = {
    "road": N_("A road costs {price}; you are short of {missing}."),
    "town": N_("A town costs {price}; you are short of {missing}."),
    "city": N_("A city costs {price}; you are short of {missing}."),
    "fossil": N_("A fossil plant costs {price}; you are short of {missing}."),
    "renewable": N_("A renewable plant costs {price}; you are short of {missing}."),
    "dev_card": N_("A development card costs {price}; you are short of {missing}."),
}
_ENERGY_COSTS = {
    "hazard": N_("Removing a hazard costs {need} energy; you have {energy}."),
    "demolish": N_("Demolishing a fossil plant costs {need} energy; you have {energy}."),
    "warehouse": N_("The warehouse costs {need} energy; you have {energy}."),
}


def lack(p: PlayerState, cost: dict[str, int], what: str) -> str | None:
    """Why ``p`` cannot pay ``cost`` for ``what`` (a key of ``_COSTS``), or None."""
    hand = p.hand
    if all(hand[k] >= n for k, n in cost.items()):
        return None
    missing = joined([amount(k, n - hand[k]) for k, n in cost.items() if hand[k] < n], ", ")
    price = joined([amount(k, n) for k, n in cost.items()], msg(AND))
    return msg(_COSTS[what], price=price, missing=missing)


def lack_energy(p: PlayerState, need: int, what: str) -> str | None:
    if p.energy >= need:
        return None
    return msg(_ENERGY_COSTS[what], need=need, energy=p.energy)


# What the engine waits for, in words ("Not your move: seat 2 must {task}.").
_TASK_TEXT = {
    "setup_town": N_("place a starting town"),
    "setup_city": N_("place a starting city"),
    "setup_road": N_("place a starting road"),
    "discard": N_("discard cards"),
    "take_card": N_("take a card from the supply"),
    "move_inspector": N_("move the Inspector"),
    "cleanup": N_("move the Inspector or remove a hazard (Cleanup)"),
    "choose_victim": N_("choose whom to steal from"),
    "place_hazard": N_("put a hazard on one of their buildings"),
    "free_fossil": N_("place a free fossil plant or decline"),
    "free_road": N_("place a free road"),
    "choose_hex": N_("choose a hex for High Yield"),
    "trade_response": N_("answer a trade offer"),
    "propose_trade": N_("propose a trade to the active player or pass"),
}


def task_text(task: Task) -> str:
    """What the engine waits for, in words (a message said in the reader's language)."""
    known = _TASK_TEXT.get(task.kind)
    return msg(known) if known else task.kind.replace("_", " ")


def corner_ok(board: Board, c: int) -> bool:
    return isinstance(c, int) and 0 <= c < len(board.corners)


def distance_ok(state: GameState, c: int) -> bool:
    return all(state.owner_of(n) is None for n in state.board.corner_neighbors(c))


# ==============================================================================================
# Checks — one per action kind; ``None`` means legal
# ==============================================================================================


def check_road(state: GameState, a: BuildRoad, mode: str, anchor: int | None = None) -> str | None:
    board, p = state.board, state.players[a.seat]
    if not (isinstance(a.path, int) and 0 <= a.path < len(board.paths)):
        return msg(N_("There is no path {path} on this island."), path=repr(a.path))
    if state.road_owner(a.path) is not None:
        return msg(N_("That path already has a road."))
    if state.pieces_left(a.seat, "road") <= 0:
        return msg(N_("You have no roads left (all {n} are on the board)."), n=state.rules.roads)
    ends = board.path_corners(a.path)
    if mode == "setup":
        if anchor not in ends:
            return msg(N_("Your starting road must touch the building you just placed."))
        return None
    if not any(road_connects(state, a.seat, c) for c in ends):
        return msg(
            N_(
                "A road must connect to your own road or building, and cannot pass an opponent's building."
            )
        )
    if mode == "paid":
        return lack(p, state.rules.cost("road"), "road")
    return None


def road_connects(state: GameState, seat: int, corner: int) -> bool:
    # rule 10.1: through one's own building, or along one's own road not cut by an opponent
    owner = state.owner_of(corner)
    if owner == seat:
        return True
    if owner is not None:
        return False
    roads = state.players[seat].roads
    return any(path in roads for path in state.board.corner_paths(corner))


def check_town(state: GameState, a: BuildTown, setup: bool = False) -> str | None:
    p = state.players[a.seat]
    if not corner_ok(state.board, a.corner):
        return msg(N_("There is no corner {corner} on this island."), corner=repr(a.corner))
    if state.owner_of(a.corner) is not None:
        return msg(N_("That corner already has a building."))
    if not distance_ok(state, a.corner):
        return msg(
            N_(
                "Too close to another building: the corners next to a town must be empty (distance rule)."
            )
        )
    if state.pieces_left(a.seat, "town") <= 0:
        return msg(N_("You have no towns left (all {n} are on the board)."), n=state.rules.towns)
    if setup:
        return None
    if not any(path in p.roads for path in state.board.corner_paths(a.corner)):
        return msg(N_("A town must stand at the end of one of your roads."))
    return lack(p, state.rules.cost("town"), "town")


def check_city(state: GameState, a: BuildCity, setup: bool = False) -> str | None:
    p = state.players[a.seat]
    if not corner_ok(state.board, a.corner):
        return msg(N_("There is no corner {corner} on this island."), corner=repr(a.corner))
    if state.pieces_left(a.seat, "city") <= 0:
        return msg(N_("You have no cities left (all {n} are on the board)."), n=state.rules.cities)
    if setup:  # rule 3.2/3.3: the starting city stands on its own corner
        if state.owner_of(a.corner) is not None:
            return msg(N_("That corner already has a building."))
        if not distance_ok(state, a.corner):
            return msg(
                N_(
                    "Too close to another building: the corners next to a city must be empty (distance rule)."
                )
            )
        return None
    if a.corner not in p.towns:
        return msg(N_("A city replaces one of your own towns: pick a corner with your town."))
    return lack(p, state.rules.cost("city"), "city")


def check_plant(state: GameState, a: BuildPlant, mode: str = "paid") -> str | None:
    """``mode``: "paid" (rule 10), "event" (free fossil, rule 7.4) or "sandbox" (free, any kind)."""
    board, p, rules = state.board, state.players[a.seat], state.rules
    if a.plant not in PLANTS:
        return msg(N_("A plant is 'fossil' or 'renewable', not {plant}."), plant=repr(a.plant))
    if mode == "event" and a.plant != "fossil":
        return msg(N_("Production Increase gives a free fossil plant only."))
    if not (isinstance(a.hex, int) and 0 <= a.hex < len(board.hexes)):
        return msg(N_("There is no hex {hex} on this island."), hex=repr(a.hex))
    if board.hexes[a.hex].number is None and not rules.plants_on_desert:
        return msg(N_("These rules keep power plants off the desert (plants_on_desert is off)."))
    if a.corner not in p.buildings():
        return msg(
            N_(
                "A plant belongs to one of your own towns or cities: pick a corner with your building."
            )
        )
    if a.hex not in board.corner_hexes(a.corner):
        return msg(N_("That hex does not touch the building you picked."))
    if (a.corner, a.hex) in p.plants:
        return msg(N_("That building already has a plant on this hex (one per hex)."))
    slots = rules.city_plant_slots if a.corner in p.cities else rules.town_plant_slots
    if sum(1 for (c, _h) in p.plants if c == a.corner) >= slots:
        if a.corner in p.cities:
            return nmsg(
                "A city carries at most {n} plant; this one is full.",
                "A city carries at most {n} plants; this one is full.",
                slots,
            )
        return nmsg(
            "A town carries at most {n} plant; this one is full.",
            "A town carries at most {n} plants; this one is full.",
            slots,
        )
    if state.pieces_left(a.seat, a.plant) <= 0:
        return (
            msg(N_("You have no fossil plants left."))
            if a.plant == "fossil"
            else msg(N_("You have no renewable plants left."))
        )
    if mode != "paid":
        return None
    if state.plants_built >= rules.plants_per_turn:
        return nmsg(
            "You can build only {n} plant per turn (rule 10.3).",
            "You can build only {n} plants per turn (rule 10.3).",
            rules.plants_per_turn,
        )
    return lack(p, rules.cost(a.plant), a.plant)


def check_buy_dev(state: GameState, a: BuyDevCard) -> str | None:
    if not state.dev_deck:
        return msg(N_("The development card deck is empty."))
    return lack(state.players[a.seat], state.rules.cost("dev_card"), "dev_card")


def supply_rate(state: GameState, seat: int, give: str) -> int:
    """Cards of ``give`` needed for one card from the supply (rules 12.2, 12.3, 11)."""
    return supply_rates(state, seat)[give]


def supply_rates(state: GameState, seat: int) -> dict[str, int]:
    """Cards of each kind (resources, science, energy) needed for one card from the supply.

    The returned dict is shared: read it, do not change it.
    """
    p = state.players[seat]
    return state.rules.supply_rates(state.board.harbors_reached(p.towns | p.cities))


def supply_gets(rules: RuleSet, give: str) -> tuple[str, ...]:
    """What a supply trade giving ``give`` may take (rules 11, 12.2, 12.4): the 2-energy trade
    takes a resource or science; "any resource" of the other trades is one of the five
    resources unless the rule set lets it be science too."""
    if give == "energy" or rules.science_as_any_resource:
        return CARD_KINDS
    return RESOURCES


def check_supply_trade(state: GameState, a: TradeWithSupply) -> str | None:
    p = state.players[a.seat]
    if a.give not in CARD_KINDS + ("energy",):
        return msg(N_("You cannot trade {give} with the supply."), give=repr(a.give))
    allowed = supply_gets(state.rules, a.give)
    if a.get not in allowed:
        if "science" in allowed:
            text = N_("Trading {give} gets you a resource or science, not {get}.")
        else:
            text = N_("Trading {give} gets you one of the five resources, not {get}.")
        return msg(text, give=word(a.give), get=repr(a.get))
    if a.get == a.give:
        return msg(N_("Trading a card for the same card changes nothing."))
    rate = supply_rate(state, a.seat, a.give)
    held = p.energy if a.give == "energy" else p.hand[a.give]
    if held < rate:
        return msg(
            N_("This trade needs {cost}; you have {held}."), cost=amount(a.give, rate), held=held
        )
    if state.supply[a.get] <= 0:
        return msg(N_("The supply has no {card} left."), card=word(a.get))
    return None


# A hand short of what a trade names, by who says it ("offer": the trader's own hand, "ask":
# the partner's, "give": the answer to an offer).
_SHORT = {
    "offer": N_("You offer {goods} but you have {held}."),
    "ask": N_("You ask for {goods} but they have {held}."),
    "give": N_("You would give {goods} but you have {held}."),
}


def _at_most(limit: int, what: str):
    if what == "offers":
        return nmsg(
            "You may make at most {n} trade offer per turn.",
            "You may make at most {n} trade offers per turn.",
            limit,
        )
    return nmsg(
        "You may make at most {n} trade proposal per turn.",
        "You may make at most {n} trade proposals per turn.",
        limit,
    )


def goods_problem(state: GameState, items: Goods, seat: int, who: str) -> str | None:
    """What is wrong with ``items`` for ``seat``; ``who`` is a key of ``_SHORT``."""
    tradeable = CARD_KINDS + (("energy",) if state.rules.energy_tradeable else ())
    p = state.players[seat]
    for kind, n in items:
        if kind not in tradeable:
            if "energy" in tradeable:
                text = N_(
                    "Only resources, science and energy can be traded between players, not {kind}."
                )
            else:
                text = N_("Only resources and science can be traded between players, not {kind}.")
            return msg(text, kind=repr(kind))
        if not isinstance(n, int) or n <= 0:
            return msg(N_("Every traded amount must be a whole number above 0."))
        held = p.energy if kind == "energy" else p.hand[kind]
        if held < n:
            return msg(_SHORT[who], goods=amount(kind, n), held=held)
    if len({k for k, _ in items}) != len(items):
        return msg(N_("Name each kind only once in a trade."))
    return None


def check_offer(state: GameState, a: OfferTrade) -> str | None:
    if not (isinstance(a.partner, int) and 0 <= a.partner < state.n) or a.partner == a.seat:
        return msg(N_("Offer a trade to another player at the table."))
    limit = state.rules.trade_offers_per_turn
    return _trade_problem(state, a, a.partner, state.offers_made, limit, "offers")


def check_proposal(state: GameState, a: ProposeTrade) -> str | None:
    """Rule 12.1: a seat that is not active proposes a trade to the active player; the cap on
    offers counts each proposer separately."""
    made, limit = state.proposals_made.get(a.seat, 0), state.rules.trade_offers_per_turn
    return _trade_problem(state, a, state.active, made, limit, "proposals")


def proposer_problem(state: GameState, seat: int) -> str | None:
    """Why ``seat`` may not propose a trade to the active player at all this turn, whatever
    the moment (rule 12.1), or None: trading off, no such seat, the active seat, the cap."""
    limit = state.rules.trade_offers_per_turn
    if limit <= 0:
        return msg(
            N_("Trade proposals are switched off in these rules (trade_offers_per_turn = 0).")
        )
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n):
        return msg(N_("There is no seat {seat} at this table."), seat=repr(seat))
    if seat == state.active:
        return msg(
            N_("You are the active player: offer a trade to another player instead (rule 12.1).")
        )
    if state.proposals_made.get(seat, 0) >= limit:
        return _at_most(limit, "proposals")
    return None


def proposal_timing_problem(state: GameState, seat: int) -> str | None:
    """Why ``seat`` may not propose a trade now without being asked, or None (rule 12.1 [H]).

    The engine asks the others right after the roll and whenever the active player asks the
    table; between those windows a seat that is not active may still propose at the active
    player's free decision of the action phase (the apps hold a proposal until then), and
    the active player answers it before deciding anything else.
    """
    problem = proposer_problem(state, seat)
    if problem:
        return problem
    if state.phase != "action":
        return msg(
            N_("Proposals wait for the action phase: {player} has not rolled yet (rule 12.1)."),
            player=seat_name(state.active),
        )
    if state.queue:
        task = state.queue[0]
        if task.seat == seat:
            text = N_(
                "Not now: the game waits for you ({task}); propose when the active player is "
                "free to choose again (rule 12.1)."
            )
        else:
            text = N_(
                "Not now: the game waits for {player} ({task}); propose when the active player "
                "is free to choose again (rule 12.1)."
            )
        return msg(text, player=seat_name(task.seat), task=task_text(task))
    if state.turn_actions >= state.rules.turn_action_limit:
        return msg(N_("This turn has had the most actions one turn may have: it can only end now."))
    return None


def check_interjected_proposal(state: GameState, a: ProposeTrade) -> str | None:
    """A proposal the engine did not ask for (rule 12.1 [H]): its moment, then the trade."""
    return proposal_timing_problem(state, a.seat) or check_proposal(state, a)


def proposers_left(state: GameState) -> list[int]:
    """The seats that are not active and may still propose this turn, clockwise from the
    active player (rule 12.1: the cap counts each proposer separately)."""
    limit, made = state.rules.trade_offers_per_turn, state.proposals_made
    return [seat for seat in state.clockwise_from_active()[1:] if made.get(seat, 0) < limit]


def check_ask_for_proposals(state: GameState, a: AskForProposals) -> str | None:
    """Rule 12.1 [H]: the active player asks the others for proposals, a few times a turn."""
    rules = state.rules
    if rules.trade_offers_per_turn <= 0:
        return msg(
            N_(
                "Trades between players are switched off in these rules (trade_offers_per_turn = 0)."
            )
        )
    asks = rules.table_asks_per_turn
    if asks <= 0:
        return msg(
            N_(
                "Asking the table for proposals is switched off in these rules (table_asks_per_turn = 0)."
            )
        )
    if state.table_asks >= asks:
        return nmsg(
            "You may ask the table for trade proposals only once per turn.",
            "You may ask the table for trade proposals only {n} times per turn.",
            asks,
        )
    if not proposers_left(state):
        return nmsg(
            "Nobody is left to ask: every other player has made its {n} trade proposal this turn.",
            "Nobody is left to ask: every other player has made its {n} trade proposals this turn.",
            rules.trade_offers_per_turn,
        )
    return None


def _trade_problem(
    state: GameState, a: OfferTrade | ProposeTrade, partner: int, made: int, limit: int, what: str
) -> str | None:
    if not a.give or not a.get:
        return msg(N_("A trade needs something on both sides."))
    if {k for k, _ in a.give} & {k for k, _ in a.get}:
        return msg(N_("Do not offer and ask for the same kind of card."))
    if made >= limit:
        return _at_most(limit, what)
    return goods_problem(state, a.give, a.seat, "offer") or asked_problem(state, a.get, partner)


def asked_problem(state: GameState, items: Goods, partner: int) -> str | None:
    """What is wrong with asking ``partner`` for ``items``, judged from public facts only.

    Rule 12.1 lets a player propose any exchange; the partner accepts or declines. Which
    kinds of card the partner holds is hidden, so a proposal may ask for any card kind as
    long as the partner holds at least that many cards in all (a public count); energy is
    public and is checked exactly. If the partner lacks the cards, accepting is not
    possible and they decline (``decisions._trade_answers``). Checking the kinds here would
    let the legal list tell the proposer what another player holds.
    """
    tradeable = CARD_KINDS + (("energy",) if state.rules.energy_tradeable else ())
    q = state.players[partner]
    cards = 0
    for kind, n in items:
        if kind not in tradeable:
            return goods_problem(state, items, partner, "ask")  # the same sentence
        if not isinstance(n, int) or n <= 0:
            return msg(N_("Every traded amount must be a whole number above 0."))
        if kind == "energy":
            if q.energy < n:
                return msg(_SHORT["ask"], goods=amount("energy", n), held=q.energy)
        else:
            cards += n
    if len({k for k, _ in items}) != len(items):
        return msg(N_("Name each kind only once in a trade."))
    held = q.cards
    if cards > held:
        return nmsg(
            "You ask for {cards} cards but they hold only {n} card.",
            "You ask for {cards} cards but they hold only {n} cards.",
            held,
            cards=cards,
        )
    return None


def hazard_exists(state: GameState, place: str, index: int) -> bool:
    if place == "hex":
        return index in state.hex_hazards
    return place == "building" and index in state.building_hazards


def check_remove_hazard(state: GameState, a: RemoveHazard, free: bool = False) -> str | None:
    if not hazard_exists(state, a.place, a.index):
        return msg(N_("There is no hazard there."))
    if free:
        return None
    return lack_energy(state.players[a.seat], state.rules.hazard_removal_energy, "hazard")


def check_demolish(state: GameState, a: DemolishFossil) -> str | None:
    p = state.players[a.seat]
    if p.plants.get((a.corner, a.hex)) != "fossil":
        return msg(N_("You have no fossil plant there."))
    if state.demolished >= state.rules.demolish_per_turn:
        return msg(N_("You may demolish only one fossil plant per turn."))
    return lack_energy(p, state.rules.demolish_energy, "demolish")


def check_warehouse(state: GameState, a: BuildWarehouse) -> str | None:
    p = state.players[a.seat]
    if p.warehouse:
        return msg(N_("You already built your warehouse (once per game)."))
    return lack_energy(p, state.rules.warehouse_energy, "warehouse")


def check_play_dev(state: GameState, a: PlayDevCard) -> str | None:
    p = state.players[a.seat]
    if a.card not in DEV_CARDS:
        return msg(N_("There is no development card called {card}."), card=repr(a.card))
    if a.card == "victory_point":
        return msg(N_("Victory Point cards are never played: they count as soon as you hold them."))
    if state.dev_played_turn >= state.rules.dev_cards_per_turn:
        return msg(N_("You may play only one development card per turn."))
    if a.card not in p.dev_cards:
        return msg(N_("You do not hold a {card} card."), card=pretty(a.card))
    if p.dev_cards.count(a.card) - p.dev_new.count(a.card) <= 0:
        return msg(
            N_("You got this {card} card this turn; play it from your next turn."),
            card=pretty(a.card),
        )
    if state.phase == "roll" and not state.rules.dev_card_before_roll:
        return msg(N_("Development cards may be played only after rolling."))
    if a.card == "high_yield" and not renewable_hexes(state, p):
        return msg(N_("High Yield needs at least one of your renewable plants on the board."))
    return None


def renewable_hexes(state: GameState, p: PlayerState) -> list[int]:
    """Rule 13.2: the hexes holding the player's renewable plants that have a resource to
    give (a plant on the desert, rule 10.2, yields no card)."""
    hexes = state.board.hexes
    return sorted({h for (_c, h), k in p.plants.items() if k == "renewable" and hexes[h].resource})


def steal_candidates_near(state: GameState, hex_id: int, thief: int) -> list[int]:
    seats = {state.owner_of(c) for c in state.board.hex_corners(hex_id)}
    return [
        s
        for s in state.clockwise_from_active()
        if s in seats and s != thief and state.players[s].cards > 0
    ]


def cleanup_victims(state: GameState, seat: int) -> list[int]:
    # rule 13.5: only a player whose LF is higher than yours
    mine = state.local_footprint(seat)
    return [
        s
        for s in state.clockwise_from_active()
        if s != seat and state.local_footprint(s) > mine and state.players[s].cards > 0
    ]


def check_move_inspector(state: GameState, a: MoveInspector) -> str | None:
    board = state.board
    if not (isinstance(a.hex, int) and 0 <= a.hex < len(board.hexes)):
        return msg(N_("There is no hex {hex} on this island."), hex=repr(a.hex))
    if a.hex == state.inspector:
        return msg(N_("The Inspector must move to another hex."))
    if a.hex in state.hex_hazards:
        return msg(N_("The Inspector cannot move onto a hex with a hazard."))
    return None
