"""My Shelfie Dice: a roll-and-write dice game of chance and choice, exact.

    from energies.games import shelfie
    game = shelfie.new_game(players=3, seed=7)
    game.legal_actions()                 # Keep / Reroll while rolling, Circle / CrossOut after
    en.play(game, [shelfie.make_bot("ev") for _ in range(3)])
    shelfie.insight.combo_probability(game.dice, 2, [(0, 2)])   # exact odds of pink item 3

Rules: ``shared/rules/shelfie-dice.md`` (numbers cited in the code); every number
is a field of :class:`ShelfieRules`, house defaults listed by ``house_defaults()``.
Modules: ``rules``, ``state``, ``actions``, ``dice`` (combos and chance nodes),
``engine`` (the rules), ``game`` (the contract), ``odds`` (exact re-roll planning),
``bots``, ``insight``, ``draw``, ``widget``.
"""

from __future__ import annotations

from . import insight
from .actions import Circle, CrossOut, Keep, Reroll
from .bots import BOTS, ExpectedValueBot, GreedyBot, RandomBot, make_bot
from .game import ShelfieGame, load_game, new_game
from .rules import COLOURS, ShelfieRules

RULES = ShelfieRules

__all__ = [
    "BOTS",
    "COLOURS",
    "RULES",
    "Circle",
    "CrossOut",
    "ExpectedValueBot",
    "GreedyBot",
    "Keep",
    "RandomBot",
    "Reroll",
    "ShelfieGame",
    "ShelfieRules",
    "insight",
    "load_game",
    "make_bot",
    "new_game",
]
