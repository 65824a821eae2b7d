"""Build the course site: the kit as one book (Sphinx, MyST-NB, sphinx-book-theme) with the
JupyterLite lessons beside it, in one folder that GitHub Pages (or any static host) serves.

    python3 -m pip install -e ".[site,lite]"        # once: Sphinx and the JupyterLite tools
    python3 docs/build_course_site.py               # the site in docs/_site (lite in _site/lite)
    python3 -m http.server -d docs/_site 8000       # try it: http://127.0.0.1:8000/

Options: --output DIR; --ref REF (a commit other than HEAD); --no-lite (the book alone, a quick
look: its JupyterLite buttons then point at a lite/ folder that is not there); --pyodide FILE
(passed to the lite build, see docs/lessons-in-the-browser.md); --repo PATH (another clone).

Only what is committed is published. Steps (each prints one line):

1. export the commit (``git archive``) into a temporary folder: untracked files (a student's
   save files, scratch notebooks) and uncommitted edits are not in it;
2. read docs/site/toc.yml from the export and resolve it against the committed files: which
   pages go in which section, the language sections, the API modules, the printables;
3. stage: the landing page, one API page per module, the printables page; the notebooks'
   interactive outputs replaced by their saved pictures or a note that they need a live kernel
   (the committed notebooks in the download links stay as they are);
4. ``sphinx-build -W --keep-going`` (warnings are errors) with docs/site/conf.py; the
   notebooks are NOT executed: their committed outputs are the pages (nbval checks them);
5. the JupyterLite site from the same export (lite/build_site.py) into ``lite/`` of the output.

Nothing is downloaded while building the book; the lite build fetches its pinned wheels and
Pyodide's lockfile once into caches (see lite/build_site.py).
"""

from __future__ import annotations

import argparse
import base64
import copy
import glob
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "docs" / "_site"
TOC = "docs/site/toc.yml"
CONF_DIR = "docs/site"
#: written into the export for docs/site/conf.py: what to build (see plan_site)
PLAN_FILE = "_site_plan.json"
#: where the JupyterLite site goes inside the output (the launch buttons point there)
LITE_FOLDER = "lite"

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
PROGRESS_MODELS = {"FloatProgressModel", "IntProgressModel"}
LIVE_KERNEL_NOTE = (
    '<p class="energies-live-kernel">This is an interactive app: it runs only in a live '
    "kernel. Run the lesson with a link under its title (or the rocket at the top of the "
    "page): Binder or JupyterLite.</p>"
)


class SiteError(SystemExit):
    """A problem with the repository or the table of contents: the build stops and says what."""


def say(message: str) -> None:
    print(f"[site] {message}", flush=True)


# -- 1. export -----------------------------------------------------------------------------------


def export_commit(repo: Path, ref: str, dest: Path) -> str:
    """Extract the files of commit ``ref`` of ``repo`` into ``dest`` (``git archive``, the same
    export as the lite build's): only what is committed, never the working tree. Returns the
    commit's full hash."""
    try:
        return load_lite_builder().export_committed(dest, repo, ref)
    except SystemExit as exc:
        raise SiteError(f"--repo {repo} --ref {ref}: {exc}") from None


# -- 2. the plan ---------------------------------------------------------------------------------


@dataclass
class Section:
    caption: str
    documents: list[str] = field(default_factory=list)  # docnames (paths without suffix)


@dataclass
class Plan:
    """What the site holds, resolved from the table of contents against the committed files."""

    title: str
    landing: str
    commit: str
    sections: list[Section]
    api_modules: list[str]
    printables_title: str
    printables: list[tuple[str, list[str]]]  # (heading, files) of the printables page
    languages: dict[str, str]  # code -> section caption, for the languages that have pages
    launch: dict
    folder_links: dict[str, str]  # folder -> the page a link to it leads to

    @property
    def documents(self) -> list[str]:
        """Every page's source file (with its suffix) that the plan places, in order."""
        return [doc for section in self.sections for doc in section.documents]

    def to_json(self) -> str:
        data = {
            "title": self.title,
            "landing": self.landing,
            "commit": self.commit,
            "sections": [{"caption": s.caption, "documents": s.documents} for s in self.sections],
            "api_modules": self.api_modules,
            "printables_title": self.printables_title,
            "printables": self.printables,
            "languages": self.languages,
            "launch": self.launch,
            "folder_links": self.folder_links,
            "lite_folder": LITE_FOLDER,
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def read_toc(source: Path) -> dict:
    import yaml  # the site extra (Sphinx's MyST parser needs it too)

    path = source / TOC
    if not path.is_file():
        raise SiteError(f"{TOC} is not in the commit: the site's table of contents is missing")
    toc = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(toc, dict) or not isinstance(toc.get("sections"), list):
        raise SiteError(f"{TOC}: expected a mapping with a list of 'sections'")
    return toc


def _is_pattern(entry: str) -> bool:
    return any(char in entry for char in "*?[")


def _matches(source: Path, entry: str) -> list[str]:
    """The committed files an entry names: a glob's matches in name order, or the one path
    (a SiteError when a plain path is not committed)."""
    if not isinstance(entry, str) or not entry or entry.startswith("/") or ".." in entry:
        raise SiteError(f"{TOC}: {entry!r} is not a path relative to the repository root")
    if _is_pattern(entry):
        return sorted(
            name.replace(os.sep, "/")
            for name in glob.glob(entry, root_dir=source)
            if (source / name).is_file()
        )
    if not (source / entry).is_file():
        raise SiteError(f"{TOC}: {entry} is not a committed file (a typo, or not committed yet?)")
    return [entry]


def _pages(source: Path, entries: list, claimed: set[str]) -> list[str]:
    """The pages (.md, .ipynb) ``entries`` name that no earlier section placed."""
    pages = []
    for entry in entries:
        for name in _matches(source, entry):
            if name in claimed:
                continue
            if not name.endswith((".md", ".ipynb")):
                raise SiteError(f"{TOC}: {name} is not a page (.md or .ipynb)")
            claimed.add(name)
            pages.append(name)
    return pages


def _api_modules(source: Path, entries: list) -> list[str]:
    """Module names; ``package.*`` is every public module and subpackage of the package."""
    modules = []
    for entry in entries:
        if not isinstance(entry, str) or not re.fullmatch(r"[A-Za-z_][\w.]*(\.\*)?", entry):
            raise SiteError(f"{TOC}: {entry!r} is not a module name (or 'package.*')")
        if entry.endswith(".*"):
            package = source / Path(*entry[:-2].split("."))
            if not (package / "__init__.py").is_file():
                raise SiteError(f"{TOC}: {entry[:-2]} is not a committed package")
            children = sorted(
                path.stem
                for path in package.iterdir()
                if not path.name.startswith("_")
                and ((path / "__init__.py").is_file() or path.suffix == ".py")
            )
            modules += [f"{entry[:-2]}.{child}" for child in children]
            continue
        as_path = source / Path(*entry.split("."))
        if not ((as_path / "__init__.py").is_file() or as_path.with_suffix(".py").is_file()):
            raise SiteError(f"{TOC}: {entry} is not a committed module")
        modules.append(entry)
    return modules


def plan_site(source: Path, commit: str) -> Plan:
    """Resolve docs/site/toc.yml against the committed files in ``source``."""
    toc = read_toc(source)
    claimed: set[str] = set()
    landing = toc.get("landing", "")
    _matches(source, landing)
    claimed.add(landing)

    languages: dict[str, str] = {}
    language_sections = []
    spec = toc.get("languages") or {}
    for code, name in (spec.get("names") or {}).items():
        if not re.fullmatch(r"[A-Za-z]{2,3}(-[A-Za-z0-9]+)*", str(code)):
            raise SiteError(f"{TOC}: {code!r} is not a language code (like de or zh-Hant)")
        entries = [folder.replace("{lang}", code) for folder in spec.get("folders", [])]
        pages = _pages(source, entries, claimed)
        if pages:
            languages[code] = str(name)
            language_sections.append(Section(str(name), pages))

    sections, api, printables, printables_title = [], [], [], ""
    for number, item in enumerate(toc["sections"]):
        caption = item.get("caption") if isinstance(item, dict) else None
        if not caption:
            raise SiteError(f"{TOC}: section {number + 1} has no caption")
        if "api" in item:
            api = _api_modules(source, item["api"])
            sections.append(Section(caption, [f"api/{module}.md" for module in api]))
        elif "printables" in item:
            spec = item["printables"]
            printables_title = spec.get("title", caption)
            for group in spec.get("groups", []):
                files = [n for entry in group.get("files", []) for n in _matches(source, entry)]
                if files:
                    printables.append((str(group.get("heading", caption)), files))
            if printables:
                sections.append(Section(caption, ["printables.md"]))
        else:
            pages = _pages(source, item.get("pages", []), claimed)
            if pages:
                sections.append(Section(caption, pages))
        if number == 0:  # the translations follow the first (English lessons) section
            sections += language_sections
    return Plan(
        title=str(toc.get("title", "energies")),
        landing=landing,
        commit=commit,
        sections=sections,
        api_modules=api,
        printables_title=printables_title,
        printables=printables,
        languages=languages,
        launch=toc.get("launch") or {},
        folder_links={
            str(k).strip("/"): str(v) for k, v in (toc.get("folder_links") or {}).items()
        },
    )


# -- 3. staging ----------------------------------------------------------------------------------


def _docname(path: str) -> str:
    return path.rsplit(".", 1)[0]


def write_landing(source: Path, plan: Plan) -> None:
    """index.md: the landing page's text, then a table of contents per section."""
    lines = [
        f"```{{include}} {plan.landing}",
        ":relative-docs: .",  # its links "../x.md" are relative to its own folder
        ":relative-images:",
        "```",
        "",
    ]
    for section in plan.sections:
        lines += ["```{toctree}", f":caption: {section.caption}", ":maxdepth: 1", ""]
        lines += [_docname(doc) for doc in section.documents]
        lines += ["```", ""]
    short = plan.commit[:12]
    lines += [
        (
            f"<p class='energies-built-from'>Built from commit <code>{short}</code>: only what "
            "is committed is published.</p>"
        ),
        "",
    ]
    (source / "index.md").write_text("\n".join(lines), encoding="utf-8")


def write_api_pages(source: Path, plan: Plan) -> None:
    folder = source / "api"
    folder.mkdir(exist_ok=True)
    for module in plan.api_modules:
        text = f"# `{module}`\n\n```{{eval-rst}}\n.. automodule:: {module}\n   :members:\n```\n"
        (folder / f"{module}.md").write_text(text, encoding="utf-8")


def write_printables(source: Path, plan: Plan) -> None:
    if not plan.printables:
        return
    lines = [f"# {plan.printables_title}", ""]
    lines.append(
        "Printable pages for the classroom, as committed in the repository. Each worksheet is "
        "made from its lesson's notebook (`docs/build_worksheets.py`)."
    )
    for heading, files in plan.printables:
        lines += ["", f"## {heading}", ""]
        lines += [f"- {{download}}`{Path(name).name} <{name}>` ({name})" for name in files]
    (source / "printables.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _widget_models(notebook: dict) -> dict:
    state = notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {})
    return state.get("state", {})


def _descendants(models: dict, model_id: str) -> list[dict]:
    """The saved models of a widget and of every widget inside it."""
    found, todo, seen = [], [model_id], set()
    while todo:
        current = todo.pop()
        if current in seen or current not in models:
            continue
        seen.add(current)
        model = models[current]
        found.append(model)
        for value in model.get("state", {}).values():
            refs = value if isinstance(value, list) else [value]
            todo += [r[len("IPY_MODEL_") :] for r in refs if str(r).startswith("IPY_MODEL_")]
    return found


def static_widget_output(output: dict, models: dict) -> dict | None:
    """What a page shows for a widget output: its saved pictures with the live-kernel note, the
    note alone, or nothing for a progress bar (its work is done; the result is printed)."""
    model_id = output["data"][WIDGET_VIEW].get("model_id", "")
    saved = _descendants(models, model_id)
    if any(model.get("model_name") in PROGRESS_MODELS for model in saved):
        return None
    pictures = []
    for model in saved:
        if model.get("model_name") != "ImageModel":
            continue
        # the picture's bytes are a base64 buffer of the saved state (path ["value"])
        values = [
            buffer.get("data")
            for buffer in model.get("buffers", [])
            if buffer.get("path") == ["value"] and buffer.get("encoding") == "base64"
        ]
        kind = re.sub(r"[^a-z+]", "", str(model.get("state", {}).get("format", "png")))
        pictures += [
            f'<img src="data:image/{kind};base64,{value}" alt="the app as saved">'
            for value in values
            if isinstance(value, str) and value
        ]
    html = "".join(f"<p>{picture}</p>" for picture in pictures) + LIVE_KERNEL_NOTE
    return {"output_type": "display_data", "metadata": {}, "data": {"text/html": html}}


def _title_from_name(path: Path) -> str:
    number, _, words = path.stem.partition("-")
    words = words.replace("-", " ")
    return f"{number} · {words[:1].upper()}{words[1:]}" if number.isdigit() else path.stem


def _save_attachments(cell: dict, path: Path, number: int) -> None:
    """A markdown cell's attached pictures (``attachment:name``) saved beside the notebook
    and linked from there (MyST-NB reads no attachments)."""
    attachments = cell.pop("attachments", None) or {}
    if not attachments:
        return
    folder = path.with_name(f"{path.stem}.attachments")
    folder.mkdir(exist_ok=True)
    source = "".join(cell.get("source", ""))
    for name, bundle in attachments.items():
        kind = next((k for k in bundle if k.startswith("image/")), None)
        if kind is None:
            continue
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)
        saved = folder / f"cell{number}-{safe}"
        saved.write_bytes(base64.b64decode(bundle[kind]))
        source = source.replace(f"attachment:{name}", f"{folder.name}/{saved.name}")
    cell["source"] = source


def stage_notebook(path: Path) -> bool:
    """Prepare one committed notebook for a static page; True when it changed. Widget outputs
    become their saved pictures or the live-kernel note (no widget JavaScript is published),
    attached pictures become files, and a notebook without a "# " title gets one made from its
    file name."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    original = copy.deepcopy(notebook)
    models = _widget_models(notebook)
    for number, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") == "markdown":
            _save_attachments(cell, path, number)
        outputs = []
        for output in cell.get("outputs", []):
            if WIDGET_VIEW in output.get("data", {}):
                output = static_widget_output(output, models)
            if output is not None:
                outputs.append(output)
        if "outputs" in cell:
            cell["outputs"] = outputs
    notebook.get("metadata", {}).pop("widgets", None)
    markdown = [c for c in notebook.get("cells", []) if c.get("cell_type") == "markdown"]
    has_title = any(
        re.search(r"^# \S", "".join(c.get("source", "")), flags=re.MULTILINE) for c in markdown
    )
    if not has_title:
        title = {"cell_type": "markdown", "metadata": {}, "source": f"# {_title_from_name(path)}"}
        notebook["cells"].insert(0, title)
    if notebook == original:
        return False
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return True


def stage(source: Path, plan: Plan) -> list[str]:
    """Write the generated pages and prepare the notebooks; returns the notebooks changed."""
    write_landing(source, plan)
    write_api_pages(source, plan)
    write_printables(source, plan)
    changed = [
        doc for doc in plan.documents if doc.endswith(".ipynb") and stage_notebook(source / doc)
    ]
    (source / PLAN_FILE).write_text(plan.to_json(), encoding="utf-8")
    return changed


# -- 4. sphinx -----------------------------------------------------------------------------------


def sphinx_build(source: Path, output: Path, doctrees: Path) -> None:
    """sphinx-build, warnings as errors (all reported: --keep-going), in a fresh process whose
    ``import energies`` is the exported package (the API pages document the commit)."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(source), os.environ.get("PYTHONPATH", "")])
    )
    env["MPLBACKEND"] = "Agg"
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-E"]
    cmd += ["-c", str(source / CONF_DIR), "-d", str(doctrees), str(source), str(output)]
    proc = subprocess.run(cmd, env=env, cwd=source, check=False)
    if proc.returncode != 0:
        raise SiteError(
            f"sphinx-build failed (exit status {proc.returncode}): see its messages above"
        )


def restore_committed_sources(source_before: Path, plan: Plan, output: Path) -> None:
    """The pages' "download source" files are the committed notebooks, not the staged copies."""
    for doc in plan.documents:
        copied = output / "_sources" / doc
        if doc.endswith(".ipynb") and copied.is_file():
            shutil.copyfile(source_before / doc, copied)


# -- 5. the JupyterLite site ---------------------------------------------------------------------


def load_lite_builder():
    """lite/build_site.py of this checkout (the tool; the content comes from the export)."""
    spec = importlib.util.spec_from_file_location(
        "lite_build_site", ROOT / "lite" / "build_site.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- all of it -----------------------------------------------------------------------------------


def build(
    output: Path = OUTPUT,
    *,
    repo: Path = ROOT,
    ref: str = "HEAD",
    lite: bool = True,
    pyodide: str | None = None,
) -> Plan:
    started = time.monotonic()
    output = output.resolve()
    with tempfile.TemporaryDirectory(prefix="energies-site-") as tmp:
        source, committed = Path(tmp) / "source", Path(tmp) / "committed"
        commit = export_commit(repo, ref, source)
        say(f"exported commit {commit[:12]} of {repo} (committed files only)")
        shutil.copytree(source, committed)  # untouched, for the lite build and the downloads
        plan = plan_site(source, commit)
        languages = ", ".join(plan.languages) or "none"
        say(
            f"planned {len(plan.documents)} pages in {len(plan.sections)} sections "
            f"(translations: {languages}; {sum(len(f) for _, f in plan.printables)} printables)"
        )
        changed = stage(source, plan)
        say(
            f"staged the generated pages; {len(changed)} notebooks made static (widget "
            "outputs, attached pictures, a title)"
        )
        shutil.rmtree(output, ignore_errors=True)
        sphinx_start = time.monotonic()
        sphinx_build(source, output, Path(tmp) / "doctrees")
        restore_committed_sources(committed, plan, output)
        (output / ".nojekyll").write_text("")  # GitHub Pages: serve _static/ as it is
        say(f"sphinx-build done in {time.monotonic() - sphinx_start:.0f} s")
        if lite:
            lite_start = time.monotonic()
            load_lite_builder().build(output / LITE_FOLDER, pyodide, source=committed)
            say(f"JupyterLite site in {LITE_FOLDER}/ after {time.monotonic() - lite_start:.0f} s")
    say(f"site ready in {output} after {time.monotonic() - started:.0f} s")
    return plan


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help="site folder (docs/_site)")
    parser.add_argument("--ref", default="HEAD", help="the commit to publish (HEAD)")
    parser.add_argument("--repo", type=Path, default=ROOT, help="the git repository (this one)")
    parser.add_argument("--no-lite", action="store_true", help="the book alone, no JupyterLite")
    parser.add_argument(
        "--pyodide",
        default=os.environ.get("PYODIDE"),
        help="a full Pyodide distribution for the lite build to serve itself",
    )
    args = parser.parse_args(argv)
    build(args.output, repo=args.repo, ref=args.ref, lite=not args.no_lite, pyodide=args.pyodide)


if __name__ == "__main__":
    main()
