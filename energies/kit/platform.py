"""What runs where: the kit in a browser kernel (Pyodide, as JupyterLite runs it).

The engine, the bots, the charts and the widgets run in the browser as they do anywhere else.
Two things do not exist there, and the kit falls back with a one-line note on stderr instead
of a traceback:

* **worker processes** — Pyodide cannot start any, so ``simulate(..., jobs=N)`` plays the games
  one by one in the kernel (the results are the same for any ``jobs``; said once per kernel);
* **a disk that outlives the page** — JupyterLite keeps files in the browser's storage under
  ``/drive`` (its file browser). A game saved elsewhere, or saved when that storage fails, is
  written to the kernel's in-memory filesystem and is gone when the page reloads.

Nothing here imports anything beyond the standard library.
"""

from __future__ import annotations

import os
import sys

__all__ = ["can_start_processes", "in_browser_kernel", "note", "save_location"]

#: where JupyterLite mounts the browser's storage (the files of its file browser)
BROWSER_DRIVE = "/drive"
#: the in-memory folder a save falls back to when it cannot be written where asked
MEMORY_SAVES = "/tmp/energies-saves"


def in_browser_kernel() -> bool:
    """True in a Python compiled to WebAssembly (Pyodide, JupyterLite's kernel)."""
    return sys.platform == "emscripten"


def can_start_processes() -> bool:
    """False where a process pool cannot start (Pyodide has no fork and no subprocesses)."""
    return not in_browser_kernel()


#: the kinds of fallback already told about in this kernel (see :func:`note`)
_told: set[str] = set()


def note(message: str, kind: str | None = None) -> None:
    """Tell the user about a fallback: one line on stderr (a notebook shows it in pink).

    With a ``kind``, only the first note of that kind in this kernel is shown (a lesson that
    calls ``simulate`` twenty times hears about the missing processes once)."""
    if kind is not None:
        if kind in _told:
            return
        _told.add(kind)
    print(f"energies: {message}", file=sys.stderr, flush=True)


def _kept_by_the_browser(path: str) -> bool:
    full = os.path.abspath(path)
    return full == BROWSER_DRIVE or full.startswith(BROWSER_DRIVE + "/")


def save_location(path) -> tuple[str, str | None]:
    """Where a save file asked for at ``path`` is written, and the note to show (or None).

    Outside a browser kernel: ``path`` itself, no note. In a browser kernel: ``path`` when its
    folder exists, with a note unless it lies in the browser's storage; otherwise a file of
    the same name in :data:`MEMORY_SAVES`, with a note naming it.
    """
    path = os.fspath(path)
    if not in_browser_kernel():
        return path, None
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(folder):
        if _kept_by_the_browser(path):
            return path, None
        return path, (
            f"saved {path} in this page's memory only (not in the browser's storage): "
            "it is lost when the page reloads; keep game.to_json() to carry it elsewhere."
        )
    os.makedirs(MEMORY_SAVES, exist_ok=True)
    fallback = os.path.join(MEMORY_SAVES, os.path.basename(path) or "energies-game.json")
    return fallback, (
        f"cannot write {path} here (no such folder in this browser kernel): saved it in memory "
        f"as {fallback} instead, which is lost when the page reloads."
    )
