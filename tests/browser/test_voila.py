"""notebooks/02-play.ipynb as a Voila app in Chromium: the app without code cells, answering
clicks; and the click-to-update latency of the app in the browser (reported, not asserted)."""

from __future__ import annotations

import statistics

import browserkit as bk
import pytest

pytestmark = pytest.mark.browser


def open_app(page, voila) -> dict:
    """Load the Voila page (it runs the notebook) and wait until the first app is drawn."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # not needed to skip

    page.goto(voila.url, wait_until="domcontentloaded", timeout=bk.RENDER_TIMEOUT)
    try:
        bk.wait_for_app(page)
        drawn = True
    except PlaywrightTimeout:
        drawn = False
    if not drawn:
        pytest.fail(
            f"the PlayApp was not drawn in Voila within {bk.RENDER_TIMEOUT / 1000:.0f} s. "
            f"The page shows:\n{bk.page_text(page)[:1500]}"
        )
    return bk.snapshot(page)


def test_voila_shows_the_app_without_code_and_answers_clicks(page, voila):
    """The app page has no code (inputs stripped) and its buttons work: the group cell's
    hot-seat game opens on the pass screen, the student takes the screen, rolls and ends the
    turn, the bot plays at once, and a round later the table and the board have changed."""
    bk.fresh_class_folder(voila)
    start = open_app(page, voila)
    # markdown cells keep their (rendered) input area; code cells must show outputs only
    visible_code = page.evaluate(
        "() => Array.from(document.querySelectorAll('.jp-CodeCell .jp-InputArea,"
        " .jp-CodeCell .jp-InputPrompt, .jp-Editor, .CodeMirror, .cm-editor'))"
        ".filter((e) => e.offsetParent !== null).length"
    )
    assert visible_code == 0, "Voila shows code cells"
    text = bk.page_text(page)
    assert "import energies" not in text and "group_app(" not in text, "source code on the page"
    assert "Traceback" not in text
    first = start["prompt"].split(",")[0]
    assert (
        start["prompt"]
        == f"{first}, your move: roll the dice (a development card may be played first)"
    )
    assert start["pass"].startswith(f"Pass the laptop to {first}"), start["pass"]

    snap = start
    for label in (bk.reveal_label(first), bk.ROLL_LABEL, bk.END_LABEL):
        # a roll of 7 asks for decisions first (discard, Inspector, victim)
        for _ in range(30):
            if bk.button(page, label).count() and not bk.button(page, label).is_disabled():
                break
            decision = bk.next_move_button(snap)
            assert decision, f"no '{label}' button and no decision: {snap['buttons']}"
            snap = bk.click_and_wait(page, bk.button(page, decision), f"clicking {decision!r}")
        after = bk.click_and_wait(page, bk.button(page, label), f"clicking {label!r}")
        changed = (after["log"], after["hand"]) != (snap["log"], snap["hand"])
        assert changed, f"'{label}' changed neither the log nor the hand shown"
        snap = after
    assert snap["log"] != start["log"]
    assert "The bots made" in snap["status"], snap["status"]
    # the strip scrolls to its newest line with its title still on top (it scrolled half out)
    title, strip, scrolled = bk.app_locator(page).evaluate(
        """(root) => { const s = root.querySelector('.energies-strip');
             return [s.querySelector('.e-strip-title').getBoundingClientRect().top,
                     s.getBoundingClientRect().top, s.scrollTop]; }"""
    )
    assert scrolled >= 0 and title >= strip - 1, (title, strip, scrolled)
    # round the table: every student takes the screen in turn, the bot plays its own turn
    for _ in range(4):
        bk.play_turn(page)
    snap = bk.wait_for_settled(page)
    assert snap["table"] != start["table"], "the VP/LF table did not change over a round"
    assert snap["board"] != start["board"], "no piece changed on the board over a round"
    # the charts are drawn when their tab opens (not on every click)
    assert start["chart"] is None
    bk.click_and_wait(page, bk.app_locator(page).locator('[data-tab="charts"]'), "the Charts tab")
    page.wait_for_function(
        "() => (document.querySelector('.energies-playapp img.energies-chart') || {}).src"
        "?.startsWith('data:image/png')",
        timeout=bk.CLICK_TIMEOUT,
    )
    assert "Traceback" not in bk.page_text(page)


def test_voila_click_to_update_latency(page, voila):
    """Median time from a click (mostly "Step": one bot decision) to the updated log in the
    browser, over 20 clicks. Reported (shown with -s, saved to artifacts/latency.txt), not
    asserted: it depends on the machine."""
    open_app(page, voila)
    samples = bk.measure_latency(page, clicks=20)
    times = [sample["ms"] for sample in samples]
    median = statistics.median(times)
    idle = statistics.median(sample["idle_ms"] for sample in samples)
    print(f"median click-to-update: {median:.0f} ms")
    bk.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (bk.ARTIFACTS / "latency.txt").write_text(
        f"median click-to-update: {median:.0f} ms (Voila, {len(times)} clicks, click event to "
        f"the updated log; to the kernel's idle: {idle:.0f} ms)\n"
        + "".join(f"{s['label']}: {s['ms']:.0f} ms (idle {s['idle_ms']:.0f} ms)\n" for s in samples)
    )
    assert len(times) == 20 and all(t > 0 for t in times)


def test_lesson_02s_group_cell_at_1366x768_pass_screen_and_empty_bag_line(browser, voila):
    """Lesson 02's group cell on a 1366x768 projector: the whole app on screen, the pass
    screen hides the hand (no hand, nothing glows) until the student clicks "I am …", and the
    line under the scores says what the empty bag would mean now (rule 14.2). Screenshots in
    tests/browser/artifacts/ (docs/lesson02-group-1366x768.png is the one after the roll)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(bk.CLICK_TIMEOUT)
    context.add_init_script(bk.KERNEL_WATCH_JS)
    page = context.new_page()
    bk.fresh_class_folder(voila)
    try:
        snap = open_app(page, voila)
        app = bk.app_locator(page)
        app.scroll_into_view_if_needed()
        box = app.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 768, box
        first = snap["prompt"].split(",")[0]
        screen = app.locator(".energies-pass")
        assert screen.is_visible() and snap["pass"].startswith(f"Pass the laptop to {first}")
        assert app.locator(".energies-hand").count() == 0 and snap["legal"] == []
        assert bk.button(page, bk.BOTS_LABEL).is_disabled()
        bag = app.locator(".energies-bagline")
        assert snap["bag"] == (
            "If the bag ran out now, everybody would lose: nobody has more renewable than "
            "fossil plants (rule 14.2)."
        )
        bag_box = bag.bounding_box()
        assert bag_box["y"] + bag_box["height"] <= 768, bag_box
        bk.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(bk.ARTIFACTS / "lesson02-group-1366x768-pass.png"))

        snap = bk.click_and_wait(page, bk.button(page, bk.reveal_label(first)), "taking the screen")
        assert snap["hand"].startswith(f"{first}'s hand:") and snap["pass"] is None
        snap = bk.click_and_wait(page, bk.button(page, bk.ROLL_LABEL), "the roll")
        for selector in (
            ".energies-prompt",
            ".energies-hand",
            ".energies-scores",
            ".energies-bagline",
        ):
            part = app.locator(selector).first.bounding_box()
            assert part and part["y"] + part["height"] <= 768, (selector, part)
        page.screenshot(path=str(bk.ARTIFACTS / "lesson02-group-1366x768.png"))

        for _ in range(30):  # a 7: decisions first
            end = bk.button(page, bk.END_LABEL)
            if end.count() and not end.is_disabled():
                break
            label = bk.next_move_button(snap)
            snap = bk.click_and_wait(page, bk.button(page, label), label)
        snap = bk.click_and_wait(page, end, "ending the turn")
        after = snap["prompt"].split(",")[0]
        assert after != first and snap["pass"].startswith(f"Pass the laptop to {after}")
        assert app.locator(".energies-hand").count() == 0
    finally:
        context.close()


def test_a_reloaded_page_plays_on_from_the_saved_game(page, voila):
    """Issue 33: the cell ran again in Voila on a fresh game and wrote 0 actions over the
    group's real game. Now every move is saved, and a reloaded page plays on from the file."""
    import energies as en

    bk.fresh_class_folder(voila)
    snap = open_app(page, voila)
    first = snap["prompt"].split(",")[0]
    snap = bk.click_and_wait(page, bk.button(page, bk.reveal_label(first)), "taking the screen")
    played = bk.click_and_wait(page, bk.button(page, bk.ROLL_LABEL), "the roll")
    saved = voila.home / "class-games" / "lesson02" / "group1.json"
    game = en.load_file(saved)
    assert game.actions and game.turn == 1

    again = open_app(page, voila)  # the page reloaded: Voila runs the notebook again
    assert again["status"].startswith(
        f"Welcome back: your game from group1.json goes on (turn 1, {len(game.actions)} actions)."
    ), again["status"]
    assert again["prompt"] == played["prompt"] and again["board"] == played["board"]
    assert en.load_file(saved).actions == game.actions  # the file was not touched by starting
    assert sorted(p.name for p in saved.parent.iterdir()) == ["group1.json"]
