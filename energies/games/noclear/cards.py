"""Noclear's cards, read from a deck data file (``decks/<name>.json``).

A deck file holds ``design_notes`` (why the numbers are what they are),
``machines`` and ``uranium``. A machine: ``id``, ``name``, ``symbol``,
``price`` / ``upgrade_cost`` (energy by colour, ``any`` payable in either colour),
``produce`` / ``upgrade_produce`` (energy per turn by colour) and ``effect``
(``null``, ``{"kind": "move_token"}`` or ``{"kind": "surge", "symbol": ...}``).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources

from ...kit.i18n import N_, Message, joined, msg
from .vocabulary import COLOURS, SYMBOLS, energy_amount, symbol_word

Energy = tuple[int, ...]  # one amount per colour (blue, orange)


#: The machine names of the default deck (``decks/default.json``), marked for the catalogs so
#: a student reads them in their language; ``tests/games/test_noclear_rules.py`` checks the list.
MACHINE_NAMES = (
    N_("Atom hub"),
    N_("Breeder loop"),
    N_("Coal boiler"),
    N_("Coal hub"),
    N_("Coal plant"),
    N_("Coal stove"),
    N_("Coke oven"),
    N_("Cooling tower"),
    N_("Dam gate"),
    N_("Fusion rig"),
    N_("Geyser well"),
    N_("Great dam"),
    N_("Heat pile"),
    N_("Hybrid mast"),
    N_("Isotope cell"),
    N_("Kite generator"),
    N_("Mine cart"),
    N_("Mirror tower"),
    N_("Offshore park"),
    N_("Panel row"),
    N_("Peat burner"),
    N_("Reactor block"),
    N_("Rooftop turbine"),
    N_("Solar boiler"),
    N_("Solar field"),
    N_("Solar lamp"),
    N_("Solar roof"),
    N_("Steam engine"),
    N_("Storm turbine"),
    N_("Stream turbine"),
    N_("Sun hub"),
    N_("Sun tracker"),
    N_("Test reactor"),
    N_("Tide wheel"),
    N_("Water hub"),
    N_("Water mill"),
    N_("Wave farm"),
    N_("Wind farm"),
    N_("Wind hub"),
    N_("Wind pump"),
)


@dataclass(frozen=True)
class Price:
    """A cost: fixed energy per colour plus ``any`` payable in either colour (rule 2.2).

    A *mixed* price names both colours ("half of each colour", e.g. 4 blue + 4 orange): rule
    2.2 lets it be paid in the colour of the player's choice, so all of it may be split freely
    (8 blue, 8 orange or any split). A price naming one colour (3 blue, or 3 blue + 3 any)
    keeps that colour's part.
    """

    fixed: Energy
    any: int = 0

    @property
    def total(self) -> int:
        return sum(self.fixed) + self.any

    @property
    def mixed(self) -> bool:
        """Rule 2.2: the price names more than one colour, so any split of it pays."""
        return sum(1 for n in self.fixed if n) > 1

    @property
    def required(self) -> Energy:
        """The energy that must be paid in its own colour (none for a mixed price)."""
        return (0,) * len(self.fixed) if self.mixed else self.fixed

    @property
    def free(self) -> int:
        """The energy that may be paid in either colour (all of a mixed price, rule 2.2)."""
        return self.total - sum(self.required)

    def payments(self, holding: Energy) -> list[Energy]:
        """Every split of the price the holding can pay, most blue last (rule 2.2: the 'any'
        part, or the whole of a mixed price, in either colour)."""
        need, free = self.required, self.free
        out = []
        for blue_extra in range(free + 1):
            pay = (need[0] + blue_extra, need[1] + free - blue_extra)
            if pay[0] <= holding[0] and pay[1] <= holding[1]:
                out.append(pay)
        return out

    @property
    def printed(self) -> str:
        """The price as the card prints it: "3 blue + 3 any", "4 blue + 4 orange" (a message,
        said in the reader's language where it is shown)."""
        parts = [energy_amount(n, c) for n, c in zip(self.fixed, COLOURS) if n]
        if self.any:
            parts.append(energy_amount(self.any, "any"))
        return joined(parts, " + ") if parts else msg(N_("free"))

    def words(self) -> Message:
        """The price with its rule 2.2 note, "4 blue + 4 orange (any split)", as a message."""
        return msg(N_("{price} (any split)"), price=self.printed) if self.mixed else self.printed

    def __str__(self) -> str:
        return str(self.words())  # English (rule 2.2)


@dataclass(frozen=True)
class Machine:
    """A machine card: its front and its upgrade side (rule 1.4)."""

    id: int
    name: str
    symbol: str
    price: Price
    produce: Energy
    upgrade_cost: Price
    upgrade_produce: Energy
    effect: str | None  # None, "move_token" or "surge"
    surge_symbol: str | None = None

    def production(self, upgraded: bool) -> Energy:
        return self.upgrade_produce if upgraded else self.produce

    def points(self, upgraded: bool) -> int:
        """Rule 2.2 [H] uranium_payment="machines": the energy points a machine accumulated,
        read as the energy paid into it — its price, plus its upgrade cost once flipped.
        (Energy a machine makes goes to its owner's board, so this is all it holds.)"""
        return self.price.total + (self.upgrade_cost.total if upgraded else 0)

    @property
    def title(self) -> str:
        """The card's name in the reader's language (:data:`MACHINE_NAMES`; a name the
        catalogs do not know, from another deck file, as it is)."""
        return msg(self.name)

    def words(self) -> Message:
        """ "Wind farm (wind)" as a message."""
        return msg(N_("{machine} ({symbol})"), machine=self.title, symbol=symbol_word(self.symbol))

    def __str__(self) -> str:
        return str(self.words())


@dataclass(frozen=True)
class Uranium:
    id: int
    price: int


@dataclass(frozen=True)
class Deck:
    name: str
    design_notes: tuple[str, ...]
    machines: dict[int, Machine]
    uranium: tuple[Uranium, ...]  # in market order (rising prices)


def _energy(data: dict, where: str) -> Energy:
    if not isinstance(data, dict) or set(data) - set(COLOURS) - {"any"}:
        raise ValueError(f"{where}: energy must name only {', '.join(COLOURS)} or any")
    values = [data.get(c, 0) for c in COLOURS]
    if any(not isinstance(v, int) or v < 0 for v in values + [data.get("any", 0)]):
        raise ValueError(f"{where}: energy amounts must be whole numbers >= 0")
    return tuple(values)


def _price(data: dict, where: str) -> Price:
    _energy(data, where)
    return Price(tuple(data.get(c, 0) for c in COLOURS), data.get("any", 0))


def _machine(raw: dict) -> Machine:
    where = f"machine {raw.get('id')!r}"
    effect = raw.get("effect")
    kind = effect.get("kind") if isinstance(effect, dict) else None
    if effect is not None and kind not in ("move_token", "surge"):
        raise ValueError(f"{where}: unknown effect {effect!r}")
    surge = effect.get("symbol") if kind == "surge" else None
    if raw.get("symbol") not in SYMBOLS or (kind == "surge" and surge not in SYMBOLS):
        raise ValueError(f"{where}: symbols must be one of {', '.join(SYMBOLS)}")
    for key in ("produce", "upgrade_produce"):
        if "any" in raw.get(key, {}):
            raise ValueError(f"{where}: production names a colour, not 'any'")
    return Machine(
        raw["id"],
        str(raw["name"]),
        raw["symbol"],
        _price(raw["price"], where),
        _energy(raw["produce"], where),
        _price(raw["upgrade_cost"], where),
        _energy(raw["upgrade_produce"], where),
        kind,
        surge,
    )


@functools.lru_cache(maxsize=8)
def load_deck(name: str = "default") -> Deck:
    """The deck data file ``decks/<name>.json`` of the package, checked."""
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_-]{1,40}", name):
        raise ValueError(f"A deck name is lower-case letters, digits, - or _, not {name!r}.")
    try:
        text = (
            resources.files(__package__)
            .joinpath("decks")
            .joinpath(f"{name}.json")
            .read_text("utf-8")
        )
    except (FileNotFoundError, OSError):
        raise ValueError(f"There is no Noclear deck named {name!r}.") from None
    data = json.loads(text)
    machines = {}
    for raw in data["machines"]:
        machine = _machine(raw)
        if machine.id in machines:
            raise ValueError(f"machine id {machine.id} appears twice")
        machines[machine.id] = machine
    uranium = tuple(Uranium(int(u["id"]), int(u["price"])) for u in data["uranium"])
    return Deck(name, tuple(data["design_notes"]), machines, uranium)


def deck_problems(rules) -> list[str]:
    """Why a rules object's deck cannot be played with it (empty when it can)."""
    try:
        deck = load_deck(rules.deck)
    except (ValueError, KeyError, TypeError) as exc:
        return [f"deck {rules.deck!r} cannot be read: {exc}"]
    out = []
    if len(deck.machines) < rules.market_size:
        out.append("the deck has fewer machines than market places")
    if not deck.uranium:
        out.append("the deck has no uranium card")
    dearest = max((u.price for u in deck.uranium), default=0)
    if rules.uranium_payment == "machines":  # rule 2.2 [H]: paid with machine points
        if dearest > sum(m.points(True) for m in deck.machines.values()):
            out.append("a uranium card costs more points than all the machines are worth")
    # paid in energy, however much is discarded (rule 2.2), a board never holds more than
    # energy_cap a colour
    elif dearest > rules.energy_cap * len(COLOURS):
        out.append("a uranium card costs more than a full energy board holds")
    return out
