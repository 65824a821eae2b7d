"""PlayApp: play a game in a notebook or a Voila page, humans click the board and bots answer."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping
from numbers import Integral, Real
from pathlib import Path
from typing import Any

from ... import bots as _bots
from ...kit.fields import show
from ...newenergies.actions import Action, SandboxEdit, action_from_dict, goods_text
from ...newenergies.engine import IllegalActionError
from ...newenergies.game import Game
from ...newenergies.saves import load_game
from ...newenergies.state import GameState
from ..common import _Guard, seats_problem
from .board import PlayView, board_geometry
from .bot_turns import _BotTurns, bot_label
from .page import _Page
from .proposals import _Proposals
from .saves import _Saves
from .words import Wording

HUMAN = "human"
DEFAULT_SEATS: dict[int, Any] = {0: HUMAN, 1: "FossilRush", 2: "green", 3: "random"}


def _is_human(spec: Any) -> bool:
    return isinstance(spec, str) and spec.strip().lower() in (HUMAN, "you", "me")


class PlayApp(_BotTurns, _Proposals, _Saves, _Page):
    """Play a game in a notebook or a Voila page: humans click the board, bots answer.

    ``seats`` maps each seat to ``"human"`` or a bot accepted by
    :func:`energies.bots.make_bot` (a persona name such as ``"green"``, a class name such
    as ``"FossilRush"``, a bot class or a bot object); several human seats play hot-seat.

    The board is an SVG drawn in the browser (:class:`~energies.widgets.board_view.PlayView`):
    a click on a glowing corner builds a town or city, on a path a road, on a hex a plant
    (a small chooser offers fossil or renewable), moves the Inspector or places a hazard.
    Trades, cards, energy actions and decisions are controls beside the board.

    ``answer_at_once`` (default on): bots answer offers and other decisions inside a human's
    turn at once. ``auto_bots``: bots also play their own turns right after a human ends a
    turn. ``step_delay`` (seconds) pauses after each bot turn while bots play, for teacher
    demos. ``ask_on_bot_turns=False`` passes for the humans when a bot's turn offers them
    a trade proposal (rule 12.1; the page's "Don't ask me on the bots' turns").

    Hot-seat (several human seats at one screen): the humans talk across the table, so the
    app passes for a human asked to propose a trade to another human (rule 12.1); they still
    propose any time from the Trade tab, and ``propose_between_humans=True`` asks them again.
    When the decision moves from one human to another, the page hides the hand behind a
    "pass to ⟨name⟩" screen until that player clicks (:meth:`reveal`).

    ``chart=False`` leaves out the footprint chart and risk meter. ``save_dir`` is the
    only folder the file box reads and writes (default: the current folder, the notebook's;
    a missing folder is made at the first save). ``autosave="group1.json"`` saves the game
    there after every move; when that file already holds this game further on (the cell ran
    again), the app plays on from it. A save never replaces a file that holds another game or
    this game further on: it takes a fresh name (``group1-2.json``) and says so.

    From Python (and in tests) every click has a method: ``app.click(action)``,
    ``app.click_spot("c12")``, ``app.play_bots()``, ``app.step()``, ``app.undo()``,
    ``app.save()``; ``app.message({...})`` handles a message exactly as the page sends it.
    """

    def __init__(
        self,
        game: Game,
        seats: Mapping[int, Any] | list | None = None,
        step_delay: float = 0.0,
        *,
        answer_at_once: bool = True,
        auto_bots: bool = False,
        ask_on_bot_turns: bool = True,
        propose_between_humans: bool = False,
        chart: bool = True,
        save_dir: str | os.PathLike | None = None,
        autosave: str | None = None,
        max_bot_actions: int = 20_000,
    ) -> None:
        if not isinstance(getattr(game, "state", None), GameState):  # the board it draws
            raise TypeError("PlayApp needs a Game (see energies.new_game).")
        # NaN made time.sleep fail halfway through the bots' turns, and inf never woke up
        if not (
            isinstance(step_delay, Real)
            and not isinstance(step_delay, bool)
            and 0 <= step_delay < math.inf
        ):
            raise ValueError(f"step_delay must be 0 or more seconds, not {step_delay!r}.")
        if not (
            isinstance(max_bot_actions, Integral)
            and not isinstance(max_bot_actions, bool)
            and max_bot_actions > 0
        ):
            raise ValueError(f"max_bot_actions must be 1 or more, not {max_bot_actions!r}.")
        for name, flag in (
            ("answer_at_once", answer_at_once),
            ("auto_bots", auto_bots),
            ("ask_on_bot_turns", ask_on_bot_turns),
            ("propose_between_humans", propose_between_humans),
            ("chart", chart),
        ):
            if not isinstance(flag, bool):  # bool("no") is True
                raise ValueError(f"{name} must be True or False, not {show(flag)}.")
        if save_dir is not None and not isinstance(save_dir, (str, os.PathLike)):
            raise ValueError(f"save_dir must be a folder path, not {show(save_dir)}.")
        self.game = game
        self.step_delay = float(step_delay)
        self.answer_at_once = bool(answer_at_once)
        self.auto_bots = bool(auto_bots)
        self.chart = bool(chart)
        self.max_bot_actions = max_bot_actions
        self.save_dir = Path(save_dir if save_dir is not None else Path.cwd()).resolve()
        self._set_seats(seats)
        self._init_proposals(ask_on_bot_turns, propose_between_humans)
        self._busy: str | None = None
        self._guard = _Guard(self)
        self.ignored_clicks = 0
        self.last_error: str | None = None
        self.status_text, self.status_kind = "", "info"
        self.offer_answer = ""
        self.charts_open = False
        self._generation = 0  # bumped by undo and load: the charts must be redrawn
        self._chart_key: tuple | None = None
        self.chart_redraws = 0
        self.timings: dict[str, float] = {}
        self._legal: list[Action] = []
        self._rev = 0
        # the decision the page shows: a number that changes with the game, never on a mere
        # redraw (a chart, an option), so a click can be tied to the decision it was made on
        self._decision_no = 0
        self._decision_key: tuple | None = None
        # the last page click done (an action, or "bots" / "step" / "undo"), its decision number
        self._last_click: tuple[Any, int] | None = None
        self._viewer = min(self.humans) if self.humans else 0
        self._revealed: int | None = None  # hot-seat: the human whose hand the page shows
        self._init_saves(autosave)
        self.view = PlayView()
        self.view.add_class("energies-playapp-widget")
        self.view.on_msg(self._on_view_message)
        self._new_board()
        self._mark()
        self._since["log"] = len(game.log)
        self._say("Welcome! " + self._hint())
        if self.autosave_path is not None:
            self._resume()
        self._refresh()

    @property
    def widget(self) -> PlayView:
        """The widget shown in a notebook (the app itself displays as this widget)."""
        return self.view

    def _new_board(self) -> None:
        self.words = Wording(self.game)
        self.view.geometry = board_geometry(self.game.board, self.words)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.view._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):  # where widgets do not render (a static viewer): one line
            data["text/plain"] = f"PlayApp — {self._prompt_text()} (run the notebook to play)"
        return bundle

    # -- seats ---------------------------------------------------------------------------------

    def _set_seats(self, seats) -> None:
        players = self.game.rules.players
        if seats is None:
            seats = {s: spec for s, spec in DEFAULT_SEATS.items() if s < players}
        elif isinstance(seats, (list, tuple)):
            seats = dict(enumerate(seats))
        if not isinstance(seats, Mapping):
            raise TypeError('seats must map each seat to "human" or a bot, e.g. {0: "human", ...}.')
        problem = seats_problem(seats, players)
        if problem:
            raise ValueError(problem)
        self.seats = {s: seats[s] for s in range(players)}
        self.humans = frozenset(s for s, spec in self.seats.items() if _is_human(spec))
        # no seed: the bots break ties with the rng passed to decide(), seeded per position
        self.bots = {
            s: _bots.make_bot(spec) for s, spec in self.seats.items() if s not in self.humans
        }

    def _name(self, seat: int) -> str:
        return self.words.name(seat)

    def _who(self, seat: int) -> str:
        return "human" if seat in self.humans else bot_label(self.bots[seat])

    # -- public API ----------------------------------------------------------------------------

    @property
    def legal_actions(self) -> list[Action]:
        """What the deciding human seat may do now (empty while a bot decides)."""
        return list(self._legal)

    @property
    def prompt_text(self) -> str:
        return self._prompt_text()

    @property
    def page(self) -> dict[str, Any]:
        """The data the page draws now (``view``): spots, controls, readouts, strip, log."""
        return self.view.view

    def click(self, action_or_index: Action | int) -> bool:
        """Apply a human action as if it were clicked (an index counts in
        :attr:`legal_actions`); return True when it was applied."""
        return bool(self._guard.run("applying your move", self._human_move, action_or_index))

    def click_spot(self, key: str, choice: int = 0) -> bool:
        """Click a board spot ("c12" corner, "p40" path, "h3" hex) and, where the spot offers
        several actions (the chooser), the option number ``choice``."""
        spot = self.page.get("spots", {}).get(key)
        if spot is None or not spot.get("legal"):
            return self._refuse(spot["tip"] if spot else f"There is no spot {key!r} on the board.")
        options = spot["options"]
        if type(choice) is not int or not 0 <= choice < len(options):  # no bool, no -1
            return self._refuse(f"Choose 0 to {len(options) - 1} at {key}, not {choice!r}.")
        return self.message({"type": "act", "action": options[choice]["a"]})

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
        self._guard.run("redrawing", lambda: None)

    def reveal(self) -> bool:
        """Hot-seat: the player the page asks for ("Pass to Ben") has the screen: show their
        hand and options (the page's “I am Ben” button). Return True when the page was
        hidden."""
        return bool(self._guard.run("showing the hand", self._reveal))

    @property
    def pass_to(self) -> int | None:
        """Hot-seat: the human seat the screen must be passed to before its hand and options
        are shown (see :meth:`reveal`), else None."""
        return self._pass_to()

    def show_charts(self, show: bool = True) -> None:
        """Open (or close) the chart tab: the charts are drawn only while it is open."""
        if not isinstance(show, bool):
            raise ValueError(f"show must be True or False, not a {type(show).__name__}.")
        self.charts_open = show
        self._guard.run("drawing the charts", lambda: None)

    def save(self, name: str | None = None) -> str | None:
        """Write the save file ``name`` (default: a fresh name with the seats, seed and time)
        into :attr:`save_dir`, atomically; return its path. Paths outside the folder are refused."""
        return self._guard.run("saving", self._save, name)

    def load(self, name: str) -> bool:
        """Load a save file from :attr:`save_dir`; a bad file or path shows why."""
        return bool(self._guard.run("loading", self._load_path, name))

    def load_text(self, text: str | bytes, source: str = "the text") -> bool:
        """Load a game from the text of a save file (an upload)."""
        return bool(self._guard.run("loading", lambda: self._load_game(load_game(text), source)))

    def message(self, content: dict) -> bool:
        """Handle one message as the page sends it; return True when the game changed."""
        kind = content.get("type") if isinstance(content, dict) else None
        made_on = content.get("decision_no") if kind == "act" or kind in _CONTROLS else None
        if made_on is not None and type(made_on) is not int:  # True == 1 would pass as decision 1
            return self._refuse(
                f"The page sent a {kind!r} message whose 'decision_no' is {show(made_on)}, "
                "not a number."
            )
        if kind == "act":
            return bool(self._guard.run("applying your move", self._act, content))
        if kind in _CONTROLS:
            stale = self._stale_click(content, kind, _CONTROLS[kind])
            if stale:
                return self._refuse(stale, "warn")
            done = {"bots": self.play_bots, "step": self.step, "undo": self.undo}[kind]()
            self._last_click = (kind, content.get("decision_no"))
            return bool(done)
        if kind == "reveal":
            return self.reveal()
        # The page's fields are checked, never coerced: bool("false") is True and str() of a
        # list would become a file name.
        wrong = _wrong_field(content, _MESSAGE_FIELDS.get(kind, ()))
        if wrong:
            return self._refuse(f"The page sent a {kind!r} message whose {wrong}.")
        if kind == "save":
            return self.save(content.get("name", "").strip() or None) is not None
        if kind == "load":
            return self.load(content.get("name", ""))
        if kind == "upload":
            return self.load_text(content.get("text", ""), content.get("name", "the upload"))
        if kind == "propose":  # rule 12.1: a proposal held for the active player
            return bool(self._guard.run("holding your proposal", self._hold_proposal, content))
        if kind == "option":
            self.set_option(content.get("name"), content.get("value"))
            return False
        if kind == "charts":
            self.show_charts(content.get("open", False))
            return False
        return self._refuse(f"Unknown message {kind!r} from the page.")

    def _refuse(self, text: str, kind: str = "error") -> bool:
        """Say why a click does nothing and redraw (the page stops waiting); return False."""
        self._say(text, kind)
        self._guard.run("redrawing", lambda: None)
        return False

    def _on_view_message(self, _widget, content, _buffers) -> None:
        try:
            self.message(content)
        finally:
            # the page counts a click as answered when its token comes back, after the redraw
            # it caused: its "Working…" note (and data-busy) lasts until every click it sent
            # is answered, not until the first redraw, which may answer only the first click
            click = content.get("click") if isinstance(content, dict) else None
            if isinstance(click, str) and len(click) <= _CLICK_TOKEN_MAX:
                self.view.answered = click

    def _decision_number(self) -> int:
        """The number of the decision the page is about to show: it changes whenever the game
        does (a move, a bot's move, an undo, a load), never on a redraw that changes nothing."""
        g = self.game
        key = (self._generation, len(g.actions), g.actions[-1] if g.actions else None)
        if key != self._decision_key:
            self._decision_key = key
            self._decision_no += 1
        return self._decision_no

    def _stale_click(self, content: dict, key: Any, label, why=None) -> str | None:
        """Why a page click is not done because it was made on an earlier decision than the
        one the page shows now (None: made on this one, or sent from Python without a number).

        A click is tied to the decision it was made on: the second click of a double click,
        or a quick click on a picture the game has since left, is never applied to the new
        decision; it is explained instead. ``label`` and ``why`` (the reason the click is
        illegal now, or None) are texts or functions giving them, asked only when needed."""
        made_on = content.get("decision_no")  # checked by message(): None or an int
        if made_on is None or made_on == self._decision_no:
            return None
        if callable(label):
            label = label()
        if (key, made_on) == self._last_click:
            return f"You clicked “{label}” twice: it was done once. Click again to repeat it."
        reason = why() if why is not None else None
        if reason is not None:
            return f"Your earlier click “{label}” came after the board changed: {reason}"
        return (
            f"Your earlier click “{label}” came after the board changed: nothing was done. "
            "Click again if you still want it."
        )

    # -- hot-seat: the pass screen --------------------------------------------------------------

    def _pass_to(self) -> int | None:
        """The human who must take the screen before the page shows a hand: the deciding
        human when it is not the one the page showed last (only with two or more humans)."""
        g = self.game
        seat = g.current_seat
        if len(self.humans) < 2 or g.is_over or seat not in self.humans:
            return None
        return None if seat == self._revealed else seat

    def _reveal(self) -> bool:
        seat = self._pass_to()
        if seat is None:
            return False
        self._revealed = seat
        self._say(f"{self._name(seat)}, your move: {self._task()}.", "info")
        return True

    def _passing_problem(self) -> str | None:
        """Why a click must wait: the screen still waits for the next player (a click of the
        player before, made on a page that was not redrawn yet, must not act for them)."""
        seat = self._pass_to()
        if seat is None:
            return None
        name = self._name(seat)
        return f"Pass the screen to {name} first: {name} clicks “I am {name}”."

    # -- handlers (run inside the guard) -------------------------------------------------------

    def _act(self, content: dict) -> bool:
        try:
            action = action_from_dict(content.get("action"))
        except (ValueError, TypeError) as exc:
            self._say(f"The page sent an action the game does not know: {exc}.", "error")
            return False

        def label() -> str:
            return self.words.speak(self.game.describe(action))

        def why() -> str | None:
            reason = self.game.why_illegal(action)
            return None if reason is None else self.words.speak(reason, addressee=action.seat)

        stale = self._stale_click(content, action, label, why)
        if stale:  # a double click would discard, buy or trade again: explain, never drop
            self._say(stale, "warn")
            return False
        applied = self._human_move(action)
        if applied:
            self._last_click = (action, content.get("decision_no"))
        return applied

    def _human_move(self, choice) -> bool:
        g = self.game
        start = time.perf_counter()
        if isinstance(choice, int) and not isinstance(choice, bool):
            waiting = self._passing_problem()  # nothing is listed while the screen waits
            if waiting:
                self._say(waiting, "error")
                return False
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
            self._say("The game is over: " + self.words.speak(str(g.outcome)), "error")
            return False
        # the page never offers a sandbox edit: a crafted message must not give cards
        if isinstance(choice, SandboxEdit):
            self._say(
                "A teacher's sandbox edit is not a move: make it with energies.sandbox, "
                "then app.refresh().",
                "error",
            )
            return False
        problem = self._human_seat_problem(choice.seat) or self._passing_problem()
        if problem:
            self._say(problem, "error")
            return False
        text = self.words.speak(g.describe(choice))
        # who answers an offer: its partner; a proposal (rule 12.1): the active player
        partner = getattr(choice, "partner", g.state.active)
        viewer, since = self._viewer, self._since
        self._viewer = choice.seat
        self._mark()
        try:
            g.apply(choice)
        except IllegalActionError as exc:
            # a refused click keeps the strip of what happened since the last move
            self._viewer, self._since = viewer, since
            self._say(self.words.speak(exc.reason, addressee=choice.seat), "error")
            return False
        self.timings["apply"] = time.perf_counter() - start
        message = text + "."
        moves, passes = 0, self.auto_pass_count
        self._auto_pass()  # e.g. a second human's proposal window after this one
        if self.answer_at_once and not g.is_over and (g.active_seat in self.humans or g.pending):
            moves = self._run_bots(answers_only=True)  # answers to offers, discards, events
        if choice.kind in ("offer_trade", "propose_trade"):  # rule 12.1: answered at once
            self.offer_answer = message = self._answer_to(choice, partner)
        if self.auto_bots and not g.is_over and g.current_seat not in self.humans:
            moves += self._run_bots()
        if moves and choice.kind not in ("offer_trade", "propose_trade"):
            message += f" The bots made {moves} move(s)."
        self._say(message + self._passes_note(passes), "ok")
        return True

    def _human_seat_problem(self, seat: Any) -> str | None:
        """Why the page may not act for ``seat`` (no such seat, a bot's), or None."""
        if not (isinstance(seat, int) and not isinstance(seat, bool) and seat in self.seats):
            return (
                f"There is no seat {show(seat)} at this table (seats 0 to {len(self.seats) - 1})."
            )
        if seat not in self.humans:
            return (
                f"{self._name(seat)} is played by a bot ({self._who(seat)}); "
                "use “Step” or “Bots play until my turn”."
            )
        return None

    def _answer_to(self, offer: Action, partner: int) -> str:
        """The answer to an offer or a proposal, once given ("Bob accepted your offer: ...")."""
        actions = self.game.actions
        at = max(i for i, a in enumerate(actions) if a == offer)
        answer = next((a for a in actions[at + 1 :] if a.kind == "respond_to_trade"), None)
        who = self._name(partner)
        deal = f"{goods_text(offer.give)} for {goods_text(offer.get)}"
        if answer is None:
            return f"{who} has not answered your offer ({deal}) yet."
        return f"{who} {'accepted' if answer.accept else 'declined'} your offer: {deal}."

    # -- prompt texts --------------------------------------------------------------------------

    def _task(self) -> str:
        g = self.game
        if g.is_over:
            return "the game is over"
        if g.pending:
            return self.words.speak(g.pending, addressee=g.current_seat)
        if g.state.phase == "roll":
            return "roll the dice (a development card may be played first)"
        return "build on the board, trade, or end the turn"

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
            return f"Game over after turn {g.turn}: {self.words.speak(str(g.outcome))}"
        seat = g.current_seat
        if seat in self.humans:
            return f"{self._name(seat)}, your move: {self._task()}"
        return f"{self._name(seat)} ({self._who(seat)}) must {self._task()}"


#: The page's controls whose clicks are tied to a decision, and their labels on the page.
_CONTROLS = {"bots": "Bots play until my turn", "step": "Step", "undo": "Undo"}
#: The longest click token the page sends back to itself ("<page id>:<click number>").
_CLICK_TOKEN_MAX = 64

#: The fields of the page's messages and the type each must have (when present).
_MESSAGE_FIELDS: dict[Any, tuple[tuple[str, type], ...]] = {
    "save": (("name", str),),
    "load": (("name", str),),
    "upload": (("text", str), ("name", str)),
    "option": (("name", str),),  # its value: the option says what it takes (proposals)
    "charts": (("open", bool),),
}
_TYPE_WORDS = {str: "a text", bool: "true or false"}


def _wrong_field(content: dict, fields: tuple[tuple[str, type], ...]) -> str | None:
    """What is wrong with a message's fields ("'open' is 'false', not true or false"), or None."""
    for name, kind in fields:
        if name in content and not isinstance(content[name], kind):
            return f"{name!r} is {show(content[name])}, not {_TYPE_WORDS[kind]}"
    return None
