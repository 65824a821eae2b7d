"""Helpers of the course-site tests (tests/conftest.py's fixtures, tests/test_site.py,
tests/test_lite.py): skip-or-fail, the site's tools, throw-away git repositories."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GIT_IDENTITY = ["-c", "user.name=energies tests", "-c", "user.email=tests@energies.invalid"]


def require(missing: str | None, hint: str) -> None:
    """Skip (locally) or fail (under CI) when a prerequisite is missing."""
    if missing is None:
        return
    message = f"{missing}: {hint}"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI is set: these tests must run, not skip)", pytrace=False)
    pytest.skip(message)


def missing_site_tools() -> str | None:
    """Why the course site cannot be built here (None when it can)."""
    for name, module in (
        ("sphinx", "sphinx"),
        ("myst-nb", "myst_nb"),
        ("sphinx-book-theme", "sphinx_book_theme"),
    ):
        try:
            __import__(module)
        except ImportError:
            return f"{name} is not installed"
    for module in ("jupyterlite_core", "jupyterlite_pyodide_kernel"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed"
    if not (shutil.which("node") and shutil.which("npm")):
        return "node or npm not found (the JupyterLite build needs npm once)"
    if not shutil.which("git"):
        return "git not found"
    return None


@dataclass(frozen=True)
class Checkout:
    """A repository whose one commit is this repository's HEAD, with uncommitted files."""

    path: Path
    marker: str
    uncommitted: tuple[str, ...]  # untracked files, and the tracked file edited

    def committed_files(self) -> list[str]:
        out = subprocess.run(
            ["git", "-C", str(self.path), "ls-files", "-z"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return sorted(name for name in out.split("\0") if name)


def git(path: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(path), *GIT_IDENTITY, *args], capture_output=True, text=True, check=True
    ).stdout


def make_repository(path: Path, files_from: Path | None = None) -> None:
    """``git init`` at ``path`` and commit everything in it (``files_from``: copy that first)."""
    if files_from is not None:
        shutil.copytree(files_from, path, dirs_exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "fixture")


def in_fresh_thread(work):
    """Run ``work()`` in a new thread and return its result (re-raising its exception): the
    browser tests may hold a sync Playwright driver in this thread already."""
    outcome = {}

    def run():
        try:
            outcome["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
