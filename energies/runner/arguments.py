"""The arguments of :func:`energies.runner.simulate`, checked before any game runs.

A bad line-up, rule set or count gets a ValueError that says what to give instead, and
nothing is played.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from ..kit import registry as _games
from ..kit.fields import show


def _is_lineup(item: Any) -> bool:
    return isinstance(item, (list, tuple))


def seat_counts(spec) -> str:
    """'3 or 4' / '2 to 4': the player counts a game allows, in words."""
    low, high = spec.players
    return f"{low} to {high}" if high > low + 1 else f"{low} or {high}"


def normalise_lineups(bots: Any, rules: Any = None, game: str = _games.DEFAULT_GAME) -> list[tuple]:
    """The line-ups of a ``bots`` argument, checked: a list of tuples of bot specs.

    ``bots`` is one line-up (a list of specs, one per seat, or a comma-separated
    text such as ``"fossil,green,random"``) or a list of line-ups to cycle
    through. Raises ValueError with a clear message for anything else.
    """
    spec = _games.get(game)
    low, high = spec.players
    seats = seat_counts(spec)
    if isinstance(bots, str):
        bots = [part.strip() for part in bots.split(",")]
    if not isinstance(bots, (list, tuple)) or not bots:
        raise ValueError(
            f"bots must be a list of bot specs, one per seat ({seats}), or a list of line-ups."
        )
    if all(_is_lineup(item) for item in bots):
        lineups = [tuple(item) for item in bots]
    elif any(_is_lineup(item) for item in bots):
        raise ValueError(
            "bots mixes line-ups (lists) and single bots: give one line-up or a list of line-ups."
        )
    else:
        lineups = [tuple(bots)]
    sizes = {len(lineup) for lineup in lineups}
    if len(sizes) > 1:
        raise ValueError(
            f"All line-ups must have the same number of seats, got sizes {sorted(sizes)}."
        )
    (size,) = sizes
    if not low <= size <= high:
        raise ValueError(f"A line-up needs {seats} bots, one per seat, not {size}.")
    if rules is not None:
        if not isinstance(rules, spec.rules_class):
            kind = spec.rules_class.__name__
            raise ValueError(
                f"rules must be a {kind} for {spec.title}, e.g. {kind}(players={size})."
            )
        if rules.players != size:
            raise ValueError(
                f"The line-up has {size} bots but the rule set is for {rules.players} players."
            )
    for lineup in lineups:
        for bot in lineup:
            if isinstance(bot, str) and not bot.strip():
                raise ValueError("A bot name is empty (check for a stray comma).")
            spec.make_bot(bot)  # raises ValueError for an unknown name or a non-bot
    return lineups


#: Most games one call plays: every game keeps a row in memory (and a seed before it runs).
MAX_GAMES = 1_000_000
#: Most games with ``per_turn=True``: every game adds about 200 per-turn records.
MAX_PER_TURN_GAMES = 50_000


def whole_number(value: Any) -> int | None:
    """``value`` as a Python int when it is a whole number, else None.

    numpy integers count (a simulate frame's ``seed`` column holds them, and a row's seed
    should replay its game); True and False do not.
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return None


def check_count(name: str, value: Any, low: int, high: int) -> int:
    number = whole_number(value)
    if number is None or not low <= number <= high:
        raise ValueError(
            f"{name} must be a whole number from {low} to {high:,}, not {show(value)}."
        )
    return number


def finite_number(name: str, value: Any) -> float:
    """``value`` as a float when it is a finite real number (not True or False, not a text),
    else a ValueError naming ``name``: NaN or infinity would poison every reward after it."""
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or not math.isfinite(float(value))
    ):
        raise ValueError(f"{name} must be a number (not NaN or infinity), not {show(value)}.")
    return float(value)
