"""What one seat may know: the information-set view that bots and learning agents read.

``game.view(seat)`` copies out of the live game exactly what the player in
``seat`` could see at a real table, and nothing else:

* **public facts** — the board, every piece on it, hazards, the Inspector, the event
  board and the discs that left the game, GF and LF, the turn, phase and dice, the
  pending decisions (``queue``), the award holders, the outcome, the log;
* **its own hand** (``players[seat].hand``) and **its own development cards**;
* **counts only** for the other seats: hand size (``cards``), development cards held
  and bought this turn (``dev_count``, ``dev_new_count``); energy, the warehouse and
  cards already played are public;
* **the bag as the table sees it** — the same rule as the risk meter
  (:mod:`energies.insight.risk`): brown discs by symbol, green discs only as a count
  (they enter the bag face down, rules 3.1 and 10.4), listed in a fixed order so the
  bag's order tells nothing; the teacher's fixed next discs (sandbox) are public;
* **victory points**: ``victory_points(s)`` counts hidden Victory Point cards only for
  the view's own seat; for the others it is the public score.

Left out on purpose: the random streams, the seed, the deck's order and contents
(only its size), the bag's order and green symbols, fixed dice, other hands'
contents, and the supply's count per card kind (with it and your own hand you could
subtract your way to the opponents' combined hands; the energy supply is public).

A view is a snapshot: it never changes, holds no reference to the game or its state
(only copies, tuples, frozensets and read-only mappings, plus the immutable board and
rule set), and has no ``fork``. It offers the attribute names bots already read from
``game.state`` (``players``, ``rules``, ``board``, ``phase``, ``queue``, ``owner_of``,
``pieces_left``, ...), so a bot written for the state reads a view unchanged. Two
positions that differ only in what ``seat`` cannot see give equal views.
"""

from __future__ import annotations

import operator
from collections import Counter
from operator import attrgetter
from types import MappingProxyType
from typing import Any

from ..state import GameState, check_seat
from .types import (
    _EMPTY,
    _PLAIN,
    _SCALAR_NAMES,
    HIDDEN,
    GameView,
    HiddenInformationError,
    PlayerView,
    TaskView,
)

__all__ = ["HIDDEN", "GameView", "HiddenInformationError", "PlayerView", "TaskView", "make_view"]

_GREEN_HIDDEN = ("green", HIDDEN)
_SCALARS = attrgetter(*_SCALAR_NAMES.split())  # the plain values a view copies as they are


# -- building views cheaply ------------------------------------------------------------------
#
# A bot reads a new view before every decision, and between two decisions most of the game
# stands still. The parts below are therefore reused from the previous view whenever their
# source still has exactly the same content (checked in full, by value: C-level comparisons
# of a few small sets and dicts cost a fraction of copying them). A view holds only the
# immutable copies; the caches also keep, for identity checks, the last players viewed
# (_own), the queued tasks (_queue_kept) and the log list (_last_log). No view reaches them,
# but a bot that imports this module could: like the caller's stack frames, that is outside
# what a view can protect. A stale entry is simply rebuilt.

_public: dict[int, PlayerView] = {}  # id of a PlayerState -> its last public copy
_own: dict[int, tuple] = {}  # id of a PlayerState -> (it, public copy, dev cards, new, own copy)
_tasks: dict[tuple, TaskView] = {}  # (kind, seat, repr of the details) -> its frozen copy
_queue_kept: list[dict] = [{}]  # [id of a queued task -> (it, its details, its frozen copy)]
_kept: list[Any] = [None, (), ()]  # [a state's cache.view_stamp, its public parts, players]
# [every seat's towns, cities and plants (copies), rules, (owners, lf, gf)]
_last_derived: list[Any] = [None, None, None]
_last_log: list[Any] = [None, [], ()]  # [a game's log list, its full chunks, as a tuple]
LOG_CHUNK = 32
_last_bag: list[Any] = [None, ()]  # [the bag's discs as a tuple, its public form]
_last_board: list[Any] = [None, _EMPTY]  # [a copy of the event board, its read-only form]


def _table(state: GameState, seat: int) -> tuple[tuple[PlayerView, ...], tuple]:
    """(every player as ``seat`` sees them, the public copies of the bag, the event board,
    the discs out of the game, the hazards, the corner owners, LF and GF).

    While the state keeps the stamp of the last copies (only trade-window answers came
    since, engine.QUIET), those copies are still exact and are reused as they are.
    """
    cache = state.cache
    stamp = cache.view_stamp
    if stamp is not None and stamp is _kept[0]:
        public = _kept[2]
        players = list(public)
        players[seat] = _own_view(state.players[seat], public[seat])
        return tuple(players), _kept[1]
    public = _public_players(state.players)
    players = list(public)
    players[seat] = _own_view(state.players[seat], public[seat])
    parts = (
        _public_bag(state.bag),
        _forced_discs(state) if state.forced_discs else (),
        _event_board(state.event_board),
        tuple(state.removed_discs),  # drawn face up, in the public order they left
        frozenset(state.hex_hazards),
        frozenset(state.building_hazards),
        *_derived(public, state.rules),
    )
    stamp = cache.view_stamp = object()
    _kept[:] = [stamp, parts, public]
    return tuple(players), parts


def _public_players(players: list) -> tuple[PlayerView, ...]:
    """The public copy of every player (the same for every seat), reused while it still
    shows exactly what the player holds."""
    public = []
    for p in players:  # one plain loop: this runs before every decision of every bot
        old = _public.get(id(p))
        if old is None or not _unchanged(old, p):
            if len(_public) > 512:  # many games in one process: forget the old ones
                _public.clear()
            old = _public[id(p)] = PlayerView(p, False) if old is None else _updated(old, p)
        public.append(old)
    return tuple(public)


def _updated(old: PlayerView, p) -> PlayerView:
    """A new public copy of ``p`` that keeps the piece copies of ``old`` still equal to the
    pieces (the same objects: corner owners and LF are then known unchanged, _derived)."""
    plants = p.plants
    same_plants = old[6] == plants
    return tuple.__new__(
        PlayerView,
        (
            p.seat,
            sum(p.hand.values()),
            p.energy,
            old[3] if old[3] == p.towns else frozenset(p.towns),
            old[4] if old[4] == p.cities else frozenset(p.cities),
            old[5] if old[5] == p.roads else frozenset(p.roads),
            old[6] if same_plants else MappingProxyType(plants.copy()) if plants else _EMPTY,
            len(p.dev_cards),
            len(p.dev_new),
            old[9]
            if old[9] == p.dev_played
            else MappingProxyType(p.dev_played.copy())
            if p.dev_played
            else _EMPTY,
            p.warehouse,
            (HIDDEN,) * len(p.green_slots),
            None,
            None,
            None,
            old[15] if same_plants else list(plants.values()).count("fossil") if plants else 0,
        ),
    )


def _unchanged(v: PlayerView, p) -> bool:
    """Does the public copy ``v`` still show exactly what ``p`` holds?"""
    return (
        v[0] == p.seat
        and v[2] == p.energy
        and v[7] == len(p.dev_cards)
        and v[8] == len(p.dev_new)
        and v[10] == p.warehouse
        and len(v[11]) == len(p.green_slots)
        and v[1] == sum(p.hand.values())
        and v[5] == p.roads
        and v[3] == p.towns
        and v[4] == p.cities
        and v[6] == p.plants
        and v[9] == p.dev_played
    )


def _own_view(p, public: PlayerView) -> PlayerView:
    """The seat's own copy: its public copy with the hand and development cards."""
    old = _own.get(id(p))
    if (
        old is not None
        and old[0] is p
        and old[1] is public
        and old[4][12] == p.hand
        and old[2] == p.dev_cards
        and old[3] == p.dev_new
    ):
        return old[4]
    if len(_own) > 256:
        _own.clear()
    own = tuple.__new__(
        PlayerView,
        (
            *public[:12],
            MappingProxyType(p.hand.copy()),
            tuple(sorted(p.dev_cards)),
            tuple(sorted(p.dev_new)),
            public[15],
        ),
    )
    _own[id(p)] = (p, public, list(p.dev_cards), list(p.dev_new), own)
    return own


def _derived(players: tuple[PlayerView, ...], rules) -> tuple[MappingProxyType, tuple, int]:
    """Corner owners, every seat's LF and the GF (rules 4.1, 4.2), from the copies."""
    last = _last_derived
    pieces = [piece for p in players for piece in (p[3], p[4], p[6])]  # towns, cities, plants
    if last[1] is rules and len(last[0]) == len(pieces) and all(map(operator.is_, last[0], pieces)):
        return last[2]  # the same copies of every seat's buildings and plants
    owners: dict[int, int] = {}
    lf = []
    for p in players:
        owners.update(dict.fromkeys(p[3], p[0]))  # towns
        owners.update(dict.fromkeys(p[4], p[0]))  # cities
        fossil = p[15]
        lf.append(  # as GameState.local_footprint
            rules.lf_town * len(p[3])
            + rules.lf_city * len(p[4])
            + rules.lf_fossil * fossil
            + rules.lf_renewable * (len(p[6]) - fossil)
        )
    gf = max(0, min(rules.gf_max, sum(lf)))
    result = (MappingProxyType(owners), tuple(lf), gf)
    last[:] = [pieces, rules, result]
    return result


def _queue_view(queue: list) -> tuple[TaskView, ...]:
    """The frozen copies of the pending tasks.

    A task usually waits through several views (the proposal windows of a turn wait in the
    queue together), so the copies of the last queue's tasks are kept with the task and a
    shallow copy of its details, and reused while the details are equal. Details holding
    lists or dicts (which the engine may change inside) are never reused this way. Only the
    tasks still queued are kept (a cache of every task would keep them all alive)."""
    kept, now = _queue_kept[0], {}
    views = []
    for task in queue:
        found = kept.get(id(task))
        if found is None or found[0] is not task or found[1] != task.info:
            info = task.info
            flat = all(map(_PLAIN.__contains__, map(type, info.values())))
            found = (task, info.copy() if flat else None, _task_view(task))
        now[id(task)] = found
        views.append(found[2])
    _queue_kept[0] = now
    return tuple(views)


def _task_view(task) -> TaskView:
    """The frozen copy of a pending task, shared by every view of a task with the same
    content (freezing the details anew costs more than writing them out as text)."""
    key = (task.kind, task.seat, repr(task.info))  # JSON-like details: repr tells them apart
    found = _tasks.get(key)
    if found is None:
        if len(_tasks) > 4096:
            _tasks.clear()
        found = _tasks[key] = TaskView(task)
    return found


def _log_chunks(log: list) -> tuple[tuple[tuple, ...], tuple]:
    """The log as (its full chunks of LOG_CHUNK lines, the last, shorter one).

    The engine only ever appends to a game's log, so a full chunk never changes: it is
    copied once and shared by every later view, and a view copies only the last lines.
    The cache keeps the log list itself (not reachable from any view), so the identity
    check cannot be fooled by a reused id.
    """
    cache = _last_log
    full = len(log) // LOG_CHUNK
    if cache[0] is not log or len(cache[1]) > full:
        cache[:] = [log, [], ()]
    chunks = cache[1]
    if len(chunks) < full:
        while len(chunks) < full:
            start = len(chunks) * LOG_CHUNK
            chunks.append(tuple(log[start : start + LOG_CHUNK]))
        cache[2] = tuple(chunks)
    return cache[2], tuple(log[full * LOG_CHUNK :])


def _public_bag(bag: list) -> tuple[tuple[str, str], ...]:
    """The bag's discs in a fixed order, green symbols hidden (rules 3.1, 10.4)."""
    discs = tuple(bag)
    if discs != _last_bag[0]:
        browns = [d for d in discs if d[0] == "brown"]
        browns.sort()
        _last_bag[:] = [discs, (*browns, *(_GREEN_HIDDEN,) * (len(discs) - len(browns)))]
    return _last_bag[1]


def _event_board(board: dict) -> MappingProxyType:
    """The discs on the event board, row by row, read-only."""
    if board != _last_board[0]:
        _last_board[:] = [
            {k: list(v) for k, v in board.items()},
            MappingProxyType({k: tuple(v) for k, v in board.items()}),
        ]
    return _last_board[1]


def _forced_discs(state: GameState) -> tuple[tuple[str, str], ...]:
    """Teacher-fixed next discs still in the bag (public, as in the risk meter)."""
    available = Counter(state.bag)
    forced = []
    for disc in state.forced_discs:
        disc = tuple(disc)
        if available[disc] > 0:
            available[disc] -= 1
            forced.append(disc)
    return tuple(forced)


def make_view(state: GameState, seat: int) -> GameView:
    """The view of ``seat`` on a game state (``Game.view`` calls this)."""
    check_seat(state, seat)
    players, parts = _table(state, seat)
    queue = state.queue
    return tuple.__new__(
        GameView,
        (
            seat,
            *_SCALARS(state),  # rules and board (immutable), then plain values
            len(state.dev_deck),
            players,
            *parts,  # bag, forced discs, event board, removed discs, hazards, owners, LF, GF
            _queue_view(queue) if queue else (),
            _log_chunks(state.log),  # sentences and frozen actions
            MappingProxyType(dict(state.proposals_made)) if state.proposals_made else _EMPTY,
            state.table_asks,  # rule 12.1: the active player's asks this turn (public)
        ),
    )


def reuses_copies(state: GameState) -> bool:
    """Whether the next view of ``state`` reuses the public copies of an earlier one as they
    are (the state kept their stamp through trade-window answers)."""
    stamp = state.cache.view_stamp
    return stamp is not None and stamp is _kept[0]


def fresh_view(state: GameState, seat: int) -> GameView:
    """The view of ``seat`` copied afresh, as if no copy were kept, leaving the kept copies
    (and the state's stamp) as they were: the oracle :mod:`energies.invariants` compares the
    views bots get with."""
    names = (
        "_public",
        "_own",
        "_tasks",
        "_queue_kept",
        "_kept",
        "_last_derived",
        "_last_bag",
        "_last_board",
        "_last_log",
    )
    kept, stamp = {name: globals()[name] for name in names}, state.cache.view_stamp
    globals().update(
        _public={},
        _own={},
        _tasks={},
        _queue_kept=[{}],
        _kept=[None, (), ()],
        _last_derived=[None, None, None],
        _last_bag=[None, ()],
        _last_board=[None, _EMPTY],
        _last_log=[None, [], ()],
    )
    try:
        return make_view(state, seat)
    finally:
        globals().update(kept)
        state.cache.view_stamp = stamp


def forget_copies() -> None:
    """Empty every cache of copies (the next view copies everything afresh): for tests and
    :mod:`energies.invariants`, which compare views made from the caches with fresh ones."""
    _public.clear()
    _own.clear()
    _tasks.clear()
    _queue_kept[:] = [{}]
    _kept[:] = [None, (), ()]
    _last_derived[:] = [None, None, None]
    _last_bag[:] = [None, ()]
    _last_board[:] = [None, _EMPTY]
    _last_log[:] = [None, [], ()]
