"""A small play app for any companion game: picture, legal actions, bots, undo, save, status.

It reuses the PlayApp's shared parts (:mod:`energies.widgets.common`: the busy
guard that turns errors into a status line, the status line itself; the save folder of
:mod:`energies.widgets.save_folder`). Each game's ``widget`` module subclasses
:class:`GameApp` and adds its own controls.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

import ipywidgets as W

from ..kit.fields import show
from ..kit.registry import spec_of
from .common import _Guard, _StatusMixin, seats_problem
from .save_folder import SaveFolder, saved_text

HUMAN = "human"


class GameApp(_StatusMixin):
    """Play a companion game in a notebook: humans pick actions, bots answer at once.

    ``seats`` maps a seat to ``"human"`` or one of the game's bot names (default:
    seat 0 human, the others the game's strongest bot). **Save** writes the game into
    ``save_dir`` (default: the notebook's folder); a file that holds another game keeps it,
    and the save takes a fresh name and says so (:mod:`energies.widgets.save_folder`).
    """

    #: The game this app draws and plays (each game's app sets its own).
    GAME: ClassVar[type | None] = None

    def __init__(
        self,
        game,
        seats: dict[int, str] | None = None,
        seed: int = 0,
        save_dir: str | os.PathLike | None = None,
    ) -> None:
        if self.GAME is not None and not isinstance(game, self.GAME):
            raise TypeError(
                f"{type(self).__name__} plays {self.GAME.TITLE} games, not {show(game)}: "
                f"make one with {self.GAME.NAME}.new_game()."
            )
        if not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) >= 2**63:
            raise ValueError(f"seed must be a whole number below 2**63, not {show(seed)}.")
        if save_dir is not None and not isinstance(save_dir, (str, os.PathLike)):
            raise ValueError(f"save_dir must be a folder path, not {show(save_dir)}.")
        self.save_dir = Path(save_dir if save_dir is not None else Path.cwd()).resolve()
        self._files = SaveFolder(self.save_dir)
        self.game = game
        self.spec = spec_of(game)
        self.seats = self._checked_seats(seats)
        self.bots = {
            s: self.spec.make_bot(b, seed=seed + s) for s, b in self.seats.items() if b != HUMAN
        }
        self._rng = random.Random(seed)
        self._busy: str | None = None
        self.ignored_clicks = 0
        self.last_error: str | None = None
        self._guard = _Guard(self)
        # natural size (a VBox would stretch the small PNG to the full width: blurry, and the
        # controls pushed below the fold of a 768 px screen); narrower screens shrink it
        self.picture = W.Image(
            format="png", layout=W.Layout(max_width="100%", height="auto", align_self="flex-start")
        )
        self.choice = W.Dropdown(description="Action", layout=W.Layout(width="520px"))
        self.apply_button = W.Button(description="Play it", button_style="primary")
        self.undo_button = W.Button(description="Undo my move")
        self.status = W.HTML()
        self.file_name = W.Text(
            placeholder=self._default_file_name(),
            description="File",
            layout=W.Layout(width="420px"),
        )
        self.save_button = W.Button(description="Save", tooltip=f"into {self.save_dir}")
        self.apply_button.on_click(lambda _: self._guard.run("playing", self._play_chosen))
        self.undo_button.on_click(lambda _: self._guard.run("undoing", self.undo))
        self.save_button.on_click(lambda _: self.save(self.file_name.value.strip() or None))
        self.widget = W.VBox(
            [
                self.picture,
                *self.extra_controls(),
                W.HBox([self.choice, self.apply_button, self.undo_button]),
                W.HBox([self.file_name, self.save_button]),
                self.status,
            ]
        )
        self._guard.run("starting", self._run_bots)

    def _checked_seats(self, seats) -> dict[int, Any]:
        """``seats`` with exactly the table's seats, or a ValueError naming what is wrong."""
        players = self.game.rules.players
        if seats is None:
            last = list(self.spec.bots)[-1]  # the game's strongest bot
            return {s: HUMAN if s == 0 else last for s in range(players)}
        if not isinstance(seats, Mapping):
            raise ValueError(
                f'seats must map each seat to "human" or a bot, e.g. {{0: "human", 1: '
                f'"{list(self.spec.bots)[-1]}"}}, not {show(seats)}.'
            )
        problem = seats_problem(seats, players)
        if problem:
            raise ValueError(problem)
        return {s: seats[s] for s in range(players)}

    # -- hooks for each game --------------------------------------------------------------------

    def extra_controls(self) -> list:
        """Game-specific widgets shown between the picture and the action list."""
        return []

    def label(self, action) -> str:
        """How an action reads in the list of actions (a game may add what it costs)."""
        return str(action)

    dpi = 110  # the picture is shown at its own size: readable on a projector, fits 768 px

    def png(self) -> bytes:
        return self.game._repr_png_()

    # -- playing -------------------------------------------------------------------------------

    def play(self, action) -> None:
        """Apply a human's action and let the bots answer; a refusal shows in the status line."""
        self._guard.run("playing", self._apply, action)

    def _apply(self, action) -> None:
        self.game.apply(action)
        self._say(f"You: {action}.", "ok")
        self._run_bots()

    def _play_chosen(self) -> None:
        legal = self.game.legal_actions()
        if self.choice.value is None or not 0 <= self.choice.value < len(legal):
            self._say("Choose an action first.", "warn")
            return
        self._apply(legal[self.choice.value])

    def _run_bots(self) -> None:
        game, moves = self.game, 0
        while not game.is_over and game.current_seat in self.bots:
            seat = game.current_seat
            action = self.bots[seat].decide(game.view(seat), game.legal_actions(), self._rng)
            game.apply(action)
            moves += 1
        if game.is_over:
            self._say(str(game.outcome), "ok")
        elif moves:
            self._say(f"The bots made {moves} move(s); your turn, {game.names[game.current_seat]}.")

    def save(self, name: str | None = None) -> str | None:
        """Save the game as ``name`` (default: the game, seed and time) in :attr:`save_dir`;
        return the path written, or None when the status line says why not."""
        return self._guard.run("saving", self._save, name)

    def _default_file_name(self) -> str:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return (
            re.sub(r"[^A-Za-z0-9_-]+", "_", f"{self.spec.name}-seed{self.game.seed}-{stamp}")
            + ".json"
        )

    def _save(self, name: str | None) -> str | None:
        try:
            path = self._files.inside(name if name is not None else self._default_file_name())
        except ValueError as exc:
            self._say(f"Cannot save: {exc}.", "error")
            return None
        written, note = self._files.write(self.game, path)
        if written is None:
            self._say(note, "error")
            return None
        self._say(
            saved_text(len(self.game.actions), written) + note,
            "warn" if note else "ok",
        )
        return str(written)

    def undo(self) -> None:
        """Take back the last human move and the bot moves after it."""
        game = self.game
        humans = [i for i, a in enumerate(game.actions) if self.seats.get(a.seat) == HUMAN]
        if not humans:
            self._say("Nothing of yours to undo.", "warn")
            return
        game.undo(len(game.actions) - humans[-1])
        self._say("Took back your last move.", "info")

    def _refresh(self) -> None:
        self.picture.value = self.png()
        legal = self.game.legal_actions()
        self.choice.options = [(self.label(a), i) for i, a in enumerate(legal)]
        self.choice.value = 0 if legal else None
        self.choice.disabled = self.apply_button.disabled = not legal
