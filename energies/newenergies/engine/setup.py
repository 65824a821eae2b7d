"""The quick start: every seat's starting town, city and roads placed by a documented heuristic.

The printed start spots of the game are not known (rule 2.3 [H]). On them every city touches
three different resources (rule 3.4), so the quick start first reserves, for every seat, a
city corner touching three different resources wherever the board allows: most pips (dots on
the number tokens around a corner) first, skipping corners next to one already reserved; if
that leaves too few, the set of such corners two apart with the most pips in total. Seats
placing their city earlier (rule 3.3: reverse seat order) get the richer corners. Then:

* a town goes on the free corner with the most pips, ties broken by the number of different
  resources, keeping off the reserved city corners and their neighbours;
* a city goes on its seat's reserved corner (or, on a board with too few such corners, the
  free corner with the most different resources, then the most pips);
* a road points to the neighbouring corner with the most pips.

Remaining ties are broken by the game's set-up random stream. Both readings of rule 3.4 (one
card per hex, one per distinct resource) then give the same hand: one card of each of the
three resources plus science.
"""

from __future__ import annotations

import functools
import itertools
import operator
import random

from ..actions import Action, BuildCity, BuildRoad
from ..board import Board
from ..rules import CARD_KINDS
from ..state import GameState, Task


def reserve_city_corners(board: Board, city_order: list[int]) -> dict[int, int]:
    """Seat -> reserved city corner touching three different resources (as many seats as the
    board allows, richest corner to the seat that places its city first)."""
    pips = board.corner_pips
    candidates = sorted(
        (c for c in board.corners if len(board.corner_resources(c)) == 3),
        key=lambda c: (-pips(c), c),
    )
    chosen: list[int] = []
    for c in candidates:  # greedy: usually enough
        if len(chosen) < len(city_order) and _apart(board, c, chosen):
            chosen.append(c)
    if len(chosen) < len(city_order):
        chosen = _best_spread(board, candidates, len(city_order)) or chosen
    chosen.sort(key=lambda c: (-pips(c), c))
    return dict(zip(city_order, chosen))


def _apart(board: Board, corner: int, others) -> bool:
    """The distance rule (rule 3.3): no other corner on or next to ``corner``."""
    near = set(board.corner_neighbors(corner)) | {corner}
    return near.isdisjoint(others)


def _best_spread(board: Board, candidates: list[int], wanted: int) -> list[int]:
    """The largest set (up to ``wanted``) of candidates two apart, with the most pips."""
    for size in range(wanted, 0, -1):
        sets = [
            combo
            for combo in itertools.combinations(candidates, size)
            if all(_apart(board, c, combo[i + 1 :]) for i, c in enumerate(combo))
        ]
        if sets:
            return list(max(sets, key=lambda combo: sum(map(board.corner_pips, combo))))
    return []


_CORNER = operator.attrgetter("corner")


@functools.lru_cache(maxsize=64)
def _corner_tables(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per corner: its pips, and how many different resources it touches."""
    pips = tuple(map(board.corner_pips, board.corners))
    return pips, tuple(len(board.corner_resources(c)) for c in board.corners)


def quick_start_choice(state: GameState, options: list[Action], reserved: dict[int, int]) -> Action:
    """The quick start's pick among the set-up ``options`` of the seat to place (see above)."""
    return options[_choice(state, options, reserved)[0]]


def _choice(state: GameState, options: list[Action], reserved: dict[int, int]) -> tuple:
    """(index of the pick, indexes of the options that only the tie-break draw told apart)."""
    board, rng = state.board, state.rng["setup"]
    first = options[0]
    if isinstance(first, BuildRoad):  # the far end: the corner without the building
        pips = board.corner_pips
        ends = [board.path_corners(a.path) for a in options]
        far = [b if state.owner_of(a) is not None else a for a, b in ends]
        scores = [(pips(c), rng.random()) for c in far]
    else:
        # Speed only (the same scores, the same draws): the ~50 options are scored with
        # per-board tables and C-level maps; one draw per option, in the options' order.
        corners = list(map(_CORNER, options))
        pip_table, kinds_table = _corner_tables(board)
        pip_of, kinds_of = pip_table.__getitem__, kinds_table.__getitem__
        draws = [rng.random() for _ in corners]
        if isinstance(first, BuildCity):
            mine = reserved.get(first.seat)
            mine_first = [c == mine for c in corners]
            scores = list(zip(mine_first, map(kinds_of, corners), map(pip_of, corners), draws))
        else:
            # _apart(board, c, reserved corners), read from one set: a corner is next to a
            # reserved corner exactly when a reserved corner is next to it
            near = set(reserved.values())
            near.update(*map(board.corner_neighbors, reserved.values()))
            apart = [c not in near for c in corners]
            scores = list(zip(apart, map(pip_of, corners), map(kinds_of, corners), draws))
    best = max(scores)
    top = best[:-1]  # the score without the draw
    return scores.index(best), [i for i, score in enumerate(scores) if score[:-1] == top]


class _Step:
    """One placement of a quick start already played: how many options there were, which of
    them tied on everything but the draw (one: no tie), and per pick the action and the
    step after it (None until a game takes that branch)."""

    __slots__ = ("arrival", "count", "next", "tied")

    def __init__(self, count: int, tied: list[int]) -> None:
        self.count, self.tied, self.next = count, tuple(tied), {}
        self.arrival: tuple | None = None  # the position when a game reaches it (_arrive)


# (id of a board, hash of a rule set, start player) ->
# [board, rules, first step, steps kept, positions kept]
_PLAYED: dict[tuple[int, int, int], list] = {}
MAX_STEPS = 20_000  # steps kept per board, rules and start player (a few hundred bytes each)
MAX_ARRIVALS = 256  # positions kept per board, rules and start player (under 2 KB each)


def quick_start(state: GameState, city_order: list[int], list_options, apply) -> None:
    """Place every seat's starting pieces (rules 2.3, 3.3, 3.4): each time ``apply(state,
    action)`` with the pick of :func:`quick_start_choice` among ``list_options(state)``.

    Speed only: the picks depend on the board, the rules and the start player, and on the
    set-up stream only where options tie on everything else. So the placements are kept as
    a tree per board, rules and start player, and a later game walks it: it draws from the
    set-up stream exactly as the scoring would (one ``random()`` per option, skipped in bulk
    where no tie needs the value) and applies the kept pick, listing and scoring afresh only
    where its tie-breaks lead somewhere no earlier game went. Where its walk ends (the last
    placement, or a pick no game made), it takes the position there from the game that
    first came that way instead of applying every placement before it (the placements
    draw nothing and depend on nothing else of the game: :func:`_arrive`).
    """
    board, rules, rng = state.board, state.rules, state.rng["setup"]
    key = (id(board), _rules_hash(rules), state.start_player)  # (standard() is new each time)
    kept = _PLAYED.get(key)
    if kept is None or kept[0] is not board or (kept[1] is not rules and kept[1] != rules):
        if len(_PLAYED) > 64:
            _PLAYED.clear()
        kept = _PLAYED[key] = [board, rules, None, 0, 0]
    bulk = type(rng) is random.Random  # there getrandbits(64 * k) = k calls of random()
    step, above, reserved = kept[2], None, None  # above: (step, pick) that led here
    walked: list[Action] = []  # kept picks walked past, not applied yet
    while state.phase == "setup":
        if step is not None and bulk:  # a placement some game made before: walk the tree
            pick = _replay_draws(rng, step)
            action, after = step.next.get(pick, (None, None))
            if action is not None and after is not None:
                walked.append(action)
                above, step = (step, pick), after
                continue
            _arrive(state, kept, step, walked, apply)  # the walk ends here
            walked = []
            if action is None:  # a pick no game made here yet: list the options for it
                action = list_options(state)[pick]
                _keep(kept, step, pick, action)
            apply(state, action)
            above, step = (step, pick), after
            continue
        if reserved is None:
            reserved = reserve_city_corners(board, city_order)
        options = list_options(state)
        pick, tied = _choice(state, options, reserved)  # takes the draws itself
        new = _Step(len(options), tied)
        if above is None:
            if kept[2] is None:
                kept[2] = new
        else:  # hang it under the pick that led here
            link = above[0].next.get(above[1])
            if link is not None and link[1] is None:
                above[0].next[above[1]] = (link[0], new)
        _keep(kept, new, pick, options[pick])
        apply(state, options[pick])
        above, step = (new, pick), None


def _arrive(state: GameState, kept: list, step: _Step, walked: list[Action], apply) -> None:
    """Bring ``state`` to the position where the walk reached ``step``: the one kept there,
    else by applying the picks ``walked`` (and keeping the position it gives, while there is
    room). Set-up placements draw nothing and read only the board, the rules and the pieces
    placed before them, so every game reaching ``step`` reaches the same position (the
    set-up stream, the deck and the discs under the slots stay the game's own)."""
    if not walked:
        return
    if step.arrival is not None:
        players, supply, energy_supply, log, turn_actions, queue, holder = step.arrival
        for p, (towns, cities, roads, hand, energy) in zip(state.players, players):
            p.towns, p.cities, p.roads, p.energy = {*towns}, {*cities}, {*roads}, energy
            p.hand = dict(zip(CARD_KINDS, hand))
        state.supply, state.energy_supply = dict(zip(CARD_KINDS, supply)), energy_supply
        state.log, state.turn_actions, state.longest_road_holder = [*log], turn_actions, holder
        state.queue = [Task(kind, seat, {**info}) for kind, seat, info in queue]
        state.cache.forget()  # (the position jumped: every speed cache is found again)
        return
    for action in walked:
        apply(state, action)
    cards = (state.supply, *(p.hand for p in state.players))
    ordered = all(tuple(counts) == CARD_KINDS for counts in cards)
    if ordered and kept[4] < MAX_ARRIVALS:  # kept small: tuples, the kinds in CARD_KINDS order
        kept[4] += 1
        players = tuple(
            (tuple(p.towns), tuple(p.cities), tuple(p.roads), tuple(p.hand.values()), p.energy)
            for p in state.players
        )
        queue = tuple((t.kind, t.seat, {**t.info}) for t in state.queue)
        step.arrival = (
            players,
            tuple(state.supply.values()),
            state.energy_supply,
            tuple(state.log),
            state.turn_actions,
            queue,
            state.longest_road_holder,
        )


def _rules_hash(rules) -> int:
    """``hash(rules)``, remembered for the last rule set asked about (a benchmark or a
    simulation plays many games with one RuleSet; its hash walks every field)."""
    global _LAST_RULES
    if _LAST_RULES[0] is not rules:
        _LAST_RULES = (rules, hash(rules))
    return _LAST_RULES[1]


_LAST_RULES: tuple = (None, 0)


def _keep(kept: list, step: _Step, pick: int, action: Action) -> None:
    """Remember ``action`` as the pick ``pick`` of ``step`` (while the tree has room)."""
    if kept[3] < MAX_STEPS:
        kept[3] += 1
        step.next[pick] = (action, None)


def _replay_draws(rng: random.Random, step: _Step) -> int:
    """The pick of a kept step: the draws the scoring takes, the tied options' values read."""
    tied = step.tied
    if len(tied) == 1:
        rng.getrandbits(64 * step.count)
        return tied[0]
    done, best, best_draw = 0, tied[0], -1.0
    for i in tied:
        rng.getrandbits(64 * (i - done))
        draw, done = rng.random(), i + 1
        if draw > best_draw:  # the first of equal draws wins, as max() picks it
            best, best_draw = i, draw
    rng.getrandbits(64 * (step.count - done))
    return best
