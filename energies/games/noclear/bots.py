"""Bots for Noclear: random and the Engineer persona.

* **random** picks uniformly among the legal actions.
* **engineer** builds a steady engine of machines while uranium is plentiful,
  spreads its machines over symbols against the radioactivity token, buys
  uranium when little energy would be wasted (or when the race is nearly over),
  and aims the tokens at whoever it hurts most. It pays a price that may be split
  (rule 2.2) so that the energy it keeps is as even as it can be, and, when
  uranium is paid with machines (uranium_payment="machines"), discards the
  machines that make least per point they pay, wasting few points.

Both follow ``decide(view, legal_actions, rng)``; ``view`` is
:meth:`NoclearGame.view` (a state copy without the deck order; a game works too).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...kit.bots import RandomBot, make_bot_from
from .actions import (
    BuyMachine,
    BuyUranium,
    BuyUraniumWithMachines,
    DiscardMachine,
    MoveToken,
    StoreEnergy,
    Upgrade,
)
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
        if isinstance(action, BuyUraniumWithMachines):
            return self.machine_payment_worth(state, action.card)
        if isinstance(action, DiscardMachine):
            return -self.discard_cost(state, action.machine, state.owed)
        if isinstance(action, BuyMachine):
            machine = state.cards.machines[state.market[action.slot]]
            return (
                self.machine_worth(state, machine)
                + self.as_payment(state, machine.price.total)
                - sum(action.pay)
                - 0.1 * self.uneven_after(seat.energy, action.pay)
            )
        if isinstance(action, Upgrade):
            machine = state.cards.machines[action.machine]
            gain = sum(machine.upgrade_produce) - sum(machine.produce)
            return (
                gain * self.horizon(state)
                + self.as_payment(state, machine.upgrade_cost.total)
                - sum(action.pay)
                - 0.5
                - 0.1 * self.uneven_after(seat.energy, action.pay)
            )
        if isinstance(action, StoreEnergy):
            return 0.2 if seat.energy[action.colour] < max(seat.energy) else 0.1
        if isinstance(action, MoveToken):
            return self.token_worth(state, action)
        return 0.0  # EndTurn

    @staticmethod
    def as_payment(state: NoclearState, points: int) -> float:
        """Energy paid into a machine that later pays for uranium at its full value (rule 2.2
        [H] uranium_payment="machines": a machine's points are its price and upgrade cost)."""
        return float(points) if state.rules.uranium_payment == "machines" else 0.0

    @staticmethod
    def uneven_after(holding, pay) -> int:
        """How uneven the energy left after paying is: prices naming one colour need it, so a
        split price (rule 2.2) is best paid from the colour held most."""
        left = [h - p for h, p in zip(holding, pay)]
        return max(left) - min(left)

    def discard_cost(self, state: NoclearState, machine_id: int, owed: int) -> float:
        """Rule 2.2 [H] "machines": what discarding a machine costs per point it pays towards
        ``owed`` — the production lost over the horizon plus the points above the price."""
        machine = state.cards.machines[machine_id]
        upgraded = state.players[state.active].machines[machine_id]
        points = machine.points(upgraded)
        lost = sum(machine.production(upgraded)) * self.horizon(state) + max(0, points - owed)
        return lost / min(points, owed)

    def machine_payment(self, state: NoclearState, owed: int) -> tuple[float, int]:
        """The production it would lose (over the horizon) and the points it would waste
        paying ``owed`` with machines, discarding the cheapest per point first."""
        left = dict(state.players[state.active].machines)
        lost = 0.0
        while owed > 0 and left:
            pick = min(left, key=lambda m: self.discard_cost(state, m, owed))
            machine, upgraded = state.cards.machines[pick], left.pop(pick)
            lost += sum(machine.production(upgraded)) * self.horizon(state)
            owed -= machine.points(upgraded)
        return lost, max(0, -owed)

    def machine_payment_worth(self, state: NoclearState, card: int) -> float:
        """Buy uranium with machines when the engine left still makes engine_size a turn and
        few points are wasted, or when the race is nearly over."""
        lost, waste = self.machine_payment(state, uranium_price(state, card))
        closing = len(state.uranium) <= state.rules.players + 1
        left = sum(state.production(state.active)) - lost / max(self.horizon(state), 1.0)
        if closing or (waste <= self.waste_tolerance and left >= self.engine_size):
            return 100.0 - waste - lost / 10
        return -1.0

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
