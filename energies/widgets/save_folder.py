"""The one folder an app saves games in, and a save that never loses a game.

Every app of the kit (the PlayApp, the companion games' apps) reads and writes save files in
one folder only — a Voila user must not reach the rest of the server — and only ``.json``
files. A save never replaces a file that holds another game, or this game further on: it
takes a fresh name beside it (``group1-2.json``, the first free number) and says so. The same
game further on replaces its file (the group plays on). A shorter version of it replaces a file
only when the app wrote or loaded that file itself, unchanged since, and the group then took
moves back with the app's Undo (:meth:`SaveFolder.took_back`): the Undo was the asking. A
missing folder inside the app's folder is made. Writes are atomic (:meth:`energies.Game.save`):
never half a file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

from ..kit import files
from ..kit.saves import MAX_SAVE_BYTES, overwrite_clash

#: How many numbered names (``group1-2.json`` .. ``group1-100.json``) a save may try.
FRESH_NAMES = 100


def fingerprint(data: bytes | str) -> str:
    """The sha256 of a file's bytes (text as UTF-8): has the file changed since?"""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def saved_text(actions: int, written: Path) -> str:
    """ "Saved 57 actions to group1.json (in /…/class-games/lesson02)." """
    return f"Saved {actions} action{'s' * (actions != 1)} to {written.name} (in {written.parent})."


def numbered_names(path: Path) -> Iterator[Path]:
    """``path``, then ``<stem>-2.json`` .. ``<stem>-100.json`` beside it (the fresh names)."""
    yield path
    for number in range(2, FRESH_NAMES + 1):
        yield path.with_name(f"{path.stem}-{number}{path.suffix}")


class SaveFolder:
    """The folder an app saves in, and the files it wrote or loaded there."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder).resolve()
        # path -> fingerprint of the text this app wrote there or loaded from there, and
        # whether the group has taken moves back since (then a shorter game may replace it)
        self._own: dict[Path, str] = {}
        self._taken_back: set[Path] = set()

    def inside(self, name: str) -> Path:
        """The path of ``name`` inside the folder; anything else raises ValueError."""
        name = str(name).strip()
        if not name:
            raise ValueError("type a file name first")
        if "\x00" in name:  # the operating system refuses it with "embedded null byte"
            raise ValueError("a file name cannot contain a NUL character")
        bare = Path(name).name
        if bare and not bare.startswith(".") and not Path(bare).suffix:
            name += ".json"  # "my game" is "my game.json": nobody types the suffix
        path = (self.folder / name).resolve()
        if not path.is_relative_to(self.folder):
            raise ValueError(f"files stay in the folder {self.folder}: “{name}” is outside it")
        if path.name.lower() == ".json":  # a hidden file without a name: it has no suffix
            raise ValueError("a save file needs a name before .json")
        if path.suffix.lower() != ".json":
            raise ValueError(f"a save file ends in .json (“{name}” does not)")
        return path

    def remember(self, path: Path, text: bytes | str) -> None:
        """``path`` holds ``text`` because this app wrote or loaded it."""
        path = Path(path).resolve()
        self._own[path] = fingerprint(text)
        self._taken_back.discard(path)

    def forget(self, path: Path) -> None:
        """``path`` no longer holds this app's game (another game was loaded): a save there
        checks what the file holds again."""
        self._own.pop(Path(path).resolve(), None)

    def took_back(self) -> None:
        """The group undid moves in the app: its own files may now hold its game further on,
        and the next save of the shorter game replaces them (the Undo asked for it)."""
        self._taken_back |= set(self._own)

    def write(self, game, path: Path) -> tuple[Path | None, str]:
        """Save ``game`` to ``path``, or to a fresh name when ``path`` holds a game this save
        must not replace. Return (the path written, a note on the fresh name, else "") or
        (None, why it was not saved)."""
        folder_problem = _make_folder(path.parent)
        if folder_problem:
            return None, f"Not saved: {folder_problem}."
        clash = self.clash(game, path)
        note, reserved = "", None
        if clash:  # another game, or this one further on: keep it, name this one afresh
            kind, why = clash
            reserved = _reserve_fresh_name(path)
            if reserved is None:
                return None, f"Not saved: {path.name} {why}; choose another name."
            note = f" {path.name} {why}, so this game got a name of its own: {reserved.name}."
            if kind == "longer":
                note += f" To play on with the game in {path.name}, load it."
            path = reserved
        text = game.to_json()
        try:  # Game.save writes atomically (temp file + os.replace): never half a save
            written = Path(game.save(path))
        except (OSError, ValueError) as exc:  # SaveFileError is a ValueError too
            if reserved is not None:
                reserved.unlink(missing_ok=True)
            why = str(getattr(exc, "strerror", None) or exc).rstrip(".")
            return None, f"Not saved to {path.name}: {why}."
        self.remember(written, text)
        return written, note

    def clash(self, game, path: Path) -> tuple[str, str] | None:
        """Whether ``path`` holds a game a save of ``game`` must not replace (see
        :func:`energies.kit.saves.overwrite_clash`); never a file this app wrote or loaded,
        unchanged since."""
        try:
            existing = files.read_bounded(path, MAX_SAVE_BYTES)
        except FileNotFoundError:
            return None
        except (files.FileProblem, OSError):  # a folder, pipe or huge file: Game.save says why
            return None
        clash = overwrite_clash(existing, game.to_dict())
        own = self._own.get(path.resolve()) == fingerprint(existing)
        if clash and clash[0] == "longer" and own and path.resolve() in self._taken_back:
            return None
        return clash


def _make_folder(folder: Path) -> str | None:
    """Make a missing folder (a class folder nobody made yet); say why it cannot be made."""
    if folder.is_dir():
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"the folder {folder} could not be made ({exc.strerror or exc})"
    return None


def _reserve_fresh_name(path: Path) -> Path | None:
    """The first free ``<stem>-<n>.json`` beside ``path``, created empty at once (so a second
    group saving at the same moment gets the next one); None when every one is taken."""
    for candidate in list(numbered_names(path))[1:]:
        try:
            with open(candidate, "x", encoding="utf-8"):
                return candidate
        except FileExistsError:
            continue
        except OSError:
            return None
    return None
