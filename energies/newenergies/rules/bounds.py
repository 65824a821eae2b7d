"""What each RuleSet field may hold (one spec per field), and the checks between fields.

:class:`energies.RuleSet` validates every new rule set against these (``RuleSet.__post_init__``).
"""

from __future__ import annotations

from typing import Any

from ...kit.fields import Choice, Count, Flag, Records, Tally
from ..board import HARBOR_SLOTS
from .vocabulary import BROWN_EVENTS, CARD_KINDS, DEV_CARDS, GREEN_EVENTS, RESOURCES, ROWS

# -- validation -----------------------------------------------------------------------------------
# One spec per field (energies.rule_checks). The bounds allow every published and classroom
# variant we know of with room to spare, and they bound the work a rule set can cause: decks,
# bags and hands stay small, and the road limit keeps the Longest Road search cheap (see
# awards.longest_road).

MAX_ROADS = 24  # base Catan 15, New Energies 12
_WHOLE = Count(0, 100)  # counts of cards, tokens and pieces
_SMALL = Count(0, 20)  # per-turn allowances, costs, rates and points
_POINTS = Count(0, 20)
_WEIGHT = Count(-10, 10)  # footprint weights may be negative (rule 4.1)
_COST = Tally(CARD_KINDS, 0, 20, 40)
_GF = Count(0, 1000)

RULE_SPECS: dict[str, object] = {
    "players": Choice((3, 4)),
    "resource_cards": Count(0, 200),
    "science_cards": Count(0, 200),
    "energy_tokens": Count(0, 200),
    "energy_cap": Count(0, 50),
    "hazard_tokens": _WHOLE,
    "dev_deck": Tally(DEV_CARDS, 0, 100, 200),
    "brown_discs": Tally(BROWN_EVENTS, 0, 100, 300),
    "green_discs_per_player": Tally(GREEN_EVENTS, 0, 30, 30),
    "towns": Count(1, 30),
    "cities": Count(1, 30),
    "roads": Count(2, MAX_ROADS),
    "fossil_plants": Count(0, 60),
    "renewable_plants": Count(0, 60),
    "harbors": Records((Choice(("generic",) + RESOURCES), Count(1, 20), Count(0, 9)), 6),
    "layout": Choice(("beginner", "random")),
    "number_placement": Choice(("spiral", "shuffled")),
    "start": Choice(("quick", "draft")),
    "starting_science": _SMALL,
    "starting_hand_per_hex": Flag(),
    "starting_energy": _SMALL,
    "random_start_player": Flag(),
    "lf_town": _WEIGHT,
    "lf_city": _WEIGHT,
    "lf_fossil": _WEIGHT,
    "lf_renewable": _WEIGHT,
    "gf_track_per_player": Count(1, 100),
    "disc_bands_4p": Records((_GF, _GF, Count(0, 10)), 30, 1),
    "disc_bands_3p": Records((_GF, _GF, Count(0, 10)), 30, 1),
    "dev_cards_per_turn": _SMALL,
    "dev_card_before_roll": Flag(),
    "event_spaces": Tally(ROWS, 1, 100, 100 * len(ROWS), every=True),
    "shared_climate_row": Flag(),
    "pollution_hazard_order": Choice(("board", "none")),
    "production_increase_optional": Flag(),
    "shortage_rule": Choice(("base", "clockwise")),
    "shortage_energy": Choice(("hex", "card")),
    "discard_threshold": _WHOLE,
    "warehouse_threshold": _WHOLE,
    "road_cost": _COST,
    "town_cost": _COST,
    "city_cost": _COST,
    "fossil_cost": _COST,
    "renewable_cost": _COST,
    "dev_card_cost": _COST,
    "town_plant_slots": Count(0, 3),  # a corner touches at most 3 hexes
    "city_plant_slots": Count(0, 3),
    "plants_per_turn": _SMALL,
    "plants_on_desert": Flag(),
    "city_keeps_town_plant": Flag(),
    "plant_vp": _POINTS,
    "hazard_removal_energy": _SMALL,
    "demolish_energy": _SMALL,
    "demolish_per_turn": _SMALL,
    "warehouse_energy": _SMALL,
    "energy_card_rate": Count(1, 20),
    "energy_tradeable": Flag(),
    "bank_rate": Count(1, 20),
    "science_rate": Count(1, 20),
    "generic_harbor_rate": Count(1, 20),
    "special_harbor_rate": Count(1, 20),
    "trade_offers_per_turn": _SMALL,
    "table_asks_per_turn": _SMALL,
    "road_construction_roads": Count(0, MAX_ROADS),
    "high_yield_hexes": Count(0, 19),  # one decision per hex chosen
    "research_grant_cards": _SMALL,
    "longest_road_min": Count(1, 100),
    "longest_road_vp": _POINTS,
    "longest_road_tie_on_break": Choice(("holder_keeps", "set_aside")),
    "environmentalist_min": Count(1, 100),
    "environmentalist_vp": _POINTS,
    "town_vp": _POINTS,
    "city_vp": _POINTS,
    "vp_card_vp": _POINTS,
    "victory_points": Count(1, 100),
    "empty_bag_tiebreak_vp": Flag(),
    "empty_bag_even_survives": Flag(),  # rule 14.2a (issue 14)
    "science_as_any_resource": Flag(),  # rule 12.4 (issue 14)
    "turn_limit": Count(1, 2000),
    "turn_action_limit": Count(20, 2000),  # a draft set-up turn takes 16 actions
}


def consistency_problems(v: dict[str, Any]) -> list[tuple[str, str]]:
    """Problems between fields (each field alone is valid)."""
    out = []
    for name in ("disc_bands_4p", "disc_bands_3p"):
        if any(low > high for low, high, _ in v[name]):
            out.append((name, f"every band of {name} needs low <= high"))
    harbors = sum(count for _kind, _rate, count in v["harbors"])
    if harbors != len(HARBOR_SLOTS):  # rule 1: the island's coast has this many harbor slots
        out.append(("harbors", f"harbors must add up to {len(HARBOR_SLOTS)}, not {harbors}"))
    energy = min(v["starting_energy"], v["energy_cap"])
    if energy * v["players"] > v["energy_tokens"]:
        out.append(
            (
                "starting_energy",
                (
                    f"starting_energy {energy} for {v['players']} players needs more than the "
                    f"{v['energy_tokens']} energy tokens"
                ),
            )
        )
    return out
