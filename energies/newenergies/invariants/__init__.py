"""Bookkeeping invariants of a GameState, recomputed from first principles (test oracle).

:func:`check_invariants` returns one readable sentence per violation (an empty
list means the state is consistent). It deliberately recomputes every derived
quantity — card, energy, development-card and disc totals, LF, GF, VP, road
lengths, the distance rule — from the raw pieces and the RuleSet instead of
calling the state's or engine's helpers, so a bug in a helper cannot hide
itself: the state's own LF, GF and VP are read only to be compared with the
recomputed values. :func:`energies.engine.list_actions` and ``current_seat``
are called (lazily, to avoid an import cycle) only to check that a running
game is never stuck and that the listing the state keeps is the fresh one.

    >>> import energies as en
    >>> from energies.invariants import check_invariants
    >>> check_invariants(en.new_game(seed=7).state)
    []
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..rules import CARD_KINDS, DEV_CARDS, RuleSet
from ..state import GameState
from .board import board_errors, distance_errors, road_length

OUTCOME_KINDS = ("victory_points", "empty_bag", "everyone_loses", "unfinished")
PHASES = ("setup", "event", "roll", "action", "over")


def check_invariants(
    state: GameState,
    *,
    distance_rule: bool = True,
    legal_actions: Sequence[Any] | None = None,
) -> list[str]:
    """Every bookkeeping invariant the state breaks, as readable sentences ([] = fine).

    ``distance_rule``: check the distance rule (rules 3.3, 10.1) between all
    buildings once the game has started. Pass False for a position built with
    teacher-sandbox placements, which skip the distance rule on purpose.
    ``legal_actions``: the list a game loop got from the engine for this very
    state; like the listing the state keeps, it must equal a fresh listing.
    """
    out: list[str] = []
    rules = state.rules
    n = len(state.players)
    if n != rules.players:
        out.append(f"{n} players in the state but the rule set is for {rules.players}")
    out += _cards(state, rules)
    out += _energy(state, rules)
    out += _dev_cards(state, rules)
    out += board_errors(state, rules)
    out += _turn_flags(state, rules)
    if distance_rule and state.phase != "setup":
        out += distance_errors(state)
    out += _progress(state, legal_actions)
    out += _kept_listing_facts(state)
    if not out:  # (a broken state could break the copying itself)
        out += _views(state)
    return out


def _kept_listing_facts(state: GameState) -> list[str]:
    """The speed caches equal a fresh computation: every seat's kept building spots
    (state.cache.spots, dropped selectively as pieces move: engine.keep_spots), what each
    hand can pay for (listing.hand_buys, kept per card counts), the corner owners
    (state.cache.owners, dropped when a town or city is placed) and the road lengths of the
    Longest Road award (state.cache.road_lengths, likewise). (The kept listing: _progress.)"""
    from ..engine import listing  # lazy, as in _progress

    out, cache = [], state.cache
    for seat, kept in sorted((cache.spots or {}).items()):
        for key, found in kept.items():
            if found != listing.find_spots(state, seat, key):
                out.append(f"seat {seat}'s kept {key} spots are not those found afresh")
    for p in state.players:
        buys = [listing.can_pay(p.hand, state.rules.cost(item)) for item in listing.BUYABLE]
        road, town, city, plants, dev_card = listing.hand_buys(state.rules, p.hand)
        kinds = [kind for kind, ok in zip(listing.PLANTS, buys[3:-1]) if ok]
        if [road, town, city, dev_card] != [*buys[:3], buys[-1]] or list(plants) != kinds:
            out.append(f"what seat {p.seat}'s hand can pay for is kept wrong")
    if cache.road_lengths is not None:
        minimum = state.rules.longest_road_min
        fresh = {
            p.seat: road_length(state, p.seat) if len(p.roads) >= minimum else 0
            for p in state.players
        }
        if cache.road_lengths != fresh:
            out.append("the road lengths the state keeps are not those of the roads (rule 13.6)")
    if cache.owners is not None:
        fresh = {c: p.seat for p in state.players for c in (*p.towns, *p.cities)}
        if cache.owners != fresh:
            out.append("the corner owners the state keeps are not those of the pieces")
    return out


def _views(state: GameState) -> list[str]:
    """Where a view would reuse the public copies of an earlier one (kept through the answers
    of a trade window, engine.QUIET), the view of the seat to decide equals one copied afresh.
    (The per-player copies the view module compares before reusing: tests/test_view.py.)"""
    from .. import view  # lazy, as in _progress

    if not view.reuses_copies(state):
        return []
    seat = state.queue[0].seat if state.queue and state.outcome is None else state.active
    if tuple(view.make_view(state, seat)) != tuple(view.fresh_view(state, seat)):
        return [f"seat {seat}'s view made from kept copies differs from a fresh one"]
    return []


# -- cards, energy, development cards (§1, rules 8.4, 13) ----------------------------------------


def _cards(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    kinds = set(CARD_KINDS)
    if state.supply.keys() != kinds:
        out.append(f"supply holds the kinds {sorted(state.supply)}, expected {sorted(kinds)}")
    totals = dict(state.supply)
    for p in state.players:
        if p.hand.keys() != kinds:
            out.append(f"seat {p.seat}'s hand holds the kinds {sorted(p.hand)}")
        for kind, count in p.hand.items():
            if not isinstance(count, int) or count < 0:
                out.append(f"seat {p.seat} holds {count!r} {kind} (a hand count must be >= 0)")
            totals[kind] = totals.get(kind, 0) + count
    for kind in CARD_KINDS:
        expected = rules.science_cards if kind == "science" else rules.resource_cards
        supply = state.supply.get(kind, 0)
        if supply < 0:
            out.append(f"the supply holds {supply} {kind} (must be >= 0)")
        if totals.get(kind, 0) != expected:
            hands = totals.get(kind, 0) - supply
            out.append(
                f"{kind} cards not conserved: supply {supply} + hands {hands} = "
                f"{supply + hands}, expected {expected}"
            )
    return out


def _energy(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    held = 0
    for p in state.players:
        held += p.energy
        if not 0 <= p.energy <= rules.energy_cap:
            out.append(
                f"seat {p.seat} holds {p.energy} energy, outside 0..{rules.energy_cap} (rule 8.4)"
            )
    if state.energy_supply < 0:
        out.append(f"the energy supply is {state.energy_supply} (must be >= 0)")
    if state.energy_supply + held != rules.energy_tokens:
        out.append(
            f"energy not conserved: supply {state.energy_supply} + players {held} = "
            f"{state.energy_supply + held}, expected {rules.energy_tokens}"
        )
    return out


def _dev_cards(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    expected = Counter(dict(rules.dev_deck))
    total = Counter(state.dev_deck)
    for p in state.players:
        total.update(p.dev_cards)
        for kind, count in p.dev_played.items():
            total[kind] += count
            if count < 0:
                out.append(f"seat {p.seat} has a negative played-card count: {p.dev_played}")
        if p.dev_new and Counter(p.dev_new) - Counter(p.dev_cards):
            out.append(f"seat {p.seat} has new development cards it does not hold: {p.dev_new}")
        if p.dev_played.get("victory_point", 0):
            out.append(f"seat {p.seat} played a Victory Point card (rule 5.4: never played)")
    if total == expected:
        return out
    # explain the difference: totals, then kind by kind
    deck = Counter(state.dev_deck)
    held = Counter(card for p in state.players for card in p.dev_cards)
    played: Counter = Counter()
    for p in state.players:
        played.update(p.dev_played)
    found, wanted = sum(total.values()), sum(expected.values())
    if found != wanted:
        out.append(
            f"development cards not conserved: deck {len(state.dev_deck)} + held "
            f"{sum(held.values())} + played {sum(played.values())} = {found}, expected {wanted}"
        )
    for kind in sorted(set(expected) | set(total) | set(DEV_CARDS)):
        if total[kind] != expected[kind]:
            out.append(
                f"{kind} development cards not conserved: deck {deck[kind]} + held {held[kind]} "
                f"+ played {played[kind]} = {total[kind]}, expected {expected[kind]}"
            )
    return out


# -- turn structure (rules 5.4, 10.3, 11, 14) ---------------------------------------------------


def _turn_flags(state: GameState, rules: RuleSet) -> list[str]:
    out = []
    if state.phase not in PHASES:
        out.append(f"unknown phase {state.phase!r}")
    flags = (
        ("plants built", state.plants_built, rules.plants_per_turn, "10.3"),
        ("fossil plants demolished", state.demolished, rules.demolish_per_turn, "11"),
        ("development cards played", state.dev_played_turn, rules.dev_cards_per_turn, "5.4"),
        ("trade offers made", state.offers_made, rules.trade_offers_per_turn, "12.1"),
    )
    for what, count, limit, rule in flags:
        if not 0 <= count <= limit:
            out.append(f"{count} {what} this turn, limit {limit} (rule {rule})")
    out += _proposals(state, rules)
    return out


def _proposals(state: GameState, rules: RuleSet) -> list[str]:
    """Rule 12.1: proposals come from seats that are not active, in the action phase, at most
    ``trade_offers_per_turn`` per proposer; the active player answers each one, and asks the
    table at most ``table_asks_per_turn`` times a turn, in the action phase."""
    out = []
    limit, asks = rules.trade_offers_per_turn, rules.table_asks_per_turn
    if not 0 <= state.table_asks <= (asks if limit > 0 else 0):
        out.append(f"the table was asked {state.table_asks} times this turn, limit {asks} (12.1)")
    if state.table_asks and state.phase not in ("action", "over"):
        out.append(f"the table was asked for proposals in the {state.phase} phase (rule 12.1)")
    for seat, made in sorted(state.proposals_made.items()):
        if seat == state.active and made:
            out.append(f"the active seat {seat} made {made} proposal(s) to itself (rule 12.1)")
        if not 0 <= made <= limit:
            out.append(f"seat {seat} made {made} trade proposals this turn, limit {limit} (12.1)")
    for task in state.queue:
        if task.kind == "propose_trade":
            if task.seat == state.active or state.phase != "action" or limit <= 0:
                out.append(
                    f"seat {task.seat} is asked for a trade proposal in the {state.phase} phase "
                    f"while seat {state.active} is active (rule 12.1)"
                )
            elif state.proposals_made.get(task.seat, 0) >= limit:
                out.append(f"seat {task.seat} is asked for a proposal past the limit (12.1)")
        elif task.kind == "trade_response" and task.info.get("from") == task.seat:
            out.append(f"seat {task.seat} is asked to answer its own trade (rule 12.1)")
    return out


def _progress(state: GameState, legal: Sequence[Any] | None) -> list[str]:
    """A running game waits for a valid seat that has a legal action; a finished one is over."""
    from .. import engine  # lazy: engine imports the modules this one reads

    out = []
    n = len(state.players)
    if state.outcome is not None:
        kind: Any = getattr(state.outcome, "kind", None)
        if kind not in OUTCOME_KINDS:
            out.append(f"unknown outcome kind {kind!r}")
        winners = tuple(getattr(state.outcome, "winners", ()))
        if any(not (isinstance(s, int) and 0 <= s < n) for s in winners):
            out.append(f"outcome winners {winners} are not seats")
        if kind in ("everyone_loses", "unfinished") and winners:
            out.append(f"a game ending as {kind} has winners {winners}")
        if kind in ("victory_points", "empty_bag") and not winners:
            out.append(f"a game ending as {kind} has no winner")
        if kind == "victory_points":
            for s in winners:
                vp = state.victory_points(s)
                if vp < state.rules.victory_points:
                    out.append(f"seat {s} won on points with only {vp} VP (rule 14.1)")
        if state.phase != "over" or state.queue:
            out.append(
                f"the game is over but the phase is {state.phase!r} with "
                f"{len(state.queue)} pending task(s)"
            )
        return out
    if state.phase == "over":
        out.append("the phase is 'over' but there is no outcome")
    seat = state.queue[0].seat if state.queue else state.active  # who must decide now
    if not (isinstance(seat, int) and 0 <= seat < n):
        out.append(f"the current seat {seat!r} is not a seat at the table")
    elif engine.current_seat(state) != seat:
        out.append(
            f"the engine says seat {engine.current_seat(state)} decides, but the "
            f"pending decision belongs to seat {seat}"
        )
    if not (isinstance(state.active, int) and 0 <= state.active < n):
        out.append(f"the active seat {state.active!r} is not a seat at the table")
    if out:
        return out  # an invalid seat would make the legal-action search itself fail
    fresh = engine.list_actions(state)
    for source, listed in (("the state keeps", state.cache.listed), ("the caller got", legal)):
        if listed is not None and list(listed) != fresh:
            out.append(
                f"the legal actions {source} ({len(listed)}) are not those of this position "
                f"({len(fresh)} listed afresh)"
            )
    legal = fresh
    if not legal:
        pending = state.queue[0].kind if state.queue else "free choice"
        out.append(f"the game is not over but seat {seat} has no legal action ({pending})")
    others = sorted({a.seat for a in legal if getattr(a, "seat", None) != seat})
    if others:
        out.append(f"legal actions are listed for seat(s) {others}, but seat {seat} decides now")
    return out


__all__ = ["OUTCOME_KINDS", "check_invariants"]
