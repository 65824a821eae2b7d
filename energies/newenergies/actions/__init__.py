"""Actions: one small frozen dataclass per decision a player can make.

Every decision is an action — building and trading, but also discards on a 7,
the Inspector's move, choosing a steal victim, answering a trade offer and the
choices events ask for. ``str(action)`` reads like a sentence with seat
numbers; ``action.describe(name, board)`` uses player names and hex names.
Actions serialise to plain dicts for save files (:func:`action_to_dict`,
:func:`action_from_dict`).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, ClassVar

from ...kit.fields import show
from ...kit.i18n import N_, Message, msg, render
from ..board import CORNER, PATH  # noqa: F401 - the templates apps look for, offered here too
from ..rules.vocabulary import Goods, goods, goods_text, pretty, seat_name, word  # noqa: F401

# action_to_dict, field_problem, goods, goods_text and pretty live in action_json.py and
# vocabulary.py; this module offers them too, where users and the widgets import them from
from .codec import action_to_dict, checked_fields, field_problem  # noqa: F401


def _on(board: Any, items: str, index: Any) -> bool:
    """Whether ``index`` names one of the board's hexes, corners or paths."""
    ok = isinstance(index, int) and not isinstance(index, bool)
    return ok and board is not None and 0 <= index < len(getattr(board, items))


#: A hex, corner or path named without a board ("hex 3", "corner 28", "path 40").
HEX, BARE_CORNER, BARE_PATH = N_("hex {hex}"), N_("corner {corner}"), N_("path {path}")


def _hex(board: Any, h: int) -> str:
    return board.hexes[h].__str__() if _on(board, "hexes", h) else msg(HEX, hex=repr(h))


def _corner(board: Any, c: int) -> str:
    if _on(board, "corners", c):
        return board.describe_corner(c)
    return msg(BARE_CORNER, corner=repr(c))


def _path(board: Any, p: int) -> str:
    return board.describe_path(p) if _on(board, "paths", p) else msg(BARE_PATH, path=repr(p))


def _raw(action: Action) -> str:
    """A plain description that cannot fail: the kind and the fields' values."""
    try:
        values = ", ".join(
            f"{f.name}={getattr(action, f.name)!r}"[:60] for f in dataclasses.fields(action)
        )
        return f"{action.kind.replace('_', ' ')} ({values})"
    except Exception:  # noqa: BLE001 — a field whose repr fails: still say something
        return f"{type(action).__name__} action"


@dataclass(frozen=True, slots=True)
class Action:
    """Base class: ``seat`` is the player who decides."""

    seat: int
    kind: ClassVar[str] = "action"
    group: ClassVar[str] = "other"  # how a widget groups the buttons

    def describe(self, name: str | None = None, board: Any = None, lang: str | None = None) -> str:
        """The action as a sentence in the language that applies (``lang``, see
        :mod:`energies.kit.i18n`); never fails, even on out-of-range or ill-typed fields."""
        return render(self.sentence(name, board), lang)

    def sentence(self, name: str | None = None, board: Any = None) -> Message | str:
        """The action as a sentence to be said in any language (a
        :class:`~energies.kit.i18n.Message`, equal to the English text)."""
        try:
            return self._sentence(name, board)
        except Exception:  # noqa: BLE001 — a hand-made action: describe it plainly instead
            return _raw(self)

    def _sentence(self, name: str | None, board: Any) -> Message:
        return self._said(name or seat_name(self.seat), board)

    def _said(self, player: str, board: Any) -> Message:
        return msg(N_("{player} {kind}"), player=player, kind=self.kind.replace("_", " "))

    def __str__(self) -> str:
        return str(self.sentence())  # English always: files and digests never depend on it

    def __copy__(self) -> Action:
        return self  # frozen: a copy may be the same object (forks copy whole logs of actions)

    def __deepcopy__(self, memo: dict) -> Action:
        return self


# -- turn structure ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollDice(Action):
    kind: ClassVar[str] = "roll_dice"
    group: ClassVar[str] = "turn"

    def _said(self, player: str, board: Any) -> Message:
        return msg(N_("{player} rolls the dice"), player=player)


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end_turn"
    group: ClassVar[str] = "turn"

    def _said(self, player: str, board: Any) -> Message:
        return msg(N_("{player} ends the turn"), player=player)


# -- building (rule 10) -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BuildRoad(Action):
    path: int
    kind: ClassVar[str] = "build_road"
    group: ClassVar[str] = "build"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} builds a road on {path}"), player=player, path=_path(board, self.path)
        )


@dataclass(frozen=True, slots=True)
class BuildTown(Action):
    corner: int
    kind: ClassVar[str] = "build_town"
    group: ClassVar[str] = "build"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} builds a town on {corner}"),
            player=player,
            corner=_corner(board, self.corner),
        )


@dataclass(frozen=True, slots=True)
class BuildCity(Action):
    corner: int
    kind: ClassVar[str] = "build_city"
    group: ClassVar[str] = "build"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} builds a city on {corner}"),
            player=player,
            corner=_corner(board, self.corner),
        )


@dataclass(frozen=True, slots=True)
class BuildPlant(Action):
    plant: str  # "fossil" | "renewable"
    corner: int  # the owning town or city
    hex: int
    kind: ClassVar[str] = "build_plant"
    group: ClassVar[str] = "build"

    def _said(self, player: str, board: Any) -> Message:
        hex_name, corner = _hex(board, self.hex), self.corner
        if self.plant == "renewable":
            text = N_("{player} builds a renewable plant on {hex} (building at corner {corner})")
        elif self.plant == "fossil":
            text = N_("{player} builds a fossil plant on {hex} (building at corner {corner})")
        else:
            text = N_("{player} builds a {plant} plant on {hex} (building at corner {corner})")
        return msg(text, player=player, plant=self.plant, hex=hex_name, corner=corner)


@dataclass(frozen=True, slots=True)
class BuyDevCard(Action):
    kind: ClassVar[str] = "buy_dev_card"
    group: ClassVar[str] = "cards"

    def _said(self, player: str, board: Any) -> Message:
        return msg(N_("{player} buys a development card"), player=player)


# -- trading (rule 12) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TradeWithSupply(Action):
    give: str  # a resource, "science" or "energy"; the rate follows from rules and harbors
    get: str
    kind: ClassVar[str] = "trade_with_supply"
    group: ClassVar[str] = "trade"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} trades {give} for 1 {get} with the supply"),
            player=player,
            give=word(self.give),
            get=word(self.get),
        )


@dataclass(frozen=True, slots=True)
class OfferTrade(Action):
    partner: int
    give: Goods
    get: Goods
    kind: ClassVar[str] = "offer_trade"
    group: ClassVar[str] = "trade"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} offers {partner} {give} for {get}"),
            player=player,
            partner=seat_name(self.partner),
            give=goods_text(self.give),
            get=goods_text(self.get),
        )


@dataclass(frozen=True, slots=True)
class ProposeTrade(Action):
    """A seat that is not active proposes a trade to the active player (rule 12.1).

    ``give`` is what the proposer gives, ``get`` what it asks from the active player, who
    answers with :class:`RespondToTrade`. The engine asks for proposals right after the roll
    and whenever the active player asks the table (:class:`AskForProposals`); at the active
    player's free decision of the action phase a seat may also propose unasked, and the
    active player answers before deciding anything else.
    """

    give: Goods
    get: Goods
    kind: ClassVar[str] = "propose_trade"
    group: ClassVar[str] = "trade"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} proposes {give} for {get} to the active player"),
            player=player,
            give=goods_text(self.give),
            get=goods_text(self.get),
        )


@dataclass(frozen=True, slots=True)
class AskForProposals(Action):
    """The active player asks the others for trade proposals again (rule 12.1): each seat
    with proposals left under its cap is asked in turn, clockwise, as right after the roll."""

    kind: ClassVar[str] = "ask_for_proposals"
    group: ClassVar[str] = "trade"

    def _said(self, player: str, board: Any) -> Message:
        return msg(N_("{player} asks the table for trade proposals"), player=player)


@dataclass(frozen=True, slots=True)
class RespondToTrade(Action):
    accept: bool
    kind: ClassVar[str] = "respond_to_trade"
    group: ClassVar[str] = "decision"

    def _said(self, player: str, board: Any) -> Message:
        if self.accept:
            return msg(N_("{player} accepts the trade"), player=player)
        return msg(N_("{player} declines the trade"), player=player)


# -- energy (rule 11) -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RemoveHazard(Action):
    place: str  # "hex" | "building"
    index: int  # hex id or corner id
    kind: ClassVar[str] = "remove_hazard"
    group: ClassVar[str] = "energy"

    def _said(self, player: str, board: Any) -> Message:
        where = _hex(board, self.index) if self.place == "hex" else _corner(board, self.index)
        return msg(N_("{player} removes the hazard on {place}"), player=player, place=where)


@dataclass(frozen=True, slots=True)
class DemolishFossil(Action):
    corner: int
    hex: int
    kind: ClassVar[str] = "demolish_fossil"
    group: ClassVar[str] = "energy"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} demolishes the fossil plant on {hex}"),
            player=player,
            hex=_hex(board, self.hex),
        )


@dataclass(frozen=True, slots=True)
class BuildWarehouse(Action):
    kind: ClassVar[str] = "build_warehouse"
    group: ClassVar[str] = "energy"

    def _said(self, player: str, board: Any) -> Message:
        return msg(N_("{player} builds the warehouse"), player=player)


# -- development cards (rules 5.4, 13) --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayDevCard(Action):
    card: str
    kind: ClassVar[str] = "play_dev_card"
    group: ClassVar[str] = "cards"

    def _said(self, player: str, board: Any) -> Message:
        return msg(N_("{player} plays {card}"), player=player, card=pretty(self.card))


# -- decisions asked for by the engine --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiscardCard(Action):
    card: str
    kind: ClassVar[str] = "discard_card"
    group: ClassVar[str] = "decision"

    def _said(self, player: str, board: Any) -> Message:
        return msg(N_("{player} discards 1 {card}"), player=player, card=word(self.card))


@dataclass(frozen=True, slots=True)
class TakeCard(Action):
    card: str
    kind: ClassVar[str] = "take_card"
    group: ClassVar[str] = "decision"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} takes 1 {card} from the supply"), player=player, card=word(self.card)
        )


@dataclass(frozen=True, slots=True)
class MoveInspector(Action):
    hex: int
    kind: ClassVar[str] = "move_inspector"
    group: ClassVar[str] = "decision"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} moves the Inspector to {hex}"), player=player, hex=_hex(board, self.hex)
        )


@dataclass(frozen=True, slots=True)
class ChooseVictim(Action):
    victim: int
    kind: ClassVar[str] = "choose_victim"
    group: ClassVar[str] = "decision"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} steals from {victim}"), player=player, victim=seat_name(self.victim)
        )


@dataclass(frozen=True, slots=True)
class PlaceHazard(Action):
    corner: int
    kind: ClassVar[str] = "place_hazard"
    group: ClassVar[str] = "decision"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} puts a hazard on the building at {corner}"),
            player=player,
            corner=_corner(board, self.corner),
        )


@dataclass(frozen=True, slots=True)
class ChooseHex(Action):
    hex: int
    kind: ClassVar[str] = "choose_hex"
    group: ClassVar[str] = "decision"

    def _said(self, player: str, board: Any) -> Message:
        return msg(
            N_("{player} takes High Yield from {hex}"), player=player, hex=_hex(board, self.hex)
        )


@dataclass(frozen=True, slots=True)
class Decline(Action):
    kind: ClassVar[str] = "decline"
    group: ClassVar[str] = "decision"

    def _said(self, player: str, board: Any) -> Message:
        return msg(N_("{player} declines"), player=player)


# -- teacher sandbox (recorded so saved games replay) -----------------------------------------


@dataclass(frozen=True, slots=True)
class SandboxEdit(Action):
    """A teacher's edit of the position; ``seat`` is -1 when no seat is involved."""

    op: str
    args: tuple[int | str, ...] = ()
    kind: ClassVar[str] = "sandbox"
    group: ClassVar[str] = "sandbox"

    def _sentence(self, name: str | None, board: Any) -> Message:
        edit, args = self.op.replace("_", " "), list(self.args)
        if self.seat < 0:
            return msg(N_("Teacher sandbox: {edit} {args}"), edit=edit, args=args)
        who = name or seat_name(self.seat)
        return msg(
            N_("Teacher sandbox: {edit} {args} for {player}"), edit=edit, args=args, player=who
        )


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        RollDice,
        EndTurn,
        BuildRoad,
        BuildTown,
        BuildCity,
        BuildPlant,
        BuyDevCard,
        TradeWithSupply,
        OfferTrade,
        ProposeTrade,
        AskForProposals,
        RespondToTrade,
        RemoveHazard,
        DemolishFossil,
        BuildWarehouse,
        PlayDevCard,
        DiscardCard,
        TakeCard,
        MoveInspector,
        ChooseVictim,
        PlaceHazard,
        ChooseHex,
        Decline,
        SandboxEdit,
    )
}


# ``shared.BuildRoad(0, 5)`` hands out one object per distinct action. Actions are frozen, so
# equal actions may be one object; listing legal actions builds the same few hundred actions
# again and again, and a cache lookup costs a fraction of building a frozen dataclass.
shared = SimpleNamespace(
    **{
        cls.__name__: functools.cache(cls)
        for cls in ACTION_TYPES.values()
        if cls is not SandboxEdit
    }
)


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from :func:`action_to_dict`, raising ValueError on bad input."""
    if not isinstance(data, dict):
        raise ValueError("an action must be a JSON object")
    kind = data.get("kind")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown action kind {show(kind)}")  # short: a file may hold megabytes
    return cls(**checked_fields(cls, data, kind))


class _SaveFileCodec:
    """New Energies' actions through save files: the kit's codec contract
    (:class:`energies.kit.codec.Codec`) over :func:`action_to_dict` and
    :func:`action_from_dict`, which keep the shapes of nested goods and sandbox arguments."""

    @staticmethod
    def to_dict(action: Action) -> dict[str, Any]:
        return action_to_dict(action)

    @staticmethod
    def from_dict(data: Any) -> Action:
        return action_from_dict(data)


#: The codec :class:`energies.newenergies.game.Game` saves and loads its actions with.
CODEC = _SaveFileCodec()
