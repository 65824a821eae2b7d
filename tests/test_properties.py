"""Property-based tests (hypothesis) of the Game contract (design §2), at random positions.

A position is a seeded 3- or 4-player game (quick or draft start, rules 2.3, 3.3)
after a random number of moves of RandomBots or of the strategy personas; from there
hypothesis drives a random sequence of moves. Properties:

* an illegal action — wrong seat, unaffordable build, wrong phase (RollDice twice,
  EndTurn before rolling, answering a decision nobody asked for, a free action while
  a decision is pending), nonsense values (path 999, corner -1, card "gold", hex 19,
  TradeWithSupply("energy", "energy"), an offer to oneself, ...) or values of the wrong
  type (strings for ints, ints for bools, ...) — raises ``IllegalActionError`` with a
  non-empty ``reason`` equal to ``why_illegal``'s and leaves ``to_json()``
  byte-identical (also the random streams and the log);
* ``why_illegal(a) is None`` exactly when ``apply(a)`` succeeds, for actions fuzzed
  over the whole action space (in and out of range), and every accepted action keeps
  the bookkeeping invariants and the game saveable;
* ``undo()`` after any legal action restores the previous ``to_json()`` exactly, and
  redoing the action meets the same dice and draws;
* ``fork()`` shares no mutable object with its parent: mutating every container of
  the fork, or playing the fork on, leaves the parent's ``to_json()`` unchanged, and
  the other way round.

Runs are derandomised (the same examples every run, so CI is reproducible); set
``ENERGIES_HYPOTHESIS=explore`` to draw new examples and try more of them.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import types
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import energies as en
from energies import actions as A
from energies.newenergies.board import Board
from energies.newenergies.engine.checks import supply_rate
from energies.newenergies.engine.decisions import ANSWERS
from energies.newenergies.invariants import check_invariants
from energies.newenergies.rules import CARD_KINDS, DEV_CARDS, RuleSet

EXPLORE = os.environ.get("ENERGIES_HYPOTHESIS") == "explore"


def _settings(examples: int):
    return settings(
        max_examples=examples * (5 if EXPLORE else 1),
        deadline=None,
        derandomize=not EXPLORE,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


KINDS = CARD_KINDS + ("energy",)


# -- positions ---------------------------------------------------------------------------------
#
# Strategies are built once at import (hypothesis validates a strategy the first time it is
# drawn from, which is slow): a draw yields raw ingredients — indices, out-of-range numbers,
# nonsense texts, wrongly typed values — and plain functions turn them into an action that
# fits the current position.

CHECKPOINT = 25  # a position is a fork of the nearest cached checkpoint plus a few moves


LINEUPS = {
    "random bots": ("random",) * 4,
    # the personas build, demolish and clean up far more than random bots do
    "personas": ("fossil", "green", "balanced", "freerider"),
}


@cache
def _bot_game(players: int, seed: int, start: str, lineup: str) -> tuple[tuple, tuple]:
    """A whole seeded bot game: its action log and a fork every CHECKPOINT actions."""
    game = en.new_game(players=players, seed=seed, start=start)
    names = LINEUPS[lineup][:players]
    bots = [en.bots.make_bot(name, seed=seed * 10 + s) for s, name in enumerate(names)]
    rng = random.Random(f"{seed}:property-bots")
    checkpoints = [game.fork()]
    while not game.is_over:
        game.apply(bots[game.current_seat].decide(game, game.legal_actions(), rng))
        if len(game.actions) % CHECKPOINT == 0:
            checkpoints.append(game.fork())
    return tuple(game.actions), tuple(checkpoints)


INDEX = st.integers(0, 2**16)


def _pick(items, index: int):
    items = list(items)
    return items[index % len(items)]


def _position(data) -> en.Game:
    players = data.draw(st.sampled_from([4, 3]), label="players")
    seed = data.draw(st.integers(0, 4), label="seed")
    start = data.draw(st.sampled_from(["quick", "draft"]), label="start")
    lineup = data.draw(st.sampled_from(sorted(LINEUPS)), label="bots")
    log, checkpoints = _bot_game(players, seed, start, lineup)
    prefix = data.draw(INDEX, label="moves played") % len(log)  # never the finished game
    game = checkpoints[prefix // CHECKPOINT].fork()
    for action in log[len(game.actions) : prefix]:
        game.apply(action)
    assert len(game.actions) == prefix
    return game


def _legal_move(data, game: en.Game, label: str = "legal"):
    return _pick(game.legal_actions(), data.draw(INDEX, label=label))


def _streams(game: en.Game) -> tuple:
    s = game.state
    return (
        game.to_json(),
        tuple(sorted((name, r.getstate()) for name, r in s.rng.items())),
        len(s.log),
        len(s.events),
        len(s.history),
    )


# -- illegal actions ---------------------------------------------------------------------------

VOCABULARY = set(KINDS) | set(DEV_CARDS) | {"fossil", "renewable", "hex", "building"}
NONSENSE_TEXT = st.one_of(
    st.sampled_from(["gold", "wool", "ore", "", "Brick", "energy ", "nuclear", "sky"]),
    st.text(max_size=8),
).filter(lambda t: t not in VOCABULARY)
WRONG_INT = st.one_of(
    st.text(max_size=4),
    st.floats(allow_nan=True),
    st.none(),
    st.booleans(),
    st.lists(st.integers(0, 5), max_size=2),
)
WRONG_STR = st.one_of(
    st.integers(-3, 60),
    st.none(),
    st.floats(),
    st.lists(st.sampled_from(KINDS), max_size=2),
    st.text(min_size=65, max_size=70),
)
WRONG_BOOL = st.one_of(st.integers(0, 1), st.text(max_size=3), st.none())
GOODS = st.lists(
    st.tuples(st.sampled_from(KINDS), st.integers(1, 2)),
    min_size=1,
    max_size=2,
    unique_by=lambda t: t[0],
).map(tuple)
RAW = st.fixed_dictionaries(
    {
        "category": INDEX,
        "maker": INDEX,
        "a": INDEX,
        "b": INDEX,
        "below": st.booleans(),  # out of range below 0 or at/above the size
        "beyond": st.one_of(st.integers(0, 3), st.integers(0, 10**6), st.just(10**9)),
        "text": NONSENSE_TEXT,
        "wrong_int": WRONG_INT,
        "wrong_str": WRONG_STR,
        "wrong_bool": WRONG_BOOL,
        "goods": GOODS,
        "goods2": GOODS,
        "count": st.integers(-3, 0),
        "flag": st.booleans(),
    }
)


def _out(raw: dict, size: int) -> int:
    """An index that is not 0..size-1: path 999, corner -1, hex 19, ..."""
    return -1 - raw["beyond"] if raw["below"] else size + raw["beyond"]


def _illegal(game: en.Game, raw: dict) -> tuple[str, object]:
    """A (category, action) pair that the rules refuse in this very position."""
    s, b = game.state, game.board
    seat, n = game.current_seat, game.rules.players
    p = s.players[seat]
    a, bb = raw["a"], raw["b"]
    others = [x for x in range(n) if x != seat]
    other = _pick(others, bb)
    hexes, corners, paths = len(b.hexes), len(b.corners), len(b.paths)
    free = not s.queue
    cats: dict[str, list] = {}

    # wrong seat: a move the seat to act could make, made by somebody else
    cats["wrong seat"] = [
        lambda: dataclasses.replace(_pick(game.legal_actions(), a), seat=other),
        lambda: A.EndTurn(other),
        lambda: A.RollDice(other),
    ]
    # wrong phase (rule 5: roll, then act; a pending decision comes first)
    phase: list = []
    if free and s.phase == "action":
        phase.append(lambda: A.RollDice(seat))  # rolling twice
    if free and s.phase == "roll":
        phase.append(lambda: A.EndTurn(seat))  # ending the turn before rolling
        phase.append(lambda: A.BuyDevCard(seat))
        phase.append(lambda: A.BuildRoad(seat, a % paths))
    if free:  # answers to a decision nobody asked for
        phase += [
            lambda: A.RespondToTrade(seat, raw["flag"]),
            lambda: A.DiscardCard(seat, _pick(KINDS, a)),
            lambda: A.TakeCard(seat, _pick(CARD_KINDS, a)),
            lambda: A.MoveInspector(seat, a % hexes),
            lambda: A.ChooseVictim(seat, other),
            lambda: A.PlaceHazard(seat, a % corners),
            lambda: A.ChooseHex(seat, a % hexes),
            lambda: A.Decline(seat),
        ]
    else:  # a decision is pending: anything that does not answer it
        answers = ANSWERS[s.queue[0].kind]
        candidates = [
            A.EndTurn(seat),
            A.RollDice(seat),
            A.BuyDevCard(seat),
            A.BuildWarehouse(seat),
            A.TradeWithSupply(seat, "brick", "food"),
            A.Decline(seat),
            A.RespondToTrade(seat, True),
            A.DiscardCard(seat, "brick"),
            A.BuildRoad(seat, a % paths),
            A.MoveInspector(seat, b.desert),
        ]
        phase += [(lambda x=x: x) for x in candidates if not isinstance(x, answers)]
    cats["wrong phase"] = phase
    # unaffordable builds (costs of rules 10-12 from the RuleSet)
    if free and s.phase == "action":
        rules = s.rules

        def short(item: str) -> bool:
            return any(p.hand[k] < v for k, v in rules.cost(item).items())

        poor: list = []
        if p.towns and short("city"):
            poor.append(lambda: A.BuildCity(seat, _pick(sorted(p.towns), a)))
        if short("town"):
            poor.append(lambda: A.BuildTown(seat, a % corners))
        if short("road"):
            poor.append(lambda: A.BuildRoad(seat, a % paths))
        spots = [(c, h) for c in sorted(p.buildings()) for h in b.corner_hexes(c)]
        for plant in ("fossil", "renewable"):
            if short(plant) and spots:
                poor.append(lambda plant=plant: A.BuildPlant(seat, plant, *_pick(spots, a)))
        if short("dev_card") or not s.dev_deck:
            poor.append(lambda: A.BuyDevCard(seat))
        if not p.warehouse and p.energy < rules.warehouse_energy:
            poor.append(lambda: A.BuildWarehouse(seat))
        held = {k: p.energy if k == "energy" else p.hand[k] for k in KINDS}
        lacking = [k for k in KINDS if held[k] < supply_rate(s, seat, k)]
        if lacking:
            poor.append(lambda: A.TradeWithSupply(seat, _pick(lacking, a), _pick(CARD_KINDS, bb)))
        if p.energy < rules.hazard_removal_energy:
            poor.append(lambda: A.RemoveHazard(seat, _pick(["hex", "building"], bb), a % 60))
        if poor:
            cats["unaffordable"] = poor
    # nonsense values
    text, goods, goods2 = raw["text"], raw["goods"], raw["goods2"]
    card = _pick(KINDS, a)
    cats["nonsense"] = [
        lambda: A.BuildRoad(seat, _out(raw, paths)),  # e.g. path 999
        lambda: A.BuildTown(seat, _out(raw, corners)),  # e.g. corner -1
        lambda: A.BuildCity(seat, _out(raw, corners)),
        lambda: A.BuildPlant(seat, text, a % corners, bb % hexes),
        lambda: A.BuildPlant(seat, "fossil", a % corners, _out(raw, hexes)),  # e.g. hex 19
        lambda: A.DemolishFossil(seat, _out(raw, corners), bb % hexes),
        lambda: A.TradeWithSupply(seat, text, card),
        lambda: A.TradeWithSupply(seat, card, text),
        lambda: A.TradeWithSupply(seat, card, card),  # e.g. ("energy", "energy")
        lambda: A.TradeWithSupply(seat, "energy", "energy"),
        lambda: A.OfferTrade(seat, seat, goods, goods2),  # to oneself
        lambda: A.OfferTrade(seat, _out(raw, n), goods, goods2),
        lambda: A.OfferTrade(seat, other, ((text, 1),), goods2),
        lambda: A.OfferTrade(seat, other, ((card, raw["count"]),), goods2),
        lambda: A.PlayDevCard(seat, text),
        lambda: A.PlayDevCard(seat, "victory_point"),  # rule 5.4: never played
        lambda: A.DiscardCard(seat, text),
        lambda: A.TakeCard(seat, text),
        lambda: A.MoveInspector(seat, _out(raw, hexes)),
        lambda: A.ChooseHex(seat, _out(raw, hexes)),
        lambda: A.ChooseVictim(seat, _out(raw, n)),
        lambda: A.ChooseVictim(seat, seat),
        lambda: A.PlaceHazard(seat, _out(raw, corners)),
        lambda: A.RemoveHazard(seat, text, a % 20),
        lambda: A.RemoveHazard(seat, "hex", _out(raw, hexes)),
        lambda: A.RollDice(_out(raw, n)),
        lambda: A.EndTurn(_out(raw, n)),
    ]
    # wrong types, as a student might type them
    wi, ws, wb = raw["wrong_int"], raw["wrong_str"], raw["wrong_bool"]
    cats["wrong type"] = [
        lambda: A.BuildRoad(seat, wi),
        lambda: A.BuildTown(seat, wi),
        lambda: A.BuildCity(seat, wi),
        lambda: A.BuildPlant(seat, ws, 0, 0),
        lambda: A.BuildPlant(seat, "fossil", wi, wi),
        lambda: A.DemolishFossil(seat, wi, 0),
        lambda: A.TradeWithSupply(seat, ws, "food"),
        lambda: A.OfferTrade(seat, wi, goods, goods2),
        lambda: A.OfferTrade(seat, other, text, goods2),
        lambda: A.RespondToTrade(seat, wb),
        lambda: A.RemoveHazard(seat, "hex", wi),
        lambda: A.PlayDevCard(seat, ws),
        lambda: A.DiscardCard(seat, ws),
        lambda: A.MoveInspector(seat, wi),
        lambda: A.ChooseVictim(seat, wi),
        lambda: A.RollDice(wi),
        lambda: A.EndTurn(wi),
        lambda: "roll the dice",
        lambda: None,
    ]
    category = _pick(sorted(cats), raw["category"])
    return category, _pick(cats[category], raw["maker"])()


def _assert_refused(game: en.Game, action, category: str) -> None:
    before = _streams(game)
    reason = game.why_illegal(action)
    assert isinstance(reason, str) and reason.strip(), f"{category}: {action!r} accepted"
    with pytest.raises(en.IllegalActionError) as err:
        game.apply(action)
    assert isinstance(err.value.reason, str) and err.value.reason.strip()
    assert err.value.reason == reason, (category, action)
    assert _streams(game) == before, f"{category}: {action!r} changed the game"


@_settings(150)
@given(st.data())
def test_design_2_illegal_actions_raise_and_leave_the_save_text_identical(data):
    """Random sequences mixing legal moves and illegal ones (wrong seat; unaffordable per the
    costs of rules 10-12; wrong phase per rule 5's turn order and the pending decision;
    nonsense values; wrong types): each illegal one raises IllegalActionError with a
    non-empty reason, the same as why_illegal's, and changes nothing (design §2)."""
    game = _position(data)
    for _ in range(data.draw(st.integers(1, 20), label="moves")):
        if game.is_over:
            break
        if data.draw(st.booleans(), label="legal?"):
            action = _legal_move(data, game)
            assert game.why_illegal(action) is None
            game.apply(action)
        else:
            category, action = _illegal(game, data.draw(RAW, label="illegal"))
            _assert_refused(game, action, category)
    if game.is_over:  # rule 14: once over, even a formerly legal move is refused
        _assert_refused(game, A.EndTurn(game.active_seat), "game over")


# -- why_illegal(a) is None  <=>  apply(a) succeeds ---------------------------------------------

FUZZ = st.fixed_dictionaries(
    {
        "kind": INDEX,
        "own_seat": st.integers(0, 3),  # 0: any seat, else the seat to act
        "seat": INDEX,
        "x": INDEX,
        "y": INDEX,
        "z": INDEX,
        "give": st.lists(st.tuples(INDEX, st.integers(-1, 3)), max_size=3),
        "get": st.lists(st.tuples(INDEX, st.integers(-1, 3)), max_size=3),
        "flag": st.booleans(),
    }
)
FUZZ_CARDS = KINDS + ("gold",)


def _fuzzed(game: en.Game, f: dict) -> A.Action:
    """Any action kind, with values in range and just beyond, mostly for the seat to act."""
    b, n = game.board, game.rules.players
    seat = game.current_seat if f["own_seat"] else f["seat"] % n
    x, y, z = f["x"], f["y"], f["z"]
    path, corner = x % (len(b.paths) + 2) - 1, x % (len(b.corners) + 2) - 1
    hex_ = y % (len(b.hexes) + 2) - 1
    card = _pick(FUZZ_CARDS, x)

    def goods(items):
        return tuple((_pick(FUZZ_CARDS, k), c) for k, c in items)

    makers = [
        lambda: A.RollDice(seat),
        lambda: A.EndTurn(seat),
        lambda: A.BuildRoad(seat, path),
        lambda: A.BuildTown(seat, corner),
        lambda: A.BuildCity(seat, corner),
        lambda: A.BuildPlant(seat, _pick(["fossil", "renewable", "wind"], z), corner, hex_),
        lambda: A.BuyDevCard(seat),
        lambda: A.TradeWithSupply(seat, card, _pick(FUZZ_CARDS, y)),
        lambda: A.OfferTrade(seat, z % (n + 2) - 1, goods(f["give"]), goods(f["get"])),
        lambda: A.RespondToTrade(seat, f["flag"]),
        lambda: A.RemoveHazard(seat, _pick(["hex", "building"], z), corner),
        lambda: A.DemolishFossil(seat, corner, hex_),
        lambda: A.BuildWarehouse(seat),
        lambda: A.PlayDevCard(seat, _pick(DEV_CARDS + ("gold",), x)),
        lambda: A.DiscardCard(seat, card),
        lambda: A.TakeCard(seat, card),
        lambda: A.MoveInspector(seat, hex_),
        lambda: A.ChooseVictim(seat, z % (n + 2) - 1),
        lambda: A.PlaceHazard(seat, corner),
        lambda: A.ChooseHex(seat, hex_),
        lambda: A.Decline(seat),
    ]
    return _pick(makers, f["kind"])()


@_settings(120)
@given(st.data())
def test_design_2_why_illegal_is_none_exactly_when_apply_succeeds(data):
    """For fuzzed actions (every kind, values in and out of range, the right and wrong seats),
    why_illegal(a) is None iff apply(a) succeeds; an accepted action keeps every bookkeeping
    invariant (rules §1, 4, 10, 13) and the game still saves and loads (design §2)."""
    game = _position(data)
    accepted = 0
    for _ in range(data.draw(st.integers(1, 30), label="moves")):
        if game.is_over:
            break
        if data.draw(st.integers(0, 3), label="listed?") == 0:
            action = _legal_move(data, game, "listed")
        else:
            action = _fuzzed(game, data.draw(FUZZ, label="fuzzed"))
        reason = game.why_illegal(action)
        before = game.to_json()
        try:
            game.apply(action)
        except en.IllegalActionError as err:
            assert reason is not None, f"why_illegal approved {action!r}, apply refused: {err}"
            assert err.reason == reason
            assert game.to_json() == before
            continue
        assert reason is None, f"why_illegal refused {action!r} ({reason}) but apply took it"
        accepted += 1
        legal = game.legal_actions()
        assert check_invariants(game.state, legal_actions=legal) == [], action
    if accepted:
        text = game.to_json()
        assert en.load_game(text).to_json() == text


# -- undo ---------------------------------------------------------------------------------------


@_settings(40)
@given(st.data())
def test_design_2_undo_after_any_legal_action_restores_the_save_text(data):
    """undo() after any legal action returns it and restores the previous to_json() (and
    random streams and log) exactly; redoing it gives the same game again (same dice)."""
    game = _position(data)
    for _ in range(data.draw(st.integers(1, 3), label="undos")):
        if game.is_over:
            break
        before, legal = _streams(game), game.legal_actions()
        action = _pick(legal, data.draw(INDEX, label="action"))
        game.apply(action)
        after = _streams(game)
        assert game.undo() == [action]
        assert _streams(game) == before
        assert game.legal_actions() == legal
        game.apply(action)
        assert _streams(game) == after


@_settings(25)
@given(st.data())
def test_design_2_undo_of_several_actions_restores_the_save_text(data):
    """undo(k) after k legal actions restores the save text from before them."""
    game = _position(data)
    before = _streams(game)
    done = []
    for _ in range(data.draw(st.integers(1, 8), label="k")):
        if game.is_over:
            break
        action = _legal_move(data, game, "action")
        game.apply(action)
        done.append(action)
    if done:
        assert game.undo(len(done)) == done
        assert _streams(game) == before


# -- fork -------------------------------------------------------------------------------------

# functions too: a log line made when read (kit.i18n.Deferred) holds the module function that
# says it, which a fork shares like any other code
_SHARED_ON_PURPOSE = (
    str,
    int,
    float,
    bool,
    type(None),
    bytes,
    frozenset,
    Board,
    RuleSet,
    types.FunctionType,
)


def _mutable_objects(root) -> list:
    """Every mutable object reachable from ``root`` (the Board and RuleSet are immutable)."""
    found, stack, seen = [], [root], set()
    while stack:
        obj = stack.pop()
        if isinstance(obj, _SHARED_ON_PURPOSE) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, tuple):
            stack.extend(obj)
            continue
        if not (dataclasses.is_dataclass(obj) and obj.__dataclass_params__.frozen):
            found.append(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, set)):
            stack.extend(obj)
        elif dataclasses.is_dataclass(obj):
            stack.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
        elif not isinstance(obj, random.Random) and hasattr(obj, "__dict__"):
            stack.extend(vars(obj).values())
    return found


def _vandalise(obj) -> None:
    """Change a mutable object in place, whatever it is."""
    if isinstance(obj, list):
        obj.append("fork only")
    elif isinstance(obj, dict):
        obj["fork only"] = 1
    elif isinstance(obj, set):
        obj.add("fork only")
    elif isinstance(obj, random.Random):
        obj.random()
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if isinstance(value, int) and not isinstance(value, bool):
                setattr(obj, f.name, value + 1000)


def _full(game: en.Game) -> tuple:
    s = game.state
    return _streams(game) + (
        json.dumps(s.to_dict(), sort_keys=True),
        tuple(s.log),
        json.dumps(s.history),
        json.dumps(s.events),
        tuple(game.names),
        tuple(game.actions),
    )


@_settings(30)
@given(st.data())
def test_design_2_fork_shares_no_mutable_state_with_its_parent(data):
    """At any position (pending decisions included), a fork and its parent share no mutable
    object; vandalising every container, counter and random stream of the fork leaves the
    parent's to_json() and state unchanged."""
    game = _position(data)
    parent = _full(game)
    fork = game.fork()
    mine = {id(o) for o in _mutable_objects(tuple(vars(game).values()))}
    theirs = _mutable_objects(tuple(vars(fork).values()))
    assert not mine & {id(o) for o in theirs}
    for obj in theirs:
        _vandalise(obj)
    assert _full(game) == parent


@_settings(30)
@given(st.data())
def test_design_2_fork_and_parent_play_on_independently(data):
    """Playing a fork on leaves the parent's to_json() unchanged, and playing the parent on
    leaves the fork unchanged; the same moves in both give the same game (same dice)."""
    game = _position(data)
    parent = _full(game)
    fork = game.fork()
    moves = []
    for _ in range(data.draw(st.integers(1, 15), label="fork moves")):
        if fork.is_over:
            break
        action = _legal_move(data, fork, "fork move")
        fork.apply(action)
        moves.append(action)
    assert _full(game) == parent
    forked = _full(fork)
    for action in moves:  # the parent meets the same dice and draws
        game.apply(action)
    assert _full(game) == forked
    if not game.is_over:
        game.apply(_legal_move(data, game, "parent move"))
    assert _full(fork) == forked
