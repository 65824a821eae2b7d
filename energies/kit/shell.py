"""What the companion games share: action codecs and the game shell (the rules objects' mixin
lives in :mod:`energies.games.companion_rules` and is offered here too).

Each companion game (``shelfie``, ``noclear``) keeps its rules in its own
``engine`` module with four pure functions over a state object —
``new_state(rules, seed)``, ``legal_actions(state)``, ``why_illegal(state, action)``
and ``apply_legal(state, action)`` — plus ``current_seat(state)``. This module
wraps them into the kit's game contract (:class:`CompanionGame`): the action log,
undo/fork, snapshots, views, save files with a digest. Nothing here knows a rule.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import numbers
from typing import Any, ClassVar

from . import files
from ..bots import bot_from_class_or_object
from ..newenergies.engine import IllegalActionError
from .fields import show
from ..newenergies.rules import _plain
from .saves import SaveFileError, check_save_fields, parse_save, shortened
from ..newenergies.state import Outcome
from .text import name_problem
from .rulebook import CompanionRules

__all__ = ["ActionCodec", "CompanionGame", "CompanionRules", "Outcome", "SaveFileError"]


# -- actions --------------------------------------------------------------------------------------


class ActionCodec:
    """Turns a game's frozen action dataclasses into JSON dicts and back, checking shapes."""

    def __init__(self, *classes: type) -> None:
        self.classes = {cls.kind: cls for cls in classes}

    def to_dict(self, action) -> dict[str, Any]:
        return {
            "kind": action.kind,
            **{k: _plain(v) for k, v in dataclasses.asdict(action).items()},
        }

    def from_dict(self, data: Any):
        if not isinstance(data, dict) or data.get("kind") not in self.classes:
            raise ValueError(f"unknown action {str(data)[:60]!r}")
        cls = self.classes[data["kind"]]
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k != "kind"}
        if set(values) != set(fields):
            raise ValueError(f"a {data['kind']} action needs exactly {', '.join(fields)}")
        return cls(**{k: _frozen(v) for k, v in values.items()})


def _frozen(value: Any, depth: int = 0) -> Any:
    """JSON lists back to (nested) tuples; anything deeper than a few levels is refused."""
    if depth > 4:
        raise ValueError("an action is nested too deeply")
    if isinstance(value, list):
        return tuple(_frozen(v, depth + 1) for v in value)
    if isinstance(value, (int, str, type(None))):
        return value
    raise ValueError(f"an action field holds {type(value).__name__}")


def check_action_type(action: Any, codec: ActionCodec, game: str) -> str | None:
    """A reason when ``action`` is not one of the game's action objects, else None."""
    if not isinstance(action, tuple(codec.classes.values())):
        return f"That is not a {game} action: choose one from legal_actions()."
    for field in dataclasses.fields(action):
        loose = _inexact_number(getattr(action, field.name))
        if loose is not None:
            # True, 1.0 and numpy.int64(1) compare equal to 1, so such an action would match
            # a listed one; applying it indexes lists with a float or writes a save file that
            # JSON cannot hold or cannot read back.
            return (
                f"The {field.name} of an action holds whole numbers (int), "
                f"not {type(loose).__name__} {loose!r}."
            )
    return None


def _inexact_number(value: Any, depth: int = 0) -> Any:
    """The first number in an action field that is not a plain int (a bool, float, NumPy int)."""
    if isinstance(value, tuple) and depth < 3:
        for item in value:
            loose = _inexact_number(item, depth + 1)
            if loose is not None:
                return loose
        return None
    if isinstance(value, numbers.Number) and type(value) is not int:
        return value
    return None


def make_bot_from(bots: dict[str, type], spec: Any, seed: int | None = None):
    """A bot from a game's table of names, a bot class, or a ready bot object (ValueError else)."""
    if isinstance(spec, str):
        key = spec.strip().lower()
        aliases = {cls.__name__.lower(): name for name, cls in bots.items()}
        key = aliases.get(key, key)
        if key not in bots:
            raise ValueError(f"Unknown bot {show(spec)}; choose from {', '.join(sorted(bots))}.")
        return bots[key](seed=seed)
    return bot_from_class_or_object(spec, seed)


# -- the game shell -------------------------------------------------------------------------------


class CompanionGame:
    """One seeded game of a companion game: the contract of :mod:`energies.games`.

    A subclass sets ``NAME`` (registry name), ``TITLE``, ``FORMAT`` (save-file
    format), ``RULES`` (its rules class), ``ENGINE`` (its engine module) and
    ``CODEC``, and adds the game's own queries (scores, pictures).
    """

    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    FORMAT: ClassVar[str]
    VERSION: ClassVar[int] = 1
    RULES: ClassVar[type]
    ENGINE: ClassVar[Any]
    CODEC: ClassVar[ActionCodec]

    def __init__(self, rules, seed: int, names: list[str] | None = None) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) >= 2**63:
            raise ValueError("The seed must be a whole number below 2**63 (e.g. 7).")
        if not isinstance(rules, self.RULES):
            raise ValueError(f"rules must be a {self.RULES.__name__}.")
        self.rules = rules
        self.seed = seed
        self.names = list(names) if names else [f"Seat {s}" for s in range(rules.players)]
        if len(self.names) != rules.players:
            raise ValueError(f"Give {rules.players} names, one per seat.")
        for name in self.names:
            problem = name_problem(name)
            if problem:
                raise ValueError(problem)
        self.state = self.ENGINE.new_state(rules, seed)
        self.actions: list = []

    # -- the contract ------------------------------------------------------------------------

    def legal_actions(self) -> list:
        """The options of whoever must decide now (empty once the game is over)."""
        return self.ENGINE.legal_actions(self.state)

    def why_illegal(self, action) -> str | None:
        """Why an action is not allowed now (one sentence), or None if it is."""
        return self.ENGINE.why_illegal(self.state, action)

    def apply(self, action) -> None:
        """Apply a legal action; raise IllegalActionError (a ValueError) and change nothing if not."""
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(reason, action)
        self.apply_listed(action)

    def apply_listed(self, action) -> None:
        """Apply an action just taken from ``legal_actions()`` without checking it again."""
        self.ENGINE.apply_legal(self.state, action)
        self.actions.append(action)

    @property
    def current_seat(self) -> int | None:
        """The seat that must decide now (None once the game is over)."""
        return self.ENGINE.current_seat(self.state)

    @property
    def is_over(self) -> bool:
        return self.state.outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def log(self) -> list[str]:
        """Readable log: one sentence per action and per thing the engine did."""
        return list(self.state.log)

    def snapshot(self) -> dict[str, Any]:
        """Plain JSON-able public state (everything but the hidden order of decks)."""
        data = self.state.public_dict()
        data["names"] = list(self.names)
        data["current_seat"] = self.current_seat
        return data

    def view(self, seat: int):
        """What ``seat`` may see: a copy of the state without hidden order or random stream."""
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0 to {self.rules.players - 1}, not {seat!r}.")
        return self.state.view(seat)

    def digest(self) -> str:
        """A short fingerprint of the whole state (save files check it on load)."""
        text = json.dumps(self.state.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    # -- undo, fork ------------------------------------------------------------------------------

    def undo(self, steps: int = 1) -> list:
        """Take back the last ``steps`` actions (replays the log: the dice stay the same)."""
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
            raise ValueError("undo needs a number of steps of at least 1.")
        if steps > len(self.actions):
            raise ValueError(f"Only {len(self.actions)} action(s) can be undone.")
        kept, undone = self.actions[:-steps], self.actions[-steps:]
        state = self.ENGINE.new_state(self.rules, self.seed)
        for action in kept:
            self.ENGINE.apply_legal(state, action)
        self.state, self.actions = state, list(kept)
        return undone

    def fork(self):
        """An independent copy sharing no mutable state (same future dice and draws)."""
        clone = copy.copy(self)
        clone.state = copy.deepcopy(self.state)
        clone.actions = list(self.actions)
        clone.names = list(self.names)
        return clone

    # -- files -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        from .. import __version__

        return {
            "format": self.FORMAT,
            "version": self.VERSION,
            "engine": __version__,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "names": list(self.names),
            "actions": [self.CODEC.to_dict(a) for a in self.actions],
            "digest": self.digest(),
        }

    def to_json(self) -> str:
        """The save file text: rules, seed, seats, action log and a digest of the state."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def save(self, path) -> str:
        """Write the save file atomically (a good file is never half-overwritten); return the path."""
        files.write_text(path, self.to_json())
        return str(path)

    @classmethod
    def from_json(cls, text: str | bytes):
        """Load a save file of this game: replays the actions and checks the digest."""
        data = parse_save(text)
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any):
        if not isinstance(data, dict) or data.get("format") != cls.FORMAT:
            raise SaveFileError(
                f"This is not a {cls.TITLE} save file ('format' is not {cls.FORMAT!r})."
            )
        version = data.get("version")
        if type(version) is not int or version != cls.VERSION:  # true and 1.0 equal 1
            raise SaveFileError(
                f"Unsupported save file version {show(version)}; "
                f"this kit reads version {cls.VERSION}."
            )
        check_save_fields(data)
        try:
            game = cls(cls.RULES.from_dict(data["rules"]), data["seed"], data["names"])
        except ValueError as exc:
            raise SaveFileError(
                f"The save file's rules or seats are invalid: {shortened(exc)}"
            ) from None
        for number, raw in enumerate(data["actions"], start=1):
            try:
                action = cls.CODEC.from_dict(raw)
            except (TypeError, ValueError) as exc:
                raise SaveFileError(
                    f"Action {number} in the save file is malformed: {exc}."
                ) from None
            reason = game.why_illegal(action)
            if reason is not None:
                raise SaveFileError(
                    f"Action {number} ({shortened(action)}) cannot be replayed: "
                    f"{shortened(reason)} "
                    "The file was changed or is corrupt."
                )
            game.apply_listed(action)
        if game.digest() != data["digest"]:
            raise SaveFileError(
                "The save file's digest does not match the replayed game: the file was changed."
            )
        return game

    def __repr__(self) -> str:
        status = (
            str(self.outcome)
            if self.outcome
            else f"turn {self.turn}, seat {self.current_seat} to act"
        )
        return f"<{self.TITLE} seed={self.seed} players={self.rules.players}: {status}>"


def figure_png(fig) -> bytes:
    """PNG bytes of a pyplot-free matplotlib Figure (pictures of the companion games)."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()
