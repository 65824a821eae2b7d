"""Lesson 02 in German, Chinese and Belarusian as a Voila app in Chromium at 1366x768 (issue 35).

Voila starts the kernel in the notebook's folder, so ``notebooks/<lang>/02-play.ipynb`` speaks
its language through the lesson-folder rule with the English lesson's code. The group cell's
app must fit a 1366x768 projector in every language (longer German and Belarusian words, CJK
glyphs), show its own words translated (no English pass screen, bag line or buttons), and take
the student from the pass screen to a roll. Screenshots go to tests/browser/artifacts/;
docs/lesson02-<lang>-1366x768.png are the ones after the roll, looked at by a person (glyphs
drawn, no tofu boxes, nothing cut off).
"""

from __future__ import annotations

import os

import browserkit as bk
import pytest

pytestmark = pytest.mark.browser

LANGUAGES = ("de", "zh-Hant", "be")
ENGLISH_WORDS = ("Pass the laptop to", "If the bag ran out now", "Bots play until my turn")


def words(lang: str):
    """The catalog of ``lang``: the app's words as the kit says them."""
    from energies.kit.i18n import translation

    return translation(lang).gettext


@pytest.fixture(params=LANGUAGES, scope="module")
def lesson(request, tmp_path_factory):
    missing = bk.missing_browser()
    if missing:  # as conftest.require_browser: under CI the browser tests must run
        message = f"{missing}: {bk.INSTALL_HINT}"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    lang = request.param
    home = tmp_path_factory.mktemp(f"voila-{lang}")
    server = bk.start_voila(home, notebook=f"notebooks/{lang}/02-play.ipynb")
    yield lang, server
    server.stop()


def wait_for_translated_app(page, bots_label: str) -> None:
    page.wait_for_function(
        """([markers, bots]) => {
          const text = document.body.innerText;
          if (markers.some((m) => text.includes(m))) return true;
          const root = document.querySelector('.energies-playapp');
          if (!root) return false;
          const shown = Array.from(root.querySelectorAll('button'))
              .some((b) => b.textContent.includes(bots));
          return shown && root.querySelectorAll('[data-hex]').length >= 19
                 && root.querySelector('.energies-prompt') && root.getAttribute('data-busy') === '0';
        }""",
        arg=[list(bk.ERROR_MARKERS), bots_label],
        timeout=bk.RENDER_TIMEOUT,
    )
    text = page.evaluate("() => document.body.innerText")
    assert not [m for m in bk.ERROR_MARKERS if m in text], text[:1500]


def test_lesson_02_fits_1366x768_in_its_language(browser, lesson):
    lang, server = lesson
    say = words(lang)
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(bk.CLICK_TIMEOUT)
    context.add_init_script(bk.KERNEL_WATCH_JS)
    page = context.new_page()
    bk.fresh_class_folder(server)
    try:
        page.goto(server.url, wait_until="domcontentloaded", timeout=bk.RENDER_TIMEOUT)
        wait_for_translated_app(page, say("Bots play until my turn"))
        app = bk.app_locator(page)
        app.scroll_into_view_if_needed()
        box = app.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 768, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1366, box
        snap = bk.snapshot(page)
        first = "Cleo"  # group 1's starting player (seed 101), as the English lesson shows
        assert snap["pass"].startswith(say("Pass the laptop to {name}").format(name=first))
        assert snap["bag"] and not snap["bag"].startswith("If the bag ran out now")
        page_text = app.inner_text()
        english = [w for w in ENGLISH_WORDS if w in page_text]
        assert not english, f"English left on the {lang} page: {english}"
        bk.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(bk.ARTIFACTS / f"lesson02-{lang}-1366x768-pass.png"))

        reveal = say("I am {name}: show my hand").format(name=first)
        snap = bk.click_and_wait(page, bk.button(page, reveal), "taking the screen")
        assert snap["pass"] is None and snap["hand"]
        roll = app.locator('button[data-action="roll_dice"]:not([disabled])').first
        snap = bk.click_and_wait(page, roll, "the roll")
        for selector in (
            ".energies-prompt",
            ".energies-hand",
            ".energies-scores",
            ".energies-bagline",
        ):
            part = app.locator(selector).first.bounding_box()
            assert part and part["y"] + part["height"] <= 768, (selector, part)
            assert part["x"] + part["width"] <= 1366, (selector, part)
        page.screenshot(path=str(bk.ARTIFACTS / f"lesson02-{lang}-1366x768.png"))
        app.screenshot(path=str(bk.ARTIFACTS / f"lesson02-{lang}-app.png"))  # the lesson's picture
    finally:
        context.close()
