"""Sphinx settings of the course site (docs/site.md says why Sphinx).

docs/build_course_site.py runs Sphinx with these on a clean export of a commit, after writing
the plan (_site_plan.json: the pages of each section, the API modules, the launch settings)
that it resolved from docs/site/toc.yml. Run that script, not sphinx-build by hand.
"""

import json
import sys
import warnings
from pathlib import Path

from nbformat.validator import MissingIDFieldWarning

SITE = Path(__file__).resolve().parent
SOURCE = SITE.parents[1]  # the export's root, which is Sphinx's source folder
PLAN = json.loads((SOURCE / "_site_plan.json").read_text(encoding="utf-8"))
sys.path.insert(0, str(SITE))  # course_site.py, the site's own Sphinx extension

project = "energies"
author = "the energies contributors"
copyright = "the energies contributors, MIT licence"
html_title = PLAN["title"]
root_doc = "index"

extensions = ["myst_nb", "sphinx.ext.autodoc", "course_site"]

# Only the planned pages are documents; every other committed file stays in the source folder
# so that a link to it (a PDF, a data file, the licence) is published as a download.
include_patterns = [
    "index.md",
    *(doc for section in PLAN["sections"] for doc in section["documents"]),
]

# The notebooks are pages with their committed outputs: nothing is executed (nbval checks the
# outputs). Widget outputs were replaced by their saved pictures or a note while staging, so no
# widget JavaScript (which would come from a CDN) is put in the pages.
nb_execution_mode = "off"
nb_ipywidgets_js = {}
nb_merge_streams = True

# GitHub's heading anchors ("teaching.md#the-playapp-lesson-02"), as the documents link them
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
# Lessons saved in nbformat 4.4 have no cell ids; MyST-NB reads them the same.
warnings.filterwarnings("ignore", category=MissingIDFieldWarning)
# The lessons' headings skip levels (a "###" cell under the title); the pages read the same.
suppress_warnings = ["myst.header"]

# API reference: the public modules' docstrings, members in source order
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "description"
autodoc_preserve_defaults = True
autodoc_inherit_docstrings = False  # our words only, not a base class's (gymnasium.Env's)
energies_api_modules = PLAN["api_modules"]

launch = PLAN["launch"]
repository = launch.get("repository", "energies-kit/energies")
html_theme = "sphinx_book_theme"
html_static_path = ["_static"]
html_css_files = ["course-site.css"]
html_theme_options = {
    "repository_url": f"https://github.com/{repository}",
    "repository_branch": launch.get("branch", "HEAD"),
    "path_to_docs": "",
    "use_repository_button": True,
    "use_download_button": True,
    "home_page_in_toc": True,
    "show_toc_level": 2,
    "launch_buttons": {
        "binderhub_url": "https://mybinder.org",
        "notebook_interface": "jupyterlab",
    },
}
html_last_updated_fmt = None
html_show_sourcelink = False
energies_launch = launch
energies_folder_links = PLAN["folder_links"]
energies_lite_folder = PLAN["lite_folder"]
