"""Hostile inputs, class by class (issue 15): nothing hangs, nothing crashes raw, nothing
loads wrong. Property-based where the class is large (rule sets, saves, actions, edits)."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import stat
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import energies as en
from energies import actions as A
from energies import cli, sandbox
from energies.kit.fields import RuleError
from energies.kit.registry import load_file
from energies.kit.saves import SaveFileError
from energies.newenergies.engine import IllegalActionError, awards
from energies.newenergies.engine.edits import EDIT_CHECKS
from energies.newenergies.game import MAX_SANDBOX_EDITS, SAVE_VERSION
from energies.newenergies.rules import RuleSet
from energies.newenergies.rules.bounds import MAX_ROADS, RULE_SPECS
from energies.newenergies.saves import load_game

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def saved() -> str:
    game = en.new_game(seed=11)
    en.play(game, [en.bots.RandomBot(seed=s) for s in range(4)])
    return game.to_json()


def _edited(text: str, **changes) -> str:
    data = json.loads(text)
    data.update(changes)
    return json.dumps(data)


# -- 4. every RuleSet field is validated, by name ---------------------------------------------


def test_every_rule_field_has_an_entry_in_the_validation_table():
    """A new field must say what values it takes (the fallback only checks the type)."""
    missing = [f.name for f in dataclasses.fields(RuleSet) if f.name not in RULE_SPECS]
    assert missing == []


WRONG_VALUES = [None, -1, 10**9, 2.5, True, "x", [], [["nonsense", 1]], [[1, 2, 3]]]


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(RuleSet)])
def test_a_wrong_value_in_any_field_is_refused_with_the_field_name(field: str):
    default = getattr(RuleSet(), field)
    refused = 0
    for value in WRONG_VALUES:
        if type(value) is type(default) and value == default:
            continue
        try:
            RuleSet(**{field: value})
        except RuleError as exc:
            assert isinstance(exc, ValueError)
            assert exc.field == field and field in str(exc)
            refused += 1
    assert refused >= len(WRONG_VALUES) - 3  # a few wrong values may happen to be legal


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"brown_discs": (("science", 3),)}, "brown_discs"),  # a flipped kind name
        ({"dev_deck": (("cleanup", 10**6),)}, "dev_deck"),
        ({"town_cost": (("gold", 1),)}, "town_cost"),
        ({"town_cost": (("brick", 1), ("brick", 2))}, "town_cost"),
        ({"roads": 72}, "roads"),
        ({"green_discs_per_player": (("climate_conference", 31),)}, "green_discs_per_player"),
        ({"event_spaces": (("air_pollution", 3),)}, "event_spaces"),
        ({"disc_bands_4p": ((5, 2, 1),)}, "disc_bands_4p"),
        ({"starting_energy": 20, "energy_tokens": 10}, "starting_energy"),
        ({"players": 5}, "players"),
        ({"bank_rate": 0}, "bank_rate"),
        ({"turn_action_limit": 5}, "turn_action_limit"),
    ],
)
def test_unplayable_rule_sets_are_refused_naming_the_field(changes, field):
    with pytest.raises(RuleError) as info:
        RuleSet(**changes)
    assert field in info.value.fields
    assert str(info.value).startswith("This rule set cannot be played:")


def test_json_lists_become_tuples_and_the_rule_set_stays_hashable():
    rules = RuleSet(town_cost=[["brick", 2]], disc_bands_4p=[[0, 28, 1]])
    assert rules.town_cost == (("brick", 2),) and hash(rules) == hash(rules.replace())


@st.composite
def rule_sets(draw) -> RuleSet | None:
    """Random values near and beyond every bound; None when the draw is refused."""
    changes = {}
    names = sorted(set(RULE_SPECS) - {"turn_limit"})  # kept low so each example is quick
    for name in draw(st.sets(st.sampled_from(names), max_size=6)):
        spec = RULE_SPECS[name]
        low, high = getattr(spec, "low", 0), getattr(spec, "high", 3)
        if hasattr(spec, "options"):
            changes[name] = draw(st.sampled_from(spec.options + ("nope",)))
        elif type(spec).__name__ == "Flag":
            changes[name] = draw(st.booleans())
        elif type(spec).__name__ == "Count":
            changes[name] = draw(st.integers(low - 2, min(high + 2, low + 40)))
        elif type(spec).__name__ == "Tally":
            kinds = draw(st.lists(st.sampled_from(spec.kinds), unique=True, max_size=3))
            changes[name] = tuple((k, draw(st.integers(spec.low, 6))) for k in kinds)
    try:
        return RuleSet(**{"turn_limit": 25, **changes})
    except RuleError:
        return None


@SETTINGS
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_any_accepted_rule_set_plays_to_an_end_and_saves(rules, seed):
    """Degenerate but legal rule sets still end (turn limit, per-turn action limit)."""
    if rules is None:
        return
    game = en.new_game(seed=seed, rules=rules)
    lineup = ("random", "fossil", "green", "balanced")[: rules.players]
    en.play(game, [en.bots.make_bot(n, seed=seed) for n in lineup])
    assert game.is_over
    assert load_game(game.to_json()).digest() == game.digest()


def test_a_one_for_one_bank_does_not_make_persona_bots_trade_forever():
    rules = RuleSet.standard(4, bank_rate=1, science_rate=1, energy_card_rate=1)
    for seed in range(3):
        game = en.new_game(seed=seed, rules=rules)
        en.play(
            game,
            [en.bots.make_bot(n, seed=seed) for n in ("fossil", "green", "balanced", "freerider")],
        )
        assert game.outcome.kind != "unfinished"
        per_turn = max(
            sum(1 for line in game.state.log[i:j] if isinstance(line, A.Action))
            for i, j in _turn_spans(game.state.log)
        )
        assert per_turn < rules.turn_action_limit  # the bots stopped by themselves


def _turn_spans(log):
    marks = [
        i
        for i, line in enumerate(log)
        if not isinstance(line, A.Action) and str(line).startswith("— Turn")
    ]
    return list(zip(marks, marks[1:] + [len(log)]))


def test_after_the_per_turn_action_limit_only_ending_the_turn_is_left():
    rules = RuleSet.standard(4, bank_rate=1, turn_action_limit=20)
    game = en.new_game(seed=3, rules=rules)
    while game.state.phase != "action" or game.state.queue:
        game.apply(game.legal_actions()[0])
    seat = game.current_seat
    sandbox.give(game, seat, lumber=5, brick=5)
    trade = A.TradeWithSupply(seat, "lumber", "brick")
    back = A.TradeWithSupply(seat, "brick", "lumber")
    while game.state.turn_actions < 20:  # a 1:1 bank: the same two trades could go on forever
        game.apply(trade if game.state.turn_actions % 2 else back)
    assert game.legal_actions() == [A.EndTurn(seat)]
    assert "turn_action_limit" in game.why_illegal(trade)
    with pytest.raises(IllegalActionError):
        game.apply(trade)
    turn = game.turn
    game.apply(A.EndTurn(seat))
    assert game.turn == turn + 1 or game.is_over


# -- 1. Longest Road is bounded and exact -----------------------------------------------------


def _reference_longest_road(state, seat):
    """The plain search over every start and every trail (exponential, fine when small)."""
    board, roads = state.board, state.players[seat].roads
    blocked = {c for p in state.players if p.seat != seat for c in p.buildings()}

    def walk(corner, used):
        best = len(used)
        if used and corner in blocked:
            return best
        for path in board.corner_paths_of[corner]:
            if path in roads and path not in used:
                a, b = board.paths[path]
                best = max(best, walk(b if a == corner else a, used | {path}))
        return best

    return max((walk(c, frozenset()) for p in roads for c in board.paths[p]), default=0)


@SETTINGS
@given(
    roads=st.sets(st.integers(0, 71), max_size=13),
    towns=st.sets(st.integers(0, 53), max_size=6),
)
def test_longest_road_equals_the_plain_search(roads, towns):
    game = en.new_game(seed=1)
    sandbox.clear_board(game)
    game.state.players[0].roads = set(roads)
    game.state.players[1].towns = set(towns)
    assert awards.longest_road(game.state, 0) == _reference_longest_road(game.state, 0)


def test_the_densest_network_the_rules_allow_is_searched_quickly():
    """MAX_ROADS roads packed into the middle of the island (many branch corners)."""
    game = en.new_game(seed=1, rules=RuleSet.standard(4, roads=MAX_ROADS))
    sandbox.clear_board(game)
    board = game.board
    middle = sorted(
        range(len(board.paths)),
        key=lambda p: sum(board.corner_pips(c) * 0 + abs(c - 27) for c in board.paths[p]),
    )
    game.state.players[0].roads = set(middle[:MAX_ROADS])
    start = time.process_time()
    length = awards.longest_road(game.state, 0)
    assert 0 < length <= MAX_ROADS
    assert time.process_time() - start < 2.0  # generous: the benchmark measures ~1 ms


# -- 2. the digest covers everything that defines the game ------------------------------------


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["rules"].update(victory_points=50),
        lambda d: d["rules"].update(city_cost=[]),  # free cities
        lambda d: d["rules"].update(vp_card_vp=50),
        lambda d: d.update(names=["A", "B", "C", "D"]),
        lambda d: d.update(seed=d["seed"] + 1),
        lambda d: d["actions"].pop(),
    ],
)
def test_an_edited_save_is_refused(saved, edit, tmp_path, capsys):
    data = json.loads(saved)
    edit(data)
    with pytest.raises(SaveFileError):
        load_game(json.dumps(data))
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    assert cli.main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "digest verified" not in out and err.startswith("energies: error:")


def test_a_version_1_save_of_standard_rules_is_migrated(saved):
    game = load_game(saved)
    old = json.loads(saved)
    old.update(version=1, digest=game.digest())  # earlier releases: the state digest only
    migrated = load_game(json.dumps(old))
    assert migrated.digest() == game.digest()
    assert json.loads(migrated.to_json())["version"] == SAVE_VERSION


def test_a_version_1_save_with_other_rules_needs_trust(saved):
    game = en.new_game(seed=4, rules=RuleSet.standard(4, victory_points=8))
    old = json.loads(game.to_json())
    old.update(version=1, digest=game.digest())
    with pytest.raises(SaveFileError, match="trust_rules=True"):
        load_game(json.dumps(old))
    assert load_game(json.dumps(old), trust_rules=True).rules.victory_points == 8


# -- 3. every load error is a SaveFileError ---------------------------------------------------


@SETTINGS
@given(data=st.data())
def test_mutated_saves_load_or_raise_a_save_file_error(saved, data):
    """Flip bytes, change values to other JSON types, delete keys: never a raw error."""
    text = saved
    doc = json.loads(text)
    how = data.draw(st.sampled_from(["byte", "rule", "action", "key"]))
    if how == "byte":
        raw = bytearray(text.encode())
        for _ in range(data.draw(st.integers(1, 3))):
            raw[data.draw(st.integers(0, len(raw) - 1))] ^= 1 << data.draw(st.integers(0, 7))
        blob = bytes(raw)
    else:
        junk = data.draw(
            st.one_of(
                st.none(),
                st.booleans(),
                st.integers(-(2**70), 2**70),
                st.floats(allow_nan=False),
                st.text(max_size=8),
                st.lists(st.integers(-3, 80), max_size=3),
                st.just([["sciense", 3]]),
                st.just({"a": 1}),
            )
        )
        if how == "rule":
            doc["rules"][data.draw(st.sampled_from(sorted(doc["rules"])))] = junk
        elif how == "action":
            action = data.draw(st.sampled_from(doc["actions"]))
            action[data.draw(st.sampled_from(sorted(action)))] = junk
        else:
            doc.pop(data.draw(st.sampled_from(sorted(doc))))
        blob = json.dumps(doc).encode()
    try:
        load_game(blob)
    except SaveFileError as exc:
        assert str(exc).strip()


def test_unknown_kind_names_in_the_rules_are_a_save_file_error(saved):
    for field, value in [
        ("brown_discs", [["air_polution", 9]]),
        ("renewable_cost", [["sciense", 3]]),
        ("dev_deck", [["cleanupp", 14]]),
        ("green_discs_per_player", [["government_fundinh", 4]]),
    ]:
        data = json.loads(saved)
        data["rules"][field] = value
        with pytest.raises(SaveFileError, match=field):
            load_game(json.dumps(data))


# -- 3. sandbox edits work or are refused, everywhere -----------------------------------------


def test_removing_a_city_with_the_sandbox_works_and_replays():
    game = en.new_game(seed=5)
    corner = min(game.state.players[0].cities)
    sandbox.remove(game, "city", corner)
    assert corner not in game.state.players[0].cities
    assert load_game(game.to_json()).digest() == game.digest()
    assert "There is no city" in game.why_illegal(A.SandboxEdit(-1, "remove", ("city", corner)))


EDIT_ARGS = st.lists(
    st.one_of(
        st.integers(-3, 80),
        st.sampled_from(
            [
                "town",
                "city",
                "road",
                "hex",
                "building",
                "brown",
                "green",
                "lumber",
                "energy",
                "air_pollution",
                "cleanup",
                "fossil",
                "renewable",
                "x",
            ]
        ),
    ),
    max_size=5,
)


@SETTINGS
@given(
    edits=st.lists(
        st.tuples(st.integers(-2, 5), st.sampled_from(sorted(EDIT_CHECKS) + ["nope"]), EDIT_ARGS),
        max_size=12,
    )
)
def test_any_sandbox_edit_works_or_is_refused_the_same_way_everywhere(edits):
    from energies.newenergies.invariants import check_invariants

    game = en.new_game(seed=2)
    for seat, op, args in edits:
        edit = A.SandboxEdit(seat, op, tuple(args))
        reason = game.why_illegal(edit)
        str(edit), game.describe(edit)
        before = game.to_json()
        if reason is None:
            game.apply(edit)
            assert check_invariants(game.state, distance_rule=False) == []
        else:
            with pytest.raises(IllegalActionError):
                game.apply(edit)
            assert game.to_json() == before
            data = json.loads(before)
            data["actions"].append(A.action_to_dict(edit))
            with pytest.raises(SaveFileError):
                load_game(json.dumps(data))
    assert load_game(game.to_json()).digest() == game.digest()


def test_sandbox_edits_are_bounded_per_game():
    game = en.new_game(seed=2)
    game.edits = MAX_SANDBOX_EDITS  # as if the game already held that many
    edit = A.SandboxEdit(-1, "inspector", (3,))
    assert "at most" in game.why_illegal(edit)
    with pytest.raises(IllegalActionError):
        game.apply(edit)


# -- 7. describing never fails ----------------------------------------------------------------

FIELD_VALUES = st.one_of(
    st.integers(-(2**70), 2**70),
    st.none(),
    st.text(max_size=5),
    st.booleans(),
    st.lists(st.integers(), max_size=2),
    st.tuples(st.text(max_size=3), st.integers()),
)


@SETTINGS
@given(kind=st.sampled_from(sorted(A.ACTION_TYPES)), data=st.data())
def test_describing_any_hand_made_action_never_fails(kind, data):
    cls = A.ACTION_TYPES[kind]
    values = {f.name: data.draw(FIELD_VALUES) for f in dataclasses.fields(cls)}
    action = cls(**values)
    game = en.new_game(seed=1)
    assert isinstance(str(action), str) and isinstance(game.describe(action), str)
    reason = game.why_illegal(action)
    assert isinstance(reason, str)
    with pytest.raises(IllegalActionError):
        game.apply(action)


def test_out_of_range_fields_are_described_plainly():
    game = en.new_game(seed=1)
    assert "hex 99" in game.describe(A.MoveInspector(0, 99))
    assert "corner -5" in game.describe(A.BuildTown(7, -5))
    assert "path 500" in str(A.BuildRoad(0, 500))


# -- 5. files and the command line ------------------------------------------------------------


def test_load_file_refuses_devices_folders_and_pipes_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path, word in [("/dev/zero", "device"), (tmp_path, "folder"), (fifo, "pipe")]:
        start = time.monotonic()
        with pytest.raises(SaveFileError, match=word):
            load_file(path)
        assert time.monotonic() - start < 5


def test_load_file_checks_the_size_before_reading(tmp_path, monkeypatch):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(en.newenergies.game.MAX_SAVE_BYTES + 1)  # sparse: nothing is written
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read whole"))
    with pytest.raises(SaveFileError, match="more than a save file"):
        load_file(big)


def test_save_is_atomic_and_never_truncates_a_good_file(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    game = en.new_game(seed=3)
    game.save(path)
    good = path.read_text()
    os.chmod(path, 0o640)

    def broken(self):
        raise RuntimeError("disk full")

    monkeypatch.setattr(en.Game, "to_json", lambda self: "x" * 10)
    monkeypatch.setattr("energies.kit.files.os.replace", lambda a, b: broken(None))
    with pytest.raises(RuntimeError):
        game.save(path)
    assert path.read_text() == good
    assert sorted(os.listdir(tmp_path)) == ["game.json"]  # the temporary file is gone
    monkeypatch.undo()
    game.save(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640  # the mode is kept


@pytest.mark.parametrize("target", ["folder", "/dev/null", "missing/x.json"])
def test_save_refuses_folders_devices_and_missing_folders(tmp_path, target):
    path = (
        tmp_path
        if target == "folder"
        else (target if target.startswith("/") else tmp_path / target)
    )
    with pytest.raises((OSError, ValueError)):
        en.new_game(seed=1).save(path)


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["simulate", "--games", "9" * 30], "--games"),
        (["simulate", "--games", "1" + "0" * 5000], "--games"),
        (["simulate", "--seed", str(2**63)], "--seed"),
        (["play", "--seed", str(2**64)], "--seed"),
        (["simulate", "--games", "2", "--out", "/dev/null"], ".csv or .parquet"),
        (["play", "--save", "/"], "folder"),
        (["replay", "/dev/zero"], "device"),
        (["replay", "bad\x1b[31m.json"], "\\x1b"),
    ],
)
def test_cli_abuse_is_one_printable_line_and_exit_2(argv, needle, capsys):
    assert cli.main(argv) == 2
    _out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("energies: error:") and needle in err
    assert "\x1b" not in err


def test_simulate_out_is_checked_before_any_game(tmp_path, monkeypatch, capsys):
    import importlib

    module = importlib.import_module("energies.runner.batch")
    monkeypatch.setattr(module, "simulate", lambda *a, **k: pytest.fail("ran games"))
    assert cli.main(["simulate", "--games", "5", "--out", str(tmp_path / "no" / "x.csv")]) == 2


def test_jobs_are_capped_to_the_cpus_with_a_note(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    out = tmp_path / "r.csv"
    assert (
        cli.main(["simulate", "--games", "2", "--jobs", "500", "--no-progress", "--out", str(out)])
        == 0
    )
    assert "using 1" in capsys.readouterr().err and out.exists()


def test_simulate_refuses_absurd_counts_up_front():
    from energies.runner import simulate

    for kwargs in (
        {"games": 10**12},
        {"seed": 2**70},
        {"games": 0},
        {"games": 60_000, "per_turn": True},
    ):
        with pytest.raises(ValueError):
            simulate(bots=["random"] * 4, **{"games": 1, **kwargs})


# -- 6. names ---------------------------------------------------------------------------------

REFUSED_NAMES = ["a\x1b[31mred", "tab\tname", "\ud800", "new\nline", "rtl\u202eevil", "   ", "\x7f"]


@pytest.mark.parametrize("name", REFUSED_NAMES)
def test_control_characters_and_surrogates_in_names_are_refused(name, saved):
    with pytest.raises(ValueError, match="name"):
        en.new_game(seed=1, names=[name, "B", "C", "D"])
    data = json.loads(saved)
    data["names"][0] = name
    with pytest.raises(SaveFileError, match="name"):
        load_game(json.dumps(data))


DOLLAR_NAMES = ["$x^2$", "$\\frac{", "5$", "$$", "a\\$b$", "Zoë & Ünal", "<b>bold</b>"]


def test_names_with_dollars_render_literally_in_every_chart_and_widget():
    import matplotlib

    matplotlib.use("Agg")
    from energies import viz
    from energies.insight import burden, plot_burden
    from energies.widgets import FootprintExplorer, PlayApp

    game = en.new_game(seed=3, names=DOLLAR_NAMES[:4])
    en.play(game, [en.bots.RandomBot(seed=s) for s in range(4)])
    for draw in (viz.draw_board, viz.plot_footprint, viz.plot_plants, viz.plot_resources):
        ax = draw(game)
        ax.figure.canvas.draw()
        texts = [t.get_text() for t in ax.figure.findobj(matplotlib.text.Text)]
        shown = [t._preprocess_math(t.get_text()) for t in ax.figure.findobj(matplotlib.text.Text)]
        assert all(not math for _, math in shown), texts
        assert any("$x^2$" in s for s, _ in shown)
    ax = plot_burden(burden(game))
    ax.figure.canvas.draw()
    fresh = en.new_game(seed=4, names=DOLLAR_NAMES[3:7])
    PlayApp(fresh, seats={0: "human", 1: "random", 2: "random", 3: "random"})
    FootprintExplorer(game)


def test_odd_but_fine_names_round_trip(saved):
    game = en.new_game(seed=1, names=DOLLAR_NAMES[3:7])
    assert load_game(game.to_json()).names == DOLLAR_NAMES[3:7]


# -- 1. worst loads stay bounded --------------------------------------------------------------


def test_a_file_of_tiny_size_with_huge_rule_counts_is_refused_at_once(saved):
    data = json.loads(saved)
    data["rules"]["brown_discs"] = [["air_pollution", 10**6]]
    data["rules"]["roads"] = 72
    start = time.process_time()
    with pytest.raises(SaveFileError, match="roads|brown_discs"):
        load_game(json.dumps(data))
    assert time.process_time() - start < 0.5


def test_too_many_actions_are_refused_before_replaying(saved):
    data = json.loads(saved)
    data["actions"] = [{"kind": "end_turn", "seat": 0}] * (
        en.newenergies.game.MAX_SAVED_ACTIONS + 1
    )
    with pytest.raises(SaveFileError, match="more than a game can have"):
        load_game(json.dumps(data))


def test_a_game_too_long_to_load_again_is_not_saved(tmp_path):
    """A 1:1 bank and long turns (legal house rules) let a game pass the loader's action
    limit; saving it used to write a file that load_file then refused."""
    rules = RuleSet.standard(4, bank_rate=1, turn_action_limit=2000)
    game = en.new_game(seed=4, rules=rules)
    rng = random.Random(4)
    while len(game.actions) <= en.newenergies.game.MAX_SAVED_ACTIONS:
        legal = game.legal_actions()
        trades = [a for a in legal if a.kind == "trade_with_supply"]
        game.apply(rng.choice(trades or legal))
    with pytest.raises(SaveFileError, match="more than a game can have"):
        load_game(game.to_json())
    path = tmp_path / "long.json"
    path.write_text("an older save")
    with pytest.raises(SaveFileError, match="could not be loaded again"):
        game.save(path)
    assert path.read_text() == "an older save"
    game.undo(len(game.actions) - en.newenergies.game.MAX_SAVED_ACTIONS)
    game.save(path)  # at the limit it saves and loads
    assert load_file(path).digest() == game.digest()


def test_random_seeded_hand_made_actions_never_crash_raw():
    rng = random.Random(15)
    game = en.new_game(seed=15)
    kinds = sorted(A.ACTION_TYPES)
    for _ in range(600):
        cls = A.ACTION_TYPES[rng.choice(kinds)]
        values = {
            f.name: rng.choice([rng.randint(-5, 100), "lumber", "science", True, (("brick", 1),)])
            for f in dataclasses.fields(cls)
        }
        action = cls(**values)
        reason = game.why_illegal(action)
        if reason is None:
            game.apply(action)
        else:
            with pytest.raises(IllegalActionError):
                game.apply(action)
        if game.is_over:
            break


def test_the_play_app_file_box_refuses_a_pipe_or_device_without_blocking(tmp_path):
    from energies.widgets import PlayApp

    os.mkfifo(tmp_path / "pipe.json")
    os.symlink("/dev/zero", tmp_path / "zero.json")
    app = PlayApp(
        en.new_game(seed=1),
        seats={0: "human", 1: "random", 2: "random", 3: "random"},
        save_dir=tmp_path,
    )
    for name in ("pipe.json", "zero.json"):
        start = time.monotonic()
        assert not app.load(name)
        assert app.status_kind == "error"
        assert "not a save file" in app.status_text or "outside" in app.status_text  # symlink
        assert time.monotonic() - start < 5


def test_simulate_out_replaces_a_file_atomically_and_keeps_its_compression(tmp_path, capsys):
    import gzip

    out = tmp_path / "r.csv.gz"
    out.write_text("an older result")
    assert cli.main(["simulate", "--games", "2", "--no-progress", "--out", str(out)]) == 0
    with gzip.open(out, "rt") as f:
        assert f.readline().startswith("game,seed,")
    assert sorted(os.listdir(tmp_path)) == ["r.csv.gz"]


def test_invented_field_names_are_refused_without_sorting_them_all(saved):
    data = json.loads(saved)
    data["rules"].update({f"junk{i}": 0 for i in range(100_000)})
    data["actions"][0].update({f"junk{i}": 0 for i in range(100_000)})
    text = json.dumps(data)
    start = time.process_time()
    with pytest.raises(SaveFileError, match="fields"):
        load_game(text)
    assert time.process_time() - start < 2.0  # mostly the JSON parse of ~3 MB


def _all_text_is_literal(fig) -> list[str]:
    import matplotlib

    fig.canvas.draw()
    texts = fig.findobj(matplotlib.text.Text)
    assert all(not t._preprocess_math(t.get_text())[1] for t in texts)
    return [t._preprocess_math(t.get_text())[0] for t in texts]


def test_dollars_stay_literal_in_the_class_charts_and_the_companion_games(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from energies import games
    from energies.classroom import collect, plot_class
    from energies.games.noclear.draw import draw_game as draw_noclear
    from energies.games.noclear.draw import plot_race
    from energies.games.shelfie.draw import draw_game as draw_shelfie

    game = en.new_game(seed=5, names=["$a$", "$b$", "$c$", "$d$"])
    en.play(game, [en.bots.RandomBot(seed=s) for s in range(4)])
    game.save(tmp_path / "$x$ team.json")
    shown = _all_text_is_literal(plot_class(collect(tmp_path)).figure)
    assert any("$x$ team" in text for text in shown)
    for name, draws in (("noclear", (draw_noclear, plot_race)), ("shelfie", (draw_shelfie,))):
        companion = games.new_game(name, players=3, seed=1)
        companion.names = ["$p$", "$q$", "$r$"]
        for draw in draws:
            assert any("$p$" in text for text in _all_text_is_literal(draw(companion).figure))


def test_the_noclear_app_shows_a_name_as_text_not_html():
    from energies.games.noclear.game import new_game as new_noclear
    from energies.games.noclear.widget import NoclearApp

    game = new_noclear(players=2, seed=1)
    game.names = ["<i>x</i> & $y$", "<i>x</i> & $y$"]
    app = NoclearApp(game, seats={0: "human", 1: "human"})
    app._refresh()
    assert "<b>&lt;i&gt;x&lt;/i&gt; &amp; $y$</b>" in app.economy.value


def test_a_save_of_the_previous_release_that_no_longer_replays_says_why():
    # written by energies 0.1.0 (save version 1) before rules 3.4, 8.5 and 12.1 changed:
    # its moves do not fit the new quick start, so loading must explain, not cry "corrupt"
    text = (Path(__file__).parent / "golden" / "release-0.1.0-save.json").read_text()
    assert json.loads(text)["version"] == 1
    with pytest.raises(SaveFileError, match="earlier release .*rules engine changed"):
        load_game(text)
