"""The rules of Noclear: listing, checking and applying actions; the turn machine (rule 2).

A turn: collect energy (automatic, rule 2.1), buy one thing or store energy (2.2;
under uranium_payment="machines" a uranium purchase is paid by discarding machines,
one decision each, until their points cover the price), resolve the bought card's
immediate effect (2.3: a token move is a decision, a surge happens at once), then
optionally upgrade (2.4; skipped when nothing is affordable). The deck is shuffled
by the game's seeded stream.
"""

from __future__ import annotations

import random

from ...kit.codec import check_action_type
from ...kit.contract import Outcome
from ...kit.i18n import N_, joined, msg, nmsg
from .actions import (
    CODEC,
    TOKENS,
    BuyMachine,
    BuyUranium,
    BuyUraniumWithMachines,
    DiscardMachine,
    EndTurn,
    MoveToken,
    StoreEnergy,
    Upgrade,
    energy_text,
)
from .cards import Price, load_deck
from .rules import COLOURS, NoclearRules
from .state import NoclearState, Seat
from .vocabulary import colour_word, energy_amount, symbol_word


def new_state(rules: NoclearRules, seed: int) -> NoclearState:
    """Shuffle the machines, fill the markets, place both tokens, draw the start player."""
    rng = random.Random(f"noclear:{seed}")
    cards = load_deck(rules.deck)
    deck = sorted(cards.machines)
    rng.shuffle(deck)
    market: list[int | None] = [deck.pop(0) for _ in range(rules.market_size)]
    players = [Seat(s, list(rules.start_energy)) for s in range(rules.players)]
    state = NoclearState(
        rules,
        seed,
        rng,
        deck,
        len(deck),
        market,
        [u.id for u in cards.uranium],
        players,
        top=rng.randrange(rules.market_size),
        bottom=rng.randrange(len(rules.symbols)),
        start=rng.randrange(rules.players),  # rule 2.5
    )
    for place in range(1, rules.players):  # rule 2.5 [H]: later seats catch up
        seat = state.players[(state.start + place) % rules.players]
        extra = [place * n for n in rules.catch_up_energy]
        seat.energy = [min(rules.energy_cap, e + x) for e, x in zip(seat.energy, extra)]
    state.log.append(
        msg(
            N_(
                "seat {seat} starts; the top token marks slot {slot}, the bottom token the {symbol} symbol"
            ),
            seat=state.start,
            slot=state.top + 1,
            symbol=symbol_word(rules.symbols[state.bottom]),
        )
    )
    _start_turn(state, state.start)
    return state


def current_seat(state: NoclearState) -> int | None:
    return None if state.outcome is not None else state.active


# -- listing ------------------------------------------------------------------------------------


def legal_actions(state: NoclearState) -> list:
    if state.outcome is not None:
        return []
    seat, rules = state.active, state.rules
    holding = tuple(state.players[seat].energy)
    if state.phase == "buy":  # rule 2.2
        out: list = []
        for slot, machine_id in enumerate(state.market):
            if machine_id is not None and slot != state.top:
                price = state.cards.machines[machine_id].price
                out += [BuyMachine(seat, slot, pay) for pay in price.payments(holding)]
        for card in state.visible_uranium():
            if rules.uranium_payment == "machines":
                if machine_points(state, seat) >= uranium_price(state, card):
                    out.append(BuyUraniumWithMachines(seat, card))
            else:
                out += [
                    BuyUranium(seat, card, pay) for pay in uranium_payments(state, card, holding)
                ]
        # buying is a choice: buying nothing is always open, even when it stores 0 energy
        return out + [StoreEnergy(seat, c) for c in range(len(COLOURS))]
    if state.phase == "discard":  # rule 2.2 [H]: any owned machine, until the price is covered
        return [DiscardMachine(seat, m) for m in sorted(state.players[seat].machines)]
    if state.phase == "effect":  # rule 2.3
        tops = [s for s, m in enumerate(state.market) if m is not None and s != state.top]
        bottoms = [b for b in range(len(rules.symbols)) if b != state.bottom]
        return [MoveToken(seat, "top", s) for s in tops] + [
            MoveToken(seat, "bottom", b) for b in bottoms
        ]
    return _upgrades(state, seat, holding) + [EndTurn(seat)]  # rule 2.4


def uranium_payments(
    state: NoclearState, card: int, holding: tuple[int, ...]
) -> list[tuple[int, int]]:
    """How ``holding`` may pay for a uranium card (rule 2.2 [H] uranium_payment)."""
    price = uranium_price(state, card)
    if state.rules.uranium_payment == "all":  # all energy is discarded; the excess is lost
        return [tuple(holding)] if sum(holding) >= price else []
    return Price((0, 0), price).payments(holding)


def uranium_price(state: NoclearState, card: int) -> int:
    """The price of a uranium card (energy of any colour, or machine points)."""
    return next(u.price for u in state.cards.uranium if u.id == card)


def machine_points(state: NoclearState, seat: int) -> int:
    """What all of ``seat``'s machines are worth as uranium payment (rule 2.2 [H] "machines")."""
    cards = state.cards.machines
    return sum(cards[m].points(up) for m, up in state.players[seat].machines.items())


def _upgrades(state: NoclearState, seat: int, holding: tuple[int, ...]) -> list:
    out = []
    for machine_id, upgraded in sorted(state.players[seat].machines.items()):
        if not upgraded:
            cost = state.cards.machines[machine_id].upgrade_cost
            out += [Upgrade(seat, machine_id, pay) for pay in cost.payments(holding)]
    return out


# -- checking -----------------------------------------------------------------------------------


def why_illegal(state: NoclearState, action) -> str | None:
    """One sentence saying why ``action`` is not allowed now, or None if it is."""
    reason = check_action_type(action, CODEC, "Noclear")
    if reason:
        return reason
    if state.outcome is not None:
        return msg(N_("The game is over."))
    if action.seat != state.active:
        return msg(
            N_("It is seat {active}'s turn, not seat {seat}'s."),
            active=state.active,
            seat=action.seat,
        )
    if action in legal_actions(state):
        return None
    return _explain(state, action)


def _explain(state: NoclearState, action) -> str:
    phase_of = {
        BuyMachine: "buy",
        BuyUranium: "buy",
        BuyUraniumWithMachines: "buy",
        StoreEnergy: "buy",
        DiscardMachine: "discard",
        MoveToken: "effect",
        Upgrade: "upgrade",
        EndTurn: "upgrade",
    }
    wanted = phase_of[type(action)]
    if wanted != state.phase:
        if state.phase == "buy":
            return msg(N_("Not now: first buy one thing or store energy (rule 2.2)."))
        if state.phase == "discard":
            return nmsg(
                "Not now: first discard machines to pay for uranium card {card}: {n} point "
                "still owed (rule 2.2).",
                "Not now: first discard machines to pay for uranium card {card}: {n} points "
                "still owed (rule 2.2).",
                state.owed,
                card=state.paying_for,
            )
        if state.phase == "effect":
            return msg(
                N_(
                    "Not now: first move a radioactivity token: the card you bought says so "
                    "(rule 2.3)."
                )
            )
        return msg(N_("Not now: first upgrade a machine or end your turn (rule 2.4)."))
    seat = state.players[action.seat]
    pay = getattr(action, "pay", (0, 0))
    if not (
        isinstance(pay, tuple) and len(pay) == 2 and all(isinstance(n, int) and n >= 0 for n in pay)
    ):
        return msg(N_("Say how much blue and orange energy you pay, e.g. pay=(2, 1)."))
    if isinstance(action, BuyMachine):
        if (
            not isinstance(action.slot, int)
            or not 0 <= action.slot < len(state.market)
            or state.market[action.slot] is None
        ):
            return msg(N_("There is no machine in that market slot."))
        if action.slot == state.top:
            return msg(
                N_(
                    "The top radioactivity token marks that machine: it cannot be bought (rule 1.5)."
                )
            )
        machine = state.cards.machines[state.market[action.slot]]
        return _price_reason(
            msg(N_("{machine} costs {price}"), machine=machine.title, price=machine.price.printed),
            machine.price,
            pay,
            seat.energy,
        )
    if isinstance(action, (BuyUranium, BuyUraniumWithMachines)):
        return _uranium_reason(state, action, seat)
    if isinstance(action, DiscardMachine):
        return msg(N_("You can only discard a machine you own (rule 2.2)."))
    if isinstance(action, StoreEnergy):
        return msg(
            N_("Name a colour: 0 ({first}) or 1 ({second})."),
            first=colour_word(COLOURS[0]),
            second=colour_word(COLOURS[1]),
        )
    if isinstance(action, MoveToken):
        if action.token not in TOKENS:
            return msg(N_("The tokens are 'top' (a market machine) and 'bottom' (a symbol)."))
        if action.token == "top":
            return msg(
                N_(
                    "The top token must move to another market slot that holds a machine "
                    "(rule 2.3)."
                )
            )
        return msg(
            N_("The bottom token must move to another symbol, 0 to {last}."),
            last=len(state.rules.symbols) - 1,
        )
    if isinstance(action, Upgrade):
        owned = seat.machines.get(action.machine) if isinstance(action.machine, int) else None
        if owned is None:
            return msg(N_("You can only upgrade a machine you own (rule 2.4)."))
        if owned:
            return msg(N_("That machine is already upgraded."))
        machine = state.cards.machines[action.machine]
        return _price_reason(
            msg(
                N_("Upgrading {machine} costs {price}"),
                machine=machine.title,
                price=machine.upgrade_cost.printed,
            ),
            machine.upgrade_cost,
            pay,
            seat.energy,
        )
    return msg(N_("Upgrade a machine or end your turn."))


def _price_reason(cost, price: Price, pay: tuple[int, int], holding) -> str:
    """Why ``pay`` does not pay ``price`` from ``holding`` (rule 2.2); ``cost`` names the
    price ("Wind farm costs 3 blue")."""
    if price.mixed:
        cost = msg(
            N_("{cost}, payable in any split of {n} (e.g. {all_blue} or {all_orange}, rule 2.2)"),
            cost=cost,
            n=price.total,
            all_blue=energy_amount(price.total, "blue"),
            all_orange=energy_amount(price.total, "orange"),
        )
    elif price.free:
        cost = nmsg(
            "{cost} ({n} energy, the 'any' part in either colour)",
            "{cost} ({n} energy, the 'any' part in either colour)",
            price.total,
            cost=cost,
        )
    held = energy_text(tuple(holding))
    if sum(holding) < price.total:
        return msg(N_("{cost}; you hold {held}: too little."), cost=cost, held=held)
    if not price.payments(tuple(holding)):
        return msg(
            N_("{cost}; you hold {held}: too little of the colour it names."), cost=cost, held=held
        )
    short = _short(pay, holding)
    if short:
        return msg(
            N_("{cost}; you hold {held}: {paid} is short of {short}."),
            cost=cost,
            held=held,
            paid=energy_text(pay),
            short=short,
        )
    return msg(N_("{cost}; {paid} does not pay it."), cost=cost, paid=energy_text(pay))


def _short(pay, holding):
    """What ``pay`` asks beyond ``holding``, colour by colour ("1 blue, 2 orange"), or None."""
    short = [energy_amount(n - h, c) for n, h, c in zip(pay, holding, COLOURS) if n > h]
    return joined(short, ", ") if short else None


def _uranium_reason(state: NoclearState, action, seat: Seat) -> str:
    """Why a uranium purchase is refused (rule 2.2 and its [H] uranium_payment)."""
    reading = state.rules.uranium_payment
    if action.card not in state.visible_uranium():
        return msg(N_("That uranium card is not face up in the market (rule 1.5)."))
    price = uranium_price(state, action.card)
    if reading == "machines":
        if isinstance(action, BuyUranium):
            return msg(
                N_(
                    "Under these rules uranium is paid by discarding machines (rule 2.2, "
                    "uranium_payment='machines'): {action}."
                ),
                action=f"BuyUraniumWithMachines({action.seat}, {action.card})",
            )
        worth = machine_points(state, action.seat)
        return msg(
            N_(
                "Uranium card {card} costs {price} points; your machines are worth {worth} "
                "(a machine's price, plus its upgrade cost once upgraded; rule 2.2)."
            ),
            card=action.card,
            price=price,
            worth=worth,
        )
    if isinstance(action, BuyUraniumWithMachines):
        return msg(
            N_(
                "Under these rules uranium is paid with energy (rule 2.2, uranium_payment="
                "{reading}): {action}."
            ),
            reading=repr(reading),
            action="BuyUranium(seat, card, pay)",
        )
    short = _short(action.pay, seat.energy)
    if sum(seat.energy) < price:
        return msg(
            N_("Uranium card {card} costs {price} energy; you hold {held}."),
            card=action.card,
            price=price,
            held=sum(seat.energy),
        )
    if short:
        return msg(
            N_("You hold {held}: {paid} is short of {short}."),
            held=energy_text(tuple(seat.energy)),
            paid=energy_text(action.pay),
            short=short,
        )
    if reading == "all":
        return msg(
            N_("Buying uranium discards all the energy you hold (rule 2.2): pay everything.")
        )
    return msg(
        N_("Uranium card {card} costs exactly {price} energy of any colour."),
        card=action.card,
        price=price,
    )


def payment_note(state: NoclearState, action) -> str:
    """What a listed action takes from its player and what is left or lost (rule 2.2), for
    the app's list of actions; empty for an action that pays nothing (a message otherwise,
    said in the reader's language where it is shown)."""
    seat = state.players[state.active]
    left = energy_text(tuple(h - p for h, p in zip(seat.energy, getattr(action, "pay", (0, 0)))))
    if isinstance(action, (BuyMachine, Upgrade)):
        machine_id = state.market[action.slot] if isinstance(action, BuyMachine) else action.machine
        machine = state.cards.machines[machine_id]
        return msg(N_("{machine}; leaves {left}"), machine=machine.title, left=left)
    if isinstance(action, BuyUranium):
        lost = sum(action.pay) - uranium_price(state, action.card)
        if lost:
            return msg(
                N_("price {price}; leaves {left}; {lost} lost"),
                price=uranium_price(state, action.card),
                left=left,
                lost=lost,
            )
        return msg(
            N_("price {price}; leaves {left}"), price=uranium_price(state, action.card), left=left
        )
    if isinstance(action, BuyUraniumWithMachines):
        return msg(
            N_("price {price} points; your machines are worth {worth}"),
            price=uranium_price(state, action.card),
            worth=machine_points(state, action.seat),
        )
    if isinstance(action, DiscardMachine):
        machine = state.cards.machines[action.machine]
        points = machine.points(seat.machines[action.machine])
        if points < state.owed:
            return msg(
                N_("{machine}: {points} points, {owed} still owed after"),
                machine=machine.title,
                points=points,
                owed=state.owed - points,
            )
        return msg(
            N_("{machine}: {points} points pay the {owed} owed; {lost} lost"),
            machine=machine.title,
            points=points,
            owed=state.owed,
            lost=points - state.owed,
        )
    return ""


# -- applying -----------------------------------------------------------------------------------


def apply_legal(state: NoclearState, action) -> None:
    """Apply an action the listing holds (unchecked: call why_illegal first)."""
    seat = state.players[action.seat]
    state.log.append(action.sentence())
    pay = getattr(action, "pay", (0, 0))
    seat.energy = [h - p for h, p in zip(seat.energy, pay)]
    if isinstance(action, BuyMachine):
        machine = state.cards.machines[state.market[action.slot]]
        seat.machines[machine.id] = False
        if seat.first_machine is None:
            seat.first_machine = machine.id
        state.market[action.slot] = state.deck.pop(0) if state.deck else None
        state.deck_size = len(state.deck)
        state.log.append(msg(N_("  {machine}"), machine=machine.words()))
        if machine.effect == "surge":
            _surge(state, machine.surge_symbol)
        elif machine.effect == "move_token":
            state.phase = "effect"
            return
    elif isinstance(action, BuyUranium):
        if state.rules.uranium_payment == "all":
            seat.energy = [0] * len(COLOURS)  # rule 2.2: the excess is lost
        if _take_uranium(state, seat, action.card):
            return
    elif isinstance(action, BuyUraniumWithMachines):  # rule 2.2 [H] "machines"
        state.phase, state.paying_for = "discard", action.card
        state.owed = uranium_price(state, action.card)
        state.log.append(
            nmsg(
                "  {n} point to pay: discard machines",
                "  {n} points to pay: discard machines",
                state.owed,
            )
        )
        return
    elif isinstance(action, DiscardMachine):
        if _discard(state, seat, action.machine):
            return
    elif isinstance(action, StoreEnergy):
        _add(
            state,
            seat,
            tuple(state.rules.store_energy if c == action.colour else 0 for c in range(2)),
        )
    elif isinstance(action, MoveToken):
        if action.token == "top":
            state.top = action.to
        else:
            state.bottom = action.to
    elif isinstance(action, Upgrade):
        seat.machines[action.machine] = True
        state.upgrades_done += 1
    else:  # EndTurn
        _end_turn(state)
        return
    _after_buying(state)


def _take_uranium(state: NoclearState, seat: Seat, card: int) -> bool:
    """The paid uranium card goes to ``seat``; True when that ends the game (rule 3.1)."""
    state.uranium.remove(card)
    seat.uranium.append(card)
    if not state.uranium:  # rule 3.1
        if state.rules.end == "immediate":
            _finish(state, "uranium")
            return True
        state.ending = True
        state.log.append(msg(N_("  the last uranium card is gone: the round is completed")))
    return False


def _discard(state: NoclearState, seat: Seat, machine_id: int) -> bool:
    """Rule 2.2 [H] "machines": the machine leaves the game and its points go to the price;
    once covered, the excess is lost and the card is taken. True while more is owed, or
    when the purchase ended the game (either way, nothing more this action)."""
    machine = state.cards.machines[machine_id]
    points = machine.points(seat.machines.pop(machine_id))
    state.discarded.append(machine_id)
    if points < state.owed:
        state.owed -= points
        state.log.append(
            msg(
                N_("  {machine}: {points} points, {owed} still owed"),
                machine=machine.words(),
                points=points,
                owed=state.owed,
            )
        )
        return True
    lost, card = points - state.owed, state.paying_for
    state.log.append(
        msg(
            N_("  {machine}: {points} points, uranium card {card} paid ({lost} lost)"),
            machine=machine.words(),
            points=points,
            card=card,
            lost=lost,
        )
    )
    state.paying_for, state.owed, state.phase = None, 0, "buy"
    return _take_uranium(state, seat, card)


def _add(state: NoclearState, seat: Seat, energy) -> None:
    cap = state.rules.energy_cap  # rule 2.2 [H]: a board holds at most energy_cap a colour
    seat.energy = [min(cap, h + e) for h, e in zip(seat.energy, energy)]


def _surge(state: NoclearState, symbol: str) -> None:
    """Rule 2.3: every machine with the symbol produces for its owner, ignoring the token."""
    cards = state.cards.machines
    for seat in state.players:
        made = [0, 0]
        for machine_id, upgraded in seat.machines.items():
            if cards[machine_id].symbol == symbol:
                made = [a + b for a, b in zip(made, cards[machine_id].production(upgraded))]
        if any(made):
            _add(state, seat, made)
            state.log.append(
                msg(
                    N_("  surge: seat {seat}'s {symbol} machines make {blue}, {orange}"),
                    seat=seat.seat,
                    symbol=symbol_word(symbol),
                    blue=energy_amount(made[0], "blue"),
                    orange=energy_amount(made[1], "orange"),
                )
            )


def _after_buying(state: NoclearState) -> None:
    """Rule 2.4: the upgrade step, when an upgrade is affordable and still allowed this turn."""
    seat = state.active
    if state.upgrades_done < state.rules.upgrades_per_turn and _upgrades(
        state, seat, tuple(state.players[seat].energy)
    ):
        state.phase = "upgrade"
    else:
        _end_turn(state)


def _end_turn(state: NoclearState) -> None:
    following = (state.active + 1) % state.rules.players
    if state.ending and following == state.start:
        _finish(state, "uranium")
    else:
        _start_turn(state, following)


def _start_turn(state: NoclearState, seat: int) -> None:
    """Rule 2.1: collect the energy of every machine whose symbol is not marked."""
    if state.turn >= state.rules.turn_limit:
        _finish(state, "turn_limit")
        return
    state.turn += 1
    state.active, state.phase, state.upgrades_done = seat, "buy", 0
    player = state.players[seat]
    made = state.production(seat)
    state.history.append(
        {
            "turn": state.turn,
            "seat": seat,
            "made": sum(made),
            "switched_off": sum(state.production(seat, ignore_token=True)) - sum(made),
            "energy_before": sum(player.energy),
            "machines": len(player.machines),
            "uranium": len(player.uranium),
            "bottom_token": state.rules.symbols[state.bottom],
        }
    )
    _add(state, player, made)
    state.log.append(
        msg(
            N_(
                "turn {turn}, seat {seat} collects {blue}, {orange} (now {held_blue}, {held_orange})"
            ),
            turn=state.turn,
            seat=seat,
            blue=energy_amount(made[0], "blue"),
            orange=energy_amount(made[1], "orange"),
            held_blue=energy_amount(player.energy[0], "blue"),
            held_orange=energy_amount(player.energy[1], "orange"),
        )
    )


# how the game ends (rule 3.1), whole sentences: (kind, shared) -> the message
_ENDINGS = {
    ("uranium", False): N_("The uranium market is empty: {who} wins (uranium {counts})."),
    ("uranium", True): N_(
        "The uranium market is empty: {who} share the victory (uranium {counts})."
    ),
    ("turn_limit", False): N_("The turn limit is reached: {who} wins (uranium {counts})."),
    ("turn_limit", True): N_(
        "The turn limit is reached: {who} share the victory (uranium {counts})."
    ),
}


def _finish(state: NoclearState, kind: str) -> None:
    """Rule 3.1: most uranium wins; tie-break [H]: most energy left, then shared."""

    def rank(p: Seat):
        return (len(p.uranium), sum(p.energy) if state.rules.tiebreak == "energy" else 0)

    best = max(rank(p) for p in state.players)
    winners = tuple(p.seat for p in state.players if rank(p) == best)
    counts = [len(p.uranium) for p in state.players]
    who = joined([msg(N_("seat {seat}"), seat=s) for s in winners], msg(N_(" and ")))
    reason = msg(_ENDINGS[kind, len(winners) > 1], who=who, counts=str(counts))
    state.phase = "over"
    state.outcome = Outcome(kind, winners, state.turn, reason)
    state.log.append(reason)
