"""The Player protocol every bot follows, and RandomBot, the baseline every bot should beat."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..kit import bots as kit_bots
from ..newenergies.actions import Action, ProposeTrade


class Player(Protocol):
    """Anything that can choose one of the legal actions."""

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot(kit_bots.RandomBot):
    """Picks uniformly among the legal actions: the baseline every strategy should beat.

    One exception keeps random games from filling up with trade talk: asked whether it wants
    to propose a trade to the active player (rule 12.1), it proposes a random listed trade
    only one time in ``propose_chance`` and otherwise passes. Asking the table for proposals
    is drawn like any other action: ``table_asks_per_turn`` keeps it from looping.
    """

    propose_chance = 0.25

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        options = legal_actions if isinstance(legal_actions, (list, tuple)) else list(legal_actions)
        rng = self._rng or rng
        if type(options[0]) is ProposeTrade:  # a proposal window: proposals, then "pass"
            if rng.random() >= self.propose_chance:
                return options[-1]
            return rng.choice(options[:-1])
        return rng.choice(options)

    decide.ignores_view = True  # play() passes None instead of copying a view it never reads
