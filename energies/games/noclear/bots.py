"""Bots for Noclear: random and the Engineer persona.

* **random** picks uniformly among the legal actions.
* **engineer** builds a steady engine of machines while uranium is plentiful,
  spreads its machines over symbols against the radioactivity token, buys
  uranium when little energy would be wasted (or when the race is nearly over),
  and aims the tokens at whoever it hurts most.

Both follow ``decide(view, legal_actions, rng)``; ``view`` is
:meth:`NoclearGame.view` (a state copy without the deck order; a game works too).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...kit.bots import RandomBot, make_bot_from
from .actions import BuyMachine, BuyUranium, MoveToken, StoreEnergy, Upgrade
from .engine import uranium_price
from .state import NoclearState

__all__ = ["BOTS", "Engineer", "RandomBot", "make_bot"]


def _state(view) -> NoclearState:
    return getattr(view, "state", view)


class Engineer:
    """Builds an engine while uranium is plentiful, buys uranium when little energy is wasted."""

    name = "Engineer"
    # own turns a new machine is expected to produce for, per uranium card left in the market
    horizon_per_card = 1.2
    max_horizon = 8.0
    waste_tolerance = 3  # energy it accepts to lose when buying uranium early
    engine_size = 4  # production per turn it wants before it buys uranium early

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed) if seed is not None else None

    def __repr__(self) -> str:
        return "Engineer()"

    def decide(self, view, legal_actions: Sequence, rng: random.Random):
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        state, tie = _state(view), self._rng or rng
        scored = [(self.score(state, a), tie.random(), a) for a in legal]
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    # -- scoring -------------------------------------------------------------------------------

    def horizon(self, state: NoclearState) -> float:
        return min(self.max_horizon, self.horizon_per_card * len(state.uranium))

    def score(self, state: NoclearState, action) -> float:
        seat = state.players[state.active]
        if isinstance(action, BuyUranium):
            waste = sum(action.pay) - uranium_price(state, action.card)
            closing = len(state.uranium) <= state.rules.players + 1
            full = min(seat.energy) >= state.rules.energy_cap
            built = sum(state.production(state.active)) >= self.engine_size
            if (waste <= self.waste_tolerance and built) or closing or full:
                return 100.0 - waste
            return -1.0
        if isinstance(action, BuyMachine):
            machine = state.cards.machines[state.market[action.slot]]
            return (
                self.machine_worth(state, machine)
                - sum(action.pay)
                - 0.1 * abs(action.pay[0] - action.pay[1])
            )
        if isinstance(action, Upgrade):
            machine = state.cards.machines[action.machine]
            gain = sum(machine.upgrade_produce) - sum(machine.produce)
            return gain * self.horizon(state) - sum(action.pay) - 0.5
        if isinstance(action, StoreEnergy):
            return 0.2 if seat.energy[action.colour] < max(seat.energy) else 0.1
        if isinstance(action, MoveToken):
            return self.token_worth(state, action)
        return 0.0  # EndTurn

    def machine_worth(self, state: NoclearState, machine) -> float:
        seat = state.players[state.active]
        symbols = {state.cards.machines[m].symbol for m in seat.machines}
        marked = state.rules.symbols[state.bottom] == machine.symbol
        worth = sum(machine.produce) * self.horizon(state) * (0.5 if marked else 1.0)
        worth += 1.0 if machine.symbol not in symbols else 0.0  # spread against the token
        if machine.effect == "surge":
            worth += sum(
                sum(state.cards.machines[m].production(up))
                for m, up in seat.machines.items()
                if state.cards.machines[m].symbol == machine.surge_symbol
            )
        elif machine.effect == "move_token":
            worth += 1.5
        return worth

    def token_worth(self, state: NoclearState, action: MoveToken) -> float:
        me = state.active
        if action.token == "bottom":
            before = [sum(state.production(p.seat)) for p in state.players]
            old, state.bottom = state.bottom, action.to
            after = [sum(state.production(p.seat)) for p in state.players]
            state.bottom = old
            others = max(after[p] - before[p] for p in range(len(before)) if p != me)
            return (after[me] - before[me]) - others
        # top: block the machine others would value most, free the one it marks now
        blocked = state.cards.machines[state.market[action.to]]
        freed_id = state.market[state.top] if 0 <= state.top < len(state.market) else None
        freed = sum(state.cards.machines[freed_id].produce) if freed_id is not None else 0
        return 0.5 * (sum(blocked.produce) - freed)


BOTS: dict[str, type] = {"random": RandomBot, "engineer": Engineer}


def make_bot(spec, seed: int | None = None):
    """A bot from a short name ("random", "engineer"), a class, or a ready bot object."""
    return make_bot_from(BOTS, spec, seed)
