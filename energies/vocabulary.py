"""The names of the game's things: card kinds, development cards, event discs and rows.

Shared by the rules, the engine, the views and the tools; :mod:`energies.rules` re-exports
them, so ``energies.rules.CARD_KINDS`` keeps working.
"""

from __future__ import annotations

RESOURCES = ("lumber", "brick", "fiber", "food", "steel")
CARD_KINDS = RESOURCES + ("science",)  # what a hand holds, what 7s, steals and discards touch
DEV_CARDS = ("cleanup", "victory_point", "road_construction", "high_yield", "research_grant")
BROWN_EVENTS = (
    "climate_conference",
    "environmental_pollution",
    "air_pollution",
    "production_increase",
    "rain_and_flooding",
)
GREEN_EVENTS = ("climate_conference", "sustainable_production", "government_funding")
EVENTS = BROWN_EVENTS + ("sustainable_production", "government_funding")
# Event-board rows: one per symbol, plus a separate green Climate Conference row used only
# when the house default of rule 6.4 (one shared row) is switched off.
GREEN_CLIMATE_ROW = "climate_conference_green"
ROWS = EVENTS + (GREEN_CLIMATE_ROW,)

Cost = tuple[tuple[str, int], ...]
