"""The lessons in the browser alone (issue 22): JupyterLite site, Pyodide, fallbacks.

    python -m pytest tests/test_lite.py -s      # -s prints the build and Pyodide timings

* fallbacks in a (simulated) browser kernel: ``simulate(jobs>1)`` plays serially with a one-line
  note, a save outside the browser's storage says it lives in memory, a save into a missing
  folder falls back to memory; outside a browser nothing changes;
* the engine under real Pyodide: the ``pyodide`` npm package of the version the pinned kernel
  runs (installed once into lite/.node), our wheel unpacked into its site-packages in Node,
  seeded games whose save files have the same sha256 as under CPython;
* the site (built once per session as lite/ of the course site by docs/build_course_site.py,
  see tests/conftest.py, from a checkout holding uncommitted files; lite/build_site.py runs
  with every proxy pointed at a closed port, so the build downloads nothing): the committed
  lessons and nothing uncommitted, our wheel, anywidget and the other kernel
  wheels in the site's package index and lockfile, the kernel, widget and anywidget extensions;
  in Node, `import energies` and `import anywidget` from the site's lockfile and lesson 02's
  PlayApp syncing the same page as under CPython (PyPI's copies stand in for IPython and the
  other pure-Python packages the kernel gets from Pyodide's CDN);
* the site served on loopback and opened in Debian's Chromium (Playwright), every request to
  another host refused: JupyterLab loads, offers the Pyodide kernel and lists the lessons; a
  lesson opens on the Pyodide kernel, which then asks the CDN for Pyodide (refused).

Node/npm, jupyterlite and Chromium/Playwright missing: skipped locally with the reason; when
the CI environment variable is set the tests fail instead (CI must run them).
"""

from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pandas.testing as pdt
import pytest
from sitekit import in_fresh_thread  # tests/sitekit.py

import energies as en
from energies.kit import platform as lite

REPO = Path(__file__).resolve().parents[1]
LITE = REPO / "lite"
sys.path.insert(0, str(LITE))
sys.path.insert(0, str(REPO / "tests" / "browser"))

import build_site  # lite/build_site.py
import games_digest  # lite/games_digest.py

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

SEEDS = [3, 11, 2026]
LESSONS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))


def require(missing: str | None, hint: str) -> None:
    """Skip (locally) or fail (under CI) when a prerequisite is missing."""
    if missing is None:
        return
    message = f"{missing}: {hint}"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI is set: the lite tests must run, not skip)", pytrace=False)
    pytest.skip(message)


# -- fallbacks in a browser kernel ---------------------------------------------------------------


@pytest.fixture
def browser_kernel(monkeypatch):
    """Pretend to be Pyodide: ``sys.platform`` is "emscripten" there, and one CPU is seen."""
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    monkeypatch.setattr(lite, "_told", set())  # a fresh kernel: no note told yet


def _no_pool(*args, **kwargs):
    raise AssertionError("a process pool was started in a browser kernel")


def test_simulate_with_jobs_plays_serially_in_a_browser_kernel(browser_kernel, monkeypatch, capsys):
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _no_pool)
    assert not lite.can_start_processes()
    frame = en.simulate(
        6, ["random", "fossil", "green", "balanced"], seed=5, jobs=2, progress=False
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err  # one line, no traceback
    assert err.startswith("energies: ") and "jobs=1" in err
    again = en.simulate(
        6, ["random", "fossil", "green", "balanced"], seed=5, jobs=2, progress=False
    )
    assert capsys.readouterr().err == ""  # told once per kernel
    pdt.assert_frame_equal(frame, again)
    monkeypatch.setattr(sys, "platform", "linux")
    serial = en.simulate(6, ["random", "fossil", "green", "balanced"], seed=5, progress=False)
    pdt.assert_frame_equal(frame, serial)
    assert capsys.readouterr().err == ""


def test_simulate_with_an_executor_is_left_alone_in_a_browser_kernel(browser_kernel, capsys):
    class Inline:  # an executor the user made (e.g. a thread pool) is theirs to choose
        submitted = 0

        def submit(self, fn, *args):
            Inline.submitted += 1
            future = concurrent.futures.Future()
            future.set_result(fn(*args))
            return future

    en.simulate(3, ["random"] * 4, seed=1, jobs=2, executor=Inline(), progress=False)
    assert Inline.submitted > 0 and capsys.readouterr().err == ""


def test_save_outside_the_browser_storage_says_it_is_in_memory(browser_kernel, tmp_path, capsys):
    game = games_digest.play_one(("random",) * 4, 4)
    path = tmp_path / "game.json"
    assert game.save(path) == str(path)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "memory only" in err and str(path) in err
    assert en.load_file(path).digest() == game.digest()


def test_save_in_the_browser_storage_has_no_note(browser_kernel, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(lite, "BROWSER_DRIVE", str(tmp_path))  # JupyterLite's /drive
    game = en.new_game(seed=2)
    assert game.save(tmp_path / "game.json") == str(tmp_path / "game.json")
    assert capsys.readouterr().err == ""


def test_save_into_a_missing_folder_falls_back_to_memory(browser_kernel, monkeypatch, tmp_path):
    memory = tmp_path / "memory"
    monkeypatch.setattr(lite, "MEMORY_SAVES", str(memory))
    game = games_digest.play_one(("green",) * 4, 9)
    written = game.save(tmp_path / "no" / "such" / "folder" / "mine.json")
    assert written == str(memory / "mine.json")
    assert en.load_file(written).to_json() == game.to_json()


def test_outside_a_browser_kernel_nothing_changes(tmp_path, capsys):
    assert lite.can_start_processes() and not lite.in_browser_kernel()
    game = en.new_game(seed=3)
    assert game.save(tmp_path / "g.json") == str(tmp_path / "g.json")
    assert capsys.readouterr().err == ""
    with pytest.raises((OSError, ValueError), match="does not exist|No such file"):
        game.save(tmp_path / "missing" / "g.json")  # refused as before, not moved to memory


# -- pins ----------------------------------------------------------------------------------------


def test_the_lite_extra_pins_what_lite_requirements_pin():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    lines = (LITE / "requirements.txt").read_text().splitlines()
    pinned = sorted(line.strip() for line in lines if line.strip() and not line.startswith("#"))
    assert sorted(extras["lite"]) == pinned
    assert all("==" in pin for pin in pinned)
    assert any("lite" in item for item in extras["test"] if item.startswith("energies["))


def test_site_lockfile_points_at_a_self_hosted_pyodide_where_it_has_the_file(tmp_path):
    """With a Pyodide distribution copied into the site (``--pyodide``), the lockfile points at
    the site's own copies; packages the copy lacks still come from the CDN."""
    site = tmp_path / "site"
    local = site / "static" / "pyodide"
    local.mkdir(parents=True)
    (local / "numpy-2.whl").write_bytes(b"wheel")
    packages = {
        name: {"name": name, "file_name": f"{name}-2.whl", "depends": []}
        for name in (
            "numpy",
            "pandas",
            "networkx",
            "matplotlib",
            "tqdm",
            "traitlets",
            "typing-extensions",
            "ipython",
        )
    }
    (local / "pyodide-lock.json").write_text(json.dumps({"info": {}, "packages": packages}))
    (site / "pypi").mkdir()
    for name in build_site.LOCK_DEPENDS:
        (site / "pypi" / f"{name}-1.0-py3-none-any.whl").write_bytes(name.encode())
    (site / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {}}))

    lock_path = build_site.write_lock(site, local / "pyodide-lock.json", "314.0.6")
    lock = json.loads(lock_path.read_text())["packages"]
    assert lock["numpy"]["file_name"] == "../pyodide/numpy-2.whl"
    assert (
        lock["pandas"]["file_name"] == "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/pandas-2.whl"
    )
    assert lock["energies"]["file_name"] == "../../pypi/energies-1.0-py3-none-any.whl"
    assert lock["energies"]["sha256"] == hashlib.sha256(b"energies").hexdigest()


# -- the engine under real Pyodide (Node) --------------------------------------------------------


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    return build_site.build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="session")
def pyodide_package() -> Path:
    require(
        None if shutil.which("node") and shutil.which("npm") else "node or npm not found",
        "apt-get install -y nodejs npm",
    )
    require(_missing_jupyterlite(), "pip install -e '.[lite]'")
    return build_site.fetch_pyodide(build_site.pyodide_version())


def _missing_jupyterlite() -> str | None:
    try:
        import jupyterlite_core  # noqa: F401
        import jupyterlite_pyodide_kernel  # noqa: F401
    except ImportError as exc:
        return f"{exc.name} is not installed"
    return None


def _pyodide_games(pyodide_package: Path, wheel_or_lock: Path, stand_ins: Path | None = None):
    """lite/pyodide_games.mjs in Node: the seeded games under Pyodide, and what it saw (with
    ``stand_ins``, lesson 02's PlayApp built there too)."""
    start = time.monotonic()
    options = ["--stand-ins", str(stand_ins)] if stand_ins else []
    proc = subprocess.run(
        ["node", str(LITE / "pyodide_games.mjs"), *options, str(pyodide_package)]
        + [str(wheel_or_lock)]
        + [str(s) for s in SEEDS],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    # (Pyodide's minified source lines are left out of the message)
    readable = "\n".join(line for line in proc.stderr.splitlines() if len(line) < 400)
    assert proc.returncode == 0, readable[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["wall_seconds"] = time.monotonic() - start
    assert result["pyodide_version"] == build_site.pyodide_version()
    assert result["platform"] == "emscripten" and result["in_browser_kernel"] is True
    assert result["process_pool"] is False
    assert "site-packages/energies/" in result["energies_file"]
    # Pyodide's core distribution has none of the optional packages: the games did without
    assert result["absent"] == ["numpy", "pandas", "networkx", "matplotlib"]
    assert result["games"] == games_digest.describe(SEEDS)  # the same save files as CPython's
    return result


def test_engine_under_pyodide_gives_the_same_save_files_as_cpython(pyodide_package, wheel):
    result = _pyodide_games(pyodide_package, wheel)
    print(
        f"\nPyodide {result['pyodide_version']} (Python {result['python']}) in Node: "
        f"{len(result['games'])} games, {result['seconds_per_game']:.2f} s a game, "
        f"start-up {result['load_seconds']:.1f} s, {result['wall_seconds']:.1f} s in all"
    )


# -- the site ------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def site(pyodide_package, published_site) -> Path:
    """The lite site as published: lite/ of the course site, built once per session by
    docs/build_course_site.py (tests/conftest.py) from a checkout holding uncommitted files."""
    for line in published_site.log.splitlines():
        if line.startswith("[lite] site ready"):
            print(f"\n{line}")
    return published_site.path / "lite"


def test_site_has_the_committed_lessons_for_the_pyodide_kernel(site, committed_checkout):
    """The lessons and their data folders as committed; the checkout's uncommitted files (a
    save file, a scratch notebook, an edit of lesson 00) are not in the site."""
    files = site / "files"
    committed = committed_checkout.committed_files()
    lessons = sorted(
        Path(n).name
        for n in committed
        if n.startswith("notebooks/") and n.count("/") == 1 and n.endswith(".ipynb")
    )
    assert sorted(p.name for p in files.glob("*.ipynb")) == lessons
    for name in lessons:
        notebook = json.loads((files / name).read_text())
        in_commit = json.loads(_committed_text(committed_checkout.path, f"notebooks/{name}"))
        assert notebook["metadata"]["kernelspec"]["name"] == "python"  # the Pyodide kernel
        assert notebook["cells"] == in_commit["cells"]
    data = {Path(n).relative_to("notebooks") for n in committed if n.startswith("notebooks/")}
    published = {p.relative_to(files) for p in files.rglob("*") if p.is_file()}
    assert data == published
    text = "".join(p.read_text(errors="replace") for p in files.rglob("*") if p.is_file())
    assert committed_checkout.marker not in text  # no uncommitted file, no uncommitted edit


def _committed_text(repo: Path, name: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "show", f"HEAD:{name}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_site_indexes_our_wheel_and_the_kernel_wheels(site, wheel, committed_checkout):
    index = json.loads((site / "pypi" / "all.json").read_text())
    assert set(build_site.LOCK_DEPENDS) <= set(index)  # energies and the kernel wheels
    (release,) = index["energies"]["releases"][en.__version__]
    served = site / "pypi" / release["filename"]
    digest = hashlib.sha256(served.read_bytes()).hexdigest()
    assert release["digests"]["sha256"] == digest
    with zipfile.ZipFile(served) as archive:
        names = set(archive.namelist())
    committed = committed_checkout.committed_files()
    sources = {n for n in committed if n.startswith("energies/") and n.endswith(".py")}
    assert sources == {n for n in names if n.startswith("energies/") and n.endswith(".py")}
    assert "energies/uncommitted_probe.py" not in names  # untracked in the checkout
    with zipfile.ZipFile(wheel) as archive:
        assert set(archive.namelist()) == names  # the same build as the Pyodide test's
    pins = build_site.kernel_wheel_pins()
    for name, (version, sha256) in pins.items():
        (kernel_release,) = index[name]["releases"][version]
        assert kernel_release["digests"]["sha256"] == sha256


def test_site_lockfile_loads_energies_and_the_lesson_packages(site):
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"][build_site.KERNEL_PLUGIN]
    lock_url = kernel["loadPyodideOptions"]["lockFileURL"]
    lock_path = site / lock_url
    lock = json.loads(lock_path.read_text())
    from jupyterlite_pyodide_kernel.constants import PYODIDE_PYTHON_VERSION

    assert lock["info"]["python"].startswith(PYODIDE_PYTHON_VERSION + ".")  # the kernel's Python
    packages = lock["packages"]
    for name in build_site.LOCK_DEPENDS:
        entry = packages[name]
        wheel_file = (lock_path.parent / entry["file_name"]).resolve()
        assert wheel_file.parent == (site / "pypi").resolve()
        assert hashlib.sha256(wheel_file.read_bytes()).hexdigest() == entry["sha256"]
        assert entry["imports"] == [name]
    assert set(packages["energies"]["depends"]) == set(build_site.LESSON_PACKAGES)
    # everything `import energies` loads is in the lock; Pyodide's own files come from its CDN
    loaded = _closure(packages, ["energies"])
    assert {"numpy", "pandas", "matplotlib", "ipywidgets", "comm", "anywidget", "psygnal"} <= set(
        loaded
    )
    for name, entry in loaded.items():
        if name not in build_site.LOCK_DEPENDS:
            assert entry["file_name"].startswith("https://cdn.jsdelivr.net/pyodide/v")
    assert any(url.startswith("./pypi/all.json") for url in kernel["pipliteUrls"])


@pytest.fixture(scope="session")
def stand_ins(site) -> Path:
    """PyPI's pure-Python wheels of the versions the site's lockfile takes from Pyodide's CDN
    for ipywidgets and anywidget (IPython, traitlets, typing-extensions, ...), downloaded once
    into lite/.cache: Node has no CDN here, and Pyodide's own rebuilt copies differ in sha256."""
    lock = json.loads((site / build_site.LOCK_DIR / "pyodide-lock.json").read_text())
    needed = _closure(lock["packages"], ["anywidget"])
    folder = LITE / ".cache" / "pyodide-stand-ins" / build_site.pyodide_version()
    pins = [
        f"{name}=={entry['version']}"
        for name, entry in needed.items()
        if name not in build_site.LOCK_DEPENDS
        and not (folder / entry["file_name"].rsplit("/", 1)[-1]).is_file()
    ]
    if pins:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:"]
            + ["--platform", "any", "--python-version", build_site.pyodide_python()]
            + ["-d", str(folder), *pins],
            check=True,
        )
    return folder


def _closure(packages: dict, roots: list[str]) -> dict[str, dict]:
    """The lock entries ``roots`` load, by name (dependencies named as Pyodide matches them:
    case, "-", "_" and "." alike); a KeyError names a package missing from the lock."""
    by_name = {_normal(name): entry for name, entry in packages.items()}
    todo, found = list(roots), {}
    while todo:
        entry = by_name[_normal(todo.pop())]
        if entry["name"] not in found:
            found[entry["name"]] = entry
            todo.extend(entry["depends"])
    return found


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def test_site_lockfile_installs_energies_and_the_playapp_in_pyodide(
    site, pyodide_package, stand_ins
):
    """As the kernel does: `import energies` and `import anywidget` resolved through the site's
    lockfile, our wheels fetched relative to it and their sha256 checked (the CDN dependencies
    are left out, PyPI's copies of the pure-Python ones stand in); then lesson 02's PlayApp
    syncs the same page to the browser as under CPython."""
    lock = site / build_site.LOCK_DIR / "pyodide-lock.json"
    result = _pyodide_games(pyodide_package, lock, stand_ins)
    assert result["installed_from_lock"] == [
        "energies",
        "ipywidgets",
        "comm",
        "anywidget",
        "psygnal",
    ]
    assert result["playapp"] == games_digest.describe_playapp()


def test_site_has_the_kernel_and_widget_extensions(site):
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    names = {ext["name"] for ext in config["federated_extensions"]}
    assert names == set(build_site.EXTENSIONS)
    for ext in config["federated_extensions"]:
        assert (site / "extensions" / ext["name"] / ext["load"]).is_file()
    # the PlayApp's page: anywidget's front end is the version of the kernel's anywidget wheel
    package = json.loads((site / "extensions" / "anywidget" / "package.json").read_text())
    assert package["version"] == build_site.kernel_wheel_pins()["anywidget"][0]
    module, wanted = games_digest.describe_playapp()["model_module"].split("@")
    assert (
        module == "anywidget" and wanted == "~" + ".".join(package["version"].split(".")[:2]) + ".*"
    )


# -- the site in Chromium ------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def served(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(10)


def test_jupyterlab_from_loopback_lists_and_opens_the_lessons(served):
    """JupyterLab loads with every request to another host refused, lists the lessons and
    offers the Pyodide kernel; a lesson opens on that kernel without asking, and the kernel's
    first step is to fetch the pinned Pyodide from its CDN (refused here: see
    docs/lessons-in-the-browser.md)."""
    import browserkit as bk

    require(bk.missing_browser(), bk.INSTALL_HINT)
    from playwright.sync_api import sync_playwright

    requested, refused, errors = [], [], []
    cdn_pyodide = f"https://cdn.jsdelivr.net/pyodide/v{build_site.pyodide_version()}/full/"

    def only_loopback(route):
        if route.request.url.startswith(served):
            requested.append(route.request.url[len(served) :])
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    def drive():
        # its own thread: the browser tests keep a sync Playwright driver open for the
        # session, and Playwright refuses a second sync driver in a thread with a loop
        with sync_playwright() as driver:
            browser = bk.launch_chromium(driver)
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            context.route("**/*", only_loopback)
            page = context.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            try:
                page.goto(f"{served}/lab/index.html", timeout=bk.RENDER_TIMEOUT)
                listing = page.locator(".jp-DirListing-content")
                for name in LESSONS:
                    listing.get_by_text(name, exact=True).wait_for(timeout=bk.RENDER_TIMEOUT)
                page.locator(".jp-LauncherCard", has_text="Python (Pyodide)").first.wait_for(
                    timeout=bk.RENDER_TIMEOUT
                )
                widgets = [u for u in requested if "@jupyter-widgets/jupyterlab-manager" in u]
                anywidget_front = [u for u in requested if u.startswith("/extensions/anywidget/")]
                listing_errors = list(errors)

                page.goto(f"{served}/lab/index.html?path={LESSONS[0]}", timeout=bk.RENDER_TIMEOUT)
                title = page.locator(".jp-RenderedMarkdown h1").first
                title.wait_for(timeout=bk.RENDER_TIMEOUT)
                kernel = page.locator(".jp-Toolbar-kernelName", has_text="Python (Pyodide)").first
                kernel.wait_for(timeout=bk.RENDER_TIMEOUT)  # the notebook's kernel, not a dialog
                deadline = time.monotonic() + bk.RENDER_TIMEOUT / 1000
                while time.monotonic() < deadline and not any(
                    u.startswith(cdn_pyodide) for u in refused
                ):
                    page.wait_for_timeout(250)
                dialogs = page.locator(".jp-Dialog").count()
                heading = title.inner_text()
            except Exception:
                bk.ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(bk.ARTIFACTS / "lite-jupyterlab.png"))
                raise
            finally:
                browser.close()
        return widgets, anywidget_front, listing_errors, dialogs, heading

    widgets, anywidget_front, listing_errors, dialogs, heading = in_fresh_thread(drive)
    assert widgets, "JupyterLab did not load the widget manager extension"
    assert anywidget_front, "JupyterLab did not load anywidget's extension (the PlayApp's page)"
    assert heading.startswith("00 · Start here")
    assert dialogs == 0, "JupyterLite asked something on opening a lesson"
    assert f"{cdn_pyodide}pyodide.mjs" in refused, refused
    assert listing_errors == [], listing_errors
    # the only errors after opening: the kernel could not load Pyodide from the refused CDN
    assert all(cdn_pyodide in error for error in errors), errors
    print(f"\nJupyterLite: {len(requested)} loopback requests; refused: {sorted(set(refused))}")
