"""A pseudo-locale: every message said as accented English in brackets, "⟦Ŕóll thé dícé⟧".

Not a teaching language: the tests register it (:func:`install`) and draw an app in it; any
text on the page without the brackets was never looked up in the catalogs, so it is English
left hard-coded. Translators may use it to see which texts an app shows where; the brackets
and accents also make every text a little longer, as most translations are.
"""

from __future__ import annotations

import gettext
import string

from . import _extra, register_language

CODE = "en-XA"
OPEN, CLOSE = "⟦", "⟧"
_ACCENTS = str.maketrans("aeiouyAEIOUYcnsz", "áéíóúýÁÉÍÓÚÝçñšž")


def pseudo(message: str) -> str:
    """``message`` with its words accented and bracketed; ``{placeholders}`` kept as they are."""
    out = []
    for literal, field, spec, conversion in string.Formatter().parse(message):
        out.append(literal.translate(_ACCENTS).replace("{", "{{").replace("}", "}}"))
        if field is not None:
            out.append(
                "{"
                + field
                + (f"!{conversion}" if conversion else "")
                + (f":{spec}" if spec else "")
                + "}"
            )
    return OPEN + "".join(out) + CLOSE


class PseudoTranslations(gettext.NullTranslations):
    """Says every message through :func:`pseudo` (no catalog needed)."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)


def install() -> str:
    """Register the pseudo-locale (once) and return its code, for ``lang=``."""
    if CODE not in _extra:
        register_language(CODE, PseudoTranslations())
    return CODE
