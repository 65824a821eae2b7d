"""PlayApp fed what a student's page (or a crafted message) can send: mis-clicks, double clicks,
actions it never offered, odd file names. Each is refused with a sentence in the status line,
no traceback kept in ``last_error``, and the game unchanged (its digest and action log)."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from energies.actions import RollDice
from test_widgets import NAMES, act, until_human_main_phase

import energies as en
from energies import sandbox as sb
from energies.kit.fields import show
from energies.widgets import PlayApp


@pytest.fixture
def app(tmp_path):
    app = PlayApp(en.new_game(seed=3, names=NAMES), chart=False, save_dir=tmp_path)
    until_human_main_phase(app)
    return app


def refused(app: PlayApp, content: dict, kind: str = "error") -> str:
    """Send ``content``; assert the game did not change and no traceback was kept; return the
    status line."""
    before, actions = app.game.digest(), list(app.game.actions)
    app.last_error = None
    assert not app.message(content)
    assert app.game.digest() == before and app.game.actions == actions
    assert app.last_error is None, app.last_error
    assert app.status_kind == kind, app.status_text
    return app.status_text


@pytest.mark.parametrize("seat", [-1, 4, 1000])
def test_an_action_for_a_seat_not_at_the_table_is_refused_with_a_sentence(app, seat):
    text = refused(app, {"type": "act", "action": {"kind": "end_turn", "seat": seat}})
    assert text == f"There is no seat {seat} at this table (seats 0 to 3)."


def test_the_page_cannot_make_teacher_sandbox_edits(app):
    give = {"kind": "sandbox", "seat": 0, "op": "give", "args": ["steel", 10]}
    assert "sandbox edit is not a move" in refused(app, {"type": "act", "action": give})
    no_seat = {"kind": "sandbox", "seat": -1, "op": "dice", "args": [3, 4]}
    assert "sandbox edit is not a move" in refused(app, {"type": "act", "action": no_seat})


def test_a_double_click_buys_or_trades_once_and_says_so(app):
    g, seat = app.game, app.game.current_seat
    sb.give(g, seat, steel=2, food=2, fiber=2, brick=8)
    app.refresh()
    buy = next(o for o in app.page["cards"] if o["kind"] == "buy_dev_card")
    trade = next(r for r in app.page["supply"] if r["give"] == "brick")["options"][0]
    for option in (buy, trade):
        click = {"type": "act", "action": option["a"], "decision_no": app.page["decision_no"]}
        assert app.message(click)
        text = refused(app, dict(click), "warn")
        assert text.startswith("You clicked “") and "twice: it was done once" in text
    assert len(g.state.players[seat].dev_cards) == 1 and g.state.players[seat].hand["brick"] == 4
    # a new click on the redrawn page does it again
    assert act(app, next(r for r in app.page["supply"] if r["give"] == "brick")["options"][0])
    assert g.state.players[seat].hand["brick"] == 0


def test_a_double_click_on_step_or_undo_moves_once_and_says_so(app):
    """The second click of a double click on "Step" or "Undo" carries the decision its first
    click was made on: it used to make a second bot move, or undo a second human move."""
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    g = app.game
    assert g.current_seat not in app.humans
    step = {"type": "step", "decision_no": app.page["decision_no"]}
    n = len(g.actions)
    assert app.message(step)
    assert len(g.actions) > n
    n = len(g.actions)
    assert refused(app, dict(step), "warn") == (
        "You clicked “Step” twice: it was done once. Click again to repeat it."
    )
    assert app.message({"type": "step", "decision_no": app.page["decision_no"]})
    assert len(g.actions) > n
    until_human_main_phase(app)
    for _ in range(2):  # two human moves to undo
        assert act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
        until_human_main_phase(app)
    undo = {"type": "undo", "decision_no": app.page["decision_no"]}
    assert app.message(undo)
    n = len(g.actions)
    assert refused(app, dict(undo), "warn") == (
        "You clicked “Undo” twice: it was done once. Click again to repeat it."
    )
    assert len(g.actions) == n


def test_a_click_made_on_an_earlier_decision_is_not_applied_to_the_next(tmp_path):
    """A 7 with 12 cards: two quick clicks on two cards to discard, both made on the first
    picture. The second is not applied to the decision that follows the first discard (the
    player has not seen it; it used to be applied, being legal); the page says so."""
    g = en.new_game(players=4, seed=47, names=NAMES)  # seed 47: seat 0 rolls a 7 at once
    sb.give(g, 0, brick=4, lumber=4)
    g.apply(RollDice(0))
    app = PlayApp(g, chart=False, save_dir=tmp_path)
    seen = app.page["decision_no"]
    lumber, brick = (
        next(
            o
            for o in app.page["decision"]["options"]
            if o["a"]["kind"] == "discard_card" and o["a"]["card"] == kind
        )
        for kind in ("lumber", "brick")
    )
    hand = dict(g.state.players[0].hand)
    assert app.message({"type": "act", "action": lumber["a"], "decision_no": seen})
    text = refused(app, {"type": "act", "action": brick["a"], "decision_no": seen}, "warn")
    assert text == (
        "Your earlier click “Ada discards 1 brick” came after the board changed: nothing was "
        "done. Click again if you still want it."
    )
    now = g.state.players[0].hand
    assert (now["lumber"], now["brick"]) == (hand["lumber"] - 1, hand["brick"])
    assert app.message({"type": "act", "action": brick["a"], "decision_no": seen + 1})
    assert g.state.players[0].hand["brick"] == hand["brick"] - 1


@pytest.mark.parametrize("made_on", [True, "3", 2.0, [1]])
def test_a_click_whose_decision_number_is_not_a_number_changes_nothing(app, made_on):
    end = next(o for o in app.page["turn"] if o["kind"] == "end_turn")
    for message in ({"type": "act", "action": end["a"]}, {"type": "step"}, {"type": "undo"}):
        message = {**message, "decision_no": made_on}
        text = refused(app, message)
        assert text == (
            f"The page sent a {message['type']!r} message whose 'decision_no' is "
            f"{show(made_on)}, not a number."
        )


def test_the_decision_number_changes_with_the_game_and_only_with_it(app):
    g = app.game
    seen = app.page["decision_no"]
    # redraws that change nothing: the charts, an option, a refused click, a refresh
    app.show_charts(True)
    app.set_option("ask_on_bot_turns", False)
    refused(app, {"type": "act", "action": {"kind": "build_road", "seat": 0, "path": 0}})
    app.refresh()
    assert app.page["decision_no"] == seen
    # every change of the game: a move, a sandbox edit, an undo, a load
    numbers = [seen]
    assert act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    numbers.append(app.page["decision_no"])
    sb.give(g, g.current_seat, brick=1)
    app.refresh()
    numbers.append(app.page["decision_no"])
    saved = g.to_json()
    assert app.undo()
    numbers.append(app.page["decision_no"])
    assert app.load_text(saved)
    numbers.append(app.page["decision_no"])
    assert numbers == sorted(set(numbers)), numbers


def test_every_page_message_is_answered_after_its_redraw(app):
    """The page's "Working…" note lasts until each click's token comes back in ``answered``
    (after the redraw the click caused, also for a refused or unknown message); a token that
    is not a short text is not echoed."""
    changes = []
    app.view.observe(lambda change: changes.append(change["name"]), names=["view", "answered"])
    messages = [
        {"type": "step"},  # refused: a human decides
        {"type": "no such message"},
        {"type": "act", "action": "junk"},
        {"type": "act", "action": next(o for o in app.page["turn"] if o["a"])["a"]},
    ]
    for number, content in enumerate(messages, 1):
        changes.clear()
        app._on_view_message(app.view, {**content, "click": f"page1:{number}"}, [])
        assert app.view.answered == f"page1:{number}"
        assert changes[-1] == "answered" and "view" in changes, changes
    for token in (None, 7, ["page1:9"], "x" * 65):
        app._on_view_message(app.view, {"type": "charts", "open": False, "click": token}, [])
        assert app.view.answered == f"page1:{len(messages)}"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../escape.json", "files stay in the folder"),
        ("notes.txt", "a save file ends in .json"),
        (".json", "a save file needs a name before .json"),
        ("bad\x00name.json", "a file name cannot contain a NUL character"),
    ],
)
@pytest.mark.parametrize("doing", ["save", "load"])
def test_a_refused_file_name_says_why_without_something_went_wrong(app, name, why, doing):
    text = refused(app, {"type": doing, "name": name})
    assert text.startswith(f"Cannot {doing}: {why}"), text


def test_load_without_a_name_asks_for_one(app):  # an empty name saves under a fresh name
    assert refused(app, {"type": "load", "name": " "}) == "Cannot load: type a file name first."


def test_saving_into_a_missing_folder_makes_it(app, tmp_path):
    # a class folder nobody made yet: the save makes it (inside the app's folder) and says so
    assert app.message({"type": "save", "name": "no/such/folder.json"})
    assert (tmp_path / "no" / "such" / "folder.json").is_file()
    assert app.status_kind == "ok" and app.page["file"]["note"] == app.status_text


def test_a_folder_that_cannot_be_made_says_why_in_the_file_tab(app, tmp_path):
    (tmp_path / "no").write_text("a file where the folder would go")
    text = refused(app, {"type": "save", "name": "no/such/folder.json"})
    assert text.startswith(f"Not saved: the folder {tmp_path / 'no' / 'such'} could not be made")
    assert app.page["file"] == {**app.page["file"], "note": text, "kind": "error"}


def test_loading_a_three_seat_game_names_its_seats_with_its_own_names(app):
    three = en.new_game(seed=1, players=3, names=["Xu", "Yan", "Zoe"])
    assert app.message({"type": "upload", "name": "three.json", "text": three.to_json()})
    assert app.status_text.endswith(
        "the seats are now Xu = human, Yan = FossilRush, Zoe = GreenInvestor."
    ), app.status_text


def test_an_offers_answer_is_not_shown_once_the_offer_is_undone_or_another_game_loaded(app):
    sb.give(app.game, app.game.current_seat, brick=2, lumber=2)
    app.refresh()
    saved = app.game.to_json()
    for undo_or_load in ({"type": "undo"}, {"type": "upload", "name": "u.json", "text": saved}):
        assert act(app, app.page["offers"]["options"][0])
        assert app.page["offer_answer"]
        assert app.message(undo_or_load)
        assert app.game.actions[-1].kind != "respond_to_trade"
        assert app.page["offer_answer"] == ""


@pytest.mark.parametrize("value", [None, "false", "true", [], 2])
def test_an_option_without_a_clear_yes_or_no_changes_nothing(app, value):
    for name in ("ask_on_bot_turns", "propose_next"):
        message = {"type": "option", "name": name, "value": value}
        if value is None:
            del message["value"]  # a message without its value
        before = (app.ask_on_bot_turns, dict(app._propose_next))
        assert refused(app, message) == f"The option {name!r} is true or false, not {value!r}."
        assert (app.ask_on_bot_turns, app._propose_next) == before


def test_a_refused_click_keeps_the_strip_of_what_the_bots_did(app):
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    app.message({"type": "bots"})
    strip = app.page["strip"]
    assert len(strip["lines"]) > 1
    wrong = {"kind": "build_road", "seat": app.game.current_seat, "path": 0}
    refused(app, {"type": "act", "action": wrong, "decision_no": app.page["decision_no"]})
    assert app.page["strip"] == strip


@pytest.mark.parametrize("choice", [2, -1, True, "0", None])
def test_click_spot_with_a_choice_the_chooser_does_not_offer(app, choice):
    sb.give(app.game, app.game.current_seat, science=5)
    app.refresh()
    key = next(k for k, s in app.page["spots"].items() if len(s.get("options", ())) == 2)
    before = app.game.digest()
    assert not app.click_spot(key, choice)
    assert app.game.digest() == before and app.status_kind == "error"
    assert app.status_text == f"Choose 0 to 1 at {key}, not {choice!r}."


@pytest.mark.parametrize("turn", [999, -1, "3"])
def test_what_if_widget_select_turn_of_a_turn_it_does_not_have(turn):
    from energies.insight import WhatIfWidget

    g = en.new_game(seed=3)
    while g.turn < 3:  # two whole turns, each ended as soon as it may be
        legal = g.legal_actions()
        g.apply(next((a for a in legal if a.kind in ("end_turn", "roll_dice")), legal[0]))
    w = WhatIfWidget(g, samples=1, horizon=1)
    shown = (w.turn_dropdown.value, w.alt_dropdown.value)
    w.select_turn(turn)
    assert (w.turn_dropdown.value, w.alt_dropdown.value) == shown
    assert f"There is no turn {turn!r} to choose here (turns 1 to " in w.status.value


@pytest.mark.parametrize(
    "options",
    [
        {"step_delay": float("nan")},
        {"step_delay": float("inf")},
        {"step_delay": "1"},
        {"step_delay": -1},
        {"max_bot_actions": 0},
        {"max_bot_actions": "many"},
    ],
)
def test_a_bot_pause_or_limit_that_would_fail_or_hang_later_is_refused_at_once(options):
    name, value = next(iter(options.items()))
    with pytest.raises(ValueError, match=f"{name} must be .* or more.*, not {value!r}"):
        PlayApp(en.new_game(seed=3), chart=False, **options)
