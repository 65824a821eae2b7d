"""The decisions of Noclear, as small frozen dataclasses (rule 2).

Energy amounts are ``(blue, orange)`` pairs; ``str(action)`` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...kit.codec import ActionCodec
from .rules import COLOURS, SYMBOLS

TOKENS = ("top", "bottom")  # rule 1.5: top marks a market machine, bottom a symbol


# The helpers below also print malformed actions (a save file's, a user's): their reason says
# what is wrong, so here anything that is not a number in range is shown as it is.


def energy_text(amounts: tuple[int, ...]) -> str:
    if not isinstance(amounts, tuple) or not all(isinstance(n, int) for n in amounts):
        return repr(amounts)
    parts = [f"{n} {c}" for n, c in zip(amounts, COLOURS) if n]
    return " + ".join(parts) or "nothing"


def _place(index) -> str:
    """A market slot as people count it (from 1)."""
    return str(index + 1) if isinstance(index, int) else repr(index)


def _name(names: tuple[str, ...], index) -> str:
    if isinstance(index, int) and 0 <= index < len(names):
        return names[index]
    return f"unknown {index!r}"


@dataclass(frozen=True)
class BuyMachine:
    """Buy the machine in a market slot, paying ``pay`` = (blue, orange) (rule 2.2)."""

    seat: int
    slot: int
    pay: tuple[int, int]
    kind: ClassVar[str] = "buy_machine"

    def __str__(self) -> str:
        return f"seat {self.seat} buys the machine in slot {_place(self.slot)} for {energy_text(self.pay)}"


@dataclass(frozen=True)
class BuyUranium:
    """Buy a visible uranium card, paying ``pay`` = (blue, orange) (rule 2.2)."""

    seat: int
    card: int
    pay: tuple[int, int]
    kind: ClassVar[str] = "buy_uranium"

    def __str__(self) -> str:
        return f"seat {self.seat} buys uranium card {self.card} for {energy_text(self.pay)}"


@dataclass(frozen=True)
class BuyUraniumWithMachines:
    """Buy a visible uranium card by discarding machines (rule 2.2 [H], uranium_payment=
    "machines"): the player then discards machines one by one (:class:`DiscardMachine`)
    until their points cover the price."""

    seat: int
    card: int
    kind: ClassVar[str] = "buy_uranium_with_machines"

    def __str__(self) -> str:
        return f"seat {self.seat} buys uranium card {self.card}, paying with machines"


@dataclass(frozen=True)
class DiscardMachine:
    """Discard an owned machine towards the uranium card being bought (rule 2.2 [H],
    uranium_payment="machines"); points above the price are lost."""

    seat: int
    machine: int
    kind: ClassVar[str] = "discard_machine"

    def __str__(self) -> str:
        return f"seat {self.seat} discards machine {self.machine} to pay for uranium"


@dataclass(frozen=True)
class StoreEnergy:
    """Buy nothing and add energy of one colour to the store (rule 2.2)."""

    seat: int
    colour: int
    kind: ClassVar[str] = "store_energy"

    def __str__(self) -> str:
        return f"seat {self.seat} buys nothing and stores {_name(COLOURS, self.colour)} energy"


@dataclass(frozen=True)
class MoveToken:
    """Immediate effect: move a radioactivity token (rule 2.3). ``to`` is a market slot for
    the top token, a symbol number for the bottom token."""

    seat: int
    token: str
    to: int
    kind: ClassVar[str] = "move_token"

    def __str__(self) -> str:
        if self.token == "top":
            return f"seat {self.seat} moves the top token to market slot {_place(self.to)}"
        return f"seat {self.seat} moves the bottom token to the {_name(SYMBOLS, self.to)} symbol"


@dataclass(frozen=True)
class Upgrade:
    """Pay a machine's upgrade cost and flip it (rule 2.4)."""

    seat: int
    machine: int
    pay: tuple[int, int]
    kind: ClassVar[str] = "upgrade"

    def __str__(self) -> str:
        return f"seat {self.seat} upgrades machine {self.machine} for {energy_text(self.pay)}"


@dataclass(frozen=True)
class EndTurn:
    """Skip the upgrade and end the turn (rule 2.4 is optional)."""

    seat: int
    kind: ClassVar[str] = "end_turn"

    def __str__(self) -> str:
        return f"seat {self.seat} ends the turn"


CODEC = ActionCodec(
    BuyMachine,
    BuyUranium,
    StoreEnergy,
    MoveToken,
    Upgrade,
    EndTurn,
    BuyUraniumWithMachines,
    DiscardMachine,
)
