"""Run a game to its end with bots deciding for every seat."""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from itertools import repeat

from . import engine
from .bots import Player
from .game import Game
from .state import Outcome
from .trade_offers import OffersLeftOut
from .view import GameView


def view_for(bot: Player, game: Game, seat: int) -> GameView | None:
    """What ``bot`` gets to decide from: the view of its seat.

    A bot whose ``decide`` is marked ``ignores_view`` (RandomBot's) gets None
    instead, which saves copying the position for a bot that never reads it (and
    ``play`` passes None to one marked ``ignores_view_if_forced`` when it has a single
    option).
    """
    if getattr(bot.decide, "ignores_view", False):
        return None
    return game.view(seat)


def play(
    game: Game, bots: Sequence[Player] | Mapping[int, Player], max_actions: int = 1_000_000
) -> Outcome:
    """Let the bots decide until the game is over; return the outcome.

    ``bots`` is a list with one bot per seat, or a dict seat -> bot. Each bot
    decides from ``game.view(seat)``: what its seat may know, never the game
    itself. The bots share one random stream seeded from the game's seed, so the
    same game and bots always play out the same way.
    """
    seats = dict(enumerate(bots)) if not isinstance(bots, Mapping) else dict(bots)
    missing = [s for s in range(game.rules.players) if s not in seats]
    if missing:
        raise ValueError(f"No bot for seat(s) {missing}: give one bot per seat.")
    rng = random.Random(f"{game.seed}:bots:{len(game.actions)}")
    if not isinstance(game, Game):  # another game of the kit (energies.games)
        return _play_contract(game, seats, rng, max_actions)
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
        if state.outcome is not None:
            return game.outcome
        queue = state.queue
        seat = queue[0].seat if queue else state.active  # engine.current_seat
        applied = len(actions)
        bot, unlisted, viewless, forced = table[seat]
        if unlisted:  # see StrategyBot._best
            legal = OffersLeftOut(legal_actions(state, offers=False), state, seat)
            listed, kept = tuple(legal), state.listed
        else:
            legal = legal_actions(state)  # a fresh list: the bot may reorder or extend it
            listed = kept = state.listed  # the engine's own (immutable) listing of this position
        if viewless or (forced and len(legal) == 1 and not _offers_left(legal)):
            view = None  # a bot that never reads it (or not when it has no choice)
        else:
            view = game.view(seat)
        action = bot.decide(view, legal, rng)
        untouched = game.state is state and state.listed is kept and len(actions) == applied
        if untouched and listed is not None and any(map(is_, listed, repeat(action))):
            apply_listed(state, action)  # one of the actions just listed: already checked
            actions.append(action)  # as Game.apply_listed does
        else:
            game.apply(action)
        actions = game.actions  # a bot may have replaced the log (undo, load)
    raise RuntimeError(f"The game did not finish within {max_actions} actions.")


def _offers_left(legal) -> int:
    return legal.count if type(legal) is OffersLeftOut else 0


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
