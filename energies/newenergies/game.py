"""Game: one seeded game of CATAN: New Energies, on the kit's one game shell.

A game is fully determined by its rule set, its seed and its action log (sandbox edits
included); the log, undo/fork, the digest and save files are the kit's
(:class:`energies.kit.shell.GameShell`). What is New Energies' own is here: its engine
called directly on the hot path (no indirection: bots apply millions of actions), the
teachers' sandbox-edit cap, the per-turn ``history`` flag, the board, footprints and the
public snapshot, and how far a version-1 file of earlier releases is trusted.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..kit.i18n import render, resolve
from ..kit.saves import (  # noqa: F401 - offered here too, where callers imported them from
    MAX_SAVE_BYTES,
    MAX_SAVED_ACTIONS,
    SAVE_VERSION,
    SaveFileError,
    check_loadable,
)
from ..kit.shell import GameShell
from . import engine
from .actions import CODEC, Action, SandboxEdit
from .engine import awards
from .engine.offers import interjected_proposals
from .rules import RuleSet
from .state import GameState, check_seat
from .view import GameView, make_view

SAVE_FORMAT = "energies-game"
MAX_SANDBOX_EDITS = 2_000  # teacher edits per game (a lesson position needs a few dozen)

# A version-1 file replays only where the rules it was played under did not change since:
# the quick start (rule 3.4), the proposals of the other players (12.1) and the hazards a
# rolled hex clears (8.5) all changed in the release that introduced version 2.
_EARLIER_ENGINE = (
    "This save file is from an earlier release (version 1), and its game no longer replays "
    "the same way: the rules engine changed since (the quick start of rule 3.4, trade "
    "proposals of rule 12.1, hazards cleared by rule 8.5). Open it with the release that "
    "wrote it, or play the game again."
)


class Game(GameShell):
    """One game of New Energies. Create it with :func:`energies.new_game`."""

    NAME = "new-energies"
    TITLE = "CATAN: New Energies"
    FORMAT = SAVE_FORMAT
    RULES = RuleSet
    ENGINE = engine
    CODEC = CODEC
    RULES_EXAMPLE = "RuleSet.standard()"
    V1_REPLAY_PROBLEM = _EARLIER_ENGINE
    _repr_name = "energies.Game"

    state: GameState
    actions: list[Action]

    def __init__(
        self,
        rules: RuleSet,
        seed: int,
        names: list[str] | None = None,
        history: bool = True,
        lang: str | None = None,
    ) -> None:
        self._history = history  # per-turn records (off: faster long bot runs, same game)
        super().__init__(rules, seed, names, lang)

    def _new_state(self) -> GameState:
        return engine.new_state(self.rules, self.seed, self._history)

    def _restart(self) -> None:
        super()._restart()
        self.edits = 0  # teacher sandbox edits in the log (at most MAX_SANDBOX_EDITS)

    # Fields of 0.4 (issue 32): the readings every earlier game was played with.
    RULES_BEFORE_FIELD: ClassVar[dict[str, Any]] = {
        "shortage_energy": "card",
        "plants_on_desert": False,
        "table_asks_per_turn": 0,  # rule 12.1: nobody could ask the table again
    }
    # The standard game of the releases that wrote version-1 files (before 0.4).
    _V1_STANDARD: ClassVar[dict[str, Any]] = {
        **RULES_BEFORE_FIELD,
        "longest_road_tie_on_break": "set_aside",
    }

    @classmethod
    def _v1_rules_checkable(cls, rules: RuleSet) -> bool:
        """A published rule set (3 or 4 players, either start), as today or as the releases
        that wrote version-1 files had it: what version-1 files may use."""
        return any(
            rules == RuleSet.standard(rules.players, start=s, **era)
            for s in ("quick", "draft")
            for era in ({}, cls._V1_STANDARD)
        )

    @classmethod
    def _file_noun(cls) -> str:
        return "an energies save file"

    @classmethod
    def _standard_rules_words(cls) -> str:
        return "the standard game"

    # -- the contract ------------------------------------------------------------------------

    @property
    def board(self):
        return self.state.board

    def legal_actions(self) -> list[Action]:
        """The options of whoever must decide now."""
        return engine.legal_actions(self.state)

    def why_illegal(self, action: Action) -> str | None:
        """Why an action is not allowed now, or None if it is (in the game's :attr:`lang`)."""
        return render(
            self._too_many_edits(action) or engine.why_illegal(self.state, action), self._lang
        )

    def apply(self, action: Action) -> None:
        """Apply a legal action; raise IllegalActionError (a ValueError) and change nothing if not."""
        edit = isinstance(action, SandboxEdit)
        reason = self._too_many_edits(action) if edit else None
        if reason:
            raise engine.IllegalActionError(reason, action)
        try:
            engine.apply(self.state, action)
        except engine.IllegalActionError as refused:  # the engine's reason, said to this game
            if resolve(self._lang) == "en":
                raise
            raise engine.IllegalActionError(render(refused.reason, self._lang), action) from None
        self.actions.append(action)
        self.edits += edit

    def apply_listed(self, action: Action) -> None:
        """Apply an action taken from ``legal_actions()`` of this very position, unchecked.

        Bots playing thousands of games use this to skip checking an action the
        listing has just checked; anything else should call :meth:`apply`.
        """
        engine.apply_listed(self.state, action)
        self.actions.append(action)

    def proposals_now(self, seat: int) -> list[Action]:
        """The one-card-for-one-card proposals ``seat`` may make to the active player now
        without being asked (rule 12.1): at the active player's free decision of the action
        phase, within the seat's cap; empty otherwise. ``legal_actions`` lists only the
        deciding seat's moves, so an app lists a waiting seat's proposals with this; the
        active player answers each (``RespondToTrade``) before deciding anything else."""
        check_seat(self.state, seat)
        return list(interjected_proposals(self.state, seat))

    @property
    def active_seat(self) -> int:
        """Whose turn it is (may differ from current_seat while someone answers a decision)."""
        return self.state.active

    @property
    def pending(self) -> str | None:
        """What the engine waits for besides the active player's free choice, in words."""
        task = self.state.pending
        return engine.task_text(task) if task else None

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
        """The action as a sentence with player and hex names, in the game's :attr:`lang`
        (never fails, even on nonsense)."""
        if not isinstance(action, Action):
            return f"{type(action).__name__} (not an action)"
        seat = action.seat
        ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names)
        return action.describe(self.names[seat] if ok else None, self.board, self._lang)

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

    def _too_many_edits(self, action: Action) -> str | None:
        # engine safety: every edit re-checks the awards, so a file of endless edits could
        # take minutes to load
        if isinstance(action, SandboxEdit) and self.edits >= MAX_SANDBOX_EDITS:
            return f"A game holds at most {MAX_SANDBOX_EDITS} teacher sandbox edits."
        return None

    def _repr_png_(self) -> bytes:
        """Jupyter shows a game as its board picture."""
        from ..viz import board_png

        return board_png(self, dpi=64)  # small enough for committed notebooks, sharp on a projector


def new_game(
    players: int | None = None,
    seed: int = 0,
    rules: RuleSet | None = None,
    start: str | None = None,
    names: list[str] | None = None,
    history: bool = True,
    lang: str | None = None,
) -> Game:
    """Start a game: 3 or 4 players (default 4, or the rule set's count), a seed, a start mode.

    ``history=False`` keeps no per-turn records (:attr:`Game.history` stays empty), which
    makes long bot runs faster; the game itself plays out exactly the same.
    ``lang`` ("en", "de", "zh-Hant", "be"): the language of the game's reasons and log
    (default: the kit-wide one, :func:`energies.set_language`); save files never depend on it.
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
    return Game(rules, seed, names, history, lang)
