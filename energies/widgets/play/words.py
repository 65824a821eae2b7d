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
from typing import Any

from ...kit.i18n import N_, Message, nsay, render, resolve, say
from ...newenergies.actions import BARE_CORNER, BARE_PATH, CORNER, HEX, PATH
from ...newenergies.rules.vocabulary import SEAT, SEATS

_SEATS_RE = re.compile(r"\b([Ss])eats? (\d+(?:(?:, | and )\d+)*)\b")
_CORNER_RE = re.compile(r"\bcorner (\d+)(?: \([^()]*\))?")
_PATH_RE = re.compile(r"\bpath (\d+)(?: \(corners \d+-\d+\))?")
_HEX_RE = re.compile(r"\bhex (\d+)\b")
_YOU_VERB_RE = re.compile(r"\bYou (\w+)")
_SIDES = ("east", "north-east", "north-west", "west", "south-west", "south-east")
# a coast path named by its hex and its side, as on a map (whole phrases: word order differs)
_COASTS = (
    N_("{hex} east coast"),
    N_("{hex} north-east coast"),
    N_("{hex} north-west coast"),
    N_("{hex} west coast"),
    N_("{hex} south-west coast"),
    N_("{hex} south-east coast"),
)
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
    """Names of seats and places of one game, in one language (recomputed when a game with
    another board or other names is loaded, or the language changes)."""

    def __init__(self, game, lang: str | None = None) -> None:
        board = game.board
        self.lang = resolve(lang)
        self.english = self.lang == "en"
        self.names = tuple(game.names)  # fixed: what :meth:`speak` keeps depends on them
        self._board = board
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
                side = round(math.degrees(math.atan2(my, mx)) / 60) % 6
                text = self.say(_COASTS[side], hex=self.hex_names[shared[0]])
            else:
                text = f"{a}-{b}"
            self.path_names.append(text)

    def _hex_name(self, hx) -> str:
        return str(render(hx.__str__(), self.lang))  # "Fields 12", in the app's language

    # -- texts in the app's language ---------------------------------------------------------

    def say(self, message: str, /, **params: Any) -> str:
        """``message`` in the app's language (see :func:`energies.kit.i18n.say`)."""
        return say(message, self.lang, **params)

    def nsay(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The plural form that fits ``n``, in the app's language."""
        return nsay(singular, plural, n, self.lang, **params)

    def listing(self, items: list[str]) -> str:
        """ "Ada, Bo and Cy" in the app's language."""
        if len(items) <= 1:
            return "".join(items)
        return self.say(N_("{items} and {last}"), items=", ".join(items[:-1]), last=items[-1])

    # -- names -------------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return self.say(N_("Seat {seat}"), seat=seat)

    def is_you(self, seat: int | None) -> bool:
        return seat is not None and self.name(seat).strip().lower() == "you"

    def possessive(self, seat: int) -> str:
        """ "Your" for a seat named You, else "Ada's" (English; other languages say "of Ada"
        inside their own sentences)."""
        if self.english:
            return "Your" if self.is_you(seat) else f"{self.name(seat)}'s"
        return self.name(seat)

    def corner(self, c: int) -> str:
        return self.say(N_("corner {name}"), name=self.corner_names[c])

    def path(self, p: int) -> str:
        return self.say(N_("path {name}"), name=self.path_names[p])

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
        when that seat is named You. In another language than English, an engine message
        is said with the app's names put in for its seats and places (no English grammar).
        A text spoken before is not worked out again (a message's English text stands for
        it: the same template and values)."""
        key = (str(text), addressee)
        spoken = self._spoken.get(key)
        if spoken is None:
            if len(self._spoken) >= SPOKEN_KEPT:
                self._spoken.clear()
            spoken = self._spoken[key] = self._speak(text, addressee)
        return spoken

    def _speak(self, text: Any, addressee: int | None) -> str:
        if not self.english:
            return str(render(text, self.lang, self._named))
        text = self.places(self.seats(str(text)))
        if "You" in text:
            text = _YOU_VERB_RE.sub(lambda m: "You " + _plural_verb(m.group(1)), text)
            text = re.sub(r"\bYou's\b", "Your", text)
            # "steals a card from You" -> "from you": capital only where a sentence starts
            text = re.sub(r"(?<=[a-z,] )You\b", "you", text)
        if self.is_you(addressee):
            text = re.sub(r"\btheir\b", "your", text)
            text = re.sub(r"\bthey\b", "you", text)
        return text

    def _named(self, message: Message) -> str | None:
        """The app's name for a seat or a place an engine message names (see ``speak``)."""
        template, params = message.template, message.params
        try:
            if template == SEAT:
                return self.name(int(params["seat"]))
            if template == SEATS:
                seats = [int(s) for s in str(params["seats"]).split(", ")]
                return self.listing([self.name(s) for s in seats])
            if template in (CORNER, BARE_CORNER):
                return self.corner(int(params["corner"]))
            if template in (PATH, BARE_PATH):
                return self.path(int(params["path"]))
            if template == HEX:
                return self.hex(int(params["hex"]))
        except (ValueError, IndexError, KeyError):  # a made-up number: the engine's own words
            return None
        return None

    def describe(self, action) -> str:
        """An action as the app says it: names for seats and places."""
        seat = action.seat
        named = isinstance(seat, int) and 0 <= seat < len(self.names)
        sentence = action.sentence(self.names[seat] if named else None, self._board)
        return self.speak(sentence)


#: The page's own words (playapp.js draws them by key, with {placeholders} filled there).
PAGE_WORDS = {
    "tab_build": N_("Build"),
    "tab_trade": N_("Trade"),
    "tab_energy": N_("Energy"),
    "tab_cards": N_("Cards"),
    "tab_log": N_("Log"),
    "tab_charts": N_("Charts"),
    "tab_file": N_("File"),
    "nothing_here": N_("nothing to do here now."),
    "island": N_("the island"),
    "legend_fossil": N_("fossil"),
    "legend_renewable": N_("renewable"),
    "legend_hazard": N_("hazard"),
    "inspector": N_("the Inspector"),
    "costs": N_("{label} — costs {price}"),
    "dont_ask": N_("Don't ask me on the bots' turns (pass for me)"),
    "asked_at": N_("You will be asked at {partner}'s next roll."),
    "cancel": N_("Cancel"),
    "ask_me_at": N_("Ask me at {partner}'s next roll"),
    "proposals_to_bots": N_("Proposals to the bots (rule 12.1)"),
    "give": N_("give"),
    "for": N_("for"),
    "to": N_("to"),
    "to_partner": N_("to {partner}"),
    "propose_to": N_("Propose a trade to {partner}"),
    "held": N_("Held: {held}, made at {partner}'s next free decision."),
    "propose_any_time": N_("Propose a trade to {partner} at any time of the turn (rule 12.1)"),
    "waiting_for_bots": N_("Waiting for the bots: press “Bots play until my turn” or “Step”."),
    "decide_first": N_("Decide first (the orange box)."),
    "give_n": N_("give {n} {kind}"),
    "you_have": N_("(you have {have})"),
    "get_one": N_("get 1:"),
    "offer": N_("Offer"),
    "propose": N_("Propose"),
    "with_supply": N_("With the supply"),
    "offer_one_for_one": N_("Offer a player one card for one (rule 12.1)"),
    "footprint_chart": N_("footprint chart"),
    "risk_meter": N_("risk meter"),
    "drawing_charts": N_("Drawing the charts…"),
    "files_stay": N_("Files stay in {folder}."),
    "saved_every_move": N_("The game is saved after every move as {file}."),
    "file_name": N_("file name"),
    "save": N_("Save"),
    "load": N_("Load"),
    "upload": N_("Upload a save"),
    "pass_laptop": N_("Pass the laptop to {name}"),
    "hand_hidden": N_("{name}'s hand and moves stay hidden until {name} has the screen."),
    "i_am": N_("I am {name}: show my hand"),
    "col_seat": N_("Seat"),
    "col_vp": N_("VP"),
    "col_lf": N_("LF"),
    "col_plants_title": N_("fossil / renewable plants"),
    "col_plants": N_("plants f/r"),
    "col_cards": N_("cards"),
    "col_energy": N_("energy"),
    "col_dev": N_("dev"),
    "bots": N_("Bots play until my turn"),
    "step": N_("Step"),
    "undo": N_("Undo"),
    "choices": N_("{n} choices: scroll the list."),
    "choices_or_board": N_("{n} choices: scroll the list, or click a glowing spot on the board."),
    "what_happened": N_("What just happened"),
    "energy": N_("energy"),
    "dev": N_("dev: {dev}"),
    "warehouse": N_("warehouse"),
    "save_this_game": N_("Save this game"),
    "who_polluted": N_(
        "Who polluted, who paid: share of the fossil plants' pollution, share of the pollution "
        "harm (hazards, the production they cost, brown events)"
    ),
    "polluted": N_("polluted"),
    "paid": N_("paid"),
    "not_possible_pick": N_(
        "Not possible: give a card you hold, for a different kind. Pick other cards."
    ),
    "working": N_("Working…"),
    "clicks_waiting": N_("({n} clicks waiting, handled in order)"),
    "choose_at": N_("{name}: choose"),
    "hint": N_("Hover a spot to see what a click does."),
}


def page_words(words: Wording) -> dict[str, str]:
    """:data:`PAGE_WORDS` in the app's language, and the log's event prefix."""
    said = {key: words.say(text) for key, text in PAGE_WORDS.items()}
    said["event_prefix"] = words.say(N_("Event: {event} — {effect}")).split("{event}")[0]
    return said
