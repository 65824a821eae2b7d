"""A bot from a short name ("random", "fossil", "search", ...), a class or a ready object."""

from __future__ import annotations

from ..kit.bots import bot_from_class_or_object, check_seed
from ..kit.fields import show
from .personas import PERSONAS


def make_bot(spec, seed: int | None = None):
    """A bot from a short name ("random", "fossil", ...), a class, or a ready bot object."""
    check_seed(seed)
    if isinstance(spec, str):
        # imported when first asked for: the search and its fitted plan are not needed by
        # ``import energies`` or by a tournament of personas
        from .search import SEARCH_BOTS, SearchPlayer

        key = spec.strip().lower()
        aliases = {cls.__name__.lower(): name for name, cls in PERSONAS.items()}
        key = aliases.get(key, key)
        if key in SEARCH_BOTS:  # the search player and its restricted variants
            return SearchPlayer(seed=seed, plants=SEARCH_BOTS[key])
        if key not in PERSONAS:
            names = ", ".join(sorted([*PERSONAS, *SEARCH_BOTS]))
            raise ValueError(f"Unknown bot {show(spec)}; choose from {names}.")
        return PERSONAS[key](seed=seed)
    return bot_from_class_or_object(spec, seed)
