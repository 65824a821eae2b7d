"""The names of the game's things: card kinds, development cards, event discs and rows,
their names for people (:func:`pretty`) and bundles of cards (:data:`Goods`).

Shared by the rules, the engine, the views and the tools; :mod:`energies.rules` re-exports
them, so ``energies.rules.CARD_KINDS`` keeps working.
"""

from __future__ import annotations

import functools

from ...kit.i18n import N_, Message, N_plural, capital_at_start, joined, msg, nmsg
from ..board import RESOURCE_WORDS, TERRAIN_WORDS

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
    "climate_conference": N_("Climate Conference"),
    "environmental_pollution": N_("Environmental Pollution"),
    "air_pollution": N_("Air Pollution"),
    "production_increase": N_("Production Increase"),
    "rain_and_flooding": N_("Rain and Flooding"),
    "sustainable_production": N_("Sustainable Production"),
    "government_funding": N_("Government Funding"),
    "cleanup": N_("Cleanup"),
    "victory_point": N_("Victory Point"),
    "road_construction": N_("Road Construction"),
    "high_yield": N_("High Yield"),
    "research_grant": N_("Research Grant"),
}

# The game's words as they stand inside a sentence ("You have no {card} to discard.").
_WORDS = {
    **RESOURCE_WORDS,
    **TERRAIN_WORDS,
    "science": N_("science"),
    "energy": N_("energy"),
    "fossil": N_("fossil"),
    "renewable": N_("renewable"),
    "town": N_("town"),
    "city": N_("city"),
    "road": N_("road"),
}

# A number of cards of one kind, with each language's plural forms ("{n} lumber").
_AMOUNTS = {
    "lumber": N_plural("{n} lumber", "{n} lumber"),
    "brick": N_plural("{n} brick", "{n} brick"),
    "fiber": N_plural("{n} fiber", "{n} fiber"),
    "food": N_plural("{n} food", "{n} food"),
    "steel": N_plural("{n} steel", "{n} steel"),
    "science": N_plural("{n} science", "{n} science"),
    "energy": N_plural("{n} energy", "{n} energy"),
}


def pretty(name: str) -> str:
    """Human name of an event, card or resource ("high_yield" -> "High Yield"); a
    :class:`~energies.kit.i18n.Message`, so a reader may say it in another language."""
    known = _PRETTY.get(name) if isinstance(name, str) else None
    return name if known is None else _said(known)


def word(name: str) -> str:
    """A game word inside a sentence: a resource, plant, piece or terrain ("lumber"), said
    in the reader's language; an unknown word as it is."""
    known = (_WORDS.get(name) or _PRETTY.get(name)) if isinstance(name, str) else None
    return name if known is None else _said(known)


@functools.cache  # a few dozen words, said again and again in the log: each made once
def _said(text: str) -> Message:
    return msg(text)


def amount(kind: str, n: int) -> Message:
    """``n`` cards (or energy) of ``kind``, "2 brick", with the plural forms of the reader's
    language."""
    singular, plural = _AMOUNTS.get(kind) or ("{n} {kind}", "{n} {kind}")
    return nmsg(singular, plural, n, kind=kind)


#: The templates apps look for when they name seats and places their own way
#: (``energies.kit.i18n.Replace``): "seat 2", "corner 17 (...)", "path 40 (...)".
SEAT = capital_at_start(N_("seat {seat}"))
SEATS = capital_at_start(N_("seat {seats}"))  # several: "seat 3, 1"


def seat_name(seat: object) -> Message:
    """A seat in a sentence, "seat 2" ("Seat 2" where the sentence starts)."""
    return _seat_name(seat) if type(seat) is int else msg(SEAT, seat=seat)


@functools.cache  # every roll and turn names a seat: one message per seat, made once
def _seat_name(seat: int) -> Message:
    return msg(SEAT, seat=seat)


def goods(**counts: int) -> Goods:
    """Build a Goods tuple: ``goods(brick=1, food=2)``."""
    return tuple(sorted((k, n) for k, n in counts.items() if n))


def goods_text(items: Goods) -> str:
    """A bundle of cards as text, "1 brick + 2 food" (a message said in any language)."""
    try:
        return joined([amount(k, n) for k, n in items], " + ") if items else msg(N_("nothing"))
    except (TypeError, ValueError):  # a malformed offer still prints (it is refused elsewhere)
        return repr(items)
