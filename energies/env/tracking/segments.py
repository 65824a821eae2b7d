"""The segments of the observation vector as bytes, for :mod:`energies.tracking`.

:class:`Segments` copies what each segment shows from the running game and builds the
segment's float32 bytes (one ``struct`` call, or ones written into zero bytes) when the
tracker says it changed; what recurs (a hand, the counters, a pending decision) is looked
up rather than packed, and what is rotated per seat is packed once in seat order, twice
over, so that a seat's rotation is a slice. The order of the segments is that of
:class:`~energies.encoding.ObservationEncoder`'s layout:

======================  ===========================================  =====================
bytes                   segments                                     built
======================  ===========================================  =====================
head                    own cards, every seat's hand numbers         per seat, when the
                        (rotated)                                    numbers change
counters                counters, turn                               when they change
seats                   "seats" (rotated)                            per seat, when pieces
                                                                     or awards change
public                  "public"                                     when it changes
frame                   phase, dice                                  a table
table                   bag_brown, event_board                       when the bag changes
pending                 pending, trade, trade_from                   a table
rows                    towns, cities, roads (rotated)               per seat, when a piece
                                                                     moves (the tracker
                                                                     keeps them joined
                                                                     with the tail)
tail                    plants, hazards, Inspector, terrain, pips    when they change
======================  ===========================================  =====================
"""

from __future__ import annotations

import struct
from collections import Counter
from operator import attrgetter, itemgetter

from ...newenergies.rules import CARD_KINDS, DEV_CARDS, ROWS
from ..encoding import (
    BROWN,
    HAND_FEATURES,
    MAX_SEATS,
    PHASES,
    PLANTS,
    SEAT_FEATURES,
    TASK_KINDS,
    TRADED,
    ObservationEncoder,
)

_ONE = struct.pack("f", 1.0)
_hand_of = itemgetter(*CARD_KINDS)
_hand = attrgetter("hand")
_energy = attrgetter("energy")
_dev_cards = attrgetter("dev_cards")
_warehouse = attrgetter("warehouse")
_TASK_INDEX = {kind: i for i, kind in enumerate(TASK_KINDS)}
_OTHER = _TASK_INDEX["other"]
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_PLANT_INDEX = {kind: i for i, kind in enumerate(PLANTS)}
_BROWN_DISCS = [("brown", symbol) for symbol in BROWN]
_browns = itemgetter(*_BROWN_DISCS)
_SEGMENTS = ("own_hand", "seats", "public", "phase", "bag_brown", "pending", "towns", "plants")


def ones(size: int, indices) -> bytes:
    """``size`` float32 zeros with a 1 at each of ``indices``."""
    buffer = bytearray(4 * size)
    floats = memoryview(buffer).cast("f")  # an item written: a fifth of a slice's cost
    for i in indices:
        floats[i] = 1.0
    floats.release()
    return bytes(buffer)


class Segments:
    """The bytes of each segment (see the module text) and the copies they are built from."""

    __slots__ = ("_at", "_bag", "_blocks", "_copies", "_counters", "_devs", "_discs_next",
                 "_doubled", "_frames", "_gf", "_greens", "_hands", "_hazards_b",
                 "_hazards_left", "_n", "_no_dev", "_pack_counters", "_pack_hand",
                 "_pack_hands", "_pack_one", "_pack_pending", "_pack_public", "_pack_table",
                 "_plants_b", "_rotated", "_rotations", "_rows", "_rules", "_seat_numbers",
                 "_seat_pad", "_sites", "_static", "encoder", "public", "table", "tail")  # fmt: skip

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        at = self._at = encoder.at
        starts = [at[name] for name in _SEGMENTS]
        assert starts == sorted(starts) and starts[0] == 0, "the segments' order changed"
        pack = {name: struct.Struct(f"{at[end] - at[name]}f").pack for name, end in (
            ("own_hand", "own_dev_cards"), ("cards", "counters"), ("counters", "seats"),
            ("seats", "public"), ("public", "phase"), ("bag_brown", "pending"),
            ("pending", "towns"),
        )}  # fmt: skip
        self._pack_hand, self._pack_hands = pack["own_hand"], pack["cards"]
        self._pack_counters = pack["counters"]
        self._pack_public = pack["public"]
        self._pack_table, self._pack_pending = pack["bag_brown"], pack["pending"]
        self._no_dev = bytes(4 * (at["cards"] - at["own_dev_cards"]))
        self._devs: dict[tuple, tuple[bytes, int]] = {}  # see _dev()
        self._hands: dict[tuple, bytes] = {}  # see head()
        self._counters: dict[tuple, bytes] = {}  # see counters()
        self._seat_numbers: tuple = (None, (), b"")  # see seats()
        self._static = encoder.static[at["terrain"] :].tobytes()  # terrain, pips
        self._sites = {site: i for i, site in enumerate(encoder.sites)}
        self._frames: dict[tuple, bytes] = {}  # (phase, dice) -> the one-hots
        # per seat count, per seat: every seat's hand numbers (read_numbers, feature by
        # feature, then a 0) rotated so the seat comes first, empty slots the trailing 0
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
        self._pack_one = struct.Struct("f").pack
        self.table = self.tail = self.public = b""
        self._bag = self._hazards_left = None  # not read yet

    # -- the game's facts, copied --------------------------------------------------------------

    def follow(self, state) -> None:
        """Copy everything afresh from another game or state."""
        self._rules, self._n = state.rules, len(state.players)
        self._rotated = self._rotations[self._n]
        self._seat_pad = bytes(4 * len(SEAT_FEATURES) * (MAX_SEATS - self._n))  # empty slots
        self._seat_numbers = (None, (), b"")
        self._copies = [self._copy(p) for p in state.players]
        self._blocks = [self._seat_blocks(c) for c in self._copies]  # every block
        self._rows: list[tuple] = [(None, b"")] * self._n
        self._doubled: list = [None]  # see rows()
        self._pieces_changed()

    def pieces_moved(self, state) -> bool:
        """Copy the pieces of every seat whose pieces moved; whether any did."""
        copies, moved, plants = self._copies, False, False
        for s, p in enumerate(state.players):
            copy = copies[s]
            roads, towns, cities = p.roads != copy[0], p.towns != copy[1], p.cities != copy[2]
            planted = p.plants != copy[3]
            if roads or towns or cities or planted:
                copies[s] = new = self._copy(p)
                if roads or towns or cities:  # only the blocks that changed, afresh
                    self._blocks[s] = self._seat_blocks(new, self._blocks[s], roads, towns, cities)
                moved, plants = True, plants or planted
        if moved:
            self._pieces_changed(plants)
        return moved

    def _pieces_changed(self, plants: bool = True) -> None:
        rules, copies = self._rules, self._copies
        self._gf = max(0, min(rules.gf_max, sum(c[5] for c in copies)))  # rule 4.2
        self._discs_next = rules.discs_to_draw(self._gf)
        self._public()
        if plants:
            at = self._at
            self._plants_b = ones(
                at["hex_hazards"] - at["plants"], [i for c in copies for i in c[7]]
            )  # fmt: skip
            if self.tail:
                self.tail = self._plants_b + self._hazards_b + self._static

    def bag_changed(self, state) -> None:
        bag = state.bag
        discs = Counter(bag)  # (color, symbol) pairs; only after the bag's size changed
        brown = _browns(discs)
        self._bag, self._greens = len(bag), len(bag) - sum(brown)
        self._public()
        self.table = self._pack_table(
            *brown, *(len(state.event_board.get(row, ())) for row in ROWS)
        )

    def board_changed(self, state) -> None:
        """The hazards or the Inspector may have moved: the tail afresh."""
        at = self._at
        self._hazards_left = (
            state.rules.hazard_tokens - len(state.hex_hazards) - len(state.building_hazards)
        )
        start = at["hex_hazards"]
        self._hazards_b = ones(
            at["terrain"] - start,
            [*(at["hex_hazards"] - start + h for h in state.hex_hazards),
             *(at["building_hazards"] - start + c for c in state.building_hazards),
             at["inspector"] - start + state.inspector],
        )  # fmt: skip
        self.tail = self._plants_b + self._hazards_b + self._static
        self._public()

    def _public(self) -> None:
        """The "public" segment (shared by every seat)."""
        if self._hazards_left is not None and self._bag is not None:
            self.public = self._pack_public(
                self._gf, self._bag, self._greens, self._discs_next, self._hazards_left
            )

    def _copy(self, p) -> tuple:
        """Copies of a seat's pieces and the numbers that follow from them: (roads, towns,
        cities, plants, (towns, cities, roads, fossil, renewable), LF, VP without awards, the
        plants' indices in the "plants" segment)."""
        rules = self._rules
        fossil = list(p.plants.values()).count("fossil")
        renewable = len(p.plants) - fossil
        lf = (
            rules.lf_town * len(p.towns) + rules.lf_city * len(p.cities)
            + rules.lf_fossil * fossil + rules.lf_renewable * renewable
        )  # fmt: skip
        vp = rules.town_vp * len(p.towns) + rules.city_vp * len(p.cities)
        vp += rules.plant_vp * len(p.plants)
        counts = (len(p.towns), len(p.cities), len(p.roads), fossil, renewable)
        sites = self._sites
        plants = [_PLANT_INDEX[kind] * len(sites) + sites[site] for site, kind in p.plants.items()]
        return set(p.roads), set(p.towns), set(p.cities), dict(p.plants), counts, lf, vp, plants

    def _seat_blocks(
        self, copy: tuple, old: tuple = (), roads=True, towns=True, cities=True
    ) -> tuple[bytes, bytes, bytes]:
        """A seat's towns, cities and roads one-hots (one relative slot each); those not
        flagged kept from ``old``."""
        corners, paths = len(self.encoder.board.corners), len(self.encoder.board.paths)
        return (
            ones(corners, copy[1]) if towns else old[0],
            ones(corners, copy[2]) if cities else old[1],
            ones(paths, copy[0]) if roads else old[2],
        )

    # -- the bytes of each segment ------------------------------------------------------------

    def read_numbers(self, state) -> tuple:
        """Every seat's hand size, energy, development cards and warehouse, feature by
        feature, then a 0 for empty slots."""
        players = state.players
        if len(players) == 4:  # written out: a third of the cost of the general form
            a, b, c, d = players
            return (
                sum(a.hand.values()), sum(b.hand.values()), sum(c.hand.values()),
                sum(d.hand.values()), a.energy, b.energy, c.energy, d.energy,
                len(a.dev_cards), len(b.dev_cards), len(c.dev_cards), len(d.dev_cards),
                a.warehouse, b.warehouse, c.warehouse, d.warehouse, 0,
            )  # fmt: skip
        return (
            *map(sum, map(dict.values, map(_hand, players))),  # hand sizes
            *map(_energy, players),
            *map(len, map(_dev_cards, players)),
            *map(_warehouse, players),
            0,
        )

    def counters(self, state) -> bytes:
        """The "counters" and "turn" segments (a few values recur: looked up, not packed)."""
        key = (
            len(state.dev_deck), state.energy_supply, state.offers_made, state.plants_built,
            state.demolished, state.dev_played_turn, state.turn,
        )  # fmt: skip
        found = self._counters.get(key)
        if found is None:
            if len(self._counters) > 4096:
                self._counters.clear()
            found = self._counters[key] = self._pack_counters(*key[:6], min(key[6] / 10, 999.0))
        return found

    def head(self, state, seat: int, numbers: tuple) -> tuple[bytes, int]:
        """(the head seen from ``seat``: its hand and development cards, every seat's
        ``numbers`` (read_numbers) rotated so it comes first; its VP cards)."""
        me = state.players[seat]
        hand = _hand_of(me.hand)
        packed = self._hands.get(hand)  # a hand's bytes, kept: a look-up costs less than a pack
        if packed is None:
            if len(self._hands) > 4096:
                self._hands.clear()
            packed = self._hands[hand] = self._pack_hand(*hand)
        if me.dev_cards or me.dev_new:
            dev, vp_cards = self._dev(me)
        else:
            dev, vp_cards = self._no_dev, 0
        if len(numbers) == 17:  # four seats, rotated written out: a third less than a getter
            a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, _ = numbers
            pack = self._pack_hands
            if seat == 0:
                hands = pack(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)
            elif seat == 1:
                hands = pack(b, c, d, a, f, g, h, e, j, k, l, i, n, o, p, m)
            elif seat == 2:
                hands = pack(c, d, a, b, g, h, e, f, k, l, i, j, o, p, m, n)
            else:
                hands = pack(d, a, b, c, h, e, f, g, l, i, j, k, p, m, n, o)
        else:
            hands = self._pack_hands(*self._rotated[seat](numbers))
        return packed + dev + hands, vp_cards

    def _dev(self, me) -> tuple[bytes, int]:
        """(the bytes of a seat's development cards held and new, its VP cards)."""
        key = (tuple(me.dev_cards), tuple(me.dev_new))
        found = self._devs.get(key)
        if found is None:
            counts = [0] * (2 * len(DEV_CARDS))
            for card in me.dev_cards:
                counts[DEV_CARDS.index(card)] += 1
            for card in me.dev_new:
                counts[len(DEV_CARDS) + DEV_CARDS.index(card)] += 1
            if len(self._devs) > 4096:
                self._devs.clear()
            found = self._devs[key] = (
                struct.pack(f"{len(counts)}f", *counts), me.dev_cards.count("victory_point")
            )  # fmt: skip
        return found

    def seats(self, state, seat: int, vp_cards: int, token: object) -> bytes:
        """The "seats" segment seen from ``seat`` (public VP, its own counting its ``vp_cards``
        hidden VP cards; LF, piece counts, awards): every seat's numbers (kept until
        ``token`` changes) rotated so the seat comes first."""
        kept = self._seat_numbers
        if kept[0] is not token:
            numbers = self._read_seats(state)
            packed = struct.pack(f"{len(numbers)}f", *numbers)
            # seat by seat, twice over: a seat's rotation is one slice, its own VP apart
            kept = self._seat_numbers = (token, numbers, packed + packed)
        width = len(SEAT_FEATURES)
        vp = kept[1][width * seat] + self._rules.vp_card_vp * vp_cards
        start = 4 * width * seat
        rotated = self._pack_one(vp) + kept[2][start + 4 : start + 4 * width * self._n]
        return rotated + self._seat_pad if self._seat_pad else rotated

    def _read_seats(self, state) -> tuple:
        """Per seat (vp, lf, piece counts, awards)."""
        rules, copies = self._rules, self._copies
        lr, env_holder = state.longest_road_holder, state.environmentalist_holder
        numbers: list[int] = []
        for s, copy in enumerate(copies):
            counts, lf, vp = copy[4:7]
            vp += rules.longest_road_vp * (lr == s) + rules.environmentalist_vp * (env_holder == s)
            numbers += (vp, lf, *counts, lr == s, env_holder == s)
        return tuple(numbers)

    def frame(self, phase: str, dice) -> bytes:
        """The phase and dice one-hots (adjacent segments)."""
        key = (phase, dice)
        found = self._frames.get(key)
        if found is None:
            marks = [_PHASE_INDEX[phase]]
            if dice:
                marks.append(len(PHASES) - 2 + dice[0] + dice[1])
            found = self._frames[key] = ones(len(PHASES) + 11, marks)
        return found

    def pending(self, active: int, task, seat: int) -> bytes:
        """The "pending", "trade" and "trade_from" segments seen from ``seat`` while ``task``
        waits (None: no task) and the active seat is ``active`` places after it."""
        values = [0] * (self._at["towns"] - self._at["pending"])
        values[len(TASK_KINDS) + 1 + active] = 1
        if task is not None:
            values[_TASK_INDEX.get(task.kind, _OTHER)] = 1
            values[len(TASK_KINDS)] = task.seat == seat
            if task.kind == "trade_response":
                trade = self._at["trade"] - self._at["pending"]
                for kind, count in task.info["give"]:
                    values[trade + TRADED.index(kind)] = count
                for kind, count in task.info["get"]:
                    values[trade + len(TRADED) + TRADED.index(kind)] = count
                maker = self._at["trade_from"] - self._at["pending"]
                values[maker + (task.info["from"] - seat) % self._n] = 1
        return self._pack_pending(*values)

    def rows(self, seat: int, token: object) -> bytes:
        """Towns, cities and roads of every seat, rotated so ``seat`` comes first (kept per
        seat until ``token`` changes)."""
        kept = self._rows[seat]
        if kept[0] is token:
            return kept[1]
        doubled = self._doubled
        if doubled[0] is not token:  # each kind's blocks in seat order, twice over
            blocks = self._blocks
            doubled = [token]
            for kind in range(3):
                joined = b"".join([b[kind] for b in blocks])
                doubled.append(joined + joined)
            self._doubled = doubled
        corners = 4 * len(self.encoder.board.corners)
        paths = 4 * len(self.encoder.board.paths)
        n = self._n
        towns, cities, roads = doubled[1], doubled[2], doubled[3]
        c, p = corners * seat, paths * seat  # a seat's rotation: one slice of each kind
        if n == MAX_SEATS:
            joined = b"".join((
                towns[c : c + corners * n], cities[c : c + corners * n], roads[p : p + paths * n]
            ))  # fmt: skip
        else:  # then the empty slots
            missing = MAX_SEATS - n
            corner_pad, path_pad = bytes(corners * missing), bytes(paths * missing)
            joined = b"".join((
                towns[c : c + corners * n], corner_pad, cities[c : c + corners * n], corner_pad,
                roads[p : p + paths * n], path_pad,
            ))  # fmt: skip
        self._rows[seat] = (token, joined)
        return joined
