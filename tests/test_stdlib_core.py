"""`import energies` and whole games need only the standard library (issue 22).

The engine must run where numpy, pandas, networkx and matplotlib are absent (Pyodide's core
distribution in JupyterLite, a bare `pip install --no-deps`): charts, frames and the board
graph import them when first used. A child process blocks those imports with a
``sys.meta_path`` finder, imports energies, plays seeded games (random bots and the four
personas), saves and reloads them, and must print exactly what a normal process prints.

Two layers promise more (``docs/architecture.md``): every module of :mod:`energies.kit` (the
contract) and of :mod:`energies.newenergies` (the rules engine) imports only the standard
library, and so does ``import energies`` as a whole.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAMES = REPO / "lite" / "games_digest.py"
SEEDS = ["3", "11"]
OPTIONAL = ("numpy", "pandas", "networkx", "matplotlib", "ipywidgets", "scipy", "tqdm", "dask")

# runs before energies is imported: any import of an optional package (or of a submodule of
# one) raises ModuleNotFoundError, as on a machine where it is not installed
_BLOCKER = f"""
import sys
BLOCKED = {OPTIONAL!r}

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None

sys.meta_path.insert(0, Blocker())
for name in list(sys.modules):
    if name.split(".")[0] in BLOCKED:
        del sys.modules[name]
"""

_AFTER = """
for name in BLOCKED:
    try:
        __import__(name)
    except ModuleNotFoundError:
        pass
    else:
        raise SystemExit(f"the blocker let {name} through")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
print("LOADED", loaded)
"""


def _run(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "lite")])}
    return subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=300,
    )


def _games(prefix: str = "", suffix: str = "") -> tuple[dict, str]:
    code = f"{prefix}\nimport games_digest\ngames_digest.main({SEEDS!r})\n{suffix}"
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr
    first, _, rest = proc.stdout.partition("\n")
    return json.loads(first), rest


def test_import_and_games_without_optional_packages_match_a_normal_run():
    blocked, after = _games(_BLOCKER, _AFTER)
    normal, _ = _games()
    assert blocked == normal
    assert len(normal) == 2 * len(SEEDS)
    assert {row["outcome"] for row in normal.values()} <= {
        "victory_points",
        "empty_bag",
        "everyone_loses",
    }
    # nothing optional was imported, and the blocker really was in force
    assert "LOADED []" in after


def test_blocker_is_effective_for_the_lazy_parts():
    """The parts documented as needing numpy/pandas say so when those are missing (so the
    first test's blocker is known to bite): simulate needs numpy's SeedSequence."""
    proc = _run(
        _BLOCKER
        + "\nimport energies as en\n"
        + "try:\n    en.simulate(1, ['random'] * 4, progress=False)\n"
        + "except ModuleNotFoundError as exc:\n    print('MISSING', exc.name)\n"
    )
    assert proc.returncode == 0, proc.stderr
    assert "MISSING numpy" in proc.stdout


# Prints the top-level packages beyond the standard library that the code loaded (those a
# bare interpreter loads at start-up, such as a .pth file's, are not counted).
_BEYOND_STDLIB = """
import importlib, json, pkgutil, sys
at_start = set(sys.modules)
{code}
loaded = {{name.split(".")[0] for name in set(sys.modules) - at_start}}
print(json.dumps(sorted(loaded - set(sys.stdlib_module_names) - {{"energies"}})))
"""


def _beyond_stdlib(code: str) -> list[str]:
    proc = _run(_BEYOND_STDLIB.format(code=code))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_import_energies_loads_only_the_standard_library():
    """No pandas, numpy, matplotlib, networkx or ipywidgets: ``import energies`` stays quick."""
    assert _beyond_stdlib("import energies") == []


def test_every_module_of_kit_and_newenergies_imports_only_the_standard_library():
    every_module = (
        "import energies.kit, energies.newenergies\n"
        "for package in (energies.kit, energies.newenergies):\n"
        "    prefix = package.__name__ + '.'\n"
        "    for found in pkgutil.walk_packages(package.__path__, prefix):\n"
        "        importlib.import_module(found.name)\n"
        "        print(found.name)\n"
    )
    proc = _run(_BEYOND_STDLIB.format(code=every_module))
    assert proc.returncode == 0, proc.stderr
    *imported, beyond = proc.stdout.splitlines()
    assert {"energies.kit.files", "energies.newenergies.engine.checks"} <= set(imported)
    assert json.loads(beyond) == []
