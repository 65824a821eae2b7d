"""The contract every game of the kit follows, and what all games share.

This package is the bottom floor: it imports nothing else of ``energies`` and only the
standard library. A game (New Energies, My Shelfie Dice, Noclear, or a new one) depends on
it and on nothing above it; the runner, the command and the class tools drive every game
through it. See ``docs/architecture.md``.

============================  =================================================================
:mod:`~.contract`             the game, engine and bot protocols, :class:`Outcome`, the errors
:mod:`~.registry`             games by short name: :class:`GameSpec`, :func:`new_game`,
                              :func:`load_game` (any game's save file)
:mod:`~.shell`                :class:`GameShell`: ONE implementation of the log, undo, fork,
                              digest and save files for every game
:mod:`~.codec`                actions as JSON and back; the first check of ``why_illegal``
:mod:`~.bots`                 the random player; a bot from a name, class or object
:mod:`~.rulebook`             house defaults, ``describe``; the companion rules' mixin
:mod:`~.saves`                save-file limits, parsing, digests; :func:`load_file`
:mod:`~.conformance`          :func:`api_test`: check a game against the contract
:mod:`~.fields`               rule-field checks
:mod:`~.files`                bounded reads and atomic writes
:mod:`~.text`                 names
:mod:`~.platform`             Pyodide or not
============================  =================================================================
"""

from .bots import RandomBot, bot_from_class_or_object, make_bot_from
from .codec import ActionCodec, Codec, check_action_type
from .conformance import api_test
from .contract import (
    RELEASE,
    Bot,
    Engine,
    GameProtocol,
    IllegalActionError,
    Outcome,
    RuleError,
    SaveFileError,
)
from .registry import GameSpec, get, load_file, load_game, names, new_game, register, spec_of
from .rulebook import CompanionRules, HouseDefault
from .shell import CompanionGame, GameShell

__all__ = [
    "RELEASE",
    "ActionCodec",
    "Bot",
    "Codec",
    "CompanionGame",
    "CompanionRules",
    "Engine",
    "GameProtocol",
    "GameShell",
    "GameSpec",
    "HouseDefault",
    "IllegalActionError",
    "Outcome",
    "RandomBot",
    "RuleError",
    "SaveFileError",
    "api_test",
    "bot_from_class_or_object",
    "check_action_type",
    "get",
    "load_file",
    "load_game",
    "make_bot_from",
    "names",
    "new_game",
    "register",
    "spec_of",
]
