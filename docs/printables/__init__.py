"""The facilitator pack in docs/facilitator/: slides, a script, a player aid, role cards,
answer keys and a debrief guide, printed to PDF by Chromium like the worksheets.

    python docs/build_worksheets.py            # worksheets and the pack (needs Chromium)
    python docs/build_worksheets.py --check    # exit 1 if any PDF or deck is stale

Sources: the markdown files in ``docs/facilitator/`` (the script, the debrief guide, the two
slide decks, the answer notes), the notebooks (the answer keys, through the worksheet
builder), ``energies.RuleSet.classroom()`` (the player aid) and ``energies.classroom.ROLES``
(the role cards). Numbers the sources quote are ``{{name}}`` facts filled from the code
(:mod:`printables.facts`). Each page's SHA-256 is stored in ``docs/facilitator/sources.json``
and its first 12 hex digits printed in the PDF's footer, so a PDF that no longer matches its
sources fails ``tests/test_facilitator_pack.py`` until the build is run again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from .aid import player_aid_html
from .answers import answer_keys_html
from .cards import CARDS_PER_PAGE, role_cards_html
from .facts import fill
from .render import deck, document, inline_pictures, markdown, split_slides

DOCS = Path(__file__).resolve().parent.parent
OUT = DOCS / "facilitator"
HASHES = OUT / "sources.json"
WORKSHEETS_SCRIPT = DOCS / "build_worksheets.py"


@dataclass(frozen=True)
class Printed:
    """One file of the pack: its HTML (``{digest}`` not yet filled), and its page count."""

    name: str
    page: str
    pages: tuple[int, int]  # the fewest and the most pages the PDF may have
    deck: bool = False  # a slide deck: its HTML is committed beside the PDF


def worksheet_builder():
    """``docs/build_worksheets.py`` as a module (the one already running, when it is)."""
    for module in (sys.modules.get("__main__"), sys.modules.get("build_worksheets")):
        path = getattr(module, "__file__", None)
        if path and Path(path).resolve() == WORKSHEETS_SCRIPT:
            return module
    spec = importlib.util.spec_from_file_location("build_worksheets", WORKSHEETS_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_worksheets"] = module
    spec.loader.exec_module(module)
    return module


def _source(name: str) -> str:
    return fill((OUT / name).read_text(encoding="utf-8"))


def slides(name: str) -> list[str]:
    """The slides of ``docs/facilitator/<name>``, each as HTML."""
    return [markdown(part) for part in split_slides(_source(name))]


def _guide(name: str, title: str) -> str:
    body = inline_pictures(markdown(_source(name)), OUT)
    return document(title, body, f"docs/facilitator/{name}")


def printed() -> list[Printed]:
    """Every file of the pack, in build order."""
    builder = worksheet_builder()
    lesson_a, class_07 = slides("slides-lesson-a.md"), slides("slides-07.md")
    keys = len(builder.lesson_notebooks())
    return [
        Printed(
            "slides-lesson-a",
            inline_pictures(
                deck("Lesson A · play and see", lesson_a, "docs/facilitator/slides-lesson-a.md"),
                OUT,
            ),
            (len(lesson_a), len(lesson_a)),
            deck=True,
        ),
        Printed(
            "slides-07",
            inline_pictures(
                deck("Lesson 07 · the class experiment", class_07, "docs/facilitator/slides-07.md"),
                OUT,
            ),
            (len(class_07), len(class_07)),
            deck=True,
        ),
        Printed("facilitator-script", _guide("script.md", "Facilitator script"), (2, 5)),
        Printed("player-aid", player_aid_html(), (1, 1)),
        Printed("role-cards", role_cards_html(), (-(-len(_roles()) // CARDS_PER_PAGE),) * 2),
        Printed("answer-keys", answer_keys_html(builder), (keys, 2 * keys)),
        Printed("debrief-guide", _guide("debrief.md", "Debrief guide"), (1, 3)),
    ]


def _roles():
    from energies.classroom import ROLES

    return ROLES


def digest(page: str) -> str:
    return hashlib.sha256(page.encode("utf-8")).hexdigest()


def filled(item: Printed) -> str:
    return item.page.replace("{digest}", digest(item.page)[:12])


def stale() -> list[str]:
    """Files of the pack whose stored digest differs from a fresh build, or that are missing
    (a deck's HTML must also equal the fresh build)."""
    stored = json.loads(HASHES.read_text(encoding="utf-8")) if HASHES.exists() else {}
    old = []
    for item in printed():
        pdf = OUT / f"{item.name}.pdf"
        if stored.get(pdf.name) != digest(item.page) or not pdf.exists():
            old.append(pdf.name)
        if item.deck:
            page = OUT / f"{item.name}.html"
            if not page.exists() or page.read_text(encoding="utf-8") != filled(item):
                old.append(page.name)
    return old


def build(browser: str, print_pdf) -> None:
    """Print every file of the pack with ``print_pdf(page, target, browser)``."""
    hashes = {}
    for item in printed():
        pdf = OUT / f"{item.name}.pdf"
        hashes[pdf.name] = digest(item.page)
        page = filled(item)
        if item.deck:
            (OUT / f"{item.name}.html").write_text(page, encoding="utf-8")
            print(f"wrote docs/facilitator/{item.name}.html")
        print_pdf(page, pdf, browser)
        print(f"wrote docs/facilitator/{pdf.name}")
    HASHES.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
