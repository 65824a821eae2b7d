"""The boards a game is played on (rule 2.2): the beginner island, or terrains, numbers and
harbors shuffled from a seed; :func:`build_board` builds each one once (cached, shared,
immutable :class:`~energies.board.Board` objects)."""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Sequence

from .board import (
    _HEX_NEIGHBORS,
    BEGINNER_HARBORS,
    BEGINNER_HEXES,
    CORNER_HEXES,
    HARBOR_SLOTS,
    LAYOUTS,
    NUMBER_MODES,
    SPIRAL_TOKENS,
    TERRAIN_COUNTS,
    Board,
    spiral_order,
)


def _no_adjacent_red(numbers: Sequence[int | None]) -> bool:
    """True when no two hexes carrying a 6 or 8 are neighbours."""
    red = {h for h, n in enumerate(numbers) if n in (6, 8)}
    return not any(o in red for h in red for o in _HEX_NEIGHBORS[h])


@functools.lru_cache(maxsize=64)
def _build(
    layout: str,
    seed: int,
    numbers: str,
    harbors: tuple[str | None, ...] = BEGINNER_HARBORS,
    rates: tuple[int, int] = (3, 2),
) -> Board:
    if layout == "beginner":
        return Board(
            "beginner",
            [t for t, _ in BEGINNER_HEXES],
            [n for _, n in BEGINNER_HEXES],
            harbors,
            rates,
        )
    # One RNG, used in a fixed order (terrain, numbers, harbors) so a seed
    # always gives the same board.
    rng = random.Random(seed)
    terrains = [t for t, k in TERRAIN_COUNTS.items() for _ in range(k)]
    rng.shuffle(terrains)
    desert = terrains.index("desert")
    nums: list[int | None] = [None] * 19
    if numbers == "spiral":
        land = [h for h in spiral_order(rng.choice(CORNER_HEXES)) if h != desert]
        for h, n in zip(land, SPIRAL_TOKENS):
            nums[h] = n
    else:
        tokens = list(SPIRAL_TOKENS)
        land = [h for h in range(19) if h != desert]
        while True:  # rejection sampling: a valid draw comes quickly
            rng.shuffle(tokens)
            for h, n in zip(land, tokens):
                nums[h] = n
            if _no_adjacent_red(nums):
                break
    harbor_types = list(harbors)
    rng.shuffle(harbor_types)
    return Board("random", terrains, nums, harbor_types, rates)


def build_board(
    layout: str = "beginner",
    seed: int = 0,
    numbers: str = "spiral",
    harbors: Sequence[str | None] | None = None,
    rates: tuple[int, int] = (3, 2),
) -> Board:
    """Return the (cached, shared, immutable) board for a layout (rule 2.2).

    ``layout`` is ``"beginner"`` (fixed base-game board; ``seed`` and
    ``numbers`` are ignored) or ``"random"`` (terrain and harbor types
    shuffled from ``seed``; ``numbers`` is ``"spiral"`` or ``"shuffled"``).
    ``harbors``: the 9 harbor types (None: 3:1), ``RuleSet.harbor_kinds`` (rule 1 [H]); the
    beginner board lays a set other than the printed one on the slots in the order given.
    ``rates``: (generic, special) harbor rates, which the harbors' labels show (rule 12.3).
    """
    if layout not in LAYOUTS:
        raise ValueError(
            f"Unknown board layout {layout!r}: choose one of {', '.join(map(repr, LAYOUTS))}."
        )
    if numbers not in NUMBER_MODES:
        raise ValueError(
            f"Unknown number placement {numbers!r}: choose one of "
            f"{', '.join(map(repr, NUMBER_MODES))}."
        )
    seed = operator.index(seed)  # an int: None would silently give an unseeded, cached board
    if layout == "beginner":
        seed, numbers = 0, "spiral"  # normalise so every beginner call shares one board
    kinds = BEGINNER_HARBORS if harbors is None else tuple(harbors)
    if len(kinds) != len(HARBOR_SLOTS):
        raise ValueError(f"A board has {len(HARBOR_SLOTS)} harbors, not {len(kinds)}.")
    if sorted(kinds, key=str) == sorted(BEGINNER_HARBORS, key=str):
        kinds = BEGINNER_HARBORS  # the printed set keeps the printed places (and random draws)
    return _build(layout, seed, numbers, kinds, tuple(rates))
