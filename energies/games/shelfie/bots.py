"""Bots for My Shelfie Dice: random, greedy and an exact expected-value player.

All three follow the kit's bot protocol, ``decide(view, legal_actions, rng)``;
``view`` is what :meth:`ShelfieGame.view` returns (a state copy; a game works too).

* **random** picks uniformly among the legal actions.
* **greedy** chases the colour it has most dice of (re-rolls everything else,
  keeping one joker), then circles what raises its shelf value most.
* **ev** plans the re-rolls exactly: it values every reachable set of dice
  (:class:`~energies.games.shelfie.odds.RerollPlanner`) and re-rolls the dice
  whose expected best placement is highest — no sampling. When the rules have too many
  sets of dice for that to take about a second (``odds.planning_problem``), it re-rolls as
  the greedy player does, and says so once with a warning (``fallback`` holds the reason).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Sequence

from ...kit.bots import RandomBot, make_bot_from
from . import dice as D
from .actions import Circle, CrossOut, Keep, Reroll
from .odds import RerollPlanner, planning_problem
from .state import AVAILABLE, CIRCLED, CROSSED, ShelfieState

__all__ = ["BOTS", "ExpectedValueBot", "GreedyBot", "RandomBot", "make_bot", "shelf_value"]

PARTIAL_CREDIT = 0.5  # worth of a circled item in a line that can still reach the threshold
OPTION_VALUE = 0.1  # worth of an available item: room for later combos


def shelf_value(shelf: list[list[int]], rules) -> float:
    """Points now plus a share of the points still within reach (the bots' yardstick)."""
    rows = [(row, [rules.value(r, c) for c in range(rules.columns)]) for r, row in enumerate(shelf)]
    columns = [
        (
            [shelf[r][c] for r in range(rules.colours)],
            [rules.value(r, c) for r in range(rules.colours)],
        )
        for c in range(rules.columns)
    ]
    value = 0.0
    for line, worth in rows + columns:  # rule 3.2: rows and columns score alike
        circled = sum(w for w, mark in zip(worth, line) if mark == CIRCLED)
        count, room = line.count(CIRCLED), line.count(AVAILABLE)
        if count >= rules.min_to_score:
            value += circled
        elif count + room >= rules.min_to_score:
            value += PARTIAL_CREDIT * circled * count / rules.min_to_score
    value += OPTION_VALUE * sum(row.count(AVAILABLE) for row in shelf)
    return value


def _state(view) -> ShelfieState:
    return getattr(view, "state", view)


class _Evaluator:
    """Values of placements on one shelf during one turn (cached: many dice share them)."""

    def __init__(self, state: ShelfieState, seat: int) -> None:
        self.state, self.seat, self.rules = state, seat, state.rules
        self.shelf = state.shelves[seat]
        self.open_items = state.open_items(seat)
        self._cache: dict = {}

    def after(self, action) -> float:
        key = action.items if isinstance(action, Circle) else ("row", action.row)
        if key not in self._cache:
            shelf = [list(row) for row in self.shelf]
            if isinstance(action, Circle):
                for row, column in action.items:
                    shelf[row][column] = CIRCLED
            else:
                shelf[action.row] = [CROSSED if m == AVAILABLE else m for m in shelf[action.row]]
            self._cache[key] = shelf_value(shelf, self.rules)
        return self._cache[key]

    def options(self, dice: tuple[int, ...]) -> list:
        rules = self.rules
        found = D.placements(
            dice,
            self.open_items,
            rules.colours,
            rules.max_circles,
            rules.joker_alone_when_all_jokers,
        )
        circles = [Circle(self.seat, items) for items in found]
        if circles and rules.must_circle_if_able:
            return circles
        rows = [r for r, row in enumerate(self.shelf) if AVAILABLE in row]
        return circles + [CrossOut(self.seat, r) for r in rows]

    def best_value(self, dice: tuple[int, ...]) -> float:
        return max((self.after(a) for a in self.options(dice)), default=0.0)


class _ShelfieBot:
    name = "ShelfieBot"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed) if seed is not None else None
        self._turn_key = None
        self._evaluator: _Evaluator | None = None
        self._planner: RerollPlanner | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def _evaluator_for(self, state: ShelfieState) -> _Evaluator:
        # Values depend only on the rules and the active shelf, which a turn does not change
        # before its placement (views carry no seed to tell games apart; none is needed).
        seat = state.active
        key = (state.rules, seat, tuple(map(tuple, state.shelves[seat])))
        if self._turn_key != key or self._evaluator is None:
            self._evaluator = _Evaluator(state, seat)
            self._turn_key = key
            self._planner = None
        return self._evaluator

    def decide(self, view, legal_actions: Sequence, rng: random.Random):
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        state, tie = _state(view), self._rng or rng
        evaluator = self._evaluator_for(state)
        if state.phase == "roll":
            faces = self.reroll(state, evaluator)
            choice = Reroll(state.active, faces) if faces else Keep(state.active)
            return choice if choice in legal else tie.choice(legal)
        scored = [(evaluator.after(a), tie.random(), a) for a in legal]
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    def reroll(self, state: ShelfieState, evaluator: _Evaluator) -> tuple[int, ...]:
        raise NotImplementedError


class GreedyBot(_ShelfieBot):
    """Chases the colour with the most dice: re-rolls the rest (one joker kept), then circles
    whatever raises its shelf value most."""

    name = "GreedyBot"

    def reroll(self, state: ShelfieState, evaluator: _Evaluator) -> tuple[int, ...]:
        return greedy_reroll(state, evaluator)


def greedy_reroll(state: ShelfieState, evaluator: _Evaluator) -> tuple[int, ...]:
    """The greedy player's re-roll: keep the colour with the most dice (and one joker)."""
    rules, dice = state.rules, state.dice
    tally = Counter(f for f in dice if f != rules.joker)
    open_rows = {row for row, _ in evaluator.open_items}
    wanted = [c for c in tally if c in open_rows]
    if not wanted:
        return tuple(f for f in dice if f != rules.joker)
    colour = max(wanted, key=lambda c: (tally[c], -c))
    if tally[colour] >= rules.columns:
        return ()
    keep = [colour] * tally[colour] + [rules.joker] * min(1, dice.count(rules.joker))
    return tuple(sorted((Counter(dice) - Counter(keep)).elements()))


class ExpectedValueBot(_ShelfieBot):
    """Plans its re-rolls exactly: the re-roll whose expected best placement is highest."""

    name = "ExpectedValueBot"
    #: Why this bot re-rolls as the greedy player does (None while it plans exactly).
    fallback: str | None = None

    def reroll(self, state: ShelfieState, evaluator: _Evaluator) -> tuple[int, ...]:
        problem = planning_problem(len(state.dice), state.rules.faces)
        if problem:
            if self.fallback is None:
                self.fallback = problem
                warnings.warn(
                    f"{self.name} re-rolls as the greedy player does: {problem}.",
                    stacklevel=2,
                )
            return greedy_reroll(state, evaluator)
        if self._planner is None:
            self._planner = RerollPlanner(state.rules.faces, evaluator.best_value)
        faces, _ = self._planner.choose(state.dice, state.rerolls_left)
        return faces


BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "ev": ExpectedValueBot}


def make_bot(spec, seed: int | None = None):
    """A bot from a short name ("random", "greedy", "ev"), a class, or a ready bot object."""
    return make_bot_from(BOTS, spec, seed)
