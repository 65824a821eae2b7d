"""The course site's own Sphinx extension (docs/site/conf.py loads it).

* Launch buttons on every notebook page: the book theme's Binder button (JupyterLab), plus a
  JupyterLite button that opens the lesson in the lite site published beside the book
  (``lite/`` of the same folder, so the link is relative and works on any host), and a Voila
  button for the pages the table of contents names. The same links stand as one line under
  the lesson's title, where a teacher sees them without opening the rocket menu.
* Links to a folder lead to a page of the site or to the folder on GitHub; links to a committed
  markdown file or notebook that is not a page of the site lead to the file on GitHub.
* The rules sheet's anchors ``<a id="rule-8.3"></a>``: a link ``RULES.md#rule-8.3`` from
  another page resolves to them (MyST otherwise knows only heading anchors).
"""

from __future__ import annotations

import fnmatch
import html
import re
from pathlib import Path, PurePosixPath

from docutils import nodes
from docutils.transforms import Transform
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

LESSONS_FOLDER = "notebooks"  # the lite site's file browser shows this folder's contents
RAW_ANCHOR = re.compile(r'<a id="([^"<>\s]+)">\s*</a>')
RAW_ANCHORS = re.compile(r'\s*(<a id="[^"<>\s]+">\s*</a>\s*)+')


def launch_links(app: Sphinx, docname: str) -> list[dict]:
    """The launch links of a notebook page: (text, tooltip, url, icon) as the theme draws them."""
    launch = app.config.energies_launch
    repository = launch.get("repository", "energies-kit/energies")
    branch = launch.get("branch", "HEAD")
    path = f"{docname}.ipynb"
    binder = f"https://mybinder.org/v2/gh/{repository}/{branch}"
    links = [
        {
            "text": "Binder (JupyterLab)",
            "tooltip": "Launch on Binder: JupyterLab in the cloud",
            "url": f"{binder}?urlpath=lab/tree/{path}",
            "icon": "_static/images/logo_binder.svg",
        }
    ]
    if any(fnmatch.fnmatchcase(path, pattern) for pattern in launch.get("voila", [])):
        links.append(
            {
                "text": "Voila app (Binder)",
                "tooltip": "Launch the lesson as an app on Binder (Voila: widgets, no code)",
                "url": f"{binder}?urlpath=voila/render/{path}",
                "icon": "fas fa-display",
            }
        )
    parts = PurePosixPath(docname).parts
    if parts[0] == LESSONS_FOLDER:
        up = "../" * (len(parts) - 1)
        in_lite = "/".join(parts[1:]) + ".ipynb"
        links.append(
            {
                "text": "JupyterLite (no server)",
                "tooltip": "Open the lesson in JupyterLite: Python in this browser, no server",
                "url": f"{up}{app.config.energies_lite_folder}/lab/index.html?path={in_lite}",
                "icon": "_static/images/logo_jupyterlite.svg",
            }
        )
    return links


def _is_notebook(app: Sphinx, docname: str) -> bool:
    return str(app.env.doc2path(docname)).endswith(".ipynb")


def add_launch_buttons(app: Sphinx, pagename: str, templatename, context: dict, doctree) -> None:
    """Replace the theme's launch menu of a notebook page with ours (Binder, Voila, JupyterLite)."""
    if doctree is None or not _is_notebook(app, pagename):
        return
    buttons = [
        {"type": "link", "label": f"launch-{i}", **link}
        for i, link in enumerate(launch_links(app, pagename))
    ]
    groups = context.get("header_buttons", [])
    for group in groups:
        if group.get("label") == "launch-buttons":
            group["buttons"] = buttons
            return
    groups.append(
        {
            "type": "group",
            "tooltip": "Launch this lesson",
            "icon": "fas fa-rocket",
            "buttons": buttons,
            "label": "launch-buttons",
        }
    )


def add_launch_line(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """The launch links as a line under a notebook page's title."""
    if not _is_notebook(app, docname):
        return
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None or not section.children:
        return
    links = []
    for link in launch_links(app, docname):
        url, text = html.escape(link["url"]), html.escape(link["text"])
        links.append(f'<a class="energies-launch" href="{url}">{text}</a>')
    line = (
        '<p class="energies-launch-line"><span>Run this lesson:</span> '
        + " · ".join(links)
        + "</p>"
    )
    section.insert(1, nodes.raw("", line, format="html"))


class RawAnchors(Transform):
    """``<a id="x"></a>`` lines (the rules sheet's anchors) become docutils targets with the
    same id: a link ``#x`` in the page and ``RULES.md#x`` from another page resolve to them.
    Each is also a label named ``<page>#x``, unique in the site, so a translated rules sheet
    with the same anchors is no duplicate."""

    default_priority = 250  # before docutils moves targets onto the next heading (260)

    def apply(self, **kwargs) -> None:
        docname = self.document.settings.env.docname
        replaced = set()
        for raw in list(self.document.findall(nodes.raw)):
            if "html" not in raw.get("format", "").split():
                continue
            # a line of its own: a paragraph of inline HTML (CommonMark reads "<a ..></a>"
            # followed by text as a paragraph), or an HTML block
            holder = raw.parent if isinstance(raw.parent, nodes.paragraph) else raw
            if id(holder) in replaced:
                continue
            replaced.add(id(holder))
            parts = holder.children if holder is not raw else [raw]
            if not all(isinstance(part, nodes.raw) for part in parts):
                continue
            anchors = RAW_ANCHORS.fullmatch("".join(part.astext() for part in parts))
            if not anchors:
                continue
            targets = []
            for anchor in RAW_ANCHOR.findall(anchors.group(0)):
                target = nodes.target("", "", ids=[anchor], names=[f"{docname}#{anchor}"])
                self.document.note_explicit_target(target)
                targets.append(target)
            holder.replace_self(targets)


class RepositoryLinks(SphinxPostTransform):
    """A link to a folder (``[the lessons](notebooks/)``) leads to the site page the table of
    contents names for it (``folder_links``), else to that folder of the repository on GitHub;
    a link to a committed markdown file or notebook that is not a page of the site (the landing
    page's source, say) leads to the file on GitHub. Runs before MyST resolves its links (which
    knows pages and files, not folders, and warns about a page the site leaves out)."""

    default_priority = 5  # MyST's resolver is 9

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst":
                continue
            uri, internal = self.destination(node)
            if uri is not None:
                reference = nodes.reference("", "", internal=internal, refuri=uri)
                reference += node.children
                node.replace_self(reference)

    def destination(self, node) -> tuple[str | None, bool]:
        launch = self.config.energies_launch
        on_github = "https://github.com/{}/{{}}/{}/{{}}".format(
            launch.get("repository", "energies-kit/energies"), launch.get("branch", "HEAD")
        )
        srcdir = Path(self.env.srcdir).resolve()
        if node.get("refdomain") == "doc":  # a page: is it one of the site's?
            name = node["reftarget"]
            if name in self.env.all_docs:
                return None, True
            for suffix in (".md", ".ipynb"):
                if (srcdir / f"{name}{suffix}").is_file():
                    return on_github.format("blob", f"{name}{suffix}"), False
            return None, True
        if node.get("refdomain"):
            return None, True
        path = node["reftarget"].split("#", 1)[0]
        if not path:
            return None, True
        _, absolute = self.env.relfn2path(path, node.get("refdoc", self.env.docname))
        if not Path(absolute).is_dir():
            return None, True
        folder = Path(absolute).resolve().relative_to(srcdir).as_posix()
        mapping = self.config.energies_folder_links
        if folder in mapping:
            return self.app.builder.get_relative_uri(node["refdoc"], mapping[folder]), True
        return on_github.format("tree", folder), False


# -- the API pages -------------------------------------------------------------------------------


class ApiPages:
    """autodoc hooks: a name is described once, on the page of the module that owns it (the
    longest API module name its defining module starts with), so a facade's re-exports
    (``energies.IllegalActionError`` is ``energies.kit``'s) are not described twice; and the
    docstrings' plain-text code examples (an indented block after a paragraph) become code."""

    def __init__(self) -> None:
        self.page_module = ""
        self.described: set[str] = set()

    def owner(self, app: Sphinx, defined_in: str) -> str | None:
        owners = [
            module
            for module in app.config.energies_api_modules
            if defined_in == module or defined_in.startswith(module + ".")
        ]
        return max(owners, key=len) if owners else None

    def process_docstring(self, app, what, name, obj, options, lines) -> None:
        if what == "module":
            self.page_module = name
        literal_blocks(lines)

    def skip_member(self, app, what, name, obj, skip, options):
        if skip or what != "module" or not self.page_module:
            return None
        defined_in = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", None)
        if not isinstance(defined_in, str) or not isinstance(qualname, str):
            return None
        owner = self.owner(app, defined_in)
        home = owner if owner is not None else self.page_module
        described_there = owner is not None and name in _exported(owner)
        if home != self.page_module and described_there:
            return True  # described on its own module's page
        key = f"{defined_in}.{qualname}"
        if key in self.described:
            return True  # already described on an earlier page
        self.described.add(key)
        return None


def _exported(module_name: str) -> list[str]:
    import importlib

    return list(getattr(importlib.import_module(module_name), "__all__", []))


def literal_blocks(lines: list[str]) -> None:
    """An indented block after a blank line that follows a paragraph not ending in "::" is a
    code example in plain text: mark it as a literal block (in place)."""
    index = 1
    while index < len(lines):
        line, before = lines[index], lines[index - 1]
        starts_block = line.startswith((" ", "\t")) and line.strip() and not before.strip()
        if starts_block:
            above = next((p for p in reversed(lines[: index - 1]) if p.strip()), "")
            in_list = re.match(r"^\s*([-*+]|\d+[.)])\s", above) or above.startswith(" ")
            if above and not above.rstrip().endswith("::") and not in_list:
                lines[index - 1 : index] = ["", "::", ""]
                index += 2
        index += 1


def setup(app: Sphinx) -> dict:
    api = ApiPages()
    app.add_config_value("energies_launch", {}, "html")
    app.add_config_value("energies_api_modules", [], "env")
    app.add_config_value("energies_folder_links", {}, "env")
    # where docs/build_course_site.py publishes the JupyterLite site, beside the book
    app.add_config_value("energies_lite_folder", "lite", "html")
    app.add_transform(RawAnchors)
    app.add_post_transform(RepositoryLinks)
    app.connect("autodoc-process-docstring", api.process_docstring)
    app.connect("autodoc-skip-member", api.skip_member)
    app.connect("doctree-resolved", add_launch_line)
    app.connect("html-page-context", add_launch_buttons, priority=502)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
