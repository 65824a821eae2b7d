"""One world the search player may be in: the hidden parts of a position sampled.

:func:`determinize` reads a seat's information-set view (:mod:`energies.newenergies.view`), or
the same public facts of a bare GameState, and deals what the seat cannot see; see
:mod:`energies.bots.search` for how the search player uses it.
"""

from __future__ import annotations

import random
from collections import Counter

from ...newenergies.rules import CARD_KINDS, RESOURCES
from ...newenergies.state import GameState, PlayerState, Stats, Task

__all__ = ["determinize", "public_facts"]

# ==============================================================================================
# What the seat may know, read the same way from a view or from a game's state
# ==============================================================================================


def public_facts(game_view):
    """The object to read: a view or a bare GameState as it is, a Game through its state."""
    return game_view.state if hasattr(game_view, "state") else game_view


def _dev_count(p) -> int:
    """Development cards a seat holds: public as a number (``PlayerView.dev_count``)."""
    count = getattr(p, "dev_count", None)
    return count if isinstance(count, int) else len(p.dev_cards)


def _dev_new_count(p) -> int:
    count = getattr(p, "dev_new_count", None)
    return count if isinstance(count, int) else len(p.dev_new)


def _deck_size(view) -> int:
    size = getattr(view, "dev_deck_size", None)
    return size if isinstance(size, int) else len(view.dev_deck)


def _thaw(value):
    """A mutable copy of a frozen task detail (read-only mappings, tuples)."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if hasattr(value, "items"):
        return {k: _thaw(v) for k, v in value.items()}
    return [_thaw(v) for v in value]


def _deal(pool: Counter, count: int, rng: random.Random) -> list:
    """``count`` items drawn without replacement from ``pool`` (topped up if it runs dry)."""
    items = sorted(pool.elements())
    rng.shuffle(items)
    dealt = items[:count]
    kinds = sorted(pool) or [None]
    while len(dealt) < count:  # the public counts disagree with the composition: stay legal
        dealt.append(rng.choice(kinds))
    pool.subtract(dealt)
    return dealt


# ==============================================================================================
# Determinisation
# ==============================================================================================


def determinize(game_view, rng: random.Random, seat: int | None = None) -> GameState:
    """A private game state consistent with what ``seat`` may know, hidden parts sampled.

    ``game_view`` is ``game.view(seat)`` (or a Game / GameState, of which only the parts a
    view shows are read); ``seat`` defaults to the view's own. The result shares only the
    immutable board and rule set with the input and may be played on freely.
    """
    view = public_facts(game_view)
    me = view.seat if seat is None else seat
    rules, n = view.rules, len(view.players)
    mine = view.players[me]

    # hands: the others' cards come from every card not in my hand; the rest is the supply
    totals = Counter({kind: rules.resource_cards for kind in RESOURCES})
    totals["science"] = rules.science_cards
    card_pool = totals - Counter(dict(mine.hand))
    hands = {}
    for s in range(n):
        if s == me:
            hands[s] = {k: mine.hand.get(k, 0) for k in CARD_KINDS}
        else:
            dealt = Counter(_deal(card_pool, view.players[s].cards, rng))
            hands[s] = {k: dealt.get(k, 0) for k in CARD_KINDS}
    supply = {k: max(0, card_pool.get(k, 0)) for k in CARD_KINDS}

    # development cards: the deck and the others' hands from what nobody has shown
    dev_pool = Counter(dict(rules.dev_deck)) - Counter(mine.dev_cards)
    for p in view.players:
        dev_pool -= Counter(dict(p.dev_played))
    dev = {}
    for s in range(n):
        if s == me:
            dev[s] = (list(mine.dev_cards), list(mine.dev_new))
        else:
            held = _deal(dev_pool, _dev_count(view.players[s]), rng)
            dev[s] = (held, held[: _dev_new_count(view.players[s])])
    deck = _deal(dev_pool, _deck_size(view), rng)

    # green discs: face down in the bag and under the slots; dealt from those not yet seen
    green_pool = Counter({sym: count * n for sym, count in rules.green_discs_per_player})
    seen = [d for row in view.event_board.values() for d in row] + list(view.removed_discs)
    green_pool -= Counter(sym for color, sym in seen if color == "green")
    browns = sorted(tuple(d) for d in view.bag if d[0] == "brown")
    bag = [*browns, *(("green", s) for s in _deal(green_pool, len(view.bag) - len(browns), rng))]
    slots = {s: _deal(green_pool, len(view.players[s].green_slots), rng) for s in range(n)}

    players = []
    for s, p in enumerate(view.players):
        players.append(
            PlayerState(
                seat=s,
                hand=hands[s],
                energy=p.energy,
                towns=set(p.towns),
                cities=set(p.cities),
                roads=set(p.roads),
                plants=dict(p.plants),
                dev_cards=dev[s][0],
                dev_new=dev[s][1],
                dev_played=dict(p.dev_played),
                warehouse=p.warehouse,
                green_slots=slots[s],
            )
        )
    sample_seed = rng.getrandbits(63)
    state = GameState(
        rules=rules,
        board=view.board,
        seed=sample_seed,
        players=players,
        supply=supply,
        energy_supply=view.energy_supply,
        dev_deck=deck,
        inspector=view.inspector,
        bag=bag,
        event_board={row: [tuple(d) for d in discs] for row, discs in view.event_board.items()},
        removed_discs=[tuple(d) for d in view.removed_discs],
        hex_hazards=set(view.hex_hazards),
        building_hazards=set(view.building_hazards),
        active=view.active,
        start_player=view.start_player,
        turn=view.turn,
        phase=view.phase,
        queue=[Task(t.kind, t.seat, _thaw(t.info)) for t in view.queue],
        dice=tuple(view.dice) if view.dice else None,
        plants_built=view.plants_built,
        demolished=view.demolished,
        dev_played_turn=view.dev_played_turn,
        offers_made=view.offers_made,
        proposals_made=dict(view.proposals_made),  # rule 12.1: proposals left this turn
        table_asks=view.table_asks,  # rule 12.1: asks of the table left this turn
        longest_road_holder=view.longest_road_holder,
        environmentalist_holder=view.environmentalist_holder,
        stats=[Stats() for _ in range(n)],
    )
    state.rng = {
        name: random.Random(f"{sample_seed}:{name}") for name in ("setup", "dice", "bag", "cards")
    }
    state.keep_history = False
    return state
