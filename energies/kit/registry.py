"""The registry of the games of the kit: each game's facts by short name, and loading any
game's save file.

Three games are registered, each on the one contract: ``"new-energies"`` (CATAN: New Energies, the
kit's main game, :mod:`energies.newenergies`), ``"shelfie"`` (My Shelfie Dice,
:mod:`energies.games.shelfie`) and ``"noclear"`` (Noclear,
:mod:`energies.games.noclear`). Every tool that works on one — :func:`energies.play`,
:func:`energies.simulate`, the ``energies`` command, the invariant and save-file
tests — works on all of them through the names below.

What a game *is* — its short name, player counts, save format, what is random, where its
code and its bots live — is its :class:`GameSpec` here (OpenSpiel's game registry); where a
playthrough *is* is the game object, which follows :mod:`energies.kit.contract`. A file's
``format`` names its game, so :func:`load_game` reads a save file of any game.

    from energies import games
    game = games.new_game("shelfie", players=3, seed=7)
    outcome = en.play(game, [games.get("shelfie").make_bot("ev") for _ in range(3)])
    same = games.load_game(game.to_json())
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import files
from .contract import Bot, GameProtocol, SaveFileError
from .fields import show
from .saves import MAX_SAVE_BYTES, parse_save
from .text import printable

__all__ = [
    "ALIASES",
    "Bot",
    "GameProtocol",
    "GameSpec",
    "get",
    "load_file",
    "load_game",
    "names",
    "new_game",
    "register",
    "spec_of",
]


@dataclass(frozen=True)
class GameSpec:
    """What a game *is*: its name, player counts, save format and where its code lives.

    ``module`` (the game) must provide ``new_game(players, seed, rules, **options)``,
    ``load_game(text, trust_rules=False)`` and ``RULES`` (its rules class); ``bot_module``
    (its players: the game's own package, or ``energies.bots`` for New Energies) provides
    ``BOTS`` (short name -> bot class) and ``make_bot(spec, seed)``. Both are imported on
    first use, so ``import energies`` stays light.

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
    bot_module: str
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
        """The game's module."""
        return importlib.import_module(self.module)

    def hook(self, field: str) -> Callable | None:
        """The function a hook field (``play_loop``, ``simulate_columns``) names, or None."""
        path = getattr(self, field)
        return None if path is None else _import_hook(path)

    @property
    def bot_code(self):
        """The module of the game's bots."""
        return importlib.import_module(self.bot_module)

    @property
    def rules_class(self) -> type:
        return self.code.RULES

    @property
    def bots(self) -> dict[str, type]:
        """The game's bots by short name."""
        return dict(self.bot_code.BOTS)

    def new_game(self, players: int | None = None, seed: int = 0, rules: Any = None, **kw: Any):
        return self.code.new_game(players=players, seed=seed, rules=rules, **kw)

    def load_game(self, text: str | bytes, trust_rules: bool = False):
        """Load a save file of this game (replays it and checks the digest)."""
        return self.code.load_game(text, trust_rules=trust_rules)

    def make_bot(self, spec: Any, seed: int | None = None):
        """A bot from a short name, a class or a ready object (ValueError for anything else,
        a bot of another game of the kit included)."""
        bot = self.bot_code.make_bot(spec, seed=seed)
        problem = self.foreign_bot_problem(bot)
        if problem:
            raise ValueError(problem)
        return bot

    def foreign_bot_problem(self, bot: Any) -> str | None:
        """Why ``bot`` cannot play this game — it is a player of another game of the kit, so
        it would fail at its first decision on a view it does not know — or None.

        A bot that never reads the view (the random players) plays any game, and a bot from
        outside the kit (a student's) is taken at its word.
        """
        if getattr(getattr(bot, "decide", None), "ignores_view", False):
            return None
        module = type(bot).__module__
        if any(_inside(module, home) for home in (self.module, self.bot_module)):
            return None  # its own player (a spec copied under another name keeps its bots)
        for other in _REGISTRY.values():
            homes = (other.module, other.bot_module)
            if other.name != self.name and any(_inside(module, home) for home in homes):
                name = getattr(bot, "name", type(bot).__name__)
                return (
                    f"{name} is a player of {other.title}, not of {self.title}: "
                    f"choose from {', '.join(self.bots)}."
                )
        return None

    def check_players(self, players: int) -> None:
        low, high = self.players
        if not low <= players <= high:
            raise ValueError(f"{self.title} is for {low} to {high} players, not {players}.")


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


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
        name="new-energies",
        title="CATAN: New Energies",
        module="energies.newenergies",
        bot_module="energies.bots",
        players=(3, 4),
        default_players=4,
        save_format="energies-game",
        chance="two dice a turn; event discs from a bag; shuffled cards",
        information="imperfect",
        play_loop="energies.newenergies.fastplay:play_loop",
        simulate_columns="energies.newenergies.summary:simulate_columns",
        turn_records=True,
    )
)
register(
    GameSpec(
        name="shelfie",
        title="My Shelfie Dice",
        module="energies.games.shelfie",
        bot_module="energies.games.shelfie",
        players=(1, 6),
        default_players=2,
        save_format="energies-shelfie",
        chance="six dice with up to two re-rolls a turn",
        information="perfect",
    )
)
register(
    GameSpec(
        name="noclear",
        title="Noclear",
        module="energies.games.noclear",
        bot_module="energies.games.noclear",
        players=(2, 4),
        default_players=2,
        save_format="energies-noclear",
        chance="the shuffled machine deck; the start player",
        information="imperfect",
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
    """The registry entry of a game object (by its class's ``NAME``)."""
    name = getattr(type(game), "NAME", None)
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ValueError(f"{show(game)} is not a game of the kit: make one with new_game().")
    return _REGISTRY[name]


def load_game(text: str | bytes, trust_rules: bool = False):
    """Load a save file of any game of the kit, chosen by its ``format`` field.

    The game's own loader replays it and checks the digest (``trust_rules``: see
    :meth:`energies.kit.shell.GameShell.from_json`). ``energies.load_game`` is this function.
    """
    data = parse_save(text)
    if not isinstance(data, dict):
        raise SaveFileError("This is not an energies save file (expected a JSON object).")
    fmt = data.get("format")
    for spec in _REGISTRY.values():
        if spec.save_format == fmt:
            return spec.load_game(text, trust_rules=trust_rules)
    raise SaveFileError(
        "This is not an energies save file (the 'format' field is missing or wrong)."
    )


def load_file(path, trust_rules: bool = False):
    """Load a save file of any game of the kit from disk (a regular file of at most
    ``MAX_SAVE_BYTES``); the file's ``format`` field says which game it is."""
    try:
        data = files.read_bounded(path, MAX_SAVE_BYTES)
    except files.FileProblem as exc:
        raise SaveFileError(printable(exc)) from None
    except OSError as exc:
        raise SaveFileError(f"Cannot read {printable(path)}: {exc.strerror or exc}.") from None
    return load_game(data, trust_rules=trust_rules)
