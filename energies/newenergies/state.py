"""Game state: who owns what, what lies in the supply and the bag, and derived queries.

The state holds facts only; everything derivable (LF, GF, VP, piece counts,
hazard supply) is computed from the pieces on demand so it can never drift
out of step (rules 4.1, 4.2, 13.8). Rules run in :mod:`energies.engine`. The one
field marked "Speed only" (``cache``) keeps what the engine found until the pieces it
depends on change; :mod:`energies.invariants` compares it with a fresh computation.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from typing import Any

from ..kit.contract import Outcome
from ..kit.saves import state_digest
from .board import Board
from .cache import EngineCache
from .rules import CARD_KINDS, RESOURCES, RuleSet

Disc = tuple[
    str, str
]  # (color, symbol): ("brown", "air_pollution"), ("green", "government_funding")


@dataclass
class Task:
    """A step of the turn the engine still has to run or a decision it is waiting for.

    ``kind`` names the step; ``seat`` is who decides (decisions) or whom it is
    about; ``info`` holds small JSON-able details (counts, sources, options).
    """

    kind: str
    seat: int = -1
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "info": self.info}


@dataclass
class PlayerState:
    seat: int
    hand: dict[str, int]  # the five resources and science (rule 9.1 counts these)
    energy: int = 0
    towns: set[int] = field(default_factory=set)
    cities: set[int] = field(default_factory=set)
    roads: set[int] = field(default_factory=set)
    plants: dict[tuple[int, int], str] = field(default_factory=dict)  # (corner, hex) -> kind
    dev_cards: list[str] = field(default_factory=list)  # held, including hidden VP cards
    dev_new: list[str] = field(default_factory=list)  # bought or received this turn (rule 5.4)
    dev_played: dict[str, int] = field(default_factory=dict)
    warehouse: bool = False
    green_slots: list[str] = field(default_factory=list)  # symbols under renewable slots (3.1)

    @property
    def cards(self) -> int:
        """Resource and science cards in hand (energy and development cards excluded)."""
        return sum(self.hand.values())

    def count_plants(self, kind: str) -> int:
        return list(self.plants.values()).count(kind)

    def buildings(self) -> set[int]:
        return self.towns | self.cities


@dataclass
class Stats:
    """What a seat suffered, for 'who pollutes, who pays' (counted as it happens).

    Pollution (the brown events' hazards and what they cost, apart from ordinary Catan
    losses: energies.insight.burden) has its own counters beside the totals.
    """

    hazards_suffered: int = 0  # hazards placed on this seat's buildings (rules 7.3, 7.5)
    production_lost: int = 0  # cards a hazard or the Inspector kept from this seat
    cards_discarded: int = 0  # on a 7 (rule 9.1) and to Climate Conference (7.1)
    cards_stolen: int = 0  # by the active player on a 7 (rule 9.2) or with Cleanup (13.5)
    blocked_turns: int = 0  # own turns in which every building carried a hazard
    hex_hazards_suffered: int = 0  # Environmental Pollution hazards on its buildings' hexes (7.2)
    production_lost_hazard: int = 0  # of production_lost: the cards a hazard kept (rule 8.1)
    cards_discarded_seven: int = 0  # of cards_discarded: on a 7 (rule 9.1)
    cards_discarded_brown: int = 0  # of cards_discarded: to a brown disc's Climate Conference


@dataclass
class GameState:
    rules: RuleSet
    board: Board
    seed: int
    players: list[PlayerState]
    supply: dict[str, int]  # resources and science
    energy_supply: int
    dev_deck: list[str]  # the top card is the last element
    inspector: int
    bag: list[Disc]
    event_board: dict[str, list[Disc]]
    removed_discs: list[Disc] = field(default_factory=list)
    hex_hazards: set[int] = field(default_factory=set)
    building_hazards: set[int] = field(default_factory=set)  # corners
    active: int = 0
    start_player: int = 0
    turn: int = 0
    phase: str = "setup"  # setup | event | roll | action | over
    queue: list[Task] = field(default_factory=list)
    dice: tuple[int, int] | None = None
    plants_built: int = 0  # this turn (rule 10.3)
    demolished: int = 0  # this turn (rule 11)
    dev_played_turn: int = 0  # this turn (rule 5.4)
    offers_made: int = 0  # this turn, by the active player
    proposals_made: dict[int, int] = field(default_factory=dict)  # this turn, per proposer (12.1)
    table_asks: int = 0  # this turn: the active player asked the others for proposals (12.1)
    # actions applied in this turn (rules.turn_action_limit); follows from the log, so the
    # digest leaves it out and save files of earlier releases keep their digests
    turn_actions: int = 0
    longest_road_holder: int | None = None
    environmentalist_holder: int | None = None
    outcome: Any = None
    forced_dice: list[tuple[int, int]] = field(default_factory=list)  # sandbox
    forced_discs: list[Disc] = field(default_factory=list)  # sandbox
    stats: list[Stats] = field(default_factory=list)
    log: list[Any] = field(default_factory=list)  # sentences, and actions (str() on reading)
    events: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    rng: dict[str, random.Random] = field(default_factory=dict)
    # Whether engine.record_turn keeps the per-turn history; simulate() switches it off for
    # games whose history nobody asks for (it changes nothing else in the game).
    keep_history: bool = field(default=True, compare=False, repr=False)
    # Speed only, never saved, compared or shown: what the engine found for this state, kept
    # until a change invalidates it (energies.newenergies.cache lists every speed cache).
    cache: EngineCache = field(default_factory=EngineCache, compare=False, repr=False)

    # -- derived quantities (never stored) -----------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.players)

    def local_footprint(self, seat: int) -> int:
        """LF = towns + 2 cities + fossil - renewable, from the pieces (rule 4.1)."""
        return footprint(self.rules, self.players[seat])

    @property
    def global_footprint(self) -> int:
        """GF = sum of LF, clamped to the track (rule 4.2)."""
        rules = self.rules
        return self.clamped_gf(sum([footprint(rules, p) for p in self.players]))

    def clamped_gf(self, total_lf: int) -> int:
        """Where a sum of local footprints sits on the GF track (rule 4.2: 0 to gf_max)."""
        return max(0, min(self.rules.gf_max, total_lf))

    def victory_points(self, seat: int) -> int:
        """VP from pieces, cards and awards (rules 13.8, 10.5)."""
        p = self.players[seat]
        return score(self, seat, p, p.dev_cards.count("victory_point") if p.dev_cards else 0)

    @property
    def hazard_supply(self) -> int:
        return self.rules.hazard_tokens - len(self.hex_hazards) - len(self.building_hazards)

    def corner_owners(self) -> dict[int, int]:
        """Seat owning each corner that holds a town or city.

        The dict is kept (``cache.owners``) until a town or city is placed: read it, do not
        change it.
        """
        cache = self.cache
        owners = cache.owners
        if owners is None:
            owners = cache.owners = {}
            for p in self.players:
                owners.update(dict.fromkeys(p.towns, p.seat))
                owners.update(dict.fromkeys(p.cities, p.seat))
        return owners

    def owner_of(self, corner: int) -> int | None:
        for p in self.players:
            if corner in p.towns or corner in p.cities:
                return p.seat
        return None

    def road_owner(self, path: int) -> int | None:
        for p in self.players:
            if path in p.roads:
                return p.seat
        return None

    def pieces_left(self, seat: int, piece: str) -> int:
        p = self.players[seat]
        if piece in ("fossil", "renewable"):
            on_board = p.count_plants(piece)
        else:
            on_board = len({"town": p.towns, "city": p.cities, "road": p.roads}[piece])
        return self.rules.piece_limit(piece) - on_board

    def clockwise_from_active(self) -> list[int]:
        return [*_clockwise(self.active, len(self.players))]

    @property
    def pending(self) -> Task | None:
        """The decision the engine waits for, if any."""
        return self.queue[0] if self.queue else None

    # -- chance and endings -------------------------------------------------------------------

    def roll_dice(self) -> tuple[int, int]:
        """Two dice from the game's dice stream, or the next roll a teacher fixed."""
        if self.forced_dice:
            return self.forced_dice.pop(0)
        rng = self.rng["dice"]
        return rng.randint(1, 6), rng.randint(1, 6)

    def finish(self, kind: str, winners: tuple[int, ...], reason: str, eliminated=()) -> None:
        self.outcome = Outcome(kind, tuple(winners), self.turn, reason, tuple(eliminated))
        self.phase = "over"
        self.queue.clear()
        self.log.append(f"Game over: {reason}")

    # -- serialisation -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every fact of the state as plain JSON (used for the digest and tests)."""
        return {
            "players": [
                {
                    "hand": dict(p.hand),
                    "energy": p.energy,
                    "towns": sorted(p.towns),
                    "cities": sorted(p.cities),
                    "roads": sorted(p.roads),
                    "plants": sorted([c, h, k] for (c, h), k in p.plants.items()),
                    "dev_cards": sorted(p.dev_cards),
                    "dev_new": sorted(p.dev_new),
                    "dev_played": dict(sorted(p.dev_played.items())),
                    "warehouse": p.warehouse,
                    "green_slots": list(p.green_slots),
                }
                for p in self.players
            ],
            "supply": dict(self.supply),
            "energy_supply": self.energy_supply,
            "dev_deck": list(self.dev_deck),
            "inspector": self.inspector,
            "bag": sorted(list(d) for d in self.bag),
            "event_board": {k: [list(d) for d in v] for k, v in self.event_board.items()},
            "removed_discs": sorted(list(d) for d in self.removed_discs),
            "hex_hazards": sorted(self.hex_hazards),
            "building_hazards": sorted(self.building_hazards),
            "active": self.active,
            "turn": self.turn,
            "phase": self.phase,
            "queue": [t.to_dict() for t in self.queue],
            "dice": list(self.dice) if self.dice else None,
            "turn_flags": [
                self.plants_built,
                self.demolished,
                self.dev_played_turn,
                self.offers_made,
            ],
            "proposals_made": sorted([s, n] for s, n in self.proposals_made.items()),
            # (only once the active player asked: the positions of save files written before
            # rule 12.1's asks keep their digests)
            **({"table_asks": self.table_asks} if self.table_asks else {}),
            "longest_road_holder": self.longest_road_holder,
            "environmentalist_holder": self.environmentalist_holder,
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "forced_dice": [list(d) for d in self.forced_dice],
            "forced_discs": [list(d) for d in self.forced_discs],
        }

    def digest(self) -> str:
        """A short fingerprint of the whole state (save files check it on load)."""
        return state_digest(self.to_dict())


def check_seat(state: GameState, seat: Any) -> None:
    """Raise a ValueError unless ``seat`` is a seat number of this game (a plain int: -1
    would quietly mean the last seat, True seat 1)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise ValueError(f"seat must be a seat number from 0 to {state.n - 1}, not {seat!r}.")


@functools.cache
def _clockwise(active: int, players: int) -> tuple[int, ...]:
    """Every seat, clockwise from ``active`` (made once per seat and table size)."""
    return (*range(active, players), *range(active))


def new_hand() -> dict[str, int]:
    return {k: 0 for k in CARD_KINDS}


def full_supply(rules: RuleSet) -> dict[str, int]:
    supply = {r: rules.resource_cards for r in RESOURCES}
    supply["science"] = rules.science_cards
    return supply


def footprint(r: RuleSet, p: PlayerState) -> int:
    """A player's LF = towns + 2 cities + fossil - renewable, from the pieces (rule 4.1)."""
    plants = p.plants
    fossil = list(plants.values()).count("fossil") if plants else 0  # = count_plants
    return (
        r.lf_town * len(p.towns)
        + r.lf_city * len(p.cities)
        + r.lf_fossil * fossil
        + r.lf_renewable * (len(plants) - fossil)
    )


def score(position, seat: int, player, vp_cards: int) -> int:
    """VP of ``seat`` (rules 13.8, 10.5): pieces, ``vp_cards`` Victory Point cards and the two
    awards. ``position`` is a state or a view (both hold the rules and the award holders)."""
    r = position.rules
    vp = r.town_vp * len(player.towns) + r.city_vp * len(player.cities)
    vp += r.plant_vp * len(player.plants) + r.vp_card_vp * vp_cards
    if position.longest_road_holder == seat:
        vp += r.longest_road_vp
    if position.environmentalist_holder == seat:
        vp += r.environmentalist_vp
    return vp
