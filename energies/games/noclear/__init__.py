"""Noclear: an energy-economy card game about uranium, with a designed default deck.

    from energies.games import noclear
    game = noclear.new_game(players=2, seed=7)
    en.play(game, [noclear.make_bot("engineer"), noclear.make_bot("random")])
    game.cards.design_notes          # why the deck's numbers are what they are

Rules: ``shared/rules/noclear.md`` (numbers cited in the code). The source has
no card data: the 40 machines and 10 uranium cards are ours
(``decks/default.json``, with design notes), and every [H] number is a field of
:class:`NoclearRules` listed by ``house_defaults()``. Modules: ``rules``,
``cards`` (deck data), ``state``, ``actions``, ``engine`` (the rules), ``game``
(the contract), ``bots``, ``draw``, ``widget``.
"""

from __future__ import annotations

from . import draw
from .actions import (
    BuyMachine,
    BuyUranium,
    BuyUraniumWithMachines,
    DiscardMachine,
    EndTurn,
    MoveToken,
    StoreEnergy,
    Upgrade,
)
from .bots import BOTS, Engineer, RandomBot, make_bot
from .cards import load_deck
from .game import NoclearGame, load_game, new_game
from .rules import COLOURS, SYMBOLS, NoclearRules

RULES = NoclearRules

__all__ = [
    "BOTS",
    "COLOURS",
    "RULES",
    "SYMBOLS",
    "BuyMachine",
    "BuyUranium",
    "BuyUraniumWithMachines",
    "DiscardMachine",
    "EndTurn",
    "Engineer",
    "MoveToken",
    "NoclearGame",
    "NoclearRules",
    "RandomBot",
    "StoreEnergy",
    "Upgrade",
    "draw",
    "load_deck",
    "load_game",
    "make_bot",
    "new_game",
]
