"""RuleSet: every number and house default of CATAN: New Energies, in one frozen dataclass.

The rules file (``shared/rules/new-energies.md``) tags each rule [R] (published)
or [H] (house default: the published value could not be confirmed). Every [H]
value is a field here and is listed by :meth:`RuleSet.house_defaults`, so
lessons and the teacher guide can show which rules are assumptions. Variants
are made with :func:`dataclasses.replace` or :meth:`RuleSet.replace`.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any

from ...kit import rulebook
from ...kit.fields import RuleError, check_fields, fallback, plain, show
from .bounds import MAX_ROADS, RULE_SPECS, consistency_problems
from .house import HOUSE_NOTES, HOUSE_READINGS, HouseDefault, rule_order
from .vocabulary import (
    BROWN_EVENTS,
    CARD_KINDS,
    DEV_CARDS,
    EVENTS,
    GREEN_CLIMATE_ROW,
    GREEN_EVENTS,
    RESOURCES,
    ROWS,
    Cost,
)

# the names other modules import from here (the vocabulary and the bounds live beside it)
__all__ = [
    "BROWN_EVENTS",
    "CARD_KINDS",
    "DEV_CARDS",
    "EVENTS",
    "GREEN_CLIMATE_ROW",
    "GREEN_EVENTS",
    "MAX_ROADS",
    "RESOURCES",
    "ROWS",
    "Cost",
    "HouseDefault",
    "RuleError",
    "RuleSet",
    "rule_order",
]


def _bands_4p() -> tuple[tuple[int, int, int], ...]:
    return ((0, 5, 2), (6, 18, 1), (19, 23, 2), (24, 28, 3))


def _bands_3p() -> tuple[tuple[int, int, int], ...]:
    return ((0, 4, 2), (5, 13, 1), (14, 17, 2), (18, 21, 3))


#: Rule 4.3's bands with pollution feeding back sooner: the two top bands (2 and 3 discs a
#: turn) start 3 GF lower than published (2 lower for 3 players, the track scaled), per
#: player count. The classroom preset uses them; lesson 05's map calls them "early".
EARLY_DISC_BANDS: dict[int, tuple[tuple[int, int, int], ...]] = {
    4: ((0, 5, 2), (6, 15, 1), (16, 20, 2), (21, 28, 3)),
    3: ((0, 4, 2), (5, 11, 1), (12, 15, 2), (16, 21, 3)),
}


@dataclass(frozen=True)
class RuleSet:
    """Every number of the rules; ``RuleSet.standard(players)`` is the published game.

    Costs are tuples of ``(kind, count)`` pairs so the dataclass stays hashable
    and JSON-friendly. Fields marked [H] in the rules file are listed by
    :meth:`house_defaults`.
    """

    players: int = 4
    # §1 components
    resource_cards: int = 19
    science_cards: int = 20
    energy_tokens: int = 20
    energy_cap: int = 5  # rule 8.4
    hazard_tokens: int = 10
    dev_deck: Cost = (
        ("cleanup", 14),
        ("victory_point", 5),
        ("road_construction", 2),
        ("high_yield", 2),
        ("research_grant", 2),
    )
    brown_discs: Cost = (
        ("climate_conference", 9),
        ("environmental_pollution", 8),
        ("air_pollution", 9),
        ("production_increase", 9),
        ("rain_and_flooding", 8),
    )
    green_discs_per_player: Cost = (
        ("climate_conference", 1),
        ("sustainable_production", 4),
        ("government_funding", 4),
    )
    towns: int = 5
    cities: int = 4
    roads: int = 12
    fossil_plants: int = 6
    renewable_plants: int = 9
    harbors: tuple[tuple[str, int, int], ...] = (
        ("generic", 3, 4),
        ("lumber", 2, 1),
        ("brick", 2, 1),
        ("fiber", 2, 1),
        ("food", 2, 1),
        ("steel", 2, 1),
    )
    # §2 board
    layout: str = "beginner"  # "beginner" | "random"
    number_placement: str = "spiral"  # "spiral" | "shuffled" (random layout only)
    start: str = "quick"  # "quick" | "draft" (rule 2.3 / 3.3)
    # §3 set-up
    starting_science: int = 1  # rule 3.4
    starting_hand_per_hex: bool = True
    starting_energy: int = 0
    random_start_player: bool = True
    # §4 footprint weights (rule 4.1) and track (rule 4.2)
    lf_town: int = 1
    lf_city: int = 2
    lf_fossil: int = 1
    lf_renewable: int = -1
    gf_track_per_player: int = 7
    disc_bands_4p: tuple[tuple[int, int, int], ...] = field(default_factory=_bands_4p)
    disc_bands_3p: tuple[tuple[int, int, int], ...] = field(default_factory=_bands_3p)
    # §5 turn
    dev_cards_per_turn: int = 1
    dev_card_before_roll: bool = True
    # §6 event phase
    event_spaces: tuple[tuple[str, int], ...] = tuple((row, 3) for row in ROWS)
    shared_climate_row: bool = True
    # §7 events
    pollution_hazard_order: str = "board"  # "board" | "none" when hazards run short
    production_increase_optional: bool = True
    # §8 production
    shortage_rule: str = "base"  # "base" (rule 8.6) | "clockwise" (pay in seat order)
    # rule 8.3 [H]: in a shortage a plant's energy follows its hex producing ("hex"), or only
    # the resource card its building was paid ("card", the engine before 0.4)
    shortage_energy: str = "hex"
    # §9 seven
    discard_threshold: int = 7
    warehouse_threshold: int = 10
    # §10 building
    road_cost: Cost = (("brick", 1), ("lumber", 1))
    town_cost: Cost = (("brick", 1), ("lumber", 1), ("fiber", 1), ("food", 1))
    city_cost: Cost = (("steel", 3), ("food", 2))
    fossil_cost: Cost = (("science", 1),)
    renewable_cost: Cost = (("science", 3),)
    dev_card_cost: Cost = (("food", 1), ("fiber", 1), ("steel", 1))
    town_plant_slots: int = 1
    city_plant_slots: int = 3
    plants_per_turn: int = 1  # rule 10.3
    # rule 10.2 [H]: no source excludes the desert; False forbids plants there (before 0.4)
    plants_on_desert: bool = True
    city_keeps_town_plant: bool = True
    plant_vp: int = 0
    # §11 energy actions
    hazard_removal_energy: int = 1
    demolish_energy: int = 1
    demolish_per_turn: int = 1  # rule 11.2 [R]: printed rulebook as a third-party engine quotes it
    warehouse_energy: int = 2
    energy_card_rate: int = 2
    energy_tradeable: bool = True
    # §12 trading
    bank_rate: int = 4
    science_rate: int = 3
    generic_harbor_rate: int = 3
    special_harbor_rate: int = 2
    trade_offers_per_turn: int = 3
    # rule 12.1 [H]: how often per turn the active player may ask the others for proposals
    # again (AskForProposals); 0 leaves only the proposals right after the roll
    table_asks_per_turn: int = 2
    # rule 12.4 [H]: may "any resource" (4:1 and 3-science supply trades, harbors, Research
    # Grant) be a science card? Off: only the 2-energy trade gives science.
    science_as_any_resource: bool = False
    # §13 cards and awards
    road_construction_roads: int = 2
    high_yield_hexes: int = 3
    research_grant_cards: int = 2
    longest_road_min: int = 5
    longest_road_vp: int = 2
    # rule 13.6 [R, base Catan]: a holder whose broken road still ties keeps the card;
    # "set_aside" (the engine before 0.4) is kept so files played with it replay
    longest_road_tie_on_break: str = "holder_keeps"
    environmentalist_min: int = 3
    environmentalist_vp: int = 2
    # §13.8 / §14 scoring and ending
    town_vp: int = 1
    city_vp: int = 2
    vp_card_vp: int = 1
    victory_points: int = 10
    empty_bag_tiebreak_vp: bool = True
    # rule 14.2a [H]: the Chinese reading of the empty bag: only more fossil than renewable
    # plants eliminates, so an even balance (1 and 1, or none) may win.
    empty_bag_even_survives: bool = False
    turn_limit: int = 400
    turn_action_limit: int = 200

    def __post_init__(self) -> None:
        # Every field is checked (and JSON lists made tuples) before anything is built from
        # it: a rule set read from a file can name no unknown kind and no huge count.
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        canonical, problems = check_fields(values, _field_specs())
        if not problems:
            problems = consistency_problems(canonical)
        if problems:
            raise RuleError(problems)
        for name, value in canonical.items():
            if value is not values[name]:
                object.__setattr__(self, name, value)

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def standard(cls, players: int = 4, **changes: Any) -> RuleSet:
        """The published game for 3 or 4 players, optionally with changed fields."""
        if players not in (3, 4) or isinstance(players, bool):
            sentence = f"New Energies is played by 3 or 4 players, not {show(players)}"
            raise RuleError([("players", sentence)])
        return cls().replace(players=players, **changes)  # replace names unknown fields

    @classmethod
    def classroom(cls, players: int = 4, **changes: Any) -> RuleSet:
        """A short game for one lesson with the dilemma of fossil power in it.

        A variant, not the published game, with three changes: the race is to 5 VP instead
        of 10 (rule 14.1); every event row has 2 spaces instead of 3 (rule 6.3), so events
        fire after two discs of a kind; and pollution feeds back sooner: the disc bands'
        two top bands start 3 GF lower (rule 4.3, :data:`EARLY_DISC_BANDS`). The bag is the
        published one (rule 1); the footprint, costs and the empty-bag ending (rule 14.2) are
        unchanged.

        Why these three: a game that ends at the empty bag leaves a fossil player no way to
        win (rule 14.2 eliminates it), so a short game must be a short *race*, and raced to
        5 VP a fast fossil player among green players wins more than its share. But strong
        players reach 5 VP before the bag runs out at almost every all-fossil table, so
        polluting together cost nothing. The early bands make a polluted table draw 2-3
        discs a turn sooner, so the bag often runs dry first at an all-fossil table (and then
        everybody loses) while a lone polluter barely moves the footprint. A race to 6 VP did
        the same but took a group of students about 40 turns. The measured game (the verdict,
        the lone fossil player's win rate, the all-fossil everyone-loses rate and the turns,
        with their intervals) is in ``benchmarks/results/dilemma.md``.
        Earlier releases made the bag smaller instead (4 brown discs of each kind, rows of 2
        spaces, 10 VP) or raced to 5 VP with the published bands; their saved games record
        their rules and replay as played.
        """
        # the preset's changes are defaults: a caller may change them too
        preset = {
            "victory_points": 5,
            "event_spaces": tuple((row, 2) for row in ROWS),
            "disc_bands_4p": EARLY_DISC_BANDS[4],
            "disc_bands_3p": EARLY_DISC_BANDS[3],
        }
        return cls.standard(players, **{**preset, **changes})

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed (validated like a new rule set)."""
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise RuleError([(name, f"there is no rule field {show(name)}") for name in unknown])
        return dataclasses.replace(self, **changes)

    # -- derived numbers ----------------------------------------------------------------------

    @property
    def disc_bands(self) -> tuple[tuple[int, int, int], ...]:
        """(low GF, high GF, discs drawn) bands for this player count (rule 4.3)."""
        return self.disc_bands_4p if self.players == 4 else self.disc_bands_3p

    @property
    def gf_max(self) -> int:
        """Top of the global footprint track (rule 4.2)."""
        return self.gf_track_per_player * self.players

    def discs_to_draw(self, gf: int) -> int:
        """How many event discs the event phase draws at this GF (rule 4.3)."""
        for low, high, discs in self.disc_bands:
            if low <= gf <= high:
                return discs
        return self.disc_bands[-1][2] if gf > self.disc_bands[-1][1] else self.disc_bands[0][2]

    def row_of(self, color: str, symbol: str) -> str:
        """The event-board row a disc goes to (rules 6.2, 6.4)."""
        if color == "green" and symbol == "climate_conference" and not self.shared_climate_row:
            return GREEN_CLIMATE_ROW
        return symbol

    def spaces(self, row: str) -> int:
        """Spaces on an event row (rule 6.3)."""
        return self._spaces[row]

    @functools.cached_property
    def _spaces(self) -> dict[str, int]:
        return dict(self.event_spaces)  # looked up on every disc drawn

    def cost(self, item: str) -> dict[str, int]:
        """Cost of a buildable item as a dict ("road", "town", "city", "fossil", ...).

        The returned dict is shared: read it, do not change it.
        """
        return self._costs[item]

    @functools.cached_property
    def _costs(self) -> dict[str, dict[str, int]]:
        # computed once per rule set: costs are looked up on every legal_actions call
        items = ("road", "town", "city", "fossil", "renewable", "dev_card")
        return {item: dict(getattr(self, f"{item}_cost")) for item in items}

    def supply_rates(self, harbors: frozenset[str | None]) -> dict[str, int]:
        """Cards of each kind (resources, science, energy) given for one card from the supply
        by a player whose buildings reach harbors of these resources (None: a 3:1 harbor).

        The returned dict is shared: read it, do not change it.
        """
        rates = self._supply_rates.get(harbors)
        if rates is None:
            rates = dict.fromkeys(RESOURCES, self.bank_rate)
            for resource in harbors:
                if resource is None:  # rule 12.3: a 3:1 harbor
                    for kind in RESOURCES:
                        rates[kind] = min(rates[kind], self.generic_harbor_rate)
                else:  # rule 12.3: a 2:1 harbor for its resource
                    rates[resource] = min(rates[resource], self.special_harbor_rate)
            rates["science"] = self.science_rate  # rule 12.2
            rates["energy"] = self.energy_card_rate  # rule 11
            self._supply_rates[harbors] = rates
        return rates

    @functools.cached_property
    def _supply_rates(self) -> dict[frozenset[str | None], dict[str, int]]:
        return {}  # at most 2**6 harbor sets; looked up on every listing of a turn

    @property
    def harbor_kinds(self) -> tuple[str | None, ...]:
        """The 9 harbors' types (None: a 3:1 harbor) as ``harbors`` counts them (rule 1 [H]);
        the board lays them on its coastal slots (``layouts.build_board``)."""
        return tuple(
            None if k == "generic" else k for k, _rate, n in self.harbors for _ in range(n)
        )

    def piece_limit(self, piece: str) -> int:
        """How many of a piece each player owns (§1)."""
        return {
            "town": self.towns,
            "city": self.cities,
            "road": self.roads,
            "fossil": self.fossil_plants,
            "renewable": self.renewable_plants,
        }[piece]

    # -- documentation ------------------------------------------------------------------------

    def house_defaults(self) -> tuple[HouseDefault, ...]:
        """The house defaults ([H] rules) with this rule set's values."""
        return rulebook.house_defaults(self, HOUSE_NOTES, HOUSE_READINGS)

    def describe(self) -> str:
        """Every field with its value; house defaults marked with [H] and their rule, then the
        house readings that are not fields."""
        return rulebook.describe(self, HOUSE_NOTES, HOUSE_READINGS)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict (tuples become lists)."""
        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        """Rebuild from :meth:`to_dict` output; a :class:`RuleError` names any bad field."""
        if not isinstance(data, dict):
            raise RuleError([("rules", "the rules must be a JSON object")])
        known = {f.name for f in dataclasses.fields(cls)}
        if len(data) > len(known):  # said at once, however many names a file invents
            sentence = f"the rules hold {len(data)} fields, more than a rule set has"
            raise RuleError([("rules", sentence)])
        unknown = sorted(show(name) for name in set(data) - known)
        if unknown:
            raise RuleError([("rules", f"there is no rule field {', '.join(unknown[:5])}")])
        return cls(**data)


@functools.cache
def _field_specs() -> dict[str, object]:
    """The spec of every field: its entry in the table, else one made from its default."""
    specs = {}
    for f in dataclasses.fields(RuleSet):
        default = f.default_factory() if f.default is dataclasses.MISSING else f.default
        specs[f.name] = RULE_SPECS.get(f.name) or fallback(default)
    return specs
