"""Make docs/server-student-1366x768.png and docs/server-console-1366x768.png.

A class of four tables on the class server (in this process, loopback): at table 1 four
students in Chromium click like the browser test's students (tests/browser/test_class_server.py)
until move 40; at tables 2 to 4 one student each joins, the teacher starts the waiting tables
and hands those seats to bots, so the console shows tables at different stages. Then the page of
the student who decides at table 1 and the console are captured at 1366x768.

    python docs/make_server_screenshots.py

Needs the [server] extra, Playwright and Debian's Chromium (as the browser tests).
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import browserkit as bk
from test_class_server import click_once, server_position, wait_until_shown

import energies as en
from energies.server import create_class

MOVES = 40


def main() -> None:
    from playwright.sync_api import sync_playwright
    from websockets.sync.client import connect

    with tempfile.TemporaryDirectory(prefix="energies-shots-") as tmp:
        path = Path(tmp) / "class.sqlite"
        create_class(path, tables=4, seed=7, bot_delay=0.4, name="Class 9B")
        server = en.server.ClassServer(path, port=0)
        sockets = []
        try:
            for number in (2, 3, 4):  # one student at each of the other tables
                ws = connect(
                    server.links[number].replace("http", "ws").replace("/t/", "/ws/table/"),
                    proxy=None,
                )
                ws.send(json.dumps({"type": "join", "name": ["Mo", "Lu", "Ri"][number - 2]}))
                sockets.append(ws)
            with sync_playwright() as driver:
                browser = bk.launch_chromium(driver)
                pages = []
                for name in ("Ada", "Bo", "Cy", "Di"):
                    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
                    page.goto(server.links[1])
                    page.locator("[data-name]").fill(name)
                    page.locator("button[data-seat]").first.click()
                    pages.append(page)
                by_seat = {}
                for page in pages:
                    page.locator(".energies-playapp [data-hex]").first.wait_for()
                    by_seat[int(page.locator(".energies-hand").get_attribute("data-seat"))] = page
                server.command("start")
                for number in (2, 3, 4):
                    server.command("seat_to_bot", table=number, seat=0)
                while True:
                    moves, seat, _over = server_position(server)
                    page = by_seat[seat]
                    state = wait_until_shown(page, moves)
                    if state["moves"] > moves:
                        continue
                    if moves >= MOVES and state["glowing"]:  # a page with spots to click
                        break
                    click_once(page, state)
                    wait_until_shown(page, moves + 1)
                time.sleep(1.0)
                page.screenshot(path=str(DOCS / "server-student-1366x768.png"))
                console = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
                console.goto(server.console_url)
                console.locator(".energies-table").first.wait_for()
                time.sleep(1.0)
                console.screenshot(path=str(DOCS / "server-console-1366x768.png"))
                browser.close()
        finally:
            for ws in sockets:
                with contextlib.suppress(Exception):  # the server may have closed it first
                    ws.close()
            server.stop()
    print("wrote docs/server-student-1366x768.png and docs/server-console-1366x768.png")


if __name__ == "__main__":
    main()
