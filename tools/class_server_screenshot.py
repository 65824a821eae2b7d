"""Screenshots of a class server's pages in one language, in Chromium at 1366x768.

    python tools/class_server_screenshot.py de          # docs/class-server-de-1366x768.png

Starts ``energies serve`` for a new class in that language (one student seat, three bots, so
one student starts the game), opens the join page, types the table's code, takes the seat as
"Ada" and waits for the board; the seat page goes to ``docs/class-server-<lang>-1366x768.png``
and the join page to ``tests/browser/artifacts/``. Needs Chromium at ``/usr/bin/chromium``, the
``playwright`` package and the ``[server]`` extra (see ``tests/browser/browserkit.py``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "browser")]

import browserkit as bk
from server_students import start_server

SIZE = {"width": 1366, "height": 768}


def main(lang: str) -> Path:
    from playwright.sync_api import sync_playwright

    from energies.kit.i18n import check_language

    lang = check_language(lang)
    artifacts = REPO / "tests" / "browser" / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    shot = REPO / "docs" / f"class-server-{lang}-1366x768.png"
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "class.sqlite"
        seats = "student,balanced,green,fossil"
        server = start_server(database, "--tables", "2", "--seats", seats, "--lang", lang)
        try:
            with sync_playwright() as playwright:
                browser = bk.launch_chromium(playwright)
                page = browser.new_page(viewport=SIZE, locale="en-US")  # the class's language wins
                page.goto(server.http + "/")
                code = _first_code(database)
                page.fill("[data-code]", code)
                page.screenshot(path=str(artifacts / f"class-server-join-{lang}-1366x768.png"))
                page.click("[data-code-form] button")
                page.wait_for_selector("[data-name]")
                page.fill("[data-name]", "Ada")
                page.click("button[data-seat]")
                page.wait_for_selector(".c-app:not([hidden]) svg", timeout=60_000)
                page.wait_for_timeout(4_000)  # the bots move at the class's pace
                page.screenshot(path=str(shot))
                browser.close()
        finally:
            server.stop()
    return shot


def _first_code(database: Path) -> str:
    from energies.classroom.database import ClassDatabase

    with ClassDatabase.open_for_reading(database) as db:
        return db.tables()[0]["code"]


if __name__ == "__main__":
    print(main(sys.argv[1] if len(sys.argv) > 1 else "de"))
