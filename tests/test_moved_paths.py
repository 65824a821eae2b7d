"""Release 0.2's module paths keep working for one release (``energies/_moved.py``).

An old path such as ``energies.simulate`` must give the very module at its new place (so
classes and functions are the same objects whichever path named them) and warn, naming that
place. The facade's functions ``en.play`` and ``en.simulate`` must survive the import of the
old modules of the same names, and the public modules ``en.actions``, ``en.board`` and
``en.sandbox`` stay without a warning. Everything runs in one fresh interpreter: the first
import of an old path is the one that warns.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import energies as en
from energies._moved import MOVED

REPO = Path(__file__).resolve().parents[1]

# The old paths that release 0.2's lessons, benchmarks, browser build and tests imported (and
# so, surely, users): each must stay in MOVED for the release that warns.
OLD_PATHS_IN_USE = (
    "energies.agents",  # lesson 08
    "energies.simulate",  # lessons, benchmarks, lite/games_digest.py (play_one)
    "energies.play",
    "energies.game",
    "energies.game_loading",
    "energies.rules",
    "energies.rule_bounds",
    "energies.rule_checks",
    "energies.state",
    "energies.engine",
    "energies.checks",
    "energies.decisions",
    "energies.layouts",
    "energies.view",
    "energies.invariants",
    "energies.search",
    "energies.search_candidates",
    "energies.evaluation",
    "energies.plan",
    "energies.files",
    "energies.save_files",
    "energies.encoding",
    "energies.tracking",
    "energies.widgets.board_view",
)

PUBLIC_MODULES = {  # en.<name>: public, kept at the old path without a warning
    "actions": "energies.newenergies.actions",
    "board": "energies.newenergies.board",
    "sandbox": "energies.newenergies.sandbox",
}

# imported last, as a plain statement of the script, under Python's own warning filters
SHOWN_BY_DEFAULT = "energies.play"

_SCRIPT = """
import importlib, json, sys, types, warnings

def deprecations(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = action()
    found = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    return result, [m for m in found if "energies" in m]

report = {}
en, report["facade_warnings"] = deprecations(lambda: importlib.import_module("energies"))
from energies._moved import MOVED

report["public"] = {}
for name, new in PUBLIC_MODULES.items():
    module, found = deprecations(lambda: importlib.import_module(f"energies.{name}"))
    report["public"][name] = {"warnings": found, "same": module is importlib.import_module(new)}

report["target_errors"] = {}
for new in sorted(set(MOVED.values())):
    try:
        importlib.import_module(new)
    except Exception as exc:
        report["target_errors"][new] = repr(exc)

report["old"] = {}
for old, new in sorted(MOVED.items()):
    if old == SHOWN_BY_DEFAULT or new in report["target_errors"]:
        continue
    module, found = deprecations(lambda: importlib.import_module(old))
    report["old"][old] = {"warnings": found, "same": module is sys.modules[new]}

namespace = {}
exec("from energies.simulate import play_one", namespace)
batch = importlib.import_module(MOVED["energies.simulate"])
report["play_one"] = namespace["play_one"] is batch.play_one

import energies.play

report["shown_same"] = sys.modules[SHOWN_BY_DEFAULT] is sys.modules[MOVED[SHOWN_BY_DEFAULT]]
report["facade"] = {
    name: isinstance(getattr(en, name), types.FunctionType) for name in ("play", "simulate")
}
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def run() -> tuple[dict, str]:
    """The report of the fresh interpreter, and what it wrote to stderr."""
    prefix = f"PUBLIC_MODULES = {PUBLIC_MODULES!r}\nSHOWN_BY_DEFAULT = {SHOWN_BY_DEFAULT!r}\n"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}  # Python's defaults
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run(
        [sys.executable, "-c", prefix + _SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1]), proc.stderr


def test_the_old_paths_in_use_are_kept():
    assert not set(OLD_PATHS_IN_USE) - set(MOVED)
    assert SHOWN_BY_DEFAULT in MOVED


def test_no_old_path_is_still_a_file_of_the_tree():
    """A real module at an old path would be imported instead of the module at its new
    place: two copies of a module, two classes of the same name."""
    still_there = []
    for old in MOVED:
        path = REPO.joinpath(*old.split("."))
        if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
            still_there.append(old)
    assert not still_there


def test_every_new_place_imports(run):
    report, _ = run
    assert report["target_errors"] == {}


def test_an_old_path_gives_the_module_at_its_new_place_and_says_where(run):
    report, _ = run
    assert set(report["old"]) == set(MOVED) - {SHOWN_BY_DEFAULT}
    for old, seen in report["old"].items():
        assert seen["same"], old
        assert len(seen["warnings"]) == 1, (old, seen["warnings"])
        assert seen["warnings"][0].startswith(f"{old} moved to {MOVED[old]} "), seen["warnings"]


def test_the_warning_shows_under_pythons_default_filters(run):
    """A notebook or a script sees it without turning warnings on."""
    report, stderr = run
    assert report["shown_same"]
    assert f"DeprecationWarning: {SHOWN_BY_DEFAULT} moved to {MOVED[SHOWN_BY_DEFAULT]}" in stderr


def test_names_from_an_old_module_still_import(run):
    report, _ = run
    assert report["play_one"]


def test_play_and_simulate_stay_functions_after_their_old_modules_are_imported(run):
    report, _ = run
    assert report["facade"] == {"play": True, "simulate": True}


def test_the_public_modules_and_the_facade_import_without_a_warning(run):
    report, _ = run
    assert report["facade_warnings"] == []
    assert report["public"] == {name: {"warnings": [], "same": True} for name in PUBLIC_MODULES}


def test_the_bots_keep_every_public_name_of_release_02():
    """energies.bots was one file in 0.2: everything it held or imported was reachable."""
    names_02 = {
        "Action", "Balanced", "FossilRush", "FreeRider", "GreenInvestor", "PERSONAS", "Player",
        "ProposeTrade", "Protocol", "RandomBot", "Sequence", "StrategyBot", "annotations",
        "bot_from_class_or_object", "make_bot", "random", "scoring", "show", "strategy",
    }  # fmt: skip
    assert not names_02 - set(dir(en.bots))
    assert en.bots.make_bot("green").name == "GreenInvestor"
    assert en.bots.PERSONAS["random"] is en.bots.RandomBot
