"""The game shell: ONE implementation of what every game object of the kit does around its
rules — names and seed checks, the action log, undo and fork, the digest, save files.

A game is fully determined by its rules, its seed and its action log, so a save file holds
exactly those plus a digest; loading replays the log and compares the digest. Nothing here
knows a rule: :class:`GameShell` calls the game's ``engine`` module
(:class:`~energies.kit.contract.Engine`) and its action codec
(:class:`~energies.kit.codec.Codec`). New Energies' ``Game`` subclasses it directly;
:class:`CompanionGame` adds what the companion games' state objects share.

A subclass sets the class attributes below and may override these small hooks:
``_new_state`` (the position after set-up), ``_restart`` (back to it, with an empty log),
``_v1_rules_checkable`` and ``V1_REPLAY_PROBLEM`` (how far a version-1 file is trusted),
``RULES_BEFORE_FIELD`` (what an older file that does not name a later rule field was played
with),
and — for speed — ``legal_actions``/``apply``/``apply_listed``/``why_illegal``, calling its
engine directly.
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any, ClassVar

from . import files
from . import platform as lite
from .bots import make_bot_from  # noqa: F401 - offered here too (energies.games.base)
from .codec import ActionCodec, Codec, check_action_type  # noqa: F401 - offered here too
from .contract import RELEASE, IllegalActionError, Outcome, SaveFileError
from .fields import show
from .i18n import check_language, render
from .rulebook import CompanionRules
from .saves import (
    READABLE_VERSIONS,
    SAVE_VERSION,
    check_loadable,
    check_save_fields,
    file_digest,
    parse_save,
    shortened,
    state_digest,
)
from .text import name_problem

__all__ = [
    "ActionCodec",
    "CompanionGame",
    "CompanionRules",
    "GameShell",
    "Outcome",
    "SaveFileError",
]


def _sentence(line: Any) -> Any:
    """A log line as a text to say: an action's sentence, or the line itself."""
    sentence = getattr(line, "sentence", None)
    return sentence() if callable(sentence) else line


class GameShell:
    """One seeded game on the kit's contract (:class:`energies.kit.contract.GameProtocol`).

    A subclass sets ``NAME`` (registry name), ``TITLE``, ``FORMAT`` (save-file format),
    ``RULES`` (its rules class), ``ENGINE`` (its engine module) and ``CODEC``, and adds the
    game's own queries (scores, pictures), ``view(seat)`` and ``snapshot()``.
    """

    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    FORMAT: ClassVar[str]
    RULES: ClassVar[type]
    ENGINE: ClassVar[Any]
    CODEC: ClassVar[Codec]
    #: How to make a rules object, for the error a wrong ``rules`` argument gets.
    RULES_EXAMPLE: ClassVar[str | None] = None
    #: A version-1 file that no longer replays is refused with this sentence when the game's
    #: engine changed since version 1 (None: the usual "cannot be replayed" reason).
    V1_REPLAY_PROBLEM: ClassVar[str | None] = None

    #: The language of this game's reasons and log (``None``: the kit-wide one when the text
    #: is read, see :mod:`energies.kit.i18n`); never part of a save file or the digest.
    _lang: str | None = None

    def __init__(
        self, rules, seed: int, names: list[str] | None = None, lang: str | None = None
    ) -> None:
        self.lang = lang
        if not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) >= 2**63:
            raise ValueError("The seed must be a whole number below 2**63 (e.g. 7).")
        if not isinstance(rules, self.RULES):
            example = f" (see {self.RULES_EXAMPLE})" if self.RULES_EXAMPLE else ""
            raise ValueError(f"rules must be a {self.RULES.__name__}{example}.")
        if names is not None and not isinstance(names, (list, tuple)):  # "abcd" is not 4 names
            raise ValueError(f"names must be a list of {rules.players} texts, not {show(names)}.")
        self.rules = rules
        self.seed = seed
        self.names = list(names) if names else [f"Seat {s}" for s in range(rules.players)]
        if len(self.names) != rules.players:
            raise ValueError(f"Give {rules.players} names, one per seat.")
        for name in self.names:
            problem = name_problem(name)
            if problem:
                raise ValueError(problem)
        self._restart()

    @property
    def lang(self) -> str | None:
        """The language this game speaks in (None: the kit-wide one, see
        :func:`energies.set_language`); set it to change it."""
        return self._lang

    @lang.setter
    def lang(self, code: str | None) -> None:
        self._lang = None if code is None else check_language(code)

    def said(self, text: Any) -> Any:
        """An engine text (a reason, a log line) in this game's language."""
        return render(text, self._lang)

    # -- hooks -------------------------------------------------------------------------------

    def _new_state(self):
        """The position after set-up: the same for the same rules and seed."""
        return self.ENGINE.new_state(self.rules, self.seed)

    def _restart(self) -> None:
        """Back to the position after set-up with an empty log (a new game; undo replays)."""
        self.state = self._new_state()
        self.actions: list = []

    @classmethod
    def _v1_rules_checkable(cls, rules) -> bool:
        """Whether a version-1 file's rules may be trusted: its digest does not cover them."""
        return rules == cls.RULES(players=rules.players)

    # A rule field added in a later release, with the value every game before it was played
    # with: a save file that does not name the field predates it and replays with that value
    # (a file names every field its release had: ``rules.to_dict()``).
    RULES_BEFORE_FIELD: ClassVar[dict[str, Any]] = {}

    @classmethod
    def _rules_of_file(cls, rules: Any):
        """The rule set a save file's ``rules`` were played with."""
        if isinstance(rules, dict):
            rules = {**cls.RULES_BEFORE_FIELD, **rules}
        return cls.RULES.from_dict(rules)

    # -- the contract ------------------------------------------------------------------------

    def legal_actions(self) -> list:
        """The options of whoever must decide now (empty once the game is over)."""
        return self.ENGINE.legal_actions(self.state)

    def why_illegal(self, action) -> str | None:
        """Why an action is not allowed now (one sentence), or None if it is."""
        return render(self.ENGINE.why_illegal(self.state, action), self._lang)

    def apply(self, action) -> None:
        """Apply a legal action; raise IllegalActionError (a ValueError) and change nothing if not."""
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(reason, action)
        self.apply_listed(action)

    def apply_listed(self, action) -> None:
        """Apply an action taken from ``legal_actions()`` of this very position, unchecked.

        Bots playing thousands of games use this to skip checking an action the listing
        has just checked; anything else should call :meth:`apply`.
        """
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
        """Readable log: one sentence per action and per thing the engine did, in the game's
        language (:attr:`lang`)."""
        lang = self._lang
        return [str(render(_sentence(line), lang)) for line in self.state.log]

    def digest(self) -> str:
        """A short fingerprint of the whole position (the same seed and actions give the same)."""
        return state_digest(self.state.to_dict())

    # -- undo, fork --------------------------------------------------------------------------

    def undo(self, steps: int = 1) -> list:
        """Take back the last ``steps`` actions and return them (the log is replayed from the
        seed, so the dice and draws stay the same)."""
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
            raise ValueError("undo needs a number of steps of at least 1.")
        if steps > len(self.actions):
            raise ValueError(f"Only {len(self.actions)} action(s) can be undone.")
        kept, undone = self.actions[:-steps], self.actions[-steps:]
        self._restart()
        for action in kept:
            self.apply(action)
        return undone

    def fork(self):
        """An independent copy that shares no mutable state (same future dice and draws)."""
        clone = copy.copy(self)
        clone.state = copy.deepcopy(self.state)
        clone.actions = list(self.actions)
        clone.names = list(self.names)
        return clone

    # -- files -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The save file as a dict: format, version, rules, seed, names, actions, digest."""
        return {
            "format": self.FORMAT,
            "version": SAVE_VERSION,
            "engine": RELEASE,
            **self._content(),
            "digest": self._file_digest(),
        }

    def _content(self, named=None) -> dict[str, Any]:
        """What defines the game: rules, seed, names and actions. ``named``: only the rule
        fields a loaded file names (an older file lacks the later ones, ``RULES_BEFORE_FIELD``)."""
        rules = self.rules.to_dict()
        if named is not None:
            rules = {name: value for name, value in rules.items() if name in named}
        return {
            "rules": rules,
            "seed": self.seed,
            "names": list(self.names),
            "actions": [self.CODEC.to_dict(a) for a in self.actions],
        }

    def _file_digest(self, named=None) -> str:
        return file_digest(self.FORMAT, self._content(named), self.digest())

    def to_json(self) -> str:
        """The save file text: rules, seed, seats, action log and a digest of all of them."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def save(self, path) -> str:
        """Write the save file atomically and return the path written: a good file at
        ``path`` is never half-overwritten.

        Raises OSError (or ``files.FileProblem``, a ValueError) when the path is a folder,
        a device or a pipe, or its folder is missing or read-only, and SaveFileError when the
        game is too long for a save file to be loaded again. In a browser kernel a file
        outside the browser's storage is kept in memory only: a one-line note says so
        (``energies.kit.platform.save_location``).
        """
        if not isinstance(path, (str, os.PathLike)):
            raise ValueError(f"path must be a file path, not {show(path)}.")
        text = self.to_json()
        check_loadable(text, len(self.actions))  # before writing: an older file stays as it was
        path, note = lite.save_location(path)
        files.write_text(path, text)
        if note:
            lite.note(note)
        return path

    @classmethod
    def from_json(cls, text: str | bytes, trust_rules: bool = False):
        """Load a save file of this game: replay its actions and check its digest.

        A version-1 file (earlier releases) has a digest of the replayed position only, which
        does not cover its rules: it loads when its rules are the game's standard ones, or
        with ``trust_rules=True`` for a file you wrote yourself. Saving it again writes
        version 2. Every problem is a :class:`SaveFileError` naming it.
        """
        return cls.from_dict(parse_save(text), trust_rules)

    @classmethod
    def from_dict(cls, data: Any, trust_rules: bool = False):
        """Load a save file already read as JSON (see :meth:`from_json`)."""
        if not isinstance(trust_rules, bool):  # "no" would trust the rules
            raise ValueError(f"trust_rules must be True or False, not {show(trust_rules)}.")
        try:
            return cls._load(data, trust_rules)
        except SaveFileError:
            raise
        except (RecursionError, MemoryError):
            raise SaveFileError(
                "The save file is too large or too deeply nested to load."
            ) from None
        except Exception as exc:
            raise SaveFileError(
                f"The save file is corrupt and cannot be replayed ({type(exc).__name__})."
            ) from exc

    @classmethod
    def _load(cls, data: Any, trust_rules: bool):
        if not isinstance(data, dict):
            raise SaveFileError(f"This is not {cls._file_noun()} (expected a JSON object).")
        if data.get("format") != cls.FORMAT:
            raise SaveFileError(
                f"This is not {cls._file_noun()} (the 'format' field is missing or wrong)."
            )
        version = data.get("version")
        if version is None:
            raise SaveFileError("The save file has no version number.")
        if type(version) is not int or version not in READABLE_VERSIONS:  # true, 1.0 equal 1
            raise SaveFileError(
                f"Unsupported save file version {show(version)}; this kit reads versions "
                f"{' and '.join(map(str, READABLE_VERSIONS))}."
            )
        check_save_fields(data)
        try:
            game = cls(cls._rules_of_file(data["rules"]), data["seed"], data["names"])
        except ValueError as exc:
            raise SaveFileError(
                f"The save file's rules or seats are invalid: {shortened(exc)}"
            ) from None
        if version == 1 and not trust_rules and not cls._v1_rules_checkable(game.rules):
            raise SaveFileError(
                "This save file is from an earlier release (version 1): its digest does not "
                f"cover its rules, and they differ from {cls._standard_rules_words()}, so they "
                "cannot be checked. If you wrote it yourself, load it with "
                "load_game(text, trust_rules=True)."
            )
        for number, raw in enumerate(data["actions"], start=1):
            try:
                action = cls.CODEC.from_dict(raw)
            except (TypeError, ValueError) as exc:
                raise SaveFileError(
                    f"Action {number} in the save file is malformed: {exc}."
                ) from None
            try:
                game.apply(action)
            except ValueError as exc:  # IllegalActionError included
                if version == 1 and cls.V1_REPLAY_PROBLEM:
                    raise SaveFileError(cls.V1_REPLAY_PROBLEM) from None
                raise SaveFileError(
                    f"Action {number} ({shortened(action)}) cannot be replayed: "
                    f"{shortened(exc)} The file was changed or is corrupt."
                ) from None
        if version == 1:
            if game.digest() != data["digest"]:
                raise SaveFileError(
                    cls.V1_REPLAY_PROBLEM
                    or "The save file's digest does not match the replayed game: "
                    "the file was changed."
                )
        elif game._file_digest(named=data["rules"]) != data["digest"]:
            raise SaveFileError(
                "The save file's digest does not match its rules, seats and replayed actions: "
                "the file was changed."
            )
        return game

    @classmethod
    def _file_noun(cls) -> str:
        """What a save file of this game is called in the errors of a foreign file."""
        return f"a {cls.TITLE} save file"

    @classmethod
    def _standard_rules_words(cls) -> str:
        """The rules a version-1 file may have without ``trust_rules`` (see the hook above)."""
        return f"the default rules of {cls.TITLE} for its player count"

    # -- printing ----------------------------------------------------------------------------

    _repr_name: ClassVar[str | None] = None  # what ``repr`` calls the game (default: TITLE)

    def __repr__(self) -> str:
        status = (
            str(self.outcome)
            if self.outcome
            else f"turn {self.turn}, seat {self.current_seat} to act"
        )
        name = self._repr_name or self.TITLE
        return f"<{name} seed={self.seed} players={self.rules.players}: {status}>"


class CompanionGame(GameShell):
    """A companion game (My Shelfie Dice, Noclear): its state objects know their public part
    (``public_dict()``) and what one seat sees (``view(seat)``)."""

    def snapshot(self) -> dict[str, Any]:
        """Plain JSON-able public state (everything but the hidden order of decks)."""
        data = self.state.public_dict()
        data["names"] = list(self.names)
        data["current_seat"] = self.current_seat
        return data

    def view(self, seat: int):
        """What ``seat`` may see: a copy of the state without hidden order or random stream."""
        return self.state.view(self.checked_seat(seat))

    def checked_seat(self, seat: Any) -> int:
        """``seat`` when it is a seat of this table (-1 is not the last seat, True not 1)."""
        players = self.rules.players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {show(seat)}.")
        return seat
