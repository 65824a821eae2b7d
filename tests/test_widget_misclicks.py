"""PlayApp fed what a student's page (or a crafted message) can send: mis-clicks, double clicks,
actions it never offered, odd file names. Each is refused with a sentence in the status line,
no traceback kept in ``last_error``, and the game unchanged (its digest and action log)."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from test_widgets import NAMES, act, until_human_main_phase

import energies as en
from energies import sandbox as sb
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
        click = {"type": "act", "action": option["a"], "rev": app.page["rev"]}
        assert app.message(click)
        text = refused(app, dict(click), "warn")
        assert text.startswith("You clicked “") and "twice: it was done once" in text
    assert len(g.state.players[seat].dev_cards) == 1 and g.state.players[seat].hand["brick"] == 4
    # a new click on the redrawn page does it again
    assert act(app, next(r for r in app.page["supply"] if r["give"] == "brick")["options"][0])
    assert g.state.players[seat].hand["brick"] == 0


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
    refused(app, {"type": "act", "action": wrong, "rev": app.page["rev"]})
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
