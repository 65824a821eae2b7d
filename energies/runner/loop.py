"""Run a game to its end with bots deciding for every seat: any registered game, through the
contract, or through the faster loop a game registers (``GameSpec.play_loop``)."""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any

from ..kit import registry
from ..kit.registry import Bot, GameProtocol


def view_for(bot: Bot, game: GameProtocol, seat: int) -> Any:
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
    game: GameProtocol,
    bots: Sequence[Bot] | Mapping[int, Bot],
    max_actions: int = 1_000_000,
    fast: bool = True,
) -> Any:
    """Let the bots decide until the game is over; return the outcome.

    ``bots`` is a list with one bot per seat, or a dict seat -> bot. Each bot
    decides from ``game.view(seat)``: what its seat may know, never the game
    itself. The bots share one random stream seeded from the game's seed, so the
    same game and bots always play out the same way.

    A game may register a faster loop that plays the same games (New Energies does);
    ``fast=False`` plays through the contract only, the reference that loop must match.
    """
    if not isinstance(max_actions, int) or isinstance(max_actions, bool) or max_actions < 1:
        raise ValueError(f"max_actions must be a whole number of at least 1, not {max_actions!r}.")
    if not isinstance(fast, bool):
        raise ValueError(f"fast must be True or False, not {fast!r}.")
    seats = _seat_bots(game, bots)
    rng = random.Random(f"{game.seed}:bots:{len(game.actions)}")
    loop = _registered_loop(game) if fast else None
    if loop is not None:
        return loop(game, seats, rng, max_actions, _apply_choice)
    return _play_contract(game, seats, rng, max_actions)


def _registered_loop(game: GameProtocol):
    """The faster loop the game's registry entry names, or None (also for a game that is not
    registered: it plays through the contract)."""
    try:
        spec = registry.spec_of(game)
    except ValueError:
        return None
    return spec.hook("play_loop")


def _seat_bots(game, bots) -> dict[int, Bot]:
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
    try:
        spec = registry.spec_of(game)
    except ValueError:  # a game outside the registry: its bots are its own business
        spec = None
    for seat, bot in seats.items():
        if not callable(getattr(bot, "decide", None)):
            hint = f": make one with en.bots.make_bot({bot!r})" if isinstance(bot, str) else ""
            raise ValueError(f"The bot of seat {seat}, {bot!r}, has no decide() method{hint}.")
        problem = spec.foreign_bot_problem(bot) if spec else None
        if problem:  # it would fail with an AttributeError deep inside its first decision
            raise ValueError(f"The bot of seat {seat}: {problem}")
    return seats


def _apply_choice(game: GameProtocol, seat: int, bot: Bot, action) -> None:
    """Apply a bot's choice that was not one of the listed actions; when it is illegal (None,
    a made-up or a stale action), the error names the bot and seat as well as the reason."""
    try:
        game.apply(action)
    except ValueError as exc:
        reason = getattr(exc, "reason", None)
        if reason is None:  # not the contract's IllegalActionError: not about the choice
            raise
        name = getattr(bot, "name", type(bot).__name__)
        reason = f"The bot of seat {seat} ({name}) chose an illegal action: {reason}"
        raise type(exc)(reason, action) from None


def _play_contract(
    game: GameProtocol, seats: Mapping[int, Bot], rng: random.Random, max_actions: int
) -> Any:
    """The loop through the game contract only: each bot sees its seat's view."""
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
