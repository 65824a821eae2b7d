"""The class server in a real browser: four Chromium contexts join one table and play a whole
game of the classroom preset by clicking; a fifth, the teacher's console, sees it end, pauses
the class and downloads the results (issue 34, item 7).

The server runs in a thread of this process (``energies.server.ClassServer``, uvicorn on a free
loopback port). Each student clicks like a hurried student: a decision's "pass" or "decline"
(or its first button, or its first glowing spot), the roll, the first glowing spot (a build),
or the end of the turn. The pages are the server's own (``/t/<code>``, ``/console``), which run
the PlayApp's page code; screenshots at 1366x768 go to tests/browser/artifacts/.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path

import browserkit as bk
import pytest

pytestmark = pytest.mark.browser

NAMES = ("Ada", "Bo", "Cy", "Di")
WIDTH, HEIGHT = 1366, 768
MOVE_TIMEOUT = 60.0  # s, one click until the server's next position shows on the pages


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    why = bk.missing_browser()
    if why:
        pytest.skip(f"{why}: {bk.INSTALL_HINT}")
    pytest.importorskip("starlette")
    import energies as en
    from energies.server import create_class

    path = tmp_path_factory.mktemp("class") / "class.sqlite"
    # table 1 plays seed 8: a game of about 100 moves when everybody builds what glows
    create_class(path, tables=2, seed=7, bot_delay=0.2, name="7B")
    server = en.server.ClassServer(path, port=0)
    yield server
    server.stop()


def server_position(server) -> tuple[int, int | None, bool]:
    """(moves, the seat that decides, over) of table 1, from the server's own game."""

    def read(hub):
        game = hub.room.tables[1].game
        return len(game.actions), game.current_seat, game.is_over

    return server.call(read)


_STATE_JS = """(box) => {
  const root = box.querySelector('.energies-playapp');
  const on = (sel) => Array.from(box.querySelectorAll(sel)).filter((b) => !b.disabled && b.offsetParent !== null);
  return {
    moves: Number(box.dataset.moves ?? -1),
    rev: root ? root.getAttribute('data-rev') : null,
    waiting: root ? root.classList.contains('e-waiting') : true,
    decision: !!box.querySelector('.energies-decision'),
    decisionButtons: on('.energies-decision .e-list button[data-action]').map((b) => [b.dataset.action, b.textContent.trim()]),
    roll: on('[data-action="roll_dice"]').length > 0,
    end: on('[data-action="end_turn"]').length > 0,
    glowing: box.querySelectorAll('[data-legal="true"]').length,
    over: !!box.querySelector('.energies-gameover'),
  };
}"""


def page_state(page) -> dict:
    return page.locator("[data-app]").evaluate(_STATE_JS)


def wait_until_shown(page, moves: int, timeout: float = MOVE_TIMEOUT) -> dict:
    """Wait until the page shows the table after ``moves`` moves, redrawn and not waiting."""
    deadline = time.monotonic() + timeout
    while True:
        state = page_state(page)
        if state["moves"] >= moves and not state["waiting"]:
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"the page did not show move {moves}: {state}")
        time.sleep(0.03)


def click_once(page, state: dict, touch: bool = False) -> str:
    """One click of a hurried student on its deciding page (``touch``: a tap on a tablet);
    returns what it clicked."""
    app = page.locator("[data-app]")

    def press(locator) -> None:
        if touch:
            locator.tap()
        else:
            locator.click()

    if state["decision"] and state["decisionButtons"]:
        labels = [label for _kind, label in state["decisionButtons"]]
        wanted = next(
            (
                i
                for i, (kind, label) in enumerate(state["decisionButtons"])
                if kind == "decline" or label.startswith("Decline")
            ),
            0,
        )
        press(
            app.locator(".energies-decision .e-list button[data-action]:not([disabled])").nth(
                wanted
            )
        )
        return f"decision: {labels[wanted]}"
    if state["roll"] and not state["decision"]:
        press(app.locator('[data-action="roll_dice"]:not([disabled])').first)
        return "roll"
    if state["glowing"]:
        press(app.locator('[data-legal="true"]').first)
        chooser = app.locator(".energies-chooser:not([hidden]) button[data-action]")
        if chooser.count():
            press(chooser.first)
            return "a glowing spot, then the chooser's first option"
        return "a glowing spot"
    if state["end"]:
        press(app.locator('[data-action="end_turn"]:not([disabled])').first)
        return "end turn"
    raise AssertionError(f"nothing to click on the deciding page: {state}")


def test_four_students_play_a_whole_game_by_clicking_and_the_console_sees_it_end(
    browser, class_server
):
    server = class_server
    contexts, pages, console = [], [], []
    try:
        for name in NAMES:
            context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
            contexts.append(context)
            page = context.new_page()
            page.on("pageerror", lambda e, n=name: console.append(f"{n} pageerror: {e}"))
            page.goto(server.links[1], wait_until="domcontentloaded")
            page.locator("[data-name]").fill(name)
            page.locator("button[data-seat]").first.click()
            pages.append(page)
        teacher_context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
        contexts.append(teacher_context)
        teacher = teacher_context.new_page()
        teacher.on("pageerror", lambda e: console.append(f"console pageerror: {e}"))
        teacher.goto(server.console_url, wait_until="domcontentloaded")
        table = teacher.locator('.energies-table[data-table="1"]')
        table.wait_for(timeout=bk.RENDER_TIMEOUT)
        assert "#key=" not in teacher.url  # the key left the address bar

        by_seat = {}
        for page in pages:  # every student sees the board, its own hand and seat
            page.locator(".energies-playapp [data-hex]").first.wait_for(timeout=bk.RENDER_TIMEOUT)
            seat = int(page.locator(".energies-hand").get_attribute("data-seat"))
            by_seat[seat] = page
            assert page.evaluate("() => document.scrollingElement.scrollHeight") <= HEIGHT + 2
        assert sorted(by_seat) == [0, 1, 2, 3]
        assert "#seat=" in pages[0].url  # the seat token, kept for a reload

        clicks, shots = [], False
        deadline = time.monotonic() + 1500
        while True:
            assert time.monotonic() < deadline, f"the game did not end; last clicks {clicks[-5:]}"
            moves, seat, over = server_position(server)
            if over:
                break
            page = by_seat[seat]
            state = wait_until_shown(page, moves)
            if state["moves"] > moves:  # the server moved on meanwhile (a held proposal)
                continue
            clicks.append(click_once(page, state))
            wait_until_shown(page, moves + 1)
            if not shots and moves >= 40:
                page.screenshot(path=str(bk.ARTIFACTS / "server-student-1366x768.png"))
                teacher.screenshot(path=str(bk.ARTIFACTS / "server-console-1366x768.png"))
                shots = True
        moves, _seat, _over = server_position(server)
        assert len(clicks) == moves, "every move was a student's click"
        for page in pages:  # every student sees the end and who polluted, who paid
            page.locator(".energies-gameover").wait_for(timeout=bk.CLICK_TIMEOUT)
        outcome = table.locator(".energies-outcome")
        outcome.wait_for(timeout=bk.CLICK_TIMEOUT)
        assert table.get_attribute("data-status") == "over"
        said = server.call(
            lambda hub: hub.words(hub.room.tables[1]).words.speak(
                str(hub.room.tables[1].game.outcome)
            )
        )
        assert outcome.inner_text().strip() == said

        teacher.get_by_role("button", name="Pause all tables").click()
        state_line = teacher.locator("[data-class-state]")
        teacher.wait_for_function(
            "() => document.querySelector('[data-class-state]').textContent.includes('paused')",
            timeout=bk.CLICK_TIMEOUT,
        )
        assert "paused" in state_line.inner_text()
        assert server.call(lambda hub: hub.room.paused)

        with teacher.expect_download(timeout=bk.CLICK_TIMEOUT) as saved:
            teacher.get_by_role("button", name="Download save files (.zip)").click()
        archive = zipfile.ZipFile(io.BytesIO(Path(saved.value.path()).read_bytes()))
        assert archive.namelist() == ["round1-table01.json"]
        import energies as en

        game = en.load_game(archive.read("round1-table01.json"))  # replayed, digest checked
        assert game.is_over and game.names == list(NAMES)
        assert len(game.actions) == moves
        with teacher.expect_download(timeout=bk.CLICK_TIMEOUT) as saved:
            teacher.get_by_role("button", name="Download the class as one table (.csv)").click()
        text = Path(saved.value.path()).read_text(encoding="utf-8")
        assert text.splitlines()[0].startswith("round,group,source,seed,players,names,outcome")
        assert "Ada, Bo, Cy, Di" in text
        teacher.screenshot(path=str(bk.ARTIFACTS / "server-console-over-1366x768.png"))
        assert not console, console
    except BaseException:
        bk.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for number, page in enumerate([*pages, *([teacher] if "teacher" in locals() else [])]):
            page.screenshot(path=str(bk.ARTIFACTS / f"class-server-failure-{number}.png"))
        (bk.ARTIFACTS / "class-server-failure.txt").write_text(
            json.dumps({"clicks": locals().get("clicks", [])[-30:], "console": console}, indent=1)
        )
        raise
    finally:
        for context in contexts:
            context.close()


def test_a_student_plays_on_a_tablet_held_either_way_by_tapping(browser, class_server):
    """A tablet, upright (768x1024) and on its side (1024x768), with a touch screen: the page
    fits its width (no sideways scrolling), shows the board and the seat's own hand, and the
    student plays their decisions by tapping, at a table the teacher started with bots."""
    server = class_server
    server.resume()  # the test above ends with the class paused
    sizes = {"upright": (768, 1024), "on its side": (1024, 768)}
    contexts, pages, errors = [], {}, []
    try:
        for (how, (width, height)), name in zip(sizes.items(), ("Eve", "Fay")):
            context = browser.new_context(
                viewport={"width": width, "height": height}, has_touch=True, is_mobile=True
            )
            contexts.append(context)
            page = context.new_page()
            page.on("pageerror", lambda e, n=name: errors.append(f"{n} pageerror: {e}"))
            page.goto(server.links[2], wait_until="domcontentloaded")
            page.locator("[data-name]").fill(name)
            page.locator("button[data-seat]").first.tap()
            page.locator("[data-where]").filter(has_text=name).wait_for(timeout=bk.RENDER_TIMEOUT)
            pages[how] = page
        assert server.command("start") == 1  # bots take table 2's two free seats
        by_seat = {}
        for how, page in pages.items():
            page.locator(".energies-playapp [data-hex]").first.wait_for(timeout=bk.RENDER_TIMEOUT)
            by_seat[int(page.locator(".energies-hand").get_attribute("data-seat"))] = page
            width = sizes[how][0]
            assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width, how
            assert page.locator(".energies-hand").is_visible(), how

        def position():
            return server.call(
                lambda hub: (
                    len(hub.room.tables[2].game.actions),
                    hub.room.tables[2].game.current_seat,
                )
            )

        taps = 0
        deadline = time.monotonic() + 600
        while taps < 12:
            assert time.monotonic() < deadline, "the tablets did not get to play"
            moves, seat = position()
            page = by_seat.get(seat)
            if page is None:  # a bot decides, at the class's pace
                time.sleep(0.1)
                continue
            state = wait_until_shown(page, moves)
            if state["moves"] > moves:
                continue
            click_once(page, state, touch=True)
            wait_until_shown(page, moves + 1)
            taps += 1
        for how, page in pages.items():  # still no sideways scrolling after a dozen moves
            assert page.evaluate("() => document.scrollingElement.scrollWidth") <= sizes[how][0]
            page.screenshot(path=str(bk.ARTIFACTS / f"server-tablet-{sizes[how][0]}.png"))
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()
