"""New Energies' own play loop for :func:`energies.play`: the contract loop's games, faster.

Registered as the game's ``play_loop`` hook (:class:`energies.kit.registry.GameSpec`); the
runner calls it once per game. It plays exactly the games of the runner's contract loop — the
same actions and the same draws from the bots' random stream (``tests/test_runner.py``) — but
reads the engine directly: it lists the actions with the engine instead of through the
game object, skips the check of an action just listed, gives no view to a bot that never
reads it, and leaves the ~150 one-for-one offers out of the list of a bot that scores them
all 0.0 anyway (:class:`~energies.newenergies.engine.offers.OffersLeftOut`,
``StrategyBot._best`` draws for them as if they were there).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping
from itertools import repeat
from typing import Any

from . import engine
from .engine.offers import OffersLeftOut
from .game import Game
from .state import Outcome


def play_loop(
    game: Game,
    seats: Mapping[int, Any],
    rng: random.Random,
    max_actions: int,
    apply_choice: Callable[[Game, int, Any, Any], None],
) -> Outcome:
    """Let ``seats`` (seat -> bot) decide until ``game`` is over; return the outcome.

    ``apply_choice(game, seat, bot, action)`` applies a choice that was not one of the
    actions just listed (the runner's, whose error names the bot).
    """
    actions = game.actions
    # per seat, asked once per game, not before every decision (each is a property of the
    # bot's class): (bot, scores unlisted offers, ignores the view, ignores it when forced)
    table = {
        s: (
            b,
            getattr(b, "scores_unlisted_offers", False),
            getattr(b.decide, "ignores_view", False),
            getattr(b.decide, "ignores_view_if_forced", False),
        )
        for s, b in seats.items()
    }
    legal_actions, apply_listed, is_ = engine.legal_actions, engine.apply_listed, operator.is_
    for _ in range(max_actions):
        state = game.state
        cache = state.cache  # (one object for the state's life: engine's EngineCache)
        if state.outcome is not None:
            return game.outcome
        queue = state.queue
        seat = queue[0].seat if queue else state.active  # engine.current_seat
        applied = len(actions)
        bot, unlisted, viewless, forced = table[seat]
        if unlisted:  # see StrategyBot._best
            legal = OffersLeftOut(legal_actions(state, offers=False), state, seat)
            listed, kept = tuple(legal), cache.listed
        else:
            legal = legal_actions(state)  # a fresh list: the bot may reorder or extend it
            listed = kept = cache.listed  # the engine's own (immutable) listing of this position
        if viewless or (forced and len(legal) == 1 and not _offers_left(legal)):
            view = None  # a bot that never reads it (or not when it has no choice)
        else:
            view = game.view(seat)
        action = bot.decide(view, legal, rng)
        untouched = game.state is state and cache.listed is kept and len(actions) == applied
        if untouched and listed is not None and any(map(is_, listed, repeat(action))):
            apply_listed(state, action)  # one of the actions just listed: already checked
            actions.append(action)  # as Game.apply_listed does
        else:
            apply_choice(game, seat, bot, action)
        actions = game.actions  # a bot may have replaced the log (undo, load)
    raise RuntimeError(f"The game did not finish within {max_actions} actions.")


def _offers_left(legal) -> int:
    return legal.count if type(legal) is OffersLeftOut else 0
