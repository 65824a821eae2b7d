"""The printable worksheets (docs/worksheets/*.pdf) are built from today's notebooks and rules sheet.

``docs/build_worksheets.py`` renders every page to HTML and stores each page's SHA-256 in
``docs/worksheets/sources.json``; the PDF's footer prints the first 12 hex digits. A notebook
or RULES.md edited without re-running the script makes these tests fail.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "build_worksheets.py"


def load_builder():
    spec = importlib.util.spec_from_file_location("build_worksheets", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


builder = load_builder()
PAGES = builder.pages()


def test_every_lesson_and_the_rules_sheet_has_a_page():
    lessons = {f"{p.stem}.pdf" for p in builder.lesson_notebooks()}
    assert lessons | {"rules-sheet.pdf"} == set(PAGES)
    assert {p.stem[:2] for p in builder.lesson_notebooks()} == set(builder.WORKSHEET_LESSONS)


def test_worksheets_are_not_stale():
    stale = builder.stale()
    assert not stale, f"stale worksheets: {stale} — run: python docs/build_worksheets.py"


def test_worksheets_carry_the_lesson_prompts():
    play = PAGES["02-play.pdf"]
    assert "Build log" in play and play.count("fossil / renewable") == builder.BUILD_LOG_ROWS
    dilemma = PAGES["04-strategies-and-the-dilemma.pdf"]
    assert "Predict first" in dilemma and "Debrief" in dilemma and "Exit ticket" in dilemma
    assert "externality" in dilemma  # the exit ticket of lesson 04
    assert 'id="rule-8.5"' in PAGES["rules-sheet.pdf"]


def test_extension_prompts_stay_off_the_worksheet(tmp_path):
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": ["# 09 · Test\n"]},
            {
                "cell_type": "markdown",
                "source": ["## 1 · A · *core*\n\n**Predict first:** kept?\n"],
            },
            {
                "cell_type": "markdown",
                "source": ["## 2 · B · *extension*\n\n**Predict first:** dropped\n"],
            },
            {"cell_type": "markdown", "source": ["### Discussion questions\n\n1. One?\n2. Two?\n"]},
        ]
    }
    path = tmp_path / "09-test.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert builder._core_predictions(path) == ["Kept?"]
    assert builder._discussion(path) == ["One?", "Two?"]


@pytest.mark.parametrize("name", sorted(PAGES))
def test_pdf_text_shows_its_source_digest(name):
    if shutil.which("pdftotext") is None:  # .ci/run installs it: under CI this must run
        message = "pdftotext missing: apt-get install -y poppler-utils"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    stored = json.loads(builder.HASHES.read_text(encoding="utf-8"))
    text = subprocess.run(
        ["pdftotext", str(builder.OUT / name), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert f"source {stored[name][:12]}" in text
    assert ("Worksheet" in text) or ("Rules sheet" in text)
