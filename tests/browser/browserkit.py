"""Helpers of the real-browser tests: start JupyterLab / Voila, drive the PlayApp in Chromium.

Used by ``tests/browser/conftest.py`` and by ``benchmarks/browser_latency.py`` (which puts
this folder on ``sys.path``). Nothing here downloads anything: Chromium is the Debian
package at ``/usr/bin/chromium`` driven by the ``playwright`` Python package.

Servers run in their own process group with isolated Jupyter config/data/runtime dirs and
JupyterLab user settings (autosave off, so opening ``notebooks/02-play.ipynb`` never
rewrites the committed notebook); :meth:`Server.stop` always kills the whole group and every
process the server started (kernels run in sessions of their own).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = "notebooks/02-play.ipynb"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
INSTALL_HINT = "install with: apt-get install -y chromium && pip install playwright"

BOTS_LABEL = "Bots play until my turn"
REVEAL_PREFIX = "I am "  # hot-seat: the pass screen's button, "I am Ben: show my hand"


def reveal_label(name: str) -> str:
    """The pass screen's button for ``name`` (hot-seat: the student takes the screen)."""
    return f"{REVEAL_PREFIX}{name}: show my hand"


def fresh_class_folder(server: Server) -> None:
    """Remove the games a server's earlier pages saved (a group's app plays on from its saved
    game, so a test that wants a new game starts from an empty class folder)."""
    shutil.rmtree(server.home / "class-games", ignore_errors=True)


ROLL_LABEL = "Roll the dice"  # the controls of the PlayApp page (energies/widgets/play/static)
END_LABEL = "End the turn"

# Generous: the CI machine (and this one) runs other jobs at the same time. Every wait ends as
# soon as the page's own state says it may (see wait_for_answers), so a long bound costs nothing
# when things work; it only bounds how long a broken page is waited for.
SERVER_TIMEOUT = 90.0  # s, until /api/status answers
RENDER_TIMEOUT = 180_000  # ms, notebook executed and the app drawn
CLICK_TIMEOUT = 120_000  # ms, one click until the page has drawn its answer (a bots' round too)


def missing_browser() -> str | None:
    """Why the browser tests cannot run here (None when they can)."""
    if not Path(CHROMIUM).exists():
        return f"Chromium not found at {CHROMIUM}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed"
    return None


def launch_chromium(playwright):
    """Chromium from the Debian package (never a Playwright download)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


# -- servers -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    """All descendants of ``pid`` (Linux /proc; empty elsewhere)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = entry.read_text()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[-1].split()
        if len(fields) > 1:
            parents.setdefault(int(fields[1]), []).append(int(entry.parent.name))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    try:  # a zombie is dead for our purpose
        return stat.read_text().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


@dataclass
class Server:
    """A running JupyterLab or Voila process (its own process group)."""

    name: str
    proc: subprocess.Popen
    url: str
    token: str
    log_path: Path
    home: Path
    _log_file: object = field(default=None, repr=False)
    _stopped: bool = field(default=False, repr=False)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM the process group (kernels shut down cleanly), then SIGKILL what is left.
        Safe to call twice (it is also registered with atexit)."""
        if self._stopped:
            return
        self._stopped = True
        pid = self.proc.pid
        family = set(_children(pid))
        try:
            os.killpg(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        family |= set(_children(pid))
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(p) for p in family):
            time.sleep(0.1)
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            os.killpg(pid, signal.SIGKILL)
        for p in family:  # kernels live in sessions of their own
            if _alive(p):
                with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                    os.kill(p, signal.SIGKILL)
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.proc.wait(5)
        if self._log_file is not None:
            self._log_file.close()


def isolated_env(home: Path) -> dict[str, str]:
    """Environment of a server: its own Jupyter config, data and runtime dirs (extra config
    dirs can still come from JUPYTER_CONFIG_PATH)."""
    env = dict(os.environ)
    for name in ("config", "data", "runtime", "ipython"):
        (home / name).mkdir(parents=True, exist_ok=True)
    env.update(
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        # an explicitly set IPYTHONDIR is kept (e.g. startup files that break the app on purpose)
        IPYTHONDIR=os.environ.get("IPYTHONDIR") or str(home / "ipython"),
        JUPYTER_PLATFORM_DIRS="1",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
        PYTHONUNBUFFERED="1",
        # a group's game saves itself after every move (lesson 02): into the server's own
        # folder, never into the repository's notebooks/class-games
        ENERGIES_CLASS_FOLDER=str(home / "class-games"),
    )
    env.pop("JUPYTER_TOKEN", None)
    return env


def lab_settings(home: Path) -> Path:
    """JupyterLab user settings: no autosave (the repo notebook stays as committed), no news."""
    settings = home / "lab-settings"
    files = {
        "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
    }
    for rel, value in files.items():
        path = settings / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    return settings


# On Linux the servers are started through this one-liner: it asks the kernel to SIGTERM the
# process when the test process dies (even killed), then becomes the server (execv keeps it).
_DIE_WITH_PARENT = (
    "import ctypes, os, signal, sys; "
    "ctypes.CDLL('libc.so.6').prctl(1, signal.SIGTERM); "  # PR_SET_PDEATHSIG
    "os.execv(sys.executable, [sys.executable] + sys.argv[1:])"
)


def _guarded(cmd: list[str]) -> list[str]:
    if sys.platform == "linux" and cmd[0] == sys.executable:
        return [sys.executable, "-c", _DIE_WITH_PARENT, *cmd[1:]]
    return cmd


def _start(name, cmd, home: Path, url: str, token: str, ready_url: str, env=None) -> Server:
    home.mkdir(parents=True, exist_ok=True)
    log_path = home / f"{name}.log"
    log_file = open(log_path, "w")  # noqa: SIM115 - closed by Server.stop
    log_file.write("$ " + " ".join(cmd) + "\n")
    log_file.flush()
    proc = subprocess.Popen(
        _guarded(cmd),
        cwd=REPO,
        env=env or isolated_env(home),
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = Server(name, proc, url, token, log_path, home, log_file)
    atexit.register(server.stop)
    try:
        wait_until_ready(server, ready_url)
    except BaseException:
        server.stop()
        raise
    return server


def wait_until_ready(server: Server, ready_url: str, timeout: float = SERVER_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(
                f"{server.name} exited with code {server.proc.returncode} before answering; "
                f"log {server.log_path}:\n{server.log_text()[-3000:]}"
            )
        try:
            with urllib.request.urlopen(ready_url, timeout=5) as response:
                if response.status == 200:
                    return
                last = f"HTTP {response.status}"
        except urllib.error.HTTPError as exc:
            last = f"HTTP {exc.code}"
            if server.name == "voila":  # any HTTP answer: the server is listening
                return
        except (OSError, urllib.error.URLError) as exc:
            last = str(exc)
        time.sleep(0.25)
    raise RuntimeError(
        f"{server.name} did not answer {ready_url} within {timeout:.0f} s ({last}); "
        f"log {server.log_path}:\n{server.log_text()[-3000:]}"
    )


def _root_args(app: str) -> list[str]:
    """CI containers often run as root; Jupyter refuses that without this option."""
    return [f"--{app}.allow_root=True"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []


def start_lab(home: Path, extra_args=(), env=None) -> Server:
    """JupyterLab on a free port with a random token, root dir the repo, app exposed as
    ``window.jupyterapp``; quiet and offline (no news, no update check, no browser)."""
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        "--ServerApp.open_browser=False",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={REPO}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        f"--LabApp.user_settings_dir={lab_settings(home)}",
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
        "--LabApp.extension_manager=readonly",  # no PyPI look-ups
        *_root_args("ServerApp"),
        *extra_args,
    ]
    url = f"http://127.0.0.1:{port}"
    return _start("jupyterlab", cmd, home, url, token, f"{url}/api/status?token={token}", env)


def start_voila(home: Path, notebook: str = NOTEBOOK, extra_args=(), env=None) -> Server:
    """Voila serving one notebook (no token: it listens on 127.0.0.1 only)."""
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "voila",
        notebook,
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        *extra_args,
    ]
    url = f"http://127.0.0.1:{port}"
    return _start("voila", cmd, home, url, "", f"{url}/voila/static/does-not-exist", env)


# -- the PlayApp in the page -------------------------------------------------------------------

# The first PlayApp on the page (lesson 02's group cell).
_ROOT_JS = """
() => document.querySelector('.energies-playapp')
"""

# textContent, not innerText: JupyterLab skips rendering cells scrolled out of view
# (content-visibility), and innerText leaves their text out
_SNAPSHOT_JS = """(root) => {
  const clean = (t) => t.replace(/\\s+/g, ' ').trim();
  const text = (sel) => { const e = root.querySelector(sel); return e ? clean(e.textContent) : null; };
  const buttons = Array.from(root.querySelectorAll('button'))
    .filter((b) => b.offsetParent !== null)
    .map((b) => ({label: clean(b.firstChild ? b.firstChild.textContent : b.textContent),
                  disabled: b.disabled, action: b.getAttribute('data-action'),
                  style: Array.from(b.classList).filter((c) => c.startsWith('e-'))}));
  const chart = root.querySelector('img.energies-chart');
  return {
    prompt: text('.energies-prompt'), status: text('.energies-status'),
    scores: text('.energies-scores'), gf: text('.energies-gf'), hand: text('.energies-hand'),
    table: Array.from(root.querySelectorAll('.energies-scores tr[data-seat]')).map((tr) =>
      Array.from(tr.querySelectorAll('td')).slice(1).map((td) => clean(td.textContent))),
    // what a click changes first: the strip, the turn line and the status line
    log: [text('.e-turnline'), text('.energies-strip'), text('.energies-status')].join(' | '),
    board: Array.from(root.querySelectorAll('[data-owner]'))
      .map((e) => (e.getAttribute('data-spot') || e.getAttribute('data-plant')) + ':' + e.getAttribute('data-owner')).join(','),
    legal: Array.from(root.querySelectorAll('[data-legal="true"]')).map((e) => e.getAttribute('data-spot')),
    chart: chart ? chart.getAttribute('src') : null,
    rev: root.getAttribute('data-rev'),
    decision: root.getAttribute('data-decision'),
    pass: text('.energies-pass'), bag: text('.energies-bagline'),
    buttons,
  };
}"""


def app_root(page):
    """The ElementHandle of the first PlayApp (None while it is not drawn)."""
    handle = page.evaluate_handle(_ROOT_JS)
    return handle.as_element()


# texts that mean the app will not appear: a Python error, a widget the front end cannot draw
ERROR_MARKERS = ("Traceback", "Error displaying widget", "javascript error")


def wait_for_app(page, timeout: float = RENDER_TIMEOUT):
    """Wait until the first PlayApp shows its prompt, its SVG board and the bots button.

    Raises AssertionError at once when the page shows one of ERROR_MARKERS instead (e.g.
    Voila's "Click to show javascript error" when the widget manager is missing); a
    Playwright TimeoutError when nothing happened within ``timeout``."""
    page.wait_for_function(
        f"""(markers) => {{
          const text = document.body.innerText;
          if (markers.some((m) => text.includes(m))) return true;
          const root = ({_ROOT_JS})();
          if (!root) return false;
          const bots = Array.from(root.querySelectorAll('button'))
              .some((b) => b.textContent.includes({json.dumps(BOTS_LABEL)}));
          return bots && root.querySelectorAll('[data-hex]').length >= 19
                 && root.querySelector('.energies-prompt') && root.getAttribute('data-busy') === '0';
        }}""",
        arg=list(ERROR_MARKERS),
        timeout=timeout,
    )
    text = page.evaluate("() => document.body.innerText")
    shown = [m for m in ERROR_MARKERS if m in text]
    if shown:
        at = text.index(shown[0])
        raise AssertionError(
            f"the page shows {shown[0]!r} instead of the PlayApp: "
            f"...{text[max(0, at - 300) : at + 700]}..."
        )
    return app_root(page)


def snapshot(page) -> dict:
    """Texts of the readouts, the picture sources and the visible buttons of the first app."""
    root = app_root(page)
    assert root is not None, "the PlayApp is not on the page"
    return root.evaluate(_SNAPSHOT_JS)


def app_locator(page):
    """The Locator of the first PlayApp (lesson 02's group cell)."""
    return page.locator(".energies-playapp").first


def button(page, label: str):
    """The Locator of the first app's button with exactly this label."""
    return (
        app_locator(page)
        .locator("button", has_text=re.compile(rf"^\s*{re.escape(label)}(\s+\S.*)?$"))
        .first
    )


# -- the page's own state: clicks sent and answered ---------------------------------------------

# The page counts the messages it sends (data-sent) and those Python has answered (data-answered:
# Python echoes each message's token after the redraw it caused); data-busy is their difference
# and data-held="true" says a redraw waits for a mouse button to be released. Waiting on these
# needs no clock: a click's answer is drawn when data-answered reaches data-sent.
_PAGE_STATE_JS = f"""() => {{
  const root = ({_ROOT_JS})();
  if (!root || !root.hasAttribute('data-sent')) return null;
  return {{sent: Number(root.getAttribute('data-sent')),
           answered: Number(root.getAttribute('data-answered')),
           held: root.getAttribute('data-held') === 'true'}};
}}"""


def page_state(page) -> dict:
    """The first app's clicks sent and answered, and whether a redraw is held."""
    state = page.evaluate(_PAGE_STATE_JS)
    assert state is not None, "the PlayApp is not on the page"
    return state


def clicks_sent(page) -> int:
    """How many messages the first app's page has sent so far."""
    return page_state(page)["sent"]


def wait_for_answers(
    page, sent_before: int, clicks: int = 1, timeout: float = CLICK_TIMEOUT, what: str = "the click"
) -> dict:
    """Wait until the page has sent at least ``clicks`` messages more than ``sent_before`` and
    Python has answered every message it sent, each answer drawn (no redraw held); return the
    snapshot. Waits on the page's own state only: a click's effect is on the page once this
    returns, however slow the machine. Fails with an AssertionError naming what is missing."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            f"""([before, clicks]) => {{
              const s = ({_PAGE_STATE_JS})();
              return s && s.sent >= before + clicks && s.answered === s.sent && !s.held;
            }}""",
            arg=[sent_before, clicks],
            timeout=timeout,
            polling=50,
        )
    except PlaywrightTimeout:
        state = page_state(page)
        now = snapshot(page)
        raise AssertionError(
            f"the page did not answer {what} within {timeout / 1000:.0f} s: it sent "
            f"{state['sent'] - sent_before} message(s) of {clicks} expected, "
            f"{state['sent'] - state['answered']} unanswered, redraw held: {state['held']} "
            f"(status line: {now['status']!r}; prompt: {now['prompt']!r})"
        ) from None
    return snapshot(page)


def wait_for_settled(page, timeout: float = CLICK_TIMEOUT) -> dict:
    """Wait until every message the page has sent is answered and drawn (at once when none
    is waiting); return the snapshot."""
    return wait_for_answers(page, clicks_sent(page), clicks=0, timeout=timeout, what="its clicks")


def click_and_wait(page, target, what: str = "the click") -> dict:
    """Click ``target`` (a Locator) and wait until the page has drawn Python's answer."""
    before = clicks_sent(page)
    target.click()
    return wait_for_answers(page, before, what=what)


def press_and_wait(page, key: str, what: str) -> dict:
    """Press ``key`` on the focused element and wait until the page has drawn the answer."""
    before = clicks_sent(page)
    page.keyboard.press(key)
    return wait_for_answers(page, before, what=what)


# Installed in every page before its own scripts (context.add_init_script) by the latency
# measurement: watches the kernel's websocket for iopub status messages, to report when the
# kernel said "idle" after a click (every update sent). Tests do not wait on it.
KERNEL_WATCH_JS = r"""
(() => {
  if (window.__energiesKernel) return;
  const Native = window.WebSocket;
  const state = window.__energiesKernel = {busy: false, changed: performance.now(), seen: 0};
  const pattern = /"execution_state"\s*:\s*"(busy|idle|starting)"/;
  const decoder = new TextDecoder();
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        let text = event.data;
        if (typeof text !== 'string') {
          if (!(text instanceof ArrayBuffer) || text.byteLength > 65536) return;
          text = decoder.decode(new Uint8Array(text));
        }
        const match = pattern.exec(text);
        if (match) {
          state.busy = match[1] !== 'idle';
          state.changed = performance.now();
          state.seen += 1;
        }
      });
    }
  }
  window.WebSocket = Watched;
})();
"""


def page_text(page) -> str:
    """The page's visible text plus the text of every output area (also those JupyterLab does
    not render because they are scrolled out of view)."""
    return page.evaluate(
        """() => document.body.innerText + '\\n' + Array.from(
             document.querySelectorAll('.jp-OutputArea-output')).map((o) => o.textContent).join('\\n')"""
    )


# -- click-to-update latency ---------------------------------------------------------------------

# A capture-phase click listener stamps the time of the real click event; a MutationObserver
# stamps the page's first redraw after it (its data-rev changes). Both in the page's clock: no
# Playwright overhead.
_ARM_JS = f"""
() => {{
  const root = ({_ROOT_JS})();
  // the page's revision: changed by a redraw from the kernel, not by the click's own
  // "working" note
  const logText = (r) => r ? r.getAttribute('data-rev') : null;
  const state = window.__energiesLatency = {{click: null, update: null, before: logText(root)}};
  document.addEventListener('click', () => {{ if (state.click === null) state.click = performance.now(); }},
                            {{capture: true, once: true}});
  const observer = new MutationObserver(() => {{
    const text = logText(({_ROOT_JS})());
    if (state.click !== null && state.update === null && text !== state.before) {{
      state.update = performance.now();
      observer.disconnect();
    }}
  }});
  observer.observe(root, {{subtree: true, childList: true, characterData: true, attributes: true}});
}}
"""


def next_move_button(snap: dict) -> str | None:
    """The label of the button that moves the game on: the pass screen's "I am …" (hot-seat),
    Step while a bot decides, otherwise the human's roll, first orange decision button, or end
    of turn."""
    enabled = [b for b in snap["buttons"] if not b["disabled"]]
    labels = [b["label"] for b in enabled]
    reveal = [label for label in labels if label.startswith(REVEAL_PREFIX)]
    if reveal:
        return reveal[0]
    if "Step" in labels:
        return "Step"
    if ROLL_LABEL in labels:
        return ROLL_LABEL
    decisions = [b["label"] for b in enabled if "e-warn" in b["style"]]
    if decisions:
        return decisions[0]
    if END_LABEL in labels:
        return END_LABEL
    return None


def until_roll(page, limit: int = 40) -> dict:
    """Answer what comes before the first app's human can roll: the pass screen (hot-seat: "I
    am …"), an event's decision or a proposal window of a bot's turn (rule 12.1: the last
    button, Pass), and bot turns ("Bots play until my turn"). Returns the snapshot once the
    roll is offered."""
    app = app_locator(page)
    roll = app.locator('[data-action="roll_dice"]:not([disabled])')
    reveal = app.locator('[data-control="reveal"]')
    decision = app.locator(".energies-decision .e-list button[data-action]")
    bots = app.locator('[data-control="bots"]:not([disabled])')
    snap = wait_for_settled(page)
    for _ in range(limit):
        if roll.count():
            return snap
        target = (
            reveal.first
            if reveal.count()
            else decision.last
            if decision.count()
            else bots
            if bots.count()
            else None
        )
        assert target is not None, f"neither the roll, a decision nor the bots: {snap['buttons']}"
        snap = click_and_wait(page, target, "settling before a roll")
    raise AssertionError(f"no roll offered after {limit} clicks: {snap['prompt']!r}")


def play_turn(page, limit: int = 40) -> dict:
    """One student's turn of the first app, as a student plays it: take the screen when the
    pass screen asks (and whatever comes first: see :func:`until_roll`), roll, answer what a 7
    asks, end the turn. Returns the snapshot after the end of the turn."""
    until_roll(page)
    snap = click_and_wait(page, button(page, ROLL_LABEL), "a roll")
    for _ in range(limit):
        end = button(page, END_LABEL)
        if end.count() and not end.is_disabled():
            return click_and_wait(page, end, "ending the turn")
        label = next_move_button(snap)
        assert label, f"neither a decision nor '{END_LABEL}': {snap['buttons']}"
        snap = click_and_wait(page, button(page, label), f"clicking {label!r}")
    raise AssertionError(f"the turn did not end after {limit} clicks: {snap['prompt']!r}")


def measure_latency(page, clicks: int = 20) -> list[dict]:
    """Click-to-update times of ``clicks`` clicks, each on the button that moves the game on
    (mostly "Step", one bot decision), stamped in the page: ``ms`` from the click event to the
    page redrawn from the kernel's answer (board, controls, readouts), ``idle_ms`` until the
    kernel's "idle" arrived (every update of the click sent, the chart included). Needs
    KERNEL_WATCH_JS in the page. Between clicks the kernel is idle."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    samples = []
    snap = wait_for_settled(page)
    for _ in range(clicks):
        label = next_move_button(snap)
        if label is None:
            raise AssertionError(f"no button moves the game on; buttons: {snap['buttons']}")
        page.evaluate(_ARM_JS)
        sent = clicks_sent(page)
        button(page, label).click(timeout=CLICK_TIMEOUT)
        try:
            page.wait_for_function(
                "() => window.__energiesLatency.update !== null", timeout=CLICK_TIMEOUT, polling=20
            )
        except PlaywrightTimeout:
            raise AssertionError(
                f"the page was not redrawn within {CLICK_TIMEOUT / 1000:.0f} s of clicking "
                f"{label!r} (status line: {snapshot(page)['status']!r})"
            ) from None
        snap = wait_for_answers(page, sent, what=f"clicking {label!r}")
        # the kernel says "idle" after the answer's last update: a state, not a quiet time
        page.wait_for_function(
            "() => window.__energiesKernel.seen > 0 && !window.__energiesKernel.busy",
            timeout=CLICK_TIMEOUT,
            polling=20,
        )
        times, idle = page.evaluate(
            "() => [window.__energiesLatency, window.__energiesKernel.changed]"
        )
        samples.append(
            {
                "label": label,
                "ms": times["update"] - times["click"],
                "idle_ms": idle - times["click"],
            }
        )
    return samples


# -- artifacts ---------------------------------------------------------------------------------


def save_artifacts(name: str, page=None, servers=(), console=()) -> list[Path]:
    """Screenshot, page text, console messages and server logs under tests/browser/artifacts/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:120]
    saved = []
    if page is not None:
        with contextlib.suppress(Exception):
            shot = ARTIFACTS / f"{safe}.png"
            page.screenshot(path=str(shot), full_page=True, timeout=30_000)
            saved.append(shot)
        with contextlib.suppress(Exception):
            text = ARTIFACTS / f"{safe}.page.txt"
            text.write_text(page_text(page))
            saved.append(text)
    if console:
        path = ARTIFACTS / f"{safe}.console.txt"
        path.write_text("\n".join(console))
        saved.append(path)
    for server in servers:
        path = ARTIFACTS / f"{safe}.{server.name}.log"
        with contextlib.suppress(Exception):
            shutil.copyfile(server.log_path, path)
            saved.append(path)
    return saved
