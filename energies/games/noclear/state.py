"""The state of a game of Noclear: energy boards, machines, markets, the two tokens, the log."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from ...kit.contract import Outcome
from .cards import Deck, load_deck
from .rules import COLOURS, NoclearRules


@dataclass
class Seat:
    """One player: an energy board by colour, machines owned (id -> upgraded?), uranium."""

    seat: int
    energy: list[int]
    machines: dict[int, bool] = field(default_factory=dict)
    uranium: list[int] = field(default_factory=list)
    first_machine: int | None = None  # the opening purchase (for the balance check)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "energy": dict(zip(COLOURS, self.energy)),
            "machines": [[m, up] for m, up in sorted(self.machines.items())],
            "uranium": list(self.uranium),
            "first_machine": self.first_machine,
        }


@dataclass
class NoclearState:
    """Where a playthrough is. ``market`` holds machine ids by slot (None: empty slot)."""

    rules: NoclearRules
    seed: int | None  # None in a view
    rng: random.Random | None
    deck: list[int]  # face-down machines, next on top (hidden: a view empties it)
    deck_size: int
    market: list[int | None]
    uranium: list[int]  # uranium cards left, in market order; the first few are visible
    players: list[Seat]
    top: int  # rule 1.5: market slot marked by the top token
    bottom: int  # rule 1.5: symbol (index) marked by the bottom token
    start: int = 0
    active: int = 0
    turn: int = 0
    phase: str = "buy"  # "buy", "discard" (pay uranium with machines), "effect" (move a
    # token), "upgrade", "over"
    upgrades_done: int = 0
    ending: bool = False  # rule 3.1 with end="round": the last round is being completed
    outcome: Outcome | None = None
    # rule 2.2 [H] uranium_payment="machines": the uranium card being paid for, the points
    # still owed, and the machines discarded (out of the game), in the order discarded
    paying_for: int | None = None
    owed: int = 0
    discarded: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)  # one record per turn begun
    viewer: int | None = None

    @property
    def cards(self) -> Deck:
        return load_deck(self.rules.deck)

    def visible_uranium(self) -> list[int]:
        return self.uranium[: self.rules.uranium_visible]

    def production(self, seat: int, ignore_token: bool = False) -> tuple[int, int]:
        """Energy ``seat``'s machines make in a turn (rule 2.1: the bottom token stops a symbol)."""
        cards, marked = self.cards.machines, self.rules.symbols[self.bottom]
        blue = orange = 0
        for machine_id, upgraded in self.players[seat].machines.items():
            machine = cards[machine_id]
            if machine.symbol == marked and not ignore_token:
                continue
            made = machine.production(upgraded)
            blue, orange = blue + made[0], orange + made[1]
        return blue, orange

    def uranium_count(self, seat: int) -> int:
        return len(self.players[seat].uranium)

    # -- copies and plain data ---------------------------------------------------------------

    def view(self, seat: int) -> NoclearState:
        """A copy for a bot: the deck's order, the random stream and the seed (which would
        give both away) are hidden; nothing in it is shared with the game."""
        return replace(
            self,
            seed=None,
            rng=None,
            deck=[],
            market=list(self.market),
            uranium=list(self.uranium),
            discarded=list(self.discarded),
            players=[
                replace(
                    p, energy=list(p.energy), machines=dict(p.machines), uranium=list(p.uranium)
                )
                for p in self.players
            ],
            log=list(self.log),
            history=[dict(record) for record in self.history],
            viewer=seat,
        )

    def to_dict(self) -> dict[str, Any]:
        data = self.public_dict()
        data["deck"] = list(self.deck)
        data["rng"] = None if self.rng is None else list(self.rng.getstate()[1][:8])
        return data

    def public_dict(self) -> dict[str, Any]:
        data = {
            "game": "noclear",
            "turn": self.turn,
            "start": self.start,
            "active": self.active,
            "phase": self.phase,
            "deck_size": self.deck_size,
            "market": list(self.market),
            "uranium_left": list(self.uranium),
            "uranium_visible": self.visible_uranium(),
            "top_token_slot": self.top,
            "bottom_token_symbol": self.rules.symbols[self.bottom],
            "ending": self.ending,
            "seats": [
                {**p.to_dict(), "production": list(self.production(p.seat))} for p in self.players
            ],
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }
        if self.rules.uranium_payment == "machines":
            # only under this reading: the positions (and so the digests) of the other
            # readings stay those of the files saved before it existed
            data["discarded"] = list(self.discarded)
            data["paying_for"] = self.paying_for
            data["owed"] = self.owed
        return data
