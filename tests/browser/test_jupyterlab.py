"""notebooks/02-play.ipynb in a real JupyterLab, driven by Chromium: the notebook opens without a
kernel dialog, runs, shows the PlayApp, and the app answers clicks in the browser (strip, VP/LF
table, board pieces and footprint chart redrawn; an illegal move explained in a sentence)."""

from __future__ import annotations

import json

import browserkit as bk
import pytest
from energies.actions import RollDice

import energies as en
from energies.widgets.common import APP_LEGEND_POINTS, CHART_DPI

pytestmark = pytest.mark.browser

# the notebook's game: lesson 02's group cell, group 1 (three students and Fossil Fred)
SEED, NAMES = 101, ["Ana", "Ben", "Cleo", "Fossil Fred"]

_NOTEBOOK_READY_JS = """(path) => {
  if (document.querySelector('.jp-Dialog')) return 'dialog';
  const app = window.jupyterapp;
  const w = app && app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.sessionContext) return false;
  const ctx = w.sessionContext;
  return ctx.isReady && ctx.session && ctx.session.kernel ? 'ready' : false;
}"""

# every code cell ran (a number in its prompt, no "[*]"; textContent: cells scrolled out of
# view are not rendered) and the kernel is idle
_RUN_DONE_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  const prompts = Array.from(w.node.querySelectorAll('.jp-CodeCell .jp-InputPrompt'))
      .map((p) => p.textContent.trim());
  return kernel && kernel.status === 'idle' && prompts.length > 0
      && prompts.every((p) => /\\[\\d+\\]/.test(p));
}"""
DRAW_TIMEOUT = bk.RENDER_TIMEOUT  # ms, from the end of the run until the widget views are drawn


def open_notebook(page, lab) -> None:
    """Open the notebook; fail if JupyterLab asks for a kernel (the notebook names python3)."""
    page.goto(
        f"{lab.url}/lab/tree/{bk.NOTEBOOK}?token={lab.token}",
        wait_until="domcontentloaded",
        timeout=bk.RENDER_TIMEOUT,
    )
    state = page.wait_for_function(
        _NOTEBOOK_READY_JS, arg=bk.NOTEBOOK, timeout=bk.RENDER_TIMEOUT, polling=200
    ).json_value()
    if state == "dialog":
        text = page.locator(".jp-Dialog").first.inner_text()
        pytest.fail(f"JupyterLab showed a dialog on opening {bk.NOTEBOOK}: {text!r}")
    kernel = page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.name"
    )
    assert kernel == "python3", f"the notebook started kernel {kernel!r}, not its kernelspec"
    assert page.locator(".jp-Dialog").count() == 0, "a dialog appeared after the kernel started"


def run_all_and_wait_for_app(page) -> None:
    """Clear the committed outputs (their widgets belong to no kernel), run all cells, wait
    until every cell ran and the group's app is drawn."""
    page.evaluate(
        """async () => {
          await window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs');
          window.jupyterapp.commands.execute('notebook:run-all-cells');
        }"""
    )
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # not needed to skip

    page.wait_for_function(_RUN_DONE_JS, timeout=bk.RENDER_TIMEOUT, polling=200)
    try:
        bk.wait_for_app(page, timeout=DRAW_TIMEOUT)
        drawn = True
    except PlaywrightTimeout:
        drawn = False
    if not drawn:
        outputs = page.evaluate(
            "() => Array.from(document.querySelectorAll('.jp-OutputArea-output'))"
            ".map((o) => o.textContent.trim()).filter(Boolean).join('\\n---\\n').slice(0, 1500)"
        )
        pytest.fail(
            "all cells ran, but the PlayApp was not drawn as a widget (prompt, SVG board "
            f"and the '{bk.BOTS_LABEL}' button) within {DRAW_TIMEOUT / 1000:.0f} s. Are the "
            "ipywidgets and anywidget front-end extensions installed and enabled? The outputs "
            f"show:\n{outputs or '(nothing)'}"
        )
    bk.app_locator(page).evaluate("(e) => e.scrollIntoView()")


def assert_no_traceback(page) -> None:
    text = bk.page_text(page)
    assert "Traceback" not in text, "a Python traceback is shown on the page"
    assert "Error displaying widget" not in text, "a widget could not be displayed"


def assert_fits_beside_the_file_browser(page) -> None:
    """With JupyterLab's file browser open (its default), the app fits its output area: the
    board is sized by the app's width, not the window's (50vw pushed the prompt, the controls
    and the score table out to the right, cut off behind a sideways scrollbar)."""
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    page.locator(".jp-FileBrowser").first.wait_for(state="visible")
    sizes = bk.app_locator(page).evaluate(
        """async (root) => {
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          const area = root.closest('.jp-OutputArea-output');
          return {side: root.querySelector('.e-side').getBoundingClientRect().right,
                  area: area.getBoundingClientRect().right,
                  scroll: area.scrollWidth, width: area.clientWidth};
        }"""
    )
    assert sizes["side"] <= sizes["area"] + 1, f"the side panel is cut off on the right: {sizes}"
    assert sizes["scroll"] <= sizes["width"], f"the output area scrolls sideways: {sizes}"


def tampered_save() -> tuple[bytes, str]:
    """A save file of the notebook's game in which the first player rolls twice in turn 1, and
    the engine's reason why the second roll is illegal (one roll per turn, rule 5.2)."""
    game = en.new_game(seed=SEED, names=NAMES, rules=en.RuleSet.classroom())
    game.apply(RollDice(game.active_seat))
    reason = game.why_illegal(RollDice(game.active_seat))
    assert reason, "a second roll in the same turn must be illegal"
    data = json.loads(game.to_json())
    data["actions"].append(dict(data["actions"][-1]))
    return json.dumps(data).encode(), reason


def score_table(snap: dict) -> list[list[str]]:
    """The VP, LF, plants, cards, energy and dev columns of the score table, a row per seat."""
    return snap["table"]


def test_play_02_in_jupyterlab(page, lab):
    """Open, run and play notebooks/02-play.ipynb in JupyterLab: the group cell's hot-seat game,
    a turn of rule 5 (event phase, roll, action phase, end of turn; decisions of rule 9 on a 7)
    after the pass screen, a round of turns, and a refused illegal move (one roll per turn,
    rule 5.2)."""
    open_notebook(page, lab)
    run_all_and_wait_for_app(page)
    assert page.locator(".energies-prompt").count() == 1, "the group's app"
    assert_no_traceback(page)
    assert_fits_beside_the_file_browser(page)

    start = bk.snapshot(page)
    first = start["prompt"].split(",")[0]
    assert first in NAMES[:3] and start["prompt"].startswith(f"{first}, your move: roll the dice")
    assert start["board"] and len(start["legal"]) == 0, "pieces on the board, nothing glows yet"
    assert len(score_table(start)) == 4, "one score row per seat"
    assert start["pass"].startswith(f"Pass the laptop to {first}") and start["hand"] is None

    # the student takes the screen, rolls the dice (rule 5.2): the log shows it, the roll is
    # no longer offered
    shown = bk.click_and_wait(page, bk.button(page, bk.reveal_label(first)), "taking the screen")
    assert shown["hand"].startswith(f"{first}'s hand")
    roll = bk.button(page, bk.ROLL_LABEL)
    stale_roll = roll.element_handle()
    rolled = bk.click_and_wait(page, roll, f"clicking {bk.ROLL_LABEL!r}")
    assert rolled["status"].startswith(f"{first} rolls the dice"), rolled["status"]
    assert f"{first} rolled" in rolled["log"], rolled["log"][-300:]
    roll_again = bk.button(page, bk.ROLL_LABEL)
    assert not roll_again.count() or roll_again.is_disabled(), "a second roll is offered"

    # a 7 asks for decisions (rule 9: discard, Inspector, victim) before the turn can end
    for _ in range(30):
        end = bk.button(page, bk.END_LABEL)
        if end.count() and not end.is_disabled():
            break
        label = bk.next_move_button(rolled)
        assert label, f"neither a decision nor '{bk.END_LABEL}': {rolled['buttons']}"
        rolled = bk.click_and_wait(page, bk.button(page, label), f"clicking {label!r}")

    # a click on the stale roll button (removed when the page was redrawn) must not roll
    # again: checked after the next real click, which the kernel handles after any message
    # the stale click might have sent
    stale_roll.evaluate("(b) => b.click()")

    ended = bk.click_and_wait(page, bk.button(page, bk.END_LABEL), f"clicking {bk.END_LABEL!r}")
    assert ended["status"].startswith(f"{first} ends the turn"), ended["status"]
    assert f"{first} rolls the dice" not in ended["log"], "the stale roll button rolled again"
    assert not ended["prompt"].startswith(first), ended["prompt"]

    # a round: the others take the screen in turn, Fossil Fred plays his turn at once
    for _ in range(3):
        played = bk.play_turn(page)
    assert score_table(played) != score_table(start), (
        f"the VP/LF table did not change over a round: {played['scores']!r}"
    )
    assert played["log"] != ended["log"]
    assert played["board"] != start["board"], "no piece changed on the board over a round"
    # charts drawn when opened: the tab asks Python for them
    bk.click_and_wait(page, bk.app_locator(page).locator('[data-tab="charts"]'), "the Charts tab")
    page.wait_for_function(
        "() => (document.querySelector('.energies-playapp img.energies-chart') || {}).src"
        "?.startsWith('data:image/png')",
        timeout=bk.CLICK_TIMEOUT,
    )
    # beside the file browser the chart is shrunk to the side column: its legend stays >= 10 px
    scale = page.evaluate(
        """async () => { const i = document.querySelector('.energies-playapp img.energies-chart');
             await i.decode(); return i.getBoundingClientRect().width / i.naturalWidth; }"""
    )
    legend_px = APP_LEGEND_POINTS * CHART_DPI / 72 * scale
    assert legend_px >= 10, f"the chart's legend is {legend_px:.1f} px high on the page"

    # an illegal move (a save file in which the first player rolls twice) is refused with the
    # engine's reason
    content, reason = tampered_save()
    # leaving the Charts tab tells the kernel to stop drawing charts, and its answer redraws the
    # side panel: choose the file once that is drawn, as a person would, so the choice is not
    # made on a file box that the redraw then replaces
    bk.click_and_wait(page, bk.app_locator(page).locator('[data-tab="file"]'), "the File tab")
    sent = bk.clicks_sent(page)
    bk.app_locator(page).locator('input[type="file"]').set_input_files(
        files=[{"name": "tampered-game.json", "mimeType": "application/json", "buffer": content}]
    )
    refused = bk.wait_for_answers(page, sent, what="uploading the save file")
    assert refused["status"].startswith("⚠"), f"an error sentence: {refused['status']!r}"
    assert reason in refused["status"], refused["status"]
    assert "cannot be replayed" in refused["status"], refused["status"]
    assert refused["prompt"] == played["prompt"] and refused["board"] == played["board"], (
        "the refused save file changed the game"
    )
    assert refused["table"] == played["table"]
    assert_no_traceback(page)
