"""Numbers for learning agents: every action as one index, every view as one vector.

Used by :mod:`energies.env`; numpy only (no PettingZoo), imported only by it.

Actions (:class:`ActionCodec`) are numbered per seat in fixed blocks, the same for every
board layout. Seats in parameters are *relative*: partner or victim ``k`` means the seat
``k`` places after the deciding one (``(seat + k) % players``), so one policy serves
every seat. The table is in the docstring of :mod:`energies.env`.

Observations (:class:`ObservationEncoder`) are built from ``game.view(seat)`` only, with
the seats rotated so that the observing seat comes first. ``layout()`` names every
segment; the docstring of :mod:`energies.env` lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import Any, NamedTuple

import numpy as np

from ..newenergies.actions import ACTION_TYPES, Action, shared
from ..newenergies.board import PIPS
from ..newenergies.rules import CARD_KINDS, DEV_CARDS, RESOURCES, ROWS

TRADED = CARD_KINDS + ("energy",)  # what a player may give in a trade (rules 11, 12)
PLANTS = ("fossil", "renewable")

#: Action kinds with no index, and why (a test keeps this list and the blocks complete).
NOT_ENCODED = {
    "sandbox": "teacher sandbox edits are not a player's decision",
}

MAX_SEATS = 4  # observation slots per seat-indexed feature (3-player games leave one empty)


def plant_sites(board) -> list[tuple[int, int]]:
    """Every (corner, hex) pair a plant can stand on: 6 corners of each of the 19 hexes."""
    return sorted((c, h) for h in range(len(board.hexes)) for c in board.hex_corners(h))


class Listing(NamedTuple):
    """A legal list as the env uses it: ``actions`` (a copy of the list), their ``indices``
    (None: no index) and the int8 ``mask`` (kept read-only: the env hands out copies)."""

    actions: list[Action]
    indices: list[int | None]
    mask: np.ndarray


#: Keys of legal lists an ActionCodec keeps per generation (about 2 KiB a list: the mask).
LISTINGS_KEPT = 2048


class ActionCodec:
    """Action <-> index for one seat count. ``blocks`` lists (kind, first index, size)."""

    def __init__(self, players: int, board) -> None:
        self.players = players
        self.sites = plant_sites(board)
        others = range(1, players)
        n_board = len(board.hexes)
        # kind -> (parameter tuples in index order, builder(seat, *params) -> Action)
        spec: dict[str, tuple[list[tuple], Any]] = {
            "roll_dice": ([()], lambda s: shared.RollDice(s)),
            "end_turn": ([()], lambda s: shared.EndTurn(s)),
            "build_road": ([(p,) for p in range(len(board.paths))], shared.BuildRoad),
            "build_town": ([(c,) for c in board.corners], shared.BuildTown),
            "build_city": ([(c,) for c in board.corners], shared.BuildCity),
            "build_plant": (
                [(k, c, h) for k in PLANTS for c, h in self.sites],
                shared.BuildPlant,
            ),
            "buy_dev_card": ([()], lambda s: shared.BuyDevCard(s)),
            "trade_with_supply": (
                [(g, t) for g in TRADED for t in CARD_KINDS],
                shared.TradeWithSupply,
            ),
            "offer_trade": (
                [(k, g, t) for k in others for g in TRADED for t in TRADED],
                lambda s, k, g, t: shared.OfferTrade(s, (s + k) % players, ((g, 1),), ((t, 1),)),
            ),
            "propose_trade": (  # a seat that is not active, to the active player (12.1)
                [(g, t) for g in TRADED for t in TRADED],
                lambda s, g, t: shared.ProposeTrade(s, ((g, 1),), ((t, 1),)),
            ),
            "respond_to_trade": ([(False,), (True,)], shared.RespondToTrade),
            "remove_hazard": (
                [("hex", h) for h in range(n_board)] + [("building", c) for c in board.corners],
                shared.RemoveHazard,
            ),
            "demolish_fossil": ([(c, h) for c, h in self.sites], shared.DemolishFossil),
            "build_warehouse": ([()], lambda s: shared.BuildWarehouse(s)),
            "play_dev_card": ([(c,) for c in DEV_CARDS], shared.PlayDevCard),
            "discard_card": ([(k,) for k in CARD_KINDS], shared.DiscardCard),
            "take_card": ([(k,) for k in CARD_KINDS], shared.TakeCard),
            "move_inspector": ([(h,) for h in range(n_board)], shared.MoveInspector),
            "choose_victim": (
                [(k,) for k in others],
                lambda s, k: shared.ChooseVictim(s, (s + k) % players),
            ),
            "place_hazard": ([(c,) for c in board.corners], shared.PlaceHazard),
            "choose_hex": ([(h,) for h in range(n_board)], shared.ChooseHex),
            "decline": ([()], lambda s: shared.Decline(s)),
            # last, so the indices above kept their numbers when rule 12.1's ask came
            "ask_for_proposals": ([()], lambda s: shared.AskForProposals(s)),
        }
        self.blocks: list[tuple[str, int, int]] = []
        self.params: list[tuple[str, tuple]] = []
        for kind, (params, _build) in spec.items():
            self.blocks.append((kind, len(self.params), len(params)))
            self.params += [(kind, p) for p in params]
        self.size = len(self.params)
        builders = {kind: build for kind, (_p, build) in spec.items()}
        # per seat: index -> Action, and Action -> index (equal actions hash alike)
        self.actions: list[tuple[Action, ...]] = []
        self._index: list[dict[Action, int]] = []
        for seat in range(players):
            listed = tuple(builders[kind](seat, *p) for kind, p in self.params)
            self.actions.append(listed)
            self._index.append({a: i for i, a in enumerate(listed)})
        # the listing hands out the same few hundred objects again and again: look them up
        # by identity (``_alive`` keeps every object seen, so no other object takes its id)
        self._by_id: dict[int, int | None] = {}
        self._alive: list[Action] = []
        self._know_tables()
        self._zeros = bytes(self.size)
        # legal lists seen, by (length, first, middle and last object), newest first (see
        # listing()), in two generations: keys met lately, and the full generation before,
        # from which a key met again moves back (the lists met often stay; a whole cache
        # cleared at once brought a fifth more lists to index afresh)
        self._listings: dict[tuple, list[Listing]] = {}
        self._older: dict[tuple, list[Listing]] = {}
        self._no_listing = Listing([], [], self._new_mask(()))

    def _know_tables(self) -> None:
        """Know the tables' own objects by identity from the start: the listing hands out
        the very same ones (``actions.shared``), so a new game finds them at once."""
        for listed in self.actions:  # (self.actions keeps them alive: their ids stay theirs)
            self._by_id.update(zip(map(id, listed), range(len(listed))))

    @property
    def kinds(self) -> set[str]:
        return {kind for kind, _start, _size in self.blocks}

    def index(self, action: Action) -> int | None:
        """The index of a legal action (None for one outside the space: bundle offers)."""
        by_id = self._by_id
        if id(action) in by_id:
            return by_id[id(action)]
        seat = action.seat
        index = self._index[seat].get(action) if 0 <= seat < self.players else None
        if len(self._alive) > 100_000:  # only actions built outside the listing's tables
            by_id.clear()
            self._alive.clear()
            self._know_tables()
        self._alive.append(action)
        by_id[id(action)] = index
        return index

    def indices(self, legal: Sequence[Action]) -> list[int | None]:
        """The index of every action of a legal list, in its order (None: no index)."""
        by_id = self._by_id
        # the listed objects are almost always known: one C-level lookup each
        found = list(map(by_id.get, map(id, legal), repeat(-1, len(legal))))
        if -1 in found:  # a few new objects: look up only those by value
            place = found.index(-1)
            while True:
                found[place] = self.index(legal[place])
                try:
                    place = found.index(-1, place + 1)
                except ValueError:
                    break
        return found

    def listing(self, legal: list[Action]) -> Listing:
        """The indices and action mask of a legal list, kept per list.

        The engine lists the same lists of the same objects again and again, and indexing
        a list afresh costs a dictionary lookup per action and a new mask: a list met
        before is found by its length, end and middle objects and confirmed by comparing it
        with the kept copies, up to 4 per such key (``==`` between the same objects costs
        almost nothing; equal actions have equal indices). About one position in eight of
        random play still brings a list not met before (a fifth in the first games).
        """
        if not legal:
            return self._no_listing
        key = (len(legal), id(legal[0]), id(legal[len(legal) >> 1]), id(legal[-1]))
        kept = self._listings.get(key)
        if kept is None:  # not met lately: perhaps in the generation before (see __init__)
            kept = self._older.pop(key, None) or []
            if len(self._listings) >= LISTINGS_KEPT:
                self._older, self._listings = self._listings, {}
            self._listings[key] = kept
        for listing in kept:  # lists that differ inside: a few under one key
            if listing[0] == legal:  # its actions (an index: quicker than the field's name)
                return listing
        indices = self.indices(legal)
        listing = Listing(list(legal), indices, self._new_mask(indices))
        kept.insert(0, listing)
        del kept[4:]
        return listing

    def mask_of(self, indices: Sequence[int | None]) -> np.ndarray:
        """A new int8 action mask with a 1 at each of these indices (None: skipped)."""
        return self._new_mask(indices).copy()

    def _new_mask(self, indices: Sequence[int | None]) -> np.ndarray:
        """The read-only action mask of these indices (the env hands out copies): ones
        written into zero bytes, a quarter cheaper than numpy's index assignment for the few
        dozen indices of a listing, and no cache of masks by their indices (most missed)."""
        marks = bytearray(self._zeros)
        for i in indices:
            if i is not None:
                marks[i] = 1
        return np.frombuffer(bytes(marks), np.int8)  # over bytes: read-only

    def describe(self, index: int) -> str:
        kind, params = self.params[index]
        return f"{kind}{params}"


TASK_KINDS = (
    "setup_town",
    "setup_city",
    "setup_road",
    "discard",
    "move_inspector",
    "choose_victim",
    "trade_response",
    "free_road",
    "take_card",
    "choose_hex",
    "place_hazard",
    "free_fossil",
    "cleanup",
    "other",  # any other pending decision (the proposal window of rule 12.1 among them)
)
PHASES = ("setup", "event", "roll", "action", "over")
BROWN = ("climate_conference", "environmental_pollution", "air_pollution",
         "production_increase", "rain_and_flooding")  # fmt: skip
HAND_FEATURES = ("cards", "energy", "dev_cards", "warehouse")  # change with hands: per seat
COUNTERS = ("dev_deck", "energy_supply", "offers_made", "plants_built", "demolished",
            "dev_played_turn")  # fmt: skip
# follow from the pieces and awards
SEAT_FEATURES = ("vp", "lf", "towns", "cities", "roads", "fossil", "renewable",
                 "longest_road", "environmentalist")  # fmt: skip
PUBLIC = ("gf", "bag", "bag_green", "discs_next", "hazards_left")
#: The numbers that can change with any action (own cards, hands, counters) come first and
#: are whole numbers; "turn" (turn / 10) follows them; then the numbers that follow from
#: the pieces. HEAD_SIZE: where the one-hot segments start.
DYNAMIC_SIZE = len(CARD_KINDS) + 2 * len(DEV_CARDS) + MAX_SEATS * len(HAND_FEATURES) + len(COUNTERS)
HEAD_SIZE = DYNAMIC_SIZE + 1 + MAX_SEATS * len(SEAT_FEATURES) + len(PUBLIC)


class ObservationEncoder:
    """A seat's view as one float32 vector; ``layout`` gives (segment, start, size)."""

    def __init__(self, board) -> None:
        self.board = board
        self.sites = plant_sites(board)
        self._site_index = {site: i for i, site in enumerate(self.sites)}
        n_corners, n_paths, n_hexes = len(board.corners), len(board.paths), len(board.hexes)
        segments = [
            ("own_hand", len(CARD_KINDS)),
            ("own_dev_cards", len(DEV_CARDS)),
            ("own_dev_new", len(DEV_CARDS)),
            *((feature, MAX_SEATS) for feature in HAND_FEATURES),
            ("counters", len(COUNTERS)),
            ("turn", 1),
            ("seats", MAX_SEATS * len(SEAT_FEATURES)),
            ("public", len(PUBLIC)),
            ("phase", len(PHASES)),
            ("dice", 11),
            ("bag_brown", len(BROWN)),
            ("event_board", len(ROWS)),
            ("pending", len(TASK_KINDS) + 1 + MAX_SEATS),
            ("trade", 2 * len(TRADED)),
            # who made the trade being answered (rule 12.1): the active player answering a
            # proposal sees it at the table, and the pending decision does not say it
            ("trade_from", MAX_SEATS),
            ("towns", MAX_SEATS * n_corners),
            ("cities", MAX_SEATS * n_corners),
            ("roads", MAX_SEATS * n_paths),
            ("plants", len(PLANTS) * len(self.sites)),
            ("hex_hazards", n_hexes),
            ("building_hazards", n_corners),
            ("inspector", n_hexes),
            ("terrain", n_hexes * len(RESOURCES)),
            ("pips", n_hexes),
        ]
        self.layout: list[tuple[str, int, int]] = []
        start = 0
        for name, size in segments:
            self.layout.append((name, start, size))
            start += size
        self.size = start
        self.at = {name: first for name, first, _size in self.layout}
        # the island does not change during a game: terrain and pips are written once
        static = np.zeros(self.size, dtype=np.float32)
        for h, hx in enumerate(board.hexes):
            if hx.resource in RESOURCES:
                static[self.at["terrain"] + h * len(RESOURCES) + RESOURCES.index(hx.resource)] = 1
            static[self.at["pips"] + h] = PIPS.get(hx.number, 0) / 5
        self.static = static
        self._pieces: dict[tuple[int, int], tuple[Any, list[int]]] = {}
        self._last_table: tuple[Any, list[float]] = (None, [])
        # the dense head of the vector is written as one list: it must end where "phase" starts
        assert self.at["phase"] == HEAD_SIZE

    def _piece_indices(self, player, rel: int) -> list[int]:
        """Indices of a seat's towns, cities, roads and plants (kept per unchanged copy)."""
        key = (id(player), rel)
        hit = self._pieces.get(key)
        if hit is not None and hit[0] is player:
            return hit[1]
        at, nc = self.at, len(self.board.corners)
        out = [at["towns"] + rel * nc + c for c in player.towns]
        out += [at["cities"] + rel * nc + c for c in player.cities]
        out += [at["roads"] + rel * len(self.board.paths) + p for p in player.roads]
        sites, plants_at = self._site_index, at["plants"]
        for site, kind in player.plants.items():
            out.append(plants_at + PLANTS.index(kind) * len(sites) + sites[site])
        if len(self._pieces) > 4096:
            self._pieces.clear()
        self._pieces[key] = (player, out)
        return out

    def _table(self, view) -> list[float]:
        """Bag and event-board features (kept while the view shares the same objects)."""
        key = (view.bag, view.event_board)
        hit = self._last_table
        if hit[0] is not None and hit[0][0] is key[0] and hit[0][1] is key[1]:
            return hit[1]
        brown = [0.0] * len(BROWN)
        for color, symbol in view.bag:
            if color == "brown":
                brown[BROWN.index(symbol)] += 1
        rows = [float(len(view.event_board.get(row, ()))) for row in ROWS]
        self._last_table = (key, brown + rows)
        return self._last_table[1]

    def encode(self, view) -> np.ndarray:
        """The observation vector of ``view`` (see the module docstring of energies.env)."""
        n, me = view.n, view.seat
        own = view.players[me]
        hand = own.hand
        dense = [float(hand[k]) for k in CARD_KINDS]
        dev = [0.0] * (2 * len(DEV_CARDS))
        for card in own.dev_cards:
            dev[DEV_CARDS.index(card)] += 1
        for card in own.dev_new:
            dev[len(DEV_CARDS) + DEV_CARDS.index(card)] += 1
        dense += dev
        seats = [(me + rel) % n for rel in range(n)]
        players = [view.players[seat] for seat in seats]
        pad = [0.0] * (MAX_SEATS - n)
        dense += [p.cards for p in players] + pad
        dense += [p.energy for p in players] + pad
        dense += [p.dev_count for p in players] + pad
        dense += [p.warehouse for p in players] + pad
        dense += (
            view.dev_deck_size, view.energy_supply, view.offers_made, view.plants_built,
            view.demolished, view.dev_played_turn, min(view.turn / 10, 999.0),
        )  # fmt: skip
        ones: list[int] = []
        lr, env_holder = view.longest_road_holder, view.environmentalist_holder
        for rel, (seat, p) in enumerate(zip(seats, players)):
            fossil = p[15]
            dense += (
                view.victory_points(seat), view.local_footprint(seat), len(p.towns),
                len(p.cities), len(p.roads), fossil, len(p.plants) - fossil, lr == seat,
                env_holder == seat,
            )  # fmt: skip
            ones += self._piece_indices(p, rel)
        dense += [0.0] * (len(SEAT_FEATURES) * (MAX_SEATS - n))
        bag, gf = view.bag, view.global_footprint
        dense += (
            gf, len(bag), len(bag) - sum(self._table(view)[: len(BROWN)]),
            view.rules.discs_to_draw(gf), view.hazard_supply,
        )  # fmt: skip
        at = self.at
        ones.append(at["phase"] + PHASES.index(view.phase))
        if view.dice:
            ones.append(at["dice"] + view.dice[0] + view.dice[1] - 2)
        table = self._table(view)
        obs = self.static.copy()
        obs[: len(dense)] = dense
        obs[at["bag_brown"] : at["bag_brown"] + len(table)] = table
        task = view.pending
        pending = at["pending"]
        if task is not None:
            kind = task.kind if task.kind in TASK_KINDS else "other"
            ones.append(pending + TASK_KINDS.index(kind))
            if task.seat == me:
                ones.append(pending + len(TASK_KINDS))
            if task.kind == "trade_response":
                for k, count in task.info["give"]:
                    obs[at["trade"] + TRADED.index(k)] = count
                for k, count in task.info["get"]:
                    obs[at["trade"] + len(TRADED) + TRADED.index(k)] = count
                ones.append(at["trade_from"] + (task.info["from"] - me) % n)
        ones.append(pending + len(TASK_KINDS) + 1 + (view.active - me) % n)
        if view.hex_hazards:
            ones += [at["hex_hazards"] + h for h in view.hex_hazards]
        if view.building_hazards:
            ones += [at["building_hazards"] + c for c in view.building_hazards]
        ones.append(at["inspector"] + view.inspector)
        obs[np.fromiter(ones, np.intp, len(ones))] = 1  # much faster than indexing with a list
        return obs


def encodable_kinds() -> set[str]:
    """Every action kind with indices (all of ACTION_TYPES but NOT_ENCODED)."""
    return set(ACTION_TYPES) - set(NOT_ENCODED)
