"""What the bots of every game share: the uniformly random player and making a bot from a
short name, a bot class or a ready object.

A bot is anything with ``decide(view, legal_actions, rng) -> action``
(:class:`energies.kit.contract.Bot`); each game lists its own by short name (``BOTS``) and
builds them with ``make_bot`` (:func:`make_bot_from` does the work).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .fields import show

__all__ = ["RandomBot", "bot_from_class_or_object", "check_seed", "make_bot_from"]


class RandomBot:
    """Picks uniformly among the legal actions: the baseline every strategy should beat."""

    name = "RandomBot"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed) if seed is not None else None

    def decide(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        options = legal_actions if isinstance(legal_actions, (list, tuple)) else list(legal_actions)
        return (self._rng or rng).choice(options)

    decide.ignores_view = True  # a runner may pass None instead of copying a view never read

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def check_seed(seed: Any) -> None:
    """A bot's seed is None or a whole number: random.Random takes 1.5 and "x" too, so a
    typo would silently seed another stream than the one asked for."""
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ValueError(f"A bot's seed must be None or a whole number, not {show(seed)}.")


def bot_from_class_or_object(spec: Any, seed: int | None = None):
    """A bot from a bot class (seeded when it takes a seed) or a ready bot object; any other
    value gets a ValueError naming what a bot may be. Every game of the kit uses this."""
    check_seed(seed)
    if isinstance(spec, type):
        try:
            bot = spec(seed=seed)
        except TypeError:  # a student's class often has no seed parameter
            bot = spec()
    else:
        bot = spec
    # checked here, at once: a bot without decide() would fail only at its first turn
    if not callable(getattr(bot, "decide", None)):
        raise ValueError(
            f"{show(spec)} is not a bot: give a name, a bot class or an object with decide()."
        )
    return bot


def make_bot_from(bots: dict[str, type], spec: Any, seed: int | None = None):
    """A bot from a game's table of names, a bot class, or a ready bot object (ValueError else)."""
    check_seed(seed)
    if isinstance(spec, str):
        key = spec.strip().lower()
        aliases = {cls.__name__.lower(): name for name, cls in bots.items()}
        key = aliases.get(key, key)
        if key not in bots:
            raise ValueError(f"Unknown bot {show(spec)}; choose from {', '.join(sorted(bots))}.")
        return bots[key](seed=seed)
    return bot_from_class_or_object(spec, seed)
