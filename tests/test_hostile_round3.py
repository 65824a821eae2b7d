"""Hostile inputs, round 3 (issue 37): edited companion saves, rules at the top of their
ranges, outside text that is not what it seems, unchecked arguments, false reasons, file names
at the file system's limit, and a class's shared save folder."""

from __future__ import annotations

import random
import time
import warnings

import pytest

from energies.games import shelfie
from energies.games.shelfie import ShelfieRules
from energies.games.shelfie import insight as shelfie_insight

# -- costs bounded over the whole valid rule space -----------------------------------------------

#: My Shelfie Dice with dice, colours and re-rolls at the top of their allowed ranges.
LARGEST_SHELFIE = ShelfieRules(
    colours=8, columns=8, dice=8, rerolls=4, max_circles=6, item_values=tuple(range(1, 9))
)


def _cpu_seconds(run) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def test_exact_odds_at_the_largest_rules_take_seconds_not_tens_of_seconds():
    # 8 dice of 9 faces with 4 re-rolls took 20 s of CPU; about 1.6 s now
    game = shelfie.new_game(seed=1, rules=LARGEST_SHELFIE)
    seconds = _cpu_seconds(
        lambda: shelfie_insight.combo_probability(game.dice, 4, [(0, 7)], LARGEST_SHELFIE)
    )
    assert seconds < 8


def test_the_ev_bot_and_the_hint_fall_back_to_a_bounded_choice_and_say_so():
    # one ev decision took 22 s: now it re-rolls as the greedy player does, with a warning
    game = shelfie.new_game(seed=1, rules=LARGEST_SHELFIE)
    bot = shelfie.make_bot("ev", seed=1)
    with pytest.warns(UserWarning, match="greedy player.*12,870 different sets"):
        seconds = _cpu_seconds(
            lambda: bot.decide(game.view(0), game.legal_actions(), random.Random(1))
        )
    assert seconds < 2 and "12,870" in bot.fallback
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per bot: a whole game does not repeat it
        bot.decide(game.view(0), game.legal_actions(), random.Random(1))
    pytest.importorskip("ipywidgets")
    from energies.games.shelfie.widget import ShelfieApp

    app = ShelfieApp(game, seats={0: "human", 1: "human"})
    assert _cpu_seconds(app.hint) < 2
    assert "No exact hint" in app.status.value and "greedy player would" in app.status.value


def test_the_standard_ev_bot_still_plans_exactly():
    game = shelfie.new_game(seed=1)
    bot = shelfie.make_bot("ev", seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bot.decide(game.view(0), game.legal_actions(), random.Random(1))
    assert bot.fallback is None


# -- files at the edge of the file system ------------------------------------------------------


def _named(tmp_path, stem: str, ending: str, size: int):
    """A path in tmp_path whose name is exactly ``size`` bytes of UTF-8."""
    stem_bytes = size - len(ending.encode())
    unit = len(stem.encode())
    name = stem * (stem_bytes // unit) + "x" * (stem_bytes % unit) + ending
    assert len(name.encode()) == size
    return tmp_path / name


@pytest.mark.parametrize("stem", ["g", "é", "游戏", "🎲"])
def test_a_name_at_the_file_systems_limit_saves_and_loads(tmp_path, stem):
    import energies as en
    from energies.kit import registry

    for game in (
        en.new_game(seed=3),
        shelfie.new_game(seed=3),
        registry.new_game("noclear", players=2, seed=3),
    ):
        path = _named(tmp_path, stem, f".{game.NAME}.json", 255)
        game.save(path)
        assert en.load_file(path).to_json() == game.to_json()
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file


def test_simulate_out_at_the_limit_keeps_its_compression_ending(tmp_path):
    from energies.cli import main

    path = _named(tmp_path, "é", ".csv.gz", 255)
    argv = ["simulate", "--games", "2", "--no-progress", "--out", str(path)]
    assert main(argv) == 0
    assert path.read_bytes()[:2] == b"\x1f\x8b"  # gzip, inferred from the temporary name too


@pytest.mark.parametrize("size", [256, 400])
def test_a_name_over_the_limit_is_refused_with_the_reason(tmp_path, size):
    import energies as en

    path = _named(tmp_path, "é", ".json", size)
    with pytest.raises(ValueError, match=rf"name is {size} bytes long, more than this file"):
        en.new_game(seed=3).save(path)
    with pytest.raises(ValueError, match="choose a shorter name"):
        shelfie.new_game(seed=3).save(path)
    assert list(tmp_path.iterdir()) == []


# -- text from outside that is not what it seems -----------------------------------------------

INVISIBLE_NAMES = [
    "\u200b",  # zero-width space
    "\u2060\u2060",  # word joiner
    "\ufeff",  # byte order mark
    " \u200b\u00a0",  # spaces around a zero-width space
    "\u0301\u0308",  # combining marks with nothing to sit on
    "\u3164",  # Hangul filler: a letter drawn blank
    "\u180e\u200c\u200d",  # Mongolian vowel separator, zero-width (non-)joiner
    "\U000e0041",  # a tag character
]


def _game_of_each_kind(names_for):
    """One new game of each of the three games, given ``names_for(players)``."""
    import energies as en

    yield lambda: en.new_game(seed=1, names=names_for(4))
    yield lambda: shelfie.new_game(seed=1, names=names_for(2))
    from energies.games import noclear

    yield lambda: noclear.new_game(seed=1, names=names_for(2))


@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_a_name_of_only_invisible_characters_is_refused_by_every_game(name):
    for make in _game_of_each_kind(lambda players: [name] + [f"P{s}" for s in range(1, players)]):
        with pytest.raises(ValueError, match="at least one letter, digit or symbol"):
            make()


def test_visible_names_with_invisible_characters_inside_are_fine():
    names = ["Ana\u200bMaria", "e\u0301", "\u0915\u094d\u0937", "🎲"]
    for make in _game_of_each_kind(lambda players: names[:players]):
        make()


def _saved_with_names(game, names) -> str:
    """A save file written as an older release would have, with ``names`` (digest valid)."""
    game.names = list(names)
    return game.to_json()


@pytest.mark.parametrize("name", ["\u200b", "\u2060\ufeff"])
def test_invisible_names_in_save_files_are_refused_by_load_class_folders_and_the_command(
    name, tmp_path, capsys
):
    import energies as en
    from energies import classroom
    from energies.cli import main

    game = en.new_game(seed=1)
    text = _saved_with_names(game, [name, "B", "C", "D"])
    for companion in (shelfie.new_game(seed=1), _noclear()):
        with pytest.raises(en.SaveFileError, match="at least one letter"):
            en.load_file(_written(tmp_path, "c.json", _saved_with_names(companion, [name, "B"])))
    with pytest.raises(en.SaveFileError, match="at least one letter"):
        en.load_game(text)
    _written(tmp_path, "group1.json", text)
    frame = classroom.collect(tmp_path / "group1.json")
    assert frame.empty and "at least one letter" in frame.attrs["skipped"][0]["reason"]
    assert main(["replay", str(tmp_path / "group1.json")]) == 2
    assert "digest verified" not in capsys.readouterr().out


def _noclear():
    from energies.games import noclear

    return noclear.new_game(seed=1)


def _written(folder, name, text):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_latin_1_file_name_in_a_class_folder_charts_and_exports(tmp_path):
    import os

    import energies as en
    from energies import classroom

    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    folder = os.fsencode(tmp_path)
    for seed, raw in enumerate((b"Gr\xfcppe 1.json", b"caf\xe9.json")):  # Latin-1 names
        game = en.new_game(seed=seed)
        en.play(game, [en.bots.RandomBot(seed=s) for s in range(4)])
        with open(os.path.join(folder, raw), "w", encoding="utf-8") as f:
            f.write(game.to_json())
    with open(os.path.join(folder, b"\xe9t\xe9.json"), "w") as f:
        f.write("not a save")
    frame = classroom.collect(tmp_path)
    assert sorted(frame["group"]) == ["Gr\ufffdppe 1", "caf\ufffd"]
    assert frame.attrs["skipped"][0]["source"].endswith("\ufffdt\ufffd.json")
    frame.to_csv(tmp_path / "class.csv")  # raised UnicodeEncodeError: surrogates not allowed
    assert "Gr\ufffdppe 1" in (tmp_path / "class.csv").read_text(encoding="utf-8")
    ax = classroom.plot_class(frame)
    ax.figure.savefig(tmp_path / "class.png")  # raised TypeError inside the font code


@pytest.mark.parametrize("message", [
    {"type": "charts", "open": "false"},
    {"type": "charts", "open": 0},
    {"type": "save", "name": ["group1"]},
    {"type": "load", "name": {"x": 1}},
    {"type": "upload", "name": "u.json", "text": [1, 2]},
    {"type": "option", "name": "ask_on_bot_turns", "value": 1},
])  # fmt: skip
def test_a_page_message_with_a_field_of_the_wrong_type_changes_nothing(message, tmp_path):
    pytest.importorskip("anywidget")
    import energies as en
    from energies.widgets import PlayApp

    app = PlayApp(en.new_game(seed=1), save_dir=tmp_path)
    before = (app.charts_open, app.ask_on_bot_turns, app.game.to_json())
    assert app.message(message) is False
    assert app.status_kind == "error"
    assert (app.charts_open, app.ask_on_bot_turns, app.game.to_json()) == before
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("flag", ["answer_at_once", "auto_bots", "ask_on_bot_turns", "chart"])
def test_the_play_apps_switches_refuse_what_is_not_true_or_false(flag):
    pytest.importorskip("anywidget")
    import energies as en
    from energies.widgets import PlayApp

    with pytest.raises(ValueError, match=f"{flag} must be True or False, not 'no'"):
        PlayApp(en.new_game(seed=1), **{flag: "no"})


# -- saved companion games cannot be edited and still load --------------------------------------


def _played_save(name: str) -> str:
    import energies as en
    from energies.kit import registry

    game = registry.new_game(name, players=2, seed=3)
    spec = registry.get(name)
    en.play(game, [spec.make_bot(bot, seed=s) for s, bot in enumerate(list(spec.bots)[-2:])])
    return game.to_json()


def _first(actions, kind):
    return next(a for a in actions if a["kind"] == kind)


COMPANION_EDITS = {
    "a name": lambda d: d["names"].__setitem__(0, "Mallory"),
    "a name's look-alike": lambda d: d["names"].__setitem__(0, "Seat\u00a00"),
    "the seed": lambda d: d.__setitem__("seed", d["seed"] + 1),
    "the seats swapped": lambda d: d["names"].reverse(),
    "one move removed": lambda d: d["actions"].pop(),
    "the version lowered": lambda d: d.__setitem__("version", 1),
}
SHELFIE_EDITS = {
    "a rules value": lambda d: d["rules"].__setitem__("min_to_score", 2),
    "an item value": lambda d: d["rules"]["item_values"].__setitem__(4, 9),
    "a re-roll's dice": lambda d: _first(d["actions"], "reroll").__setitem__("faces", [5]),
    "a re-roll's dice reordered": lambda d: _first(d["actions"], "reroll")["faces"].reverse(),
    "a circled item": lambda d: _first(d["actions"], "circle")["items"].pop(),
}
NOCLEAR_EDITS = {
    "a rules value": lambda d: d["rules"].__setitem__("energy_cap", 11),
    "the start energy": lambda d: d["rules"].__setitem__("start_energy", [4, 2]),
    "a payment": lambda d: _first(d["actions"], "buy_machine")["pay"].reverse(),
    "a machine's slot": lambda d: _first(d["actions"], "buy_machine").__setitem__("slot", 0),
}


@pytest.mark.parametrize(
    "game, edit",
    [("shelfie", e) for e in {**COMPANION_EDITS, **SHELFIE_EDITS}]
    + [("noclear", e) for e in {**COMPANION_EDITS, **NOCLEAR_EDITS}],
)
def test_an_edited_companion_save_is_refused_by_load_and_the_command(game, edit, tmp_path, capsys):
    import json

    import energies as en
    from energies.cli import main
    from energies.kit import registry

    saved = _played_save(game)
    data = json.loads(saved)
    {**COMPANION_EDITS, **SHELFIE_EDITS, **NOCLEAR_EDITS}[edit](data)
    assert json.loads(saved) != data
    text = json.dumps(data)
    with pytest.raises(en.SaveFileError):
        registry.load_game(text)
    with pytest.raises(en.SaveFileError):
        registry.get(game).load_game(text)
    path = _written(tmp_path, "edited.json", text)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "digest verified" not in out + err and err.count("\n") == 1
    assert main(["replay", str(_written(tmp_path, "good.json", saved))]) == 0
    assert "digest verified" in capsys.readouterr().out


# -- reasons that are true ----------------------------------------------------------------------


def test_a_reroll_naming_its_dice_in_another_order_gets_the_true_reason():
    game = shelfie.new_game(seed=4)
    dice = game.dice
    assert game.state.phase == "roll" and len(set(dice)) > 1
    backwards = shelfie.Reroll(0, tuple(sorted(dice, reverse=True))[:3])
    reason = game.why_illegal(backwards)
    assert "not all on the table" not in reason and "lowest face first" in reason
    assert game.why_illegal(shelfie.Reroll(0, tuple(sorted(backwards.faces)))) is None
    absent = next(f for f in range(6) if f not in dice)
    reason = game.why_illegal(shelfie.Reroll(0, (absent,)))
    assert "the table has none" in reason


def test_reasons_name_the_faces_of_the_rules_not_the_default_colours():
    rules = ShelfieRules(colours=7, columns=3, dice=6, item_values=(1, 2, 3))
    game = shelfie.new_game(seed=2, rules=rules)
    claim = game.why_illegal(shelfie.Reroll(0, (5, 5, 5, 5, 5, 5, 5))).split(":")[0]
    assert claim == "You cannot re-roll 7 dice showing colour 6"  # face 5 of 7: no joker


def _shelfie_claims(state, action, reason: str) -> bool:
    """Whether what ``reason`` says about this position and action is true."""
    from collections import Counter

    from energies.games.shelfie import dice as D
    from energies.games.shelfie.state import AVAILABLE, CIRCLED, CROSSED

    shelf = state.shelves[state.active]
    if reason.startswith("It is seat"):
        return action.seat != state.active
    if "re-roll" in reason and ("the table has" in reason or "not all on the table" in reason):
        return bool(Counter(action.faces) - Counter(state.dice))
    if "lowest face first" in reason:
        return not Counter(action.faces) - Counter(state.dice) and list(action.faces) != sorted(
            action.faces
        )
    if reason.startswith("No re-rolls left"):
        return state.phase != "roll"
    if reason.startswith("Roll first"):
        return state.phase == "roll"
    if "may not cross out" in reason:
        return bool(shelfie.engine._placements(state))
    if "no available item left to cross out" in reason:
        return AVAILABLE not in shelf[action.row]
    if "is already circled" in reason or "is crossed out" in reason or "must wait" in reason:
        marks = {CIRCLED: "is already circled", CROSSED: "is crossed out"}
        opened = set(state.open_items(state.active))
        for row, column in action.items:
            if (row, column) not in opened:
                return marks.get(shelf[row][column], "must wait") in reason
        return False
    if "cannot make a separate combo" in reason:
        return not D.can_circle(action.items, state.dice, state.rules.colours)
    if "at most" in reason:
        return len(action.items) > state.rules.max_circles
    if "in order" in reason:
        return list(action.items) != sorted(set(action.items))
    return True  # shapes and ranges: checked by the engine's own type tests


def _noclear_claims(state, action, reason: str) -> bool:
    seat = state.players[state.active]
    pay = getattr(action, "pay", None)
    if reason.startswith("It is seat"):
        return action.seat != state.active
    if reason.startswith("Not now"):
        return True  # the phase names what to do instead: the engine's table
    if "short of" in reason:
        return any(n > h for n, h in zip(pay, seat.energy))
    if "top radioactivity token marks" in reason:
        return action.slot == state.top
    if "not face up" in reason:
        return action.card not in state.visible_uranium()
    if "already upgraded" in reason:
        return seat.machines.get(action.machine) is True
    if "only upgrade a machine you own" in reason:
        return action.machine not in seat.machines
    return True


def _fuzzed_actions(game, rng):
    """Hand-made actions near the legal ones: other seats, other faces, items and payments."""
    import dataclasses

    legal = game.legal_actions()
    for action in rng.sample(legal, min(6, len(legal))):
        for field in dataclasses.fields(action):
            value = getattr(action, field.name)
            if isinstance(value, int):
                yield dataclasses.replace(action, **{field.name: value + rng.choice((-1, 1, 2))})
            elif isinstance(value, tuple) and value and all(isinstance(v, int) for v in value):
                changed = list(value)
                rng.shuffle(changed)
                yield dataclasses.replace(action, **{field.name: tuple(changed)})
                changed[rng.randrange(len(changed))] += rng.choice((-1, 1))
                yield dataclasses.replace(action, **{field.name: tuple(changed)})
            elif isinstance(value, tuple) and value:
                yield dataclasses.replace(action, **{field.name: value[::-1]})
                yield dataclasses.replace(action, **{field.name: value + value[:1]})


@pytest.mark.parametrize("name", ["shelfie", "noclear"])
def test_every_reason_a_fuzz_provokes_is_true_of_the_position(name):
    from energies.kit import registry

    claims = {"shelfie": _shelfie_claims, "noclear": _noclear_claims}[name]
    rng = random.Random(37)
    checked = 0
    for seed in range(6):
        game = registry.new_game(name, players=2 + seed % 2, seed=seed)
        while not game.is_over:
            for action in _fuzzed_actions(game, rng):
                reason = game.why_illegal(action)
                if reason is not None:
                    checked += 1
                    assert claims(game.state, action, reason), (action, reason)
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 500


# -- arguments checked where they enter ---------------------------------------------------------


def test_companion_apps_refuse_another_game_and_seats_the_table_does_not_have():
    pytest.importorskip("ipywidgets")
    import energies as en
    from energies.games.noclear.widget import NoclearApp
    from energies.games.shelfie.widget import ShelfieApp

    for app, other in ((ShelfieApp, _noclear()), (NoclearApp, shelfie.new_game(seed=1))):
        for game in (other, en.new_game(seed=1), "shelfie"):
            with pytest.raises(TypeError, match=f"{app.__name__} plays .* games, not"):
                app(game)
    for seats, needle in [
        ({0: "human", 1: "ev", 5: "ev"}, r"no seat \[5\]"),
        ({0: "human", True: "ev"}, r"no seat \[True\]\) \(missing \[1\]"),
        ({0: "human"}, r"missing \[1\]"),
        ({0: "human", -1: "ev", 1: "ev"}, r"no seat \[-1\]"),
        ("human,ev", "seats must map each seat"),
        ({0: "human", 1: "fossil"}, "Unknown bot 'fossil'"),
        ({0: "human", 1: en.bots.make_bot("green")}, "player of CATAN: New Energies"),
    ]:
        with pytest.raises(ValueError, match=needle):
            ShelfieApp(shelfie.new_game(seed=1), seats=seats)
    with pytest.raises(ValueError, match="seed must be a whole number"):
        NoclearApp(seed=1.5)


@pytest.mark.parametrize("name", ["shelfie", "noclear"])
def test_play_refuses_new_energies_bots_for_a_companion_game_naming_the_seat(name):
    import energies as en
    from energies.kit import registry

    game = registry.new_game(name, players=2, seed=1)
    before = game.to_json()
    for bot in (en.bots.make_bot("fossil"), en.bots.make_bot("search")):
        with pytest.raises(ValueError, match="seat 1: .* player of CATAN: New Energies, not of"):
            en.play(game, [en.bots.RandomBot(), bot])
    with pytest.raises(ValueError, match="player of CATAN: New Energies"):
        en.simulate(2, ["random", en.bots.FossilRush], game=name)
    assert game.to_json() == before
    en.play(game, [en.bots.RandomBot(seed=1), registry.get(name).make_bot("random", seed=2)])


def test_new_energies_refuses_companion_bots():
    import energies as en

    with pytest.raises(ValueError, match="player of My Shelfie Dice, not of CATAN"):
        en.play(en.new_game(seed=1), [shelfie.make_bot("ev")] + [en.bots.RandomBot()] * 3)


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"footprint_weight": "1"}, "footprint_weight must be a number"),
        ({"footprint_weight": float("nan")}, "footprint_weight must be a number"),
        ({"footprint_weight": float("inf")}, "footprint_weight must be a number"),
        ({"footprint_weight": True}, "footprint_weight must be a number"),
        ({"rules": "standard"}, "rules must be a RuleSet"),
        ({"rules": {"players": 4}}, "rules must be a RuleSet"),
        ({"players": 4.0}, "players must be 3 or 4"),
        ({"players": True}, "players must be 3 or 4"),
        ({"max_turns": True}, "max_turns must be a whole number"),
        ({"max_turns": 10**6}, "max_turns=1000000 is refused"),
    ],
)
def test_the_learning_environment_checks_its_arguments_where_they_enter(kwargs, needle):
    env = pytest.importorskip("energies.env")
    pytest.importorskip("pettingzoo")
    with pytest.raises(ValueError, match=needle):
        env.aec.raw_env(**{"reward": "footprint", **kwargs})
    with pytest.raises(ValueError, match="illegal_reward must be a number"):
        env.single.SingleAgentEnv(illegal_reward=float("nan"))


@pytest.mark.parametrize(
    "call, needle",
    [
        (lambda: shelfie_insight.combo_probability((0, 0, 1, 2.5, 3, 5), 1, [(0, 2)]), "2.5"),
        (lambda: shelfie_insight.combo_probability((0, 0, 1, 2, 3, 5), True, [(0, 2)]), "rerolls"),
        (lambda: shelfie_insight.combo_probability((0, 0, 1, 2, 3, 5), 1, [(0, 2.0)]), "2.0"),
        (lambda: shelfie_insight.combo_probability((0, 0, 1, 2, 3, 5), 1, [(0, True)]), "True"),
        (lambda: shelfie_insight.reaches("ab", (0, 0, 1)), "items must be a list"),
        (lambda: shelfie_insight.reaches([(0, 0)], "001"), "dice must be a list of faces"),
        (lambda: shelfie_insight.reroll_probability((0, 0, 1), (1.0,), [(0, 1)]), "reroll"),
        (lambda: shelfie_insight.reroll_table((0, 0, 1), 1, [(0, 1)], rules={}), "ShelfieRules"),
    ],
)
def test_shelfie_odds_refuse_fractional_dice_instead_of_truncating(call, needle):
    with pytest.raises(ValueError, match=needle):
        call()


def test_public_entries_refuse_the_wrong_kind_of_argument_naming_it(tmp_path):
    import energies as en
    from energies import classroom
    from energies import insight as ne_insight
    from energies.bots.search import SearchPlayer

    game, noclear_game = shelfie.new_game(seed=1), _noclear()
    played = en.new_game(seed=1)
    en.play(played, [en.bots.RandomBot(seed=s) for s in range(4)])
    alternative = lambda bp: bp.legal_actions()[-1]
    for call, needle in [
        (lambda: en.new_game(names="abcd"), "names must be a list"),
        (lambda: shelfie.new_game(names="ab"), "names must be a list"),
        (lambda: en.load_game(played.to_json(), trust_rules="no"), "trust_rules"),
        (lambda: en.play(en.new_game(seed=2), [en.bots.RandomBot()] * 4, fast="no"), "fast"),
        (lambda: ne_insight.what_if(played, 1, alternative, samples=10**9), "samples"),
        (lambda: ne_insight.what_if(played, 1, alternative, horizon=10**9), "horizon"),
        (lambda: classroom.plot_class(None), "plot_class needs collect"),
        (lambda: game.score(True), "seat must be 0 to 1"),
        (lambda: game.score(9), "seat must be 0 to 1"),
        (lambda: game.draw(seats=[9]), "seat must be 0 to 1"),
        (lambda: noclear_game.energy(-1), "seat must be 0 to 1"),
        (lambda: noclear_game.production(True), "seat must be 0 to 1"),
        (lambda: noclear_game.uranium(2), "seat must be 0 to 1"),
        (lambda: game.save(123), "path must be a file path"),
        (lambda: shelfie.make_bot("ev", seed=1.5), "seed must be None or a whole number"),
        (lambda: en.bots.make_bot("fossil", seed="x"), "seed must be None or a whole number"),
        (lambda: SearchPlayer(budget=10**9), "budget must be a whole number of rollouts"),
        (lambda: SearchPlayer(depth=100), "depth must be"),
        (lambda: SearchPlayer(width=True), "width must be"),
        (lambda: SearchPlayer(confidence=float("nan")), "confidence"),
        (lambda: SearchPlayer(wide="no"), "wide must be True or False"),
    ]:
        with pytest.raises(ValueError, match=needle):
            call()


# -- classroom data -----------------------------------------------------------------------------


def _played(seed: int, actions: int | None = None):
    import energies as en

    game = en.new_game(seed=seed)
    if actions is None:
        en.play(game, [en.bots.RandomBot(seed=s) for s in range(4)])
    else:
        rng = random.Random(seed)
        for _ in range(actions):
            game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_class_folder_counts_a_copied_game_once_and_says_why(tmp_path):
    from energies import classroom

    game, other = _played(1), _played(2)
    for name in ("group1.json", "group3.json", "group4.json"):  # a copy under other names
        _written(tmp_path, name, game.to_json())
    _written(tmp_path, "group2.json", other.to_json())
    frame = classroom.collect(tmp_path)
    assert sorted(frame["group"]) == ["group1", "group2"]
    reasons = {r["source"].rsplit("/", 1)[-1]: r["reason"] for r in frame.attrs["skipped"]}
    assert set(reasons) == {"group3.json", "group4.json"}
    assert all("same game as" in r and "group1.json" in r for r in reasons.values())
    frame = classroom.collect([game.to_json(), game.to_json()])  # the same upload twice
    assert len(frame) == 1 and "text 1" in frame.attrs["skipped"][0]["reason"]


@pytest.fixture
def shared_folder(tmp_path):
    pytest.importorskip("anywidget")
    return tmp_path


def _app(folder, game):
    from energies.widgets import PlayApp

    return PlayApp(game, seats=dict.fromkeys(range(4), "human"), save_dir=folder)


def test_saving_never_replaces_another_groups_game_in_a_shared_folder(shared_folder):
    import energies as en

    theirs = _played(1, actions=30)
    theirs.save(shared_folder / "group1.json")
    kept = (shared_folder / "group1.json").read_text()
    for mine in (_played(2, actions=30), en.new_game(seed=1, names=["A", "B", "C", "D"])):
        app = _app(shared_folder, mine)
        written = app.save("group1")
        assert (shared_folder / "group1.json").read_text() == kept
        assert written.endswith(("group1-2.json", "group1-3.json"))
        assert "holds another game" in app.status_text and "name of its own" in app.status_text
        assert en.load_file(written).to_json() == mine.to_json()
    other_moves = _played(1, actions=30)
    other_moves.undo(5)
    other_moves.apply(random.Random(9).choice(other_moves.legal_actions()))
    if other_moves.actions != theirs.actions[:26]:
        app = _app(shared_folder, other_moves)
        assert app.save("group1").endswith("group1-4.json")
    (shared_folder / "notes.json").write_text('{"teacher": "do not delete"}')
    app = _app(shared_folder, _played(3, actions=5))
    assert app.save("notes").endswith("notes-2.json")
    assert "not a save file" in app.status_text
    assert (shared_folder / "notes.json").read_text() == '{"teacher": "do not delete"}'


def test_saving_the_same_game_further_on_replaces_it_but_never_with_less(shared_folder):
    import energies as en

    game = _played(1, actions=20)
    app = _app(shared_folder, game)
    assert app.save("group1").endswith("group1.json")
    rng = random.Random(3)
    for _ in range(10):
        game.apply(rng.choice(game.legal_actions()))
    assert app.save("group1").endswith("group1.json")  # the same game, longer: replaced
    assert app.save("group1").endswith("group1.json")  # and again, unchanged: fine
    assert len(en.load_file(shared_folder / "group1.json").actions) == 30
    game.undo(10)  # the app's game is now behind the file (changed outside the app)
    # issue 33: never with less, and never lost either: a name of its own, said in the app
    assert app.save("group1").endswith("group1-2.json")
    assert "further on (30 actions; this one has 20)" in app.status_text
    assert app.status_kind == "warn" and "load it" in app.page["file"]["note"]
    assert len(en.load_file(shared_folder / "group1.json").actions) == 30
    assert sorted(p.name for p in shared_folder.iterdir()) == ["group1-2.json", "group1.json"]
