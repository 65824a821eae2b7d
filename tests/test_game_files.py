"""Save files, determinism, undo and fork of energies.Game (design §2: randomness, save/load, undo/fork).

* save -> load round trip: same digest, snapshot and save text, and the loaded
  game plays on exactly like the uninterrupted one (30 seeded games, saved
  mid-game and at the end);
* determinism: same seed + same actions -> identical save text, also in a fresh
  Python process with a different hash seed;
* undo restores the previous save text exactly (and the same future dice);
* fork shares no mutable state with its parent;
* corrupt or foreign files raise ``en.SaveFileError`` (a ValueError) whose
  message names the problem;
* a game edited in the teacher sandbox saves and replays.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import FunctionType

import pytest

import energies as en
from energies import actions as A
from energies.newenergies.board import Board
from energies.newenergies.invariants import check_invariants
from energies.newenergies.rules import RuleSet
from energies.newenergies.state import Task

BOT = en.bots.RandomBot()


def _rng(seed: int) -> random.Random:
    return random.Random(f"{seed}:file-bots")


def _step(game: en.Game, rng: random.Random) -> A.Action:
    action = BOT.decide(game, game.legal_actions(), rng)
    game.apply(action)
    return action


def _full_print(game: en.Game) -> tuple:
    """The save text, the snapshot, every state fact, the log and the random streams."""
    s = game.state
    return (
        game.to_json(),
        json.dumps(game.snapshot(), sort_keys=True),
        json.dumps(s.to_dict(), sort_keys=True),
        tuple(s.log),
        json.dumps(s.history),
        json.dumps(s.events),
        tuple(sorted((k, r.getstate()) for k, r in s.rng.items())),
    )


# -- save / load round trip --------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_save_load_round_trip_mid_game_and_at_the_end(seed: int):
    """A game saved at a random point loads with the same digest, snapshot, legal actions and
    save text, and then plays on identically to the game that was never saved; the final save
    loads to the same finished game (outcome rules 14.1-14.3)."""
    players = 3 if seed % 3 == 0 else 4
    rules = RuleSet.standard(players)
    if seed % 5 == 1:
        rules = rules.replace(start="draft")  # rule 3.3: the placements are saved actions too
    elif seed % 5 == 2:
        rules = rules.replace(layout="random", number_placement="shuffled")  # rule 2.2
    game = en.new_game(rules=rules, seed=seed)
    rng = _rng(seed)
    save_at = random.Random(seed).randrange(0, 250)
    saved = None
    while not game.is_over:
        if len(game.actions) == save_at:
            saved = (game.to_json(), game.digest(), game.snapshot(), game.legal_actions())
        _step(game, rng)
    if saved is None:  # the game ended before the save point: save at its middle instead
        save_at = len(game.actions) // 2
        replay = en.new_game(rules=rules, seed=seed)
        for action in game.actions[:save_at]:
            replay.apply(action)
        saved = (replay.to_json(), replay.digest(), replay.snapshot(), replay.legal_actions())
    text, digest, snapshot, legal = saved

    loaded = en.load_game(text)
    assert loaded.digest() == digest
    assert loaded.snapshot() == snapshot
    assert loaded.to_json() == text
    assert loaded.legal_actions() == legal
    assert loaded.actions == game.actions[:save_at]
    assert check_invariants(loaded.state) == []
    for action in game.actions[save_at:]:  # the same decisions meet the same dice and draws
        loaded.apply(action)
    assert _full_print(loaded) == _full_print(game)
    assert loaded.outcome == game.outcome

    final = en.load_game(game.to_json().encode("utf-8"))  # bytes are accepted too
    assert final.is_over and final.outcome == game.outcome
    assert final.digest() == game.digest()
    assert final.snapshot() == game.snapshot()
    assert final.to_json() == game.to_json()


def test_save_and_load_file_keep_rules_names_and_seed(tmp_path: Path):
    """A variant rule set (rule 8.4 cap, rule 14.1 target), names and seed survive a file."""
    rules = RuleSet.standard(3).replace(
        energy_cap=3,
        victory_points=8,
        event_spaces=tuple((row, 2) for row, _ in RuleSet().event_spaces),
    )
    game = en.new_game(rules=rules, seed=12345, names=["Ada", "Grace", "Alan"])
    rng = _rng(1)
    for _ in range(60):
        if not game.is_over:
            _step(game, rng)
    path = tmp_path / "lesson.energies.json"
    game.save(path)
    loaded = en.load_file(path)
    assert loaded.rules == rules
    assert loaded.names == ["Ada", "Grace", "Alan"]
    assert loaded.seed == 12345
    assert _full_print(loaded) == _full_print(game)
    pretty = json.dumps(json.loads(game.to_json()), indent=2)  # re-formatted JSON still loads
    assert en.load_game(pretty).digest() == game.digest()


@pytest.mark.parametrize(
    "names",
    [
        ["Ada", "Grace", "Alan", "Edsger"],
        ["", "", "", ""],
        ["Ada"] * 4,
        ["Zoë", "李雷", "Ólafur", "Ада"],
        ["A" * 100, "Grace", "Alan", "Edsger"],
        [1, 2, 3, 4],
    ],
    ids=["plain", "empty", "repeated", "unicode", "long name", "numbers"],
)
def test_every_game_that_can_be_created_can_be_saved_and_loaded(names):
    """Save/load (design §2) must round-trip every game new_game accepts: names the loader
    would refuse must already be refused by new_game (with a ValueError), not at load time."""
    try:
        game = en.new_game(seed=2, names=names)
    except ValueError:
        return  # refused up front: consistent with the loader
    loaded = en.load_game(game.to_json())
    assert loaded.names == game.names
    assert loaded.to_json() == game.to_json()


def test_load_file_reports_a_missing_file(tmp_path: Path):
    with pytest.raises(en.SaveFileError, match="Cannot read"):
        en.load_file(tmp_path / "nope.json")


# -- determinism -------------------------------------------------------------------------------


def test_same_seed_and_actions_give_identical_games():
    """Every game owns its seeded RNG (design §2): same seed + same actions -> same save text,
    log and random streams; a different seed gives a different game."""
    a, b = en.new_game(seed=21), en.new_game(seed=21)
    ra, rb = _rng(21), _rng(21)
    while not a.is_over:
        _step(a, ra)
        _step(b, rb)
    assert b.is_over
    assert _full_print(a) == _full_print(b)
    replay = en.new_game(seed=21)
    random.seed(99)  # the global random module must not matter
    for action in a.actions:
        random.random()
        replay.apply(action)
    assert _full_print(replay) == _full_print(a)
    other = en.new_game(seed=22)
    en.play(other, [BOT] * 4)
    assert other.digest() != a.digest()


_SUBPROCESS = """
import hashlib, energies as en
g = en.new_game(players={players}, seed={seed})
en.play(g, [en.bots.RandomBot() for _ in range({players})])
print(g.digest(), len(g.actions), g.outcome.kind, hashlib.sha256(g.to_json().encode()).hexdigest())
"""


@pytest.mark.parametrize(("players", "seed"), [(4, 7), (3, 8)])
def test_seeded_game_is_identical_in_a_fresh_process(players: int, seed: int):
    """A seeded bot game gives the same digest in a fresh interpreter, whatever the hash seed
    (so no result depends on set or dict ordering of strings)."""
    game = en.new_game(players=players, seed=seed)
    en.play(game, [en.bots.RandomBot() for _ in range(players)])
    here = (
        f"{game.digest()} {len(game.actions)} {game.outcome.kind} "
        + hashlib.sha256(game.to_json().encode()).hexdigest()
    )
    code = _SUBPROCESS.format(players=players, seed=seed)
    for hash_seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", code],
            check=False,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == here


# -- undo --------------------------------------------------------------------------------------


def test_undo_restores_the_previous_game_exactly():
    """After any legal action (sampled), undo() returns it and restores the previous save text,
    snapshot, log and random streams; redoing it meets the same dice (design §2)."""
    undone_count = 0
    for seed in range(3):
        game = en.new_game(players=4 - seed % 2, seed=40 + seed)
        rng, sample = _rng(40 + seed), random.Random(seed)
        while not game.is_over:
            if sample.random() < 0.04:
                before = _full_print(game)
                action = sample.choice(game.legal_actions())
                game.apply(action)
                after = _full_print(game)
                assert game.undo() == [action]
                assert _full_print(game) == before
                game.apply(action)  # the same future: dice and draws are not re-rolled
                assert _full_print(game) == after
                undone_count += 1
            else:
                _step(game, rng)
        # undoing the last action of a finished game reopens it
        last = game.actions[-1]
        end = _full_print(game)
        assert game.undo() == [last]
        assert not game.is_over and last in game.legal_actions()
        game.apply(last)
        assert _full_print(game) == end
    assert undone_count >= 15


def test_undo_several_steps_and_bad_requests():
    game = en.new_game(seed=3)
    rng = _rng(3)
    prints = [_full_print(game)]
    for _ in range(12):
        _step(game, rng)
        prints.append(_full_print(game))
    taken = game.actions[-5:]
    assert game.undo(5) == taken
    assert _full_print(game) == prints[-6]
    for bad in (0, -1, 1.5, 100):
        with pytest.raises(ValueError):
            game.undo(bad)
    assert _full_print(game) == prints[-6]
    fresh = en.new_game(seed=3)
    with pytest.raises(ValueError, match="0 action"):  # quick start is not an undoable action
        fresh.undo()


# -- fork --------------------------------------------------------------------------------------

# (a function is never copied: the log's deferred sentences name theirs, and a fork shares it)
_IMMUTABLE = (str, int, float, bool, type(None), bytes, frozenset, Board, RuleSet, FunctionType)


def _mutable_objects(root: object) -> dict[int, object]:
    """Every mutable object reachable from ``root`` (lists, dicts, sets, Randoms, dataclasses)."""
    found: dict[int, object] = {}
    stack = [root]
    seen: set[int] = set()
    while stack:
        obj = stack.pop()
        if isinstance(obj, _IMMUTABLE) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, tuple):
            stack.extend(obj)
            continue
        frozen = dataclasses.is_dataclass(obj) and obj.__dataclass_params__.frozen
        if not frozen:
            found[id(obj)] = obj
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, set)):
            stack.extend(obj)
        elif isinstance(obj, random.Random):
            continue
        elif dataclasses.is_dataclass(obj):
            stack.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
    return found


def _mid_game(seed: int, steps: int) -> en.Game:
    game = en.new_game(seed=seed)
    rng = _rng(seed)
    for _ in range(steps):
        _step(game, rng)
    return game


def test_fork_shares_no_mutable_object_with_its_parent():
    """fork() copies every list, dict, set, random stream and record of the game (design §2)."""
    game = _mid_game(5, 90)
    fork = game.fork()
    # walk every attribute of the Game (not only the known ones), so a cache added later counts
    parent_objects = _mutable_objects(tuple(vars(game).values()))
    fork_objects = _mutable_objects(tuple(vars(fork).values()))
    assert id(game.state) in parent_objects and id(game.actions) in parent_objects
    shared = set(parent_objects) & set(fork_objects)
    assert not shared, [type(parent_objects[i]).__name__ for i in shared]
    assert len(parent_objects) > 50  # the walk really reached the state's containers


def _mutations(g: en.Game) -> list:
    s = g.state
    row = next(iter(s.event_board))
    return [
        lambda: s.players[0].hand.__setitem__("brick", 17),
        lambda: s.players[1].towns.add(53),
        lambda: s.players[2].roads.clear(),
        lambda: s.players[0].plants.__setitem__((0, 0), "fossil"),
        lambda: s.players[0].dev_cards.append("cleanup"),
        lambda: s.players[0].dev_played.__setitem__("cleanup", 9),
        lambda: s.players[3].green_slots.pop(),
        lambda: s.supply.__setitem__("food", 0),
        lambda: s.dev_deck.clear(),
        lambda: s.bag.pop(),
        lambda: s.event_board[row].append(("brown", row)),
        lambda: s.removed_discs.append(("brown", "air_pollution")),
        lambda: s.hex_hazards.add(3),
        lambda: s.building_hazards.add(7),
        lambda: s.queue.append(Task("discard", 0, {"count": 1})),
        lambda: s.stats[0].__setattr__("cards_stolen", 99),
        lambda: s.log.append("fork only"),
        lambda: s.history[0].__setitem__("lf", 99),
        lambda: s.forced_dice.append((6, 6)),
        lambda: s.forced_discs.append(("brown", "air_pollution")),
        lambda: s.rng["dice"].random(),
        lambda: s.rng["bag"].random(),
        lambda: g.names.__setitem__(0, "Fork"),
        lambda: g.actions.pop(),
        lambda: setattr(s, "inspector", 3),
    ]


def test_mutating_a_fork_leaves_the_parent_unchanged():
    """Every kind of change to a fork's state (hands, pieces, bag, queue, log, random streams,
    names, action log) leaves the parent's save text and state exactly as they were."""
    game = _mid_game(6, 70)
    before = _full_print(game)
    names = list(game.names)
    for mutate in _mutations(game.fork()):
        mutate()
    assert _full_print(game) == before
    assert game.names == names


def test_playing_on_in_a_fork_leaves_the_parent_unchanged_and_shares_its_future():
    """A fork plays on without touching its parent; the parent then meets the same dice and
    draws when it makes the same decisions ("what if" experiments, design §2)."""
    game = _mid_game(8, 40)
    before = _full_print(game)
    fork = game.fork()
    rng = _rng(800)
    while not fork.is_over:
        _step(fork, rng)
    assert _full_print(game) == before
    for action in fork.actions[len(game.actions) :]:
        game.apply(action)
    assert _full_print(game) == _full_print(fork)


# -- corrupt files -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved() -> tuple[str, dict, int]:
    """A finished seeded game's save text, its parsed data and the index of a road it built."""
    for seed in range(20):
        game = en.new_game(seed=seed)
        en.play(game, [BOT] * 4)
        data = json.loads(game.to_json())
        roads = [i for i, a in enumerate(data["actions"]) if a["kind"] == "build_road"]
        if roads:
            return game.to_json(), data, roads[0]
    pytest.fail("no seeded game built a road")


def _with(data: dict, **changes) -> str:
    return json.dumps(dict(copy.deepcopy(data), **changes))


def _without(data: dict, key: str) -> str:
    return json.dumps({k: v for k, v in data.items() if k != key})


def _edit_action(data: dict, index: int, **changes) -> str:
    out = copy.deepcopy(data)
    out["actions"][index].update(changes)
    return json.dumps(out)


def _occupied_path(text: str, data: dict, index: int) -> str:
    """Move the road onto a path that already holds a quick-start road (rule 10.1)."""
    start = en.new_game(rules=RuleSet.from_dict(data["rules"]), seed=data["seed"])
    taken = min(start.state.players[(data["actions"][index]["seat"] + 1) % 4].roads)
    return _edit_action(data, index, path=taken)


CORRUPT = [
    # (name, make(text, data, road_index) -> str | bytes, words one of which the message holds)
    ("truncated JSON", lambda t, d, r: t[: len(t) // 2], ("JSON", "truncated")),
    ("empty file", lambda t, d, r: "", ("JSON",)),
    ("not JSON at all", lambda t, d, r: "seed = 7", ("JSON",)),
    ("top level is a list", lambda t, d, r: json.dumps([d]), ("JSON object",)),
    ("top level is a number", lambda t, d, r: "7", ("JSON object",)),
    ("missing format", lambda t, d, r: _without(d, "format"), ("format",)),
    ("foreign format", lambda t, d, r: _with(d, format="catan-save"), ("format",)),
    ("unknown version", lambda t, d, r: _with(d, version=99), ("version",)),
    ("version as text", lambda t, d, r: _with(d, version="1"), ("version",)),
    ("missing version", lambda t, d, r: _without(d, "version"), ("version",)),
    ("seed as text", lambda t, d, r: _with(d, seed="7"), ("seed",)),
    ("seed as true", lambda t, d, r: _with(d, seed=True), ("seed",)),
    ("seed NaN", lambda t, d, r: t.replace(f'"seed":{d["seed"]}', '"seed":NaN'), ("seed",)),
    ("seed as a float", lambda t, d, r: _with(d, seed=float(d["seed"])), ("seed",)),
    ("seed 1e400", lambda t, d, r: t.replace(f'"seed":{d["seed"]}', '"seed":1e400'), ("seed",)),
    ("actions as object", lambda t, d, r: _with(d, actions={}), ("actions",)),
    ("names as text", lambda t, d, r: _with(d, names="Ada"), ("names",)),
    ("names of numbers", lambda t, d, r: _with(d, names=[1, 2, 3, 4]), ("names",)),
    ("wrong number of names", lambda t, d, r: _with(d, names=["A"]), ("names", "seats")),
    ("digest as number", lambda t, d, r: _with(d, digest=5), ("digest",)),
    ("missing digest", lambda t, d, r: _without(d, "digest"), ("digest",)),
    ("rules as list", lambda t, d, r: _with(d, rules=[]), ("rules",)),
    ("unknown rule field", lambda t, d, r: _with(d, rules=dict(d["rules"], gold=1)), ("rule",)),
    ("unplayable rules", lambda t, d, r: _with(d, rules=dict(d["rules"], players=5)), ("rule",)),
    (
        "rule value of wrong type",
        lambda t, d, r: _with(d, rules=dict(d["rules"], towns="5")),
        ("rule",),
    ),
    ("action not an object", lambda t, d, r: _with(d, actions=[5]), ("Action 1", "malformed")),
    (
        "unknown action kind",
        lambda t, d, r: _edit_action(d, r, kind="teleport"),
        ("unknown action kind",),
    ),
    (
        "action field of wrong type",
        lambda t, d, r: _edit_action(d, r, path="north"),
        ("malformed", "whole number"),
    ),
    (
        "action with an extra field",
        lambda t, d, r: _edit_action(d, r, colour="red"),
        ("malformed", "no field"),
    ),
    (  # the message quotes a short start of it, not megabytes
        "huge unknown action kind",
        lambda t, d, r: _edit_action(d, r, kind="x" * 100_000),
        ("unknown action kind",),
    ),
    (
        "huge invented action field",
        lambda t, d, r: json.dumps(dict(d, actions=[{"kind": "roll_dice", "x" * 100_000: 0}])),
        ("no field",),
    ),
    (
        "action without its seat",
        lambda t, d, r: json.dumps(dict(d, actions=[{"kind": "roll_dice"}])),
        ("malformed", "seat"),
    ),
    (
        "road moved off the island",
        lambda t, d, r: _edit_action(d, r, path=999),
        ("cannot be replayed",),
    ),
    ("road moved onto a taken path", _occupied_path, ("cannot be replayed",)),
    (
        "action by the wrong seat",
        lambda t, d, r: _edit_action(d, 0, seat=(d["actions"][0]["seat"] + 1) % 4),
        ("cannot be replayed",),
    ),
    (
        "action removed",
        lambda t, d, r: json.dumps(dict(d, actions=d["actions"][1:])),
        ("cannot be replayed", "digest"),
    ),
    ("tampered digest", lambda t, d, r: _with(d, digest="0" * 32), ("digest",)),
    (
        "tampered seed",
        lambda t, d, r: _with(d, seed=d["seed"] + 1),
        ("digest", "cannot be replayed"),
    ),
    (
        "huge seed 10**5000",
        lambda t, d, r: t.replace(f'"seed":{d["seed"]}', '"seed":1' + "0" * 5000),
        ("number", "digits", "too large"),
    ),
    (
        "huge number in an action",
        lambda t, d, r: _edit_action(d, r, path=10**30),
        ("whole number",),
    ),
    (
        "huge rule value",
        lambda t, d, r: _with(d, rules=dict(d["rules"], resource_cards=10**40)),
        ("whole number",),
    ),
    ("deep nesting", lambda t, d, r: "[" * 100_000, ("nested", "JSON")),
    ("deep object nesting", lambda t, d, r: '{"a":' * 100_000, ("nested", "JSON")),
    ("non-UTF-8 bytes", lambda t, d, r: b"\xff\xfe" + t.encode("utf-16-le"), ("UTF-8",)),
    (
        "latin-1 bytes",
        lambda t, d, r: t.replace('"names":["', '"names":["\xe9').encode("latin-1"),
        ("UTF-8",),
    ),
]


@pytest.mark.parametrize(("name", "make", "words"), CORRUPT, ids=[c[0] for c in CORRUPT])
def test_corrupt_save_file_gives_a_clear_save_file_error(saved, name, make, words):
    """Loading validates the file and names the problem (design §2: never a traceback)."""
    text, data, road = saved
    corrupt = make(text, data, road)
    assert corrupt != text
    with pytest.raises(en.SaveFileError) as err:
        en.load_game(corrupt)
    assert isinstance(err.value, ValueError)
    message = str(err.value)
    assert any(w.lower() in message.lower() for w in words), f"{name}: {message!r}"
    assert 10 < len(message) < 400 and "Traceback" not in message, message


def test_load_game_refuses_non_text():
    for bad in (None, 7, ["{}"], {"format": "energies-game"}):
        with pytest.raises(en.SaveFileError, match="text"):
            en.load_game(bad)


def test_tampered_road_is_reported_with_the_engine_reason(saved):
    """The replay error names the action number and the rule that refuses it (rule 10.1)."""
    _text, data, road = saved
    with pytest.raises(en.SaveFileError) as err:
        en.load_game(_edit_action(data, road, path=999))
    assert f"Action {road + 1}" in str(err.value)
    assert "no path 999" in str(err.value)


# -- sandbox games -----------------------------------------------------------------------------


def _sandbox_game() -> en.Game:
    """A lesson position built with every kind of sandbox edit, then played a little."""
    g = en.new_game(seed=31, names=["Ada", "Grace", "Alan", "Edsger"])
    sb = en.sandbox
    sb.clear_board(g)
    board = g.board
    corner = next(c for c in board.corners if len(board.corner_hexes(c)) == 3)
    sb.place(g, 0, "town", corner)
    sb.place(g, 0, "road", board.corner_paths(corner)[0])
    sb.place(g, 0, "city", corner)
    far = max(board.corners, key=lambda c: abs(c - corner))
    sb.place(g, 1, "town", far)
    hex_id = next(h for h in board.corner_hexes(corner) if board.hexes[h].number is not None)
    sb.place_plant(g, 0, "renewable", corner, hex_id)
    sb.give(g, 0, steel=3, food=2, science=3, energy=2)
    sb.give(g, 1, brick=2)
    sb.take(g, 1, brick=1)
    sb.add_hazard(g, building=far)
    sb.add_hazard(g, hex=board.desert)
    sb.remove_hazard(g, hex=board.desert)
    sb.move_inspector(g, hex_id)
    sb.move_inspector(g, board.desert)
    sb.give_dev_card(g, 0, "road_construction")
    sb.fill_row(g, "brown", "air_pollution")
    sb.fix_disc(g, "brown", "climate_conference")
    sb.fix_dice(g, 3, 4)
    return g


def test_sandbox_edited_game_saves_and_replays():
    """Sandbox edits are recorded actions, so a lesson position (and play after it) saves and
    replays exactly; the position obeys the bookkeeping invariants."""
    g = _sandbox_game()
    assert all(isinstance(a, A.SandboxEdit) for a in g.actions)
    assert check_invariants(g.state, distance_rule=False) == []
    text = g.to_json()
    loaded = en.load_game(text)
    assert _full_print(loaded) == _full_print(g)
    rng = _rng(31)
    for _ in range(80):
        if not g.is_over:
            _step(g, rng)
    assert any(not isinstance(a, A.SandboxEdit) for a in g.actions)
    assert check_invariants(g.state, distance_rule=False) == []
    for action in g.actions[len(loaded.actions) :]:
        loaded.apply(action)
    assert _full_print(loaded) == _full_print(g)
    again = en.load_game(g.to_json())
    assert _full_print(again) == _full_print(g)


def test_bundle_trade_offer_saves_and_replays():
    """A player trade of several kinds, energy included (rules 12.1, 11.1), is saved as an
    action with its goods and replays to the same game."""
    game = en.new_game(seed=3)
    game.apply(A.RollDice(game.active_seat))
    rng = _rng(3)
    while game.pending:
        _step(game, rng)
    seat = game.active_seat
    partner = (seat + 1) % 4
    en.sandbox.give(game, seat, brick=2, food=1, energy=2)
    en.sandbox.give(game, partner, steel=2)
    offer = A.OfferTrade(seat, partner, (("brick", 2), ("energy", 1), ("food", 1)), (("steel", 2),))
    game.apply(offer)
    game.apply(A.RespondToTrade(partner, True))
    loaded = en.load_game(game.to_json())
    assert loaded.actions[-2] == offer
    assert _full_print(loaded) == _full_print(game)


def test_tampered_sandbox_edit_is_refused():
    g = _sandbox_game()
    data = json.loads(g.to_json())
    give = next(i for i, a in enumerate(data["actions"]) if a["op"] == "give")
    data["actions"][give]["args"] = ["steel", 500]  # more than the supply holds
    with pytest.raises(en.SaveFileError, match="cannot be replayed"):
        en.load_game(json.dumps(data))


# -- files of earlier releases (issue 32) ----------------------------------------------------

RELEASE_03 = Path(__file__).parent / "golden" / "release-0.3.0-save.json"


def test_a_save_of_release_0_3_replays_with_the_readings_it_was_played_with():
    """Written by energies 0.3.0 (``golden/make_release_0_3_0_save.py``): a fiber shortage with
    plants on the rolled hex (rule 8.3: that release gave no energy) and a Longest Road broken
    to a tie (rule 13.6: set aside). The file names no 0.4 field, so it replays with the values
    it was played with, and its digest still matches."""
    text = RELEASE_03.read_text()
    data = json.loads(text)
    assert data["engine"] == "0.3.0" and "shortage_energy" not in data["rules"]
    game = en.load_game(text)
    assert game.rules.shortage_energy == "card" and not game.rules.plants_on_desert
    assert game.rules.longest_road_tie_on_break == "set_aside"
    assert game.state.players[0].energy == 0 and game.state.longest_road_holder is None
    again = en.load_game(game.to_json())  # saved again: every field named
    assert again.digest() == game.digest()
    assert "shortage_energy" in json.loads(game.to_json())["rules"]


@pytest.mark.parametrize("field", ["players", "victory_points", "longest_road_tie_on_break"])
def test_a_rule_field_deleted_from_an_old_save_is_caught(field):
    """The digest covers the rule fields the file names: deleting one (so that a default or a
    pre-0.4 value would apply) no longer matches."""
    data = json.loads(RELEASE_03.read_text())
    del data["rules"][field]
    with pytest.raises(en.SaveFileError, match="digest|rules"):
        en.load_game(json.dumps(data))


def test_a_rule_field_of_0_4_deleted_from_a_new_save_is_caught():
    """A 0.4 file names ``shortage_energy``; without it the game would replay with the 0.3
    reading, so the file counts as changed."""
    game = en.new_game(seed=3)
    data = json.loads(game.to_json())
    del data["rules"]["shortage_energy"]
    with pytest.raises(en.SaveFileError, match="digest"):
        en.load_game(json.dumps(data))
