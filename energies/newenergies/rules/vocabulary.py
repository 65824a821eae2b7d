"""The names of the game's things: card kinds, development cards, event discs and rows,
their names for people (:func:`pretty`) and bundles of cards (:data:`Goods`).

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

Goods = tuple[tuple[str, int], ...]  # sorted (kind, count) pairs, e.g. (("brick", 1), ("food", 2))

_PRETTY = {
    "climate_conference": "Climate Conference",
    "environmental_pollution": "Environmental Pollution",
    "air_pollution": "Air Pollution",
    "production_increase": "Production Increase",
    "rain_and_flooding": "Rain and Flooding",
    "sustainable_production": "Sustainable Production",
    "government_funding": "Government Funding",
    "cleanup": "Cleanup",
    "victory_point": "Victory Point",
    "road_construction": "Road Construction",
    "high_yield": "High Yield",
    "research_grant": "Research Grant",
}


def pretty(name: str) -> str:
    """Human name of an event, card or resource ("high_yield" -> "High Yield")."""
    return _PRETTY.get(name, name)


def goods(**counts: int) -> Goods:
    """Build a Goods tuple: ``goods(brick=1, food=2)``."""
    return tuple(sorted((k, n) for k, n in counts.items() if n))


def goods_text(items: Goods) -> str:
    try:
        return " + ".join(f"{n} {k}" for k, n in items) or "nothing"
    except (TypeError, ValueError):  # a malformed offer still prints (it is refused elsewhere)
        return repr(items)
