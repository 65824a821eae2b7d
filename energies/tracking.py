"""The observation of a running game kept up to date between steps (used by :mod:`energies.env`).

:meth:`ObservationEncoder.encode <energies.encoding.ObservationEncoder.encode>` turns a
``GameView`` into the observation vector; building a view and encoding it afresh costs
several times what the engine spends on a move. :class:`ObservationTracker` gives the
very same vector (``tests/test_env_tracking.py`` compares them at every step of many
games) by reading the public facts straight from the running game and keeping, per
observing seat, what has not changed:

* **the board** — pieces, hazards, the Inspector, and what follows from them (piece
  counts, LF, public VP, GF), the bag and the event board: kept, and when a piece
  moves only the marks of the seat that moved it and the numbers that follow are
  rewritten (a kept vector catches up when its seat is next observed);
* **the hands** — the seat's own cards, every seat's hand size, energy, development
  card count and warehouse, the turn's counters, turn, phase, dice and whose turn it is:
  kept across the actions of a trade window (proposals, refusals, passing), which
  change none of them;
* **the pending decision** — written at every step.

It reads only what the view shows: public facts, counts of the other seats' cards, and
the observing seat's own hand and cards — never another hand, the deck's or bag's order,
the green symbols or the random streams.

Knowing what changed: the tracker looks at the actions the game has applied since it
last looked (``game.actions``): :data:`BOARD_STAYS` and :data:`HANDS_STAY` name the
kinds that leave those parts as they were. What the engine does on its own after an
action (drawing event discs, starting the roll) shows in the bag's size and the phase,
which are checked too — except after a trade window's answer (``engine.QUIET``), after
which the engine runs nothing, and when no action came at all (every change, a teacher's
edit included, is an action). Another game, an undo or a replaced state starts afresh.
"""

from __future__ import annotations

import struct
from collections import Counter
from operator import attrgetter, itemgetter

import numpy as np

from .actions import Decline, EndTurn, OfferTrade, ProposeTrade, RespondToTrade
from .encoding import (
    BROWN,
    DYNAMIC_SIZE,
    HAND_FEATURES,
    HEAD_SIZE,
    MAX_SEATS,
    PHASES,
    PLANTS,
    SEAT_FEATURES,
    TASK_KINDS,
    TRADED,
    ObservationEncoder,
)
from .engine import PIECES_STAY, QUIET
from .rules import CARD_KINDS, DEV_CARDS, ROWS

#: Actions that move no road, building or plant: the engine's PIECES_STAY, and the end of a
#: turn unless the event phase it leads to draws discs (rules 6, 7: seen in the bag's size).
#: Hazards, the Inspector and the awards are compared at every look (a roll clears hazards,
#: rule 8.5).
BOARD_STAYS = PIECES_STAY | {EndTurn}

#: Actions that move no card, energy or development card (a refused trade counts too):
#: only the pending decision changes, and the offers made (rule 12.1), which is checked.
HANDS_STAY = frozenset({OfferTrade, ProposeTrade, Decline})

_hand_of = itemgetter(*CARD_KINDS)
_hand = attrgetter("hand")
_energy = attrgetter("energy")
_dev_cards = attrgetter("dev_cards")
_warehouse = attrgetter("warehouse")
_NO_DEV = (0,) * (2 * len(DEV_CARDS))
_TASK_INDEX = {kind: i for i, kind in enumerate(TASK_KINDS)}
_OTHER = _TASK_INDEX["other"]
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
#: n -> writes n numbers into a float32 vector from a byte offset: numpy converts a tuple
#: assigned to a slice element by element, several times slower than struct
_PACK = {n: struct.Struct(f"{n}f").pack_into for n in range(1, 64)}


def _write(vector: np.ndarray, at: int, values) -> None:
    """``vector[at : at + len(values)] = values``, quickly."""
    _PACK[len(values)](vector, 4 * at, *values)


class ObservationTracker:
    """``encoder.encode(game.view(seat))`` for the game it follows, computed incrementally.

    ``observation(game, seat)`` returns a new float32 array each call (the caller may
    keep or change it); the tracker follows the last game it was asked about.
    """

    # slots keep the reads of every step fast: an instance with this many attributes
    # loses CPython's shared-key dict
    __slots__ = ("_actions", "_at", "_awards", "_bag", "_buildings", "_decider_at", "_discs_next",
        "_game", "_gf", "_greens", "_hands", "_hazard_ones", "_hazards_left", "_hex",
        "_inspector", "_n_corners", "_n_paths", "_no_seats", "_numbers", "_offers_at",
        "_pack_head", "_pack_phase", "_pack_seats", "_pending_at", "_phase", "_phases", "_pieces",
        "_players", "_players_list", "_rotated", "_rotations", "_seen", "_shared", "_sites",
        "_state", "_table", "_trade_at", "encoder")  # fmt: skip

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        at = self._at = encoder.at
        # the vector's dense segments are written with one struct call each: the head (the
        # numbers any action may change, and the turn), "seats" with "public", the phase
        # with the dice
        self._pack_head = struct.Struct(f"{DYNAMIC_SIZE + 1}f").pack_into
        self._pack_seats = struct.Struct(f"{HEAD_SIZE - DYNAMIC_SIZE - 1}f").pack_into
        self._pack_phase = struct.Struct(f"{len(PHASES) + 11}f").pack_into
        self._phases: dict[tuple, tuple[int, ...]] = {}  # (phase, dice) -> their one-hots
        self._no_seats = {n: [0] * (len(SEAT_FEATURES) * (MAX_SEATS - n)) for n in range(5)}
        # per seat: the per-seat numbers of _read_numbers rotated so the seat comes first,
        # feature by feature, empty slots taken from the trailing 0 (for every seat count)
        self._rotations = {
            n: [
                itemgetter(*(
                    f * n + (seat + rel) % n if rel < n else len(HAND_FEATURES) * n
                    for f in range(len(HAND_FEATURES)) for rel in range(MAX_SEATS)
                ))
                for seat in range(n)
            ]
            for n in range(2, MAX_SEATS + 1)
        }  # fmt: skip
        self._offers_at = at["counters"] + 2
        self._n_corners, self._n_paths = len(encoder.board.corners), len(encoder.board.paths)
        self._sites = {site: i for i, site in enumerate(encoder.sites)}
        self._pending_at = at["pending"]
        self._decider_at = at["pending"] + len(TASK_KINDS)
        self._trade_at = at["trade"]
        self._game = None
        self._hazard_ones: tuple[int, ...] = ()
        self._table: tuple[int, ...] = ()
        self._bag = self._greens = self._hazards_left = 0
        # per seat: copies of its pieces and what follows from them (see _player)
        self._players: list[tuple] = []
        # (every seat's _player tuple, the award holders): a new tuple whenever a piece
        # moves or an award changes hands; a kept vector remembers the one it shows
        self._pieces: tuple = ()
        # per observing seat: its vector, kept up to date in place (see _with_hands)
        self._hands: dict[int, list] = {}
        # every seat's hand size, energy, development cards and warehouse, the counters,
        # and (turn, phase, dice, active seat): read once after an action that may change
        # them, shared by every observing seat (None: to be read again)
        self._numbers: tuple | None = None

    # -- what changed since the last look ----------------------------------------------------

    def _look(self, game) -> None:
        """Forget what may have changed since the last look (see the module text)."""
        state, actions = game.state, game.actions
        if (
            game is not self._game
            or state is not self._state
            or actions is not self._actions
            or state.players is not self._players_list
        ):
            self._follow(game)
            return
        seen, now = self._seen, len(actions)
        if now == seen:  # nothing applied since the last look: every change comes with one
            return
        if now == seen + 1:  # one action since the last look: what did it touch?
            last = actions[-1]
            kind = type(last)
            # a trade window's answer (engine.QUIET, a refused trade too) moves no card, piece,
            # disc or hazard and the engine runs nothing after it
            if kind in QUIET or (kind is RespondToTrade and not last.accept):
                self._seen = now  # only the pending decision and the offers made change
                return
            if kind not in BOARD_STAYS:
                self._pieces_moved()
            if kind not in HANDS_STAY and (kind is not RespondToTrade or last.accept):
                self._numbers = None
            self._seen = seen + 1
        elif len(actions) != seen:
            self._pieces_moved()
            self._numbers = None
            self._seen = len(actions)
        if (
            state.longest_road_holder != self._awards[0]
            or state.environmentalist_holder != self._awards[1]
        ):
            self._awards = (state.longest_road_holder, state.environmentalist_holder)
            self._pieces = (self._pieces[0], self._awards)
        if (
            state.inspector != self._inspector
            or state.hex_hazards != self._hex
            or state.building_hazards != self._buildings
        ):
            self._hazards_changed()
        if len(state.bag) != self._bag:
            self._bag_changed()
        if state.phase != self._phase:
            self._phase = state.phase
            self._numbers = None  # the engine moved on by itself (a roll, the event phase)

    def _follow(self, game) -> None:
        state = game.state
        self._game, self._state, self._actions = game, state, game.actions
        self._players_list = state.players
        self._seen = len(game.actions)
        self._awards = (state.longest_road_holder, state.environmentalist_holder)
        self._phase = state.phase
        self._players = [self._player(p) for p in state.players]
        self._rotated = self._rotations[len(self._players)]
        self._pieces = (tuple(self._players), self._awards)
        self._footprint()
        self._hands.clear()
        self._numbers = None
        self._hazards_changed()
        self._bag_changed()

    def _pieces_moved(self) -> None:
        """A piece may have moved: find whose, and note it (the kept vectors catch up when
        they are next observed, see _repiece)."""
        kept, moved = self._players, False
        for s, p in enumerate(self._state.players):
            copies = kept[s]
            if (
                p.roads != copies[0]
                or p.towns != copies[1]
                or p.cities != copies[2]
                or p.plants != copies[3]
            ):
                kept[s] = self._player(p)
                moved = True
        if moved:
            self._pieces = (tuple(kept), self._awards)
            self._footprint()

    def _hazards_changed(self) -> None:
        state, at = self._state, self._at
        self._hex, self._buildings = set(state.hex_hazards), set(state.building_hazards)
        self._inspector = state.inspector
        ones = [at["hex_hazards"] + h for h in state.hex_hazards]
        ones += [at["building_hazards"] + c for c in state.building_hazards]
        ones.append(at["inspector"] + state.inspector)
        self._hazard_ones = tuple(ones)
        self._hazards_left = (
            state.rules.hazard_tokens - len(state.hex_hazards) - len(state.building_hazards)
        )
        self._share()

    def _bag_changed(self) -> None:
        state = self._state
        bag = state.bag
        discs = Counter(bag)  # (color, symbol) pairs, counted in C
        brown = [discs[("brown", symbol)] for symbol in BROWN]
        self._bag = len(bag)
        self._greens = len(bag) - sum(brown)
        self._table = (*brown, *(len(state.event_board.get(row, ())) for row in ROWS))
        self._numbers = None  # the event phase may have moved cards too
        self._share()

    def _share(self) -> None:
        # what the kept vectors of every seat patch in when it changes (see _patch)
        self._shared = (
            self._hazard_ones, self._table, self._bag, self._greens, self._hazards_left
        )  # fmt: skip

    def _patch(self, vector: np.ndarray, old: tuple) -> None:
        """Write the hazards, the Inspector, the bag and the event board into a kept vector
        that shows them as ``old``."""
        ones, table, bag, greens, left = self._shared
        if ones != old[0]:
            for i in old[0]:
                vector[i] = 0
            for i in ones:
                vector[i] = 1
        if table != old[1]:
            _write(vector, self._at["bag_brown"], table)
        at = self._at["public"]
        _write(vector, at + 1, (bag, greens))
        vector[at + 4] = left

    def _footprint(self) -> None:
        """GF from every seat's LF (rule 4.2), and the discs it makes the event phase draw."""
        rules = self._state.rules
        self._gf = max(0, min(rules.gf_max, sum(k[6] for k in self._players)))
        self._discs_next = rules.discs_to_draw(self._gf)

    # -- the observation ---------------------------------------------------------------------

    def observation(self, game, seat: int) -> np.ndarray:
        """The observation of ``seat`` now: equal to ``encoder.encode(game.view(seat))``."""
        self._look(game)
        numbers = self._numbers
        if numbers is None:
            numbers = self._numbers = self._read_numbers()
        kept = self._hands.get(seat)
        if kept is None:
            kept = self._hands[seat] = self._with_hands(seat, numbers)
        else:
            if kept[4] is not self._pieces:
                self._repiece(seat, kept)
            if kept[3] is not self._shared:
                self._patch(kept[0], kept[3])
                kept[3] = self._shared
            if kept[1] is not numbers:
                self._update(seat, kept, numbers)
        state = self._state
        vector = kept[0]
        if state.offers_made != kept[5]:  # an offer was made (rule 12.1)
            vector[self._offers_at] = kept[5] = state.offers_made
        obs = vector.copy()
        if state.queue:
            task = state.queue[0]
            obs[self._pending_at + _TASK_INDEX.get(task.kind, _OTHER)] = 1
            if task.seat == seat:
                obs[self._decider_at] = 1
            if task.kind == "trade_response":
                trade = self._trade_at
                for k, count in task.info["give"]:
                    obs[trade + TRADED.index(k)] = count
                for k, count in task.info["get"]:
                    obs[trade + len(TRADED) + TRADED.index(k)] = count
        return obs

    def _read_numbers(self) -> tuple:
        """(every seat's hand size, energy, development cards and warehouse, feature by
        feature, then a 0 for empty slots; the counters; (turn, phase, dice, active))."""
        state = self._state
        players = state.players
        return (
            (
                *map(sum, map(dict.values, map(_hand, players))),  # hand sizes
                *map(_energy, players),
                *map(len, map(_dev_cards, players)),
                *map(_warehouse, players),
                0,
            ),
            (
                len(state.dev_deck),
                state.energy_supply,
                state.offers_made,
                state.plants_built,
                state.demolished,
                state.dev_played_turn,
            ),
            (state.turn, state.phase, state.dice, state.active),
        )

    @staticmethod
    def _own(me) -> tuple:
        return _hand_of(me.hand), tuple(me.dev_cards), tuple(me.dev_new)

    def _update(self, seat: int, kept: list, numbers: tuple) -> None:
        """Write into a seat's kept vector what changed since it was written: the head
        (its own cards, the per-seat numbers, counters, turn) in one call, and the phase,
        dice and active seat marks when they moved."""
        vector, old = kept[0], kept[1]
        now = self._own(self._state.players[seat])
        if now[1:] != kept[2][1:]:  # its development cards: written afresh
            kept[:] = self._with_hands(seat, numbers)
            return
        self._head(vector, seat, now[0], kept[6], numbers)
        frame, before = numbers[2], old[2]
        if frame[1:3] != before[1:3]:  # a new phase or roll
            self._write_phase(vector, frame)
        if frame[3] != before[3]:  # another seat's turn
            n = len(self._players)
            vector[self._decider_at + 1 + (before[3] - seat) % n] = 0
            vector[self._decider_at + 1 + (frame[3] - seat) % n] = 1
        kept[1], kept[2], kept[5] = numbers, now, numbers[1][2]

    def _head(self, vector: np.ndarray, seat: int, hand: tuple, dev: tuple, numbers) -> None:
        """Write the head: the seat's hand and development cards, every seat's numbers
        rotated so the seat comes first (empty slots 0), the counters and the turn."""
        columns, counters, frame = numbers
        self._pack_head(
            vector, 0, *hand, *dev, *self._rotated[seat](columns), *counters,
            min(frame[0] / 10, 999.0),
        )  # fmt: skip

    def _write_phase(self, vector: np.ndarray, frame: tuple) -> None:
        """The phase and dice one-hots (adjacent segments) in one call."""
        key = frame[1:3]
        marks = self._phases.get(key)
        if marks is None:
            phase, dice = key
            marks = [0] * (len(PHASES) + 11)
            marks[_PHASE_INDEX[phase]] = 1
            if dice:
                marks[len(PHASES) - 2 + dice[0] + dice[1]] = 1
            marks = self._phases[key] = tuple(marks)
        self._pack_phase(vector, 4 * self._at["phase"], *marks)

    def _with_hands(self, seat: int, numbers: tuple) -> list:
        """[the vector with the board, the hands, counters, turn, phase, dice and the active
        seat written in, the numbers written, the seat's own cards written, the shared
        board parts written, the pieces written, the offers made written, the seat's
        development card counts] (kept per seat and updated in place)."""
        me = self._state.players[seat]
        own = self._own(me)
        dev = _NO_DEV
        if me.dev_cards or me.dev_new:
            counts = [0] * (2 * len(DEV_CARDS))
            for card in me.dev_cards:
                counts[DEV_CARDS.index(card)] += 1
            for card in me.dev_new:
                counts[len(DEV_CARDS) + DEV_CARDS.index(card)] += 1
            dev = tuple(counts)
        vector = self._board(seat)
        self._head(vector, seat, own[0], dev, numbers)
        frame = numbers[2]
        self._write_phase(vector, frame)
        vector[self._decider_at + 1 + (frame[3] - seat) % len(self._players)] = 1
        return [vector, numbers, own, self._shared, self._pieces, numbers[1][2], dev]

    def _board(self, seat: int) -> np.ndarray:
        """A new vector with the board and everything that follows from it written in."""
        n, nc, npaths = len(self._players), self._n_corners, self._n_paths
        ones = list(self._hazard_ones)
        for rel in range(n):
            corners, roads, plants = self._players[(seat + rel) % n][4]
            ones += [i + rel * nc for i in corners]
            ones += [i + rel * npaths for i in roads]
            ones += plants
        board = self.encoder.static.copy()
        board[np.fromiter(ones, np.intp, len(ones))] = 1
        self._write_seats(board, seat)
        at = self._at["bag_brown"]
        board[at : at + len(self._table)] = self._table
        return board

    def _repiece(self, seat: int, kept: list) -> None:
        """Bring a kept vector up to the pieces and awards now: only the one-hot marks of
        the seats whose pieces moved change, and the "seats" numbers, GF and the discs."""
        vector, (before, _awards), (now, _) = kept[0], kept[4], self._pieces
        n, nc, npaths = len(now), self._n_corners, self._n_paths
        for s in range(n):
            if before[s] is now[s]:
                continue
            rel = (s - seat) % n
            for old, new, shift in zip(before[s][4], now[s][4], (rel * nc, rel * npaths, 0)):
                for i in old - new:
                    vector[i + shift] = 0
                for i in new - old:
                    vector[i + shift] = 1
        self._write_seats(vector, seat)
        kept[4] = self._pieces

    def _write_seats(self, vector: np.ndarray, seat: int) -> None:
        """The "seats" segment (public VP, the seat's own counting its hidden VP cards; LF,
        piece counts, awards), seen from ``seat``, and the "public" one, in one call."""
        rules, kept = self._state.rules, self._players
        n = len(kept)
        numbers: list[int] = []
        lr, env_holder = self._awards
        for rel in range(n):
            s = (seat + rel) % n
            counts, lf, vp = kept[s][5:]
            vp += rules.longest_road_vp * (lr == s) + rules.environmentalist_vp * (env_holder == s)
            numbers += (vp, lf, *counts, lr == s, env_holder == s)
        cards = self._state.players[seat].dev_cards
        if "victory_point" in cards:  # hidden VP cards count for their owner
            numbers[0] += rules.vp_card_vp * cards.count("victory_point")
        numbers += self._no_seats[n]
        self._pack_seats(
            vector, 4 * self._at["seats"], *numbers, self._gf, self._bag, self._greens,
            self._discs_next, self._hazards_left,
        )  # fmt: skip

    def _player(self, p) -> tuple:
        """Copies of a seat's pieces, their one-hot indices for relative seat 0 (corners,
        roads, plants), and the seat's numbers that follow from them: (towns, cities, roads,
        fossil, renewable), LF, VP without the awards."""
        at, sites, rules = self._at, self._sites, self._state.rules
        fossil = list(p.plants.values()).count("fossil")
        corners = frozenset(
            [at["towns"] + c for c in p.towns] + [at["cities"] + c for c in p.cities]
        )
        roads = frozenset(at["roads"] + r for r in p.roads)
        plants = frozenset(
            at["plants"] + PLANTS.index(kind) * len(sites) + sites[site]
            for site, kind in p.plants.items()
        )
        counts = (len(p.towns), len(p.cities), len(p.roads), fossil, len(p.plants) - fossil)
        lf = (
            rules.lf_town * len(p.towns)
            + rules.lf_city * len(p.cities)
            + rules.lf_fossil * fossil
            + rules.lf_renewable * (len(p.plants) - fossil)
        )
        vp = rules.town_vp * len(p.towns) + rules.city_vp * len(p.cities)
        vp += rules.plant_vp * len(p.plants)
        return (set(p.roads), set(p.towns), set(p.cities), dict(p.plants),
                (corners, roads, plants), counts, lf, vp)  # fmt: skip
