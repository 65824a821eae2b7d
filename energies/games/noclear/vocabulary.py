"""Noclear's closed vocabularies: the two energy colours and the five card symbols.

Both the rules (which check a deck against themselves) and the cards (which check a deck
file's colours and symbols) read them, so they live below both.
"""

COLOURS = ("blue", "orange")  # rule 1.4: two energy colours (blue: electricity, orange: heat)
SYMBOLS = ("wind", "sun", "water", "coal", "atom")  # rule 1.5 [H]: one per resource card
