"""Game: one seeded game with its action log, undo/fork, save/load/replay and history.

A game is fully determined by its rule set, its seed and its action log
(sandbox edits included), so saving writes exactly those plus a digest of the
final state, and loading replays them and checks the digest.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from .engine import awards
from . import engine
from ..kit import files
from ..kit import platform as lite
from .actions import Action, SandboxEdit, action_to_dict
from .rules import RuleSet
from ..kit.saves import (  # noqa: F401 - offered here too, where callers imported them from
    MAX_SAVE_BYTES,
    MAX_SAVED_ACTIONS,
    SaveFileError,
    check_loadable,
)
from .state import GameState, Outcome, check_seat
from ..kit.text import name_problem
from .view import GameView, make_view

SAVE_FORMAT = "energies-game"
# Version 2: the digest covers the rules, seed, names, actions and the replayed state.
# Version 1 (digest of the state only) is read when its rules are a standard rule set.
SAVE_VERSION = 2
MAX_SANDBOX_EDITS = 2_000  # teacher edits per game (a lesson position needs a few dozen)


class Game:
    """One game of New Energies. Create it with :func:`energies.new_game`."""

    def __init__(
        self, rules: RuleSet, seed: int, names: list[str] | None = None, history: bool = True
    ) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) >= 2**63:
            raise ValueError("The seed must be a whole number below 2**63 (e.g. 7).")
        if not isinstance(rules, RuleSet):
            raise ValueError("rules must be a RuleSet (see RuleSet.standard()).")
        self.rules = rules
        self.seed = seed
        self.names = list(names) if names else [f"Seat {s}" for s in range(rules.players)]
        if len(self.names) != rules.players:
            raise ValueError(f"Give {rules.players} names, one per seat.")
        for name in self.names if names else ():  # (the default names are fine)
            problem = name_problem(name)
            if problem:
                raise ValueError(problem)
        self.state: GameState = engine.new_state(rules, seed, history)
        self.actions: list[Action] = []
        self.edits = 0  # teacher sandbox edits in the log (at most MAX_SANDBOX_EDITS)

    # -- the contract ------------------------------------------------------------------------

    @property
    def board(self):
        return self.state.board

    def legal_actions(self) -> list[Action]:
        """The options of whoever must decide now."""
        return engine.legal_actions(self.state)

    def why_illegal(self, action: Action) -> str | None:
        """Why an action is not allowed now, or None if it is."""
        return self._too_many_edits(action) or engine.why_illegal(self.state, action)

    def apply(self, action: Action) -> None:
        """Apply a legal action; raise IllegalActionError (a ValueError) and change nothing if not."""
        edit = isinstance(action, SandboxEdit)
        reason = self._too_many_edits(action) if edit else None
        if reason:
            raise engine.IllegalActionError(reason, action)
        engine.apply(self.state, action)
        self.actions.append(action)
        self.edits += edit

    def apply_listed(self, action: Action) -> None:
        """Apply an action taken from ``legal_actions()`` of this very position, unchecked.

        Bots playing thousands of games use this to skip checking an action the
        listing has just checked; anything else should call :meth:`apply`.
        """
        engine.apply_listed(self.state, action)
        self.actions.append(action)

    @property
    def current_seat(self) -> int | None:
        """The seat that must decide now (None once the game is over)."""
        return engine.current_seat(self.state)

    @property
    def active_seat(self) -> int:
        """Whose turn it is (may differ from current_seat while someone answers a decision)."""
        return self.state.active

    @property
    def pending(self) -> str | None:
        """What the engine waits for besides the active player's free choice, in words."""
        task = self.state.pending
        return engine.task_text(task) if task else None

    @property
    def is_over(self) -> bool:
        return self.state.outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    @property
    def turn(self) -> int:
        return self.state.turn

    def local_footprint(self, seat: int) -> int:
        """LF of a seat, from its pieces (rule 4.1)."""
        check_seat(self.state, seat)
        return self.state.local_footprint(seat)

    @property
    def global_footprint(self) -> int:
        """GF, the clamped sum of LF (rule 4.2)."""
        return self.state.global_footprint

    def victory_points(self, seat: int) -> int:
        """VP of a seat (rule 13.8)."""
        check_seat(self.state, seat)
        return self.state.victory_points(seat)

    def view(self, seat: int) -> GameView:
        """What ``seat`` may know now, as a read-only :class:`energies.view.GameView`.

        Public facts, its own hand and development cards, only the number of the
        others' cards, the bag as the table sees it, the log; no random streams, no
        deck or bag order, no way back to this game. Bots decide from this.
        """
        return make_view(self.state, seat)

    def describe(self, action: Action) -> str:
        """The action as a sentence with player and hex names (never fails, even on nonsense)."""
        if not isinstance(action, Action):
            return f"{type(action).__name__} (not an action)"
        seat = action.seat
        ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names)
        return action.describe(self.names[seat] if ok else None, self.board)

    @property
    def log(self) -> list[str]:
        """Readable turn log: one sentence per action and per thing the engine did."""
        return [str(line) for line in self.state.log]

    @property
    def history(self) -> list[dict[str, Any]]:
        """One record per seat after every turn (empty for a game made with ``history=False``)."""
        return self.state.history

    @property
    def events(self) -> list[dict[str, Any]]:
        """One record per event that fired."""
        return self.state.events

    def history_frame(self):
        """Per-turn, per-seat records as a tidy pandas DataFrame."""
        from .history import history_frame

        return history_frame(self.state.history, self.names)

    def events_frame(self):
        """The event log as a pandas DataFrame."""
        from .history import events_frame

        return events_frame(self.state.events)

    def snapshot(self) -> dict[str, Any]:
        """Plain JSON-able public state (per seat and table-wide)."""
        s = self.state
        seats = []
        for p in s.players:
            seats.append(
                {
                    "seat": p.seat,
                    "name": self.names[p.seat],
                    "vp": s.victory_points(p.seat),
                    "lf": s.local_footprint(p.seat),
                    "resources": {k: v for k, v in p.hand.items() if k != "science"},
                    "science": p.hand["science"],
                    "energy": p.energy,
                    "towns": sorted(p.towns),
                    "cities": sorted(p.cities),
                    "roads": sorted(p.roads),
                    "plants": [
                        {"corner": c, "hex": h, "kind": k} for (c, h), k in sorted(p.plants.items())
                    ],
                    "fossil": p.count_plants("fossil"),
                    "renewable": p.count_plants("renewable"),
                    "dev_cards_held": len(p.dev_cards),
                    "dev_cards_played": dict(sorted(p.dev_played.items())),
                    "warehouse": p.warehouse,
                    "longest_road": awards.longest_road(s, p.seat),
                }
            )
        bag_brown: dict[str, int] = {}
        for color, symbol in s.bag:
            if color == "brown":
                bag_brown[symbol] = bag_brown.get(symbol, 0) + 1
        return {
            "turn": s.turn,
            "active": s.active,
            "current_seat": self.current_seat,
            "phase": s.phase,
            "pending": self.pending,
            "dice": list(s.dice) if s.dice else None,
            "gf": s.global_footprint,
            "discs_next_event_phase": s.rules.discs_to_draw(s.global_footprint),
            "bag_size": len(s.bag),
            "bag_brown": dict(sorted(bag_brown.items())),
            "bag_green": sum(1 for color, _ in s.bag if color == "green"),
            "event_board": {row: [list(d) for d in discs] for row, discs in s.event_board.items()},
            "discs_removed": len(s.removed_discs),
            "hazards": {"hexes": sorted(s.hex_hazards), "buildings": sorted(s.building_hazards)},
            "hazard_supply": s.hazard_supply,
            "inspector": s.inspector,
            "longest_road_holder": s.longest_road_holder,
            "environmentalist_holder": s.environmentalist_holder,
            "dev_deck": len(s.dev_deck),
            "supply": dict(s.supply),
            "outcome": s.outcome.to_dict() if s.outcome else None,
            "seats": seats,
        }

    def digest(self) -> str:
        return self.state.digest()

    # -- undo, fork, replay ------------------------------------------------------------------

    def undo(self, steps: int = 1) -> list[Action]:
        """Take back the last ``steps`` actions (replays the log: dice stay the same)."""
        if not isinstance(steps, int) or steps < 1:
            raise ValueError("undo needs a number of steps of at least 1.")
        if steps > len(self.actions):
            raise ValueError(f"Only {len(self.actions)} action(s) can be undone.")
        kept, undone = self.actions[:-steps], self.actions[-steps:]
        self._replay(kept)
        return undone

    def fork(self) -> Game:
        """An independent copy that shares no mutable state (same future dice and draws)."""
        clone = copy.copy(self)
        clone.state = copy.deepcopy(self.state)
        clone.actions = list(self.actions)
        clone.names = list(self.names)
        return clone

    def _too_many_edits(self, action: Action) -> str | None:
        # engine safety: every edit re-checks the awards, so a file of endless edits could
        # take minutes to load
        if isinstance(action, SandboxEdit) and self.edits >= MAX_SANDBOX_EDITS:
            return f"A game holds at most {MAX_SANDBOX_EDITS} teacher sandbox edits."
        return None

    def _replay(self, actions: list[Action]) -> None:
        state = engine.new_state(self.rules, self.seed, self.state.keep_history)
        for action in actions:
            engine.apply(state, action)
        self.state, self.actions = state, list(actions)
        self.edits = sum(isinstance(a, SandboxEdit) for a in actions)

    # -- files -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        from .. import __version__

        content = {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "names": list(self.names),
            "actions": [action_to_dict(a) for a in self.actions],
        }
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "engine": __version__,
            **content,
            "digest": _file_digest(content, self.digest()),
        }

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
        (``energies.lite.save_location``).
        """
        text = self.to_json()
        check_loadable(text, len(self.actions))  # before writing: an older file stays as it was
        path, note = lite.save_location(path)
        files.write_text(path, text)
        if note:
            lite.note(note)
        return path

    def _repr_png_(self) -> bytes:
        """Jupyter shows a game as its board picture."""
        from ..viz import board_png

        return board_png(self, dpi=64)  # small enough for committed notebooks, sharp on a projector

    def __repr__(self) -> str:
        status = (
            str(self.outcome)
            if self.outcome
            else f"turn {self.turn}, seat {self.current_seat} to act"
        )
        return f"<energies.Game seed={self.seed} players={self.rules.players}: {status}>"


def new_game(
    players: int | None = None,
    seed: int = 0,
    rules: RuleSet | None = None,
    start: str | None = None,
    names: list[str] | None = None,
    history: bool = True,
) -> Game:
    """Start a game: 3 or 4 players (default 4, or the rule set's count), a seed, a start mode.

    ``history=False`` keeps no per-turn records (:attr:`Game.history` stays empty), which
    makes long bot runs faster; the game itself plays out exactly the same.
    """
    if rules is None:
        rules = RuleSet.standard(4 if players is None else players)
    elif players is not None and players != rules.players:
        raise ValueError(
            f"players={players} does not match the rule set ({rules.players} players)."
        )
    if start is not None and start != rules.start:
        if start not in ("quick", "draft"):
            raise ValueError(f"start must be 'quick' or 'draft', not {start!r}.")
        rules = rules.replace(start=start)
    return Game(rules, seed, names, history)


def _file_digest(content: dict[str, Any], state_digest: str) -> str:
    """Fingerprint of what defines a game (rules, seed, names, actions) and where it ends."""
    text = json.dumps(
        {"format": SAVE_FORMAT, **content, "state": state_digest},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]
