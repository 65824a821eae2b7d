"""The translation catalogs (issue 35): complete, faithful to their placeholders, compiled.

Every message the code marks (``python tools/catalogs.py extract``) is in the template and
translated in every language: no empty or fuzzy entry, the same ``{placeholders}`` as the
English message, each language's number of plural forms; and every committed ``.mo`` is
exactly what its ``.po`` compiles to (a ``.mo`` older than its ``.po`` differs from it).
"""

from __future__ import annotations

import io
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo  # Babel: the test extra
from babel.messages.pofile import read_po

from energies.kit import i18n

REPO = Path(__file__).resolve().parents[1]
LOCALE = i18n.LOCALE_DIR
FOLDERS = {"de": "de", "zh-Hant": "zh_Hant", "be": "be"}
PLURAL_FORMS = {"de": 2, "zh-Hant": 1, "be": 3}


def _po(code: str):
    with open(LOCALE / FOLDERS[code] / "LC_MESSAGES" / "energies.po", "rb") as f:
        return read_po(f)


def _template():
    with open(LOCALE / "energies.pot", "rb") as f:
        return read_po(f)


def _ids(catalog) -> set:
    return {m.id for m in catalog if m.id}


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def test_the_template_holds_every_message_of_the_code(tmp_path):
    """Re-extract into a temporary template: the committed one must have the same messages
    (a message added to the code without ``python tools/catalogs.py`` fails here)."""
    out = tmp_path / "fresh.pot"
    code = (
        "import sys; sys.path.insert(0, 'tools'); import catalogs; "
        f"catalogs.TEMPLATE = __import__('pathlib').Path({str(out)!r}); catalogs.extract()"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)
    with open(out, "rb") as f:
        fresh = _ids(read_po(f))
    committed = _ids(_template())
    assert fresh - committed == set(), "run python tools/catalogs.py"
    assert committed - fresh == set(), "run python tools/catalogs.py"


@pytest.mark.parametrize("code", list(FOLDERS))
def test_every_message_is_translated_with_its_placeholders(code):
    catalog, wanted = _po(code), _ids(_template())
    assert _ids(catalog) == wanted, "run python tools/catalogs.py update"
    problems = []
    for m in catalog:
        if not m.id:
            continue
        if m.fuzzy:
            problems.append(f"fuzzy: {m.id!r}")
        if isinstance(m.id, tuple):
            forms = m.string if isinstance(m.string, tuple) else (m.string,)
            if len(forms) != PLURAL_FORMS[code]:
                problems.append(f"{len(forms)} plural forms: {m.id[0]!r}")
            allowed = placeholders(m.id[0]) | placeholders(m.id[1])
            needed = placeholders(m.id[1]) - {"n"}
            for form in forms:
                if not form.strip():
                    problems.append(f"empty plural form: {m.id[0]!r}")
                elif not needed <= placeholders(form) <= allowed:
                    problems.append(f"placeholders {placeholders(form)} in {form!r}")
        elif not (m.string or "").strip():
            problems.append(f"empty: {m.id!r}")
        elif placeholders(m.string) != placeholders(m.id):
            problems.append(f"placeholders {placeholders(m.string)} in {m.string!r}")
    assert problems == []


@pytest.mark.parametrize("code", list(FOLDERS))
def test_the_plural_forms_header_is_the_language_s(code):
    header = _po(code).plural_forms
    assert f"nplurals={PLURAL_FORMS[code]};" in header.replace(" ", "")


@pytest.mark.parametrize("code", list(FOLDERS))
def test_the_compiled_catalog_is_what_its_source_compiles_to(code):
    folder = LOCALE / FOLDERS[code] / "LC_MESSAGES"
    compiled = io.BytesIO()
    write_mo(compiled, _po(code))
    assert (folder / "energies.mo").read_bytes() == compiled.getvalue(), (
        "the .mo is older than (or differs from) its .po: run python tools/catalogs.py compile"
    )


def test_a_stale_compiled_catalog_is_caught(tmp_path):
    """The check above fails on a .mo compiled before the last .po edit."""
    catalog = _po("de")
    first = next(m for m in catalog if m.id and not isinstance(m.id, tuple))
    before = io.BytesIO()
    write_mo(before, catalog)
    first.string = first.string + " (edited)"
    after = io.BytesIO()
    write_mo(after, catalog)
    assert before.getvalue() != after.getvalue()


def test_translations_use_the_sources_terms():
    """Issue 35: the game's own words from the rule summaries."""
    said = {code: " ".join(str(m.string) for m in _po(code) if m.id) for code in FOLDERS}
    for term in ("Umweltinspektor", "Aufräumen", "Lager"):
        assert term in said["de"]
    for term in ("環保督察", "棕色電廠", "綠色電廠", "科技城", "村莊"):
        assert term in said["zh-Hant"]
    for term in ("Экаінспэктар", "мястэчка"):
        assert term in said["be"]
    # the classical orthography (taraškievica): the soft sign before soft consonants
    assert re.search(r"разьвіцьця", said["be"])
