"""PlayApp's save and load: one folder only (a Voila user must not reach the rest of the
server), ``.json`` names only, atomic writes through :meth:`energies.Game.save`."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from ...kit import files
from ...kit.saves import overwrite_clash
from ...newenergies.game import MAX_SAVE_BYTES, Game
from ...newenergies.saves import load_game

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


class _Saves:
    """A mixin of :class:`~energies.widgets.PlayApp` (``save_dir``, the game, the seats and
    ``_say`` live there)."""

    def _default_file_name(self) -> str:
        g = self.game
        who = "-".join(self._name(s) for s in sorted(self.humans)) or "bots"
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return _UNSAFE.sub("_", f"energies-{who}-seed{g.seed}-{stamp}") + ".json"

    def _inside(self, name: str) -> Path:
        """The path of ``name`` inside :attr:`save_dir`; anything else raises ValueError."""
        name = str(name).strip()
        if not name:
            raise ValueError("type a file name first")
        if "\x00" in name:  # the operating system refuses it with "embedded null byte"
            raise ValueError("a file name cannot contain a NUL character")
        bare = Path(name).name
        if bare and not bare.startswith(".") and not Path(bare).suffix:
            name += ".json"  # "my game" is "my game.json": nobody types the suffix
        path = (self.save_dir / name).resolve()
        if not path.is_relative_to(self.save_dir):
            raise ValueError(f"files stay in the folder {self.save_dir}: “{name}” is outside it")
        if path.name.lower() == ".json":  # a hidden file without a name: it has no suffix
            raise ValueError("a save file needs a name before .json")
        if path.suffix.lower() != ".json":
            raise ValueError(f"a save file ends in .json (“{name}” does not)")
        return path

    def _path_or_say(self, name, doing: str) -> Path | None:
        """:meth:`_inside`, or None once the status line says why the name is refused (a
        typing slip, not a failure: no "Something went wrong")."""
        try:
            return self._inside(name)
        except ValueError as exc:
            self._say(f"Cannot {doing}: {exc}.", "error")
            return None

    def _save(self, name) -> str | None:
        path = self._path_or_say(name if name is not None else self._default_file_name(), "save")
        if path is None:
            return None
        clash = self._clash(path)
        renamed = ""
        if clash and clash[0] == "longer":  # saving now would throw moves away
            self._say(
                f"Not saved: {path.name} {clash[1]}. Load it to go on, or save under another name.",
                "error",
            )
            return None
        reserved = None
        if clash:  # another group's game: keep it, and give this one a fresh name
            reserved = _reserve_fresh_name(path)
            if reserved is None:
                self._say(f"Not saved: {path.name} {clash[1]}; choose another name.", "error")
                return None
            renamed = f" {path.name} {clash[1]}, so this game got a name of its own."
            path = reserved
        try:  # Game.save writes atomically (temp file + os.replace): never half a save
            written = Path(self.game.save(path))
        except (OSError, ValueError) as exc:
            if reserved is not None:
                reserved.unlink(missing_ok=True)
            why = str(getattr(exc, "strerror", None) or exc).rstrip(".")
            self._say(f"Cannot save to {path.name}: {why}.", "error")
            return None
        # a browser kernel (energies.lite) may keep it elsewhere, in memory: name where it went
        self._say(
            f"Saved {len(self.game.actions)} actions to {written.name} (in {written.parent})."
            + renamed,
            "warn" if renamed else "ok",
        )
        return str(written)

    def _clash(self, path: Path) -> tuple[str, str] | None:
        """Whether ``path`` holds a game this save must not replace (see overwrite_clash)."""
        try:
            existing = files.read_bounded(path, MAX_SAVE_BYTES)
        except FileNotFoundError:
            return None
        except files.FileProblem:  # a folder, pipe or huge file: Game.save says why
            return None
        except OSError:
            return None
        return overwrite_clash(existing, self.game.to_dict())

    def _load_path(self, name) -> bool:
        path = self._path_or_say(name, "load")
        if path is None:
            return False
        try:
            text = files.read_bounded(path, MAX_SAVE_BYTES)  # no device, pipe or huge file
        except files.FileProblem:
            self._say(
                f"Cannot load {path.name}: not a save file (a folder, device or pipe, or over "
                f"{MAX_SAVE_BYTES:,} bytes).",
                "error",
            )
            return False
        except OSError as exc:
            self._say(f"Cannot read {path.name}: {exc.strerror or exc}.", "error")
            return False
        return self._load_game(load_game(text), path.name)

    def _load_game(self, game: Game, source: str) -> bool:
        resized = game.rules.players != len(self.seats)
        self.game = game
        if resized:  # _set_seats reads the number of seats from self.game
            self._set_seats({s: self.seats.get(s, "random") for s in range(game.rules.players)})
        self._generation += 1
        self._forget_auto_passes()
        self.offer_answer = ""  # about an offer in the game that was on the table
        self._viewer = min(self.humans) if self.humans else 0
        self._new_board()  # the loaded game's names: the note below uses them
        note = ""
        if resized:
            note = f" It has {game.rules.players} seats: the seats are now {self._seat_list()}."
        self._since = {"log": len(game.log)}
        self._say(f"Loaded {source}: turn {game.turn}, {len(game.actions)} actions.{note}", "ok")
        return True

    def _seat_list(self) -> str:
        return ", ".join(f"{self._name(s)} = {self._who(s)}" for s in sorted(self.seats))


#: How many numbered names (``group1-2.json`` .. ``group1-100.json``) a save may try.
_FRESH_NAMES = 100


def _reserve_fresh_name(path: Path) -> Path | None:
    """The first free ``<stem>-<n>.json`` beside ``path``, created empty at once (so a second
    group saving at the same moment gets the next one); None when every one is taken."""
    for number in range(2, _FRESH_NAMES + 1):
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
        try:
            with open(candidate, "x", encoding="utf-8"):
                return candidate
        except FileExistsError:
            continue
        except OSError:
            return None
    return None
