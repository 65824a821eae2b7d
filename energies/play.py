"""Run a game to its end with bots deciding for every seat."""

from __future__ import annotations

import operator
import random
from itertools import repeat
from typing import Mapping, Sequence

from . import engine
from .bots import Player
from .game import Game
from .state import Outcome


def play(
    game: Game, bots: Sequence[Player] | Mapping[int, Player], max_actions: int = 1_000_000
) -> Outcome:
    """Let the bots decide until the game is over; return the outcome.

    ``bots`` is a list with one bot per seat, or a dict seat -> bot. The bots
    share one random stream seeded from the game's seed, so the same game and
    bots always play out the same way.
    """
    seats = dict(enumerate(bots)) if not isinstance(bots, Mapping) else dict(bots)
    missing = [s for s in range(game.rules.players) if s not in seats]
    if missing:
        raise ValueError(f"No bot for seat(s) {missing}: give one bot per seat.")
    rng = random.Random(f"{game.seed}:bots:{len(game.actions)}")
    if not isinstance(game, Game):  # another game of the kit (energies.games)
        return _play_contract(game, seats, rng, max_actions)
    actions = game.actions
    for _ in range(max_actions):
        state = game.state
        seat = engine.current_seat(state)
        if seat is None:
            return game.outcome
        applied = len(actions)
        legal = engine.legal_actions(state)  # a fresh list: the bot may reorder or extend it
        listed = state.listed  # the engine's own (immutable) listing of this position
        action = seats[seat].decide(game, legal, rng)
        untouched = game.state is state and state.listed is listed and len(actions) == applied
        if untouched and listed is not None and any(map(operator.is_, listed, repeat(action))):
            engine.apply_listed(state, action)  # one of the actions just listed: already checked
            actions.append(action)  # as Game.apply_listed does
        else:
            game.apply(action)
        actions = game.actions  # a bot may have replaced the log (undo, load)
    raise RuntimeError(f"The game did not finish within {max_actions} actions.")


def _play_contract(game, seats: Mapping[int, Player], rng: random.Random, max_actions: int):
    """The same loop through the game contract only: each bot sees its seat's view."""
    for _ in range(max_actions):
        seat = game.current_seat
        if seat is None:
            return game.outcome
        legal = game.legal_actions()
        listed = tuple(legal)  # the bot may reorder or extend its list
        action = seats[seat].decide(game.view(seat), legal, rng)
        if any(map(operator.is_, listed, repeat(action))):
            game.apply_listed(action)  # one of the actions just listed: already checked
        else:
            game.apply(action)
    raise RuntimeError(f"The game did not finish within {max_actions} actions.")
