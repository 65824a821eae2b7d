"""The facilitator pack (docs/facilitator/) is built from today's sources and prints whole.

``python docs/build_worksheets.py`` builds the worksheets and the pack (``docs/printables``).
Each page's SHA-256 is stored in ``docs/facilitator/sources.json`` and printed in the PDF's
footer; a source edited without a rebuild (a slide, the script, a notebook behind an answer
key, the rule set behind the player aid, the roles behind the cards) fails here.
"""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def load_builder():
    spec = importlib.util.spec_from_file_location("build_worksheets", DOCS / "build_worksheets.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_worksheets"] = module
    spec.loader.exec_module(module)
    return module


builder = load_builder()
printables = builder.pack()
PRINTED = {item.name: item for item in printables.printed()}


def poppler(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:  # .ci/run installs poppler-utils: under CI this must run
        message = f"{tool} missing: apt-get install -y poppler-utils"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return found


def pdf_text(name: str, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    tool = poppler("pdftotext")
    out = subprocess.run(
        [tool, "-layout", *pages, str(printables.OUT / name), "-"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout


def page_count(name: str) -> int:
    info = subprocess.run(
        [poppler("pdfinfo"), str(printables.OUT / name)], capture_output=True, text=True, check=True
    ).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))


def test_the_pack_has_its_seven_files():
    assert set(PRINTED) == {
        "slides-lesson-a",
        "slides-07",
        "facilitator-script",
        "player-aid",
        "role-cards",
        "answer-keys",
        "debrief-guide",
    }
    assert {name for name, item in PRINTED.items() if item.deck} == {"slides-lesson-a", "slides-07"}


def test_the_pack_is_not_stale():
    stale = printables.stale()
    assert not stale, f"stale facilitator pack: {stale} — run: python docs/build_worksheets.py"


@pytest.mark.parametrize("name", sorted(PRINTED))
def test_each_pdf_names_its_source_and_has_the_right_number_of_pages(name):
    item = PRINTED[name]
    stored = json.loads(printables.HASHES.read_text(encoding="utf-8"))
    text = pdf_text(f"{name}.pdf")
    assert f"source {stored[f'{name}.pdf'][:12]}" in text
    fewest, most = item.pages
    assert fewest <= page_count(f"{name}.pdf") <= most


@pytest.mark.parametrize("name", ["slides-lesson-a", "slides-07"])
def test_every_slide_is_one_page_and_nothing_is_cut_off(name):
    slides = printables.split_slides(printables.fill((printables.OUT / f"{name}.md").read_text()))
    assert page_count(f"{name}.pdf") == len(slides) == PRINTED[name].pages[0]
    for number, slide in enumerate(slides, start=1):
        page = " ".join(pdf_text(f"{name}.pdf", number).split())
        title = slide.splitlines()[0].lstrip("# ").strip()
        last = [line for line in slide.splitlines() if line.strip()][-1]
        shown = html.unescape(re.sub(r"<[^>]+>", " ", printables.markdown(last))).replace("|", " ")
        words = re.sub(r"\s+([.,:;!?])", r"\1", " ".join(shown.split())).split()[-4:]
        assert title in page, f"slide {number} of {name}: {title!r} is not on page {number}"
        if words and not last.startswith("!["):  # a picture's alt text is not printed
            tail = " ".join(words)
            assert tail in page, f"slide {number} of {name} is cut off: {tail!r} missing"
        assert f"{number}/{len(slides)}" in page


def test_the_decks_work_offline_one_slide_at_a_time():
    for name in ("slides-lesson-a", "slides-07"):
        page = (printables.OUT / f"{name}.html").read_text(encoding="utf-8")
        assert "http://" not in page and "https://" not in page  # no CDN: a classroom offline
        assert page.count('<section class="slide"') == PRINTED[name].pages[0]
        assert "ArrowRight" in page and "@media screen" in page
        pictures = re.findall(r'<img src="([^"]*)"', page)
        assert len(pictures) == page.count("<img ")
        assert all(src.startswith("data:image/png;base64,iVBORw0KGgo") for src in pictures)


def test_the_answer_key_covers_every_worksheet_item_and_starts_each_on_a_page():
    key = PRINTED["answer-keys"].page
    lessons = builder.lesson_notebooks()
    for path in lessons:
        for prompt in builder._core_predictions(path):
            assert printables.markdown(prompt).strip()[3:-4] in key, prompt[:40]
        for question in builder._discussion(path) or builder.DEBRIEF.get(path.stem[:2], []):
            assert printables.markdown(question).strip()[3:-4] in key, question[:40]
        ticket = builder.EXIT_TICKETS.get(path.stem[:2], builder.DEFAULT_EXIT_TICKET)
        assert printables.markdown(ticket).strip()[3:-4] in key
    assert key.count('<section class="key">') == len(lessons)
    starts = []
    for page in range(1, page_count("answer-keys.pdf") + 1):
        head = pdf_text("answer-keys.pdf", page).strip().splitlines()[0]
        if head.startswith("Answer key · "):
            starts.append(head[len("Answer key · ") :][:2])
    assert starts == [p.stem[:2] for p in lessons]  # each worksheet's key opens its own page


def test_the_answer_key_quotes_the_notebooks_own_answers():
    key = PRINTED["answer-keys"].page
    # lesson 00's seeded game: the outcome line the notebook printed after its prompt
    notebook = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())
    printed = next(
        "".join(o["text"]).splitlines()[0]
        for c in notebook["cells"]
        if c["cell_type"] == "code"
        for o in c.get("outputs", [])
        if o.get("name") == "stdout"
    )
    assert html.escape(printed) in key
    assert "Expected answer (from the notebook)" in key  # lessons 04 and 05 have them
    assert "because the rules pay it" in key.lower()


def test_a_worksheet_prompt_without_a_note_stops_the_build(tmp_path, monkeypatch):
    from printables import answers

    notes = answers.NOTES.read_text(encoding="utf-8")
    cut = re.sub(r"## 04 · predict 2 ·[^\n]*\n.*?(?=\n## )", "", notes, flags=re.DOTALL)
    assert cut != notes
    (tmp_path / "notes.md").write_text(cut, encoding="utf-8")
    monkeypatch.setattr(answers, "NOTES", tmp_path / "notes.md")
    with pytest.raises(SystemExit, match=r'04 · predict 2 · "With this variant'):
        answers.answer_keys_html(builder)
    wrong = notes.replace('## 03 · predict 1 · "Ada (FossilRush)', '## 03 · predict 1 · "Who won')
    (tmp_path / "notes.md").write_text(wrong, encoding="utf-8")
    with pytest.raises(SystemExit, match="is for a prompt starting 'Who won"):
        answers.answer_keys_html(builder)


def test_the_player_aid_takes_its_numbers_from_the_rule_set(monkeypatch):
    from printables import aid

    import energies as en

    page = aid.player_aid_html()
    short = en.RuleSet.classroom()
    assert f"{short.victory_points} VP</strong> on your own turn" in page
    assert "<td>fossil plant</td><td>1 science</td><td>+1</td>" in page
    assert "<td>renewable plant</td><td>3 science</td><td>−1</td>" in page
    assert "(14.2)" in page and "Rule 4.3" in page and "(rule 10.3)" in page
    variant = short.replace(victory_points=8, renewable_cost=(("science", 2),))
    monkeypatch.setattr(en.RuleSet, "classroom", classmethod(lambda cls, *a, **k: variant))
    changed = aid.player_aid_html()
    assert "8 VP</strong> on your own turn" in changed
    assert "<td>renewable plant</td><td>2 science</td><td>−1</td>" in changed


def test_the_role_cards_print_every_role_the_lesson_checks():
    from energies.classroom import ROLES

    page = PRINTED["role-cards"].page
    assert page.count('<section class="card">') == len(ROLES)
    for role in ROLES:
        for text in (role.title, role.who, role.goal, *role.may):
            assert html.escape(text) in page
    text = pdf_text("role-cards.pdf")
    assert all(role.title in text for role in ROLES)


def time_blocks(text: str) -> list[str]:
    return [re.sub(r"\s", "", block) for block in re.findall(r"\|\s*(\d+–\d+)(?: min)?\s*\|", text)]


def test_the_script_keeps_the_timings_of_the_guide_and_of_lesson_07():
    script = (printables.OUT / "script.md").read_text(encoding="utf-8")
    lesson_a, _, class_07 = script.partition("## Lesson 07")
    guide = (ROOT / "notebooks" / "TEACHER_GUIDE.md").read_text(encoding="utf-8")
    plan = guide.split("## Lesson A", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"### (\d+–\d+) ·", lesson_a) == time_blocks(plan)
    notebook = json.loads((ROOT / "notebooks" / "07-class-experiment.ipynb").read_text())
    protocol = next(
        "".join(c["source"]) for c in notebook["cells"] if "## The protocol" in "".join(c["source"])
    )
    assert re.findall(r"### (\d+–\d+) ·", class_07) == time_blocks(protocol)


def test_the_worksheets_print_the_persona_palette():
    from energies.viz import PERSONA_LABELS, persona_color

    pages = builder.pages()
    dilemma = pages["04-strategies-and-the-dilemma.pdf"]
    for persona in builder.PERSONA_KEYS["04"]:
        assert f"background:{persona_color(persona)}" in dilemma
        assert PERSONA_LABELS[persona] in dilemma
    assert "Persona colours" not in pages["00-start-here.pdf"]
