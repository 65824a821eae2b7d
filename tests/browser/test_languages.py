"""Lesson 02's group cell in German, Chinese and Belarusian, in Chromium at 1366x768 (issue 35).

Voila serves ``notebooks/02-play.ipynb`` with ``ENERGIES_LANG`` set (the kit-wide language a
lesson folder would give); the student takes the screen and rolls. The whole app stays on a
1366x768 screen, no column overflows sideways, and in Chinese and Belarusian no Latin word is
left on the page but the players' names and the bots' labels (what the pseudo-locale test
checks in Python, seen here as the browser draws it). The screenshots are saved under
tests/browser/artifacts/ (docs/playapp-<lang>-1366x768.png are copies of one run).
"""

from __future__ import annotations

import re

import browserkit as bk
import pytest

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")

# everything the app shows: its text and the tooltips of its spots and buttons
_TEXTS_JS = """(root) => {
  const texts = [root.querySelector('.e-side').innerText];
  for (const e of root.querySelectorAll('title')) texts.push(e.textContent);
  for (const e of root.querySelectorAll('[title]')) texts.push(e.getAttribute('title'));
  for (const e of root.querySelectorAll('svg text')) texts.push(e.textContent);
  const names = Array.from(root.querySelectorAll('.e-scores td b, .e-scores td small'))
    .map((e) => e.textContent.trim());
  const wide = Array.from(root.querySelectorAll('.e-side, .e-side > *, .e-panel, .e-tabs'))
    .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.className);
  return {texts, names, wide};
}"""


@pytest.fixture(scope="module", params=["de", "zh-Hant", "be"])
def voila_in(request, tmp_path_factory):
    lang = request.param
    home = tmp_path_factory.mktemp(f"voila-{lang}")
    server = bk.start_voila(home, env={**bk.isolated_env(home), "ENERGIES_LANG": lang})
    yield lang, server
    server.stop()


def test_lesson_02_in_each_language_at_1366x768(browser, voila_in):
    lang, server = voila_in
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(bk.CLICK_TIMEOUT)
    page = context.new_page()
    try:
        page.goto(server.url, wait_until="domcontentloaded", timeout=bk.RENDER_TIMEOUT)
        bk.wait_for_app(page)
        app = bk.app_locator(page)
        reveal = app.locator('button[data-control="reveal"]')
        if reveal.count():
            bk.click_and_wait(page, reveal.first, "taking the screen")
        bk.click_and_wait(page, app.locator('button[data-action="roll_dice"]').first, "the roll")
        app.scroll_into_view_if_needed()
        box = app.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 768, box
        for selector in (".energies-prompt", ".energies-hand", ".energies-scores"):
            part = app.locator(selector).first.bounding_box()
            assert part and part["y"] + part["height"] <= 768, (selector, part)
        seen = app.evaluate(_TEXTS_JS)
        assert seen["wide"] == []  # no column is wider than its box: the words fit
        bk.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(bk.ARTIFACTS / f"playapp-{lang}-1366x768.png"))
        text = "\n".join(seen["texts"])
        if lang == "de":
            assert "Würfel" in text and "Bots spielen bis zu meinem Zug" in text
            return
        names = {w for name in seen["names"] for w in LATIN_WORD.findall(name)}
        left = set(LATIN_WORD.findall(text)) - names - {"json"}  # the file name's extension
        assert left == set(), sorted(left)
    finally:
        context.close()
