"""The one game contract (energies.games): every registered game plays through the same calls."""

from __future__ import annotations

import ast
import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import energies as en
from energies import games

COMPANIONS = ["shelfie", "noclear"]


def test_registry_names_the_three_games_by_short_name():
    assert games.names() == ["new-energies", "shelfie", "noclear"]
    assert games.get("Shelfie").name == "shelfie"
    with pytest.raises(ValueError, match="Unknown game 'chess'; choose from new-energies"):
        games.get("chess")


@pytest.mark.parametrize("name", games.names())
def test_every_game_follows_the_contract(name):
    spec = games.get(name)
    game = games.new_game(name, players=spec.players[0] if name != "new-energies" else 3, seed=5)
    assert isinstance(game, games.GameProtocol)
    assert games.spec_of(game) is spec
    start = game.to_json()
    legal = game.legal_actions()
    assert legal and game.current_seat is not None and not game.is_over
    game.apply(legal[0])
    assert game.undo() == [legal[0]]
    assert game.to_json() == start  # undo restores the very same game (same chance)
    fork = game.fork()
    fork.apply(fork.legal_actions()[-1])
    assert game.to_json() == start  # a fork shares nothing
    json.dumps(game.snapshot())  # plain JSON
    view = game.view(game.current_seat)  # what a bot decides from
    assert view is not game and view is not game.state


@pytest.mark.parametrize("name", COMPANIONS)
def test_a_view_is_a_copy_without_hidden_order_or_chance(name):
    game = games.new_game(name, seed=5)
    view = game.view(game.current_seat)
    assert view.rng is None and view.viewer == game.current_seat
    if name == "noclear":
        assert view.deck == [] and view.deck_size == len(game.state.deck) > 0
    bot = games.get(name).make_bot("random")
    action = bot.decide(view, game.legal_actions(), random.Random(1))
    game.apply(action)  # a decision made from the view is legal in the game
    with pytest.raises(ValueError, match="seat must be"):
        game.view(7)


@pytest.mark.parametrize("name", COMPANIONS)
def test_companion_games_play_to_the_end_under_play_and_simulate(name):
    spec = games.get(name)
    lineup = list(spec.bots)[: spec.default_players]
    lineup += ["random"] * (spec.default_players - len(lineup))
    game = games.new_game(name, seed=11)
    outcome = en.play(game, [spec.make_bot(b, seed=s) for s, b in enumerate(lineup)])
    assert game.is_over and outcome is game.outcome and outcome.winners
    assert game.legal_actions() == [] and game.current_seat is None
    frame = en.simulate(6, lineup, game=name, seed=3, progress=False)
    assert len(frame) == 6 and set(frame["outcome"]) <= {"points", "uranium", "turn_limit"}
    again = en.simulate(6, lineup, game=name, seed=3, progress=False, jobs=2)
    assert frame.equals(again)  # the same rows whatever runs them


@pytest.mark.parametrize("name", COMPANIONS)
def test_save_load_round_trip_checks_the_digest(name, tmp_path):
    game = games.new_game(name, seed=21)
    rng = random.Random(4)
    for _ in range(25):
        game.apply(rng.choice(game.legal_actions()))
    text = game.to_json()
    same = games.load_game(text)
    assert same.digest() == game.digest() and same.to_json() == text
    assert en.load_game(text).to_json() == text  # the top-level loader reads every game
    path = tmp_path / f"{name}.json"
    game.save(path)
    assert en.load_file(path).to_json() == text  # and so does the file loader
    assert same.legal_actions() == game.legal_actions()
    data = json.loads(text)
    data["digest"] = "0" * 32
    with pytest.raises(en.SaveFileError, match="digest does not match"):
        games.load_game(json.dumps(data))
    data = json.loads(text)
    data["actions"][3]["seat"] = 9
    with pytest.raises(en.SaveFileError, match="Action 4 .* cannot be replayed: It is seat"):
        games.load_game(json.dumps(data))


@pytest.mark.parametrize("name", COMPANIONS)
def test_a_save_with_a_wrong_version_type_or_huge_values_gives_a_short_reason(name):
    # true and 1.0 equal the version 1 and used to load; a megabyte field value, rule value or
    # invented rule name was quoted whole in the SaveFileError
    game = games.new_game(name, seed=21)
    game.apply(next(a for a in game.legal_actions() if len(dataclasses.fields(a)) > 1))
    data = json.loads(game.to_json())
    for version in (True, 1.0):
        with pytest.raises(en.SaveFileError, match="version"):
            en.load_game(json.dumps(dict(data, version=version)))
    huge = "x" * 100_000
    field = next(k for k in data["actions"][0] if k not in ("kind", "seat"))
    edits = [
        lambda d: d["actions"][0].update(seat=huge),
        lambda d: d["actions"][0].update({field: huge}),
        lambda d: d["rules"].update({huge: 1}),
        lambda d: d["rules"].update(players=huge),
    ]
    for edit in edits:
        bad = json.loads(json.dumps(data))
        edit(bad)
        with pytest.raises(en.SaveFileError) as err:
            en.load_game(json.dumps(bad))
        assert len(str(err.value)) < 400


def test_load_game_dispatches_new_energies_files_unchanged():
    game = en.new_game(players=3, seed=2)
    game.apply(game.legal_actions()[0])
    assert games.load_game(game.to_json()).digest() == game.digest()
    with pytest.raises(en.SaveFileError, match="not an energies save file"):
        games.load_game("{}")


@pytest.mark.parametrize("name", COMPANIONS)
def test_illegal_actions_are_refused_with_a_sentence_and_change_nothing(name):
    game = games.new_game(name, seed=8)
    legal = game.legal_actions()
    other = (game.current_seat + 1) % game.rules.players
    wrong_seat = type(legal[0])(**{**legal[0].__dict__, "seat": other})
    before, rng_state = game.to_json(), game.state.rng.getstate()
    for bad in (wrong_seat, "keep", None):
        reason = game.why_illegal(bad)
        assert isinstance(reason, str) and reason.endswith(".") and len(reason) < 200
        with pytest.raises(en.IllegalActionError) as info:
            game.apply(bad)
        assert info.value.reason == reason
        assert isinstance(info.value, ValueError)
    assert game.to_json() == before and game.state.rng.getstate() == rng_state


@pytest.mark.parametrize("name", COMPANIONS)
def test_house_defaults_are_fields_of_the_rules_object(name):
    rules = games.get(name).rules_class()
    defaults = rules.house_defaults()
    assert defaults and all(h.field is None or hasattr(rules, h.field) for h in defaults)
    assert "[H, rule" in rules.describe()
    assert type(rules).from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    with pytest.raises(ValueError, match="players must be"):
        rules.replace(players=99)
    with pytest.raises(ValueError, match="no field"):
        rules.replace(colour="red")


def _malformed(name: str, seat: int) -> list:
    if name == "shelfie":
        from energies.games.shelfie import Circle, CrossOut, Keep, Reroll

        return [
            Reroll(seat, [0, 1]),
            Reroll(seat, (9,)),
            Reroll(seat, ()),
            Circle(seat, [[0, 1]]),
            Circle(seat, ((0, 9),)),
            Circle(seat, ((0, 0), (0, 0))),
            CrossOut(seat, "pink"),
            CrossOut(seat, 7),
            Keep("0"),
        ]
    from energies.games.noclear import (
        BuyMachine,
        BuyUranium,
        BuyUraniumWithMachines,
        DiscardMachine,
        MoveToken,
        StoreEnergy,
        Upgrade,
    )

    return [
        BuyUraniumWithMachines(seat, 1),  # uranium is paid with energy under default rules
        BuyUraniumWithMachines(seat, [1]),
        DiscardMachine(seat, "x"),
        BuyMachine(seat, "x", (1, 2)),
        BuyMachine(seat, 0, [1, 2]),
        BuyMachine(seat, 0, (-1, 0)),
        BuyMachine(seat, 99, (0, 0)),
        BuyUranium(seat, 99, (0, 0)),
        StoreEnergy(seat, 5),
        MoveToken(seat, ["top"], 1),
        Upgrade(seat, [1], (0, 0)),
        Upgrade(seat, 1, (0, 0)),
    ]


@pytest.mark.parametrize("name", COMPANIONS)
def test_hand_made_malformed_actions_get_a_sentence_not_a_crash(name):
    game = games.new_game(name, seed=13)
    before = game.to_json()
    for bad in _malformed(name, game.current_seat):
        reason = game.why_illegal(bad)
        assert isinstance(reason, str) and reason[0].isupper() and reason.endswith("."), bad
        with pytest.raises(en.IllegalActionError):
            game.apply(bad)
    assert game.to_json() == before


def _loose_copies(action) -> list:
    """The action with one whole number made a float, a NumPy int or a bool (still == it)."""
    np = pytest.importorskip("numpy")
    out = [dataclasses.replace(action, seat=bool(action.seat))] if action.seat in (0, 1) else []
    for key, value in vars(action).items():
        if isinstance(value, tuple) and value and isinstance(value[0], int):
            out += [
                dataclasses.replace(action, **{key: (cast(value[0]),) + value[1:]})
                for cast in (float, np.int64)
            ]
        elif isinstance(value, int):
            out += [dataclasses.replace(action, **{key: cast(value)}) for cast in (float, np.int64)]
    return out


@pytest.mark.parametrize("name", COMPANIONS)
def test_numbers_that_only_equal_a_listed_int_are_refused(name):
    # They used to match a listed action: a float market slot then crashed half-way through
    # apply, a NumPy int made a game whose to_json() failed.
    game = games.new_game(name, seed=3)
    before = game.to_json()
    tried = 0
    for legal in game.legal_actions()[:6]:
        for loose in _loose_copies(legal):
            assert loose == legal
            reason = game.why_illegal(loose)
            assert reason and "whole numbers (int)" in reason and reason.endswith("."), loose
            with pytest.raises(en.IllegalActionError):
                game.apply(loose)
            tried += 1
    assert tried > 10 and game.to_json() == before


@pytest.mark.parametrize("name", COMPANIONS)
def test_malformed_actions_print_and_a_save_file_holding_one_is_refused(name):
    # Printing one for the load error's message used to raise IndexError or TypeError.
    game = games.new_game(name, seed=13)
    for bad in _malformed(name, game.current_seat):
        assert str(bad).startswith("seat ")
        data = json.loads(game.to_json())
        data["actions"] = [type(game).CODEC.to_dict(bad)]
        with pytest.raises(en.SaveFileError):
            games.load_game(json.dumps(data))


@pytest.mark.parametrize("name", COMPANIONS)
def test_views_are_equal_for_positions_that_differ_only_in_hidden_information(name):
    # Views used to carry the seed, which gives the deck's order and the coming dice away,
    # and Noclear's shared the turn records with the game.
    game = games.new_game(name, seed=5)
    rng = random.Random(2)
    for _ in range(8):
        game.apply(rng.choice(game.legal_actions()))
    other = game.fork()
    other.state.seed, other.state.rng = 6, random.Random(99)
    if name == "noclear":
        other.state.deck.reverse()
    for seat in range(game.rules.players):
        assert game.view(seat) == other.view(seat)
    view, before = game.view(0), game.to_json()
    for record in getattr(view, "history", []):
        record["switched_off"] = 999
    assert game.to_json() == before and game.summary_row() == other.summary_row()


@pytest.mark.parametrize("name", COMPANIONS)
def test_rules_fields_of_the_wrong_kind_are_refused_clearly(name):
    # They used to be accepted: a text item value crashed scoring, a list made the rules
    # unhashable, "no" read as true, True counted as 1.
    rules = games.get(name).rules_class()
    field = "item_values" if name == "shelfie" else "start_energy"
    values = getattr(rules, field)
    changes = [
        ({field: list(values)}, "must be a tuple"),
        ({field: ("x",) + values[1:]}, "must be a whole number"),
        ({field: (True,) + values[1:]}, "must be a whole number"),
        ({field: (10**9,) + values[1:]}, "must be a whole number from"),
        ({"players": 2.0}, "must be a whole number"),
    ]
    if name == "shelfie":
        changes.append(({"any_order_in_row": "no"}, "must be true or false"))
    for change, message in changes:
        with pytest.raises(ValueError) as info:
            rules.replace(**change)
        assert message in str(info.value) and next(iter(change)) in str(info.value), change


# -- the companion games and the kit stand on the contract alone -------------------------------

PACKAGE = Path(en.__file__).parent
STDLIB = set(sys.stdlib_module_names)
# what only a picture or an app may load, and only when it is drawn or opened
DRAWING = ("energies.viz", "energies.widgets", "matplotlib", "pandas", "ipywidgets", "PIL")


def _imports(path: Path) -> list[tuple[str, bool, int]]:
    """(absolute module, imported at module level?, line) of every import in a file,
    function-level ones included (relative imports resolved)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top_level, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            found.append((base, id(node) in top_level, node.lineno))
    return found


def _within(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_the_kit_imports_only_itself_and_the_standard_library():
    wrong = [
        f"{path.relative_to(PACKAGE)}:{line} imports {name}"
        for path in sorted((PACKAGE / "kit").rglob("*.py"))
        for name, _, line in _imports(path)
        if not _within(name, ["energies.kit"]) and name.split(".")[0] not in STDLIB
    ]
    assert wrong == []


@pytest.mark.parametrize("name", COMPANIONS)
def test_a_companion_game_imports_only_the_kit_and_itself(name):
    """No New Energies, no bots, no runner: pictures and apps load viz and widgets lazily."""
    own = f"energies.games.{name}"
    wrong = []
    for path in sorted((PACKAGE / "games" / name).rglob("*.py")):
        for module, top_level, line in _imports(path):
            allowed = ["energies.kit", own]
            # the app module is loaded by its users only (never by the game's package), so
            # it may build on the widgets at its top; anything else draws lazily
            if not top_level or path.name == "widget.py":
                allowed += DRAWING
            stdlib = module.split(".")[0] in STDLIB
            if not stdlib and not _within(module, allowed):
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} imports {module}")
            if top_level and module == f"{own}.widget" and path.name != "widget.py":
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} loads the app with the game")
    assert wrong == []


@pytest.mark.parametrize("game", ["shelfie", "noclear"])
def test_a_companion_game_loads_the_kit_and_itself_not_new_energies(game):
    """The facade imports its names on first use, so a companion game runs on the kit alone
    (0.2 loaded about 40 New Energies modules with it)."""
    code = (
        f"import json, sys, energies.games.{game} as g; g.new_game(seed=1).legal_actions(); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('energies.'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    own = ("energies.kit", f"energies.games.{game}")
    others = [
        m for m in json.loads(result.stdout) if not m.startswith(own) and m != "energies.games"
    ]
    assert others == ["energies._moved"], others
