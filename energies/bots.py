"""Players: the one-method Player protocol and the bot personas.

A bot is any object with ``decide(game_view, legal_actions, rng) -> action``:
it gets the game (read it, do not change it), the list of legal actions of
the seat it plays, and a seeded ``random.Random`` to break ties with.

    class Cautious:
        def decide(self, game, legal, rng):
            builds = [a for a in legal if a.kind == "build_plant" and a.plant == "renewable"]
            return builds[0] if builds else rng.choice(legal)
"""

from __future__ import annotations

import random
from typing import Protocol, Sequence

from .actions import Action


class Player(Protocol):
    """Anything that can choose one of the legal actions."""

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions: the baseline every strategy should beat."""

    name = "RandomBot"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed) if seed is not None else None

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return (self._rng or rng).choice(list(legal_actions))

    def __repr__(self) -> str:
        return "RandomBot()"
