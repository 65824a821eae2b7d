"""The read-only classes of a seat's information-set view: :class:`GameView`, its
:class:`PlayerView` per seat and :class:`TaskView` per pending decision.

What a view holds, and why, is told in :mod:`energies.view`, which builds them
(``game.view(seat)``); here are only the frozen tuples with named fields and the
queries bots ask of them.
"""

from __future__ import annotations

from operator import itemgetter
from types import MappingProxyType
from typing import Any

from ..state import GameState, score

#: The symbol shown for a face-down green disc (in the bag or under a renewable slot).
HIDDEN = "hidden"

_EMPTY: MappingProxyType = MappingProxyType({})
_PLAIN = frozenset({int, str, bool, type(None), float})


class HiddenInformationError(AttributeError):
    """A bot read something its seat cannot see (another player's hand or cards)."""


def _fields(cls: type, names: str) -> None:
    """Give a tuple subclass one read-only, named attribute per position."""
    cls._names = tuple(names.split())
    for index, name in enumerate(cls._names):
        setattr(cls, name, property(itemgetter(index)))


class _Frozen(tuple):
    """A tuple with named fields: immutable, compared by value, no ``__dict__``."""

    __slots__ = ()
    _names: tuple[str, ...] = ()

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(self._names, self) if n[0] != "_")
        return f"{type(self).__name__}({fields})"


class PlayerView(_Frozen):
    """One seat's pieces and cards as the view's owner sees them (read-only).

    ``hand``, ``dev_cards`` and ``dev_new`` are readable for the view's own seat only;
    for the others, ``cards``, ``dev_count`` and ``dev_new_count`` give their number.
    """

    __slots__ = ()

    def __new__(cls, p, own: bool):
        plants = p.plants
        return tuple.__new__(
            cls,
            (
                p.seat,
                sum(p.hand.values()),
                p.energy,
                frozenset(p.towns),
                frozenset(p.cities),
                frozenset(p.roads),
                MappingProxyType(plants.copy()) if plants else _EMPTY,
                len(p.dev_cards),
                len(p.dev_new),
                MappingProxyType(p.dev_played.copy()) if p.dev_played else _EMPTY,
                p.warehouse,
                (HIDDEN,) * len(p.green_slots),  # face down: only how many (rule 3.1)
                MappingProxyType(p.hand.copy()) if own else None,
                tuple(sorted(p.dev_cards)) if own else None,
                tuple(sorted(p.dev_new)) if own else None,
                list(plants.values()).count("fossil") if plants else 0,
            ),
        )

    def _hidden(self, what: str):
        raise HiddenInformationError(
            f"Seat {self.seat}'s {what} are hidden from this view; "
            f"only their number is public (players[{self.seat}].cards / .dev_count)."
        )

    @property
    def hand(self) -> MappingProxyType:
        """Resource and science cards by kind: the view's own seat only."""
        hand = self[12]
        return hand if hand is not None else self._hidden("hand cards")

    @property
    def dev_cards(self) -> tuple[str, ...]:
        """Development cards held (sorted, hidden VP cards included): own seat only."""
        cards = self[13]
        return cards if cards is not None else self._hidden("development cards")

    @property
    def dev_new(self) -> tuple[str, ...]:
        """Development cards bought or received this turn: own seat only."""
        cards = self[14]
        return cards if cards is not None else self._hidden("development cards")

    @property
    def is_own(self) -> bool:
        return self[12] is not None

    def count_plants(self, kind: str) -> int:
        """Plants of one kind ("fossil" or "renewable") on the board."""
        fossil = self[15]
        if kind == "fossil":
            return fossil
        return len(self.plants) - fossil if kind == "renewable" else 0

    def buildings(self) -> frozenset[int]:
        return self.towns | self.cities


_fields(
    PlayerView,
    "seat cards energy towns cities roads plants dev_count dev_new_count dev_played warehouse"
    " green_slots _hand _dev_cards _dev_new _fossil",
)


class TaskView(_Frozen):
    """A pending decision (``kind``, ``seat``, ``info``), frozen."""

    __slots__ = ()

    def __new__(cls, task):
        return tuple.__new__(cls, (task.kind, task.seat, _frozen(task.info)))


_fields(TaskView, "kind seat info")


def _frozen(value: Any) -> Any:
    """A read-only copy of task details (dicts, lists and tuples of plain values)."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, dict):
        if not value:
            return _EMPTY
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(map(_frozen, value))
    return value


class GameView(_Frozen):
    """Everything ``seat`` may know about a game, frozen at one moment (see the module text)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<energies.GameView seat {self.seat}: turn {self.turn}, phase {self.phase}>"

    # -- the log and the pending decision ------------------------------------------------------

    @property
    def log(self) -> tuple[str, ...]:
        """The readable turn log, the lines of ``game.log`` (it names no hidden card)."""
        full, last = self[_LOG]
        return tuple(str(line) for chunk in (*full, last) for line in chunk)

    @property
    def pending(self) -> TaskView | None:
        """The decision the engine waits for, if any."""
        return self.queue[0] if self.queue else None

    @property
    def current_seat(self) -> int | None:
        """The seat that must decide now (None once the game is over)."""
        if self.outcome is not None:
            return None
        return self.queue[0].seat if self.queue else self.active

    @property
    def me(self) -> PlayerView:
        """The view's own seat."""
        return self.players[self.seat]

    # -- the queries bots use on the state (same names and meaning) ----------------------------

    @property
    def n(self) -> int:
        return len(self.players)

    def local_footprint(self, seat: int) -> int:
        """LF from the pieces (rule 4.1): public."""
        return self[_LF][seat]

    @property
    def global_footprint(self) -> int:
        """GF, the clamped sum of LF (rule 4.2): public."""
        return self[_GF]

    def clamped_gf(self, total_lf: int) -> int:
        return max(0, min(self.rules.gf_max, total_lf))

    def victory_points(self, seat: int) -> int:
        """VP (rules 13.8, 10.5); another seat's hidden Victory Point cards are not counted."""
        p = self.players[seat]
        shown = p.dev_cards.count("victory_point") if p.is_own and p.dev_cards else 0
        return score(self, seat, p, shown)

    @property
    def hazard_supply(self) -> int:
        return self.rules.hazard_tokens - len(self.hex_hazards) - len(self.building_hazards)

    def corner_owners(self) -> dict[int, int]:
        """Seat owning each corner that holds a town or city."""
        return dict(self[_OWNERS])

    def owner_of(self, corner: int) -> int | None:
        return self[_OWNERS].get(corner)

    def road_owner(self, path: int) -> int | None:
        return GameState.road_owner(self, path)  # type: ignore[arg-type]

    def pieces_left(self, seat: int, piece: str) -> int:
        """As ``GameState.pieces_left``: how many of a piece the seat has not placed yet."""
        p, rules = self.players[seat], self.rules
        if piece == "town":  # (the bots ask this often: no table of every piece built)
            return rules.towns - len(p.towns)
        if piece == "road":
            return rules.roads - len(p.roads)
        return GameState.pieces_left(self, seat, piece)  # type: ignore[arg-type]

    def clockwise_from_active(self) -> list[int]:
        return [*range(self.active, self.n), *range(self.active)]

    def view(self, seat: int) -> GameView:
        """A view is already one seat's: asking for the same seat returns it."""
        if seat != self.seat:
            raise HiddenInformationError(
                f"This is seat {self.seat}'s view; it cannot show seat {seat}'s."
            )
        return self


# the plain values a view copies from the state as they are, in the order of its fields
_SCALAR_NAMES = (
    "rules board energy_supply inspector active start_player turn phase dice plants_built"
    " demolished dev_played_turn offers_made longest_road_holder environmentalist_holder outcome"
)
_fields(
    GameView,
    f"seat {_SCALAR_NAMES} dev_deck_size players bag forced_discs event_board removed_discs"
    " hex_hazards building_hazards _owners _lf _gf queue _log proposals_made table_asks",
)
_OWNERS, _LF, _GF, _LOG = map(GameView._names.index, ("_owners", "_lf", "_gf", "_log"))
