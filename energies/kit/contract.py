"""The contract every game of the kit follows: the game object, its engine, its bots, how a
game ends and the three errors a game raises.

OpenSpiel's split: what a game *is* lives in its rules object and its
:class:`~energies.kit.registry.GameSpec`; where a playthrough *is* lives in the game object
(:class:`GameProtocol`, implemented once for every game by :class:`energies.kit.shell.GameShell`).
Below the game object sits the game's ``engine`` module (:class:`Engine`): pure functions
over a state object, knowing the rules and nothing of logs, undo or files.

==========================  ==================================================================
``legal_actions()``         the options of whoever must decide now (empty once it is over)
``apply(action)``           change the game; an illegal action raises :class:`IllegalActionError`
                            (a ``ValueError``) whose ``reason`` is one sentence, and the game is
                            left exactly as it was
``why_illegal(action)``     that sentence, or ``None`` when the action is legal
``current_seat``            the seat that decides now; ``None`` once the game is over
``is_over``, ``outcome``    an :class:`Outcome` (``kind``, ``winners``, ``turn``, ``reason``)
``snapshot()``              plain JSON-able public state
``view(seat)``              what one seat may see, for bots (hidden order and chance left out)
``digest()``                a fingerprint of the position (same seed and actions: same digest)
``to_json()``/``load_game``  a save file (rules, seed, names, actions, digest); loading
                            replays the actions and checks the digest (:class:`SaveFileError`)
``undo(steps)``, ``fork()`` take back actions (chance stays the same); an independent copy
==========================  ==================================================================

A bot is any object with ``decide(view, legal_actions, rng) -> action`` (:class:`Bot`).
:func:`energies.kit.api_test` checks a game against all of this.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .fields import RuleError

__all__ = [
    "RELEASE",
    "Bot",
    "Engine",
    "GameProtocol",
    "IllegalActionError",
    "Outcome",
    "RuleError",
    "SaveFileError",
]

#: This release of the kit: ``energies.__version__``, and the ``engine`` field of every save
#: file (which release wrote it).
RELEASE = "0.3.0"


class IllegalActionError(ValueError):
    """An action the rules do not allow now; ``reason`` says why in one sentence."""

    def __init__(self, reason: str, action: Any = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.action = action


class SaveFileError(ValueError):
    """A save file that cannot be loaded; the message names the problem."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``kind`` and the winning seats (empty when everyone loses).

    ``kind`` is the game's own word for the ending (New Energies: "victory_points",
    "empty_bag", "everyone_loses", "unfinished"; My Shelfie Dice: "points"; Noclear:
    "uranium", "turn_limit"); ``reason`` says it in a sentence.
    """

    kind: str
    winners: tuple[int, ...]
    turn: int
    reason: str
    eliminated: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "winners": list(self.winners),
            "turn": self.turn,
            "reason": self.reason,
            "eliminated": list(self.eliminated),
        }

    def __str__(self) -> str:
        return self.reason


class Engine(Protocol):
    """A game's ``engine`` module: its rules as pure functions over a state object.

    The shell's default methods call these; a game whose engine offers other names (New
    Energies' ``apply`` and ``apply_listed``, whose sandbox edits are legal but never listed)
    overrides the few methods that call them.
    """

    def new_state(self, rules: Any, seed: int) -> Any:
        """The position after set-up, with the game's own random stream seeded by ``seed``."""

    def legal_actions(self, state: Any) -> list:
        """The options of the seat that must decide now (empty once the game is over)."""

    def why_illegal(self, state: Any, action: Any) -> str | None:
        """Why ``action`` may not be applied now (one sentence), or None if it may."""

    def apply_legal(self, state: Any, action: Any) -> None:
        """Apply an action ``why_illegal`` approves, without checking it again."""

    def current_seat(self, state: Any) -> int | None:
        """The seat that must decide now (None once the game is over)."""


@runtime_checkable
class GameProtocol(Protocol):
    """What every game object of the kit offers (see the module docstring)."""

    rules: Any
    seed: int
    names: list
    actions: list

    def legal_actions(self) -> list: ...
    def apply(self, action: Any) -> None: ...
    def apply_listed(self, action: Any) -> None: ...
    def why_illegal(self, action: Any) -> str | None: ...
    @property
    def current_seat(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def turn(self) -> int: ...
    def snapshot(self) -> dict[str, Any]: ...
    def view(self, seat: int) -> Any: ...
    def digest(self) -> str: ...
    def to_json(self) -> str: ...
    def save(self, path: Any) -> str: ...
    def undo(self, steps: int = 1) -> list: ...
    def fork(self) -> Any: ...


class Bot(Protocol):
    """Anything that can choose one of the legal actions from what its seat sees."""

    def decide(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any: ...
