"""What every save file of the kit shares: its size limits, its first checks, its digests,
its error.

A save file (any game of the kit: New Energies, My Shelfie Dice, Noclear) is JSON with a
``format`` naming the game, the rules, seed, names, the action log and a digest; loading
replays the log (:class:`energies.kit.shell.GameShell`). :func:`parse_save` and
:func:`check_save_fields` refuse a file that is too large, not UTF-8 JSON, or missing a field
before any replay starts; :func:`energies.kit.registry.load_file` reads one from disk. Every problem is a
:class:`SaveFileError` naming it.

Version 2 files carry :func:`file_digest`: it covers the format, rules, seed, names, actions
and the replayed position (:func:`state_digest`), so no field can be edited unnoticed.
Version 1 files (earlier releases) carried the state digest only.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .contract import SaveFileError

# Loading replays every action, so these bound the work a file can ask for (README,
# Guarantees; benchmarks/hostile_loads.py measures the worst file we could make).
MAX_SAVE_BYTES = 4_000_000
MAX_SAVED_ACTIONS = 20_000


#: 2: the digest covers the whole file (:func:`file_digest`); 1: the replayed state only.
SAVE_VERSION = 2
READABLE_VERSIONS = (1, 2)


def shortened(text: object, limit: int = 160) -> str:
    """``text`` cut to ``limit`` characters for an error message: a hostile file's values
    (an action's fields, a rule's value) may be megabytes long."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_save_fields(data: dict[str, Any]) -> None:
    """The fields every save file of the kit has (any game), with their types and bounds."""
    for key, kind in (
        ("rules", dict),
        ("seed", int),
        ("names", list),
        ("actions", list),
        ("digest", str),
    ):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise SaveFileError(f"The save file's '{key}' field is missing or has the wrong type.")
    if len(data["actions"]) > MAX_SAVED_ACTIONS:
        raise SaveFileError(
            f"The save file holds {len(data['actions']):,} actions, more than a game can have "
            f"({MAX_SAVED_ACTIONS:,})."
        )


def check_loadable(text: str, actions: int) -> None:
    """Refuse to write a save that :func:`parse_save` and :func:`check_save_fields` would
    refuse on loading: a long enough game (a 1:1 bank, long turns) can pass the limits."""
    if actions > MAX_SAVED_ACTIONS or len(text) > MAX_SAVE_BYTES:
        raise SaveFileError(
            f"This game ({actions:,} actions, {len(text):,} characters) is larger than a save "
            f"file may be ({MAX_SAVED_ACTIONS:,} actions, {MAX_SAVE_BYTES:,} bytes): it could not "
            "be loaded again, so it was not saved."
        )


def state_digest(state: dict[str, Any]) -> str:
    """A short fingerprint of a position given as plain JSON (a game state's ``to_dict()``)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def file_digest(save_format: str, content: dict[str, Any], position: str) -> str:
    """Fingerprint of what defines a game — its format and ``content`` (rules, seed, names,
    actions) — and of where it ends (``position``, its :func:`state_digest`)."""
    text = json.dumps(
        {"format": save_format, **content, "state": position},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]


def parse_save(text: str | bytes) -> Any:
    """The JSON of a save file (text or bytes), refused when too large or not UTF-8 JSON."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        if len(text) > MAX_SAVE_BYTES:
            raise SaveFileError(f"The save file is larger than {MAX_SAVE_BYTES:,} bytes.")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise SaveFileError("The save file is not UTF-8 text.") from None
    if not isinstance(text, str):
        raise SaveFileError("A save file must be text.")
    if len(text) > MAX_SAVE_BYTES:
        raise SaveFileError(f"The save file is larger than {MAX_SAVE_BYTES:,} characters.")
    try:
        return json.loads(text)
    except RecursionError:
        raise SaveFileError("The save file is nested too deeply to be a save file.") from None
    except ValueError as exc:
        raise SaveFileError(
            f"The save file is not valid JSON (it may be truncated): {exc}."
        ) from None


def overwrite_clash(existing: bytes, ours: dict[str, Any]) -> tuple[str, str] | None:
    """Whether writing the save ``ours`` (a game's ``to_dict()``) over a file holding
    ``existing`` would lose a game: None when ours is the same game or continues it, else
    ``("longer", why)`` (the file holds this game further on) or ``("other", why)`` (another
    game, or no save file at all); ``why`` follows the file's name ("group1.json holds ...").
    In a folder a class shares, a group's file of the same name must not vanish."""
    not_a_save = ("other", "holds something that is not a save file")
    try:
        theirs = parse_save(existing)
    except SaveFileError:
        return not_a_save
    if not isinstance(theirs, dict) or not isinstance(theirs.get("actions"), list):
        return not_a_save
    if any(theirs.get(key) != ours[key] for key in ("format", "rules", "seed", "names")):
        return "other", "holds another game (other seats, seed or rules)"
    logged, mine = theirs["actions"], ours["actions"]
    if mine[: len(logged)] == logged:
        return None
    if logged[: len(mine)] == mine:
        return "longer", (
            f"holds this game further on ({len(logged)} actions; this one has {len(mine)})"
        )
    return "other", "holds another game (the same start, other moves)"
