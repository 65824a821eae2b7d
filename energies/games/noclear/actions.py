"""The decisions of Noclear, as small frozen dataclasses (rule 2).

Energy amounts are ``(blue, orange)`` pairs; ``str(action)`` reads them. Each action's
``sentence()`` is the same text as a message said in the reader's language; ``str(action)``
is its English text, which files and digests use (never the language).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...kit.codec import ActionCodec
from ...kit.i18n import N_, msg
from .rules import COLOURS, SYMBOLS
from .vocabulary import colour_word, energy_words, symbol_word

TOKENS = ("top", "bottom")  # rule 1.5: top marks a market machine, bottom a symbol


# The helpers below also print malformed actions (a save file's, a user's): their reason says
# what is wrong, so here anything that is not a number in range is shown as it is.


def energy_text(amounts: tuple[int, ...]) -> str:
    """ "2 blue + 1 orange" (a message: said in the reader's language where it is shown)."""
    if not isinstance(amounts, tuple) or not all(isinstance(n, int) for n in amounts):
        return repr(amounts)
    return energy_words(amounts)


def _place(index) -> str:
    """A market slot as people count it (from 1)."""
    return str(index + 1) if isinstance(index, int) else repr(index)


def _name(names: tuple[str, ...], index, word) -> str:
    if isinstance(index, int) and 0 <= index < len(names):
        return word(names[index])
    return msg(N_("unknown {value}"), value=repr(index))


class _Sentence:
    """``str(action)`` is the English text of its ``sentence()`` (files never depend on the
    language)."""

    def __str__(self) -> str:
        return str(self.sentence())


@dataclass(frozen=True)
class BuyMachine(_Sentence):
    """Buy the machine in a market slot, paying ``pay`` = (blue, orange) (rule 2.2)."""

    seat: int
    slot: int
    pay: tuple[int, int]
    kind: ClassVar[str] = "buy_machine"

    def sentence(self):
        return msg(
            N_("seat {seat} buys the machine in slot {slot} for {energy}"),
            seat=self.seat,
            slot=_place(self.slot),
            energy=energy_text(self.pay),
        )


@dataclass(frozen=True)
class BuyUranium(_Sentence):
    """Buy a visible uranium card, paying ``pay`` = (blue, orange) (rule 2.2)."""

    seat: int
    card: int
    pay: tuple[int, int]
    kind: ClassVar[str] = "buy_uranium"

    def sentence(self):
        return msg(
            N_("seat {seat} buys uranium card {card} for {energy}"),
            seat=self.seat,
            card=self.card,
            energy=energy_text(self.pay),
        )


@dataclass(frozen=True)
class BuyUraniumWithMachines(_Sentence):
    """Buy a visible uranium card by discarding machines (rule 2.2 [H], uranium_payment=
    "machines"): the player then discards machines one by one (:class:`DiscardMachine`)
    until their points cover the price."""

    seat: int
    card: int
    kind: ClassVar[str] = "buy_uranium_with_machines"

    def sentence(self):
        return msg(
            N_("seat {seat} buys uranium card {card}, paying with machines"),
            seat=self.seat,
            card=self.card,
        )


@dataclass(frozen=True)
class DiscardMachine(_Sentence):
    """Discard an owned machine towards the uranium card being bought (rule 2.2 [H],
    uranium_payment="machines"); points above the price are lost."""

    seat: int
    machine: int
    kind: ClassVar[str] = "discard_machine"

    def sentence(self):
        return msg(
            N_("seat {seat} discards machine {machine} to pay for uranium"),
            seat=self.seat,
            machine=self.machine,
        )


@dataclass(frozen=True)
class StoreEnergy(_Sentence):
    """Buy nothing and add energy of one colour to the store (rule 2.2)."""

    seat: int
    colour: int
    kind: ClassVar[str] = "store_energy"

    def sentence(self):
        return msg(
            N_("seat {seat} buys nothing and stores {colour} energy"),
            seat=self.seat,
            colour=_name(COLOURS, self.colour, colour_word),
        )


@dataclass(frozen=True)
class MoveToken(_Sentence):
    """Immediate effect: move a radioactivity token (rule 2.3). ``to`` is a market slot for
    the top token, a symbol number for the bottom token."""

    seat: int
    token: str
    to: int
    kind: ClassVar[str] = "move_token"

    def sentence(self):
        if self.token == "top":
            return msg(
                N_("seat {seat} moves the top token to market slot {slot}"),
                seat=self.seat,
                slot=_place(self.to),
            )
        return msg(
            N_("seat {seat} moves the bottom token to the {symbol} symbol"),
            seat=self.seat,
            symbol=_name(SYMBOLS, self.to, symbol_word),
        )


@dataclass(frozen=True)
class Upgrade(_Sentence):
    """Pay a machine's upgrade cost and flip it (rule 2.4)."""

    seat: int
    machine: int
    pay: tuple[int, int]
    kind: ClassVar[str] = "upgrade"

    def sentence(self):
        return msg(
            N_("seat {seat} upgrades machine {machine} for {energy}"),
            seat=self.seat,
            machine=self.machine,
            energy=energy_text(self.pay),
        )


@dataclass(frozen=True)
class EndTurn(_Sentence):
    """Skip the upgrade and end the turn (rule 2.4 is optional)."""

    seat: int
    kind: ClassVar[str] = "end_turn"

    def sentence(self):
        return msg(N_("seat {seat} ends the turn"), seat=self.seat)


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
