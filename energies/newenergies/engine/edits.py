"""The teacher's sandbox edits as the engine runs them: the check and the effect of each.

An edit (:class:`~energies.newenergies.actions.SandboxEdit`) is an action in the game's log,
so replaying a saved game runs it again: :func:`check_edit` is its ``why_illegal`` and
:func:`apply_edit` its effect. The helpers that make edits (``en.sandbox.give`` and the
others) live in :mod:`energies.newenergies.sandbox`, above the engine. Edits skip costs and
the distance rule but never break the bookkeeping: cards come from the supply, pieces from
the player's stock, discs from the bag.
"""

from __future__ import annotations

from ...kit.i18n import N_, msg, nmsg
from ..actions import BuildPlant, SandboxEdit
from ..rules import CARD_KINDS, DEV_CARDS, ROWS
from ..rules.vocabulary import amount, pretty, seat_name
from ..state import GameState
from . import awards, checks, effects
from .turns import advance

PIECES = ("town", "city", "road")
_BUILDINGS = {"town": "towns", "city": "cities"}  # piece -> the PlayerState set holding it


def check_edit(state: GameState, e: SandboxEdit) -> str | None:
    """Why this sandbox edit cannot be made, or None."""
    check = EDIT_CHECKS.get(e.op)
    if check is None:
        return msg(N_("Unknown sandbox edit {edit}."), edit=repr(e.op))
    if e.seat != -1 and not (isinstance(e.seat, int) and 0 <= e.seat < state.n):
        return msg(N_("There is no seat {seat}."), seat=repr(e.seat))
    if state.outcome is not None:
        return msg(N_("The game is over."))
    try:
        return check(state, e.seat, *e.args)
    except (TypeError, KeyError, IndexError, ValueError):
        # a wrong number or kind of arguments (a word where a number belongs, and so on)
        return msg(N_("Wrong arguments for the sandbox edit {edit}."), edit=repr(e.op))


def apply_edit(state: GameState, e: SandboxEdit) -> None:
    """Make an edit :func:`check_edit` approved, then hand the awards on and run the turn
    machine, as after any action."""
    holder_before = awards.holder_road_length(state)  # rule 13.6: an edit may break a road
    EDIT_EFFECTS[e.op](state, e.seat, *e.args)
    state.log.append(public_sentence(e))  # every seat's view shows the log: nothing hidden
    awards.update_longest_road(state, holder_before)
    awards.update_environmentalist(state)
    advance(state)


def public_sentence(e: SandboxEdit) -> str:
    """The edit as the game's log tells every seat: what a seat could not see at the table
    stays out — the kind of cards given or taken (energy is public), the development card
    given and the dice fixed — so two positions that differ only in such hidden facts give
    equal views (``game.actions`` keeps the edit itself)."""
    if e.op == "dice":
        return msg(N_("Teacher sandbox: the next dice roll is fixed"))
    seat = seat_name(e.seat)
    if e.op == "dev_card":
        if e.seat < 0:
            return msg(N_("Teacher sandbox: give a development card"))
        return msg(N_("Teacher sandbox: give a development card for {player}"), player=seat)
    if e.op in ("give", "take") and e.args[:1] != ("energy",):
        count = e.args[1] if len(e.args) > 1 else "some"
        if not isinstance(count, int):  # a malformed edit is refused before; say it anyway
            return e.sentence()
        if e.op == "give":
            return nmsg(
                "Teacher sandbox: give {n} card for {player}",
                "Teacher sandbox: give {n} cards for {player}",
                count,
                player=seat,
            )
        return nmsg(
            "Teacher sandbox: take {n} card for {player}",
            "Teacher sandbox: take {n} cards for {player}",
            count,
            player=seat,
        )
    return e.sentence()


def _held(state, seat, kind):
    p = state.players[seat]
    return p.energy if kind == "energy" else p.hand[kind]


def _check_give(state, seat, kind, n):
    if seat < 0:
        return msg(N_("Name the seat that receives the cards."))
    if kind not in CARD_KINDS + ("energy",):
        return msg(N_("{kind} is not a card kind."), kind=repr(kind))
    if not isinstance(n, int) or n < 0:
        return msg(N_("Give a whole number of cards."))
    if kind == "energy":
        if state.players[seat].energy + n > state.rules.energy_cap:
            return msg(
                N_("A player holds at most {most} energy (rule 8.4)."),
                most=state.rules.energy_cap,
            )
        if n > state.energy_supply:
            return msg(N_("Not enough energy tokens in the supply."))
        return None
    if n > state.supply[kind]:
        return msg(N_("The supply has only {cards}."), cards=amount(kind, state.supply[kind]))
    return None


def _give(state, seat, kind, n):
    p = state.players[seat]
    if kind == "energy":
        p.energy += n
        state.energy_supply -= n
    else:
        p.hand[kind] += n
        state.supply[kind] -= n


def _check_take(state, seat, kind, n):
    if seat < 0 or kind not in CARD_KINDS + ("energy",) or not isinstance(n, int) or n < 0:
        return msg(N_("Name a seat, a card kind and a whole number."))
    held = _held(state, seat, kind)
    if held < n:
        return msg(
            N_("{player} holds only {cards}."), player=seat_name(seat), cards=amount(kind, held)
        )
    return None


def _take(state, seat, kind, n):
    _give(state, seat, kind, -n)


def _check_place(state, seat, piece, index):
    if seat < 0 or piece not in PIECES:
        return msg(N_("Place a town, city or road for a seat."))
    board = state.board
    if piece == "road":
        if not (isinstance(index, int) and 0 <= index < len(board.paths)):
            return msg(N_("There is no path {path}."), path=repr(index))
        if state.road_owner(index) is not None:
            return msg(N_("That path already has a road."))
        if state.pieces_left(seat, "road") <= 0:
            return msg(N_("That seat has no roads left."))
        return None
    if not (isinstance(index, int) and 0 <= index < len(board.corners)):
        return msg(N_("There is no corner {corner}."), corner=repr(index))
    owner = state.owner_of(index)
    upgrading = piece == "city" and index in state.players[seat].towns
    if owner is not None and not upgrading:
        return msg(N_("That corner already has a building."))
    if state.pieces_left(seat, piece) <= 0:
        return _NONE_LEFT[piece]()
    return None


# whole sentences per piece (a word glued into a sentence would not translate)
_NONE_LEFT = {
    "town": lambda: msg(N_("That seat has no towns left.")),
    "city": lambda: msg(N_("That seat has no cities left.")),
}
_NOT_THERE = {
    "road": lambda: msg(N_("There is no road there.")),
    "town": lambda: msg(N_("There is no town there.")),
    "city": lambda: msg(N_("There is no city there.")),
}


def _place(state, seat, piece, index):
    p = state.players[seat]
    if piece == "road":
        p.roads.add(index)
    elif piece == "town":
        p.towns.add(index)
    else:
        p.towns.discard(index)
        p.cities.add(index)


def _check_remove(state, seat, piece, index):
    if piece == "road":
        return None if state.road_owner(index) is not None else _NOT_THERE["road"]()
    if piece in _BUILDINGS:
        owner = state.owner_of(index)
        if owner is None or index not in getattr(state.players[owner], _BUILDINGS[piece]):
            return _NOT_THERE[piece]()
        return None
    return msg(N_("Remove a town, city or road."))


def _remove(state, seat, piece, index):
    for p in state.players:
        if piece == "road":
            p.roads.discard(index)
            continue
        getattr(p, _BUILDINGS[piece]).discard(index)
        for key in [k for k in p.plants if k[0] == index]:
            del p.plants[key]  # a building's plants go back to its owner's stock
    if piece != "road":
        state.building_hazards.discard(index)


def _check_place_plant(state, seat, kind, corner, hex_id):
    if seat < 0:
        return msg(N_("Name the seat that owns the plant."))
    return checks.check_plant(state, BuildPlant(seat, kind, corner, hex_id), "sandbox")


def _place_plant(state, seat, kind, corner, hex_id):
    effects.place_plant(state, BuildPlant(seat, kind, corner, hex_id))


def _check_remove_plant(state, seat, corner, hex_id):
    if seat < 0 or (corner, hex_id) not in state.players[seat].plants:
        return msg(N_("That seat has no plant there."))
    return None


def _remove_plant(state, seat, corner, hex_id):
    del state.players[seat].plants[(corner, hex_id)]


def _check_inspector(state, seat, hex_id):
    ok = isinstance(hex_id, int) and 0 <= hex_id < len(state.board.hexes)
    return None if ok else msg(N_("There is no hex {hex}."), hex=repr(hex_id))


def _inspector(state, seat, hex_id):
    state.inspector = hex_id


def _check_add_hazard(state, seat, place, index):
    if place == "hex":
        if not (isinstance(index, int) and 0 <= index < len(state.board.hexes)):
            return msg(N_("There is no hex {hex}."), hex=repr(index))
        if index in state.hex_hazards:
            return msg(N_("That hex already has a hazard."))
    elif place == "building":
        if state.owner_of(index) is None:
            return msg(N_("There is no building on that corner."))
        if index in state.building_hazards:
            return msg(N_("A building holds at most one hazard."))
    else:
        return msg(N_("A hazard goes on a 'hex' or a 'building'."))
    return None if state.hazard_supply > 0 else msg(N_("All hazard tokens are on the board."))


def _add_hazard(state, seat, place, index):
    (state.hex_hazards if place == "hex" else state.building_hazards).add(index)


def _check_remove_hazard(state, seat, place, index):
    if not checks.hazard_exists(state, place, index):
        return msg(N_("There is no hazard there."))
    return None


def _remove_hazard(state, seat, place, index):
    (state.hex_hazards if place == "hex" else state.building_hazards).discard(index)


def _check_dice(state, seat, d1, d2):
    ok = all(isinstance(d, int) and 1 <= d <= 6 for d in (d1, d2))
    return None if ok else msg(N_("Each die shows 1 to 6."))


def _dice(state, seat, d1, d2):
    state.forced_dice.append((d1, d2))


# a whole sentence per disc colour (an adjective takes its own ending in other languages)
_NO_DISC = {
    "brown": N_("There is no brown {event} disc left in the bag."),
    "green": N_("There is no green {event} disc left in the bag."),
}


def _check_disc(state, seat, color, symbol):
    waiting = state.forced_discs.count((color, symbol))
    if state.bag.count((color, symbol)) <= waiting:
        if color in _NO_DISC:
            return msg(_NO_DISC[color], event=pretty(symbol))
        return msg(
            N_("There is no {color} {event} disc left in the bag."), color=color, event=symbol
        )
    return None


def _disc(state, seat, color, symbol):
    state.forced_discs.append((color, symbol))


def _check_row(state, seat, color, symbol):
    reason = _check_disc(state, seat, color, symbol)
    if reason:
        return reason
    row = state.rules.row_of(color, symbol)
    if row not in ROWS or len(state.event_board[row]) + 1 >= state.rules.spaces(row):
        return msg(N_("That row would fill up; draw the last disc in play (fix_disc) to fire it."))
    return None


def _row(state, seat, color, symbol):
    state.bag.remove((color, symbol))
    state.event_board[state.rules.row_of(color, symbol)].append((color, symbol))


def _check_dev(state, seat, card):
    if seat < 0 or card not in DEV_CARDS:
        return msg(N_("Name a seat and a development card."))
    if card not in state.dev_deck:
        return msg(N_("The deck has no {card} card left."), card=pretty(card))
    return None


def _dev(state, seat, card):
    state.dev_deck.remove(card)
    state.players[seat].dev_cards.append(card)


def _check_clear(state, seat):
    return None


def _clear(state, seat):
    for p in state.players:
        for kind in CARD_KINDS:
            state.supply[kind] += p.hand[kind]
            p.hand[kind] = 0
        state.energy_supply += p.energy
        p.energy = 0
        p.towns.clear()
        p.cities.clear()
        p.roads.clear()
        p.plants.clear()
    state.hex_hazards.clear()
    state.building_hazards.clear()
    state.longest_road_holder = None


EDIT_CHECKS = {
    "give": _check_give,
    "take": _check_take,
    "place": _check_place,
    "remove": _check_remove,
    "place_plant": _check_place_plant,
    "remove_plant": _check_remove_plant,
    "inspector": _check_inspector,
    "add_hazard": _check_add_hazard,
    "remove_hazard": _check_remove_hazard,
    "dice": _check_dice,
    "disc": _check_disc,
    "row": _check_row,
    "dev_card": _check_dev,
    "clear": _check_clear,
}
EDIT_EFFECTS = {
    "give": _give,
    "take": _take,
    "place": _place,
    "remove": _remove,
    "place_plant": _place_plant,
    "remove_plant": _remove_plant,
    "inspector": _inspector,
    "add_hazard": _add_hazard,
    "remove_hazard": _remove_hazard,
    "dice": _dice,
    "disc": _disc,
    "row": _row,
    "dev_card": _dev,
    "clear": _clear,
}
