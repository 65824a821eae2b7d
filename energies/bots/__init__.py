"""Players: the one-method Player protocol and the bot personas.

A bot is any object with ``decide(game_view, legal_actions, rng) -> action``:
it gets what its seat may know (``game.view(seat)``, a read-only
:class:`energies.newenergies.view.GameView`: own hand, public board, only the number of the
others' cards), the list of legal actions of the seat it plays, and a seeded
``random.Random`` to break ties with.

    class Cautious:
        def decide(self, game, legal, rng):
            builds = [a for a in legal if a.kind == "build_plant" and a.plant == "renewable"]
            return builds[0] if builds else rng.choice(legal)
"""

from __future__ import annotations

# Release 0.2 wrote the bots in this file, so the helpers it imported were reachable as
# energies.bots.<name>; they stay reachable (the "as" marks a deliberate re-export).
import random as random
from collections.abc import Sequence as Sequence
from typing import Protocol as Protocol

from ..kit.fields import show as show
from ..newenergies.actions import Action as Action
from ..newenergies.actions import ProposeTrade as ProposeTrade

# The modules: base (Player, RandomBot), strategy and scoring (the StrategyBot the personas
# share), ledger (a bot's own moves of the turn, which it never undoes), personas, factory
# (make_bot), plan and search (the search player, loaded by make_bot("search")). This face
# only re-exports them; no module of the package imports it.
from .base import Player, RandomBot
from .factory import bot_from_class_or_object, make_bot
from .personas import PERSONAS, Balanced, FossilRush, FreeRider, GreenInvestor
from .strategy import StrategyBot

#: the registry's name for a game's bots table (energies.kit.registry.GameSpec.bots)
BOTS = PERSONAS

__all__ = [
    "PERSONAS",
    "Balanced",
    "FossilRush",
    "FreeRider",
    "GreenInvestor",
    "Player",
    "RandomBot",
    "StrategyBot",
    "bot_from_class_or_object",
    "make_bot",
]
