"""Bookkeeping invariants of a game of Noclear (the tests check them after every action)."""

from __future__ import annotations

from collections import Counter


def problems(game) -> list[str]:
    """Everything that is inconsistent in the game's state (empty when all is well)."""
    state, rules = game.state, game.rules
    cards = state.cards
    out = []
    owned = [m for p in state.players for m in p.machines]
    market = [m for m in state.market if m is not None]
    everywhere = Counter(state.deck + market + owned + state.discarded)
    if set(everywhere) != set(cards.machines) or any(n != 1 for n in everywhere.values()):
        out.append(
            "every machine must be in exactly one place (deck, market, a player or discarded)"
        )
    if state.discarded and rules.uranium_payment != "machines":
        out.append("a machine was discarded, but uranium is paid with energy (rule 2.2)")
    paying = state.phase == "discard"
    if paying != (state.paying_for is not None) or paying != (state.owed > 0):
        out.append("a uranium card is paid with machines outside the discard phase (rule 2.2)")
    if paying and (
        state.paying_for not in state.visible_uranium()
        or state.owed
        > sum(
            cards.machines[m].points(up) for m, up in state.players[state.active].machines.items()
        )
    ):
        out.append("the uranium card being paid is not face up, or cannot be paid (rule 2.2)")
    if state.deck_size != len(state.deck):
        out.append("deck_size does not match the deck")
    if len(state.market) != rules.market_size:
        out.append("the market has the wrong number of slots")
    if state.deck and None in state.market:
        out.append("an empty market slot was not refilled from the deck (rule 2.2)")
    uranium = Counter(state.uranium + [u for p in state.players for u in p.uranium])
    if set(uranium) != {u.id for u in cards.uranium} or any(n != 1 for n in uranium.values()):
        out.append("every uranium card must be in the market or with one player")
    if [u.id for u in cards.uranium if u.id in state.uranium] != state.uranium:
        out.append("the uranium market lost its order")
    for p in state.players:
        if len(p.energy) != 2 or any(not 0 <= e <= rules.energy_cap for e in p.energy):
            out.append(f"seat {p.seat}'s energy {p.energy} is outside 0..{rules.energy_cap}")
        if p.first_machine is not None and p.first_machine not in [*p.machines, *state.discarded]:
            out.append(f"seat {p.seat}'s opening purchase is neither its machine nor discarded")
        if p.machines and p.first_machine is None:
            out.append(f"seat {p.seat} owns machines but has no opening purchase")
    if not 0 <= state.top < rules.market_size or not 0 <= state.bottom < len(rules.symbols):
        out.append("a radioactivity token is off the table")
    if state.outcome is None:
        if state.phase not in ("buy", "discard", "effect", "upgrade"):
            out.append(f"a running game is in phase {state.phase!r}")
        if not game.legal_actions():
            out.append("a running game lists no legal action")
        if state.upgrades_done > rules.upgrades_per_turn:
            out.append("more upgrades this turn than allowed (rule 2.4)")
        if not state.uranium and rules.end == "immediate":
            out.append("the uranium market is empty but the game goes on (rule 3.1)")
    else:
        counts = [len(p.uranium) for p in state.players]
        if any(counts[w] != max(counts) for w in state.outcome.winners):
            out.append(f"a winner does not hold the most uranium {counts} (rule 3.1)")
        if state.outcome.kind == "uranium" and state.uranium:
            out.append("the game ended on uranium while uranium is left")
    return out
