"""Saving never loses a group's game (issue 33): the PlayApp's autosave, a re-run cell that
plays on instead of starting over, fresh names instead of overwrites, a failure said in the
app, and the companion games' Save button. Driven from Python as in tests/test_widgets.py."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from test_widgets import NAMES, act, next_move

import energies as en
from energies.bots import make_bot
from energies.games.noclear.widget import NoclearApp
from energies.games.shelfie.widget import ShelfieApp
from energies.widgets import PlayApp

SEATS = {0: "human", 1: "human", 2: "human", 3: "FossilRush"}


def fresh_game(seed: int = 101, names=NAMES) -> en.Game:
    return en.new_game(seed=seed, names=names, rules=en.RuleSet.classroom())


def group_app(folder, game=None, **options) -> PlayApp:
    """The app of a group cell: the short game, saved after every move as group1.json."""
    game = game or fresh_game()
    return PlayApp(
        game, seats=SEATS, chart=False, save_dir=folder, autosave="group1.json", **options
    )


def play(app: PlayApp, moves: int) -> None:
    """``moves`` clicks of the students (bots answer and play in between)."""
    g = app.game
    while moves and not g.is_over:
        if g.current_seat not in app.humans:
            app.message({"type": "bots"})
            continue
        assert act(app, next_move(app)), app.status_text
        moves -= 1


def test_autosave_writes_the_game_after_every_move(tmp_path):
    app = group_app(tmp_path)
    file = tmp_path / "group1.json"
    assert not file.exists()  # nothing to lose before the first move
    play(app, 5)
    saved = en.load_game(file.read_text())
    assert saved.actions == app.game.actions and saved.digest() == app.game.digest()
    assert app.page["file"]["autosave"] == "group1.json"
    assert app.page["file"]["note"].startswith("Saved automatically after every move: group1.json")
    assert app.page["file"]["kind"] == "ok"


def test_a_rerun_cell_plays_on_from_the_saved_game(tmp_path):
    # the guide's failure: the cell ran again in Voila on a fresh game and wrote 0 actions
    # over the real game. Now the fresh app finds its game in the file and plays on.
    first = group_app(tmp_path)
    play(first, 12)
    text = (tmp_path / "group1.json").read_text()
    again = group_app(tmp_path)
    assert again.game.actions == first.game.actions and again.game.digest() == first.game.digest()
    assert again.status_text.startswith(
        f"Welcome back: your game from group1.json goes on (turn {first.game.turn},"
    )
    assert (tmp_path / "group1.json").read_text() == text  # not touched by starting
    play(again, 3)
    assert len(en.load_game((tmp_path / "group1.json").read_text()).actions) > len(
        first.game.actions
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["group1.json"]


def test_a_rerun_after_the_end_starts_a_new_game_under_a_name_of_its_own(tmp_path):
    finished = fresh_game()
    en.play(finished, [make_bot(b) for b in ("balanced", "green", "freerider", "fossil")])
    (tmp_path / "group1.json").write_text(finished.to_json())
    app = group_app(tmp_path)
    assert app.game.actions == [] and "holds this game finished" in app.status_text
    play(app, 1)
    assert app.autosave_path.name == "group1-2.json" and app.status_kind == "warn"
    assert "group1.json holds this game further on" in app.status_text
    play(app, 2)
    assert (tmp_path / "group1.json").read_text() == finished.to_json()
    assert "group1.json holds this game further on" in app.page["file"]["note"]
    assert app.page["file"]["autosave"] == "group1-2.json"
    # and the next re-run finds the unfinished game under its new name
    again = group_app(tmp_path)
    assert again.game.actions == app.game.actions and again.autosave_path.name == "group1-2.json"


def test_a_save_never_replaces_another_groups_game_or_a_longer_one(tmp_path):
    other = fresh_game(names=["Xu", "Yan", "Zoe", "Fossil Fred"])
    (tmp_path / "group1.json").write_text(other.to_json())
    app = group_app(tmp_path)
    play(app, 3)
    assert (tmp_path / "group1.json").read_text() == other.to_json()
    assert app.autosave_path.name == "group1-2.json"
    assert "group1.json holds another game" in app.page["file"]["note"]
    # the guide's old cell, app.save("group1-2.json") on a new game of the same start
    fresh = PlayApp(fresh_game(), seats=SEATS, chart=False, save_dir=tmp_path)
    kept = (tmp_path / "group1-2.json").read_text()
    written = fresh.save("group1-2.json")
    assert written.endswith("group1-2-2.json") and (tmp_path / "group1-2.json").read_text() == kept
    assert "holds this game further on" in fresh.status_text and "load it" in fresh.status_text


def test_the_groups_own_file_is_replaced_after_an_undo_and_another_apps_write_is_kept(tmp_path):
    app = group_app(tmp_path)
    play(app, 8)
    app.undo()  # the file holds this game further on, but the app wrote it: replace it
    assert app.autosave_path.name == "group1.json"
    assert app.save("group1.json").endswith("group1.json")
    assert en.load_game((tmp_path / "group1.json").read_text()).actions == app.game.actions
    # a second tab plays the same file on: this app no longer owns what is in the file
    other_tab = group_app(tmp_path)
    play(other_tab, 4)
    theirs = (tmp_path / "group1.json").read_text()
    play(app, 4)
    assert (tmp_path / "group1.json").read_text() == theirs
    assert app.autosave_path.name == "group1-2.json"


def test_a_failed_autosave_says_why_in_the_app(tmp_path):
    folder = tmp_path / "class"
    folder.write_text("a file where the class folder should be")
    app = group_app(folder)
    play(app, 1)
    assert app.status_kind == "error"
    assert f"⚠ Not saved: the folder {folder} could not be made" in app.status_text
    assert app.page["file"]["kind"] == "error" and app.page["file"]["note"].startswith("Not saved")
    assert app.page["status"] == {"text": app.status_text, "kind": "error"}


def test_autosave_takes_a_file_name_in_the_folder(tmp_path):
    for bad, why in (("../x.json", "outside it"), ("x.txt", "ends in .json"), (3, "file name")):
        with pytest.raises(ValueError, match=why):
            PlayApp(fresh_game(), save_dir=tmp_path, autosave=bad)


def test_save_is_offered_after_the_game_is_over(tmp_path):
    g = fresh_game()
    en.play(g, [make_bot(b) for b in ("balanced", "green", "freerider", "fossil")])
    app = PlayApp(g, seats=SEATS, chart=False, save_dir=tmp_path)
    assert app.page["over"] and app.page["file"]["folder"] == str(tmp_path)
    assert app.message({"type": "save", "name": "end"})
    assert app.page["file"]["note"].startswith(f"Saved {len(g.actions)} actions to end.json")
    assert json.loads((tmp_path / "end.json").read_text())["actions"]


@pytest.mark.parametrize("App", [ShelfieApp, NoclearApp])
def test_the_companion_apps_save_without_losing_a_game(tmp_path, App):
    app = App(save_dir=tmp_path)
    app.play(app.game.legal_actions()[0])
    app.file_name.value = "ours"
    app.save_button.click()
    assert app.status_kind == "ok" and (tmp_path / "ours.json").exists()
    other = App(seed=9, save_dir=tmp_path)
    other.file_name.value = "ours.json"
    other.save_button.click()
    assert app.game.to_json() == (tmp_path / "ours.json").read_text()  # kept
    assert other.status_kind == "warn" and "ours-2.json" in other.status_text
    other.file_name.value = "../away"
    other.save_button.click()
    assert other.status_kind == "error" and "outside it" in other.status_text


def test_loading_another_game_never_autosaves_it_over_the_groups_game(tmp_path):
    app = group_app(tmp_path)
    play(app, 6)
    ours = (tmp_path / "group1.json").read_text()
    other = fresh_game(seed=7)
    assert app.load_text(other.to_json(), "other.json")
    play(app, 2)
    assert (tmp_path / "group1.json").read_text() == ours
    assert app.autosave_path.name == "group1-2.json"
    assert en.load_game((tmp_path / "group1-2.json").read_text()).seed == 7
    # loading the group's own game back plays on in its own file
    assert app.load("group1.json") and app.game.to_json() == ours
    play(app, 2)
    assert app.autosave_path.name == "group1.json"
    assert en.load_game((tmp_path / "group1.json").read_text()).actions == app.game.actions
    assert sorted(p.name for p in tmp_path.iterdir()) == ["group1-2.json", "group1.json"]
