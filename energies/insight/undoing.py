"""Self-undoing moves: a player who takes back, in the same turn, what it has just done.

:func:`self_undoing` replays a game's action log turn by turn and reports every pair of one
seat's moves within one turn where the second undoes the first. Such a pair costs twice
and leaves the seat where it stood, so a bot that plays its plan sensibly never makes one
(the personas and the search player keep a ledger of their own moves,
:mod:`energies.bots.ledger`, and the tests play seeded games to check that they never do).
The pairs, by ``kind``:

* ``"demolish_then_fossil"`` — demolishes a fossil plant (rule 11), then builds one;
* ``"fossil_then_demolish"`` — builds a fossil plant (also the free one of Production
  Increase, rule 7.4, in the event phase of the turn), then demolishes one;
* ``"trade_back"`` — gets back by a trade a card kind it gave away in an earlier trade of the
  turn (with the supply, rule 12.2, or with a player, rule 12.1: an offer or proposal counts
  once it is accepted);
* ``"ask_then_refuse"`` — asks the table for proposals (rule 12.1), gets at least one and
  accepts none: the ask cancelled by its own answers.

A turn is one seat's turn (the event phase, the roll and the action phase); a seat that is
not active has moves in it too (answers, proposals, a free plant).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..newenergies import engine
from ..newenergies.actions import (
    AskForProposals,
    BuildPlant,
    DemolishFossil,
    ProposeTrade,
    RespondToTrade,
    TradeWithSupply,
)
from ..newenergies.rules.vocabulary import goods_text
from ..newenergies.state import GameState

__all__ = ["UNDO_KINDS", "SelfUndo", "self_undoing"]

UNDO_KINDS = (
    "demolish_then_fossil",
    "fossil_then_demolish",
    "trade_back",
    "ask_then_refuse",
)


@dataclass(frozen=True)
class SelfUndo:
    """One self-undoing pair: ``first`` and ``second`` are indices into ``game.actions``."""

    kind: str
    turn: int
    seat: int
    first: int
    second: int
    text: str  # the two moves in words

    def __str__(self) -> str:
        return f"turn {self.turn}: {self.text} ({self.kind})"


class _Seat:
    """One seat's moves so far in the current turn (indices into the action log)."""

    def __init__(self) -> None:
        self.fossil_built: int | None = None
        self.demolished: int | None = None
        self.gave: dict[str, int] = {}  # card kind -> the trade that gave it away
        self.ask: int | None = None  # the open ask of the table, its answers below
        self.proposals = 0
        self.accepted = False
        self.last_refusal: int | None = None


def self_undoing(game) -> list[SelfUndo]:
    """Every self-undoing pair of moves in ``game`` (a New Energies game), in log order.

    The game is replayed from its seed and rules (each action checked again), so the
    position before every move is known: whose turn it is and which decision (which trade)
    a move answers. See the module docstring for the kinds of pairs.
    """
    if not isinstance(getattr(game, "state", None), GameState) or not hasattr(game, "actions"):
        raise ValueError(
            "self_undoing needs a game of New Energies (energies.new_game, load_game), "
            f"not {type(game).__name__}."
        )
    actions = list(game.actions)
    state = engine.new_state(game.rules, game.seed, False)
    found: list[SelfUndo] = []

    page: tuple = (state.turn, state.active)
    said: dict[tuple[int, int], str] = {}  # (action index, seat) -> the seat's move in words

    def pair(kind: str, seat: int, first: int, second: int) -> None:
        text = f"{said[first, seat]}, then {said[second, seat]}"
        found.append(SelfUndo(kind, page[0], seat, first, second, text))

    seats: dict[int, _Seat] = {}
    for i, action in enumerate(actions):
        if (state.turn, state.active) != page:  # a new turn: the pages start empty
            _close_asks(seats, pair)
            page, seats = (state.turn, state.active), {}
        seat = action.seat
        mine = seats.setdefault(seat, _Seat())
        if mine.ask is not None and not isinstance(action, RespondToTrade):
            _close_ask(seat, mine, pair)  # its next move of its own: the ask's answers are in
        task = state.queue[0] if state.queue else None
        said.update(_words(game, i, action, task))
        if isinstance(action, BuildPlant) and action.plant == "fossil":
            if mine.demolished is not None:
                pair("demolish_then_fossil", seat, mine.demolished, i)
            if mine.fossil_built is None:
                mine.fossil_built = i
        elif isinstance(action, DemolishFossil):
            if mine.fossil_built is not None:
                pair("fossil_then_demolish", seat, mine.fossil_built, i)
            if mine.demolished is None:
                mine.demolished = i
        elif isinstance(action, AskForProposals):
            mine.ask, mine.proposals, mine.accepted = i, 0, False
        elif isinstance(action, ProposeTrade):
            asker = seats.get(state.active)
            if asker is not None and asker.ask is not None:
                asker.proposals += 1
        elif isinstance(action, TradeWithSupply):
            _trade(seats, seat, {action.give}, {action.get}, i, pair)
        elif isinstance(action, RespondToTrade) and task is not None:
            _answer(seats, mine, action, task.info, i, pair)
        engine.apply(state, action)
    _close_asks(seats, pair)
    return found


def _answer(seats, mine: _Seat, action: RespondToTrade, info, i: int, pair) -> None:
    """An answer to an offer or proposal: an accepted one is a trade for both sides."""
    if mine.ask is not None:  # the asker answers a proposal its ask brought
        mine.accepted |= action.accept
        if not action.accept:
            mine.last_refusal = i
    if not action.accept:
        return
    gives, gets = _kinds(info.get("give", ())), _kinds(info.get("get", ()))
    other = info.get("from")
    _trade(seats, action.seat, gets, gives, i, pair)  # the answering seat gives "get"
    if isinstance(other, int):
        _trade(seats, other, gives, gets, i, pair)


def _trade(seats, seat: int, gave: set[str], got: set[str], i: int, pair) -> None:
    mine = seats.setdefault(seat, _Seat())
    back = sorted(kind for kind in got if kind in mine.gave)
    if back:
        pair("trade_back", seat, mine.gave[back[0]], i)
    for kind in gave:
        mine.gave.setdefault(kind, i)


def _close_ask(seat: int, mine: _Seat, pair) -> None:
    if mine.proposals and not mine.accepted and mine.last_refusal is not None:
        pair("ask_then_refuse", seat, mine.ask, mine.last_refusal)
    mine.ask, mine.proposals, mine.accepted, mine.last_refusal = None, 0, False, None


def _close_asks(seats: dict[int, _Seat], pair) -> None:
    for seat, mine in seats.items():
        if mine.ask is not None:
            _close_ask(seat, mine, pair)


def _words(game, i: int, action, task) -> dict[tuple[int, int], str]:
    """The move as a sentence for the seat that made it, and an accepted trade also as the
    other side's move: {(i, seat): sentence}."""
    seat = action.seat
    text = game.describe(action)
    if not (isinstance(action, RespondToTrade) and task is not None and "give" in task.info):
        return {(i, seat): text}
    info = task.info  # the answering seat gives what the other side asked for ("get")
    verb = ("gives", "gets") if action.accept else ("would give", "get")
    trade = f"{verb[0]} {goods_text(info['get'])}, {verb[1]} {goods_text(info['give'])}"
    out = {(i, seat): f"{text} ({trade})"}
    other = info.get("from")
    if action.accept and isinstance(other, int) and 0 <= other < len(game.names):
        out[i, other] = (
            f"{game.names[other]} trades {goods_text(info['give'])} for "
            f"{goods_text(info['get'])} with {game.names[seat]}"
        )
    return out


def _kinds(goods) -> set[str]:
    return {kind for kind, n in goods if n > 0}
