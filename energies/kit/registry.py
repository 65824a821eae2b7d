"""The games of the kit and the one contract they all follow.

Three games share this contract: ``"new-energies"`` (CATAN: New Energies, the
kit's main game, :mod:`energies`), ``"shelfie"`` (My Shelfie Dice,
:mod:`energies.games.shelfie`) and ``"noclear"`` (Noclear,
:mod:`energies.games.noclear`). Every tool that works on one — :func:`energies.play`,
:func:`energies.simulate`, the ``energies`` command, the invariant and save-file
tests — works on all of them through the names below.

The contract (OpenSpiel's split: what a game *is* lives in its rules object and
its :class:`GameSpec`; where a playthrough *is* lives in the game object):

==========================  ==================================================================
``new_game(players, seed, rules)``  a fresh game; the same three always give the same game
``legal_actions()``         the options of whoever must decide now (empty once it is over)
``apply(action)``           change the game; an illegal action raises
                            :class:`energies.IllegalActionError` (a ``ValueError``) whose
                            ``reason`` is one sentence, and the game is left exactly as it was
``why_illegal(action)``     that sentence, or ``None`` when the action is legal
``current_seat``            the seat that decides now; ``None`` once the game is over
``is_over``, ``outcome``    an :class:`energies.Outcome` (``kind``, ``winners``, ``turn``, ``reason``)
``snapshot()``              plain JSON-able public state
``to_json()``/``load_game(text)``  save file (rules, seed, names, actions, digest); loading
                            replays the actions and checks the digest
``undo(steps)``, ``fork()`` take back actions (chance stays the same); an independent copy
``view(seat)``              what one seat may see, for bots (hidden deck order left out)
==========================  ==================================================================

Chance is explicit: dice and decks come from the game's own seeded random
stream (never the global one), and a game whose chance a player can reason
about lists a chance node's outcomes with exact probabilities
(``ShelfieGame.chance_outcomes``, ``energies.insight.event_risk``).

A bot is any object with ``decide(view, legal_actions, rng) -> action``; each
game names its bots (``spec.bots``) and builds them with ``spec.make_bot(name, seed)``.

    from energies import games
    game = games.new_game("shelfie", players=3, seed=7)
    outcome = en.play(game, [games.get("shelfie").make_bot("ev") for _ in range(3)])
    same = games.load_game(game.to_json())
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = ["Bot", "GameProtocol", "GameSpec", "get", "load_game", "names", "new_game", "spec_of"]


@runtime_checkable
class GameProtocol(Protocol):
    """What every game object of the kit offers (see the module docstring)."""

    rules: Any
    seed: int
    actions: list

    def legal_actions(self) -> list: ...
    def apply(self, action: Any) -> None: ...
    def why_illegal(self, action: Any) -> str | None: ...
    @property
    def current_seat(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def outcome(self) -> Any: ...
    def snapshot(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def undo(self, steps: int = 1) -> list: ...
    def fork(self) -> Any: ...


class Bot(Protocol):
    """Anything that can choose one of the legal actions from what its seat sees."""

    def decide(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any: ...


@dataclass(frozen=True)
class GameSpec:
    """What a game *is*: its name, player counts, save format and where its code lives.

    ``module`` must provide ``new_game(players, seed, rules)``, ``load_game(text)``,
    ``RULES`` (its rules class), ``BOTS`` (short name -> bot class) and ``make_bot``.
    It is imported on first use, so ``import energies`` stays light.

    What the runner (:func:`energies.play`, :func:`energies.simulate`) may use besides the
    contract, each optional; a hook is a ``"module:function"`` text, imported on first use
    (:meth:`hook`), so the runner imports no game:

    ``play_loop``
        ``loop(game, seats, rng, max_actions, apply_choice) -> outcome``: a faster loop that
        plays exactly the games of the runner's contract loop (same actions, same draws from
        ``rng``); ``seats`` maps seat -> bot, ``apply_choice(game, seat, bot, action)`` applies
        a choice that was not one of the listed actions (its error names the bot).
    ``simulate_columns``
        ``columns(game) -> dict``: a finished game's columns of its simulate row, after the
        line-up. Without it: ``outcome``, ``winners``, ``turns``, ``actions`` and the game's
        own ``summary_row()``.
    ``turn_records``
        True when ``new_game`` takes ``history=`` and the game keeps per-turn records in
        ``game.history`` (what ``simulate(per_turn=True)`` returns).
    """

    name: str
    title: str
    module: str
    players: tuple[int, int]  # fewest and most
    default_players: int
    save_format: str
    chance: str  # what is random, in words
    information: str  # "perfect" or "imperfect"
    play_loop: str | None = None
    simulate_columns: str | None = None
    turn_records: bool = False

    @property
    def code(self):
        return importlib.import_module(self.module)

    def hook(self, field: str) -> Callable | None:
        """The function a hook field (``play_loop``, ``simulate_columns``) names, or None."""
        path = getattr(self, field)
        return None if path is None else _import_hook(path)

    @property
    def rules_class(self) -> type:
        return self.code.RULES

    @property
    def bots(self) -> dict[str, type]:
        """The game's bots by short name."""
        return dict(self.code.BOTS)

    def new_game(self, players: int | None = None, seed: int = 0, rules: Any = None, **kw: Any):
        return self.code.new_game(players=players, seed=seed, rules=rules, **kw)

    def load_game(self, text: str | bytes):
        return self.code.load_game(text)

    def make_bot(self, spec: Any, seed: int | None = None):
        """A bot from a short name, a class or a ready object (ValueError for anything else)."""
        return self.code.make_bot(spec, seed=seed)

    def check_players(self, players: int) -> None:
        low, high = self.players
        if not low <= players <= high:
            raise ValueError(f"{self.title} is for {low} to {high} players, not {players}.")


@functools.cache
def _import_hook(path: str) -> Callable:
    """The function named by ``"module:function"`` (imported once: ``play`` asks every game)."""
    module, _, function = path.partition(":")
    return getattr(importlib.import_module(module), function)


_REGISTRY: dict[str, GameSpec] = {}

#: The game a tool plays when not told which (``energies simulate``, ``simulate(game=...)``).
DEFAULT_GAME = "new-energies"


def register(spec: GameSpec) -> None:
    """Add a game to the registry under its short name."""
    _REGISTRY[spec.name] = spec


register(
    GameSpec(
        "new-energies",
        "CATAN: New Energies",
        "energies.games.new_energies",
        (3, 4),
        4,
        "energies-game",
        "two dice a turn; event discs from a bag; shuffled cards",
        "imperfect",
        play_loop="energies.newenergies.fastplay:play_loop",
        simulate_columns="energies.newenergies.summary:simulate_columns",
        turn_records=True,
    )
)
register(
    GameSpec(
        "shelfie",
        "My Shelfie Dice",
        "energies.games.shelfie",
        (1, 6),
        2,
        "energies-shelfie",
        "six dice with up to two re-rolls a turn",
        "perfect",
    )
)
register(
    GameSpec(
        "noclear",
        "Noclear",
        "energies.games.noclear",
        (2, 4),
        2,
        "energies-noclear",
        "the shuffled machine deck; the start player",
        "imperfect",
    )
)

ALIASES = {
    "newenergies": "new-energies",
    "new_energies": "new-energies",
    "catan": "new-energies",
    "energies": "new-energies",
    "my-shelfie-dice": "shelfie",
}


def names() -> list[str]:
    """The registered games' short names."""
    return list(_REGISTRY)


def get(name: str) -> GameSpec:
    """The game registered under ``name`` ("new-energies", "shelfie", "noclear")."""
    key = name.strip().lower() if isinstance(name, str) else name
    key = ALIASES.get(key, key)
    if key not in _REGISTRY:
        raise ValueError(f"Unknown game {name!r}; choose from {', '.join(_REGISTRY)}.")
    return _REGISTRY[key]


def new_game(
    name: str = "new-energies", players: int | None = None, seed: int = 0, rules: Any = None
):
    """A fresh game of the named game (see :class:`GameSpec`)."""
    return get(name).new_game(players=players, seed=seed, rules=rules)


def spec_of(game: Any) -> GameSpec:
    """The registry entry of a game object (by its class's ``NAME``; New Energies otherwise)."""
    return get(getattr(type(game), "NAME", "new-energies"))


def load_game(text: str | bytes, **options: Any):
    """Load a save file of any game of the kit, chosen by its ``format`` field.

    A file that names no companion game's format is read by the New Energies loader
    (:func:`energies.game_loading.load_game`, which takes the ``options``), so its errors are
    that loader's. ``energies.load_game`` is this function.
    """
    from ..newenergies.saves import load_game as load_new_energies
    from .saves import parse_save

    data = parse_save(text)
    fmt = data.get("format") if isinstance(data, dict) else None
    for spec in _REGISTRY.values():
        if spec.save_format == fmt and spec.name != "new-energies":
            return spec.load_game(text)
    return load_new_energies(text, **options)
