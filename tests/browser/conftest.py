"""Fixtures of the real-browser tests: Chromium (Debian package) driven by Playwright against a
JupyterLab and a Voila server started for the tests.

    python -m pytest -m browser tests/browser -s       # -s shows the click-to-update latency

Without Chromium or Playwright the tests are skipped (install with: apt-get install -y
chromium && pip install playwright); when the CI environment variable is set they fail
instead, so that CI never silently skips them. Nothing is downloaded: Chromium is launched
from /usr/bin/chromium (never ``playwright install``).

On a failure the screenshot, the page text, the browser console and the server log are saved
under tests/browser/artifacts/ (git-ignored) and the failure report names the files.
"""

from __future__ import annotations

import hashlib
import os

import browserkit as bk
import pytest


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "browser: real-browser test (JupyterLab / Voila in Chromium via Playwright); "
        "deselect with -m 'not browser'",
    )


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def require_browser() -> None:
    """Skip (or, under CI, fail) when Chromium or Playwright is missing."""
    why = bk.missing_browser()
    if why is None:
        return
    message = f"{why}: {bk.INSTALL_HINT}"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI is set: the browser tests must run, not skip)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def playwright_driver():
    require_browser()
    from playwright.sync_api import sync_playwright

    driver = sync_playwright().start()
    yield driver
    driver.stop()


@pytest.fixture(scope="session")
def browser(playwright_driver):
    chromium = bk.launch_chromium(playwright_driver)
    yield chromium
    chromium.close()


def _start_server(kind: str, start, tmp_path_factory):
    require_browser()
    home = tmp_path_factory.mktemp(kind)
    try:
        return start(home)
    except RuntimeError as exc:
        saved = bk.ARTIFACTS / f"{kind}-startup.log"
        bk.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        logs = sorted(home.glob("*.log"))
        if logs:
            saved.write_text(logs[0].read_text(errors="replace"))
        pytest.fail(f"{kind} did not start (log saved to {saved}): {exc}", pytrace=False)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on a free port with a random token, root dir the repository.

    The notebook under test must stay as committed: its bytes are compared at the end (and
    restored if JupyterLab wrote to it, which counts as an error)."""
    notebook = bk.REPO / bk.NOTEBOOK
    original = notebook.read_bytes()
    server = _start_server("jupyterlab", bk.start_lab, tmp_path_factory)
    yield server
    server.stop()
    if notebook.read_bytes() != original:
        notebook.write_bytes(original)
        raise AssertionError(
            f"JupyterLab rewrote {bk.NOTEBOOK} during the test (restored; sha256 of the "
            f"original {hashlib.sha256(original).hexdigest()[:12]})"
        )


@pytest.fixture(scope="module")
def voila(tmp_path_factory):
    """Voila serving notebooks/02-play.ipynb on a free port."""
    server = _start_server("voila", bk.start_voila, tmp_path_factory)
    yield server
    server.stop()


@pytest.fixture
def page(browser, request):
    """A page in a fresh browser context; on failure: screenshot, page text, console, server logs
    saved under tests/browser/artifacts/, their paths printed and added to the report."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(bk.CLICK_TIMEOUT)
    context.add_init_script(bk.KERNEL_WATCH_JS)
    console: list[str] = []
    new_page = context.new_page()
    new_page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    new_page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    yield new_page
    item = request.node
    failed = any(
        getattr(item, f"rep_{when}", None) is not None and getattr(item, f"rep_{when}").failed
        for when in ("setup", "call")
    )
    try:
        if failed:
            servers = [v for v in item.funcargs.values() if isinstance(v, bk.Server)]
            saved = bk.save_artifacts(item.name, new_page, servers, console)
            text = "browser artifacts:\n" + "\n".join(f"  {path}" for path in saved)
            print(text)
            report = getattr(item, "rep_call", None) or getattr(item, "rep_setup", None)
            report.sections.append(("browser artifacts", text))
    finally:
        context.close()
