"""Rule 12.1's one-card-for-one-card trades, listed and counted from who holds what.

A seat may offer any kind it holds for any kind another seat may hold, judged from public
facts (a seat's hand size and its energy), and a seat that is not active may propose such a
trade to the active player. Offers are most of a random game's actions, so they are made
from small tables per seat (one action object per give x get, made once) and a byte string
of holdings picks the rows; :class:`OffersLeftOut` lets a bot that never offers skip making
them and still know how many there were. Split from :mod:`energies.listing`, which puts
them at the tail of every own-turn listing.
"""

from __future__ import annotations

import functools
import operator

from ..actions import Action, OfferTrade, ProposeTrade, shared
from ..rules import CARD_KINDS
from ..state import GameState
from .checks import proposal_timing_problem


def proposal_options(state: GameState, seat: int) -> tuple[Action, ...]:
    """One-card-for-one-card proposals of a seat that is not active to the active player
    (rule 12.1): any kind it holds for any kind the active player may hold; then passing.

    One tuple per seat and such holdings, made once: a proposal window (three of them
    after most actions of a turn) costs a lookup instead of a new list.
    """
    return _proposal_options(seat, _own(state, seat) + _public(state, state.active))


def interjected_proposals(state: GameState, seat: int) -> tuple[Action, ...]:
    """The one-card-for-one-card proposals ``seat`` may make to the active player now without
    being asked (rule 12.1 [H]: at the active player's free decision of the action phase);
    empty when it may not propose now (``checks.proposal_timing_problem`` says why).

    ``legal_actions`` lists only the deciding seat's moves; an app lists a waiting seat's
    proposals with this. The active player answers each before deciding anything else.
    """
    if state.outcome is not None or proposal_timing_problem(state, seat) is not None:
        return ()
    return proposal_options(state, seat)[:-1]  # (no pass: nobody asked this seat)


@functools.cache
def _proposal_options(seat: int, holdings: bytes) -> tuple[Action, ...]:
    pick = _offer_picker(holdings)
    proposals = pick(_proposal_table(seat)) if pick is not None else ()
    return (*proposals, shared.Decline(seat))


def one_for_one_offers(state: GameState, seat: int) -> list[Action]:
    """One-card-for-one-card offers to every other seat (rule 12.1)."""
    return _offers_from_holdings(_own(state, seat), _publics(state), seat)


def _offers_from_holdings(mine: bytes, publics: tuple[bytes, ...], seat: int) -> list[Action]:
    offers: list[Action] = []
    for partner, theirs in enumerate(publics):
        if partner != seat:
            pick = _offer_picker(mine + theirs)
            if pick is not None:
                offers += pick(_offer_table(seat, partner))
    return offers


def offers_listed(state: GameState) -> bool:
    """Whether the listing of this position ends with one-for-one offers (rule 12.1)."""
    return (
        not state.queue
        and state.phase == "action"
        and state.offers_made < state.rules.trade_offers_per_turn
        and state.turn_actions < state.rules.turn_action_limit
    )


class OffersLeftOut(list):
    """The legal actions without their tail of one-for-one offers, for a bot that scores
    offers without seeing them (``energies.play`` hands it to such bots).

    ``count`` says how many offers the full listing has; :meth:`offers` makes them on
    demand. It keeps only what the seat may know: which kinds it holds itself, and for
    every other seat whether it holds any card at all and any energy (public counts),
    never the state itself.
    """

    __slots__ = ("_mine", "_publics", "_seat", "count")

    def __init__(self, actions: list[Action], state: GameState, seat: int) -> None:
        super().__init__(actions)
        self._seat = seat
        if offers_listed(state):
            self._mine, self._publics = _own(state, seat), _publics(state)
            self.count = _count_offers(self._mine, self._publics, seat)
        else:
            self._mine, self._publics, self.count = b"", (), 0

    def offers(self) -> list[Action]:
        """The one-for-one offers left out, in the order the full listing has them."""
        if not self.count:
            return []
        return _offers_from_holdings(self._mine, self._publics, self._seat)


def count_one_for_one_offers(state: GameState, seat: int) -> int:
    """How many offers :func:`one_for_one_offers` lists, without making the list."""
    return _count_offers(_own(state, seat), _publics(state), seat)


def _count_offers(mine: bytes, publics: tuple[bytes, ...], seat: int) -> int:
    return sum(
        _offer_count(mine + theirs) for partner, theirs in enumerate(publics) if partner != seat
    )


def _own(state: GameState, seat: int) -> bytes:
    """One byte per kind in TRADED order: does the seat hold any? (what it can give)"""
    p = state.players[seat]
    energy = state.rules.energy_tradeable and p.energy > 0
    return bytes((*map(bool, cards_of(p.hand)), energy))


def _public(state: GameState, seat: int) -> bytes:
    """One byte per kind in TRADED order: may the seat be asked for it, judged from public
    facts (rule 12.1 and ``checks.asked_problem``)? Any card kind while it holds a card at
    all (the kinds are hidden), energy while it has any (energy is public)."""
    p = state.players[seat]
    energy = state.rules.energy_tradeable and p.energy > 0
    return _ANY_CARD[p.cards > 0] + bytes((energy,))


def _publics(state: GameState) -> tuple[bytes, ...]:
    """:func:`_public` of every seat, in seat order (one pass, the bytes from a table)."""
    energy = state.rules.energy_tradeable
    return tuple([_PUBLIC[p.cards > 0][energy and p.energy > 0] for p in state.players])


TRADED = CARD_KINDS + ("energy",)
cards_of = operator.itemgetter(*CARD_KINDS)  # a hand's counts in CARD_KINDS order
_ANY_CARD = (bytes(len(CARD_KINDS)), bytes([1] * len(CARD_KINDS)))  # indexed by "holds a card"
# _public's answers, indexed by "holds a card", then by "has energy to trade"
_PUBLIC = tuple((any_card + b"\x00", any_card + b"\x01") for any_card in _ANY_CARD)


@functools.cache
def _offer_picker(holdings: bytes):
    """Picks the possible offers out of an offer table; None when there are none.

    ``holdings`` is what the offerer holds followed by what the partner may be asked for. The
    offers depend on nothing else (at most 2**14 cases), so each picker is built once
    and then picks in C instead of looping over kinds in Python on every listing.
    """
    picks = _picks(holdings)
    if not picks:
        return None
    if len(picks) == 1:
        return lambda table: (table[picks[0]],)
    return operator.itemgetter(*picks)


@functools.cache
def _proposal_table(seat: int) -> tuple[ProposeTrade, ...]:
    # actions.shared's objects: the env's action codec knows them by identity from the start
    return tuple(
        shared.ProposeTrade(seat, ((give, 1),), ((get, 1),)) for give in TRADED for get in TRADED
    )


@functools.cache
def _offer_count(holdings: bytes) -> int:
    return len(_picks(holdings))


def _picks(holdings: bytes) -> list[int]:
    """Indexes into an offer table (give * len(TRADED) + get) of the possible offers."""
    n = len(TRADED)
    mine = [g for g in range(n) if holdings[g]]
    theirs = [t for t in range(n) if holdings[n + t]]
    return [g * n + t for g in mine for t in theirs if t != g]


@functools.cache
def _offer_table(seat: int, partner: int) -> tuple[OfferTrade, ...]:
    # actions are immutable, so one object per offer serves every game (actions.shared's)
    return tuple(
        shared.OfferTrade(seat, partner, ((give, 1),), ((get, 1),))
        for give in TRADED
        for get in TRADED
    )
