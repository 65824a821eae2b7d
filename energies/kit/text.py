"""Player names and other outside text: what is refused, and how text is shown safely.

Decisions (README, Guarantees):

* refused in a player name: control characters (``\\n``, ``\\t``, ESC and so the terminal
  escape codes that start with it, DEL, C1 controls), lone surrogates (they cannot be
  written as UTF-8), line and paragraph separators and the bidirectional overrides that
  make text read backwards; a name with nothing visible in it: only spaces, zero-width and
  other format characters (U+200B, U+2060, the BOM), combining marks with nothing to sit
  on, or blank letters such as the Hangul filler. Everything else (accents, emoji, ``$``,
  ``<``, quotes, backslashes) is a fine name and shows literally everywhere. Every game's
  constructor and save file checks names here (:func:`name_problem`), so apps, class
  folders and the command line refuse the same names with the same reason.
* :func:`printable` turns any text (a file name from the command line, say) into one that
  prints safely on a terminal: the refused characters become visible escapes.
* :func:`chart_text` makes a text literal for matplotlib, where ``$...$`` would be maths.
* :func:`readable` turns a file name that is not valid UTF-8 (a Latin-1 name from a Windows
  zip: Python hands its bytes over as lone surrogates) into text every writer accepts, the
  undecodable bytes shown as the replacement character.
"""

from __future__ import annotations

import unicodedata

from .i18n import N_, msg

MAX_NAME = 80
# bidirectional embeddings, overrides and isolates: they reorder what follows on screen
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


# Categories that show nothing on their own: spaces (Zs), format characters such as the
# zero-width space, word joiner and BOM (Cf), marks that combine with a character before
# them (Mn, Mc, Me), unassigned code points (Cn, drawn as nothing or a box) and the refused.
_UNSEEN = frozenset(("Zs", "Zl", "Zp", "Cf", "Cc", "Cs", "Cn", "Mn", "Mc", "Me"))
# letters and symbols that are drawn blank: the Hangul fillers, the blank braille pattern
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _visible(char: str) -> bool:
    return char not in _BLANK and unicodedata.category(char) not in _UNSEEN


def _refused(char: str) -> bool:
    return char in _BIDI or unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp")


def name_problem(name: object) -> str | None:
    """Why this text cannot be a player name, or None when it can (a message: English as a
    str, said in the reader's language where one is chosen)."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
        return msg(N_("Player names must be texts of 1 to {most} characters."), most=MAX_NAME)
    if not name.strip():
        return msg(N_("A player name cannot be only spaces."))
    bad = next((c for c in name if _refused(c)), None)
    if bad is not None:
        return msg(
            N_(
                "A player name cannot hold the invisible control character {char}; "
                "use letters, digits, spaces and punctuation."
            ),
            char=_escape(bad),
        )
    if not any(_visible(c) for c in name):
        shown = "".join(_escape(c) for c in name[:8]) + ("..." if len(name) > 8 else "")
        return msg(
            N_(
                "A player name must show at least one letter, digit or symbol; {shown} is "
                "only invisible characters (spaces, zero-width characters or marks)."
            ),
            shown=shown,
        )
    return None


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``text`` with every control, surrogate or reordering character shown as an escape."""
    text = text if isinstance(text, str) else str(text)
    return "".join(_escape(c) if _refused(c) else c for c in text)


def readable(text: str) -> str:
    """``text`` (a file name) with its undecodable bytes as U+FFFD, ready for a chart, a CSV
    file or a widget; a valid name is returned unchanged."""
    if not any("\ud800" <= c <= "\udfff" for c in text):
        return text
    try:  # bytes the OS gave as surrogates (surrogateescape): decode them as far as they go
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that stands for no byte
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


def chart_text(text: str) -> str:
    """Text that matplotlib shows literally (a ``$`` would otherwise start maths)."""
    return text.replace("$", r"\$")
