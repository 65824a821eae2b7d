"""The course site: the kit as one book with launch buttons (docs/build_course_site.py,
docs/site.md).

    python -m pytest tests/test_site.py -s      # -s prints the build time

* the plan, without Sphinx: the table of contents' globs place each committed page once, a
  plain path that is not committed stops the build, a language folder becomes a section of its
  own, and a notebook's widget outputs become their saved pictures or a live-kernel note;
* the published folder (tests/conftest.py builds it once per session with the one command,
  from a checkout holding uncommitted files): every lesson, guide, docs and API page is there;
  the lessons show their committed outputs and carry launch links (Binder, JupyterLite, and
  Voila for lesson 02) that lead to files of the published lite site; every internal link and
  image of every page resolves (an offline checker over the HTML); no uncommitted file or edit
  is published; the search index finds "footprint";
* warnings are errors: a tiny site with a broken link does not build; a tiny site with a
  German lesson folder has a "Deutsch" section (real Sphinx builds, no lite);
* Chromium (Debian's, no download) opens the landing page and lesson 03 at 1366x768 with every
  request to another host refused, screenshots them into tests/browser/artifacts/, and the
  search page lists lessons for "footprint".

Sphinx, MyST-NB, the book theme, the JupyterLite tools, npm or Chromium missing: skipped
locally with the reason; under CI (the CI variable set) the tests fail instead.
"""

from __future__ import annotations

import base64
import functools
import html.parser
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "docs"))
sys.path.insert(0, str(REPO / "tests" / "browser"))

import build_course_site as course_site  # docs/build_course_site.py
from sitekit import (  # tests/sitekit.py
    in_fresh_thread,
    make_repository,
    missing_site_tools,
    require,
)

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

#: a 1x1 PNG, for outputs and saved widget pictures in the fixtures
PIXEL = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360f8cfc0000003010100c9fe92ef"
        "0000000049454e44ae426082"
    )
).decode()


def _lessons(files: list[str]) -> list[str]:
    return [n for n in files if re.fullmatch(r"notebooks/\d\d-[^/]+\.ipynb", n)]


def _html(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# -- the plan, without Sphinx ----------------------------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def _notebook(*cells: dict, metadata: dict | None = None) -> str:
    python = {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    }
    return json.dumps(
        {
            "cells": list(cells),
            "metadata": python | (metadata or {}),
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def _markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


TOC = """
title: A tiny site
landing: docs/site/landing.md
sections:
  - caption: Lessons
    pages: ["notebooks/[0-9][0-9]-*.ipynb"]
  - caption: Guides
    pages: ["notebooks/*.md", "docs/*.md"]
languages:
  folders: ["notebooks/{lang}/*.ipynb", "notebooks/{lang}/*.md"]
  names: {de: Deutsch, zh-Hant: 繁體中文}
launch:
  repository: someone/fork
  voila: ["notebooks/02-*.ipynb", "notebooks/*/02-*.ipynb"]
"""


def test_the_table_of_contents_places_each_committed_page_once(tmp_path):
    _write(
        tmp_path,
        {
            "docs/site/toc.yml": TOC,
            "docs/site/landing.md": "# Tiny\n",
            "notebooks/00-start.ipynb": _notebook(_markdown("# 00 · Start")),
            "notebooks/02-play.ipynb": _notebook(_markdown("# 02 · Play")),
            "notebooks/GUIDE.md": "# Guide\n",
            "notebooks/de/00-start.ipynb": _notebook(_markdown("# 00 · Anfang")),
            "notebooks/de/GUIDE.md": "# Leitfaden\n",
            "notebooks/class-example/round1/group-A.json": "{}",  # data, not a language
            "docs/a.md": "# A\n",
        },
    )
    plan = course_site.plan_site(tmp_path, "0" * 40)
    assert [(s.caption, s.documents) for s in plan.sections] == [
        ("Lessons", ["notebooks/00-start.ipynb", "notebooks/02-play.ipynb"]),
        ("Deutsch", ["notebooks/de/00-start.ipynb", "notebooks/de/GUIDE.md"]),
        ("Guides", ["notebooks/GUIDE.md", "docs/a.md"]),
    ]
    assert plan.languages == {"de": "Deutsch"}  # zh-Hant has no folder: no section


def test_a_plain_path_that_is_not_committed_stops_the_build(tmp_path):
    toc = TOC.replace('pages: ["notebooks/*.md", "docs/*.md"]', "pages: [docs/gone.md]")
    _write(tmp_path, {"docs/site/toc.yml": toc, "docs/site/landing.md": "# Tiny\n"})
    with pytest.raises(course_site.SiteError, match="docs/gone.md is not a committed file"):
        course_site.plan_site(tmp_path, "0" * 40)


def test_a_folder_that_is_no_git_repository_or_a_missing_commit_is_refused(tmp_path):
    output = tmp_path / "site"
    output.mkdir()
    (output / "kept.html").write_text("an earlier build")
    with pytest.raises(
        course_site.SiteError, match=r"--repo .* --ref HEAD: 'HEAD' is not a commit"
    ):
        course_site.build(output, repo=tmp_path, lite=False)
    assert (output / "kept.html").read_text() == "an earlier build"  # nothing changed


def test_widget_outputs_become_their_saved_pictures_or_a_note(tmp_path):
    state = {
        "box": {
            "model_name": "VBoxModel",
            "state": {"children": ["IPY_MODEL_img", "IPY_MODEL_blank"]},
        },
        "img": {
            "model_name": "ImageModel",
            "state": {"format": "png"},
            "buffers": [{"data": PIXEL, "encoding": "base64", "path": ["value"]}],
        },
        "blank": {  # an image not drawn yet: no picture
            "model_name": "ImageModel",
            "state": {"format": "png"},
            "buffers": [{"data": "", "encoding": "base64", "path": ["value"]}],
        },
        "bar": {"model_name": "HBoxModel", "state": {"children": ["IPY_MODEL_progress"]}},
        "progress": {"model_name": "FloatProgressModel", "state": {"value": 6}},
    }
    metadata = {"widgets": {course_site.WIDGET_STATE: {"state": state}}}

    def view(model: str) -> dict:
        return {
            "output_type": "display_data",
            "metadata": {},
            "data": {course_site.WIDGET_VIEW: {"model_id": model}, "text/plain": "App(...)"},
        }

    cell = {"cell_type": "code", "metadata": {}, "source": "app", "execution_count": 1}
    cell["outputs"] = [view("box"), view("bar"), view("not-saved")]
    picture = _markdown("![the app](attachment:app.png)")
    picture["attachments"] = {"app.png": {"image/png": PIXEL}}
    path = tmp_path / "notebooks" / "05-changing-the-rules.ipynb"
    _write(
        tmp_path,
        {"notebooks/05-changing-the-rules.ipynb": _notebook(picture, cell, metadata=metadata)},
    )

    assert course_site.stage_notebook(path) is True
    staged = json.loads(path.read_text())
    title, picture, cell = staged["cells"]
    assert title["source"] == "# 05 · Changing the rules"  # none was there: from the file name
    saved, note = (output["data"]["text/html"] for output in cell["outputs"])  # no progress bar
    assert saved.count("<img ") == 1 and course_site.LIVE_KERNEL_NOTE in saved
    assert f'src="data:image/png;base64,{PIXEL}"' in saved
    assert note == course_site.LIVE_KERNEL_NOTE
    assert "widgets" not in staged["metadata"]  # no widget state, so no widget JavaScript
    attached = tmp_path / "notebooks" / "05-changing-the-rules.attachments" / "cell0-app.png"
    assert attached.read_bytes() == base64.b64decode(PIXEL)
    assert picture["source"] == "![the app](05-changing-the-rules.attachments/cell0-app.png)"
    assert course_site.stage_notebook(path) is False  # staged once, nothing more to do


# -- the published folder ----------------------------------------------------------------------------


def test_the_command_built_the_committed_files_with_warnings_as_errors(published_site):
    log = published_site.log
    assert re.search(r"^\[site\] exported commit [0-9a-f]{12} ", log, flags=re.MULTILINE)
    assert "[site] sphinx-build done" in log and "[lite] site ready" in log
    source = (REPO / "docs" / "build_course_site.py").read_text()
    assert '"-W", "--keep-going"' in source  # and test_a_warning_stops_the_build proves it
    assert 'nb_execution_mode = "off"' in (REPO / "docs" / "site" / "conf.py").read_text()
    assert (published_site.path / ".nojekyll").is_file()  # GitHub Pages serves _static/


def test_every_lesson_guide_and_docs_page_exists(published_site, committed_checkout):
    site = published_site.path
    committed = committed_checkout.committed_files()
    pages = [
        *_lessons(committed),
        "notebooks/TEACHER_GUIDE.md",
        "notebooks/RULES.md",
        "README.md",
        *(n for n in committed if re.fullmatch(r"docs/[^/]+\.md", n)),
    ]
    missing = [p for p in pages if not (site / p).with_suffix(".html").is_file()]
    assert not missing, missing
    landing = _html(site / "index.html")
    for page in pages:  # each is in the landing page's tables of contents
        assert f'href="{Path(page).with_suffix(".html").as_posix()}"' in landing, page
    guide = _html(site / "notebooks" / "TEACHER_GUIDE.html")
    assert "50-minute" in guide and 'href="RULES.html"' in guide


def test_lesson_pages_show_their_committed_outputs(published_site, committed_checkout):
    """Every chart of a lesson is on its page; a widget output is its saved picture or the note
    that it needs a live kernel; no widget JavaScript is loaded (it would come from a CDN)."""
    for name in _lessons(committed_checkout.committed_files()):
        notebook = json.loads((committed_checkout.path / name).read_text())
        if name == "notebooks/00-start-here.ipynb":  # the checkout's uncommitted edit
            notebook = json.loads(_committed_text(committed_checkout.path, name))
        outputs = [o for c in notebook["cells"] for o in c.get("outputs", [])]
        charts = sum("image/png" in o.get("data", {}) for o in outputs)
        widgets = [o for o in outputs if course_site.WIDGET_VIEW in o.get("data", {})]
        page = _html((published_site.path / name).with_suffix(".html"))
        shown = re.findall(r'<img [^>]*src="(\.\./_images/[^"]+\.png)"', page)
        assert len(shown) >= charts, name
        models = course_site._widget_models(notebook)
        static = [course_site.static_widget_output(o, models) for o in widgets]
        shown_html = [o["data"]["text/html"] for o in static if o is not None]
        assert page.count('class="energies-live-kernel"') == len(shown_html), name
        pictures = sum(text.count("<img ") for text in shown_html)
        assert page.count('alt="the app as saved"') == pictures, name
        assert "html-manager" not in page and "require.min.js" not in page, name


def _committed_text(repo: Path, name: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "show", f"HEAD:{name}"], capture_output=True, text=True, check=True
    ).stdout


def _launch_links(page: str) -> dict[str, str]:
    line = re.search(r'<p class="energies-launch-line">(.*?)</p>', page, flags=re.DOTALL)
    assert line, "no launch line under the title"
    found = re.findall(r'<a class="energies-launch" href="([^"]+)">([^<]+)</a>', line.group(1))
    return {text: href.replace("&amp;", "&") for href, text in found}


def test_every_lesson_page_has_its_launch_links(published_site, committed_checkout):
    site = published_site.path
    for name in _lessons(committed_checkout.committed_files()):
        page = _html((site / name).with_suffix(".html"))
        links = _launch_links(page)
        binder = "https://mybinder.org/v2/gh/energies-kit/energies/HEAD"
        assert links["Binder (JupyterLab)"] == f"{binder}?urlpath=lab/tree/{name}"
        lite = links["JupyterLite (no server)"]
        assert lite == f"../lite/lab/index.html?path={Path(name).name}"
        assert (site / "lite" / "lab" / "index.html").is_file()
        assert (site / "lite" / "files" / Path(name).name).is_file()  # the lesson is in lite
        if name == "notebooks/02-play.ipynb":
            assert links["Voila app (Binder)"] == f"{binder}?urlpath=voila/render/{name}"
        else:
            assert "Voila app (Binder)" not in links
        assert 'aria-label="Launch interactive content"' in page  # the theme's rocket menu
        assert "_static/images/logo_jupyterlite.svg" in page


class _Links(html.parser.HTMLParser):
    """Every href and src of a page, and its ids."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        for key, value in attrs:
            if key in ("href", "src") and value:
                self.links.append(value)
            elif key in ("id", "name") and value and (key == "id" or tag == "a"):
                self.ids.add(value)


def check_internal_links(site: Path) -> tuple[int, list[str]]:
    """Offline link check of every page of the book (lite/ is JupyterLite's application and
    only checked as a target): each relative href and src names a file of the output, a
    ``#fragment`` an id of that page, and a JupyterLite ``?path=`` a file of the lite site.
    Returns how many links were checked and the broken ones."""
    site = site.resolve()
    lite = site / "lite"
    theme = site / "_static"  # the theme's own files (its template macros are no pages)
    pages = sorted(
        p for p in site.rglob("*.html") if lite not in p.parents and theme not in p.parents
    )
    parsed: dict[Path, _Links] = {}

    def parse(path: Path) -> _Links:
        if path not in parsed:
            parser = _Links()
            parser.feed(path.read_text(encoding="utf-8", errors="replace"))
            parsed[path] = parser
        return parsed[path]

    def problem(page: Path, parts) -> str | None:
        target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file() or site not in target.parents:
            return "no such file"
        in_book = target.suffix == ".html" and lite not in target.parents
        if parts.fragment and in_book and unquote(parts.fragment) not in parse(target).ids:
            return "no such id"
        opened = re.fullmatch(r"path=([^&]+)", parts.query)
        in_lite = opened and (lite / "files" / unquote(opened[1])).is_file()
        if opened and target == lite / "lab" / "index.html" and not in_lite:
            return "not in the lite site"
        return None

    checked, broken = 0, []
    for page in pages:
        for link in parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link == "#":
                continue  # another host (not ours to check offline), or the page itself
            checked += 1
            why = problem(page, parts)
            if why:
                broken.append(f"{page.relative_to(site)}: {link} ({why})")
    return checked, broken


def test_every_internal_link_and_image_resolves(published_site):
    checked, broken = check_internal_links(published_site.path)
    assert checked > 1000
    assert not broken, f"{len(broken)} of {checked} links broken: {broken[:20]}"


def test_the_link_checker_finds_a_broken_link(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "page.html").write_text(
        '<p id="here"><a href="../b.html#there">b</a> <img src="gone.png"> '
        '<a href="#here">up</a> <a href="https://example.org/x">out</a></p>'
    )
    (tmp_path / "b.html").write_text('<a href="a/page.html#here">a</a>')
    assert check_internal_links(tmp_path) == (
        4,
        ["a/page.html: ../b.html#there (no such id)", "a/page.html: gone.png (no such file)"],
    )


def test_only_committed_files_are_published(published_site, committed_checkout):
    """The checkout's untracked save file, scratch notebook, docs page and module, and its
    uncommitted edit of lesson 00, are in no file of the output, the wheel included."""
    site = published_site.path
    marker = committed_checkout.marker.encode()
    holding = [p for p in site.rglob("*") if p.is_file() and marker in p.read_bytes()]
    assert not holding, holding
    for name in ("group1.json", "99-my-scratch", "my-notes", "uncommitted_probe"):
        assert not [p for p in site.rglob(f"*{name}*")], name
    (wheel,) = (site / "lite" / "pypi").glob("energies-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert "energies/uncommitted_probe.py" not in archive.namelist()
    assert "only what is committed is published" in _html(site / "index.html")


def test_the_search_index_finds_footprint(published_site):
    text = (published_site.path / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    docs = set()
    for kind in ("terms", "titleterms"):  # a word in a page's headings is in titleterms only
        found = index[kind]["footprint"]
        docs |= {index["docnames"][i] for i in (found if isinstance(found, list) else [found])}
    assert {"notebooks/03-footprint-over-time", "notebooks/RULES", "index"} <= docs


def test_the_api_reference_documents_the_public_modules(published_site):
    api = published_site.path / "api"
    for module in ("energies", "energies.insight", "energies.bots", "energies.env"):
        assert (api / f"{module}.html").is_file(), module
    for module in ("energies.kit", "energies.widgets", "energies.games"):
        assert (api / f"{module}.html").is_file(), module
    for game in ("shelfie", "noclear"):
        assert (api / f"energies.games.{game}.html").is_file(), game
    # a name is described once: on its own module's page, not on the facade's as well
    facade, kit = _html(api / "energies.html"), _html(api / "energies.kit.html")
    assert 'id="energies.new_game"' in facade and 'id="energies.simulate"' in facade
    assert 'id="energies.kit.IllegalActionError"' in kit
    assert 'id="energies.IllegalActionError"' not in facade
    assert 'id="energies.insight.event_risk"' in _html(api / "energies.insight.html")


def test_the_printables_page_links_every_worksheet(published_site, committed_checkout):
    page = _html(published_site.path / "printables.html")
    pdfs = [
        n
        for n in committed_checkout.committed_files()
        if re.fullmatch(r"docs/worksheets/.*\.pdf", n)
    ]
    assert pdfs
    for name in pdfs:
        assert re.search(rf'href="_downloads/[0-9a-f]+/{re.escape(Path(name).name)}"', page), name


# -- warnings are errors; a language section (tiny sites, real Sphinx builds) ----------------------


def _tiny_site(root: Path, extra: dict[str, str]) -> Path:
    """A repository with the site's configuration, the tiny table of contents and ``extra``."""
    shutil.copytree(REPO / "docs" / "site", root / "docs" / "site")
    (root / "docs" / "site" / "toc.yml").write_text(TOC, encoding="utf-8")
    cell = {"cell_type": "code", "metadata": {}, "source": "plot()", "execution_count": 1}
    cell["outputs"] = [
        {"output_type": "display_data", "metadata": {}, "data": {"image/png": PIXEL}}
    ]
    _write(
        root,
        {
            "docs/site/landing.md": "# A tiny site\n\nStart with [the guide](../../notebooks/GUIDE.md).\n",
            "notebooks/GUIDE.md": "# Guide\n\nThe global footprint.\n",
            "notebooks/00-start.ipynb": _notebook(_markdown("# 00 · Start"), cell),
            **extra,
        },
    )
    make_repository(root)
    return root


def _build_book(repo: Path, output: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(REPO / "docs" / "build_course_site.py"), "--no-lite"]
        + ["--repo", str(repo), "--output", str(output)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture
def sphinx_tools():
    require(missing_site_tools(), 'pip install -e ".[test]" (the site extra)')


def test_a_warning_stops_the_build(sphinx_tools, tmp_path):
    repo = _tiny_site(tmp_path / "repo", {"docs/a.md": "# A\n\nSee [the old page](gone.md).\n"})
    proc = _build_book(repo, tmp_path / "out")
    assert proc.returncode != 0
    assert "gone.md" in proc.stdout + proc.stderr and "sphinx-build failed" in proc.stderr


def test_a_language_folder_becomes_its_own_section(sphinx_tools, tmp_path):
    german = _notebook(_markdown("# 02 · Spielen\n\nDer globale Fußabdruck."))
    repo = _tiny_site(
        tmp_path / "repo",
        {"notebooks/de/02-spielen.ipynb": german, "notebooks/de/GUIDE.md": "# Leitfaden\n"},
    )
    proc = _build_book(repo, tmp_path / "out")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(translations: de;" in proc.stdout
    site = tmp_path / "out"
    landing = _html(site / "index.html")
    body = landing[landing.index('<div class="toctree-wrapper') :]  # not the sidebar
    captions = re.findall(r'<span class="caption-text">([^<]+)</span>', body)
    assert captions == ["Lessons", "Deutsch", "Guides"]  # no 繁體中文: no folder
    page = _html(site / "notebooks" / "de" / "02-spielen.html")
    links = _launch_links(page)
    assert links["JupyterLite (no server)"] == "../../lite/lab/index.html?path=de/02-spielen.ipynb"
    assert links["Voila app (Binder)"].endswith(
        "?urlpath=voila/render/notebooks/de/02-spielen.ipynb"
    )
    assert "someone/fork" in links["Binder (JupyterLab)"]  # the fork's slug, from the toc
    assert (site / "notebooks" / "de" / "GUIDE.html").is_file()


# -- Chromium ----------------------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def served(published_site):
    handler = functools.partial(_QuietHandler, directory=str(published_site.path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(10)


def _in_chromium(served: str, visit):
    """``visit(page)`` in Chromium at 1366x768, every request to another host refused; returns
    what visit returned, the refused requests and the failed local ones."""
    import browserkit as bk

    require(bk.missing_browser(), bk.INSTALL_HINT)
    from playwright.sync_api import sync_playwright

    refused, failed = [], []

    def only_loopback(route):
        if route.request.url.startswith(served):
            route.continue_()
        else:
            refused.append((route.request.resource_type, route.request.url))
            route.abort()

    def drive():
        with sync_playwright() as driver:
            browser = bk.launch_chromium(driver)
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            context.route("**/*", only_loopback)
            page = context.new_page()
            page.on(
                "response",
                lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None,
            )
            try:
                return visit(page, bk)
            except Exception:
                bk.ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(bk.ARTIFACTS / "site-failure.png"))
                raise
            finally:
                browser.close()

    result = in_fresh_thread(drive)
    return result, refused, failed


def test_chromium_opens_the_landing_page_and_a_lesson(served):
    def visit(page, bk):
        bk.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.goto(f"{served}/index.html")
        page.wait_for_load_state("networkidle")
        title = page.locator("h1").first.inner_text()
        lessons = page.locator("nav.bd-links a", has_text=re.compile(r"^\s*0\d · ")).count()
        landing_shot = bk.ARTIFACTS / "site-landing-1366x768.png"
        page.screenshot(path=str(landing_shot))

        page.goto(f"{served}/notebooks/03-footprint-over-time.html")
        page.wait_for_load_state("networkidle")
        heading = page.locator("h1").first.inner_text()
        launch = page.locator(".energies-launch-line a").all_inner_texts()
        charts = page.evaluate(
            """() => Array.from(document.querySelectorAll('.cell_output img'))
                 .map((img) => img.complete && img.naturalWidth > 0)"""
        )
        lesson_shot = bk.ARTIFACTS / "site-lesson-1366x768.png"
        page.screenshot(path=str(lesson_shot))
        return title, lessons, heading, launch, charts, (landing_shot, lesson_shot)

    result, refused, failed = _in_chromium(served, visit)
    title, lessons, heading, launch, charts, shots = result
    assert title.startswith("energies")
    assert lessons >= 8  # the sidebar lists the lessons
    assert heading.startswith("03 · Footprint over time")
    assert launch == ["Binder (JupyterLab)", "JupyterLite (no server)"]
    assert charts and all(charts), charts  # every chart drawn
    assert failed == [], failed  # every file the pages asked for is in the site
    # the site's own files are all local: only pictures inside the lessons' text (the Binder
    # badge) are on another host
    assert {kind for kind, _ in refused} <= {"image"}, refused
    for shot in shots:
        assert shot.stat().st_size > 20_000, shot
    print(f"\nscreenshots: {shots[0]}, {shots[1]}")


def test_chromium_search_page_finds_footprint(served):
    def visit(page, bk):
        page.goto(f"{served}/search.html?q=footprint")
        results = page.locator("#search-results ul.search li")
        results.first.wait_for(timeout=bk.RENDER_TIMEOUT)
        return results.locator("a").evaluate_all("(links) => links.map((a) => a.href)")

    hrefs, refused, failed = _in_chromium(served, visit)
    assert any(h.endswith("notebooks/03-footprint-over-time.html") for h in hrefs), hrefs[:10]
    assert any("notebooks/RULES.html" in h for h in hrefs), hrefs[:10]
    assert failed == [] and refused == []


# -- the README, the extras ----------------------------------------------------------------------


def test_the_readme_says_how_to_build_and_publish_the_site():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "python3 docs/build_course_site.py" in readme
    assert "(docs/site.md)" in readme
    page = (REPO / "docs" / "site.md").read_text(encoding="utf-8")
    assert "python3 docs/build_course_site.py" in page and "GitHub Pages" in page


def test_the_test_extra_installs_what_the_site_needs():
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    site = {re.split(r"[<>=!~ \[]", item, maxsplit=1)[0] for item in extras["site"]}
    assert {"sphinx", "myst-nb", "sphinx-book-theme", "pyyaml"} <= site
    (own,) = [item for item in extras["test"] if item.startswith("energies[")]
    assert "site" in own[len("energies[") : -1].split(",") and "lite" in own
