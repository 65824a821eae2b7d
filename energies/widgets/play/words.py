"""The PlayApp's wording: one place name per spot everywhere, seat names, grammar for "You".

The engine speaks of "seat 2", "corner 17 (Fields 12 / Hills 6 / Forest 11)", "path 40
(corners 28-33)" and "hex 3". The board shows terrain names and numbers only, so every text
the app shows (log, buttons, hover tips, prompts) goes through :class:`Wording`, which names
each place by the hexes it touches (terrain + number, as printed on the board) and each seat
by its name, and conjugates the verb after "You" ("You roll the dice", not "You rolls").
"""

from __future__ import annotations

import math
import re

_SEATS_RE = re.compile(r"\b([Ss])eats? (\d+(?:(?:, | and )\d+)*)\b")
_CORNER_RE = re.compile(r"\bcorner (\d+)(?: \([^()]*\))?")
_PATH_RE = re.compile(r"\bpath (\d+)(?: \(corners \d+-\d+\))?")
_HEX_RE = re.compile(r"\bhex (\d+)\b")
_YOU_VERB_RE = re.compile(r"\bYou (\w+)")
_SIDES = ("east", "north-east", "north-west", "west", "south-west", "south-east")
_IRREGULAR = {"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go"}
_KEEP = {"may", "must", "can", "will", "rolled", "gave", "got", "took", "paid", "lost"}
#: Texts spoken and kept per Wording: a page says the same reasons and labels again and again
#: (every free corner's tip, each move), and the class server draws four pages per move
SPOKEN_KEPT = 4096


def _plural_verb(word: str) -> str:
    """The verb form after "You": "rolls" -> "roll", "demolishes" -> "demolish"."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word in _KEEP or not word.endswith("s") or word.endswith("ss"):
        return word
    if word.endswith(("shes", "ches", "sses", "xes", "zes")):
        return word[:-2]
    return word[:-1]


class Wording:
    """Names of seats and places of one game (recomputed when a game with another board or
    other names is loaded)."""

    def __init__(self, game) -> None:
        board = game.board
        self.names = tuple(game.names)  # fixed: what :meth:`speak` keeps depends on them
        self._spoken: dict[tuple[str, int | None], str] = {}
        self.hex_names = [self._hex_name(h) for h in board.hexes]
        self.corner_names = [
            " / ".join(self.hex_names[h] for h in board.corner_hexes_of[c]) for c in range(54)
        ]
        self.path_names = []
        pos = board.corner_positions
        for a, b in board.paths:
            shared = [h for h in board.corner_hexes_of[a] if h in board.corner_hexes_of[b]]
            if len(shared) >= 2:
                text = " | ".join(self.hex_names[h] for h in shared)
            elif shared:  # a coast path: its side of the hex, as on a map
                hx, hy = board.hexes[shared[0]].center
                mx, my = (pos[a][0] + pos[b][0]) / 2 - hx, (pos[a][1] + pos[b][1]) / 2 - hy
                side = _SIDES[round(math.degrees(math.atan2(my, mx)) / 60) % 6]
                text = f"{self.hex_names[shared[0]]} {side} coast"
            else:
                text = f"{a}-{b}"
            self.path_names.append(text)

    @staticmethod
    def _hex_name(hx) -> str:
        terrain = str(hx.terrain).capitalize()
        return terrain if hx.number is None else f"{terrain} {hx.number}"

    # -- names -------------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"

    def is_you(self, seat: int | None) -> bool:
        return seat is not None and self.name(seat).strip().lower() == "you"

    def possessive(self, seat: int) -> str:
        """ "Your" for a seat named You, else "Ada's"."""
        return "Your" if self.is_you(seat) else f"{self.name(seat)}'s"

    def corner(self, c: int) -> str:
        return f"corner {self.corner_names[c]}"

    def path(self, p: int) -> str:
        return f"path {self.path_names[p]}"

    def hex(self, h: int) -> str:
        return self.hex_names[h]

    # -- texts -------------------------------------------------------------------------------

    def seats(self, text: str) -> str:
        """ "seat 2" -> "Cy"; "seat 3, 1, 2" -> "Di, Bob, Cy"."""

        def sub(m: re.Match) -> str:
            numbers = [int(n) for n in re.findall(r"\d+", m.group(2))]
            if any(not 0 <= n < len(self.names) for n in numbers):
                return m.group(0)
            names = [self.names[n] for n in numbers]
            return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

        return _SEATS_RE.sub(sub, text)

    def places(self, text: str) -> str:
        """Engine place names (ids) -> the names the board shows."""
        text = _CORNER_RE.sub(lambda m: self._safe(self.corner, m), text)
        text = _PATH_RE.sub(lambda m: self._safe(self.path, m), text)
        return _HEX_RE.sub(lambda m: self._safe(self.hex, m), text)

    @staticmethod
    def _safe(fn, m: re.Match) -> str:
        try:
            return fn(int(m.group(1)))
        except IndexError:
            return m.group(0)

    def speak(self, text: str, addressee: int | None = None) -> str:
        """An engine text as the app shows it: names, places, and grammar for "You".

        ``addressee`` is the seat the text speaks to (a prompt): "their" becomes "your"
        when that seat is named You. A text spoken before is not worked out again."""
        text = str(text)
        key = (text, addressee)
        spoken = self._spoken.get(key)
        if spoken is None:
            if len(self._spoken) >= SPOKEN_KEPT:
                self._spoken.clear()
            spoken = self._spoken[key] = self._speak(text, addressee)
        return spoken

    def _speak(self, text: str, addressee: int | None) -> str:
        text = self.places(self.seats(text))
        if "You" in text:
            text = _YOU_VERB_RE.sub(lambda m: "You " + _plural_verb(m.group(1)), text)
            text = re.sub(r"\bYou's\b", "Your", text)
            # "steals a card from You" -> "from you": capital only where a sentence starts
            text = re.sub(r"(?<=[a-z,] )You\b", "you", text)
        if self.is_you(addressee):
            text = re.sub(r"\btheir\b", "your", text)
            text = re.sub(r"\bthey\b", "you", text)
        return text
