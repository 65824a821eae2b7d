"""Structure of the lesson notebooks (their cells are executed by ``pytest --nbval-lax``).

Every lesson starts with a title, three "What you'll learn" lines and a Binder
launch link, carries kernelspec metadata (so no kernel dialog appears), was
committed executed top to bottom, and marks at least one seeded summary cell
with ``# NBVAL_CHECK_OUTPUT`` so nbval compares it with the committed output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
BINDER = "https://mybinder.org/v2/gh/"


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_first_lesson_exists():
    assert (NOTEBOOKS / "00-start-here.ipynb").exists()


def header_text(path: Path) -> str:
    """The lesson's header: its first cell, and for an app-first lesson (02 opens on the
    PlayApp so a projector shows the board at once) the markdown up to its goals block."""
    cells = load(path)["cells"]
    text = "".join(cells[0]["source"])
    for cell in cells[1:4]:
        if "**What you'll learn**" in text:
            break
        if cell["cell_type"] == "markdown":
            text += "\n" + "".join(cell["source"])
    return text


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_header_has_title_three_goals_and_binder_link(path):
    assert load(path)["cells"][0]["cell_type"] == "markdown"
    text = header_text(path)
    number = path.stem[:2]
    # a heading, or a compact bold title line for the app-first lesson
    assert re.match(rf"(# |\*\*){number} · \S", text), "title line '# NN · Title'"
    goals = text.split("**What you'll learn**", 1)
    assert len(goals) == 2, "a 'What you'll learn' block"
    numbered = re.findall(r"^\d\. \S", goals[1], flags=re.MULTILINE)
    assert len(numbered) == 3, "exactly three numbered learning goals"
    assert f"{BINDER}" in text and f"notebooks/{path.name}" in text, (
        "a Binder link to this notebook"
    )


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_kernelspec_and_sequential_execution(path):
    nb = load(path)
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    counts = [c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code"]
    assert counts and None not in counts, "every code cell was executed"
    assert counts == list(range(1, len(counts) + 1)), "executed top to bottom in one run"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_notebook_uses_the_package_and_smoke_switch(path):
    code = ["".join(c["source"]) for c in load(path)["cells"] if c["cell_type"] == "code"]
    assert "import energies as en" in code[0]
    assert 'SMOKE = bool(os.environ.get("CI"))' in code[0]
    assert any(src.lstrip().startswith("# NBVAL_CHECK_OUTPUT") for src in code)
    assert not any("Traceback" in json.dumps(c.get("outputs", [])) for c in load(path)["cells"])


# Each lesson that plays a game shows its app, kept in a variable (issue 33: lesson 07's group
# cell built the app and never showed it; 09 and 10 never showed ShelfieApp and NoclearApp).
LESSON_APPS = {
    "02-play": ("en.widgets.group_app(",),
    "07-class-experiment": ("en.widgets.group_app(", "en.widgets.PlayApp("),
    "09-chance-and-choice": ("ShelfieApp(",),
    "10-nuclear-race": ("NoclearApp(",),
}


@pytest.mark.parametrize("stem", sorted(LESSON_APPS))
def test_a_lesson_with_an_app_shows_it(stem):
    import ast

    cells = [c for c in load(NOTEBOOKS / f"{stem}.ipynb")["cells"] if c["cell_type"] == "code"]
    building = [c for c in cells if any(app in "".join(c["source"]) for app in LESSON_APPS[stem])]
    assert building, f"{stem} has no cell that builds its app"
    for cell in building:
        body = ast.parse("".join(cell["source"])).body
        kept = {
            name.id
            for node in body
            if isinstance(node, ast.Assign)
            for name in ast.walk(node)
            if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store)
        }
        last = body[-1]
        assert isinstance(last, ast.Expr) and isinstance(last.value, ast.Name), (
            "the cell ends by showing the app"
        )
        assert last.value.id in kept, "the app is kept in a variable (app.save, app.game)"
        views = [
            o
            for o in cell["outputs"]
            if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
        ]
        assert views, "the committed notebook shows the app"
