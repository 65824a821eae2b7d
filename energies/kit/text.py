"""Player names and other outside text: what is refused, and how text is shown safely.

Decisions (README, Guarantees):

* refused in a player name: control characters (``\\n``, ``\\t``, ESC and so the terminal
  escape codes that start with it, DEL, C1 controls), lone surrogates (they cannot be
  written as UTF-8), line and paragraph separators and the bidirectional overrides that
  make text read backwards; a name of only spaces. Everything else (accents, emoji, ``$``,
  ``<``, quotes, backslashes) is a fine name and shows literally everywhere.
* :func:`printable` turns any text (a file name from the command line, say) into one that
  prints safely on a terminal: the refused characters become visible escapes.
* :func:`chart_text` makes a text literal for matplotlib, where ``$...$`` would be maths.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 80
# bidirectional embeddings, overrides and isolates: they reorder what follows on screen
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _refused(char: str) -> bool:
    return char in _BIDI or unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp")


def name_problem(name: object) -> str | None:
    """Why this text cannot be a player name, or None when it can."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
        return f"Player names must be texts of 1 to {MAX_NAME} characters."
    if not name.strip():
        return "A player name cannot be only spaces."
    bad = next((c for c in name if _refused(c)), None)
    if bad is not None:
        return (
            f"A player name cannot hold the invisible control character {_escape(bad)}; "
            "use letters, digits, spaces and punctuation."
        )
    return None


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``text`` with every control, surrogate or reordering character shown as an escape."""
    text = text if isinstance(text, str) else str(text)
    return "".join(_escape(c) if _refused(c) else c for c in text)


def chart_text(text: str) -> str:
    """Text that matplotlib shows literally (a ``$`` would otherwise start maths)."""
    return text.replace("$", r"\$")
