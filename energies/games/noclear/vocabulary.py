"""Noclear's closed vocabularies: the two energy colours and the five card symbols, and how
each reads in a sentence in the reader's language.

Both the rules (which check a deck against themselves) and the cards (which check a deck
file's colours and symbols) read them, so they live below both. The codes ("blue", "wind")
are what files and actions hold; the words below are what a student reads.
"""

from ...kit.i18n import N_, Message, N_plural, joined, msg, nmsg

COLOURS = ("blue", "orange")  # rule 1.4: two energy colours (blue: electricity, orange: heat)
SYMBOLS = ("wind", "sun", "water", "coal", "atom")  # rule 1.5 [H]: one per resource card

_COLOUR_WORDS = {"blue": N_("blue"), "orange": N_("orange")}
_SYMBOL_WORDS = {
    "wind": N_("wind"),
    "sun": N_("sun"),
    "water": N_("water"),
    "coal": N_("coal"),
    "atom": N_("atom"),
}
# an amount of energy of one colour, or of either colour, with each language's plural forms
_AMOUNTS = {
    "blue": N_plural("{n} blue", "{n} blue"),
    "orange": N_plural("{n} orange", "{n} orange"),
    "any": N_plural("{n} any", "{n} any"),
}


def colour_word(colour: str) -> str:
    """An energy colour in a sentence ("blue"), said in the reader's language."""
    known = _COLOUR_WORDS.get(colour) if isinstance(colour, str) else None
    return msg(known) if known else colour


def symbol_word(symbol: str) -> str:
    """A card symbol in a sentence ("wind"), said in the reader's language."""
    known = _SYMBOL_WORDS.get(symbol) if isinstance(symbol, str) else None
    return msg(known) if known else symbol


def energy_amount(n: int, colour: str) -> Message:
    """``n`` energy of ``colour`` ("blue", "orange" or "any"): "2 blue"."""
    singular, plural = _AMOUNTS[colour]
    return nmsg(singular, plural, n)


def energy_words(amounts) -> Message:
    """Energy by colour ((blue, orange) or one amount per colour), "2 blue + 1 orange", or
    "nothing"; said in the reader's language."""
    parts = [energy_amount(n, c) for n, c in zip(amounts, COLOURS) if n]
    return joined(parts, " + ") if parts else msg(N_("nothing"))
