"""The class server's pages in the class's language: which language a page gets, the pages
filled with their words, and the words their scripts draw.

Which language a page speaks, first match wins (``choose_language``):

1. ``?lang=xx`` in the address (a join link for one student, ``.../t/ABC123?lang=zh-Hant``);
2. the class's language (``energies serve ... --lang de``, ``en.server.serve(..., lang="de")``);
3. the browser's ``Accept-Language``, when it names one of the kit's languages;
4. English.

The pages' HTML (``static/*.html``) holds ``{{key}}`` where a word stands; the scripts
(``student.js``, ``console.js``, ``console-page.js``) hold no sentence of their own: their words
come from Python in the page's language (a JSON block on the page, or the console's ``words``),
as the PlayApp's page words do, and every sentence with a number in it is said here, with the
language's plural forms. The board inside a seat's page is the PlayApp's own page, drawn from
the views the hub builds in the connection's language.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from ..kit.i18n import LANGUAGES, N_, check_language, resolve, say

STATIC = Path(__file__).resolve().parent / "static"

#: The words of the pages' HTML, by the ``{{key}}`` that stands for them.
HTML_WORDS = {
    "title_join": N_("energies · join your table"),
    "join_your_table": N_("Join your table"),
    "type_the_code": N_("Type the code your teacher gave your table (six letters and digits)."),
    "table_code": N_("Table code"),
    "go_to_table": N_("Go to my table"),
    "unofficial": N_(
        "Unofficial teaching kit: the rules in our own words; CATAN is a trademark of its owners."
    ),
    "title_table": N_("energies · your table"),
    "your_table": N_("Your table"),
    "connecting": N_("Connecting…"),
    "your_name": N_("Your name"),
    "title_console": N_("energies · teacher's console"),
    "console_bar": N_("CATAN: New Energies · teacher's console"),
    "teachers_console": N_("Teacher's console"),
    "type_the_key": N_(
        "Type the teacher's key that {command} printed (or open the console link it printed)."
    ),
    "teachers_key": N_("Teacher's key"),
    "open_console": N_("Open the console"),
    "title_no_table": N_("No such table"),
    "no_table": N_("No table has this code"),
    "check_the_code": N_("Check the code your teacher gave your table, then {link}."),
    "type_it_again": N_("type it again"),
}

#: The words ``student.js`` draws (the lobby, the bar above the board, the banner).
STUDENT_WORDS = {
    "code_length": N_("A table code has six letters and digits."),
    "disconnected": N_("Disconnected: {reason}"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "table_n": N_("Table {table}"),
    "round_n": N_("round {round}"),
    "with_agreement": N_("with your written agreement"),
    "without_agreement": N_("without a written agreement"),
    "you_are": N_("you: {name} (seat {seat})"),
    "your_role": N_("Your role: {title}"),
    "you_want": N_("You want:"),
    "you_may": N_("You may:"),
    "your_goal": N_("Your goal in role:"),
    "paused": N_("The teacher paused the class."),
    "ended": N_("The teacher ended this round."),
    "lobby_title": N_("Table {table} · {class}"),
    "waiting_to_start": N_("Waiting for the game to start…"),
    "started_without_you": N_(
        "This table's game has started. If you sat here, open the page where you joined (or "
        "ask your teacher)."
    ),
    "take_seat": N_("Take seat {seat}"),
    "seat_taken": N_("Seat {seat}: {name}"),
    "taken": N_("taken"),
    "type_name_first": N_("Type your name first."),
    "table_code": N_("table code {code}"),
}

#: The words ``console.js`` and ``console-page.js`` draw (the teacher's console).
CONSOLE_WORDS = {
    "status_waiting": N_("waiting for students"),
    "status_playing": N_("playing"),
    "status_over": N_("game over"),
    "status_ended": N_("ended by you"),
    "to_bot_title": N_("a bot plays this seat until the student comes back"),
    "to_bot": N_("bot"),
    "free_title": N_("the seat is open again"),
    "free": N_("free"),
    "col_seat": N_("seat"),
    "col_lf_title": N_("local footprint"),
    "col_lf": N_("LF"),
    "col_plants_title": N_("fossil / renewable plants"),
    "col_plants": N_("f / r"),
    "col_vp": N_("VP"),
    "col_cards": N_("cards"),
    "waiting_line": N_("seed {seed} · waiting for its students"),
    "game_line": N_("seed {seed} · turn {turn} · GF {gf} of {most} · bag {bag} · moves {moves}"),
    "game_line_draws": N_(
        "seed {seed} · turn {turn} · GF {gf} of {most} · draws {discs} · bag {bag} · moves {moves}"
    ),
    "table_n": N_("Table {table}"),
    "click_again": N_("Click again: {label}"),
    "connecting": N_("Connecting to the class…"),
    "resume": N_("Resume all tables"),
    "pause": N_("Pause all tables"),
    "download_zip": N_("Download save files (.zip)"),
    "download_csv": N_("Download the class as one table (.csv)"),
    "round_n": N_("Round {round}"),
    "in_role": N_("in role"),
    "with_agreement": N_("with the written agreement"),
    "without_agreement": N_("without a written agreement"),
    "paused": N_("paused"),
    "running": N_("running"),
    "count": N_("{status}: {n}"),
    "start": N_("Start waiting tables (bots fill free seats)"),
    "end_round": N_("End the round"),
    "next_with": N_("Start round {round} with the written agreement"),
    "next_without": N_("Start round {round} without it"),
    "roles": N_("role cards in round {round}"),
    "print": N_("Print the join codes"),
    "students_open": N_(
        "Students open {address} and type their table's code, or scan its QR code."
    ),
    "sheet_title": N_("Table {table}: {code}"),
    "preparing": N_("Preparing {what}…"),
    "downloaded": N_("Downloaded {file}."),
    "download_failed": N_("The download failed: {problem}."),
    "answered": N_("the server answered {status}"),
    "done": N_("Done."),
    "reconnecting": N_("Connection lost: reconnecting…"),
}


# -- which language a page gets ---------------------------------------------------------------

_ACCEPT = re.compile(r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*")
# the Chinese the kit speaks is written in Traditional characters: these regions use them
_TRADITIONAL = {"tw", "hk", "mo", "hant"}


def accepted_language(header: str | None) -> str | None:
    """The first of the kit's languages a browser's ``Accept-Language`` asks for (by its
    weights), or None ("zh-TW" and "zh-Hant-*" are the kit's Traditional Chinese; "zh-CN" is
    not, and neither is a bare "zh", which does not say which characters)."""
    if not header or len(header) > 500:
        return None
    asked = []
    for position, part in enumerate(header.split(",")):
        m = _ACCEPT.fullmatch(part)
        if m is None:
            continue
        try:
            weight = float(m.group(2)) if m.group(2) else 1.0
        except ValueError:
            continue
        if weight > 0:
            asked.append((-weight, position, m.group(1).lower()))
    for _weight, _position, tag in sorted(asked):
        parts = tag.split("-")
        if parts[0] == "zh":
            if _TRADITIONAL & set(parts[1:]):
                return "zh-Hant"
            continue
        if parts[0] in ("en", "de", "be"):
            return parts[0]
    return None


def choose_language(query: str | None, class_language: str | None, accept: str | None) -> str:
    """The language of one page (see the module text). A ``?lang=`` that names no language of
    the kit is passed over, not refused: a student's page still opens."""
    if query:
        try:
            return check_language(query)
        except ValueError:
            pass
    if class_language:
        return check_language(class_language)
    return accepted_language(accept) or "en"


# -- the pages ----------------------------------------------------------------------------------


def words_for(table: dict[str, str], lang: str) -> dict[str, str]:
    """One of the tables of words above, said in ``lang``."""
    return {key: say(text, lang) for key, text in table.items()}


def _json_block(words: dict[str, str]) -> str:
    """The scripts' words as a JSON block on the page (data, never run: the page's CSP lets
    only this server's script files run)."""
    text = json.dumps(words, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def page_html(name: str, lang: str) -> bytes:
    """The page ``static/<name>`` in ``lang``: its ``{{key}}`` filled with :data:`HTML_WORDS`
    (escaped), ``{{lang}}`` with the language and ``{{words}}`` with the scripts' words."""
    template = (STATIC / name).read_text(encoding="utf-8")
    lang = resolve(lang)
    scripts = STUDENT_WORDS if name != "console.html" else CONSOLE_WORDS
    values = {key: html.escape(say(text, lang)) for key, text in HTML_WORDS.items()}
    values["type_the_key"] = html.escape(
        say(HTML_WORDS["type_the_key"], lang, command="\0")
    ).replace("\0", "<code>energies serve</code>")
    values["check_the_code"] = html.escape(
        say(HTML_WORDS["check_the_code"], lang, link="\0")
    ).replace("\0", f'<a href="../">{values["type_it_again"]}</a>')
    values["lang"] = html.escape(lang)
    values["words"] = _json_block(words_for(scripts, lang))
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template).encode("utf-8")


def language_names() -> str:
    """The kit's languages for an error message: "'en', 'de', 'zh-Hant', 'be'"."""
    return ", ".join(repr(code) for code in LANGUAGES)
