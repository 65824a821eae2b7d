"""PlayApp's save and load: one folder only (a Voila user must not reach the rest of the
server), ``.json`` names only, atomic writes (:mod:`energies.widgets.save_folder`).

A save never loses a game: a file that holds another game, or this game further on, keeps it,
and the save takes a fresh name (``group1-2.json``) and says so (only the app's own Undo lets
the shorter game replace the app's own file: :mod:`energies.widgets.save_folder`). With ``autosave`` the app
saves after every move; a file that already holds this very game further on and unfinished (a
re-run cell, a reloaded Voila page) is loaded instead, so the group plays on where it stopped.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from ...kit import files
from ...kit.saves import overwrite_clash
from ...newenergies.game import MAX_SAVE_BYTES, Game, SaveFileError
from ...newenergies.saves import load_game
from ..save_folder import SaveFolder, numbered_names, saved_text

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


class _Saves:
    """A mixin of :class:`~energies.widgets.PlayApp` (``save_dir``, the game, the seats and
    ``_say`` live there)."""

    def _init_saves(self, autosave) -> None:
        self._files = SaveFolder(self.save_dir)
        self.file_note, self.file_note_kind = "", "info"  # the last save, said in the File tab
        self.autosave_path: Path | None = None
        self._renamed_because = ""  # why the autosave went to a fresh name (said in the File tab)
        self._autosaved: tuple | None = None  # (game, generation, actions) last autosaved
        if autosave is None:
            return
        if not isinstance(autosave, str):
            raise ValueError(
                f"autosave must be a file name such as 'group1.json', not {autosave!r}."
            )
        try:
            self.autosave_path = self._autosave_base = self._inside(autosave)
        except ValueError as exc:
            raise ValueError(f"autosave: {exc}.") from None
        self._autosaved = self._autosave_key()

    # -- names ---------------------------------------------------------------------------------

    def _default_file_name(self) -> str:
        g = self.game
        who = "-".join(self._name(s) for s in sorted(self.humans)) or "bots"
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return _UNSAFE.sub("_", f"energies-{who}-seed{g.seed}-{stamp}") + ".json"

    def _inside(self, name: str) -> Path:
        """The path of ``name`` inside :attr:`save_dir`; anything else raises ValueError."""
        return self._files.inside(name)

    def _path_or_say(self, name, doing: str) -> Path | None:
        """:meth:`_inside`, or None once the status line says why the name is refused (a
        typing slip, not a failure: no "Something went wrong")."""
        try:
            return self._inside(name)
        except ValueError as exc:
            self._say_file(f"Cannot {doing}: {exc}.", "error")
            return None

    def _say_file(self, text: str, kind: str) -> None:
        """Say it in the status line and in the File tab (where a student who saves looks)."""
        self._say(text, kind)
        self.file_note, self.file_note_kind = text, kind

    # -- saving --------------------------------------------------------------------------------

    def _save(self, name) -> str | None:
        path = self._path_or_say(name if name is not None else self._default_file_name(), "save")
        if path is None:
            return None
        written, note = self._files.write(self.game, path)
        if written is None:
            self._say_file(note, "error")
            return None
        self._say_file(
            saved_text(len(self.game.actions), written) + note,
            "warn" if note else "ok",
        )
        return str(written)

    # -- autosave ------------------------------------------------------------------------------

    def _autosave_key(self) -> tuple:
        return (id(self.game), self._generation, len(self.game.actions))

    def _autosave(self) -> None:
        """After a change: write the game to :attr:`autosave_path` (a fresh name once that file
        turns out to hold another game: from then on the app saves there, and says so)."""
        if self.autosave_path is None or self._autosave_key() == self._autosaved:
            return
        if not self.game.actions:  # nothing to lose yet
            return
        written, note = self._files.write(self.game, self.autosave_path)
        if written is None:
            self.status_text += f" ⚠ {note}"
            self.status_kind = "error"
            self.file_note, self.file_note_kind = note, "error"
            return
        self._autosaved = self._autosave_key()
        if note:  # from now on the app saves under the fresh name, and the File tab says why
            self.autosave_path = written
            self._renamed_because = note
            self.status_text += note + " It is saved there after every move."
            self.status_kind = "warn"
        stamp = datetime.now().strftime("%H:%M:%S")
        self.file_note = (
            f"Saved automatically after every move: {written.name}, "
            f"{len(self.game.actions)} actions, {stamp}." + self._renamed_because
        )
        self.file_note_kind = "warn" if self._renamed_because else "ok"

    def _resume(self) -> None:
        """At the start: when the autosave file (or one of its numbered names, ``group1-2.json``
        ...) holds this very game further on and not over (the cell ran again, the page was
        reloaded), load it: the group plays on where it stopped."""
        ours = self.game.to_dict()
        finished = None
        for path in numbered_names(self.autosave_path):
            try:
                existing = files.read_bounded(path, MAX_SAVE_BYTES)
            except FileNotFoundError:
                if path != self.autosave_path:
                    break  # the numbered names are taken in order: none further on
                continue
            except (files.FileProblem, OSError):
                continue
            clash = overwrite_clash(existing, ours)
            if clash is None or clash[0] != "longer":
                continue  # the same game, another game or no save file
            try:
                saved = load_game(existing)
            except SaveFileError:
                continue  # an edited file is never played on (and never replaced)
            if saved.is_over:
                finished = finished or (path, saved)
                continue
            self._load_game(saved, path.name)
            self.autosave_path = path
            self._files.remember(path, existing)
            self._autosaved = self._autosave_key()
            self._say(
                f"Welcome back: your game from {path.name} goes on (turn {saved.turn}, "
                f"{len(saved.actions)} actions). " + self._hint(),
                "ok",
            )
            return
        if finished is not None:
            path, saved = finished
            self._say(
                f"{path.name} holds this game finished: {self.words.speak(str(saved.outcome))} "
                "This is a new game; its first move saves it under a name of its own.",
                "info",
            )

    # -- loading -------------------------------------------------------------------------------

    def _load_path(self, name) -> bool:
        path = self._path_or_say(name, "load")
        if path is None:
            return False
        try:
            text = files.read_bounded(path, MAX_SAVE_BYTES)  # no device, pipe or huge file
        except files.FileProblem:
            self._say_file(
                f"Cannot load {path.name}: not a save file (a folder, device or pipe, or over "
                f"{MAX_SAVE_BYTES:,} bytes).",
                "error",
            )
            return False
        except OSError as exc:
            self._say_file(f"Cannot read {path.name}: {exc.strerror or exc}.", "error")
            return False
        try:
            game = load_game(text)
        except SaveFileError as exc:
            self._say_file(f"Cannot load {path.name}: {exc}", "error")
            return False
        loaded = self._load_game(game, path.name)
        self._files.remember(path, text)
        if self.autosave_path is not None and path in numbered_names(self._autosave_base):
            self.autosave_path = (
                path  # the group's own file, or one of its fresh names: play on there
            )
        return loaded

    def _load_game(self, game: Game, source: str) -> bool:
        resized = game.rules.players != len(self.seats)
        self.game = game
        if resized:  # _set_seats reads the number of seats from self.game
            self._set_seats({s: self.seats.get(s, "random") for s in range(game.rules.players)})
        self._generation += 1
        self._forget_auto_passes()
        self.offer_answer = ""  # about an offer in the game that was on the table
        self._viewer = min(self.humans) if self.humans else 0
        self._revealed = None  # hot-seat: the next human to decide is shown the pass screen
        if self.autosave_path is not None:  # the group's file holds the game before the load:
            self._files.forget(self.autosave_path)  # the next save checks it is this game
        self._new_board()  # the loaded game's names: the note below uses them
        note = ""
        if resized:
            note = f" It has {game.rules.players} seats: the seats are now {self._seat_list()}."
        self._since = {"log": len(game.log)}
        self._say_file(
            f"Loaded {source}: turn {game.turn}, {len(game.actions)} actions.{note}", "ok"
        )
        return True

    def _seat_list(self) -> str:
        return ", ".join(f"{self._name(s)} = {self._who(s)}" for s in sorted(self.seats))
