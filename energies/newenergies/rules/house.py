"""The house defaults of CATAN: New Energies: which rule each [H] field answers, and why.

Documentation data for :meth:`energies.RuleSet.house_defaults` and ``describe``; how every
game lists its house defaults (:class:`HouseDefault`, :func:`rule_order`) is the kit's
(:mod:`energies.kit.rulebook`), offered here too.
"""

from __future__ import annotations

from ...kit.rulebook import HouseDefault, rule_order  # noqa: F401 - offered here too

# Why these are the house defaults; the keys are RuleSet field names.
HOUSE_NOTES: dict[str, tuple[str, str]] = {
    "harbors": ("1", "four 3:1 and one 2:1 per resource, on the base-game coastal slots"),
    "layout": ("2.2", "the base-game beginner board with New Energies terrain names"),
    "number_placement": ("2.2", "numbers on a random board: spiral (published) or shuffled"),
    "start": (
        "2.3",
        (
            "printed start spots unknown: the quick start puts every city on three different "
            "resources wherever the board allows, towns on the most pips (energies.quickstart)"
        ),
    ),
    "starting_hand_per_hex": ("3.4", "one card per hex around the city (base Catan reading)"),
    "starting_energy": ("3.4", "energy starts at 0"),
    "random_start_player": ("3.6", "the start player is drawn from the game seed"),
    "disc_bands_3p": ("4.3", "3-player bands scaled from the published 4-player track"),
    "dev_cards_per_turn": ("5.4", "base Catan: one development card per turn"),
    "dev_card_before_roll": ("5.4", "base Catan: a card may be played before rolling"),
    "event_spaces": ("6.3", "printed row lengths unknown: 3 spaces per event row"),
    "shared_climate_row": ("6.4", "brown and green Climate Conference discs share one row"),
    "pollution_hazard_order": (
        "7.2",
        "hazards short: 'board' fills hexes in hex-id order, 'none' places none",
    ),
    "production_increase_optional": ("7.4", "the free fossil plant may be declined"),
    "shortage_rule": ("8.6", "base Catan supply shortage; science paid clockwise"),
    "shortage_energy": (
        "8.3",
        (
            "'hex': in a shortage a plant still makes its energy when its building would have "
            "received the hex's resource (energy follows the hex, like a city's science); "
            "'card': only when the card was paid"
        ),
    ),
    "plants_on_desert": (
        "10.2",
        (
            "no source excludes the desert: a plant there never produces, a renewable still "
            "lowers LF for its 3 science; off forbids plants there"
        ),
    ),
    "city_keeps_town_plant": ("10.5", "an upgraded town keeps its plant"),
    "plant_vp": ("10.5", "plants score no victory points"),
    "empty_bag_tiebreak_vp": ("14.2", "ties in (renewable - fossil) are broken by VP"),
    "empty_bag_even_survives": (
        "14.2a",
        (
            "off: a winner needs more renewable than fossil plants; on (the Chinese reading): "
            "only more fossil than renewable eliminates, everybody loses only when all are out"
        ),
    ),
    "science_as_any_resource": (
        "12.4",
        (
            "off: 'any resource' (4:1, 3 science, harbors, Research Grant) is one of the five "
            "resources and only the 2-energy trade gives science; on: it may be science"
        ),
    ),
    "turn_limit": ("14.3", "engine safety: a game that cannot finish stops as 'unfinished'"),
    "turn_action_limit": (
        "14.3",
        (
            "engine safety: after this many actions in one turn only ending the turn (or rolling) "
            "is left"
        ),
    ),
    "trade_offers_per_turn": (
        "12.1",
        "engine safety: at most this many player-trade offers per turn",
    ),
    "table_asks_per_turn": (
        "12.1",
        (
            "the others propose right after the roll and whenever the active player asks the "
            "table, at most this many asks per turn: two let a player ask once after building "
            "and once more before ending the turn, while every seat's own proposals stay "
            "capped by trade_offers_per_turn (0: only the window after the roll)"
        ),
    ),
}


# House readings that are logical necessities rather than numbers: listed, not configurable.
HOUSE_READINGS: tuple[tuple[str, str], ...] = (
    (
        "7.1",
        (
            "Climate Conference: all takes come first, then all discards, each clockwise from "
            "the active player; an empty hand discards nothing; a card the supply lacks "
            "cannot be chosen"
        ),
    ),
    (
        "7.3",
        (
            "Air Pollution: 'no city' reads 'no city without a hazard', so a player whose "
            "cities all hold a hazard puts it on a town"
        ),
    ),
    ("8.6", "energy tokens short: energy is paid clockwise from the active player"),
)
