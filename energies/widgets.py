"""Jupyter widgets: play against bots (PlayApp), replay a game's footprint, try rule variants.

    import energies as en
    from energies.widgets import PlayApp, FootprintExplorer, RulesPanel

    app = PlayApp(en.new_game(seed=7), seats={0: "human", 1: "fossil", 2: "green", 3: "random"})
    app                      # shows the app in a notebook
    FootprintExplorer(game)  # slide through the turns of a (finished) game
    RulesPanel()             # change a few rules, run a small simulation, compare outcomes

``import energies`` does not import this module (it needs ipywidgets); import it
explicitly. matplotlib is imported only when a chart is drawn.

Everything a click does can also be done from Python, so the widgets are testable
without a browser: ``app.click(0)``, ``app.play_bots()``, ``app.step()``,
``app.undo()``, or ``app.bots_button.click()`` and ``button.click()`` on any button in
``app.action_buttons`` (each carries its action as ``button.action``).

Every handler catches its errors and shows a sentence in the status line: an
illegal action shows the engine's reason (:class:`~energies.IllegalActionError`),
a corrupt save file the :class:`~energies.SaveFileError` message. While a handler
runs (bots playing, a simulation), further clicks are ignored, so rapid repeated
clicks cannot interleave two changes of the game.
"""

from __future__ import annotations

import contextlib
import html
import io
import random
import re
import time
import traceback
from collections import Counter
from collections.abc import Mapping
from typing import Any

import ipywidgets as W
from traitlets import TraitError

from . import bots as _bots
from .actions import Action, EndTurn, pretty
from .engine import IllegalActionError
from .game import Game, SaveFileError, load_file, load_game, new_game
from .rules import RESOURCES, RuleSet
from .viz import board_png, plot_footprint, seat_color

__all__ = ["FootprintExplorer", "PlayApp", "RulesPanel", "footprint_png"]

HUMAN = "human"
DEFAULT_SEATS: dict[int, Any] = {0: HUMAN, 1: "FossilRush", 2: "green", 3: "random"}
GROUPS = ("build", "trade", "energy", "cards")  # the tabs; "turn" buttons sit above them
GROUP_TITLES = {"build": "Build", "trade": "Trade", "energy": "Energy", "cards": "Cards"}
KIND_TITLES = {
    "build_road": "Roads",
    "build_town": "Towns",
    "build_city": "Cities",
    "build_plant": "Power plants",
    "trade_with_supply": "Trade with the supply",
    "offer_trade": "Offer a player a trade",
    "remove_hazard": "Remove a hazard (energy)",
    "demolish_fossil": "Demolish a fossil plant (energy)",
    "build_warehouse": "Warehouse",
    "buy_dev_card": "Buy a development card",
    "play_dev_card": "Play a development card",
}
MAX_BUTTONS = 16  # more options of one kind than this: a Dropdown and a "Do it" button
MAX_DECISION_BUTTONS = 60
LOG_LINES = 30
_SEAT_RE = re.compile(r"\b([Ss])eat (\d+)\b")


def _esc(text: str) -> str:
    """HTML-escape a text for element content (quotes stay readable: "seat 3's turn")."""
    return html.escape(str(text), quote=False)


def _is_human(spec: Any) -> bool:
    return isinstance(spec, str) and spec.strip().lower() in (HUMAN, "you", "me")


def _bot_label(bot: Any) -> str:
    return str(getattr(bot, "name", None) or type(bot).__name__)


def _figure_png(fig) -> bytes:
    """PNG bytes of a pyplot-free Figure: one Agg draw and a fast PNG encode (no savefig)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()
    image = Image.frombuffer(
        "RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1
    ).convert("RGB")
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


CHART_SIZE = (9.0, 3.8)  # inches; at CHART_DPI a 576 pixel wide picture
CHART_DPI = 64
_CHART_PX = int(CHART_SIZE[0] * CHART_DPI)


def _footprint_figure(game: Game, figsize=CHART_SIZE, dpi=CHART_DPI):
    """A pyplot-free Figure with plot_footprint drawn in it, titled to fit a widget."""
    from matplotlib.figure import Figure

    # fixed margins instead of a layout engine: a third of the drawing time saved per turn
    fig = Figure(figsize=figsize, dpi=dpi)
    fig.subplots_adjust(left=0.075, right=0.615, bottom=0.13, top=0.8)
    ax = fig.add_subplot()
    plot_footprint(game, ax=ax)
    ax.title.set_text("LF per seat and GF — shading: discs drawn per event phase (rule 4.3)")
    ax.title.set_fontsize(11)
    return fig, ax


def footprint_png(
    game: Game, *, figsize=CHART_SIZE, dpi=CHART_DPI, turn: int | None = None
) -> bytes:
    """The footprint chart (:func:`energies.viz.plot_footprint`) as PNG bytes, no pyplot.

    ``turn`` adds a vertical line at that turn.
    """
    fig, ax = _footprint_figure(game, figsize, dpi)
    if turn is not None:
        ax.axvline(turn, color="#E6007E", linewidth=2, linestyle="--", gid="turn-line", zorder=6)
    return _figure_png(fig)


class _Guard:
    """The busy flag shared by a widget's handlers: one change of the game at a time."""

    def __init__(self, owner) -> None:
        self.owner = owner

    def run(self, what: str, fn, *args, **kwargs):
        owner = self.owner
        if owner._busy:
            owner.ignored_clicks += 1
            owner._say(f"Busy ({owner._busy}): that click was ignored.", "warn")
            return None
        owner._busy = what
        result = None
        try:
            result = fn(*args, **kwargs)
        except IllegalActionError as exc:
            owner._say(exc.reason, "error")
        except SaveFileError as exc:
            owner._say(str(exc), "error")
        except Exception as exc:  # noqa: BLE001 - a handler never shows a traceback
            owner.last_error = traceback.format_exc()
            owner._say(f"Something went wrong while {what}: {exc}", "error")
        finally:
            owner._busy = None
        try:
            owner._refresh()
        except Exception as exc:  # noqa: BLE001 - keep the picture, never raise into the frontend
            owner.last_error = traceback.format_exc()
            owner._say(f"Could not redraw: {exc}", "error")
        return result


_STATUS_COLORS = {"ok": "#1B5E20", "info": "#333333", "warn": "#8A5A00", "error": "#B00020"}


class _StatusMixin:
    status: W.HTML
    status_text: str = ""
    status_kind: str = "info"

    def _say(self, text: str, kind: str = "info") -> None:
        self.status_text, self.status_kind = text, kind
        color = _STATUS_COLORS.get(kind, "#333333")
        icon = {"error": "⚠ ", "warn": "⏳ "}.get(kind, "")
        self.status.value = (
            f'<div class="energies-status energies-{kind}" style="color:{color};min-height:1.4em">'
            f"{icon}{_esc(text)}</div>"
        )

    def _refresh(self) -> None:  # pragma: no cover - overridden
        pass

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


# ==============================================================================================
# PlayApp
# ==============================================================================================


class PlayApp(_StatusMixin):
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

    # -- widgets -------------------------------------------------------------------------------

    def _build(self) -> None:
        px = int(self.board_size[0] * self.board_dpi)
        self._button_layout = W.Layout(width="auto", margin="2px")
        self._button_style = W.ButtonStyle()
        self.prompt = W.HTML()
        self.status = W.HTML()
        self.board_image = W.Image(format="png", layout=W.Layout(width=f"{px}px", max_width="100%"))
        self.vp_lf_html = W.HTML()
        self.hand_html = W.HTML()
        self.log_html = W.HTML(layout=W.Layout(width="420px", max_width="100%"))
        self.chart_image = W.Image(
            format="png",
            layout=W.Layout(
                width=f"{_CHART_PX}px", max_width="100%", display=None if self.chart else "none"
            ),
        )

        self.bots_button = W.Button(
            description="Bots play until my turn",
            button_style="primary",
            icon="forward",
            tooltip="Let the bots decide until a human must decide or the game ends",
            layout=W.Layout(width="auto"),
        )
        self.step_button = W.Button(
            description="Step",
            icon="step-forward",
            tooltip="One bot decision",
            layout=W.Layout(width="auto"),
        )
        self.undo_button = W.Button(
            description="Undo",
            icon="undo",
            tooltip="Back to the previous human decision (bot moves after it are undone too)",
            layout=W.Layout(width="auto"),
        )
        self.auto_bots = W.Checkbox(value=False, description="Bots answer at once", indent=False)
        self.bots_button.on_click(lambda _b: self.play_bots())
        self.step_button.on_click(lambda _b: self.step())
        self.undo_button.on_click(lambda _b: self.undo())

        self.decision_title = W.HTML()
        self.decision_area = W.Box(layout=W.Layout(flex_flow="row wrap"))
        self.decision_box = W.VBox(
            [self.decision_title, self.decision_area],
            layout=W.Layout(border="3px solid #E69F00", padding="4px", display="none"),
        )
        self.turn_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.group_boxes = {g: W.VBox() for g in GROUPS}
        self.action_tabs = W.Tab(children=[self.group_boxes[g] for g in GROUPS])
        self.action_tabs.titles = tuple(GROUP_TITLES[g] for g in GROUPS)

        self.filename = W.Text(value="energies-game.json", description="File:")
        self.save_button = W.Button(description="Save", icon="save", layout=W.Layout(width="auto"))
        self.load_button = W.Button(
            description="Load", icon="folder-open", layout=W.Layout(width="auto")
        )
        self.upload = W.FileUpload(accept=".json", multiple=False, description="Upload a save")
        self.save_button.on_click(lambda _b: self.save())
        self.load_button.on_click(lambda _b: self.load())
        self.upload.observe(self._on_upload, names="value")
        files = W.HBox(
            [self.filename, self.save_button, self.load_button, self.upload],
            layout=W.Layout(flex_flow="row wrap"),
        )

        controls = W.HBox(
            [self.bots_button, self.step_button, self.undo_button, self.auto_bots],
            layout=W.Layout(flex_flow="row wrap", align_items="center"),
        )
        side = W.VBox([self.vp_lf_html, self.hand_html], layout=W.Layout(padding="0 0 0 8px"))
        self.widget = W.VBox(
            [
                self.prompt,
                self.status,
                W.HBox([self.board_image, side], layout=W.Layout(flex_flow="row wrap")),
                controls,
                self.decision_box,
                self.turn_box,
                self.action_tabs,
                W.HBox([self.chart_image, self.log_html], layout=W.Layout(flex_flow="row wrap")),
                files,
            ]
        )

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
            self.game.save(path)
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

    def _on_action_button(self, button) -> None:
        self.click(button.action)

    def _on_do_it(self, button) -> None:
        dropdown, actions = button.dropdown, button.choices
        index = dropdown.value
        if index is None or not 0 <= index < len(actions):
            self._say("Choose an option first.", "error")
            return
        self.click(actions[index])

    # -- drawing -------------------------------------------------------------------------------

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

    def _refresh(self) -> None:
        start = time.perf_counter()
        g = self.game
        seat = g.current_seat
        human = seat is not None and seat in self.humans
        if human:
            self._viewer = seat
        legal = g.legal_actions() if human else []
        self._legal = legal

        s = g.state
        active = self._name(s.active)
        dice = f" · dice {s.dice[0]}+{s.dice[1]}" if s.dice else ""
        color = seat_color(seat) if seat is not None else "#333"
        self.prompt.value = (
            f'<div class="energies-prompt" style="font-size:1.3em;font-weight:bold;'
            f'border-left:8px solid {color};padding-left:6px">{_esc(self._prompt_text())}'
            f'</div><div style="color:#555">Turn {s.turn} · {_esc(active)}\'s turn{dice}'
            f"</div>"
        )

        t = time.perf_counter()
        if human and g.pending:
            highlight = legal
        elif human:
            highlight = [a for a in legal if a.group == "build"]
        else:
            highlight = None
        self.board_image.value = board_png(
            g, highlight=highlight, figsize=self.board_size, dpi=self.board_dpi
        )
        self.timings["board"] = time.perf_counter() - t

        t = time.perf_counter()
        self.vp_lf_html.value = self._table_html()
        self.hand_html.value = self._hand_html()
        self.log_html.value = self._log_html()
        self.timings["readouts"] = time.perf_counter() - t

        t = time.perf_counter()
        key = (self._generation, len(g.history), len(g.events))
        defer, self._defer_chart = self._defer_chart, False
        if key != self._chart_key and not defer and self.chart:
            self.chart_image.value = footprint_png(g)
            self._chart_key = key
            self.chart_redraws += 1
            self.timings["chart"] = time.perf_counter() - t
        else:
            self.timings["chart"] = 0.0

        t = time.perf_counter()
        # the same options keep their buttons (a discard of several cards, a new roll phase)
        key = (self._generation, seat, g.pending, tuple(legal))
        if key != self._actions_key:
            self._show_actions(legal, seat if human else None)
            self._actions_key = key
        self.timings["actions"] = time.perf_counter() - t

        over = g.is_over
        self.bots_button.disabled = over or human
        self.step_button.disabled = over or human
        self.undo_button.disabled = (
            not any(a.seat in self.humans for a in g.actions) if self.humans else not g.actions
        )
        self.timings["refresh"] = time.perf_counter() - start

    def _table_html(self) -> str:
        g, s = self.game, self.game.state
        current = g.current_seat
        rows = []
        num = 'style="padding:1px 6px;text-align:right"'
        for p in s.players:
            seat = p.seat
            marks = " ▶" if seat == s.active else ""
            if seat == current and seat != s.active:
                marks += " <i>(deciding)</i>"
            style = "background:#FFF4D6;" if seat == current else ""
            rows.append(
                f'<tr data-seat="{seat}" style="{style}">'
                f'<td style="padding:1px 6px"><span style="display:inline-block;width:0.9em;'
                f'height:0.9em;background:{seat_color(seat)};border:1px solid #333"></span> '
                f"<b>{_esc(self._name(seat))}</b>{marks}</td>"
                f'<td style="padding:1px 6px;color:#555">{_esc(self._who(seat))}</td>'
                f'<td class="vp" {num}><b>{s.victory_points(seat)}</b></td>'
                f'<td class="lf" {num}>{s.local_footprint(seat)}</td>'
                f"<td {num}>{p.count_plants('fossil')} / {p.count_plants('renewable')}</td>"
                f"<td {num}>{p.cards}</td><td {num}>{p.energy}</td>"
                f"<td {num}>{len(p.dev_cards)}</td></tr>"
            )
        gf = s.global_footprint
        if g.is_over:
            tail = _esc(self._named(str(g.outcome)))
        else:
            discs = s.rules.discs_to_draw(gf)
            tail = f"next event phase draws <b>{discs}</b> disc{'s' * (discs != 1)}"
        return (
            '<table class="energies-scores" style="border-collapse:collapse"><tr>'
            + "".join(
                f'<th style="padding:1px 6px">{h}</th>'
                for h in ("Seat", "", "VP", "LF", "fossil / renewable", "cards", "energy", "dev")
            )
            + "</tr>"
            + "".join(rows)
            + "</table>"
            f'<div class="energies-gf" style="margin-top:4px">GF <b class="gf">{gf}</b> of '
            f"{s.rules.gf_max} · {tail} · bag {len(s.bag)} discs · "
            f"first to {s.rules.victory_points} VP wins</div>"
        )

    def _hand_html(self) -> str:
        g = self.game
        seat = (
            self._viewer
            if self.humans
            else (g.current_seat if g.current_seat is not None else g.active_seat)
        )
        p = g.state.players[seat]
        cards = " · ".join(f"{k} <b>{p.hand[k]}</b>" for k in RESOURCES)
        dev = Counter(p.dev_cards)
        new = Counter(p.dev_new)
        dev_text = (
            ", ".join(
                f"{pretty(c)} ×{n}" + (f" ({new[c]} new)" if new[c] else "")
                for c, n in sorted(dev.items())
            )
            or "none"
        )
        limit = g.rules.discard_threshold
        warn = (
            f' <span style="color:#B00020">(more than {limit}: a 7 costs half)</span>'
            if (p.cards > limit)
            else ""
        )
        return (
            f'<div class="energies-hand" data-seat="{seat}" style="margin-top:8px">'
            f"<b>Hand of {_esc(self._name(seat))}</b><br>{cards}<br>"
            f"science <b>{p.hand['science']}</b> · energy <b>{p.energy}</b> of {g.rules.energy_cap}"
            f" · cards {p.cards}{warn}<br>development cards: {_esc(dev_text)}"
            f"{' · warehouse' if p.warehouse else ''}</div>"
        )

    def _log_html(self) -> str:
        g = self.game
        lines = []
        for line in g.log[-LOG_LINES:]:
            if line.startswith("—"):
                style = "font-weight:bold;border-top:1px solid #ccc;margin-top:3px"
            elif line.startswith("Event:"):
                style = "color:#8B3A00;font-weight:bold"
            elif "disc drawn" in line:
                style = f"color:{'#007A55' if line.startswith('Green') else '#6B4226'};font-style:italic"
            elif line.startswith("Game over"):
                style = "font-weight:bold;color:#B00020"
            else:
                style = ""
            lines.append(f'<div style="margin:0;{style}">{_esc(self._named(line))}</div>')
        events = g.events
        if events:
            green = sum(1 for e in events if e.get("color") == "green")
            last = events[-1]
            summary = (
                f"{len(events)} event(s) so far ({len(events) - green} brown, {green} green); "
                f"last: {pretty(str(last['event']))} on turn {last['turn']}"
            )
        else:
            summary = "No event has fired yet (a row fires when it is full)."
        return (
            f'<div class="energies-events" style="color:#555">{_esc(summary)}</div>'
            '<div class="energies-log" style="height:300px;overflow-y:auto;display:flex;'
            "flex-direction:column-reverse;border:1px solid #ddd;padding:4px;font-size:0.9em;"
            'line-height:1.35">'
            f"<div>{''.join(lines)}</div></div>"
        )

    # -- action buttons ------------------------------------------------------------------------

    def _button(self, action: Action, style: str = "") -> W.Button:
        label = self._named(self.game.describe(action))
        b = W.Button(
            description=label,
            tooltip=label,
            button_style=style,
            layout=self._button_layout,
            style=self._button_style,
        )
        b.action = action
        b.on_click(self._on_action_button)
        self.action_buttons.append(b)
        self._owned.append(b)
        return b

    def _kind_widgets(self, kind: str, actions: list[Action], limit: int, style="") -> list:
        if len(actions) <= limit:
            return [self._button(a, style) for a in actions]
        labels = [(self._named(self.game.describe(a)), i) for i, a in enumerate(actions)]
        dropdown = W.Dropdown(options=labels, value=0, layout=W.Layout(width="auto"))
        do_it = W.Button(
            description="Do it",
            button_style=style or "info",
            icon="check",
            layout=W.Layout(width="auto"),
        )
        do_it.dropdown, do_it.choices = dropdown, list(actions)
        do_it.on_click(self._on_do_it)
        self.action_dropdowns.append((dropdown, do_it))
        row = W.HBox([dropdown, do_it])
        self._owned += [dropdown, do_it, row]
        return [row]

    def _show_actions(self, legal: list[Action], seat: int | None) -> None:
        old = self._owned
        self._owned = []
        self.action_buttons, self.decision_buttons, self.turn_buttons = [], [], []
        self.action_dropdowns = []
        g = self.game

        if seat is not None and g.pending:
            self.decision_title.value = (
                f'<b style="font-size:1.15em">{_esc(self._name(seat))}, decide now: '
                f"{_esc(g.pending)}</b>"
            )
            by_kind: dict[str, list[Action]] = {}
            for a in legal:
                by_kind.setdefault(a.kind, []).append(a)
            children = []
            for kind, actions in by_kind.items():
                children += self._kind_widgets(kind, actions, MAX_DECISION_BUTTONS, "warning")
            self.decision_buttons = list(self.action_buttons)
            self.decision_area.children = children
            self.decision_box.layout.display = "flex"
            self.turn_box.children = []
            for group in GROUPS:
                self.group_boxes[group].children = [self._note("Decide first (see above).")]
            self.action_tabs.titles = tuple(GROUP_TITLES[g_] for g_ in GROUPS)
        else:
            self.decision_box.layout.display = "none"
            self.decision_area.children = []
            groups: dict[str, list[Action]] = {group: [] for group in GROUPS}
            turn: list[Action] = []
            for a in legal:
                groups.get(a.group, turn).append(a)
            self.turn_box.children = [
                self._button(
                    a,
                    "success"
                    if a.kind == "roll_dice"
                    else "danger"
                    if isinstance(a, EndTurn)
                    else "",
                )
                for a in turn
            ]
            self.turn_buttons = list(self.action_buttons)
            titles = []
            for group in GROUPS:
                actions = groups[group]
                titles.append(f"{GROUP_TITLES[group]} ({len(actions)})")
                if seat is None:
                    wait = "The game is over." if g.is_over else "Waiting for the bots."
                    self.group_boxes[group].children = [self._note(wait)]
                    continue
                if not actions:
                    self.group_boxes[group].children = [self._note("Nothing possible now.")]
                    continue
                by_kind = {}
                for a in actions:
                    by_kind.setdefault(a.kind, []).append(a)
                children = []
                for kind, acts in by_kind.items():
                    title = KIND_TITLES.get(kind, kind.replace("_", " ").capitalize())
                    children.append(self._note(f"<b>{_esc(title)}</b>", raw=True))
                    items = self._kind_widgets(kind, acts, MAX_BUTTONS)
                    box = W.Box(items, layout=W.Layout(flex_flow="row wrap"))
                    self._owned.append(box)
                    children.append(box)
                self.group_boxes[group].children = children
            self.action_tabs.titles = tuple(titles)
        for widget in old:
            widget.close()

    def _note(self, text: str, raw: bool = False) -> W.HTML:
        note = W.HTML(text if raw else f"<i>{_esc(text)}</i>")
        self._owned.append(note)
        return note


# ==============================================================================================
# FootprintExplorer
# ==============================================================================================


class FootprintExplorer(_StatusMixin):
    """Slide through the turns of a game: the board at each turn's end and the footprint chart.

    The game is replayed once from its seed and action log; the position at the end of
    every turn is kept (``explorer.states[turn]``), so moving the slider only redraws.
    For a game still in progress, :meth:`update` replays the new turns.
    """

    def __init__(self, game: Game, *, board_size: float = 5.5, board_dpi: int = 80) -> None:
        if not isinstance(game, Game):
            raise TypeError("FootprintExplorer needs a Game.")
        self.game = game
        self.board_size = (float(board_size), float(board_size))
        self.board_dpi = board_dpi
        self._busy: str | None = None
        self.ignored_clicks = 0
        self.last_error: str | None = None
        self.status = W.HTML()
        self.slider = W.IntSlider(
            description="Turn",
            continuous_update=False,
            layout=W.Layout(width="560px", max_width="100%"),
        )
        self.info_html = W.HTML()
        px = int(self.board_size[0] * board_dpi)
        self.board_image = W.Image(format="png", layout=W.Layout(width=f"{px}px", max_width="100%"))
        self.chart_image = W.Image(
            format="png", layout=W.Layout(width=f"{_CHART_PX}px", max_width="100%")
        )
        self.widget = W.VBox(
            [
                self.slider,
                self.status,
                self.info_html,
                W.HBox([self.board_image, self.chart_image], layout=W.Layout(flex_flow="row wrap")),
            ]
        )
        self.update()
        self.slider.observe(self._on_turn, names="value")

    def update(self) -> None:
        """Replay the game (again) and show its last turn."""
        self.states = self._replay(self.game)
        self._chart = None
        self._chart_cache: dict[int, bytes] = {}
        turns = sorted(self.states)
        self._busy = "updating"  # the slider's observer waits: one drawing below
        try:
            self.slider.min = 0
            self.slider.max = turns[-1]
            self.slider.min = turns[0]
            self.slider.value = turns[-1]
        finally:
            self._busy = None
        self._show(turns[-1])

    @staticmethod
    def _replay(game: Game) -> dict[int, Game]:
        """The position at the end of every turn: a fork before each EndTurn, plus the end.

        Turn 0 is the set-up (the start position of a quick start, the last set-up placement
        of a draft start).
        """
        replay = new_game(seed=game.seed, rules=game.rules, names=game.names)
        states: dict[int, Game] = {}
        turns = {record["turn"] for record in game.history}
        if replay.turn - 1 in turns:  # quick start: the set-up position is turn 0
            states[replay.turn - 1] = replay.fork()
        for action in game.actions:
            if isinstance(action, EndTurn):
                states[replay.turn] = replay.fork()
                replay.apply(action)
            elif replay.state.phase == "setup":  # draft start: the set-up is turn 0
                turn = replay.turn
                replay.apply(action)
                states[turn] = replay.fork()
            else:
                replay.apply(action)
        states[replay.turn] = replay
        return states

    def state_at(self, turn: int) -> Game:
        """The game as it stood at the end of ``turn`` (the nearest earlier turn kept)."""
        turns = sorted(self.states)
        kept = [t for t in turns if t <= turn] or turns[:1]
        return self.states[kept[-1]]

    def show(self, turn: int) -> None:
        """Move the slider to ``turn``."""
        self.slider.value = turn

    def _on_turn(self, change) -> None:
        if self._busy == "updating":
            return
        if self._busy:
            self.ignored_clicks += 1
            return
        self._busy = "drawing"
        try:
            self._show(change["new"])
        except Exception as exc:  # noqa: BLE001 - shown in the status line
            self.last_error = traceback.format_exc()
            self._say(f"Cannot show turn {change['new']}: {exc}", "error")
        finally:
            self._busy = None

    def _chart_png(self, turn: int) -> bytes:
        if turn not in self._chart_cache:
            if self._chart is None:
                fig, ax = _footprint_figure(self.game)
                line = ax.axvline(
                    turn, color="#E6007E", linewidth=2, linestyle="--", gid="turn-line", zorder=6
                )
                self._chart = (fig, line)
            fig, line = self._chart
            line.set_xdata([turn, turn])
            self._chart_cache[turn] = _figure_png(fig)
        return self._chart_cache[turn]

    def _show(self, turn: int) -> None:
        game = self.state_at(turn)
        self.board_image.value = board_png(game, figsize=self.board_size, dpi=self.board_dpi)
        self.chart_image.value = self._chart_png(turn)
        self.info_html.value = self._info(turn, game)
        self.turn = turn

    def _info(self, turn: int, game: Game) -> str:
        names = self.game.names
        rows = [r for r in self.game.history if r["turn"] == turn]
        parts = []
        if rows:
            gf = rows[0]["gf"]
            lf = ", ".join(f"{_esc(names[r['seat']])} LF {r['lf']} / {r['vp']} VP" for r in rows)
            parts.append(f"<b>Turn {turn}</b> · GF <b>{gf}</b> · {lf}")
        else:
            parts.append(f"<b>Turn {turn}</b> · GF <b>{game.global_footprint}</b>")
        fired = [e for e in self.game.events if e["turn"] == turn]
        if fired:
            parts.append(
                "Events: "
                + "; ".join(
                    _esc(f"{pretty(str(e['event']))} ({e.get('color', '')}): {e.get('effect', '')}")
                    for e in fired
                )
            )
        if game.is_over:
            parts.append(_esc(str(game.outcome)))
        return "<br>".join(parts)


# ==============================================================================================
# RulesPanel
# ==============================================================================================


class RulesPanel(_StatusMixin):
    """Change a few rules, run a small simulation and compare how the games end.

    Sliders: the science cost of a renewable plant (rule 10), the spaces of every event
    row (rule 6.3), a shift of the disc-band edges and the discs drawn in the middle band
    (rule 4.3). "Run" plays ``games`` bot games with :func:`energies.simulate.simulate`
    and draws :func:`energies.viz.plot_outcomes` next to the everyone-loses rate of
    every run so far.
    """

    def __init__(
        self,
        bots=("fossil", "green", "balanced", "random"),
        games: int = 40,
        *,
        seed: int = 0,
        jobs: int = 1,
    ) -> None:
        self.bots = list(bots)
        if len(self.bots) not in (3, 4):
            raise ValueError("RulesPanel needs 3 or 4 bots, one per seat.")
        self.base = RuleSet.standard(len(self.bots))
        self.seed, self.jobs = seed, jobs
        self._busy: str | None = None
        self.ignored_clicks = 0
        self.last_error: str | None = None
        self.runs: list[dict[str, Any]] = []
        self.last_frame = None
        self.last_rules: RuleSet | None = None
        bands = self.base.disc_bands
        self._middle = 1 if len(bands) > 2 else 0
        style = {"description_width": "230px"}
        wide = W.Layout(width="520px", max_width="100%")
        self.renewable_cost = W.IntSlider(
            value=dict(self.base.renewable_cost).get("science", 3),
            min=0,
            max=8,
            description="Renewable plant costs (science)",
            style=style,
            layout=wide,
        )
        self.event_spaces = W.IntSlider(
            value=self.base.event_spaces[0][1],
            min=1,
            max=6,
            description="Spaces per event row",
            style=style,
            layout=wide,
        )
        self.band_shift = W.IntSlider(
            value=0,
            min=-(bands[0][1] - bands[0][0]),
            max=bands[-1][1] - bands[-1][0],
            description="Shift the disc-band edges by",
            style=style,
            layout=wide,
        )
        self.middle_discs = W.IntSlider(
            value=bands[self._middle][2],
            min=0,
            max=4,
            description="Discs drawn in the middle band",
            style=style,
            layout=wide,
        )
        self.games = W.IntSlider(
            value=games,
            min=1,
            max=max(200, games),
            description="Games per run",
            style=style,
            layout=wide,
        )
        self.run_button = W.Button(description="Run", icon="play", button_style="primary")
        self.run_button.on_click(lambda _b: self.run())
        self.rules_html = W.HTML()
        self.status = W.HTML()
        self.chart_image = W.Image(format="png", layout=W.Layout(width="900px", max_width="100%"))
        for slider in (self.renewable_cost, self.event_spaces, self.band_shift, self.middle_discs):
            slider.observe(lambda _c: self._show_rules(), names="value")
        self.widget = W.VBox(
            [
                self.renewable_cost,
                self.event_spaces,
                self.band_shift,
                self.middle_discs,
                self.games,
                self.rules_html,
                W.HBox([self.run_button, self.status]),
                self.chart_image,
            ]
        )
        self._say(f"Lineup: {', '.join(map(str, self.bots))}. Press Run.")
        self._show_rules()

    def _bands(self) -> tuple[tuple[int, int, int], ...]:
        shift, bands = self.band_shift.value, self.base.disc_bands
        last = len(bands) - 1
        out = []
        for i, (low, high, discs) in enumerate(bands):
            low = low + shift if i > 0 else low
            high = high + shift if i < last else high
            out.append((low, high, self.middle_discs.value if i == self._middle else discs))
        return tuple(out)

    def current_rules(self) -> RuleSet:
        """The rule set the sliders describe."""
        field = "disc_bands_4p" if self.base.players == 4 else "disc_bands_3p"
        return self.base.replace(
            renewable_cost=(("science", self.renewable_cost.value),),
            event_spaces=tuple((row, self.event_spaces.value) for row, _ in RuleSet().event_spaces),
            **{field: self._bands()},
        )

    def _label(self) -> str:
        return (
            f"renewable {self.renewable_cost.value} · rows {self.event_spaces.value} · "
            f"bands {self.band_shift.value:+d} · middle {self.middle_discs.value}"
        )

    def _show_rules(self) -> None:
        try:
            bands = self.current_rules().disc_bands
        except ValueError as exc:
            self.rules_html.value = f'<span style="color:#B00020">{_esc(str(exc))}</span>'
            return
        text = " · ".join(f"GF {lo}–{hi}: {d} disc{'s' * (d != 1)}" for lo, hi, d in bands)
        self.rules_html.value = f"<small>Disc bands (rule 4.3): {_esc(text)}</small>"

    def _refresh(self) -> None:
        pass

    def run(self):
        """Run the simulation with the rules of the sliders; return the games' DataFrame."""
        return _Guard(self).run("running the simulation", self._run)

    def _run(self):
        from .simulate import simulate

        rules = self.current_rules()
        games = self.games.value
        self._say(f"running… {games} games with {self._label()}", "warn")
        start = time.perf_counter()
        frame = simulate(
            games, self.bots, rules=rules, seed=self.seed, jobs=self.jobs, progress=False
        )
        seconds = time.perf_counter() - start
        rate = float((frame["outcome"] == "everyone_loses").mean())
        self.runs.append({"label": self._label(), "games": games, "everyone_loses": rate})
        self.last_frame, self.last_rules = frame, rules
        self.chart_image.value = self._chart(frame, rate)
        self._say(
            f"Done: {games} games in {seconds:.1f} s; everyone loses in {rate:.0%} of them.", "ok"
        )
        return frame

    def _chart(self, frame, rate: float) -> bytes:
        from matplotlib.figure import Figure

        from .viz import OUTCOME_COLORS, plot_outcomes

        fig = Figure(
            figsize=(12.5, 3.2 + 0.5 * frame["lineup"].nunique()), dpi=72, layout="constrained"
        )
        ax, trend = fig.subplots(1, 2, width_ratios=(3, 2))
        plot_outcomes(frame, ax=ax)
        ax.axvline(rate, color="black", linestyle="--", linewidth=1.5, gid="everyone-loses-rate")
        rates = [r["everyone_loses"] for r in self.runs]
        trend.plot(
            range(1, len(rates) + 1),
            rates,
            marker="o",
            linewidth=2,
            color=OUTCOME_COLORS["everyone_loses"],
            gid="everyone-loses-runs",
        )
        trend.set_ylim(0, 1)
        trend.set_xlim(0.5, len(rates) + 0.5)
        trend.set_xticks(range(1, len(rates) + 1))
        trend.yaxis.set_major_formatter("{x:.0%}")
        trend.set_xlabel("run", fontsize=12)
        trend.set_ylabel("everyone loses", fontsize=12)
        trend.set_title(f"Everyone-loses rate per run (now {rate:.0%})", fontsize=13)
        trend.annotate(
            self.runs[-1]["label"],
            (len(rates), rate),
            textcoords="offset points",
            xytext=(0, 8),
            ha="right",
            fontsize=9,
        )
        return _figure_png(fig)
