"""Loading a New Energies save file: parse, check, replay every action, compare the digest.

Saving is :meth:`energies.game.Game.save`; what every game's files share (limits, first
checks, :class:`~energies.save_files.SaveFileError`) is in :mod:`energies.save_files`.
"""

from __future__ import annotations

from typing import Any

from .actions import action_from_dict
from .game import SAVE_FORMAT, Game
from ..kit.fields import show
from .rules import RuleSet
from ..kit.saves import SaveFileError, check_save_fields, parse_save

READABLE_VERSIONS = (1, 2)


def load_game(text: str | bytes, trust_rules: bool = False) -> Game:
    """Load a saved game; raise SaveFileError with the problem for a bad file.

    The actions are replayed and the digest checked. A version-1 file (earlier releases)
    has a digest of the replayed position only, which does not cover its rules: it loads
    when its rules are a standard rule set, or with ``trust_rules=True`` for a file you
    wrote yourself. Saving it again writes version 2.
    """
    data = parse_save(text)
    try:
        return _load(data, trust_rules)
    except SaveFileError:
        raise
    except (RecursionError, MemoryError):
        raise SaveFileError("The save file is too large or too deeply nested to load.") from None
    except Exception as exc:
        raise SaveFileError(
            f"The save file is corrupt and cannot be replayed ({type(exc).__name__})."
        ) from exc


def _load(data: Any, trust_rules: bool) -> Game:
    if not isinstance(data, dict):
        raise SaveFileError("This is not an energies save file (expected a JSON object).")
    if data.get("format") != SAVE_FORMAT:
        raise SaveFileError(
            "This is not an energies save file (the 'format' field is missing or wrong)."
        )
    version = data.get("version")
    if version is None:
        raise SaveFileError("The save file has no version number.")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise SaveFileError(
            f"Unsupported save file version {show(version)}; this kit reads versions "
            f"{' and '.join(map(str, READABLE_VERSIONS))}."
        )
    check_save_fields(data)
    try:
        rules = RuleSet.from_dict(data["rules"])
        game = Game(rules, data["seed"], data["names"])
    except ValueError as exc:
        raise SaveFileError(f"The save file's rules or seats are invalid: {exc}") from None
    if version == 1 and not trust_rules and not _standard(rules):
        raise SaveFileError(
            "This save file is from an earlier release (version 1): its digest does not cover "
            "its rules, and they differ from the standard game, so they cannot be checked. "
            "If you wrote it yourself, load it with load_game(text, trust_rules=True)."
        )
    for number, raw in enumerate(data["actions"], start=1):
        try:
            action = action_from_dict(raw)
        except ValueError as exc:
            raise SaveFileError(f"Action {number} in the save file is malformed: {exc}.") from None
        try:
            game.apply(action)
        except ValueError as exc:  # IllegalActionError included
            if version == 1:
                raise SaveFileError(_EARLIER_ENGINE) from None
            raise SaveFileError(
                f"Action {number} ({action}) cannot be replayed: {exc} "
                "The file was changed or is corrupt."
            ) from None
    expected = game.digest() if version == 1 else game.to_dict()["digest"]
    if expected != data["digest"]:
        raise SaveFileError(
            _EARLIER_ENGINE
            if version == 1
            else "The save file's digest does not match its rules, seats and replayed actions: "
            "the file was changed."
        )
    return game


# A version-1 file replays only where the rules it was played under did not change since:
# the quick start (rule 3.4), the proposals of the other players (12.1) and the hazards a
# rolled hex clears (8.5) all changed in the release that introduced version 2.
_EARLIER_ENGINE = (
    "This save file is from an earlier release (version 1), and its game no longer replays "
    "the same way: the rules engine changed since (the quick start of rule 3.4, trade "
    "proposals of rule 12.1, hazards cleared by rule 8.5). Open it with the release that "
    "wrote it, or play the game again."
)


def _standard(rules: RuleSet) -> bool:
    """A published rule set (3 or 4 players, either start): what version-1 files may use."""
    return any(rules == RuleSet.standard(rules.players, start=s) for s in ("quick", "draft"))
