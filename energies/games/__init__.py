"""The games of the kit: CATAN: New Energies, My Shelfie Dice (:mod:`.shelfie`) and Noclear
(:mod:`.noclear`), each on the one contract of :mod:`energies.kit`.

    from energies import games
    game = games.new_game("shelfie", players=3, seed=7)
    same = games.load_game(game.to_json())

The registry and the contract live in :mod:`energies.kit.registry`; this package offers them
under the names the lessons use.
"""

from ..kit.registry import (
    ALIASES,
    Bot,
    GameProtocol,
    GameSpec,
    get,
    load_game,
    names,
    new_game,
    register,
    spec_of,
)

__all__ = [
    "ALIASES",
    "Bot",
    "GameProtocol",
    "GameSpec",
    "get",
    "load_game",
    "names",
    "new_game",
    "register",
    "spec_of",
]
