"""A seat's own moves earlier in the current turn, and which listed actions would undo them.

A sensible player never takes back in the same turn what it has just done: it would pay
twice to stand where it stood. Each persona (:class:`~energies.bots.strategy.StrategyBot`)
and each search player keeps one :class:`TurnLedger` of its own choices this turn and
never plays an action the ledger says would undo one of them:

* a fossil plant built this turn (bought, or the free one of Production Increase, rule
  7.4), then a fossil plant demolished (rule 11), or the other way round;
* a card kind traded away (with the supply, rule 12.2, or with a player, rule 12.1), then
  got back by a trade; and a kind got by a trade given away again (no trading in circles:
  at a 1:1 rate a bot could loop).

The ledger reads only what the seat chose and what its view shows when it chose (a trade's
contents from the pending decision), so it works on a :class:`~energies.newenergies.view.GameView`
as on a full state. :func:`energies.insight.self_undoing` finds the same pairs in a game's
log, for any player.
"""

from __future__ import annotations

from ..newenergies.actions import (
    Action,
    BuildPlant,
    DemolishFossil,
    OfferTrade,
    ProposeTrade,
    RespondToTrade,
    TradeWithSupply,
)

__all__ = ["TurnLedger", "trade_kinds"]


def trade_kinds(state, action: Action) -> tuple[set[str], set[str]] | None:
    """The card kinds ``action``'s seat gives and gets if the trade goes through, or None
    if ``action`` is no trade (an answer that declines is no trade either)."""
    if isinstance(action, TradeWithSupply):
        return {action.give}, {action.get}
    if isinstance(action, (ProposeTrade, OfferTrade)):
        return _kinds(action.give), _kinds(action.get)
    if isinstance(action, RespondToTrade) and action.accept and state.queue:
        info = state.queue[0].info  # the trade answered: "give" is what the other side gives
        return _kinds(info.get("get", ())), _kinds(info.get("give", ()))
    return None


def _kinds(goods) -> set[str]:
    return {kind for kind, n in goods if n > 0}


class TurnLedger:
    """What one seat did in the current turn that a later move could undo (see the module)."""

    __slots__ = ("_turn", "demolished", "fossil_built", "gave", "got")

    def __init__(self) -> None:
        self._turn: tuple | None = None
        self._clear()

    def _clear(self) -> None:
        self.fossil_built = self.demolished = False
        self.gave: set[str] = set()
        self.got: set[str] = set()

    def holds_moves(self, state) -> bool:
        """Whether anything is recorded for the turn of ``state`` (a new turn starts a new
        page)."""
        key = (state.turn, state.active)
        if key != self._turn:
            self._turn = key
            self._clear()
            return False
        return bool(self.fossil_built or self.demolished or self.gave or self.got)

    def undoes(self, state, action: Action) -> bool:
        """Whether ``action`` would undo one of this turn's recorded moves."""
        if not self.holds_moves(state):
            return False
        if isinstance(action, BuildPlant):
            return action.plant == "fossil" and self.demolished
        if isinstance(action, DemolishFossil):
            return self.fossil_built
        kinds = trade_kinds(state, action)
        if kinds is None:
            return False
        gives, gets = kinds
        return bool(gets & self.gave or gives & self.got)

    def record(self, state, action: Action) -> None:
        """Note the seat's chosen ``action``; ``state`` is the position it was chosen in
        (before it is applied)."""
        self.holds_moves(state)
        if isinstance(action, BuildPlant):
            self.fossil_built |= action.plant == "fossil"
        elif isinstance(action, DemolishFossil):
            self.demolished = True
        else:
            kinds = trade_kinds(state, action)
            if kinds is not None:
                self.gave |= kinds[0]
                self.got |= kinds[1]
