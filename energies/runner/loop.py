"""Run a game to its end with bots deciding for every seat."""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from itertools import repeat

from ..newenergies import engine
from ..bots import Player
from ..newenergies.game import Game
from ..newenergies.state import Outcome
from ..newenergies.engine.offers import OffersLeftOut
from ..newenergies.view import GameView


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
    if not isinstance(max_actions, int) or isinstance(max_actions, bool) or max_actions < 1:
        raise ValueError(f"max_actions must be a whole number of at least 1, not {max_actions!r}.")
    seats = _seat_bots(game, bots)
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
            _apply_choice(game, seat, bot, action)
        actions = game.actions  # a bot may have replaced the log (undo, load)
    raise RuntimeError(f"The game did not finish within {max_actions} actions.")


def _seat_bots(game, bots) -> dict[int, Player]:
    """``bots`` as {seat: bot} with exactly one bot per seat of the table, or a ValueError
    that says what is wrong (a fifth bot or seat 9 would otherwise be quietly ignored)."""
    if not hasattr(game, "legal_actions") or not hasattr(game, "rules"):
        raise ValueError(f"play needs a game (en.new_game()), not {game!r}.")
    try:
        seats = dict(bots) if isinstance(bots, Mapping) else dict(enumerate(bots))
    except TypeError:
        seats = None
    if seats is None or isinstance(bots, str):
        raise ValueError(f"bots must be a list of one bot per seat, not {bots!r}.")
    players = game.rules.players
    missing = [s for s in range(players) if s not in seats]
    if missing:
        raise ValueError(f"No bot for seat(s) {missing}: give one bot per seat.")
    if len(seats) > players:
        extra = [s for s in seats if s not in range(players)]
        raise ValueError(f"Seat(s) {extra} are not at this table of {players}: one bot per seat.")
    for seat, bot in seats.items():
        if not callable(getattr(bot, "decide", None)):
            hint = f": make one with en.bots.make_bot({bot!r})" if isinstance(bot, str) else ""
            raise ValueError(f"The bot of seat {seat}, {bot!r}, has no decide() method{hint}.")
    return seats


def _apply_choice(game, seat: int, bot: Player, action) -> None:
    """Apply a bot's choice that was not one of the listed actions; when it is illegal (None,
    a made-up or a stale action), the error names the bot and seat as well as the reason."""
    try:
        game.apply(action)
    except engine.IllegalActionError as exc:
        name = getattr(bot, "name", type(bot).__name__)
        reason = f"The bot of seat {seat} ({name}) chose an illegal action: {exc.reason}"
        raise engine.IllegalActionError(reason, action) from None


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
            _apply_choice(game, seat, seats[seat], action)
    raise RuntimeError(f"The game did not finish within {max_actions} actions.")
