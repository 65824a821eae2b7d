"""Reading and writing files safely: bounded reads, checked output paths, atomic writes.

* :func:`read_bounded` never blocks and never reads more than a limit: it opens without
  waiting (a named pipe returns at once), refuses anything but a regular file (devices,
  folders, pipes, sockets) and checks the size before reading.
* :func:`output_problem` says why a path cannot be written, before any work is done.
* :func:`atomic_write` writes a temporary file in the same folder and renames it over the
  target (``os.replace``), so a good file is never truncated or half-written. The temporary
  name is short (at most 34 bytes), so any name the file system allows can be written.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable
from pathlib import PurePath
from typing import Any

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX: open a FIFO without waiting for a writer
_BINARY = getattr(os, "O_BINARY", 0)  # Windows
#: Longest file name, in bytes, when the file system does not say (ext4, APFS, NTFS in UTF-16
#: units); the temporary file's own name stays far below it.
DEFAULT_NAME_MAX = 255
#: Longest ending of the target a temporary name keeps (".csv.gz": pandas infers compression).
_KEPT_SUFFIX = 16


class FileProblem(ValueError):
    """A path that cannot be read or written as asked; the message says why."""


def _fspath(path: Any) -> str:
    try:
        text = os.fspath(path)
    except TypeError:
        raise FileProblem(f"{path!r} is not a file path.") from None
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if not text or "\0" in text:
        raise FileProblem("A file path must be a non-empty text without NUL characters.")
    return text


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bounded(path: Any, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; FileProblem or OSError if not."""
    name = _fspath(path)
    fd = os.open(name, os.O_RDONLY | _NONBLOCK | _BINARY)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(f"{name} is {_kind(info.st_mode)}, not a save file.")
        if info.st_size > limit:
            raise FileProblem(
                f"{name} is {info.st_size:,} bytes, more than a save file can be ({limit:,})."
            )
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)  # the file may have grown since fstat
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileProblem(f"{name} is more than {limit:,} bytes, more than a save file can be.")
    return data


def output_problem(path: Any) -> str | None:
    """Why ``path`` cannot be written (missing folder, a folder or device, no permission)."""
    try:
        name = _fspath(path)
    except FileProblem as exc:
        return str(exc)
    folder, base = os.path.split(os.path.abspath(name))
    if not os.path.isdir(folder):
        return f"the folder {folder} does not exist"
    longest = _name_max(folder)
    try:
        size = len(os.fsencode(base))
    except UnicodeEncodeError:  # a lone surrogate that no file name can hold
        return f"its name {base!r} holds a character no file name can hold"
    if size > longest:
        return (
            f"its name is {size} bytes long, more than this file system allows ({longest}); "
            "choose a shorter name"
        )
    try:
        info = os.stat(name)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        return exc.strerror or str(exc)
    if info is not None and not stat.S_ISREG(info.st_mode):
        return f"{name} is {_kind(info.st_mode)}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable"
    return None


def _name_max(folder: str) -> int:
    """The longest file name, in bytes, the file system of ``folder`` allows."""
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (AttributeError, OSError, ValueError):  # Windows has no pathconf
        return DEFAULT_NAME_MAX


def _temporary_name(base: str) -> str:
    """A hidden, unique, short name ending like ``base`` (pandas infers compression from
    ".csv.gz"): a target named up to the file system's limit still has a temporary file."""
    ending = "".join(PurePath(base).suffixes[-2:])
    if len(os.fsencode(ending)) > _KEPT_SUFFIX:
        ending = PurePath(base).suffix
    if len(os.fsencode(ending)) > _KEPT_SUFFIX:
        ending = ""
    return f".{secrets.token_hex(4)}.tmp{ending}"


def atomic_write(path: Any, write: Callable[[str], None]) -> None:
    """Let ``write(temp_path)`` write the content, then put it in place in one step.

    The temporary file lies in the target's folder (``os.replace`` is atomic only within
    one file system) and keeps the mode of the file it replaces. If anything fails the
    target is untouched and the temporary file is removed. Raises FileProblem or OSError.
    """
    problem = output_problem(path)
    if problem:
        raise FileProblem(f"Cannot write {_fspath(path)}: {problem}.")
    name = os.path.abspath(_fspath(path))
    folder, base = os.path.split(name)
    temp = os.path.join(folder, _temporary_name(base))
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o666)  # umask applies
    os.close(fd)
    try:
        if os.path.exists(name):
            os.chmod(temp, stat.S_IMODE(os.stat(name).st_mode))
        write(temp)
        os.replace(temp, name)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def write_text(path: Any, text: str) -> None:
    """Write ``text`` as UTF-8, atomically (see :func:`atomic_write`)."""

    def write(temp: str) -> None:
        with open(temp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())

    atomic_write(path, write)
