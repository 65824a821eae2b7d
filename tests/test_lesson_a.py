"""Lesson A runs from the teacher guide alone (issue 33): lesson 02's group cell, the group's
game it builds, and the guide's timings, which must be the counted games' numbers
(benchmarks/lesson_a.py), not a guess."""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

import energies as en
from energies.widgets import PlayApp, class_folder, group_app, group_seed

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
import lesson_a  # benchmarks/ is a folder of scripts, not a package

GUIDE = REPO / "notebooks" / "TEACHER_GUIDE.md"
PLAY = REPO / "notebooks" / "02-play.ipynb"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ENERGIES_CLASS_FOLDER", str(tmp_path))
    return tmp_path


def test_a_groups_game_short_rules_its_seed_its_names_and_a_bot(folder):
    app = group_app(3, ["Ana", "Ben", "Cleo"])
    g = app.game
    assert isinstance(app, PlayApp) and g.rules == en.RuleSet.classroom()
    assert g.seed == group_seed(3) == 103 and g.names == ["Ana", "Ben", "Cleo", "Fossil Fred"]
    assert app.seats == {0: "human", 1: "human", 2: "human", 3: "FossilRush"}
    assert (
        app.save_dir == folder / "lesson02"
        and app.autosave_path == folder / "lesson02" / "group3.json"
    )
    assert not app.ask_on_bot_turns and not app.propose_between_humans and app.auto_bots
    pair = group_app(4, ["Ana", "Ben"], folder="round2")
    assert pair.game.names == ["Ana", "Ben", "Fossil Fred", "Green Grace"]
    assert pair.seats == {0: "human", 1: "human", 2: "FossilRush", 3: "GreenInvestor"}
    assert pair.autosave_path == folder / "round2" / "group4.json"
    alone = group_app(5, ["Fossil Fred"])  # a student's name is never given to a bot too
    assert alone.game.names == ["Fossil Fred", "Green Grace", "Balanced Bo", "Free Rider Flo"]
    assert alone.seats == {0: "human", 1: "GreenInvestor", 2: "Balanced", 3: "FreeRider"}
    assert group_app(1, ["A", "B", "C", "D"]).seats == {s: "human" for s in range(4)}


def test_the_class_folder_is_beside_the_notebook_unless_the_teacher_names_one(
    tmp_path, monkeypatch
):
    monkeypatch.delenv("ENERGIES_CLASS_FOLDER", raising=False)
    monkeypatch.chdir(tmp_path)
    assert class_folder() == tmp_path / "class-games"
    monkeypatch.setenv("ENERGIES_CLASS_FOLDER", str(tmp_path / "shared"))
    assert class_folder() == tmp_path / "shared"


@pytest.mark.parametrize(
    ("group", "names", "words"),
    [
        (0, ["Ana"], "group must be a whole number from 1 to 999, not 0"),
        (True, ["Ana"], "not True"),
        (1.0, ["Ana"], "not 1.0"),
        (1, "Ana", "names must be a list of 1 to 4 names"),
        (1, [], "1 to 4 names, not 0"),
        (1, ["A", "B", "C", "D", "E"], "not 5"),
        (1, ["Ana", " ana"], "two players are named 'ana'"),
        (1, [7], "every name must be a text"),
    ],
)
def test_a_wrong_group_number_or_names_say_what_is_wrong(folder, group, names, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        group_app(group, names)
    assert not any(folder.iterdir())


@pytest.mark.parametrize("folder", ["", "/tmp", "../elsewhere", 3])
def test_a_groups_folder_stays_in_the_class_folder(tmp_path, monkeypatch, folder):
    monkeypatch.setenv("ENERGIES_CLASS_FOLDER", str(tmp_path))
    with pytest.raises(ValueError, match="folder must be a folder name inside the class folder"):
        group_app(1, ["Ana"], folder=folder)


def _group_cell() -> str:
    cells = json.loads(PLAY.read_text(encoding="utf-8"))["cells"]
    return next("".join(c["source"]) for c in cells if "group_app(" in "".join(c["source"]))


def test_lesson_02s_group_cell_is_what_the_guide_counts():
    # the benchmark plays exactly this cell: its names and no other option
    cell = _group_cell()
    tree = ast.parse(cell)
    values = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in ("GROUP", "NAMES")
    }
    assert values == {"GROUP": 1, "NAMES": list(lesson_a.NAMES)}
    assert "app = en.widgets.group_app(GROUP, NAMES)\n" in cell
    # nothing else to edit: every other line of the cell is a comment or the app
    code = [line for line in cell.splitlines() if line and not line.startswith("#")]
    assert code[2:] == ["app = en.widgets.group_app(GROUP, NAMES)", "app"]


def test_the_guides_timings_are_the_counted_games():
    counts = lesson_a.play_all(lesson_a.GROUPS)
    block = lesson_a.guide_block(counts)
    guide = GUIDE.read_text(encoding="utf-8")
    assert block in guide, (
        "the teacher guide's timings differ from the counted games: run "
        "python benchmarks/lesson_a.py --write"
    )
    # the plan gives the groups the minutes the count assumes, and the groups reach the end
    start = lesson_a.PLAY_START
    assert f"| {start}–{start + lesson_a.PLAY_MINUTES} |" in guide
    assert all(c.outcome in ("empty_bag", "everyone_loses", "victory_points") for c in counts)
    typical = sorted(
        c.minutes(lesson_a.DECISION_S, lesson_a.HANDOVER_S, lesson_a.CLICK_S) for c in counts
    )
    assert typical[len(typical) // 2] <= lesson_a.PLAY_MINUTES
    assert all(c.n("proposal") == 0 for c in counts)  # rule 12.1: nobody passes the laptop for that
