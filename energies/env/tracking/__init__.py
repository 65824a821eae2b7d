"""The observation of a running game kept up to date between steps (used by :mod:`energies.env`).

:meth:`ObservationEncoder.encode <energies.encoding.ObservationEncoder.encode>` turns a
``GameView`` into the observation vector; building a view and encoding it afresh costs
several times what the engine spends on a move. :class:`ObservationTracker` gives the
very same vector (``tests/test_env_tracking.py`` compares them at every step of many
games) by reading the public facts straight from the running game and keeping each
segment of the vector as bytes, built once when what it shows changes:

* **shared by every seat** — the counters and turn, "public", the phase and dice
  one-hots, the bag and event board, and the tail (plants, hazards, the Inspector,
  terrain, pips): one copy for all seats, rebuilt when it changes;
* **per seat** — the head (its own cards, every seat's hand size, energy, development
  cards and warehouse rotated so the seat comes first) from every seat's numbers read
  once per change (:mod:`energies.tracking_parts` builds the bytes); "seats" rotated
  likewise from each seat's pieces copied once per move; the towns, cities and roads
  rotated from per-kind blocks. A seat keeps the bytes before the pending decision until
  anything but the pending decision changes, and those after it (its rows and the tail)
  until a piece, a hazard or the Inspector moves;
* **per step** — the pending decision and the active seat, kept per seat while the task
  and the active seat stay.

An observation joins three byte runs into one new float32 array (``np.frombuffer`` over a
fresh ``bytearray``): the caller may keep or change it.

It reads only what the view shows: public facts, counts of the other seats' cards, and
the observing seat's own hand and cards — never another hand, the deck's or bag's order,
the green symbols or the random streams.

Knowing what changed: the tracker looks at the actions the game has applied since it
last looked (``game.actions``). A trade window's answer (``engine.QUIET``, a refused trade
too) changes only the pending decision and the offers made, and the engine runs nothing
after it (most actions of a game are such answers: ``observation`` takes them itself);
after any other action every seat's numbers are read again, the pieces compared
(unless the kind is in :data:`BOARD_STAYS`), and the Inspector, the awards, the bag's size
(what the engine does on its own after an action: drawing event discs), the phase and the
hazards checked; after several actions the bag is read again (a disc in and a disc out
leave its size as it was). No action, no change (every change, a teacher's edit included,
is an action). Another game, an undo or a replaced state starts afresh.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...newenergies.actions import EndTurn, RespondToTrade
from ...newenergies.engine import PIECES_STAY, QUIET
from ..encoding import ObservationEncoder
from .segments import Segments

#: Actions that move no road, building or plant: the engine's PIECES_STAY, and the end of a
#: turn unless the event phase it leads to draws discs (rules 6, 7: seen in the bag's size).
#: Hazards, the Inspector and the awards are compared at every look (a roll clears hazards,
#: rule 8.5).
BOARD_STAYS = PIECES_STAY | {EndTurn}

_JOIN = bytearray().join  # a new, writable buffer: the array handed out owns its bytes
_FLOAT32 = np.float32
_frombuffer = np.frombuffer
_STALE = (False, None, None, None)


class ObservationTracker:
    """``encoder.encode(game.view(seat))`` for the game it follows, computed incrementally.

    ``observation(game, seat)`` returns a new float32 array each call (the caller may
    keep or change it); the tracker follows the last game it was asked about.
    """

    __slots__ = ("_actions", "_after", "_counters", "_hazards", "_heads", "_kept", "_mid", "_n",
                 "_numbers", "_offers", "_parts", "_pending", "_pendings", "_pieces",
                 "_players_list", "_rows", "_seats", "_seen", "_state", "_version", "_watch",
                 "encoder")  # fmt: skip

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        self._parts = Segments(encoder)
        self._state = self._actions = self._players_list = None
        self._seen = self._n = 0
        # every seat's numbers (tracking_parts.Segments.read_numbers), None: to be read
        self._numbers: tuple | None = None
        self._counters: bytes | None = None  # the counters and the turn, None: to be read
        self._offers = -1  # the offers made the counters show
        # "public", the phase and dice one-hots, the bag and event board (read with the numbers)
        self._mid = b""
        # new tokens: whenever pieces or awards change ("seats"); whenever towns, cities or
        # roads move (the rotated rows). The shared segments (the bag, "public", the tail) are
        # rebuilt in place (tracking_parts.Segments)
        self._pieces: object = object()
        self._rows: object = object()
        # a new token whenever the rows or the tail change (the bytes after the pending ones)
        self._after: object = object()
        # a new token whenever anything but the pending decision may have changed
        self._version: object = object()
        # per seat: (version, the bytes before the pending decision, the token and the bytes
        # after it); (task, active seat, the pending bytes); (numbers, head bytes, VP cards held);
        # (pieces token, VP cards, "seats" bytes)
        self._kept: list[tuple] = []
        self._pendings: list[tuple] = []
        self._heads: list[tuple] = []
        self._seats: list[tuple] = []
        self._pending: dict[Any, bytes] = {}  # see observation()
        # (inspector, awards, bag size, phase) and (hex hazards, building hazards) as last seen
        self._watch: tuple = ()
        self._hazards: tuple = ()

    # -- the observation ---------------------------------------------------------------------

    def observation(self, game, seat: int) -> np.ndarray:
        """The observation of ``seat`` now: equal to ``encoder.encode(game.view(seat))``."""
        state = game.state
        # another game, an undo (a new action list) or a replaced state: start afresh
        if (
            state is not self._state
            or game.actions is not self._actions
            or state.players is not self._players_list
        ):
            self._follow(game)
        elif len(self._actions) != self._seen:  # every change comes with an action
            last = self._actions[-1]
            kind = type(last)
            # a trade window's answer (engine.QUIET, a refused trade too) moves no card, piece,
            # disc or hazard and the engine runs nothing after it; only the offers made change
            # (written out here: most actions are answers)
            if len(self._actions) == self._seen + 1 and (
                kind in QUIET or (kind is RespondToTrade and not last.accept)
            ):
                self._seen += 1
                if state.offers_made != self._offers:  # an offer made (rule 12.1)
                    self._counters, self._version = None, object()
            else:
                self._look(state)
        kept = self._kept[seat]
        if kept[0] is not self._version:
            kept = self._rebuild(seat)
        # the pending decision, the trade being answered and the active seat (a task's kind,
        # seat and trade never change once it is queued)
        queue, active = state.queue, state.active
        task = queue[0] if queue else None
        pending = self._pendings[seat]
        if pending[0] is not task or pending[1] != active:
            pending = self._pendings[seat] = (task, active, self._pending_bytes(seat, task, active))
        return _frombuffer(_JOIN((kept[1], pending[2], kept[3])), _FLOAT32)

    def _pending_bytes(self, seat: int, task, active: int) -> bytes:
        """The "pending", "trade" and "trade_from" segments seen from ``seat``, from a table
        keyed by the active seat relative to it, the task's kind, whether it decides, and for
        a trade response its maker relative to it and the cards given and asked."""
        active = (active - seat) % self._n
        if task is None:
            key: Any = active
        elif task.kind == "trade_response":
            info = task.info
            give, get, maker = info["give"], info["get"], (info["from"] - seat) % self._n
            if len(give) == 1 and len(get) == 1:  # (kind, count) each: a flat key
                key = (active, task.seat == seat, maker, *give[0], *get[0])
            else:
                key = (active, task.seat == seat, maker, tuple(map(tuple, give)),
                       tuple(map(tuple, get)))  # fmt: skip
        else:
            key = (active, task.kind, task.seat == seat)
        found = self._pending.get(key)
        if found is None:
            if len(self._pending) > 4096:
                self._pending.clear()
            found = self._pending[key] = self._parts.pending(active, task, seat)
        return found

    def _rebuild(self, seat: int) -> tuple:
        """The seat's bytes before and after the pending decision, afresh where they changed
        since the seat's last observation."""
        parts, state = self._parts, self._state
        numbers = self._numbers
        if numbers is None:  # anything but the offers made may have changed
            numbers = self._numbers = parts.read_numbers(state)
            self._mid = parts.public + parts.frame(state.phase, state.dice) + parts.table
        counters = self._counters
        if counters is None:
            counters = self._counters = parts.counters(state)
            self._offers = state.offers_made
        head = self._heads[seat]
        if head[0] is not numbers:
            head = self._heads[seat] = (numbers, *parts.head(state, seat, numbers))
        seats = self._seats[seat]
        if seats[0] is not self._pieces or seats[1] != head[2]:
            seats = self._seats[seat] = (
                self._pieces, head[2], parts.seats(state, seat, head[2], self._pieces)
            )  # fmt: skip
        kept = self._kept[seat]
        after = kept[3]
        if kept[2] is not self._after:
            after = parts.rows(seat, self._rows) + parts.tail
        kept = self._kept[seat] = (
            self._version, b"".join((head[1], counters, seats[2], self._mid)), self._after, after,
        )  # fmt: skip
        return kept

    # -- what changed since the last look ----------------------------------------------------

    def _look(self, state) -> None:
        """Forget what the actions since the last look may have changed (see the module text;
        observation() takes a single trade window's answer itself)."""
        actions = self._actions
        seen, now = self._seen, len(actions)
        self._seen = now
        if now == seen + 1:  # one action since the last look: what did it touch?
            last = actions[-1]
            kind = type(last)
            if kind is RespondToTrade:  # an accepted trade: only cards moved (rule 12.1)
                self._numbers = self._counters = None
                self._version = object()
                return
            if kind not in BOARD_STAYS:
                self._pieces_moved()
        else:
            self._pieces_moved()
            # several actions (the opponents' moves between two observations of a
            # SingleAgentEnv): a renewable plant's disc into the bag (rule 10.4) and an event
            # draw out of it (rule 6.1) leave the bag's size as it was, so read it afresh
            self._parts.bag_changed(state)
        self._numbers = self._counters = None
        self._version = object()
        watch = (
            state.inspector, state.longest_road_holder, state.environmentalist_holder,
            len(state.bag), state.phase,
        )  # fmt: skip
        hazards = False
        if watch != self._watch:
            before, self._watch = self._watch, watch
            if watch[1:3] != before[1:3]:  # an award changed hands
                self._pieces = object()
            if watch[3] != before[3]:
                self._parts.bag_changed(state)  # the event phase may have moved cards too
            hazards = watch[0] != before[0]  # the Inspector moved
        if (
            hazards
            or state.hex_hazards != self._hazards[0]
            or (state.building_hazards != self._hazards[1])
        ):
            self._hazards_changed()

    def _follow(self, game) -> None:
        state = game.state
        self._state, self._actions = state, game.actions
        self._players_list = state.players
        self._seen = len(game.actions)
        self._parts.follow(state)
        self._parts.bag_changed(state)
        self._n = n = len(state.players)
        self._heads = [_STALE] * n
        self._seats = [_STALE] * n
        self._numbers = self._counters = None
        self._version = self._rows = self._pieces = self._after = object()
        self._kept = [_STALE] * n
        self._pendings = [_STALE] * n
        self._watch = (
            state.inspector, state.longest_road_holder, state.environmentalist_holder,
            len(state.bag), state.phase,
        )  # fmt: skip
        self._hazards_changed()

    def _pieces_moved(self) -> None:
        """A piece may have moved: copy the pieces of the seats whose pieces moved."""
        if self._parts.pieces_moved(self._state):
            self._rows = self._pieces = self._after = object()

    def _hazards_changed(self) -> None:
        state = self._state
        self._hazards = (set(state.hex_hazards), set(state.building_hazards))
        self._parts.board_changed(state)
        self._after = object()
