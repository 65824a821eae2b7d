"""The rules sheet (notebooks/RULES.md) resolves every rule number the lessons cite.

A lesson or the teacher guide that says "rule 8.5" or "rules 9.1, 9.2" must find
that number as an anchor ``<a id="rule-8.5"></a>`` in the rules sheet, and every
lesson's header links the sheet.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
RULES = NOTEBOOKS / "RULES.md"
HEADER_EXEMPT: set[str] = set()  # 02-play's header links the sheet too (issue 17)


DOCS = NOTEBOOKS.parent / "docs"
# companion-game lessons cite their own game's rules file (copies of the rules references)
COMPANION_RULES = {"09": DOCS / "shelfie-dice-rules.md", "10": DOCS / "noclear-rules.md"}


def is_companion(path: Path) -> bool:
    """A companion-game lesson (09, 10, ...) cites its own rules file, not New Energies'."""
    return path.stem[:2] in COMPANION_RULES


ALL_LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
LESSONS = [p for p in ALL_LESSONS if not is_companion(p)]
COMPANIONS = [p for p in ALL_LESSONS if is_companion(p)]

NUMBER = r"\d+(?:\.\d+[a-z]?)?"
CITATION = re.compile(
    rf"\brules?\s+({NUMBER}(?:\s*(?:,|–|-|and|or|to)\s*{NUMBER})*)", re.IGNORECASE
)


def cited_numbers(text: str) -> set[str]:
    """Every rule number in 'rule 4.3', 'rules 9.1, 9.2', 'rules 7.1–7.7' (both ends)."""
    numbers: set[str] = set()
    for match in CITATION.finditer(text):
        numbers.update(re.findall(NUMBER, match.group(1)))
    return numbers


def anchors() -> set[str]:
    return set(re.findall(r'<a id="rule-([0-9.a-z]+)"></a>', RULES.read_text(encoding="utf-8")))


def notebook_text(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    parts = ["".join(c["source"]) for c in cells]
    for c in cells:
        for out in c.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def test_citation_pattern_reads_lists_and_ranges():
    assert cited_numbers("see rules 9.1, 9.2 and rule 14.2a; Rules 7.1–7.7") == {
        "9.1",
        "9.2",
        "14.2a",
        "7.1",
        "7.7",
    }
    assert cited_numbers("rule 9) and the rules file") == {"9"}


def test_new_energies_lessons_are_checked():
    assert {p.stem[:2] for p in LESSONS} >= {"00", "01", "02", "03", "04", "05", "06", "07"}


def test_rules_sheet_has_every_section_and_the_changed_rules():
    found = anchors()
    assert {str(n) for n in range(1, 15)} <= found
    assert {"3.4", "8.5", "12.1", "12.4", "14.2", "14.2a"} <= found


@pytest.mark.parametrize("path", LESSONS + [NOTEBOOKS / "TEACHER_GUIDE.md"], ids=lambda p: p.stem)
def test_every_cited_rule_resolves_in_the_rules_sheet(path):
    text = notebook_text(path) if path.suffix == ".ipynb" else path.read_text(encoding="utf-8")
    missing = sorted(cited_numbers(text) - anchors())
    assert not missing, f"{path.name} cites rules missing from RULES.md: {missing}"


@pytest.mark.parametrize(
    "path", [p for p in LESSONS if p.stem not in HEADER_EXEMPT], ids=lambda p: p.stem
)
def test_lesson_header_links_the_rules_sheet(path):
    first = json.loads(path.read_text(encoding="utf-8"))["cells"][0]
    assert "](RULES.md)" in "".join(first["source"])


def test_rules_sheet_links_point_at_its_own_anchors():
    text = RULES.read_text(encoding="utf-8")
    targets = set(re.findall(r"\]\(#rule-([0-9.a-z]+)\)", text))
    assert targets and targets <= anchors()


def test_the_companion_lessons_are_known():
    assert {p.stem[:2] for p in COMPANIONS} == set(COMPANION_RULES)


@pytest.mark.parametrize("path", COMPANIONS, ids=lambda p: p.stem)
def test_companion_lessons_link_and_resolve_their_own_rules_file(path):
    rules_file = COMPANION_RULES[path.stem[:2]]
    header = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    assert f"(../docs/{rules_file.name})" in header, "the header links the game's rules file"
    assert "(RULES.md)" in header, "and the main game's rules sheet"
    text = rules_file.read_text(encoding="utf-8")
    numbered = set(re.findall(rf"^({NUMBER}) ", text, re.MULTILINE))
    missing = sorted(cited_numbers(notebook_text(path)) - numbered)
    assert not missing, f"{path.name} cites rules missing from {rules_file.name}: {missing}"
