"""PlayApp: play a game in a notebook, humans click and bots answer."""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections.abc import Mapping
from typing import Any

import ipywidgets as W
from traitlets import TraitError

from .. import bots as _bots
from ..actions import Action
from ..engine import IllegalActionError
from ..game import Game, load_file, load_game
from .common import _Guard
from .panels import _PlayView

HUMAN = "human"
DEFAULT_SEATS: dict[int, Any] = {0: HUMAN, 1: "FossilRush", 2: "green", 3: "random"}
_SEAT_RE = re.compile(r"\b([Ss])eat (\d+)\b")


def _is_human(spec: Any) -> bool:
    return isinstance(spec, str) and spec.strip().lower() in (HUMAN, "you", "me")


def _bot_label(bot: Any) -> str:
    return str(getattr(bot, "name", None) or type(bot).__name__)


class PlayApp(_PlayView):
    """Play a game in a notebook: humans click, bots answer.

    ``seats`` maps each seat to ``"human"`` or a bot accepted by
    :func:`energies.bots.make_bot` (a persona name such as ``"green"``, a class name such
    as ``"FossilRush"``, a bot class or a bot object); several human seats play hot-seat.
    ``step_delay`` (seconds) pauses after each bot move while "Bots play until my turn"
    runs, redrawing the board each time, for teacher demos. ``auto_bots`` lets the bots
    answer right after each human move. ``chart=False`` leaves out the live footprint
    chart (the slowest part of a turn change, a few tenths of a second) on slow machines.
    ``board_size`` (inches) and ``board_dpi`` set the board picture's size.

    ``app.widget`` is the top-level box (shown when the app is the last value of a cell).
    """

    def __init__(
        self,
        game: Game,
        seats: Mapping[int, Any] | list | None = None,
        step_delay: float = 0.0,
        *,
        auto_bots: bool = False,
        board_size: float = 6.0,
        board_dpi: int = 80,
        chart: bool = True,
        max_bot_actions: int = 20_000,
    ) -> None:
        if not isinstance(game, Game):
            raise TypeError("PlayApp needs a Game (see energies.new_game).")
        if step_delay < 0:
            raise ValueError("step_delay must be 0 or more seconds.")
        self.game = game
        self.step_delay = float(step_delay)
        self.board_size = (float(board_size), float(board_size))
        self.board_dpi = board_dpi
        self.max_bot_actions = max_bot_actions
        self.chart = bool(chart)
        self._set_seats(seats)
        self._busy: str | None = None
        self._guard = _Guard(self)
        self.ignored_clicks = 0
        self.last_error: str | None = None
        self._generation = 0  # bumped by undo and load: the chart must be redrawn
        self._chart_key: tuple | None = None
        self._actions_key: tuple | None = None
        self.chart_redraws = 0
        self._defer_chart = False
        self.timings: dict[str, float] = {}
        self._legal: list[Action] = []
        self._viewer = min(self.humans) if self.humans else 0
        self.action_buttons: list[W.Button] = []
        self.decision_buttons: list[W.Button] = []
        self.turn_buttons: list[W.Button] = []
        self.action_dropdowns: list[tuple[W.Dropdown, W.Button]] = []
        self._owned: list[W.Widget] = []  # per-refresh widgets, closed when replaced
        self._build()
        self._say("Welcome! " + self._hint())
        self._refresh()

    # -- seats ---------------------------------------------------------------------------------

    def _set_seats(self, seats) -> None:
        players = self.game.rules.players
        if seats is None:
            seats = {s: spec for s, spec in DEFAULT_SEATS.items() if s < players}
        elif isinstance(seats, (list, tuple)):
            seats = dict(enumerate(seats))
        if not isinstance(seats, Mapping):
            raise TypeError('seats must map each seat to "human" or a bot, e.g. {0: "human", ...}.')
        extra = sorted(s for s in seats if not (isinstance(s, int) and 0 <= s < players))
        missing = [s for s in range(players) if s not in seats]
        if extra or missing:
            raise ValueError(
                f"seats must name seats 0..{players - 1} exactly"
                + (f" (no seat {extra})" if extra else "")
                + (f" (missing {missing})" if missing else "")
                + "."
            )
        self.seats = {s: seats[s] for s in range(players)}
        self.humans = frozenset(s for s, spec in self.seats.items() if _is_human(spec))
        # no seed: the bots break ties with the rng passed to decide(), seeded per position
        self.bots = {
            s: _bots.make_bot(spec) for s, spec in self.seats.items() if s not in self.humans
        }

    def _name(self, seat: int) -> str:
        names = self.game.names
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"

    def _named(self, text: str) -> str:
        """Replace "seat 2" in engine texts by the seat's name."""
        names = self.game.names

        def sub(m):
            s = int(m.group(2))
            return names[s] if 0 <= s < len(names) else m.group(0)

        return _SEAT_RE.sub(sub, text)

    def _who(self, seat: int) -> str:
        return "human" if seat in self.humans else _bot_label(self.bots[seat])

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    # -- public API ----------------------------------------------------------------------------

    @property
    def legal_actions(self) -> list[Action]:
        """The actions shown as buttons (the current human seat's legal actions)."""
        return list(self._legal)

    @property
    def prompt_text(self) -> str:
        return self._prompt_text()

    @property
    def roll_button(self) -> W.Button | None:
        return next((b for b in self.turn_buttons if b.action.kind == "roll_dice"), None)

    @property
    def end_turn_button(self) -> W.Button | None:
        return next((b for b in self.turn_buttons if b.action.kind == "end_turn"), None)

    def buttons(self, kind: str) -> list[W.Button]:
        """The action buttons of one action kind ("build_road", "discard_card", ...)."""
        return [b for b in self.action_buttons if b.action.kind == kind]

    def click(self, action_or_index: Action | int) -> bool:
        """Apply a human action as if its button were clicked (an index counts in
        :attr:`legal_actions`); return True when it was applied."""
        return bool(self._guard.run("applying your move", self._human_move, action_or_index))

    def try_action(self, action: Action) -> bool:
        """Like :meth:`click`; an illegal action shows its reason in the status line."""
        return self.click(action)

    def play_bots(self) -> int:
        """Let the bots decide until a human must decide or the game ends; return the moves made."""
        return self._guard.run("the bots are playing", self._play_bots) or 0

    def step(self) -> bool:
        """One bot decision; return True when a bot moved."""
        return bool(self._guard.run("a bot is moving", self._step))

    def undo(self) -> int:
        """Undo back to the previous human decision; return how many actions were undone."""
        return self._guard.run("undoing", self._undo) or 0

    def refresh(self) -> None:
        """Redraw everything from the game (after changing it outside the app, e.g. sandbox)."""
        self._actions_key = None
        self._guard.run("redrawing", lambda: None)

    def save(self, path=None) -> str | None:
        """Write the save file (to ``path`` or the file name box); return the path."""
        return self._guard.run("saving", self._save, path)

    def load(self, path=None) -> bool:
        """Load a save file (from ``path`` or the file name box); a bad file shows why."""
        return bool(self._guard.run("loading", self._load_path, path))

    def load_text(self, text: str | bytes) -> bool:
        """Load a game from the text of a save file."""
        return bool(
            self._guard.run("loading", lambda: self._load_game(load_game(text), "the text"))
        )

    # -- handlers (run inside the guard) -------------------------------------------------------

    def _human_move(self, choice) -> bool:
        g = self.game
        start = time.perf_counter()
        if isinstance(choice, int) and not isinstance(choice, bool):
            if not 0 <= choice < len(self._legal):
                self._say(
                    f"There is no action number {choice}: choose 0 to {len(self._legal) - 1}."
                    if self._legal
                    else "There is nothing for you to choose now.",
                    "error",
                )
                return False
            choice = self._legal[choice]
        if not isinstance(choice, Action):
            self._say(f"{choice!r} is not an action.", "error")
            return False
        if g.is_over:
            self._say("The game is over: " + self._named(str(g.outcome)), "error")
            return False
        if choice.seat not in self.humans:
            self._say(
                f"{self._name(choice.seat)} is played by a bot ({self._who(choice.seat)}); "
                "use “Step” or “Bots play until my turn”.",
                "error",
            )
            return False
        text = self._named(g.describe(choice))
        try:
            g.apply(choice)
        except IllegalActionError as exc:
            self._say(exc.reason, "error")
            return False
        self.timings["apply"] = time.perf_counter() - start
        self._viewer = choice.seat
        if not g.is_over and g.current_seat not in self.humans and not self.auto_bots.value:
            # a bot moves next: the chart waits for "Bots play" (one redraw per turn, not two)
            self._defer_chart = True
        message = text + "."
        if self.auto_bots.value and not g.is_over and g.current_seat not in self.humans:
            moves = self._run_bots()
            message += f" The bots made {moves} move(s)."
        self._say(message, "ok")
        return True

    def _bot_move(self) -> Action:
        g = self.game
        seat = g.current_seat
        bot = self.bots[seat]
        legal = g.legal_actions()
        rng = random.Random(f"{g.seed}:playapp:{len(g.actions)}")
        action = bot.decide(g, legal, rng)
        try:
            g.apply(action)
        except IllegalActionError as exc:
            raise RuntimeError(
                f"the bot of {self._name(seat)} ({_bot_label(bot)}) chose an illegal action: "
                f"{exc.reason}"
            ) from None
        return action

    def _run_bots(self) -> int:
        g, moves = self.game, 0
        while not g.is_over and g.current_seat not in self.humans:
            if moves >= self.max_bot_actions:
                raise RuntimeError(f"the bots stopped after {moves} moves (max_bot_actions)")
            self._bot_move()
            moves += 1
            if self.step_delay > 0:
                self._refresh()
                time.sleep(self.step_delay)
        return moves

    def _play_bots(self) -> int:
        g = self.game
        if g.is_over:
            self._say("The game is over: " + self._named(str(g.outcome)), "info")
            return 0
        if g.current_seat in self.humans:
            self._say(f"It is {self._name(g.current_seat)}'s move: " + self._task() + ".", "info")
            return 0
        start = time.perf_counter()
        moves = self._run_bots()
        self.timings["bots"] = time.perf_counter() - start
        self._say(f"The bots made {moves} move(s). " + self._hint(), "ok")
        return moves

    def _step(self) -> bool:
        g = self.game
        if g.is_over:
            self._say("The game is over: " + self._named(str(g.outcome)), "info")
            return False
        if g.current_seat in self.humans:
            self._say(f"No bot to step: {self._name(g.current_seat)} must decide.", "info")
            return False
        action = self._bot_move()
        self._say(f"Step: {self._named(g.describe(action))}.", "ok")
        return True

    def _undo(self) -> int:
        g = self.game
        if self.humans:
            last = next(
                (i for i in range(len(g.actions) - 1, -1, -1) if g.actions[i].seat in self.humans),
                None,
            )
        else:
            last = len(g.actions) - 1 if g.actions else None
        if last is None:
            self._say("Nothing to undo: no human move yet.", "info")
            return 0
        steps = len(g.actions) - last
        g.undo(steps)
        self._generation += 1
        who = self._name(g.current_seat) if g.current_seat is not None else "nobody"
        self._say(f"Undid {steps} action(s): back to {who}'s decision ({self._task()}).", "ok")
        return steps

    def _save(self, path) -> str:
        path = str(path if path is not None else self.filename.value).strip()
        if not path:
            raise ValueError("type a file name first")
        try:
            path = self.game.save(path)  # a browser kernel may keep it in memory (energies.lite)
        except OSError as exc:
            self._say(f"Cannot save to {path}: {exc.strerror or exc}.", "error")
            return None
        self._say(f"Saved {len(self.game.actions)} actions to {path}.", "ok")
        return path

    def _load_path(self, path) -> bool:
        path = str(path if path is not None else self.filename.value).strip()
        if not path:
            raise ValueError("type a file name first")
        return self._load_game(load_file(path), path)

    def _load_game(self, game: Game, source: str) -> bool:
        note = ""
        if game.rules.players != len(self.seats):
            seats = {s: self.seats.get(s, "random") for s in range(game.rules.players)}
            self.game = game
            self._set_seats(seats)
            note = f" It has {game.rules.players} seats: the seats are now {self._seat_list()}."
        self.game = game
        self._generation += 1
        self._actions_key = None
        self._say(f"Loaded {source}: turn {game.turn}, {len(game.actions)} actions.{note}", "ok")
        return True

    def _seat_list(self) -> str:
        return ", ".join(f"{self._name(s)} = {self._who(s)}" for s in sorted(self.seats))

    def _on_upload(self, change) -> None:
        value = change.get("new")
        if not value:
            return
        items = list(value.values()) if isinstance(value, dict) else list(value)
        item = items[0]
        content = item.get("content") if isinstance(item, dict) else getattr(item, "content", b"")
        name = item.get("name", "the upload") if isinstance(item, dict) else "the upload"

        def load():
            return self._load_game(load_game(bytes(content)), name)

        self._guard.run("loading", load)
        with contextlib.suppress(TraitError, TypeError, ValueError):
            self.upload.value = ()  # so that the same file can be uploaded again

    # -- prompt texts --------------------------------------------------------------------------

    def _task(self) -> str:
        g = self.game
        if g.is_over:
            return "the game is over"
        if g.pending:
            return g.pending
        if g.state.phase == "roll":
            return "roll the dice (a development card may be played first)"
        return "build, trade, use energy, or end your turn"

    def _hint(self) -> str:
        g = self.game
        if g.is_over:
            return "The game is over."
        if g.current_seat in self.humans:
            return f"{self._name(g.current_seat)}, your move."
        return "Press “Bots play until my turn” (or “Step” for one bot move)."

    def _prompt_text(self) -> str:
        g = self.game
        if g.is_over:
            return f"Game over after turn {g.turn}: {self._named(str(g.outcome))}"
        seat = g.current_seat
        if seat in self.humans:
            return f"{self._name(seat)}, your move: {self._task()}"
        return f"{self._name(seat)} ({self._who(seat)}) must {self._task()}"
