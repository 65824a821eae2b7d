"""Fixtures shared by tests/test_site.py and tests/test_lite.py: the published folder (the
course site with the JupyterLite site in its lite/), built ONCE per test session by the one
command, docs/build_course_site.py, from a checkout that holds uncommitted files on purpose.

The checkout is a git repository made from this repository's HEAD (``git archive``, then one
commit), plus a student's untracked save file, an untracked notebook, an untracked docs page, an
untracked module in the package and an uncommitted edit of lesson 00, each carrying a marker
string. Only what is committed is published, so the tests look for the markers in the output.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from sitekit import REPO, Checkout, make_repository, missing_site_tools, require


@pytest.fixture(scope="session")
def committed_checkout(tmp_path_factory) -> Checkout:
    require(None if shutil.which("git") else "git not found", "apt-get install -y git")
    root = tmp_path_factory.mktemp("checkout") / "repo"
    root.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", "HEAD"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
    make_repository(root)

    marker = f"UNCOMMITTED-{secrets.token_hex(6)}"
    lesson = root / "notebooks" / "00-start-here.ipynb"
    notebook = json.loads(lesson.read_text(encoding="utf-8"))
    notebook["cells"].append({"cell_type": "markdown", "metadata": {}, "source": f"# {marker}"})
    lesson.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    scratch = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": f"# {marker}"}]}
    scratch |= {"metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    planted = {
        "notebooks/group1.json": json.dumps({"saved by": "a student", "note": marker}),
        "notebooks/99-my-scratch.ipynb": json.dumps(scratch),
        "docs/my-notes.md": f"# My notes\n\n{marker}\n",
        "energies/uncommitted_probe.py": f'"""{marker}"""\n',
    }
    for name, text in planted.items():
        (root / name).write_text(text, encoding="utf-8")
    return Checkout(root, marker, (*planted, "notebooks/00-start-here.ipynb"))


@dataclass(frozen=True)
class Published:
    """The output folder of docs/build_course_site.py, and what the command printed."""

    path: Path
    log: str
    seconds: float


@pytest.fixture(scope="session")
def published_site(committed_checkout, tmp_path_factory) -> Published:
    """The one command, run once: the course site with the JupyterLite site in its lite/."""
    require(missing_site_tools(), 'pip install -e ".[test]" (the site and lite extras)')
    output = tmp_path_factory.mktemp("published") / "site"
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(REPO / "docs" / "build_course_site.py")]
        + ["--repo", str(committed_checkout.path), "--output", str(output)],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    seconds = time.monotonic() - started
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"docs/build_course_site.py failed:\n{log[-6000:]}"
    print(f"\ndocs/build_course_site.py built the site and the lite site in {seconds:.0f} s")
    return Published(output, log, seconds)
