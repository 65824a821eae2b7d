"""The class server speaks the class's language (issue 35): its pages, the board inside a
seat's page, the lobby, the status lines and every refusal a page is sent.

Which language a page gets: a join link's ``?lang=xx`` -> the class's ``--lang`` -> the
browser's ``Accept-Language`` -> English. The server runs in a background thread of this
process (``ClassServer``, as ``energies serve`` runs it); the tests read what crossed the wire.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets.sync.client")

from test_i18n_pseudo import ALLOWED, WORD, outside_brackets, visible_texts
from test_server import TIMEOUT, Client, codes, student

from energies.kit.i18n import pseudo
from energies.server import create_class
from energies.server.pages import (
    CONSOLE_WORDS,
    STUDENT_WORDS,
    accepted_language,
    choose_language,
)
from energies.server.running import ClassServer

NAMES = ("Ada", "Bo", "Cy", "Di")
ENGLISH = re.compile(r"\b(the|seat|turn|is|not|your|you|game|roll|build)\b", re.IGNORECASE)


@pytest.fixture
def make_server(tmp_path):
    servers = []

    def make(lang=None, name="class", **options) -> ClassServer:
        path = tmp_path / f"{name}.sqlite"
        options.setdefault("tables", 2)
        options.setdefault("seed", 11)
        options.setdefault("bot_delay", 0.0)
        create_class(path, **options)
        server = ClassServer(path, port=0, lang=lang)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


def get(server: ClassServer, path: str, accept: str | None = None) -> tuple[str, str]:
    """A page as a browser gets it: (its language, its text)."""
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}")
    if accept:
        request.add_header("Accept-Language", accept)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            text = answer.read().decode("utf-8")
    except urllib.error.HTTPError as refused:
        text = refused.read().decode("utf-8")
    return re.search(r'<html lang="([^"]+)"', text).group(1), text


def words_block(text: str) -> dict[str, str]:
    return json.loads(re.search(r'id="energies-words">([^<]*)</script>', text).group(1))


def seated(server: ClassServer, code: str, lang: str | None = None) -> list[Client]:
    """A full table of students, each page in ``lang`` (None: the class's)."""
    query = f"?lang={lang}" if lang else ""
    seats = []
    for name in NAMES:
        client = Client(server, f"/ws/table/{code}{query}")
        client.next("lobby")
        client.send(type="join", name=name)
        client.next("token")
        assert client.ack("join")["ok"]
        seats.append(client)
    for client in seats:
        client.page_at(0)
    return seats


def deciding(seats: list[Client]) -> Client:
    for client in seats:
        client.page_at(0)
    return next(c for c in seats if c.view.get("decision") or c.view.get("turn"))


def page_texts(client: Client) -> list[tuple[str, str]]:
    """Every text the seat's page shows: the board's view and shape (with the page's words)."""
    shape = next(
        m["changes"]["geometry"]
        for m in client.received
        if m["type"] == "set" and "geometry" in m["changes"]
    )
    return list(visible_texts({"view": client.view, "geometry": shape}))


# -- choosing the language ------------------------------------------------------------------------


def test_a_browser_s_languages_choose_the_page_s_when_they_name_one_of_the_four():
    assert accepted_language("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert accepted_language("fr-FR, be;q=0.7, en;q=0.5") == "be"
    assert accepted_language("zh-TW,zh;q=0.9") == "zh-Hant"
    assert accepted_language("zh-Hant-HK") == "zh-Hant"
    assert accepted_language("zh-CN,zh;q=0.9,en;q=0.4") == "en"  # Simplified is not ours
    assert accepted_language("en;q=0.2, de;q=0.8") == "de"  # by weight, not by place
    assert accepted_language("fr, es;q=0.5") is None and accepted_language("") is None
    assert accepted_language("de;q=0") is None  # "not German"
    # a join link's ?lang= first, then the class's language, then the browser's, then English
    assert choose_language("zh-Hant", "de", "be") == "zh-Hant"
    assert choose_language(None, "de", "be") == "de"
    assert choose_language("xx", None, "be") == "be"  # an unknown ?lang= is passed over
    assert choose_language(None, None, "fr") == "en"


def test_an_unknown_lang_is_a_friendly_cli_error_naming_the_four(tmp_path):
    database = tmp_path / "class.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "energies", "serve", str(database), "--lang", "fr"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "en, de, zh-Hant, be" in done.stderr and "'fr'" in done.stderr
    assert "Traceback" not in done.stderr and not database.exists()
    with pytest.raises(ValueError, match="'en', 'de', 'zh-Hant', 'be'"):
        ClassServer(database, port=0, lang="fr")


def test_energies_serve_lang_de_serves_a_german_class(tmp_path):
    """The command line's ``--lang`` reaches the pages (a real ``energies serve`` process)."""
    from server_students import start_server

    server = start_server(tmp_path / "class.sqlite", "--tables", "1", "--lang", "de")
    try:
        request = urllib.request.Request(server.http + "/", headers={"Accept-Language": "be"})
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            text = answer.read().decode("utf-8")
            assert answer.headers["Content-Language"] == "de"
        assert '<html lang="de">' in text and "Komm an deinen Tisch" in text
    finally:
        server.stop()


# -- a German class --------------------------------------------------------------------------------


def test_a_german_class_s_join_page_seat_page_and_refusals_arrive_in_german(make_server):
    server = make_server(lang="de")
    code = codes(server)[0]
    lang, index = get(server, "/", accept="en-US,en")  # the class's language beats the browser's
    assert lang == "de" and "Komm an deinen Tisch" in index and "Join your table" not in index
    assert words_block(index)["code_length"].startswith("Ein Tischcode")
    lang, page = get(server, f"/t/{code}")
    assert lang == "de" and "Dein Name" in page and "Your name" not in page
    lang, missing = get(server, "/t/ZZZZZZ")
    assert lang == "de" and "Kein Tisch hat diesen Code" in missing
    lang, console = get(server, "/console")
    assert lang == "de" and "Schlüssel der Lehrkraft" in console
    assert words_block(console)["pause"] == "Alle Tische pausieren"

    lobby = Client(server, f"/ws/table/{code}").next("lobby")["lobby"]
    assert "von 4 Plätzen für Lernende besetzt" in lobby["taken_note"]
    seats = seated(server, code)
    active = deciding(seats)
    view = active.view
    assert view["ui"]["tab_build"] == "Bauen" and view["status"]["text"].startswith("Willkommen")
    assert "Zug " in view["turn_line"] and view["prompt"].startswith(NAMES[seats.index(active)])
    other = next(c for c in seats if c is not active)
    other.send(type="act", action={"kind": "end_turn", "seat": other.view["hand"]["seat"]})
    refused = other.ack("act")
    assert not refused["ok"] and not ENGLISH.search(refused["reason"]), refused["reason"]
    assert other.view["status"] == {"text": refused["reason"], "kind": "error"}
    other.send_text("[1, 2]")  # a malformed message: its reason in the page's language too
    assert other.next("error")["reason"] == "Eine Nachricht muss ein JSON-Objekt sein."
    other.send(type="undo")
    refused = other.ack("undo")
    assert refused["reason"] == (
        "Ein Klassenspiel kennt kein Rückgängig: Jeder Zug zählt, wie an einem echten Tisch."
    )
    for client in seats:
        client.close()


def test_a_student_s_lang_in_the_join_link_gets_chinese_in_a_german_class(make_server):
    server = make_server(lang="de")
    code = codes(server)[0]
    lang, page = get(server, f"/t/{code}?lang=zh-Hant")
    assert lang == "zh-Hant" and "你的名字" in page
    assert words_block(page)["take_seat"] == "坐座位 {seat}"
    first = Client(server, f"/ws/table/{code}?lang=zh-Hant")
    assert "學生座位已坐" in first.next("lobby")["lobby"]["taken_note"]
    first.send(type="join", name="Ada")
    first.next("token")
    assert first.ack("join")["ok"]
    first.send(type="join", name="Ada")  # the page's own refusal, in its language
    assert first.ack("join")["reason"] == "你已經坐在這一桌的座位 1。"
    others = [student(server, code, name) for name in NAMES[1:]]  # the class's German
    first.page_at(0)
    for client in others:
        client.page_at(0)
    assert first.view["ui"]["tab_build"] != others[0].view["ui"]["tab_build"]
    assert "回合" in first.view["turn_line"] and "Zug" in others[0].view["turn_line"]
    assert first.view["status"] == {"text": "你已經坐在這一桌的座位 1。", "kind": "error"}
    assert others[0].view["status"]["text"].startswith("Willkommen")
    for client in [first, *others]:
        client.close()


def test_the_browser_s_language_applies_when_the_class_names_none(make_server):
    server = make_server()
    assert get(server, "/", accept="be-BY,be;q=0.9")[0] == "be"
    assert get(server, "/", accept="fr-FR,fr")[0] == "en"
    assert get(server, "/?lang=de", accept="be")[0] == "de"


# -- no English left -------------------------------------------------------------------------------


def test_the_pseudo_locale_finds_no_english_left_on_a_seat_page(make_server):
    """Every text of a seat's page (view, board, the page's words) and of the pages' HTML and
    scripts' words goes through the catalogs: in the pseudo-locale nothing stands outside
    the brackets but names, numbers and signs."""
    xa = pseudo.install()
    server = make_server(lang=xa)
    code = codes(server)[0]
    seats = seated(server, code)
    active = deciding(seats)
    waiting = next(c for c in seats if c is not active)
    allowed = ALLOWED | set(NAMES) | {"CATAN", "New", "Energies", "energies", "serve", "Class"}
    texts = page_texts(active) + page_texts(waiting)
    lobby = Client(server, f"/ws/table/{codes(server)[1]}").next("lobby")["lobby"]
    texts += [("lobby", lobby["taken_note"]), ("lobby", lobby["note"])]
    waiting.send(type="undo")  # a refusal on the status line (its page came before the ack)
    waiting.ack("undo")
    assert waiting.view["status"]["kind"] == "error"
    texts += page_texts(waiting)
    teacher = Client(server, "/ws/console")  # the class's language: the pseudo-locale
    teacher.next("hello")
    teacher.send(type="hello", key=server.key)
    console = teacher.next("set")["changes"]
    assert teacher.ack("hello")["ok"]
    texts += [(f"console {key}", text) for key, text in console["words"].items()]
    for table in console["console"]["tables"]:
        texts += [("console who", seat["who"]) for seat in table["seats"]]
    teacher.send(type="pause")
    teacher.ack("pause")
    teacher.send(type="resume")
    teacher.send(type="free_seat", table=1, seat=9)  # refused: in the console's language
    refused = teacher.ack("free_seat")
    assert not refused["ok"] and refused["reason"].startswith("⟦")
    texts.append(("console refusal", refused["reason"]))
    teacher.close()
    for path in ("/", f"/t/{code}", "/t/ZZZZZZ", "/console"):
        _lang, text = get(server, path)
        body = re.sub(r"<script[^>]*>.*?</script>|<[^>]+>", " ", text, flags=re.DOTALL)
        texts.append((path, body))
        if "energies-words" in text:
            texts += [(key, said) for key, said in words_block(text).items()]
    left = [
        (key, text)
        for key, text in texts
        if set(WORD.findall(outside_brackets(text))) - allowed
        and not (key in ("name", "partner") and text in NAMES)
    ]
    assert left == []
    assert len(texts) > 100
    for client in seats:
        client.close()


def test_the_served_scripts_write_no_english_sentence_of_their_own():
    """student.js, console.js and console-page.js draw only words sent from Python: no
    literal between tags, in ``textContent`` or in a status of their own."""
    from energies.server.web import STATIC

    for name in ("student.js", "console.js", "console-page.js"):
        code = re.sub(r"//[^\n]*", "", (STATIC / name).read_text())
        between_tags = re.findall(r">([^<>`${}]*[A-Za-z]{3,}[^<>`${}]*)</", code)
        assigned = re.findall(
            r"(?:textContent =|show\(|set\(\"status\",) *\"([^\"]*[A-Za-z]{3,}[^\"]*)\"", code
        )
        sentences = re.findall(r"[`\"]([A-Z][a-z]+ [a-z]+[^`\"]*)[`\"]", code)
        assert (name, between_tags, assigned, sentences) == (name, [], [], [])
    assert set(STUDENT_WORDS) >= {"code_length", "take_seat", "reconnecting"}
    assert set(CONSOLE_WORDS) >= {"pause", "resume", "done"}
